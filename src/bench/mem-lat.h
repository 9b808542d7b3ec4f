/* mem-lat.h — the pointer chains of the memory latency benchmarks and the
 * plateau finder that reads cache levels off a latency curve (exposed for
 * tests/unit/t-memlat.c). */
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
 * cyclic permutation (Sattolo's algorithm, seeded by *seed, which advances)
 * or, when random is 0, address order. Returns the first node. */
void *memlat_link(const struct memlat_chain *c, int random, uint64_t *seed);
/* Walk the cycle from node 0 once. Returns 0 when it comes back to node 0
 * after visiting every node exactly once; -1 when a pointer leaves the node
 * set, a node is reached twice, or the cycle is shorter. *visited gets the
 * number of distinct nodes seen. */
int memlat_check(const struct memlat_chain *c, size_t *visited);

/* A plateau of a latency curve: points first..last, median latency lat. */
struct memlat_level {
	size_t first, last;
	double lat;
};

/* Find the plateaus of a curve lat[0..n-1] (ascending sizes). A level
 * starts where a point exceeds the one before it by more than jump times,
 * or the level's first point by more than jump^2 times (a slow ramp).
 * Single-point spikes are removed first (running median of 3), and a
 * level of one point between two others is a transition, not a plateau,
 * and is dropped. Returns the number of levels written (at most max). */
int memlat_levels(const double *lat, size_t n, double jump, struct memlat_level *lv, int max);

#endif
