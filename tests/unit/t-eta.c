/* t-eta.c — the run's progress estimate (issue 26: "[2/65] ... about 30 s
 * left" when 313 s remained). The estimates of every benchmark under the
 * standard and the quick profile (harness_estimate, options at their
 * defaults) are replayed against the real per-benchmark wall times of a
 * full run on a 2-vCPU guest (tests/data/walls-*.txt): from the first tenth
 * of the run on, the time left that eta_left gives must be within a factor
 * of 1.5 of the time that really was left. A second replay scales every
 * time by 3 (a slower machine): the correction from the finished
 * benchmarks must follow. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "harness.h"
#include "options.h"
#include "registry.h"

static void replay(const char *file, int quick, double scale, size_t from_div)
{
	struct harness_cfg cfg;
	struct bench_opts opt;
	struct optset set;
	struct eta e = { 0 };
	double wall[256], total = 0, elapsed = 0, worst = 1, estd[256];
	unsigned char cls[256];
	size_t idx[256];
	char line[256], id[128], path[300];
	size_t n = 0, k, worst_k = 0;
	FILE *f;

	snprintf(path, sizeof(path), "tests/data/%s", file);
	if (!(f = fopen(path, "r"))) {
		ok(0, "%s: %s", path, "cannot open");
		return;
	}
	memset(&set, 0, sizeof(set));
	memset(&opt, 0, sizeof(opt));
	harness_default_cfg(&cfg);
	opt_defaults(&set, quick, &cfg, &opt);
	opt.quick = quick;
	while (fgets(line, sizeof(line), f) && n < 256) {
		const struct bench *b;
		double w;

		if (line[0] == '#' || sscanf(line, "%127s %lf", id, &w) != 2)
			continue;
		if (!(b = registry_find(id)))
			continue;
		wall[n] = w * scale;
		idx[n] = n;
		e.est = estd;
		e.cls = cls;
		eta_add(&e, n, harness_estimate(b, &opt, &cfg), harness_estimate_class(b), 1);
		total += wall[n];
		n++;
	}
	fclose(f);
	ok(n >= 60, "%s: %zu benchmarks read", file, n);
	for (k = 0; k < n; k++) {
		double left = eta_left(&e), real = total - elapsed, r = left / real;

		if (getenv("T_ETA_VERBOSE"))
			diag("%zu: est %.2f wall %.2f left %.1f real %.1f", k + 1, estd[k], wall[k], left, real);
		if (k >= n / from_div && (r > 1 ? r : 1 / r) > worst) {
			worst = r > 1 ? r : 1 / r;
			worst_k = k;
		}
		elapsed += wall[k];
		eta_done(&e, idx[k], wall[k]);
	}
	ok(worst <= 1.5, "%s x%.0f: from benchmark %zu on, the time left is within 1.5x of the real "
	   "(worst %.2fx, at benchmark %zu of %zu; %.0f s in all, %.0f s estimated)", file, scale,
	   n / from_div + 1, worst, worst_k + 1, n, total, e.total[0] + e.total[1]);
}

int main(void)
{
	replay("walls-standard-amd-epyc.txt", 0, 1, 10);
	replay("walls-quick-amd-epyc.txt", 1, 1, 10);
	/* a machine 3x slower: the estimates learn it as it runs */
	replay("walls-standard-amd-epyc.txt", 0, 3, 3);
	return done_testing();
}
