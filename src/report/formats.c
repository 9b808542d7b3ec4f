/* formats.c — the table of output formats: name, the benchmark a format
 * needs in every file (ttcp shows net.tcp.bw only, ...), whether it takes
 * one file only, one line of help, its renderer, the verbs besides report
 * that offer it (compare, fleet), and whether it is an HTML page. Dispatch,
 * the --format checks and their error texts all come from here: adding a
 * format is its renderer's file and one row below. */
#include <stdio.h>
#include <string.h>
#include "history.h"
#include "report.h"

static void r_text(const struct result *const *rs, size_t n, int all, FILE *f)
{
	for (size_t k = 0; k < n; k++) {
		if (k)
			fputc('\n', f);
		report_text(rs[k], f, all);
	}
}

static void r_json(const struct result *const *rs, size_t n, int all, FILE *f)
{
	struct buf b = { 0 };

	(void)n, (void)all;
	result_to_json(rs[0], &b);
	fwrite(b.p, 1, b.len, f);
	buf_free(&b);
}

static void r_lmbench(const struct result *const *rs, size_t n, int all, FILE *f)
{
	(void)all;
	report_lmbench(rs, n, f);
}

static void r_dhrystone(const struct result *const *rs, size_t n, int all, FILE *f)
{
	(void)all;
	report_dhrystone(rs, n, f);
}

static void r_csv(const struct result *const *rs, size_t n, int all, FILE *f)
{
	(void)all;
	report_csv(rs, n, f);
}

static void r_bmf(const struct result *const *rs, size_t n, int all, FILE *f)
{
	(void)n;
	report_bmf(rs[0], all, f);
}

static void r_chart(const struct result *const *rs, size_t n, int all, FILE *f)
{
	(void)all;
	if (report_chart(rs, n, NULL, 0, f) == 0)
		fputs("(nothing to chart: no figure in these files)\n", f);
}

static void r_html(const struct result *const *rs, size_t n, int all, FILE *f)
{
	(void)all;
	report_html(rs, n, NULL, NULL, NULL, f);	/* compare's page: compare-html.c */
}

#define CF (FMT_COMPARE | FMT_FLEET)
const struct report_format report_formats[] = {	/* the first row is the default */
	{ "text", NULL, 0, "the table the run printed (default)", r_text, NULL, CF | FMT_HISTORY, 0,
	  history_print_text },
	{ "json", NULL, 1, "one file, re-serialized", r_json, NULL, 0, 0, NULL },
	{ "lmbench", NULL, 0, "the lmbench 3 summary, one row per file", r_lmbench, NULL, 0, 0, NULL },
	{ "ttcp", "net.tcp.bw", 0, "net.tcp.bw as ttcp -t and -r print it", NULL, report_ttcp, 0, 0, NULL },
	{ "dhrystone", "cpu.int", 0, "cpu.int's two lines", r_dhrystone, NULL, 0, 0, NULL },
	{ "time", "time", 0, "bakeoff time's csh lines and table", NULL, report_time, 0, 0, NULL },
	{ "dd", "disk.seq", 0, "dd's lines from disk.seq", NULL, report_dd, 0, 0, NULL },
	{ "bonnie", "disk.bonnie", 0, "bonnie++'s table and CSV line from disk.bonnie", NULL, report_bonnie,
	  0, 0, NULL },
	{ "iozone", "disk.iozone", 0, "iozone's report from disk.iozone", NULL, report_iozone, 0, 0, NULL },
	{ "csv", NULL, 0, "one row per figure per file, medians exact", r_csv, NULL, FMT_HISTORY, 0,
	  history_print_csv },
	{ "chart", NULL, 0, "ASCII bar charts, one symbol per file, 80 columns", r_chart, NULL, 0, 0, NULL },
	{ "html", NULL, 0, "one self-contained page with tables and SVG charts", r_html, NULL, CF | FMT_HISTORY,
	  1, history_print_html },
	{ "bmf", NULL, 1, "Bencher Metric Format: a benchmark per figure, median and 95% CI", r_bmf, NULL, 0, 0,
	  NULL },
	{ "openmetrics", NULL, 0, "Prometheus text (node_exporter textfile): a gauge per figure, by host",
	  report_openmetrics, NULL, 0, 0, NULL },
	{ NULL, NULL, 0, NULL, NULL, NULL, 0, 0, NULL },
};
#undef CF

void report_format_render(const struct report_format *fmt, const struct result *const *rs, size_t n,
			  int all, FILE *f)
{
	if (fmt->render)
		fmt->render(rs, n, all, f);
	else
		for (size_t k = 0; k < n; k++)
			fmt->each(rs[k], f);
}

static int offered(const struct report_format *f, unsigned verb)
{
	return verb == FMT_REPORT || (f->verbs & verb);
}

const struct report_format *report_format_for(const char *name, unsigned verb)
{
	const struct report_format *f;

	for (f = report_formats; f->name; f++)
		if (strcmp(f->name, name) == 0 && offered(f, verb))
			return f;
	return NULL;
}

const struct report_format *report_format_find(const char *name)
{
	return report_format_for(name, FMT_REPORT);
}

void report_format_names(char *dst, size_t n, unsigned verb)
{
	const struct report_format *f, *last = NULL;
	size_t len = 0;
	int k = 0;

	for (f = report_formats; f->name; f++)
		if (offered(f, verb))
			last = f;
	dst[0] = 0;
	for (f = report_formats; f->name && len < n; f++)
		if (offered(f, verb))
			len += (size_t)snprintf(dst + len, n - len, "%s%s", k++ == 0 ? "" :
						f == last ? " or " : ", ", f->name);
}

int report_format_check(const struct report_format *fmt, const struct result *const *rs,
			const char *const *names, size_t n, char *err, size_t errlen)
{
	if (fmt->one_file && n > 1) {
		snprintf(err, errlen, "report: --format %s takes one FILE", fmt->name);
		return -1;
	}
	for (size_t k = 0; fmt->needs && k < n; k++)
		if (!result_bench(rs[k], fmt->needs)) {
			snprintf(err, errlen, "report: %s has no %s, the only benchmark --format %s shows",
				 names[k], fmt->needs, fmt->name);
			return -1;
		}
	return 0;
}
