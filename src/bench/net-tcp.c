/* net-tcp.c — net.tcp.bw: TCP stream throughput, ttcp's measurement with
 * iperf3's options. By default a repetition streams 128 KiB writes for a
 * time with its first second left out, as iperf3 measures; with --nbuf (the
 * ttcp personality's 8 KiB x 16384) it sends buf-len x nbuf bytes per
 * stream as ttcp -l, -n does; --duration and --warmup DUR set the time and
 * the part left out; --streams N in parallel,
 * --reverse (the server sends), --bidir (both ways at once), and a sweep of
 * buffer lengths (--msg-sizes). All streams of a repetition run in one poll
 * loop and are stopped together, so the aggregate covers a window in which
 * every stream ran. The time runs from GO to the server's RESULT, which it
 * sends once every stream has reached end of file: the figure is what the
 * receiver counted; sender and receiver counts must agree or the test
 * fails. Both ends report their CPU time, I/O calls and, where TCP_INFO
 * exists, the sender's retransmits and smoothed RTT. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "net/server.h"
#include "result.h"

#define TCPBW_TIME_NS 2000000000ull		/* a time-based repetition's time */
#define TCPBW_OMIT_NS 1000000000ull		/* and its start left out */
#define TCPBW_QUICK_NS 500000000ull		/* the same with --quick */
#define TCPBW_QUICK_OMIT_NS 200000000ull

struct rep {
	double real_s, user_s, sys_s, txb, rxb, txcalls, rxcalls;	/* this end */
	double r_real_s, r_user_s, r_sys_s, r_txb, r_rxb, r_txcalls, r_rxcalls;	/* the server */
	double retrans, rtt_us;
	int info;
};

struct tcpbw {
	struct bench_ctx *ctx;
	struct net_client c;
	struct net_pump p;
	int streams, dir, time_based;
	uint64_t ms;		/* time-based: the server's time, its ramp included */
	size_t len;
	uint64_t total;		/* bytes a repetition moves (amount-based) */
	struct rep *reps;
	int nreps, cap;
};

static char pattern[1 << 20];	/* the send buffer */
static int pattern_filled;

static int tcpbw_prepare(void *state, struct long_run *lr)
{
	struct tcpbw *t = state;
	struct bench_ctx *ctx = t->ctx;
	struct proto_msg m;
	int k, n;

	(void)lr;
	if (!pattern_filled) {	/* real pages, as the peers send (net_pump_pattern); untimed */
		net_pump_pattern(pattern, sizeof(pattern));
		pattern_filled = 1;
	}
	proto_init(&m, PV_TEST);
	proto_set(&m, PK_KIND, K_TCP_BW);
	proto_set(&m, PK_STREAMS, (uint64_t)t->streams);
	proto_set(&m, PK_LEN, t->len);
	proto_set(&m, PK_DIR, (uint64_t)t->dir);
	if (t->time_based)
		proto_set(&m, PK_MS, t->ms);
	if (net_client_test(ctx, &t->c, &m) < 0)
		return -1;
	memset(&t->p, 0, sizeof(t->p));
	t->p.len = t->len;
	n = t->dir == D_BIDIR ? 2 * t->streams : t->streams;
	for (k = 0; k < n; k++) {
		int tx = t->dir == D_SEND || (t->dir == D_BIDIR && k < t->streams);

		t->p.fd[k] = net_client_data(ctx, &t->c, tx ? 's' : 'r', 0);
		if (t->p.fd[k] < 0) {
			t->p.n = k;
			net_pump_close(&t->p);
			return -1;
		}
		t->p.tx[k] = (char)tx;
		t->p.n = k + 1;
	}
	t->p.ctl = t->c.ctl;
	return 0;
}

/* A repetition's figures from both ends (ours in r, the server's RESULT),
 * kept: 0, or -1 with ctx->reason. */
static int keep_rep(struct tcpbw *t, struct rep *r, const struct proto_msg *res)
{
	r->txb = (double)t->p.txb;
	r->rxb = (double)t->p.rxb;
	r->txcalls = (double)t->p.txcalls;
	r->rxcalls = (double)t->p.rxcalls;
	r->r_real_s = (double)res->num[PK_USEC] / 1e6;
	r->r_user_s = (double)res->num[PK_USER_US] / 1e6;
	r->r_sys_s = (double)res->num[PK_SYS_US] / 1e6;
	r->r_txb = (double)res->num[PK_TX];
	r->r_rxb = (double)res->num[PK_RX];
	r->r_txcalls = (double)res->num[PK_TXCALLS];
	r->r_rxcalls = (double)res->num[PK_RXCALLS];
	/* The sender's view of the path: ours when we send, else the server's. */
	if (t->dir == D_RECV) {
		r->info = proto_has(res, PK_RTT_US);
		r->retrans = (double)res->num[PK_RETRANS];
		r->rtt_us = (double)res->num[PK_RTT_US];
	}
	if (t->nreps == t->cap) {
		int cap = t->cap ? 2 * t->cap : 8;
		struct rep *nr = realloc(t->reps, (size_t)cap * sizeof(*nr));

		if (!nr) {
			snprintf(t->ctx->reason, sizeof(t->ctx->reason), "out of memory");
			return -1;
		}
		t->reps = nr;
		t->cap = cap;
	}
	t->reps[t->nreps++] = *r;
	return 0;
}

static int tcpbw_op(void *state, struct long_run *lr)
{
	struct tcpbw *t = state;
	struct bench_ctx *ctx = t->ctx;
	struct proto_msg res;
	struct rep r;
	uint64_t t0, t1, u0, s0, u1, s1, last, moved;
	int rc = -1, stopped = 0, k;

	/* t0 and t1 are the harness's own start and end of the repetition: the
	 * figure and ttcp's "bytes in N real seconds" are one measurement */
	t0 = long_start(lr);
	last = long_now(lr);
	net_cpu_us(&u0, &s0);
	memset(&r, 0, sizeof(r));
	t->p.buf = pattern;
	if (net_client_say(ctx, &t->c, PV_GO) < 0)
		goto out;
	for (;;) {
		int s = net_pump_step(&t->p, &moved), pr = 0;
		uint64_t now = long_now(lr);

		if (s == 1) {	/* every stream done: its last bytes count too */
			if (moved && long_progress(lr, (double)moved) < 0)
				goto out;
			break;
		}
		if (s == 2 && stopped) {	/* its RESULT, while we drain */
			t->p.ctl = -1;
			continue;
		}
		if (s == 2) {	/* the server speaks mid-test: an error */
			if (net_client_result(ctx, &t->c, &res) == 0)
				snprintf(ctx->reason, sizeof(ctx->reason), "the server ended the test early");
			goto out;
		}
		if (s < 0) {
			snprintf(ctx->reason, sizeof(ctx->reason),
				 "stream %d: %s (the server closed the connection mid-test?)",
				 t->p.bad + 1, strerror(errno));
			goto out;
		}
		if (moved) {
			last = now;
			pr = long_progress(lr, (double)moved);
		} else if (net_client_should_stop()) {
			pr = -1;
		} else if (now - last > PROTO_STALL_MS * 1000000ull) {
			snprintf(ctx->reason, sizeof(ctx->reason), "no data moved for %d s",
				 PROTO_STALL_MS / 1000);
			goto out;
		}
		if (pr < 0)
			goto out;
		if (!stopped && (pr == 1 || (!t->time_based && t->p.txb + t->p.rxb >= t->total))) {
			/* Every stream stops at once: ours now, the server's on STOP. */
			stopped = 1;
			net_pump_stop_tx(&t->p);
			if (t->dir != D_SEND && net_client_say(ctx, &t->c, PV_STOP) < 0)
				goto out;
		}
	}
	/* RESULT comes once the receiver has read every stream to its end:
	 * the time runs to the receiver's last byte, as ttcp -r's does */
	if (net_client_result(ctx, &t->c, &res) < 0)
		goto out;
	net_cpu_us(&u1, &s1);
	t1 = long_end(lr);
	for (k = 0; t->dir != D_RECV && k < t->p.n; k++) {	/* our sending streams' TCP_INFO */
		uint64_t re, rtt;

		if (t->p.tx[k] && net_tcp_info(t->p.fd[k], &re, &rtt) == 0) {
			r.info = 1;
			r.retrans += (double)re;
			r.rtt_us = (double)rtt;
		}
	}
	net_pump_close(&t->p);
	if (res.num[PK_RX] != t->p.txb || res.num[PK_TX] != t->p.rxb) {
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "counts differ: this end sent %llu and received %llu bytes, the server "
			 "received %llu and sent %llu",
			 (unsigned long long)t->p.txb, (unsigned long long)t->p.rxb,
			 (unsigned long long)res.num[PK_RX], (unsigned long long)res.num[PK_TX]);
		goto out;
	}
	r.real_s = (double)(t1 - t0) / 1e9;
	r.user_s = (double)(u1 - u0) / 1e6;
	r.sys_s = (double)(s1 - s0) / 1e6;
	if (keep_rep(t, &r, &res) < 0)
		goto out;
	rc = 0;
out:
	net_pump_close(&t->p);
	return rc;
}

/* Sums over the timed repetitions (the last n recorded: warm-ups come
 * first), as params: ttcp's figures for each end, CPU, TCP_INFO. */
static void record(struct tcpbw *t, size_t n)
{
	struct bench_result *br = t->ctx->res;
	struct rep s;
	int k, info = 0;
	const char *tr[2] = { "t_", "r_" };
	char key[32];

	memset(&s, 0, sizeof(s));
	for (k = t->nreps - (int)n; k < t->nreps; k++) {
		const struct rep *r = &t->reps[k];

		s.real_s += r->real_s, s.user_s += r->user_s, s.sys_s += r->sys_s;
		s.txb += r->txb, s.rxb += r->rxb, s.txcalls += r->txcalls, s.rxcalls += r->rxcalls;
		s.r_real_s += r->r_real_s, s.r_user_s += r->r_user_s, s.r_sys_s += r->r_sys_s;
		s.r_txcalls += r->r_txcalls, s.r_rxcalls += r->r_rxcalls;
		s.retrans += r->retrans;
		s.rtt_us = r->rtt_us;
		info |= r->info;
	}
	result_param_num(br, "reps_summed", (double)n);
	result_param_num(br, "local_real_s", s.real_s);
	result_param_num(br, "local_user_s", s.user_s);
	result_param_num(br, "local_sys_s", s.sys_s);
	result_param_num(br, "local_cpu_pct", s.real_s > 0 ? 100 * (s.user_s + s.sys_s) / s.real_s : 0);
	result_param_num(br, "remote_real_s", s.r_real_s);
	result_param_num(br, "remote_user_s", s.r_user_s);
	result_param_num(br, "remote_sys_s", s.r_sys_s);
	result_param_num(br, "remote_cpu_pct",
			 s.r_real_s > 0 ? 100 * (s.r_user_s + s.r_sys_s) / s.r_real_s : 0);
	result_param_num(br, "bytes_sent", s.txb);
	result_param_num(br, "bytes_received", s.rxb);
	if (t->dir != D_BIDIR) {
		/* ttcp's two ends: -t transmits, -r receives. */
		int we_send = t->dir == D_SEND;

		for (k = 0; k < 2; k++) {
			int local = (k == 0) == we_send;

			snprintf(key, sizeof(key), "%sbytes", tr[k]);
			result_param_num(br, key, we_send ? s.txb : s.rxb);
			snprintf(key, sizeof(key), "%scalls", tr[k]);
			result_param_num(br, key, k == 0 ? (local ? s.txcalls : s.r_txcalls) :
							   (local ? s.rxcalls : s.r_rxcalls));
			snprintf(key, sizeof(key), "%sreal_s", tr[k]);
			result_param_num(br, key, local ? s.real_s : s.r_real_s);
			snprintf(key, sizeof(key), "%suser_s", tr[k]);
			result_param_num(br, key, local ? s.user_s : s.r_user_s);
			snprintf(key, sizeof(key), "%ssys_s", tr[k]);
			result_param_num(br, key, local ? s.sys_s : s.r_sys_s);
		}
	}
	if (info) {
		result_param_num(br, "tcp_retransmits", s.retrans);
		result_param_num(br, "tcp_rtt_us", s.rtt_us);
	} else {
		result_param_str(br, "tcp_info", "unsupported: no TCP_INFO on this OS");
	}
}

static int tcpbw_run(struct bench_ctx *ctx)
{
	const struct bench_opts *o = ctx->opt;
	const struct net_opts *no = net_opts(o);
	struct tcpbw t;
	struct long_op lo;
	int rc = -1, k;

	memset(&t, 0, sizeof(t));
	t.ctx = ctx;
	t.streams = o->streams > 0 ? o->streams : 1;
	t.dir = no->bidir ? D_BIDIR : no->reverse ? D_RECV : D_SEND;
	t.len = no->buf_len ? (size_t)no->buf_len : 8192;
	t.time_based = ctx->h->cfg.duration_ns > 0 || no->nbuf == 0;
	if (net_client_open(ctx, &t.c) < 0)
		return -1;
	net_client_params(ctx, &t.c);
	result_param_num(ctx->res, "buflen", (double)t.len);
	if (!t.time_based)
		result_param_num(ctx->res, "nbuf", no->nbuf);
	result_param_num(ctx->res, "streams", t.streams);
	result_param_str(ctx->res, "direction", t.dir == D_BIDIR ? "bidirectional" :
			 t.dir == D_RECV ? "reverse (server sends)" : "client sends");
	result_param_str(ctx->res, "mode", t.time_based ? "duration" : "buflen x nbuf per stream");
	memset(&lo, 0, sizeof(lo));
	lo.name = "";
	lo.unit = "MB/s";
	lo.kind = KIND_BANDWIDTH;
	lo.better = BETTER_HIGHER;
	lo.state = &t;
	lo.prepare = tcpbw_prepare;
	lo.op = tcpbw_op;
	lo.time_based = t.time_based;
	/* iperf3's way: a time, its first part left out (-t, -O) */
	lo.duration_ns = o->quick ? TCPBW_QUICK_NS : TCPBW_TIME_NS;
	lo.ramp_ns = o->quick ? TCPBW_QUICK_OMIT_NS : TCPBW_OMIT_NS;
	if (t.time_based) {
		const struct harness_cfg *cfg = &ctx->h->cfg;
		uint64_t dur = cfg->duration_ns ? cfg->duration_ns : lo.duration_ns;
		uint64_t ramp = cfg->ramp_ns ? cfg->ramp_ns : cfg->warmup_given ? 0 : lo.ramp_ns;

		t.ms = (dur + ramp) / 1000000 + 1;
		result_param_num(ctx->res, "duration_s", (double)dur / 1e9);
		result_param_num(ctx->res, "omitted_s", (double)ramp / 1e9);
	}
	for (k = -1; k < no->nmsg_sizes; k++) {
		char name[40];

		if (k >= 0) {
			t.len = (size_t)no->msg_sizes[k];
			snprintf(name, sizeof(name), "len=%llu", (unsigned long long)t.len);
			lo.name = name;
			lo.detail = 1;
		}
		/* ttcp -n counts buffers: the amount follows the buffer length. */
		t.total = (uint64_t)t.len * (uint64_t)no->nbuf * (uint64_t)t.streams *
			  (t.dir == D_BIDIR ? 2 : 1);
		lo.total = (double)t.total;
		if (harness_long(ctx, &lo, NULL) < 0)
			goto out;
		if (k < 0) {
			const struct metric *m = result_metric(ctx->res, "");

			record(&t, m ? m->nsamples : 0);
		}
	}
	rc = 0;
out:
	net_pump_close(&t.p);
	net_client_close(&t.c);
	free(t.reps);
	return rc;
}

/* For the progress line: each repetition's time (--duration, or the own
 * default), or its amount at about 1 GB/s (--nbuf), for the main figure
 * and each --msg-sizes length. */
static double tcpbw_estimate(const struct bench_opts *opt, const struct harness_cfg *cfg, double fig_s)
{
	const struct net_opts *no = net_opts(opt);
	double per = cfg->duration_ns ? (double)cfg->duration_ns / 1e9 :
		     no->nbuf ? (double)(no->buf_len ? no->buf_len : 8192) * no->nbuf *
					(opt->streams > 0 ? opt->streams : 1) / 1e9 :
		     (double)(opt->quick ? TCPBW_QUICK_NS + TCPBW_QUICK_OMIT_NS : TCPBW_TIME_NS + TCPBW_OMIT_NS) / 1e9;

	(void)fig_s;
	return (1 + no->nmsg_sizes) * harness_estimate_reps(cfg) * per;
}

const struct bench bench_net_tcp_bw = {
	.id = "net.tcp.bw", .group = "net", .title = "TCP stream bandwidth (ttcp, iperf3)",
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH, .long_mode = 1,
	.run = tcpbw_run,
	.estimate = tcpbw_estimate,
};
