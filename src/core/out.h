/* out.h — checking what was written to standard output (out.c). */
#ifndef BAKEOFF_OUT_H
#define BAKEOFF_OUT_H
#include <stdio.h>

#define OUT_EXIT_WRITE 1	/* the exit status when the output did not arrive */

/* fwrite that remembers why it failed, for out_check's message. */
size_t out_write(const void *p, size_t n, FILE *f);
/* write(2) all n bytes of p to fd, again after EINTR: 0, or -1 (errno). */
int out_fd_write(int fd, const void *p, size_t n);
/* Flush f and check it for errors: 0, or -1 after one line on stderr
 * ("bakeoff: cannot write WHAT to standard output: No space left on
 * device"; only the first failure of the process is printed). */
int out_check(FILE *f, const char *what);
/* At the end of main: stdout checked and closed; rc, or OUT_EXIT_WRITE
 * when it was 0 and the output failed. */
int out_finish(int rc);

#endif
