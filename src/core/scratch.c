/* scratch.c — the one directory bakeoff writes benchmark files into, and
 * the signal handling that guarantees it is removed. Benchmarks get file
 * names in it from scratch_file().
 *
 * The first SIGINT/SIGTERM only sets a flag: the harness notices it between
 * samples (blocked calls return EINTR, as handlers are installed without
 * SA_RESTART), the run stops, the scratch directory is removed and the
 * finished benchmarks are saved marked interrupted. A second signal unlinks
 * the files handed out by scratch_file() and the directory, with
 * async-signal-safe calls only, and dies of the signal.
 *
 * SIGKILL (or a crash) leaves the directory behind, so the next run reaps
 * it: the directory is named bakeoff.PID.XXXXXX and holds a marker file,
 * .bakeoff-scratch, giving the pid and (where /proc has it) the process's
 * start time, and write-locked with fcntl() for as long as the run lives.
 * A directory is stale only when all of these hold: its name and marker
 * match (same pid), the marker is not locked (a lock is seen across pid
 * namespaces sharing one /tmp, where pids mean nothing), and the pid is
 * gone (kill(pid, 0) fails with ESRCH) or now belongs to a process with
 * another start time (the pid was reused). */
#include <ctype.h>
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "scratch.h"

#define MARKER ".bakeoff-scratch"
#define MARKER_MAGIC "bakeoff-scratch 1"

static char dir[PATH_MAX];
static char marker[PATH_MAX];	/* static: the second signal unlinks it */
static int marker_fd = -1;	/* holds the lock while the run lives */
static volatile sig_atomic_t interrupted;
static pid_t owner;
/* More scratch directories (scratch_add), each like the first. */
static char extra[SCRATCH_MAX_EXTRA][PATH_MAX];
static char extra_marker[SCRATCH_MAX_EXTRA][PATH_MAX];
static int extra_fd[SCRATCH_MAX_EXTRA];
static volatile sig_atomic_t nextra;

const char *scratch_parent(const char *parent)
{
	if (!parent || !*parent)
		parent = getenv("TMPDIR");
	if (!parent || !*parent)
		parent = "/tmp";
	return parent;
}

/* The start time of process pid, as /proc/PID/stat field 22 (clock ticks
 * since boot), into out; "" where there is no such file. */
static void start_time(pid_t pid, char *out, size_t n)
{
	char path[64], line[1024], *p;
	size_t len;
	FILE *f;
	int field;

	out[0] = 0;
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if (!(f = fopen(path, "r")))
		return;
	len = fread(line, 1, sizeof(line) - 1, f);
	fclose(f);
	line[len] = 0;
	if (!(p = strrchr(line, ')')))	/* the command name may hold spaces */
		return;
	for (field = 2; *p && field < 21; p++)
		if (*p == ' ')
			field++;
	/* p is at field 22 */
	for (len = 0; len + 1 < n && isdigit((unsigned char)p[len]); len++)
		out[len] = p[len];
	out[len] = 0;
}

/* Write the marker into the fresh directory d and lock it (the lock is
 * held by *fd for as long as the run lives). */
static int write_marker_in(const char *d, char *mk, size_t mkn, int *fd)
{
	char text[128], st[32];
	struct flock lk;
	int len;

	if ((size_t)snprintf(mk, mkn, "%s/" MARKER, d) >= mkn) {
		errno = ENAMETOOLONG;
		return -1;
	}
	*fd = open(mk, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (*fd < 0)
		return -1;
	memset(&lk, 0, sizeof(lk));
	lk.l_type = F_WRLCK;
	lk.l_whence = SEEK_SET;
	start_time(getpid(), st, sizeof(st));
	len = snprintf(text, sizeof(text), MARKER_MAGIC "\npid %ld\nstart %s\n", (long)getpid(),
		       st[0] ? st : "unknown");
	if (fcntl(*fd, F_SETLK, &lk) < 0 || write(*fd, text, (size_t)len) != len)
		return -1;
	return 0;
}

static int write_marker(void)
{
	return write_marker_in(dir, marker, sizeof(marker), &marker_fd);
}

/* A new directory parent/bakeoff.PID.XXXXXX, its path in d (PATH_MAX
 * bytes; empty on failure): 0, or -1 with errno. */
static int make_dir(char *d, const char *parent)
{
	if ((size_t)snprintf(d, PATH_MAX, "%s/bakeoff.%ld.XXXXXX", parent, (long)getpid()) >= PATH_MAX) {
		d[0] = 0;
		errno = ENAMETOOLONG;
		return -1;
	}
	if (!mkdtemp(d)) {
		d[0] = 0;
		return -1;
	}
	return 0;
}

const char *scratch_create(const char *parent)
{
	int e;

	if (make_dir(dir, scratch_parent(parent)) < 0)
		return NULL;
	owner = getpid();
	if (write_marker() < 0) {
		e = errno;
		scratch_remove();
		errno = e;
		return NULL;
	}
	return dir;
}

const char *scratch_path(void)
{
	return dir[0] ? dir : NULL;
}

/* Remove path and, when it is a directory, everything below it. */
static void rm_tree(const char *path)
{
	struct dirent *e;
	struct stat st;
	char sub[PATH_MAX];
	DIR *d;

	if (lstat(path, &st) < 0)
		return;
	if (S_ISDIR(st.st_mode) && (d = opendir(path))) {
		while ((e = readdir(d))) {
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name) < sizeof(sub))
				rm_tree(sub);
		}
		closedir(d);
	}
	remove(path);
}

const char *scratch_add(const char *parent)
{
	char *d;
	int k = nextra, e;

	if (!dir[0] || k >= SCRATCH_MAX_EXTRA) {
		errno = dir[0] ? EMFILE : ENOENT;
		return NULL;
	}
	d = extra[k];
	if (make_dir(d, parent) < 0)
		return NULL;
	extra_fd[k] = -1;
	nextra = k + 1;
	if (write_marker_in(d, extra_marker[k], PATH_MAX, &extra_fd[k]) < 0) {
		e = errno;
		if (extra_fd[k] >= 0)
			close(extra_fd[k]);
		rm_tree(d);
		d[0] = 0;
		nextra = k;
		errno = e;
		return NULL;
	}
	return d;
}

void scratch_remove(void)
{
	int k;

	if (!dir[0] || getpid() != owner)
		return;
	/* the markers' descriptors first: with every descriptor in use
	 * (ulimit -n), rm_tree's opendir needs one */
	for (k = 0; k < nextra; k++) {
		if (extra_fd[k] >= 0)
			close(extra_fd[k]);
		extra_fd[k] = -1;
		rm_tree(extra[k]);
		extra[k][0] = extra_marker[k][0] = 0;
	}
	nextra = 0;
	if (marker_fd >= 0)
		close(marker_fd);
	marker_fd = -1;
	rm_tree(dir);
	dir[0] = 0;
	marker[0] = 0;
}

/* A marker's pid and start time, or -1 when it is not bakeoff's. */
static long read_marker(const char *path, char *st, size_t n)
{
	char text[256], *p, *e;
	ssize_t len;
	long pid;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -1;
	len = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (len <= 0)
		return -1;
	text[len] = 0;
	if (strncmp(text, MARKER_MAGIC "\npid ", sizeof(MARKER_MAGIC "\npid ") - 1) != 0)
		return -1;
	p = text + sizeof(MARKER_MAGIC "\npid ") - 1;
	pid = strtol(p, &e, 10);
	if (e == p || pid <= 0 || strncmp(e, "\nstart ", 7) != 0)
		return -1;
	p = e + 7;
	for (len = 0; (size_t)len + 1 < n && p[len] && p[len] != '\n'; len++)
		st[len] = p[len];
	st[len] = 0;
	return pid;
}

/* Whether a live process holds the marker's lock (or we cannot tell). */
static int marker_locked(const char *path)
{
	struct flock lk;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), locked;

	if (fd < 0)
		return 1;
	memset(&lk, 0, sizeof(lk));
	lk.l_type = F_WRLCK;
	lk.l_whence = SEEK_SET;
	locked = fcntl(fd, F_GETLK, &lk) < 0 || lk.l_type != F_UNLCK;
	close(fd);
	return locked;
}

/* Whether name is "bakeoff.PID.XXXXXX"; its PID into *pid. */
static int scratch_name(const char *name, long *pid)
{
	const char *p = name + 8, *e;

	if (strncmp(name, "bakeoff.", 8) != 0 || !isdigit((unsigned char)*p))
		return 0;
	for (e = p; isdigit((unsigned char)*e); e++)
		;
	if (*e != '.' || strlen(e + 1) != 6 || e - p > 10)
		return 0;
	*pid = strtol(p, NULL, 10);
	return *pid > 0;
}

int scratch_reap_stale(const char *parent)
{
	char path[PATH_MAX], mpath[PATH_MAX], st[32], now[32];
	struct dirent *e;
	struct stat sb;
	long pid, mpid;
	int n = 0, gone, k;
	DIR *d;

	parent = scratch_parent(parent);
	if (!(d = opendir(parent)))
		return 0;
	while ((e = readdir(d))) {
		if (!scratch_name(e->d_name, &pid) ||
		    (size_t)snprintf(path, sizeof(path), "%s/%s", parent, e->d_name) >= sizeof(path) ||
		    (size_t)snprintf(mpath, sizeof(mpath), "%s/" MARKER, path) >= sizeof(mpath))
			continue;
		if (dir[0] && strcmp(path, dir) == 0)
			continue;	/* our own */
		for (k = 0; k < nextra && strcmp(path, extra[k]) != 0; k++)
			;
		if (k < nextra)
			continue;
		if (lstat(path, &sb) < 0 || !S_ISDIR(sb.st_mode) || sb.st_uid != geteuid())
			continue;
		if (lstat(mpath, &sb) < 0 || !S_ISREG(sb.st_mode) || sb.st_uid != geteuid())
			continue;
		if ((mpid = read_marker(mpath, st, sizeof(st))) != pid || marker_locked(mpath))
			continue;
		gone = kill((pid_t)pid, 0) < 0 && errno == ESRCH;
		if (!gone && strcmp(st, "unknown") != 0) {
			start_time((pid_t)pid, now, sizeof(now));
			gone = now[0] && strcmp(now, st) != 0;	/* the pid was reused */
		}
		if (!gone)
			continue;
		rm_tree(path);
		if (lstat(path, &sb) == 0)
			fprintf(stderr, "bakeoff: cannot remove all of the stale scratch directory %s "
				"left by process %ld\n", path, pid);
		else {
			fprintf(stderr, "bakeoff: removed stale scratch directory %s left by process "
				"%ld\n", path, pid);
			n++;
		}
	}
	closedir(d);
	return n;
}

/* Paths handed out by scratch_file(), kept in static storage so that a
 * second signal can unlink them with async-signal-safe calls only. */
#define SCRATCH_MAX_FILES 64
static char files[SCRATCH_MAX_FILES][PATH_MAX];
static volatile sig_atomic_t nfiles;

int scratch_file_in(char *out, size_t n, const char *d, const char *name)
{
	int i;

	if (!d || !d[0] || (size_t)snprintf(out, n, "%s/%s", d, name) >= n) {
		errno = d && d[0] ? ENAMETOOLONG : ENOENT;
		return -1;
	}
	for (i = 0; i < nfiles; i++)
		if (strcmp(files[i], out) == 0)
			return 0;
	if (nfiles < SCRATCH_MAX_FILES && strlen(out) < PATH_MAX) {
		strcpy(files[nfiles], out);
		nfiles++;
	}
	return 0;
}

int scratch_file(char *out, size_t n, const char *name)
{
	return scratch_file_in(out, n, dir, name);
}

static void on_signal(int sig)
{
	int i;

	if (interrupted && dir[0] && getpid() == owner) {
		for (i = 0; i < nfiles; i++)
			unlink(files[i]);
		unlink(marker);
		rmdir(dir);
		for (i = 0; i < nextra; i++) {
			unlink(extra_marker[i]);
			rmdir(extra[i]);
		}
		signal(sig, SIG_DFL);
		raise(sig);
	}
	interrupted = 1;
}

void scratch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART: blocked reads return EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

void scratch_signals_default(void)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
}

int scratch_interrupted(void)
{
	return interrupted;
}

void *scratch_shared(const char *name, size_t bytes)
{
	char path[PATH_MAX];
	void *p = MAP_FAILED;
	int fd, e;

	if (scratch_file(path, sizeof(path), name) < 0)
		return NULL;
	if ((fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0)
		return NULL;
	if (ftruncate(fd, (off_t)bytes) == 0)
		p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	e = errno;
	unlink(path);
	close(fd);
	errno = e;
	return p == MAP_FAILED ? NULL : p;
}

size_t scratch_slice(size_t off, size_t bytes, size_t slice)
{
	if (interrupted) {
		errno = EINTR;
		return 0;
	}
	return bytes - off < slice ? bytes - off : slice;
}
