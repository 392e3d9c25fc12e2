/* app-layer-protocol:[!]<name>[,<mode>] (Suricata 8's "Generic App Layer
 * Keywords"): the flow's application protocol is (or, negated, is decided
 * and is not) the one named: any registry name (http, tls, dns, ssh, ftp,
 * ftp-data, ...), "failed" (detection gave up) or "unknown" (not decided
 * yet). One protocol is kept per flow here, so the modes (direction,
 * final, to_server, to_client, either) all read it. A packet keyword: the
 * rule is not an application-layer rule of that protocol (it may be
 * `alert tcp`). */
#include "detect/detect-int.h"
#include "detect/engine-int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct DetectAppProto {
	uint16_t alproto;
	uint8_t negated;
} DetectAppProto;

static int kw_app_proto(SigParseState *st, const char *arg, const Keyword *kw)
{
	char *v = str_trim_dup(arg ? arg : "", 1), *name, *mode;
	DetectAppProto *d;
	int p;

	if (!v)
		return sig_error(st, "out of memory");
	name = v;
	mode = strchr(v, ',');
	if (mode) {
		*mode++ = '\0';
		mode = str_trim(mode);
		if (strcmp(mode, "direction") && strcmp(mode, "final") && strcmp(mode, "to_server") &&
		    strcmp(mode, "to_client") && strcmp(mode, "either")) {
			sig_error(st, "%s: unknown mode \"%s\"", kw->name, mode);
			free(v);
			return -1;
		}
	}
	name = str_trim(name);
	d = calloc(1, sizeof(*d));
	if (!d) {
		free(v);
		return sig_error(st, "out of memory");
	}
	if (*name == '!') {
		d->negated = 1;
		name = str_trim(name + 1);
	}
	p = strcasecmp(name, "unknown") == 0 ? ALPROTO_UNKNOWN : app_proto_by_name(name);
	if (p < 0) {
		sig_error(st, "%s: unknown protocol \"%s\"", kw->name, name);
		free(d);
		free(v);
		return -1;
	}
	d->alproto = (uint16_t)p;
	free(v);
	return sm_append(st, SM_LIST_MATCH, KW_APP_LAYER_PROTOCOL, d) < 0 ? -1 : 0;
}

static int match_app_proto(DetectThread *dt, const SigMatch *m, Packet *p)
{
	const DetectAppProto *d = m->ctx;
	uint16_t cur = p->flow ? p->flow->app_proto : ALPROTO_UNKNOWN;

	(void)dt;
	if (d->negated)
		return cur != ALPROTO_UNKNOWN && cur != d->alproto;
	return cur == d->alproto;
}

const Keyword app_proto_keywords[] = {
	{ "app-layer-protocol", KW_APP_LAYER_PROTOCOL, kw_app_proto, NEED | SQ, 0,
	  "the flow's application protocol", match_app_proto, NULL },
	{ .name = NULL }
};
