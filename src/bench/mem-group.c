/* mem-group.c — the mem group's contract (struct bench_group): its
 * buffers are --mem-size, which the guard holds against the last-level
 * cache (STREAM's kernels size their own arrays, .own_size). */
#include "bench.h"

const struct bench_group group_mem = {
	.name = "mem", .flags = GROUP_SIZED_BY_MEM_SIZE, .noise = NOISE_MEM_LAT,
};
