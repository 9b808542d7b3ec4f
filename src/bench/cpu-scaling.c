/* cpu-scaling.c — how the CPU workloads scale over copies run at once
 * (UnixBench's single-copy and N-copy runs; the 1996 SMP report's one
 * processor against two).
 *
 * cpu.scaling: for each workload (cpu.int in loops/s, cpu.float in Mops/s)
 * and each count c of copies (--copies LIST; default 1, 2, 4, ... up to
 * the online CPUs, and that number), c processes each build the workload,
 * wait on a pipe barrier, and are released together; each is then measured
 * by the harness's calibrated loop exactly as the single benchmark is, and
 * checks its checksum. Figures, per workload W:
 *   W/c       the aggregate rate: sample k is the sum of every copy's
 *             sample k (samples taken at the same time, as the copies run
 *             in step), and each copy's median is kept (per_copy);
 *   W/c/eff   efficiency, in %: aggregate / (c x the one-copy rate), where
 *             the one-copy rate is W/1, always measured first. 100% is
 *             perfect scaling; two copies on two CPUs sharing caches, memory
 *             or (in a VM) a host give less. More copies than CPUs share
 *             them and show it. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench.h"
#include "buf.h"
#include "cpu-work.h"
#include "harness.h"
#include "result.h"
#include "scratch.h"

#define MAX_COUNTS 16

struct workload {
	const char *name, *unit;
	double ops_per_loop;
	void *(*make)(void);
	int (*loops)(void *state, uint64_t n);
	int (*check)(const void *state, char *why, size_t n);
	void (*release)(void *state);
};

static void *int_make(void)
{
	return cpu_int_new(cpu_int_seed());
}
static int int_check(const void *w, char *why, size_t n)
{
	return cpu_int_check(w, why, n);
}
static void *float_make(void)
{
	return cpu_float_new(cpu_float_seed());
}
static int float_check(const void *w, char *why, size_t n)
{
	return cpu_float_check(w, why, n);
}

static const struct workload workloads[] = {
	{ "int", "loops/s", 1, int_make, cpu_int_loops, int_check, cpu_int_free },
	{ "float", "Mops/s", CPU_FLOAT_OPS_PER_LOOP, float_make, cpu_float_loops, float_check, cpu_float_free },
};

/* One copy: build, line up, be measured, check; the result goes to out. */
static void copy_main(struct bench_ctx *ctx, const struct workload *wl, int ready, int go, int out)
{
	struct bench_result mine = { 0 };
	struct bench_ctx c = *ctx;
	struct measure m = {
		.name = "", .unit = wl->unit, .kind = KIND_RATE, .better = BETTER_HIGHER,
		.op = wl->loops, .ops_per_call = wl->ops_per_loop,
	};
	void *w = wl->make();
	char ch = 'r';
	ssize_t r;
	int rc = -1;

	mine.id = ctx->res->id;
	mine.group = ctx->res->group;
	mine.title = ctx->res->title;
	c.res = &mine;
	c.reason[0] = 0;
	r = w ? write(ready, &ch, 1) : -1;
	close(ready);
	while (r == 1 && (r = read(go, &ch, 1)) < 0 && errno == EINTR && !scratch_interrupted())
		;
	close(go);
	if (r != 1)
		snprintf(c.reason, sizeof(c.reason), w ? "start aborted" : "out of memory");
	else if ((m.state = w) && harness_measure(&c, &m, NULL) == 0)
		rc = wl->check(w, c.reason, sizeof(c.reason));
	result_set_status(&mine, rc == 0 ? ST_OK : ST_FAILED, rc == 0 ? NULL : c.reason);
	_exit(result_bench_to_fd(&mine, out) < 0 ? 3 : 0);
}

/* Read all of fd (non-blocking reads, waits through harness_wait_fd). */
static int read_all(struct bench_ctx *ctx, int fd, struct buf *text)
{
	char chunk[4096];
	ssize_t r;

	for (;;) {
		if (harness_wait_fd(ctx, fd, POLLIN, "a copy of the workload") < 0)
			return -1;
		r = read(fd, chunk, sizeof(chunk));
		if (r == 0)
			return 0;
		if (r > 0)
			buf_add(text, chunk, (size_t)r);
		else if (errno != EINTR) {
			snprintf(ctx->reason, sizeof(ctx->reason), "reading a copy's result: %s",
				 strerror(errno));
			return -1;
		}
	}
}

/* Run c copies of wl; on success their results are in copies[0..c-1]. */
static int run_copies(struct bench_ctx *ctx, const struct workload *wl, int c,
		      struct bench_result *copies)
{
	int ready[2] = { -1, -1 }, go[2] = { -1, -1 }, *out = calloc((size_t)c, sizeof(int));
	pid_t *pid = calloc((size_t)c, sizeof(pid_t));
	struct buf text = { 0 };
	int k, got = 0, rc = -1;
	char ch;

	if (!out || !pid || pipe(ready) < 0 || pipe(go) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "cannot set up %d copies: %s", c,
			 strerror(errno));
		goto out;
	}
	for (k = 0; k < c; k++)
		out[k] = -1;
	for (k = 0; k < c; k++) {
		int p[2];

		if (pipe(p) < 0 || (pid[k] = harness_fork()) < 0) {
			snprintf(ctx->reason, sizeof(ctx->reason), "cannot start copy %d of %d: %s", k + 1,
				 c, strerror(errno));
			goto out;
		}
		if (pid[k] == 0) {
			close(p[0]);
			close(ready[0]);
			close(go[1]);
			copy_main(ctx, wl, ready[1], go[0], p[1]);
		}
		close(p[1]);
		out[k] = p[0];
	}
	close(ready[1]);
	close(go[0]);
	ready[1] = go[0] = -1;
	while (got < c) {
		ssize_t r;

		if (harness_wait_fd(ctx, ready[0], POLLIN, "the copies to start") < 0)
			goto out;
		r = read(ready[0], &ch, 1);
		if (r == 0)
			break;	/* a copy died before the barrier */
		got += r == 1;
	}
	if (got < c) {
		snprintf(ctx->reason, sizeof(ctx->reason), "a copy ended before it started");
		goto out;
	}
	for (k = 0; k < c; k++)
		if (write(go[1], "g", 1) != 1)
			break;
	close(go[1]);
	go[1] = -1;
	for (k = 0; k < c; k++) {
		text.len = 0;
		if (read_all(ctx, out[k], &text) < 0)
			goto out;
		if (!text.len || result_bench_from_text(text.p, text.len, &copies[k]) < 0) {
			snprintf(ctx->reason, sizeof(ctx->reason), "copy %d of %d died", k + 1, c);
			goto out;
		}
		if (copies[k].status != ST_OK || !copies[k].nmetrics) {
			snprintf(ctx->reason, sizeof(ctx->reason), "%s, copy %d of %d: %s", wl->name, k + 1,
				 c, copies[k].reason ? copies[k].reason : "failed");
			goto out;
		}
	}
	rc = 0;
out:
	for (k = 0; pid && k < c; k++) {
		if (pid[k] > 0) {
			if (rc < 0)
				kill(pid[k], SIGKILL);
			while (waitpid(pid[k], NULL, 0) < 0 && errno == EINTR)
				;
		}
		if (out && out[k] >= 0)
			close(out[k]);
	}
	for (k = 0; k < 2; k++) {
		if (ready[k] >= 0)
			close(ready[k]);
		if (go[k] >= 0)
			close(go[k]);
	}
	free(out);
	free(pid);
	buf_free(&text);
	return rc;
}

/* Record W/c from the copies' samples; returns the aggregate median. */
static int record(struct bench_ctx *ctx, const struct workload *wl, int c,
		  const struct bench_result *copies, double single)
{
	size_t ns = copies[0].metrics[0].nsamples, j;
	double *agg, *per = calloc((size_t)c, sizeof(double)), eff;
	char name[64], from[96];
	struct metric *m;
	int k;

	for (k = 1; k < c; k++)
		if (copies[k].metrics[0].nsamples < ns)
			ns = copies[k].metrics[0].nsamples;
	agg = calloc(ns, sizeof(double));
	if (!agg || !per) {
		free(agg);
		free(per);
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
	for (k = 0; k < c; k++) {
		per[k] = copies[k].metrics[0].st.median;
		for (j = 0; j < ns; j++)
			agg[j] += copies[k].metrics[0].samples[j];
	}
	snprintf(name, sizeof(name), "%s/%d", wl->name, c);
	m = result_add_metric(ctx->res, name, wl->unit, BETTER_HIGHER, agg, ns);
	free(agg);
	if (!m) {
		free(per);
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
	m->iterations = copies[0].metrics[0].iterations;
	m->per_copy = per;
	m->ncopies = (size_t)c;
	if (c > 1) {
		eff = 100 * m->st.median / (c * single);
		snprintf(name, sizeof(name), "%s/%d/eff", wl->name, c);
		snprintf(from, sizeof(from), "%s/%d / (%d x %s/1)", wl->name, c, c, wl->name);
		m = result_add_metric(ctx->res, name, "%", BETTER_HIGHER, &eff, 1);
		if (!m || !(m->derived = strdup(from))) {
			snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
			return -1;
		}
	}
	return 0;
}

/* The copy counts: --copies, or 1, 2, 4, ... below the online CPUs and
 * that number; 1 always comes first (the reference for efficiency). */
static int counts(const struct bench_opts *opt, int *cnt)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN), k;
	int n = 0, i;

	cnt[n++] = 1;
	if (opt->ncopies) {
		for (i = 0; i < opt->ncopies; i++)
			if (opt->copies[i] != 1)
				cnt[n++] = (int)opt->copies[i];
		return n;
	}
	if (online < 1)
		online = 1;
	for (k = 2; k < online && n < MAX_COUNTS - 1; k *= 2)
		cnt[n++] = (int)k;
	if (online > 1)
		cnt[n++] = (int)(online > 1024 ? 1024 : online);
	return n;
}

static int scaling_run(struct bench_ctx *ctx)
{
	int cnt[MAX_COUNTS], n = counts(ctx->opt, cnt), i, k, c;
	char list[160] = "";
	size_t w;

	for (i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%d", i ? "," : "", cnt[i]);
	result_param_str(ctx->res, "copies", list);
	result_param_num(ctx->res, "online_cpus", (double)sysconf(_SC_NPROCESSORS_ONLN));
	cpu_record_build(ctx);
	for (w = 0; w < sizeof(workloads) / sizeof(workloads[0]); w++) {
		double single = 0;

		for (i = 0; i < n; i++) {
			struct bench_result *copies;
			int rc;

			c = cnt[i];
			copies = calloc((size_t)c, sizeof(*copies));
			if (!copies) {
				snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
				return -1;
			}
			rc = run_copies(ctx, &workloads[w], c, copies);
			if (rc == 0 && c == 1)
				single = copies[0].metrics[0].st.median;
			if (rc == 0)
				rc = record(ctx, &workloads[w], c, copies, single);
			for (k = 0; k < c; k++)
				result_bench_free(&copies[k]);
			free(copies);
			if (rc < 0)
				return -1;
		}
	}
	return 0;
}

const struct bench bench_cpu_scaling = {
	.id = "cpu.scaling", .group = "cpu", .title = "CPU workloads over copies",
	.unit = "%", .better = BETTER_HIGHER, .kind = KIND_RATE, .run = scaling_run,
};
