/* server.h — `bakeoff serve` (server.c) and the client side the network
 * benchmarks use (client.c). */
#ifndef BAKEOFF_NET_SERVER_H
#define BAKEOFF_NET_SERVER_H
#include <stdio.h>
#include "bench.h"
#include "proto.h"
#include "registry.h"

/* The net group's own options (its rows in src/bench/net-group.c), and
 * the peer a run talks to. */
struct net_opts {
	const char *peer;		/* --peer HOST[:PORT] (set to the run's own server without it) */
	const char *token;		/* --token: presented to the server */
	int embedded;			/* the peer is the run's own loopback server */
	int reverse, bidir;		/* --reverse, --bidir */
	uint64_t buf_len;		/* --buf-len: ttcp's -l */
	int nbuf;			/* --nbuf: ttcp's -n */
	uint64_t msg_sizes[BENCH_MAX_LIST];	/* --msg-sizes: net.tcp.bw's sweep */
	int nmsg_sizes;
	uint64_t rate;			/* --rate: UDP target, bits/s */
	uint64_t udp_len;		/* --udp-len: datagram size */
};
static inline struct net_opts *net_opts(const struct bench_opts *opt)
{
	return bench_group_opts(opt, &group_net);
}

struct serve_cfg {
	const char *listen;	/* "127.0.0.1:5511", "[::1]:5511" (numeric) */
	const char *token;	/* NULL: none required */
	int max_clients;	/* sessions at once; more are refused "busy" */
	int once;		/* serve one client, then exit */
	FILE *log;		/* one line per test (NULL: none) */
	int ready_fd;		/* >= 0: the port listened on is written here */
	int parent_fd;		/* >= 0: exit when this reads end of file */
};

/* Listen and serve until SIGTERM or SIGINT (0), or fail to listen (-1 with
 * err naming the address: "cannot listen on 127.0.0.1:5511: Address
 * already in use"). */
int net_serve(const struct serve_cfg *cfg, char *err, size_t en);

/* ---- client (client.c) ---- */

/* Before a run that selects network benchmarks: with --peer, check that the
 * server answers and accepts the token; without, start the run's own server
 * on 127.0.0.1 (stopped when the process exits) and point opt at it.
 * 0, or -1 with a message for the user in err. */
int net_run_begin(struct bench_opts *opt, char *err, size_t en);
/* Is the peer the run's own server (a process of the run)? */
int net_own_server(const struct bench_opts *opt);

struct net_client {
	int ctl;
	struct sockaddr_storage addr;	/* the server's control address */
	socklen_t alen;
	char name[128];			/* as the user gave it */
	char cookie[PROTO_COOKIE_LEN + 1];
	int port;			/* the data port of the current test */
	int active;			/* a test is going on */
};

/* Connect and say HELLO (--peer, --token): 0, or -1 with ctx->reason. */
int net_client_open(struct bench_ctx *ctx, struct net_client *c);
/* Send TEST, wait for READY: 0, or -1 with ctx->reason. */
int net_client_test(struct bench_ctx *ctx, struct net_client *c, const struct proto_msg *test);
/* A data connection to the test's port, introduced by the cookie and role:
 * fd, or -1 with ctx->reason. */
int net_client_data(struct bench_ctx *ctx, struct net_client *c, char role, int nodelay);
/* A UDP socket of the server's family, bound to an ephemeral port (*port)
 * and connected to the test's port once the test is ready: fd, or -1. */
int net_client_udp(struct bench_ctx *ctx, struct net_client *c, int *port);
int net_client_udp_connect(struct bench_ctx *ctx, struct net_client *c, int fd);
/* Send a message without fields (GO, STOP, BYE), or STOP sent=N: 0 or -1. */
int net_client_say(struct bench_ctx *ctx, struct net_client *c, enum proto_verb v);
int net_client_stop_sent(struct bench_ctx *ctx, struct net_client *c, uint64_t sent);
/* Wait for RESULT (an ERR becomes ctx->reason): 0, or -1. */
int net_client_result(struct bench_ctx *ctx, struct net_client *c, struct proto_msg *res);
/* End a latency test: STOP, then RESULT. */
int net_client_finish(struct bench_ctx *ctx, struct net_client *c, struct proto_msg *res);
void net_client_close(struct net_client *c);
/* Record the peer's description as params of the benchmark. */
void net_client_params(struct bench_ctx *ctx, const struct net_client *c);
/* What the net benchmarks check for "interrupted or timed out". */
int net_client_should_stop(void);

#endif
