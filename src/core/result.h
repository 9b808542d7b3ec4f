/* result.h — the result model: what a run measured, with its evidence,
 * written to and read back from JSON (schema bakeoff-result/1). */
#ifndef BAKEOFF_RESULT_H
#define BAKEOFF_RESULT_H
#include <stddef.h>
#include <time.h>
#include "bench.h"
#include "buf.h"
#include "clock.h"
#include "gauge.h"
#include "stats.h"
#include "sysinfo.h"

#define RESULT_SCHEMA "bakeoff-result/1"
/* The largest result file result_load reads (a full standard run writes
 * about 100 KiB; --all curves and long interval series stay far below). */
#define RESULT_MAX_BYTES ((size_t)256 << 20)

enum bench_status { ST_OK, ST_SKIPPED, ST_UNSUPPORTED, ST_FAILED, ST_INTERRUPTED };

struct param {
	char *key;
	char *str;	/* string value, or NULL for a number */
	double num;
};

struct metric {
	char *name;		/* "" for the benchmark's main figure */
	char *unit;
	enum better better;
	double *samples;	/* every sample, in measurement order, in unit */
	size_t nsamples;
	struct stats st;
	uint64_t iterations;	/* operations per sample (0 when not timed by the harness) */
	double overhead_ns;	/* timer + loop overhead subtracted from each sample */
	double *per_copy;	/* --parallel: median of each copy */
	size_t ncopies;
	char *note;		/* a warning about this figure, or NULL */
	int detail;		/* a curve point or an intermediate figure: kept in the
				 * file, left out of the default table */
	char *derived;		/* not timed: computed from other figures, and from
				 * what ("knee of the rand curve"); NULL when timed */
	double raw_ns;		/* median time per op before overhead subtraction (0: none) */
	double op_ns;		/* median time per op after it (0: not timed per op) */
	/* CPU time of the measured phase only (calibration excluded); all 0
	 * when not recorded. %CPU = (user_s + sys_s) / wall_s. */
	double cpu_wall_s, cpu_user_s, cpu_sys_s;
	/* The median of the core gauge (gauge.h) read after each sample (0: not
	 * read, as for long operations). */
	double gauge;
	/* Each reading, beside its sample (nsamples of them; NULL: none), and
	 * the figure of the samples read on a quiet core when only some were
	 * (result_quiet_figures: their median, their readings' median, and
	 * the other samples' median, split.shared; quiet_n, their count, 0:
	 * none such). */
	double *gauges;
	struct gauge_split split;
	size_t quiet_n;
	/* Per-interval figures of a long operation (NULL when none): interval
	 * k ends at iv_t[k] s from the start of its repetition, moved
	 * iv_amount[k] bytes or operations, at iv_value[k] in unit. */
	double *iv_t, *iv_value, *iv_amount;
	size_t niv;
	/* A long operation's amount per timed repetition (bytes or operations),
	 * beside its sample: nsamples of them, or NULL (older files, loops). */
	double *rep_amount;
	/* Per-operation latency percentiles (hist_count 0: none), in hist_unit. */
	uint64_t hist_count;
	char hist_unit[8];
	double hist_mean;	/* over every operation (0: not recorded, older files) */
	double hist_p50, hist_p90, hist_p99, hist_p999, hist_max;
	/* ---- disk ---- */
	/* The figure may be the page cache's, not the device's: a buffered
	 * test on a file under 2x RAM, or a rate above the memory ceiling
	 * ("cached?" in tables). */
	int cache_suspect;
	/* ---- end disk ---- */
	/* bakeoff run --runs K (K >= 2): the median and CV of each run's own
	 * samples, in run order (nruns 0: one run). samples then holds every
	 * run's samples and st describes them pooled. */
	double *run_median, *run_cv;
	size_t nruns;
	/* --ci-target: the half-width of the 95% CI asked for and the one
	 * reached, as fractions of the median (ci_target 0: none asked); the
	 * target was missed when ci_reached > ci_target. */
	double ci_target, ci_reached;
};

struct bench_result {
	char *id, *group, *title;
	enum bench_status status;
	char *reason;		/* for unsupported / failed / skipped / interrupted */
	struct param *params;
	size_t nparams;
	struct metric *metrics;
	size_t nmetrics;
	double wall_s, user_s, sys_s;	/* whole benchmark, incl. calibration */
};

struct guard {
	char verdict[16];	/* "valid" or "suspect" (guard_judge) */
	char **findings;
	size_t nfindings;
};

/* (result.c) A finding that says the machine disturbed the measurement (busy, load,
 * runnable tasks, steal, swapping, throttling; before the run or "during
 * ID: ..."), as opposed to a standing condition (a VM, a governor, a size). */
int guard_finding_suspect(const char *finding);
/* (result.c) A finding about one benchmark, "during ID: REST": REST, with
 * ID into id when id is not NULL; NULL for a finding about the whole run. */
const char *guard_finding_during(const char *finding, char *id, size_t n);
/* Set g's verdict: "suspect" when any finding is such a disturbance,
 * "valid" otherwise. */
void guard_judge(struct guard *g);

struct result {
	/* run */
	char **argv;
	int argc;
	char *profile;		/* "standard" or "quick" */
	char *start_utc;	/* ISO 8601 */
	double duration_s;
	int interrupted;
	int incomplete;		/* the file was saved while the run was still going */
	int parallel;
	int runs;		/* --runs K: each benchmark ran K times (0 or 1: once) */
	/* bakeoff fleet: the fleet run and the host as the command line named
	 * it (the ssh destination), added by fleet when it saves the file;
	 * NULL when the run was not made by fleet */
	char *fleet_id, *fleet_host;
	/* run --label KEY=VALUE, in the order given: "KEY=VALUE" each */
	char **labels;
	size_t nlabels;
	/* harness */
	struct clock_info clock;
	double loop_ns;
	double target_sample_ns;
	int samples;
	double ci_target;	/* --ci-target given (0: not) */
	struct sysinfo host;
	struct guard guard;
	struct bench_result *benches;
	size_t nbenches;
};

const char *status_name(enum bench_status s);
/* The value of label key in r (NULL: none). */
const char *result_label(const struct result *r, const char *key);
/* Add a label "KEY=VALUE" (checked as --label checks it): 0, or -1. */
int result_add_label(struct result *r, const char *kv);

/* The returned pointer (like those into br->metrics from result_add_metric)
 * stays valid only until the next call that adds to the same array. */
struct bench_result *result_add_bench(struct result *r, const char *id, const char *group,
				      const char *title);
/* Set br's status and reason; any status but ST_OK drops the figures it
 * has (a failed or interrupted benchmark keeps none, docs/results.md). */
void result_set_status(struct bench_result *br, enum bench_status st, const char *reason);
void result_param_num(struct bench_result *br, const char *key, double v);
void result_param_str(struct bench_result *br, const char *key, const char *v);
const struct param *result_param(const struct bench_result *br, const char *key);
/* Adds a metric, copying samples and computing its statistics. */
struct metric *result_add_metric(struct bench_result *br, const char *name, const char *unit,
				 enum better better, const double *samples, size_t n);
/* A figure computed from other figures: one value, marked derived (from
 * what), so it is not shown as n=1 with a CV of 0. Its core gauge is the
 * highest of br's timed figures' (it has no samples of its own to read it
 * beside). NULL when out of memory. */
struct metric *result_add_derived(struct bench_result *br, const char *name, const char *unit,
				  enum better better, double v, const char *from);
/* m's core gauge readings g[0..m->nsamples) (0: none taken), one after
 * each sample: kept, and their median into m->gauge. 0, or -1 (out of
 * memory). */
int result_metric_gauges(struct metric *m, const double *g);
/* Once every benchmark of r has run: each figure's samples read on a quiet
 * core (quiet, quiet_gauge, quiet_n), quiet by the reference of all the
 * run's readings together (gauge_reference, gauge_quiet). */
void result_quiet_figures(struct result *r);
const struct metric *result_metric(const struct bench_result *br, const char *name);
/* Give figure name a note after it is recorded, unless it has one; no
 * such figure: nothing. */
void result_note(struct bench_result *br, const char *name, const char *note);
const struct bench_result *result_bench(const struct result *r, const char *id);
void result_add_finding(struct guard *g, const char *fmt, ...) BAKEOFF_PRINTF(2, 3);

void result_to_json(const struct result *r, struct buf *out);
/* Strict reader: returns 0, or -1 with *off = byte offset and err set. */
int result_from_json(const char *text, size_t len, struct result *r, size_t *off, char *err,
		     size_t errlen);
/* Reads a whole file and parses it. Errors: "FILE: byte N: message".
 * path "-" reads standard input. Anything else must be a regular file
 * (a device, FIFO or directory is refused without blocking on it), of at
 * most RESULT_MAX_BYTES; reading stops at the first allocation failure. */
int result_load(const char *path, struct result *r, char *err, size_t errlen);
int result_from_json_lean(const char *text, size_t len, struct result *r, size_t *off, char *err,
			  size_t errlen);
/* The same without the bulk: every metric's samples, per-copy, per-interval
 * and per-run arrays are checked for syntax but left empty (the stored
 * statistics are kept). For readers of many files (history). */
int result_load_lean(const char *path, struct result *r, char *err, size_t errlen);
/* Claim a result file name before the run: create it exclusively (never
 * replacing a file). With numbered, a taken name gets -2, -3, ... inserted
 * before ".json" (path is updated). Returns 0, or -1 with err naming it. */
int result_claim(char *path, size_t n, int numbered, char *err, size_t errlen);
/* Claim where a run's result goes before measuring: `output` as given, or
 * results/HOST-UTCTIME<suffix>.json in the current directory (UTCTIME is
 * `when`, the run's start; results/ made when missing; the host name made
 * safe for a file name). Returns 0 with the name in path, or -1 with one
 * line in err. */
int result_claim_output(const char *output, const char *hostname, const char *suffix, time_t when,
			char *path, size_t n, char *err, size_t errlen);
/* A run refused after its claim: the claimed file goes (path; NULL: none),
 * and results/ too when the claim made it and it is empty. */
void result_unclaim(const char *path);
/* A finished result's JSON (made with r->incomplete 0) goes to standard
 * output (path NULL: -o -) or is saved over the claimed path, and the
 * table already printed on standard output is checked. Figures are never
 * lost silently: a result standard output did not take is saved to
 * results/HOST-TIME<suffix>.json instead; one that cannot be saved goes to
 * standard output; "result saved to PATH<also>" only for a file really
 * written. 0, or -1 when something did not arrive (said on stderr). */
int result_deliver(struct result *r, const struct buf *json, const char *path, const char *suffix,
		   const char *also);
/* The UTC time now, or t, in strftime's fmt. */
void result_utc_now(char *dst, size_t n, const char *fmt);
void result_utc_format(time_t t, char *dst, size_t n, const char *fmt);
/* Replace the claimed file's contents atomically (temp file in the same
 * directory, fsync unless interrupted, rename). Returns 0, or -1 with err
 * set. After Ctrl-C the fsync is skipped: behind a disk benchmark's dirty
 * pages it can take seconds, and the run must end within one; the file is
 * complete for every reader at once, only a power loss could lose it. */
int result_update(const struct buf *json, const char *path, char *err, size_t errlen);
/* Writes atomically (temp file + link, never replacing an existing file).
 * path "-" writes to stdout. Returns 0, or -1 with err set. */
int result_save(const struct result *r, const char *path, char *err, size_t errlen);
/* The same for a result already serialized by result_to_json. */
int result_save_text(const struct buf *json, const char *path, char *err, size_t errlen);
void result_free(struct result *r);
/* --runs: fold one more run of a benchmark (next) into acc, which holds the
 * runs so far (run is next's number, from 1): samples are pooled, the
 * statistics recomputed, and each run's median and CV kept. A metric of
 * next that acc lacks is added; a run that is not ok makes acc's status
 * its own (with "run N: " before the reason). Returns 0, or -1 (memory). */
int result_merge_run(struct bench_result *acc, const struct bench_result *next, int run);
/* A family's result (several benchmarks measured in one process, see
 * struct bench's family_run): move into out what belongs to the member
 * called name (the last component of its id). Metric "name" becomes out's
 * main figure and "name:x" its "x"; param "name:k" becomes "k", a param
 * with another "member:" prefix stays behind, and the rest is copied. out
 * gets fam's status, and its time divided among the nmembers. Returns
 * 0, or -1 (memory). */
int result_take_member(struct bench_result *fam, const char *name, int nmembers,
		       struct bench_result *out);
void result_bench_free(struct bench_result *br);
/* One bench_result as a JSON document (used between --parallel copies). */
int result_bench_to_fd(const struct bench_result *br, int fd);
int result_bench_from_text(const char *text, size_t len, struct bench_result *br);

#endif
