/* net-group.c — the net group's contract (struct bench_group): before
 * anything is created, the peer must answer and take the token, or the
 * run's own loopback server is started (net_run_begin); no "during"
 * finding against that server, a process of the run; fleet runs the group
 * per pair of hosts; a figure's low %CPU means the wire. */
#include "bench.h"
#include "net/server.h"

const struct bench_group group_net = {
	.name = "net", .flags = GROUP_EMBEDDED_PEER | GROUP_PAIRED | GROUP_IO,
	.begin = net_run_begin,
};
