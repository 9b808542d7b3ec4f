/* check.c — the regression gate (bakeoff check): is NEW slower than its
 * baseline beyond a threshold and beyond the noise? Against a result file,
 * each figure's ratio carries the 95% CI of a ratio of medians from both
 * files' samples (compare's); against a history directory, the baseline
 * is the last stable segment of NEW's machine's series (the runs after its
 * last change point) and NEW must fall outside that segment's 95%
 * prediction interval for one more run. The answer is an exit status that
 * git bisect run understands: 0 good, 1 a regression (or a figure NEW
 * lacks), 3 not comparable, 125 NEW cannot be judged (skip the commit). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "compare.h"
#include "gauge.h"
#include "history.h"
#include "report.h"
#include "units.h"

enum state { ST_GOOD, ST_WORSE, ST_BETTER, ST_MISSING };

struct tally {
	size_t n[4];
	FILE *out;
	const struct check_opts *o;
};

static const char *const state_word[] = { "ok", "REGRESSION", "improved", "MISSING" };

static int worse(int better, double ratio)
{
	return better == BETTER_HIGHER ? ratio < 1 : ratio > 1;
}

/* The change as the user reads it: +12.3% slower. */
static void change_text(char *out, size_t n, int better, double ratio, double lo, double hi, int ci)
{
	size_t len = (size_t)snprintf(out, n, "%+.1f%%%s", (ratio - 1) * 100,
				      fabs(ratio - 1) < 0.0005 ? "" : worse(better, ratio) ? " slower" : " faster");

	if (ci && len < n)
		snprintf(out + len, n - len, " (95%% CI %+.1f..%+.1f%%)", (lo - 1) * 100, (hi - 1) * 100);
}

static void verdict_line(struct tally *t, enum state s, const char *id, const char *metric,
			 const char *unit, double base, double now, const char *change, const char *how)
{
	char name[600], b[32], a[32];

	t->n[s]++;
	snprintf(name, sizeof(name), "%s%s%s", id, metric[0] ? ":" : "", metric);
	fprintf(t->out, "%-10s  ", state_word[s]);
	report_put(t->out, name, 28);
	if (s == ST_MISSING) {
		fputs("  in the baseline, not in NEW\n", t->out);
		return;
	}
	fmt_num(b, sizeof(b), base);
	fmt_num(a, sizeof(a), now);
	fprintf(t->out, " %9s -> %9s ", b, a);
	report_put(t->out, unit, 0);
	fprintf(t->out, "  %s%s%s\n", change, how[0] ? "  " : "", how);
}

/* The whole CI beyond the threshold, on the worse side: a regression;
 * on the better side: improved. */
static enum state judge(int better, const struct cmp_ratio *r, double threshold)
{
	double up = 1 + threshold, down = 1 / (1 + threshold);

	if (r->lo > up)
		return better == BETTER_HIGHER ? ST_BETTER : ST_WORSE;
	if (r->hi < down)
		return better == BETTER_HIGHER ? ST_WORSE : ST_BETTER;
	return ST_GOOD;
}

static int shown(const struct check_opts *o, const struct bench_result *b, const struct metric *m)
{
	struct hx_view v;
	struct history h;
	size_t k;
	int yes;

	memset(&v, 0, sizeof(v));
	v.metrics = o->metrics;
	v.nmetrics = o->nmetrics;
	v.all = o->all;
	history_init(&h, NULL);
	k = history_key(&h, b->id, m->name, m->unit, "", m->better, m->derived != NULL, m->detail);
	yes = k != (size_t)-1 && history_key_shown(&h, &v, k);
	history_free(&h);
	return yes;
}

/* NEW's figure against the baseline file's. */
static void check_fig(struct tally *t, const struct bench_result *bb, const struct metric *mb,
		      const struct metric *mn)
{
	struct cmp_ratio r;
	char change[120], how[200];

	if (mb->derived || mn->derived || mb->nsamples < 3 || mn->nsamples < 3)
		compare_ratio_samples(mb->st.median, NULL, 0, mn->st.median, NULL, 0, &r);
	else
		compare_ratio_samples(mb->st.median, mb->samples, mb->nsamples, mn->st.median, mn->samples,
				      mn->nsamples, &r);
	change_text(change, sizeof(change), mb->better, r.ratio, r.lo, r.hi, r.ci);
	/* one file against another knows no level for a shared core (a
	 * history does): say which side's core was shared */
	if (mb->gauge > 0 && mn->gauge > 0 && (mn->gauge >= GAUGE_SHARED * mb->gauge ||
					       mb->gauge >= GAUGE_SHARED * mn->gauge))
		snprintf(how, sizeof(how), "(%s ran on a shared core: core gauge %.2f against %.2f; a history "
			 "as BASELINE takes that into account)", mn->gauge > mb->gauge ? "NEW" : "BASELINE",
			 fmax(mn->gauge, mb->gauge), fmin(mn->gauge, mb->gauge));
	else
		snprintf(how, sizeof(how), "%s", r.ci ? "" : "(no CI: a derived figure)");
	verdict_line(t, judge(mb->better, &r, t->o->threshold), bb->id, mb->name, mb->unit, mb->st.median,
		     mn->st.median, change, how);
}

/* What makes two machines different: the facts their fingerprints hash. */
static int same_machine(const struct result *a, const struct result *b, FILE *err)
{
	struct history h;
	int same;

	history_init(&h, NULL);
	if (history_add_result(&h, a, "BASELINE") < 0 || history_add_result(&h, b, "NEW") < 0) {
		history_free(&h);
		return -1;
	}
	same = !strcmp(h.files[0].fp, h.files[1].fp);
	if (!same) {	/* the facts ("cpu X; 2 cores / 2 threads; ...") that differ */
		const char *x = h.files[0].facts, *y = h.files[1].facts;

		fputs("bakeoff: check: not comparable: the machines differ:", err);
		while (*x || *y) {
			size_t lx = strcspn(x, ";"), ly = strcspn(y, ";");
			char a[300], b[300];

			snprintf(a, sizeof(a), "%.*s", (int)lx, x);
			snprintf(b, sizeof(b), "%.*s", (int)ly, y);
			if (strcmp(a, b)) {
				fputs("\n  BASELINE ", err);
				report_put(err, a + (a[0] == ' '), 0);
				fputs(", NEW ", err);
				report_put(err, b + (b[0] == ' '), 0);
			}
			x += lx + (x[lx] != 0);
			y += ly + (y[ly] != 0);
		}
		fputc('\n', err);
	}
	history_free(&h);
	return same;
}

/* Settings differ for a figure both have: say which (exit 3). */
static int same_settings(const struct result *rb, const struct bench_result *bb, const struct result *rn,
			 const struct bench_result *bn, FILE *err)
{
	size_t i;

	if (strcmp(rb->profile ? rb->profile : "", rn->profile ? rn->profile : "")) {
		fprintf(err, "bakeoff: check: not comparable: profile %s in BASELINE, %s in NEW\n",
			rb->profile ? rb->profile : "?", rn->profile ? rn->profile : "?");
		return 0;
	}
	for (i = 0; i < bb->nparams; i++) {
		const struct param *p = &bb->params[i], *q;

		if (!compare_param_is_setting(p->key))
			continue;
		q = result_param(bn, p->key);
		if (!q || (p->str ? !q->str || strcmp(p->str, q->str) : q->str || p->num != q->num)) {
			fprintf(err, "bakeoff: check: not comparable: %s's setting %s differs (", bb->id, p->key);
			if (p->str)
				report_put(err, p->str, 0);
			else
				fprintf(err, "%.6g", p->num);
			fputs(" in BASELINE, ", err);
			if (!q)
				fputs("none", err);
			else if (q->str)
				report_put(err, q->str, 0);
			else
				fprintf(err, "%.6g", q->num);
			fputs(" in NEW)\n", err);
			return 0;
		}
	}
	return 1;
}

static int against_file(const struct check_opts *o, const struct result *rn, struct tally *t, FILE *err)
{
	struct result rb;
	char msg[700];
	size_t i, j;
	int same;

	memset(&rb, 0, sizeof(rb));
	if (result_load(o->baseline, &rb, msg, sizeof(msg)) < 0) {
		fprintf(err, "bakeoff: check: %s\n", msg);
		result_free(&rb);
		return 2;
	}
	if ((same = same_machine(&rb, rn, err)) <= 0) {
		result_free(&rb);
		return same < 0 ? 2 : 3;
	}
	for (i = 0; i < rb.nbenches; i++) {	/* settings first: nothing judged when one differs */
		const struct bench_result *bb = &rb.benches[i], *bn = result_bench(rn, bb->id);

		int any = 0;

		for (j = 0; bb->status == ST_OK && j < bb->nmetrics && !any; j++)
			any = shown(o, bb, &bb->metrics[j]);
		if (any && bn && !same_settings(&rb, bb, rn, bn, err)) {
			result_free(&rb);
			return 3;
		}
	}
	for (i = 0; i < rb.nbenches; i++) {
		const struct bench_result *bb = &rb.benches[i], *bn = result_bench(rn, bb->id);

		for (j = 0; bb->status == ST_OK && j < bb->nmetrics; j++) {
			const struct metric *mb = &bb->metrics[j], *mn = bn ? result_metric(bn, mb->name) : NULL;

			if (!shown(o, bb, mb))
				continue;
			if (!mn)
				verdict_line(t, ST_MISSING, bb->id, mb->name, mb->unit, 0, 0, "", "");
			else
				check_fig(t, bb, mb, mn);
		}
	}
	result_free(&rb);
	return 0;
}

/* NEW's figure against the last stable segment of its series. */
static void check_trend(struct tally *t, const struct history *h, const struct hx_trend *tr, size_t newf,
			double now)
{
	const struct hx_key *k = &h->keys[tr->key];
	size_t from = tr->nch ? tr->ch[tr->nch - 1].at : 0, i, n = 0;
	double s = 0, ss = 0, m, sd, half, med, *seg = malloc((tr->n + 1) * sizeof(double));
	struct cmp_ratio r;
	char change[160], how[600], floor[160], plo[32], phi[32], shared[240] = "";

	for (i = from; seg && i < tr->n; i++)
		if (tr->used[i] && tr->v[i] > 0 && tr->file[i] != newf)
			seg[n++] = history_point(tr, i);
	if (n == 0 || !(now > 0)) {
		free(seg);
		return;
	}
	for (i = 0; i < tr->n; i++) {	/* NEW on a shared core: at the quiet level too */
		if (tr->file[i] != newf)
			continue;
		now = history_point(tr, i);
		if (tr->q[i] != tr->v[i])
			snprintf(shared, sizeof(shared), "; NEW ran on a shared core for some samples, "
				 "taken at those read on a quiet core");
		if (tr->shared[i] && tr->shared_ratio != 1)
			snprintf(shared + strlen(shared), sizeof(shared) - strlen(shared),
				 "; NEW ran on a shared core, its figure taken over %.2f", tr->shared_ratio);
	}
	for (i = 0; i < n; i++)
		s += log(seg[i]);
	m = s / (double)n;
	for (i = 0; i < n; i++)
		ss += (log(seg[i]) - m) * (log(seg[i]) - m);
	sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	half = n > 1 ? compare_t975((double)(n - 1)) * sd * sqrt(1 + 1.0 / (double)n) : 0;
	med = exp(m);
	memset(&r, 0, sizeof(r));
	r.ratio = now / med;
	r.lo = r.ratio * exp(-half);	/* where the segment's next run would fall, as a ratio */
	r.hi = r.ratio * exp(half);
	r.ci = n > 1;
	history_floor_text(tr, floor, sizeof(floor));
	change_text(change, sizeof(change), k->better, r.ratio, r.lo, r.hi, 0);
	fmt_num(plo, sizeof(plo), med * exp(-half));
	fmt_num(phi, sizeof(phi), med * exp(half));
	if (n > 1)
		snprintf(how, sizeof(how), "(%zu baseline runs, next run expected in %s..%s; floor %s%s)", n, plo,
			 phi, floor, shared);
	else
		snprintf(how, sizeof(how), "(1 baseline run: no spread known; floor %s%s)", floor, shared);
	/* beyond the threshold (and a learned floor), and outside the
	 * prediction interval; compare's fixed floors would hide everything */
	verdict_line(t, judge(k->better, &r, fmax(t->o->threshold, tr->floor_runs ? tr->floor : 0)), k->id,
		     k->metric, k->unit, med, now, change, how);
	free(seg);
}

/* The series of NEW's machine in the history (its host first). */
static const struct hx_series *series_of(const struct history *h, const struct hx_file *nf,
					 const struct hx_series *s, size_t ns)
{
	size_t k;

	for (k = 0; k < ns; k++)
		if (!strcmp(h->files[s[k].files[0]].fp, nf->fp) && !strcmp(h->files[s[k].files[0]].host, nf->host))
			return &s[k];
	for (k = 0; k < ns; k++)
		if (!strcmp(h->files[s[k].files[0]].fp, nf->fp))
			return &s[k];
	return NULL;
}

static int against_history(const struct check_opts *o, const struct result *rn, struct tally *t,
			   FILE *err)
{
	struct history h;
	struct hx_series *s = NULL;
	const struct hx_series *ser;
	struct hx_view v;
	size_t ns = 0, newf, i, j;
	char msg[700];
	int rc = 0;

	history_init(&h, err);
	h.details = o->all;
	memset(&v, 0, sizeof(v));
	v.metrics = o->metrics;
	v.nmetrics = o->nmetrics;
	v.all = o->all;
	if (history_add(&h, o->baseline, msg, sizeof(msg)) < 0 || history_add_result(&h, rn, o->newpath) < 0) {
		fprintf(err, "bakeoff: check: %s\n", msg);
		history_free(&h);
		return 2;
	}
	history_say_summary(&h);
	newf = h.nfiles - 1;
	h.files[newf].unjudgeable = 1;	/* NEW is judged against the others, not part of them */
	ns = history_series(&h, NULL, &s);
	if (!(ser = series_of(&h, &h.files[newf], s, ns)) || ser->n < 2) {
		fprintf(err, "bakeoff: check: not comparable: no run of NEW's machine (%s) in %s\n  NEW: ",
			h.files[newf].fp, o->baseline);
		report_put(err, h.files[newf].facts, 0);
		fputc('\n', err);
		rc = 3;
	}
	for (i = 0; rc == 0 && i < h.nkeys; i++) {
		struct hx_trend tr;
		const struct hx_file *nf = &h.files[newf];
		double now = NAN;
		int in_base = 0;

		if (!history_key_shown(&h, &v, i) || history_trend(&h, ser, i, o->include, &tr) < 0)
			continue;
		for (j = 0; j < tr.n; j++)
			in_base |= tr.file[j] != newf && tr.used[j];
		for (j = 0; j < nf->nfigs; j++)
			if (nf->figs[j].key == i)
				now = nf->figs[j].median;
		if (in_base && isnan(now))
			verdict_line(t, ST_MISSING, h.keys[i].id, h.keys[i].metric, h.keys[i].unit, 0, 0, "", "");
		else if (in_base)
			check_trend(t, &h, &tr, newf, now);
		history_trend_free(&tr);
	}
	history_series_free(s, ns);
	history_free(&h);
	return rc;
}

/* Why NEW cannot be judged (NULL: it can). */
static const char *unjudgeable(const struct check_opts *o, const struct result *r, char *buf, size_t n)
{
	const char *why = history_unjudgeable(r, buf, n);

	if (why)
		return why;
	if (o->require_valid && strcmp(r->guard.verdict, "valid")) {
		snprintf(buf, n, "the guard judged it %s (--require-valid)", r->guard.verdict);
		return buf;
	}
	return NULL;
}

int check_run(const struct check_opts *o, FILE *out, FILE *err)
{
	struct result rn;
	struct tally t;
	char msg[700];
	const char *why;
	int rc;

	memset(&t, 0, sizeof(t));
	t.out = out;
	t.o = o;
	memset(&rn, 0, sizeof(rn));
	if (result_load(o->newpath, &rn, msg, sizeof(msg)) < 0) {
		fprintf(err, "bakeoff: check: cannot judge NEW: %s\n", msg);
		result_free(&rn);
		return CHECK_CANNOT_JUDGE;
	}
	if ((why = unjudgeable(o, &rn, msg, sizeof(msg)))) {
		fputs("bakeoff: check: cannot judge NEW: ", err);
		report_put(err, why, 0);
		fputc('\n', err);
		result_free(&rn);
		return CHECK_CANNOT_JUDGE;
	}
	fprintf(out, "check: NEW %s against %s %s, threshold %.3g%%\n", o->newpath,
		o->baseline_is_dir ? "the history in" : "BASELINE", o->baseline, o->threshold * 100);
	rc = o->baseline_is_dir ? against_history(o, &rn, &t, err) : against_file(o, &rn, &t, err);
	result_free(&rn);
	if (rc)
		return rc;
	if (t.n[ST_GOOD] + t.n[ST_WORSE] + t.n[ST_BETTER] + t.n[ST_MISSING] == 0) {
		fprintf(err, "bakeoff: check: not comparable: no figure in common (see --metric%s)\n",
			o->baseline_is_dir && !(o->include & HX_SUSPECT) ?
			"; runs the guard judged suspect are left out without --include-suspect" : "");
		return CHECK_NOT_COMPARABLE;
	}
	fprintf(out, "%zu figures: %zu ok, %zu regression%s, %zu improved, %zu missing in NEW\n",
		t.n[ST_GOOD] + t.n[ST_WORSE] + t.n[ST_BETTER] + t.n[ST_MISSING], t.n[ST_GOOD], t.n[ST_WORSE],
		t.n[ST_WORSE] == 1 ? "" : "s", t.n[ST_BETTER], t.n[ST_MISSING]);
	return t.n[ST_WORSE] || t.n[ST_MISSING] ? CHECK_REGRESSION : 0;
}
