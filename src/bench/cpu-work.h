/* cpu-work.h — the two CPU workloads (cpu-int.c, cpu-float.c), for their
 * benchmarks and for the unit test that corrupts a run (cpu.scaling runs
 * the benchmarks themselves as copies). A workload is a state built from a seed read at run time;
 * loops(state, n) runs n loops and adds each loop's result to a checksum;
 * check() compares the checksum with the one expected for the loops done
 * (and the workload's own invariants) and says what is wrong. */
#ifndef BAKEOFF_CPU_WORK_H
#define BAKEOFF_CPU_WORK_H
#include <stddef.h>
#include <stdint.h>

/* A compiler barrier on the memory p points to: the compiler must assume
 * the state changed, so it can neither hoist a loop's work out of the loop
 * nor merge loops. (Elsewhere: a call it cannot see through.) */
#if defined(__GNUC__) || defined(__clang__)
#define CPU_CLOBBER(p) __asm__ volatile("" : : "r"(p) : "memory")
#else
extern void (*volatile cpu_opaque)(void *);
#define CPU_CLOBBER(p) cpu_opaque(p)
#endif

/* The body of a workload's loops(state, n): n loops with the barrier
 * before each, every loop's result (EXPR, which may use the index I) added
 * to the tally. One definition, so both workloads time the same harness
 * around their own work. */
#define CPU_LOOPS(w, n, I, EXPR)                 \
	do {                                     \
		uint64_t I, sum_ = (w)->t.sum;   \
		for (I = 0; I < (n); I++) {      \
			CPU_CLOBBER(w);          \
			sum_ += (EXPR);          \
		}                                \
		(w)->t.loops += (n);             \
		(w)->t.sum = sum_;               \
		bench_use(sum_);                 \
	} while (0)

/* What a workload's checksum covers: the seed its state was built from,
 * the loops done and the sum of every loop's result. */
struct cpu_tally {
	uint32_t seed;
	uint64_t loops, sum;
};

/* ---- cpu.int: records, pointers, strings, integer arithmetic, branches ---- */

#define INT_NREC 8	/* records in the list; the state repeats every INT_NREC loops */

enum int_kind { KIND_ADD, KIND_MUL, KIND_DIV, KIND_XOR };

struct int_rec {
	struct int_rec *next;
	enum int_kind kind;
	int32_t num;
	uint32_t bits;
	char name[20];
};

struct int_work {
	struct int_rec rec[INT_NREC];
	struct int_rec *head, *tail;	/* a list through rec[], rotated every loop */
	struct int_rec cur;		/* the loop's working copy of a record */
	char text[2][24];		/* the loop's strings */
	int32_t table[16];
	struct cpu_tally t;		/* checksum: the sum of every loop's result */
	uint64_t bad;			/* loops whose own round-trip check failed */
	/* Expected: the checksum after k loops (k < INT_NREC) and after a
	 * whole period, from a fresh state built from the same seed. */
	uint64_t prefix[INT_NREC], period;
};

struct int_work *cpu_int_new(uint32_t seed);
int cpu_int_loops(void *state, uint64_t n);
/* 0, or -1 with why set (checksum found / expected, loops, invariants). */
int cpu_int_check(const void *state, char *why, size_t n);
void cpu_int_free(void *state);

/* ---- cpu.float: a Whetstone-style mix ---- */

#define FLT_N 16	/* array length */
#define FLT_X 4		/* arguments of the transcendental functions */

struct float_work {
	double a[FLT_N], b[FLT_N], c[FLT_N];	/* small integers: exact sums */
	double coef[8];				/* polynomial, small integers */
	double x[FLT_X];			/* trig arguments, in (0, pi/2) */
	double y[FLT_X];			/* sqrt/exp/log arguments, > 1 */
	/* the last loop's module results */
	double dot, poly, branch, trig, fn;
	struct cpu_tally t;		/* checksum: the sum of each loop's result bits */
	uint64_t expect;		/* one loop's result bits, from a fresh state */
};

/* Floating-point operations in one loop (see cpu-float.c for the count). */
#define CPU_FLOAT_OPS_PER_LOOP 169

struct float_work *cpu_float_new(uint32_t seed);
int cpu_float_loops(void *state, uint64_t n);
int cpu_float_check(const void *state, char *why, size_t n);
void cpu_float_free(void *state);

/* Record the compiler and flags bakeoff was built with as params. */
struct bench_ctx;
struct measure;
void cpu_record_build(struct bench_ctx *ctx);
/* A workload's benchmark: measure m (m->state the workload, NULL when it
 * could not be built), check its checksum with check(m->state), record the
 * build and what the check covered (t: the seed, the loops, the sum). */
int cpu_work_run(struct bench_ctx *ctx, struct measure *m,
		 int (*check)(const void *state, char *why, size_t n), const struct cpu_tally *t);

/* The seeds, read at run time (volatile: the compiler cannot know them). */
uint32_t cpu_int_seed(void);
uint32_t cpu_float_seed(void);

#endif
