/* WebSocket keywords, as Suricata 8 documents them (rules/websocket-
 * keywords): the sticky buffer websocket.payload (a frame's unmasked
 * payload, a fragmented message's whole on its last frame) and the frame
 * properties websocket.opcode (a number comparison or a name, "!" to
 * negate), websocket.mask (a number comparison; frames without a mask do
 * not match) and websocket.flags (a number comparison on the first header
 * byte's upper bits, or the names fin and comp, each maybe negated). A
 * frame is a one-way transaction, read on the side it went. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/buffers.h"
#include "app-layer/websocket.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NEEDS "a websocket, tcp or ip"

static int kw_ws_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	return sig_app_sticky(st, kw, ALPROTO_WEBSOCKET, 0, NEEDS);
}

int websocket_buffer_get(const DetectBuffer *b, void *txp, int side, uint32_t idx,
			 const uint8_t **data, uint32_t *len)
{
	const WsTx *tx = txp;

	(void)b;
	if (idx || !tx->payload || side != tx->dir)
		return -1;
	*data = tx->payload;
	*len = tx->plen;
	return 0;
}

enum { WK_OPCODE, WK_MASK, WK_FLAGS };

typedef struct DetectWs {
	int kind;
	DetectUint u;
	uint8_t set, clear;         /* WK_FLAGS by names */
	uint8_t by_names;
} DetectWs;

/* "fin,!comp": the named bits into set and clear; -1 on an unknown name */
static int parse_flag_names(const char *arg, DetectWs *d)
{
	char buf[128], *parts[8];
	int k;

	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	k = split_commas(buf, parts, 8);
	if (k <= 0)
		return -1;
	for (int i = 0; i < k; i++) {
		char *p = str_trim(parts[i]);
		uint8_t *to = &d->set;
		uint8_t bit;

		if (*p == '!') {
			to = &d->clear;
			p = str_trim(p + 1);
		}
		if (strcasecmp(p, "fin") == 0)
			bit = WS_FLAG_FIN;
		else if (strcasecmp(p, "comp") == 0)
			bit = WS_FLAG_COMP;
		else
			return -1;
		*to |= bit;
	}
	d->by_names = 1;
	return (d->set & d->clear) ? -1 : 0;
}

static int64_t opcode_by_name(const char *name)
{
	return ws_opcode_by_name(name);
}

static int kw_ws_prop(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectWs *d;
	char *v;
	int bad = 0;

	if (sig_set_alproto_for(st, kw->name, ALPROTO_WEBSOCKET, 0, NEEDS))
		return -1;
	v = str_trim_dup(arg ? arg : "", 1);
	d = calloc(1, sizeof(*d));
	if (!v || !d) {
		free(v);
		free(d);
		return sig_error(st, "out of memory");
	}
	d->kind = kw->buf;
	switch (d->kind) {
	case WK_OPCODE:
		bad = parse_uint_enum(v, 255, opcode_by_name, &d->u) != 0;
		break;
	case WK_MASK:
		bad = parse_uint_cmp(v, UINT32_MAX, &d->u) != 0;
		break;
	case WK_FLAGS:
		if (parse_uint_cmp(v, 255, &d->u) != 0) {
			memset(&d->u, 0, sizeof(d->u));
			bad = parse_flag_names(v, d) < 0;
		}
		break;
	}
	if (bad) {
		sig_error(st, "invalid %s \"%s\"", kw->name, v);
		free(v);
		free(d);
		return -1;
	}
	free(v);
	st->s->flags |= SIG_FLAG_TX_MATCH;
	return sm_append(st, SM_LIST_MATCH, KW_WEBSOCKET_PROP, d) < 0 ? -1 : 0;
}

static int match_ws(const DetectTx *tc, const SigMatch *m, Packet *p)
{
	const DetectWs *d = m->ctx;
	const WsTx *t = tc->tx;

	if (!p->flow || p->flow->app_proto != ALPROTO_WEBSOCKET || !t)
		return 0;
	switch (d->kind) {
	case WK_OPCODE:
		return detect_uint_match(&d->u, t->opcode);
	case WK_MASK:
		return t->masked && detect_uint_match(&d->u, t->mask);
	case WK_FLAGS:
		if (d->by_names)
			return (t->flags & d->set) == d->set && !(t->flags & d->clear);
		return detect_uint_match(&d->u, t->flags);
	}
	return 0;
}

#define WSP(n_, k_, d_) { .name = n_, .id = KW_WEBSOCKET_PROP, .setup = kw_ws_prop, \
	.flags = NEED | SQ | KWF_TX, .buf = k_, .desc = d_, .tx_match = match_ws }

const Keyword websocket_keywords[] = {
	{ .name = "websocket.payload", .id = KW_WEBSOCKET_STICKY, .setup = kw_ws_sticky,
	  .flags = STICKY, .buf = BUF_WEBSOCKET_PAYLOAD,
	  .desc = "sticky buffer: a frame's unmasked payload" },
	WSP("websocket.opcode", WK_OPCODE, "websocket frame opcode (number or name)"),
	WSP("websocket.mask", WK_MASK, "websocket frame mask key"),
	WSP("websocket.flags", WK_FLAGS, "websocket frame flags (number, or fin/comp names)"),
	{ .name = NULL }
};
