/* app-layer-protocol:[!]<protocol>[,<mode>] (Suricata 8's "Generic App
 * Layer Keywords"): the flow's application protocol, a packet keyword.
 * Modes: final (the flow's protocol now), original (the protocol before a
 * change such as SMTP's STARTTLS, else the current one), either (the
 * current or the original), to_server / to_client (what detection found
 * in that direction: Flow.app_proto_ts / app_proto_tc, which differ from
 * the flow's when the two sides name different protocols or one names
 * none: "failed"), direction (that of the packet's direction). Without a
 * mode: the flow's protocol (our default since before 8.0's modes; the
 * visible suite agrees). A protocol matches its equivalents too
 * (app_proto_equals(): dns and http2 a doh2 flow), as Suricata's
 * AppProtoEquals; with ",exact" only itself. "failed" names a flow whose detection gave up. A
 * flow (or direction) not decided yet matches neither form, as in
 * Suricata. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "app-layer/app-layer.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum alp_mode { ALP_CURRENT = 0, ALP_ORIGINAL, ALP_EITHER, ALP_TOSERVER, ALP_TOCLIENT,
		ALP_DIRECTION };

typedef struct DetectAppProto {
	uint16_t alproto;
	uint8_t negated;
	uint8_t mode;               /* enum alp_mode */
	uint8_t exact;              /* ",exact": no equivalents */
	uint8_t at_detect;          /* followed by "prefilter": only on the packets
	                             * where detection finished (PKT_APP_DETECT_DONE) */
} DetectAppProto;

void app_layer_protocol_prefilter(void *ctx)
{
	((DetectAppProto *)ctx)->at_detect = 1;
}

static int kw_app_layer_protocol(SigParseState *st, const char *arg, const Keyword *kw)
{
	char buf[64], *name, *mode;
	DetectAppProto *d;
	int ap;

	(void)kw;
	if (strlen(arg) >= sizeof(buf))
		return sig_error(st, "invalid app-layer-protocol \"%s\"", arg);
	strcpy(buf, arg);
	name = str_trim(buf);
	mode = strchr(name, ',');
	if (mode) {
		*mode++ = '\0';
		mode = str_trim(mode);
		name = str_trim(name);
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return sig_error(st, "out of memory");
	if (*name == '!') {
		d->negated = 1;
		name = str_trim(name + 1);
	}
	ap = app_proto_by_name(name);
	if (ap <= 0) {
		free(d);
		return sig_error(st, "app-layer-protocol: unknown protocol \"%s\"", name);
	}
	d->alproto = (uint16_t)ap;
	if (!mode || !strcasecmp(mode, "final")) {
		d->mode = ALP_CURRENT;
	} else if (!strcasecmp(mode, "to_server")) {
		d->mode = ALP_TOSERVER;
	} else if (!strcasecmp(mode, "to_client")) {
		d->mode = ALP_TOCLIENT;
	} else if (!strcasecmp(mode, "direction")) {
		d->mode = ALP_DIRECTION;
	} else if (!strcasecmp(mode, "original")) {
		d->mode = ALP_ORIGINAL;
	} else if (!strcasecmp(mode, "either")) {
		d->mode = ALP_EITHER;
	} else if (!strcasecmp(mode, "exact")) {
		d->exact = 1;
	} else {
		free(d);
		return sig_error(st, "app-layer-protocol: unknown mode \"%s\" (to_server, "
				 "to_client, direction, final, original, either, exact)", mode);
	}
	return sm_append(st, SM_LIST_MATCH, KW_APP_LAYER_PROTOCOL, d) < 0 ? -1 : 0;
}

/* Whether flow protocol ap (not unknown) is d's. */
static inline int alp_is(const DetectAppProto *d, uint16_t ap)
{
	return d->exact ? ap == d->alproto : app_proto_equals(d->alproto, ap);
}

static int match_app_layer_protocol(DetectThread *dt, const SigMatch *sm, Packet *p)
{
	const DetectAppProto *d = sm->ctx;
	const Flow *f = p->flow;
	uint16_t cur, orig;
	int hit, dir_mode;

	(void)dt;
	if (!f || f->app_proto == ALPROTO_UNKNOWN)
		return 0;
	/* Suricata's app-layer-protocol prefilter engine adds the rule only
	 * on the packet where its direction's detection finished */
	if (d->at_detect && !(p->flags & PKT_APP_DETECT_DONE))
		return 0;
	cur = flow_app_proto_shown(f);
	orig = f->app_proto_orig ? f->app_proto_orig : f->app_proto;
	if (d->mode == ALP_DIRECTION)
		dir_mode = p->flags & PKT_TOCLIENT ? ALP_TOCLIENT : ALP_TOSERVER;
	else
		dir_mode = d->mode;
	if (dir_mode == ALP_TOSERVER || dir_mode == ALP_TOCLIENT) {
		uint16_t side = dir_mode == ALP_TOSERVER ? f->app_proto_ts : f->app_proto_tc;

		/* that side not decided yet: neither form matches */
		if (side == ALPROTO_UNKNOWN)
			return 0;
		if (side == f->app_proto)
			side = cur;
		hit = alp_is(d, side);
		return d->negated ? !hit : hit;
	}
	switch (d->mode) {
	case ALP_ORIGINAL:
		hit = alp_is(d, orig);
		break;
	case ALP_EITHER:
		hit = alp_is(d, cur) || alp_is(d, orig);
		break;
	default:
		hit = alp_is(d, cur);
	}
	return d->negated ? !hit : hit;
}

/* The keywords of this family: keywords.c gathers the tables (one line
 * per family). */
const Keyword app_proto_keywords[] = {
	{ .name = "app-layer-protocol", .id = KW_APP_LAYER_PROTOCOL,
	  .setup = kw_app_layer_protocol, .flags = NEED | SQ, .buf = -1,
	  .desc = "the flow's application protocol", .match = match_app_layer_protocol },
	{ .name = NULL }
};
