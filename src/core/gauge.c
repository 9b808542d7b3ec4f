/* gauge.c — the core gauge of gauge.h: a latency-bound chain and a
 * throughput-bound loop, timed back to back with the harness's clock. */
#include <stdint.h>
#include <stdlib.h>
#include "bench.h"
#include "clock.h"
#include "gauge.h"
#include "stats.h"

#define CHAIN_ITERS 8000	/* about 4 cycles each: 10 us at 3.2 GHz */
#define WIDE_ITERS 16000	/* about 2 cycles each on a 4-wide core */
#define ROUNDS 3		/* the median of 3 ratios: an interrupt in one is dropped */

static volatile uint64_t gauge_seed = 0x2545F4914F6CDD1Dull;

#if defined(__GNUC__) || defined(__clang__)
#define KEEP(x) __asm__ volatile("" : "+r"(x))
#else
#define KEEP(x) ((void)0)
#endif

static uint64_t chain(uint64_t n)
{
	uint64_t x = gauge_seed | 1, i;

	for (i = 0; i < n; i++) {
		x = x * 0x9E3779B97F4A7C15ull + i;
		KEEP(x);
	}
	return x;
}

static uint64_t wide(uint64_t n)
{
	uint64_t a = gauge_seed, b = a + 1, c = a + 2, d = a + 3, i;

	for (i = 0; i < n; i++) {
		a += i;
		b ^= a;
		c += b >> 3;
		d ^= c + i;
		KEEP(a);
		KEEP(b);
		KEEP(c);
		KEEP(d);
	}
	return a + b + c + d;
}

double gauge_core(void)
{
	double q[ROUNDS];
	uint64_t t0, t1, t2, s = 0;
	int r, n = 0;

	for (r = 0; r < ROUNDS; r++) {
		t0 = clock_ns();
		s += chain(CHAIN_ITERS);
		t1 = clock_ns();
		s += wide(WIDE_ITERS);
		t2 = clock_ns();
		if (t1 > t0 && t2 > t1)
			q[n++] = ((double)(t2 - t1) / WIDE_ITERS) / ((double)(t1 - t0) / CHAIN_ITERS);
	}
	bench_use(s);
	qsort(q, (size_t)n, sizeof(q[0]), stats_cmp_double);
	return n ? q[n / 2] : 0;
}

double gauge_reference(const double *g, size_t n)
{
	double *b = malloc((n + 1) * sizeof(double)), r;
	size_t i, m = 0;

	if (!b)
		return 0;
	for (i = 0; i < n; i++)
		if (g[i] > 0)
			b[m++] = g[i];
	qsort(b, m, sizeof(*b), stats_cmp_double);
	r = m >= 2 ? b[m / 50 > 1 ? m / 50 : 1] : 0;
	free(b);
	return r;
}

size_t gauge_quiet(const double *v, const double *g, size_t n, double ref, struct gauge_split *s)
{
	double *a = malloc((3 * n + 1) * sizeof(double)), *b = a ? a + n : NULL, *c = a ? a + 2 * n : NULL;
	size_t i, k = 0, o = 0;
	struct stats st;

	if (!a)
		return 0;
	for (i = 0; ref > 0 && i < n; i++) {
		if (!(g[i] > 0))
			continue;
		if (g[i] < GAUGE_SHARED * ref) {
			a[k] = v[i];
			b[k++] = g[i];
		} else {
			c[o++] = v[i];
		}
	}
	if (k < GAUGE_QUIET_MIN || !o) {
		free(a);
		return 0;
	}
	stats_compute(a, k, &st);
	s->quiet = st.median;
	stats_compute(b, k, &st);
	s->quiet_gauge = st.median;
	stats_compute(c, o, &st);
	s->shared = st.median;
	free(a);
	return k;
}
