/* harness.h — timing policy: calibration, sampling, overhead subtraction,
 * parallel copies and CPU accounting. Benchmarks never time themselves. */
#ifndef BAKEOFF_HARNESS_H
#define BAKEOFF_HARNESS_H
#include <stdint.h>
#include "affinity.h"
#include "bench.h"
#include "clock.h"
#include "result.h"

struct harness_cfg {
	uint64_t target_ns;	/* minimum length of one sample (default 10 ms; raised to
				 * 1000 clock ticks when the clock is coarser) */
	int samples;		/* samples taken at least (default 11) */
	int max_samples;	/* adaptive ceiling (default 3 x samples) */
	double ci_target;	/* stop adding samples once CI half-width / median is below */
	uint64_t budget_ns;	/* bounds calibration (half of it) and the adaptive extra
				 * samples; the minimum samples always run */
	uint64_t (*now)(void);	/* the clock; tests inject a fake one */
};

struct harness {
	struct harness_cfg cfg;
	struct clock_info clk;
	double loop_ns;		/* per-iteration cost of an empty op loop */
};

/* One measurement: op(state, n) timed, converted by kind. */
struct measure {
	const char *name;	/* metric name, "" for the main figure */
	const char *unit;
	enum bench_kind kind;
	enum better better;
	int (*op)(void *state, uint64_t n);
	void *state;
	double bytes_per_op;	/* KIND_BANDWIDTH */
	double ops_per_call;	/* operations in op(state, 1); 0 means 1 */
	int no_loop_overhead;	/* op(state, n) does not loop n times: no loop cost */
	int detail;		/* a curve point / intermediate figure (see struct metric) */
};

void harness_default_cfg(struct harness_cfg *cfg);
/* Measure the clock and the empty-loop overhead. */
void harness_init(struct harness *h, const struct harness_cfg *cfg);

/* Time one measure and record it as a metric of ctx->res. Returns 0, or
 * -1 with ctx->reason set (op failed, interrupted, time not above overhead). */
int harness_measure(struct bench_ctx *ctx, const struct measure *m, double *median);

/* Run one benchmark (op-style or composite) start to finish, recording
 * its status, metrics, params and CPU usage in br; honours --parallel. */
void harness_run_bench(struct harness *h, const struct bench *b, const struct bench_opts *opt,
		       struct bench_result *br);

/* Value of a per-op time in ns for a kind/unit (exposed for tests). */
double harness_convert(enum bench_kind kind, const char *unit, double ns_per_op,
		       double bytes_per_op);

/* --pin: pin the calling process to the CPU it is on (children forked
 * afterwards inherit it) when ctx->opt->pin is set, saving the old mask in
 * *save for affinity_restore(); records params "pinned" (yes, no,
 * unsupported) and "pinned_cpu". Returns 0, or -1 with ctx->reason set. */
int harness_pin(struct bench_ctx *ctx, struct affinity *save);

/* The run's host facts (caches, memory) for a benchmark to size itself:
 * ctx->opt->host, or, when the caller gave none, read into *tmp. */
const struct sysinfo *harness_host(struct bench_ctx *ctx, struct sysinfo *tmp);

/* fork() for benchmark helpers: the child gets default signal handling and
 * never runs bakeoff's cleanup. */
int harness_fork(void);

#endif
