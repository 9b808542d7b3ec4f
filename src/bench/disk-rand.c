/* disk-rand.c — fio-style 4k random read and random write (disk.rand).
 *
 * A file of --size is written once, untimed, and fsync'ed. Then, each a
 * time-based operation of --runtime (or --duration): "randread 4k QD1" and
 * "randwrite 4k QD1", one process issuing one 4 KiB pread()/pwrite() at a
 * time (queue depth 1, fio's psync engine, iodepth=1) at random 4 KiB
 * blocks of the file, each block once before any is drawn again (fio's
 * random map, its default: a block read twice in a pass could come from
 * a cache on the way, the host's in a VM); then "randread 4k QD32" and
 * "randwrite 4k QD32", one process keeping --iodepth requests in flight
 * through an engine (disk-engine.c: io_uring where it works, else POSIX
 * AIO; fio's ioengine=io_uring iodepth=32), the figure people quote for
 * an NVMe drive or a cloud volume; then the same with --jobs N processes
 * at once ("randread 4k, N jobs", each at QD1), each its own descriptor
 * and random sequence, the figure the aggregate and each job's own rate
 * kept as per_copy. O_DIRECT as disk.seq (fio direct=1); writes are not
 * synced one by one (fio's default, no fsync=). IOPS; every request's
 * latency, from queued to completed, goes to the percentiles (p50 ..
 * p99.9, max), as fio's clat (with its slat, which psync has not). */
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
	int writing, direct, engine, depth, mix;	/* mix: % of reads (0: all writing or not) */
	struct disk_workers ws;
};

static int job_fail(struct disk_worker *w, struct rnd *r, int k, const char *what, int64_t off, int err)
{
	struct bench_ctx c = *r->ctx;
	char why[300];

	if (off < 0) {
		snprintf(why, sizeof(why), "job %d: %s: %s", k + 1, what, strerror(err));
	} else {
		disk_fail(&c, disk_parent(r->ctx, 0), what, r->f.path, off, err);
		snprintf(why, sizeof(why), "job %d: %s", k + 1, c.reason);
	}
	disk_worker_fail(w, why);
	return -1;
}

/* Whether the next request writes: r->writing, or in a mixed row a draw
 * (xorshift64) that reads r->mix % of the time. */
static int writes(const struct rnd *r, uint64_t *x)
{
	if (!r->mix)
		return r->writing;
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return (int)(*x % 100) >= r->mix;
}

/* One job: r->depth requests in flight through r->engine until the
 * runtime is over, each completed one replaced by the next block. One
 * completion is taken at a time and replaced before the next is looked
 * at, as fio does (iodepth_batch_complete_min and _max are 1 by default):
 * a completion waiting in the ring while the job submits the one before
 * it counts in its latency, as in fio's. Taking all that had completed at
 * once gave each of them the same early end and left them out of flight
 * until their turn to be resubmitted: at QD32 on a guest bound by CPU,
 * 19 requests in flight on average (IOPS x mean latency) against fio's
 * 32.0, and a p50 0.3-0.8x fio's at the same IOPS (docs/peers.md). */
static int job(struct disk_worker *w, int k, void *arg)
{
	struct rnd *r = arg;
	uint64_t end = disk_worker_t0(w) + r->dur;
	struct disk_eng e;
	struct disk_eng_done d;
	struct disk_perm perm;
	uint64_t mix;
	char why[300];
	int fd = -1, stop = 0, got, i, rc = -1;

	disk_perm_init(&perm, r->blocks,
		       0x2545f4914f6cdd1dull ^ ((uint64_t)(k + 1) * 0x9e3779b97f4a7c15ull) ^ disk_now());
	mix = 0x9e3779b97f4a7c15ull ^ disk_now();
#ifdef O_DIRECT
	if (r->direct)
		fd = open(r->f.path, O_RDWR | O_DIRECT | O_CLOEXEC);
	else
#endif
		fd = open(r->f.path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return job_fail(w, r, k, "open", -1, errno);
	if (disk_eng_open(&e, r->engine, fd, r->depth, BS, why, sizeof(why)) < 0) {
		close(fd);
		disk_worker_fail(w, why);
		return -1;
	}
	for (i = 0; i < r->depth; i++)
		if (disk_eng_queue(&e, i, writes(r, &mix), (int64_t)(disk_perm_next(&perm) * BS)) < 0) {
			job_fail(w, r, k, "queue a request", -1, errno);
			goto out;
		}
	while ((got = disk_eng_wait(&e, &d, 1)) > 0) {
		if (d.res != BS) {
			job_fail(w, r, k, d.wr ? "write" : "read", d.off, d.res < 0 ? -d.res : EIO);
			goto out;
		}
		stop = stop || disk_worker_report(w, 1, d.lat | (r->mix && d.wr ? DISK_LAT_CLASS1 : 0));
		if (!stop && d.t_done < end &&
		    disk_eng_queue(&e, d.slot, writes(r, &mix), (int64_t)(disk_perm_next(&perm) * BS)) < 0) {
			job_fail(w, r, k, "queue a request", -1, errno);
			goto out;
		}
	}
	if (got < 0) {
		job_fail(w, r, k, "wait for completions", -1, errno);
		goto out;
	}
	rc = 0;
out:
	disk_eng_close(&e);	/* reaps what is in flight first */
	close(fd);
	return rc;
}

static int prep(void *st, struct long_run *lr)
{
	struct rnd *r = st;
	int n = r->ws.nlast;

	(void)lr;
	disk_workers_stop(&r->ws);
	/* fio's invalidate=1: no page of the file cached, for reads (a cached
	 * one is no disk read) and for direct writes (each would first have to
	 * drop the cached copy of its block) */
	if (!disk_opts(r->ctx->opt)->cache)
		disk_evict(r->f.fd);
	return disk_workers_start(r->ctx, &r->ws, n, job, r);
}

static int op(void *st, struct long_run *lr)
{
	struct rnd *r = st;

	return disk_workers_run(r->ctx, &r->ws, lr);
}

/* The rows: QD1 (psync unless --engine names one), QD --iodepth (the
 * engine asked for, or the best here), --jobs at QD1. */
struct row {
	int jobs, depth, engine, mix;
};

/* The engine of the deep rows, probed here (not in each job): 0, or -1
 * with *why when none keeps that many requests in flight. */
static int deep_engine(struct bench_ctx *ctx, int kind, int depth, char *why, size_t n)
{
	struct disk_eng e;
	char desc[200];

	if (disk_eng_open(&e, kind, -1, depth, BS, why, n) < 0)
		return -1;
	result_param_str(ctx->res, "engine", disk_eng_describe(&e, desc, sizeof(desc)));
	why[0] = 0;
	if (e.fallback[0]) {	/* auto fell back: said under the rows */
		result_param_str(ctx->res, "engine_fallback", e.fallback);
		snprintf(why, n, "engine %s, since %.*s", disk_engine_name(e.kind), (int)(n > 40 ? n - 40 : 0), e.fallback);
	}
	kind = e.kind;
	disk_eng_close(&e);
	return kind;
}

static int rand_supported(struct bench_ctx *ctx)
{
	const struct disk_opts *dk = disk_opts(ctx->opt);
	int kind = dk->engine ? disk_engine_parse(dk->engine) : ENG_AUTO;	/* `list`: no options */
	struct disk_eng e;

	/* an engine asked for by name runs, or the benchmark is unsupported */
	if (kind != ENG_AIO && kind != ENG_URING)
		return 0;
	if (disk_eng_open(&e, kind, -1, dk->iodepth, BS, ctx->reason, sizeof(ctx->reason)) < 0)
		return -1;
	disk_eng_close(&e);
	return 0;
}

static int rand_run(struct bench_ctx *ctx)
{
	const struct bench_opts *o = ctx->opt;
	const struct disk_opts *dk = disk_opts(o);
	const struct harness_cfg *cfg = &ctx->h->cfg;
	struct rnd r;
	double mem = disk_mem_ceiling();
	int asked = disk_engine_parse(dk->engine), qd1 = asked == ENG_AUTO ? ENG_PSYNC : asked;
	struct row rows[4] = { { 1, 1, qd1, 0 } };
	int nrows = 1, j, d, rc = -1;
	uint64_t run_ns;
	char why[400] = "", none[460] = "";

	memset(&r, 0, sizeof(r));
	r.ctx = ctx;
	disk_workers_init(&r.ws);
	run_ns = cfg->duration_ns ? cfg->duration_ns : dk->runtime;
	r.dur = run_ns + cfg->ramp_ns;
	if (cfg->ss_window_ns)	/* a ramp of up to the duration, then the duration: the harness stops them */
		r.dur = 2 * run_ns;
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
	result_param_num(ctx->res, "iodepth", dk->iodepth);
	result_param_str(ctx->res, "engine_qd1", disk_engine_name(qd1));
	result_param_str(ctx->res, "dir", disk_parent(ctx, 0));
	if (dk->iodepth > 1) {
		int deep = deep_engine(ctx, asked, dk->iodepth, why, sizeof(why));

		if (deep >= 0)
			rows[nrows++] = (struct row){ 1, dk->iodepth, deep, 0 };
		else {	/* the QD1 rows go on: say why there is no deep one */
			result_param_str(ctx->res, "engine_none", why);
			snprintf(none, sizeof(none), "no QD%d rows: %s", dk->iodepth, why);
			why[0] = 0;
		}
	}
	if (dk->rwmix) {	/* the mix at the deep rows' depth, or at QD1 without them */
		rows[nrows] = rows[nrows - 1];
		rows[nrows++].mix = dk->rwmix;
	}
	if (dk->jobs > 1)
		rows[nrows++] = (struct row){ dk->jobs, 1, qd1, 0 };
	if (disk_fill(ctx, &r.f, r.blocks * BS) < 0)
		goto out;
	for (j = 0; j < nrows; j++) {
		for (d = 0; d < (rows[j].mix ? 1 : 2); d++) {
			char name[64];
			struct long_op lo = {
				.name = name, .unit = "IOPS", .kind = KIND_RATE, .better = BETTER_HIGHER,
				.state = &r, .prepare = prep, .op = op, .time_based = 1,
				.duration_ns = run_ns,
			};

			if (rows[j].mix) {
				snprintf(name, sizeof(name), "randrw 4k %d/%d QD%d", rows[j].mix, 100 - rows[j].mix,
					 rows[j].depth);
				lo.classes[0] = "read";
				lo.classes[1] = "write";
			} else if (rows[j].jobs == 1)
				snprintf(name, sizeof(name), "%s 4k QD%d", d ? "randwrite" : "randread", rows[j].depth);
			else
				snprintf(name, sizeof(name), "%s 4k, %d jobs", d ? "randwrite" : "randread",
					 rows[j].jobs);
			r.writing = d;
			r.mix = rows[j].mix;
			r.ws.classes = rows[j].mix != 0;
			r.depth = rows[j].depth;
			r.engine = rows[j].engine;
			r.ws.nlast = rows[j].jobs;
			if (harness_long(ctx, &lo, NULL) < 0)
				goto out;
			if (rows[j].jobs > 1)
				disk_workers_record(ctx, &r.ws, name, 1);
			if (rows[j].depth > 1 && why[0] && !rows[j].mix)
				result_note(ctx->res, name, why);
			if (j == 0 && d == 0 && none[0])
				result_note(ctx->res, name, none);
			disk_cache_check(ctx, name, !r.direct, dk->size, mem);
		}
	}
	rc = 0;
out:
	disk_workers_stop(&r.ws);
	disk_close(&r.f);
	return rc;
}

/* For the progress line: QD1, QD --iodepth and --jobs, read and write,
 * each repetition --runtime long (and its ramp). */
static double rand_estimate(const struct bench_opts *opt, const struct harness_cfg *cfg, double fig_s)
{
	const struct disk_opts *dk = disk_opts(opt);
	double rows = 1 + (dk->iodepth > 1) + (dk->jobs > 1);

	(void)fig_s;
	return 2 * rows * harness_estimate_reps(cfg) *
	       ((double)(cfg->duration_ns ? cfg->duration_ns : dk->runtime) + (double)cfg->ramp_ns) / 1e9;
}

const struct bench bench_disk_rand = {
	.id = "disk.rand", .group = "disk", .title = "Random 4k read and write (fio)",
	.unit = "IOPS", .better = BETTER_HIGHER, .kind = KIND_RATE, .long_mode = 1,
	.supported = rand_supported,
	.run = rand_run,
	.estimate = rand_estimate,
};
