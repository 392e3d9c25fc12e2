/* SNMP's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.snmp.*), how it is recognised, and the
 * transactions of snmp.h.
 *
 * Recognition, as Suricata's probe: a message (SEQUENCE, a version of 0,
 * 1 or 3, then a community and a PDU, or v3's header) in a UDP datagram
 * on the detection ports (161 and 162, either end), either way: agents
 * and managers both send requests (a trap goes to the manager).
 *
 * Each datagram is one transaction, freed once logged and inspected. */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/ipp-conf.h"
#include "app-layer/snmp.h"
#include "util/ber.h"

#include <stdlib.h>
#include <string.h>

#define SNMP_KEY "app-layer.protocols.snmp."

static IppConf snmp_conf;

static void snmp_config_defaults(AppLayerConfig *cfg)
{
	static const uint16_t ports[] = { 161, 162 };

	(void)cfg;
	ipp_conf_defaults(&snmp_conf, ports, 2);
}

static int snmp_config_load(AppLayerConfig *cfg)
{
	(void)cfg;
	return ipp_conf_load(&snmp_conf, SNMP_KEY);
}

static int snmp_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return snmp_conf.enabled[IPP_UDP];
}

static AppTxCounters ctr;

static void snmp_register_counters(void)
{
	app_tx_counters_register(&ctr, "snmp");
}

/* The start of a message: SEQUENCE, version, then a community and a
 * context-class PDU (v1, v2c) or a SEQUENCE (v3's header). */
static int looks_snmp(const uint8_t *buf, uint32_t len)
{
	BerElem seq, ver, next;
	BerCur c;
	int64_t v;
	uint32_t total;

	if (ber_peek(buf, len, &seq, &total) != 0 || seq.cls != BER_CLASS_UNIVERSAL ||
	    seq.tag != 16 || !seq.constructed)
		return 0;
	ber_cur_into(&c, &seq);
	if (ber_next_tag(&c, BER_CLASS_UNIVERSAL, 2, &ver) < 0 || ber_int(&ver, &v) < 0)
		return 0;
	if (v == 3)
		return ber_next_tag(&c, BER_CLASS_UNIVERSAL, 16, &next) == 0;
	if ((v != 0 && v != 1) || ber_next_tag(&c, BER_CLASS_UNIVERSAL, 4, &next) < 0 ||
	    ber_next(&c, &next) < 0)
		return 0;
	return next.cls == BER_CLASS_CONTEXT && next.constructed && snmp_pdu_name(next.tag);
}

static int snmp_probe(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
		      uint32_t len)
{
	(void)cfg;
	(void)dir;
	if (!ipp_conf_port_ok(&snmp_conf, f))
		return DET_NO;
	return looks_snmp(buf, len) ? DET_YES : DET_NO;
}

typedef struct SnmpState {
	TxlDgramState base;         /* first: txlist.h's calls read it */
	uint32_t version;           /* the flow's first message's */
} SnmpState;

static void tx_free(AppTx *t)
{
	SnmpTx *tx = (SnmpTx *)t;

	if (tx->valid)
		snmp_msg_free(&tx->m);
	free(tx);
}

static int snmp_decode(void *state, AppTx *t, int dir, const uint8_t *data, uint32_t len)
{
	SnmpState *st = state;
	SnmpTx *tx = (SnmpTx *)t;

	(void)dir;
	if (snmp_msg_decode(data, len, &tx->m) != 0) {
		t->events |= 1u << SNMP_EV_MALFORMED_DATA;
		return TXL_BAD;
	}
	tx->valid = 1;
	if (!st->version)
		st->version = tx->m.version;
	else if (st->version != tx->m.version)
		t->events |= 1u << SNMP_EV_VERSION_MISMATCH;
	if (tx->m.unknown_sec)
		t->events |= 1u << SNMP_EV_UNKNOWN_SECURITY_MODEL;
	return TXL_OK;
}

static const TxlDgram snmp_dgram = {
	.alproto = ALPROTO_SNMP,
	.state_size = sizeof(SnmpState),
	.tx_size = sizeof(SnmpTx),
	.ctr = &ctr,
	.enabled = &snmp_conf.enabled[IPP_UDP],
	.dirs = TXL_BOTH_DIRS,
	.free_tx = tx_free,
	.decode = snmp_decode,
};

static void *snmp_state_new(AppLayerThread *at, Flow *f)
{
	(void)f;
	return txl_dgram_state_new(at, &snmp_dgram);
}

const AppProtoOps snmp_proto_ops = {
	.name = "snmp",
	.ipprotos = APP_IPPROTO_UDP,
	.config_defaults = snmp_config_defaults,
	.config_load = snmp_config_load,
	.enabled = snmp_enabled,
	.register_counters = snmp_register_counters,
	.probe = snmp_probe,
	.state_new = snmp_state_new,
	TXL_DGRAM_OPS,
	.event_lookup = snmp_event_by_name,
	.tx_has_event = txl_op_has_event,
};
