/* options.h — the options benchmarks read, declared once in a table (name,
 * type, default, range, help, which benchmarks read it), as fio's options
 * table does. The table drives `run`'s parsing, its --help, `bakeoff help
 * BENCH`, the check that every option given is read by some selected
 * benchmark, and the free-space and memory checks made before measuring.
 * Adding an option: a field in struct bench_opts or struct harness_cfg and
 * one row in options.c; a group's own: a field in the group's options
 * struct and one row in its table (struct bench_group's .options). The
 * rows are read as one table: options.c's, then each group's in
 * GROUP_LIST's order (opt_row). */
#ifndef BAKEOFF_OPTIONS_H
#define BAKEOFF_OPTIONS_H
#include <stddef.h>
#include <stdio.h>
#include "bench.h"
#include "harness.h"

enum opt_type {
	OT_UINT,	/* a whole number (int field) */
	OT_SIZE,	/* bytes with a binary suffix (uint64_t field) */
	OT_DURATION,	/* a duration with a unit (uint64_t ns field) */
	OT_FLAG,	/* no value (int field set to 1) */
	OT_UINT_LIST,	/* "2,4,8" (long[BENCH_MAX_LIST] field, int count at off2) */
	OT_SIZE_LIST,	/* "0,16k" (uint64_t[BENCH_MAX_LIST] field, int count at off2) */
	OT_WARMUP,	/* a count (cfg.warmup_reps) or a duration (cfg.ramp_ns) */
	OT_STRING,	/* text, at most 255 bytes (const char * field, pointing into argv) */
	OT_RATE,	/* bits per second with a decimal suffix: 100M, 1.5G (uint64_t field) */
	OT_PERCENT,	/* a percentage, "2%" or "2" (double field: the fraction, 0.02) */
	OT_PATH,	/* a file or directory name, at most 4095 bytes (const char *, into argv) */
	OT_LABEL,	/* KEY=VALUE, repeatable (const char *[BENCH_MAX_LABELS], int count at off2) */
	OT_STEADY,	/* KIND:PCT:DUR, iops:1%:30s (cfg.ss_bound, cfg.ss_window_ns) */
};

/* What an option is besides its value (struct optdef's flags). */
enum {
	OPTF_SECRET = 1u << 0,		/* never saved in a result, never printed (--token) */
	OPTF_FLEET_SETS = 1u << 1,	/* fleet sets it itself; given to `fleet -- run`, refused */
	OPTF_FLEET_DROP = 1u << 2,	/* fleet's own (progress, quiet): not passed to the hosts */
};

/* struct harness_cfg, struct bench_opts, or the options struct of the
 * group whose table holds the row */
enum opt_target { IN_CFG, IN_OPT, IN_GROUP };
/* A group's rows: OPT_IN(struct disk_opts, size), and for a list with its
 * count OPT_IN_LIST(struct disk_opts, bs, nbs). */
#define OPT_IN(type, f) IN_GROUP, offsetof(type, f), 0
#define OPT_IN_LIST(type, f, n) IN_GROUP, offsetof(type, f), offsetof(type, n)
/* Units for the rows' ranges: bytes and nanoseconds. */
#define OPT_KIB 1024.0
#define OPT_MIB (1024.0 * OPT_KIB)
#define OPT_GIB (1024.0 * OPT_MIB)
#define OPT_TIB (1024.0 * OPT_GIB)
#define OPT_MS 1e6
#define OPT_S 1e9

/* What a size option makes: checked against the free space of the scratch
 * directory's file system, or against available memory, before anything
 * is measured. */
enum opt_res { RES_NONE, RES_MEM, RES_DISK };

struct optdef {
	const char *name;	/* long option, without "--" */
	enum opt_type type;
	enum opt_target target;
	size_t off, off2;	/* offsetof the field (and of the list count) */
	const char *def;	/* default, as typed on the command line (NULL: 0) */
	const char *quick;	/* default under --quick (NULL: as def) */
	double min, max;	/* accepted range (bytes, ns or count) */
	const char *readers;	/* ids, prefixes or groups, comma-separated;
				 * "*" = every benchmark, "@long" = long-operation ones,
				 * "@loop" = calibrated-loop ones */
	const char *help;
	enum opt_res res;
	int res_mult;		/* the value is made this many times (x --parallel) */
	char letter;		/* its short form, -LETTER (0: none) */
	unsigned flags;		/* OPTF_* */
};

/* The whole table: rows 0 .. opt_count() - 1. */
size_t opt_count(void);
const struct optdef *opt_row(size_t i);
size_t opt_index(const struct optdef *d);	/* d's row number */
const struct optdef *opt_find(const char *name);
const struct optdef *opt_find_letter(int letter);	/* -LETTER's row, or NULL */

/* Values given on the command line, before defaults. */
#define OPT_ROWS_MAX 128
struct optset {
	unsigned char given[OPT_ROWS_MAX];	/* per row */
};
/* Was --name given? */
int opt_given(const struct optset *set, const char *name);

/* Parse the value of option `d` into cfg/opt; 0, or -1 with a one-line
 * message naming the option and the accepted range in err. */
int opt_parse(const struct optdef *d, const char *val, struct harness_cfg *cfg,
	      struct bench_opts *opt, char *err, size_t errlen);
/* Set every option not given to its default (quick or standard). */
int opt_defaults(const struct optset *set, int quick, struct harness_cfg *cfg,
		 struct bench_opts *opt);
/* A label KEY=VALUE as --label takes it (KEY: 1 to 32 of A-Z a-z 0-9 _ . -,
 * VALUE: at most 200 bytes, no control characters): 0, or -1 with why in
 * err. */
int opt_label_ok(const char *kv, char *err, size_t errlen);
/* Does benchmark b read option d? */
int opt_read_by(const struct optdef *d, const struct bench *b);
/* Every option given must be read by a selected benchmark: 0, or -1 with
 * the option and the benchmarks that would read it in err. */
int opt_check_readers(const struct optset *set, const unsigned char *sel, char *err,
		      size_t errlen);
/* Is --name an option whose value is a secret (--token)? */
int opt_secret(const char *name);
/* Options given together that contradict each other (--direct
 * --no-direct, --reverse --bidir): 0, or -1 with both named in err. */
int opt_check_exclusive(const struct optset *set, char *err, size_t errlen);
/* Sizes that do not fit: 0, or -1 with both figures in err. */
int opt_check_resources(const struct optset *set, const unsigned char *sel,
			const struct bench_opts *opt, const char *scratch_parent, char *err,
			size_t errlen);
/* The options table for `run --help` (all) or `help BENCH` (only b's). */
void opt_print_help(FILE *f, const struct bench *b);
/* Bad usage or input: "bakeoff: MESSAGE" as one line on stderr; returns 2,
 * the exit status for it. */
int opt_usage_error(const char *fmt, ...) BAKEOFF_PRINTF(1, 2);
/* getopt's ':' (a value missing) or '?' (unknown) for `bakeoff VERB`'s
 * option name: one line on stderr naming VERB's --help; returns 2. */
int opt_bad_option(const char *verb, int c, const char *name);

#endif
