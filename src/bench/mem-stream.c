/* mem-stream.c — the four kernels of McCalpin's STREAM on double arrays
 * a, b, c with scalar 3.0. (lmbench ships a `stream` too: the same four
 * rows, but its "add" row times a one-array sum, s += a[i], while counting
 * three arrays of bytes, and it reports the best of 11 samples; bakeoff's
 * add is STREAM's c = a + b and its figure is the median.)
 *
 * One operation is one pass of one kernel over the arrays:
 *     copy  c = a          scale  b = 3 c
 *     add   c = a + b      triad  a = b + 3 c
 * Bytes are counted as STREAM counts them: every array the kernel reads or
 * writes, once — 16 bytes per element for copy and scale, 24 for add and
 * triad — in MB/s with MB = 10^6 bytes. (mem.bw.copy counts the bytes
 * copied, 8 per element, so the same memcpy is half of STREAM Copy.)
 * Each array is at least 4 times the last-level cache, as STREAM's rules
 * ask, except with --quick, where it is --mem-size.
 *
 * The kernels are plain C loops over blocks of STREAM_BLOCK elements: a
 * loop with a constant trip count is one the compilers' SIMD vectorizers
 * take at -O2 (gcc's "very cheap" cost model refuses a loop of unknown
 * length that needs a scalar tail), so every kernel moves packed doubles,
 * with ordinary stores, and runs at memory speed rather than at the
 * speed of scalar mulsd/addsd. Copy keeps a register barrier per block so
 * the compiler does not replace it by memmove, whose non-temporal stores
 * would make copy and scale move different traffic.
 *
 * The kernels selected together are one family run: one process, one set
 * of arrays, the samples taken in rounds of one per kernel (STREAM's loop
 * over its kernels; harness_measure_set), so that a host whose speed
 * drifts moves all four alike. The same kernels run on scalars beside the
 * arrays; at the end every element is checked against them (STREAM's
 * checkSTREAMresults), and a mismatch fails the benchmark.
 *
 * With --mem-size 4G one pass, the arrays' initialization and the check
 * each take seconds, so all of them work in chunks of STREAM_CHUNK
 * elements and stop between chunks on SIGINT/SIGTERM (a test of a
 * volatile flag per 8 MiB; the run then ends as interrupted). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "harness.h"
#include "mem-stream.h"
#include "result.h"
#include "scratch.h"
#include "sysinfo.h"

#define SCALAR 3.0

enum { K_COPY, K_SCALE, K_ADD, K_TRIAD };
static const char *const kname[] = { "copy", "scale", "add", "triad" };

/* The arrays the kernels share, and the value every element of each
 * should hold: the same kernels run on scalars (STREAM's
 * checkSTREAMresults). */
struct arrays {
	double *a, *b, *c;
	size_t n;
	double ea, eb, ec;
	uint64_t runs[4];	/* timed and untimed passes of each kernel */
	struct bench_ctx *ctx;
};

/* One measure: one kernel over the shared arrays. */
struct stream {
	struct arrays *arr;
	int k;
};

/* Elements per block: 64 bytes, a cache line and a whole number of SIMD
 * vectors on every current ISA. The arrays are a multiple of it. */
#define STREAM_BLOCK 8
/* Each block's loop unrolled whole: one branch per 64 bytes, the loop
 * likwid-bench's stream_sse runs ("loop stride: 8"). gcc at -O2 otherwise
 * keeps a loop of four 16-byte steps inside the loop over blocks (clang
 * unrolls it anyway); unrolled, triad read 1.014x the nested loop in 40
 * alternating rounds (docs/peers.md). */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)
#define STREAM_UNROLL _Pragma("GCC unroll 8")
#else
#define STREAM_UNROLL
#endif
#define STREAM_CHUNK ((size_t)1 << 20)	/* elements between interrupt checks */

static void copy_blk(double *restrict c, const double *restrict a)
{
	int i;

	STREAM_UNROLL
	for (i = 0; i < STREAM_BLOCK; i++)
		c[i] = a[i];
}

static void scale_blk(double *restrict b, const double *restrict c)
{
	int i;

	STREAM_UNROLL
	for (i = 0; i < STREAM_BLOCK; i++)
		b[i] = SCALAR * c[i];
}

static void add_blk(double *restrict c, const double *restrict a, const double *restrict b)
{
	int i;

	STREAM_UNROLL
	for (i = 0; i < STREAM_BLOCK; i++)
		c[i] = a[i] + b[i];
}

static void triad_blk(double *restrict a, const double *restrict b, const double *restrict c)
{
	int i;

	STREAM_UNROLL
	for (i = 0; i < STREAM_BLOCK; i++)
		a[i] = b[i] + SCALAR * c[i];
}

static void do_copy(double *restrict c, const double *restrict a, size_t n)
{
	size_t j;

	for (j = 0; j < n; j += STREAM_BLOCK) {
		copy_blk(c + j, a + j);
		BENCH_KEEP(c);	/* not a memmove (see the top of the file) */
	}
}

static void do_scale(double *restrict b, const double *restrict c, size_t n)
{
	size_t j;

	for (j = 0; j < n; j += STREAM_BLOCK)
		scale_blk(b + j, c + j);
}

static void do_add(double *restrict c, const double *restrict a, const double *restrict b, size_t n)
{
	size_t j;

	for (j = 0; j < n; j += STREAM_BLOCK)
		add_blk(c + j, a + j, b + j);
}

static void do_triad(double *restrict a, const double *restrict b, const double *restrict c,
		     size_t n)
{
	size_t j;

	for (j = 0; j < n; j += STREAM_BLOCK)
		triad_blk(a + j, b + j, c + j);
}

/* One pass of kernel k; -1 when interrupted part way. */
static int kernel(struct arrays *s, int k)
{
	double *a = s->a, *b = s->b, *c = s->c;
	size_t off, len;

	/* The pointers pass through a register barrier, so repeated passes
	 * (which store the same values) cannot be merged into one. */
	BENCH_KEEP(a);
	BENCH_KEEP(b);
	BENCH_KEEP(c);
	for (off = 0; off < s->n; off += len) {
		if (scratch_interrupted())
			return -1;
		len = s->n - off < STREAM_CHUNK ? s->n - off : STREAM_CHUNK;
		switch (k) {
		case K_COPY: do_copy(c + off, a + off, len); break;
		case K_SCALE: do_scale(b + off, c + off, len); break;
		case K_ADD: do_add(c + off, a + off, b + off, len); break;
		default: do_triad(a + off, b + off, c + off, len); break;
		}
	}
	/* The same on the scalars. Each kernel writes an array it does not
	 * read, so a second pass in a row changes nothing. */
	switch (k) {
	case K_COPY: s->ec = s->ea; break;
	case K_SCALE: s->eb = SCALAR * s->ec; break;
	case K_ADD: s->ec = s->ea + s->eb; break;
	default: s->ea = s->eb + SCALAR * s->ec; break;
	}
	s->runs[k]++;
	return 0;
}

static int stream_op(void *state, uint64_t n)
{
	struct stream *m = state;
	uint64_t i;

	for (i = 0; i < n; i++)
		if (kernel(m->arr, m->k) < 0) {
			errno = EINTR;
			return -1;
		}
	bench_use_double(m->arr->a[m->arr->n / 2]);
	return 0;
}

static int differs(double got, double want)
{
	double d = got - want, m = want < 0 ? -want : want;

	if (!isfinite(got) || !isfinite(want))
		return 1;	/* overflowed: the values were not kept in range */
	if (d < 0)
		d = -d;
	return m > 0 ? d > 1e-13 * m : d > 1e-13;
}

static int validate(struct arrays *s)
{
	const double e[3] = { s->ea, s->eb, s->ec }, *arr[3] = { s->a, s->b, s->c };
	size_t j;
	int w;

	for (w = 0; w < 3; w++)
		for (j = 0; j < s->n; j++) {
			if (j % STREAM_CHUNK == 0 && scratch_interrupted()) {
				errno = EINTR;
				return -1;
			}
			if (differs(arr[w][j], e[w])) {
				snprintf(s->ctx->reason, sizeof(s->ctx->reason),
					 "STREAM failed validation after %llu copy, %llu scale, %llu add "
					 "and %llu triad passes: %c[%zu] = %.17g, expected %.17g",
					 (unsigned long long)s->runs[K_COPY],
					 (unsigned long long)s->runs[K_SCALE],
					 (unsigned long long)s->runs[K_ADD],
					 (unsigned long long)s->runs[K_TRIAD], "abc"[w], j, arr[w][j], e[w]);
				errno = EINVAL;
				return -1;
			}
		}
	return 0;
}

/* STREAM's initial values, the scalars' too. */
static int init(struct arrays *s)
{
	size_t j;

	for (j = 0; j < s->n; j++) {
		if (j % STREAM_CHUNK == 0 && scratch_interrupted())
			return -1;
		s->a[j] = 1.0;
		s->b[j] = 2.0;
		s->c[j] = 0.0;
	}
	s->ea = 1.0;
	s->eb = 2.0;
	s->ec = 0.0;
	return 0;
}

/* Untimed, before each timed call: interleaved kernels grow the values
 * 15-fold a round (triad feeds copy), so well before they overflow the
 * arrays are checked and set back to STREAM's initial values. */
static int stream_before(void *state)
{
	struct arrays *s = ((struct stream *)state)->arr;

	if (s->ea < 1e100 && s->eb < 1e100 && s->ec < 1e100)
		return 0;
	if (validate(s) < 0)
		return -1;
	if (init(s) < 0) {
		errno = EINTR;
		return -1;
	}
	return 0;
}

/* The kernels in members (bit k: kernel k), measured interleaved, one
 * sample of each per round; a single kernel records the main figure and
 * plain params, several record metric and params under the kernel's name. */
static int stream_family(struct bench_ctx *ctx, unsigned members)
{
	const struct bench_opts *o = ctx->opt;
	struct sysinfo host;
	const struct sysinfo *si;
	struct arrays s = { .ctx = ctx };
	struct stream st[4];
	struct measure m[4];
	uint64_t llc, bytes = o->mem_size, copies = (uint64_t)(o->parallel > 0 ? o->parallel : 1);
	int rc = -1, w, nm = 0, alone = (members & (members - 1)) == 0;
	double **arr[3] = { &s.a, &s.b, &s.c };
	char key[64], list[64] = "";

	si = harness_host(ctx, &host);
	llc = sysinfo_llc_size(si);
	if (!o->quick && bytes < 4 * llc)
		bytes = 4 * llc;
	/* Three arrays per copy within half of RAM. */
	if (si->mem_total && bytes > si->mem_total / 2 / 3 / copies) {
		bytes = si->mem_total / 2 / 3 / copies;
		result_param_str(ctx->res, "capped_by_ram", "yes");
	}
	s.n = (size_t)(bytes / sizeof(double));
	s.n -= s.n % STREAM_BLOCK;
	if (s.n < 1024) {
		snprintf(ctx->reason, sizeof(ctx->reason), "arrays below 8 KiB");
		return -1;
	}
	bytes = s.n * sizeof(double);
	for (w = 0; w < 3; w++)
		if (posix_memalign((void **)arr[w], 4096, bytes)) {
			snprintf(ctx->reason, sizeof(ctx->reason),
				 "cannot allocate 3 arrays of %llu bytes", (unsigned long long)bytes);
			goto out;
		}
	/* Written here so page faults are not timed; then one untimed round
	 * of the four kernels, as STREAM discards its first iteration. */
	if (init(&s) < 0)
		goto out;
	for (w = 0; w < 4; w++)
		if (kernel(&s, w) < 0)
			goto out;
	result_param_num(ctx->res, "array_bytes", (double)bytes);
	result_param_num(ctx->res, "array_elements", (double)s.n);
	result_param_num(ctx->res, "llc_bytes", (double)llc);
	result_param_str(ctx->res, "meets_4x_llc", llc && bytes >= 4 * llc ? "yes" : "no");
	for (w = 0; w < 4; w++) {
		if (!(members & (1u << w)))
			continue;
		snprintf(key, sizeof(key), "%s%s", alone ? "" : kname[w], alone ? "" : ":");
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", nm ? " " : "", kname[w]);
		st[nm] = (struct stream){ &s, w };
		m[nm] = (struct measure){
			.name = alone ? "" : kname[w], .unit = "MB/s", .kind = KIND_BANDWIDTH,
			.better = BETTER_HIGHER, .op = stream_op, .state = &st[nm],
			.bytes_per_op = (double)s.n * (w < K_ADD ? 16 : 24), .before = stream_before,
		};
		nm++;
		strcat(key, "bytes_per_element");
		result_param_num(ctx->res, key, w < K_ADD ? 16 : 24);
	}
	if (!alone)
		result_param_str(ctx->res, "interleaved", list);
	if (harness_measure_set(ctx, m, nm, NULL) < 0)
		goto out;
	for (w = 0; w < 4; w++)
		if (members & (1u << w)) {
			snprintf(key, sizeof(key), "%s%skernel_runs", alone ? "" : kname[w], alone ? "" : ":");
			result_param_num(ctx->res, key, (double)s.runs[w]);
		}
	if (validate(&s) < 0) {
		if (scratch_interrupted())
			goto out;
		result_param_str(ctx->res, "validated", "no");
		goto out;
	}
	result_param_str(ctx->res, "validated", "yes");
	rc = 0;
out:
	free(s.a);
	free(s.b);
	free(s.c);
	return rc;
}

int mem_stream_selftest(size_t n, int rounds, int passes, size_t corrupt_at, double corrupt_by,
			char *why, size_t whylen)
{
	struct bench_ctx ctx = { 0 };
	struct arrays s = { .ctx = &ctx, .n = n - n % STREAM_BLOCK };
	struct stream st = { &s, 0 };
	int r, k, p, rc = -1;

	s.a = malloc(s.n * sizeof(double));
	s.b = malloc(s.n * sizeof(double));
	s.c = malloc(s.n * sizeof(double));
	if (!s.a || !s.b || !s.c || init(&s) < 0) {
		snprintf(ctx.reason, sizeof(ctx.reason), "out of memory");
		goto out;
	}
	for (r = 0; r < rounds; r++)
		for (k = 0; k < 4; k++)
			for (p = 0; p < passes; p++)
				if (stream_before(&st) < 0 || kernel(&s, k) < 0)
					goto out;
	if (corrupt_at < s.n)
		s.a[corrupt_at] *= 1 + corrupt_by;
	rc = validate(&s);
out:
	snprintf(why, whylen, "%s", ctx.reason);
	free(s.a);
	free(s.b);
	free(s.c);
	return rc;
}

static int copy_run(struct bench_ctx *ctx) { return stream_family(ctx, 1u << K_COPY); }
static int scale_run(struct bench_ctx *ctx) { return stream_family(ctx, 1u << K_SCALE); }
static int add_run(struct bench_ctx *ctx) { return stream_family(ctx, 1u << K_ADD); }
static int triad_run(struct bench_ctx *ctx) { return stream_family(ctx, 1u << K_TRIAD); }

#define STREAM_FAMILY .family = "mem.stream", .family_run = stream_family, .own_size = 1

const struct bench bench_mem_stream_copy = {
	.id = "mem.stream.copy", .group = "mem", .title = "STREAM Copy (c = a)",
	.noise = NOISE_MEM_BW,
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH, .run = copy_run,
	STREAM_FAMILY,
};

const struct bench bench_mem_stream_scale = {
	.id = "mem.stream.scale", .group = "mem", .title = "STREAM Scale (b = 3c)",
	.noise = NOISE_MEM_BW,
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH, .run = scale_run,
	STREAM_FAMILY,
};

const struct bench bench_mem_stream_add = {
	.id = "mem.stream.add", .group = "mem", .title = "STREAM Add (c = a + b)",
	.noise = NOISE_MEM_BW,
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH, .run = add_run,
	STREAM_FAMILY,
};

const struct bench bench_mem_stream_triad = {
	.id = "mem.stream.triad", .group = "mem", .title = "STREAM Triad (a = b + 3c)",
	.noise = NOISE_MEM_BW,
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH, .run = triad_run,
	STREAM_FAMILY,
};
