/* buf.h — a growable byte buffer, the one string builder the core uses. */
#ifndef BAKEOFF_BUF_H
#define BAKEOFF_BUF_H
#include <stdarg.h>
#include <stddef.h>

struct buf {
	char *p;	/* always NUL-terminated once anything was added */
	size_t len, cap;
	int oom;	/* set when an allocation failed; later appends are ignored */
};

void buf_add(struct buf *b, const char *s, size_t n);
void buf_puts(struct buf *b, const char *s);
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(struct buf *b, const char *fmt, va_list ap);
void buf_free(struct buf *b);

#endif
