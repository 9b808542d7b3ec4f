/* completion.c — `bakeoff completion bash|zsh`: a shell completion script
 * made from the program's own tables, so it never goes stale: the verbs
 * (main.c's table), run's options (the options table), the benchmark ids,
 * their dotted prefixes, groups and personalities (the registry), the
 * --format names each verb offers (the format table), and every other
 * verb's options as its --help text names them. zsh gets the bash function
 * through zsh's bashcompinit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "core/bench.h"
#include "core/options.h"
#include "core/registry.h"
#include "core/version.h"
#include "report/report.h"

const char help_completion[] =
	"usage: bakeoff completion bash|zsh\n"
	"\n"
	"Print a completion script for the shell: verbs, options, benchmark names and\n"
	"format names, made from the tables bakeoff itself reads. Install:\n"
	"  bash: bakeoff completion bash > /etc/bash_completion.d/bakeoff\n"
	"        (or: source <(bakeoff completion bash) in ~/.bashrc)\n"
	"  zsh:  source <(bakeoff completion zsh) in ~/.zshrc, after compinit\n";

/* Words already put in the current list: a word goes in once. Words made
 * here ("--NAME") are kept in pool. */
#define SEEN_MAX 2048
static const char *seen[SEEN_MAX];
static size_t nseen, seen_len[SEEN_MAX];
static char pool[SEEN_MAX * 24];
static size_t pool_used;

static void word_reset(void)
{
	nseen = 0;
}

/* Put the n bytes at w into the list on f (a space before all but the
 * first), unless already there. */
static void word(FILE *f, const char *w, size_t n)
{
	for (size_t i = 0; i < nseen; i++)
		if (seen_len[i] == n && !strncmp(seen[i], w, n))
			return;
	if (nseen < SEEN_MAX) {
		seen[nseen] = w;
		seen_len[nseen++] = n;
	}
	fprintf(f, "%s%.*s", nseen > 1 ? " " : "", (int)n, w);
}

/* An option's words: --name, and -LETTER when it has one. */
static void option_words(FILE *f, const struct optdef *d)
{
	size_t n = strlen(d->name) + 2;

	if (pool_used + n + 2 > sizeof(pool))
		return;
	snprintf(pool + pool_used, n + 1, "--%s", d->name);
	word(f, pool + pool_used, n);
	pool_used += n;
	if (d->letter) {
		pool[pool_used] = '-';
		pool[pool_used + 1] = d->letter;
		word(f, pool + pool_used, 2);
		pool_used += 2;
	}
}

/* The length of the option word at p ("--long", "-X"), or 0 if none:
 * --long ends before a character other than a-z, 0-9 or an inner '-'; -X
 * is a letter followed by a blank, ',', ']', '=', '|', ')' or the end. */
static size_t option_at(const char *p, const char *end)
{
	size_t n;

	if (p[0] != '-')
		return 0;
	if (p[1] == '-' && p[2] >= 'a' && p[2] <= 'z') {
		n = 2 + strspn(p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
		while (p[n - 1] == '-')
			n--;
		return n;
	}
	if (((p[1] >= 'a' && p[1] <= 'z') || (p[1] >= 'A' && p[1] <= 'Z')) &&
	    (p + 2 == end || strchr(" \t,]=|)", p[2])))
		return 2;
	return 0;
}

/* The options a help text names: every option word of its usage lines
 * (starting "usage:", or '[' after blanks), and the leading names of its
 * option lines ("  -o, --output FILE ..."; the description after them is
 * prose, which may quote another program's flags). */
static void help_options(FILE *f, const char *t)
{
	for (const char *line = t; *line; line += strcspn(line, "\n"), line += *line == '\n') {
		const char *p = line + strspn(line, " \t"), *end = line + strcspn(line, "\n");
		size_t n;

		if (*p == '-') {
			while ((n = option_at(p, end))) {
				word(f, p, n);
				p += n;
				if (p[0] != ',' || p[1] != ' ')
					break;
				p += 2;
			}
			continue;
		}
		if (strncmp(p, "usage:", 6) && *p != '[')
			continue;
		for (; p < end; p++)
			if ((p == line || strchr(" \t[(|", p[-1])) && (n = option_at(p, end))) {
				word(f, p, n);
				p += n - 1;
			}
	}
}

/* A verb's help as it prints it: its text, or what its function prints
 * (captured through a temporary file). NULL when it has none; free it. */
static char *verb_help(const struct verb *v)
{
	FILE *tmp;
	char *buf;
	long len;
	int saved;

	if (v->help)
		return strdup(v->help);
	if (!v->help_fn || !(tmp = tmpfile()))
		return NULL;
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (saved < 0 || dup2(fileno(tmp), STDOUT_FILENO) < 0) {
		fclose(tmp);
		return NULL;
	}
	v->help_fn();
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	len = ftell(tmp);
	if (len < 0 || !(buf = malloc((size_t)len + 1))) {
		fclose(tmp);
		return NULL;
	}
	rewind(tmp);
	buf[fread(buf, 1, (size_t)len, tmp)] = 0;
	fclose(tmp);
	return buf;
}

/* run's options, from the table. */
static void run_options(FILE *f)
{
	for (size_t i = 0; i < opt_count(); i++)
		option_words(f, opt_row(i));
	word(f, "--help", 6);
}

/* What run, list and help take: ids, their dotted prefixes, groups and
 * personalities. */
static void bench_words(FILE *f)
{
	for (size_t i = 0; i < registry_count; i++) {
		const char *id = registry[i]->id;

		for (const char *dot = strchr(id, '.'); dot; dot = strchr(dot + 1, '.'))
			word(f, id, (size_t)(dot - id));
		word(f, id, strlen(id));
	}
	for (size_t i = 0; personalities[i].name; i++)
		word(f, personalities[i].name, strlen(personalities[i].name));
}

static void bash_script(FILE *f)
{
	static const struct {
		const char *verb;
		unsigned fmt;
	} formats[] = { { "report", FMT_REPORT }, { "compare", FMT_COMPARE }, { "fleet", FMT_FLEET },
			{ "history", FMT_HISTORY } };

	fprintf(f, "# bash completion for bakeoff %s, made by `bakeoff completion bash` from its\n"
		"# own tables (verbs, options, benchmarks, formats): regenerate after an upgrade.\n",
		BAKEOFF_VERSION);
	fputs("_bakeoff() {\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} verb=${COMP_WORDS[1]} opts= words=\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
	      "\t\twords='", f);
	word_reset();
	for (const struct verb *v = verbs; v->name; v++)
		word(f, v->name, strlen(v->name));
	word(f, "--help", 6);
	word(f, "--version", 9);
	fputs("'\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
	      "\t\treturn\n"
	      "\tfi\n"
	      "\tcase $verb:$prev in\n", f);
	for (size_t k = 0; k < sizeof(formats) / sizeof(formats[0]); k++) {
		fprintf(f, "\t%s:--format)\n\t\tCOMPREPLY=($(compgen -W '", formats[k].verb);
		word_reset();
		for (const struct report_format *r = report_formats; r->name; r++)
			if (formats[k].fmt == FMT_REPORT || (r->verbs & formats[k].fmt))
				word(f, r->name, strlen(r->name));
		fputs("' -- \"$cur\"))\n\t\treturn ;;\n", f);
	}
	fputs("\tcompletion:*)\n\t\tCOMPREPLY=($(compgen -W 'bash zsh' -- \"$cur\"))\n\t\treturn ;;\n", f);
	/* after run's options that take a path: file names */
	fputs("\t", f);
	for (size_t i = 0, k = 0; i < opt_count(); i++)
		if (opt_row(i)->type == OT_PATH) {
			fprintf(f, "%srun:--%s", k++ ? "|" : "", opt_row(i)->name);
			if (opt_row(i)->letter)
				fprintf(f, "|run:-%c", opt_row(i)->letter);
		}
	fputs(")\n\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n\t\treturn ;;\n\tesac\n\tcase $verb in\n", f);
	for (const struct verb *v = verbs; v->name; v++) {
		fprintf(f, "\t%s)\n\t\topts='", v->name);
		word_reset();
		if (!strcmp(v->name, "run")) {
			run_options(f);
		} else {
			char *h = verb_help(v);

			if (h)
				help_options(f, h);
			word(f, "--help", 6);
			free(h);
		}
		fputs("'", f);
		if (!strcmp(v->name, "run") || !strcmp(v->name, "list") || !strcmp(v->name, "help")) {
			fputs("\n\t\twords='", f);
			word_reset();
			if (!strcmp(v->name, "help"))
				for (const struct verb *w = verbs; w->name; w++)
					word(f, w->name, strlen(w->name));
			bench_words(f);
			fputs("'", f);
		}
		fputs(" ;;\n", f);
	}
	fputs("\tesac\n"
	      "\tif [[ $cur == -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
	      "\telif [ -n \"$words\" ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
	      "\telse\n"
	      "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
	      "\tfi\n"
	      "}\n"
	      "complete -F _bakeoff bakeoff\n", f);
}

int cmd_completion(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(help_completion, stdout);
		return 0;
	}
	if (argc != 2 || (strcmp(argv[1], "bash") && strcmp(argv[1], "zsh"))) {
		fprintf(stderr, "bakeoff: completion: name the shell: bash or zsh (bakeoff completion --help)\n");
		return 2;
	}
	if (!strcmp(argv[1], "zsh"))
		fputs("# zsh runs the bash completion below through bashcompinit.\n"
		      "autoload -U +X bashcompinit && bashcompinit\n", stdout);
	bash_script(stdout);
	return 0;
}
