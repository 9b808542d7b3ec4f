/* vm-mmap.c — mappings of a cached file (lmbench lat_mmap, lat_pagefault,
 * bw_mmap_rd). The file, of --map-size bytes in the scratch directory, is
 * written, fsynced and read once in setup, so every page is in the page
 * cache and no figure includes disk I/O.
 *
 * vm.mmap.lat (lat_mmap): one operation is mmap of the whole file
 * (read/write, shared), a one-byte store every 16 KiB over the first tenth
 * of it, and munmap, in us — lat_mmap's default pattern (its -r variant
 * touches the whole map every 160 KiB). The touches make faults on the new
 * mapping part of the figure, not only the bookkeeping of mmap itself.
 * One untimed pass in setup counts its page faults (getrusage), recorded
 * with the bytes walked per fault: how much one fault maps depends on how
 * the page cache holds the file (Linux large folios, fault-around).
 *
 * vm.pagefault (lat_pagefault): one pass is mmap (read-only, shared),
 * reading one byte of every page in a shuffled order, munmap. Like
 * lmbench 3, the cost of mmap+munmap of the untouched mapping is measured
 * separately and subtracted, and the rest divided by the pages touched:
 * us per page. The kernel may map several cached pages per fault (Linux
 * "fault-around" maps up to 16), so the minor faults of one pass are
 * counted with getrusage and recorded (faults_per_pass, bytes_per_fault),
 * with the cost per actual fault as a second figure.
 *
 * vm.mmap.reread (bw_mmap_rd in mmap_only mode, the lmbench summary's
 * "Mmap reread"): the file is mapped once in setup and faulted in; one
 * operation sums every 64-bit word of the mapping; MB/s (10^6) counting
 * the file's bytes once; a note when the file is under 4x the LLC.
 *
 * Every loop over the whole file (faulting in, summing, a fault pass)
 * checks for Ctrl-C at least every 16 MiB or 4096 pages. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include "harness.h"
#include "result.h"
#include "scratch.h"
#include "vm.h"

#define TOUCH_STRIDE (16 << 10)	/* lat_mmap's PSIZE */
#define TOUCH_PART 10		/* lat_mmap touches the first 1/N of the map */

struct map_state {
	int fd;
	size_t size;
	char *map;		/* vm.mmap.reread: the mapping kept across ops */
	size_t *offs;		/* vm.pagefault: page offsets, shuffled */
	size_t npages;
	char path[PATH_MAX];
};

static void map_teardown(void *state)
{
	struct map_state *s = state;

	if (s->map)
		munmap(s->map, s->size);
	if (s->fd >= 0)
		close(s->fd);
	if (s->path[0])
		unlink(s->path);
	free(s->offs);
	free(s);
}

static struct map_state *map_state_new(struct bench_ctx *ctx, const char *tag)
{
	struct map_state *s = harness_state(ctx, sizeof(*s));

	if (!s)
		return NULL;
	s->fd = vm_file_create(ctx, tag, s->path, sizeof(s->path), &s->size);
	if (s->fd < 0) {
		map_teardown(s);
		return NULL;
	}
	return s;
}

/* --- vm.mmap.lat ------------------------------------------------------- */

static int lat_op(void *state, uint64_t n);

static int lat_setup(struct bench_ctx *ctx, void **state)
{
	struct map_state *s = map_state_new(ctx, "mmap");
	double mi0, ma0, mi1, ma1;
	size_t touched;

	if (!s)
		return -1;
	*state = s;
	touched = s->size / TOUCH_PART;
	result_param_num(ctx->res, "touch_stride_bytes", TOUCH_STRIDE);
	result_param_num(ctx->res, "touched_bytes", (double)touched);
	result_param_num(ctx->res, "touches_per_pass",
			 (double)((touched + TOUCH_STRIDE - 1) / TOUCH_STRIDE));
	/* One untimed pass: what a timed one faults. */
	if (vm_faults(&mi0, &ma0) == 0 && lat_op(s, 1) == 0 && vm_faults(&mi1, &ma1) == 0)
		vm_record_faults(ctx, mi1 - mi0, ma1 - ma0, (double)touched);
	return 0;
}

/* n times: map the file (prot), write a byte every TOUCH_STRIDE up to
 * end (none when end is 0), unmap. */
static int map_loop(struct map_state *s, uint64_t n, int prot, size_t end)
{
	size_t off;
	uint64_t k, acc = 0;
	char *p;

	for (k = 0; k < n; k++) {
		p = mmap(NULL, s->size, prot, MAP_SHARED, s->fd, 0);
		if (p == MAP_FAILED)
			return -1;
		for (off = 0; off < end; off += TOUCH_STRIDE)
			p[off] = (char)k;
		if (scratch_interrupted()) {
			munmap(p, s->size);
			errno = EINTR;
			return -1;
		}
		acc += (uintptr_t)p;
		if (munmap(p, s->size) < 0)
			return -1;
	}
	bench_use(acc);
	return 0;
}

static int lat_op(void *state, uint64_t n)
{
	struct map_state *s = state;

	return map_loop(s, n, PROT_READ | PROT_WRITE, s->size / TOUCH_PART);
}

const struct bench bench_vm_mmap_lat = {
	.id = "vm.mmap.lat", .group = "vm", .title = "Mmap latency (map, touch, unmap)",
	.unit = "us", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.setup = lat_setup, .op = lat_op, .teardown = map_teardown,
};

/* --- vm.pagefault -------------------------------------------------------- */

static int map_only_op(void *state, uint64_t n)
{
	return map_loop(state, n, PROT_READ, 0);
}

static int fault_pass_op(void *state, uint64_t n)
{
	struct map_state *s = state;
	uint64_t k, acc = 0;
	size_t i;
	volatile char *p;

	for (k = 0; k < n; k++) {
		p = mmap(NULL, s->size, PROT_READ, MAP_SHARED, s->fd, 0);
		if ((void *)p == MAP_FAILED)
			return -1;
		for (i = 0; i < s->npages; i++) {
			acc += (unsigned char)p[s->offs[i]];
			if ((i & 4095) == 4095 && scratch_interrupted()) {
				munmap((void *)p, s->size);
				errno = EINTR;
				return -1;
			}
		}
		if (munmap((void *)p, s->size) < 0)
			return -1;
	}
	bench_use(acc);
	return 0;
}

/* Fisher-Yates with a fixed-seed xorshift: the same scattered order on
 * every run (lat_pagefault shuffles too, seeded by its pid). */
static void shuffle(size_t *v, size_t n)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	size_t i, j, t;

	for (i = n; i > 1; i--) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		j = (size_t)(x % i);
		t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

/* Records a metric derived from the pass samples: (pass - map) / div. */
static int add_derived(struct bench_ctx *ctx, const char *name, const struct metric *pass,
		       double map_us, double div)
{
	double *v = calloc(pass->nsamples ? pass->nsamples : 1, sizeof(double));
	struct metric *m;
	size_t i;

	if (!v)
		return -1;
	for (i = 0; i < pass->nsamples; i++) {
		v[i] = (pass->samples[i] - map_us) / div;
		if (v[i] < 0)
			v[i] = 0;
	}
	m = result_add_metric(ctx->res, name, "us", BETTER_LOWER, v, pass->nsamples);
	free(v);
	if (!m)
		return -1;
	m->iterations = pass->iterations;
	m->overhead_ns = pass->overhead_ns;
	return 0;
}

static int pagefault_run(struct bench_ctx *ctx)
{
	struct map_state *s = map_state_new(ctx, "pagefault");
	struct bench_result mine = { 0 };
	struct bench_ctx sub = *ctx;
	const struct metric *mmap_m, *pass_m;
	struct measure m = {
		.unit = "us", .kind = KIND_LATENCY, .better = BETTER_LOWER,
	};
	long page = sysconf(_SC_PAGESIZE);
	double mi0 = 0, ma0 = 0, mi1 = 0, ma1 = 0, faults;
	struct metric *copy;
	size_t i;
	int rc = -1;

	if (!s)
		return -1;
	if (page <= 0)
		page = 4096;
	s->npages = s->size / (size_t)page;
	s->offs = malloc(s->npages * sizeof(*s->offs));
	if (!s->offs) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		goto out;
	}
	for (i = 0; i < s->npages; i++)
		s->offs[i] = i * (size_t)page;
	shuffle(s->offs, s->npages);
	/* The two timed figures go to a private result: only what is derived
	 * from them (and a copy of the mmap cost) is the benchmark's. */
	sub.res = &mine;
	sub.reason[0] = 0;
	m.state = s;
	m.name = "map";
	m.op = map_only_op;
	if (harness_measure(&sub, &m, NULL) < 0)
		goto fail_sub;
	m.name = "pass";
	m.op = fault_pass_op;
	if (harness_measure(&sub, &m, NULL) < 0)
		goto fail_sub;
	mmap_m = result_metric(&mine, "map");
	pass_m = result_metric(&mine, "pass");
	/* One more pass, untimed, counting its faults. */
	if (vm_faults(&mi0, &ma0) < 0)
		mi0 = ma0 = -1;
	if (fault_pass_op(s, 1) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "%s",
			 errno == EINTR ? "interrupted" : strerror(errno));
		goto out;
	}
	if (mi0 < 0 || vm_faults(&mi1, &ma1) < 0)
		mi1 = mi0, ma1 = ma0;
	faults = (mi1 - mi0) + (ma1 - ma0);
	if (pass_m->st.median <= mmap_m->st.median) {
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "touching %zu pages (%.3g us a pass) costs no more than mmap+munmap "
			 "(%.3g us): nothing to measure", s->npages, pass_m->st.median,
			 mmap_m->st.median);
		goto out;
	}
	if (add_derived(ctx, "", pass_m, mmap_m->st.median, (double)s->npages) < 0)
		goto oom;
	if (faults >= 1 && add_derived(ctx, "fault", pass_m, mmap_m->st.median, faults) < 0)
		goto oom;
	copy = result_add_metric(ctx->res, "map", "us", BETTER_LOWER, mmap_m->samples,
				 mmap_m->nsamples);
	if (!copy)
		goto oom;
	copy->iterations = mmap_m->iterations;
	copy->overhead_ns = mmap_m->overhead_ns;
	result_param_num(ctx->res, "page_bytes", (double)page);
	result_param_num(ctx->res, "pages_touched", (double)s->npages);
	vm_record_faults(ctx, mi1 - mi0, ma1 - ma0, (double)s->size);
	rc = 0;
	goto out;
fail_sub:
	snprintf(ctx->reason, sizeof(ctx->reason), "%s", sub.reason);
	goto out;
oom:
	snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
out:
	result_bench_free(&mine);
	map_teardown(s);
	return rc;
}

const struct bench bench_vm_pagefault = {
	.id = "vm.pagefault", .group = "vm", .title = "Pagefaults on a cached file",
	.unit = "us", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.run = pagefault_run,
};

/* --- vm.mmap.reread ---------------------------------------------------- */

static int rd_setup(struct bench_ctx *ctx, void **state)
{
	struct map_state *s = map_state_new(ctx, "mmrd");
	uint64_t acc = 0;
	void *p;

	if (!s)
		return -1;
	*state = s;
	p = mmap(NULL, s->size, PROT_READ, MAP_SHARED, s->fd, 0);
	if (p == MAP_FAILED) {
		snprintf(ctx->reason, sizeof(ctx->reason), "mmap: %s", strerror(errno));
		return -1;
	}
	s->map = p;
	/* Fault every page in now: the figure is reading a mapping. */
	if (vm_sum_checked(s->map, s->size, &acc) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "interrupted");
		return -1;
	}
	bench_use(acc);
	ctx->bytes_per_op = (double)s->size;
	return 0;
}

static int rd_op(void *state, uint64_t n)
{
	struct map_state *s = state;
	uint64_t k, acc = 0;

	for (k = 0; k < n; k++) {
		if (vm_sum_checked(s->map, s->size, &acc) < 0)
			return -1;
		BENCH_KEEP(acc);
	}
	bench_use(acc);
	return 0;
}

static int rd_run(struct bench_ctx *ctx)
{
	return vm_run_reread(ctx, rd_setup, rd_op, map_teardown);
}

const struct bench bench_vm_mmap_reread = {
	.id = "vm.mmap.reread", .group = "vm", .title = "Mmap reread (mapped once, summed)",
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH,
	.run = rd_run,
};
