/* hist.c — fixed-memory log-linear latency histogram.
 *
 * Purpose: per-operation latencies of the long-operation mode (one fsync,
 * one request, one round trip) are too many to keep as raw samples, so they
 * are counted in buckets whose width grows with the value, as HdrHistogram
 * does, and p50/p90/p99/p99.9 are read back with a bounded relative error.
 *
 * Method: a value v < 256 has a bucket of its own (index v). For v >= 256
 * with k = floor(log2 v) >= 8 and s = k - 7, the bucket is
 * index = 128 * s + (v >> s): the top 8 significant bits of v pick one of
 * 128 sub-buckets of width 2^s inside [2^k, 2^(k+1)). The index is
 * continuous (k = 7, s = 0 gives index = v) and the last bucket (k = 63)
 * is index 128 * 56 + 255 = 7423, so 7424 64-bit counters cover all of
 * uint64_t: nothing is clamped. A bucket holding v >= 256 starts at
 * L >= 128 * 2^s and is 2^s wide, so its midpoint is within
 * (2^s - 1) / 2 / L < 1/256 of any value in it, relative to that value.
 * Reporting the midpoint clamped to the exact [min, max] can only move it
 * closer to the true value, since the true value lies in [min, max].
 *
 * count, min, max and a 128-bit sum (two uint64_t with carry; C11 has no
 * portable 128-bit integer) are kept exactly beside the buckets. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hist.h"

#define SUB_BITS 7
#define SUB (1u << SUB_BITS)			/* sub-buckets per octave */
#define NBUCKETS (SUB * (64 - SUB_BITS + 1))	/* 7424: last index 128 * 56 + 255 */

struct hist {
	uint64_t n;
	uint64_t min, max;
	uint64_t sum_lo, sum_hi;	/* sum = sum_hi * 2^64 + sum_lo */
	uint64_t count[NBUCKETS];
};

/* floor(log2 v) for v > 0. */
static unsigned ilog2(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
	return 63u - (unsigned)__builtin_clzll(v);
#else
	unsigned k = 0;

	if (v >> 32) { v >>= 32; k += 32; }
	if (v >> 16) { v >>= 16; k += 16; }
	if (v >> 8) { v >>= 8; k += 8; }
	if (v >> 4) { v >>= 4; k += 4; }
	if (v >> 2) { v >>= 2; k += 2; }
	if (v >> 1) k += 1;
	return k;
#endif
}

static unsigned bucket_of(uint64_t v)
{
	unsigned s;

	if (v < 2 * SUB)
		return (unsigned)v;
	s = ilog2(v) - SUB_BITS;
	return (s << SUB_BITS) + (unsigned)(v >> s);
}

/* Lowest value of bucket i and its width - 1. */
static void bucket_range(unsigned i, uint64_t *lo, uint64_t *span)
{
	unsigned s;

	if (i < 2 * SUB) {
		*lo = i;
		*span = 0;
		return;
	}
	s = (i >> SUB_BITS) - 1;
	*lo = (uint64_t)(SUB + (i & (SUB - 1))) << s;
	*span = ((uint64_t)1 << s) - 1;
}

struct hist *hist_new(void)
{
	return calloc(1, sizeof(struct hist));
}

void hist_free(struct hist *h)
{
	free(h);
}

void hist_reset(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

unsigned long hist_bytes(void)
{
	return (unsigned long)sizeof(struct hist);
}

static void add_sum(struct hist *h, uint64_t lo, uint64_t hi)
{
	uint64_t old = h->sum_lo;

	h->sum_lo += lo;
	h->sum_hi += hi + (h->sum_lo < old);
}

void hist_add(struct hist *h, uint64_t ns)
{
	if (h->n == 0 || ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->n++;
	add_sum(h, ns, 0);
	h->count[bucket_of(ns)]++;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned i, lo, hi;
	uint64_t slo, shi;

	if (src->n == 0)
		return;
	lo = bucket_of(src->min);
	hi = bucket_of(src->max);
	for (i = lo; i <= hi; i++)
		dst->count[i] += src->count[i];
	if (dst->n == 0 || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	slo = src->sum_lo;	/* read before writing: dst may be src */
	shi = src->sum_hi;
	dst->n += src->n;
	add_sum(dst, slo, shi);
}

uint64_t hist_count(const struct hist *h)
{
	return h->n;
}

uint64_t hist_max(const struct hist *h)
{
	return h->max;
}

uint64_t hist_min(const struct hist *h)
{
	return h->n ? h->min : 0;
}

double hist_mean(const struct hist *h)
{
	if (h->n == 0)
		return 0;
	return ((double)h->sum_hi * 18446744073709551616.0 + (double)h->sum_lo) / (double)h->n;
}

/* The nearest rank ceil(q * n) in [1, n]; see hist.h. */
static uint64_t rank_of(double q, uint64_t n)
{
	double x = ceil(q * (double)n * (1.0 - 4 * DBL_EPSILON));

	if (x >= (double)n)
		return n;
	if (x < 1)
		return 1;
	return (uint64_t)x;
}

double hist_quantile(const struct hist *h, double q)
{
	uint64_t r, cum = 0, lo, span;
	unsigned i, first, last;
	double mid;

	if (h->n == 0)
		return 0;
	if (!(q > 0))
		return (double)h->min;
	r = rank_of(q, h->n);
	if (r == 1)
		return (double)h->min;
	if (r == h->n)
		return (double)h->max;
	first = bucket_of(h->min);
	last = bucket_of(h->max);
	if (r <= h->n / 2) {
		/* from the bottom: the bucket where the running count reaches r */
		for (i = first; i < last; i++) {
			cum += h->count[i];
			if (cum >= r)
				break;
		}
	} else {
		/* from the top: the first bucket (going down) where the values
		 * above it plus its own exceed the n - r values above rank r */
		for (i = last; i > first; i--) {
			cum += h->count[i];
			if (cum > h->n - r)
				break;
		}
	}
	bucket_range(i, &lo, &span);
	mid = (double)lo + (double)span / 2;
	if (mid < (double)h->min)
		return (double)h->min;
	if (mid > (double)h->max)
		return (double)h->max;
	return mid;
}
