/* proc-ctxsw.c — context switch time (lmbench lat_ctx).
 *
 * A token goes around a ring of P processes (bakeoff itself and P-1
 * children) joined by P pipes. Each process, on receiving the token, sums
 * its private S-byte array (allocated after fork, touched once before
 * timing) into it and passes it on. One operation is one trip around the
 * ring: P context switches, P pipe writes and reads, P array sums. The
 * harness divides by P (ops_per_call), giving "raw/<P>p/<S>K" per switch.
 *
 * As lmbench does, the pipe transfer and the array sum are measured apart
 * without switching: one process writes the token into a pipe to itself,
 * reads it back and sums an S-byte array ("overhead/<S>K"). That overhead
 * is subtracted from every raw sample, clamped at zero, and recorded as
 * "<P>p/<S>K" — the figure lmbench prints. lmbench3 sums P distinct arrays
 * in its overhead loop; one array is used here, so when P*S exceeds a
 * cache the corrected figure keeps the cost of refilling it, which is part
 * of what a switch between processes with those working sets costs.
 *
 * --pin puts every ring process on one CPU (affinity.h: the CPU bakeoff is
 * on when the family starts; children inherit it), as lmbench's lat_ctx is
 * meant to be read: without it the scheduler may run the ring across CPUs
 * and the figure includes cross-CPU wakeups. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "affinity.h"
#include "bench.h"
#include "harness.h"
#include "result.h"

#define MAX_RING 256

struct ring {
	struct bench_ctx *ctx;
	int procs;
	size_t size;		/* working set per process, bytes */
	uint64_t *data;		/* bakeoff's own working set */
	pid_t pid[MAX_RING];	/* pid[0] unused: process 0 is bakeoff */
	int wfd, rfd;		/* bakeoff writes the token to wfd, gets it back on rfd */
};

/* Sum an S-byte array (8-byte words, then the tail); p may be NULL when S is 0. */
static uint64_t sum_data(const uint64_t *p, size_t size)
{
	const unsigned char *t;
	uint64_t a0 = 0, a1 = 0;
	size_t i, words = size / 8;

	if (!size)
		return 0;	/* 0K: p is NULL, and NULL + 0 is undefined (clang's UBSan) */
	for (i = 0; i + 2 <= words; i += 2) {
		a0 += p[i];
		a1 += p[i + 1];
	}
	if (i < words)
		a0 += p[i];
	for (t = (const unsigned char *)(p + words); t < (const unsigned char *)p + size; t++)
		a1 += *t;
	return a0 + a1;
}

static uint64_t *alloc_data(size_t size, unsigned char fill)
{
	uint64_t *p;

	if (size == 0)
		return NULL;
	p = malloc(size);
	if (p)
		memset(p, fill, size);	/* private pages, faulted in before timing */
	return p;
}

static int read_full(int fd, void *buf, size_t n)
{
	ssize_t r = read(fd, buf, n);

	if (r == (ssize_t)n)
		return 0;
	if (r >= 0)
		errno = EPIPE;	/* short read or EOF: the ring is broken */
	return -1;
}

/* A ring process: wait for the token, sum the working set, pass it on;
 * exit when the pipe before it closes. */
_Noreturn static void ring_child(int rfd, int wfd, size_t size, int k)
{
	uint64_t *data = alloc_data(size, (unsigned char)k);
	uint64_t tok;

	if (size && !data)
		_exit(2);
	for (;;) {
		ssize_t r = read(rfd, &tok, sizeof(tok));

		if (r == 0)
			_exit(0);
		if (r != (ssize_t)sizeof(tok)) {
			if (r < 0 && errno == EINTR)
				continue;
			_exit(3);
		}
		tok += sum_data(data, size);
		if (write(wfd, &tok, sizeof(tok)) != (ssize_t)sizeof(tok))
			_exit(0);
	}
}

static void ring_destroy(struct ring *r)
{
	int k;

	if (r->wfd >= 0)
		close(r->wfd);
	if (r->rfd >= 0)
		close(r->rfd);
	r->wfd = r->rfd = -1;
	for (k = 1; k < r->procs; k++) {
		if (r->pid[k] <= 0)
			continue;
		kill(r->pid[k], SIGKILL);
		while (waitpid(r->pid[k], NULL, 0) < 0 && errno == EINTR)
			;
		r->pid[k] = 0;
	}
	free(r->data);
	r->data = NULL;
}

/* Pipe k carries the token from process k to process k+1 (mod P). */
static int ring_create(struct ring *r)
{
	int p[MAX_RING][2], k, j, e = 0;

	r->wfd = r->rfd = -1;
	for (k = 0; k < r->procs; k++)
		r->pid[k] = 0;
	for (k = 0; k < r->procs; k++)
		p[k][0] = p[k][1] = -1;
	for (k = 0; k < r->procs; k++)
		if (pipe(p[k]) < 0) {
			e = errno;
			snprintf(r->ctx->reason, sizeof(r->ctx->reason), "pipe: %s", strerror(e));
			goto fail;
		}
	for (k = 1; k < r->procs; k++) {
		pid_t pid = harness_fork();

		if (pid < 0) {
			e = errno;
			snprintf(r->ctx->reason, sizeof(r->ctx->reason), "fork: %s", strerror(e));
			goto fail;
		}
		if (pid == 0) {
			for (j = 0; j < r->procs; j++) {
				if (j != k - 1)
					close(p[j][0]);
				if (j != k)
					close(p[j][1]);
			}
			ring_child(p[k - 1][0], p[k][1], r->size, k);
		}
		r->pid[k] = pid;
	}
	for (j = 0; j < r->procs; j++) {
		if (j != r->procs - 1)
			close(p[j][0]);
		if (j != 0)
			close(p[j][1]);
	}
	r->wfd = p[0][1];
	r->rfd = p[r->procs - 1][0];
	r->data = alloc_data(r->size, 0x5a);
	if (r->size && !r->data) {
		snprintf(r->ctx->reason, sizeof(r->ctx->reason), "out of memory");
		ring_destroy(r);
		return -1;
	}
	return 0;
fail:
	for (k = 0; k < r->procs; k++) {
		if (p[k][0] >= 0)
			close(p[k][0]);
		if (p[k][1] >= 0)
			close(p[k][1]);
	}
	ring_destroy(r);
	errno = e;
	return -1;
}

/* n trips of the token around the ring. */
static int ring_op(void *state, uint64_t n)
{
	struct ring *r = state;
	uint64_t i, tok = 0;

	for (i = 0; i < n; i++) {
		if (write(r->wfd, &tok, sizeof(tok)) != (ssize_t)sizeof(tok))
			goto broken;
		if (read_full(r->rfd, &tok, sizeof(tok)) < 0)
			goto broken;
		tok += sum_data(r->data, r->size);
	}
	bench_use(tok);
	return 0;
broken:
	if (errno != EINTR)
		snprintf(r->ctx->reason, sizeof(r->ctx->reason),
			 "%dp ring: token lost (%s): a ring process died", r->procs,
			 strerror(errno));
	return -1;
}

/* The same pipe transfer and sum, with one process and no switch. */
struct self {
	struct bench_ctx *ctx;
	int p[2];
	size_t size;
	uint64_t *data;
};

static int self_op(void *state, uint64_t n)
{
	struct self *s = state;
	uint64_t i, tok = 0;

	for (i = 0; i < n; i++) {
		if (write(s->p[1], &tok, sizeof(tok)) != (ssize_t)sizeof(tok) ||
		    read_full(s->p[0], &tok, sizeof(tok)) < 0)
			return -1;
		tok += sum_data(s->data, s->size);
	}
	bench_use(tok);
	return 0;
}

static int measure_overhead(struct bench_ctx *ctx, size_t size, const char *name, double *ov)
{
	struct self s = { .ctx = ctx, .p = { -1, -1 }, .size = size };
	struct measure m = {
		.name = name, .unit = "us", .kind = KIND_LATENCY, .better = BETTER_LOWER,
		.op = self_op, .state = &s, .ops_per_call = 1, .detail = 1,
	};
	int rc = -1;

	if (pipe(s.p) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "pipe: %s", strerror(errno));
		return -1;
	}
	s.data = alloc_data(size, 0xa5);
	if (size && !s.data)
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
	else
		rc = harness_measure(ctx, &m, ov);
	free(s.data);
	close(s.p[0]);
	close(s.p[1]);
	return rc;
}

/* "16K"; sizes that are not whole KiB keep their fraction ("1.5K"). */
static void kib_name(char *out, size_t n, size_t size)
{
	snprintf(out, n, "%gK", (double)size / 1024.0);
}

static int measure_ring(struct bench_ctx *ctx, int procs, size_t size, double overhead)
{
	struct ring r = { .ctx = ctx, .procs = procs, .size = size };
	char sz[32], raw[64], cor[64];
	const struct metric *met;
	struct metric *cm;
	double *v;
	size_t i;
	int rc, clamped = 0;
	struct measure m = {
		.unit = "us", .kind = KIND_LATENCY, .better = BETTER_LOWER,
		.op = ring_op, .state = &r, .ops_per_call = procs, .detail = 1,
	};

	kib_name(sz, sizeof(sz), size);
	snprintf(raw, sizeof(raw), "raw/%dp/%s", procs, sz);
	snprintf(cor, sizeof(cor), "%dp/%s", procs, sz);
	m.name = raw;
	if (ring_create(&r) < 0)
		return -1;
	rc = harness_measure(ctx, &m, NULL);
	ring_destroy(&r);
	if (rc < 0)
		return -1;
	met = result_metric(ctx->res, raw);
	if (!met || !(v = malloc((met->nsamples ? met->nsamples : 1) * sizeof(double)))) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
	for (i = 0; i < met->nsamples; i++) {
		v[i] = met->samples[i] - overhead;
		if (v[i] < 0) {
			v[i] = 0;
			clamped++;
		}
	}
	cm = result_add_metric(ctx->res, cor, "us", BETTER_LOWER, v, met->nsamples);
	free(v);
	met = result_metric(ctx->res, raw);	/* the add may have moved it */
	if (cm && met->gauges && result_metric_gauges(cm, met->gauges) < 0)
		cm = NULL;	/* sample for sample: the raw figure's readings */
	if (!cm) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
	if (clamped && !cm->note) {
		char note[160];

		snprintf(note, sizeof(note),
			 "%d of %zu samples were below the %.3g us pipe+sum overhead and "
			 "count as 0", clamped, cm->nsamples, overhead);
		cm->note = strdup(note);
	}
	return 0;
}

static int ctx_run(struct bench_ctx *ctx)
{
	const struct bench_opts *o = ctx->opt;
	int np = o->nprocs, ns = o->nctx_sizes, i, j, rc = 0;
	struct affinity pin;
	char list[256], sz[32], name[64];
	size_t len;

	/* --quick: two ring sizes and two working sets (the first of each). */
	if (o->quick) {
		np = np > 2 ? 2 : np;
		ns = ns > 2 ? 2 : ns;
	}
	if (np < 1 || ns < 1) {
		snprintf(ctx->reason, sizeof(ctx->reason), "no ring sizes or working sets given");
		return -1;
	}
	for (i = 0; i < np; i++)
		if (o->procs[i] < 1 || o->procs[i] > MAX_RING) {
			snprintf(ctx->reason, sizeof(ctx->reason),
				 "ring of %ld processes: must be 1 to %d", o->procs[i], MAX_RING);
			return -1;
		}
	for (i = 0, len = 0, list[0] = 0; i < np && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%ld", i ? "," : "",
					o->procs[i]);
	result_param_str(ctx->res, "procs", list);
	for (i = 0, len = 0, list[0] = 0; i < ns && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%llu", i ? "," : "",
					(unsigned long long)o->ctx_sizes[i]);
	result_param_str(ctx->res, "ctx_sizes_bytes", list);
	if (harness_pin(ctx, &pin) < 0)
		return -1;
	for (j = 0; j < ns && rc == 0; j++) {
		size_t size = (size_t)o->ctx_sizes[j];
		double ov = 0;

		kib_name(sz, sizeof(sz), size);
		snprintf(name, sizeof(name), "overhead/%s", sz);
		rc = measure_overhead(ctx, size, name, &ov);
		for (i = 0; i < np && rc == 0; i++)
			rc = measure_ring(ctx, (int)o->procs[i], size, ov);
	}
	affinity_restore(&pin);
	return rc;
}

/* For the progress line: a figure per ring size and working set, and the
 * overhead's own (shorter ones with --quick: 0.47 s against 1.7 s of loop
 * figures, timed). */
static double ctx_estimate(const struct bench_opts *opt, const struct harness_cfg *cfg, double fig_s)
{
	(void)cfg;
	return (opt->nprocs * opt->nctx_sizes + 2) * fig_s * (opt->quick ? 0.3 : 1);
}

const struct bench bench_proc_ctxsw = {
	.id = "proc.ctxsw", .group = "proc", .title = "Context switch (token ring)",
	.unit = "us", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.run = ctx_run,
	.estimate = ctx_estimate,
};
