/* t-memlat.c — the pointer chains of mem.lat/mem.tlb (every node once per
 * cycle, in both orders, with and without page colouring; the by-page
 * chain in lmbench's bit-reversed order within each page), the plateau
 * finder on synthetic latency curves, and the curve reader (caches, main
 * memory) on real curves: three runs of mem.lat on an AMD EPYC guest kept
 * in tests/data/ (one that an older reader misread, calling a 16.8 ns
 * plateau main memory; one whose rise past the TLB's reach the finder
 * splits in two), and a synthetic curve of an Intel guest. */
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "bench/mem-lat.h"
#include "result.h"
#include "sysinfo.h"

/* k's six bits reversed: lmbench's order of a page's 64 lines */
static size_t rev6(size_t k)
{
	size_t r = 0;
	int b;

	for (b = 0; b < 6; b++)
		r |= (k >> b & 1) << (5 - b);
	return r;
}

static void chains(void)
{
	static const size_t nodes[] = { 1, 2, 3, 8, 17, 1000, 65536 };
	size_t i, seen, k;
	uint64_t seed = 42;

	for (i = 0; i < sizeof nodes / sizeof nodes[0]; i++) {
		struct memlat_chain c = { NULL, nodes[i], 64, 0 };
		int r;

		c.base = malloc(nodes[i] * 64);
		if (!c.base) {
			ok(0, "malloc");
			return;
		}
		for (r = 0; r < 3; r++) {
			static const char *const how[] = { "stride", "random", "by-page" };

			ok(memlat_link(&c, r, &seed) == c.base, "%s chain of %zu starts at node 0",
			   how[r], nodes[i]);
			is_int(memlat_check(&c, &seen), 0, "%s chain of %zu nodes is one cycle",
			       how[r], nodes[i]);
			is_int(seen, nodes[i], "and visits all %zu nodes", nodes[i]);
		}
		if (nodes[i] >= 8) {
			/* A random chain must not be address order. */
			int inorder = 1;

			memlat_link(&c, 1, &seed);
			for (k = 0; k + 1 < nodes[i]; k++)
				if (*(void **)memlat_node(&c, k) != memlat_node(&c, k + 1))
					inorder = 0;
			ok(!inorder, "random chain of %zu is shuffled", nodes[i]);
			/* by page: each page's 64 nodes one after another, in
			 * an order of their own: around the cycle the page
			 * changes once per page, and not every step is +1 */
			if (nodes[i] >= 128) {
				void **p = memlat_link(&c, MEMLAT_PAGES, &seed);
				size_t changes = 0, plus1 = 0, notrev = 0;

				for (k = 0; k < nodes[i]; k++, p = *p) {
					size_t from = (size_t)((char *)p - c.base) / 64;
					size_t to = (size_t)((char *)*p - c.base) / 64;

					changes += from / 64 != to / 64;
					plus1 += to == from + 1;
					/* within a whole page, lmbench's order: the
					 * next index of the bit-reversed count */
					if (from / 64 == to / 64 && from / 64 < nodes[i] / 64)
						notrev += rev6(rev6(from % 64) + 1) != to % 64;
				}
				ok(changes == (nodes[i] + 63) / 64 && plus1 < nodes[i] / 2,
				   "by-page chain of %zu: %zu page changes, %zu of its steps +1", nodes[i],
				   changes, plus1);
				ok(notrev == 0, "  each page's nodes bit-reversed, 0 32 16 48 ... "
				   "(%zu steps not)", notrev);
			}
			/* Break it: node 1 points to itself — a short cycle. */
			*(void **)memlat_node(&c, 1) = memlat_node(&c, 1);
			ok(memlat_check(&c, &seen) < 0, "a broken chain of %zu fails the check",
			   nodes[i]);
			/* Point out of the buffer. */
			memlat_link(&c, 0, &seed);
			*(void **)memlat_node(&c, 2) = c.base + 8;
			ok(memlat_check(&c, &seen) < 0 && seen == 3,
			   "a misaligned link fails after 3 nodes (saw %zu)", seen);
		}
		free(c.base);
	}
	/* One node per 4 KiB page, coloured across the lines of the page. */
	{
		struct memlat_chain c = { malloc(300 * 4096), 300, 4096, 64 };

		ok(c.base != NULL, "malloc pages");
		if (c.base) {
			ok((char *)memlat_node(&c, 3) == c.base + 3 * 4096 + 192, "node 3 at its colour");
			ok((char *)memlat_node(&c, 65) == c.base + 65 * 4096 + 64, "colour wraps at 64");
			memlat_link(&c, 1, &seed);
			is_int(memlat_check(&c, &seen), 0, "coloured page chain is one cycle");
			is_int(seen, 300, "and visits 300 pages");
			free(c.base);
		}
	}
}

static void levels(void)
{
	struct memlat_level lv[16];
	int n;

	/* Clean steps: L1 1.7, L2 5.4 with a ramp, L3 35, main 140. */
	{
		double lat[] = { 1.7, 1.7, 1.7, 1.7, 1.7, 5.4, 5.4, 5.4, 6.0, 6.6, 7.7,
				 18.0, 33.0, 36.0, 37.0, 95.0, 135, 138, 141, 143 };

		n = memlat_levels(lat, sizeof lat / sizeof lat[0], 1.4, lv, 16);
		is_int(n, 4, "four plateaus");
		is_int(lv[0].last, 4, "L1 ends at point 4");
		is_num(lv[0].lat, 1.7, 1e-9, "L1 latency");
		is_int(lv[1].first, 5, "L2 starts at point 5");
		is_int(lv[1].last, 10, "L2 ramp stays in L2");
		is_num(lv[1].lat, 5.7, 1e-9, "L2 median");
		is_int(lv[2].first, 12, "transition point 11 dropped");
		is_int(lv[2].last, 14, "L3 ends at point 14");
		is_int(lv[3].first, 16, "main starts after the 95 ns transition");
		is_num(lv[3].lat, 139.5, 1e-9, "main median");
	}
	/* A single spike does not make a level. */
	{
		double lat[] = { 1.7, 1.7, 2.6, 1.7, 1.7, 5.0, 5.1, 5.0 };

		n = memlat_levels(lat, 8, 1.4, lv, 16);
		is_int(n, 2, "spike ignored: two plateaus");
		is_int(lv[0].last, 4, "L1 through the spike");
	}
	/* A slow ramp beyond jump^2 of its start is a new level. */
	{
		double lat[] = { 10, 11, 12, 13.5, 15, 17, 19, 21, 23 };

		n = memlat_levels(lat, 9, 1.4, lv, 16);
		is_int(n, 2, "slow ramp splits");
		is_int(lv[1].first, 7, "at the point above 1.96x");
	}
	/* Flat curve, and a curve ending in a single point. */
	{
		double flat[] = { 3, 3, 3, 3 }, tail[] = { 2, 2, 2, 2, 9 };

		is_int(memlat_levels(flat, 4, 1.4, lv, 16), 1, "flat: one plateau");
		n = memlat_levels(tail, 5, 1.4, lv, 16);
		is_int(n, 2, "a last single point is kept");
		is_num(lv[1].lat, 9, 1e-9, "its latency");
		is_int(memlat_levels(tail, 0, 1.4, lv, 16), 0, "empty curve");
		is_int(memlat_levels(tail, 5, 1.4, lv, 1), 1, "at most max levels");
	}
}

/* "512B", "1536K", "64M" -> bytes */
static uint64_t parse_size(const char *s)
{
	char *end;
	uint64_t v = strtoull(s, &end, 10);

	return *end == 'M' ? v << 20 : *end == 'K' ? v << 10 : v;
}

/* The data cache levels a result's host reports. */
static int data_levels(const struct sysinfo *si)
{
	int i, top = 0;

	for (i = 0; i < si->ncache; i++)
		if (strcmp(si->cache[i].type, "instruction") != 0 && si->cache[i].level > top)
			top = si->cache[i].level;
	return top;
}

/* Feed the rand/ points of a saved mem.lat to the reader. */
static int read_file_curve(const char *path, struct memlat_reading *rd, uint64_t *sizes,
			   double *lat, size_t *n, uint64_t *llc)
{
	struct result r;
	const struct bench_result *b;
	char err[256];
	size_t i;
	int rc = -1;

	memset(&r, 0, sizeof(r));
	*n = 0;
	if (result_load(path, &r, err, sizeof(err)) < 0) {
		diag("%s", err);
		return -1;
	}
	b = result_bench(&r, "mem.lat");
	for (i = 0; b && i < b->nmetrics && *n < 80; i++)
		if (strncmp(b->metrics[i].name, "rand/", 5) == 0) {
			sizes[*n] = parse_size(b->metrics[i].name + 5);
			lat[(*n)++] = b->metrics[i].st.median;
		}
	*llc = sysinfo_llc_size(&r.host);
	if (*n > 0)
		rc = memlat_read(lat, sizes, *n, *llc, data_levels(&r.host), 1.4, rd);
	result_free(&r);
	return rc;
}

static void real_curves(void)
{
	static const char *const files[] = {
		"tests/data/mem-lat-amd-epyc-main-misread.json",
		"tests/data/mem-lat-amd-epyc-main-found.json",
		/* main memory from 3M, then a rise past the TLB's reach that the
		 * finder splits at 96M (190 -> 400 ns, more than 1.4^2) */
		"tests/data/mem-lat-amd-epyc-tlb-ramp.json",
	};
	size_t f, n, i;

	for (f = 0; f < sizeof files / sizeof files[0]; f++) {
		struct memlat_reading rd;
		uint64_t sizes[80], llc = 0;
		double lat[80];
		int got = read_file_curve(files[f], &rd, sizes, lat, &n, &llc) == 0;

		if (!ok(got, "%s: read (run the tests from the source tree)", files[f]))
			continue;
		ok(n >= 30 && llc == 32u << 20, "%s: %zu points, LLC 32 MiB", files[f], n);
		ok(rd.has_main, "main memory found");
		is_int(rd.ncache, 3, "three cache levels named");
		ok(rd.main.lat > 60, "main %.1f ns is above 60 ns", rd.main.lat);
		ok(rd.main.lat >= 2 * rd.cache[2].lat, "main %.1f ns is at least 2 x L3 %.1f ns",
		   rd.main.lat, rd.cache[2].lat);
		ok(rd.anchor < n && sizes[rd.anchor] == 128u << 20, "the first point at 4 x LLC is 128M");
		ok(rd.main.first <= rd.anchor && rd.main.last == n - 1,
		   "main holds every point from %lluK to the end",
		   (unsigned long long)(sizes[rd.main.first] >> 10));
		for (i = rd.main.first; i < n; i++)
			if (lat[i] < 60)
				break;
		ok(i == n, "no point of main is below 60 ns");
		ok(rd.cache[0].lat < 2 && rd.cache[2].lat > 10 && rd.cache[2].lat < 30,
		   "L1 %.2f ns, L3 %.1f ns", rd.cache[0].lat, rd.cache[2].lat);
		/* Cut at 2 MiB (inside the caches here): not main memory. */
		for (i = 0; i < n && sizes[i] <= 2u << 20; i++)
			;
		ok(memlat_read(lat, sizes, i, llc, 3, 1.4, &rd) == 0 && !rd.has_main,
		   "cut at 2M: main memory not reached");
	}
}

/* SYNTHETIC (no saved run exists): an Intel guest whose OS reports 260 MiB
 * of L3 but that gives it 8 MiB — L1 1.66 ns to 48K, L2 5.4 ns to 1.5M,
 * L3 36 ns to 8M, main 142 ns (the figures of the stop-4 notes), with
 * small ripples and a rise past the TLB's reach. */
static void intel_guest(void)
{
	uint64_t sizes[80], p, llc = 260ull << 20;
	double lat[80];
	size_t n = 0, cut;
	struct memlat_reading rd;
	int k = 0;

	for (p = 512; p <= (1ull << 30); p *= 2) {
		uint64_t s2[2] = { p, p + p / 2 };
		int h;

		for (h = 0; h < 2 && n < 80; h++) {
			uint64_t s = s2[h];
			double ripple = 1 + 0.02 * ((k++ % 3) - 1);

			sizes[n] = s;
			lat[n++] = ripple * (s <= (48u << 10) ? 1.66 : s <= (1536u << 10) ? 5.4
					     : s <= (8u << 20) ? 36 : s <= (64u << 20) ? 142 : 160);
		}
	}
	/* Up to 512M: no point at 4 x the reported LLC (1040M). */
	for (cut = 0; cut < n && sizes[cut] <= (512u << 20); cut++)
		;
	ok(memlat_read(lat, sizes, cut, llc, 3, 1.4, &rd) == 0, "intel: read");
	ok(rd.has_main && rd.anchor == cut, "intel to 512M: main found without a 4 x LLC point");
	is_int(rd.ncache, 3, "intel: three cache levels");
	is_num(rd.cache[2].lat, 36, 1, "intel: L3 36 ns");
	is_int(sizes[rd.cache[2].last], 8u << 20, "intel: L3 ends at 8M");
	is_int(sizes[rd.main.first], 12u << 20, "intel: main from 12M");
	ok(rd.main.lat > 140 && rd.main.lat < 161, "intel: main %.1f ns", rd.main.lat);
	/* Past 4 x LLC (1536M): the 1536M point lands on main. */
	ok(memlat_read(lat, sizes, n, llc, 3, 1.4, &rd) == 0 && rd.has_main && rd.anchor < n &&
	   sizes[rd.anchor] == 1536u << 20 && rd.main.first <= rd.anchor,
	   "intel to 1536M: the point at 4 x LLC is on main");
	is_int(sizes[rd.main.first], 12u << 20, "intel to 1536M: main still from 12M");
	/* A curve that stops at 64M, far below the reported LLC: main is read
	 * from the plateaus (three caches before it). */
	for (cut = 0; cut < n && sizes[cut] <= (64u << 20); cut++)
		;
	ok(memlat_read(lat, sizes, cut, llc, 3, 1.4, &rd) == 0 && rd.has_main &&
	   rd.main.lat > 100, "intel to 64M: main %.1f ns", rd.main.lat);
	/* To 6M: the L3 plateau is the last one; not main memory. */
	for (cut = 0; cut < n && sizes[cut] <= (6u << 20); cut++)
		;
	ok(memlat_read(lat, sizes, cut, llc, 3, 1.4, &rd) == 0 && !rd.has_main &&
	   rd.ncache == 3, "intel to 6M: three caches, main not reached");
}

/* mem.line's step, on stride curves (ns per load at 8 .. 512 B) measured
 * on an AMD EPYC guest on 2026-12-02. */
static void line_steps(void)
{
	static const unsigned st[] = { 8, 16, 32, 64, 128, 256, 512 };
	/* A normal build: a 1.2x step at 64 B. */
	static const double plain[] = { 3.49, 3.32, 3.45, 4.12, 4.11, 4.10, 4.33 };
	/* Under ASan every load pays a shadow check: the same step is 1.19x
	 * (the old fixed 1.2x threshold read no line in 14 of 15 curves). */
	static const double asan[] = { 3.55, 3.54, 3.55, 4.21, 4.24, 4.23, 4.49 };
	/* Intel's pair prefetcher: the step comes at 128 B. */
	static const double pair[] = { 1.9, 1.9, 2.0, 2.1, 3.4, 3.5, 3.5 };
	/* No step: flat within noise, or a slow point among the small strides. */
	static const double flat[] = { 3.50, 3.52, 3.49, 3.55, 3.51, 3.56, 3.60 };
	static const double mixed[] = { 3.5, 4.6, 3.5, 4.3, 4.2, 4.3, 4.4 };
	double lo, hi;

	is_int(memlat_line(plain, st, 7, &lo, &hi), 64, "line: plain build steps at 64 B");
	ok(lo > 3.4 && lo < 3.5 && hi > 4.1 && hi < 4.2, "line: levels %.2f -> %.2f ns", lo, hi);
	is_int(memlat_line(asan, st, 7, &lo, &hi), 64, "line: a 1.19x step under ASan is a step");
	is_int(memlat_line(pair, st, 7, &lo, &hi), 128, "line: a pair prefetcher's 128 B");
	is_int(memlat_line(flat, st, 7, &lo, &hi), 0, "line: a flat curve has no line");
	is_int(memlat_line(mixed, st, 7, &lo, &hi), 0,
	       "line: a small stride as slow as the large ones: no line");
}

int main(void)
{
	chains();
	levels();
	real_curves();
	intel_guest();
	line_steps();
	return done_testing();
}
