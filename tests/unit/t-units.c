/* t-units.c — the size, duration and list parsers against tables of good
 * and bad inputs, and the shared number formats. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "tap.h"
#include "units.h"

int main(void)
{
	static const struct { const char *in; int ok; uint64_t want; } sizes[] = {
		{ "512", 1, 512 }, { "0", 1, 0 }, { "4k", 1, 4096 }, { "4K", 1, 4096 },
		{ "4KiB", 1, 4096 }, { "4KB", 1, 4096 }, { "1M", 1, 1048576 },
		{ "64m", 1, 67108864 }, { "2G", 1, 2147483648ull }, { "1T", 1, 1099511627776ull },
		{ "512B", 1, 512 }, { "4096T", 1, 4096ull << 40 },
		{ "12Q", 0, 0 }, { "-5", 0, 0 }, { "99999999999T", 0, 0 }, { "", 0, 0 },
		{ "1.5M", 0, 0 }, { "k", 0, 0 }, { " 4k", 0, 0 }, { "4k ", 0, 0 }, { "4kk", 0, 0 },
		{ "4Mi", 0, 0 }, { "+4", 0, 0 }, { "0x10", 0, 0 }, { "18446744073709551616", 0, 0 },
		{ "8192P", 0, 0 }, { "4194305T", 0, 0 }, { "4194304T", 1, UINT64_C(1) << 62 },
	};
	static const struct { const char *in; int ok; uint64_t want; } durs[] = {
		{ "10ms", 1, 10000000 }, { "2s", 1, 2000000000ull }, { "1m", 1, 60000000000ull },
		{ "500us", 1, 500000 }, { "250ns", 1, 250 }, { "1h", 1, 3600000000000ull },
		{ "1.5s", 1, 1500000000ull }, { "3", 1, 3000000000ull }, { "0.5ms", 1, 500000 },
		{ "", 0, 0 }, { "-5", 0, 0 }, { "10x", 0, 0 }, { "ms", 0, 0 }, { "12Q", 0, 0 },
		{ "1e400s", 0, 0 }, { "99999999h", 0, 0 }, { "nan", 0, 0 }, { "inf", 0, 0 },
		{ "1 s", 0, 0 },
	};
	uint64_t v, list[8];
	long l, ul[8];
	char out[32];
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		int rc = parse_size(sizes[i].in, &v);

		if (sizes[i].ok)
			ok(rc == 0 && v == sizes[i].want, "size '%s' = %llu", sizes[i].in,
			   (unsigned long long)sizes[i].want);
		else
			ok(rc < 0, "size '%s' rejected", sizes[i].in);
	}
	for (i = 0; i < sizeof(durs) / sizeof(durs[0]); i++) {
		int rc = parse_duration(durs[i].in, &v);

		if (durs[i].ok)
			ok(rc == 0 && v == durs[i].want, "duration '%s' = %llu ns", durs[i].in,
			   (unsigned long long)durs[i].want);
		else
			ok(rc < 0, "duration '%s' rejected", durs[i].in);
	}
	ok(parse_uint("11", 1, 1000, &l) == 0 && l == 11, "uint 11");
	ok(parse_uint("0", 1, 1000, &l) < 0, "uint below min rejected");
	ok(parse_uint("1001", 1, 1000, &l) < 0, "uint above max rejected");
	ok(parse_uint("-3", 1, 1000, &l) < 0, "negative uint rejected");
	ok(parse_uint("3x", 1, 1000, &l) < 0, "uint with junk rejected");
	is_int(parse_size_list("0,16k,64k", list, 8), 3, "size list count");
	ok(list[0] == 0 && list[1] == 16384 && list[2] == 65536, "size list values");
	ok(parse_size_list("1,2,", list, 8) < 0, "trailing comma rejected");
	ok(parse_size_list("1,,2", list, 8) < 0, "empty element rejected");
	ok(parse_size_list(",1", list, 8) < 0, "leading comma rejected");
	ok(parse_size_list("", list, 8) < 0, "empty list rejected");
	ok(parse_size_list("1,2,3", list, 2) < 0, "too many entries rejected");
	is_int(parse_uint_list("2,4,8,16", 2, 256, ul, 8), 4, "uint list count");
	ok(ul[3] == 16, "uint list value");
	ok(parse_uint_list("2,1", 2, 256, ul, 8) < 0, "uint list entry below min rejected");

	fmt_size(out, sizeof(out), 64 << 20);
	is_str(out, "64 MiB", "fmt_size 64M");
	fmt_size(out, sizeof(out), 1536);
	is_str(out, "1.5 KiB", "fmt_size 1536");
	fmt_size(out, sizeof(out), 100);
	is_str(out, "100 B", "fmt_size 100");
	fmt_num(out, sizeof(out), 12345.6);
	is_str(out, "12346", "fmt_num large");
	fmt_num(out, sizeof(out), 105.26);
	is_str(out, "105.3", "fmt_num hundreds");
	fmt_num(out, sizeof(out), 1.23456);
	is_str(out, "1.235", "fmt_num small");
	fmt_num(out, sizeof(out), 0.001234);
	is_str(out, "0.00123", "fmt_num tiny");

	/* Extremes: every finite double prints in full (exponent form past 1e9),
	 * reads back within the 4 digits shown, and fits in 16 bytes. */
	{
		static const struct { double v; const char *want; } ext[] = {
			{ 1e308, "1e+308" }, { -1e308, "-1e+308" }, { 5e-324, "4.94e-324" },
			{ DBL_MAX, "1.79769e+308" }, { -DBL_MAX, "-1.79769e+308" }, { 0.0, "0" },
			{ -0.0, "0" }, { NAN, "nan" }, { INFINITY, "inf" }, { -INFINITY, "-inf" },
			{ 999999999.0, "999999999" }, { 1e9, "1e+09" }, { 1234567890.0, "1.235e+09" },
			{ -12345.6, "-12346" }, { 1e-300, "1e-300" },
		};
		char small[16];

		for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
			fmt_num(small, sizeof(small), ext[i].v);
			is_str(small, ext[i].want, "fmt_num %g", ext[i].v);
			if (isfinite(ext[i].v) && ext[i].v != 0) {
				double back = strtod(small, NULL);

				ok(fabs(back - ext[i].v) <= fabs(ext[i].v) * 1e-3,
				   "fmt_num %g reads back within 0.1%%", ext[i].v);
			}
		}
	}
	return done_testing();
}
