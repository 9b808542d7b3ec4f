/* t-proto.c — the control protocol's parser and formatter (src/net/proto.c)
 * and address splitting: what is accepted, what is refused and why, and
 * that every accepted message formats back to itself. */
#include <string.h>
#include "tap.h"
#include "net/proto.h"

static const struct {
	const char *line;
	int accept;
	const char *why;	/* part of the refusal */
} cases[] = {
	{ "HELLO v=1", 1, NULL },
	{ "HELLO v=1 token=a.b-c_D9", 1, NULL },
	{ "TEST kind=tcp_bw streams=64 len=1048576 dir=bidir ms=3600000", 1, NULL },
	{ "TEST kind=udp_bw rate=100000000000 cport=65535", 1, NULL },
	{ "READY port=1 cookie=0123456789abcdef0123456789abcdef", 1, NULL },
	{ "RESULT rx=9223372036854775807", 1, NULL },
	{ "GO", 1, NULL },
	{ "", 0, "empty" },
	{ "HELO v=1", 0, "unknown verb" },
	{ "hello v=1", 0, "unknown verb" },
	{ "HELLO", 0, "required" },
	{ "HELLO v=1 v=1", 0, "twice" },
	{ "HELLO v=1  token=x", 0, "without '='" },
	{ "HELLO v=1 ", 0, "without '='" },
	{ "HELLO v=01", 0, "range" },
	{ "HELLO v=0", 0, "range" },
	{ "HELLO v=1 token=", 0, "bad value" },
	{ "HELLO v=1 token=a b", 0, "without '='" },
	{ "HELLO v=1 token=a;b", 0, "bad value" },
	{ "HELLO v=1 kind=tcp_bw", 0, "not allowed" },
	{ "HELLO v=1 color=red", 0, "not allowed" },
	{ "TEST kind=tcp_bw streams=65", 0, "range" },
	{ "TEST kind=tcp_bw len=1048577", 0, "range" },
	{ "TEST kind=sctp", 0, "range" },
	{ "TEST kind=tcp_bw ms=3600001", 0, "range" },
	{ "READY port=1 cookie=0123456789ABCDEF0123456789abcdef", 0, "range" },
	{ "READY port=1 cookie=0123", 0, "range" },
	{ "RESULT rx=99999999999999999999", 0, "range" },
	{ "RESULT rx=9223372036854775808", 0, "range" },
	{ "GO\tx", 0, "printable" },
};

int main(void)
{
	struct proto_msg m, back;
	char err[128], line[PROTO_MAX_LINE + 8], big[400], host[64];
	size_t i;
	int port;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r = proto_parse(cases[i].line, strlen(cases[i].line), &m, err, sizeof(err));

		if (cases[i].accept) {
			int n = proto_format(&m, line, sizeof(line));

			ok(r == 0, "accepts '%s'", cases[i].line);
			ok(n > 0 && (size_t)n == strlen(cases[i].line) + 1 &&
			   memcmp(line, cases[i].line, (size_t)n - 1) == 0 && line[n - 1] == '\n',
			   "formats '%s' back to itself", cases[i].line);
			ok(proto_parse(line, (size_t)n - 1, &back, err, sizeof(err)) == 0 &&
			   back.has == m.has, "and reads it again");
		} else {
			ok(r < 0 && strstr(err, cases[i].why), "refuses '%s' (%s)", cases[i].line,
			   r < 0 ? err : "accepted");
		}
	}
	memset(big, 'a', sizeof(big));
	memcpy(big, "HELLO v=1 token=", 16);
	ok(proto_parse(big, sizeof(big), &m, err, sizeof(err)) < 0 && strstr(err, "too long"),
	   "refuses a line over %d bytes", PROTO_MAX_LINE);
	ok(proto_parse("HELLO v=1\0x", 11, &m, err, sizeof(err)) < 0, "refuses a NUL byte");
	proto_parse("TEST kind=rpc_udp dir=recv", 26, &m, err, sizeof(err));
	is_int(m.num[PK_KIND], K_RPC_UDP, "enum value kind=rpc_udp");
	is_int(m.num[PK_DIR], D_RECV, "enum value dir=recv");
	is_int(proto_has(&m, PK_LEN), 0, "absent field not present");

	ok(net_split("127.0.0.1:5511", 1, host, sizeof(host), &port, err, sizeof(err)) == 0 &&
	   strcmp(host, "127.0.0.1") == 0 && port == 5511, "split HOST:PORT");
	ok(net_split("[::1]:80", 1, host, sizeof(host), &port, err, sizeof(err)) == 0 &&
	   strcmp(host, "::1") == 0 && port == 80, "split [V6]:PORT");
	ok(net_split("::1", 7, host, sizeof(host), &port, err, sizeof(err)) == 0 &&
	   strcmp(host, "::1") == 0 && port == 7, "a bare IPv6 address takes the default port");
	ok(net_split("example", 7, host, sizeof(host), &port, err, sizeof(err)) == 0 && port == 7,
	   "a bare name takes the default port");
	ok(net_split("h:70000", 7, host, sizeof(host), &port, err, sizeof(err)) < 0, "port > 65535");
	ok(net_split("h:", 7, host, sizeof(host), &port, err, sizeof(err)) < 0, "empty port");
	ok(net_split("[::1", 7, host, sizeof(host), &port, err, sizeof(err)) < 0, "unclosed [");
	ok(net_split(":80", 7, host, sizeof(host), &port, err, sizeof(err)) < 0, "empty host");
	ok(net_secret_eq("abc", "abc") && !net_secret_eq("abc", "abd") && !net_secret_eq("abc", "ab") &&
	   !net_secret_eq("", "a"), "secret comparison");
	return done_testing();
}
