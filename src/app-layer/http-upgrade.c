/* The Upgrade tokens a 101 answer switches the flow on (http-upgrade.h).
 * One line per protocol: the token as Suricata 8 compares it. */
#include "app-layer/http-upgrade.h"
#include "app-layer/app-layer.h"

#include <strings.h>

static const struct {
	const char *token;
	unsigned alproto;
} upgrades[] = {
	{ "h2c", ALPROTO_HTTP2 },
};

unsigned http_upgrade_proto(const uint8_t *tok, size_t len)
{
	while (len && (*tok == ' ' || *tok == '\t')) {
		tok++;
		len--;
	}
	while (len && (tok[len - 1] == ' ' || tok[len - 1] == '\t'))
		len--;
	for (size_t i = 0; i < sizeof(upgrades) / sizeof(upgrades[0]); i++) {
		const char *t = upgrades[i].token;
		size_t n = 0;

		while (t[n])
			n++;
		if (n == len && !strncasecmp((const char *)tok, t, n))
			return upgrades[i].alproto;
	}
	return ALPROTO_UNKNOWN;
}
