/* t-result.c — the result file: write/read round trip, a table of
 * malformed and wrong-schema files with the byte offset each must name,
 * atomic saving that never overwrites, and a family's result split among
 * its members. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tap.h"
#include "result.h"

static void build(struct result *r)
{
	static const double s[] = { 105.5, 104.25, 106.0, 105.0, 0.1 };
	struct bench_result *b;
	struct metric *m;

	memset(r, 0, sizeof(*r));
	sysinfo_read(&r->host);
	r->argc = 2;
	r->argv = calloc(3, sizeof(char *));
	r->argv[0] = strdup("bakeoff");
	r->argv[1] = strdup("run \"quoted\"");
	r->profile = strdup("quick");
	r->start_utc = strdup("2026-11-30T12:00:00Z");
	r->duration_s = 1.5;
	r->parallel = 2;
	r->clock.source = "CLOCK_MONOTONIC";
	r->clock.resolution_ns = 20;
	r->clock.cost_ns = 22.5;
	r->loop_ns = 0.33;
	r->target_sample_ns = 1e7;
	r->samples = 11;
	snprintf(r->guard.verdict, sizeof(r->guard.verdict), "suspect");
	result_add_finding(&r->guard, "load average %.2f", 1.5);
	b = result_add_bench(r, "proc.syscall.null", "proc", "Null syscall");
	result_set_status(b, ST_OK, NULL);
	result_param_num(b, "mem_size_bytes", 1048576);
	result_param_str(b, "program", "/bin/true");
	b->wall_s = 0.5;
	b->user_s = 0.25;
	b->sys_s = 0.125;
	m = result_add_metric(b, "", "ns", BETTER_LOWER, s, 5);
	m->iterations = 1000;
	m->overhead_ns = 23.5;
	m->per_copy = malloc(2 * sizeof(double));
	m->per_copy[0] = 1;
	m->per_copy[1] = 2;
	m->ncopies = 2;
	m->note = strdup("a note");
	m->ci_target = 0.02;	/* --ci-target 2%, missed */
	m->ci_reached = 0.035;
	b = result_add_bench(r, "proc.fork.exec", "proc", "Exec");
	result_set_status(b, ST_UNSUPPORTED, "no /bin/true");
}

static char *render(const struct result *r)
{
	struct buf b = { 0 };

	result_to_json(r, &b);
	return b.p;
}

int main(void)
{
	struct result a, b;
	char *text, *again, err[256], path[] = "/tmp/t-result.XXXXXX", file[300];
	const struct bench_result *br;
	const struct metric *m;
	size_t off;
	int fd;

	build(&a);
	text = render(&a);
	ok(result_from_json(text, strlen(text), &b, &off, err, sizeof(err)) == 0, "reads back: %s",
	   err);
	again = render(&b);
	is_str(again, text, "write(read(write(x))) == write(x)");
	is_int(b.argc, 2, "argv count");
	is_str(b.argv[1], "run \"quoted\"", "argv with quotes");
	is_str(b.host.hostname, a.host.hostname, "host survives");
	is_num(b.clock.cost_ns, 22.5, 0, "clock cost");
	is_int(b.guard.nfindings, 1, "guard finding");
	is_str(b.guard.verdict, "suspect", "guard verdict");
	br = result_bench(&b, "proc.syscall.null");
	ok(br && br->status == ST_OK, "bench status");
	m = br ? result_metric(br, "") : NULL;
	ok(m && m->nsamples == 5 && m->samples[4] == 0.1, "samples exact");
	ok(m && m->st.median == 105.0 && m->st.ci_lo == a.benches[0].metrics[0].st.ci_lo,
	   "statistics exact");
	ok(m && m->ncopies == 2 && m->per_copy[1] == 2, "per-copy medians");
	is_str(m ? m->note : NULL, "a note", "note");
	ok(m && m->ci_target == 0.02 && m->ci_reached == 0.035, "--ci-target and what was reached");
	ok(strstr(text, "\"reached\": 0.035") && strstr(text, "\"met\": false"),
	   "  written with met false");
	ok(br && result_param(br, "program") && strcmp(result_param(br, "program")->str, "/bin/true") == 0,
	   "string param");
	br = result_bench(&b, "proc.fork.exec");
	ok(br && br->status == ST_UNSUPPORTED && strcmp(br->reason, "no /bin/true") == 0,
	   "unsupported with reason");
	ok(!b.fleet_id && !b.fleet_host && !strstr(text, "\"fleet\""), "no run.fleet unless fleet saved it");
	free(again);
	result_free(&b);

	/* Files from before valid/suspect: "ok" reads as valid, "warn" is
	 * judged again from its findings; other verdicts are kept as they are. */
	{
		static const struct {
			const char *verdict, *finding, *want;
		} old[] = {
			{ "ok", NULL, "valid" },
			{ "warn", "virtual machine (kvm): the host's other guests can perturb timings",
			  "valid" },
			{ "warn", "load average 3.00 on 2 CPUs: the machine is busy", "suspect" },
			{ "warn", "during mem.lat: machine not idle: other processes used 50% of the "
				  "CPUs while it ran", "suspect" },
			{ "warn", "--dir /mnt/swap is on tmpfs: this measures memory, not a disk", "valid" },
			{ "valid", NULL, "valid" },
			{ "doubtful", NULL, "doubtful" },
		};
		size_t k;

		for (k = 0; k < sizeof(old) / sizeof(old[0]); k++) {
			struct result c;
			char *t, *at;

			build(&c);
			snprintf(c.guard.verdict, sizeof(c.guard.verdict), "%s", old[k].verdict);
			free(c.guard.findings[0]);
			c.guard.nfindings = 0;
			if (old[k].finding)
				result_add_finding(&c.guard, "%s", old[k].finding);
			t = render(&c);
			result_free(&c);
			ok((at = strstr(t, old[k].verdict)) != NULL, "written as %s", old[k].verdict);
			ok(result_from_json(t, strlen(t), &c, &off, err, sizeof(err)) == 0, "reads: %s",
			   err);
			is_str(c.guard.verdict, old[k].want, "verdict %s with %s reads as %s",
			       old[k].verdict, old[k].finding ? old[k].finding : "no finding",
			       old[k].want);
			result_free(&c);
			free(t);
		}
	}

	/* bakeoff fleet marks the file with its id and the host as named */
	{
		struct result c;
		char *t2, *t3;

		a.fleet_id = "fleet-20261130T120000Z";
		a.fleet_host = "user@web1";
		t2 = render(&a);
		a.fleet_id = a.fleet_host = NULL;
		ok(result_from_json(t2, strlen(t2), &c, &off, err, sizeof(err)) == 0, "run.fleet reads back: %s", err);
		is_str(c.fleet_id, "fleet-20261130T120000Z", "run.fleet.id");
		is_str(c.fleet_host, "user@web1", "run.fleet.host");
		t3 = render(&c);
		is_str(t3, t2, "run.fleet: write(read(write(x))) == write(x)");
		result_free(&c);
		free(t3);
		t3 = malloc(strlen(t2) + 1);
		if (t3) {	/* a run.fleet that is not the object it must be */
			char *p;

			strcpy(t3, t2);
			p = strstr(t3, "\"host\": \"user@web1\"");
			if (p)
				memcpy(p, "\"hast\"", 6);
			ok(p && result_from_json(t3, strlen(t3), &c, &off, err, sizeof(err)) < 0 &&
			   strstr(err, "fleet"), "run.fleet without host is refused: %s", err);
			result_free(&c);
			free(t3);
		}
		free(t2);
	}

	/* A count too big for its integer type is refused, not converted
	 * (the fuzzer's 5e123 iterations; converting it is undefined), and so
	 * is one that is not whole or below its least (a latency histogram
	 * counts 1 or more, a run's runs are 1 to 1000). */
	{
		static const struct { const char *key, *bad; } counts[] = {
			{ "\"iterations\": ", "5.1e123" }, { "\"iterations\": ", "-1" },
			{ "\"iterations\": ", "2.5" }, { "\"parallel\": ", "-3e300" },
			{ "\"samples\": ", "null" }, { "\"count\": ", "2.5" }, { "\"count\": ", "0" },
			{ "\"runs\": ", "1.5" }, { "\"runs\": ", "1001" },
		};
		struct result d;
		char *t2;
		size_t k;

		build(&d);	/* with a latency histogram and runs, which a's file lacks */
		d.runs = 3;
		d.benches[0].metrics[0].hist_count = 10;
		snprintf(d.benches[0].metrics[0].hist_unit, sizeof(d.benches[0].metrics[0].hist_unit), "ns");
		t2 = render(&d);
		{
			struct result c;

			ok(t2 && result_from_json(t2, strlen(t2), &c, &off, err, sizeof(err)) == 0 &&
			   c.runs == 3 && c.benches[0].metrics[0].hist_count == 10,
			   "whole counts in range read back: %s", err);
			result_free(&c);
		}
		for (k = 0; t2 && k < sizeof(counts) / sizeof(counts[0]); k++) {
			char *p = strstr(t2, counts[k].key), *t3;
			struct result c;
			size_t head, digits;

			if (!p || !(t3 = malloc(strlen(t2) + 16))) {
				ok(0, "%s in the rendered file", counts[k].key);
				continue;
			}
			head = (size_t)(p - t2) + strlen(counts[k].key);
			digits = strspn(t2 + head, "0123456789");
			sprintf(t3, "%.*s%s%s", (int)head, t2, counts[k].bad, t2 + head + digits);
			ok(digits > 0 && result_from_json(t3, strlen(t3), &c, &off, err, sizeof(err)) < 0 &&
			   strstr(err, "whole number"), "%s%s is refused: %s", counts[k].key, counts[k].bad, err);
			result_free(&c);
			free(t3);
		}
		free(t2);
		result_free(&d);
	}

	/* The core gauge's readings: one a sample, their median, the figure of
	 * the samples read on a quiet core (once the run is over); written,
	 * read back, pooled by --runs while every run has them. */
	{
		static const double v[] = { 10, 11, 12, 13, 14, 20, 21, 10.5 },
				    g[] = { 0.5, 0.5, 0.51, 0.5, 0.5, 0.9, 0.95, 0.5 };
		struct result c, d;
		struct bench_result *b, one = { 0 };
		struct metric *mm;

		build(&c);
		b = result_add_bench(&c, "q.g", "cpu", "Q");
		result_set_status(b, ST_OK, NULL);
		mm = result_add_metric(b, "", "ns", BETTER_LOWER, v, 8);
		ok(mm && result_metric_gauges(mm, g) == 0 && (result_quiet_figures(&c), 1) && mm->gauge == 0.5 &&
		   mm->quiet_n == 6 &&
		   mm->split.quiet == 11.5 && mm->split.quiet_gauge == 0.5 && mm->split.shared == 20.5,
		   "6 of 8 samples quiet: their median 11.5 (all 8: %g), gauge 0.5; the other two 20.5", mm ? mm->st.median : 0);
		char *t2 = render(&c);

		ok(strstr(t2, "\"core_gauges\"") && strstr(t2, "\"core_quiet\""), "written");
		ok(result_from_json(t2, strlen(t2), &d, &off, err, sizeof(err)) == 0, "read back: %s", err);
		again = render(&d);
		is_str(again, t2, "and written back the same");
		free(again);
		result_free(&d);
		ok(result_from_json_lean(t2, strlen(t2), &d, &off, err, sizeof(err)) == 0 &&
		   result_bench(&d, "q.g") && result_bench(&d, "q.g")->metrics[0].split.quiet == 11.5 &&
		   !result_bench(&d, "q.g")->metrics[0].gauges,
		   "a lean read keeps the quiet figure, not the readings: %s", err);
		result_free(&d);
		free(t2);
		one.id = strdup("q.g");
		result_set_status(&one, ST_OK, NULL);
		mm = result_add_metric(&one, "", "ns", BETTER_LOWER, v, 8);
		result_metric_gauges(mm, g);
		ok(result_merge_run(b, &one, 2) == 0 && (result_quiet_figures(&c), 1) && b->metrics[0].nsamples == 16 &&
		   b->metrics[0].gauges &&
		   b->metrics[0].gauges[14] == 0.95 && b->metrics[0].quiet_n == 12,
		   "--runs: the readings pooled beside the samples, the quiet figure of them all");
		result_bench_free(&one);
		mm = result_add_metric(b, "other", "ns", BETTER_LOWER, v, 8);
		result_metric_gauges(mm, (const double[]){ 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7 });
		mm = result_add_derived(b, "sum", "ns", BETTER_LOWER, 42, "the others");
		ok(mm && mm->gauge == 0.7 && !mm->gauges,
		   "a derived figure: the highest gauge of its benchmark's timed figures (%g), no readings",
		   mm ? mm->gauge : -1);
		result_free(&c);
	}

	/* --runs: three runs folded into one, and the run medians round-trip. */
	{
		static const double r1[] = { 10, 11, 12 }, r2[] = { 20, 21, 22, 23 }, r3[] = { 30 };
		const double *rs[] = { r1, r2, r3 };
		size_t ns[] = { 3, 4, 1 }, k;
		struct result c, d;
		struct bench_result *acc, one;
		struct metric *mm;
		const struct bench_result *db;

		build(&c);
		acc = result_add_bench(&c, "x.y", "x", "X");
		for (k = 0; k < 3; k++) {
			memset(&one, 0, sizeof(one));
			one.id = strdup("x.y");
			result_set_status(&one, ST_OK, NULL);
			result_param_num(&one, "mem_size_bytes", 1024 * (double)(k + 1));
			mm = result_add_metric(&one, "", "ns", BETTER_LOWER, rs[k], ns[k]);
			ok(mm != NULL, "run %zu measured", k + 1);
			if (mm && k < 2)	/* run 3 read no gauge: the pooled readings go */
				result_metric_gauges(mm, (const double[]){ 0.5, 0.9, 0.5, 0.5 });
			ok(result_merge_run(acc, &one, (int)k + 1) == 0, "run %zu merged", k + 1);
			result_bench_free(&one);
		}
		c.runs = 3;
		acc = (struct bench_result *)result_bench(&c, "x.y");
		mm = &acc->metrics[0];
		is_int(mm->nruns, 3, "three run medians");
		ok(mm->run_median[0] == 11 && mm->run_median[1] == 21.5 && mm->run_median[2] == 30,
		   "each run's own median (11, 21.5, 30)");
		is_int(mm->nsamples, 8, "samples pooled");
		is_num(mm->st.median, 20.5, 0, "statistics of the pooled samples");
		ok(!mm->gauges && mm->gauge == 0.5, "a run without gauge readings: none pooled, the gauge "
		   "the most shared run's median (%g)", mm->gauge);
		is_num(result_param(acc, "mem_size_bytes")->num, 1024, 0,
		       "settings from the first run");
		char *t2 = render(&c);

		ok(result_from_json(t2, strlen(t2), &d, &off, err, sizeof(err)) == 0,
		   "a --runs result reads back: %s", err);
		is_int(d.runs, 3, "run.runs");
		db = result_bench(&d, "x.y");
		ok(db && db->nmetrics == 1 && db->metrics[0].nruns == 3 &&
		   db->metrics[0].run_median[1] == 21.5, "run medians read back");
		again = render(&d);
		is_str(again, t2, "and write back the same");
		free(again);
		free(t2);
		result_free(&d);
		memset(&one, 0, sizeof(one));
		result_set_status(&one, ST_FAILED, "boom");
		result_merge_run(acc, &one, 4);
		ok(acc->status == ST_FAILED && strcmp(acc->reason, "run 4: boom") == 0,
		   "a failed run fails the benchmark, naming the run");
		result_bench_free(&one);
		result_free(&c);
	}

	/* A family's result: each member takes its figure (as its main one),
	 * its own params without the prefix, the shared params, and a share
	 * of the time; what belongs to another member stays behind. */
	{
		static const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
		struct bench_result fam = { 0 }, x = { 0 }, y = { 0 };

		result_set_status(&fam, ST_OK, NULL);
		fam.wall_s = 4;
		result_param_num(&fam, "array_bytes", 64);
		result_param_num(&fam, "copy:bytes_per_element", 16);
		result_param_num(&fam, "add:bytes_per_element", 24);
		result_add_metric(&fam, "copy", "MB/s", BETTER_HIGHER, a, 3);
		result_add_metric(&fam, "add", "MB/s", BETTER_HIGHER, b, 3);
		result_add_metric(&fam, "add:detail", "MB/s", BETTER_HIGHER, a, 3);
		ok(result_take_member(&fam, "add", 2, &x) == 0 && result_take_member(&fam, "copy", 2, &y) == 0,
		   "a family split between two members");
		ok(x.status == ST_OK && x.nmetrics == 2 && strcmp(x.metrics[0].name, "") == 0 &&
		   x.metrics[0].st.median == 5 && strcmp(x.metrics[1].name, "detail") == 0,
		   "  add: its figure is its main one, add:detail its \"detail\"");
		ok(y.nmetrics == 1 && y.metrics[0].st.median == 2, "  copy: its own figure only");
		ok(result_param(&x, "bytes_per_element")->num == 24 && result_param(&y, "bytes_per_element")->num == 16 &&
		   result_param(&x, "array_bytes") && result_param(&y, "array_bytes") &&
		   !result_param(&x, "copy:bytes_per_element") && x.nparams == 2,
		   "  each its own params, unprefixed, and the shared ones");
		ok(x.wall_s == 2 && fam.nmetrics == 0, "  half the time each; the family keeps no figure");
		result_bench_free(&fam);
		result_bench_free(&x);
		result_bench_free(&y);
	}

	/* Malformed files: each error names the byte where it is. */
	{
		const char *schema = strstr(text, "\"bakeoff-result/1\"");
		const char *status = strstr(text, "\"ok\"");
		size_t len = strlen(text);
		struct {
			const char *what;
			char *doc;
			size_t want_off;
			const char *want_msg;
		} bad[8];
		int nb = 0, k;

		bad[nb].what = "truncated";
		bad[nb].doc = strndup(text, len / 2);
		bad[nb].want_off = len / 2;
		bad[nb++].want_msg = "";
		bad[nb].what = "empty";
		bad[nb].doc = strdup("");
		bad[nb].want_off = 0;
		bad[nb++].want_msg = "";
		bad[nb].what = "wrong schema";
		bad[nb].doc = strdup(text);
		memcpy(bad[nb].doc + (schema - text), "\"bakeoff-result/9\"", 18);
		bad[nb].want_off = (size_t)(schema - text);
		bad[nb++].want_msg = "schema";
		bad[nb].what = "unknown status";
		bad[nb].doc = strdup(text);
		memcpy(bad[nb].doc + (status - text), "\"no\"", 4);
		bad[nb].want_off = (size_t)(status - text);
		bad[nb++].want_msg = "unknown status";
		bad[nb].what = "not an object";
		bad[nb].doc = strdup("  [1, 2]");
		bad[nb].want_off = 2;
		bad[nb++].want_msg = "not a bakeoff result";
		bad[nb].what = "no benchmarks";
		bad[nb].doc = strdup("{\"schema\": \"bakeoff-result/1\"}");
		bad[nb].want_off = 0;
		bad[nb++].want_msg = "missing";
		bad[nb].what = "trailing garbage";
		bad[nb].doc = malloc(len + 3);
		memcpy(bad[nb].doc, text, len);
		memcpy(bad[nb].doc + len, "x\n", 3);
		bad[nb].want_off = len;
		bad[nb++].want_msg = "";
		for (k = 0; k < nb; k++) {
			err[0] = 0;
			off = 12345;
			ok(result_from_json(bad[k].doc, strlen(bad[k].doc), &b, &off, err, sizeof(err)) < 0,
			   "%s: rejected (%s)", bad[k].what, err);
			is_int(off, bad[k].want_off, "%s: byte offset", bad[k].what);
			ok(strstr(err, bad[k].want_msg) != NULL, "%s: message says '%s'", bad[k].what,
			   bad[k].want_msg);
			free(bad[k].doc);
		}
	}

	/* Saving: atomic, never overwriting, readable by result_load. */
	ok(mkdtemp(path) != NULL, "temp dir");
	snprintf(file, sizeof(file), "%s/r.json", path);
	ok(result_save(&a, file, err, sizeof(err)) == 0, "saved");
	ok(result_save(&a, file, err, sizeof(err)) < 0 && strstr(err, "never overwrites"),
	   "second save refused: %s", err);
	ok(result_load(file, &b, err, sizeof(err)) == 0, "loaded");
	result_free(&b);
	fd = open(file, O_WRONLY | O_TRUNC);
	ok(fd >= 0 && write(fd, "{\"schema\":", 10) == 10, "file truncated by hand");
	close(fd);
	ok(result_load(file, &b, err, sizeof(err)) < 0 && strstr(err, "r.json: byte 10:"),
	   "load names file and offset: %s", err);
	unlink(file);
	/* rmdir fails unless the save left no temp file behind. */
	ok(rmdir(path) == 0, "no temp file left in the directory");
	free(text);
	result_free(&a);
	return done_testing();
}
