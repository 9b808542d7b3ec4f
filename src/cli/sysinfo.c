/* sysinfo.c — `bakeoff sysinfo` (this machine as a result file describes
 * it) and `bakeoff version` (how this bakeoff was built). */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "core/json.h"
#include "core/sysinfo.h"

const char help_sysinfo[] =
	"usage: bakeoff sysinfo [--json]\n"
	"\n"
	"Describe this machine: OS, kernel, CPU, caches, memory, virtualization and\n"
	"how bakeoff was built. --json prints the \"host\" object of a result file.\n";

const char help_version[] =
	"usage: bakeoff version\n\nPrint the version, compiler and flags bakeoff was built with.\n";


int cmd_sysinfo(int argc, char **argv)
{
	struct sysinfo si;
	int json = 0, k;

	for (k = 1; k < argc; k++) {
		if (strcmp(argv[k], "-h") == 0 || strcmp(argv[k], "--help") == 0) {
			fputs(help_sysinfo, stdout);
			return 0;
		} else if (strcmp(argv[k], "--json") == 0) {
			json = 1;
		} else {
			return usage_error("sysinfo: unknown argument '%s' (see bakeoff sysinfo --help)",
					   argv[k]);
		}
	}
	sysinfo_read(&si);
	if (json) {
		struct buf b = { 0 };
		struct jw w;

		jw_init(&w, &b);
		jw_obj_begin(&w, NULL);
		sysinfo_write_json(&si, &w);
		jw_obj_end(&w);
		printf("%s\n", b.p);
		buf_free(&b);
	} else {
		sysinfo_print(&si, stdout);
	}
	return 0;
}

int cmd_version(int argc, char **argv)
{
	struct sysinfo si;

	if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		fputs(help_version, stdout);
		return 0;
	}
	if (argc > 1)
		return usage_error("version: unexpected argument '%s'", argv[1]);
	sysinfo_read(&si);
	printf("bakeoff %s\ncompiler %s\ncflags %s\n", si.version, si.compiler, si.cflags);
	return 0;
}

