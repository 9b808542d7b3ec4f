/* history.c — `bakeoff history [DIR|FILE...]`: the result files of one or
 * more directories (default results/) as series over time, one per
 * machine, each figure's trend and its change points (report/history.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "report/history.h"
#include "report/report.h"

const char help_history[] =
	"usage: bakeoff history [--format FMT] [--metric ID]... [--by LABEL] [--timeline]\n"
	"                       [--include-suspect] [--include-shared] [--all] [--explain]\n"
	"                       [--no-index] [--across]\n"
	"                       [DIR|FILE...]\n"
	"\n"
	"Read every result file under DIR (default results/; fleet's per-host files\n"
	"below it too), group the runs into series, one per machine (its CPU, cores,\n"
	"memory, caches, virtualization and architecture: a new kernel, OS, bakeoff\n"
	"version or label is a change along a series, not a new one), order each\n"
	"series by start time, and for every figure show its trend and where it\n"
	"changed: E-divisive with means proposes a change, Yuen's trimmed t interval\n"
	"on the logs of the run medians must exclude no change, a rank test must\n"
	"agree, and the change must clear the noise floor, learned from the series'\n"
	"own run-to-run spread once it has 10 runs (else compare's fixed floor of\n"
	"that kind of figure). Runs the guard judged suspect are shown but left out\n"
	"of the search. docs/regressions.md gives the method and its measured hit\n"
	"and false-alarm rates.\n"
	"\n"
	"  --format FMT        text (default: a sparkline per figure, then each change\n"
	"                      in one sentence), csv (one row per run and figure) or\n"
	"                      html (a page of SVG line charts with CI bands)\n"
	"  --metric ID         only this figure: an id, a prefix (mem.bw) or ID:METRIC\n"
	"                      (mem.lat:L2); repeatable; shows every run (--timeline)\n"
	"  --by LABEL          one series per value of run --label LABEL\n"
	"  --timeline          every run of every figure: median, CI, guard, what changed\n"
	"  --include-suspect   search the suspect runs for changes too\n"
	"  --include-shared    search a figure's runs on a shared core (its core gauge\n"
	"                      1.1x the series' quietest, or for some samples only)\n"
	"                      as measured, not at the quiet level\n"
	"  --all               detail figures (curve points) too, read from the files\n"
	"                      (the index keeps main figures only)\n"
	"  --explain           the facts behind each machine's fingerprint\n"
	"  --across            one moment of a fleet instead of a timeline: among the\n"
	"                      hosts of one fingerprint (the latest run of each), the\n"
	"                      hosts far from the others on a figure (a robust score\n"
	"                      of 5 or more from the hosts' median and MAD, and 5%\n"
	"                      or more off): `mem.bw.copy  host17  -31% vs 199 ...`\n"
	"  --no-index          read every file; do not read or write DIR/.bakeoff-index\n"
	"\n"
	"The index DIR/.bakeoff-index (one line per result file) keeps later runs\n"
	"fast; it is rebuilt when missing, damaged or from another version, and\n"
	"deleting it loses nothing. A file that is not a readable result is skipped\n"
	"with one line on stderr. Exit status: 0 (also with skipped files), 2 usage\n"
	"error or a DIR that does not exist.\n";

enum { O_BY = 256, O_TIMELINE, O_SUSPECT, O_SHARED, O_ALL, O_EXPLAIN, O_NOINDEX, O_ACROSS };

int cmd_history(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' }, { "metric", required_argument, NULL, 'm' },
		{ "by", required_argument, NULL, O_BY }, { "timeline", no_argument, NULL, O_TIMELINE },
		{ "include-suspect", no_argument, NULL, O_SUSPECT }, { "include-shared", no_argument, NULL, O_SHARED },
		{ "all", no_argument, NULL, O_ALL },
		{ "explain", no_argument, NULL, O_EXPLAIN }, { "no-index", no_argument, NULL, O_NOINDEX },
		{ "across", no_argument, NULL, O_ACROSS },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	static char *deflt[] = { "results" };
	const struct report_format *fmt = report_formats;
	struct hx_view v;
	struct history h;
	const char **metrics = calloc((size_t)argc + 1, sizeof(char *));
	char err[700], **paths;
	int c, i, npaths, rc = 0, across = 0;

	memset(&v, 0, sizeof(v));
	history_init(&h, stderr);
	if (!metrics)
		return usage_error("out of memory");
	optind = 1;
	opterr = 0;
	while (rc == 0 && (c = getopt_long(argc, argv, ":hf:m:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h': fputs(help_history, stdout); free(metrics); return 0;
		case 'f':
			if (!(fmt = report_format_for(optarg, FMT_HISTORY))) {
				report_format_names(err, sizeof(err), FMT_HISTORY);
				rc = usage_error("invalid value '%s' for --format: expected %s", optarg, err);
			}
			break;
		case 'm':
			metrics[v.nmetrics++] = optarg;
			v.timeline = 1;
			break;
		case O_BY: {
			char kv[80];

			snprintf(kv, sizeof(kv), "%.60s=", optarg);
			if (strchr(optarg, '=') || opt_label_ok(kv, err, sizeof(err)) < 0)
				rc = usage_error("invalid value '%s' for --by: expected a label KEY (run --label "
						 "KEY=VALUE)", optarg);
			v.by = optarg;
			break;
		}
		case O_TIMELINE: v.timeline = 1; break;
		case O_SUSPECT: v.include |= HX_SUSPECT; break;
		case O_SHARED: v.include |= HX_SHARED; break;
		case O_ALL: v.all = h.details = 1; break;
		case O_EXPLAIN: v.explain = 1; break;
		case O_NOINDEX: h.no_index = 1; break;
		case O_ACROSS: across = 1; break;
		default:
			rc = bad_option("history", c, argv[optind - 1]);
			break;
		}
	}
	v.metrics = metrics;
	paths = optind < argc ? argv + optind : deflt;
	npaths = optind < argc ? argc - optind : 1;
	for (i = 0; rc == 0 && i < npaths; i++)
		if (history_add(&h, paths[i], err, sizeof(err)) < 0)
			rc = usage_error("history: %s", err);
	if (rc == 0) {
		if ((across ? history_print_across(&h, &v, stdout) : fmt->history(&h, &v, stdout)) < 0)
			rc = usage_error("history: out of memory");
		else
			history_say_summary(&h);
	}
	history_free(&h);
	free(metrics);
	return rc;
}
