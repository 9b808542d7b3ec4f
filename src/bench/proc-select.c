/* proc-select.c — select() over many descriptors (lmbench lat_select, the
 * lmbench summary's "slct TCP" and "100fd selct" columns).
 *
 * proc.select.file: SELECT_FDS descriptors, dup()s of one read-only
 * descriptor of a scratch file; proc.select.tcp: the same count of dup()s
 * of one connected loopback TCP socket (its peer accepted in this process
 * and kept open, so the socket stays writable). One operation is one
 * select() for writing over the whole set with a zero timeout, the set
 * copied before each call, as lat_select does; in us.
 *
 * Where lat_select differs: it passes nfds = 100 (the descriptor count)
 * rather than the highest descriptor + 1, so the kernel scans descriptors
 * 0..99 and the few dup()s numbered 100 and above are never looked at; we
 * pass the highest + 1, so all 100 are. On TCP sockets that made
 * lat_select 5% faster here (docs/peers.md). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>
#include "bench.h"
#include "harness.h"
#include "result.h"
#include "scratch.h"

#define SELECT_FDS 100

struct sel {
	fd_set set;
	int nfds;		/* highest descriptor in set + 1 */
	int fds[SELECT_FDS];
	int n;			/* of fds opened */
	int peer;		/* tcp: the accepted end, else -1 */
	char path[PATH_MAX];	/* file: the scratch file, else "" */
};

static void sel_teardown(void *state)
{
	struct sel *s = state;
	int i;

	for (i = 0; i < s->n; i++)
		close(s->fds[i]);
	if (s->peer >= 0)
		close(s->peer);
	if (s->path[0])
		unlink(s->path);
	free(s);
}

/* The SELECT_FDS dup()s of fd (closed here) into s's set. */
static int fill_set(struct bench_ctx *ctx, struct sel *s, int fd)
{
	FD_ZERO(&s->set);
	for (s->n = 0; s->n < SELECT_FDS; s->n++) {
		int d = dup(fd);

		if (d < 0 || d >= FD_SETSIZE) {
			if (d >= 0)
				close(d);
			snprintf(ctx->reason, sizeof(ctx->reason),
				 "%d descriptors: %s", SELECT_FDS,
				 d < 0 ? strerror(errno) : "past select()'s FD_SETSIZE");
			close(fd);
			return -1;
		}
		s->fds[s->n] = d;
		FD_SET(d, &s->set);
		if (d + 1 > s->nfds)
			s->nfds = d + 1;
	}
	close(fd);
	result_param_num(ctx->res, "descriptors", SELECT_FDS);
	return 0;
}

static struct sel *sel_new(struct bench_ctx *ctx, void **state)
{
	struct sel *s = harness_state(ctx, sizeof(*s));

	if (!s)
		return NULL;
	s->peer = -1;
	*state = s;
	return s;
}

static int file_setup(struct bench_ctx *ctx, void **state)
{
	struct sel *s = sel_new(ctx, state);
	char name[64];
	int fd;

	if (!s)
		return -1;
	snprintf(name, sizeof(name), "proc-select.%ld", (long)getpid());
	if (scratch_file(s->path, sizeof(s->path), name) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "no scratch directory for %s", name);
		s->path[0] = 0;
		return -1;
	}
	if ((fd = open(s->path, O_RDWR | O_CREAT | O_EXCL, 0600)) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "create %.160s: %s", s->path,
			 strerror(errno));
		s->path[0] = 0;
		return -1;
	}
	close(fd);
	if ((fd = open(s->path, O_RDONLY)) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "open %.160s: %s", s->path,
			 strerror(errno));
		return -1;
	}
	return fill_set(ctx, s, fd);
}

/* A loopback TCP connection made and accepted here; the client end's
 * dup()s are selected on. */
static int tcp_setup(struct bench_ctx *ctx, void **state)
{
	struct sel *s = sel_new(ctx, state);
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int l = -1, c = -1;

	if (!s)
		return -1;
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((l = socket(AF_INET, SOCK_STREAM, 0)) < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(l, 1) < 0 || getsockname(l, (struct sockaddr *)&a, &len) < 0 ||
	    (c = socket(AF_INET, SOCK_STREAM, 0)) < 0 ||
	    connect(c, (struct sockaddr *)&a, sizeof(a)) < 0 || (s->peer = accept(l, NULL, NULL)) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "a loopback TCP connection: %s",
			 strerror(errno));
		if (c >= 0)
			close(c);
		if (l >= 0)
			close(l);
		return -1;
	}
	close(l);
	return fill_set(ctx, s, c);
}

static int select_op(void *state, uint64_t n)
{
	struct sel *s = state;
	struct timeval tv;
	fd_set w;
	uint64_t i;

	for (i = 0; i < n; i++) {
		w = s->set;
		tv.tv_sec = tv.tv_usec = 0;
		if (select(s->nfds, NULL, &w, NULL, &tv) < 0)
			return -1;
	}
	return 0;
}

const struct bench bench_proc_select_file = {
	.id = "proc.select.file", .group = "proc", .title = "Select on 100 file fds (lat_select)",
	.noise = NOISE_SYSCALL,
	.unit = "us", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.setup = file_setup, .op = select_op, .teardown = sel_teardown,
};

const struct bench bench_proc_select_tcp = {
	.id = "proc.select.tcp", .group = "proc", .title = "Select on 100 TCP fds (lat_select)",
	.noise = NOISE_SYSCALL,
	.unit = "us", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.setup = tcp_setup, .op = select_op, .teardown = sel_teardown,
};
