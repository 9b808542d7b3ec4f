/* mem-bw.c — memory bandwidth over a buffer of --mem-size (lmbench bw_mem).
 *
 * One operation is one pass over the whole buffer. Figures count the bytes
 * of the buffer once per pass, in MB/s with MB = 10^6 bytes: for copy that
 * is the bytes copied (as lmbench bcopy, perf bench mem memcpy and mbw
 * count), not the bytes moved (a copy reads and writes, so the memory bus
 * carries twice that; STREAM's Copy counts both). Buffers are written
 * once in setup so page faults are not timed; the buffers are filled in
 * slices with a check for Ctrl-C between them, and refused up front when
 * they would not fit in the machine's memory.
 *
 * The main figures are bakeoff's own loops over 64-bit words. lmbench's
 * bw_mem programs touch 32-bit ints: its rd / wr / rdwr / cp touch one int
 * in four (a 32-byte stride), its frd / fwr / fcp every int, and its
 * summary's "Mem read" / "Mem write" are frd / fwr. So mem.bw.read and
 * mem.bw.write also record a detail figure "frd" / "fwr": every 32-bit word
 * of the buffer summed into one accumulator, or stored, 128 words (512
 * bytes) per iteration as lmbench's loops do, written here from that
 * description. Same buffer, same byte counting.
 *
 * Closest lmbench bw_mem modes: read ~ frd with 64-bit words, write ~ fwr
 * with 64-bit words, rmw ~ rdwr on every word (rdwr touches one int in
 * four), copy = bcopy (libc), copy_hand ~ fcp with 64-bit words (the
 * summary's "Bcopy (hand)"), bzero = bzero. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "harness.h"
#include "result.h"
#include "scratch.h"
#include "units.h"
#include "sysinfo.h"

/* Setup fills the buffers this many bytes at a time between interrupt
 * checks: a few ms each, however large --mem-size is. */
#define FILL_SLICE ((size_t)16 << 20)
/* lmbench's loops work on 512-byte chunks: 128 32-bit words. */
#define CHUNK_WORDS 128

struct bw_state {
	uint64_t *src, *dst;
	size_t words;
};

static void bw_teardown(void *state)
{
	struct bw_state *s = state;

	free(s->src);
	free(s->dst);
	free(s);
}

/* memset in slices, returning -1 (errno EINTR) once Ctrl-C was pressed. */
static int fill(void *p, int c, size_t bytes)
{
	size_t off, k;

	for (off = 0; off < bytes; off += k) {
		if (!(k = scratch_slice(off, bytes, FILL_SLICE)))
			return -1;
		memset((char *)p + off, c, k);
	}
	return 0;
}

static int bw_setup(struct bench_ctx *ctx, void **state, int two)
{
	struct bw_state *s = harness_state(ctx, sizeof(*s));
	/* Whole 512-byte chunks, so lmbench's loops need no tail. */
	size_t bytes = ctx->opt->mem_size & ~(size_t)511;
	size_t nbuf = two ? 2 : 1;
	struct sysinfo tmp;
	const struct sysinfo *si = harness_host(ctx, &tmp);

	if (!s)
		return -1;
	if (bytes < 512) {
		snprintf(ctx->reason, sizeof(ctx->reason), "--mem-size is below 512 bytes");
		goto fail;
	}
	if (si->mem_total && (double)bytes * (double)nbuf > (double)si->mem_total) {
		char need[32], have[32];

		fmt_size(need, sizeof(need), (uint64_t)bytes * nbuf);
		fmt_size(have, sizeof(have), si->mem_total);
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "needs %s of memory (%zu buffer%s of --mem-size), %s in this machine",
			 need, nbuf, nbuf > 1 ? "s" : "", have);
		goto fail;
	}
	s->words = bytes / 8;
	if (posix_memalign((void **)&s->src, 64, bytes)) {
		s->src = NULL;
		goto oom;
	}
	if (fill(s->src, 1, bytes) < 0)
		goto fail;
	if (two) {
		if (posix_memalign((void **)&s->dst, 64, bytes)) {
			s->dst = NULL;
			goto oom;
		}
		if (fill(s->dst, 2, bytes) < 0)
			goto fail;
	}
	ctx->bytes_per_op = (double)bytes;
	result_param_num(ctx->res, "mem_size_bytes", (double)bytes);
	*state = s;
	return 0;
oom:
	fmt_size(ctx->reason, sizeof(ctx->reason), bytes);
	snprintf(ctx->reason + strlen(ctx->reason), sizeof(ctx->reason) - strlen(ctx->reason),
		 " buffer: out of memory");
fail:
	bw_teardown(s);
	return -1;
}

static int setup_one(struct bench_ctx *ctx, void **state)
{
	return bw_setup(ctx, state, 0);
}

static int setup_two(struct bench_ctx *ctx, void **state)
{
	return bw_setup(ctx, state, 1);
}

/* lmbench's frd and fwr are 128 statements a chunk, built with -O, where
 * gcc emits one 4-byte load or store per word, no loop inside a chunk
 * (objdump of its bw_mem: frd one chain of 128 `add mem, reg`; fwr 128
 * `movl $1`, the last word first). On one core that is bound by the CPU,
 * not the memory: the same chain with a loop every 8 words read 0.77 as
 * fast on a Xeon guest, and at -O2 gcc and clang vectorize the chunk
 * (16-byte loads and stores: 1.25 as fast for fwr). So the chunk is spelled
 * out here too, and each word kept scalar: the sum through a register
 * barrier (BENCH_KEEP, with GNU C; a volatile pointer elsewhere), the
 * stores through a volatile pointer. */
#if defined(__GNUC__) || defined(__clang__)
#define FRD_VOLATILE
#define LOAD(q, i) c += q[i]; BENCH_KEEP(c);
#else
#define FRD_VOLATILE volatile
#define LOAD(q, i) c += q[i];
#endif
#define STORE(q, i) q[i] = v;
#define UP8(q, j, op) op(q, j) op(q, j + 1) op(q, j + 2) op(q, j + 3) \
	op(q, j + 4) op(q, j + 5) op(q, j + 6) op(q, j + 7)
#define DOWN8(q, j, op) op(q, j + 7) op(q, j + 6) op(q, j + 5) op(q, j + 4) \
	op(q, j + 3) op(q, j + 2) op(q, j + 1) op(q, j)
#define UP128(q, op) UP8(q, 0, op) UP8(q, 8, op) UP8(q, 16, op) UP8(q, 24, op) \
	UP8(q, 32, op) UP8(q, 40, op) UP8(q, 48, op) UP8(q, 56, op) UP8(q, 64, op) \
	UP8(q, 72, op) UP8(q, 80, op) UP8(q, 88, op) UP8(q, 96, op) UP8(q, 104, op) \
	UP8(q, 112, op) UP8(q, 120, op)
#define DOWN128(q, op) DOWN8(q, 120, op) DOWN8(q, 112, op) DOWN8(q, 104, op) \
	DOWN8(q, 96, op) DOWN8(q, 88, op) DOWN8(q, 80, op) DOWN8(q, 72, op) \
	DOWN8(q, 64, op) DOWN8(q, 56, op) DOWN8(q, 48, op) DOWN8(q, 40, op) \
	DOWN8(q, 32, op) DOWN8(q, 24, op) DOWN8(q, 16, op) DOWN8(q, 8, op) DOWN8(q, 0, op)

/* lmbench frd: every 32-bit word read, a 128-word chunk per iteration,
 * each chunk summed on its own and then added to the total, as lmbench's
 * `sum += p[0]+...+p[127]` compiles (one chain of 128 adds a chunk, the
 * chunks' chains independent). One chain through the whole buffer instead
 * held one core to one add a cycle: 14.0 GB/s against bw_mem's 26.1 on an
 * AMD family 26 guest, where the memory gave one core 40 (docs/peers.md). */
static int frd_op(void *state, uint64_t n)
{
	struct bw_state *s = state;
	const FRD_VOLATILE uint32_t *p, *end = (const uint32_t *)s->src + s->words * 2;
	uint32_t sum = 0;
	uint64_t k;

	for (k = 0; k < n; k++) {
		for (p = (const uint32_t *)s->src; p < end; p += CHUNK_WORDS) {
			uint32_t c = 0;

			UP128(p, LOAD)
			sum += c;
		}
		BENCH_KEEP(sum);
	}
	bench_use(sum);
	return 0;
}

/* lmbench fwr: every 32-bit word stored, a 128-word chunk per iteration,
 * from its last word to its first. (The volatile stores also keep the
 * compiler from calling memset, libc's figure, mem.bw.bzero's.) */
static int fwr_op(void *state, uint64_t n)
{
	struct bw_state *s = state;
	volatile uint32_t *p, *end = (uint32_t *)s->src + s->words * 2;
	uint64_t k;

	for (k = 0; k < n; k++) {
		uint32_t v = (uint32_t)k | 1;

		for (p = (uint32_t *)s->src; p < end; p += CHUNK_WORDS) {
			DOWN128(p, STORE)
		}
	}
	bench_use(((uint32_t *)s->src)[0]);
	return 0;
}

static int read_op(void *state, uint64_t n)
{
	struct bw_state *s = state;
	const uint64_t *p = s->src;
	uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, i, k;

	/* Four accumulators so the adds do not serialize the loads. */
	for (k = 0; k < n; k++) {
		for (i = 0; i + 4 <= s->words; i += 4) {
			a0 += p[i];
			a1 += p[i + 1];
			a2 += p[i + 2];
			a3 += p[i + 3];
		}
		BENCH_KEEP(a0);
	}
	bench_use(a0 + a1 + a2 + a3);
	return 0;
}

/* words is copied into a local: through s->words the compiler must reload it
 * after every store (p may alias it), which keeps the loop scalar. */
static int write_op(void *state, uint64_t n)
{
	struct bw_state *s = state;
	uint64_t *p = s->src, i, k;
	size_t words = s->words;

	for (k = 0; k < n; k++) {
		uint64_t v = k;

		BENCH_KEEP(v);
		for (i = 0; i < words; i++)
			p[i] = v;
		BENCH_KEEP(p);
	}
	bench_use(p[words - 1]);
	return 0;
}

static int copy_op(void *state, uint64_t n)
{
	struct bw_state *s = state;
	uint64_t k;

	for (k = 0; k < n; k++) {
		memcpy(s->dst, s->src, s->words * 8);
		BENCH_KEEP(s);
	}
	bench_use(s->dst[k % s->words]);
	return 0;
}

static int rmw_op(void *state, uint64_t n)
{
	struct bw_state *s = state;
	uint64_t *p = s->src, i, k;
	size_t words = s->words;

	for (k = 0; k < n; k++) {
		uint64_t v = k | 1;

		BENCH_KEEP(v);
		for (i = 0; i < words; i++)
			p[i] += v;
		BENCH_KEEP(p);
	}
	bench_use(p[words - 1]);
	return 0;
}

/* The copy a C programmer writes: eight words per iteration. The register
 * barrier on the pointers each iteration hides the loop's shape from the
 * compiler, which would otherwise turn it into a call to memcpy (gcc's
 * loop-distribute-patterns) and measure libc instead. */
static int copy_hand_op(void *state, uint64_t n)
{
	struct bw_state *s = state;
	uint64_t k;

	for (k = 0; k < n; k++) {
		const uint64_t *src = s->src, *end = s->src + (s->words & ~(size_t)7);
		uint64_t *dst = s->dst;

		while (src < end) {
			uint64_t w0 = src[0], w1 = src[1], w2 = src[2], w3 = src[3];
			uint64_t w4 = src[4], w5 = src[5], w6 = src[6], w7 = src[7];

			dst[0] = w0;
			dst[1] = w1;
			dst[2] = w2;
			dst[3] = w3;
			dst[4] = w4;
			dst[5] = w5;
			dst[6] = w6;
			dst[7] = w7;
			src += 8;
			dst += 8;
			BENCH_KEEP(src);
			BENCH_KEEP(dst);
		}
	}
	bench_use(s->dst[k % s->words]);
	return 0;
}

static int bzero_op(void *state, uint64_t n)
{
	struct bw_state *s = state;
	uint64_t k;

	for (k = 0; k < n; k++) {
		memset(s->src, 0, s->words * 8);
		BENCH_KEEP(s);
	}
	bench_use(s->src[k % s->words]);
	return 0;
}

/* The main figure with op, then lmbench's loop over the same buffer as the
 * detail figure `name`. */
static int run_with_lmbench(struct bench_ctx *ctx, int (*op)(void *, uint64_t),
			    const char *name, int (*lm_op)(void *, uint64_t))
{
	void *state = NULL;
	struct measure m = {
		.name = "", .unit = "MB/s", .kind = KIND_BANDWIDTH, .better = BETTER_HIGHER,
		.op = op, .ops_per_call = 1,
	};
	int rc;

	if (setup_one(ctx, &state) < 0) {
		if (!ctx->reason[0])
			snprintf(ctx->reason, sizeof(ctx->reason), "setup: %s", strerror(errno));
		return -1;
	}
	m.state = state;
	m.bytes_per_op = ctx->bytes_per_op;
	rc = harness_measure(ctx, &m, NULL);
	if (rc == 0) {
		m.name = name;
		m.op = lm_op;
		m.detail = 1;
		rc = harness_measure(ctx, &m, NULL);
	}
	bw_teardown(state);
	return rc;
}

static int read_run(struct bench_ctx *ctx)
{
	return run_with_lmbench(ctx, read_op, "frd", frd_op);
}

static int write_run(struct bench_ctx *ctx)
{
	return run_with_lmbench(ctx, write_op, "fwr", fwr_op);
}

const struct bench bench_mem_bw_read = {
	.id = "mem.bw.read", .group = "mem", .title = "Memory read",
	.noise = NOISE_MEM_BW,
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH,
	.run = read_run,
};

const struct bench bench_mem_bw_write = {
	.id = "mem.bw.write", .group = "mem", .title = "Memory write",
	.noise = NOISE_MEM_BW,
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH,
	.run = write_run,
};

const struct bench bench_mem_bw_copy = {
	.id = "mem.bw.copy", .group = "mem", .title = "Memory copy (libc memcpy)",
	.noise = NOISE_MEM_BW,
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH,
	.setup = setup_two, .op = copy_op, .teardown = bw_teardown,
};

const struct bench bench_mem_bw_rmw = {
	.id = "mem.bw.rmw", .group = "mem", .title = "Memory read-modify-write (rdwr)",
	.noise = NOISE_MEM_BW,
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH,
	.setup = setup_one, .op = rmw_op, .teardown = bw_teardown,
};

const struct bench bench_mem_bw_copy_hand = {
	.id = "mem.bw.copy_hand", .group = "mem", .title = "Memory copy (hand-written loop)",
	.noise = NOISE_MEM_BW,
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH,
	.setup = setup_two, .op = copy_hand_op, .teardown = bw_teardown,
};

const struct bench bench_mem_bw_bzero = {
	.id = "mem.bw.bzero", .group = "mem", .title = "Memory zero (memset, bzero)",
	.noise = NOISE_MEM_BW,
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH,
	.setup = setup_one, .op = bzero_op, .teardown = bw_teardown,
};
