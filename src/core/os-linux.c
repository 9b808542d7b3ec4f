/* os-linux.c — the Linux implementation of os.h: host facts from /proc,
 * /sys and /etc/os-release, CPU time and load from /proc, affinity with
 * sched_setaffinity, memory from /proc/meminfo, file systems from
 * /proc/self/mountinfo and /sys/dev/block. Compiled only when os.h
 * selects it (BAKEOFF_OS_LINUX). */
#define _GNU_SOURCE	/* sched_getaffinity, sched_getcpu, CPU_*, major/minor */
#include "os.h"
#ifdef BAKEOFF_OS_LINUX
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#if defined(__GLIBC__) && !defined(__UCLIBC__)
#include <gnu/libc-version.h>
#endif
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#define HAVE_CPUID 1
#endif
#include "str.h"
#include "sysinfo.h"
#include "units.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---------- file helpers ---------- */

static void lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

/* Does s contain needle, ignoring case? */
static int contains_ci(const char *s, const char *needle)
{
	size_t n = strlen(needle);

	for (; *s; s++)
		if (strncasecmp(s, needle, n) == 0)
			return 1;
	return n == 0;
}

/* Read up to n-1 bytes of a file into out (NUL-terminated).
 * Returns the byte count or -1 when the file cannot be opened. */
static long read_file(const char *path, char *out, size_t n)
{
	FILE *fp;
	size_t got;

	if (n == 0)
		return -1;
	out[0] = '\0';
	fp = fopen(path, "r");
	if (!fp)
		return -1;
	got = fread(out, 1, n - 1, fp);
	out[got] = '\0';
	fclose(fp);
	return (long)got;
}

/* First line of a (sysfs) file, whitespace-trimmed, into out. 0 or -1. */
static int read_line(const char *path, char *out, size_t n)
{
	char tmp[512];
	char *nl;

	if (read_file(path, tmp, sizeof tmp) < 0) {
		if (n)
			out[0] = '\0';
		return -1;
	}
	nl = strchr(tmp, '\n');
	if (nl)
		*nl = '\0';
	str_copy(out, n, str_trim(tmp));
	return 0;
}

/* A file holding one integer; returns fallback when absent/unparsable. */
static long long read_ll(const char *path, long long fallback)
{
	char tmp[64], *end;
	long long v;

	if (read_line(path, tmp, sizeof tmp) < 0 || !tmp[0])
		return fallback;
	errno = 0;
	v = strtoll(tmp, &end, 10);
	if (errno || end == tmp)
		return fallback;
	return v;
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* ---------- /etc/os-release ---------- */

/* Unquote an os-release value in place (shell-like: "..." with \-escapes, '...'). */
static char *os_release_value(char *v)
{
	char *r, *w, q;

	v = str_trim(v);
	if (*v != '"' && *v != '\'')
		return v;
	q = *v++;
	for (r = w = v; *r && *r != q; r++) {
		if (q == '"' && *r == '\\' && r[1] && strchr("\"\\$`", r[1]))
			r++;
		*w++ = *r;
	}
	*w = '\0';
	return v;
}

static void distro_name(char *out, size_t n)
{
	static const char *const paths[] = { "/etc/os-release", "/usr/lib/os-release" };
	char line[512], name[128] = "", ver[64] = "";
	size_t i;

	out[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(paths); i++) {
		FILE *fp = fopen(paths[i], "r");

		if (!fp)
			continue;
		while (fgets(line, sizeof line, fp)) {
			char *eq = strchr(line, '='), *v;

			if (!eq)
				continue;
			*eq = '\0';
			v = os_release_value(eq + 1);
			if (strcmp(line, "PRETTY_NAME") == 0)
				str_copy(out, n, v);
			else if (strcmp(line, "NAME") == 0)
				str_copy(name, sizeof name, v);
			else if (strcmp(line, "VERSION_ID") == 0)
				str_copy(ver, sizeof ver, v);
		}
		fclose(fp);
		if (!out[0] && name[0])
			str_fmt(out, n, "%s%s%s", name, ver[0] ? " " : "", ver);
		return;
	}
}

/* ---------- /proc/cpuinfo ---------- */

struct arm_name {
	unsigned id;
	const char *name;
};

static const struct arm_name arm_implementers[] = {
	{ 0x41, "ARM" }, { 0x42, "Broadcom" }, { 0x43, "Cavium" }, { 0x46, "Fujitsu" },
	{ 0x48, "HiSilicon" }, { 0x4e, "NVIDIA" }, { 0x50, "APM" }, { 0x51, "Qualcomm" },
	{ 0x61, "Apple" }, { 0x6d, "Microsoft" }, { 0xc0, "Ampere" },
};

/* parts by implementer: ARM's own, then others' that name no Cortex */
static const struct arm_name arm_parts[] = {	/* implementer 0x41 */
	{ 0xd03, "Cortex-A53" }, { 0xd04, "Cortex-A35" }, { 0xd05, "Cortex-A55" },
	{ 0xd07, "Cortex-A57" }, { 0xd08, "Cortex-A72" }, { 0xd09, "Cortex-A73" },
	{ 0xd0a, "Cortex-A75" }, { 0xd0b, "Cortex-A76" }, { 0xd0c, "Neoverse-N1" },
	{ 0xd0d, "Cortex-A77" }, { 0xd40, "Neoverse-V1" }, { 0xd41, "Cortex-A78" },
	{ 0xd44, "Cortex-X1" }, { 0xd46, "Cortex-A510" }, { 0xd47, "Cortex-A710" },
	{ 0xd48, "Cortex-X2" }, { 0xd49, "Neoverse-N2" }, { 0xd4f, "Neoverse-V2" },
	{ 0xd80, "Cortex-A520" }, { 0xd81, "Cortex-A720" }, { 0xd82, "Cortex-X4" },
	{ 0xd84, "Neoverse-V3" }, { 0xd8e, "Neoverse-N3" },
};

static const struct arm_name arm_other_parts[] = {	/* implementer << 12 | part */
	{ 0x46 << 12 | 0x001, "A64FX" }, { 0x48 << 12 | 0xd01, "Kunpeng-920 (TSV110)" },
	{ 0x4e << 12 | 0x004, "Carmel" }, { 0x51 << 12 | 0x800, "Kryo" },
	{ 0x61 << 12 | 0x022, "M1 Icestorm" }, { 0x61 << 12 | 0x023, "M1 Firestorm" },
	{ 0xc0 << 12 | 0xac3, "AmpereOne" },
};

/* IBM Z machine types (s390x /proc/cpuinfo's "machine = NNNN") */
static const struct arm_name s390_machines[] = {
	{ 0x2817, "z196" }, { 0x2818, "z114" }, { 0x2827, "zEC12" }, { 0x2828, "zBC12" },
	{ 0x2964, "z13" }, { 0x2965, "z13s" }, { 0x3906, "z14" }, { 0x3907, "z14 ZR1" },
	{ 0x8561, "z15" }, { 0x8562, "z15 T02" }, { 0x3931, "z16" }, { 0x3932, "z16 A02" },
};

static const char *arm_lookup(const struct arm_name *t, size_t n, unsigned id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].id == id)
			return t[i].name;
	return NULL;
}

struct cpuinfo_scan {
	char model[128];
	char hardware[128];	/* "Hardware" (arm32 SoC), else "Model" (a board: Raspberry Pi) */
	char other[128];	/* "cpu" (powerpc) or "uarch" (riscv) */
	char vendor[64];	/* "vendor_id" (s390x: "IBM/S390") */
	unsigned machine;	/* s390x "machine = 8561" (as hex digits: 0x8561), 0 if absent */
	long implementer, part;	/* arm, -1 if absent */
	double mhz;
	int have_flags, hypervisor;
	int cores;
};

#define MAX_CORE_PAIRS 4096

struct core_set {
	int n, overflow;
	int pair[MAX_CORE_PAIRS][2];
};

static void core_add(struct core_set *cs, int phys, int core)
{
	int i;

	if (!cs || phys < 0 || core < 0)
		return;
	for (i = 0; i < cs->n; i++)
		if (cs->pair[i][0] == phys && cs->pair[i][1] == core)
			return;
	if (cs->n == MAX_CORE_PAIRS) {
		cs->overflow = 1;
		return;
	}
	cs->pair[cs->n][0] = phys;
	cs->pair[cs->n][1] = core;
	cs->n++;
}

static int has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while (*p) {
		size_t len;

		while (*p == ' ' || *p == '\t')
			p++;
		len = strcspn(p, " \t");
		if (len == n && strncmp(p, word, n) == 0)
			return 1;
		p += len;
	}
	return 0;
}

/* Lines longer than the buffer (the x86 "flags" line is ~1.7 KB today) are
 * parsed from their first 8 KiB; the rest is skipped. */
static void scan_cpuinfo(FILE *fp, struct cpuinfo_scan *ci, struct core_set *cs)
{
	char line[8192];
	int phys = -1, core = -1, skipping = 0;

	memset(ci, 0, sizeof *ci);
	ci->implementer = ci->part = -1;
	while (fgets(line, sizeof line, fp)) {
		size_t len = strlen(line);
		int whole = len > 0 && line[len - 1] == '\n';
		char *colon, *key, *val;

		if (skipping) {
			skipping = !whole;
			continue;
		}
		skipping = !whole && !feof(fp);
		colon = strchr(line, ':');
		if (!colon) {
			/* blank line ends a processor block */
			core_add(cs, phys, core);
			phys = core = -1;
			continue;
		}
		*colon = '\0';
		key = str_trim(line);
		val = str_trim(colon + 1);
		if (strcmp(key, "processor") == 0) {
			core_add(cs, phys, core);
			phys = core = -1;
		} else if (strcmp(key, "physical id") == 0) {
			phys = atoi(val);
		} else if (strcmp(key, "core id") == 0) {
			core = atoi(val);
		} else if (strcmp(key, "model name") == 0) {
			if (!ci->model[0])
				str_copy(ci->model, sizeof ci->model, val);
		} else if (strcmp(key, "cpu MHz") == 0) {
			if (ci->mhz == 0)
				ci->mhz = strtod(val, NULL);
		} else if (strcmp(key, "flags") == 0) {
			if (!ci->have_flags) {
				ci->have_flags = 1;
				ci->hypervisor = has_word(val, "hypervisor");
			}
		} else if (strcmp(key, "CPU implementer") == 0) {
			if (ci->implementer < 0)
				ci->implementer = strtol(val, NULL, 0);
		} else if (strcmp(key, "CPU part") == 0) {
			if (ci->part < 0)
				ci->part = strtol(val, NULL, 0);
		} else if (strcmp(key, "Hardware") == 0 || (strcmp(key, "Model") == 0 && !ci->hardware[0])) {
			str_copy(ci->hardware, sizeof ci->hardware, val);
		} else if (strcmp(key, "cpu") == 0 || strcmp(key, "uarch") == 0) {
			if (!ci->other[0])
				str_copy(ci->other, sizeof ci->other, val);
		} else if (strcmp(key, "vendor_id") == 0) {
			str_copy(ci->vendor, sizeof ci->vendor, val);
		} else if (strncmp(key, "processor ", 10) == 0 && !ci->machine && strstr(val, "machine = ")) {
			ci->machine = (unsigned)strtoul(strstr(val, "machine = ") + 10, NULL, 16);
		}
	}
	core_add(cs, phys, core);
}

/* The CPU's name from what scan_cpuinfo found: x86's model name; arm's
 * implementer and part (and the SoC or board); IBM Z's machine type;
 * POWER's "cpu" without its feature tail; RISC-V's uarch. "" if none. */
static void cpuinfo_name(const struct cpuinfo_scan *ci, char *out, size_t n)
{
	out[0] = '\0';
	if (ci->model[0]) {
		str_copy(out, n, ci->model);
	} else if (ci->implementer >= 0) {
		const char *impl = arm_lookup(arm_implementers, ARRAY_SIZE(arm_implementers),
					      (unsigned)ci->implementer);
		const char *part = ci->implementer == 0x41 ?
			arm_lookup(arm_parts, ARRAY_SIZE(arm_parts), (unsigned)ci->part) :
			arm_lookup(arm_other_parts, ARRAY_SIZE(arm_other_parts),
				   (unsigned)(ci->implementer << 12 | ci->part));
		char name[96];

		if (impl && part)
			str_fmt(name, sizeof name, "%s %s", impl, part);
		else if (impl)
			str_fmt(name, sizeof name, "%s part 0x%lx", impl, ci->part);
		else
			str_fmt(name, sizeof name, "implementer 0x%lx part 0x%lx",
				ci->implementer, ci->part);
		if (ci->hardware[0])
			str_fmt(out, n, "%s (%s)", name, ci->hardware);
		else
			str_copy(out, n, name);
	} else if (ci->machine) {
		const char *z = arm_lookup(s390_machines, ARRAY_SIZE(s390_machines), ci->machine);

		if (z)
			str_fmt(out, n, "IBM %s (machine %x)", z, ci->machine);
		else
			str_fmt(out, n, "IBM Z machine %x", ci->machine);
	} else if (ci->hardware[0]) {
		str_copy(out, n, ci->hardware);
	} else if (ci->other[0]) {
		char *tail;

		str_copy(out, n, ci->other);
		if ((tail = strstr(out, ", ")))	/* "POWER9 (raw), altivec supported", not "sifive,u74-mc" */
			*tail = '\0';
	} else if (ci->vendor[0]) {
		str_copy(out, n, ci->vendor);
	}
}

void os_cpuinfo_name(FILE *f, char *out, size_t n)
{
	struct cpuinfo_scan ci;

	scan_cpuinfo(f, &ci, NULL);
	cpuinfo_name(&ci, out, n);
}

/* Cores from /sys topology when /proc/cpuinfo has no physical/core ids (arm). */
static void cores_from_sysfs(struct core_set *cs)
{
	DIR *d = opendir("/sys/devices/system/cpu");
	struct dirent *de;
	char path[320];

	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		const char *n = de->d_name;
		long long phys, core;

		if (strncmp(n, "cpu", 3) != 0 || !isdigit((unsigned char)n[3]) ||
		    strspn(n + 3, "0123456789") != strlen(n + 3))
			continue;
		str_fmt(path, sizeof path, "/sys/devices/system/cpu/%s/online", n);
		if (read_ll(path, 1) == 0)
			continue;
		str_fmt(path, sizeof path, "/sys/devices/system/cpu/%s/topology/physical_package_id",
			n);
		phys = read_ll(path, -1);
		str_fmt(path, sizeof path, "/sys/devices/system/cpu/%s/topology/core_id", n);
		core = read_ll(path, -1);
		if (phys >= 0 && phys <= 1000000 && core >= 0 && core <= 1000000)
			core_add(cs, (int)phys, (int)core);
	}
	closedir(d);
}

static void cpu_linux(struct sysinfo *si, struct cpuinfo_scan *ci)
{
	struct core_set *cs = calloc(1, sizeof *cs);	/* 32 KiB: keep it off the stack */
	FILE *fp = fopen("/proc/cpuinfo", "r");
	long long khz;

	if (fp) {
		scan_cpuinfo(fp, ci, cs);	/* without cs (no memory) cores stay unknown */
		fclose(fp);
	} else {
		memset(ci, 0, sizeof *ci);
		ci->implementer = ci->part = -1;
	}
	if (cs) {
		if (cs->n == 0)
			cores_from_sysfs(cs);
		if (!cs->overflow)
			si->cores = cs->n;
		free(cs);
	}
	cpuinfo_name(ci, si->cpu_model, sizeof si->cpu_model);

	si->cpu_mhz = ci->mhz;
	if (si->cpu_mhz <= 0) {
		khz = read_ll("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", 0);
		si->cpu_mhz = khz > 0 ? (double)khz / 1000.0 : 0;
	}
	read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		  si->governor, sizeof si->governor);
}

/* ---------- caches ---------- */

/* Number of CPUs in a list like "0-3,8,10-11"; each below OS_MAX_CPUS
 * also into set (when not NULL). */
static int cpu_list(const char *s, struct os_cpuset *set)
{
	int n = 0;

	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s)
			break;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1)
				break;
			s = end;
		}
		if (b >= a && b - a < 1000000) {
			n += (int)(b - a + 1);
			for (long c = a; set && c <= b && c < OS_MAX_CPUS; c++)
				os_cpuset_add(set, (int)c);
		}
		if (*s != ',')
			break;
		s++;
	}
	return n;
}

static void caches_linux(struct sysinfo *si)
{
	char path[128], val[256];
	int i;

	for (i = 0; i < 32 && si->ncache < (int)ARRAY_SIZE(si->cache); i++) {
		struct cache_info *c = &si->cache[si->ncache];
		const char *dir = "/sys/devices/system/cpu/cpu0/cache/index";

		str_fmt(path, sizeof path, "%s%d/level", dir, i);
		if (read_line(path, val, sizeof val) < 0)
			break;
		memset(c, 0, sizeof *c);
		c->level = atoi(val);
		str_fmt(path, sizeof path, "%s%d/type", dir, i);
		read_line(path, c->type, sizeof c->type);
		lower(c->type);
		str_fmt(path, sizeof path, "%s%d/size", dir, i);
		if (read_line(path, val, sizeof val) < 0 || parse_size(val, &c->size) < 0)
			c->size = 0;
		str_fmt(path, sizeof path, "%s%d/coherency_line_size", dir, i);
		c->line = (int)read_ll(path, 0);
		if (c->line < 0)
			c->line = 0;
		str_fmt(path, sizeof path, "%s%d/shared_cpu_list", dir, i);
		if (read_line(path, val, sizeof val) == 0)
			c->shared_by = cpu_list(val, NULL);
		if (c->level > 0 && c->size > 0)
			si->ncache++;
	}
}

#ifdef HAVE_CPUID
static void add_cache(struct sysinfo *si, int level, const char *type, uint64_t size, int line)
{
	struct cache_info *c = &si->cache[si->ncache];

	if (level < 1 || size == 0 || si->ncache >= (int)ARRAY_SIZE(si->cache))
		return;
	memset(c, 0, sizeof *c);
	c->level = level;
	str_copy(c->type, sizeof c->type, type);
	c->size = size;
	c->line = line;
	si->ncache++;
}

/* When /sys has no cacheinfo (seen in a bhyve guest): the caches
 * as CPUID describes them, as glibc's sysconf(_SC_LEVEL1_DCACHE_SIZE)
 * does. The deterministic leaves first (Intel's 4, AMD's 0x8000001D),
 * else AMD's older 0x80000005 (L1) and 0x80000006 (L2, L3). How many CPUs
 * share each stays unknown: CPUID gives only an upper bound. */
static void caches_cpuid(struct sysinfo *si)
{
	static const char *const types[] = { "", "data", "instruction", "unified" };
	unsigned int a, b, c, d, max, ext, leaf = 0;
	int intel, amd;

	__cpuid(0, max, b, c, d);
	intel = b == 0x756e6547;			/* "GenuineIntel" */
	amd = b == 0x68747541 || b == 0x6f677948;	/* "AuthenticAMD", "HygonGenuine" */
	ext = __get_cpuid_max(0x80000000, NULL);
	if (intel && max >= 4)
		leaf = 4;
	else if (amd && ext >= 0x8000001d)
		leaf = 0x8000001d;
	for (unsigned int i = 0; leaf && i < 16; i++) {
		__cpuid_count(leaf, i, a, b, c, d);
		if ((a & 31) == 0 || (a & 31) > 3)
			break;
		add_cache(si, (int)((a >> 5) & 7), types[a & 31],
			  (uint64_t)((b >> 22) + 1) * (((b >> 12) & 0x3ff) + 1) * ((b & 0xfff) + 1) * (c + 1),
			  (int)(b & 0xfff) + 1);
	}
	if (si->ncache || !amd || ext < 0x80000006)
		return;
	__cpuid(0x80000005, a, b, c, d);
	add_cache(si, 1, "data", (uint64_t)(c >> 24) << 10, (int)(c & 0xff));
	add_cache(si, 1, "instruction", (uint64_t)(d >> 24) << 10, (int)(d & 0xff));
	__cpuid(0x80000006, a, b, c, d);
	add_cache(si, 2, "unified", (uint64_t)(c >> 16) << 10, (int)(c & 0xff));
	add_cache(si, 3, "unified", (uint64_t)(d >> 18) << 19, (int)(d & 0xff));
}
#endif

/* ---------- virtualization ---------- */

/* Hypervisor from DMI strings, or NULL. */
static const char *virt_from_dmi(void)
{
	static const struct {
		const char *match, *name;
	} vendors[] = {
		{ "KVM", "kvm" }, { "OpenStack", "kvm" }, { "KubeVirt", "kvm" },
		{ "Amazon EC2", "amazon" }, { "QEMU", "qemu" }, { "VMware", "vmware" },
		{ "VMW", "vmware" }, { "innotek GmbH", "oracle" }, { "VirtualBox", "oracle" },
		{ "Xen", "xen" }, { "Bochs", "bochs" }, { "Parallels", "parallels" },
		{ "BHYVE", "bhyve" }, { "Google", "google" },
		{ "Apple Virtualization", "apple" },
	};
	char vendor[128], product[128];
	size_t i;

	read_line("/sys/class/dmi/id/sys_vendor", vendor, sizeof vendor);
	read_line("/sys/class/dmi/id/product_name", product, sizeof product);
	if (!vendor[0] && !product[0])
		return NULL;
	/* Hyper-V guests say "Microsoft Corporation" / "Virtual Machine";
	 * Surface laptops share the vendor, so both must match. */
	if (contains_ci(vendor, "Microsoft") && contains_ci(product, "Virtual Machine"))
		return "microsoft";
	if (contains_ci(vendor, "Amazon EC2") && contains_ci(product, ".metal"))
		return "none";
	for (i = 0; i < ARRAY_SIZE(vendors); i++)
		if (strncmp(vendor, vendors[i].match, strlen(vendors[i].match)) == 0 ||
		    strncmp(product, vendors[i].match, strlen(vendors[i].match)) == 0)
			return vendors[i].name;
	return NULL;
}

#ifdef HAVE_CPUID
/* Hypervisor vendor leaf 0x40000000; only meaningful when the
 * "hypervisor" CPUID bit is set. */
static const char *virt_from_cpuid(void)
{
	static const struct {
		const char *sig, *name;
	} sigs[] = {
		{ "KVMKVMKVM", "kvm" }, { "Linux KVM Hv", "kvm" }, { "Microsoft Hv", "microsoft" },
		{ "VMwareVMware", "vmware" }, { "XenVMMXenVMM", "xen" }, { "TCGTCGTCGTCG", "qemu" },
		{ " lrpepyh  vr", "parallels" }, { "bhyve bhyve ", "bhyve" },
		{ "ACRNACRNACRN", "acrn" }, { "QNXQVMBSQG", "qnx" }, { "VBoxVBoxVBox", "oracle" },
	};
	unsigned int a, b, c, d;
	char sig[13];
	size_t i;

	__cpuid(0x40000000, a, b, c, d);
	(void)a;
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		if (strcmp(sig, sigs[i].sig) == 0)
			return sigs[i].name;
	return NULL;
}
#endif

static void virt_linux(struct sysinfo *si, const struct cpuinfo_scan *ci)
{
	const char *v;
	char hv[64];

#if defined(__x86_64__) || defined(__i386__)
	/* On x86 every mainstream hypervisor sets the CPUID hypervisor bit. */
	if (ci->have_flags && !ci->hypervisor) {
		str_copy(si->virt, sizeof si->virt, "none");
		return;
	}
#else
	(void)ci;
#endif
	v = virt_from_dmi();
	if (!v && read_line("/sys/hypervisor/type", hv, sizeof hv) == 0 && hv[0]) {
		lower(hv);
		v = hv;
	}
#ifdef HAVE_CPUID
	if (!v && ci->hypervisor)
		v = virt_from_cpuid();
#endif
	str_copy(si->virt, sizeof si->virt, v ? v : "unknown");
}

/* ---------- containers ---------- */

static void container_linux(struct sysinfo *si)
{
	char buf[16384], val[64];
	long n;

	if (exists("/.dockerenv")) {
		str_copy(si->container, sizeof si->container, "docker");
		return;
	}
	if (exists("/run/.containerenv")) {
		str_copy(si->container, sizeof si->container, "podman");
		return;
	}
	/* container=... in PID 1's environment (lxc, systemd-nspawn, podman, ...);
	 * usually only readable as root. systemd copies it to /run/systemd/container. */
	n = read_file("/proc/1/environ", buf, sizeof buf);
	if (n > 0) {
		const char *p = buf, *end = buf + n;

		while (p < end) {
			if (strncmp(p, "container=", 10) == 0 && p[10]) {
				str_copy(val, sizeof val, p + 10);
				str_copy(si->container, sizeof si->container, str_trim(val));
				return;
			}
			p += strlen(p) + 1;
		}
	}
	if (read_line("/run/systemd/container", val, sizeof val) == 0 && val[0]) {
		str_copy(si->container, sizeof si->container, val);
		return;
	}
	if (read_file("/proc/1/cgroup", buf, sizeof buf) > 0) {
		static const struct {
			const char *hint, *name;
		} hints[] = {
			{ "kubepods", "kubernetes" }, { "docker", "docker" }, { "libpod", "podman" },
			{ "/lxc", "lxc" }, { "lxc.payload", "lxc" }, { "containerd", "containerd" },
		};
		size_t i;

		for (i = 0; i < ARRAY_SIZE(hints); i++)
			if (strstr(buf, hints[i].hint)) {
				str_copy(si->container, sizeof si->container, hints[i].name);
				return;
			}
	}
	str_copy(si->container, sizeof si->container, "none");
}

/* ---------- libc ---------- */

static void libc_linux(struct sysinfo *si)
{
#if defined(__GLIBC__) && !defined(__UCLIBC__)
	str_fmt(si->libc, sizeof si->libc, "glibc %s", gnu_get_libc_version());
#elif defined(__UCLIBC__)
	str_copy(si->libc, sizeof si->libc, "uclibc");
#elif defined(__BIONIC__)
	str_copy(si->libc, sizeof si->libc, "bionic");
#else
	/* musl deliberately defines no identifying macro; on Linux it is the
	 * remaining common choice. */
	str_copy(si->libc, sizeof si->libc, "musl");
#endif
}

void os_sysinfo(struct sysinfo *si)
{
	struct cpuinfo_scan ci;
	char distro[128], sys[64];

	distro_name(distro, sizeof distro);
	if (distro[0]) {
		str_copy(sys, sizeof sys, si->os[0] ? si->os : "Linux");
		str_fmt(si->os, sizeof si->os, "%s (%s)", sys, distro);
	}
	cpu_linux(si, &ci);
	caches_linux(si);
#ifdef HAVE_CPUID
	if (si->ncache == 0)
		caches_cpuid(si);
#endif
	virt_linux(si, &ci);
	container_linux(si);
	libc_linux(si);
}

/* ---------- guard ---------- */

int os_cpu_ticks(struct os_cpu_ticks *t)
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
	t->total = 0;
	for (i = 0; i < 8; i++)	/* guest time (8, 9) is already in user time */
		t->total += v[i];
	t->busy = t->total - v[3] - v[4];	/* minus idle and iowait */
	t->steal = v[7];
	return 0;
}

int os_swap_pages(unsigned long long *in, unsigned long long *out)
{
	FILE *f = fopen("/proc/vmstat", "r");
	char key[64];
	unsigned long long v;
	int got = 0;

	if (!f)
		return -1;
	while (got != 3 && fscanf(f, "%63s %llu", key, &v) == 2) {
		if (strcmp(key, "pswpin") == 0) {
			*in = v;
			got |= 1;
		} else if (strcmp(key, "pswpout") == 0) {
			*out = v;
			got |= 2;
		}
	}
	fclose(f);
	return got == 3 ? 0 : -1;
}

int os_loadavg(double *load1)
{
	FILE *f = fopen("/proc/loadavg", "r");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "%lf", load1);
	fclose(f);
	return n == 1 ? 0 : -1;
}

int os_runnable(int *n)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double l1, l5, l15;
	int run, total, k;

	if (!f)
		return -1;
	/* "0.50 0.40 0.30 2/345 6789": running or runnable / all tasks */
	k = fscanf(f, "%lf %lf %lf %d/%d", &l1, &l5, &l15, &run, &total);
	fclose(f);
	if (k != 5 || run < 0)
		return -1;
	*n = run;
	return 0;
}

int os_cpu_boost(void)
{
	long long v;

	/* acpi-cpufreq and amd-pstate: a global switch, or one per policy */
	if ((v = read_ll("/sys/devices/system/cpu/cpufreq/boost", -1)) >= 0 ||
	    (v = read_ll("/sys/devices/system/cpu/cpufreq/policy0/boost", -1)) >= 0)
		return v != 0;
	/* intel_pstate says the opposite */
	if ((v = read_ll("/sys/devices/system/cpu/intel_pstate/no_turbo", -1)) >= 0)
		return v == 0;
	return -1;
}

int os_free_page_reporting(void)
{
	static const char dir[] = "/sys/bus/virtio/drivers/virtio_balloon";
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[320], bits[80];
	int got = -1;
	FILE *f;

	if (!d)
		return -1;
	/* "features" is one '0' or '1' per feature bit, bit 0 first; bit 5 is
	 * VIRTIO_BALLOON_F_REPORTING in the virtio specification. */
	while (got != 1 && (e = readdir(d))) {
		if (strncmp(e->d_name, "virtio", 6) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s/features", dir, e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		if (fgets(bits, sizeof(bits), f) && strlen(bits) > 5)
			got = bits[5] == '1';
		fclose(f);
	}
	closedir(d);
	return got;
}

int os_throttle_count(unsigned long long *n)
{
	static const char *const kinds[] = { "core_throttle_count", "package_throttle_count" };
	DIR *d = opendir("/sys/devices/system/cpu");
	struct dirent *e;
	char path[300];
	int seen = 0;
	size_t k;

	if (!d)
		return -1;
	*n = 0;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "cpu", 3) || !isdigit((unsigned char)e->d_name[3]))
			continue;
		for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
			long long v;

			str_fmt(path, sizeof path, "/sys/devices/system/cpu/%s/thermal_throttle/%s",
				e->d_name, kinds[k]);
			if ((v = read_ll(path, -1)) >= 0) {
				*n += (unsigned long long)v;
				seen = 1;
			}
		}
	}
	closedir(d);
	return seen ? 0 : -1;
}

/* ---------- CPU affinity ---------- */

int os_cpuset_get(struct os_cpuset *set)
{
	cpu_set_t cs;
	int c;

	if (sched_getaffinity(0, sizeof cs, &cs) < 0)
		return -1;
	memset(set, 0, sizeof *set);
	for (c = 0; c < CPU_SETSIZE && c < OS_MAX_CPUS; c++)
		if (CPU_ISSET(c, &cs))
			os_cpuset_add(set, c);
	return 0;
}

int os_cpuset_set(const struct os_cpuset *set)
{
	cpu_set_t cs;
	int c;

	CPU_ZERO(&cs);
	for (c = 0; c < CPU_SETSIZE && c < OS_MAX_CPUS; c++)
		if (os_cpuset_has(set, c))
			CPU_SET(c, &cs);
	return sched_setaffinity(0, sizeof cs, &cs);
}

void os_die_with_parent(void)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
}

int os_cpu_current(void)
{
	return sched_getcpu();
}

/* The integer at the start of /sys/devices/system/cpu/cpuN/REL, or -1. */
static int cpu_sys_int(int cpu, const char *rel)
{
	char path[128];
	int v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/%s", cpu, rel);
	if (!(f = fopen(path, "r")))
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

int os_cpu_place(int cpu, struct os_cpu_place *p)
{
	int top = -1;

	p->package = cpu_sys_int(cpu, "topology/physical_package_id");
	p->core = cpu_sys_int(cpu, "topology/core_id");
	p->llc = -1;
	/* the highest cache index is the last level; its shared_cpu_list
	 * starts with the lowest CPU sharing it */
	for (int i = 0; i < 8; i++) {
		char rel[64];

		snprintf(rel, sizeof(rel), "cache/index%d/level", i);
		if (cpu_sys_int(cpu, rel) > top) {
			top = cpu_sys_int(cpu, rel);
			snprintf(rel, sizeof(rel), "cache/index%d/shared_cpu_list", i);
			p->llc = cpu_sys_int(cpu, rel);
		}
	}
	return p->package < 0 && p->core < 0 && p->llc < 0 ? -1 : 0;
}

/* ---------- NUMA ---------- */

static int node_cmp(const void *a, const void *b)
{
	return ((const struct os_node *)a)->id - ((const struct os_node *)b)->id;
}

int os_numa_nodes(const char *root, struct os_node *node, int max)
{
	char path[512], val[4096];
	struct dirent *e;
	DIR *d;
	int n = 0;

	if (!root)
		root = "/sys/devices/system/node";
	if (!(d = opendir(root)))
		return -1;
	while ((e = readdir(d)) && n < max) {
		char *end;
		long id;

		if (strncmp(e->d_name, "node", 4) || !isdigit((unsigned char)e->d_name[4]))
			continue;
		id = strtol(e->d_name + 4, &end, 10);
		if (*end || id < 0 || id >= OS_MAX_NODES)
			continue;
		memset(&node[n], 0, sizeof(node[n]));
		node[n].id = (int)id;
		str_fmt(path, sizeof path, "%s/%s/cpulist", root, e->d_name);
		if (read_line(path, val, sizeof val) == 0)
			cpu_list(val, &node[n].cpus);
		n++;
	}
	closedir(d);
	qsort(node, (size_t)n, sizeof(*node), node_cmp);
	return n;
}

#define NODE_WORDS (OS_MAX_NODES / (8 * sizeof(unsigned long)))
int os_mem_bind(void *p, size_t n, int node)
{
	unsigned long mask[NODE_WORDS] = { 0 };
	const int bind = 2;			/* MPOL_BIND, as <numaif.h> has it */
	const unsigned long move = 1ul << 1;	/* MPOL_MF_MOVE: pages already there too */

	if (node < 0 || node >= OS_MAX_NODES) {
		errno = EINVAL;
		return -1;
	}
	mask[node / (8 * sizeof(unsigned long))] = 1ul << (node % (8 * sizeof(unsigned long)));
	/* maxnode counts one more than the mask's bits (the kernel drops one) */
	return (int)syscall(SYS_mbind, p, n, bind, mask, (unsigned long)OS_MAX_NODES + 1, move);
}

int os_mem_node(const void *p)
{
	int node = -1;
	const unsigned long flags = 1 | 2;	/* MPOL_F_NODE | MPOL_F_ADDR */

	if (syscall(SYS_get_mempolicy, &node, NULL, 0ul, p, flags) < 0)
		return -1;
	return node;
}

/* ---------- memory ---------- */

int os_mem_available(uint64_t *bytes)
{
	char line[256];
	unsigned long long kb;
	FILE *f = fopen("/proc/meminfo", "r");
	int rc = -1;

	if (!f)
		return -1;
	while (rc < 0 && fgets(line, sizeof line, f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
			*bytes = (uint64_t)kb * 1024;
			rc = 0;
		}
	fclose(f);
	return rc;
}

/* ---------- file systems ---------- */

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *w = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*w++ = *s++;
		}
	}
	*w = '\0';
}

/* Is path the directory dir or below it? */
static int under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return path[0] == '/';
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* One line of /proc/self/mountinfo, split in place:
 * "ID PARENT MAJ:MIN ROOT MOUNT_POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER_OPTIONS" */
struct mount_entry {
	unsigned maj, min;
	char *mount_point, *options, *type, *source, *super;
};

static int parse_mountinfo(char *line, struct mount_entry *m)
{
	char *f[6], *save = NULL, *t;
	int n = 0;

	for (t = strtok_r(line, " \n", &save); t && n < 6; t = strtok_r(NULL, " \n", &save))
		f[n++] = t;
	while (t && strcmp(t, "-") != 0)	/* optional fields */
		t = strtok_r(NULL, " \n", &save);
	if (n < 6 || !t || sscanf(f[2], "%u:%u", &m->maj, &m->min) != 2)
		return -1;
	m->type = strtok_r(NULL, " \n", &save);
	m->source = strtok_r(NULL, " \n", &save);
	m->super = strtok_r(NULL, " \n", &save);
	if (!m->super)
		return -1;
	m->mount_point = f[4];
	m->options = f[5];
	unescape(m->mount_point);
	unescape(m->source);
	return 0;
}

void os_hint_huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	madvise(p, n, MADV_HUGEPAGE);	/* refused (THP off): no harm done */
#else
	(void)p;
	(void)n;
#endif
}

/* Whole-disk name, model, rotational and scheduler of block device maj:min. */
static void block_device(unsigned maj, unsigned min, struct os_fs *out)
{
	char p[1024], val[256], *dir, *name, *lb, *rb;
	struct stat st;

	str_fmt(p, sizeof p, "/sys/dev/block/%u:%u", maj, min);
	dir = realpath(p, NULL);	/* .../block/sda/sda1 or .../block/sda */
	if (!dir)
		return;
	str_fmt(p, sizeof p, "%s/partition", dir);
	if (stat(p, &st) == 0 && (name = strrchr(dir, '/')) != NULL && name != dir)
		*name = '\0';	/* a partition: its parent is the disk */
	name = strrchr(dir, '/');
	str_copy(out->device, sizeof out->device, name ? name + 1 : dir);
	str_fmt(p, sizeof p, "%s/device/model", dir);
	read_line(p, out->model, sizeof out->model);
	str_fmt(p, sizeof p, "%s/queue/rotational", dir);
	out->rotational = (int)read_ll(p, -1);
	if (out->rotational != 0 && out->rotational != 1)
		out->rotational = -1;
	str_fmt(p, sizeof p, "%s/queue/scheduler", dir);	/* "none [mq-deadline] kyber" */
	if (read_line(p, val, sizeof val) == 0) {
		lb = strchr(val, '[');
		rb = lb ? strchr(lb, ']') : NULL;
		if (lb && rb) {
			*rb = '\0';
			str_copy(out->scheduler, sizeof out->scheduler, lb + 1);
		} else if (!strchr(val, ' ')) {
			str_copy(out->scheduler, sizeof out->scheduler, val);
		}
	}
	free(dir);
}

/* ext2/3/4 on block device maj:min: 1 when it keeps a journal (jbd2 lists
 * each journal it runs as /proc/fs/jbd2/NAME-INODE, NAME the partition's),
 * 0 when not (no such entry, or no jbd2 at all), -1 unknown. */
static int ext_journal(unsigned maj, unsigned min)
{
	char p[64], *dir, *name;
	struct dirent *e;
	size_t len;
	int r = 0;
	DIR *d;

	str_fmt(p, sizeof p, "/sys/dev/block/%u:%u", maj, min);
	if (!(dir = realpath(p, NULL)))
		return -1;
	name = strrchr(dir, '/');
	name = name ? name + 1 : dir;
	len = strlen(name);
	if (!(d = opendir("/proc/fs/jbd2"))) {
		r = errno == ENOENT && access("/proc/self", F_OK) == 0 ? 0 : -1;
	} else {
		while ((e = readdir(d)) != NULL)
			if (strncmp(e->d_name, name, len) == 0 && e->d_name[len] == '-')
				r = 1;
		closedir(d);
	}
	free(dir);
	return r;
}

/* The mount holding path: the entry whose device is the path's st_dev
 * (a mount point can be hidden by a later mount over its parent), then
 * the longest mount point above the path (btrfs subvolumes report another
 * st_dev), then the last such line (the top of a stack of mounts). */
int os_fs_describe(const char *path, struct os_fs *out)
{
	struct mount_entry m;
	struct stat st, dev;
	char *real, *line = NULL;
	size_t cap = 0, best_len = 0;
	int found = 0, best_dev = 0, is_dev;
	unsigned maj = 0, min = 0;
	FILE *f;

	memset(out, 0, sizeof *out);
	out->rotational = out->journal = -1;
	if (stat(path, &st) < 0 || !(real = realpath(path, NULL)))
		return -1;
	f = fopen("/proc/self/mountinfo", "r");
	if (!f) {
		free(real);
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		if (parse_mountinfo(line, &m) < 0 || !under(real, m.mount_point))
			continue;
		is_dev = m.maj == major(st.st_dev) && m.min == minor(st.st_dev);
		if (found && (is_dev < best_dev ||
			      (is_dev == best_dev && strlen(m.mount_point) < best_len)))
			continue;
		found = 1;
		best_dev = is_dev;
		best_len = strlen(m.mount_point);
		maj = m.maj;
		min = m.min;
		str_copy(out->type, sizeof out->type, m.type);
		str_copy(out->source, sizeof out->source, m.source);
		str_copy(out->mount_point, sizeof out->mount_point, m.mount_point);
		str_fmt(out->options, sizeof out->options, "%s,%s", m.options, m.super);
	}
	free(line);
	fclose(f);
	free(real);
	if (!found) {
		errno = ENOENT;
		return -1;
	}
	/* btrfs and the like show an anonymous 0:N; the source may name the disk. */
	if (maj == 0 && strncmp(out->source, "/dev/", 5) == 0 && stat(out->source, &dev) == 0 &&
	    S_ISBLK(dev.st_mode)) {
		maj = major(dev.st_rdev);
		min = minor(dev.st_rdev);
	}
	if (maj != 0)
		block_device(maj, min, out);
	if (maj != 0 && (!strcmp(out->type, "ext2") || !strcmp(out->type, "ext3") ||
			 !strcmp(out->type, "ext4")))
		out->journal = ext_journal(maj, min);
	return 0;
}

#endif /* BAKEOFF_OS_LINUX */
