/* vm.h — what the vm families (vm-file.c, vm-mmap.c) share: a file of
 * --map-size bytes in the scratch directory whose pages are in the page
 * cache. */
#ifndef BAKEOFF_VM_H
#define BAKEOFF_VM_H
#include <stddef.h>
#include <stdint.h>
#include "bench.h"

/* Create "vm-<tag>.<pid>" in the scratch directory, size ctx->opt->map_size
 * rounded down to whole pages (the size is returned in *size), write it,
 * fsync it (so no writeback runs while timed) and read it once, so every
 * page is cached. Returns an O_RDWR descriptor with the path in path, or -1
 * with ctx->reason set (the file, if made, already unlinked). Records the
 * map_size_bytes parameter. */
int vm_file_create(struct bench_ctx *ctx, const char *tag, char *path, size_t pathlen,
		   size_t *size);

/* Sum of the 64-bit words of p[0 .. bytes/8) (four accumulators, so the
 * adds do not serialize the loads), as lmbench sums what it reads. */
uint64_t vm_sum(const void *p, size_t bytes);

#endif
