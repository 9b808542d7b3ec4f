/* client.c — the client side of the control protocol, for the network
 * benchmarks (each runs in its own process and opens its own session), and
 * the check made before a run: a --peer must answer and accept the token,
 * else the run stops with exit 2; without --peer the run starts its own
 * server on 127.0.0.1 (an ephemeral port, a random token), which exits
 * when the run does, or when its pipe to the run closes. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "harness.h"
#include "result.h"
#include "scratch.h"
#include "server.h"

#define CONNECT_MS 5000

int net_client_should_stop(void)
{
	return scratch_interrupted() || harness_timed_out();
}

/* Connect to peer and exchange HELLO / OK: 0, or -1 with err; *closed is
 * set when the server closed the connection without a word. */
static int hello_once(const char *peer, const char *token, struct net_client *c, char *err,
		      size_t en, int *closed)
{
	struct proto_msg m;
	char host[128], e[160];
	int port;

	memset(c, 0, sizeof(*c));
	c->ctl = -1;
	snprintf(c->name, sizeof(c->name), "%s", peer);
	if (net_split(peer, PROTO_PORT, host, sizeof(host), &port, err, en) < 0)
		return -1;
	if (port == 0) {
		snprintf(err, en, "peer %s: port 0 cannot be reached", peer);
		return -1;
	}
	c->alen = sizeof(c->addr);
	if (net_resolve(host, port, 0, SOCK_STREAM, &c->addr, &c->alen, e, sizeof(e)) < 0) {
		snprintf(err, en, "peer %s: %s", peer, e);
		return -1;
	}
	c->ctl = net_connect(&c->addr, c->alen, CONNECT_MS, 1, e, sizeof(e));
	if (c->ctl < 0) {
		snprintf(err, en, "cannot reach peer %s: %s", peer, e);
		return -1;
	}
	proto_init(&m, PV_HELLO);
	proto_set(&m, PK_V, PROTO_VERSION);
	if (token && proto_set_str(&m, PK_TOKEN, token) < 0) {
		snprintf(err, en, "--token: expected 1 to %d of A-Z a-z 0-9 . _ -", PROTO_MAX_VALUE);
		goto fail;
	}
	if (proto_send(c->ctl, &m) < 0) {
		snprintf(err, en, "peer %s closed the connection before HELLO: %s", peer, strerror(errno));
		*closed = 1;
		goto fail;
	}
	if (proto_recv(c->ctl, &m, PROTO_STALL_MS, e, sizeof(e)) < 0) {
		*closed = strcmp(e, "connection closed") == 0 || strstr(e, strerror(ECONNRESET));
		if (strstr(e, "no message"))
			snprintf(err, en, "peer %s accepted the connection but did not answer HELLO "
				 "within %d s: an overloaded server, or not bakeoff serve", peer,
				 PROTO_STALL_MS / 1000);
		else
			snprintf(err, en, "peer %s did not answer as a bakeoff server: %s", peer, e);
		goto fail;
	}
	if (m.verb == PV_ERR) {
		int code = (int)m.num[PK_CODE];

		snprintf(err, en, "peer %s: %s%s", peer, proto_err_text(code),
			 code == E_BUSY ? " (all of its --max-clients sessions are in use by "
					  "clients that completed HELLO; try again when they end)" :
			 code == E_TOKEN ? (token ? " (--token differs from the server's)" :
					   " (it was started with --token: give the same --token)") :
			 code == E_TIMEOUT ? " (it saw no whole HELLO in time: a slow or lossy path)" : "");
		goto fail;
	}
	if (m.verb != PV_OK) {
		snprintf(err, en, "peer %s answered HELLO with %s", peer, proto_verb_name(m.verb));
		goto fail;
	}
	return 0;
fail:
	close(c->ctl);
	c->ctl = -1;
	return -1;
}

/* hello_once, again twice (after 0.1 and 0.2 s) when the server closed the
 * connection unanswered: a bakeoff server pushes out the oldest silent
 * connections of an address that holds too many (src/net/server.c), and a
 * client that shares the address of a flood (a NAT, this host) may have
 * been one of them before its HELLO was read. */
static int hello(const char *peer, const char *token, struct net_client *c, char *err, size_t en)
{
	int attempt, closed = 0;

	for (attempt = 0;; attempt++) {
		struct timespec pause = { 0, 100000000L * (attempt + 1) };

		closed = 0;
		if (hello_once(peer, token, c, err, en, &closed) == 0)
			return 0;
		if (!closed || attempt == 2 || net_client_should_stop())
			return -1;
		nanosleep(&pause, NULL);
	}
}

int net_client_open(struct bench_ctx *ctx, struct net_client *c)
{
	const struct net_opts *no = net_opts(ctx->opt);

	signal(SIGPIPE, SIG_IGN);
	net_should_stop = net_client_should_stop;
	if (!no->peer) {
		snprintf(ctx->reason, sizeof(ctx->reason), "no server (run with --peer HOST)");
		return -1;
	}
	return hello(no->peer, no->token, c, ctx->reason, sizeof(ctx->reason));
}

void net_client_params(struct bench_ctx *ctx, const struct net_client *c)
{
	char a[80];

	net_addr_str((const struct sockaddr *)&c->addr, a, sizeof(a));
	result_param_str(ctx->res, "peer", net_opts(ctx->opt)->embedded ? "embedded" : c->name);
	result_param_str(ctx->res, "peer_address", a);
	result_param_num(ctx->res, "protocol_version", PROTO_VERSION);
}

/* ERR from the server, or anything unexpected, as the reason. */
static int unexpected(struct bench_ctx *ctx, const struct proto_msg *m, const char *wanted)
{
	if (m->verb == PV_ERR)
		snprintf(ctx->reason, sizeof(ctx->reason), "%s", proto_err_text((int)m->num[PK_CODE]));
	else
		snprintf(ctx->reason, sizeof(ctx->reason), "the server sent %s, not %s",
			 proto_verb_name(m->verb), wanted);
	return -1;
}

static int recv_or_fail(struct bench_ctx *ctx, struct net_client *c, struct proto_msg *m,
			enum proto_verb want)
{
	char e[160];

	if (proto_recv(c->ctl, m, PROTO_STALL_MS, e, sizeof(e)) < 0) {
		if (!net_client_should_stop())
			snprintf(ctx->reason, sizeof(ctx->reason), "the server's control connection: %s",
				 e);
		return -1;
	}
	return m->verb == want ? 0 : unexpected(ctx, m, proto_verb_name(want));
}

int net_client_test(struct bench_ctx *ctx, struct net_client *c, const struct proto_msg *test)
{
	struct proto_msg m;

	if (proto_send(c->ctl, test) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "sending TEST: %s", strerror(errno));
		return -1;
	}
	if (recv_or_fail(ctx, c, &m, PV_READY) < 0)
		return -1;
	memcpy(c->cookie, m.str[PK_COOKIE], PROTO_COOKIE_LEN);	/* checked: 32 hex */
	c->cookie[PROTO_COOKIE_LEN] = 0;
	c->port = (int)m.num[PK_PORT];
	c->active = 1;
	return 0;
}

int net_client_data(struct bench_ctx *ctx, struct net_client *c, char role, int nodelay)
{
	struct sockaddr_storage a = c->addr;
	char hi[PROTO_COOKIE_LEN + 1], e[128];
	int fd;

	net_addr_set_port(&a, c->port);
	fd = net_connect(&a, c->alen, CONNECT_MS, nodelay, e, sizeof(e));
	if (fd < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "data connection: %s", e);
		return -1;
	}
	memcpy(hi, c->cookie, PROTO_COOKIE_LEN);
	hi[PROTO_COOKIE_LEN] = role;
	if (net_write_all(fd, hi, sizeof(hi), PROTO_STALL_MS) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), "data connection: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int net_client_udp(struct bench_ctx *ctx, struct net_client *c, int *port)
{
	struct sockaddr_storage a;
	socklen_t l = sizeof(a);
	int fd;

	/* The control connection's own address: the server answers only it. */
	if (getsockname(c->ctl, (struct sockaddr *)&a, &l) < 0)
		goto fail;
	net_addr_set_port(&a, 0);
	if ((fd = net_listen(&a, l, SOCK_DGRAM)) < 0)
		goto fail;
	l = sizeof(a);
	getsockname(fd, (struct sockaddr *)&a, &l);
	*port = net_addr_port((struct sockaddr *)&a);
	return fd;
fail:
	snprintf(ctx->reason, sizeof(ctx->reason), "UDP socket: %s", strerror(errno));
	return -1;
}

int net_client_udp_connect(struct bench_ctx *ctx, struct net_client *c, int fd)
{
	struct sockaddr_storage a = c->addr;

	net_addr_set_port(&a, c->port);
	if (connect(fd, (struct sockaddr *)&a, c->alen) == 0)
		return 0;
	snprintf(ctx->reason, sizeof(ctx->reason), "UDP connect: %s", strerror(errno));
	return -1;
}

int net_client_say(struct bench_ctx *ctx, struct net_client *c, enum proto_verb v)
{
	struct proto_msg m;

	proto_init(&m, v);
	if (proto_send(c->ctl, &m) == 0)
		return 0;
	snprintf(ctx->reason, sizeof(ctx->reason), "the server's control connection: %s",
		 strerror(errno));
	return -1;
}

int net_client_stop_sent(struct bench_ctx *ctx, struct net_client *c, uint64_t sent)
{
	struct proto_msg m;

	proto_init(&m, PV_STOP);
	proto_set(&m, PK_SENT, sent);
	if (proto_send(c->ctl, &m) == 0)
		return 0;
	snprintf(ctx->reason, sizeof(ctx->reason), "the server's control connection: %s",
		 strerror(errno));
	return -1;
}

int net_client_result(struct bench_ctx *ctx, struct net_client *c, struct proto_msg *res)
{
	c->active = 0;
	return recv_or_fail(ctx, c, res, PV_RESULT);
}

int net_client_finish(struct bench_ctx *ctx, struct net_client *c, struct proto_msg *res)
{
	if (net_client_say(ctx, c, PV_STOP) < 0)
		return -1;
	return net_client_result(ctx, c, res);
}

void net_client_close(struct net_client *c)
{
	struct proto_msg m;

	if (c->ctl < 0)
		return;
	proto_init(&m, PV_BYE);
	if (!c->active)
		proto_send(c->ctl, &m);
	close(c->ctl);
	c->ctl = -1;
}

/* ---- before the run ---- */

static pid_t embedded = -1;

static void stop_embedded(void)
{
	int k;

	if (embedded <= 0)
		return;
	kill(embedded, SIGTERM);
	for (k = 0; k < 100 && waitpid(embedded, NULL, WNOHANG) == 0; k++)
		poll(NULL, 0, 20);
	if (k == 100) {
		kill(embedded, SIGKILL);
		waitpid(embedded, NULL, 0);
	}
	embedded = -1;
}

int net_run_begin(struct bench_opts *opt, char *err, size_t en)
{
	struct net_opts *no = net_opts(opt);
	static char peer[64], token[PROTO_COOKIE_LEN + 1];
	struct net_client c;
	int ready[2], life[2], port = 0;

	if (no->token && !proto_word_ok(no->token)) {
		snprintf(err, en, "invalid value for --token: expected 1 to %d of A-Z a-z 0-9 . _ -",
			 PROTO_MAX_VALUE);
		return -1;
	}
	if (no->peer) {
		if (hello(no->peer, no->token, &c, err, en) < 0)
			return -1;
		net_client_close(&c);
		return 0;
	}
	if (!no->token) {
		net_cookie(token);
		no->token = token;
	}
	if (pipe(ready) < 0 || pipe(life) < 0) {
		snprintf(err, en, "cannot start the loopback server: pipe: %s", strerror(errno));
		return -1;
	}
	fcntl(life[1], F_SETFD, FD_CLOEXEC);
	fflush(NULL);
	embedded = harness_fork();
	if (embedded == 0) {
		struct serve_cfg cfg = { "127.0.0.1:0", no->token, 16, 0, NULL, ready[1], life[0] };
		char e[160];

		close(ready[0]);
		close(life[1]);
		_exit(net_serve(&cfg, e, sizeof(e)) < 0 ? 2 : 0);
	}
	close(ready[1]);
	close(life[0]);
	if (embedded < 0 || net_wait(ready[0], POLLIN, CONNECT_MS) <= 0 ||
	    read(ready[0], &port, sizeof(port)) != (ssize_t)sizeof(port) || port <= 0) {
		snprintf(err, en, "cannot start the loopback server on 127.0.0.1");
		close(ready[0]);
		stop_embedded();
		return -1;
	}
	close(ready[0]);
	atexit(stop_embedded);
	snprintf(peer, sizeof(peer), "127.0.0.1:%d", port);
	no->peer = peer;
	no->embedded = 1;
	return 0;
}

int net_own_server(const struct bench_opts *opt)
{
	return net_opts(opt)->embedded;
}
