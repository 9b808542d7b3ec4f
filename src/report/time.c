/* time.c — `bakeoff time`'s output, from its result file: the command,
 * one csh `time` line per run ("432.518u 53.907s 8:14.79 98.3% 1046+1271k
 * 13+505io 0pf+0w": user, system, elapsed, %CPU, average shared+unshared
 * memory in KiB, blocks in+out, major faults+swaps), then a table of every
 * figure per run with the median, min and max. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "report.h"
#include "units.h"

static const struct metric *fig(const struct bench_result *b, const char *name)
{
	const struct metric *m = result_metric(b, name);

	return m && m->nsamples ? m : NULL;
}

/* Sample k of a figure, 0 when the file lacks it. */
static double at(const struct bench_result *b, const char *name, size_t k)
{
	const struct metric *m = fig(b, name);

	return m && k < m->nsamples ? m->samples[k] : 0;
}

/* csh's elapsed time: [h:]m:ss.cc */
static void elapsed(char *out, size_t n, double s)
{
	long cs = (long)(s * 100 + 0.5), h = cs / 360000;

	if (h)
		snprintf(out, n, "%ld:%02ld:%02ld.%02ld", h, cs / 6000 % 60, cs / 100 % 60, cs % 100);
	else
		snprintf(out, n, "%ld:%02ld.%02ld", cs / 6000, cs / 100 % 60, cs % 100);
}

static void csh_line(const struct bench_result *b, size_t k, FILE *f)
{
	double u = at(b, "user", k), s = at(b, "sys", k), real = at(b, "", k);
	char e[32];

	elapsed(e, sizeof(e), real);
	fprintf(f, "%.3fu %.3fs %s %.1f%% %.0f+%.0fk %.0f+%.0fio %.0fpf+%.0fw\n", u, s, e,
		at(b, "cpu", k), at(b, "avg_shared", k), at(b, "avg_unshared", k),
		at(b, "inblock", k), at(b, "oublock", k), at(b, "majflt", k), at(b, "swaps", k));
}

static const char *const cols[] = { "", "user", "sys", "cpu", "maxrss", "inblock", "oublock",
				    "majflt", "minflt", "nvcsw", "nivcsw", "status" };
#define NCOLS (sizeof(cols) / sizeof(cols[0]))

static void row(FILE *f, const char *label, const double *v)
{
	char s[32];
	size_t c;

	fprintf(f, "%-7s", label);
	for (c = 0; c < NCOLS; c++) {
		if (c < 3)	/* seconds, to the ms as csh gives them */
			snprintf(s, sizeof(s), "%.3f", v[c]);
		else if (c == 3)
			snprintf(s, sizeof(s), "%.1f", v[c]);
		else if (v[c] == floor(v[c]) && fabs(v[c]) < 1e12)	/* a count */
			snprintf(s, sizeof(s), "%.0f", v[c]);
		else
			fmt_num(s, sizeof(s), v[c]);
		fprintf(f, " %*s", c == 4 ? 10 : 8, s);
	}
	fputc('\n', f);
}

static void one(const struct bench_result *b, FILE *f)
{
	const struct param *p;
	const struct metric *real = fig(b, "");
	double v[NCOLS];
	size_t k, c;
	char label[24];

	fputs("command: ", f);
	report_put(f, (p = result_param(b, "command")) && p->str ? p->str : "?", 0);
	fputc('\n', f);
	if ((p = result_param(b, "prepare")) && p->str) {
		fputs("prepare (untimed, before each run): ", f);
		report_put(f, p->str, 0);
		fputc('\n', f);
	}
	if ((p = result_param(b, "warmup_runs")) && !p->str && p->num > 0)
		fprintf(f, "warm-up runs discarded: %.0f\n", p->num);
	if (b->status != ST_OK || !real) {
		fprintf(f, "%s: ", status_name(b->status));
		report_put(f, b->reason ? b->reason : "no figures", 0);
		fputc('\n', f);
		return;
	}
	if ((p = result_param(b, "failed_runs")) && p->str) {
		fputs("warning: a run failed and was kept (--ignore-status): the command ", f);
		report_put(f, p->str, 0);
		fputc('\n', f);
	}
	fputc('\n', f);
	for (k = 0; k < real->nsamples; k++)
		csh_line(b, k, f);
	fprintf(f, "\n%-7s %8s %8s %8s %8s %10s %8s %8s %8s %8s %8s %8s %8s\n", "run", "real s",
		"user s", "sys s", "%CPU", "maxRSS KiB", "blk in", "blk out", "majflt", "minflt",
		"vcsw", "ivcsw", "status");
	for (k = 0; k < real->nsamples; k++) {
		for (c = 0; c < NCOLS; c++)
			v[c] = at(b, cols[c], k);
		snprintf(label, sizeof(label), "%zu", k + 1);
		row(f, label, v);
	}
	if (real->nsamples > 1) {
		static const char *const what[] = { "median", "min", "max" };

		for (k = 0; k < 3; k++) {
			for (c = 0; c < NCOLS; c++) {
				const struct metric *m = fig(b, cols[c]);

				v[c] = !m ? 0 : k == 0 ? m->st.median : k == 1 ? m->st.min : m->st.max;
			}
			row(f, what[k], v);
		}
	}
}

void report_time(const struct result *r, FILE *f)
{
	size_t i;
	int n = 0;

	for (i = 0; i < r->nbenches; i++) {
		if (strcmp(r->benches[i].id, "time") != 0)
			continue;
		if (n++)
			fputc('\n', f);
		one(&r->benches[i], f);
	}
	if (!n)
		fputs("(no `bakeoff time` measurement in this file)\n", f);
}
