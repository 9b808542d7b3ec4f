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

/* Record W/c from the run of c copies (br, status ok); efficiency against
 * the one-copy median `single`. */
static int record(struct bench_ctx *ctx, const char *w, int c, const struct bench_result *br,
		  double single)
{
	const struct metric *src = result_metric(br, "");
	char name[64], from[96];
	struct metric *m;
	double eff;

	snprintf(name, sizeof(name), "%s/%d", w, c);
	if (!src || !src->nsamples || !(m = result_add_metric(ctx->res, name, src->unit,
							       BETTER_HIGHER, src->samples,
							       src->nsamples)))
		goto oom;
	m->iterations = src->iterations;
	m->overhead_ns = src->overhead_ns;
	m->cpu_wall_s = src->cpu_wall_s;
	m->cpu_user_s = src->cpu_user_s;
	m->cpu_sys_s = src->cpu_sys_s;
	if (src->ncopies && (m->per_copy = malloc(src->ncopies * sizeof(double)))) {
		memcpy(m->per_copy, src->per_copy, src->ncopies * sizeof(double));
		m->ncopies = src->ncopies;
	}
	if (c == 1)
		return 0;
	eff = 100 * m->st.median / (c * single);
	snprintf(name, sizeof(name), "%s/%d/eff", w, c);
	snprintf(from, sizeof(from), "%s/%d / (%d x %s/1)", w, c, c, w);
	if ((m = result_add_derived(ctx->res, name, "%", BETTER_HIGHER, eff, from))) {
		/* Copies of a CPU-bound loop cannot beat c x one copy by much:
		 * above it, the one copy was measured at a slow moment. */
		if (eff > 110)
			m->note = strdup("over 100%: the one copy ran slower than each of these; "
					 "the machine's speed moved between the two");
		return 0;
	}
oom:
	snprintf(ctx->reason, sizeof(ctx->reason), "%s/%d: %s", w, c,
		 src && src->nsamples ? "out of memory" : "no figure");
	return -1;
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
		const struct bench *b = workloads[w].b;
		double single = 0;

		for (i = 0; i < n; i++) {
			struct bench_opts o = *ctx->opt;
			struct bench_result br = { 0 };
			int rc = 0;

			o.parallel = cnt[i];
			br.id = strdup(b->id);
			br.group = strdup(b->group);
			br.title = strdup(b->title);
			if (!br.id || !br.group || !br.title) {
				snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
				rc = -1;
			} else {
				harness_run_bench(ctx->h, b, &o, &br);
				if (br.status != ST_OK) {
					snprintf(ctx->reason, sizeof(ctx->reason), "%s, %d cop%s: %s",
						 workloads[w].name, cnt[i], cnt[i] > 1 ? "ies" : "y",
						 br.reason ? br.reason : status_name(br.status));
					rc = -1;
				}
			}
			if (rc == 0 && cnt[i] == 1)
				single = result_metric(&br, "")->st.median;
			if (rc == 0)
				rc = record(ctx, workloads[w].name, cnt[i], &br, single);
			result_bench_free(&br);
			if (rc < 0)
				return -1;
		}
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
