/* cpu-ops.c — latency and throughput of single arithmetic operations
 * (lmbench lat_ops and par_ops).
 *
 * cpu.ops.<type>.<op>: one operation is one add, mul, div, mod or bit op
 * (xor / and) on a 32-bit int, 64-bit int, float or double. Each benchmark
 * records two figures, in ns per operation:
 *   ""     latency: one dependent chain, every result feeds the next
 *          operation (x = x op a), so an operation cannot start before the
 *          previous one has finished;
 *   "par"  throughput: 8 (integer) or 12 (floating-point) independent
 *          chains interleaved, so the CPU overlaps them as far as its
 *          execution units allow (par_ops).
 * Both are the slope between two unrolls, an op() loop doing k and one
 * doing 2k operations per iteration (k = 128, or 144 for 12 chains),
 * timed with no loop overhead subtracted: the loop's own cost cancels
 * however much of it overlaps the operations (see ops_slope). Both
 * timings are kept as detail figures (rawK, raw2K, par/rawK, par/raw2K).
 *
 * Keeping the work: operands come from a state struct filled from a
 * volatile seed, so nothing is known at compile time (a division by a
 * known constant would become a multiplication); a register-only barrier
 * after every operation stops the compiler from folding the chain
 * (x += a 128 times is not x += 128 * a) or from packing the parallel
 * chains into SIMD registers; every chain ends in bench_use().
 *
 * Keeping the values sane over millions of operations: integer add, mul
 * and bit ops use unsigned types (wrap-around is defined, and the machine
 * instructions are the same as for int); division and modulus use signed
 * types, as C's int does. Integer division chains through the divisor,
 * x = a / x, which alternates between two values (lmbench's chain);
 * modulus chains through the dividend, x = x % a, since a remainder is
 * below its divisor and a divisor chain would reach zero. Floating point
 * stays normal: add then subtract the same value, multiply by a and then
 * by ~1/a, and divide x = a / x, which returns to x every second step. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "harness.h"
#include "result.h"

#define OPS_PER_CALL 128
#define MAX_CHAINS 12

/* The register-only barrier for floating-point values: an "r" barrier
 * would move a double through an integer register and add that latency
 * to the chain. Elsewhere, without -ffast-math, the compiler may not
 * reassociate or fold floating-point chains anyway (it may still pack the
 * parallel chains into SIMD registers). */
#if (defined(__GNUC__) || defined(__clang__)) &&                            \
	(defined(__x86_64__) || (defined(__i386__) && defined(__SSE2_MATH__)))
#define FP_KEEP(x) __asm__ volatile("" : "+x"(x))
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__aarch64__)
#define FP_KEEP(x) __asm__ volatile("" : "+w"(x))
#else
#define FP_KEEP(x) ((void)0)
#endif
#define INT_KEEP(x) BENCH_KEEP(x)

/* The seed the compiler cannot know. */
static volatile unsigned ops_seed = 37;

/* Per type: [0] start of the latency chain, [1] a, [2] b, [3..] starts of
 * the parallel chains. */
#define NV (3 + MAX_CHAINS)
struct ops_state {
	uint32_t u32[NV];
	int32_t i32[NV];
	uint64_t u64[NV];
	int64_t i64[NV];
	float f32[NV];
	double f64[NV];
};

static void use_u32(uint32_t x)
{
	bench_use(x);
}
static void use_i32(int32_t x)
{
	bench_use((uint32_t)x);
}
static void use_u64(uint64_t x)
{
	bench_use(x);
}
static void use_i64(int64_t x)
{
	bench_use((uint64_t)x);
}
static void use_f32(float x)
{
	uint32_t u;

	memcpy(&u, &x, sizeof(u));
	bench_use(u);
}
static void use_f64(double x)
{
	bench_use_double(x);
}

/* The two operations of a step on x (a, b are locals of the op function):
 * P_A then P_B, each followed by the barrier K. */
#define ADD_A(x, K) x += a; K(x);
#define ADD_B(x, K) x += b; K(x);
#define ADDSUB_A(x, K) x += a; K(x);
#define ADDSUB_B(x, K) x -= b; K(x);
#define BIT_A(x, K) x ^= a; K(x);
#define BIT_B(x, K) x &= b; K(x);
#define MUL_A(x, K) x *= a; K(x);
#define MUL_B(x, K) x *= b; K(x);
#define DIV_A(x, K) x = a / x; K(x);
#define DIV_B(x, K) x = a / x; K(x);
#define MOD_A(x, K) x %= a; K(x);
#define MOD_B(x, K) x %= b; K(x);

#define R2(s) s s
#define R6(s) s s s s s s
#define R8(s) s s s s s s s s
#define R12(s) R2(R6(s))
#define R16(s) R2(R8(s))
#define R64(s) R8(R8(s))
#define R128(s) R2(R64(s))

/* The latency chain, REP(two steps) per iteration: 128 (R64) or 256
 * (R128) operations. */
#define LAT(T, F, P, K, REP)                                                \
	T x = st->F[0];                                                     \
	for (i = 0; i < n; i++) {                                           \
		REP(P##_A(x, K) P##_B(x, K))                                \
	}                                                                   \
	use_##F(x);

/* The parallel chains, 8 integer or 12 floating-point ones. There must be
 * at least latency x issue rate of them in flight to keep every unit busy
 * (a 4-cycle multiply on 2 ports needs 8, exactly, with no slack for the
 * scheduler); 12 integer chains would not fit in x86-64's registers next
 * to a divide's fixed rax/rdx. Each op() iteration does 128 (8 x R8 x 2)
 * or 144 (12 x R6 x 2) operations, or twice that with R16 / R12. The
 * first operation of every chain comes before the second of any: with
 * each chain's two dependent operations side by side instead, clang's
 * code reached only 0.62 (8 chains) or 0.57 (12) cycles per multiply
 * here, not the 0.50 the two multipliers allow. */
#define CHAINS8(M, a, b) M(a, b, 0) M(a, b, 1) M(a, b, 2) M(a, b, 3) \
	M(a, b, 4) M(a, b, 5) M(a, b, 6) M(a, b, 7)
#define CHAINS12(M, a, b) CHAINS8(M, a, b) M(a, b, 8) M(a, b, 9) M(a, b, 10) M(a, b, 11)
#define CH_DECL(T, F, k) T x##k = st->F[3 + k];
#define CH_A(P, K, k) P##_A(x##k, K)
#define CH_B(P, K, k) P##_B(x##k, K)
#define CH_USE(F, unused, k) use_##F(x##k);
#define PAR(T, F, P, K, REP, CHAINS)                                        \
	CHAINS(CH_DECL, T, F)                                               \
	for (i = 0; i < n; i++) {                                           \
		REP(CHAINS(CH_A, P, K) CHAINS(CH_B, P, K))                  \
	}                                                                   \
	CHAINS(CH_USE, F, F)
#define PAR8(T, F, P, K, REP) PAR(T, F, P, K, REP, CHAINS8)
#define PAR8_SHORT R8
#define PAR8_LONG R16
#define PAR8_OPS (8 * 8 * 2)
#define PAR12(T, F, P, K, REP) PAR(T, F, P, K, REP, CHAINS12)
#define PAR12_SHORT R6
#define PAR12_LONG R12
#define PAR12_OPS (12 * 6 * 2)

/* One op function: NAME(state, n) runs BODY(T, F, P, K, REP) n times. */
#define OPS_FN(name, T, F, K, P, BODY, REP)                                 \
	static int name(void *state, uint64_t n)                            \
	{                                                                   \
		const struct ops_state *st = state;                         \
		T a = st->F[1], b = st->F[2];                               \
		uint64_t i;                                                 \
		(void)a; (void)b;                                           \
		BODY(T, F, P, K, REP)                                       \
		return 0;                                                   \
	}

/* Generate the four op functions (latency and throughput, each at the
 * short and the long unroll) and the descriptor of one benchmark.
 * T: C type; F: its field in ops_state (and use_F); K: barrier; P:
 * operation pair (P_A, P_B); NP: number of parallel chains (8 or 12); X0,
 * A, B: start and operands from the unsigned seed s; chain: what one step
 * does. */
#define CPU_OP(ty, op, ttl, T, F, K, P, NP, X0, A, B, chain)                \
	static void ty##_##op##_init(struct ops_state *st, unsigned s)      \
	{                                                                   \
		int k;                                                      \
		st->F[0] = (T)(X0);                                         \
		st->F[1] = (T)(A);                                          \
		st->F[2] = (T)(B);                                          \
		for (k = 0; k < NP; k++)                                    \
			st->F[3 + k] = (T)((X0) + (T)k);                    \
	}                                                                   \
	OPS_FN(ty##_##op##_lat1, T, F, K, P, LAT, R64)                      \
	OPS_FN(ty##_##op##_lat2, T, F, K, P, LAT, R128)                     \
	OPS_FN(ty##_##op##_par1, T, F, K, P, PAR##NP, PAR##NP##_SHORT)      \
	OPS_FN(ty##_##op##_par2, T, F, K, P, PAR##NP, PAR##NP##_LONG)       \
	static int ty##_##op##_run(struct bench_ctx *ctx)                   \
	{                                                                   \
		const struct ops_fns f = {                                  \
			ty##_##op##_init, ty##_##op##_lat1, ty##_##op##_lat2,\
			ty##_##op##_par1, ty##_##op##_par2, NP, PAR##NP##_OPS,\
			chain,                                              \
		};                                                          \
		return ops_run(ctx, &f);                                    \
	}                                                                   \
	const struct bench bench_cpu_ops_##ty##_##op = {                    \
		.id = "cpu.ops." #ty "." #op, .group = "cpu", .title = ttl, \
		.unit = "ns", .better = BETTER_LOWER, .kind = KIND_LATENCY, \
		.run = ty##_##op##_run,                                     \
	};

typedef int (*ops_op)(void *state, uint64_t n);

struct ops_fns {
	void (*init)(struct ops_state *st, unsigned seed);
	ops_op lat1, lat2;	/* OPS_PER_CALL and twice that operations per call */
	ops_op par1, par2;	/* par_ops and twice that */
	int chains, par_ops;
	const char *chain;
};

/* One figure as the slope between two unrolls: op1 does k operations per
 * loop iteration, op2 2k, so per iteration
 *     t1 = L + k w,   t2 = L + 2k w,   w = (t2 - t1) / k
 * whatever the loop's own cost L is and however much of it overlaps the
 * operations (lmbench's l_overhead solves the same pair of loops for L).
 * Both loops are timed with only the clock's cost subtracted and kept as
 * detail figures NAME/rawK and NAME/raw2K, in ns per operation: r1 = t1 / k
 * and r2 = t2 / 2k, so w = 2 r2 - r1, from their medians. The two are
 * timed one after the other, so their samples do not pair and the figure
 * is derived, with no samples of its own.
 *
 * A difference amplifies noise, and a difference of two medians taken
 * under changing load can land anywhere, far below the hardware's limit
 * too (r1 slowed by 10% more than r2 reads 10% x r1 low). What the loop
 * can cost bounds it: L >= 0 gives w <= r2, and L is at most the
 * harness's empty loop run alone (the loop overlapped with other work
 * costs no more than on its own), which gives w >= r2 - loop / 2k. The
 * slope is clamped to that interval (a few tenths of a percent wide for
 * a slow operation, ~2% for an integer add), so load can make the figure
 * slower, as it makes every figure slower, but never faster than the
 * longer loop itself allows. */
static int ops_slope(struct bench_ctx *ctx, struct ops_state *st, const char *name,
		     ops_op op1, ops_op op2, int k)
{
	const char *sep = name[0] ? "/" : "";
	char n1[32], n2[32], key[32], from[200];
	struct measure m = {
		.unit = "ns", .kind = KIND_LATENCY, .better = BETTER_LOWER, .state = st,
		.no_loop_overhead = 1, .detail = 1,
	};
	struct metric *met;
	double r1, r2, slope, lo, w;

	snprintf(n1, sizeof(n1), "%s%sraw%d", name, sep, k);
	snprintf(n2, sizeof(n2), "%s%sraw%d", name, sep, 2 * k);
	m.name = n1;
	m.op = op1;
	m.ops_per_call = k;
	if (harness_measure(ctx, &m, &r1) < 0)
		return -1;
	m.name = n2;
	m.op = op2;
	m.ops_per_call = 2 * k;
	if (harness_measure(ctx, &m, &r2) < 0)
		return -1;
	slope = 2 * r2 - r1;
	lo = r2 - ctx->h->loop_ns / (2.0 * k);
	w = slope > r2 ? r2 : slope < lo ? lo : slope;
	snprintf(from, sizeof(from), "%s and %s (slope 2 x %s - %s, bounded by what the "
		 "loop can cost)", n1, n2, n2, n1);
	if (!(met = result_add_derived(ctx->res, name, "ns", BETTER_LOWER, w, from))) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
	met->raw_ns = r2;
	met->op_ns = w;
	if (fabs(slope - w) > 0.05 * r2)
		met->note = strdup(slope > w ? "the longer loop was slower per operation: the "
				   "load changed between the two" : "the loop cost more than "
				   "the harness's empty loop: the load changed between the two");
	/* L = t1 - k w as measured, ns per iteration: near 0 when the loop
	 * runs beside the operations, as it does on an out-of-order core. */
	snprintf(key, sizeof(key), "%s%sloop_ns", name, name[0] ? "_" : "");
	result_param_num(ctx->res, key, 2 * k * (r1 - r2));
	return 0;
}

static int ops_run(struct bench_ctx *ctx, const struct ops_fns *f)
{
	struct ops_state st;

	memset(&st, 0, sizeof(st));
	f->init(&st, ops_seed);
	result_param_str(ctx->res, "chain", f->chain);
	result_param_num(ctx->res, "ops_per_call", OPS_PER_CALL);
	result_param_num(ctx->res, "par_ops_per_call", f->par_ops);
	result_param_num(ctx->res, "par_chains", f->chains);
	if (ops_slope(ctx, &st, "", f->lat1, f->lat2, OPS_PER_CALL) < 0)
		return -1;
	return ops_slope(ctx, &st, "par", f->par1, f->par2, f->par_ops);
}

/* 32-bit int (lmbench "intgr"). */
CPU_OP(int, bit, "Integer bit (xor/and)", uint32_t, u32, INT_KEEP, BIT, 8,
       s * 0x01010101u, 0x5a5a5a5au ^ s, ~s, "x ^= a; x &= b")
CPU_OP(int, add, "Integer add", uint32_t, u32, INT_KEEP, ADD, 8,
       s, 2 * s + 1, 2 * s + 1, "x += a")
CPU_OP(int, mul, "Integer mul", uint32_t, u32, INT_KEEP, MUL, 8,
       s | 1, 2 * s + 1, (s << 8) | 1, "x *= a")
CPU_OP(int, div, "Integer div", int32_t, i32, INT_KEEP, DIV, 8,
       s, (s + 1) << 20, (s + 1) << 20, "x = a / x (signed)")
CPU_OP(int, mod, "Integer mod", int32_t, i32, INT_KEEP, MOD, 8,
       ((s + 1) << 20) + ((s + 1) << 19) + 7, (s + 1) << 20, (s + 1) << 20,
       "x = x % a (signed)")

/* 64-bit int (lmbench "int64"). Division operands exceed 32 bits, so a
 * compiler's "both fit in 32 bits" shortcut cannot pick the short divide. */
CPU_OP(int64, bit, "Int64 bit (xor/and)", uint64_t, u64, INT_KEEP, BIT, 8,
       s * 0x0101010101010101ull, 0x5a5a5a5a5a5a5a5aull ^ s, ~(uint64_t)s,
       "x ^= a; x &= b")
CPU_OP(int64, add, "Int64 add", uint64_t, u64, INT_KEEP, ADD, 8,
       (uint64_t)s << 33, 2 * (uint64_t)s + 1, 2 * (uint64_t)s + 1, "x += a")
CPU_OP(int64, mul, "Int64 mul", uint64_t, u64, INT_KEEP, MUL, 8,
       ((uint64_t)s << 33) | 1, 2 * (uint64_t)s + 1, ((uint64_t)s << 40) | 1, "x *= a")
CPU_OP(int64, div, "Int64 div", int64_t, i64, INT_KEEP, DIV, 8,
       s, (int64_t)(s + 1) << 40, (int64_t)(s + 1) << 40, "x = a / x (signed)")
CPU_OP(int64, mod, "Int64 mod", int64_t, i64, INT_KEEP, MOD, 8,
       ((int64_t)(s + 1) << 36) + ((int64_t)(s + 1) << 35) + 7, (int64_t)(s + 1) << 36,
       (int64_t)(s + 1) << 36, "x = x % a (signed)")

/* Operands with full mantissas (a divider may finish early on short ones). */
CPU_OP(float, add, "Float add", float, f32, FP_KEEP, ADDSUB, 12,
       s / 31.0f, s / 61.0f, s / 61.0f, "x += a; x -= a")
CPU_OP(float, mul, "Float mul", float, f32, FP_KEEP, MUL, 12,
       s / 31.0f, 1.0f + 1.0f / s, 1.0f / (1.0f + 1.0f / s), "x *= a; x *= 1/a")
CPU_OP(float, div, "Float div", float, f32, FP_KEEP, DIV, 12,
       s / 31.0f, s / 13.0f, s / 13.0f, "x = a / x")

CPU_OP(double, add, "Double add", double, f64, FP_KEEP, ADDSUB, 12,
       s / 31.0, s / 61.0, s / 61.0, "x += a; x -= a")
CPU_OP(double, mul, "Double mul", double, f64, FP_KEEP, MUL, 12,
       s / 31.0, 1.0 + 1.0 / s, 1.0 / (1.0 + 1.0 / s), "x *= a; x *= 1/a")
CPU_OP(double, div, "Double div", double, f64, FP_KEEP, DIV, 12,
       s / 31.0, s / 13.0, s / 13.0, "x = a / x")
