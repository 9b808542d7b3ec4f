/* figures.c — what the renderers share: a figure's %CPU, the note on what
 * limited it (bottleneck), the reading of curve points out of metric names
 * ("write 64k", "rand/512B"), and the one benchmark a tool's format shows
 * (report_usable). Read only. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "registry.h"
#include "report.h"
#include "units.h"

static int is_rate(const char *unit)
{
	size_t l = unit ? strlen(unit) : 0;

	return l > 2 && strcmp(unit + l - 2, "/s") == 0;
}

double report_cpu_pct(const struct metric *m)
{
	if (m->derived || m->cpu_wall_s <= 0 || !is_rate(m->unit))
		return -1;
	return 100 * (m->cpu_user_s + m->cpu_sys_s) / m->cpu_wall_s;
}

/* The metric "NAME % of ceiling" of the same benchmark (disk.seq writes
 * one per rate: the rate over the /dev/null ceiling at that block size). */
static const struct metric *ceiling_of(const struct bench_result *b, const struct metric *m)
{
	size_t l = strlen(m->name), j;

	if (!l)
		return NULL;
	for (j = 0; j < b->nmetrics; j++) {
		const char *n = b->metrics[j].name;

		if (strncmp(n, m->name, l) == 0 && strcmp(n + l, " % of ceiling") == 0)
			return &b->metrics[j];
	}
	return NULL;
}

size_t report_bottleneck(const struct bench_result *b, const struct metric *m, char *dst,
			 size_t n)
{
	const struct metric *c = ceiling_of(b, m);
	double pct = report_cpu_pct(m);
	char num[32];
	size_t len = 0;
	int w;

	if (n)
		dst[0] = 0;
	/* Only I/O waits: a memory or CPU loop always uses its whole CPU, and
	 * "CPU-bound" would say nothing about it. */
	if (!(registry_group_flags(b->group) & GROUP_IO))
		return 0;
	if (pct >= 90) {
		w = snprintf(dst, n, "CPU-bound (%.0f%% CPU)", pct);
		len = w > 0 ? (size_t)w : 0;
	} else if (pct >= 0 && pct < 20 && c) {
		/* little CPU and far from the ceiling: the device or the wire */
		w = snprintf(dst, n, "waiting on I/O (%.0f%% CPU)", pct);
		len = w > 0 ? (size_t)w : 0;
	}
	if (c && c->nsamples) {
		fmt_num(num, sizeof(num), c->st.median);
		w = snprintf(len < n ? dst + len : NULL, len < n ? n - len : 0, "%s%s%% of the memory ceiling",
			     len ? "; " : "", num);
		len += w > 0 ? (size_t)w : 0;
	}
	return len;
}

int report_curve_point(const char *name, char *series, size_t n, double *x)
{
	const char *cut = strrchr(name, '/'), *sp = strrchr(name, ' ');
	uint64_t v;
	size_t l;

	if (!cut || (sp && sp > cut))
		cut = sp;
	if (!cut || cut == name || strchr(name, '%'))
		return 0;
	if (parse_size(cut + 1, &v) < 0)
		return 0;
	l = (size_t)(cut - name);
	if (l >= n)
		return 0;
	memcpy(series, name, l);
	series[l] = 0;
	*x = (double)v;
	/* "512B", "64K", "1M" are sizes; a bare number ("pages/4096", the
	 * copies of "int/2") counts something else */
	return cut[1 + strspn(cut + 1, "0123456789")] ? 1 : 2;
}

const char *report_symbol(size_t k)
{
	/* then letters, so that up to 36 files keep a symbol each */
	static const char *const sym[] = {
		"*", "#", "o", "+", "x", "@", "%", "=", "~", "$", "A", "B", "C", "D", "E", "F", "G", "H",
		"I", "J", "K", "L", "M", "N", "P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y", "Z", "&",
	};

	return sym[k % (sizeof(sym) / sizeof(sym[0]))];
}

/* The label of one file in a legend: host name, and the file's number
 * when two files share a host. */
void report_file_label(const struct result *const *rs, size_t n, size_t k, char *dst, size_t len)
{
	size_t i;
	int dup = 0;

	for (i = 0; i < n; i++)
		if (i != k && strcmp(rs[i]->host.hostname, rs[k]->host.hostname) == 0)
			dup = 1;
	if (dup)
		snprintf(dst, len, "%s (%zu)", rs[k]->host.hostname, k + 1);
	else
		snprintf(dst, len, "%s", rs[k]->host.hostname);
}

const struct bench_result *report_usable(FILE *f, const char *tool, const struct result *r,
					 const char *id)
{
	const struct bench_result *b = result_bench(r, id);

	if (!b) {
		fprintf(f, "%s: no %s in this result\n", tool, id);
		return NULL;
	}
	if (b->status != ST_OK) {
		fprintf(f, "%s: %s %s: ", tool, id, status_name(b->status));
		report_put(f, b->reason, 0);
		fputc('\n', f);
		return NULL;
	}
	return b;
}
