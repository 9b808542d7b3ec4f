/* mem-lat.c — memory load latency (lmbench lat_mem_rd), TLB reach (lmbench
 * tlb) and cache-line size (lmbench line), all by chasing pointers.
 *
 * One operation is one load of a dependent chain (p = *p): the next
 * address is the value just loaded, so no two loads overlap and the time
 * per load is the latency of wherever the node lives. op() follows 16
 * links per iteration; the harness subtracts the timer and the loop, and
 * divides by 16. Chains are built and walked once (checked) before timing,
 * which also brings them into the caches and the TLB.
 *
 * mem.lat: 64-byte nodes over buffers from 512 B up, in a random cyclic
 * order (every node once per cycle, so neither the prefetchers nor a short
 * cycle can shortcut the walk) and in address order at a 64 B stride
 * (lmbench's default stride on 64-bit, where the prefetchers do help).
 * The plateaus of the random curve give the latency and extent of each
 * cache level and of main memory.
 * mem.tlb: one node per page, pages in random order, over more and more
 * pages; the first step of the curve is where the pages stop fitting the
 * first-level data TLB.
 * mem.line: pairs of loads, X + s then X, X in random 1 KiB blocks; while
 * s is below the line size the second load hits the line the first one
 * brought in, so the time per load steps up at s = line size. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench.h"
#include "clock.h"
#include "harness.h"
#include "mem-lat.h"
#include "result.h"
#include "stats.h"
#include "sysinfo.h"

#define LAT_NODE 64		/* bytes per node of mem.lat: one cache line */
#define LAT_JUMP 1.4		/* a new plateau starts 40% above the last point */
#define HOPS 16			/* links followed per op() iteration */
#define MAX_POINTS 80

/* ---------- chains ---------- */

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void *memlat_node(const struct memlat_chain *c, size_t k)
{
	size_t off = c->color ? (k * c->color) % c->spacing : 0;

	return c->base + k * c->spacing + off;
}

void *memlat_link(const struct memlat_chain *c, int random, uint64_t *seed)
{
	size_t k, i;

	if (c->nodes == 0)
		return c->base;
	for (k = 0; k < c->nodes; k++)
		*(void **)memlat_node(c, k) = random ? memlat_node(c, k)
						     : memlat_node(c, (k + 1) % c->nodes);
	/* Sattolo: swapping successors, each i with a j strictly below it,
	 * turns the identity into a uniformly random single cycle. */
	if (random)
		for (i = c->nodes - 1; i > 0; i--) {
			void **a = memlat_node(c, i), **b = memlat_node(c, (size_t)(splitmix(seed) % i));
			void *t = *a;

			*a = *b;
			*b = t;
		}
	return memlat_node(c, 0);
}

int memlat_check(const struct memlat_chain *c, size_t *visited)
{
	size_t words = (c->nodes + 63) / 64, count = 1, k;
	uint64_t *seen = calloc(words ? words : 1, sizeof(uint64_t));
	void *start = memlat_node(c, 0), *p;
	int rc = -1;

	*visited = 0;
	if (!seen || c->nodes == 0) {
		free(seen);
		return -1;
	}
	seen[0] = 1;
	for (p = *(void **)start; p != start; p = *(void **)p) {
		char *q = p;

		if (q < c->base || (size_t)(q - c->base) / c->spacing >= c->nodes)
			goto out;
		k = (size_t)(q - c->base) / c->spacing;
		if (q != (char *)memlat_node(c, k) || (seen[k / 64] >> (k % 64)) & 1)
			goto out;
		seen[k / 64] |= (uint64_t)1 << (k % 64);
		count++;
	}
	rc = count == c->nodes ? 0 : -1;
out:
	*visited = count;
	free(seen);
	return rc;
}

static double median_of(const double *v, size_t n)
{
	struct stats st;

	return stats_compute(v, n, &st) == 0 ? st.median : v[n / 2];
}

static double med3(double a, double b, double c)
{
	if (a > b) {
		double t = a;

		a = b;
		b = t;
	}
	return c < a ? a : c > b ? b : c;
}

int memlat_levels(const double *lat, size_t n, double jump, struct memlat_level *lv, int max)
{
	double *s;
	struct memlat_level *raw;
	size_t i, start = 0, nraw = 0, k;
	double ref;
	int out = 0;

	if (n == 0 || max <= 0)
		return 0;
	s = malloc(n * sizeof(double));
	raw = malloc(n * sizeof(*raw));
	if (!s || !raw) {
		free(s);
		free(raw);
		return 0;
	}
	for (i = 0; i < n; i++)
		s[i] = i == 0 || i == n - 1 ? lat[i] : med3(lat[i - 1], lat[i], lat[i + 1]);
	ref = s[0];
	for (i = 1; i < n; i++) {
		if (s[i] > jump * s[i - 1] || s[i] > jump * jump * ref) {
			raw[nraw].first = start;
			raw[nraw++].last = i - 1;
			start = i;
			ref = s[i];
		}
	}
	raw[nraw].first = start;
	raw[nraw++].last = n - 1;
	for (k = 0; k < nraw && out < max; k++) {
		if (raw[k].first == raw[k].last && k > 0 && k + 1 < nraw)
			continue;	/* a transition between two plateaus */
		lv[out] = raw[k];
		lv[out].lat = median_of(lat + raw[k].first, raw[k].last - raw[k].first + 1);
		out++;
	}
	free(s);
	free(raw);
	return out;
}

/* ---------- timing ---------- */

struct chase {
	void **p;
};

#define HOP p = (void **)*p
static int chase_op(void *state, uint64_t n)
{
	struct chase *c = state;
	void **p = c->p;
	uint64_t i;

	for (i = 0; i < n; i++) {
		HOP; HOP; HOP; HOP; HOP; HOP; HOP; HOP;
		HOP; HOP; HOP; HOP; HOP; HOP; HOP; HOP;
	}
	c->p = p;
	bench_use_ptr(p);
	return 0;
}

static int chase_measure(struct bench_ctx *ctx, const char *name, void *start, double *median)
{
	struct chase c = { start };
	struct measure m = {
		.name = name, .unit = "ns", .kind = KIND_LATENCY, .better = BETTER_LOWER,
		.op = chase_op, .state = &c, .ops_per_call = HOPS,
		.detail = 1,	/* a point of a curve; the derived figures are the summary */
	};

	return harness_measure(ctx, &m, median);
}

/* "512B", "1536B", "4K", "1536K", "64M": the shortest exact name. */
static void size_name(char *out, size_t n, const char *prefix, uint64_t b)
{
	if (b >= (1 << 20) && b % (1 << 20) == 0)
		snprintf(out, n, "%s%lluM", prefix, (unsigned long long)(b >> 20));
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(out, n, "%s%lluK", prefix, (unsigned long long)(b >> 10));
	else
		snprintf(out, n, "%s%lluB", prefix, (unsigned long long)b);
}

/* from, 1.5 from, 2 from, 3 from ... up to max (only powers of two when
 * halves is 0). Returns the count. */
static size_t size_list(uint64_t *v, size_t cap, uint64_t from, uint64_t max, int halves)
{
	size_t n = 0;
	uint64_t p;

	for (p = from; p <= max && n < cap; p *= 2) {
		v[n++] = p;
		if (halves && p + p / 2 <= max && n < cap)
			v[n++] = p + p / 2;
	}
	return n;
}

static void *alloc_touched(size_t bytes)
{
	void *p = NULL;

	if (posix_memalign(&p, 4096, bytes))
		return NULL;
	memset(p, 0, bytes);	/* fault every page in before timing */
	return p;
}

/* OS-reported size of the data/unified cache of each level (1..3). */
static int os_caches(const struct sysinfo *si, uint64_t size[4], int *line)
{
	int i, top = 0;

	memset(size, 0, 4 * sizeof(uint64_t));
	*line = 0;
	for (i = 0; i < si->ncache && i < (int)(sizeof si->cache / sizeof si->cache[0]); i++) {
		const struct cache_info *c = &si->cache[i];

		if (strcmp(c->type, "instruction") == 0 || c->level < 1)
			continue;
		if (c->level < 4)
			size[c->level] = c->size;
		if (c->level == 1 && c->line > 0)
			*line = c->line;
		if (c->level > top)
			top = c->level;
	}
	return top;
}

static int chain_failed(struct bench_ctx *ctx, const char *what, uint64_t bytes, size_t seen,
			size_t nodes)
{
	snprintf(ctx->reason, sizeof(ctx->reason),
		 "%s chain over %llu bytes is broken: the walk visited %zu of %zu nodes", what,
		 (unsigned long long)bytes, seen, nodes);
	return -1;
}

/* ---------- mem.lat ---------- */

static int lat_run(struct bench_ctx *ctx)
{
	const struct bench_opts *o = ctx->opt;
	struct sysinfo host;
	const struct sysinfo *si;
	uint64_t os[4], sizes[MAX_POINTS], t0 = clock_ns();
	uint64_t stride_max, rand_max, llc, seed = 0x5eed;
	double lat[MAX_POINTS], main_from = 0;
	struct memlat_level lv[MAX_POINTS];
	size_t nsizes, nrand = 0, i, seen, chain_nodes = 0, chains = 0;
	int nos, oline, nlv, j, rc = -1;
	char *buf = NULL, name[64], note[200];

	si = harness_host(ctx, &host);
	nos = os_caches(si, os, &oline);
	llc = sysinfo_llc_size(si);
	stride_max = o->mem_size;
	if (o->quick && stride_max > (4u << 20))
		stride_max = 4u << 20;
	rand_max = stride_max;
	/* Main memory lies beyond the last cache: follow the random curve to
	 * twice the LLC, within a quarter of RAM shared by the copies. */
	if (!o->quick && llc && 2 * llc > rand_max) {
		uint64_t copies = (uint64_t)(o->parallel > 0 ? o->parallel : 1);
		uint64_t cap = si->mem_total ? si->mem_total / 4 / copies : 2 * llc;
		uint64_t want = 2 * llc < cap ? 2 * llc : cap;

		if (want > rand_max)
			rand_max = want;
	}
	nsizes = size_list(sizes, MAX_POINTS, 512, rand_max, !o->quick);
	if (nsizes == 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "--mem-size below 512 bytes");
		return -1;
	}
	rand_max = sizes[nsizes - 1];
	buf = alloc_touched(rand_max);
	if (!buf) {
		snprintf(ctx->reason, sizeof(ctx->reason), "cannot allocate %llu bytes",
			 (unsigned long long)rand_max);
		return -1;
	}
	result_param_num(ctx->res, "node_bytes", LAT_NODE);
	result_param_num(ctx->res, "stride_bytes", LAT_NODE);
	/* The random curve. Points beyond --mem-size are measured while the
	 * benchmark is under 40 s (their chains take seconds to build). */
	for (i = 0; i < nsizes; i++) {
		struct memlat_chain c = { buf, sizes[i] / LAT_NODE, LAT_NODE, 0 };
		void *start;

		if (sizes[i] > stride_max && clock_ns() - t0 > 40000000000ull) {
			result_param_num(ctx->res, "rand_stopped_at_bytes", (double)sizes[i]);
			break;
		}
		start = memlat_link(&c, 1, &seed);
		if (memlat_check(&c, &seen) < 0) {
			chain_failed(ctx, "random", sizes[i], seen, c.nodes);
			goto out;
		}
		chains++;
		chain_nodes = c.nodes;
		size_name(name, sizeof(name), "rand/", sizes[i]);
		if (chase_measure(ctx, name, start, &lat[i]) < 0)
			goto out;
		nrand = i + 1;
	}
	/* The fixed-stride curve: address order, one line apart. */
	for (i = 0; i < nsizes && sizes[i] <= stride_max; i++) {
		struct memlat_chain c = { buf, sizes[i] / LAT_NODE, LAT_NODE, 0 };
		void *start = memlat_link(&c, 0, &seed);

		if (memlat_check(&c, &seen) < 0) {
			chain_failed(ctx, "stride", sizes[i], seen, c.nodes);
			goto out;
		}
		chains++;
		size_name(name, sizeof(name), "stride/", sizes[i]);
		if (chase_measure(ctx, name, start, NULL) < 0)
			goto out;
	}
	result_param_str(ctx->res, "chain_checked", "yes");
	result_param_num(ctx->res, "chain_nodes", (double)chain_nodes);
	result_param_num(ctx->res, "chains_checked", (double)chains);
	result_param_num(ctx->res, "rand_max_bytes", (double)sizes[nrand - 1]);
	result_param_num(ctx->res, "stride_max_bytes", (double)sizes[i - 1]);
	for (j = 1; j <= 3; j++)
		if (os[j]) {
			snprintf(name, sizeof(name), j == 1 ? "os_L1d_bytes" : "os_L%d_bytes", j);
			result_param_num(ctx->res, name, (double)os[j]);
		}

	/* Plateaus: the first nos are the caches the OS reports, the next one
	 * is main memory; any further step is recorded but not named. */
	nlv = memlat_levels(lat, nrand, LAT_JUMP, lv, MAX_POINTS);
	if (nos == 0)
		nos = nlv > 1 ? nlv - 1 : nlv;
	result_param_num(ctx->res, "levels_found", nlv);
	for (j = 0; j < nlv && j <= nos; j++) {
		struct metric *m;

		if (j < nos)
			snprintf(name, sizeof(name), "L%d", j + 1);
		else
			snprintf(name, sizeof(name), "main");
		/* The level's points are its samples: their median is the figure. */
		m = result_add_metric(ctx->res, name, "ns", BETTER_LOWER, lat + lv[j].first,
				      lv[j].last - lv[j].first + 1);
		if (j < nos) {
			double end = (double)sizes[lv[j].last];

			snprintf(name, sizeof(name), "L%d_end_bytes", j + 1);
			result_param_num(ctx->res, name, end);
			/* A plateau far from the size the OS reports is news: a VM
			 * given a slice of the host's cache, or a cache shared with
			 * busy neighbours. */
			if (m && j + 1 <= 3 && os[j + 1] &&
			    (end > 2.0 * (double)os[j + 1] || 2.0 * end < (double)os[j + 1])) {
				char a[32], b[32];

				size_name(a, sizeof(a), "", sizes[lv[j].last]);
				size_name(b, sizeof(b), "", os[j + 1]);
				snprintf(note, sizeof(note), "plateau ends at %s but the OS reports "
					 "%s: the usable cache differs from the reported one "
					 "(hypervisor partition or shared slice?)", a, b);
				m->note = strdup(note);
			}
		} else {
			main_from = (double)sizes[lv[j].first];
			result_param_num(ctx->res, "main_from_bytes", main_from);
			result_param_num(ctx->res, "main_over_L1", lv[j].lat / lv[0].lat);
			if (m && nlv > j + 1) {
				char sz[32];

				size_name(sz, sizeof(sz), "", sizes[lv[j + 1].first]);
				snprintf(note, sizeof(note), "a further step from %s: %.0f ns "
					 "(TLB misses of a random walk; see mem.tlb)", sz, lv[j + 1].lat);
				m->note = strdup(note);
			}
		}
	}
	if (main_from > 0) {
		result_param_str(ctx->res, "main_measured", "yes");
	} else {
		result_param_str(ctx->res, "main_measured", "no");
		snprintf(note, sizeof(note), "%d plateaus up to %llu bytes for %d cache levels: "
			 "main memory not reached (raise --mem-size)", nlv,
			 (unsigned long long)sizes[nrand - 1], nos);
		result_param_str(ctx->res, "main_note", note);
	}
	rc = 0;
out:
	free(buf);
	return rc;
}

const struct bench bench_mem_lat = {
	.id = "mem.lat", .group = "mem", .title = "Memory load latency (lat_mem_rd)",
	.unit = "ns", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.run = lat_run,
};

/* ---------- mem.tlb ---------- */

static int tlb_run(struct bench_ctx *ctx)
{
	long ps = sysconf(_SC_PAGESIZE);
	size_t page = ps > 0 ? (size_t)ps : 4096, i, n, seen, maxpages;
	uint64_t pages[MAX_POINTS], seed = 0x71b;
	double lat[MAX_POINTS], v;
	struct memlat_level lv[MAX_POINTS];
	char *buf, name[64];
	int nlv, rc = -1;

	/* 64 MiB of address space (4 MiB when quick) at one line per page. */
	maxpages = (ctx->opt->quick ? (4u << 20) : (64u << 20)) / page;
	n = size_list(pages, MAX_POINTS, 4, maxpages, !ctx->opt->quick);
	buf = alloc_touched(pages[n - 1] * page);
	if (!buf) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		/* One node per page, its line moved along by the page index so
		 * the nodes spread over all cache sets instead of one. */
		struct memlat_chain c = { buf, pages[i], page, LAT_NODE };
		void *start = memlat_link(&c, 1, &seed);

		if (memlat_check(&c, &seen) < 0) {
			chain_failed(ctx, "page", pages[i] * page, seen, c.nodes);
			goto out;
		}
		snprintf(name, sizeof(name), "pages/%llu", (unsigned long long)pages[i]);
		if (chase_measure(ctx, name, start, &lat[i]) < 0)
			goto out;
	}
	result_param_num(ctx->res, "page_bytes", (double)page);
	result_param_num(ctx->res, "max_pages", (double)pages[n - 1]);
	nlv = memlat_levels(lat, n, LAT_JUMP, lv, MAX_POINTS);
	if (nlv < 2) {
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "no latency step up to %llu pages: the TLB reaches further",
			 (unsigned long long)pages[n - 1]);
		goto out;
	}
	v = (double)pages[lv[0].last];
	result_add_metric(ctx->res, "", "pages", BETTER_HIGHER, &v, 1);
	result_param_num(ctx->res, "pages", v);
	result_param_num(ctx->res, "reach_bytes", v * (double)page);
	result_param_num(ctx->res, "next_pages", (double)pages[lv[1].first]);
	result_add_metric(ctx->res, "before", "ns", BETTER_LOWER, &lv[0].lat, 1);
	result_add_metric(ctx->res, "after", "ns", BETTER_LOWER, &lv[1].lat, 1);
	rc = 0;
out:
	free(buf);
	return rc;
}

const struct bench bench_mem_tlb = {
	.id = "mem.tlb", .group = "mem", .title = "TLB reach (tlb)",
	.unit = "pages", .better = BETTER_HIGHER, .kind = KIND_LATENCY,
	.run = tlb_run,
};

/* ---------- mem.line ---------- */

#define LINE_BLOCK 1024
static int line_run(struct bench_ctx *ctx)
{
	static const unsigned strides[] = { 8, 16, 32, 64, 128, 256, 512 };
	enum { NS = sizeof strides / sizeof strides[0] };
	struct sysinfo host;
	const struct sysinfo *si;
	uint64_t os[4], bytes, seed = 0x11e;
	double lat[NS], lo, hi, v = 0;
	size_t i, k, seen;
	int oline, rc = -1;
	char *buf, name[32];

	si = harness_host(ctx, &host);
	os_caches(si, os, &oline);
	/* Missing L1 (16 times its size) but hitting L2 (half of it): the
	 * timed miss is an L1 miss, which the L2's pair prefetcher cannot hide. */
	bytes = os[1] ? 16 * os[1] : 512 << 10;
	if (os[2] && bytes > os[2] / 2 && os[2] / 2 >= 4 * os[1])
		bytes = os[2] / 2;
	if (bytes < (64 << 10))
		bytes = 64 << 10;
	bytes -= bytes % LINE_BLOCK;
	buf = alloc_touched(bytes);
	if (!buf) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
	result_param_num(ctx->res, "buffer_bytes", (double)bytes);
	result_param_num(ctx->res, "block_bytes", LINE_BLOCK);
	for (i = 0; i < NS; i++) {
		struct memlat_chain c = { buf, bytes / LINE_BLOCK, LINE_BLOCK, 0 };

		memlat_link(&c, 1, &seed);
		if (memlat_check(&c, &seen) < 0) {
			chain_failed(ctx, "block", bytes, seen, c.nodes);
			goto out;
		}
		/* Split each link: block+s first, then block+0 (downwards, which
		 * the next-line prefetcher does not follow), then the next block. */
		for (k = 0; k < c.nodes; k++) {
			char *b = memlat_node(&c, k);
			void *next = *(void **)b;

			*(void **)(b + strides[i]) = b;
			*(void **)b = (char *)next + strides[i];
		}
		snprintf(name, sizeof(name), "stride/%u", strides[i]);
		if (chase_measure(ctx, name, buf + strides[i], &lat[i]) < 0)
			goto out;
	}
	/* Same-line and next-line levels: medians of the three smallest and
	 * three largest strides (one noisy point cannot move them). The line
	 * is the smallest stride from which every point is past half way up:
	 * noise only adds time, so a slow point below the line is skipped. */
	lo = median_of(lat, 3);
	hi = median_of(lat + NS - 3, 3);
	if (hi < 1.2 * lo) {
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "no latency step between strides 8 and 512 (%.2f -> %.2f ns)", lo, hi);
		goto out;
	}
	for (k = NS; k > 0 && lat[k - 1] >= (lo + hi) / 2; k--)
		v = strides[k - 1];
	result_param_num(ctx->res, "same_line_ns", lo);
	result_param_num(ctx->res, "next_line_ns", hi);
	result_add_metric(ctx->res, "", "B", BETTER_LOWER, &v, 1);
	if (oline) {
		result_param_num(ctx->res, "os_line_bytes", oline);
		result_param_str(ctx->res, "matches_os", (int)v == oline ? "yes" : "no");
	}
	rc = 0;
out:
	free(buf);
	return rc;
}

const struct bench bench_mem_line = {
	.id = "mem.line", .group = "mem", .title = "Cache line size (line)",
	.unit = "B", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.run = line_run,
};
