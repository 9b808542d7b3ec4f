/* os.h — everything bakeoff asks of the operating system beyond POSIX,
 * behind one small interface. Each OS family has one implementation file
 * that compiles its whole body only when it is the one selected below:
 *
 *   os-linux.c    Linux (/proc, /sys, sched_setaffinity)
 *   os-generic.c  any other POSIX system: POSIX calls only, "unknown"
 *                 for the rest (the sysctl notes for *BSD and macOS live
 *                 there, as the place to fill them in)
 *   os-posix.c    the functions POSIX alone provides, for every family
 *
 * Building with -DBAKEOFF_NO_LINUX selects os-generic.c on Linux too
 * (`make generic`), so the portable fallback is compiled and tested here.
 * docs/porting.md says how to add an OS family. */
#ifndef BAKEOFF_OS_H
#define BAKEOFF_OS_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__linux__) && !defined(BAKEOFF_NO_LINUX)
#define BAKEOFF_OS_LINUX 1
#endif

struct sysinfo;

/* ---------- host facts ---------- */

/* Fill the fields of si that POSIX cannot give: distribution (appended to
 * si->os, which holds uname's sysname), cpu_model, cpu_mhz, cores,
 * governor, caches, virt, container and libc. sysinfo_read has already
 * set the uname and sysconf fields. What is not known stays empty/0, or
 * "unknown" for virt, container and libc. */
void os_sysinfo(struct sysinfo *si);

/* ---------- guard: is the machine idle? ---------- */

/* Cumulative CPU time of all CPUs since boot, in clock ticks. */
struct os_cpu_ticks {
	unsigned long long busy;	/* total minus idle and I/O wait */
	unsigned long long total;
	unsigned long long steal;	/* taken by the hypervisor */
};

/* 0, or -1 when the OS gives no such counters. */
int os_cpu_ticks(struct os_cpu_ticks *t);
/* One-minute load average into *load1: 0, or -1 when unknown. */
int os_loadavg(double *load1);
/* Pages swapped in and out since boot: 0, or -1 when unknown. */
int os_swap_pages(unsigned long long *in, unsigned long long *out);
/* Tasks running or waiting for a CPU now, the caller included: 0, or -1
 * when unknown. */
int os_runnable(int *n);
/* CPU boost (turbo): 1 on, 0 off, -1 when the OS shows no such switch. */
int os_cpu_boost(void);
/* The hypervisor takes freed guest memory back (virtio-balloon free page
 * reporting): 1 yes, 0 a balloon without it, -1 no balloon seen. */
int os_free_page_reporting(void);
/* Thermal throttling events of all CPUs since boot (core and package):
 * 0, or -1 when the OS shows no such counters (a guest usually has none). */
int os_throttle_count(unsigned long long *n);

/* ---------- CPU affinity (see affinity.h for the policy) ---------- */

#define OS_MAX_CPUS 1024

/* A set of CPU numbers 0 .. OS_MAX_CPUS-1, one bit each. */
struct os_cpuset {
	unsigned char bit[OS_MAX_CPUS / 8];
};

static inline int os_cpuset_has(const struct os_cpuset *s, int cpu)
{
	return cpu >= 0 && cpu < OS_MAX_CPUS && (s->bit[cpu / 8] >> (cpu % 8) & 1);
}

static inline void os_cpuset_add(struct os_cpuset *s, int cpu)
{
	if (cpu >= 0 && cpu < OS_MAX_CPUS)
		s->bit[cpu / 8] |= (unsigned char)(1u << (cpu % 8));
}

/* The CPUs the calling process may run on: 0, or -1 with errno set
 * (ENOSYS where the OS has no affinity call bakeoff knows). */
int os_cpuset_get(struct os_cpuset *set);
/* Let the calling process (and children forked later) run only on set:
 * 0, or -1 with errno set (ENOSYS as above). */
int os_cpuset_set(const struct os_cpuset *set);
/* The CPU the caller is running on now, or -1 when unknown. */
int os_cpu_current(void);
/* Where a CPU sits: its package (socket), its core within the package, and
 * its last-level cache (the lowest CPU number sharing it); -1 for each the
 * OS does not say. 0, or -1 when it says none of them. */
struct os_cpu_place {
	int package, core, llc;
};
int os_cpu_place(int cpu, struct os_cpu_place *p);
/* Have the calling process killed when its parent dies (a benchmark's
 * process when bakeoff is killed with SIGKILL). Where the OS cannot, the
 * harness still notices the orphaning in long_progress(). */
void os_die_with_parent(void);

/* The CPU's name as a /proc/cpuinfo text f tells it (Linux's formats on
 * x86, arm64, POWER, IBM Z, RISC-V: os_sysinfo's cpu_model), into out;
 * "" where the OS has no such file. For tests/unit/t-cpuinfo.c. */
void os_cpuinfo_name(FILE *f, char *out, size_t n);

/* ---------- NUMA ---------- */

#define OS_MAX_NODES 64

/* A NUMA node: its number and its CPUs (none: a node of memory only). */
struct os_node {
	int id;
	struct os_cpuset cpus;
};
/* The nodes root lists (NULL: the system's; Linux /sys/devices/system/node),
 * ascending, at most max into node[]: how many, or -1 with errno set
 * (ENOSYS where the OS tells none). */
int os_numa_nodes(const char *root, struct os_node *node, int max);
/* Place the pages of [p, p+n) (page aligned) on node, those faulted in
 * already moved there (Linux mbind, MPOL_BIND, MPOL_MF_MOVE): 0, or -1
 * with errno set. */
int os_mem_bind(void *p, size_t n, int node);
/* The node holding the page at p (faulted in): the node, or -1 with errno
 * set (Linux get_mempolicy, MPOL_F_NODE | MPOL_F_ADDR). */
int os_mem_node(const void *p);

/* ---------- memory and file systems ---------- */

/* Bytes that a new allocation can get without pushing anything to swap
 * (Linux: MemAvailable). 0, or -1 when unknown. */
int os_mem_available(uint64_t *bytes);

/* Ask that [p, p+n) be backed by huge pages (Linux: transparent huge
 * pages, MADV_HUGEPAGE): an O_DIRECT buffer of physically contiguous
 * memory reaches the device as one request, where one of scattered 4 KiB
 * pages can take more segments than the device allows per request and be
 * split. A hint: nothing happens where the OS has no such thing. */
void os_hint_huge(void *p, size_t n);

/* Bytes an unprivileged user may still write on the file system holding
 * path (statvfs f_bavail * f_frsize). 0, or -1 with errno set. */
int os_fs_free(const char *path, uint64_t *free_bytes);

/* The file system holding a path and, where known, the disk behind it.
 * Strings are "" and rotational -1 when unknown. */
struct os_fs {
	char type[32];		/* "ext4", "xfs", "tmpfs", "overlay", ... */
	char source[256];	/* what was mounted: "/dev/sda1", "tmpfs", ... */
	char mount_point[256];
	char options[512];	/* mount options, then the file system's own */
	char device[32];	/* whole block device: "sda", "nvme0n1", "dm-0" */
	char model[128];	/* that device's model string */
	int rotational;		/* 1 spinning disk, 0 not, -1 unknown */
	char scheduler[32];	/* I/O scheduler in use: "mq-deadline", "none" */
	int journal;		/* ext2/3/4: 1 keeps a journal, 0 has none; -1 unknown or another type */
};

/* Describe the file system holding path (which must exist): 0, or -1
 * with errno set when nothing is known (ENOSYS: not on this OS); *out is
 * filled either way. */
int os_fs_describe(const char *path, struct os_fs *out);

#endif
