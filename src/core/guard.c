/* guard.c — the fairness checks of "How NOT to Run a Comparison Bakeoff":
 * a machine that is not idle, a CPU whose clock wanders, a guest whose
 * host may steal time, and buffers small enough to be served from cache.
 * Findings are plain sentences stored in the result; the verdict is
 * "warn" when any was found. CPU busyness is measured from /proc/stat
 * over 250 ms and the load average from /proc/loadavg (Linux; elsewhere
 * those two checks are not made yet: getloadavg() is not POSIX). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "guard.h"
#include "units.h"

#ifdef __linux__
/* Sum of busy and total jiffies over all CPUs, or -1. */
static int cpu_jiffies(unsigned long long *busy, unsigned long long *total, unsigned long long *steal)
{
	unsigned long long v[10] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int n, i;

	if (!f)
		return -1;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
	fclose(f);
	if (n < 4)
		return -1;
	*total = 0;
	for (i = 0; i < 8; i++)
		*total += v[i];
	*busy = *total - v[3] - v[4];	/* minus idle and iowait */
	*steal = v[7];
	return 0;
}
#endif

void guard_check(struct guard *g, const struct sysinfo *si, const struct bench_opts *opt,
		 int memory_selected)
{
	uint64_t llc = sysinfo_llc_size(si);
	char a[32], b[32];

#ifdef __linux__
	unsigned long long b0, t0, s0, b1, t1, s1;
	struct timespec ts = { 0, 250000000 };

	if (cpu_jiffies(&b0, &t0, &s0) == 0) {
		nanosleep(&ts, NULL);
		if (cpu_jiffies(&b1, &t1, &s1) == 0 && t1 > t0) {
			double busy = 100.0 * (double)(b1 - b0) / (double)(t1 - t0);
			double steal = 100.0 * (double)(s1 - s0) / (double)(t1 - t0);

			if (busy > 10)
				result_add_finding(g, "machine not idle: other processes used %.0f%% of "
						   "the CPUs in the 250 ms before the run", busy);
			if (steal > 2)
				result_add_finding(g, "the hypervisor stole %.0f%% of CPU time before "
						   "the run", steal);
		}
	}
#endif
#ifdef __linux__
	{
		FILE *f = fopen("/proc/loadavg", "r");
		double load[3];

		if (f && fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) == 3 &&
		    si->threads > 0 && load[0] > 0.5 * si->threads)
			result_add_finding(g, "load average %.2f on %d CPUs: the machine is busy",
					   load[0], si->threads);
		if (f)
			fclose(f);
	}
#endif
	if (si->governor[0] && strcmp(si->governor, "performance") != 0)
		result_add_finding(g, "cpufreq governor is \"%s\", not \"performance\": the clock "
				   "may change during the run", si->governor);
	if (strcmp(si->virt, "none") != 0 && strcmp(si->virt, "unknown") != 0 && si->virt[0])
		result_add_finding(g, "virtual machine (%s): the host's other guests can perturb "
				   "timings", si->virt);
	if (memory_selected && llc && opt->mem_size < 4 * llc) {
		fmt_size(a, sizeof(a), opt->mem_size);
		fmt_size(b, sizeof(b), llc);
		result_add_finding(g, "--mem-size %s is below 4x the last-level cache (%s): "
				   "memory bandwidth figures include cache hits", a, b);
	}
	snprintf(g->verdict, sizeof(g->verdict), "%s", g->nfindings ? "warn" : "ok");
}
