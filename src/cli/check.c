/* check.c — `bakeoff check BASELINE NEW`: a regression gate for CI and for
 * `git bisect run` (report/check.h). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli/cli.h"
#include "report/check.h"
#include "report/history.h"

const char help_check[] =
	"usage: bakeoff check [--threshold PCT] [--metric ID]... [--require-valid]\n"
	"                     [--include-suspect] [--include-shared] [--all] BASELINE NEW\n"
	"\n"
	"Is NEW (a result file) slower than BASELINE beyond the threshold and beyond\n"
	"the noise? BASELINE is a result file of the same machine and settings (each\n"
	"figure's ratio with the 95% CI of a ratio of medians from both files'\n"
	"samples; the whole CI must lie beyond the threshold), or a history directory\n"
	"(the runs of NEW's machine after their last change point: NEW must fall\n"
	"outside their 95% prediction interval, beyond the threshold and the floor\n"
	"learned from that history). Every main figure of the baseline is judged\n"
	"(detail figures too with --all), or only those named with --metric.\n"
	"\n"
	"  --threshold PCT     the smallest slowdown that fails (default 5%)\n"
	"  --metric ID         an id, a prefix or ID:METRIC; repeatable\n"
	"  --require-valid     a NEW the guard judged suspect cannot be judged (125)\n"
	"  --include-suspect   a history's suspect runs count as baseline too\n"
	"  --include-shared    a history's runs on a shared core (the core gauge; for\n"
	"                      all or some samples) and a shared NEW as measured,\n"
	"                      not at the quiet level\n"
	"  --all               detail figures too\n"
	"\n"
	"Exit status (git bisect run reads it):\n"
	"  0    no figure slower beyond the threshold and the noise\n"
	"  1    a regression (each named with its ratio and CI), or a figure of the\n"
	"       baseline that NEW lacks\n"
	"  2    usage error, or a BASELINE that cannot be read\n"
	"  3    not comparable: other machines (the differing facts are named), other\n"
	"       settings, or no figure in common\n"
	"  125  NEW cannot be judged: a benchmark failed, the run was interrupted, the\n"
	"       file is missing or damaged (or, with --require-valid, suspect): git\n"
	"       bisect run skips the commit instead of blaming it\n"
	"Recipes (git bisect run, a nightly CI job): docs/regressions.md.\n";

enum { O_REQUIRE = 256, O_SUSPECT, O_SHARED, O_ALL };

int cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "threshold", required_argument, NULL, 't' }, { "metric", required_argument, NULL, 'm' },
		{ "require-valid", no_argument, NULL, O_REQUIRE },
		{ "include-suspect", no_argument, NULL, O_SUSPECT }, { "include-shared", no_argument, NULL, O_SHARED },
		{ "all", no_argument, NULL, O_ALL },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	const struct optdef *pct = opt_find("ci-target");	/* the table's percentage parser */
	struct check_opts o;
	struct harness_cfg cfg;
	struct bench_opts bo;
	const char **metrics = calloc((size_t)argc + 1, sizeof(char *));
	char err[400];
	struct stat st;
	int c, rc = 0;

	memset(&o, 0, sizeof(o));
	o.threshold = 0.05;
	if (!metrics)
		return usage_error("out of memory");
	optind = 1;
	opterr = 0;
	while (rc == 0 && (c = getopt_long(argc, argv, ":ht:m:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h': fputs(help_check, stdout); free(metrics); return 0;
		case 't': {
			struct optdef d = *pct;

			d.name = "threshold";
			d.min = 0;
			d.max = 1000;
			if (opt_parse(&d, optarg, &cfg, &bo, err, sizeof(err)) < 0)
				rc = usage_error("check: %s", err);
			o.threshold = cfg.ci_target;
			break;
		}
		case 'm': metrics[o.nmetrics++] = optarg; break;
		case O_REQUIRE: o.require_valid = 1; break;
		case O_SUSPECT: o.include |= HX_SUSPECT; break;
		case O_SHARED: o.include |= HX_SHARED; break;
		case O_ALL: o.all = 1; break;
		default:
			rc = bad_option("check", c, argv[optind - 1]);
			break;
		}
	}
	if (rc == 0 && argc - optind != 2)
		rc = usage_error("check: expected BASELINE (a result file or a history directory) and NEW (see "
				 "bakeoff check --help)");
	if (rc == 0 && stat(argv[optind], &st) < 0)
		rc = usage_error("check: BASELINE %s: %s", argv[optind], strerror(errno));
	if (rc == 0) {
		o.baseline = argv[optind];
		o.baseline_is_dir = S_ISDIR(st.st_mode);
		o.newpath = argv[optind + 1];
		o.metrics = metrics;
		rc = check_run(&o, stdout, stderr);
	}
	free(metrics);
	return rc;
}
