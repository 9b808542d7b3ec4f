/* proc-signal.c — signal costs (lmbench lat_sig install / catch / prot).
 *
 * proc.signal.install: one sigaction() installing a handler for SIGUSR1.
 * proc.signal.catch: kill(getpid(), SIGUSR1) with a handler installed; the
 * signal is delivered before kill() returns, so one operation is send +
 * delivery + handler + sigreturn. Nothing is subtracted beyond the loop.
 * A second, detail figure "kill0" is the cost of kill(getpid(), 0) (the
 * permission check of a send, no signal): lmbench's "sig hndl" is catch
 * minus that, and the lmbench renderer subtracts it.
 * proc.signal.prot: a write to a PROT_READ shared mapping of a one-page
 * scratch file. The SIGSEGV (or SIGBUS) handler counts the fault and
 * returns, so the write retries and faults again, as lmbench does; after
 * the n-th fault it makes the page writable (mprotect) so the write
 * completes. One operation is one fault + signal delivery + sigreturn;
 * the one mprotect pair per op() call is amortized over n. lmbench
 * further subtracts its catch figure (itself less kill0); we do not, the
 * lmbench renderer does. Reported in us. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "bench.h"
#include "harness.h"
#include "scratch.h"

static void empty_handler(int sig)
{
	(void)sig;
}

struct install_state {
	struct sigaction old;
};

static int install_setup(struct bench_ctx *ctx, void **state)
{
	struct install_state *s = harness_state(ctx, sizeof(*s));

	if (!s)
		return -1;
	if (sigaction(SIGUSR1, NULL, &s->old) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "sigaction: %s", strerror(errno));
		free(s);
		return -1;
	}
	*state = s;
	return 0;
}

static int install_op(void *state, uint64_t n)
{
	struct sigaction sa, old;
	uint64_t i, acc = 0;

	(void)state;
	for (i = 0; i < n; i++) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = empty_handler;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGUSR1, &sa, &old) < 0)
			return -1;
		acc += (uint64_t)old.sa_flags;
	}
	bench_use(acc);
	return 0;
}

static void install_teardown(void *state)
{
	struct install_state *s = state;

	sigaction(SIGUSR1, &s->old, NULL);
	free(s);
}

const struct bench bench_proc_signal_install = {
	.id = "proc.signal.install", .group = "proc", .title = "Signal handler installation",
	.noise = NOISE_SYSCALL,
	.unit = "ns", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.setup = install_setup, .op = install_op, .teardown = install_teardown,
};

static volatile sig_atomic_t caught;

static void count_handler(int sig)
{
	(void)sig;
	caught++;
}

struct catch_state {
	struct bench_ctx *ctx;
	struct sigaction old;
	sigset_t oldmask;
	pid_t me;
};

static void catch_teardown(struct catch_state *s)
{
	sigaction(SIGUSR1, &s->old, NULL);
	sigprocmask(SIG_SETMASK, &s->oldmask, NULL);
}

static int catch_setup(struct bench_ctx *ctx, struct catch_state *s)
{
	struct sigaction sa;
	sigset_t set;

	s->ctx = ctx;
	s->me = getpid();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = count_handler;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (sigaction(SIGUSR1, &sa, &s->old) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "sigaction: %s", strerror(errno));
		return -1;
	}
	/* A blocked SIGUSR1 would stay pending instead of being caught. */
	sigprocmask(SIG_UNBLOCK, &set, &s->oldmask);
	return 0;
}

static int catch_op(void *state, uint64_t n)
{
	struct catch_state *s = state;
	uint64_t i;

	caught = 0;
	for (i = 0; i < n; i++)
		if (kill(s->me, SIGUSR1) < 0)
			return -1;
	/* POSIX: a signal a process sends itself is delivered before kill()
	 * returns, so every one must have been caught by now. */
	if (n <= (uint64_t)SIG_ATOMIC_MAX && (uint64_t)caught != n) {
		snprintf(s->ctx->reason, sizeof(s->ctx->reason),
			 "sent %llu signals to self, caught %ld", (unsigned long long)n,
			 (long)caught);
		errno = EPROTO;
		return -1;
	}
	return 0;
}

/* kill(me, 0): the checks of a send without a signal (lmbench's do_send). */
static int kill0_op(void *state, uint64_t n)
{
	struct catch_state *s = state;
	uint64_t i;

	for (i = 0; i < n; i++)
		if (kill(s->me, 0) < 0)
			return -1;
	return 0;
}

static int catch_run(struct bench_ctx *ctx)
{
	struct catch_state s;
	struct measure m = {
		.name = "", .unit = "ns", .kind = KIND_LATENCY, .better = BETTER_LOWER,
		.op = catch_op, .state = &s,
	};
	int rc;

	memset(&s, 0, sizeof(s));
	if (catch_setup(ctx, &s) < 0)
		return -1;
	rc = harness_measure(ctx, &m, NULL);
	if (rc == 0) {
		m.name = "kill0";
		m.op = kill0_op;
		m.detail = 1;
		rc = harness_measure(ctx, &m, NULL);
	}
	catch_teardown(&s);
	return rc;
}

const struct bench bench_proc_signal_catch = {
	.id = "proc.signal.catch", .group = "proc", .title = "Signal handler overhead (kill self)",
	.noise = NOISE_SYSCALL,
	.unit = "ns", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.run = catch_run,
};

/* Protection faults. The handler sees the page and the count through
 * statics: a signal handler has no other way to reach them. */
static volatile char *prot_page;
static size_t prot_len;
static volatile uint64_t prot_faults, prot_target;

static void prot_handler(int sig, siginfo_t *si, void *uc)
{
	char *a = si->si_addr, *p = (char *)prot_page;

	(void)uc;
	if (!p || a < p || a >= p + prot_len) {
		/* A real fault elsewhere: let it kill us as it would have. */
		signal(sig, SIG_DFL);
		return;
	}
	if (++prot_faults >= prot_target)
		mprotect(p, prot_len, PROT_READ | PROT_WRITE);
	/* Returning retries the faulting write. */
}

struct prot_state {
	struct bench_ctx *ctx;
	struct sigaction old_segv, old_bus;
	int fd;
	char path[PATH_MAX];
};

static void prot_teardown(void *state)
{
	struct prot_state *s = state;

	if (prot_page)
		munmap((void *)prot_page, prot_len);
	prot_page = NULL;
	sigaction(SIGSEGV, &s->old_segv, NULL);
	sigaction(SIGBUS, &s->old_bus, NULL);
	if (s->fd >= 0)
		close(s->fd);
	if (s->path[0])
		unlink(s->path);
	free(s);
}

static int prot_setup(struct bench_ctx *ctx, void **state)
{
	struct prot_state *s = harness_state(ctx, sizeof(*s));
	struct sigaction sa;
	char name[64];
	long pg = sysconf(_SC_PAGESIZE);
	void *p;

	if (!s)
		return -1;
	s->fd = -1;
	s->ctx = ctx;
	sigaction(SIGSEGV, NULL, &s->old_segv);
	sigaction(SIGBUS, NULL, &s->old_bus);
	prot_len = pg > 0 ? (size_t)pg : 4096;
	snprintf(name, sizeof(name), "proc-prot.%ld", (long)getpid());
	if (scratch_file(s->path, sizeof(s->path), name) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "scratch file %s: %s", name,
			 strerror(errno));
		s->path[0] = 0;
		goto fail;
	}
	/* A file mapping (as lmbench) keeps us within POSIX: MAP_ANONYMOUS is
	 * not in POSIX.1-2008. O_RDWR so the page may be made writable. */
	if ((s->fd = open(s->path, O_RDWR | O_CREAT | O_TRUNC, 0600)) < 0 ||
	    ftruncate(s->fd, (off_t)prot_len) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "create %.200s: %s", s->path,
			 strerror(errno));
		goto fail;
	}
	p = mmap(NULL, prot_len, PROT_READ, MAP_SHARED, s->fd, 0);
	if (p == MAP_FAILED) {
		snprintf(ctx->reason, sizeof(ctx->reason), "mmap %.200s: %s", s->path, strerror(errno));
		goto fail;
	}
	prot_page = p;
	bench_use((uint64_t)prot_page[0]);	/* map it in: time the protection fault only */
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = prot_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL) < 0 || sigaction(SIGBUS, &sa, NULL) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "sigaction: %s", strerror(errno));
		goto fail;
	}
	/* One op(n) call is one write that faults n times: there is no loop
	 * whose cost the harness should take off. */
	ctx->no_loop_overhead = 1;
	*state = s;
	return 0;
fail:
	prot_teardown(s);
	return -1;
}

static int prot_op(void *state, uint64_t n)
{
	struct prot_state *s = state;

	if (n == 0)
		return 0;
	if (mprotect((void *)prot_page, prot_len, PROT_READ) < 0)
		return -1;
	prot_faults = 0;
	prot_target = n;
	prot_page[0] = (char)n;	/* faults n times, then succeeds */
	if (prot_faults != n) {
		snprintf(s->ctx->reason, sizeof(s->ctx->reason),
			 "expected %llu protection faults, caught %llu", (unsigned long long)n,
			 (unsigned long long)prot_faults);
		errno = EPROTO;
		return -1;
	}
	return 0;
}

const struct bench bench_proc_signal_prot = {
	.id = "proc.signal.prot", .group = "proc", .title = "Protection fault",
	.noise = NOISE_SYSCALL,
	.unit = "us", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.setup = prot_setup, .op = prot_op, .teardown = prot_teardown,
};
