/* out.c — standard output that is known to have arrived. Every verb's
 * output is flushed and checked at the end (a full disk, a closed pipe, a
 * file system error on close): a failure is one line on stderr naming it
 * and a non-zero exit, never a silent exit 0 with a truncated table or
 * result. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "out.h"

static int reported;	/* one line per process, however many checks fail */
static int last_errno;	/* of the last out_write that failed */

size_t out_write(const void *p, size_t n, FILE *f)
{
	size_t k = fwrite(p, 1, n, f);

	if (k < n)
		last_errno = errno;
	return k;
}

int out_fd_write(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = write(fd, c, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

int out_check(FILE *f, const char *what)
{
	int e0 = errno, e;

	errno = 0;
	if (fflush(f) == 0 && !ferror(f))
		return 0;
	/* a write that failed before this flush left its errno behind only
	 * when nothing since has set another: taken when it is a write's */
	e = errno ? errno : last_errno ? last_errno :
	    e0 == ENOSPC || e0 == EPIPE || e0 == EIO || e0 == EDQUOT || e0 == EFBIG ? e0 : 0;
	if (!reported)
		fprintf(stderr, "bakeoff: cannot write %s to standard output: %s\n", what,
			e ? strerror(e) : "write error");
	reported = 1;
	return -1;
}

int out_finish(int rc)
{
	int bad = out_check(stdout, "the output") < 0;

	if (fclose(stdout) != 0 && !bad) {
		fprintf(stderr, "bakeoff: cannot write the output to standard output: %s\n",
			strerror(errno));
		bad = 1;
	}
	return bad && rc == 0 ? OUT_EXIT_WRITE : rc;
}
