/* t-compare.c — compare's statistics on synthetic samples: the
 * Price–Bonett variance against a hand computation, verdicts for identical
 * distributions (within noise) and for a 10% shift with tight samples
 * (slower or faster by the metric's direction), the between-run interval,
 * bimodal detection, noise floors and which parameters are settings. The
 * samples come from a fixed pseudo-random generator: no real timing. */
#include <math.h>
#include <stdint.h>
#include "tap.h"
#include "report/compare.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static double uniform(void)	/* (0, 1) */
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(uniform())) * cos(6.283185307179586 * uniform());
}

/* n samples of a timing around `center` with relative noise `cv`, and a
 * right tail (an interruption now and then only adds time). */
static void timings(double *x, size_t n, double center, double cv)
{
	size_t i;

	for (i = 0; i < n; i++) {
		x[i] = center * exp(cv * gauss());
		if (uniform() < 0.1)
			x[i] *= 1 + 5 * cv * uniform();
	}
}

static double median(double *x, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++)	/* insertion sort: n is small */
		for (j = i; j > 0 && x[j - 1] > x[j]; j--) {
			double t = x[j];

			x[j] = x[j - 1];
			x[j - 1] = t;
		}
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* trials of A vs B (n samples each, noise cv, B's centre = shift x A's):
 * how many got each verdict */
static void trials(int n_trials, size_t n, double cv, double shift, double floor,
		   enum better better, int counts[5])
{
	double a[64], b[64];
	int t;

	for (t = 0; t < 5; t++)
		counts[t] = 0;
	for (t = 0; t < n_trials; t++) {
		struct cmp_ratio r;

		timings(a, n, 100, cv);
		timings(b, n, 100 * shift, cv);
		compare_ratio_samples(median(a, n), a, n, median(b, n), b, n, &r);
		counts[compare_verdict(&r, floor, better)]++;
	}
}

int main(void)
{
	double one[11] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 }, var, lo, hi, x[64];
	int c[5];
	size_t i;
	struct cmp_ratio r;
	const char *kind;

	/* n = 11: c = round(6 - sqrt 11) = 3, Y(3) = 3, Y(9) = 9; (Y(3), Y(9))
	 * covers the median with 1 - 2 * 67/2048, z = 1.8426 */
	ok(compare_log_median_var(one, 11, &var) == 0, "Price-Bonett variance of 1..11");
	is_num(var, pow(log(3.0) / (2 * 1.84256), 2), 1e-4, "  = ((ln 9 - ln 3) / (2 z))^2");
	ok(compare_log_median_var(one, 2, &var) < 0, "two samples: no variance");
	one[4] = 0;
	ok(compare_log_median_var(one, 11, &var) < 0, "a sample of 0: no variance (logs)");

	/* The CI is centred on the ratio and brackets it. */
	timings(x, 33, 100, 0.02);
	{
		double y[33];

		for (i = 0; i < 33; i++)
			y[i] = 1.1 * x[i];
		compare_ratio_samples(median(x, 33), x, 33, median(y, 33), y, 33, &r);
	}
	ok(r.ci && !r.from_runs, "CI from the samples");
	is_num(r.ratio, 1.1, 1e-12, "ratio of medians 1.1");
	ok(r.lo < 1.1 && r.hi > 1.1 && fabs(log(r.lo / 1.1) + log(r.hi / 1.1)) < 1e-9,
	   "CI symmetric on the log scale around 1.1 (%.4f..%.4f)", r.lo, r.hi);
	compare_ratio_samples(100, NULL, 0, 105, NULL, 0, &r);
	ok(!r.ci && r.lo == r.ratio && r.hi == r.ratio, "no samples (a derived figure): no CI");
	is_int(compare_verdict(&r, 0.03, BETTER_LOWER), CMP_SLOWER,
	       "no CI: +5%% over a 3%% floor is slower");
	is_int(compare_verdict(&r, 0.10, BETTER_LOWER), CMP_WITHIN,
	       "no CI: +5%% under a 10%% floor is within noise");

	/* Identical distributions: within noise, every trial, at every kind's floor. */
	trials(200, 11, 0.03, 1.0, 0.05, BETTER_LOWER, c);
	is_int(c[CMP_WITHIN], 200, "same distribution, 11 samples, 3%% noise, 5%% floor: "
	       "200 of 200 within noise");
	trials(200, 33, 0.10, 1.0, 0.05, BETTER_HIGHER, c);
	is_int(c[CMP_WITHIN], 200, "same distribution, 33 samples, 10%% noise: 200 of 200 within noise");
	trials(200, 33, 0.01, 1.0, 0.0, BETTER_LOWER, c);
	ok(c[CMP_WITHIN] >= 180, "same distribution, no floor: the CI alone keeps >= 90%% within "
	   "noise (%d of 200)", c[CMP_WITHIN]);

	/* A 10% shift with tight samples: slower for a time, faster for a rate. */
	trials(200, 11, 0.01, 1.10, 0.05, BETTER_LOWER, c);
	is_int(c[CMP_SLOWER], 200, "time +10%%, 1%% noise, 5%% floor: 200 of 200 slower");
	trials(200, 11, 0.01, 1.10, 0.05, BETTER_HIGHER, c);
	is_int(c[CMP_FASTER], 200, "bandwidth +10%%: 200 of 200 faster");
	trials(200, 11, 0.01, 1 / 1.10, 0.05, BETTER_LOWER, c);
	is_int(c[CMP_FASTER], 200, "time -10%%: 200 of 200 faster");
	trials(200, 11, 0.01, 1 / 1.10, 0.05, BETTER_HIGHER, c);
	is_int(c[CMP_SLOWER], 200, "bandwidth -10%%: 200 of 200 slower");
	/* ... but not when the floor of its kind is wider than the shift */
	trials(200, 11, 0.01, 1.10, 0.25, BETTER_LOWER, c);
	is_int(c[CMP_WITHIN], 200, "time +10%% under a 25%% floor: within noise");
	/* noisy samples widen the CI past the floor */
	trials(200, 11, 0.30, 1.10, 0.05, BETTER_LOWER, c);
	ok(c[CMP_WITHIN] >= 190, "time +10%% with 30%% noise: within noise (%d of 200)", c[CMP_WITHIN]);

	/* Between-run spread: run medians. */
	{
		double ra[] = { 100, 101, 99, 100 }, rb[] = { 110, 111, 109, 110 };
		double wa[] = { 100, 120, 95 }, wb[] = { 105, 98, 118 };

		ok(compare_ratio_runs(100, ra, 4, 110, rb, 4, &r) == 0 && r.from_runs,
		   "runs: CI from the run medians");
		is_int(compare_verdict(&r, 0.01, BETTER_LOWER), CMP_SLOWER,
		       "runs 100,101,99,100 vs 110,111,109,110: slower (%.3f..%.3f)", r.lo, r.hi);
		ok(compare_ratio_runs(100, wa, 3, 105, wb, 3, &r) == 0, "runs: wide spread");
		is_int(compare_verdict(&r, 0.01, BETTER_LOWER), CMP_WITHIN,
		       "runs 100,120,95 vs 105,98,118: within noise (%.3f..%.3f)", r.lo, r.hi);
		ok(compare_ratio_runs(100, ra, 1, 110, rb, 4, &r) < 0, "one run: no between-run CI");
	}

	/* Bimodal: two levels (this host's memory bandwidth) vs one. */
	for (i = 0; i < 20; i++)
		x[i] = (i % 2 ? 2100 : 6000) * (1 + 0.01 * gauss());
	ok(compare_bimodal(x, 20, 3, &lo, &hi), "two levels, 2100 and 6000: bimodal");
	ok(fabs(lo / 2100 - 1) < 0.02 && fabs(hi / 6000 - 1) < 0.02, "  levels %.0f and %.0f", lo, hi);
	for (i = 0; i < 20; i++)
		x[i] = 2100 * exp(0.05 * gauss());
	ok(!compare_bimodal(x, 20, 3, &lo, &hi), "one level with 5%% noise: not bimodal");
	for (i = 0; i < 20; i++)
		x[i] = 2100 * (1 + 0.01 * gauss());
	x[7] = 9000;
	x[12] = 8000;
	ok(!compare_bimodal(x, 20, 3, &lo, &hi), "two outliers in 20: not bimodal");
	{
		double runs[] = { 2100, 6000, 2110, 5950 };

		ok(compare_bimodal(runs, 4, 2, &lo, &hi), "run medians at two levels: bimodal");
	}

	/* Noise floors by kind; settings. */
	ok(compare_noise_floor("mem.bw.copy", 0, &kind) >
	   compare_noise_floor("proc.syscall.null", 0, NULL),
	   "memory bandwidth's floor is wider than a system call's");
	is_str(kind, "memory bandwidth", "mem.bw.copy is memory bandwidth");
	compare_noise_floor("proc.syscall.null", 0, &kind);
	is_str(kind, "system call", "proc.syscall.null is a system call");
	compare_noise_floor("proc.fork.exit", 0, &kind);
	is_str(kind, "process and scheduler", "proc.fork.exit is process and scheduler");
	compare_noise_floor("zz.new", 0, &kind);
	is_str(kind, "other", "an unknown id gets the default");
	ok(compare_param_is_setting("mem_size_bytes") && compare_param_is_setting("direct") &&
	   compare_param_is_setting("pinned") && compare_param_is_setting("copies"),
	   "sizes, direct, pinning and copies are settings");
	ok(!compare_param_is_setting("checksum") && !compare_param_is_setting("reach_bytes") &&
	   !compare_param_is_setting("tcp_rtt_us"), "checksums and measured facts are not");
	is_str(compare_verdict_name(CMP_WITHIN), "within noise", "verdict names");
	return done_testing();
}
