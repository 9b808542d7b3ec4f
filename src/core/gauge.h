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

/* A figure's gauge (the median of its readings) this many times the
 * quietest figure's: its core was shared. Quiet medians here sit within 2%
 * of each other (0.49-0.50); shared ones read 0.61-0.98. */
#define GAUGE_SHARED 1.1

/* One reading, about 60 us here: the wide loop's time per iteration over
 * the chain's, the median of three such ratios (an interrupt in one is
 * dropped; a minimum would favour the moments the other thread paused),
 * or 0 when the clock did not move. */
double gauge_core(void);

#endif
