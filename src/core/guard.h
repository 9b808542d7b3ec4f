/* guard.h — checks that make a run unfair to compare, recorded with the result. */
#ifndef BAKEOFF_GUARD_H
#define BAKEOFF_GUARD_H
#include "bench.h"
#include "result.h"
#include "sysinfo.h"

/* Inspect the machine before the run (load, other CPU users, frequency
 * governor, virtualization, sizes against caches and memory); appends
 * findings to g and sets its verdict ("ok" or "warn"). Takes ~0.25 s. */
void guard_check(struct guard *g, const struct sysinfo *si, const struct bench_opts *opt,
		 int memory_selected);

/* During the run: a mark taken before a benchmark, and the findings about
 * what else the machine did while it ran (other processes' CPU time,
 * hypervisor steal, swapping), added to g as "during ID: ..." sentences. */
struct guard_mark {
	int ok, swap_ok;
	unsigned long long busy, total, steal, swap_in, swap_out;
};
void guard_mark(struct guard_mark *m);
void guard_during(struct guard *g, const struct guard_mark *before, const struct bench_result *br,
		  int threads);

#endif
