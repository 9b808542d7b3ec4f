/* t-guard.c — the guard's judgement of findings and guard_explain: a
 * disturbance seen during a benchmark comes first in its figures' notes;
 * the spread of a CPU figure's samples, on samples of runs where the host
 * slowed this guest and on a steady one; the core gauge's finding, a CPU
 * benchmark whose core was shared while another ran alone; the samples of
 * a figure read on a quiet core (gauge_quiet). */
#include <stdlib.h>
#include <string.h>
#include "../tap.h"
#include "gauge.h"
#include "guard.h"
#include "result.h"

int main(void)
{
	struct guard g = { 0 };
	struct bench_result b = { 0 };
	struct metric m[2] = { { 0 } };
	const char *busy = "machine not idle: other processes used 72% of the CPUs while it ran";

	ok(guard_finding_suspect("during mem.lat: machine not idle: other processes used 5% of "
				 "the CPUs while it ran"), "a busy machine during a benchmark is suspect");
	ok(!guard_finding_suspect("virtual machine (kvm): the host's other guests can perturb "
				  "timings"), "a standing condition is not");
	ok(!guard_finding_suspect("the guest hands freed memory back to the host (virtio-balloon "
				  "free page reporting): memory touched again ..."),
	   "nor is free page reporting");
	result_add_finding(&g, "virtual machine (kvm): the host's other guests can perturb timings");
	guard_judge(&g);
	is_str(g.verdict, "valid", "standing conditions only: valid");

	b.id = "mem.lat";
	b.metrics = m;
	b.nmetrics = 2;
	m[0].note = strdup("plateau ends at 8M but the OS reports 32M: a shared slice?");
	m[1].note = NULL;
	result_add_finding(&g, "during mem.lat: %s", busy);
	result_add_finding(&g, "during mem.lat: the hypervisor stole 9%% of CPU time");
	guard_judge(&g);
	is_str(g.verdict, "suspect", "a disturbance: suspect");
	guard_explain(&g, 0, &b);
	const char *want = "first, machine not idle: other processes used 72% of the CPUs while "
			   "it ran; the hypervisor stole 9% of CPU time; then: plateau ends at 8M";

	ok(m[0].note && strncmp(m[0].note, want, strlen(want)) == 0,
	   "the disturbances come first in the note, the hardware reading after: %s",
	   m[0].note ? m[0].note : "(none)");
	ok(!strstr(m[0].note, "virtual machine"), "a standing condition is not put in the note");
	ok(m[1].note == NULL, "a figure without a note gets none");
	{
		char *before = strdup(m[0].note);

		guard_explain(&g, 0, &b);	/* --runs: the same findings again */
		is_str(m[0].note, before, "a finding already in the note is not repeated");
		free(before);
	}
	{
		/* cpu.float at 06:54 UTC, 2026-12-01, guard otherwise "valid": at
		 * about 660 Mops/s, with dips to 125 (33 samples); and the
		 * same figure steady within +-2%. */
		double slowed[33] = { 672, 677, 675, 652, 657, 663, 656, 667, 675, 642, 646, 628, 125,
				      167, 309, 457, 545, 619, 678, 683, 685, 675, 661, 675, 656, 668,
				      671, 671, 380, 375, 635, 689, 679 };
		double steady[11] = { 660, 665, 671, 655, 662, 668, 659, 664, 670, 657, 663 };
		struct metric f = { .better = BETTER_HIGHER, .samples = slowed, .nsamples = 33 };
		struct metric t = { .better = BETTER_LOWER, .samples = steady, .nsamples = 11 };
		double r;

		r = guard_speed_spread(&f);
		ok(r > 0.2 && r < 0.3, "slowed rate: its slow samples at %.2fx the fast ones' speed (167/685)", r);
		f.samples = steady;
		f.nsamples = 11;
		r = guard_speed_spread(&f);
		ok(r > 0.97 && r <= 1, "steady rate: %.3fx", r);
		r = guard_speed_spread(&t);
		ok(r > 0.97 && r <= 1, "steady time: %.3fx", r);
		steady[4] = 300;	/* one sample interrupted */
		r = guard_speed_spread(&f);
		ok(r > 0.97 && r <= 1, "steady but for one interrupted sample: %.3fx", r);
		steady[4] = 662;
		/* cpu.float at 07:32 UTC: slow for most of the figure (its median
		 * 573 Mops/s; 1071 in the next run), three samples faster */
		{
			double most[33] = { 296, 550, 596, 600, 598, 153, 377, 569, 616, 929, 1129, 1139,
					    631, 597, 593, 545, 559, 584, 566, 567, 573, 565, 573, 585,
					    580, 564, 566, 585, 582, 575, 563, 565, 565 };

			f.samples = most;
			f.nsamples = 33;
			r = guard_speed_spread(&f);
			ok(r > 0.2 && r < 0.3, "slow for most of it: %.2fx (296/1129), though the median is slow too", r);
		}
		t.samples = slowed;
		t.nsamples = 10;
		ok(guard_speed_spread(&t) == 1, "under 11 samples: not judged");
		ok(guard_finding_suspect("during cpu.float: the machine's speed moved with nothing else "
					 "running: its slow samples ran at 0.26x the speed of its fast "
					 "ones (the host or its other guests)"),
		   "a machine whose speed moved is a disturbance: suspect");
	}
	{
		/* gauges as read on the KVM guest, 2026-12-07: 0.49-0.50 alone on
		 * the core, 0.61-0.98 in runs at half speed */
		struct { const char *id, *group; double gauge; } bs[] = {
			{ "cpu.int", "cpu", 0.84 },
			{ "cpu.float", "cpu", 0.50 },
			{ "proc.syscall.null", "proc", 0.98 },	/* not steady work: not judged */
			{ "cpu.ops", "cpu", 0.54 },		/* 1.08x: under GAUGE_SHARED */
		};
		double v[11] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
		struct result r = { 0 };
		size_t i, n;

		for (i = 0; i < sizeof(bs) / sizeof(bs[0]); i++) {
			struct bench_result *br = result_add_bench(&r, bs[i].id, bs[i].group, "t");
			struct metric *mt = br ? result_add_metric(br, "", "ns", BETTER_LOWER, v, 11) : NULL;

			if (mt)
				br->status = ST_OK, mt->gauge = bs[i].gauge;
		}
		guard_shared_core(&r.guard, &r);
		ok(r.guard.nfindings == 1 && strncmp(r.guard.findings[0], "during cpu.int: the core was shared", 35) == 0,
		   "the CPU benchmark whose gauge read 1.7x the run's quietest is found: %s",
		   r.guard.nfindings ? r.guard.findings[0] : "(none)");
		ok(r.guard.nfindings == 1 && strstr(r.guard.findings[0], "read 0.84, 1.7x its quietest in this run (0.50)"),
		   "  with the reading, the ratio and the quiet reading");
		is_str(r.guard.verdict, "suspect", "  a shared core is a disturbance: suspect");
		result_free(&r);

		memset(&r, 0, sizeof(r));
		for (i = 0; i < 2; i++) {
			struct bench_result *br = result_add_bench(&r, bs[i].id, "cpu", "t");
			struct metric *mt = br ? result_add_metric(br, "", "ns", BETTER_LOWER, v, 11) : NULL;

			if (mt)
				br->status = ST_OK, mt->gauge = 0.84;
		}
		result_add_finding(&r.guard, "during cpu.float: %s", busy);
		n = r.guard.nfindings;
		guard_shared_core(&r.guard, &r);
		ok(r.guard.nfindings == n, "every reading of the run shared: nothing quiet to compare with, no finding");
		r.benches[1].metrics[0].gauge = 0.5;
		guard_shared_core(&r.guard, &r);
		ok(r.guard.nfindings == n + 1 && strstr(r.guard.findings[n], "during cpu.int"),
		   "cpu.int found once a quiet reading is in the run; cpu.float not: the busy machine explains it");
		result_free(&r);
	}
	{	/* gauge_quiet: the samples of a figure read on a quiet core */
		double v[33], gv[33];
		struct gauge_split sp;
		size_t i, k;

		for (i = 0; i < 33; i++) {	/* cpu.int's two levels, loops/s */
			int shared = i % 3 == 1;

			v[i] = shared ? 12e6 + (double)i : 24e6 + (double)i;
			gv[i] = shared ? 0.70 + 0.01 * (double)(i % 5) : 0.500 + 0.001 * (double)(i % 4);
		}
		k = gauge_quiet(v, gv, 33, gauge_reference(gv, 33), &sp);
		ok(k == 22 && sp.quiet > 23e6 && sp.quiet_gauge >= 0.5 && sp.quiet_gauge < 0.504 && sp.shared < 13e6,
		   "a third of the samples shared: the other 22 taken (%zu, %.4g, gauge %.3f; the shared 11: %.4g)", k,
		   sp.quiet, sp.quiet_gauge, sp.shared);
		gv[5] = 0.40;	/* one freak low reading does not set the reference */
		ok(gauge_reference(gv, 33) == 0.5, "  a freak low reading does not set the reference");
		k = gauge_quiet(v, gv, 33, gauge_reference(gv, 33), &sp);
		ok(k == 22 && sp.quiet > 23e6, "  nor changes the quiet samples (%zu)", k);
		gv[6] = 0;	/* a reading not taken counts neither way */
		k = gauge_quiet(v, gv, 33, 0.5, &sp);
		ok(k == 21, "  a reading not taken: left out (%zu)", k);
		for (i = 0; i < 33; i++)
			gv[i] = 0.500 + 0.001 * (double)(i % 4);
		ok(gauge_quiet(v, gv, 33, 0.5, &sp) == 0, "every sample quiet: 0 (the figure's own median is)");
		for (i = 0; i < 33; i++)
			gv[i] = i < 4 ? 0.5 : 0.9;
		ok(gauge_quiet(v, gv, 33, 0.5, &sp) == 0, "only 4 read quiet: too few, 0");
		ok(gauge_quiet(v, gv, 33, 0.9, &sp) == 0, "  and against a shared reference, all 33 read quiet: 0");
		ok(gauge_quiet(v, gv, 0, 0.5, &sp) == 0 && gauge_reference(gv, 1) == 0, "no samples: 0");

		/* the spread of a CPU figure: the core gauge's readings say
		 * whether its slow samples were the shared ones */
		struct bench_result br = { 0 };
		struct guard gg = { 0 };
		struct metric *mt;

		br.id = "cpu.int";
		br.status = ST_OK;
		for (i = 0; i < 33; i++)
			gv[i] = i % 3 == 1 ? 0.70 + 0.01 * (double)(i % 5) : 0.500 + 0.001 * (double)(i % 4);
		mt = result_add_metric(&br, "", "loops/s", BETTER_HIGHER, v, 33);
		result_metric_gauges(mt, gv);
		guard_host_slowed(&gg, &br);
		ok(gg.nfindings == 1 && strstr(gg.findings[0], "during cpu.int: the core was shared with another "
						"thread for part of it: 11 of 33 samples"),
		   "slow samples read shared, the quiet ones steady: the core was shared (%s)",
		   gg.nfindings ? gg.findings[0] : "none");
		ok(guard_finding_suspect(gg.findings[0]), "  a disturbance");
		for (i = 0; i < 33; i++)
			mt->gauges[i] = 0.5;
		guard_host_slowed(&gg, &br);
		ok(gg.nfindings == 2 && strstr(gg.findings[1], "the machine's speed moved"),
		   "every sample read quiet: the machine's speed moved, as before");
		for (i = 0; i < gg.nfindings; i++)
			free(gg.findings[i]);
		free(gg.findings);
		br.id = NULL;
		result_bench_free(&br);
	}
	free(m[0].note);
	for (size_t i = 0; i < g.nfindings; i++)
		free(g.findings[i]);
	free(g.findings);
	return done_testing();
}
