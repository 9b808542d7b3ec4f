/* disk-common.c — what the disk benchmarks share (see disk.h): the run's
 * disk set-up (the --dir list, one scratch directory per entry, the room
 * check, the --device and --destroy-data rules), the guard's tmpfs
 * warning, direct opens with fallback, user-worded failures, the file
 * system facts, the cache checks, and worker processes for streams and
 * jobs that run at once. */
#ifdef __linux__
#define _GNU_SOURCE 1	/* O_DIRECT */
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "clock.h"
#include "disk.h"
#include "guard.h"
#include "options.h"
#include "os.h"
#include "registry.h"
#include "scratch.h"
#include "sysinfo.h"
#include "units.h"

#define MIB ((uint64_t)1 << 20)

uint64_t disk_now(void)
{
	return clock_ns();
}

void disk_bs_label(char *out, size_t n, uint64_t bs)
{
	if (bs >= MIB && bs % MIB == 0)
		snprintf(out, n, "%lluM", (unsigned long long)(bs / MIB));
	else if (bs >= 1024 && bs % 1024 == 0)
		snprintf(out, n, "%lluk", (unsigned long long)(bs / 1024));
	else
		snprintf(out, n, "%llu", (unsigned long long)bs);
}

/* ---------- set-up by run ---------- */

static int selected(const unsigned char *sel, const char *id)
{
	size_t i, l = strlen(id);

	for (i = 0; i < registry_count; i++)
		if (sel[i] && strncmp(registry[i]->id, id, l) == 0 &&
		    (registry[i]->id[l] == 0 || registry[i]->id[l] == '.'))
			return 1;
	return 0;
}

int disk_prepare(struct bench_opts *opt, const char *dirlist, const unsigned char *sel,
		 char *err, size_t errlen)
{
	struct disk_opts *dk = disk_opts(opt);
	static char lists[PATH_MAX * 2];
	char *p, *comma, a[32], b[32], c[32];
	const char *parents[BENCH_MAX_LIST];
	int n = 0, k, streams = opt->streams > 0 ? opt->streams : 1;
	struct stat st;

	if (!selected(sel, "disk"))
		return 0;
	if (selected(sel, "disk.bonnie") && dk->csv && strcmp(dk->csv, "1.03") &&
	    strcmp(dk->csv, "2")) {
		snprintf(err, errlen, "invalid value '%s' for --csv: expected 1.03 (bonnie++ 1.03, "
			 "27 columns) or 2 (bonnie++ 2.00a, format 1.98)", dk->csv);
		return -1;
	}
	if (dk->destroy && !dk->device) {
		snprintf(err, errlen, "--destroy-data only applies with --device DEV");
		return -1;
	}
	if (dk->device) {
		int fd;

		if (stat(dk->device, &st) < 0) {
			snprintf(err, errlen, "--device %s: %s", dk->device, strerror(errno));
			return -1;
		}
		if (!S_ISBLK(st.st_mode)) {
			snprintf(err, errlen, "--device %s: not a block device", dk->device);
			return -1;
		}
		fd = open(dk->device, (dk->destroy ? O_RDWR : O_RDONLY) | O_CLOEXEC);
		if (fd < 0) {
			snprintf(err, errlen, "--device %s: cannot open it %s: %s", dk->device,
				 dk->destroy ? "for writing" : "for reading", strerror(errno));
			return -1;
		}
		close(fd);
		if (dk->destroy)
			fprintf(stderr, "bakeoff: WARNING: --destroy-data: disk.seq will overwrite the "
				"first %llu bytes of %s; whatever it holds is lost\n",
				(unsigned long long)dk->size, dk->device);
	}
	/* The --dir list: its entries must exist and be writable directories. */
	if ((size_t)snprintf(lists, sizeof(lists), "%s", dirlist && *dirlist ? dirlist : ".") >=
	    sizeof(lists)) {
		snprintf(err, errlen, "--dir: list too long");
		return -1;
	}
	for (p = lists; p && n <= BENCH_MAX_LIST; p = comma ? comma + 1 : NULL) {
		if ((comma = strchr(p, ',')))
			*comma = 0;
		if (!*p)
			continue;
		if (n == BENCH_MAX_LIST) {
			snprintf(err, errlen, "--dir: at most %d directories", BENCH_MAX_LIST);
			return -1;
		}
		if (stat(p, &st) < 0) {
			snprintf(err, errlen, "--dir %s: %s", p, strerror(errno));
			return -1;
		}
		if (!S_ISDIR(st.st_mode) || access(p, W_OK | X_OK) < 0) {
			snprintf(err, errlen, "--dir %s: %s", p,
				 S_ISDIR(st.st_mode) ? "not writable" : "not a directory");
			return -1;
		}
		parents[n++] = p;
	}
	if (n == 0) {
		snprintf(err, errlen, "--dir: expected a directory");
		return -1;
	}
	if (streams < n)
		streams = n;	/* disk.seq runs one stream per --dir entry */
	/* Room: the benchmarks run one after another and each removes its files,
	 * so an entry needs what the largest one writes there. */
	for (k = 0; k < n; k++) {
		uint64_t need = 0, have, s = dk->size;
		int here = streams / n + (k < streams % n);

		if (selected(sel, "disk.seq") && !dk->device)
			need = s * (uint64_t)(here > 1 ? here : 1);
		if (k == 0 && (selected(sel, "disk.rand") || selected(sel, "disk.bonnie") ||
			       selected(sel, "disk.iozone")) && s > need)
			need = s;
		if (k == 0 && selected(sel, "disk.iozone") && dk->max_size > need)
			need = dk->max_size;	/* its auto-mode file, after its single one */
		need *= (uint64_t)(opt->parallel > 0 ? opt->parallel : 1);
		if (need && os_fs_free(parents[k], &have) == 0 && need > have) {
			fmt_size(a, sizeof(a), s);
			fmt_size(b, sizeof(b), need);
			fmt_size(c, sizeof(c), have);
			snprintf(err, errlen, "--size %s needs %s in %s%s, which has %s free", a, b,
				 parents[k], here > 1 ? " (one file per stream)" : "", c);
			return -1;
		}
	}
	for (k = 0; k < n; k++) {
		scratch_reap_stale(parents[k]);
		if (!(dk->dirs[k] = scratch_add(parents[k]))) {
			snprintf(err, errlen, "--dir %s: cannot create a scratch directory there: %s",
				 parents[k], strerror(errno));
			return -1;
		}
		dk->parents[k] = parents[k];
	}
	dk->ndirs = n;
	return 0;
}

/* tmpfs, ramfs, or an overlay whose upper layer is on one. */
static const char *memory_fs(const char *path)
{
	struct os_fs fs;
	const char *u;
	char upper[256];
	size_t l;

	if (os_fs_describe(path, &fs) < 0 && !fs.type[0])
		return NULL;
	if (strcmp(fs.type, "tmpfs") == 0 || strcmp(fs.type, "ramfs") == 0)
		return fs.type[0] == 't' ? "tmpfs" : "ramfs";
	if (strcmp(fs.type, "overlay") == 0 && (u = strstr(fs.options, "upperdir="))) {
		u += 9;
		l = strcspn(u, ",");
		if (l >= sizeof(upper))
			return NULL;
		memcpy(upper, u, l);
		upper[l] = 0;
		if (os_fs_describe(upper, &fs) == 0 &&
		    (strcmp(fs.type, "tmpfs") == 0 || strcmp(fs.type, "ramfs") == 0))
			return "an overlay on tmpfs";
	}
	return NULL;
}

void disk_guard(struct guard *g, const struct bench_opts *opt)
{
	const struct disk_opts *dk = disk_opts(opt);
	int k;
	const char *m;

	for (k = 0; k < dk->ndirs; k++)
		if ((m = memory_fs(dk->dirs[k])))
			result_add_finding(g, "--dir %s is on %s: this measures memory, not a disk",
					   dk->parents[k], m);
	if (dk->cache)
		result_add_finding(g, "--cache: the disk figures measure the page cache on purpose");
	guard_judge(g);
}

/* ---------- files ---------- */

const char *disk_dir(const struct bench_ctx *ctx, int k)
{
	const struct bench_opts *o = ctx->opt;
	const struct disk_opts *dk = disk_opts(o);

	return dk->ndirs ? dk->dirs[k % dk->ndirs] : o->scratch;
}

const char *disk_parent(const struct bench_ctx *ctx, int k)
{
	const struct bench_opts *o = ctx->opt;
	const struct disk_opts *dk = disk_opts(o);

	return dk->ndirs ? dk->parents[k % dk->ndirs] : o->scratch;
}

int disk_want_direct(const struct bench_opts *opt)
{
	const struct disk_opts *dk = disk_opts(opt);
	if (dk->no_direct || dk->cache)
		return 0;
	return dk->direct ? 1 : -1;
}

int disk_open(struct bench_ctx *ctx, struct disk_file *f, int k, const char *name, int flags,
	      int want)
{
	int fl = flags | O_CREAT | O_CLOEXEC;

	f->fd = -1;
	f->direct = 0;
	f->stream = k;
	if (scratch_file_in(f->path, sizeof(f->path), disk_dir(ctx, k), name) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "no scratch directory for %s", name);
		return -1;
	}
#ifdef O_DIRECT
	if (want) {
		f->fd = open(f->path, fl | O_DIRECT, 0600);
		if (f->fd >= 0) {
			f->direct = 1;
			return 0;
		}
		if (errno != EINVAL || want > 0) {
			if (errno == EINVAL)
				snprintf(ctx->reason, sizeof(ctx->reason), "--direct: the file system of "
					 "%s refuses O_DIRECT", disk_parent(ctx, k));
			else
				disk_fail(ctx, disk_parent(ctx, k), "open", f->path, -1, errno);
			unlink(f->path);
			return -1;
		}
	}
#else
	if (want > 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "--direct: no O_DIRECT on this system");
		return -1;
	}
#endif
	f->fd = open(f->path, fl, 0600);
	if (f->fd < 0)
		return disk_fail(ctx, disk_parent(ctx, k), "open", f->path, -1, errno);
	return 0;
}

void disk_close(struct disk_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	if (f->path[0])
		unlink(f->path);
	f->path[0] = 0;
}

int disk_fail(struct bench_ctx *ctx, const char *dir_label, const char *what, const char *file,
	      int64_t off, int err)
{
	const char *base = file ? strrchr(file, '/') : NULL;

	base = base ? base + 1 : file ? file : "";
	if (err == ENOSPC || err == EDQUOT)
		snprintf(ctx->reason, sizeof(ctx->reason), "no space left on %s%s", dir_label,
			 err == EDQUOT ? " (quota)" : "");
	else if (err == EINTR && scratch_interrupted())
		snprintf(ctx->reason, sizeof(ctx->reason), "interrupted");
	else if (off >= 0)
		snprintf(ctx->reason, sizeof(ctx->reason), "%s error (%s) at offset %lld of %s in %s",
			 what, err == EIO ? "EIO" : strerror(err), (long long)off, base, dir_label);
	else
		snprintf(ctx->reason, sizeof(ctx->reason), "%s %s in %s: %s", what, base, dir_label,
			 strerror(err));
	return -1;
}

void *disk_buf(size_t n)
{
	return disk_buf_pages(n, n >= 64 * 1024);
}

void *disk_buf_pages(size_t n, int huge)
{
	void *p = NULL;
	uint64_t x = 0x9e3779b97f4a7c15ull, *w;
	size_t i, align = huge ? 2 * MIB : 4096, size = n ? n : 1;

	/* From 64 KiB up: 2 MiB-aligned, whole 2 MiB pages, hinted huge; a
	 * direct 1 MiB call then reaches the device as one request. In
	 * scattered 4 KiB pages it needs 256 segments, and a device that
	 * takes fewer (virtio-blk: 254) gets two requests of half the size,
	 * by the luck of the page allocator (docs/benchmarks.md). */
	size = (size + align - 1) / align * align;
	if (posix_memalign(&p, align, size) != 0)
		return NULL;
	if (align > 4096)
		os_hint_huge(p, size);
	w = p;
	for (i = 0; i < n / 8; i++) {	/* xorshift: incompressible, never a zero block */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		w[i] = x;
	}
	return p;
}

/* ---- random block order (fio's random map) ---- */

static uint64_t perm_rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void perm_rekey(struct disk_perm *p)
{
	int j;

	for (j = 0; j < 3; j++)
		p->k[j] = perm_rnd(&p->x);
	p->i = 0;
}

void disk_perm_init(struct disk_perm *p, uint64_t n, uint64_t seed)
{
	unsigned bits = 1;

	p->n = n ? n : 1;
	while (bits < 64 && (1ull << bits) < p->n)
		bits++;
	p->mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
	p->shift = bits / 2 + 1;
	p->x = seed | 1;
	perm_rekey(p);
}

/* A bijection on [0, mask]: adding a key, multiplying by an odd key and
 * x ^= x >> s are each one, so rounds of them are too. */
static uint64_t perm_mix(const struct disk_perm *p, uint64_t v)
{
	int j;

	for (j = 0; j < 3; j++) {
		v = (v + p->k[j]) & p->mask;
		v = (v * (p->k[(j + 1) % 3] | 1)) & p->mask;
		v ^= v >> p->shift;
	}
	return v;
}

uint64_t disk_perm_next(struct disk_perm *p)
{
	uint64_t v;

	if (p->i >= p->n)
		perm_rekey(p);	/* a pass is over: a new order */
	/* Cycle walking: i < n starts a walk that ends at the first value of
	 * its cycle below n, which makes a bijection of [0, n); with mask
	 * + 1 < 2n the walk takes under two steps on average. */
	v = perm_mix(p, p->i++);
	while (v >= p->n)
		v = perm_mix(p, v);
	return v;
}

void disk_evict(int fd)
{
	fdatasync(fd);
#ifdef POSIX_FADV_DONTNEED
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
#endif
}

int disk_fill(struct bench_ctx *ctx, struct disk_file *f, uint64_t size)
{
	size_t bs = MIB;
	char *buf = disk_buf(bs);
	uint64_t off = 0;
	ssize_t r;

	if (!buf) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
	while (off < size) {
		size_t want = size - off < bs ? (size_t)(size - off) : bs;

		if (scratch_interrupted()) {
			free(buf);
			snprintf(ctx->reason, sizeof(ctx->reason), "interrupted");
			return -1;
		}
		if (f->direct && want % 4096)
			want = (want + 4095) / 4096 * 4096;
		r = pwrite(f->fd, buf, want, (off_t)off);
		if (r <= 0) {
			free(buf);
			return disk_fail(ctx, disk_parent(ctx, f->stream), "write", f->path,
					 (int64_t)off, r < 0 ? errno : ENOSPC);
		}
		off += (uint64_t)r;
	}
	free(buf);
	if (fsync(f->fd) < 0)
		return disk_fail(ctx, disk_parent(ctx, f->stream), "fsync", f->path, -1, errno);
	return 0;
}

int disk_room(struct bench_ctx *ctx, int k, uint64_t need)
{
	uint64_t have;
	char a[32], b[32];

	if (os_fs_free(disk_dir(ctx, k), &have) < 0 || need <= have)
		return 0;
	fmt_size(a, sizeof(a), need);
	fmt_size(b, sizeof(b), have);
	snprintf(ctx->reason, sizeof(ctx->reason), "needs %s in %s, which has %s free", a,
		 disk_parent(ctx, k), b);
	return -1;
}

int disk_facts(struct bench_ctx *ctx, const char *path)
{
	struct os_fs fs;

	if (os_fs_describe(path, &fs) < 0 && !fs.type[0] && !fs.device[0])
		return -1;
	const struct {
		const char *name, *value;
	} facts[] = {
		{ "fs_type", fs.type }, { "fs_source", fs.source }, { "fs_mount", fs.mount_point },
		{ "fs_options", fs.options }, { "device", fs.device }, { "device_model", fs.model },
		{ "rotational", fs.rotational < 0 ? "" : fs.rotational ? "yes" : "no" },
		{ "scheduler", fs.scheduler },
		{ "fs_journal", fs.journal < 0 ? "" : fs.journal ? "yes" : "no" },
	};
	for (size_t i = 0; i < sizeof(facts) / sizeof(facts[0]); i++)
		if (facts[i].value[0])
			result_param_str(ctx->res, facts[i].name, facts[i].value);
	return fs.journal;
}

double disk_mem_ceiling(void)
{
	size_t n = 64 * MIB;
	char *a = malloc(n), *b = malloc(n);
	double best = 0;
	int i;

	if (a && b) {
		memset(a, 1, n);
		memset(b, 2, n);
		for (i = 0; i < 3; i++) {
			uint64_t t0 = clock_ns(), t;

			memcpy(b, a, n);
			bench_use((uint64_t)(unsigned char)b[n / 2]);
			t = clock_ns() - t0;
			if (t > 0 && (double)n / ((double)t / 1e9) / 1e6 > best)
				best = (double)n / ((double)t / 1e9) / 1e6;
		}
	}
	free(a);
	free(b);
	return best;
}

void disk_cache_check(struct bench_ctx *ctx, const char *name, int buffered, uint64_t file_bytes,
		      double mem_mbs)
{
	struct bench_result *br = ctx->res;
	struct sysinfo tmp;
	const struct sysinfo *si = harness_host(ctx, &tmp);
	char why[200] = "";
	size_t i;

	for (i = 0; i < br->nmetrics && strcmp(br->metrics[i].name, name); i++)
		;
	if (i == br->nmetrics)
		return;
	if (disk_opts(ctx->opt)->cache) {
		snprintf(why, sizeof(why), "the page cache (--cache), not the disk");
	} else if (buffered && si->mem_total && file_bytes < 2 * si->mem_total) {
		char a[32], b[32];

		fmt_size(a, sizeof(a), file_bytes);
		fmt_size(b, sizeof(b), si->mem_total);
		snprintf(why, sizeof(why), "cached? buffered on a %s file, under 2x RAM (%s)", a, b);
		br->metrics[i].cache_suspect = 1;
	} else if (mem_mbs > 0 && strcmp(br->metrics[i].unit, "MB/s") == 0 &&
		   br->metrics[i].st.median > mem_mbs) {
		snprintf(why, sizeof(why), "cached? faster than memory copies (%.0f MB/s)", mem_mbs);
		br->metrics[i].cache_suspect = 1;
	}
	if (why[0] && !br->metrics[i].note)
		br->metrics[i].note = strdup(why);
}

/* ---------- workers ---------- */

enum { MSG_PROGRESS = 1, MSG_DONE, MSG_FAIL };
/* A message is one write() to the pipe all workers share, so at most
 * PIPE_BUF bytes (written whole, never interleaved): 508 latencies on
 * Linux, where a queue depth of 32 completes 100,000 requests a second
 * and each message wakes the parent. */
#ifndef PIPE_BUF
#define PIPE_BUF 512
#endif
#define MSG_LATS ((PIPE_BUF - 32) / 8)

struct msg {
	int32_t kind, k, nlat, pad;
	double amount, secs;
	union {
		uint64_t lat[MSG_LATS];
		char reason[MSG_LATS * 8];
	} u;
};

_Static_assert(sizeof(struct msg) <= PIPE_BUF, "a worker's message is one atomic pipe write");

static volatile sig_atomic_t stop_asked;

static void on_stop(int sig)
{
	(void)sig;
	stop_asked = 1;
}

struct disk_worker {
	int fd, k, orphan;
	uint64_t t0, last;
	struct msg m;
	double total;
};

static void send_msg(struct disk_worker *w)
{
	ssize_t r = write(w->fd, &w->m, sizeof(w->m));

	(void)r;	/* the parent gone: the next report notices nothing; it kills us */
	w->m.amount = 0;
	w->m.nlat = 0;
	w->last = clock_ns();
	w->orphan = getppid() == 1;
}

int disk_worker_report(struct disk_worker *w, double amount, uint64_t lat_ns)
{
	w->m.kind = MSG_PROGRESS;
	w->m.amount += amount;
	w->total += amount;
	if (lat_ns)
		w->m.u.lat[w->m.nlat++] = lat_ns;
	if (w->m.nlat == MSG_LATS || clock_ns() - w->last >= 50000000ull)
		send_msg(w);
	return w->orphan || stop_asked;
}

uint64_t disk_worker_t0(const struct disk_worker *w)
{
	return w->t0;
}

void disk_worker_fail(struct disk_worker *w, const char *reason)
{
	if (w->m.nlat || w->m.amount > 0)
		send_msg(w);
	w->m.kind = MSG_FAIL;
	snprintf(w->m.u.reason, sizeof(w->m.u.reason), "%s", reason);
	send_msg(w);
}

void disk_workers_init(struct disk_workers *ws)
{
	memset(ws, 0, sizeof(*ws));
	ws->go[0] = ws->go[1] = ws->msg[0] = ws->msg[1] = -1;
}

int disk_workers_start(struct bench_ctx *ctx, struct disk_workers *ws, int n, disk_worker_fn fn,
		       void *arg)
{
	int k;

	memset(ws->pid, 0, sizeof(ws->pid));
	ws->n = 0;
	ws->go[0] = ws->go[1] = ws->msg[0] = ws->msg[1] = -1;
	if (n > 64 || pipe(ws->go) < 0 || pipe(ws->msg) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "pipe: %s", strerror(errno));
		disk_workers_stop(ws);
		return -1;
	}
	for (k = 0; k < n; k++) {
		pid_t pid = harness_fork();

		if (pid < 0) {
			snprintf(ctx->reason, sizeof(ctx->reason), "fork: %s", strerror(errno));
			disk_workers_stop(ws);
			return -1;
		}
		if (pid == 0) {
			struct disk_worker w;
			struct sigaction sa;
			char c;
			int rc;

			memset(&sa, 0, sizeof(sa));
			sa.sa_handler = on_stop;	/* the parent's time is up (--steady-state) */
			sigemptyset(&sa.sa_mask);
			sigaction(SIGUSR2, &sa, NULL);
			memset(&w, 0, sizeof(w));
			close(ws->go[1]);
			close(ws->msg[0]);
			w.fd = ws->msg[1];
			w.k = k;
			w.m.k = k;
			if (read(ws->go[0], &c, 1) != 1)
				_exit(0);
			w.t0 = w.last = clock_ns();
			rc = fn(&w, k, arg);
			if (w.m.nlat || w.m.amount > 0)
				send_msg(&w);
			if (rc == 0) {
				w.m.kind = MSG_DONE;
				w.m.amount = w.total;
				w.m.secs = (double)(clock_ns() - w.t0) / 1e9;
				send_msg(&w);
			}
			_exit(0);
		}
		ws->pid[k] = pid;
		ws->n = ws->nlast = k + 1;
	}
	close(ws->go[0]);
	close(ws->msg[1]);
	ws->go[0] = ws->msg[1] = -1;
	return 0;
}

int disk_workers_run(struct bench_ctx *ctx, struct disk_workers *ws, struct long_run *lr)
{
	char go[64];
	int done = 0, stopped = 0, i, r;
	struct msg m;
	struct pollfd p;

	memset(go, 'g', sizeof(go));
	if (write(ws->go[1], go, (size_t)ws->n) != ws->n) {
		snprintf(ctx->reason, sizeof(ctx->reason), "cannot start the workers");
		return -1;
	}
	while (done < ws->n) {
		p.fd = ws->msg[0];
		p.events = POLLIN;
		p.revents = 0;
		r = poll(&p, 1, 100);
		if (r == 0) {
			if (long_progress(lr, 0) < 0)
				return -1;
			continue;
		}
		if (r < 0) {
			if (errno == EINTR && long_progress(lr, 0) >= 0)
				continue;
			return -1;
		}
		r = (int)read(ws->msg[0], &m, sizeof(m));
		if (r == 0) {
			snprintf(ctx->reason, sizeof(ctx->reason), "a worker died");
			return -1;
		}
		if (r != (int)sizeof(m))
			continue;
		if (m.kind == MSG_FAIL) {
			m.u.reason[sizeof(ctx->reason) - 1] = 0;
			memcpy(ctx->reason, m.u.reason, sizeof(ctx->reason));
			return -1;
		}
		if (m.kind == MSG_DONE && m.k >= 0 && m.k < ws->n) {
			ws->bytes[m.k] = m.amount;
			ws->secs[m.k] = m.secs;
			done++;
			continue;
		}
		for (i = 0; i < m.nlat && i < MSG_LATS; i++)
			if (ws->classes)
				long_class(lr, (m.u.lat[i] & DISK_LAT_CLASS1) != 0, 1, m.u.lat[i] & ~DISK_LAT_CLASS1);
			else
				long_lat(lr, m.u.lat[i]);
		if ((r = long_progress(lr, m.amount)) < 0)
			return -1;
		/* --steady-state: the workers run until the harness's time is
		 * up (the ramp's length is not known when they start) */
		if (r == 1 && !stopped && ctx->h->cfg.ss_window_ns) {
			for (i = 0; i < ws->n; i++)
				if (ws->pid[i] > 0)
					kill(ws->pid[i], SIGUSR2);
			stopped = 1;
		}
	}
	/* Reaped inside the timing, so their CPU time counts (RUSAGE_CHILDREN). */
	for (i = 0; i < ws->n; i++)
		if (ws->pid[i] > 0 && waitpid(ws->pid[i], NULL, 0) == ws->pid[i])
			ws->pid[i] = 0;
	return 0;
}

void disk_workers_stop(struct disk_workers *ws)
{
	int k;

	for (k = 0; k < ws->n; k++) {
		if (ws->pid[k] > 0) {
			kill(ws->pid[k], SIGKILL);
			waitpid(ws->pid[k], NULL, 0);
		}
		ws->pid[k] = 0;
	}
	ws->n = 0;
	for (k = 0; k < 2; k++) {
		if (ws->go[k] >= 0)
			close(ws->go[k]);
		if (ws->msg[k] >= 0)
			close(ws->msg[k]);
		ws->go[k] = ws->msg[k] = -1;
	}
}

void disk_workers_record(struct bench_ctx *ctx, const struct disk_workers *ws, const char *name,
			 double scale)
{
	struct bench_result *br = ctx->res;
	size_t i;
	int k;

	for (i = 0; i < br->nmetrics && strcmp(br->metrics[i].name, name); i++)
		;
	if (i == br->nmetrics || ws->nlast < 1 ||
	    !(br->metrics[i].per_copy = calloc((size_t)ws->nlast, sizeof(double))))
		return;
	for (k = 0; k < ws->nlast; k++)
		br->metrics[i].per_copy[k] = ws->secs[k] > 0 ? ws->bytes[k] / ws->secs[k] / scale : 0;
	br->metrics[i].ncopies = (size_t)ws->nlast;
}

double disk_pass_estimate(const struct bench_opts *opt)
{
	const struct disk_opts *dk = disk_opts(opt);
	double pass = (double)dk->size / 300e6, rt = (double)dk->runtime / 1e9;

	return pass < rt ? pass : rt;
}

/* --engine's values, in the order of ENG_* (disk-engine.c runs them). */
static const char *const engine_names[] = { "auto", "psync", "aio", "io_uring" };

int disk_engine_parse(const char *s)
{
	for (int k = 0; k < (int)(sizeof(engine_names) / sizeof(engine_names[0])); k++)
		if (strcmp(s, engine_names[k]) == 0)
			return k;
	return -1;
}

const char *disk_engine_name(int kind)
{
	return kind >= 0 && kind <= ENG_URING ? engine_names[kind] : "?";
}

/* The disk group's contract: its options (struct disk_opts);
 * --file-min at most --file-max (disk_check); a scratch directory under
 * each --dir entry, room checked (disk_prepare); a directory on tmpfs is a
 * finding (disk_guard); no "during" findings (the kernel's writeback
 * threads work for the benchmark); a figure's low %CPU means the device. */
static int disk_check(struct bench_opts *opt, char *err, size_t errlen)
{
	const struct disk_opts *dk = disk_opts(opt);
	char lo[32], hi[32];

	if (disk_engine_parse(dk->engine) < 0) {
		snprintf(err, errlen, "invalid value '%s' for --engine: expected auto, psync, aio or io_uring",
			 dk->engine);
		return -1;
	}
	if (dk->iodepth > DISK_MAX_DEPTH) {
		snprintf(err, errlen, "--iodepth %d is over %d, the most requests io_uring's ring holds "
			 "(IORING_MAX_ENTRIES)", dk->iodepth, DISK_MAX_DEPTH);
		return -1;
	}
	if (dk->file_min <= dk->file_max)
		return 0;
	fmt_size(lo, sizeof(lo), dk->file_min);
	fmt_size(hi, sizeof(hi), dk->file_max);
	snprintf(err, errlen, "--file-min %s is above --file-max %s", lo, hi);
	return -1;
}

#define D(f) OPT_IN(struct disk_opts, f)
static const struct optdef disk_options[] = {
	/* room for --size is checked by disk_prepare, per --dir entry */
	{ "size", OT_SIZE, D(size), "1G", "32M", 64 * OPT_KIB, 1 * OPT_TIB,
	  "disk.seq,disk.rand,disk.bonnie,disk.iozone",
	  "file size of the disk benchmarks (bytes read with --device; disk.iozone's single file)",
	  RES_NONE, 0, 0, 0 },
	{ "block-sizes", OT_SIZE_LIST, OPT_IN_LIST(struct disk_opts, bs, nbs),
	  "4k,16k,32k,64k,128k,256k,512k,1M", NULL, 512, 64 * OPT_MIB, "disk.seq",
	  "disk.seq's block sizes (dd's bs=)", RES_NONE, 0, 0, 0 },
	{ "runtime", OT_DURATION, D(runtime), "1s", "500ms", 100 * OPT_MS, 86400 * OPT_S,
	  "disk.seq,disk.rand,disk.bonnie,disk.iozone",
	  "a pass stops at --size or after this long, whichever comes first (fio's size "
	  "and runtime); disk.rand runs this long", RES_NONE, 0, 0, 0 },
	{ "direct", OT_FLAG, D(direct), NULL, NULL, 0, 1, "disk.seq,disk.rand,disk.iozone",
	  "O_DIRECT or fail (default: O_DIRECT where the file system takes it)", RES_NONE, 0, 0, 0 },
	{ "no-direct", OT_FLAG, D(no_direct), NULL, NULL, 0, 1, "disk.seq,disk.rand,disk.iozone",
	  "buffered I/O through the page cache", RES_NONE, 0, 0, 0 },
	{ "jobs", OT_UINT, D(jobs), "4", "2", 1, 64, "disk.rand",
	  "disk.rand's concurrent jobs, each at queue depth 1 (besides one job alone)", RES_NONE, 0, 0, 0 },
	{ "iodepth", OT_UINT, D(iodepth), "32", NULL, 1, 1 << 20, "disk.rand",
	  "disk.rand's requests in flight for its QD rows (fio's iodepth); 1: no QD rows",
	  RES_NONE, 0, 0, 0 },
	{ "rwmix", OT_UINT, D(rwmix), NULL, NULL, 1, 99, "disk.rand",
	  "add a mixed row to disk.rand: this % of its requests are reads, the rest writes, at "
	  "--iodepth (fio's rw=randrw rwmixread=)", RES_NONE, 0, 0, 0 },
	{ "engine", OT_STRING, D(engine), "auto", NULL, 1, 16, "disk.rand",
	  "how requests are issued: psync (pread/pwrite), aio (POSIX AIO), io_uring, or auto "
	  "(io_uring where it works, else aio; psync for the QD1 rows)", RES_NONE, 0, 0, 0 },
	{ "device", OT_STRING, D(device), NULL, NULL, 1, 4095, "disk.seq",
	  "read this block device sequentially (read-only) instead of files", RES_NONE, 0, 0, 0 },
	{ "destroy-data", OT_FLAG, D(destroy), NULL, NULL, 0, 1, "disk.seq",
	  "with --device: also write to it, destroying what it holds", RES_NONE, 0, 0, 0 },
	{ "csv", OT_STRING, D(csv), "2", NULL, 1, 4, "disk.bonnie",
	  "bonnie++ CSV line: 1.03 (27 columns) or 2 (format 1.98, bonnie++ 2.00a)", RES_NONE, 0, 0, 0 },
	{ "files", OT_UINT, D(files), "16", "1", 1, 1024, "disk.bonnie",
	  "bonnie's file tests: N x 1024 files (bonnie++ -n)", RES_NONE, 0, 0, 0 },
	{ "file-dirs", OT_UINT, D(file_dirs), "1", NULL, 1, 1024, "disk.bonnie",
	  "spread the files over D directories", RES_NONE, 0, 0, 0 },
	{ "file-max", OT_SIZE, D(file_max), "0", NULL, 0, 1 * OPT_GIB, "disk.bonnie",
	  "bonnie's files get a random size up to this, written as each is created "
	  "(bonnie++ -n N:MAX:MIN); 0: empty files", RES_NONE, 0, 0, 0 },
	{ "file-min", OT_SIZE, D(file_min), "0", NULL, 0, 1 * OPT_GIB, "disk.bonnie",
	  "smallest of those random sizes (at most --file-max)", RES_NONE, 0, 0, 0 },
	{ "no-char", OT_FLAG, D(no_char), NULL, NULL, 0, 1, "disk.bonnie",
	  "skip the per-character tests, putc and getc (bonnie++ -f)", RES_NONE, 0, 0, 0 },
	{ "cache", OT_FLAG, D(cache), NULL, NULL, 0, 1, "disk",
	  "measure the page cache on purpose: small warm files, figures labelled cache", RES_NONE, 0, 0, 0 },
	{ "max-size", OT_SIZE, D(max_size), "4M", "1M", 64 * OPT_KIB, 1 * OPT_TIB, "disk.iozone",
	  "disk.iozone's largest auto-mode file (iozone -g); sizes double from 64k", RES_NONE, 0, 0, 0 },
};
#undef D

static const char *const disk_exclusive[][3] = {
	{ "direct", "no-direct", "O_DIRECT or the page cache, not both" },
	{ NULL, NULL, NULL },
};

const struct bench_group group_disk = {
	.name = "disk", .flags = GROUP_NO_DURING_GUARD | GROUP_IO, .noise = NOISE_DISK,
	.options = disk_options, .noptions = sizeof(disk_options) / sizeof(disk_options[0]),
	.opt_size = sizeof(struct disk_opts), .exclusive = disk_exclusive,
	.begin = disk_check, .prepare = disk_prepare, .guard = disk_guard,
};
