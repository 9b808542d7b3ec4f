/* guard.c — the fairness checks of "How NOT to Run a Comparison Bakeoff":
 * a machine that is not idle, a CPU whose clock wanders, a guest whose
 * host may steal time, and buffers small enough to be served from cache.
 * Findings are plain sentences stored in the result; the verdict is
 * "warn" when any was found. CPU busyness is measured over 250 ms and
 * the load average read through os.h (where the OS gives neither, those
 * two checks are not made). During the run, guard_mark/guard_during
 * repeat the CPU check over each benchmark: the CPU time all processes
 * used in it, less the benchmark's own (its process and children), is what
 * other processes took. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
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

void guard_mark(struct guard_mark *m)
{
	struct os_cpu_ticks t;

	m->ok = os_cpu_ticks(&t) == 0;
	m->busy = t.busy;
	m->total = t.total;
	m->steal = t.steal;
	m->swap_ok = os_swap_pages(&m->swap_in, &m->swap_out) == 0;
}

void guard_during(struct guard *g, const struct guard_mark *before, const struct bench_result *br,
		  int threads)
{
	struct guard_mark now;
	double hz = (double)sysconf(_SC_CLK_TCK), all, other, steal;

	guard_mark(&now);
	if (before->swap_ok && now.swap_ok &&
	    (now.swap_in > before->swap_in || now.swap_out > before->swap_out)) {
		result_add_finding(g, "during %s: the machine swapped (%llu pages in, %llu out): "
				   "memory was short", br->id, now.swap_in - before->swap_in,
				   now.swap_out - before->swap_out);
		snprintf(g->verdict, sizeof(g->verdict), "warn");
	}
	if (!before->ok || !now.ok || now.total <= before->total || hz <= 0 || threads < 1)
		return;
	all = (double)(now.total - before->total);	/* ticks of all CPUs */
	steal = 100.0 * (double)(now.steal - before->steal) / all;
	/* busy includes steal; the benchmark's own CPU time is not "other" */
	other = (double)(now.busy - before->busy) - (double)(now.steal - before->steal) -
		(br->user_s + br->sys_s) * hz;
	other = 100.0 * (other > 0 ? other : 0) / all;
	/* under 20 ticks (0.1 s of 2 CPUs at 100 Hz) a share is too coarse */
	if (all < 20)
		return;
	if (other > 10)
		result_add_finding(g, "during %s: machine not idle: other processes used %.0f%% of "
				   "the CPUs while it ran", br->id, other);
	if (steal > 2)
		result_add_finding(g, "during %s: the hypervisor stole %.0f%% of CPU time", br->id,
				   steal);
	snprintf(g->verdict, sizeof(g->verdict), "%s", g->nfindings ? "warn" : "ok");
}
