/* t-c2c.c — cpu.c2c's choice of pairs: every pair when they fit the
 * budget; else the first CPU with every other, then pairs spread over the
 * rest; never a pair twice or a CPU with itself. */
#include <string.h>
#include "tap.h"
#include "bench/cpu-c2c.h"

/* Every pair valid (two of the given CPUs, the lower first) and distinct. */
static int pairs_sound(const int *cpu, int n, int (*pair)[2], int np)
{
	for (int i = 0; i < np; i++) {
		int a = -1, b = -1;

		for (int k = 0; k < n; k++) {
			if (cpu[k] == pair[i][0])
				a = k;
			if (cpu[k] == pair[i][1])
				b = k;
		}
		if (a < 0 || b < 0 || a >= b)
			return 0;
		for (int j = 0; j < i; j++)
			if (pair[j][0] == pair[i][0] && pair[j][1] == pair[i][1])
				return 0;
	}
	return 1;
}

int main(void)
{
	static int cpu[256], pair[512][2];
	long total;
	int np, first;

	cpu[0] = 0, cpu[1] = 1;
	np = c2c_pairs(cpu, 2, 8, pair, &total);
	ok(np == 1 && total == 1 && pair[0][0] == 0 && pair[0][1] == 1, "2 CPUs: the one pair (%d)", np);

	for (int i = 0; i < 6; i++)
		cpu[i] = 2 * i + 4;	/* CPUs 4, 6, ... 14: the ids given, not 0..n-1 */
	np = c2c_pairs(cpu, 6, 100, pair, &total);
	ok(np == 15 && total == 15, "6 CPUs within the budget: all 15 pairs (%d)", np);
	ok(pairs_sound(cpu, 6, pair, np), "  each pair two of the CPUs given, lower first, once");

	for (int i = 0; i < 256; i++)
		cpu[i] = i;
	np = c2c_pairs(cpu, 64, 100, pair, &total);
	for (first = 0; first < np && pair[first][0] == 0; first++)
		;
	ok(total == 2016 && np <= 100 && np >= 90, "64 CPUs, budget 100: %d of %ld pairs", np, total);
	ok(first == 63, "  CPU 0 with each of the 63 others first (%d)", first);
	ok(pairs_sound(cpu, 64, pair, np), "  every pair sound and distinct");
	ok(np > 63 && pair[np - 1][0] > 32, "  the rest spread to the last CPUs (last pair %d-%d)",
	   pair[np - 1][0], pair[np - 1][1]);

	np = c2c_pairs(cpu, 10, 3, pair, &total);
	ok(np == 3 && total == 45 && pair[2][0] == 0 && pair[2][1] == 3,
	   "budget under the first CPU's pairs: its first 3 (%d)", np);
	np = c2c_pairs(cpu, 256, 512, pair, &total);
	ok(np <= 512 && np > 400 && pairs_sound(cpu, 256, pair, np), "256 CPUs, budget 512: %d sound pairs", np);
	return done_testing();
}
