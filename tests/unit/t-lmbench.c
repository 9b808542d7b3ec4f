/* t-lmbench.c — the lmbench 3 summary renderer on synthetic results built
 * in memory (the benchmarks behind many columns may not exist yet): section
 * titles, unit conversion into lmbench's units, "-" for what is missing,
 * footnotes for what did not run ok, one row per result, and sections
 * without any figure replaced by one line. One result has a distinct known
 * figure behind every column, and each column is checked to take the
 * figure (or the difference of figures) that docs/lmbench-format.md names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "report/report.h"
#include "result.h"

static void fig(struct result *r, const char *id, const char *metric, const char *unit,
		double v)
{
	struct bench_result *b = (struct bench_result *)result_bench(r, id);
	double s[3] = { v, v, v };

	if (!b) {
		b = result_add_bench(r, id, "x", id);
		result_set_status(b, ST_OK, NULL);	/* a new bench starts "skipped" */
	}
	result_add_metric(b, metric, unit, BETTER_LOWER, s, 3);
}

static void bad(struct result *r, const char *id, enum bench_status st, const char *why)
{
	result_set_status(result_add_bench(r, id, "x", id), st, why);
}

static void host(struct result *r, const char *name, const char *cpu, double mhz)
{
	snprintf(r->host.hostname, sizeof r->host.hostname, "%s", name);
	snprintf(r->host.os, sizeof r->host.os, "Linux (Debian GNU/Linux 12)");
	snprintf(r->host.kernel, sizeof r->host.kernel, "6.18.4 #1 SMP PREEMPT_DYNAMIC");
	snprintf(r->host.arch, sizeof r->host.arch, "x86_64");
	snprintf(r->host.cpu_model, sizeof r->host.cpu_model, "%s", cpu);
	r->host.cpu_mhz = mhz;
	r->host.threads = 2;
}

/* Every column of every section with a figure of its own: the row of host
 * "gamma" under the section starting with `title`, whitespace field `k`
 * (0 = host, 1-2 = OS, then the columns). */
struct colcheck {
	const char *title;
	int k;
	const char *want, *what;
};

static const struct colcheck colchecks[] = {
	{ "Basic system parameters", 3, "x86_64", "Description: host.arch without a CPU model" },
	{ "Basic system parameters", 4, "2500", "Mhz: cpu.mhz" },
	{ "Basic system parameters", 5, "32", "tlb pages: mem.tlb:pages" },
	{ "Basic system parameters", 6, "64", "cache line: mem.line" },
	{ "Basic system parameters", 7, "5.500", "mem par: mem.mlp" },
	{ "Basic system parameters", 8, "-", "scal load: never" },
	{ "Processor, Processes", 3, "2500", "Mhz" },
	{ "Processor, Processes", 4, "0.20", "null call: proc.syscall.null" },
	{ "Processor, Processes", 5, "0.40", "null I/O: mean of proc.syscall.read and write" },
	{ "Processor, Processes", 6, "1.50", "stat: proc.syscall.stat" },
	{ "Processor, Processes", 7, "2.50", "open clos: proc.syscall.open" },
	{ "Processor, Processes", 8, "7.25", "slct TCP: proc.select.tcp" },
	{ "Processor, Processes", 9, "0.25", "sig inst: proc.signal.install" },
	{ "Processor, Processes", 10, "2.40", "sig hndl: proc.signal.catch - catch:kill0" },
	{ "Processor, Processes", 11, "100", "fork proc: proc.fork.exit" },
	{ "Processor, Processes", 12, "300", "exec proc: proc.fork.exec" },
	{ "Processor, Processes", 13, "1000", "sh proc: proc.fork.sh" },
	{ "Basic integer operations", 3, "0.3100", "intgr bit" },
	{ "Basic integer operations", 4, "0.3200", "intgr add" },
	{ "Basic integer operations", 5, "0.9300", "intgr mul" },
	{ "Basic integer operations", 6, "11.10", "intgr div" },
	{ "Basic integer operations", 7, "12.20", "intgr mod" },
	{ "Basic uint64 operations", 3, "0.410", "int64 bit" },
	{ "Basic uint64 operations", 4, "0.4200", "int64 add" },
	{ "Basic uint64 operations", 5, "1.230", "int64 mul" },
	{ "Basic uint64 operations", 6, "21.10", "int64 div" },
	{ "Basic uint64 operations", 7, "22.20", "int64 mod" },
	{ "Basic float operations", 3, "1.100", "float add" },
	{ "Basic float operations", 4, "1.200", "float mul" },
	{ "Basic float operations", 5, "3.300", "float div" },
	{ "Basic float operations", 6, "-", "float bogo: not measured" },
	{ "Basic double operations", 3, "2.100", "double add" },
	{ "Basic double operations", 4, "2.200", "double mul" },
	{ "Basic double operations", 5, "4.400", "double div" },
	{ "Context switching", 3, "1.500", "2p/0K" },
	{ "Context switching", 4, "2.500", "2p/16K" },
	{ "Context switching", 5, "3.500", "2p/64K" },
	{ "Context switching", 6, "4.500", "8p/16K" },
	{ "Context switching", 7, "5.500", "8p/64K" },
	{ "Context switching", 8, "6.500", "16p/16K" },
	{ "Context switching", 9, "7.500", "16p/64K" },
	{ "*Local* Communication latencies", 3, "1.500", "2p/0K ctxsw: proc.ctxsw:2p/0K" },
	{ "*Local* Communication latencies", 4, "8.500", "Pipe: ipc.pipe.lat" },
	{ "*Local* Communication latencies", 5, "9.50", "AF UNIX: ipc.unix.lat" },
	{ "*Local* Communication latencies", 6, "10.50", "UDP: net.udp.lat" },
	{ "*Local* Communication latencies", 7, "11.50", "RPC/UDP: net.rpc.lat:udp" },
	{ "*Local* Communication latencies", 8, "12.50", "TCP: net.tcp.lat" },
	{ "*Local* Communication latencies", 9, "13.50", "RPC/TCP: net.rpc.lat:tcp" },
	{ "*Local* Communication latencies", 10, "14.5", "TCP conn: net.tcp.connect" },
	{ "File & VM system latencies", 3, "1000", "0K create: fs.create.0k (files/s -> us)" },
	{ "File & VM system latencies", 4, "500.0", "0K delete: fs.delete.0k" },
	{ "File & VM system latencies", 5, "250.0", "10K create: fs.create.10k" },
	{ "File & VM system latencies", 6, "200.0", "10K delete: fs.delete.10k" },
	{ "File & VM system latencies", 7, "55.50", "Mmap Latency: vm.mmap.lat" },
	{ "File & VM system latencies", 8, "1.600", "Prot Fault: prot - (catch - kill0)" },
	{ "File & VM system latencies", 9, "0.2500", "Page Fault: vm.pagefault" },
	{ "File & VM system latencies", 10, "2.125", "100fd selct: proc.select.file" },
	{ "*Local* Communication bandwidths", 3, "1001", "Pipe: ipc.pipe.bw" },
	{ "*Local* Communication bandwidths", 4, "1002", "AF UNIX: ipc.unix.bw" },
	{ "*Local* Communication bandwidths", 5, "1003", "TCP: net.tcp.bw" },
	{ "*Local* Communication bandwidths", 6, "4004", "File reread: vm.file.reread" },
	{ "*Local* Communication bandwidths", 7, "5005", "Mmap reread: vm.mmap.reread" },
	{ "*Local* Communication bandwidths", 8, "6006", "Bcopy (libc): mem.bw.copy" },
	{ "*Local* Communication bandwidths", 9, "7007", "Bcopy (hand): mem.bw.copy_hand" },
	{ "*Local* Communication bandwidths", 10, "3003", "Mem read: mem.bw.read:frd, not its main figure" },
	{ "*Local* Communication bandwidths", 11, "2002", "Mem write: mem.bw.write:fwr, not its main figure" },
	{ "Memory latencies", 3, "2500", "Mhz" },
	{ "Memory latencies", 4, "1.250", "L1 $: mem.lat:L1" },
	{ "Memory latencies", 5, "4.500", "L2 $: mem.lat:L2" },
	{ "Memory latencies", 6, "18.50", "Main mem: mem.lat:main_stride128, not the stride curve" },
	{ "Memory latencies", 7, "150.5", "Rand mem: mem.lat:main" },
	{ "Memory latencies", 8, "-", "Guesses: never" },
};

/* gamma: a known figure behind every column (units varied on purpose). */
static void gamma_result(struct result *g)
{
	host(g, "gamma", "", 0);
	fig(g, "cpu.mhz", "", "GHz", 2.5);
	fig(g, "mem.tlb", "pages", "pages", 32);
	fig(g, "mem.line", "", "B", 64);
	fig(g, "mem.mlp", "", "", 5.5);
	fig(g, "proc.syscall.null", "", "ns", 200);
	fig(g, "proc.syscall.read", "", "ns", 300);
	fig(g, "proc.syscall.write", "", "ns", 500);
	fig(g, "proc.syscall.stat", "", "us", 1.5);
	fig(g, "proc.syscall.open", "", "ns", 2500);
	fig(g, "proc.select.tcp", "", "us", 7.25);
	fig(g, "proc.select.file", "", "ns", 2125);
	fig(g, "proc.signal.install", "", "ns", 250);
	fig(g, "proc.signal.catch", "", "ns", 3000);
	fig(g, "proc.signal.catch", "kill0", "ns", 600);
	fig(g, "proc.signal.prot", "", "us", 4.0);
	fig(g, "proc.fork.exit", "", "us", 100);
	fig(g, "proc.fork.exec", "", "us", 300);
	fig(g, "proc.fork.sh", "", "ms", 1);
	fig(g, "cpu.ops.int.bit", "", "ns", 0.31);
	fig(g, "cpu.ops.int.add", "", "ns", 0.32);
	fig(g, "cpu.ops.int.mul", "", "ns", 0.93);
	fig(g, "cpu.ops.int.div", "", "ns", 11.1);
	fig(g, "cpu.ops.int.mod", "", "ns", 12.2);
	fig(g, "cpu.ops.int64.bit", "", "ns", 0.41);
	fig(g, "cpu.ops.int64.add", "", "ns", 0.42);
	fig(g, "cpu.ops.int64.mul", "", "ns", 1.23);
	fig(g, "cpu.ops.int64.div", "", "ns", 21.1);
	fig(g, "cpu.ops.int64.mod", "", "ns", 22.2);
	fig(g, "cpu.ops.float.add", "", "ns", 1.1);
	fig(g, "cpu.ops.float.mul", "", "ns", 1.2);
	fig(g, "cpu.ops.float.div", "", "ns", 3.3);
	fig(g, "cpu.ops.double.add", "", "ns", 2.1);
	fig(g, "cpu.ops.double.mul", "", "ns", 2.2);
	fig(g, "cpu.ops.double.div", "", "ns", 4.4);
	fig(g, "proc.ctxsw", "2p/0K", "us", 1.5);
	fig(g, "proc.ctxsw", "2p/16K", "us", 2.5);
	fig(g, "proc.ctxsw", "2p/64K", "us", 3.5);
	fig(g, "proc.ctxsw", "8p/16K", "us", 4.5);
	fig(g, "proc.ctxsw", "8p/64K", "us", 5.5);
	fig(g, "proc.ctxsw", "16p/16K", "us", 6.5);
	fig(g, "proc.ctxsw", "16p/64K", "us", 7.5);
	fig(g, "ipc.pipe.lat", "", "us", 8.5);
	fig(g, "ipc.unix.lat", "", "us", 9.5);
	fig(g, "net.udp.lat", "", "us", 10.5);
	fig(g, "net.rpc.lat", "udp", "us", 11.5);
	fig(g, "net.tcp.lat", "", "us", 12.5);
	fig(g, "net.rpc.lat", "tcp", "us", 13.5);
	fig(g, "net.tcp.connect", "", "us", 14.5);
	fig(g, "fs.create.0k", "", "files/s", 1000);
	fig(g, "fs.delete.0k", "", "files/s", 2000);
	fig(g, "fs.create.10k", "", "files/s", 4000);
	fig(g, "fs.delete.10k", "", "files/s", 5000);
	fig(g, "vm.mmap.lat", "", "us", 55.5);
	fig(g, "vm.pagefault", "", "us", 0.25);
	fig(g, "ipc.pipe.bw", "", "MB/s", 1001);
	fig(g, "ipc.unix.bw", "", "MB/s", 1002);
	fig(g, "net.tcp.bw", "", "MB/s", 1003);
	fig(g, "vm.file.reread", "", "MB/s", 4004);
	fig(g, "vm.mmap.reread", "", "GB/s", 5.005);
	fig(g, "mem.bw.copy", "", "MB/s", 6006);
	fig(g, "mem.bw.copy_hand", "", "MB/s", 7007);
	fig(g, "mem.bw.read", "", "MB/s", 9999);
	fig(g, "mem.bw.read", "frd", "MB/s", 3003);
	fig(g, "mem.bw.write", "", "MB/s", 9998);
	fig(g, "mem.bw.write", "fwr", "MB/s", 2002);
	fig(g, "mem.lat", "L1", "ns", 1.25);
	fig(g, "mem.lat", "L2", "ns", 4.5);
	fig(g, "mem.lat", "stride/4M", "ns", 3.25);
	fig(g, "mem.lat", "stride/64M", "ns", 5.25);	/* bakeoff's own curve */
	fig(g, "mem.lat", "main_stride128", "ns", 18.5);
	fig(g, "mem.lat", "main", "ns", 150.5);
}

static char *render(const struct result *const *rs, size_t n)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	report_lmbench(rs, n, f);
	fclose(f);
	return out;
}

/* The first line starting with `start` after the line starting with
 * `title`, copied into dst; "" if none before the next blank line. */
static const char *row(const char *out, const char *title, const char *start, char *dst,
		       size_t n)
{
	const char *p = strstr(out, title), *e;

	dst[0] = 0;
	if (!p)
		return dst;
	while ((p = strchr(p, '\n')) && p[1] && p[1] != '\n') {
		p++;
		e = strchr(p, '\n');
		if (!strncmp(p, start, strlen(start))) {
			snprintf(dst, n, "%.*s", (int)(e ? e - p : (long)strlen(p)), p);
			return dst;
		}
	}
	return dst;
}

/* Whitespace-separated field k (0-based) of a line. */
static const char *field(const char *line, int k, char *dst, size_t n)
{
	char buf[512], *t, *save = NULL;

	snprintf(buf, sizeof buf, "%s", line);
	dst[0] = 0;
	for (t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
		if (k-- == 0) {
			snprintf(dst, n, "%s", t);
			break;
		}
	return dst;
}

int main(void)
{
	struct result a = { 0 }, b = { 0 };
	const struct result *both[2] = { &a, &b };
	char *out, line[512], f[64];

	host(&a, "alpha.example.org", "Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz", 2400.4);
	fig(&a, "proc.syscall.null", "", "ns", 105.4);		/* -> 0.11 us */
	fig(&a, "proc.syscall.read", "", "ns", 200);
	fig(&a, "proc.syscall.write", "", "ns", 300);		/* mean -> 0.25 us */
	fig(&a, "proc.syscall.stat", "", "ns", 12345);		/* -> 12.3 */
	fig(&a, "proc.fork.exit", "", "us", 123.4);		/* -> 123 */
	fig(&a, "proc.fork.sh", "", "ms", 12.3456);		/* 12346 us -> 12K */
	bad(&a, "proc.fork.exec", ST_FAILED, "execve: No such file or directory");
	fig(&a, "proc.ctxsw", "2p/0K", "us", 1.5);
	fig(&a, "proc.ctxsw", "2p/16K", "ms", 0.0021);		/* -> 2.100 us */
	fig(&a, "mem.bw.read", "", "MB/s", 99999);		/* not lmbench's Mem read */
	fig(&a, "mem.bw.read", "frd", "MB/s", 12345.6);		/* 4 wide -> 12K */
	fig(&a, "mem.bw.write", "", "MB/s", 99999);
	fig(&a, "mem.bw.write", "fwr", "GB/s", 8.7654);		/* -> 8765 */
	fig(&a, "mem.bw.copy", "", "MB/s", 5000.4);		/* -> 5000 */
	fig(&a, "mem.lat", "L1", "ns", 1.234);
	fig(&a, "mem.lat", "L2", "us", 0.0042);			/* -> 4.200 ns */
	fig(&a, "mem.lat", "stride/4K", "ns", 1.5);
	fig(&a, "mem.lat", "stride/64M", "ns", 3.5);		/* last stride point -> Main mem */
	fig(&a, "mem.lat", "main", "ns", 85.5);			/* -> Rand mem */
	fig(&a, "mem.line", "", "B", 64);
	fig(&a, "cpu.mhz", "", "GHz", 2.9);			/* beats host.cpu_mhz */
	bad(&a, "vm.mmap.lat", ST_UNSUPPORTED, "no mmap here");	/* File & VM: only this */

	host(&b, "beta", "AMD EPYC 7763 64-Core Processor", 3000);
	fig(&b, "proc.syscall.null", "", "us", 0.5);
	fig(&b, "proc.syscall.write", "", "ns", 400);		/* read missing: write alone */
	bad(&b, "proc.fork.sh", ST_UNSUPPORTED, NULL);
	fig(&b, "mem.bw.read", "frd", "MB/s", 9000);
	fig(&b, "proc.ctxsw", "2p/0K", "bogus-unit", 3);

	out = render(both, 2);
	ok(out != NULL, "rendered into a memory FILE");
	if (!out)
		return done_testing();
	diag("rendered:\n%s", out);

	ok(strstr(out, "                 L M B E N C H  3 . 0   S U M M A R Y\n"
		       "                 ------------------------------------\n") == out,
	   "starts with the lmbench 3 banner");
	ok(strstr(out, "produced by bakeoff from 2 result files") != NULL, "says how many files");

	ok(strstr(out, "\nBasic system parameters\n") != NULL, "section: basic parameters");
	ok(strstr(out, "\nProcessor, Processes - times in microseconds - smaller is better\n") != NULL,
	   "section: processor, processes");
	ok(strstr(out, "\nContext switching - times in microseconds - smaller is better\n") != NULL,
	   "section: context switching");
	ok(strstr(out, "\n*Local* Communication latencies in microseconds - smaller is better\n") != NULL,
	   "section: local latencies");
	ok(strstr(out, "\n*Local* Communication bandwidths in MB/s - bigger is better\n") != NULL,
	   "section: local bandwidths");
	ok(strstr(out, "\nMemory latencies in nanoseconds - smaller is better\n"
		       "    (WARNING - may not be correct, check graphs)\n") != NULL,
	   "section: memory latencies with lmbench's warning");
	ok(strstr(out, "Host                 OS  Mhz null null      open slct sig  sig  fork exec sh  \n"
		       "                             call  I/O stat clos TCP  inst hndl proc proc proc\n"
		       "--------- ------------- ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- ----\n")
	   != NULL, "lmbench's two-line column header and dashed rule");

	/* No host has any of these: no title, one line instead. */
	ok(strstr(out, "Basic integer operations - times") == NULL, "no integer section");
	ok(strstr(out, "\n(no figures for Basic integer operations)\n") != NULL,
	   "one line for the empty integer section");
	ok(strstr(out, "\n(no figures for Basic double operations)\n") != NULL,
	   "one line for the empty double section");
	ok(strstr(out, "File & VM system latencies in microseconds") == NULL, "no File & VM table");
	ok(strstr(out, "\n(no figures for File & VM system latencies)\n"
		       "  (alpha.exa: vm.mmap.lat unsupported: no mmap here)\n") != NULL,
	   "an empty section still footnotes its failed benchmark");

	/* Processor row: ns -> us, read/write averaged, "-" for missing and failed. */
	is_str(row(out, "Processor, Processes", "alpha.exa", line, sizeof line),
	       "alpha.exa  Linux 6.18.4 2900 0.11 0.25 12.3    -    -    -    -  123    -  12K",
	       "process row of alpha (host 9 chars, OS, cpu.mhz, conversions)");
	is_str(row(out, "Processor, Processes", "beta", line, sizeof line),
	       "beta       Linux 6.18.4 3000 0.50 0.40    -    -    -    -    -    -    -    -",
	       "process row of beta (host.cpu_mhz, write alone for null I/O)");
	ok(strstr(out, "  (alpha.exa: proc.fork.exec failed: execve: No such file or directory)\n")
	   != NULL, "failed benchmark footnoted with its reason");
	ok(strstr(out, "  (beta: proc.fork.sh unsupported)\n") != NULL,
	   "unsupported benchmark without reason footnoted");

	/* Basic parameters: description abbreviated, line size, "-" elsewhere. */
	is_str(row(out, "Basic system parameters", "alpha.exa", line, sizeof line),
	       "alpha.exa  Linux 6.18.4   Intel Xeon E5-2680 v4 2900     -    64      -    -",
	       "basic row: abbreviated CPU, MHz, tlb -, line 64, mem par -, load -");
	is_str(row(out, "Basic system parameters", "beta", line, sizeof line),
	       "beta       Linux 6.18.4   AMD EPYC 7763 64-Core 3000     -     -      -    -",
	       "basic row of a host with no figure in it is still shown");

	/* Context switching: units converted, fixed widths. */
	row(out, "Context switching", "alpha.exa", line, sizeof line);
	is_str(field(line, 3, f, sizeof f), "1.500", "ctxsw 2p/0K in us");
	is_str(field(line, 4, f, sizeof f), "2.100", "ctxsw 2p/16K converted from ms");
	is_str(field(line, 5, f, sizeof f), "-", "ctxsw 2p/64K missing");
	row(out, "Context switching", "beta", line, sizeof line);
	is_str(field(line, 3, f, sizeof f), "-", "unknown unit prints -");
	ok(strstr(out, "  (beta: proc.ctxsw:2p/0K: unit \"bogus-unit\" not understood)\n") != NULL,
	   "unknown unit footnoted");

	/* Bandwidths: integers, too wide for 4 columns -> K. */
	is_str(row(out, "*Local* Communication bandwidths", "alpha.exa", line, sizeof line),
	       "alpha.exa  Linux 6.18.4    -    -    -      -      -   5000      -  12K  8765",
	       "bandwidth row: integers, K suffix, GB/s converted");
	row(out, "*Local* Communication bandwidths", "beta", line, sizeof line);
	is_str(field(line, 10, f, sizeof f), "9000", "second host's mem read");

	/* Memory latencies: L1, L2 (us -> ns), the last stride point as Main
	 * mem, the random walk's main plateau as Rand mem. */
	is_str(row(out, "Memory latencies", "alpha.exa", line, sizeof line),
	       "alpha.exa  Linux 6.18.4  2900  1.234  4.200       3.500       85.50          -",
	       "memory row under lmbench's headers");

	/* Every column takes the figure the documentation names. */
	{
		struct result g = { 0 }, o = { 0 }, d = { 0 };
		const struct result *three[3] = { &g, &o, &d };
		char *t;
		size_t i;

		gamma_result(&g);
		/* An older result: catch without kill0, mem.bw.read without frd,
		 * mem.lat without main_stride128. */
		host(&o, "old", "", 0);
		fig(&o, "proc.signal.catch", "", "ns", 3000);
		fig(&o, "proc.signal.prot", "", "us", 4.0);
		fig(&o, "mem.bw.read", "", "MB/s", 9999);
		fig(&o, "mem.lat", "stride/64M", "ns", 5.25);
		/* Prot fault below the catch cost: 0, as lmbench's settime(0). */
		host(&d, "delta", "", 0);
		fig(&d, "proc.signal.catch", "", "ns", 3000);
		fig(&d, "proc.signal.catch", "kill0", "ns", 600);
		fig(&d, "proc.signal.prot", "", "us", 1.0);
		t = render(three, 3);
		ok(t != NULL, "rendered the column-by-column result");
		if (t) {
			diag("rendered:\n%s", t);
			for (i = 0; i < sizeof(colchecks) / sizeof(colchecks[0]); i++) {
				const struct colcheck *c = &colchecks[i];

				row(t, c->title, "gamma", line, sizeof line);
				is_str(field(line, c->k, f, sizeof f), c->want, "%s", c->what);
			}
			/* A column bakeoff always leaves blank says why, once,
			 * under its section (issue 22: no silent gap). */
			{
				static const char bogo[] =
					"\nbogo: lmbench's par_ops bogomflops; bakeoff does not measure it\n";
				const char *fl = strstr(t, "\nBasic float operations - times");
				const char *end = fl ? strstr(fl + 1, "\n\n") : NULL, *p;
				int k = 0;

				for (p = fl; p && (p = strstr(p, bogo)) != NULL && (!end || p < end); p++)
					k++;
				is_int(k, 1, "float bogo: why it is blank, once under its section (three hosts)");
				ok(strstr(t, "\nGuesses: lmbench's guesses from its own graphs") != NULL,
				   "memory latencies: why Guesses is blank");
			}
			row(t, "Processor, Processes", "old", line, sizeof line);
			is_str(field(line, 10, f, sizeof f), "-", "no kill0: no sig hndl");
			ok(strstr(t, "  (old: proc.signal.catch has no \"kill0\" figure, which lmbench's "
				     "sig hndl needs)\n") != NULL, "the missing kill0 is footnoted");
			row(t, "File & VM system latencies", "old", line, sizeof line);
			is_str(field(line, 8, f, sizeof f), "-", "no kill0: no prot fault");
			row(t, "*Local* Communication bandwidths", "old", line, sizeof line);
			is_str(field(line, 10, f, sizeof f), "-", "no frd: mem.bw.read's own figure not shown");
			ok(strstr(t, "  (old: mem.bw.read has no \"frd\" figure, which lmbench's Mem read "
				     "needs)\n") != NULL, "the missing frd is footnoted");
			row(t, "Memory latencies", "old", line, sizeof line);
			is_str(field(line, 6, f, sizeof f), "5.250",
			       "no main_stride128: Main mem falls back to the stride curve's last point");
			row(t, "File & VM system latencies", "delta", line, sizeof line);
			is_str(field(line, 8, f, sizeof f), "0.000", "prot fault clamped at 0");
			ok(strstr(t, "\nBasic uint64 operations - times in nanoseconds - smaller is better\n"
				     "------------------------------------------------------------------\n"
				     "Host                 OS int64  int64") != NULL,
			   "lmbench's title \"uint64\" over its \"int64\" columns");
		}
		free(t);
		result_free(&g);
		result_free(&o);
		result_free(&d);
	}

	/* Two results, two rows, in every section shown. */
	{
		int rows = 0;
		const char *p = out;

		while ((p = strstr(p, "\nbeta ")))
			rows++, p++;
		is_int(rows, 6, "beta has a row in each of the 6 sections shown");
	}
	free(out);

	/* A single result with nothing lmbench shows: banner and empty lines only. */
	{
		struct result e = { 0 };
		const struct result *one[1] = { &e };

		host(&e, "empty", "", 0);
		out = render(one, 1);
		ok(out && strstr(out, "from 1 result file)") != NULL, "singular file count");
		ok(out && strstr(out, "--------- -------------") == NULL, "no table at all");
		ok(out && strstr(out, "(no figures for Memory latencies in nanoseconds)") != NULL,
		   "memory section reported empty");
		ok(out && !strstr(out, "bogo:") && !strstr(out, "Guesses:") && !strstr(out, "scal load:"),
		   "no note on a column of a section not shown");
		free(out);
		result_free(&e);
	}

	result_free(&a);
	result_free(&b);
	return done_testing();
}
