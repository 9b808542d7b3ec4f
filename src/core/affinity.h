/* affinity.h — pin the calling process to one CPU and undo it. The only
 * place bakeoff touches CPU affinity (Linux sched_setaffinity; other
 * systems report "unsupported"). The saved mask is opaque fixed storage so
 * callers need no OS headers or feature macros. */
#ifndef BAKEOFF_AFFINITY_H
#define BAKEOFF_AFFINITY_H

struct affinity {
	int saved;			/* 1 when mask holds a mask to restore */
	unsigned char mask[128];	/* the OS's mask (cpu_set_t: 1024 CPUs) */
};

/* Pin the calling process to the CPU it is running on now (children
 * forked afterwards inherit it). The previous mask goes into *save and
 * the CPU number into *cpu (may be NULL). Returns 1 pinned, 0 unsupported
 * on this OS (*save marked empty), -1 error with errno set. */
int affinity_pin_here(struct affinity *save, int *cpu);
/* Put back the mask saved by affinity_pin_here; nothing when none was
 * saved (or save is NULL). */
void affinity_restore(const struct affinity *save);
/* How many CPUs the calling process may run on, or -1 (errno set; ENOSYS
 * where unsupported). */
int affinity_count(void);

#endif
