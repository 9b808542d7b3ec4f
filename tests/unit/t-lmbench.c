/* t-lmbench.c — the lmbench 3 summary renderer on synthetic results built
 * in memory (the benchmarks behind many columns may not exist yet): section
 * titles, unit conversion into lmbench's units, "-" for what is missing,
 * footnotes for what did not run ok, one row per result, and sections
 * without any figure replaced by one line. */
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
	fig(&a, "mem.bw.read", "", "MB/s", 12345.6);		/* 4 wide -> 12K */
	fig(&a, "mem.bw.write", "", "GB/s", 8.7654);		/* -> 8765 */
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
	fig(&b, "mem.bw.read", "", "MB/s", 9000);
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
		free(out);
		result_free(&e);
	}

	result_free(&a);
	result_free(&b);
	return done_testing();
}
