/* t-guard.c — the guard's judgement of findings and guard_explain: a
 * disturbance seen during a benchmark comes first in its figures' notes. */
#include <stdlib.h>
#include <string.h>
#include "../tap.h"
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
	free(m[0].note);
	for (size_t i = 0; i < g.nfindings; i++)
		free(g.findings[i]);
	free(g.findings);
	return done_testing();
}
