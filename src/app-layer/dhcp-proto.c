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
	app_tx_counters_register(&ctr, "dhcp",
				 APP_CTR_BIT(APP_CTR_ALLOC) | APP_CTR_BIT(APP_CTR_PARSER));
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

typedef struct DhcpState {
	AppTxList txs;              /* first: txlist.h's ops read it */
	int detect_only;
} DhcpState;

static void tx_free(AppTx *t)
{
	DhcpTx *tx = (DhcpTx *)t;

	dhcp_msg_free(&tx->m);
	free(tx);
}

static void *dhcp_state_new(AppLayerThread *at, Flow *f)
{
	DhcpState *st = calloc(1, sizeof(*st));

	(void)f;
	if (!st) {
		app_tx_count(at, &ctr, APP_CTR_ALLOC, 1);
		return NULL;
	}
	txl_init(&st->txs, ALPROTO_DHCP, tx_free);
	st->detect_only = dhcp_conf.enabled[IPP_UDP] == 2;
	return st;
}

static void dhcp_state_free(void *state)
{
	DhcpState *st = state;

	if (!st)
		return;
	txl_free(&st->txs);
	free(st);
}

/* A datagram too short for the header is a parser error with no
 * transaction, as in Suricata; option faults are the tx's events. */
static int dhcp_parse(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
		      uint32_t len, int flags)
{
	DhcpState *st = state;
	DhcpTx *tx;
	int r;

	(void)f;
	(void)flags;
	if (!st || st->detect_only || !data || !len || dir < 0 || dir > 1)
		return 0;
	if (!(tx = calloc(1, sizeof(*tx)))) {
		app_tx_count(at, &ctr, APP_CTR_ALLOC, 1);
		return -1;
	}
	r = dhcp_msg_decode(data, len, &tx->m);
	if (r < 0) {
		free(tx);
		app_tx_count(at, &ctr, r == -2 ? APP_CTR_ALLOC : APP_CTR_PARSER, 1);
		return -1;
	}
	if (tx->m.truncated)
		tx->base.events |= 1u << DHCP_EV_TRUNCATED_OPTIONS;
	if (tx->m.malformed)
		tx->base.events |= 1u << DHCP_EV_MALFORMED_OPTIONS;
	tx->base.done[0] = tx->base.done[1] = 1;
	tx->base.flags |= dir == APP_DIR_TOSERVER ? APP_TX_ONLY_TS | APP_TX_DETECT_TC
						  : APP_TX_ONLY_TC | APP_TX_DETECT_TS;
	txl_add(&st->txs, &tx->base);
	txl_charge(&st->txs, &tx->base, tx->m.opts_len);
	app_tx_count(at, &ctr, APP_CTR_TX, 1);
	return 0;
}

static int dhcp_event_lookup(const char *name)
{
	return dhcp_event_by_name(name);
}

static int dhcp_tx_has_event(const void *tx, int id)
{
	return id >= 0 && id < DHCP_EV_COUNT && (((const AppTx *)tx)->events >> id & 1);
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
	.state_free = dhcp_state_free,
	.parse = dhcp_parse,
	.tx_count = txl_op_count,
	.tx_get = txl_op_get,
	.tx_low = txl_op_low,
	.tx_id = txl_op_id,
	.tx_log_id = txl_op_id,
	.tx_progress = txl_op_progress,
	.progress_complete = TXL_COMPLETE,
	.tx_flags = txl_op_flags,
	.tx_set_flags = txl_op_set_flags,
	.tx_detect_slot = txl_op_detect_slot,
	.tx_gc = txl_op_gc,
	.event_lookup = dhcp_event_lookup,
	.tx_has_event = dhcp_tx_has_event,
};
