/* gauge.h — the core gauge: is this CPU's core shared with a thread we do
 * not see (the host's, on the SMT sibling of a virtual CPU)?
 *
 * Two tiny register-only loops timed back to back: a dependent chain (one
 * multiply-add after another: its speed follows the clock alone, since one
 * chain leaves most of the core idle) and a wide loop (four independent
 * chains of adds and xors: its speed follows the clock and the share of the
 * core's issue slots this thread gets). Their ratio, wide time / chain time,
 * cancels the clock: it is the same at any frequency and rises when another
 * thread takes issue slots of the same core. Its value depends on the
 * microarchitecture (0.50 on an AMD Zen 3 guest, 0.6-1.3 there when the
 * host ran a thread on the sibling), so it is only ever compared with
 * itself on one machine: within a run (guard.c) and along a history. */
#ifndef BAKEOFF_GAUGE_H
#define BAKEOFF_GAUGE_H

#include <stddef.h>

/* A figure's gauge (the median of its readings) this many times the
 * quietest figure's: its core was shared. Quiet medians here sit within 2%
 * of each other (0.49-0.50); shared ones read 0.61-0.98. */
#define GAUGE_SHARED 1.1

/* One reading, about 60 us here: the wide loop's time per iteration over
 * the chain's, the median of three such ratios (an interrupt in one is
 * dropped; a minimum would favour the moments the other thread paused),
 * or 0 when the clock did not move. */
double gauge_core(void);

/* The quiet reading among g[0..n) (0: none taken): one of the lowest, at
 * a fiftieth of the way up (at least the second-lowest, so that one freak
 * low reading does not set it); 0 when fewer than two were taken. A run's
 * readings, taken together, hold a quiet stretch unless the core was
 * shared from its start to its end. */
double gauge_reference(const double *g, size_t n);

/* The samples v[0..n) of one figure that ran on a quiet core, by the
 * readings g[0..n) taken after each: those read under GAUGE_SHARED times
 * ref (gauge_reference). When they are at least GAUGE_QUIET_MIN and not
 * every sample read, their median, their readings' median and the median
 * of the other samples read (those on a shared core) into *s, and their
 * count is returned; otherwise 0 (the figure was all quiet or all shared:
 * its own median and gauge say so). A history takes such a figure at its
 * quiet samples' level where the figure moves with the sharing. */
#define GAUGE_QUIET_MIN 5
struct gauge_split {
	double quiet, quiet_gauge;	/* the quiet samples' median, their readings' */
	double shared;			/* the other samples' median */
};
size_t gauge_quiet(const double *v, const double *g, size_t n, double ref, struct gauge_split *s);

#endif
