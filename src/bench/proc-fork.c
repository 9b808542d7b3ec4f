/* proc-fork.c — process creation (lmbench lat_proc fork / exec / shell).
 *
 * proc.fork.exit: fork(), the child _exit(0)s at once, the parent waits
 * for it. proc.fork.exec: the same, but the child execve()s /bin/true (or
 * /usr/bin/true). proc.fork.sh: the child execve()s /bin/sh -c /bin/true,
 * so a shell starts and itself runs the program. One operation is one
 * child created and reaped; the harness subtracts only its loop. Children
 * are made with harness_fork(), whose reset of a few signal dispositions
 * in the child costs about a microsecond — noise against fork itself.
 *
 * An exec failure must not look like a fast exec: the child writes its
 * errno into a close-on-exec pipe and _exit(127)s, and the parent turns
 * exit status 127 into a failure naming the program and the reason. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench.h"
#include "harness.h"
#include "result.h"

extern char **environ;

struct fork_state {
	struct bench_ctx *ctx;
	const char *prog;	/* what the child executes, NULL for fork+exit */
	char label[64];		/* how failures name it */
	char *const *argv;
	int err[2];		/* exec errno from child to parent (close-on-exec) */
};

static const char *true_path(void)
{
	if (access("/bin/true", X_OK) == 0)
		return "/bin/true";
	if (access("/usr/bin/true", X_OK) == 0)
		return "/usr/bin/true";
	return NULL;
}

static int exec_supported(struct bench_ctx *ctx)
{
	if (true_path())
		return 0;
	snprintf(ctx->reason, sizeof(ctx->reason),
		 "neither /bin/true nor /usr/bin/true is executable");
	return -1;
}

static int sh_supported(struct bench_ctx *ctx)
{
	if (access("/bin/sh", X_OK) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "/bin/sh is not executable: %s",
			 strerror(errno));
		return -1;
	}
	return exec_supported(ctx);
}

static void fork_teardown(void *state)
{
	struct fork_state *s = state;

	if (s->err[0] >= 0)
		close(s->err[0]);
	if (s->err[1] >= 0)
		close(s->err[1]);
	free(s);
}

static int fork_setup_common(struct bench_ctx *ctx, void **state, const char *prog,
			     char *const *argv)
{
	struct fork_state *s = harness_state(ctx, sizeof(*s));

	if (!s)
		return -1;
	s->ctx = ctx;
	s->prog = prog;
	s->argv = argv;
	s->err[0] = s->err[1] = -1;
	if (prog && argv[1])
		snprintf(s->label, sizeof(s->label), "%s %s %s", prog, argv[1], argv[2]);
	else
		snprintf(s->label, sizeof(s->label), "%s", prog ? prog : "child");
	if (prog) {
		/* One pipe for all children: a child only writes to it when its
		 * exec failed, and exits at once, so the parent finds the errno
		 * there whenever it sees status 127. */
		if (pipe(s->err) < 0 || fcntl(s->err[0], F_SETFD, FD_CLOEXEC) < 0 ||
		    fcntl(s->err[1], F_SETFD, FD_CLOEXEC) < 0 ||
		    fcntl(s->err[0], F_SETFL, O_NONBLOCK) < 0) {
			snprintf(ctx->reason, sizeof(ctx->reason), "pipe: %s", strerror(errno));
			fork_teardown(s);
			return -1;
		}
	}
	*state = s;
	return 0;
}

static int exit_setup(struct bench_ctx *ctx, void **state)
{
	return fork_setup_common(ctx, state, NULL, NULL);
}

static char *exec_argv[2][4];

/* exec_argv[0]: true; exec_argv[1]: sh -c true. */
static int exec_setup_argv(struct bench_ctx *ctx, void **state, int shell)
{
	const char *t = true_path();
	char **av = exec_argv[shell];

	if (!t) {
		exec_supported(ctx);
		return -1;
	}
	if (shell) {
		av[0] = (char *)"sh";
		av[1] = (char *)"-c";
		av[2] = (char *)t;
		av[3] = NULL;
		result_param_str(ctx->res, "shell", "/bin/sh");
	} else {
		av[0] = (char *)"true";
		av[1] = NULL;
	}
	result_param_str(ctx->res, "program", t);
	return fork_setup_common(ctx, state, shell ? "/bin/sh" : t, av);
}

static int exec_setup(struct bench_ctx *ctx, void **state)
{
	return exec_setup_argv(ctx, state, 0);
}

static int sh_setup(struct bench_ctx *ctx, void **state)
{
	return exec_setup_argv(ctx, state, 1);
}

/* Reap pid. An interrupt must not leave a zombie: the child exits on its
 * own (or dies of the same SIGINT), so keep waiting and report EINTR. */
static int reap(pid_t pid, int *status)
{
	int intr = 0;

	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR)
			return -1;
		intr = 1;
	}
	if (intr) {
		errno = EINTR;
		return -1;
	}
	return 0;
}

static int fork_op(void *state, uint64_t n)
{
	struct fork_state *s = state;
	struct bench_ctx *ctx = s->ctx;
	uint64_t i;
	pid_t pid;
	int st, e;

	for (i = 0; i < n; i++) {
		pid = harness_fork();
		if (pid < 0) {
			e = errno;
			snprintf(ctx->reason, sizeof(ctx->reason), "fork: %s", strerror(e));
			errno = e;
			return -1;
		}
		if (pid == 0) {
			if (s->prog) {
				execve(s->prog, s->argv, environ);
				e = errno;
				if (write(s->err[1], &e, sizeof(e)) < 0)
					_exit(126);
				_exit(127);
			}
			_exit(0);
		}
		if (reap(pid, &st) < 0) {
			e = errno;
			if (e != EINTR)
				snprintf(ctx->reason, sizeof(ctx->reason), "waitpid: %s",
					 strerror(e));
			errno = e;
			return -1;
		}
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
			continue;
		if (s->prog && WIFEXITED(st) && WEXITSTATUS(st) == 127 &&
		    read(s->err[0], &e, sizeof(e)) == (ssize_t)sizeof(e)) {
			snprintf(ctx->reason, sizeof(ctx->reason), "exec %s: %s", s->prog,
				 strerror(e));
		} else if (WIFEXITED(st)) {
			snprintf(ctx->reason, sizeof(ctx->reason), "%s exited with status %d",
				 s->label, WEXITSTATUS(st));
		} else if (WIFSIGNALED(st)) {
			snprintf(ctx->reason, sizeof(ctx->reason), "%s killed by signal %d",
				 s->label, WTERMSIG(st));
		}
		errno = ECHILD;
		return -1;
	}
	return 0;
}

const struct bench bench_proc_fork_exit = {
	.id = "proc.fork.exit", .group = "proc", .title = "Process fork+exit",
	.unit = "us", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.setup = exit_setup, .op = fork_op, .teardown = fork_teardown,
};

const struct bench bench_proc_fork_exec = {
	.id = "proc.fork.exec", .group = "proc", .title = "Process fork+execve (true)",
	.unit = "us", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.supported = exec_supported,
	.setup = exec_setup, .op = fork_op, .teardown = fork_teardown,
};

const struct bench bench_proc_fork_sh = {
	.id = "proc.fork.sh", .group = "proc", .title = "Process fork+/bin/sh -c (true)",
	.unit = "us", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.supported = sh_supported,
	.setup = sh_setup, .op = fork_op, .teardown = fork_teardown,
};
