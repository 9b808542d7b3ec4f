/* fs-lat.c — file creation and deletion (lmbench lat_fs, the lmbench
 * summary's "0K / 10K File Create, Delete" columns).
 *
 * fs.create.0k / fs.create.10k: one operation is one file made as lat_fs
 * makes it: creat(), write() of its bytes (none, or 10 KiB = 10240), close().
 * fs.delete.0k / fs.delete.10k: one operation is one unlink() of such a file.
 * The figure is files per second, as lat_fs prints it (the lmbench summary
 * shows 10^6 / figure, microseconds per file); the percentiles are each
 * file's own time.
 *
 * Each repetition works on a fresh tree in the scratch directory (so on the
 * file system --dir names): FS_PER_DIR files a directory, as lat_fs's default
 * (-n 100), FS_FILES files in all (FS_FILES_QUICK with --quick). Making the
 * directories, and for a delete the files it deletes, is the untimed
 * preparation; so is removing the previous repetition's tree. The names are
 * built before the clock starts. Nothing is synced: like lat_fs, these are
 * the file system's in-memory costs (a journal commit may land inside). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "harness.h"
#include "os.h"
#include "result.h"
#include "scratch.h"

#define FS_PER_DIR 100
#define FS_FILES 2000
#define FS_FILES_QUICK 200
#define FS_NAME 40		/* "/GEN/DIR/FILE" and its NUL, past the root's path */

struct fsl {
	struct bench_ctx *ctx;
	size_t size;		/* bytes written into each file */
	int del;		/* 1: time the unlink()s, 0: the creations */
	int n, ndirs, gen;	/* files, directories a tree, the current tree */
	char root[PATH_MAX];	/* the family's directory; trees are root/GEN */
	char *names;		/* n names of strlen(root) + FS_NAME bytes */
	size_t stride;
	char *buf;
};

static char *name(struct fsl *f, int i)
{
	return f->names + (size_t)i * f->stride;
}

static int fail(struct fsl *f, const char *what, const char *path)
{
	snprintf(f->ctx->reason, sizeof(f->ctx->reason), "%s %.160s: %s", what, path,
		 strerror(errno));
	return -1;
}

/* One file as lat_fs's mkfile makes it. */
static int make_file(struct fsl *f, const char *path)
{
	int fd = creat(path, 0666);

	if (fd < 0)
		return fail(f, "create", path);
	if (f->size && write(fd, f->buf, f->size) != (ssize_t)f->size) {
		if (errno == 0)
			errno = ENOSPC;
		fail(f, "write", path);
		close(fd);
		return -1;
	}
	return close(fd) < 0 ? fail(f, "close", path) : 0;
}

/* Tree gen, with what is left in it (n files, not all of which may
 * exist), removed; untimed. */
static int remove_tree(struct fsl *f, int gen)
{
	char path[PATH_MAX + 32];
	int i;

	for (i = 0; i < f->n; i++) {
		snprintf(path, sizeof(path), "%s/%d/%d/%d", f->root, gen, i / FS_PER_DIR, i % FS_PER_DIR);
		if (unlink(path) < 0 && errno != ENOENT)
			return fail(f, "unlink", path);
	}
	for (i = 0; i < f->ndirs; i++) {
		snprintf(path, sizeof(path), "%s/%d/%d", f->root, gen, i);
		if (rmdir(path) < 0 && errno != ENOENT)
			return fail(f, "rmdir", path);
	}
	snprintf(path, sizeof(path), "%s/%d", f->root, gen);
	if (rmdir(path) < 0 && errno != ENOENT)
		return fail(f, "rmdir", path);
	return 0;
}

/* Untimed: a new tree's directories made and its names built; for a
 * delete, its files made (and the previous tree, emptied, removed). A
 * create leaves its trees until the end, so that no repetition's creations
 * follow its own deletions (fs_note says why that matters). */
static int fs_prepare(void *state, struct long_run *lr)
{
	struct fsl *f = state;
	char path[PATH_MAX + 32];
	int i;

	(void)lr;
	if (f->del && f->gen && remove_tree(f, f->gen) < 0)
		return -1;
	f->gen++;
	snprintf(path, sizeof(path), "%s/%d", f->root, f->gen);
	if (mkdir(path, 0700) < 0)
		return fail(f, "mkdir", path);
	for (i = 0; i < f->ndirs; i++) {
		snprintf(path, sizeof(path), "%s/%d/%d", f->root, f->gen, i);
		if (mkdir(path, 0700) < 0)
			return fail(f, "mkdir", path);
	}
	for (i = 0; i < f->n; i++)
		snprintf(name(f, i), f->stride, "%s/%d/%d/%d", f->root, f->gen, i / FS_PER_DIR,
			 i % FS_PER_DIR);
	for (i = 0; f->del && i < f->n; i++)
		if (make_file(f, name(f, i)) < 0)
			return -1;
	return 0;
}

static int fs_op(void *state, struct long_run *lr)
{
	struct fsl *f = state;
	uint64_t t0 = long_now(lr), t1;
	int i;

	for (i = 0; i < f->n; i++) {
		if (f->del) {
			if (unlink(name(f, i)) < 0)
				return fail(f, "unlink", name(f, i));
		} else {
			if (make_file(f, name(f, i)) < 0)
				return -1;
		}
		t1 = long_now(lr);
		long_lat(lr, t1 - t0);
		t0 = t1;
		if (long_progress(lr, 1) < 0)
			return -1;
	}
	return 0;
}

/* The file system's type as a param; on ext2/3/4 without a journal, a note
 * on the figure: there a new inode skips every one freed in the last 5 s
 * (300 s while its inode-table block is dirty), each looked up in the
 * buffer cache (ext4's recently_deleted()), so creating files soon after
 * deleting many costs several times more (seen here: 280 against 65 us a
 * file, lat_fs alike), whoever deleted them. */
static void fs_note(struct bench_ctx *ctx, const struct fsl *f)
{
	struct os_fs fs;
	char note[300];

	if (os_fs_describe(f->root, &fs) < 0 && !fs.type[0])
		return;
	result_param_str(ctx->res, "fs_type", fs.type);
	if (fs.journal >= 0)
		result_param_str(ctx->res, "fs_journal", fs.journal ? "yes" : "no");
	if (!f->del && fs.journal == 0) {
		snprintf(note, sizeof(note), "%s without a journal: a new inode skips those freed "
			 "in the last seconds (recently_deleted), so files made soon after many were "
			 "deleted, here or by anyone, cost several times more", fs.type);
		result_note(ctx->res, "", note);
	}
}

static int fs_run(struct bench_ctx *ctx, size_t size, int del)
{
	struct fsl f;
	struct long_op lo;
	char dir[40];
	int rc = -1;

	memset(&f, 0, sizeof(f));
	f.ctx = ctx;
	f.size = size;
	f.del = del;
	f.n = ctx->opt->quick ? FS_FILES_QUICK : FS_FILES;
	f.ndirs = (f.n + FS_PER_DIR - 1) / FS_PER_DIR;
	snprintf(dir, sizeof(dir), "fs-lat.%ld", (long)getpid());
	if (scratch_file(f.root, sizeof(f.root), dir) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "no scratch directory for %s", dir);
		return -1;
	}
	if (mkdir(f.root, 0700) < 0)
		return fail(&f, "mkdir", f.root);
	f.stride = strlen(f.root) + FS_NAME;
	f.names = calloc((size_t)f.n, f.stride);
	f.buf = calloc(1, size ? size : 1);
	if (!f.names || !f.buf) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		goto out;
	}
	memset(f.buf, 'f', size);
	result_param_num(ctx->res, "files", f.n);
	result_param_num(ctx->res, "files_per_dir", FS_PER_DIR);
	result_param_num(ctx->res, "file_bytes", (double)size);
	memset(&lo, 0, sizeof(lo));
	lo.name = "";
	lo.unit = ctx->b->unit;
	lo.kind = ctx->b->kind;
	lo.better = ctx->b->better;
	lo.state = &f;
	lo.prepare = fs_prepare;
	lo.op = fs_op;
	lo.total = f.n;
	rc = harness_long(ctx, &lo, NULL);
	if (rc == 0)
		fs_note(ctx, &f);
out:
	for (; f.gen > 0; f.gen--)
		if (remove_tree(&f, f.gen) < 0 && rc == 0)
			rc = -1;
	rmdir(f.root);
	free(f.names);
	free(f.buf);
	return rc;
}

static int fs_create0k_run(struct bench_ctx *ctx) { return fs_run(ctx, 0, 0); }
static int fs_delete0k_run(struct bench_ctx *ctx) { return fs_run(ctx, 0, 1); }
static int fs_create10k_run(struct bench_ctx *ctx) { return fs_run(ctx, 10240, 0); }
static int fs_delete10k_run(struct bench_ctx *ctx) { return fs_run(ctx, 10240, 1); }

#define FS_BENCH(name_, id_, title_) \
	const struct bench bench_##name_ = { \
		.id = id_, .group = "fs", .title = title_, .unit = "files/s", \
		.better = BETTER_HIGHER, .kind = KIND_RATE, .long_mode = 1, .run = name_##_run, \
	};
/* a declared table: the family's four members */
FS_BENCH(fs_create0k, "fs.create.0k", "File create, 0 KB (lat_fs)")
FS_BENCH(fs_delete0k, "fs.delete.0k", "File delete, 0 KB (lat_fs)")
FS_BENCH(fs_create10k, "fs.create.10k", "File create, 10 KB (lat_fs)")
FS_BENCH(fs_delete10k, "fs.delete.10k", "File delete, 10 KB (lat_fs)")
