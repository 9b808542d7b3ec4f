/* main.c — the command line: verbs, options, exit codes. It only wires the
 * core, the benchmarks and the renderers together.
 * Exit status: 0 all went well, 1 a benchmark failed, 2 bad usage or
 * input, 130 interrupted (the finished results are still saved). */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "core/clock.h"
#include "core/fleet.h"
#include "core/guard.h"
#include "core/harness.h"
#include "core/options.h"
#include "core/out.h"
#include "core/registry.h"
#include "core/result.h"
#include "core/scratch.h"
#include "core/sysinfo.h"
#include "core/timecmd.h"
#include "core/units.h"
#include "net/server.h"
#include "report/compare.h"
#include "report/report.h"
#include "bench/disk.h"

#define EXIT_FAILED 1
#define EXIT_USAGE 2
#define EXIT_INTERRUPTED 130

#define usage_error opt_usage_error	/* one line on stderr, exit 2 */

static const char *const help_main =
	"usage: bakeoff VERB [options] [args]\n"
	"\n"
	"Measure this machine (CPU, memory, processes, IPC, ...) and compare fairly.\n"
	"\n"
	"verbs:\n"
	"  run [BENCH...]     run benchmarks (all when none named); writes a result file\n"
	"  list [BENCH...]    list benchmarks, their units and whether they can run here\n"
	"  report FILE        print a result file again (text, json, lmbench, ttcp)\n"
	"  chart FILE...      ASCII bar charts of result files (--metric ID...)\n"
	"  compare A B [...]  compare result files: ratios, 95% CIs, verdicts, fairness\n"
	"  sysinfo            describe this machine as a result file would\n"
	"  serve              be the network peer of `run net --peer HOST`\n"
	"  time -- COMMAND    time a command (csh time lines, medians, a result file)\n"
	"  fleet -H HOSTS -- run ...  the same run on many hosts over ssh, then compare\n"
	"  version            print the version and how bakeoff was built\n"
	"  help VERB          help on one verb (same as bakeoff VERB --help)\n"
	"\n"
	"BENCH is an id (mem.bw.copy), a prefix or group (mem.bw, mem), a personality\n"
	"(lmbench), or a comma-separated list of those.\n"
	"Exit status: 0 ok, 1 some benchmark failed or the output could not be written,\n"
	"2 usage error or bad input, 3 compare --strict refused unlike files, 130 interrupted.\n";

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

static void print_run_help(void)
{
	fputs(help_run, stdout);
	opt_print_help(stdout, NULL);
	fputs(help_units, stdout);
}

/* bakeoff help BENCH: what it measures and the options it reads. */
static int bench_help(const char *word)
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

static const char *const help_list =
	"usage: bakeoff list [BENCH...]\n"
	"\n"
	"List benchmarks: id, title, unit and whether each can run here (with the\n"
	"reason when it cannot). Personalities are listed at the end.\n";

static const char *const help_report =
	"usage: bakeoff report [--format FMT] [--all] FILE...\n"
	"\n"
	"Render result files again. --all adds to the text table every curve point\n"
	"and intermediate figure (mem.lat's curve, proc.ctxsw's uncorrected times, ...).\n"
	"A malformed, truncated or wrong-schema file exits 2 naming the byte offset;\n"
	"so does a file without the benchmark a format shows (ttcp: net.tcp.bw).\n"
	"FILE - reads standard input (bakeoff run -o - ... | bakeoff report -);\n"
	"anything else must be a regular file of at most 256 MiB. See docs/reports.md.\n"
	"\nFMT is one of:\n";

static void print_report_help(void)
{
	const struct report_format *f;

	fputs(help_report, stdout);
	for (f = report_formats; f->name; f++)
		printf("  %-10s %s%s\n", f->name, f->help, f->one_file ? " (one FILE)" : "");
}

static const char *const help_chart =	/* issue 12 */
	"usage: bakeoff chart [--metric ID]... FILE...\n"
	"\n"
	"Draw ASCII bar charts of result files, one symbol per file with a legend,\n"
	"within 80 columns: curves (disk.seq by block size, mem.lat by size) as\n"
	"vertical bars like the 2003 NetBSD report's, other figures as horizontal\n"
	"bars with their value and what limited them. --metric ID (repeatable)\n"
	"keeps benchmarks or figures whose id starts with ID (disk.seq,\n"
	"mem.lat:rand, mem.bw.read:frd); without it every main figure and curve.\n"
	"Same as bakeoff report --format chart. Exit 2 when nothing matches.\n";

static const char *const help_sysinfo =
	"usage: bakeoff sysinfo [--json]\n"
	"\n"
	"Describe this machine: OS, kernel, CPU, caches, memory, virtualization and\n"
	"how bakeoff was built. --json prints the \"host\" object of a result file.\n";

/* ---- serve (net) ---- */
static const char *const help_serve =
	"usage: bakeoff serve [--listen ADDR[:PORT]] [--once] [--token SECRET]\n"
	"                     [--max-clients N]\n"
	"\n"
	"Serve the network benchmarks of `bakeoff run net --peer HOST` (see\n"
	"docs/protocol.md). One line per test served goes to stderr; SIGTERM or\n"
	"SIGINT stops it cleanly.\n"
	"\n"
	"  --listen ADDR[:PORT]  numeric address to listen on (default 127.0.0.1:5511;\n"
	"                        IPv6 as [::1]:5511; 0.0.0.0 exposes it to the network)\n"
	"  --once                serve one client, then exit\n"
	"  --token SECRET        refuse clients that do not present SECRET\n"
	"                        (1 to 64 of A-Z a-z 0-9 . _ -)\n"
	"  --max-clients N       sessions at once, 1 to 256 (default 4); more are refused\n"
	"\n"
	"Exit status: 0 stopped by a signal (or --once done), 2 bad usage or the\n"
	"address cannot be listened on (in use, not local).\n";

static int cmd_serve(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "listen", required_argument, NULL, 'l' }, { "once", no_argument, NULL, 'o' },
		{ "token", required_argument, NULL, 't' }, { "max-clients", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	struct serve_cfg cfg = { "127.0.0.1:5511", NULL, 4, 0, stderr, -1, -1 };
	char err[300];
	long n;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h': fputs(help_serve, stdout); return 0;
		case 'l': cfg.listen = optarg; break;
		case 'o': cfg.once = 1; break;
		case 't':
			if (!proto_word_ok(optarg))
				return usage_error("invalid value for --token: expected 1 to 64 of "
						   "A-Z a-z 0-9 . _ -");
			cfg.token = optarg;
			break;
		case 'm':
			if (parse_uint(optarg, 1, 256, &n) < 0)
				return usage_error("invalid value '%s' for --max-clients: expected a "
						   "whole number from 1 to 256", optarg);
			cfg.max_clients = (int)n;
			break;
		case ':':
			return usage_error("serve: option '%s' needs a value (see bakeoff serve --help)",
					   argv[optind - 1]);
		default:
			return usage_error("serve: unknown option '%s' (see bakeoff serve --help)",
					   argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error("serve: unexpected argument '%s'", argv[optind]);
	setvbuf(stderr, NULL, _IOLBF, 0);
	if (net_serve(&cfg, err, sizeof(err)) < 0)
		return usage_error("%s", err);
	return 0;
}

static const char *const help_help =
	"usage: bakeoff help [VERB | BENCH]\n\nHelp on a verb (same as bakeoff VERB --help), or on one benchmark: what it\n"
	"measures and the options it reads.\n";

static const char *const help_version =
	"usage: bakeoff version\n\nPrint the version, compiler and flags bakeoff was built with.\n";

static const struct {
	const char *verb;
	const char *help;
} helps[] = {
	{ "run", NULL }, { "list", help_list }, { "report", NULL },
	{ "sysinfo", help_sysinfo }, { "version", help_version }, { "help", help_help },
	{ "serve", help_serve },
	{ "time", timecmd_help },
	{ "chart", help_chart },	/* issue 12 */
	{ "compare", compare_help },
	{ "fleet", fleet_help },
	{ NULL, NULL },
};

static const char *verb_help(const char *verb)
{
	int i;

	for (i = 0; helps[i].verb; i++)
		if (strcmp(helps[i].verb, verb) == 0)
			return helps[i].help;
	return NULL;
}


/* ---- run ---- */

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

static int cmd_run(int argc, char **argv)
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

/* ---- list ---- */

static int cmd_list(int argc, char **argv)
{
	const struct personality *pers;
	struct bench_opts opt = { .mem_size = 64 << 20, .parallel = 1 };
	unsigned char *sel = calloc(registry_count, 1);
	char err[512];
	size_t i;
	int k;

	if (!sel)
		return usage_error("out of memory");
	for (k = 1; k < argc; k++) {
		if (strcmp(argv[k], "-h") == 0 || strcmp(argv[k], "--help") == 0) {
			fputs(help_list, stdout);
			free(sel);
			return 0;
		}
		if (argv[k][0] == '-') {
			free(sel);
			return usage_error("list: unknown option '%s' (see bakeoff list --help)", argv[k]);
		}
	}
	if (registry_select(argc - 1, argv + 1, sel, &pers, err, sizeof(err)) < 0) {
		free(sel);
		return usage_error("%s", err);
	}
	printf("%-24s %-36s %-6s %s\n", "id", "title", "unit", "runs here");
	for (i = 0; i < registry_count; i++) {
		const struct bench *b = registry[i];
		struct bench_ctx ctx = { .b = b, .opt = &opt };

		if (!sel[i])
			continue;
		if (b->supported && b->supported(&ctx) < 0)
			printf("%-24s %-36s %-6s no: %s\n", b->id, b->title, b->unit,
			       ctx.reason[0] ? ctx.reason : "unsupported");
		else
			printf("%-24s %-36s %-6s yes\n", b->id, b->title, b->unit);
	}
	printf("\npersonalities:");
	for (k = 0; personalities[k].name; k++)
		printf(" %s (%s)", personalities[k].name, personalities[k].title);
	putchar('\n');
	free(sel);
	return 0;
}

/* ---- report ---- */

static int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct report_format *fmt = report_format_find("text");
	const struct result **ptrs;
	struct result *rs;
	char err[600];
	int c, k, n, rc = 0, all = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":haf:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h': print_report_help(); return 0;
		case 'a': all = 1; break;
		case 'f':
			if (!(fmt = report_format_find(optarg))) {
				report_format_names(err, sizeof(err));
				return usage_error("invalid value '%s' for --format: expected %s", optarg, err);
			}
			break;
		case ':':
			return usage_error("report: option '%s' needs a value (see bakeoff report --help)",
					   argv[optind - 1]);
		default:
			return usage_error("report: bad option '%s' (see bakeoff report --help)",
					   argv[optind - 1]);
		}
	}
	n = argc - optind;
	if (n < 1)
		return usage_error("report: expected a result FILE (see bakeoff report --help)");
	for (k = 0, c = 0; k < n; k++)
		c += strcmp(argv[optind + k], "-") == 0;
	if (c > 1)
		return usage_error("report: standard input (-) can be read only once");
	rs = calloc((size_t)n, sizeof(*rs));
	ptrs = calloc((size_t)n, sizeof(*ptrs));
	if (!rs || !ptrs) {
		free(rs), free(ptrs);
		return usage_error("out of memory");
	}
	for (k = 0; k < n && rc == 0; k++) {
		if (result_load(argv[optind + k], &rs[k], err, sizeof(err)) < 0)
			rc = usage_error("%s", err);
		ptrs[k] = &rs[k];
	}
	if (rc == 0 && report_format_check(fmt, ptrs, (const char *const *)argv + optind, (size_t)n, err,
					   sizeof(err)) < 0)
		rc = usage_error("%s", err);
	if (rc == 0)
		fmt->render(ptrs, (size_t)n, all, stdout);
	for (k = 0; k < n; k++)
		result_free(&rs[k]);
	free(rs);
	free(ptrs);
	return rc;
}

/* ---- chart (issue 12) ---- */

static int cmd_chart(int argc, char **argv)
{
	const char **ids = calloc((size_t)argc + 1, sizeof(*ids));
	const struct result **ptrs = calloc((size_t)argc + 1, sizeof(*ptrs));
	struct result *rs = calloc((size_t)argc + 1, sizeof(*rs));
	char err[600];
	int k, n = 0, nid = 0, rc = 0, stdin_used = 0;

	if (!ids || !ptrs || !rs) {
		free(ids), free(ptrs), free(rs);
		return usage_error("out of memory");
	}
	for (k = 1; k < argc && rc == 0; k++) {
		const char *a = argv[k];

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(help_chart, stdout);
			goto out;
		} else if (strcmp(a, "--metric") == 0 || strcmp(a, "-m") == 0) {
			if (k + 1 >= argc)
				rc = usage_error("chart: option '%s' needs a value (see bakeoff chart --help)", a);
			else
				ids[nid++] = argv[++k];
		} else if (strncmp(a, "--metric=", 9) == 0) {
			ids[nid++] = a + 9;
		} else if (a[0] == '-' && a[1]) {
			rc = usage_error("chart: bad option '%s' (see bakeoff chart --help)", a);
		} else {
			if (strcmp(a, "-") == 0 && stdin_used++)
				rc = usage_error("chart: standard input (-) can be read only once");
			else if (result_load(a, &rs[n], err, sizeof(err)) < 0)
				rc = usage_error("%s", err);
			else
				ptrs[n] = &rs[n], n++;
		}
	}
	if (rc == 0 && n == 0)
		rc = usage_error("chart: expected a result FILE (see bakeoff chart --help)");
	if (rc == 0 && report_chart(ptrs, (size_t)n, ids, (size_t)nid, stdout) == 0)
		rc = usage_error("chart: nothing to chart%s", nid ? ": no figure matches --metric" : "");
out:
	for (k = 0; k < n; k++)
		result_free(&rs[k]);
	free(ids), free(ptrs), free(rs);
	return rc;
}

/* ---- fleet ---- */

static const char *prog_name;	/* main's argv[0]: the file fleet --push copies */

static int cmd_fleet(int argc, char **argv)
{
	return fleet_main(argc, argv, prog_name);
}

/* ---- sysinfo, version ---- */

static int cmd_sysinfo(int argc, char **argv)
{
	struct sysinfo si;
	int json = 0, k;

	for (k = 1; k < argc; k++) {
		if (strcmp(argv[k], "-h") == 0 || strcmp(argv[k], "--help") == 0) {
			fputs(help_sysinfo, stdout);
			return 0;
		} else if (strcmp(argv[k], "--json") == 0) {
			json = 1;
		} else {
			return usage_error("sysinfo: unknown argument '%s' (see bakeoff sysinfo --help)",
					   argv[k]);
		}
	}
	sysinfo_read(&si);
	if (json) {
		struct buf b = { 0 };
		struct jw w;

		jw_init(&w, &b);
		jw_obj_begin(&w, NULL);
		sysinfo_write_json(&si, &w);
		jw_obj_end(&w);
		printf("%s\n", b.p);
		buf_free(&b);
	} else {
		sysinfo_print(&si, stdout);
	}
	return 0;
}

static int cmd_version(int argc, char **argv)
{
	struct sysinfo si;

	if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		fputs(help_version, stdout);
		return 0;
	}
	if (argc > 1)
		return usage_error("version: unexpected argument '%s'", argv[1]);
	sysinfo_read(&si);
	printf("bakeoff %s\ncompiler %s\ncflags %s\n", si.version, si.compiler, si.cflags);
	return 0;
}

static int dispatch(int argc, char **argv)
{
	static const struct {
		const char *verb;
		int (*fn)(int, char **);
	} verbs[] = {
		{ "run", cmd_run }, { "list", cmd_list }, { "report", cmd_report },
		{ "sysinfo", cmd_sysinfo }, { "version", cmd_version }, { "serve", cmd_serve },
		{ "time", timecmd_main },
		{ "chart", cmd_chart },	/* issue 12 */
		{ "compare", compare_main },
		{ "fleet", cmd_fleet },
		{ NULL, NULL },
	};
	int i;

	if (argc < 2) {
		fputs(help_main, stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		fputs(help_main, stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)
		return cmd_version(1, argv);
	if (strcmp(argv[1], "help") == 0) {
		const char *h;

		if (argc < 3) {
			fputs(help_main, stdout);
			return 0;
		}
		if (strcmp(argv[2], "run") == 0) {
			print_run_help();
			return 0;
		}
		if (strcmp(argv[2], "report") == 0) {
			print_report_help();
			return 0;
		}
		h = verb_help(argv[2]);
		if (h) {
			fputs(h, stdout);
			return 0;
		}
		if (bench_help(argv[2]) == 0)
			return 0;
		return usage_error("help: '%s' is neither a verb (run list report chart compare fleet sysinfo serve time version help) "
				   "nor a benchmark id (bakeoff list)", argv[2]);
	}
	for (i = 0; verbs[i].verb; i++)
		if (strcmp(argv[1], verbs[i].verb) == 0)
			return verbs[i].fn(argc - 1, argv + 1);
	return usage_error("unknown verb '%s' (verbs: run list report chart compare fleet sysinfo serve time version; "
			   "see bakeoff --help)", argv[1]);
}

int main(int argc, char **argv)
{
	prog_name = argv[0];
	return out_finish(dispatch(argc, argv));
}
