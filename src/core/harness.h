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
	int ci_target_given;	/* --ci-target given: max_samples is set by the budget, and
				 * each figure records the target and what it reached */
	uint64_t budget_ns;	/* bounds calibration (half of it) and the adaptive extra
				 * samples; the minimum samples always run */
	uint64_t (*now)(void);	/* the clock; tests inject a fake one */
	/* Every operation call (and every wait a long operation makes on another
	 * process or peer) that lasts longer fails the benchmark "timed out"
	 * (--op-timeout; 0 = never). */
	uint64_t op_timeout_ns;
	/* Long operations (harness_long): */
	int reps;		/* timed repetitions (--reps; default 3, 1 with --quick) */
	uint64_t duration_ns;	/* --duration: a time-based op runs this long per
				 * repetition; an amount-based op repeats until it has
				 * passed (0: use reps only) */
	int warmup_reps;	/* --warmup N: repetitions run and discarded first */
	/* --steady-state KIND:PCT:DUR: a time-based repetition's ramp lasts
	 * until every interval figure of the last DUR is within PCT of their
	 * mean (fio's ss=iops:PCT), at most the repetition's duration; then it
	 * runs its duration. 0: off. */
	double ss_bound;
	uint64_t ss_window_ns;
	int warmup_given;	/* --warmup given (either form): no op's own ramp then */
	uint64_t ramp_ns;	/* --warmup DUR: the first DUR of each repetition is
				 * run but left out of its figure (fio's ramp_time) */
	uint64_t interval_ns;	/* per-interval figures (default 1 s) */
	uint64_t long_budget_ns;	/* --budget given: no repetition starts after it */
	int progress;		/* a progress line on stderr (a terminal, not -q) */
	const char *progress_prefix;	/* "[3/9] disk.seq" */
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
	/* Untimed, before every timed call (NULL: nothing): 0, or -1 with errno. */
	int (*before)(void *state);
};

void harness_default_cfg(struct harness_cfg *cfg);
/* Make h take exactly n samples of sample_ns each (at least 1000 clock
 * steps): short samples, most of which no preemption reaches, for figures
 * a busy machine's 10 ms samples would smear (mem.line, cpu.c2c). */
void harness_short_samples(struct harness *h, uint64_t sample_ns, int n);

/* CPU time (this process and its waited-for children) and wall clock, to
 * record the CPU use of a measured phase on a metric. */
struct harness_cpu {
	double user_s, sys_s;
	uint64_t wall_ns;
};
void harness_cpu(struct harness_cpu *c);
void harness_cpu_record(struct metric *m, const struct harness_cpu *c0, const struct harness_cpu *c1);
/* Measure the clock and the empty-loop overhead. */
void harness_init(struct harness *h, const struct harness_cfg *cfg);

/* Time one measure and record it as a metric of ctx->res. Returns 0, or
 * -1 with ctx->reason set (op failed, interrupted, time not above overhead). */
int harness_measure(struct bench_ctx *ctx, const struct measure *m, double *median);
/* Time nm measures interleaved: each is calibrated, then the samples are
 * taken in rounds of one sample of each, so that a machine whose speed
 * drifts moves them alike (STREAM's loop over its four kernels). Each
 * becomes a metric; medians[i] (when not NULL) gets each figure. */
int harness_measure_set(struct bench_ctx *ctx, const struct measure *ms, int nm, double *medians);

/* ---- long operations (disk, network, `time`) ----
 *
 * One repetition is one call of op(), which does a long piece of work
 * ("write 1 GiB and fsync", "stream TCP for 10 s") and reports what it has
 * done as it goes with long_progress(). Before every repetition the
 * harness calls prepare() untimed (create or truncate a file, evict it from
 * the page cache, reconnect). Warm-up repetitions (--warmup N) run and are
 * discarded; --warmup DUR leaves the first DUR of each repetition out of
 * its figure. Each timed repetition gives one sample: amount / time for a
 * bandwidth or a rate, time / amount for a latency. Per-interval figures,
 * per-operation latencies (long_lat) and the CPU time of the timed calls
 * are kept on the metric. */
struct long_run;

struct long_op {
	const char *name;	/* metric name, "" for the main figure */
	const char *unit;	/* "MB/s", "ops/s", "us", ... */
	enum bench_kind kind;	/* BANDWIDTH: amounts are bytes; RATE, LATENCY: operations */
	enum better better;
	int detail;
	void *state;
	int (*prepare)(void *state, struct long_run *lr);	/* NULL: nothing */
	int (*op)(void *state, struct long_run *lr);		/* 0, or -1 with ctx->reason / errno */
	double total;		/* amount one repetition does, for the ETA (0: unknown) */
	int time_based;		/* op runs until long_progress() returns 1 */
	uint64_t duration_ns;	/* a time-based op's own default (0: 10 s) */
	uint64_t ramp_ns;	/* and its own ramp left out of the figure when
				 * --warmup is not given (iperf3's omit; 0: none) */
	/* A mixed workload's two kinds of operation ("read", "write"), each
	 * reported with long_class(): besides the figure of all of them, a
	 * figure "NAME CLASS" of each (its share of each repetition's amount;
	 * a rate or a bandwidth), with its own latency percentiles. */
	const char *classes[2];
};

/* Measure lo and record it as a metric of ctx->res. Returns 0, or -1 with
 * ctx->reason set. */
int harness_long(struct bench_ctx *ctx, const struct long_op *lo, double *median);
/* The n ops of a sequence measured as harness_long each, in rounds: each
 * round runs one repetition of every op in order, so each repetition of an
 * op follows the op before it, as a tool that runs its tests once each in
 * that order measures them (iozone's matrix). --warmup N runs N untimed
 * rounds; the budget and --duration end a round, never split one. One
 * metric per op, in order; medians (or NULL) gets each op's median. */
int harness_long_seq(struct bench_ctx *ctx, const struct long_op *ops, int n, double *medians);
/* Report `amount` more done (bytes or operations). Returns 0 to go on, 1
 * when a time-based repetition has run its time (finish normally), -1 when
 * the op must stop at once (interrupted, timed out). */
int long_progress(struct long_run *lr, double amount);
/* One operation's latency, for the percentiles (timed repetitions only). */
void long_lat(struct long_run *lr, uint64_t ns);
/* One operation of class cls (0 or 1, lo->classes) with its latency: for
 * the class's figure and percentiles, and the op's (long_lat). The amount
 * done is still reported with long_progress. */
void long_class(struct long_run *lr, int cls, double amount, uint64_t ns);
/* The harness clock (a fake one in tests); the context of the run. */
uint64_t long_now(const struct long_run *lr);
/* The repetition's start, as the harness took it; long_end() marks its end
 * now, before the op's untimed teardown, and returns that time: an op that
 * prints its own time (ttcp's lines) and the figure are one measurement. */
uint64_t long_start(const struct long_run *lr);
uint64_t long_end(struct long_run *lr);
struct bench_ctx *long_ctx(const struct long_run *lr);
/* Wait until fd is ready for events (POLLIN, POLLOUT), checking for an
 * interrupt at least every 100 ms: 0, or -1 with ctx->reason set ("timed out
 * after 300 s waiting for WHAT", "interrupted"). */
int harness_wait_fd(struct bench_ctx *ctx, int fd, short events, const char *what);

/* About how long benchmark b runs under cfg and opt, in seconds, for the
 * progress line: its estimate hook, else a long op's repetitions of their
 * duration, else one calibrated loop figure (calibration and samples).
 * A run corrects these by what the finished benchmarks took. */
double harness_estimate(const struct bench *b, const struct bench_opts *opt,
			const struct harness_cfg *cfg);
/* The repetitions a long operation runs: --warmup N and --reps (at least
 * one), for the estimates. */
int harness_estimate_reps(const struct harness_cfg *cfg);
/* Its class for struct eta: 0 a loop figure's estimate, 1 its own. */
int harness_estimate_class(const struct bench *b);

/* A run's time left, in seconds: the estimates of what is still to run,
 * scaled by how the finished benchmarks compared with their estimates.
 * Two classes learn apart: loop benchmarks (one estimate for all, which
 * some groups beat and others exceed) and those with an estimate of their
 * own or long operations. A class's factor is kept within 1/3..3 and eased
 * in over the first twentieth of its estimated work, so a few odd benchmarks
 * cannot swing it. */
struct eta {
	double *est;		/* per registry entry, one run (caller's array) */
	unsigned char *cls;	/* per registry entry: 0 loop, 1 its own estimate */
	double total[2], done_est[2], done_s[2];
};
/* Registry entry i (estimated est, class cls) counted in, nruns times. */
void eta_add(struct eta *e, size_t i, double est, int cls, int nruns);
/* Registry entry i finished after wall_s seconds. */
void eta_done(struct eta *e, size_t i, double wall_s);
double eta_left(const struct eta *e);

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

/* A benchmark's state: size zeroed bytes, or NULL with "out of memory" as
 * ctx's reason. */
void *harness_state(struct bench_ctx *ctx, size_t size);

/* Run the benchmark in a child process (its own process group), so that a
 * crash (SIGSEGV, abort, OOM kill) fails only that benchmark: the child sends
 * its result back over a pipe. On SIGINT/SIGTERM the child is told to stop
 * and is killed if it has not within half a second. */
void harness_run_isolated(struct harness *h, const struct bench *b, const struct bench_opts *opt,
			  struct bench_result *br);

/* Run b as `copies` copies at once (the --parallel machinery: one
 * calibration, a common start, samples in lockstep) with ctx's options, and
 * record its main figure in ctx->res as `name`: sample k is the sum of the
 * copies' samples k (throughputs add), and each copy's median is kept. The
 * metric, or NULL with ctx->reason set ("NAME: why"). */
struct metric *harness_copies(struct bench_ctx *ctx, const struct bench *b, int copies, const char *name);

/* A call failed with EINTR that was not an interrupt or a timeout (a
 * stray signal): retry it. Use as: while ((r = read(..)) < 0 &&
 * harness_retry()); */
int harness_retry(void);

/* In a benchmark's process: bakeoff is gone (killed with SIGKILL). */
int harness_orphaned(void);

/* The op timeout: arm before a call that may block (0 disarms); a call
 * that outlasts it returns EINTR, and harness_timed_out() says so. A
 * benchmark that ignores it is ended 1 s later. */
void harness_arm(const struct harness *h);
void harness_disarm(void);
int harness_timed_out(void);

/* fork() for benchmark helpers: the child gets default signal handling and
 * never runs bakeoff's cleanup. */
int harness_fork(void);
/* End a helper child that was asked to exit: wait up to ms for it, then
 * SIGKILL it; reaped either way. Nothing for pid <= 0. */
void harness_reap(pid_t pid, int ms);

#endif
