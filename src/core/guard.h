/* guard.h — checks that make a run unfair to compare, recorded with the result. */
#ifndef BAKEOFF_GUARD_H
#define BAKEOFF_GUARD_H
#include "bench.h"
#include "result.h"
#include "sysinfo.h"

/* Inspect the machine before the run (other CPU users, runnable tasks,
 * load, steal, throttling, frequency governor and boost, virtualization,
 * sizes against caches and memory); appends findings to g and sets its
 * verdict (guard_judge). Takes ~0.25 s. */
void guard_check(struct guard *g, const struct sysinfo *si, const struct bench_opts *opt,
		 int memory_selected);

/* During the run: a mark taken before a benchmark, and the findings about
 * what else the machine did while it ran (other processes' CPU time,
 * hypervisor steal, swapping, thermal throttling, a CPU benchmark whose
 * speed moved with nothing else running), added to g as
 * "during ID: ..." sentences; the verdict is judged again. steady: the
 * benchmark does the same work in every sample (its group's
 * GROUP_STEADY_WORK), so a speed that moved is the host's finding. */
struct guard_mark {
	int ok, swap_ok, throttle_ok;
	unsigned long long busy, total, steal, swap_in, swap_out, throttle;
};
void guard_mark(struct guard_mark *m);
void guard_during(struct guard *g, const struct guard_mark *before, const struct bench_result *br,
		  int threads, int steady);
/* The speed of a figure's slow samples over that of its fast ones, past
 * the single slowest and fastest (a twentieth at each end of 40 or more):
 * 1 when all ran alike; 1 for fewer than 11 samples or a derived figure.
 * A CPU benchmark below 0.8 with no other process busy gets the finding
 * "during ID: the machine's speed moved with nothing else running". */
double guard_speed_spread(const struct metric *m);
/* That finding for br (a CPU benchmark with no other process busy), the
 * first figure of it below 0.8; where the core gauge's readings show the
 * slow samples were those on a shared core, "during ID: the core was
 * shared with another thread for part of it" instead. */
void guard_host_slowed(struct guard *g, const struct bench_result *br);

/* The disturbances found during br (findings from index `from` on) come
 * first in the notes of br's figures: a figure's note is a reading of it
 * (a plateau that differs from the cache size the OS reports, a latency
 * that rises past the TLB's reach), and a busy machine explains it before
 * any guess about the hardware does. Figures without a note keep none: the
 * run's findings list every disturbance. */
void guard_explain(const struct guard *g, size_t from, struct bench_result *br);

/* After the run: each CPU benchmark (its group's GROUP_STEADY_WORK) whose
 * core gauge (gauge.h, the median over its samples) read GAUGE_SHARED times
 * the quietest figure's of the run or more, with no other process of this
 * machine busy, gets the finding "during ID: the core was shared ..." and
 * the verdict is judged again. A run whose every reading was shared has no quiet one to compare
 * with: history compares runs (docs/regressions.md). */
void guard_shared_core(struct guard *g, const struct result *r);

#endif
