/* compare.h — is a difference between result files real, and are the
 * files fair to compare at all? It only reads results (docs/compare.md
 * explains the statistics and every warning); the verb is cli/compare.c. */
#ifndef BAKEOFF_COMPARE_H
#define BAKEOFF_COMPARE_H
#include <stddef.h>
#include <stdio.h>
#include "bench.h"
#include "result.h"

/* Exit status of --strict when the files are not like for like. */
#define COMPARE_EXIT_UNFAIR 3

/* ---- the statistics, exposed for the unit tests ---- */

/* A ratio of two figures (other / baseline) with its 95% CI; ci = 0 when no
 * interval could be computed (a derived figure, too few samples, a sample
 * that is not positive): then lo = hi = ratio. */
struct cmp_ratio {
	double ratio, lo, hi;
	int ci;
	int from_runs;	/* the CI comes from the between-run spread */
};

enum cmp_verdict { CMP_NONE, CMP_WITHIN, CMP_FASTER, CMP_SLOWER, CMP_BIMODAL };
const char *compare_verdict_name(enum cmp_verdict v);

/* The Price–Bonett estimate of the variance of the log of the sample
 * median of x (n >= 3, every value finite and > 0): 0, or -1. */
int compare_log_median_var(const double *x, size_t n, double *var);
/* Ratio med_b / med_a of two sampled figures with the Price–Bonett 95% CI
 * of a ratio of medians computed from the samples. */
void compare_ratio_samples(double med_a, const double *a, size_t na, double med_b,
			   const double *b, size_t nb, struct cmp_ratio *out);
/* The same from the medians of repeated runs (bakeoff run --runs K, K >= 2
 * on both sides): a Welch t interval on the logs of the run medians,
 * centred on med_b / med_a. Returns 0, or -1 (fewer than two runs). */
int compare_ratio_runs(double med_a, const double *ra, size_t ka, double med_b,
		       const double *rb, size_t kb, struct cmp_ratio *out);
/* Student's t at 0.975 for df degrees of freedom (rounded down; 1.96
 * beyond 60). */
double compare_t975(double df);
/* faster / slower when the whole CI lies beyond the noise floor (a ratio
 * outside [1/(1+floor), 1+floor]), else within noise. */
enum cmp_verdict compare_verdict(const struct cmp_ratio *r, double floor, enum better better);
/* Values that fall in two separate levels (each holding at least min_count
 * and a fifth of them, the gap between the levels at least twice either
 * level's own range and at least 3%): 1 with the two levels' medians, else
 * 0. compare's verdict for a figure with two levels in any file is
 * "bimodal", whatever the ratio. */
int compare_bimodal(const double *x, size_t n, size_t min_count, double *lo, double *hi);
/* The conservative noise floor of a figure without between-run data, by
 * metric kind (from the benchmark id; derived figures have their own): a
 * fraction (0.10 = 10%), and the kind's name. */
double compare_noise_floor(const char *bench_id, int derived, const char **kind);
/* A benchmark parameter that is a setting (a size, a block size, direct,
 * copies, pinning, ...), not a measured fact: 1, else 0. */
int compare_param_is_setting(const char *key);


/* ---- the comparison: computed once, then printed (text) or drawn (html) ---- */

#define COMPARE_MAX_FILES 26	/* labelled A..Z */

/* Sentences (warnings, notes), each said once; unescaped: a renderer
 * escapes them as it prints (report_put, report_html_esc). */
struct cmp_lines {
	char **s;
	size_t n;
};

struct cmp_file {
	const char *path;
	struct result r;
	char label[2];	/* "A", "B", ... */
};

/* File k's figure against the baseline's (k >= 1). */
struct cmp_cell {
	struct cmp_ratio r;
	double floor;		/* the noise floor the verdict had to clear (a fraction) */
	const char *kind;	/* the metric kind of the floor */
	enum cmp_verdict verdict;
};

/* A figure every file has, keyed by the baseline's benchmark and name. */
struct cmp_row {
	const char *id, *name;
	const struct metric *m[COMPARE_MAX_FILES];
	struct cmp_cell c[COMPARE_MAX_FILES];	/* c[0] unused */
	int derived;	/* a side is derived and there is no between-run data */
};

struct comparison {
	struct cmp_file fs[COMPARE_MAX_FILES];
	size_t nf;
	int all;			/* curve points and intermediate figures too */
	struct cmp_lines warn;		/* fairness warnings */
	struct cmp_lines notes;		/* findings every file shares */
	struct cmp_lines bimodal;	/* figures whose values fall in two levels */
	struct cmp_lines partial;	/* "KEY  in A; not in B" */
	struct cmp_lines absent;	/* "A: ID STATUS: REASON" when partial is not empty */
	struct cmp_row *rows;
	size_t nrows;
	size_t counts[5];	/* by enum cmp_verdict */
	size_t by_kind;		/* verdicts judged by a kind's floor, not by runs */
	/* compare --history DIR: the floor of a figure learned from the
	 * baseline machine's own history (history.c), 0 when it has none;
	 * *runs the runs it was learned from */
	double (*learned)(void *ctx, const char *id, const char *metric, size_t *runs);
	void *learned_ctx;
	size_t by_history;	/* verdicts judged by a learned floor */
	size_t history_runs;	/* the most runs such a floor was learned from */
};

/* "ID:NAME" (or "ID") with controls escaped, into dst. */
void compare_metric_key(char *dst, size_t n, const char *id, const char *name);
/* A ratio's CI as the table shows it ("0.912..1.040", "(no CI)", "-"); a
 * cell's floor ("10%", or "runs" when judged by the between-run spread);
 * the line counting the verdicts ("12 comparisons: ...\n"). */
/* A ratio in at most 9 characters: 1.052, 1.2e+05. */
void compare_ratio_text(char *dst, size_t n, double r);
void compare_ci_text(char *dst, size_t n, const struct cmp_ratio *r);
void compare_floor_text(char *dst, size_t n, const struct cmp_cell *cl);
void compare_summary(const struct comparison *c, FILE *out);
/* The text table (compare.c) and the HTML page (compare-html.c) of a
 * computed comparison; best adds the best-of tables to the text. */
void compare_print_text(const struct comparison *c, int best, FILE *out);
void compare_print_html(const struct comparison *c, FILE *out);

/* For the verb (cli/compare.c): a comparison to fill (fs[k].path and
 * .label, .r loaded, nf, all), compare_build to work out everything it
 * says (-1: out of memory), its fairness warnings one per line, and
 * compare_free for the files and lines (not c itself). */
struct comparison *compare_new(void);
int compare_build(struct comparison *c);
void compare_print_warnings(const struct comparison *c, FILE *out);
void compare_free(struct comparison *c);

#endif
