/* net-lat.c — network latencies against the server, each a time-based
 * repetition of one operation with every operation's time kept for the
 * percentiles:
 *   net.tcp.lat     1-byte request, 1-byte response over TCP (lmbench
 *                   lat_tcp, qperf tcp_lat reports half of it);
 *   net.udp.lat     the same over UDP; a reply that does not come within
 *                   1 s is counted lost and the request sent again;
 *   net.rpc.lat     a request with a small marshalled header (xid,
 *                   procedure, argument length, argument: four 32-bit
 *                   big-endian words) answered by a marshalled reply, over
 *                   TCP (in one record with Sun RPC's record mark) and UDP:
 *                   the shape of lmbench's RPC rows, without Sun RPC's
 *                   library, portmapper or XDR code, hence its own name;
 *   net.tcp.connect socket + connect + close (lmbench lat_connect); the
 *                   server accepts and closes.
 * The client blocks in read/recv (as lmbench and qperf do), bounded by a
 * socket receive timeout and the harness's --op-timeout. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include "harness.h"
#include "net/server.h"
#include "result.h"

#define UDP_WAIT_MS 1000
#define MAX_LOST 100

struct lat {
	struct bench_ctx *ctx;
	struct net_client c;
	int kind, fd;
	uint32_t xid;
	uint64_t ops, lost, served;
};

static void set_rcvtimeo(int fd, int ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

/* End the test going on: close its data socket, STOP, RESULT. */
static int lat_finish(struct lat *l)
{
	struct proto_msg res;

	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	if (!l->c.active)
		return 0;
	if (net_client_finish(l->ctx, &l->c, &res) < 0)
		return -1;
	l->served += res.num[PK_RXCALLS];
	return 0;
}

static int lat_prepare(void *state, struct long_run *lr)
{
	struct lat *l = state;
	struct bench_ctx *ctx = l->ctx;
	int udp = l->kind == K_UDP_LAT || l->kind == K_RPC_UDP, port = 0;
	struct proto_msg m;

	(void)lr;
	if (lat_finish(l) < 0)
		return -1;
	if (udp && (l->fd = net_client_udp(ctx, &l->c, &port)) < 0)
		return -1;
	proto_init(&m, PV_TEST);
	proto_set(&m, PK_KIND, (uint64_t)l->kind);
	proto_set(&m, PK_LEN, 1);
	if (udp)
		proto_set(&m, PK_CPORT, (uint64_t)port);
	if (net_client_test(ctx, &l->c, &m) < 0)
		return -1;
	if (udp) {
		if (net_client_udp_connect(ctx, &l->c, l->fd) < 0)
			return -1;
		set_rcvtimeo(l->fd, UDP_WAIT_MS);
	} else if (l->kind != K_TCP_CONNECT) {
		if ((l->fd = net_client_data(ctx, &l->c, 'e', 1)) < 0)
			return -1;
		set_rcvtimeo(l->fd, PROTO_STALL_MS);
	}
	return 0;
}

static void put32(unsigned char *b, uint32_t v)
{
	b[0] = (unsigned char)(v >> 24);
	b[1] = (unsigned char)(v >> 16);
	b[2] = (unsigned char)(v >> 8);
	b[3] = (unsigned char)v;
}

static uint32_t get32(const unsigned char *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static int io_fail(struct lat *l, const char *what)
{
	if (!net_client_should_stop())
		snprintf(l->ctx->reason, sizeof(l->ctx->reason), "%s: %s", what,
			 errno == EAGAIN || errno == EWOULDBLOCK ? "no answer in time" :
			 errno ? strerror(errno) : "the server closed the connection");
	return -1;
}

/* Exactly n bytes from a blocking TCP socket. */
static int read_n(int fd, unsigned char *b, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t k = read(fd, b + got, n - got);

		if (k <= 0) {
			if (k == 0)
				errno = 0;
			return -1;
		}
		got += (size_t)k;
	}
	return 0;
}

/* One request and its reply: 0, 1 (UDP: lost, sent again), or -1. */
static int one(struct lat *l)
{
	unsigned char q[4 + 16], a[4 + 12];
	ssize_t k;
	int fd;

	switch (l->kind) {
	case K_TCP_LAT:
		q[0] = (unsigned char)l->ops;
		if (write(l->fd, q, 1) != 1 || read_n(l->fd, a, 1) < 0)
			return io_fail(l, "round trip");
		return 0;
	case K_UDP_LAT:
		q[0] = (unsigned char)l->ops;
		if (send(l->fd, q, 1, 0) != 1)
			return io_fail(l, "send");
		for (;;) {
			k = recv(l->fd, a, sizeof(a), 0);
			if (k < 0)
				return errno == EAGAIN || errno == EWOULDBLOCK ? 1 : io_fail(l, "recv");
			if (k == 1 && a[0] == q[0])
				return 0;	/* else a late reply to a lost one */
		}
	case K_RPC_TCP:
	case K_RPC_UDP: {
		int tcp = l->kind == K_RPC_TCP;
		unsigned char *req = q + 4, *rep = a + 4;

		l->xid++;
		put32(q, 0x80000000u | 16);
		put32(req, l->xid);
		put32(req + 4, 1);
		put32(req + 8, 4);
		put32(req + 12, (uint32_t)l->ops);
		if (tcp) {
			if (write(l->fd, q, 20) != 20 || read_n(l->fd, a, 16) < 0)
				return io_fail(l, "call");
			if (get32(a) != (0x80000000u | 12))
				goto bad;
		} else {
			if (send(l->fd, req, 16, 0) != 16)
				return io_fail(l, "call");
			do {
				k = recv(l->fd, rep, 12, 0);
				if (k < 0)
					return errno == EAGAIN || errno == EWOULDBLOCK ? 1 :
					       io_fail(l, "reply");
			} while (k != 12 || get32(rep) != l->xid);
		}
		if (get32(rep) != l->xid || get32(rep + 4) != 0 ||
		    get32(rep + 8) != (uint32_t)l->ops + 1)
			goto bad;
		return 0;
	}
	case K_TCP_CONNECT: {
		struct sockaddr_storage s = l->c.addr;

		net_addr_set_port(&s, l->c.port);
		fd = socket(s.ss_family, SOCK_STREAM, 0);
		if (fd < 0)
			return io_fail(l, "socket");
		if (connect(fd, (struct sockaddr *)&s, l->c.alen) < 0) {
			close(fd);
			return io_fail(l, "connect");
		}
		close(fd);
		return 0;
	}
	}
bad:
	snprintf(l->ctx->reason, sizeof(l->ctx->reason), "malformed reply");
	return -1;
}

static int lat_op(void *state, struct long_run *lr)
{
	struct lat *l = state;
	int r;

	do {
		uint64_t t0 = long_now(lr), t1;

		if ((r = one(l)) < 0)
			return -1;
		t1 = long_now(lr);
		if (r == 1) {
			if (++l->lost > MAX_LOST) {
				snprintf(l->ctx->reason, sizeof(l->ctx->reason),
					 "%d requests got no reply within %d ms", MAX_LOST, UDP_WAIT_MS);
				return -1;
			}
			r = long_progress(lr, 0);
			continue;
		}
		l->ops++;
		long_lat(lr, t1 - t0);
		r = long_progress(lr, 1);
	} while (r == 0);
	return r < 0 ? -1 : 0;
}

/* One figure of kind `kind` named `name`. */
static int lat_measure(struct bench_ctx *ctx, struct lat *l, int kind, const char *name)
{
	struct long_op lo;

	l->kind = kind;
	l->fd = -1;
	l->ops = l->lost = l->served = 0;
	memset(&lo, 0, sizeof(lo));
	lo.name = name;
	lo.unit = "us";
	lo.kind = KIND_LATENCY;
	lo.better = BETTER_LOWER;
	lo.state = l;
	lo.prepare = lat_prepare;
	lo.op = lat_op;
	lo.time_based = 1;
	lo.duration_ns = kind == K_TCP_CONNECT ? (ctx->opt->quick ? 200000000ull : 1000000000ull) :
			 ctx->opt->quick ? 300000000ull : 2000000000ull;
	if (harness_long(ctx, &lo, NULL) < 0 || lat_finish(l) < 0)
		return -1;
	/* Every request we counted was answered by the server. */
	if (l->served < l->ops) {
		snprintf(ctx->reason, sizeof(ctx->reason), "the server served %llu of %llu requests",
			 (unsigned long long)l->served, (unsigned long long)l->ops);
		return -1;
	}
	if (kind == K_UDP_LAT || kind == K_RPC_UDP) {
		char key[40];

		snprintf(key, sizeof(key), "%s%sreplies_lost", name, *name ? "_" : "");
		result_param_num(ctx->res, key, (double)l->lost);
	}
	return 0;
}

static int lat_run_kinds(struct bench_ctx *ctx, const int *kinds, const char *const *names, int n)
{
	struct lat l;
	int k, rc = 0;

	memset(&l, 0, sizeof(l));
	l.ctx = ctx;
	l.fd = -1;
	if (net_client_open(ctx, &l.c) < 0)
		return -1;
	net_client_params(ctx, &l.c);
	result_param_num(ctx->res, "message_bytes", kinds[0] == K_TCP_CONNECT ? 0 :
			 kinds[0] == K_RPC_UDP ? 16 : 1);
	for (k = 0; k < n && rc == 0; k++)
		rc = lat_measure(ctx, &l, kinds[k], names[k]);
	if (l.fd >= 0)
		close(l.fd);
	net_client_close(&l.c);
	return rc;
}

static int tcp_lat_run(struct bench_ctx *ctx)
{
	static const int k[] = { K_TCP_LAT };
	static const char *const n[] = { "" };

	return lat_run_kinds(ctx, k, n, 1);
}

static int udp_lat_run(struct bench_ctx *ctx)
{
	static const int k[] = { K_UDP_LAT };
	static const char *const n[] = { "" };

	return lat_run_kinds(ctx, k, n, 1);
}

static int rpc_lat_run(struct bench_ctx *ctx)
{
	static const int k[] = { K_RPC_UDP, K_RPC_TCP };
	static const char *const n[] = { "udp", "tcp" };

	return lat_run_kinds(ctx, k, n, 2);
}

static int connect_run(struct bench_ctx *ctx)
{
	static const int k[] = { K_TCP_CONNECT };
	static const char *const n[] = { "" };

	return lat_run_kinds(ctx, k, n, 1);
}

/* For the progress line: repetitions of each kind's duration (above). */
static double lat_estimate_kinds(const struct bench_opts *opt, const struct harness_cfg *cfg, int kinds,
				 int connect)
{
	double dur = cfg->duration_ns ? (double)cfg->duration_ns / 1e9 :
		     connect ? (opt->quick ? 0.2 : 1) : opt->quick ? 0.3 : 2;

	return kinds * harness_estimate_reps(cfg) * dur;
}

static double lat_estimate(const struct bench_opts *opt, const struct harness_cfg *cfg, double fig_s)
{
	(void)fig_s;
	return lat_estimate_kinds(opt, cfg, 1, 0);
}

static double rpc_estimate(const struct bench_opts *opt, const struct harness_cfg *cfg, double fig_s)
{
	(void)fig_s;
	return lat_estimate_kinds(opt, cfg, 2, 0);
}

static double connect_estimate(const struct bench_opts *opt, const struct harness_cfg *cfg, double fig_s)
{
	(void)fig_s;
	return lat_estimate_kinds(opt, cfg, 1, 1);
}

const struct bench bench_net_tcp_lat = {
	.id = "net.tcp.lat", .group = "net", .title = "TCP latency (1-byte round trip)",
	.unit = "us", .better = BETTER_LOWER, .kind = KIND_LATENCY, .long_mode = 1,
	.run = tcp_lat_run,
	.estimate = lat_estimate,
};

const struct bench bench_net_udp_lat = {
	.id = "net.udp.lat", .group = "net", .title = "UDP latency (1-byte round trip)",
	.unit = "us", .better = BETTER_LOWER, .kind = KIND_LATENCY, .long_mode = 1,
	.run = udp_lat_run,
	.estimate = lat_estimate,
};

const struct bench bench_net_rpc_lat = {
	.id = "net.rpc.lat", .group = "net",
	.title = "Request/reply latency (lmbench RPC rows)",
	.unit = "us", .better = BETTER_LOWER, .kind = KIND_LATENCY, .long_mode = 1,
	.run = rpc_lat_run,
	.estimate = rpc_estimate,
};

const struct bench bench_net_tcp_connect = {
	.id = "net.tcp.connect", .group = "net", .title = "TCP connect + close latency",
	.unit = "us", .better = BETTER_LOWER, .kind = KIND_LATENCY, .long_mode = 1,
	.run = connect_run,
	.estimate = connect_estimate,
};
