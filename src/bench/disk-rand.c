/* disk-rand.c — fio-style 4k random read and random write (disk.rand).
 *
 * A file of --size is written once, untimed, and fsync'ed. Then, each a
 * time-based operation of --runtime (or --duration): "randread 4k QD1" and
 * "randwrite 4k QD1", one process issuing one 4 KiB pread()/pwrite() at a
 * time (queue depth 1, fio's psync engine, iodepth=1) at random 4 KiB
 * blocks of the file, each block once before any is drawn again (fio's
 * random map, its default: a block read twice in a pass could come from
 * a cache on the way, the host's in a VM); then the same with --jobs N
 * processes at once ("randread 4k, N jobs"), each its own descriptor and
 * random sequence, the figure the aggregate and each job's own rate kept
 * as per_copy. O_DIRECT as disk.seq (fio direct=1); writes are not synced
 * one by one (fio's default, no fsync=). IOPS; every operation's latency
 * goes to the percentiles (p50 .. p99.9, max), as fio's clat. */
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
#include "scratch.h"

#define BS 4096

struct rnd {
	struct bench_ctx *ctx;
	struct disk_file f;
	uint64_t blocks, dur;
	int writing, direct;
	struct disk_workers ws;
};

static int job(struct disk_worker *w, int k, void *arg)
{
	struct rnd *r = arg;
	char *buf = disk_buf(BS), why[300];
	uint64_t t, lat, end = disk_worker_t0(w) + r->dur;
	struct disk_perm perm;
	int fd = -1;

	disk_perm_init(&perm, r->blocks,
		       0x2545f4914f6cdd1dull ^ ((uint64_t)(k + 1) * 0x9e3779b97f4a7c15ull) ^ disk_now());

	if (!buf) {
		disk_worker_fail(w, "out of memory");
		return -1;
	}
#ifdef O_DIRECT
	if (r->direct)
		fd = open(r->f.path, O_RDWR | O_DIRECT | O_CLOEXEC);
	else
#endif
		fd = open(r->f.path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, sizeof(why), "job %d: open: %s", k + 1, strerror(errno));
		disk_worker_fail(w, why);
		free(buf);
		return -1;
	}
	do {
		off_t off;
		ssize_t n;

		off = (off_t)(disk_perm_next(&perm) * BS);
		t = disk_now();
		n = r->writing ? pwrite(fd, buf, BS, off) : pread(fd, buf, BS, off);
		lat = disk_now() - t;
		if (n != BS) {
			struct bench_ctx c = *r->ctx;

			disk_fail(&c, disk_parent(r->ctx, 0), r->writing ? "write" : "read", r->f.path,
				  (int64_t)off, n < 0 ? errno : EIO);
			snprintf(why, sizeof(why), "job %d: %s", k + 1, c.reason);
			disk_worker_fail(w, why);
			close(fd);
			free(buf);
			return -1;
		}
		if (disk_worker_report(w, 1, lat ? lat : 1))
			break;
	} while (t + lat < end);
	close(fd);
	free(buf);
	return 0;
}

static int prep(void *st, struct long_run *lr)
{
	struct rnd *r = st;
	int n = r->ws.nlast;

	(void)lr;
	disk_workers_stop(&r->ws);
	if (!r->writing && !disk_opts(r->ctx->opt)->cache)
		disk_evict(r->f.fd);
	return disk_workers_start(r->ctx, &r->ws, n, job, r);
}

static int op(void *st, struct long_run *lr)
{
	struct rnd *r = st;

	return disk_workers_run(r->ctx, &r->ws, lr);
}

static int rand_run(struct bench_ctx *ctx)
{
	const struct bench_opts *o = ctx->opt;
	const struct disk_opts *dk = disk_opts(o);
	const struct harness_cfg *cfg = &ctx->h->cfg;
	struct rnd r;
	double mem = disk_mem_ceiling();
	int jobs[2] = { 1, dk->jobs }, j, d, rc = -1;

	memset(&r, 0, sizeof(r));
	r.ctx = ctx;
	disk_workers_init(&r.ws);
	r.dur = (cfg->duration_ns ? cfg->duration_ns : dk->runtime) + cfg->ramp_ns;
	r.blocks = dk->size / BS;
	if (disk_room(ctx, 0, dk->size) < 0 ||
	    disk_open(ctx, &r.f, 0, "rand", O_RDWR, disk_want_direct(o)) < 0)
		return -1;
	r.direct = r.f.direct;
	disk_facts(ctx, disk_dir(ctx, 0));
	result_param_str(ctx->res, "direct", r.direct ? "yes" : "no");
	result_param_num(ctx->res, "size_bytes", (double)dk->size);
	result_param_num(ctx->res, "block_bytes", BS);
	result_param_num(ctx->res, "jobs", dk->jobs);
	result_param_num(ctx->res, "iodepth", 1);
	result_param_str(ctx->res, "dir", disk_parent(ctx, 0));
	if (disk_fill(ctx, &r.f, r.blocks * BS) < 0)
		goto out;
	for (j = 0; j < (dk->jobs > 1 ? 2 : 1); j++) {
		for (d = 0; d < 2; d++) {
			char name[64];
			struct long_op lo = {
				.name = name, .unit = "IOPS", .kind = KIND_RATE, .better = BETTER_HIGHER,
				.state = &r, .prepare = prep, .op = op, .time_based = 1,
				.duration_ns = r.dur,
			};

			if (jobs[j] == 1)
				snprintf(name, sizeof(name), "%s 4k QD1", d ? "randwrite" : "randread");
			else
				snprintf(name, sizeof(name), "%s 4k, %d jobs", d ? "randwrite" : "randread",
					 jobs[j]);
			r.writing = d;
			r.ws.nlast = jobs[j];
			if (harness_long(ctx, &lo, NULL) < 0)
				goto out;
			if (jobs[j] > 1)
				disk_workers_record(ctx, &r.ws, name, 1);
			disk_cache_check(ctx, name, !r.direct, dk->size, mem);
		}
	}
	rc = 0;
out:
	disk_workers_stop(&r.ws);
	disk_close(&r.f);
	return rc;
}

/* For the progress line: QD1 and --jobs, read and write, each repetition
 * --runtime long (and its ramp). */
static double rand_estimate(const struct bench_opts *opt, const struct harness_cfg *cfg, double fig_s)
{
	(void)fig_s;
	return 4.0 * harness_estimate_reps(cfg) * ((double)(cfg->duration_ns ? cfg->duration_ns : disk_opts(opt)->runtime) +
			      (double)cfg->ramp_ns) / 1e9;
}

const struct bench bench_disk_rand = {
	.id = "disk.rand", .group = "disk", .title = "Random 4k read and write (fio)",
	.unit = "IOPS", .better = BETTER_HIGHER, .kind = KIND_RATE, .long_mode = 1,
	.run = rand_run,
	.estimate = rand_estimate,
};
