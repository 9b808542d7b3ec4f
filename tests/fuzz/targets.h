/* targets.h — what each fuzz target does with one input, shared by the
 * libFuzzer entry points (fuzz-*.c, built by `make fuzz`) and by the replay
 * of tests/fuzz/regress/ and the seed corpus in the normal `make check`
 * (tests/unit/t-fuzz-regress.c), so a crash found once stays a test.
 *
 * Each function must return without crashing, leaking or tripping a
 * sanitizer on any input; a broken invariant calls abort(). */
#ifndef BAKEOFF_FUZZ_TARGETS_H
#define BAKEOFF_FUZZ_TARGETS_H
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "buf.h"
#include "json.h"
#include "net/proto.h"
#include "report/history.h"
#include "report/report.h"
#include "result.h"
#include "units.h"

static inline FILE *fuzz_devnull(void)
{
	static FILE *f;

	if (!f && !(f = fopen("/dev/null", "w")))
		abort();
	return f;
}

/* The JSON parser: accept or reject, never more. */
static inline void fuzz_json(const uint8_t *data, size_t size)
{
	char err[128];
	size_t off = 0;
	struct json *j = json_parse((const char *)data, size, &off, err, sizeof(err));

	if (!j && off > size)
		abort();	/* the error offset must lie inside the input */
	json_free(j);
}

/* The result reader, then everything done with what it accepts: the text
 * table (escaping, number formats), and a round trip through the writer,
 * whose output the reader must accept again. */
static inline void fuzz_result(const uint8_t *data, size_t size)
{
	struct result r, back;
	struct buf out = { 0 };
	char err[256];
	size_t off = 0;

	if (result_from_json((const char *)data, size, &r, &off, err, sizeof(err)) < 0) {
		if (off > size)
			abort();
		return;
	}
	report_text(&r, fuzz_devnull(), 1);
	{	/* the lean reader (history's) accepts what the full one does */
		struct result lean;

		if (result_from_json_lean((const char *)data, size, &lean, &off, err, sizeof(err)) < 0)
			abort();
		result_free(&lean);
	}
	result_to_json(&r, &out);
	if (!out.oom) {
		if (result_from_json(out.p, out.len, &back, &off, err, sizeof(err)) < 0) {
			fprintf(stderr, "written result does not read back: byte %zu: %s\n", off, err);
			abort();
		}
		result_free(&back);
	}
	buf_free(&out);
	result_free(&r);
}

/* The command-line parsers of units.c, on the input as one string; what
 * they accept is formatted back. */
static inline void fuzz_units(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), txt[32];
	uint64_t v, list[16];
	long l, ul[16];

	if (!s)
		return;
	memcpy(s, data, size);
	s[size] = 0;
	if (parse_size(s, &v) == 0) {
		if (v > (UINT64_C(1) << 62))
			abort();
		fmt_size(txt, sizeof(txt), v);
	}
	if (parse_duration(s, &v) == 0)
		fmt_num(txt, sizeof(txt), (double)v);
	if (parse_uint(s, 1, 1000000, &l) == 0 && (l < 1 || l > 1000000))
		abort();
	if (parse_size_list(s, list, 16) > 16 || parse_uint_list(s, 2, 256, ul, 16) > 16)
		abort();
	free(s);
	/* fmt_num on the input's first 8 bytes as a double: it fits in 16
	 * bytes and reads back to within what it shows (3 decimals below 10,
	 * 3 significant digits below 0.01, 4 or more elsewhere). */
	if (size >= sizeof(double)) {
		double d, back;
		char small[16];

		memcpy(&d, data, sizeof(d));
		fmt_num(small, sizeof(small), d);
		back = strtod(small, NULL);
		if (strlen(small) > 13 ||
		    (isfinite(d) && !(fabs(back - d) <= fmax(fabs(d) * 5e-3, 5.0001e-4))))
			abort();
	}
}

/* The control protocol's parser (`bakeoff serve` runs it on every line a
 * client sends): accept or refuse; what it accepts formats back to a line
 * it accepts again, with the same verb, fields and values. */
static inline void fuzz_proto(const uint8_t *data, size_t size)
{
	struct proto_msg m, back;
	char err[128], line[PROTO_MAX_LINE + 1];
	int n, k;

	if (proto_parse((const char *)data, size, &m, err, sizeof(err)) < 0)
		return;
	if (size >= PROTO_MAX_LINE || (unsigned)m.verb >= PV__N)
		abort();
	n = proto_format(&m, line, sizeof(line));
	if (n < 1 || n > PROTO_MAX_LINE || line[n - 1] != '\n' ||
	    proto_parse(line, (size_t)n - 1, &back, err, sizeof(err)) < 0 ||
	    back.verb != m.verb || back.has != m.has)
		abort();
	for (k = 0; k < PK__N; k++)
		if (proto_has(&m, (enum proto_key)k) &&
		    (strcmp(m.str[k], back.str[k]) != 0 || m.num[k] != back.num[k]))
			abort();
}

/* history's index reader (DIR/.bakeoff-index, a file anyone may damage):
 * accept or refuse; what it accepts is written back and read again to as
 * many records. */
static inline void fuzz_index(const uint8_t *data, size_t size)
{
	struct history h;
	struct hx_file *recs = NULL, *again = NULL;
	size_t n = 0, m = 0, i, nskip = 0;
	char err[200], *text = NULL;
	size_t len = 0;
	FILE *in, *out;

	if (!size || !(in = fmemopen((void *)(uintptr_t)data, size, "r")))
		return;
	history_init(&h, NULL);
	if (history_index_load(&h, in, &recs, &n, err, sizeof(err)) == 0) {
		for (i = 0; i < n; i++)	/* the records into h, the skip records aside */
			if (recs[i].skip)
				recs[nskip++] = recs[i];
			else if (history_add_record(&h, &recs[i]) < 0)
				history_file_free(&recs[i]);
		if ((out = open_memstream(&text, &len))) {
			int bad = history_index_dump(out, &h, 0, recs, nskip, 0) < 0;
			FILE *back;

			fclose(out);
			if (!bad && text && (back = fmemopen(text, len, "r"))) {
				if (len && history_index_load(&h, back, &again, &m, err, sizeof(err)) < 0)
					abort();
				if (len && m != h.nfiles + nskip)
					abort();
				fclose(back);
			}
			for (i = 0; i < m; i++)
				history_file_free(&again[i]);
			free(again);
			free(text);
		}
		for (i = 0; i < nskip; i++)
			history_file_free(&recs[i]);
	}
	free(recs);
	history_free(&h);
	fclose(in);
}

#endif
