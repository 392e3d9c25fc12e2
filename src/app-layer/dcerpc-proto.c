/* DCERPC's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.dcerpc.*), how it is recognised on TCP and UDP, and
 * the ops that hand the PDU library (dcerpc-parse.c) to the generic app
 * layer.
 *
 * Recognition is by content on any port, as Suricata 8's probing parsers
 * (port 135 needs nothing more): on TCP a v5.0 header with a known PTYPE,
 * sane drep and frag_length; on UDP a v4 header (80 bytes) that opens a
 * call (fragment 0, sane drep and flags2). Suricata 4.1 matched only the
 * first two bytes ("|05 00|", "|05 01|", "|04 00|"), which also takes
 * SOCKS5 and WireGuard for DCERPC; 8's probes, and ours, do not.
 *
 * Transactions are dcerpc_tx (dcerpc-parse.h): one per bind and per call,
 * done on a side once its last fragment came. */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-mem.h"
#include "app-layer/frames.h"
#include "app-layer/dcerpc.h"
#include "conf/conf.h"
#include "util/log.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DCERPC_KEY "app-layer.protocols.dcerpc."

static struct {
	int enabled;                /* 1 yes, 2 detection-only, 0 no */
	struct dcerpc_limits lim;
} dce_conf;

static void dce_config_defaults(AppLayerConfig *cfg)
{
	(void)cfg;
	dce_conf.enabled = 1;
	dce_conf.lim.max_stub = DCERPC_DEFAULT_MAX_STUB;
	dce_conf.lim.max_txs = DCERPC_DEFAULT_MAX_TXS;
}

static int dce_config_load(AppLayerConfig *cfg)
{
	int64_t n;
	uint64_t sz;
	int rc = 0, r;

	(void)cfg;
	if (app_conf_enabled(DCERPC_KEY "enabled", &dce_conf.enabled) < 0)
		rc = -1;
	r = app_conf_int_range(DCERPC_KEY "max-tx", &n, 1 << 20);
	if (r < 0)
		rc = -1;
	else if (r > 0 && n > 0)
		dce_conf.lim.max_txs = (uint32_t)n;
	r = app_conf_size_range(DCERPC_KEY "max-stub-size", &sz, 64u << 20);
	if (r < 0)
		rc = -1;
	else if (r > 0 && sz > 0)
		dce_conf.lim.max_stub = (uint32_t)sz;
	return rc;
}

static int dce_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return dce_conf.enabled;
}

/* app_layer.tx.dcerpc_{tcp,udp}, app_layer.error.dcerpc_{tcp,udp}.{parser,
 * alloc}: Suricata's names for a protocol on both transports */
static counter_id c_tx[2], c_err[2], c_alloc[2];
static int counters_on;

static void dce_register_counters(void)
{
	c_tx[0] = counter_register("app_layer.tx.dcerpc_tcp");
	c_tx[1] = counter_register("app_layer.tx.dcerpc_udp");
	c_err[0] = counter_register("app_layer.error.dcerpc_tcp.parser");
	c_err[1] = counter_register("app_layer.error.dcerpc_udp.parser");
	c_alloc[0] = counter_register("app_layer.error.dcerpc_tcp.alloc");
	c_alloc[1] = counter_register("app_layer.error.dcerpc_udp.alloc");
	counters_on = 1;
}

static void count(AppLayerThread *at, counter_id id)
{
	if (at && at->tc && counters_on && app_layer_counters_registered)
		counter_inc(at->tc, id);
}

static int dce_probe(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
		     uint32_t len)
{
	int r;

	(void)cfg;
	(void)dir;
	r = f->proto == 17 ? dcerpc_probe_cl(buf, len, NULL) : dcerpc_probe_co(buf, len, NULL);
	return r > 0 ? DET_YES : r == 0 ? DET_NO : DET_MORE;
}

/* ---------------- state ---------------- */

typedef struct DceFlow {
	struct dcerpc_state st;
	int udp;
	uint8_t dead[2];
	Flow *f;                    /* the flow the state hangs off (frames) */
} DceFlow;

/* Suricata's DCE/RPC frame types (frames.h): the whole fragment, its
 * 16-byte common header, and what follows the header. */
enum { DCE_FRAME_PDU, DCE_FRAME_HDR, DCE_FRAME_DATA };
static const char *const dce_frame_names[] = { "pdu", "hdr", "data", NULL };

static void dce_pdu_seen(void *arg, int to_server, int64_t rel, uint32_t frag_len)
{
	DceFlow *d = arg;
	int dir = to_server ? APP_DIR_TOSERVER : APP_DIR_TOCLIENT;
	uint64_t off;

	if (!app_frames_on(d->f))
		return;
	off = app_frame_offset(d->f, dir) + (uint64_t)rel;
	app_frame_new(d->f, dir, off, frag_len, DCE_FRAME_PDU);
	app_frame_new(d->f, dir, off, DCERPC_CO_HDR_LEN, DCE_FRAME_HDR);
	app_frame_new(d->f, dir, off + DCERPC_CO_HDR_LEN, frag_len - DCERPC_CO_HDR_LEN,
		      DCE_FRAME_DATA);
}

static void *dce_state_new(AppLayerThread *at, Flow *f)
{
	DceFlow *d;

	d = app_mem_calloc(ALPROTO_DCERPC, 1, sizeof(*d));
	if (!d) {
		count(at, c_alloc[f->proto == 17]);
		return NULL;
	}
	d->udp = f->proto == 17;
	d->f = f;
	dcerpc_state_init(&d->st, d->udp ? DCERPC_CL : DCERPC_CO, &dce_conf.lim);
	if (!d->udp) {
		d->st.pdu_seen = dce_pdu_seen;
		d->st.pdu_arg = d;
	}
	return d;
}

static void dce_state_free(void *state)
{
	DceFlow *d = state;

	if (!d)
		return;
	for (struct dcerpc_tx *tx = dcerpc_tx_first(&d->st); tx; tx = tx->next)
		if (tx->detect)
			app_layer_detect_state_free_proto(ALPROTO_DCERPC, tx->detect);
	dcerpc_state_free(&d->st);
	app_mem_free(ALPROTO_DCERPC, d);
}

static int dce_parse(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
		     uint32_t len, int flags)
{
	DceFlow *d = state;
	uint64_t before = d->st.next_id;
	int rc = 0;

	(void)f;
	if (dir < 0 || dir > 1)
		return -1;
	if (flags & APP_GAP) {
		dcerpc_gap(&d->st, dir == APP_DIR_TOSERVER);
		return 0;
	}
	if (data && len && !d->dead[dir]) {
		rc = dcerpc_feed(&d->st, dir == APP_DIR_TOSERVER, data, len);
		if (rc < 0) {
			count(at, c_err[d->udp]);
			/* CO: the stream lost its framing; CL: one bad datagram */
			if (!d->udp)
				d->dead[dir] = 1;
		}
	}
	for (uint64_t i = before; i < d->st.next_id; i++)
		count(at, c_tx[d->udp]);
	if ((flags & APP_EOF) && !d->udp) {
		/* a side that closed says nothing more: its half of every open
		 * call is over (logged as it stands, Suricata's UNREPLIED) */
		for (struct dcerpc_tx *tx = dcerpc_tx_first(&d->st); tx; tx = tx->next) {
			if (dir == APP_DIR_TOSERVER)
				tx->req_done = 1;
			else
				tx->resp_done = 1;
		}
	}
	return rc < 0 ? -1 : 0;
}

/* ---------------- transactions ---------------- */

const struct dcerpc_tx *dcerpc_flow_tx(const void *tx)
{
	return tx;
}

static uint64_t dce_tx_count(const void *state)
{
	return ((const DceFlow *)state)->st.next_id;
}

/* The lookup keeps a hint of its last find: a cache, not state anyone
 * sees, hence the cast. */
static void *dce_tx_get(const void *state, uint64_t id)
{
	return dcerpc_tx_by_id(&((DceFlow *)state)->st, id);
}

static uint64_t dce_tx_id(const void *tx)
{
	return ((const struct dcerpc_tx *)tx)->id;
}

/* 0 nothing of that side, 1 its last fragment (or the flow end) */
static int dce_tx_progress(const void *tx, int dir)
{
	const struct dcerpc_tx *t = tx;

	return dir == APP_DIR_TOSERVER ? t->req_done : t->resp_done;
}

static unsigned dce_tx_flags(const void *tx)
{
	return ((const struct dcerpc_tx *)tx)->app_flags;
}

static void dce_tx_set_flags(void *tx, unsigned flags)
{
	((struct dcerpc_tx *)tx)->app_flags |= flags;
}

static void **dce_tx_detect_slot(void *tx)
{
	return &((struct dcerpc_tx *)tx)->detect;
}

static int keep_tx(const struct dcerpc_tx *tx, void *arg)
{
	unsigned need = *(const unsigned *)arg;

	if (!dcerpc_tx_complete(tx) || (tx->app_flags & need) != need)
		return 1;
	if (tx->detect) {
		app_layer_detect_state_free_proto(ALPROTO_DCERPC, tx->detect);
		((struct dcerpc_tx *)tx)->detect = NULL;
	}
	return 0;
}

static void dce_tx_gc(void *state, unsigned need)
{
	dcerpc_tx_gc(&((DceFlow *)state)->st, keep_tx, &need);
}

static int dce_event_lookup(const char *name)
{
	return dcerpc_event_by_name(name);
}

static int dce_tx_has_event(const void *tx, int id)
{
	return id >= 0 && id < DCERPC_EV_COUNT &&
	       (((const struct dcerpc_tx *)tx)->events >> id & 1u);
}

const AppProtoOps dcerpc_proto_ops = {
	.name = "dcerpc",
	.ipprotos = APP_IPPROTO_TCP | APP_IPPROTO_UDP,
	.config_defaults = dce_config_defaults,
	.config_load = dce_config_load,
	.enabled = dce_enabled,
	.register_counters = dce_register_counters,
	.probe = dce_probe,
	.state_new = dce_state_new,
	.state_free = dce_state_free,
	.parse = dce_parse,
	.tx_count = dce_tx_count,
	.tx_get = dce_tx_get,
	.tx_id = dce_tx_id,
	.tx_log_id = dce_tx_id,
	.tx_progress = dce_tx_progress,
	.progress_complete = 1,
	.tx_flags = dce_tx_flags,
	.tx_set_flags = dce_tx_set_flags,
	.tx_detect_slot = dce_tx_detect_slot,
	.tx_gc = dce_tx_gc,
	.event_lookup = dce_event_lookup,
	.tx_has_event = dce_tx_has_event,
	.frame_names = dce_frame_names,
};
