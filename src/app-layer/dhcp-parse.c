/* DHCP message decoding (see dhcp.h). Nothing here allocates but the one
 * copy of a message's options. */
#include "app-layer/dhcp.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const ev_names[DHCP_EV_COUNT] = {
	[DHCP_EV_TRUNCATED_OPTIONS] = "truncated_options",
	[DHCP_EV_MALFORMED_OPTIONS] = "malformed_options",
};

const char *dhcp_event_name(int ev)
{
	return ev >= 0 && ev < DHCP_EV_COUNT ? ev_names[ev] : NULL;
}

int dhcp_event_by_name(const char *name)
{
	for (int i = 0; i < DHCP_EV_COUNT; i++)
		if (strcasecmp(ev_names[i], name) == 0)
			return i;
	return -1;
}

const char *dhcp_type_name(uint8_t t)
{
	static const char *const names[] = {
		NULL, "discover", "offer", "request", "decline", "ack", "nak", "release",
		"inform",
	};

	return t >= 1 && t <= 8 ? names[t] : "unknown";
}

/* Suricata's eve names the parameters it knows and leaves the rest out. */
const char *dhcp_param_name(uint8_t code)
{
	switch (code) {
	case 1: return "subnet_mask";
	case 3: return "router";
	case 6: return "dns_server";
	case 15: return "domain";
	case 35: return "arp_timeout";
	case 42: return "ntp_server";
	case 66: return "tftp_server_name";
	case 150: return "tftp_server_ip";
	}
	return NULL;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int dhcp_looks_like(const uint8_t *buf, uint32_t len)
{
	if (!buf || len < DHCP_MIN_LEN)
		return 0;
	if (buf[0] != BOOTP_REQUEST && buf[0] != BOOTP_REPLY)
		return 0;
	return be32(buf + DHCP_HDR_LEN) == DHCP_MAGIC;
}

int dhcp_opt_next(const uint8_t *opts, uint32_t len, uint32_t *off, DhcpOpt *o)
{
	uint32_t i = *off;

	/* RFC 2132 3.1: a pad is one byte, no length */
	while (i < len && opts[i] == DHCP_OPT_PAD)
		i++;
	if (i >= len || opts[i] == DHCP_OPT_END) {
		*off = i;
		return 0;
	}
	if (len - i < 2 || len - i - 2 < opts[i + 1]) {
		*off = len;
		return -1;
	}
	o->code = opts[i];
	o->len = opts[i + 1];
	o->data = opts + i + 2;
	*off = i + 2 + o->len;
	return 1;
}

/* The options detection reads, and the faults of their lengths. */
static void scan_options(DhcpMsg *m)
{
	uint32_t off = 0;
	DhcpOpt o;
	int r;

	while ((r = dhcp_opt_next(m->opts, m->opts_len, &off, &o)) == 1) {
		int t = -1;

		switch (o.code) {
		case DHCP_OPT_ADDRESS_TIME: t = DHCP_TIME_LEASE; break;
		case DHCP_OPT_RENEWAL_TIME: t = DHCP_TIME_RENEWAL; break;
		case DHCP_OPT_REBINDING_TIME: t = DHCP_TIME_REBINDING; break;
		case DHCP_OPT_TYPE:
			if (o.len >= 1 && !m->type)
				m->type = o.data[0];
			continue;
		case DHCP_OPT_CLIENT_ID:
			/* a hardware type, then the identifier */
			if (o.len < 2)
				m->malformed = 1;
			continue;
		default:
			continue;
		}
		/* a time value is four bytes, seconds */
		if (o.len != 4) {
			m->malformed = 1;
			continue;
		}
		if (!m->has_time[t]) {
			m->has_time[t] = 1;
			m->time[t] = be32(o.data);
		}
	}
	if (r < 0)
		m->truncated = 1;
}

int dhcp_msg_decode(const uint8_t *buf, uint32_t len, DhcpMsg *m)
{
	memset(m, 0, sizeof(*m));
	if (!buf || len < DHCP_MIN_LEN)
		return -1;
	m->op = buf[0];
	m->xid = be32(buf + 4);
	memcpy(m->ciaddr, buf + 12, 4);
	memcpy(m->yiaddr, buf + 16, 4);
	memcpy(m->siaddr, buf + 20, 4);
	memcpy(m->giaddr, buf + 24, 4);
	memcpy(m->chaddr, buf + 28, 6);
	m->opts_len = len - DHCP_MIN_LEN;
	if (m->opts_len) {
		m->opts = malloc(m->opts_len);
		if (!m->opts) {
			m->opts_len = 0;
			return -2;
		}
		memcpy(m->opts, buf + DHCP_MIN_LEN, m->opts_len);
	}
	scan_options(m);
	return 0;
}

void dhcp_msg_free(DhcpMsg *m)
{
	free(m->opts);
	m->opts = NULL;
	m->opts_len = 0;
}
