/* report.h — renderers: read a result, print it. They never measure. */
#ifndef BAKEOFF_REPORT_H
#define BAKEOFF_REPORT_H
#include <stdio.h>
#include "result.h"

/* The default table: header (host, run, guard) and one line per figure;
 * curve points and intermediate figures (metric.detail) only when all. */
void report_text(const struct result *r, FILE *f, int all);
/* lmbench 3 summary (scripts/getsummary layout): one row per result. */
void report_lmbench(const struct result *const *rs, size_t n, FILE *f);

#endif
