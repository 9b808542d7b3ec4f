/* ttcp.c — net.tcp.bw as ttcp -t and ttcp -r print it (FORMATS.md):
 *   ttcp-t: buflen=8192, nbuf=16384, port=5001 tcp -> host
 *   ttcp-t: 134217728 bytes in 16.76 real seconds = 7822.28 KB/sec +++
 *   ttcp-t: 16384 I/O calls, msec/call = 1.05, calls/sec = 977.79
 *   ttcp-t: 0.1user 7.0sys 0:16real 42%
 * then the same three figure lines for the receiving end (ttcp-r). KB is
 * 1024 bytes, as ttcp counts. The figures are the sums over the timed
 * repetitions (one, with --reps 1, is ttcp's own run). ttcp's rusage fields
 * after %CPU (i+d, maxrss, pf, csw) are not recorded and are left out, and
 * so is align= (bakeoff does not offset its buffers). */
#include <stdio.h>
#include <string.h>
#include "report.h"

static double num(const struct bench_result *b, const char *key)
{
	const struct param *p = result_param(b, key);

	return p && !p->str ? p->num : 0;
}

static void end(const struct bench_result *b, const char *side, FILE *f)
{
	char k[40];
	double bytes, calls, real, user, sys;

	snprintf(k, sizeof(k), "%sbytes", side);
	bytes = num(b, k);
	snprintf(k, sizeof(k), "%scalls", side);
	calls = num(b, k);
	snprintf(k, sizeof(k), "%sreal_s", side);
	real = num(b, k);
	snprintf(k, sizeof(k), "%suser_s", side);
	user = num(b, k);
	snprintf(k, sizeof(k), "%ssys_s", side);
	sys = num(b, k);
	fprintf(f, "ttcp-%c: %.0f bytes in %.2f real seconds = %.2f KB/sec +++\n", side[0], bytes, real,
		real > 0 ? bytes / 1024 / real : 0);
	fprintf(f, "ttcp-%c: %.0f I/O calls, msec/call = %.2f, calls/sec = %.2f\n", side[0], calls,
		calls > 0 ? 1000 * real / calls : 0, real > 0 ? calls / real : 0);
	fprintf(f, "ttcp-%c: %.1fuser %.1fsys %d:%02dreal %.0f%%\n", side[0], user, sys,
		(int)(real / 60), (int)real % 60, real > 0 ? 100 * (user + sys) / real : 0);
}

void report_ttcp(const struct result *r, FILE *f)
{
	const struct bench_result *b = report_usable(f, "ttcp", r, "net.tcp.bw");
	const struct param *peer, *addr;
	const char *port;
	int k;

	if (!b)
		return;
	if (!result_param(b, "t_bytes")) {
		fputs("ttcp: net.tcp.bw ran both ways at once (--bidir), which ttcp cannot show\n", f);
		return;
	}
	peer = result_param(b, "peer");
	addr = result_param(b, "peer_address");
	port = addr && addr->str && strrchr(addr->str, ':') ? strrchr(addr->str, ':') + 1 : "?";
	for (k = 0; k < 2; k++) {
		/* a run for a time (iperf3's way) sent no set number of buffers:
		 * as many as the bytes sent make */
		double nbuf = result_param(b, "nbuf") || num(b, "buflen") <= 0 ? num(b, "nbuf") :
			      num(b, "t_bytes") / num(b, "buflen");

		fprintf(f, "ttcp-%s: buflen=%.0f, nbuf=%.0f, port=", k ? "r" : "t", num(b, "buflen"), nbuf);
		report_put(f, port, 0);
		fputs(k ? "  tcp\n" : " tcp -> ", f);
		if (!k) {
			report_put(f, peer && peer->str && strcmp(peer->str, "embedded") != 0 ?
					      peer->str : "127.0.0.1", 0);
			fputc('\n', f);
		}
		end(b, k ? "r_" : "t_", f);
	}
	if (num(b, "reps_summed") > 1)
		fprintf(f, "(figures summed over %.0f repetitions)\n", num(b, "reps_summed"));
}
