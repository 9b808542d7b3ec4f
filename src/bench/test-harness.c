/* test-harness.c — benchmarks that exist only in the test build
 * (bakeoff-testing, compiled with -DBAKEOFF_TESTING) to prove the harness's
 * guarantees end to end: a crash fails only its benchmark, Ctrl-C ends a
 * run within a second even when a benchmark ignores it, --op-timeout ends
 * an operation that blocks forever, a failure is reported with its reason,
 * a long operation shows its progress and intervals, and compare's verdicts
 * hold with real timing noise (test.work). */
#ifdef BAKEOFF_TESTING
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "harness.h"
#include "scratch.h"

/* test.ok: a few nanoseconds of real work (four dependent multiply-adds,
 * several times the loop overhead even when a busy host inflates the
 * overhead's calibration), always fine. */
static int ok_op(void *state, uint64_t n)
{
	uint64_t i, x = (uint64_t)(uintptr_t)state;
	int k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < 4; k++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			BENCH_KEEP(x);
		}
	}
	bench_use(x);
	return 0;
}

/* test.work: --test-work N units of work per operation, each one step of
 * a dependent multiply-add chain (about one multiply's latency), so that
 * work 110 is 10% more than work 100 whatever the clock: compare's
 * verdicts are measured on it with real timing noise (tests/e2e/verdicts.t).
 * test.work2 is the same with --test-work2 N, so that one run with
 * --runs K measures two amounts of work interleaved in time. */
struct work {
	uint64_t units, seed;
};

static int work_setup(struct bench_ctx *ctx, void **state)
{
	struct work *w = malloc(sizeof(*w));
	int units = strcmp(ctx->b->id, "test.work2") ? ctx->opt->test_work : ctx->opt->test_work2;

	if (!w) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
	w->units = units > 0 ? (uint64_t)units : 100;
	w->seed = (uint64_t)(uintptr_t)w;
	result_param_num(ctx->res, "work_units", (double)w->units);
	*state = w;
	return 0;
}

static int work_op(void *state, uint64_t n)
{
	const struct work *w = state;
	uint64_t i, j, x = w->seed;

	for (i = 0; i < n; i++)
		for (j = 0; j < w->units; j++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			BENCH_KEEP(x);
		}
	bench_use(x);
	return 0;
}

static void work_teardown(void *state)
{
	free(state);
}

/* test.segv: dies of SIGSEGV, as a NULL dereference would; raised with the
 * default disposition so that a sanitizer build, which catches a real NULL
 * load itself and exits 1, dies of the signal too. */
static int segv_op(void *state, uint64_t n)
{
	(void)state;
	(void)n;
	signal(SIGSEGV, SIG_DFL);
	raise(SIGSEGV);
	return -1;
}

/* test.fail: fails with a reason. */
static int fail_setup(struct bench_ctx *ctx, void **state)
{
	(void)state;
	snprintf(ctx->reason, sizeof(ctx->reason), "deliberate failure of a test benchmark");
	return -1;
}

/* test.sleep: a long operation that sleeps for an hour in 10 ms naps and
 * ignores interrupts, with a file in the scratch directory; the parent must
 * end it within a second of Ctrl-C. */
static int sleep_prepare(void *state, struct long_run *lr)
{
	char path[4096];
	FILE *f;

	(void)state;
	(void)lr;
	if (scratch_file(path, sizeof(path), "test-sleep") < 0 || !(f = fopen(path, "w")))
		return -1;
	fputs("scratch file of test.sleep\n", f);
	return fclose(f);
}

static int sleep_op(void *state, struct long_run *lr)
{
	struct timespec nap = { 0, 10000000 };
	int i;

	(void)state;
	for (i = 0; i < 360000; i++) {
		nanosleep(&nap, NULL);
		long_progress(lr, 1);	/* its answer (stop!) is ignored on purpose */
	}
	return 0;
}

/* test.block: blocks forever in read() on a pipe nobody writes to; only the
 * op timeout (EINTR from the harness's timer) gets it out. */
static int block_op(void *state, struct long_run *lr)
{
	int fd[2];
	char c;
	ssize_t r;

	(void)state;
	(void)lr;
	if (pipe(fd) < 0)
		return -1;
	r = read(fd[0], &c, 1);
	close(fd[0]);
	close(fd[1]);
	return r == 1 ? 0 : -1;
}

/* test.stuck: ignores EINTR too, so the harness ends its process. */
static int stuck_op(void *state, struct long_run *lr)
{
	int fd[2];
	char c;

	(void)state;
	(void)lr;
	if (pipe(fd) < 0)
		return -1;
	while (read(fd[0], &c, 1) < 0 && errno == EINTR)
		;
	return 0;
}

/* test.long: 1 MB of memset per 10 ms nap, for the --duration (a
 * time-based long operation with progress and intervals). */
static int long_op_fn(void *state, struct long_run *lr)
{
	static char buf[1 << 20];
	struct timespec nap = { 0, 10000000 };
	int r;

	(void)state;
	do {
		uint64_t t0 = long_now(lr);

		memset(buf, (int)(t0 & 0xff), sizeof(buf));
		nanosleep(&nap, NULL);
		long_lat(lr, long_now(lr) - t0);
	} while ((r = long_progress(lr, sizeof(buf))) == 0);
	bench_use((uint64_t)buf[12345]);
	return r < 0 ? -1 : 0;
}

static int run_long(struct bench_ctx *ctx, int (*op)(void *, struct long_run *),
		    int (*prepare)(void *, struct long_run *), int time_based)
{
	struct long_op lo = {
		.name = "", .unit = ctx->b->unit, .kind = ctx->b->kind, .better = ctx->b->better,
		.op = op, .prepare = prepare, .time_based = time_based,
		.duration_ns = 2000000000ull,
	};

	return harness_long(ctx, &lo, NULL);
}

static int sleep_run(struct bench_ctx *ctx)
{
	return run_long(ctx, sleep_op, sleep_prepare, 0);
}
static int block_run(struct bench_ctx *ctx)
{
	return run_long(ctx, block_op, NULL, 0);
}
static int stuck_run(struct bench_ctx *ctx)
{
	return run_long(ctx, stuck_op, NULL, 0);
}
static int long_run_fn(struct bench_ctx *ctx)
{
	return run_long(ctx, long_op_fn, NULL, 1);
}

const struct bench bench_test_ok = {
	.id = "test.ok", .group = "test", .title = "Test: a fine benchmark", .unit = "ns",
	.better = BETTER_LOWER, .kind = KIND_LATENCY, .op = ok_op,
};
const struct bench bench_test_work = {
	.id = "test.work", .group = "test", .title = "Test: --test-work units per operation",
	.unit = "ns", .better = BETTER_LOWER, .kind = KIND_LATENCY, .setup = work_setup,
	.op = work_op, .teardown = work_teardown,
};
const struct bench bench_test_work2 = {
	.id = "test.work2", .group = "test", .title = "Test: --test-work2 units per operation",
	.unit = "ns", .better = BETTER_LOWER, .kind = KIND_LATENCY, .setup = work_setup,
	.op = work_op, .teardown = work_teardown,
};
const struct bench bench_test_segv = {
	.id = "test.segv", .group = "test", .title = "Test: dies of SIGSEGV", .unit = "ns",
	.better = BETTER_LOWER, .kind = KIND_LATENCY, .op = segv_op,
};
const struct bench bench_test_fail = {
	.id = "test.fail", .group = "test", .title = "Test: fails in setup", .unit = "ns",
	.better = BETTER_LOWER, .kind = KIND_LATENCY, .setup = fail_setup, .op = ok_op,
};
const struct bench bench_test_sleep = {
	.id = "test.sleep", .group = "test", .title = "Test: sleeps an hour, ignoring Ctrl-C",
	.unit = "ops/s", .better = BETTER_HIGHER, .kind = KIND_RATE, .long_mode = 1,
	.run = sleep_run,
};
const struct bench bench_test_block = {
	.id = "test.block", .group = "test", .title = "Test: blocks forever in read()",
	.unit = "ops/s", .better = BETTER_HIGHER, .kind = KIND_RATE, .long_mode = 1,
	.run = block_run,
};
const struct bench bench_test_stuck = {
	.id = "test.stuck", .group = "test", .title = "Test: blocks and ignores EINTR",
	.unit = "ops/s", .better = BETTER_HIGHER, .kind = KIND_RATE, .long_mode = 1,
	.run = stuck_run,
};
const struct bench bench_test_long = {
	.id = "test.long", .group = "test", .title = "Test: 1 MB per 10 ms, time-based",
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH, .long_mode = 1,
	.run = long_run_fn,
};
#else
typedef int test_harness_not_built;	/* ISO C wants something in a file */
#endif
