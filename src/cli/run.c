/* run.c — `bakeoff run`: its options (the fixed ones here, the benchmarks'
 * from the options table), the run itself — claim the result file, make
 * the scratch directories, measure every selected benchmark in a process
 * of its own with a progress line, save after each, render the table —
 * and `bakeoff help BENCH`. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli.h"
#include "core/clock.h"
#include "core/guard.h"
#include "core/harness.h"
#include "core/options.h"
#include "core/registry.h"
#include "core/result.h"
#include "core/scratch.h"
#include "core/sysinfo.h"
#include "core/units.h"
#include "net/server.h"
#include "report/report.h"
#include "bench/disk.h"

static const char *const help_run =
	"usage: bakeoff run [options] [BENCH...]\n"
	"\n"
	"Run the named benchmarks (all when none), print a table on stdout and save\n"
	"the result to results/HOST-UTCTIME.json (the file is claimed before anything\n"
	"is measured and updated as each benchmark finishes).\n"
	"\n"
	"  -o, --output FILE     write the result here ('-' = JSON on stdout, no table);\n"
	"                        an existing file is never overwritten\n"
	"  -q, --quiet           no progress lines on stderr\n"
	"      --progress        plain progress lines on stderr even when it is not a\n"
	"                        terminal: 'bakeoff: progress K/N ID running', then\n"
	"                        '... ID STATUS' (bakeoff fleet reads them over ssh)\n"
	"      --quick           small sizes and short samples (a smoke run)\n"
	"      --runs K          run each benchmark K times (2 to 100), each in a fresh\n"
	"                        process, interleaved (all benchmarks once, then again);\n"
	"                        the result keeps every run's median and CV, and compare\n"
	"                        judges differences by the between-run spread\n"
	"      --dir DIR[,DIR]   make the scratch directory under DIR (default $TMPDIR or /tmp);\n"
	"                        the disk benchmarks write in a scratch directory under each\n"
	"                        DIR of the list (default: the current directory)\n"
	"\n"
	"Options read by benchmarks (an option no selected benchmark reads is an error;\n"
	"bakeoff help BENCH lists one benchmark's):\n";

static const char *const help_units =
	"\nSIZE is a whole number of bytes with an optional binary suffix: 512, 4k, 1M,\n"
	"2G, 1T (k = 1024). DUR is a number with a unit: 500us, 10ms, 2s, 1m, 1h.\n";

void print_run_help(void)
{
	fputs(help_run, stdout);
	opt_print_help(stdout, NULL);
	fputs(help_units, stdout);
}


/* bakeoff help BENCH: what it measures and the options it reads. */
int bench_help(const char *word)
{
	const struct bench *b = registry_find(word);

	if (!b)
		return -1;
	printf("%s — %s\n\nunit: %s (%s is better); group %s; measured by %s\n\noptions:\n",
	       b->id, b->title, b->unit, b->better == BETTER_HIGHER ? "higher" : "lower", b->group,
	       b->long_mode ? "repetitions of a long operation" : "the calibrated loop");
	opt_print_help(stdout, b);
	fputs(help_units, stdout);
	return 0;
}


struct run_args {
	const char *output;
	const char *dir;	/* the first --dir entry: the run's scratch parent */
	const char *dirlist;	/* the whole --dir list (disk) */
	char dir0[4096];
	int quiet, quick;
	int lines;		/* --progress: plain lines for a program (fleet) */
	int runs;		/* --runs K (0: once) */
	struct harness_cfg cfg;
	struct bench_opts opt;
	struct optset set;
};

enum { OPT_QUICK = 256, OPT_DIR, OPT_RUNS, OPT_PROGRESS, OPT_TABLE };

static int parse_run_args(int argc, char **argv, struct run_args *a)
{
	static const struct option fixed[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "quick", no_argument, NULL, OPT_QUICK },
		{ "dir", required_argument, NULL, OPT_DIR },
		{ "runs", required_argument, NULL, OPT_RUNS },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
	};
	struct option longopts[sizeof(fixed) / sizeof(fixed[0]) + 128];
	size_t i, nf = sizeof(fixed) / sizeof(fixed[0]);
	char err[400];
	int c, idx;

	for (i = 0; i < nf; i++)
		longopts[i] = fixed[i];
	for (i = 0; i < noptdefs; i++) {
		longopts[nf + i].name = optdefs[i].name;
		longopts[nf + i].has_arg = optdefs[i].type == OT_FLAG ? no_argument : required_argument;
		longopts[nf + i].flag = NULL;
		longopts[nf + i].val = OPT_TABLE + (int)i;
	}
	memset(&longopts[nf + noptdefs], 0, sizeof(longopts[0]));
	harness_default_cfg(&a->cfg);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:qh", longopts, &idx)) != -1) {
		const char *name = optind > 0 && optind <= argc ? argv[optind - 1] : "?";

		switch (c) {
		case 'o':
			if (!*optarg)
				return usage_error("-o: expected a file name, or '-' for stdout");
			a->output = optarg;
			break;
		case 'q': a->quiet = 1; break;
		case 'h': print_run_help(); return -1;
		case OPT_QUICK: a->quick = 1; break;
		case OPT_PROGRESS: a->lines = 1; break;
		case OPT_DIR:
			if (!*optarg)
				return usage_error("--dir: expected a directory");
			a->dirlist = optarg;
			snprintf(a->dir0, sizeof(a->dir0), "%.*s", (int)strcspn(optarg, ","), optarg);
			a->dir = a->dir0;
			break;
		case OPT_RUNS: {
			long k;

			if (parse_uint(optarg, 2, 100, &k) < 0)
				return usage_error("invalid value '%s' for --runs: expected a whole number "
						   "from 2 to 100", optarg);
			a->runs = (int)k;
			break;
		}
		case ':':
			return usage_error("run: option '%s' needs a value (see bakeoff run --help)", name);
		case '?':
			return usage_error("run: unknown option '%s' (see bakeoff run --help)", name);
		default:
			i = (size_t)(c - OPT_TABLE);
			if (opt_parse(&optdefs[i], optarg, &a->cfg, &a->opt, err, sizeof(err)) < 0)
				return usage_error("%s", err);
			a->set.given[i] = 1;
			break;
		}
	}
	if (opt_check_exclusive(&a->set, err, sizeof(err)) < 0)
		return usage_error("%s", err);
	opt_defaults(&a->set, a->quick, &a->cfg, &a->opt);
	a->opt.quick = a->quick;
	a->cfg.max_samples = 3 * a->cfg.samples;	/* the adaptive ceiling */
	/* --ci-target: sample until the interval is narrow enough or the
	 * budget (calibration and samples of one figure) is spent */
	if (a->set.given[opt_find("ci-target") - optdefs]) {
		uint64_t fit = a->cfg.budget_ns / (a->cfg.target_ns ? a->cfg.target_ns : 1);

		a->cfg.ci_target_given = 1;
		a->cfg.max_samples = fit > 100000 ? 100000 : (int)fit;
		if (a->cfg.max_samples < 3 * a->cfg.samples)
			a->cfg.max_samples = 3 * a->cfg.samples;
	}
	if (a->set.given[opt_find("budget") - optdefs])
		a->cfg.long_budget_ns = a->cfg.budget_ns;
	return 0;
}

/* One line per benchmark on a terminal: while it runs, its number and the
 * estimated time left (eta_left); when it is done, the line is rewritten
 * with its main figure and how long it took. */
static void progress(const struct run_args *a, int tty, size_t k, size_t total,
		     const struct bench_result *br, const char *id, double left)
{
	if (a->lines) {	/* one whole line per event, for a program to read */
		if (br)
			fprintf(stderr, "bakeoff: progress %zu/%zu %s %s\n", k + 1, total, id,
				status_name(br->status));
		else
			fprintf(stderr, "bakeoff: progress %zu/%zu %s running\n", k + 1, total, id);
		fflush(stderr);
		return;
	}
	if (a->quiet || !tty)
		return;
	if (!br) {
		fprintf(stderr, "[%zu/%zu] %-26s ... about %.0f s left", k + 1, total, id, left);
		fflush(stderr);
		return;
	}
	fprintf(stderr, "\r\033[K[%zu/%zu] %-26s", k + 1, total, id);
	if (br->status == ST_OK && br->nmetrics) {
		char v[32];

		fmt_num(v, sizeof(v), br->metrics[0].st.median);
		fprintf(stderr, " %10s %-5s", v, br->metrics[0].unit);
	} else {
		fprintf(stderr, " %s", status_name(br->status));
	}
	fprintf(stderr, " (%.1f s)\n", br->wall_s);
}

/* The selected benchmarks measured together with selected benchmark i,
 * in registry order, into mem: i's family when two or more of it are
 * selected (see struct bench's family_run), else i alone. Returns how many. */
static size_t family_of(const unsigned char *sel, size_t i, size_t *mem)
{
	const struct bench *b = registry[i];
	size_t j, n = 0;

	for (j = 0; b->family_run && j < registry_count && n < 32; j++)
		if (sel[j] && registry[j]->family_run == b->family_run)
			mem[n++] = j;
	if (n < 2) {
		mem[0] = i;
		n = 1;
	}
	return n;
}

/* A family's benchmarks, measured in one process: one result whose
 * figures and params result_take_member() hands to each. */
static const struct bench *family_lead;
static unsigned family_members;

static int family_trampoline(struct bench_ctx *ctx)
{
	return family_lead->family_run(ctx, family_members);
}

static void run_family(struct harness *h, const struct bench_opts *opt, const size_t *mem, size_t nmem,
		       struct bench_result *fam)
{
	const struct bench *b = registry[mem[0]];
	struct bench fb = { .id = b->family, .group = b->group, .title = b->family, .unit = b->unit,
			    .better = b->better, .kind = b->kind, .run = family_trampoline };
	size_t j, m, pos = 0;

	family_members = 0;
	family_lead = b;
	/* bit: the member's place among all of its family's benchmarks */
	for (j = 0, m = 0; j < registry_count; j++)
		if (registry[j]->family_run == b->family_run) {
			if (m < nmem && mem[m] == j) {
				family_members |= 1u << pos;
				m++;
			}
			pos++;
		}
	fam->id = strdup(fb.id);
	fam->group = strdup(fb.group);
	fam->title = strdup(fb.title);
	harness_run_isolated(h, &fb, opt, fam);
}

/* The directory the scratch directory goes under, as scratch_create()
 * chooses it, for messages and the free-space check. */
static const char *scratch_parent(const char *dir)
{
	const char *t = getenv("TMPDIR");

	return dir && *dir ? dir : t && *t ? t : "/tmp";
}

/* Save the result as it stands (marked incomplete: the run goes on), over
 * the file this run claimed; result_deliver saves the final one. */
static int save_now(struct result *r, const char *path, char *err, size_t errlen)
{
	struct buf json = { 0 };
	int rc;

	r->incomplete = 1;
	result_to_json(r, &json);
	rc = result_update(&json, path, err, errlen);
	buf_free(&json);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct run_args a = { 0 };
	struct harness h;
	struct result r = { 0 }, back;
	const struct personality *pers;
	unsigned char *sel;
	char err[600], path[4096], prefix[300];
	struct buf json = { 0 };
	size_t i, k, total = 0, off;
	uint64_t t0;
	int rc, failed = 0, memory = 0, net = 0, tty = isatty(STDERR_FILENO), to_stdout, run, nruns;
	int oom = 0;
	const char *parent;
	time_t start;
	struct eta eta = { 0 };

	if ((rc = parse_run_args(argc, argv, &a)) != 0)
		return rc < 0 ? 0 : rc;
	sel = calloc(registry_count, 1);
	if (!sel)
		return usage_error("out of memory");
	parent = scratch_parent(a.dir);
	if (registry_select(argc - optind, argv + optind, sel, &pers, err, sizeof(err)) < 0 ||
	    opt_check_readers(&a.set, sel, err, sizeof(err)) < 0 ||
	    opt_check_resources(&a.set, sel, &a.opt, parent, err, sizeof(err)) < 0) {
		free(sel);
		return usage_error("%s", err);
	}
	if (a.opt.disk_file_min > a.opt.disk_file_max) {
		char lo[32], hi[32];

		free(sel);
		fmt_size(lo, sizeof(lo), a.opt.disk_file_min);
		fmt_size(hi, sizeof(hi), a.opt.disk_file_max);
		return usage_error("--file-min %s is above --file-max %s", lo, hi);
	}
	for (i = 0; i < registry_count; i++) {
		total += sel[i];
		/* --mem-size sets the memory benchmarks' buffers; STREAM's arrays
		 * grow to 4x the LLC by themselves, except with --quick */
		if (sel[i] && strcmp(registry[i]->group, "mem") == 0 &&
		    (a.opt.quick || strncmp(registry[i]->id, "mem.stream.", 11) != 0))
			memory = 1;
		net |= sel[i] && strcmp(registry[i]->group, "net") == 0;
	}
	/* net: the peer answers (or the run's own server is up) before anything
	 * is measured; an unreachable peer or a refused token is a usage error. */
	if (net && net_run_begin(&a.opt, err, sizeof(err)) < 0) {
		free(sel);
		return usage_error("%s", err);
	}
	sysinfo_read(&r.host);
	/* Where the result goes is settled (and claimed) before anything is
	 * measured: a name that cannot be written is a usage error. The file's
	 * name and run.start are the same second. */
	start = time(NULL);
	to_stdout = a.output && strcmp(a.output, "-") == 0;
	if (!to_stdout && result_claim_output(a.output, r.host.hostname, NULL, start, path, sizeof(path),
					      err, sizeof(err)) < 0) {
		free(sel);
		return usage_error("%s", err);
	}
	scratch_reap_stale(a.dir);	/* left by runs that were killed */
	if (!scratch_create(a.dir)) {
		rc = usage_error("cannot create a scratch directory under %s: %s", parent,
				 strerror(errno));
		result_unclaim(to_stdout ? NULL : path);
		free(sel);
		return rc;
	}
	a.opt.scratch = scratch_path();
	a.opt.host = &r.host;
	/* disk: a scratch directory under each --dir entry, room checked */
	if (disk_prepare(&a.opt, a.dirlist, sel, err, sizeof(err)) < 0) {
		scratch_remove();
		result_unclaim(to_stdout ? NULL : path);
		free(sel);
		return usage_error("%s", err);
	}
	scratch_signals();
	if (!a.quiet && tty)
		fprintf(stderr, "bakeoff: measuring the clock and loop overhead...\n");
	a.cfg.progress = !a.quiet && tty;
	a.cfg.progress_prefix = prefix;
	harness_init(&h, &a.cfg);
	guard_check(&r.guard, &r.host, &a.opt, memory);
	disk_guard(&r.guard, &a.opt);
	r.argv = calloc((size_t)argc + 2, sizeof(char *));
	for (i = 0; r.argv && i <= (size_t)argc && (r.argv[i] = strdup(i ? argv[i - 1] : "bakeoff"));
	     i++)
		r.argc++;
	for (i = 1; r.argv && i < (size_t)r.argc; i++) {	/* net: no secret in the result */
		int eq = strncmp(r.argv[i], "--token=", 8) == 0;

		if (eq || (strcmp(r.argv[i], "--token") == 0 && ++i < (size_t)r.argc)) {
			free(r.argv[i]);
			r.argv[i] = strdup(eq ? "--token=(hidden)" : "(hidden)");
		}
	}
	r.profile = strdup(a.quick ? "quick" : "standard");
	result_utc_format(start, err, sizeof(err), "%Y-%m-%dT%H:%M:%SZ");
	r.start_utc = strdup(err);
	if (!r.argv || r.argc != argc + 1 || !r.profile || !r.start_utc) {
		scratch_remove();
		result_unclaim(to_stdout ? NULL : path);
		free(sel);
		result_free(&r);
		return usage_error("out of memory");
	}
	r.parallel = a.opt.parallel;
	r.clock = h.clk;
	r.loop_ns = h.loop_ns;
	r.target_sample_ns = (double)a.cfg.target_ns;
	r.samples = a.cfg.samples;
	r.ci_target = a.cfg.ci_target_given ? a.cfg.ci_target : 0;
	if (!to_stdout && save_now(&r, path, err, sizeof(err)) < 0) {
		scratch_remove();
		result_unclaim(path);
		free(sel);
		result_free(&r);
		return usage_error("cannot write the result: %s", err);
	}
	t0 = clock_ns();
	/* --runs K: every selected benchmark once, then again, K rounds, each
	 * run in a fresh process; result_merge_run folds them together. */
	nruns = a.runs > 1 ? a.runs : 1;
	r.runs = nruns;
	total *= (size_t)nruns;
	eta.est = calloc(registry_count, sizeof(double));
	eta.cls = calloc(registry_count, 1);
	for (i = 0; eta.est && eta.cls && i < registry_count; i++)
		if (sel[i])
			eta_add(&eta, i, harness_estimate(registry[i], &a.opt, &a.cfg),
				harness_estimate_class(registry[i]), nruns);
	for (run = 1, k = 0; run <= nruns && !scratch_interrupted() && !oom; run++)
	for (i = 0; i < registry_count && !scratch_interrupted() && !oom; i++) {
		const struct bench *b = registry[i];
		struct bench_result fam = { 0 };
		struct guard_mark mark;
		size_t mem[32], nmem, m;

		if (!sel[i])
			continue;
		nmem = family_of(sel, i, mem);
		if (mem[0] != i)
			continue;	/* measured with its family */
		progress(&a, tty, k, total, NULL, nmem > 1 ? b->family : b->id,
			 eta_left(&eta));
		snprintf(prefix, sizeof(prefix), "[%zu/%zu] %s", k + 1, total, nmem > 1 ? b->family : b->id);
		guard_mark(&mark);
		if (nmem > 1)
			run_family(&h, &a.opt, mem, nmem, &fam);
		for (m = 0; m < nmem; m++) {
			const struct bench *bm = registry[mem[m]];
			struct bench_result *br, one = { 0 }, *shown;

			br = run == 1 ? result_add_bench(&r, bm->id, bm->group, bm->title)
				      : (struct bench_result *)result_bench(&r, bm->id);
			if (!br) {
				oom = 1;
				break;
			}
			shown = br;
			if (nruns > 1) {
				one.id = strdup(bm->id);
				one.group = strdup(bm->group);
				one.title = strdup(bm->title);
				shown = &one;
			}
			if (nmem == 1)
				harness_run_isolated(&h, bm, &a.opt, shown);
			else if (result_take_member(&fam, strrchr(bm->id, '.') + 1, (int)nmem, shown) < 0)
				result_set_status(shown, ST_FAILED, "out of memory");
			if (nruns > 1 && result_merge_run(br, &one, run) < 0)
				result_set_status(br, ST_FAILED, "out of memory merging runs");
			/* not for disk (the kernel's writeback threads work for it) nor
			 * against the run's own net server (a process of this run) */
			if (strcmp(bm->group, "disk") && !(a.opt.net_embedded && strcmp(bm->group, "net") == 0)) {
				size_t from = r.guard.nfindings;

				guard_during(&r.guard, &mark, shown, r.host.threads);
				guard_explain(&r.guard, from, br);
			}
			if (eta.est && eta.cls)
				eta_done(&eta, mem[m], shown->wall_s);
			progress(&a, tty, k++, total, shown, bm->id, 0);
			if (shown->status == ST_FAILED)
				failed = 1;
			result_bench_free(&one);
			r.duration_s = (double)(clock_ns() - t0) / 1e9;
			/* Each finished benchmark is in the file at once: a run killed
			 * now still leaves a valid result (marked incomplete). */
			if (!to_stdout && !scratch_interrupted() &&	/* else the final save is next */
			    save_now(&r, path, err, sizeof(err)) < 0)
				fprintf(stderr, "bakeoff: cannot update the result: %s\n", err);
		}
		result_bench_free(&fam);
	}
	scratch_remove();
	r.duration_s = (double)(clock_ns() - t0) / 1e9;
	r.interrupted = scratch_interrupted();
	free(sel);
	free(eta.est);
	free(eta.cls);

	/* The table is rendered from the JSON text, exactly as `report` would. */
	r.incomplete = 0;
	result_to_json(&r, &json);
	if (!to_stdout) {
		if (result_from_json(json.p, json.len, &back, &off, err, sizeof(err)) == 0) {
			const struct result *one = &back;
			const struct report_format *fmt = report_format_find(pers ? pers->format : "text");

			(fmt ? fmt : report_formats)->render(&one, 1, 0, stdout);	/* [0]: text */
			result_free(&back);
		} else {
			fprintf(stderr, "bakeoff: internal error: result does not read back: byte %zu: %s\n",
				off, err);
			failed = 1;
		}
	}
	failed |= result_deliver(&r, &json, to_stdout ? NULL : path, NULL, NULL) < 0;
	rc = r.interrupted ? EXIT_INTERRUPTED : failed ? EXIT_FAILED : 0;
	buf_free(&json);
	result_free(&r);
	return rc;
}

