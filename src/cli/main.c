/* main.c — the command line's entry: the table of verbs (name, usage line,
 * help, entry point), `bakeoff --help` and `bakeoff help VERB|BENCH` made
 * from it, and the check that standard output arrived (out.c).
 * Exit status: 0 all went well, 1 a benchmark failed or the output did not
 * arrive, 2 bad usage or input, 3 compare --strict refused unlike files,
 * 130 interrupted (the finished results are still saved). */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/fleet.h"
#include "core/out.h"

static int cmd_help(int argc, char **argv);

static const char help_help[] =
	"usage: bakeoff help [VERB | BENCH]\n\nHelp on a verb (same as bakeoff VERB --help), or on one benchmark: what it\n"
	"measures and the options it reads.\n";

const struct verb verbs[] = {
	{ "run", cmd_run, NULL, print_run_help, "run [BENCH...]",
	  "run benchmarks (all when none named); writes a result file" },
	{ "list", cmd_list, help_list, NULL, "list [BENCH...]",
	  "list benchmarks, their units and whether they can run here" },
	{ "report", cmd_report, NULL, print_report_help, "report FILE",
	  "print a result file again (text, json, lmbench, ttcp, html, ...)" },
	{ "chart", cmd_chart, help_chart, NULL, "chart FILE...",
	  "ASCII bar charts of result files (--metric ID...)" },
	{ "compare", compare_main, compare_help, NULL, "compare A B [...]",
	  "compare result files: ratios, 95% CIs, verdicts, fairness" },
	{ "history", cmd_history, help_history, NULL, "history [DIR...]",
	  "runs over time, per machine: trends and change points" },
	{ "check", cmd_check, help_check, NULL, "check BASE NEW",
	  "a regression gate for CI and git bisect run (exit 0, 1, 3, 125)" },
	{ "sysinfo", cmd_sysinfo, help_sysinfo, NULL, "sysinfo", "describe this machine as a result file would" },
	{ "serve", cmd_serve, help_serve, NULL, "serve", "be the network peer of `run net --peer HOST`" },
	{ "time", timecmd_main, timecmd_help, NULL, "time -- COMMAND",
	  "time a command (csh time lines, medians, a result file)" },
	{ "fleet", cmd_fleet, fleet_help, NULL, "fleet -H HOSTS -- run ...",
	  "the same run on many hosts over ssh, then compare" },
	{ "completion", cmd_completion, help_completion, NULL, "completion bash|zsh",
	  "a shell completion script made from bakeoff's own tables" },
	{ "version", cmd_version, help_version, NULL, "version", "print the version and how bakeoff was built" },
	{ "help", cmd_help, help_help, NULL, "help VERB", "help on one verb (same as bakeoff VERB --help)" },
	{ NULL, NULL, NULL, NULL, NULL, NULL },
};

static void print_main_help(FILE *f)
{
	const struct verb *v;

	fputs("usage: bakeoff VERB [options] [args]\n"
	      "\n"
	      "Measure this machine (CPU, memory, processes, IPC, ...) and compare fairly.\n"
	      "\n"
	      "verbs:\n", f);
	for (v = verbs; v->name; v++)
		fprintf(f, "  %-18s%s%s\n", v->usage, strlen(v->usage) >= 18 ? "  " : " ", v->summary);
	fputs("\n"
	      "BENCH is an id (mem.bw.copy), a prefix or group (mem.bw, mem), a personality\n"
	      "(lmbench), or a comma-separated list of those.\n"
	      "Exit status: 0 ok, 1 some benchmark failed or the output could not be written,\n"
	      "2 usage error or bad input, 3 compare --strict refused unlike files (check: not\n"
	      "comparable), 125 check could not judge NEW, 130 interrupted.\n", f);
}

static const struct verb *find_verb(const char *name)
{
	const struct verb *v;

	for (v = verbs; v->name; v++)
		if (strcmp(v->name, name) == 0)
			return v;
	return NULL;
}

/* "run list report ...", for messages. */
static void verb_names(char *dst, size_t n)
{
	const struct verb *v;
	size_t len = 0;

	dst[0] = 0;
	for (v = verbs; v->name && len < n; v++)
		len += (size_t)snprintf(dst + len, n - len, "%s%s", v == verbs ? "" : " ", v->name);
}

static int cmd_help(int argc, char **argv)
{
	const struct verb *v;
	char names[200];

	if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		if (argc < 2)
			print_main_help(stdout);
		else
			fputs(help_help, stdout);
		return 0;
	}
	if ((v = find_verb(argv[1]))) {
		if (v->help_fn)
			v->help_fn();
		else
			fputs(v->help, stdout);
		return 0;
	}
	if (bench_help(argv[1]) == 0)
		return 0;
	verb_names(names, sizeof(names));
	return usage_error("help: '%s' is neither a verb (%s) nor a benchmark id (bakeoff list)", argv[1],
			   names);
}

static int dispatch(int argc, char **argv)
{
	const struct verb *v;
	char names[200];

	if (argc < 2) {
		print_main_help(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		print_main_help(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)
		return cmd_version(1, argv);
	if ((v = find_verb(argv[1])))
		return v->fn(argc - 1, argv + 1);
	verb_names(names, sizeof(names));
	return usage_error("unknown verb '%s' (verbs: %s; see bakeoff --help)", argv[1], names);
}

int main(int argc, char **argv)
{
	cli_self = argv[0];
	return out_finish(dispatch(argc, argv));
}
