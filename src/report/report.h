/* report.h — renderers: read a result, print it. They never measure. */
#ifndef BAKEOFF_REPORT_H
#define BAKEOFF_REPORT_H
#include <stddef.h>
#include <stdio.h>
#include "result.h"

struct history;
struct hx_view;

/* The default table: header (host, run, guard) and one line per figure;
 * curve points and intermediate figures (metric.detail) only when all. */
void report_text(const struct result *r, FILE *f, int all);
/* lmbench 3 summary (scripts/getsummary layout): one row per result. */
void report_lmbench(const struct result *const *rs, size_t n, FILE *f);
/* net.tcp.bw in ttcp's -t / -r lines (ttcp.c). */
void report_ttcp(const struct result *r, FILE *f);
/* `bakeoff time`: csh `time` lines per run, then a table (time.c). */
void report_time(const struct result *r, FILE *f);
/* Dhrystone 1.1's two lines for cpu.int, under its own name (dhrystone.c). */
void report_dhrystone(const struct result *const *rs, size_t n, FILE *f);

/* The output formats (formats.c): a table, ended by a row with a NULL name. */
struct report_format {
	const char *name;
	const char *needs;	/* the benchmark id every file must have (NULL: none) */
	int one_file;		/* takes a single file */
	const char *help;	/* one line */
	/* the renderer: of all the files at once, or of each file in turn */
	void (*render)(const struct result *const *rs, size_t n, int all, FILE *f);
	void (*each)(const struct result *r, FILE *f);
	unsigned verbs;		/* FMT_*: the verbs besides report that offer it */
	int page;		/* a self-contained HTML page (compare and fleet draw their own) */
	/* history's renderer (history-out.c; FMT_HISTORY): 0, or -1 */
	int (*history)(const struct history *h, const struct hx_view *v, FILE *f);
};
enum { FMT_REPORT = 0, FMT_COMPARE = 1u << 0, FMT_FLEET = 1u << 1, FMT_HISTORY = 1u << 2 };
extern const struct report_format report_formats[];
/* Render rs[0..n-1] as fmt says (render, or each for every file). */
void report_format_render(const struct report_format *fmt, const struct result *const *rs, size_t n,
			  int all, FILE *f);
/* The row of that name that verb offers (FMT_REPORT: every row), or NULL. */
const struct report_format *report_format_find(const char *name);
const struct report_format *report_format_for(const char *name, unsigned verb);
/* "text, json, ... or html": the names verb offers, for messages. */
void report_format_names(char *dst, size_t n, unsigned verb);
/* The files fit the format (one file when it takes one; each has the
 * benchmark it needs): 0, or -1 with one line naming the file in err. */
int report_format_check(const struct report_format *fmt, const struct result *const *rs,
			const char *const *names, size_t n, char *err, size_t errlen);

/* The guard's findings for the first screen (guard-summary.c): the
 * per-benchmark ones grouped by kind and counted ("busy during 41 of 65
 * benchmarks (a, b, c, ...): other processes used 40-79% of the CPUs"),
 * then the ones about the whole run as they are. Returns the lines written
 * (at most max). report_guard_grouped: some were grouped, so the full list
 * is worth printing too. */
#define REPORT_GUARD_LINE 600
size_t report_guard_summary(const struct result *r, char (*out)[REPORT_GUARD_LINE], size_t max);
int report_guard_grouped(const struct result *r);

/* disk.c: the dd and bonnie personalities' formats ("dd", "bonnie") from
 * disk.seq and disk.bonnie. */
void report_dd(const struct result *r, FILE *f);
void report_bonnie(const struct result *r, FILE *f);
void report_iozone(const struct result *r, FILE *f);

/* Escaping (escape.c). Every string a renderer takes from a result file —
 * host name, OS, kernel, CPU model, argv, titles, ids, metric names, units,
 * reasons, notes, guard findings — may hold terminal control sequences
 * written by whoever made the file. A text renderer prints such a string
 * only through report_put, or through report_esc into its own buffer, never
 * with a bare %s. Controls (C0, DEL, C1) and bytes that are not well-formed
 * UTF-8 become \xNN; printable UTF-8 is kept. (Machine formats — JSON —
 * escape by their own rules and do not need this.)
 *
 * report_put: print s escaped, then pad with spaces to width columns
 * (0: no padding); a NULL s prints as "". Use it for %s and %-*s.
 * report_esc: the escaped s into dst (size n, always NUL-terminated when n
 * > 0, never ending in half an escape); returns the length the whole
 * escaped string needs, like snprintf. Use it where a column cuts a
 * string ("%.9s"): escape first, then cut.
 * report_esc_width: the columns report_put would fill (characters, not
 * bytes); use it to size columns. */
void report_put(FILE *f, const char *s, int width);
size_t report_esc(char *dst, size_t n, const char *s);
size_t report_esc_width(const char *s);
/* The run's start and profile ("?" for either missing) with sep between:
 * the header of text and compare. text.c */
void report_put_run(FILE *f, const struct result *r, const char *sep);

/* The benchmark id that tool's format shows, when r has it and it ran;
 * else NULL after one line on f saying which ("dd: no disk.seq in this
 * result", "ttcp: net.tcp.bw failed: REASON"). figures.c */
const struct bench_result *report_usable(FILE *f, const char *tool, const struct result *r,
					 const char *id);

/* ---- issue 12: charts, CSV, HTML (figures.c, csv.c, chart.c, html.c) ---- */
/* %CPU of a rate's measured phase (user+sys over wall), or -1 when none. */
double report_cpu_pct(const struct metric *m);
/* What limited a figure, into dst: "CPU-bound (98% CPU)", "1.31% of the
 * memory ceiling" (disk.seq's "NAME % of ceiling" beside NAME); "" when
 * nothing is known. Returns the length needed, like snprintf. */
size_t report_bottleneck(const struct bench_result *b, const struct metric *m, char *dst,
			 size_t n);
/* A curve point's name, "write 64k" or "rand/512B": the series ("write",
 * "rand") into series and the size in bytes into *x; returns 1 for a size
 * ("512B", "64k"), 2 for a bare count ("pages/4096", "int/2": pages,
 * copies), 0 when the name is not a curve point. */
int report_curve_point(const char *name, char *series, size_t n, double *x);
/* One chart symbol per file: * # o + x @ % = ~ $, then letters and &
 * (36 in all, then again). */
const char *report_symbol(size_t k);
/* A file's name in legends: its host, with its start time when another
 * file has the same host (unescaped: print through report_put/report_esc). */
void report_file_label(const struct result *const *rs, size_t n, size_t k, char *dst,
		       size_t len);
/* --format csv: a header, then one row per metric per result (a benchmark
 * that did not run: one row with its status and no median). */
void report_csv(const struct result *const *rs, size_t n, FILE *f);
/* Exports (export.c): Bencher Metric Format of one file, and the
 * Prometheus / OpenMetrics text format of several (a gauge per figure,
 * labelled by host). Main figures only unless all. */
void report_bmf(const struct result *r, int all, FILE *f);
void report_openmetrics(const struct result *const *rs, size_t n, int all, FILE *f);
/* One CSV field as csv.c writes it: a string escaped, quoted when it must
 * be, a formula defused; a number exact. */
void report_csv_str(FILE *f, const char *s);
void report_csv_num(FILE *f, double v);
/* --format chart and `bakeoff chart`: ASCII bar charts within 80 columns,
 * one symbol per file. ids (n_ids, may be 0: every main figure and curve)
 * select benchmarks ("disk.seq") or figures ("mem.lat:L1"), as prefixes.
 * Returns the number of charts drawn. */
int report_chart(const struct result *const *rs, size_t n, const char *const *ids,
		 size_t n_ids, FILE *f);
/* --format html: one self-contained page (inline CSS and SVG, no script,
 * no external resource), titled title (NULL: "bakeoff report"): the host
 * facts, a table per benchmark, the charts. extra, when not NULL, is
 * called once with all the results before the host facts, to add a
 * section (compare's verdicts, compare-html.c: it must print HTML,
 * escaping strings with report_html_esc). */
typedef void (*report_html_section)(const struct result *const *rs, size_t n, FILE *f,
				    void *ctx);
void report_html(const struct result *const *rs, size_t n, const char *title,
		 report_html_section extra, void *ctx, FILE *f);
/* ' style="background:..."' for a cell holding v among values lo..hi:
 * best green to worst red as better says; nothing when hi <= lo. */
void report_html_rank_style(FILE *f, double v, double lo, double hi, enum better better);
/* s escaped for HTML text and attributes: controls as \xNN (report_esc),
 * then & < > " ' as entities. */
void report_html_esc(FILE *f, const char *s);
/* matrix.c: the figures of a benchmark named pair/A-B (cpu.c2c) as a
 * CPU x CPU matrix, mem.numa's lat/I-J and bw/I-J as node x node ones, in
 * text (up to 12 rows; a range beyond) or as HTML heat maps in a section
 * headed label (the file's); nothing when it has none. */
void report_pair_matrix_text(const struct bench_result *b, FILE *f);
void report_pair_matrix_html(const struct bench_result *b, const char *label, FILE *f);
/* loadcurve.c: a sweep of latency under load (figures lat/<D> and bw/<D>,
 * mem.loaded's): its points by bandwidth, at most max (how many), and the
 * text report's table of them (nothing when there are none). */
struct load_point {
	long delay;
	double bw, lat;
	double cpu;	/* the loaders' CPU share (%, cpu/<D>), NAN in files without it */
};
int report_load_points(const struct bench_result *b, struct load_point *pt, int max);
void report_load_text(const struct bench_result *b, FILE *f);
/* ---- end issue 12 ---- */

#endif
