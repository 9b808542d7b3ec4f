/* str.c — fixed-size string field helpers (see str.h). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "str.h"

/* Cut a truncated string back to a UTF-8 character boundary, so a cut
 * never leaves half a character for the (strict) JSON reader to reject. */
static void utf8_cut(char *s)
{
	size_t len = strlen(s), k = 0, need;
	unsigned char c;

	while (k < 3 && k < len && ((unsigned char)s[len - 1 - k] & 0xC0) == 0x80)
		k++;
	if (k == len)
		return;
	c = (unsigned char)s[len - 1 - k];
	if (c < 0xC0)
		return;
	need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
	if (k + 1 < need)
		s[len - 1 - k] = '\0';
}

static void vfmt(char *dst, size_t n, const char *f, va_list ap)
{
	int r = vsnprintf(dst, n, f, ap);

	if (r < 0)
		dst[0] = '\0';
	else if ((size_t)r >= n)
		utf8_cut(dst);
}

void str_fmt(char *dst, size_t n, const char *f, ...)
{
	va_list ap;

	if (n == 0)
		return;
	va_start(ap, f);
	vfmt(dst, n, f, ap);
	va_end(ap);
}

void str_copy(char *dst, size_t n, const char *src)
{
	str_fmt(dst, n, "%s", src ? src : "");
}

void str_cat(char *dst, size_t n, const char *f, ...)
{
	size_t len = strlen(dst);
	va_list ap;

	if (len + 1 >= n)
		return;
	va_start(ap, f);
	vfmt(dst + len, n - len, f, ap);
	va_end(ap);
}

char *str_trim(char *s)
{
	char *e;

	while (*s && isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}
