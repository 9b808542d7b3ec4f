/* t-hist.c — the latency histogram against exact nearest-rank percentiles
 * of known data (sorted copies), within the design bound of 1/256. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "tap.h"
#include "hist.h"

#define BOUND (1.0 / 256)	/* the design bound; the spec asks for <= 1% */

static uint64_t rng = 88172645463325252ull;

static uint64_t xorshift(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double unif(void)	/* [0, 1) */
{
	return (double)(xorshift() >> 11) / 9007199254740992.0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void shuffle(uint64_t *v, size_t n)
{
	size_t i, j;
	uint64_t t;

	for (i = n; i > 1; i--) {
		j = (size_t)(xorshift() % i);
		t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

static double relerr(double got, uint64_t want)
{
	if (want == 0)
		return got == 0 ? 0 : INFINITY;
	return fabs(got - (double)want) / (double)want;
}

/* Exact nearest rank ceil(n * num / den), in integers. */
static uint64_t exact_rank(size_t n, unsigned num, unsigned den)
{
	uint64_t r = ((uint64_t)n * num + den - 1) / den;

	return r < 1 ? 1 : r;
}

/* Feeds v[0..n) to a fresh histogram and checks p50, p90, p99, p99.9, max,
 * min, count and mean against the sorted data; then every q = i/1000. */
static void check_set(const char *what, const uint64_t *v, size_t n)
{
	static const struct { const char *name; unsigned num, den; double q; } pct[] = {
		{ "p50", 50, 100, 0.50 }, { "p90", 90, 100, 0.90 },
		{ "p99", 99, 100, 0.99 }, { "p99.9", 999, 1000, 0.999 },
	};
	struct hist *h = hist_new();
	uint64_t *s = malloc(n * sizeof(*s));
	long double sum = 0;
	double worst = 0;
	size_t i, bad = 0;

	if (!h || !s) {
		ok(0, "%s: out of memory", what);
		exit(1);
	}
	for (i = 0; i < n; i++) {
		hist_add(h, v[i]);
		s[i] = v[i];
		sum += (long double)v[i];
	}
	qsort(s, n, sizeof(*s), cmp_u64);
	is_int(hist_count(h), n, "%s: count", what);
	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
		uint64_t want = s[exact_rank(n, pct[i].num, pct[i].den) - 1];
		double got = hist_quantile(h, pct[i].q), e = relerr(got, want);

		ok(e < BOUND, "%s: %s %.10g vs exact %llu (rel err %.2e)", what, pct[i].name, got,
		   (unsigned long long)want, e);
	}
	ok(hist_quantile(h, 1.0) == (double)s[n - 1], "%s: q=1 is the exact max", what);
	ok(hist_max(h) == s[n - 1], "%s: max exact (%llu)", what, (unsigned long long)hist_max(h));
	ok(hist_min(h) == s[0], "%s: min exact (%llu)", what, (unsigned long long)hist_min(h));
	is_num(hist_mean(h), (double)(sum / n), (double)(sum / n) * 1e-12, "%s: mean", what);
	for (i = 1; i <= 1000; i++) {
		uint64_t want = s[exact_rank(n, (unsigned)i, 1000) - 1];
		double e = relerr(hist_quantile(h, i / 1000.0), want);

		if (e > worst)
			worst = e;
		if (!(e < BOUND))
			bad++;
	}
	ok(bad == 0, "%s: q = 0.001 .. 1: worst rel err %.2e, %zu above 1/256", what, worst, bad);
	free(s);
	hist_free(h);
}

/* Every rank r of v[0..n) (q = r / n) against the sorted data; returns the
 * worst relative error. */
static double sweep(const uint64_t *v, size_t n)
{
	struct hist *h = hist_new();
	uint64_t *s = malloc(n * sizeof(*s));
	double worst = 0;
	size_t i;

	if (!h || !s)
		exit(1);
	for (i = 0; i < n; i++) {
		hist_add(h, v[i]);
		s[i] = v[i];
	}
	qsort(s, n, sizeof(*s), cmp_u64);
	for (i = 1; i <= n; i++) {
		double e = relerr(hist_quantile(h, (double)i / (double)n), s[i - 1]);

		if (e > worst)
			worst = e;
	}
	free(s);
	hist_free(h);
	return worst;
}

int main(void)
{
	enum { N = 200000 };
	static uint64_t v[N], w[N];
	struct hist *a, *b, *c;
	size_t i, n, bad;
	double worst;

	/* uniform 1..100000 */
	for (i = 0; i < 100000; i++)
		v[i] = i + 1;
	shuffle(v, 100000);
	check_set("uniform 1..100000", v, 100000);

	/* log-normal-ish: exp(ln 20 us + 1.2 z), z ~ sum of 12 uniforms - 6 */
	for (i = 0; i < N; i++) {
		double z = -6;
		int k;

		for (k = 0; k < 12; k++)
			z += unif();
		v[i] = (uint64_t)llround(exp(log(20000.0) + 1.2 * z));
	}
	check_set("log-normal", v, N);

	/* bimodal: 99.5% near 1 us, 0.5% near 10 ms */
	for (i = 0; i < 100000; i++)
		v[i] = i < 500 ? 10000000 + xorshift() % 1000 : 1000 + xorshift() % 100;
	shuffle(v, 100000);
	check_set("bimodal", v, 100000);
	a = hist_new();
	for (i = 0; i < 100000; i++)
		hist_add(a, v[i]);
	ok(hist_quantile(a, 0.999) >= 9900000, "bimodal: p99.9 on the slow mode, within 1%% of 10 ms (%.10g)",
	   hist_quantile(a, 0.999));
	ok(hist_quantile(a, 0.99) < 1100, "bimodal: p99 on the fast mode (%.10g)",
	   hist_quantile(a, 0.99));
	ok(hist_quantile(a, 0.995) < 1100 && hist_quantile(a, 0.99501) >= 9900000,
	   "bimodal: the modes meet at rank 99500");
	is_num(hist_mean(a), 0.995 * 1049.5 + 0.005 * 10000499.5,
	       0.995 * 50 + 0.005 * 500, "bimodal: mean near the mixture's mean");
	hist_free(a);

	/* constant: every quantile is the value itself, exactly */
	for (i = 0; i < 1000; i++)
		v[i] = 123457;
	check_set("constant 123457", v, 1000);
	a = hist_new();
	for (i = 0; i < 1000; i++)
		hist_add(a, 123457);
	for (i = 0, bad = 0; i <= 1000; i++)
		bad += hist_quantile(a, i / 1000.0) != 123457;
	ok(bad == 0, "constant: every quantile exactly 123457 (%zu not)", bad);
	hist_free(a);

	/* a single value */
	v[0] = 1000000007;
	check_set("single value", v, 1);
	a = hist_new();
	hist_add(a, 1000000007);
	ok(hist_quantile(a, 0.5) == 1000000007 && hist_quantile(a, 0.999) == 1000000007,
	   "single value: p50 and p99.9 exact");
	is_num(hist_mean(a), 1000000007, 0, "single value: mean exact");
	hist_free(a);

	/* zeros and ones are exact buckets */
	for (i = 0; i < 1000; i++)
		v[i] = i < 600 ? 0 : 1;
	shuffle(v, 1000);
	check_set("600 zeros, 400 ones", v, 1000);
	a = hist_new();
	for (i = 0; i < 1000; i++)
		hist_add(a, v[i]);
	ok(hist_quantile(a, 0.6) == 0 && hist_quantile(a, 0.601) == 1, "0/1: rank 600 is 0, rank 601 is 1");
	is_num(hist_mean(a), 0.4, 1e-15, "0/1: mean");
	hist_reset(a);
	for (i = 0; i < 10; i++)
		hist_add(a, 0);
	ok(hist_quantile(a, 0.5) == 0 && hist_max(a) == 0 && hist_min(a) == 0 && hist_mean(a) == 0,
	   "all zeros: quantile, max, min and mean 0");
	hist_free(a);

	/* near 2^40 and far beyond: no clamping, max exact, sum does not wrap */
	n = 0;
	v[n++] = (1ull << 40) - 1;
	v[n++] = 1ull << 40;
	v[n++] = (1ull << 40) + 1;
	v[n++] = (1ull << 40) + 123456789;
	v[n++] = 1ull << 50;
	v[n++] = 1ull << 63;
	v[n++] = UINT64_MAX - 1;
	v[n++] = UINT64_MAX;
	for (i = 0; i < 2000; i++)
		v[n++] = (uint64_t)ldexp(1 + unif(), 38 + (int)(xorshift() % 26));
	shuffle(v, n);
	check_set("2^38 .. 2^64-1", v, n);
	a = hist_new();
	hist_add(a, UINT64_MAX);
	hist_add(a, UINT64_MAX);
	ok(hist_max(a) == UINT64_MAX && hist_quantile(a, 1) == 18446744073709551615.0,
	   "UINT64_MAX: max exact");
	is_num(hist_mean(a), 18446744073709551615.0, 0, "UINT64_MAX twice: mean (sum past 2^64)");
	hist_reset(a);
	hist_add(a, UINT64_MAX);
	hist_add(a, 1);
	is_num(hist_mean(a), 9223372036854775808.0, 0, "UINT64_MAX + 1: mean 2^63 (carry)");
	hist_reset(a);
	for (i = 0; i < 10; i++)
		hist_add(a, (1ull << 40) + i * 1000000);
	ok(relerr(hist_quantile(a, 0.5), (1ull << 40) + 4000000) < BOUND,
	   "2^40 + small steps: p50 %.13g (rel err %.2e)", hist_quantile(a, 0.5),
	   relerr(hist_quantile(a, 0.5), (1ull << 40) + 4000000));
	hist_free(a);

	/* the rank rule: 1..100, so the k-th smallest is k, exactly */
	a = hist_new();
	for (i = 100; i >= 1; i--)
		hist_add(a, i);
	is_num(hist_quantile(a, 0.07), 7, 0, "1..100: q=0.07 is rank 7 (not 8)");
	is_num(hist_quantile(a, 0.5), 50, 0, "1..100: p50 is rank 50");
	is_num(hist_quantile(a, 0.505), 51, 0, "1..100: q=0.505 is rank ceil(50.5) = 51");
	is_num(hist_quantile(a, 0.9), 90, 0, "1..100: p90 is rank 90");
	is_num(hist_quantile(a, 0.99), 99, 0, "1..100: p99 is rank 99");
	is_num(hist_quantile(a, 0.999), 100, 0, "1..100: p99.9 is rank 100");
	is_num(hist_quantile(a, 0.001), 1, 0, "1..100: q=0.001 is rank 1");
	is_num(hist_quantile(a, 0), 1, 0, "1..100: q=0 gives the min");
	is_num(hist_quantile(a, 2), 100, 0, "1..100: q>1 gives the max");
	hist_free(a);

	/* the bound, every rank: 0..65535 each once, and every octave up to 2^64 */
	for (i = 0; i < 65536; i++)
		v[i] = i;
	shuffle(v, 65536);
	worst = sweep(v, 65536);
	ok(worst < BOUND && worst > 0.9 * BOUND,
	   "0..65535, every rank: worst rel err %.5f, below and near 1/256 = %.5f", worst, BOUND);
	for (n = 0; n < 56 * 300; n++)
		v[n] = (1ull << (8 + n / 300)) | (xorshift() >> (56 - n / 300));
	worst = sweep(v, n);
	ok(worst < BOUND, "300 values in each octave 2^8 .. 2^64, every rank: worst rel err %.5f", worst);

	/* merge: two halves merged equal one histogram fed both */
	for (i = 0; i < N; i++)
		w[i] = (uint64_t)llround(exp(log(50000.0) + 2.0 * (unif() + unif() + unif() - 1.5)));
	a = hist_new();
	b = hist_new();
	c = hist_new();
	if (!a || !b || !c)
		return 1;
	for (i = 0; i < N; i++) {
		hist_add(i % 3 ? a : b, w[i]);
		hist_add(c, w[i]);
	}
	hist_merge(a, b);
	is_int(hist_count(a), N, "merge: count");
	ok(hist_min(a) == hist_min(c) && hist_max(a) == hist_max(c), "merge: min and max");
	is_num(hist_mean(a), hist_mean(c), 0, "merge: mean identical");
	for (i = 0, bad = 0; i <= 10000; i++)
		bad += hist_quantile(a, i / 10000.0) != hist_quantile(c, i / 10000.0);
	ok(bad == 0, "merge: q = 0 .. 1 step 1e-4 identical (%zu differ)", bad);
	hist_reset(b);
	hist_merge(b, c);
	ok(hist_count(b) == N && hist_min(b) == hist_min(c) && hist_quantile(b, 0.99) == hist_quantile(c, 0.99),
	   "merge into an empty histogram");
	hist_reset(b);
	hist_merge(a, b);
	ok(hist_count(a) == N && hist_min(a) == hist_min(c), "merging an empty histogram changes nothing");
	hist_merge(c, c);
	ok(hist_count(c) == 2 * (uint64_t)N && hist_mean(c) == hist_mean(a) &&
	   hist_quantile(c, 0.5) == hist_quantile(a, 0.5), "merge with itself doubles the counts");

	/* reset and empty */
	hist_reset(a);
	ok(hist_count(a) == 0 && hist_quantile(a, 0.5) == 0 && hist_max(a) == 0 && hist_min(a) == 0 &&
	   hist_mean(a) == 0, "reset: empty again, every figure 0");
	hist_add(a, 5000);
	ok(hist_min(a) == 5000 && hist_max(a) == 5000, "after reset the min is the new value");
	ok(hist_bytes() <= 64 * 1024, "fixed memory: %lu bytes", hist_bytes());
	hist_free(a);
	hist_free(b);
	hist_free(c);
	hist_free(NULL);
	return done_testing();
}
