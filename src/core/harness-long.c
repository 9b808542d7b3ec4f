/* harness-long.c — the harness's second mode, for long operations (disk,
 * network, `time`): fixed repetitions or a duration, warm-up, an untimed
 * prepare step before each repetition, progress with rate and ETA,
 * per-interval figures, per-operation latency percentiles, the CPU time of
 * the timed calls, the op timeout and Ctrl-C checked as the op reports
 * progress. See harness.h for the contract. */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "hist.h"
#include "scratch.h"
#include "stream.h"
#include "units.h"

#define DEFAULT_DURATION_NS 10000000000ull
#define SS_MAX 512	/* --steady-state: interval figures of a window, at most */
#define DRAW_NS 250000000ull	/* progress line refreshed at most 4 times a second */
#define REARM_NS 100000000ull	/* the op timeout re-armed by progress at most this often */

struct long_run {
	struct bench_ctx *ctx;
	const struct long_op *lo;
	const struct harness_cfg *cfg;
	int timed, rep, nreps;
	uint64_t t0;		/* start of the repetition */
	uint64_t t_end;		/* long_end(): when the op's timed work ended (0: at its return) */
	uint64_t deadline;	/* time-based: end of the repetition */
	uint64_t t_ramp;	/* --warmup DUR, --steady-state: when the ramp ended (0: not yet) */
	uint64_t ramp_ns;	/* the ramp: --warmup DUR, else the op's own (a time-based op's) */
	/* --steady-state: the ramp's interval figures (the last SS_MAX), the
	 * current one's start and amount, and how each repetition's ramp ended */
	double ss_v[SS_MAX];
	size_t ss_n;
	uint64_t ss_t0, dur;
	double ss_amount0;
	int ss_never;
	double amount, amount_ramp;
	/* the current interval, the one before it, and the first of this
	 * repetition (an interval is never folded into another repetition's) */
	uint64_t iv_t0, iv_prev_t0;
	size_t iv_rep0;
	double iv_amount0;
	uint64_t measure_t0;	/* start of the first timed repetition */
	/* intervals kept (growable) */
	double *iv_t, *iv_value, *iv_amount;
	size_t niv, cap;
	int oom;
	struct hist *hist;
	struct hist *ivh;	/* --json-stream: the current interval's latencies */
	struct hist *ch[2];	/* lo->classes: each class's latencies */
	double camount[2];	/* and its amount in this repetition (past the ramp) */
	uint64_t last_draw, last_arm;
	int stop;		/* -1 once interrupted or timed out */
};

int harness_estimate_reps(const struct harness_cfg *cfg)
{
	return cfg->warmup_reps + (cfg->reps > 0 ? cfg->reps : 1);
}

int harness_estimate_class(const struct bench *b)
{
	return b->estimate || b->figures || b->long_mode;
}

double harness_estimate(const struct bench *b, const struct bench_opts *opt,
			const struct harness_cfg *cfg)
{
	/* a loop figure: calibration (a few samples' length) and the samples;
	 * about 5.5 sample lengths per sample, as timed on two guests */
	double fig = 5.5 * (double)cfg->samples * (double)cfg->target_ns / 1e9;
	double dur = cfg->duration_ns ? (double)cfg->duration_ns / 1e9 : opt->quick ? 0.5 : 2;

	if (fig > (double)cfg->budget_ns / 1e9)
		fig = (double)cfg->budget_ns / 1e9;
	if (b->estimate)
		return b->estimate(opt, cfg, fig);
	if (b->figures)
		return (opt->quick ? b->figures_quick : b->figures) * fig;
	if (b->long_mode)
		return harness_estimate_reps(cfg) * dur;
	return fig;
}

void eta_add(struct eta *e, size_t i, double est, int cls, int nruns)
{
	e->est[i] = est;
	e->cls[i] = (unsigned char)(cls != 0);
	e->total[cls != 0] += nruns * est;
}

void eta_done(struct eta *e, size_t i, double wall_s)
{
	e->done_est[e->cls[i]] += e->est[i];
	e->done_s[e->cls[i]] += wall_s;
}

double eta_left(const struct eta *e)
{
	double left = 0;
	int c;

	for (c = 0; c < 2; c++) {
		double f = e->done_est[c] > 0 ? e->done_s[c] / e->done_est[c] : 1;
		double w = e->total[c] > 0 ? e->done_est[c] / (0.05 * e->total[c]) : 0;

		if (f < 1.0 / 3)
			f = 1.0 / 3;
		if (f > 3)
			f = 3;
		if (w < 1)
			f = 1 + (f - 1) * w;
		left += (e->total[c] - e->done_est[c]) * f;
	}
	return left;
}

uint64_t long_now(const struct long_run *lr)
{
	return lr->cfg->now();
}

uint64_t long_start(const struct long_run *lr)
{
	return lr->t0;
}

uint64_t long_end(struct long_run *lr)
{
	return lr->t_end = lr->cfg->now();
}

struct bench_ctx *long_ctx(const struct long_run *lr)
{
	return lr->ctx;
}

/* The figure of `amount` done in `ns`, in the op's unit. */
static double figure(const struct long_op *lo, double ns, double amount)
{
	if (lo->kind == KIND_BANDWIDTH)
		return harness_convert(lo->kind, lo->unit, ns, amount);
	return harness_convert(lo->kind, lo->unit, ns / amount, 0);
}

/* --json-stream: the interval just closed, with its own latencies (a
 * sliver folded into the interval before it is not said again). */
static void stream_put(struct long_run *lr, uint64_t now, double amount, double value)
{
	struct stream_iv iv = {
		.metric = lr->lo->name, .unit = lr->lo->unit, .rep = lr->rep + 1,
		.bandwidth = lr->lo->kind == KIND_BANDWIDTH, .t_start = (double)(lr->iv_t0 - lr->t0) / 1e9,
		.t_end = (double)(now - lr->t0) / 1e9, .amount = amount, .value = value,
	};

	if (!lr->ivh)
		return;
	iv.bench = lr->ctx->b ? lr->ctx->b->id : "";
	iv.lat_count = hist_count(lr->ivh);
	if (iv.lat_count) {
		iv.lat_mean = hist_mean(lr->ivh);
		iv.lat_p50 = hist_quantile(lr->ivh, 0.5);
		iv.lat_p99 = hist_quantile(lr->ivh, 0.99);
		iv.lat_max = (double)hist_max(lr->ivh);
	}
	stream_interval(&iv);
	hist_reset(lr->ivh);
}

static void close_interval(struct long_run *lr, uint64_t now)
{
	double amount = lr->amount - lr->iv_amount0;

	/* At the end of a repetition, a sliver just after the last interval
	 * closed is not an interval of its own: without work it is dropped,
	 * with some (the operations in flight when the time was up, as
	 * disk.rand's jobs finish theirs) it is folded into the interval
	 * before it; alone, 121 operations in 0.6 ms read as 200000 IOPS. */
	if (now <= lr->iv_t0 || (amount <= 0 && now - lr->iv_t0 < lr->cfg->interval_ns / 2))
		return;
	if (now - lr->iv_t0 < lr->cfg->interval_ns / 4 && lr->niv > lr->iv_rep0) {
		size_t k = lr->niv - 1;

		lr->iv_amount[k] += amount;
		lr->iv_t[k] = (double)(now - lr->measure_t0) / 1e9;
		lr->iv_value[k] = figure(lr->lo, (double)(now - lr->iv_prev_t0), lr->iv_amount[k]);
		lr->iv_t0 = now;
		lr->iv_amount0 = lr->amount;
		return;
	}
	if (lr->niv == lr->cap) {
		size_t cap = lr->cap ? 2 * lr->cap : 64;
		double *t = realloc(lr->iv_t, cap * sizeof(double));
		double *v = t ? realloc(lr->iv_value, cap * sizeof(double)) : NULL;
		double *a = v ? realloc(lr->iv_amount, cap * sizeof(double)) : NULL;

		if (t)
			lr->iv_t = t;
		if (v)
			lr->iv_value = v;
		if (!a) {
			lr->oom = 1;
			return;
		}
		lr->iv_amount = a;
		lr->cap = cap;
	}
	lr->iv_t[lr->niv] = (double)(now - lr->measure_t0) / 1e9;
	lr->iv_amount[lr->niv] = amount;
	lr->iv_value[lr->niv] = amount > 0 ? figure(lr->lo, (double)(now - lr->iv_t0), amount) : 0;
	stream_put(lr, now, amount, lr->iv_value[lr->niv]);
	lr->niv++;
	lr->iv_prev_t0 = lr->iv_t0;
	lr->iv_t0 = now;
	lr->iv_amount0 = lr->amount;
}

/* "[3/9] disk.seq: rep 2/3, 512 MiB of 1 GiB, 245 MB/s, 4 s left" */
static void draw(struct long_run *lr, uint64_t now)
{
	const struct long_op *lo = lr->lo;
	double el = (double)(now - lr->t0), rate, left = -1;
	char done[32], tot[32] = "", r[32];

	if (el <= 0 || lr->amount <= 0)
		return;
	if (lo->kind == KIND_BANDWIDTH) {
		fmt_size(done, sizeof(done), (uint64_t)lr->amount);
		if (lo->total > 0)
			fmt_size(tot, sizeof(tot), (uint64_t)lo->total);
	} else {
		snprintf(done, sizeof(done), "%.0f ops", lr->amount);
		if (lo->total > 0)
			snprintf(tot, sizeof(tot), "%.0f", lo->total);
	}
	fmt_num(r, sizeof(r), figure(lo, el, lr->amount));
	rate = lr->amount / el;	/* per ns */
	if (lr->deadline)
		left = (double)(lr->deadline - now) +
		       (double)(lr->nreps - lr->rep - 1) * (double)(lr->deadline - lr->t0);
	else if (lo->total > 0)
		left = (lo->total - lr->amount) / rate +
		       (double)(lr->nreps - lr->rep - 1) * lo->total / rate;
	fprintf(stderr, "\r\033[K%s%s%s: %s %d/%d, %s%s%s, %s %s", lr->cfg->progress_prefix ?
		lr->cfg->progress_prefix : "", lo->name[0] ? ":" : "", lo->name,
		lr->timed ? "rep" : "warm-up", lr->rep + 1, lr->nreps, done, tot[0] ? " of " : "",
		tot, r, lo->unit);
	if (left >= 0)
		fprintf(stderr, ", %.0f s left", left / 1e9);
	fflush(stderr);
	lr->last_draw = now;
}

/* --steady-state applies: a time-based op */
static int steady(const struct long_run *lr)
{
	return lr->cfg->ss_window_ns && lr->lo->time_based;
}

/* Still in the ramp (--warmup DUR or --steady-state): nothing counted yet. */
static int ramping(const struct long_run *lr)
{
	return (lr->ramp_ns || steady(lr)) && !lr->t_ramp;
}

static void end_ramp(struct long_run *lr, uint64_t now)
{
	lr->t_ramp = now;
	lr->amount_ramp = lr->amount;
	lr->iv_t0 = now;	/* intervals start after the ramp */
	lr->iv_amount0 = lr->amount;
	if (steady(lr))		/* then the repetition's own duration */
		lr->deadline = now + lr->dur;
}

/* --steady-state: close the ramp's interval when it is due; the ramp ends
 * once every figure of the last window is within the bound of their mean,
 * or, never steady, after the repetition's duration. */
static void steady_check(struct long_run *lr, uint64_t now)
{
	const struct harness_cfg *cfg = lr->cfg;
	size_t need = (size_t)(cfg->ss_window_ns / cfg->interval_ns), i, k;
	double mean = 0, worst = 0;

	if (now - lr->ss_t0 >= cfg->interval_ns) {
		lr->ss_v[lr->ss_n++ % SS_MAX] =
			figure(lr->lo, (double)(now - lr->ss_t0), lr->amount - lr->ss_amount0);
		lr->ss_t0 = now;
		lr->ss_amount0 = lr->amount;
		if (need < 2)
			need = 2;
		if (need > SS_MAX)
			need = SS_MAX;
		if (lr->ss_n >= need) {
			for (i = 0; i < need; i++)
				mean += lr->ss_v[(lr->ss_n - 1 - i) % SS_MAX] / (double)need;
			for (i = 0; i < need; i++) {
				k = (lr->ss_n - 1 - i) % SS_MAX;
				if (fabs(lr->ss_v[k] - mean) > worst)
					worst = fabs(lr->ss_v[k] - mean);
			}
			if (mean > 0 && worst <= cfg->ss_bound * mean) {
				end_ramp(lr, now);
				return;
			}
		}
	}
	if (now - lr->t0 >= lr->dur) {
		lr->ss_never++;
		end_ramp(lr, now);
	}
}

int long_progress(struct long_run *lr, double amount)
{
	const struct harness_cfg *cfg = lr->cfg;
	uint64_t now = cfg->now();

	lr->amount += amount;
	if (lr->ramp_ns && !lr->t_ramp && now - lr->t0 >= lr->ramp_ns)
		end_ramp(lr, now);
	else if (steady(lr) && !lr->t_ramp)
		steady_check(lr, now);
	if (lr->timed && !ramping(lr) && now - lr->iv_t0 >= cfg->interval_ns)
		close_interval(lr, now);
	if (cfg->progress && now - lr->last_draw >= DRAW_NS)
		draw(lr, now);
	if (now - lr->last_arm >= REARM_NS) {
		harness_arm(lr->ctx->h);	/* progress is a sign of life */
		lr->last_arm = now;
		if (harness_orphaned())
			return lr->stop = -1;
	}
	if (scratch_interrupted() || harness_timed_out())
		return lr->stop = -1;
	return lr->deadline && now >= lr->deadline ? 1 : 0;
}

void long_class(struct long_run *lr, int cls, double amount, uint64_t ns)
{
	if (!lr->timed || ramping(lr) || cls < 0 || cls > 1 || !lr->ch[cls])
		return;
	lr->camount[cls] += amount;
	hist_add(lr->ch[cls], ns);
	long_lat(lr, ns);
}

void long_lat(struct long_run *lr, uint64_t ns)
{
	if (!lr->timed || !lr->hist || ramping(lr))
		return;
	hist_add(lr->hist, ns);
	if (lr->ivh)
		hist_add(lr->ivh, ns);
}

int harness_wait_fd(struct bench_ctx *ctx, int fd, short events, const char *what)
{
	uint64_t limit = ctx->h->cfg.op_timeout_ns, start = clock_ns();
	struct pollfd p = { fd, events, 0 };
	int r;

	for (;;) {
		if (scratch_interrupted()) {
			snprintf(ctx->reason, sizeof(ctx->reason), "interrupted");
			return -1;
		}
		if (limit && clock_ns() - start > limit) {
			snprintf(ctx->reason, sizeof(ctx->reason), "timed out after %.3g s waiting for %s",
				 (double)limit / 1e9, what);
			return -1;
		}
		r = poll(&p, 1, 100);
		if (r > 0)
			return 0;
		if (r < 0 && errno != EINTR) {
			snprintf(ctx->reason, sizeof(ctx->reason), "waiting for %s: %s", what,
				 strerror(errno));
			return -1;
		}
	}
}

static int failed(struct bench_ctx *ctx, const char *what, int err)
{
	if (harness_timed_out())
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "timed out: %s made no progress for --op-timeout %.3g s", what,
			 (double)ctx->h->cfg.op_timeout_ns / 1e9);
	else if (scratch_interrupted())
		snprintf(ctx->reason, sizeof(ctx->reason), "interrupted");
	else if (!ctx->reason[0])
		snprintf(ctx->reason, sizeof(ctx->reason), "%s failed%s%s", what, err ? ": " : "",
			 err ? strerror(err) : "");
	return -1;
}

/* One repetition: prepare (untimed), then op (timed). Its figure goes to
 * *value and its time per unit amount to *per. */
static int one_rep(struct long_run *lr, struct harness_cpu *cpu_sum, double *value, double *per,
		   double *done)
{
	const struct long_op *lo = lr->lo;
	const struct harness_cfg *cfg = lr->cfg;
	struct bench_ctx *ctx = lr->ctx;
	struct harness_cpu c0, c1;
	uint64_t t1, dur = cfg->duration_ns ? cfg->duration_ns :
			   lo->duration_ns ? lo->duration_ns : DEFAULT_DURATION_NS;
	double amount, ns;
	int rc;

	lr->amount = lr->amount_ramp = 0;
	lr->camount[0] = lr->camount[1] = 0;
	lr->t_ramp = 0;
	if (lo->prepare) {
		harness_arm(ctx->h);
		errno = 0;
		rc = lo->prepare(lo->state, lr);
		harness_disarm();
		if (rc < 0 || scratch_interrupted() || harness_timed_out())
			return failed(ctx, "the untimed preparation", errno);
	}
	/* the op timeout armed before the clock starts: the repetition's time
	 * is the op call's alone, or up to long_end() (an op that times itself,
	 * as net.tcp.bw does for ttcp's lines, reads these same two instants) */
	harness_arm(ctx->h);
	harness_cpu(&c0);
	lr->t0 = lr->iv_t0 = lr->last_arm = cfg->now();
	lr->t_end = 0;
	lr->iv_rep0 = lr->niv;
	if (lr->ivh)
		hist_reset(lr->ivh);
	if (lr->timed && !lr->measure_t0)
		lr->measure_t0 = lr->t0;
	lr->iv_amount0 = 0;
	lr->dur = dur;
	lr->ss_t0 = lr->t0;
	lr->ss_n = 0;
	lr->ss_amount0 = 0;
	/* with --steady-state the deadline is set when the ramp ends */
	lr->deadline = lo->time_based && !steady(lr) ? lr->t0 + lr->ramp_ns + dur : 0;
	errno = 0;
	rc = lo->op(lo->state, lr);
	t1 = lr->t_end ? lr->t_end : cfg->now();
	harness_disarm();
	harness_cpu(&c1);
	if (rc < 0 || lr->stop < 0 || scratch_interrupted() || harness_timed_out())
		return failed(ctx, "the operation", errno);
	if (lr->timed) {
		close_interval(lr, t1);
		cpu_sum->user_s += c1.user_s - c0.user_s;
		cpu_sum->sys_s += c1.sys_s - c0.sys_s;
		cpu_sum->wall_ns += c1.wall_ns - c0.wall_ns;
	}
	if (steady(lr) && !lr->t_ramp)	/* ended in its ramp (by its own clock) */
		lr->ss_never++;
	if (lr->ramp_ns && !lr->t_ramp) {
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "the operation ended before the %s ramp of %.3g s was over",
			 cfg->ramp_ns ? "--warmup" : "omitted", (double)lr->ramp_ns / 1e9);
		return -1;
	}
	amount = lr->amount - lr->amount_ramp;
	ns = (double)(t1 - (lr->t_ramp ? lr->t_ramp : lr->t0));
	if (amount <= 0 || ns <= 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "the operation reported no work done");
		return -1;
	}
	*value = figure(lo, ns, amount);
	*per = ns / amount;
	*done = amount;
	return 0;
}

/* --steady-state: how long each timed repetition ramped, or that it never
 * got steady, on the figure (and "steady_state": "never" in its params). */
static void steady_note(struct bench_ctx *ctx, struct metric *m, const struct long_run *lr,
			const double *after, int k)
{
	const struct harness_cfg *cfg = lr->cfg;
	char note[300], rule[120], pname[200];
	size_t len;
	int i;

	snprintf(rule, sizeof(rule), "every %g s interval within %g%% of their mean over %g s",
		 (double)cfg->interval_ns / 1e9, cfg->ss_bound * 100, (double)cfg->ss_window_ns / 1e9);
	if (lr->ss_never) {
		snprintf(note, sizeof(note), "never steady in %d of %d repetition%s (%s, at most %g s): "
			 "measured anyway", lr->ss_never, k, k == 1 ? "" : "s", rule, (double)lr->dur / 1e9);
	} else {
		snprintf(note, sizeof(note), "steady after ");
		for (i = 0; i < k && i < SS_MAX; i++) {
			len = strlen(note);
			snprintf(note + len, sizeof(note) - len, "%s%.1f", i ? ", " : "", after[i]);
		}
		len = strlen(note);
		snprintf(note + len, sizeof(note) - len, " s (%s)", rule);
	}
	if (!m->note)
		m->note = strdup(note);
	snprintf(pname, sizeof(pname), "%s%ssteady_state", m->name, m->name[0] ? ":" : "");
	result_param_str(ctx->res, pname, lr->ss_never ? "never" : "reached");
}

/* The latency percentiles of h into m, in one unit for all, chosen by
 * p99 so the tail stays readable. */
static void put_hist(struct metric *m, const struct hist *h)
{
	double p99, div;

	if (!(m->hist_count = hist_count(h)))
		return;
	p99 = hist_quantile(h, 0.99);
	snprintf(m->hist_unit, sizeof(m->hist_unit), "%s", p99 >= 1e7 ? "ms" : p99 >= 1e4 ? "us" : "ns");
	div = p99 >= 1e7 ? 1e6 : p99 >= 1e4 ? 1e3 : 1;
	m->hist_mean = hist_mean(h) / div;
	m->hist_p50 = hist_quantile(h, 0.5) / div;
	m->hist_p90 = hist_quantile(h, 0.9) / div;
	m->hist_p99 = p99 / div;
	m->hist_p999 = hist_quantile(h, 0.999) / div;
	m->hist_max = (double)hist_max(h) / div;
}

/* The ramp left out of each repetition: --warmup DUR, else (no --warmup at
 * all) a time-based op's own. */
static uint64_t ramp_of(const struct harness_cfg *cfg, const struct long_op *lo)
{
	return cfg->ramp_ns ? cfg->ramp_ns : !cfg->warmup_given && lo->time_based ? lo->ramp_ns : 0;
}

/* One long operation's repetitions, kept until its metric is recorded. */
struct long_acc {
	struct long_run lr;
	struct harness_cpu cpu;
	double *val, *per, *amt, *camt[2], *cval[2];
	double ss_after[SS_MAX];
	int k;	/* timed repetitions done */
};

static int acc_open(struct long_acc *a, struct bench_ctx *ctx, const struct long_op *lo, int cap)
{
	const struct harness_cfg *cfg = &ctx->h->cfg;
	int c;

	a->lr = (struct long_run){ .ctx = ctx, .lo = lo, .cfg = cfg, .ramp_ns = ramp_of(cfg, lo) };
	a->val = calloc((size_t)cap, sizeof(double));
	a->per = calloc((size_t)cap, sizeof(double));
	a->amt = calloc((size_t)cap, sizeof(double));
	a->lr.hist = hist_new();
	a->lr.ivh = stream_on() ? hist_new() : NULL;
	for (c = 0; c < 2; c++)
		if (lo->classes[c] && (!(a->lr.ch[c] = hist_new()) ||
				       !(a->camt[c] = calloc((size_t)cap, sizeof(double))) ||
				       !(a->cval[c] = calloc((size_t)cap, sizeof(double)))))
			a->lr.oom = 1;
	if (!a->val || !a->per || !a->amt || !a->lr.hist || (stream_on() && !a->lr.ivh) || a->lr.oom) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
	return 0;
}

/* Warm-up repetition w of nreps, or (timed) the next timed one. */
static int acc_rep(struct long_acc *a, int timed, int w, int nreps)
{
	struct long_run *lr = &a->lr;
	int k = a->k, c;

	lr->timed = timed;
	lr->nreps = nreps;
	lr->rep = timed ? k : w;
	if (!timed)
		return one_rep(lr, &a->cpu, &a->val[0], &a->per[0], &a->amt[0]);
	if (one_rep(lr, &a->cpu, &a->val[k], &a->per[k], &a->amt[k]) < 0)
		return -1;
	if (k < SS_MAX)
		a->ss_after[k] = lr->t_ramp ? (double)(lr->t_ramp - lr->t0) / 1e9 : -1;
	for (c = 0; c < 2; c++)
		if (a->camt[c])
			a->camt[c][k] = lr->camount[c];
	a->k++;
	return 0;
}

/* The repetitions done as the op's metric (and a mixed workload's class
 * metrics) in ctx->res. */
static int acc_close(struct long_acc *a, double *median)
{
	struct long_run *lr = &a->lr;
	const struct long_op *lo = lr->lo;
	struct bench_ctx *ctx = lr->ctx;
	struct harness_cpu zero = { 0, 0, 0 };
	const double *ramt;
	struct metric *m;
	struct stats st;
	int k = a->k, c, i;

	if (lr->oom) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
	stats_compute(a->per, (size_t)k, &st);
	m = result_add_metric(ctx->res, lo->name, lo->unit, lo->better, a->val, (size_t)k);
	if (!m) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
	m->iterations = (uint64_t)k;
	m->detail = lo->detail;
	if (lo->kind != KIND_BANDWIDTH)
		m->raw_ns = m->op_ns = st.median;	/* ns per operation; nothing subtracted */
	harness_cpu_record(m, &zero, &a->cpu);
	m->rep_amount = a->amt;
	a->amt = NULL;
	m->iv_t = lr->iv_t;
	m->iv_value = lr->iv_value;
	m->iv_amount = lr->iv_amount;
	m->niv = lr->niv;
	lr->iv_t = lr->iv_value = lr->iv_amount = NULL;
	put_hist(m, lr->hist);
	if (median)
		*median = m->st.median;
	if (steady(lr))
		steady_note(ctx, m, lr, a->ss_after, k);
	ramt = m->rep_amount;	/* m moves as metrics are added */
	for (c = 0; c < 2; c++) {	/* a mixed workload: each class's figure */
		char name[160];
		struct metric *cm;

		if (!lr->ch[c] || !hist_count(lr->ch[c]))
			continue;
		snprintf(name, sizeof(name), "%s%s%s", lo->name, lo->name[0] ? " " : "", lo->classes[c]);
		for (i = 0; i < k; i++)	/* the class's share of each repetition's amount */
			a->cval[c][i] = ramt[i] > 0 ? a->val[i] * a->camt[c][i] / ramt[i] : 0;
		cm = result_add_metric(ctx->res, name, lo->unit, lo->better, a->cval[c], (size_t)k);
		if (!cm) {
			snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
			return -1;
		}
		cm->iterations = (uint64_t)k;
		cm->detail = lo->detail;
		put_hist(cm, lr->ch[c]);
	}
	return 0;
}

static void acc_free(struct long_acc *a)
{
	int c;

	free(a->val);
	free(a->per);
	free(a->amt);
	free(a->lr.iv_t);
	free(a->lr.iv_value);
	free(a->lr.iv_amount);
	hist_free(a->lr.hist);
	hist_free(a->lr.ivh);
	for (c = 0; c < 2; c++) {
		hist_free(a->lr.ch[c]);
		free(a->camt[c]);
		free(a->cval[c]);
	}
}

int harness_long(struct bench_ctx *ctx, const struct long_op *lo, double *median)
{
	return harness_long_seq(ctx, lo, 1, median);
}

int harness_long_seq(struct bench_ctx *ctx, const struct long_op *ops, int n, double *medians)
{
	const struct harness_cfg *cfg = &ctx->h->cfg;
	int reps = cfg->reps > 0 ? cfg->reps : 1, cap = reps, k, w, i, rc = -1;
	struct long_acc *a = calloc((size_t)n, sizeof(*a));
	uint64_t start = cfg->now();

	/* Amount-based ops with --duration repeat until the time is used. */
	if (cfg->duration_ns) {
		cap = 100000;
		for (i = 0; i < n; i++)
			if (ops[i].time_based)
				cap = reps;
	}
	if (!a) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++)
		if (acc_open(&a[i], ctx, &ops[i], cap) < 0)
			goto out;
	for (w = 0; w < cfg->warmup_reps; w++) {
		for (i = 0; i < n; i++)
			if (acc_rep(&a[i], 0, w, cfg->warmup_reps) < 0)
				goto out;
		if (cfg->long_budget_ns && cfg->now() - start >= cfg->long_budget_ns)
			break;
	}
	for (k = 0; k < cap; k++) {
		uint64_t now = cfg->now();

		/* No round starts past the budget or the duration (one always runs). */
		if (k > 0 && cfg->long_budget_ns && now - start >= cfg->long_budget_ns)
			break;
		if (k > 0 && cap != reps && now - a[0].lr.measure_t0 >= cfg->duration_ns)
			break;
		for (i = 0; i < n; i++)
			if (acc_rep(&a[i], 1, 0, cap == reps ? reps : 0) < 0)
				goto out;
	}
	for (i = 0; i < n; i++)
		if (acc_close(&a[i], medians ? &medians[i] : NULL) < 0)
			goto out;
	rc = 0;
out:
	if (cfg->progress)
		fputs("\r\033[K", stderr);
	for (i = 0; i < n; i++)
		acc_free(&a[i]);
	free(a);
	return rc;
}
