/* vm.h — what the vm families (vm-file.c, vm-mmap.c) share: a file in the
 * scratch directory whose pages are in the page cache, its size, and the
 * page faults a pass over it takes. */
#ifndef BAKEOFF_VM_H
#define BAKEOFF_VM_H
#include <stddef.h>
#include <stdint.h>
#include "bench.h"

/* The default file size: 8 MiB (lmbench's $MB) or 4x the last-level cache
 * the host reports, whichever is larger, in whole MiB. */
uint64_t vm_default_map_size(const struct sysinfo *si);
/* The file size of this run: --map-size when given (opt->map_size != 0),
 * else vm_default_map_size() of the run's host. */
uint64_t vm_map_size(struct bench_ctx *ctx);

/* Create "vm-<tag>.<pid>" in the scratch directory, vm_map_size() rounded
 * down to whole pages (the size is returned in *size), after checking that
 * the scratch file system has room and memory can cache it. It is written
 * sequentially with write() in 64 KiB blocks, fsynced every 32 MiB and at
 * the end (so no writeback runs while timed and no fsync blocks for long),
 * then read once with read() in 64 KiB blocks, so every page is cached.
 * Ctrl-C is checked between blocks. Returns an O_RDWR descriptor with the
 * path in path, or -1 with ctx->reason set (the file, if made, already
 * unlinked). Records the map_size_bytes and write_block_bytes parameters. */
int vm_file_create(struct bench_ctx *ctx, const char *tag, char *path, size_t pathlen,
		   size_t *size);

/* Sum of the 64-bit words of p[0 .. bytes/8) (four accumulators, so the
 * adds do not serialize the loads), as lmbench sums what it reads. */
uint64_t vm_sum(const void *p, size_t bytes);
/* vm_sum over a large mapping in slices, stopping (-1, errno EINTR) once
 * Ctrl-C was pressed; the sum is added to *acc. */
int vm_sum_checked(const void *p, size_t bytes, uint64_t *acc);

/* Minor and major page faults of this process so far (getrusage); -1 if
 * unknown. */
int vm_faults(double *minor, double *major);
/* Records faults_per_pass, major_faults_per_pass and bytes_per_fault (bytes
 * the pass walked / faults) from the getrusage deltas around one pass. */
void vm_record_faults(struct bench_ctx *ctx, double minor, double major, double bytes);

/* A bandwidth benchmark over the cached file, run as setup, the timed op,
 * teardown; the main figure gets a note when the file is under 4x the
 * last-level cache (its figure is then partly or wholly a cache figure). */
int vm_run_reread(struct bench_ctx *ctx, int (*setup)(struct bench_ctx *, void **),
		  int (*op)(void *, uint64_t), void (*teardown)(void *));

#endif
