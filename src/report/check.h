/* check.h — the regression gate behind `bakeoff check` (check.c). */
#ifndef BAKEOFF_CHECK_H
#define BAKEOFF_CHECK_H
#include <stddef.h>
#include <stdio.h>

#define CHECK_REGRESSION 1	/* a figure slower beyond the threshold, or missing in NEW */
#define CHECK_NOT_COMPARABLE 3	/* other machines, other settings, nothing in common */
#define CHECK_CANNOT_JUDGE 125	/* git bisect run: skip this commit */

struct check_opts {
	const char *baseline;	/* a result file, or a history directory */
	int baseline_is_dir;
	const char *newpath;	/* NEW's result file ("-": standard input) */
	double threshold;	/* a fraction: 0.05 */
	const char *const *metrics;	/* --metric (NULL: every main figure) */
	size_t nmetrics;
	int all;		/* detail figures too */
	int require_valid;	/* a suspect NEW cannot be judged */
	int include;		/* the history's suspect (HX_SUSPECT) and shared-core
				 * (HX_SHARED) runs in the baseline too */
};

/* One line per figure on out, problems on err; the exit status: 0, 1, 2
 * (a baseline that cannot be read), 3, or 125. */
int check_run(const struct check_opts *o, FILE *out, FILE *err);

#endif
