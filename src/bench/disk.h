/* disk.h — what the disk benchmarks (disk-*.c) share: their scratch
 * directories (one under each --dir entry), files opened direct where the
 * file system takes it, failures worded for the user (ENOSPC names the
 * directory, EIO the offset), the facts of the file system under test, the
 * cache checks, and worker processes that run streams or jobs at once. */
#ifndef BAKEOFF_DISK_H
#define BAKEOFF_DISK_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "harness.h"
#include "registry.h"
#include "result.h"

struct guard;

/* The disk group's own options (its rows in disk-common.c), and where a
 * run put its scratch directories. */
struct disk_opts {
	uint64_t size;			/* --size: file size (or bytes read from --device) */
	uint64_t bs[BENCH_MAX_LIST];	/* --block-sizes: disk.seq's sweep */
	int nbs;
	uint64_t runtime;		/* --runtime: a pass stops at --size or at this */
	int direct, no_direct;		/* --direct, --no-direct */
	int jobs;			/* --jobs: disk.rand's concurrent jobs */
	int iodepth;			/* --iodepth: disk.rand's requests in flight (QD rows) */
	int rwmix;			/* --rwmix: disk.rand's mixed row, % of reads (0: none) */
	const char *engine;		/* --engine: auto, psync, aio, io_uring */
	const char *device;		/* --device: a block device read sequentially */
	int destroy;			/* --destroy-data: disk.seq may write --device */
	const char *csv;		/* --csv: bonnie++ CSV line, "1.03" or "2" */
	int files;			/* --files: bonnie's file tests, N x 1024 files */
	int file_dirs;			/* --file-dirs: spread over D directories */
	uint64_t file_max, file_min;	/* --file-max, --file-min: sizes of the files */
	int cache;			/* --cache: measure the page cache on purpose */
	int no_char;			/* --no-char: no putc, getc (bonnie++ -f) */
	uint64_t max_size;		/* --max-size: disk.iozone's largest auto-mode file */
	/* Set by disk_prepare() (run): one scratch directory per --dir entry
	 * and the entry it was made under (for messages). */
	const char *dirs[BENCH_MAX_LIST];
	const char *parents[BENCH_MAX_LIST];
	int ndirs;
};
static inline struct disk_opts *disk_opts(const struct bench_opts *opt)
{
	return bench_group_opts(opt, &group_disk);
}

/* ---- set-up by `run` (main.c), before anything is measured ---- */

/* When a disk benchmark is selected (sel[], registry order): check the
 * disk options (--csv, --device, --destroy-data), the --dir list (dirlist,
 * comma-separated; NULL: the current directory) and the free space each
 * entry needs; then make one scratch directory under each entry
 * (scratch_add) and set disk_opts(opt)->dirs. Prints the --destroy-data warning.
 * Returns 0, or -1 with one line in err (a usage error: exit 2). */
int disk_prepare(struct bench_opts *opt, const char *dirlist, const unsigned char *sel,
		 char *err, size_t errlen);
/* The guard's disk findings: a directory on tmpfs, ramfs or an overlay on
 * one measures memory, not a disk. */
void disk_guard(struct guard *g, const struct bench_opts *opt);

/* ---- for the benchmarks ---- */

/* For the progress line's estimates: one pass over a file, in seconds:
 * --runtime at most, or --size at about 300 MB/s. */
double disk_pass_estimate(const struct bench_opts *opt);


struct disk_file {
	int fd;
	int direct;		/* opened with O_DIRECT */
	int stream;		/* which --dir entry */
	char path[4096];
};

/* The scratch directory and its --dir entry for stream k (round robin). */
const char *disk_dir(const struct bench_ctx *ctx, int k);
const char *disk_parent(const struct bench_ctx *ctx, int k);
/* Whether to ask for O_DIRECT: 1 must (--direct), 0 never (--no-direct,
 * --cache), -1 where the file system takes it. */
int disk_want_direct(const struct bench_opts *opt);
/* Open (creating) file `name` in stream k's scratch directory; with want
 * -1 O_DIRECT is tried, then dropped when refused (EINVAL). 0, or -1 with
 * ctx->reason set ("--direct: O_DIRECT refused on DIR (tmpfs)"). */
int disk_open(struct bench_ctx *ctx, struct disk_file *f, int k, const char *name, int flags,
	      int want);
void disk_close(struct disk_file *f);	/* close and unlink */
/* A failed call on f at offset off: sets ctx->reason ("no space left on
 * DIR", "read error (EIO) at offset N of FILE", ...). Returns -1. */
int disk_fail(struct bench_ctx *ctx, const char *dir_label, const char *what, const char *file,
	      int64_t off, int err);
/* A buffer of n bytes aligned for O_DIRECT, filled with incompressible
 * bytes (never all zero: a file system could store zeros as holes); from
 * 64 KiB up on 2 MiB pages (hinted huge), below on 4 KiB pages.
 * disk_buf_pages chooses: huge or 4 KiB pages whatever the size. */
void *disk_buf(size_t n);
void *disk_buf_pages(size_t n, int huge);
/* Write f's first `size` bytes in 1 MiB blocks and fsync (untimed set-up
 * for reads): 0 or -1 with ctx->reason. */
int disk_fill(struct bench_ctx *ctx, struct disk_file *f, uint64_t size);
/* Drop f's pages from the page cache (fdatasync + POSIX_FADV_DONTNEED). */
void disk_evict(int fd);
/* Free space check before a benchmark writes `need` bytes in stream k's
 * directory: 0, or -1 with ctx->reason naming both figures. */
int disk_room(struct bench_ctx *ctx, int k, uint64_t need);
/* Record the file system and device under stream 0's directory (or the
 * --device) as params fs_type, fs_source, fs_mount, fs_options, device,
 * device_model, rotational, scheduler, fs_journal (ext2/3/4). Returns
 * 1 when an ext2/3/4 keeps a journal, 0 when it has none, -1 otherwise. */
int disk_facts(struct bench_ctx *ctx, const char *path);
/* The copy rate of memory (MB/s, memcpy of 64 MiB, best of 3): a disk
 * figure above it cannot be the disk's. */
double disk_mem_ceiling(void);
/* After a figure is recorded: mark metric `name` cache_suspect when it was
 * buffered on a file under 2x RAM or faster than mem_mbs; with --cache
 * note it as a cache figure instead. */
void disk_cache_check(struct bench_ctx *ctx, const char *name, int buffered, uint64_t file_bytes,
		      double mem_mbs);
/* Random block numbers in [0, n) as fio draws them with its random map
 * (its default, without norandommap): every block exactly once per pass,
 * in a random order, before any block is drawn again; each pass a new
 * order. No memory per block: a keyed bijection on the next power of two,
 * cycle-walked into [0, n). */
struct disk_perm {
	uint64_t n, mask, i, x, k[3];
	unsigned shift;
};
void disk_perm_init(struct disk_perm *p, uint64_t n, uint64_t seed);	/* n >= 1 */
uint64_t disk_perm_next(struct disk_perm *p);
/* "4k", "1M", "512" */
void disk_bs_label(char *out, size_t n, uint64_t bs);
/* The clock for latencies and runtime caps (the harness's). */
uint64_t disk_now(void);

/* ---- worker processes: streams and jobs at once ----
 * Each worker is forked untimed (disk_workers_start), waits for the go,
 * runs fn, reporting progress and latencies with disk_worker_report(), and
 * ends with its own start and end times. The parent's timed op
 * (disk_workers_run) gives the go and feeds everything to the harness. */
struct disk_worker;
struct disk_workers {
	int n, nlast;		/* running; of the last run */
	pid_t pid[64];
	int go[2], msg[2];
	double bytes[64];	/* each worker's amount of the last run */
	double secs[64];	/* each worker's own time of the last run */
	int classes;		/* latencies tagged DISK_LAT_CLASS1 or not: long_class */
};
/* A worker's latency of the second class (a write in a mixed workload). */
#define DISK_LAT_CLASS1 (1ull << 63)
void disk_workers_init(struct disk_workers *ws);	/* before anything else */
typedef int (*disk_worker_fn)(struct disk_worker *w, int k, void *arg);
int disk_workers_start(struct bench_ctx *ctx, struct disk_workers *ws, int n, disk_worker_fn fn,
		       void *arg);
int disk_workers_run(struct bench_ctx *ctx, struct disk_workers *ws, struct long_run *lr);
void disk_workers_stop(struct disk_workers *ws);
/* Each worker's own rate of the last run (amount / its time / scale) as
 * metric `name`'s per_copy figures. */
void disk_workers_record(struct bench_ctx *ctx, const struct disk_workers *ws, const char *name,
			 double scale);
/* From a worker: amount done and (optional, 0: none) one latency in ns.
 * Returns 0 go on, 1 stop (the parent's runtime is over or it is gone). */
int disk_worker_report(struct disk_worker *w, double amount, uint64_t lat_ns);
/* Inside a worker: the runtime cap (ns from its go) it must respect. */
uint64_t disk_worker_t0(const struct disk_worker *w);
/* A worker's failure reason (sent to the parent, which fails the test). */
void disk_worker_fail(struct disk_worker *w, const char *reason);

/* ---- engines: requests in flight (disk-engine.c) ----
 * psync (one pread/pwrite at a time), aio (POSIX AIO) and io_uring
 * (Linux); ENG_AUTO opens the best that works here, and says in fallback
 * why the better ones did not. */
enum { ENG_AUTO, ENG_PSYNC, ENG_AIO, ENG_URING };
#define DISK_MAX_DEPTH 32768	/* io_uring's ring holds at most this many (IORING_MAX_ENTRIES) */
int disk_engine_parse(const char *name);	/* ENG_*, or -1 */
const char *disk_engine_name(int kind);
struct disk_eng_slot;
struct disk_eng_done {
	int slot;
	int res;		/* bytes moved, or -errno */
	int wr;
	int64_t off;
	uint64_t t_done, lat;	/* its completion time; from queued to completed, ns */
};
struct disk_eng {
	int kind, fd, depth, inflight;
	size_t bs;
	struct disk_eng_slot *slot;
	void *uring;
	struct disk_eng_done done_now;	/* psync: the request just done */
	int have_done;
	char fallback[400];	/* ENG_AUTO: why the better engines did not open */
};
/* Open kind on fd for depth requests of bs bytes each (a buffer per
 * slot): 0, or -1 with why (the engine cannot run here, or no memory). */
int disk_eng_open(struct disk_eng *e, int kind, int fd, int depth, size_t bs, char *why, size_t n);
/* "io_uring (registered buffers)", "aio (glibc: a pool of threads ...)" */
const char *disk_eng_describe(const struct disk_eng *e, char *out, size_t n);
char *disk_eng_buf(struct disk_eng *e, int slot);
/* Queue slot (free) for a request at off: 0, or -1 with errno. */
int disk_eng_queue(struct disk_eng *e, int slot, int wr, int64_t off);
/* Submit what is queued; wait for at least one completion (none when
 * nothing is in flight): how many were written to d (at most max, each
 * slot free again), or -1 with errno. */
int disk_eng_wait(struct disk_eng *e, struct disk_eng_done *d, int max);
/* Reap what is still in flight, then free everything. */
void disk_eng_close(struct disk_eng *e);

#endif
