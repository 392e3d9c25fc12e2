/* BitTorrent DHT's entry in the application-protocol registry: its
 * configuration (app-layer.protocols.bittorrent-dht.enabled), how it is
 * recognised, and the transactions of bittorrent-dht.h.
 *
 * Recognition, on any UDP port as DHT nodes pick theirs: a datagram that is
 * one bencoded dictionary whose "y" is q, r or e. The first byte ('d')
 * turns every other flow away before any parsing.
 *
 * Each datagram is one transaction, freed once logged and inspected. */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/bittorrent-dht.h"
#include "conf/conf.h"

#include <stdlib.h>
#include <string.h>

#define DHT_KEY "app-layer.protocols.bittorrent-dht."

static int dht_on = 1;              /* 1 yes, 2 detection-only, 0 no */

static void dht_config_defaults(AppLayerConfig *cfg)
{
	(void)cfg;
	dht_on = 1;
}

static int dht_config_load(AppLayerConfig *cfg)
{
	(void)cfg;
	if (!conf_get(DHT_KEY "enabled"))
		return 0;
	return app_conf_enabled(DHT_KEY "enabled", &dht_on);
}

static int dht_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return dht_on;
}

static AppTxCounters ctr;

static void dht_register_counters(void)
{
	app_tx_counters_register(&ctr, "bittorrent-dht");
}

static int dht_probe(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
		     uint32_t len)
{
	(void)cfg;
	(void)f;
	(void)dir;
	if (len < 8 || buf[0] != 'd')
		return DET_NO;
	return dht_looks(buf, len) ? DET_YES : DET_NO;
}

static void tx_free(AppTx *t)
{
	DhtTx *tx = (DhtTx *)t;

	if (tx->valid)
		dht_msg_free(&tx->m);
	free(tx);
}

static int dht_decode(void *state, AppTx *t, int dir, const uint8_t *data, uint32_t len)
{
	DhtTx *tx = (DhtTx *)t;
	int r;

	(void)state;
	tx->dir = (uint8_t)dir;
	r = dht_msg_decode(data, len, &tx->m);
	if (r >= 0)
		tx->valid = 1;
	if (r == 0)
		return TXL_OK;
	t->events |= 1u << DHT_EV_MALFORMED_PACKET;
	return TXL_BAD;
}

static const TxlDgram dht_dgram = {
	.alproto = ALPROTO_BITTORRENT_DHT,
	.tx_size = sizeof(DhtTx),
	.ctr = &ctr,
	.enabled = &dht_on,
	.dirs = TXL_BOTH_DIRS,
	.free_tx = tx_free,
	.decode = dht_decode,
};

static void *dht_state_new(AppLayerThread *at, Flow *f)
{
	(void)f;
	return txl_dgram_state_new(at, &dht_dgram);
}

const AppProtoOps bittorrent_dht_proto_ops = {
	.name = "bittorrent-dht",
	.ipprotos = APP_IPPROTO_UDP,
	.config_defaults = dht_config_defaults,
	.config_load = dht_config_load,
	.enabled = dht_enabled,
	.register_counters = dht_register_counters,
	.probe = dht_probe,
	.state_new = dht_state_new,
	TXL_DGRAM_OPS,
	.event_lookup = dht_event_by_name,
	.tx_has_event = txl_op_has_event,
};
