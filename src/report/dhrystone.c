/* dhrystone.c — the `dhrystone` personality: cpu.int in the shape of
 * Dhrystone 1.1's two lines, as the 1995 report quotes them
 *     Dhrystone(1.1) time for 500000 passes = 3
 *     This machine benchmarks at 157248 dhrystones/second
 * under its honest name (bakeoff-int is not Dhrystone, and its loops are
 * not dhrystones), after the compiler and flags, as the report gives them.
 * Both lines are one measurement, the median sample: its loops, its time
 * (loops / the median rate; every sample runs the same loops) and the
 * median rate, from the result file; the count of samples follows. */
#include <stdio.h>
#include <string.h>
#include "report.h"

static void one(const struct result *r, FILE *f)
{
	const struct bench_result *b = result_bench(r, "cpu.int");
	const struct metric *m = b ? result_metric(b, "") : NULL;
	double loops, secs;

	fputs("bakeoff-int on ", f);
	report_put(f, r->host.hostname, 0);
	fputs(": (", f);
	report_put(f, r->host.compiler, 0);
	fputc(' ', f);
	report_put(f, r->host.cflags, 0);
	fputs(")\n", f);
	if (!b || b->status != ST_OK || !m || !m->nsamples) {
		fputs("cpu.int: ", f);
		report_put(f, !b ? "not in this file" : b->reason ? b->reason : status_name(b->status), 0);
		fputc('\n', f);
		return;
	}
	loops = (double)m->iterations;
	secs = m->st.median > 0 ? loops / m->st.median : 0;
	fprintf(f, "bakeoff-int(1) time for %.0f loops = %.4f\n", loops, secs);
	fprintf(f, "This machine benchmarks at %.0f bakeoff-int loops/second\n", m->st.median);
	fprintf(f, "(the median of %zu samples of %.0f loops)\n", m->nsamples, loops);
}

void report_dhrystone(const struct result *const *rs, size_t n, FILE *f)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i)
			fputc('\n', f);
		one(rs[i], f);
	}
}
