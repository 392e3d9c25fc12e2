/* decode_config_load: defrag.* and pcap-file.checksum-checks from the conf tree. */
#include "conf/conf.h"
#include "decode/decode.h"
#include "decode/defrag.h"
#include "util/log.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int load_u32(const char *key, uint32_t *out)
{
	int64_t v = *out;
	int r = conf_get_int(key, &v);

	if (r < 0)
		return -1;
	if (r == 1) {
		if (v <= 0 || v > UINT32_MAX) {
			log_error("decode: %s: %lld is out of range", key, (long long)v);
			return -1;
		}
		*out = (uint32_t)v;
	}
	return 0;
}

/* Port lists as Suricata writes them: "4789", "[8472, 4789]", "8472, 4789", or
 * a "$NAME" from vars.port-groups. */
static int parse_ports(const char *key, const char *v, UdpTunnelConfig *t)
{
	char var[128];
	const char *s = v;

	if (*v == '$') {
		snprintf(var, sizeof(var), "vars.port-groups.%s", v + 1);
		s = conf_get(var);
		if (!s) {
			log_error("decode: %s: port group '%s' is not defined", key, v);
			return -1;
		}
	}
	t->nports = 0;
	while (*s) {
		char *end;
		long port;

		if (*s == '[' || *s == ']' || *s == ',' || isspace((unsigned char)*s)) {
			s++;
			continue;
		}
		port = strtol(s, &end, 10);
		if (end == s || port < 0 || port > 65535) {
			log_error("decode: %s: '%s' is not a port list", key, v);
			return -1;
		}
		if (t->nports == DECODE_TUNNEL_PORTS_MAX) {
			log_error("decode: %s: at most %d ports", key, DECODE_TUNNEL_PORTS_MAX);
			return -1;
		}
		t->ports[t->nports++] = (uint16_t)port;
		s = end;
	}
	return 0;
}

static int load_udp_tunnel(const char *name, uint16_t def_port, UdpTunnelConfig *t)
{
	const ConfNode *node;
	char key[64];
	const char *v;

	t->enabled = 1;
	t->nports = 1;
	t->ports[0] = def_port;
	snprintf(key, sizeof(key), "decoder.%s.enabled", name);
	if (conf_get_bool(key, &t->enabled) < 0)
		return -1;
	snprintf(key, sizeof(key), "decoder.%s.ports", name);
	v = conf_get(key);
	if (v)
		return parse_ports(key, v, t);
	/* a YAML sequence of ports */
	node = conf_get_node(key);
	if (node && node->is_seq) {
		t->nports = 0;
		for (const ConfNode *c = node->child; c; c = c->next) {
			UdpTunnelConfig one = { 0 };

			if (!c->val || parse_ports(key, c->val, &one) < 0 || one.nports != 1 ||
			    t->nports == DECODE_TUNNEL_PORTS_MAX) {
				log_error("decode: %s: not a list of at most %d ports", key,
					  DECODE_TUNNEL_PORTS_MAX);
				return -1;
			}
			t->ports[t->nports++] = one.ports[0];
		}
	}
	return 0;
}

int decode_config_load(DecodeConfig *cfg)
{
	const char *cs;

	memset(cfg, 0, sizeof(*cfg));
	cfg->checksum = CHECKSUM_AUTO;
	cfg->defrag.memcap = 32ull * 1024 * 1024;
	cfg->defrag.timeout_s = 60;
	cfg->defrag.max_frags = 65535;
	cfg->defrag.trackers = 65535;
	cfg->defrag_enabled = 1;

	cfg->recursion_for_tracking = 1;
	if (conf_get_bool("decoder.recursion-level.use-for-tracking",
			  &cfg->recursion_for_tracking) < 0)
		return -1;
	/* off: a flow's two directions on different vlans (a router on a
	 * stick, asymmetric trunks) are one flow, and so are fragments */
	cfg->vlan_for_tracking = 1;
	if (conf_get_bool("vlan.use-for-tracking", &cfg->vlan_for_tracking) < 0)
		return -1;
	if (load_udp_tunnel("vxlan", 4789, &cfg->vxlan) < 0 ||
	    load_udp_tunnel("geneve", 6081, &cfg->geneve) < 0)
		return -1;

	if (conf_get_size("defrag.memcap", &cfg->defrag.memcap) < 0)
		return -1;
	defrag_memcap_configured(cfg->defrag.memcap);
	if (load_u32("defrag.timeout", &cfg->defrag.timeout_s) < 0 ||
	    load_u32("defrag.max-frags", &cfg->defrag.max_frags) < 0 ||
	    load_u32("defrag.trackers", &cfg->defrag.trackers) < 0)
		return -1;
	/* The tracker hash table is held from the start and counted in
	 * defrag.memuse, as Suricata counts its hash rows (and refuses to start
	 * when the memcap cannot hold them). */
	if (cfg->defrag.memcap < defrag_table_bytes(&cfg->defrag)) {
		log_error("decode: defrag.memcap %llu is smaller than the tracker hash table "
			  "(%llu bytes for defrag.trackers %u): raise defrag.memcap",
			  (unsigned long long)cfg->defrag.memcap,
			  (unsigned long long)defrag_table_bytes(&cfg->defrag),
			  cfg->defrag.trackers);
		return -1;
	}

	/* Suricata's pcap-file.checksum-checks: auto, yes or no. */
	cs = conf_get("pcap-file.checksum-checks");
	if (!cs || strcasecmp(cs, "auto") == 0)
		cfg->checksum = CHECKSUM_AUTO;
	else if (strcasecmp(cs, "yes") == 0 || strcasecmp(cs, "true") == 0 ||
		 strcasecmp(cs, "on") == 0)
		cfg->checksum = CHECKSUM_ALL;
	else if (strcasecmp(cs, "no") == 0 || strcasecmp(cs, "false") == 0 ||
		 strcasecmp(cs, "off") == 0)
		cfg->checksum = CHECKSUM_NONE;
	else {
		log_error("decode: pcap-file.checksum-checks: '%s' is not auto, yes or no", cs);
		return -1;
	}
	return 0;
}
