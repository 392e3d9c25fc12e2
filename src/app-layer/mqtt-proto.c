/* MQTT's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.mqtt.*), how it is recognised, and the ops that
 * hand the stream parser (mqtt-parse.c) to the generic app layer.
 *
 * Detection is Suricata's: a probe of the fixed header (a known type, a
 * QoS below 3, a well-formed remaining length) in either direction, run
 * on the detection-ports only (default 1883, either end of the flow): the
 * header is too weak a pattern to be tried on every flow. Midstream, the
 * server's side may be the first one seen; the probe answers for it too.
 *
 * Limits (Suricata's keys): max-msg-length (1mb; a message over it is
 * logged as truncated and skipped, never buffered) and max-tx (4096 live
 * transactions a flow). */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/frames.h"
#include "app-layer/mqtt.h"
#include "conf/conf.h"
#include "util/log.h"

#include <stdlib.h>
#include <string.h>

#define MQTT_KEY "app-layer.protocols.mqtt."

/* Read once at start (config_load); read-only afterwards. */
static struct {
	int enabled;                /* 1 yes, 2 detection-only, 0 no */
	uint16_t ports[APP_MAX_DETECT_PORTS];
	unsigned nports;
	uint32_t max_msg_len;
	uint32_t max_tx;
} mqtt_conf;

static void mqtt_config_defaults(AppLayerConfig *cfg)
{
	(void)cfg;
	memset(&mqtt_conf, 0, sizeof(mqtt_conf));
	mqtt_conf.enabled = 1;
	mqtt_conf.ports[0] = 1883;
	mqtt_conf.nports = 1;
	mqtt_conf.max_msg_len = 1024 * 1024;
	mqtt_conf.max_tx = 4096;
}

static int mqtt_config_load(AppLayerConfig *cfg)
{
	uint64_t v;
	int64_t n;
	int rc = 0, r;

	(void)cfg;
	if (app_conf_enabled_ports(MQTT_KEY, &mqtt_conf.enabled, mqtt_conf.ports,
				   &mqtt_conf.nports) < 0)
		rc = -1;
	r = app_conf_size_range(MQTT_KEY "max-msg-length", &v, UINT32_MAX);
	if (r < 0)
		rc = -1;
	else if (r > 0)
		mqtt_conf.max_msg_len = (uint32_t)v;
	r = app_conf_int_range(MQTT_KEY "max-tx", &n, UINT32_MAX);
	if (r < 0)
		rc = -1;
	else if (r > 0)
		mqtt_conf.max_tx = (uint32_t)n;
	return rc;
}

static AppTxCounters ctr;

static void mqtt_register_counters(void)
{
	app_tx_counters_register(&ctr, "mqtt");
}

static int mqtt_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return mqtt_conf.enabled;
}

static int port_listed(uint16_t port)
{
	for (unsigned i = 0; i < mqtt_conf.nports; i++)
		if (mqtt_conf.ports[i] == port)
			return 1;
	return 0;
}

static int mqtt_probe_dir(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
			  uint32_t len)
{
	int r;

	(void)cfg;
	(void)dir;
	if (!port_listed(f->dp) && !port_listed(f->sp))
		return DET_NO;
	r = mqtt_probe(buf, len);
	return r > 0 ? DET_YES : r == 0 ? DET_NO : DET_MORE;
}

/* ---------------- state ---------------- */

/* Suricata's MQTT frame types: the whole message, its fixed header, and
 * what follows the header. */
enum { MQTT_FRAME_PDU, MQTT_FRAME_HEADER, MQTT_FRAME_DATA };
static const char *const mqtt_frame_names[] = { "pdu", "header", "data", NULL };

typedef struct MqttFlow {
	MqttState *s;
	int detect_only;
	Flow *f;                    /* for the frame callback, during parse */
	uint64_t off0;              /* stream offset of the data being parsed */
} MqttFlow;

static void msg_frames(void *ctx, int dir, int64_t start, uint64_t total, uint32_t hdr_len,
		       uint64_t tx_id)
{
	MqttFlow *mf = ctx;
	uint64_t off = mf->off0 + (uint64_t)start;
	int64_t id;

	if (!mf->f || !app_frames_on(mf->f))
		return;
	id = app_frame_new(mf->f, dir, off, (int64_t)total, MQTT_FRAME_PDU);
	if (tx_id != UINT64_MAX)
		app_frame_set_tx(mf->f, dir, id, tx_id);
	app_frame_new(mf->f, dir, off, hdr_len, MQTT_FRAME_HEADER);
	if (total > hdr_len)
		app_frame_new(mf->f, dir, off + hdr_len, (int64_t)(total - hdr_len),
			      MQTT_FRAME_DATA);
}

static void *mqtt_state_new_op(AppLayerThread *at, Flow *f)
{
	MqttFlow *mf = calloc(1, sizeof(*mf));

	(void)f;
	if (mf)
		mf->s = mqtt_state_new(mqtt_conf.max_msg_len, mqtt_conf.max_tx);
	if (!mf || !mf->s) {
		free(mf);
		app_tx_count(at, &ctr, APP_CTR_ALLOC, 1);
		return NULL;
	}
	mf->detect_only = mqtt_conf.enabled == 2;
	mf->s->cb = msg_frames;
	mf->s->cb_ctx = mf;
	return mf;
}

static void mqtt_state_free_op(void *state)
{
	MqttFlow *mf = state;

	if (!mf)
		return;
	mqtt_state_free(mf->s, app_layer_detect_state_free);
	free(mf);
}

/* One-way transactions: the side of the message that opened it (one
 * transaction holding both sides still logs them both). */
static void mark_new(MqttState *s, uint64_t from)
{
	for (uint64_t id = from; id < s->next_id; id++) {
		MqttTx *tx = mqtt_tx_by_id(s, id);

		if (tx)
			tx->app_flags |= tx->toclient && !tx->toserver ?
						 APP_TX_ONLY_TC | APP_TX_DETECT_TS :
						 APP_TX_ONLY_TS | APP_TX_DETECT_TC;
	}
}

static int mqtt_parse_op(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
			 uint32_t len, int flags)
{
	MqttFlow *mf = state;
	uint64_t before;
	int r;

	if (!mf || dir < 0 || dir > 1 || mf->detect_only)
		return 0;
	if (flags & APP_GAP) {
		if (!mf->s->side[dir].dead)
			app_tx_count(at, &ctr, APP_CTR_GAP, 1);
		mqtt_gap(mf->s, dir);
		return 0;
	}
	if (!data || !len || mf->s->side[dir].dead)
		return 0;
	before = mf->s->next_id;
	mf->f = f;
	mf->off0 = app_frame_offset(f, dir);
	r = mqtt_parse(mf->s, dir, data, len);
	mf->f = NULL;
	mark_new(mf->s, before);
	if (mf->s->next_id > before)
		app_tx_count(at, &ctr, APP_CTR_TX, mf->s->next_id - before);
	if (r < 0) {
		app_tx_count(at, &ctr, APP_CTR_PARSER, 1);
		return -1;
	}
	return 0;
}

/* ---------------- transactions ---------------- */

static uint64_t mqtt_tx_count(const void *state)
{
	return ((const MqttFlow *)state)->s->next_id;
}

static void *mqtt_tx_get(const void *state, uint64_t id)
{
	return mqtt_tx_by_id(((const MqttFlow *)state)->s, id);
}

static uint64_t mqtt_tx_low(const void *state)
{
	return ((const MqttFlow *)state)->s->low;
}

static uint64_t mqtt_tx_id(const void *tx)
{
	return ((const MqttTx *)tx)->id;
}

static int mqtt_tx_progress(const void *tx, int dir)
{
	(void)dir;
	return ((const MqttTx *)tx)->complete ? MQTT_PROGRESS_DONE : 0;
}

static unsigned mqtt_tx_flags(const void *tx)
{
	return ((const MqttTx *)tx)->app_flags;
}

static void mqtt_tx_set_flags(void *tx, unsigned flags)
{
	((MqttTx *)tx)->app_flags |= flags;
}

static void **mqtt_tx_detect_slot(void *tx)
{
	return &((MqttTx *)tx)->detect;
}

static int tx_done(const MqttTx *tx, void *arg)
{
	unsigned need = *(unsigned *)arg;

	return tx->complete && (tx->app_flags & need) == need;
}

static void mqtt_tx_gc_op(void *state, unsigned need)
{
	MqttFlow *mf = state;

	mqtt_tx_gc(mf->s, tx_done, &need, app_layer_detect_state_free);
}

static int mqtt_event_lookup(const char *name)
{
	return mqtt_event_by_name(name);
}

static int mqtt_tx_has_event(const void *tx, int id)
{
	return id >= 0 && id < MQTT_EV_COUNT && (((const MqttTx *)tx)->events >> id & 1u);
}

const AppProtoOps mqtt_proto_ops = {
	.name = "mqtt",
	.ipprotos = APP_IPPROTO_TCP,
	.config_defaults = mqtt_config_defaults,
	.config_load = mqtt_config_load,
	.enabled = mqtt_enabled,
	.register_counters = mqtt_register_counters,
	.probe = mqtt_probe_dir,
	.state_new = mqtt_state_new_op,
	.state_free = mqtt_state_free_op,
	.parse = mqtt_parse_op,
	.tx_count = mqtt_tx_count,
	.tx_get = mqtt_tx_get,
	.tx_low = mqtt_tx_low,
	.tx_id = mqtt_tx_id,
	.tx_log_id = mqtt_tx_id,
	.tx_progress = mqtt_tx_progress,
	.progress_complete = MQTT_PROGRESS_DONE,
	.tx_flags = mqtt_tx_flags,
	.tx_set_flags = mqtt_tx_set_flags,
	.tx_detect_slot = mqtt_tx_detect_slot,
	.tx_gc = mqtt_tx_gc_op,
	.event_lookup = mqtt_event_lookup,
	.tx_has_event = mqtt_tx_has_event,
	.frame_names = mqtt_frame_names,
};
