/* stats.c — median, spread and a 95% confidence interval of the median.
 *
 * The CI uses order statistics, so it assumes nothing about the shape of the
 * distribution (timings are skewed: interruptions only add time). With the
 * normal approximation to Binomial(n, 1/2) the interval runs from the
 * sample of rank floor((n - 1.96 sqrt n) / 2) to rank
 * ceil(1 + (n + 1.96 sqrt n) / 2), clamped to [1, n]. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stats.h"

int stats_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void stats_median_ci_ranks(size_t n, size_t *lo, size_t *hi)
{
	double h = 1.96 * sqrt((double)n);
	double l = floor(((double)n - h) / 2.0);
	double u = ceil(1.0 + ((double)n + h) / 2.0);

	*lo = l < 1 ? 1 : (size_t)l;
	*hi = u > (double)n ? n : (size_t)u;
}

int stats_compute(const double *x, size_t n, struct stats *st)
{
	double *s, sum = 0, ss = 0;
	size_t i, lo, hi;

	memset(st, 0, sizeof(*st));
	if (n == 0)
		return -1;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -1;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), stats_cmp_double);
	for (i = 0; i < n; i++)
		sum += s[i];
	st->n = n;
	st->mean = sum / (double)n;
	for (i = 0; i < n; i++)
		ss += (s[i] - st->mean) * (s[i] - st->mean);
	st->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	st->cv = st->mean != 0 ? st->stddev / fabs(st->mean) : 0;
	st->min = s[0];
	st->max = s[n - 1];
	st->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	stats_median_ci_ranks(n, &lo, &hi);
	st->ci_lo = s[lo - 1];
	st->ci_hi = s[hi - 1];
	free(s);
	return 0;
}
