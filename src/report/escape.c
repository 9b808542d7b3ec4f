/* escape.c — printing strings that came from a result file, which may have
 * been written on another machine by anyone. Control characters would let
 * such a file move the cursor, retitle the terminal or hide lines, so every
 * text renderer prints those strings through here.
 *
 * Method: walk the bytes as UTF-8. A well-formed sequence of a printable
 * character is kept as is; C0 controls (0x00-0x1f), DEL, the C1 controls
 * (U+0080-U+009F, which some terminals obey like ESC [), the bidirectional
 * controls (U+202E and its kin reorder the rest of a line) and any byte
 * that is not part of a well-formed sequence are printed as \xNN, one per
 * byte.
 * Widths count characters, not bytes, so padded columns stay aligned. */
#include <string.h>
#include "report.h"

/* Length of the well-formed, printable UTF-8 sequence at s (1..4), or 0
 * when the byte at s must be escaped. */
static size_t seq_len(const unsigned char *s)
{
	size_t n, i;

	if (*s >= 0x20 && *s < 0x7f)
		return 1;
	if (*s >= 0xc2 && *s <= 0xdf)
		n = 2;
	else if (*s >= 0xe0 && *s <= 0xef)
		n = 3;
	else if (*s >= 0xf0 && *s <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* overlong forms, UTF-16 surrogates, beyond U+10FFFF, C1 controls */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90) ||
	    (s[0] == 0xc2 && s[1] <= 0x9f))
		return 0;
	/* bidirectional controls, which reorder what follows on the line
	 * (Trojan Source): U+061C, U+200E-200F, U+202A-202E, U+2066-2069 */
	if ((s[0] == 0xd8 && s[1] == 0x9c) ||
	    (s[0] == 0xe2 && s[1] == 0x80 && ((s[2] >= 0x8e && s[2] <= 0x8f) || (s[2] >= 0xaa && s[2] <= 0xae))) ||
	    (s[0] == 0xe2 && s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9))
		return 0;
	return n;
}

/* The text that stands for the character at *p (NUL-terminated in out,
 * at most 4 bytes); advances *p past it. Returns its width in columns. */
static int piece(const unsigned char **p, char out[5])
{
	static const char hex[] = "0123456789abcdef";
	size_t q = seq_len(*p);

	if (q) {
		memcpy(out, *p, q);
		out[q] = 0;
		*p += q;
		return 1;
	}
	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[**p >> 4];
	out[3] = hex[**p & 15];
	out[4] = 0;
	*p += 1;
	return 4;
}

size_t report_esc(char *dst, size_t n, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t len = 0, k;
	int full = 0;
	char one[5];

	while (*p) {
		piece(&p, one);
		k = strlen(one);
		/* all of a piece or none of it: never half an escape */
		if (dst && !full && len + k < n)
			memcpy(dst + len, one, k);
		else if (dst && !full && n) {
			dst[len] = 0;
			full = 1;
		}
		len += k;
	}
	if (dst && !full && n)
		dst[len] = 0;
	return len;
}

size_t report_esc_width(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t w = 0;
	char one[5];

	while (*p)
		w += (size_t)piece(&p, one);
	return w;
}

void report_put(FILE *f, const char *s, int width)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	char one[5];

	while (*p) {
		piece(&p, one);
		fputs(one, f);
	}
	for (size_t w = report_esc_width(s); (int)w < width; w++)
		fputc(' ', f);
}
