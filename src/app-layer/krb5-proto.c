/* Kerberos 5's entry in the application-protocol registry: its
 * configuration (app-layer.protocols.krb5.*, per transport under tcp: /
 * udp: too), how it is recognised, and the transactions of krb5.h.
 *
 * Recognition, as Suricata's probe: a message of a known type ([APPLICATION
 * n] around a SEQUENCE) on the detection ports (88, either end); on TCP
 * behind its 4-byte record mark (RFC 4120 7.2.2). A request to the KDC, a
 * reply or error to the client; the other way round turns the flow.
 *
 * Memory: a TCP record is at most KRB5_MAX_RECORD bytes (more is
 * malformed_data and the direction is given up); each message is one
 * transaction, freed once logged and inspected. */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/ipp-conf.h"
#include "app-layer/krb5.h"
#include "app-layer/pdubuf.h"
#include "util/ber.h"

#include <stdlib.h>
#include <string.h>

#define KRB5_KEY "app-layer.protocols.krb5."
#define KRB5_MAX_RECORD (256u * 1024)

static IppConf krb5_conf;

static void krb5_config_defaults(AppLayerConfig *cfg)
{
	static const uint16_t ports[] = { 88 };

	(void)cfg;
	ipp_conf_defaults(&krb5_conf, ports, 1);
}

static int krb5_config_load(AppLayerConfig *cfg)
{
	(void)cfg;
	return ipp_conf_load(&krb5_conf, KRB5_KEY);
}

static int krb5_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return ipp_conf_enabled(&krb5_conf);
}

static AppTxCounters ctr[2];

static void krb5_register_counters(void)
{
	txl_msg_counters_register(ctr, "krb5");
}

/* ---------------- detection ---------------- */

static int is_request(int64_t t)
{
	return t == KRB5_AS_REQ || t == KRB5_TGS_REQ || t == KRB5_AP_REQ;
}

/* The message type at buf: its tag, -1 more bytes needed, -2 not Kerberos */
static int probe_msg(const uint8_t *buf, uint32_t len)
{
	BerElem app, seq;
	uint32_t total;
	int r = ber_peek(buf, len, &app, &total);

	if (r == -1)
		return -1;
	if (r == -2 || app.cls != BER_CLASS_APPLICATION || !app.constructed ||
	    !krb5_msg_name(app.tag) || app.tag == 16 || app.tag == 17)
		return -2;
	r = ber_peek(app.content, app.avail, &seq, &total);
	if (r == -1)
		return -1;
	if (r == -2 || seq.cls != BER_CLASS_UNIVERSAL || seq.tag != 16 || !seq.constructed ||
	    (app.len != (uint64_t)(seq.content - app.content) + seq.len))
		return -2;
	return (int)app.tag;
}

static int krb5_probe(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
		      uint32_t len)
{
	int t;

	(void)cfg;
	if (!ipp_conf_port_ok(&krb5_conf, f))
		return DET_NO;
	if (f->proto == 17) {
		t = probe_msg(buf, len);
		if (t < 0)
			return DET_NO;
	} else {
		uint32_t rec;

		if (len < 6)
			return DET_MORE;
		rec = (uint32_t)buf[0] << 24 | (uint32_t)buf[1] << 16 | (uint32_t)buf[2] << 8 | buf[3];
		if (rec & 0x80000000u || rec < 2 || rec > KRB5_MAX_RECORD)
			return DET_NO;
		t = probe_msg(buf + 4, len - 4 < rec ? len - 4 : rec);
		if (t == -1)
			return DET_MORE;
		if (t < 0)
			return DET_NO;
	}
	return is_request(t) == (dir == APP_DIR_TOSERVER) ? DET_YES : DET_REVERSED;
}

/* ---------------- state ---------------- */

typedef struct Krb5State {
	TxlMsgState m;              /* first: txlist.h's calls read it */
	int64_t last_request;       /* the type of the last request, for errors */
} Krb5State;

static void tx_free(AppTx *t)
{
	Krb5Tx *tx = (Krb5Tx *)t;

	if (tx->valid)
		krb5_msg_free(&tx->m);
	free(tx);
}

static void *krb5_state_new(AppLayerThread *at, Flow *f)
{
	Krb5State *st = txl_msg_state_new(at, ipp_of(f), sizeof(*st), ALPROTO_KRB5,
					  tx_free, ctr, krb5_conf.enabled);

	if (st)
		st->last_request = -1;
	return st;
}

/* One message: one transaction of its direction. */
static void on_message(void *arg, const uint8_t *p, uint32_t len)
{
	Krb5State *st = arg;
	Krb5Tx *tx = calloc(1, sizeof(*tx));

	if (!tx) {
		app_tx_count(st->m.at, &ctr[st->m.ipp], APP_CTR_ALLOC, 1);
		return;
	}
	if (krb5_msg_decode(p, len, &tx->m) == 0) {
		tx->valid = 1;
		if (is_request(tx->m.msg_type))
			st->last_request = tx->m.msg_type;
		if (tx->m.msg_type == KRB5_ERROR)
			tx->m.failed_request = st->last_request;
		/* the reply's own key, as Suricata's event (the ticket's etype
		 * is krb5.ticket_encryption's) */
		if (krb5_etype_weak(tx->m.etype))
			tx->base.events |= 1u << KRB5_EV_WEAK_ENCRYPTION;
	} else {
		tx->base.events |= 1u << KRB5_EV_MALFORMED_DATA;
		app_tx_count(st->m.at, &ctr[st->m.ipp], APP_CTR_PARSER, 1);
	}
	txl_add_message(&st->m.txs, &tx->base, st->m.dir);
	app_tx_count(st->m.at, &ctr[st->m.ipp], APP_CTR_TX, 1);
}

/* A record's whole length: the 4-byte mark and what it says follows. */
static int64_t frame_len(const uint8_t *p, uint32_t len)
{
	uint32_t rec;

	if (len < 4)
		return 0;
	rec = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	/* the high bit is reserved for extensions no one sends */
	if (rec & 0x80000000u)
		return -1;
	return 4 + (int64_t)rec;
}

static void on_record(void *arg, const uint8_t *p, uint32_t len)
{
	on_message(arg, p + 4, len - 4);
}

static int krb5_parse(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
		      uint32_t len, int flags)
{
	Krb5State *st = state;

	(void)f;
	if (!st || st->m.detect_only || dir < 0 || dir > 1)
		return 0;
	st->m.at = at;
	st->m.dir = dir;
	if (st->m.ipp == IPP_UDP) {
		if (data && len)
			on_message(st, data, len);
		return 0;
	}
	if (txl_msg_skip(&st->m, &ctr[st->m.ipp], dir, data, len, flags))
		return 0;
	if (pdubuf_feed(&st->m.pdu[dir], data, len, KRB5_MAX_RECORD + 4, frame_len, on_record,
			st) < 0) {
		/* not records (or one too long): a malformed message */
		on_message(st, NULL, 0);
		st->m.given_up[dir] = 1;
		return -1;
	}
	return 0;
}

const AppProtoOps krb5_proto_ops = {
	.name = "krb5",
	.ipprotos = APP_IPPROTO_TCP | APP_IPPROTO_UDP,
	.config_defaults = krb5_config_defaults,
	.config_load = krb5_config_load,
	.enabled = krb5_enabled,
	.register_counters = krb5_register_counters,
	.probe = krb5_probe,
	.state_new = krb5_state_new,
	.state_free = txl_msg_state_free,
	.parse = krb5_parse,
	TXL_TX_OPS,
	.event_lookup = krb5_event_by_name,
	.tx_has_event = txl_op_has_event,
};
