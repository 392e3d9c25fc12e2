/* RFB's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.rfb.*), how it is recognised, and the ops that hand
 * the handshake parser (rfb-parse.c) to the generic app layer.
 *
 * Detection is by content on any port, as Suricata 8's: a direction that
 * starts with "RFB " (the server speaks first; midstream the client's
 * version is the same string). detection-ports (5900-5910 in 8.0's yaml)
 * is read for Suricata's yaml; the content probe already covers them.
 *
 * One transaction per flow, complete once ServerInit came or the
 * handshake failed; what follows is framebuffer traffic, not parsed. Each
 * handshake message is a "pdu" frame. */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/app-mem.h"
#include "app-layer/frames.h"
#include "app-layer/rfb.h"
#include "conf/conf.h"

#include <stdlib.h>
#include <string.h>

#define RFB_KEY "app-layer.protocols.rfb."

/* Read once at start (config_load); read-only afterwards. */
static struct {
	int enabled;                /* 1 yes, 2 detection-only, 0 no */
	uint16_t ports[APP_MAX_DETECT_PORTS];
	unsigned nports;
} rfb_conf;

static void rfb_config_defaults(AppLayerConfig *cfg)
{
	(void)cfg;
	memset(&rfb_conf, 0, sizeof(rfb_conf));
	rfb_conf.enabled = 1;
	for (unsigned i = 0; i < 11 && i < APP_MAX_DETECT_PORTS; i++)
		rfb_conf.ports[rfb_conf.nports++] = (uint16_t)(5900 + i);
}

static int rfb_config_load(AppLayerConfig *cfg)
{
	(void)cfg;
	return app_conf_enabled_ports(RFB_KEY, &rfb_conf.enabled, rfb_conf.ports,
				      &rfb_conf.nports) < 0 ? -1 : 0;
}

static AppTxCounters ctr;

static void rfb_register_counters(void)
{
	app_tx_counters_register(&ctr, "rfb");
}

static int rfb_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return rfb_conf.enabled;
}

static int rfb_probe_dir(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
			 uint32_t len)
{
	int r;

	(void)cfg;
	(void)f;
	(void)dir;
	r = rfb_probe(buf, len);
	return r > 0 ? DET_YES : r == 0 ? DET_NO : DET_MORE;
}

/* ---------------- state and transaction ---------------- */

enum { RFB_FRAME_PDU };
static const char *const rfb_frame_names[] = { "pdu", NULL };

typedef struct RfbTx {
	RfbState *s;
	unsigned flags;             /* APP_TX_* */
	void *detect;
	int detect_only;
	uint32_t events_logged;     /* eve anomaly: bit e, event e was written */
	Flow *f;                    /* during parse, for the frames */
	int64_t delta[2];           /* stream offset - parser offset, per side */
} RfbTx;

static void msg_frame(void *ctx, int dir, uint64_t off, uint32_t len)
{
	RfbTx *t = ctx;

	if (!t->f || !app_frames_on(t->f))
		return;
	app_frame_set_tx(t->f, dir,
			 app_frame_new(t->f, dir, (uint64_t)((int64_t)off + t->delta[dir]), len,
				       RFB_FRAME_PDU),
			 0);
}

static void *rfb_state_new_op(AppLayerThread *at, Flow *f)
{
	RfbTx *t = app_mem_calloc(ALPROTO_RFB, 1, sizeof(*t));

	(void)f;
	if (t)
		t->s = rfb_state_new();
	if (!t || !t->s) {
		app_mem_free(ALPROTO_RFB, t);
		app_tx_count(at, &ctr, APP_CTR_ALLOC, 1);
		return NULL;
	}
	t->detect_only = rfb_conf.enabled == 2;
	t->s->cb = msg_frame;
	t->s->cb_ctx = t;
	app_tx_count(at, &ctr, APP_CTR_TX, 1);
	return t;
}

static void rfb_state_free_op(void *state)
{
	RfbTx *t = state;

	if (!t)
		return;
	if (t->detect)
		app_layer_detect_state_free_proto(ALPROTO_RFB, t->detect);
	rfb_state_free(t->s);
	app_mem_free(ALPROTO_RFB, t);
}

static int rfb_parse_op(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
			uint32_t len, int flags)
{
	RfbTx *t = state;
	int r = 0;

	if (!t || dir < 0 || dir > 1 || t->detect_only)
		return 0;
	if (flags & APP_GAP) {
		if (!rfb_side_done(t->s, dir))
			app_tx_count(at, &ctr, APP_CTR_GAP, 1);
		rfb_side_end(t->s, dir);
		return 0;
	}
	if (len && data && !rfb_side_done(t->s, dir)) {
		/* the parser's offsets count the bytes it was given; the stream
		 * offset of this call's first byte pins them for the frames */
		t->delta[dir] = (int64_t)app_frame_offset(f, dir) -
				(int64_t)(t->s->side[dir].consumed + t->s->side[dir].len);
		t->f = f;
		r = rfb_parse(t->s, dir, data, len);
		t->f = NULL;
		if (r < 0)
			app_tx_count(at, &ctr, APP_CTR_PARSER, 1);
	}
	if (flags & APP_EOF)
		rfb_side_end(t->s, dir);
	return r < 0 ? -1 : 0;
}

const RfbState *rfb_tx_state(const void *tx)
{
	return tx ? ((const RfbTx *)tx)->s : NULL;
}

uint32_t *rfb_tx_events_logged(void *tx)
{
	return &((RfbTx *)tx)->events_logged;
}

static uint64_t rfb_tx_count(const void *state)
{
	return state ? 1 : 0;
}

static void *rfb_tx_get(const void *state, uint64_t id)
{
	return id == 0 ? (void *)state : NULL;
}

static uint64_t rfb_tx_id(const void *tx)
{
	(void)tx;
	return 0;
}

/* 1 once the handshake is over (or the side ended): the transaction is
 * complete then, both ways, as Suricata's one RFB transaction. */
static int rfb_tx_progress(const void *tx, int dir)
{
	const RfbTx *t = tx;

	return rfb_side_done(t->s, dir) || (t->s->side[0].dead && t->s->side[1].dead) ? 1 : 0;
}

static unsigned rfb_tx_flags(const void *tx)
{
	return ((const RfbTx *)tx)->flags;
}

static void rfb_tx_set_flags(void *tx, unsigned flags)
{
	((RfbTx *)tx)->flags |= flags;
}

static void **rfb_tx_detect_slot(void *tx)
{
	return &((RfbTx *)tx)->detect;
}

/* The one transaction goes with the state (app_layer_flow_free). */
static void rfb_tx_gc(void *state, unsigned need)
{
	(void)state;
	(void)need;
}

static int rfb_event_lookup(const char *name)
{
	return rfb_event_by_name(name);
}

static int rfb_tx_has_event(const void *tx, int id)
{
	const RfbTx *t = tx;

	return id >= 0 && id < RFB_EV_COUNT && (t->s->events >> id & 1u);
}

const AppProtoOps rfb_proto_ops = {
	.name = "rfb",
	.ipprotos = APP_IPPROTO_TCP,
	.config_defaults = rfb_config_defaults,
	.config_load = rfb_config_load,
	.enabled = rfb_enabled,
	.register_counters = rfb_register_counters,
	.probe = rfb_probe_dir,
	.state_new = rfb_state_new_op,
	.state_free = rfb_state_free_op,
	.parse = rfb_parse_op,
	.tx_count = rfb_tx_count,
	.tx_get = rfb_tx_get,
	.tx_id = rfb_tx_id,
	.tx_log_id = rfb_tx_id,
	.tx_progress = rfb_tx_progress,
	.progress_complete = 1,
	.tx_flags = rfb_tx_flags,
	.tx_set_flags = rfb_tx_set_flags,
	.tx_detect_slot = rfb_tx_detect_slot,
	.tx_gc = rfb_tx_gc,
	.event_lookup = rfb_event_lookup,
	.tx_has_event = rfb_tx_has_event,
	.frame_names = rfb_frame_names,
};
