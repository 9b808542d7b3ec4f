/* pump.c — TCP streams moved with poll(), the same code at both ends of
 * net.tcp.bw: every stream that is ready gets one read() or write() of the
 * buffer length per step, as ttcp's loop does one call per buffer; a
 * sender counts what it wrote and a receiver what it read, so the two
 * counts can be compared at the end. */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "proto.h"

int net_pump_step(struct net_pump *p, uint64_t *moved)
{
	struct pollfd pf[2 * PROTO_MAX_STREAMS + 1];
	int map[2 * PROTO_MAX_STREAMS + 1], k, np = 0, left = 0, r, ctl = 0;

	*moved = 0;
	for (k = 0; k < p->n; k++) {
		if (p->done[k])
			continue;
		pf[np].fd = p->fd[k];
		pf[np].events = p->tx[k] ? POLLOUT : POLLIN;
		pf[np].revents = 0;
		map[np++] = k;
		left++;
	}
	if (!left)
		return 1;
	if (p->ctl >= 0) {
		pf[np].fd = p->ctl;
		pf[np].events = POLLIN;
		pf[np].revents = 0;
		map[np++] = -1;
	}
	r = poll(pf, (nfds_t)np, 100);
	if (r < 0)
		return errno == EINTR ? 0 : -1;
	for (k = 0; k < np && r > 0; k++) {
		int s = map[k], burst;
		ssize_t w;

		if (!pf[k].revents)
			continue;
		if (s < 0) {
			ctl = 1;
			continue;
		}
		/* A few calls per wake-up while the socket keeps up: fewer polls,
		 * still one call per buffer. */
		for (burst = 0; burst < 8 && !p->done[s]; burst++) {
			if (p->tx[s]) {
				size_t want = p->len;

				if (p->tx_limit && p->tx_limit - p->bytes[s] < want)
					want = (size_t)(p->tx_limit - p->bytes[s]);
				w = send(p->fd[s], p->buf, want, MSG_DONTWAIT | MSG_NOSIGNAL);
				if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
					break;
				if (w < 0) {
					p->bad = s;
					return -1;
				}
				p->txcalls++;
				p->txb += (uint64_t)w;
				p->bytes[s] += (uint64_t)w;
				*moved += (uint64_t)w;
				if (p->tx_limit && p->bytes[s] >= p->tx_limit) {
					shutdown(p->fd[s], SHUT_WR);
					p->done[s] = 1;
				}
			} else {
				w = recv(p->fd[s], p->buf, p->len, MSG_DONTWAIT);
				if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
					break;
				if (w < 0) {
					p->bad = s;
					return -1;
				}
				if (w == 0) {
					p->done[s] = 1;
					break;
				}
				p->rxcalls++;
				p->rxb += (uint64_t)w;
				p->bytes[s] += (uint64_t)w;
				*moved += (uint64_t)w;
			}
		}
	}
	return ctl ? 2 : 0;
}

void net_pump_stop_tx(struct net_pump *p)
{
	int k;

	for (k = 0; k < p->n; k++)
		if (p->tx[k] && !p->done[k]) {
			shutdown(p->fd[k], SHUT_WR);
			p->done[k] = 1;
		}
}

void net_pump_pattern(char *buf, size_t len)
{
	size_t k;

	for (k = 0; k < len; k++)
		buf[k] = (char)(' ' + k % 95);
}

void net_pump_close(struct net_pump *p)
{
	int k;

	for (k = 0; k < p->n; k++)
		if (p->fd[k] >= 0)
			close(p->fd[k]);
	p->n = 0;
}
