/* sysinfo.c — collect facts about the host (OS, CPU, caches, memory,
 * virtualization, container, libc, build), write them as JSON, read them
 * back, and print them for humans. Linux specifics sit behind __linux__;
 * elsewhere only what POSIX offers (uname, sysconf) is filled in. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#ifdef __linux__
#include <dirent.h>
#endif
#if defined(__GLIBC__) && !defined(__UCLIBC__)
#include <gnu/libc-version.h>
#endif
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#define HAVE_CPUID 1
#endif

#include "sysinfo.h"
#include "units.h"
#include "version.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---------- small string / file helpers ---------- */

/* Cut a truncated string back to a UTF-8 character boundary, so a cut
 * never leaves half a character for the (strict) JSON reader to reject. */
static void utf8_cut(char *s)
{
	size_t len = strlen(s), k = 0, need;
	unsigned char c;

	while (k < 3 && k < len && ((unsigned char)s[len - 1 - k] & 0xC0) == 0x80)
		k++;
	if (k == len)
		return;
	c = (unsigned char)s[len - 1 - k];
	if (c < 0xC0)
		return;
	need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
	if (k + 1 < need)
		s[len - 1 - k] = '\0';
}

/* snprintf into a fixed field; silently truncates (at a character boundary). */
static void fmt(char *dst, size_t n, const char *f, ...) BAKEOFF_PRINTF(3, 4);
static void fmt(char *dst, size_t n, const char *f, ...)
{
	va_list ap;
	int r;

	if (n == 0)
		return;
	va_start(ap, f);
	r = vsnprintf(dst, n, f, ap);
	va_end(ap);
	if (r < 0)
		dst[0] = '\0';
	else if ((size_t)r >= n)
		utf8_cut(dst);
}

static void copy_str(char *dst, size_t n, const char *src)
{
	fmt(dst, n, "%s", src ? src : "");
}

/* Append to a NUL-terminated string in a fixed buffer, truncating. */
static void cat(char *dst, size_t n, const char *f, ...) BAKEOFF_PRINTF(3, 4);
static void cat(char *dst, size_t n, const char *f, ...)
{
	size_t len = strlen(dst);
	va_list ap;
	int r;

	if (len + 1 >= n)
		return;
	va_start(ap, f);
	r = vsnprintf(dst + len, n - len, f, ap);
	va_end(ap);
	if (r < 0)
		dst[len] = '\0';
	else if ((size_t)r >= n - len)
		utf8_cut(dst);
}

static char *trim(char *s)
{
	char *e;

	while (*s && isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

#ifdef __linux__
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
	copy_str(out, n, trim(tmp));
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
#endif /* __linux__ */

/* ---------- build information ---------- */

#if defined(__clang__) && defined(__clang_version__)
#define CC_FAMILY "clang"
#define CC_ID "clang " __clang_version__
#elif defined(__GNUC__) && defined(__VERSION__)
#define CC_FAMILY "gcc"
#define CC_ID "gcc " __VERSION__
#elif defined(__VERSION__)
#define CC_FAMILY ""
#define CC_ID __VERSION__
#else
#define CC_FAMILY ""
#define CC_ID ""
#endif

/* compiler = "gcc 12.2.0" when BAKEOFF_CC names the same compiler (gcc,
 * /usr/bin/gcc-12, ...), else "musl-gcc (gcc 12.2.0)" / "cc (clang 14.0.6)". */
static void build_info(struct sysinfo *si)
{
	char raw[128], cc[128];
	const char *base, *id;
	size_t fl = strlen(CC_FAMILY);
	int same;

	copy_str(si->version, sizeof si->version, BAKEOFF_VERSION);
	copy_str(si->cflags, sizeof si->cflags, BAKEOFF_CFLAGS);
	copy_str(raw, sizeof raw, CC_ID);
	id = trim(raw);	/* __clang_version__ ends in a space */
	copy_str(cc, sizeof cc, BAKEOFF_CC);
	base = strrchr(cc, '/');
	base = base ? base + 1 : cc;
	same = fl && strncmp(base, CC_FAMILY, fl) == 0 &&
	       (base[fl] == '\0' || (base[fl] == '-' && isdigit((unsigned char)base[fl + 1])));
	if (!cc[0] || strcmp(cc, "unknown") == 0 || same)
		copy_str(si->compiler, sizeof si->compiler, id[0] ? id : cc);
	else if (id[0])
		fmt(si->compiler, sizeof si->compiler, "%s (%s)", cc, id);
	else
		copy_str(si->compiler, sizeof si->compiler, cc);
}

/* ---------- libc ---------- */

static void libc_info(struct sysinfo *si)
{
#if defined(__GLIBC__) && !defined(__UCLIBC__)
	fmt(si->libc, sizeof si->libc, "glibc %s", gnu_get_libc_version());
#elif defined(__linux__) && defined(__UCLIBC__)
	copy_str(si->libc, sizeof si->libc, "uclibc");
#elif defined(__linux__) && defined(__BIONIC__)
	copy_str(si->libc, sizeof si->libc, "bionic");
#elif defined(__linux__)
	/* musl deliberately defines no identifying macro; on Linux it is the
	 * remaining common choice. */
	copy_str(si->libc, sizeof si->libc, "musl");
#else
	copy_str(si->libc, sizeof si->libc, "unknown");
#endif
}

#ifdef __linux__

/* ---------- /etc/os-release ---------- */

/* Unquote an os-release value in place (shell-like: "..." with \-escapes, '...'). */
static char *os_release_value(char *v)
{
	char *r, *w, q;

	v = trim(v);
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
				copy_str(out, n, v);
			else if (strcmp(line, "NAME") == 0)
				copy_str(name, sizeof name, v);
			else if (strcmp(line, "VERSION_ID") == 0)
				copy_str(ver, sizeof ver, v);
		}
		fclose(fp);
		if (!out[0] && name[0])
			fmt(out, n, "%s%s%s", name, ver[0] ? " " : "", ver);
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
	char hardware[128];	/* "Hardware" (arm32 SoC) */
	char other[128];	/* "cpu" (powerpc) or "uarch" (riscv) */
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
static void scan_cpuinfo(struct cpuinfo_scan *ci, struct core_set *cs)
{
	char line[8192];
	FILE *fp;
	int phys = -1, core = -1, skipping = 0;

	memset(ci, 0, sizeof *ci);
	ci->implementer = ci->part = -1;
	fp = fopen("/proc/cpuinfo", "r");
	if (!fp)
		return;
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
		key = trim(line);
		val = trim(colon + 1);
		if (strcmp(key, "processor") == 0) {
			core_add(cs, phys, core);
			phys = core = -1;
		} else if (strcmp(key, "physical id") == 0) {
			phys = atoi(val);
		} else if (strcmp(key, "core id") == 0) {
			core = atoi(val);
		} else if (strcmp(key, "model name") == 0) {
			if (!ci->model[0])
				copy_str(ci->model, sizeof ci->model, val);
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
		} else if (strcmp(key, "Hardware") == 0) {
			copy_str(ci->hardware, sizeof ci->hardware, val);
		} else if (strcmp(key, "cpu") == 0 || strcmp(key, "uarch") == 0) {
			if (!ci->other[0])
				copy_str(ci->other, sizeof ci->other, val);
		}
	}
	core_add(cs, phys, core);
	fclose(fp);
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
		fmt(path, sizeof path, "/sys/devices/system/cpu/%s/online", n);
		if (read_ll(path, 1) == 0)
			continue;
		fmt(path, sizeof path, "/sys/devices/system/cpu/%s/topology/physical_package_id", n);
		phys = read_ll(path, -1);
		fmt(path, sizeof path, "/sys/devices/system/cpu/%s/topology/core_id", n);
		core = read_ll(path, -1);
		if (phys >= 0 && phys <= 1000000 && core >= 0 && core <= 1000000)
			core_add(cs, (int)phys, (int)core);
	}
	closedir(d);
}

static void cpu_linux(struct sysinfo *si, struct cpuinfo_scan *ci)
{
	struct core_set *cs = calloc(1, sizeof *cs);	/* 32 KiB: keep it off the stack */
	long long khz;

	scan_cpuinfo(ci, cs);	/* without cs (no memory) cores stay unknown */
	if (cs) {
		if (cs->n == 0)
			cores_from_sysfs(cs);
		if (!cs->overflow)
			si->cores = cs->n;
		free(cs);
	}

	if (ci->model[0]) {
		copy_str(si->cpu_model, sizeof si->cpu_model, ci->model);
	} else if (ci->implementer >= 0) {
		const char *impl = arm_lookup(arm_implementers, ARRAY_SIZE(arm_implementers),
					      (unsigned)ci->implementer);
		const char *part = ci->implementer == 0x41 ?
			arm_lookup(arm_parts, ARRAY_SIZE(arm_parts), (unsigned)ci->part) : NULL;
		char name[96];

		if (impl && part)
			fmt(name, sizeof name, "%s %s", impl, part);
		else if (impl)
			fmt(name, sizeof name, "%s part 0x%lx", impl, ci->part);
		else
			fmt(name, sizeof name, "implementer 0x%lx part 0x%lx",
			    ci->implementer, ci->part);
		if (ci->hardware[0])
			fmt(si->cpu_model, sizeof si->cpu_model, "%s (%s)", name, ci->hardware);
		else
			copy_str(si->cpu_model, sizeof si->cpu_model, name);
	} else if (ci->hardware[0]) {
		copy_str(si->cpu_model, sizeof si->cpu_model, ci->hardware);
	} else if (ci->other[0]) {
		copy_str(si->cpu_model, sizeof si->cpu_model, ci->other);
	}

	si->cpu_mhz = ci->mhz;
	if (si->cpu_mhz <= 0) {
		khz = read_ll("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", 0);
		si->cpu_mhz = khz > 0 ? (double)khz / 1000.0 : 0;
	}
	read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		  si->governor, sizeof si->governor);
}

/* ---------- caches ---------- */

/* Number of CPUs in a list like "0-3,8,10-11". */
static int count_cpu_list(const char *s)
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
		if (b >= a && b - a < 1000000)
			n += (int)(b - a + 1);
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

		fmt(path, sizeof path, "%s%d/level", dir, i);
		if (read_line(path, val, sizeof val) < 0)
			break;
		memset(c, 0, sizeof *c);
		c->level = atoi(val);
		fmt(path, sizeof path, "%s%d/type", dir, i);
		read_line(path, c->type, sizeof c->type);
		lower(c->type);
		fmt(path, sizeof path, "%s%d/size", dir, i);
		if (read_line(path, val, sizeof val) < 0 || parse_size(val, &c->size) < 0)
			c->size = 0;
		fmt(path, sizeof path, "%s%d/coherency_line_size", dir, i);
		c->line = (int)read_ll(path, 0);
		if (c->line < 0)
			c->line = 0;
		fmt(path, sizeof path, "%s%d/shared_cpu_list", dir, i);
		if (read_line(path, val, sizeof val) == 0)
			c->shared_by = count_cpu_list(val);
		if (c->level > 0 && c->size > 0)
			si->ncache++;
	}
}

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
		copy_str(si->virt, sizeof si->virt, "none");
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
	copy_str(si->virt, sizeof si->virt, v ? v : "unknown");
}

/* ---------- containers ---------- */

static void container_linux(struct sysinfo *si)
{
	char buf[16384], val[64];
	long n;

	if (exists("/.dockerenv")) {
		copy_str(si->container, sizeof si->container, "docker");
		return;
	}
	if (exists("/run/.containerenv")) {
		copy_str(si->container, sizeof si->container, "podman");
		return;
	}
	/* container=... in PID 1's environment (lxc, systemd-nspawn, podman, ...);
	 * usually only readable as root. systemd copies it to /run/systemd/container. */
	n = read_file("/proc/1/environ", buf, sizeof buf);
	if (n > 0) {
		const char *p = buf, *end = buf + n;

		while (p < end) {
			if (strncmp(p, "container=", 10) == 0 && p[10]) {
				copy_str(val, sizeof val, p + 10);
				copy_str(si->container, sizeof si->container, trim(val));
				return;
			}
			p += strlen(p) + 1;
		}
	}
	if (read_line("/run/systemd/container", val, sizeof val) == 0 && val[0]) {
		copy_str(si->container, sizeof si->container, val);
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
				copy_str(si->container, sizeof si->container, hints[i].name);
				return;
			}
	}
	copy_str(si->container, sizeof si->container, "none");
}

#endif /* __linux__ */

/* ---------- sysinfo_read ---------- */

int sysinfo_read(struct sysinfo *si)
{
	struct utsname u;
	long v;

	memset(si, 0, sizeof *si);
	if (uname(&u) != 0) {
		memset(&u, 0, sizeof u);
	} else {
		copy_str(si->os, sizeof si->os, u.sysname);
		fmt(si->kernel, sizeof si->kernel, "%s %s", u.release, u.version);
		copy_str(si->arch, sizeof si->arch, u.machine);
		copy_str(si->hostname, sizeof si->hostname, u.nodename);
	}
	{
		char host[256];

		if (gethostname(host, sizeof host) == 0) {
			host[sizeof host - 1] = '\0';
			if (host[0])
				copy_str(si->hostname, sizeof si->hostname, host);
		}
	}
#ifdef _SC_NPROCESSORS_ONLN
	v = sysconf(_SC_NPROCESSORS_ONLN);
	si->threads = v > 0 ? (int)v : 0;
#endif
	v = sysconf(_SC_PAGESIZE);
	si->page_size = v > 0 ? (uint64_t)v : 0;
#ifdef _SC_PHYS_PAGES
	{
		long pages = sysconf(_SC_PHYS_PAGES);

		if (pages > 0 && si->page_size)
			si->mem_total = (uint64_t)pages * si->page_size;
	}
#endif

#ifdef __linux__
	{
		struct cpuinfo_scan ci;
		char distro[128];

		distro_name(distro, sizeof distro);
		if (distro[0])
			fmt(si->os, sizeof si->os, "%s (%s)", u.sysname[0] ? u.sysname : "Linux",
			    distro);
		cpu_linux(si, &ci);
		caches_linux(si);
		virt_linux(si, &ci);
		container_linux(si);
	}
#else
	/* BSD / macOS: this is where sysctl would fill the rest —
	 * hw.model / machdep.cpu.brand_string (cpu_model), hw.clockrate or
	 * hw.cpufrequency (cpu_mhz), hw.physicalcpu / kern.smp.cores (cores),
	 * hw.l1dcachesize, hw.l2cachesize, hw.cachelinesize (caches),
	 * kern.vm_guest / kern.hv_vendor (virt), security.jail.jailed (container). */
	copy_str(si->virt, sizeof si->virt, "unknown");
	copy_str(si->container, sizeof si->container, "unknown");
#endif
	libc_info(si);
	build_info(si);
	return 0;
}

uint64_t sysinfo_llc_size(const struct sysinfo *si)
{
	uint64_t best = 0;
	int i;

	for (i = 0; i < si->ncache && i < (int)ARRAY_SIZE(si->cache); i++) {
		const struct cache_info *c = &si->cache[i];

		if (strcmp(c->type, "instruction") == 0)
			continue;
		if (c->size > best)
			best = c->size;
	}
	return best;
}

/* ---------- JSON ---------- */

void sysinfo_write_json(const struct sysinfo *si, struct jw *w)
{
	int i;

	jw_str(w, "os", si->os);
	jw_str(w, "kernel", si->kernel);
	jw_str(w, "hostname", si->hostname);
	jw_str(w, "arch", si->arch);
	jw_str(w, "cpu_model", si->cpu_model);
	jw_num(w, "cpu_mhz", si->cpu_mhz);
	jw_int(w, "cores", si->cores);
	jw_int(w, "threads", si->threads);
	jw_arr_begin(w, "caches");
	for (i = 0; i < si->ncache && i < (int)ARRAY_SIZE(si->cache); i++) {
		const struct cache_info *c = &si->cache[i];

		jw_obj_begin(w, NULL);
		jw_int(w, "level", c->level);
		jw_str(w, "type", c->type);
		jw_int(w, "size_bytes", (int64_t)c->size);
		jw_int(w, "line_bytes", c->line);
		jw_int(w, "shared_by", c->shared_by);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_int(w, "mem_bytes", (int64_t)si->mem_total);
	jw_int(w, "page_bytes", (int64_t)si->page_size);
	jw_str(w, "virtualization", si->virt);
	jw_str(w, "container", si->container);
	jw_str(w, "governor", si->governor);
	jw_str(w, "libc", si->libc);
	jw_obj_begin(w, "build");
	jw_str(w, "version", si->version);
	jw_str(w, "compiler", si->compiler);
	jw_str(w, "cflags", si->cflags);
	jw_obj_end(w);
}

struct jctx {
	const char *where;	/* "host", "host.caches[2]", ... */
	char *err;
	size_t errlen;
};

static int jfail(struct jctx *c, const char *key, const char *what)
{
	if (c->err && c->errlen)
		fmt(c->err, c->errlen, "%s: \"%s\" %s", c->where, key, what);
	return -1;
}

/* Optional members may be absent or null; present ones must have the right type. */
static const struct json *jmember(const struct json *obj, const char *key, enum json_type t,
				  int required, struct jctx *c, int *bad)
{
	const struct json *v = json_get(obj, key);

	*bad = 0;
	if (!v || (!required && v->type == JSON_NULL)) {
		if (required) {
			*bad = 1;
			jfail(c, key, "is missing");
		}
		return NULL;
	}
	if (v->type != t) {
		*bad = 1;
		jfail(c, key, t == JSON_STRING ? "must be a string" :
			      t == JSON_NUMBER ? "must be a number" :
			      t == JSON_ARRAY ? "must be an array" : "must be an object");
		return NULL;
	}
	return v;
}

static int jstr(const struct json *obj, const char *key, char *dst, size_t n, int required,
		struct jctx *c)
{
	int bad;
	const struct json *v = jmember(obj, key, JSON_STRING, required, c, &bad);

	if (bad)
		return -1;
	if (v)
		copy_str(dst, n, v->string);
	return 0;
}

/* Non-negative integer no larger than max (exactly representable). */
static int juint(const struct json *obj, const char *key, double max, uint64_t *out,
		 int required, struct jctx *c)
{
	int bad;
	const struct json *v = jmember(obj, key, JSON_NUMBER, required, c, &bad);

	if (bad)
		return -1;
	if (!v)
		return 0;
	if (!(v->number >= 0 && v->number <= max) || v->number != floor(v->number))
		return jfail(c, key, "must be a non-negative integer");
	*out = (uint64_t)v->number;
	return 0;
}

static int jint(const struct json *obj, const char *key, int *out, int required, struct jctx *c)
{
	uint64_t u = 0;

	if (juint(obj, key, 2147483647.0, &u, required, c) < 0)
		return -1;
	*out = (int)u;
	return 0;
}

#define MAX_EXACT 9007199254740992.0	/* 2^53 */

int sysinfo_from_json(struct sysinfo *si, const struct json *host, char *err, size_t errlen)
{
	struct jctx c = { "host", err, errlen };
	const struct json *v, *build;
	char where[40];
	int bad;
	size_t i;

	memset(si, 0, sizeof *si);
	if (err && errlen)
		err[0] = '\0';
	if (!host || host->type != JSON_OBJECT) {
		if (err && errlen)
			fmt(err, errlen, "host: not an object");
		return -1;
	}
	/* required first, so the message names the most important problem */
	if (jstr(host, "hostname", si->hostname, sizeof si->hostname, 1, &c) ||
	    jstr(host, "os", si->os, sizeof si->os, 1, &c) ||
	    jstr(host, "cpu_model", si->cpu_model, sizeof si->cpu_model, 1, &c) ||
	    jint(host, "threads", &si->threads, 1, &c))
		return -1;
	if (jstr(host, "kernel", si->kernel, sizeof si->kernel, 0, &c) ||
	    jstr(host, "arch", si->arch, sizeof si->arch, 0, &c) ||
	    jint(host, "cores", &si->cores, 0, &c) ||
	    juint(host, "mem_bytes", MAX_EXACT, &si->mem_total, 0, &c) ||
	    juint(host, "page_bytes", MAX_EXACT, &si->page_size, 0, &c) ||
	    jstr(host, "virtualization", si->virt, sizeof si->virt, 0, &c) ||
	    jstr(host, "container", si->container, sizeof si->container, 0, &c) ||
	    jstr(host, "governor", si->governor, sizeof si->governor, 0, &c) ||
	    jstr(host, "libc", si->libc, sizeof si->libc, 0, &c))
		return -1;
	v = jmember(host, "cpu_mhz", JSON_NUMBER, 0, &c, &bad);
	if (bad)
		return -1;
	if (v) {
		if (!(v->number >= 0))
			return jfail(&c, "cpu_mhz", "must be a non-negative number");
		si->cpu_mhz = v->number;
	}

	v = jmember(host, "caches", JSON_ARRAY, 0, &c, &bad);
	if (bad)
		return -1;
	for (i = 0; v && i < v->n && i < ARRAY_SIZE(si->cache); i++) {
		const struct json *o = v->items[i];
		struct cache_info *ci = &si->cache[i];
		struct jctx cc = { where, err, errlen };

		fmt(where, sizeof where, "host.caches[%zu]", i);
		if (!o || o->type != JSON_OBJECT) {
			if (err && errlen)
				fmt(err, errlen, "%s: not an object", where);
			return -1;
		}
		if (jint(o, "level", &ci->level, 0, &cc) ||
		    jstr(o, "type", ci->type, sizeof ci->type, 0, &cc) ||
		    juint(o, "size_bytes", MAX_EXACT, &ci->size, 0, &cc) ||
		    jint(o, "line_bytes", &ci->line, 0, &cc) ||
		    jint(o, "shared_by", &ci->shared_by, 0, &cc))
			return -1;
		si->ncache++;
	}

	build = jmember(host, "build", JSON_OBJECT, 0, &c, &bad);
	if (bad)
		return -1;
	if (build) {
		struct jctx bc = { "host.build", err, errlen };

		if (jstr(build, "version", si->version, sizeof si->version, 0, &bc) ||
		    jstr(build, "compiler", si->compiler, sizeof si->compiler, 0, &bc) ||
		    jstr(build, "cflags", si->cflags, sizeof si->cflags, 0, &bc))
			return -1;
	}
	return 0;
}

/* ---------- human-readable listing ---------- */

static const char *or_unknown(const char *s)
{
	return s && s[0] ? s : "unknown";
}

static void row(FILE *f, const char *key, const char *val)
{
	char label[24];

	fmt(label, sizeof label, "%s:", key);
	fprintf(f, "%-16s%s\n", label, val);
}

static void cache_label(char *out, size_t n, const struct cache_info *c)
{
	const char *t = c->type;

	if (strcmp(t, "data") == 0)
		fmt(out, n, "L%dd", c->level);
	else if (strcmp(t, "instruction") == 0)
		fmt(out, n, "L%di", c->level);
	else if (strcmp(t, "unified") == 0 || !t[0])
		fmt(out, n, "L%d", c->level);
	else
		fmt(out, n, "L%d %s", c->level, t);
}

void sysinfo_print(const struct sysinfo *si, FILE *f)
{
	char line[1024], tmp[64];
	int i;

	row(f, "bakeoff", or_unknown(si->version));
	copy_str(line, sizeof line, or_unknown(si->compiler));
	if (si->cflags[0] && strcmp(si->cflags, "unknown") != 0)
		cat(line, sizeof line, " %s", si->cflags);
	row(f, "built with", line);
	row(f, "host", or_unknown(si->hostname));
	row(f, "os", or_unknown(si->os));
	row(f, "kernel", or_unknown(si->kernel));
	row(f, "arch", or_unknown(si->arch));

	copy_str(line, sizeof line, or_unknown(si->cpu_model));
	if (si->cores > 0)
		cat(line, sizeof line, ", %d core%s /", si->cores, si->cores == 1 ? "" : "s");
	else
		cat(line, sizeof line, ",");
	cat(line, sizeof line, " %d thread%s", si->threads, si->threads == 1 ? "" : "s");
	if (si->cpu_mhz > 0)
		cat(line, sizeof line, ", %.0f MHz", si->cpu_mhz);
	row(f, "cpu", line);

	/* The first cache shows line size and sharing; later ones only where they differ. */
	line[0] = '\0';
	for (i = 0; i < si->ncache && i < (int)ARRAY_SIZE(si->cache); i++) {
		const struct cache_info *c = &si->cache[i], *c0 = &si->cache[0];
		char label[32], sz[32];
		int show_line = c->line > 0 && (i == 0 || c->line != c0->line);
		int show_shared = c->shared_by > 0 && (i == 0 || c->shared_by != c0->shared_by);

		cache_label(label, sizeof label, c);
		fmt_size(sz, sizeof sz, c->size);
		cat(line, sizeof line, "%s%s %s", i ? ", " : "", label, sz);
		if (show_line && show_shared)
			cat(line, sizeof line, " (line %d B, shared by %d)", c->line, c->shared_by);
		else if (show_line)
			cat(line, sizeof line, " (line %d B)", c->line);
		else if (show_shared)
			cat(line, sizeof line, " (shared by %d)", c->shared_by);
	}
	row(f, "caches", si->ncache ? line : "unknown");

	if (si->mem_total) {
		fmt_size(tmp, sizeof tmp, si->mem_total);
		row(f, "memory", tmp);
	} else {
		row(f, "memory", "unknown");
	}
	if (si->page_size) {
		fmt_size(tmp, sizeof tmp, si->page_size);
		row(f, "page size", tmp);
	} else {
		row(f, "page size", "unknown");
	}
	row(f, "virtualization", or_unknown(si->virt));
	row(f, "container", or_unknown(si->container));
	row(f, "governor", si->governor[0] ? si->governor : "n/a");
	row(f, "libc", or_unknown(si->libc));
}
