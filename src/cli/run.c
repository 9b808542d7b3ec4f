/* run.c — `bakeoff run`: its options (the fixed ones here, the benchmarks'
 * from the options table), the run itself — claim the result file, make
 * the scratch directories, measure every selected benchmark in a process
 * of its own with a progress line, save after each, render the table —
 * and `bakeoff help BENCH`. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "core/harness.h"
#include "core/options.h"
#include "core/registry.h"
#include "core/result.h"
#include "core/run.h"
#include "core/scratch.h"
#include "report/report.h"

static const char *const help_run =
	"usage: bakeoff run [options] [BENCH...]\n"
	"\n"
	"Run the named benchmarks (all when none), print a table on stdout and save\n"
	"the result to results/HOST-UTCTIME.json (the file is claimed before anything\n"
	"is measured and updated as each benchmark finishes).\n"
	"\n"
	"Options, from one table: the run's own ([all]), then the harness's and the\n"
	"benchmarks' (an option no selected benchmark reads is an error; bakeoff help\n"
	"BENCH lists one benchmark's):\n";

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


enum { OPT_TABLE = 256 };	/* getopt's value for table row i: OPT_TABLE + i */

struct run_args {
	const char *dir;	/* the first --dir entry: the run's scratch parent */
	char dir0[4096];
	struct harness_cfg cfg;
	struct bench_opts opt;	/* with the run's own options (-o, -q, --quick, --dir, ...) */
	struct optset set;
};

/* run's command line, every option from the options table (long and short
 * forms made from its rows) and --help: 0, -1 after --help, or the exit
 * status of a usage error. */
static int parse_run_args(int argc, char **argv, struct run_args *a)
{
	struct option longopts[OPT_ROWS_MAX + 2];
	char shorts[3 * OPT_ROWS_MAX + 8] = ":h", err[400];
	size_t i, ns = 2, n = opt_count();
	int c, idx;

	for (i = 0; i < n; i++) {
		const struct optdef *d = opt_row(i);

		longopts[i].name = d->name;
		longopts[i].has_arg = d->type == OT_FLAG ? no_argument : required_argument;
		longopts[i].flag = NULL;
		longopts[i].val = OPT_TABLE + (int)i;
		if (d->letter) {
			shorts[ns++] = d->letter;
			if (d->type != OT_FLAG)
				shorts[ns++] = ':';
		}
	}
	shorts[ns] = 0;
	longopts[n] = (struct option){ "help", no_argument, NULL, 'h' };
	memset(&longopts[n + 1], 0, sizeof(longopts[0]));
	harness_default_cfg(&a->cfg);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longopts, &idx)) != -1) {
		const char *name = optind > 0 && optind <= argc ? argv[optind - 1] : "?";

		if (c == 'h') {
			print_run_help();
			return -1;
		}
		if (c == ':' || c == '?')
			return bad_option("run", c, name);
		/* a short form: its row */
		i = c >= OPT_TABLE ? (size_t)(c - OPT_TABLE) : opt_index(opt_find_letter(c));
		if (opt_parse(opt_row(i), optarg, &a->cfg, &a->opt, err, sizeof(err)) < 0)
			return usage_error("%s", err);
		a->set.given[i] = 1;
	}
	if (a->opt.dirlist) {	/* the scratch directory goes under the first entry */
		snprintf(a->dir0, sizeof(a->dir0), "%.*s", (int)strcspn(a->opt.dirlist, ","), a->opt.dirlist);
		a->dir = a->dir0;
	}
	if (opt_check_exclusive(&a->set, err, sizeof(err)) < 0)
		return usage_error("%s", err);
	opt_defaults(&a->set, a->opt.quick, &a->cfg, &a->opt);
	a->cfg.max_samples = 3 * a->cfg.samples;	/* the adaptive ceiling */
	/* --ci-target: sample until the interval is narrow enough or the
	 * budget (calibration and samples of one figure) is spent */
	if (opt_given(&a->set, "ci-target")) {
		uint64_t fit = a->cfg.budget_ns / (a->cfg.target_ns ? a->cfg.target_ns : 1);

		a->cfg.ci_target_given = 1;
		a->cfg.max_samples = fit > 100000 ? 100000 : (int)fit;
		if (a->cfg.max_samples < 3 * a->cfg.samples)
			a->cfg.max_samples = 3 * a->cfg.samples;
	}
	if (opt_given(&a->set, "budget"))
		a->cfg.long_budget_ns = a->cfg.budget_ns;
	return 0;
}

/* The personality's options, where the command line did not give them. */
static int apply_preset(struct run_args *a, const struct personality *p, char *err, size_t errlen)
{
	for (const char *const *kv = p && p->preset ? p->preset : NULL; kv && kv[0]; kv += 2) {
		const struct optdef *d = opt_find(kv[0]);

		if (d && !a->set.given[opt_index(d)] && opt_parse(d, kv[1], &a->cfg, &a->opt, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* The table a run prints: its personality's format, else the text table,
 * from the format table (report/formats.c). */
static void render_table(const struct result *r, FILE *f, void *ctx)
{
	const struct personality *pers = ctx;
	const struct report_format *fmt = pers ? report_format_find(pers->format) : NULL;

	report_format_render(fmt ? fmt : report_formats, &r, 1, 0, f);	/* the first row: the default */
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
	    apply_preset(&a, pers, err, sizeof(err)) < 0 ||
	    opt_check_readers(&a.set, sel, err, sizeof(err)) < 0 ||
	    opt_check_resources(&a.set, sel, &a.opt, scratch_parent(a.dir), err, sizeof(err)) < 0) {
		free(sel);
		return usage_error("%s", err);
	}
	memset(&plan, 0, sizeof(plan));
	plan.sel = sel;
	plan.runs = a.opt.runs;
	plan.cfg = a.cfg;
	plan.opt = a.opt;
	plan.profile = a.opt.quick ? "quick" : "standard";
	plan.output = a.opt.output;
	plan.dir = a.dir;
	plan.dirlist = a.opt.dirlist;
	plan.quiet = a.opt.quiet;
	plan.lines = a.opt.lines;
	plan.argc = argc;
	plan.argv = argv;
	plan.render = render_table;
	plan.ctx = (void *)pers;
	rc = run_execute(&plan);
	free(sel);
	return rc;
}
