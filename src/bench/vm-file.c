/* vm-file.c — rereading a cached file with read() (lmbench bw_file_rd,
 * the "io_only" mode behind the lmbench summary's "File reread").
 *
 * vm.file.reread: a file of --map-size bytes in the scratch directory is
 * written and read once in setup, so its pages are cached. One operation
 * is one whole-file read from offset 0 in 64 KiB read() calls (lmbench's
 * XFERSIZE), each block's 64-bit words summed so the data is used
 * (bw_file_rd sums 32-bit ints); MB/s (10^6) counting
 * the file's bytes once. The descriptor stays open across operations
 * (io_only, not open2close). Only the harness's timer and loop overhead are
 * subtracted; the sum is part of the figure, as in lmbench. A file under 4x
 * the last-level cache gets a note on the figure: it is (partly) a cache
 * figure.
 *
 * Also home of what both vm files share (vm.h): the file's default size,
 * the room check before it is made, the cached file itself, the sum, and
 * the page-fault counts of a pass. */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include "harness.h"
#include "result.h"
#include "scratch.h"
#include "sysinfo.h"
#include "units.h"
#include "vm.h"

#define VM_BLOCK (64 << 10)
#define VM_SYNC_EVERY ((size_t)32 << 20)	/* fsync this often while writing */
#define VM_SLICE ((size_t)16 << 20)		/* interrupt checks this often */
#define MIB ((uint64_t)1 << 20)

uint64_t vm_default_map_size(const struct sysinfo *si)
{
	uint64_t llc = si ? sysinfo_llc_size(si) : 0, want = 8 * MIB;

	if (llc && 4 * llc > want)
		want = (4 * llc + MIB - 1) / MIB * MIB;
	return want;
}

uint64_t vm_map_size(struct bench_ctx *ctx)
{
	struct sysinfo tmp;

	if (ctx->opt->map_size)
		return ctx->opt->map_size;
	return vm_default_map_size(harness_host(ctx, &tmp));
}

uint64_t vm_sum(const void *p, size_t bytes)
{
	const uint64_t *w = p;
	size_t i, n = bytes / 8;
	uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;

	for (i = 0; i + 4 <= n; i += 4) {
		a0 += w[i];
		a1 += w[i + 1];
		a2 += w[i + 2];
		a3 += w[i + 3];
	}
	for (; i < n; i++)
		a0 += w[i];
	return a0 + a1 + a2 + a3;
}

int vm_sum_checked(const void *p, size_t bytes, uint64_t *acc)
{
	size_t off, k;

	for (off = 0; off < bytes; off += k) {
		if (!(k = scratch_slice(off, bytes, VM_SLICE)))
			return -1;
		*acc += vm_sum((const char *)p + off, k);
	}
	return 0;
}

int vm_faults(double *minor, double *major)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return -1;
	*minor = (double)ru.ru_minflt;
	*major = (double)ru.ru_majflt;
	return 0;
}

void vm_record_faults(struct bench_ctx *ctx, double minor, double major, double bytes)
{
	double faults = minor + major;

	result_param_num(ctx->res, "faults_per_pass", faults);
	result_param_num(ctx->res, "major_faults_per_pass", major);
	if (faults >= 1)
		result_param_num(ctx->res, "bytes_per_fault", bytes / faults);
}

/* Room for the file: the scratch file system must hold it and still keep
 * a reserve free (5% of it, at most 1 GiB), and memory must be able to
 * cache it, or the figures would include disk I/O. Nothing is created
 * before both are known. */
static int vm_room(struct bench_ctx *ctx, uint64_t bytes)
{
	const char *dir = scratch_path();
	struct statvfs v;
	struct sysinfo tmp;
	const struct sysinfo *si = harness_host(ctx, &tmp);
	char need[32], have[32], keep[32];

	if (dir && statvfs(dir, &v) == 0) {
		uint64_t fr = v.f_frsize ? v.f_frsize : v.f_bsize;
		uint64_t avail = (uint64_t)v.f_bavail * fr, total = (uint64_t)v.f_blocks * fr;
		uint64_t reserve = total / 20 < 1024 * MIB ? total / 20 : 1024 * MIB;

		if (bytes + reserve > avail) {
			fmt_size(need, sizeof(need), bytes);
			fmt_size(have, sizeof(have), avail);
			fmt_size(keep, sizeof(keep), reserve);
			snprintf(ctx->reason, sizeof(ctx->reason),
				 "needs %s in %.120s (and %s kept free), %s free", need, dir, keep,
				 have);
			return -1;
		}
	}
	if (si->mem_total && bytes > si->mem_total) {
		fmt_size(need, sizeof(need), bytes);
		fmt_size(have, sizeof(have), si->mem_total);
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "a %s file cannot stay in the page cache of %s of memory "
			 "(figures would include disk I/O): use a smaller --map-size", need, have);
		return -1;
	}
	return 0;
}

static int interrupted(struct bench_ctx *ctx)
{
	if (!scratch_interrupted())
		return 0;
	snprintf(ctx->reason, sizeof(ctx->reason), "interrupted");
	errno = EINTR;
	return 1;
}

/* One write (wr) or read of up to k bytes, retried on EINTR: the bytes
 * moved, or -1 with the reason (interrupted, an error, no progress). */
static ssize_t io_step(struct bench_ctx *ctx, int fd, char *buf, size_t k, int wr, const char *path)
{
	ssize_t r;

	if (interrupted(ctx))
		return -1;
	while ((r = wr ? write(fd, buf, k) : read(fd, buf, k)) < 0 && harness_retry())
		;
	if (r <= 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "%s %s: %s", wr ? "write" : "read", path,
			 r < 0 ? strerror(errno) : wr ? "no progress" : "short file");
		return -1;
	}
	return r;
}

int vm_file_create(struct bench_ctx *ctx, const char *tag, char *path, size_t pathlen,
		   size_t *size)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t want = vm_map_size(ctx);
	size_t bytes, off, i, synced = 0;
	char name[64], *buf = malloc(VM_BLOCK);
	ssize_t r;
	int fd = -1;

	if (page <= 0)
		page = 4096;
	path[0] = 0;
	if (!buf) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
	if (want > SIZE_MAX) {
		snprintf(ctx->reason, sizeof(ctx->reason), "--map-size is too large for this system");
		goto fail;
	}
	bytes = (size_t)want - (size_t)want % (size_t)page;
	if (bytes == 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "--map-size is smaller than a page");
		goto fail;
	}
	if (vm_room(ctx, bytes) < 0)
		goto fail;
	for (i = 0; i < VM_BLOCK; i++)
		buf[i] = (char)(i % 251);
	snprintf(name, sizeof(name), "vm-%s.%ld", tag, (long)getpid());
	if (scratch_file(path, pathlen, name) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "no scratch file name: %s", strerror(errno));
		path[0] = 0;
		goto fail;
	}
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "create %s: %s", path, strerror(errno));
		path[0] = 0;
		goto fail;
	}
	for (off = 0; off < bytes; off += (size_t)r) {
		size_t k = bytes - off < VM_BLOCK ? bytes - off : VM_BLOCK;

		if ((r = io_step(ctx, fd, buf, k, 1, path)) < 0)
			goto fail;
		/* Bounded dirty data: no single fsync waits for gigabytes. */
		if (off + (size_t)r - synced >= VM_SYNC_EVERY) {
			if (fsync(fd) < 0) {
				snprintf(ctx->reason, sizeof(ctx->reason), "fsync %s: %s", path,
					 strerror(errno));
				goto fail;
			}
			synced = off + (size_t)r;
		}
	}
	if (fsync(fd) < 0 || lseek(fd, 0, SEEK_SET) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "fsync %s: %s", path, strerror(errno));
		goto fail;
	}
	for (off = 0; off < bytes; off += (size_t)r) {
		if ((r = io_step(ctx, fd, buf, VM_BLOCK, 0, path)) < 0)
			goto fail;
	}
	free(buf);
	*size = bytes;
	result_param_num(ctx->res, "map_size_bytes", (double)bytes);
	result_param_num(ctx->res, "write_block_bytes", VM_BLOCK);
	return fd;
fail:
	if (fd >= 0)
		close(fd);
	if (path[0])
		unlink(path);
	path[0] = 0;
	free(buf);
	return -1;
}

int vm_run_reread(struct bench_ctx *ctx, int (*setup)(struct bench_ctx *, void **),
		  int (*op)(void *, uint64_t), void (*teardown)(void *))
{
	struct measure m = {
		.name = "", .unit = "MB/s", .kind = KIND_BANDWIDTH, .better = BETTER_HIGHER,
		.op = op,
	};
	const struct param *p;
	struct sysinfo tmp;
	uint64_t llc = sysinfo_llc_size(harness_host(ctx, &tmp));
	void *state = NULL;
	int rc = setup(ctx, &state);

	if (rc == 0) {
		m.state = state;
		m.bytes_per_op = ctx->bytes_per_op;
		rc = harness_measure(ctx, &m, NULL);
	}
	p = result_param(ctx->res, "map_size_bytes");
	if (rc == 0 && llc && p && p->num < 4.0 * (double)llc) {
		char f[32], c[32], note[256];

		fmt_size(f, sizeof(f), (uint64_t)p->num);
		fmt_size(c, sizeof(c), llc);
		snprintf(note, sizeof(note),
			 p->num <= (double)llc
				 ? "the %s file fits in the %s last-level cache: a cache figure"
				 : "the %s file is under 4x the %s last-level cache: partly cache hits",
			 f, c);
		result_note(ctx->res, "", note);
	}
	if (state)
		teardown(state);
	else if (rc < 0 && !ctx->reason[0])
		snprintf(ctx->reason, sizeof(ctx->reason), "setup failed: %s", strerror(errno));
	return rc;
}

struct rd_state {
	int fd;
	size_t size;
	uint64_t *buf;
	char path[PATH_MAX];
};

static void rd_teardown(void *state)
{
	struct rd_state *s = state;

	if (s->fd >= 0)
		close(s->fd);
	if (s->path[0])
		unlink(s->path);
	free(s->buf);
	free(s);
}

static int rd_setup(struct bench_ctx *ctx, void **state)
{
	struct rd_state *s = harness_state(ctx, sizeof(*s));

	if (!s)
		return -1;
	*state = s;
	s->fd = -1;
	if (posix_memalign((void **)&s->buf, 4096, VM_BLOCK)) {
		s->buf = NULL;
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
	memset(s->buf, 0, VM_BLOCK);
	s->fd = vm_file_create(ctx, "reread", s->path, sizeof(s->path), &s->size);
	if (s->fd < 0)
		return -1;
	ctx->bytes_per_op = (double)s->size;
	result_param_num(ctx->res, "block_bytes", VM_BLOCK);
	return 0;
}

static int rd_op(void *state, uint64_t n)
{
	struct rd_state *s = state;
	uint64_t k, acc = 0;
	size_t off;
	ssize_t r;

	for (k = 0; k < n; k++) {
		if (lseek(s->fd, 0, SEEK_SET) < 0)
			return -1;
		for (off = 0; off < s->size; off += (size_t)r) {
			size_t want = s->size - off < VM_BLOCK ? s->size - off : VM_BLOCK;

			/* One flag read a block: a pass over gigabytes stops at once. */
			if (scratch_interrupted()) {
				errno = EINTR;
				return -1;
			}
			while ((r = read(s->fd, s->buf, want)) < 0 && harness_retry())
				;
			if (r <= 0) {
				if (r == 0)
					errno = EIO;
				return -1;
			}
			acc += vm_sum(s->buf, (size_t)r);
		}
	}
	bench_use(acc);
	return 0;
}

static int rd_run(struct bench_ctx *ctx)
{
	return vm_run_reread(ctx, rd_setup, rd_op, rd_teardown);
}

const struct bench bench_vm_file_reread = {
	.id = "vm.file.reread", .group = "vm", .title = "File reread (read, 64K blocks)",
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH,
	.run = rd_run,
};
