/* cpu-group.c — the cpu group's contract (struct bench_group): its
 * workloads do the same work in every sample, so a speed that moves with
 * nothing else running is the host's, and the guard says so. */
#include "bench.h"

const struct bench_group group_cpu = {
	.name = "cpu", .flags = GROUP_STEADY_WORK, .noise = NOISE_CPU,
};
