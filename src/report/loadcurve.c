/* loadcurve.c — a latency-under-load sweep (mem.loaded's lat/<D> beside
 * bw/<D>, D the loaders' delay) read as a curve, latency over bandwidth:
 * the points for the HTML report's chart, and a table in the text report
 * (MLC's --loaded_latency prints the same three columns). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "report.h"
#include "units.h"

int report_load_points(const struct bench_result *b, struct load_point *pt, int max)
{
	int n = 0;

	for (size_t k = 0; k < b->nmetrics && n < max; k++) {
		const struct metric *m = &b->metrics[k];
		const struct metric *w;
		char name[48], tail;
		long d;

		if (sscanf(m->name, "lat/%ld%c", &d, &tail) != 1)
			continue;
		snprintf(name, sizeof(name), "bw/%ld", d);
		if (!(w = result_metric(b, name)) || !isfinite(m->st.median) || !isfinite(w->st.median))
			continue;
		pt[n].delay = d;
		pt[n].bw = w->st.median;
		snprintf(name, sizeof(name), "cpu/%ld", d);
		pt[n].cpu = (w = result_metric(b, name)) ? w->st.median : NAN;
		pt[n++].lat = m->st.median;
	}
	/* by bandwidth, light load first */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && pt[j].bw < pt[j - 1].bw; j--) {
			struct load_point t = pt[j];

			pt[j] = pt[j - 1];
			pt[j - 1] = t;
		}
	return n;
}

void report_load_text(const struct bench_result *b, FILE *f)
{
	struct load_point pt[64];
	const struct metric *idle = result_metric(b, "idle");
	int n = report_load_points(b, pt, 64);
	char d[32], w[32], l[32];
	int cpu = 0;

	if (n < 1)
		return;
	for (int i = 0; i < n; i++)
		cpu |= !isnan(pt[i].cpu);
	fputc('\n', f);
	report_put(f, b->id, 0);
	fputs(": latency under load (delay: the loaders' wait after each line)\n"
	      "    delay       MB/s         ns", f);
	fputs(cpu ? "  loaders' CPU\n" : "\n", f);
	if (idle) {
		fmt_num(l, sizeof(l), idle->st.median);
		fprintf(f, "%9s %10s %10s\n", "idle", "0", l);
	}
	for (int i = 0; i < n; i++) {
		snprintf(d, sizeof(d), "%ld", pt[i].delay);
		fmt_num(w, sizeof(w), pt[i].bw);
		fmt_num(l, sizeof(l), pt[i].lat);
		fprintf(f, "%9s %10s %10s", d, w, l);
		if (cpu && !isnan(pt[i].cpu))
			fprintf(f, "  %11.0f%%", pt[i].cpu);
		fputc('\n', f);
	}
}
