/* tap.h — a tiny TAP producer for the C unit tests (header-only).
 * ok(cond, fmt...), is_int, is_num (with tolerance), is_str, skip, done_testing. */
#ifndef BAKEOFF_TAP_H
#define BAKEOFF_TAP_H
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static void tap_vreport(int pass, const char *fmt, va_list ap)
{
	printf("%sok %d - ", pass ? "" : "not ", ++tap_n);
	vprintf(fmt, ap);
	putchar('\n');
	if (!pass)
		tap_failed++;
	fflush(stdout);
}

static int ok(int pass, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), unused));
static int ok(int pass, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tap_vreport(pass, fmt, ap);
	va_end(ap);
	return pass;
}

#define is_int(got, want, ...) \
	tap_is_int(__FILE__, __LINE__, (long long)(got), (long long)(want), __VA_ARGS__)
#define is_num(got, want, tol, ...) \
	tap_is_num(__FILE__, __LINE__, (got), (want), (tol), __VA_ARGS__)
#define is_str(got, want, ...) \
	tap_is_str(__FILE__, __LINE__, (got), (want), __VA_ARGS__)

static int tap_is_int(const char *file, int line, long long got, long long want,
		      const char *fmt, ...) __attribute__((format(printf, 5, 6), unused));
static int tap_is_int(const char *file, int line, long long got, long long want,
		      const char *fmt, ...)
{
	va_list ap;
	int pass = got == want;
	va_start(ap, fmt);
	tap_vreport(pass, fmt, ap);
	va_end(ap);
	if (!pass)
		printf("#   %s:%d: got %lld, want %lld\n", file, line, got, want);
	return pass;
}

static int tap_is_num(const char *file, int line, double got, double want, double tol,
		      const char *fmt, ...) __attribute__((format(printf, 6, 7), unused));
static int tap_is_num(const char *file, int line, double got, double want, double tol,
		      const char *fmt, ...)
{
	va_list ap;
	int pass = fabs(got - want) <= tol;
	va_start(ap, fmt);
	tap_vreport(pass, fmt, ap);
	va_end(ap);
	if (!pass)
		printf("#   %s:%d: got %.10g, want %.10g (tolerance %g)\n", file, line, got,
		       want, tol);
	return pass;
}

static int tap_is_str(const char *file, int line, const char *got, const char *want,
		      const char *fmt, ...) __attribute__((format(printf, 5, 6), unused));
static int tap_is_str(const char *file, int line, const char *got, const char *want,
		      const char *fmt, ...)
{
	va_list ap;
	int pass = got && want ? strcmp(got, want) == 0 : got == want;
	va_start(ap, fmt);
	tap_vreport(pass, fmt, ap);
	va_end(ap);
	if (!pass)
		printf("#   %s:%d: got \"%s\", want \"%s\"\n", file, line,
		       got ? got : "(null)", want ? want : "(null)");
	return pass;
}

static void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2), unused));
static void diag(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("# ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
}

/* A test that cannot run here: "ok N # skip why", counted as skipped. */
static void skip(const char *fmt, ...) __attribute__((format(printf, 1, 2), unused));
static void skip(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("ok %d # skip ", ++tap_n);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	fflush(stdout);
}

static int done_testing(void) __attribute__((unused));
static int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
