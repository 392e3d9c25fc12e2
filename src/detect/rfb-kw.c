/* RFB keywords, as Suricata 8 documents them (rules/rfb-keywords): the
 * sticky buffer rfb.name (ServerInit's desktop name), rfb.sectype (the
 * chosen security type) and rfb.secresult (the SecurityResult: a number,
 * or ok, fail, toomany, unknown), both unsigned 32-bit comparisons, on the
 * flow's one RFB transaction. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/buffers.h"
#include "app-layer/rfb.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NEEDS "an rfb, tcp or ip"

static int kw_rfb_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	return sig_app_sticky(st, kw, ALPROTO_RFB, 0, NEEDS);
}

int rfb_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		   const uint8_t **data, uint32_t *len)
{
	const RfbState *s = rfb_tx_state(tx);

	if (!s || idx)
		return -1;
	switch (b->pbuf[side & 1]) {
	case RFB_KW_BUF_NAME:
		if (!s->info.has_server_init)
			return -1;
		*data = s->info.name ? s->info.name : (const uint8_t *)"";
		*len = s->info.name_len;
		return 0;
	}
	return -1;
}

enum { RK_SECTYPE, RK_SECRESULT };

typedef struct DetectRfb {
	int kind;
	int unknown;                /* secresult:unknown, any value but 0..2 */
	int negated;
	DetectUint u;
} DetectRfb;

static const char *const result_words[] = { "ok", "fail", "toomany" };

static int kw_rfb_match(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectRfb *d = calloc(1, sizeof(*d));
	char *v = str_trim_dup(arg ? arg : "", 1);
	const char *w;
	int found = 0;

	if (!d || !v) {
		free(d);
		free(v);
		return sig_error(st, "out of memory");
	}
	d->kind = kw->buf;
	w = v;
	if (d->kind == RK_SECRESULT) {
		if (*w == '!') {
			d->negated = 1;
			w++;
		}
		for (unsigned i = 0; i < 3; i++)
			if (strcasecmp(w, result_words[i]) == 0) {
				d->u.mode = UM_EQ;
				d->u.a = i;
				found = 1;
			}
		if (strcasecmp(w, "unknown") == 0)
			found = d->unknown = 1;
		if (!found)
			d->negated = 0;
	}
	if (!found && parse_uint_cmp(v, UINT32_MAX, &d->u) < 0) {
		free(d);
		free(v);
		return sig_error(st, "invalid %s \"%s\"", kw->name, arg ? arg : "");
	}
	free(v);
	if (sig_set_alproto_for(st, kw->name, ALPROTO_RFB, 0, NEEDS)) {
		free(d);
		return -1;
	}
	st->s->flags |= SIG_FLAG_TX_MATCH;
	return sm_append(st, SM_LIST_MATCH, KW_RFB_MATCH, d) < 0 ? -1 : 0;
}

static int match_rfb(const DetectTx *tc, const SigMatch *sm, Packet *p)
{
	const DetectRfb *d = sm->ctx;
	const RfbState *s = rfb_tx_state(tc->tx);
	int r;

	if (!s || !p->flow || p->flow->app_proto != ALPROTO_RFB)
		return 0;
	if (d->kind == RK_SECTYPE)
		return s->info.has_sectype && detect_uint_match(&d->u, s->info.sectype);
	if (!s->info.has_result)
		return 0;
	r = d->unknown ? !rfb_result_name(s->info.result) : detect_uint_match(&d->u, s->info.result);
	return d->negated ? !r : r;
}

const Keyword rfb_keywords[] = {
	{ .name = "rfb.name", .id = KW_RFB_STICKY, .setup = kw_rfb_sticky, .flags = STICKY,
	  .buf = BUF_RFB_NAME, .desc = "sticky buffer" },
	{ .name = "rfb.sectype", .id = KW_RFB_MATCH, .setup = kw_rfb_match,
	  .flags = NEED | SQ | KWF_TX, .buf = RK_SECTYPE, .desc = "rfb security type",
	  .tx_match = match_rfb },
	{ .name = "rfb.secresult", .id = KW_RFB_MATCH, .setup = kw_rfb_match,
	  .flags = NEED | SQ | KWF_TX, .buf = RK_SECRESULT, .desc = "rfb security result",
	  .tx_match = match_rfb },
	{ .name = NULL }
};
