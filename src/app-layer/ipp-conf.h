/* The yaml section of a protocol that runs on TCP and UDP on known ports
 * (LDAP, Kerberos 5, SNMP): `enabled` and `detection-ports` for both
 * transports, or per transport under `tcp:` / `udp:` as Suricata 8's yaml
 * writes LDAP's; and the check its probes make: one end of the flow on a
 * listed port. */
#ifndef APP_LAYER_IPP_CONF_H
#define APP_LAYER_IPP_CONF_H

#include "app-layer/app-layer.h"

#include <stdint.h>

enum { IPP_TCP = 0, IPP_UDP = 1 };

typedef struct IppConf {
	int enabled[2];             /* per transport: 1 yes, 2 detection-only, 0 no */
	uint16_t ports[2][APP_MAX_DETECT_PORTS];
	unsigned nports[2];
} IppConf;

/* The defaults: enabled on both, the same ports on both (n of them). */
void ipp_conf_defaults(IppConf *c, const uint16_t *ports, unsigned n);
/* prefix: "app-layer.protocols.ldap." 0, or -1 (logged). */
int ipp_conf_load(IppConf *c, const char *prefix);
/* What the app layer's enabled() answers: yes when a transport parses. */
int ipp_conf_enabled(const IppConf *c);
static inline int ipp_of(const Flow *f)
{
	return f->proto == 17 ? IPP_UDP : IPP_TCP;
}
/* 1 when the flow's transport is on and one of its ends is a listed port */
int ipp_conf_port_ok(const IppConf *c, const Flow *f);

#endif
