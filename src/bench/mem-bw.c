/* mem-bw.c — memory bandwidth over a buffer of --mem-size (lmbench bw_mem).
 *
 * One operation is one pass over the whole buffer. Figures count the bytes
 * of the buffer once per pass, in MB/s with MB = 10^6 bytes: for copy that
 * is the bytes copied (as lmbench bcopy, perf bench mem memcpy and mbw
 * count), not the bytes moved (a copy reads and writes, so the memory bus
 * carries twice that; STREAM's Copy counts both). Buffers are written
 * once in setup so page faults are not timed.
 *
 * lmbench bw_mem names: read = rd, write = wr, rmw = rdwr (each word read,
 * changed and written back), copy = bcopy (libc), copy_hand = cp / bcopy
 * (hand), a word loop, bzero = bzero / fwr (memset to zero). */
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "result.h"

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

static int bw_setup(struct bench_ctx *ctx, void **state, int two)
{
	struct bw_state *s = calloc(1, sizeof(*s));
	size_t bytes = ctx->opt->mem_size & ~(size_t)63;

	if (!s || bytes < 64)
		goto fail;
	s->words = bytes / 8;
	if (posix_memalign((void **)&s->src, 64, bytes))
		goto fail;
	memset(s->src, 1, bytes);
	if (two) {
		if (posix_memalign((void **)&s->dst, 64, bytes))
			goto fail;
		memset(s->dst, 2, bytes);
	}
	ctx->bytes_per_op = (double)bytes;
	result_param_num(ctx->res, "mem_size_bytes", (double)bytes);
	*state = s;
	return 0;
fail:
	if (s)
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

const struct bench bench_mem_bw_read = {
	.id = "mem.bw.read", .group = "mem", .title = "Memory read",
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH,
	.setup = setup_one, .op = read_op, .teardown = bw_teardown,
};

const struct bench bench_mem_bw_write = {
	.id = "mem.bw.write", .group = "mem", .title = "Memory write",
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH,
	.setup = setup_one, .op = write_op, .teardown = bw_teardown,
};

const struct bench bench_mem_bw_copy = {
	.id = "mem.bw.copy", .group = "mem", .title = "Memory copy (libc memcpy)",
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH,
	.setup = setup_two, .op = copy_op, .teardown = bw_teardown,
};

const struct bench bench_mem_bw_rmw = {
	.id = "mem.bw.rmw", .group = "mem", .title = "Memory read-modify-write (rdwr)",
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH,
	.setup = setup_one, .op = rmw_op, .teardown = bw_teardown,
};

const struct bench bench_mem_bw_copy_hand = {
	.id = "mem.bw.copy_hand", .group = "mem", .title = "Memory copy (hand-written loop)",
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH,
	.setup = setup_two, .op = copy_hand_op, .teardown = bw_teardown,
};

const struct bench bench_mem_bw_bzero = {
	.id = "mem.bw.bzero", .group = "mem", .title = "Memory zero (memset, bzero)",
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH,
	.setup = setup_one, .op = bzero_op, .teardown = bw_teardown,
};
