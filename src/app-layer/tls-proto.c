/* TLS's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.tls.*), how it is recognised, and the ops that hand
 * the stream parser (tls-parse.c) to the generic app layer.
 *
 * Detection is by content on any port, as Suricata's TLS patterns are: a
 * record header of type 20-24 and version 3.x, or an SSLv2 CLIENT-HELLO
 * (tls_probe). detection-ports is read for Suricata's yaml (its probing
 * parser's ports); the content probe already covers them.
 *
 * As in Suricata, the flow is one transaction: it starts with the flow's
 * first TLS bytes and lasts as long as the flow. */
#include "app-layer/app-layer-int.h"
#include "app-layer/frames.h"
#include "app-layer/app-counters.h"
#include "app-layer/app-mem.h"
#include "app-layer/tls.h"
#include "conf/conf.h"
#include "util/log.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------- configuration ---------------- */

enum tls_enc { TLS_ENC_TRACK_ONLY = 0, TLS_ENC_BYPASS, TLS_ENC_FULL };

/* Read once at start (config_load); read-only afterwards. */
static struct {
	int enabled;                /* 1 yes, 2 detection-only, 0 no */
	uint16_t ports[APP_MAX_DETECT_PORTS];
	unsigned nports;
	int ja3, ja4;               /* -1 auto, 0 no, 1 yes */
	int ja3_wanted, ja4_wanted; /* a rule asked (auto) */
	int encryption;             /* enum tls_enc */
} tls_conf;

#define TLS_KEY "app-layer.protocols.tls."

static void tls_config_defaults(AppLayerConfig *cfg)
{
	(void)cfg;
	memset(&tls_conf, 0, sizeof(tls_conf));
	tls_conf.enabled = 1;
	tls_conf.ports[0] = 443;
	tls_conf.nports = 1;
	tls_conf.ja3 = tls_conf.ja4 = -1;
}

static int tls_config_load(AppLayerConfig *cfg)
{
	const char *v;
	int rc = 0;

	(void)cfg;
	if (app_conf_enabled_ports(TLS_KEY, &tls_conf.enabled, tls_conf.ports, &tls_conf.nports) < 0)
		rc = -1;
	if (app_conf_bool_or(TLS_KEY "ja3-fingerprints", "auto", -1, &tls_conf.ja3) < 0 ||
	    app_conf_bool_or(TLS_KEY "ja4-fingerprints", "auto", -1, &tls_conf.ja4) < 0)
		rc = -1;
	v = conf_get(TLS_KEY "encryption-handling");
	if (v) {
		/* "default" is Suricata 7's name of track-only */
		if (strcasecmp(v, "track-only") == 0 || strcasecmp(v, "default") == 0) {
			tls_conf.encryption = TLS_ENC_TRACK_ONLY;
		} else if (strcasecmp(v, "bypass") == 0) {
			tls_conf.encryption = TLS_ENC_BYPASS;
		} else if (strcasecmp(v, "full") == 0) {
			tls_conf.encryption = TLS_ENC_FULL;
		} else {
			log_error("app-layer: " TLS_KEY "encryption-handling: unknown value \"%s\" "
				  "(track-only, bypass, full)", v);
			rc = -1;
		}
	}
	return rc;
}

static AppTxCounters ctr;

static void tls_register_counters(void)
{
	app_tx_counters_register(&ctr, "tls");
}

static int tls_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return tls_conf.enabled;
}

void tls_ja_request(int ja3, int ja4)
{
	if (ja3)
		tls_conf.ja3_wanted = 1;
	if (ja4)
		tls_conf.ja4_wanted = 1;
}

int tls_ja3_enabled(void)
{
	return tls_conf.ja3 == 1 || (tls_conf.ja3 < 0 && tls_conf.ja3_wanted);
}

int tls_ja4_enabled(void)
{
	return tls_conf.ja4 == 1 || (tls_conf.ja4 < 0 && tls_conf.ja4_wanted);
}

/* ---------------- detection ---------------- */

static int verdict(int r)
{
	return r > 0 ? DET_YES : r == 0 ? DET_NO : DET_MORE;
}

static int tls_probe_dir(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
			 uint32_t len)
{
	(void)cfg;
	(void)f;
	(void)dir;
	return verdict(tls_probe(buf, len));
}

/* A TLS record looks the same either way: midstream, a server's first
 * record toward the server side is TLS all the same. */
static int tls_probe_reversed(int dir, const uint8_t *buf, uint32_t len)
{
	(void)dir;
	return verdict(tls_probe(buf, len));
}

/* ---------------- state and transaction ---------------- */

typedef struct TlsTx {
	TlsState *s;
	unsigned flags;             /* APP_TX_* */
	void *detect;               /* detection's slot */
	void *kw;                   /* detection's cache (tls_tx_kw_cache) */
	void (*kw_free)(void *);
	uint8_t closed[2];          /* eof, gap or a stream we cannot read */
	uint64_t parsed_at;         /* the flow's packet count at the last parse */
	uint32_t events_logged;     /* eve anomaly: bit e, event e was written */
	uint8_t store_want;         /* tls.store matched: bit 1 << dir, that chain to disk */
	uint8_t store_done;         /* bit 1 << dir: that chain was written */
} TlsTx;

/* Suricata 8's TLS frame types: a record (header and payload), its
 * header, its payload; an alert's and a heartbeat's payload; an SSLv2
 * record's header and the whole record. */
enum { TLS_FR_PDU, TLS_FR_HDR, TLS_FR_DATA, TLS_FR_ALERT, TLS_FR_HB, TLS_FR_V2_HDR, TLS_FR_V2_PDU };
static const char *const tls_frame_names[] = { "pdu", "hdr", "data", "alert", "heartbeat",
					       "sslv2.hdr", "sslv2.pdu", NULL };

/* During a parse with frames on: the flow and the stream offset of the
 * data handed. */
struct tls_frame_ctx {
	Flow *f;
	uint64_t base;
};

static void on_record(void *arg, int dir, int64_t at, uint32_t hlen, uint32_t len, uint8_t type)
{
	const struct tls_frame_ctx *c = arg;
	uint64_t off = c->base + (uint64_t)at;

	if (type == 0) {
		app_frame_new(c->f, dir, off, (int64_t)hlen + len, TLS_FR_V2_PDU);
		app_frame_new(c->f, dir, off, hlen, TLS_FR_V2_HDR);
		return;
	}
	app_frame_new(c->f, dir, off, (int64_t)hlen + len, TLS_FR_PDU);
	app_frame_new(c->f, dir, off, hlen, TLS_FR_HDR);
	app_frame_new(c->f, dir, off + hlen, len, TLS_FR_DATA);
	if (type == 21)
		app_frame_new(c->f, dir, off + hlen, len, TLS_FR_ALERT);
	else if (type == 24)
		app_frame_new(c->f, dir, off + hlen, len, TLS_FR_HB);
}

static void *tls_state_new_op(AppLayerThread *at, Flow *f)
{
	TlsTx *t = app_mem_calloc(ALPROTO_TLS, 1, sizeof(*t));

	(void)f;
	if (t)
		t->s = tls_state_new();
	if (!t || !t->s) {
		app_mem_free(ALPROTO_TLS, t);
		app_tx_count(at, &ctr, APP_CTR_ALLOC, 1);
		return NULL;
	}
	app_tx_count(at, &ctr, APP_CTR_TX, 1);
	return t;
}

static void tls_state_free_op(void *state)
{
	TlsTx *t = state;

	if (!t)
		return;
	if (t->detect)
		app_layer_detect_state_free_proto(ALPROTO_TLS, t->detect);
	if (t->kw && t->kw_free)
		t->kw_free(t->kw);
	tls_state_free(t->s);
	app_mem_free(ALPROTO_TLS, t);
}

static int tls_parse_op(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
			uint32_t len, int flags)
{
	TlsTx *t = state;

	if (!t || dir < 0 || dir > 1)
		return -1;
	if (flags & APP_GAP) {
		/* records cannot be found again after a gap: Suricata's TLS
		 * parser gives the direction up as well */
		if (!t->closed[dir])
			app_tx_count(at, &ctr, APP_CTR_GAP, 1);
		t->closed[dir] = 1;
		return 0;
	}
	if (!t->closed[dir] && len && data &&
	    !(tls_conf.encryption == TLS_ENC_BYPASS && (t->s->flags & TLS_F_APPDATA_STARTED))) {
		uint64_t records = t->s->dir[dir].records;
		struct tls_frame_ctx fc;

		t->parsed_at = f->pkts_toserver + f->pkts_toclient;
		if (app_frames_on(f)) {
			fc.f = f;
			fc.base = app_frame_offset(f, dir);
			t->s->on_record = on_record;
			t->s->on_record_arg = &fc;
		}
		if (tls_parse(t->s, dir, data, len) < 0) {
			t->closed[dir] = 1;
			app_tx_count(at, &ctr, APP_CTR_PARSER, 1);
		}
		t->s->on_record = NULL;
		/* a record completed: its bytes are inspected at the next
		 * chance, as Suricata's parser triggers raw inspection */
		if (t->s->dir[dir].records != records)
			app_layer_trigger_raw(f, dir);
	}
	if (flags & APP_EOF)
		t->closed[dir] = 1;
	return 0;
}

const TlsState *tls_tx_state(const void *tx)
{
	return tx ? ((const TlsTx *)tx)->s : NULL;
}

void tls_tx_store_request(void *tx, int dir)
{
	((TlsTx *)tx)->store_want |= (uint8_t)(1u << dir);
}

unsigned tls_tx_store_pending(const void *tx)
{
	const TlsTx *t = tx;

	return t->store_want & ~t->store_done;
}

void tls_tx_store_done(void *tx, int dir)
{
	((TlsTx *)tx)->store_done |= (uint8_t)(1u << dir);
}

uint32_t *tls_tx_events_logged(void *tx)
{
	return &((TlsTx *)tx)->events_logged;
}

uint32_t tls_tx_packet_state(const void *tx, const Flow *f)
{
	const TlsTx *t = tx;

	if (!t || t->parsed_at != f->pkts_toserver + f->pkts_toclient)
		return 0;
	return t->s->cur_state;
}

void *tls_tx_kw_cache(void *tx, void *(*make)(void), void (*free_fn)(void *))
{
	TlsTx *t = tx;

	if (!t)
		return NULL;
	if (!t->kw) {
		t->kw = make();
		t->kw_free = free_fn;
	}
	return t->kw;
}

/* The transaction starts with the state: the flow's first TLS bytes. */
static uint64_t tls_tx_count(const void *state)
{
	return state ? 1 : 0;
}

static void *tls_tx_get(const void *state, uint64_t id)
{
	return id == 0 ? (void *)state : NULL;
}

static uint64_t tls_tx_id(const void *tx)
{
	(void)tx;
	return 0;
}

/* Suricata writes the tls record once the server's certificate (or what
 * follows it: key exchange, ChangeCipherSpec, a TLS 1.3 ServerHello) was
 * read, without waiting for the client's reply (suricata-verify
 * tls-glupteba): the client side is done with its hello, the server side
 * with its certificate. */
static int tls_tx_progress(const void *tx, int dir)
{
	const TlsTx *t = tx;
	uint32_t fl = t->s->flags;

	const uint32_t server_done = TLS_F_CERT_SERVER | TLS_F_SERVER_KEYX | TLS_F_CCS_TOCLIENT;

	if (t->closed[dir & 1] || (fl & TLS_F_HANDSHAKE_DONE))
		return TLS_PROGRESS_DONE;
	if (dir == APP_DIR_TOSERVER) {
		if (fl & (TLS_F_CERT_CLIENT | TLS_F_CLIENT_KEYX | TLS_F_CCS_TOSERVER))
			return TLS_PROGRESS_DONE;
		if (!(fl & TLS_F_CLIENT_HELLO))
			return 0;
		/* a server asking for the client's certificate: wait for it */
		return (fl & server_done) && !(fl & TLS_F_CERT_REQUEST) ? TLS_PROGRESS_DONE
									 : TLS_PROGRESS_HELLO;
	}
	if (fl & server_done)
		return TLS_PROGRESS_DONE;
	return (fl & TLS_F_SERVER_HELLO) ? TLS_PROGRESS_HELLO : 0;
}

static unsigned tls_tx_flags(const void *tx)
{
	return ((const TlsTx *)tx)->flags;
}

static void tls_tx_set_flags(void *tx, unsigned flags)
{
	((TlsTx *)tx)->flags |= flags;
}

static void **tls_tx_detect_slot(void *tx)
{
	return &((TlsTx *)tx)->detect;
}

/* The flow's one transaction lives as long as the parser: it goes with
 * the state (app_layer_flow_free). */
static void tls_tx_gc(void *state, unsigned need)
{
	(void)state;
	(void)need;
}

static int tls_event_lookup(const char *name)
{
	return tls_event_by_name(name);
}

static int tls_tx_has_event(const void *tx, int id)
{
	const TlsTx *t = tx;

	return id >= 0 && id < TLS_EV_COUNT && t->s->events[id] > 0;
}

/* track-only and bypass: once application data comes the flow's payload
 * (packets and raw stream) is not inspected, as Suricata's
 * no-inspection-payload; tls.* keywords and events still apply. full
 * keeps inspecting it. */
static int tls_no_inspection(const void *state)
{
	const TlsTx *t = state;

	return tls_conf.encryption != TLS_ENC_FULL && t->s &&
	       (t->s->flags & TLS_F_APPDATA_STARTED);
}

/* bypass: once application data was parsed the flow is bypassed, as
 * Suricata (suricata-verify bypass-tls-enabled: the packet that has the
 * client's first application data parsed, the server's ACK of it, is the
 * last one inspected; the end of the handshake is one packet early) */
static int tls_bypass(const void *state)
{
	const TlsTx *t = state;

	return tls_conf.encryption == TLS_ENC_BYPASS && t->s &&
	       (t->s->flags & TLS_F_APPDATA_STARTED);
}

/* Suricata 8's TLS hooks (tls:client_hello_done, ...) on our progress:
 * the states after the hellos are reached together, once the side is
 * done (tls_tx_progress). The aliases are the names later Suricatas gave
 * the same phases (client_started, client_hello, ...). */
static const AppHook tls_hooks[] = {
	{ "client_in_progress", APP_DIR_TOSERVER, 0, "client_started" },
	{ "client_hello_done", APP_DIR_TOSERVER, TLS_PROGRESS_HELLO, "client_hello" },
	{ "client_cert_done", APP_DIR_TOSERVER, TLS_PROGRESS_DONE, "client_cert" },
	{ "client_handshake_done", APP_DIR_TOSERVER, TLS_PROGRESS_DONE, "client_data" },
	{ "client_finished", APP_DIR_TOSERVER, TLS_PROGRESS_DONE, NULL },
	{ "server_in_progress", APP_DIR_TOCLIENT, 0, "server_started" },
	{ "server_hello", APP_DIR_TOCLIENT, TLS_PROGRESS_HELLO, NULL },
	{ "server_cert_done", APP_DIR_TOCLIENT, TLS_PROGRESS_DONE, "server_cert" },
	{ "server_hello_done", APP_DIR_TOCLIENT, TLS_PROGRESS_DONE, NULL },
	{ "server_handshake_done", APP_DIR_TOCLIENT, TLS_PROGRESS_DONE, "server_data" },
	{ "server_finished", APP_DIR_TOCLIENT, TLS_PROGRESS_DONE, NULL },
	{ NULL, 0, 0, NULL },
};

const AppProtoOps tls_proto_ops = {
	.name = "tls",
	.ipprotos = APP_IPPROTO_TCP,
	.frame_names = tls_frame_names,
	.config_defaults = tls_config_defaults,
	.config_load = tls_config_load,
	.enabled = tls_enabled,
	.register_counters = tls_register_counters,
	.probe = tls_probe_dir,
	.probe_reversed = tls_probe_reversed,
	.state_new = tls_state_new_op,
	.state_free = tls_state_free_op,
	.parse = tls_parse_op,
	.no_inspection = tls_no_inspection,
	.no_inspection_flush = 1,
	.bypass = tls_bypass,
	.tx_count = tls_tx_count,
	.tx_get = tls_tx_get,
	.tx_id = tls_tx_id,
	.tx_log_id = tls_tx_id,
	.tx_progress = tls_tx_progress,
	.progress_complete = TLS_PROGRESS_DONE,
	.hooks = tls_hooks,
	.tx_flags = tls_tx_flags,
	.tx_set_flags = tls_tx_set_flags,
	.tx_detect_slot = tls_tx_detect_slot,
	.tx_gc = tls_tx_gc,
	.event_lookup = tls_event_lookup,
	.tx_has_event = tls_tx_has_event,
};
