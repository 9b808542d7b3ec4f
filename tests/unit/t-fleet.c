/* t-fleet.c — the pieces of bakeoff fleet that can be checked without ssh:
 * quoting a word for the remote shell (checked by running /bin/sh on it)
 * and the file name a host's result gets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "buf.h"
#include "cli/fleet.h"

/* What sh makes of `printf %s WORD`: the word back, or NULL. */
static char *through_sh(const char *word)
{
	struct buf cmd = { 0 };
	static char out[512];
	size_t n;
	FILE *p;

	buf_puts(&cmd, "printf %s ");
	fleet_sh_quote(&cmd, word);
	p = popen(cmd.p, "r");
	buf_free(&cmd);
	if (!p)
		return NULL;
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = 0;
	return pclose(p) == 0 ? out : NULL;
}

int main(void)
{
	static const char *const words[] = {
		"plain", "", "two words", "it's", "'", "''", "$HOME", "`id`", "$(id)", "a\\b",
		"\"q\"", "semi;colon", "new\nline", "*", "-o", "--token=x y", "tab\there", "!bang",
	};
	struct buf b = { 0 };
	char name[32];
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		const char *got = through_sh(words[i]);

		ok(got && strcmp(got, words[i]) == 0, "sh reads back word %zu unchanged", i);
	}
	fleet_sh_quote(&b, "it's");
	is_str(b.p, "'it'\\''s'", "a quote closes, is escaped, and reopens");
	buf_free(&b);

	fleet_file_name("web1", name, sizeof(name));
	is_str(name, "web1", "a plain host keeps its name");
	fleet_file_name("root@db-2.example.com", name, sizeof(name));
	is_str(name, "root@db-2.example.com", "user@host and dots are kept");
	fleet_file_name("../../etc/passwd", name, sizeof(name));
	is_str(name, "_._.._etc_passwd", "no directory can be named: slashes and a leading dot go");
	fleet_file_name("[::1]:22", name, sizeof(name));
	is_str(name, "___1__22", "IPv6 brackets and colons go");
	fleet_file_name("a-very-long-host-name-that-does-not-fit", name, 8);
	is_str(name, "a-very-", "cut to the buffer");
	return done_testing();
}
