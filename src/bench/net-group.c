/* net-group.c — the net group's contract (struct bench_group): its options
 * (struct net_opts); before anything is created, the peer must answer and
 * take the token, or the run's own loopback server is started
 * (net_run_begin); no "during" finding against that server, a process of
 * the run; fleet runs the group per pair of hosts; a figure's low %CPU
 * means the wire. */
#include "bench.h"
#include "net/server.h"
#include "options.h"

#define N(f) OPT_IN(struct net_opts, f)
static const struct optdef net_options[] = {
	{ "peer", OT_STRING, N(peer), NULL, NULL, 1, 255, "net",
	  "a running bakeoff serve: HOST, HOST:PORT or [IPV6]:PORT (port 5511 by default); "
	  "without it the run starts its own server on 127.0.0.1", RES_NONE, 0, 0, OPTF_FLEET_SETS },
	{ "token", OT_STRING, N(token), NULL, NULL, 1, 64, "net",
	  "the secret the server was started with (bakeoff serve --token)", RES_NONE, 0, 0,
	  OPTF_SECRET | OPTF_FLEET_SETS },
	{ "reverse", OT_FLAG, N(reverse), NULL, NULL, 0, 1, "net.tcp.bw",
	  "the server sends, the client receives (iperf3 -R)", RES_NONE, 0, 0, 0 },
	{ "bidir", OT_FLAG, N(bidir), NULL, NULL, 0, 1, "net.tcp.bw",
	  "both directions at once, --streams each way", RES_NONE, 0, 0, 0 },
	{ "buf-len", OT_SIZE, N(buf_len), "128k", NULL, 1, 1 * OPT_MIB, "net.tcp.bw",
	  "bytes per read or write call (iperf3 -l, ttcp -l; the ttcp personality: 8k)",
	  RES_NONE, 0, 0, 0 },
	{ "nbuf", OT_UINT, N(nbuf), NULL, NULL, 1, 1000000000, "net.tcp.bw",
	  "send buffers per stream and repetition, as ttcp -n (the ttcp personality: 16384, 128 MiB "
	  "at 8 KiB); without it (or with --duration) each repetition streams for a time, as "
	  "iperf3: 2 s after 1 s left out (--quick: 0.5 s after 0.2 s)", RES_NONE, 0, 0, 0 },
	{ "msg-sizes", OT_SIZE_LIST, OPT_IN_LIST(struct net_opts, msg_sizes, nmsg_sizes), NULL, NULL,
	  1, 1 * OPT_MIB, "net.tcp.bw", "also measure with these buffer lengths (a sweep, up to 8)",
	  RES_NONE, 0, 0, 0 },
	{ "rate", OT_RATE, N(rate), "100M", NULL, 1000, 100e9, "net.udp.bw",
	  "UDP target rate in bits/s (iperf3 -b; k, M, G = 10^3, 10^6, 10^9)", RES_NONE, 0, 0, 0 },
	{ "udp-len", OT_SIZE, N(udp_len), "1470", NULL, 32, 65000, "net.udp.bw",
	  "UDP datagram payload (iperf3 -l)", RES_NONE, 0, 0, 0 },
};
#undef N

static const char *const net_exclusive[][3] = {
	{ "reverse", "bidir", "--bidir already sends both ways" },
	{ NULL, NULL, NULL },
};

const struct bench_group group_net = {
	.name = "net", .flags = GROUP_PAIRED | GROUP_IO, .noise = NOISE_NET,
	.options = net_options, .noptions = sizeof(net_options) / sizeof(net_options[0]),
	.opt_size = sizeof(struct net_opts), .exclusive = net_exclusive,
	.begin = net_run_begin, .own_helper = net_own_server,
};
