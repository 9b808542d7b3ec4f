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
 * subtracted; the sum is part of the figure, as in lmbench.
 *
 * Also home of what both vm files share (vm.h): the cached file and the sum. */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "result.h"
#include "scratch.h"
#include "vm.h"

#define VM_BLOCK (64 << 10)

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

int vm_file_create(struct bench_ctx *ctx, const char *tag, char *path, size_t pathlen,
		   size_t *size)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t bytes, off, i;
	char name[64], *buf = malloc(VM_BLOCK);
	ssize_t r;
	int fd = -1;

	if (page <= 0)
		page = 4096;
	bytes = (size_t)ctx->opt->map_size - (size_t)ctx->opt->map_size % (size_t)page;
	path[0] = 0;
	if (!buf) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
	if (bytes == 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "--map-size is smaller than a page");
		goto fail;
	}
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

		r = write(fd, buf, k);
		if (r <= 0) {
			snprintf(ctx->reason, sizeof(ctx->reason), "write %s: %s", path,
				 r < 0 ? strerror(errno) : "no progress");
			goto fail;
		}
	}
	if (fsync(fd) < 0 || lseek(fd, 0, SEEK_SET) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "fsync %s: %s", path, strerror(errno));
		goto fail;
	}
	for (off = 0; off < bytes; off += (size_t)r) {
		r = read(fd, buf, VM_BLOCK);
		if (r <= 0) {
			snprintf(ctx->reason, sizeof(ctx->reason), "read %s: %s", path,
				 r < 0 ? strerror(errno) : "short file");
			goto fail;
		}
	}
	free(buf);
	*size = bytes;
	result_param_num(ctx->res, "map_size_bytes", (double)bytes);
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
	struct rd_state *s = calloc(1, sizeof(*s));

	if (!s) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
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

			r = read(s->fd, s->buf, want);
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

const struct bench bench_vm_file_reread = {
	.id = "vm.file.reread", .group = "vm", .title = "File reread (read, 64K blocks)",
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH,
	.setup = rd_setup, .op = rd_op, .teardown = rd_teardown,
};
