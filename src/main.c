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
#include "core/guard.h"
#include "core/harness.h"
#include "core/registry.h"
#include "core/result.h"
#include "core/scratch.h"
#include "core/sysinfo.h"
#include "core/units.h"
#include "report/report.h"

#define EXIT_FAILED 1
#define EXIT_USAGE 2
#define EXIT_INTERRUPTED 130

static int usage_error(const char *fmt, ...) BAKEOFF_PRINTF(1, 2);
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("bakeoff: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

static const char *const help_main =
	"usage: bakeoff VERB [options] [args]\n"
	"\n"
	"Measure this machine (CPU, memory, processes, IPC, ...) and compare fairly.\n"
	"\n"
	"verbs:\n"
	"  run [BENCH...]     run benchmarks (all when none named); writes a result file\n"
	"  list [BENCH...]    list benchmarks, their units and whether they can run here\n"
	"  report FILE        print a result file again (text, json or lmbench format)\n"
	"  sysinfo            describe this machine as a result file would\n"
	"  version            print the version and how bakeoff was built\n"
	"  help VERB          help on one verb (same as bakeoff VERB --help)\n"
	"\n"
	"BENCH is an id (mem.bw.copy), a prefix or group (mem.bw, mem), a personality\n"
	"(lmbench), or a comma-separated list of those.\n"
	"Exit status: 0 ok, 1 some benchmark failed, 2 usage error or bad input,\n"
	"130 interrupted.\n";

static const char *const help_run =
	"usage: bakeoff run [options] [BENCH...]\n"
	"\n"
	"Run the named benchmarks (all when none), print a table on stdout and save\n"
	"the result to results/HOST-UTCTIME.json.\n"
	"\n"
	"  -o, --output FILE     write the result here ('-' = JSON on stdout, no table);\n"
	"                        an existing file is never overwritten\n"
	"  -q, --quiet           no progress lines on stderr\n"
	"      --quick           small sizes and short samples (a smoke run)\n"
	"      --samples N       samples per figure, at least (default 11)\n"
	"      --sample-time DUR minimum length of one sample (default 10ms, quick 2ms)\n"
	"      --budget DUR      time bound of calibration and extra samples (default 5s,\n"
	"                        quick 1s); the minimum --samples always run\n"
	"      --mem-size SIZE   memory benchmarks' buffer (default 64M, quick 16M)\n"
	"      --msg-size SIZE   IPC bandwidth transfer size (default 64k)\n"
	"      --map-size SIZE   file size of VM benchmarks (default 8M, quick 1M)\n"
	"      --parallel N      run N copies of each benchmark at once (default 1)\n"
	"      --procs LIST      context-switch ring sizes (default 2,4,8,16)\n"
	"      --ctx-sizes LIST  context-switch working sets (default 0,16k,64k)\n"
	"      --pin             pin context-switch rings and IPC latency pairs to one CPU\n"
	"      --dir DIR         make the scratch directory under DIR (default $TMPDIR or /tmp)\n"
	"\n"
	"SIZE is a whole number of bytes with an optional binary suffix: 512, 4k, 1M,\n"
	"2G, 1T (k = 1024). DUR is a number with a unit: 500us, 10ms, 2s, 1m, 1h.\n";

static const char *const help_list =
	"usage: bakeoff list [BENCH...]\n"
	"\n"
	"List benchmarks: id, title, unit and whether each can run here (with the\n"
	"reason when it cannot). Personalities are listed at the end.\n";

static const char *const help_report =
	"usage: bakeoff report [--format FMT] [--all] FILE...\n"
	"\n"
	"Render result files again. FMT is text (the table the run printed, default),\n"
	"json (one file, re-serialized) or lmbench (the lmbench 3 summary, one row\n"
	"per file). --all adds to the text table every curve point and intermediate\n"
	"figure (mem.lat's curve, proc.ctxsw's uncorrected times, ...).\n"
	"A malformed, truncated or wrong-schema file exits 2 naming the byte offset.\n"
	"FILE - reads standard input (bakeoff run -o - ... | bakeoff report -);\n"
	"anything else must be a regular file of at most 256 MiB.\n";

static const char *const help_sysinfo =
	"usage: bakeoff sysinfo [--json]\n"
	"\n"
	"Describe this machine: OS, kernel, CPU, caches, memory, virtualization and\n"
	"how bakeoff was built. --json prints the \"host\" object of a result file.\n";

static const char *const help_version =
	"usage: bakeoff version\n\nPrint the version, compiler and flags bakeoff was built with.\n";

static const struct {
	const char *verb;
	const char *help;
} helps[] = {
	{ "run", help_run }, { "list", help_list }, { "report", help_report },
	{ "sysinfo", help_sysinfo }, { "version", help_version }, { NULL, NULL },
};

static const char *verb_help(const char *verb)
{
	int i;

	for (i = 0; helps[i].verb; i++)
		if (strcmp(helps[i].verb, verb) == 0)
			return helps[i].help;
	return NULL;
}

static int render(const char *format, struct result *rs, int n, int all, FILE *f);

/* ---- run ---- */

struct run_args {
	const char *output;
	const char *dir;
	int quiet, quick;
	struct harness_cfg cfg;
	struct bench_opts opt;
	int set_samples, set_sample_time, set_budget, set_mem, set_map;
};

enum {
	OPT_QUICK = 256, OPT_SAMPLES, OPT_SAMPLE_TIME, OPT_BUDGET, OPT_MEM_SIZE, OPT_MSG_SIZE,
	OPT_MAP_SIZE, OPT_PARALLEL, OPT_PROCS, OPT_CTX_SIZES, OPT_PIN, OPT_DIR,
};

static int bad_value(const char *opt, const char *val, const char *want)
{
	return usage_error("invalid value '%s' for %s: expected %s", val, opt, want);
}

static int parse_size_opt(const char *opt, const char *val, uint64_t min, uint64_t *out)
{
	if (parse_size(val, out) < 0 || *out < min)
		return bad_value(opt, val, "a size such as 512, 4k, 64M or 2G (binary units)");
	return 0;
}

static int parse_dur_opt(const char *opt, const char *val, uint64_t *out)
{
	if (parse_duration(val, out) < 0 || *out == 0)
		return bad_value(opt, val, "a duration such as 500us, 10ms, 2s or 1m");
	return 0;
}

static int parse_run_args(int argc, char **argv, struct run_args *a)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "quick", no_argument, NULL, OPT_QUICK },
		{ "samples", required_argument, NULL, OPT_SAMPLES },
		{ "sample-time", required_argument, NULL, OPT_SAMPLE_TIME },
		{ "budget", required_argument, NULL, OPT_BUDGET },
		{ "mem-size", required_argument, NULL, OPT_MEM_SIZE },
		{ "msg-size", required_argument, NULL, OPT_MSG_SIZE },
		{ "map-size", required_argument, NULL, OPT_MAP_SIZE },
		{ "parallel", required_argument, NULL, OPT_PARALLEL },
		{ "procs", required_argument, NULL, OPT_PROCS },
		{ "ctx-sizes", required_argument, NULL, OPT_CTX_SIZES },
		{ "pin", no_argument, NULL, OPT_PIN },
		{ "dir", required_argument, NULL, OPT_DIR },
		{ NULL, 0, NULL, 0 },
	};
	long v, list[BENCH_MAX_LIST];
	int c, i, rc;

	harness_default_cfg(&a->cfg);
	a->opt.mem_size = 64 << 20;
	a->opt.msg_size = 64 << 10;
	a->opt.map_size = 8 << 20;
	a->opt.parallel = 1;
	a->opt.nprocs = 4;
	a->opt.procs[0] = 2, a->opt.procs[1] = 4, a->opt.procs[2] = 8, a->opt.procs[3] = 16;
	a->opt.nctx_sizes = 3;
	a->opt.ctx_sizes[0] = 0, a->opt.ctx_sizes[1] = 16 << 10, a->opt.ctx_sizes[2] = 64 << 10;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:qh", longopts, NULL)) != -1) {
		const char *name = optind > 0 && optind <= argc ? argv[optind - 1] : "?";

		rc = 0;
		switch (c) {
		case 'o': a->output = optarg; break;
		case 'q': a->quiet = 1; break;
		case 'h': fputs(help_run, stdout); return -1;
		case OPT_QUICK: a->quick = 1; break;
		case OPT_SAMPLES:
			if (parse_uint(optarg, 1, 1000, &v) < 0)
				return bad_value("--samples", optarg, "a whole number from 1 to 1000");
			a->cfg.samples = (int)v;
			a->set_samples = 1;
			break;
		case OPT_SAMPLE_TIME:
			rc = parse_dur_opt("--sample-time", optarg, &a->cfg.target_ns);
			a->set_sample_time = 1;
			break;
		case OPT_BUDGET:
			rc = parse_dur_opt("--budget", optarg, &a->cfg.budget_ns);
			a->set_budget = 1;
			break;
		case OPT_MEM_SIZE:
			rc = parse_size_opt("--mem-size", optarg, 4096, &a->opt.mem_size);
			a->set_mem = 1;
			break;
		case OPT_MSG_SIZE: rc = parse_size_opt("--msg-size", optarg, 1, &a->opt.msg_size); break;
		case OPT_MAP_SIZE:
			rc = parse_size_opt("--map-size", optarg, 4096, &a->opt.map_size);
			a->set_map = 1;
			break;
		case OPT_PARALLEL:
			if (parse_uint(optarg, 1, 256, &v) < 0)
				return bad_value("--parallel", optarg, "a whole number from 1 to 256");
			a->opt.parallel = (int)v;
			break;
		case OPT_PROCS:
			if ((a->opt.nprocs = parse_uint_list(optarg, 2, 256, list, BENCH_MAX_LIST)) < 0)
				return bad_value("--procs", optarg,
						 "a comma-separated list of up to 8 counts from 2 to 256");
			for (i = 0; i < a->opt.nprocs; i++)
				a->opt.procs[i] = list[i];
			break;
		case OPT_CTX_SIZES:
			if ((a->opt.nctx_sizes = parse_size_list(optarg, a->opt.ctx_sizes, BENCH_MAX_LIST)) < 0)
				return bad_value("--ctx-sizes", optarg,
						 "a comma-separated list of up to 8 sizes (0,16k,64k)");
			break;
		case OPT_PIN: a->opt.pin = 1; break;
		case OPT_DIR: a->dir = optarg; break;
		case '?':
			if (optopt)
				return usage_error("run: option '%s' needs a value (see bakeoff run --help)", name);
			return usage_error("run: unknown option '%s' (see bakeoff run --help)", name);
		default:
			return usage_error("run: option '%s' needs a value", name);
		}
		if (rc)
			return rc;
	}
	if (a->quick) {
		if (!a->set_sample_time)
			a->cfg.target_ns = 2000000;
		if (!a->set_budget)
			a->cfg.budget_ns = 1000000000ull;
		if (!a->set_mem)
			a->opt.mem_size = 16 << 20;
		if (!a->set_map)
			a->opt.map_size = 1 << 20;
	}
	a->opt.quick = a->quick;
	if (a->set_samples)
		a->cfg.max_samples = 3 * a->cfg.samples;	/* the adaptive ceiling */
	return 0;
}

static void utc_now(char *dst, size_t n, const char *fmt)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(dst, n, fmt, &tm);
}

/* results/HOST-YYYYmmddTHHMMSSZ.json, with -2, -3 ... if taken. */
static int default_output(char *dst, size_t n, const char *host)
{
	char stamp[32];
	struct stat st;
	int k;

	if (mkdir("results", 0755) < 0 && errno != EEXIST)
		return -1;
	utc_now(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ");
	for (k = 1; k < 1000; k++) {
		if (k == 1)
			snprintf(dst, n, "results/%s-%s.json", host, stamp);
		else
			snprintf(dst, n, "results/%s-%s-%d.json", host, stamp, k);
		if (stat(dst, &st) < 0)
			return 0;
	}
	errno = EEXIST;
	return -1;
}

/* One line per benchmark on a terminal: while it runs, its number and the
 * estimated time left (from the pace so far); when it is done, the line is
 * rewritten with its main figure and how long it took. */
static void progress(const struct run_args *a, int tty, size_t k, size_t total,
		     const struct bench_result *br, const char *id, double elapsed)
{
	if (a->quiet || !tty)
		return;
	if (!br) {
		fprintf(stderr, "[%zu/%zu] %-26s", k + 1, total, id);
		if (k > 0)
			fprintf(stderr, " ... about %.0f s left", elapsed / (double)k * (double)(total - k));
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

static int cmd_run(int argc, char **argv)
{
	struct run_args a = { 0 };
	struct harness h;
	struct result r = { 0 }, back;
	const struct personality *pers;
	unsigned char *sel;
	char err[512], path[4096], host[256];
	struct buf json = { 0 };
	size_t i, k, total = 0, off;
	uint64_t t0;
	int rc, failed = 0, memory = 0, tty = isatty(STDERR_FILENO);

	if ((rc = parse_run_args(argc, argv, &a)) != 0)
		return rc < 0 ? 0 : rc;
	sel = calloc(registry_count, 1);
	if (!sel)
		return usage_error("out of memory");
	if (registry_select(argc - optind, argv + optind, sel, &pers, err, sizeof(err)) < 0) {
		free(sel);
		return usage_error("%s", err);
	}
	if (a.output && strcmp(a.output, "-") != 0 && access(a.output, F_OK) == 0) {
		free(sel);
		return usage_error("%s: exists; bakeoff never overwrites a result file "
				   "(choose another -o FILE)", a.output);
	}
	for (i = 0; i < registry_count; i++) {
		total += sel[i];
		if (sel[i] && strcmp(registry[i]->group, "mem") == 0)
			memory = 1;
	}
	sysinfo_read(&r.host);
	if (!scratch_create(a.dir)) {
		rc = usage_error("cannot create a scratch directory under %s: %s",
				 a.dir ? a.dir : "$TMPDIR or /tmp", strerror(errno));
		free(sel);
		return rc;
	}
	/* Where the result goes is settled before anything is measured. */
	snprintf(host, sizeof(host), "%s", r.host.hostname[0] ? r.host.hostname : "host");
	for (i = 0; host[i]; i++)
		if (host[i] == '/' || host[i] == ' ')
			host[i] = '_';
	if (a.output) {
		snprintf(path, sizeof(path), "%s", a.output);
	} else if (default_output(path, sizeof(path), host) < 0) {
		rc = usage_error("cannot create results/ in the current directory: %s "
				 "(use -o FILE)", strerror(errno));
		scratch_remove();
		free(sel);
		return rc;
	}
	a.opt.scratch = scratch_path();
	a.opt.host = &r.host;
	scratch_signals();
	if (!a.quiet && tty)
		fprintf(stderr, "bakeoff: measuring the clock and loop overhead...\n");
	harness_init(&h, &a.cfg);
	guard_check(&r.guard, &r.host, &a.opt, memory);
	r.argv = calloc((size_t)argc + 2, sizeof(char *));
	for (i = 0; r.argv && i <= (size_t)argc && (r.argv[i] = strdup(i ? argv[i - 1] : "bakeoff"));
	     i++)
		r.argc++;
	r.profile = strdup(a.quick ? "quick" : "standard");
	utc_now(err, sizeof(err), "%Y-%m-%dT%H:%M:%SZ");
	r.start_utc = strdup(err);
	if (!r.argv || r.argc != argc + 1 || !r.profile || !r.start_utc) {
		scratch_remove();
		free(sel);
		result_free(&r);
		return usage_error("out of memory");
	}
	r.parallel = a.opt.parallel;
	r.clock = h.clk;
	r.loop_ns = h.loop_ns;
	r.target_sample_ns = (double)a.cfg.target_ns;
	r.samples = a.cfg.samples;
	t0 = clock_ns();
	for (i = 0, k = 0; i < registry_count && !scratch_interrupted(); i++) {
		const struct bench *b = registry[i];
		struct bench_result *br;

		if (!sel[i])
			continue;
		progress(&a, tty, k, total, NULL, b->id, (double)(clock_ns() - t0) / 1e9);
		br = result_add_bench(&r, b->id, b->group, b->title);
		if (!br)
			break;
		harness_run_bench(&h, b, &a.opt, br);
		progress(&a, tty, k++, total, br, b->id, 0);
		if (br->status == ST_FAILED)
			failed = 1;
	}
	scratch_remove();
	r.duration_s = (double)(clock_ns() - t0) / 1e9;
	r.interrupted = scratch_interrupted();
	free(sel);

	/* The table is rendered from the JSON text, exactly as `report` would. */
	result_to_json(&r, &json);
	if (strcmp(path, "-") != 0) {
		if (result_from_json(json.p, json.len, &back, &off, err, sizeof(err)) == 0) {
			render(pers ? pers->format : "text", &back, 1, 0, stdout);
			result_free(&back);
		} else {
			fprintf(stderr, "bakeoff: internal error: result does not read back: byte %zu: %s\n",
				off, err);
			failed = 1;
		}
	}
	fflush(stdout);
	if (result_save_text(&json, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "bakeoff: cannot save the result: %s\n", err);
		failed = 1;
	} else if (strcmp(path, "-") != 0) {
		fprintf(stderr, "bakeoff: result saved to %s%s\n", path,
			r.interrupted ? " (interrupted: finished benchmarks only)" : "");
	}
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

static int render(const char *format, struct result *rs, int n, int all, FILE *f)
{
	const struct result **ptrs = calloc((size_t)n, sizeof(*ptrs));
	int k;

	if (!ptrs)
		return -1;
	for (k = 0; k < n; k++)
		ptrs[k] = &rs[k];
	if (strcmp(format, "lmbench") == 0) {
		report_lmbench(ptrs, (size_t)n, f);
	} else if (strcmp(format, "json") == 0) {
		struct buf b = { 0 };

		result_to_json(&rs[0], &b);
		fwrite(b.p, 1, b.len, f);
		buf_free(&b);
	} else {
		for (k = 0; k < n; k++) {
			if (k)
				fputc('\n', f);
			report_text(&rs[k], f, all);
		}
	}
	free(ptrs);
	return 0;
}

static int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *format = "text";
	struct result *rs;
	char err[600];
	int c, k, n, rc = 0, all = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "haf:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h': fputs(help_report, stdout); return 0;
		case 'a': all = 1; break;
		case 'f': format = optarg; break;
		default:
			return usage_error("report: bad option '%s' (see bakeoff report --help)",
					   argv[optind - 1]);
		}
	}
	if (strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "lmbench"))
		return bad_value("--format", format, "text, json or lmbench");
	n = argc - optind;
	if (n < 1)
		return usage_error("report: expected a result FILE (see bakeoff report --help)");
	if (n > 1 && strcmp(format, "json") == 0)
		return usage_error("report: --format json takes one FILE");
	for (k = 0, c = 0; k < n; k++)
		c += strcmp(argv[optind + k], "-") == 0;
	if (c > 1)
		return usage_error("report: standard input (-) can be read only once");
	rs = calloc((size_t)n, sizeof(*rs));
	if (!rs)
		return usage_error("out of memory");
	for (k = 0; k < n && rc == 0; k++)
		if (result_load(argv[optind + k], &rs[k], err, sizeof(err)) < 0)
			rc = usage_error("%s", err);
	if (rc == 0)
		render(format, rs, n, all, stdout);
	for (k = 0; k < n; k++)
		result_free(&rs[k]);
	free(rs);
	return rc;
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

int main(int argc, char **argv)
{
	static const struct {
		const char *verb;
		int (*fn)(int, char **);
	} verbs[] = {
		{ "run", cmd_run }, { "list", cmd_list }, { "report", cmd_report },
		{ "sysinfo", cmd_sysinfo }, { "version", cmd_version }, { NULL, NULL },
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
		h = verb_help(argv[2]);
		if (!h)
			return usage_error("help: unknown verb '%s' (verbs: run list report sysinfo version)",
					   argv[2]);
		fputs(h, stdout);
		return 0;
	}
	for (i = 0; verbs[i].verb; i++)
		if (strcmp(argv[1], verbs[i].verb) == 0)
			return verbs[i].fn(argc - 1, argv + 1);
	return usage_error("unknown verb '%s' (verbs: run list report sysinfo version; "
			   "see bakeoff --help)", argv[1]);
}
