/* eve.json records: the common header and the "flow" record.
 *
 * The flow record, eve's most frequent (one per flow), is written with the
 * JSON writer (json-writer.h) straight into a line buffer. The header it
 * shares with the other records is written once, as writer calls
 * (eve_header_write()); eve_header() reads them back as a tree, for the
 * tests. */
#include "output/output-private.h"
#include "output/alert.h"
#include "output/community-id.h"
#include "output/json-writer.h"
#include "stream/stream.h"
#include "app-layer/app-layer.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* Every key here is a literal and every string value is one we format or a
 * static ASCII name (event types, protocol names, states), so the _nocheck
 * setters skip jansson's UTF-8 validation, which a flow record paid some
 * twenty times over. */

static app_proto_name_fn app_proto_namer;

static flowvar_source_fn flowvar_source;

void output_set_flowvar_source(flowvar_source_fn fn)
{
	flowvar_source = fn;
}

void output_vars_write(JsonWriter *w, const char *key, const AlertVar *v, unsigned n)
{
	char buf[512];

	if (!n)
		return;
	jw_array(w, key);
	for (unsigned i = 0; i < n; i++) {
		size_t len = v[i].len < sizeof(buf) ? v[i].len : sizeof(buf);

		for (size_t k = 0; k < len; k++)
			buf[k] = v[i].val[k] >= 0x20 && v[i].val[k] < 0x7f ? (char)v[i].val[k] : '.';
		jw_object(w, NULL);
		jw_strn(w, v[i].name, buf, len);
		jw_close(w);
	}
	jw_close(w);
}

/* The flow record's "metadata": the flow's flowvars (Suricata 8 logs them
 * when eve's metadata is on) */
static void write_flow_metadata(const Outputs *o, JsonWriter *w, const FlowRecordView *v)
{
	if (!o->cfg.eve_metadata || !v->nvars)
		return;
	jw_object(w, "metadata");
	output_vars_write(w, "flowvars", v->vars, v->nvars);
	jw_close(w);
}

void output_set_app_proto_namer(app_proto_name_fn fn)
{
	app_proto_namer = fn;
}

static void format_ts_slow(const struct timeval *tv, char *buf, size_t len)
{
	struct tm tm;
	time_t t = tv->tv_sec;
	char date[32], zone[8];

	if (!localtime_r(&t, &tm)) {
		snprintf(buf, len, "1970-01-01T00:00:00.000000+0000");
		return;
	}
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
	strftime(zone, sizeof(zone), "%z", &tm);
	snprintf(buf, len, "%s.%06ld%s", date, (long)tv->tv_usec, zone);
}

/* localtime_r() and two strftime() calls per timestamp were a large part of
 * a flow record (it has three); the date and zone only change with the
 * second, so each thread keeps the last few seconds formatted (a flow's start
 * and end, the records of the current second). Thread-local: workers format
 * concurrently and take no lock. A tzset() to another zone changes tzname and
 * timezone, which the entries remember, so a cached second never outlives it. */
#define TS_CACHE_SLOTS 4

typedef struct TsCacheSlot {
	int valid;
	time_t sec;
	const char *tz0, *tz1;
	long tzoff;
	size_t date_len, zone_len;
	char date[32], zone[8];
} TsCacheSlot;

static _Thread_local TsCacheSlot ts_cache[TS_CACHE_SLOTS];
static _Thread_local unsigned ts_cache_next;

static const TsCacheSlot *ts_cache_get(time_t sec)
{
	TsCacheSlot *c;
	struct tm tm;

	for (int i = 0; i < TS_CACHE_SLOTS; i++) {
		c = &ts_cache[i];
		if (c->valid && c->sec == sec && c->tz0 == tzname[0] && c->tz1 == tzname[1] &&
		    c->tzoff == timezone)
			return c;
	}
	c = &ts_cache[ts_cache_next++ % TS_CACHE_SLOTS];
	c->valid = 0;
	if (!localtime_r(&sec, &tm))
		return NULL;
	/* localtime_r() may have read TZ for the first time: remember the zone
	 * as it is now. */
	c->tz0 = tzname[0];
	c->tz1 = tzname[1];
	c->tzoff = timezone;
	c->date_len = strftime(c->date, sizeof(c->date), "%Y-%m-%dT%H:%M:%S", &tm);
	c->zone_len = strftime(c->zone, sizeof(c->zone), "%z", &tm);
	if (!c->date_len || !c->zone_len)
		return NULL;       /* left to the slow path, which prints whatever it gets */
	c->sec = sec;
	c->valid = 1;
	return c;
}

/* As eve_format_ts(); returns the length, which the fast path knows (the
 * record writer wants it, and a strlen() would measure it again). */
static size_t format_ts(const struct timeval *tv, char *buf, size_t len)
{
	const TsCacheSlot *c;
	long us = (long)tv->tv_usec;
	char *w;

	/* Anything the fast path would print differently from snprintf (a usec
	 * field out of range, a buffer that truncates) takes the slow path. */
	if (us < 0 || us > 999999 || !(c = ts_cache_get(tv->tv_sec)) ||
	    c->date_len + 7 + c->zone_len >= len) {
		format_ts_slow(tv, buf, len);
		return len ? strlen(buf) : 0;
	}
	memcpy(buf, c->date, c->date_len);
	w = buf + c->date_len;
	*w = '.';
	for (int i = 6; i >= 1; i--) {
		w[i] = (char)('0' + us % 10);
		us /= 10;
	}
	memcpy(w + 7, c->zone, c->zone_len + 1);
	return c->date_len + 7 + c->zone_len;
}

void eve_format_ts(const struct timeval *tv, char *buf, size_t len)
{
	format_ts(tv, buf, len);
}

static const char hex_digits[] = "0123456789abcdef";

/* The longest address text: IPv6, eight groups of four and seven colons. */
#define ADDR_TEXT_MAX 39

/* One byte of a dotted quad as "%u" prints it; returns the end. */
static inline char *put_octet(char *w, unsigned v)
{
	if (v >= 100) {
		*w++ = (char)('0' + v / 100);
		v %= 100;
		*w++ = (char)('0' + v / 10);
	} else if (v >= 10) {
		*w++ = (char)('0' + v / 10);
	}
	*w++ = (char)('0' + v % 10);
	return w;
}

/* Suricata prints IPv6 addresses uncompressed ("2001:0db8:0000:...") and IPv4
 * dotted: exactly the "%02x%02x:..." and "%u.%u.%u.%u" forms. Written by hand
 * rather than with snprintf(): every eve record has two, and the format
 * parser cost more than the rest of the header. The text goes straight to
 * out (ADDR_TEXT_MAX bytes, no NUL), the record's own buffer; returns its
 * length. */
static size_t addr_text(const Address *a, uint8_t ip_version, char *out)
{
	const uint8_t *b = a->a.u8;
	char *w = out;

	if (ip_version == 6) {
		for (int i = 0; i < 16; i += 2) {
			if (i)
				*w++ = ':';
			w[0] = hex_digits[b[i] >> 4];
			w[1] = hex_digits[b[i] & 15];
			w[2] = hex_digits[b[i + 1] >> 4];
			w[3] = hex_digits[b[i + 1] & 15];
			w += 4;
		}
		return (size_t)(w - out);
	}
	w = put_octet(w, b[0]);
	*w++ = '.';
	w = put_octet(w, b[1]);
	*w++ = '.';
	w = put_octet(w, b[2]);
	*w++ = '.';
	w = put_octet(w, b[3]);
	return (size_t)(w - out);
}

/* The text NUL-terminated in buf, cut to fit len as snprintf would.
 * Returns the length written. */
static size_t format_addr(const Address *a, uint8_t ip_version, char *buf, size_t len)
{
	char tmp[ADDR_TEXT_MAX];
	size_t n;

	if (!len)
		return 0;
	if (len > ADDR_TEXT_MAX) {
		n = addr_text(a, ip_version, buf);
	} else {
		n = addr_text(a, ip_version, tmp);
		if (n >= len)
			n = len - 1;
		memcpy(buf, tmp, n);
	}
	buf[n] = 0;
	return n;
}

/* IANA protocol keywords as Suricata prints them; others as the number. */
static const char *proto_name(uint8_t proto, char *buf, size_t len)
{
	switch (proto) {
	case IPPROTO_TCP:
		return "TCP";
	case IPPROTO_UDP:
		return "UDP";
	case IPPROTO_ICMP:
		return "ICMP";
	case IPPROTO_ICMPV6:
		return "IPv6-ICMP";
	case 4:
		return "IP-in-IP";
	case 41:
		return "IPv6";
	case 47:
		return "GRE";
	case 50:
		return "ESP";
	case 51:
		return "AH";
	case 2:
		return "IGMP";
	case 132:
		return "SCTP";
	case 103:
		return "PIM";
	case 112:
		return "VRRP";
	case 136:
		return "UDPLite";
	default:
		snprintf(buf, len, "%u", proto);
		return buf;
	}
}

static int proto_has_ports(uint8_t proto)
{
	return proto == IPPROTO_TCP || proto == IPPROTO_UDP || proto == 132;
}

static int community_on;
static uint16_t community_seed;
static int ethernet_on;

void eve_set_ethernet(int enabled)
{
	ethernet_on = enabled;
}

static void format_mac(const uint8_t *m, char buf[18])
{
	for (int i = 0; i < 6; i++) {
		buf[i * 3] = hex_digits[m[i] >> 4];
		buf[i * 3 + 1] = hex_digits[m[i] & 15];
		buf[i * 3 + 2] = i < 5 ? ':' : 0;
	}
}

/* eve-log "ethernet: yes": a record about a packet names its Ethernet
 * header (src_mac, dest_mac, ether_type). tuple_swapped: the record's
 * addresses are the other way round from the packet's (a transaction's
 * record follows its flow), so the MACs are swapped to match them. A packet
 * with no Ethernet header of its own (a flow-end packet) takes the flow's
 * first pair of addresses, as Suricata 8 does. */
static void write_packet_ether(JsonWriter *w, const Packet *p, const Flow *f, int tuple_swapped)
{
	const uint8_t *src, *dst;
	char mac[18];

	if (p->flags & PKT_HAS_ETH) {
		src = tuple_swapped ? p->eth_dst : p->eth_src;
		dst = tuple_swapped ? p->eth_src : p->eth_dst;
	} else if (f && f->n_macs[0] && f->n_macs[1]) {
		/* the flow's pair is client first: the packet's tuple decides */
		int from_server = !!(p->flags & PKT_TOCLIENT) != !!tuple_swapped;

		src = f->macs[from_server][0];
		dst = f->macs[!from_server][0];
	} else {
		return;
	}
	jw_object(w, "ether");
	if (p->flags & PKT_HAS_ETH)
		jw_int(w, "ether_type", p->eth_type);
	format_mac(src, mac);
	jw_ascii(w, "src_mac", mac, 17);
	format_mac(dst, mac);
	jw_ascii(w, "dest_mac", mac, 17);
	jw_close(w);
}


void eve_set_community_id(int enabled, uint16_t seed)
{
	community_on = enabled;
	community_seed = seed;
}

/* ---- the header written (for the records built with the JSON writer) ---- */

/* An address written in place of the record's own (output/xff.h's
 * overwrite mode); NULL members: none. */
static const EveAddrOverride no_override;

static void write_tuple(JsonWriter *w, uint8_t ip_version, uint8_t proto, const Address *src,
			uint16_t sp, const Address *dst, uint16_t dp, const EveAddrOverride *ov)
{
	char a[ADDR_TEXT_MAX], pbuf[8];

	/* addresses, timestamps and names are ours: ASCII that JSON keeps
	 * (an override is an address inet_pton read) */
	if (ov->src)
		jw_ascii(w, "src_ip", ov->src, strlen(ov->src));
	else
		jw_ascii(w, "src_ip", a, addr_text(src, ip_version, a));
	if (proto_has_ports(proto))
		jw_int(w, "src_port", sp);
	if (ov->dst)
		jw_ascii(w, "dest_ip", ov->dst, strlen(ov->dst));
	else
		jw_ascii(w, "dest_ip", a, addr_text(dst, ip_version, a));
	if (proto_has_ports(proto))
		jw_int(w, "dest_port", dp);
	jw_int(w, "ip_v", ip_version);
	const char *pn = proto_name(proto, pbuf, sizeof(pbuf));
	jw_ascii(w, "proto", pn, strlen(pn));
}

static void write_vlan(JsonWriter *w, const uint16_t *ids, uint8_t n)
{
	if (!n)
		return;
	jw_array(w, "vlan");
	for (int i = 0; i < n && i < 3; i++)
		jw_int(w, NULL, ids[i]);
	jw_close(w);
}

static void header_write(JsonWriter *w, const struct timeval *ts, const char *event_type,
			 const Packet *tp, const Packet *pkt, const Flow *f, int to_client,
			 int one_way, const EveAddrOverride *ov);

void eve_header_write(JsonWriter *w, const struct timeval *ts, const char *event_type,
		      const Packet *p, const Flow *f)
{
	header_write(w, ts, event_type, p, p, f, 0, 0, &no_override);
}

/* tp: the packet whose tuple the record shows (NULL: the flow's); pkt: the
 * packet the record is about (in_iface, pcap_cnt, ether), tp or, for a
 * transaction's record, the one it was logged on. */
static void header_write(JsonWriter *w, const struct timeval *ts, const char *event_type,
			 const Packet *tp, const Packet *pkt, const Flow *f, int to_client,
			 int one_way, const EveAddrOverride *ov)
{
	const Packet *p = tp;
	const char *iface;
	char buf[48];

	jw_ascii(w, "timestamp", buf, format_ts(ts, buf, sizeof(buf)));
	if (f)
		jw_int(w, "flow_id", (int64_t)f->flow_id);
	if (f && f->parent_id)
		jw_int(w, "parent_id", (int64_t)f->parent_id);
	/* live captures: the interface, before pcap_cnt as Suricata 8 writes it
	 * (a transaction's record is given the flow only) */
	iface = pkt && pkt->in_iface ? pkt->in_iface : f ? f->in_iface : NULL;
	if (iface)
		jw_str(w, "in_iface", iface);
	if (pkt && pkt->pcap_cnt)
		jw_int(w, "pcap_cnt", (int64_t)pkt->pcap_cnt);
	jw_ascii(w, "event_type", event_type, strlen(event_type));

	if (p && (p->ip_version == 4 || p->ip_version == 6)) {
		write_vlan(w, p->vlan_id, p->vlan_count);
		write_tuple(w, p->ip_version, p->proto, &p->src, p->sp, &p->dst, p->dp, ov);
		if (p->proto == IPPROTO_ICMP || p->proto == IPPROTO_ICMPV6) {
			jw_int(w, "icmp_type", p->icmp_type);
			jw_int(w, "icmp_code", p->icmp_code);
		}
	} else if (f) {
		write_vlan(w, f->vlan_id, f->vlan_count);
		if (to_client)
			write_tuple(w, f->ip_version, f->proto, &f->dst, f->dp, &f->src, f->sp, ov);
		else
			write_tuple(w, f->ip_version, f->proto, &f->src, f->sp, &f->dst, f->dp, ov);
		if (one_way) {
			/* a netflow record: its own side's, 0 when unseen, as
			 * Suricata's (an ICMP flow's only) */
			if (f->proto == IPPROTO_ICMP || f->proto == IPPROTO_ICMPV6) {
				jw_int(w, "icmp_type", to_client ? f->icmp_tc_type : f->icmp_ts_type);
				jw_int(w, "icmp_code", to_client ? f->icmp_tc_code : f->icmp_ts_code);
			}
		} else if (f->icmp_seen & 1) {
			jw_int(w, "icmp_type", f->icmp_ts_type);
			jw_int(w, "icmp_code", f->icmp_ts_code);
		}
		if (!one_way && (f->icmp_seen & 2)) {
			jw_int(w, "response_icmp_type", f->icmp_tc_type);
			jw_int(w, "response_icmp_code", f->icmp_tc_code);
		}
	}
	/* the flow's tuple as its first packet had it (ICMP: that packet's type
	 * and code), whichever way p goes */
	if (f && community_on) {
		char id[COMMUNITY_ID_LEN];
		uint16_t sp = f->sp, dp = f->dp;

		if (f->proto == IPPROTO_ICMP || f->proto == IPPROTO_ICMPV6) {
			sp = f->icmp_ts_type;
			dp = f->icmp_ts_code;
		}
		if (community_id(community_seed, &f->src, &f->dst, f->proto, sp, dp, id) == 0)
			jw_str(w, "community_id", id);
	}
	if (ethernet_on && pkt) {
		/* a flow-oriented tuple (client as src, or server as src with
		 * to_client) is the packet's own when the packet goes that way */
		int swapped = !tp && !!(pkt->flags & PKT_TOCLIENT) != !!to_client;

		write_packet_ether(w, pkt, f, swapped);
	}
}

void eve_header_write_dir(JsonWriter *w, const struct timeval *ts, const char *event_type,
			  const Flow *f, int to_client)
{
	header_write(w, ts, event_type, NULL, NULL, f, to_client, 1, &no_override);
}

void eve_header_write_ov(JsonWriter *w, const struct timeval *ts, const char *event_type,
			 const Packet *p, const Flow *f, const EveAddrOverride *ov)
{
	header_write(w, ts, event_type, p, p, f, 0, 0, ov ? ov : &no_override);
}

void eve_header_write_tx(JsonWriter *w, const char *event_type, const Packet *p,
			 const Flow *f, int to_client)
{
	header_write(w, p ? &p->ts : &f->last, event_type, NULL, p, f, to_client, 0, &no_override);
}

void eve_header_write_tx_ov(JsonWriter *w, const char *event_type, const Packet *p,
			    const Flow *f, int to_client, const EveAddrOverride *ov)
{
	header_write(w, p ? &p->ts : &f->last, event_type, NULL, p, f, to_client, 0,
		     ov ? ov : &no_override);
}

struct header_obj {
	const struct timeval *ts;
	const char *event_type;
	const Packet *p;
	const Flow *f;
};

static void build_header(JsonWriter *w, void *ctx)
{
	const struct header_obj *h = ctx;

	eve_header_write(w, h->ts, h->event_type, h->p, h->f);
}

json_t *eve_header(const struct timeval *ts, const char *event_type, const Packet *p,
		   const Flow *f)
{
	struct header_obj h = { ts, event_type, p, f };

	return jw_build_tree(build_header, &h);
}

static void write_ts(JsonWriter *w, const char *key, const struct timeval *tv)
{
	char buf[48];

	jw_ascii(w, key, buf, format_ts(tv, buf, sizeof(buf)));
}

static void write_hex(JsonWriter *w, const char *key, uint8_t v)
{
	char buf[2] = { hex_digits[v >> 4], hex_digits[v & 15] };   /* "%02x" */

	jw_ascii(w, key, buf, 2);
}

/* Suricata lists only the flags that were seen, as true. */
static void write_tcp(JsonWriter *w, const FlowRecordView *v)
{
	const Flow *f = &v->f;
	static const struct {
		uint8_t bit;
		const char *name;
	} flags[] = {
		{ TH_SYN, "syn" }, { TH_FIN, "fin" }, { TH_RST, "rst" }, { TH_PSH, "psh" },
		{ TH_ACK, "ack" }, { TH_URG, "urg" }, { TH_ECE, "ecn" }, { TH_CWR, "cwr" },
	};
	uint8_t all = f->tcp_flags_ts | f->tcp_flags_tc;

	jw_object(w, "tcp");
	write_hex(w, "tcp_flags", all);
	write_hex(w, "tcp_flags_ts", f->tcp_flags_ts);
	write_hex(w, "tcp_flags_tc", f->tcp_flags_tc);
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (all & flags[i].bit)
			jw_bool(w, flags[i].name, 1);
	/* Suricata adds the session's state and gaps when it tracked one */
	if (v->has_session) {
		const char *st = tcp_state_name((enum tcp_state)v->tcp_state);

		jw_ascii(w, "state", st, strlen(st));
		if (v->gap[0])
			jw_bool(w, "ts_gap", 1);
		if (v->gap[1])
			jw_bool(w, "tc_gap", 1);
		/* Suricata's buffer opens a second region only past a gap of
		 * 256 KiB or more: 1 is what it writes for any other stream (we
		 * do not track regions; sparser streams would show more) */
		jw_int(w, "ts_max_regions", 1);
		jw_int(w, "tc_max_regions", 1);
	}
	jw_close(w);
}

/* ---- ether (eve-log "ethernet: yes") ---- */

/* A flow's MAC addresses as lists per side (Suricata's src_macs/dest_macs):
 * every address each side used, client side as src, in first-seen order. */
static void write_flow_ether(const Outputs *o, JsonWriter *w, const Flow *f)
{
	static const char *const key[2] = { "src_macs", "dest_macs" };
	char mac[18];

	if (!o->cfg.eve_ethernet || !f->n_macs[0])
		return;
	jw_object(w, "ether");
	for (int side = 0; side < 2; side++) {
		jw_array(w, key[side]);
		for (uint8_t i = 0; i < f->n_macs[side]; i++) {
			format_mac(f->macs[side][i], mac);
			jw_str(w, NULL, mac);
		}
		jw_close(w);
	}
	jw_close(w);
}

/* flow.action and flow.exception_policy: [{target, policy}] of the
 * exception policies applied to the flow (Suricata 8's flow record). */
static void write_flow_exception_policy(JsonWriter *w, const Flow *f)
{
	const char *action = flow_ep_action(f);
	int open = 0;

	if (action)
		jw_str(w, "action", action);
	for (int t = 0; t < EP_TARGET_COUNT; t++) {
		if (!f->ep_applied[t])
			continue;
		if (!open) {
			jw_array(w, "exception_policy");
			open = 1;
		}
		jw_object(w, NULL);
		jw_str(w, "target", ep_target_name((enum ep_target)t));
		jw_str(w, "policy", ep_json_name((enum ep_policy)(f->ep_applied[t] - 1)));
		jw_close(w);
	}
	if (open)
		jw_close(w);
}

/* app_proto and, as Suricata 8's flow record, each side's own detection
 * result where it differs (app_proto_ts, app_proto_tc), the protocol before
 * a change (app_proto_orig) and the one a change asked for where the flow
 * did not end on it (app_proto_expected). */
static void write_flow_app_proto(JsonWriter *w, const Flow *f)
{
	static const char *const keys[] = { "app_proto_ts", "app_proto_tc", "app_proto_orig",
					    "app_proto_expected" };
	/* a flow shown as another protocol (doh2) shows it on both sides, and
	 * its parser's protocol as the one before, as Suricata's forced change */
	uint16_t shown = flow_app_proto_shown(f);
	uint16_t ts = f->app_proto_shown ? shown : f->app_proto_ts;
	uint16_t tc = f->app_proto_shown ? shown : f->app_proto_tc;
	uint16_t orig = f->app_proto_orig || !f->app_proto_shown ? f->app_proto_orig : f->app_proto;
	const uint16_t other[] = { ts, tc, orig, f->app_proto_expect };
	const char *app;

	if (!app_proto_namer)
		return;
	if (shown && (app = app_proto_namer(shown)))
		jw_str(w, "app_proto", app);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (other[i] && other[i] != shown && (app = app_proto_namer(other[i])))
			jw_str(w, keys[i], app);
}

void flow_record_view(const Flow *f, enum flow_end_reason why, FlowRecordView *v)
{
	v->f = *f;
	v->why = (uint8_t)why;
	v->has_session = f->stream != NULL;
	v->tx_cnt = app_layer_tx_cnt(f);
	v->vars = NULL;
	v->nvars = 0;
	if (flowvar_source) {
		AlertVar tmp[ALERT_VARS_MAX];
		unsigned n = flowvar_source(f, tmp, ALERT_VARS_MAX);
		size_t bytes = n * sizeof(AlertVar);
		char *d;

		for (unsigned i = 0; i < n; i++)
			bytes += strlen(tmp[i].name) + 1 + tmp[i].len;
		/* a flow with captures only: the record outlives the flow */
		if (n && (v->vars = malloc(bytes))) {
			d = (char *)(v->vars + n);
			for (unsigned i = 0; i < n; i++) {
				size_t nl = strlen(tmp[i].name) + 1;

				memcpy(d, tmp[i].name, nl);
				v->vars[i].name = d;
				d += nl;
				memcpy(d, tmp[i].val, tmp[i].len);
				v->vars[i].val = (const uint8_t *)d;
				v->vars[i].len = tmp[i].len;
				d += tmp[i].len;
			}
			v->nvars = n;
		}
	}
	if (v->has_session) {
		v->tcp_state = (uint8_t)stream_tcp_state(f);
		for (int d = 0; d < 2; d++)
			v->gap[d] = (stream_dir_flags(f, d) & STREAM_DIR_GAP) != 0;
	}
}

void output_flow_end(Outputs *o, const Flow *f, enum flow_end_reason why)
{
	FlowRecordView v;

	if (!o || !(o->eve_flow || o->eve_netflow) || !f)
		return;
	if (o->flow_writer) {
		flow_writer_submit(o->flow_writer, f, why);
		return;
	}
	flow_record_view(f, why, &v);
	flow_record_write(o, &v);
	flow_record_view_release(&v);
}

void flow_record_view_release(FlowRecordView *v)
{
	free(v->vars);
	v->vars = NULL;
	v->nvars = 0;
}

void flow_record_write(Outputs *o, const FlowRecordView *v)
{
	const Flow *f = &v->f;
	enum flow_end_reason why = (enum flow_end_reason)v->why;
	JsonWriter w;
	char line[4096];   /* a flow record is a few hundred bytes */
	size_t n;

	if (o->eve_netflow)
		netflow_records_write(o, v);
	if (!o->eve_flow)
		return;
	jw_begin(&w, line, sizeof(line));
	eve_header_write(&w, &f->last, "flow", NULL, f);
	write_flow_app_proto(&w, f);
	write_flow_metadata(o, &w, v);

	jw_object(&w, "flow");
	jw_int(&w, "pkts_toserver", (int64_t)f->pkts_toserver);
	jw_int(&w, "pkts_toclient", (int64_t)f->pkts_toclient);
	jw_int(&w, "bytes_toserver", (int64_t)f->bytes_toserver);
	jw_int(&w, "bytes_toclient", (int64_t)f->bytes_toclient);
	write_ts(&w, "start", &f->start);
	write_ts(&w, "end", &f->last);
	/* Suricata: whole seconds between the first and the last packet */
	jw_int(&w, "age", (int64_t)(f->last.tv_sec - f->start.tv_sec));
	/* Suricata 8: only when the flow ended under emergency mode */
	if (f->emergency)
		jw_bool(&w, "emergency", 1);
	/* a flow bypassed by an exception policy ends "bypassed", as in Suricata */
	const char *state = f->ep_flags & (FLOW_EP_BYPASS | FLOW_LOCAL_BYPASS) ? "bypassed" : flow_state_name(f->state);
	const char *reason = flow_end_reason_name(why);

	jw_ascii(&w, "state", state, strlen(state));
	jw_ascii(&w, "reason", reason, strlen(reason));
	jw_bool(&w, "alerted", f->alerted);
	write_flow_exception_policy(&w, f);
	/* Suricata 8: the flow's transaction count, when it had any */
	if (v->tx_cnt)
		jw_int(&w, "tx_cnt", (int64_t)v->tx_cnt);
	jw_close(&w);
	if (f->proto == IPPROTO_TCP)
		write_tcp(&w, v);
	write_flow_ether(o, &w, f);
	n = jw_end(&w);
	eve_write_line(o, "flow", line, n);
}

/* ---- helpers shared with alert.c (output-private.h) ---- */

void output_format_addr(const Address *a, uint8_t ip_version, char *buf, size_t len)
{
	format_addr(a, ip_version, buf, len);
}

const char *output_proto_keyword(uint8_t proto)
{
	char buf[8];
	const char *name = proto_name(proto, buf, sizeof(buf));

	return name == buf ? NULL : name;
}

const char *output_app_proto_name(uint16_t app_proto)
{
	if (!app_proto || !app_proto_namer)
		return NULL;
	return app_proto_namer(app_proto);
}
