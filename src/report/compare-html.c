/* compare-html.c — `bakeoff compare --format html`: the page of
 * report --format html (each file's host facts and guard findings, the
 * tables and the SVG charts across files) with compare's section first:
 * the files and their letters, the fairness warnings, the
 * verdict table (each file's ratio to the baseline with its 95% CI, the
 * noise floor and the verdict; where a verdict says a difference is real,
 * the medians colored best green to worst red, as bon_csv2html does),
 * the bimodal figures and the figures only some files have.
 *
 * It draws a comparison compare.c has already computed (struct comparison):
 * no ratio or verdict is worked out here, so the page and the text table
 * cannot disagree. Strings from the files go through report_html_esc. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"
#include "report.h"
#include "units.h"

static void lines_html(const struct cmp_lines *l, const char *cls, FILE *f)
{
	size_t i;

	fprintf(f, "<ul class=\"%s\">", cls);
	for (i = 0; i < l->n; i++) {
		fputs("<li>", f);
		report_html_esc(f, l->s[i]);
		fputs("</li>", f);
	}
	fputs("</ul>\n", f);
}

static const char *verdict_class(enum cmp_verdict v)
{
	switch (v) {
	case CMP_FASTER: return "faster";
	case CMP_SLOWER: return "slower";
	case CMP_WITHIN: return "within";
	case CMP_BIMODAL: return "bimodal";
	default: return "none";
	}
}

static void files_html(const struct comparison *c, const struct result *const *rs, FILE *f)
{
	size_t k;

	fputs("<ul class=\"files\">", f);
	for (k = 0; k < c->nf; k++) {
		const struct result *r = &c->fs[k].r;
		char lab[320];

		report_file_label(rs, c->nf, k, lab, sizeof(lab));
		fprintf(f, "<li><b>%s</b> = <code>", c->fs[k].label);
		report_html_esc(f, c->fs[k].path);
		fputs("</code>: ", f);
		report_html_esc(f, lab);
		fprintf(f, " (file %zu), ", k + 1);
		report_html_esc(f, r->start_utc ? r->start_utc : "?");
		fputs(", profile ", f);
		report_html_esc(f, r->profile ? r->profile : "?");
		fprintf(f, ", %zu benchmarks", r->nbenches);
		if (r->runs > 1)
			fprintf(f, ", %d runs each", r->runs);
		fputs(k == 0 ? " <b>(baseline)</b></li>" : "</li>", f);
	}
	fputs("</ul>\n", f);
}

static void table_html(const struct comparison *c, FILE *f)
{
	size_t i, k;
	char key[700], v[40];

	fprintf(f, "<div class=\"tw\"><table class=\"cmp\"><caption>Verdicts: each file against the "
		"baseline %s</caption><thead><tr><th>figure</th><th>unit</th>", c->fs[0].label);
	for (k = 0; k < c->nf; k++)
		fprintf(f, "<th>%s</th>", c->fs[k].label);
	for (k = 1; k < c->nf; k++)
		fprintf(f, "<th>%s/%s</th><th>95%% CI</th><th>floor</th><th>verdict</th>",
			c->fs[k].label, c->fs[0].label);
	fputs("</tr></thead><tbody>\n", f);
	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *rw = &c->rows[i];
		double lo = 0, hi = 0;
		int real = 0;

		/* colored by rank only when a difference is real: a row within
		 * noise (or bimodal) has no best and worst to show */
		for (k = 1; k < c->nf; k++)
			real |= rw->c[k].verdict == CMP_FASTER || rw->c[k].verdict == CMP_SLOWER;
		for (k = 0; k < c->nf; k++) {
			double x = rw->m[k]->st.median;

			if (!k || x < lo)
				lo = x;
			if (!k || x > hi)
				hi = x;
		}
		compare_metric_key(key, sizeof(key), rw->id, rw->name);
		fputs("<tr><td>", f);
		report_html_esc(f, key);
		if (c->nf == 2 && rw->derived)
			fputs("<br><small>derived: no samples</small>", f);
		fputs("</td><td>", f);
		report_html_esc(f, rw->m[0]->unit);
		fputs("</td>", f);
		for (k = 0; k < c->nf; k++) {
			fputs("<td", f);
			if (real)
				report_html_rank_style(f, rw->m[k]->st.median, lo, hi, rw->m[0]->better);
			fmt_num(v, sizeof(v), rw->m[k]->st.median);
			fprintf(f, ">%s</td>", v);
		}
		for (k = 1; k < c->nf; k++) {
			const struct cmp_cell *cl = &rw->c[k];
			char ci[40], fl[16];

			compare_ci_text(ci, sizeof(ci), &cl->r);
			compare_floor_text(fl, sizeof(fl), cl);
			if (isfinite(cl->r.ratio))
				compare_ratio_text(v, sizeof(v), cl->r.ratio);
			else
				snprintf(v, sizeof(v), "-");
			fprintf(f, "<td>%s</td><td class=\"ci\">%s</td><td>%s</td>"
				"<td class=\"v %s\">%s</td>", v, ci, fl, verdict_class(cl->verdict),
				isfinite(cl->r.ratio) ? compare_verdict_name(cl->verdict) : "-");
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

/* The section report_html prints before the host facts. */
static void section(const struct result *const *rs, size_t n, FILE *f, void *ctx)
{
	const struct comparison *c = ctx;

	(void)n;
	fputs("<section><h2>Comparison</h2>\n", f);
	files_html(c, rs, f);
	if (c->warn.n) {
		fprintf(f, "<h3>Fairness warnings (%zu): these figures are not like for like</h3>\n",
			c->warn.n);
		lines_html(&c->warn, "fair", f);
	} else {
		fputs("<p>No fairness warning: same tool, build, profile and settings.</p>\n", f);
	}
	if (c->notes.n) {
		fputs("<h3>Notes</h3>\n", f);
		lines_html(&c->notes, "notes", f);
	}
	if (c->nrows) {
		table_html(c, f);
		fputs("<p class=\"summary\">", f);
		compare_summary(c, f);
		fputs("</p>\n", f);
		if (c->by_kind)
			fprintf(f, "<p class=\"hint\">%zu judged by the noise floor of their kind "
				"(docs/compare.md); files from <code>bakeoff run --runs K</code> are judged "
				"by their own spread between runs. A verdict needs the whole 95%% CI "
				"beyond the floor.</p>\n", c->by_kind);
	} else {
		fputs("<p>No figure is in every file.</p>\n", f);
	}
	if (c->bimodal.n)
		lines_html(&c->bimodal, "bimodal-notes", f);
	if (c->partial.n) {
		fputs("<h3>Only in some files</h3>\n", f);
		lines_html(&c->partial, "partial", f);
		if (c->absent.n)
			lines_html(&c->absent, "absent", f);
	}
	fputs("</section>\n", f);
}

void compare_print_html(const struct comparison *c, FILE *out)
{
	const struct result **rs = calloc(c->nf ? c->nf : 1, sizeof(*rs));
	size_t k;

	if (!rs)
		return;
	for (k = 0; k < c->nf; k++)
		rs[k] = &c->fs[k].r;
	report_html(rs, c->nf, "bakeoff compare", section, (void *)c, out);
	free(rs);
}
