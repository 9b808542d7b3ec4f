/* history-out.c — a history printed: per series (one machine), a line per
 * figure with an ASCII sparkline of its runs and its last change, then
 * each change in one sentence (size, 95% CI, the two runs around it and
 * what changed between them); with a timeline, every run of each figure.
 * And the long CSV: one row per run and figure, for pandas or Otava.
 * Only reads the history. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gauge.h"
#include "history.h"
#include "report.h"
#include "stats.h"
#include "units.h"

#define NAME_W 22
#define SPARK_W 25
static const char levels[] = "_.-~=+*#";	/* low to high */

int history_key_shown(const struct history *h, const struct hx_view *v, size_t key)
{
	const struct hx_key *k = &h->keys[key];
	size_t i;

	if (k->detail && !v->all && !v->nmetrics)
		return 0;
	if (!v->nmetrics)
		return 1;
	for (i = 0; i < v->nmetrics; i++) {
		const char *m = v->metrics[i], *colon = strchr(m, ':');
		size_t l = colon ? (size_t)(colon - m) : strlen(m);

		/* ID, a dotted prefix of it, or ID:METRIC */
		if (strncmp(k->id, m, l) || (k->id[l] && k->id[l] != '.'))
			continue;
		if (!colon || (!k->id[l] && !strcmp(k->metric, colon + 1)))
			return 1;
	}
	return 0;
}

/* "id" or "id:metric", escaped, cut to w columns with '~'. */
static void fig_name(const struct hx_key *k, char *out, size_t n, size_t w)
{
	char raw[600];

	snprintf(raw, sizeof(raw), "%s%s%s", k->id, k->metric[0] ? ":" : "", k->metric);
	report_esc(out, n, raw);
	if (w && strlen(out) > w) {
		out[w - 1] = '~';
		out[w] = 0;
	}
}

/* The labels as "KEY=VALUE, KEY=VALUE". */
static const char *labels_text(const char *labels, char *out, size_t n)
{
	size_t i, k = 0;

	for (i = 0; labels[i] && k + 3 < n; i++) {
		if (labels[i] == '\x1f') {
			out[k++] = ',';
			out[k++] = ' ';
		} else {
			out[k++] = labels[i];
		}
	}
	out[k] = 0;
	return out;
}

static const char *better_word(const struct hx_key *k, double ratio)
{
	if (ratio == 1)
		return "";
	return (ratio > 1) == (k->better == BETTER_HIGHER) ? " faster" : " slower";
}

static void pct(char *out, size_t n, double ratio)
{
	snprintf(out, n, "%+.1f%%", (ratio - 1) * 100);
}

/* The sparkline: one column per run, or per bucket of runs (their median)
 * when there are more than SPARK_W; '|' where a change starts. */
static void spark(const struct hx_trend *t, char *out)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t room = t->nch < SPARK_W / 2 ? SPARK_W - t->nch : SPARK_W / 2;	/* '|' take columns too */
	size_t cols = t->n < room ? t->n : room, c, i, len = 0, ch = 0;

	for (i = 0; i < t->n; i++) {
		lo = fmin(lo, t->v[i]);
		hi = fmax(hi, t->v[i]);
	}
	for (c = 0; c < cols && len < SPARK_W; c++) {
		size_t a = c * t->n / cols, b = (c + 1) * t->n / cols, k;
		double s = 0;
		int lv;

		for (; ch < t->nch && t->ch[ch].at < b; ch++)
			if (len + 1 < SPARK_W && t->ch[ch].at >= a)
				out[len++] = '|';
		for (k = a; k < b; k++)
			s += t->v[k];
		s /= (double)(b - a);
		lv = hi > lo * 1.0001 ? (int)floor((s - lo) / (hi - lo) * 7.999) : 3;
		out[len++] = levels[lv < 0 ? 0 : lv > 7 ? 7 : lv];
	}
	out[len] = 0;
}

static void series_head(const struct history *h, const struct hx_series *s, size_t k, size_t ns,
			const struct hx_view *v, FILE *f)
{
	const struct hx_file *first = &h->files[s->files[0]], *last = &h->files[s->files[s->n - 1]];
	size_t i, suspect = 0, bad = 0;

	for (i = 0; i < s->n; i++) {
		suspect += h->files[s->files[i]].suspect && !h->files[s->files[i]].unjudgeable;
		bad += h->files[s->files[i]].unjudgeable;
	}
	fprintf(f, "%sseries %zu of %zu: ", k ? "\n" : "", k + 1, ns);
	report_put(f, first->host, 0);
	if (s->by[0]) {
		fputs(", ", f);
		report_put(f, s->by, 0);
	}
	fprintf(f, " (machine %s)\n", first->fp);
	if (v->explain) {
		fputs("  machine: ", f);
		report_put(f, first->facts, 0);
		fputc('\n', f);
	}
	fprintf(f, "  %zu run%s, ", s->n, s->n == 1 ? "" : "s");
	report_put(f, first->start, 0);
	fputs(" to ", f);
	report_put(f, last->start, 0);
	fputc('\n', f);
	if (suspect && !(v->include & HX_SUSPECT))
		fprintf(f, "  %zu suspect (the guard's verdict): shown, left out of the search for changes "
			"(--include-suspect takes them)\n", suspect);
	if (bad)
		fprintf(f, "  %zu that cannot be judged (interrupted, or a benchmark failed): shown, left out\n",
			bad);
	if (s->n == 1)
		fputs("  one run: no timeline to judge yet\n", f);
}

/* One figure's line, and its changes kept for after the table. */
static void fig_line(const struct history *h, const struct hx_trend *t, FILE *f)
{
	const struct hx_key *k = &h->keys[t->key];
	char name[600], unit[64], last[32], line[SPARK_W + HX_MAX_CHANGES + 1], change[32] = "-";

	fig_name(k, name, sizeof(name), NAME_W);
	report_esc(unit, sizeof(unit), k->unit);
	fmt_num(last, sizeof(last), t->v[t->n - 1]);
	spark(t, line);
	if (t->nch)
		pct(change, sizeof(change), t->ch[t->nch - 1].ratio);
	fprintf(f, "%-*s %-7.7s %4zu %9s  %-*s %6s\n", NAME_W, name, unit, t->n, last, SPARK_W, line, change);
}

/* "between START (changes) and START" for change c of t. */
static void change_line(const struct history *h, const struct hx_trend *t, const struct hx_change *c,
			FILE *f)
{
	const struct hx_key *k = &h->keys[t->key];
	const struct hx_file *a, *b;
	char name[600], r[32], lo[32], hi[32], what[1200], floor[160];
	size_t i = c->at;

	while (i > 0 && !t->used[i - 1])	/* the last used run before it */
		i--;
	a = &h->files[t->file[i ? i - 1 : 0]];
	b = &h->files[t->file[c->at]];
	fig_name(k, name, sizeof(name), 0);
	pct(r, sizeof(r), c->ratio);
	snprintf(lo, sizeof(lo), "%+.1f", (c->lo - 1) * 100);
	pct(hi, sizeof(hi), c->hi);
	fprintf(f, "  %s  %s%s (95%% CI %s..%s)  between ", name, r, better_word(k, c->ratio), lo, hi);
	report_put(f, a->start, 0);
	fputs(" and ", f);
	report_put(f, b->start, 0);
	history_label_changes(a, b, what, sizeof(what));
	if (what[0]) {
		fputs(" (", f);
		report_put(f, what, 0);
		fputc(')', f);
	}
	history_floor_text(t, floor, sizeof(floor));
	fprintf(f, "\n    floor %s\n", floor);
}

/* Every run of the figure, the changes between them. */
static void timeline(const struct history *h, const struct hx_trend *t, FILE *f)
{
	const struct hx_key *k = &h->keys[t->key];
	char name[600], floor[160], med[32], lo[32], hi[32], ci[72], what[1200], r[32];
	size_t i, c = 0;

	fig_name(k, name, sizeof(name), 0);
	history_floor_text(t, floor, sizeof(floor));
	fprintf(f, "\n%s (", name);
	report_put(f, k->unit, 0);
	fprintf(f, ", %s is better; floor %s)\n", k->better == BETTER_HIGHER ? "higher" : "lower", floor);
	fputs("  settings: ", f);
	report_put(f, k->settings, 0);
	fprintf(f, "\n     #  %-20s  %9s  %-21s  %-7s  %s\n", "start", "median", "95% CI", "guard", "changes");
	for (i = 0; i < t->n; i++) {
		const struct hx_file *fi = &h->files[t->file[i]];

		for (; c < t->nch && t->ch[c].at == i; c++) {
			pct(r, sizeof(r), t->ch[c].ratio);
			fprintf(f, "     -- change %s%s\n", r, better_word(k, t->ch[c].ratio));
		}
		fmt_num(med, sizeof(med), t->v[i]);
		snprintf(ci, sizeof(ci), "-");
		for (size_t j = 0; j < fi->nfigs; j++)
			if (fi->figs[j].key == t->key && fi->figs[j].hi > fi->figs[j].lo) {
				fmt_num(lo, sizeof(lo), fi->figs[j].lo);
				fmt_num(hi, sizeof(hi), fi->figs[j].hi);
				snprintf(ci, sizeof(ci), "%s..%s", lo, hi);
			}
		fprintf(f, "  %4zu  ", i + 1);
		report_put(f, fi->start, 20);
		fprintf(f, "  %9s  %-21s  %-7s  ", med, ci,
			fi->unjudgeable ? "failed" : fi->suspect ? "suspect" : t->shared[i] ? "shared" :
			t->q[i] != t->v[i] ? "partly" : "valid");
		if (i == 0)
			report_put(f, labels_text(fi->labels, what, sizeof(what)), 0);
		else
			report_put(f, history_label_changes(&h->files[t->file[i - 1]], fi, what, sizeof(what)), 0);
		fputc('\n', f);
	}
}

size_t history_series_keys(const struct history *h, const struct hx_series *s, const struct hx_view *v,
			  size_t **out)
{
	unsigned char *seen = calloc(h->nkeys + 1, 1);
	size_t *keys = malloc((h->nkeys + 1) * sizeof(size_t)), n = 0, i, j;

	*out = keys;
	if (!seen || !keys) {
		free(seen);
		return 0;
	}
	for (i = 0; i < s->n; i++) {
		const struct hx_file *f = &h->files[s->files[i]];

		for (j = 0; j < f->nfigs; j++)
			if (!seen[f->figs[j].key] && history_key_shown(h, v, f->figs[j].key)) {
				seen[f->figs[j].key] = 1;
				keys[n++] = f->figs[j].key;
			}
	}
	free(seen);
	return n;
}

static int print_series(const struct history *h, const struct hx_series *s, const struct hx_view *v,
			FILE *f, size_t *nchanges)
{
	struct hx_trend *t;
	size_t *keys, nk = history_series_keys(h, s, v, &keys), i, c;

	if (!(t = calloc(nk + 1, sizeof(*t)))) {
		free(keys);
		return -1;
	}
	fprintf(f, "\n%-*s %-7s %4s %9s  %-*s %6s\n", NAME_W, "figure", "unit", "runs", "last", SPARK_W,
		"trend, oldest to newest", "change");
	for (i = 0; i < nk; i++)
		if (history_trend(h, s, keys[i], v->include, &t[i]) == 0 && t[i].n)
			fig_line(h, &t[i], f);
	for (i = 0, c = 0; i < nk; i++)
		c += t[i].nch;
	*nchanges += c;
	fprintf(f, "\n%zu change%s found\n", c, c == 1 ? "" : "s");
	for (i = 0; i < nk; i++)
		for (size_t j = 0; j < t[i].nch; j++)
			change_line(h, &t[i], &t[i].ch[j], f);
	for (i = 0; i < nk; i++) {
		char name[600];

		fig_name(&h->keys[t[i].key], name, sizeof(name), 0);
		if (t[i].npartly)
			fprintf(f, "  %s: %zu of %zu runs ran on a shared core for some of their samples: "
				"searched at the median of those read on a quiet core (--include-shared: "
				"as measured)\n", name, t[i].npartly, t[i].n);
		if (t[i].nshared) {
			fprintf(f, "  %s: %zu of %zu runs ran on a shared core (core gauge %.3gx or more of "
				"this series' quietest, %.2f): ", name, t[i].nshared, t[i].n, GAUGE_SHARED,
				t[i].gauge_quiet);
			if (v->include & HX_SHARED)
				fputs("searched as measured (--include-shared)\n", f);
			else if (t[i].shared_ratio == 1)
				fputs("searched as measured, the figure did not move with it\n", f);
			else
				fprintf(f, "the figure reads %.2fx there, searched at the quiet level "
					"(--include-shared: as measured)\n", t[i].shared_ratio);
		}
	}
	for (i = 0; i < nk; i++) {
		if (v->timeline && t[i].n)
			timeline(h, &t[i], f);
		history_trend_free(&t[i]);
	}
	free(t);
	free(keys);
	return 0;
}

int history_print_text(const struct history *h, const struct hx_view *v, FILE *f)
{
	struct hx_series *s;
	size_t ns = history_series(h, v->by, &s), k, nch = 0;
	int rc = 0;

	if (ns == 0) {
		fputs("no runs to show\n", f);
		return 0;
	}
	for (k = 0; k < ns && rc == 0; k++) {
		series_head(h, &s[k], k, ns, v, f);
		rc = print_series(h, &s[k], v, f, &nch);
	}
	history_series_free(s, ns);
	return rc;
}

/* ",s0,s1,...": CSV fields, each after a comma. */
static void csv_strs(FILE *f, const char *const *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fputc(',', f);
		report_csv_str(f, s[i]);
	}
}

static void csv_nums(FILE *f, const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fputc(',', f);
		report_csv_num(f, v[i]);
	}
}

int history_print_csv(const struct history *h, const struct hx_view *v, FILE *f)
{
	struct hx_series *s;
	size_t ns = history_series(h, v->by, &s), k, i, p;

	fputs("series,host,machine,file,start,benchmark,metric,unit,better,settings,median,ci_lo,ci_hi,"
	      "guard,used,labels,segment,change\n", f);
	for (k = 0; k < ns; k++) {
		size_t *keys, nk = history_series_keys(h, &s[k], v, &keys);

		for (i = 0; i < nk; i++) {
			struct hx_trend t;
			size_t seg = 0, c = 0;

			if (history_trend(h, &s[k], keys[i], v->include, &t) < 0)
				continue;
			for (p = 0; p < t.n; p++) {
				const struct hx_file *fi = &h->files[t.file[p]];
				const struct hx_key *key = &h->keys[keys[i]];
				double lo = NAN, hi = NAN;
				char lab[1200];

				for (size_t j = 0; j < fi->nfigs; j++)
					if (fi->figs[j].key == keys[i])
						lo = fi->figs[j].lo, hi = fi->figs[j].hi;
				for (; c < t.nch && t.ch[c].at == p; c++)
					seg++;
				fprintf(f, "%zu,", k + 1);
				report_csv_str(f, fi->host);
				fprintf(f, ",%s", fi->fp);
				csv_strs(f, (const char *[]){ fi->path, fi->start, key->id, key->metric, key->unit }, 5);
				fprintf(f, ",%s,", key->better == BETTER_HIGHER ? "higher" : "lower");
				report_csv_str(f, key->settings);
				csv_nums(f, (const double[]){ t.v[p], lo, hi }, 3);
				fprintf(f, ",%s,%d,", fi->unjudgeable ? "failed" : fi->suspect ? "suspect" : "valid",
					t.used[p]);
				report_csv_str(f, labels_text(fi->labels, lab, sizeof(lab)));
				fprintf(f, ",%zu,", seg);
				if (c && t.ch[c - 1].at == p)
					report_csv_num(f, t.ch[c - 1].ratio);
				fputc('\n', f);
			}
			history_trend_free(&t);
		}
		free(keys);
	}
	history_series_free(s, ns);
	return 0;
}

/* ---- --across: one moment of a fleet, hosts of one fingerprint ---- */

#define ACROSS_MIN_HOSTS 5	/* fewer identical hosts are not judged */
#define ACROSS_SCORE 5.0	/* robust z (median, MAD) at least this far */
#define ACROSS_MIN_EFFECT 0.05	/* and at least 5% from the fleet's median */

static double median_sorted(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* The latest judged run of each host of fingerprint fp: into at[], how many. */
static size_t latest_per_host(const struct history *h, const char *fp, size_t *at)
{
	size_t i, k, n = 0;

	for (i = 0; i < h->nfiles; i++) {
		const struct hx_file *f = &h->files[i];

		if (strcmp(f->fp, fp) || f->unjudgeable)
			continue;
		for (k = 0; k < n && strcmp(h->files[at[k]].host, f->host); k++)
			;
		if (k == n)
			at[n++] = i;
		else if (f->t > h->files[at[k]].t)
			at[k] = i;
	}
	return n;
}

/* One figure across the hosts: the outliers, each in one line. */
static size_t across_key(const struct history *h, const size_t *at, size_t n, size_t key, double *v,
			 double *dev, FILE *f)
{
	const struct hx_key *k = &h->keys[key];
	size_t i, j, m = 0, *who = malloc((n + 1) * sizeof(size_t)), found = 0;
	double med, mad, sd;
	char name[600], unit[64], mv[32];

	if (!who)
		return 0;
	for (i = 0; i < n; i++) {
		const struct hx_file *fi = &h->files[at[i]];

		for (j = 0; j < fi->nfigs; j++)
			if (fi->figs[j].key == key && fi->figs[j].median > 0) {
				v[m] = log(fi->figs[j].median);
				who[m++] = at[i];
				break;
			}
	}
	if (m < ACROSS_MIN_HOSTS) {
		free(who);
		return 0;
	}
	memcpy(dev, v, m * sizeof(double));
	qsort(dev, m, sizeof(double), stats_cmp_double);
	med = median_sorted(dev, m);
	for (i = 0; i < m; i++)
		dev[i] = fabs(v[i] - med);
	qsort(dev, m, sizeof(double), stats_cmp_double);
	mad = median_sorted(dev, m);
	sd = 1.4826 * mad > 1e-6 ? 1.4826 * mad : 1e-6;
	fig_name(k, name, sizeof(name), 0);
	report_esc(unit, sizeof(unit), k->unit);
	fmt_num(mv, sizeof(mv), exp(med));
	for (i = 0; i < m; i++) {
		double z = (v[i] - med) / sd, r = exp(v[i] - med);

		if (fabs(z) < ACROSS_SCORE || fabs(r - 1) < ACROSS_MIN_EFFECT)
			continue;
		fprintf(f, "  %s  ", name);
		report_put(f, h->files[who[i]].host, 0);
		fprintf(f, "  %+.1f%%%s vs %zu identical hosts (their median %s %s, spread %.2g%%, score %.0f)\n",
			(r - 1) * 100, better_word(k, r), m - 1, mv, unit, sd * 100, fabs(z));
		found++;
	}
	free(who);
	return found;
}

int history_print_across(const struct history *h, const struct hx_view *v, FILE *f)
{
	size_t *at = malloc((h->nfiles + 1) * sizeof(size_t)), i, g, n, nk, *keys, total = 0;
	double *val = malloc((h->nfiles + 1) * sizeof(double)), *dev = malloc((h->nfiles + 1) * sizeof(double));
	char seen_fp[64][17];
	size_t nfp = 0;
	int rc = 0;

	if (!at || !val || !dev) {
		free(at), free(val), free(dev);
		return -1;
	}
	for (g = 0; g < h->nfiles && nfp < 64; g++) {	/* each fingerprint once, in file order */
		const struct hx_file *first = &h->files[g];
		struct hx_series s;

		for (i = 0; i < nfp && strcmp(seen_fp[i], first->fp); i++)
			;
		if (i < nfp)
			continue;
		snprintf(seen_fp[nfp++], sizeof(seen_fp[0]), "%s", first->fp);
		n = latest_per_host(h, first->fp, at);
		fprintf(f, "%smachine %s: %zu host%s, the latest judged run of each\n", nfp > 1 ? "\n" : "",
			first->fp, n, n == 1 ? "" : "s");
		if (v->explain) {
			fputs("  machine: ", f);
			report_put(f, first->facts, 0);
			fputc('\n', f);
		}
		if (n < ACROSS_MIN_HOSTS) {
			fprintf(f, "  fewer than %d identical hosts: not judged\n", ACROSS_MIN_HOSTS);
			continue;
		}
		s.files = at;
		s.n = n;
		s.by[0] = 0;
		nk = history_series_keys(h, &s, v, &keys);
		for (i = 0, total = 0; i < nk; i++)
			total += across_key(h, at, n, keys[i], val, dev, f);
		fprintf(f, "  %zu figure%s of a host off (a robust score of %.0f or more from the hosts' median "
			"and MAD, and %.0f%% or more from their median)\n", total, total == 1 ? "" : "s",
			ACROSS_SCORE, ACROSS_MIN_EFFECT * 100);
		free(keys);
	}
	free(at);
	free(val);
	free(dev);
	return rc;
}
