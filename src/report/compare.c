/* compare.c — `bakeoff compare A.json B.json [C.json ...]`: the figures
 * the files share side by side, the ratio of each to the baseline with a
 * 95% confidence interval computed from the raw samples, and a verdict
 * (faster, slower, within noise, bimodal) that must clear a noise floor;
 * before that, every reason the files are not like for like (tool
 * version, build flags, profile, benchmark settings, guard findings,
 * figures that may be cached), each naming both values. --strict refuses
 * (exit 3) instead of printing a table. --best adds lmbench-style best-of
 * tables. It only reads result files; docs/compare.md explains the method.
 *
 * The interval: Price & Bonett (2002), the ratio of two medians. The
 * variance of the log of a sample median is estimated from the order
 * statistics around it, var = ((ln Y(n-c+1) - ln Y(c)) / (2 z_c))^2 with
 * c = round((n+1)/2 - sqrt(n)) and z_c the normal quantile of the exact
 * binomial coverage of (Y(c), Y(n-c+1)); the CI is
 * exp(ln(med_b/med_a) +- 1.96 sqrt(var_a + var_b)). It is distribution-free
 * like the CI of the median the run prints, closed-form (the same files
 * always give the same table), and works on the log scale, where timings'
 * skew matters least and a ratio is a difference.
 *
 * Within-run samples only show noise within one process's life; a second
 * run of the same command on a VM can land elsewhere. So a verdict needs
 * the whole CI beyond a noise floor: between-run spread when both files
 * have it (bakeoff run --runs K: a Welch t interval on the logs of the run
 * medians), otherwise a conservative floor per kind of metric, measured on
 * this project's machines (docs/compare.md). */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"
#include "registry.h"
#include "guard.h"
#include "report.h"
#include "options.h"
#include "result.h"
#include "units.h"

#define RUNS_FLOOR 0.01	/* with between-run data: the smallest difference called */


const char *compare_verdict_name(enum cmp_verdict v)
{
	switch (v) {
	case CMP_WITHIN: return "within noise";
	case CMP_FASTER: return "faster";
	case CMP_SLOWER: return "slower";
	case CMP_BIMODAL: return "bimodal";
	default: return "-";
	}
}

/* ---- statistics ---- */

/* Phi^-1(p) for 0.5 <= p < 1, by bisection on erfc (plenty for a CI). */
static double norm_quantile(double p)
{
	double lo = 0, hi = 40;
	int i;

	for (i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (0.5 * erfc(-mid / sqrt(2.0)) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* P(X <= k) for X ~ Binomial(n, 1/2). */
static double binom_half_cdf(long k, long n)
{
	double s = 0;
	long i;

	for (i = 0; i <= k; i++)
		s += exp(lgamma((double)n + 1) - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) -
			 (double)n * log(2.0));
	return s > 1 ? 1 : s;
}

int compare_log_median_var(const double *x, size_t n, double *var)
{
	double *s, z, p;
	long c;
	size_t i;

	if (n < 3)
		return -1;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -1;
	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]) || x[i] <= 0) {
			free(s);
			return -1;
		}
		s[i] = log(x[i]);
	}
	qsort(s, n, sizeof(*s), stats_cmp_double);
	c = lround(((double)n + 1) / 2 - sqrt((double)n));
	if (c < 1)
		c = 1;
	/* (Y(c), Y(n-c+1)) covers the median with probability 1 - 2 P(X <= c-1) */
	p = binom_half_cdf(c - 1, (long)n);
	z = norm_quantile(1 - p);
	*var = pow((s[n - (size_t)c] - s[c - 1]) / (2 * z), 2);
	free(s);
	return 0;
}

void compare_ratio_samples(double med_a, const double *a, size_t na, double med_b,
			   const double *b, size_t nb, struct cmp_ratio *out)
{
	double va, vb, h;

	memset(out, 0, sizeof(*out));
	out->ratio = med_a != 0 ? med_b / med_a : NAN;
	out->lo = out->hi = out->ratio;
	if (!(med_a > 0 && med_b > 0) || !isfinite(out->ratio) ||
	    compare_log_median_var(a, na, &va) < 0 || compare_log_median_var(b, nb, &vb) < 0)
		return;
	h = 1.959964 * sqrt(va + vb);
	out->lo = out->ratio * exp(-h);
	out->hi = out->ratio * exp(h);
	out->ci = 1;
}

/* t(0.975, df) for df = 1..30; beyond, 2.0 to 60 and then the normal. */
double compare_t975(double df)
{
	static const double t[30] = {
		12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
	};
	long d = (long)floor(df);	/* rounding down is the conservative side */

	if (d < 1)
		d = 1;
	return d <= 30 ? t[d - 1] : d <= 60 ? 2.0 : 1.96;
}

static int log_mean_var(const double *x, size_t n, double *mean, double *var)
{
	double s = 0, ss = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]) || x[i] <= 0)
			return -1;
		s += log(x[i]);
	}
	*mean = s / (double)n;
	for (i = 0; i < n; i++)
		ss += (log(x[i]) - *mean) * (log(x[i]) - *mean);
	*var = n > 1 ? ss / (double)(n - 1) : 0;
	return 0;
}

int compare_ratio_runs(double med_a, const double *ra, size_t ka, double med_b,
		       const double *rb, size_t kb, struct cmp_ratio *out)
{
	double ma, va, mb, vb, qa, qb, se, df, h;

	memset(out, 0, sizeof(*out));
	out->ratio = med_a != 0 ? med_b / med_a : NAN;
	out->lo = out->hi = out->ratio;
	if (ka < 2 || kb < 2 || !(med_a > 0 && med_b > 0) ||
	    log_mean_var(ra, ka, &ma, &va) < 0 || log_mean_var(rb, kb, &mb, &vb) < 0)
		return -1;
	qa = va / (double)ka;
	qb = vb / (double)kb;
	se = sqrt(qa + qb);
	/* Welch–Satterthwaite degrees of freedom */
	df = se > 0 ? pow(qa + qb, 2) / ((ka > 1 ? qa * qa / (double)(ka - 1) : 0) +
					 (kb > 1 ? qb * qb / (double)(kb - 1) : 0))
		    : (double)(ka + kb - 2);
	h = compare_t975(df) * se;
	out->lo = out->ratio * exp(-h);
	out->hi = out->ratio * exp(h);
	out->ci = 1;
	out->from_runs = 1;
	return 0;
}

enum cmp_verdict compare_verdict(const struct cmp_ratio *r, double floor, enum better better)
{
	double up = 1 + floor, down = 1 / (1 + floor);

	if (!isfinite(r->ratio) || !isfinite(r->lo) || !isfinite(r->hi))
		return CMP_NONE;
	if (r->lo > up)	/* the other's figure is higher */
		return better == BETTER_HIGHER ? CMP_FASTER : CMP_SLOWER;
	if (r->hi < down)
		return better == BETTER_HIGHER ? CMP_SLOWER : CMP_FASTER;
	return CMP_WITHIN;
}

static double median_of(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

int compare_bimodal(const double *x, size_t n, size_t min_count, double *lo, double *hi)
{
	double *s, best = 0;
	size_t i, k = 0, m = 0, need;
	int found = 0;

	for (i = 0; i < n; i++)
		if (isfinite(x[i]) && x[i] > 0)
			m++;
	need = min_count > (m + 4) / 5 ? min_count : (m + 4) / 5;
	if (need < 1)
		need = 1;
	if (m < 2 * need || !(s = malloc(m * sizeof(*s))))
		return 0;
	for (i = 0; i < n; i++)
		if (isfinite(x[i]) && x[i] > 0)
			s[k++] = log(x[i]);
	qsort(s, m, sizeof(*s), stats_cmp_double);
	/* split after index i: lower level s[0..i], upper level s[i+1..m-1] */
	for (i = need - 1; i + need < m; i++) {
		double gap = s[i + 1] - s[i];
		double rl = s[i] - s[0], ru = s[m - 1] - s[i + 1];
		double spread = rl > ru ? rl : ru;

		if (gap >= log(1.03) && gap >= 2 * spread && gap > best) {
			best = gap;
			*lo = exp(median_of(s, i + 1));
			*hi = exp(median_of(s + i + 1, m - i - 1));
			found = 1;
		}
	}
	free(s);
	return found;
}

/* The noise floors, by kind of metric (enum noise_class: a benchmark's
 * .noise, else its group's); a figure derived from others (no samples of
 * its own, so no interval) has its own floor. docs/compare.md gives the
 * measurements behind each number. */
static const struct kind {
	const char *name;
	double floor, floor_derived;
} kinds[NOISE_CLASSES] = {
	[NOISE_OTHER] = { "other", 0.50, 0.50 },
	[NOISE_CPU] = { "cpu", 1.10, 0.70 },
	[NOISE_MEM_BW] = { "memory bandwidth", 1.30, 1.30 },
	[NOISE_MEM_LAT] = { "memory latency", 0.30, 1.00 },
	[NOISE_SYSCALL] = { "system call", 0.40, 0.40 },
	[NOISE_SCHED] = { "process and scheduler", 2.00, 2.00 },
	[NOISE_VM] = { "page cache and faults", 0.50, 0.50 },
	[NOISE_DISK] = { "disk", 0.50, 0.50 },
	[NOISE_NET] = { "network", 0.50, 0.50 },
	[NOISE_TIME] = { "command time", 0.30, 0.30 },
};

/* A figure's class: its benchmark's in this build; for an id this build
 * does not have (a file from another version), its group's (the id's
 * first component). */
static enum noise_class noise_class(const char *bench_id)
{
	const struct bench *b = registry_find(bench_id);
	const struct bench_group *g;
	char group[64];

	if (b && b->noise != NOISE_OTHER)
		return b->noise;
	snprintf(group, sizeof(group), "%.*s", (int)strcspn(bench_id, "."), bench_id);
	g = registry_group(b ? b->group : group);
	return g && g->noise < NOISE_CLASSES ? g->noise : NOISE_OTHER;
}

double compare_noise_floor(const char *bench_id, int derived, const char **kind)
{
	const struct kind *k = &kinds[noise_class(bench_id)];

	if (kind)
		*kind = k->name;
	return derived ? k->floor_derived : k->floor;
}

/* Parameters that set up a measurement (compared between files), as
 * opposed to what a benchmark found (a checksum, a measured reach). */
static const char *const settings[] = {
	"mem_size_bytes", "msg_size_bytes", "map_size_bytes", "size_bytes", "array_bytes",
	"buffer_bytes", "block_bytes", "write_block_bytes", "chunk_bytes", "message_bytes",
	"datagram_bytes", "target_rate_bits_s", "buflen", "nbuf", "streams", "jobs", "iodepth",
	"files", "file_dirs", "seeks", "seekers", "direct", "copies", "parallel", "pinned", "procs",
	"ctx_sizes_bytes", "direction", "mode", "runtime_s", "device_path", "fs_type", "capped_by_ram",
	"program", "shell", "chain", "ops_per_call", "par_ops_per_call", "par_chains", "command",
	"prepare", "runs", "warmup_runs", "warmup_s", "warmup_samples", "chain_adds",
	"touch_stride_bytes", "stride_bytes", "node_bytes", "bytes_per_element", "compiler", "cflags",
	"interleaved", "per_char", NULL,
};

int compare_param_is_setting(const char *key)
{
	int i;

	for (i = 0; settings[i]; i++)
		if (strcmp(settings[i], key) == 0)
			return 1;
	return 0;
}

/* ---- the files ---- */

/* A metric of a file by key, only when its benchmark ran ok. */
/* Whether a figure is compared by default: not curve points and
 * intermediate figures (detail), nor disk.seq's "NAME % of ceiling", a
 * ratio of two figures without samples of its own, whose verdict (judged
 * on the floor alone) could contradict that of NAME itself, which is
 * compared. --all compares them all. */
static int compared(const struct metric *m, int all)
{
	size_t l = strlen(m->name), t = strlen(" % of ceiling");

	if (all)
		return 1;
	return !m->detail && !(l > t && strcmp(m->name + l - t, " % of ceiling") == 0);
}

static const struct metric *find_metric(const struct cmp_file *f, const char *id,
					const char *name, const struct bench_result **bout)
{
	const struct bench_result *b = result_bench(&f->r, id);

	if (bout)
		*bout = b;
	if (!b || b->status != ST_OK)
		return NULL;
	return result_metric(b, name);
}

/* ---- warnings and notes: plain sentences, escaped when printed ---- */

static void add_line(struct cmp_lines *l, const char *fmt, ...) BAKEOFF_PRINTF(2, 3);
static void add_line(struct cmp_lines *l, const char *fmt, ...)
{
	char buf[1200], **p;
	va_list ap;
	size_t i;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (i = 0; i < l->n; i++)
		if (strcmp(l->s[i], buf) == 0)
			return;	/* said once */
	p = realloc(l->s, (l->n + 1) * sizeof(*p));
	if (!p)
		return;
	l->s = p;
	if ((l->s[l->n] = strdup(buf)))
		l->n++;
}

static void free_lines(struct cmp_lines *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->s[i]);
	free(l->s);
	l->s = NULL;
	l->n = 0;
}

static void print_lines(const struct cmp_lines *l, FILE *out)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		fputs("  - ", out);
		report_put(out, l->s[i], 0);
		fputc('\n', out);
	}
}

/* A parameter's value as people read it: sizes in binary units. */
static void param_value(char *dst, size_t n, const struct param *p)
{
	size_t kl;

	if (!p) {
		snprintf(dst, n, "(not recorded)");
		return;
	}
	if (p->str) {
		snprintf(dst, n, "\"%s\"", p->str);
		return;
	}
	kl = strlen(p->key);
	if (kl > 6 && strcmp(p->key + kl - 6, "_bytes") == 0 && p->num >= 0 && p->num < 9e18 &&
	    p->num == floor(p->num)) {
		fmt_size(dst, n, (uint64_t)p->num);
		return;
	}
	snprintf(dst, n, "%.15g", p->num);
}

static int param_equal(const struct param *a, const struct param *b)
{
	if (!a || !b)
		return a == b;
	if (!a->str != !b->str)
		return 0;
	return a->str ? strcmp(a->str, b->str) == 0 : a->num == b->num;
}

/* One differing setting, with the benchmarks it differs in. */
struct pdiff {
	char *what;	/* "mem_size_bytes: A 1 MiB, B 2 MiB" */
	char ids[400];
	int nids;
};

static void add_pdiff(struct pdiff **d, size_t *n, const char *what, const char *id)
{
	struct pdiff *p;
	size_t i, l;

	for (i = 0; i < *n; i++)
		if (strcmp((*d)[i].what, what) == 0)
			break;
	if (i == *n) {
		p = realloc(*d, (*n + 1) * sizeof(*p));
		if (!p)
			return;
		*d = p;
		memset(&p[*n], 0, sizeof(p[*n]));
		if (!(p[*n].what = strdup(what)))
			return;
		(*n)++;
	}
	p = &(*d)[i];
	l = strlen(p->ids);
	if (p->nids < 4)
		snprintf(p->ids + l, sizeof(p->ids) - l, "%s%s", p->nids ? ", " : "", id);
	p->nids++;
}

/* Guard findings that describe the machine during the run (busy, stolen
 * time, swapping, throttling: what makes the guard's verdict "suspect")
 * rather than a standing condition (a VM, a governor, a size). */
static int finding_transient(const char *s)
{
	return guard_finding_suspect(s);
}

static int has_finding(const struct result *r, const char *s)
{
	size_t i;

	for (i = 0; i < r->guard.nfindings; i++)
		if (strcmp(r->guard.findings[i], s) == 0)
			return 1;
	return 0;
}

static int has_transient(const struct result *r)
{
	size_t i;

	for (i = 0; i < r->guard.nfindings; i++)
		if (finding_transient(r->guard.findings[i]))
			return 1;
	return 0;
}

static void check_guard(const struct cmp_file *fs, size_t nf, struct cmp_lines *warn,
			struct cmp_lines *notes)
{
	char quiet[80] = "";
	size_t k, i, j;

	for (k = 0; k < nf; k++)
		if (!has_transient(&fs[k].r))
			snprintf(quiet + strlen(quiet), sizeof(quiet) - strlen(quiet), "%s%s",
				 quiet[0] ? ", " : "", fs[k].label);
	for (k = 0; k < nf; k++) {
		const struct result *r = &fs[k].r;
		char busy[1200] = "";

		/* "suspect" is said with its reasons below; a verdict this
		 * version does not know is said as it is */
		if (strcmp(r->guard.verdict, "valid") && strcmp(r->guard.verdict, "suspect"))
			add_line(warn, "guard: %s (%s) has the verdict \"%s\"", fs[k].label,
				 fs[k].path, r->guard.verdict);
		/* a busy machine: one warning per file, every such finding made
		 * before the run, and the benchmarks during which it was seen */
		{
			char during[300] = "";
			int nd = 0;

			for (i = 0; i < r->guard.nfindings; i++) {
				const char *g = r->guard.findings[i];

				if (!finding_transient(g))
					continue;
				if (strncmp(g, "during ", 7) == 0) {
					size_t idl = strcspn(g + 7, ":"), j;
					int seen = 0;

					/* one benchmark may have several findings (busy, stolen) */
					for (j = 0; j < i && !seen; j++)
						seen = strncmp(r->guard.findings[j], g, 7 + idl + 1) == 0;
					if (seen)
						continue;
					if (nd++ < 3)
						snprintf(during + strlen(during), sizeof(during) - strlen(during),
							 "%s%.*s", nd > 1 ? ", " : "", (int)idl, g + 7);
					continue;
				}
				snprintf(busy + strlen(busy), sizeof(busy) - strlen(busy), "%s%s",
					 busy[0] ? "; " : "", g);
			}
			if (nd)
				snprintf(busy + strlen(busy), sizeof(busy) - strlen(busy),
					 "%sbusy during %d benchmark run%s (%s%s)", busy[0] ? "; " : "", nd,
					 nd == 1 ? "" : "s", during, nd > 3 ? ", ..." : "");
		}
		if (busy[0])
			add_line(warn, "guard: %s is suspect, measured on a busy machine: %s (%s%s)",
				 fs[k].label, busy,
				 quiet[0] ? quiet : "no file was measured on a quiet machine",
				 quiet[0] ? ": no such finding" : "");
		else if (strcmp(r->guard.verdict, "suspect") == 0)	/* judged by a newer guard */
			add_line(warn, "guard: %s (%s) has the verdict \"suspect\"", fs[k].label,
				 fs[k].path);
		/* standing conditions: a warning when only some files have one */
		for (i = 0; i < r->guard.nfindings; i++) {
			const char *g = r->guard.findings[i];
			char have[80] = "", lack[80] = "";
			int first = 1;

			if (finding_transient(g))
				continue;
			for (j = 0; j < nf; j++) {
				int has = has_finding(&fs[j].r, g);
				char *d = has ? have : lack;

				if (has && j < k)
					first = 0;	/* said with an earlier file */
				snprintf(d + strlen(d), 80 - strlen(d), "%s%s", *d ? ", " : "",
					 fs[j].label);
			}
			if (!first)
				continue;
			if (lack[0])
				add_line(warn, "guard findings differ: %s: %s; %s: no such finding", have,
					 g, lack);
			else
				add_line(notes, "every file: %s", g);
		}
	}
}

/* Labels (run --label) whose values differ among the files: one note per
 * key, each file's value or "-" ("label commit: A 3f2a1c, B 9e1d0a"). */
static void check_labels(const struct cmp_file *fs, size_t nf, struct cmp_lines *notes)
{
	size_t k, i, j, len;
	char line[1200];

	for (k = 0; k < nf; k++)
		for (i = 0; i < fs[k].r.nlabels; i++) {
			const char *kv = fs[k].r.labels[i];
			char key[40];
			int differ = 0, seen = 0;

			snprintf(key, sizeof(key), "%.*s", (int)strcspn(kv, "="), kv);
			for (j = 0; j < k && !seen; j++)	/* each key once: where first seen */
				seen = result_label(&fs[j].r, key) != NULL;
			for (j = 0; j < nf && !seen; j++) {
				const char *v = result_label(&fs[j].r, key);

				differ |= !v || strcmp(v, kv + strlen(key) + 1) != 0;
			}
			if (seen || !differ)
				continue;
			len = (size_t)snprintf(line, sizeof(line), "label %s:", key);
			for (j = 0; j < nf && len < sizeof(line); j++) {
				const char *v = result_label(&fs[j].r, key);

				len += (size_t)snprintf(line + len, sizeof(line) - len, "%s %s %s",
							j ? "," : "", fs[j].label, v ? v : "-");
			}
			add_line(notes, "%s", line);
		}
}

/* Everything that makes file k unlike the baseline f0. */
static void check_pair(const struct cmp_file *f0, const struct cmp_file *fk,
		       struct cmp_lines *warn, struct pdiff **pd, size_t *npd)
{
	const struct result *a = &f0->r, *b = &fk->r;
	const char *A = f0->label, *B = fk->label;
	size_t i, j;

	static const struct {
		size_t off;
		const char *what, *quote;
	} texts[] = {
		{ offsetof(struct sysinfo, version), "bakeoff version differs", "" },
		{ offsetof(struct sysinfo, kernel), "kernel differs", "\"" },
		{ offsetof(struct sysinfo, compiler), "compiler differs", "\"" },
		{ offsetof(struct sysinfo, cflags), "build flags differ", "\"" },
	};

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		const char *x = (const char *)&a->host + texts[i].off, *y = (const char *)&b->host + texts[i].off;
		const char *q = texts[i].quote;

		if (strcmp(x, y))
			add_line(warn, "%s: %s %s%s%s, %s %s%s%s", texts[i].what, A, q, x, q, B, q, y, q);
	}
	if (strcmp(a->profile ? a->profile : "", b->profile ? b->profile : ""))
		add_line(warn, "profile differs: %s %s, %s %s (sample length and default sizes differ)",
			 A, a->profile ? a->profile : "?", B, b->profile ? b->profile : "?");
	else if (a->samples != b->samples || a->target_sample_ns != b->target_sample_ns)
		add_line(warn, "harness settings differ: %s >= %d samples of >= %.3g ms, %s >= %d "
			 "samples of >= %.3g ms", A, a->samples, a->target_sample_ns / 1e6, B,
			 b->samples, b->target_sample_ns / 1e6);
	if (a->parallel != b->parallel)
		add_line(warn, "parallel copies differ: %s %d, %s %d", A, a->parallel, B, b->parallel);
	for (i = 0; i < a->nbenches; i++) {
		const struct bench_result *ba = &a->benches[i], *bb = result_bench(b, ba->id);

		if (!bb || ba->status != ST_OK || bb->status != ST_OK)
			continue;
		/* every setting either side recorded */
		for (j = 0; j < ba->nparams + bb->nparams; j++) {
			const char *key = j < ba->nparams ? ba->params[j].key
							  : bb->params[j - ba->nparams].key;
			const struct param *pa = result_param(ba, key), *pb = result_param(bb, key);
			char va[300], vb[300], what[700];

			if (!compare_param_is_setting(key) || (j >= ba->nparams && pa) ||
			    param_equal(pa, pb))
				continue;
			param_value(va, sizeof(va), pa);
			param_value(vb, sizeof(vb), pb);
			snprintf(what, sizeof(what), "%s: %s %s, %s %s", key, A, va, B, vb);
			add_pdiff(pd, npd, what, ba->id);
		}
	}
}

static void check_runs(const struct cmp_file *fs, size_t nf, struct cmp_lines *warn)
{
	size_t k;

	for (k = 0; k < nf; k++) {
		if (fs[k].r.interrupted)
			add_line(warn, "%s (%s) was interrupted: only the benchmarks that finished are in it",
				 fs[k].label, fs[k].path);
		else if (fs[k].r.incomplete)
			add_line(warn, "%s (%s) is incomplete: the run was still going (or was killed) "
				 "when it was saved", fs[k].label, fs[k].path);
	}
}

/* ---- the table ---- */

void compare_metric_key(char *dst, size_t n, const char *id, const char *name)
{
	char a[300], b[300];

	report_esc(a, sizeof(a), id);
	report_esc(b, sizeof(b), name);
	snprintf(dst, n, "%s%s%s", a, name[0] ? ":" : "", b);
}

static int is_runs(const struct metric *m)
{
	return m->nruns >= 2;
}

/* The ratio of file k's figure to the baseline's, its CI and the floor. */
static void ratio_of(struct comparison *c, const struct cmp_row *rw, size_t k, struct cmp_ratio *r,
		     double *floor, const char **kind)
{
	const struct metric *a = rw->m[0], *b = rw->m[k];
	double learned;
	size_t runs = 0;

	*floor = compare_noise_floor(rw->id, a->derived || b->derived, kind);
	if (c->learned && (learned = c->learned(c->learned_ctx, rw->id, rw->name, &runs)) > 0) {
		*floor = learned;	/* this machine's own run-to-run spread */
		*kind = "this machine's history";
		if (runs > c->history_runs)
			c->history_runs = runs;
	}
	if (is_runs(a) && is_runs(b) &&
	    compare_ratio_runs(a->st.median, a->run_median, a->nruns, b->st.median, b->run_median,
			       b->nruns, r) == 0) {
		*floor = RUNS_FLOOR;
		return;
	}
	if (a->derived || b->derived)
		compare_ratio_samples(a->st.median, NULL, 0, b->st.median, NULL, 0, r);
	else
		compare_ratio_samples(a->st.median, a->samples, a->nsamples, b->st.median, b->samples,
				      b->nsamples, r);
}

/* Two levels in a file's samples (or its run medians): "A: 2100 and 6000".
 * Four or five run medians of a machine whose speed drifts by a few percent
 * between runs often split into two groups 3-6% apart by chance; two levels
 * of the runs must be at least 15% apart (this host's memory bandwidth
 * jumps by 40% and more) to be called bimodal, else the Welch interval
 * on the runs carries the drift. */
#define RUN_LEVELS_APART 1.15
static int levels_of(const struct metric *m, char *dst, size_t n)
{
	double lo, hi;
	char a[32], b[32];

	if (m->derived)
		return 0;
	/* With four runs or more, the run medians say whether the figure has
	 * two levels from one run to the next; samples at two levels within a
	 * run (some of them shared their CPU with another process) are that
	 * run's noise, which its median absorbs. */
	if (m->nruns >= 4 ? !(compare_bimodal(m->run_median, m->nruns, 2, &lo, &hi) &&
			      hi >= RUN_LEVELS_APART * lo)
			  : !(m->nsamples >= 10 && compare_bimodal(m->samples, m->nsamples, 3, &lo, &hi)))
		return 0;
	fmt_num(a, sizeof(a), lo);
	fmt_num(b, sizeof(b), hi);
	snprintf(dst, n, "%s and %s", a, b);
	return 1;
}

/* Every row's ratios, CIs, floors and verdicts, the counts, and the
 * bimodal figures: what the renderers read. */
static void judge(struct comparison *c)
{
	size_t i, k;
	char key[700];

	for (i = 0; i < c->nrows; i++) {
		struct cmp_row *rw = &c->rows[i];
		char lv[100], lvk[100];

		compare_metric_key(key, sizeof(key), rw->id, rw->name);
		for (k = 1; k < c->nf; k++) {
			struct cmp_cell *cl = &rw->c[k];
			int bi0, bik;

			ratio_of(c, rw, k, &cl->r, &cl->floor, &cl->kind);
			cl->verdict = compare_verdict(&cl->r, cl->floor, rw->m[0]->better);
			bi0 = levels_of(rw->m[0], lv, sizeof(lv));
			bik = levels_of(rw->m[k], lvk, sizeof(lvk));
			if ((bi0 || bik) && cl->verdict != CMP_NONE) {
				cl->verdict = CMP_BIMODAL;
				add_line(&c->bimodal, "%s: bimodal, not a shift: %s%s%s%s%s%s%s%s", key,
					 bi0 ? c->fs[0].label : "", bi0 ? "'s values fall at " : "",
					 bi0 ? lv : "", bi0 && bik ? "; " : "", bik ? c->fs[k].label : "",
					 bik ? "'s values fall at " : "", bik ? lvk : "",
					 " (a difference may be which level a run landed on)");
			}
			c->counts[cl->verdict]++;
			c->by_kind += !cl->r.from_runs && cl->verdict != CMP_NONE;	/* as counted above */
			c->by_history += !cl->r.from_runs && cl->verdict != CMP_NONE && c->learned &&
					 !strcmp(cl->kind, "this machine's history");
		}
		rw->derived = (rw->m[0]->derived || rw->m[1]->derived) &&
			      !(is_runs(rw->m[0]) && is_runs(rw->m[1]));
	}
}

static void print_table(const struct comparison *c, FILE *out)
{
	const struct cmp_file *fs = c->fs;
	size_t i, k, kw = 6, nf = c->nf;
	char key[700], v[32];

	for (i = 0; i < c->nrows; i++) {
		compare_metric_key(key, sizeof(key), c->rows[i].id, c->rows[i].name);
		if (report_esc_width(key) > kw)
			kw = report_esc_width(key);
	}
	fprintf(out, "%-*s %-5s", (int)kw, "metric", "unit");
	for (k = 0; k < nf; k++)
		fprintf(out, " %10s", fs[k].label);
	for (k = 1; k < nf; k++) {
		char h[16];

		snprintf(h, sizeof(h), "%s/%s", fs[k].label, fs[0].label);
		fprintf(out, "  %6s %-15s %5s %-12s", h, "95% CI", "floor", "verdict");
	}
	fputc('\n', out);
	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *rw = &c->rows[i];

		compare_metric_key(key, sizeof(key), rw->id, rw->name);
		fprintf(out, "%-*s ", (int)kw, key);
		report_put(out, rw->m[0]->unit, 5);
		for (k = 0; k < nf; k++) {
			fmt_num(v, sizeof(v), rw->m[k]->st.median);
			fprintf(out, " %10s", v);
		}
		for (k = 1; k < nf; k++) {
			const struct cmp_cell *cl = &rw->c[k];
			char ci[60], fl[16], rt[24];

			compare_ci_text(ci, sizeof(ci), &cl->r);
			compare_floor_text(fl, sizeof(fl), cl);
			compare_ratio_text(rt, sizeof(rt), cl->r.ratio);
			if (isfinite(cl->r.ratio))
				fprintf(out, "  %6s %-15s %5s %-12s", rt, ci, fl,
					compare_verdict_name(cl->verdict));
			else
				fprintf(out, "  %6s %-15s %5s %-12s", "-", ci, fl, "-");
		}
		if (nf == 2 && rw->derived)
			fputs("  (derived: no samples)", out);
		fputc('\n', out);
	}
	fputc('\n', out);
	compare_summary(c, out);
	if (c->by_kind > c->by_history)
		fprintf(out, "(%zu judged by the noise floor of their kind, docs/compare.md; files from\n"
			" bakeoff run --runs K are judged by their own spread between runs)\n",
			c->by_kind - c->by_history);
	if (c->by_history)
		fprintf(out, "(%zu judged by a floor learned from this machine's history, up to %zu runs:\n"
			" twice the spread of the difference of two of its runs, docs/regressions.md)\n",
			c->by_history, c->history_runs);
}

void compare_ratio_text(char *dst, size_t n, double r)
{
	/* at most 9 characters, however far apart the two figures are */
	snprintf(dst, n, r < 999.9995 ? "%.3f" : "%.3g", r);
}

void compare_ci_text(char *dst, size_t n, const struct cmp_ratio *r)
{
	char lo[24], hi[24];

	compare_ratio_text(lo, sizeof(lo), r->lo);
	compare_ratio_text(hi, sizeof(hi), r->hi);
	if (r->ci)
		snprintf(dst, n, "%s..%s", lo, hi);
	else
		snprintf(dst, n, "%s", isfinite(r->ratio) ? "(no CI)" : "-");
}

void compare_floor_text(char *dst, size_t n, const struct cmp_cell *cl)
{
	if (cl->r.from_runs)
		snprintf(dst, n, "runs");
	else
		snprintf(dst, n, "%.0f%%", cl->floor * 100);
}

void compare_summary(const struct comparison *c, FILE *out)
{
	const size_t *n = c->counts;

	fprintf(out, "%zu comparisons: %zu within noise, %zu faster, %zu slower, %zu bimodal",
		n[CMP_WITHIN] + n[CMP_FASTER] + n[CMP_SLOWER] + n[CMP_BIMODAL], n[CMP_WITHIN],
		n[CMP_FASTER], n[CMP_SLOWER], n[CMP_BIMODAL]);
	if (n[CMP_NONE])
		fprintf(out, ", %zu without a ratio", n[CMP_NONE]);
	fputc('\n', out);
}

/* ---- best-of tables (lmbench's 1996 SMP report) ---- */

static int is_time_unit(const char *u)
{
	return !strcmp(u, "ns") || !strcmp(u, "us") || !strcmp(u, "ms") || !strcmp(u, "s");
}

/* higher: "percentage of the best" (bandwidths, rates); else "factor
 * slower than the best" (latencies). Sizes and counts are not ranked. */
static void best_table(const struct cmp_file *fs, size_t nf, const struct cmp_row *rows,
		       size_t nrows, int higher, FILE *out)
{
	size_t i, k, lw = 5, c0, c;
	size_t *cols = calloc(nrows ? nrows : 1, sizeof(*cols)), ncols = 0;
	char key[700];

	if (!cols)
		return;
	for (i = 0; i < nrows; i++) {
		const struct metric *m = rows[i].m[0];

		if (higher ? m->better != BETTER_HIGHER : (m->better != BETTER_LOWER ||
							   !is_time_unit(m->unit)))
			continue;
		for (k = 0; k < nf; k++)
			if (!(rows[i].m[k]->st.median > 0) || !isfinite(rows[i].m[k]->st.median))
				break;
		if (k == nf)
			cols[ncols++] = i;
	}
	if (!ncols) {
		free(cols);
		return;
	}
	for (k = 0; k < nf; k++) {
		const char *base = strrchr(fs[k].path, '/');
		size_t w = strlen(fs[k].label) + 2 + report_esc_width(base ? base + 1 : fs[k].path);

		if (w > lw)
			lw = w;
	}
	if (lw > 32)
		lw = 32;
	fprintf(out, "\n%s - %s (the best starred, with its figure)\n",
		higher ? "Bandwidths and rates" : "Latencies",
		higher ? "percentage of the best" : "factor slower than the best");
	/* columns in chunks that fit about 120 characters */
	for (c0 = 0; c0 < ncols; c0 = c) {
		size_t width = lw, wcol[64];

		for (c = c0; c < ncols && c - c0 < 64; c++) {
			const struct cmp_row *rw = &rows[cols[c]];

			compare_metric_key(key, sizeof(key), rw->id, rw->name);
			wcol[c - c0] = report_esc_width(key) < 8 ? 8 : report_esc_width(key);
			if (c > c0 && width + 1 + wcol[c - c0] > 120)
				break;
			width += 1 + wcol[c - c0];
		}
		fprintf(out, "%-*s", (int)lw, "file");
		for (i = c0; i < c; i++) {
			const struct cmp_row *rw = &rows[cols[i]];

			compare_metric_key(key, sizeof(key), rw->id, rw->name);
			fprintf(out, " %*s", (int)wcol[i - c0], key);
		}
		fputc('\n', out);
		for (k = 0; k < nf; k++) {
			char lab[1200], esc[1100];
			const char *base = strrchr(fs[k].path, '/');
			size_t el;

			/* "A: name.json", the start of a long name cut to "..." */
			report_esc(esc, sizeof(esc), base ? base + 1 : fs[k].path);
			el = strlen(esc);
			if (el + 3 > lw)
				snprintf(lab, sizeof(lab), "%s: ...%s", fs[k].label, esc + el - (lw - 6));
			else
				snprintf(lab, sizeof(lab), "%s: %s", fs[k].label, esc);
			fprintf(out, "%-*s", (int)lw, lab);
			for (i = c0; i < c; i++) {
				const struct cmp_row *rw = &rows[cols[i]];
				double best = rw->m[0]->st.median, x = rw->m[k]->st.median;
				size_t j;
				char cell[40];

				for (j = 1; j < nf; j++) {
					double y = rw->m[j]->st.median;

					if (higher ? y > best : y < best)
						best = y;
				}
				/* as lmbench 1.0's "Comparison to best of the breed":
				 * the best starred with its own figure, the others
				 * as a factor or a percentage of it */
				if (x == best) {
					char v[32];

					fmt_num(v, sizeof(v), x);
					snprintf(cell, sizeof(cell), "*%s", v);
				} else if (higher) {
					snprintf(cell, sizeof(cell), "%.0f%%", 100 * x / best);
				} else {
					snprintf(cell, sizeof(cell), x / best < 9.95 ? "%.1f" : "%.0f", x / best);
				}
				fprintf(out, " %*s", (int)wcol[i - c0], cell);
			}
			fputc('\n', out);
		}
	}
	free(cols);
}

/* ---- the comparison, worked out and printed ---- */

static void print_files(const struct cmp_file *fs, size_t nf, FILE *out)
{
	size_t k;

	for (k = 0; k < nf; k++) {
		const struct result *r = &fs[k].r;

		fprintf(out, "%s%s = ", k ? "      " : "files ", fs[k].label);
		report_put(out, fs[k].path, 0);
		fputs(": ", out);
		report_put(out, r->host.hostname, 0);
		if (r->fleet_host && strcmp(r->fleet_host, r->host.hostname)) {
			fputs(" (fleet host ", out);
			report_put(out, r->fleet_host, 0);
			fputc(')', out);
		}
		fputs(", ", out);
		report_put_run(out, r, ", ");
		fprintf(out, ", %zu benchmarks", r->nbenches);
		if (r->runs > 1)
			fprintf(out, ", %d runs each", r->runs);
		fputs(k == 0 ? " (baseline)\n" : "\n", out);
	}
}

/* Figures present in only some files ("mem.lat:L3  in A, C; not in B"),
 * and then why a benchmark is missing from a file: its status. */
static void build_partial(struct comparison *c)
{
	const struct cmp_file *fs = c->fs;
	size_t k, j, i, m, nf = c->nf;

	for (k = 0; k < nf; k++) {
		const struct result *r = &fs[k].r;

		for (i = 0; i < r->nbenches; i++) {
			const struct bench_result *b = &r->benches[i];

			for (m = 0; b->status == ST_OK && m < b->nmetrics; m++) {
				const struct metric *mt = &b->metrics[m];
				char in[80] = "", notin[80] = "", key[700];
				int first = 1;

				if (!compared(mt, c->all))
					continue;
				for (j = 0; j < nf; j++) {
					int has = find_metric(&fs[j], b->id, mt->name, NULL) != NULL;
					char *d = has ? in : notin;

					if (has && j < k)
						first = 0;
					snprintf(d + strlen(d), 80 - strlen(d), "%s%s", *d ? ", " : "",
						 fs[j].label);
				}
				if (!first || !notin[0])
					continue;
				compare_metric_key(key, sizeof(key), b->id, mt->name);
				add_line(&c->partial, "%s  in %s; not in %s", key, in, notin);
			}
		}
	}
	for (k = 0; k < nf && c->partial.n; k++) {
		const struct result *r = &fs[k].r;

		for (i = 0; i < r->nbenches; i++) {
			const struct bench_result *b = &r->benches[i];

			if (b->status != ST_OK)
				add_line(&c->absent, "%s: %s %s%s%s", fs[k].label, b->id,
					 status_name(b->status), b->reason ? ": " : "",
					 b->reason ? b->reason : "");
		}
	}
}

/* The rows: the baseline's figures that every file has; a warning for
 * each that may be the page cache's. */
static int build_rows(struct comparison *c)
{
	const struct result *r0 = &c->fs[0].r;
	size_t cap = 0, i, k, m, nf = c->nf;

	for (i = 0; i < r0->nbenches; i++)
		cap += r0->benches[i].nmetrics;
	c->rows = calloc(cap ? cap : 1, sizeof(*c->rows));
	if (!c->rows)
		return -1;
	for (i = 0; i < r0->nbenches; i++) {
		const struct bench_result *b = &r0->benches[i];

		for (m = 0; b->status == ST_OK && m < b->nmetrics; m++) {
			struct cmp_row *rw = &c->rows[c->nrows];

			if (!compared(&b->metrics[m], c->all))
				continue;
			rw->id = b->id;
			rw->name = b->metrics[m].name;
			for (k = 0; k < nf; k++)
				if (!(rw->m[k] = find_metric(&c->fs[k], b->id, b->metrics[m].name, NULL)))
					break;
			if (k < nf)
				continue;
			c->nrows++;
			/* may the figure be the page cache's? */
			for (k = 0; k < nf && !rw->m[k]->cache_suspect; k++)
				;
			if (k < nf) {
				char key[700], vals[400] = "";

				compare_metric_key(key, sizeof(key), rw->id, rw->name);
				for (k = 0; k < nf; k++)
					snprintf(vals + strlen(vals), sizeof(vals) - strlen(vals),
						 "%s%s %s", k ? ", " : "", c->fs[k].label,
						 rw->m[k]->cache_suspect ? "cached?" : "not marked");
				add_line(&c->warn, "%s may be the page cache's figure: %s", key, vals);
			}
		}
	}
	return 0;
}

/* Everything the renderers show, from the loaded files c->fs[0..nf). */
int compare_build(struct comparison *c)
{
	struct pdiff *pd = NULL;
	size_t npd = 0, i, k;
	int rc = 0;

	check_runs(c->fs, c->nf, &c->warn);
	for (k = 1; k < c->nf; k++)
		check_pair(&c->fs[0], &c->fs[k], &c->warn, &pd, &npd);
	for (i = 0; i < npd; i++) {
		if (pd[i].nids > 4)
			add_line(&c->warn, "setting differs: %s (%s and %d more)", pd[i].what, pd[i].ids,
				 pd[i].nids - 4);
		else
			add_line(&c->warn, "setting differs: %s (%s)", pd[i].what, pd[i].ids);
	}
	for (i = 0; i < npd; i++)
		free(pd[i].what);
	free(pd);
	check_guard(c->fs, c->nf, &c->warn, &c->notes);
	check_labels(c->fs, c->nf, &c->notes);
	if (build_rows(c) < 0)
		rc = -1;
	judge(c);
	build_partial(c);
	return rc;
}

void compare_free(struct comparison *c)
{
	size_t k;

	free(c->rows);
	c->rows = NULL;
	free_lines(&c->warn);
	free_lines(&c->notes);
	free_lines(&c->bimodal);
	free_lines(&c->partial);
	free_lines(&c->absent);
	for (k = 0; k < c->nf && k < COMPARE_MAX_FILES; k++)
		result_free(&c->fs[k].r);
}

void compare_print_text(const struct comparison *c, int best, FILE *out)
{
	size_t i;

	print_files(c->fs, c->nf, out);
	if (c->warn.n) {
		fprintf(out, "\nfairness warnings (%zu): these figures are not like for like\n", c->warn.n);
		print_lines(&c->warn, out);
	}
	if (c->notes.n) {
		fprintf(out, "\nnotes:\n");
		print_lines(&c->notes, out);
	}
	fputc('\n', out);
	if (c->nrows)
		print_table(c, out);
	else
		fprintf(out, "(no figure is in every file)\n");
	if (c->bimodal.n) {
		fputc('\n', out);
		print_lines(&c->bimodal, out);
	}
	if (c->partial.n) {
		fprintf(out, "\nonly in some files:\n");
		for (i = 0; i < c->partial.n; i++) {
			fputs("  ", out);
			report_put(out, c->partial.s[i], 0);
			fputc('\n', out);
		}
		for (i = 0; i < c->absent.n; i++) {
			fputs("  (", out);
			report_put(out, c->absent.s[i], 0);
			fputs(")\n", out);
		}
	}
	if (best && c->nf >= 2) {
		best_table(c->fs, c->nf, c->rows, c->nrows, 0, out);
		best_table(c->fs, c->nf, c->rows, c->nrows, 1, out);
	}
}

void compare_print_warnings(const struct comparison *c, FILE *out)
{
	print_lines(&c->warn, out);
}

struct comparison *compare_new(void)
{
	return calloc(1, sizeof(struct comparison));
}
