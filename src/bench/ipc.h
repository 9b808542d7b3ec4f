/* ipc.h — what the ipc families (ipc-pipe.c, ipc-unix.c, ipc-fifo.c)
 * share: a peer child that echoes or streams, the round-trip and the
 * streaming op, and one teardown. Only the way the channel is made differs. */
#ifndef BAKEOFF_IPC_H
#define BAKEOFF_IPC_H
#include <limits.h>
#include <stddef.h>
#include <sys/types.h>
#include "affinity.h"
#include "bench.h"

struct ipc_state {
	pid_t pid;		/* the peer child, 0 when none */
	int rfd, wfd;		/* parent's ends: read from, write to (may be equal) */
	char *mem;		/* allocation behind buf */
	char *buf;		/* bandwidth: the reader's buffer */
	size_t msg;		/* bandwidth: bytes per operation */
	char *reason;		/* ctx->reason, for failures seen in op() */
	/* FIFO names (ipc.fifo) or the socket path (ipc.unix.connect) still
	 * to unlink, "" when none */
	char fifo[2][PATH_MAX];
	struct affinity pin;	/* latency under --pin: the mask to restore */
};

/* A fresh state with no descriptors and no child. */
struct ipc_state *ipc_state_new(struct bench_ctx *ctx);

/* Fork the echo peer: it reads one byte from child_rfd and writes it back
 * to child_wfd until EOF; the parent keeps parent_rfd / parent_wfd (may be
 * one descriptor) and records "message_bytes". Then one round trip proves
 * the peer is running. Under --pin
 * the parent first pins itself to the CPU it is on, so the child inherits
 * that one CPU; params "pinned" (yes/no/unsupported) and "pinned_cpu" are
 * recorded, and ipc_teardown (or a failure here) restores the mask. */
int ipc_start_echo(struct bench_ctx *ctx, struct ipc_state *s, int child_rfd, int child_wfd,
		   int parent_rfd, int parent_wfd);

/* Fork the streaming peer: it writes --msg-size chunks to child_wfd until
 * the write fails (the parent closed parent_rfd); sets bytes_per_op and
 * records "msg_size_bytes". */
int ipc_start_stream(struct bench_ctx *ctx, struct ipc_state *s, int child_wfd, int parent_rfd);

/* Fork a handoff peer (lat_sem, lat_fcntl): it runs peer(arg), which never
 * returns, and the parent's each op call is two handoffs (ops_per_call).
 * 0 with *pid set, or -1 with ctx->reason set and *pid 0. */
int ipc_start_handoff(struct bench_ctx *ctx, pid_t *pid, void (*peer)(void *), void *arg);

/* n round trips of one byte. */
int ipc_roundtrip_op(void *state, uint64_t n);
/* Reads exactly n * msg bytes. */
int ipc_stream_op(void *state, uint64_t n);
/* Close the parent's ends, reap the child, unlink FIFOs, free. */
void ipc_teardown(void *state);

#endif
