/* html-kit.c — the pieces every HTML page of bakeoff shares (html.c,
 * compare-html.c, history-html.c, matrix.c): strings from result files
 * escaped for HTML, and the best-green-to-worst-red cell colors that
 * bonnie++'s bon_csv2html gave its tables. */
#include <math.h>
#include <stdio.h>
#include "report.h"

void report_html_esc(FILE *f, const char *s)
{
	char tmp[4096];
	const char *p;

	report_esc(tmp, sizeof(tmp), s ? s : "");
	for (p = tmp; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*p, f);
		}
	}
}

void report_html_rank_style(FILE *f, double v, double lo, double hi, enum better better)
{
	double t;

	if (!(hi > lo) || !isfinite(v) || !isfinite(lo) || !isfinite(hi))
		return;
	t = (v - lo) / (hi - lo);
	if (better == BETTER_LOWER)
		t = 1 - t;
	fprintf(f, " style=\"background:hsl(%.0f,70%%,82%%)\"", 120 * t);
}

