/* buf.h — a growable byte buffer, the one string builder the core uses. */
#ifndef BAKEOFF_BUF_H
#define BAKEOFF_BUF_H
#include <stdarg.h>
#include <stddef.h>

/* printf-style argument checking where the compiler has it. */
#if defined(__GNUC__) || defined(__clang__)
#define BAKEOFF_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define BAKEOFF_PRINTF(fmt, args)
#endif

struct buf {
	char *p;	/* always NUL-terminated once anything was added */
	size_t len, cap;
	int oom;	/* set when an allocation failed; later appends are ignored */
};

void buf_add(struct buf *b, const char *s, size_t n);
void buf_puts(struct buf *b, const char *s);
void buf_printf(struct buf *b, const char *fmt, ...) BAKEOFF_PRINTF(2, 3);
void buf_vprintf(struct buf *b, const char *fmt, va_list ap);
void buf_free(struct buf *b);

#endif
