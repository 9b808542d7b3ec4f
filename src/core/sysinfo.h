/* sysinfo.h — facts about the host under test, read once per run and stored in the result. */
#ifndef BAKEOFF_SYSINFO_H
#define BAKEOFF_SYSINFO_H
#include <stdint.h>
#include <stdio.h>
#include "json.h"

struct cache_info {
	int level;		/* 1, 2, 3 ... */
	char type[16];		/* "data", "instruction", "unified" */
	uint64_t size;		/* bytes, per instance */
	int line;		/* coherency line size in bytes, 0 if unknown */
	int shared_by;		/* logical CPUs sharing one instance, 0 if unknown */
};

struct sysinfo {
	char os[64];		/* uname sysname + distribution when known: "Linux (Debian GNU/Linux 12)" */
	char kernel[128];	/* uname release + version */
	char hostname[256];
	char arch[32];		/* uname machine */
	char cpu_model[128];
	double cpu_mhz;		/* nominal/current MHz the OS reports; 0 if unknown */
	int cores;		/* physical cores, 0 if unknown */
	int threads;		/* online logical CPUs */
	struct cache_info cache[8];
	int ncache;
	uint64_t mem_total;	/* bytes */
	uint64_t page_size;	/* bytes */
	char virt[64];		/* hypervisor ("kvm", "xen", "vmware", ...) or "none" or "unknown" */
	char container[64];	/* "docker", "lxc", "podman", ... or "none" */
	char governor[32];	/* cpufreq governor of cpu0 or "" if none */
	char libc[64];		/* "glibc 2.36", "musl" */
	/* how bakeoff itself was built (filled from build-time macros) */
	char version[32];
	char compiler[128];
	char cflags[256];
};

/* Fill si from the running system; never fails hard: unknown fields stay
 * empty / 0. Returns 0. */
int sysinfo_read(struct sysinfo *si);
/* Largest data/unified cache size in bytes (the last-level cache), 0 if unknown. */
uint64_t sysinfo_llc_size(const struct sysinfo *si);
/* Emit the "host" object members (the caller has opened the object). */
void sysinfo_write_json(const struct sysinfo *si, struct jw *w);
/* Read a "host" object back; missing optional fields stay empty/0.
 * Returns 0, or -1 with a message in err when a required field
 * (hostname, os, cpu_model, threads) is missing or has the wrong type. */
int sysinfo_from_json(struct sysinfo *si, const struct json *host, char *err, size_t errlen);
/* Human-readable multi-line listing ("bakeoff sysinfo"). */
void sysinfo_print(const struct sysinfo *si, FILE *f);

#endif
