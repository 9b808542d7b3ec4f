/* ipc-sem.c — a System V semaphore handed between two processes (lmbench
 * lat_sem).
 *
 * ipc.sem.lat: a set of two semaphores and a forked peer. The parent's
 * semop() waits for semaphore 1 and posts semaphore 0 in one call; the
 * peer's waits for 0 and posts 1. One operation is one such handoff, half
 * a round trip: the harness is told each call is two (ops_per_call), as
 * lat_sem reports its time over 2n. In us. The peer ends when the set is
 * removed (its semop fails with EIDRM), which teardown does first. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ipc.h"
#include "harness.h"

struct sem_state {
	int id;			/* the set, -1 when none */
	pid_t pid;		/* the peer, 0 when none */
	char *reason;
};

static int handoff(int id, unsigned short wait, unsigned short post)
{
	struct sembuf op[2] = { { wait, -1, 0 }, { post, 1, 0 } };

	return semop(id, op, 2);
}

static void peer(void *arg)
{
	struct sembuf first = { 1, 1, 0 };
	int id = *(int *)arg;

	if (semop(id, &first, 1) < 0)	/* the parent's first wait ends */
		return;
	while (handoff(id, 0, 1) == 0)
		;
}

static void sem_teardown(void *state)
{
	struct sem_state *s = state;

	if (s->id >= 0)
		semctl(s->id, 0, IPC_RMID);
	if (s->pid > 0)
		while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
			;
	free(s);
}

static int sem_setup(struct bench_ctx *ctx, void **state)
{
	struct sem_state *s = harness_state(ctx, sizeof(*s));

	if (!s)
		return -1;
	*state = s;
	s->reason = ctx->reason;
	if ((s->id = semget(IPC_PRIVATE, 2, IPC_CREAT | IPC_EXCL | 0600)) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "semget: %s (System V IPC off here?)",
			 strerror(errno));
		return -1;
	}
	/* both start at 0 (semget's new set; Linux and the BSDs zero it) */
	if (semctl(s->id, 0, SETVAL, 0) < 0 || semctl(s->id, 1, SETVAL, 0) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "semctl SETVAL: %s", strerror(errno));
		return -1;
	}
	return ipc_start_handoff(ctx, &s->pid, peer, &s->id);
}

static int sem_op(void *state, uint64_t n)
{
	struct sem_state *s = state;
	uint64_t i;

	for (i = 0; i < n; i++)
		if (handoff(s->id, 1, 0) < 0) {
			if (errno != EINTR)
				snprintf(s->reason, 256, "semop: %s", strerror(errno));
			return -1;
		}
	return 0;
}

const struct bench bench_ipc_sem_lat = {
	.id = "ipc.sem.lat", .group = "ipc", .title = "SysV semaphore handoff (lat_sem)",
	.unit = "us", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.setup = sem_setup, .op = sem_op, .teardown = sem_teardown,
};
