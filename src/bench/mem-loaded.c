/* mem-loaded.c — memory latency under load (Intel MLC's --loaded_latency).
 *
 * This process, pinned to the first CPU it may use, chases pointers through
 * a random cyclic chain beyond the last-level cache (mem.lat's main-memory
 * reach), while loader processes, one per other CPU (--copies: how many),
 * each pinned, stream reads through buffers of their own, every 64-byte
 * line summed and followed by a delay loop of D iterations (about a cycle
 * each). The sweep runs from no load (the loaders paused: "idle") through
 * decreasing delays to D = 0, full load. At each point the chaser's latency
 * is timed by the harness (ns per load, `lat/<D>`), and the loaders' bytes
 * over that time give their total bandwidth (MB/s, MB = 10^6, `bw/<D>`),
 * read from counters they keep in shared memory.
 *
 * Figures: `idle` (ns, the chase with the loaders paused), `peak` (the
 * loaders' largest bandwidth, MB/s) and the main figure, the latency at
 * that peak (ns). The text and HTML reports draw the curve, latency over
 * bandwidth. Each loader also publishes its own CPU time, so a point
 * knows what share of its time the loaders really ran (`cpu/<D>`, %):
 * where the host or another process took their CPUs, the bandwidth is
 * what they got, not what the memory gives, and a note on `peak` says so.
 * A loader that ends early (killed) fails the benchmark with the reason;
 * every loader is stopped, then killed, before it returns. */
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
#include "clock.h"
#include "harness.h"
#include "mem-lat.h"
#include "result.h"
#include "scratch.h"
#include "sysinfo.h"
#include "units.h"

#define LD_MAX 256		/* loaders at most */
#define LD_LINES 4096		/* lines between counter updates (256 KiB) */
#define LD_PAUSED (-1)
#define LD_SETTLE_NS 50000000	/* after a change of delay, before the point */
#define LD_SHARE_LOW 0.75	/* the loaders' CPU share under which peak gets a note */

struct ld_ctl {
	_Alignas(64) atomic_int delay;	/* the loaders' delay, LD_PAUSED, */
	atomic_int stop;		/* and the request to exit */
	struct {
		_Alignas(64) atomic_ullong bytes;	/* read so far, each on its own line */
		atomic_ullong cpu_ns;		/* the loader's CPU time when it last counted */
	} n[LD_MAX];
};

struct ld {
	struct ld_ctl *ctl;
	pid_t pid[LD_MAX];
	int nld;
	int slots;	/* CPUs they run on: nld, or the other CPUs when fewer */
};

/* A delay iteration is about a cycle; a line's read at full speed takes a
 * few ns: these spread the points over the bandwidth. */
static const long default_delays[] = { 500, 200, 100, 50, 25, 10, 5, 0 };
static const long quick_delays[] = { 100, 10, 0 };

/* This process's CPU time (ns), 0 where the OS has no such clock. */
static unsigned long long ld_cpu_ns(void)
{
	struct timespec t;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) < 0)
		return 0;
	return (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
}

/* A loader: pinned to cpu, read buf (words) line by line, each line's
 * words summed, then the delay; at delay 0, LD_LINES lines at a time by
 * mem.peak's read loop. Bytes and its CPU time counted every LD_LINES
 * lines. */
static void loader(struct ld_ctl *c, int k, int cpu, size_t bytes)
{
	struct affinity save;
	uint64_t *buf, sum = 0;
	size_t lines = bytes / 64, at = 0, run;
	const struct timespec ms = { 0, 1000000 };

	os_die_with_parent();
	if (affinity_pin_to(cpu, &save) < 0 || !(buf = memlat_alloc(bytes)))
		_exit(3);
	while (!atomic_load_explicit(&c->stop, memory_order_relaxed)) {
		int d = atomic_load_explicit(&c->delay, memory_order_relaxed);

		if (d == LD_PAUSED) {
			nanosleep(&ms, NULL);
			continue;
		}
		run = LD_LINES;
		if (d == 0) {	/* full load: mem.peak's read loop, to the end at most */
			run = lines - at < LD_LINES ? lines - at : LD_LINES;
			sum += memlat_sweep(buf + at * 8, run * 8);
			at = at + run < lines ? at + run : 0;
		} else
			for (size_t l = 0; l < LD_LINES; l++, at = at + 1 < lines ? at + 1 : 0) {
				const uint64_t *p = buf + at * 8;

				sum += p[0] + p[1] + p[2] + p[3] + p[4] + p[5] + p[6] + p[7];
				for (int j = 0; j < d; j++)
					BENCH_KEEP(j);
			}
		atomic_fetch_add_explicit(&c->n[k].bytes, (unsigned long long)run * 64,
					  memory_order_relaxed);
		atomic_store_explicit(&c->n[k].cpu_ns, ld_cpu_ns(), memory_order_relaxed);
		BENCH_KEEP(sum);
	}
	_exit(0);
}

/* The loaders' bytes read and CPU time, summed; the CPU time is 0 when a
 * loader has none yet (it has not counted, or the OS has no such clock). */
static void ld_count(const struct ld *l, unsigned long long *bytes, unsigned long long *cpu_ns)
{
	int known = 1;

	*bytes = *cpu_ns = 0;
	for (int k = 0; k < l->nld; k++) {
		unsigned long long c = atomic_load_explicit(&l->ctl->n[k].cpu_ns, memory_order_relaxed);

		*bytes += atomic_load_explicit(&l->ctl->n[k].bytes, memory_order_relaxed);
		*cpu_ns += c;
		known &= c != 0;
	}
	if (!known)
		*cpu_ns = 0;
}

/* A loader gone: 1 with ctx->reason saying which and how. */
static int ld_gone(struct bench_ctx *ctx, struct ld *l)
{
	for (int k = 0; k < l->nld; k++) {
		int st;

		if (l->pid[k] > 0 && waitpid(l->pid[k], &st, WNOHANG) == l->pid[k]) {
			l->pid[k] = 0;
			if (WIFSIGNALED(st))
				snprintf(ctx->reason, sizeof(ctx->reason), "loader %d ended: killed by signal %d",
					 k + 1, WTERMSIG(st));
			else
				snprintf(ctx->reason, sizeof(ctx->reason), "loader %d ended: exit status %d%s",
					 k + 1, WEXITSTATUS(st),
					 WEXITSTATUS(st) == 3 ? " (could not pin or allocate its buffer)" : "");
			return 1;
		}
	}
	return 0;
}

/* Stop every loader: asked, then after 0.2 s killed; all reaped. */
static void ld_stop(struct ld *l)
{
	atomic_store(&l->ctl->stop, 1);
	for (int k = 0; k < l->nld; k++) {
		harness_reap(l->pid[k], 200);
		l->pid[k] = 0;
	}
}

/* One point: the loaders at delay d (LD_PAUSED: idle), the chase timed as
 * name (a curve point, but for idle), the loaders' bandwidth over that time
 * into *bw (MB/s) and the share of it they ran into *share (0..1, or -1
 * where the OS gives no CPU time). */
static int ld_point(struct bench_ctx *ctx, struct ld *l, int d, void *start, const char *name,
		    double *lat, double *bw, double *share)
{
	const struct timespec settle = { 0, LD_SETTLE_NS };
	unsigned long long b0, b1, c0, c1;
	uint64_t t0, dt;

	atomic_store(&l->ctl->delay, d);
	nanosleep(&settle, NULL);
	ld_count(l, &b0, &c0);
	t0 = clock_ns();
	if (memlat_chase(ctx, name, start, d != LD_PAUSED, lat) < 0)
		return -1;
	ld_count(l, &b1, &c1);
	dt = clock_ns() - t0;
	*bw = (double)(b1 - b0) * 1e3 / (double)dt;
	*share = c0 && c1 >= c0 ? (double)(c1 - c0) / ((double)dt * l->slots) : -1;
	return ld_gone(ctx, l) ? -1 : 0;
}

/* The sweep's figures: bw/<D> and cpu/<D> beside each lat/<D>, and the
 * summary; a note on peak: `shared` (more loaders than CPUs), else where
 * the loaders ran less than LD_SHARE_LOW of a point's time. */
static int ld_figures(struct bench_ctx *ctx, const long *delay, int nd, const double *lat, const double *bw,
		      const double *share, double idle, const char *shared)
{
	char name[32], from[128], note[300];
	int best = 0, low = -1;

	for (int i = 0; i < nd; i++) {
		struct metric *m;

		snprintf(name, sizeof(name), "bw/%ld", delay[i]);
		snprintf(from, sizeof(from), "the loaders' bytes over lat/%ld's time", delay[i]);
		if (!(m = result_add_derived(ctx->res, name, "MB/s", BETTER_HIGHER, bw[i], from)))
			return -1;
		m->detail = 1;
		if (bw[i] > bw[best])
			best = i;
		if (share[i] < 0)
			continue;
		snprintf(name, sizeof(name), "cpu/%ld", delay[i]);
		snprintf(from, sizeof(from), "the loaders' CPU time over lat/%ld's time", delay[i]);
		if (!(m = result_add_derived(ctx->res, name, "%", BETTER_HIGHER, 100 * share[i], from)))
			return -1;
		m->detail = 1;
		if (low < 0 || share[i] < share[low])
			low = i;
	}
	snprintf(from, sizeof(from), "bw/%ld, the largest of the sweep", delay[best]);
	if (!result_add_derived(ctx->res, "peak", "MB/s", BETTER_HIGHER, bw[best], from))
		return -1;
	if (shared)
		result_note(ctx->res, "peak", shared);
	else if (low >= 0 && share[low] < LD_SHARE_LOW) {
		snprintf(note, sizeof(note), "the loaders ran only %.0f%% of lat/%ld's time (the host, its "
			 "other guests or another process had their CPUs): the sweep's bandwidths are what "
			 "they got, not what the memory gives", 100 * share[low], delay[low]);
		result_note(ctx->res, "peak", note);
	}
	snprintf(from, sizeof(from), "lat/%ld, at the peak bandwidth", delay[best]);
	if (!result_add_derived(ctx->res, "", "ns", BETTER_LOWER, lat[best], from))
		return -1;
	result_param_num(ctx->res, "idle_ns", idle);
	return 0;
}

/* Fork the loaders, loader k on cpu[(k % (n - 1)) + 1]. */
static int ld_start(struct bench_ctx *ctx, struct ld *l, const int *cpu, int n, size_t bytes)
{
	for (int k = 0; k < l->nld; k++) {
		pid_t pid = harness_fork();

		if (pid == 0)
			loader(l->ctl, k, cpu[k % (n - 1) + 1], bytes);
		if (pid < 0) {
			snprintf(ctx->reason, sizeof(ctx->reason), "fork: %s", strerror(errno));
			return -1;
		}
		l->pid[k] = pid;
	}
	return 0;
}

static int loaded_run(struct bench_ctx *ctx)
{
	static int cpu[LD_MAX + 1];
	const struct bench_opts *o = ctx->opt;
	struct sysinfo tmp;
	const struct sysinfo *si = harness_host(ctx, &tmp);
	const long *delay = o->ndelays ? o->delays : o->quick ? quick_delays : default_delays;
	int nd = o->ndelays ? o->ndelays : o->quick ? 3 : 8;
	int n = affinity_cpus(cpu, LD_MAX + 1), rc = -1;
	uint64_t chain = memlat_main_size(o, si), seed = 0x10ad, llc = sysinfo_llc_size(si);
	struct ld l = { 0 };
	struct affinity save = { 0 };
	double lat[BENCH_MAX_LIST], bw[BENCH_MAX_LIST], share[BENCH_MAX_LIST], idle, idle_bw, idle_share;
	size_t each;
	char *buf = NULL, name[32], shared[160];
	void *start;

	l.nld = o->ncopies ? (int)o->copies[0] : n - 1;
	if (l.nld > LD_MAX)
		l.nld = LD_MAX;
	l.slots = l.nld < n - 1 ? l.nld : n - 1;
	/* the loaders' buffers: together at least 4 x the LLC, each --mem-size
	 * at least (up to 4 MiB with --quick) */
	each = o->quick && o->mem_size > (4u << 20) ? 4u << 20 : o->mem_size;
	if (!o->quick && llc && 4 * llc / (uint64_t)l.nld > each)
		each = 4 * llc / (uint64_t)l.nld;
	each &= ~(size_t)4095;
	if (!(l.ctl = scratch_shared("loaded-ctl", sizeof(*l.ctl)))) {
		snprintf(ctx->reason, sizeof(ctx->reason), "the loaders' counters (a scratch file): %s",
			 strerror(errno));
		return -1;
	}
	if (!(buf = memlat_alloc(chain))) {
		memlat_failed(ctx, "cannot allocate the chain's buffer", chain);
		goto out;
	}
	{
		struct memlat_chain c = { buf, chain / 64, 64, 0 };

		if (!(start = memlat_ready(ctx, &c, 1, &seed, "random")))
			goto out;
	}
	atomic_store(&l.ctl->delay, LD_PAUSED);
	if (ld_start(ctx, &l, cpu, n, each) < 0 || affinity_pin_to(cpu[0], &save) < 0)
		goto out;
	if (ld_point(ctx, &l, LD_PAUSED, start, "idle", &idle, &idle_bw, &idle_share) < 0)
		goto out;
	for (int i = 0; i < nd; i++) {
		snprintf(name, sizeof(name), "lat/%ld", delay[i]);
		if (ld_point(ctx, &l, (int)delay[i], start, name, &lat[i], &bw[i], &share[i]) < 0)
			goto out;
	}
	if (l.nld > n - 1)
		snprintf(shared, sizeof(shared), "%d loaders on %d other CPU%s: loaders share CPUs, "
			 "so their bandwidth is not the machine's", l.nld, n - 1, n - 1 == 1 ? "" : "s");
	if (ld_figures(ctx, delay, nd, lat, bw, share, idle, l.nld > n - 1 ? shared : NULL) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		goto out;
	}
	result_param_num(ctx->res, "loaders", l.nld);
	result_param_num(ctx->res, "chaser_cpu", cpu[0]);
	result_param_num(ctx->res, "chain_bytes", (double)chain);
	result_param_num(ctx->res, "loader_buffer_bytes", (double)each);
	rc = 0;
out:
	ld_stop(&l);
	affinity_restore(&save);
	munmap(l.ctl, sizeof(*l.ctl));
	free(buf);
	return rc;
}

/* 0 with two CPUs to pin to (the chaser's and a loader's); else -1 and why. */
static int loaded_supported(struct bench_ctx *ctx)
{
	int rc = affinity_need_two(ctx->reason, sizeof(ctx->reason));

	if (rc < 0 && affinity_count() == 1)	/* what the second CPU is for */
		snprintf(ctx->reason, sizeof(ctx->reason), "one CPU to run on: no CPU left for a loader");
	return rc;
}

/* For the progress line: the idle point and the sweep's. */
static double loaded_estimate(const struct bench_opts *opt, const struct harness_cfg *cfg, double fig_s)
{
	(void)cfg;
	return ((opt->ndelays ? opt->ndelays : opt->quick ? 3 : 8) + 1) * (fig_s + 0.05) + 2;
}

const struct bench bench_mem_loaded = {
	.id = "mem.loaded", .group = "mem", .title = "Loaded latency (MLC)",
	.unit = "ns", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.supported = loaded_supported,
	.run = loaded_run,
	.estimate = loaded_estimate,
	.own_size = 1,	/* the chain beyond the last-level cache, as mem.lat's main memory */
};
