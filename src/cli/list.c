/* list.c — `bakeoff list`: the benchmarks, their units and whether each
 * can run here (with the reason when not), then the personalities. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "core/registry.h"

const char help_list[] =
	"usage: bakeoff list [BENCH...]\n"
	"\n"
	"List benchmarks: id, title, unit and whether each can run here (with the\n"
	"reason when it cannot). Personalities are listed at the end.\n";


int cmd_list(int argc, char **argv)
{
	const struct personality *pers;
	struct bench_opts opt = { .mem_size = 64 << 20, .parallel = 1 };
	unsigned char *sel = calloc(registry_count, 1);
	char err[512];
	size_t i;
	int k;

	if (!sel)
		return usage_error("out of memory");
	for (k = 1; k < argc; k++) {
		if (strcmp(argv[k], "-h") == 0 || strcmp(argv[k], "--help") == 0) {
			fputs(help_list, stdout);
			free(sel);
			return 0;
		}
		if (argv[k][0] == '-') {
			free(sel);
			return bad_option("list", '?', argv[k]);
		}
	}
	if (registry_select(argc - 1, argv + 1, sel, &pers, err, sizeof(err)) < 0) {
		free(sel);
		return usage_error("%s", err);
	}
	printf("%-24s %-36s %-6s %s\n", "id", "title", "unit", "runs here");
	for (i = 0; i < registry_count; i++) {
		const struct bench *b = registry[i];
		struct bench_ctx ctx = { .b = b, .opt = &opt };

		if (!sel[i])
			continue;
		if (b->supported && b->supported(&ctx) < 0)
			printf("%-24s %-36s %-6s no: %s\n", b->id, b->title, b->unit,
			       ctx.reason[0] ? ctx.reason : "unsupported");
		else
			printf("%-24s %-36s %-6s yes\n", b->id, b->title, b->unit);
	}
	printf("\npersonalities:");
	for (k = 0; personalities[k].name; k++)
		printf(" %s (%s)", personalities[k].name, personalities[k].title);
	putchar('\n');
	free(sel);
	return 0;
}

