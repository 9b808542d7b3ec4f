/* report.h — renderers: read a result, print it. They never measure. */
#ifndef BAKEOFF_REPORT_H
#define BAKEOFF_REPORT_H
#include <stddef.h>
#include <stdio.h>
#include "result.h"

/* The default table: header (host, run, guard) and one line per figure;
 * curve points and intermediate figures (metric.detail) only when all. */
void report_text(const struct result *r, FILE *f, int all);
/* lmbench 3 summary (scripts/getsummary layout): one row per result. */
void report_lmbench(const struct result *const *rs, size_t n, FILE *f);
/* net.tcp.bw in ttcp's -t / -r lines (ttcp.c). */
void report_ttcp(const struct result *r, FILE *f);
/* `bakeoff time`: csh `time` lines per run, then a table (time.c). */
void report_time(const struct result *r, FILE *f);
/* Dhrystone 1.1's two lines for cpu.int, under its own name (dhrystone.c). */
void report_dhrystone(const struct result *const *rs, size_t n, FILE *f);

/* disk.c: the dd and bonnie personalities' formats ("dd", "bonnie") from
 * disk.seq and disk.bonnie. */
void report_disk(const char *format, const struct result *r, FILE *f);

/* Escaping (escape.c). Every string a renderer takes from a result file —
 * host name, OS, kernel, CPU model, argv, titles, ids, metric names, units,
 * reasons, notes, guard findings — may hold terminal control sequences
 * written by whoever made the file. A text renderer prints such a string
 * only through report_put, or through report_esc into its own buffer, never
 * with a bare %s. Controls (C0, DEL, C1) and bytes that are not well-formed
 * UTF-8 become \xNN; printable UTF-8 is kept. (Machine formats — JSON —
 * escape by their own rules and do not need this.)
 *
 * report_put: print s escaped, then pad with spaces to width columns
 * (0: no padding); a NULL s prints as "". Use it for %s and %-*s.
 * report_esc: the escaped s into dst (size n, always NUL-terminated when n
 * > 0, never ending in half an escape); returns the length the whole
 * escaped string needs, like snprintf. Use it where a column cuts a
 * string ("%.9s"): escape first, then cut.
 * report_esc_width: the columns report_put would fill (characters, not
 * bytes); use it to size columns. */
void report_put(FILE *f, const char *s, int width);
size_t report_esc(char *dst, size_t n, const char *s);
size_t report_esc_width(const char *s);

#endif
