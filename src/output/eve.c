/* eve.json records: the common header and the "flow" record. */
#include "output/output-private.h"
#include "output/community-id.h"
#include "stream/stream.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define TH_FIN 0x01
#define TH_SYN 0x02
#define TH_RST 0x04
#define TH_PSH 0x08
#define TH_ACK 0x10
#define TH_URG 0x20
#define TH_ECE 0x40
#define TH_CWR 0x80

/* Every key here is a literal and every string value is one we format or a
 * static ASCII name (event types, protocol names, states), so the _nocheck
 * setters skip jansson's UTF-8 validation, which a flow record paid some
 * twenty times over. */

static app_proto_name_fn app_proto_namer;

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

void eve_format_ts(const struct timeval *tv, char *buf, size_t len)
{
	const TsCacheSlot *c;
	long us = (long)tv->tv_usec;
	char *w;

	/* Anything the fast path would print differently from snprintf (a usec
	 * field out of range, a buffer that truncates) takes the slow path. */
	if (us < 0 || us > 999999 || !(c = ts_cache_get(tv->tv_sec)) ||
	    c->date_len + 7 + c->zone_len >= len) {
		format_ts_slow(tv, buf, len);
		return;
	}
	memcpy(buf, c->date, c->date_len);
	w = buf + c->date_len;
	*w = '.';
	for (int i = 6; i >= 1; i--) {
		w[i] = (char)('0' + us % 10);
		us /= 10;
	}
	memcpy(w + 7, c->zone, c->zone_len + 1);
}

static const char hex_digits[] = "0123456789abcdef";

/* Suricata prints IPv6 addresses uncompressed ("2001:0db8:0000:...") and IPv4
 * dotted. Written by hand rather than with snprintf(): every eve record has
 * two, and the format parser cost more than the rest of the header. The text
 * is exactly the "%02x%02x:..." and "%u.%u.%u.%u" forms, cut to fit len as
 * snprintf would. */
static void format_addr(const Address *a, uint8_t ip_version, char *buf, size_t len)
{
	const uint8_t *b = a->a.u8;
	char tmp[40], *w = tmp;
	size_t n;

	if (ip_version == 6) {
		for (int i = 0; i < 16; i++) {
			if (i && !(i & 1))
				*w++ = ':';
			*w++ = hex_digits[b[i] >> 4];
			*w++ = hex_digits[b[i] & 15];
		}
	} else {
		for (int i = 0; i < 4; i++) {
			if (i)
				*w++ = '.';
			if (b[i] >= 100)
				*w++ = (char)('0' + b[i] / 100);
			if (b[i] >= 10)
				*w++ = (char)('0' + b[i] / 10 % 10);
			*w++ = (char)('0' + b[i] % 10);
		}
	}
	if (!len)
		return;
	n = (size_t)(w - tmp);
	if (n >= len)
		n = len - 1;
	memcpy(buf, tmp, n);
	buf[n] = 0;
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

static void add_tuple(json_t *o, uint8_t ip_version, uint8_t proto, const Address *src,
		      uint16_t sp, const Address *dst, uint16_t dp)
{
	char a[48], pbuf[8];

	format_addr(src, ip_version, a, sizeof(a));
	json_object_set_new_nocheck(o, "src_ip", json_string_nocheck(a));
	if (proto_has_ports(proto))
		json_object_set_new_nocheck(o, "src_port", json_integer(sp));
	format_addr(dst, ip_version, a, sizeof(a));
	json_object_set_new_nocheck(o, "dest_ip", json_string_nocheck(a));
	if (proto_has_ports(proto))
		json_object_set_new_nocheck(o, "dest_port", json_integer(dp));
	json_object_set_new_nocheck(o, "ip_v", json_integer(ip_version));
	json_object_set_new_nocheck(o, "proto",
				    json_string_nocheck(proto_name(proto, pbuf, sizeof(pbuf))));
}

static void add_vlan(json_t *o, const uint16_t *ids, uint8_t n)
{
	json_t *arr;

	if (!n)
		return;
	arr = json_array();
	for (int i = 0; i < n && i < 3; i++)
		json_array_append_new(arr, json_integer(ids[i]));
	json_object_set_new_nocheck(o, "vlan", arr);
}

static int community_on;
static uint16_t community_seed;

void eve_set_community_id(int enabled, uint16_t seed)
{
	community_on = enabled;
	community_seed = seed;
}

/* The flow's tuple as its first packet had it (ICMP: that packet's type
 * and code), whichever way p goes. */
static void add_community_id(json_t *o, const Flow *f)
{
	char id[COMMUNITY_ID_LEN];
	uint16_t sp = f->sp, dp = f->dp;

	if (f->proto == IPPROTO_ICMP || f->proto == IPPROTO_ICMPV6) {
		sp = f->icmp_ts_type;
		dp = f->icmp_ts_code;
	}
	if (community_id(community_seed, &f->src, &f->dst, f->proto, sp, dp, id) == 0)
		json_object_set_new_nocheck(o, "community_id", json_string_nocheck(id));
}

json_t *eve_header(const struct timeval *ts, const char *event_type, const Packet *p,
		   const Flow *f)
{
	json_t *o = json_object();
	char buf[48];

	if (!o)
		return NULL;
	eve_format_ts(ts, buf, sizeof(buf));
	json_object_set_new_nocheck(o, "timestamp", json_string_nocheck(buf));
	if (f)
		json_object_set_new_nocheck(o, "flow_id", json_integer((json_int_t)f->flow_id));
	if (p && p->pcap_cnt)
		json_object_set_new_nocheck(o, "pcap_cnt", json_integer((json_int_t)p->pcap_cnt));
	json_object_set_new_nocheck(o, "event_type", json_string_nocheck(event_type));

	if (p && (p->ip_version == 4 || p->ip_version == 6)) {
		add_vlan(o, p->vlan_id, p->vlan_count);
		add_tuple(o, p->ip_version, p->proto, &p->src, p->sp, &p->dst, p->dp);
		if (p->proto == IPPROTO_ICMP || p->proto == IPPROTO_ICMPV6) {
			json_object_set_new_nocheck(o, "icmp_type", json_integer(p->icmp_type));
			json_object_set_new_nocheck(o, "icmp_code", json_integer(p->icmp_code));
		}
	} else if (f) {
		add_vlan(o, f->vlan_id, f->vlan_count);
		add_tuple(o, f->ip_version, f->proto, &f->src, f->sp, &f->dst, f->dp);
		/* Flow records of ICMP name the first type/code seen each way. */
		if (f->icmp_seen & 1) {
			json_object_set_new_nocheck(o, "icmp_type", json_integer(f->icmp_ts_type));
			json_object_set_new_nocheck(o, "icmp_code", json_integer(f->icmp_ts_code));
		}
		if (f->icmp_seen & 2) {
			json_object_set_new_nocheck(o, "response_icmp_type", json_integer(f->icmp_tc_type));
			json_object_set_new_nocheck(o, "response_icmp_code", json_integer(f->icmp_tc_code));
		}
	}
	if (f && community_on)
		add_community_id(o, f);
	return o;
}

static void set_ts(json_t *o, const char *key, const struct timeval *tv)
{
	char buf[48];

	eve_format_ts(tv, buf, sizeof(buf));
	json_object_set_new_nocheck(o, key, json_string_nocheck(buf));
}

static void set_hex(json_t *o, const char *key, uint8_t v)
{
	char buf[3] = { hex_digits[v >> 4], hex_digits[v & 15], 0 };   /* "%02x" */

	json_object_set_new_nocheck(o, key, json_string_nocheck(buf));
}

/* Suricata lists only the flags that were seen, as true. */
static json_t *tcp_object(const Flow *f)
{
	static const struct {
		uint8_t bit;
		const char *name;
	} flags[] = {
		{ TH_SYN, "syn" }, { TH_FIN, "fin" }, { TH_RST, "rst" }, { TH_PSH, "psh" },
		{ TH_ACK, "ack" }, { TH_URG, "urg" }, { TH_ECE, "ecn" }, { TH_CWR, "cwr" },
	};
	uint8_t all = f->tcp_flags_ts | f->tcp_flags_tc;
	json_t *t = json_object();

	set_hex(t, "tcp_flags", all);
	set_hex(t, "tcp_flags_ts", f->tcp_flags_ts);
	set_hex(t, "tcp_flags_tc", f->tcp_flags_tc);
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (all & flags[i].bit)
			json_object_set_new_nocheck(t, flags[i].name, json_true());
	/* Suricata adds the session's state and gaps when it tracked one */
	if (f->stream) {
		json_object_set_new_nocheck(t, "state",
					    json_string_nocheck(tcp_state_name(stream_tcp_state(f))));
		if (stream_dir_flags(f, 0) & STREAM_DIR_GAP)
			json_object_set_new_nocheck(t, "ts_gap", json_true());
		if (stream_dir_flags(f, 1) & STREAM_DIR_GAP)
			json_object_set_new_nocheck(t, "tc_gap", json_true());
		/* Suricata's buffer opens a second region only past a gap of
		 * 256 KiB or more: 1 is what it writes for any other stream (we
		 * do not track regions; sparser streams would show more) */
		json_object_set_new_nocheck(t, "ts_max_regions", json_integer(1));
		json_object_set_new_nocheck(t, "tc_max_regions", json_integer(1));
	}
	return t;
}

/* ---- ether (eve-log "ethernet: yes") ---- */

static json_t *mac_string(const uint8_t *m)
{
	char buf[18];

	for (int i = 0; i < 6; i++) {
		buf[i * 3] = hex_digits[m[i] >> 4];
		buf[i * 3 + 1] = hex_digits[m[i] & 15];
		buf[i * 3 + 2] = i < 5 ? ':' : 0;
	}
	return json_string_nocheck(buf);
}

void eve_add_ether(const Outputs *o, json_t *rec, const Packet *p)
{
	json_t *e;

	if (!o->cfg.eve_ethernet || !(p->flags & PKT_HAS_ETH) || !(e = json_object()))
		return;
	json_object_set_new_nocheck(e, "src_mac", mac_string(p->eth_src));
	json_object_set_new_nocheck(e, "dest_mac", mac_string(p->eth_dst));
	json_object_set_new_nocheck(rec, "ether", e);
}

/* A flow's MAC addresses as lists per side (Suricata's src_macs/dest_macs);
 * we keep the pair of the flow's first Ethernet packet. */
static void add_flow_ether(const Outputs *o, json_t *rec, const Flow *f)
{
	json_t *e, *s, *d;

	if (!o->cfg.eve_ethernet || !f->has_macs || !(e = json_object()))
		return;
	s = json_array();
	d = json_array();
	json_array_append_new(s, mac_string(f->mac_src));
	json_array_append_new(d, mac_string(f->mac_dst));
	json_object_set_new_nocheck(e, "src_macs", s);
	json_object_set_new_nocheck(e, "dest_macs", d);
	json_object_set_new_nocheck(rec, "ether", e);
}

/* flow.action and flow.exception_policy: [{target, policy}] of the
 * exception policies applied to the flow (Suricata 8's flow record). */
static void add_flow_exception_policy(json_t *fl, const Flow *f)
{
	const char *action = flow_ep_action(f);
	json_t *arr = NULL;

	if (action)
		json_object_set_new_nocheck(fl, "action", json_string_nocheck(action));
	for (int t = 0; t < EP_TARGET_COUNT; t++) {
		json_t *e;

		if (!f->ep_applied[t])
			continue;
		if (!arr)
			arr = json_array();
		e = json_object();
		json_object_set_new_nocheck(e, "target",
					    json_string_nocheck(ep_target_name((enum ep_target)t)));
		json_object_set_new_nocheck(e, "policy", json_string_nocheck(ep_json_name(
			(enum ep_policy)(f->ep_applied[t] - 1))));
		json_array_append_new(arr, e);
	}
	if (arr)
		json_object_set_new_nocheck(fl, "exception_policy", arr);
}

void output_flow_end(Outputs *o, const Flow *f, enum flow_end_reason why)
{
	json_t *rec, *fl;
	const char *app;

	if (!o || !o->eve_flow || !f)
		return;
	rec = eve_header(&f->last, "flow", NULL, f);
	if (!rec)
		return;
	if (f->app_proto && app_proto_namer && (app = app_proto_namer(f->app_proto)))
		json_object_set_new_nocheck(rec, "app_proto", json_string_nocheck(app));
	if (f->app_proto_orig && app_proto_namer && (app = app_proto_namer(f->app_proto_orig)))
		json_object_set_new_nocheck(rec, "app_proto_orig", json_string_nocheck(app));

	fl = json_object();
	json_object_set_new_nocheck(fl, "pkts_toserver", json_integer((json_int_t)f->pkts_toserver));
	json_object_set_new_nocheck(fl, "pkts_toclient", json_integer((json_int_t)f->pkts_toclient));
	json_object_set_new_nocheck(fl, "bytes_toserver", json_integer((json_int_t)f->bytes_toserver));
	json_object_set_new_nocheck(fl, "bytes_toclient", json_integer((json_int_t)f->bytes_toclient));
	set_ts(fl, "start", &f->start);
	set_ts(fl, "end", &f->last);
	/* Suricata: whole seconds between the first and the last packet */
	json_object_set_new_nocheck(fl, "age",
				    json_integer((json_int_t)(f->last.tv_sec - f->start.tv_sec)));
	/* a flow bypassed by an exception policy ends "bypassed", as in Suricata */
	json_object_set_new_nocheck(fl, "state", json_string_nocheck(
		f->ep_flags & FLOW_EP_BYPASS ? "bypassed" : flow_state_name(f->state)));
	json_object_set_new_nocheck(fl, "reason", json_string_nocheck(flow_end_reason_name(why)));
	json_object_set_new_nocheck(fl, "alerted", json_boolean(f->alerted));
	add_flow_exception_policy(fl, f);
	json_object_set_new_nocheck(rec, "flow", fl);
	if (f->proto == IPPROTO_TCP)
		json_object_set_new_nocheck(rec, "tcp", tcp_object(f));
	add_flow_ether(o, rec, f);
	eve_write(o, rec);
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
