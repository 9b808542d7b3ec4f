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
 * The OS calls are in os.h; where the OS has none (ENOSYS) pinning
 * reports "unsupported" rather than failing. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "affinity.h"

/* Pin to cpu, which save->mask (just read) must allow; 1, or -1. */
static int pin_one(struct affinity *save, int cpu)
{
	struct os_cpuset one = { { 0 } };

	if (!os_cpuset_has(&save->mask, cpu)) {
		errno = EINVAL;
		return -1;
	}
	os_cpuset_add(&one, cpu);
	if (os_cpuset_set(&one) < 0)
		return -1;
	save->saved = 1;
	return 1;
}

int affinity_pin_here(struct affinity *save, int *cpu)
{
	int c, rc;

	save->saved = 0;
	if (cpu)
		*cpu = -1;
	if (os_cpuset_get(&save->mask) < 0)
		return errno == ENOSYS ? 0 : -1;
	c = os_cpu_current();
	if (!os_cpuset_has(&save->mask, c))
		/* No current CPU known (old kernel) or a migration between the
		 * two calls: take the first allowed CPU instead (none: EINVAL). */
		for (c = 0; c < OS_MAX_CPUS && !os_cpuset_has(&save->mask, c); c++)
			;
	if ((rc = pin_one(save, c)) == 1 && cpu)
		*cpu = c;
	return rc;
}

int affinity_pin_to(int cpu, struct affinity *save)
{
	save->saved = 0;
	if (os_cpuset_get(&save->mask) < 0)
		return errno == ENOSYS ? 0 : -1;
	return pin_one(save, cpu);
}

int affinity_cpus(int *cpus, int max)
{
	struct os_cpuset set;
	int c, n = 0;

	if (os_cpuset_get(&set) < 0)
		return -1;
	for (c = 0; c < OS_MAX_CPUS && n < max; c++)
		if (os_cpuset_has(&set, c))
			cpus[n++] = c;
	return n;
}

void affinity_restore(const struct affinity *save)
{
	int e = errno;

	if (!save || !save->saved)
		return;
	os_cpuset_set(&save->mask);
	errno = e;
}

int affinity_need_two(char *why, size_t n)
{
	int c = affinity_count();

	if (c < 0)
		snprintf(why, n, "%s", errno == ENOSYS ? "this OS gives no way to pin a process to a CPU" :
						strerror(errno));
	else if (c < 2)
		snprintf(why, n, "one CPU to run on");
	return c >= 2 ? 0 : -1;
}

int affinity_count(void)
{
	struct os_cpuset set;
	int c, n = 0;

	if (os_cpuset_get(&set) < 0)
		return -1;
	for (c = 0; c < OS_MAX_CPUS; c++)
		n += os_cpuset_has(&set, c);
	return n;
}
