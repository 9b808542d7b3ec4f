/* mem-numa.c — memory latency and bandwidth between NUMA nodes (Intel
 * MLC's --latency_matrix and --bandwidth_matrix).
 *
 * For each node J the OS lists, one buffer of mem.lat's main-memory reach
 * (4 x the last-level cache) is mapped, bound to J (Linux mbind, MPOL_BIND)
 * and faulted in by this process pinned to a CPU of J when J has one (first
 * touch: where the binding is refused, the page still lands on J). Where
 * the pages landed is then read back (get_mempolicy) for NM_SAMPLE pages
 * spread over the buffer: a node holding fewer than 90% of them is left
 * out of the matrix with a note saying so, so no column shows memory that
 * is not where it says. From the first CPU of each node I this process may
 * run on:
 *   lat/I-J  a random pointer chase through J's buffer, ns per load (as
 *            mem.lat's main memory);
 *   bw/I-J   one CPU's read bandwidth over it (a sum of the words, as
 *            mem.peak's read/1), MB/s with MB = 10^6.
 * MLC's bandwidth matrix reads with every CPU of node I; this one CPU's
 * figure is what one thread gets, and the ratio between columns is what
 * the matrix is for.
 *
 * Figures: the main one is the local latency (the median of lat/I-I),
 * `remote` the median of lat/I-J with I != J, and bw_local / bw_remote the
 * same for bandwidth. The text and HTML reports draw both matrices, rows
 * the CPUs' node, columns the memory's. On one node the benchmark is
 * `unsupported: one NUMA node`: no matrix is made up. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "affinity.h"
#include "bench.h"
#include "harness.h"
#include "mem-lat.h"
#include "os.h"
#include "result.h"
#include "scratch.h"
#include "stats.h"
#include "sysinfo.h"
#include "vm.h"

#define NM_SAMPLE 64		/* pages whose node is read back */
#define NM_CHUNK (64u << 20)	/* faulted in between checks for an interrupt */

/* Where the node list comes from: the system's, or in the test build a
 * directory laid out like /sys/devices/system/node (tests/e2e/numa.t). */
static const char *nm_root(void)
{
#ifdef BAKEOFF_TESTING
	return getenv("BAKEOFF_TEST_NODES");
#else
	return NULL;
#endif
}

struct nm_bw {
	const void *p;
	size_t bytes;
};

static int nm_bw_op(void *state, uint64_t n)
{
	const struct nm_bw *s = state;
	uint64_t sum = 0;

	for (uint64_t k = 0; k < n; k++) {
		sum += vm_sum(s->p, s->bytes);
		BENCH_KEEP(sum);
	}
	bench_use(sum);
	return 0;
}

/* Node nd's buffer: mapped, bound, faulted in from cpu (-1: none), its
 * placement read back. The buffer, or NULL: interrupted or out of memory
 * (ctx->reason set, *fatal 1), or not placed on the node (why in note,
 * *fatal 0). */
static char *nm_alloc(struct bench_ctx *ctx, int nd, int cpu, size_t bytes, char *note, size_t nn,
		      int *fatal)
{
	struct affinity save = { 0 };
	char bind_err[64] = "";
	int on = 0, read_back = 0;
	long page = sysconf(_SC_PAGESIZE);
	void *v = NULL;
	char *p;

	*fatal = 1;
	/* mbind wants the start on a page: the OS's page, 64 KiB on some */
	if (posix_memalign(&v, page > 4096 ? (size_t)page : 4096, bytes)) {
		memlat_failed(ctx, "cannot allocate a node's buffer", bytes);
		return NULL;
	}
	p = v;
	if (os_mem_bind(p, bytes, nd) < 0)
		snprintf(bind_err, sizeof(bind_err), "%s", strerror(errno));
	if (cpu >= 0)
		affinity_pin_to(cpu, &save);
	for (size_t off = 0; off < bytes && !scratch_interrupted(); off += NM_CHUNK)
		memset(p + off, 0, bytes - off < NM_CHUNK ? bytes - off : NM_CHUNK);
	affinity_restore(&save);
	if (scratch_interrupted()) {
		free(p);
		memlat_failed(ctx, "interrupted", bytes);
		return NULL;
	}
	for (int k = 0; k < NM_SAMPLE; k++) {
		int got = os_mem_node(p + bytes / NM_SAMPLE * (size_t)k);

		read_back += got >= 0;
		on += got == nd;
	}
	if (read_back == 0 && !bind_err[0])
		return p;	/* bound; the OS does not say where pages are */
	if (on * 10 >= NM_SAMPLE * 9)
		return p;
	*fatal = 0;
	if (read_back == 0)
		snprintf(note, nn, "node %d: left out, its memory could not be placed there (mbind: %s) "
			 "nor its placement read back", nd, bind_err);
	else
		snprintf(note, nn, "node %d: left out, %d of %d pages read back landed on it%s%s%s", nd, on,
			 NM_SAMPLE, bind_err[0] ? " (mbind: " : "", bind_err, bind_err[0] ? ")" : "");
	free(p);
	return NULL;
}

/* lat/I-J and bw/I-J from cpu through buf. */
static int nm_pair(struct bench_ctx *ctx, int cpu, int i, int j, void *start, const struct nm_bw *b,
		   double *lat, double *bw)
{
	struct affinity save;
	char name[32];
	int rc;
	struct measure m = {
		.name = name, .unit = "MB/s", .kind = KIND_BANDWIDTH, .better = BETTER_HIGHER,
		.op = nm_bw_op, .state = (void *)b, .bytes_per_op = (double)b->bytes, .detail = 1,
	};

	if (affinity_pin_to(cpu, &save) != 1) {
		snprintf(ctx->reason, sizeof(ctx->reason), "cannot pin to CPU %d: %s", cpu, strerror(errno));
		return -1;
	}
	snprintf(name, sizeof(name), "lat/%d-%d", i, j);
	rc = memlat_chase(ctx, name, start, 1, lat);
	snprintf(name, sizeof(name), "bw/%d-%d", i, j);
	if (rc == 0)
		rc = harness_measure(ctx, &m, bw);
	affinity_restore(&save);
	return rc;
}

/* The medians of the local (I = J) and remote figures of v as name and
 * name_remote. */
static void nm_summary(struct bench_ctx *ctx, const double *v, int n, const char *name,
		       const char *remote, const char *unit, enum better better)
{
	double loc[OS_MAX_NODES], rem[OS_MAX_NODES * OS_MAX_NODES];
	size_t nl = 0, nr = 0;
	struct stats st;
	char from[96];

	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			if (!isnan(v[i * n + j])) {
				if (i == j)
					loc[nl++] = v[i * n + j];
				else
					rem[nr++] = v[i * n + j];
			}
	if (nl) {
		stats_compute(loc, nl, &st);
		snprintf(from, sizeof(from), "the median over %zu node%s of a node's CPU reading its own memory",
			 nl, nl == 1 ? "" : "s");
		result_add_derived(ctx->res, name, unit, better, st.median, from);
	}
	if (nr) {
		stats_compute(rem, nr, &st);
		snprintf(from, sizeof(from), "the median over %zu pairs of a CPU reading another node's memory", nr);
		result_add_derived(ctx->res, remote, unit, better, st.median, from);
	}
}

static int numa_run(struct bench_ctx *ctx)
{
	static struct os_node node[OS_MAX_NODES];
	static double lat[OS_MAX_NODES * OS_MAX_NODES], bw[OS_MAX_NODES * OS_MAX_NODES];
	int n = os_numa_nodes(nm_root(), node, OS_MAX_NODES), cpu[OS_MAX_NODES], id[OS_MAX_NODES];
	int cols = 0, rows = 0;
	struct os_cpuset allowed;
	struct sysinfo tmp;
	uint64_t seed = 0x4e0de, bytes = memlat_main_size(ctx->opt, harness_host(ctx, &tmp));
	char notes[8][200];
	int nnotes = 0;

	if (n < 2 || os_cpuset_get(&allowed) < 0) {
		snprintf(ctx->reason, sizeof(ctx->reason), n < 2 ? "one NUMA node" : "cannot read the CPUs to run on");
		return -1;
	}
	{
		uint64_t page = sysconf(_SC_PAGESIZE) > 4096 ? (uint64_t)sysconf(_SC_PAGESIZE) : 4096;

		bytes = (bytes + page - 1) / page * page;
	}
	for (int i = 0; i < n; i++) {
		id[i] = node[i].id;
		cpu[i] = -1;
		for (int c = 0; c < OS_MAX_CPUS && cpu[i] < 0; c++)
			if (os_cpuset_has(&node[i].cpus, c) && os_cpuset_has(&allowed, c))
				cpu[i] = c;
		rows += cpu[i] >= 0;
	}
	for (int k = 0; k < n * n; k++)
		lat[k] = bw[k] = NAN;
	for (int j = 0; j < n; j++) {
		struct memlat_chain c = { NULL, bytes / 64, 64, 0 };
		struct nm_bw b = { NULL, bytes };
		char note[200];
		int fatal;
		void *start;

		if (!(c.base = nm_alloc(ctx, id[j], cpu[j], bytes, note, sizeof(note), &fatal))) {
			if (fatal)
				return -1;
			if (nnotes < 8)
				snprintf(notes[nnotes++], sizeof(notes[0]), "%s", note);
			continue;
		}
		b.p = c.base;
		start = memlat_ready(ctx, &c, 1, &seed, "random");
		for (int i = 0; i < n && start; i++)
			if (cpu[i] >= 0 &&
			    nm_pair(ctx, cpu[i], id[i], id[j], start, &b, &lat[i * n + j], &bw[i * n + j]) < 0)
				start = NULL;
		free(c.base);
		if (!start)
			return -1;
		cols++;
	}
	if (cols < 2 || rows < 1) {
		snprintf(ctx->reason, sizeof(ctx->reason), "%s", cols < 2 && nnotes ? notes[nnotes - 1] :
			 rows < 1 ? "no node has a CPU this process may run on" : "one node's memory to read");
		return -1;
	}
	nm_summary(ctx, lat, n, "", "remote", "ns", BETTER_LOWER);
	nm_summary(ctx, bw, n, "bw_local", "bw_remote", "MB/s", BETTER_HIGHER);
	result_param_num(ctx->res, "nodes", n);
	result_param_num(ctx->res, "buffer_bytes", (double)bytes);
	for (int k = 0; k < nnotes; k++)
		result_note(ctx->res, "", notes[k]);
	return 0;
}

/* 0 with two nodes or more; else -1 and why. */
static int numa_supported(struct bench_ctx *ctx)
{
	static struct os_node node[OS_MAX_NODES];
	int n = os_numa_nodes(nm_root(), node, OS_MAX_NODES);

	if (n < 0 && errno == ENOSYS)
		snprintf(ctx->reason, sizeof(ctx->reason), "no NUMA information on this OS");
	else if (n < 2)
		snprintf(ctx->reason, sizeof(ctx->reason), "one NUMA node");
	else if (affinity_count() < 0)
		snprintf(ctx->reason, sizeof(ctx->reason), "cannot pin to a CPU: %s", strerror(errno));
	else
		return 0;
	return -1;
}

/* For the progress line: two figures per pair of nodes, and the buffers. */
static double numa_estimate(const struct bench_opts *opt, const struct harness_cfg *cfg, double fig_s)
{
	static struct os_node node[OS_MAX_NODES];
	int n = os_numa_nodes(nm_root(), node, OS_MAX_NODES);

	(void)opt;
	(void)cfg;
	return n > 1 ? (double)n * n * 2 * fig_s + n * 2 : 0;
}

const struct bench bench_mem_numa = {
	.id = "mem.numa", .group = "mem", .title = "NUMA latency and bandwidth (MLC)",
	.unit = "ns", .better = BETTER_LOWER, .kind = KIND_LATENCY,
	.supported = numa_supported,
	.run = numa_run,
	.estimate = numa_estimate,
	.own_size = 1,	/* each node's buffer as mem.lat's main memory */
	.noise = NOISE_MEM_LAT,
};
