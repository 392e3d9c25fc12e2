/* app-counters.h: one registration for the per-protocol tx and error
 * counters that each protocol file used to spell out. */
#include "app-layer/app-counters.h"

#include <stdio.h>

static const char *const err_names[APP_CTR_COUNT] = {
	[APP_CTR_GAP] = "gap",
	[APP_CTR_ALLOC] = "alloc",
	[APP_CTR_PARSER] = "parser",
	[APP_CTR_INTERNAL] = "internal",
};

void app_tx_counters_register(AppTxCounters *c, const char *proto, unsigned errs)
{
	char name[128];

	snprintf(name, sizeof(name), "app_layer.tx.%s", proto);
	c->id[APP_CTR_TX] = counter_register(name);
	for (int k = APP_CTR_GAP; k < APP_CTR_COUNT; k++) {
		if (!(errs & APP_CTR_BIT(k)))
			continue;
		snprintf(name, sizeof(name), "app_layer.error.%s.%s", proto, err_names[k]);
		c->id[k] = counter_register(name);
	}
	c->on = 1;
}
