/* t-changepoint.c — E-divisive with means on series whose change points
 * are known: a clean step, a step in noise, two steps, none, and series too
 * short to split. The noise is a fixed pseudo-random sequence, so every
 * run sees the same numbers. */
#include <math.h>
#include <stdint.h>
#include "tap.h"
#include "changepoint.h"

static uint64_t rng = 88172645463325252ull;

/* Roughly normal noise (sum of 4 uniforms, centred), fixed sequence. */
static double noise(void)
{
	double s = 0;

	for (int i = 0; i < 4; i++) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		s += (double)(rng >> 11) / 9007199254740992.0;
	}
	return (s - 2) * sqrt(3.0);
}

/* Accept a split when the two sides' means differ by more than 6 standard
 * errors of the noise (sd 1 here): a stand-in for history.c's test. */
static int accept(const double *x, size_t n, size_t tau, void *ctx)
{
	double a = 0, b = 0, se;
	size_t i;

	(void)ctx;
	for (i = 0; i < tau; i++)
		a += x[i];
	for (i = tau; i < n; i++)
		b += x[i];
	a /= (double)tau;
	b /= (double)(n - tau);
	se = *(const double *)ctx * sqrt(1.0 / (double)tau + 1.0 / (double)(n - tau));
	return fabs(a - b) > 6 * se;
}

int main(void)
{
	double x[200], q = 0, sd;
	size_t tau = 0, cps[8], n, i;
	int rc;

	/* a clean step: 20 at 10, then 20 at 12 */
	for (i = 0; i < 40; i++)
		x[i] = i < 20 ? 10 : 12;
	rc = cp_best_split(x, 40, 3, &tau, &q);
	ok(rc == 0 && tau == 20, "clean step at 20: found at %zu", tau);
	ok(q > 0, "its statistic is positive (%g)", q);

	/* a 5-sd step at 37 of 100 in noise of sd 1 */
	for (i = 0; i < 100; i++)
		x[i] = 100 + noise() + (i >= 37 ? 5 : 0);
	rc = cp_best_split(x, 100, 3, &tau, &q);
	ok(rc == 0 && tau >= 36 && tau <= 38, "step of 5 sd at 37 in noise: found at %zu", tau);

	/* two steps, at 30 (up 6 sd) and 70 (down 8 sd): both, nothing else */
	for (i = 0; i < 100; i++)
		x[i] = 50 + noise() + (i >= 30 && i < 70 ? 6 : 0) - (i >= 70 ? 2 : 0);
	sd = 1;
	n = cp_segment(x, 100, 3, accept, &sd, cps, 8);
	ok(n == 2 && cps[0] >= 29 && cps[0] <= 31 && cps[1] >= 69 && cps[1] <= 71,
	   "two steps at 30 and 70: %zu found (%zu, %zu)", n, n > 0 ? cps[0] : 0, n > 1 ? cps[1] : 0);

	/* no step: 200 values of noise, no split accepted */
	for (i = 0; i < 200; i++)
		x[i] = 20 + noise();
	n = cp_segment(x, 200, 3, accept, &sd, cps, 8);
	is_int(n, 0, "noise alone: no change point");

	/* a step at the very start is still found, min_size from the edge */
	for (i = 0; i < 30; i++)
		x[i] = i < 3 ? 1 : 9;
	rc = cp_best_split(x, 30, 3, &tau, &q);
	ok(rc == 0 && tau == 3, "step after the first 3: at %zu", tau);

	/* too short to split into two sides of min_size */
	ok(cp_best_split(x, 5, 3, &tau, &q) == -1, "5 values, sides of 3: no split");
	is_int(cp_segment(x, 1, 1, accept, &sd, cps, 8), 0, "one value: no change point");
	is_int(cp_segment(x, 0, 1, accept, &sd, cps, 8), 0, "no value: no change point");

	/* at most max change points are written */
	for (i = 0; i < 100; i++)
		x[i] = (double)((i / 10) % 2) * 50 + noise();
	n = cp_segment(x, 100, 3, accept, &sd, cps, 3);
	is_int(n, 3, "a series of ten steps, max 3: three written");
	ok(n < 2 || (cps[0] < cps[1] && (n < 3 || cps[1] < cps[2])), "in ascending order");
	return done_testing();
}
