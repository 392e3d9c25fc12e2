/* geoip: the packet's addresses' country (datasets/geoip.h), as Suricata
 * 8's header-keywords page has it:
 *
 *   geoip:<src|dst|both|any>,<country code>[,<country code>...]
 *
 * Codes are ISO 3166 two-letter ones; a leading ! negates the list (the
 * address's country is none of them). An address with no country in the
 * database matches neither form. both: the two addresses match; any:
 * either. Without libmaxminddb the rule fails with Suricata's message. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "datasets/geoip.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define GEOIP_CODES_MAX 64

enum { GEOIP_SRC, GEOIP_DST, GEOIP_BOTH, GEOIP_ANY };

typedef struct DetectGeoip {
	uint8_t side, negated, n;
	char cc[GEOIP_CODES_MAX][3];
} DetectGeoip;

static int kw_geoip(SigParseState *st, const char *arg, const Keyword *kw)
{
	static const char *const sides[] = { "src", "dst", "both", "any" };
	char buf[512], e[256];
	char *p[GEOIP_CODES_MAX + 1];
	DetectGeoip *d;
	int n, side = -1;

	(void)kw;
	n = sig_split_arg(st, "geoip", arg, buf, sizeof(buf), p, GEOIP_CODES_MAX + 1);
	if (n < 0)
		return -1;
	if (n < 2)
		return sig_error(st, "geoip: expected <src|dst|both|any>,<country codes> (\"%s\")",
				 arg);
	for (int i = 0; i < 4; i++)
		if (strcmp(str_trim(p[0]), sides[i]) == 0)
			side = i;
	if (side < 0)
		return sig_error(st, "geoip: bad side %s (src, dst, both, any)", p[0]);
	if (geoip_open(e, sizeof(e)) != 0)
		return sig_error(st, "%s", e);
	d = calloc(1, sizeof(*d));
	if (!d)
		return sig_error(st, "out of memory");
	d->side = (uint8_t)side;
	for (int i = 1; i < n; i++) {
		const char *c = str_trim(p[i]);

		if (c[0] == '!') {
			if (i != 1) {
				free(d);
				return sig_error(st, "geoip: ! negates the whole list: put it first");
			}
			d->negated = 1;
			c = str_trim((char *)c + 1);
		}
		if (strlen(c) != 2 || !isalpha((unsigned char)c[0]) ||
		    !isalpha((unsigned char)c[1])) {
			free(d);
			return sig_error(st, "geoip: bad country code %s (two letters)", c);
		}
		d->cc[d->n][0] = (char)toupper((unsigned char)c[0]);
		d->cc[d->n][1] = (char)toupper((unsigned char)c[1]);
		d->n++;
	}
	if (sm_append(st, SM_LIST_MATCH, KW_GEOIP, d) < 0) {
		free(d);
		return sig_error(st, "out of memory");
	}
	return 0;
}

static int addr_matches(const DetectGeoip *d, const Address *a)
{
	char cc[3];
	int in = 0;

	if ((a->family != AF_INET && a->family != AF_INET6) ||
	    !geoip_country(a->family, a->a.u8, cc))
		return 0;
	for (int i = 0; i < d->n && !in; i++)
		in = d->cc[i][0] == cc[0] && d->cc[i][1] == cc[1];
	return in != d->negated;
}

static int match_geoip(DetectThread *dt, const SigMatch *m, Packet *p)
{
	const DetectGeoip *d = m->ctx;

	(void)dt;
	switch (d->side) {
	case GEOIP_SRC:
		return addr_matches(d, &p->src);
	case GEOIP_DST:
		return addr_matches(d, &p->dst);
	case GEOIP_BOTH:
		return addr_matches(d, &p->src) && addr_matches(d, &p->dst);
	default:
		return addr_matches(d, &p->src) || addr_matches(d, &p->dst);
	}
}

const Keyword geoip_keywords[] = {
	{ .name = "geoip", .id = KW_GEOIP, .setup = kw_geoip, .flags = NEED | SQ, .buf = -1,
	  .desc = "match on the country of the packet's addresses", .match = match_geoip },
	{ .name = NULL },
};
