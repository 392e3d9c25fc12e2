/* WebSocket's entry in the application-protocol registry: its yaml section
 * (app-layer.protocols.websocket: enabled, max-payload-size), the frames
 * (frame:websocket.pdu/.header/.data) and the transactions of websocket.h.
 *
 * Not detected by content: a flow becomes WebSocket when HTTP/1's 101
 * answer names it in its Upgrade header (http-upgrade.c), as in Suricata 8;
 * the bytes HTTP got past the 101 are its first. */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/frames.h"
#include "app-layer/websocket.h"
#include "conf/conf.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define WS_KEY "app-layer.protocols.websocket."
/* live transactions per flow: each is complete when made, so only a flow
 * detection and logging are not keeping up with comes near it */
#define WS_MAX_TX 4096

static struct {
	int enabled;
	uint64_t max_payload;
} ws_conf;

static void ws_config_defaults(AppLayerConfig *cfg)
{
	(void)cfg;
	ws_conf.enabled = 1;
	ws_conf.max_payload = 0xffff;
}

static int ws_config_load(AppLayerConfig *cfg)
{
	uint64_t v = 0;
	int rc = 0;

	(void)cfg;
	if (app_conf_enabled(WS_KEY "enabled", &ws_conf.enabled) < 0)
		rc = -1;
	switch (app_conf_size_range(WS_KEY "max-payload-size", &v, UINT32_MAX)) {
	case 1:
		ws_conf.max_payload = v;
		break;
	case -1:
		rc = -1;
	}
	return rc;
}

static int ws_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return ws_conf.enabled;
}

static AppTxCounters ctr;

static void ws_register_counters(void)
{
	app_tx_counters_register(&ctr, "websocket");}

typedef struct WsState {
	WsConn c;                   /* first: txlist.h's ops read its AppTxList */
	Flow *f;                    /* during parse, for the frames */
	uint64_t base;              /* stream offset minus parser offset, this call */
	uint64_t ntx, nalloc;
} WsState;

static void on_frame(void *arg, int dir, uint64_t off, uint32_t hlen, uint64_t plen)
{
	WsState *st = arg;
	uint64_t at = st->base + off;
	/* the transaction the frame makes once over: the next one, after the
	 * ids of the HTTP parser before the change (app_layer_tx_get's) */
	uint64_t tx = ((const AppFlowState *)st->f->alstate)->tx_base + st->c.txs.next_id;

	if (!app_frames_on(st->f))
		return;
	app_frame_set_tx(st->f, dir, app_frame_new(st->f, dir, at, (int64_t)(hlen + plen),
						   WS_FRAME_PDU), tx);
	app_frame_set_tx(st->f, dir, app_frame_new(st->f, dir, at, hlen, WS_FRAME_HEADER), tx);
	app_frame_set_tx(st->f, dir, app_frame_new(st->f, dir, at + hlen, (int64_t)plen,
						   WS_FRAME_DATA), tx);
}

static void *ws_state_new(AppLayerThread *at, Flow *f)
{
	WsState *st = calloc(1, sizeof(*st));

	(void)f;
	if (!st) {
		app_tx_count(at, &ctr, APP_CTR_ALLOC, 1);
		return NULL;
	}
	ws_conn_init(&st->c, (uint32_t)ws_conf.max_payload, WS_MAX_TX);
	st->c.on_frame = on_frame;
	st->c.arg = st;
	return st;
}

static void ws_state_free(void *state)
{
	WsState *st = state;

	if (!st)
		return;
	ws_conn_free(&st->c);
	free(st);
}

static int ws_parse(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
		    uint32_t len, int flags)
{
	WsState *st = state;

	if (!st || dir < 0 || dir > 1)
		return 0;
	if (flags & APP_GAP) {
		if (!st->c.stopped[dir])
			app_tx_count(at, &ctr, APP_CTR_GAP, 1);
		ws_conn_gap(&st->c, dir);
		return 0;
	}
	if (data && len) {
		uint64_t s = app_frame_offset(f, dir);

		/* the bytes HTTP held past its 101 come as a copy, the tail of
		 * what the frames' offset already counts */
		if (!f->app_data_off1[dir] && s >= len)
			s -= len;
		st->f = f;
		st->base = s - st->c.off[dir];
		ws_conn_feed(&st->c, dir, data, len);
		st->f = NULL;
	}
	if (st->c.ntx > st->ntx) {
		app_tx_count(at, &ctr, APP_CTR_TX, st->c.ntx - st->ntx);
		st->ntx = st->c.ntx;
	}
	if (st->c.nalloc > st->nalloc) {
		app_tx_count(at, &ctr, APP_CTR_ALLOC, st->c.nalloc - st->nalloc);
		st->nalloc = st->c.nalloc;
	}
	return 0;
}

/* After HTTP/1's 101: what its Sec-WebSocket-Extensions agreed to for
 * permessage-deflate (the windows and context takeover per side). */
static void ws_take_over(AppLayerThread *at, Flow *f, void *state, unsigned from,
			 void *old_state)
{
	static const char key[] = "sec-websocket-extensions:";
	WsState *st = state;
	const uint8_t *p, *end;
	uint32_t n;

	(void)at;
	(void)f;
	if (!st || from != ALPROTO_HTTP1 || http_upgrade_response(old_state, &p, &n) < 0)
		return;
	for (end = p + n; p < end;) {
		const uint8_t *eol = memchr(p, '\r', (size_t)(end - p));
		size_t ll = eol ? (size_t)(eol - p) : (size_t)(end - p);
		WsDeflateParams dp;

		if (ll > sizeof(key) - 1 && strncasecmp((const char *)p, key, sizeof(key) - 1) == 0 &&
		    ws_deflate_params_parse((const char *)p + sizeof(key) - 1,
					    ll - (sizeof(key) - 1), &dp) == 1) {
			ws_conn_set_deflate(&st->c, &dp);
			return;
		}
		p += ll + 2;
	}
}

static const char *const ws_frame_names[] = { "pdu", "header", "data", NULL };

const AppProtoOps websocket_proto_ops = {
	.name = "websocket",
	.ipprotos = APP_IPPROTO_TCP,
	.config_defaults = ws_config_defaults,
	.config_load = ws_config_load,
	.enabled = ws_enabled,
	.register_counters = ws_register_counters,
	.state_new = ws_state_new,
	.state_free = ws_state_free,
	.parse = ws_parse,
	.take_over = ws_take_over,
	TXL_TX_OPS,
	.event_lookup = ws_event_by_name,
	.tx_has_event = txl_op_has_event,
	.frame_names = ws_frame_names,
};
