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
	app_tx_counters_register(&ctr, "bittorrent-dht",
				 APP_CTR_BIT(APP_CTR_ALLOC) | APP_CTR_BIT(APP_CTR_PARSER));
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

typedef struct DhtState {
	AppTxList txs;              /* first: txlist.h's ops read it */
} DhtState;

static void tx_free(AppTx *t)
{
	DhtTx *tx = (DhtTx *)t;

	if (tx->valid)
		dht_msg_free(&tx->m);
	free(tx);
}

static void *dht_state_new(AppLayerThread *at, Flow *f)
{
	DhtState *st = calloc(1, sizeof(*st));

	(void)f;
	if (!st) {
		app_tx_count(at, &ctr, APP_CTR_ALLOC, 1);
		return NULL;
	}
	txl_init(&st->txs, ALPROTO_BITTORRENT_DHT, tx_free);
	return st;
}

static void dht_state_free(void *state)
{
	DhtState *st = state;

	if (!st)
		return;
	txl_free(&st->txs);
	free(st);
}

static int dht_parse(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
		     uint32_t len, int flags)
{
	DhtState *st = state;
	DhtTx *tx;
	int r;

	(void)f;
	(void)flags;
	if (!st || dht_on == 2 || !data || !len || dir < 0 || dir > 1)
		return 0;
	if (!(tx = calloc(1, sizeof(*tx)))) {
		app_tx_count(at, &ctr, APP_CTR_ALLOC, 1);
		return -1;
	}
	tx->dir = (uint8_t)dir;
	r = dht_msg_decode(data, len, &tx->m);
	if (r >= 0)
		tx->valid = 1;
	if (r != 0) {
		tx->base.events |= 1u << DHT_EV_MALFORMED_PACKET;
		app_tx_count(at, &ctr, APP_CTR_PARSER, 1);
	}
	tx->base.done[0] = tx->base.done[1] = 1;
	tx->base.flags |= dir == APP_DIR_TOSERVER ? APP_TX_ONLY_TS | APP_TX_DETECT_TC
						  : APP_TX_ONLY_TC | APP_TX_DETECT_TS;
	txl_add(&st->txs, &tx->base);
	app_tx_count(at, &ctr, APP_CTR_TX, 1);
	return r == 0 ? 0 : -1;
}

static int dht_event_lookup(const char *name)
{
	return dht_event_by_name(name);
}

static int dht_tx_has_event(const void *tx, int id)
{
	return id >= 0 && id < DHT_EV_COUNT && (((const AppTx *)tx)->events >> id & 1);
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
	.state_free = dht_state_free,
	.parse = dht_parse,
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
	.event_lookup = dht_event_lookup,
	.tx_has_event = dht_tx_has_event,
};
