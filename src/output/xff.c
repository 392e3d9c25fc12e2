/* X-Forwarded-For in eve records: see xff.h. */
#include "output/xff.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "app-layer/app-layer.h"
#include "app-layer/http.h"
#include "conf/conf.h"

static int set_err(char *err, size_t errlen, const char *path, const char *what, const char *v)
{
	snprintf(err, errlen, "%s: invalid value '%s' (%s)", path, v, what);
	return -1;
}

int xff_config_load(const char *prefix, XffConfig *c, char *err, size_t errlen)
{
	char path[400];
	const char *v;
	int on = 0;

	memset(c, 0, sizeof(*c));
	snprintf(c->header, sizeof(c->header), "X-Forwarded-For");
	snprintf(path, sizeof(path), "%s.xff.enabled", prefix);
	if (conf_get(path) && conf_get_bool(path, &on) < 0)
		return set_err(err, errlen, path, "yes or no", conf_get(path));
	c->enabled = (uint8_t)on;
	snprintf(path, sizeof(path), "%s.xff.mode", prefix);
	if ((v = conf_get(path))) {
		if (!strcmp(v, "overwrite"))
			c->overwrite = 1;
		else if (strcmp(v, "extra-data"))
			return set_err(err, errlen, path, "extra-data or overwrite", v);
	}
	snprintf(path, sizeof(path), "%s.xff.deployment", prefix);
	if ((v = conf_get(path))) {
		if (!strcmp(v, "forward"))
			c->forward = 1;
		else if (strcmp(v, "reverse"))
			return set_err(err, errlen, path, "reverse or forward", v);
	}
	snprintf(path, sizeof(path), "%s.xff.header", prefix);
	if ((v = conf_get(path))) {
		if (!*v || strlen(v) >= sizeof(c->header))
			return set_err(err, errlen, path, "a header name", v);
		snprintf(c->header, sizeof(c->header), "%s", v);
	}
	return 0;
}

static int is_space(uint8_t c)
{
	return c == ' ' || c == '\t';
}

/* The first or last comma-separated entry of the header's value, if it is
 * an address (v4 or v6): out as written. */
static int pick_addr(const XffConfig *c, const uint8_t *v, size_t n, char *out, size_t outlen)
{
	size_t s = 0, e = n;
	char buf[XFF_ADDR_MAX];
	unsigned char bin[16];

	if (c->forward) {
		const uint8_t *comma = memchr(v, ',', n);

		if (comma)
			e = (size_t)(comma - v);
	} else {
		for (size_t i = n; i > 0; i--) {
			if (v[i - 1] == ',') {
				s = i;
				break;
			}
		}
	}
	while (s < e && is_space(v[s]))
		s++;
	while (e > s && is_space(v[e - 1]))
		e--;
	if (e == s || e - s >= sizeof(buf) || e - s >= outlen)
		return 0;
	memcpy(buf, v + s, e - s);
	buf[e - s] = 0;
	if (inet_pton(AF_INET, buf, bin) != 1 && inet_pton(AF_INET6, buf, bin) != 1)
		return 0;
	memcpy(out, buf, e - s + 1);
	return 1;
}

int xff_lookup_tx(const XffConfig *c, const struct HttpTx *tx, char *out, size_t outlen)
{
	size_t n = http_tx_header_count(tx, APP_DIR_TOSERVER), hl = strlen(c->header);

	for (size_t i = 0; i < n; i++) {
		HttpBytes name, value;

		if (http_tx_header_at(tx, APP_DIR_TOSERVER, i, &name, &value) < 0 || !name.p ||
		    !value.p)
			continue;
		if (name.len == hl && !strncasecmp((const char *)name.p, c->header, hl))
			return pick_addr(c, value.p, value.len, out, outlen);
	}
	return 0;
}

#define XFF_TX_WALK 1024

int xff_lookup(const XffConfig *c, const Flow *f, int has_tx, uint64_t tx_id, char *out,
	       size_t outlen)
{
	uint64_t n;

	if (!c->enabled || !f || f->app_proto != ALPROTO_HTTP1)
		return 0;
	if (has_tx) {
		const HttpTx *tx = http_tx_get(f, tx_id);

		return tx && xff_lookup_tx(c, tx, out, outlen);
	}
	/* a packet's alert: the newest transaction that says (within the
	 * last XFF_TX_WALK ids: older ones are long freed) */
	n = http_tx_count(f);
	for (uint64_t id = n; id > 0 && n - id < XFF_TX_WALK; id--) {
		const HttpTx *tx = http_tx_get(f, id - 1);

		if (tx && xff_lookup_tx(c, tx, out, outlen))
			return 1;
	}
	return 0;
}
