/* history.h — many result files over time: each file read once into a
 * short record (history.c; in memory, history-store.c), kept in an
 * index beside the results (history-index.c), grouped into series by
 * machine, and each figure's timeline searched for change points
 * (history.c), printed as text or CSV (history-out.c). The verbs are
 * cli/history.c and cli/check.c; docs/regressions.md explains the
 * method. */
#ifndef BAKEOFF_HISTORY_H
#define BAKEOFF_HISTORY_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include "result.h"

/* A figure's identity along a history: benchmark, metric, and the
 * settings it was measured with (a change of settings starts a new line,
 * never a change point). */
struct hx_key {
	char *id, *metric, *unit;
	char *settings;		/* "profile=quick, size_bytes=33554432" */
	int better;		/* enum better */
	int derived, detail;
};

struct hx_fig {
	size_t key;		/* into history.keys */
	double median, lo, hi;	/* the 95% CI of the median (lo = hi: none) */
	double gauge;		/* the core gauge's median (gauge.h; 0: none) */
	double quiet, quiet_gauge;	/* its quiet samples' median and gauge
					 * (gauge_quiet; 0: none such) */
	double quiet_shared;	/* and the median of its samples on a shared core */
};

/* One result file: what its index line holds. */
struct hx_file {
	char *path;
	long long size, mtime;
	char fp[17];		/* the machine's fingerprint, hex */
	char *facts;		/* what the fingerprint is made of, for --explain */
	char *host, *start, *kernel, *version, *profile;
	char *labels;		/* "KEY=VALUE" each, separated by '\x1f' ("" none) */
	time_t t;		/* start, seconds since the epoch UTC */
	int suspect;		/* the guard's verdict */
	int unjudgeable;	/* interrupted, incomplete, or a benchmark failed */
	char *failed;		/* why unjudgeable ("disk.seq failed: ...") */
	char *skip;		/* not a usable result, and why (kept in the index so
				 * it is said again without reading the file) */
	struct hx_fig *figs;
	size_t nfigs;
	int fresh;		/* read from its file this time (not from the index) */
};

struct history {
	struct hx_file *files;
	size_t nfiles, capfiles;
	struct hx_key *keys;
	size_t nkeys, capkeys;
	size_t *slots;		/* open-addressed table of keys (index + 1; 0 empty) */
	size_t nslots;
	size_t *runs;		/* the same for files, by machine, host, start, labels */
	size_t nruns;
	size_t nskipped;	/* files skipped, each said in one line */
	size_t nfuture;		/* runs that start in the future (a wrong clock) */
	char future[600];	/* the first of them, for the message */
	FILE *warn;		/* where those lines go (NULL: nowhere) */
	int no_index;		/* --no-index: read every file, write no index */
	int details;		/* detail figures (curve points) too: they are read from
				 * the files, never the index, which keeps main figures */
};

/* history-store.c: a history in memory, its records and keys. */
void history_init(struct history *h, FILE *warn);
void history_free(struct history *h);
void history_file_free(struct hx_file *f);
/* FNV-1a of s, on from x (the offset basis 14695981039346656037 to start). */
uint64_t history_fnv(uint64_t x, const char *s);
/* *p, an array of *cap elements of size bytes, made to hold need: 0, or
 * -1 (out of memory; *p unchanged). */
int history_grow(void **p, size_t *cap, size_t need, size_t size);
/* Add a result file, or every *.json under a directory (not following
 * symbolic links; the index DIR/.bakeoff-index is read and brought up to
 * date). A file that cannot be read is skipped with one line on h->warn.
 * 0, or -1 when path itself does not exist (one line in err). */
int history_add(struct history *h, const char *path, char *err, size_t errlen);
/* After the files are read: the runs from the future (one line) and the
 * count of skipped files, on h->warn. */
void history_say_summary(const struct history *h);
/* Why run r cannot be judged (interrupted, incomplete, a benchmark failed
 * or was interrupted), in why or a constant; NULL when it can be. */
const char *history_unjudgeable(const struct result *r, char *why, size_t n);
/* A record (an index's) taken into h as it is: 0, or -1 (out of memory). */
int history_add_record(struct history *h, struct hx_file *f);
/* The record of a result read elsewhere (check's NEW): 0, or -1. */
int history_add_result(struct history *h, const struct result *r, const char *path);
/* The interned key (index) of a figure; (size_t)-1 when out of memory. */
size_t history_key(struct history *h, const char *id, const char *metric, const char *unit,
		   const char *settings, int better, int derived, int detail);
/* "2026-12-02T13:08:15Z" as seconds since the epoch: 0, or -1. */
int history_parse_utc(const char *s, time_t *t);
/* A label's value in f (NULL: none), into buf. */
const char *history_label(const struct hx_file *f, const char *key, char *buf, size_t n);
/* Two figures alike but for a change: the whole file compared. */
const char *history_label_changes(const struct hx_file *a, const struct hx_file *b, char *out,
				  size_t n);

/* ---- series: the runs of one machine (and of one value of --by), in
 * order of their start (ties by file name) ---- */
struct hx_series {
	size_t *files;
	size_t n;
	char by[220];		/* "--by KEY=VALUE" of this series ("" none) */
};
/* Group h's files: one series per machine (fingerprint and host name),
 * split by the value of label by (NULL: not split). Returns how many. */
size_t history_series(const struct history *h, const char *by, struct hx_series **out);
void history_series_free(struct hx_series *s, size_t n);

/* ---- a figure's timeline and its change points ---- */
#define HX_MAX_CHANGES 32
struct hx_change {
	size_t at;		/* the first point after the change */
	double ratio, lo, hi;	/* after / before, 95% CI (Yuen: trimmed Welch on the logs) */
};
struct hx_trend {
	size_t key;
	size_t n;		/* points: runs of the series that have the figure */
	size_t *file;		/* each point's file (index into history.files) */
	double *v;		/* its median */
	double *q;		/* the figure searched: the median of its samples read on
				 * a quiet core where only some were (gauge_quiet), else
				 * its median (and its median with --include-shared) */
	unsigned char *used;	/* taken into the detection (not suspect nor shared, or included) */
	size_t nused;
	unsigned char *shared;	/* its core gauge says the core was shared (gauge.h) */
	size_t nshared;		/* of the runs searched (judged, and valid or included) */
	size_t npartly;		/* of those, searched at their quiet samples (q != v) */
	double shared_ratio;	/* the shared runs' median over the others' where 5% or
				 * more apart, else 1 (and 1 with --include-shared): the
				 * search divides their figures by it */
	double gauge_quiet;	/* the series' quietest core gauge (0: none read) */
	struct hx_change ch[HX_MAX_CHANGES];
	size_t nch;
	double floor;		/* the smallest change reported, a fraction */
	double spread;		/* the run-to-run spread it was learned from (0: fixed) */
	size_t floor_runs;	/* the runs the floor was learned from (0: the fixed floor) */
	const char *floor_kind;	/* the fixed floor's kind of figure */
};
/* The timeline of key in series s and its change points, the runs
 * included by `include` (HX_SUSPECT, HX_SHARED) taken in. 0, or -1. */
#define HX_SUSPECT 1	/* the guard's suspect runs (--include-suspect) */
#define HX_SHARED 2	/* runs on a shared core as measured (--include-shared) */
int history_trend(const struct history *h, const struct hx_series *s, size_t key,
		  int include, struct hx_trend *t);
void history_trend_free(struct hx_trend *t);
/* Point i's figure as the search takes it: a run on a shared core at the
 * quiet level (its median over shared_ratio). */
double history_point(const struct hx_trend *t, size_t i);
/* The floor's source in words: "this machine's history, 34 runs", or
 * "fixed, cpu: fewer than 10 runs". */
void history_floor_text(const struct hx_trend *t, char *out, size_t n);
/* The learned floor of the last stable segment's runs (after the last
 * change): used by check with a history as its baseline. */
#define HX_LEARN_MIN 10	/* runs needed to learn a floor */

/* ---- output (history-out.c) ---- */
struct hx_view {
	const char *const *metrics;	/* --metric: ids or prefixes (NULL: all) */
	size_t nmetrics;
	int all;			/* detail figures too */
	int timeline;			/* every run of every figure shown */
	int explain;			/* the fingerprint's facts */
	int include;			/* HX_SUSPECT, HX_SHARED */
	const char *by;
};
int history_print_text(const struct history *h, const struct hx_view *v, FILE *f);
int history_print_csv(const struct history *h, const struct hx_view *v, FILE *f);
/* --across: per machine fingerprint, the latest judged run of each host;
 * per figure, the hosts far from the others (a robust score from the
 * median and MAD of the hosts' logs, and a minimum effect), one line each. */
int history_print_across(const struct history *h, const struct hx_view *v, FILE *f);
/* The figures of series s that the view shows, in order of first
 * appearance, into *keys (malloc'd): how many. */
size_t history_series_keys(const struct history *h, const struct hx_series *s, const struct hx_view *v,
			   size_t **keys);
int history_print_html(const struct history *h, const struct hx_view *v, FILE *f);
/* Does figure key pass the view's --metric and --all? */
int history_key_shown(const struct history *h, const struct hx_view *v, size_t key);

/* ---- the index (history-index.c): DIR/.bakeoff-index, one line per
 * result file; the files stay the truth ---- */
#define HX_INDEX_NAME ".bakeoff-index"
/* DIR's index as records (keys interned into h): 0 with *recs, *n (none
 * when the index is missing), or -1 when it is damaged or written by
 * another version (why in err): then it is rebuilt. */
int history_index_read(struct history *h, const char *dir, struct hx_file **recs, size_t *n,
		       char *err, size_t errlen);
/* Write the index of dir: the records h->files[first..] and skipped
 * (skip records). 0, or -1 with why in err. */
int history_index_write(const struct history *h, const char *dir, size_t first,
			const struct hx_file *skipped, size_t nskipped, char *err, size_t errlen);
/* Only the fresh records, appended to dir's index as a new chunk (the
 * index was read whole and none of its records went away). */
int history_index_append(const struct history *h, const char *dir, size_t first,
			 const struct hx_file *skipped, size_t nskipped, char *err, size_t errlen);
/* The same on an open stream: the records of h->files[first..] and
 * skipped (dump), or read back (load; 0, or -1 with why in err). The
 * parallel reader's workers hand their records over this way too. */
int history_index_dump(FILE *out, const struct history *h, size_t first, const struct hx_file *skipped,
		       size_t nskipped, int fresh_only);
int history_index_load(struct history *h, FILE *in, struct hx_file **recs, size_t *n, char *err,
		       size_t errlen);

#endif
