/* ipc-fcntl.c — a file lock handed between two processes (lmbench
 * lat_fcntl).
 *
 * ipc.fcntl.lat: two scratch files (unlinked once open), a write lock on
 * the first byte of each, and a forked peer; record locks are not
 * inherited, so the parent starts holding both. Each side then in turn
 * waits for a lock (F_SETLKW) the other is about to release (F_SETLK,
 * F_UNLCK), in lat_fcntl's order: the parent takes 1, releases 2, waits for
 * 2, releases 1; the peer releases 1, waits for 2, releases 2, waits for
 * 1. One parent cycle is two handoffs through the kernel's lock wait
 * queue; the harness is told each call is two (ops_per_call), as lat_fcntl
 * reports its time over 2n. In us. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ipc.h"
#include "harness.h"
#include "scratch.h"

struct lock_state {
	int fd[2];
	pid_t pid;
	char *reason;
};

static int lock_byte(int fd, int type)
{
	struct flock l;

	memset(&l, 0, sizeof(l));
	l.l_type = (short)type;
	l.l_whence = SEEK_SET;
	l.l_len = 1;
	while (fcntl(fd, type == F_UNLCK ? F_SETLK : F_SETLKW, &l) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

/* One parent cycle (lat_fcntl's procA) or peer cycle (procB). */
static int cycle(const struct lock_state *s, int parent)
{
	if (parent)
		return lock_byte(s->fd[0], F_WRLCK) < 0 || lock_byte(s->fd[1], F_UNLCK) < 0 ||
		       lock_byte(s->fd[1], F_WRLCK) < 0 || lock_byte(s->fd[0], F_UNLCK) < 0 ? -1 : 0;
	return lock_byte(s->fd[0], F_UNLCK) < 0 || lock_byte(s->fd[1], F_WRLCK) < 0 ||
	       lock_byte(s->fd[1], F_UNLCK) < 0 || lock_byte(s->fd[0], F_WRLCK) < 0 ? -1 : 0;
}

static void peer(void *arg)
{
	while (cycle(arg, 0) == 0)
		;
}

static void lock_teardown(void *state)
{
	struct lock_state *s = state;
	int i;

	if (s->pid > 0) {	/* it waits in F_SETLKW for good: ours to end */
		kill(s->pid, SIGKILL);
		while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	for (i = 0; i < 2; i++)
		if (s->fd[i] >= 0)
			close(s->fd[i]);
	free(s);
}

static int lock_setup(struct bench_ctx *ctx, void **state)
{
	struct lock_state *s = harness_state(ctx, sizeof(*s));
	char path[PATH_MAX], name[48];
	int i;

	if (!s)
		return -1;
	*state = s;
	s->reason = ctx->reason;
	s->fd[0] = s->fd[1] = -1;
	for (i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "ipc-fcntl.%ld.%d", (long)getpid(), i + 1);
		if (scratch_file(path, sizeof(path), name) < 0 ||
		    (s->fd[i] = open(path, O_RDWR | O_CREAT | O_EXCL, 0600)) < 0) {
			snprintf(ctx->reason, sizeof(ctx->reason), "create %s: %s", name,
				 strerror(errno));
			return -1;
		}
		unlink(path);
		if (write(s->fd[i], "l", 1) != 1 || lock_byte(s->fd[i], F_WRLCK) < 0) {
			snprintf(ctx->reason, sizeof(ctx->reason), "a write lock on %s: %s", name,
				 strerror(errno));
			return -1;
		}
	}
	return ipc_start_handoff(ctx, &s->pid, peer, s);
}

static int lock_op(void *state, uint64_t n)
{
	struct lock_state *s = state;
	uint64_t i;

	for (i = 0; i < n; i++)
		if (cycle(s, 1) < 0) {
			snprintf(s->reason, 256, "fcntl lock: %s", strerror(errno));
			return -1;
		}
	return 0;
}

const struct bench bench_ipc_fcntl_lat = {
	.id = "ipc.fcntl.lat", .group = "ipc", .title = "File lock handoff (lat_fcntl)",
	.unit = "us", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.setup = lock_setup, .op = lock_op, .teardown = lock_teardown,
};
