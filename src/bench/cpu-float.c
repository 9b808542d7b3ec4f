/* cpu-float.c — a floating-point mix in the style of Whetstone (array
 * arithmetic, procedure calls, conditional jumps, trigonometric and other
 * standard functions), written for bakeoff, in millions of floating-point
 * operations per second (Mops/s).
 *
 * cpu.float: one loop runs five modules on doubles:
 *   arrays     for each of 16 elements: dot += a*b; c = a - b*0.5
 *                                                   4 ops x 16 = 64
 *   calls      a Horner polynomial of degree 7 (a function called twice,
 *              at 1/2 and -1/4), the two values added: 2 x (7 mul + 7 add)
 *              + 1 add                                           = 29
 *   branches   for each element: if (c > a) +1 else -0.5
 *              1 compare + 1 add per element x 16                = 32
 *   trig       for 4 x in (0, pi/2): sum += atan(sin x / cos x)
 *              sin, cos, divide, atan, add = 5 x 4               = 20
 *   functions  for 4 y > 1: sum += sqrt(exp(2 * log y))
 *              log, multiply, exp, sqrt, add = 5 x 4             = 20
 *   result     the five module results added                     =  4
 * 169 operations a loop: every add, subtract, multiply, divide and compare
 * of doubles counts one, and so does every call of sin, cos, atan, log,
 * exp and sqrt (as Whetstone counts its statements, not machine
 * instructions: a library call costs tens of adds, so Mops/s here is not a
 * FLOPS figure, and the figure moves with the C library's libm).
 *
 * Validation, independent of the floating-point code: the arrays and the
 * polynomial hold small integers, so the dot product, the polynomial at
 * 1/2 and -1/4 and the branch count are exact in double and are checked
 * against the same sums done in 64-bit integers; atan(sin x / cos x) = x
 * and sqrt(exp(2 log y)) = y within 1e-9 relative. Inputs come from a seed
 * read at run time (volatile), every loop starts from the same inputs after
 * a compiler barrier (the compiler must reload them, it cannot hoist the
 * loop's work), and each loop's result bits are added to a checksum, which
 * must equal loops x the bits of one loop on a fresh state: a loop that was
 * skipped, merged or computed wrong fails the benchmark. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "cpu-work.h"
#include "harness.h"
#include "result.h"

static volatile uint32_t float_seed = 19960101;

uint32_t cpu_float_seed(void)
{
	return float_seed;
}

static double horner(const double *c, int n, double x)
{
	double p = c[0];
	int k;

	for (k = 1; k < n; k++)
		p = p * x + c[k];
	return p;
}

static double one_loop(struct float_work *w)
{
	double dot = 0, br = 0, trig = 0, fn = 0, poly;
	int k;

	for (k = 0; k < FLT_N; k++) {
		dot += w->a[k] * w->b[k];
		w->c[k] = w->a[k] - w->b[k] * 0.5;
	}
	poly = horner(w->coef, 8, 0.5) + horner(w->coef, 8, -0.25);
	for (k = 0; k < FLT_N; k++) {
		if (w->c[k] > w->a[k])
			br += 1.0;
		else
			br -= 0.5;
	}
	for (k = 0; k < FLT_X; k++)
		trig += atan(sin(w->x[k]) / cos(w->x[k]));
	for (k = 0; k < FLT_X; k++)
		fn += sqrt(exp(2.0 * log(w->y[k])));
	w->dot = dot;
	w->poly = poly;
	w->branch = br;
	w->trig = trig;
	w->fn = fn;
	return dot + poly + br + trig + fn;
}

static uint64_t bits(double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	return u;
}

int cpu_float_loops(void *state, uint64_t n)
{
	struct float_work *w = state;

	CPU_LOOPS(w, n, i, bits(one_loop(w)));
	return 0;
}

static uint32_t next_rand(uint32_t *x)
{
	*x = *x * 1103515245u + 12345u;
	return *x >> 8;
}

static void build(struct float_work *w, uint32_t seed)
{
	uint32_t x = seed;
	int k;

	memset(w, 0, sizeof(*w));
	w->t.seed = seed;
	for (k = 0; k < FLT_N; k++) {
		w->a[k] = (double)((int)(next_rand(&x) % 129) - 64);
		w->b[k] = (double)((int)(next_rand(&x) % 129) - 64);
	}
	for (k = 0; k < 8; k++)
		w->coef[k] = (double)((int)(next_rand(&x) % 17) - 8);
	for (k = 0; k < FLT_X; k++) {
		w->x[k] = 0.05 + 1.4 * (double)(next_rand(&x) % 1000) / 1000;
		w->y[k] = 1.5 + 2.0 * (double)(next_rand(&x) % 1000) / 1000;
	}
}

struct float_work *cpu_float_new(uint32_t seed)
{
	struct float_work *w = malloc(sizeof(*w)), ref;

	if (!w)
		return NULL;
	build(&ref, seed);
	cpu_float_loops(&ref, 1);
	build(w, seed);
	w->expect = ref.t.sum;
	return w;
}

static int near(double v, double want)
{
	return fabs(v - want) <= 1e-9 * fabs(want);
}

int cpu_float_check(const void *state, char *why, size_t n)
{
	const struct float_work *w = state;
	int64_t dot = 0, half = 0, quarter = 0, p4 = 1;
	double br = 0, xs = 0, ys = 0;
	int k;

	if (!w->t.loops) {
		snprintf(why, n, "no loop was run");
		return -1;
	}
	for (k = 0; k < FLT_N; k++) {
		dot += (int64_t)w->a[k] * (int64_t)w->b[k];
		br += w->b[k] < 0 ? 1.0 : -0.5;	/* c > a exactly when b < 0 */
	}
	/* sum c_k x^(7-k) at x = 1/2 is sum c_k 2^k / 2^7; at -1/4, sum c_k (-1)^(7-k) 4^k / 4^7 */
	for (k = 0; k < 8; k++, p4 *= 4) {
		half += (int64_t)w->coef[k] * ((int64_t)1 << k);
		quarter += ((7 - k) % 2 ? -1 : 1) * (int64_t)w->coef[k] * p4;
	}
	for (k = 0; k < FLT_X; k++) {
		xs += w->x[k];
		ys += w->y[k];
	}
	if (w->dot != (double)dot || w->branch != br ||
	    w->poly != (double)half / 128 + (double)quarter / 16384) {
		snprintf(why, n, "exact module results wrong: dot %.17g (want %lld), polynomial %.17g "
			 "(want %.17g), branches %g (want %g)", w->dot, (long long)dot, w->poly,
			 (double)half / 128 + (double)quarter / 16384, w->branch, br);
		return -1;
	}
	if (!near(w->trig, xs) || !near(w->fn, ys)) {
		snprintf(why, n, "function identities off: atan(sin/cos) sums to %.17g (want %.17g), "
			 "sqrt(exp(2 log)) to %.17g (want %.17g)", w->trig, xs, w->fn, ys);
		return -1;
	}
	if (w->t.sum != w->t.loops * w->expect) {
		snprintf(why, n, "checksum after %llu loops is %016llx, expected %016llx",
			 (unsigned long long)w->t.loops, (unsigned long long)w->t.sum,
			 (unsigned long long)(w->t.loops * w->expect));
		return -1;
	}
	return 0;
}

void cpu_float_free(void *state)
{
	free(state);
}

static int float_run(struct bench_ctx *ctx)
{
	struct float_work *w = cpu_float_new(cpu_float_seed());
	struct measure m = {
		.name = "", .unit = "Mops/s", .kind = KIND_RATE, .better = BETTER_HIGHER,
		.op = cpu_float_loops, .state = w, .ops_per_call = CPU_FLOAT_OPS_PER_LOOP,
	};
	int rc;

	result_param_num(ctx->res, "ops_per_loop", CPU_FLOAT_OPS_PER_LOOP);
	rc = cpu_work_run(ctx, &m, cpu_float_check, w ? &w->t : NULL);
	cpu_float_free(w);
	return rc;
}

const struct bench bench_cpu_float = {
	.id = "cpu.float", .group = "cpu", .title = "Floating-point mix (bakeoff-float)",
	.unit = "Mops/s", .better = BETTER_HIGHER, .kind = KIND_RATE, .run = float_run,
};
