/* str.h — helpers for the fixed-size string fields of sysinfo and os:
 * bounded printf, copy and append that never leave half a UTF-8
 * character behind (the JSON reader is strict), and in-place trimming. */
#ifndef BAKEOFF_STR_H
#define BAKEOFF_STR_H
#include <stddef.h>
#include "buf.h"

/* snprintf into dst[n]; a truncated result is cut back to a character boundary. */
void str_fmt(char *dst, size_t n, const char *f, ...) BAKEOFF_PRINTF(3, 4);
/* Copy src (NULL is "") into dst[n], truncating the same way. */
void str_copy(char *dst, size_t n, const char *src);
/* Append to the NUL-terminated string in dst[n], truncating the same way. */
void str_cat(char *dst, size_t n, const char *f, ...) BAKEOFF_PRINTF(3, 4);
/* Strip leading and trailing white space: returns s advanced past the
 * leading space, with the trailing space cut off in place. */
char *str_trim(char *s);

#endif
