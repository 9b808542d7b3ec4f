/* mem-group.c — the mem group's contract (struct bench_group): its
 * buffers are --mem-size, which the guard holds against the last-level
 * cache (STREAM's kernels size their own arrays, .own_size); mem.loaded's
 * sweep is checked before the run starts. */
#include <stdio.h>
#include "bench.h"

static int mem_begin(struct bench_opts *opt, char *err, size_t errlen)
{
	if (opt->ndelays == 1) {
		snprintf(err, errlen, "--delays %ld: a sweep needs two points or more (from light load "
			 "to full, e.g. 100,10,0)", opt->delays[0]);
		return -1;
	}
	return 0;
}

const struct bench_group group_mem = {
	.name = "mem", .flags = GROUP_SIZED_BY_MEM_SIZE, .noise = NOISE_MEM_LAT,
	.begin = mem_begin,
};
