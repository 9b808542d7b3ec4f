/* time.c — `bakeoff time`: time a real workload (a kernel build, a test
 * suite) the way the 1995 report did with csh's `time`, but repeated, with
 * medians, and into a result file.
 *
 * It runs on the harness's long-operation mode: one repetition is one run
 * of COMMAND, --prepare runs untimed before each (through /bin/sh -c),
 * --warmup W runs are made and discarded, -n N runs are timed. Each run is
 * started by a helper process (the runner) that forks COMMAND in its own
 * process group, waits for it and reads getrusage(RUSAGE_CHILDREN): in a
 * fresh process that is exactly the command's own usage and that of every
 * descendant it waited for (so max RSS is the command tree's, not the
 * largest of all runs so far), with POSIX calls only. The runner sends the
 * command's pid at once and its status and usage when it ends; bakeoff
 * waits on that pipe with harness_wait_fd, so Ctrl-C and --op-timeout stop
 * the wait and kill the command's process group. Real time is the
 * harness's clock around the run (the runner's start, ~0.2 ms, included).
 *
 * Standard input is /dev/null; standard output and error go to a log file
 * next to the result (FILE.log for FILE.json), or to the terminal with
 * --show-output. A run that exits non-zero or is killed fails the
 * benchmark with its status (exit 1) unless --ignore-status. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "harness.h"
#include "options.h"
#include "report/report.h"
#include "result.h"
#include "run.h"
#include "scratch.h"
#include "cli/cli.h"
#include "units.h"

const char timecmd_help[] =
	"usage: bakeoff time [-n N] [--warmup W] [--prepare CMD] [--cwd DIR]\n"
	"                    [--ignore-status] [--show-output] [-o FILE] [-q] -- COMMAND [ARGS]\n"
	"\n"
	"Run COMMAND W times unmeasured, then N times measured, and report for each\n"
	"run and as median, min and max: real, user and system time, %CPU, max RSS,\n"
	"blocks in and out, major and minor page faults, voluntary and involuntary\n"
	"context switches; each run also as a csh `time` line. Saves a result file\n"
	"(results/HOST-UTCTIME.json) that `bakeoff report` reads like any other.\n"
	"\n"
	"  -n, --reps N      timed runs (default 1; run's --reps, 1 to 1000)\n"
	"      --warmup W    runs made first and discarded (default 0)\n"
	"      --prepare CMD run CMD with /bin/sh -c before every run, untimed\n"
	"                    (e.g. 'make clean')\n"
	"      --cwd DIR     run COMMAND (and CMD) in DIR\n"
	"      --ignore-status  a run that exits non-zero or is killed is reported and\n"
	"                    kept; without it, it fails the measurement (exit 1)\n"
	"      --show-output COMMAND's output on the terminal; otherwise it goes to a\n"
	"                    log file next to the result (FILE.log for FILE.json)\n"
	"      --op-timeout DUR  a run (or --prepare) lasting longer is killed and the\n"
	"                    measurement fails (default 5m; 1h, 1d: see below)\n"
	"  -o, --output FILE write the result here ('-' = JSON on stdout; the log then\n"
	"                    goes to the scratch directory and is removed)\n"
	"  -q, --quiet       no progress lines on stderr\n"
	"      --json-stream FILE  one JSON line per timed run as it ends (a new\n"
	"                    file, a FIFO or -), as run's --json-stream\n"
	"\n"
	"Standard input is /dev/null. DUR: 500ms, 10s, 5m, 1h, 1d.\n"
	"Example (the 1995 report's kernel build, the warm second run kept):\n"
	"  bakeoff time --prepare 'make clean' -n 2 --cwd /usr/src/sys/compile/CORBIN -- make\n"
	"Exit status: 0 ok, 1 a run failed, 2 usage error, 130 interrupted.\n";

/* What one run used, as the runner sends it. */
struct usage_msg {
	int status;		/* as from waitpid */
	struct rusage ru;
};

struct time_state {
	char **argv;		/* the command */
	const char *prepare, *cwd, *json_stream;
	int show_output, ignore_status, quiet, warmup, reps;
	int log_fd;
	const char *log_path;
	int nruns;		/* runs made, warm-ups included */
	struct usage_msg *run;	/* one per run */
	uint64_t *real_ns;
	char failed[200];	/* status of the first run that failed (--ignore-status) */
	char cmd[1024];		/* the command as one line */
};

static struct time_state ts;

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* "exited with status 1", "killed by signal 9 (SIGKILL)" */
static void describe_status(char *out, size_t n, int status)
{
	if (WIFEXITED(status))
		snprintf(out, n, "exited with status %d%s", WEXITSTATUS(status),
			 WEXITSTATUS(status) == 127 ? " (not found or not executable?)" : "");
	else if (WIFSIGNALED(status))
		snprintf(out, n, "was killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(out, n, "ended with wait status %#x", status);
}

/* The runner: fork argv in its own process group, send its pid, wait,
 * send its status and usage. Never returns. */
static void runner(char *const *argv, int out)
{
	struct usage_msg m;
	pid_t pid;
	int null;

	memset(&m, 0, sizeof(m));
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		null = open("/dev/null", O_RDONLY);
		if (null >= 0 && null != 0) {
			dup2(null, 0);
			close(null);
		}
		if (!ts.show_output && ts.log_fd >= 0) {
			dup2(ts.log_fd, 1);
			dup2(ts.log_fd, 2);
		}
		if (ts.log_fd > 2)
			close(ts.log_fd);
		close(out);
		if (ts.cwd && chdir(ts.cwd) < 0) {
			fprintf(stderr, "bakeoff time: cannot change to %s: %s\n", ts.cwd, strerror(errno));
			_exit(126);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "bakeoff time: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	if (pid < 0)
		_exit(3);
	setpgid(pid, pid);	/* both sides, so neither races the other */
	if (write(out, &pid, sizeof(pid)) != (ssize_t)sizeof(pid))
		_exit(3);
	while (waitpid(pid, &m.status, 0) < 0)
		if (errno != EINTR)
			_exit(3);
	getrusage(RUSAGE_CHILDREN, &m.ru);
	_exit(write(out, &m, sizeof(m)) == (ssize_t)sizeof(m) ? 0 : 3);
}

/* Read exactly n bytes from fd, waiting through harness_wait_fd. */
static int read_msg(struct bench_ctx *ctx, int fd, void *p, size_t n, const char *what)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r;

		if (harness_wait_fd(ctx, fd, POLLIN, what) < 0)
			return -1;
		r = read(fd, (char *)p + got, n - got);
		if (r == 0) {
			snprintf(ctx->reason, sizeof(ctx->reason), "the helper running the command died");
			return -1;
		}
		if (r > 0)
			got += (size_t)r;
		else if (errno != EINTR) {
			snprintf(ctx->reason, sizeof(ctx->reason), "reading from the helper: %s",
				 strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* Run argv to its end; its status and usage into *m. Interrupted or timed
 * out: the command's process group is killed, -1 with ctx->reason set. */
static int run_command(struct bench_ctx *ctx, char *const *argv, struct usage_msg *m,
		       const char *what)
{
	struct timespec grace = { 0, 100000000 };	/* 100 ms to end on SIGTERM */
	int p[2], rc = -1;
	pid_t rpid, cpid = -1;

	if (pipe(p) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "pipe: %s", strerror(errno));
		return -1;
	}
	rpid = harness_fork();
	if (rpid == 0) {
		close(p[0]);
		runner(argv, p[1]);
	}
	close(p[1]);
	if (rpid < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "fork: %s", strerror(errno));
		close(p[0]);
		return -1;
	}
	if (read_msg(ctx, p[0], &cpid, sizeof(cpid), what) == 0 &&
	    read_msg(ctx, p[0], m, sizeof(*m), what) == 0)
		rc = 0;
	if (rc < 0 && cpid > 0) {
		kill(-cpid, SIGTERM);
		kill(-cpid, SIGCONT);
		nanosleep(&grace, NULL);
		kill(-cpid, SIGKILL);
	}
	if (rc < 0)
		kill(rpid, SIGKILL);
	while (waitpid(rpid, NULL, 0) < 0 && errno == EINTR)
		;
	close(p[0]);
	return rc;
}

static int time_prepare(void *state, struct long_run *lr)
{
	struct bench_ctx *ctx = long_ctx(lr);
	char *argv[] = { "/bin/sh", "-c", (char *)ts.prepare, NULL };
	struct usage_msg m;
	char st[100];

	(void)state;
	if (!ts.prepare)
		return 0;
	if (run_command(ctx, argv, &m, "the --prepare command") < 0)
		return -1;
	if (m.status != 0 && !ts.ignore_status) {
		describe_status(st, sizeof(st), m.status);
		snprintf(ctx->reason, sizeof(ctx->reason), "the --prepare command %s", st);
		return -1;
	}
	return 0;
}

static int time_op(void *state, struct long_run *lr)
{
	struct bench_ctx *ctx = long_ctx(lr);
	int k = ts.nruns, timed = k >= ts.warmup;
	uint64_t t0 = long_now(lr);
	struct usage_msg m;
	char st[100];

	(void)state;
	if (!ts.quiet)
		fprintf(stderr, "bakeoff time: %s %d of %d ...\n", timed ? "run" : "warm-up run",
			timed ? k - ts.warmup + 1 : k + 1, timed ? ts.reps : ts.warmup);
	if (run_command(ctx, ts.argv, &m, "the command") < 0)
		return -1;
	ts.run[k] = m;
	ts.real_ns[k] = long_now(lr) - t0;
	ts.nruns++;
	if (m.status != 0) {
		describe_status(st, sizeof(st), m.status);
		if (!ts.ignore_status) {
			snprintf(ctx->reason, sizeof(ctx->reason), "%s %d of %d: the command %s%s%s",
				 timed ? "run" : "warm-up run", timed ? k - ts.warmup + 1 : k + 1,
				 timed ? ts.reps : ts.warmup, st, ts.log_path ? "; its output is in " : "",
				 ts.log_path ? ts.log_path : "");
			return -1;
		}
		if (!ts.failed[0])
			snprintf(ts.failed, sizeof(ts.failed), "%s", st);
	}
	return long_progress(lr, 1) < 0 ? -1 : 0;
}

/* One figure per timed run. */
static int add_metric(struct bench_ctx *ctx, const char *name, const char *unit, int detail,
		      double (*get)(int k))
{
	int n = ts.nruns - ts.warmup, k;
	double *v = calloc((size_t)(n > 0 ? n : 1), sizeof(double));
	struct metric *m;

	if (!v)
		return -1;
	for (k = 0; k < n; k++)
		v[k] = get(ts.warmup + k);
	m = result_add_metric(ctx->res, name, unit, BETTER_LOWER, v, (size_t)n);
	free(v);
	if (!m)
		return -1;
	m->detail = detail;
	return 0;
}

static double of_real_s(int k) { return (double)ts.real_ns[k] / 1e9; }
static double of_user_s(int k) { return tv_s(ts.run[k].ru.ru_utime); }
static double of_sys_s(int k) { return tv_s(ts.run[k].ru.ru_stime); }
static double of_cpu_pct(int k) { return 100 * (of_user_s(k) + of_sys_s(k)) / of_real_s(k); }
static double of_maxrss(int k)
{
#ifdef __APPLE__
	return (double)ts.run[k].ru.ru_maxrss / 1024;	/* bytes there, KiB elsewhere */
#else
	return (double)ts.run[k].ru.ru_maxrss;
#endif
}
static double of_inblock(int k) { return (double)ts.run[k].ru.ru_inblock; }
static double of_oublock(int k) { return (double)ts.run[k].ru.ru_oublock; }
static double of_majflt(int k) { return (double)ts.run[k].ru.ru_majflt; }
static double of_minflt(int k) { return (double)ts.run[k].ru.ru_minflt; }
static double of_nvcsw(int k) { return (double)ts.run[k].ru.ru_nvcsw; }
static double of_nivcsw(int k) { return (double)ts.run[k].ru.ru_nivcsw; }
static double of_nswap(int k) { return (double)ts.run[k].ru.ru_nswap; }
/* csh's averages: the OS's memory integrals (KiB x ticks) over the CPU
 * time in 1/100 s, as BSD csh divides them; Linux keeps no integrals (0). */
static double of_cpu_ticks(int k) { return (of_user_s(k) + of_sys_s(k)) * 100; }
static double of_avg_shared(int k)
{
	return of_cpu_ticks(k) >= 1 ? (double)ts.run[k].ru.ru_ixrss / of_cpu_ticks(k) : 0;
}
static double of_avg_unshared(int k)
{
	return of_cpu_ticks(k) >= 1 ? (double)(ts.run[k].ru.ru_idrss + ts.run[k].ru.ru_isrss) /
				   of_cpu_ticks(k) : 0;
}
static double of_exit_status(int k)
{
	int s = ts.run[k].status;

	return WIFEXITED(s) ? WEXITSTATUS(s) : WIFSIGNALED(s) ? 128 + WTERMSIG(s) : -1;
}

static int time_run(struct bench_ctx *ctx)
{
	static const struct {
		const char *name, *unit;
		int detail;
		double (*get)(int k);
	} figs[] = {
		{ "user", "s", 0, of_user_s }, { "sys", "s", 0, of_sys_s }, { "cpu", "%", 0, of_cpu_pct },
		{ "maxrss", "KiB", 0, of_maxrss }, { "inblock", "blocks", 0, of_inblock },
		{ "oublock", "blocks", 0, of_oublock }, { "majflt", "faults", 0, of_majflt },
		{ "minflt", "faults", 0, of_minflt }, { "nvcsw", "switches", 0, of_nvcsw },
		{ "nivcsw", "switches", 0, of_nivcsw }, { "swaps", "swaps", 1, of_nswap },
		{ "avg_shared", "KiB", 1, of_avg_shared }, { "avg_unshared", "KiB", 1, of_avg_unshared },
		{ "status", "", 1, of_exit_status },
	};
	struct long_op lo = {
		.name = "", .unit = "s", .kind = KIND_LATENCY, .better = BETTER_LOWER,
		.prepare = time_prepare, .op = time_op, .total = 1,
	};
	size_t i;
	int n = ts.warmup + ts.reps;

	ts.run = calloc((size_t)n, sizeof(*ts.run));
	ts.real_ns = calloc((size_t)n, sizeof(*ts.real_ns));
	if (!ts.run || !ts.real_ns) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
	result_param_str(ctx->res, "command", ts.cmd);
	result_param_num(ctx->res, "runs", ts.reps);
	result_param_num(ctx->res, "warmup_runs", ts.warmup);
	if (ts.prepare)
		result_param_str(ctx->res, "prepare", ts.prepare);
	if (ts.cwd)
		result_param_str(ctx->res, "cwd", ts.cwd);
	if (ts.log_path)
		result_param_str(ctx->res, "log", ts.log_path);
	if (harness_long(ctx, &lo, NULL) < 0)
		return -1;
	for (i = 0; i < sizeof(figs) / sizeof(figs[0]); i++)
		if (add_metric(ctx, figs[i].name, figs[i].unit, figs[i].detail, figs[i].get) < 0) {
			snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
			return -1;
		}
	if (ts.failed[0])
		result_param_str(ctx->res, "failed_runs", ts.failed);
	return 0;
}

static const struct bench time_bench = {
	.id = "time", .group = "time", .title = "Timed command", .unit = "s",
	.better = BETTER_LOWER, .kind = KIND_LATENCY, .long_mode = 1, .run = time_run,
};

/* The command line as one string, words with shell specials quoted. */
static void join_command(char *out, size_t n, char **argv)
{
	size_t len = 0;
	int k;

	out[0] = 0;
	for (k = 0; argv[k] && len < n; k++) {
		int quote = !*argv[k] || strpbrk(argv[k], " \t\n'\"\\$`;&|<>()*?[]#~") != NULL;

		len += (size_t)snprintf(out + len, n - len, "%s%s%s%s", k ? " " : "",
					quote ? "'" : "", argv[k], quote ? "'" : "");
	}
}

/* One line on stderr, "bakeoff: time: ...", exit status 2. */
#define usage(...) opt_usage_error("time: " __VA_ARGS__)

enum { O_WARMUP = 256, O_PREPARE, O_CWD, O_IGNORE, O_SHOW, O_TIMEOUT, O_STREAM };

/* time's options and its COMMAND (into ts): 0, -1 after --help, or the
 * exit status of a usage error. */
static int time_options(int argc, char **argv, struct harness_cfg *cfg, const char **output)
{
	static const struct option longopts[] = {
		{ "warmup", required_argument, NULL, O_WARMUP },
		{ "prepare", required_argument, NULL, O_PREPARE },
		{ "cwd", required_argument, NULL, O_CWD },
		{ "ignore-status", no_argument, NULL, O_IGNORE },
		{ "show-output", no_argument, NULL, O_SHOW },
		{ "op-timeout", required_argument, NULL, O_TIMEOUT },
		{ "json-stream", required_argument, NULL, O_STREAM },
		{ "reps", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bench_opts opt = { .parallel = 1 };
	char err[400];
	struct stat sb;
	long l;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:n:o:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':	/* the options table's --reps; -n as csh users know it */
		case O_TIMEOUT:	/* and its --op-timeout */
			if (opt_parse(opt_find(c == 'n' ? "reps" : "op-timeout"), optarg, cfg, &opt, err,
				      sizeof(err)) < 0)
				return usage("%s", err);
			break;
		case O_WARMUP:
			if (parse_uint(optarg, 0, 1000, &l) < 0)
				return usage("invalid value '%s' for --warmup: expected a whole number "
					     "from 0 to 1000", optarg);
			cfg->warmup_reps = (int)l;
			break;
		case O_PREPARE:
			ts.prepare = optarg;
			break;
		case O_CWD:
			if (stat(optarg, &sb) < 0 || !S_ISDIR(sb.st_mode))
				return usage("--cwd %s: not a directory", optarg);
			ts.cwd = optarg;
			break;
		case O_STREAM: ts.json_stream = optarg; break;
		case O_IGNORE: ts.ignore_status = 1; break;
		case O_SHOW: ts.show_output = 1; break;
		case 'o':
			if (!*optarg)
				return usage("-o: expected a file name, or '-' for stdout");
			*output = optarg;
			break;
		case 'q': ts.quiet = 1; break;
		case 'h': fputs(timecmd_help, stdout); return -1;
		default:
			return bad_option("time", c, argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return usage("expected a COMMAND to run: bakeoff time [options] -- COMMAND [ARGS]");
	ts.argv = argv + optind;
	ts.reps = cfg->reps;
	ts.warmup = cfg->warmup_reps;
	return 0;
}

/* Once the result file is claimed: the command's log beside it (FILE.log
 * for FILE.json), or in the scratch directory with -o -. */
static int open_log(struct run_plan *p, const char *path, char *err, size_t errlen)
{
	static char logp[4200], note[4300];

	if (ts.show_output)
		return 0;
	if (path)
		snprintf(logp, sizeof(logp), "%.*s.log",
			 (int)(strlen(path) > 5 && !strcmp(path + strlen(path) - 5, ".json") ?
			       strlen(path) - 5 : strlen(path)), path);
	else
		scratch_file(logp, sizeof(logp), "time.log");
	ts.log_fd = open(logp, O_WRONLY | O_CREAT | O_EXCL | O_APPEND, 0644);
	if (ts.log_fd < 0) {
		snprintf(err, errlen, "time: cannot create the log file: %s", strerror(errno));
		return -1;
	}
	if (path) {
		ts.log_path = logp;
		snprintf(note, sizeof(note), ", the command's output to %s", logp);
		p->note = note;
	}
	return 0;
}

/* The table a run of time prints (its csh lines and figures). */
static void render(const struct result *r, FILE *f, void *ctx)
{
	(void)ctx;
	report_time(r, f);
}

/* After delivery: a failed measurement says why on stderr. */
static void done(const struct result *r, void *ctx)
{
	const struct bench_result *br = result_bench(r, time_bench.id);

	(void)ctx;
	if (ts.log_fd >= 0)
		close(ts.log_fd);
	if (br && br->status != ST_OK && br->reason)
		fprintf(stderr, "bakeoff: time: %s: %s\n", ts.cmd, br->reason);
}

int timecmd_main(int argc, char **argv)
{
	static const struct bench *const benches[] = { &time_bench };
	struct run_plan plan;
	const char *output = NULL;
	int rc;

	memset(&plan, 0, sizeof(plan));
	harness_default_cfg(&plan.cfg);
	plan.cfg.reps = 1;
	plan.cfg.interval_ns = UINT64_MAX / 4;	/* no per-interval figures: one run is one figure */
	memset(&ts, 0, sizeof(ts));
	ts.log_fd = -1;
	if ((rc = time_options(argc, argv, &plan.cfg, &output)) != 0)
		return rc < 0 ? 0 : rc;
	join_command(ts.cmd, sizeof(ts.cmd), ts.argv);
	plan.cfg.samples = plan.cfg.reps;	/* the result's samples: the timed runs */
	plan.benches = benches;
	plan.nbenches = 1;
	plan.runs = 1;
	plan.opt.parallel = 1;
	plan.opt.json_stream = ts.json_stream;
	plan.profile = "time";
	plan.output = output;
	plan.suffix = "-time";
	plan.quiet = ts.quiet;
	plan.argc = argc;
	plan.argv = argv;
	plan.render = render;
	plan.ready = open_log;
	plan.done = done;
	return run_execute(&plan);
}
