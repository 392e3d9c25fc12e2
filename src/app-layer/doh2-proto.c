/* doh2's entry in the application-protocol registry. DoH has no probe,
 * port or parser of its own: Suricata 8 finds it on the HTTP/2 parser
 * (http2-proto.c calls doh2_flow_mark() when a request is a DNS query),
 * and the flow then shows as doh2 while HTTP/2's parser, transactions
 * and keywords carry on. The entry gives the name to the rules, eve,
 * --list-app-layer-protos and the yaml (app-layer.protocols.doh2). */
#include "app-layer/app-layer-int.h"
#include "app-layer/doh2.h"
#include "app-layer/dns-parse.h"

#include <string.h>
#include <strings.h>

/* 1 by default, as in Suricata 8's stock yaml; the only state */
static int doh2_on = 1;

#define DOH2_KEY "app-layer.protocols.doh2."

static void doh2_config_defaults(AppLayerConfig *cfg)
{
	(void)cfg;
	doh2_on = 1;
}

static int doh2_config_load(AppLayerConfig *cfg)
{
	(void)cfg;
	/* no detection-ports: DoH is found inside HTTP/2 */
	return app_conf_enabled(DOH2_KEY "enabled", &doh2_on);
}

static int doh2_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return doh2_on != 0;
}

/* The value of header name of s equals v, ignoring case and anything
 * from a ';' on (content-type parameters). */
static int header_is(const Http2Side *s, const char *name, const char *v)
{
	uint32_t n, vl = (uint32_t)strlen(v);
	const uint8_t *h = http2_header(s, name, &n);
	const uint8_t *semi;

	if (!h)
		return 0;
	if ((semi = memchr(h, ';', n)))
		n = (uint32_t)(semi - h);
	while (n && (h[n - 1] == ' ' || h[n - 1] == '\t'))
		n--;
	return n == vl && !strncasecmp((const char *)h, v, vl);
}

/* Whether :path's query has a parameter "dns" (RFC 8484 4.1). */
static int query_has_dns(const uint8_t *p, uint32_t n)
{
	const uint8_t *q = memchr(p, '?', n);
	uint32_t i;

	if (!q)
		return 0;
	for (i = (uint32_t)(q - p) + 1; i + 4 <= n; i++) {
		int start = p[i - 1] == '?' || p[i - 1] == '&';

		if (start && !memcmp(p + i, "dns=", 4))
			return 1;
	}
	return 0;
}

int doh2_is_request(const Http2Side *s)
{
	uint32_t ml, pl;
	const uint8_t *m = http2_header(s, ":method", &ml);
	const uint8_t *p;

	if (!m)
		return 0;
	if (ml == 3 && !memcmp(m, "GET", 3)) {
		p = http2_header(s, ":path", &pl);
		return p && query_has_dns(p, pl);
	}
	if (ml == 4 && !memcmp(m, "POST", 4))
		return header_is(s, "content-type", "application/dns-message");
	return 0;
}

void doh2_flow_mark(Flow *f)
{
	if (f && doh2_on && f->app_proto == ALPROTO_HTTP2)
		f->app_proto_shown = ALPROTO_DOH2;
}

static int b64url_val(uint8_t c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '-' || c == '+')
		return 62;
	if (c == '_' || c == '/')
		return 63;
	return -1;
}

/* base64url (RFC 4648 5, no padding needed) of in into out (at most
 * max bytes); the decoded length, or -1 when invalid or too long. */
static int b64url_decode(const uint8_t *in, uint32_t n, uint8_t *out, uint32_t max)
{
	uint32_t acc = 0, bits = 0, o = 0;

	for (uint32_t i = 0; i < n; i++) {
		int v;

		if (in[i] == '=')
			break;
		if ((v = b64url_val(in[i])) < 0)
			return -1;
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (o >= max)
				return -1;
			out[o++] = (uint8_t)(acc >> bits);
		}
	}
	return (int)o;
}

/* The largest GET query decoded (on the stack): DNS queries are small */
#define DOH2_GET_MAX 4096

static struct dns_msg *request_msg(const Http2Side *s)
{
	uint8_t buf[DOH2_GET_MAX];
	struct dns_msg *m = NULL;
	uint32_t ml, pl;
	const uint8_t *meth = http2_header(s, ":method", &ml);
	const uint8_t *p;
	int n = -1;

	if (!meth || !doh2_is_request(s))
		return NULL;
	if (ml == 4) {
		if (!s->body || !s->body_len)
			return NULL;
		if (dns_msg_parse(s->body, s->body_len, DNS_DIR_TOSERVER, &m) != DNS_OK) {
			dns_msg_free(m);
			return NULL;
		}
		return m;
	}
	p = http2_header(s, ":path", &pl);
	for (uint32_t i = 1; p && i + 4 <= pl; i++) {
		if ((p[i - 1] == '?' || p[i - 1] == '&') && !memcmp(p + i, "dns=", 4)) {
			const uint8_t *v = p + i + 4, *end = memchr(v, '&', pl - (i + 4));

			n = b64url_decode(v, (uint32_t)((end ? end : p + pl) - v), buf, sizeof(buf));
			break;
		}
	}
	if (n <= 0)
		return NULL;
	if (dns_msg_parse(buf, (size_t)n, DNS_DIR_TOSERVER, &m) != DNS_OK) {
		dns_msg_free(m);
		return NULL;
	}
	return m;
}

static struct dns_msg *response_msg(const Http2Side *s)
{
	struct dns_msg *m = NULL;

	if (!s->body || !s->body_len || !header_is(s, "content-type", "application/dns-message"))
		return NULL;
	if (dns_msg_parse(s->body, s->body_len, DNS_DIR_TOCLIENT, &m) != DNS_OK) {
		dns_msg_free(m);
		return NULL;
	}
	return m;
}

int doh2_tx_msgs(const Http2Tx *tx, struct dns_msg **req, struct dns_msg **resp)
{
	*req = request_msg(&tx->side[APP_DIR_TOSERVER]);
	*resp = *req || doh2_is_request(&tx->side[APP_DIR_TOSERVER]) ?
			response_msg(&tx->side[APP_DIR_TOCLIENT]) : NULL;
	return *req || *resp;
}

const AppProtoOps doh2_proto_ops = {
	.name = "doh2",
	.ipprotos = APP_IPPROTO_TCP,
	.config_defaults = doh2_config_defaults,
	.config_load = doh2_config_load,
	.enabled = doh2_enabled,
};
