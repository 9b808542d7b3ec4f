/* options.c — the table of options benchmarks read, and what is checked
 * with it: values within range, every option given read by a selected
 * benchmark, and sizes that fit the disk and memory (see options.h). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "options.h"
#include "os.h"
#include "registry.h"
#include "units.h"

#define CFG(f) IN_CFG, offsetof(struct harness_cfg, f), 0
#define OPT(f) IN_OPT, offsetof(struct bench_opts, f), 0
#define OPTL(f, n) IN_OPT, offsetof(struct bench_opts, f), offsetof(struct bench_opts, n)
#define KiB OPT_KIB
#define MiB OPT_MIB
#define GiB OPT_GIB
#define TiB OPT_TIB
#define MS OPT_MS
#define S OPT_S

/* The run's, the harness's and those that more than one group reads; each
 * group's own are in its table (struct bench_group's .options). */
static const struct optdef optdefs[] = {
	/* the run's own (every benchmark "reads" them) */
	{ "output", OT_PATH, OPT(output), NULL, NULL, 1, 4095, "*",
	  "write the result here ('-' = JSON on stdout, no table); an existing file is never "
	  "overwritten (default results/HOST-UTCTIME.json)", RES_NONE, 0, 'o', OPTF_FLEET_SETS },
	{ "quiet", OT_FLAG, OPT(quiet), NULL, NULL, 0, 1, "*", "no progress lines on stderr",
	  RES_NONE, 0, 'q', OPTF_FLEET_DROP },
	{ "progress", OT_FLAG, OPT(lines), NULL, NULL, 0, 1, "*",
	  "plain progress lines on stderr even when it is not a terminal: 'bakeoff: progress K/N ID "
	  "running', then '... ID STATUS' (bakeoff fleet reads them over ssh)", RES_NONE, 0, 0,
	  OPTF_FLEET_DROP },
	{ "quick", OT_FLAG, OPT(quick), NULL, NULL, 0, 1, "*", "small sizes and short samples (a smoke run)",
	  RES_NONE, 0, 0, 0 },
	{ "runs", OT_UINT, OPT(runs), NULL, NULL, 2, 100, "*",
	  "run each benchmark N times, each in a fresh process, interleaved (all benchmarks once, "
	  "then again); the result keeps every run's median and CV, and compare judges differences "
	  "by the between-run spread", RES_NONE, 0, 0, 0 },
	{ "label", OT_LABEL, OPTL(labels, nlabels), NULL, NULL, 0, BENCH_MAX_LABELS, "*",
	  "KEY=VALUE kept in the result (repeatable, up to 16: commit=3f2a1c, kernel=6.18.45, "
	  "driver=new); report, compare and history show them, history tells runs apart by them",
	  RES_NONE, 0, 0, 0 },
	{ "dir", OT_PATH, OPT(dirlist), NULL, NULL, 1, 4095, "*",
	  "DIR[,DIR...]: make the scratch directory under the first (default $TMPDIR or /tmp); the "
	  "disk benchmarks write in a scratch directory under each (default: the current directory)",
	  RES_NONE, 0, 0, 0 },
	{ "json-stream", OT_PATH, OPT(json_stream), NULL, NULL, 1, 4095, "@long",
	  "one JSON object per line as each interval of a long operation closes (disk, net, "
	  "time): its figure, amount and latencies; a new file, a FIFO or - (stdout). A slow "
	  "reader loses lines, the run never waits for it", RES_NONE, 0, 0, OPTF_FLEET_DROP },
	/* the harness's and the benchmarks' */
	{ "samples", OT_UINT, CFG(samples), "11", NULL, 1, 1000, "@loop",
	  "samples per figure, at least (more, up to 3x, while the 95% CI is wider than "
	  "--ci-target)", RES_NONE, 0, 0, 0 },
	{ "ci-target", OT_PERCENT, CFG(ci_target), "1%", NULL, 0.1, 50, "@loop",
	  "add samples to a figure until the half-width of its 95% CI is under this share of "
	  "its median; given, with no 3x ceiling: until it is, or --budget is spent, and a "
	  "figure that missed it says so", RES_NONE, 0, 0, 0 },
	{ "sample-time", OT_DURATION, CFG(target_ns), "10ms", "2ms", 0.1 * MS, 10 * S, "@loop",
	  "minimum length of one sample", RES_NONE, 0, 0, 0 },
	{ "budget", OT_DURATION, CFG(budget_ns), "5s", "1s", 10 * MS, 86400 * S, "*",
	  "time bound of calibration and samples together (the minimum samples always "
	  "run); with long operations, no repetition starts after it", RES_NONE, 0, 0, 0 },
	{ "reps", OT_UINT, CFG(reps), "3", "1", 1, 1000, "@long",
	  "timed repetitions of a long operation", RES_NONE, 0, 0, 0 },
	{ "duration", OT_DURATION, CFG(duration_ns), NULL, NULL, 100 * MS, 86400 * S, "@long",
	  "a time-based operation runs this long per repetition; others repeat until it has passed", RES_NONE, 0, 0, 0 },
	{ "warmup", OT_WARMUP, IN_CFG, 0, 0, NULL, NULL, 0, 86400 * S, "*",
	  "N repetitions run and discarded first, or DUR: the first DUR of each repetition "
	  "is left out of its figure (fio's ramp_time, iperf3's omit); a calibrated loop "
	  "runs N samples, or DUR of calls, untimed before its first sample", RES_NONE, 0, 0, 0 },
	{ "steady-state", OT_STEADY, IN_CFG, 0, 0, NULL, NULL, 0, 86400 * S, "@long",
	  "KIND:PCT:DUR (iops:1%:30s, bw:2%:10s): a time-based operation first runs until its "
	  "--interval figures over the last DUR are all within PCT of their mean (fio's "
	  "ss=iops:PCT, ss_dur=DUR), then measures; one that never gets there within its duration "
	  "is measured anyway and says so", RES_NONE, 0, 0, 0 },
	{ "interval", OT_DURATION, CFG(interval_ns), "1s", NULL, 100 * MS, 3600 * S, "@long",
	  "length of the per-interval figures kept in the result", RES_NONE, 0, 0, 0 },
	{ "op-timeout", OT_DURATION, CFG(op_timeout_ns), "5m", NULL, 10 * MS, 86400 * S, "*",
	  "an operation (or a wait on another process) that lasts longer fails the benchmark", RES_NONE, 0, 0, 0 },
	{ "parallel", OT_UINT, OPT(parallel), "1", NULL, 1, 256, "*",
	  "run N copies of each benchmark at once", RES_NONE, 0, 0, 0 },
	{ "mem-size", OT_SIZE, OPT(mem_size), "64M", "16M", 64 * KiB, 1 * TiB, "mem",
	  "memory benchmarks' buffer (STREAM: each of its three arrays, at least 4x the "
	  "last-level cache without --quick)", RES_MEM, 1, 0, 0 },
	{ "msg-size", OT_SIZE, OPT(msg_size), "64k", NULL, 1, 64 * MiB, "ipc.pipe.bw,ipc.unix.bw",
	  "IPC bandwidth transfer size", RES_NONE, 0, 0, 0 },
	{ "map-size", OT_SIZE, OPT(map_size), NULL, "1M", 4 * KiB, 1 * TiB, "vm",
	  "file size of the VM benchmarks (default 4x the last-level cache, at least 8M)",
	  RES_DISK, 1, 0, 0 },
	{ "procs", OT_UINT_LIST, OPTL(procs, nprocs), "2,4,8,16", NULL, 2, 256, "proc.ctxsw",
	  "context-switch ring sizes (up to 8)", RES_NONE, 0, 0, 0 },
	{ "ctx-sizes", OT_SIZE_LIST, OPTL(ctx_sizes, nctx_sizes), "0,16k,64k", NULL, 0, 64 * MiB,
	  "proc.ctxsw", "context-switch working sets (up to 8)", RES_NONE, 0, 0, 0 },
	{ "pin", OT_FLAG, OPT(pin), NULL, NULL, 0, 1, "proc.ctxsw,ipc.pipe.lat,ipc.unix.lat,ipc.fifo.lat",
	  "pin context-switch rings and IPC latency pairs to one CPU", RES_NONE, 0, 0, 0 },
	{ "streams", OT_UINT, OPT(streams), "1", NULL, 1, 64, "net.tcp.bw,disk.seq",
	  "parallel streams: TCP streams (iperf3 -P); disk.seq's sequential streams, one file "
	  "each, spread over the --dir list", RES_NONE, 0, 0, 0 },
	/* cpu: workloads and scaling */
	{ "copies", OT_UINT_LIST, OPTL(copies, ncopies), NULL, NULL, 1, 1024, "cpu.scaling,mem.loaded",
	  "counts of copies run at once (up to 8; default 1, 2, 4, ... up to the online CPUs); "
	  "mem.loaded: its loaders, the first count (default: one per other CPU)",
	  RES_NONE, 0, 0, 0 },
	{ "delays", OT_UINT_LIST, OPTL(delays, ndelays), NULL, NULL, 0, 1000000, "mem.loaded",
	  "mem.loaded's sweep: the loaders' delay loop iterations after each cache line, two or "
	  "more (default 500,200,100,50,25,10,5,0; --quick 100,10,0)", RES_NONE, 0, 0, 0 },
	/* only in the test build (bakeoff-testing): no other benchmark reads it */
	{ "test-work", OT_UINT, OPT(test_work), "100", NULL, 1, 1000000, "test.work",
	  "test.work's units of work per operation (one multiply-add each)", RES_NONE, 0, 0, 0 },
	{ "test-work2", OT_UINT, OPT(test_work2), "100", NULL, 1, 1000000, "test.work2",
	  "test.work2's units of work per operation", RES_NONE, 0, 0, 0 },
};
static const size_t noptdefs = sizeof(optdefs) / sizeof(optdefs[0]);

size_t opt_count(void)
{
	size_t n = noptdefs, g;

	for (g = 0; g < registry_ngroups; g++)
		n += registry_groups[g]->noptions;
	return n;
}

const struct optdef *opt_row(size_t i)
{
	size_t g;

	if (i < noptdefs)
		return &optdefs[i];
	i -= noptdefs;
	for (g = 0; g < registry_ngroups; g++) {
		if (i < registry_groups[g]->noptions)
			return &registry_groups[g]->options[i];
		i -= registry_groups[g]->noptions;
	}
	return NULL;
}

/* The group whose table holds d (NULL: options.c's), and d's row number.
 * Rows are found by equality: < between different tables' rows would
 * compare unrelated objects. */
static const struct bench_group *owner(const struct optdef *d, size_t *index)
{
	size_t i, n = opt_count();

	for (i = 0; i < n; i++)
		if (opt_row(i) == d)
			break;
	*index = i < n ? i : 0;
	if (i < noptdefs || i >= n)
		return NULL;
	i -= noptdefs;
	for (n = 0; n < registry_ngroups && i >= registry_groups[n]->noptions; n++)
		i -= registry_groups[n]->noptions;
	return registry_groups[n];
}

size_t opt_index(const struct optdef *d)
{
	size_t i;

	owner(d, &i);
	return i;
}

int opt_given(const struct optset *set, const char *name)
{
	const struct optdef *d = opt_find(name);

	return d && set->given[opt_index(d)];
}

int opt_secret(const char *name)
{
	const struct optdef *d = opt_find(name);

	return d && (d->flags & OPTF_SECRET);
}

int opt_check_exclusive(const struct optset *set, char *err, size_t errlen)
{
	size_t g, i;

	for (g = 0; g < registry_ngroups; g++) {
		const char *const (*x)[3] = registry_groups[g]->exclusive;

		for (i = 0; x && x[i][0]; i++)
			if (opt_given(set, x[i][0]) && opt_given(set, x[i][1])) {
				snprintf(err, errlen, "--%s and --%s exclude each other (%s)", x[i][0],
					 x[i][1], x[i][2]);
				return -1;
			}
	}
	return 0;
}

const struct optdef *opt_find(const char *name)
{
	size_t i, n = opt_count();

	for (i = 0; i < n; i++)
		if (strcmp(opt_row(i)->name, name) == 0)
			return opt_row(i);
	return NULL;
}

const struct optdef *opt_find_letter(int letter)
{
	size_t i, n = opt_count();

	for (i = 0; letter && i < n; i++)
		if (opt_row(i)->letter == letter)
			return opt_row(i);
	return NULL;
}

/* "100us", "10s", "1d": the largest unit that divides the value. */
static void fmt_duration(char *out, size_t n, uint64_t ns)
{
	static const struct {
		const char *unit;
		uint64_t ns;
	} u[] = { { "d", 86400000000000ull }, { "h", 3600000000000ull }, { "m", 60000000000ull },
		  { "s", 1000000000ull }, { "ms", 1000000ull }, { "us", 1000ull }, { "ns", 1 } };
	size_t i;

	for (i = 0; i < sizeof(u) / sizeof(u[0]) - 1 && (ns < u[i].ns || ns % u[i].ns); i++)
		;
	snprintf(out, n, "%llu%s", (unsigned long long)(ns / u[i].ns), u[i].unit);
}

static void *field(const struct optdef *d, size_t off, struct harness_cfg *cfg,
		   struct bench_opts *opt)
{
	size_t i;

	if (d->target == IN_GROUP)
		return (char *)bench_group_opts(opt, owner(d, &i)) + off;
	return (d->target == IN_CFG ? (char *)cfg : (char *)opt) + off;
}

/* The number a value starts with (strtod: finite, no overflow), and where
 * its suffix begins: 0, or -1. */
static int leading_number(const char *val, double *r, char **end)
{
	errno = 0;
	*r = strtod(val, end);
	return *end == val || errno || *r != *r ? -1 : 0;
}

/* "a size from 64 KiB to 1 TiB", "a duration from 100us to 10s", ... */
static void range_text(const struct optdef *d, char *out, size_t n)
{
	char lo[32], hi[32];

	switch (d->type) {
	case OT_SIZE:
	case OT_SIZE_LIST:
		fmt_size(lo, sizeof(lo), (uint64_t)d->min);
		fmt_size(hi, sizeof(hi), (uint64_t)d->max);
		snprintf(out, n, "%s from %s to %s (512, 4k, 64M, 2G: k = 1024)",
			 d->type == OT_SIZE ? "a size" : "a comma-separated list of up to 8 sizes",
			 lo, hi);
		break;
	case OT_DURATION:
		fmt_duration(lo, sizeof(lo), (uint64_t)d->min);
		fmt_duration(hi, sizeof(hi), (uint64_t)d->max);
		snprintf(out, n, "a duration from %s to %s (500us, 10ms, 2s, 1m, 1h)", lo, hi);
		break;
	case OT_WARMUP:
		snprintf(out, n, "a count of repetitions from 0 to 1000, or a duration up to 1d "
			 "(500ms, 2s)");
		(void)lo;
		break;
	case OT_STEADY:
		snprintf(out, n, "KIND:PCT:DUR: KIND iops or bw (the operation's own figure), PCT from "
			 "0.1%% to 50%%, DUR from 1s to 1d (iops:1%%:30s)");
		break;
	case OT_LABEL:
		snprintf(out, n, "KEY=VALUE, KEY 1 to 32 of A-Z a-z 0-9 _ . -, VALUE at most 200 "
			 "printable bytes, each KEY once, up to %.0f labels", d->max);
		break;
	case OT_UINT_LIST:
		snprintf(out, n, "a comma-separated list of up to 8 whole numbers from %.0f to %.0f",
			 d->min, d->max);
		break;
	case OT_STRING:
		snprintf(out, n, "text of %.0f to %.0f bytes", d->min, d->max);
		break;
	case OT_PATH:
		snprintf(out, n, "a file name of %.0f to %.0f bytes", d->min, d->max);
		break;
	case OT_PERCENT:
		snprintf(out, n, "a percentage from %g%% to %g%% (2%%, 0.5%%)", d->min, d->max);
		break;
	case OT_RATE:
		snprintf(out, n, "a rate in bits/s from %.0f to %.0f (500k, 100M, 1.5G: k = 1000)",
			 d->min, d->max);
		break;
	default:
		snprintf(out, n, "a whole number from %.0f to %.0f", d->min, d->max);
		break;
	}
}

/* --steady KIND:PCT:WINDOW (fio's steadystate=): KIND iops or bw, PCT from
 * 0.1% to 50%, WINDOW at least 1 s and at most max ns. */
static int parse_steady(const char *val, double max, struct harness_cfg *cfg)
{
	char kind[8], *end;
	const char *c1 = strchr(val, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	double pct;
	uint64_t u;

	if (!c1 || !c2 || (size_t)(c1 - val) >= sizeof(kind))
		return -1;
	memcpy(kind, val, (size_t)(c1 - val));
	kind[c1 - val] = 0;
	if ((strcmp(kind, "iops") && strcmp(kind, "bw")) || leading_number(c1 + 1, &pct, &end) < 0)
		return -1;
	if (*end == '%')
		end++;
	if (end != c2 || pct < 0.1 || pct > 50 || parse_duration(c2 + 1, &u) < 0 || u < 1 * S ||
	    (double)u > max)
		return -1;
	cfg->ss_bound = pct / 100;
	cfg->ss_window_ns = u;
	return 0;
}

/* A number with at most one suffix from suffixes ("kKMG": k and K are 1e3,
 * M 1e6, G 1e9; "%": nothing), within d's range. */
static int parse_scaled(const char *val, const char *suffixes, const struct optdef *d, double *out)
{
	char *end;
	double r;

	if (leading_number(val, &r, &end) < 0)
		return -1;
	if (*end && strchr(suffixes, *end)) {
		r *= *end == 'k' || *end == 'K' ? 1e3 : *end == 'M' ? 1e6 : *end == 'G' ? 1e9 : 1;
		end++;
	}
	if (*end || r < d->min || r > d->max)
		return -1;
	*out = r;
	return 0;
}

int opt_parse(const struct optdef *d, const char *val, struct harness_cfg *cfg,
	      struct bench_opts *opt, char *err, size_t errlen)
{
	void *p = field(d, d->off, cfg, opt);
	char want[160];
	uint64_t u;
	long l, list[BENCH_MAX_LIST];
	double r;
	int k, i;

	switch (d->type) {
	case OT_FLAG:
		*(int *)p = 1;
		return 0;
	case OT_UINT:
		if (parse_uint(val, (long)d->min, (long)d->max, &l) < 0)
			break;
		*(int *)p = (int)l;
		return 0;
	case OT_SIZE:
		if (parse_size(val, &u) < 0 || (double)u < d->min || (double)u > d->max)
			break;
		*(uint64_t *)p = u;
		return 0;
	case OT_DURATION:
		if (parse_duration(val, &u) < 0 || (double)u < d->min || (double)u > d->max)
			break;
		*(uint64_t *)p = u;
		return 0;
	case OT_WARMUP:
		cfg->warmup_given = 1;
		if (parse_uint(val, 0, 1000, &l) == 0) {
			cfg->warmup_reps = (int)l;
			cfg->ramp_ns = 0;
			return 0;
		}
		if (parse_duration(val, &u) < 0 || (double)u > d->max)
			break;
		cfg->ramp_ns = u;
		cfg->warmup_reps = 0;
		return 0;
	case OT_STEADY:
		if (parse_steady(val, d->max, cfg) < 0)
			break;
		return 0;
	case OT_STRING:
	case OT_PATH:
		if (strlen(val) < d->min || strlen(val) > d->max)
			break;
		*(const char **)p = val;
		return 0;
	case OT_RATE:
		if (parse_scaled(val, "kKMG", d, &r) < 0)
			break;
		*(uint64_t *)p = (uint64_t)r;
		return 0;
	case OT_PERCENT:
		if (parse_scaled(val, "%", d, &r) < 0)
			break;
		*(double *)p = r / 100;
		return 0;
	case OT_LABEL: {
		const char **labels = p;
		int *count = field(d, d->off2, cfg, opt);
		size_t kl = strcspn(val, "=");

		if (*count >= (int)d->max || opt_label_ok(val, want, sizeof(want)) < 0)
			break;
		for (i = 0; i < *count; i++)
			if (strncmp(labels[i], val, kl + 1) == 0) {
				snprintf(err, errlen, "--label %.*s given twice", (int)kl, val);
				return -1;
			}
		labels[(*count)++] = val;
		return 0;
	}
	case OT_UINT_LIST:
		if ((k = parse_uint_list(val, (long)d->min, (long)d->max, list, BENCH_MAX_LIST)) < 0)
			break;
		for (i = 0; i < k; i++)
			((long *)p)[i] = list[i];
		*(int *)field(d, d->off2, cfg, opt) = k;
		return 0;
	case OT_SIZE_LIST:
		if ((k = parse_size_list(val, (uint64_t *)p, BENCH_MAX_LIST)) < 0)
			break;
		for (i = 0; i < k; i++)
			if ((double)((uint64_t *)p)[i] > d->max || (double)((uint64_t *)p)[i] < d->min)
				k = -1;
		if (k < 0)
			break;
		*(int *)field(d, d->off2, cfg, opt) = k;
		return 0;
	}
	range_text(d, want, sizeof(want));
	snprintf(err, errlen, "invalid value '%s' for --%s: expected %s", val, d->name, want);
	return -1;
}

int opt_label_ok(const char *kv, char *err, size_t errlen)
{
	size_t kl = strcspn(kv, "="), i;

	for (i = 0; i < kl; i++)
		if (!(isalnum((unsigned char)kv[i]) || strchr("_.-", kv[i])))
			break;
	if (kl == 0 || kl > 32 || i < kl || kv[kl] != '=') {
		snprintf(err, errlen, "a KEY=VALUE label, KEY 1 to 32 of A-Z a-z 0-9 _ . -");
		return -1;
	}
	for (i = kl + 1; kv[i]; i++)
		if ((unsigned char)kv[i] < 0x20 || kv[i] == 0x7f)
			break;
	if (kv[i] || i - kl - 1 > 200) {
		snprintf(err, errlen, "a KEY=VALUE label, VALUE at most 200 bytes without control "
			 "characters");
		return -1;
	}
	return 0;
}

int opt_defaults(const struct optset *set, int quick, struct harness_cfg *cfg,
		 struct bench_opts *opt)
{
	char err[256];
	size_t i, n = opt_count();

	for (i = 0; i < n; i++) {
		const struct optdef *d = opt_row(i);
		const char *v = quick && d->quick ? d->quick : d->def;

		if (set->given[i] || !v)
			continue;
		if (opt_parse(d, v, cfg, opt, err, sizeof(err)) < 0)
			return -1;	/* a bad default: a bug the unit test catches */
	}
	return 0;
}

int opt_read_by(const struct optdef *d, const struct bench *b)
{
	const char *r = d->readers;

	while (*r) {
		size_t n = strcspn(r, ",");

		if ((n == 1 && *r == '*') || (n == 5 && strncmp(r, "@long", 5) == 0 && b->long_mode) ||
		    (n == 5 && strncmp(r, "@loop", 5) == 0 && !b->long_mode) ||
		    (strncmp(b->id, r, n) == 0 && (b->id[n] == 0 || b->id[n] == '.')))
			return 1;
		r += n + (r[n] == ',');
	}
	return 0;
}

int opt_check_readers(const struct optset *set, const unsigned char *sel, char *err, size_t errlen)
{
	size_t i, j, n = opt_count();

	for (i = 0; i < n; i++) {
		const struct optdef *d = opt_row(i);
		int read = 0;

		if (!set->given[i])
			continue;
		for (j = 0; j < registry_count && !read; j++)
			read = sel[j] && opt_read_by(d, registry[j]);
		if (!read) {
			char who[300] = "";
			size_t n = 0, len = 0;

			for (j = 0; j < registry_count; j++) {
				if (!opt_read_by(d, registry[j]))
					continue;
				if (n++ < 6)
					len += (size_t)snprintf(who + len, sizeof(who) - len, "%s%s",
								n > 1 ? ", " : "", registry[j]->id);
			}
			if (n > 6)
				snprintf(who + len, sizeof(who) - len, " and %zu more", n - 6);
			if (n)
				snprintf(err, errlen, "--%s is not read by any benchmark selected; it is "
					 "read by %s", d->name, who);
			else
				snprintf(err, errlen, "--%s is not read by any benchmark in this build",
					 d->name);
			return -1;
		}
	}
	return 0;
}

int opt_check_resources(const struct optset *set, const unsigned char *sel,
			const struct bench_opts *opt, const char *parent, char *err, size_t errlen)
{
	struct harness_cfg cfg;
	struct bench_opts o = *opt;
	size_t i, j, n = opt_count();

	for (i = 0; i < n; i++) {
		const struct optdef *d = opt_row(i);
		uint64_t v, need, have;
		char a[32], b[32], c[32];
		int used = 0;

		if (!set->given[i] || d->res == RES_NONE || d->type != OT_SIZE)
			continue;
		for (j = 0; j < registry_count && !used; j++)
			used = sel[j] && opt_read_by(d, registry[j]);
		if (!used)
			continue;
		v = *(uint64_t *)field(d, d->off, &cfg, &o);
		need = v * (uint64_t)d->res_mult * (uint64_t)(opt->parallel > 0 ? opt->parallel : 1);
		if (d->res == RES_DISK ? os_fs_free(parent, &have) < 0 : os_mem_available(&have) < 0)
			continue;	/* unknown here: the benchmark checks again */
		if (need <= have)
			continue;
		fmt_size(a, sizeof(a), v);
		fmt_size(b, sizeof(b), need);
		fmt_size(c, sizeof(c), have);
		if (d->res == RES_DISK)
			snprintf(err, errlen, "--%s %s needs %s in %s, which has %s free", d->name, a, b,
				 parent, c);
		else
			snprintf(err, errlen, "--%s %s needs %s of memory%s, %s available", d->name, a, b,
				 opt->parallel > 1 ? " (one buffer per copy)" : "", c);
		return -1;
	}
	return 0;
}

/* Print text wrapped to 78 columns, continuation lines indented by 24. */
static void wrap(FILE *f, const char *text, int col)
{
	while (*text) {
		int n = (int)strlen(text), cut = n;

		if (col + n > 78) {
			for (cut = 78 - col; cut > 0 && text[cut] != ' '; cut--)
				;
			if (cut <= 0)
				cut = (int)strcspn(text, " ");
		}
		fprintf(f, "%.*s\n", cut, text);
		text += cut;
		while (*text == ' ')
			text++;
		if (*text)
			fprintf(f, "%24s", "");
		col = 24;
	}
}

/* An option only a test benchmark reads is not offered by the build
 * that lacks it. */
static int read_in_build(const struct optdef *d)
{
	size_t j;

	for (j = 0; j < registry_count; j++)
		if (opt_read_by(d, registry[j]))
			return 1;
	return 0;
}

void opt_print_help(FILE *f, const struct bench *b)
{
	static const char *const meta[] = { "N", "SIZE", "DUR", "", "LIST", "LIST", "N|DUR", "TEXT",
					     "RATE", "PCT", "PATH", "KEY=VAL", "SPEC" };
	size_t i, n = opt_count();

	for (i = 0; i < n; i++) {
		const struct optdef *d = opt_row(i);
		char text[600], def[80] = "", read[200] = "";

		if (b ? !opt_read_by(d, b) : !read_in_build(d))
			continue;
		if (d->def && d->quick)
			snprintf(def, sizeof(def), "; default %s, quick %s", d->def, d->quick);
		else if (d->def && d->type != OT_FLAG)
			snprintf(def, sizeof(def), "; default %s", d->def);
		else if (d->quick)
			snprintf(def, sizeof(def), "; quick %s", d->quick);
		if (!b)
			snprintf(read, sizeof(read), " [%s]",
				 strcmp(d->readers, "*") == 0 ? "all" :
				 strcmp(d->readers, "@loop") == 0 ? "calibrated loops" :
				 strcmp(d->readers, "@long") == 0 ? "long operations" : d->readers);
		snprintf(text, sizeof(text), "%s%s%s", d->help, def, read);
		if (d->letter)
			fprintf(f, "  -%c, --%s%s%-*s", d->letter, d->name, d->type == OT_FLAG ? "" : " ",
				(int)(16 - strlen(d->name) - (d->type != OT_FLAG)), meta[d->type]);
		else
			fprintf(f, "  --%s%s%-*s", d->name, d->type == OT_FLAG ? "" : " ",
				(int)(20 - strlen(d->name) - (d->type != OT_FLAG)), meta[d->type]);
		wrap(f, text, 24);
	}
}

int opt_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("bakeoff: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

int opt_bad_option(const char *verb, int c, const char *name)
{
	if (c == ':')
		return opt_usage_error("%s: option '%s' needs a value (see bakeoff %s --help)", verb, name, verb);
	return opt_usage_error("%s: unknown option '%s' (see bakeoff %s --help)", verb, name, verb);
}
