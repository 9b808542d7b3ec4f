/* t-long.c — the harness's long-operation mode on a fake clock: a
 * 10-second operation measured with --reps 3 and a warm-up takes exactly
 * four operations (and four untimed prepares); the budget is never exceeded
 * by more than one operation; the interval series sums to the total; a
 * time-based operation stops at its duration; a ramp (--warmup DUR) is left
 * out of the figure; latency percentiles and CPU are kept; a sequence of
 * ops runs in rounds, each op its own metric. */
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "harness.h"
#include "result.h"

static uint64_t fake_t;
static uint64_t fake_now(void)
{
	return fake_t;
}

/* The work: `steps` steps of `step_ns` each, `step_amount` bytes each. */
struct work {
	int steps;
	uint64_t step_ns;
	double step_amount;
	int ops, prepares, time_based_steps;
};

static int work_prepare(void *state, struct long_run *lr)
{
	struct work *w = state;

	(void)lr;
	w->prepares++;
	fake_t += 5000000000ull;	/* 5 s of untimed preparation */
	return 0;
}

static int work_op(void *state, struct long_run *lr)
{
	struct work *w = state;
	int i, r;

	w->ops++;
	for (i = 0; i < w->steps; i++) {
		fake_t += w->step_ns;
		long_lat(lr, w->step_ns);
		if ((r = long_progress(lr, w->step_amount)) != 0)
			return r < 0 ? -1 : 0;
	}
	return 0;
}

/* Time-based, slow for its first 2 s (1 MB per step), then 2 MB per step. */
static int ramp_op(void *state, struct long_run *lr)
{
	struct work *w = state;
	uint64_t start = fake_t;
	int r;

	w->ops++;
	do
		fake_t += w->step_ns;
	while ((r = long_progress(lr, fake_t - start <= 2000000000ull ? 1e6 : 2e6)) == 0);
	return r < 0 ? -1 : 0;
}

/* Time-based: a rate that grows for 2 s (1 MB a step, 1 MB more every
 * 0.25 s), then stays at 9 MB a step. */
static int grow_op(void *state, struct long_run *lr)
{
	struct work *w = state;
	uint64_t start = fake_t;
	int r;

	w->ops++;
	do
		fake_t += w->step_ns;
	while ((r = long_progress(lr, fake_t - start <= 2000000000ull ?
				      1e6 * (1 + (double)(fake_t - start) / 2.5e8) : 9e6)) == 0);
	return r < 0 ? -1 : 0;
}

/* Time-based: 1 MB and 3 MB per step in turn, never steady within 1%. */
static int alt_op(void *state, struct long_run *lr)
{
	struct work *w = state;
	int r, k = 0;

	w->ops++;
	do
		fake_t += w->step_ns;
	while ((r = long_progress(lr, k++ % 2 ? 3e6 : 1e6)) == 0);
	return r < 0 ? -1 : 0;
}

/* Time-based: goes on until the harness says the time is up. */
static int timed_op(void *state, struct long_run *lr)
{
	struct work *w = state;
	int r;

	w->ops++;
	do {
		fake_t += w->step_ns;
		w->time_based_steps++;
		long_lat(lr, w->step_ns);
	} while ((r = long_progress(lr, w->step_amount)) == 0);
	return r < 0 ? -1 : 0;
}

/* 1 s of 100 ms steps, then the work in flight: 1 ms more, 121 units
 * (disk.rand's jobs finishing after their time was up). */
static int tail_op(void *state, struct long_run *lr)
{
	struct work *w = state;
	int i;

	w->ops++;
	for (i = 0; i < 10; i++) {
		fake_t += 100000000ull;
		if (long_progress(lr, 1e6) < 0)
			return -1;
	}
	fake_t += 1000000ull;
	return long_progress(lr, 121) < 0 ? -1 : 0;
}

/* A sequence's ops: each appends its letter to the trace and does
 * 10 MB (A) or 20 MB (B) in 1 s. */
static char trace[64];
static int seq_op(void *state, struct long_run *lr)
{
	const char *c = state;
	size_t n = strlen(trace);

	if (n + 1 < sizeof(trace))
		trace[n] = *c;
	fake_t += 1000000000ull;
	return long_progress(lr, *c == 'A' ? 10e6 : 20e6) < 0 ? -1 : 0;
}

/* 2 s of work timed by the op itself (long_start .. long_end), then 3 s
 * of teardown the repetition's time must not include. */
static uint64_t self_t0, self_t1;
static int self_op(void *state, struct long_run *lr)
{
	(void)state;
	self_t0 = long_start(lr);
	fake_t += 2000000000ull;
	if (long_progress(lr, 20e6) < 0)
		return -1;
	self_t1 = long_end(lr);
	fake_t += 3000000000ull;
	return 0;
}

static void fake_harness(struct harness *h)
{
	harness_default_cfg(&h->cfg);
	h->cfg.now = fake_now;
	h->cfg.op_timeout_ns = 0;	/* no real timer against a fake clock */
	h->clk.resolution_ns = 1;
	h->clk.cost_ns = 0;
	h->loop_ns = 0;
}

int main(void)
{
	struct result r = { 0 };
	struct bench_result *br = result_add_bench(&r, "t", "t", "t");
	struct bench_ctx ctx = { .res = br };
	struct harness h;
	struct work w = { .steps = 100, .step_ns = 100000000ull, .step_amount = 1e6 };
	struct long_op lo = {
		.name = "bw", .unit = "MB/s", .kind = KIND_BANDWIDTH, .better = BETTER_HIGHER,
		.state = &w, .prepare = work_prepare, .op = work_op, .total = 100e6,
	};
	const struct metric *m;
	double med = 0, sum;
	size_t i;
	uint64_t t0;

	/* 1. A 10-second operation, --reps 3, one warm-up repetition. */
	fake_harness(&h);
	h.cfg.reps = 3;
	h.cfg.warmup_reps = 1;
	ctx.h = &h;
	ok(harness_long(&ctx, &lo, &med) == 0, "10 s operation measured (%s)", ctx.reason);
	is_int(w.ops, 4, "three timed operations plus the warm-up, not dozens");
	is_int(w.prepares, 4, "an untimed prepare before each");
	is_num(med, 10, 1e-9, "100 MB in 10 s = 10 MB/s (the 5 s prepares are not timed)");
	m = result_metric(br, "bw");
	ok(m && m->nsamples == 3, "one sample per timed repetition");
	ok(m && m->niv == 30, "one interval per second of the timed repetitions (%zu)",
	   m ? m->niv : 0);
	for (i = 0, sum = 0; m && i < m->niv; i++)
		sum += m->iv_amount[i];
	is_num(sum, 300e6, 1e-3, "the interval series sums to the total");
	ok(m && m->niv && m->iv_value[0] == 10 && m->iv_t[0] > 0.99 && m->iv_t[0] < 1.01,
	   "interval 1: 10 MB/s, ending at 1 s");
	ok(m && m->hist_count == 300, "every timed operation's latency counted (%llu)",
	   m ? (unsigned long long)m->hist_count : 0);
	ok(m && !strcmp(m->hist_unit, "ms") && m->hist_p50 > 99 && m->hist_p50 < 101 &&
	   m->hist_max == 100, "p50 and max of 100 ms steps");

	/* 2. The budget: no repetition starts after it, one always runs. */
	fake_harness(&h);
	h.cfg.reps = 10;
	h.cfg.long_budget_ns = 25000000000ull;
	w.ops = w.prepares = 0;
	lo.name = "budget";
	lo.prepare = NULL;
	t0 = fake_t;
	ok(harness_long(&ctx, &lo, &med) == 0, "budgeted run ok");
	ok(fake_t - t0 <= 25000000000ull + 10000000000ull,
	   "the budget (25 s) exceeded by at most one operation: %.1f s",
	   (double)(fake_t - t0) / 1e9);
	is_int(w.ops, 3, "so 3 operations of 10 s, not 10");
	h.cfg.long_budget_ns = 1;
	w.ops = 0;
	lo.name = "budget1";
	ok(harness_long(&ctx, &lo, &med) == 0 && w.ops == 1, "a tiny budget still runs one");

	/* 3. Time-based: 3 s per repetition, 2 repetitions. */
	fake_harness(&h);
	h.cfg.reps = 2;
	h.cfg.duration_ns = 3000000000ull;
	w.ops = w.time_based_steps = 0;
	lo.name = "tb";
	lo.op = timed_op;
	lo.time_based = 1;
	ok(harness_long(&ctx, &lo, &med) == 0, "time-based run ok");
	is_int(w.time_based_steps, 60, "30 steps of 100 ms in each 3 s repetition");
	is_num(med, 10, 1e-9, "its rate: 10 MB/s");

	/* 4. --warmup DUR: the first 2 s of each repetition run but are left
	 * out. The op does 10 MB/s for 2 s, then 20 MB/s; with the ramp the
	 * figure is 20 MB/s (with it counted, 3 s after would give less). */
	fake_harness(&h);
	h.cfg.reps = 1;
	h.cfg.duration_ns = 3000000000ull;
	h.cfg.ramp_ns = 2000000000ull;
	lo.name = "ramp";
	lo.op = ramp_op;
	ok(harness_long(&ctx, &lo, &med) == 0, "ramped run ok");
	is_num(med, 20, 1e-9, "figure from after the ramp only: 20 MB/s");
	m = result_metric(br, "ramp");
	ok(m && m->niv == 3, "3 intervals after the ramp (%zu)", m ? m->niv : 0);
	h.cfg.duration_ns = 0;
	lo.time_based = 0;
	lo.op = work_op;
	w.steps = 10;	/* 1 s: shorter than the 2 s ramp */
	lo.name = "short";
	ctx.reason[0] = 0;
	ok(harness_long(&ctx, &lo, &med) < 0 && strstr(ctx.reason, "ramp"),
	   "an operation shorter than the ramp fails: %s", ctx.reason);

	/* 4b. --steady-state bw:1%:1s, 250 ms intervals (closed every 300 ms
	 * by 100 ms steps): grow_op is steady at 90 MB/s from 2.1 s, so the
	 * four intervals of a window are all at 90 MB/s at 3.3 s; then 5 s are
	 * measured. An op that swings between 1 and 3 MB a step never is: its
	 * ramp ends after the 5 s duration, and it is measured anyway. */
	fake_harness(&h);
	h.cfg.reps = 1;
	h.cfg.duration_ns = 5000000000ull;
	h.cfg.interval_ns = 250000000ull;
	h.cfg.ss_bound = 0.01;
	h.cfg.ss_window_ns = 1000000000ull;
	lo.name = "steady";
	lo.op = grow_op;
	lo.time_based = 1;
	t0 = fake_t;
	ok(harness_long(&ctx, &lo, &med) == 0, "steady-state run ok");
	is_num(med, 90, 1e-9, "measured once steady: 90 MB/s");
	m = result_metric(br, "steady");
	ok(m && m->note && strstr(m->note, "steady after 3.3 s"), "the note says when: %s", m && m->note ? m->note : "");
	ok(fake_t - t0 >= 8300000000ull && fake_t - t0 <= 8400000000ull,
	   "3.3 s of ramp, then the 5 s duration (%.1f s)", (double)(fake_t - t0) / 1e9);
	lo.name = "swing";
	lo.op = alt_op;
	t0 = fake_t;
	ok(harness_long(&ctx, &lo, &med) == 0, "a never-steady run ok");
	m = result_metric(br, "swing");
	ok(m && m->note && strstr(m->note, "never steady in 1 of 1 repetition"), "and says so: %s",
	   m && m->note ? m->note : "");
	ok(fake_t - t0 >= 10000000000ull && fake_t - t0 <= 10200000000ull,
	   "its ramp is the 5 s duration, then 5 s measured (%.1f s)", (double)(fake_t - t0) / 1e9);
	h.cfg.ss_window_ns = 0;
	h.cfg.ss_bound = 0;
	lo.time_based = 0;
	lo.op = work_op;

	/* 5. Rates and latencies: amount is operations. */
	fake_harness(&h);
	h.cfg.reps = 1;
	w.steps = 1000;
	w.step_ns = 1000;	/* 1 us per operation */
	w.step_amount = 1;
	lo.name = "iops";
	lo.unit = "ops/s";
	lo.kind = KIND_RATE;
	ok(harness_long(&ctx, &lo, &med) == 0, "rate measured");
	is_num(med, 1e6, 1e-3, "1 us per operation = 1e6 ops/s");
	lo.name = "lat";
	lo.unit = "us";
	lo.kind = KIND_LATENCY;
	lo.better = BETTER_LOWER;
	ok(harness_long(&ctx, &lo, &med) == 0, "latency measured");
	is_num(med, 1, 1e-9, "1 us per operation");
	m = result_metric(br, "lat");
	ok(m && m->op_ns == 1000, "time per operation kept in ns (%g)", m ? m->op_ns : -1);

	/* 6. The work in flight after the last interval closed (issue 26:
	 * disk.rand's 4 jobs showed 214297 IOPS for 0.6 ms): folded into the
	 * interval before it, within its own repetition. */
	fake_harness(&h);
	h.cfg.reps = 2;
	lo.name = "tail";
	lo.unit = "MB/s";
	lo.kind = KIND_BANDWIDTH;
	lo.better = BETTER_HIGHER;
	lo.op = tail_op;
	lo.time_based = 0;
	ok(harness_long(&ctx, &lo, &med) == 0, "an operation with a tail measured");
	m = result_metric(br, "tail");
	ok(m && m->niv == 2, "one interval per repetition, the tail folded in (%zu)", m ? m->niv : 0);
	for (i = 0, sum = 0; m && i < m->niv; i++)
		sum += m->iv_amount[i];
	is_num(sum, 2 * (10e6 + 121), 1e-9, "no work lost in the fold");
	ok(m && m->niv == 2 && m->iv_value[0] > 9.9 && m->iv_value[0] < 10.1 && m->iv_value[1] > 9.9 &&
	   m->iv_value[1] < 10.1, "each interval about 10 MB/s, no spike (%g, %g)",
	   m && m->niv > 0 ? m->iv_value[0] : 0, m && m->niv > 1 ? m->iv_value[1] : 0);

	/* 7. An op that times itself (net.tcp.bw for ttcp's lines) reads the
	 * harness's own two instants: its time and the figure are one. */
	fake_harness(&h);
	h.cfg.reps = 1;
	lo.name = "self";
	lo.op = self_op;
	ok(harness_long(&ctx, &lo, &med) == 0, "an op that times itself measured");
	is_num((double)(self_t1 - self_t0), 2e9, 0, "its own time: 2 s, from long_start to long_end");
	is_num(med, 10, 1e-12, "the figure is the same 2 s (20 MB / 2 s), the 3 s teardown left out");

	/* 8. A sequence (iozone's cell): rounds of one repetition of each op
	 * in order, a warm-up round first; each op its own metric, in order.
	 * A budget ends a round, never splits one. */
	{
		struct long_op seq[2] = {
			{ .name = "seq A", .unit = "MB/s", .kind = KIND_BANDWIDTH,
			  .better = BETTER_HIGHER, .state = "A", .op = seq_op },
			{ .name = "seq B", .unit = "MB/s", .kind = KIND_BANDWIDTH,
			  .better = BETTER_HIGHER, .state = "B", .op = seq_op },
		};
		double meds[2] = { 0, 0 };
		const struct metric *ma, *mb;

		fake_harness(&h);
		h.cfg.reps = 3;
		h.cfg.warmup_reps = 1;
		memset(trace, 0, sizeof(trace));
		ctx.reason[0] = 0;
		ok(harness_long_seq(&ctx, seq, 2, meds) == 0, "a sequence of two ops measured (%s)",
		   ctx.reason);
		is_str(trace, "ABABABAB", "in rounds: A then B, a warm-up round and three timed");
		ma = result_metric(br, "seq A");
		mb = result_metric(br, "seq B");
		ok(ma && mb && ma < mb, "one metric per op, in the sequence's order");
		ok(ma && ma->nsamples == 3 && mb && mb->nsamples == 3, "three samples each");
		ok(meds[0] == 10 && meds[1] == 20, "each op's own figure: %g and %g MB/s", meds[0],
		   meds[1]);
		fake_harness(&h);
		h.cfg.reps = 10;
		h.cfg.long_budget_ns = 3000000000ull;
		memset(trace, 0, sizeof(trace));
		ctx.reason[0] = 0;
		seq[0].name = "seq A2";
		seq[1].name = "seq B2";
		ok(harness_long_seq(&ctx, seq, 2, NULL) == 0, "a budgeted sequence measured");
		is_str(trace, "ABAB", "the 3 s budget: a round of 2 s, then one more whole round");
	}

	result_free(&r);
	return done_testing();
}
