/* export.c — result files for the trackers people already run:
 * Bencher Metric Format (--format bmf: one JSON object, a benchmark per
 * figure, a measure per unit, the median as value and its 95% CI as lower
 * and upper values) and the Prometheus / OpenMetrics text format for
 * node_exporter's textfile collector (--format openmetrics: one gauge per
 * figure, labelled with the host, benchmark, metric and unit). Main
 * figures only (--all: every figure); read only. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"

/* The measure a unit is in Bencher: its built-in latency (nanoseconds) and
 * throughput (operations a second), else the unit made a slug ("mb-s"). */
static double measure(const char *unit, char *slug, size_t n, double v)
{
	size_t i, k = 0;

	if (!strcmp(unit, "ns") || !strcmp(unit, "us") || !strcmp(unit, "ms") || !strcmp(unit, "s")) {
		snprintf(slug, n, "latency");
		return v * (!strcmp(unit, "us") ? 1e3 : !strcmp(unit, "ms") ? 1e6 : !strcmp(unit, "s") ? 1e9 : 1);
	}
	if (!strcmp(unit, "ops/s")) {
		snprintf(slug, n, "throughput");
		return v;
	}
	for (i = 0; unit[i] && k + 1 < n; i++)
		if (isalnum((unsigned char)unit[i]))
			slug[k++] = (char)tolower((unsigned char)unit[i]);
		else if (k && slug[k - 1] != '-')
			slug[k++] = '-';
	while (k && slug[k - 1] == '-')
		k--;
	slug[k] = 0;
	if (!k)
		snprintf(slug, n, "value");
	return v;
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void json_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.15g", v);
	else
		fputs("null", f);
}

void report_bmf(const struct result *r, int all, FILE *f)
{
	size_t i, j;
	int first = 1;

	fputs("{", f);
	for (i = 0; i < r->nbenches; i++) {
		const struct bench_result *b = &r->benches[i];

		for (j = 0; b->status == ST_OK && j < b->nmetrics; j++) {
			const struct metric *m = &b->metrics[j];
			char name[600], slug[64];
			double v, lo, hi;

			if ((m->detail && !all) || !isfinite(m->st.median))
				continue;
			snprintf(name, sizeof(name), "%s%s%s", b->id, m->name[0] ? ":" : "", m->name);
			v = measure(m->unit, slug, sizeof(slug), m->st.median);
			lo = measure(m->unit, slug, sizeof(slug), m->st.ci_lo);
			hi = measure(m->unit, slug, sizeof(slug), m->st.ci_hi);
			fputs(first ? "\n  " : ",\n  ", f);
			first = 0;
			json_str(f, name);
			fputs(": { ", f);
			json_str(f, slug);
			fputs(": { \"value\": ", f);
			json_num(f, v);
			if (hi > lo) {
				fputs(", \"lower_value\": ", f);
				json_num(f, lo);
				fputs(", \"upper_value\": ", f);
				json_num(f, hi);
			}
			fputs(" } }", f);
		}
	}
	fputs(first ? "}\n" : "\n}\n", f);
}

/* A Prometheus metric name from s: [a-zA-Z0-9_], others '_'. */
static void prom_name(char *out, size_t n, const char *id, const char *metric, const char *unit)
{
	char raw[700];
	size_t i, k = 0;

	snprintf(raw, sizeof(raw), "bakeoff_%s%s%s_%s", id, metric[0] ? "_" : "", metric, unit[0] ? unit : "value");
	for (i = 0; raw[i] && k + 1 < n; i++) {
		char c = raw[i];

		c = isalnum((unsigned char)c) ? c : '_';
		if (!(c == '_' && k && out[k - 1] == '_'))
			out[k++] = c;
	}
	while (k && out[k - 1] == '_')
		k--;
	out[k] = 0;
}

static void label(FILE *f, const char *key, const char *v, int first)
{
	fprintf(f, "%s%s=\"", first ? "" : ",", key);
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fprintf(f, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", f);
		else if ((unsigned char)*v >= 0x20)
			fputc(*v, f);
	}
	fputc('"', f);
}

/* HELP text: backslash and line feed escaped, other controls dropped. */
static void help_text(FILE *f, const char *s)
{
	for (; *s; s++)
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
}

void report_openmetrics(const struct result *const *rs, size_t n, int all, FILE *f)
{
	char (*done)[200] = NULL, name[200];
	size_t ndone = 0, cap = 0, k, i, j, d, kk;

	/* one family per figure, each file's value under it, first seen first */
	for (k = 0; k < n; k++)
		for (i = 0; i < rs[k]->nbenches; i++) {
			const struct bench_result *b = &rs[k]->benches[i];

			for (j = 0; b->status == ST_OK && j < b->nmetrics; j++) {
				const struct metric *m = &b->metrics[j];

				if ((m->detail && !all) || !isfinite(m->st.median))
					continue;
				prom_name(name, sizeof(name), b->id, m->name, m->unit);
				for (d = 0; d < ndone && strcmp(done[d], name); d++)
					;
				if (d < ndone)
					continue;
				if (ndone == cap) {
					char (*nd)[200] = realloc(done, (cap = cap ? 2 * cap : 64) * sizeof(*done));

					if (!nd)
						break;
					done = nd;
				}
				snprintf(done[ndone++], sizeof(done[0]), "%s", name);
				fprintf(f, "# HELP %s bakeoff ", name);
				help_text(f, b->id);
				if (m->name[0]) {
					fputc(':', f);
					help_text(f, m->name);
				}
				fputs(": median in ", f);
				help_text(f, m->unit);
				fprintf(f, "\n# TYPE %s gauge\n", name);
				for (kk = k; kk < n; kk++) {
					const struct bench_result *c = result_bench(rs[kk], b->id);
					const struct metric *cm = c && c->status == ST_OK ? result_metric(c, m->name) : NULL;

					if (!cm || !isfinite(cm->st.median))
						continue;
					fputs(name, f);
					fputc('{', f);
					label(f, "host", rs[kk]->host.hostname, 1);
					label(f, "benchmark", b->id, 0);
					label(f, "metric", m->name, 0);
					label(f, "unit", m->unit, 0);
					label(f, "verdict", rs[kk]->guard.verdict, 0);
					label(f, "start", rs[kk]->start_utc ? rs[kk]->start_utc : "", 0);
					fprintf(f, "} %.15g\n", cm->st.median);
				}
			}
		}
	free(done);
	fputs("# EOF\n", f);
}
