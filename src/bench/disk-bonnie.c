/* disk-bonnie.c — bonnie's tests (disk.bonnie), bonnie++'s method.
 *
 * One file of --size in the first --dir entry, buffered (bonnie++ does not
 * open it direct without -D; every figure on a file under 2x RAM is
 * therefore marked cache_suspect). bonnie++ closes the file with an
 * fsync() before it stops each test's clock, and so does every test here
 * (each seeker too): a write test's figure includes getting its data to
 * the disk, not only into the page cache. Without -b, bonnie++ syncs
 * nothing else, and neither does this. The tests, in bonnie++'s order:
 *   putc     the file written a byte at a time with putc() (stdio), until
 *            --size or --runtime; latency per 8 KiB (--no-char, bonnie++
 *            -f, skips it and getc)
 *   write    the file written in 8 KiB write() calls (bonnie++'s chunk)
 *            to a new file (the old one unlinked untimed, as bonnie++)
 *   rewrite  each 8 KiB chunk read, changed, seeked back over, written
 *   getc     read a byte at a time with getc(), to --size or --runtime
 *   read     the file read in 8 KiB read() calls
 *   seeks    5 seeker processes (bonnie++ 2.00a's count), 8192 seeks in
 *            all: lseek to a random chunk, read it, and one time in ten
 *            change and write it back; seeks/s
 *   files    --files N x 1024 files in --file-dirs D directories, empty, or
 *            of a random size from --file-min to --file-max written as
 *            each is created (bonnie++ -n N:MAX:MIN; its "Read" column
 *            then reads the data, here the stat test only stats):
 *            created, stat()ed and deleted in name order ("seq create",
 *            "seq stat", "seq delete") and in a random order ("ran ...");
 *            files/s, latency per call; each create repetition in new
 *            directories, the previous one's files kept (make_gen)
 * Rates are KiB/s in bonnie++'s tables; here MB/s (10^6) and files/s;
 * the renderer converts. %CPU and maximum latency per test are kept by
 * the harness (metric cpu, latency max). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "disk.h"
#include "scratch.h"

#define CHUNK 8192
#define SEEKS 8192
#define SEEKERS 5

struct bon {
	struct bench_ctx *ctx;
	const char *label;
	char path[4096], fdir[4096];
	uint64_t size, made, runtime;
	char *buf;
	int fd;
	/* files */
	unsigned nfiles, ndirs, *order;
	uint64_t fmin, fmax;	/* --file-min, --file-max */
	/* The files live in FDIR/gG (in its dK with more than one directory):
	 * each create repetition makes them in a new generation G (a fresh
	 * directory, as bonnie++ makes its own), and the generations before
	 * it (oldest..gen-1) are removed only when a stat or delete test
	 * begins, not just before the next create (make_gen says why).
	 * used: the current generation has held files. */
	unsigned gen, oldest;
	int gfd;		/* the current generation's directory */
	int present, used;
	uint64_t seed, x;
	struct disk_workers ws;
};

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static int io_fail(struct bon *b, const char *what, int64_t off, int err)
{
	if (err == EINTR || scratch_interrupted())
		return -1;
	return disk_fail(b->ctx, b->label, what, b->path, off, err);
}

/* The fsync that ends a read test, as bonnie++ closes every test's file:
 * nothing to write, so a system that refuses it on a descriptor opened
 * for reading (EBADF) or on this file system (EINVAL) fails nothing. */
static int sync_after_read(struct bon *b, int fd)
{
	if (fsync(fd) < 0 && errno != EBADF && errno != EINVAL)
		return io_fail(b, "fsync", -1, errno);
	return 0;
}

static int lat_progress(struct long_run *lr, double amount, uint64_t t)
{
	long_lat(lr, disk_now() - t);
	return long_progress(lr, amount) < 0 ? -1 : 0;
}

/* ---- the big file ---- */

static int op_putc(void *st, struct long_run *lr)
{
	struct bon *b = st;
	FILE *f = fopen(b->path, "w");
	uint64_t off = 0, t0 = disk_now(), t = t0;
	int rc = 0;

	if (!f)
		return io_fail(b, "open", -1, errno);
	while (off < b->size && rc == 0) {
		if (putc((int)(off & 0x7f), f) == EOF) {
			rc = io_fail(b, "write", (int64_t)off, errno);
			break;
		}
		if (++off % CHUNK == 0) {
			rc = lat_progress(lr, CHUNK, t);
			t = disk_now();
			if (b->runtime && t - t0 >= b->runtime)
				break;
		}
	}
	if (rc == 0 && (fflush(f) != 0 || fsync(fileno(f)) < 0))
		rc = io_fail(b, "write", (int64_t)off, errno);
	if (fclose(f) != 0 && rc == 0)
		rc = io_fail(b, "write", (int64_t)off, errno);
	if (rc == 0 && off % CHUNK)
		rc = long_progress(lr, (double)(off % CHUNK)) < 0 ? -1 : 0;
	return rc;
}

static int prep_block(void *st, struct long_run *lr)
{
	struct bon *b = st;
	int dfd;

	(void)lr;
	if (b->fd >= 0)
		close(b->fd);
	/* A new file, as bonnie++'s (unlink, then O_CREAT | O_EXCL). The
	 * unlinked file's blocks are freed (and, on a file system mounted with
	 * discard, trimmed) when its directory's change is committed: an fsync
	 * of the directory makes that happen here, untimed, not inside this
	 * test's fsync. */
	if (unlink(b->path) < 0 && errno != ENOENT)
		return io_fail(b, "unlink", -1, errno);
	if ((dfd = open(disk_dir(b->ctx, 0), O_RDONLY | O_CLOEXEC)) >= 0) {
		fsync(dfd);	/* not all systems fsync a directory: best effort */
		close(dfd);
	}
	b->fd = open(b->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	return b->fd < 0 ? io_fail(b, "open", -1, errno) : 0;
}

static int op_block(void *st, struct long_run *lr)
{
	struct bon *b = st;
	uint64_t off = 0, t;
	ssize_t r;

	while (off < b->size) {
		t = disk_now();
		if ((r = write(b->fd, b->buf, CHUNK)) != CHUNK)
			return io_fail(b, "write", (int64_t)off, r < 0 ? errno : ENOSPC);
		off += CHUNK;
		if (lat_progress(lr, CHUNK, t) < 0)
			return -1;
	}
	b->made = off;
	return fsync(b->fd) < 0 ? io_fail(b, "fsync", -1, errno) : 0;
}

static int prep_start(void *st, struct long_run *lr)
{
	struct bon *b = st;

	(void)lr;
	return lseek(b->fd, 0, SEEK_SET) < 0 ? io_fail(b, "seek", 0, errno) : 0;
}

static int op_rewrite(void *st, struct long_run *lr)
{
	struct bon *b = st;
	uint64_t off = 0, t;
	ssize_t r;

	while (off < b->made) {
		t = disk_now();
		if ((r = read(b->fd, b->buf, CHUNK)) != CHUNK)
			return io_fail(b, "read", (int64_t)off, r < 0 ? errno : EIO);
		b->buf[off / CHUNK % CHUNK]++;
		if (lseek(b->fd, -(off_t)CHUNK, SEEK_CUR) < 0)
			return io_fail(b, "seek", (int64_t)off, errno);
		if ((r = write(b->fd, b->buf, CHUNK)) != CHUNK)
			return io_fail(b, "write", (int64_t)off, r < 0 ? errno : ENOSPC);
		off += CHUNK;
		if (lat_progress(lr, CHUNK, t) < 0)
			return -1;
	}
	return fsync(b->fd) < 0 ? io_fail(b, "fsync", -1, errno) : 0;
}

static int op_getc(void *st, struct long_run *lr)
{
	struct bon *b = st;
	FILE *f = fopen(b->path, "r");
	uint64_t off = 0, t0 = disk_now(), t = t0, sum = 0;
	int c, rc = 0;

	if (!f)
		return io_fail(b, "open", -1, errno);
	while (off < b->made && (c = getc(f)) != EOF) {
		sum += (unsigned)c;
		if (++off % CHUNK == 0) {
			if ((rc = lat_progress(lr, CHUNK, t)) < 0)
				break;
			t = disk_now();
			if (b->runtime && t - t0 >= b->runtime)
				break;
		}
	}
	if (rc == 0 && ferror(f))
		rc = io_fail(b, "read", (int64_t)off, errno);
	if (rc == 0)
		rc = sync_after_read(b, fileno(f));
	fclose(f);
	bench_use(sum);
	if (rc == 0 && off % CHUNK)
		rc = long_progress(lr, (double)(off % CHUNK)) < 0 ? -1 : 0;
	return rc;
}

static int op_read(void *st, struct long_run *lr)
{
	struct bon *b = st;
	uint64_t off = 0, t;
	ssize_t r;

	while (off < b->made) {
		t = disk_now();
		if ((r = read(b->fd, b->buf, CHUNK)) <= 0)
			return io_fail(b, "read", (int64_t)off, r < 0 ? errno : EIO);
		off += (uint64_t)r;
		if (lat_progress(lr, (double)r, t) < 0)
			return -1;
	}
	return sync_after_read(b, b->fd);
}

/* ---- seeks ---- */

static int seeker(struct disk_worker *w, int k, void *arg)
{
	struct bon *b = arg;
	char buf[CHUNK], why[300];
	uint64_t x = b->seed ^ ((uint64_t)(k + 1) * 0x9e3779b97f4a7c15ull), chunks = b->made / CHUNK;
	int fd = open(b->path, O_RDWR | O_CLOEXEC), i, n = SEEKS / SEEKERS + (k < SEEKS % SEEKERS);

	if (fd < 0 || chunks == 0) {
		snprintf(why, sizeof(why), "seeker %d: open: %s", k + 1, strerror(errno));
		disk_worker_fail(w, why);
		return -1;
	}
	for (i = 0; i < n; i++) {
		off_t off = (off_t)(rnd(&x) % chunks * CHUNK);
		uint64_t t = disk_now();
		ssize_t r;

		if (lseek(fd, off, SEEK_SET) < 0 || (r = read(fd, buf, CHUNK)) != CHUNK ||
		    (rnd(&x) % 10 == 0 && (buf[0]++, lseek(fd, off, SEEK_SET) < 0 ||
					   write(fd, buf, CHUNK) != CHUNK))) {
			snprintf(why, sizeof(why), "seeker %d: I/O error at offset %lld of %s: %s", k + 1,
				 (long long)off, b->label, strerror(errno ? errno : EIO));
			disk_worker_fail(w, why);
			close(fd);
			return -1;
		}
		if (disk_worker_report(w, 1, disk_now() - t))
			break;
	}
	/* Each of bonnie++'s seekers syncs its descriptor before it reports. */
	if (fsync(fd) < 0) {
		snprintf(why, sizeof(why), "seeker %d: fsync of %s: %s", k + 1, b->label,
			 strerror(errno));
		disk_worker_fail(w, why);
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int prep_seeks(void *st, struct long_run *lr)
{
	struct bon *b = st;

	(void)lr;
	disk_workers_stop(&b->ws);
	b->seed = rnd(&b->x);
	return disk_workers_start(b->ctx, &b->ws, SEEKERS, seeker, b);
}

static int op_seeks(void *st, struct long_run *lr)
{
	struct bon *b = st;

	return disk_workers_run(b->ctx, &b->ws, lr);
}

/* ---- files ---- */

/* File i's name in generation g: relative to the generation's directory
 * (rel), or whole. bonnie++ chdir()s into its directory and names a file
 * relative to it, in a numbered subdirectory when there is more than one;
 * so does this, through the directory's descriptor. With whole paths
 * (seven components here) creates on a fresh ext4 ran at 85,000-87,000
 * files/s, relative 93,000-96,000 (docs/peers.md). */
static void gname(const struct bon *b, unsigned g, unsigned i, int rel, char *out, size_t n)
{
	char d[16] = "";

	if (b->ndirs > 1)
		snprintf(d, sizeof(d), "d%u/", i % b->ndirs);
	if (rel)
		snprintf(out, n, "%s%010u", d, i);
	else
		snprintf(out, n, "%s/g%u/%s%010u", b->fdir, g, d, i);
}

static void shuffle(struct bon *b)
{
	unsigned i, j, t;

	for (i = 0; i < b->nfiles; i++)
		b->order[i] = i;
	for (i = b->nfiles; i > 1; i--) {
		j = (unsigned)(rnd(&b->x) % i);
		t = b->order[i - 1];
		b->order[i - 1] = b->order[j];
		b->order[j] = t;
	}
}

/* Remove generation g's files and directories (what is not there is
 * passed over). */
static void remove_gen(struct bon *b, unsigned g)
{
	char p[4200];
	unsigned i;

	for (i = 0; i < b->nfiles; i++) {
		gname(b, g, i, 0, p, sizeof(p));
		unlink(p);
	}
	for (i = 0; b->ndirs > 1 && i < b->ndirs; i++) {
		snprintf(p, sizeof(p), "%s/g%u/d%u", b->fdir, g, i);
		rmdir(p);
	}
	snprintf(p, sizeof(p), "%s/g%u", b->fdir, g);
	rmdir(p);
}

/* The generations before the current one, removed. */
static void remove_old(struct bon *b)
{
	for (; b->oldest < b->gen; b->oldest++)
		remove_gen(b, b->oldest);
}

/* A new generation of empty directories for a create test's repetition.
 * The previous one's files are kept, not deleted: on ext2/3/4 without a
 * journal a new inode skips every one freed before the wall clock's
 * current second, for seconds to minutes (ext4's recently_deleted(): 5 s
 * or more, 300 s more while its inode-table block is dirty), each looked
 * up in the buffer cache. A create right after deleting 16384 files ran
 * at 5,000-8,000 files/s here when the clock's second had turned since
 * the deletes, 41,000-87,000 when it had not; bonnie++ never deletes just
 * before it creates. */
static int make_gen(struct bon *b)
{
	char p[4200];
	unsigned i;

	b->gen++;
	b->present = b->used = 0;
	if (b->gfd >= 0)
		close(b->gfd);
	snprintf(p, sizeof(p), "%s/g%u", b->fdir, b->gen);
	if (mkdir(p, 0700) < 0)
		return disk_fail(b->ctx, b->label, "mkdir", p, -1, errno);
	if ((b->gfd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return disk_fail(b->ctx, b->label, "open", p, -1, errno);
	for (i = 0; b->ndirs > 1 && i < b->ndirs; i++) {
		snprintf(p, sizeof(p), "%s/g%u/d%u", b->fdir, b->gen, i);
		if (mkdir(p, 0700) < 0)
			return disk_fail(b->ctx, b->label, "mkdir", p, -1, errno);
	}
	return 0;
}

/* Create file i of this generation (exclusively when excl), with a random
 * size between --file-min and --file-max written into it (bonnie++ -n
 * N:MAX:MIN). */
static int make_file(struct bon *b, unsigned i, int excl)
{
	char p[64];
	uint64_t left = b->fmin, w;
	int fd;
	ssize_t r;

	gname(b, b->gen, i, 1, p, sizeof(p));
	if ((fd = openat(b->gfd, p, O_WRONLY | O_CREAT | O_CLOEXEC | (excl ? O_EXCL : 0), 0600)) < 0)
		return -1;
	if (b->fmax > b->fmin)
		left += rnd(&b->x) % (b->fmax - b->fmin + 1);
	for (; left > 0; left -= (uint64_t)r) {
		w = left < CHUNK ? left : CHUNK;
		if ((r = write(fd, b->buf, (size_t)w)) <= 0) {
			if (r == 0)
				errno = ENOSPC;
			r = errno;
			close(fd);
			errno = (int)r;
			return -1;
		}
	}
	return close(fd);
}

static int file_fail(struct bon *b, const char *what, unsigned i)
{
	char p[4200];
	int e = errno;

	gname(b, b->gen, i, 0, p, sizeof(p));
	return disk_fail(b->ctx, b->label, what, p, -1, e);
}

/* what: 0 create, 1 stat, 2 delete; random order or name order */
static int files_op(struct bon *b, struct long_run *lr, int what, int random)
{
	char p[64];
	struct stat st;
	unsigned i, k;

	for (k = 0; k < b->nfiles; k++) {
		uint64_t t = disk_now();

		i = random ? b->order[k] : k;
		if (what == 0) {
			if (make_file(b, i, 1) < 0)
				return file_fail(b, "create", i);
		} else {
			gname(b, b->gen, i, 1, p, sizeof(p));
			if (what == 1 ? fstatat(b->gfd, p, &st, 0) < 0 : unlinkat(b->gfd, p, 0) < 0)
				return file_fail(b, what == 1 ? "stat" : "delete", i);
		}
		if (lat_progress(lr, 1, t) < 0)
			return -1;
	}
	b->present = what != 2;
	b->used = 1;
	return 0;
}

static int prep_files(struct bon *b, int what)
{
	unsigned i;

	shuffle(b);
	if (what == 0)
		return b->used ? make_gen(b) : 0;
	remove_old(b);
	if (b->present)
		return 0;
	for (i = 0; i < b->nfiles; i++)
		if (make_file(b, i, 0) < 0)
			return file_fail(b, "create", i);
	b->present = b->used = 1;
	return 0;
}

#define FILE_TEST(name, what, random) \
	static int prep_##name(void *st, struct long_run *lr) \
	{ (void)lr; return prep_files(st, what); } \
	static int op_##name(void *st, struct long_run *lr) \
	{ return files_op(st, lr, what, random); }
FILE_TEST(seq_create, 0, 0)
FILE_TEST(seq_stat, 1, 0)
FILE_TEST(seq_delete, 2, 0)
FILE_TEST(ran_create, 0, 1)
FILE_TEST(ran_stat, 1, 1)
FILE_TEST(ran_delete, 2, 1)

static int bonnie_run(struct bench_ctx *ctx)
{
	const struct bench_opts *o = ctx->opt;
	const struct disk_opts *dk = disk_opts(o);
	double mem = disk_mem_ceiling();
	struct bon b;
	uint64_t fbytes;
	int rc = -1, t, journal;
	struct {
		const char *name, *unit;
		enum bench_kind kind;
		int (*prepare)(void *, struct long_run *), (*op)(void *, struct long_run *);
		int per_char;	/* skipped with --no-char */
	} tests[] = {
		{ "putc", "MB/s", KIND_BANDWIDTH, NULL, op_putc, 1 },
		{ "write", "MB/s", KIND_BANDWIDTH, prep_block, op_block, 0 },
		{ "rewrite", "MB/s", KIND_BANDWIDTH, prep_start, op_rewrite, 0 },
		{ "getc", "MB/s", KIND_BANDWIDTH, NULL, op_getc, 1 },
		{ "read", "MB/s", KIND_BANDWIDTH, prep_start, op_read, 0 },
		{ "seeks", "seeks/s", KIND_RATE, prep_seeks, op_seeks, 0 },
		{ "seq create", "files/s", KIND_RATE, prep_seq_create, op_seq_create, 0 },
		{ "seq stat", "files/s", KIND_RATE, prep_seq_stat, op_seq_stat, 0 },
		{ "seq delete", "files/s", KIND_RATE, prep_seq_delete, op_seq_delete, 0 },
		{ "ran create", "files/s", KIND_RATE, prep_ran_create, op_ran_create, 0 },
		{ "ran stat", "files/s", KIND_RATE, prep_ran_stat, op_ran_stat, 0 },
		{ "ran delete", "files/s", KIND_RATE, prep_ran_delete, op_ran_delete, 0 },
	};

	memset(&b, 0, sizeof(b));
	b.ctx = ctx;
	b.fd = b.gfd = -1;
	b.label = disk_parent(ctx, 0);
	b.size = dk->size / CHUNK * CHUNK;
	b.runtime = dk->runtime;
	b.nfiles = (unsigned)dk->files * 1024;
	b.ndirs = (unsigned)(dk->file_dirs > 0 ? dk->file_dirs : 1);
	b.fmax = dk->file_max;
	b.fmin = dk->file_min < b.fmax ? dk->file_min : b.fmax;
	b.x = disk_now() | 1;
	disk_workers_init(&b.ws);
	b.buf = disk_buf(CHUNK);
	b.order = calloc(b.nfiles, sizeof(unsigned));
	if (!b.buf || !b.order) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		goto out;
	}
	/* disk_room says why when the room is not there; a create test's
	 * repetitions keep their files until it ends (make_gen) */
	fbytes = (uint64_t)b.nfiles * b.fmax * (uint64_t)harness_estimate_reps(&ctx->h->cfg);
	if (disk_room(ctx, 0, b.size > fbytes ? b.size : fbytes) < 0)
		goto out;
	if (scratch_file_in(b.path, sizeof(b.path), disk_dir(ctx, 0), "bonnie.data") < 0 ||
	    (size_t)snprintf(b.fdir, sizeof(b.fdir), "%s/files", disk_dir(ctx, 0)) >= sizeof(b.fdir)) {
		snprintf(ctx->reason, sizeof(ctx->reason), "no scratch directory");
		goto out;
	}
	if (mkdir(b.fdir, 0700) < 0) {
		disk_fail(ctx, b.label, "mkdir", b.fdir, -1, errno);
		b.fdir[0] = 0;
		goto out;
	}
	b.oldest = 1;
	if (make_gen(&b) < 0)
		goto out;
	journal = disk_facts(ctx, disk_dir(ctx, 0));
	result_param_num(ctx->res, "size_bytes", (double)b.size);
	result_param_num(ctx->res, "chunk_bytes", CHUNK);
	result_param_num(ctx->res, "seeks", SEEKS);
	result_param_num(ctx->res, "seekers", SEEKERS);
	result_param_num(ctx->res, "files", dk->files);
	result_param_num(ctx->res, "file_dirs", b.ndirs);
	result_param_num(ctx->res, "file_max_bytes", (double)b.fmax);
	result_param_num(ctx->res, "file_min_bytes", (double)b.fmin);
	result_param_str(ctx->res, "direct", "no");
	result_param_str(ctx->res, "csv", dk->csv ? dk->csv : "2");
	result_param_str(ctx->res, "dir", b.label);
	b.made = b.size;
	result_param_str(ctx->res, "per_char", dk->no_char ? "no" : "yes");
	for (t = 0; t < (int)(sizeof(tests) / sizeof(tests[0])); t++) {
		struct long_op lo = {
			.name = tests[t].name, .unit = tests[t].unit, .kind = tests[t].kind,
			.better = BETTER_HIGHER, .state = &b, .prepare = tests[t].prepare,
			.op = tests[t].op,
			.total = tests[t].kind == KIND_BANDWIDTH ? (double)b.size :
				 tests[t].op == op_seeks ? SEEKS : (double)b.nfiles,
		};

		if (dk->no_char && tests[t].per_char)
			continue;
		if (harness_long(ctx, &lo, NULL) < 0)
			goto out;
		if (strcmp(tests[t].unit, "files/s") != 0)	/* the tests of the data file */
			disk_cache_check(ctx, tests[t].name, 1, b.size, mem);
	}
	if (journal == 0)
		for (t = 0; t < 2; t++)
			result_note(ctx->res, t ? "ran create" : "seq create",
				    "no journal: a new inode skips those freed in the last seconds "
				    "to minutes (recently_deleted), so creating soon after many "
				    "deletions, by anyone, costs several times more");
	result_param_num(ctx->res, "seed", (double)(b.seed & 0xffffffffu));
	rc = 0;
out:
	disk_workers_stop(&b.ws);
	if (b.fd >= 0)
		close(b.fd);
	if (b.path[0])
		unlink(b.path);
	if (b.gfd >= 0)
		close(b.gfd);
	if (b.order && b.fdir[0]) {
		for (; b.oldest <= b.gen; b.oldest++)
			remove_gen(&b, b.oldest);
		rmdir(b.fdir);
	}
	free(b.order);
	free(b.buf);
	return rc;
}

/* For the progress line: about sixteen tests' repetitions of --runtime
 * or of --size at about 300 MB/s (the block and per-character ones,
 * seeks, the six file tests and the files' creation), as timed. */
static double bonnie_estimate(const struct bench_opts *opt, const struct harness_cfg *cfg, double fig_s)
{
	(void)fig_s;
	return 16.0 * harness_estimate_reps(cfg) * disk_pass_estimate(opt);
}

const struct bench bench_disk_bonnie = {
	.id = "disk.bonnie", .group = "disk", .title = "bonnie: putc, block, rewrite, seeks, files",
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH, .long_mode = 1,
	.run = bonnie_run,
	.estimate = bonnie_estimate,
};
