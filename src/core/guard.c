/* guard.c — the fairness checks of "How NOT to Run a Comparison Bakeoff":
 * a machine that is not idle, a CPU whose clock wanders, a guest whose
 * host may steal time, and buffers small enough to be served from cache.
 * Findings are plain sentences stored in the result; the verdict is
 * "warn" when any was found. CPU busyness is measured over 250 ms and
 * the load average read through os.h (where the OS gives neither, those
 * two checks are not made). */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "guard.h"
#include "os.h"
#include "units.h"

void guard_check(struct guard *g, const struct sysinfo *si, const struct bench_opts *opt,
		 int memory_selected)
{
	uint64_t llc = sysinfo_llc_size(si);
	char a[32], b[32];
	struct os_cpu_ticks t0, t1;
	struct timespec ts = { 0, 250000000 };
	double load;

	if (os_cpu_ticks(&t0) == 0) {
		nanosleep(&ts, NULL);
		if (os_cpu_ticks(&t1) == 0 && t1.total > t0.total) {
			double all = (double)(t1.total - t0.total);
			double busy = 100.0 * (double)(t1.busy - t0.busy) / all;
			double steal = 100.0 * (double)(t1.steal - t0.steal) / all;

			if (busy > 10)
				result_add_finding(g, "machine not idle: other processes used %.0f%% of "
						   "the CPUs in the 250 ms before the run", busy);
			if (steal > 2)
				result_add_finding(g, "the hypervisor stole %.0f%% of CPU time before "
						   "the run", steal);
		}
	}
	if (os_loadavg(&load) == 0 && si->threads > 0 && load > 0.5 * si->threads)
		result_add_finding(g, "load average %.2f on %d CPUs: the machine is busy", load,
				   si->threads);
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
