/* registry.h — every benchmark, listed once (X-macro), and selection by
 * id, prefix, group or personality. Adding a benchmark: one file in
 * src/bench/, one line here. */
#ifndef BAKEOFF_REGISTRY_H
#define BAKEOFF_REGISTRY_H
#include <stddef.h>
#include "bench.h"

/* One sub-list per family owner, so families can be added independently. */
#define BENCH_LIST(X) BENCH_LIST_PROC(X) BENCH_LIST_IPC(X) BENCH_LIST_VM(X) BENCH_LIST_FS(X) \
	BENCH_LIST_MEM(X) BENCH_LIST_CPU(X) BENCH_LIST_NET(X) BENCH_LIST_DISK(X) \
	BENCH_LIST_TEST(X)

/* proc: system calls, signals, process creation, context switches (src/bench/proc-*.c) */
#define BENCH_LIST_PROC(X) \
	X(proc_syscall_null) \
	X(proc_syscall_read) \
	X(proc_syscall_write) \
	X(proc_syscall_stat) \
	X(proc_syscall_fstat) \
	X(proc_syscall_open) \
	X(proc_signal_install) \
	X(proc_signal_catch) \
	X(proc_signal_prot) \
	X(proc_fork_exit) \
	X(proc_fork_exec) \
	X(proc_fork_sh) \
	X(proc_ctxsw) \
	X(proc_select_file) \
	X(proc_select_tcp)

/* ipc: pipes, AF_UNIX sockets, FIFOs, semaphores (src/bench/ipc-*.c) */
#define BENCH_LIST_IPC(X) \
	X(ipc_pipe_lat) \
	X(ipc_unix_lat) \
	X(ipc_fifo_lat) \
	X(ipc_pipe_bw) \
	X(ipc_unix_bw) \
	X(ipc_unix_connect) \
	X(ipc_sem_lat) \
	X(ipc_fcntl_lat)

/* vm: mmap, page faults, file and mmap reread (src/bench/vm-*.c) */
#define BENCH_LIST_VM(X) \
	X(vm_mmap_lat) \
	X(vm_pagefault) \
	X(vm_file_reread) \
	X(vm_mmap_reread)

/* fs: file creation and deletion (src/bench/fs-lat.c) */
#define BENCH_LIST_FS(X) \
	X(fs_create0k) \
	X(fs_delete0k) \
	X(fs_create10k) \
	X(fs_delete10k)

/* mem: bandwidth, STREAM, latency (src/bench/mem-*.c) */
#define BENCH_LIST_MEM(X) \
	X(mem_bw_read) \
	X(mem_bw_write) \
	X(mem_bw_rmw) \
	X(mem_bw_copy) \
	X(mem_bw_copy_hand) \
	X(mem_bw_bzero) \
	X(mem_stream_copy) \
	X(mem_stream_scale) \
	X(mem_stream_add) \
	X(mem_stream_triad) \
	X(mem_lat) \
	X(mem_tlb) \
	X(mem_line) \
	X(mem_mlp) \
	X(mem_peak) \
	X(mem_loaded) \
	X(mem_numa)

/* cpu: processor operations, clock rate, integer and floating-point workloads,
 * multi-copy scaling (src/bench/cpu-*.c) */
#define BENCH_LIST_CPU(X) \
	X(cpu_ops_int_bit) \
	X(cpu_ops_int_add) \
	X(cpu_ops_int_mul) \
	X(cpu_ops_int_div) \
	X(cpu_ops_int_mod) \
	X(cpu_ops_int64_bit) \
	X(cpu_ops_int64_add) \
	X(cpu_ops_int64_mul) \
	X(cpu_ops_int64_div) \
	X(cpu_ops_int64_mod) \
	X(cpu_ops_float_add) \
	X(cpu_ops_float_mul) \
	X(cpu_ops_float_div) \
	X(cpu_ops_double_add) \
	X(cpu_ops_double_mul) \
	X(cpu_ops_double_div) \
	X(cpu_mhz) \
	X(cpu_c2c) \
	X(cpu_int) \
	X(cpu_float) \
	X(cpu_scaling)

/* net: TCP and UDP throughput and latency against bakeoff serve (src/bench/net-*.c) */
#define BENCH_LIST_NET(X) \
	X(net_tcp_bw) \
	X(net_udp_bw) \
	X(net_tcp_lat) \
	X(net_udp_lat) \
	X(net_rpc_lat) \
	X(net_tcp_connect)

/* test: only in the test build, bakeoff-testing (src/bench/test-harness.c) */
#ifdef BAKEOFF_TESTING
#define BENCH_LIST_TEST(X) \
	X(test_ok) \
	X(test_work) \
	X(test_work2) \
	X(test_segv) \
	X(test_fail) \
	X(test_sleep) \
	X(test_block) \
	X(test_stuck) \
	X(test_long)
#else
#define BENCH_LIST_TEST(X)
#endif

/* disk: sequential (dd), random (fio), bonnie, iozone (src/bench/disk-*.c) */
#define BENCH_LIST_DISK(X) \
	X(disk_seq) \
	X(disk_rand) \
	X(disk_bonnie) \
	X(disk_iozone)

#define X(name) extern const struct bench bench_##name;
BENCH_LIST(X)
#undef X

extern const struct bench *const registry[];
extern const size_t registry_count;

/* The groups with a contract (struct bench_group), each defined in its own
 * code; a group not listed needs nothing from a run. */
#define GROUP_LIST(X) X(mem) X(cpu) X(proc) X(ipc) X(vm) X(time) X(disk) X(net)	/* net last: its begin starts a server */
#define X(name) extern const struct bench_group group_##name;
GROUP_LIST(X)
#undef X
/* The contracts, in GROUP_LIST's order. */
extern const struct bench_group *const registry_groups[];
extern const size_t registry_ngroups;
/* Group name's contract, or NULL when it has none. */
const struct bench_group *registry_group(const char *name);
/* Its flags (0 for a group without a contract). */
unsigned registry_group_flags(const char *name);

/* A personality: a name that selects benchmarks and a text format. */
struct personality {
	const char *name;
	const char *title;
	const char *select;	/* comma-separated ids / prefixes */
	const char *format;	/* report format its run prints ("lmbench") */
	/* options it sets where the command line does not: name, value, ...,
	 * NULL (ttcp's 8 KiB x 16384 buffers); NULL for none */
	const char *const *preset;
};
extern const struct personality personalities[];

/* Mark in sel[] (registry_count entries) the benchmarks named by args.
 * Each arg may be an id, a dotted prefix, a group, a personality, or a
 * comma-separated list of those. Returns 0, or -1 with a message naming the
 * unknown word and the closest known name in err. *pers is set when a
 * personality was named. */
int registry_select(int argc, char **argv, unsigned char *sel, const struct personality **pers,
		    char *err, size_t errlen);
const struct bench *registry_find(const char *id);

#endif
