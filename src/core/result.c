/* result.c — the result model in memory, its JSON form (schema
 * bakeoff-result/1, documented in docs/results.md) and a strict reader
 * that names the byte offset of anything wrong; files on disk are
 * result-file.c's. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gauge.h"
#include "out.h"
#include "options.h"
#include "result.h"

static const char *status_names[] = { "ok", "skipped", "unsupported", "failed", "interrupted" };

const char *result_label(const struct result *r, const char *key)
{
	size_t i, kl = strlen(key);

	for (i = 0; i < r->nlabels; i++)
		if (strncmp(r->labels[i], key, kl) == 0 && r->labels[i][kl] == '=')
			return r->labels[i] + kl + 1;
	return NULL;
}

int result_add_label(struct result *r, const char *kv)
{
	char err[160], **nl;

	if (opt_label_ok(kv, err, sizeof(err)) < 0 || r->nlabels >= BENCH_MAX_LABELS)
		return -1;
	nl = realloc(r->labels, (r->nlabels + 1) * sizeof(*nl));
	if (!nl)
		return -1;
	r->labels = nl;
	if (!(r->labels[r->nlabels] = strdup(kv)))
		return -1;
	r->nlabels++;
	return 0;
}

const char *status_name(enum bench_status s)
{
	return (unsigned)s < 5 ? status_names[s] : "?";
}

static char *xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

static void *grow(void *p, size_t n, size_t size)
{
	/* Arrays grow one element at a time; they stay small (dozens). */
	return realloc(p, (n + 1) * size);
}

struct bench_result *result_add_bench(struct result *r, const char *id, const char *group,
				      const char *title)
{
	struct bench_result *b = grow(r->benches, r->nbenches, sizeof(*b));

	if (!b)
		return NULL;
	r->benches = b;
	b = &r->benches[r->nbenches++];
	memset(b, 0, sizeof(*b));
	b->id = xstrdup(id);
	b->group = xstrdup(group);
	b->title = xstrdup(title);
	b->status = ST_SKIPPED;
	return b;
}

/* Free b's metrics: none left. */
static void metrics_free(struct bench_result *b)
{
	for (size_t i = 0; i < b->nmetrics; i++) {
		free(b->metrics[i].name);
		free(b->metrics[i].unit);
		free(b->metrics[i].samples);
		free(b->metrics[i].per_copy);
		free(b->metrics[i].note);
		free(b->metrics[i].derived);
		free(b->metrics[i].iv_t);
		free(b->metrics[i].iv_value);
		free(b->metrics[i].iv_amount);
		free(b->metrics[i].rep_amount);
		free(b->metrics[i].gauges);
		free(b->metrics[i].run_median);
		free(b->metrics[i].run_cv);
	}
	free(b->metrics);
	b->metrics = NULL;
	b->nmetrics = 0;
}

void result_set_status(struct bench_result *br, enum bench_status st, const char *reason)
{
	/* figures are a finished benchmark's: one that failed or was stopped
	 * half way keeps none (its reason says what happened) */
	if (st != ST_OK)
		metrics_free(br);
	br->status = st;
	free(br->reason);
	br->reason = xstrdup(reason);
}

static struct param *add_param(struct bench_result *br, const char *key)
{
	struct param *p;
	size_t i;

	for (i = 0; i < br->nparams; i++) {
		if (strcmp(br->params[i].key, key) == 0) {
			free(br->params[i].str);
			br->params[i].str = NULL;
			return &br->params[i];
		}
	}
	p = grow(br->params, br->nparams, sizeof(*p));
	if (!p)
		return NULL;
	br->params = p;
	p = &br->params[br->nparams];
	memset(p, 0, sizeof(*p));
	if (!(p->key = xstrdup(key)))
		return NULL;	/* never leave a keyless parameter behind */
	br->nparams++;
	return p;
}

void result_param_num(struct bench_result *br, const char *key, double v)
{
	struct param *p = add_param(br, key);

	if (p)
		p->num = v;
}

void result_param_str(struct bench_result *br, const char *key, const char *v)
{
	struct param *p = add_param(br, key);

	if (p)
		p->str = xstrdup(v ? v : "");
}

const struct param *result_param(const struct bench_result *br, const char *key)
{
	size_t i;

	for (i = 0; i < br->nparams; i++)
		if (strcmp(br->params[i].key, key) == 0)
			return &br->params[i];
	return NULL;
}

struct metric *result_add_metric(struct bench_result *br, const char *name, const char *unit,
				 enum better better, const double *samples, size_t n)
{
	struct metric *m = grow(br->metrics, br->nmetrics, sizeof(*m));

	if (!m)
		return NULL;
	br->metrics = m;
	m = &br->metrics[br->nmetrics];
	memset(m, 0, sizeof(*m));
	m->samples = malloc((n ? n : 1) * sizeof(double));
	if (!m->samples)
		return NULL;
	br->nmetrics++;
	memcpy(m->samples, samples, n * sizeof(double));
	m->nsamples = n;
	m->name = xstrdup(name ? name : "");
	m->unit = xstrdup(unit);
	m->better = better;
	stats_compute(samples, n, &m->st);
	return m;
}

int result_metric_gauges(struct metric *m, const double *g)
{
	double *v = malloc((m->nsamples + 1) * sizeof(double));
	size_t i, n = 0;
	struct stats st;

	free(m->gauges);
	m->gauges = v;
	if (!v)
		return -1;
	for (i = 0; i < m->nsamples; i++)	/* the readings taken, for their median */
		if (g[i] > 0)
			v[n++] = g[i];
	m->gauge = n && stats_compute(v, n, &st) == 0 ? st.median : 0;
	memcpy(v, g, m->nsamples * sizeof(double));	/* then all of them, kept */
	return 0;
}

void result_quiet_figures(struct result *r)
{
	size_t i, j, n = 0, k = 0;
	double *all, ref;

	for (i = 0; i < r->nbenches; i++)
		for (j = 0; j < r->benches[i].nmetrics; j++)
			n += r->benches[i].metrics[j].gauges ? r->benches[i].metrics[j].nsamples : 0;
	if (!n || !(all = malloc(n * sizeof(double))))
		return;
	for (i = 0; i < r->nbenches; i++)
		for (j = 0; j < r->benches[i].nmetrics; j++) {
			const struct metric *m = &r->benches[i].metrics[j];

			if (m->gauges)
				memcpy(all + k, m->gauges, m->nsamples * sizeof(double)), k += m->nsamples;
		}
	ref = gauge_reference(all, n);
	free(all);
	for (i = 0; i < r->nbenches; i++)
		for (j = 0; j < r->benches[i].nmetrics; j++) {
			struct metric *m = &r->benches[i].metrics[j];

			m->quiet_n = m->gauges ? gauge_quiet(m->samples, m->gauges, m->nsamples, ref, &m->split) : 0;
		}
}

const struct metric *result_metric(const struct bench_result *br, const char *name)
{
	size_t i;

	for (i = 0; i < br->nmetrics; i++)
		if (strcmp(br->metrics[i].name, name) == 0)
			return &br->metrics[i];
	return NULL;
}

struct metric *result_add_derived(struct bench_result *br, const char *name, const char *unit,
				  enum better better, double v, const char *from)
{
	double g = 0;
	size_t i;
	struct metric *m;

	for (i = 0; i < br->nmetrics; i++)	/* the most shared of the timed figures */
		if (!br->metrics[i].derived && br->metrics[i].gauge > g)
			g = br->metrics[i].gauge;
	if (!(m = result_add_metric(br, name, unit, better, &v, 1)))
		return NULL;
	m->gauge = g;
	return (m->derived = strdup(from)) ? m : NULL;
}

void result_note(struct bench_result *br, const char *name, const char *note)
{
	struct metric *m = (struct metric *)result_metric(br, name);

	if (m && !m->note)
		m->note = strdup(note);
}

const struct bench_result *result_bench(const struct result *r, const char *id)
{
	size_t i;

	for (i = 0; i < r->nbenches; i++)
		if (strcmp(r->benches[i].id, id) == 0)
			return &r->benches[i];
	return NULL;
}

void result_add_finding(struct guard *g, const char *fmt, ...)
{
	char line[512], **f;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	f = grow(g->findings, g->nfindings, sizeof(*f));
	if (!f)
		return;
	g->findings = f;
	g->findings[g->nfindings++] = xstrdup(line);
}

/* ---- writing ---- */

static void write_nums(struct jw *w, const char *key, const double *v, size_t n)
{
	size_t i;

	jw_arr_begin(w, key);
	for (i = 0; i < n; i++)
		jw_num(w, NULL, v[i]);
	jw_arr_end(w);
}

static void write_bench(struct jw *w, const struct bench_result *b)
{
	size_t i;

	jw_obj_begin(w, NULL);
	jw_str(w, "id", b->id);
	jw_str(w, "group", b->group);
	jw_str(w, "title", b->title);
	jw_str(w, "status", status_name(b->status));
	jw_str(w, "reason", b->reason);
	jw_obj_begin(w, "params");
	for (i = 0; i < b->nparams; i++) {
		if (b->params[i].str)
			jw_str(w, b->params[i].key, b->params[i].str);
		else
			jw_num(w, b->params[i].key, b->params[i].num);
	}
	jw_obj_end(w);
	jw_obj_begin(w, "cpu");
	jw_num(w, "wall_s", b->wall_s);
	jw_num(w, "user_s", b->user_s);
	jw_num(w, "sys_s", b->sys_s);
	jw_obj_end(w);
	jw_arr_begin(w, "metrics");
	for (i = 0; i < b->nmetrics; i++) {
		const struct metric *m = &b->metrics[i];
		double ci[2] = { m->st.ci_lo, m->st.ci_hi };

		jw_obj_begin(w, NULL);
		jw_str(w, "name", m->name);
		jw_str(w, "unit", m->unit);
		jw_str(w, "better", m->better == BETTER_HIGHER ? "higher" : "lower");
		jw_int(w, "n", (int64_t)m->st.n);
		jw_num(w, "median", m->st.median);
		jw_num(w, "min", m->st.min);
		jw_num(w, "max", m->st.max);
		jw_num(w, "mean", m->st.mean);
		jw_num(w, "stddev", m->st.stddev);
		jw_num(w, "cv", m->st.cv);
		write_nums(w, "ci95", ci, 2);
		jw_int(w, "iterations", (int64_t)m->iterations);
		jw_num(w, "overhead_ns", m->overhead_ns);
		write_nums(w, "samples", m->samples, m->nsamples);
		if (m->rep_amount)
			write_nums(w, "amounts", m->rep_amount, m->nsamples);
		if (m->ncopies)
			write_nums(w, "per_copy", m->per_copy, m->ncopies);
		if (m->note)
			jw_str(w, "note", m->note);
		if (m->detail)
			jw_bool(w, "detail", 1);
		if (m->cache_suspect)	/* disk */
			jw_bool(w, "cache_suspect", 1);
		if (m->derived)
			jw_str(w, "derived", m->derived);
		if (m->op_ns > 0) {
			jw_num(w, "raw_ns_per_op", m->raw_ns);
			jw_num(w, "ns_per_op", m->op_ns);
		}
		if (m->gauge > 0)
			jw_num(w, "core_gauge", m->gauge);
		if (m->gauges)
			write_nums(w, "core_gauges", m->gauges, m->nsamples);
		if (m->quiet_n) {
			jw_obj_begin(w, "core_quiet");
			jw_num(w, "median", m->split.quiet);
			jw_num(w, "core_gauge", m->split.quiet_gauge);
			jw_int(w, "samples", (int64_t)m->quiet_n);
			jw_num(w, "shared_median", m->split.shared);
			jw_obj_end(w);
		}
		if (m->cpu_wall_s > 0) {
			jw_obj_begin(w, "cpu");
			jw_num(w, "wall_s", m->cpu_wall_s);
			jw_num(w, "user_s", m->cpu_user_s);
			jw_num(w, "sys_s", m->cpu_sys_s);
			jw_obj_end(w);
		}
		if (m->niv) {
			jw_obj_begin(w, "intervals");
			write_nums(w, "t_s", m->iv_t, m->niv);
			write_nums(w, "value", m->iv_value, m->niv);
			write_nums(w, "amount", m->iv_amount, m->niv);
			jw_obj_end(w);
		}
		if (m->ci_target > 0) {
			jw_obj_begin(w, "ci_target");
			jw_num(w, "target", m->ci_target);
			jw_num(w, "reached", m->ci_reached);
			jw_bool(w, "met", m->ci_reached <= m->ci_target);
			jw_obj_end(w);
		}
		if (m->nruns) {
			jw_obj_begin(w, "runs");
			write_nums(w, "median", m->run_median, m->nruns);
			write_nums(w, "cv", m->run_cv, m->nruns);
			jw_obj_end(w);
		}
		if (m->hist_count) {
			jw_obj_begin(w, "latency");
			jw_str(w, "unit", m->hist_unit);
			jw_int(w, "count", (int64_t)m->hist_count);
			if (m->hist_mean > 0)
				jw_num(w, "mean", m->hist_mean);
			jw_num(w, "p50", m->hist_p50);
			jw_num(w, "p90", m->hist_p90);
			jw_num(w, "p99", m->hist_p99);
			jw_num(w, "p99.9", m->hist_p999);
			jw_num(w, "max", m->hist_max);
			jw_obj_end(w);
		}
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_obj_end(w);
}

void result_to_json(const struct result *r, struct buf *out)
{
	struct jw w;
	size_t i;
	int a;

	jw_init(&w, out);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "schema", RESULT_SCHEMA);
	jw_obj_begin(&w, "run");
	jw_arr_begin(&w, "argv");
	for (a = 0; a < r->argc; a++)
		jw_str(&w, NULL, r->argv[a]);
	jw_arr_end(&w);
	jw_str(&w, "profile", r->profile);
	jw_str(&w, "start", r->start_utc);
	jw_num(&w, "duration_s", r->duration_s);
	jw_bool(&w, "interrupted", r->interrupted);
	if (r->incomplete)
		jw_bool(&w, "incomplete", 1);
	jw_int(&w, "parallel", r->parallel);
	if (r->runs > 1)
		jw_int(&w, "runs", r->runs);
	if (r->nlabels) {
		jw_obj_begin(&w, "labels");
		for (i = 0; i < r->nlabels; i++) {
			size_t kl = strcspn(r->labels[i], "=");
			char key[40];

			snprintf(key, sizeof(key), "%.*s", (int)kl, r->labels[i]);
			jw_str(&w, key, r->labels[i] + kl + 1);
		}
		jw_obj_end(&w);
	}
	if (r->fleet_id && r->fleet_host) {
		jw_obj_begin(&w, "fleet");
		jw_str(&w, "id", r->fleet_id);
		jw_str(&w, "host", r->fleet_host);
		jw_obj_end(&w);
	}
	jw_obj_begin(&w, "harness");
	jw_str(&w, "clock", r->clock.source ? r->clock.source : "CLOCK_MONOTONIC");
	jw_num(&w, "clock_resolution_ns", r->clock.resolution_ns);
	jw_num(&w, "clock_cost_ns", r->clock.cost_ns);
	jw_num(&w, "loop_overhead_ns", r->loop_ns);
	jw_num(&w, "target_sample_ns", r->target_sample_ns);
	jw_int(&w, "samples", r->samples);
	if (r->ci_target > 0)
		jw_num(&w, "ci_target", r->ci_target);
	jw_obj_end(&w);
	jw_obj_end(&w);
	jw_obj_begin(&w, "host");
	sysinfo_write_json(&r->host, &w);
	jw_obj_end(&w);
	jw_obj_begin(&w, "guard");
	jw_str(&w, "verdict", r->guard.verdict[0] ? r->guard.verdict : "valid");
	jw_arr_begin(&w, "findings");
	for (i = 0; i < r->guard.nfindings; i++)
		jw_str(&w, NULL, r->guard.findings[i]);
	jw_arr_end(&w);
	jw_obj_end(&w);
	jw_arr_begin(&w, "benchmarks");
	for (i = 0; i < r->nbenches; i++)
		write_bench(&w, &r->benches[i]);
	jw_arr_end(&w);
	jw_obj_end(&w);
	buf_puts(out, "\n");
}

/* ---- reading ---- */

struct rd {
	size_t off;
	char *err;
	size_t errlen;
};

static int rd_fail(struct rd *rd, const struct json *at, const char *fmt, ...)
	BAKEOFF_PRINTF(3, 4);
static int rd_fail(struct rd *rd, const struct json *at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rd->err, rd->errlen, fmt, ap);
	va_end(ap);
	rd->off = at ? at->off : 0;
	return -1;
}

/* A required member of a given type. */
static const struct json *need(struct rd *rd, const struct json *obj, const char *key,
			       enum json_type t)
{
	static const char *tn[] = { "null", "boolean", "number", "string", "array", "object" };
	const struct json *v = json_get(obj, key);

	if (!v) {
		rd_fail(rd, obj, "missing \"%s\"", key);
		return NULL;
	}
	if (v->type != t) {
		rd_fail(rd, v, "\"%s\" must be %s %s", key, t == JSON_ARRAY || t == JSON_OBJECT ? "an" : "a", tn[t]);
		return NULL;
	}
	return v;
}

static int need_num(struct rd *rd, const struct json *obj, const char *key, double *out)
{
	const struct json *v = json_get(obj, key);

	if (v && v->type == JSON_NULL) {	/* non-finite values are written as null */
		*out = NAN;
		return 0;
	}
	if (!(v = need(rd, obj, key, JSON_NUMBER)))
		return -1;
	*out = v->number;
	return 0;
}

/* A count (iterations, parallel, samples, a latency histogram's count, the
 * run's runs): a whole number from min to max, so converting it to an
 * integer type is defined whatever the file says. */
static int need_count(struct rd *rd, const struct json *obj, const char *key, double min,
		      double max, double *out)
{
	if (need_num(rd, obj, key, out) < 0)
		return -1;
	if (!(*out >= min && *out <= max && *out == floor(*out)))
		return rd_fail(rd, json_get(obj, key), "\"%s\" must be a whole number from %.0f to %.0f",
			       key, min, max);
	return 0;
}

static int read_nums(struct rd *rd, const struct json *obj, const char *key, double **out,
		     size_t *n, int required)
{
	const struct json *a = json_get(obj, key);
	size_t i;

	*out = NULL;
	*n = 0;
	if (!a && !required)
		return 0;
	if (!(a = need(rd, obj, key, JSON_ARRAY)))
		return -1;
	*out = calloc(a->n ? a->n : 1, sizeof(double));
	if (!*out)
		return rd_fail(rd, a, "out of memory");
	for (i = 0; i < a->n; i++) {
		if (a->items[i]->type == JSON_NULL)
			(*out)[i] = NAN;
		else if (a->items[i]->type == JSON_NUMBER)
			(*out)[i] = a->items[i]->number;
		else
			return rd_fail(rd, a->items[i], "\"%s\" must hold numbers", key);
	}
	*n = a->n;
	return 0;
}

/* Nothing bakeoff measures is negative or comes near 1e30 (bytes/s, ns,
 * operations/s, files/s): a figure outside that is refused, with its
 * offset, before any renderer or compare divides by it. */
#define FIGURE_MAX 1e30

static int figure_bad(struct rd *rd, const struct json *v, const char *what)
{
	if (!v || v->type != JSON_NUMBER || (v->number >= 0 && v->number <= FIGURE_MAX))
		return 0;
	rd_fail(rd, v, "%s %g is impossible (a figure is from 0 to 1e30)", what, v->number);
	return 1;
}

/* The optional members of a metric: derived, per-op times, CPU, intervals,
 * latency percentiles. */
static int read_metric_extra(struct rd *rd, const struct json *j, struct metric *m)
{
	const struct json *v, *o;
	size_t n1, n2, n3;

	if ((v = json_get(j, "derived"))) {
		if (v->type != JSON_STRING)
			return rd_fail(rd, v, "\"derived\" must be a string");
		if (!(m->derived = strdup(v->string)))
			return rd_fail(rd, v, "out of memory");
	}
	if (json_get(j, "ns_per_op") && (need_num(rd, j, "ns_per_op", &m->op_ns) < 0 ||
					 need_num(rd, j, "raw_ns_per_op", &m->raw_ns) < 0))
		return -1;
	if (json_get(j, "core_gauge") && need_num(rd, j, "core_gauge", &m->gauge) < 0)
		return -1;
	if ((o = json_get(j, "core_quiet"))) {
		double n;

		if (o->type != JSON_OBJECT)
			return rd_fail(rd, o, "\"core_quiet\" must be an object");
		if (need_num(rd, o, "median", &m->split.quiet) < 0 || figure_bad(rd, json_get(o, "median"), "median") ||
		    need_num(rd, o, "core_gauge", &m->split.quiet_gauge) < 0 ||
		    need_count(rd, o, "samples", 1, 1e6, &n) < 0 ||
		    need_num(rd, o, "shared_median", &m->split.shared) < 0 ||
		    figure_bad(rd, json_get(o, "shared_median"), "shared_median"))
			return -1;
		m->quiet_n = (size_t)n;
	}
	if ((o = json_get(j, "cpu"))) {
		if (o->type != JSON_OBJECT)
			return rd_fail(rd, o, "\"cpu\" must be an object");
		if (need_num(rd, o, "wall_s", &m->cpu_wall_s) < 0 ||
		    need_num(rd, o, "user_s", &m->cpu_user_s) < 0 ||
		    need_num(rd, o, "sys_s", &m->cpu_sys_s) < 0)
			return -1;
	}
	if ((o = json_get(j, "intervals"))) {
		if (o->type != JSON_OBJECT)
			return rd_fail(rd, o, "\"intervals\" must be an object");
		if (read_nums(rd, o, "t_s", &m->iv_t, &n1, 1) < 0 ||
		    read_nums(rd, o, "value", &m->iv_value, &n2, 1) < 0 ||
		    read_nums(rd, o, "amount", &m->iv_amount, &n3, 1) < 0)
			return -1;
		if (n1 != n2 || n1 != n3)
			return rd_fail(rd, o, "\"intervals\" arrays differ in length");
		m->niv = n1;
	}
	if ((o = json_get(j, "ci_target"))) {
		if (o->type != JSON_OBJECT)
			return rd_fail(rd, o, "\"ci_target\" must be an object");
		if (need_num(rd, o, "target", &m->ci_target) < 0 ||
		    need_num(rd, o, "reached", &m->ci_reached) < 0)
			return -1;
		if (!(m->ci_target > 0 && m->ci_target < 1) || !(m->ci_reached >= 0))
			return rd_fail(rd, o, "\"ci_target\": target must be in (0, 1), reached >= 0");
	}
	if ((o = json_get(j, "runs"))) {
		if (o->type != JSON_OBJECT)
			return rd_fail(rd, o, "\"runs\" must be an object");
		if (read_nums(rd, o, "median", &m->run_median, &n1, 1) < 0 ||
		    read_nums(rd, o, "cv", &m->run_cv, &n2, 1) < 0)
			return -1;
		if (n1 != n2)
			return rd_fail(rd, o, "\"runs\" arrays differ in length");
		m->nruns = n1;
	}
	if ((o = json_get(j, "latency"))) {
		double cnt;

		if (o->type != JSON_OBJECT)
			return rd_fail(rd, o, "\"latency\" must be an object");
		if (!(v = need(rd, o, "unit", JSON_STRING)) || need_count(rd, o, "count", 1, 1e18, &cnt) < 0 ||
		    need_num(rd, o, "p50", &m->hist_p50) < 0 || need_num(rd, o, "p90", &m->hist_p90) < 0 ||
		    need_num(rd, o, "p99", &m->hist_p99) < 0 ||
		    need_num(rd, o, "p99.9", &m->hist_p999) < 0 || need_num(rd, o, "max", &m->hist_max) < 0)
			return -1;
		if (json_get(o, "mean") && need_num(rd, o, "mean", &m->hist_mean) < 0)
			return -1;
		m->hist_count = (uint64_t)cnt;
		snprintf(m->hist_unit, sizeof(m->hist_unit), "%s", v->string);
	}
	return 0;
}

static int figures_bad(struct rd *rd, const struct json *j)
{
	static const char *const keys[] = { "median", "min", "max", "mean" };
	const struct json *a = json_get(j, "samples");
	size_t i;

	for (i = 0; a && a->type == JSON_ARRAY && i < a->n; i++)
		if (figure_bad(rd, a->items[i], "a sample of"))
			return 1;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (figure_bad(rd, json_get(j, keys[i]), keys[i]))
			return 1;
	return 0;
}

/* An optional array of one number per sample (ns of them) into *out;
 * NULL when absent or left out by a lean read. */
static int read_per_sample(struct rd *rd, const struct json *j, const char *key, double **out, size_t ns)
{
	size_t n;

	if (!json_get(j, key))
		return 0;
	if (read_nums(rd, j, key, out, &n, 0) < 0)
		return -1;
	if (n != ns)
		return rd_fail(rd, json_get(j, key), "\"%s\" must hold one number per sample", key);
	if (!n) {	/* a lean read's */
		free(*out);
		*out = NULL;
	}
	return 0;
}

static int read_metric(struct rd *rd, const struct json *j, struct bench_result *b)
{
	const struct json *name, *unit, *better, *note, *detail;
	double *samples = NULL, *ci = NULL, iter, over;
	size_t ns, nci;
	struct metric *m;
	int rc = -1;

	if (j->type != JSON_OBJECT)
		return rd_fail(rd, j, "a metric must be an object");
	if (!(name = need(rd, j, "name", JSON_STRING)) || !(unit = need(rd, j, "unit", JSON_STRING)) ||
	    !(better = need(rd, j, "better", JSON_STRING)))
		return -1;
	if (strcmp(better->string, "higher") && strcmp(better->string, "lower"))
		return rd_fail(rd, better, "\"better\" must be \"higher\" or \"lower\"");
	if (read_nums(rd, j, "samples", &samples, &ns, 1) < 0 ||
	    read_nums(rd, j, "ci95", &ci, &nci, 1) < 0 || figures_bad(rd, j))
		goto out;
	if (nci != 2) {
		rd_fail(rd, json_get(j, "ci95"), "\"ci95\" must hold two numbers");
		goto out;
	}
	m = result_add_metric(b, name->string, unit->string,
			      strcmp(better->string, "higher") == 0 ? BETTER_HIGHER : BETTER_LOWER,
			      samples, ns);
	if (!m || !m->name || !m->unit) {	/* the add functions drop what they cannot copy */
		rd_fail(rd, j, "out of memory");
		goto out;
	}
	/* The stored statistics are the record; read them as written. */
	if (need_num(rd, j, "median", &m->st.median) < 0 || need_num(rd, j, "min", &m->st.min) < 0 ||
	    need_num(rd, j, "max", &m->st.max) < 0 || need_num(rd, j, "mean", &m->st.mean) < 0 ||
	    need_num(rd, j, "stddev", &m->st.stddev) < 0 || need_num(rd, j, "cv", &m->st.cv) < 0 ||
	    need_count(rd, j, "iterations", 0, 1e18, &iter) < 0 || need_num(rd, j, "overhead_ns", &over) < 0)
		goto out;
	m->st.n = ns;
	m->st.ci_lo = ci[0];
	m->st.ci_hi = ci[1];
	m->iterations = (uint64_t)iter;
	m->overhead_ns = over;
	if (read_nums(rd, j, "per_copy", &m->per_copy, &m->ncopies, 0) < 0)
		goto out;
	if (read_per_sample(rd, j, "amounts", &m->rep_amount, m->nsamples) < 0 ||
	    read_per_sample(rd, j, "core_gauges", &m->gauges, m->nsamples) < 0)
		goto out;
	note = json_get(j, "note");
	if (note && note->type != JSON_STRING && note->type != JSON_NULL) {
		rd_fail(rd, note, "\"note\" must be a string");
		goto out;
	}
	if (note && note->type == JSON_STRING && !(m->note = strdup(note->string))) {
		rd_fail(rd, note, "out of memory");
		goto out;
	}
	detail = json_get(j, "detail");
	if (detail && detail->type != JSON_BOOL) {
		rd_fail(rd, detail, "\"detail\" must be true or false");
		goto out;
	}
	m->detail = detail && detail->boolean;
	/* disk: cache_suspect */
	detail = json_get(j, "cache_suspect");
	if (detail && detail->type != JSON_BOOL) {
		rd_fail(rd, detail, "\"cache_suspect\" must be true or false");
		goto out;
	}
	m->cache_suspect = detail && detail->boolean;
	if (read_metric_extra(rd, j, m) < 0)
		goto out;
	rc = 0;
out:
	free(samples);
	free(ci);
	return rc;
}

static int read_bench(struct rd *rd, const struct json *j, struct bench_result *b)
{
	const struct json *id, *group, *title, *status, *reason, *params, *cpu, *metrics;
	size_t i;
	int s;

	if (j->type != JSON_OBJECT)
		return rd_fail(rd, j, "a benchmark must be an object");
	if (!(id = need(rd, j, "id", JSON_STRING)) || !(group = need(rd, j, "group", JSON_STRING)) ||
	    !(title = need(rd, j, "title", JSON_STRING)) ||
	    !(status = need(rd, j, "status", JSON_STRING)) ||
	    !(params = need(rd, j, "params", JSON_OBJECT)) ||
	    !(cpu = need(rd, j, "cpu", JSON_OBJECT)) ||
	    !(metrics = need(rd, j, "metrics", JSON_ARRAY)))
		return -1;
	if (!(b->id = strdup(id->string)) || !(b->group = strdup(group->string)) ||
	    !(b->title = strdup(title->string)))
		return rd_fail(rd, j, "out of memory");
	for (s = 0; s < 5 && strcmp(status->string, status_names[s]); s++)
		;
	if (s == 5)
		return rd_fail(rd, status, "unknown status \"%s\"", status->string);
	reason = json_get(j, "reason");
	if (reason && reason->type != JSON_STRING && reason->type != JSON_NULL)
		return rd_fail(rd, reason, "\"reason\" must be a string or null");
	result_set_status(b, (enum bench_status)s,
			  reason && reason->type == JSON_STRING ? reason->string : NULL);
	if (reason && reason->type == JSON_STRING && !b->reason)
		return rd_fail(rd, reason, "out of memory");
	for (i = 0; i < params->n; i++) {
		const struct json *v = params->items[i];

		const struct param *p;

		if (v->type == JSON_STRING)
			result_param_str(b, params->keys[i], v->string);
		else if (v->type == JSON_NUMBER)
			result_param_num(b, params->keys[i], v->number);
		else
			return rd_fail(rd, v, "parameter \"%s\" must be a number or string",
				       params->keys[i]);
		p = result_param(b, params->keys[i]);
		if (!p || (v->type == JSON_STRING && !p->str))
			return rd_fail(rd, v, "out of memory");
	}
	if (need_num(rd, cpu, "wall_s", &b->wall_s) < 0 || need_num(rd, cpu, "user_s", &b->user_s) < 0 ||
	    need_num(rd, cpu, "sys_s", &b->sys_s) < 0)
		return -1;
	for (i = 0; i < metrics->n; i++)
		if (read_metric(rd, metrics->items[i], b) < 0)
			return -1;
	return 0;
}

static int read_result(struct rd *rd, const struct json *root, struct result *r)
{
	const struct json *schema, *run, *h, *host, *guard, *benches, *argv, *v, *fi;
	double d;
	size_t i;
	char err[256];

	if (root->type != JSON_OBJECT)
		return rd_fail(rd, root, "not a bakeoff result (top level is not an object)");
	if (!(schema = need(rd, root, "schema", JSON_STRING)))
		return -1;
	if (strcmp(schema->string, RESULT_SCHEMA) != 0)
		return rd_fail(rd, schema, "schema is \"%s\", expected \"%s\"", schema->string,
			       RESULT_SCHEMA);
	if (!(run = need(rd, root, "run", JSON_OBJECT)) || !(argv = need(rd, run, "argv", JSON_ARRAY)) ||
	    !(h = need(rd, run, "harness", JSON_OBJECT)) ||
	    !(host = need(rd, root, "host", JSON_OBJECT)) ||
	    !(guard = need(rd, root, "guard", JSON_OBJECT)) ||
	    !(benches = need(rd, root, "benchmarks", JSON_ARRAY)))
		return -1;
	r->argv = calloc(argv->n + 1, sizeof(char *));
	if (!r->argv)
		return rd_fail(rd, argv, "out of memory");
	for (i = 0; i < argv->n; i++) {
		if (argv->items[i]->type != JSON_STRING)
			return rd_fail(rd, argv->items[i], "\"argv\" must hold strings");
		if (!(r->argv[r->argc] = strdup(argv->items[i]->string)))
			return rd_fail(rd, argv->items[i], "out of memory");
		r->argc++;
	}
	if (!(v = need(rd, run, "profile", JSON_STRING)))
		return -1;
	if (!(r->profile = strdup(v->string)))
		return rd_fail(rd, v, "out of memory");
	if (!(v = need(rd, run, "start", JSON_STRING)))
		return -1;
	if (!(r->start_utc = strdup(v->string)))
		return rd_fail(rd, v, "out of memory");
	if (need_num(rd, run, "duration_s", &r->duration_s) < 0 ||
	    !(v = need(rd, run, "interrupted", JSON_BOOL)))
		return -1;
	r->interrupted = v->boolean;
	if ((v = json_get(run, "incomplete"))) {
		if (v->type != JSON_BOOL)
			return rd_fail(rd, v, "\"incomplete\" must be true or false");
		r->incomplete = v->boolean;
	}
	if (need_count(rd, run, "parallel", 0, 1e6, &d) < 0)
		return -1;
	r->parallel = (int)d;
	if (json_get(run, "runs")) {
		if (need_count(rd, run, "runs", 1, 1000, &d) < 0)
			return -1;
		r->runs = (int)d;
	}
	if ((v = json_get(run, "fleet"))) {
		const struct json *id = json_get(v, "id"), *fh = json_get(v, "host");

		if (v->type != JSON_OBJECT || !id || id->type != JSON_STRING || !fh ||
		    fh->type != JSON_STRING)
			return rd_fail(rd, v, "\"fleet\" must be an object with the strings \"id\" and \"host\"");
		if (!(r->fleet_id = strdup(id->string)) || !(r->fleet_host = strdup(fh->string)))
			return rd_fail(rd, v, "out of memory");
	}
	if ((v = json_get(run, "labels"))) {
		if (v->type != JSON_OBJECT || v->n > BENCH_MAX_LABELS)
			return rd_fail(rd, v, "\"labels\" must be an object of at most %d strings",
				       BENCH_MAX_LABELS);
		for (i = 0; i < v->n; i++) {
			char kv[300];

			if (v->items[i]->type != JSON_STRING)
				return rd_fail(rd, v->items[i], "a label's value must be a string");
			snprintf(kv, sizeof(kv), "%s=%s", v->keys[i], v->items[i]->string);
			if (strlen(v->keys[i]) + strlen(v->items[i]->string) + 1 >= sizeof(kv) ||
			    result_add_label(r, kv) < 0)
				return rd_fail(rd, v->items[i], "label \"%.40s\" is not KEY=VALUE as --label takes "
					       "it", v->keys[i]);
		}
	}
	r->clock.source = "CLOCK_MONOTONIC";
	if (need_num(rd, h, "clock_resolution_ns", &r->clock.resolution_ns) < 0 ||
	    need_num(rd, h, "clock_cost_ns", &r->clock.cost_ns) < 0 ||
	    need_num(rd, h, "loop_overhead_ns", &r->loop_ns) < 0 ||
	    need_num(rd, h, "target_sample_ns", &r->target_sample_ns) < 0 ||
	    need_count(rd, h, "samples", 0, 1e6, &d) < 0)
		return -1;
	r->samples = (int)d;
	if ((v = json_get(h, "ci_target"))) {
		if (v->type != JSON_NUMBER || !(v->number > 0 && v->number < 1))
			return rd_fail(rd, v, "\"ci_target\" must be a number between 0 and 1");
		r->ci_target = v->number;
	}
	if (sysinfo_from_json(&r->host, host, err, sizeof(err)) < 0)
		return rd_fail(rd, host, "host: %s", err);
	if (!(v = need(rd, guard, "verdict", JSON_STRING)) ||
	    !(fi = need(rd, guard, "findings", JSON_ARRAY)))
		return -1;
	snprintf(r->guard.verdict, sizeof(r->guard.verdict), "%s", v->string);
	for (i = 0; i < fi->n; i++) {
		if (fi->items[i]->type != JSON_STRING)
			return rd_fail(rd, fi->items[i], "guard findings must be strings");
		result_add_finding(&r->guard, "%s", fi->items[i]->string);
		if (r->guard.nfindings != i + 1 || !r->guard.findings[i])
			return rd_fail(rd, fi->items[i], "out of memory");
	}
	/* files written before the verdict was named valid/suspect said "ok"
	 * (no finding) or "warn" (any finding): judge their findings again */
	if (strcmp(r->guard.verdict, "ok") == 0 || strcmp(r->guard.verdict, "warn") == 0)
		guard_judge(&r->guard);
	for (i = 0; i < benches->n; i++) {
		struct bench_result *b = result_add_bench(r, NULL, NULL, NULL);

		if (!b)
			return rd_fail(rd, benches, "out of memory");
		if (read_bench(rd, benches->items[i], b) < 0)
			return -1;
	}
	return 0;
}

/* The guard's verdict of its findings (guard.c makes them; the result
 * model keeps them and judges the files written before the verdict was
 * named). */
const char *guard_finding_during(const char *f, char *id, size_t n)
{
	const char *colon;

	if (strncmp(f, "during ", 7) != 0 || !(colon = strstr(f + 7, ": ")))
		return NULL;
	if (id)
		snprintf(id, n, "%.*s", (int)(colon - f - 7), f + 7);
	return colon + 2;
}

int guard_finding_suspect(const char *s)
{
	static const char *const disturbed[] = {
		"machine not idle", "the hypervisor stole", "load average", "runnable tasks",
		"the machine swapped", "the CPUs were throttled", "the machine's speed moved",
		"the core was shared",
	};
	const char *rest = guard_finding_during(s, NULL, 0);
	size_t i;

	if (rest)
		s = rest;
	for (i = 0; i < sizeof(disturbed) / sizeof(disturbed[0]); i++)
		if (strncmp(s, disturbed[i], strlen(disturbed[i])) == 0)
			return 1;
	return 0;
}

void guard_judge(struct guard *g)
{
	size_t i;
	int suspect = 0;

	for (i = 0; i < g->nfindings && !suspect; i++)
		suspect = g->findings[i] && guard_finding_suspect(g->findings[i]);
	snprintf(g->verdict, sizeof(g->verdict), "%s", suspect ? "suspect" : "valid");
}

struct each_bench {
	struct rd *rd;
	struct result *r;
};

static int each_bench(const struct json *j, void *ctx)
{
	struct each_bench *eb = ctx;
	struct bench_result *b = result_add_bench(eb->r, NULL, NULL, NULL);

	if (!b)
		return rd_fail(eb->rd, j, "out of memory");
	return read_bench(eb->rd, j, b);
}

/* The arrays of numbers a lean reader leaves out: every sample, per copy,
 * per repetition and per interval, the core gauge's readings, and the
 * medians of --runs. */
static const char *const lean_keys[] = { "samples", "per_copy", "amounts", "core_gauges", "t_s",
					 "value", "amount", "median", "cv", NULL };

static int from_json(const char *text, size_t len, struct result *r, size_t *off, char *err,
		     size_t errlen, int lean)
{
	struct rd rd = { 0, err, errlen };
	struct each_bench eb = { &rd, r };
	struct json *root;
	int rc, failed;

	memset(r, 0, sizeof(*r));
	/* the benchmarks are read one by one as they are parsed: the file costs
	 * its text and its result, never a tree of the whole (docs/results.md) */
	root = json_parse_each_lean(text, len, "benchmarks", each_bench, &eb, lean ? lean_keys : NULL,
				    &failed, off, err, errlen);
	if (!root) {
		if (failed)
			*off = rd.off;
		result_free(r);
		return -1;
	}
	rc = read_result(&rd, root, r);
	json_free(root);
	if (rc < 0) {
		*off = rd.off;
		result_free(r);
	}
	return rc;
}

int result_from_json(const char *text, size_t len, struct result *r, size_t *off, char *err,
		     size_t errlen)
{
	return from_json(text, len, r, off, err, errlen, 0);
}

int result_from_json_lean(const char *text, size_t len, struct result *r, size_t *off, char *err,
			  size_t errlen)
{
	return from_json(text, len, r, off, err, errlen, 1);
}

int result_take_member(struct bench_result *fam, const char *name, int nmembers,
		       struct bench_result *out)
{
	size_t i, l = strlen(name);

	result_set_status(out, fam->status, fam->reason);
	out->wall_s = fam->wall_s / nmembers;
	out->user_s = fam->user_s / nmembers;
	out->sys_s = fam->sys_s / nmembers;
	for (i = 0; i < fam->nparams; i++) {
		const struct param *p = &fam->params[i];
		const char *key = p->key, *colon = strchr(key, ':');

		if (colon && !(colon - key == (ptrdiff_t)l && strncmp(key, name, l) == 0))
			continue;
		if (colon)
			key = colon + 1;
		if (p->str)
			result_param_str(out, key, p->str);
		else
			result_param_num(out, key, p->num);
	}
	for (i = 0; i < fam->nmetrics;) {
		struct metric *m = &fam->metrics[i], *to;
		const char *rest = m->name + l;
		char *nn;

		if (strncmp(m->name, name, l) != 0 || (*rest && *rest != ':')) {
			i++;
			continue;
		}
		nn = strdup(*rest ? rest + 1 : "");
		to = nn ? grow(out->metrics, out->nmetrics, sizeof(*to)) : NULL;
		if (!to) {
			free(nn);
			return -1;
		}
		out->metrics = to;
		to = &out->metrics[out->nmetrics++];
		*to = *m;	/* the samples and the rest change owner */
		free(to->name);
		to->name = nn;
		memmove(m, m + 1, (fam->nmetrics - i - 1) * sizeof(*m));
		fam->nmetrics--;
	}
	return 0;
}

void result_bench_free(struct bench_result *b)
{
	size_t i;

	free(b->id);
	free(b->group);
	free(b->title);
	free(b->reason);
	for (i = 0; i < b->nparams; i++) {
		free(b->params[i].key);
		free(b->params[i].str);
	}
	free(b->params);
	metrics_free(b);
	memset(b, 0, sizeof(*b));
}

void result_free(struct result *r)
{
	size_t i;
	int a;

	for (a = 0; a < r->argc; a++)
		free(r->argv[a]);
	free(r->argv);
	free(r->profile);
	free(r->fleet_id);
	free(r->fleet_host);
	for (i = 0; i < r->nlabels; i++)
		free(r->labels[i]);
	free(r->labels);
	free(r->start_utc);
	for (i = 0; i < r->guard.nfindings; i++)
		free(r->guard.findings[i]);
	free(r->guard.findings);
	for (i = 0; i < r->nbenches; i++)
		result_bench_free(&r->benches[i]);
	free(r->benches);
	memset(r, 0, sizeof(*r));
}

int result_bench_to_fd(const struct bench_result *br, int fd)
{
	struct buf b = { 0 };
	struct jw w;
	int rc;

	jw_init(&w, &b);
	jw_arr_begin(&w, NULL);
	write_bench(&w, br);
	jw_arr_end(&w);
	rc = b.oom ? -1 : out_fd_write(fd, b.p, b.len);
	buf_free(&b);
	return rc;
}

int result_bench_from_text(const char *text, size_t len, struct bench_result *br)
{
	char err[128];
	size_t off;
	struct json *root = json_parse(text, len, &off, err, sizeof(err));
	struct rd rd = { 0, err, sizeof(err) };
	int rc = -1;

	memset(br, 0, sizeof(*br));
	if (root && root->type == JSON_ARRAY && root->n == 1)
		rc = read_bench(&rd, root->items[0], br);
	json_free(root);
	return rc;
}

/* ---- --runs: one benchmark's repeated runs folded into one ---- */

static int append_doubles(double **a, size_t n, const double *b, size_t nb)
{
	double *p = realloc(*a, (n + nb ? n + nb : 1) * sizeof(double));

	if (!p)
		return -1;
	*a = p;
	if (nb)
		memcpy(p + n, b, nb * sizeof(double));
	return 0;
}

/* A per-sample array (amounts, the gauge's readings) of the next run's nb
 * samples, b, after the n pooled so far in *a (first: the figure's first
 * run): kept beside the samples only while every run has it (a run
 * without one drops it). */
static int pool_per_sample(double **a, size_t n, const double *b, size_t nb, int first)
{
	if (!b) {
		free(*a);
		*a = NULL;
		return 0;
	}
	return *a || first ? append_doubles(a, n, b, nb) : 0;
}

int result_merge_run(struct bench_result *acc, const struct bench_result *next, int run)
{
	size_t i;

	if (run == 1) {	/* acc is empty: the first run sets status and settings */
		result_set_status(acc, next->status, next->reason);
		for (i = 0; i < next->nparams; i++) {
			if (next->params[i].str)
				result_param_str(acc, next->params[i].key, next->params[i].str);
			else
				result_param_num(acc, next->params[i].key, next->params[i].num);
		}
	}
	if (acc->status != ST_OK)
		return 0;	/* a failed run fails the benchmark */
	if (next->status != ST_OK) {
		char why[600];

		snprintf(why, sizeof(why), "run %d: %s", run, next->reason ? next->reason : status_name(next->status));
		if (acc->status == ST_OK)
			result_set_status(acc, next->status, why);
		return 0;
	}
	acc->wall_s += next->wall_s;
	acc->user_s += next->user_s;
	acc->sys_s += next->sys_s;
	for (i = 0; i < next->nmetrics; i++) {
		const struct metric *n = &next->metrics[i];
		struct metric *m = NULL;
		size_t j;

		for (j = 0; j < acc->nmetrics; j++)
			if (strcmp(acc->metrics[j].name, n->name) == 0)
				m = &acc->metrics[j];
		if (!m) {	/* a figure an earlier run did not give */
			m = result_add_metric(acc, n->name, n->unit, n->better, n->samples, n->nsamples);
			if (!m)
				return -1;
			m->detail = n->detail;
			m->derived = xstrdup(n->derived);
			m->note = xstrdup(n->note);
			m->iterations = n->iterations;
			m->overhead_ns = n->overhead_ns;
			m->ci_target = n->ci_target;
			m->ci_reached = n->ci_reached;
			if (pool_per_sample(&m->rep_amount, 0, n->rep_amount, n->nsamples, 1) < 0 ||
			    pool_per_sample(&m->gauges, 0, n->gauges, n->nsamples, 1) < 0)
				return -1;
		} else if (append_doubles(&m->samples, m->nsamples, n->samples, n->nsamples) < 0) {
			return -1;
		} else {
			if (pool_per_sample(&m->rep_amount, m->nsamples, n->rep_amount, n->nsamples, 0) < 0 ||
			    pool_per_sample(&m->gauges, m->nsamples, n->gauges, n->nsamples, 0) < 0)
				return -1;
			m->nsamples += n->nsamples;
			if (!m->note && n->note)
				m->note = xstrdup(n->note);
			m->cache_suspect |= n->cache_suspect;
			/* the target is met only when every run met it */
			if (n->ci_reached > m->ci_reached)
				m->ci_reached = n->ci_reached;
		}
		if (n->gauge > m->gauge)	/* the most shared run's */
			m->gauge = n->gauge;
		if (append_doubles(&m->run_median, m->nruns, &n->st.median, 1) < 0 ||
		    append_doubles(&m->run_cv, m->nruns, &n->st.cv, 1) < 0)
			return -1;
		m->nruns++;
		stats_compute(m->samples, m->nsamples, &m->st);
	}
	return 0;
}
