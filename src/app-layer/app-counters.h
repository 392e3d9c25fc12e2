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

/* Which error counters a protocol has; tx is always there. */
#define APP_CTR_BIT(k) (1u << (k))
#define APP_CTR_ERRS_ALL                                                                   \
	(APP_CTR_BIT(APP_CTR_GAP) | APP_CTR_BIT(APP_CTR_ALLOC) | APP_CTR_BIT(APP_CTR_PARSER) | \
	 APP_CTR_BIT(APP_CTR_INTERNAL))

typedef struct AppTxCounters {
	counter_id id[APP_CTR_COUNT];
	int on; /* registered: ids are valid */
} AppTxCounters;

void app_tx_counters_register(AppTxCounters *c, const char *proto, unsigned errs);

static inline void app_tx_count(AppLayerThread *at, const AppTxCounters *c, enum app_ctr k,
				uint64_t n)
{
	if (at && at->tc && c->on && n)
		counter_add(at->tc, c->id[k], n);
}

#endif
