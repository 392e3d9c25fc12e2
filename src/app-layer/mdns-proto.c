/* mDNS's entry in the application-protocol registry (RFC 6762): DNS
 * messages on UDP port 5353, parsed by the DNS parser (dns-parse.c) into
 * transactions of their own protocol, "mdns", as Suricata 8 has it.
 *
 * Unlike unicast DNS, queries and answers both go to the multicast group
 * from port 5353: a response usually travels "to the server" of its flow.
 * So a message is a request or a response by its QR bit, never by its
 * direction (a flow's first datagram may well be a response), and flows
 * are never reversed. Recognition: an end of the flow on a detection port
 * (5353) and a DNS header whose counts fit the datagram.
 *
 * Every message is its own transaction, of the side it went (APP_TX_ONLY_*),
 * complete on arrival. Counters: app_layer.flow.mdns (the app layer's),
 * app_layer.tx.mdns, app_layer.error.mdns.parser. */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/dns-parse.h"
#include "app-layer/dns-txops.h"
#include "app-layer/mdns.h"
#include "conf/conf.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static struct {
	int enabled;
	uint16_t ports[APP_MAX_DETECT_PORTS];
	unsigned nports;
} mdns_conf;

#define MDNS_KEY "app-layer.protocols.mdns."

static void mdns_config_defaults(AppLayerConfig *cfg)
{
	(void)cfg;
	memset(&mdns_conf, 0, sizeof(mdns_conf));
	mdns_conf.enabled = 1;
	mdns_conf.ports[0] = 5353;
	mdns_conf.nports = 1;
}

static int mdns_config_load(AppLayerConfig *cfg)
{
	(void)cfg;
	return app_conf_enabled_ports(MDNS_KEY, &mdns_conf.enabled, mdns_conf.ports,
				      &mdns_conf.nports);
}

static int mdns_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return mdns_conf.enabled;
}

static AppTxCounters ctr;

static void mdns_register_counters(void)
{
	app_tx_counters_register(&ctr, "mdns");
}

static int port_listed(uint16_t port)
{
	for (unsigned i = 0; i < mdns_conf.nports; i++)
		if (mdns_conf.ports[i] == port)
			return 1;
	return 0;
}

static inline uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* A datagram on 5353 (either end) with a DNS header whose counts leave
 * room for their entries at two bytes each: either QR, either direction. */
static int mdns_probe(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
		      uint32_t len)
{
	uint32_t n;

	(void)cfg;
	(void)dir;
	if (!(port_listed(f->dp) || port_listed(f->sp)) || len < 12)
		return DET_NO;
	n = (uint32_t)rd16(buf + 4) + rd16(buf + 6) + rd16(buf + 8) + rd16(buf + 10);
	return 12 + 2 * n <= len ? DET_YES : DET_NO;
}

typedef struct MdnsState {
	struct dns_txs txs;
	int detect_only;
} MdnsState;
_Static_assert(offsetof(MdnsState, txs) == 0, "dns-txops.c reads the state as its txs");

static void *mdns_state_new(AppLayerThread *at, Flow *f)
{
	MdnsState *st = calloc(1, sizeof(*st));

	(void)f;
	if (!st)
		return NULL;
	dns_txs_init(&st->txs, DNS_TXS_PER_MESSAGE, 0);
	st->detect_only = at && mdns_conf.enabled == 2;
	return st;
}

static void mdns_state_free(void *state)
{
	MdnsState *st = state;

	if (!st)
		return;
	dns_txop_free_all(&st->txs);
	free(st);
}

/* One datagram, one message, one transaction filed under the side it
 * went; parsed as the kind its QR bit says, so that a response sent to
 * the group raises no not_a_request. */
static int mdns_parse(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
		      uint32_t len, int flags)
{
	MdnsState *st = state;
	struct dns_msg *m = NULL;
	struct dns_tx *tx;
	enum dns_dir kind;
	int rc;

	(void)f;
	(void)flags;
	if (!st || st->detect_only || !data || !len)
		return 0;
	kind = len >= 3 && (data[2] & 0x80) ? DNS_DIR_TOCLIENT : DNS_DIR_TOSERVER;
	rc = dns_msg_parse(data, len, kind, &m);
	if (rc == DNS_E_NOMEM || rc == DNS_E_SHORT) {
		dns_msg_free(m);
		app_tx_count(at, &ctr, APP_CTR_PARSER, 1);
		return -1;
	}
	if (rc != DNS_OK)
		app_tx_count(at, &ctr, APP_CTR_PARSER, 1);
	if (dns_txs_add(&st->txs, m, (enum dns_dir)dir, &tx) != 0)
		return -1;
	tx->app_flags |= dir == APP_DIR_TOSERVER ? APP_TX_ONLY_TS | APP_TX_DETECT_TC :
						   APP_TX_ONLY_TC | APP_TX_DETECT_TS;
	app_tx_count(at, &ctr, APP_CTR_TX, 1);
	return rc == DNS_OK ? 0 : -1;
}

const struct dns_msg *mdns_tx_msg(const void *tx, int *dir)
{
	const struct dns_tx *t = tx;

	if (!t)
		return NULL;
	if (dir)
		*dir = t->request ? APP_DIR_TOSERVER : APP_DIR_TOCLIENT;
	return t->request ? t->request : t->response;
}

const AppProtoOps mdns_proto_ops = {
	.name = "mdns",
	.ipprotos = APP_IPPROTO_UDP,
	.config_defaults = mdns_config_defaults,
	.config_load = mdns_config_load,
	.enabled = mdns_enabled,
	.register_counters = mdns_register_counters,
	.probe = mdns_probe,
	.state_new = mdns_state_new,
	.state_free = mdns_state_free,
	.parse = mdns_parse,
	.tx_count = dns_txop_count,
	.tx_get = dns_txop_get,
	.tx_id = dns_txop_id,
	.tx_log_id = dns_txop_id,
	.tx_progress = dns_txop_progress,
	.progress_complete = 1,
	.tx_flags = dns_txop_flags,
	.tx_set_flags = dns_txop_set_flags,
	.tx_detect_slot = dns_txop_detect_slot,
	.tx_gc = dns_txop_gc,
	.event_lookup = dns_txop_event_lookup,
	.tx_has_event = dns_txop_has_event,
};
