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
 * Each benchmark runs its kernel alone, timed by the harness an unknown
 * number of times, so the state counts the passes; afterwards every
 * element is checked against the same sequence run on scalars (STREAM's
 * checkSTREAMresults), and a mismatch fails the benchmark.
 *
 * With --mem-size 4G one pass, the arrays' initialization and the check
 * each take seconds, so all of them work in chunks of STREAM_CHUNK
 * elements and stop between chunks on SIGINT/SIGTERM (a test of a
 * volatile flag per 8 MiB; the run then ends as interrupted). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "harness.h"
#include "result.h"
#include "scratch.h"
#include "sysinfo.h"

#define SCALAR 3.0

enum { K_COPY, K_SCALE, K_ADD, K_TRIAD };
static const char *const kname[] = { "copy", "scale", "add", "triad" };

struct stream {
	double *a, *b, *c;
	size_t n;
	uint64_t runs;		/* timed passes of this benchmark's kernel */
};

/* Elements per block: 64 bytes, a cache line and a whole number of SIMD
 * vectors on every current ISA. The arrays are a multiple of it. */
#define STREAM_BLOCK 8
#define STREAM_CHUNK ((size_t)1 << 20)	/* elements between interrupt checks */

static void copy_blk(double *restrict c, const double *restrict a)
{
	int i;

	for (i = 0; i < STREAM_BLOCK; i++)
		c[i] = a[i];
}

static void scale_blk(double *restrict b, const double *restrict c)
{
	int i;

	for (i = 0; i < STREAM_BLOCK; i++)
		b[i] = SCALAR * c[i];
}

static void add_blk(double *restrict c, const double *restrict a, const double *restrict b)
{
	int i;

	for (i = 0; i < STREAM_BLOCK; i++)
		c[i] = a[i] + b[i];
}

static void triad_blk(double *restrict a, const double *restrict b, const double *restrict c)
{
	int i;

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
static int kernel(struct stream *s, int k)
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
	return 0;
}

static int op_k(void *state, uint64_t n, int k)
{
	struct stream *s = state;
	uint64_t i;

	for (i = 0; i < n; i++) {
		if (kernel(s, k) < 0) {
			errno = EINTR;
			return -1;
		}
		s->runs++;
	}
	bench_use((uint64_t)s->a[s->n / 2]);
	return 0;
}

static int copy_op(void *state, uint64_t n) { return op_k(state, n, K_COPY); }
static int scale_op(void *state, uint64_t n) { return op_k(state, n, K_SCALE); }
static int add_op(void *state, uint64_t n) { return op_k(state, n, K_ADD); }
static int triad_op(void *state, uint64_t n) { return op_k(state, n, K_TRIAD); }
static int (*const kop[])(void *, uint64_t) = { copy_op, scale_op, add_op, triad_op };

/* The same sequence on scalars: STREAM's initial values, the kernels
 * before k once each, then kernel k runs times. */
static void expected(int k, uint64_t runs, double *ea, double *eb, double *ec)
{
	double a = 1.0, b = 2.0, c = 0.0;
	uint64_t r;
	int j;

	for (j = 0; j < k; j++)
		switch (j) {
		case K_COPY: c = a; break;
		case K_SCALE: b = SCALAR * c; break;
		default: c = a + b; break;
		}
	for (r = 0; r < runs; r++)
		switch (k) {
		case K_COPY: c = a; break;
		case K_SCALE: b = SCALAR * c; break;
		case K_ADD: c = a + b; break;
		default: a = b + SCALAR * c; break;
		}
	*ea = a;
	*eb = b;
	*ec = c;
}

static int differs(double got, double want)
{
	double d = got - want, m = want < 0 ? -want : want;

	if (d < 0)
		d = -d;
	return m > 0 ? d > 1e-13 * m : d > 1e-13;
}

static int validate(struct bench_ctx *ctx, const struct stream *s, int k)
{
	double e[3];
	const double *arr[3] = { s->a, s->b, s->c };
	size_t j;
	int w;

	expected(k, s->runs, &e[0], &e[1], &e[2]);
	for (w = 0; w < 3; w++)
		for (j = 0; j < s->n; j++) {
			if (j % STREAM_CHUNK == 0 && scratch_interrupted())
				return -1;
			if (differs(arr[w][j], e[w])) {
				snprintf(ctx->reason, sizeof(ctx->reason),
					 "STREAM %s failed validation after %llu passes: %c[%zu] = %.17g, "
					 "expected %.17g", kname[k], (unsigned long long)s->runs,
					 "abc"[w], j, arr[w][j], e[w]);
				return -1;
			}
		}
	return 0;
}

static int stream_run(struct bench_ctx *ctx, int k)
{
	const struct bench_opts *o = ctx->opt;
	struct sysinfo host;
	const struct sysinfo *si;
	struct stream s = { 0 };
	uint64_t llc, bytes = o->mem_size, copies = (uint64_t)(o->parallel > 0 ? o->parallel : 1);
	size_t j;
	int rc = -1, w;
	double **arr[3] = { &s.a, &s.b, &s.c };

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
	/* STREAM's initial values, written here so page faults are not timed. */
	for (j = 0; j < s.n; j++) {
		if (j % STREAM_CHUNK == 0 && scratch_interrupted())
			goto out;
		s.a[j] = 1.0;
		s.b[j] = 2.0;
		s.c[j] = 0.0;
	}
	/* The kernels before this one in STREAM's order, so it reads the
	 * values it reads in STREAM (scale then scales 1, not 0). */
	for (w = 0; w < k; w++)
		if (kernel(&s, w) < 0)
			goto out;
	result_param_num(ctx->res, "array_bytes", (double)bytes);
	result_param_num(ctx->res, "array_elements", (double)s.n);
	result_param_num(ctx->res, "llc_bytes", (double)llc);
	result_param_str(ctx->res, "meets_4x_llc", llc && bytes >= 4 * llc ? "yes" : "no");
	result_param_num(ctx->res, "bytes_per_element", k < K_ADD ? 16 : 24);
	{
		struct measure m = {
			.name = "", .unit = "MB/s", .kind = KIND_BANDWIDTH, .better = BETTER_HIGHER,
			.op = kop[k], .state = &s,
			.bytes_per_op = (double)s.n * (k < K_ADD ? 16 : 24),
		};

		if (harness_measure(ctx, &m, NULL) < 0)
			goto out;
	}
	result_param_num(ctx->res, "kernel_runs", (double)s.runs);
	if (validate(ctx, &s, k) < 0) {
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

static int copy_run(struct bench_ctx *ctx) { return stream_run(ctx, K_COPY); }
static int scale_run(struct bench_ctx *ctx) { return stream_run(ctx, K_SCALE); }
static int add_run(struct bench_ctx *ctx) { return stream_run(ctx, K_ADD); }
static int triad_run(struct bench_ctx *ctx) { return stream_run(ctx, K_TRIAD); }

const struct bench bench_mem_stream_copy = {
	.id = "mem.stream.copy", .group = "mem", .title = "STREAM Copy (c = a)",
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH, .run = copy_run,
};

const struct bench bench_mem_stream_scale = {
	.id = "mem.stream.scale", .group = "mem", .title = "STREAM Scale (b = 3c)",
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH, .run = scale_run,
};

const struct bench bench_mem_stream_add = {
	.id = "mem.stream.add", .group = "mem", .title = "STREAM Add (c = a + b)",
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH, .run = add_run,
};

const struct bench bench_mem_stream_triad = {
	.id = "mem.stream.triad", .group = "mem", .title = "STREAM Triad (a = b + 3c)",
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH, .run = triad_run,
};
