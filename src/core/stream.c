/* stream.c — run --json-stream: the NDJSON interval stream (stream.h).
 *
 * The benchmarks run in processes of their own, so what the stream has
 * met (lines written and lost, the reader gone) lives in one shared page
 * (a file of the scratch directory, mapped and unlinked), and the run's own
 * process says it once at the end. A line is written
 * only when poll() says the file takes it at once: a pipe with room for a
 * line (PIPE_BUF) takes it whole, without waiting; one without room loses
 * it. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "buf.h"
#include "json.h"
#include "scratch.h"
#include "stream.h"

struct shared {
	unsigned long lines, lost;
	int gone, err;
};
static int fd = -1, own;
static struct shared *sh;
static char name[256];

int stream_open(const char *path, char *err, size_t errlen)
{
	struct stat st;
	char tmp[4096];
	int sfd;

	snprintf(name, sizeof(name), "%s", path);
	if (strcmp(path, "-") == 0) {
		fd = STDOUT_FILENO;
	} else if (stat(path, &st) == 0) {
		if (!S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode)) {
			snprintf(err, errlen, "--json-stream %s: the file exists (give a new name, a FIFO or -)",
				 path);
			return -1;
		}
		fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0 && errno == ENXIO) {	/* a FIFO without a reader yet: wait for one */
			fd = open(path, O_WRONLY | O_CLOEXEC);
		}
		own = 1;
	} else {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		own = 1;
	}
	if (fd < 0) {
		snprintf(err, errlen, "--json-stream %s: %s", path, strerror(errno));
		return -1;
	}
	/* the shared page: a file in the scratch directory, mapped and
	 * unlinked (MAP_ANONYMOUS is not POSIX.1-2008) */
	sh = MAP_FAILED;
	if (scratch_file(tmp, sizeof(tmp), "stream-state") == 0 &&
	    (sfd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) >= 0) {
		if (ftruncate(sfd, (off_t)sizeof(*sh)) == 0)
			sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED, sfd, 0);
		unlink(tmp);
		close(sfd);
	}
	if (sh == MAP_FAILED) {
		snprintf(err, errlen, "--json-stream: its state in the scratch directory: %s", strerror(errno));
		if (own)
			close(fd);
		fd = -1;
		sh = NULL;
		return -1;
	}
	memset(sh, 0, sizeof(*sh));
	return 0;
}

int stream_on(void)
{
	return fd >= 0 && sh && !sh->gone;
}

static void put(const char *line, size_t n)
{
	struct pollfd p = { fd, POLLOUT, 0 };
	ssize_t w;

	if (poll(&p, 1, 0) < 0 || (p.revents & (POLLERR | POLLHUP | POLLNVAL))) {
		sh->gone = 1;
		return;
	}
	if (!(p.revents & POLLOUT)) {	/* the reader is behind: this line is lost */
		sh->lost++;
		return;
	}
	while ((w = write(fd, line, n)) < 0 && errno == EINTR)
		;
	if (w == (ssize_t)n) {
		sh->lines++;
	} else if (w < 0 && errno == EAGAIN) {
		sh->lost++;
	} else {
		sh->gone = 1;
		sh->err = w < 0 ? errno : EIO;
	}
}

void stream_interval(const struct stream_iv *iv)
{
	struct buf b = { 0 };
	struct jw w;

	if (!stream_on())
		return;
	jw_init(&w, &b);
	w.compact = 1;
	jw_obj_begin(&w, NULL);
	jw_str(&w, "type", "interval");
	jw_str(&w, "bench", iv->bench);
	jw_str(&w, "metric", iv->metric);
	jw_int(&w, "rep", iv->rep);
	jw_num(&w, "t_start_s", iv->t_start);
	jw_num(&w, "t_end_s", iv->t_end);
	jw_num(&w, iv->bandwidth ? "bytes" : "operations", iv->amount);
	jw_num(&w, "value", iv->value);
	jw_str(&w, "unit", iv->unit);
	if (iv->lat_count) {
		jw_obj_begin(&w, "latency_us");
		jw_int(&w, "count", (int64_t)iv->lat_count);
		jw_num(&w, "mean", iv->lat_mean / 1e3);
		jw_num(&w, "p50", iv->lat_p50 / 1e3);
		jw_num(&w, "p99", iv->lat_p99 / 1e3);
		jw_num(&w, "max", iv->lat_max / 1e3);
		jw_obj_end(&w);
	}
	jw_obj_end(&w);
	buf_add(&b, "\n", 1);
	if (!b.oom)
		put(b.p, b.len);
	buf_free(&b);
}

void stream_close(FILE *out)
{
	if (!sh)
		return;
	if (sh->gone)
		fprintf(out, "bakeoff: --json-stream %s stopped after %lu lines: %s; the run went on without it\n",
			name, sh->lines, sh->err ? strerror(sh->err) : "its reader went away");
	else if (sh->lost)
		fprintf(out, "bakeoff: --json-stream %s: %lu of %lu lines lost, its reader was too slow to take "
			"them\n", name, sh->lost, sh->lost + sh->lines);
	if (own && fd >= 0)
		close(fd);
	munmap(sh, sizeof(*sh));
	sh = NULL;
	fd = -1;
}
