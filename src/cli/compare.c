/* compare.c — `bakeoff compare`: its options and files; the comparison
 * itself (fairness, ratios, verdicts) is report/compare.c's, and so are its
 * text and HTML renderings. fleet compares its hosts through compare_to. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "report/compare.h"
#include "report/history.h"
#include "report/report.h"

const char compare_help[] =
	"usage: bakeoff compare [options] A.json B.json [C.json ...]\n"
	"\n"
	"Compare result files: for every figure they share, the values side by side,\n"
	"the ratio to the baseline (default: the first file) with a 95% confidence\n"
	"interval computed from the samples (Price-Bonett, ratio of medians), and a\n"
	"verdict: faster, slower, within noise (the interval does not clear the noise\n"
	"floor), or bimodal (a file's values fall in two levels). Figures present in\n"
	"only some files are listed as such. Fairness warnings come first: tool\n"
	"version, build flags, kernel, profile, benchmark settings (sizes, block sizes,\n"
	"direct, copies, pinning, ...), guard findings, figures that may be cached.\n"
	"docs/compare.md explains the statistics, the noise floors and each warning.\n"
	"\n"
	"  --baseline FILE   the file the others are divided by (added when not listed)\n"
	"  --strict          with any fairness warning, print the warnings and exit 3\n"
	"                    without a table\n"
	"  --all             also compare curve points and intermediate figures\n"
	"  --best            add lmbench-style best-of tables: latencies as the factor\n"
	"                    slower than the best, bandwidths and rates as the\n"
	"                    percentage of the best, the best starred\n"
	"  --format FMT      text (default) or html: one self-contained page with the\n"
	"                    verdicts, the warnings, each file's host facts, colored\n"
	"                    tables and SVG charts (docs/reports.md)\n"
	"  --history DIR     judge each figure by the noise floor learned from the\n"
	"                    baseline machine's own history in DIR (10 runs or more:\n"
	"                    twice the spread of the difference of two of its runs;\n"
	"                    docs/regressions.md) instead of the fixed floor of its kind\n"
	"\n"
	"Exit status: 0 compared, 2 usage error or a bad file, 3 --strict and the\n"
	"files are not like for like.\n";

int compare_main(int argc, char **argv)
{
	return compare_to(argc, argv, stdout);
}

/* compare --history DIR: the baseline machine's series in DIR. */
struct learned {
	struct history h;
	struct hx_series *s;
	size_t ns;
	const struct hx_series *ser;
};

static double learned_floor(void *ctx, const char *id, const char *metric, size_t *runs)
{
	struct learned *l = ctx;
	double floor = 0;
	size_t k;

	for (k = 0; l->ser && k < l->h.nkeys && floor == 0; k++) {
		struct hx_trend t;

		if (strcmp(l->h.keys[k].id, id) || strcmp(l->h.keys[k].metric, metric) ||
		    history_trend(&l->h, l->ser, k, 0, &t) < 0)
			continue;
		if (t.floor_runs) {	/* two single runs differ by sqrt 2 times one run's spread */
			floor = 2 * sqrt(2.0) * t.spread;
			*runs = t.floor_runs;
		}
		history_trend_free(&t);
	}
	return floor;
}

/* The series of base's machine in dir: 0, or the exit status of a usage
 * error. */
static int learn(struct learned *l, const char *dir, const struct result *base)
{
	char err[700];
	size_t k, me;

	history_init(&l->h, stderr);
	if (history_add(&l->h, dir, err, sizeof(err)) < 0)
		return usage_error("compare: --history %s", err);
	history_say_summary(&l->h);
	if (history_add_result(&l->h, base, "(baseline)") < 0)
		return usage_error("out of memory");
	me = l->h.nfiles - 1;
	l->h.files[me].unjudgeable = 1;	/* the baseline is judged, not learned from */
	l->ns = history_series(&l->h, NULL, &l->s);
	for (k = 0; k < l->ns; k++)
		if (!strcmp(l->h.files[l->s[k].files[0]].fp, l->h.files[me].fp) &&
		    !strcmp(l->h.files[l->s[k].files[0]].host, l->h.files[me].host))
			l->ser = &l->s[k];
	if (!l->ser || l->ser->n < 2)
		fprintf(stderr, "bakeoff: compare: no run of the baseline's machine in %s: the fixed floors\n",
			dir);
	return 0;
}

/* The files: the baseline first (when given), then the others, each
 * loaded. 0 with *nf, or the exit status of a usage error (*nf: how many
 * to free). */
static int load_files(struct comparison *cmp, const char *baseline, int argc, char **argv, size_t *nf)
{
	struct cmp_file *fs = cmp->fs;
	char err[700];
	size_t k;
	int stdin_used = 0, rc = 0;

	*nf = 0;
	if (argc + (baseline ? 1 : 0) > COMPARE_MAX_FILES)
		return usage_error("compare: at most %d files", COMPARE_MAX_FILES);
	if (baseline)
		fs[(*nf)++].path = baseline;
	for (k = 0; k < (size_t)argc; k++)
		if (!baseline || strcmp(argv[k], baseline) != 0)
			fs[(*nf)++].path = argv[k];
	if (*nf < 2)
		return usage_error("compare: expected at least two result files (see bakeoff compare --help)");
	for (k = 0; k < *nf; k++)
		stdin_used += strcmp(fs[k].path, "-") == 0;
	if (stdin_used > 1)
		return usage_error("compare: standard input (-) can be read only once");
	for (k = 0; k < *nf && rc == 0; k++) {
		fs[k].label[0] = (char)('A' + k);
		if (result_load(fs[k].path, &fs[k].r, err, sizeof(err)) < 0)
			rc = usage_error("%s", err);
	}
	return rc;
}

int compare_to(int argc, char **argv, FILE *out)
{
	static const struct option longopts[] = {
		{ "baseline", required_argument, NULL, 'b' },
		{ "strict", no_argument, NULL, 's' },
		{ "all", no_argument, NULL, 'a' },
		{ "best", no_argument, NULL, 'B' },
		{ "format", required_argument, NULL, 'f' },
		{ "history", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *baseline = NULL, *format = NULL, *histdir = NULL;
	struct learned lf;
	const struct report_format *fmt;
	struct comparison *cmp;
	size_t nf = 0;
	int c, strict = 0, best = 0, rc = 0, html;
	char err[700];

	cmp = compare_new();
	if (!cmp)
		return usage_error("out of memory");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hf:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h': fputs(compare_help, stdout); goto out;
		case 'b':
			if (!*optarg) {
				rc = usage_error("--baseline: expected a result FILE");
				goto out;
			}
			baseline = optarg;
			break;
		case 's': strict = 1; break;
		case 'a': cmp->all = 1; break;
		case 'B': best = 1; break;
		case 'f': format = optarg; break;
		case 'H': histdir = optarg; break;
		default:
			rc = bad_option("compare", c, argv[optind - 1]);
			goto out;
		}
	}
	if (!(fmt = format ? report_format_for(format, FMT_COMPARE) : report_formats)) {
		report_format_names(err, sizeof(err), FMT_COMPARE);
		rc = usage_error("invalid value '%s' for --format: expected %s", format, err);
		goto out;
	}
	html = fmt->page;
	if (html && best) {
		rc = usage_error("compare: --best is for --format text (the page colors each row from best "
			   "to worst instead)");
		goto out;
	}
	if ((rc = load_files(cmp, baseline, argc - optind, argv + optind, &nf)) != 0) {
		cmp->nf = nf;
		goto out;
	}
	cmp->nf = nf;	/* compare_free frees what was loaded */
	memset(&lf, 0, sizeof(lf));
	if (histdir) {
		if ((rc = learn(&lf, histdir, &cmp->fs[0].r)) != 0)
			goto out;
		cmp->learned = learned_floor;
		cmp->learned_ctx = &lf;
	}
	if (compare_build(cmp) < 0) {
		rc = usage_error("out of memory");
		goto out;
	}
	if (strict && cmp->warn.n) {
		fprintf(stderr, "bakeoff: compare --strict: the files are not like for like "
			"(%zu warning%s); no %s:\n", cmp->warn.n, cmp->warn.n == 1 ? "" : "s",
			html ? "page" : "table");
		compare_print_warnings(cmp, stderr);
		rc = COMPARE_EXIT_UNFAIR;
		goto out;
	}
	if (html)
		compare_print_html(cmp, out);
	else
		compare_print_text(cmp, best, out);
out:
	if (histdir) {
		history_series_free(lf.s, lf.ns);
		history_free(&lf.h);
	}
	compare_free(cmp);
	free(cmp);
	return rc;
}
