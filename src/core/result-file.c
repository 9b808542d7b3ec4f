/* result-file.c — result files on disk: loading one (a result file or a
 * --json-stream file, refusing what is not a regular file or is too
 * large), saving one atomically and never over an existing file (temp
 * file in the target directory, then link(2)), claiming the output name
 * before a run starts, and delivering the finished result. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "out.h"
#include "result.h"
#include "scratch.h"
#include "stream.h"

/* Read fd to its end into b, refusing more than RESULT_MAX_BYTES and
 * stopping at the first allocation failure (errno EFBIG or ENOMEM). */
static int read_all(int fd, struct buf *b)
{
	char chunk[65536];
	ssize_t n;

	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if ((size_t)n > RESULT_MAX_BYTES - b->len) {
			errno = EFBIG;
			return -1;
		}
		buf_add(b, chunk, (size_t)n);
		if (b->oom) {
			errno = ENOMEM;
			return -1;
		}
	}
	return 0;
}

static const char *file_kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : S_ISFIFO(m) ? "a FIFO" :
	       S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* Open path for reading ("-": standard input) without blocking on a FIFO
 * that has no writer: O_NONBLOCK for the open, fstat, then refuse anything
 * but a regular file and clear O_NONBLOCK. Returns the fd, or -1 with the
 * message in err. */
static int open_result(const char *path, const char *name, char *err, size_t errlen)
{
	struct stat st;
	int fd, fl;

	if (strcmp(path, "-") == 0)
		return STDIN_FILENO;	/* a pipe, as `run -o -` makes; size capped */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: is %s, not a result file (give a regular file, or - "
			 "for standard input)", name, file_kind(st.st_mode));
		goto fail;
	}
	if ((uintmax_t)st.st_size > RESULT_MAX_BYTES) {
		snprintf(err, errlen, "%s: %jd bytes, more than the %zu MiB a result file can have",
			 name, (intmax_t)st.st_size, RESULT_MAX_BYTES >> 20);
		goto fail;
	}
	if ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		goto fail;
	}
	return fd;
fail:
	if (fd >= 0)
		close(fd);
	return -1;
}

static int load(const char *path, struct result *r, char *err, size_t errlen, int lean)
{
	const char *name = strcmp(path, "-") == 0 ? "standard input" : path;
	struct buf b = { 0 };
	char msg[256];
	size_t off = 0;
	int fd, rc;

	memset(r, 0, sizeof(*r));
	if ((fd = open_result(path, name, err, errlen)) < 0)
		return -1;
	if (read_all(fd, &b) < 0) {
		if (errno == EFBIG)
			snprintf(err, errlen, "%s: more than the %zu MiB a result file can have",
				 name, RESULT_MAX_BYTES >> 20);
		else if (errno == ENOMEM)
			snprintf(err, errlen, "%s: out of memory after %zu bytes", name, b.len);
		else
			snprintf(err, errlen, "%s: %s", name, strerror(errno));
		rc = -1;
	} else {
		const char *text = b.p ? b.p : "";

		rc = stream_is(text, b.len) ? stream_read(text, b.len, r, &off, msg, sizeof(msg))
		     : lean ? result_from_json_lean(text, b.len, r, &off, msg, sizeof(msg))
			    : result_from_json(text, b.len, r, &off, msg, sizeof(msg));
		if (rc < 0)
			snprintf(err, errlen, "%s: byte %zu: %s", name, off, msg);
	}
	if (fd != STDIN_FILENO)
		close(fd);
	buf_free(&b);
	return rc;
}

int result_load(const char *path, struct result *r, char *err, size_t errlen)
{
	return load(path, r, err, errlen, 0);
}

int result_load_lean(const char *path, struct result *r, char *err, size_t errlen)
{
	return load(path, r, err, errlen, 1);
}

int result_save(const struct result *r, const char *path, char *err, size_t errlen)
{
	struct buf b = { 0 };
	int rc;

	result_to_json(r, &b);
	rc = result_save_text(&b, path, err, errlen);
	buf_free(&b);
	return rc;
}

int result_save_text(const struct buf *json, const char *path, char *err, size_t errlen)
{
	const struct buf b = *json;
	char tmp[4096];
	int fd = -1, rc = -1;

	if (b.oom || !b.p) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (strcmp(path, "-") == 0) {
		if (out_fd_write(STDOUT_FILENO, b.p, b.len) < 0) {
			snprintf(err, errlen, "stdout: %s", strerror(errno));
			goto out;
		}
		rc = 0;
		goto out;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (out_fd_write(fd, b.p, b.len) < 0 || fsync(fd) < 0 || fchmod(fd, 0644) < 0) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		unlink(tmp);
		goto out;
	}
	/* link() fails with EEXIST instead of replacing, unlike rename(). */
	if (link(tmp, path) < 0) {
		snprintf(err, errlen, "%s: %s", path,
			 errno == EEXIST ? "exists; bakeoff never overwrites a result file" : strerror(errno));
		unlink(tmp);
		goto out;
	}
	unlink(tmp);
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	return rc;
}

/* Why path cannot be claimed (e: open's errno), in words that name what
 * the path is: a directory, a device, a FIFO are not "existing results". */
static void claim_error(const char *path, int e, char *err, size_t errlen)
{
	struct stat st;

	if (e == EEXIST && lstat(path, &st) == 0) {
		const char *what = S_ISDIR(st.st_mode) ? "is a directory: -o takes a file name (DIR/NAME.json)"
				   : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ?
				   "is a device, not a file: bakeoff writes a new result file "
				   "(-o - writes it to standard output)"
				   : S_ISFIFO(st.st_mode) ? "is a FIFO: -o - writes the result to standard "
							   "output, which may be redirected to it"
				   : S_ISSOCK(st.st_mode) ? "is a socket, not a file"
				   : S_ISLNK(st.st_mode) ? "is a symbolic link; bakeoff never writes through "
							  "one to an existing file (choose another -o FILE)"
				   : "exists; bakeoff never overwrites a result file (choose another -o FILE)";

		snprintf(err, errlen, "%s %s", path, what);
		return;
	}
	snprintf(err, errlen, "%s: %s", path, strerror(e));
}

int result_claim(char *path, size_t n, int numbered, char *err, size_t errlen)
{
	char base[4096];
	size_t l;
	int k, fd;

	snprintf(base, sizeof(base), "%s", path);
	l = strlen(base);
	if (l > 5 && strcmp(base + l - 5, ".json") == 0)
		base[l - 5] = 0;
	for (k = 1; k < 1000; k++) {
		if (k > 1 && (size_t)snprintf(path, n, "%s-%d.json", base, k) >= n)
			break;
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd >= 0) {
			close(fd);
			return 0;
		}
		if (errno != EEXIST || !numbered) {
			claim_error(path, errno, err, errlen);
			return -1;
		}
	}
	snprintf(err, errlen, "%s: no free name", path);
	return -1;
}

void result_utc_now(char *dst, size_t n, const char *fmt)
{
	result_utc_format(time(NULL), dst, n, fmt);
}

void result_utc_format(time_t t, char *dst, size_t n, const char *fmt)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(dst, n, fmt, &tm);
}

static int made_results;	/* result_claim_output made results/ */

int result_claim_output(const char *output, const char *hostname, const char *suffix, time_t when,
			char *path, size_t n, char *err, size_t errlen)
{
	char host[256], stamp[32];
	size_t i;

	if (output) {
		snprintf(path, n, "%s", output);
	} else {
		snprintf(host, sizeof(host), "%s", hostname && hostname[0] ? hostname : "host");
		for (i = 0; host[i]; i++)
			if (host[i] == '/' || host[i] == ' ' || (unsigned char)host[i] < 0x20)
				host[i] = '_';
		if (mkdir("results", 0755) == 0) {
			made_results = 1;
		} else if (errno != EEXIST) {
			snprintf(err, errlen, "cannot create results/ in the current directory: %s "
				 "(use -o FILE)", strerror(errno));
			return -1;
		}
		result_utc_format(when, stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ");
		snprintf(path, n, "results/%s-%s%s.json", host, stamp, suffix ? suffix : "");
	}
	if (result_claim(path, n, !output, err, errlen) < 0) {
		char why[600];

		snprintf(why, sizeof(why), "cannot write the result: %s", err);
		snprintf(err, errlen, "%s", why);
		result_unclaim(NULL);
		return -1;
	}
	return 0;
}

void result_unclaim(const char *path)
{
	if (path)
		unlink(path);
	if (made_results)	/* only when empty: never another run's results */
		rmdir("results");
	made_results = 0;
}

int result_update(const struct buf *json, const char *path, char *err, size_t errlen)
{
	char tmp[4200];
	int fd;

	if (json->oom || !json->p) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path) >= sizeof(tmp)) {
		snprintf(err, errlen, "%s: name too long", path);
		return -1;
	}
	if ((fd = mkstemp(tmp)) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (out_fd_write(fd, json->p, json->len) < 0 || (!scratch_interrupted() && fsync(fd) < 0) ||
	    fchmod(fd, 0644) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		unlink(tmp);
		return -1;
	}
	if (close(fd) < 0 || rename(tmp, path) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int result_deliver(struct result *r, const struct buf *json, const char *path, const char *suffix,
		   const char *also)
{
	char err[600], alt[4096];
	int table;

	r->incomplete = 0;
	if (!path) {
		out_write(json->p, json->len, stdout);
		if (out_check(stdout, "the result") == 0)
			return 0;
		if (result_claim_output(NULL, r->host.hostname, suffix, time(NULL), alt, sizeof(alt), err,
					sizeof(err)) == 0 &&
		    result_update(json, alt, err, sizeof(err)) == 0)
			fprintf(stderr, "bakeoff: the result is saved to %s instead\n", alt);
		else
			fprintf(stderr, "bakeoff: the result is lost: %s\n", err);
		return -1;
	}
	/* the table out whole first: a line on stderr must not land in it
	 * (2>&1 into one file) */
	table = out_check(stdout, "the table");
	if (result_update(json, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "bakeoff: cannot save the result (%s); here it is on stdout\n", err);
		out_write(json->p, json->len, stdout);
		out_check(stdout, "the result");
		return -1;
	}
	fprintf(stderr, "bakeoff: result saved to %s%s%s\n", path,
		r->interrupted ? " (interrupted: finished benchmarks only)" : "", also ? also : "");
	return table;
}
