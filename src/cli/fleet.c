/* fleet.c — `bakeoff fleet`: the same `bakeoff run` on many hosts over
 * OpenSSH, N at a time, one progress line per host, each result saved as
 * results/FLEET-ID/HOST.json, then one report across the hosts (a summary
 * row per host, the network matrix, and `compare`).
 *
 * ssh is the engine (authentication, known_hosts, jump hosts, multiplexing
 * are the user's ssh configuration); bakeoff forks it (through /bin/sh -c,
 * so --ssh may be any command line) in a process group of its own, polls
 * its stdout (the result, `run -o -`) and stderr (`run --progress` lines,
 * and ssh's own errors, kept as the failure's reason). --launcher srun
 * puts Slurm's srun where ssh was: each session one task on a node
 * (struct launcher below); the rest is the same.
 *
 * ssh has no way to send a signal to the remote command without a pty, so
 * every remote command runs under a small sh watchdog: the command runs in
 * the background with stdin from /dev/null, and the shell reads the ssh
 * channel's stdin; when that read ends (fleet closed the pipe, or the
 * connection died with fleet or the network), the shell sends SIGTERM to
 * the command. bakeoff run stops at SIGTERM with the finished benchmarks
 * written out (`-o -`), so a stopped run still leaves its partial result;
 * its benchmark processes die with it (os_die_with_parent). Stopping a
 * session is: close its stdin, after 5 s SIGTERM to the local ssh's group,
 * after 2 s more SIGKILL (both drop the connection, which ends the read).
 *
 * --push: one "keeper" session per host prints `uname -sm`, the bakeoff on
 * the PATH (if any) and a private directory made with mktemp -d, then
 * reads its stdin; its EXIT trap removes the directory. The binary goes in
 * through a second session (stdin = the local file). The keeper's stdin is
 * closed at the very end, so the directory goes whether fleet finishes,
 * fails, is interrupted or dies (the connection's end ends the read too).
 *
 * Network benchmarks (run net) are not run per host: for each ordered pair
 * of hosts (or each host against --star HOST), one at a time so that pairs
 * do not share the network, `bakeoff serve --token RANDOM` starts on the
 * far host, listening on the address the host's sshd was reached at
 * (SSH_CONNECTION) or the one given as HOST=ADDR, and `bakeoff run net
 * --peer` runs on the near host. serve is stopped through its ssh channel
 * when the client is done (serve --once would end after the first test
 * session, and run net opens one session per benchmark and per copy). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include "buf.h"
#include "clock.h"
#include "cli/cli.h"
#include "cli/fleet.h"
#include "options.h"
#include "registry.h"
#include "result.h"
#include "str.h"
#include "units.h"
#include "net/proto.h"
#include "report/compare.h"
#include "report/history.h"
#include "report/report.h"

#define usage opt_usage_error	/* one line on stderr, exit 2 */

#define MAX_HOSTS 1024
#define SEC 1000000000ull
#define STOP_GRACE1 (5 * SEC)	/* stdin closed: the remote run saves and exits */
#define STOP_GRACE2 (2 * SEC)	/* SIGTERM to the local ssh, then SIGKILL */
#define SETUP_TIMEOUT (120 * SEC)	/* a keeper or a push */
#define SERVE_TIMEOUT (30 * SEC)	/* serve to say it listens */

/* How a command reaches a host: --launcher ssh (the default) or srun,
 * Slurm's, one task on the node named. /bin/sh -c runs `script`, with
 * the launcher's command (cmd, or --ssh) in its %s, the host as $1 and
 * the remote shell command as $2. addr: the shell that sets $a, the
 * address serve listens on, when no HOST=ADDR gives it. srun passes the
 * environment of the shell it started from, so SSH_CONNECTION would be
 * the login node's: under srun the address must be given. */
struct launcher {
	const char *name, *cmd, *script, *addr;
};

#define SSH_CMD "ssh -o BatchMode=yes -o ConnectTimeout=10"
#define SRUN_CMD "srun --nodes=1 --ntasks=1"

static const struct launcher launchers[] = {
	{ "ssh", SSH_CMD, "%s \"$@\"",
	  "set -- $SSH_CONNECTION; a=$3; [ -n \"$a\" ] || { echo 'bakeoff fleet: no SSH_CONNECTION "
	  "on the host: give its address as HOST=ADDR' >&2; exit 2; }" },
	{ "srun", SRUN_CMD, "%s --nodelist=\"$1\" /bin/sh -c \"$2\"",
	  "echo 'bakeoff fleet: under srun, give the node address as NODE=ADDR' >&2; exit 2" },
};

const char fleet_help[] =
	"usage: bakeoff fleet (-H HOST[,HOST...] | --hosts FILE) [--launcher ssh|srun]\n"
	"                     [--ssh CMD] [--jobs N] [--timeout DUR]\n"
	"                     [--remote-bin PATH | --push] [--star HOST]\n"
	"                     [--port N] [--id NAME] [--format text|html] [-q]\n"
	"                     -- run [RUN-ARGS...]\n"
	"\n"
	"Run `bakeoff run RUN-ARGS -o -` on every host over ssh (or srun), N at a time,\n"
	"with one progress line per host on stderr; save each result as\n"
	"results/FLEET-ID/HOST.json, then print one row per host, the network matrix\n"
	"and `bakeoff compare` across the hosts. Network benchmarks (run net) run\n"
	"between each ordered pair of hosts, one pair at a time: `bakeoff serve` on\n"
	"the far host, the client on the near one (see docs/fleet.md).\n"
	"\n"
	"  -H, --hosts-list LIST  hosts, comma-separated: ssh destinations ([user@]host\n"
	"                         or an alias of your ssh config), each optionally\n"
	"                         HOST=ADDR: the address other hosts reach it at\n"
	"      --hosts FILE       hosts one per line (same forms; # comments)\n"
	"      --launcher NAME    how commands reach the hosts: ssh (default), or srun:\n"
	"                         one Slurm task on each host, a node name (the\n"
	"                         network pairs then need NODE=ADDR)\n"
	"      --ssh CMD          the launcher's command and options, run by /bin/sh -c\n"
	"                         with the host and the remote command appended\n"
	"                         (default '" SSH_CMD "';\n"
	"                         srun: '" SRUN_CMD "')\n"
	"  -j, --jobs N           hosts at once, 1 to 256 (default 8)\n"
	"      --timeout DUR      a host's run lasting longer is stopped, its partial\n"
	"                         result kept (default 1h; 0 = none)\n"
	"      --remote-bin PATH  bakeoff on the hosts (default: bakeoff on their PATH)\n"
	"      --push             copy this bakeoff to hosts that have none on their\n"
	"                         PATH (same uname -sm only), into a private mktemp -d\n"
	"                         directory, removed afterwards even on failure\n"
	"      --star HOST        network: every other host against HOST only\n"
	"      --port N           network: the port serve listens on (default 5511)\n"
	"      --id NAME          the fleet id (default fleet-UTCTIME): the directory\n"
	"                         under results/; an existing one is never reused\n"
	"      --format FMT       text (default) or html: one page (report --format\n"
	"                         html of the hosts, with the fleet tables and compare)\n"
	"  -q, --quiet            no progress lines\n"
	"\n"
	"RUN-ARGS are those of bakeoff run (benchmarks, --quick, --runs, options);\n"
	"fleet sets -o, --progress, --peer and --token itself.\n"
	"Exit status: 0 every host ok, 1 a host, a pair or a benchmark failed (the\n"
	"others' results are kept), 2 usage error, 130 interrupted (what finished is\n"
	"kept; every remote run is stopped).\n";

static volatile sig_atomic_t fleet_signals;

static void on_signal(int sig)
{
	(void)sig;
	fleet_signals++;
}

/* ---- one ssh process ---- */

enum kind { K_KEEPER, K_PUSH, K_RUN, K_SERVE, K_CLIENT };

struct sess {
	int used;		/* started */
	enum kind kind;
	pid_t pid;		/* also its process group */
	int in, out, err;	/* our ends; -1 once closed */
	int reaped, status;
	uint64_t start, deadline, reaped_at, stop_at;
	int stop;		/* 0 running, 1 stdin closed, 2 SIGTERM sent, 3 SIGKILL sent */
	int timed_out;
	struct buf obuf;	/* stdout (the result; a keeper's lines) */
	char eline[1024], oline[1024];
	size_t elen, olen;
	char last[512];		/* the last stderr line that is not progress */
	char listen[160];	/* serve: the address it listens on */
	int pk, pn;		/* progress: benchmark k of n */
	char pid_[80], pstate[24];
	int changed;
};

enum hstate { H_WAIT, H_KEEPER, H_PUSH, H_RUN, H_READY, H_DONE, H_FAILED };

struct host {
	char *dest;		/* the ssh destination, as given */
	char *addr;		/* HOST=ADDR: the address others reach it at */
	char file[160];		/* dest made safe for a file name */
	enum hstate st;
	char bin[1024];		/* bakeoff on the host */
	char dir[1024];		/* --push: the private directory */
	int removed;		/* the keeper said it removed dir */
	struct sess keeper, push, run;
	char reason[700];
	char path[4096];	/* the saved result ("" none) */
	int nok, nfail, nother, interrupted;
	double dur;
	char shown[300];	/* the progress line last printed */
};

struct pair {
	size_t near, far;	/* client, server */
	struct sess serve, client;
	char reason[700];
	char path[4096];
	int ok;
};

struct fleet {
	struct host *h;
	size_t nh;
	const char *ssh, *remote_bin, *star;
	const struct launcher *launch;
	const struct report_format *format;	/* --format: a row of the format table */
	int jobs, push, port, quiet, tty;
	uint64_t timeout;
	char id[128], dir[4096];
	char **hargs, **nargs;	/* `run ...` for the host phase and the pairs */
	int nhargs, nnargs;
	char token[PROTO_COOKIE_LEN + 1];
	char arch[300];		/* local uname -sm */
	char self[4096];	/* the local binary */
	struct sess *act[2 * MAX_HOSTS + 8];
	size_t nact;
	struct pair *pairs;
	size_t npairs;
	int stopping;		/* interrupted: stop everything, start nothing */
	int drawn;		/* tty: lines of the progress block */
};

#define sq fleet_sh_quote

void fleet_sh_quote(struct buf *b, const char *s)
{
	buf_add(b, "'", 1);
	for (; *s; s++) {
		if (*s == '\'')
			buf_puts(b, "'\\''");
		else
			buf_add(b, s, 1);
	}
	buf_add(b, "'", 1);
}

static void act_add(struct fleet *f, struct sess *s)
{
	if (f->nact < sizeof(f->act) / sizeof(f->act[0]))
		f->act[f->nact++] = s;
}

static void set_nonblock_cloexec(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	fcntl(fd, F_SETFD, FD_CLOEXEC);
}

/* Start `SSH DEST REMOTE` with stdin from stdin_fd (-1: a pipe from us). */
static int sess_start(struct fleet *f, struct sess *s, enum kind kind, const char *dest,
		      const char *remote, int stdin_fd, uint64_t timeout)
{
	int pin[2] = { -1, -1 }, pout[2] = { -1, -1 }, perr[2] = { -1, -1 };
	char script[2048];
	pid_t pid;

	memset(s, 0, sizeof(*s));
	s->in = s->out = s->err = -1;
	s->kind = kind;
	s->used = 1;
	s->start = clock_ns();
	s->deadline = timeout ? s->start + timeout : 0;
	str_fmt(script, sizeof(script), f->launch->script, f->ssh);
	if ((stdin_fd < 0 && pipe(pin) < 0) || pipe(pout) < 0 || pipe(perr) < 0)
		goto fail;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		goto fail;
	if (pid == 0) {
		setpgid(0, 0);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		dup2(stdin_fd >= 0 ? stdin_fd : pin[0], STDIN_FILENO);
		dup2(pout[1], STDOUT_FILENO);
		dup2(perr[1], STDERR_FILENO);
		for (int i = 0; i < 2; i++) {	/* else it would hold its own stdin open */
			if (pin[i] > STDERR_FILENO)
				close(pin[i]);
			if (pout[i] > STDERR_FILENO)
				close(pout[i]);
			if (perr[i] > STDERR_FILENO)
				close(perr[i]);
		}
		execl("/bin/sh", "sh", "-c", script, "sh", dest, remote, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	s->pid = pid;
	if (stdin_fd < 0) {
		close(pin[0]);
		s->in = pin[1];
		fcntl(s->in, F_SETFD, FD_CLOEXEC);
	}
	close(pout[1]);
	close(perr[1]);
	s->out = pout[0];
	s->err = perr[0];
	set_nonblock_cloexec(s->out);
	set_nonblock_cloexec(s->err);
	act_add(f, s);
	return 0;
fail:
	str_fmt(s->last, sizeof(s->last), "cannot start %s: %s", f->launch->name, strerror(errno));
	for (int i = 0; i < 2; i++) {
		if (pin[i] >= 0)
			close(pin[i]);
		if (pout[i] >= 0)
			close(pout[i]);
		if (perr[i] >= 0)
			close(perr[i]);
	}
	s->reaped = 1;
	s->status = 255 << 8;
	return -1;
}

static int sess_done(const struct sess *s)
{
	return s->used && s->reaped && s->out < 0 && s->err < 0;
}

static void sess_close_in(struct sess *s)
{
	if (s->in >= 0) {
		close(s->in);
		s->in = -1;
	}
}

/* Stop a session: close its stdin now, signals later (advance_stop). */
static void sess_stop(struct sess *s)
{
	if (!s->used || s->reaped || s->stop)
		return;
	sess_close_in(s);
	s->stop = 1;
	s->stop_at = clock_ns() + STOP_GRACE1;
}

static void advance_stop(struct sess *s, uint64_t now)
{
	if (s->reaped || !s->stop || now < s->stop_at)
		return;
	if (s->stop == 1) {
		kill(-s->pid, SIGTERM);
		s->stop = 2;
		s->stop_at = now + STOP_GRACE2;
	} else if (s->stop == 2) {
		kill(-s->pid, SIGKILL);
		s->stop = 3;
		s->stop_at = now + STOP_GRACE2;
	}
}

static void on_line(struct sess *s, char *line, int is_err)
{
	const char *p;

	if (!is_err)
		return;
	if (strncmp(line, "bakeoff: progress ", 18) == 0) {
		int k, n, used = 0;
		char id[80], st[24];

		if (sscanf(line + 18, "%d/%d %79s %23s%n", &k, &n, id, st, &used) == 4) {
			s->pk = k, s->pn = n;
			str_copy(s->pid_, sizeof(s->pid_), id);
			str_copy(s->pstate, sizeof(s->pstate), st);
			s->changed = 1;
		}
		return;
	}
	if (s->kind == K_SERVE && !s->listen[0] && (p = strstr(line, " listening on "))) {
		p += 14;
		snprintf(s->listen, sizeof(s->listen), "%.*s", (int)strcspn(p, " "), p);
		s->changed = 1;
	}
	if (*str_trim(line))
		str_copy(s->last, sizeof(s->last), line);
}

static void take_lines(struct sess *s, const char *p, size_t n, int is_err)
{
	char *line = is_err ? s->eline : s->oline;
	size_t *len = is_err ? &s->elen : &s->olen;
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] == '\n' || *len == sizeof(s->eline) - 1) {
			line[*len] = 0;
			on_line(s, line, is_err);
			*len = 0;
			if (p[i] == '\n')
				continue;
		}
		line[(*len)++] = p[i];
	}
}

static void sess_read(struct sess *s, int is_err)
{
	int *fd = is_err ? &s->err : &s->out;
	char b[65536];
	ssize_t n;

	for (;;) {
		n = read(*fd, b, sizeof(b));
		if (n > 0) {
			if (is_err)
				take_lines(s, b, (size_t)n, 1);
			else if (s->obuf.len + (size_t)n <= RESULT_MAX_BYTES)
				buf_add(&s->obuf, b, (size_t)n);
			continue;
		}
		if (n < 0 && (errno == EINTR))
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		close(*fd);	/* end of file, or an error: done with it */
		*fd = -1;
		if (is_err && s->elen) {
			s->eline[s->elen] = 0;
			on_line(s, s->eline, 1);
			s->elen = 0;
		}
		return;
	}
}

/* One round: wait up to 100 ms for output, read it, reap, time out, stop. */
static void pump(struct fleet *f)
{
	struct pollfd pf[2 * (sizeof(f->act) / sizeof(f->act[0]))];
	struct sess *who[sizeof(pf) / sizeof(pf[0])];
	int isrr[sizeof(pf) / sizeof(pf[0])];
	nfds_t n = 0, i;
	uint64_t now;
	size_t k;

	for (k = 0; k < f->nact; k++) {
		struct sess *s = f->act[k];

		if (s->out >= 0)
			pf[n] = (struct pollfd){ s->out, POLLIN, 0 }, who[n] = s, isrr[n++] = 0;
		if (s->err >= 0)
			pf[n] = (struct pollfd){ s->err, POLLIN, 0 }, who[n] = s, isrr[n++] = 1;
	}
	if (poll(pf, n, 100) > 0)
		for (i = 0; i < n; i++)
			if (pf[i].revents)
				sess_read(who[i], isrr[i]);
	now = clock_ns();
	for (k = 0; k < f->nact; k++) {
		struct sess *s = f->act[k];
		int st;

		if (!s->reaped && waitpid(s->pid, &st, WNOHANG) == s->pid) {
			s->reaped = 1;
			s->status = st;
			s->reaped_at = now;
			sess_close_in(s);
			s->changed = 1;
		}
		/* something on the host side keeps the pipes: not ssh's business */
		if (s->reaped && now - s->reaped_at > 2 * SEC) {
			if (s->out >= 0)
				sess_read(s, 0);
			if (s->err >= 0)
				sess_read(s, 1);
			if (s->out >= 0)
				close(s->out), s->out = -1;
			if (s->err >= 0)
				close(s->err), s->err = -1;
		}
		if (!s->reaped && s->deadline && now > s->deadline && !s->timed_out) {
			s->timed_out = 1;
			sess_stop(s);
		}
		advance_stop(s, now);
	}
	for (k = 0; k < f->nact;) {	/* forget the finished */
		if (sess_done(f->act[k]))
			f->act[k] = f->act[--f->nact];
		else
			k++;
	}
	if (fleet_signals && !f->stopping) {
		f->stopping = 1;
		for (k = 0; k < f->nact; k++)
			if (f->act[k]->kind != K_KEEPER)
				sess_stop(f->act[k]);
	}
	if (fleet_signals > 1) {	/* Ctrl-C again: no more grace */
		for (k = 0; k < f->nact; k++)
			if (!f->act[k]->reaped && f->act[k]->stop < 2) {
				sess_close_in(f->act[k]);
				f->act[k]->stop = 1;
				f->act[k]->stop_at = 0;
				advance_stop(f->act[k], now);
			}
	}
}

/* ---- remote commands ---- */

/* The watchdog around a remote command (see the top of the file). */
static void watchdog(struct buf *b, const char *cmd)
{
	buf_puts(b, "exec 3<&0 </dev/null; ");
	buf_puts(b, cmd);
	buf_puts(b, " 3<&- & p=$!; (read _ <&3; kill -TERM $p) >/dev/null 2>&1 & w=$!; "
		 "exec 3<&-; wait $p; s=$?; kill $w 2>/dev/null; exit $s");
}

static void argv_words(struct buf *b, const char *bin, char **args, int n)
{
	int i;

	sq(b, bin);
	for (i = 0; i < n; i++) {
		buf_add(b, " ", 1);
		sq(b, args[i]);
	}
}

/* Why session s ended, in words; push: the binary was one fleet copied
 * (so "use --push" would be no advice). */
static const char *exit_reason(const struct fleet *f, const struct sess *s, char *dst, size_t n)
{
	int st = s->status, push = f->push;

	if (s->timed_out) {
		str_fmt(dst, n, "timed out after %.0f s", (double)(s->deadline - s->start) / 1e9);
		return dst;
	}
	if (WIFSIGNALED(st)) {
		str_fmt(dst, n, "%s was killed by signal %d%s%s", f->launch->name, WTERMSIG(st),
			s->last[0] ? ": " : "", s->last);
		return dst;
	}
	switch (WEXITSTATUS(st)) {
	case 0: str_copy(dst, n, "ok"); break;
	case 255:
		str_fmt(dst, n, "%s failed: %s", f->launch->name, s->last[0] ? s->last : "exit status 255");
		break;
	case 126: case 127:
		str_fmt(dst, n, "no bakeoff to run on the host (%s)%s",
			s->last[0] ? s->last : "command not found",
			push ? "" : "; use --push or --remote-bin");
		break;
	case 130:
		str_fmt(dst, n, "interrupted");
		break;
	default:
		if (WEXITSTATUS(st) > 128)	/* (its last line is the shell's "Killed") */
			str_fmt(dst, n, "bakeoff was killed by signal %d on the host",
				WEXITSTATUS(st) - 128);
		else
			str_fmt(dst, n, "exit status %d%s%s", WEXITSTATUS(st), s->last[0] ? ": " : "",
				s->last);
	}
	return dst;
}

/* Save a run session's result (its stdout) as path, marked with the fleet
 * id and host; counts go to h when not NULL. 0 saved, -1 nothing usable
 * (why in reason). */
static int save_result(struct fleet *f, struct sess *s, const char *host, const char *path,
		       struct host *h, char *reason, size_t rn)
{
	struct result r = { 0 };
	struct buf json = { 0 };
	char err[600];
	size_t off = 0, i;
	int rc = -1;

	if (s->obuf.len == 0 || s->obuf.oom) {
		if (reason)
			str_copy(reason, rn, "no result came back");
		return -1;
	}
	if (result_from_json(s->obuf.p, s->obuf.len, &r, &off, err, sizeof(err)) < 0) {
		str_fmt(reason, rn, "its output is not a result file: byte %zu: %s", off, err);
		goto out;
	}
	r.fleet_id = strdup(f->id);
	r.fleet_host = strdup(host);
	result_to_json(&r, &json);
	if (!r.fleet_id || !r.fleet_host || result_save_text(&json, path, err, sizeof(err)) < 0) {
		str_fmt(reason, rn, "cannot save the result: %s", r.fleet_id ? err : "out of memory");
		goto out;
	}
	if (h) {
		for (i = 0; i < r.nbenches; i++) {
			if (r.benches[i].status == ST_OK)
				h->nok++;
			else if (r.benches[i].status == ST_FAILED)
				h->nfail++;
			else
				h->nother++;
		}
		h->dur = r.duration_s;
		h->interrupted = r.interrupted;
	}
	rc = 0;
out:
	buf_free(&json);
	result_free(&r);
	return rc;
}

/* ---- progress ---- */

static void host_line(const struct host *h, char *dst, size_t n)
{
	const struct sess *s = &h->run;

	switch (h->st) {
	case H_WAIT: str_copy(dst, n, "waiting"); break;
	case H_KEEPER: str_copy(dst, n, "connecting"); break;
	case H_PUSH: str_copy(dst, n, "copying bakeoff"); break;
	case H_READY: str_copy(dst, n, "ready"); break;
	case H_RUN:
		if (s->pn && strcmp(s->pstate, "running") == 0)
			str_fmt(dst, n, "[%d/%d done] %s", s->pk - 1, s->pn, s->pid_);
		else if (s->pn)
			str_fmt(dst, n, "[%d/%d done] %s %s", s->pk, s->pn, s->pid_, s->pstate);
		else
			str_copy(dst, n, "starting");
		break;
	case H_DONE:
		str_fmt(dst, n, "done: %d ok, %d failed, %d other (%.1f s)", h->nok, h->nfail, h->nother,
			h->dur);
		break;
	case H_FAILED: str_fmt(dst, n, "failed: %s", h->reason); break;
	}
}

static void draw(struct fleet *f)
{
	size_t k, w = 4;
	char line[300];

	if (f->quiet)
		return;
	for (k = 0; k < f->nh; k++)
		if (strlen(f->h[k].dest) > w)
			w = strlen(f->h[k].dest);
	if (w > 40)
		w = 40;
	if (f->tty) {
		const char *cols = getenv("COLUMNS");
		int changed = 0, width = cols && atoi(cols) > 20 ? atoi(cols) : 80;
		/* a line that wraps would break the redraw (cursor up by lines) */
		int room = width - 3 - (int)w;

		for (k = 0; k < f->nh; k++) {
			host_line(&f->h[k], line, sizeof(line));
			changed |= strcmp(line, f->h[k].shown) != 0;
		}
		if (!changed && f->drawn)
			return;
		if (f->drawn)
			fprintf(stderr, "\033[%dA", f->drawn);
		for (k = 0; k < f->nh; k++) {
			host_line(&f->h[k], line, sizeof(line));
			str_copy(f->h[k].shown, sizeof(f->h[k].shown), line);
			fprintf(stderr, "\r\033[K%-*.*s  %.*s\n", (int)w, (int)w, f->h[k].dest,
				room > 10 ? room : 10, line);
		}
		f->drawn = (int)f->nh;
	} else {
		for (k = 0; k < f->nh; k++) {
			host_line(&f->h[k], line, sizeof(line));
			if (strcmp(line, f->h[k].shown)) {
				str_copy(f->h[k].shown, sizeof(f->h[k].shown), line);
				fprintf(stderr, "%-*s  %s\n", (int)w, f->h[k].dest, line);
			}
		}
	}
	fflush(stderr);
}

/* ---- the host phase: keepers, pushes, runs ---- */

static void host_fail(struct host *h, const char *fmt, ...) BAKEOFF_PRINTF(2, 3);
static void host_fail(struct host *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->reason, sizeof(h->reason), fmt, ap);
	va_end(ap);
	h->st = H_FAILED;
	sess_close_in(&h->keeper);	/* the private directory goes now */
}

static void start_run(struct fleet *f, struct host *h)
{
	struct buf cmd = { 0 }, w = { 0 };

	if (f->stopping) {
		host_fail(h, "not started (interrupted)");
		return;
	}
	if (!f->hargs) {
		h->st = H_READY;
		return;
	}
	if (h->dir[0]) {	/* its scratch goes with the private directory */
		buf_puts(&cmd, "TMPDIR=");
		sq(&cmd, h->dir);
		buf_puts(&cmd, " ");
	}
	argv_words(&cmd, h->bin, f->hargs, f->nhargs);
	watchdog(&w, cmd.p);
	if (sess_start(f, &h->run, K_RUN, h->dest, w.p, -1, f->timeout) < 0)
		host_fail(h, "%s", h->run.last);
	else
		h->st = H_RUN;
	buf_free(&cmd);
	buf_free(&w);
}

static void start_host(struct fleet *f, struct host *h)
{
	static const char keeper[] =
		"echo \"arch $(uname -sm)\"; echo \"bin $(command -v bakeoff)\"; umask 077; "
		"d=$(mktemp -d \"${TMPDIR:-/tmp}/bakeoff-fleet.XXXXXX\") || exit 1; "
		"trap 'rm -rf \"$d\" && echo removed' EXIT; trap 'exit 1' HUP INT TERM; "
		"echo \"dir $d\"; read _";

	if (!f->push) {
		str_copy(h->bin, sizeof(h->bin), f->remote_bin ? f->remote_bin : "bakeoff");
		start_run(f, h);
		return;
	}
	if (sess_start(f, &h->keeper, K_KEEPER, h->dest, keeper, -1, 0) < 0) {
		host_fail(h, "%s", h->keeper.last);
		return;
	}
	h->keeper.deadline = clock_ns() + (f->timeout && f->timeout < SETUP_TIMEOUT ? f->timeout
										       : SETUP_TIMEOUT);
	h->st = H_KEEPER;
}

/* A keeper's lines: "arch ...", "bin ...", "dir ...", "removed". */
static const char *keeper_get(const struct sess *s, const char *key, char *dst, size_t n)
{
	const char *p = s->obuf.p, *e;
	size_t kl = strlen(key);

	for (; p && *p; p = e + 1) {
		e = strchr(p, '\n');
		if (!e)
			return NULL;	/* only whole lines */
		if ((size_t)(e - p) >= kl + 1 && strncmp(p, key, kl) == 0 && p[kl] == ' ') {
			snprintf(dst, n, "%.*s", (int)(e - p - (ptrdiff_t)kl - 1), p + kl + 1);
			return dst;
		}
		if ((size_t)(e - p) == kl && strncmp(p, key, kl) == 0) {
			str_copy(dst, n, "");
			return dst;
		}
	}
	return NULL;
}

static void step_keeper(struct fleet *f, struct host *h)
{
	struct sess *k = &h->keeper;
	char arch[300], bin[1024], dir[1024], why[700];
	int fd;

	if (!keeper_get(k, "dir", dir, sizeof(dir))) {
		if (sess_done(k) || k->timed_out)
			host_fail(h, "%s", k->timed_out ? "no answer in time (connecting, mktemp)"
					 : exit_reason(f, k, why, sizeof(why)));
		return;
	}
	k->deadline = 0;	/* it waits for us now */
	if (!keeper_get(k, "arch", arch, sizeof(arch)) || !keeper_get(k, "bin", bin, sizeof(bin)) ||
	    dir[0] != '/') {
		host_fail(h, "unexpected answer from the host's shell (is it a POSIX shell?)");
		return;
	}
	str_copy(h->dir, sizeof(h->dir), dir);
	if (f->stopping) {
		host_fail(h, "not started (interrupted)");
		return;
	}
	if (bin[0] == '/') {	/* the host has its own: used, not replaced */
		str_copy(h->bin, sizeof(h->bin), bin);
		start_run(f, h);
		return;
	}
	if (strcmp(arch, f->arch)) {
		host_fail(h, "no bakeoff on the host and its system is \"%s\", not \"%s\" like this "
			  "one: install bakeoff there or use --remote-bin", arch, f->arch);
		return;
	}
	fd = open(f->self, O_RDONLY);
	if (fd < 0) {
		host_fail(h, "cannot read %s to push it: %s", f->self, strerror(errno));
		return;
	}
	{
		struct buf cmd = { 0 };
		char part[1100];

		str_fmt(part, sizeof(part), "%s/bakeoff.part", dir);
		buf_puts(&cmd, "umask 077; cat >");
		sq(&cmd, part);
		buf_puts(&cmd, " && chmod 700 ");
		sq(&cmd, part);
		buf_puts(&cmd, " && mv ");
		sq(&cmd, part);
		buf_puts(&cmd, " ");
		str_fmt(h->bin, sizeof(h->bin), "%s/bakeoff", dir);
		sq(&cmd, h->bin);
		if (sess_start(f, &h->push, K_PUSH, h->dest, cmd.p, fd,
			       f->timeout && f->timeout < SETUP_TIMEOUT ? f->timeout : SETUP_TIMEOUT) < 0)
			host_fail(h, "%s", h->push.last);
		else
			h->st = H_PUSH;
		buf_free(&cmd);
	}
	close(fd);
}

static int host_busy(const struct host *h)
{
	return h->st == H_KEEPER || h->st == H_PUSH || h->st == H_RUN;
}

static void step_hosts(struct fleet *f)
{
	size_t k, busy = 0;
	char why[700];

	for (k = 0; k < f->nh; k++) {
		struct host *h = &f->h[k];

		if (h->st == H_KEEPER)
			step_keeper(f, h);
		if (h->st == H_PUSH && sess_done(&h->push)) {
			if (!h->push.timed_out && WIFEXITED(h->push.status) && WEXITSTATUS(h->push.status) == 0)
				start_run(f, h);
			else
				host_fail(h, "copying bakeoff failed: %s", exit_reason(f, &h->push, why, sizeof(why)));
		}
		if (h->st == H_RUN && sess_done(&h->run)) {
			char reason[700];
			int saved;

			str_fmt(h->path, sizeof(h->path), "%s/%s.json", f->dir, h->file);
			saved = save_result(f, &h->run, h->dest, h->path, h, reason, sizeof(reason)) == 0;
			if (!saved)
				h->path[0] = 0;
			exit_reason(f, &h->run, why, sizeof(why));
			if (!h->run.timed_out && WIFEXITED(h->run.status) &&
			    (WEXITSTATUS(h->run.status) == 0 || WEXITSTATUS(h->run.status) == 1) && saved) {
				h->st = H_DONE;
			} else if (saved) {	/* a partial result: kept, the host failed */
				h->st = H_FAILED;
				str_fmt(h->reason, sizeof(h->reason), "%s (partial result kept)", why);
			} else {
				host_fail(h, "%s%s%s", why, strcmp(why, "ok") ? "; " : "", reason);
			}
			/* the private directory (and the pushed binary in it) goes
			 * now, unless the network pairs still need it */
			if (!f->npairs)
				sess_close_in(&h->keeper);
		}
		busy += host_busy(h);
	}
	for (k = 0; k < f->nh && (size_t)f->jobs > busy; k++) {
		struct host *h = &f->h[k];

		if (h->st != H_WAIT)
			continue;
		if (f->stopping) {
			host_fail(h, "not started (interrupted)");
			continue;
		}
		start_host(f, h);
		busy += host_busy(h);
	}
	if (f->stopping)
		for (k = 0; k < f->nh; k++)
			if (f->h[k].st == H_WAIT)
				host_fail(&f->h[k], "not started (interrupted)");
}

static int hosts_settled(const struct fleet *f)
{
	size_t k;

	for (k = 0; k < f->nh; k++)
		if (f->h[k].st == H_WAIT || host_busy(&f->h[k]))
			return 0;
	return 1;
}

/* ---- the network matrix ---- */

static void run_pair(struct fleet *f, struct pair *p)
{
	struct host *nh = &f->h[p->near], *fh = &f->h[p->far];
	struct buf cmd = { 0 }, w = { 0 };
	char port[16], why[700], reason[700];
	int i;

	if (f->stopping) {
		str_copy(p->reason, sizeof(p->reason), "not run (interrupted)");
		return;
	}
	if (nh->st == H_FAILED || fh->st == H_FAILED) {
		str_fmt(p->reason, sizeof(p->reason), "not run: %s failed",
			nh->st == H_FAILED ? nh->dest : fh->dest);
		return;
	}
	if (!f->quiet)
		fprintf(stderr, "net: %s -> %s: starting bakeoff serve on %s\n", nh->dest, fh->dest,
			fh->dest);
	/* serve, on HOST=ADDR or the address the far host's sshd was reached at */
	str_fmt(port, sizeof(port), "%d", f->port);
	buf_puts(&cmd, "a=");
	sq(&cmd, fh->addr ? fh->addr : "");
	buf_puts(&cmd, "; [ -n \"$a\" ] || { ");
	buf_puts(&cmd, f->launch->addr);
	buf_puts(&cmd, "; }; case $a in *:*) a=\"[$a]\";; esac; ");
	buf_puts(&w, cmd.p);
	buf_free(&cmd);
	memset(&cmd, 0, sizeof(cmd));
	sq(&cmd, fh->bin);
	buf_puts(&cmd, " serve --max-clients 64 --token ");
	sq(&cmd, f->token);
	buf_puts(&cmd, " --listen \"$a:");
	buf_puts(&cmd, port);
	buf_puts(&cmd, "\"");
	watchdog(&w, cmd.p);
	buf_free(&cmd);
	if (sess_start(f, &p->serve, K_SERVE, fh->dest, w.p, -1, SERVE_TIMEOUT) < 0) {
		str_fmt(p->reason, sizeof(p->reason), "%s", p->serve.last);
		buf_free(&w);
		return;
	}
	buf_free(&w);
	while (!p->serve.listen[0] && !sess_done(&p->serve) && !p->serve.timed_out)
		pump(f);
	p->serve.deadline = 0;
	if (!p->serve.listen[0]) {
		str_fmt(p->reason, sizeof(p->reason), "bakeoff serve did not start on %s: %s", fh->dest,
			f->stopping ? "interrupted" : exit_reason(f, &p->serve, why, sizeof(why)));
		sess_stop(&p->serve);
		while (!sess_done(&p->serve))
			pump(f);
		return;
	}
	/* the client, on the near host */
	memset(&cmd, 0, sizeof(cmd));
	if (nh->dir[0]) {
		buf_puts(&cmd, "TMPDIR=");
		sq(&cmd, nh->dir);
		buf_puts(&cmd, " ");
	}
	argv_words(&cmd, nh->bin, f->nargs, f->nnargs);
	buf_puts(&cmd, " --peer ");
	sq(&cmd, p->serve.listen);
	buf_puts(&cmd, " --token ");
	sq(&cmd, f->token);
	memset(&w, 0, sizeof(w));
	watchdog(&w, cmd.p);
	buf_free(&cmd);
	i = sess_start(f, &p->client, K_CLIENT, nh->dest, w.p, -1, f->timeout);
	buf_free(&w);
	if (i == 0) {
		int last = -1;

		while (!sess_done(&p->client)) {
			pump(f);
			if (!f->quiet && p->client.changed && p->client.pn && p->client.pk != last) {
				last = p->client.pk;
				fprintf(stderr, "net: %s -> %s: [%d/%d] %s\n", nh->dest, fh->dest, p->client.pk,
					p->client.pn, p->client.pid_);
			}
			p->client.changed = 0;
		}
	}
	sess_stop(&p->serve);
	while (!sess_done(&p->serve))
		pump(f);
	if (i < 0) {
		str_copy(p->reason, sizeof(p->reason), p->client.last);
		return;
	}
	str_fmt(p->path, sizeof(p->path), "%s/net-%s-to-%s.json", f->dir, nh->file, fh->file);
	{
		char label[700];
		int saved;

		str_fmt(label, sizeof(label), "%s -> %s", nh->dest, fh->dest);
		saved = save_result(f, &p->client, label, p->path, NULL, reason, sizeof(reason)) == 0;
		exit_reason(f, &p->client, why, sizeof(why));
		if (!saved)
			p->path[0] = 0;
		p->ok = saved && !p->client.timed_out && WIFEXITED(p->client.status) &&
			WEXITSTATUS(p->client.status) == 0;
		if (!p->ok)
			str_fmt(p->reason, sizeof(p->reason), "%s%s%s", why, saved ? " (result kept)" : "; ",
				saved ? "" : reason);
	}
	if (!f->quiet)
		fprintf(stderr, "net: %s -> %s: %s\n", nh->dest, fh->dest, p->ok ? "done" : p->reason);
}

/* ---- the report ---- */

static void print_summary(struct fleet *f, FILE *out)
{
	size_t k, w = 4, nok = 0;
	int tok = 0, tfail = 0, tother = 0;
	double tdur = 0;

	for (k = 0; k < f->nh; k++)
		if (strlen(f->h[k].dest) > w)
			w = strlen(f->h[k].dest);
	fprintf(out, "fleet %s: %zu host%s, results in %s/\n\n", f->id, f->nh, f->nh == 1 ? "" : "s",
		f->dir);
	fprintf(out, "%-*s  %-7s %5s %6s %6s %9s  %s\n", (int)w, "host", "status", "ok", "failed",
		"other", "time (s)", "result file, or why it failed");
	for (k = 0; k < f->nh; k++) {
		const struct host *h = &f->h[k];
		int ok = h->st == H_DONE && h->nfail == 0;

		nok += ok;
		fprintf(out, "%-*s  %-7s ", (int)w, h->dest,
			h->st == H_READY ? "ready" : ok ? "ok" : "failed");
		if (h->path[0] || h->st == H_DONE) {
			fprintf(out, "%5d %6d %6d %9.1f  ", h->nok, h->nfail, h->nother, h->dur);
			tok += h->nok, tfail += h->nfail, tother += h->nother, tdur += h->dur;
		} else {
			fprintf(out, "%5s %6s %6s %9s  ", "-", "-", "-", "-");
		}
		if (h->st == H_FAILED)
			fprintf(out, "%s%s%s\n", h->reason, h->path[0] ? ": " : "", h->path);
		else
			fprintf(out, "%s\n", h->path[0] ? h->path : h->st == H_READY ? "(network only)" : "");
	}
	if (f->hargs)
		fprintf(out, "\nfleet totals (sums over hosts of counts and time, not of figures): "
			"%zu of %zu hosts ok; benchmarks %d ok, %d failed, %d other; %.1f s of host "
			"time\n", nok, f->nh, tok, tfail, tother, tdur);
}

static void print_matrix(struct fleet *f, FILE *out)
{
	struct result *rs;
	size_t k, i, j, w = 6, lw = 15, done = 0;
	char err[600];

	if (!f->npairs)
		return;
	fprintf(out, "\nnetwork: %zu pair%s, one at a time (client = row, the near host; server = "
		"column, the far host)\n", f->npairs, f->npairs == 1 ? "" : "s");
	rs = calloc(f->npairs, sizeof(*rs));
	if (!rs)
		return;
	for (k = 0; k < f->npairs; k++) {
		if (f->pairs[k].path[0] && result_load(f->pairs[k].path, &rs[k], err, sizeof(err)) < 0)
			str_copy(f->pairs[k].path, sizeof(f->pairs[k].path), "");
		if (!f->pairs[k].ok)
			fprintf(out, "  %s -> %s failed: %s\n", f->h[f->pairs[k].near].dest,
				f->h[f->pairs[k].far].dest, f->pairs[k].reason);
	}
	for (k = 0; k < f->nh; k++)
		if (strlen(f->h[k].dest) > w)
			w = strlen(f->h[k].dest);
	if (w > lw)
		lw = w;
	/* one matrix per benchmark's main figure, in registry order */
	for (i = 0; i < registry_count; i++) {
		const struct bench *b = registry[i];
		const char *unit = NULL;

		for (k = 0; k < f->npairs && !unit; k++) {
			const struct bench_result *br = f->pairs[k].path[0] ? result_bench(&rs[k], b->id) : NULL;

			if (br && br->status == ST_OK && br->nmetrics)
				unit = br->metrics[0].unit;
		}
		if (!unit)
			continue;
		done++;
		fprintf(out, "\n%s (%s, %s is better; median of the main figure)\n", b->id, unit,
			b->better == BETTER_HIGHER ? "higher" : "lower");
		fprintf(out, "%-*s", (int)lw, "client \\ server");
		for (j = 0; j < f->nh; j++)
			fprintf(out, " %*s", (int)w, f->h[j].dest);
		fputc('\n', out);
		for (j = 0; j < f->nh; j++) {
			size_t c;

			fprintf(out, "%-*s", (int)lw, f->h[j].dest);
			for (c = 0; c < f->nh; c++) {
				char v[40] = "";

				for (k = 0; k < f->npairs; k++) {
					const struct pair *p = &f->pairs[k];
					const struct bench_result *br;

					if (p->near != j || p->far != c)
						continue;
					br = p->path[0] ? result_bench(&rs[k], b->id) : NULL;
					if (br && br->status == ST_OK && br->nmetrics)
						fmt_num(v, sizeof(v), br->metrics[0].st.median);
					else
						str_copy(v, sizeof(v), br ? status_name(br->status) : "failed");
				}
				fprintf(out, " %*s", (int)w, v[0] ? v : j == c ? "x" : "-");
			}
			fputc('\n', out);
		}
	}
	if (!done)
		fprintf(out, "  (no network figure came back)\n");
	fprintf(out, "(no sums: pairs ran one at a time, and each pair's figure is its own)\n");
	for (k = 0; k < f->npairs; k++)
		result_free(&rs[k]);
	free(rs);
}

static void print_compare(struct fleet *f, FILE *out)
{
	char *argv[32];
	int n = 0;
	size_t k, saved = 0;

	for (k = 0; k < f->nh; k++)
		saved += f->h[k].path[0] != 0;
	if (!f->hargs)
		return;
	fputc('\n', out);
	if (saved < 2) {
		fprintf(out, "(compare needs the results of two hosts; %zu came back)\n", saved);
		return;
	}
	if (saved > COMPARE_MAX_FILES) {	/* more than a table shows: the hosts that are off */
		struct history h;
		struct hx_view v;
		char err[600];

		fprintf(out, "(%zu hosts: more than compare's table of %d shows; the hosts off from their "
			"identical peers instead, as bakeoff history --across %s)\n", saved, COMPARE_MAX_FILES,
			f->dir);
		history_init(&h, stderr);
		h.no_index = 1;
		memset(&v, 0, sizeof(v));
		for (k = 0; k < f->nh; k++)
			if (f->h[k].path[0] && history_add(&h, f->h[k].path, err, sizeof(err)) < 0)
				fprintf(stderr, "bakeoff: fleet: %s\n", err);
		fflush(out);
		history_print_across(&h, &v, out);
		history_free(&h);
		return;
	}
	argv[n++] = "compare";
	for (k = 0; k < f->nh && n < COMPARE_MAX_FILES + 1; k++)
		if (f->h[k].path[0])
			argv[n++] = f->h[k].path;
	argv[n] = NULL;
	fflush(out);
	compare_to(n, argv, out);
}

static void report_all(struct fleet *f, FILE *out)
{
	print_summary(f, out);
	print_matrix(f, out);
	print_compare(f, out);
}

static void html_section(const struct result *const *rs, size_t n, FILE *out, void *ctx)
{
	struct fleet *f = ctx;
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	(void)rs, (void)n;
	if (!m)
		return;
	report_all(f, m);
	fclose(m);
	fputs("<section><h2>Fleet</h2>\n<pre>", out);
	for (char *line = text, *nl; line && *line; line = nl + 1) {	/* escaped line by line */
		if ((nl = strchr(line, '\n')))
			*nl = 0;
		report_html_esc(out, line);
		fputc('\n', out);
		if (!nl)
			break;
	}
	fputs("</pre></section>\n", out);
	free(text);
}

static void report_html_page(struct fleet *f, FILE *out)
{
	struct result *rs = calloc(f->nh + 1, sizeof(*rs));
	const struct result **ptrs = calloc(f->nh + 1, sizeof(*ptrs));
	size_t k, n = 0;
	char err[600];

	if (!rs || !ptrs) {
		free(rs), free(ptrs);
		return;
	}
	for (k = 0; k < f->nh; k++)
		if (f->h[k].path[0] && result_load(f->h[k].path, &rs[n], err, sizeof(err)) == 0)
			ptrs[n] = &rs[n], n++;
	report_html(ptrs, n, "bakeoff fleet", html_section, f, out);
	for (k = 0; k < n; k++)
		result_free(&rs[k]);
	free(rs), free(ptrs);
}

/* ---- the command line ---- */

void fleet_file_name(const char *dest, char *dst, size_t n)
{
	size_t i;

	for (i = 0; dest[i] && i + 1 < n; i++)
		dst[i] = (dest[i] >= 'a' && dest[i] <= 'z') || (dest[i] >= 'A' && dest[i] <= 'Z') ||
			 (dest[i] >= '0' && dest[i] <= '9') || strchr("._@-", dest[i]) ? dest[i] : '_';
	if (n)
		dst[i < n ? i : n - 1] = 0;
	if (n && dst[0] == '.')
		dst[0] = '_';
}

static int add_host(struct fleet *f, const char *spec, const char *where)
{
	struct host *h;
	char *s, *eq;
	size_t k;

	if (f->nh >= MAX_HOSTS)
		return usage("fleet: at most %d hosts", MAX_HOSTS);
	if (!*spec || spec[0] == '-' || strpbrk(spec, " \t\"'\\`$;&|<>()"))
		return usage("fleet: bad host '%s'%s: expected [user@]host or an ssh alias, optionally "
			     "=ADDR (not starting with '-', no spaces or shell characters)", spec, where);
	h = &f->h[f->nh];
	memset(h, 0, sizeof(*h));
	if (!(s = strdup(spec)))
		return usage("out of memory");
	if ((eq = strchr(s, '='))) {
		*eq = 0;
		h->addr = eq + 1;
		if (!*s || !*h->addr) {
			free(s);
			return usage("fleet: bad host '%s'%s: expected HOST=ADDR", spec, where);
		}
	}
	h->dest = s;
	fleet_file_name(s, h->file, sizeof(h->file));
	for (k = 0; k < f->nh; k++)
		if (strcmp(f->h[k].file, h->file) == 0) {
			free(s);
			return usage("fleet: host '%s' is listed twice%s", spec, where);
		}
	f->nh++;
	return 0;
}

static int read_hosts_file(struct fleet *f, const char *path)
{
	char line[1024], where[1100];
	struct stat st;
	FILE *in;
	int n = 0, rc = 0, e;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode))
		return usage("fleet: --hosts %s: %s, not a file of host names (one per line)", path,
			     S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
	if (!(in = fopen(path, "r")))
		return usage("fleet: --hosts %s: %s", path, strerror(errno));
	while (rc == 0 && fgets(line, sizeof(line), in)) {
		char *p;

		n++;
		if ((p = strchr(line, '#')))
			*p = 0;
		p = str_trim(line);
		if (!*p)
			continue;
		str_fmt(where, sizeof(where), " (%s line %d)", path, n);
		rc = add_host(f, p, where);
	}
	e = errno;
	if (rc == 0 && ferror(in))
		rc = usage("fleet: --hosts %s: %s", path, strerror(e));
	fclose(in);
	return rc;
}

/* A benchmark run per pair of hosts (its group's GROUP_PAIRED: net), not
 * per host. */
static int paired(const struct bench *b)
{
	return (registry_group_flags(b->group) & GROUP_PAIRED) != 0;
}

/* Split `run ARGS` into the host phase's and the network pairs' argument
 * lists, checking every option and benchmark name here first. */
/* One argument of `run` as fleet passes it on: its row of the options
 * table, as written, and its value when it is the next word. */
struct run_arg {
	const struct optdef *d;
	char *arg, *val;
};

/* run's arguments, checked as run would check them: benchmark names into
 * pos, options into opts (their values parsed into cfg and opt, given in
 * set). 0, or the exit status of a usage error. */
static int scan_run_args(int argc, char **argv, char **pos, int *npos_, struct run_arg *opts, int *nopts_,
			 struct optset *set, struct harness_cfg *cfg, struct bench_opts *opt)
{
	char err[600];
	int i, npos = 0, nopts = 0, rc = 0;

	for (i = 0; i < argc && rc == 0; i++) {
		char *a = argv[i], name[128];
		const char *val = NULL;
		const struct optdef *d = NULL;
		int sep = 0;	/* the value is the next word */

		if (a[0] != '-' || !a[1]) {
			pos[npos++] = a;
			continue;
		}
		if (a[1] != '-') {	/* -X: the row with that letter; -Xvalue */
			d = opt_find_letter(a[1]);
			if (d && a[2] && d->type != OT_FLAG)
				val = a + 2;
		} else {
			snprintf(name, sizeof(name), "%.*s", (int)strcspn(a + 2, "="), a + 2);
			if (a[2 + strlen(name)] == '=')
				val = a + 3 + strlen(name);
			d = opt_find(name);
		}
		if (!d) {
			rc = usage("fleet: unknown run option '%s' (see bakeoff run --help)", a);
			break;
		}
		if (d->type != OT_FLAG && !val) {
			if (i + 1 >= argc) {
				rc = usage("fleet: run option '%s' needs a value", a);
				break;
			}
			val = argv[++i];
			sep = 1;
		}
		if (d->flags & OPTF_FLEET_DROP)	/* fleet shows its own progress */
			continue;
		if (d->flags & OPTF_FLEET_SETS) {
			rc = usage("fleet: run's --%s is fleet's own: results go to results/FLEET-ID/HOST.json, "
				   "and fleet starts bakeoff serve on the far host with a token of its own",
				   d->name);
			break;
		}
		opts[nopts].d = d;
		opts[nopts].arg = a;
		opts[nopts].val = sep ? (char *)val : NULL;
		if (opt_parse(d, d->type == OT_FLAG ? NULL : val, cfg, opt, err, sizeof(err)) < 0) {
			rc = usage("%s", err);
			break;
		}
		set->given[opt_index(d)] = 1;
		nopts++;
	}
	*npos_ = npos;
	*nopts_ = nopts;
	return rc;
}

static int split_run_args(struct fleet *f, int argc, char **argv)
{
	unsigned char *sel = calloc(registry_count, 1);
	char **pos = calloc((size_t)argc + 1, sizeof(char *));
	const struct personality *pers;
	struct optset set;
	struct harness_cfg cfg;
	struct bench_opts opt;
	struct run_arg *opts = calloc((size_t)argc + 1, sizeof(*opts));
	char err[600];
	int i, npos = 0, nopts = 0, rc = 0, nnet = 0, nhost = 0;
	size_t k;

	memset(&set, 0, sizeof(set));
	memset(&opt, 0, sizeof(opt));
	harness_default_cfg(&cfg);
	if (!sel || !pos || !opts) {
		rc = usage("out of memory");
		goto out;
	}
	rc = scan_run_args(argc, argv, pos, &npos, opts, &nopts, &set, &cfg, &opt);
	if (rc)
		goto out;
	if (registry_select(npos, pos, sel, &pers, err, sizeof(err)) < 0 ||
	    opt_check_readers(&set, sel, err, sizeof(err)) < 0) {
		rc = usage("%s", err);
		goto out;
	}
	for (k = 0; k < registry_count; k++) {
		if (!sel[k])
			continue;
		if (paired(registry[k]))
			nnet++;
		else
			nhost++;
	}
	/* the two argument lists */
	for (int part = 0; part < 2; part++) {
		int want = part == 0 ? nhost : nnet, n = 0;
		char ***dst = part == 0 ? &f->hargs : &f->nargs;
		struct buf ids = { 0 };

		if (!want)
			continue;
		*dst = calloc((size_t)(2 * nopts + npos + 8), sizeof(char *));
		if (!*dst) {
			rc = usage("out of memory");
			goto out;
		}
		(*dst)[n++] = "run";
		(*dst)[n++] = "--progress";
		(*dst)[n++] = "-o";
		(*dst)[n++] = "-";
		for (i = 0; i < nopts; i++) {
			int read = 0;	/* the run's own (--quick, --dir, --runs) are read by all */

			for (k = 0; k < registry_count && !read; k++)
				read = sel[k] && paired(registry[k]) == part &&
				       opt_read_by(opts[i].d, registry[k]);
			if (!read)
				continue;
			(*dst)[n++] = opts[i].arg;
			if (opts[i].val)
				(*dst)[n++] = opts[i].val;
		}
		if ((part == 0 ? nnet : nhost) == 0) {	/* as the user named them */
			for (i = 0; i < npos; i++)
				(*dst)[n++] = pos[i];
		} else {
			for (k = 0; k < registry_count; k++)
				if (sel[k] && paired(registry[k]) == part)
					buf_printf(&ids, "%s%s", ids.len ? "," : "", registry[k]->id);
			if (!ids.p) {
				rc = usage("out of memory");
				goto out;
			}
			(*dst)[n++] = ids.p;	/* lives as long as fleet runs */
		}
		*(part == 0 ? &f->nhargs : &f->nnargs) = n;
	}
out:
	free(sel);
	free(pos);
	free(opts);
	return rc;
}

/* The local binary for --push: self when it names a file, else found on PATH. */
static int find_self(const char *self, char *dst, size_t n)
{
	const char *path = getenv("PATH");
	struct stat st;

	if (!self || !*self)
		return -1;
	if (strchr(self, '/')) {
		str_copy(dst, n, self);
		return stat(dst, &st) == 0 && S_ISREG(st.st_mode) ? 0 : -1;
	}
	while (path && *path) {
		size_t l = strcspn(path, ":");

		str_fmt(dst, n, "%.*s/%s", (int)l, l ? path : ".", self);
		if (stat(dst, &st) == 0 && S_ISREG(st.st_mode) && access(dst, X_OK) == 0)
			return 0;
		path += l + (path[l] == ':');
	}
	return -1;
}

static int make_fleet_dir(struct fleet *f, int given)
{
	int k;

	if (mkdir("results", 0755) < 0 && errno != EEXIST)
		return usage("fleet: cannot create results/: %s", strerror(errno));
	for (k = 1; k < 100; k++) {
		if (k == 1)
			str_fmt(f->dir, sizeof(f->dir), "results/%s", f->id);
		else
			str_fmt(f->dir, sizeof(f->dir), "results/%s-%d", f->id, k);
		if (mkdir(f->dir, 0755) == 0) {
			if (k > 1)
				str_cat(f->id, sizeof(f->id), "-%d", k);
			return 0;
		}
		if (errno != EEXIST)
			return usage("fleet: cannot create %s: %s", f->dir, strerror(errno));
		if (given)
			return usage("fleet: %s exists: fleet never mixes runs (choose another --id)", f->dir);
	}
	return usage("fleet: cannot find a free name for results/%s", f->id);
}

/* fleet's own options, up to `--`; 0, -1 after --help, or the exit
 * status of a usage error. */
static int fleet_options(struct fleet *f, int argc, char **argv, int *given_id)
{
	static const struct option longopts[] = {
		{ "hosts-list", required_argument, NULL, 'H' }, { "hosts", required_argument, NULL, 'f' },
		{ "ssh", required_argument, NULL, 's' }, { "jobs", required_argument, NULL, 'j' },
		{ "timeout", required_argument, NULL, 't' }, { "remote-bin", required_argument, NULL, 'r' },
		{ "push", no_argument, NULL, 'p' }, { "star", required_argument, NULL, 'S' },
		{ "port", required_argument, NULL, 'P' }, { "id", required_argument, NULL, 'i' },
		{ "format", required_argument, NULL, 'F' }, { "quiet", no_argument, NULL, 'q' },
		{ "launcher", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	int c, rc = 0;
	long n;

	optind = 1;
	opterr = 0;
	while (rc == 0 && (c = getopt_long(argc, argv, "+:H:j:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'h': fputs(fleet_help, stdout); return -1;
		case 'H': {
			char *list = strdup(optarg), *p, *save = NULL;

			if (!list || !*optarg) {
				rc = usage("fleet: -H: expected HOST[,HOST...]");
				free(list);
				break;
			}
			for (p = strtok_r(list, ",", &save); p && rc == 0; p = strtok_r(NULL, ",", &save))
				rc = add_host(f, p, "");
			free(list);
			break;
		}
		case 'f': rc = read_hosts_file(f, optarg); break;
		case 'L':
			f->launch = NULL;
			for (size_t k = 0; k < sizeof(launchers) / sizeof(launchers[0]); k++)
				if (strcmp(optarg, launchers[k].name) == 0)
					f->launch = &launchers[k];
			if (!f->launch)
				rc = usage("invalid value '%s' for --launcher: expected ssh or srun", optarg);
			break;
		case 's':
			if (!*optarg)
				rc = usage("fleet: --ssh: expected a command, e.g. 'ssh -F FILE'");
			f->ssh = optarg;
			break;
		case 'j':
			if (parse_uint(optarg, 1, 256, &n) < 0)
				rc = usage("invalid value '%s' for --jobs: expected a whole number from 1 to 256",
					   optarg);
			f->jobs = (int)n;
			break;
		case 't':
			if (strcmp(optarg, "0") == 0)
				f->timeout = 0;
			else if (parse_duration(optarg, &f->timeout) < 0 || f->timeout < SEC)
				rc = usage("invalid value '%s' for --timeout: expected a duration of at least "
					   "1s (30s, 10m, 2h), or 0 for none", optarg);
			break;
		case 'r':
			if (!*optarg)
				rc = usage("fleet: --remote-bin: expected the path of bakeoff on the hosts");
			f->remote_bin = optarg;
			break;
		case 'p': f->push = 1; break;
		case 'S': f->star = optarg; break;
		case 'P':
			if (parse_uint(optarg, 1, 65535, &n) < 0)
				rc = usage("invalid value '%s' for --port: expected 1 to 65535", optarg);
			f->port = (int)n;
			break;
		case 'i':
			if (!proto_word_ok(optarg) || optarg[0] == '.' || strlen(optarg) > 64)
				rc = usage("invalid value '%s' for --id: expected 1 to 64 of A-Z a-z 0-9 . _ - "
					   "(not starting with '.')", optarg);
			str_copy(f->id, sizeof(f->id), optarg);
			*given_id = 1;
			break;
		case 'F':
			if (!(f->format = report_format_for(optarg, FMT_FLEET))) {
				char names[200];

				report_format_names(names, sizeof(names), FMT_FLEET);
				rc = usage("invalid value '%s' for --format: expected %s", optarg, names);
			}
			break;
		case 'q': f->quiet = 1; break;
		default:
			rc = bad_option("fleet", c, argv[optind - 1]);
			break;
		}
	}
	return rc;
}

/* The checks after the options (hosts, the run's arguments split between
 * hosts and pairs, --star, --push's own file), the fleet's id, directory
 * and pairs: 0, or the exit status of a usage error. */
static int fleet_setup(struct fleet *f, int argc, char **argv, const char *self, int given_id)
{
	struct utsname u;
	int rc = 0, star = -1;
	size_t k, j;

	if (f->push && f->remote_bin)
		return usage("fleet: --push and --remote-bin exclude each other");
	if (!f->nh)
		return usage("fleet: expected hosts: -H HOST[,HOST...] or --hosts FILE (see bakeoff fleet --help)");
	if (optind >= argc || strcmp(argv[optind], "run") != 0)
		return usage("fleet: expected -- run [RUN-ARGS...] after the options%s%s%s",
			     optind < argc ? " (not '" : "", optind < argc ? argv[optind] : "",
			     optind < argc ? "')" : "");
	if ((rc = split_run_args(f, argc - optind - 1, argv + optind + 1)) != 0)
		return rc;
	if (f->star) {
		for (k = 0; k < f->nh && star < 0; k++)
			if (strcmp(f->h[k].dest, f->star) == 0)
				star = (int)k;
		if (star < 0)
			return usage("fleet: --star %s: not one of the hosts", f->star);
		if (!f->nargs)
			return usage("fleet: --star is for network benchmarks, and run selects none");
	}
	if (f->nargs && f->nh < 2)
		return usage("fleet: network benchmarks need two hosts (one serves, one is the client)");
	if (f->push && find_self(self, f->self, sizeof(f->self)) < 0)
		return usage("fleet: --push: cannot find this bakeoff's own file (started as '%s'); "
			     "run it by its path", self ? self : "");
	if (uname(&u) < 0)
		return usage("fleet: uname: %s", strerror(errno));
	str_fmt(f->arch, sizeof(f->arch), "%s %s", u.sysname, u.machine);
	if (!given_id) {
		char t[64];

		result_utc_now(t, sizeof(t), "%Y%m%dT%H%M%SZ");
		str_fmt(f->id, sizeof(f->id), "fleet-%s", t);
	}
	if ((rc = make_fleet_dir(f, given_id)) != 0)
		return rc;
	if (f->nargs) {
		net_cookie(f->token);
		f->pairs = calloc(f->nh * f->nh, sizeof(*f->pairs));
		if (!f->pairs)
			return usage("out of memory");
		for (k = 0; k < f->nh; k++)
			for (j = 0; j < f->nh; j++)
				if (k != j && (star < 0 || (int)j == star)) {
					f->pairs[f->npairs].near = k;
					f->pairs[f->npairs++].far = j;
				}
	}
	return 0;
}

/* The hosts' runs (N at a time), then the network pairs one at a time,
 * then the private directories removed. */
static void fleet_hosts(struct fleet *f)
{
	size_t k;

	if (!f->quiet)
		fprintf(stderr, "bakeoff fleet %s: %zu host%s, %d at a time%s\n", f->id, f->nh,
			f->nh == 1 ? "" : "s", f->jobs, f->nargs ? "; then the network pairs, one at a time" : "");
	/* host phase: keepers, pushes, runs; only keepers when network-only */
	step_hosts(f);
	draw(f);
	while (!hosts_settled(f)) {
		pump(f);
		step_hosts(f);
		draw(f);
	}
	f->drawn = 0;
	for (k = 0; k < f->npairs; k++)
		run_pair(f, &f->pairs[k]);
	/* the private directories go */
	for (k = 0; k < f->nh; k++)
		sess_stop(&f->h[k].keeper);
	for (;;) {
		for (k = 0; k < f->nh && (!f->h[k].keeper.used || sess_done(&f->h[k].keeper)); k++)
			;
		if (k == f->nh)
			break;
		pump(f);
	}
	for (k = 0; k < f->nh; k++) {
		struct host *h = &f->h[k];
		char tmp[16];

		h->removed = keeper_get(&h->keeper, "removed", tmp, sizeof(tmp)) != NULL;
		if (h->keeper.used && h->dir[0] && !h->removed)
			fprintf(stderr, "bakeoff fleet: %s: could not confirm that %s was removed "
				"(it is removed when the host's shell sees the connection end)\n",
				h->dest, h->dir);
		buf_free(&h->keeper.obuf);
		buf_free(&h->push.obuf);
		buf_free(&h->run.obuf);
	}

}

/* The report across the hosts on stdout, the summary on stderr: the exit
 * status (1 when a host or pair failed, 130 when interrupted). */
static int fleet_report(struct fleet *f)
{
	size_t k;
	int rc;

	/* the report */
	if (f->format->page) {
		report_html_page(f, stdout);
		if (!f->quiet)
			print_summary(f, stderr);
	} else {
		report_all(f, stdout);
	}
	fflush(stdout);
	rc = 0;
	for (k = 0; k < f->nh; k++)
		if (f->h[k].st == H_FAILED || f->h[k].nfail)
			rc = 1;
	for (k = 0; k < f->npairs; k++)
		if (!f->pairs[k].ok)
			rc = 1;
	if (fleet_signals)
		rc = 130;
	if (rc && !f->quiet) {
		size_t bad = 0, badp = 0;

		for (k = 0; k < f->nh; k++)
			bad += f->h[k].st == H_FAILED || f->h[k].nfail;
		for (k = 0; k < f->npairs; k++)
			badp += !f->pairs[k].ok;
		fprintf(stderr, "bakeoff fleet: %s%zu of %zu hosts failed", rc == 130 ? "interrupted; " : "",
			bad, f->nh);
		if (f->npairs)
			fprintf(stderr, ", %zu of %zu network pairs failed", badp, f->npairs);
		fprintf(stderr, " (results in %s/)\n", f->dir);
	}
	return rc;
}

int fleet_main(int argc, char **argv, const char *self)
{
	struct fleet *f = calloc(1, sizeof(*f));
	struct sigaction sa, old_int, old_term, old_pipe;
	int rc, given_id = 0;
	size_t k;

	if (!f || !(f->h = calloc(MAX_HOSTS, sizeof(*f->h)))) {
		free(f);
		return usage("out of memory");
	}
	f->launch = &launchers[0];
	f->jobs = 8;
	f->timeout = 3600 * SEC;
	f->port = 5511;
	f->format = report_formats;	/* the first row: text */
	rc = fleet_options(f, argc, argv, &given_id);
	if (rc == 0 && !f->ssh)
		f->ssh = f->launch->cmd;
	if (rc == 0)
		rc = fleet_setup(f, argc, argv, self, given_id);
	if (rc == 0) {
		f->tty = isatty(STDERR_FILENO);
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;	/* no SA_RESTART: poll returns */
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, &old_int);
		sigaction(SIGTERM, &sa, &old_term);
		sa.sa_handler = SIG_IGN;
		sigaction(SIGPIPE, &sa, &old_pipe);
		fleet_hosts(f);
		rc = fleet_report(f);
		for (k = 0; k < f->npairs; k++) {
			buf_free(&f->pairs[k].serve.obuf);
			buf_free(&f->pairs[k].client.obuf);
		}
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
		sigaction(SIGPIPE, &old_pipe, NULL);
	}
	for (k = 0; k < f->nh; k++)
		free(f->h[k].dest);
	if (f->hargs && f->nhargs && f->nargs)	/* the joined id list of a mixed run */
		free(f->hargs[f->nhargs - 1]);
	if (f->nargs && f->nnargs && f->hargs)
		free(f->nargs[f->nnargs - 1]);
	free(f->hargs);
	free(f->nargs);
	free(f->pairs);
	free(f->h);
	free(f);
	return rc < 0 ? 0 : rc;
}

const char *cli_self;	/* set by main(): the file --push copies */

int cmd_fleet(int argc, char **argv)
{
	return fleet_main(argc, argv, cli_self);
}
