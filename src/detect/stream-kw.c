/* TCP session keywords: stream_size, stream-event. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "stream/stream.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { SS_SERVER, SS_CLIENT, SS_BOTH, SS_EITHER };

/* stream_size:<server|client|both|either>,<op>,<bytes>; op is one of
 * < <= > >= = != (Suricata's set). */
static int kw_stream_size(SigParseState *st, const char *arg, const Keyword *kw)
{
	static const struct {
		const char *op;
		enum uint_mode mode;
	} ops[] = {
		{ "<", UM_LT }, { "<=", UM_LTE }, { ">", UM_GT }, { ">=", UM_GTE },
		{ "=", UM_EQ }, { "!=", UM_NE },
	};
	static const char *const sides[] = { "server", "client", "both", "either" };
	char *copy = str_trim_dup(arg, 1), *f[4];
	DetectStreamSize *d = NULL;
	uint64_t v;
	int n, side = -1, mode = -1;
	size_t i;

	(void)kw;
	if (!copy)
		return sig_error(st, "out of memory");
	n = split_commas(copy, f, 4);
	if (n != 3)
		goto bad;
	for (i = 0; i < sizeof(sides) / sizeof(sides[0]); i++)
		if (!strcasecmp(str_trim(f[0]), sides[i]))
			side = (int)i;
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(str_trim(f[1]), ops[i].op))
			mode = ops[i].mode;
	if (side < 0 || mode < 0 || parse_u64(f[2], &v) || v > UINT32_MAX)
		goto bad;
	free(copy);
	d = calloc(1, sizeof(*d));
	if (!d)
		return sig_error(st, "out of memory");
	d->side = side;
	d->u.mode = (enum uint_mode)mode;
	d->u.a = v;
	return sm_append(st, SM_LIST_MATCH, KW_STREAM_SIZE, d) < 0 ? -1 : 0;
bad:
	free(copy);
	return sig_error(st, "invalid stream_size \"%s\" (want <server|client|both|either>,"
			 "<op>,<bytes>)", arg);
}

static int cmp(const DetectUint *u, uint32_t v)
{
	switch (u->mode) {
	case UM_LT: return v < u->a;
	case UM_LTE: return v <= u->a;
	case UM_GT: return v > u->a;
	case UM_GTE: return v >= u->a;
	case UM_NE: return v != u->a;
	default: return v == u->a;
	}
}

int stream_size_match(const DetectStreamSize *d, const Packet *p)
{
	uint32_t srv, cli;
	int ms, mc;

	/* the sizes are the session's: the flow-end pseudo packet, which has
	 * no TCP header, asks about them too (suricata-verify
	 * streamsize-keyword-03-prefilter-pseudo) */
	if (p->proto != 6 || !stream_side_size(p->flow, 1, &srv) ||
	    !stream_side_size(p->flow, 0, &cli))
		return 0;
	ms = cmp(&d->u, srv);
	mc = cmp(&d->u, cli);
	switch (d->side) {
	case SS_SERVER:
		return ms;
	case SS_CLIENT:
		return mc;
	case SS_BOTH:
		return ms && mc;
	default:
		return ms || mc;
	}
}

/* stream-event:<name>, Suricata's stream event names ("stream." optional). */
static int kw_stream_event(SigParseState *st, const char *arg, const Keyword *kw)
{
	int ev = stream_event_lookup(arg);

	(void)kw;
	/* as decode-event and app-layer-event: 8.0 warns and leaves the rule
	 * out (an error only with --strict-rules) */
	if (ev < 0)
		return sig_unsupported(st, "unknown stream-event %s", arg);
	return sm_append_uint_eq(st, KW_STREAM_EVENT, (uint64_t)ev, 0);
}

int stream_event_match(const DetectUint *u, const Packet *p)
{
	for (int i = 0; i < p->stream_nevents; i++)
		if (p->stream_events[i] == u->a)
			return 1;
	return 0;
}

static int match_stream_size(DetectThread *dt, const SigMatch *m, Packet *p)
{
	(void)dt;
	return stream_size_match(m->ctx, p);
}

static int match_stream_event(DetectThread *dt, const SigMatch *m, Packet *p)
{
	(void)dt;
	return stream_event_match(m->ctx, p);
}

/* The keywords of this family: keywords.c gathers the tables (one line
 * per family). */
const Keyword stream_keywords[] = {
	{ .name = "stream_size", .id = KW_STREAM_SIZE, .setup = kw_stream_size, .flags = NEED | SQ,
	  .buf = -1, .desc = "tcp stream size (next seq - isn)", .match = match_stream_size },
	{ .name = "stream-event", .id = KW_STREAM_EVENT, .setup = kw_stream_event,
	  .flags = NEED | SQ, .buf = -1, .desc = "match a stream engine event",
	  .match = match_stream_event },
	{ .name = NULL }
};
