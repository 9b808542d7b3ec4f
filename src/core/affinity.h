/* affinity.h — pin the calling process to one CPU and undo it. The only
 * place bakeoff decides CPU affinity; the OS calls behind it are in os.h
 * (Linux sched_setaffinity; systems without one report "unsupported"). */
#ifndef BAKEOFF_AFFINITY_H
#define BAKEOFF_AFFINITY_H
#include "os.h"

struct affinity {
	int saved;		/* 1 when mask holds a mask to restore */
	struct os_cpuset mask;
};

/* Pin the calling process to the CPU it is running on now (children
 * forked afterwards inherit it). The previous mask goes into *save and
 * the CPU number into *cpu (may be NULL). Returns 1 pinned, 0 unsupported
 * on this OS (*save marked empty), -1 error with errno set. */
int affinity_pin_here(struct affinity *save, int *cpu);
/* Pin the calling process to CPU cpu (one it may run on); like
 * affinity_pin_here otherwise. */
int affinity_pin_to(int cpu, struct affinity *save);
/* The CPUs the calling process may run on, ascending, at most max of them
 * into cpus: how many, or -1 (errno set; ENOSYS where unsupported). */
int affinity_cpus(int *cpus, int max);
/* Whether a benchmark that pins processes to two CPUs or more can run
 * here: 0; else -1 with why in why ("one CPU to run on", or that the OS
 * cannot pin). */
int affinity_need_two(char *why, size_t n);
/* Put back the mask saved by affinity_pin_here; nothing when none was
 * saved (or save is NULL). */
void affinity_restore(const struct affinity *save);
/* How many CPUs the calling process may run on, or -1 (errno set; ENOSYS
 * where unsupported). */
int affinity_count(void);

#endif
