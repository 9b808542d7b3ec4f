/* compare.c — `bakeoff compare`: its options and files; the comparison
 * itself (fairness, ratios, verdicts) is report/compare.c's, and so are its
 * text and HTML renderings. fleet compares its hosts through compare_to. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "report/compare.h"
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
	"\n"
	"Exit status: 0 compared, 2 usage error or a bad file, 3 --strict and the\n"
	"files are not like for like.\n";

int compare_main(int argc, char **argv)
{
	return compare_to(argc, argv, stdout);
}

int compare_to(int argc, char **argv, FILE *out)
{
	static const struct option longopts[] = {
		{ "baseline", required_argument, NULL, 'b' },
		{ "strict", no_argument, NULL, 's' },
		{ "all", no_argument, NULL, 'a' },
		{ "best", no_argument, NULL, 'B' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *baseline = NULL, *format = NULL;
	const struct report_format *fmt;
	struct comparison *cmp;
	struct cmp_file *fs;
	size_t nf = 0, k;
	int c, strict = 0, best = 0, rc = 0, stdin_used = 0, html;
	char err[700];

	cmp = compare_new();
	if (!cmp)
		return usage_error("out of memory");
	fs = cmp->fs;
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
		case ':':
			rc = usage_error("compare: option '%s' needs a value (see bakeoff compare --help)",
				   argv[optind - 1]);
			goto out;
		default:
			rc = usage_error("compare: unknown option '%s' (see bakeoff compare --help)",
				   argv[optind - 1]);
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
	if (argc - optind + (baseline ? 1 : 0) > COMPARE_MAX_FILES) {
		rc = usage_error("compare: at most %d files", COMPARE_MAX_FILES);
		goto out;
	}
	if (baseline)
		fs[nf++].path = baseline;
	for (k = (size_t)optind; k < (size_t)argc; k++)
		if (!baseline || strcmp(argv[k], baseline) != 0)
			fs[nf++].path = argv[k];
	if (nf < 2) {
		rc = usage_error("compare: expected at least two result files (see bakeoff compare --help)");
		goto out;
	}
	for (k = 0; k < nf; k++)
		stdin_used += strcmp(fs[k].path, "-") == 0;
	if (stdin_used > 1) {
		rc = usage_error("compare: standard input (-) can be read only once");
		goto out;
	}
	for (k = 0; k < nf && rc == 0; k++) {
		fs[k].label[0] = (char)('A' + k);
		if (result_load(fs[k].path, &fs[k].r, err, sizeof(err)) < 0)
			rc = usage_error("%s", err);
	}
	cmp->nf = nf;	/* compare_free frees what was loaded */
	if (rc)
		goto out;
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
	compare_free(cmp);
	free(cmp);
	return rc;
}
