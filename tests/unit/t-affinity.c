/* t-affinity.c — affinity_pin_here pins the process to exactly one CPU
 * (checked both through the module and, independently, through the
 * kernel's Cpus_allowed_list in /proc/self/status), affinity_restore
 * brings the original set back, and a restore with nothing saved is
 * harmless. Without the Linux implementation (another OS, or make generic)
 * the module must say "unsupported" (0). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "affinity.h"
#include "tap.h"

#ifdef BAKEOFF_OS_LINUX
/* CPUs in /proc/self/status "Cpus_allowed_list: 0-3,6", or -1. */
static int proc_allowed(void)
{
	char line[4096], *p, *end;
	FILE *f = fopen("/proc/self/status", "r");
	int n = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "Cpus_allowed_list:", 18) == 0) {
			n = 0;
			for (p = line + 18; *p;) {
				long a, b;

				while (*p == ' ' || *p == '\t' || *p == ',')
					p++;
				if (*p < '0' || *p > '9')
					break;
				a = b = strtol(p, &end, 10);
				p = end;
				if (*p == '-') {
					b = strtol(p + 1, &end, 10);
					p = end;
				}
				n += (int)(b - a + 1);
			}
			break;
		}
	fclose(f);
	return n;
}
#endif

int main(void)
{
	struct affinity save, none = { 0 };
	int before, proc_before, cpu = -2, rc;

#ifdef BAKEOFF_OS_LINUX
	before = affinity_count();
	affinity_restore(NULL);
	affinity_restore(&none);
	is_int(affinity_count(), before, "restore with nothing saved leaves the CPUs allowed alone");
	proc_before = proc_allowed();
	ok(before >= 1, "affinity_count before: %d", before);
	if (proc_before >= 0)
		is_int(proc_before, before, "Cpus_allowed_list agrees before pinning");
	rc = affinity_pin_here(&save, &cpu);
	is_int(rc, 1, "affinity_pin_here pins on Linux (errno %d)", rc < 0 ? errno : 0);
	ok(cpu >= 0 && cpu < 1024, "pinned_cpu is a CPU number (%d)", cpu);
	is_int(affinity_count(), 1, "one CPU allowed after pinning");
	if (proc_before >= 0)
		is_int(proc_allowed(), 1, "Cpus_allowed_list shows one CPU after pinning");
	affinity_restore(&save);
	is_int(affinity_count(), before, "restore brings back %d CPUs", before);
	if (proc_before >= 0)
		is_int(proc_allowed(), proc_before, "Cpus_allowed_list restored");
	/* Pinning again from the restored state works the same way. */
	rc = affinity_pin_here(&save, &cpu);
	is_int(rc, 1, "second pin");
	affinity_restore(&save);
	is_int(affinity_count(), before, "second restore");
#else
	(void)before;
	(void)proc_before;
	affinity_restore(NULL);	/* harmless: nothing saved */
	affinity_restore(&none);
	rc = affinity_pin_here(&save, &cpu);
	is_int(rc, 0, "affinity_pin_here reports unsupported here");
	is_int(save.saved, 0, "nothing saved");
	affinity_restore(&save);
#endif
	return done_testing();
}
