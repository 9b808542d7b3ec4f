/* sock.c — socket helpers shared by `bakeoff serve` and the network
 * benchmarks: addresses (IPv4 and IPv6), connect with a timeout, waits that
 * are bounded and interruptible, whole reads and writes, control messages
 * read one byte at a time (never past their '\n', never past
 * PROTO_MAX_LINE), cookies, and TCP_INFO where the OS has it. */
#if defined(__linux__) && !defined(BAKEOFF_NO_LINUX)
#define _GNU_SOURCE	/* struct tcp_info (TCP_INFO): glibc and musl */
#define HAVE_TCP_INFO 1
#endif
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include "proto.h"

static int never(void)
{
	return 0;
}
int (*net_should_stop)(void) = never;

uint64_t net_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int net_split(const char *s, int dflt, char *host, size_t hn, int *port, char *err, size_t en)
{
	const char *p = NULL, *h = s;
	size_t l;
	long v;
	char *end;

	if (s[0] == '[') {
		const char *c = strchr(s, ']');

		if (!c || (c[1] && c[1] != ':'))
			goto bad;
		h = s + 1;
		l = (size_t)(c - h);
		p = c[1] ? c + 2 : NULL;
	} else if (strchr(s, ':') && strchr(s, ':') == strrchr(s, ':')) {
		p = strchr(s, ':') + 1;
		l = (size_t)(p - 1 - s);
	} else {
		l = strlen(s);	/* a bare name, or an IPv6 address without a port */
	}
	if (l == 0 || l >= hn)
		goto bad;
	memcpy(host, h, l);
	host[l] = 0;
	*port = dflt;
	if (p) {
		errno = 0;
		v = strtol(p, &end, 10);
		if (!*p || *end || errno || v < 0 || v > 65535)
			goto bad;
		*port = (int)v;
	}
	return 0;
bad:
	snprintf(err, en, "'%s' is not HOST, HOST:PORT or [IPV6]:PORT (port 0 to 65535)", s);
	return -1;
}

int net_resolve(const char *host, int port, int numeric, int socktype,
		struct sockaddr_storage *ss, socklen_t *sl, char *err, size_t en)
{
	struct addrinfo hints, *ai = NULL;
	char ps[16];
	int r;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = socktype;
	hints.ai_flags = AI_NUMERICSERV | (numeric ? AI_NUMERICHOST : 0);
	snprintf(ps, sizeof(ps), "%d", port);
	r = getaddrinfo(host, ps, &hints, &ai);
	if (r != 0 || !ai) {
		snprintf(err, en, "cannot resolve '%s': %s", host,
			 r == EAI_NONAME && numeric ? "not a numeric IPv4 or IPv6 address" :
			 gai_strerror(r));
		if (ai)
			freeaddrinfo(ai);
		return -1;
	}
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*sl = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

void net_addr_str(const struct sockaddr *sa, char *out, size_t n)
{
	char h[INET6_ADDRSTRLEN] = "?";

	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)(const void *)sa;

		inet_ntop(AF_INET6, &s6->sin6_addr, h, sizeof(h));
		snprintf(out, n, "[%s]:%d", h, ntohs(s6->sin6_port));
	} else if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *s4 = (const struct sockaddr_in *)(const void *)sa;

		inet_ntop(AF_INET, &s4->sin_addr, h, sizeof(h));
		snprintf(out, n, "%s:%d", h, ntohs(s4->sin_port));
	} else {
		snprintf(out, n, "?");
	}
}

int net_addr_port(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)(const void *)sa)->sin6_port);
	return ntohs(((const struct sockaddr_in *)(const void *)sa)->sin_port);
}

void net_addr_set_port(struct sockaddr_storage *ss, int port)
{
	if (ss->ss_family == AF_INET6)
		((struct sockaddr_in6 *)(void *)ss)->sin6_port = htons((uint16_t)port);
	else
		((struct sockaddr_in *)(void *)ss)->sin_port = htons((uint16_t)port);
}

int net_same_host(const struct sockaddr *a, const struct sockaddr *b)
{
	if (a->sa_family != b->sa_family)
		return 0;
	if (a->sa_family == AF_INET6)
		return memcmp(&((const struct sockaddr_in6 *)(const void *)a)->sin6_addr,
			      &((const struct sockaddr_in6 *)(const void *)b)->sin6_addr,
			      sizeof(struct in6_addr)) == 0;
	return ((const struct sockaddr_in *)(const void *)a)->sin_addr.s_addr ==
	       ((const struct sockaddr_in *)(const void *)b)->sin_addr.s_addr;
}

int net_set_nonblock(int fd, int on)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -1;
	return fcntl(fd, F_SETFL, on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK);
}

int net_listen(const struct sockaddr_storage *ss, socklen_t sl, int socktype)
{
	int fd = socket(ss->ss_family, socktype, 0), one = 1, e;

	if (fd < 0)
		return -1;
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	if (socktype == SOCK_STREAM)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
#ifdef IPV6_V6ONLY
	if (ss->ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
#endif
	if (bind(fd, (const struct sockaddr *)ss, sl) < 0 ||
	    (socktype == SOCK_STREAM && listen(fd, 1024) < 0)) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int net_wait(int fd, short events, int timeout_ms)
{
	uint64_t end = net_now_ns() + (uint64_t)timeout_ms * 1000000ull;
	struct pollfd p = { fd, events, 0 };
	int r;

	for (;;) {
		uint64_t now = net_now_ns();
		int slice;

		if (net_should_stop()) {
			errno = EINTR;
			return -1;
		}
		if (now >= end)
			return 0;
		slice = (int)((end - now) / 1000000ull) + 1;
		r = poll(&p, 1, slice < 100 ? slice : 100);
		if (r > 0)
			return 1;
		if (r < 0 && errno != EINTR)
			return -1;
	}
}

int net_connect(const struct sockaddr_storage *ss, socklen_t sl, int timeout_ms, int nodelay,
		char *err, size_t en)
{
	int fd = socket(ss->ss_family, SOCK_STREAM, 0), e = 0, one = 1, r;
	socklen_t el = sizeof(e);

	if (fd < 0) {
		snprintf(err, en, "socket: %s", strerror(errno));
		return -1;
	}
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	net_set_nonblock(fd, 1);
	if (connect(fd, (const struct sockaddr *)ss, sl) < 0) {
		if (errno != EINPROGRESS) {
			e = errno;
			goto fail;
		}
		r = net_wait(fd, POLLOUT, timeout_ms);
		if (r <= 0) {
			e = r == 0 ? ETIMEDOUT : errno;
			goto fail;
		}
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el) < 0)
			e = errno;
		if (e)
			goto fail;
	}
	net_set_nonblock(fd, 0);
	if (nodelay)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
fail:
	snprintf(err, en, "%s", e == ETIMEDOUT ? "no answer (timed out)" :
				  e == EINTR ? "interrupted" : strerror(e));
	close(fd);
	return -1;
}

int net_write_all(int fd, const void *p, size_t n, int timeout_ms)
{
	const char *c = p;

	while (n > 0) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
			int r = net_wait(fd, POLLOUT, timeout_ms);

			if (r <= 0) {
				if (r == 0)
					errno = ETIMEDOUT;
				return -1;
			}
			continue;
		}
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

int net_read_full(int fd, void *p, size_t n, int timeout_ms)
{
	char *c = p;
	size_t got = 0;

	while (got < n) {
		int r = net_wait(fd, POLLIN, timeout_ms);
		ssize_t k;

		if (r <= 0) {
			if (r == 0)
				errno = ETIMEDOUT;
			return -1;
		}
		k = read(fd, c + got, n - got);
		if (k < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (k < 0)
			return -1;
		if (k == 0) {
			if (got == 0)
				return 0;
			errno = ECONNRESET;
			return -1;
		}
		got += (size_t)k;
	}
	return 1;
}

int proto_recv(int fd, struct proto_msg *m, int timeout_ms, char *err, size_t en)
{
	char line[PROTO_MAX_LINE], why[96];
	size_t n = 0;
	uint64_t end = net_now_ns() + (uint64_t)timeout_ms * 1000000ull;

	for (;;) {
		uint64_t now = net_now_ns();
		int r = now >= end ? 0 : net_wait(fd, POLLIN, (int)((end - now) / 1000000ull) + 1);
		ssize_t k;

		if (r <= 0) {
			snprintf(err, en, r == 0 ? "no message within %.0f s" : "interrupted",
				 timeout_ms / 1000.0);
			return -1;
		}
		k = read(fd, line + n, 1);
		if (k < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (k <= 0) {
			snprintf(err, en, "%s", k == 0 ? "connection closed" : strerror(errno));
			return -1;
		}
		if (line[n] == '\n')
			break;
		if (++n >= sizeof(line)) {
			snprintf(err, en, "malformed message: longer than %d bytes", PROTO_MAX_LINE);
			return -1;
		}
	}
	if (proto_parse(line, n, m, why, sizeof(why)) < 0) {
		snprintf(err, en, "malformed message: %s", why);
		return -1;
	}
	return 0;
}

int proto_send(int fd, const struct proto_msg *m)
{
	char line[PROTO_MAX_LINE + 1];
	int n = proto_format(m, line, sizeof(line));

	if (n < 0) {
		errno = EINVAL;
		return -1;
	}
	return net_write_all(fd, line, (size_t)n, PROTO_STALL_MS);
}

void net_cookie(char *out)
{
	unsigned char r[PROTO_COOKIE_LEN / 2];
	size_t i, got = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		ssize_t k;

		while (got < sizeof(r) && (k = read(fd, r + got, sizeof(r) - got)) > 0)
			got += (size_t)k;
		close(fd);
	}
	if (got < sizeof(r)) {	/* no /dev/urandom: weaker, still unguessable off-host */
		uint64_t x = net_now_ns() ^ ((uint64_t)getpid() << 32);

		for (i = 0; i < sizeof(r); i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			r[i] = (unsigned char)x;
		}
	}
	for (i = 0; i < sizeof(r); i++)
		snprintf(out + 2 * i, 3, "%02x", r[i]);
}

int net_secret_eq(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i;
	unsigned d = (unsigned)(la != lb);

	for (i = 0; i < la; i++)
		d |= (unsigned)(unsigned char)a[i] ^ (unsigned)(unsigned char)b[i % (lb ? lb : 1)];
	return d == 0;
}

int net_secret_eq_n(const char *a, const char *b, size_t n)
{
	unsigned d = 0;
	size_t i;

	for (i = 0; i < n; i++)
		d |= (unsigned)(unsigned char)a[i] ^ (unsigned)(unsigned char)b[i];
	return d == 0;
}

void net_cpu_us(uint64_t *user, uint64_t *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*user = (uint64_t)ru.ru_utime.tv_sec * 1000000u + (uint64_t)ru.ru_utime.tv_usec;
	*sys = (uint64_t)ru.ru_stime.tv_sec * 1000000u + (uint64_t)ru.ru_stime.tv_usec;
}

int net_tcp_info(int fd, uint64_t *retrans, uint64_t *rtt_us)
{
#if defined(HAVE_TCP_INFO) && defined(TCP_INFO)
	struct tcp_info ti;
	socklen_t l = sizeof(ti);

	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &l) < 0)
		return -1;
	*retrans = ti.tcpi_total_retrans;
	*rtt_us = ti.tcpi_rtt;
	return 0;
#else
	(void)fd;
	*retrans = *rtt_us = 0;
	return -1;
#endif
}
