/* json.c — strict RFC 8259 reader into a tree, and a pretty-printing writer.
 *
 * Reader method: a recursive-descent parser over an explicit (text, len)
 * byte range (so embedded NULs are seen and rejected, never silently end the
 * input). Recursion depth is bounded by JSON_MAX_DEPTH, so stack use is too.
 * Every rejection records the byte offset of the first byte that cannot be
 * part of a valid document: for input that simply stops early that is the
 * input length; for "{\"a\":1,}" it is the '}'. Numbers are checked against
 * the RFC grammar by hand and only then given to strtod(), because strtod()
 * alone accepts far more ("0x1p3", "inf", " 1", "1.") than JSON does.
 * Strings are decoded into fresh UTF-8; raw bytes are validated as
 * well-formed UTF-8 (no overlongs, no encoded surrogates, nothing past
 * U+10FFFF) and \u escapes must pair surrogates correctly.
 *
 * Writer method: appends to a struct buf, tracking per nesting level whether
 * a member was already written so commas and newlines go in the right place.
 * Doubles are printed with %.15g when that reads back to the same value and
 * %.17g (always exact) otherwise, giving short output for "nice" numbers.
 */
#include "json.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 64

/* ---------------------------------------------------------------- UTF-8 */

/* Unicode table 3-7, the well-formed UTF-8 byte sequences: a lead byte in
 * first..last starts a sequence of need bytes whose second byte is in
 * lo..hi and the rest in 80..BF. What it leaves out is malformed: overlongs
 * (C0, C1, E0 80..9F, F0 80..8F), UTF-16 surrogates (ED A0..BF) and code
 * points over U+10FFFF (F4 90.., F5..FF). */
static const struct {
	unsigned char first, last, need, lo, hi;
} utf8_table[] = {
	{ 0xc2, 0xdf, 2, 0x80, 0xbf },
	{ 0xe0, 0xe0, 3, 0xa0, 0xbf },
	{ 0xe1, 0xec, 3, 0x80, 0xbf },
	{ 0xed, 0xed, 3, 0x80, 0x9f },
	{ 0xee, 0xef, 3, 0x80, 0xbf },
	{ 0xf0, 0xf0, 4, 0x90, 0xbf },
	{ 0xf1, 0xf3, 4, 0x80, 0xbf },
	{ 0xf4, 0xf4, 4, 0x80, 0x8f },
};

/* Length of the well-formed UTF-8 sequence at s (at most avail bytes), or 0
 * if it is malformed, in which case *bad is the offset of the first byte that
 * breaks it (== avail when the input ends mid-sequence). */
static size_t utf8_seq(const unsigned char *s, size_t avail, size_t *bad)
{
	const size_t rows = sizeof(utf8_table) / sizeof(utf8_table[0]);
	size_t r, i;

	if (s[0] < 0x80)
		return 1;
	for (r = 0; r < rows; r++)
		if (s[0] >= utf8_table[r].first && s[0] <= utf8_table[r].last)
			break;
	if (r == rows) {
		*bad = 0;
		return 0;
	}
	for (i = 1; i < utf8_table[r].need; i++) {
		unsigned char lo = i == 1 ? utf8_table[r].lo : 0x80, hi = i == 1 ? utf8_table[r].hi : 0xbf;

		if (i >= avail || s[i] < lo || s[i] > hi) {
			*bad = i < avail ? i : avail;
			return 0;
		}
	}
	return utf8_table[r].need;
}

static void utf8_put(struct buf *b, unsigned long cp)
{
	char u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | (cp >> 6));
		u[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | (cp >> 12));
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | (cp >> 18));
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	buf_add(b, u, n);
}

/* --------------------------------------------------------------- reader */

struct parser {
	const unsigned char *s;
	size_t len, pos;
	size_t err_off;
	const char *err;	/* first error wins; NULL while all is well */
	/* json_parse_each: the root object's array member each_key */
	const char *each_key;
	int (*each)(const struct json *elem, void *ctx);
	void *ctx;
	/* json_parse_each_lean: members of these names holding a flat array
	 * of numbers are checked but not kept (an empty array stands in) */
	const char *const *lean;
};

static const char each_failed[] = "(the element's reader failed)";

static int fail_at(struct parser *p, size_t off, const char *msg)
{
	if (!p->err) {
		p->err = msg;
		p->err_off = off;
	}
	return -1;
}

static int fail_eof(struct parser *p)
{
	return fail_at(p, p->len, "unexpected end of input");
}

/* Fail at the current position, but report running off the end of the
 * input as such: that is what the user needs to hear about a truncated file. */
static int fail(struct parser *p, const char *msg)
{
	if (p->pos >= p->len)
		return fail_eof(p);
	return fail_at(p, p->pos, msg);
}

static void skip_ws(struct parser *p)
{
	while (p->pos < p->len) {
		unsigned char c = p->s[p->pos];

		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		p->pos++;
	}
}

static int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static int peek_digit(const struct parser *p)
{
	return p->pos < p->len && is_digit(p->s[p->pos]);
}

static struct json *node_new(struct parser *p, enum json_type type)
{
	struct json *j = calloc(1, sizeof(*j));

	if (!j) {
		fail(p, "out of memory");
	} else {
		j->type = type;
		j->off = p->pos;	/* every node is made at its first byte */
	}
	return j;
}

static int parse_value(struct parser *p, struct json **out, int depth);
static int parse_array(struct parser *p, struct json *arr, int depth, int each);

static int parse_literal(struct parser *p, const char *lit)
{
	size_t i;

	for (i = 0; lit[i]; i++, p->pos++) {
		if (p->pos >= p->len || p->s[p->pos] != (unsigned char)lit[i])
			return fail(p, "invalid literal");
	}
	return 0;
}

static int parse_number(struct parser *p, double *out)
{
	size_t start = p->pos, n;
	char small[64], *tmp;
	double d;

	if (p->s[p->pos] == '-')
		p->pos++;
	if (!peek_digit(p))
		return fail(p, "expected digit");
	if (p->s[p->pos] == '0') {
		p->pos++;
		if (peek_digit(p))
			return fail(p, "leading zeros are not allowed");
	} else {
		while (peek_digit(p))
			p->pos++;
	}
	if (p->pos < p->len && p->s[p->pos] == '.') {
		p->pos++;
		if (!peek_digit(p))
			return fail(p, "expected digit after '.'");
		while (peek_digit(p))
			p->pos++;
	}
	if (p->pos < p->len && (p->s[p->pos] == 'e' || p->s[p->pos] == 'E')) {
		p->pos++;
		if (p->pos < p->len && (p->s[p->pos] == '+' || p->s[p->pos] == '-'))
			p->pos++;
		if (!peek_digit(p))
			return fail(p, "expected digit in exponent");
		while (peek_digit(p))
			p->pos++;
	}

	if (!out)	/* a lean array's: its syntax checked, its value not needed */
		return 0;
	/* The input need not be NUL-terminated, and strtod() must not read
	 * past the token, so convert a terminated copy. Any length of digits
	 * is legal JSON; only long ones pay for a malloc. The program never
	 * calls setlocale(), so strtod() runs in the "C" locale and '.' is
	 * the radix character as JSON requires. */
	n = p->pos - start;
	tmp = n < sizeof(small) ? small : malloc(n + 1);
	if (!tmp)
		return fail_at(p, start, "out of memory");
	memcpy(tmp, p->s + start, n);
	tmp[n] = '\0';
	d = strtod(tmp, NULL);
	if (tmp != small)
		free(tmp);
	/* Underflow to 0 or a subnormal is a fine approximation; overflow to
	 * infinity is not a value JSON can represent. */
	if (isinf(d))
		return fail_at(p, start, "number out of range");
	*out = d;
	return 0;
}

static int parse_hex4(struct parser *p, unsigned long *cp)
{
	unsigned long v = 0;
	int i;

	for (i = 0; i < 4; i++, p->pos++) {
		unsigned char c;

		if (p->pos >= p->len)
			return fail_eof(p);
		c = p->s[p->pos];
		if (c >= '0' && c <= '9')
			v = v * 16 + (c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v = v * 16 + (c - 'A' + 10);
		else
			return fail(p, "invalid hex digit in \\u escape");
	}
	*cp = v;
	return 0;
}

/* p->pos is just past the backslash of a \u escape starting at esc. */
static int parse_u_escape(struct parser *p, struct buf *b, size_t esc)
{
	unsigned long cp, lo;

	p->pos++;	/* the 'u' */
	if (parse_hex4(p, &cp) < 0)
		return -1;
	if (cp == 0)
		return fail_at(p, esc, "\\u0000 is not allowed in strings");
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return fail_at(p, esc, "unpaired low surrogate");
	if (cp >= 0xd800 && cp <= 0xdbff) {
		/* A high surrogate is only meaningful as the first half of a
		 * pair; point at it, not at whatever follows, because it is
		 * the escape the author got wrong. */
		if (p->pos >= p->len || (p->s[p->pos] == '\\' && p->pos + 1 >= p->len))
			return fail_eof(p);
		if (p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u')
			return fail_at(p, esc, "unpaired high surrogate");
		p->pos += 2;
		if (parse_hex4(p, &lo) < 0)
			return -1;
		if (lo < 0xdc00 || lo > 0xdfff)
			return fail_at(p, esc, "unpaired high surrogate");
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	utf8_put(b, cp);
	return 0;
}

/* Parse the string starting at the '"' at p->pos; returns a malloc'ed
 * NUL-terminated UTF-8 copy in *out. */
static int parse_string(struct parser *p, char **out)
{
	struct buf b = { 0 };

	p->pos++;	/* opening quote */
	for (;;) {
		size_t run = p->pos, n, bad, esc;
		const char *rep;
		unsigned char c;

		/* Copy plain ASCII in runs rather than byte by byte. */
		while (p->pos < p->len) {
			c = p->s[p->pos];
			if (c < 0x20 || c == '"' || c == '\\' || c >= 0x80)
				break;
			p->pos++;
		}
		buf_add(&b, (const char *)p->s + run, p->pos - run);
		if (p->pos >= p->len) {
			fail_eof(p);
			goto err;
		}
		c = p->s[p->pos];
		if (c == '"') {
			p->pos++;
			break;
		} else if (c < 0x20) {
			fail(p, "control character in string");
			goto err;
		} else if (c >= 0x80) {
			n = utf8_seq(p->s + p->pos, p->len - p->pos, &bad);
			if (!n) {
				p->pos += bad;
				fail(p, "invalid UTF-8");
				goto err;
			}
			buf_add(&b, (const char *)p->s + p->pos, n);
			p->pos += n;
			continue;
		}

		/* Backslash escape. */
		esc = p->pos++;

		if (p->pos >= p->len) {
			fail_eof(p);
			goto err;
		}
		switch (p->s[p->pos]) {
		case '"': rep = "\""; break;
		case '\\': rep = "\\"; break;
		case '/': rep = "/"; break;
		case 'b': rep = "\b"; break;
		case 'f': rep = "\f"; break;
		case 'n': rep = "\n"; break;
		case 'r': rep = "\r"; break;
		case 't': rep = "\t"; break;
		case 'u':
			if (parse_u_escape(p, &b, esc) < 0)
				goto err;
			continue;
		default:
			fail(p, "invalid escape");
			goto err;
		}
		buf_add(&b, rep, 1);
		p->pos++;
	}
	buf_add(&b, "", 0);	/* make sure an empty string is allocated */
	if (b.oom) {
		fail(p, "out of memory");
		goto err;
	}
	*out = b.p;
	return 0;
err:
	buf_free(&b);
	return -1;
}

/* Grow a container's items (and keys, for objects) to hold one more. */
static int grow(struct parser *p, struct json *j, size_t *cap)
{
	size_t ncap;
	void *np;

	if (j->n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 4;
	if (ncap > SIZE_MAX / sizeof(void *))
		return fail(p, "out of memory");
	np = realloc(j->items, ncap * sizeof(*j->items));
	if (!np)
		return fail(p, "out of memory");
	j->items = np;
	if (j->type == JSON_OBJECT) {
		np = realloc(j->keys, ncap * sizeof(*j->keys));
		if (!np)
			return fail(p, "out of memory");
		j->keys = np;
	}
	*cap = ncap;
	return 0;
}

/* Duplicate-key detection. Small objects (the common case) are scanned
 * linearly; past KEYSET_LINEAR members an open-addressing hash set of member
 * indices takes over so a huge object does not cost O(n^2) comparisons. */
#define KEYSET_LINEAR 16

struct keyset {
	size_t *slot;	/* member index + 1; 0 = empty */
	size_t cap;	/* power of two */
};

static size_t key_hash(const char *k)
{
	size_t h = (size_t)14695981039346656037ULL;	/* FNV-1a */

	while (*k)
		h = (h ^ (unsigned char)*k++) * (size_t)1099511628211ULL;
	return h;
}

static void keyset_insert(struct keyset *ks, const struct json *obj, size_t idx)
{
	size_t i = key_hash(obj->keys[idx]) & (ks->cap - 1);

	while (ks->slot[i])
		i = (i + 1) & (ks->cap - 1);
	ks->slot[i] = idx + 1;
}

/* Returns 1 if key already present among obj's first obj->n members, 0 if
 * not, -1 on allocation failure. Does not insert. */
static int key_seen(struct keyset *ks, const struct json *obj, const char *key)
{
	size_t i;

	if (obj->n < KEYSET_LINEAR) {
		for (i = 0; i < obj->n; i++)	/* the first byte spares most calls */
			if (obj->keys[i][0] == key[0] && !strcmp(obj->keys[i], key))
				return 1;
		return 0;
	}
	/* Keep load factor <= 1/2; rebuild from scratch when growing. */
	if (obj->n * 2 >= ks->cap) {
		size_t ncap = ks->cap ? ks->cap : 2 * KEYSET_LINEAR;
		size_t *ns;

		while (obj->n * 2 >= ncap) {
			if (ncap > SIZE_MAX / 2 / sizeof(size_t))
				return -1;
			ncap *= 2;
		}
		ns = calloc(ncap, sizeof(size_t));
		if (!ns)
			return -1;
		free(ks->slot);
		ks->slot = ns;
		ks->cap = ncap;
		for (i = 0; i < obj->n; i++)
			keyset_insert(ks, obj, i);
	}
	for (i = key_hash(key) & (ks->cap - 1); ks->slot[i]; i = (i + 1) & (ks->cap - 1))
		if (!strcmp(obj->keys[ks->slot[i] - 1], key))
			return 1;
	return 0;
}

/* p->pos on a '[' or '{': steps in; 1 when the container is empty (p->pos
 * past its close), else 0. */
static int open_list(struct parser *p, char close)
{
	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == close) {
		p->pos++;
		return 1;
	}
	return 0;
}

/* After a member of a container: 1 on ',' (another member follows), 0 on
 * its close (p->pos past it), -1 on anything else. */
static int next_in_list(struct parser *p, char close)
{
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == ',') {
		p->pos++;
		return 1;
	}
	if (p->pos < p->len && p->s[p->pos] == close) {
		p->pos++;
		return 0;
	}
	return fail(p, close == ']' ? "expected ',' or ']'" : "expected ',' or '}'");
}

/* A lean member's value when it is a flat array of numbers: checked, not
 * kept. 1 when it was one (p->pos after it), 0 when it holds anything else
 * (p->pos back at its '['), -1 on a syntax error. */
static int skip_numbers(struct parser *p)
{
	size_t start = p->pos;
	int more;

	if (open_list(p, ']'))
		return 1;
	do {
		unsigned char c;

		skip_ws(p);
		c = p->pos < p->len ? p->s[p->pos] : 0;
		if (!(c == '-' || (c >= '0' && c <= '9'))) {
			p->pos = start;
			return 0;
		}
		if (parse_number(p, NULL) < 0)
			return -1;
	} while ((more = next_in_list(p, ']')) > 0);
	return more < 0 ? -1 : 1;
}

static int is_lean(const struct parser *p, const char *key)
{
	for (size_t i = 0; p->lean && p->lean[i]; i++)
		if (p->lean[i][0] == key[0] && !strcmp(p->lean[i], key))
			return 1;
	return 0;
}

static int parse_object(struct parser *p, struct json *obj, int depth)
{
	struct keyset ks = { NULL, 0 };
	size_t cap = 0;
	int ret = -1;

	if (open_list(p, '}'))
		return 0;
	for (;;) {
		size_t key_off;
		char *key;
		int seen;

		skip_ws(p);
		if (p->pos >= p->len || p->s[p->pos] != '"') {
			fail(p, "expected string key");
			goto out;
		}
		key_off = p->pos;
		if (parse_string(p, &key) < 0)
			goto out;
		seen = key_seen(&ks, obj, key);
		if (seen) {
			free(key);
			if (seen < 0)
				fail_at(p, key_off, "out of memory");
			else
				fail_at(p, key_off, "duplicate key");
			goto out;
		}
		if (grow(p, obj, &cap) < 0) {
			free(key);
			goto out;
		}
		/* Link the member in before parsing its value, so that on
		 * any later failure json_free() releases the key too. */
		obj->keys[obj->n] = key;
		obj->items[obj->n] = NULL;
		obj->n++;
		if (ks.cap)
			keyset_insert(&ks, obj, obj->n - 1);

		skip_ws(p);
		if (p->pos >= p->len || p->s[p->pos] != ':') {
			fail(p, "expected ':'");
			goto out;
		}
		p->pos++;
		if (depth == 1 && p->each && strcmp(key, p->each_key) == 0) {
			skip_ws(p);
			if (p->pos < p->len && p->s[p->pos] == '[') {
				struct json *arr = node_new(p, JSON_ARRAY);

				obj->items[obj->n - 1] = arr;
				if (!arr || parse_array(p, arr, depth + 1, 1) < 0)
					goto out;
				goto next;
			}
		}
		if (is_lean(p, key)) {
			int r;

			skip_ws(p);
			if (p->pos < p->len && p->s[p->pos] == '[') {
				size_t at = p->pos;

				if ((r = skip_numbers(p)) < 0)
					goto out;
				if (r > 0) {
					if (!(obj->items[obj->n - 1] = node_new(p, JSON_ARRAY)))
						goto out;
					obj->items[obj->n - 1]->off = at;
					goto next;
				}
			}
		}
		if (parse_value(p, &obj->items[obj->n - 1], depth) < 0)
			goto out;
next:
		if ((ret = next_in_list(p, '}')) <= 0)
			break;
		ret = -1;	/* until the object closes */
	}
out:
	free(ks.slot);
	return ret;
}

/* An array into arr; with each (json_parse_each's array), every element
 * is handed to p->each as soon as it is parsed and freed at once, so a
 * huge array never stands in memory as a tree (arr stays empty). */
static int parse_array(struct parser *p, struct json *arr, int depth, int each)
{
	size_t cap = 0;

	if (open_list(p, ']'))
		return 0;
	for (;;) {
		struct json *e = NULL, **slot = &e;
		int rc;

		if (!each) {
			if (grow(p, arr, &cap) < 0)
				return -1;
			arr->items[arr->n] = NULL;
			slot = &arr->items[arr->n++];
		}
		rc = parse_value(p, slot, depth);
		if (each && rc == 0 && p->each(e, p->ctx) < 0)
			rc = fail_at(p, e->off, each_failed);
		json_free(e);	/* NULL unless each */
		if (rc < 0 || (rc = next_in_list(p, ']')) < 0)
			return -1;
		if (rc == 0)
			return 0;
	}
}

/* depth = number of containers already open around this value. */
static int parse_value(struct parser *p, struct json **out, int depth)
{
	struct json *j;

	skip_ws(p);
	if (p->pos >= p->len)
		return fail_eof(p);

	switch (p->s[p->pos]) {
	case '{':
	case '[':
		if (depth >= JSON_MAX_DEPTH)
			return fail(p, "nesting too deep");
		j = node_new(p, p->s[p->pos] == '{' ? JSON_OBJECT : JSON_ARRAY);
		if (!j)
			return -1;
		*out = j;	/* owned by the caller from here on, even on error */
		if (j->type == JSON_OBJECT)
			return parse_object(p, j, depth + 1);
		return parse_array(p, j, depth + 1, 0);
	case '"':
		if (!(j = node_new(p, JSON_STRING)))
			return -1;
		*out = j;
		return parse_string(p, &j->string);
	case 't':
	case 'f':
		if (!(j = node_new(p, JSON_BOOL)))
			return -1;
		*out = j;
		j->boolean = p->s[p->pos] == 't';
		return parse_literal(p, j->boolean ? "true" : "false");
	case 'n':
		if (!(j = node_new(p, JSON_NULL)))
			return -1;
		*out = j;
		return parse_literal(p, "null");
	default:
		if (p->s[p->pos] != '-' && !is_digit(p->s[p->pos]))
			return fail(p, "expected a value");
		if (!(j = node_new(p, JSON_NUMBER)))
			return -1;
		*out = j;
		return parse_number(p, &j->number);
	}
}

static struct json *parse_root(struct parser *p, size_t *err_off, char *err, size_t errlen);

struct json *json_parse(const char *text, size_t len, size_t *err_off, char *err, size_t errlen)
{
	struct parser p = { (const unsigned char *)text, text ? len : 0, 0, 0, NULL, NULL, NULL, NULL, NULL };

	return parse_root(&p, err_off, err, errlen);
}

struct json *json_parse_each_lean(const char *text, size_t len, const char *key,
				  int (*each)(const struct json *elem, void *ctx), void *ctx,
				  const char *const *lean, int *each_failed_, size_t *err_off, char *err,
				  size_t errlen)
{
	struct parser p = { (const unsigned char *)text, text ? len : 0, 0, 0, NULL, key, each, ctx, lean };
	struct json *root = parse_root(&p, err_off, err, errlen);

	*each_failed_ = !root && p.err == each_failed;
	return root;
}

struct json *json_parse_each(const char *text, size_t len, const char *key,
			     int (*each)(const struct json *elem, void *ctx), void *ctx, int *each_failed_,
			     size_t *err_off, char *err, size_t errlen)
{
	return json_parse_each_lean(text, len, key, each, ctx, NULL, each_failed_, err_off, err, errlen);
}

static struct json *parse_root(struct parser *p_, size_t *err_off, char *err, size_t errlen)
{
	struct parser p = *p_;
	struct json *root = NULL;

	if (parse_value(&p, &root, 0) == 0) {
		skip_ws(&p);
		if (p.pos < p.len)
			fail(&p, "unexpected data after the value");
	}
	if (p.err) {
		json_free(root);
		*p_ = p;
		if (p.err == each_failed)
			return NULL;	/* the element's reader said why */
		if (err_off)
			*err_off = p.err_off;
		if (err && errlen)
			snprintf(err, errlen, "%s", p.err);
		return NULL;
	}
	if (err_off)
		*err_off = 0;
	if (err && errlen)
		err[0] = '\0';
	return root;
}

void json_free(struct json *j)
{
	size_t i;

	if (!j)
		return;
	for (i = 0; i < j->n; i++) {
		json_free(j->items[i]);
		if (j->keys)
			free(j->keys[i]);
	}
	free(j->items);
	free(j->keys);
	free(j->string);
	free(j);
}

const struct json *json_get(const struct json *obj, const char *key)
{
	size_t i;

	if (!obj || obj->type != JSON_OBJECT || !key)
		return NULL;
	for (i = 0; i < obj->n; i++)	/* the first byte spares most calls */
		if (obj->keys[i][0] == key[0] && !strcmp(obj->keys[i], key))
			return obj->items[i];
	return NULL;
}

const char *json_get_str(const struct json *obj, const char *key, const char *fallback)
{
	const struct json *v = json_get(obj, key);

	return v && v->type == JSON_STRING ? v->string : fallback;
}

double json_get_num(const struct json *obj, const char *key, double fallback)
{
	const struct json *v = json_get(obj, key);

	return v && v->type == JSON_NUMBER ? v->number : fallback;
}

/* --------------------------------------------------------------- writer */

/* Write s as a JSON string literal. Bytes that are not well-formed UTF-8
 * become U+FFFD: passing them through would produce a document that this
 * very parser (and any strict one) rejects, and captured program output is
 * exactly the kind of text that contains stray bytes. */
static void put_string(struct buf *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t avail = strlen(str);

	buf_add(b, "\"", 1);
	while (avail) {
		size_t run = 0, n, bad;
		unsigned char c;

		while (run < avail && s[run] >= 0x20 && s[run] < 0x80 &&
		       s[run] != '"' && s[run] != '\\')
			run++;
		buf_add(b, (const char *)s, run);
		s += run;
		avail -= run;
		if (!avail)
			break;

		c = *s;
		if (c >= 0x80) {
			n = utf8_seq(s, avail, &bad);
			if (n) {
				buf_add(b, (const char *)s, n);
			} else {
				buf_add(b, "\xef\xbf\xbd", 3);
				n = bad ? bad : 1;
			}
			s += n;
			avail -= n;
			continue;
		}
		switch (c) {
		case '"': buf_add(b, "\\\"", 2); break;
		case '\\': buf_add(b, "\\\\", 2); break;
		case '\n': buf_add(b, "\\n", 2); break;
		case '\t': buf_add(b, "\\t", 2); break;
		case '\r': buf_add(b, "\\r", 2); break;
		case '\b': buf_add(b, "\\b", 2); break;
		case '\f': buf_add(b, "\\f", 2); break;
		default: buf_printf(b, "\\u%04x", c); break;
		}
		s++;
		avail--;
	}
	buf_add(b, "\"", 1);
}

static void indent(struct buf *b, int depth)
{
	static const char spaces[] = "                                ";
	size_t n = (size_t)depth * 2;

	while (n) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;

		buf_add(b, spaces, k);
		n -= k;
	}
}

/* Index into w->first[] for the current depth; clamped so misuse (too deep,
 * or more ends than begins) can never write outside the array. */
static int level(const struct jw *w)
{
	if (w->depth < 0)
		return 0;
	return w->depth < JSON_MAX_DEPTH ? w->depth : JSON_MAX_DEPTH;
}

/* Everything that precedes a value: separator, newline, indent, key. */
static void member(struct jw *w, const char *key)
{
	if (w->depth > 0) {
		if (!w->first[level(w)])
			buf_add(w->out, ",", 1);
		if (!w->compact) {
			buf_add(w->out, "\n", 1);
			indent(w->out, w->depth);
		}
		w->first[level(w)] = 0;
	}
	if (key) {
		put_string(w->out, key);
		buf_add(w->out, w->compact ? ":" : ": ", w->compact ? 1 : 2);
	}
}

static void container_open(struct jw *w, const char *key, char c)
{
	member(w, key);
	buf_add(w->out, &c, 1);
	/* The reader refuses documents nested deeper than 64, so writing one
	 * would only produce a file we cannot load back. There is no error
	 * return here; the buffer's sticky failure flag is the channel every
	 * caller already checks. */
	if (w->depth >= JSON_MAX_DEPTH)
		w->out->oom = 1;
	w->depth++;
	w->first[level(w)] = 1;
}

static void container_close(struct jw *w, char c)
{
	int had_members = !w->first[level(w)];

	w->depth--;
	if (had_members && !w->compact) {
		buf_add(w->out, "\n", 1);
		indent(w->out, w->depth > 0 ? w->depth : 0);
	}
	buf_add(w->out, &c, 1);
}

void jw_init(struct jw *w, struct buf *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
	w->first[0] = 1;
}

void jw_obj_begin(struct jw *w, const char *key)
{
	container_open(w, key, '{');
}

void jw_obj_end(struct jw *w)
{
	container_close(w, '}');
}

void jw_arr_begin(struct jw *w, const char *key)
{
	container_open(w, key, '[');
}

void jw_arr_end(struct jw *w)
{
	container_close(w, ']');
}

void jw_str(struct jw *w, const char *key, const char *val)
{
	member(w, key);
	if (val)
		put_string(w->out, val);
	else
		buf_add(w->out, "null", 4);
}

void jw_num(struct jw *w, const char *key, double val)
{
	char tmp[32];

	member(w, key);
	if (!isfinite(val)) {
		buf_add(w->out, "null", 4);
		return;
	}
	/* %.17g always round-trips an IEEE double but prints 0.1 as
	 * 0.10000000000000001; %.15g is exact for most human-made values.
	 * Try the short form first and keep it only if it reads back equal. */
	snprintf(tmp, sizeof(tmp), "%.15g", val);
	if (strtod(tmp, NULL) != val)
		snprintf(tmp, sizeof(tmp), "%.17g", val);
	buf_puts(w->out, tmp);
}

void jw_int(struct jw *w, const char *key, int64_t val)
{
	member(w, key);
	buf_printf(w->out, "%" PRId64, val);
}

void jw_bool(struct jw *w, const char *key, int val)
{
	member(w, key);
	if (val)
		buf_add(w->out, "true", 4);
	else
		buf_add(w->out, "false", 5);
}

void jw_null(struct jw *w, const char *key)
{
	member(w, key);
	buf_add(w->out, "null", 4);
}
