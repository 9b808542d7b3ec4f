/* changepoint.h — where a series of per-run figures changed level:
 * E-divisive with means (Matteson and James, 2014, alpha = 1), found
 * hierarchically as Apache Otava (formerly Hunter) does, each split kept
 * only when the caller's test accepts it (a significance test and a noise
 * floor; history.c). Pure arithmetic on an array: no I/O. */
#ifndef BAKEOFF_CHANGEPOINT_H
#define BAKEOFF_CHANGEPOINT_H
#include <stddef.h>

/* The most divergent split of x[0..n) into x[0..tau) and x[tau..n), both
 * at least min_size long: the tau that maximises the E-divisive statistic
 * Q = m k / (m + k) * (2/(m k) sum |xi - yj| - mean |xi - xi'| - mean
 * |yj - yj'|) (m, k: the sizes of the two sides). Returns 0 with *tau and
 * *q, or -1 when n < 2 * min_size. O(n^2) time, O(1) memory. */
int cp_best_split(const double *x, size_t n, size_t min_size, size_t *tau, double *q);

/* Matteson and James's full search: for every end kappa, the best split
 * tau of x[0..kappa) and its statistic (a change that comes back later, a
 * hat, is found as one side against the values right after it, not
 * against the whole rest). The max strongest go to c, by q descending;
 * returns how many. Segments longer than CP_KAPPA_MAX try kappa = n only
 * (cp_best_split): the search is O(n^3). */
#define CP_KAPPA_MAX 150
#define CP_CANDIDATES 8	/* tried in turn by cp_segment */
struct cp_split {
	size_t tau, kappa;
	double q;
};
size_t cp_candidates(const double *x, size_t n, size_t min_size, struct cp_split *c, size_t max);

/* Accept a split of x[0..n) at tau (1), or refuse it (0). */
typedef int (*cp_accept_fn)(const double *x, size_t n, size_t tau, void *ctx);

/* Binary segmentation: split x at the strongest candidate that accept()
 * takes (judged on x[0..tau) against x[tau..kappa)), then each side the
 * same way. The change points (each the index of the
 * first value after a change) go to cps in ascending order, at most max;
 * returns how many. */
size_t cp_segment(const double *x, size_t n, size_t min_size, cp_accept_fn accept, void *ctx,
		  size_t *cps, size_t max);

#endif
