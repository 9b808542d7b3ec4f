/* serve.c — `bakeoff serve`: the far end of the network benchmarks
 * (net/server.c), its options parsed here. */
#include <getopt.h>
#include <stdio.h>
#include "cli/cli.h"
#include "core/units.h"
#include "net/server.h"

const char help_serve[] =
	"usage: bakeoff serve [--listen ADDR[:PORT]] [--once] [--token SECRET]\n"
	"                     [--max-clients N]\n"
	"\n"
	"Serve the network benchmarks of `bakeoff run net --peer HOST` (see\n"
	"docs/protocol.md). One line per test served goes to stderr; SIGTERM or\n"
	"SIGINT stops it cleanly.\n"
	"\n"
	"  --listen ADDR[:PORT]  numeric address to listen on (default 127.0.0.1:5511;\n"
	"                        IPv6 as [::1]:5511; 0.0.0.0 exposes it to the network)\n"
	"  --once                serve one client, then exit\n"
	"  --token SECRET        refuse clients that do not present SECRET\n"
	"                        (1 to 64 of A-Z a-z 0-9 . _ -)\n"
	"  --max-clients N       sessions at once, 1 to 256 (default 4); more are refused\n"
	"\n"
	"Exit status: 0 stopped by a signal (or --once done), 2 bad usage or the\n"
	"address cannot be listened on (in use, not local).\n";

int cmd_serve(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "listen", required_argument, NULL, 'l' }, { "once", no_argument, NULL, 'o' },
		{ "token", required_argument, NULL, 't' }, { "max-clients", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	struct serve_cfg cfg = { "127.0.0.1:5511", NULL, 4, 0, stderr, -1, -1 };
	char err[300];
	long n;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h': fputs(help_serve, stdout); return 0;
		case 'l': cfg.listen = optarg; break;
		case 'o': cfg.once = 1; break;
		case 't':
			if (!proto_word_ok(optarg))
				return usage_error("invalid value for --token: expected 1 to 64 of "
						   "A-Z a-z 0-9 . _ -");
			cfg.token = optarg;
			break;
		case 'm':
			if (parse_uint(optarg, 1, 256, &n) < 0)
				return usage_error("invalid value '%s' for --max-clients: expected a "
						   "whole number from 1 to 256", optarg);
			cfg.max_clients = (int)n;
			break;
		default:
			return bad_option("serve", c, argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error("serve: unexpected argument '%s'", argv[optind]);
	setvbuf(stderr, NULL, _IOLBF, 0);
	if (net_serve(&cfg, err, sizeof(err)) < 0)
		return usage_error("%s", err);
	return 0;
}

