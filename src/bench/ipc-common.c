/* ipc-common.c — the peer child and the timed loops shared by the ipc
 * families (pipe, AF_UNIX, FIFO), as lmbench's lat_pipe/lat_unix/lat_fifo
 * and bw_pipe/bw_unix share one shape.
 *
 * Latency: the parent writes one byte, the echo child reads it and writes
 * it back, the parent reads it: one operation is that round trip (two
 * one-way transfers and, on one CPU, two context switches), as in lmbench
 * and `perf bench sched pipe`. The echo child ends on EOF, so it cannot
 * outlive the parent's descriptors.
 *
 * --pin puts both on the CPU the parent is on (the child inherits the
 * mask). Where they sit is most of the figure: on a 2-vCPU KVM guest a
 * round trip took ~2.8 us on one CPU and ~85 us across two idle vCPUs
 * (the wake-up goes through the hypervisor); `perf bench sched pipe`
 * shows the same split, so the two only compare under the same pinning.
 *
 * Bandwidth: the stream child writes msg-byte chunks without pause; the
 * parent's op(n) reads exactly n * msg bytes, so a sample times the reader
 * consuming a stream that is always ready (lmbench bw_pipe counts the bytes
 * delivered to the reader the same way). What the writer queued before the
 * sample began (one pipe or socket buffer) is small against a 10 ms sample. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "harness.h"
#include "result.h"
#include "ipc.h"

struct ipc_state *ipc_state_new(struct bench_ctx *ctx)
{
	struct ipc_state *s = harness_state(ctx, sizeof(*s));

	if (!s)
		return NULL;
	s->rfd = s->wfd = -1;
	s->reason = ctx->reason;
	return s;
}

static void close_pair(int a, int b)
{
	if (a >= 0)
		close(a);
	if (b >= 0 && b != a)
		close(b);
}

static void echo_child(int rfd, int wfd)
{
	char c;

	for (;;) {
		if (read(rfd, &c, 1) != 1)
			_exit(0);
		if (write(wfd, &c, 1) != 1)
			_exit(0);
	}
}

static void stream_child(int wfd, size_t msg)
{
	char *buf = malloc(msg);
	size_t off;
	ssize_t w;

	if (!buf)
		_exit(1);
	/* Touched once, so the writer takes no page faults while timed. */
	memset(buf, 'b', msg);
	for (;;) {
		for (off = 0; off < msg; off += (size_t)w) {
			w = write(wfd, buf + off, msg - off);
			if (w <= 0)
				_exit(0);
		}
	}
}

/* Fork a peer: what = 'e' (echo) or 's' (stream). The child closes the
 * parent's ends, so that EOF reaches it when the parent closes them. */
static int start_peer(struct bench_ctx *ctx, struct ipc_state *s, int what, int crfd, int cwfd)
{
	pid_t pid = harness_fork();

	if (pid == 0) {
		close_pair(s->rfd, s->wfd);
		if (what == 'e')
			echo_child(crfd, cwfd);
		stream_child(cwfd, s->msg);
		_exit(0);
	}
	close_pair(crfd, cwfd);
	if (pid < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "fork: %s", strerror(errno));
		return -1;
	}
	s->pid = pid;
	return 0;
}

int ipc_start_handoff(struct bench_ctx *ctx, pid_t *pid, void (*peer)(void *), void *arg)
{
	if ((*pid = harness_fork()) == 0) {
		peer(arg);
		_exit(1);
	}
	if (*pid < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "fork: %s", strerror(errno));
		*pid = 0;
		return -1;
	}
	ctx->ops_per_call = 2;
	return 0;
}

static void unpin_parent(struct ipc_state *s)
{
	affinity_restore(&s->pin);
	s->pin.saved = 0;
}

int ipc_start_echo(struct bench_ctx *ctx, struct ipc_state *s, int crfd, int cwfd, int prfd,
		   int pwfd)
{
	s->rfd = prfd;
	s->wfd = pwfd;
	result_param_num(ctx->res, "message_bytes", 1);
	if (harness_pin(ctx, &s->pin) < 0) {
		close_pair(crfd, cwfd);
		return -1;
	}
	if (start_peer(ctx, s, 'e', crfd, cwfd) < 0) {
		unpin_parent(s);
		return -1;
	}
	/* One trip around, so both processes are running before calibration. */
	if (ipc_roundtrip_op(s, 1) < 0) {
		if (!ctx->reason[0])
			snprintf(ctx->reason, sizeof(ctx->reason), "first round trip: %s",
				 strerror(errno));
		unpin_parent(s);
		return -1;
	}
	return 0;
}

/* Bandwidth stays unpinned even under --pin: writer and reader are meant
 * to run at once, one per CPU, as lmbench bw_pipe/bw_unix run them; on one
 * CPU they would take turns per buffer-full and the figure would measure
 * the scheduler. A cross-CPU wake-up is amortized over a whole chunk. */
int ipc_start_stream(struct bench_ctx *ctx, struct ipc_state *s, int cwfd, int prfd)
{
	long page = sysconf(_SC_PAGESIZE);

	s->rfd = prfd;
	s->msg = (size_t)ctx->opt->msg_size;
	ctx->bytes_per_op = (double)s->msg;
	result_param_num(ctx->res, "msg_size_bytes", (double)s->msg);
	if (page <= 0)
		page = 4096;
	/* The reader's buffer starts 128 bytes past a page boundary, as in
	 * lmbench bw_pipe, so a kernel cannot move whole pages instead of
	 * copying; it is touched so no page fault is timed. */
	s->mem = malloc(s->msg + (size_t)page + 128);
	if (!s->mem) {
		close(cwfd);
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
	s->buf = s->mem + ((size_t)page - (size_t)((uintptr_t)s->mem % (size_t)page)) + 128;
	memset(s->mem, 0, s->msg + (size_t)page + 128);
	if (start_peer(ctx, s, 's', -1, cwfd) < 0)
		return -1;
	if (ipc_stream_op(s, 1) < 0) {
		if (!ctx->reason[0])
			snprintf(ctx->reason, sizeof(ctx->reason), "first read: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* read() returned r: a failure, with the reason when it is not EINTR. */
static int io_failed(struct ipc_state *s, const char *what, ssize_t r)
{
	int err = r == 0 ? EPIPE : errno;

	if (err != EINTR && !s->reason[0])
		snprintf(s->reason, 256, "%s: %s", what,
			 r == 0 ? "the peer process closed the channel" : strerror(err));
	errno = err;
	return -1;
}

int ipc_roundtrip_op(void *state, uint64_t n)
{
	struct ipc_state *s = state;
	uint64_t i, acc = 0;
	char c = 'x';
	ssize_t r;

	for (i = 0; i < n; i++) {
		while ((r = write(s->wfd, &c, 1)) < 0 && harness_retry())
			;
		if (r != 1)
			return io_failed(s, "write", r);
		while ((r = read(s->rfd, &c, 1)) < 0 && harness_retry())
			;
		if (r != 1)
			return io_failed(s, "read", r);
		acc += (unsigned char)c;
	}
	bench_use(acc);
	return 0;
}

int ipc_stream_op(void *state, uint64_t n)
{
	struct ipc_state *s = state;
	uint64_t left = n * s->msg;
	ssize_t r;

	while (left > 0) {
		r = read(s->rfd, s->buf, left < s->msg ? (size_t)left : s->msg);
		if (r < 0 && harness_retry())
			continue;
		if (r <= 0)
			return io_failed(s, "read", r);
		left -= (uint64_t)r;
	}
	bench_use((unsigned char)s->buf[0]);
	return 0;
}

void ipc_teardown(void *state)
{
	struct ipc_state *s = state;
	int i;

	/* Closing our ends gives the echo child EOF and the stream child
	 * EPIPE; both exit. One that does not within a second is killed. */
	close_pair(s->rfd, s->wfd);
	harness_reap(s->pid, 1000);
	for (i = 0; i < 2; i++)
		if (s->fifo[i][0])
			unlink(s->fifo[i]);
	unpin_parent(s);
	free(s->mem);
	free(s);
}
