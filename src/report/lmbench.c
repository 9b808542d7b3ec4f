/* lmbench.c — the lmbench 3 summary ("make summary", scripts/getsummary):
 * one row per result file (host), in lmbench's sections with its section
 * titles, two-line column headers and dashed rules, so people who read
 * lmbench summaries for decades can read ours and line them up with old
 * ones.
 *
 * Each column is filled from one bakeoff benchmark id / metric name and
 * converted from the metric's unit to the unit lmbench prints in that
 * section. Where lmbench's column is defined differently from bakeoff's
 * own figure, the column takes what lmbench measures: a figure recorded for
 * it (mem.bw.read:frd, mem.bw.write:fwr, mem.lat:main_stride128) or a
 * difference of recorded figures (sig hndl = catch - kill0, prot fault =
 * prot - (catch - kill0)). docs/lmbench-format.md lists every column. Where lmbench leaves a cell blank we print "-": a figure we do
 * not measure, a benchmark this result lacks, or one that did not run ok.
 * A benchmark that did not run ok also gets a footnote under its section
 * naming its status and reason, so "-" is never a silent gap.
 *
 * Differences from getsummary, on purpose: every result gets a row in a
 * section that is shown (lmbench drops hosts without data); a section
 * nobody has figures for is replaced by one "(no figures for ...)" line;
 * numbers are fitted to the column width with up to four significant
 * digits instead of being truncated mid-number ("123." and "12.K"); the
 * memory-latency data lines up under its headers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"

/* What a column's figure is converted to. */
enum target { T_US, T_NS, T_MBS, T_MHZ, T_BYTES, T_COUNT };

/* Where a column's figure comes from. */
enum source {
	S_NONE,		/* lmbench has it, bakeoff does not measure it: always "-" */
	S_METRIC,	/* id + metric name ("" = main figure), else id + alt */
	S_MEAN2,	/* mean of the main figures of id and id2 (lmbench's "null I/O") */
	S_MHZ,		/* cpu.mhz, else the MHz the OS reports */
	S_TLB,		/* mem.tlb metric or parameter "pages" */
	S_SUM,		/* sum of signed terms, each converted first, clamped at 0 */
};

enum style { F_DEC, F_INT };

/* One term of an S_SUM column: sign x figure (id, metric). */
struct term {
	int sign;
	const char *id, *metric;
};

struct col {
	const char *pre;	/* printed before the cell: separator / alignment */
	int width;
	enum source src;
	const char *id, *metric, *id2;
	enum target tgt;
	enum style style;
	const char *alt;	/* S_METRIC: the metric to use when `metric` is absent;
				 * S_NONE: why the column is blank */
	const char *need;	/* lmbench's column name: footnote an ok benchmark that
				 * lacks the metric lmbench's definition needs */
	struct term terms[3];	/* S_SUM; unused terms have sign 0 */
	const char *method;	/* where bakeoff's method deliberately differs from
				 * lmbench's: a note under the section when the
				 * column has a figure */
};

/* a column bakeoff leaves blank, and why (a note under the section) */
#define NONE(p_, w_, why_) { .pre = p_, .width = w_, .src = S_NONE, .tgt = T_COUNT, .alt = why_ }
#define MET(p_, w_, i_, m_, t_) \
	{ .pre = p_, .width = w_, .src = S_METRIC, .id = i_, .metric = m_, .tgt = t_ }
#define IMET(p_, w_, i_, m_, t_) \
	{ .pre = p_, .width = w_, .src = S_METRIC, .id = i_, .metric = m_, .tgt = t_, .style = F_INT }
/* a MET column whose method deliberately differs from lmbench's (col.method) */
#define MET_NOTE(p_, w_, i_, m_, t_, note_) \
	{ .pre = p_, .width = w_, .src = S_METRIC, .id = i_, .metric = m_, .tgt = t_, .method = note_ }
#define MHZ(p_, w_) { .pre = p_, .width = w_, .src = S_MHZ, .tgt = T_MHZ, .style = F_INT }

struct section {
	const char *name;	/* for "(no figures for NAME)" */
	const char *head;	/* title, rule, column headers, dashes */
	int desc;		/* prints the Description column after OS */
	int ncols;
	struct col cols[12];
};

static const struct section sections[] = {
	{ "Basic system parameters",
	  "Basic system parameters\n"
	  "------------------------------------------------------------------------------\n"
	  "Host                 OS Description              Mhz  tlb  cache  mem   scal\n"
	  "                                                     pages line   par   load\n"
	  "                                                           bytes  \n"
	  "--------- ------------- ----------------------- ---- ----- ----- ------ ----\n",
	  1, 5,
	  { MHZ("", 4),
	    { .pre = " ", .width = 5, .src = S_TLB, .id = "mem.tlb", .metric = "pages",
	      .tgt = T_COUNT, .style = F_INT },
	    IMET(" ", 5, "mem.line", "", T_BYTES),
	    MET(" ", 6, "mem.mlp", "", T_COUNT),
	    NONE(" ", 4, "scal load: lmbench's number of copies run at once; bakeoff runs one "
		 "unless --parallel N, and records N with each figure") } },
	{ "Processor, Processes",
	  "Processor, Processes - times in microseconds - smaller is better\n"
	  "------------------------------------------------------------------------------\n"
	  "Host                 OS  Mhz null null      open slct sig  sig  fork exec sh  \n"
	  "                             call  I/O stat clos TCP  inst hndl proc proc proc\n"
	  "--------- ------------- ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- ----\n",
	  0, 11,
	  { MHZ("", 4),
	    MET(" ", 4, "proc.syscall.null", "", T_US),
	    { .pre = " ", .width = 4, .src = S_MEAN2, .id = "proc.syscall.read", .metric = "",
	      .id2 = "proc.syscall.write", .tgt = T_US },
	    MET(" ", 4, "proc.syscall.stat", "", T_US),
	    MET(" ", 4, "proc.syscall.open", "", T_US),
	    MET(" ", 4, "proc.select.tcp", "", T_US),
	    MET(" ", 4, "proc.signal.install", "", T_US),
	    /* lmbench's lat_sig catch less the cost of kill(me, 0). */
	    { .pre = " ", .width = 4, .src = S_SUM, .tgt = T_US, .need = "sig hndl",
	      .terms = { { 1, "proc.signal.catch", "" }, { -1, "proc.signal.catch", "kill0" } } },
	    MET_NOTE(" ", 4, "proc.fork.exit", "", T_US,
		     "fork proc: the child _exit()s (lmbench's exit() also runs atexit handlers and flushes stdio)"),
	    MET_NOTE(" ", 4, "proc.fork.exec", "", T_US,
		     "exec proc: the child execs /bin/true (lmbench's its own small hello program)"),
	    MET_NOTE(" ", 4, "proc.fork.sh", "", T_US,
		     "sh proc: /bin/sh -c /bin/true (lmbench's /bin/sh -c hello)") } },
	{ "Basic integer operations",
	  "Basic integer operations - times in nanoseconds - smaller is better\n"
	  "-------------------------------------------------------------------\n"
	  "Host                 OS  intgr intgr  intgr  intgr  intgr  \n"
	  "                          bit   add    mul    div    mod   \n"
	  "--------- ------------- ------ ------ ------ ------ ------ \n",
	  0, 5,
	  { MET("", 6, "cpu.ops.int.bit", "", T_NS),
	    MET(" ", 6, "cpu.ops.int.add", "", T_NS),
	    MET(" ", 6, "cpu.ops.int.mul", "", T_NS),
	    MET(" ", 6, "cpu.ops.int.div", "", T_NS),
	    MET(" ", 6, "cpu.ops.int.mod", "", T_NS) } },
	{ "Basic uint64 operations",
	  "Basic uint64 operations - times in nanoseconds - smaller is better\n"
	  "------------------------------------------------------------------\n"
	  "Host                 OS int64  int64  int64  int64  int64  \n"
	  "                         bit    add    mul    div    mod   \n"
	  "--------- ------------- ------ ------ ------ ------ ------ \n",
	  0, 5,
	  { MET(" ", 5, "cpu.ops.int64.bit", "", T_NS),
	    MET(" ", 6, "cpu.ops.int64.add", "", T_NS),
	    MET(" ", 6, "cpu.ops.int64.mul", "", T_NS),
	    MET(" ", 6, "cpu.ops.int64.div", "", T_NS),
	    MET(" ", 6, "cpu.ops.int64.mod", "", T_NS) } },
	{ "Basic float operations",
	  "Basic float operations - times in nanoseconds - smaller is better\n"
	  "-----------------------------------------------------------------\n"
	  "Host                 OS  float  float  float  float\n"
	  "                         add    mul    div    bogo\n"
	  "--------- ------------- ------ ------ ------ ------ \n",
	  0, 4,
	  { MET("", 6, "cpu.ops.float.add", "", T_NS),
	    MET(" ", 6, "cpu.ops.float.mul", "", T_NS),
	    MET(" ", 6, "cpu.ops.float.div", "", T_NS),
	    NONE(" ", 6, "bogo: lmbench's par_ops bogomflops; bakeoff does not measure it") } },
	{ "Basic double operations",
	  "Basic double operations - times in nanoseconds - smaller is better\n"
	  "------------------------------------------------------------------\n"
	  "Host                 OS  double double double double\n"
	  "                         add    mul    div    bogo\n"
	  "--------- ------------- ------ ------ ------ ------ \n",
	  0, 4,
	  { MET("", 6, "cpu.ops.double.add", "", T_NS),
	    MET(" ", 6, "cpu.ops.double.mul", "", T_NS),
	    MET(" ", 6, "cpu.ops.double.div", "", T_NS),
	    NONE(" ", 6, "bogo: lmbench's par_ops bogomflops; bakeoff does not measure it") } },
	{ "Context switching",
	  "Context switching - times in microseconds - smaller is better\n"
	  "-------------------------------------------------------------------------\n"
	  "Host                 OS  2p/0K 2p/16K 2p/64K 8p/16K 8p/64K 16p/16K 16p/64K\n"
	  "                         ctxsw  ctxsw  ctxsw ctxsw  ctxsw   ctxsw   ctxsw\n"
	  "--------- ------------- ------ ------ ------ ------ ------ ------- -------\n",
	  0, 7,
	  { MET("", 6, "proc.ctxsw", "2p/0K", T_US),
	    MET(" ", 6, "proc.ctxsw", "2p/16K", T_US),
	    MET(" ", 6, "proc.ctxsw", "2p/64K", T_US),
	    MET(" ", 6, "proc.ctxsw", "8p/16K", T_US),
	    MET(" ", 6, "proc.ctxsw", "8p/64K", T_US),
	    MET(" ", 7, "proc.ctxsw", "16p/16K", T_US),
	    MET(" ", 7, "proc.ctxsw", "16p/64K", T_US) } },
	{ "*Local* Communication latencies in microseconds",
	  "*Local* Communication latencies in microseconds - smaller is better\n"
	  "---------------------------------------------------------------------\n"
	  "Host                 OS 2p/0K  Pipe AF     UDP  RPC/   TCP  RPC/ TCP\n"
	  "                        ctxsw       UNIX         UDP         TCP conn\n"
	  "--------- ------------- ----- ----- ---- ----- ----- ----- ----- ----\n",
	  0, 8,
	  { MET("", 5, "proc.ctxsw", "2p/0K", T_US),
	    MET(" ", 5, "ipc.pipe.lat", "", T_US),
	    MET(" ", 4, "ipc.unix.lat", "", T_US),
	    MET(" ", 5, "net.udp.lat", "", T_US),
	    MET(" ", 5, "net.rpc.lat", "udp", T_US),
	    MET(" ", 5, "net.tcp.lat", "", T_US),
	    MET(" ", 5, "net.rpc.lat", "tcp", T_US),
	    MET(" ", 4, "net.tcp.connect", "", T_US) } },
	{ "File & VM system latencies",
	  "File & VM system latencies in microseconds - smaller is better\n"
	  "-------------------------------------------------------------------------------\n"
	  "Host                 OS   0K File      10K File     Mmap    Prot   Page   100fd\n"
	  "                        Create Delete Create Delete Latency Fault  Fault  selct\n"
	  "--------- ------------- ------ ------ ------ ------ ------- ----- ------- -----\n",
	  0, 8,
	  { MET("", 6, "fs.create.0k", "", T_US),
	    MET(" ", 6, "fs.delete.0k", "", T_US),
	    MET(" ", 6, "fs.create.10k", "", T_US),
	    MET(" ", 6, "fs.delete.10k", "", T_US),
	    MET(" ", 7, "vm.mmap.lat", "", T_US),
	    /* lmbench's lat_sig prot less its catch figure (catch less kill0). */
	    { .pre = " ", .width = 5, .src = S_SUM, .tgt = T_US, .need = "Prot Fault",
	      .terms = { { 1, "proc.signal.prot", "" }, { -1, "proc.signal.catch", "" },
			 { 1, "proc.signal.catch", "kill0" } } },
	    MET(" ", 7, "vm.pagefault", "", T_US),
	    MET(" ", 5, "proc.select.file", "", T_US) } },
	{ "*Local* Communication bandwidths in MB/s",
	  "*Local* Communication bandwidths in MB/s - bigger is better\n"
	  "-----------------------------------------------------------------------------\n"
	  "Host                OS  Pipe AF    TCP  File   Mmap  Bcopy  Bcopy  Mem   Mem\n"
	  "                             UNIX      reread reread (libc) (hand) read write\n"
	  "--------- ------------- ---- ---- ---- ------ ------ ------ ------ ---- -----\n",
	  0, 9,
	  { IMET("", 4, "ipc.pipe.bw", "", T_MBS),
	    IMET(" ", 4, "ipc.unix.bw", "", T_MBS),
	    IMET(" ", 4, "net.tcp.bw", "", T_MBS),
	    IMET(" ", 6, "vm.file.reread", "", T_MBS),
	    IMET(" ", 6, "vm.mmap.reread", "", T_MBS),
	    IMET(" ", 6, "mem.bw.copy", "", T_MBS),
	    IMET(" ", 6, "mem.bw.copy_hand", "", T_MBS),
	    /* lmbench's bw_mem frd / fwr: every 32-bit word. */
	    { .pre = " ", .width = 4, .src = S_METRIC, .id = "mem.bw.read", .metric = "frd",
	      .tgt = T_MBS, .style = F_INT, .need = "Mem read" },
	    { .pre = " ", .width = 5, .src = S_METRIC, .id = "mem.bw.write", .metric = "fwr",
	      .tgt = T_MBS, .style = F_INT, .need = "Mem write" } } },
	{ "Memory latencies in nanoseconds",
	  "Memory latencies in nanoseconds - smaller is better\n"
	  "    (WARNING - may not be correct, check graphs)\n"
	  "------------------------------------------------------------------------------\n"
	  "Host                 OS   Mhz   L1 $   L2 $    Main mem    Rand mem    Guesses\n"
	  "--------- -------------   ---   ----   ----    --------    --------    -------\n",
	  0, 6,
	  { MHZ(" ", 4),
	    MET(" ", 6, "mem.lat", "L1", T_NS),
	    MET(" ", 6, "mem.lat", "L2", T_NS),
	    /* lmbench's "Main mem" is the stride-128 walk at its largest size;
	     * results from before mem.lat recorded it fall back to the last
	     * point of bakeoff's own fixed-stride curve. "Rand mem" is the
	     * random walk's main-memory plateau. */
	    { .pre = " ", .width = 11, .src = S_METRIC, .id = "mem.lat",
	      .metric = "main_stride128", .alt = "stride/*", .tgt = T_NS },
	    MET_NOTE(" ", 11, "mem.lat", "main", T_NS,
		     "Rand mem: mem.lat's main-memory plateau of its random walk "
		     "(lmbench's: the walk's largest size)"),
	    NONE(" ", 10, "Guesses: lmbench's guesses from its own graphs; bakeoff's cache "
		 "plateaus are mem.lat's L1, L2, L3 and main figures") } },
};

#define NSECTIONS (sizeof(sections) / sizeof(sections[0]))

/* The metric named name, or with a name "prefix*" the last metric whose
 * name starts with prefix (curves are recorded in increasing size). */
static const struct metric *last_metric(const struct bench_result *b, const char *name)
{
	size_t l = strlen(name), i;
	const struct metric *m = NULL;

	if (l == 0 || name[l - 1] != '*')
		return result_metric(b, name);
	for (i = 0; i < b->nmetrics; i++)
		if (strncmp(b->metrics[i].name, name, l - 1) == 0)
			m = &b->metrics[i];
	return m;
}

enum cellstate { C_ABSENT, C_VALUE, C_NOTOK, C_BADUNIT };

struct cell {
	enum cellstate st;
	double v;
};

/* Footnotes of the section being printed, deduplicated. */
struct notes {
	char **s;
	size_t n;
};

static void note_add(struct notes *ns, const char *text)
{
	char **p;
	size_t i;

	for (i = 0; i < ns->n; i++)
		if (strcmp(ns->s[i], text) == 0)
			return;
	p = realloc(ns->s, (ns->n + 1) * sizeof(*p));
	if (!p)
		return;
	ns->s = p;
	ns->s[ns->n] = strdup(text);
	if (ns->s[ns->n])
		ns->n++;
}

static void notes_flush(struct notes *ns, FILE *f)
{
	size_t i;

	for (i = 0; i < ns->n; i++) {
		report_put(f, ns->s[i], 0);	/* ids and reasons come from the file */
		fputc('\n', f);
		free(ns->s[i]);
	}
	free(ns->s);
	ns->s = NULL;
	ns->n = 0;
}

static int ieq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a, y = *b;

		if (x >= 'A' && x <= 'Z')
			x = (char)(x - 'A' + 'a');
		if (y >= 'A' && y <= 'Z')
			y = (char)(y - 'A' + 'a');
		if (x != y)
			return 0;
	}
	return *a == *b;
}

/* Factor from unit u to seconds, or 0 if u is not a time. */
static double time_factor(const char *u)
{
	if (!strcmp(u, "ns"))
		return 1e-9;
	if (!strcmp(u, "us") || !strcmp(u, "\xc2\xb5s") || !strcmp(u, "usec"))
		return 1e-6;
	if (!strcmp(u, "ms"))
		return 1e-3;
	if (!strcmp(u, "s") || !strcmp(u, "sec"))
		return 1;
	return 0;
}

/* Factor from unit u to bytes per second, or 0 if u is not a byte rate. */
static double bw_factor(const char *u)
{
	static const struct { const char *u; double f; } t[] = {
		{ "B/s", 1 }, { "kB/s", 1e3 }, { "KB/s", 1e3 }, { "MB/s", 1e6 },
		{ "GB/s", 1e9 }, { "KiB/s", 1024.0 }, { "MiB/s", 1048576.0 },
		{ "GiB/s", 1073741824.0 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(u, t[i].u))
			return t[i].f;
	return 0;
}

/* A count per second ("ops/s", "files/s", "/s"): lmbench's lat_fs reports
 * files per second and getsummary turns that into microseconds each. */
static int is_rate(const char *u)
{
	size_t n = strlen(u);

	return n >= 2 && !strcmp(u + n - 2, "/s") && bw_factor(u) == 0;
}

/* Converts v in unit u to the column's target unit; -1 if it can't. */
static int convert(double v, const char *unit, enum target t, double *out)
{
	const char *u = unit ? unit : "";
	double k;

	switch (t) {
	case T_US:
	case T_NS:
		k = t == T_US ? 1e6 : 1e9;
		if (time_factor(u) > 0) {
			*out = v * time_factor(u) * k;
			return 0;
		}
		if (is_rate(u) && v > 0) {
			*out = k / v;
			return 0;
		}
		return -1;
	case T_MBS:
		if (bw_factor(u) == 0)
			return -1;
		*out = v * bw_factor(u) / 1e6;
		return 0;
	case T_MHZ:
		if (ieq(u, "MHz"))
			*out = v;
		else if (ieq(u, "GHz"))
			*out = v * 1e3;
		else if (ieq(u, "kHz"))
			*out = v / 1e3;
		else if (ieq(u, "Hz"))
			*out = v / 1e6;
		else
			return -1;
		return 0;
	case T_BYTES:
		if (!strcmp(u, "B") || !strcmp(u, "bytes") || !strcmp(u, "byte"))
			*out = v;
		else if (!strcmp(u, "KiB"))
			*out = v * 1024;
		else if (!strcmp(u, "kB") || !strcmp(u, "KB"))
			*out = v * 1000;
		else
			return -1;
		return 0;
	case T_COUNT:
		if (u[0] && strcmp(u, "pages") && strcmp(u, "count") && strcmp(u, "x") &&
		    strcmp(u, "entries") && strcmp(u, "loads"))
			return -1;
		*out = v;
		return 0;
	}
	return -1;
}

/* The 9-character host label of a row (lmbench's %-9.9s). */
static void host_label(const struct result *r, char *dst, size_t n)
{
	char esc[64];

	/* Escaped first (a host name comes from another machine), then cut. */
	report_esc(esc, sizeof(esc), r->host.hostname[0] ? r->host.hostname : "?");
	snprintf(dst, n, "%.9s", esc);
}

static void footnote(struct notes *ns, const struct result *r, const struct bench_result *b)
{
	char host[16], line[1024];

	if (!ns)
		return;
	host_label(r, host, sizeof(host));
	snprintf(line, sizeof(line), "  (%s: %s %s%s%s)", host, b->id, status_name(b->status),
		 b->reason && b->reason[0] ? ": " : "", b->reason && b->reason[0] ? b->reason : "");
	note_add(ns, line);
}

/* One figure: benchmark id, metric name, converted to t. */
static struct cell figure(const struct result *r, const char *id, const char *metric,
			  enum target t, struct notes *ns)
{
	struct cell c = { C_ABSENT, 0 };
	const struct bench_result *b = result_bench(r, id);
	const struct metric *m;

	if (!b)
		return c;
	if (b->status != ST_OK) {
		c.st = C_NOTOK;
		footnote(ns, r, b);
		return c;
	}
	m = last_metric(b, metric);
	if (!m || m->st.n == 0 || !isfinite(m->st.median))
		return c;
	if (convert(m->st.median, m->unit, t, &c.v) != 0) {
		char host[16], line[512];

		host_label(r, host, sizeof(host));
		snprintf(line, sizeof(line), "  (%s: %s%s%s: unit \"%s\" not understood)", host, id,
			 metric[0] ? ":" : "", metric, m->unit ? m->unit : "");
		if (ns)
			note_add(ns, line);
		c.st = C_BADUNIT;
		return c;
	}
	c.st = C_VALUE;
	return c;
}

/* figure(), and when the benchmark ran ok but lacks the metric that
 * lmbench's column `need` is made from (a result from an older bakeoff),
 * a footnote saying so: "-" alone would look like a figure never measured. */
static struct cell needed(const struct result *r, const char *id, const char *metric,
			  enum target t, struct notes *ns, const char *need)
{
	struct cell c = figure(r, id, metric, t, ns);
	const struct bench_result *b = result_bench(r, id);
	char host[16], line[512];

	if (c.st != C_ABSENT || !need || !ns || !b || b->status != ST_OK)
		return c;
	host_label(r, host, sizeof(host));
	snprintf(line, sizeof(line), "  (%s: %s has no \"%s\" figure, which lmbench's %s needs)",
		 host, id, metric, need);
	note_add(ns, line);
	return c;
}

/* An S_SUM column: every term is converted, then added with its sign; a
 * negative total is 0, as lmbench's settime(0). Any term missing or not
 * ok makes the cell "-" (every term is still looked at, for footnotes). */
static struct cell sum_of(const struct result *r, const struct col *col, struct notes *ns)
{
	struct cell c = { C_VALUE, 0 }, t;
	size_t i;

	for (i = 0; i < sizeof(col->terms) / sizeof(col->terms[0]) && col->terms[i].sign; i++) {
		t = needed(r, col->terms[i].id, col->terms[i].metric, col->tgt, ns, col->need);
		if (t.st != C_VALUE) {
			if (c.st == C_VALUE)
				c = t;
			continue;
		}
		if (c.st == C_VALUE)
			c.v += col->terms[i].sign * t.v;
	}
	if (c.st == C_VALUE && c.v < 0)
		c.v = 0;
	return c;
}

static struct cell cell_of(const struct result *r, const struct col *col, struct notes *ns)
{
	struct cell c = { C_ABSENT, 0 }, a, b;
	const struct bench_result *br;
	const struct param *p;

	switch (col->src) {
	case S_NONE:
		if (col->alt)
			note_add(ns, col->alt);
		return c;
	case S_SUM:
		return sum_of(r, col, ns);
	case S_METRIC:
		if (col->alt) {
			c = figure(r, col->id, col->metric, col->tgt, ns);
			if (c.st != C_ABSENT)
				return c;
			return figure(r, col->id, col->alt, col->tgt, ns);
		}
		return needed(r, col->id, col->metric, col->tgt, ns, col->need);
	case S_MEAN2:
		/* lmbench averages read and write; with one of them missing it
		 * shows the other rather than nothing. */
		a = figure(r, col->id, col->metric, col->tgt, ns);
		b = figure(r, col->id2, col->metric, col->tgt, ns);
		if (a.st == C_VALUE && b.st == C_VALUE) {
			a.v = (a.v + b.v) / 2;
			return a;
		}
		if (a.st == C_VALUE)
			return a;
		if (b.st == C_VALUE)
			return b;
		return a.st != C_ABSENT ? a : b;
	case S_MHZ:
		/* Context, not a figure of the section: no footnotes. */
		c = figure(r, "cpu.mhz", "", T_MHZ, NULL);
		if (c.st != C_VALUE && r->host.cpu_mhz > 0) {
			c.st = C_VALUE;
			c.v = r->host.cpu_mhz;
		}
		return c;
	case S_TLB:
		br = result_bench(r, col->id);
		if (!br)
			return c;
		if (br->status != ST_OK) {
			c.st = C_NOTOK;
			footnote(ns, r, br);
			return c;
		}
		if (result_metric(br, "pages"))
			return figure(r, col->id, "pages", T_COUNT, ns);
		p = result_param(br, "pages");
		if (p && !p->str) {
			c.st = C_VALUE;
			c.v = p->num;
			return c;
		}
		return figure(r, col->id, "", T_COUNT, ns);
	}
	return c;
}

/* Fits v into w characters with at most four significant digits, fewer
 * decimals when the width demands, then a K / M / G suffix. */
static void fit_dec(char *dst, size_t n, double v, int w)
{
	static const char sfx[] = "KMG";
	double a = fabs(v);
	int dec, mag, i;
	char tmp[64];

	if (!isfinite(v)) {
		snprintf(dst, n, "-");
		return;
	}
	if (a >= 1e12) {	/* beyond any suffix we use: no figure is this big */
		snprintf(dst, n, "%.0e", v);
		return;
	}
	mag = a > 0 ? (int)floor(log10(a)) + 1 : 1;
	dec = 4 - mag;
	if (dec > w - 2)
		dec = w - 2;
	if (dec < 0)
		dec = 0;
	for (;;) {
		snprintf(tmp, sizeof(tmp), "%.*f", dec, v);
		if ((int)strlen(tmp) <= w || dec == 0)
			break;
		dec--;
	}
	for (i = 0; (int)strlen(tmp) > w && i < 3; i++) {
		char num[48];

		v /= 1000;
		a = fabs(v);
		mag = a > 0 ? (int)floor(log10(a)) + 1 : 1;
		dec = 4 - mag;
		if (dec > w - 3)
			dec = w - 3;
		if (dec < 0)
			dec = 0;
		for (;;) {
			snprintf(num, sizeof(num), "%.*f", dec, v);
			if ((int)strlen(num) <= w - 1 || dec == 0)
				break;
			dec--;
		}
		snprintf(tmp, sizeof(tmp), "%s%c", num, sfx[i]);
	}
	snprintf(dst, n, "%s", tmp);
}

/* Whole numbers (bandwidths, MHz, sizes), with a suffix when too wide. */
static void fit_int(char *dst, size_t n, double v, int w)
{
	char tmp[64], num[64];

	if (!isfinite(v) || fabs(v) >= 1e12) {
		fit_dec(dst, n, v, w);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%.0f", v);
	if ((int)strlen(tmp) > w) {
		fit_dec(num, sizeof(num), v, w);
		snprintf(tmp, sizeof(tmp), "%s", num);
	}
	snprintf(dst, n, "%s", tmp);
}

static void cell_text(const struct col *col, struct cell c, char *dst, size_t n)
{
	if (c.st != C_VALUE)
		snprintf(dst, n, "-");
	else if (col->style == F_INT)
		fit_int(dst, n, c.v, col->width);
	else
		fit_dec(dst, n, c.v, col->width);
}

/* "Linux 6.18.4": the first word of the OS name and of the kernel string,
 * like getsummary's pick from `uname -a`. */
static void os_label(const struct result *r, char *dst, size_t n)
{
	size_t a = strcspn(r->host.os, " ("), b = strcspn(r->host.kernel, " ");

	if (!b)
		snprintf(dst, n, "%.*s", (int)a, r->host.os);
	else
		snprintf(dst, n, "%.*s %.*s", (int)a, r->host.os, (int)b, r->host.kernel);
}

/* The CPU model without trademarks, "CPU", "Processor" and the "@ 2.40GHz"
 * tail, dropping the vendor when it still does not fit; else the arch. */
static void description(const struct result *r, char *dst, size_t n)
{
	static const char *const drop[] = { "(R)", "(r)", "(TM)", "(tm)" };
	char buf[256], out[256] = "";
	char *tok, *save = NULL;
	size_t i;

	report_esc(buf, sizeof(buf), r->host.cpu_model);
	if ((tok = strchr(buf, '@')))
		*tok = 0;
	for (i = 0; i < sizeof(drop) / sizeof(drop[0]); i++) {
		char *p;
		size_t l = strlen(drop[i]);

		while ((p = strstr(buf, drop[i])))
			memmove(p, p + l, strlen(p + l) + 1);
	}
	for (tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (!strcmp(tok, "CPU") || !strcmp(tok, "Processor") || !strcmp(tok, "processor"))
			continue;
		if (out[0])
			strncat(out, " ", sizeof(out) - strlen(out) - 1);
		strncat(out, tok, sizeof(out) - strlen(out) - 1);
	}
	if (strlen(out) > 23) {
		const char *sp = strchr(out, ' ');

		if (sp && (!strncmp(out, "Intel ", 6) || !strncmp(out, "AMD ", 4)))
			memmove(out, sp + 1, strlen(sp + 1) + 1);
	}
	if (!out[0])
		report_esc(out, sizeof(out), r->host.arch[0] ? r->host.arch : "-");
	/* Truncation is intended: the column is 23 characters. */
	snprintf(dst, n, "%.23s", out);
}

/* Does a column count towards "this section has figures"? Mhz is context
 * and "-" columns are never filled, like getsummary's resultsq lists. */
static int counts(const struct col *col)
{
	return col->src != S_NONE && col->src != S_MHZ;
}

static void print_section(const struct section *s, const struct result *const *rs, size_t n,
			  FILE *f)
{
	struct notes ns = { NULL, 0 };
	int any = 0, k;
	size_t i;

	for (i = 0; i < n; i++)
		for (k = 0; k < s->ncols; k++)
			if (counts(&s->cols[k]) && cell_of(rs[i], &s->cols[k], NULL).st == C_VALUE)
				any = 1;
	fputc('\n', f);
	if (!any) {
		/* Still say which benchmarks failed: that is why it is empty
		 * (not why a column is always blank: no column is shown). */
		for (i = 0; i < n; i++)
			for (k = 0; k < s->ncols; k++)
				if (s->cols[k].src != S_NONE)
					(void)cell_of(rs[i], &s->cols[k], &ns);
		fprintf(f, "(no figures for %s)\n", s->name);
		notes_flush(&ns, f);
		return;
	}
	fputs(s->head, f);
	for (i = 0; i < n; i++) {
		char host[16], os[64], txt[64];

		host_label(rs[i], host, sizeof(host));
		os_label(rs[i], os, sizeof(os));
		fprintf(f, "%-9.9s %13.13s ", host, os);
		if (s->desc) {
			description(rs[i], txt, sizeof(txt));
			fprintf(f, "%23.23s ", txt);
		}
		for (k = 0; k < s->ncols; k++) {
			const struct col *c = &s->cols[k];
			struct cell cl = cell_of(rs[i], c, &ns);

			if (c->method && cl.st == C_VALUE)
				note_add(&ns, c->method);
			cell_text(c, cl, txt, sizeof(txt));
			fprintf(f, "%s%*s", c->pre, c->width, txt);
		}
		fputc('\n', f);
	}
	notes_flush(&ns, f);
}

void report_lmbench(const struct result *const *rs, size_t n, FILE *f)
{
	size_t i;

	fputs("                 L M B E N C H  3 . 0   S U M M A R Y\n"
	      "                 ------------------------------------\n", f);
	fprintf(f, "                 (produced by bakeoff from %zu result file%s)\n", n,
		n == 1 ? "" : "s");
	for (i = 0; i < NSECTIONS; i++)
		print_section(&sections[i], rs, n, f);
}
