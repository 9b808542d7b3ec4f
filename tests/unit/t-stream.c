/* t-stream.c — mem.stream's check of its arrays: after hundreds of
 * interleaved rounds (each multiplies the values about 15-fold, so they
 * must be set back before they overflow) the arrays check out, and one
 * element changed by a relative 1e-12, or set to infinity, fails the check
 * and is named. */
#include <math.h>
#include <string.h>
#include "tap.h"
#include "bench/mem-stream.h"

int main(void)
{
	char why[300] = "";
	int rc;

	rc = mem_stream_selftest(4096, 1, 3, (size_t)-1, 0, why, sizeof(why));
	ok(rc == 0, "one round, three passes of each kernel: checks out %s", why);
	rc = mem_stream_selftest(4096, 400, 1, (size_t)-1, 0, why, sizeof(why));
	ok(rc == 0, "400 rounds (values past 1e300 without the reset): checks out %s", why);
	rc = mem_stream_selftest(4096, 5, 2, 1234, 1e-12, why, sizeof(why));
	ok(rc < 0, "a[1234] off by a relative 1e-12: fails");
	ok(strstr(why, "a[1234]") && strstr(why, "failed validation"), "  and names it: %s", why);
	rc = mem_stream_selftest(4096, 5, 2, 7, INFINITY, why, sizeof(why));
	ok(rc < 0 && strstr(why, "a[7] = inf"), "a[7] infinite: fails (%s)", why);
	return done_testing();
}
