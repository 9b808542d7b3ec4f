/* disk.c — the disk personalities' formats, rendered from the result:
 *   dd      dd's own line per disk.seq figure ("N bytes transferred in S
 *           secs (B bytes/sec)") and the 2003 report's ceiling table: each
 *           block size's rate beside the same loop on /dev/null and
 *           /dev/zero, and the percentage of that ceiling achieved;
 * Figures marked cache_suspect carry "cached?". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "units.h"

/* Bytes one repetition moved: the interval amounts over the repetitions. */
static double bytes_per_rep(const struct metric *m)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < m->niv; i++)
		sum += m->iv_amount[i];
	return m->nsamples ? sum / (double)m->nsamples : 0;
}

static const char *cached(const struct metric *m)
{
	return m && m->cache_suspect ? " cached?" : "";
}

/* ---- dd ---- */
/* The ceiling is dd if=/dev/zero of=/dev/null at the same block size. */

static void dd_line(const struct metric *m, FILE *f)
{
	double bytes = bytes_per_rep(m), rate = m->st.median * 1e6;

	fputs("# ", f);
	report_put(f, m->name, 0);
	fprintf(f, "%s\n", cached(m));
	if (rate > 0 && bytes > 0)
		fprintf(f, "%.0f bytes transferred in %.3f secs (%.0f bytes/sec)\n", bytes,
			bytes / rate, rate);
}

static void report_dd(const struct result *r, FILE *f)
{
	const struct bench_result *b = result_bench(r, "disk.seq");
	const struct param *dir, *direct;
	size_t i;
	int d;

	if (!b) {
		fputs("dd: no disk.seq in this result\n", f);
		return;
	}
	if (b->status != ST_OK) {
		fprintf(f, "dd: disk.seq %s: ", status_name(b->status));
		report_put(f, b->reason, 0);
		fputc('\n', f);
		return;
	}
	dir = result_param(b, "dir");
	direct = result_param(b, "direct");
	fputs("# dd on ", f);
	report_put(f, dir && dir->str ? dir->str : "?", 0);
	fputs(", O_DIRECT ", f);
	report_put(f, direct && direct->str ? direct->str : "?", 0);
	fputs(", writes fsync'ed (conv=fsync)\n", f);
	for (i = 0; i < b->nmetrics; i++) {
		const struct metric *m = &b->metrics[i];

		if (!m->derived && strncmp(m->name, "ceiling", 7) && !m->detail)
			dd_line(m, f);
	}
	for (d = 0; d < 2; d++) {
		const char *dir_name = d ? "read" : "write";

		fprintf(f, "\nBlock  %-5s        ceiling      %% of ceiling\nSize   bytes/sec    bytes/sec"
			"    achieved\n", dir_name);
		for (i = 0; i < b->nmetrics; i++) {
			const struct metric *m = &b->metrics[i], *c;
			char cname[96], bs[32];
			size_t l = strlen(dir_name);

			if (m->derived || strncmp(m->name, dir_name, l) || m->name[l] != ' ' ||
			    strchr(m->name, ','))
				continue;
			snprintf(cname, sizeof(cname), "ceiling %s", m->name + l + 1);
			c = result_metric(b, cname);
			report_esc(bs, sizeof(bs), m->name + l + 1);
			fprintf(f, "%-6s %-12.0f ", bs, m->st.median * 1e6);
			if (c && c->st.median > 0)
				fprintf(f, "%-12.0f %8.2f%%%s\n", c->st.median * 1e6,
					100 * m->st.median / c->st.median, cached(m));
			else
				fprintf(f, "%-12s %9s%s\n", "-", "-", cached(m));
		}
	}
}

void report_disk(const char *format, const struct result *r, FILE *f)
{
	if (strcmp(format, "dd") == 0)
		report_dd(r, f);
}
