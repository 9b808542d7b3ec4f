/* guard.c — the fairness checks of "How NOT to Run a Comparison Bakeoff":
 * a machine that is not idle, a CPU whose clock wanders, a guest whose
 * host may steal time, and buffers small enough to be served from cache.
 * Findings are plain sentences stored in the result. The verdict is
 * "suspect" when a finding says the machine disturbed the measurement
 * (other processes busy, runnable tasks, load, steal, swapping, thermal
 * throttling), "valid" otherwise: standing conditions (a VM, a governor,
 * boost, a size under the cache) are findings too, but they are the same
 * for every run on that machine with those settings, and compare weighs
 * them file against file instead.
 *
 * Before the run, CPU busyness and steal are measured over 250 ms, the
 * runnable tasks sampled ten times in it, the load average, governor,
 * boost and throttling counters read through os.h (where the OS gives
 * none, that check is not made: no finding is invented). During the run,
 * guard_mark/guard_during repeat the CPU, swap and throttling checks over
 * each benchmark: the CPU time all processes used in it, less the
 * benchmark's own (its process and children), is what other processes
 * took. Runnable tasks are not judged during a benchmark: its own
 * processes are among them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "gauge.h"
#include "guard.h"
#include "os.h"
#include "registry.h"
#include "stats.h"
#include "units.h"

void guard_check(struct guard *g, const struct sysinfo *si, const struct bench_opts *opt,
		 int memory_selected)
{
	uint64_t llc = sysinfo_llc_size(si);
	char a[32], b[32];
	struct os_cpu_ticks t0, t1;
	struct timespec ts = { 0, 25000000 };
	double load, runnable = 0;
	unsigned long long thr0 = 0, thr1 = 0;
	int ticks = os_cpu_ticks(&t0) == 0, thr = os_throttle_count(&thr0) == 0, nrun = 0, i, n;

	/* 250 ms in ten naps, the run queue sampled after each (this process,
	 * awake to read it, is one of the tasks counted) */
	for (i = 0; i < 10; i++) {
		nanosleep(&ts, NULL);
		if (os_runnable(&n) == 0) {
			runnable += n > 0 ? n - 1 : 0;
			nrun++;
		}
	}
	if (ticks && os_cpu_ticks(&t1) == 0 && t1.total > t0.total) {
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
	/* a quarter of the CPUs with a task waiting, on average: on 2 CPUs,
	 * one busy loop is enough */
	if (nrun && si->threads > 0 && runnable / nrun > 0.25 * si->threads)
		result_add_finding(g, "runnable tasks: %.1f besides bakeoff on average (%d samples "
				   "in 250 ms) on %d CPUs: the machine is busy", runnable / nrun,
				   nrun, si->threads);
	if (thr && os_throttle_count(&thr1) == 0 && thr1 > thr0)
		result_add_finding(g, "the CPUs were throttled %llu times (thermal) in the 250 ms "
				   "before the run", thr1 - thr0);
	if (os_loadavg(&load) == 0 && si->threads > 0 && load > 0.5 * si->threads)
		result_add_finding(g, "load average %.2f on %d CPUs: the machine is busy", load,
				   si->threads);
	if (si->governor[0] && strcmp(si->governor, "performance") != 0)
		result_add_finding(g, "cpufreq governor is \"%s\", not \"performance\": the clock "
				   "may change during the run", si->governor);
	if (os_cpu_boost() == 1)
		result_add_finding(g, "CPU boost (turbo) is on: the clock depends on temperature and "
				   "on how many CPUs are busy");
	if (strcmp(si->virt, "none") != 0 && strcmp(si->virt, "unknown") != 0 && si->virt[0])
		result_add_finding(g, "virtual machine (%s): the host's other guests can perturb "
				   "timings", si->virt);
	if (os_free_page_reporting() == 1)
		result_add_finding(g, "the guest hands freed memory back to the host (virtio-balloon "
				   "free page reporting): memory touched again a few seconds after "
				   "it was freed costs a host fault per page, so page faults, fork "
				   "and buffered writes run slower after a pause than right after "
				   "another program freed memory");
	if (memory_selected && llc && opt->mem_size < 4 * llc) {
		fmt_size(a, sizeof(a), opt->mem_size);
		fmt_size(b, sizeof(b), llc);
		result_add_finding(g, "--mem-size %s is below 4x the last-level cache (%s): "
				   "memory bandwidth figures include cache hits", a, b);
	}
	guard_judge(g);
}

void guard_mark(struct guard_mark *m)
{
	struct os_cpu_ticks t;

	m->ok = os_cpu_ticks(&t) == 0;
	m->busy = t.busy;
	m->total = t.total;
	m->steal = t.steal;
	m->swap_ok = os_swap_pages(&m->swap_in, &m->swap_out) == 0;
	m->throttle_ok = os_throttle_count(&m->throttle) == 0;
}

double guard_speed_spread(const struct metric *m)
{
	double *s, lo, hi;
	size_t n = m->nsamples, k;

	if (n < 11 || m->derived || !(s = malloc(n * sizeof(*s))))
		return 1;
	memcpy(s, m->samples, n * sizeof(*s));
	qsort(s, n, sizeof(*s), stats_cmp_double);
	/* past the single slowest and fastest sample (a twentieth of them at
	 * each end of many); for a rate the low one is the slow one, for a
	 * time the fast one: slow speed / fast speed either way */
	k = n / 20 > 1 ? n / 20 : 1;
	lo = s[k];
	hi = s[n - 1 - k];
	free(s);
	return lo > 0 && hi > 0 ? lo / hi : 1;
}

/* m's slow samples explained by the core gauge: some were read on a shared
 * core (GAUGE_SHARED times the figure's quiet reading or more), and those
 * read on a quiet core do not spread to under 0.8x (or are too few to
 * judge). Their count into *nshared. */
static int shared_part(const struct metric *m, size_t *nshared)
{
	struct metric q = *m;
	double ref = m->gauges ? gauge_reference(m->gauges, m->nsamples) : 0;
	size_t i, n = 0, taken = 0;
	int explained;

	if (!(ref > 0) || !(q.samples = malloc(m->nsamples * sizeof(double))))
		return 0;
	for (i = 0; i < m->nsamples; i++) {
		taken += m->gauges[i] > 0;
		if (m->gauges[i] > 0 && m->gauges[i] < GAUGE_SHARED * ref)
			q.samples[n++] = m->samples[i];
	}
	q.nsamples = n;
	*nshared = taken - n;
	explained = *nshared > 0 && guard_speed_spread(&q) >= 0.8;
	free(q.samples);
	return explained;
}

/* A CPU benchmark's work is the same in every sample, and nothing makes it
 * run faster than the machine can: when, past the single slowest and
 * fastest sample, the slow ones ran at under 0.8x the speed of the fast
 * ones while no other process of this machine ran, something outside it
 * (the host, its other guests) slowed the machine for part of the figure
 * — or for most of it, and the median is the slowed speed. No steal need
 * show it. */
void guard_host_slowed(struct guard *g, const struct bench_result *br)
{
	size_t i;

	if (br->status != ST_OK)
		return;
	for (i = 0; i < br->nmetrics; i++) {
		const struct metric *m = &br->metrics[i];
		double r = guard_speed_spread(m);
		size_t ns;

		if (r < 0.8 && shared_part(m, &ns)) {
			result_add_finding(g, "during %s: the core was shared with another thread for "
					   "part of it: %zu of %zu samples%s%s read the core gauge %.3gx its "
					   "quietest or more, and its slow samples ran at %.2fx the speed of "
					   "its fast ones; the samples read on a quiet core did not spread so",
					   br->id, ns, m->nsamples, m->name[0] ? " of " : "", m->name,
					   GAUGE_SHARED, r);
			return;
		}
		if (r < 0.8) {
			result_add_finding(g, "during %s: the machine's speed moved with nothing else "
					   "running: its slow samples%s%s ran at %.2fx the speed of its fast "
					   "ones (the host or its other guests)",
					   br->id, m->name[0] ? " of " : "", m->name, r);
			return;
		}
	}
}

void guard_during(struct guard *g, const struct guard_mark *before, const struct bench_result *br,
		  int threads, int steady)
{
	struct guard_mark now;
	double hz = (double)sysconf(_SC_CLK_TCK), all, other = 0, steal;

	guard_mark(&now);
	if (before->swap_ok && now.swap_ok &&
	    (now.swap_in > before->swap_in || now.swap_out > before->swap_out))
		result_add_finding(g, "during %s: the machine swapped (%llu pages in, %llu out): "
				   "memory was short", br->id, now.swap_in - before->swap_in,
				   now.swap_out - before->swap_out);
	if (before->throttle_ok && now.throttle_ok && now.throttle > before->throttle)
		result_add_finding(g, "during %s: the CPUs were throttled %llu times (thermal): "
				   "the clock was lowered", br->id, now.throttle - before->throttle);
	if (before->ok && now.ok && now.total > before->total && hz > 0 && threads >= 1) {
		all = (double)(now.total - before->total);	/* ticks of all CPUs */
		steal = 100.0 * (double)(now.steal - before->steal) / all;
		/* busy includes steal; the benchmark's own CPU time is not "other" */
		other = (double)(now.busy - before->busy) - (double)(now.steal - before->steal) -
			(br->user_s + br->sys_s) * hz;
		other = 100.0 * (other > 0 ? other : 0) / all;
		/* under 20 ticks (0.1 s of 2 CPUs at 100 Hz) a share is too coarse */
		if (all >= 20 && other > 10)
			result_add_finding(g, "during %s: machine not idle: other processes used "
					   "%.0f%% of the CPUs while it ran", br->id, other);
		if (all >= 20 && steal > 2)
			result_add_finding(g, "during %s: the hypervisor stole %.0f%% of CPU time",
					   br->id, steal);
	}
	if (other <= 10)	/* else the busy machine explains it */
		if (steady)	/* its group's work is the same in every sample */
			guard_host_slowed(g, br);
	guard_judge(g);
}

void guard_explain(const struct guard *g, size_t from, struct bench_result *br)
{
	char seen[1024] = "";
	size_t i, j, l, n = 0;
	const char *what, *rest;
	char *note;

	for (i = from; i < g->nfindings; i++) {
		what = g->findings[i];
		if (!what || !guard_finding_suspect(what))
			continue;
		if ((rest = guard_finding_during(what, NULL, 0)))
			what = rest;
		l = strlen(seen);
		snprintf(seen + l, sizeof(seen) - l, "%s%s", n++ ? "; " : "", what);
	}
	if (!n)
		return;
	for (j = 0; j < br->nmetrics; j++) {
		struct metric *m = &br->metrics[j];

		if (!m->note || strstr(m->note, seen))
			continue;	/* none, or said in an earlier run (--runs) */
		l = strlen(seen) + strlen(m->note) + 32;
		if (!(note = malloc(l)))
			continue;
		snprintf(note, l, "first, %s; then: %s", seen, m->note);
		free(m->note);
		m->note = note;
	}
}

/* Whether br already has a finding that other processes were busy. */
static int busy_during(const struct guard *g, const char *id)
{
	char who[128];
	const char *rest;
	size_t i;

	for (i = 0; i < g->nfindings; i++)
		if (g->findings[i] && (rest = guard_finding_during(g->findings[i], who, sizeof(who))) &&
		    strcmp(who, id) == 0 && strncmp(rest, "machine not idle", 16) == 0)
			return 1;
	return 0;
}

void guard_shared_core(struct guard *g, const struct result *r)
{
	double best = 0;
	size_t i, j;

	for (i = 0; i < r->nbenches; i++)
		for (j = 0; j < r->benches[i].nmetrics; j++) {
			double g1 = r->benches[i].metrics[j].gauge;

			if (g1 > 0 && (best <= 0 || g1 < best))
				best = g1;
		}
	if (best <= 0)
		return;
	for (i = 0; i < r->nbenches; i++) {
		const struct bench_result *br = &r->benches[i];
		const struct metric *worst = NULL;

		if (br->status != ST_OK || !(registry_group_flags(br->group) & GROUP_STEADY_WORK) ||
		    busy_during(g, br->id))
			continue;
		for (j = 0; j < br->nmetrics; j++)
			if (!worst || br->metrics[j].gauge > worst->gauge)
				worst = &br->metrics[j];
		if (worst && worst->gauge >= GAUGE_SHARED * best)
			result_add_finding(g, "during %s: the core was shared with another thread for "
					   "most of it: the core gauge read %.2f, %.1fx its quietest in "
					   "this run (%.2f); the gauge cancels the clock, so the loss is "
					   "issue slots another thread took on the same core (the host's, "
					   "or a process here on its other hyperthread)",
					   br->id, worst->gauge, worst->gauge / best, best);
	}
	guard_judge(g);
}
