/* csv.c — --format csv: one row per metric per result, for spreadsheets.
 *
 * RFC 4180: comma-separated, CRLF-free (rows end in \n), a field holding a
 * comma, quote or space is quoted with quotes doubled. Strings from the
 * file go through report_esc first (controls become \xNN), and one that a
 * spreadsheet would take for a formula (leading = + - @) gets a leading
 * apostrophe. Numbers are written with the fewest digits that read back
 * to the same double (%.15g, else %.17g): the CSV round-trips the medians
 * exactly, unlike the 4-digit tables. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"

void report_csv_str(FILE *f, const char *s)
{
	char tmp[4096];
	const char *p;
	int quote;

	if (!s)
		s = "";
	report_esc(tmp, sizeof(tmp), s);
	quote = strpbrk(tmp, ",\" ") != NULL || tmp[0] == '=' || tmp[0] == '+' ||
		tmp[0] == '-' || tmp[0] == '@';
	if (!quote) {
		fputs(tmp, f);
		return;
	}
	fputc('"', f);
	if (tmp[0] == '=' || tmp[0] == '+' || tmp[0] == '-' || tmp[0] == '@')
		fputc('\'', f);
	for (p = tmp; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

void report_csv_num(FILE *f, double v)
{
	char b[40];

	if (!isfinite(v)) {
		fputs(isnan(v) ? "nan" : v > 0 ? "inf" : "-inf", f);
		return;
	}
	snprintf(b, sizeof(b), "%.15g", v);
	if (strtod(b, NULL) != v)
		snprintf(b, sizeof(b), "%.17g", v);
	fputs(b, f);
}

/* The columns every row starts with: file number, host, start, benchmark. */
static void row_start(FILE *f, size_t k, const struct result *r, const struct bench_result *b)
{
	fprintf(f, "%zu,", k + 1);
	report_csv_str(f, r->host.hostname);
	fputc(',', f);
	report_csv_str(f, r->start_utc);
	fputc(',', f);
	report_csv_str(f, b->id);
}

void report_csv(const struct result *const *rs, size_t n, FILE *f)
{
	size_t k, i, j;

	fputs("file,host,start_utc,benchmark,metric,status,unit,better,median,ci_lo,ci_hi,cv,n,"
	      "cpu_pct,detail,derived,bottleneck,note\n", f);
	for (k = 0; k < n; k++) {
		const struct result *r = rs[k];

		for (i = 0; i < r->nbenches; i++) {
			const struct bench_result *b = &r->benches[i];

			if (b->nmetrics == 0 || b->status != ST_OK) {
				row_start(f, k, r, b);
				fprintf(f, ",,%s,,,,,,,,,,,,", status_name(b->status));
				report_csv_str(f, b->reason);
				fputc('\n', f);
				if (b->nmetrics == 0)
					continue;
			}
			for (j = 0; j < b->nmetrics; j++) {
				const struct metric *m = &b->metrics[j];
				char bn[256];
				double pct = report_cpu_pct(m);

				row_start(f, k, r, b);
				fputc(',', f);
				report_csv_str(f, m->name);
				fprintf(f, ",%s,", status_name(b->status));
				report_csv_str(f, m->unit);
				fprintf(f, ",%s,", m->better == BETTER_HIGHER ? "higher" : "lower");
				if (m->nsamples) {
					report_csv_num(f, m->st.median);
					fputc(',', f);
					if (!m->derived && m->st.n >= 2) {
						report_csv_num(f, m->st.ci_lo);
						fputc(',', f);
						report_csv_num(f, m->st.ci_hi);
						fputc(',', f);
						report_csv_num(f, m->st.cv);
					} else {
						fputs(",,", f);
					}
					fprintf(f, ",%zu,", m->st.n);
				} else {
					fputs(",,,,,", f);
				}
				if (pct >= 0)
					fprintf(f, "%.1f", pct);
				fprintf(f, ",%d,", m->detail ? 1 : 0);
				report_csv_str(f, m->derived);
				fputc(',', f);
				report_bottleneck(b, m, bn, sizeof(bn));
				report_csv_str(f, bn);
				fputc(',', f);
				report_csv_str(f, m->note);
				fputc('\n', f);
			}
		}
	}
}
