/* changepoint.c — E-divisive with means (see changepoint.h). The sums of
 * distances within each side and between the sides are carried from one
 * candidate split to the next, one value moving across at a time, so all
 * candidates of a segment cost O(n^2) together, and every end kappa
 * O(n^3). */
#include <math.h>
#include "changepoint.h"

int cp_best_split(const double *x, size_t n, size_t min_size, size_t *tau, double *q)
{
	double within_l = 0, within_r = 0, between = 0, best = -INFINITY;
	size_t i, j, t;

	if (min_size < 1)
		min_size = 1;
	if (n < 2 * min_size)
		return -1;
	/* start with everything on the right */
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			within_r += fabs(x[i] - x[j]);
	*tau = min_size;
	for (t = 0; t + min_size < n; t++) {
		/* move x[t] from the right to the left: the split is now t + 1 */
		double to_left = 0, to_right = 0;
		double m, k, e;

		for (i = 0; i < t; i++)
			to_left += fabs(x[t] - x[i]);
		for (j = t + 1; j < n; j++)
			to_right += fabs(x[t] - x[j]);
		within_l += to_left;
		within_r -= to_right;
		between += to_right - to_left;
		if (t + 1 < min_size)
			continue;
		m = (double)(t + 1);
		k = (double)(n - t - 1);
		e = 2 * between / (m * k) - (m > 1 ? within_l / (m * (m - 1) / 2) : 0) -
		    (k > 1 ? within_r / (k * (k - 1) / 2) : 0);
		e *= m * k / (m + k);
		if (e > best) {
			best = e;
			*tau = t + 1;
		}
	}
	*q = best;
	return 0;
}

size_t cp_candidates(const double *x, size_t n, size_t min_size, struct cp_split *c, size_t max)
{
	size_t k, m = 0, i, j;
	struct cp_split one;

	if (min_size < 1)
		min_size = 1;
	for (k = n > CP_KAPPA_MAX ? n : 2 * min_size; k <= n; k++) {
		if (cp_best_split(x, k, min_size, &one.tau, &one.q) < 0 || !(one.q > 0))
			continue;
		one.kappa = k;
		/* keep the max best, by q, in descending order */
		for (i = 0; i < m && c[i].q >= one.q; i++)
			;
		if (i == max)
			continue;
		for (j = m < max ? m : max - 1; j > i; j--)
			c[j] = c[j - 1];
		c[i] = one;
		if (m < max)
			m++;
	}
	return m;
}

static size_t segment(const double *x, size_t n, size_t off, size_t min_size, cp_accept_fn accept,
		      void *ctx, size_t *cps, size_t have, size_t max)
{
	struct cp_split c[CP_CANDIDATES];
	size_t nc, i, tau = 0;

	if (have >= max)
		return have;
	/* the strongest split that accept() takes, judged on the two sides as
	 * E-divisive found them: x[0..tau) against x[tau..kappa) */
	nc = cp_candidates(x, n, min_size, c, CP_CANDIDATES);
	for (i = 0; i < nc && !tau; i++)
		if (accept(x, c[i].kappa, c[i].tau, ctx))
			tau = c[i].tau;
	if (!tau)
		return have;
	have = segment(x, tau, off, min_size, accept, ctx, cps, have, max);
	if (have < max)
		cps[have++] = off + tau;
	return segment(x + tau, n - tau, off + tau, min_size, accept, ctx, cps, have, max);
}

size_t cp_segment(const double *x, size_t n, size_t min_size, cp_accept_fn accept, void *ctx,
		  size_t *cps, size_t max)
{
	return segment(x, n, 0, min_size, accept, ctx, cps, 0, max);
}
