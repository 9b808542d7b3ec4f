/* server.c — `bakeoff serve`: the far end of the network benchmarks, safe
 * to leave listening. One process accepts; each client session runs in a
 * child process of its own (at most max_clients at once), so a client that
 * sends garbage, stalls or vanishes holds up only itself and is timed out.
 * A session speaks the control protocol (proto.c): HELLO (version, token),
 * then TEST after TEST, each on fresh data sockets bound to the address the
 * client reached, which accept only that client's host and only with the
 * test's cookie. The server sends only on connections the client opened,
 * and UDP only to the client's host. One log line per test; SIGTERM ends
 * it cleanly (sessions are stopped, then it exits 0). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include "buf.h"
#include "server.h"

static volatile sig_atomic_t term;
static pid_t boss;	/* a session's listener: when it is gone, so is the session */
static void on_term(int sig)
{
	(void)sig;
	term = 1;
}
static int terminated(void)
{
	return term || (boss && getppid() != boss);
}

struct session {
	int ctl;
	struct sockaddr_storage peer, local;
	socklen_t plen, llen;
	char who[80];
	const struct serve_cfg *cfg;
};

static void logf_(const struct serve_cfg *cfg, const char *fmt, ...) BAKEOFF_PRINTF(2, 3);
static void logf_(const struct serve_cfg *cfg, const char *fmt, ...)
{
	char line[512], stamp[32];
	time_t t = time(NULL);
	struct tm tm;
	va_list ap;
	int n;

	if (!cfg->log)
		return;
	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	n = snprintf(line, sizeof(line), "%s ", stamp);
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	/* One write per line: sessions in several processes never interleave. */
	if (write(fileno(cfg->log), line, (size_t)n) < 0)
		return;
}

static void send_err(int fd, enum proto_err code)
{
	struct proto_msg m;

	proto_init(&m, PV_ERR);
	proto_set(&m, PK_CODE, code);
	proto_send(fd, &m);
}

/* ---- one test ---- */

struct test {
	struct session *s;
	struct proto_msg req;
	int kind;
	char cookie[PROTO_COOKIE_LEN + 1];
	int lfd;		/* data listener, or the UDP socket */
	uint64_t t0, u0, s0;
	struct proto_msg res;
	char why[128];		/* failure, for the log */
	enum proto_err code;
};

static int fail(struct test *t, enum proto_err code, const char *fmt, ...) BAKEOFF_PRINTF(3, 4);
static int fail(struct test *t, enum proto_err code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->why, sizeof(t->why), fmt, ap);
	va_end(ap);
	t->code = code;
	return -1;
}

static uint64_t num(const struct test *t, enum proto_key k, uint64_t dflt)
{
	return proto_has(&t->req, k) ? t->req.num[k] : dflt;
}

/* The data socket: the control connection's local address, a new port. */
static int open_data(struct test *t, int socktype)
{
	struct sockaddr_storage a = t->s->local;
	struct proto_msg m;
	socklen_t l = sizeof(a);

	net_addr_set_port(&a, 0);
	t->lfd = net_listen(&a, t->s->llen, socktype);
	if (t->lfd < 0 || getsockname(t->lfd, (struct sockaddr *)&a, &l) < 0)
		return fail(t, E_INTERNAL, "data socket: %s", strerror(errno));
	if (socktype == SOCK_DGRAM) {
		struct sockaddr_storage c = t->s->peer;

		if (!proto_has(&t->req, PK_CPORT))
			return fail(t, E_BAD, "UDP test without cport");
		net_addr_set_port(&c, (int)t->req.num[PK_CPORT]);
		if (connect(t->lfd, (struct sockaddr *)&c, t->s->plen) < 0)
			return fail(t, E_INTERNAL, "UDP connect: %s", strerror(errno));
	}
	net_cookie(t->cookie);
	proto_init(&m, PV_READY);
	proto_set(&m, PK_PORT, (uint64_t)net_addr_port((struct sockaddr *)&a));
	proto_set_str(&m, PK_COOKIE, t->cookie);
	if (proto_send(t->s->ctl, &m) < 0)
		return fail(t, E_INTERNAL, "client gone");
	return 0;
}

/* Accept n data connections from the client's host presenting the cookie;
 * roles[k] is what the client said it does on connection k. */
static int accept_data(struct test *t, int *fds, char *roles, int n)
{
	int got = 0, tries = 0;

	while (got < n) {
		struct sockaddr_storage a;
		socklen_t l = sizeof(a);
		char hello[PROTO_COOKIE_LEN + 1];
		int fd, r;

		if (++tries > 4 * n + 4)
			return fail(t, E_BAD, "too many bad data connections");
		r = net_wait(t->lfd, POLLIN, PROTO_STALL_MS);
		if (r <= 0)
			return fail(t, E_TIMEOUT, "data connection %d of %d never came", got + 1, n);
		fd = accept(t->lfd, (struct sockaddr *)&a, &l);
		if (fd < 0)
			continue;
		if (!net_same_host((struct sockaddr *)&a, (struct sockaddr *)&t->s->peer) ||
		    net_read_full(fd, hello, sizeof(hello), 5000) != 1 ||
		    !net_secret_eq_n(hello, t->cookie, PROTO_COOKIE_LEN)) {
			close(fd);
			continue;
		}
		fds[got] = fd;
		roles[got++] = hello[PROTO_COOKIE_LEN];
	}
	return 0;
}

static void start_clock(struct test *t)
{
	t->t0 = net_now_ns();
	net_cpu_us(&t->u0, &t->s0);
}

static void stop_clock(struct test *t)
{
	uint64_t u, s;

	net_cpu_us(&u, &s);
	proto_set(&t->res, PK_USEC, (net_now_ns() - t->t0) / 1000);
	proto_set(&t->res, PK_USER_US, u - t->u0);
	proto_set(&t->res, PK_SYS_US, s - t->s0);
}

/* A control message during a test: STOP (its fields in *m) is 1, anything
 * else ends the test. */
static int ctl_stop(struct test *t, struct proto_msg *m)
{
	char err[128];

	if (proto_recv(t->s->ctl, m, PROTO_STALL_MS, err, sizeof(err)) < 0)
		return fail(t, E_BAD, "control: %s", err);
	if (m->verb != PV_STOP)
		return fail(t, E_STATE, "%s during a test", proto_verb_name(m->verb));
	return 1;
}

static int test_tcp_bw(struct test *t)
{
	struct net_pump p;
	struct proto_msg m;
	uint64_t streams = num(t, PK_STREAMS, 1), dir = num(t, PK_DIR, D_SEND), moved;
	uint64_t limit = (num(t, PK_MS, PROTO_MAX_MS) + PROTO_STALL_MS) * 1000000ull, last;
	char roles[2 * PROTO_MAX_STREAMS];
	int k, r, ns = 0, nr = 0, rc = -1;

	memset(&p, 0, sizeof(p));
	p.len = (size_t)num(t, PK_LEN, 8192);
	p.tx_limit = num(t, PK_BYTES, 0);
	p.ctl = t->s->ctl;
	p.n = (int)(dir == D_BIDIR ? 2 * streams : streams);
	if (!(p.buf = malloc(p.len)))
		return fail(t, E_INTERNAL, "out of memory");
	net_pump_pattern(p.buf, p.len);
	if (open_data(t, SOCK_STREAM) < 0 || accept_data(t, p.fd, roles, p.n) < 0)
		goto out;
	for (k = 0; k < p.n; k++) {
		ns += roles[k] == 's';
		nr += roles[k] == 'r';
		p.tx[k] = roles[k] == 'r';	/* the client receives: we send */
	}
	if (ns != (dir == D_RECV ? 0 : (int)streams) || nr != (dir == D_SEND ? 0 : (int)streams)) {
		fail(t, E_BAD, "data connections' roles do not match dir=%s", proto_dir_name((int)dir));
		goto out;
	}
	if (proto_recv(t->s->ctl, &m, PROTO_IDLE_MS, t->why, sizeof(t->why)) < 0 || m.verb != PV_GO) {
		fail(t, E_STATE, "expected GO");
		goto out;
	}
	start_clock(t);
	last = t->t0;
	for (;;) {
		uint64_t now;

		r = net_pump_step(&p, &moved);
		now = net_now_ns();
		if (r == 1)
			break;
		if (r < 0) {
			fail(t, E_INTERNAL, "stream %d: %s", p.bad + 1, strerror(errno));
			goto out;
		}
		if (r == 2) {
			if (ctl_stop(t, &m) < 0)
				goto out;
			net_pump_stop_tx(&p);
			p.ctl = -1;
		}
		if (moved)
			last = now;
		if (now - last > PROTO_STALL_MS * 1000000ull || now - t->t0 > limit || terminated()) {
			fail(t, E_TIMEOUT, terminated() ? "server stopping" : "stalled or over time");
			goto out;
		}
	}
	stop_clock(t);
	proto_set(&t->res, PK_RX, p.rxb);
	proto_set(&t->res, PK_TX, p.txb);
	proto_set(&t->res, PK_RXCALLS, p.rxcalls);
	proto_set(&t->res, PK_TXCALLS, p.txcalls);
	for (k = 0; k < p.n; k++) {
		uint64_t re, rtt;

		if ((p.tx[k] || !nr) && net_tcp_info(p.fd[k], &re, &rtt) == 0) {
			proto_set(&t->res, PK_RETRANS, t->res.num[PK_RETRANS] + re);
			proto_set(&t->res, PK_RTT_US, rtt);
		}
	}
	rc = 0;
out:
	net_pump_close(&p);
	free(p.buf);
	return rc;
}

struct udp_hdr {
	unsigned char cookie[8];
	unsigned char seq[8];
	unsigned char ts[8];
};

static uint64_t get64(const unsigned char *b)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | b[i];
	return v;
}

#define UDP_MAX_SEQ (1ull << 28)	/* datagrams a test can count (32 MiB of bits) */

static int test_udp_bw(struct test *t)
{
	size_t len = (size_t)num(t, PK_LEN, 1470), cap = 0;
	unsigned char *buf = NULL, *seen = NULL;
	uint64_t uniq = 0, bytes = 0, dup = 0, ooo = 0, maxseq = 0, sent = 0, first = 0, lastt = 0;
	uint64_t idle_since, stop_at = 0;
	double jitter = 0, prev_transit = 0;
	struct proto_msg m;
	int rc = -1, any = 0;

	if (len < sizeof(struct udp_hdr) || len > PROTO_MAX_UDP_LEN)
		return fail(t, E_LIMIT, "UDP length %zu out of range", len);
	if (!(buf = malloc(len + 1)) || open_data(t, SOCK_DGRAM) < 0)
		goto out;
	start_clock(t);
	idle_since = t->t0;
	for (;;) {
		struct pollfd pf[2] = { { t->lfd, POLLIN, 0 }, { stop_at ? -1 : t->s->ctl, POLLIN, 0 } };
		uint64_t now;
		int burst;

		if (poll(pf, 2, 20) < 0 && errno != EINTR)
			break;
		now = net_now_ns();
		if (pf[1].revents) {
			if (ctl_stop(t, &m) < 0)
				goto out;
			sent = proto_has(&m, PK_SENT) ? m.num[PK_SENT] : 0;
			stop_at = now;
		}
		for (burst = 0; burst < 64 && pf[0].revents; burst++) {
			ssize_t n = recv(t->lfd, buf, len + 1, MSG_DONTWAIT);
			const struct udp_hdr *h = (const void *)buf;
			uint64_t seq;
			double transit;

			if (n < 0)
				break;
			idle_since = now;
			if ((size_t)n < sizeof(*h) || memcmp(h->cookie, t->cookie, 8) != 0)
				continue;	/* not this test's */
			seq = get64(h->seq);
			if (seq >= UDP_MAX_SEQ)
				continue;
			if (seq / 8 >= cap) {
				size_t nc = cap ? cap : 4096;
				unsigned char *ns;

				while (seq / 8 >= nc)
					nc *= 2;
				if (!(ns = realloc(seen, nc))) {
					fail(t, E_INTERNAL, "out of memory");
					goto out;
				}
				memset(ns + cap, 0, nc - cap);
				seen = ns;
				cap = nc;
			}
			if (seen[seq / 8] & (1u << (seq % 8))) {
				dup++;
				continue;
			}
			seen[seq / 8] |= (unsigned char)(1u << (seq % 8));
			if (any && seq < maxseq)
				ooo++;
			/* RFC 3550 interarrival jitter: the sender's clock only
			 * appears in differences. */
			transit = (double)now - (double)get64(h->ts);
			if (any) {
				double d = transit - prev_transit;

				jitter += ((d < 0 ? -d : d) - jitter) / 16;
			} else {
				first = now;
			}
			prev_transit = transit;
			lastt = now;
			if (seq > maxseq || !any)
				maxseq = seq;
			any = 1;
			uniq++;
			bytes += (uint64_t)n;
		}
		/* After STOP: what is still in flight, until all came or 100 ms
		 * pass without a datagram (2 s at most). */
		if (stop_at && (uniq >= sent || now - idle_since > 100000000ull ||
				now - stop_at > 2000000000ull))
			break;
		if (!stop_at && now - idle_since > PROTO_IDLE_MS * 1000000ull) {
			fail(t, E_TIMEOUT, "no datagram and no STOP for %d s", PROTO_IDLE_MS / 1000);
			goto out;
		}
		if (terminated()) {
			fail(t, E_TIMEOUT, "server stopping");
			goto out;
		}
	}
	stop_clock(t);
	proto_set(&t->res, PK_USEC, any ? (lastt - first) / 1000 : 0);
	proto_set(&t->res, PK_PKTS, uniq);
	proto_set(&t->res, PK_RX, bytes);
	proto_set(&t->res, PK_DUP, dup);
	proto_set(&t->res, PK_OOO, ooo);
	proto_set(&t->res, PK_LOST, sent > uniq ? sent - uniq : 0);
	proto_set(&t->res, PK_JITTER_NS, (uint64_t)jitter);
	rc = 0;
out:
	free(buf);
	free(seen);
	return rc;
}

/* The RPC-like request: xid, procedure (1), argument length (4), argument,
 * each a 32-bit big-endian word; the reply: xid, status 0, argument + 1.
 * Over TCP each goes in one record with Sun RPC's record mark. */
#define RPC_REQ 16
#define RPC_REP 12

static uint32_t get32(const unsigned char *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static void put32(unsigned char *b, uint32_t v)
{
	b[0] = (unsigned char)(v >> 24);
	b[1] = (unsigned char)(v >> 16);
	b[2] = (unsigned char)(v >> 8);
	b[3] = (unsigned char)v;
}

static int rpc_reply(const unsigned char *req, unsigned char *rep)
{
	if (get32(req + 4) != 1 || get32(req + 8) != 4)
		return -1;
	memcpy(rep, req, 4);
	put32(rep + 4, 0);
	put32(rep + 8, get32(req + 12) + 1);
	return 0;
}

/* tcp_connect: accept and close every connection waiting (the listener is
 * non-blocking); those from the client's host are counted. */
static uint64_t accept_close(struct test *t)
{
	uint64_t n = 0;
	int c;

	do {
		struct sockaddr_storage a;
		socklen_t l = sizeof(a);

		if ((c = accept(t->lfd, (struct sockaddr *)&a, &l)) >= 0) {
			n += (uint64_t)net_same_host((struct sockaddr *)&a,
						     (struct sockaddr *)&t->s->peer);
			close(c);
		}
	} while (c >= 0);
	return n;
}

/* Echo (tcp_lat, udp_lat), answer (rpc_*) or accept and close
 * (tcp_connect) until STOP. */
static int test_echo(struct test *t)
{
	int tcp = t->kind == K_TCP_LAT || t->kind == K_RPC_TCP, fd = -1, rc = -1;
	size_t len = (size_t)num(t, PK_LEN, 1);
	unsigned char buf[PROTO_MAX_UDP_LEN + 1], rep[4 + RPC_REP];
	uint64_t served = 0, idle = net_now_ns();
	struct proto_msg m;
	char role;
	int closed = 0;	/* the client closed its data connection: wait for STOP */
	int echo = t->kind == K_TCP_LAT || t->kind == K_UDP_LAT, dfd;

	if (len > PROTO_MAX_UDP_LEN)
		return fail(t, E_LIMIT, "message length %zu out of range", len);
	if (open_data(t, tcp || t->kind == K_TCP_CONNECT ? SOCK_STREAM : SOCK_DGRAM) < 0)
		return -1;
	if (tcp && accept_data(t, &fd, &role, 1) < 0)
		return -1;
	dfd = tcp ? fd : t->lfd;
	if (t->kind == K_TCP_CONNECT)
		net_set_nonblock(t->lfd, 1);
	if (echo) {	/* the blocking recv below returns within 100 ms */
		struct timeval tv = { 0, 100000 };

		setsockopt(dfd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}
	start_clock(t);
	for (;;) {
		struct pollfd pf[2] = { { closed ? -1 : dfd, POLLIN, 0 }, { t->s->ctl, POLLIN, 0 } };
		ssize_t n;

		/* An echo waits in recv on the data socket alone, as qperf's
		 * and lmbench's servers do, and looks at the control socket
		 * once requests stop for 100 ms. (A poll of both sockets before
		 * each request put net.tcp.lat on one CPU at 1.14x qperf's
		 * tcp_lat; without it 1.04, five rounds each: docs/peers.md.) */
		if (echo && !closed && !terminated()) {
			n = recv(dfd, buf, tcp ? len : sizeof(buf), 0);
			if (n > 0) {
				if (tcp ? net_write_all(fd, buf, (size_t)n, PROTO_STALL_MS) < 0 :
				    send(dfd, buf, (size_t)n, 0) < 0 && errno != ECONNREFUSED)
					goto gone;
				served++;
				idle = net_now_ns();
				continue;
			}
			if (n == 0 && tcp)
				closed = 1;
			else if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
				 errno != ECONNREFUSED)
				goto gone;
		}
		if (poll(pf, 2, 100) < 0 && errno != EINTR)
			break;
		if (terminated()) {
			fail(t, E_TIMEOUT, "server stopping");
			goto out;
		}
		if (pf[1].revents) {
			if (ctl_stop(t, &m) < 0)
				goto out;
			/* Connections the kernel completed before STOP count too. */
			if (t->kind == K_TCP_CONNECT)
				served += accept_close(t);
			break;
		}
		if (!pf[0].revents) {
			if (net_now_ns() - idle > PROTO_IDLE_MS * 1000000ull) {
				fail(t, E_TIMEOUT, "idle for %d s", PROTO_IDLE_MS / 1000);
				goto out;
			}
			continue;
		}
		idle = net_now_ns();
		if (t->kind == K_TCP_CONNECT) {
			served += accept_close(t);
			continue;
		}
		if (t->kind == K_RPC_TCP) {
			int r = net_read_full(fd, buf, 4 + RPC_REQ, PROTO_STALL_MS);

			if (r == 0) {
				closed = 1;
				continue;
			}
			if (r < 0 || get32(buf) != (0x80000000u | RPC_REQ) ||
			    rpc_reply(buf + 4, rep + 4) < 0) {
				fail(t, E_BAD, "malformed RPC request");
				goto out;
			}
			put32(rep, 0x80000000u | RPC_REP);
			if (net_write_all(fd, rep, sizeof(rep), PROTO_STALL_MS) < 0)
				goto gone;
			served++;
			continue;
		}
		if (echo)
			continue;	/* its recv at the top of the loop */
		/* K_RPC_UDP */
		n = recv(t->lfd, buf, sizeof(buf), 0);
		if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == ECONNREFUSED))
			continue;
		if (n < 0)
			goto gone;
		if (n != RPC_REQ || rpc_reply(buf, rep) < 0)
			continue;	/* a datagram that is not a request */
		if (send(t->lfd, rep, RPC_REP, 0) < 0 && errno != ECONNREFUSED)
			goto gone;
		served++;
	}
	stop_clock(t);
	proto_set(&t->res, PK_RXCALLS, served);
	rc = 0;
	goto out;
gone:
	fail(t, E_INTERNAL, "data: %s", strerror(errno));
out:
	if (fd >= 0)
		close(fd);
	return rc;
}

/* ---- a session ---- */

/* The session after its HELLO was accepted (by the listener, see
 * handshake()): OK, then TEST after TEST. Returns 1 when a test ran (for
 * --once). */
static int session(struct session *s)
{
	int ran = 0;
	const struct serve_cfg *cfg = s->cfg;
	struct proto_msg m;
	char err[160] = "";

	proto_init(&m, PV_OK);
	proto_set(&m, PK_V, PROTO_VERSION);
	if (proto_send(s->ctl, &m) < 0)
		return 0;
	for (;;) {
		struct test t;
		int rc;

		memset(&t, 0, sizeof(t));
		t.s = s;
		t.lfd = -1;
		err[0] = 0;
		if (proto_recv(s->ctl, &t.req, PROTO_IDLE_MS, err, sizeof(err)) < 0) {
			if (strcmp(err, "connection closed") != 0) {
				send_err(s->ctl, strstr(err, "no message") ? E_TIMEOUT : E_BAD);
				logf_(cfg, "%s dropped: %s", s->who, err);
			}
			return ran;
		}
		if (t.req.verb == PV_BYE)
			return ran;
		if (t.req.verb != PV_TEST) {
			send_err(s->ctl, E_STATE);
			logf_(cfg, "%s dropped: %s outside a test", s->who, proto_verb_name(t.req.verb));
			return ran;
		}
		t.kind = (int)t.req.num[PK_KIND];
		ran = 1;
		proto_init(&t.res, PV_RESULT);
		if (t.kind == K_TCP_BW)
			rc = test_tcp_bw(&t);
		else if (t.kind == K_UDP_BW)
			rc = test_udp_bw(&t);
		else
			rc = test_echo(&t);
		if (t.lfd >= 0)
			close(t.lfd);
		if (rc == 0 && proto_send(s->ctl, &t.res) < 0)
			rc = fail(&t, E_INTERNAL, "client gone before the result");
		if (rc < 0)
			send_err(s->ctl, t.code);
		logf_(cfg, "%s %s streams=%s len=%s dir=%s rx=%llu tx=%llu %.3fs %s%s", s->who,
		      proto_kind_name((int)t.req.num[PK_KIND]),
		      proto_has(&t.req, PK_STREAMS) ? t.req.str[PK_STREAMS] : "1",
		      proto_has(&t.req, PK_LEN) ? t.req.str[PK_LEN] : "-",
		      proto_has(&t.req, PK_DIR) ? t.req.str[PK_DIR] : "-",
		      (unsigned long long)t.res.num[PK_RX], (unsigned long long)t.res.num[PK_TX],
		      (double)t.res.num[PK_USEC] / 1e6, rc == 0 ? "ok" : "failed: ",
		      rc == 0 ? "" : t.why);
		if (rc < 0)
			return ran;
	}
}

/* ---- the listener ----
 *
 * A connection holds a session (a process, one of max_clients) only once
 * its HELLO has been accepted. Until then it is one of at most
 * MAX_PENDING connections in the handshake, read by the listener itself
 * without blocking, and closed when its HELLO is not complete within
 * PROTO_HELLO_MS: idle, slow-drip and half-open connections cost a file
 * descriptor for a few seconds and never a slot. A source address holds
 * at most MAX_PENDING_PER_HOST of them; a new connection beyond that (or
 * beyond MAX_PENDING in all) closes the oldest of those that sent least
 * (a new connection's HELLO is read as it is accepted, and every waiting
 * one's again before one is pushed out), so a flood from
 * one address cannot keep a client's fresh connection out, and the listener never
 * sleeps on one connection. A HELLO accepted while every slot is taken
 * waits up to SLOT_WAIT_MS for a session to end (a client that just said
 * BYE may still be exiting), then gets "busy". */

#define MAX_CLIENTS 256
#define MAX_PENDING 64
#define MAX_PENDING_PER_HOST 8
#define SLOT_WAIT_MS 1000
#define DROP_LOG_NS 10000000000ull	/* dropped connections: one log line per 10 s */
static pid_t kids[MAX_CLIENTS];

struct pending {
	int fd;			/* -1: a free place */
	int hello;		/* its HELLO was accepted: waiting for a slot */
	uint64_t since, deadline;
	char line[PROTO_MAX_LINE];
	size_t n;
	struct session s;
};

struct listener {
	const struct serve_cfg *cfg;
	int lfd, nchild, tested;
	struct pending p[MAX_PENDING];
	unsigned long dropped;	/* since the last log line about them */
	uint64_t dropped_log;
	char dropped_who[80];
};

/* Reap ended sessions; l->tested is set when one of them ran a test. */
static void reap(struct listener *l)
{
	pid_t pid;
	int k, st;

	while (l->nchild > 0 && (pid = waitpid(-1, &st, WNOHANG)) > 0)
		for (k = 0; k < MAX_CLIENTS; k++)
			if (kids[k] == pid) {
				kids[k] = 0;
				l->nchild--;
				l->tested |= WIFEXITED(st) && WEXITSTATUS(st) == 3;
			}
}

static void pend_close(struct pending *p)
{
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
}

/* A connection dropped before its handshake ended: counted, and logged
 * at most once per DROP_LOG_NS (a flood must not flood the log too). */
static void pend_drop(struct listener *l, struct pending *p, uint64_t now)
{
	snprintf(l->dropped_who, sizeof(l->dropped_who), "%s", p->s.who);
	pend_close(p);
	l->dropped++;
	if (now - l->dropped_log >= DROP_LOG_NS) {
		logf_(l->cfg, "dropped %lu connection%s that sent no HELLO within %d s or were "
		      "pushed out by newer ones (the last from %s)", l->dropped, l->dropped == 1 ? "" : "s",
		      PROTO_HELLO_MS / 1000, l->dropped_who);
		l->dropped = 0;
		l->dropped_log = now;
	}
}

/* Read what a connection in the handshake sent (one byte at a time, so
 * nothing after the HELLO's '\n' is taken from the session) and judge
 * its HELLO: 1 accepted, 0 not complete yet, -1 refused and closed. */
static int handshake(struct listener *l, struct pending *p)
{
	const struct serve_cfg *cfg = l->cfg;
	struct proto_msg m;
	char why[96];
	ssize_t k;

	for (;;) {
		k = read(p->fd, p->line + p->n, 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (k <= 0) {
			logf_(cfg, "%s refused: %s before HELLO", p->s.who,
			      k == 0 ? "connection closed" : strerror(errno));
			pend_close(p);
			return -1;
		}
		if (p->line[p->n] == '\n')
			break;
		if (++p->n >= sizeof(p->line)) {
			send_err(p->fd, E_BAD);
			logf_(cfg, "%s refused: malformed message: longer than %d bytes", p->s.who,
			      PROTO_MAX_LINE);
			pend_close(p);
			return -1;
		}
	}
	if (proto_parse(p->line, p->n, &m, why, sizeof(why)) < 0) {
		send_err(p->fd, E_BAD);
		logf_(cfg, "%s refused: malformed message: %s", p->s.who, why);
		pend_close(p);
		return -1;
	}
	if (m.verb != PV_HELLO) {
		send_err(p->fd, E_STATE);
		logf_(cfg, "%s refused: expected HELLO, got %s", p->s.who, proto_verb_name(m.verb));
		pend_close(p);
		return -1;
	}
	if (m.num[PK_V] != PROTO_VERSION) {
		send_err(p->fd, E_VERSION);
		logf_(cfg, "%s refused: protocol version %llu", p->s.who, (unsigned long long)m.num[PK_V]);
		pend_close(p);
		return -1;
	}
	if (cfg->token && (!proto_has(&m, PK_TOKEN) || !net_secret_eq(m.str[PK_TOKEN], cfg->token))) {
		send_err(p->fd, E_TOKEN);
		logf_(cfg, "%s refused: %s", p->s.who, proto_has(&m, PK_TOKEN) ? "wrong token" : "no token");
		pend_close(p);
		return -1;
	}
	p->hello = 1;
	return 1;
}

/* Is a the one to push out before b: it sent nothing and b did, or as much
 * and it came first (a client's HELLO comes with its connection; idle and
 * dripping connections go before it). */
static int older(const struct pending *a, const struct pending *b)
{
	if ((a->n == 0) != (b->n == 0))
		return a->n == 0;
	return a->since < b->since;
}

/* A new connection: a place in the handshake, made by closing the oldest
 * of its address (or of all) when they are full. Returns the place, or
 * NULL when the connection was refused. */
static struct pending *pend_add(struct listener *l, int fd, const struct sockaddr_storage *peer, socklen_t plen,
		     uint64_t now)
{
	struct pending *free_ = NULL, *oldest = NULL, *oldest_host = NULL;
	int k, same = 0;

	/* what the others sent since they were last read first: a client's
	 * HELLO may arrive just after its connection was accepted, and a
	 * flood of newer connections must not push it out unread */
	for (k = 0; k < MAX_PENDING; k++)
		if (l->p[k].fd >= 0 && !l->p[k].hello && handshake(l, &l->p[k]) > 0)
			l->p[k].deadline = now + SLOT_WAIT_MS * 1000000ull;
	for (k = 0; k < MAX_PENDING; k++) {
		struct pending *p = &l->p[k];

		if (p->fd < 0) {
			if (!free_)
				free_ = p;
			continue;
		}
		if (p->hello)
			continue;	/* authenticated: not pushed out */
		/* the one pushed out: the oldest of those that sent least */
		if (!oldest || older(p, oldest))
			oldest = p;
		if (net_same_host((const struct sockaddr *)&p->s.peer, (const struct sockaddr *)peer)) {
			same++;
			if (!oldest_host || older(p, oldest_host))
				oldest_host = p;
		}
	}
	if (same >= MAX_PENDING_PER_HOST) {
		pend_drop(l, oldest_host, now);
		free_ = oldest_host;
	} else if (!free_ && oldest) {
		pend_drop(l, oldest, now);
		free_ = oldest;
	}
	if (!free_) {	/* every place is an authenticated client waiting for a slot */
		net_set_nonblock(fd, 1);
		send_err(fd, E_BUSY);
		close(fd);
		return NULL;
	}
	memset(free_, 0, sizeof(*free_));
	free_->fd = fd;
	free_->since = now;
	free_->deadline = now + (uint64_t)PROTO_HELLO_MS * 1000000ull;
	free_->s.ctl = fd;
	free_->s.peer = *peer;
	free_->s.plen = plen;
	free_->s.llen = sizeof(free_->s.local);
	getsockname(fd, (struct sockaddr *)&free_->s.local, &free_->s.llen);
	net_addr_str((const struct sockaddr *)peer, free_->s.who, sizeof(free_->s.who));
	free_->s.cfg = l->cfg;
	net_set_nonblock(fd, 1);
	return free_;
}

/* A session process for an authenticated connection. */
static void start_session(struct listener *l, struct pending *p)
{
	const struct serve_cfg *cfg = l->cfg;
	pid_t pid = fork();
	int k;

	if (pid == 0) {
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		close(l->lfd);
		if (cfg->parent_fd >= 0)
			close(cfg->parent_fd);
		for (k = 0; k < MAX_PENDING; k++)
			if (&l->p[k] != p && l->p[k].fd >= 0)
				close(l->p[k].fd);
		boss = getppid();
		net_set_nonblock(p->fd, 0);
		k = session(&p->s);
		close(p->fd);
		_exit(k ? 3 : 0);
	}
	if (pid > 0) {
		for (k = 0; k < MAX_CLIENTS && kids[k]; k++)
			;
		kids[k < MAX_CLIENTS ? k : 0] = pid;
		l->nchild++;
	} else {
		send_err(p->fd, E_BUSY);
		logf_(cfg, "%s refused: fork: %s", p->s.who, strerror(errno));
	}
	pend_close(p);
}

/* One turn of the listener after poll: handshakes read, authenticated
 * connections given a session (or "busy"), deadlines enforced, new
 * connections accepted. */
static void listener_turn(struct listener *l, const struct pollfd *pf, int npf, int listen_ready)
{
	const struct serve_cfg *cfg = l->cfg;
	uint64_t now = net_now_ns();
	int k, j;

	for (j = 0; j < npf; j++)
		for (k = 0; k < MAX_PENDING; k++)
			if (l->p[k].fd == pf[j].fd && !l->p[k].hello && pf[j].revents) {
				if (handshake(l, &l->p[k]) > 0)
					l->p[k].deadline = now + SLOT_WAIT_MS * 1000000ull;
				break;
			}
	/* new connections, each read at once: a client's HELLO comes with its
	 * connection, and is judged before newer ones could push it out */
	for (k = 0; listen_ready && k < MAX_PENDING; k++) {
		struct sockaddr_storage peer;
		socklen_t plen = sizeof(peer);
		int fd = accept(l->lfd, (struct sockaddr *)&peer, &plen);
		struct pending *p;

		if (fd < 0)
			break;
		if ((p = pend_add(l, fd, &peer, plen, now)) && handshake(l, p) > 0)
			p->deadline = now + SLOT_WAIT_MS * 1000000ull;
	}
	for (k = 0; k < MAX_PENDING; k++) {
		struct pending *p = &l->p[k];

		if (p->fd < 0)
			continue;
		if (p->hello && l->nchild < cfg->max_clients) {
			start_session(l, p);
		} else if (p->hello && now >= p->deadline) {
			send_err(p->fd, E_BUSY);
			logf_(cfg, "%s refused: busy (%d clients)", p->s.who, l->nchild);
			pend_close(p);
		} else if (!p->hello && now >= p->deadline) {
			send_err(p->fd, E_TIMEOUT);
			pend_drop(l, p, now);
		}
	}
}

int net_serve(const struct serve_cfg *cfg, char *err, size_t en)
{
	static struct listener l;
	struct sockaddr_storage ss;
	struct sigaction sa;
	socklen_t sl = sizeof(ss);
	char host[128], name[80];
	int port, k;

	if (net_split(cfg->listen, PROTO_PORT, host, sizeof(host), &port, err, en) < 0 ||
	    net_resolve(host, port, 1, SOCK_STREAM, &ss, &sl, err, en) < 0)
		return -1;
	net_addr_str((struct sockaddr *)&ss, name, sizeof(name));
	memset(&l, 0, sizeof(l));
	l.cfg = cfg;
	for (k = 0; k < MAX_PENDING; k++)
		l.p[k].fd = -1;
	if ((l.lfd = net_listen(&ss, sl, SOCK_STREAM)) < 0) {
		snprintf(err, en, "cannot listen on %s (port %d): %s", name, port, strerror(errno));
		return -1;
	}
	net_set_nonblock(l.lfd, 1);
	sl = sizeof(ss);
	getsockname(l.lfd, (struct sockaddr *)&ss, &sl);
	net_addr_str((struct sockaddr *)&ss, name, sizeof(name));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;	/* no SA_RESTART: poll returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	net_should_stop = terminated;
	if (cfg->ready_fd >= 0) {
		int p = net_addr_port((struct sockaddr *)&ss);

		if (write(cfg->ready_fd, &p, sizeof(p)) < 0)
			return -1;
		close(cfg->ready_fd);
	}
	logf_(cfg, "listening on %s (protocol %d, at most %d clients, %s%s)", name, PROTO_VERSION,
	      cfg->max_clients, cfg->token ? "token required" : "no token",
	      cfg->once ? ", one client" : "");
	while (!term) {
		struct pollfd pf[2 + MAX_PENDING];
		int npf = 0, wait_ms = 200, parent = -1, waiting = 0;

		reap(&l);
		if (cfg->once && l.tested)
			break;
		pf[npf++] = (struct pollfd){ l.lfd, POLLIN, 0 };
		if (cfg->parent_fd >= 0) {
			parent = npf;
			pf[npf++] = (struct pollfd){ cfg->parent_fd, POLLIN, 0 };
		}
		for (k = 0; k < MAX_PENDING; k++)
			if (l.p[k].fd >= 0 && !l.p[k].hello)
				pf[npf++] = (struct pollfd){ l.p[k].fd, POLLIN, 0 };
			else if (l.p[k].fd >= 0)
				waiting = 1;
		if (waiting)
			wait_ms = 20;	/* a slot may free up: reap soon */
		if (poll(pf, (nfds_t)npf, wait_ms) < 0)
			continue;
		if (parent >= 0 && pf[parent].revents)
			break;	/* the run that started us is gone */
		reap(&l);
		listener_turn(&l, pf + 1 + (parent >= 0), npf - 1 - (parent >= 0), pf[0].revents != 0);
	}
	for (k = 0; k < MAX_PENDING; k++)
		pend_close(&l.p[k]);
	close(l.lfd);
	if (l.nchild > 0) {
		uint64_t end = net_now_ns() + 2000000000ull;

		for (k = 0; k < MAX_CLIENTS; k++)
			if (kids[k])
				kill(kids[k], SIGTERM);
		while (l.nchild > 0 && net_now_ns() < end) {
			reap(&l);
			if (l.nchild > 0)
				poll(NULL, 0, 20);
		}
	}
	logf_(cfg, "stopped%s", term ? " (signal)" : "");
	return 0;
}
