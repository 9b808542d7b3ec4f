/* cpu-c2c.c — cache-to-cache latency between CPUs (core-to-core latency,
 * MLC's c2c): one cache line bounced between two pinned processes.
 *
 * For each pair of CPUs (a, b): this process is pinned to a, a child to b,
 * and both spin on one 64-byte line of shared memory. The child waits for an
 * odd value and compare-and-swaps it to the next even one; this process
 * waits for that even value and swaps it to the next odd one. One operation
 * is one round trip: the line moves to b and back, two transfers. The figure
 * of the pair (`pair/A-B`) is half a round trip, the time one transfer of a
 * modified line takes, in ns (as core-to-core-latency and MLC report it).
 *
 * The main figure is the median over the pairs (derived). Each pair's figure
 * carries a note naming what the two CPUs share as the OS tells it (the same
 * core: SMT siblings; the same last-level cache; the same package; or
 * neither), the facts that make the matrix readable. With many CPUs not
 * every pair fits the time budget: CPU 0's pairs with every other CPU come
 * first, then pairs spread evenly over the rest, and params say how many of
 * how many were measured. */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "affinity.h"
#include "bench.h"
#include "cpu-c2c.h"
#include "harness.h"
#include "result.h"
#include "scratch.h"
#include "stats.h"

#define C2C_CPUS 256		/* CPUs considered at most */
#define C2C_SPIN_CHECK 4096	/* spins between checks of interrupt and timeout */
#define C2C_SAMPLE_NS 200000	/* 0.2 ms: most such samples run unpreempted */
#define C2C_SAMPLES 101

struct c2c_line {
	_Alignas(64) atomic_uint v;	/* the bounced value, alone on its line */
	char pad[60];
	_Alignas(64) atomic_int stop;	/* the child's exit request */
};

struct c2c {
	struct c2c_line *line;
	unsigned next;		/* this side's next odd value */
	pid_t child;
	char *reason;
};

/* The child, pinned to its CPU: answer every odd value with the next even
 * one until told to stop (or orphaned). */
static void c2c_child(struct c2c_line *l, int cpu)
{
	struct affinity save;
	unsigned spins = 0;

	os_die_with_parent();
	if (affinity_pin_to(cpu, &save) != 1)
		_exit(3);
	for (;;) {
		unsigned v = atomic_load_explicit(&l->v, memory_order_acquire);

		if (v & 1) {
			atomic_compare_exchange_strong(&l->v, &v, v + 1);
		} else if (++spins % C2C_SPIN_CHECK == 0) {
			if (atomic_load_explicit(&l->stop, memory_order_relaxed) || getppid() == 1)
				_exit(0);
		}
	}
}

static int c2c_op(void *state, uint64_t n)
{
	struct c2c *s = state;
	struct c2c_line *l = s->line;

	for (uint64_t i = 0; i < n; i++) {
		unsigned want = s->next - 1, spins = 0;

		/* the even value before ours is there: swap in our odd one */
		while (!atomic_compare_exchange_weak(&l->v, &want, s->next)) {
			want = s->next - 1;
			if (++spins % C2C_SPIN_CHECK == 0 && (scratch_interrupted() || harness_timed_out() ||
							      waitpid(s->child, NULL, WNOHANG) != 0)) {
				snprintf(s->reason, sizeof(((struct bench_ctx *)0)->reason), "the process on the other CPU is gone");
				errno = EINTR;
				return -1;
			}
		}
		s->next += 2;
	}
	return 0;
}

/* End the child of a pair. */
static void c2c_stop(struct c2c *s)
{
	/* a child stuck before its loop (not pinned yet) ends by signal */
	atomic_store(&s->line->stop, 1);
	harness_reap(s->child, 100);
	s->child = 0;
}

/* What CPUs a and b share, as the OS tells it. */
static const char *c2c_shared(int a, int b)
{
	struct os_cpu_place pa, pb;

	if (os_cpu_place(a, &pa) < 0 || os_cpu_place(b, &pb) < 0)
		return NULL;
	if (pa.package >= 0 && pa.package == pb.package && pa.core >= 0 && pa.core == pb.core)
		return "the same core (SMT siblings)";
	if (pa.llc >= 0 && pa.llc == pb.llc)
		return "the same last-level cache";
	if (pa.package >= 0 && pa.package == pb.package)
		return "the same package, not the same last-level cache";
	if (pa.package >= 0 && pb.package >= 0)
		return "different packages (sockets)";
	return NULL;
}

/* One pair's figure, recorded as pair/A-B: the median of C2C_SAMPLES
 * samples of 0.2 ms, not the harness's default 10 ms. A ping-pong stalls
 * whenever either CPU's process is preempted (in a guest, whenever the
 * host runs something else on either vCPU), and a 10 ms sample rarely
 * escapes that on a busy machine: medians of such samples moved from 110
 * to 260 ns between runs on a 2-vCPU guest, their minima by 20%. */
static int c2c_pair(struct bench_ctx *ctx, struct c2c_line *l, int a, int b, double *half)
{
	struct harness h = *ctx->h;
	struct bench_ctx sub = *ctx;
	struct affinity save;
	struct c2c s = { l, 1, 0, sub.reason };
	char name[32];
	double rt;
	int rc;
	struct measure m = {
		.name = name, .unit = "ns", .kind = KIND_LATENCY, .better = BETTER_LOWER,
		.op = c2c_op, .state = &s, .detail = 1,
	};

	harness_short_samples(&h, C2C_SAMPLE_NS, C2C_SAMPLES);
	sub.h = &h;
	atomic_store(&l->v, 0);
	atomic_store(&l->stop, 0);
	/* the child first: it may run on b only while this process is unpinned */
	if ((s.child = harness_fork()) == 0)
		c2c_child(l, b);
	if (s.child < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "fork: %s", strerror(errno));
		return -1;
	}
	if (affinity_pin_to(a, &save) != 1) {
		snprintf(ctx->reason, sizeof(ctx->reason), "cannot pin to CPU %d: %s", a, strerror(errno));
		c2c_stop(&s);
		return -1;
	}
	snprintf(name, sizeof(name), "pair/%d-%d", a, b);
	/* a round trip is two transfers: the figure is half of it */
	m.ops_per_call = 2;
	rc = harness_measure(&sub, &m, &rt);
	c2c_stop(&s);
	affinity_restore(&save);
	if (rc < 0)
		snprintf(ctx->reason, sizeof(ctx->reason), "%s", sub.reason);
	else {
		const char *what = c2c_shared(a, b);

		*half = rt;
		if (what) {
			char note[96];

			snprintf(note, sizeof(note), "CPUs %d and %d: %s", a, b, what);
			result_note(ctx->res, name, note);
		}
	}
	return rc;
}

int c2c_pairs(const int *cpu, int n, int max, int (*pair)[2], long *total)
{
	long all = (long)n * (n - 1) / 2, k = 0, step;
	int np = 0;

	*total = all;
	for (int j = 1; j < n && np < max; j++) {
		pair[np][0] = cpu[0];
		pair[np++][1] = cpu[j];
	}
	step = all - (n - 1) > max - np ? (all - (n - 1)) / (max - np > 0 ? max - np : 1) : 1;
	for (int i = 1; i < n && np < max; i++)
		for (int j = i + 1; j < n && np < max; j++, k++)
			if (k % step == 0) {
				pair[np][0] = cpu[i];
				pair[np++][1] = cpu[j];
			}
	return np;
}

static int c2c_run(struct bench_ctx *ctx)
{
	static int cpu[C2C_CPUS], pair[C2C_CPUS * 2][2];
	int n = affinity_cpus(cpu, C2C_CPUS), max, np, rc = 0;
	long total;
	double *half = NULL, per_pair_s;
	struct c2c_line *l;

	if (n < 2) {
		snprintf(ctx->reason, sizeof(ctx->reason), "%d CPUs to pin to", n);
		return -1;
	}
	/* the budget bounds the pairs: each takes its samples twice (the
	 * calibration) and the child's start */
	per_pair_s = C2C_SAMPLES * (double)C2C_SAMPLE_NS / 1e9 * 2 + 0.05;
	max = (int)((double)ctx->h->cfg.budget_ns / 1e9 * 6 / per_pair_s);
	if (ctx->opt->quick && max > 8)
		max = 8;
	if (max < 1)
		max = 1;
	if (max > (int)(sizeof(pair) / sizeof(pair[0])))
		max = (int)(sizeof(pair) / sizeof(pair[0]));
	np = c2c_pairs(cpu, n, max, pair, &total);
	if (!(l = scratch_shared("c2c-line", sizeof(*l)))) {
		snprintf(ctx->reason, sizeof(ctx->reason), "the shared line (a scratch file): %s",
			 strerror(errno));
		return -1;
	}
	if (!(half = malloc((size_t)np * sizeof(double)))) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		munmap(l, sizeof(*l));
		return -1;
	}
	for (int i = 0; i < np && rc == 0; i++)
		rc = c2c_pair(ctx, l, pair[i][0], pair[i][1], &half[i]);
	if (rc == 0) {
		char from[96];
		struct stats st;

		stats_compute(half, (size_t)np, &st);
		if (np == 1)
			snprintf(from, sizeof(from), "the one pair's figure, pair/%d-%d", pair[0][0], pair[0][1]);
		else
			snprintf(from, sizeof(from), "the median of the %d pairs' figures", np);
		result_add_derived(ctx->res, "", "ns", BETTER_LOWER, st.median, from);
		result_param_num(ctx->res, "cpus", n);
		result_param_num(ctx->res, "pairs", (double)total);
		result_param_num(ctx->res, "pairs_measured", np);
		if (np < total) {
			char note[160];

			snprintf(note, sizeof(note), "%d of %ld pairs measured within --budget: CPU %d with "
				 "every other, then pairs spread evenly", np, total, cpu[0]);
			result_note(ctx->res, "", note);
		}
	}
	free(half);
	munmap(l, sizeof(*l));
	return rc;
}

/* 0 with two CPUs this process may be pinned to; else -1 and why. */
static int c2c_supported(struct bench_ctx *ctx)
{
	return affinity_need_two(ctx->reason, sizeof(ctx->reason));
}

/* For the progress line: a figure per pair; 1 pair on 2 CPUs. */
static double c2c_estimate(const struct bench_opts *opt, const struct harness_cfg *cfg, double fig_s)
{
	int n = affinity_count();
	double pairs = n > 1 ? (double)n * (n - 1) / 2 : 1;

	(void)cfg;
	if (opt->quick && pairs > 8)
		pairs = 8;
	return pairs * fig_s;
}

const struct bench bench_cpu_c2c = {
	.id = "cpu.c2c", .group = "cpu", .title = "Cache-to-cache latency (c2c)",
	.unit = "ns", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.noise = NOISE_MEM_LAT,	/* a line's transfer, as the caches' latencies */
	.supported = c2c_supported,
	.run = c2c_run,
	.estimate = c2c_estimate,
};
