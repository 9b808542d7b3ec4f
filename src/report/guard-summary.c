/* guard-summary.c — the guard's findings as a person reads them first: the
 * per-benchmark "during ID: ..." findings counted and grouped by kind ("busy
 * during 41 of 65 benchmarks: other processes used 40-79% of the CPUs"),
 * then the findings about the whole run as they are. The text and HTML reports
 * print this before the figures and every finding after them, so a busy
 * run's first screen shows figures, not fifty guard lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"

/* The kinds of "during" finding guard.c makes, by how their text begins
 * after "during ID: ", and how a group of them reads. */
static const struct {
	const char *starts;
	const char *says;	/* %s: "N of M benchmarks (ids)", then the range */
	const char *range;	/* what the range is of: "of the CPUs" */
} kinds[] = {
	{ "machine not idle", "busy during %s: other processes used %s", " of the CPUs" },
	{ "the hypervisor stole", "the hypervisor stole CPU time during %s: %s", " of it" },
	{ "the machine's speed moved", "the machine's speed moved with nothing else running during %s: "
	  "slow samples at %s", " the speed of fast ones (the host or its other guests)" },
	{ "the machine swapped", "the machine swapped during %s%s", "" },
	{ "the CPUs were throttled", "the CPUs were throttled (thermal) during %s%s", "" },
};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

/* The first number in s written as N% or Nx; 0 when none. */
static int value_in(const char *s, double *v, char *unit)
{
	for (; *s; s++) {
		char *e;
		double d;

		if ((*s < '0' || *s > '9') || (s[-1] >= '0' && s[-1] <= '9') || s[-1] == '.')
			continue;
		d = strtod(s, &e);
		if ((*e == '%' || *e == 'x') && (e[1] == ' ' || e[1] == ')' || e[1] == ',' || !e[1])) {
			*v = d;
			*unit = *e;
			return 1;
		}
	}
	return 0;
}

/* A finding's kind: its index in kinds[], NKINDS for a "during" finding
 * of a kind this file does not know, NKINDS + 1 for one about the whole
 * run; the ID into id. */
static size_t kind_of(const char *finding, char *id, size_t n, const char **rest)
{
	size_t j;

	if (!(*rest = guard_finding_during(finding, id, n)))
		return NKINDS + 1;
	for (j = 0; j < NKINDS && strncmp(*rest, kinds[j].starts, strlen(kinds[j].starts)); j++)
		;
	return j;
}

int report_guard_grouped(const struct result *r)
{
	const char *rest;
	char id[128];
	size_t i;

	for (i = 0; i < r->guard.nfindings; i++)
		if (kind_of(r->guard.findings[i], id, sizeof(id), &rest) < NKINDS)
			return 1;
	return 0;
}

size_t report_guard_summary(const struct result *r, char (*out)[REPORT_GUARD_LINE], size_t max)
{
	size_t i, k, n = 0;

	/* what disturbed the benchmarks first, grouped; then the findings
	 * about the run as a whole (before it, standing conditions) */
	for (k = 0; k <= NKINDS && n < max; k++) {
		char ids[200] = "", who[300], range[64] = "", unit = 0, prev[128] = "";
		double lo = 0, hi = 0;
		size_t count = 0, shown = 0, len = 0;

		for (i = 0; i < r->guard.nfindings; i++) {
			char id[128], u;
			const char *rest;
			double v;

			if (kind_of(r->guard.findings[i], id, sizeof(id), &rest) != k)
				continue;
			if (k == NKINDS) {	/* a kind this file does not know: as it is */
				if (n < max)
					snprintf(out[n++], REPORT_GUARD_LINE, "%s", r->guard.findings[i]);
				continue;
			}
			if (strcmp(id, prev) != 0) {	/* one benchmark may have two figures' */
				count++;
				if (shown < 3)
					len += (size_t)snprintf(ids + len, sizeof(ids) - len, "%s%s",
								shown ? ", " : "", id), shown++;
			}
			snprintf(prev, sizeof(prev), "%s", id);
			if (value_in(rest, &v, &u)) {
				if (!unit || v < lo)
					lo = v;
				if (!unit || v > hi)
					hi = v;
				unit = u;
			}
		}
		if (k == NKINDS || !count)
			continue;
		snprintf(who, sizeof(who), "%zu of %zu benchmark%s (%s%s)", count, r->nbenches,
			 r->nbenches == 1 ? "" : "s", ids, count > shown ? ", ..." : "");
		if (unit == '%' && lo == hi)
			snprintf(range, sizeof(range), "%.0f%%%s", lo, kinds[k].range);
		else if (unit == '%')
			snprintf(range, sizeof(range), "%.0f-%.0f%%%s", lo, hi, kinds[k].range);
		else if (unit == 'x' && lo == hi)
			snprintf(range, sizeof(range), "%.2fx%s", lo, kinds[k].range);
		else if (unit == 'x')
			snprintf(range, sizeof(range), "%.2fx-%.2fx%s", lo, hi, kinds[k].range);
		snprintf(out[n++], REPORT_GUARD_LINE, kinds[k].says, who, range);
	}
	for (i = 0; i < r->guard.nfindings && n < max; i++) {
		const char *rest;
		char id[128];

		if (kind_of(r->guard.findings[i], id, sizeof(id), &rest) == NKINDS + 1)
			snprintf(out[n++], REPORT_GUARD_LINE, "%s", r->guard.findings[i]);
	}
	return n;
}
