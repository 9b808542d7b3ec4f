/* cpu-int.c — an integer workload in the spirit of Dhrystone, written for
 * bakeoff (not a copy of Dhrystone or of any other program).
 *
 * cpu.int: one operation is one loop over a small "program" of records,
 * pointers, strings, integer arithmetic and branches, reported in loops/s.
 * One loop:
 *   1. walks the first 2..5 records of a linked list, adding up their
 *      numbers and keeping the one with the largest (pointer chasing,
 *      compares);
 *   2. copies that record into a working record (a structure assignment)
 *      and adjusts its number by the loop's phase;
 *   3. switches on the record's kind: add, multiply, divide, exclusive or;
 *   4. formats the number as decimal text, copies the record's name,
 *      compares the two strings and measures one (hand-written string
 *      routines: the loop measures the CPU, not the C library);
 *   5. parses the text back, which must give the number again;
 *   6. folds eight entries of an integer table with a modulus and branches;
 *   7. moves the list's head record to its tail.
 * Every step feeds the loop's 32-bit result, which is added to a 64-bit
 * checksum.
 *
 * Keeping the work honest: the records, names and table are built from a
 * seed read at run time from a volatile variable, so the compiler cannot
 * precompute anything. The list returns to its first order every INT_NREC
 * loops and nothing else carries over from one loop to the next, so the
 * checksum after L loops is (L / INT_NREC) x (checksum of one period) +
 * (checksum of the first L mod INT_NREC loops); both are taken from a fresh
 * state built from the same seed before the run. After the run the
 * checksum must equal that, the list must still hold every record once,
 * and no loop may have failed its round trip (5.); otherwise the benchmark
 * fails. Every loop's result reaches the checksum, and the checksum is
 * compared, so no loop can be deleted as dead code, and a loop the
 * compiler or the machine got wrong is caught. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "cpu-work.h"
#include "harness.h"
#include "result.h"
#include "sysinfo.h"

#if !defined(__GNUC__) && !defined(__clang__)
static void cpu_nothing(void *p)
{
	(void)p;
}
void (*volatile cpu_opaque)(void *) = cpu_nothing;
#endif

static volatile uint32_t int_seed = 19951012;

uint32_t cpu_int_seed(void)
{
	return int_seed;
}

static uint32_t next_rand(uint32_t *x)
{
	*x = *x * 1103515245u + 12345u;
	return *x >> 8;
}

/* Decimal text of v into s; returns its length. */
static int fmt_dec(char *s, int32_t v)
{
	char tmp[12];
	uint32_t u = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
	int k = 0, len = 0;

	do {
		tmp[k++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		s[len++] = '-';
	while (k)
		s[len++] = tmp[--k];
	s[len] = 0;
	return len;
}

static int32_t parse_dec(const char *s)
{
	int neg = *s == '-';
	uint32_t u = 0;

	for (s += neg; *s >= '0' && *s <= '9'; s++)
		u = u * 10 + (uint32_t)(*s - '0');
	return neg ? (int32_t)(0u - u) : (int32_t)u;
}

static void str_copy(char *d, const char *s)
{
	while ((*d++ = *s++) != 0)
		;
}

static int str_cmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

static size_t str_len(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

static uint32_t one_loop(struct int_work *w, uint32_t phase)
{
	struct int_rec *p = w->head, *q = w->head;
	uint32_t h = phase;
	int32_t d;
	int k, cmp, len;

	/* 1. the largest of the first 2..5 records (each one's number counts) */
	for (k = 0; k < (int)(phase & 3) + 2; k++, q = q->next) {
		h += (uint32_t)q->num;
		if (q->num > p->num)
			p = q;
	}
	/* 2. a working copy */
	w->cur = *p;
	w->cur.num += (int32_t)(phase * 3) - 7;
	/* 3. by kind */
	switch (w->cur.kind) {
	case KIND_ADD:
		h += (uint32_t)w->cur.num;
		break;
	case KIND_MUL:
		h = (h + 1) * ((uint32_t)w->cur.num | 1u);
		break;
	case KIND_DIV:
		d = w->cur.num / (int32_t)(phase + 3);
		h += (uint32_t)d ^ (uint32_t)(w->cur.num % (int32_t)(phase + 3));
		break;
	default:
		h ^= w->cur.bits;
		break;
	}
	/* 4. strings */
	len = fmt_dec(w->text[0], w->cur.num);
	str_copy(w->text[1], p->name);
	w->text[1][phase & 7] = w->text[0][0];
	cmp = str_cmp(w->text[0], w->text[1]);
	h = h * 31 + (uint32_t)len + (cmp > 0 ? 1u : cmp < 0 ? 2u : 3u) +
	    (uint32_t)str_len(w->text[1]);
	/* 5. the round trip */
	if (parse_dec(w->text[0]) != w->cur.num)
		w->bad++;
	/* 6. the table */
	for (k = 0; k < 8; k++) {
		int32_t t = w->table[(k + (int)phase) & 15];

		if (t % 5 == 0)
			h += (uint32_t)(t >> 1);
		else if (t > 0)
			h += (uint32_t)t * 3u;
		else
			h -= (uint32_t)t;
	}
	/* 7. rotate the list */
	q = w->head;
	w->head = q->next;
	q->next = NULL;
	w->tail->next = q;
	w->tail = q;
	return h;
}

int cpu_int_loops(void *state, uint64_t n)
{
	struct int_work *w = state;

	CPU_LOOPS(w, n, i, one_loop(w, (uint32_t)((w->t.loops + i) % INT_NREC)));
	return 0;
}

static void build(struct int_work *w, uint32_t seed)
{
	uint32_t x = seed;
	int i, k;

	memset(w, 0, sizeof(*w));
	w->t.seed = seed;
	for (i = 0; i < INT_NREC; i++) {
		struct int_rec *r = &w->rec[i];

		r->next = i + 1 < INT_NREC ? &w->rec[i + 1] : NULL;
		r->kind = (enum int_kind)(next_rand(&x) % 4);
		r->num = (int32_t)(next_rand(&x) % 20001) - 10000;
		r->bits = next_rand(&x);
		for (k = 0; k < 12; k++)
			r->name[k] = (char)('A' + next_rand(&x) % 26);
		r->name[k] = 0;
	}
	for (i = 0; i < 16; i++)
		w->table[i] = (int32_t)(next_rand(&x) % 2001) - 1000;
	w->head = &w->rec[0];
	w->tail = &w->rec[INT_NREC - 1];
}

struct int_work *cpu_int_new(uint32_t seed)
{
	struct int_work *w = malloc(sizeof(*w)), ref;
	int k;

	if (!w)
		return NULL;
	build(&ref, seed);
	for (k = 0; k < INT_NREC; k++) {
		ref.prefix[k] = ref.t.sum;
		cpu_int_loops(&ref, 1);
	}
	build(w, seed);
	memcpy(w->prefix, ref.prefix, sizeof(w->prefix));
	w->period = ref.t.sum;
	return w;
}

int cpu_int_check(const void *state, char *why, size_t n)
{
	const struct int_work *w = state;
	uint64_t expect = w->t.loops / INT_NREC * w->period + w->prefix[w->t.loops % INT_NREC];
	const struct int_rec *p;
	unsigned seen = 0;
	int k;

	for (k = 0, p = w->head; p && k < INT_NREC; k++, p = p->next) {
		long i = p - w->rec;

		if (i < 0 || i >= INT_NREC || (seen & (1u << i)))
			break;
		seen |= 1u << i;
	}
	if (k != INT_NREC || p || w->tail->next || seen != (1u << INT_NREC) - 1) {
		snprintf(why, n, "the record list is damaged after %llu loops",
			 (unsigned long long)w->t.loops);
		return -1;
	}
	if (w->bad) {
		snprintf(why, n, "%llu of %llu loops got their own number wrong", (unsigned long long)w->bad,
			 (unsigned long long)w->t.loops);
		return -1;
	}
	if (w->t.sum != expect) {
		snprintf(why, n, "checksum after %llu loops is %016llx, expected %016llx",
			 (unsigned long long)w->t.loops, (unsigned long long)w->t.sum,
			 (unsigned long long)expect);
		return -1;
	}
	return 0;
}

void cpu_int_free(void *state)
{
	free(state);
}

/* Record the build in the benchmark's own params too, so that a figure
 * copied out of its file still says what compiled it. */
void cpu_record_build(struct bench_ctx *ctx)
{
	struct sysinfo tmp;
	const struct sysinfo *si = harness_host(ctx, &tmp);

	result_param_str(ctx->res, "compiler", si->compiler);
	result_param_str(ctx->res, "cflags", si->cflags);
}

int cpu_work_run(struct bench_ctx *ctx, struct measure *m,
		 int (*check)(const void *state, char *why, size_t n), const struct cpu_tally *t)
{
	char hex[24];
	int rc;

	if (!m->state) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory");
		return -1;
	}
	cpu_record_build(ctx);
	rc = harness_measure(ctx, m, NULL);
	if (rc == 0 && check(m->state, ctx->reason, sizeof(ctx->reason)) < 0)
		rc = -1;
	result_param_num(ctx->res, "seed", t->seed);
	result_param_num(ctx->res, "loops_checked", (double)t->loops);
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)t->sum);
	result_param_str(ctx->res, "checksum", hex);
	return rc;
}

static int int_run(struct bench_ctx *ctx)
{
	struct int_work *w = cpu_int_new(cpu_int_seed());
	struct measure m = {
		.name = "", .unit = "loops/s", .kind = KIND_RATE, .better = BETTER_HIGHER,
		.op = cpu_int_loops, .state = w,
	};
	int rc = cpu_work_run(ctx, &m, cpu_int_check, w ? &w->t : NULL);

	cpu_int_free(w);
	return rc;
}

const struct bench bench_cpu_int = {
	.id = "cpu.int", .group = "cpu", .title = "Integer workload (bakeoff-int)",
	.unit = "loops/s", .better = BETTER_HIGHER, .kind = KIND_RATE, .run = int_run,
};
