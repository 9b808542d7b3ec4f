/* disk-seq.c — sequential write and read, dd-style (disk.seq).
 *
 * For each block size of --block-sizes: "write BS" writes a file from
 * offset 0 in BS-byte write() calls, --size bytes or until --runtime has
 * passed, then fsync()s it, the fsync inside the timing (dd conv=fsync);
 * the untimed prepare truncates the file first, so each repetition
 * allocates its blocks as dd does. "read BS" then reads that file back
 * from offset 0 to its end in BS-byte read() calls, after an untimed
 * fdatasync + POSIX_FADV_DONTNEED. Both use O_DIRECT where the file system
 * takes it (--direct: required; --no-direct: never); "direct" records
 * which. Every call's latency goes to the percentiles. MB/s = 10^6 bytes/s.
 *
 * The ceiling (the 2003 report's "theoretical max": dd if=/dev/zero
 * of=/dev/null) is the same loop reading each block from /dev/zero and
 * writing it to /dev/null: "ceiling BS" (detail); "write BS % of ceiling"
 * and "read BS % of ceiling" are derived from it.
 *
 * --streams N (or a --dir list) adds "write BS, N streams" and "read BS,
 * N streams" at the largest block size: N processes, each with its own
 * file, stream k in the k-th --dir entry (round robin), started together;
 * the figure is the aggregate over the time all of them ran, and each
 * stream's own rate is kept as per_copy.
 *
 * --device DEV reads DEV from offset 0 instead (read-only, O_DIRECT where
 * it can); with --destroy-data it is also written, before it is read. */
#ifdef __linux__
#define _GNU_SOURCE 1	/* O_DIRECT */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "disk.h"
#include "registry.h"
#include "scratch.h"

/* One sequential pass over fd: write or read `limit` bytes (reads also stop
 * at end of file) in bs blocks, stopping early after `runtime` ns; each call
 * reported through rep(). The amount done goes to *done. 0, or -1 with
 * *err and *at (the offset) set, or -2 when rep() said stop. */
typedef int (*report_fn)(void *arg, double amount, uint64_t lat_ns);

static int pass(int fd, int writing, char *buf, uint64_t bs, uint64_t limit, uint64_t runtime,
		int sync, report_fn rep, void *arg, uint64_t *done, int *err, uint64_t *at)
{
	uint64_t off = 0, t0 = disk_now(), t, lat;
	ssize_t r;
	int s;

	*done = 0;
	/* read()/write() from offset 0 (not pread/pwrite): as dd, and as the
	 * fault-injection shim of the tests sees them. */
	if (lseek(fd, 0, SEEK_SET) < 0 && errno != ESPIPE) {
		*err = errno;
		*at = 0;
		return -1;
	}
	while (off < limit) {
		size_t want = limit - off < bs ? (size_t)(limit - off) : (size_t)bs;

		t = disk_now();
		r = writing ? write(fd, buf, want) : read(fd, buf, want);
		lat = disk_now() - t;
		if (r < 0 || (writing && r == 0)) {
			*err = r < 0 ? errno : ENOSPC;
			*at = off;
			*done = off;
			return -1;
		}
		if (r == 0)
			break;	/* end of file */
		off += (uint64_t)r;
		if ((s = rep(arg, (double)r, lat)) != 0) {
			*done = off;
			return s < 0 ? -2 : 0;
		}
		if (runtime && t + lat - t0 >= runtime)
			break;
	}
	*done = off;
	if (writing && sync && fsync(fd) < 0) {
		*err = errno;
		*at = off;
		return -1;
	}
	return 0;
}

struct seq {
	struct bench_ctx *ctx;
	struct disk_file f;	/* the file (or the device) */
	int null_fd, zero_fd;
	char *buf;		/* the data written: incompressible, never a zero block */
	char *cbuf;		/* the ceiling's, which /dev/zero fills with zeros */
	uint64_t bs, size, made, runtime;
	const char *label;	/* the --dir entry or the device, for messages */
	int on_device;
	/* streams */
	int nstreams, writing;
	struct disk_file sf[64];
	uint64_t smade[64];
	struct disk_workers ws;
};

static int rep_long(void *arg, double amount, uint64_t lat)
{
	struct long_run *lr = arg;
	int r;

	long_lat(lr, lat);
	r = long_progress(lr, amount);
	return r < 0 ? -1 : 0;
}

static int fail_pass(struct seq *s, int rc, const char *what, const char *file, int err,
		     uint64_t at)
{
	if (rc == -2)
		return -1;	/* interrupted or timed out: the harness says so */
	return disk_fail(s->ctx, s->label, what, file, (int64_t)at, err);
}

static int prep_write(void *st, struct long_run *lr)
{
	struct seq *s = st;

	(void)lr;
	if (!s->on_device && ftruncate(s->f.fd, 0) < 0)
		return disk_fail(s->ctx, s->label, "truncate", s->f.path, -1, errno);
	return 0;
}

static int op_write(void *st, struct long_run *lr)
{
	struct seq *s = st;
	uint64_t at = 0;
	int err = 0, rc;

	rc = pass(s->f.fd, 1, s->buf, s->bs, s->size, s->runtime, 1, rep_long, lr, &s->made, &err,
		  &at);
	return rc < 0 ? fail_pass(s, rc, "write", s->f.path, err, at) : 0;
}

static int rep_quiet(void *arg, double amount, uint64_t lat)
{
	(void)arg;
	(void)amount;
	(void)lat;
	return 0;
}

static int prep_read(void *st, struct long_run *lr)
{
	struct seq *s = st;
	uint64_t done, at;
	int err;

	(void)lr;
	if (disk_opts(s->ctx->opt)->cache)	/* warm: read it once, untimed */
		return pass(s->f.fd, 0, s->buf, s->bs, s->made, 0, 0, rep_quiet, NULL, &done, &err,
			    &at) < 0 ? -1 : 0;
	disk_evict(s->f.fd);
	return 0;
}

static int op_read(void *st, struct long_run *lr)
{
	struct seq *s = st;
	uint64_t at = 0, done;
	int err = 0, rc;

	rc = pass(s->f.fd, 0, s->buf, s->bs, s->made, s->runtime, 0, rep_long, lr, &done, &err, &at);
	if (rc == 0 && done == 0) {
		snprintf(s->ctx->reason, sizeof(s->ctx->reason), "nothing to read in %.200s",
			 s->label);
		return -1;
	}
	return rc < 0 ? fail_pass(s, rc, "read", s->on_device ? s->label : s->f.path, err, at) : 0;
}

/* The ceiling: dd if=/dev/zero of=/dev/null bs=BS, as in the 2003 report:
 * each block read from /dev/zero, then written to /dev/null, through a
 * buffer of its own (in the writes' buffer the zeros would reach the next
 * block size's file). */
static int op_null(void *st, struct long_run *lr)
{
	struct seq *s = st;
	uint64_t off = 0, t0 = disk_now(), t, lat;
	ssize_t r;

	while (off < s->size) {
		t = disk_now();
		if ((r = read(s->zero_fd, s->cbuf, (size_t)s->bs)) <= 0 ||
		    (r = write(s->null_fd, s->cbuf, (size_t)r)) <= 0)
			return disk_fail(s->ctx, "/dev", "copy", "/dev/zero to /dev/null", (int64_t)off,
					 r < 0 ? errno : EIO);
		lat = disk_now() - t;
		off += (uint64_t)r;
		if (rep_long(lr, (double)r, lat) < 0)
			return -1;
		if (s->runtime && t + lat - t0 >= s->runtime)
			break;
	}
	return 0;
}

/* ---- streams ---- */

static int rep_worker(void *arg, double amount, uint64_t lat)
{
	return disk_worker_report(arg, amount, lat);
}

static int stream_fn(struct disk_worker *w, int k, void *arg)
{
	struct seq *s = arg;
	char *buf = disk_buf((size_t)s->bs), why[300];
	uint64_t at = 0, done;
	int err = 0, rc;

	if (!buf) {
		disk_worker_fail(w, "out of memory");
		return -1;
	}
	rc = pass(s->sf[k].fd, s->writing, buf, s->bs, s->writing ? s->size : s->smade[k],
		  s->runtime, 1, rep_worker, w, &done, &err, &at);
	free(buf);
	if (rc == -1) {
		struct bench_ctx c = *s->ctx;

		disk_fail(&c, disk_parent(s->ctx, k), s->writing ? "write" : "read", s->sf[k].path,
			  (int64_t)at, err);
		snprintf(why, sizeof(why), "stream %d: %s", k + 1, c.reason);
		disk_worker_fail(w, why);
		return -1;
	}
	return 0;
}

static int prep_streams(void *st, struct long_run *lr)
{
	struct seq *s = st;
	int k;

	(void)lr;
	disk_workers_stop(&s->ws);
	for (k = 0; k < s->nstreams; k++) {
		if (s->writing && ftruncate(s->sf[k].fd, 0) < 0)
			return disk_fail(s->ctx, disk_parent(s->ctx, k), "truncate", s->sf[k].path, -1,
					 errno);
		if (!s->writing && !disk_opts(s->ctx->opt)->cache)
			disk_evict(s->sf[k].fd);
	}
	return disk_workers_start(s->ctx, &s->ws, s->nstreams, stream_fn, s);
}

static int op_streams(void *st, struct long_run *lr)
{
	struct seq *s = st;
	int k, rc = disk_workers_run(s->ctx, &s->ws, lr);

	if (rc == 0 && s->writing)
		for (k = 0; k < s->nstreams; k++)
			s->smade[k] = (uint64_t)s->ws.bytes[k];
	return rc;
}

static int run_streams(struct seq *s, double mem)
{
	struct bench_ctx *ctx = s->ctx;
	char name[2][64], bsl[16];
	int k, d, rc = -1;

	disk_bs_label(bsl, sizeof(bsl), s->bs);
	disk_workers_init(&s->ws);
	for (k = 0; k < s->nstreams; k++)
		s->sf[k].fd = -1;
	for (k = 0; k < s->nstreams; k++) {
		char fname[32];

		snprintf(fname, sizeof(fname), "stream.%d", k + 1);
		if (disk_open(ctx, &s->sf[k], k, fname, O_RDWR, disk_want_direct(ctx->opt)) < 0)
			goto out;
	}
	for (d = 1; d >= 0; d--) {
		struct long_op lo = {
			.name = name[d], .unit = "MB/s", .kind = KIND_BANDWIDTH, .better = BETTER_HIGHER,
			.state = s, .prepare = prep_streams, .op = op_streams,
			.total = (double)s->size * s->nstreams,
		};

		snprintf(name[d], sizeof(name[d]), "%s %s, %d streams", d ? "write" : "read", bsl,
			 s->nstreams);
		s->writing = d;
		if (harness_long(ctx, &lo, NULL) < 0)
			goto out;
		disk_workers_record(ctx, &s->ws, name[d], 1e6);
		disk_cache_check(ctx, name[d], !s->sf[0].direct, s->size, mem);
	}
	rc = 0;
out:
	disk_workers_stop(&s->ws);
	for (k = 0; k < s->nstreams; k++)
		if (s->sf[k].fd >= 0 || s->sf[k].path[0])
			disk_close(&s->sf[k]);
	return rc;
}

/* ---- the benchmark ---- */

static void add_ratio(struct bench_ctx *ctx, const char *what, const char *of)
{
	const struct metric *a = result_metric(ctx->res, what), *b = result_metric(ctx->res, of);
	char name[80], from[160];
	double v;

	if (!a || !b || b->st.median <= 0)
		return;
	v = 100 * a->st.median / b->st.median;
	snprintf(name, sizeof(name), "%s %% of ceiling", what);
	snprintf(from, sizeof(from), "%s / %s", what, of);
	result_add_derived(ctx->res, name, "%", BETTER_HIGHER, v, from);
}

static int seq_run(struct bench_ctx *ctx)
{
	const struct bench_opts *o = ctx->opt;
	const struct disk_opts *dk = disk_opts(o);
	struct seq s;
	uint64_t maxbs = 0;
	double mem = disk_mem_ceiling();
	int i, d, rc = -1, want = disk_want_direct(o);

	memset(&s, 0, sizeof(s));
	s.ctx = ctx;
	s.f.fd = s.null_fd = s.zero_fd = -1;
	s.size = dk->size;
	s.runtime = dk->runtime;
	s.on_device = dk->device != NULL;
	s.label = s.on_device ? dk->device : disk_parent(ctx, 0);
	for (i = 0; i < dk->nbs; i++)
		if (dk->bs[i] > maxbs)
			maxbs = dk->bs[i];
	if (!(s.buf = disk_buf((size_t)maxbs)) || !(s.cbuf = disk_buf((size_t)maxbs))) {
		free(s.buf);
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
	s.null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	s.zero_fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	if (s.null_fd < 0 || s.zero_fd < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "cannot open /dev/null and /dev/zero: %s",
			 strerror(errno));
		goto out;
	}
	if (s.on_device) {
		int fl = (dk->destroy ? O_RDWR : O_RDONLY) | O_CLOEXEC;

		snprintf(s.f.path, sizeof(s.f.path), "%s", dk->device);
#ifdef O_DIRECT
		if (want && (s.f.fd = open(dk->device, fl | O_DIRECT)) >= 0)
			s.f.direct = 1;
#endif
		if (s.f.fd < 0 && (want > 0 || (s.f.fd = open(dk->device, fl)) < 0)) {
			disk_fail(ctx, dk->device, "open", dk->device, -1, errno);
			goto out;
		}
		result_param_str(ctx->res, "device_path", dk->device);
		result_param_str(ctx->res, "device_written", dk->destroy ? "yes" : "no");
		s.made = s.size;
		disk_facts(ctx, dk->device);
	} else {
		if (disk_room(ctx, 0, s.size) < 0 ||
		    disk_open(ctx, &s.f, 0, "seq", O_RDWR, want) < 0)
			goto out;
		disk_facts(ctx, disk_dir(ctx, 0));
	}
	result_param_str(ctx->res, "direct", s.f.direct ? "yes" : "no");
	result_param_num(ctx->res, "size_bytes", (double)s.size);
	result_param_num(ctx->res, "runtime_s", (double)s.runtime / 1e9);
	result_param_num(ctx->res, "mem_copy_MBps", mem);
	result_param_str(ctx->res, "dir", s.label);
	for (i = 0; i < dk->nbs; i++) {
		char bsl[16], name[3][64];

		s.bs = dk->bs[i];
		disk_bs_label(bsl, sizeof(bsl), s.bs);
		snprintf(name[0], sizeof(name[0]), "write %s", bsl);
		snprintf(name[1], sizeof(name[1]), "read %s", bsl);
		snprintf(name[2], sizeof(name[2]), "ceiling %s", bsl);
		for (d = 0; d < 2; d++) {
			struct long_op lo = {
				.name = name[d], .unit = "MB/s", .kind = KIND_BANDWIDTH,
				.better = BETTER_HIGHER, .state = &s,
				.prepare = d ? prep_read : prep_write, .op = d ? op_read : op_write,
				.total = (double)s.size,
			};

			if (d == 0 && s.on_device && !dk->destroy)
				continue;	/* read-only */
			if (harness_long(ctx, &lo, NULL) < 0)
				goto out;
			disk_cache_check(ctx, name[d], !s.f.direct, s.on_device ? 0 : s.size, mem);
		}
		{
			struct long_op lo = {
				.name = name[2], .unit = "MB/s", .kind = KIND_BANDWIDTH,
				.better = BETTER_HIGHER, .state = &s, .op = op_null, .detail = 1,
				.total = (double)s.size,
			};

			if (harness_long(ctx, &lo, NULL) < 0)
				goto out;
		}
		add_ratio(ctx, name[0], name[2]);
		add_ratio(ctx, name[1], name[2]);
	}
	s.nstreams = o->streams > 1 ? o->streams : dk->ndirs > 1 ? dk->ndirs : 1;
	if (s.nstreams > 1 && !s.on_device) {
		result_param_num(ctx->res, "streams", s.nstreams);
		s.bs = maxbs;
		disk_close(&s.f);	/* room for the streams' files */
		if (run_streams(&s, mem) < 0)
			goto out;
	}
	rc = 0;
out:
	if (s.on_device) {
		if (s.f.fd >= 0)
			close(s.f.fd);
	} else {
		disk_close(&s.f);
	}
	if (s.null_fd >= 0)
		close(s.null_fd);
	if (s.zero_fd >= 0)
		close(s.zero_fd);
	free(s.buf);
	free(s.cbuf);
	return rc;
}

/* For the progress line: a write and a read pass per block size and
 * repetition, each --runtime at most (or --size at about 300 MB/s). */
static double seq_estimate(const struct bench_opts *opt, const struct harness_cfg *cfg, double fig_s)
{
	const struct disk_opts *dk = disk_opts(opt);
	(void)fig_s;
	return 2.0 * (dk->nbs > 0 ? dk->nbs : 1) * harness_estimate_reps(cfg) * disk_pass_estimate(opt);
}

const struct bench bench_disk_seq = {
	.id = "disk.seq", .group = "disk", .title = "Sequential write and read (dd)",
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH, .long_mode = 1,
	.run = seq_run,
	.estimate = seq_estimate,
};
