/* mem-mlp.c — memory-level parallelism (lmbench par_mem): how many
 * independent cache misses one core keeps in flight.
 *
 * One cyclic chain of 64-byte nodes in lmbench's order (the pages in a
 * random order, each page's lines before the next page's in lmbench's
 * bit-reversed order:
 * a cache miss per load, a TLB miss per page) over a buffer beyond the
 * last-level cache (mem.lat's main-memory reach), walked by K chasers at
 * once, K = 1..16: chaser j starts j/K of the way round the cycle, so the K
 * walks never meet and every load is a miss of its own. Each chaser's next
 * address depends on its last load, but the K chasers do not depend on each
 * other, so the core may overlap their misses. One operation is one load;
 * the K points are timed interleaved (a round is one sample of each), so a
 * machine whose speed drifts moves them alike.
 *
 * chains/K is the time per load with K chasers (ns). The figure is
 * lmbench's: the largest speed-up over one chaser, max over K of
 * chains/1 / chains/K, in loads kept in flight. Its K is the param
 * best_chains. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "harness.h"
#include "mem-lat.h"
#include "result.h"
#include "scratch.h"
#include "sysinfo.h"
#include "units.h"

#define MLP_NODE 64		/* bytes per node: one cache line */
#define MLP_MAX 16		/* chasers at most (lmbench's MAX_MEM_PARALLELISM) */

struct mlp {
	void **p[MLP_MAX];	/* each chaser's current node */
};

/* One op() iteration: each of the first K chasers follows one link. The
 * chasers live in locals, so they stay in registers. */
#define MLP_HOP(j)                      \
	if (CHASERS > j)                \
		p##j = (void **)*p##j;
#define MLP_OP(K)                                                                             \
	static int mlp_op##K(void *state, uint64_t n)                                         \
	{                                                                                     \
		enum { CHASERS = K };                                                         \
		struct mlp *s = state;                                                        \
		void **p0 = s->p[0], **p1 = s->p[1], **p2 = s->p[2], **p3 = s->p[3];          \
		void **p4 = s->p[4], **p5 = s->p[5], **p6 = s->p[6], **p7 = s->p[7];          \
		void **p8 = s->p[8], **p9 = s->p[9], **p10 = s->p[10], **p11 = s->p[11];      \
		void **p12 = s->p[12], **p13 = s->p[13], **p14 = s->p[14], **p15 = s->p[15];  \
                                                                                              \
		for (uint64_t i = 0; i < n; i++) {                                            \
			MLP_HOP(0) MLP_HOP(1) MLP_HOP(2) MLP_HOP(3)                           \
			MLP_HOP(4) MLP_HOP(5) MLP_HOP(6) MLP_HOP(7)                           \
			MLP_HOP(8) MLP_HOP(9) MLP_HOP(10) MLP_HOP(11)                         \
			MLP_HOP(12) MLP_HOP(13) MLP_HOP(14) MLP_HOP(15)                       \
		}                                                                             \
		s->p[0] = p0, s->p[1] = p1, s->p[2] = p2, s->p[3] = p3;                       \
		s->p[4] = p4, s->p[5] = p5, s->p[6] = p6, s->p[7] = p7;                       \
		s->p[8] = p8, s->p[9] = p9, s->p[10] = p10, s->p[11] = p11;                   \
		s->p[12] = p12, s->p[13] = p13, s->p[14] = p14, s->p[15] = p15;               \
		bench_use_ptr(p0);                                                            \
		return 0;                                                                     \
	}
MLP_OP(1) MLP_OP(2) MLP_OP(3) MLP_OP(4) MLP_OP(5) MLP_OP(6) MLP_OP(7) MLP_OP(8)
MLP_OP(9) MLP_OP(10) MLP_OP(11) MLP_OP(12) MLP_OP(13) MLP_OP(14) MLP_OP(15) MLP_OP(16)

static int (*const mlp_ops[MLP_MAX])(void *, uint64_t) = {
	mlp_op1, mlp_op2, mlp_op3, mlp_op4, mlp_op5, mlp_op6, mlp_op7, mlp_op8,
	mlp_op9, mlp_op10, mlp_op11, mlp_op12, mlp_op13, mlp_op14, mlp_op15, mlp_op16,
};

/* The chaser counts measured: 1..16, or 1, 2, 4, 8, 16 with --quick. */
static int mlp_counts(int quick, int *k)
{
	int n = 0;

	for (int c = 1; c <= MLP_MAX; c++)
		if (!quick || (c & (c - 1)) == 0)
			k[n++] = c;
	return n;
}

/* Each count's chasers placed on the cycle from start (nodes of it): chaser
 * j of count k[i] at node j * nodes / k[i] along it, found in one walk. */
static int mlp_place(void *start, size_t nodes, const int *k, int nk, struct mlp *st)
{
	size_t step = 0;
	void **p = start;

	for (size_t at = 0; at < nodes; at++, p = (void **)*p) {
		if (at % 65536 == 0 && scratch_interrupted())
			return -1;
		for (int i = 0; i < nk; i++)
			for (int j = 0; j < k[i]; j++)
				if ((size_t)j * nodes / (size_t)k[i] == at)
					st[i].p[j] = (void **)p;
		step++;
	}
	return step == nodes ? 0 : -1;
}

static int mlp_run(struct bench_ctx *ctx)
{
	struct sysinfo host;
	const struct sysinfo *si = harness_host(ctx, &host);
	uint64_t bytes = memlat_main_size(ctx->opt, si), llc = sysinfo_llc_size(si), seed = 0x3119;
	struct mlp st[MLP_MAX];
	struct measure ms[MLP_MAX];
	double lat[MLP_MAX], best = 1;
	char names[MLP_MAX][16], from[160];
	int k[MLP_MAX], nk = mlp_counts(ctx->opt->quick, k), best_k = 1, rc = -1;
	struct memlat_chain c;
	char *buf = memlat_alloc(bytes);
	void *start;

	if (!buf)
		return memlat_failed(ctx, "cannot allocate the buffer", bytes);
	c = (struct memlat_chain){ buf, bytes / MLP_NODE, MLP_NODE, 0 };
	memset(st, 0, sizeof(st));
	if (!(start = memlat_ready(ctx, &c, MEMLAT_PAGES, &seed, "by-page")))
		goto out;
	if (mlp_place(start, c.nodes, k, nk, st) < 0) {
		memlat_failed(ctx, "the chain could not be walked", bytes);
		goto out;
	}
	for (int i = 0; i < nk; i++) {
		snprintf(names[i], sizeof(names[i]), "chains/%d", k[i]);
		ms[i] = (struct measure){
			.name = names[i], .unit = "ns", .kind = KIND_LATENCY, .better = BETTER_LOWER,
			.op = mlp_ops[k[i] - 1], .state = &st[i], .ops_per_call = k[i], .detail = 1,
		};
	}
	if (harness_measure_set(ctx, ms, nk, lat) < 0)
		goto out;
	for (int i = 1; i < nk; i++)
		if (lat[i] > 0 && lat[0] / lat[i] > best) {
			best = lat[0] / lat[i];
			best_k = k[i];
		}
	snprintf(from, sizeof(from), "chains/1 / chains/%d, the largest of chains/1 / chains/K", best_k);
	if (!result_add_derived(ctx->res, "", "loads", BETTER_HIGHER, best, from)) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		goto out;
	}
	result_param_num(ctx->res, "best_chains", best_k);
	result_param_num(ctx->res, "buffer_bytes", (double)bytes);
	result_param_num(ctx->res, "node_bytes", MLP_NODE);
	if (llc && bytes < 4 * llc) {
		char b[32], l[32], note[200];

		fmt_size(b, sizeof(b), bytes);
		fmt_size(l, sizeof(l), llc);
		snprintf(note, sizeof(note), "the %s buffer is under 4x the %s last-level cache: "
			 "the parallelism of cache hits, not of main memory's misses", b, l);
		result_note(ctx->res, "", note);
	}
	rc = 0;
out:
	free(buf);
	return rc;
}

const struct bench bench_mem_mlp = {
	.id = "mem.mlp", .group = "mem", .title = "Memory-level parallelism (par_mem)",
	.unit = "loads", .better = BETTER_HIGHER, .kind = KIND_DERIVED,
	.run = mlp_run,
	.figures = 16, .figures_quick = 5,	/* the interleaved points */
	.own_size = 1,	/* beyond the last-level cache, as mem.lat's main memory */
};
