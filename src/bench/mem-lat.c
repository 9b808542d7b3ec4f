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
 * cache level and of main memory (memlat_read); one more walk in address
 * order at a 128 B stride over the largest buffer is lmbench's "Main mem"
 * (its getsummary reads the stride-128 curve's last point).
 * mem.tlb: one node per page, pages in random order, over more and more
 * pages; the first step of the curve is where the pages stop fitting the
 * first-level data TLB.
 * mem.line: pairs of loads, X + s then X, X in random 1 KiB blocks; while
 * s is below the line size the second load hits the line the first one
 * brought in, so the time per load steps up at s = line size. The curve is
 * repeated and the repetitions vote.
 *
 * Setting up takes seconds for large buffers (faulting pages in, shuffling
 * millions of nodes), so every such loop checks for SIGINT/SIGTERM. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "bench.h"
#include "clock.h"
#include "harness.h"
#include "mem-lat.h"
#include "result.h"
#include "scratch.h"
#include "stats.h"
#include "sysinfo.h"
#include "vm.h"

#define LAT_NODE 64		/* bytes per node of mem.lat: one cache line */
#define LAT_JUMP 1.4		/* a new plateau starts 40% above the last point */
#define HOPS 16			/* links followed per op() iteration */
#define MAX_POINTS 80
#define STRIDE_LMBENCH 128	/* the stride of lmbench's "Main mem" */
#define INTR_EVERY 65536	/* nodes linked or checked between interrupt checks */

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

/* k's low bits reversed (bits of them). */
static size_t bitrev(size_t k, int bits)
{
	size_t r = 0;
	int b;

	for (b = 0; b < bits; b++)
		r |= (k >> b & 1) << (bits - 1 - b);
	return r;
}

/* MEMLAT_PAGES: the pages (4 KiB of nodes) in a random order, and each
 * page's nodes, before the next page's, in lmbench's order: node indexes
 * bit-reversed (0, 32, 16, 48, 8, ... of 64), the same in every page. A
 * random order within the page made one chaser's load take 38-48 ns on
 * a Zen 3 guest, against 65-93 ns bit-reversed (128 MiB, docs/peers.md):
 * not a miss per load. */
static void *link_by_page(const struct memlat_chain *c, uint64_t *seed)
{
	size_t per = c->spacing < 4096 ? 4096 / c->spacing : 1, npages = (c->nodes + per - 1) / per;
	size_t *page = malloc(npages * sizeof(size_t)), line[4096], i, j, k, span = 1;
	void **prev = NULL, **first = NULL;
	int bits = 0;

	if (!page)
		return NULL;
	while (span < per)	/* per <= 4096: so is span */
		span <<= 1, bits++;
	for (i = 0; i < npages; i++)
		page[i] = i;
	for (i = npages; i > 1; i--) {	/* Fisher-Yates */
		size_t r = (size_t)(splitmix(seed) % i), t = page[i - 1];

		page[i - 1] = page[r];
		page[r] = t;
	}
	for (i = 0; i < npages; i++) {
		size_t at = page[i] * per, n = c->nodes - at < per ? c->nodes - at : per;

		if (i % 256 == 0 && scratch_interrupted()) {
			free(page);
			return NULL;
		}
		for (j = k = 0; j < span; j++)	/* a short last page: the indexes below n */
			if (bitrev(j, bits) < n)
				line[k++] = at + bitrev(j, bits);
		for (j = 0; j < n; j++) {
			void **node = memlat_node(c, line[j]);

			if (prev)
				*prev = node;
			else
				first = node;
			prev = node;
		}
	}
	*prev = first;	/* close the cycle */
	free(page);
	return memlat_node(c, 0);
}

void *memlat_link(const struct memlat_chain *c, int random, uint64_t *seed)
{
	size_t k, i;

	if (c->nodes == 0)
		return c->base;
	if (random == MEMLAT_PAGES)
		return link_by_page(c, seed);
	for (k = 0; k < c->nodes; k++) {
		if (k % INTR_EVERY == 0 && scratch_interrupted())
			return NULL;
		*(void **)memlat_node(c, k) = random ? memlat_node(c, k)
						     : memlat_node(c, (k + 1) % c->nodes);
	}
	/* Sattolo: swapping successors, each i with a j strictly below it,
	 * turns the identity into a uniformly random single cycle. */
	if (random)
		for (i = c->nodes - 1; i > 0; i--) {
			void **a = memlat_node(c, i), **b = memlat_node(c, (size_t)(splitmix(seed) % i));
			void *t = *a;

			if (i % INTR_EVERY == 0 && scratch_interrupted())
				return NULL;
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
		if (count % INTR_EVERY == 0 && scratch_interrupted())
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
	raw[0].ramp = 0;
	for (i = 1; i < n; i++) {
		if (s[i] > jump * s[i - 1] || s[i] > jump * jump * ref) {
			raw[nraw].first = start;
			raw[nraw++].last = i - 1;
			raw[nraw].ramp = !(s[i] > jump * s[i - 1]);
			start = i;
			ref = s[i];
		}
	}
	raw[nraw].first = start;
	raw[nraw++].last = n - 1;
	for (k = 0; k < nraw && out < max; k++) {
		if (raw[k].first == raw[k].last && k > 0 && k + 1 < nraw) {
			/* a transition between two plateaus: a jump into it is a
			 * jump into the next */
			raw[k + 1].ramp = raw[k + 1].ramp && raw[k].ramp;
			continue;
		}
		lv[out] = raw[k];
		lv[out].lat = median_of(lat + raw[k].first, raw[k].last - raw[k].first + 1);
		out++;
	}
	free(s);
	free(raw);
	return out;
}

int memlat_read(const double *lat, const uint64_t *sizes, size_t n, uint64_t llc, int os_levels,
		double jump, struct memlat_reading *rd)
{
	struct memlat_level *lv;
	size_t i;
	int k, m, top;

	memset(rd, 0, sizeof(*rd));
	rd->anchor = n;
	if (n == 0 || !(lv = malloc(n * sizeof(*lv))))
		return -1;
	rd->nlv = memlat_levels(lat, n, jump, lv, (int)n);
	if (rd->nlv == 0) {
		free(lv);
		return -1;
	}
	/* The plateau that must be main memory: the one holding the first
	 * point at 4 x LLC or beyond (no cache holds it), or else the last. */
	for (i = 0; llc && i < n; i++)
		if (sizes[i] >= 4 * llc) {
			rd->anchor = i;
			break;
		}
	top = rd->nlv - 1;
	if (rd->anchor < n)
		for (k = 0; k < rd->nlv; k++)
			if (lv[k].last >= rd->anchor) {
				top = k;
				break;
			}
	/* Back over the steps inside main memory (page walks once the walk
	 * outgrows the TLB): a rise the plateau finder split only by its
	 * slow-ramp rule, a step under jump^2, or a plateau starting beyond
	 * the LLC. A cache ends at a capacity edge: a jump between two
	 * points, to a plateau more than jump^2 slower. */
	for (m = top; m > 0; m--)
		if (!(lv[m].ramp || lv[m - 1].lat * jump * jump > lv[m].lat ||
		      (llc && sizes[lv[m - 1].first] > llc)))
			break;
	/* Without a point at 4 x LLC nothing proves the last plateau is not a
	 * cache, unless the curve passes the LLC; below it, main needs as
	 * many plateaus before it as the OS has cache levels and a step of
	 * jump^3 (a VM's split L2 gives more plateaus, each a smaller step). */
	rd->has_main = m > 0 && (rd->anchor < n || (llc && sizes[n - 1] > llc) ||
				 (m >= os_levels && lv[m].lat >= jump * jump * jump * lv[m - 1].lat));
	if (!rd->has_main)
		m = rd->nlv;	/* every plateau is a cache */
	else {
		rd->main.first = lv[m].first;
		rd->main.last = n - 1;
		/* The figure from where no cache holds the walk: past a VM's
		 * slice of a cache, a buffer under 4 x the reported LLC can
		 * still hit in part (points rising from 42 to 120 ns). */
		rd->fig_first = rd->anchor < n && rd->anchor > rd->main.first ? rd->anchor : rd->main.first;
		rd->main.lat = median_of(lat + rd->fig_first, n - rd->fig_first);
		rd->main_first_lat = lv[m].lat;
		rd->main_last_lat = lv[rd->nlv - 1].lat;
	}
	/* The caches: L1 first; with more plateaus than the OS has levels, the
	 * last level is the plateau right before main and the extra ones in
	 * between (a ramp split in two, a VM's partial slice) stay unnamed. */
	for (k = 0; k < m && rd->ncache < MEMLAT_CACHES; k++) {
		if (os_levels >= 2 && m > os_levels && rd->ncache == os_levels - 1 && k < m - 1)
			continue;
		if (os_levels == 1 && m > 1 && k > 0)
			continue;
		rd->cache[rd->ncache++] = lv[k];
	}
	rd->unnamed = m - rd->ncache;
	free(lv);
	return 0;
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

int memlat_chase(struct bench_ctx *ctx, const char *name, void *start, int detail, double *median)
{
	struct chase c = { start };
	struct measure m = {
		.name = name, .unit = "ns", .kind = KIND_LATENCY, .better = BETTER_LOWER,
		.op = chase_op, .state = &c, .ops_per_call = HOPS,
		.detail = detail,	/* a point of a curve; the derived figures are the summary */
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

uint64_t memlat_main_size(const struct bench_opts *o, const struct sysinfo *si)
{
	uint64_t size = o->quick && o->mem_size > (4u << 20) ? 4u << 20 : o->mem_size;
	uint64_t llc = sysinfo_llc_size(si);

	if (!o->quick && llc && 4 * llc > size) {
		uint64_t copies = (uint64_t)(o->parallel > 0 ? o->parallel : 1);
		uint64_t cap = si->mem_total ? si->mem_total / 4 / copies : 4 * llc;
		uint64_t want = 4 * llc < cap ? 4 * llc : cap;

		if (want > size)
			size = want;
	}
	return size;
}

void *memlat_alloc(size_t bytes)
{
	const size_t chunk = 64u << 20;
	void *p = NULL;
	size_t off;

	if (posix_memalign(&p, 4096, bytes))
		return NULL;
	for (off = 0; off < bytes; off += chunk) {
		if (scratch_interrupted()) {
			free(p);
			return NULL;
		}
		memset((char *)p + off, 0, bytes - off < chunk ? bytes - off : chunk);
	}
	return p;
}

/* A line's four ORs from memory (and the loop's three instructions): seven
 * instructions a line, as likwid-bench's load_sse. vm_sum (mem.bw.read's
 * sum: 32 bytes and 8 instructions an iteration) reached 0.85-0.91 of
 * this loop on one Zen 3 core under KVM, whose lines in flight are bounded
 * by the instructions its window holds (docs/peers.md). */
uint64_t memlat_sweep(const uint64_t *w, size_t words)
{
#if defined(__SSE2__)
	const __m128i *p = (const __m128i *)w;
	__m128i a = _mm_setzero_si128(), b = a, c = a, d = a;
	uint64_t v[2], t = 0;
	size_t i;

	if ((uintptr_t)w % 16)	/* aligned loads only: then each is an operand of its OR */
		return vm_sum(w, words * 8);
	for (i = 0; i + 4 <= words / 2; i += 4) {
		a = _mm_or_si128(a, _mm_load_si128(p + i));
		b = _mm_or_si128(b, _mm_load_si128(p + i + 1));
		c = _mm_or_si128(c, _mm_load_si128(p + i + 2));
		d = _mm_or_si128(d, _mm_load_si128(p + i + 3));
	}
	for (i *= 2; i < words; i++)
		t |= w[i];
	_mm_storeu_si128((__m128i *)v, _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d)));
	return v[0] | v[1] | t;
#else
	return vm_sum(w, words * 8);
#endif
}

int memlat_failed(struct bench_ctx *ctx, const char *why, uint64_t bytes)
{
	if (scratch_interrupted())
		snprintf(ctx->reason, sizeof(ctx->reason), "interrupted");
	else
		snprintf(ctx->reason, sizeof(ctx->reason), "%s (%llu bytes)", why,
			 (unsigned long long)bytes);
	return -1;
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

void *memlat_ready(struct bench_ctx *ctx, const struct memlat_chain *c, int random,
			 uint64_t *seed, const char *what)
{
	void *start = memlat_link(c, random, seed);
	size_t seen = 0;

	if (start && memlat_check(c, &seen) == 0)
		return start;
	if (scratch_interrupted())
		snprintf(ctx->reason, sizeof(ctx->reason), "interrupted");
	else
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "%s chain over %llu bytes is broken: the walk visited %zu of %zu nodes",
			 what, (unsigned long long)(c->nodes * c->spacing), seen, c->nodes);
	return NULL;
}

/* ---------- mem.lat ---------- */

/* The figures read off the random curve: L1.., main, and their notes. */
static void lat_levels(struct bench_ctx *ctx, const double *lat, const uint64_t *sizes,
		       size_t n, const uint64_t os[4], int nos, uint64_t llc)
{
	struct memlat_reading rd;
	char name[64], a[32], b[32], from[200], note[240];
	int j;

	if (memlat_read(lat, sizes, n, llc, nos, LAT_JUMP, &rd) < 0)
		return;
	result_param_num(ctx->res, "levels_found", rd.nlv);
	result_param_num(ctx->res, "unnamed_plateaus", rd.unnamed);
	if (rd.anchor < n)
		result_param_num(ctx->res, "main_anchor_bytes", (double)sizes[rd.anchor]);
	for (j = 0; j < rd.ncache; j++) {
		const struct memlat_level *c = &rd.cache[j];
		struct metric *m;

		size_name(a, sizeof(a), "", sizes[c->first]);
		size_name(b, sizeof(b), "", sizes[c->last]);
		snprintf(from, sizeof(from), "the median of the rand curve's plateau %s..%s "
			 "(%zu points)", a, b, c->last - c->first + 1);
		snprintf(name, sizeof(name), "L%d", j + 1);
		m = result_add_derived(ctx->res, name, "ns", BETTER_LOWER, c->lat, from);
		snprintf(name, sizeof(name), "L%d_end_bytes", j + 1);
		result_param_num(ctx->res, name, (double)sizes[c->last]);
		/* A plateau far from the size the OS reports is news: a VM given
		 * a slice of the host's cache, or a cache shared with busy
		 * neighbours. */
		if (m && j < 3 && os[j + 1] &&
		    (sizes[c->last] > 2 * os[j + 1] || 2 * sizes[c->last] < os[j + 1])) {
			size_name(a, sizeof(a), "", sizes[c->last]);
			size_name(b, sizeof(b), "", os[j + 1]);
			snprintf(note, sizeof(note), "plateau ends at %s but the OS reports %s: the "
				 "usable cache differs from the reported one (hypervisor partition "
				 "or shared slice?)", a, b);
			m->note = strdup(note);
		}
	}
	if (!rd.has_main) {
		result_param_str(ctx->res, "main_measured", "no");
		size_name(a, sizeof(a), "", sizes[n - 1]);
		size_name(b, sizeof(b), "", 4 * llc);
		snprintf(note, sizeof(note), "%d plateaus up to %s, none past the caches (4 x LLC "
			 "= %s): main memory not reached (raise --mem-size)", rd.nlv, a, b);
		result_param_str(ctx->res, "main_note", note);
		return;
	}
	result_param_str(ctx->res, "main_measured", "yes");
	result_param_num(ctx->res, "main_from_bytes", (double)sizes[rd.main.first]);
	if (rd.ncache)
		result_param_num(ctx->res, "main_over_L1", rd.main.lat / rd.cache[0].lat);
	size_name(a, sizeof(a), "", sizes[rd.fig_first]);
	size_name(b, sizeof(b), "", sizes[n - 1]);
	snprintf(from, sizeof(from), "the median of the rand curve's points %s..%s %s (%zu points)",
		 a, b, rd.fig_first > rd.main.first ? "from 4 x LLC on, where no cache holds the walk" :
		 "past the last cache plateau", n - rd.fig_first);
	size_name(a, sizeof(a), "", sizes[rd.main.first]);
	{
		struct metric *m = result_add_derived(ctx->res, "main", "ns", BETTER_LOWER, rd.main.lat, from);

		if (m && rd.main_last_lat > LAT_JUMP * rd.main_first_lat) {
			snprintf(note, sizeof(note), "rises from %.0f ns at %s to %.0f ns at %s: "
				 "beyond the TLB's reach a random walk also waits for page walks "
				 "(see mem.tlb)", rd.main_first_lat, a, rd.main_last_lat, b);
			m->note = strdup(note);
		}
		if (m && rd.anchor == n && llc && sizes[n - 1] < 4 * llc) {
			char c4[32];

			size_name(c4, sizeof(c4), "", 4 * llc);
			snprintf(note, sizeof(note), "the curve stops at %s, below 4 x the reported "
				 "LLC (%s): read from the curve's last plateaus", b, c4);
			if (!m->note)
				m->note = strdup(note);
		}
	}
}

/* lmbench's "Main mem": a walk in address order at a 128 B stride over
 * the largest buffer (metric main_stride128). */
static int lat_stride128(struct bench_ctx *ctx, char *buf, uint64_t bytes, uint64_t *seed)
{
	struct memlat_chain c = { buf, bytes / STRIDE_LMBENCH, STRIDE_LMBENCH, 0 };
	void *start = memlat_ready(ctx, &c, 0, seed, "stride-128");

	if (!start)
		return -1;
	result_param_num(ctx->res, "main_stride128_bytes", (double)bytes);
	return memlat_chase(ctx, "main_stride128", start, 0, NULL);
}

static int lat_run(struct bench_ctx *ctx)
{
	const struct bench_opts *o = ctx->opt;
	struct sysinfo host;
	const struct sysinfo *si;
	uint64_t os[4], sizes[MAX_POINTS], budget = ctx->h->cfg.budget_ns, setup_ns = 0;
	uint64_t stride_max, rand_max, llc, seed = 0x5eed;
	double lat[MAX_POINTS];
	size_t nsizes, nrand = 0, i, chain_nodes = 0, chains = 0;
	int nos, oline, j, rc = -1;
	char *buf = NULL, name[64];

	si = harness_host(ctx, &host);
	nos = os_caches(si, os, &oline);
	llc = sysinfo_llc_size(si);
	stride_max = o->mem_size;
	if (o->quick && stride_max > (4u << 20))
		stride_max = 4u << 20;
	rand_max = memlat_main_size(o, si);
	nsizes = size_list(sizes, MAX_POINTS, 512, rand_max, !o->quick);
	if (nsizes == 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "--mem-size below 512 bytes");
		return -1;
	}
	rand_max = sizes[nsizes - 1];
	buf = memlat_alloc(rand_max);
	if (!buf)
		return memlat_failed(ctx, "cannot allocate the buffer", rand_max);
	result_param_num(ctx->res, "node_bytes", LAT_NODE);
	result_param_num(ctx->res, "stride_bytes", LAT_NODE);
	/* The random curve. A point beyond --mem-size is measured only while
	 * its set-up (building and checking the chain, which grows with the
	 * size) is predicted to fit in --budget, as its timing does. */
	for (i = 0; i < nsizes; i++) {
		struct memlat_chain c = { buf, sizes[i] / LAT_NODE, LAT_NODE, 0 };
		uint64_t t0 = clock_ns();
		void *start;

		if (i > 0 && sizes[i] > stride_max &&
		    (double)setup_ns * (double)sizes[i] / (double)sizes[i - 1] > (double)budget) {
			result_param_num(ctx->res, "rand_stopped_at_bytes", (double)sizes[i]);
			result_param_str(ctx->res, "rand_stopped_why",
					 "its chain's set-up would take longer than --budget");
			break;
		}
		start = memlat_ready(ctx, &c, 1, &seed, "random");
		if (!start)
			goto out;
		setup_ns = clock_ns() - t0;
		chains++;
		chain_nodes = c.nodes;
		size_name(name, sizeof(name), "rand/", sizes[i]);
		if (memlat_chase(ctx, name, start, 1, &lat[i]) < 0)
			goto out;
		nrand = i + 1;
	}
	/* The fixed-stride curve: address order, one line apart. */
	for (i = 0; i < nsizes && sizes[i] <= stride_max; i++) {
		struct memlat_chain c = { buf, sizes[i] / LAT_NODE, LAT_NODE, 0 };
		void *start = memlat_ready(ctx, &c, 0, &seed, "stride");

		if (!start)
			goto out;
		chains++;
		size_name(name, sizeof(name), "stride/", sizes[i]);
		if (memlat_chase(ctx, name, start, 1, NULL) < 0)
			goto out;
	}
	if (i > 0)
		result_param_num(ctx->res, "stride_max_bytes", (double)sizes[i - 1]);
	if (lat_stride128(ctx, buf, sizes[nrand - 1], &seed) < 0)
		goto out;
	chains++;
	result_param_str(ctx->res, "chain_checked", "yes");
	result_param_num(ctx->res, "chain_nodes", (double)chain_nodes);
	result_param_num(ctx->res, "chains_checked", (double)chains);
	result_param_num(ctx->res, "rand_max_bytes", (double)sizes[nrand - 1]);
	for (j = 1; j <= 3; j++)
		if (os[j]) {
			snprintf(name, sizeof(name), j == 1 ? "os_L1d_bytes" : "os_L%d_bytes", j);
			result_param_num(ctx->res, name, (double)os[j]);
		}
	lat_levels(ctx, lat, sizes, nrand, os, nos, llc);
	rc = 0;
out:
	free(buf);
	return rc;
}

const struct bench bench_mem_lat = {
	.id = "mem.lat", .group = "mem", .title = "Memory load latency (lat_mem_rd)",
	.unit = "ns", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.run = lat_run,
	/* the size sweep (24 s on a guest with 32 MiB of L3, 40 x 0.6 s) */
	.figures = 40, .figures_quick = 15,
};

/* ---------- mem.tlb ---------- */

static int tlb_run(struct bench_ctx *ctx)
{
	long ps = sysconf(_SC_PAGESIZE);
	size_t page = ps > 0 ? (size_t)ps : 4096, i, n, maxpages;
	uint64_t pages[MAX_POINTS], seed = 0x71b;
	double lat[MAX_POINTS];
	struct memlat_level lv[MAX_POINTS];
	char *buf, name[64], from[160];
	int nlv, rc = -1;

	/* 64 MiB of address space (4 MiB when quick) at one line per page. */
	maxpages = (ctx->opt->quick ? (4u << 20) : (64u << 20)) / page;
	n = size_list(pages, MAX_POINTS, 4, maxpages, !ctx->opt->quick);
	buf = memlat_alloc(pages[n - 1] * page);
	if (!buf)
		return memlat_failed(ctx, "out of memory", pages[n - 1] * page);
	for (i = 0; i < n; i++) {
		/* One node per page, its line moved along by the page index so
		 * the nodes spread over all cache sets instead of one. */
		struct memlat_chain c = { buf, pages[i], page, LAT_NODE };
		void *start = memlat_ready(ctx, &c, 1, &seed, "page");

		if (!start)
			goto out;
		snprintf(name, sizeof(name), "pages/%llu", (unsigned long long)pages[i]);
		if (memlat_chase(ctx, name, start, 1, &lat[i]) < 0)
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
	snprintf(from, sizeof(from), "the first step of the pages curve (last point before it; "
		 "%llu -> %llu pages)", (unsigned long long)pages[lv[0].last],
		 (unsigned long long)pages[lv[1].first]);
	result_add_derived(ctx->res, "", "pages", BETTER_HIGHER, (double)pages[lv[0].last], from);
	result_param_num(ctx->res, "pages", (double)pages[lv[0].last]);
	result_param_num(ctx->res, "reach_bytes", (double)pages[lv[0].last] * (double)page);
	result_param_num(ctx->res, "next_pages", (double)pages[lv[1].first]);
	snprintf(from, sizeof(from), "the median of the pages curve's first plateau (%llu..%llu "
		 "pages)", (unsigned long long)pages[lv[0].first], (unsigned long long)pages[lv[0].last]);
	result_add_derived(ctx->res, "before", "ns", BETTER_LOWER, lv[0].lat, from);
	snprintf(from, sizeof(from), "the median of the pages curve's second plateau (%llu..%llu "
		 "pages)", (unsigned long long)pages[lv[1].first], (unsigned long long)pages[lv[1].last]);
	result_add_derived(ctx->res, "after", "ns", BETTER_LOWER, lv[1].lat, from);
	rc = 0;
out:
	free(buf);
	return rc;
}

const struct bench bench_mem_tlb = {
	.id = "mem.tlb", .group = "mem", .title = "TLB reach (tlb)",
	.unit = "pages", .better = BETTER_HIGHER, .kind = KIND_DERIVED,
	.run = tlb_run,
	.figures = 13, .figures_quick = 5,	/* the page-count sweep */
};

/* ---------- mem.line ---------- */

#define LINE_BLOCK 1024
static const unsigned line_strides[] = { 8, 16, 32, 64, 128, 256, 512 };
enum { LINE_NS = sizeof line_strides / sizeof line_strides[0], LINE_MAX_REPS = 15 };
#define LINE_SAMPLE_NS 200000	/* 0.2 ms: most such samples run unpreempted */
#define LINE_SAMPLES 31

/* The line a stride curve lat[0..n-1] over strides[] shows: the smallest
 * stride from which every point is past half way between the same-line
 * level (median of the three smallest strides) and the next-line level (of
 * the three largest); noise only adds time, so a slow point below the line
 * is skipped. 0 when there is no step: the levels are less than
 * MEMLAT_LINE_STEP apart, or the two groups of three overlap. */
unsigned memlat_line(const double *lat, const unsigned *strides, size_t n, double *lo, double *hi)
{
	unsigned v = 0;
	size_t k;

	*lo = median_of(lat, 3);
	*hi = median_of(lat + n - 3, 3);
	if (*hi < MEMLAT_LINE_STEP * *lo)
		return 0;
	for (k = 0; k < 3; k++)
		if (lat[k] >= lat[n - 3] || lat[k] >= lat[n - 2] || lat[k] >= lat[n - 1])
			return 0;
	for (k = n; k > 0 && lat[k - 1] >= (*lo + *hi) / 2; k--)
		v = strides[k - 1];
	return v;
}

/* The most frequent non-zero line of line[0..n-1], with its count. */
static unsigned line_vote(const unsigned *line, int n, int *votes)
{
	unsigned best = 0;
	int i, k, c;

	*votes = 0;
	for (i = 0; i < n; i++) {
		for (c = 0, k = 0; k < n; k++)
			c += line[k] == line[i];
		if (line[i] && c > *votes) {
			*votes = c;
			best = line[i];
		}
	}
	return best;
}

/* One curve: the pair walk at every stride, each point timed by the
 * harness into a private result (the repetitions are kept as samples of
 * the public curve). A point is the fastest of LINE_SAMPLES short samples:
 * on a busy machine a 10 ms sample is rarely free of preemption, and a
 * neighbour that runs in between, or evicts the buffer, only adds time —
 * the same time to every stride, which flattens the step a median shows. */
static int line_curve(struct bench_ctx *ctx, char *buf, uint64_t bytes, uint64_t *seed,
		      double *lat)
{
	struct bench_result mine = { 0 };
	struct bench_ctx sub = *ctx;
	struct harness h = *ctx->h;
	size_t i, k;
	int rc = -1;

	harness_short_samples(&h, LINE_SAMPLE_NS, LINE_SAMPLES);
	sub.h = &h;
	sub.res = &mine;
	for (i = 0; i < LINE_NS; i++) {
		struct memlat_chain c = { buf, bytes / LINE_BLOCK, LINE_BLOCK, 0 };

		if (!memlat_ready(&sub, &c, 1, seed, "block"))
			goto out;
		/* Split each link: block+s first, then block+0 (downwards, which
		 * the next-line prefetcher does not follow), then the next block. */
		for (k = 0; k < c.nodes; k++) {
			char *b = memlat_node(&c, k);
			void *next = *(void **)b;

			*(void **)(b + line_strides[i]) = b;
			*(void **)b = (char *)next + line_strides[i];
		}
		if (memlat_chase(&sub, "", buf + line_strides[i], 1, NULL) < 0)
			goto out;
		lat[i] = result_metric(&mine, "")->st.min;
		result_bench_free(&mine);
		memset(&mine, 0, sizeof(mine));
	}
	rc = 0;
out:
	if (rc < 0)
		snprintf(ctx->reason, sizeof(ctx->reason), "%s", sub.reason);
	result_bench_free(&mine);
	return rc;
}

static int line_run(struct bench_ctx *ctx)
{
	struct sysinfo host;
	const struct sysinfo *si;
	uint64_t os[4], bytes, seed = 0x11e;
	double lat[LINE_MAX_REPS][LINE_NS], col[LINE_MAX_REPS], med[LINE_NS], lo, hi;
	unsigned line[LINE_MAX_REPS], v = 0;
	int reps = ctx->opt->quick ? 3 : 5, r, i, votes = 0, oline, rc = -1;
	char *buf, name[32], from[200], list[LINE_MAX_REPS * 5 + 1] = "", note[240];
	struct metric *m;

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
	buf = memlat_alloc(bytes);
	if (!buf)
		return memlat_failed(ctx, "out of memory", bytes);
	result_param_num(ctx->res, "buffer_bytes", (double)bytes);
	result_param_num(ctx->res, "block_bytes", LINE_BLOCK);
	/* Repeat the curve: a busy neighbour slows some points of one curve
	 * and moves its step. The figure is the line most repetitions show,
	 * once it holds a majority of them; three more are run (up to
	 * LINE_MAX_REPS) while none does. */
	for (r = 0; r < reps; r++) {
		if (line_curve(ctx, buf, bytes, &seed, lat[r]) < 0)
			goto out;
		line[r] = memlat_line(lat[r], line_strides, LINE_NS, &lo, &hi);
		if (r + 1 == reps) {
			v = line_vote(line, reps, &votes);
			if (2 * votes <= reps && reps + 3 <= LINE_MAX_REPS)
				reps += 3;
		}
	}
	/* The curve kept: each point's repetitions are its samples. */
	for (i = 0; i < LINE_NS; i++) {
		for (r = 0; r < reps; r++)
			col[r] = lat[r][i];
		med[i] = median_of(col, (size_t)reps);
		snprintf(name, sizeof(name), "stride/%u", line_strides[i]);
		m = result_add_metric(ctx->res, name, "ns", BETTER_LOWER, col, (size_t)reps);
		if (m)
			m->detail = 1;
	}
	for (r = 0; r < reps; r++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%u", r ? "," : "",
			 line[r]);
	result_param_num(ctx->res, "repetitions", reps);
	result_param_str(ctx->res, "repetition_lines", list);
	if (2 * votes > reps) {
		snprintf(from, sizeof(from), "the stride curve's step in %d of %d repetitions (%s)",
			 votes, reps, list);
	} else {
		/* No majority: the curve of the points' medians decides. */
		v = memlat_line(med, line_strides, LINE_NS, &lo, &hi);
		snprintf(from, sizeof(from), "the step of the median of %d stride curves, which "
			 "disagreed (%s)", reps, list);
	}
	memlat_line(med, line_strides, LINE_NS, &lo, &hi);
	if (v == 0) {
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "no latency step between strides 8 and 512 (%.2f -> %.2f ns)", lo, hi);
		goto out;
	}
	result_param_num(ctx->res, "same_line_ns", lo);
	result_param_num(ctx->res, "next_line_ns", hi);
	m = result_add_derived(ctx->res, "", "B", BETTER_LOWER, v, from);
	if (oline) {
		result_param_num(ctx->res, "os_line_bytes", oline);
		result_param_str(ctx->res, "matches_os", (int)v == oline ? "yes" : "no");
		if (m && (int)v != oline) {
			snprintf(note, sizeof(note), "the OS reports %d-byte lines: the step is where "
				 "a second miss costs more, which an adjacent-line prefetcher can "
				 "move", oline);
			m->note = strdup(note);
		}
	}
	rc = 0;
out:
	free(buf);
	return rc;
}

const struct bench bench_mem_line = {
	.id = "mem.line", .group = "mem", .title = "Cache line size (line)",
	.unit = "B", .better = BETTER_LOWER, .kind = KIND_DERIVED,
	.run = line_run,
};
