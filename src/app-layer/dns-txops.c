/* DNS and mDNS transaction calls: see dns-txops.h. */
#include "app-layer/app-layer-int.h"
#include "app-layer/dns-txops.h"

/* the state of both protocols starts with its transaction list */
static struct dns_txs *txs_of(const void *state)
{
	return (struct dns_txs *)state;
}

void dns_txop_release(struct dns_tx *tx)
{
	app_layer_detect_state_free(tx->detect);
	tx->detect = NULL;
}

void dns_txop_free_all(struct dns_txs *txs)
{
	for (uint32_t i = 0; i < dns_txs_count(txs); i++)
		dns_txop_release(dns_txs_get(txs, i));
	dns_txs_free(txs);
}

uint64_t dns_txop_count(const void *state)
{
	return txs_of(state)->next_id;
}

void *dns_txop_get(const void *state, uint64_t id)
{
	return dns_txs_by_id(txs_of(state), id);
}

uint64_t dns_txop_id(const void *tx)
{
	return ((const struct dns_tx *)tx)->tx_id;
}

int dns_txop_progress(const void *tx, int dir)
{
	return dns_tx_done(tx, (enum dns_dir)dir) ? 1 : 0;
}

unsigned dns_txop_flags(const void *tx)
{
	return ((const struct dns_tx *)tx)->app_flags;
}

void dns_txop_set_flags(void *tx, unsigned flags)
{
	((struct dns_tx *)tx)->app_flags |= flags;
}

void **dns_txop_detect_slot(void *tx)
{
	return &((struct dns_tx *)tx)->detect;
}

void dns_txop_gc(void *state, unsigned need)
{
	struct dns_txs *txs = txs_of(state);
	uint32_t n = 0;
	uint64_t upto = 0;

	for (uint32_t i = 0; i < dns_txs_count(txs); i++) {
		struct dns_tx *tx = dns_txs_get(txs, i);

		if ((tx->app_flags & need) != need || !dns_tx_complete(tx))
			break;
		dns_txop_release(tx);
		upto = tx->tx_id;
		n++;
	}
	if (n)
		dns_txs_gc(txs, upto);
}

int dns_txop_event_lookup(const char *event)
{
	return dns_event_by_name(event);
}

int dns_txop_has_event(const void *tx, int id)
{
	uint32_t ev = dns_tx_events(tx, DNS_DIR_TOSERVER) | dns_tx_events(tx, DNS_DIR_TOCLIENT);

	return id >= 0 && id < DNS_EV_MAX && ((ev >> id) & 1u);
}
