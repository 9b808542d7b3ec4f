/* scratch.c — the one directory bakeoff writes benchmark files into, and
 * the signal handling that guarantees it is removed. Benchmarks get file
 * names in it from scratch_file().
 *
 * The first SIGINT/SIGTERM only sets a flag: the harness notices it between
 * samples (blocked calls return EINTR, as handlers are installed without
 * SA_RESTART), the run stops, the scratch directory is removed and the
 * finished benchmarks are saved marked interrupted. A second signal unlinks
 * the files handed out by scratch_file() and the directory, with
 * async-signal-safe calls only, and dies of the signal. */
#include <errno.h>
#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "scratch.h"

static char dir[PATH_MAX];
static volatile sig_atomic_t interrupted;
static pid_t owner;

const char *scratch_create(const char *parent)
{
	if (!parent || !*parent)
		parent = getenv("TMPDIR");
	if (!parent || !*parent)
		parent = "/tmp";
	if ((size_t)snprintf(dir, sizeof(dir), "%s/bakeoff.XXXXXX", parent) >= sizeof(dir)) {
		errno = ENAMETOOLONG;
		dir[0] = 0;
		return NULL;
	}
	if (!mkdtemp(dir)) {
		dir[0] = 0;
		return NULL;
	}
	owner = getpid();
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

void scratch_remove(void)
{
	if (!dir[0] || getpid() != owner)
		return;
	rm_tree(dir);
	dir[0] = 0;
}

/* Paths handed out by scratch_file(), kept in static storage so that a
 * second signal can unlink them with async-signal-safe calls only. */
#define SCRATCH_MAX_FILES 64
static char files[SCRATCH_MAX_FILES][PATH_MAX];
static volatile sig_atomic_t nfiles;

int scratch_file(char *out, size_t n, const char *name)
{
	int i;

	if (!dir[0] || (size_t)snprintf(out, n, "%s/%s", dir, name) >= n) {
		errno = dir[0] ? ENAMETOOLONG : ENOENT;
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

static void on_signal(int sig)
{
	int i;

	if (interrupted && dir[0] && getpid() == owner) {
		for (i = 0; i < nfiles; i++)
			unlink(files[i]);
		rmdir(dir);
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
