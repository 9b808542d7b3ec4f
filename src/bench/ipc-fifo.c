/* ipc-fifo.c — named pipes between two processes (lmbench lat_fifo).
 *
 * ipc.fifo.lat: two FIFOs made with mkfifo in the scratch directory; one
 * operation is one round trip of one byte (as lat_fifo) to a forked echo
 * child and back, in us; only the harness's timer and loop overhead are
 * subtracted.
 *
 * lat_fifo lets each process open its ends by name, where a failed child
 * would leave the parent blocked in open() forever. Here the parent opens
 * all four ends before the fork (the read end non-blocking first, so no
 * open() ever waits for a peer) and the child inherits its two. The data
 * path is the same FIFO. The names are unlinked as soon as they are open. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ipc.h"
#include "result.h"
#include "scratch.h"

/* Both ends of the FIFO at path: fd[0] blocking read end, fd[1] write end. */
static int open_fifo(struct bench_ctx *ctx, const char *path, int fd[2])
{
	int fl;

	fd[0] = open(path, O_RDONLY | O_NONBLOCK);
	if (fd[0] < 0)
		goto fail;
	fd[1] = open(path, O_WRONLY);
	if (fd[1] < 0 || (fl = fcntl(fd[0], F_GETFL)) < 0 ||
	    fcntl(fd[0], F_SETFL, fl & ~O_NONBLOCK) < 0)
		goto fail;
	return 0;
fail:
	snprintf(ctx->reason, sizeof(ctx->reason), "open FIFO %s: %s", path, strerror(errno));
	if (fd[0] >= 0)
		close(fd[0]);
	if (fd[1] >= 0)
		close(fd[1]);
	return -1;
}

static int fifo_lat_setup(struct bench_ctx *ctx, void **state)
{
	struct ipc_state *s = ipc_state_new(ctx);
	int to[2] = { -1, -1 }, from[2] = { -1, -1 }, i;
	char name[64];

	if (!s)
		return -1;
	*state = s;
	for (i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "fifo%d.%ld", i + 1, (long)getpid());
		if (scratch_file(s->fifo[i], sizeof(s->fifo[i]), name) < 0) {
			snprintf(ctx->reason, sizeof(ctx->reason), "no scratch file name: %s",
				 strerror(errno));
			s->fifo[i][0] = 0;
			return -1;
		}
		if (mkfifo(s->fifo[i], 0600) < 0) {
			snprintf(ctx->reason, sizeof(ctx->reason), "mkfifo %.200s: %s", s->fifo[i],
				 strerror(errno));
			s->fifo[i][0] = 0;
			return -1;
		}
	}
	if (open_fifo(ctx, s->fifo[0], to) < 0)
		return -1;
	if (open_fifo(ctx, s->fifo[1], from) < 0) {
		close(to[0]);
		close(to[1]);
		return -1;
	}
	for (i = 0; i < 2; i++) {
		unlink(s->fifo[i]);
		s->fifo[i][0] = 0;
	}
	return ipc_start_echo(ctx, s, to[0], from[1], from[0], to[1]);
}

const struct bench bench_ipc_fifo_lat = {
	.id = "ipc.fifo.lat", .group = "ipc", .title = "Fifo latency",
	.unit = "us", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.setup = fifo_lat_setup, .op = ipc_roundtrip_op, .teardown = ipc_teardown,
};
