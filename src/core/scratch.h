/* scratch.h — the run's scratch directory and SIGINT/SIGTERM handling. */
#ifndef BAKEOFF_SCRATCH_H
#define BAKEOFF_SCRATCH_H
#include <signal.h>
#include <stddef.h>

/* Create a fresh directory "bakeoff.PID.XXXXXX" under parent (or $TMPDIR,
 * /tmp) holding the marker ".bakeoff-scratch" (pid, process start time),
 * write-locked while this process lives. Returns its path, or NULL with
 * errno set. */
/* The directory a scratch directory goes under: parent, else $TMPDIR,
 * else /tmp (for messages and the free-space checks). */
const char *scratch_parent(const char *parent);
const char *scratch_create(const char *parent);
/* Remove the scratch directories under parent (NULL: $TMPDIR or /tmp, as
 * scratch_create) that runs killed before they could clean up left behind:
 * owned by this user, named bakeoff.PID.XXXXXX, holding a marker of the same
 * pid that no live process has locked, whose process is gone or whose pid
 * now belongs to a process started at another time. Says so on stderr for
 * each one. Never touches this process's own directory. Call it before
 * scratch_create(). Returns how many were removed. */
int scratch_reap_stale(const char *parent);
/* ---- more scratch directories (disk: one under each --dir entry) ---- */
#define SCRATCH_MAX_EXTRA 8
/* After scratch_create(): make another fresh "bakeoff.PID.XXXXXX" under
 * parent, marked and locked like the first (so a killed run's is reaped),
 * removed with everything in it by scratch_remove(), and emptied of its
 * marker and removed if empty by a second signal. Returns its path, or
 * NULL with errno set (ENOENT: no scratch_create yet; EMFILE: more than
 * SCRATCH_MAX_EXTRA). */
const char *scratch_add(const char *parent);
/* scratch_file() for a file in d, the path of one of the scratch
 * directories (scratch_path() or one from scratch_add()). */
int scratch_file_in(char *out, size_t n, const char *d, const char *name);
/* ---- end ---- */
/* Remove the scratch directory (and those of scratch_add) and everything
 * in them (idempotent). */
void scratch_remove(void);
const char *scratch_path(void);
/* The path of file `name` in the scratch directory, into out. Every file a
 * benchmark creates must be named through this (so a second signal can
 * remove it). Returns 0, or -1 (no scratch dir, name too long). */
int scratch_file(char *out, size_t n, const char *name);
/* Install SIGINT/SIGTERM handlers (no SA_RESTART, so blocked calls return
 * EINTR). The first signal sets the flag; a second one removes what it
 * safely can and exits. */
void scratch_signals(void);
/* Restore default dispositions (for forked children). */
void scratch_signals_default(void);
int scratch_interrupted(void);
/* A shared mapping of bytes (zero-filled) that children forked later
 * share: a scratch file `name`, mapped and unlinked at once (MAP_ANONYMOUS
 * is not POSIX.1-2008). NULL with errno set. munmap() it when done. */
void *scratch_shared(const char *name, size_t bytes);
/* The length of the next slice of a long loop over bytes, from off: at most
 * slice; 0 (errno EINTR) once a signal asked the run to stop. */
size_t scratch_slice(size_t off, size_t bytes, size_t slice);

#endif
