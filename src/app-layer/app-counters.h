/* The app_layer.tx.<proto> and app_layer.error.<proto>.<kind> counters a
 * protocol keeps, registered once here under Suricata's names and in its
 * order (tx, then gap, alloc, parser, internal), since stats list counters
 * in the order they were registered.
 *
 * A protocol holds one AppTxCounters, registers it from its ops'
 * register_counters, and counts through app_tx_count(), which does nothing
 * before registration (a parser run by a test without counters). */
#ifndef APP_LAYER_APP_COUNTERS_H
#define APP_LAYER_APP_COUNTERS_H

#include "app-layer/app-layer-int.h"
#include "stats/counters.h"

#include <stdint.h>

enum app_ctr {
	APP_CTR_TX,       /* app_layer.tx.<proto> */
	APP_CTR_GAP,      /* app_layer.error.<proto>.gap */
	APP_CTR_ALLOC,    /* app_layer.error.<proto>.alloc */
	APP_CTR_PARSER,   /* app_layer.error.<proto>.parser */
	APP_CTR_INTERNAL, /* app_layer.error.<proto>.internal */
	APP_CTR_COUNT
};

#define APP_CTR_BIT(k) (1u << (k))

typedef struct AppTxCounters {
	counter_id id[APP_CTR_COUNT];
	unsigned kinds; /* APP_CTR_BIT of each registered one; 0: none yet */
} AppTxCounters;

/* Registers app_layer.tx.<name> and every app_layer.error.<name>.<kind>,
 * as Suricata 8 does for each protocol it detects, whichever errors its
 * parser can meet (the stats record lists them all, at 0): gap except for
 * the UDP half of a protocol on both transports ("dns_udp"), which
 * Suricata leaves without one. The app layer registers these for every
 * protocol (app_layer_register_counters); a protocol that counts them
 * registers again into its own c (same names, same ids). c may be NULL. */
void app_tx_counters_register(AppTxCounters *c, const char *name);

static inline void app_tx_count(AppLayerThread *at, const AppTxCounters *c, enum app_ctr k,
				uint64_t n)
{
	if (at && at->tc && (c->kinds & APP_CTR_BIT(k)) && n)
		counter_add(at->tc, c->id[k], n);
}

#endif
