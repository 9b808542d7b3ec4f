/* vm-group.c — the vm group's contract (struct bench_group): compare
 * holds mmap, page-fault and reread figures to the page cache's noise
 * floor. */
#include "bench.h"

const struct bench_group group_vm = {
	.name = "vm", .noise = NOISE_VM,
};
