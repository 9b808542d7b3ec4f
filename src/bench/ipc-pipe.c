/* ipc-pipe.c — pipes between two processes (lmbench lat_pipe, bw_pipe).
 *
 * ipc.pipe.lat: one operation is one round trip of one byte (lmbench
 * lat_pipe writes one char; perf bench sched pipe an int) through two
 * pipes to a forked echo child and back, in us. Nothing is subtracted
 * beyond the harness's timer and loop overhead: the figure is two one-way
 * transfers plus the wake-ups, the same thing `perf bench sched pipe`
 * reports as usecs/op.
 *
 * ipc.pipe.bw: a forked child writes --msg-size chunks into one pipe
 * without pause; one operation is the parent reading one chunk of
 * msg_size bytes, counted once, in MB/s (10^6). lmbench bw_pipe moves
 * 64 KiB chunks (its default) and counts the bytes the reader got. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "ipc.h"
#include "result.h"

static int pipe_lat_setup(struct bench_ctx *ctx, void **state)
{
	struct ipc_state *s = ipc_state_new(ctx);
	int to[2], from[2];

	if (!s)
		return -1;
	*state = s;
	if (pipe(to) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "pipe: %s", strerror(errno));
		return -1;
	}
	if (pipe(from) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "pipe: %s", strerror(errno));
		close(to[0]);
		close(to[1]);
		return -1;
	}
	return ipc_start_echo(ctx, s, to[0], from[1], from[0], to[1]);
}

const struct bench bench_ipc_pipe_lat = {
	.id = "ipc.pipe.lat", .group = "ipc", .title = "Pipe latency",
	.unit = "us", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.setup = pipe_lat_setup, .op = ipc_roundtrip_op, .teardown = ipc_teardown,
};

static int pipe_bw_setup(struct bench_ctx *ctx, void **state)
{
	struct ipc_state *s = ipc_state_new(ctx);
	int p[2];

	if (!s)
		return -1;
	*state = s;
	if (pipe(p) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "pipe: %s", strerror(errno));
		return -1;
	}
	return ipc_start_stream(ctx, s, p[1], p[0]);
}

const struct bench bench_ipc_pipe_bw = {
	.id = "ipc.pipe.bw", .group = "ipc", .title = "Pipe bandwidth",
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH,
	.setup = pipe_bw_setup, .op = ipc_stream_op, .teardown = ipc_teardown,
};
