/* buf.c — growable byte buffer.
 *
 * Method: a heap block that doubles in size when full (starting at 64 bytes),
 * so appends are amortised O(1). One extra byte is always reserved so the
 * contents stay NUL-terminated and b->p can be handed to C string functions.
 * Allocation failure is sticky: the oom flag is set, the buffer keeps what it
 * had, and every later append is a no-op, so callers can build a whole
 * document and check b->oom once at the end instead of after every call.
 */
#include "buf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUF_MIN_CAP 64

/* Make room for at least extra more bytes plus the terminating NUL.
 * Returns 0 on success, -1 (with b->oom set) on failure. */
static int buf_reserve(struct buf *b, size_t extra)
{
	size_t need, cap;
	char *p;

	if (b->oom)
		return -1;
	if (extra > SIZE_MAX - 1 - b->len)
		goto fail;
	need = b->len + extra + 1;
	if (need <= b->cap)
		return 0;

	cap = b->cap ? b->cap : BUF_MIN_CAP;
	while (cap < need) {
		if (cap > SIZE_MAX / 2) {
			cap = need;
			break;
		}
		cap *= 2;
	}
	p = realloc(b->p, cap);
	if (!p)
		goto fail;
	b->p = p;
	b->cap = cap;
	return 0;
fail:
	b->oom = 1;
	return -1;
}

void buf_add(struct buf *b, const char *s, size_t n)
{
	size_t self_off = 0;
	int self = 0;

	/* Appending a slice of the buffer to itself must survive realloc()
	 * moving the block, so remember it as an offset. */
	if (b->p && s >= b->p && s < b->p + b->cap) {
		self = 1;
		self_off = (size_t)(s - b->p);
	}
	/* Reserve even when n == 0 so that b->p is a valid (empty) string
	 * after any successful call. */
	if (buf_reserve(b, n) < 0)
		return;
	if (self)
		s = b->p + self_off;
	if (n)
		memmove(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void buf_puts(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list aq;
	size_t avail;
	int n;

	if (b->oom)
		return;

	/* First try to format straight into the free space; most calls are
	 * short and fit, which saves a second formatting pass. */
	avail = b->cap ? b->cap - b->len : 0;
	va_copy(aq, ap);
	n = vsnprintf(b->p ? b->p + b->len : NULL, avail, fmt, aq);
	va_end(aq);
	if (n < 0) {
		/* Formatting error: the output would be silently incomplete,
		 * which is just as broken as a failed allocation. */
		if (b->p)
			b->p[b->len] = '\0';
		b->oom = 1;
		return;
	}
	if ((size_t)n < avail) {
		b->len += (size_t)n;
		return;
	}

	/* Did not fit: vsnprintf may have overwritten our terminator with a
	 * truncated prefix, so restore it before anything can fail. */
	if (b->p)
		b->p[b->len] = '\0';
	if (buf_reserve(b, (size_t)n) < 0)
		return;
	va_copy(aq, ap);
	n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, aq);
	va_end(aq);
	if (n < 0) {
		b->p[b->len] = '\0';
		b->oom = 1;
		return;
	}
	b->len += (size_t)n;
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void buf_free(struct buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = 0;
	b->cap = 0;
	b->oom = 0;
}
