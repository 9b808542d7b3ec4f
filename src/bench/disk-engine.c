/* disk-engine.c — how disk.rand keeps requests in flight: psync (one
 * pread/pwrite at a time, fio's psync), aio (POSIX aio_read/aio_write and
 * aio_suspend, fio's posixaio; on glibc a pool of threads, not the
 * kernel's) and io_uring (Linux, through its system calls: no liburing,
 * so the build stays cc + libc; submission and completion rings mapped
 * from the kernel, one registered buffer when the kernel allows).
 *
 * A request is a slot: its buffer, its offset, the time it was queued.
 * disk_eng_queue() queues one and submits it (io_uring: one system call
 * a request, as fio), disk_eng_wait() submits what is still queued and
 * waits for at least one completion, each with its latency from queueing
 * to completion (fio's clat plus slat). */
#ifdef __linux__
#define _GNU_SOURCE 1
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "disk.h"
#if defined(__linux__) && !defined(BAKEOFF_NO_LINUX)
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#define HAVE_URING 1
#endif
#if defined(_POSIX_ASYNCHRONOUS_IO) && _POSIX_ASYNCHRONOUS_IO > 0
#include <aio.h>
#define HAVE_AIO 1
#endif

#ifdef HAVE_URING
/* io_uring's kernel interface (linux/io_uring.h, stable since 5.1), spelt
 * out so that the build needs no kernel headers (musl-gcc has none). */
struct ur_sqe {
	uint8_t opcode, flags;
	uint16_t ioprio;
	int32_t fd;
	uint64_t off, addr;
	uint32_t len, rw_flags;
	uint64_t user_data;
	uint16_t buf_index, personality;
	int32_t splice_fd_in;
	uint64_t pad[2];
};
struct ur_cqe {
	uint64_t user_data;
	int32_t res;
	uint32_t flags;
};
struct ur_sq_off {
	uint32_t head, tail, ring_mask, ring_entries, flags, dropped, array, resv1;
	uint64_t resv2;
};
struct ur_cq_off {
	uint32_t head, tail, ring_mask, ring_entries, overflow, cqes, flags, resv1;
	uint64_t resv2;
};
struct ur_params {
	uint32_t sq_entries, cq_entries, flags, sq_thread_cpu, sq_thread_idle, features, wq_fd, resv[3];
	struct ur_sq_off sq_off;
	struct ur_cq_off cq_off;
};
_Static_assert(sizeof(struct ur_sqe) == 64, "io_uring sqe is 64 bytes");
_Static_assert(sizeof(struct ur_params) == 120, "io_uring params are 120 bytes");
enum {
	UR_OP_READV = 1, UR_OP_WRITEV = 2, UR_OP_READ_FIXED = 4, UR_OP_WRITE_FIXED = 5,
	UR_ENTER_GETEVENTS = 1, UR_FEAT_SINGLE_MMAP = 1, UR_REGISTER_BUFFERS = 0,
	/* completions' work run by the submitting task when it asks for
	 * events, not by interrupting it (5.19, 6.0, 6.1; fio sets them) */
	UR_SETUP_COOP_TASKRUN = 1 << 8, UR_SETUP_SINGLE_ISSUER = 1 << 12, UR_SETUP_DEFER_TASKRUN = 1 << 13,
};
#define UR_OFF_SQ_RING 0ull
#define UR_OFF_CQ_RING 0x8000000ull
#define UR_OFF_SQES 0x10000000ull
#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#define SYS_io_uring_enter 426
#define SYS_io_uring_register 427
#endif

struct uring {
	int fd, fixed, deferred;
	void *sq_map, *cq_map;
	size_t sq_len, cq_len;
	struct ur_sqe *sqes;
	size_t sqes_len;
	uint32_t *sq_head, *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
	struct ur_cqe *cqes;
	unsigned queued;
	struct iovec *iov;
};
#endif

struct disk_eng_slot {
	char *buf;
	int64_t off;
	uint64_t t;
	int wr, busy;
#ifdef HAVE_AIO
	struct aiocb cb;
#endif
};

#ifdef HAVE_URING
static void uring_close(struct uring *u)
{
	if (u->sqes)
		munmap(u->sqes, u->sqes_len);
	if (u->cq_map && u->cq_map != u->sq_map)
		munmap(u->cq_map, u->cq_len);
	if (u->sq_map)
		munmap(u->sq_map, u->sq_len);
	if (u->fd >= 0)
		close(u->fd);
	free(u->iov);
	free(u);
}

static int uring_open(struct disk_eng *e, char *why, size_t n)
{
	static const uint32_t flags[] = {
		UR_SETUP_COOP_TASKRUN | UR_SETUP_SINGLE_ISSUER | UR_SETUP_DEFER_TASKRUN, UR_SETUP_COOP_TASKRUN, 0,
	};
	struct ur_params p;
	struct uring *u = calloc(1, sizeof(*u));
	char *sq, *cq;

	if (!u) {
		snprintf(why, n, "out of memory");
		return -1;
	}
	u->fd = -1;
	/* the newest flags this kernel takes: each older kernel refuses the
	 * ones it does not know with EINVAL */
	for (size_t f = 0; f < sizeof(flags) / sizeof(flags[0]) && u->fd < 0; f++) {
		memset(&p, 0, sizeof(p));
		p.flags = flags[f];
		u->fd = (int)syscall(SYS_io_uring_setup, (unsigned)e->depth, &p);
		u->deferred = u->fd >= 0 && (flags[f] & UR_SETUP_DEFER_TASKRUN);
		if (u->fd < 0 && errno != EINVAL)
			break;
	}
	if (u->fd < 0) {
		int err = errno;

		snprintf(why, n, "io_uring_setup: %s%s", strerror(err),
			 err == ENOSYS ? " (this kernel has no io_uring)" :
			 err == EPERM ? " (forbidden here: kernel.io_uring_disabled, or a seccomp filter)" : "");
		free(u);
		return -1;
	}
	u->sq_len = p.sq_off.array + p.sq_entries * sizeof(uint32_t);
	u->cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct ur_cqe);
	if ((p.features & UR_FEAT_SINGLE_MMAP) && u->cq_len > u->sq_len)
		u->sq_len = u->cq_len;
	u->sq_map = mmap(NULL, u->sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, u->fd,
			 (off_t)UR_OFF_SQ_RING);
	if (u->sq_map == MAP_FAILED) {
		u->sq_map = NULL;
		goto fail;
	}
	if (p.features & UR_FEAT_SINGLE_MMAP) {
		u->cq_map = u->sq_map;
	} else {
		u->cq_map = mmap(NULL, u->cq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, u->fd,
				 (off_t)UR_OFF_CQ_RING);
		if (u->cq_map == MAP_FAILED) {
			u->cq_map = NULL;
			goto fail;
		}
	}
	u->sqes_len = p.sq_entries * sizeof(struct ur_sqe);
	u->sqes = mmap(NULL, u->sqes_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, u->fd,
		       (off_t)UR_OFF_SQES);
	if (u->sqes == MAP_FAILED) {
		u->sqes = NULL;
		goto fail;
	}
	sq = u->sq_map;
	cq = u->cq_map;
	u->sq_head = (uint32_t *)(sq + p.sq_off.head);
	u->sq_tail = (uint32_t *)(sq + p.sq_off.tail);
	u->sq_mask = (uint32_t *)(sq + p.sq_off.ring_mask);
	u->sq_array = (uint32_t *)(sq + p.sq_off.array);
	u->cq_head = (uint32_t *)(cq + p.cq_off.head);
	u->cq_tail = (uint32_t *)(cq + p.cq_off.tail);
	u->cq_mask = (uint32_t *)(cq + p.cq_off.ring_mask);
	u->cqes = (struct ur_cqe *)(cq + p.cq_off.cqes);
	/* One registered buffer per slot (fixed buffers: no page pinning per
	 * request); where the kernel refuses (RLIMIT_MEMLOCK), plain vectors. */
	u->iov = calloc((size_t)e->depth, sizeof(*u->iov));
	if (!u->iov)
		goto fail;
	for (int k = 0; k < e->depth; k++) {
		u->iov[k].iov_base = e->slot[k].buf;
		u->iov[k].iov_len = e->bs;
	}
	u->fixed = syscall(SYS_io_uring_register, u->fd, UR_REGISTER_BUFFERS, u->iov, (unsigned)e->depth) == 0;
	e->uring = u;
	return 0;
fail:
	snprintf(why, n, "io_uring: mapping its rings: %s", strerror(errno));
	uring_close(u);
	return -1;
}

/* Submit what is queued, waiting for wait completions; what the kernel
 * did not take stays queued for the next call. */
static long uring_enter(struct uring *u, unsigned wait)
{
	long ret = syscall(SYS_io_uring_enter, u->fd, u->queued, wait, UR_ENTER_GETEVENTS, NULL, 0);

	if (ret > 0)
		u->queued -= (unsigned)ret < u->queued ? (unsigned)ret : u->queued;
	return ret;
}

static int uring_queue(struct disk_eng *e, int k)
{
	struct uring *u = e->uring;
	uint32_t tail = *u->sq_tail, i = tail & *u->sq_mask;
	struct ur_sqe *s = &u->sqes[i];
	struct disk_eng_slot *sl = &e->slot[k];

	memset(s, 0, sizeof(*s));
	s->fd = e->fd;
	s->off = (uint64_t)sl->off;
	s->user_data = (uint64_t)k;
	if (u->fixed) {
		s->opcode = sl->wr ? UR_OP_WRITE_FIXED : UR_OP_READ_FIXED;
		s->addr = (uint64_t)(uintptr_t)sl->buf;
		s->len = (uint32_t)e->bs;
		s->buf_index = (uint16_t)k;
	} else {
		s->opcode = sl->wr ? UR_OP_WRITEV : UR_OP_READV;
		s->addr = (uint64_t)(uintptr_t)&u->iov[k];
		s->len = 1;
	}
	u->sq_array[i] = i;
	__atomic_store_n(u->sq_tail, tail + 1, __ATOMIC_RELEASE);
	u->queued++;
	/* Submitted at once, one request a call, as fio does (iodepth_batch_
	 * submit=1, its default): requests handed over together went out
	 * together, and their latencies bunched round the mean (p50 up to
	 * 1.3x fio's at the same IOPS; docs/peers.md). What the kernel does
	 * not take now, uring_wait() submits. */
	uring_enter(u, 0);
	return 0;
}

/* Completions first; what is still queued is submitted without waiting (the
 * call also runs the completions' deferred work, so the next look finds
 * them, as fio's io_uring engine works); only with nothing to submit and
 * nothing completed does the call wait for one completion. */
static int uring_wait(struct disk_eng *e, struct disk_eng_done *d, int max)
{
	struct uring *u = e->uring;
	uint32_t head;
	int got = 0;

	for (;;) {
		head = *u->cq_head;
		while (got < max && head != __atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE)) {
			struct ur_cqe *c = &u->cqes[head & *u->cq_mask];

			d[got].slot = (int)c->user_data;
			d[got].res = c->res;
			d[got].t_done = disk_now();
			got++;
			head++;
		}
		__atomic_store_n(u->cq_head, head, __ATOMIC_RELEASE);
		if (got && !u->queued)
			return got;
		if (uring_enter(u, got || u->queued ? 0u : 1u) < 0) {
			if (errno == EINTR || errno == EAGAIN || errno == EBUSY)
				continue;
			return -1;
		}
		if (got)
			return got;
	}
}
#endif

#ifdef HAVE_AIO
static int aio_queue(struct disk_eng *e, int k)
{
	struct disk_eng_slot *sl = &e->slot[k];

	memset(&sl->cb, 0, sizeof(sl->cb));
	sl->cb.aio_fildes = e->fd;
	sl->cb.aio_buf = sl->buf;
	sl->cb.aio_nbytes = e->bs;
	sl->cb.aio_offset = (off_t)sl->off;
	sl->cb.aio_sigevent.sigev_notify = SIGEV_NONE;
	return sl->wr ? aio_write(&sl->cb) : aio_read(&sl->cb);
}

/* Completions first (aio_error on each request in flight, as fio's
 * posixaio does), aio_suspend only when none has completed yet, on at most
 * AIO_SUSPEND_MAX of them (the first in slot order, fio's SUSPEND_ENTRIES).
 * glibc's helper thread, which serves one file's requests one at a time,
 * wakes the waiter for each listed request it completes: on all 32, that
 * was a futex call a request on the helper's path (1.0 against fio's
 * 0.25) and 0.87 of fio's IOPS (median of six rounds); on 8, about one
 * wake-up every four completions, as fio (docs/peers.md). A request reaped
 * late is stamped when it is reaped, as fio stamps it. */
enum { AIO_SUSPEND_MAX = 8 };
static int aio_wait(struct disk_eng *e, struct disk_eng_done *d, int max)
{
	const struct aiocb *list[AIO_SUSPEND_MAX];
	int n, got, k;

	for (;;) {
		for (n = got = k = 0; k < e->depth; k++) {
			struct disk_eng_slot *sl = &e->slot[k];
			int err;

			if (!sl->busy)
				continue;
			if (got == max || (err = aio_error(&sl->cb)) == EINPROGRESS) {
				if (n < AIO_SUSPEND_MAX)
					list[n++] = &sl->cb;
				continue;
			}
			d[got].slot = k;
			d[got].res = err ? -err : (int)aio_return(&sl->cb);
			if (err)
				aio_return(&sl->cb);
			d[got].t_done = disk_now();
			got++;
		}
		if (got || !n)
			return got;
		if (aio_suspend(list, n, NULL) < 0 && errno != EINTR && errno != EAGAIN)
			return -1;
	}
}
#endif

static int psync_queue(struct disk_eng *e, int k)
{
	struct disk_eng_slot *sl = &e->slot[k];
	ssize_t r = sl->wr ? pwrite(e->fd, sl->buf, e->bs, (off_t)sl->off) : pread(e->fd, sl->buf, e->bs, (off_t)sl->off);

	e->done_now.slot = k;
	e->done_now.t_done = disk_now();
	e->done_now.res = r < 0 ? -errno : (int)r;
	e->have_done = 1;
	return 0;
}

static int open_one(struct disk_eng *e, int kind, int fd, int depth, size_t bs, char *why, size_t n)
{
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->fd = fd;
	e->depth = depth;
	e->bs = bs;
	e->slot = calloc((size_t)depth, sizeof(*e->slot));
	if (!e->slot) {
		snprintf(why, n, "out of memory");
		return -1;
	}
	for (int k = 0; k < depth; k++)
		if (!(e->slot[k].buf = disk_buf(bs))) {
			snprintf(why, n, "out of memory");
			goto fail;
		}
	switch (kind) {
	case ENG_PSYNC:
		if (depth == 1)
			return 0;
		snprintf(why, n, "psync keeps one request in flight, not %d", depth);
		break;
	case ENG_AIO:
#ifdef HAVE_AIO
		return 0;
#else
		snprintf(why, n, "aio: this system has no POSIX AIO");
#endif
		break;
	case ENG_URING:
#ifdef HAVE_URING
		if (uring_open(e, why, n) == 0)
			return 0;
#else
		snprintf(why, n, "io_uring: Linux only");
#endif
		break;
	default:
		snprintf(why, n, "no such engine");
	}
fail:
	disk_eng_close(e);
	return -1;
}

int disk_eng_open(struct disk_eng *e, int kind, int fd, int depth, size_t bs, char *why, size_t n)
{
	char said[400] = "", no[200];
	size_t len;

	if (kind != ENG_AUTO)
		return open_one(e, kind, fd, depth, bs, why, n);
	for (kind = ENG_URING; kind >= ENG_PSYNC; kind--) {	/* the best that works here */
		if (open_one(e, kind, fd, depth, bs, no, sizeof(no)) == 0) {
			memcpy(e->fallback, said, sizeof(e->fallback));
			return 0;
		}
		len = strlen(said);
		snprintf(said + len, sizeof(said) - len, "%s%s", len ? "; " : "", no);
	}
	snprintf(why, n, "%s", said);
	return -1;
}

const char *disk_eng_describe(const struct disk_eng *e, char *out, size_t n)
{
	const char *how = "";

#ifdef HAVE_URING
	if (e->kind == ENG_URING)
		how = ((struct uring *)e->uring)->fixed ?
			      (((struct uring *)e->uring)->deferred ? " (registered buffers, deferred task work)"
								     : " (registered buffers)")
			      : " (buffers not registered)";
#endif
#if defined(HAVE_AIO) && defined(__GLIBC__)
	if (e->kind == ENG_AIO)
		how = " (glibc: a pool of threads doing pread/pwrite, not the kernel's AIO)";
#endif
	snprintf(out, n, "%s%s", disk_engine_name(e->kind), how);
	return out;
}

int disk_eng_queue(struct disk_eng *e, int k, int wr, int64_t off)
{
	struct disk_eng_slot *sl = &e->slot[k];

	sl->wr = wr;
	sl->off = off;
	sl->busy = 1;
	sl->t = disk_now();
	e->inflight++;
	switch (e->kind) {
#ifdef HAVE_URING
	case ENG_URING: return uring_queue(e, k);
#endif
#ifdef HAVE_AIO
	case ENG_AIO: return aio_queue(e, k);
#endif
	default: return psync_queue(e, k);
	}
}

int disk_eng_wait(struct disk_eng *e, struct disk_eng_done *d, int max)
{
	int got;

	if (e->inflight == 0)
		return 0;
	switch (e->kind) {
#ifdef HAVE_URING
	case ENG_URING: got = uring_wait(e, d, max); break;
#endif
#ifdef HAVE_AIO
	case ENG_AIO: got = aio_wait(e, d, max); break;
#endif
	default:
		got = e->have_done;
		if (got)
			d[0] = e->done_now;
		e->have_done = 0;
	}
	for (int i = 0; i < got; i++) {
		struct disk_eng_slot *sl = &e->slot[d[i].slot];

		d[i].lat = d[i].t_done > sl->t ? d[i].t_done - sl->t : 1;
		d[i].off = sl->off;
		d[i].wr = sl->wr;
		sl->busy = 0;
		e->inflight--;
	}
	return got;
}

char *disk_eng_buf(struct disk_eng *e, int k)
{
	return e->slot[k].buf;
}

void disk_eng_close(struct disk_eng *e)
{
	struct disk_eng_done d[64];

	/* Reap what is in flight before the buffers go (the kernel or aio's
	 * threads may still write into them). */
	while (e->slot && e->inflight > 0 && disk_eng_wait(e, d, 64) > 0)
		;
#ifdef HAVE_URING
	if (e->uring)
		uring_close(e->uring);
#endif
	if (e->slot)
		for (int k = 0; k < e->depth; k++)
			free(e->slot[k].buf);
	free(e->slot);
	e->uring = NULL;
	e->slot = NULL;
}
