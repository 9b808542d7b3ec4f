/* t-harness.c — calibration and overhead subtraction on operations of
 * known cost: a fake clock where every read costs 20 ns, every loop
 * iteration 5 ns and every operation 100 ns must give exactly 100 ns; a
 * real busy-wait of 2 us must come out at 2 us; all-overhead work must
 * fail instead of reporting zero; --parallel copies aggregate (averaging
 * times, adding throughputs); --ci-target samples until the interval is
 * narrow enough or the budget is spent, and records a miss; a set of
 * measures sampled in rounds keeps their ratio on a machine that drifts,
 * where measuring one after the other does not; --warmup leaves a slow
 * start out. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "clock.h"
#include "harness.h"
#include "result.h"

static uint64_t fake_t;
static uint64_t fake_op_ns = 100, fake_loop_ns = 5;

static uint64_t fake_now(void)
{
	fake_t += 20;	/* each read of the clock costs 20 ns */
	return fake_t;
}

static int fake_op(void *state, uint64_t n)
{
	(void)state;
	fake_t += n * (fake_op_ns + fake_loop_ns);
	return 0;
}

/* Noisy on the fake clock: every other call costs 30% more, so the CI of
 * the median never narrows below about +-15%. */
static int noisy_op(void *state, uint64_t n)
{
	static unsigned calls;

	(void)state;
	fake_t += n * (fake_op_ns + fake_loop_ns + (calls++ % 2 ? 30 : 0));
	return 0;
}

static int spin_op(void *state, uint64_t n)
{
	uint64_t i, end;

	(void)state;
	for (i = 0; i < n; i++) {
		end = clock_ns() + 2000;
		while (clock_ns() < end)
			;
	}
	return 0;
}

static int failing_op(void *state, uint64_t n)
{
	(void)state;
	(void)n;
	return -1;
}

/* A machine that slows down 0.2% with every call: an op of state's cost
 * (ns per iteration) times the drift. */
static double drift = 1;

static int drift_op(void *state, uint64_t n)
{
	fake_t += (uint64_t)((double)n * (*(double *)state * drift) + (double)(n * fake_loop_ns));
	drift += 0.002;
	return 0;
}

/* A machine that runs at half speed until the fake clock reaches
 * cold_until (a virtual CPU coming back from idle). */
static uint64_t cold_until;

static int cold_op(void *state, uint64_t n)
{
	(void)state;
	fake_t += n * ((fake_t < cold_until ? 2 : 1) * fake_op_ns + fake_loop_ns);
	return 0;
}

static const struct bench spin_bench = {
	.id = "test.spin", .group = "test", .title = "2 us busy wait", .unit = "us",
	.better = BETTER_LOWER, .kind = KIND_LATENCY, .op = spin_op,
};

static int fake_bw_setup(struct bench_ctx *ctx, void **state)
{
	ctx->bytes_per_op = 1000;	/* 1000 bytes per 100 ns: 10000 MB/s */
	*state = NULL;
	return 0;
}

static const struct bench fake_lat_bench = {
	.id = "test.fake", .group = "test", .title = "100 ns on the fake clock", .unit = "ns",
	.better = BETTER_LOWER, .kind = KIND_LATENCY, .op = fake_op,
};

static const struct bench fake_bw_bench = {
	.id = "test.fakebw", .group = "test", .title = "10 GB/s on the fake clock", .unit = "MB/s",
	.better = BETTER_HIGHER, .kind = KIND_BANDWIDTH, .setup = fake_bw_setup, .op = fake_op,
};

static void fake_harness(struct harness *h)
{
	harness_default_cfg(&h->cfg);
	h->cfg.now = fake_now;
	h->clk.resolution_ns = 20;
	h->clk.cost_ns = 20;
	h->clk.source = "fake";
	h->loop_ns = (double)fake_loop_ns;
}

int main(void)
{
	struct result r = { 0 };
	struct bench_result *br = result_add_bench(&r, "t", "t", "t");
	struct bench_ctx ctx = { .res = br };
	struct harness h;
	struct measure m = { .name = "", .unit = "ns", .kind = KIND_LATENCY, .op = fake_op };
	const struct metric *met;
	double med = 0;
	size_t i;

	/* 1. Exact subtraction with the fake clock. */
	fake_harness(&h);
	ctx.h = &h;
	ok(harness_measure(&ctx, &m, &med) == 0, "fake op measured");
	is_num(med, 100, 1e-9, "timer (20 ns/sample) and loop (5 ns/iteration) overhead subtracted");
	met = result_metric(br, "");
	ok(met && met->nsamples >= 11, "at least 11 samples kept (%zu)", met ? met->nsamples : 0);
	ok(met && met->iterations * 105 >= h.cfg.target_ns, "calibrated to the 10 ms target (n=%llu)",
	   met ? (unsigned long long)met->iterations : 0);
	ok(met && met->iterations * 105 < 3 * h.cfg.target_ns, "calibration does not overshoot 3x");
	ok(met && met->overhead_ns == 20 + 5.0 * (double)met->iterations, "overhead recorded");
	for (i = 0; met && i < met->nsamples; i++)
		if (met->samples[i] != 100)
			break;
	ok(met && i == met->nsamples, "every raw sample is corrected");

	/* Without subtraction the figure would be 105 and a bit: the test can fail. */
	h.loop_ns = 0;
	h.clk.cost_ns = 0;
	m.name = "raw";
	harness_measure(&ctx, &m, &med);
	ok(med > 105, "same op without subtraction reads %.4f ns (> 105)", med);

	/* 2. Units. */
	fake_harness(&h);
	m.name = "bw";
	m.unit = "MB/s";
	m.kind = KIND_BANDWIDTH;
	m.bytes_per_op = 1000;	/* 1000 bytes per 100 ns = 10 GB/s */
	harness_measure(&ctx, &m, &med);
	is_num(med, 10000, 1e-6, "bandwidth: 1000 B / 100 ns = 10000 MB/s");
	m.name = "rate";
	m.unit = "MHz";
	m.kind = KIND_RATE;
	m.ops_per_call = 4;	/* each op() iteration does 4 operations: 25 ns each */
	harness_measure(&ctx, &m, &med);
	is_num(med, 40, 1e-6, "rate: 25 ns per operation = 40 MHz");
	is_num(harness_convert(KIND_LATENCY, "us", 2500, 0), 2.5, 1e-12, "2500 ns = 2.5 us");
	is_num(harness_convert(KIND_LATENCY, "ms", 2.5e6, 0), 2.5, 1e-12, "2.5e6 ns = 2.5 ms");
	is_num(harness_convert(KIND_BANDWIDTH, "GB/s", 1, 4), 4, 1e-12, "4 B/ns = 4 GB/s");
	is_num(harness_convert(KIND_RATE, "ops/s", 1000, 0), 1e6, 1e-6, "1 us = 1e6 ops/s");

	/* 3. All overhead, no work: a failure of method, not a zero. */
	fake_op_ns = 0;
	m.name = "empty";
	m.unit = "ns";
	m.kind = KIND_LATENCY;
	m.ops_per_call = 0;
	ctx.reason[0] = 0;
	ok(harness_measure(&ctx, &m, &med) < 0, "op with no cost beyond overhead fails");
	ok(strstr(ctx.reason, "not above the harness overhead") != NULL, "reason: %s", ctx.reason);
	ok(result_metric(br, "empty") == NULL, "no figure recorded for it");
	fake_op_ns = 100;

	/* A failing op marks failure with the errno text. */
	m.op = failing_op;
	m.name = "fail";
	ctx.reason[0] = 0;
	ok(harness_measure(&ctx, &m, &med) < 0 && strstr(ctx.reason, "operation failed"),
	   "failing op: %s", ctx.reason);

	/* 3b. --ci-target: an exact op meets 2% with the minimum samples; a
	 * noisy one samples past the 3x ceiling until the budget is spent, and
	 * the figure records the target and the half-width it reached. */
	{
		uint64_t t0;

		fake_harness(&h);
		h.cfg.ci_target = 0.02;
		h.cfg.ci_target_given = 1;
		h.cfg.max_samples = 100000;
		h.cfg.budget_ns = 1000000000ull;	/* 1 s of the fake clock: ~100 samples */
		m.op = fake_op;
		m.name = "ci-exact";
		harness_measure(&ctx, &m, &med);
		met = result_metric(br, "ci-exact");
		ok(met && met->nsamples == 11, "--ci-target 2%%, no noise: the 11 samples suffice (%zu)",
		   met ? met->nsamples : 0);
		ok(met && met->ci_target == 0.02 && met->ci_reached == 0,
		   "  target 2%% recorded, met (reached %g)", met ? met->ci_reached : -1);
		m.op = noisy_op;
		m.name = "ci-noisy";
		t0 = fake_t;
		harness_measure(&ctx, &m, &med);
		met = result_metric(br, "ci-noisy");
		ok(met && met->nsamples > 33, "--ci-target 2%%, noisy: past the 3x ceiling (%zu samples)",
		   met ? met->nsamples : 0);
		ok(fake_t - t0 <= h.cfg.budget_ns + 2 * h.cfg.target_ns,
		   "  until the budget is spent (%.3f s of 1 s)", (double)(fake_t - t0) / 1e9);
		ok(met && met->ci_target == 0.02 && met->ci_reached > 0.02,
		   "  the miss is recorded: +-%.1f%% reached", met ? met->ci_reached * 100 : -1);
		m.op = fake_op;
	}

	/* 3c. Two ops of 100 and 300 ns on a machine that slows down call by
	 * call: sampled in rounds, their ratio stays 3; one after the other,
	 * the second is measured on a slower machine. */
	{
		double cost[2] = { 100, 300 }, meds[2], seq[2];
		struct measure ms[2] = {
			{ .name = "d100", .unit = "ns", .kind = KIND_LATENCY, .op = drift_op, .state = &cost[0] },
			{ .name = "d300", .unit = "ns", .kind = KIND_LATENCY, .op = drift_op, .state = &cost[1] },
		};
		const struct metric *m1, *m2;

		fake_harness(&h);
		drift = 1;
		ok(harness_measure_set(&ctx, ms, 2, meds) == 0, "a set of two measures");
		m1 = result_metric(br, "d100");
		m2 = result_metric(br, "d300");
		ok(m1 && m2 && m1->nsamples == m2->nsamples && m1->nsamples >= 11,
		   "  both recorded, with as many samples (%zu)", m1 ? m1->nsamples : 0);
		ok(fabs(meds[1] / meds[0] / 3 - 1) < 0.005,
		   "  interleaved: ratio %.4f (3 within 0.5%%) though the machine slowed %.0f%%",
		   meds[1] / meds[0], (drift - 1) * 100);
		drift = 1;
		ms[0].name = "s100";
		ms[1].name = "s300";
		harness_measure(&ctx, &ms[0], &seq[0]);
		harness_measure(&ctx, &ms[1], &seq[1]);
		ok(fabs(seq[1] / seq[0] / 3 - 1) > 0.01,
		   "  one after the other: ratio %.4f (the check above can fail)", seq[1] / seq[0]);
	}

	/* 3d. --warmup on a calibrated loop: a machine at half speed for its
	 * first 0.5 s reads 200 ns without it; after 1 s of untimed calls, or
	 * 100 samples thrown away, every sample reads 100 ns, and the result
	 * says which warm-up ran. */
	{
		static const struct {
			uint64_t ramp_ns;
			int reps;
			const char *what, *param;
		} w[] = {
			{ 0, 0, "no --warmup", NULL },
			{ 1000000000ull, 0, "--warmup 1s", "warmup_s" },
			{ 0, 100, "--warmup 100", "warmup_samples" },
		};
		struct measure cm = { .name = "", .unit = "ns", .kind = KIND_LATENCY, .op = cold_op };
		struct bench_ctx wctx = { .h = &h };

		for (i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
			const struct param *ps, *pn;

			fake_harness(&h);
			h.cfg.ramp_ns = w[i].ramp_ns;
			h.cfg.warmup_reps = w[i].reps;
			wctx.res = result_add_bench(&r, w[i].what, "w", "w");
			cold_until = fake_t + 500000000ull;
			harness_measure(&wctx, &cm, &med);
			met = result_metric(wctx.res, "");
			ps = result_param(wctx.res, "warmup_s");
			pn = result_param(wctx.res, "warmup_samples");
			if (!w[i].param) {
				ok(met && met->st.min == 200 && met->st.max == 200 && !ps && !pn,
				   "%s: every sample the cold machine's 200 ns, no warm-up recorded",
				   w[i].what);
				continue;
			}
			ok(met && met->st.min == 100 && met->st.max == 100,
			   "%s: every sample 100 ns (%g..%g)", w[i].what, met ? met->st.min : -1,
			   met ? met->st.max : -1);
			ok(ps ? !pn && ps->num == 1 : pn && pn->num == 100, "  %s recorded", w[i].param);
		}
	}

	/* 4. Real clock: a 2 us busy wait per operation. */
	{
		struct harness_cfg cfg;
		struct bench_opts opt = { .parallel = 1 };
		struct bench_result *sb = result_add_bench(&r, "s", "s", "s");

		harness_default_cfg(&cfg);
		cfg.target_ns = 1000000;
		cfg.samples = 5;
		cfg.max_samples = 9;
		harness_init(&h, &cfg);
		ok(h.clk.resolution_ns > 0 && h.clk.resolution_ns < 1e6, "clock resolution %.0f ns",
		   h.clk.resolution_ns);
		ok(h.clk.cost_ns > 0 && h.clk.cost_ns < 1e5, "clock cost %.1f ns", h.clk.cost_ns);
		ok(h.loop_ns >= 0 && h.loop_ns < 50, "loop overhead %.2f ns/iteration", h.loop_ns);
		harness_run_bench(&h, &spin_bench, &opt, sb);
		is_int(sb->status, ST_OK, "busy-wait benchmark ok");
		met = result_metric(sb, "");
		ok(met && met->st.median > 1.95 && met->st.median < 10,	/* load only adds */
		   "2 us busy wait measured as %.3f us", met ? met->st.median : -1);
		ok(sb->user_s + sb->sys_s > 0, "CPU time recorded (%.3f s)", sb->user_s + sb->sys_s);
	}

	/* 5. Parallel copies, on the fake clock so that each copy's figure is
	 * exact whatever the machine's load: times per operation average,
	 * throughputs add, each copy's median is kept. */
	{
		struct bench_opts opt = { .parallel = 2 };
		struct bench_result *pb = result_add_bench(&r, "p", "p", "p"), *pw;

		fake_harness(&h);
		harness_run_bench(&h, &fake_lat_bench, &opt, pb);
		is_int(pb->status, ST_OK, "2 parallel copies ok (%s)", pb->reason ? pb->reason : "");
		met = result_metric(pb, "");
		ok(met && met->ncopies == 2 && met->per_copy[0] == 100 && met->per_copy[1] == 100,
		   "each copy's median kept");
		ok(met && met->st.median == 100, "latency averaged over the copies: %.3f ns (a sum "
		   "would be 200)", met ? met->st.median : -1);
		ok(result_param(pb, "parallel") && result_param(pb, "parallel")->num == 2,
		   "parallel recorded as a parameter");
		pw = result_add_bench(&r, "w", "w", "w");	/* moves pb: done with it */
		harness_run_bench(&h, &fake_bw_bench, &opt, pw);
		met = result_metric(pw, "");
		ok(pw->status == ST_OK && met && met->st.median == 20000,
		   "bandwidth added over the copies: %.0f MB/s (10000 each)", met ? met->st.median : -1);
	}
	result_free(&r);
	return done_testing();
}
