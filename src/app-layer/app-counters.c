/* app-counters.h: one registration for the per-protocol tx and error
 * counters that each protocol file used to spell out. */
#include "app-layer/app-counters.h"

#include <stdio.h>
#include <string.h>

static const char *const err_names[APP_CTR_COUNT] = {
	[APP_CTR_GAP] = "gap",
	[APP_CTR_ALLOC] = "alloc",
	[APP_CTR_PARSER] = "parser",
	[APP_CTR_INTERNAL] = "internal",
};

void app_tx_counters_register(AppTxCounters *c, const char *name)
{
	size_t len = strlen(name);
	int udp_half = len > 4 && strcmp(name + len - 4, "_udp") == 0;
	char full[128];
	counter_id id;
	unsigned kinds = APP_CTR_BIT(APP_CTR_TX);

	snprintf(full, sizeof(full), "app_layer.tx.%s", name);
	id = counter_register(full);
	if (c)
		c->id[APP_CTR_TX] = id;
	for (int k = APP_CTR_GAP; k < APP_CTR_COUNT; k++) {
		if (k == APP_CTR_GAP && udp_half)
			continue;
		snprintf(full, sizeof(full), "app_layer.error.%s.%s", name, err_names[k]);
		id = counter_register(full);
		if (c)
			c->id[k] = id;
		kinds |= APP_CTR_BIT(k);
	}
	if (c)
		c->kinds = kinds;
}
