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
#include "core/harness.h"
#include "core/options.h"
#include "core/registry.h"
#include "core/result.h"
#include "core/run.h"
#include "core/scratch.h"
#include "core/sysinfo.h"
#include "core/units.h"
#include "report/report.h"

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

/* The table a run prints: its personality's format, else the text table,
 * from the format table (report/formats.c). */
static void render_table(const struct result *r, FILE *f, void *ctx)
{
	const struct personality *pers = ctx;
	const struct report_format *fmt = report_format_find(pers ? pers->format : "text");

	(fmt ? fmt : report_formats)->render(&r, 1, 0, f);	/* [0]: text */
}

int cmd_run(int argc, char **argv)
{
	static struct run_args a;
	struct run_plan plan;
	const struct personality *pers;
	unsigned char *sel;
	char err[600];
	int rc;

	memset(&a, 0, sizeof(a));
	if ((rc = parse_run_args(argc, argv, &a)) != 0)
		return rc < 0 ? 0 : rc;
	if (!(sel = calloc(registry_count, 1)))
		return usage_error("out of memory");
	if (registry_select(argc - optind, argv + optind, sel, &pers, err, sizeof(err)) < 0 ||
	    opt_check_readers(&a.set, sel, err, sizeof(err)) < 0 ||
	    opt_check_resources(&a.set, sel, &a.opt, scratch_parent(a.dir), err, sizeof(err)) < 0) {
		free(sel);
		return usage_error("%s", err);
	}
	memset(&plan, 0, sizeof(plan));
	plan.sel = sel;
	plan.runs = a.runs;
	plan.cfg = a.cfg;
	plan.opt = a.opt;
	plan.profile = a.quick ? "quick" : "standard";
	plan.output = a.output;
	plan.dir = a.dir;
	plan.dirlist = a.dirlist;
	plan.quiet = a.quiet;
	plan.lines = a.lines;
	plan.argc = argc;
	plan.argv = argv;
	plan.render = render_table;
	plan.render_ctx = (void *)pers;
	rc = run_execute(&plan);
	free(sel);
	return rc;
}
