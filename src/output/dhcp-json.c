/* eve "dhcp" records and the dhcp member of alerts (see dhcp-json.h). */
#include "output/dhcp-json.h"

#include "app-layer/app-layer.h"
#include "output/output-private.h"
#include "output/json-writer.h"

#include <stdio.h>

static void put_ip(JsonWriter *w, const char *key, const uint8_t *a)
{
	char s[16];

	snprintf(s, sizeof(s), "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
	jw_str(w, key, s);
}

/* "00:11:32:17:49:f0": Suricata's form of a MAC and of a client id */
static void put_hex(JsonWriter *w, const char *key, const uint8_t *p, size_t n)
{
	char s[3 * 255 + 1];
	size_t o = 0;

	for (size_t i = 0; i < n && i < 255; i++)
		o += (size_t)snprintf(s + o, sizeof(s) - o, i ? ":%02x" : "%02x", p[i]);
	s[o] = 0;
	jw_str(w, key, s);
}

/* routers, dns_servers: every whole address of the option */
static void put_ip_list(JsonWriter *w, const char *key, const DhcpOpt *o)
{
	JwMark m = jw_mark(w);

	/* left out rather than empty (the schema's minItems) */
	jw_array(w, key);
	for (unsigned i = 0; i + 4 <= o->len; i += 4)
		put_ip(w, NULL, o->data + i);
	jw_close_nonempty(w, m);
}

static void put_option(JsonWriter *w, const DhcpOpt *o, int ext)
{
	switch (o->code) {
	case DHCP_OPT_CLIENT_ID:
		/* the identifier after its hardware type byte */
		if (o->len >= 2)
			put_hex(w, "client_id", o->data + 1, o->len - 1u);
		return;
	case DHCP_OPT_HOSTNAME:
		if (o->len)
			jw_bytes(w, "hostname", o->data, o->len);
		return;
	case DHCP_OPT_TYPE:
		if (o->len)
			jw_str(w, "dhcp_type", dhcp_type_name(o->data[0]));
		return;
	}
	if (!ext)
		return;
	switch (o->code) {
	case DHCP_OPT_ADDRESS_TIME:
	case DHCP_OPT_RENEWAL_TIME:
	case DHCP_OPT_REBINDING_TIME:
		if (o->len == 4) {
			uint32_t v = (uint32_t)o->data[0] << 24 | (uint32_t)o->data[1] << 16 |
				     (uint32_t)o->data[2] << 8 | o->data[3];

			jw_int(w, o->code == DHCP_OPT_ADDRESS_TIME ? "lease_time"
				  : o->code == DHCP_OPT_RENEWAL_TIME ? "renewal_time"
								       : "rebinding_time",
			       v);
		}
		return;
	case DHCP_OPT_SUBNET_MASK:
		if (o->len >= 4)
			put_ip(w, "subnet_mask", o->data);
		return;
	case DHCP_OPT_REQUESTED_IP:
		if (o->len >= 4)
			put_ip(w, "requested_ip", o->data);
		return;
	case DHCP_OPT_PARAMETER_LIST: {
		JwMark mk = jw_mark(w);

		jw_array(w, "params");
		for (unsigned i = 0; i < o->len; i++) {
			const char *n = dhcp_param_name(o->data[i]);

			if (n)
				jw_str(w, NULL, n);
		}
		jw_close_nonempty(w, mk);
		return;
	}
	case DHCP_OPT_DNS_SERVER:
		put_ip_list(w, "dns_servers", o);
		return;
	case DHCP_OPT_ROUTERS:
		put_ip_list(w, "routers", o);
		return;
	case DHCP_OPT_VENDOR_CLASS_ID:
		if (o->len)
			jw_bytes(w, "vendor_class_identifier", o->data, o->len);
		return;
	}
}

void dhcp_json_write(JsonWriter *w, const DhcpMsg *m, int extended)
{
	uint32_t off = 0;
	DhcpOpt o;

	jw_str(w, "type", m->op == BOOTP_REQUEST ? "request"
			  : m->op == BOOTP_REPLY   ? "reply"
						   : "<unknown>");
	jw_int(w, "id", m->xid);
	put_hex(w, "client_mac", m->chaddr, sizeof(m->chaddr));
	put_ip(w, "assigned_ip", m->yiaddr);
	if (extended) {
		put_ip(w, "client_ip", m->ciaddr);
		if (m->op == BOOTP_REPLY) {
			put_ip(w, "relay_ip", m->giaddr);
			put_ip(w, "next_server_ip", m->siaddr);
		}
	}
	/* in the options' order, as Suricata writes them */
	while (dhcp_opt_next(m->opts, m->opts_len, &off, &o) == 1)
		put_option(w, &o, extended);
}

struct dhcp_obj {
	const DhcpMsg *m;
	int extended;
};

static void build_obj(JsonWriter *w, void *ctx)
{
	const struct dhcp_obj *d = ctx;

	dhcp_json_write(w, d->m, d->extended);
}

json_t *dhcp_json_object(const DhcpMsg *m, int extended)
{
	struct dhcp_obj d = { m, extended };

	return jw_build_tree(build_obj, &d);
}

static void log_dhcp_events(Outputs *o, const Packet *p, const Flow *f, void *txp)
{
	AppTx *t = txp;

	if (!p)
		return;
	for (int e = 0; e < DHCP_EV_COUNT; e++) {
		if (!(t->events >> e & 1) || (t->events_logged >> e & 1))
			continue;
		t->events_logged |= 1u << e;
		output_anomaly_parser_event(o, p, f, "dhcp", dhcp_event_name(e), 0,
					    app_layer_tx_log_id(f, t));
	}
}

struct dhcp_line {
	const Packet *p;
	const Flow *f;
	const DhcpTx *tx;
	int extended;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct dhcp_line *l = ctx;

	/* the message's own direction: a reply's record is from the server */
	eve_header_write_tx(w, "dhcp", l->p, l->f, (l->tx->base.flags & APP_TX_ONLY_TC) != 0);
	jw_object(w, "dhcp");
	dhcp_json_write(w, &l->tx->m, l->extended);
	jw_close(w);
}

static void log_dhcp_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct dhcp_line l = { p, f, tx, 0 };

	if (o && o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_dhcp_events(o, p, f, tx);
	if (!o || !outputs_eve_enabled(o, "dhcp"))
		return;
	l.extended = o->cfg.eve_dhcp_extended;
	/* Suricata 8 without extended logs only what maps a MAC to an
	 * address: the server's ack */
	if (!l.extended && l.tx->m.type != DHCP_TYPE_ACK)
		return;
	eve_write_built(o, "dhcp", build_record, &l);
}

/* Alerts carry the whole (extended) object: the alert's reader has no
 * dhcp record to join it with when extended is off. */
static int alert_dhcp_write(JsonWriter *w, const Flow *f, void *txp)
{
	const DhcpTx *tx = txp;

	(void)f;
	if (!tx)
		return -1;
	jw_object(w, "dhcp");
	dhcp_json_write(w, &tx->m, 1);
	jw_close(w);
	return 0;
}

const EveTxLogger eve_dhcp_logger = {
	.log_tx = log_dhcp_tx,
	.alert_write = alert_dhcp_write,
	.log_events = log_dhcp_events,
};
