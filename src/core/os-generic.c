/* os-generic.c — the os.h implementation for any POSIX system bakeoff has
 * no specific code for yet (and for Linux built with -DBAKEOFF_NO_LINUX):
 * POSIX calls where they exist, "unknown" for everything else. Compiled
 * only when os.h does not select an OS-specific file. */
#include "os.h"
#ifndef BAKEOFF_OS_LINUX
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif
#include "str.h"
#include "sysinfo.h"

/* The *BSDs and macOS could fill most of this from sysctl(3):
 * hw.model / machdep.cpu.brand_string (cpu_model), hw.clockrate or
 * hw.cpufrequency (cpu_mhz), hw.physicalcpu / kern.smp.cores (cores),
 * hw.l1dcachesize, hw.l2cachesize, hw.cachelinesize (caches),
 * kern.vm_guest / kern.hv_vendor (virt), security.jail.jailed (container);
 * kern.cp_time (os_cpu_ticks), vm.loadavg (os_loadavg), statfs(2)
 * f_fstypename and f_mntfromname (os_fs_describe). */
void os_sysinfo(struct sysinfo *si)
{
	str_copy(si->virt, sizeof si->virt, "unknown");
	str_copy(si->container, sizeof si->container, "unknown");
#if defined(__GLIBC__)
	str_fmt(si->libc, sizeof si->libc, "glibc %s", gnu_get_libc_version());
#else
	str_copy(si->libc, sizeof si->libc, "unknown");
#endif
}

int os_cpu_ticks(struct os_cpu_ticks *t)
{
	(void)t;
	return -1;
}

int os_loadavg(double *load1)
{
	(void)load1;	/* getloadavg(3) is common but not POSIX */
	return -1;
}

int os_swap_pages(unsigned long long *in, unsigned long long *out)
{
	(void)in;	/* vm.stats.vm.v_swappgsin / v_swappgsout on FreeBSD */
	(void)out;
	return -1;
}

int os_runnable(int *n)
{
	(void)n;	/* vm.loadavg gives no run queue; kern.proc would */
	return -1;
}

int os_cpu_boost(void)
{
	return -1;	/* machdep.hwpstate / hw.cpufrequency on some systems */
}

int os_free_page_reporting(void)
{
	return -1;	/* a balloon driver's knobs are OS-specific */
}

int os_throttle_count(unsigned long long *n)
{
	(void)n;
	return -1;
}

int os_cpuset_get(struct os_cpuset *set)
{
	(void)set;
	errno = ENOSYS;
	return -1;
}

int os_cpuset_set(const struct os_cpuset *set)
{
	(void)set;
	errno = ENOSYS;
	return -1;
}

int os_cpu_current(void)
{
	return -1;
}

int os_cpu_place(int cpu, struct os_cpu_place *p)
{
	(void)cpu;
	p->package = p->core = p->llc = -1;
	errno = ENOSYS;
	return -1;
}

void os_die_with_parent(void)
{
}

void os_cpuinfo_name(FILE *f, char *out, size_t n)
{
	(void)f;
	if (n)
		out[0] = '\0';
}

int os_numa_nodes(const char *root, struct os_node *node, int max)
{
	(void)root;
	(void)node;
	(void)max;
	errno = ENOSYS;
	return -1;
}

int os_mem_bind(void *p, size_t n, int node)
{
	(void)p;
	(void)n;
	(void)node;
	errno = ENOSYS;
	return -1;
}

int os_mem_node(const void *p)
{
	(void)p;
	errno = ENOSYS;
	return -1;
}

int os_mem_available(uint64_t *bytes)
{
#if defined(_SC_AVPHYS_PAGES) && defined(_SC_PAGESIZE)
	long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	if (pages > 0 && size > 0) {
		*bytes = (uint64_t)pages * (uint64_t)size;
		return 0;
	}
#else
	(void)bytes;
#endif
	return -1;
}

void os_hint_huge(void *p, size_t n)
{
	(void)p;
	(void)n;
}

int os_fs_describe(const char *path, struct os_fs *out)
{
	struct stat st;

	memset(out, 0, sizeof *out);
	out->rotational = out->journal = -1;
	if (stat(path, &st) == 0)
		errno = ENOSYS;
	return -1;
}

#endif /* !BAKEOFF_OS_LINUX */
