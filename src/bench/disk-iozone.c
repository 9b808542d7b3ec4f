/* disk-iozone.c — iozone's automatic mode (disk.iozone), iozone's method.
 *
 * Auto mode: file sizes from 64 KiB doubling to --max-size; for each, record
 * sizes from 4 KiB doubling to 16 MiB, never above the file size, and from
 * 64 KiB only on files above 16 MiB (iozone skips the small records on large
 * files, its CROSSOVER, unless -z). Each (file, record) cell runs iozone's
 * tests in iozone's order on one file in the first --dir entry:
 *   write           file deleted and created anew (untimed, iozone's unlink
 *                   and creat: a new inode each cell), then written record
 *                   by record
 *   rewrite         the same file written again over its blocks
 *   read, reread    read sequentially, twice (the second from the cache)
 *   random read     every record once, in a random order
 *   random write    every record once, in a random order
 *   bkwd read       records from the last to the first
 *   record rewrite  one record (the first) written as many times as the file
 *                   has records
 *   stride read     N records in iozone's walk: 17 records on from each one
 *                   read, back to record w at the w-th wrap; on a file of 17
 *                   records or fewer that is record 0, N times over
 *   fwrite          fopen("r+") (untimed), fwrite() records over the file
 *                   the tests before left, fflush (iozone opens an existing
 *                   file "r+", so its fwrite allocates nothing)
 *   frewrite        the same again
 *   fread, freread  fread() records, twice
 *                   The streams keep stdio's own buffer (st_blksize), where
 *                   iozone setvbuf()s one of a record: deliberately, since
 *                   iozone's buffering, tried, moved frewrite from 0.93-0.95
 *                   of iozone's to 0.98-1.03 but read from 0.89-1.08 to
 *                   0.66-0.75 in the same runs, for a reason not found
 *                   (docs/peers.md); the iozone report's header says so.
 * Each --reps round runs the cell's 13 tests once in that order
 * (harness_long_seq), so each pass follows the test before it, as iozone's
 * one pass does: a read repeated in a row would find the file in the CPU's
 * cache. Each test opens the file anew, read-only for read, reread, bkwd
 * and stride read, and before its clock every test but the random ones
 * fsyncs it untimed, as iozone does. The random, backward, record rewrite
 * and stride tests lseek() before each record's read() or write(), as
 * iozone's; the sequential ones pread()/pwrite() the next record (one
 * call, as iozone's read()/write()); the backward read stat()s the file
 * inside its timing, as iozone's does.
 * Every test but fread and freread ends with fsync inside its timing, reads
 * too, as iozone -e does (iozone's header says "write timing", but its read,
 * reread, random, backward and stride tests call fsync before they stop the
 * clock; on a file system that flushes the device's cache on every fsync,
 * ext4 without a journal for one, that flush is most of a small cell's
 * time). fwrite and frewrite end with fflush + fsync, fread and freread with
 * fflush only, as iozone's; fclose is not timed (iozone -c would). Reads
 * are not evicted first: reread and freread are meant to be cache figures, and read is what iozone measures. The file is
 * opened O_DIRECT only with --direct (iozone -I; the stdio tests stay
 * buffered); otherwise it is buffered, as iozone by default, so a figure on
 * a file under 2x RAM is marked cache_suspect. Cell metrics are named
 * "TEST, F kB, reclen R kB" (detail), in MB/s; the renderer prints kB/s.
 *
 * Also the 1997 report's single file (iozone 2: "write N MB, read it back"):
 * "single write" writes --size in 64 KiB records (or what --runtime allows,
 * as disk.seq) and fsyncs, "single read" reads that back after an untimed
 * eviction; O_DIRECT where the file system
 * takes it (as disk.seq), unless --no-direct. */
#ifdef __linux__
#define _GNU_SOURCE 1	/* O_DIRECT */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "disk.h"
#include "registry.h"
#include "scratch.h"

#define KB 1024ull
#define MIN_FILE (64 * KB)
#define MIN_REC (4 * KB)
#define MAX_REC (16 * KB * KB)
#define CROSSOVER (16 * KB * KB)	/* files above it start at LARGE_REC */
#define LARGE_REC (64 * KB)
#define STRIDE 17
#define SINGLE_REC (64 * KB)
#define PROGRESS_BYTES (256 * KB)	/* auto mode: long_progress() at most this often */

enum { T_WRITE, T_REWRITE, T_READ, T_REREAD, T_RREAD, T_RWRITE, T_BKWD, T_RECREWRITE,
       T_STRIDE, T_FWRITE, T_FREWRITE, T_FREAD, T_FREREAD, T_N };

/* Test names, in iozone's column order (the renderer's too). */
static const char *const names[T_N] = {
	"write", "rewrite", "read", "reread", "random read", "random write", "bkwd read",
	"record rewrite", "stride read", "fwrite", "frewrite", "fread", "freread",
};

struct ioz {
	struct bench_ctx *ctx;
	const char *label;
	struct disk_file f;
	FILE *fp;
	char *buf;
	uint64_t fsize, rec, nrec, x, made;
	uint32_t *order;
	int test;
};

/* One test of a cell, the state of its long op. */
struct ioz_test {
	struct ioz *z;
	int test;
};

static struct ioz *use(void *st)
{
	struct ioz_test *t = st;

	t->z->test = t->test;
	return t->z;
}

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static int io_fail(struct ioz *z, const char *what, int64_t off, int err)
{
	if (err == EINTR || scratch_interrupted())
		return -1;
	return disk_fail(z->ctx, z->label, what, z->f.path, off, err);
}

/* The smallest record size of a file of fsize bytes in auto mode. */
static uint64_t first_rec(uint64_t fsize)
{
	return fsize > CROSSOVER ? LARGE_REC : MIN_REC;
}

/* iozone opens the file anew for each test (read-only for read, reread,
 * backward and stride read) and closes it after, and its write test makes
 * a new file; only with a new file each cell did the timed fsync of the
 * read test cost what iozone's does (ext4, docs/peers.md). */
static int reopen(struct ioz *z)
{
	int ro = z->test == T_READ || z->test == T_REREAD || z->test == T_BKWD || z->test == T_STRIDE;
	int fl = (ro ? O_RDONLY : O_RDWR) | O_CLOEXEC;
	int fd;

#ifdef O_DIRECT
	if (z->f.direct)
		fl |= O_DIRECT;
#endif
	if (z->test == T_WRITE) {	/* iozone: unlink, then creat() */
		if (unlink(z->f.path) < 0)
			return io_fail(z, "unlink", -1, errno);
		fl |= O_CREAT | O_EXCL;
	}
	if ((fd = open(z->f.path, fl, 0600)) < 0)
		return io_fail(z, "open", -1, errno);
	close(z->f.fd);
	z->f.fd = fd;
	return 0;
}

static int prepare(void *st, struct long_run *lr)
{
	struct ioz *z = use(st);
	uint64_t i, j, t;
	const char *mode = NULL;

	(void)lr;
	if (reopen(z) < 0)
		return -1;
	/* iozone fsyncs the file just before it starts the clock, in every
	 * test but the random ones: the timed fsync then finds the device's
	 * cache already flushed of what the test before left. */
	if (z->test != T_RREAD && z->test != T_RWRITE && fsync(z->f.fd) < 0)
		return io_fail(z, "fsync", -1, errno);
	switch (z->test) {
	case T_RREAD:
	case T_RWRITE:
		for (i = 0; i < z->nrec; i++)
			z->order[i] = (uint32_t)i;
		for (i = z->nrec; i > 1; i--) {
			j = rnd(&z->x) % i;
			t = z->order[i - 1];
			z->order[i - 1] = z->order[j];
			z->order[j] = (uint32_t)t;
		}
		break;
	case T_STRIDE:
		/* iozone's walk: STRIDE records on from each record read, and
		 * where that would reach the last record or past it, back to
		 * record w of the w-th wrap (to record 0 on files of STRIDE
		 * records or fewer, so those read their first record over and
		 * over; read_stride_perf_test) */
		for (i = 0, j = 0, t = 0; i < z->nrec; i++) {
			z->order[i] = (uint32_t)j;
			if (j + 1 + STRIDE >= z->nrec - 1)
				j = z->nrec <= STRIDE ? 0 : ++t % z->nrec;
			else
				j += STRIDE;
		}
		break;
	case T_FWRITE:
	case T_FREWRITE:
		mode = "r+";
		break;
	case T_FREAD:
	case T_FREREAD:
		mode = "r";
		break;
	}
	if (mode) {
		if (z->fp)
			fclose(z->fp);
		if (!(z->fp = fopen(z->f.path, mode)))
			return io_fail(z, "open", -1, errno);
	}
	return 0;
}

/* The record the k-th operation of a test touches. */
static uint64_t record_at(const struct ioz *z, uint64_t k)
{
	switch (z->test) {
	case T_RREAD:
	case T_RWRITE:
	case T_STRIDE:
		return z->order[k];
	case T_BKWD:
		return z->nrec - 1 - k;
	case T_RECREWRITE:
		return 0;
	default:
		return k;
	}
}

static int op(void *st, struct long_run *lr)
{
	struct ioz *z = use(st);
	int writing = z->test == T_WRITE || z->test == T_REWRITE || z->test == T_RWRITE ||
		      z->test == T_RECREWRITE || z->test == T_FWRITE || z->test == T_FREWRITE;
	int stdio = z->test >= T_FWRITE;
	/* iozone lseek()s before each record of these (two system calls a
	 * record), and reads or writes the next record of the others */
	int seek = z->test == T_RREAD || z->test == T_RWRITE || z->test == T_BKWD ||
		   z->test == T_RECREWRITE || z->test == T_STRIDE;
	uint64_t k, off = 0, pend = 0;
	size_t rec = (size_t)z->rec;
	ssize_t r;
	struct stat sb;

	/* iozone's backward read stat()s the file (check_filename) after it
	 * starts its clock. What -e's timed fsyncs find to write depends on
	 * it: without it backward read ran 1.36-1.50x and stride read
	 * 1.34-1.59x iozone's on ext4 (docs/peers.md), with it 1.03, 0.93. */
	if (z->test == T_BKWD && stat(z->f.path, &sb) < 0)
		return io_fail(z, "stat", -1, errno);
	for (k = 0; k < z->nrec; k++) {
		off = record_at(z, k) * z->rec;
		if (stdio) {
			errno = 0;
			if ((writing ? fwrite(z->buf, 1, rec, z->fp) : fread(z->buf, 1, rec, z->fp)) !=
			    rec)
				return io_fail(z, writing ? "write" : "read", (int64_t)(k * z->rec),
					       errno ? errno : writing ? ENOSPC : EIO);
		} else {
			if (seek && lseek(z->f.fd, (off_t)off, SEEK_SET) < 0)
				return io_fail(z, "seek", (int64_t)off, errno);
			r = seek ? (writing ? write(z->f.fd, z->buf, rec) : read(z->f.fd, z->buf, rec)) :
			    writing ? pwrite(z->f.fd, z->buf, rec, (off_t)off) :
				      pread(z->f.fd, z->buf, rec, (off_t)off);
			if (r != (ssize_t)rec)
				return io_fail(z, writing ? "write" : "read", (int64_t)off,
					       r < 0 ? errno : writing ? ENOSPC : EIO);
		}
		/* the harness's clock read and checks once per PROGRESS_BYTES,
		 * not per record: iozone reads no clock inside its loops, and
		 * a read per record cost fread 3-9% at 4-32 KiB (docs/peers.md) */
		pend += rec;
		if (pend >= PROGRESS_BYTES || k + 1 == z->nrec) {
			if (long_progress(lr, (double)pend) < 0)
				return -1;
			pend = 0;
		}
	}
	if (stdio) {
		int bad = fflush(z->fp) != 0 || (writing && fsync(fileno(z->fp)) < 0);
		int err = errno;

		long_end(lr);	/* iozone times fclose only with -c */
		if (fclose(z->fp) != 0 && !bad) {
			bad = 1;
			err = errno;
		}
		z->fp = NULL;
		if (bad)
			return io_fail(z, writing ? "write" : "read", (int64_t)z->fsize, err);
	} else if (fsync(z->f.fd) < 0) {	/* reads too, as iozone -e */
		return io_fail(z, "fsync", (int64_t)off, errno);
	}
	return 0;
}

/* ---- the single file (iozone 2) ---- */

static uint64_t o_runtime(const struct ioz *z)
{
	return disk_opts(z->ctx->opt)->runtime;
}

static int prep_single_write(void *st, struct long_run *lr)
{
	struct ioz *z = st;

	(void)lr;
	return ftruncate(z->f.fd, 0) < 0 ? io_fail(z, "truncate", -1, errno) : 0;
}

static int prep_single_read(void *st, struct long_run *lr)
{
	struct ioz *z = st;

	(void)lr;
	if (!disk_opts(z->ctx->opt)->cache)
		disk_evict(z->f.fd);
	return 0;
}

static int op_single(void *st, struct long_run *lr)
{
	struct ioz *z = st;
	int writing = z->test == T_WRITE;
	uint64_t off, t, t0 = disk_now(), end = writing ? z->fsize : z->made;
	ssize_t r;

	for (off = 0; off < end; off += SINGLE_REC) {
		if (o_runtime(z) && disk_now() - t0 >= o_runtime(z))
			break;	/* --runtime: what was done so far is the figure */
		t = disk_now();
		r = writing ? pwrite(z->f.fd, z->buf, SINGLE_REC, (off_t)off) :
			      pread(z->f.fd, z->buf, SINGLE_REC, (off_t)off);
		if (r != (ssize_t)SINGLE_REC)
			return io_fail(z, writing ? "write" : "read", (int64_t)off,
				       r < 0 ? errno : writing ? ENOSPC : EIO);
		long_lat(lr, disk_now() - t);
		if (long_progress(lr, SINGLE_REC) < 0)
			return -1;
	}
	if (writing && fsync(z->f.fd) < 0)
		return io_fail(z, "fsync", (int64_t)off, errno);
	if (writing)
		z->made = off;
	return 0;
}

static int single(struct ioz *z, double mem)
{
	const struct bench_opts *o = z->ctx->opt;
	int d;

	z->fsize = disk_opts(o)->size / SINGLE_REC * SINGLE_REC;
	if (z->fsize == 0)
		z->fsize = SINGLE_REC;
	if (disk_room(z->ctx, 0, z->fsize) < 0 ||
	    disk_open(z->ctx, &z->f, 0, "iozone.tmp", O_RDWR, disk_want_direct(o)) < 0)
		return -1;
	result_param_num(z->ctx->res, "single_size_bytes", (double)z->fsize);
	result_param_num(z->ctx->res, "single_record_bytes", SINGLE_REC);
	result_param_str(z->ctx->res, "single_direct", z->f.direct ? "yes" : "no");
	for (d = 0; d < 2; d++) {
		const char *name = d ? "single read" : "single write";
		struct long_op lo = {
			.name = name, .unit = "MB/s", .kind = KIND_BANDWIDTH, .better = BETTER_HIGHER,
			.state = z, .prepare = d ? prep_single_read : prep_single_write,
			.op = op_single, .total = (double)z->fsize,
		};

		z->test = d ? T_READ : T_WRITE;
		if (harness_long(z->ctx, &lo, NULL) < 0)
			return -1;
		disk_cache_check(z->ctx, name, !z->f.direct, z->fsize, mem);
	}
	disk_close(&z->f);
	return 0;
}

/* ---- the benchmark ---- */

static int iozone_run(struct bench_ctx *ctx)
{
	const struct bench_opts *o = ctx->opt;
	const struct disk_opts *dk = disk_opts(o);
	double mem = disk_mem_ceiling();
	uint64_t maxf = dk->max_size, maxbuf, fsize;
	struct ioz z;
	int rc = -1, cells = 0, t;
	char name[T_N][96];
	struct ioz_test tests[T_N];
	struct long_op lo[T_N];

	memset(&z, 0, sizeof(z));
	z.ctx = ctx;
	z.f.fd = -1;
	z.label = disk_parent(ctx, 0);
	z.x = disk_now() | 1;
	if (maxf < MIN_FILE)
		maxf = MIN_FILE;
	maxbuf = maxf < MAX_REC ? maxf : MAX_REC;
	if (maxbuf < SINGLE_REC)
		maxbuf = SINGLE_REC;
	/* 4 KiB pages, as iozone's malloc'd buffer where THP is not "always":
	 * the copies to and from the page cache then cost the same TLB misses
	 * (on huge pages record rewrite ran 1.11x, the writes 1.05-1.07x) */
	z.buf = disk_buf_pages((size_t)maxbuf, 0);
	/* The most records a cell has: the largest file at its first record
	 * size, or the largest file up to the crossover at 4 KiB. */
	fsize = (maxf < CROSSOVER ? maxf : CROSSOVER) / MIN_REC;
	if (maxf / first_rec(maxf) > fsize)
		fsize = maxf / first_rec(maxf);
	z.order = calloc((size_t)fsize, sizeof(uint32_t));
	if (!z.buf || !z.order) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		goto out;
	}
	disk_facts(ctx, disk_dir(ctx, 0));
	result_param_str(ctx->res, "dir", z.label);
	result_param_num(ctx->res, "max_size_bytes", (double)maxf);
	result_param_str(ctx->res, "fsync", "yes");
	if (single(&z, mem) < 0)
		goto out;
	if (disk_room(ctx, 0, maxf) < 0 ||
	    disk_open(ctx, &z.f, 0, "iozone.auto", O_RDWR, dk->direct ? 1 : 0) < 0)
		goto out;
	result_param_str(ctx->res, "direct", z.f.direct ? "yes" : "no");
	for (fsize = MIN_FILE; fsize <= maxf; fsize *= 2) {
		for (z.rec = first_rec(fsize); z.rec <= MAX_REC && z.rec <= fsize; z.rec *= 2) {
			z.fsize = fsize;
			z.nrec = fsize / z.rec;
			for (t = 0; t < T_N; t++) {
				snprintf(name[t], sizeof(name[t]), "%s, %llu kB, reclen %llu kB", names[t],
					 (unsigned long long)(fsize / KB), (unsigned long long)(z.rec / KB));
				tests[t] = (struct ioz_test){ &z, t };
				lo[t] = (struct long_op){
					.name = name[t], .unit = "MB/s", .kind = KIND_BANDWIDTH,
					.better = BETTER_HIGHER, .detail = 1, .state = &tests[t],
					.prepare = prepare, .op = op, .total = (double)fsize,
				};
			}
			/* each repetition runs the cell's tests in iozone's order, so
			 * every pass starts where iozone's one pass starts: right
			 * after the test before it (a second read in a row would
			 * find the file in the CPU's cache, a reread) */
			if (harness_long_seq(ctx, lo, T_N, NULL) < 0)
				goto out;
			for (t = 0; t < T_N; t++)
				disk_cache_check(ctx, name[t], !z.f.direct || t >= T_FWRITE, fsize, mem);
			cells++;
		}
	}
	result_param_num(ctx->res, "cells", cells);
	rc = 0;
out:
	if (z.fp)
		fclose(z.fp);
	if (z.f.fd >= 0 || z.f.path[0])
		disk_close(&z.f);
	free(z.order);
	free(z.buf);
	return rc;
}

/* For the progress line: the single file's write and read repetitions
 * and the auto-mode matrix, about 2.5 passes (--runtime, or --size at
 * about 300 MB/s) per repetition. */
static double iozone_estimate(const struct bench_opts *opt, const struct harness_cfg *cfg, double fig_s)
{
	(void)fig_s;
	return 2.5 * harness_estimate_reps(cfg) * disk_pass_estimate(opt);
}

const struct bench bench_disk_iozone = {
	.id = "disk.iozone", .group = "disk", .title = "iozone: auto mode and single file",
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH, .long_mode = 1,
	.run = iozone_run,
	.estimate = iozone_estimate,
};
