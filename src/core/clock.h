/* clock.h — the one monotonic nanosecond clock the harness uses. */
#ifndef BAKEOFF_CLOCK_H
#define BAKEOFF_CLOCK_H
#include <stdint.h>

struct clock_info {
	double resolution_ns;	/* smallest non-zero step seen between two reads */
	double cost_ns;		/* cost of one clock_ns() call */
	const char *source;	/* "CLOCK_MONOTONIC" */
};

uint64_t clock_ns(void);
/* Measure resolution and per-call cost of `now` (clock_ns when NULL). */
void clock_measure(uint64_t (*now)(void), struct clock_info *ci);

#endif
