/* mem-lat.h — the pointer chains of the memory latency benchmarks, the
 * plateau finder and the reader that names a latency curve's plateaus
 * (caches, main memory), exposed for tests/unit/t-memlat.c. */
#ifndef BAKEOFF_MEM_LAT_H
#define BAKEOFF_MEM_LAT_H
#include <stddef.h>
#include <stdint.h>

/* nodes chain nodes in a buffer: node k lives at
 *     base + k * spacing + (color ? (k * color) % spacing : 0)
 * and holds a pointer to the next node. color spreads nodes that are one
 * per page over the cache sets (mem.tlb); 0 puts each at its slot's start. */
struct memlat_chain {
	char *base;
	size_t nodes;
	size_t spacing;
	size_t color;
};

void *memlat_node(const struct memlat_chain *c, size_t k);
/* Link the nodes into one cycle through every node: a uniformly random
 * cyclic permutation (random MEMLAT_RANDOM: Sattolo's algorithm, seeded by
 * *seed, which advances), address order (MEMLAT_ORDER), or MEMLAT_PAGES:
 * the 4 KiB pages in a random order, each page's nodes before the next
 * page's in lmbench's bit-reversed order (par_mem's: a miss per node, a TLB
 * miss per page). Returns node 0. */
enum { MEMLAT_ORDER = 0, MEMLAT_RANDOM = 1, MEMLAT_PAGES = 2 };
void *memlat_link(const struct memlat_chain *c, int random, uint64_t *seed);
/* (memlat_link returns NULL, and memlat_check -1, when SIGINT/SIGTERM
 * arrives while they work: a chain of millions of nodes takes seconds.) */
/* Walk the cycle from node 0 once. Returns 0 when it comes back to node 0
 * after visiting every node exactly once; -1 when a pointer leaves the node
 * set, a node is reached twice, or the cycle is shorter. *visited gets the
 * number of distinct nodes seen. */
int memlat_check(const struct memlat_chain *c, size_t *visited);

/* A plateau of a latency curve: points first..last, median latency lat;
 * ramp is 1 when it began only by the slow-ramp rule (no point before it
 * was more than jump times faster): a gradual rise, not a capacity edge. */
struct memlat_level {
	size_t first, last;
	double lat;
	int ramp;
};

/* Find the plateaus of a curve lat[0..n-1] (ascending sizes). A level
 * starts where a point exceeds the one before it by more than jump times,
 * or the level's first point by more than jump^2 times (a slow ramp).
 * Single-point spikes are removed first (running median of 3), and a
 * level of one point between two others is a transition, not a plateau,
 * and is dropped. Returns the number of levels written (at most max). */
int memlat_levels(const double *lat, size_t n, double jump, struct memlat_level *lv, int max);

#define MEMLAT_CACHES 4		/* cache levels a reading names at most */

/* What a random-walk curve shows: its cache levels and main memory. */
struct memlat_reading {
	int nlv;			/* plateaus found (memlat_levels) */
	int ncache;			/* named cache levels: L1 .. L<ncache> */
	struct memlat_level cache[MEMLAT_CACHES];
	int unnamed;			/* plateaus between the caches left unnamed */
	int has_main;			/* 0: the curve stops before main memory */
	struct memlat_level main;	/* every point from main memory's first plateau on; its
					 * lat: the median from fig_first on */
	size_t fig_first;		/* main's figure: the anchor when main holds it, else main.first */
	double main_first_lat;		/* latency of main's first plateau and of its */
	double main_last_lat;		/* last (more when a walk outgrows the TLB) */
	size_t anchor;			/* first point at >= 4 x LLC, or n when none */
};

/* Read a random-walk curve lat[0..n-1] over sizes[0..n-1] (bytes,
 * ascending). llc is the OS-reported last-level cache (0 if unknown),
 * os_levels the number of data cache levels the OS reports (0 if unknown).
 * Main memory is the plateau past the largest cache the curve shows:
 * starting from the plateau that holds the first point at 4 x LLC or more
 * (or, without one, the last plateau), earlier plateaus belong to it while
 * the next one began by a ramp, or each is within jump^2 of the next, or
 * starts beyond the LLC (steps inside main memory: page walks); main is then
 * every point from there to the end of the curve, and its figure the median
 * of the points from the one at 4 x LLC on (where no cache can hold the
 * walk), or of all of main's points without one. Without a point at
 * 4 x LLC, the curve reaches main memory only if it goes past the LLC, or
 * shows at least os_levels plateaus before it and a step into it of at
 * least jump^3. The plateaus before main
 * are the caches: L1 is the first, the last cache level the one right
 * before main. Returns 0, or -1 (no plateau at all). */
int memlat_read(const double *lat, const uint64_t *sizes, size_t n, uint64_t llc, int os_levels,
		double jump, struct memlat_reading *rd);

/* mem.line: the line size a stride curve lat[0..n-1] (n >= 6) over
 * strides[] shows, and the same-line and next-line levels (*lo, *hi, ns);
 * 0 when it shows no step of at least MEMLAT_LINE_STEP times. */
#define MEMLAT_LINE_STEP 1.1
unsigned memlat_line(const double *lat, const unsigned *strides, size_t n, double *lo, double *hi);

/* ---- shared by the chasing benchmarks (mem-lat.c, mem-mlp.c, mem-loaded.c) ---- */
struct bench_ctx;
struct bench_opts;
struct sysinfo;

/* How far a chase must reach to be in main memory: --mem-size, or 4 x the
 * last-level cache (no cache holds that) within a quarter of RAM shared by
 * the copies; with --quick, --mem-size up to 4 MiB. */
uint64_t memlat_main_size(const struct bench_opts *o, const struct sysinfo *si);
/* A buffer with every page faulted in before timing; NULL when out of
 * memory or interrupted (the faults of a few GiB take seconds). */
void *memlat_alloc(size_t bytes);
/* mem.peak's read loop (mem.loaded's full load too): words 64-bit words
 * read, each 64-byte line with four 16-byte loads OR-ed into four
 * accumulators where the build has SSE2 and w is 16-byte aligned (else
 * vm_sum's four sums); returns what it read combined, for bench_use. */
uint64_t memlat_sweep(const uint64_t *w, size_t words);
/* Set-up failed: ctx->reason says "interrupted", or why (and the bytes);
 * returns -1. */
int memlat_failed(struct bench_ctx *ctx, const char *why, uint64_t bytes);
/* Link c (random or address order) and walk it once to check it; the
 * first node, or NULL with ctx->reason set (broken, or interrupted). */
void *memlat_ready(struct bench_ctx *ctx, const struct memlat_chain *c, int random, uint64_t *seed,
		   const char *what);
/* Time the chase from start (16 dependent loads a call) as figure name of
 * ctx->res, ns per load; detail marks a curve point. 0, or -1. */
int memlat_chase(struct bench_ctx *ctx, const char *name, void *start, int detail, double *median);

#endif
