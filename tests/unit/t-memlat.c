/* t-memlat.c — the pointer chains of mem.lat/mem.tlb (every node once per
 * cycle, in both orders, with and without page colouring) and the plateau
 * finder on synthetic latency curves. */
#include <stdlib.h>
#include "tap.h"
#include "bench/mem-lat.h"

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
		for (r = 0; r < 2; r++) {
			ok(memlat_link(&c, r, &seed) == c.base, "%s chain of %zu starts at node 0",
			   r ? "random" : "stride", nodes[i]);
			is_int(memlat_check(&c, &seen), 0, "%s chain of %zu nodes is one cycle",
			       r ? "random" : "stride", nodes[i]);
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

int main(void)
{
	chains();
	levels();
	return done_testing();
}
