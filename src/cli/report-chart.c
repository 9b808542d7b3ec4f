/* report-chart.c — `bakeoff report` (a result file rendered again, in any
 * format of the format table, report/formats.c) and `bakeoff chart`
 * (ASCII charts of chosen figures). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "core/result.h"
#include "report/report.h"

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

void print_report_help(void)
{
	const struct report_format *f;

	fputs(help_report, stdout);
	for (f = report_formats; f->name; f++)
		printf("  %-10s %s%s\n", f->name, f->help, f->one_file ? " (one FILE)" : "");
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct report_format *fmt = report_formats;	/* the first row: the default */
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
				report_format_names(err, sizeof(err), FMT_REPORT);
				return usage_error("invalid value '%s' for --format: expected %s", optarg, err);
			}
			break;
		default:
			return bad_option("report", c, argv[optind - 1]);
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
		report_format_render(fmt, ptrs, (size_t)n, all, stdout);
	for (k = 0; k < n; k++)
		result_free(&rs[k]);
	free(rs);
	free(ptrs);
	return rc;
}

/* ---- chart ---- */

const char help_chart[] =
	"usage: bakeoff chart [--metric ID]... FILE...\n"
	"\n"
	"Draw ASCII bar charts of result files, one symbol per file with a legend,\n"
	"within 80 columns: curves (disk.seq by block size, mem.lat by size) as\n"
	"vertical bars like the 2003 NetBSD report's, other figures as horizontal\n"
	"bars with their value and what limited them. --metric ID (repeatable)\n"
	"keeps benchmarks or figures whose id starts with ID (disk.seq,\n"
	"mem.lat:rand, mem.bw.read:frd); without it every main figure and curve.\n"
	"Same as bakeoff report --format chart. Exit 2 when nothing matches.\n";

int cmd_chart(int argc, char **argv)
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
				rc = bad_option("chart", ':', a);
			else
				ids[nid++] = argv[++k];
		} else if (strncmp(a, "--metric=", 9) == 0) {
			ids[nid++] = a + 9;
		} else if (a[0] == '-' && a[1]) {
			rc = bad_option("chart", '?', a);
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

