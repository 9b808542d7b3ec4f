/* hist.h — a fixed-memory log-linear latency histogram (per-operation ns).
 *
 * Buckets: values 0..255 are exact; every power-of-two range [2^k, 2^(k+1))
 * with k >= 8 is split into 128 equal sub-buckets. The whole uint64_t range
 * is covered (7424 counters, 58 KiB), so no value is ever clamped.
 *
 * Quantile definition ("nearest rank"): for n values added, the q-quantile
 * is the order statistic of rank r = ceil(q * n), clamped to [1, n] — the
 * smallest added value v such that at least ceil(q * n) of the added values
 * are <= v. (q * n is taken a few ulps low before the ceiling, so a q written
 * in decimal gives the rank a person expects: 0.07 * 100 is 7, not 8.)
 * hist_quantile returns the midpoint of the bucket holding that order
 * statistic, clamped to [min, max]; its relative error against the exact
 * order statistic is below 1/256 (0.39%), and it is exact when the order
 * statistic is below 256, is the min (r = 1) or is the max (r = n, so q = 1
 * gives the exact max).
 *
 * hist_add is O(1) and never allocates. Not thread-safe: use one histogram
 * per thread or stream and hist_merge them. */
#ifndef BAKEOFF_HIST_H
#define BAKEOFF_HIST_H
#include <stdint.h>

struct hist;	/* opaque; fixed size (see hist_bytes) */

struct hist *hist_new(void);		/* zeroed; NULL on out of memory */
void hist_free(struct hist *h);		/* NULL is fine */
void hist_reset(struct hist *h);	/* back to empty */
void hist_add(struct hist *h, uint64_t ns);
/* dst += src (counts, sum, min, max). dst == src doubles every count. */
void hist_merge(struct hist *dst, const struct hist *src);

uint64_t hist_count(const struct hist *h);
/* The q-quantile (0 < q <= 1) as defined above; 0 when the histogram is
 * empty; q <= 0 (or NaN) gives the exact min, q >= 1 the exact max. */
double hist_quantile(const struct hist *h, double q);
uint64_t hist_max(const struct hist *h);	/* exact; 0 when empty */
uint64_t hist_min(const struct hist *h);	/* exact; 0 when empty */
/* The exact sum (kept in a 128-bit accumulator) divided by the count in
 * double precision (relative error ~1e-16); 0 when empty. */
double hist_mean(const struct hist *h);
/* Memory one histogram takes (for documentation and tests). */
unsigned long hist_bytes(void);

#endif
