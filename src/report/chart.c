/* chart.c — ASCII bar charts of one or more result files, in the manner
 * of the 2003 NetBSD SE/30 report (docs/reports.md): one symbol per file
 * with a legend, a curve (disk.seq by block size, mem.lat by size) as
 * vertical bars grouped by size, every other figure as horizontal bars
 * with its value and what limited it. Plain ASCII within 80 columns, never
 * an escape sequence (so NO_COLOR and mail need nothing special). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "units.h"

#define WIDTH 80
#define HEIGHT 12	/* rows of a vertical chart */
#define MAXPTS 64	/* sizes on one curve */

/* s escaped, cut to width characters (UTF-8 aware) and padded to pad. */
static void put_cut(FILE *f, const char *s, int width, int pad)
{
	char tmp[1024];
	int cols = 0;
	const char *p;

	report_esc(tmp, sizeof(tmp), s ? s : "");
	for (p = tmp; *p; p++) {
		if (((unsigned char)*p & 0xc0) != 0x80) {
			if (cols == width)
				break;
			cols++;
		}
		fputc(*p, f);
	}
	for (; cols < pad; cols++)
		fputc(' ', f);
}

/* The files' symbols and names ("* = vm (file 1)"), after a line that
 * already holds col columns: sep0 before the first, sep between, a new
 * line indented by indent when the next would pass WIDTH. Names are cut
 * to cut columns. */
static void legend_items(FILE *f, const struct result *const *rs, size_t n, size_t max, int col,
			 int indent, const char *sep0, const char *sep, int cut, int with_file)
{
	size_t k;

	for (k = 0; k < n && k < max; k++) {
		char lab[320], esc[1024], num[32] = "";
		int w = 0;
		const char *p;

		report_file_label(rs, n, k, lab, sizeof(lab));
		report_esc(esc, sizeof(esc), lab);
		for (p = esc; *p; p++)	/* columns of the name as put_cut prints it */
			if (((unsigned char)*p & 0xc0) != 0x80 && w < cut)
				w++;
		if (with_file)
			snprintf(num, sizeof(num), " (file %zu)", k + 1);
		w += (int)strlen(report_symbol(k)) + 3 + (int)strlen(num);
		if (k && col + (int)strlen(sep) + w > WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else {
			fputs(k ? sep : sep0, f);
			col += (int)strlen(k ? sep : sep0);
		}
		fprintf(f, "%s = ", report_symbol(k));
		put_cut(f, lab, cut, 0);
		fputs(num, f);
		col += w;
	}
}

static int selected(const char *bench, const char *name, const char *const *ids, size_t n_ids,
		    int detail)
{
	char key[512];
	size_t i;

	if (!n_ids)
		return !detail;
	snprintf(key, sizeof(key), "%s%s%s", bench, name[0] ? ":" : "", name);
	for (i = 0; i < n_ids; i++) {
		size_t l = strlen(ids[i]);

		if (strncmp(key, ids[i], l) == 0 && (!detail || strchr(ids[i], ':')))
			return 1;
	}
	return 0;
}

/* A figure of one file, or NULL. */
static const struct metric *find(const struct result *r, const char *bench, const char *name,
				 const struct bench_result **bp)
{
	const struct bench_result *b = result_bench(r, bench);

	if (bp)
		*bp = b;
	if (!b || b->status != ST_OK)
		return NULL;
	return result_metric(b, name);
}

static void size_label(char *dst, size_t n, double x)
{
	static const char suf[] = "BkMGT";
	int i = 0;

	while (x >= 1024 && fmod(x, 1024) == 0 && i < 4)
		x /= 1024, i++;
	snprintf(dst, n, "%.0f%c", x, i ? suf[i] : 'B');
	if (i == 0)	/* "512B" → "512" keeps the axis short */
		dst[strlen(dst) - 1] = 0;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Horizontal bars: one line per file. */
static void hbars(const struct result *const *rs, size_t n, const char *bench, const char *name,
		  FILE *f)
{
	const struct metric *m0 = NULL;
	double max = 0;
	size_t k;
	int labw = 4;

	for (k = 0; k < n; k++) {
		const struct metric *m = find(rs[k], bench, name, NULL);
		char lab[320];

		if (!m)
			continue;
		if (!m0)
			m0 = m;
		if (isfinite(m->st.median) && m->st.median > max)
			max = m->st.median;
		report_file_label(rs, n, k, lab, sizeof(lab));
		if ((int)report_esc_width(lab) > labw)
			labw = (int)report_esc_width(lab);
	}
	if (!m0)
		return;
	if (labw > 16)
		labw = 16;
	put_cut(f, bench, 40, 0);
	if (name[0]) {
		fputc(':', f);
		put_cut(f, name, 30, 0);
	}
	fputs(" (", f);
	put_cut(f, m0->unit, 10, 0);
	fprintf(f, ", %s is better)\n", m0->better == BETTER_HIGHER ? "higher" : "lower");
	for (k = 0; k < n; k++) {
		const struct bench_result *b;
		const struct metric *m = find(rs[k], bench, name, &b);
		char lab[320], num[32], bn[200];
		int len, i, barw = WIDTH - 2 - labw - 2 - 14;

		report_file_label(rs, n, k, lab, sizeof(lab));
		fprintf(f, "%s ", report_symbol(k));
		put_cut(f, lab, labw, labw);
		fputs(" |", f);
		if (!m) {
			fprintf(f, " (%s)\n", b ? status_name(b->status) : "not in this file");
			continue;
		}
		len = max > 0 && isfinite(m->st.median) && m->st.median > 0
			? (int)lround(m->st.median / max * barw) : 0;
		if (len == 0 && m->st.median > 0)
			len = 1;
		for (i = 0; i < len; i++)
			fputs(report_symbol(k), f);
		fmt_num(num, sizeof(num), m->st.median);
		fprintf(f, " %s\n", num);
		if (report_bottleneck(b, m, bn, sizeof(bn)) > 0) {
			fprintf(f, "%*s", labw + 5, "");
			put_cut(f, bn, WIDTH - labw - 6, 0);
			fputc('\n', f);
		}
	}
	fputc('\n', f);
}

/* Under a curve, per file: what limited its points — the share of the
 * memory ceiling (disk.seq's "NAME % of ceiling") and the CPU-bound
 * points (>= 90% CPU) — wrapped at 80 columns. */
static void curve_notes(const struct result *const *rs, size_t n, const char *bench,
			const char *series, const double *xs, size_t nx, FILE *f)
{
	size_t k, i, j, l, pass;
	char s[300], name[320], num[32], lab[16], item[64];
	double v;

	for (k = 0; k < n; k++) {
		const struct bench_result *b = result_bench(rs[k], bench);

		for (pass = 0; pass < 2; pass++) {
			int col = 0;

			for (i = 0; i < nx; i++)
				for (j = 0; b && b->status == ST_OK && j < b->nmetrics; j++) {
					const struct metric *m = &b->metrics[j], *c;

					if (!report_curve_point(m->name, s, sizeof(s), &v) ||
					    strcmp(s, series) || v != xs[i])
						continue;
					size_label(lab, sizeof(lab), xs[i]);
					if (pass == 0) {
						snprintf(name, sizeof(name), "%s %% of ceiling", m->name);
						c = result_metric(b, name);
						if (!c)
							continue;
						fmt_num(num, sizeof(num), c->st.median);
						snprintf(item, sizeof(item), "%s %s%%", lab, num);
					} else {
						if (report_cpu_pct(m) < 90)
							continue;
						snprintf(item, sizeof(item), "%s", lab);
					}
					l = strlen(item);
					if (col == 0) {
						fprintf(f, "  %s %s ", report_symbol(k),
							pass ? "CPU-bound (>= 90% CPU) at" : "of the memory ceiling:");
						col = pass ? 30 : 27;
					} else if (col + 2 + (int)l > WIDTH) {
						fputs(",\n     ", f);
						col = 5;
					} else {
						fputs(", ", f);
						col += 2;
					}
					fputs(item, f);
					col += (int)l;
				}
			if (col)
				fputc('\n', f);
		}
	}
}

/* One curve being drawn: its files, its sizes (xs, ascending, labelled)
 * and the range of its figures. */
struct curve {
	const struct result *const *rs;
	size_t n;
	const char *bench, *series;
	double xs[MAXPTS], max, min;
	size_t nx;
	char lab[MAXPTS][16];
	int lw;			/* the widest label */
	int gw;			/* a size's group of bars: one column per file, one gap */
	int logy;
};

/* File k's figure of the curve at size x (NULL: none). */
static const struct metric *curve_point(const struct curve *c, size_t k, double x)
{
	const struct bench_result *b = result_bench(c->rs[k], c->bench);
	const struct metric *found = NULL;
	char s[300];
	double v;
	size_t j;

	for (j = 0; b && b->status == ST_OK && j < b->nmetrics; j++)
		if (report_curve_point(b->metrics[j].name, s, sizeof(s), &v) && !strcmp(s, c->series) &&
		    v == x)
			found = &b->metrics[j];
	return found;
}

/* The sizes and the range of the curve's figures in every file; its first
 * figure (NULL: none). */
static const struct metric *curve_scan(struct curve *c)
{
	const struct metric *m0 = NULL;
	char s[300];
	double v;
	size_t k, j, i;

	for (k = 0; k < c->n; k++) {
		const struct bench_result *b = result_bench(c->rs[k], c->bench);

		for (j = 0; b && b->status == ST_OK && j < b->nmetrics; j++) {
			const struct metric *m = &b->metrics[j];

			if (!report_curve_point(m->name, s, sizeof(s), &v) || strcmp(s, c->series))
				continue;
			if (!m0)
				m0 = m;
			if (isfinite(m->st.median) && m->st.median > 0) {
				if (m->st.median > c->max)
					c->max = m->st.median;
				if (c->min == 0 || m->st.median < c->min)
					c->min = m->st.median;
			}
			for (i = 0; i < c->nx && c->xs[i] != v; i++)
				;
			if (i == c->nx && c->nx < MAXPTS)
				c->xs[c->nx++] = v;
		}
	}
	return m0;
}

/* Too wide for upright bars: a horizontal group per size. */
static void curve_across(const struct curve *c, FILE *f)
{
	size_t i, k;
	int len, col, barw = WIDTH - 8 - 2 - 14;
	char num[32];

	for (i = 0; i < c->nx; i++)
		for (k = 0; k < c->n; k++) {
			const struct metric *m = curve_point(c, k, c->xs[i]);

			fprintf(f, "%6s %s|", k == 0 ? c->lab[i] : "", report_symbol(k));
			if (!m) {
				fputs(" -\n", f);
				continue;
			}
			len = (int)lround(m->st.median / c->max * barw);
			for (col = 0; col < len; col++)
				fputs(report_symbol(k), f);
			fmt_num(num, sizeof(num), m->st.median);
			fprintf(f, " %s\n", num);
		}
}

/* Upright bars grouped by size, the scale on the left, the sizes below. */
static void curve_upright(const struct curve *c, FILE *f)
{
	int h[MAXPTS][16] = { { 0 } };	/* rows of file k's bar at size i */
	size_t i, k;
	int row;
	char num[32];

	for (i = 0; i < c->nx; i++)
		for (k = 0; k < c->n && k < 16; k++) {
			const struct metric *m = curve_point(c, k, c->xs[i]);
			double y = m ? m->st.median : 0;

			if (!(y > 0))
				continue;
			if (c->logy)
				h[i][k] = 1 + (int)lround(log(y / c->min) / log(c->max / c->min) * (HEIGHT - 1));
			else
				h[i][k] = (int)lround(y / c->max * HEIGHT);
			if (h[i][k] < 1)
				h[i][k] = 1;
		}
	for (row = HEIGHT; row >= 1; row--) {
		double top = c->logy ? c->min * exp(log(c->max / c->min) * (row - 1) / (HEIGHT - 1))
				     : c->max * row / HEIGHT;

		if (row % 2 == 0 || row == 1) {
			fmt_num(num, sizeof(num), top);
			fprintf(f, "%7s |", num);
		} else {
			fprintf(f, "%7s |", "");
		}
		for (i = 0; i < c->nx; i++) {
			for (k = 0; k < c->n && k < 16; k++)
				fputs(h[i][k] >= row ? report_symbol(k) : " ", f);
			if (i + 1 < c->nx)
				fputc(' ', f);
		}
		fputc('\n', f);
	}
	fprintf(f, "%7s +", "");
	for (i = 0; i + 1 < c->nx * (size_t)c->gw; i++)
		fputc('-', f);
	fputc('\n', f);
	/* size labels: across when they fit the group, else stacked digit
	 * over digit as in the 2003 chart */
	for (row = 0; row < (c->lw <= c->gw - 1 ? 1 : c->lw); row++) {
		fprintf(f, "%7s  ", "");
		for (i = 0; i < c->nx; i++) {
			if (c->lw <= c->gw - 1)
				fprintf(f, "%-*s", c->gw, c->lab[i]);
			else
				fprintf(f, "%c%*s", row < (int)strlen(c->lab[i]) ? c->lab[i][row] : ' ',
					c->gw - 1, "");
		}
		fputc('\n', f);
	}
	fprintf(f, "%7s  size", "");
	legend_items(f, c->rs, c->n, 16, 13, 9, "; ", ", ", 12, 0);
	fputs("\n", f);
}

/* A curve: vertical bars grouped by size, or horizontal groups when the
 * vertical chart would not fit. Returns 1 when drawn. */
static int curve(const struct result *const *rs, size_t n, const char *bench, const char *series,
		 FILE *f)
{
	static struct curve c;
	const struct metric *m0;
	size_t i;
	char s[300];
	double v;

	memset(&c, 0, sizeof(c));
	c.rs = rs;
	c.n = n;
	c.bench = bench;
	c.series = series;
	c.gw = (int)n + 1;
	m0 = curve_scan(&c);
	if (!m0 || c.nx < 2 || c.max <= 0)
		return 0;
	qsort(c.xs, c.nx, sizeof(c.xs[0]), cmp_dbl);
	for (i = 0; i < c.nx; i++) {
		size_label(c.lab[i], sizeof(c.lab[i]), c.xs[i]);
		if ((int)strlen(c.lab[i]) > c.lw)
			c.lw = (int)strlen(c.lab[i]);
	}
	c.logy = c.max / c.min > 50;
	put_cut(f, bench, 40, 0);
	fputc(':', f);
	put_cut(f, series, 30, 0);
	fputs(report_curve_point(m0->name, s, sizeof(s), &v) == 2 ? " by count (" : " by size (", f);
	put_cut(f, m0->unit, 10, 0);
	fprintf(f, "%s, %s is better)\n", c.logy ? ", log scale" : "",
		m0->better == BETTER_HIGHER ? "higher" : "lower");
	if (9 + (int)c.nx * c.gw > WIDTH || n > 16)
		curve_across(&c, f);
	else
		curve_upright(&c, f);
	curve_notes(rs, n, bench, series, c.xs, c.nx, f);
	fputc('\n', f);
	return 1;
}

int report_chart(const struct result *const *rs, size_t n, const char *const *ids, size_t n_ids,
		 FILE *f)
{
	size_t k, i, j, c, seen;
	int drawn = 0;
	char series[300];
	double x;

	fputs("legend:", f);
	legend_items(f, rs, n, n, 7, 7, " ", ",  ", 20, 1);
	fputs("\n\n", f);
	/* Every benchmark of every file, in first-seen order. */
	for (k = 0; k < n; k++) {
		for (i = 0; i < rs[k]->nbenches; i++) {
			const struct bench_result *b = &rs[k]->benches[i];

			for (c = 0, seen = 0; c < k && !seen; c++)
				seen = result_bench(rs[c], b->id) != NULL;
			if (seen)
				continue;
			/* curves first: each series once */
			for (j = 0; j < b->nmetrics; j++) {
				const struct metric *m = &b->metrics[j];
				size_t q;
				int dup = 0;

				if (!report_curve_point(m->name, series, sizeof(series), &x))
					continue;
				for (q = 0; q < j && !dup; q++) {
					char s2[300];

					dup = report_curve_point(b->metrics[q].name, s2, sizeof(s2), &x) &&
					      strcmp(s2, series) == 0;
				}
				if (dup || !selected(b->id, series, ids, n_ids, 0))
					continue;
				drawn += curve(rs, n, b->id, series, f);
			}
			for (j = 0; j < b->nmetrics; j++) {
				const struct metric *m = &b->metrics[j];

				if (report_curve_point(m->name, series, sizeof(series), &x))
					continue;
				if (strstr(m->name, "% of ceiling"))	/* in the bottleneck notes */
					continue;
				if (!selected(b->id, m->name, ids, n_ids, m->detail))
					continue;
				hbars(rs, n, b->id, m->name, f);
				drawn++;
			}
		}
	}
	return drawn;
}
