/* matrix.c — figures between pairs as matrices: cpu.c2c's `pair/A-B`
 * (CPUs as rows and columns; a pair measured one way stands for both) and
 * mem.numa's `lat/I-J` and `bw/I-J` (the CPUs' node as rows, the memory's
 * as columns, the diagonal local), in the text report and as the HTML
 * report's heat maps (best green to worst red), so which CPUs share a core,
 * a cache or a socket, and which memory is remote, shows as blocks. A pair
 * not measured (sampled pairs on a large machine, a node left out) is "."
 * (text) or blank (HTML). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "units.h"

#define MATRIX_IDS 1024		/* CPU or node numbers a matrix can hold: 0 .. MATRIX_IDS-1 */
#define MATRIX_TEXT 12		/* the text report draws at most this many rows */

/* The matrices: figures named PREFIX A-B of benchmark id (NULL: any). */
static const struct family {
	const char *id, *prefix;
	const char *caption;	/* after the benchmark's id */
	const char *corner;	/* what rows and columns are */
	int directed;		/* A-B and B-A differ, A-A is a figure */
} families[] = {
	{ NULL, "pair/", "between CPUs", "CPU", 0 },
	{ "mem.numa", "lat/", "latency, the row's node's CPU reading the column's node's memory", "node", 1 },
	{ "mem.numa", "bw/", "one CPU's read bandwidth, the row's node's CPU reading the column's node's memory",
	  "node", 1 },
};

struct pairs {
	int ids[MATRIX_IDS];	/* the CPUs seen, ascending */
	int n;
	double *v;		/* v[i * n + j]: the figure between ids[i] and ids[j], NAN if none */
	double lo, hi;
	const char *unit;
	enum better better;
};

static int pair_name(const struct family *fm, const char *name, int *a, int *b)
{
	size_t n = strlen(fm->prefix);
	char tail;

	return !strncmp(name, fm->prefix, n) && sscanf(name + n, "%d-%d%c", a, b, &tail) == 2 &&
	       *a >= 0 && *b >= 0 && *a < MATRIX_IDS && *b < MATRIX_IDS && (fm->directed || *a != *b);
}

static int index_of(const struct pairs *p, int id)
{
	for (int i = 0; i < p->n; i++)
		if (p->ids[i] == id)
			return i;
	return -1;
}

/* b's figures of family fm into p: 1 when there is at least one, 0 none,
 * -1 no memory. Free p->v after. */
static int pairs_read(const struct bench_result *b, const struct family *fm, struct pairs *p)
{
	static unsigned char seen[MATRIX_IDS];
	int a, c, any = 0;

	memset(p, 0, sizeof(*p));
	memset(seen, 0, sizeof(seen));
	if (fm->id && strcmp(fm->id, b->id))
		return 0;
	for (size_t k = 0; k < b->nmetrics; k++)
		if (pair_name(fm, b->metrics[k].name, &a, &c) && isfinite(b->metrics[k].st.median)) {
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

		if (!pair_name(fm, b->metrics[k].name, &a, &c) || !isfinite(v))
			continue;
		i = index_of(p, a);
		j = index_of(p, c);
		p->v[i * p->n + j] = v;
		if (!fm->directed)
			p->v[j * p->n + i] = v;
		p->lo = v < p->lo ? v : p->lo;
		p->hi = v > p->hi ? v : p->hi;
	}
	return 1;
}

static void matrix_text(const struct bench_result *b, const struct family *fm, FILE *f)
{
	struct pairs p;
	char num[32];

	if (pairs_read(b, fm, &p) <= 0)
		return;
	fputc('\n', f);
	report_put(f, b->id, 0);
	fprintf(f, ": %s, ", fm->caption);
	report_put(f, p.unit, 0);
	if (p.n > MATRIX_TEXT) {
		fmt_num(num, sizeof(num), p.lo);
		fprintf(f, " (%d %ss: the matrix is in --format html; from %s", p.n, fm->corner, num);
		fmt_num(num, sizeof(num), p.hi);
		fprintf(f, " to %s)\n", num);
		free(p.v);
		return;
	}
	fprintf(f, " (\".\": not measured)\n%6s", fm->corner);
	for (int j = 0; j < p.n; j++)
		fprintf(f, " %7d", p.ids[j]);
	fputc('\n', f);
	for (int i = 0; i < p.n; i++) {
		fprintf(f, "%6d", p.ids[i]);
		for (int j = 0; j < p.n; j++) {
			double v = p.v[i * p.n + j];

			if (i == j && !fm->directed)
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

void report_pair_matrix_text(const struct bench_result *b, FILE *f)
{
	for (size_t k = 0; k < sizeof(families) / sizeof(families[0]); k++)
		matrix_text(b, &families[k], f);
}

static void matrix_html(const struct bench_result *b, const struct family *fm, const char *label, FILE *f)
{
	struct pairs p;
	char num[32];

	if (pairs_read(b, fm, &p) <= 0)
		return;
	fputs("<section><h3>", f);
	report_html_esc(f, label);
	fputs("</h3>\n<div class=\"tw\"><table class=\"matrix\"><caption>", f);
	report_html_esc(f, b->id);
	fprintf(f, ": %s, ", fm->caption);
	report_html_esc(f, p.unit);
	fprintf(f, " (green best, red worst)</caption>\n<tr><th>%s</th>", fm->corner);
	for (int j = 0; j < p.n; j++)
		fprintf(f, "<th>%d</th>", p.ids[j]);
	fputs("</tr>\n", f);
	for (int i = 0; i < p.n; i++) {
		fprintf(f, "<tr><th>%d</th>", p.ids[i]);
		for (int j = 0; j < p.n; j++) {
			double v = p.v[i * p.n + j];

			if ((i == j && !fm->directed) || isnan(v)) {
				fputs(i == j && !fm->directed ? "<td>-</td>" : "<td></td>", f);
				continue;
			}
			fmt_num(num, sizeof(num), v);
			fputs("<td", f);
			report_html_rank_style(f, v, p.lo, p.hi, p.better);
			if (fm->directed)
				fprintf(f, " title=\"%s %d reading %s %d\">%s</td>", fm->corner, p.ids[i], fm->corner,
					p.ids[j], num);
			else
				fprintf(f, " title=\"%ss %d and %d\">%s</td>", fm->corner, p.ids[i], p.ids[j], num);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></div></section>\n", f);
	free(p.v);
}

void report_pair_matrix_html(const struct bench_result *b, const char *label, FILE *f)
{
	for (size_t k = 0; k < sizeof(families) / sizeof(families[0]); k++)
		matrix_html(b, &families[k], label, f);
}
