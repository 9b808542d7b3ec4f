/* ipc-group.c — the ipc group's contract (struct bench_group): pipes,
 * sockets and FIFOs between processes wait on the scheduler, so compare
 * holds them to its noise floor. */
#include "bench.h"

const struct bench_group group_ipc = {
	.name = "ipc", .noise = NOISE_SCHED,
};
