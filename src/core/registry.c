/* registry.c — the table built from BENCH_LIST, and selection of
 * benchmarks by id, dotted prefix, group or personality, with a
 * "did you mean" suggestion (edit distance) for unknown names. */
#include <stdio.h>
#include <string.h>
#include "registry.h"

#define X(name) &bench_##name,
const struct bench *const registry[] = { BENCH_LIST(X) };
#undef X
const size_t registry_count = sizeof(registry) / sizeof(registry[0]);

/* ttcp's own method: 16384 writes of 8 KiB (128 MiB) per repetition */
static const char *const ttcp_preset[] = { "buf-len", "8k", "nbuf", "16384", NULL };

const struct personality personalities[] = {
	{ "lmbench", "lmbench 3 summary", "proc,ipc,vm,fs,mem,cpu,net.tcp.lat,net.udp.lat,net.rpc.lat,"
	  "net.tcp.connect,net.tcp.bw", "lmbench", NULL },
	{ "ttcp", "ttcp -t / -r", "net.tcp.bw", "ttcp", ttcp_preset },
	/* cpu: the bakeoff-int workload in Dhrystone 1.1's line shape */
	{ "dhrystone", "bakeoff-int in Dhrystone's line shape", "cpu.int", "dhrystone", NULL },
	/* disk */
	{ "dd", "dd's lines and the /dev/null ceiling", "disk.seq", "dd", NULL },
	{ "bonnie", "bonnie++ tables and CSV line", "disk.bonnie", "bonnie", NULL },
	{ "iozone", "iozone's auto-mode table and matrices", "disk.iozone", "iozone", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

const struct bench_group *const registry_groups[] = {
#define X(name) &group_##name,
	GROUP_LIST(X)
#undef X
};
const size_t registry_ngroups = sizeof(registry_groups) / sizeof(registry_groups[0]);

const struct bench_group *registry_group(const char *name)
{
	size_t i;

	for (i = 0; name && i < registry_ngroups; i++)
		if (strcmp(registry_groups[i]->name, name) == 0)
			return registry_groups[i];
	return NULL;
}

void *bench_group_opts(const struct bench_opts *opt, const struct bench_group *g)
{
	const unsigned char *at = opt->group_opts.bytes;
	size_t i;

	/* each group's struct after the one before, at max_align_t's alignment */
	for (i = 0; i < registry_ngroups && registry_groups[i] != g; i++)
		at += (registry_groups[i]->opt_size + sizeof(max_align_t) - 1) / sizeof(max_align_t) *
		      sizeof(max_align_t);
	return (void *)at;
}

unsigned registry_group_flags(const char *name)
{
	const struct bench_group *g = registry_group(name);

	return g ? g->flags : 0;
}

const struct bench *registry_find(const char *id)
{
	size_t i;

	for (i = 0; i < registry_count; i++)
		if (strcmp(registry[i]->id, id) == 0)
			return registry[i];
	return NULL;
}

/* id matches word when equal, or when word is a dotted prefix of id. */
static int matches(const char *id, const char *word)
{
	size_t l = strlen(word);

	return strncmp(id, word, l) == 0 && (id[l] == 0 || id[l] == '.');
}

static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, row[64], prev, tmp;

	if (lb >= 64)
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			row[j] = a[i - 1] == b[j - 1] ? prev
				 : 1 + (prev < row[j] ? (prev < row[j - 1] ? prev : row[j - 1])
						     : (row[j] < row[j - 1] ? row[j] : row[j - 1]));
			prev = tmp;
		}
	}
	return row[lb];
}

/* The closest id, id prefix or personality to word, or NULL when nothing
 * is close: at most a quarter of the word's letters (plus one) differ. */
static const char *suggest(const char *word)
{
	static char best[64];
	size_t i, bestd = (size_t)-1, d;
	char cand[64], *dot;

	best[0] = 0;
	for (i = 0; i < registry_count; i++) {
		snprintf(cand, sizeof(cand), "%s", registry[i]->id);
		/* Try the id and each of its dotted prefixes. */
		for (;;) {
			d = distance(word, cand);
			if (d < bestd) {
				bestd = d;
				snprintf(best, sizeof(best), "%s", cand);
			}
			dot = strrchr(cand, '.');
			if (!dot)
				break;
			*dot = 0;
		}
	}
	for (i = 0; personalities[i].name; i++) {
		d = distance(word, personalities[i].name);
		if (d < bestd) {
			bestd = d;
			snprintf(best, sizeof(best), "%s", personalities[i].name);
		}
	}
	return bestd <= strlen(word) / 4 + 1 ? best : NULL;
}

static int select_word(const char *word, unsigned char *sel, const struct personality **pers,
		       char *err, size_t errlen);

static int select_list(const char *list, unsigned char *sel, const struct personality **pers,
		       char *err, size_t errlen)
{
	char tmp[256], *p, *comma;

	if (strlen(list) >= sizeof(tmp)) {
		snprintf(err, errlen, "benchmark list too long");
		return -1;
	}
	strcpy(tmp, list);
	for (p = tmp; p; p = comma ? comma + 1 : NULL) {
		comma = strchr(p, ',');
		if (comma)
			*comma = 0;
		if (select_word(p, sel, pers, err, errlen) < 0)
			return -1;
	}
	return 0;
}

static int select_word(const char *word, unsigned char *sel, const struct personality **pers,
		       char *err, size_t errlen)
{
	size_t i;
	int hit = 0;

	if (!*word) {
		snprintf(err, errlen, "empty benchmark name");
		return -1;
	}
	for (i = 0; personalities[i].name; i++) {
		if (strcmp(word, personalities[i].name) == 0) {
			*pers = &personalities[i];
			return select_list(personalities[i].select, sel, pers, err, errlen);
		}
	}
	for (i = 0; i < registry_count; i++) {
		if (matches(registry[i]->id, word)) {
			sel[i] = 1;
			hit = 1;
		}
	}
	if (!hit) {
		const char *near = suggest(word);

		if (near)
			snprintf(err, errlen, "unknown benchmark or group '%s'; did you mean '%s'? "
				 "(bakeoff list shows them all)", word, near);
		else
			snprintf(err, errlen, "unknown benchmark or group '%s' (bakeoff list shows "
				 "them all)", word);
		return -1;
	}
	return 0;
}

int registry_select(int argc, char **argv, unsigned char *sel, const struct personality **pers,
		    char *err, size_t errlen)
{
	int i;

	*pers = NULL;
	memset(sel, 0, registry_count);
	if (argc == 0) {
		memset(sel, 1, registry_count);
		return 0;
	}
	for (i = 0; i < argc; i++)
		if (select_list(argv[i], sel, pers, err, errlen) < 0)
			return -1;
	return 0;
}
