/* t-escape.c — report_esc/report_put/report_esc_width: controls, DEL, C1
 * and malformed UTF-8 come out as \xNN, printable UTF-8 stays, truncation
 * never cuts an escape, padding counts characters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "report/report.h"

int main(void)
{
	static const struct { const char *in, *want; size_t width; } cases[] = {
		{ "plain host-1", "plain host-1", 12 },
		{ "\x1b]0;owned\x07", "\\x1b]0;owned\\x07", 16 },
		{ "a\nb\rc\td", "a\\x0ab\\x0dc\\x09d", 16 },
		{ "del\x7f", "del\\x7f", 7 },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 8 },
		{ "csi\xc2\x9b" "2J", "csi\\xc2\\x9b2J", 13 },	/* U+009B, a C1 CSI */
		{ "lone\x9b", "lone\\x9b", 8 },
		{ "cut\xe2\x82", "cut\\xe2\\x82", 11 },
		{ "overlong\xc0\xaf", "overlong\\xc0\\xaf", 16 },
		{ "surrogate\xed\xa0\x80", "surrogate\\xed\\xa0\\x80", 21 },
		{ "rlo\xe2\x80\xae" "exe", "rlo\\xe2\\x80\\xaeexe", 18 },	/* U+202E: bidi override */
		{ "lri\xe2\x81\xa6" "x\xe2\x81\xa9", "lri\\xe2\\x81\\xa6x\\xe2\\x81\\xa9", 28 },
		{ "alm\xd8\x9c", "alm\\xd8\\x9c", 11 },	/* U+061C */
		{ "zwj\xe2\x80\x8d", "zwj\xe2\x80\x8d", 4 },	/* U+200D is not a bidi control: kept */
		{ "back\\slash", "back\\slash", 10 },
		{ "", "", 0 },
	};
	char out[64], tiny[5], *mem = NULL;
	size_t i, len, memlen = 0;
	FILE *f;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		len = report_esc(out, sizeof(out), cases[i].in);
		is_str(out, cases[i].want, "escape case %zu", i);
		is_int(len, strlen(cases[i].want), "escape case %zu length", i);
		is_int(report_esc_width(cases[i].in), cases[i].width, "escape case %zu width", i);
	}
	len = report_esc(tiny, sizeof(tiny), "ab\x1b" "cdef");
	is_str(tiny, "ab", "truncation drops a whole escape, not half of it");
	is_int(len, 10, "truncation still returns the full length");
	len = report_esc(NULL, 0, "\x01");
	is_int(len, 4, "length only, with no buffer");
	report_esc(out, sizeof(out), NULL);
	is_str(out, "", "NULL is the empty string");

	f = open_memstream(&mem, &memlen);
	if (!f)
		return 1;
	report_put(f, "h\x1b", 8);
	fputc('|', f);
	report_put(f, "caf\xc3\xa9", 6);
	fputc('|', f);
	report_put(f, NULL, 2);
	fputc('|', f);
	fclose(f);
	is_str(mem, "h\\x1b   |caf\xc3\xa9  |  |", "report_put escapes and pads by characters");
	free(mem);
	return done_testing();
}
