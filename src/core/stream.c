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
#include <math.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "buf.h"
#include "json.h"
#include "result.h"
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
	/* the shared page, in the scratch directory */
	if (!(sh = scratch_shared("stream-state", sizeof(*sh)))) {
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

/* ---- reading a stream back (report, compare): a result whose figures
 * are the streamed ones, each interval a sample and a point of its
 * per-interval series ---- */

struct figure_acc {
	char *bench, *metric, *unit;
	double *v, *t, *a, elapsed;
	size_t n, cap;
};

static int acc_add(struct figure_acc *f, double value, double secs, double amount)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 64;
		double *v = realloc(f->v, cap * sizeof(double)), *t, *a;

		if (!v)
			return -1;
		f->v = v;
		if (!(t = realloc(f->t, cap * sizeof(double))))
			return -1;
		f->t = t;
		if (!(a = realloc(f->a, cap * sizeof(double))))
			return -1;
		f->a = a;
		f->cap = cap;
	}
	f->elapsed += secs;
	f->v[f->n] = value;
	f->t[f->n] = f->elapsed;
	f->a[f->n++] = amount;
	return 0;
}

static enum better better_of(const char *unit)
{
	static const char *const times[] = { "s", "ms", "us", "ns" };

	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++)
		if (strcmp(unit, times[i]) == 0)
			return BETTER_LOWER;
	return BETTER_HIGHER;
}

int stream_is(const char *text, size_t len)
{
	static const char head[] = "{\"type\":\"interval\"";

	return len >= sizeof(head) - 1 && memcmp(text, head, sizeof(head) - 1) == 0;
}

int stream_read(const char *text, size_t len, struct result *r, size_t *off, char *err, size_t errlen)
{
	struct figure_acc *fa = NULL;
	size_t nfa = 0, pos = 0, i, k;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	snprintf(r->host.hostname, sizeof(r->host.hostname), "stream");
	snprintf(r->host.os, sizeof(r->host.os), "a --json-stream file");
	snprintf(r->host.cpu_model, sizeof(r->host.cpu_model), "not in the stream");
	r->profile = strdup("stream");
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos, eo;
		struct json *j;
		const char *bench, *metric, *unit;
		double value, t0, t1, amount;

		if (n == 0) {
			pos++;
			continue;
		}
		*off = pos;
		if (!(j = json_parse(text + pos, n, &eo, err, errlen))) {
			*off = pos + eo;
			goto out;
		}
		bench = json_get_str(j, "bench", NULL);
		metric = json_get_str(j, "metric", NULL);
		unit = json_get_str(j, "unit", NULL);
		value = json_get_num(j, "value", NAN);
		t0 = json_get_num(j, "t_start_s", NAN);
		t1 = json_get_num(j, "t_end_s", NAN);
		amount = json_get_num(j, "bytes", json_get_num(j, "operations", NAN));
		if (strcmp(json_get_str(j, "type", ""), "interval") || !bench || !metric || !unit ||
		    !isfinite(value) || !isfinite(t0) || !isfinite(t1) || t1 < t0) {
			snprintf(err, errlen, "not an interval line of a --json-stream file");
			json_free(j);
			goto out;
		}
		for (k = 0; k < nfa && (strcmp(fa[k].bench, bench) || strcmp(fa[k].metric, metric)); k++)
			;
		if (k == nfa) {
			struct figure_acc *g = realloc(fa, (nfa + 1) * sizeof(*fa));

			if (!g)
				goto oom;
			fa = g;
			memset(&fa[nfa], 0, sizeof(*fa));
			fa[nfa].bench = strdup(bench);
			fa[nfa].metric = strdup(metric);
			fa[nfa].unit = strdup(unit);
			nfa++;
			if (!fa[k].bench || !fa[k].metric || !fa[k].unit)
				goto oom;
		}
		json_free(j);
		if (acc_add(&fa[k], value, t1 - t0, amount) < 0)
			goto oom;
		pos += n + 1;
	}
	for (k = 0; k < nfa; k++) {
		struct bench_result *b = (struct bench_result *)result_bench(r, fa[k].bench);
		struct metric *m;

		if (!b && !(b = result_add_bench(r, fa[k].bench, "stream", "")))
			goto oom;
		result_set_status(b, ST_OK, NULL);
		if (!(m = result_add_metric(b, fa[k].metric, fa[k].unit, better_of(fa[k].unit), fa[k].v, fa[k].n)))
			goto oom;
		m->iv_t = fa[k].t;
		m->iv_value = malloc(fa[k].n * sizeof(double));
		m->iv_amount = fa[k].a;
		if (!m->iv_value)
			goto oom;
		memcpy(m->iv_value, fa[k].v, fa[k].n * sizeof(double));
		m->niv = fa[k].n;
		fa[k].t = fa[k].a = NULL;
	}
	if (!nfa) {
		snprintf(err, errlen, "no interval in this --json-stream file");
		goto out;
	}
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
	for (i = 0; i < nfa; i++) {
		free(fa[i].bench);
		free(fa[i].metric);
		free(fa[i].unit);
		free(fa[i].v);
		free(fa[i].t);
		free(fa[i].a);
	}
	free(fa);
	if (rc < 0)
		result_free(r);
	return rc;
}
