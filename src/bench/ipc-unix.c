/* ipc-unix.c — AF_UNIX stream sockets between two processes (lmbench
 * lat_unix, bw_unix).
 *
 * ipc.unix.lat: one operation is one round trip of one byte (lmbench
 * lat_unix's default message) over a socketpair to a forked echo child
 * and back, in us; only the harness's timer and loop overhead are
 * subtracted.
 *
 * ipc.unix.bw: a forked child writes --msg-size chunks into its end of a
 * socketpair without pause; one operation is the parent reading one chunk
 * of msg_size bytes, counted once, in MB/s (10^6). Socket buffers keep the
 * system's defaults, as lmbench bw_unix does; their sizes are recorded.
 *
 * ipc.unix.connect: one operation is socket(), connect() to a listening
 * AF_UNIX socket in the scratch directory, close() (lmbench
 * lat_unix_connect), in us; a forked server accepts each connection,
 * reads to its end and closes it, as lat_unix_connect's does. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include "harness.h"
#include "ipc.h"
#include "result.h"
#include "scratch.h"

static int make_pair(struct bench_ctx *ctx, int sv[2])
{
	int v;
	socklen_t len;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "socketpair(AF_UNIX): %s",
			 strerror(errno));
		return -1;
	}
	len = sizeof(v);
	if (getsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &v, &len) == 0)
		result_param_num(ctx->res, "so_sndbuf_bytes", v);
	len = sizeof(v);
	if (getsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &v, &len) == 0)
		result_param_num(ctx->res, "so_rcvbuf_bytes", v);
	return 0;
}

/* A connected pair, and the child at its other end: an echo (latency)
 * or a reader (bandwidth). */
static int unix_setup(struct bench_ctx *ctx, void **state, int stream)
{
	struct ipc_state *s = ipc_state_new(ctx);
	int sv[2];

	if (!s)
		return -1;
	*state = s;
	if (make_pair(ctx, sv) < 0)
		return -1;
	return stream ? ipc_start_stream(ctx, s, sv[0], sv[1])
		      : ipc_start_echo(ctx, s, sv[0], sv[0], sv[1], sv[1]);
}

static int unix_lat_setup(struct bench_ctx *ctx, void **state)
{
	return unix_setup(ctx, state, 0);
}

const struct bench bench_ipc_unix_lat = {
	.id = "ipc.unix.lat", .group = "ipc", .title = "AF_UNIX sock stream latency",
	.unit = "us", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.setup = unix_lat_setup, .op = ipc_roundtrip_op, .teardown = ipc_teardown,
};

static int unix_bw_setup(struct bench_ctx *ctx, void **state)
{
	return unix_setup(ctx, state, 1);
}

const struct bench bench_ipc_unix_bw = {
	.id = "ipc.unix.bw", .group = "ipc", .title = "AF_UNIX sock stream bandwidth",
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH,
	.setup = unix_bw_setup, .op = ipc_stream_op, .teardown = ipc_teardown,
};

/* The server: accepts, reads to EOF, closes; exits when the parent's end
 * of the lifeline closes (teardown) or anything fails. */
static void accept_child(int l, int life)
{
	struct pollfd p[2] = { { .fd = l, .events = POLLIN }, { .fd = life, .events = POLLIN } };
	char c;
	int a;

	for (;;) {
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			_exit(1);
		if (p[1].revents)
			_exit(0);
		if (!(p[0].revents & POLLIN))
			continue;
		if ((a = accept(l, NULL, NULL)) < 0)
			_exit(1);
		while (read(a, &c, 1) > 0)
			;
		close(a);
	}
}

static int unix_connect_setup(struct bench_ctx *ctx, void **state)
{
	struct ipc_state *s = ipc_state_new(ctx);
	struct sockaddr_un *a;
	char name[40];
	int l, life[2];
	pid_t pid;

	if (!s)
		return -1;
	*state = s;
	snprintf(name, sizeof(name), "u.%ld", (long)getpid());
	if (!(s->mem = calloc(1, sizeof(*a))) || scratch_file(s->fifo[0], sizeof(s->fifo[0]), name) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "no scratch directory for %s", name);
		s->fifo[0][0] = 0;
		return -1;
	}
	a = (struct sockaddr_un *)s->mem;
	if (strlen(s->fifo[0]) >= sizeof(a->sun_path)) {
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "the scratch path is %zu bytes, over an AF_UNIX socket path's %zu: "
			 "a shorter --dir", strlen(s->fifo[0]), sizeof(a->sun_path) - 1);
		s->fifo[0][0] = 0;
		return -1;
	}
	a->sun_family = AF_UNIX;
	strcpy(a->sun_path, s->fifo[0]);
	if ((l = socket(AF_UNIX, SOCK_STREAM, 0)) < 0 || bind(l, (struct sockaddr *)a, sizeof(*a)) < 0 ||
	    listen(l, 64) < 0 || pipe(life) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "a listening AF_UNIX socket: %s",
			 strerror(errno));
		if (l >= 0)
			close(l);
		return -1;
	}
	if ((pid = harness_fork()) == 0) {
		close(life[1]);
		accept_child(l, life[0]);
	}
	close(l);
	close(life[0]);
	s->wfd = life[1];
	if (pid < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "fork: %s", strerror(errno));
		return -1;
	}
	s->pid = pid;
	return 0;
}

static int unix_connect_op(void *state, uint64_t n)
{
	struct ipc_state *s = state;
	const struct sockaddr_un *a = (const struct sockaddr_un *)s->mem;
	uint64_t i;
	int fd;

	for (i = 0; i < n; i++) {
		if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0)
			return -1;
		if (connect(fd, (const struct sockaddr *)a, sizeof(*a)) < 0) {
			snprintf(s->reason, 256, "connect %.160s: %s", a->sun_path, strerror(errno));
			close(fd);
			return -1;
		}
		close(fd);
	}
	return 0;
}

const struct bench bench_ipc_unix_connect = {
	.id = "ipc.unix.connect", .group = "ipc", .title = "AF_UNIX connect (lat_unix_connect)",
	.unit = "us", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.setup = unix_connect_setup, .op = unix_connect_op, .teardown = ipc_teardown,
};
