/* html.c — --format html: one self-contained page for one or more result
 * files. Inline CSS and inline SVG only: no script, no font, no image, no
 * link to anything (the page works offline and makes no request), and a
 * Content-Security-Policy that forbids any fetch besides. It holds
 * the host facts and the guard's findings of each file, one table per
 * benchmark with the files side by side (colored best green to worst red,
 * as bonnie++'s bon_csv2html does), and SVG charts: bars per figure across
 * files, the curves by size (disk.seq's block sizes, mem.lat's sizes on
 * log axes) and the per-interval series of long runs.
 *
 * SVG elements carry classes the tests count: rect.bar (one per file per
 * figure), circle.pt (one per curve point or interval per file). Strings
 * from the files go through report_html_esc. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "units.h"

#define PALETTE_N 8
static const char *const palette[PALETTE_N] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
};

static void num(FILE *f, double v)
{
	char b[32];

	fmt_num(b, sizeof(b), v);
	fputs(b, f);
}

static const struct metric *fig(const struct result *r, const char *bench, const char *name)
{
	const struct bench_result *b = result_bench(r, bench);

	if (!b || b->status != ST_OK)
		return NULL;
	return result_metric(b, name);
}

static int first_seen(const struct result *const *rs, size_t k, const char *bench)
{
	size_t c;

	for (c = 0; c < k; c++)
		if (result_bench(rs[c], bench))
			return 0;
	return 1;
}

/* The figures of benchmark id in the ok files from *q on, one per call:
 * start with *q at the first file and *j = NO_FIG; each call moves to the
 * next figure (file *q, its benchmark *qb, figure index *j) and returns 1,
 * or 0 after the last. */
#define NO_FIG ((size_t)-1)
static int next_fig(const struct result *const *rs, size_t n, const char *id, size_t *q, size_t *j,
		    const struct bench_result **qb)
{
	for (++*j; *q < n; ++*q, *j = 0) {
		*qb = result_bench(rs[*q], id);
		if (*qb && (*qb)->status == ST_OK && *j < (*qb)->nmetrics)
			return 1;
	}
	return 0;
}

/* Whether file q is the first (ok) file holding figure name of bench, so
 * that a figure only some files have still gets its row and chart once. */
static int first_fig(const struct result *const *rs, size_t q, const char *bench, const char *name)
{
	size_t c;

	for (c = 0; c < q; c++)
		if (fig(rs[c], bench, name))
			return 0;
	return 1;
}

/* The same for a curve's series. */
static int first_series(const struct result *const *rs, size_t q, size_t j, const char *bench,
			const char *series)
{
	size_t c, i;
	char s[300];
	double x;

	for (c = 0; c <= q; c++) {
		const struct bench_result *b = result_bench(rs[c], bench);

		for (i = 0; b && b->status == ST_OK && i < (c == q ? j : b->nmetrics); i++)
			if (report_curve_point(b->metrics[i].name, s, sizeof(s), &x) && !strcmp(s, series))
				return 0;
	}
	return 1;
}

static void hosts(const struct result *const *rs, size_t n, FILE *f)
{
	size_t k, i;

	fputs("<section><h2>Hosts</h2>\n<div class=\"hosts\">\n", f);
	for (k = 0; k < n; k++) {
		const struct result *r = rs[k];
		const struct sysinfo *h = &r->host;
		char mem[32], lab[320];

		fmt_size(mem, sizeof(mem), h->mem_total);
		report_file_label(rs, n, k, lab, sizeof(lab));
		fprintf(f, "<div class=\"host\"><h3><span class=\"key\" style=\"background:%s\"></span>",
			palette[k % PALETTE_N]);
		report_html_esc(f, lab);
		fprintf(f, " <small>(file %zu)</small></h3>\n<dl>", k + 1);
		fputs("<dt>OS</dt><dd>", f);
		report_html_esc(f, h->os);
		fputs(", ", f);
		report_html_esc(f, h->kernel);
		fputs("</dd><dt>CPU</dt><dd>", f);
		report_html_esc(f, h->cpu_model);
		fprintf(f, ", %d cores / %d threads", h->cores, h->threads);
		if (h->cpu_mhz > 0)
			fprintf(f, ", %.0f MHz", h->cpu_mhz);
		fprintf(f, "</dd><dt>Memory</dt><dd>%s</dd><dt>Virtualization</dt><dd>", mem);
		report_html_esc(f, h->virt[0] ? h->virt : "unknown");
		fputs("</dd><dt>Run</dt><dd>", f);
		report_html_esc(f, r->start_utc ? r->start_utc : "?");
		fputs(", profile ", f);
		report_html_esc(f, r->profile ? r->profile : "?");
		fprintf(f, ", %.1f s%s%s</dd><dt>bakeoff</dt><dd>", r->duration_s,
			r->interrupted ? ", <b>interrupted</b>" : "",
			r->incomplete ? ", <b>incomplete</b>" : "");
		report_html_esc(f, h->version);
		for (size_t i = 0; i < r->nlabels; i++) {
			fputs(i ? ", " : "</dd><dt>Labels</dt><dd>", f);
			report_html_esc(f, r->labels[i]);
		}
		fputs("</dd><dt>Guard</dt><dd>", f);
		fprintf(f, "<span class=\"%s\">", strcmp(r->guard.verdict, "valid") ? "warn" : "okv");
		report_html_esc(f, r->guard.verdict);
		fputs("</span>", f);
		if (r->guard.nfindings) {	/* grouped here; each one after the figures */
			static char lines[64][REPORT_GUARD_LINE];
			size_t nl = report_guard_summary(r, lines, 64);

			if (report_guard_grouped(r))
				fprintf(f, " <small>(%zu findings, grouped; each one after the "
					"figures)</small>", r->guard.nfindings);
			fputs("<ul>", f);
			for (i = 0; i < nl; i++) {
				fputs("<li>", f);
				report_html_esc(f, lines[i]);
				fputs("</li>", f);
			}
			fputs("</ul>", f);
		}
		fputs("</dd></dl></div>\n", f);
	}
	fputs("</div></section>\n", f);
}

/* After the figures: every guard finding of the files whose first screen
 * showed them grouped. */
static void guard_all(const struct result *const *rs, size_t n, FILE *f)
{
	size_t k, i;
	int any = 0;

	for (k = 0; k < n; k++) {
		const struct result *r = rs[k];
		char lab[320];

		if (!report_guard_grouped(r))
			continue;
		if (!any++)
			fputs("<section><h2>Guard findings</h2>\n", f);
		report_file_label(rs, n, k, lab, sizeof(lab));
		fputs("<h3>", f);
		report_html_esc(f, lab);
		fprintf(f, ": all %zu</h3>\n<ul>", r->guard.nfindings);
		for (i = 0; i < r->guard.nfindings; i++) {
			fputs("<li>", f);
			report_html_esc(f, r->guard.findings[i]);
			fputs("</li>", f);
		}
		fputs("</ul>\n", f);
	}
	if (any)
		fputs("</section>\n", f);
}

/* Background of a cell: rank among the files' medians, best green (hue
 * 120) to worst red (hue 0), as bon_csv2html colors its table. */
static void cell_color(const struct result *const *rs, size_t n, const char *bench,
		       const struct metric *m, FILE *f)
{
	double lo = 0, hi = 0;
	size_t k, cnt = 0;

	for (k = 0; k < n; k++) {
		const struct metric *o = fig(rs[k], bench, m->name);

		if (!o || !isfinite(o->st.median))
			continue;
		if (!cnt++ || o->st.median < lo)
			lo = o->st.median;
		if (cnt == 1 || o->st.median > hi)
			hi = o->st.median;
	}
	if (cnt >= 2)
		report_html_rank_style(f, m->st.median, lo, hi, m->better);
}

static void tables(const struct result *const *rs, size_t n, FILE *f)
{
	size_t k, i, j, c, q;

	fputs("<section><h2>Results</h2>\n<p class=\"hint\">Median of each figure; below it the "
	      "95% confidence interval of the median. With several files, cells run from green "
	      "(best) to red (worst). Curve points are in the charts.</p>\n", f);
	for (k = 0; k < n; k++)
		for (i = 0; i < rs[k]->nbenches; i++) {
			const struct bench_result *b = &rs[k]->benches[i];

			if (!first_seen(rs, k, b->id))
				continue;
			fputs("<div class=\"tw\"><table><caption>", f);
			report_html_esc(f, b->id);
			fputs(" &mdash; ", f);
			report_html_esc(f, b->title);
			fputs("</caption><thead><tr><th>figure</th><th>unit</th>", f);
			for (c = 0; c < n; c++) {
				char lab[320];

				report_file_label(rs, n, c, lab, sizeof(lab));
				fputs("<th>", f);
				report_html_esc(f, lab);
				fputs("</th>", f);
			}
			fputs("</tr></thead><tbody>\n", f);
			/* a row per figure of the first file that ran it, else its status */
			{
				const struct bench_result *rb = NULL, *qb;

				for (c = k; c < n && !rb; c++) {
					const struct bench_result *o = result_bench(rs[c], b->id);

					if (o && o->status == ST_OK && o->nmetrics)
						rb = o;
				}
				if (!rb) {
					fputs("<tr><td>&mdash;</td><td></td>", f);
					for (c = 0; c < n; c++) {
						const struct bench_result *o = result_bench(rs[c], b->id);

						fputs("<td class=\"st\">", f);
						if (o) {
							fputs(status_name(o->status), f);
							if (o->reason) {
								fputs(": ", f);
								report_html_esc(f, o->reason);
							}
						}
						fputs("</td>", f);
					}
					fputs("</tr>\n", f);
				}
				for (q = k, j = NO_FIG; rb && next_fig(rs, n, b->id, &q, &j, &qb);) {
					const struct metric *m = &qb->metrics[j];
					char s[300];
					double x;

					if (m->detail || report_curve_point(m->name, s, sizeof(s), &x) ||
					    !first_fig(rs, q, b->id, m->name))
						continue;
					fputs("<tr><td>", f);
					report_html_esc(f, m->name[0] ? m->name : "(main)");
					fputs("</td><td>", f);
					report_html_esc(f, m->unit);
					fputs("</td>", f);
					for (c = 0; c < n; c++) {
						const struct bench_result *ob = result_bench(rs[c], b->id);
						const struct metric *o = fig(rs[c], b->id, m->name);
						char bn[256];

						if (!o) {
							fprintf(f, "<td class=\"st\">%s</td>",
								ob && ob->status != ST_OK ? status_name(ob->status) : "&mdash;");
							continue;
						}
						fputs("<td", f);
						cell_color(rs, n, b->id, o, f);
						fputs("><b>", f);
						num(f, o->st.median);
						fputs("</b>", f);
						if (!o->derived && o->st.n >= 2) {
							fputs("<br><small>", f);
							num(f, o->st.ci_lo);
							fputs(" &ndash; ", f);
							num(f, o->st.ci_hi);
							fprintf(f, ", n %zu</small>", o->st.n);
						}
						if (report_bottleneck(ob, o, bn, sizeof(bn)) > 0) {
							fputs("<br><small class=\"bn\">", f);
							report_html_esc(f, bn);
							fputs("</small>", f);
						}
						if (o->note) {
							fputs("<br><small class=\"note\">", f);
							report_html_esc(f, o->note);
							fputs("</small>", f);
						}
						fputs("</td>", f);
					}
					fputs("</tr>\n", f);
				}
			}
			fputs("</tbody></table></div>\n", f);
		}
	fputs("</section>\n", f);
}

/* A chart's figure and the start of its caption: "BENCH[:NAME]WHAT(UNIT",
 * escaped; the caller closes the caption. */
static void caption(FILE *f, const char *bench, const char *name, const char *what,
		    const char *unit)
{
	fputs("<figure><figcaption>", f);
	report_html_esc(f, bench);
	if (name[0]) {
		fputc(':', f);
		report_html_esc(f, name);
	}
	fputs(what, f);
	report_html_esc(f, unit);
}

/* Lines and points: xs/ys of each file, on linear or log axes. */
struct series;
static void svg_lines(size_t n, const struct series *sv, int logx, int logy, const char *xunit,
		      const char *yunit, FILE *f);

/* One file: a figure's samples in the order they were taken (its spread,
 * and any drift or warm-up, at a glance), beside its median. */
static void svg_samples(const char *bench, const struct metric *m, FILE *f);

/* A figure drawn in the benchmark's group chart: a main figure, not a
 * curve point, not an intermediate one, not disk.seq's share of a ceiling. */
static int grouped(const struct metric *m)
{
	char s[300];
	double x;

	return !m->detail && !report_curve_point(m->name, s, sizeof(s), &x) && !strstr(m->name, "% of ceiling");
}

/* Several files: one chart per benchmark, its figures in groups of one
 * bar per file, each bar the file's median over the first file's (the
 * baseline, 1.0 marked). */
static void svg_group(const struct result *const *rs, size_t n, const char *bench, FILE *f)
{
	const double L = 130, W = 300, R = 110, BH = 12, GAP = 10;
	size_t j, k, q, rows = 0, groups = 0;
	double max = 1.2, y = 4;
	enum better better = BETTER_HIGHER;
	int pass;

	/* pass 0 measures, pass 1 draws; each figure once, in the order the
	 * files first have it, its baseline the first file with a median */
	for (pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			if (!groups)
				return;
			if (max > 20)
				max = 20;	/* beyond, the bar is cut; its label says how far */
			fputs("<figure><figcaption>", f);
			report_html_esc(f, bench);
			fprintf(f, " relative to the first file (1.0 = its median; %s is better)</figcaption>\n"
				"<svg class=\"bars\" viewBox=\"0 0 %.0f %.0f\" role=\"img\">",
				better == BETTER_HIGHER ? "longer" : "shorter", L + W + R,
				rows * BH + groups * GAP + 8);
		}
		for (q = 0; q < n; q++) {
			const struct bench_result *b = result_bench(rs[q], bench);

			for (j = 0; b && b->status == ST_OK && j < b->nmetrics; j++) {
				const struct metric *m0 = &b->metrics[j], *base = NULL;

				if (!grouped(m0) || !first_fig(rs, q, bench, m0->name))
					continue;
				for (k = 0; k < n && !base; k++)
					if ((base = fig(rs[k], bench, m0->name)) && !(base->st.median > 0))
						base = NULL;
				if (pass == 0) {
					groups++;
					if (groups == 1)
						better = m0->better;
				} else {
					fprintf(f, "<text x=\"0\" y=\"%.1f\">", y + BH - 2);
					report_html_esc(f, m0->name[0] ? m0->name : "(main)");
					fputs("</text>", f);
				}
				for (k = 0; k < n; k++) {
					const struct metric *m = fig(rs[k], bench, m0->name);
					double ratio, w;
					char lab[320];

					if (!m)
						continue;
					ratio = base && isfinite(m->st.median) ? m->st.median / base->st.median : NAN;
					if (pass == 0) {
						rows++;
						if (ratio > max)
							max = ratio;
						continue;
					}
					w = isfinite(ratio) && ratio > 0 ? fmin(ratio, max) / max * W : 0;
					report_file_label(rs, n, k, lab, sizeof(lab));
					fprintf(f, "<rect class=\"bar\" x=\"%.0f\" y=\"%.1f\" width=\"%.1f\" "
						"height=\"%.0f\" fill=\"%s\"><title>", L, y, w, BH - 2,
						palette[k % PALETTE_N]);
					report_html_esc(f, lab);
					fputs(": ", f);
					num(f, m->st.median);
					fputc(' ', f);
					report_html_esc(f, m->unit);
					fprintf(f, "</title></rect><text class=\"tick\" x=\"%.1f\" y=\"%.1f\">",
						L + w + 3, y + BH - 3);
					num(f, m->st.median);
					if (isfinite(ratio))
						fprintf(f, " (%.2fx)", ratio);
					fputs("</text>", f);
					y += BH;
				}
				if (pass == 1)
					y += GAP;
			}
		}
	}
	fprintf(f, "<path class=\"axis\" d=\"M%.0f 2V%.1f\"/><path class=\"axis\" stroke-dasharray=\"3 2\" "
		"d=\"M%.1f 2V%.1f\"/>", L, y, L + W / max, y);
	fputs("</svg></figure>\n", f);
}

struct series {
	double *x, *y;
	size_t n;
};

static double ax(double v, double lo, double hi, int lg, double len)
{
	if (lg)
		return hi > lo ? (log(v) - log(lo)) / (log(hi) - log(lo)) * len : 0;
	return hi > lo ? (v - lo) / (hi - lo) * len : 0;
}

static void svg_lines(size_t n, const struct series *sv,
		      int logx, int logy, const char *xunit, const char *yunit, FILE *f)
{
	double xlo = 0, xhi = 0, ylo = 0, yhi = 0, last = 0;
	size_t k, i, cnt = 0;
	const double W = 440, H = 200, L = 56, B = 24, T = 20, R = 24;
	int t;

	for (k = 0; k < n; k++)
		for (i = 0; i < sv[k].n; i++) {
			double x = sv[k].x[i], y = sv[k].y[i];

			if (!cnt++)
				xlo = xhi = x, ylo = yhi = y;
			xlo = fmin(xlo, x), xhi = fmax(xhi, x);
			ylo = fmin(ylo, y), yhi = fmax(yhi, y);
		}
	if (!cnt)
		return;
	if (logx && !(xlo > 0))	/* a log axis holds no 0: linear then */
		logx = 0;
	if (logy && !(ylo > 0))
		logy = 0;
	if (!logy)
		ylo = fmin(ylo, 0);
	if (yhi <= ylo)
		yhi = ylo + 1;
	if (xhi <= xlo)		/* one x value: centred */
		xlo -= 1, xhi += 1;
	fprintf(f, "<svg class=\"curve\" viewBox=\"0 0 %.0f %.0f\" role=\"img\">", L + W + R, T + H + B);
	fprintf(f, "<path class=\"axis\" d=\"M%.0f %.0fV%.0fH%.0f\"/>", L, T, T + H, L + W);
	for (t = 0; t <= 4; t++) {	/* y ticks */
		double v = logy ? exp(log(ylo) + (log(yhi) - log(ylo)) * t / 4) : ylo + (yhi - ylo) * t / 4;

		fprintf(f, "<text class=\"tick\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">", L - 4,
			T + H - H * t / 4 + 4);
		num(f, v);
		fputs("</text>", f);
	}
	for (t = 0; t <= 4; t++) {	/* x ticks */
		double v = logx ? exp(log(xlo) + (log(xhi) - log(xlo)) * t / 4) : xlo + (xhi - xlo) * t / 4;
		char b[32];

		/* samples and counts are whole: the tick at a whole one, once */
		if (xunit && (!strcmp(xunit, "count") || !strcmp(xunit, "sample"))) {
			v = round(v);
			if (t > 0 && v == last)
				continue;
			last = v;
		}

		if (xunit && strcmp(xunit, "bytes") == 0)
			fmt_size(b, sizeof(b), (uint64_t)llround(v));
		else if (xunit && (!strcmp(xunit, "count") || !strcmp(xunit, "sample")))
			snprintf(b, sizeof(b), "%.0f", v);
		else
			fmt_num(b, sizeof(b), v);
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%s</text>",
			L + ax(v, xlo, xhi, logx, W), T + H + 16, b);
	}
	fprintf(f, "<text class=\"tick\" x=\"2\" y=\"%.0f\">", T - 8);
	report_html_esc(f, yunit);
	fputs(logy ? " (log)" : "", f);
	fputs("</text>", f);
	for (k = 0; k < n; k++) {
		if (!sv[k].n)
			continue;
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" points=\"", palette[k % PALETTE_N]);
		for (i = 0; i < sv[k].n; i++)
			fprintf(f, "%s%.1f,%.1f", i ? " " : "",
				L + ax(sv[k].x[i], xlo, xhi, logx, W),
				T + H - ax(sv[k].y[i], ylo, yhi, logy, H));
		fputs("\"/>", f);
		for (i = 0; i < sv[k].n; i++) {
			fprintf(f, "<circle class=\"pt\" r=\"2.5\" cx=\"%.1f\" cy=\"%.1f\" fill=\"%s\"><title>",
				L + ax(sv[k].x[i], xlo, xhi, logx, W),
				T + H - ax(sv[k].y[i], ylo, yhi, logy, H), palette[k % PALETTE_N]);
			num(f, sv[k].x[i]);
			fputs(": ", f);
			num(f, sv[k].y[i]);
			fputs("</title></circle>", f);
		}
	}
	fputs("</svg>", f);
}

static void svg_samples(const char *bench, const struct metric *m, FILE *f)
{
	struct series sv;
	char med[32];
	size_t i;

	if (m->nsamples < 3 || m->derived)
		return;
	sv.x = calloc(m->nsamples, sizeof(double));
	sv.y = calloc(m->nsamples, sizeof(double));
	sv.n = 0;
	for (i = 0; sv.x && sv.y && i < m->nsamples; i++)
		if (isfinite(m->samples[i])) {
			sv.x[sv.n] = (double)(i + 1);
			sv.y[sv.n++] = m->samples[i];
		}
	if (sv.n >= 3) {
		fmt_num(med, sizeof(med), m->st.median);
		caption(f, bench, m->name, ": its samples in order (", m->unit);
		fprintf(f, "; median %s, CV %.1f%%, %s is better)</figcaption>", med, m->st.cv * 100,
			m->better == BETTER_HIGHER ? "higher" : "lower");
		svg_lines(1, &sv, 0, 0, "sample", m->unit, f);
		fputs("</figure>\n", f);
	}
	free(sv.x);
	free(sv.y);
}

static void legend(const struct result *const *rs, size_t n, const struct series *sv, FILE *f)
{
	size_t k;

	fputs("<p class=\"legend\">", f);
	for (k = 0; k < n; k++) {
		char lab[320];

		if (!sv[k].n)
			continue;
		report_file_label(rs, n, k, lab, sizeof(lab));
		fprintf(f, "<span class=\"key\" style=\"background:%s\"></span>", palette[k % PALETTE_N]);
		report_html_esc(f, lab);
		fputs(" ", f);
	}
	fputs("</p>", f);
}

static void free_series(struct series *sv, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		free(sv[k].x), free(sv[k].y), sv[k].x = sv[k].y = NULL, sv[k].n = 0;
}

/* One curve (bench, series) across files: points sorted by size. */
static void curve(const struct result *const *rs, size_t n, const char *bench, const char *series,
		  struct series *sv, FILE *f)
{
	size_t k, j, total = 0, a, c;
	const struct metric *m0 = NULL;
	int logy, logx, kind = 1;
	double ymin = 0, ymax = 0, xmin = 0;

	for (k = 0; k < n; k++) {
		const struct bench_result *b = result_bench(rs[k], bench);
		char s[300];
		double x;

		sv[k].n = 0;
		if (!b || b->status != ST_OK)
			continue;
		sv[k].x = calloc(b->nmetrics + 1, sizeof(double));
		sv[k].y = calloc(b->nmetrics + 1, sizeof(double));
		if (!sv[k].x || !sv[k].y)
			continue;
		for (j = 0; j < b->nmetrics; j++) {
			const struct metric *m = &b->metrics[j];

			int pk = report_curve_point(m->name, s, sizeof(s), &x);

			if (!pk || strcmp(s, series) || !(m->st.median > 0) || !isfinite(m->st.median))
				continue;
			if (!m0)
				m0 = m, kind = pk, xmin = x;
			xmin = fmin(xmin, x);
			/* insertion by size */
			for (a = sv[k].n; a > 0 && sv[k].x[a - 1] > x; a--)
				sv[k].x[a] = sv[k].x[a - 1], sv[k].y[a] = sv[k].y[a - 1];
			sv[k].x[a] = x, sv[k].y[a] = m->st.median;
			sv[k].n++;
			if (!total++ || m->st.median < ymin)
				ymin = m->st.median;
			if (total == 1 || m->st.median > ymax)
				ymax = m->st.median;
		}
	}
	for (c = 0, k = 0; k < n; k++)
		c = sv[k].n > c ? sv[k].n : c;
	if (m0 && c >= 2) {
		/* latency by size spans the caches: log-log, as lmbench's plots */
		logy = strcmp(bench, "mem.lat") == 0 || (ymin > 0 && ymax / ymin > 50);
		logx = xmin > 0;	/* proc.ctxsw's working sets start at 0 */
		caption(f, bench, series, kind == 2 ? " by count (" : " by size (", m0->unit);
		fprintf(f, "%s, %s is better)</figcaption>",
			logy && logx ? ", log axes" : logx ? ", log x axis" : logy ? ", log y axis" : "",
			m0->better == BETTER_HIGHER ? "higher" : "lower");
		svg_lines(n, sv, logx, logy, kind == 2 ? "count" : "bytes", m0->unit, f);
		legend(rs, n, sv, f);
		fputs("</figure>\n", f);
	}
	free_series(sv, n);
}

/* A latency-under-load sweep (mem.loaded) across files: latency over the
 * loaders' bandwidth, as MLC's loaded-latency curves are drawn. */
static void load_curve(const struct result *const *rs, size_t n, const char *bench, struct series *sv,
		       FILE *f)
{
	struct load_point pt[64];
	size_t k, c = 0;

	for (k = 0; k < n; k++) {
		const struct bench_result *b = result_bench(rs[k], bench);
		int np = b && b->status == ST_OK ? report_load_points(b, pt, 64) : 0;

		sv[k].n = 0;
		if (np < 2 || !(sv[k].x = calloc((size_t)np, sizeof(double))) ||
		    !(sv[k].y = calloc((size_t)np, sizeof(double))))
			continue;
		for (int i = 0; i < np; i++)
			sv[k].x[i] = pt[i].bw, sv[k].y[i] = pt[i].lat;
		sv[k].n = (size_t)np;
		c++;
	}
	if (c) {
		caption(f, bench, "", " latency over the loaders' bandwidth (", "ns");
		fputs(" over MB/s, lower is better)</figcaption>", f);
		svg_lines(n, sv, 0, 0, "MB/s", "ns", f);
		legend(rs, n, sv, f);
		fputs("</figure>\n", f);
	}
	free_series(sv, n);
}

/* The per-interval figures of a long run, across files: over seconds, or
 * (by_bytes, a bandwidth) over the bytes moved so far, where a drive's
 * write cache running out shows at the amount it holds. */
static void intervals(const struct result *const *rs, size_t n, const char *bench,
		      const struct metric *m0, struct series *sv, int by_bytes, FILE *f)
{
	size_t k, i, c = 0;
	double sum;

	for (k = 0; k < n; k++) {
		const struct metric *m = fig(rs[k], bench, m0->name);

		sv[k].n = 0;
		if (!m || m->niv < 3)
			continue;
		sv[k].x = calloc(m->niv, sizeof(double));
		sv[k].y = calloc(m->niv, sizeof(double));
		if (!sv[k].x || !sv[k].y)
			continue;
		for (i = 0, sum = 0; i < m->niv; i++) {
			if (by_bytes && m->iv_amount)
				sum += m->iv_amount[i] / 1e6;
			if (isfinite(m->iv_t[i]) && isfinite(m->iv_value[i]) && isfinite(sum)) {
				sv[k].x[sv[k].n] = by_bytes ? sum : m->iv_t[i];
				sv[k].y[sv[k].n++] = m->iv_value[i];
			}
		}
		c += sv[k].n;
	}
	if (c) {
		caption(f, bench, m0->name, " per interval (", m0->unit);
		fputs(by_bytes ? " over MB moved)</figcaption>" : " over seconds)</figcaption>", f);
		svg_lines(n, sv, 0, 0, by_bytes ? "MB" : "s", m0->unit, f);
		legend(rs, n, sv, f);
		fputs("</figure>\n", f);
	}
	free_series(sv, n);
}

static void charts(const struct result *const *rs, size_t n, FILE *f)
{
	struct series *sv = calloc(n, sizeof(*sv));
	size_t k, i, j, q;

	if (!sv)
		return;
	fputs("<section><h2>Charts</h2>\n<div class=\"charts\">\n", f);
	for (k = 0; k < n; k++)
		for (i = 0; i < rs[k]->nbenches; i++) {
			const struct bench_result *b = &rs[k]->benches[i];
			const struct bench_result *rb = NULL, *qb;

			if (!first_seen(rs, k, b->id))
				continue;
			for (q = k; q < n && !rb; q++) {
				const struct bench_result *o = result_bench(rs[q], b->id);

				if (o && o->status == ST_OK && o->nmetrics)
					rb = o;
			}
			for (q = k, j = NO_FIG; rb && next_fig(rs, n, b->id, &q, &j, &qb);) {
				const struct metric *m = &qb->metrics[j];
				char s[300];
				double x;

				if (report_curve_point(m->name, s, sizeof(s), &x)) {
					if (first_series(rs, q, j, qb->id, s))
						curve(rs, n, qb->id, s, sv, f);
					continue;
				}
				if (n == 1 && grouped(m))	/* one file: each main figure's samples */
					svg_samples(qb->id, m, f);
			}
			if (n > 1 && rb)
				svg_group(rs, n, b->id, f);
			if (rb && result_metric(rb, "peak") && result_metric(rb, "idle"))
				load_curve(rs, n, b->id, sv, f);
			/* interval series of the main figures (and of the curve
			 * points, whose detail flag is off, such as disk.seq's rates) */
			for (q = k, j = NO_FIG; rb && next_fig(rs, n, b->id, &q, &j, &qb);)
				if (!qb->metrics[j].detail && qb->metrics[j].niv >= 3 &&
				    first_fig(rs, q, qb->id, qb->metrics[j].name)) {
					intervals(rs, n, qb->id, &qb->metrics[j], sv, 0, f);
					/* a disk's writes: also over the bytes written */
					if (qb->metrics[j].iv_amount && !strcmp(qb->metrics[j].unit, "MB/s") &&
					    !strncmp(qb->id, "disk.", 5) && strstr(qb->metrics[j].name, "write"))
						intervals(rs, n, qb->id, &qb->metrics[j], sv, 1, f);
				}
		}
	fputs("</div></section>\n", f);
	free(sv);
}

/* Figures between pairs of CPUs (cpu.c2c) as heat maps, one per file. */
static void matrices(const struct result *const *rs, size_t n, FILE *f)
{
	char label[300];

	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < rs[k]->nbenches; i++) {
			const struct bench_result *b = &rs[k]->benches[i];

			if (b->status != ST_OK)
				continue;
			report_file_label(rs, n, k, label, sizeof(label));
			report_pair_matrix_html(b, label, f);
		}
}

static const char css[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:72em;padding:0 .8em;color:#222}"
	"h1{font-size:1.4em}h2{font-size:1.2em;border-bottom:1px solid #ccc}h3{font-size:1em;margin:.4em 0}"
	".hosts{display:grid;grid-template-columns:repeat(auto-fit,minmax(20em,1fr));gap:0 1.2em}.host{margin:0 0 1em}"
	"dl{margin:0;display:grid;grid-template-columns:max-content 1fr;gap:0 .6em}dt{font-weight:bold}dd{margin:0}"
	".warn{color:#a40;font-weight:bold}.okv{color:#070;font-weight:bold}"
	".tw{overflow-x:auto;margin-bottom:1em}table{border-collapse:collapse}caption{text-align:left;font-weight:bold;padding:.2em 0}"
	"td,th{border:1px solid #bbb;padding:.2em .5em;text-align:right;vertical-align:top}"
	"td:first-child,td:nth-child(2),th{text-align:left}small{color:#444}.bn{color:#036}.note{color:#a40}.st{color:#777}"
	".charts{display:flex;flex-wrap:wrap;gap:1em}figure{margin:0;flex:1 1 24em;max-width:36em;break-inside:avoid}"
	"figcaption{font-weight:bold;font-size:.9em}svg{width:100%;height:auto;font-size:11px}"
	".axis{stroke:#444;fill:none}.tick{fill:#444;font-size:10px}"
	".key{display:inline-block;width:.8em;height:.8em;margin-right:.3em}"
	".legend{margin:.2em 0;font-size:.85em}.hint{color:#555;font-size:.9em}"
	/* compare: verdict cells and the warnings */
	"td.v{text-align:left;font-weight:bold;white-space:nowrap}.faster{background:#bfe6bf}"
	".slower{background:#f4bcbc}td.within{background:#eee;font-weight:normal}.bimodal{background:#f9dca8}"
	"ul.fair li{color:#a40}.files li{margin:.1em 0}td.ci{white-space:nowrap}"
	"@media print{body{max-width:none;font-size:10pt}.tw{overflow:visible}"
	"td,.key{-webkit-print-color-adjust:exact;print-color-adjust:exact}a{color:inherit}}";

void report_html(const struct result *const *rs, size_t n, const char *title,
		 report_html_section extra, void *ctx, FILE *f)
{
	size_t k;

	if (!title)
		title = "bakeoff report";
	/* The policy forbids every fetch (only the inline style may apply):
	 * should a string from a file ever slip past the escaping, the page
	 * still loads nothing and runs nothing. */
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'\">"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
	      "<title>", f);
	report_html_esc(f, title);
	for (k = 0; k < n && k < 4; k++) {
		fputs(k ? ", " : ": ", f);
		report_html_esc(f, rs[k]->host.hostname);
	}
	fprintf(f, "</title>\n<style>%s</style></head>\n<body>\n<h1>", css);
	report_html_esc(f, title);
	fprintf(f, ": %zu file%s</h1>\n", n, n == 1 ? "" : "s");
	if (extra)	/* compare's verdicts first (compare-html.c) */
		extra(rs, n, f, ctx);
	hosts(rs, n, f);
	tables(rs, n, f);
	charts(rs, n, f);
	matrices(rs, n, f);
	guard_all(rs, n, f);
	fputs("<p class=\"hint\">Written by bakeoff; self-contained (no script, no external "
	      "resource).</p>\n</body></html>\n", f);
}
