/* t-stats.c — statistics against hand-computed tables. */
#include "tap.h"
#include "stats.h"

int main(void)
{
	static const struct {
		const char *what;
		double x[16];
		size_t n;
		double median, mean, stddev, cv, lo, hi;
	} cases[] = {
		/* sum of squares 110, /10, sqrt = 3.31662; CI ranks 2 and 10 */
		{ "1..11", { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 }, 11, 6, 6, 3.3166248, 0.5527708, 2, 10 },
		/* even n: median is the mean of the middle two; ss = 32, /7 */
		{ "8 values", { 9, 2, 4, 4, 5, 4, 7, 5 }, 8, 4.5, 5, 2.1380899, 0.4276180, 2, 9 },
		{ "one value", { 5 }, 1, 5, 5, 0, 0, 5, 5 },
		{ "unsorted three", { 3, 1, 2 }, 3, 2, 2, 1, 0.5, 1, 3 },
		{ "constant", { 7, 7, 7, 7, 7 }, 5, 7, 7, 0, 0, 7, 7 },
	};
	struct stats st;
	size_t i, lo, hi;
	double big[100];

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double before = cases[i].x[0];

		ok(stats_compute(cases[i].x, cases[i].n, &st) == 0, "%s: computed", cases[i].what);
		is_int(st.n, cases[i].n, "%s: n", cases[i].what);
		is_num(st.median, cases[i].median, 1e-12, "%s: median", cases[i].what);
		is_num(st.mean, cases[i].mean, 1e-12, "%s: mean", cases[i].what);
		is_num(st.stddev, cases[i].stddev, 1e-6, "%s: stddev", cases[i].what);
		is_num(st.cv, cases[i].cv, 1e-6, "%s: cv", cases[i].what);
		is_num(st.ci_lo, cases[i].lo, 0, "%s: CI low", cases[i].what);
		is_num(st.ci_hi, cases[i].hi, 0, "%s: CI high", cases[i].what);
		is_num(cases[i].x[0], before, 0, "%s: input left unsorted", cases[i].what);
	}
	is_num(st.min, 7, 0, "min");
	ok(stats_compute(big, 0, &st) < 0, "no samples is an error");

	/* Published order-statistic ranks for the 95% CI of the median. */
	stats_median_ci_ranks(100, &lo, &hi);
	ok(lo == 40 && hi == 61, "n=100: ranks 40..61 (got %zu..%zu)", lo, hi);
	stats_median_ci_ranks(11, &lo, &hi);
	ok(lo == 2 && hi == 10, "n=11: ranks 2..10 (got %zu..%zu)", lo, hi);
	stats_median_ci_ranks(3, &lo, &hi);
	ok(lo == 1 && hi == 3, "n=3: clamped to 1..3 (got %zu..%zu)", lo, hi);

	for (i = 0; i < 100; i++)
		big[i] = (double)(100 - i);	/* 100 .. 1 */
	stats_compute(big, 100, &st);
	is_num(st.median, 50.5, 0, "n=100 median");
	is_num(st.ci_lo, 40, 0, "n=100 CI low is the 40th smallest");
	is_num(st.ci_hi, 61, 0, "n=100 CI high is the 61st smallest");
	is_num(st.min, 1, 0, "n=100 min");
	is_num(st.max, 100, 0, "n=100 max");
	return done_testing();
}
