/* DHCP's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.dhcp.*), how it is recognised, and the transactions
 * of dhcp.h.
 *
 * Recognition, as Suricata's probe: a UDP datagram on the detection ports
 * (67 and 68, either end) that holds a BOOTP header of request or reply
 * and DHCP's magic cookie, either way (a relay or a server may speak
 * first).
 *
 * Each datagram is one transaction of its own direction (Suricata issue
 * 8621: inspected on that side only), freed once logged and inspected. */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/ipp-conf.h"
#include "app-layer/dhcp.h"

#include <stdlib.h>
#include <string.h>

#define DHCP_KEY "app-layer.protocols.dhcp."

static IppConf dhcp_conf;

static void dhcp_config_defaults(AppLayerConfig *cfg)
{
	static const uint16_t ports[] = { 67, 68 };

	(void)cfg;
	ipp_conf_defaults(&dhcp_conf, ports, 2);
}

static int dhcp_config_load(AppLayerConfig *cfg)
{
	(void)cfg;
	return ipp_conf_load(&dhcp_conf, DHCP_KEY);
}

static int dhcp_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return dhcp_conf.enabled[IPP_UDP];
}

static AppTxCounters ctr;

static void dhcp_register_counters(void)
{
	app_tx_counters_register(&ctr, "dhcp");
}

static int dhcp_probe(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
		      uint32_t len)
{
	(void)cfg;
	(void)dir;
	if (!ipp_conf_port_ok(&dhcp_conf, f))
		return DET_NO;
	return dhcp_looks_like(buf, len) ? DET_YES : DET_NO;
}

static void tx_free(AppTx *t)
{
	DhcpTx *tx = (DhcpTx *)t;

	dhcp_msg_free(&tx->m);
	free(tx);
}

/* A datagram too short for the header is a parser error with no
 * transaction, as in Suricata; option faults are the tx's events. */
static int dhcp_decode(void *state, AppTx *t, int dir, const uint8_t *data, uint32_t len)
{
	TxlDgramState *st = state;
	DhcpTx *tx = (DhcpTx *)t;
	int r;

	(void)dir;
	r = dhcp_msg_decode(data, len, &tx->m);
	if (r < 0)
		return r == -2 ? TXL_NOMEM : TXL_DROP;
	if (tx->m.truncated)
		t->events |= 1u << DHCP_EV_TRUNCATED_OPTIONS;
	if (tx->m.malformed)
		t->events |= 1u << DHCP_EV_MALFORMED_OPTIONS;
	txl_charge(&st->txs, t, tx->m.opts_len);
	return TXL_OK;
}

static const TxlDgram dhcp_dgram = {
	.alproto = ALPROTO_DHCP,
	.tx_size = sizeof(DhcpTx),
	.ctr = &ctr,
	.enabled = &dhcp_conf.enabled[IPP_UDP],
	.dirs = TXL_BOTH_DIRS,
	.free_tx = tx_free,
	.decode = dhcp_decode,
};

static void *dhcp_state_new(AppLayerThread *at, Flow *f)
{
	(void)f;
	return txl_dgram_state_new(at, &dhcp_dgram);
}

const AppProtoOps dhcp_proto_ops = {
	.name = "dhcp",
	.ipprotos = APP_IPPROTO_UDP,
	.config_defaults = dhcp_config_defaults,
	.config_load = dhcp_config_load,
	.enabled = dhcp_enabled,
	.register_counters = dhcp_register_counters,
	.probe = dhcp_probe,
	.state_new = dhcp_state_new,
	TXL_DGRAM_OPS,
	.event_lookup = dhcp_event_by_name,
	.tx_has_event = txl_op_has_event,
};
