/* t-fuzz-regress.c — replays every input under tests/fuzz/regress/ (each a
 * crash the fuzzers once found) and the seed corpus under tests/fuzz/corpus/
 * through all the fuzz targets (tests/fuzz/targets.h) in the normal build,
 * so `make check` (and `make sanitize`) keep them fixed without clang. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "fuzz/targets.h"

/* Replay every regular file in dir; returns how many, or -1. */
static int replay_dir(const char *dir)
{
	struct dirent *e;
	char path[1024];
	int n = 0;
	DIR *d = opendir(dir);

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		struct buf b = { 0 };
		char chunk[4096];
		size_t got;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!(f = fopen(path, "rb")))
			continue;
		while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
			buf_add(&b, chunk, got);
		fclose(f);
		if (b.oom) {
			buf_free(&b);
			continue;
		}
		fuzz_json((const uint8_t *)(b.p ? b.p : ""), b.len);
		fuzz_result((const uint8_t *)(b.p ? b.p : ""), b.len);
		fuzz_units((const uint8_t *)(b.p ? b.p : ""), b.len);
		fuzz_proto((const uint8_t *)(b.p ? b.p : ""), b.len);
		fuzz_index((const uint8_t *)(b.p ? b.p : ""), b.len);
		buf_free(&b);
		n++;
	}
	closedir(d);
	return n;
}

int main(void)
{
	static const char *dirs[] = {
		"tests/fuzz/regress", "tests/fuzz/corpus/result", "tests/fuzz/corpus/json",
		"tests/fuzz/corpus/units", "tests/fuzz/corpus/proto", "tests/fuzz/corpus/index",
	};
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		int n = replay_dir(dirs[i]);

		ok(n >= 1, "%s: %d inputs replayed through every target", dirs[i], n);
	}
	return done_testing();
}
