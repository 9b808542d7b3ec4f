/* mem-stream.h — STREAM's check of its arrays, exposed for
 * tests/unit/t-stream.c. */
#ifndef BAKEOFF_MEM_STREAM_H
#define BAKEOFF_MEM_STREAM_H
#include <stddef.h>

/* Run STREAM's four kernels over arrays of n elements for `rounds`
 * interleaved rounds (copy, scale, add, triad, then again), each kernel
 * `passes` times in a row, as mem.stream does (the values set back before
 * they overflow); then, when corrupt_at < n, change a[corrupt_at] by the
 * relative amount corrupt_by; then check every element. Returns 0 when the
 * check passes, -1 with why set when it fails (or memory is short). */
int mem_stream_selftest(size_t n, int rounds, int passes, size_t corrupt_at, double corrupt_by,
			char *why, size_t whylen);

#endif
