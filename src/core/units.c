/* units.c — strict parsers for sizes (binary units), durations and lists,
 * and the number formats every renderer shares. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "units.h"

int parse_size(const char *s, uint64_t *out)
{
	uint64_t v = 0, mul = 1;
	const char *p = s;

	if (!s || !isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		if (v > (UINT64_C(1) << 62) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	switch (*p) {
	case 'k': case 'K': mul = UINT64_C(1) << 10; p++; break;
	case 'm': case 'M': mul = UINT64_C(1) << 20; p++; break;
	case 'g': case 'G': mul = UINT64_C(1) << 30; p++; break;
	case 't': case 'T': mul = UINT64_C(1) << 40; p++; break;
	}
	if (mul > 1 && (strcmp(p, "iB") == 0 || strcmp(p, "B") == 0))
		p += strlen(p);
	else if (mul == 1 && strcmp(p, "B") == 0)
		p++;
	if (*p)
		return -1;
	if (v > (UINT64_C(1) << 62) / mul)
		return -1;
	*out = v * mul;
	return 0;
}

int parse_duration(const char *s, uint64_t *ns)
{
	static const struct { const char *u; double mul; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
		{ "m", 60e9 }, { "h", 3600e9 }, { "", 1e9 },
	};
	char *end;
	double v;
	size_t i;

	if (!s || !(isdigit((unsigned char)*s) || *s == '.'))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].u) == 0) {
			v *= units[i].mul;
			if (v > 365.0 * 86400e9)
				return -1;
			*ns = (uint64_t)llround(v);
			return 0;
		}
	}
	return -1;
}

int parse_uint(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* Split s at commas into a scratch copy and call parse for each piece. */
static int parse_list(const char *s, int max_n, int (*each)(const char *, void *, int), void *out)
{
	char tmp[256], *tok, *save = NULL;
	int n = 0;

	if (!s || !*s || strlen(s) >= sizeof(tmp) || s[0] == ',' || s[strlen(s) - 1] == ',' ||
	    strstr(s, ",,"))
		return -1;
	strcpy(tmp, s);
	for (tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n >= max_n || each(tok, out, n) < 0)
			return -1;
		n++;
	}
	return n;
}

static int each_size(const char *tok, void *out, int i)
{
	return parse_size(tok, (uint64_t *)out + i);
}

int parse_size_list(const char *s, uint64_t *out, int max)
{
	return parse_list(s, max, each_size, out);
}

struct uint_list { long min, max, *out; };

static int each_uint(const char *tok, void *ctx, int i)
{
	struct uint_list *l = ctx;

	return parse_uint(tok, l->min, l->max, l->out + i);
}

int parse_uint_list(const char *s, long min, long max, long *out, int max_n)
{
	struct uint_list l = { min, max, out };

	return parse_list(s, max_n, each_uint, &l);
}

void fmt_size(char *dst, size_t n, uint64_t bytes)
{
	static const char *unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	if (v == floor(v))
		snprintf(dst, n, "%.0f %s", v, unit[u]);
	else
		snprintf(dst, n, "%.1f %s", v, unit[u]);
}

/* Plain decimals up to 1e9 (what a column of medians needs), exponent form
 * past that and for tiny values, so no finite double is ever cut short; NaN
 * and infinities print as words, and -0 as 0 (a figure has no signed zero). */
void fmt_num(char *dst, size_t n, double v)
{
	double a = fabs(v);

	if (isnan(v))
		snprintf(dst, n, "nan");
	else if (isinf(v))
		snprintf(dst, n, "%s", v < 0 ? "-inf" : "inf");
	else if (a == 0)
		snprintf(dst, n, "0");
	else if (a >= 1e9) {
		int prec = 4;

		/* Near DBL_MAX four digits round up past it and would read back
		 * as infinite: add digits until they do not. */
		do
			snprintf(dst, n, "%.*g", prec++, v);
		while (prec < 18 && !isfinite(strtod(dst, NULL)));
	}	else if (a >= 1000)
		snprintf(dst, n, "%.0f", v);
	else if (a >= 100)
		snprintf(dst, n, "%.1f", v);
	else if (a >= 10)
		snprintf(dst, n, "%.2f", v);
	else if (a >= 0.01)
		snprintf(dst, n, "%.3f", v);
	else
		snprintf(dst, n, "%.3g", v);
}
