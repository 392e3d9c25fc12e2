/* Modbus/TCP's entry in the application-protocol registry: its
 * configuration (app-layer.protocols.modbus.*: enabled, detection-ports,
 * request-flood, stream-depth), how it is recognised, and the transactions
 * of modbus.h.
 *
 * Recognition: an MBAP header (protocol id 0, a length of 2..254 that the
 * first bytes do not contradict, a function code) on a detection port (502,
 * either end). Probing costs one look at 8 bytes, on those ports only.
 *
 * Memory: a message is at most 260 bytes (a longer length field is
 * invalid_length and the direction is given up); past request-flood
 * requests without a response the flow is flooded (event) and its oldest
 * transactions are closed; past stream-depth bytes of a direction (0:
 * none) its data is no longer parsed, as Suricata's per-protocol depth. */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/modbus.h"
#include "app-layer/pdubuf.h"

#include <stdlib.h>
#include <string.h>

#define MODBUS_KEY "app-layer.protocols.modbus."
#define MODBUS_MAX_ADU (6u + 1 + MODBUS_MAX_PDU)

static struct {
	int enabled;
	uint16_t ports[APP_MAX_DETECT_PORTS];
	unsigned nports;
	uint32_t request_flood;
	uint64_t stream_depth;
} mb_conf;

static void modbus_config_defaults(AppLayerConfig *cfg)
{
	(void)cfg;
	memset(&mb_conf, 0, sizeof(mb_conf));
	/* as Suricata 8's yaml: off unless asked for */
	mb_conf.enabled = 0;
	mb_conf.ports[0] = 502;
	mb_conf.nports = 1;
	mb_conf.request_flood = 500;
}

static int modbus_config_load(AppLayerConfig *cfg)
{
	uint64_t v;
	int64_t n;
	int rc = 0, r;

	(void)cfg;
	if (app_conf_enabled_ports(MODBUS_KEY, &mb_conf.enabled, mb_conf.ports,
				   &mb_conf.nports) < 0)
		rc = -1;
	r = app_conf_int_range(MODBUS_KEY "request-flood", &n, UINT32_MAX);
	if (r < 0)
		rc = -1;
	else if (r > 0)
		mb_conf.request_flood = (uint32_t)n;
	r = app_conf_size_range(MODBUS_KEY "stream-depth", &v, UINT64_MAX);
	if (r < 0)
		rc = -1;
	else if (r > 0)
		mb_conf.stream_depth = v;
	return rc;
}

static int modbus_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return mb_conf.enabled;
}

static AppTxCounters ctr;

static void modbus_register_counters(void)
{
	app_tx_counters_register(&ctr, "modbus");
}

/* ---------------- detection ---------------- */

static int port_ok(const Flow *f)
{
	for (unsigned k = 0; k < mb_conf.nports; k++)
		if (mb_conf.ports[k] == f->dp || mb_conf.ports[k] == f->sp)
			return 1;
	return 0;
}

static int modbus_probe(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
			uint32_t len)
{
	uint16_t l;

	(void)cfg;
	(void)dir;
	if (!port_ok(f))
		return DET_NO;
	if (len < MODBUS_MBAP_LEN + 1)
		return DET_MORE;
	l = (uint16_t)(buf[4] << 8 | buf[5]);
	if (buf[2] || buf[3] || l < 2 || l > MODBUS_MAX_PDU + 1 || !(buf[7] & 0x7f))
		return DET_NO;
	return DET_YES;
}

/* ---------------- state ---------------- */

typedef struct ModbusState {
	TxlMsgState m;              /* first: txlist.h's calls read it */
	uint64_t seen[2];           /* bytes of each direction, for stream-depth */
	uint32_t waiting;           /* requests without a response */
} ModbusState;

static void *modbus_state_new(AppLayerThread *at, Flow *f)
{
	/* TCP only: its one transport is index 0 of the arrays */
	(void)f;
	return txl_msg_state_new(at, 0, sizeof(ModbusState), ALPROTO_MODBUS,
				 NULL, &ctr, &mb_conf.enabled);
}

static ModbusTx *tx_new(ModbusState *st)
{
	ModbusTx *tx = calloc(1, sizeof(*tx));

	if (!tx) {
		app_tx_count(st->m.at, &ctr, APP_CTR_ALLOC, 1);
		return NULL;
	}
	txl_add(&st->m.txs, &tx->base);
	app_tx_count(st->m.at, &ctr, APP_CTR_TX, 1);
	return tx;
}

/* The oldest request with this transaction id still waiting, or NULL. */
static ModbusTx *tx_waiting(ModbusState *st, uint16_t tid)
{
	for (AppTx *t = st->m.txs.head; t; t = t->next) {
		ModbusTx *tx = (ModbusTx *)t;

		if (tx->has[APP_DIR_TOSERVER] && !t->done[APP_DIR_TOCLIENT] &&
		    tx->msg[APP_DIR_TOSERVER].tid == tid)
			return tx;
	}
	return NULL;
}

static void set_events(ModbusTx *tx, const ModbusMsg *m)
{
	static const struct {
		uint8_t err;
		uint8_t ev;
	} map[] = {
		{ MODBUS_ERR_PROTOCOL, MODBUS_EV_INVALID_PROTOCOL_ID },
		{ MODBUS_ERR_LENGTH, MODBUS_EV_INVALID_LENGTH },
		{ MODBUS_ERR_FUNCTION, MODBUS_EV_INVALID_FUNCTION_CODE },
		{ MODBUS_ERR_VALUE, MODBUS_EV_INVALID_VALUE },
		{ MODBUS_ERR_EXCEPTION, MODBUS_EV_INVALID_EXCEPTION_CODE },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (m->errors & map[i].err)
			tx->base.events |= 1u << map[i].ev;
}

/* A response against its request: the same unit, the same function,
 * and for a read as many data bytes as the request asked for. */
static void check_pair(ModbusTx *tx)
{
	const ModbusMsg *q = &tx->msg[APP_DIR_TOSERVER], *r = &tx->msg[APP_DIR_TOCLIENT];
	uint32_t want;

	if (q->unit != r->unit)
		tx->base.events |= 1u << MODBUS_EV_INVALID_UNIT_IDENTIFIER;
	if ((r->function & 0x7f) != q->function) {
		tx->base.events |= 1u << MODBUS_EV_VALUE_MISMATCH;
		return;
	}
	if (r->function & 0x80 || !q->has_read || r->errors)
		return;
	want = q->function <= 2 ? (q->read_qty + 7u) / 8 : 2u * q->read_qty;
	if (r->data_len != want)
		tx->base.events |= 1u << MODBUS_EV_VALUE_MISMATCH;
}

static void on_adu(void *arg, const uint8_t *p, uint32_t len)
{
	ModbusState *st = arg;
	int dir = st->m.dir;
	ModbusMsg m;
	ModbusTx *tx;

	if (modbus_msg_decode(p, len, dir == APP_DIR_TOCLIENT, &m) < 0)
		return;
	if (m.errors)
		app_tx_count(st->m.at, &ctr, APP_CTR_PARSER, 1);
	if (dir == APP_DIR_TOSERVER) {
		if (mb_conf.request_flood && st->waiting >= mb_conf.request_flood) {
			/* nobody answers: give the waiting ones up */
			txl_close_all(&st->m.txs);
			st->waiting = 0;
			tx = tx_new(st);
			if (tx)
				tx->base.events |= 1u << MODBUS_EV_FLOODED;
		} else {
			tx = tx_new(st);
		}
		if (!tx)
			return;
		tx->msg[dir] = m;
		tx->has[dir] = 1;
		tx->base.some[dir] = tx->base.done[dir] = 1;
		set_events(tx, &m);
		st->waiting++;
		return;
	}
	tx = tx_waiting(st, m.tid);
	if (tx) {
		st->waiting--;
	} else {
		tx = tx_new(st);
		if (!tx)
			return;
		tx->base.events |= 1u << MODBUS_EV_UNSOLICITED_RESPONSE;
		tx->base.done[APP_DIR_TOSERVER] = 1;
		tx->base.flags |= APP_TX_ONLY_TC;
	}
	tx->msg[dir] = m;
	tx->has[dir] = 1;
	tx->base.some[dir] = tx->base.done[dir] = 1;
	set_events(tx, &m);
	if (tx->has[APP_DIR_TOSERVER])
		check_pair(tx);
}

/* An ADU's whole length: the 6 bytes up to the length field and what it
 * says follows; one that cannot be Modbus stops the direction. */
static int64_t frame_len(const uint8_t *p, uint32_t len)
{
	uint32_t l;

	if (len < 6)
		return 0;
	l = (uint32_t)(p[4] << 8 | p[5]);
	if (l < 2 || l > MODBUS_MAX_PDU + 1)
		return -1;
	return 6 + (int64_t)l;
}

/* A length field past any Modbus message: an event on a transaction of
 * its own, then the direction is given up (its framing is lost). */
static void invalid_length(ModbusState *st)
{
	ModbusTx *tx = tx_new(st);

	app_tx_count(st->m.at, &ctr, APP_CTR_PARSER, 1);
	if (!tx)
		return;
	tx->base.events |= 1u << MODBUS_EV_INVALID_LENGTH;
	tx->base.done[0] = tx->base.done[1] = 1;
	tx->base.flags |= st->m.dir == APP_DIR_TOSERVER ? APP_TX_ONLY_TS : APP_TX_ONLY_TC;
}

static int modbus_parse(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
			uint32_t len, int flags)
{
	ModbusState *st = state;

	(void)f;
	if (!st || st->m.detect_only || dir < 0 || dir > 1)
		return 0;
	st->m.at = at;
	st->m.dir = dir;
	if (txl_msg_skip(&st->m, &ctr, dir, data, len, flags))
		return 0;
	if (mb_conf.stream_depth) {
		if (st->seen[dir] >= mb_conf.stream_depth)
			return 0;
		if (len > mb_conf.stream_depth - st->seen[dir])
			len = (uint32_t)(mb_conf.stream_depth - st->seen[dir]);
		st->seen[dir] += len;
	}
	if (pdubuf_feed(&st->m.pdu[dir], data, len, MODBUS_MAX_ADU, frame_len, on_adu, st) < 0) {
		invalid_length(st);
		st->m.given_up[dir] = 1;
		return -1;
	}
	return 0;
}

const AppProtoOps modbus_proto_ops = {
	.name = "modbus",
	.ipprotos = APP_IPPROTO_TCP,
	.config_defaults = modbus_config_defaults,
	.config_load = modbus_config_load,
	.enabled = modbus_enabled,
	.register_counters = modbus_register_counters,
	.probe = modbus_probe,
	.state_new = modbus_state_new,
	.state_free = txl_msg_state_free,
	.parse = modbus_parse,
	TXL_TX_OPS,
	.event_lookup = modbus_event_by_name,
	.tx_has_event = txl_op_has_event,
};
