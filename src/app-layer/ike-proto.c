/* IKE's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.ike.*), how it is recognised, and the
 * transactions of ike.h. Rules name it "ike" or, as Suricata 6 did for
 * v2, "ikev2".
 *
 * Recognition: an ISAKMP header (version 1.0 or 2.0, a length that fits
 * the datagram, a known exchange type) in a UDP datagram on the detection
 * ports (500, and 4500 where NAT traversal puts it behind a four-byte
 * non-ESP marker of zeros).
 *
 * Each datagram is one transaction, freed once logged and inspected; the
 * flow's IkeExchange keeps what eve logs of the exchange as a whole. */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/ipp-conf.h"
#include "app-layer/ike.h"

#include <stdlib.h>
#include <string.h>

#define IKE_KEY "app-layer.protocols.ike."

static IppConf ike_conf;

static void ike_config_defaults(AppLayerConfig *cfg)
{
	static const uint16_t ports[] = { 500, 4500 };

	(void)cfg;
	ipp_conf_defaults(&ike_conf, ports, 2);
	ike_conf.enabled[IPP_TCP] = 0;
}

static int ike_config_load(AppLayerConfig *cfg)
{
	(void)cfg;
	return ipp_conf_load(&ike_conf, IKE_KEY);
}

static int ike_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return ike_conf.enabled[IPP_UDP];
}

static AppTxCounters ctr;

static void ike_register_counters(void)
{
	app_tx_counters_register(&ctr, "ike");
}

/* The ISAKMP message of a datagram: on port 4500 (NAT traversal, RFC
 * 3948) after a four-byte non-ESP marker of zeros; NULL there for ESP (a
 * non-zero SPI in its place) or a one-byte NAT keepalive. */
static const uint8_t *ike_payload(const Flow *f, const uint8_t *buf, uint32_t *len)
{
	if (f->sp != 4500 && f->dp != 4500)
		return buf;
	if (*len < 4 || buf[0] || buf[1] || buf[2] || buf[3])
		return NULL;
	*len -= 4;
	return buf + 4;
}

static int ike_probe(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
		     uint32_t len)
{
	(void)cfg;
	(void)dir;
	if (!ipp_conf_port_ok(&ike_conf, f))
		return DET_NO;
	buf = ike_payload(f, buf, &len);
	return buf && ike_header_ok(buf, len) ? DET_YES : DET_NO;
}

typedef struct IkeState {
	TxlDgramState base;         /* first: txlist.h's calls read it */
	IkeExchange x;
} IkeState;

static void tx_free(AppTx *t)
{
	IkeTx *tx = (IkeTx *)t;

	if (tx->valid)
		ike_msg_free(&tx->m);
	free(tx);
}

static void ike_state_clean(void *state)
{
	ike_exchange_free(&((IkeState *)state)->x);
}

static int ike_decode(void *state, AppTx *t, int dir, const uint8_t *data, uint32_t len)
{
	IkeState *st = state;
	IkeTx *tx = (IkeTx *)t;

	tx->dir = (uint8_t)dir;
	tx->x = &st->x;
	if (ike_msg_decode(data, len, &tx->m) != 0) {
		t->events |= 1u << IKE_EV_MALFORMED_DATA;
		return TXL_BAD;
	}
	tx->valid = 1;
	/* v1: a server answers with the one transform it chose */
	if (tx->m.version_major == 1 && dir == APP_DIR_TOCLIENT && tx->m.ntransforms > 1)
		tx->m.events |= 1u << IKE_EV_MULTIPLE_SERVER_PROPOSAL;
	t->events = tx->m.events;
	ike_exchange_update(&st->x, &tx->m, dir);
	return TXL_OK;
}

static const TxlDgram ike_dgram = {
	.alproto = ALPROTO_IKE,
	.state_size = sizeof(IkeState),
	.tx_size = sizeof(IkeTx),
	.ctr = &ctr,
	.enabled = &ike_conf.enabled[IPP_UDP],
	.dirs = TXL_BOTH_DIRS,
	.free_tx = tx_free,
	.state_clean = ike_state_clean,
	.payload = ike_payload,
	.decode = ike_decode,
};

static void *ike_state_new(AppLayerThread *at, Flow *f)
{
	(void)f;
	return txl_dgram_state_new(at, &ike_dgram);
}

const AppProtoOps ike_proto_ops = {
	.name = "ike",
	.alias = "ikev2",
	.ipprotos = APP_IPPROTO_UDP,
	.config_defaults = ike_config_defaults,
	.config_load = ike_config_load,
	.enabled = ike_enabled,
	.register_counters = ike_register_counters,
	.probe = ike_probe,
	.state_new = ike_state_new,
	TXL_DGRAM_OPS,
	.event_lookup = ike_event_by_name,
	.tx_has_event = txl_op_has_event,
};
