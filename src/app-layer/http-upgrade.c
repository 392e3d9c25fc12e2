/* The Upgrade tokens a 101 answer switches the flow on (http-upgrade.h).
 * One line per protocol: the token as Suricata 8 compares it. */
#include "app-layer/http-upgrade.h"
#include "app-layer/app-layer.h"

#include <string.h>
#include <strings.h>

static const struct {
	const char *token;
	unsigned alproto;
} upgrades[] = {
	{ "websocket", ALPROTO_WEBSOCKET },
	{ "h2c", ALPROTO_HTTP2 },
};

unsigned http_upgrade_proto(const uint8_t *tok, size_t len)
{
	size_t i = 0, n;

	/* the first token of the list, without blanks around it */
	while (i < len && (tok[i] == ' ' || tok[i] == '\t'))
		i++;
	n = i;
	while (n < len && tok[n] != ',' && tok[n] != ' ' && tok[n] != '\t' && tok[n] != '/')
		n++;
	for (size_t k = 0; k < sizeof(upgrades) / sizeof(upgrades[0]); k++)
		if (strlen(upgrades[k].token) == n - i &&
		    strncasecmp(upgrades[k].token, (const char *)tok + i, n - i) == 0)
			return upgrades[k].alproto;
	return ALPROTO_UNKNOWN;
}
