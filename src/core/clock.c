/* clock.c — CLOCK_MONOTONIC in nanoseconds, and a measurement of its
 * resolution (smallest non-zero step between consecutive reads) and cost
 * (the average time of one read over a long run of back-to-back reads). */
#include <time.h>
#include "clock.h"

uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void clock_measure(uint64_t (*now)(void), struct clock_info *ci)
{
	uint64_t best = UINT64_MAX, t0, t1, prev, start;
	double cost = 1e300;
	int i, rep;

	if (!now)
		now = clock_ns;
	/* Resolution: the smallest non-zero step, over many read pairs (a
	 * coarse clock stops this after 50 ms). */
	start = now();
	for (i = 0; i < 2000 && (i < 20 || now() - start < 50000000); i++) {
		prev = now();
		while ((t1 = now()) == prev)
			;
		if (t1 - prev < best)
			best = t1 - prev;
	}
	/* Cost: best of 5 runs of 20000 back-to-back reads (best, because
	 * interruptions only ever add time). */
	for (rep = 0; rep < 5; rep++) {
		t0 = now();
		for (i = 0; i < 20000; i++)
			(void)now();
		t1 = now();
		if ((double)(t1 - t0) / 20001.0 < cost)
			cost = (double)(t1 - t0) / 20001.0;
	}
	ci->resolution_ns = (double)best;
	ci->cost_ns = cost;
	ci->source = "CLOCK_MONOTONIC";
}
