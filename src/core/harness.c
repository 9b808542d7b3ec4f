/* harness.c — lmbench's timing policy without its globals.
 *
 * Calibration grows the iteration count n until one call op(state, n)
 * lasts at least the target sample time. Each sample is then
 *     (t1 - t0) - clock_cost - n * loop_ns
 * divided by n and by the operations per call; a negative remainder is
 * clamped to zero and a median that is (nearly) all overhead fails the
 * benchmark instead of being reported. At least cfg.samples samples are
 * taken; more are added, up to max_samples and the time budget, while the
 * 95% CI of the median is wider than ci_target of the median (--ci-target:
 * then max_samples is as many as the budget holds, and the figure records
 * the half-width it reached). After each round of samples, untimed, the
 * core gauge (gauge.h) is read; each figure keeps the readings and their
 * median (once the run is over, result_quiet_figures adds the figure of
 * its samples read on a quiet core).
 *
 * --parallel N forks N copies of the whole benchmark; they measure in
 * lockstep (one calibration, a common start, a cooldown: see conduct()),
 * then each sends its
 * bench_result back as JSON, and the parent aggregates (throughputs in
 * units per second add, other figures average, each copy's median is kept). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "gauge.h"
#include "harness.h"
#include "json.h"
#include "os.h"
#include "scratch.h"
#include "sysinfo.h"

volatile uint64_t bench_sink;


void harness_default_cfg(struct harness_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->target_ns = 10000000;
	cfg->samples = 11;
	cfg->max_samples = 33;
	cfg->ci_target = 0.01;
	cfg->budget_ns = 5000000000ull;
	cfg->now = clock_ns;
	cfg->op_timeout_ns = 300000000000ull;
	cfg->reps = 3;
	cfg->interval_ns = 1000000000ull;
}

void harness_short_samples(struct harness *h, uint64_t sample_ns, int n)
{
	h->cfg.target_ns = sample_ns;
	if ((double)h->cfg.target_ns < 1000 * h->clk.resolution_ns)
		h->cfg.target_ns = (uint64_t)(1000 * h->clk.resolution_ns);
	h->cfg.samples = h->cfg.max_samples = n;
}

/* ---- the op timeout ---- */

#define EXIT_TIMED_OUT 124	/* a child that ignored its timeout */
static volatile sig_atomic_t timed_out;
static double timeout_s;	/* for the message */

static void on_alarm(int sig)
{
	struct itimerval again = { { 0, 0 }, { 1, 0 } };

	(void)sig;
	if (timed_out)
		_exit(EXIT_TIMED_OUT);	/* still stuck a second later */
	timed_out = 1;
	setitimer(ITIMER_REAL, &again, NULL);
}

void harness_arm(const struct harness *h)
{
	struct itimerval it = { { 0, 0 }, { 0, 0 } };
	static int installed;

	if (!h->cfg.op_timeout_ns)
		return;
	if (!installed) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_alarm;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGALRM, &sa, NULL);	/* no SA_RESTART: blocked calls return EINTR */
		installed = 1;
	}
	timeout_s = (double)h->cfg.op_timeout_ns / 1e9;
	it.it_value.tv_sec = (time_t)(h->cfg.op_timeout_ns / 1000000000ull);
	it.it_value.tv_usec = (suseconds_t)(h->cfg.op_timeout_ns % 1000000000ull / 1000);
	setitimer(ITIMER_REAL, &it, NULL);
}

void harness_disarm(void)
{
	struct itimerval it = { { 0, 0 }, { 0, 0 } };

	setitimer(ITIMER_REAL, &it, NULL);
}

int harness_timed_out(void)
{
	return timed_out;
}

int harness_retry(void)
{
	return errno == EINTR && !timed_out && !scratch_interrupted();
}

static int null_op(void *state, uint64_t n)
{
	uint64_t i;

	(void)state;
	for (i = 0; i < n; i++)
		BENCH_KEEP(i);
	return 0;
}

/* Call op through a pointer the compiler cannot see through, as the
 * harness calls every benchmark's op. */
static int (*volatile null_op_ptr)(void *, uint64_t) = null_op;

void harness_init(struct harness *h, const struct harness_cfg *cfg)
{
	uint64_t n = 1 << 12, t0, t1, best = UINT64_MAX;
	int i;

	h->cfg = *cfg;
	clock_measure(cfg->now, &h->clk);
	/* A coarse clock needs longer samples: keep its rounding under 0.1%. */
	if ((double)h->cfg.target_ns < 1000 * h->clk.resolution_ns)
		h->cfg.target_ns = (uint64_t)(1000 * h->clk.resolution_ns);
	/* Grow n to 100 us (and 1000 ticks of a coarse clock), then keep the
	 * best of 51: interruptions only add time, so the loop's own cost is
	 * the floor. Samples are short and many because on a busy machine the
	 * scheduler's slices are a few ms: 1 ms samples were all interrupted
	 * beside two CPU hogs, and the overhead came out 1-5x too high. */
	for (;;) {
		t0 = cfg->now();
		null_op_ptr(NULL, n);
		t1 = cfg->now();
		if ((double)(t1 - t0) >= 1e5 && (double)(t1 - t0) >= 1000 * h->clk.resolution_ns)
			break;
		if (n >= (1ull << 34))
			break;
		n *= 2;
	}
	for (i = 0; i < 51; i++) {
		t0 = cfg->now();
		null_op_ptr(NULL, n);
		t1 = cfg->now();
		if (t1 - t0 < best)
			best = t1 - t0;
	}
	h->loop_ns = ((double)best - h->clk.cost_ns) / (double)n;
	if (h->loop_ns < 0)
		h->loop_ns = 0;
}

double harness_convert(enum bench_kind kind, const char *unit, double ns, double bytes)
{
	switch (kind) {
	case KIND_LATENCY:
		if (strcmp(unit, "us") == 0)
			return ns / 1e3;
		if (strcmp(unit, "ms") == 0)
			return ns / 1e6;
		if (strcmp(unit, "s") == 0)
			return ns / 1e9;
		return ns;
	case KIND_BANDWIDTH:
		if (strcmp(unit, "GB/s") == 0)
			return bytes / ns;
		return bytes * 1e3 / ns;	/* MB/s */
	case KIND_RATE:
		if (strcmp(unit, "MHz") == 0 || strcmp(unit, "Mops/s") == 0)
			return 1e3 / ns;	/* 10^6 operations per second */
		return 1e9 / ns;
	case KIND_UNSET:
	case KIND_DERIVED:
		break;
	}
	return ns;
}

static int op_failed(struct bench_ctx *ctx, int err)
{
	if (timed_out)
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "timed out: an operation took longer than --op-timeout %.3g s", timeout_s);
	else if (scratch_interrupted())
		snprintf(ctx->reason, sizeof(ctx->reason), "interrupted");
	else if (!ctx->reason[0] && err)
		snprintf(ctx->reason, sizeof(ctx->reason), "operation failed: %s",
			 strerror(err));
	else if (!ctx->reason[0])
		snprintf(ctx->reason, sizeof(ctx->reason), "operation failed");
	return -1;
}

/* ---- --parallel: the copies measure in lockstep ----
 *
 * Each copy has a control channel to the parent (two pipes) carrying
 * 16-byte messages. For every measurement, a copy that has calibrated
 * sends R with its iteration count and waits for G with the largest count
 * of all copies, so every copy's samples are the same work and start
 * together. A copy done with its samples sends D and keeps running the same
 * work, untimed, until S says every copy is done (lmbench's cooldown), so
 * no copy measures while another has stopped: the figures are taken over
 * the window in which all copies ran. A copy that has ended drops out of
 * the lockstep; the aggregate then fails. */
struct ctl_msg {
	char type;	/* 'R' ready, 'G' go, 'D' done, 'S' stop */
	char pad[7];
	uint64_t n;
};

static int ctl_out = -1, ctl_in = -1;	/* a copy's channel; -1 when not a copy */

static int ctl_send(int fd, char type, uint64_t n)
{
	struct ctl_msg m = { type, { 0 }, n };
	ssize_t r;

	while ((r = write(fd, &m, sizeof(m))) < 0 && errno == EINTR && !scratch_interrupted())
		;
	return r == (ssize_t)sizeof(m) ? 0 : -1;
}

/* 1 with a message, 0 at end of file or on error (or interrupted). */
static int ctl_recv(int fd, struct ctl_msg *m)
{
	ssize_t r;

	while ((r = read(fd, m, sizeof(*m))) < 0 && errno == EINTR && !scratch_interrupted())
		;
	return r == (ssize_t)sizeof(*m);
}

/* A copy at the start line: agree on n with the other copies. */
static int copies_start(struct bench_ctx *ctx, uint64_t *n)
{
	struct ctl_msg m;

	if (ctl_out < 0)
		return 0;
	if (ctl_send(ctl_out, 'R', *n) < 0 || !ctl_recv(ctl_in, &m) || m.type != 'G') {
		snprintf(ctx->reason, sizeof(ctx->reason), "parallel start aborted");
		return -1;
	}
	*n = m.n;
	return 0;
}

/* The samples of one measure of a set. */
struct sampled {
	uint64_t n;
	double over;		/* clock cost + n x loop cost, ns */
	double *val, *raw, *cor;
};

/* A copy at the finish line: keep the work going until all are done. */
static void copies_finish(const struct measure *ms, int nm, const struct sampled *sp)
{
	struct pollfd p = { -1, POLLIN, 0 };
	struct ctl_msg m;
	int i;

	if (ctl_out < 0 || ctl_send(ctl_out, 'D', 0) < 0)
		return;
	p.fd = ctl_in;
	while (!scratch_interrupted() && poll(&p, 1, 0) == 0)
		for (i = 0; i < nm; i++)
			if ((ms[i].before && ms[i].before(ms[i].state) < 0) ||
			    ms[i].op(ms[i].state, sp[i].n) < 0)
				goto out;
out:
	ctl_recv(ctl_in, &m);	/* S, or the parent is gone */
}

/* The parent's side: release each phase once every copy still running has
 * reached it, until every copy has closed its channel. */
static void stop_copies(const pid_t *pid, int n);

static void conduct(int n, const int *in, const int *out, const pid_t *pid)
{
	struct pollfd *p = calloc((size_t)n, sizeof(*p));
	char *at = calloc((size_t)n, 1);	/* 0 running, R, D, or E ended */
	uint64_t *want = calloc((size_t)n, sizeof(uint64_t));
	int c, ended = 0, stopped = 0;

	if (!p || !at || !want)
		goto out;
	while (ended < n) {
		int nr = 0, nd = 0, live = 0, k = 0;
		uint64_t most = 0;
		struct ctl_msg m;

		for (c = 0; c < n; c++)
			if (at[c] != 'E')
				p[k].fd = in[c], p[k].events = POLLIN, p[k++].revents = 0;
		poll(p, (nfds_t)k, 100);
		if (scratch_interrupted() && !stopped) {
			stop_copies(pid, n);
			stopped = 1;
		}
		for (c = 0, k = 0; c < n; c++) {
			if (at[c] == 'E')
				continue;
			if (p[k++].revents) {
				if (ctl_recv(in[c], &m) && (m.type == 'R' || m.type == 'D')) {
					at[c] = m.type;
					want[c] = m.n;
				} else {
					int st;

					at[c] = 'E';
					ended++;
					/* A copy that died (rather than finished): the
					 * benchmark has failed, stop the others now. */
					if (!stopped && waitpid(pid[c], &st, WNOHANG) == pid[c] &&
					    (WIFSIGNALED(st) || WEXITSTATUS(st) != 0)) {
						stop_copies(pid, n);
						stopped = 1;
					}
				}
			}
		}
		for (c = 0; c < n; c++) {
			live += at[c] != 'E';
			nr += at[c] == 'R';
			nd += at[c] == 'D';
			if (at[c] == 'R' && want[c] > most)
				most = want[c];
		}
		if (nr && nr + nd == live) {
			for (c = 0; c < n; c++)
				if (at[c] == 'R') {
					ctl_send(out[c], 'G', most);
					at[c] = 0;
				}
		} else if (nd && nd == live) {
			for (c = 0; c < n; c++) {
				ctl_send(out[c], 'S', 0);
				at[c] = 0;
			}
		}
	}
out:
	free(p);
	free(at);
	free(want);
}

/* One timed call op(state, n); -1 with ctx->reason set when it failed or a
 * signal arrived meanwhile. */
static int timed_call(struct bench_ctx *ctx, const struct measure *m, uint64_t n, uint64_t *t0,
		      uint64_t *t1)
{
	int rc;

	if (m->before && m->before(m->state) < 0)
		return op_failed(ctx, errno);
	harness_arm(ctx->h);
	errno = 0;
	*t0 = ctx->h->cfg.now();
	rc = m->op(m->state, n);
	*t1 = ctx->h->cfg.now();
	harness_disarm();
	if (rc < 0)
		return op_failed(ctx, errno);
	if (scratch_interrupted() || timed_out)
		return op_failed(ctx, EINTR);
	return 0;
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

void harness_cpu(struct harness_cpu *c)
{
	struct rusage s, ch;

	getrusage(RUSAGE_SELF, &s);
	getrusage(RUSAGE_CHILDREN, &ch);
	c->user_s = tv_s(s.ru_utime) + tv_s(ch.ru_utime);
	c->sys_s = tv_s(s.ru_stime) + tv_s(ch.ru_stime);
	c->wall_ns = clock_ns();
}

void harness_cpu_record(struct metric *m, const struct harness_cpu *c0, const struct harness_cpu *c1)
{
	m->cpu_wall_s = (double)(c1->wall_ns - c0->wall_ns) / 1e9;
	m->cpu_user_s = c1->user_s - c0->user_s;
	m->cpu_sys_s = c1->sys_s - c0->sys_s;
}

/* --warmup for a calibrated loop, once it is calibrated: DUR of untimed
 * calls, or N calls (samples) thrown away; hyperfine's --warmup, lmbench's
 * -W. Before copies_start(), so --parallel copies still start sampling
 * together. (lmbench's tools time after their own timer calibration,
 * which keeps the CPU busy for seconds: docs/peers.md.) */
static int warm_up(struct bench_ctx *ctx, const struct measure *m, uint64_t n)
{
	const struct harness_cfg *cfg = &ctx->h->cfg;
	uint64_t start = cfg->now(), t0, t1;
	int r;

	if (cfg->ramp_ns)
		result_param_num(ctx->res, "warmup_s", (double)cfg->ramp_ns / 1e9);
	else if (cfg->warmup_reps)
		result_param_num(ctx->res, "warmup_samples", cfg->warmup_reps);
	for (r = 0; cfg->ramp_ns ? cfg->now() - start < cfg->ramp_ns : r < cfg->warmup_reps; r++)
		if (timed_call(ctx, m, n, &t0, &t1) < 0)
			return -1;
	return 0;
}

/* Calibrate: grow *n until a call reaches the target; one slow call (an
 * interruption) must not settle it, so the target is confirmed by a
 * second call and the shorter of the two decides. At most half the budget
 * from start. */
static int calibrate(struct bench_ctx *ctx, const struct measure *m, uint64_t *n)
{
	const struct harness_cfg *cfg = &ctx->h->cfg;
	uint64_t start = cfg->now(), t0, t1, t;

	*n = 1;
	if (m->kind == KIND_UNSET || m->kind == KIND_DERIVED) {
		snprintf(ctx->reason, sizeof(ctx->reason), "internal: %s measured without a timed kind",
			 m->name[0] ? m->name : ctx->b ? ctx->b->id : "a figure");
		return -1;
	}
	for (;;) {
		double mult;

		if (timed_call(ctx, m, *n, &t0, &t1) < 0)
			return -1;
		t = t1 - t0;
		if (t >= cfg->target_ns) {
			if (timed_call(ctx, m, *n, &t0, &t1) < 0)
				return -1;
			if (t1 - t0 < t)
				t = t1 - t0;
		}
		if (t >= cfg->target_ns || t1 - start > cfg->budget_ns / 2 || *n >= (1ull << 40))
			break;
		mult = t > 0 ? 1.2 * (double)cfg->target_ns / (double)t : 100;
		mult = mult < 2 ? 2 : mult > 100 ? 100 : mult;
		*n = (uint64_t)ceil((double)*n * mult);
	}
	if (warm_up(ctx, m, *n) < 0)
		return -1;
	return copies_start(ctx, n);
}

/* Record a measure's k samples, and the core gauge read after each, as a
 * metric of ctx->res. */
static int record(struct bench_ctx *ctx, const struct measure *m, const struct sampled *sp,
		  const double *gauge, int k, const struct harness_cpu *cpu0, const struct harness_cpu *cpu1,
		  double *median)
{
	const struct harness_cfg *cfg = &ctx->h->cfg;
	struct stats st;
	struct metric *met;
	double raw_med;

	/* A median per-op time that is almost all overhead is not a result. */
	stats_compute(sp->raw, (size_t)k, &st);
	raw_med = st.median;
	stats_compute(sp->cor, (size_t)k, &st);
	if (st.median <= 0.02 * raw_med) {
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "%s%stime per operation is not above the harness overhead "
			 "(%.3g ns raw, %.3g ns after subtracting %.3g ns): the work was "
			 "optimized away or is smaller than the loop",
			 m->name, m->name[0] ? ": " : "", raw_med, st.median, raw_med - st.median);
		return -1;
	}
	met = result_add_metric(ctx->res, m->name, m->unit, m->better, sp->val, (size_t)k);
	if (!met) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
	met->iterations = sp->n;
	met->overhead_ns = sp->over;
	met->detail = m->detail;
	met->raw_ns = raw_med;
	met->op_ns = st.median;
	if (result_metric_gauges(met, gauge) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
	if (cfg->ci_target_given) {
		met->ci_target = cfg->ci_target;
		met->ci_reached = met->st.median > 0 ?
			(met->st.ci_hi - met->st.ci_lo) / 2 / met->st.median : 1;
	}
	harness_cpu_record(met, cpu0, cpu1);
	if (median)
		*median = met->st.median;
	return 0;
}

int harness_measure(struct bench_ctx *ctx, const struct measure *m, double *median)
{
	return harness_measure_set(ctx, m, 1, median);
}

int harness_measure_set(struct bench_ctx *ctx, const struct measure *ms, int nm, double *medians)
{
	struct harness_cpu cpu0, cpu1;
	struct harness *h = ctx->h;
	const struct harness_cfg *cfg = &h->cfg;
	uint64_t start = cfg->now(), t0, t1;
	int cap = cfg->max_samples > cfg->samples ? cfg->max_samples : cfg->samples;
	struct sampled *sp = calloc((size_t)nm, sizeof(*sp));
	double *gauge = calloc((size_t)cap, sizeof(double));
	struct stats st;
	int i, k = 0, rc = -1;

	for (i = 0; sp && i < nm; i++) {
		sp[i].val = calloc((size_t)cap, sizeof(double));
		sp[i].raw = calloc((size_t)cap, sizeof(double));
		sp[i].cor = calloc((size_t)cap, sizeof(double));
		if (!sp[i].val || !sp[i].raw || !sp[i].cor)
			break;
	}
	if (!sp || !gauge || i < nm) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		goto out;
	}
	for (i = 0; i < nm; i++) {
		if (calibrate(ctx, &ms[i], &sp[i].n) < 0)
			goto out;
		sp[i].over = h->clk.cost_ns + (double)sp[i].n * (ms[i].no_loop_overhead ? 0 : h->loop_ns);
	}
	if (cfg->ramp_ns || cfg->warmup_reps)
		start = cfg->now();	/* the budget leaves the warm-up out */
	harness_cpu(&cpu0);
	/* Sample the measures in turn, one sample each per round, so that a
	 * machine that drifts moves all of them alike. The budget counts from
	 * the start of calibration (each measure has its own budget); the
	 * set stops when every figure's CI is within the target. */
	for (k = 0; k < cap; k++) {
		int met = 1;

		for (i = 0; i < nm; i++) {
			const struct measure *m = &ms[i];
			double ops = m->ops_per_call > 0 ? m->ops_per_call : 1, r, c;

			if (timed_call(ctx, m, sp[i].n, &t0, &t1) < 0)
				goto out;
			r = (double)(t1 - t0);
			c = r - sp[i].over;
			if (c < 0)
				c = 0;
			sp[i].raw[k] = r / (double)sp[i].n / ops;
			sp[i].cor[k] = c / (double)sp[i].n / ops;
			sp[i].val[k] = harness_convert(m->kind, m->unit, sp[i].cor[k], m->bytes_per_op);
			if (k + 1 >= cfg->samples) {
				stats_compute(sp[i].val, (size_t)k + 1, &st);
				if (!(st.median > 0 && (st.ci_hi - st.ci_lo) / 2 / st.median <= cfg->ci_target))
					met = 0;
			}
		}
		/* Untimed, between samples: was the core shared meanwhile? */
		gauge[k] = gauge_core();
		if (k + 1 >= cfg->samples && (met || cfg->now() - start > (uint64_t)nm * cfg->budget_ns))
			break;
	}
	harness_cpu(&cpu1);
	if (k == cap)
		k--;
	k++;
	copies_finish(ms, nm, sp);
	for (i = 0; i < nm; i++)
		if (record(ctx, &ms[i], &sp[i], gauge, k, &cpu0, &cpu1, medians ? &medians[i] : NULL) < 0)
			goto out;
	rc = 0;
out:
	for (i = 0; sp && i < nm; i++) {
		free(sp[i].val);
		free(sp[i].raw);
		free(sp[i].cor);
	}
	free(sp);
	free(gauge);
	return rc;
}

const struct sysinfo *harness_host(struct bench_ctx *ctx, struct sysinfo *tmp)
{
	if (ctx->opt->host)
		return ctx->opt->host;
	sysinfo_read(tmp);
	return tmp;
}

void *harness_state(struct bench_ctx *ctx, size_t size)
{
	void *s = calloc(1, size);

	if (!s)
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
	return s;
}

int harness_pin(struct bench_ctx *ctx, struct affinity *save)
{
	int cpu = -1, rc;

	save->saved = 0;
	if (!ctx->opt->pin) {
		result_param_str(ctx->res, "pinned", "no");
		return 0;
	}
	rc = affinity_pin_here(save, &cpu);
	if (rc < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "pin to one CPU: %s", strerror(errno));
		return -1;
	}
	result_param_str(ctx->res, "pinned", rc ? "yes" : "unsupported");
	if (rc)
		result_param_num(ctx->res, "pinned_cpu", cpu);
	return 0;
}

int harness_fork(void)
{
	pid_t pid = fork();

	/* Children only ever _exit(), so stdio buffers need no flush here (and
	 * none is timed by proc.fork.*); they must not hold a parallel copy's
	 * control channel open either. */
	if (pid == 0) {
		scratch_signals_default();
		if (ctl_out >= 0)
			close(ctl_out);
		if (ctl_in >= 0)
			close(ctl_in);
		ctl_out = ctl_in = -1;
	}
	return pid;
}

void harness_reap(pid_t pid, int ms)
{
	const struct timespec one = { 0, 1000000 };
	int i;

	if (pid <= 0)
		return;
	for (i = 0; i < ms; i++) {
		pid_t w = waitpid(pid, NULL, WNOHANG);

		if (w == pid || (w < 0 && errno != EINTR))
			return;
		nanosleep(&one, NULL);
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* One copy of a benchmark, start to finish. */
static void run_single(struct harness *h, const struct bench *b, const struct bench_opts *opt,
		       struct bench_result *br)
{
	struct bench_ctx ctx = { .b = b, .opt = opt, .h = h, .res = br, .ops_per_call = 1 };
	void *state = NULL;
	int rc;

	if (b->supported && b->supported(&ctx) < 0) {
		result_set_status(br, ST_UNSUPPORTED, ctx.reason[0] ? ctx.reason : "not supported here");
		return;
	}
	if (b->run) {
		rc = b->run(&ctx);
	} else {
		rc = b->setup ? b->setup(&ctx, &state) : 0;
		if (rc == 0) {
			struct measure m = {
				.name = "", .unit = b->unit, .kind = b->kind, .better = b->better,
				.op = b->op, .state = state, .bytes_per_op = ctx.bytes_per_op,
				.ops_per_call = ctx.ops_per_call, .no_loop_overhead = ctx.no_loop_overhead,
			};
			rc = harness_measure(&ctx, &m, NULL);
		} else if (!ctx.reason[0]) {
			snprintf(ctx.reason, sizeof(ctx.reason), "setup failed: %s", strerror(errno));
		}
		if (b->teardown && state)
			b->teardown(state);
	}
	if (rc == 0)
		result_set_status(br, ST_OK, NULL);
	else if (scratch_interrupted())
		result_set_status(br, ST_INTERRUPTED, "interrupted");
	else
		result_set_status(br, ST_FAILED, ctx.reason[0] ? ctx.reason : "failed");
}

static int is_throughput(const char *unit)
{
	size_t l = strlen(unit);

	return l > 2 && strcmp(unit + l - 2, "/s") == 0;
}

/* --parallel: aggregate the copies' results into br. */
static void aggregate(struct bench_result *br, struct bench_result *copies, int n)
{
	size_t i, j;
	int c;

	/* A copy that failed explains the others, which were stopped for it. */
	for (c = 0; c < n; c++)
		if (copies[c].status == ST_FAILED)
			break;
	for (c = c < n ? c : 0; c < n; c++) {
		if (copies[c].status != ST_OK) {
			char why[300];

			snprintf(why, sizeof(why), "copy %d of %d: %s", c + 1, n,
				 copies[c].reason ? copies[c].reason : status_name(copies[c].status));
			result_set_status(br, copies[c].status, why);
			return;
		}
	}
	for (i = 0; i < copies[0].nparams; i++) {
		const struct param *p = &copies[0].params[i];

		if (p->str)
			result_param_str(br, p->key, p->str);
		else
			result_param_num(br, p->key, p->num);
	}
	result_param_num(br, "parallel", n);
	for (i = 0; i < copies[0].nmetrics; i++) {
		const struct metric *m0 = &copies[0].metrics[i];
		size_t ns = m0->nsamples;
		double *agg, *per = calloc((size_t)n, sizeof(double));
		struct metric *m;

		for (c = 1; c < n; c++) {
			const struct metric *mc = result_metric(&copies[c], m0->name);

			if (!mc) {
				free(per);
				result_set_status(br, ST_FAILED, "parallel copies recorded different metrics");
				return;
			}
			if (mc->nsamples < ns)
				ns = mc->nsamples;
		}
		agg = calloc(ns ? ns : 1, sizeof(double));
		/* Each copy's median over the same ns samples the aggregate adds
		 * (a copy may have taken more samples than another). */
		for (c = 0; c < n && agg && per; c++) {
			const struct metric *mc = result_metric(&copies[c], m0->name);
			struct stats st;

			per[c] = ns && stats_compute(mc->samples, ns, &st) == 0 ? st.median
									   : mc->st.median;
			for (j = 0; j < ns; j++)
				agg[j] += mc->samples[j];
		}
		/* Throughputs (units per second) add up; everything else (times per
		 * operation, a clock rate, a size) is averaged over the copies. */
		if (agg && !is_throughput(m0->unit))
			for (j = 0; j < ns; j++)
				agg[j] /= n;
		m = agg && per ? result_add_metric(br, m0->name, m0->unit, m0->better, agg, ns) : NULL;
		if (m) {
			m->iterations = m0->iterations;
			m->overhead_ns = m0->overhead_ns;
			m->detail = m0->detail;
			m->note = m0->note ? strdup(m0->note) : NULL;
			m->derived = m0->derived ? strdup(m0->derived) : NULL;
			/* per-op times of copy 0; CPU of all copies over the longest phase */
			m->raw_ns = m0->raw_ns;
			m->op_ns = m0->op_ns;
			m->gauge = m0->gauge;
			m->ci_target = m0->ci_target;	/* met only when every copy met it */
			for (c = 0; c < n; c++) {
				const struct metric *mc = result_metric(&copies[c], m0->name);

				if (mc->ci_reached > m->ci_reached)
					m->ci_reached = mc->ci_reached;
				m->cpu_user_s += mc->cpu_user_s;
				m->cpu_sys_s += mc->cpu_sys_s;
				if (mc->cpu_wall_s > m->cpu_wall_s)
					m->cpu_wall_s = mc->cpu_wall_s;
			}
			m->per_copy = per;
			m->ncopies = (size_t)n;
			per = NULL;
		}
		free(agg);
		free(per);
	}
	result_set_status(br, ST_OK, NULL);
}

/* Interrupted: the copies stop too (they are in our process group for a
 * terminal's ^C, but not for a SIGTERM sent to bakeoff alone). */
static void stop_copies(const pid_t *pid, int n)
{
	int c;

	for (c = 0; c < n; c++)
		if (pid[c] > 0)
			kill(pid[c], SIGTERM);
}

static void run_parallel(struct harness *h, const struct bench *b, const struct bench_opts *opt,
			 struct bench_result *br)
{
	int n = opt->parallel, c, started = 0;
	int *res = calloc((size_t)n, sizeof(int)), *in = calloc((size_t)n, sizeof(int)),
	    *out = calloc((size_t)n, sizeof(int));
	pid_t *pid = calloc((size_t)n, sizeof(pid_t));
	struct bench_result *copies = calloc((size_t)n, sizeof(*copies));
	struct buf text = { 0 };
	char ch[4096];

	if (!res || !in || !out || !pid || !copies) {
		result_set_status(br, ST_FAILED, "cannot set up parallel copies: out of memory");
		goto out;
	}
	for (c = 0; c < n; c++) {
		int rp[2], up[2], down[2];

		if (pipe(rp) < 0 || pipe(up) < 0 || pipe(down) < 0) {
			result_set_status(br, ST_FAILED, "pipes for a parallel copy failed");
			break;
		}
		if ((pid[c] = harness_fork()) < 0) {
			result_set_status(br, ST_FAILED, "fork of a parallel copy failed");
			close(rp[0]), close(rp[1]), close(up[0]), close(up[1]), close(down[0]), close(down[1]);
			break;
		}
		if (pid[c] == 0) {
			struct bench_result mine = { 0 };
			int k;

			for (k = 0; k < c; k++)	/* the other copies' channels */
				close(res[k]), close(in[k]), close(out[k]);
			close(rp[0]);
			close(up[0]);
			close(down[1]);
			ctl_out = up[1];
			ctl_in = down[0];
			mine.id = br->id;
			mine.group = br->group;
			mine.title = br->title;
			run_single(h, b, opt, &mine);
			close(ctl_out);	/* before the result: the parent waits for this */
			close(ctl_in);
			_exit(result_bench_to_fd(&mine, rp[1]) < 0 ? 3 : 0);
		}
		close(rp[1]);
		close(up[1]);
		close(down[0]);
		res[c] = rp[0];
		in[c] = up[0];
		out[c] = down[1];
		started++;
	}
	if (started == n)
		conduct(n, in, out, pid);
	for (c = 0; c < started; c++) {	/* a copy still waiting sees EOF and gives up */
		close(in[c]);
		close(out[c]);
	}
	for (c = 0; c < started; c++) {
		ssize_t r;

		text.len = 0;
		while ((r = read(res[c], ch, sizeof(ch))) > 0 || (r < 0 && errno == EINTR)) {
			if (r > 0)
				buf_add(&text, ch, (size_t)r);
			else if (scratch_interrupted())
				stop_copies(pid, started);
		}
		close(res[c]);
		copies[c].id = NULL;
		if (text.len == 0 || result_bench_from_text(text.p, text.len, &copies[c]) < 0)
			result_set_status(&copies[c], ST_FAILED, "a parallel copy died");
	}
	for (c = 0; c < started; c++)
		waitpid(pid[c], NULL, 0);
	if (started == n)
		aggregate(br, copies, n);
	if (scratch_interrupted())
		result_set_status(br, ST_INTERRUPTED, "interrupted");
	for (c = 0; c < started; c++)
		result_bench_free(&copies[c]);
out:
	free(res);
	free(in);
	free(out);
	free(pid);
	free(copies);
	buf_free(&text);
}

void harness_run_bench(struct harness *h, const struct bench *b, const struct bench_opts *opt,
		       struct bench_result *br)
{
	struct rusage r0, r1, c0, c1;
	uint64_t t0 = clock_ns();

	getrusage(RUSAGE_SELF, &r0);
	getrusage(RUSAGE_CHILDREN, &c0);
	if (opt->parallel > 1)
		run_parallel(h, b, opt, br);
	else
		run_single(h, b, opt, br);
	getrusage(RUSAGE_SELF, &r1);
	getrusage(RUSAGE_CHILDREN, &c1);
	br->wall_s = (double)(clock_ns() - t0) / 1e9;
	br->user_s = tv_s(r1.ru_utime) - tv_s(r0.ru_utime) + tv_s(c1.ru_utime) - tv_s(c0.ru_utime);
	br->sys_s = tv_s(r1.ru_stime) - tv_s(r0.ru_stime) + tv_s(c1.ru_stime) - tv_s(c0.ru_stime);
}

struct metric *harness_copies(struct bench_ctx *ctx, const struct bench *b, int copies, const char *name)
{
	struct bench_opts o = *ctx->opt;
	struct bench_result br = { 0 };
	const struct metric *src = NULL;
	struct metric *m = NULL;

	o.parallel = copies;
	br.id = strdup(b->id);
	br.group = strdup(b->group);
	br.title = strdup(b->title);
	if (br.id && br.group && br.title) {
		harness_run_bench(ctx->h, b, &o, &br);
		if (br.status != ST_OK)
			snprintf(ctx->reason, sizeof(ctx->reason), "%s: %s", name,
				 br.reason ? br.reason : status_name(br.status));
		else if (!(src = result_metric(&br, "")) || !src->nsamples)
			snprintf(ctx->reason, sizeof(ctx->reason), "%s: no figure", name);
		else if (!(m = result_add_metric(ctx->res, name, src->unit, src->better, src->samples,
						 src->nsamples)))
			snprintf(ctx->reason, sizeof(ctx->reason), "%s: out of memory", name);
	} else {
		snprintf(ctx->reason, sizeof(ctx->reason), "%s: out of memory", name);
	}
	if (m) {
		m->iterations = src->iterations;
		m->overhead_ns = src->overhead_ns;
		m->cpu_wall_s = src->cpu_wall_s;
		m->cpu_user_s = src->cpu_user_s;
		m->cpu_sys_s = src->cpu_sys_s;
		m->gauge = src->gauge;
		if (src->ncopies && (m->per_copy = malloc(src->ncopies * sizeof(double)))) {
			memcpy(m->per_copy, src->per_copy, src->ncopies * sizeof(double));
			m->ncopies = src->ncopies;
		}
	}
	result_bench_free(&br);
	return m;
}

/* ---- one benchmark in a child process ---- */

static pid_t bench_parent;	/* in a benchmark's process: bakeoff's pid */

int harness_orphaned(void)
{
	return bench_parent && getppid() != bench_parent;
}

static const char *sig_name(int sig)
{
	static const struct {
		int sig;
		const char *name;
	} names[] = {
		{ SIGSEGV, "SIGSEGV" }, { SIGBUS, "SIGBUS" }, { SIGABRT, "SIGABRT" },
		{ SIGILL, "SIGILL" }, { SIGFPE, "SIGFPE" }, { SIGKILL, "SIGKILL" },
		{ SIGTERM, "SIGTERM" }, { SIGINT, "SIGINT" }, { SIGPIPE, "SIGPIPE" },
		{ SIGALRM, "SIGALRM" }, { SIGXCPU, "SIGXCPU" }, { SIGXFSZ, "SIGXFSZ" },
		{ SIGSYS, "SIGSYS" }, { SIGTRAP, "SIGTRAP" }, { SIGHUP, "SIGHUP" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].sig == sig)
			return names[i].name;
	return "unknown signal";
}

/* Why a child that sent no result ended. */
static void child_failed(struct bench_result *br, int status, int killed_by_us, double timeout)
{
	char why[200];

	if (killed_by_us) {
		result_set_status(br, ST_INTERRUPTED, "interrupted");
		return;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_TIMED_OUT)
		snprintf(why, sizeof(why), "timed out: an operation took longer than --op-timeout %.3g s "
			 "and did not stop when told", timeout);
	else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		snprintf(why, sizeof(why), "killed by signal 9 (SIGKILL; out of memory?)");
	else if (WIFSIGNALED(status))
		snprintf(why, sizeof(why), "killed by signal %d (%s)", WTERMSIG(status),
			 sig_name(WTERMSIG(status)));
	else if (WIFEXITED(status))
		snprintf(why, sizeof(why), "its process exited with status %d without a result",
			 WEXITSTATUS(status));
	else
		snprintf(why, sizeof(why), "its process ended without a result");
	result_set_status(br, ST_FAILED, why);
}

void harness_run_isolated(struct harness *h, const struct bench *b, const struct bench_opts *opt,
			  struct bench_result *br)
{
	struct buf text = { 0 };
	struct bench_result got;
	uint64_t t0 = clock_ns(), stop_at = 0;
	int fd[2], status = 0, reaped = 0, killed = 0, eof = 0;
	pid_t pid, parent = getpid();

	fflush(NULL);
	if (pipe(fd) < 0 || (pid = fork()) < 0) {
		char why[200];

		snprintf(why, sizeof(why), "cannot start the benchmark's process: %s", strerror(errno));
		result_set_status(br, ST_FAILED, why);
		return;
	}
	if (pid == 0) {
		struct bench_result mine = { 0 };

		setpgid(0, 0);
		os_die_with_parent();
		bench_parent = parent;
		if (harness_orphaned())	/* it died before that took effect */
			_exit(1);
		close(fd[0]);
		mine.id = br->id;
		mine.group = br->group;
		mine.title = br->title;
		harness_run_bench(h, b, opt, &mine);
		_exit(result_bench_to_fd(&mine, fd[1]) < 0 ? 3 : 0);
	}
	setpgid(pid, pid);	/* both sides, so neither races the other */
	close(fd[1]);
	fcntl(fd[0], F_SETFL, O_NONBLOCK);
	/* Read the result while waiting; a grandchild may hold the pipe open
	 * after the child is gone, so the child's exit also ends the wait. */
	while (!eof) {
		struct pollfd p = { fd[0], POLLIN, 0 };
		char chunk[65536];
		ssize_t r;

		if (poll(&p, 1, 100) > 0 || reaped) {
			while ((r = read(fd[0], chunk, sizeof(chunk))) > 0)
				buf_add(&text, chunk, (size_t)r);
			if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR))
				eof = 1;
		}
		if (reaped && !eof)
			break;	/* drained what the child wrote before it exited */
		if (!reaped && waitpid(pid, &status, WNOHANG) == pid)
			reaped = 1;
		if (scratch_interrupted() && !stop_at) {
			kill(-pid, SIGTERM);	/* SIGTERM to bakeoff alone reaches the child too */
			stop_at = clock_ns() + 500000000ull;
		} else if (stop_at && clock_ns() > stop_at && !killed) {
			kill(-pid, SIGKILL);
			killed = 1;
		}
	}
	close(fd[0]);
	if (!reaped)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	kill(-pid, SIGKILL);	/* helpers the benchmark left behind */
	if (!killed && text.len && result_bench_from_text(text.p, text.len, &got) == 0) {
		result_bench_free(br);
		*br = got;
	} else {
		child_failed(br, status, killed, (double)h->cfg.op_timeout_ns / 1e9);
		br->wall_s = (double)(clock_ns() - t0) / 1e9;
	}
	buf_free(&text);
}
