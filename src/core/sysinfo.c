/* sysinfo.c — collect facts about the host (OS, CPU, caches, memory,
 * virtualization, container, libc, build), write them as JSON, read them
 * back, and print them for humans. What POSIX offers (uname, sysconf) is
 * read here; the rest comes from the OS layer (os_sysinfo in os.h). */
#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "os.h"
#include "str.h"
#include "sysinfo.h"
#include "units.h"
#include "version.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

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

	str_copy(si->version, sizeof si->version, BAKEOFF_VERSION);
	str_copy(si->cflags, sizeof si->cflags, BAKEOFF_CFLAGS);
	str_copy(raw, sizeof raw, CC_ID);
	id = str_trim(raw);	/* __clang_version__ ends in a space */
	str_copy(cc, sizeof cc, BAKEOFF_CC);
	base = strrchr(cc, '/');
	base = base ? base + 1 : cc;
	same = fl && strncmp(base, CC_FAMILY, fl) == 0 &&
	       (base[fl] == '\0' || (base[fl] == '-' && isdigit((unsigned char)base[fl + 1])));
	if (!cc[0] || strcmp(cc, "unknown") == 0 || same)
		str_copy(si->compiler, sizeof si->compiler, id[0] ? id : cc);
	else if (id[0])
		str_fmt(si->compiler, sizeof si->compiler, "%s (%s)", cc, id);
	else
		str_copy(si->compiler, sizeof si->compiler, cc);
}

/* ---------- sysinfo_read ---------- */

int sysinfo_read(struct sysinfo *si)
{
	struct utsname u;
	long v;

	memset(si, 0, sizeof *si);
	if (uname(&u) != 0) {
		memset(&u, 0, sizeof u);
	} else {
		str_copy(si->os, sizeof si->os, u.sysname);
		str_fmt(si->kernel, sizeof si->kernel, "%s %s", u.release, u.version);
		str_copy(si->arch, sizeof si->arch, u.machine);
		str_copy(si->hostname, sizeof si->hostname, u.nodename);
	}
	{
		char host[256];

		if (gethostname(host, sizeof host) == 0) {
			host[sizeof host - 1] = '\0';
			if (host[0])
				str_copy(si->hostname, sizeof si->hostname, host);
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

	os_sysinfo(si);
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

/* The "host" object's members, one row each, in the order they are
 * written; the reader takes the same rows. Adding a host fact is one
 * row here (and the code that reads it off the system). */
enum hkind { H_STR, H_INT, H_U64, H_NUM };

struct hfield {
	const char *key;
	enum hkind kind;
	size_t off, size;
	int required;
};

#define HF(S, key, kind, m, req) { key, kind, offsetof(S, m), sizeof(((S *)0)->m), req }
#define SI(key, kind, m, req) HF(struct sysinfo, key, kind, m, req)

static const struct hfield host_head[] = {	/* before "caches" */
	SI("os", H_STR, os, 1), SI("kernel", H_STR, kernel, 0),
	SI("hostname", H_STR, hostname, 1), SI("arch", H_STR, arch, 0),
	SI("cpu_model", H_STR, cpu_model, 1), SI("cpu_mhz", H_NUM, cpu_mhz, 0),
	SI("cores", H_INT, cores, 0), SI("threads", H_INT, threads, 1),
};
static const struct hfield host_tail[] = {	/* after "caches" */
	SI("mem_bytes", H_U64, mem_total, 0), SI("page_bytes", H_U64, page_size, 0),
	SI("virtualization", H_STR, virt, 0), SI("container", H_STR, container, 0),
	SI("governor", H_STR, governor, 0), SI("libc", H_STR, libc, 0),
};
static const struct hfield host_build[] = {	/* "build": {...} */
	SI("version", H_STR, version, 0), SI("compiler", H_STR, compiler, 0),
	SI("cflags", H_STR, cflags, 0),
};
static const struct hfield host_cache[] = {	/* each of "caches": [...] */
	HF(struct cache_info, "level", H_INT, level, 0), HF(struct cache_info, "type", H_STR, type, 0),
	HF(struct cache_info, "size_bytes", H_U64, size, 0),
	HF(struct cache_info, "line_bytes", H_INT, line, 0),
	HF(struct cache_info, "shared_by", H_INT, shared_by, 0),
};

static void write_fields(struct jw *w, const void *base, const struct hfield *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *p = (const char *)base + f[i].off;

		switch (f[i].kind) {
		case H_STR: jw_str(w, f[i].key, p); break;
		case H_INT: jw_int(w, f[i].key, *(const int *)p); break;
		case H_U64: jw_int(w, f[i].key, (int64_t)*(const uint64_t *)p); break;
		case H_NUM: jw_num(w, f[i].key, *(const double *)p); break;
		}
	}
}

void sysinfo_write_json(const struct sysinfo *si, struct jw *w)
{
	write_fields(w, si, host_head, ARRAY_SIZE(host_head));
	jw_arr_begin(w, "caches");
	for (int i = 0; i < si->ncache && i < (int)ARRAY_SIZE(si->cache); i++) {
		jw_obj_begin(w, NULL);
		write_fields(w, &si->cache[i], host_cache, ARRAY_SIZE(host_cache));
		jw_obj_end(w);
	}
	jw_arr_end(w);
	write_fields(w, si, host_tail, ARRAY_SIZE(host_tail));
	jw_obj_begin(w, "build");
	write_fields(w, si, host_build, ARRAY_SIZE(host_build));
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
		str_fmt(c->err, c->errlen, "%s: \"%s\" %s", c->where, key, what);
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

#define MAX_EXACT 9007199254740992.0	/* 2^53 */

/* The rows of f into base: with only_required, just the required ones
 * (read first, so the message names the most important problem). */
static int read_fields(const struct json *obj, void *base, const struct hfield *f, size_t n,
		       int only_required, struct jctx *c)
{
	for (size_t i = 0; i < n; i++) {
		char *p = (char *)base + f[i].off;
		int bad;
		const struct json *v;

		if (only_required && !f[i].required)
			continue;
		v = jmember(obj, f[i].key, f[i].kind == H_STR ? JSON_STRING : JSON_NUMBER, f[i].required,
			    c, &bad);
		if (bad)
			return -1;
		if (!v)
			continue;
		if (f[i].kind == H_STR) {
			str_copy(p, f[i].size, v->string);
		} else if (f[i].kind == H_NUM) {
			if (!(v->number >= 0))
				return jfail(c, f[i].key, "must be a non-negative number");
			*(double *)p = v->number;
		} else {
			double max = f[i].kind == H_INT ? 2147483647.0 : MAX_EXACT;

			if (!(v->number >= 0 && v->number <= max) || v->number != floor(v->number))
				return jfail(c, f[i].key, "must be a non-negative integer");
			if (f[i].kind == H_INT)
				*(int *)p = (int)v->number;
			else
				*(uint64_t *)p = (uint64_t)v->number;
		}
	}
	return 0;
}

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
			str_fmt(err, errlen, "host: not an object");
		return -1;
	}
	if (read_fields(host, si, host_head, ARRAY_SIZE(host_head), 1, &c) ||
	    read_fields(host, si, host_tail, ARRAY_SIZE(host_tail), 1, &c) ||
	    read_fields(host, si, host_head, ARRAY_SIZE(host_head), 0, &c) ||
	    read_fields(host, si, host_tail, ARRAY_SIZE(host_tail), 0, &c))
		return -1;

	v = jmember(host, "caches", JSON_ARRAY, 0, &c, &bad);
	if (bad)
		return -1;
	for (i = 0; v && i < v->n && i < ARRAY_SIZE(si->cache); i++) {
		const struct json *o = v->items[i];
		struct jctx cc = { where, err, errlen };

		str_fmt(where, sizeof where, "host.caches[%zu]", i);
		if (!o || o->type != JSON_OBJECT) {
			if (err && errlen)
				str_fmt(err, errlen, "%s: not an object", where);
			return -1;
		}
		if (read_fields(o, &si->cache[i], host_cache, ARRAY_SIZE(host_cache), 0, &cc))
			return -1;
		si->ncache++;
	}

	build = jmember(host, "build", JSON_OBJECT, 0, &c, &bad);
	if (bad)
		return -1;
	if (build) {
		struct jctx bc = { "host.build", err, errlen };

		if (read_fields(build, si, host_build, ARRAY_SIZE(host_build), 0, &bc))
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

	str_fmt(label, sizeof label, "%s:", key);
	fprintf(f, "%-16s%s\n", label, val);
}

static void cache_label(char *out, size_t n, const struct cache_info *c)
{
	const char *t = c->type;

	if (strcmp(t, "data") == 0)
		str_fmt(out, n, "L%dd", c->level);
	else if (strcmp(t, "instruction") == 0)
		str_fmt(out, n, "L%di", c->level);
	else if (strcmp(t, "unified") == 0 || !t[0])
		str_fmt(out, n, "L%d", c->level);
	else
		str_fmt(out, n, "L%d %s", c->level, t);
}

void sysinfo_print(const struct sysinfo *si, FILE *f)
{
	char line[1024], tmp[64];
	int i;

	row(f, "bakeoff", or_unknown(si->version));
	str_copy(line, sizeof line, or_unknown(si->compiler));
	if (si->cflags[0] && strcmp(si->cflags, "unknown") != 0)
		str_cat(line, sizeof line, " %s", si->cflags);
	row(f, "built with", line);
	row(f, "host", or_unknown(si->hostname));
	row(f, "os", or_unknown(si->os));
	row(f, "kernel", or_unknown(si->kernel));
	row(f, "arch", or_unknown(si->arch));

	str_copy(line, sizeof line, or_unknown(si->cpu_model));
	if (si->cores > 0)
		str_cat(line, sizeof line, ", %d core%s /", si->cores, si->cores == 1 ? "" : "s");
	else
		str_cat(line, sizeof line, ",");
	str_cat(line, sizeof line, " %d thread%s", si->threads, si->threads == 1 ? "" : "s");
	if (si->cpu_mhz > 0)
		str_cat(line, sizeof line, ", %.0f MHz", si->cpu_mhz);
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
		str_cat(line, sizeof line, "%s%s %s", i ? ", " : "", label, sz);
		if (show_line && show_shared)
			str_cat(line, sizeof line, " (line %d B, shared by %d)", c->line,
				c->shared_by);
		else if (show_line)
			str_cat(line, sizeof line, " (line %d B)", c->line);
		else if (show_shared)
			str_cat(line, sizeof line, " (shared by %d)", c->shared_by);
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
