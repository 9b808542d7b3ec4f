/* run.h — one run of benchmarks, start to finish (run.c): what `bakeoff
 * run` does once its command line is read. */
#ifndef BAKEOFF_RUN_H
#define BAKEOFF_RUN_H
#include <stdio.h>
#include "harness.h"
#include "result.h"

struct run_plan {
	const unsigned char *sel;	/* the registry entries to run (registry_count; NULL: none) */
	const struct bench *const *benches;	/* and these, a verb's own (time's command) */
	size_t nbenches;
	int runs;			/* --runs K (1: once) */
	struct harness_cfg cfg;
	struct bench_opts opt;
	const char *profile;		/* "standard", "quick" */
	const char *output;		/* -o: NULL results/HOST-UTCTIME.json, "-" stdout */
	const char *suffix;		/* in the default name: HOST-UTCTIME-time.json (NULL: none) */
	const char *dir;		/* the scratch directory's parent (NULL: $TMPDIR, /tmp) */
	const char *dirlist;		/* --dir as given, for the groups' prepare hooks */
	int quiet;			/* -q: no progress */
	int lines;			/* --progress: plain progress lines for a program */
	int argc;			/* the command as typed, kept in the result with */
	char **argv;			/* its secret options' values hidden */
	/* The table on standard output, rendered from the result read back
	 * from its JSON, exactly as `report` would (NULL: none). */
	void (*render)(const struct result *r, FILE *f, void *ctx);
	/* Once the result file is claimed (path; NULL: stdout) and the
	 * scratch directory made, before anything is measured: the verb's own
	 * set-up (time's log). 0, or -1 with one line in err (exit 2). */
	int (*ready)(struct run_plan *p, const char *path, char *err, size_t errlen);
	/* After the result is delivered: the verb's own last words. */
	void (*done)(const struct result *r, void *ctx);
	const char *note;		/* added to the "saved" line (", the log to FILE") */
	void *ctx;			/* for render, done */
};

/* The run: the selected groups' begin hooks, the result file claimed
 * before anything is measured, the scratch directory, the groups' prepare
 * and guard hooks, every selected benchmark measured in a process of its
 * own (a family's members together; --runs K interleaved, each in a fresh
 * process) with a progress line, the result saved after each, the table
 * rendered and the result delivered (result_deliver). Returns the exit
 * status: 0, 1 (a benchmark failed, or the output did not arrive), 2 (bad
 * usage or input, one line on stderr), 130 (interrupted: the finished
 * benchmarks are saved, marked so). */
int run_execute(struct run_plan *p);

#endif
