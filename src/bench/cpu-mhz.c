/* cpu-mhz.c — the processor's clock rate while it runs (lmbench mhz).
 *
 * cpu.mhz: one operation is one integer add in a single dependent chain
 * (x += a). An add takes exactly one cycle of latency on every current
 * x86, ARM, POWER and RISC-V core, so the time of one add is one cycle and
 * the harness turns it into MHz (10^3 / ns). Unlike /proc/cpuinfo or
 * sysctl, which report a nominal or last-sampled rate, this is the rate
 * the core actually ran at under load, turbo and power limits included.
 *
 * One op() iteration is CHAIN adds, unrolled; the loop counter the harness
 * subtracts once per iteration is then 1/1000 of the time (it runs beside
 * the chain on another execution port, so subtracting it errs by at most
 * 0.1%, towards a higher rate). A register barrier after every add stops
 * the compiler from folding the chain into one multiply-add.
 *
 * lmbench's mhz times several chains of different instructions and takes
 * the greatest common divisor of their times; a single add chain gives
 * the same answer on every core where an add is one cycle, which excludes
 * only relics such as the Pentium 4 (double-pumped adders, half a cycle). */
#include <stdlib.h>
#include "bench.h"
#include "result.h"

#define CHAIN 1000

struct mhz_state {
	uint64_t x, a;
};

static volatile unsigned mhz_seed = 37;

static int mhz_setup(struct bench_ctx *ctx, void **state)
{
	struct mhz_state *s = malloc(sizeof(*s));

	if (!s)
		return -1;
	s->x = mhz_seed;
	s->a = 2 * (uint64_t)mhz_seed + 1;
	ctx->ops_per_call = CHAIN;
	result_param_num(ctx->res, "chain_adds", CHAIN);
	*state = s;
	return 0;
}

#define R10(s) s s s s s s s s s s
#define ADD1 x += a; BENCH_KEEP(x);

static int mhz_op(void *state, uint64_t n)
{
	struct mhz_state *s = state;
	uint64_t x = s->x, a = s->a, i;

	for (i = 0; i < n; i++) {
		R10(R10(R10(ADD1)))
	}
	bench_use(x);
	return 0;
}

static void mhz_teardown(void *state)
{
	free(state);
}

const struct bench bench_cpu_mhz = {
	.id = "cpu.mhz", .group = "cpu", .title = "Clock rate (add chain)",
	.unit = "MHz", .better = BETTER_HIGHER, .kind = KIND_RATE,
	.setup = mhz_setup, .op = mhz_op, .teardown = mhz_teardown,
};
