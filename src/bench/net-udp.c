/* net-udp.c — net.udp.bw: UDP at a target rate (--rate, bits/s, paced
 * against the clock in bursts of at most a millisecond's worth), datagrams
 * of --udp-len bytes carrying the test's cookie, a sequence number and the
 * send time. The server counts each sequence number once: what arrived
 * (receiver throughput over its first-to-last-datagram window), what never
 * did (lost = sent - distinct received, so never above 100%), duplicates
 * and late (reordered) datagrams apart from loss, and RFC 3550's
 * interarrival jitter. The figure is the receiver's; the offered rate is
 * kept beside it. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "net/server.h"
#include "result.h"

struct urep {
	double rx_mbs, loss_pct, jitter_us, sent, pkts, lost, dup, ooo;
};

struct udpbw {
	struct bench_ctx *ctx;
	struct net_client c;
	int fd;
	size_t len;
	double rate;		/* bits/s */
	struct urep *reps;
	int nreps, cap;
};

static void put64(unsigned char *b, uint64_t v)
{
	int i;

	for (i = 7; i >= 0; i--, v >>= 8)
		b[i] = (unsigned char)v;
}

static int udpbw_prepare(void *state, struct long_run *lr)
{
	struct udpbw *u = state;
	struct bench_ctx *ctx = u->ctx;
	const struct harness_cfg *cfg = &ctx->h->cfg;
	struct proto_msg m;
	int port;

	(void)lr;
	if (u->fd >= 0)
		close(u->fd);
	if ((u->fd = net_client_udp(ctx, &u->c, &port)) < 0)
		return -1;
	proto_init(&m, PV_TEST);
	proto_set(&m, PK_KIND, K_UDP_BW);
	proto_set(&m, PK_LEN, u->len);
	proto_set(&m, PK_RATE, (uint64_t)u->rate);
	proto_set(&m, PK_CPORT, (uint64_t)port);
	proto_set(&m, PK_MS, (cfg->duration_ns ? cfg->duration_ns : 2000000000ull) / 1000000 + 1);
	if (net_client_test(ctx, &u->c, &m) < 0 || net_client_udp_connect(ctx, &u->c, u->fd) < 0)
		return -1;
	return net_set_nonblock(u->fd, 1);
}

static int udpbw_op(void *state, struct long_run *lr)
{
	struct udpbw *u = state;
	struct bench_ctx *ctx = u->ctx;
	unsigned char buf[65536];
	uint64_t t0 = long_now(lr), seq = 0, sentb = 0;
	struct proto_msg res;
	struct urep r;
	int pr = 0;

	memset(buf, 0, u->len);
	memcpy(buf, u->c.cookie, 8);
	while (pr == 0) {
		uint64_t now = long_now(lr);
		double allowed = u->rate / 8 * (double)(now - t0) / 1e9;

		if ((double)sentb >= allowed) {
			poll(NULL, 0, 1);
			pr = net_client_should_stop() ? -1 : long_progress(lr, 0);
			continue;
		}
		put64(buf + 8, seq);
		put64(buf + 16, net_now_ns());
		if (send(u->fd, buf, u->len, 0) < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS) {
				poll(NULL, 0, 1);	/* our own queue is full: not the network's loss */
				continue;
			}
			snprintf(ctx->reason, sizeof(ctx->reason), "send: %s", strerror(errno));
			return -1;
		}
		seq++;
		sentb += u->len;
		pr = long_progress(lr, (double)u->len);
	}
	if (pr < 0)
		return -1;
	if (net_client_stop_sent(ctx, &u->c, seq) < 0 || net_client_result(ctx, &u->c, &res) < 0)
		return -1;
	if (res.num[PK_PKTS] > seq) {
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "the server counted %llu distinct datagrams of %llu sent",
			 (unsigned long long)res.num[PK_PKTS], (unsigned long long)seq);
		return -1;
	}
	memset(&r, 0, sizeof(r));
	r.sent = (double)seq;
	r.pkts = (double)res.num[PK_PKTS];
	r.lost = (double)res.num[PK_LOST];
	r.dup = (double)res.num[PK_DUP];
	r.ooo = (double)res.num[PK_OOO];
	r.loss_pct = seq ? 100.0 * r.lost / (double)seq : 0;
	r.jitter_us = (double)res.num[PK_JITTER_NS] / 1e3;
	r.rx_mbs = res.num[PK_USEC] ? (double)res.num[PK_RX] / (double)res.num[PK_USEC] : 0;
	if (u->nreps == u->cap) {
		int cap = u->cap ? 2 * u->cap : 8;
		struct urep *nr = realloc(u->reps, (size_t)cap * sizeof(*nr));

		if (!nr)
			return -1;
		u->reps = nr;
		u->cap = cap;
	}
	u->reps[u->nreps++] = r;
	return 0;
}

static void to_front(struct bench_result *br, size_t i)
{
	struct metric m = br->metrics[i];

	memmove(&br->metrics[1], &br->metrics[0], i * sizeof(m));
	br->metrics[0] = m;
}

static int udpbw_run(struct bench_ctx *ctx)
{
	const struct bench_opts *o = ctx->opt;
	const struct net_opts *no = net_opts(o);
	struct udpbw u;
	struct long_op lo;
	const struct metric *m;
	double *v = NULL, sum[5] = { 0 };
	size_t n, k;
	int rc = -1, first;

	memset(&u, 0, sizeof(u));
	u.ctx = ctx;
	u.fd = -1;
	u.len = no->udp_len ? (size_t)no->udp_len : 1470;
	u.rate = no->rate ? (double)no->rate : 100e6;
	if (net_client_open(ctx, &u.c) < 0)
		return -1;
	net_client_params(ctx, &u.c);
	result_param_num(ctx->res, "datagram_bytes", (double)u.len);
	result_param_num(ctx->res, "target_rate_bits_s", u.rate);
	memset(&lo, 0, sizeof(lo));
	lo.name = "offered";
	lo.unit = "MB/s";
	lo.kind = KIND_BANDWIDTH;
	lo.better = BETTER_HIGHER;
	lo.detail = 1;
	lo.state = &u;
	lo.prepare = udpbw_prepare;
	lo.op = udpbw_op;
	lo.time_based = 1;
	lo.duration_ns = o->quick ? 500000000ull : 2000000000ull;
	if (harness_long(ctx, &lo, NULL) < 0 || !(m = result_metric(ctx->res, "offered")))
		goto out;
	n = m->nsamples;
	first = u.nreps - (int)n;
	if (first < 0 || !(v = calloc(n ? n : 1, sizeof(double)))) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		goto out;
	}
	for (k = 0; k < n; k++)
		v[k] = u.reps[first + (int)k].rx_mbs;
	if (!result_add_metric(ctx->res, "", "MB/s", BETTER_HIGHER, v, n))
		goto oom;
	to_front(ctx->res, ctx->res->nmetrics - 1);
	for (k = 0; k < n; k++)
		v[k] = u.reps[first + (int)k].loss_pct;
	if (!result_add_metric(ctx->res, "loss", "%", BETTER_LOWER, v, n))
		goto oom;
	for (k = 0; k < n; k++)
		v[k] = u.reps[first + (int)k].jitter_us;
	if (!result_add_metric(ctx->res, "jitter", "us", BETTER_LOWER, v, n))
		goto oom;
	for (k = 0; k < n; k++) {
		const struct urep *r = &u.reps[first + (int)k];

		sum[0] += r->sent, sum[1] += r->pkts, sum[2] += r->lost, sum[3] += r->dup;
		sum[4] += r->ooo;
	}
	result_param_num(ctx->res, "datagrams_sent", sum[0]);
	result_param_num(ctx->res, "datagrams_received", sum[1]);
	result_param_num(ctx->res, "datagrams_lost", sum[2]);
	result_param_num(ctx->res, "datagrams_duplicated", sum[3]);
	result_param_num(ctx->res, "datagrams_reordered", sum[4]);
	rc = 0;
	goto out;
oom:
	snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
out:
	if (u.fd >= 0)
		close(u.fd);
	net_client_close(&u.c);
	free(u.reps);
	free(v);
	return rc;
}

const struct bench bench_net_udp_bw = {
	.id = "net.udp.bw", .group = "net", .title = "UDP at a target rate (iperf3 -u)",
	.unit = "MB/s", .better = BETTER_HIGHER, .kind = KIND_BANDWIDTH, .long_mode = 1,
	.run = udpbw_run,
};
