/* t-diskperm.c — disk.rand's block order (disk_perm, fio's random map):
 * each pass draws every block of [0, n) exactly once, the next pass in
 * another order, and the order is not the blocks' own. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "bench/disk.h"

/* Draw two passes of n; 1 when each is a permutation of [0, n). Counts
 * the blocks drawn at their own position in *fixed and the positions at
 * which the two passes agree in *same, and the draws that follow their
 * predecessor block (v == prev + 1) in *adjacent. */
static int two_passes(uint64_t n, uint64_t seed, uint64_t *fixed, uint64_t *same,
		      uint64_t *adjacent)
{
	unsigned char *seen = calloc((size_t)n, 1);
	uint64_t *first = calloc((size_t)n, sizeof(uint64_t)), i, v, prev = UINT64_MAX;
	struct disk_perm p;
	int pass, ok = seen && first;

	*fixed = *same = *adjacent = 0;
	disk_perm_init(&p, n, seed);
	for (pass = 0; pass < 2 && ok; pass++) {
		memset(seen, 0, (size_t)n);
		for (i = 0; i < n; i++) {
			v = disk_perm_next(&p);
			if (v >= n || seen[v]) {
				ok = 0;
				break;
			}
			seen[v] = 1;
			if (pass == 0) {
				first[i] = v;
				*fixed += v == i;
			} else {
				*same += v == first[i];
			}
			*adjacent += prev != UINT64_MAX && v == prev + 1;
			prev = v;
		}
	}
	free(seen);
	free(first);
	return ok;
}

int main(void)
{
	static const uint64_t sizes[] = { 1, 2, 3, 5, 7, 8, 9, 1000, 4097, 65536, 131072, 262143 };
	uint64_t fixed, same, adj, v;
	struct disk_perm p;
	size_t k;

	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		uint64_t n = sizes[k];

		ok(two_passes(n, 0x1234567 + k, &fixed, &same, &adj),
		   "n = %llu: every block exactly once in each of two passes", (unsigned long long)n);
		if (n >= 1000) {
			/* A random order leaves about one block in place, one pass
			 * agreeing with the next at about one position, and about
			 * 2 of 2n draws following their predecessor; 1% is far
			 * above all three, and a counter or a fixed order fails. */
			ok(fixed < n / 100, "n = %llu: not the blocks' own order (%llu in place)",
			   (unsigned long long)n, (unsigned long long)fixed);
			ok(same < n / 100, "n = %llu: the second pass has another order (%llu alike)",
			   (unsigned long long)n, (unsigned long long)same);
			ok(adj < n / 50, "n = %llu: not sequential runs (%llu of %llu draws follow on)",
			   (unsigned long long)n, (unsigned long long)adj, (unsigned long long)(2 * n));
		}
	}
	/* Two seeds (two jobs) draw different orders. */
	{
		struct disk_perm a, b;
		uint64_t i, alike = 0;

		disk_perm_init(&a, 100000, 1);
		disk_perm_init(&b, 100000, 2);
		for (i = 0; i < 100000; i++)
			alike += disk_perm_next(&a) == disk_perm_next(&b);
		ok(alike < 1000, "two seeds, two orders (%llu positions alike)",
		   (unsigned long long)alike);
	}
	/* The first half of a pass covers the file, not one end of it: its
	 * blocks fall about evenly into the file's two halves. */
	{
		uint64_t i, low = 0, n = 1u << 20;

		disk_perm_init(&p, n, 99);
		for (i = 0; i < n / 2; i++)
			low += disk_perm_next(&p) < n / 2;
		ok(low > n / 4 - n / 100 && low < n / 4 + n / 100,
		   "half a pass spreads over the file (%llu of %llu in its first half)",
		   (unsigned long long)low, (unsigned long long)(n / 2));
	}
	disk_perm_init(&p, 1, 5);
	v = disk_perm_next(&p) + disk_perm_next(&p);
	is_int((long long)v, 0, "n = 1: always block 0");
	return done_testing();
}
