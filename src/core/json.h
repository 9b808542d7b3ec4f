/* json.h — JSON writer (into a struct buf) and strict RFC 8259 reader (into a tree). */
#ifndef BAKEOFF_JSON_H
#define BAKEOFF_JSON_H
#include <stddef.h>
#include <stdint.h>
#include "buf.h"

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	int boolean;		/* JSON_BOOL */
	double number;		/* JSON_NUMBER */
	char *string;		/* JSON_STRING: UTF-8, NUL-terminated (embedded \u0000 rejected) */
	size_t n;		/* JSON_ARRAY / JSON_OBJECT: member count */
	struct json **items;	/* members, in document order */
	char **keys;		/* JSON_OBJECT: keys parallel to items; NULL for arrays */
	size_t off;		/* byte offset of the value in the parsed text */
};

/* Parse exactly one JSON value (surrounding whitespace allowed, nothing else).
 * Strict: no comments, no trailing commas, no NaN/Infinity, no leading zeros,
 * no control characters in strings, valid escapes and UTF-8 only, surrogate
 * pairs checked, duplicate object keys rejected, nesting depth <= 64.
 * On error returns NULL, sets *err_off to the byte offset of the problem and
 * writes a short message ("expected ',' or '}'") into err. */
struct json *json_parse(const char *text, size_t len, size_t *err_off, char *err, size_t errlen);
/* The same, but the root object's array member `key` is not kept: each of
 * its elements is handed to each() as soon as it is parsed, then freed (the
 * tree holds the member as an empty array), so reading a file costs its
 * text plus one element's tree, not a tree of the whole. When each()
 * returns -1, parsing stops, NULL is returned with *each_failed set, and
 * err is left as each() left its own message. */
struct json *json_parse_each(const char *text, size_t len, const char *key,
			     int (*each)(const struct json *elem, void *ctx), void *ctx, int *each_failed,
			     size_t *err_off, char *err, size_t errlen);
/* The same, but members named in lean (NULL-terminated) that hold a flat
 * array of numbers are checked for syntax (not for range) and kept as
 * empty arrays: a reader that needs none of them (history) skips the cost
 * of the bulk of a result file, its samples. */
struct json *json_parse_each_lean(const char *text, size_t len, const char *key,
				  int (*each)(const struct json *elem, void *ctx), void *ctx,
				  const char *const *lean, int *each_failed, size_t *err_off, char *err,
				  size_t errlen);
void json_free(struct json *j);

/* Lookups; all return NULL / fallback when absent or of another type. */
const struct json *json_get(const struct json *obj, const char *key);
const char *json_get_str(const struct json *obj, const char *key, const char *fallback);
double json_get_num(const struct json *obj, const char *key, double fallback);

/* Writer: pretty-printed (2-space indent; on one line when compact is
 * set after jw_init, for NDJSON), keys in call order.
 * key is the member name inside an object and must be NULL inside an array
 * or at top level. Non-finite numbers are written as null. Numbers use the
 * shortest of %.15g/%.17g that reads back to the same double. */
struct jw {
	struct buf *out;
	int depth;
	unsigned char first[65];	/* per depth: no member written yet */
	int compact;		/* one line: no newlines, no indent, ":" and "," alone */
};

void jw_init(struct jw *w, struct buf *out);
void jw_obj_begin(struct jw *w, const char *key);
void jw_obj_end(struct jw *w);
void jw_arr_begin(struct jw *w, const char *key);
void jw_arr_end(struct jw *w);
void jw_str(struct jw *w, const char *key, const char *val);	/* NULL val -> null */
void jw_num(struct jw *w, const char *key, double val);
void jw_int(struct jw *w, const char *key, int64_t val);
void jw_bool(struct jw *w, const char *key, int val);
void jw_null(struct jw *w, const char *key);

#endif
