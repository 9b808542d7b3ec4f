/* t-json.c — unit tests for the JSON writer and strict reader (TAP output).
 *
 * Method: table driven. (a) write a document holding every type, tricky
 * strings and awkward doubles, parse it back and compare every value exactly
 * (doubles bit for bit); also pin the exact pretty-printed layout. (b) feed a
 * table of malformed inputs and check each is rejected at the expected byte
 * offset. (c) feed a table of valid-but-unusual inputs and check the decoded
 * values. (d) exercise the json_get* lookup helpers.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "buf.h"
#include "json.h"

static int same_double(double a, double b)
{
	return memcmp(&a, &b, sizeof(a)) == 0;
}

/* Parse a NUL-terminated string; on failure print why, for the TAP log. */
static struct json *parse_str(const char *s)
{
	size_t off = 0;
	char err[128];
	struct json *j = json_parse(s, strlen(s), &off, err, sizeof(err));

	if (!j)
		diag("parse failed at %zu: %s", off, err);
	return j;
}

/* ---------------------------------------------------- (a) round trip */

static const double nums[] = {
	0.0, -0.0, 0.1, 1.0 / 3.0, 1e300, -1e-300, 123456789012345.0,
	9007199254740993.0 /* 2^53+1 rounds to 2^53 */, 5e-324 /* min subnormal */,
	DBL_MAX, DBL_MIN, -DBL_MAX, 2.0 / 3.0, 0.30000000000000004, 1e21, 1e-7,
	100.0, -42.5, 3.141592653589793, 4.35, 0.1 + 0.2,
};

static const char *const strs[] = {
	"",
	"plain",
	"quote \" inside",
	"back\\slash",
	"slash / stays",
	"ctl \x01 \x1f \x7f",
	"short \n \t \r \b \f forms",
	"caf\xc3\xa9",				/* é */
	"smile \xf0\x9f\x98\x80",		/* 😀 */
	"\xe2\x82\xac euro, \xef\xbf\xbf max BMP",
	"mix \"\\\n\xc3\xa9\x01\xf0\x9f\x98\x80\"",
};

#define NNUMS (sizeof(nums) / sizeof(nums[0]))
#define NSTRS (sizeof(strs) / sizeof(strs[0]))

static void write_doc(struct buf *b)
{
	struct jw w;
	size_t i;

	jw_init(&w, b);
	jw_obj_begin(&w, NULL);
	jw_null(&w, "null");
	jw_bool(&w, "t", 1);
	jw_bool(&w, "f", 0);
	jw_int(&w, "i", -42);
	jw_int(&w, "imin", INT64_MIN);		/* -2^63 is exact as a double */
	jw_int(&w, "ibig", 1234567890123LL);
	jw_num(&w, "inf", INFINITY);
	jw_num(&w, "nan", NAN);
	jw_str(&w, "nullstr", NULL);
	jw_arr_begin(&w, "nums");
	for (i = 0; i < NNUMS; i++)
		jw_num(&w, NULL, nums[i]);
	jw_arr_end(&w);
	jw_arr_begin(&w, "strs");
	for (i = 0; i < NSTRS; i++)
		jw_str(&w, NULL, strs[i]);
	jw_arr_end(&w);
	/* The same strings as keys, each mapping to its index. */
	jw_obj_begin(&w, "keys");
	for (i = 0; i < NSTRS; i++)
		jw_int(&w, strs[i], (int64_t)i);
	jw_obj_end(&w);
	jw_obj_begin(&w, "nested");
	jw_arr_begin(&w, "a");
	jw_arr_begin(&w, NULL);
	jw_arr_end(&w);
	jw_obj_begin(&w, NULL);
	jw_obj_end(&w);
	jw_arr_begin(&w, NULL);
	jw_num(&w, NULL, 1);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "deep", "x");
	jw_obj_end(&w);
	jw_arr_end(&w);
	jw_arr_end(&w);
	jw_obj_end(&w);
	jw_obj_end(&w);
}

static void test_roundtrip(void)
{
	struct buf b = { 0 };
	struct json *j;
	const struct json *v, *a;
	size_t i;

	write_doc(&b);
	ok(!b.oom && b.p != NULL, "round trip: writer produced output");
	j = parse_str(b.p ? b.p : "");
	if (!ok(j != NULL, "round trip: output parses back")) {
		diag("document was:\n%s", b.p ? b.p : "(null)");
		buf_free(&b);
		return;
	}
	is_int(j->type, JSON_OBJECT, "round trip: top level is an object");
	is_str(j->keys[0], "null", "round trip: member order kept (first)");
	is_str(j->keys[j->n - 1], "nested", "round trip: member order kept (last)");
	v = json_get(j, "null");
	ok(v && v->type == JSON_NULL, "round trip: null");
	v = json_get(j, "t");
	ok(v && v->type == JSON_BOOL && v->boolean == 1, "round trip: true");
	v = json_get(j, "f");
	ok(v && v->type == JSON_BOOL && v->boolean == 0, "round trip: false");
	ok(same_double(json_get_num(j, "i", 0), -42.0), "round trip: int -42");
	ok(same_double(json_get_num(j, "imin", 0), -9223372036854775808.0),
	   "round trip: INT64_MIN");
	ok(same_double(json_get_num(j, "ibig", 0), 1234567890123.0), "round trip: big int");
	v = json_get(j, "inf");
	ok(v && v->type == JSON_NULL, "round trip: infinity written as null");
	v = json_get(j, "nan");
	ok(v && v->type == JSON_NULL, "round trip: NaN written as null");
	v = json_get(j, "nullstr");
	ok(v && v->type == JSON_NULL, "round trip: NULL string written as null");

	a = json_get(j, "nums");
	if (ok(a && a->type == JSON_ARRAY && a->n == NNUMS, "round trip: nums array size")) {
		for (i = 0; i < NNUMS; i++) {
			v = a->items[i];
			if (!ok(v->type == JSON_NUMBER && same_double(v->number, nums[i]),
				"round trip: number %.17g bit-exact", nums[i]))
				diag("got %.17g", v->number);
		}
	}
	a = json_get(j, "strs");
	if (ok(a && a->type == JSON_ARRAY && a->n == NSTRS, "round trip: strs array size")) {
		for (i = 0; i < NSTRS; i++) {
			v = a->items[i];
			ok(v->type == JSON_STRING && !strcmp(v->string, strs[i]),
			   "round trip: string #%zu exact", i);
		}
	}
	a = json_get(j, "keys");
	if (ok(a && a->type == JSON_OBJECT && a->n == NSTRS, "round trip: keys object size")) {
		for (i = 0; i < NSTRS; i++)
			ok(!strcmp(a->keys[i], strs[i]) &&
			   same_double(json_get_num(a, strs[i], -1), (double)i),
			   "round trip: key #%zu exact", i);
	}
	a = json_get(json_get(j, "nested"), "a");
	ok(a && a->type == JSON_ARRAY && a->n == 3 &&
	   a->items[0]->type == JSON_ARRAY && a->items[0]->n == 0 &&
	   a->items[1]->type == JSON_OBJECT && a->items[1]->n == 0 &&
	   a->items[2]->type == JSON_ARRAY && a->items[2]->n == 2,
	   "round trip: nested containers shape");
	if (a && a->n == 3 && a->items[2]->n == 2)
		is_str(json_get_str(a->items[2]->items[1], "deep", NULL), "x",
		       "round trip: deepest value");
	json_free(j);
	buf_free(&b);
}

/* Exact text of the writer's output. */
static void test_layout(void)
{
	static const struct {
		double d;
		const char *want;
	} fmt[] = {
		{ 0.1, "0.1" }, { 1.0 / 3.0, "0.33333333333333331" }, { 1e300, "1e+300" },
		{ -0.0, "-0" }, { 123456789012345.0, "123456789012345" }, { 100, "100" },
		{ 0.1 + 0.2, "0.30000000000000004" }, { INFINITY, "null" },
		{ -INFINITY, "null" }, { NAN, "null" },
	};
	struct buf b = { 0 };
	struct jw w;
	size_t i;

	jw_init(&w, &b);
	jw_obj_begin(&w, NULL);
	jw_int(&w, "a", 1);
	jw_arr_begin(&w, "b");
	jw_bool(&w, NULL, 1);
	jw_null(&w, NULL);
	jw_arr_end(&w);
	jw_obj_begin(&w, "c");
	jw_obj_end(&w);
	jw_arr_begin(&w, "d");
	jw_arr_end(&w);
	jw_str(&w, "e\"", "\x01\x1f\"\\/\n\t\r\b\f\xc3\xa9");
	jw_obj_end(&w);
	is_str(b.p,
	       "{\n"
	       "  \"a\": 1,\n"
	       "  \"b\": [\n"
	       "    true,\n"
	       "    null\n"
	       "  ],\n"
	       "  \"c\": {},\n"
	       "  \"d\": [],\n"
	       "  \"e\\\"\": \"\\u0001\\u001f\\\"\\\\/\\n\\t\\r\\b\\f\xc3\xa9\"\n"
	       "}",
	       "layout: pretty print, escapes, no trailing newline");
	buf_free(&b);

	for (i = 0; i < sizeof(fmt) / sizeof(fmt[0]); i++) {
		jw_init(&w, &b);
		jw_num(&w, NULL, fmt[i].d);
		is_str(b.p, fmt[i].want, "layout: number -> %s", fmt[i].want);
		buf_free(&b);
	}

	jw_init(&w, &b);
	jw_int(&w, NULL, INT64_MIN);
	is_str(b.p, "-9223372036854775808", "layout: jw_int INT64_MIN");
	buf_free(&b);

	/* Invalid UTF-8 handed to the writer must not yield unparseable JSON. */
	jw_init(&w, &b);
	jw_str(&w, NULL, "a\xff" "b\xc3");
	is_str(b.p, "\"a\xef\xbf\xbd" "b\xef\xbf\xbd\"", "layout: invalid UTF-8 -> U+FFFD");
	buf_free(&b);

	/* Nesting beyond what the reader accepts flags the buffer. */
	jw_init(&w, &b);
	for (i = 0; i < 65; i++)
		jw_arr_begin(&w, NULL);
	for (i = 0; i < 65; i++)
		jw_arr_end(&w);
	ok(b.oom, "layout: writing depth 65 sets the buffer's failure flag");
	buf_free(&b);

	/* buf basics the writer relies on: growth past the first block and
	 * NUL termination. */
	for (i = 0; i < 100; i++)
		buf_printf(&b, "%04zu", i);
	ok(!b.oom && b.len == 400 && strlen(b.p) == 400 && !memcmp(b.p + 396, "0099", 4),
	   "buf: printf growth keeps content and terminator");
	buf_add(&b, b.p, 4);
	ok(b.len == 404 && !strcmp(b.p + 400, "0000"), "buf: appending from itself");
	buf_free(&b);
	buf_add(&b, "", 0);
	ok(b.p && b.p[0] == '\0' && b.len == 0, "buf: empty append yields empty string");
	buf_free(&b);
}

/* ------------------------------------------------- (b) malformed input */

static const struct bad {
	const char *in;
	size_t len;	/* 0: use strlen */
	size_t off;
	const char *what;
} bads[] = {
	{ "", 0, 0, "empty input" },
	{ "   \n\t", 0, 5, "only whitespace" },
	{ "{\"a\":1", 0, 6, "truncated object" },
	{ "[1,2", 0, 4, "truncated array" },
	{ "[", 0, 1, "lone '['" },
	{ "{\"a\":1,}", 0, 7, "trailing comma in object" },
	{ "[1,2,]", 0, 5, "trailing comma in array" },
	{ "[1,,2]", 0, 3, "double comma" },
	{ "{,}", 0, 1, "comma in empty object" },
	{ "01", 0, 1, "leading zero" },
	{ "-01", 0, 2, "leading zero after minus" },
	{ "1.", 0, 2, "no digits after '.'" },
	{ "1.e5", 0, 2, "no fraction digits before exponent" },
	{ ".5", 0, 0, "no integer part" },
	{ "-", 0, 1, "lone minus" },
	{ "[-]", 0, 2, "minus without digits in array" },
	{ "1e", 0, 2, "empty exponent" },
	{ "1e+", 0, 3, "signed empty exponent" },
	{ "+1", 0, 0, "leading plus" },
	{ "0x10", 0, 1, "hex number" },
	{ "NaN", 0, 0, "NaN" },
	{ "Infinity", 0, 0, "Infinity" },
	{ "-Infinity", 0, 1, "-Infinity" },
	{ "1e999", 0, 0, "overflow to +inf" },
	{ "[-1e999]", 0, 1, "overflow to -inf" },
	{ "'a'", 0, 0, "single quotes" },
	{ "\"a\tb\"", 0, 2, "raw tab in string" },
	{ "\"a\nb\"", 0, 2, "raw newline in string" },
	{ "\"a\0b\"", 5, 2, "raw NUL in string" },
	{ "1\0", 2, 1, "NUL after value" },
	{ "\"abc", 0, 4, "unterminated string" },
	{ "\"\\\"", 0, 3, "unterminated after escaped quote" },
	{ "\"\\x\"", 0, 2, "bad escape \\x" },
	{ "\"\\U0041\"", 0, 2, "bad escape \\U" },
	{ "\"\\u12g4\"", 0, 5, "bad hex digit in \\u" },
	{ "\"\\u00e\"", 0, 6, "short \\u escape" },
	{ "\"\\u0000\"", 0, 1, "\\u0000" },
	{ "\"\\ud800\"", 0, 1, "lone high surrogate" },
	{ "\"\\ud800", 0, 7, "truncated after high surrogate" },
	{ "\"\\ud800\\n\"", 0, 1, "high surrogate then other escape" },
	{ "\"\\ud800\\u0041\"", 0, 1, "high surrogate then non-surrogate" },
	{ "\"\\ud800\\ud800\"", 0, 1, "two high surrogates" },
	{ "\"\\udc00\"", 0, 1, "lone low surrogate" },
	{ "\"\xff\"", 0, 1, "byte 0xff" },
	{ "\"\x80\"", 0, 1, "stray continuation byte" },
	{ "\"\xc0\x80\"", 0, 1, "overlong NUL c0 80" },
	{ "\"\xc1\xbf\"", 0, 1, "overlong c1 bf" },
	{ "\"\xe0\x80\x80\"", 0, 2, "overlong 3-byte" },
	{ "\"\xf0\x80\x80\x80\"", 0, 2, "overlong 4-byte" },
	{ "\"\xed\xa0\x80\"", 0, 2, "UTF-8 encoded surrogate" },
	{ "\"\xf4\x90\x80\x80\"", 0, 2, "above U+10FFFF" },
	{ "\"\xf5\x80\x80\x80\"", 0, 1, "lead byte f5" },
	{ "\"\xe2\x82\"", 0, 3, "truncated UTF-8 sequence" },
	{ "\"\xe2\x82", 0, 3, "UTF-8 sequence cut by end of input" },
	{ "\xef\xbb\xbf{}", 0, 0, "byte order mark" },
	{ "{} x", 0, 3, "trailing garbage" },
	{ "1 2", 0, 2, "two values" },
	{ "{\"a\":1,\"a\":2}", 0, 7, "duplicate key" },
	{ "{\"\xc3\xa9\":1,\"\\u00e9\":2}", 0, 8, "duplicate key after unescaping" },
	{ "tru", 0, 3, "truncated true" },
	{ "nul", 0, 3, "truncated null" },
	{ "trUe", 0, 2, "misspelt true" },
	{ "True", 0, 0, "capitalised True" },
	{ "falsey", 0, 5, "literal with trailing letters" },
	{ "// c\n1", 0, 0, "line comment" },
	{ "[1 /* c */]", 0, 3, "block comment" },
	{ "{a:1}", 0, 1, "unquoted key" },
	{ "{1:1}", 0, 1, "number as key" },
	{ "{\"a\" 1}", 0, 5, "missing colon" },
	{ "{\"a\":}", 0, 5, "missing value" },
	{ "{\"a\":1 \"b\":2}", 0, 7, "missing comma in object" },
	{ "[1 2]", 0, 3, "missing comma in array" },
	{ "[1}", 0, 2, "mismatched bracket" },
	{ "\v1", 0, 0, "vertical tab is not whitespace" },
};

static void check_bad(const char *in, size_t len, size_t want_off, const char *what)
{
	size_t off = (size_t)-1;
	char err[128] = "";
	struct json *j = json_parse(in, len, &off, err, sizeof(err));

	if (!ok(j == NULL, "reject %s", what)) {
		json_free(j);
		return;
	}
	if (!is_int(off, want_off, "reject %s: offset", what))
		diag("message: %s", err);
	ok(err[0] != '\0', "reject %s: has a message (%s)", what, err);
}

/* n nested containers: "[[[...]]]" or "{"a":{"a":...1}}". */
static char *nest(int n, int objects)
{
	size_t cap = (size_t)n * 6 + 2, len = 0;
	char *s = malloc(cap);
	int i;

	if (!s)
		abort();
	for (i = 0; i < n; i++) {
		memcpy(s + len, objects ? "{\"a\":" : "[", objects ? 5 : 1);
		len += objects ? 5 : 1;
	}
	s[len++] = '1';
	for (i = 0; i < n; i++)
		s[len++] = objects ? '}' : ']';
	s[len] = '\0';
	return s;
}

static void test_bad(void)
{
	size_t i, off;
	char *s;
	struct json *j;

	for (i = 0; i < sizeof(bads) / sizeof(bads[0]); i++)
		check_bad(bads[i].in, bads[i].len ? bads[i].len : strlen(bads[i].in),
			  bads[i].off, bads[i].what);

	/* The 65th '[' is at offset 64. */
	s = nest(65, 0);
	check_bad(s, strlen(s), 64, "arrays nested 65 deep");
	free(s);
	/* Each level is '{"a":' (5 bytes), so the 65th '{' is at 320. */
	s = nest(65, 1);
	check_bad(s, strlen(s), 320, "objects nested 65 deep");
	free(s);

	/* A duplicate in an object big enough to use the hash set. */
	{
		struct buf b = { 0 };

		buf_puts(&b, "{");
		for (i = 0; i < 100; i++)
			buf_printf(&b, "\"k%zu\":%zu,", i, i);
		off = b.len;
		buf_puts(&b, "\"k37\":0}");
		check_bad(b.p, b.len, off, "duplicate key in a 100-member object");
		buf_free(&b);
	}

	/* Callers that do not care about the details may pass NULLs. */
	j = json_parse("[", 1, NULL, NULL, 0);
	ok(j == NULL, "reject with NULL err_off/err");
	j = json_parse(NULL, 0, &off, NULL, 0);
	ok(j == NULL && off == 0, "reject NULL text");
}

/* ---------------------------------------------------- (c) good input */

static const struct good {
	const char *in;
	enum json_type type;
	double num;		/* JSON_NUMBER: expected, bit-exact */
	const char *str;	/* JSON_STRING: expected bytes */
	const char *what;
} goods[] = {
	{ "\"\\u00e9\"", JSON_STRING, 0, "\xc3\xa9", "\\u00e9 -> 2-byte UTF-8" },
	{ "\"\\u20AC\"", JSON_STRING, 0, "\xe2\x82\xac", "\\u20AC -> 3-byte UTF-8" },
	{ "\"\\ud83d\\ude00\"", JSON_STRING, 0, "\xf0\x9f\x98\x80", "surrogate pair -> 4 bytes" },
	{ "\"\\uDBFF\\uDFFF\"", JSON_STRING, 0, "\xf4\x8f\xbf\xbf", "highest pair U+10FFFF" },
	{ "\"\\uffff\"", JSON_STRING, 0, "\xef\xbf\xbf", "\\uffff (noncharacter is fine)" },
	{ "\"\xf4\x8f\xbf\xbf\xf0\x90\x80\x80\xe0\xa0\x80\xc2\x80\"", JSON_STRING, 0,
	  "\xf4\x8f\xbf\xbf\xf0\x90\x80\x80\xe0\xa0\x80\xc2\x80", "raw UTF-8 boundary values" },
	{ "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", JSON_STRING, 0, "\"\\/\b\f\n\r\t", "all short escapes" },
	{ "\"\x7f\"", JSON_STRING, 0, "\x7f", "raw DEL is not a control char" },
	{ "\"\"", JSON_STRING, 0, "", "empty string" },
	{ " \t\r\n\"ws\" \t\r\n", JSON_STRING, 0, "ws", "whitespace around" },
	{ "-0", JSON_NUMBER, -0.0, NULL, "-0 keeps its sign" },
	{ "-0.0e-0", JSON_NUMBER, -0.0, NULL, "-0.0e-0" },
	{ "1E+2", JSON_NUMBER, 100, NULL, "1E+2" },
	{ "1e-2", JSON_NUMBER, 0.01, NULL, "1e-2" },
	{ "0", JSON_NUMBER, 0, NULL, "0" },
	{ "123.456e7", JSON_NUMBER, 123.456e7, NULL, "123.456e7" },
	{ "1e-400", JSON_NUMBER, 0, NULL, "underflow rounds to 0" },
	{ "1.7976931348623157e308", JSON_NUMBER, DBL_MAX, NULL, "DBL_MAX" },
	{ "123456789012345678901234567890", JSON_NUMBER, 123456789012345678901234567890.0,
	  NULL, "long integer" },
	{ "0.1000000000000000000000000000000000000000000000000000000000000000000001",
	  JSON_NUMBER, 0.1, NULL, "number longer than the stack buffer" },
	{ "true", JSON_BOOL, 0, NULL, "true" },
	{ "false", JSON_BOOL, 0, NULL, "false" },
	{ "null", JSON_NULL, 0, NULL, "null" },
	{ "[]", JSON_ARRAY, 0, NULL, "empty array" },
	{ " { } ", JSON_OBJECT, 0, NULL, "empty object with spaces" },
	{ "{\"\":1,\"a\":2,\"A\":3}", JSON_OBJECT, 0, NULL, "empty key, case-distinct keys" },
	{ "[ 1 , [ ] , { \"a\" : null } ]", JSON_ARRAY, 0, NULL, "spaces everywhere" },
};

static void test_good(void)
{
	size_t i;
	struct json *j;
	char *s;

	for (i = 0; i < sizeof(goods) / sizeof(goods[0]); i++) {
		const struct good *g = &goods[i];

		j = parse_str(g->in);
		if (!ok(j && j->type == g->type, "accept %s", g->what)) {
			json_free(j);
			continue;
		}
		if (g->type == JSON_NUMBER && !ok(same_double(j->number, g->num),
						  "accept %s: value", g->what))
			diag("got %.17g want %.17g", j->number, g->num);
		if (g->type == JSON_STRING)
			is_str(j->string, g->str, "accept %s: value", g->what);
		json_free(j);
	}

	j = parse_str("true");
	ok(j && j->boolean == 1, "true decodes to 1");
	json_free(j);

	s = nest(64, 0);
	j = parse_str(s);
	ok(j != NULL, "arrays nested 64 deep accepted");
	json_free(j);
	free(s);
	s = nest(64, 1);
	j = parse_str(s);
	ok(j != NULL, "objects nested 64 deep accepted");
	json_free(j);
	free(s);

	/* A large object goes through the hash-set path without false hits. */
	{
		struct buf b = { 0 };

		buf_puts(&b, "{");
		for (i = 0; i < 1000; i++)
			buf_printf(&b, "%s\"k%zu\":%zu", i ? "," : "", i, i);
		buf_puts(&b, "}");
		j = parse_str(b.p);
		ok(j && j->n == 1000 && json_get_num(j, "k999", -1) == 999,
		   "1000-member object accepted");
		json_free(j);
		buf_free(&b);
	}
}

/* ------------------------------------------------------ (d) lookups */

static void test_get(void)
{
	struct json *j = parse_str("{\"s\":\"x\",\"n\":2.5,\"b\":true,\"z\":null,"
				   "\"o\":{\"k\":\"v\"},\"a\":[1]}");
	struct json *arr = parse_str("[\"s\"]");
	const struct json *o;

	if (!ok(j && arr, "lookup fixtures parse")) {
		json_free(j);
		json_free(arr);
		return;
	}
	o = json_get(j, "o");
	ok(o && o->type == JSON_OBJECT, "json_get finds a nested object");
	is_str(json_get_str(o, "k", NULL), "v", "json_get_str on nested object");
	ok(json_get(j, "missing") == NULL, "json_get: absent key -> NULL");
	ok(json_get(j, "S") == NULL, "json_get: keys are case-sensitive");
	ok(json_get(NULL, "s") == NULL, "json_get: NULL object -> NULL");
	ok(json_get(arr, "s") == NULL, "json_get: array is not an object");
	ok(json_get(json_get(j, "s"), "s") == NULL, "json_get: string is not an object");
	ok(json_get(json_get(j, "z"), "s") == NULL, "json_get: null is not an object");
	is_str(json_get_str(j, "s", "fb"), "x", "json_get_str: string");
	is_str(json_get_str(j, "n", "fb"), "fb", "json_get_str: number -> fallback");
	is_str(json_get_str(j, "z", "fb"), "fb", "json_get_str: null -> fallback");
	is_str(json_get_str(j, "missing", "fb"), "fb", "json_get_str: absent -> fallback");
	ok(json_get_str(j, "missing", NULL) == NULL, "json_get_str: NULL fallback");
	ok(json_get_num(j, "n", -1) == 2.5, "json_get_num: number");
	ok(json_get_num(j, "s", -1) == -1, "json_get_num: string -> fallback");
	ok(json_get_num(j, "b", -1) == -1, "json_get_num: bool -> fallback");
	ok(json_get_num(j, "a", -1) == -1, "json_get_num: array -> fallback");
	ok(json_get_num(j, "missing", 7) == 7, "json_get_num: absent -> fallback");
	ok(json_get_num(NULL, "n", 7) == 7, "json_get_num: NULL object -> fallback");
	json_free(j);
	json_free(arr);
}

int main(void)
{
	test_roundtrip();
	test_layout();
	test_bad();
	test_good();
	test_get();
	return done_testing();
}
