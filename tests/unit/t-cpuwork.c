/* t-cpuwork.c — the CPU workloads' checks: a clean run of cpu.int and of
 * cpu.float passes its check after any number of loops (across many calls
 * and not a whole period); a run whose state is corrupted part-way (one
 * record's number, one list link, one array element, one loop too few or too
 * many counted) fails it, naming what is wrong; the exact modules of
 * cpu.float agree with integer arithmetic. */
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "../src/bench/cpu-work.h"

static int int_ok(struct int_work *w, char *why, size_t n)
{
	why[0] = 0;
	return cpu_int_check(w, why, n) == 0;
}

int main(void)
{
	char why[300];
	struct int_work *w;
	struct float_work *f;
	uint64_t k;

	/* cpu.int, clean: 1 + 2 + ... + 40 loops over 40 calls (820, not a multiple of 8). */
	w = cpu_int_new(cpu_int_seed());
	ok(w != NULL, "cpu.int state built");
	for (k = 1; k <= 40; k++)
		cpu_int_loops(w, k);
	ok(w->t.loops == 820 && int_ok(w, why, sizeof(why)), "820 loops in 40 calls pass the check (%s)", why);
	ok(w->period != 0 && w->prefix[1] != 0, "the expected sums come from a fresh state");

	/* One record's number changed part-way: the checksum catches it. */
	w->rec[3].num ^= 1;
	cpu_int_loops(w, 100);
	ok(!int_ok(w, why, sizeof(why)) && strstr(why, "checksum"),
	   "a record corrupted part-way fails the check: %s", why);
	cpu_int_free(w);

	/* A list link redirected: the list check catches it. */
	w = cpu_int_new(cpu_int_seed());
	cpu_int_loops(w, 13);
	w->rec[5].next = w->rec[5].next ? &w->rec[2] : NULL;
	if (!w->rec[5].next)
		w->rec[5].next = &w->rec[2];
	ok(!int_ok(w, why, sizeof(why)), "a damaged list fails the check: %s", why);
	cpu_int_free(w);

	/* Loops counted but not done (a skipped call), or done but not counted. */
	w = cpu_int_new(cpu_int_seed());
	cpu_int_loops(w, 1000);
	w->t.loops++;
	ok(!int_ok(w, why, sizeof(why)), "a loop counted but not done fails: %s", why);
	w->t.loops -= 2;
	ok(!int_ok(w, why, sizeof(why)), "a loop done but not counted fails: %s", why);
	w->t.loops++;
	ok(int_ok(w, why, sizeof(why)), "restored, it passes again");
	cpu_int_free(w);

	/* Another seed gives another checksum (the inputs matter). */
	{
		struct int_work *a = cpu_int_new(1), *b = cpu_int_new(2);

		cpu_int_loops(a, 64);
		cpu_int_loops(b, 64);
		ok(a->t.sum != b->t.sum && int_ok(a, why, sizeof(why)) && int_ok(b, why, sizeof(why)),
		   "two seeds, two checksums, both checked");
		cpu_int_free(a);
		cpu_int_free(b);
	}

	/* cpu.float, clean. */
	f = cpu_float_new(cpu_float_seed());
	ok(f != NULL, "cpu.float state built");
	for (k = 1; k <= 20; k++)
		cpu_float_loops(f, k);
	why[0] = 0;
	ok(cpu_float_check(f, why, sizeof(why)) == 0, "210 loops pass the check (%s)", why);
	ok(f->dot == (double)(int64_t)f->dot && f->branch != 0, "the exact modules hold integers");

	/* One array element corrupted part-way. */
	f->a[7] += 1;
	cpu_float_loops(f, 10);
	ok(cpu_float_check(f, why, sizeof(why)) < 0, "an array element corrupted part-way fails: %s", why);
	f->a[7] -= 1;
	cpu_float_loops(f, 10);
	ok(cpu_float_check(f, why, sizeof(why)) < 0 && strstr(why, "checksum"),
	   "even after it is put back, the checksum remembers: %s", why);
	cpu_float_free(f);

	/* A trigonometric argument corrupted: the checksum, not only the identity, catches it. */
	f = cpu_float_new(cpu_float_seed());
	cpu_float_loops(f, 5);
	f->x[1] += 1e-6;
	cpu_float_loops(f, 5);
	ok(cpu_float_check(f, why, sizeof(why)) < 0 && strstr(why, "checksum"),
	   "a changed argument fails the checksum: %s", why);
	cpu_float_free(f);
	return done_testing();
}
