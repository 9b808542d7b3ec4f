/* t-registry.c — selection by id, prefix, group, list and personality, and
 * the "did you mean" suggestion for unknown names. */
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "options.h"
#include "registry.h"
#include "report/report.h"

static size_t count(const unsigned char *sel)
{
	size_t i, n = 0;

	for (i = 0; i < registry_count; i++)
		n += sel[i];
	return n;
}

static int selected(const unsigned char *sel, const char *id)
{
	size_t i;

	for (i = 0; i < registry_count; i++)
		if (strcmp(registry[i]->id, id) == 0)
			return sel[i];
	return 0;
}

int main(void)
{
	unsigned char *sel = calloc(registry_count, 1);
	const struct personality *p;
	char err[256], *argv[3];
	size_t i, j;

	ok(registry_count >= 5, "registry has %zu benchmarks", registry_count);
	for (i = 0; i < registry_count; i++) {
		const struct bench *b = registry[i];
		size_t gl = strlen(b->group);

		ok(b->id && b->title && b->unit && (b->op || b->run), "%s: complete descriptor", b->id);
		ok(strncmp(b->id, b->group, gl) == 0 && b->id[gl] == '.', "%s: id starts with group %s",
		   b->id, b->group);
		for (j = 0; j < i; j++)
			if (strcmp(registry[j]->id, b->id) == 0)
				break;
		ok(j == i, "%s: id unique", b->id);
	}
	ok(registry_select(0, NULL, sel, &p, err, sizeof(err)) == 0 && count(sel) == registry_count,
	   "no names selects everything");

	argv[0] = "mem.bw.copy";
	ok(registry_select(1, argv, sel, &p, err, sizeof(err)) == 0 && count(sel) == 1 &&
	   selected(sel, "mem.bw.copy"), "exact id");
	argv[0] = "mem.bw";
	ok(registry_select(1, argv, sel, &p, err, sizeof(err)) == 0 && count(sel) >= 3 &&
	   selected(sel, "mem.bw.read") && !selected(sel, "proc.syscall.null"), "dotted prefix");
	argv[0] = "mem.b";
	ok(registry_select(1, argv, sel, &p, err, sizeof(err)) < 0, "partial component is not a prefix");
	argv[0] = "proc";
	argv[1] = "mem.bw.copy";
	ok(registry_select(2, argv, sel, &p, err, sizeof(err)) == 0 && selected(sel, "proc.syscall.null") &&
	   selected(sel, "mem.bw.copy") && !selected(sel, "mem.bw.read"), "group plus id");
	argv[0] = "proc.syscall.null,mem.bw.read";
	ok(registry_select(1, argv, sel, &p, err, sizeof(err)) == 0 && count(sel) == 2,
	   "comma-separated list");
	argv[0] = "lmbench";
	ok(registry_select(1, argv, sel, &p, err, sizeof(err)) == 0 && p && strcmp(p->name, "lmbench") == 0 &&
	   selected(sel, "proc.syscall.null"), "personality");

	argv[0] = "mem.bw.cpy";
	ok(registry_select(1, argv, sel, &p, err, sizeof(err)) < 0, "unknown id rejected");
	ok(strstr(err, "'mem.bw.cpy'") && strstr(err, "did you mean 'mem.bw.copy'"), "suggestion: %s", err);
	argv[0] = "prc";
	registry_select(1, argv, sel, &p, err, sizeof(err));
	ok(strstr(err, "did you mean 'proc'") != NULL, "group suggestion: %s", err);
	argv[0] = "lmbnch";
	registry_select(1, argv, sel, &p, err, sizeof(err));
	ok(strstr(err, "did you mean 'lmbench'") != NULL, "personality suggestion: %s", err);
	argv[0] = "mem,";
	ok(registry_select(1, argv, sel, &p, err, sizeof(err)) < 0, "empty list element rejected: %s", err);
	ok(registry_find("proc.syscall.null") != NULL && registry_find("nope") == NULL, "registry_find");
	argv[0] = "nosuch.bench";
	ok(registry_select(1, argv, sel, &p, err, sizeof(err)) < 0 && !strstr(err, "did you mean"),
	   "nothing close, no suggestion: %s", err);

	/* Every benchmark's unit fits its kind: one that forgot its kind (a
	 * bandwidth reported as ns) cannot slip through. */
	for (i = 0; i < registry_count; i++) {
		const struct bench *b = registry[i];
		static const char *const lat[] = { "ns", "us", "ms", "s", NULL };
		static const char *const bw[] = { "MB/s", "GB/s", NULL };
		static const char *const rate[] = { "ops/s", "MHz", "loops/s", "Mops/s", "IOPS", "files/s", NULL };
		const char *const *want = b->kind == KIND_LATENCY ? lat : b->kind == KIND_BANDWIDTH ? bw :
					  b->kind == KIND_RATE ? rate : NULL;
		int k, fits = 0;

		for (k = 0; want && want[k]; k++)
			fits |= strcmp(b->unit, want[k]) == 0;
		if (b->kind == KIND_DERIVED)	/* a size or a count, never a time or a rate */
			fits = !strchr(b->unit, '/') && strcmp(b->unit, "ns") && strcmp(b->unit, "us");
		ok(fits, "%s: unit %s fits its kind (%d)", b->id, b->unit, (int)b->kind);
		ok(b->better == (b->kind == KIND_LATENCY ? BETTER_LOWER :
				 b->kind == KIND_BANDWIDTH || b->kind == KIND_RATE ? BETTER_HIGHER : b->better),
		   "%s: better is %s", b->id, b->better == BETTER_HIGHER ? "higher" : "lower");
	}
	free(sel);
	/* every personality prints through a row of the format table */
	for (p = personalities; p->name; p++)
		ok(report_format_find(p->format) != NULL, "personality %s: format %s is in the table",
		   p->name, p->format);
	/* groups in GROUP_LIST's order, net (whose begin starts a server) last,
	 * and each findable by name */
	ok(registry_ngroups >= 1 && !strcmp(registry_groups[registry_ngroups - 1]->name, "net"),
	   "the net group's hooks run last");
	for (size_t g = 0; g < registry_ngroups; g++)
		ok(registry_group(registry_groups[g]->name) == registry_groups[g], "group %s found by name",
		   registry_groups[g]->name);
	/* the groups' own options: their structs fit in struct bench_opts,
	 * each at its own place; the rows fit an optset; each row is found by
	 * name and index and writes inside its group's struct */
	{
		size_t need = 0, n = opt_count(), i;
		struct bench_opts o;
		struct harness_cfg cfg;
		char err[300];

		for (size_t g = 0; g < registry_ngroups; g++) {
			const struct bench_group *gr = registry_groups[g];
			const char *at = bench_group_opts(&o, gr);

			ok(at >= (const char *)&o.group_opts && at + gr->opt_size <= (const char *)(&o.group_opts + 1),
			   "group %s's options struct (%zu bytes) lies inside bench_opts.group_opts", gr->name,
			   gr->opt_size);
			need += gr->opt_size;
			ok(gr->noptions == 0 || gr->opt_size > 0, "group %s: rows and a struct to hold them",
			   gr->name);
			for (i = 0; i < gr->noptions; i++) {
				ok(gr->options[i].target == IN_GROUP &&
				   gr->options[i].off < gr->opt_size, "group %s: --%s is inside its struct",
				   gr->name, gr->options[i].name);
				ok(opt_find(gr->options[i].name) == &gr->options[i],
				   "group %s: --%s is found by name, not hidden by another row", gr->name,
				   gr->options[i].name);
			}
			for (i = 0; gr->exclusive && gr->exclusive[i][0]; i++)
				ok(opt_find(gr->exclusive[i][0]) && opt_find(gr->exclusive[i][1]),
				   "group %s: exclusive pair --%s --%s are options", gr->name,
				   gr->exclusive[i][0], gr->exclusive[i][1]);
		}
		ok(need <= sizeof(o.group_opts), "the groups' options (%zu bytes) fit in %zu", need,
		   sizeof(o.group_opts));
		ok(n <= OPT_ROWS_MAX, "%zu option rows fit an optset (%d)", n, OPT_ROWS_MAX);
		for (i = 0; i < n; i++)
			ok(opt_index(opt_row(i)) == i, "--%s: row %zu", opt_row(i)->name, i);
		/* a group's option parsed lands in its struct, the rest untouched */
		memset(&o, 0, sizeof(o));
		ok(opt_parse(opt_find("size"), "2M", &cfg, &o, err, sizeof(err)) == 0 &&
		   *(uint64_t *)((char *)bench_group_opts(&o, registry_group("disk")) +
				 opt_find("size")->off) == 2 << 20 && o.mem_size == 0,
		   "--size 2M lands in disk's struct, at its row's offset");
	}
	return done_testing();
}
