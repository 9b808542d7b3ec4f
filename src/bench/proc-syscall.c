/* proc-syscall.c — the cost of entering the kernel (lmbench lat_syscall).
 *
 * proc.syscall.null: getppid(), which no libc caches (perf bench syscall
 * basic uses the same call; lmbench's "null" is getppid too).
 * proc.syscall.read: read() of one byte from /dev/zero.
 * proc.syscall.write: write() of one byte to /dev/null.
 * proc.syscall.stat / fstat / open: stat(), fstat() and open()+close() of
 * an empty file in the run's scratch directory, as lmbench stats the file
 * it is given (a file in its temporary directory) rather than a system
 * file whose path may cross other mounts.
 * One operation is one call (one open+close pair for open); the harness
 * subtracts the loop; nothing else is subtracted. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bench.h"
#include "harness.h"
#include "scratch.h"

static int null_op(void *state, uint64_t n)
{
	uint64_t i, acc = 0;

	(void)state;
	for (i = 0; i < n; i++)
		acc += (uint64_t)getppid();
	bench_use(acc);
	return 0;
}

const struct bench bench_proc_syscall_null = {
	.id = "proc.syscall.null", .group = "proc", .title = "Null syscall (getppid)",
	.noise = NOISE_SYSCALL,
	.unit = "ns", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.op = null_op,
};

struct fd_state {
	int fd;
	char path[PATH_MAX];	/* scratch file, or "" for a device */
};

static int dev_setup(struct bench_ctx *ctx, void **state, const char *dev, int flags)
{
	struct fd_state *s = harness_state(ctx, sizeof(*s));

	if (!s)
		return -1;
	s->fd = open(dev, flags);
	if (s->fd < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "open %s: %s", dev, strerror(errno));
		free(s);
		return -1;
	}
	*state = s;
	return 0;
}

static int read_setup(struct bench_ctx *ctx, void **state)
{
	return dev_setup(ctx, state, "/dev/zero", O_RDONLY);
}

static int write_setup(struct bench_ctx *ctx, void **state)
{
	return dev_setup(ctx, state, "/dev/null", O_WRONLY);
}

/* An empty file in the scratch directory, named per process so that
 * --parallel copies do not share it; fd stays open (fstat uses it). */
static int file_setup(struct bench_ctx *ctx, void **state)
{
	struct fd_state *s = harness_state(ctx, sizeof(*s));
	char name[64];

	if (!s)
		return -1;
	snprintf(name, sizeof(name), "proc-syscall.%ld", (long)getpid());
	if (scratch_file(s->path, sizeof(s->path), name) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "scratch file %s: %s", name,
			 strerror(errno));
		free(s);
		return -1;
	}
	s->fd = open(s->path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (s->fd < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "create %.200s: %s", s->path,
			 strerror(errno));
		free(s);
		return -1;
	}
	*state = s;
	return 0;
}

static int read_op(void *state, uint64_t n)
{
	struct fd_state *s = state;
	uint64_t i;
	char c;

	for (i = 0; i < n; i++)
		if (read(s->fd, &c, 1) != 1)
			return -1;
	return 0;
}

static int write_op(void *state, uint64_t n)
{
	struct fd_state *s = state;
	uint64_t i;
	char c = 0;

	for (i = 0; i < n; i++)
		if (write(s->fd, &c, 1) != 1)
			return -1;
	return 0;
}

/* stat(2) of the file's path, or fstat(2) of its descriptor, n times */
static int stat_loop(const struct fd_state *s, uint64_t n, int by_fd)
{
	struct stat st;
	uint64_t i, acc = 0;

	for (i = 0; i < n; i++) {
		if ((by_fd ? fstat(s->fd, &st) : stat(s->path, &st)) < 0)
			return -1;
		acc += (uint64_t)st.st_ino;
	}
	bench_use(acc);
	return 0;
}

static int stat_op(void *state, uint64_t n)
{
	return stat_loop(state, n, 0);
}

static int fstat_op(void *state, uint64_t n)
{
	return stat_loop(state, n, 1);
}

static int open_op(void *state, uint64_t n)
{
	struct fd_state *s = state;
	uint64_t i;
	int fd;

	for (i = 0; i < n; i++) {
		if ((fd = open(s->path, O_RDONLY)) < 0)
			return -1;
		if (close(fd) < 0)
			return -1;
	}
	return 0;
}

static void fd_teardown(void *state)
{
	struct fd_state *s = state;

	close(s->fd);
	if (s->path[0])
		unlink(s->path);
	free(s);
}

const struct bench bench_proc_syscall_read = {
	.id = "proc.syscall.read", .group = "proc", .title = "Null read (1 byte, /dev/zero)",
	.noise = NOISE_SYSCALL,
	.unit = "ns", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.setup = read_setup, .op = read_op, .teardown = fd_teardown,
};

const struct bench bench_proc_syscall_write = {
	.id = "proc.syscall.write", .group = "proc", .title = "Null write (1 byte, /dev/null)",
	.noise = NOISE_SYSCALL,
	.unit = "ns", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.setup = write_setup, .op = write_op, .teardown = fd_teardown,
};

const struct bench bench_proc_syscall_stat = {
	.id = "proc.syscall.stat", .group = "proc", .title = "Stat (scratch file)",
	.noise = NOISE_SYSCALL,
	.unit = "ns", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.setup = file_setup, .op = stat_op, .teardown = fd_teardown,
};

const struct bench bench_proc_syscall_fstat = {
	.id = "proc.syscall.fstat", .group = "proc", .title = "Fstat (scratch file)",
	.noise = NOISE_SYSCALL,
	.unit = "ns", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.setup = file_setup, .op = fstat_op, .teardown = fd_teardown,
};

const struct bench bench_proc_syscall_open = {
	.id = "proc.syscall.open", .group = "proc", .title = "Open/close (scratch file)",
	.noise = NOISE_SYSCALL,
	.unit = "ns", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.setup = file_setup, .op = open_op, .teardown = fd_teardown,
};
