/* text.c — the default human table: who/what/when, the guard's findings,
 * then one line per figure with its median, the 95% CI of the median, the
 * coefficient of variation and the sample count, so the reader can judge
 * every number on the spot, and what limited a figure where the file
 * tells (report_bottleneck: CPU-bound, a share of the memory ceiling).
 * Every string from the file goes through report_put (escape.c): the file
 * may come from anyone. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "report.h"
#include "units.h"

static void guard_lines(const struct result *r, FILE *f, int full);

/* The run's start and profile ("?" for either missing), sep between them. */
void report_put_run(FILE *f, const struct result *r, const char *sep)
{
	report_put(f, r->start_utc ? r->start_utc : "?", 0);
	fputs(sep, f);
	report_put(f, r->profile ? r->profile : "?", 0);
}

/* Who, what, when, how, and the guard's findings. */
static void report_header(const struct result *r, FILE *f)
{
	const struct sysinfo *h = &r->host;
	char mem[32];
	int i;

	fmt_size(mem, sizeof(mem), h->mem_total);
	fputs("bakeoff ", f);
	report_put(f, h->version[0] ? h->version : "?", 0);
	fputs(" on ", f);
	report_put(f, h->hostname, 0);
	fputs(": ", f);
	report_put(f, h->os, 0);
	fputs(", ", f);
	report_put(f, h->kernel, 0);
	fputs("\ncpu: ", f);
	report_put(f, h->cpu_model, 0);
	fprintf(f, ", %d cores / %d threads", h->cores, h->threads);
	if (h->cpu_mhz > 0)
		fprintf(f, ", %.0f MHz", h->cpu_mhz);
	fprintf(f, "; memory %s; virtualization ", mem);
	report_put(f, h->virt[0] ? h->virt : "unknown", 0);
	fputs("\nrun: ", f);
	report_put_run(f, r, ", profile ");
	fprintf(f, ", %.1f s", r->duration_s);
	if (r->parallel > 1)
		fprintf(f, ", %d parallel copies", r->parallel);
	if (r->runs > 1)	/* compare */
		fprintf(f, ", %d runs of each benchmark (samples pooled)", r->runs);
	fprintf(f, "%s\n", r->interrupted ? ", INTERRUPTED" : "");
	for (size_t i = 0; i < r->nlabels; i++) {
		fputs(i ? ", " : "labels: ", f);
		report_put(f, r->labels[i], 0);
		if (i + 1 == r->nlabels)
			fputc('\n', f);
	}
	fprintf(f, "harness: >= %d samples of >= %.0f ms", r->samples, r->target_sample_ns / 1e6);
	if (r->ci_target > 0)	/* --ci-target */
		fprintf(f, ", more until the 95%% CI is within +-%.3g%%", r->ci_target * 100);
	fputs("; clock ", f);
	report_put(f, r->clock.source ? r->clock.source : "?", 0);
	fprintf(f, ", resolution %.0f ns, cost %.1f ns; loop overhead %.2f ns/iteration subtracted\n",
		r->clock.resolution_ns, r->clock.cost_ns, r->loop_ns);
	fprintf(f, "command:");
	for (i = 0; i < r->argc; i++) {
		fputc(' ', f);
		report_put(f, r->argv[i], 0);
	}
	fputs("\nguard: ", f);
	report_put(f, r->guard.verdict, 0);
	guard_lines(r, f, 0);
}

/* The guard's findings: before the figures grouped and counted
 * (report_guard_summary), after them (full) every one, when the grouping
 * left some out. */
static void guard_lines(const struct result *r, FILE *f, int full)
{
	static char lines[64][REPORT_GUARD_LINE];
	int grouped = report_guard_grouped(r);
	size_t k, n;

	if (full) {
		if (!grouped)
			return;
		fprintf(f, "\nguard findings, all %zu:\n", r->guard.nfindings);
		for (k = 0; k < r->guard.nfindings; k++) {
			fputs("  - ", f);
			report_put(f, r->guard.findings[k], 0);
			fputc('\n', f);
		}
		return;
	}
	if (grouped)
		fprintf(f, " (%zu findings, grouped here; each one after the figures)", r->guard.nfindings);
	fputc('\n', f);
	n = report_guard_summary(r, lines, 64);
	for (k = 0; k < n; k++) {
		fputs("  - ", f);
		report_put(f, lines[k], 0);
		fputc('\n', f);
	}
}

static int is_throughput(const char *unit)
{
	size_t l = strlen(unit);

	return l > 2 && strcmp(unit + l - 2, "/s") == 0;
}

/* Below a figure: its latency percentiles, and the range of its
 * per-interval figures (a rate that sags shows as a low minimum). */
/* ns per unit of a latency line's unit (ns, us, ms), 0 when unknown. */
static double lat_scale(const char *unit)
{
	return !strcmp(unit, "ns") ? 1 : !strcmp(unit, "us") ? 1e3 : !strcmp(unit, "ms") ? 1e6 : 0;
}

/* The one unit for a benchmark's latency lines, so that its rows never
 * switch between ns and us: the unit its largest p99 is read in (as each
 * metric's own unit is chosen). NULL when none has percentiles. */
static const char *lat_unit(const struct bench_result *b)
{
	double p99 = -1;
	size_t j;

	for (j = 0; j < b->nmetrics; j++) {
		const struct metric *m = &b->metrics[j];
		double s = lat_scale(m->hist_unit);

		if (m->hist_count && s > 0 && m->hist_p99 * s > p99)
			p99 = m->hist_p99 * s;
	}
	return p99 < 0 ? NULL : p99 >= 1e7 ? "ms" : p99 >= 1e4 ? "us" : "ns";
}

static void extra_lines(const struct metric *m, const char *unit, FILE *f)
{
	char a[5][32], lo[32], hi[32];
	double vmin = 0, vmax = 0;
	size_t i, n = 0;

	if (m->hist_count) {
		char mean[48] = "";
		double k = unit && lat_scale(m->hist_unit) > 0 ? lat_scale(m->hist_unit) / lat_scale(unit) : 1;

		if (k == 1)
			unit = m->hist_unit;
		if (m->hist_mean > 0) {
			fmt_num(a[0], sizeof(a[0]), m->hist_mean * k);
			snprintf(mean, sizeof(mean), "mean %s, ", a[0]);
		}
		fmt_num(a[0], sizeof(a[0]), m->hist_p50 * k);
		fmt_num(a[1], sizeof(a[1]), m->hist_p90 * k);
		fmt_num(a[2], sizeof(a[2]), m->hist_p99 * k);
		fmt_num(a[3], sizeof(a[3]), m->hist_p999 * k);
		fmt_num(a[4], sizeof(a[4]), m->hist_max * k);
		fprintf(f, "\n    latency of %llu operations: %sp50 %s, p90 %s, p99 %s, p99.9 %s, max %s ",
			(unsigned long long)m->hist_count, mean, a[0], a[1], a[2], a[3], a[4]);
		report_put(f, unit, 0);
		/* a time figure of a long op is each repetition's mean (lmbench's
		 * and qperf's latency), not the operations' p50 */
		if (m->better == BETTER_LOWER && m->nsamples == 1)
			fputs("\n    the figure is the repetition's mean (as lmbench and qperf give it), "
			      "not the operations' p50", f);
		else if (m->better == BETTER_LOWER)
			fprintf(f, "\n    the figure is the median of %zu repetitions' means (each as "
				"lmbench and qperf give it), not the operations' p50", m->nsamples);
	}
	for (i = 0; i < m->niv; i++) {
		if (m->iv_amount[i] <= 0)
			continue;
		if (!n++ || m->iv_value[i] < vmin)
			vmin = m->iv_value[i];
		if (n == 1 || m->iv_value[i] > vmax)
			vmax = m->iv_value[i];
	}
	if (n > 1) {
		fmt_num(lo, sizeof(lo), vmin);
		fmt_num(hi, sizeof(hi), vmax);
		fprintf(f, "\n    %zu intervals: lowest %s, highest %s ", n, lo, hi);
		report_put(f, m->unit, 0);
	}
	/* --runs: each run's median, the spread between runs and within them */
	if (m->nruns >= 2) {
		struct stats between, within;

		stats_compute(m->run_median, m->nruns, &between);
		stats_compute(m->run_cv, m->nruns, &within);
		fprintf(f, "\n    %zu runs: medians", m->nruns);
		for (i = 0; i < m->nruns && i < 8; i++) {
			fmt_num(lo, sizeof(lo), m->run_median[i]);
			fprintf(f, "%s %s", i ? "," : "", lo);
		}
		fprintf(f, "%s; CV between runs %.1f%%, within a run %.1f%% (median)",
			m->nruns > 8 ? ", ..." : "", between.cv * 100, within.median * 100);
	}
}

void report_text(const struct result *r, FILE *f, int all)
{
	size_t i, j, hidden = 0;
	int idw = 9, tw = 5;

	report_header(r, f);
	for (i = 0; i < r->nbenches; i++) {
		const struct bench_result *b = &r->benches[i];

		for (j = 0; j < b->nmetrics || j == 0; j++) {
			int w = (int)report_esc_width(b->id);

			if (j < b->nmetrics && b->metrics[j].detail && !all)
				continue;
			if (j < b->nmetrics)
				w += (int)report_esc_width(b->metrics[j].name) + 1;
			if (w > idw)
				idw = w;
		}
		if ((int)report_esc_width(b->title) > tw)
			tw = (int)report_esc_width(b->title);
	}
	fprintf(f, "\n%-*s  %-*s  %12s %-5s  %-23s %6s %4s %5s\n", idw, "benchmark", tw, "title",
		"median", "unit", "95% CI of median", "CV", "n", "%CPU");
	for (i = 0; i < r->nbenches; i++) {
		const struct bench_result *b = &r->benches[i];

		if (b->status != ST_OK || b->nmetrics == 0) {
			report_put(f, b->id, idw);
			fputs("  ", f);
			report_put(f, b->title, tw);
			fprintf(f, "  %s%s", status_name(b->status), b->reason ? ": " : "");
			report_put(f, b->reason, 0);
			fputc('\n', f);
			continue;
		}
		for (j = 0; j < b->nmetrics; j++) {
			const struct metric *m = &b->metrics[j];
			char med[32], lo[32], hi[32], ci[80], bn[256];
			int first = 1;
			size_t k;

			if (m->detail && !all) {
				hidden++;
				continue;
			}
			for (k = 0; k < j; k++)
				if (all || !b->metrics[k].detail)
					first = 0;

			fmt_num(med, sizeof(med), m->st.median);
			fmt_num(lo, sizeof(lo), m->st.ci_lo);
			fmt_num(hi, sizeof(hi), m->st.ci_hi);
			snprintf(ci, sizeof(ci), "%s .. %s", lo, hi);
			report_put(f, b->id, m->name[0] ? 0 : idw);
			if (m->name[0]) {
				fputc(':', f);
				report_put(f, m->name,
					   idw - (int)report_esc_width(b->id) - 1);
			}
			fputs("  ", f);
			report_put(f, first ? b->title : "", tw);
			fprintf(f, "  %12s ", med);
			report_put(f, m->unit, 5);
			if (m->derived) {	/* computed, not sampled: no CI, CV or n to claim */
				fputs("  derived from ", f);
				report_put(f, m->derived, 0);
			} else if (m->st.n < 2) {	/* one sample: no spread to show */
				fprintf(f, "  %-23s %6s %4zu", "-", "-", m->st.n);
			} else {
				fprintf(f, "  %-23s %5.1f%% %4zu", ci, m->st.cv * 100, m->st.n);
			}
			if (!m->derived && m->cpu_wall_s > 0 && is_throughput(m->unit))
				fprintf(f, " %4.0f%%", 100 * (m->cpu_user_s + m->cpu_sys_s) / m->cpu_wall_s);
			if (m->ncopies) {
				fprintf(f, "  (%zu copies:", m->ncopies);
				for (k = 0; k < m->ncopies && k < 8; k++) {
					fmt_num(med, sizeof(med), m->per_copy[k]);
					fprintf(f, " %s", med);
				}
				fprintf(f, "%s)", m->ncopies > 8 ? " ..." : "");
			}
			/* disk: the cache mark */
			if (m->cache_suspect && (!m->note || strncmp(m->note, "cached?", 7)))
				fputs("  cached?", f);
			/* what limited it (figures.c): CPU-bound, the memory ceiling */
			if (report_bottleneck(b, m, bn, sizeof(bn)) > 0) {
				fputs("  bottleneck: ", f);
				report_put(f, bn, 0);
			}
			if (m->note) {
				fputs("  [", f);
				report_put(f, m->note, 0);
				fputc(']', f);
			}
			if (m->ci_target > 0 && m->ci_reached > m->ci_target)	/* --ci-target */
				fprintf(f, "  [CI target +-%.3g%% missed: +-%.3g%% after %zu samples]",
					m->ci_target * 100, m->ci_reached * 100, m->st.n);
			extra_lines(m, lat_unit(b), f);
			fputc('\n', f);
		}
	}
	if (hidden)
		fprintf(f, "(%zu curve points and intermediate figures not shown: "
			"bakeoff report --all FILE)\n", hidden);
	for (i = 0; i < r->nbenches; i++)
		if (r->benches[i].status == ST_OK) {
			report_pair_matrix_text(&r->benches[i], f);
			report_load_text(&r->benches[i], f);
		}
	guard_lines(r, f, 1);
}
