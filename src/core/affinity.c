/* affinity.c — CPU pinning behind affinity.h.
 *
 * Why pin at all: a round trip between two processes on two idle vCPUs of
 * a VM pays a cross-CPU wake-up through the hypervisor (~85 us on the
 * 2-vCPU KVM guest this was written on, against ~2.8 us on one CPU), so
 * latency figures are only comparable with lmbench or perf bench when the
 * CPU placement is the same. The CPU the process is on now is chosen, not
 * the first allowed one, so that --parallel copies that the scheduler has
 * spread over CPUs stay spread.
 *
 * Linux only (sched_getaffinity/sched_setaffinity, which need
 * _GNU_SOURCE, defined here before any header); elsewhere pinning reports
 * "unsupported" rather than failing. */
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <string.h>
#include "affinity.h"
#if defined(__linux__)
#include <sched.h>

_Static_assert(sizeof(cpu_set_t) <= sizeof(((struct affinity *)0)->mask),
	       "struct affinity cannot hold a cpu_set_t");

int affinity_pin_here(struct affinity *save, int *cpu)
{
	cpu_set_t old, one;
	int c;

	save->saved = 0;
	if (sched_getaffinity(0, sizeof(old), &old) < 0)
		return -1;
	c = sched_getcpu();
	if (c < 0 || c >= CPU_SETSIZE || !CPU_ISSET(c, &old)) {
		/* No sched_getcpu (old kernel) or a migration between the two
		 * calls: take the first allowed CPU instead. */
		for (c = 0; c < CPU_SETSIZE && !CPU_ISSET(c, &old); c++)
			;
		if (c == CPU_SETSIZE) {
			errno = EINVAL;
			return -1;
		}
	}
	CPU_ZERO(&one);
	CPU_SET(c, &one);
	if (sched_setaffinity(0, sizeof(one), &one) < 0)
		return -1;
	memcpy(save->mask, &old, sizeof(old));
	save->saved = 1;
	if (cpu)
		*cpu = c;
	return 1;
}

void affinity_restore(const struct affinity *save)
{
	cpu_set_t old;
	int e = errno;

	if (!save || !save->saved)
		return;
	memcpy(&old, save->mask, sizeof(old));
	sched_setaffinity(0, sizeof(old), &old);
	errno = e;
}

int affinity_count(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -1;
	return CPU_COUNT(&set);
}

#else

int affinity_pin_here(struct affinity *save, int *cpu)
{
	save->saved = 0;
	if (cpu)
		*cpu = -1;
	return 0;
}

void affinity_restore(const struct affinity *save)
{
	(void)save;
}

int affinity_count(void)
{
	errno = ENOSYS;
	return -1;
}

#endif
