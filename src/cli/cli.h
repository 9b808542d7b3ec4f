/* cli.h — the top floor: one small file per verb (run.c, report-chart.c, list.c,
 * serve.c, sysinfo.c, time.c, fleet.c, compare.c, history.c, check.c), and
 * one table of verbs (main.c) that gives each its name, usage line, help
 * and entry point. The verbs parse the command line and call down into
 * core/, bench/, report/ and net/; nothing below includes this floor. */
#ifndef BAKEOFF_CLI_H
#define BAKEOFF_CLI_H
#include <stdio.h>
#include "core/options.h"

#define EXIT_FAILED 1
#define EXIT_USAGE 2
#define EXIT_INTERRUPTED 130

#define usage_error opt_usage_error	/* one line on stderr, exit 2 */
#define bad_option opt_bad_option	/* getopt's ':' or '?': one line, exit 2 */

/* A verb: `bakeoff NAME ...` calls fn(argc, argv) with argv[0] = NAME;
 * its --help (and `bakeoff help NAME`) prints help, or calls help_fn
 * when the text is built (from a table). */
struct verb {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
	void (*help_fn)(void);
	const char *usage;	/* the line in `bakeoff --help` */
	const char *summary;
};
extern const struct verb verbs[];

int cmd_run(int argc, char **argv);
int cmd_completion(int argc, char **argv);	/* completion.c */
extern const char help_completion[];
void print_run_help(void);
int bench_help(const char *word);	/* bakeoff help BENCH: 0, or -1 when not a benchmark */
int cmd_list(int argc, char **argv);
extern const char help_list[];
int cmd_report(int argc, char **argv);
void print_report_help(void);
int cmd_chart(int argc, char **argv);
extern const char help_chart[];
int cmd_serve(int argc, char **argv);
extern const char help_serve[];
int cmd_sysinfo(int argc, char **argv);
extern const char help_sysinfo[];
int cmd_version(int argc, char **argv);
extern const char help_version[];
/* compare.c: bakeoff compare A.json B.json [C.json ...] [--baseline FILE]
 * [--strict] [--all] [--best]: the exit status, 0, 2 (usage or a bad
 * file), 3 (--strict and a fairness warning). compare_to prints to out
 * instead of stdout (bakeoff fleet); warnings and errors go to stderr. */
extern const char compare_help[];
int compare_main(int argc, char **argv);
int compare_to(int argc, char **argv, FILE *out);
int timecmd_main(int argc, char **argv);	/* time.c */
extern const char timecmd_help[];
int cmd_fleet(int argc, char **argv);
int cmd_history(int argc, char **argv);	/* history.c */
extern const char help_history[];
int cmd_check(int argc, char **argv);	/* check.c */
extern const char help_check[];
extern const char *cli_self;	/* argv[0] of main: the file fleet --push copies */

#endif
