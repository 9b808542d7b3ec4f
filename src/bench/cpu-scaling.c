/* cpu-scaling.c — how the CPU workloads scale over copies run at once
 * (UnixBench's single-copy and N-copy runs; the 1996 SMP report's one
 * processor against two).
 *
 * cpu.scaling: for each workload (cpu.int in loops/s, cpu.float in Mops/s)
 * and each count c of copies (--copies LIST; default 1, 2, 4, ... up to
 * the online CPUs, and that number), the benchmark itself is run as c
 * copies by the harness's --parallel machinery: c processes, one common
 * calibration, a common start, samples in lockstep and a cooldown until the
 * last copy is done, so every sample of every copy is taken while all c
 * run; each copy checks its own checksum. Figures, per workload W:
 *   W/c       the aggregate rate: sample k is the sum of every copy's
 *             sample k, and each copy's median is kept (per_copy);
 *   W/c/eff   efficiency, in %: aggregate / (c x the one-copy rate), where
 *             the one-copy rate is W/1, always measured first. 100% is
 *             perfect scaling; two copies on two CPUs sharing caches, memory
 *             or (in a VM) a host give less. More copies than CPUs share
 *             them and show it. Over 110% carries a note: the one copy
 *             was measured at a slow moment of the machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench.h"
#include "cpu-work.h"
#include "harness.h"
#include "registry.h"
#include "result.h"

#define MAX_COUNTS 16

static const struct {
	const char *name;
	const struct bench *b;
} workloads[] = {
	{ "int", &bench_cpu_int },
	{ "float", &bench_cpu_float },
};

/* W/c: c copies of workload b at once; W/c/eff against the one-copy
 * median `single` (0: this is the one copy, which sets *single). */
static int record(struct bench_ctx *ctx, const char *w, const struct bench *b, int c, double *single)
{
	char name[64], from[96];
	struct metric *m;
	double eff;

	snprintf(name, sizeof(name), "%s/%d", w, c);
	if (!(m = harness_copies(ctx, b, c, name)))
		return -1;
	if (c == 1) {
		*single = m->st.median;
		return 0;
	}
	eff = 100 * m->st.median / (c * *single);
	snprintf(name, sizeof(name), "%s/%d/eff", w, c);
	snprintf(from, sizeof(from), "%s/%d / (%d x %s/1)", w, c, c, w);
	if (!(m = result_add_derived(ctx->res, name, "%", BETTER_HIGHER, eff, from))) {
		snprintf(ctx->reason, sizeof(ctx->reason), "%s: out of memory", name);
		return -1;
	}
	/* Copies of a CPU-bound loop cannot beat c x one copy by much: above
	 * it, the one copy was measured at a slow moment. */
	if (eff > 110)
		m->note = strdup("over 100%: the one copy ran slower than each of these; "
				 "the machine's speed moved between the two");
	return 0;
}

/* The copy counts: --copies, or 1, 2, 4, ... below the online CPUs and
 * that number; 1 always comes first (the reference for efficiency). */
static int counts(const struct bench_opts *opt, int *cnt)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN), k;
	int n = 0, i;

	cnt[n++] = 1;
	if (opt->ncopies) {
		for (i = 0; i < opt->ncopies; i++)
			if (opt->copies[i] != 1)
				cnt[n++] = (int)opt->copies[i];
		return n;
	}
	if (online < 1)
		online = 1;
	for (k = 2; k < online && n < MAX_COUNTS - 1; k *= 2)
		cnt[n++] = (int)k;
	if (online > 1)
		cnt[n++] = (int)(online > 1024 ? 1024 : online);
	return n;
}

static int scaling_run(struct bench_ctx *ctx)
{
	int cnt[MAX_COUNTS], n = counts(ctx->opt, cnt), i;
	char list[160] = "";
	size_t w;

	for (i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%d", i ? "," : "", cnt[i]);
	result_param_str(ctx->res, "copies", list);
	result_param_num(ctx->res, "online_cpus", (double)sysconf(_SC_NPROCESSORS_ONLN));
	cpu_record_build(ctx);
	for (w = 0; w < sizeof(workloads) / sizeof(workloads[0]); w++) {
		double single = 0;

		for (i = 0; i < n; i++)
			if (record(ctx, workloads[w].name, workloads[w].b, cnt[i], &single) < 0)
				return -1;
	}
	return 0;
}

/* For the progress line: both workloads at each count of copies, a loop
 * figure each (their copies run at once). */
static double scaling_estimate(const struct bench_opts *opt, const struct harness_cfg *cfg, double fig_s)
{
	int cnt[MAX_COUNTS];

	(void)cfg;
	return 2.0 * counts(opt, cnt) * 0.7 * fig_s;
}

const struct bench bench_cpu_scaling = {
	.id = "cpu.scaling", .group = "cpu", .title = "CPU workloads over copies",
	.unit = "%", .better = BETTER_HIGHER, .kind = KIND_DERIVED, .run = scaling_run,
	.estimate = scaling_estimate,
};
