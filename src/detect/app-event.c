/* app-layer-event:<proto>.<event>
 *
 * Matches a transaction on which the protocol's parser raised the event
 * (http: libhtp warnings and our checks, app-layer/http.c event_names),
 * looked up through the app-layer registry by the protocol's name. The
 * rule becomes a transaction rule of that protocol: tx-inspect.c
 * evaluates it once per transaction, when the transaction is complete (or
 * at flow end), so events raised late in the response are seen.
 * Packet-level app-layer events (applayer_mismatch_protocol_both_directions,
 * ..., no protocol before the name) are a packet keyword of their own id:
 * the packet whose data raised the event (Packet.app_events, set before
 * detection) matches. Suricata 8 has six; the ones protocol detection here
 * does not raise load and never match. Protocols without events are not
 * supported yet: such rules are skipped with that reason. DNS events (dns.malformed_data, ...) are the
 * parser's per message, so per transaction. */
#include "detect/engine-int.h"
#include "detect/detect-int.h"
#include "app-layer/app-layer.h"
#include "app-layer/app-layer-int.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct DetectAppEvent {
	uint16_t alproto;
	int event;                /* app_layer_event_lookup() id */
} DetectAppEvent;

/* The rule is alproto's (a protocol other than HTTP): its protocol must be
 * one alproto runs on. */
static int sig_set_alproto(SigParseState *st, uint16_t alproto)
{
	Signature *s = st->s;
	unsigned ipp = app_proto_ipprotos(alproto);

	if (s->alproto != ALPROTO_UNKNOWN && s->alproto != alproto)
		return sig_error(st, "app-layer-event: the rule is a %s rule already",
				 app_proto_name(s->alproto));
	if (s->proto != SIG_PROTO_IP &&
	    !((ipp & APP_IPPROTO_TCP) && s->proto == IPPROTO_TCP) &&
	    !((ipp & APP_IPPROTO_UDP) && s->proto == IPPROTO_UDP))
		return sig_error(st, "%s events need a %s rule", app_proto_name(alproto),
				 app_proto_name(alproto));
	s->alproto = alproto;
	s->flags |= SIG_FLAG_APPLAYER;
	return 0;
}

/* Suricata 8's packet-level app-layer events; bit: the APP_PEV_* that
 * app-layer raises for it, 0 for one never raised here */
static const struct { const char *name; unsigned bit; } packet_events[] = {
	{ "applayer_mismatch_protocol_both_directions", APP_PEV_MISMATCH_BOTH_DIRECTIONS },
	{ "applayer_wrong_direction_first_data", 0 },
	{ "applayer_detect_protocol_only_one_direction", 0 },
	{ "applayer_proto_detection_skipped", 0 },
	{ "applayer_no_tls_after_starttls", APP_PEV_NO_TLS_AFTER_STARTTLS },
	{ "applayer_unexpected_protocol", APP_PEV_UNEXPECTED_PROTOCOL },
};

static int packet_event(SigParseState *st, const char *name)
{
	unsigned *bit;

	for (size_t i = 0; i < sizeof(packet_events) / sizeof(packet_events[0]); i++) {
		if (strcasecmp(name, packet_events[i].name))
			continue;
		if (!(bit = malloc(sizeof(*bit))))
			return sig_error(st, "out of memory");
		*bit = packet_events[i].bit;
		return sm_append(st, SM_LIST_MATCH, KW_APP_LAYER_PEVENT, bit) < 0 ? -1 : 0;
	}
	/* as an unknown protocol event: 8.0 warns and leaves the rule out */
	return sig_unsupported(st, "app-layer-event: unknown packet event %s", name);
}

static int match_packet_event(DetectThread *dt, const SigMatch *m, Packet *p)
{
	(void)dt;
	return (p->app_events & *(const unsigned *)m->ctx) != 0;
}

static int kw_app_layer_event(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectAppEvent *ev;
	const char *dot = strchr(arg, '.');
	char name[32];
	int id, ap;

	(void)kw;
	if (!dot)
		return packet_event(st, arg);
	ap = -1;
	if ((size_t)(dot - arg) < sizeof(name)) {
		memcpy(name, arg, (size_t)(dot - arg));
		name[dot - arg] = '\0';
		/* the rule names the protocol exactly (Suricata: "http", not "HTTP"),
		 * or by its alias exactly ("ikev2") */
		ap = app_proto_by_name(name);
		if (ap > 0 && strcmp(name, app_proto_name((uint16_t)ap)) != 0 &&
		    !(app_proto_ops((unsigned)ap)->alias &&
		      strcmp(name, app_proto_ops((unsigned)ap)->alias) == 0))
			ap = -1;
	}
	/* transaction rules of the protocols whose parsers raise events */
	if (ap <= 0 || !app_proto_has_events((uint16_t)ap))
		return sig_unsupported(st, "app-layer-event:%s: protocol without events", arg);
	id = app_layer_event_lookup((uint16_t)ap, dot + 1);
	/* Suricata warns and does not load the rule (an error only with
	 * --strict-rules): a rule set written for a newer parser still loads */
	if (id < 0)
		return sig_unsupported(st, "app-layer-event: unknown %s event %s", name, dot + 1);
	if (ap == ALPROTO_HTTP1) {
		if (sig_set_alproto_http(st) != 0)
			return -1;
	} else if (sig_set_alproto(st, (uint16_t)ap) != 0) {
		return -1;
	}
	ev = malloc(sizeof(*ev));
	if (!ev)
		return sig_error(st, "out of memory");
	ev->alproto = (uint16_t)ap;
	ev->event = id;
	return sm_append(st, SM_LIST_MATCH, KW_APP_LAYER_EVENT, ev) < 0 ? -1 : 0;
}

int app_event_sig_has(const Signature *s)
{
	const SigMatchList *ml = &s->lists[SM_LIST_MATCH];

	for (int i = 0; i < ml->n; i++)
		if (ml->m[i].kw == KW_APP_LAYER_EVENT)
			return 1;
	return 0;
}

int app_event_tx_match(const Signature *s, const Flow *f, const void *tx)
{
	const SigMatchList *ml = &s->lists[SM_LIST_MATCH];

	for (int i = 0; i < ml->n; i++) {
		const DetectAppEvent *ev = ml->m[i].ctx;

		if (ml->m[i].kw == KW_APP_LAYER_EVENT &&
		    (f->app_proto != ev->alproto || !app_layer_tx_has_event(f, tx, ev->event)))
			return 0;
	}
	return 1;
}

/* A transaction property: tx-inspect.c checks it (app_event_tx_match). */
static int match_app_layer_event(DetectThread *dt, const SigMatch *m, Packet *p)
{
	(void)dt;
	(void)m;
	(void)p;
	return 1;
}

/* The keywords of this family: keywords.c gathers the tables (one line
 * per family). */
const Keyword app_event_keywords[] = {
	{ .name = "app-layer-event", .id = KW_APP_LAYER_EVENT, .setup = kw_app_layer_event,
	  .flags = NEED | SQ, .buf = -1, .desc = "match an app-layer parser event",
	  .match = match_app_layer_event },
	/* the packet events' id: found by id only (the setup above parses
	 * both forms) */
	{ .name = "app-layer-event", .id = KW_APP_LAYER_PEVENT, .setup = kw_app_layer_event,
	  .flags = NEED | SQ | KWF_ID_ONLY, .buf = -1, .desc = "match an app-layer packet event",
	  .match = match_packet_event },
	{ .name = NULL }
};
