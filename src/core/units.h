/* units.h — parsing and printing of sizes, durations and lists given on the command line. */
#ifndef BAKEOFF_UNITS_H
#define BAKEOFF_UNITS_H
#include <stddef.h>
#include <stdint.h>

/* Sizes: a whole number with an optional binary suffix k, M, G, T (any
 * case, optionally followed by "iB" or "B"): 512, 4k, 1M, 2G, 1T = 2^40.
 * Returns 0, or -1 for empty, negative, fractional, unknown suffix or a
 * value above 2^62 bytes. */
int parse_size(const char *s, uint64_t *out);
/* Durations: a number (decimals allowed) with a unit ns, us, ms, s, m, h;
 * a bare number is seconds: 10ms, 2s, 1.5s, 1m. Returns 0 or -1 (empty,
 * negative, unknown unit, above one year). */
int parse_duration(const char *s, uint64_t *ns);
/* A positive integer in [min, max]. */
int parse_uint(const char *s, long min, long max, long *out);
/* Comma-separated sizes ("0,16k,64k") or integers ("2,4,8,16"); at most
 * max entries; returns the count or -1. */
int parse_size_list(const char *s, uint64_t *out, int max);
int parse_uint_list(const char *s, long min, long max, long *out, int max_n);

/* "64 MiB", "4 KiB", "512 B", "1.5 GiB" */
void fmt_size(char *dst, size_t n, uint64_t bytes);
/* A figure with 3-4 significant digits: 0.123, 12.3, 1234, 123456,
 * 1.235e+09, 1e+308, 4.94e-324, 1.79769e+308 (DBL_MAX, which four digits
 * would round past); "nan", "inf", "-inf". At most 13 bytes plus the NUL,
 * so 16 bytes always hold it. */
void fmt_num(char *dst, size_t n, double v);

#endif
