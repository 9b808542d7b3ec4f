/* stats.h — summary statistics of a sample set. */
#ifndef BAKEOFF_STATS_H
#define BAKEOFF_STATS_H
#include <stddef.h>

struct stats {
	size_t n;
	double median, min, max, mean;
	double stddev;		/* sample standard deviation (n - 1) */
	double cv;		/* stddev / mean, 0 when mean is 0 */
	double ci_lo, ci_hi;	/* distribution-free 95% CI of the median */
};

/* Returns 0, or -1 when n == 0. x is not modified. */
int stats_compute(const double *x, size_t n, struct stats *st);
/* Order-statistic ranks (1-based, inclusive) bounding the 95% CI of the median. */
void stats_median_ci_ranks(size_t n, size_t *lo, size_t *hi);
/* qsort's comparison of two doubles, ascending. */
int stats_cmp_double(const void *a, const void *b);

#endif
