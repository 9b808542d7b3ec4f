/* history-html.c — history --format html: one self-contained page, per
 * series a section and per figure an SVG line chart of its runs (the
 * medians joined, the 95% CI as a band, suspect and unjudged runs hollow,
 * each change point a dashed line), every point with a tooltip of its
 * start, value and labels, and each change in one sentence under its
 * chart. No script; strings from the files go through report_html_esc.
 * Only reads the history. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "history.h"
#include "report.h"
#include "units.h"

#define W 640	/* chart width and height, and the plot's margins */
#define H 180
#define ML 70
#define MR 10
#define MT 10
#define MB 24

static const char css[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:72em;padding:0 .8em;color:#222}"
	"h1{font-size:1.4em}h2{font-size:1.2em;border-bottom:1px solid #ccc}h3{font-size:1em;margin:.8em 0 .2em}"
	".ch{color:#a40}.fl{color:#666;font-size:.9em}svg{display:block}";

/* The figure's CI bounds in run p (lo = hi = median when none). */
static void ci_of(const struct history *h, const struct hx_trend *t, size_t p, double *lo, double *hi)
{
	const struct hx_file *f = &h->files[t->file[p]];
	size_t j;

	*lo = *hi = t->v[p];
	for (j = 0; j < f->nfigs; j++)
		if (f->figs[j].key == t->key && f->figs[j].hi > f->figs[j].lo) {
			*lo = f->figs[j].lo;
			*hi = f->figs[j].hi;
		}
}

static double px(size_t p, size_t n)
{
	return ML + (n > 1 ? (double)p / (double)(n - 1) : 0.5) * (W - ML - MR);
}

static double py(double v, double lo, double hi)
{
	return MT + (hi > lo ? (hi - v) / (hi - lo) : 0.5) * (H - MT - MB);
}

static void chart(const struct history *h, const struct hx_trend *t, FILE *f)
{
	double lo = INFINITY, hi = -INFINITY, a, b;
	char num[32];
	size_t p, c;

	for (p = 0; p < t->n; p++) {
		ci_of(h, t, p, &a, &b);
		lo = fmin(lo, a);
		hi = fmax(hi, b);
	}
	lo = fmax(0, lo - (hi - lo) * 0.05);
	hi += (hi - lo) * 0.05;
	fprintf(f, "<svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n", W, H, W, H);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>", ML, H - MB, W - MR, H - MB);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>\n", ML, MT, ML, H - MB);
	for (int k = 0; k <= 2; k++) {	/* the axis: bottom, middle, top */
		double v = lo + (hi - lo) * k / 2;

		fmt_num(num, sizeof(num), v);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\">%s</text>", ML - 4,
			py(v, lo, hi) + 4, num);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">", ML, H - 6);	/* the first and last start */
	report_html_esc(f, h->files[t->file[0]].start);
	fprintf(f, "</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"11\">", W - MR, H - 6);
	report_html_esc(f, h->files[t->file[t->n - 1]].start);
	fputs("</text>", f);
	fputs("\n<polygon fill=\"#cde\" stroke=\"none\" points=\"", f);	/* the CI band */
	for (p = 0; p < t->n; p++) {
		ci_of(h, t, p, &a, &b);
		fprintf(f, "%.1f,%.1f ", px(p, t->n), py(b, lo, hi));
	}
	for (p = t->n; p-- > 0;) {
		ci_of(h, t, p, &a, &b);
		fprintf(f, "%.1f,%.1f ", px(p, t->n), py(a, lo, hi));
	}
	fputs("\"/>\n<polyline fill=\"none\" stroke=\"#246\" stroke-width=\"1.5\" points=\"", f);
	for (p = 0; p < t->n; p++)
		fprintf(f, "%.1f,%.1f ", px(p, t->n), py(t->v[p], lo, hi));
	fputs("\"/>\n", f);
	for (c = 0; c < t->nch; c++) {
		double x = (px(t->ch[c].at - 1, t->n) + px(t->ch[c].at, t->n)) / 2;

		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#a40\" stroke-dasharray=\"4 3\"/>\n",
			x, MT, x, H - MB);
	}
	for (p = 0; p < t->n; p++) {
		const struct hx_file *fi = &h->files[t->file[p]];

		fmt_num(num, sizeof(num), t->v[p]);
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\" stroke=\"#246\"><title>", px(p, t->n),
			py(t->v[p], lo, hi), t->used[p] ? "#246" : "#fff");
		report_html_esc(f, fi->start);
		fprintf(f, ": %s ", num);
		report_html_esc(f, h->keys[t->key].unit);
		fprintf(f, "%s", fi->unjudgeable ? " (cannot be judged)" : fi->suspect ? " (suspect)" : "");
		for (const char *l = fi->labels; *l;) {	/* a label a line */
			size_t n = strcspn(l, "\x1f");
			char one[260];

			snprintf(one, sizeof(one), "%.*s", (int)n, l);
			fputs("&#10;", f);
			report_html_esc(f, one);
			l += n + (l[n] != 0);
		}
		fputs("</title></circle>\n", f);
	}
	fputs("</svg>\n", f);
}

/* Its changes, each a sentence, as the text format says them. */
static void changes(const struct history *h, const struct hx_trend *t, FILE *f)
{
	char what[1200], floor[160];
	size_t c;

	for (c = 0; c < t->nch; c++) {
		const struct hx_change *ch = &t->ch[c];
		size_t i = ch->at;

		while (i > 0 && !t->used[i - 1])
			i--;
		fprintf(f, "<p class=\"ch\">%+.1f%% (95%% CI %+.1f..%+.1f%%) between ", (ch->ratio - 1) * 100,
			(ch->lo - 1) * 100, (ch->hi - 1) * 100);
		report_html_esc(f, h->files[t->file[i ? i - 1 : 0]].start);
		fputs(" and ", f);
		report_html_esc(f, h->files[t->file[ch->at]].start);
		history_label_changes(&h->files[t->file[i ? i - 1 : 0]], &h->files[t->file[ch->at]], what,
				      sizeof(what));
		if (what[0]) {
			fputs(" (", f);
			report_html_esc(f, what);
			fputc(')', f);
		}
		fputs("</p>\n", f);
	}
	history_floor_text(t, floor, sizeof(floor));
	fputs("<p class=\"fl\">floor ", f);
	report_html_esc(f, floor);
	fputs("</p>\n", f);
}

int history_print_html(const struct history *h, const struct hx_view *v, FILE *f)
{
	struct hx_series *s;
	size_t ns = history_series(h, v->by, &s), k, i, nk, *keys;
	char name[600];

	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		"<title>bakeoff history</title>\n<style>%s</style></head>\n<body>\n<h1>bakeoff history</h1>\n", css);
	if (!ns)
		fputs("<p>No runs to show.</p>\n", f);
	for (k = 0; k < ns; k++) {
		const struct hx_file *first = &h->files[s[k].files[0]], *last = &h->files[s[k].files[s[k].n - 1]];

		fprintf(f, "<h2>Series %zu of %zu: ", k + 1, ns);
		report_html_esc(f, first->host);
		if (s[k].by[0]) {
			fputs(", ", f);
			report_html_esc(f, s[k].by);
		}
		fprintf(f, " (machine %s)</h2>\n<p>%zu runs, ", first->fp, s[k].n);
		report_html_esc(f, first->start);
		fputs(" to ", f);
		report_html_esc(f, last->start);
		fputs(". Machine: ", f);
		report_html_esc(f, first->facts);
		fputs("</p>\n", f);
		nk = history_series_keys(h, &s[k], v, &keys);
		for (i = 0; i < nk; i++) {
			struct hx_trend t;

			if (history_trend(h, &s[k], keys[i], v->include, &t) < 0)
				continue;
			if (t.n) {
				snprintf(name, sizeof(name), "%s%s%s (%s, %s is better)", h->keys[keys[i]].id,
					 h->keys[keys[i]].metric[0] ? ":" : "", h->keys[keys[i]].metric,
					 h->keys[keys[i]].unit,
					 h->keys[keys[i]].better == BETTER_HIGHER ? "higher" : "lower");
				fputs("<h3>", f);
				report_html_esc(f, name);
				fputs(" <span class=\"fl\">", f);
				report_html_esc(f, h->keys[keys[i]].settings);
				fputs("</span></h3>\n", f);
				chart(h, &t, f);
				changes(h, &t, f);
			}
			history_trend_free(&t);
		}
		free(keys);
	}
	fputs("<p class=\"fl\">Made by bakeoff history (docs/regressions.md): hollow points are runs "
	      "left out of the search for changes; dashed lines are change points.</p>\n</body></html>\n", f);
	history_series_free(s, ns);
	return 0;
}
