/* flow:[to_server|to_client|from_server|from_client][,established|
 * not_established|stateless][,only_stream|no_stream][,only_frag|no_frag] */
#include "detect/detect-int.h"
#include "detect/packet.h"

#include <stdlib.h>
#include <string.h>

static int kw_flow(SigParseState *st, const char *arg, const Keyword *kw)
{
	static const struct { const char *n; uint32_t f; } opts[] = {
		{ "to_server", FLOW_TOSERVER }, { "from_client", FLOW_TOSERVER },
		{ "to_client", FLOW_TOCLIENT }, { "from_server", FLOW_TOCLIENT },
		{ "established", FLOW_ESTABLISHED },
		{ "not_established", FLOW_NOT_ESTABLISHED },
		{ "stateless", FLOW_STATELESS },
		{ "only_stream", FLOW_ONLY_STREAM }, { "no_stream", FLOW_NO_STREAM },
		{ "only_frag", FLOW_ONLY_FRAG }, { "no_frag", FLOW_NO_FRAG },
	};
	char buf[256], *parts[8];
	DetectFlow *fd;
	uint32_t f = 0;
	int n;

	if (st->seen_flow++)
		return sig_error(st, "flow used more than once in a rule");
	n = sig_split_arg(st, "flow", arg, buf, sizeof(buf), parts, 8);
	if (n < 0)
		return -1;
	if (n > 8)
		return sig_error(st, "too many flow options");
	for (int i = 0; i < n; i++) {
		size_t k;

		for (k = 0; k < sizeof(opts) / sizeof(opts[0]); k++)
			if (strcmp(parts[i], opts[k].n) == 0)
				break;
		if (k == sizeof(opts) / sizeof(opts[0]))
			return sig_error(st, "invalid flow option \"%s\"", parts[i]);
		if (f & opts[k].f)
			return sig_error(st, "flow option \"%s\" repeated or implied twice", parts[i]);
		f |= opts[k].f;
	}
	if ((f & FLOW_TOSERVER) && (f & FLOW_TOCLIENT))
		return sig_error(st, "flow cannot be both to_server and to_client");
	if (__builtin_popcount(f & (FLOW_ESTABLISHED | FLOW_NOT_ESTABLISHED | FLOW_STATELESS)) > 1)
		return sig_error(st, "flow: established, not_established and stateless exclude each other");
	if ((f & FLOW_ONLY_STREAM) && (f & FLOW_NO_STREAM))
		return sig_error(st, "flow cannot be both only_stream and no_stream");
	if ((f & FLOW_ONLY_FRAG) && (f & FLOW_NO_FRAG))
		return sig_error(st, "flow cannot be both only_frag and no_frag");
	fd = calloc(1, sizeof(*fd));
	if (!fd)
		return sig_error(st, "out of memory");
	fd->flags = f;
	if (f & FLOW_TOSERVER)
		st->s->flags |= SIG_FLAG_TOSERVER;
	if (f & FLOW_TOCLIENT)
		st->s->flags |= SIG_FLAG_TOCLIENT;
	return sm_append(st, SM_LIST_MATCH, KW_FLOW, fd) < 0 ? -1 : 0;
}

static int match_flow(DetectThread *dt, const SigMatch *m, Packet *p)
{
	const DetectFlow *fd = m->ctx;
	const Flow *f = p->flow;
	uint32_t fl = fd->flags;

	if ((fl & FLOW_ONLY_STREAM) && !dt->pkt->in_stream)
		return 0;
	if ((fl & FLOW_NO_STREAM) && dt->pkt->in_stream)
		return 0;
	if (fl & FLOW_ONLY_FRAG && !(p->flags & PKT_REASSEMBLED))
		return 0;
	if (fl & FLOW_NO_FRAG && (p->flags & PKT_REASSEMBLED))
		return 0;
	if (!(fl & (FLOW_TOSERVER | FLOW_TOCLIENT | FLOW_ESTABLISHED | FLOW_NOT_ESTABLISHED)))
		return 1;
	if (!f)
		return 0;
	if ((fl & FLOW_TOSERVER) && !(p->flags & PKT_TOSERVER))
		return 0;
	if ((fl & FLOW_TOCLIENT) && !(p->flags & PKT_TOCLIENT))
		return 0;
	if ((fl & FLOW_ESTABLISHED) && !dt->pkt->established)
		return 0;
	if ((fl & FLOW_NOT_ESTABLISHED) && dt->pkt->established)
		return 0;
	return 1;
}

/* The keywords of this family: keywords.c gathers the tables (one line
 * per family). */
/* flow.age (Suricata 8): the flow's age in whole seconds, the packet's
 * time less the flow's first packet's, as an integer keyword */
static int kw_flow_age(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)kw;
	return sm_append_uint(st, SM_LIST_MATCH, KW_FLOW_AGE, "flow.age", arg, UINT32_MAX);
}

static int match_flow_age(DetectThread *dt, const SigMatch *m, Packet *p)
{
	const Flow *f = p->flow;

	(void)dt;
	if (!f)
		return 0;
	return detect_uint_match(m->ctx, (uint64_t)(p->ts.tv_sec > f->start.tv_sec ?
						    p->ts.tv_sec - f->start.tv_sec : 0));
}

/* bypass: once the rule matched, the flow is bypassed (Suricata 8: its
 * later packets skip stream, app layer and detection, counted in
 * flow_bypassed.local_*); postmatch_apply() sets it. */
static int kw_bypass(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	(void)kw;
	return sm_append(st, SM_LIST_POSTMATCH, KW_BYPASS, NULL) < 0 ? -1 : 0;
}

const Keyword flow_keywords[] = {
	{ .name = "flow", .id = KW_FLOW, .setup = kw_flow, .flags = NEED | SQ, .buf = -1,
	  .desc = "flow direction and state", .match = match_flow },
	{ .name = "flow.age", .id = KW_FLOW_AGE, .setup = kw_flow_age, .flags = NEED | SQ,
	  .buf = -1, .desc = "flow age in seconds", .match = match_flow_age },
	{ .name = "bypass", .id = KW_BYPASS, .setup = kw_bypass, .flags = NA, .buf = -1,
	  .desc = "bypass the flow once the rule matched" },
	{ .name = NULL }
};
