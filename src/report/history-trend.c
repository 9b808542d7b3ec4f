/* history-trend.c — a history's series (one machine's runs in order of
 * their start) and each figure's timeline in a series with its change
 * points: E-divisive with means proposes a split (core/changepoint.c); a
 * split is kept when the Yuen interval (a trimmed Welch t interval on the
 * logs of the run medians) of the ratio of the two sides excludes 1, a
 * rank test agrees (Mann-Whitney), and the change clears the noise floor.
 * The floor is learned from the series itself once it has HX_LEARN_MIN
 * runs (the run-to-run spread: the median over blocks of consecutive runs
 * of each block's robust spread, within its two levels where its runs
 * fall in two), else it is
 * compare's fixed floor of that kind of figure. docs/regressions.md gives
 * the method and its measured hit rates. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "changepoint.h"
#include "compare.h"
#include "gauge.h"
#include "history.h"
#include "stats.h"

#ifndef MIN_SEGMENT
#define MIN_SEGMENT 4		/* runs on each side of a change at least */
#endif
#ifndef LEARNED_MULT
#define LEARNED_MULT 1.0	/* the learned floor: this many run-to-run spreads */
#endif
#define LEARNED_MIN 0.005	/* and never under 0.5% */
#ifndef RANK_Z
#define RANK_Z 3.29		/* the rank test's |z| at least (p < 0.001: a split is the
				 * best of n tried, so 5% would call noise a change) */
#endif

struct group {
	char key[600];
	struct hx_series s;
	size_t cap;
};

static const struct history *sort_h;

static int cmp_run(const void *a, const void *b)
{
	const struct hx_file *x = &sort_h->files[*(const size_t *)a], *y = &sort_h->files[*(const size_t *)b];

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return strcmp(x->path, y->path);
}

static int cmp_group(const void *a, const void *b)
{
	return strcmp(((const struct group *)a)->key, ((const struct group *)b)->key);
}

size_t history_series(const struct history *h, const char *by, struct hx_series **out)
{
	struct group *g = NULL;
	size_t ng = 0, capg = 0, i, k;
	char val[256];

	*out = NULL;
	for (i = 0; i < h->nfiles; i++) {
		const struct hx_file *f = &h->files[i];
		const char *v = by ? history_label(f, by, val, sizeof(val)) : NULL;
		char key[600];

		/* host first, so the series come out by host name */
		snprintf(key, sizeof(key), "%s\x1f%s\x1f%s", f->host, f->fp, by ? (v ? v : "") : "");
		for (k = 0; k < ng && strcmp(g[k].key, key); k++)
			;
		if (k == ng) {
			struct group *ngp = capg == ng ? realloc(g, (capg = capg ? 2 * capg : 8) * sizeof(*g)) : g;

			if (!ngp)
				break;
			g = ngp;
			memset(&g[ng], 0, sizeof(g[ng]));
			snprintf(g[ng].key, sizeof(g[ng].key), "%s", key);
			if (by)
				snprintf(g[ng].s.by, sizeof(g[ng].s.by), "%s=%s", by, v ? v : "(none)");
			ng++;
		}
		if (g[k].s.n == g[k].cap) {
			size_t *nf = realloc(g[k].s.files, (g[k].cap = g[k].cap ? 2 * g[k].cap : 16) * sizeof(size_t));

			if (!nf)
				break;
			g[k].s.files = nf;
		}
		g[k].s.files[g[k].s.n++] = i;
	}
	if (!g)
		return 0;
	qsort(g, ng, sizeof(*g), cmp_group);
	*out = calloc(ng, sizeof(**out));
	sort_h = h;
	for (k = 0; k < ng; k++) {
		qsort(g[k].s.files, g[k].s.n, sizeof(size_t), cmp_run);
		if (*out)
			(*out)[k] = g[k].s;
		else
			free(g[k].s.files);
	}
	free(g);
	return *out ? ng : 0;
}

void history_series_free(struct hx_series *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i].files);
	free(s);
}

void history_trend_free(struct hx_trend *t)
{
	free(t->file);
	free(t->v);
	free(t->q);
	free(t->used);
	free(t->shared);
	memset(t, 0, sizeof(*t));
}

double history_point(const struct hx_trend *t, size_t i)
{
	return t->shared[i] ? t->q[i] / t->shared_ratio : t->q[i];
}

static double median_copy(const double *x, size_t n)
{
	double *s = malloc(n * sizeof(double)), m;

	if (!s || n == 0) {
		free(s);
		return NAN;
	}
	memcpy(s, x, n * sizeof(double));
	qsort(s, n, sizeof(double), stats_cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

/* One side for Yuen's test: the logs of x[0..n) sorted, g = 20% of them
 * trimmed from each end; *d the squared standard error of their trimmed
 * mean ((n - 1) x winsorized variance / (h (h - 1)), h = n - 2g), and *h.
 * 0, or -1. */
static int yuen_side(const double *x, size_t n, double *d, double *h)
{
	double *s = malloc((n + 1) * sizeof(double)), wm = 0, wv = 0;
	size_t i, g = n / 5, k;
	int rc = -1;

	if (!s)
		return -1;
	for (i = 0; i < n; i++) {
		if (!(x[i] > 0))
			goto out;
		s[i] = log(x[i]);
	}
	qsort(s, n, sizeof(double), stats_cmp_double);
	k = n - 2 * g;
	if (k < 2)
		goto out;
	for (i = 0; i < g; i++) {	/* winsorized: each trimmed end set to its last kept value */
		s[i] = s[g];
		s[n - 1 - i] = s[n - g - 1];
	}
	for (i = 0; i < n; i++)
		wm += s[i];
	wm /= (double)n;
	for (i = 0; i < n; i++)
		wv += (s[i] - wm) * (s[i] - wm);
	wv /= (double)(n - 1);
	*h = (double)k;
	*d = (double)(n - 1) * wv / ((double)k * (double)(k - 1));
	rc = 0;
out:
	free(s);
	return rc;
}

/* after / before of x[a..b) against x[b..c) (the ratio of the sides'
 * medians), with its 95% CI from Yuen's test on the logs: Welch's
 * interval with the standard errors of 20%-trimmed means (winsorized
 * variances), centred on the medians' ratio as compare's. A machine's
 * runs have outliers (a slow mode at twice the usual time, one run in
 * six in tests/e2e/history.t); they widen a plain Welch interval on the
 * mean so much that a 10% step with 30 runs on each side did not exclude
 * 1. 0, or -1. */
static int side_ratio(const double *x, size_t a, size_t b, size_t c, struct cmp_ratio *r)
{
	double m1 = median_copy(x + a, b - a), m2 = median_copy(x + b, c - b), d1, d2, h1, h2, df, w;

	memset(r, 0, sizeof(*r));
	r->ratio = r->lo = r->hi = m1 > 0 ? m2 / m1 : NAN;
	if (!(m1 > 0 && m2 > 0) || yuen_side(x + a, b - a, &d1, &h1) < 0 ||
	    yuen_side(x + b, c - b, &d2, &h2) < 0)
		return -1;
	df = d1 + d2 > 0 ? (d1 + d2) * (d1 + d2) / (d1 * d1 / (h1 - 1) + d2 * d2 / (h2 - 1)) : h1 + h2 - 2;
	w = compare_t975(df) * sqrt(d1 + d2);
	r->lo = r->ratio * exp(-w);
	r->hi = r->ratio * exp(w);
	r->ci = 1;
	r->from_runs = 1;
	return 0;
}

static double size_of(double ratio)
{
	return ratio >= 1 ? ratio - 1 : 1 / ratio - 1;
}

/* x[a..c) falls in two levels (compare_bimodal) and both sides of b
 * have runs at both: the machine switching between two speeds (a host's
 * clock, a guest's placement), not a change at b. */
static int two_levels(const double *x, size_t a, size_t b, size_t c)
{
	double lo, hi, mid;
	size_t i, n[2][2] = { { 0, 0 }, { 0, 0 } };

	if (!compare_bimodal(x + a, c - a, 2, &lo, &hi))
		return 0;
	mid = sqrt(lo * hi);
	for (i = a; i < c; i++)
		n[i >= b][x[i] >= mid]++;
	return n[0][0] && n[0][1] && n[1][0] && n[1][1];
}

/* Mann-Whitney's U of x[a..b) against x[b..c) as a normal z (no tie
 * correction): a rank test that a few outliers or a machine switching
 * between two speeds cannot sway the way they sway a mean. */
static double rank_z(const double *x, size_t a, size_t b, size_t c)
{
	double u = 0, m = (double)(b - a), k = (double)(c - b);
	size_t i, j;

	for (i = a; i < b; i++)
		for (j = b; j < c; j++)
			u += x[i] < x[j] ? 1 : x[i] == x[j] ? 0.5 : 0;
	return (u - m * k / 2) / sqrt(m * k * (m + k + 1) / 12);
}

/* The |z| a change must reach: RANK_Z, or, where the two sides are too
 * short for any split to reach it, 90% of the most extreme z they allow
 * (every value of one side beyond every value of the other). */
static double rank_need(size_t a, size_t b, size_t c)
{
	double m = (double)(b - a), k = (double)(c - b), most = sqrt(3 * m * k / (m + k + 1));

	return fmin(RANK_Z, 0.9 * most);
}

/* Otsu's cut of the logs of x[0..n) in two levels (each of at least 3
 * values): *cut, and the share of their variance that the cut explains
 * (0 when there is no such cut). */
static double otsu(const double *x, size_t n, double *cut)
{
	double *s = malloc(n * sizeof(double)), sum = 0, sq = 0, left = 0, top = 0, var;
	size_t i, k, best = 0;

	if (!s || n < 6) {
		free(s);
		return 0;
	}
	for (i = 0; i < n; i++) {
		s[i] = log(x[i]);
		sum += s[i];
		sq += s[i] * s[i];
	}
	qsort(s, n, sizeof(double), stats_cmp_double);
	for (k = 1; k < n; k++) {	/* the cut before s[k] */
		double m1, m2, between;

		left += s[k - 1];
		if (k < 3 || n - k < 3)
			continue;
		m1 = left / (double)k;
		m2 = (sum - left) / (double)(n - k);
		between = (double)k * (double)(n - k) * (m1 - m2) * (m1 - m2) / ((double)n * (double)n);
		if (between > top) {
			top = between;
			best = k;
		}
	}
	*cut = best ? exp((s[best - 1] + s[best]) / 2) : 0;
	free(s);
	var = sq / (double)n - (sum / (double)n) * (sum / (double)n);
	return best && var > 0 ? top / var : 0;
}

/* The rank test within levels, for a machine that runs at one of two
 * speeds (a host's clock, a guest's placement): a change of both speeds
 * hides from the plain test, whose sides then overlap, and a mere change
 * in how often each speed comes looks like a change to it. Each side is
 * cut in its two levels (Otsu), and the Mann-Whitney U of x[a..b) against
 * x[b..c) is taken within the lower levels and within the upper ones and
 * summed (U minus its mean over the root of the summed variances: a
 * stratified test). 0 unless both sides are two levels (the cut explains
 * LEVELS_ETA of the variance or more). */
#define LEVELS_ETA 0.8
static double level_z(const double *x, size_t a, size_t b, size_t c)
{
	double cut[2], u = 0, var = 0;
	size_t i, j, cnt[2][2] = { { 0, 0 }, { 0, 0 } };

	if (otsu(x + a, b - a, &cut[0]) < LEVELS_ETA || otsu(x + b, c - b, &cut[1]) < LEVELS_ETA)
		return 0;
	for (i = a; i < c; i++)
		cnt[i >= b][x[i] >= cut[i >= b]]++;
	for (i = a; i < b; i++)
		for (j = b; j < c; j++)
			if ((x[i] >= cut[0]) == (x[j] >= cut[1]))
				u += x[i] < x[j] ? 1 : x[i] == x[j] ? 0.5 : 0;
	for (int l = 0; l < 2; l++) {
		double m = (double)cnt[0][l], q = (double)cnt[1][l];

		u -= m * q / 2;
		var += m * q * (m + q + 1) / 12;
	}
	return var > 0 ? u / sqrt(var) : 0;
}

/* The change at b between x[a..b) and x[b..c) is real: its CI excludes
 * none, it clears the floor, and the ranks agree (Mann-Whitney, p <
 * 0.001): over all runs, unless they switch between two levels on both
 * sides of b, or within the two levels. */
static int holds(const struct hx_trend *t, const double *x, size_t a, size_t b, size_t c, double *size)
{
	struct cmp_ratio r;
	double need = rank_need(a, b, c);

	*size = 0;
	if (side_ratio(x, a, b, c, &r) < 0)
		return 0;
	*size = size_of(r.ratio);
	if (!(r.lo > 1 || r.hi < 1) || *size <= t->floor)
		return 0;
	if (fabs(rank_z(x, a, b, c)) >= need && !two_levels(x, a, b, c))
		return 1;
	return fabs(level_z(x, a, b, c)) >= need;
}

static int accept(const double *x, size_t n, size_t tau, void *ctx)
{
	double size;

	return holds(ctx, x, 0, tau, n, &size);
}

/* A change point tested against its final neighbours (the segments on
 * either side once every split is made, not the wider ones it was found
 * in), as Otava re-tests them: while one fails, the weakest failing one
 * (the smallest change) goes and its two segments merge. Returns how many
 * stay. */
static size_t prune(const struct hx_trend *t, const double *x, size_t n, size_t *cps, size_t ncp)
{
	for (;;) {
		size_t i, worst = ncp;
		double smallest = INFINITY;

		for (i = 0; i < ncp; i++) {
			size_t a = i ? cps[i - 1] : 0, c = i + 1 < ncp ? cps[i + 1] : n;
			double size;

			if (!holds(t, x, a, cps[i], c, &size) && size < smallest) {
				smallest = size;
				worst = i;
			}
		}
		if (worst == ncp)
			return ncp;
		memmove(cps + worst, cps + worst + 1, (ncp - worst - 1) * sizeof(*cps));
		ncp--;
	}
}

/* Each change point placed again within its final neighbours: the best
 * split of the runs between the change points on either side (the
 * candidate search may have found it against a short window after it, a
 * few runs off), kept when it holds there. (The split with the strongest
 * rank test instead placed fewer 20% steps within 2 runs in
 * scripts/history-bench: 70-85% against 90-100%.) */
static void relocate(const struct hx_trend *t, const double *x, size_t n, size_t *cps, size_t ncp)
{
	for (size_t i = 0; i < ncp; i++) {
		size_t a = i ? cps[i - 1] : 0, c = i + 1 < ncp ? cps[i + 1] : n, tau;
		double q, size;

		if (cp_best_split(x + a, c - a, MIN_SEGMENT, &tau, &q) == 0 && a + tau != cps[i] &&
		    holds(t, x, a, a + tau, c, &size))
			cps[i] = a + tau;
	}
}

/* Run-to-run spread of x[0..n) as a fraction: 1.4826 x the median
 * absolute log difference of consecutive runs / sqrt 2 (a robust standard
 * deviation of one run; a level shift is one outlying difference). Where
 * the runs fall in two levels (a machine switching between two speeds),
 * the spread within them: 1.4826 x the median absolute deviation of each
 * run from its level's median, as consecutive runs drawn from two levels
 * would each differ by the gap. */
static double spread_of(const double *x, size_t n)
{
	double *d = malloc(n * sizeof(double)), s, cut, mid[2];
	size_t i, k = 0;

	if (!d)
		return NAN;
	if (otsu(x, n, &cut) >= LEVELS_ETA) {
		for (int l = 0; l < 2; l++) {
			for (i = 0, k = 0; i < n; i++)
				if ((x[i] >= cut) == l)
					d[k++] = log(x[i]);
			mid[l] = median_copy(d, k);
		}
		for (i = 0; i < n; i++)
			d[i] = fabs(log(x[i]) - mid[x[i] >= cut]);
		s = 1.4826 * median_copy(d, n);
	} else {
		for (i = 0; i + 1 < n; i++)
			if (x[i] > 0 && x[i + 1] > 0)
				d[k++] = fabs(log(x[i + 1] / x[i]));
		s = k ? 1.4826 * median_copy(d, k) / sqrt(2.0) : NAN;
	}
	free(d);
	return s;
}

/* The series' spread: the median of spread_of over blocks of about
 * SPREAD_BLOCK consecutive runs, so that a change (which lies in one
 * block) does not count as spread, nor do two levels around it. */
#define SPREAD_BLOCK 20
static double spread(const double *x, size_t n)
{
	size_t nb = n / SPREAD_BLOCK, i, k = 0;
	double *s, m;

	if (nb < 2)
		return spread_of(x, n);
	if (!(s = malloc(nb * sizeof(double))))
		return NAN;
	for (i = 0; i < nb; i++)
		if (isfinite(s[k] = spread_of(x + i * n / nb, (i + 1) * n / nb - i * n / nb)))
			k++;
	m = median_copy(s, k);
	free(s);
	return m;
}

/* The ratio of t's runs on a shared core to its others (median against
 * median, over the runs searched, at least 3 a side; else 1), or 1 when
 * they sit less than SHARED_MOVES apart: a figure the sharing does not
 * move (a pipe's wake-up here) is searched as measured. */
#define SHARED_MOVES 0.05
static double shared_ratio(const struct hx_trend *t)
{
	double *a = malloc((t->n + 1) * sizeof(double)), *b = malloc((t->n + 1) * sizeof(double)), r;
	size_t i, na = 0, nb = 0;

	for (i = 0; a && b && i < t->n; i++) {
		if (!t->used[i])
			continue;
		if (t->shared[i])
			a[na++] = t->q[i];
		else
			b[nb++] = t->q[i];
	}
	r = na >= 3 && nb >= 3 ? median_copy(a, na) / median_copy(b, nb) : 1;
	free(a);
	free(b);
	return fabs(log(r)) >= log(1 + SHARED_MOVES) ? r : 1;
}

/* The two-sided sign test of ratios r[0..n) against 1: the chance that as
 * many of n fair coins or more fall on the side most of them took (the
 * share of r on that side into *side). */
static double sign_test(const double *r, size_t n, double *side)
{
	size_t i, up = 0, k;
	double p = 0;

	for (i = 0; i < n; i++)
		up += r[i] > 1;
	k = up > n - up ? up : n - up;
	*side = n ? (double)k / (double)n : 0;
	for (i = k; i <= n; i++)
		p += exp(lgamma((double)n + 1) - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) -
			 (double)n * log(2));
	return 2 * p < 1 ? 2 * p : 1;
}

/* The points of key in s, and which are used. 0, or -1. */
static int points(const struct history *h, const struct hx_series *s, size_t key, int include,
		  struct hx_trend *t)
{
	const struct hx_fig **x = malloc((s->n + 1) * sizeof(*x));
	double *g = malloc((s->n + 1) * sizeof(double)), *pr = malloc((s->n + 1) * sizeof(double)), moves, side = 0;
	size_t i, j, npr = 0;
	int partly;

	t->file = malloc((s->n + 1) * sizeof(size_t));
	t->v = malloc((s->n + 1) * sizeof(double));
	t->q = malloc((s->n + 1) * sizeof(double));
	t->used = malloc(s->n + 1);
	t->shared = calloc(s->n + 1, 1);
	if (!x || !g || !pr || !t->file || !t->v || !t->q || !t->used || !t->shared) {
		free(x);
		free(g);
		free(pr);
		return -1;
	}
	for (i = 0; i < s->n; i++) {
		const struct hx_file *f = &h->files[s->files[i]];

		for (j = 0; j < f->nfigs && f->figs[j].key != key; j++)
			;
		if (j == f->nfigs)
			continue;
		x[t->n] = &f->figs[j];
		t->file[t->n] = s->files[i];
		t->v[t->n] = x[t->n]->median;
		t->used[t->n] = !f->unjudgeable && (!f->suspect || (include & HX_SUSPECT)) && t->v[t->n] > 0;
		if (t->used[t->n] && x[t->n]->quiet > 0 && x[t->n]->quiet_shared > 0)
			pr[npr++] = x[t->n]->quiet_shared / x[t->n]->quiet;
		t->n++;
	}
	/* Runs shared for part of a figure: where their samples on a shared
	 * core sit SHARED_MOVES or more from their quiet ones (the median over
	 * such runs) and on that side in three of four such runs or more, and
	 * a sign test says so too, the search takes them at their quiet
	 * samples; else as measured. On the EPYC guest cpu.int's and
	 * proc.fork.exit's were on one side in 22 of 24 and 43 of 45 runs; the
	 * unpinned pipe's samples split by where the scheduler put its two
	 * ends more than by the core (above in 22 of 33 runs, at 0.15-10x),
	 * and searching its quiet samples found fewer steps
	 * (docs/regressions.md). */
	moves = npr >= 5 ? median_copy(pr, npr) : 1;
	partly = !(include & HX_SHARED) && fabs(log(moves)) >= log(1 + SHARED_MOVES) &&
		 sign_test(pr, npr, &side) < 0.05 && side >= 0.75;
	for (i = 0; i < t->n; i++) {
		int q = partly && x[i]->quiet > 0;

		t->q[i] = q ? x[i]->quiet : x[i]->median;
		g[i] = q ? x[i]->quiet_gauge : x[i]->gauge;
		if (g[i] > 0 && (t->gauge_quiet <= 0 || g[i] < t->gauge_quiet))
			t->gauge_quiet = g[i];
	}
	/* A run whose core gauge read GAUGE_SHARED times the series' quietest
	 * ran on a shared core: where that moves the figure, its value is
	 * another level, not a change, and the search takes it at the quiet
	 * level (divided by the shared runs' ratio to the others). */
	for (i = 0; i < t->n; i++) {
		t->shared[i] = t->gauge_quiet > 0 && g[i] >= GAUGE_SHARED * t->gauge_quiet;
		t->nused += t->used[i];
		t->nshared += t->shared[i] && t->used[i];
		t->npartly += t->q[i] != t->v[i] && t->used[i];
	}
	t->shared_ratio = include & HX_SHARED ? 1 : shared_ratio(t);
	free(x);
	free(g);
	free(pr);
	return 0;
}

int history_trend(const struct history *h, const struct hx_series *s, size_t key, int include,
		  struct hx_trend *t)
{
	const struct hx_key *k = &h->keys[key];
	size_t cps[HX_MAX_CHANGES], ncp, i, u, *at;
	double *x;
	int rc = -1;

	memset(t, 0, sizeof(*t));
	t->key = key;
	if (points(h, s, key, include, t) < 0)
		return -1;
	x = malloc((t->nused + 1) * sizeof(double));
	at = malloc((t->nused + 1) * sizeof(size_t));
	if (!x || !at)
		goto out;
	for (i = 0, u = 0; i < t->n; i++)
		if (t->used[i]) {
			at[u] = i;
			x[u++] = history_point(t, i);
		}
	t->floor = compare_noise_floor(k->id, k->derived, &t->floor_kind);
	if (t->nused >= HX_LEARN_MIN && isfinite(spread(x, u))) {
		t->spread = spread(x, u);
		t->floor = LEARNED_MULT * t->spread;
		if (t->floor < LEARNED_MIN)
			t->floor = LEARNED_MIN;
		t->floor_runs = t->nused;
	}
	ncp = cp_segment(x, u, MIN_SEGMENT, accept, t, cps, HX_MAX_CHANGES);
	ncp = prune(t, x, u, cps, ncp);
	relocate(t, x, u, cps, ncp);
	for (i = 0; i < ncp; i++) {
		size_t a = i ? cps[i - 1] : 0, c = i + 1 < ncp ? cps[i + 1] : u;
		struct cmp_ratio r;

		if (side_ratio(x, a, cps[i], c, &r) < 0)
			continue;
		t->ch[t->nch].at = at[cps[i]];
		t->ch[t->nch].ratio = r.ratio;
		t->ch[t->nch].lo = r.lo;
		t->ch[t->nch].hi = r.hi;
		t->nch++;
	}
	rc = 0;
out:
	free(x);
	free(at);
	return rc;
}

void history_floor_text(const struct hx_trend *t, char *out, size_t n)
{
	if (t->floor_runs)
		snprintf(out, n, "%.3g%%: this machine's history, %zu runs", t->floor * 100, t->floor_runs);
	else
		snprintf(out, n, "%.3g%%: fixed, %s (fewer than %d runs to learn from)", t->floor * 100,
			 t->floor_kind ? t->floor_kind : "other", HX_LEARN_MIN);
}
