/* bench.h — the benchmark descriptor, the options benchmarks read, and the
 * sink that keeps the optimizer from deleting measured work. */
#ifndef BAKEOFF_BENCH_H
#define BAKEOFF_BENCH_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum better { BETTER_LOWER = 0, BETTER_HIGHER = 1 };

/* The kinds of figure compare gives a noise floor of their own (its
 * floors table, report/compare.c, is indexed by these): a group's, or a
 * benchmark's that differs from its group's. */
enum noise_class {
	NOISE_OTHER,
	NOISE_CPU,
	NOISE_MEM_BW,
	NOISE_MEM_LAT,
	NOISE_SYSCALL,
	NOISE_SCHED,
	NOISE_VM,
	NOISE_DISK,
	NOISE_NET,
	NOISE_TIME,
	NOISE_CLASSES
};

/* How the harness turns the measured time of one operation into a figure. */
enum bench_kind {
	KIND_UNSET,	/* a descriptor that forgot its kind: refused (t-registry) */
	KIND_LATENCY,	/* time per operation, in the unit "ns", "us", "ms" or "s" */
	KIND_BANDWIDTH,	/* bytes_per_op / time per op, in "MB/s" (MB = 10^6 bytes) or "GB/s" */
	KIND_RATE,	/* operations per second, in "ops/s" or "loops/s" (or "MHz", "Mops/s": 10^6 a second) */
	KIND_DERIVED,	/* a quantity found from timings (a size, a count: "B", "pages") */
};

#define BENCH_MAX_LIST 8
/* The room for the groups' own option structs in struct bench_opts, all
 * together (t-registry checks that they fit). */
#define BENCH_GROUP_OPTS 1024
#define BENCH_MAX_LABELS 16

/* Options from the command line that benchmarks read: the run's own, the
 * harness's (struct harness_cfg) and those of more than one group; a
 * group's own live in its struct inside group_opts. */
struct bench_opts {
	uint64_t mem_size;		/* --mem-size: memory benchmarks' buffer */
	uint64_t msg_size;		/* --msg-size: IPC bandwidth transfer size */
	uint64_t map_size;		/* --map-size: mmap / file benchmarks' file size */
	int parallel;			/* --parallel N copies, 1 = none */
	int quick;			/* --quick: small sizes */
	/* the run's own options (readers "*" in the table; no benchmark reads
	 * them but through the run) */
	const char *output;		/* -o FILE ('-': stdout) */
	const char *dirlist;		/* --dir DIR[,DIR...] */
	const char *json_stream;	/* --json-stream FILE: the NDJSON interval stream */
	int quiet, lines;		/* -q; --progress (plain lines) */
	int runs;			/* --runs K (0: once) */
	const char *labels[BENCH_MAX_LABELS];	/* --label KEY=VALUE, as given (into argv) */
	int nlabels;
	int pin;			/* --pin: context-switch rings and IPC latency pairs on one CPU */
	long procs[BENCH_MAX_LIST];	/* --procs */
	int nprocs;
	uint64_t ctx_sizes[BENCH_MAX_LIST];	/* --ctx-sizes */
	int nctx_sizes;
	int streams;			/* --streams: parallel TCP streams, disk.seq's streams */
	const char *scratch;		/* the run's scratch directory (created by bakeoff) */
	const struct sysinfo *host;	/* the host facts of the run (NULL: read them) */
	/* cpu: workloads and scaling */
	long copies[BENCH_MAX_LIST];	/* --copies: counts of copies for cpu.scaling */
	int ncopies;			/* 0: 1, 2, 4, ... up to the online CPUs */
	/* mem */
	long delays[BENCH_MAX_LIST];	/* --delays: mem.loaded's sweep (0: its default) */
	int ndelays;
	int test_work;			/* --test-work: test.work's units per operation (test build) */
	int test_work2;		/* --test-work2: test.work2's */
	/* The groups' own options (struct bench_group's .options), each in a
	 * struct of the group's at its place here; a group reads its own
	 * through bench_group_opts(). Copied with the rest. */
	union {
		max_align_t align;
		unsigned char bytes[BENCH_GROUP_OPTS];
	} group_opts;
};

struct bench_result;
struct harness;
struct harness_cfg;
struct sysinfo;

/* What the harness hands to a benchmark's callbacks. */
struct bench_ctx {
	const struct bench *b;
	const struct bench_opts *opt;
	struct harness *h;
	struct bench_result *res;	/* params and metrics go here */
	double bytes_per_op;		/* setup sets it for KIND_BANDWIDTH */
	double ops_per_call;		/* op(state, 1) does this many operations (default 1) */
	int no_loop_overhead;		/* op(state, n) does not loop: subtract no loop cost */
	char reason[256];		/* why unsupported / failed */
};

struct bench {
	const char *id;		/* "group.family.variant" */
	const char *group;	/* first component of id */
	const char *title;	/* human title, lmbench's name where it has one */
	const char *unit;	/* unit of the main figure */
	enum better better;
	enum bench_kind kind;
	int long_mode;		/* measured by harness_long (repetitions of a long
				 * operation), not by the calibrated loop */
	/* 0 when it can run here; else -1 with ctx->reason set ("needs root"). */
	int (*supported)(struct bench_ctx *ctx);
	/* Microbenchmarks: setup allocates state, op performs n operations
	 * (0, or -1 with errno / ctx-visible failure), teardown frees. */
	int (*setup)(struct bench_ctx *ctx, void **state);
	int (*op)(void *state, uint64_t n);
	void (*teardown)(void *state);
	/* Composite benchmarks: measure with harness_measure() and record
	 * metrics; return 0, or -1 with ctx->reason set. */
	int (*run)(struct bench_ctx *ctx);
	/* A family (STREAM's four kernels): benchmarks with the same
	 * family_run that are selected together run as one, in one process,
	 * measured interleaved. family_run(ctx, members) measures the members
	 * whose bit is set (bit i: the family's i-th benchmark in the
	 * registry) and records, for each, metric NAME (NAME the last
	 * component of its id) and params "NAME:key" of its own
	 * (result_take_member splits them). A member selected alone runs by
	 * itself with run(). family is the family's id ("mem.stream"). */
	int (*family_run)(struct bench_ctx *ctx, unsigned members);
	const char *family;
	/* About how long it runs, in seconds, for the run's progress line
	 * (NULL: one loop figure, or a long op's repetitions; see
	 * harness_estimate). fig_s is what one calibrated loop figure takes. */
	double (*estimate)(const struct bench_opts *opt, const struct harness_cfg *cfg, double fig_s);
	/* or, for a run of loop figures (a size sweep), about how many it
	 * measures: figures, figures_quick with --quick */
	int figures, figures_quick;
	/* sizes its buffers itself (STREAM: 4x the last-level cache), not by
	 * its group's --mem-size, except with --quick */
	int own_size;
	/* compare's noise floor, when not its group's (NOISE_OTHER: the
	 * group's) */
	enum noise_class noise;
};

/* A group's contract: what its benchmarks need from a run, declared in the
 * group's own code (src/bench/<group>-group.c or its common file) and
 * listed once in registry.h's GROUP_LIST. The run calls a group's hooks
 * only when one of its benchmarks is selected; core names no group. */
struct guard;
struct optdef;
struct bench_group {
	const char *name;	/* the group's benchmarks' .group */
	unsigned flags;		/* GROUP_* */
	/* compare's noise floor for its figures (a benchmark's own .noise
	 * overrides it) */
	enum noise_class noise;
	/* Its own options (rows of the options table with target IN_GROUP,
	 * offsets into a struct of opt_size bytes that it reads through
	 * bench_group_opts), as fio's engines carry theirs. */
	const struct optdef *options;
	size_t noptions, opt_size;
	/* Options of its that contradict each other: pairs of names and why,
	 * { "direct", "no-direct", "O_DIRECT or the page cache, not both" },
	 * ending with a NULL name. Given together: a usage error. */
	const char *const (*exclusive)[3];
	/* Before anything is created (the result file, the scratch
	 * directory): cross-option checks and what must answer first (net's
	 * peer or its own server). 0, or -1 with one line in err (exit 2). */
	int (*begin)(struct bench_opts *opt, char *err, size_t errlen);
	/* Once the scratch directory exists: the group's own places, their
	 * room checked (disk's directories under each --dir). dirlist is
	 * --dir as given (NULL: none); sel the selected benchmarks. */
	int (*prepare)(struct bench_opts *opt, const char *dirlist, const unsigned char *sel, char *err,
		       size_t errlen);
	/* Findings about the whole run (disk: a directory on tmpfs). */
	void (*guard)(struct guard *g, const struct bench_opts *opt);
	/* Nonzero when its benchmarks talk to a process the run started
	 * itself (net's loopback server): no "during" findings then. */
	int (*own_helper)(const struct bench_opts *opt);
};
/* Group g's own options in opt (a struct of g->opt_size bytes). */
void *bench_group_opts(const struct bench_opts *opt, const struct bench_group *g);
enum {
	/* no "during" findings: the kernel works for these benchmarks
	 * (disk's writeback threads), so other CPU time is theirs */
	GROUP_NO_DURING_GUARD = 1u << 0,
	/* its buffers are --mem-size, which the guard holds against the
	 * last-level cache (a benchmark with .own_size sizes its own) */
	GROUP_SIZED_BY_MEM_SIZE = 1u << 2,
	/* the same work in every sample: a speed that moves with nothing else
	 * running is the host's (the guard's speed finding) */
	GROUP_STEADY_WORK = 1u << 3,
	/* runs against a peer: fleet runs it per pair of hosts, not per host */
	GROUP_PAIRED = 1u << 4,
	/* waits on a device or a wire: a figure's low %CPU says so */
	GROUP_IO = 1u << 5,
};

/* The sink: a result fed here is observable, so the work producing it
 * cannot be deleted. Accumulate in a local and feed it once per op() call. */
extern volatile uint64_t bench_sink;
static inline void bench_use(uint64_t x)
{
	bench_sink += x;
}
static inline void bench_use_ptr(const void *p)
{
	bench_sink += (uint64_t)(uintptr_t)p;
}
/* A double by its bits: converting one beyond 2^64 to an integer is
 * undefined (clang's UBSan stops on it). */
static inline void bench_use_double(double x)
{
	uint64_t u;

	memcpy(&u, &x, sizeof(u));
	bench_sink += u;
}

/* A compiler barrier on a register value: keeps a loop around it alive
 * without adding memory traffic (falls back to the volatile sink). */
#if defined(__GNUC__) || defined(__clang__)
#define BENCH_KEEP(x) __asm__ volatile("" : "+r"(x))
#else
#define BENCH_KEEP(x) bench_use((uint64_t)(x))
#endif

#endif
