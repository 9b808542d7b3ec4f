/* faultinj.c — an LD_PRELOAD shim that makes chosen read(), write() and
 * fork() calls (and pread(), pwrite(), and io_uring's system calls made
 * through syscall()) fail or fall short, to check that a benchmark meeting a full
 * disk, an I/O error, a short transfer, a refused fork or an interrupted
 * call ends cleanly (tests/e2e/faults.t). Built by the tests:
 *     cc -fPIC -shared -o faultinj.so tests/faults/faultinj.c -ldl
 *
 * Environment:
 *   FAULT=CALL:N:WHAT[,CALL:N:WHAT...]
 *       CALL  read, write, pread, pwrite, fork, io_uring_setup or
 *             io_uring_enter (the last two are never short)
 *       N     the Nth eligible call of that kind in this process (1-based);
 *             "N+" means the Nth and every later one (a disk that stays full)
 *       WHAT  an errno name (ENOSPC, EIO, EAGAIN, EINTR, ENOMEM, EPIPE, EPERM,
 *             ENOSYS): the
 *             call is not made and returns -1 with that errno; or "short":
 *             the call is made for half the bytes (at least 1), so it
 *             returns less than asked
 *   FAULT_PATH=SUBSTRING
 *       Which reads and writes are eligible (counted): only those on a file
 *       descriptor whose /proc/self/fd link contains SUBSTRING, e.g. the
 *       scratch parent "$TMP/s/bakeoff." (files the benchmark makes) or
 *       "pipe:" (pipes). This is what keeps the fault on the benchmark and
 *       off the result file, the table on stdout and sysinfo's reads of
 *       /proc: they are never counted. Unset: every fd is eligible.
 *       Forks and io_uring calls are always eligible.
 *   FAULT_LOG=1
 *       Print every eligible call with its number on stderr (to choose N).
 *   FAULT_ZEROS=1
 *       Print a line on stderr for every eligible write() or pwrite() whose
 *       buffer holds a 512-byte sector of zeros (a benchmark's data must be
 *       incompressible: a zero block is one that compressing or thin storage
 *       need never write). io_uring's writes are not seen.
 *
 * Counters live in each process: a forked child starts from its parent's
 * counts and goes on alone, so "write:3:EIO" can hit the 3rd write of the
 * parent and of a child. Linux (/proc/self/fd) for FAULT_PATH; elsewhere
 * set no FAULT_PATH. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum call { C_READ, C_WRITE, C_PREAD, C_PWRITE, C_FORK, C_URING_SETUP, C_URING_ENTER, C_N };
static const char *const call_name[C_N] = { "read", "write", "pread", "pwrite", "fork", "io_uring_setup",
					    "io_uring_enter" };

#define MAX_RULES 8
static struct rule {
	enum call call;
	unsigned long n;
	int from_on;		/* "N+" */
	int err;		/* errno to fail with, or 0 for short */
} rules[MAX_RULES];
static int nrules = -1;		/* -1: FAULT not parsed yet */
static unsigned long count[C_N];
static const char *path_filter;
static int log_calls, log_zeros;

static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_write)(int, const void *, size_t);
static pid_t (*real_fork)(void);
static ssize_t (*real_pread)(int, void *, size_t, off_t);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static long (*real_syscall)(long, ...);

static int errno_by_name(const char *s)
{
	static const struct { const char *name; int err; } names[] = {
		{ "ENOSPC", ENOSPC }, { "EIO", EIO }, { "EAGAIN", EAGAIN }, { "EINTR", EINTR },
		{ "ENOMEM", ENOMEM }, { "EPIPE", EPIPE }, { "EDQUOT", EDQUOT }, { "EPERM", EPERM },
		{ "ENOSYS", ENOSYS }, { "short", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i].name) == 0)
			return names[i].err;
	return -1;
}

static void say(const char *msg)
{
	if (real_write)
		(void)!real_write(2, msg, strlen(msg));
}

/* Parse FAULT once; a bad spec is said on stderr and ignored. */
static void init(void)
{
	char spec[512], *tok, *save = NULL;
	const char *env;

	if (nrules >= 0)
		return;
	real_read = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	real_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	real_fork = (pid_t (*)(void))dlsym(RTLD_NEXT, "fork");
	real_pread = (ssize_t (*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread");
	real_pwrite = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
	real_syscall = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	nrules = 0;
	path_filter = getenv("FAULT_PATH");
	if (path_filter && !*path_filter)
		path_filter = NULL;
	log_calls = getenv("FAULT_LOG") && *getenv("FAULT_LOG") == '1';
	log_zeros = getenv("FAULT_ZEROS") && *getenv("FAULT_ZEROS") == '1';
	env = getenv("FAULT");
	if (!env || strlen(env) >= sizeof(spec))
		return;
	strcpy(spec, env);
	for (tok = strtok_r(spec, ",", &save); tok && nrules < MAX_RULES;
	     tok = strtok_r(NULL, ",", &save)) {
		char *c = tok, *n = strchr(c, ':'), *w = n ? strchr(n + 1, ':') : NULL, *end;
		struct rule r = { 0 };
		int k;

		if (!n || !w)
			goto bad;
		*n++ = 0;
		*w++ = 0;
		for (k = 0; k < C_N && strcmp(c, call_name[k]); k++)
			;
		r.call = (enum call)k;
		r.n = strtoul(n, &end, 10);
		r.from_on = *end == '+';
		r.err = errno_by_name(w);
		if (k == C_N || r.n == 0 || end == n || end[r.from_on] || r.err < 0 ||
		    (r.err == 0 && (r.call == C_FORK || r.call >= C_URING_SETUP)))
			goto bad;
		rules[nrules++] = r;
		continue;
bad:
		say("faultinj: bad FAULT entry ignored (want CALL:N[+]:ERRNO|short)\n");
	}
}

/* Whether fd is one the faults are meant for. */
static int eligible(int fd)
{
	char link[64], target[4096];
	ssize_t len;

	if (!path_filter)
		return 1;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, target, sizeof(target) - 1);
	if (len < 0)
		return 0;
	target[len] = 0;
	return strstr(target, path_filter) != NULL;
}

/* FAULT_ZEROS: say so if the buffer of the write just counted holds a
 * 512-byte sector of zeros. */
static void zero_check(enum call c, int fd, const void *buf, size_t n)
{
	const unsigned char *p = buf;
	size_t off, i;

	for (off = 0; off + 512 <= n; off += 512) {
		for (i = 0; i < 512 && !p[off + i]; i++)
			;
		if (i == 512) {
			char msg[128];

			snprintf(msg, sizeof(msg), "faultinj: pid %ld %s #%lu fd %d: zero sector at +%zu of %zu bytes\n",
				 (long)getpid(), call_name[c], count[c], fd, off, n);
			say(msg);
			return;
		}
	}
}

/* Count this call; the rule that applies to it, or NULL. wbuf and n: a
 * write's data, for FAULT_ZEROS (NULL for other calls). */
static const struct rule *hit(enum call c, int fd, const void *wbuf, size_t n)
{
	unsigned long k;
	int i;

	init();
	if (fd >= 0 && !eligible(fd))
		return NULL;
	k = ++count[c];
	if (log_zeros && wbuf)
		zero_check(c, fd, wbuf, n);
	if (log_calls) {
		char msg[96];

		snprintf(msg, sizeof(msg), "faultinj: pid %ld %s #%lu fd %d\n", (long)getpid(),
			 call_name[c], k, fd);
		say(msg);
	}
	for (i = 0; i < nrules; i++)
		if (rules[i].call == c && (k == rules[i].n || (rules[i].from_on && k > rules[i].n)))
			return &rules[i];
	return NULL;
}

ssize_t read(int fd, void *buf, size_t n)
{
	const struct rule *r = hit(C_READ, fd, NULL, 0);

	if (r && r->err) {
		errno = r->err;
		return -1;
	}
	return real_read(fd, buf, r && n > 1 ? n / 2 : n);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	const struct rule *r = hit(C_WRITE, fd, buf, n);

	if (r && r->err) {
		errno = r->err;
		return -1;
	}
	return real_write(fd, buf, r && n > 1 ? n / 2 : n);
}

pid_t fork(void)
{
	const struct rule *r = hit(C_FORK, -1, NULL, 0);

	if (r) {
		errno = r->err;
		return -1;
	}
	return real_fork();
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	const struct rule *r = hit(C_PREAD, fd, NULL, 0);

	if (r && r->err) {
		errno = r->err;
		return -1;
	}
	return real_pread(fd, buf, r && n > 1 ? n / 2 : n, off);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	const struct rule *r = hit(C_PWRITE, fd, buf, n);

	if (r && r->err) {
		errno = r->err;
		return -1;
	}
	return real_pwrite(fd, buf, r && n > 1 ? n / 2 : n, off);
}

#if defined(__linux__) && !defined(__GLIBC__)
#undef pread64	/* musl: no separate 64-bit names; its unistd.h maps them to pread */
#undef pwrite64
#define pread64 faultinj_pread64
#define pwrite64 faultinj_pwrite64
#endif
ssize_t pread64(int fd, void *buf, size_t n, off_t off);
ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off);
ssize_t pread64(int fd, void *buf, size_t n, off_t off)
{
	return pread(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off)
{
	return pwrite(fd, buf, n, off);
}

/* io_uring has no libc wrapper: bakeoff calls it through syscall(). */
long syscall(long number, ...)
{
	long a[6];
	va_list ap;
	int i;

	va_start(ap, number);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	init();
#ifdef SYS_io_uring_setup
	if (number == SYS_io_uring_setup || number == SYS_io_uring_enter) {
		const struct rule *r = hit(number == SYS_io_uring_setup ? C_URING_SETUP : C_URING_ENTER, -1, NULL, 0);

		if (r) {
			errno = r->err;
			return -1;
		}
	}
#endif
	return real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
