/* proto.c — the control protocol's messages: one line of printable ASCII,
 * "VERB key=value key=value", at most PROTO_MAX_LINE bytes. Every message
 * is checked against the tables below (the verb's allowed and required
 * keys, each key's type and range) before anyone acts on it; anything else
 * is refused whole. docs/protocol.md describes the same tables. */
#include <stdio.h>
#include <string.h>
#include "proto.h"

enum ktype { KT_UINT, KT_ENUM, KT_WORD, KT_HEX };

static const char *const kinds[] = { "tcp_bw", "udp_bw", "tcp_lat", "udp_lat", "rpc_tcp",
				     "rpc_udp", "tcp_connect", NULL };
static const char *const dirs[] = { "send", "recv", "bidir", NULL };
static const char *const errs[] = { "version", "token", "busy", "bad", "limit", "state",
				    "timeout", "internal", NULL };
static const char *const err_text[] = {
	"the server speaks another protocol version",
	"the server refused the token",
	"the server is serving its maximum number of clients",
	"the server refused a malformed message",
	"the server refused a value beyond its limits",
	"the server did not expect that message now",
	"the server timed the test out",
	"the server failed (see its log)",
};

#define U63 ((1ull << 63) - 1)
static const struct {
	const char *name;
	enum ktype type;
	uint64_t min, max;
	const char *const *names;
} keys[PK__N] = {
	[PK_V] = { "v", KT_UINT, 1, 1000, NULL },
	[PK_TOKEN] = { "token", KT_WORD, 0, 0, NULL },
	[PK_KIND] = { "kind", KT_ENUM, 0, 0, kinds },
	[PK_STREAMS] = { "streams", KT_UINT, 1, PROTO_MAX_STREAMS, NULL },
	[PK_LEN] = { "len", KT_UINT, 1, PROTO_MAX_LEN, NULL },
	[PK_DIR] = { "dir", KT_ENUM, 0, 0, dirs },
	[PK_BYTES] = { "bytes", KT_UINT, 1, PROTO_MAX_BYTES, NULL },
	[PK_MS] = { "ms", KT_UINT, 1, PROTO_MAX_MS, NULL },
	[PK_RATE] = { "rate", KT_UINT, 1, PROTO_MAX_RATE, NULL },
	[PK_CPORT] = { "cport", KT_UINT, 1, 65535, NULL },
	[PK_PORT] = { "port", KT_UINT, 1, 65535, NULL },
	[PK_COOKIE] = { "cookie", KT_HEX, 0, 0, NULL },
	[PK_SENT] = { "sent", KT_UINT, 0, U63, NULL },
	[PK_RX] = { "rx", KT_UINT, 0, U63, NULL },
	[PK_TX] = { "tx", KT_UINT, 0, U63, NULL },
	[PK_RXCALLS] = { "rxcalls", KT_UINT, 0, U63, NULL },
	[PK_TXCALLS] = { "txcalls", KT_UINT, 0, U63, NULL },
	[PK_USEC] = { "usec", KT_UINT, 0, U63, NULL },
	[PK_USER_US] = { "user_us", KT_UINT, 0, U63, NULL },
	[PK_SYS_US] = { "sys_us", KT_UINT, 0, U63, NULL },
	[PK_RETRANS] = { "retrans", KT_UINT, 0, U63, NULL },
	[PK_RTT_US] = { "rtt_us", KT_UINT, 0, U63, NULL },
	[PK_PKTS] = { "pkts", KT_UINT, 0, U63, NULL },
	[PK_LOST] = { "lost", KT_UINT, 0, U63, NULL },
	[PK_DUP] = { "dup", KT_UINT, 0, U63, NULL },
	[PK_OOO] = { "ooo", KT_UINT, 0, U63, NULL },
	[PK_JITTER_NS] = { "jitter_ns", KT_UINT, 0, U63, NULL },
	[PK_CODE] = { "code", KT_ENUM, 0, 0, errs },
};

#define B(k) (1ull << (k))
#define RESULT_KEYS (B(PK_RX) | B(PK_TX) | B(PK_RXCALLS) | B(PK_TXCALLS) | B(PK_USEC) | \
		     B(PK_USER_US) | B(PK_SYS_US) | B(PK_RETRANS) | B(PK_RTT_US) | B(PK_PKTS) | \
		     B(PK_LOST) | B(PK_DUP) | B(PK_OOO) | B(PK_JITTER_NS))
static const struct {
	const char *name;
	uint64_t allowed, required;
} verbs[PV__N] = {
	[PV_HELLO] = { "HELLO", B(PK_V) | B(PK_TOKEN), B(PK_V) },
	[PV_OK] = { "OK", B(PK_V), B(PK_V) },
	[PV_TEST] = { "TEST", B(PK_KIND) | B(PK_STREAMS) | B(PK_LEN) | B(PK_DIR) | B(PK_BYTES) |
			      B(PK_MS) | B(PK_RATE) | B(PK_CPORT), B(PK_KIND) },
	[PV_READY] = { "READY", B(PK_PORT) | B(PK_COOKIE), B(PK_PORT) | B(PK_COOKIE) },
	[PV_GO] = { "GO", 0, 0 },
	[PV_STOP] = { "STOP", B(PK_SENT), 0 },
	[PV_RESULT] = { "RESULT", RESULT_KEYS, 0 },
	[PV_ERR] = { "ERR", B(PK_CODE), B(PK_CODE) },
	[PV_BYE] = { "BYE", 0, 0 },
};

const char *proto_verb_name(enum proto_verb v)
{
	return (unsigned)v < PV__N ? verbs[v].name : "?";
}

const char *proto_kind_name(int k)
{
	return k >= 0 && k < (int)(sizeof(kinds) / sizeof(kinds[0])) - 1 ? kinds[k] : "?";
}

const char *proto_dir_name(int d)
{
	return d >= 0 && d < 3 ? dirs[d] : "?";
}

const char *proto_err_text(int code)
{
	return code >= 0 && code < (int)(sizeof(err_text) / sizeof(err_text[0])) ?
		       err_text[code] : "the server sent an unknown error";
}

static int word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-';
}

static int word_ok(const char *s, size_t n)
{
	size_t i;

	if (n < 1 || n > PROTO_MAX_VALUE)
		return 0;
	for (i = 0; i < n; i++)
		if (!word_char(s[i]))
			return 0;
	return 1;
}

int proto_word_ok(const char *s)
{
	return word_ok(s, strlen(s));
}

void proto_init(struct proto_msg *m, enum proto_verb v)
{
	memset(m, 0, sizeof(*m));
	m->verb = v;
}

void proto_set(struct proto_msg *m, enum proto_key k, uint64_t v)
{
	m->has |= B(k);
	m->num[k] = v;
	if (keys[k].type == KT_ENUM)
		snprintf(m->str[k], sizeof(m->str[k]), "%s", keys[k].names[v]);
	else
		snprintf(m->str[k], sizeof(m->str[k]), "%llu", (unsigned long long)v);
}

int proto_set_str(struct proto_msg *m, enum proto_key k, const char *s)
{
	if (!proto_word_ok(s))
		return -1;
	m->has |= B(k);
	snprintf(m->str[k], sizeof(m->str[k]), "%s", s);
	return 0;
}

/* One value of key k: 0, or -1 with err. */
static int value(struct proto_msg *m, int k, const char *v, size_t n, char *err, size_t errlen)
{
	uint64_t x = 0;
	size_t i;

	if (!word_ok(v, n)) {
		snprintf(err, errlen, "bad value for %s", keys[k].name);
		return -1;
	}
	memcpy(m->str[k], v, n);
	m->str[k][n] = 0;
	switch (keys[k].type) {
	case KT_UINT:
		if (n > 19 || (n > 1 && v[0] == '0'))
			goto bad;
		for (i = 0; i < n; i++) {
			if (v[i] < '0' || v[i] > '9')
				goto bad;
			x = x * 10 + (uint64_t)(v[i] - '0');
		}
		if (x < keys[k].min || x > keys[k].max)
			goto bad;
		m->num[k] = x;
		return 0;
	case KT_ENUM:
		for (i = 0; keys[k].names[i]; i++)
			if (strcmp(keys[k].names[i], m->str[k]) == 0) {
				m->num[k] = i;
				return 0;
			}
		goto bad;
	case KT_HEX:
		if (n != PROTO_COOKIE_LEN)
			goto bad;
		for (i = 0; i < n; i++)
			if (!((v[i] >= '0' && v[i] <= '9') || (v[i] >= 'a' && v[i] <= 'f')))
				goto bad;
		return 0;
	case KT_WORD:
		return 0;
	}
bad:
	snprintf(err, errlen, "value of %s out of range", keys[k].name);
	return -1;
}

int proto_parse(const char *line, size_t len, struct proto_msg *m, char *err, size_t errlen)
{
	size_t i = 0, n;
	int v, k;

	memset(m, 0, sizeof(*m));
	if (len == 0 || len >= PROTO_MAX_LINE) {
		snprintf(err, errlen, len ? "message too long" : "empty message");
		return -1;
	}
	for (i = 0; i < len; i++)
		if (line[i] < 0x20 || line[i] > 0x7e) {
			snprintf(err, errlen, "byte %zu is not printable ASCII", i);
			return -1;
		}
	n = 0;
	while (n < len && line[n] != ' ')
		n++;
	for (v = 0; v < PV__N; v++)
		if (strlen(verbs[v].name) == n && memcmp(verbs[v].name, line, n) == 0)
			break;
	if (v == PV__N) {
		snprintf(err, errlen, "unknown verb");
		return -1;
	}
	m->verb = (enum proto_verb)v;
	i = n;
	while (i < len) {
		const char *t, *eq;

		i++;	/* the space */
		t = line + i;
		n = 0;
		while (i + n < len && line[i + n] != ' ')
			n++;
		eq = memchr(t, '=', n);
		if (!eq) {
			snprintf(err, errlen, "field without '='");
			return -1;
		}
		for (k = 0; k < PK__N; k++)
			if (strlen(keys[k].name) == (size_t)(eq - t) &&
			    memcmp(keys[k].name, t, (size_t)(eq - t)) == 0)
				break;
		if (k == PK__N || !(verbs[v].allowed & B(k))) {
			snprintf(err, errlen, "field not allowed in %s", verbs[v].name);
			return -1;
		}
		if (m->has & B(k)) {
			snprintf(err, errlen, "field %s given twice", keys[k].name);
			return -1;
		}
		if (value(m, k, eq + 1, n - (size_t)(eq + 1 - t), err, errlen) < 0)
			return -1;
		m->has |= B(k);
		i += n;
	}
	if ((m->has & verbs[v].required) != verbs[v].required) {
		snprintf(err, errlen, "%s lacks a required field", verbs[v].name);
		return -1;
	}
	return 0;
}

int proto_format(const struct proto_msg *m, char *out, size_t n)
{
	size_t len;
	int k, w;

	if ((unsigned)m->verb >= PV__N)
		return -1;
	w = snprintf(out, n, "%s", verbs[m->verb].name);
	if (w < 0 || (size_t)w >= n)
		return -1;
	len = (size_t)w;
	for (k = 0; k < PK__N; k++) {
		if (!(m->has & B(k)))
			continue;
		w = snprintf(out + len, n - len, " %s=%s", keys[k].name, m->str[k]);
		if (w < 0 || (size_t)w >= n - len)
			return -1;
		len += (size_t)w;
	}
	if (len + 1 >= n || len + 1 > PROTO_MAX_LINE)
		return -1;
	out[len++] = '\n';
	out[len] = 0;
	return (int)len;
}
