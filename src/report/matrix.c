/* matrix.c — figures between pairs (cpu.c2c's `pair/A-B`) as a matrix:
 * CPUs as rows and columns, in the text report and as the HTML report's
 * heat map (fastest green to slowest red), so which CPUs share a core, a
 * cache or a socket shows as blocks. Any benchmark whose figures are named
 * pair/A-B (A, B small numbers) gets one; a pair not measured (sampled
 * pairs on a large machine) is "." (text) or blank (HTML). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "units.h"

#define MATRIX_IDS 1024		/* CPU numbers a matrix can hold: 0 .. MATRIX_IDS-1 */
#define MATRIX_TEXT 12		/* the text report draws at most this many CPUs */

struct pairs {
	int ids[MATRIX_IDS];	/* the CPUs seen, ascending */
	int n;
	double *v;		/* v[i * n + j]: the figure between ids[i] and ids[j], NAN if none */
	double lo, hi;
	const char *unit;
	enum better better;
};

static int pair_name(const char *name, int *a, int *b)
{
	char tail;

	return sscanf(name, "pair/%d-%d%c", a, b, &tail) == 2 && *a >= 0 && *b >= 0 &&
	       *a < MATRIX_IDS && *b < MATRIX_IDS && *a != *b;
}

static int index_of(const struct pairs *p, int id)
{
	for (int i = 0; i < p->n; i++)
		if (p->ids[i] == id)
			return i;
	return -1;
}

/* b's pair figures into p: 1 when there is at least one, 0 none, -1 no
 * memory. Free p->v after. */
static int pairs_read(const struct bench_result *b, struct pairs *p)
{
	static unsigned char seen[MATRIX_IDS];
	int a, c, any = 0;

	memset(p, 0, sizeof(*p));
	memset(seen, 0, sizeof(seen));
	for (size_t k = 0; k < b->nmetrics; k++)
		if (pair_name(b->metrics[k].name, &a, &c) && isfinite(b->metrics[k].st.median)) {
			seen[a] = seen[c] = 1;
			if (!any++) {
				p->unit = b->metrics[k].unit;
				p->better = b->metrics[k].better;
			}
		}
	if (!any)
		return 0;
	for (int id = 0; id < MATRIX_IDS; id++)
		if (seen[id])
			p->ids[p->n++] = id;
	if (!(p->v = malloc((size_t)p->n * (size_t)p->n * sizeof(double))))
		return -1;
	for (int i = 0; i < p->n * p->n; i++)
		p->v[i] = NAN;
	p->lo = INFINITY;
	p->hi = -INFINITY;
	for (size_t k = 0; k < b->nmetrics; k++) {
		double v = b->metrics[k].st.median;
		int i, j;

		if (!pair_name(b->metrics[k].name, &a, &c) || !isfinite(v))
			continue;
		i = index_of(p, a);
		j = index_of(p, c);
		p->v[i * p->n + j] = p->v[j * p->n + i] = v;
		p->lo = v < p->lo ? v : p->lo;
		p->hi = v > p->hi ? v : p->hi;
	}
	return 1;
}

void report_pair_matrix_text(const struct bench_result *b, FILE *f)
{
	struct pairs p;
	char num[32];

	if (pairs_read(b, &p) <= 0)
		return;
	fputc('\n', f);
	report_put(f, b->id, 0);
	fputs(": between CPUs, ", f);
	report_put(f, p.unit, 0);
	if (p.n > MATRIX_TEXT) {
		fmt_num(num, sizeof(num), p.lo);
		fprintf(f, " (%d CPUs: the matrix is in --format html; from %s", p.n, num);
		fmt_num(num, sizeof(num), p.hi);
		fprintf(f, " to %s)\n", num);
		free(p.v);
		return;
	}
	fputs(" (\".\": not measured)\n   CPU", f);
	for (int j = 0; j < p.n; j++)
		fprintf(f, " %7d", p.ids[j]);
	fputc('\n', f);
	for (int i = 0; i < p.n; i++) {
		fprintf(f, "%6d", p.ids[i]);
		for (int j = 0; j < p.n; j++) {
			double v = p.v[i * p.n + j];

			if (i == j)
				fprintf(f, " %7s", "-");
			else if (isnan(v))
				fprintf(f, " %7s", ".");
			else {
				fmt_num(num, sizeof(num), v);
				fprintf(f, " %7s", num);
			}
		}
		fputc('\n', f);
	}
	free(p.v);
}

void report_pair_matrix_html(const struct bench_result *b, const char *label, FILE *f)
{
	struct pairs p;
	char num[32];

	if (pairs_read(b, &p) <= 0)
		return;
	fputs("<section><h3>", f);
	report_html_esc(f, label);
	fputs("</h3>\n<div class=\"tw\"><table class=\"matrix\"><caption>", f);
	report_html_esc(f, b->id);
	fputs(": between CPUs, ", f);
	report_html_esc(f, p.unit);
	fputs(" (green fastest, red slowest)</caption>\n<tr><th>CPU</th>", f);
	for (int j = 0; j < p.n; j++)
		fprintf(f, "<th>%d</th>", p.ids[j]);
	fputs("</tr>\n", f);
	for (int i = 0; i < p.n; i++) {
		fprintf(f, "<tr><th>%d</th>", p.ids[i]);
		for (int j = 0; j < p.n; j++) {
			double v = p.v[i * p.n + j];

			if (i == j || isnan(v)) {
				fputs(i == j ? "<td>-</td>" : "<td></td>", f);
				continue;
			}
			fmt_num(num, sizeof(num), v);
			fputs("<td", f);
			report_html_rank_style(f, v, p.lo, p.hi, p.better);
			fprintf(f, " title=\"CPUs %d and %d\">%s</td>", p.ids[i], p.ids[j], num);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></div></section>\n", f);
	free(p.v);
}
