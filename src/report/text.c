/* text.c — the default human table: who/what/when, the guard's findings,
 * then one line per figure with its median, the 95% CI of the median, the
 * coefficient of variation and the sample count, so the reader can judge
 * every number on the spot. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "report.h"
#include "units.h"

/* Who, what, when, how, and the guard's findings. */
static void report_header(const struct result *r, FILE *f)
{
	const struct sysinfo *h = &r->host;
	char mem[32];
	int i;

	fmt_size(mem, sizeof(mem), h->mem_total);
	fprintf(f, "bakeoff %s on %s: %s, %s\n", h->version[0] ? h->version : "?", h->hostname,
		h->os, h->kernel);
	fprintf(f, "cpu: %s, %d cores / %d threads", h->cpu_model, h->cores, h->threads);
	if (h->cpu_mhz > 0)
		fprintf(f, ", %.0f MHz", h->cpu_mhz);
	fprintf(f, "; memory %s; virtualization %s\n", mem, h->virt[0] ? h->virt : "unknown");
	fprintf(f, "run: %s, profile %s, %.1f s", r->start_utc ? r->start_utc : "?",
		r->profile ? r->profile : "?", r->duration_s);
	if (r->parallel > 1)
		fprintf(f, ", %d parallel copies", r->parallel);
	fprintf(f, "%s\n", r->interrupted ? ", INTERRUPTED" : "");
	fprintf(f, "harness: >= %d samples of >= %.0f ms; clock %s, resolution %.0f ns, "
		"cost %.1f ns; loop overhead %.2f ns/iteration subtracted\n",
		r->samples, r->target_sample_ns / 1e6, r->clock.source ? r->clock.source : "?",
		r->clock.resolution_ns, r->clock.cost_ns, r->loop_ns);
	fprintf(f, "command:");
	for (i = 0; i < r->argc; i++)
		fprintf(f, " %s", r->argv[i]);
	fprintf(f, "\nguard: %s\n", r->guard.verdict);
	for (size_t k = 0; k < r->guard.nfindings; k++)
		fprintf(f, "  - %s\n", r->guard.findings[k]);
}

void report_text(const struct result *r, FILE *f, int all)
{
	size_t i, j, hidden = 0;
	int idw = 9, tw = 5;

	report_header(r, f);
	for (i = 0; i < r->nbenches; i++) {
		const struct bench_result *b = &r->benches[i];

		for (j = 0; j < b->nmetrics || j == 0; j++) {
			int w = (int)strlen(b->id);

			if (j < b->nmetrics && b->metrics[j].detail && !all)
				continue;
			if (j < b->nmetrics)
				w += (int)strlen(b->metrics[j].name) + 1;
			if (w > idw)
				idw = w;
		}
		if ((int)strlen(b->title) > tw)
			tw = (int)strlen(b->title);
	}
	fprintf(f, "\n%-*s  %-*s  %12s %-5s  %-23s %6s %4s\n", idw, "benchmark", tw, "title",
		"median", "unit", "95% CI of median", "CV", "n");
	for (i = 0; i < r->nbenches; i++) {
		const struct bench_result *b = &r->benches[i];

		if (b->status != ST_OK || b->nmetrics == 0) {
			fprintf(f, "%-*s  %-*s  %s%s%s\n", idw, b->id, tw, b->title, status_name(b->status),
				b->reason ? ": " : "", b->reason ? b->reason : "");
			continue;
		}
		for (j = 0; j < b->nmetrics; j++) {
			const struct metric *m = &b->metrics[j];
			char id[160], med[32], lo[32], hi[32], ci[80];
			int first = 1;
			size_t k;

			if (m->detail && !all) {
				hidden++;
				continue;
			}
			for (k = 0; k < j; k++)
				if (all || !b->metrics[k].detail)
					first = 0;

			snprintf(id, sizeof(id), "%s%s%s", b->id, m->name[0] ? ":" : "", m->name);
			fmt_num(med, sizeof(med), m->st.median);
			fmt_num(lo, sizeof(lo), m->st.ci_lo);
			fmt_num(hi, sizeof(hi), m->st.ci_hi);
			snprintf(ci, sizeof(ci), "%s .. %s", lo, hi);
			if (m->derived)	/* computed, not sampled: no CI, CV or n to claim */
				fprintf(f, "%-*s  %-*s  %12s %-5s  derived from %s", idw, id, tw,
					first ? b->title : "", med, m->unit, m->derived);
			else
				fprintf(f, "%-*s  %-*s  %12s %-5s  %-23s %5.1f%% %4zu", idw, id, tw,
					first ? b->title : "", med, m->unit, ci, m->st.cv * 100,
					m->st.n);
			if (m->ncopies) {
				fprintf(f, "  (%zu copies:", m->ncopies);
				for (k = 0; k < m->ncopies && k < 8; k++) {
					fmt_num(med, sizeof(med), m->per_copy[k]);
					fprintf(f, " %s", med);
				}
				fprintf(f, "%s)", m->ncopies > 8 ? " ..." : "");
			}
			if (m->note)
				fprintf(f, "  [%s]", m->note);
			fputc('\n', f);
		}
	}
	if (hidden)
		fprintf(f, "(%zu curve points and intermediate figures not shown: "
			"bakeoff report --all FILE)\n", hidden);
}
