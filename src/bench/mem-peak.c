/* mem-peak.c — memory bandwidth of read/write mixes on all CPUs at once
 * (Intel MLC's --peak_injection_bandwidth).
 *
 * Each mix is a loop over 64-bit words of arrays far beyond the caches:
 *   read   every word OR-ed into four accumulators: reads only
 *   3:1    a[i] = b[i] + c[i] + d[i]: three reads to one write
 *   2:1    a[i] = b[i] + c[i] (STREAM's Add)
 *   1:1    a[i] = b[i] (a copy by hand, not memcpy, whose large copies
 *          may use non-temporal stores)
 *   ntw    a[i] = v with non-temporal stores (x86 SSE2 movntdq), which
 *          skip the read-for-ownership of an ordinary store; absent where
 *          the build has no such store
 * run as one copy per CPU the process may use (the harness's --parallel
 * machinery: one calibration, a common start, samples in lockstep), the
 * copies' samples summed. Bytes are what the program reads and writes,
 * STREAM's count (a copy of n bytes counts 2n); the read for ownership of
 * an ordinary store is memory traffic too, not counted, as STREAM and
 * likwid-bench do not (MLC's mixes with ordinary stores count it as read
 * traffic). MB/s with MB = 10^6 bytes.
 *
 * Each copy's arrays together hold at least --mem-size, and all copies'
 * at least 4 x the last-level cache, so that no cache holds them; the
 * memory is checked up front against what the OS says is available. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "affinity.h"
#include "bench.h"
#include "harness.h"
#include "mem-lat.h"
#include "os.h"
#include "result.h"
#include "sysinfo.h"
#include "units.h"

#define PK_ARRAYS 4
#define PK_CHUNK 64		/* words between compiler barriers: no memcpy/memset */

struct pk {
	uint64_t *a[PK_ARRAYS];
	size_t words;
};

/* The bytes of each array of one copy: together at least --mem-size, and
 * with every copy's at least 4 x the LLC (--mem-size up to 4 MiB, --quick). */
static size_t pk_array_bytes(const struct bench_opts *o, const struct sysinfo *si, int narr, int copies)
{
	uint64_t llc = sysinfo_llc_size(si), want = o->quick && o->mem_size > (4u << 20) ? 4u << 20 : o->mem_size;

	if (!o->quick && llc && 4 * llc / (uint64_t)copies > want)
		want = 4 * llc / (uint64_t)copies;
	want /= (uint64_t)narr;
	return (size_t)(want < 4096 ? 4096 : want & ~(uint64_t)4095);
}

static void pk_teardown(void *state)
{
	struct pk *s = state;

	for (int i = 0; s && i < PK_ARRAYS; i++)
		free(s->a[i]);
	free(s);
}

/* narr arrays; a pass reads or writes each once. */
static int pk_setup(struct bench_ctx *ctx, void **state, int narr)
{
	struct sysinfo tmp;
	const struct sysinfo *si = harness_host(ctx, &tmp);
	int copies = ctx->opt->parallel > 0 ? ctx->opt->parallel : 1;
	size_t bytes = pk_array_bytes(ctx->opt, si, narr, copies);
	struct pk *s = harness_state(ctx, sizeof(*s));

	if (!s)
		return -1;
	s->words = bytes / 8;
	for (int i = 0; i < narr; i++)
		if (!(s->a[i] = memlat_alloc(bytes))) {
			pk_teardown(s);
			return memlat_failed(ctx, "cannot allocate an array", bytes);
		}
	ctx->bytes_per_op = narr * (double)bytes;
	*state = s;
	return 0;
}

static int setup_read(struct bench_ctx *ctx, void **state)
{
	return pk_setup(ctx, state, 1);
}

static int setup_r3w1(struct bench_ctx *ctx, void **state)
{
	return pk_setup(ctx, state, 4);
}

static int setup_r2w1(struct bench_ctx *ctx, void **state)
{
	return pk_setup(ctx, state, 3);
}

static int setup_r1w1(struct bench_ctx *ctx, void **state)
{
	return pk_setup(ctx, state, 2);
}

static int setup_ntw(struct bench_ctx *ctx, void **state)
{
	return pk_setup(ctx, state, 1);
}

/* The read mix: memlat_sweep's lines (as few instructions a line as
 * likwid-bench's load_sse; docs/peers.md) */
static int op_read(void *state, uint64_t n)
{
	const struct pk *s = state;
	uint64_t sum = 0;

	for (uint64_t k = 0; k < n; k++) {
		sum += memlat_sweep(s->a[0], s->words);
		BENCH_KEEP(sum);
	}
	bench_use(sum);
	return 0;
}

/* The write mixes, PK_CHUNK words between barriers on the destination. */
#define PK_LOOP(EXPR)                                                   \
	for (uint64_t k = 0; k < n; k++) {                              \
		uint64_t *a = s->a[0];                                  \
		for (size_t i = 0; i < words; i += PK_CHUNK) {          \
			for (size_t j = i; j < i + PK_CHUNK; j++)       \
				a[j] = EXPR;                            \
			BENCH_KEEP(a);                                  \
		}                                                       \
	}                                                               \
	bench_use(s->a[0][0]);                                          \
	return 0;

static int op_r3w1(void *state, uint64_t n)
{
	const struct pk *s = state;
	const uint64_t *b = s->a[1], *c = s->a[2], *d = s->a[3];
	size_t words = s->words;

	PK_LOOP(b[j] + c[j] + d[j])
}

static int op_r2w1(void *state, uint64_t n)
{
	const struct pk *s = state;
	const uint64_t *b = s->a[1], *c = s->a[2];
	size_t words = s->words;

	PK_LOOP(b[j] + c[j])
}

static int op_r1w1(void *state, uint64_t n)
{
	const struct pk *s = state;
	const uint64_t *b = s->a[1];
	size_t words = s->words;

	PK_LOOP(b[j])
}

#if defined(__SSE2__)
static int op_ntw(void *state, uint64_t n)
{
	const struct pk *s = state;
	size_t words = s->words;

	for (uint64_t k = 0; k < n; k++) {
		__m128i v = _mm_set1_epi64x((long long)k);
		__m128i *a = (__m128i *)s->a[0];

		for (size_t i = 0; i < words / 2; i += 4) {
			_mm_stream_si128(a + i, v);
			_mm_stream_si128(a + i + 1, v);
			_mm_stream_si128(a + i + 2, v);
			_mm_stream_si128(a + i + 3, v);
		}
		_mm_sfence();
	}
	bench_use(s->a[0][0]);
	return 0;
}
#define PK_NTW op_ntw
#else
#define PK_NTW NULL
#endif

/* The mixes, each a benchmark the harness runs as copies (not in the
 * registry: mem.peak runs them). */
#define PK_BENCH(ID, SETUP, OP)                                                               \
	{ .id = "mem.peak." ID, .group = "mem", .title = "mem.peak " ID, .unit = "MB/s",       \
	  .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH, .setup = SETUP, .op = OP,          \
	  .teardown = pk_teardown }
static const struct {
	const char *name;	/* the figure */
	int narr;		/* its arrays (its setup's) */
	struct bench b;
} mixes[] = {
	{ "", 1, PK_BENCH("read", setup_read, op_read) },
	{ "3:1", 4, PK_BENCH("3:1", setup_r3w1, op_r3w1) },
	{ "2:1", 3, PK_BENCH("2:1", setup_r2w1, op_r2w1) },
	{ "1:1", 2, PK_BENCH("1:1", setup_r1w1, op_r1w1) },
	{ "ntw", 1, PK_BENCH("ntw", setup_ntw, PK_NTW) },
};
#define PK_MIXES (sizeof(mixes) / sizeof(mixes[0]))

/* Refuse up front what the machine cannot hold: the largest mix's arrays
 * over all copies against the memory the OS says is available. */
static int pk_fits(struct bench_ctx *ctx, int copies)
{
	struct sysinfo tmp;
	const struct sysinfo *si = harness_host(ctx, &tmp);
	double need = (double)pk_array_bytes(ctx->opt, si, PK_ARRAYS, copies) * PK_ARRAYS * copies;
	uint64_t avail;

	if (os_mem_available(&avail) < 0 || need < 0.8 * (double)avail)
		return 0;
	{
		char n[32], a[32];

		fmt_size(n, sizeof(n), (uint64_t)need);
		fmt_size(a, sizeof(a), avail);
		snprintf(ctx->reason, sizeof(ctx->reason), "needs %s of memory (%d copies' arrays), "
			 "%s available", n, copies, a);
	}
	return -1;
}

static int peak_run(struct bench_ctx *ctx)
{
	int copies = affinity_count();

	if (copies < 1)
		copies = (int)sysconf(_SC_NPROCESSORS_ONLN) > 0 ? (int)sysconf(_SC_NPROCESSORS_ONLN) : 1;
	if (pk_fits(ctx, copies) < 0)
		return -1;
	struct sysinfo tmp;
	const struct sysinfo *si = harness_host(ctx, &tmp);
	char arrays[200] = "", sz[32];

	result_param_num(ctx->res, "copies", copies);
	for (size_t i = 0; i < PK_MIXES; i++) {
		fmt_size(sz, sizeof(sz), pk_array_bytes(ctx->opt, si, mixes[i].narr, copies));
		snprintf(arrays + strlen(arrays), sizeof(arrays) - strlen(arrays), "%s%s %d x %s",
			 i ? ", " : "", mixes[i].b.id + 9, mixes[i].narr, sz);
	}
	result_param_str(ctx->res, "arrays_per_copy", arrays);
	result_param_num(ctx->res, "array_bytes", (double)pk_array_bytes(ctx->opt, si, 1, copies));
	if (copies > 1)
		result_param_num(ctx->res, "array_bytes_one", (double)pk_array_bytes(ctx->opt, si, 1, 1));
	for (size_t i = 0; i < PK_MIXES; i++) {
		if (!mixes[i].b.op) {
			result_param_str(ctx->res, "ntw", "none: no non-temporal store in this build "
					 "(x86 SSE2 only)");
			continue;
		}
		if (!harness_copies(ctx, &mixes[i].b, copies, mixes[i].name))
			return -1;
	}
	/* one copy of the read mix: the single-CPU figure beside likwid-bench's */
	if (copies > 1 && !harness_copies(ctx, &mixes[0].b, 1, "read/1"))
		return -1;
	return 0;
}

/* For the progress line: each mix as a loop figure, and read/1. */
static double peak_estimate(const struct bench_opts *opt, const struct harness_cfg *cfg, double fig_s)
{
	(void)opt;
	(void)cfg;
	return (PK_MIXES + 1) * fig_s * 2;
}

const struct bench bench_mem_peak = {
	.id = "mem.peak", .group = "mem", .title = "Peak bandwidth, all CPUs (MLC)",
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH,
	.run = peak_run,
	.estimate = peak_estimate,
	.own_size = 1,	/* all copies' arrays at least 4x the last-level cache */
	.noise = NOISE_MEM_BW,
};
