/* doh2's entry in the application-protocol registry. DoH has no probe,
 * port or parser of its own: Suricata 8 finds it on the HTTP/2 parser
 * (http2-proto.c calls doh2_flow_mark() when a request is a DNS query),
 * and the flow then shows as doh2 while HTTP/2's parser, transactions
 * and keywords carry on. The entry gives the name to the rules, eve,
 * --list-app-layer-protos and the yaml (app-layer.protocols.doh2). */
#include "app-layer/app-layer-int.h"
#include "app-layer/doh2.h"

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

const AppProtoOps doh2_proto_ops = {
	.name = "doh2",
	.ipprotos = APP_IPPROTO_TCP,
	.config_defaults = doh2_config_defaults,
	.config_load = doh2_config_load,
	.enabled = doh2_enabled,
};
