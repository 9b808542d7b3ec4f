/* t-scratch.c — scratch directories: named bakeoff.PID.XXXXXX with a
 * locked marker, removed with everything in them, and scratch_reap_stale()
 * removing exactly the directories of dead runs (a real SIGKILLed one,
 * fakes, a reused pid told apart by its start time) and leaving alone
 * lookalikes without the marker, live runs, markers locked by a live
 * process, symlinks and its own directory. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"
#include "scratch.h"

static char parent[256];

static int exists(const char *name)
{
	char p[512];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", parent, name);
	return lstat(p, &st) == 0;
}

/* A fake scratch directory: name, and a marker with text (NULL: none). */
static void fake(const char *name, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", parent, name);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/%s/big.dat", parent, name);
	if ((f = fopen(p, "w"))) {
		fputs("scratch data", f);
		fclose(f);
	}
	if (!text)
		return;
	snprintf(p, sizeof(p), "%s/%s/.bakeoff-scratch", parent, name);
	if ((f = fopen(p, "w"))) {
		fputs(text, f);
		fclose(f);
	}
}

static pid_t dead_pid(void)
{
	pid_t p = fork();

	if (p == 0)
		_exit(0);
	waitpid(p, NULL, 0);
	return p;
}

/* Call scratch_reap_stale with stderr captured into out. */
static int reap(char *out, size_t n)
{
	char log[512];
	int fd, saved, rc;
	ssize_t len;

	snprintf(log, sizeof(log), "%s.log", parent);
	fflush(stderr);
	saved = dup(2);
	fd = open(log, O_RDWR | O_CREAT | O_TRUNC, 0600);
	dup2(fd, 2);
	rc = scratch_reap_stale(parent);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	lseek(fd, 0, SEEK_SET);
	len = read(fd, out, n - 1);
	out[len > 0 ? len : 0] = 0;
	close(fd);
	unlink(log);
	return rc;
}

int main(void)
{
	char name[64], text[600], msg[2048], want[700], base[64], target[600];
	const char *own;
	int pfd[2], rc;
	pid_t child, dead = dead_pid();
	ssize_t len;

	snprintf(parent, sizeof(parent), "%s/t-scratch.XXXXXX",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(parent))
		return 1;

	/* A real run killed with SIGKILL: its directory survives it. */
	if (pipe(pfd) < 0)
		return 1;
	child = fork();
	if (child == 0) {
		const char *d = scratch_create(parent);

		if (write(pfd[1], d ? d : "", d ? strlen(d) : 0) < 0)
			_exit(1);
		close(pfd[1]);
		pause();
		_exit(0);
	}
	close(pfd[1]);
	len = read(pfd[0], msg, sizeof(msg) - 1);
	close(pfd[0]);
	msg[len > 0 ? len : 0] = 0;
	snprintf(want, sizeof(want), "%s/bakeoff.%ld.", parent, (long)child);
	ok(strncmp(msg, want, strlen(want)) == 0 && strlen(msg) == strlen(want) + 6,
	   "scratch_create names it bakeoff.PID.XXXXXX: %s", msg);
	snprintf(base, sizeof(base), "%s", msg + strlen(parent) + 1);
	snprintf(text, sizeof(text), "%s/.bakeoff-scratch", base);
	ok(exists(text), "with a marker inside");
	rc = reap(msg, sizeof(msg));
	ok(rc == 0 && exists(base), "a live run's directory is kept");
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	ok(exists(base), "SIGKILL leaves the directory behind");

	/* Fakes beside it. */
	snprintf(name, sizeof(name), "bakeoff.%ld.stale1", (long)dead);
	snprintf(text, sizeof(text), "bakeoff-scratch 1\npid %ld\nstart 12345\n", (long)dead);
	fake(name, text);
	snprintf(name, sizeof(name), "bakeoff.%ld.nomark", (long)dead);
	fake(name, NULL);
	snprintf(name, sizeof(name), "bakeoff.%ld.other1", (long)dead);
	snprintf(text, sizeof(text), "bakeoff-scratch 1\npid %ld\nstart 1\n", (long)dead + 1);
	fake(name, text);
	snprintf(name, sizeof(name), "bakeoff.%ld.badmrk", (long)dead);
	fake(name, "not bakeoff's\n");
	snprintf(name, sizeof(name), "bakeoff.%ld.alive1", (long)getppid());
	snprintf(text, sizeof(text), "bakeoff-scratch 1\npid %ld\nstart unknown\n", (long)getppid());
	fake(name, text);
	fake("bakeoff.AbC123", NULL);	/* the old naming */
	fake("bakeoffx.1.abcdef", "bakeoff-scratch 1\npid 1\nstart 1\n");
	snprintf(target, sizeof(target), "%s/bakeoff.%ld.stale1", parent, (long)dead);
	snprintf(text, sizeof(text), "%s/bakeoff.%ld.link01", parent, (long)dead);
	ok(symlink(target, text) == 0, "a symlink to a stale directory");
	own = scratch_create(parent);
	ok(own != NULL, "this process's own scratch directory");

	rc = reap(msg, sizeof(msg));
	is_int(rc, 2, "two stale directories removed");
	ok(!exists(base), "the SIGKILLed run's directory is gone");
	snprintf(want, sizeof(want), "bakeoff: removed stale scratch directory %s/%s left by process %ld\n",
		 parent, base, (long)child);
	ok(strstr(msg, want) != NULL, "and that is said on stderr");
	snprintf(name, sizeof(name), "bakeoff.%ld.stale1", (long)dead);
	ok(!exists(name), "a dead pid's marked directory is gone");
	snprintf(want, sizeof(want), "removed stale scratch directory %s/%s left by process %ld\n",
		 parent, name, (long)dead);
	ok(strstr(msg, want) != NULL, "said too");
	snprintf(name, sizeof(name), "bakeoff.%ld.nomark", (long)dead);
	ok(exists(name), "a lookalike without the marker is kept");
	snprintf(name, sizeof(name), "bakeoff.%ld.other1", (long)dead);
	ok(exists(name), "a marker naming another pid is kept");
	snprintf(name, sizeof(name), "bakeoff.%ld.badmrk", (long)dead);
	ok(exists(name), "a file that is not bakeoff's marker is kept");
	snprintf(name, sizeof(name), "bakeoff.%ld.alive1", (long)getppid());
	ok(exists(name), "a live pid's directory is kept");
	ok(exists("bakeoff.AbC123") && exists("bakeoffx.1.abcdef"), "other names are kept");
	snprintf(name, sizeof(name), "bakeoff.%ld.link01", (long)dead);
	ok(exists(name), "a symlink is not followed or removed");
	ok(own && access(own, F_OK) == 0, "its own directory is kept");

	/* A pid now used by another process: the start time tells them apart. */
	if (access("/proc/self/stat", R_OK) == 0) {
		snprintf(name, sizeof(name), "bakeoff.%ld.reuse1", (long)getppid());
		snprintf(text, sizeof(text), "bakeoff-scratch 1\npid %ld\nstart 1\n", (long)getppid());
		fake(name, text);
		rc = reap(msg, sizeof(msg));
		ok(rc == 1 && !exists(name), "a reused pid (other start time) does not keep it");
	} else {
		printf("ok %d # SKIP no /proc/PID/stat start times\n", ++tap_n);
	}

	/* A dead pid whose marker a live process has locked (a run in another
	 * pid namespace sharing this directory): kept. */
	snprintf(name, sizeof(name), "bakeoff.%ld.locked", (long)dead);
	snprintf(text, sizeof(text), "bakeoff-scratch 1\npid %ld\nstart 1\n", (long)dead);
	fake(name, text);
	if (pipe(pfd) < 0)
		return 1;
	child = fork();
	if (child == 0) {
		struct flock lk = { 0 };
		char m[512];
		int fd;

		snprintf(m, sizeof(m), "%s/%s/.bakeoff-scratch", parent, name);
		fd = open(m, O_RDWR);
		lk.l_type = F_WRLCK;
		lk.l_whence = SEEK_SET;
		if (fd < 0 || fcntl(fd, F_SETLK, &lk) < 0 || write(pfd[1], "L", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(pfd[1]);
	len = read(pfd[0], msg, 1);
	close(pfd[0]);
	rc = reap(msg, sizeof(msg));
	ok(len == 1 && rc == 0 && exists(name), "a marker locked by a live process is kept");
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);

	scratch_remove();
	ok(own && access(own, F_OK) < 0, "scratch_remove removes its directory and marker");
	snprintf(msg, sizeof(msg), "rm -rf '%s'", parent);
	if (system(msg) != 0)
		diag("could not clean %s", parent);
	return done_testing();
}
