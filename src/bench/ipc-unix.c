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
 * system's defaults, as lmbench bw_unix does; their sizes are recorded. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "ipc.h"
#include "result.h"

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
