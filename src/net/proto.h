/* proto.h — the control protocol of `bakeoff serve` (version 1), its
 * limits, and the socket helpers client and server share. The protocol is
 * specified in docs/protocol.md; this header is its single source of truth
 * in code. */
#ifndef BAKEOFF_NET_PROTO_H
#define BAKEOFF_NET_PROTO_H
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define PROTO_VERSION 1
#define PROTO_PORT 5511		/* default port of `bakeoff serve` */
#define PROTO_MAX_LINE 256	/* a control message, '\n' included */
#define PROTO_MAX_VALUE 64	/* a field's value */
#define PROTO_COOKIE_LEN 32	/* hex characters; also the data connections' first bytes */
#define PROTO_MAX_STREAMS 64
#define PROTO_MAX_LEN (1u << 20)	/* buffer / message length */
#define PROTO_MAX_UDP_LEN 65000
#define PROTO_MAX_MS 3600000ull	/* one test lasts at most an hour */
#define PROTO_MAX_BYTES (1ull << 40)
#define PROTO_MAX_RATE 100000000000ull	/* bits/s */
#define PROTO_HELLO_MS 3000	/* HELLO must be whole this soon after connecting */
#define PROTO_IDLE_MS 60000	/* the next command, between tests */
#define PROTO_STALL_MS 10000	/* a test in which nothing moves for this long ends */

enum proto_verb {
	PV_HELLO, PV_OK, PV_TEST, PV_READY, PV_GO, PV_STOP, PV_RESULT, PV_ERR, PV_BYE, PV__N
};

enum proto_key {
	PK_V, PK_TOKEN, PK_KIND, PK_STREAMS, PK_LEN, PK_DIR, PK_BYTES, PK_MS, PK_RATE, PK_CPORT,
	PK_PORT, PK_COOKIE, PK_SENT, PK_RX, PK_TX, PK_RXCALLS, PK_TXCALLS, PK_USEC, PK_USER_US,
	PK_SYS_US, PK_RETRANS, PK_RTT_US, PK_PKTS, PK_LOST, PK_DUP, PK_OOO, PK_JITTER_NS, PK_CODE,
	PK__N
};

/* Test kinds (TEST kind=), directions (dir=, the client's view) and error
 * codes (ERR code=), in the order of their names in proto.c. */
enum proto_kind { K_TCP_BW, K_UDP_BW, K_TCP_LAT, K_UDP_LAT, K_RPC_TCP, K_RPC_UDP, K_TCP_CONNECT };
enum proto_dir { D_SEND, D_RECV, D_BIDIR };
enum proto_err { E_VERSION, E_TOKEN, E_BUSY, E_BAD, E_LIMIT, E_STATE, E_TIMEOUT, E_INTERNAL };

struct proto_msg {
	enum proto_verb verb;
	uint64_t has;			/* bit k: key k present */
	uint64_t num[PK__N];		/* numbers; enums as their index */
	char str[PK__N][PROTO_MAX_VALUE + 1];	/* every value as received */
};

/* Parse one message (len bytes, without its '\n'): 0, or -1 with a short
 * reason in err. Only known verbs, known keys allowed for the verb, each
 * once, values of the key's type and range; required keys present. */
int proto_parse(const char *line, size_t len, struct proto_msg *m, char *err, size_t errlen);
/* Format m (as proto_parse would accept it) with its '\n': length, or -1. */
int proto_format(const struct proto_msg *m, char *out, size_t n);
void proto_init(struct proto_msg *m, enum proto_verb v);
void proto_set(struct proto_msg *m, enum proto_key k, uint64_t v);
int proto_set_str(struct proto_msg *m, enum proto_key k, const char *s);
static inline int proto_has(const struct proto_msg *m, enum proto_key k)
{
	return (int)((m->has >> k) & 1);
}
const char *proto_verb_name(enum proto_verb v);
const char *proto_kind_name(int k);
const char *proto_dir_name(int d);
const char *proto_err_text(int code);
/* A token or value: 1..64 of [A-Za-z0-9._-]. */
int proto_word_ok(const char *s);

/* ---- sockets (sock.c) ---- */

/* What waits check every 100 ms: nonzero to give up ("interrupted"). */
extern int (*net_should_stop)(void);

/* "HOST", "HOST:PORT", "[V6]:PORT", "V6": host and port (dflt when none).
 * 0, or -1 with err. */
int net_split(const char *s, int dflt, char *host, size_t hn, int *port, char *err, size_t en);
/* getaddrinfo for host:port (numeric only when numeric): 0, or -1 with err. */
int net_resolve(const char *host, int port, int numeric, int socktype,
		struct sockaddr_storage *ss, socklen_t *sl, char *err, size_t en);
/* "127.0.0.1:5511", "[::1]:5511" */
void net_addr_str(const struct sockaddr *sa, char *out, size_t n);
int net_addr_port(const struct sockaddr *sa);
void net_addr_set_port(struct sockaddr_storage *ss, int port);
/* Same address (ignoring the port)? */
int net_same_host(const struct sockaddr *a, const struct sockaddr *b);
/* A listening TCP socket (or a bound UDP one) on ss: fd, or -1 (errno). */
int net_listen(const struct sockaddr_storage *ss, socklen_t sl, int socktype);
/* Connect within timeout_ms: fd (blocking, TCP_NODELAY when nodelay), or
 * -1 with err ("connection refused"). */
int net_connect(const struct sockaddr_storage *ss, socklen_t sl, int timeout_ms, int nodelay,
		char *err, size_t en);
/* Wait for events on fd for up to timeout_ms (checking net_should_stop):
 * 1 ready, 0 timed out, -1 stopped or error. */
int net_wait(int fd, short events, int timeout_ms);
int net_set_nonblock(int fd, int on);
/* All n bytes, each wait bounded by timeout_ms: 0, or -1 (errno; ETIMEDOUT). */
int net_write_all(int fd, const void *p, size_t n, int timeout_ms);
/* Exactly n bytes: 1, 0 on EOF before the first byte, -1 (errno; ECONNRESET
 * for a short read, ETIMEDOUT). */
int net_read_full(int fd, void *p, size_t n, int timeout_ms);
/* One control message: proto_recv 0, or -1 with err ("timed out", "closed",
 * "malformed: ..."); proto_send 0 or -1. An ERR message is returned as such. */
int proto_recv(int fd, struct proto_msg *m, int timeout_ms, char *err, size_t en);
int proto_send(int fd, const struct proto_msg *m);
/* A random cookie: PROTO_COOKIE_LEN hex characters and a NUL. */
void net_cookie(char *out);
/* Equal strings, in time independent of where they differ. */
int net_secret_eq(const char *a, const char *b);
int net_secret_eq_n(const char *a, const char *b, size_t n);
/* CPU time of this process, in microseconds. */
void net_cpu_us(uint64_t *user, uint64_t *sys);
/* TCP_INFO where the OS has it: retransmitted segments and smoothed RTT (us)
 * of a connected socket; 0, or -1 when unsupported. */
int net_tcp_info(int fd, uint64_t *retrans, uint64_t *rtt_us);
uint64_t net_now_ns(void);

/* ---- the data pump (pump.c): TCP streams moved with poll, both ends ----
 * Each stream either sends (tx) buffers of len bytes, up to tx_limit bytes
 * (0: until net_pump_stop_tx), then shuts its write side down; or receives
 * (rx) until end of file. */
struct net_pump {
	int n;
	int fd[2 * PROTO_MAX_STREAMS];
	char tx[2 * PROTO_MAX_STREAMS];
	char done[2 * PROTO_MAX_STREAMS];
	uint64_t bytes[2 * PROTO_MAX_STREAMS];
	uint64_t tx_limit;
	char *buf;
	size_t len;
	uint64_t txb, rxb, txcalls, rxcalls;
	int ctl;	/* also watched for input (-1: none) */
	int bad;	/* the stream that failed */
};
/* One step: wait up to 100 ms, then one read or write on each ready stream.
 * Returns 0 to go on, 1 when every stream is done, 2 when ctl has input,
 * -1 on an error (errno; p->bad names the stream). *moved: bytes moved. */
int net_pump_step(struct net_pump *p, uint64_t *moved);
void net_pump_stop_tx(struct net_pump *p);
void net_pump_close(struct net_pump *p);
/* Fills a send buffer with a cycling printable pattern, as ttcp does, so
 * that every page of it is real memory: a buffer never written is the
 * kernel's one shared zero page, a 4 KiB source the CPU reads from cache
 * whatever the buffer length (iperf3 fills its buffer too). */
void net_pump_pattern(char *buf, size_t len);

#endif
