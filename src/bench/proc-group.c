/* proc-group.c — the proc group's contract (struct bench_group): compare
 * holds its figures to the process and scheduler noise floor (system
 * calls and signals, quieter, carry their own). */
#include "bench.h"

const struct bench_group group_proc = {
	.name = "proc", .noise = NOISE_SCHED,
};
