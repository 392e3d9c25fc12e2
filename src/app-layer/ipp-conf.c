/* A TCP-and-UDP protocol's yaml section (ipp-conf.h). */
#include "app-layer/ipp-conf.h"
#include "app-layer/app-layer-int.h"
#include "conf/conf.h"

#include <stdio.h>
#include <string.h>

void ipp_conf_defaults(IppConf *c, const uint16_t *ports, unsigned n)
{
	memset(c, 0, sizeof(*c));
	for (int i = 0; i < 2; i++) {
		c->enabled[i] = 1;
		memcpy(c->ports[i], ports, n * sizeof(*ports));
		c->nports[i] = n;
	}
}

int ipp_conf_load(IppConf *c, const char *prefix)
{
	static const char *const sub[2] = { "tcp.", "udp." };
	char key[256];
	int rc = 0;

	/* the top-level keys set both transports, their own sections then
	 * override */
	snprintf(key, sizeof(key), "%senabled", prefix);
	if (conf_get(key)) {
		int e = 1;

		if (app_conf_enabled(key, &e) < 0)
			rc = -1;
		c->enabled[0] = c->enabled[1] = e;
	}
	snprintf(key, sizeof(key), "%sdetection-ports.dp", prefix);
	if (conf_get_node(key)) {
		if (app_conf_ports(key, c->ports[0], APP_MAX_DETECT_PORTS, &c->nports[0]) < 0)
			rc = -1;
		memcpy(c->ports[1], c->ports[0], sizeof(c->ports[0]));
		c->nports[1] = c->nports[0];
	}
	for (int i = 0; i < 2; i++) {
		char p[200];

		snprintf(p, sizeof(p), "%s%s", prefix, sub[i]);
		if (app_conf_enabled_ports(p, &c->enabled[i], c->ports[i], &c->nports[i]) < 0)
			rc = -1;
	}
	return rc;
}

int ipp_conf_enabled(const IppConf *c)
{
	if (c->enabled[0] == 1 || c->enabled[1] == 1)
		return 1;
	return c->enabled[0] || c->enabled[1] ? 2 : 0;
}

int ipp_conf_port_ok(const IppConf *c, const Flow *f)
{
	int i = ipp_of(f);

	if (!c->enabled[i])
		return 0;
	for (unsigned k = 0; k < c->nports[i]; k++)
		if (c->ports[i][k] == f->dp || c->ports[i][k] == f->sp)
			return 1;
	return 0;
}
