/* proc-syscall.c — the cost of entering the kernel (lmbench lat_syscall).
 *
 * proc.syscall.null: getppid(), which no libc caches (perf bench syscall
 * basic uses the same call). proc.syscall.read: read() of one byte from
 * /dev/zero. One operation is one call; the harness subtracts the loop. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "bench.h"

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
	.unit = "ns", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.op = null_op,
};

struct fd_state {
	int fd;
};

static int read_setup(struct bench_ctx *ctx, void **state)
{
	struct fd_state *s = malloc(sizeof(*s));

	(void)ctx;
	if (!s)
		return -1;
	s->fd = open("/dev/zero", O_RDONLY);
	if (s->fd < 0) {
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

static void fd_teardown(void *state)
{
	struct fd_state *s = state;

	close(s->fd);
	free(s);
}

const struct bench bench_proc_syscall_read = {
	.id = "proc.syscall.read", .group = "proc", .title = "Null read (1 byte, /dev/zero)",
	.unit = "ns", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.setup = read_setup, .op = read_op, .teardown = fd_teardown,
};
