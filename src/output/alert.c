/* Alert outputs: eve "alert" records and fast.log lines, in Suricata 8's
 * shapes (field names, order, and the quirks users' tools depend on).
 *
 * Both writers format outside any lock; the single write of each line takes
 * the file's lock (output_file_write_line). */
#include "output/alert.h"
#include "output/output-private.h"
#include "stream/stream.h"
#include "app-layer/app-layer.h"
#include "app-layer/frames.h"

#include <ctype.h>
#include <netinet/in.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FAST_LINE_MAX 4096

/* Set once at start, read-only while workers run. */
static int ips_mode;

void output_alert_set_ips_mode(int ips)
{
	ips_mode = ips;
}

static int is_drop(uint8_t action)
{
	/* a reject rule drops too, as in Suricata (reject implies drop) */
	return action == ALERT_ACTION_DROP || action == ALERT_ACTION_REJECT;
}

/* Suricata: reject always says "blocked" (the reset goes out in IDS mode as
 * well); drop only blocks in IPS mode. */
static const char *eve_action(uint8_t action)
{
	if (action == ALERT_ACTION_REJECT)
		return "blocked";
	if (action == ALERT_ACTION_DROP && ips_mode)
		return "blocked";
	return "allowed";
}

/* jansson wants UTF-8; a rule msg need not be. Bytes that break it become
 * '?' so that the field is never silently missing. */
static json_t *safe_string(const char *s)
{
	json_t *j;
	char *copy;

	if (!s)
		s = "";
	j = json_string(s);
	if (j)
		return j;
	copy = strdup(s);
	if (!copy)
		return json_string("");
	for (char *c = copy; *c; c++)
		if ((unsigned char)*c >= 0x80)
			*c = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

static void set_str(json_t *o, const char *key, const char *val)
{
	json_object_set_new(o, key, safe_string(val));
}

static void set_int(json_t *o, const char *key, uint64_t v)
{
	json_object_set_new(o, key, json_integer((json_int_t)v));
}

static const char b64_alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Standard base64 with padding; out holds 4 * ((len + 2) / 3) + 1 bytes. */
static size_t base64_encode(const uint8_t *in, size_t len, char *out)
{
	size_t o = 0, i = 0;

	for (; i + 2 < len; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];

		out[o++] = b64_alphabet[v >> 18];
		out[o++] = b64_alphabet[(v >> 12) & 63];
		out[o++] = b64_alphabet[(v >> 6) & 63];
		out[o++] = b64_alphabet[v & 63];
	}
	if (i < len) {
		uint32_t v = (uint32_t)in[i] << 16;

		if (i + 1 < len)
			v |= (uint32_t)in[i + 1] << 8;
		out[o++] = b64_alphabet[v >> 18];
		out[o++] = b64_alphabet[(v >> 12) & 63];
		out[o++] = i + 1 < len ? b64_alphabet[(v >> 6) & 63] : '=';
		out[o++] = '=';
	}
	out[o] = '\0';
	return o;
}

void output_set_base64(json_t *o, const char *key, const uint8_t *data, size_t len)
{
	char *buf = malloc(4 * ((len + 2) / 3) + 1);
	size_t n;

	if (!buf)
		return;
	n = base64_encode(data, len, buf);
	json_object_set_new(o, key, json_stringn(buf, n));
	free(buf);
}

/* Suricata's printable form: printable ASCII, CR and LF as they are, every
 * other byte as '.'. */
void output_set_printable(json_t *o, const char *key, const uint8_t *data, size_t len)
{
	char *buf = malloc(len + 1);

	if (!buf)
		return;
	for (size_t i = 0; i < len; i++) {
		uint8_t c = data[i];

		buf[i] = (c >= 0x20 && c < 0x7f) || c == '\n' || c == '\r' ? (char)c : '.';
	}
	buf[len] = '\0';
	json_object_set_new(o, key, json_stringn(buf, len));
	free(buf);
}

/* Suricata's pkt_src: where a packet came from, the capture or one of the
 * packets the engine makes (reassembled datagrams, flow-end flushes, the inner
 * packets of tunnels). */
const char *output_pkt_src(const Packet *p)
{
	switch (p->pkt_src) {
	case PKT_SRC_DEFRAG:
		return "defrag";
	/* Suricata's flow timeout pseudo packets, also made at the end of a
	 * capture */
	case PKT_SRC_FLOW_TIMEOUT:
		return "stream (flow timeout)";
	case PKT_SRC_IPV4_TUNNEL:
		return "ipv4 tunnel";
	case PKT_SRC_IPV6_TUNNEL:
		return "ipv6 tunnel";
	case PKT_SRC_GRE_TUNNEL:
		return "gre tunnel";
	case PKT_SRC_VXLAN:
		return "vxlan encapsulation";
	case PKT_SRC_GENEVE:
		return "geneve encapsulation";
	case PKT_SRC_TEREDO:
		return "teredo tunnel";
	default:
		return "wire/pcap";
	}
}

/* Suricata's "tunnel" object on an alert for a tunnel's inner packet: the
 * outermost packet's tuple and how deep this one sits. */
static void add_tunnel(json_t *rec, const Packet *p)
{
	const PacketRoot *r = &p->root;
	json_t *t;
	char buf[48];
	const char *proto;

	if (!p->recursion_level || !(t = json_object()))
		return;
	output_format_addr(&r->src, r->ip_version, buf, sizeof(buf));
	set_str(t, "src_ip", buf);
	set_int(t, "src_port", r->sp);
	output_format_addr(&r->dst, r->ip_version, buf, sizeof(buf));
	set_str(t, "dest_ip", buf);
	set_int(t, "dest_port", r->dp);
	proto = output_proto_keyword(r->proto);
	if (proto) {
		set_str(t, "proto", proto);
	} else {
		snprintf(buf, sizeof(buf), "%u", r->proto);
		set_str(t, "proto", buf);
	}
	set_int(t, "depth", p->recursion_level);
	if (r->pcap_cnt)
		set_int(t, "pcap_cnt", r->pcap_cnt);
	set_str(t, "pkt_src", "wire/pcap");
	json_object_set_new(rec, "tunnel", t);
}

/* "key value" strings -> {"key": ["value", ...]}, keys in first-seen order,
 * values in rule order; a repeated key gathers its values. */
static json_t *rule_metadata(const AlertInfo *a)
{
	json_t *md = json_object();
	char key[128];

	if (!md)
		return NULL;
	for (unsigned i = 0; i < a->n_metadata; i++) {
		const char *kv = a->metadata[i], *sp, *val;
		json_t *arr;
		size_t klen;

		if (!kv)
			continue;
		while (*kv == ' ')
			kv++;
		sp = strchr(kv, ' ');
		klen = sp ? (size_t)(sp - kv) : strlen(kv);
		if (!klen || klen >= sizeof(key))
			continue;
		memcpy(key, kv, klen);
		key[klen] = '\0';
		val = sp ? sp + 1 : "";
		while (*val == ' ')
			val++;
		arr = json_object_get(md, key);
		if (!arr) {
			arr = json_array();
			json_object_set_new(md, key, arr);
		}
		json_array_append_new(arr, safe_string(val));
	}
	if (json_object_size(md) == 0) {
		json_decref(md);
		return NULL;
	}
	return md;
}

static json_t *alert_object(const OutputAlertConfig *ac, const AlertInfo *a)
{
	json_t *al = json_object();
	json_t *md;

	if (!al)
		return NULL;
	set_str(al, "action", eve_action(a->action));
	set_int(al, "gid", a->gid);
	set_int(al, "signature_id", a->sid);
	set_int(al, "rev", a->rev);
	set_str(al, "signature", a->msg);
	/* Suricata logs category even without a classtype, as "" */
	set_str(al, "category", a->class_desc);
	set_int(al, "severity", a->priority > 0 ? (uint64_t)a->priority : 3);
	if (ac->rule_metadata && a->n_metadata && (md = rule_metadata(a)))
		json_object_set_new(al, "metadata", md);
	return al;
}

static void add_flow_object(json_t *rec, const Flow *f)
{
	json_t *fl = json_object();
	char buf[48];
	int ports = f->proto == IPPROTO_TCP || f->proto == IPPROTO_UDP || f->proto == 132;

	if (!fl)
		return;
	set_int(fl, "pkts_toserver", f->pkts_toserver);
	set_int(fl, "pkts_toclient", f->pkts_toclient);
	set_int(fl, "bytes_toserver", f->bytes_toserver);
	set_int(fl, "bytes_toclient", f->bytes_toclient);
	eve_format_ts(&f->start, buf, sizeof(buf));
	set_str(fl, "start", buf);
	/* the flow's own direction (client first), whichever way the packet went */
	output_format_addr(&f->src, f->ip_version, buf, sizeof(buf));
	set_str(fl, "src_ip", buf);
	output_format_addr(&f->dst, f->ip_version, buf, sizeof(buf));
	set_str(fl, "dest_ip", buf);
	if (ports) {
		set_int(fl, "src_port", f->sp);
		set_int(fl, "dest_port", f->dp);
	}
	json_object_set_new(rec, "flow", fl);
}

/* Merges the app layer's object ({"http": {...}}) into the record: the
 * flow's protocol's eve logger (tx-log.c) builds it. */
static void add_extra(json_t *rec, const Flow *f, const AlertInfo *a)
{
	json_t *x;

	x = a->has_tx ? output_tx_alert_json(f, a->tx_id) : output_flow_alert_json(f);
	if (!x)
		return;
	if (json_is_object(x))
		json_object_update(rec, x);
	json_decref(x);
}

/* payload, payload_length, payload_printable, stream: as Suricata, "stream"
 * is written whenever a payload option is on, even with no payload. Stream
 * data is cut to payload-buffer-size; a packet's payload is logged whole. */
static void add_payload(json_t *rec, const OutputAlertConfig *ac, const Packet *p,
			const AlertInfo *a)
{
	int stream = p->proto == IPPROTO_TCP && a->from_stream;
	const uint8_t *data = a->payload ? a->payload : p->payload;
	uint32_t len = a->payload ? a->payload_len : p->payload_len;
	uint8_t *log = NULL;

	if (!ac->payload && !ac->payload_printable && !ac->payload_length)
		return;
	if (stream && a->stream_end && p->flow && ac->payload_buffer_size &&
	    (log = malloc(ac->payload_buffer_size)) != NULL) {
		/* Suricata logs the flow's stream data up to what was
		 * inspected, holes marked, not just the chunk that matched */
		uint32_t n = stream_log_data(p->flow, (p->flags & PKT_TOCLIENT) ? 1 : 0,
					     a->stream_end, log, ac->payload_buffer_size);

		if (n) {
			data = log;
			len = n;
		}
	}
	if (stream && len > ac->payload_buffer_size)
		len = ac->payload_buffer_size;
	if (data && len) {
		if (ac->payload)
			output_set_base64(rec, "payload", data, len);
		if (ac->payload_length)
			set_int(rec, "payload_length", len);
		if (ac->payload_printable)
			output_set_printable(rec, "payload_printable", data, len);
	}
	set_int(rec, "stream", (uint64_t)stream);
	free(log);
}

void output_packet_json(json_t *rec, const Packet *p, uint32_t max)
{
	json_t *info;
	const char *dl;

	if (!p->data || !p->caplen)
		return;
	output_set_base64(rec, "packet", p->data, max && max < p->caplen ? max : p->caplen);
	info = json_object();
	if (!info)
		return;
	set_int(info, "linktype", (uint64_t)p->datalink);
	/* libpcap says "IPV4"/"IPV6"; Suricata's own table spells these two so */
	if (p->datalink == DLT_IPV4)
		dl = "IPv4";
	else if (p->datalink == DLT_IPV6)
		dl = "IPv6";
	else
		dl = pcap_datalink_val_to_name(p->datalink);
	set_str(info, "linktype_name", dl ? dl : "n/a");
	json_object_set_new(rec, "packet_info", info);
}

/* The tx_id eve shows: HTTP numbers a CONNECT tunnel's transactions in
 * their own parser (app_layer_tx_log_id), not in detection's order. */
static uint64_t alert_log_tx_id(const Flow *f, const AlertInfo *a)
{
	const void *tx = f ? app_layer_tx_get(f, a->tx_id) : NULL;

	return tx ? app_layer_tx_log_id(f, tx) : a->tx_id;
}

/* Suricata 8's order: header (.. proto, icmp_type/code, pkt_src), tx_id,
 * alert, app-layer objects, app_proto, direction, flow, payload.., packet. */
/* An alert on a frame carries it, payload included (Suricata 8 logs the
 * frame's payload whatever the alert's payload options). */
static void add_frame(json_t *rec, const Packet *p, const Flow *f, const AlertInfo *a)
{
	uint32_t n;
	const AppFrame *v = app_frames_get(f, a->frame_dir, &n);
	json_t *fo;

	for (uint32_t i = 0; i < n; i++)
		if (v[i].id == a->frame_id) {
			if ((fo = output_frame_object(p, f, a->frame_dir, &v[i])))
				json_object_set_new(rec, "frame", fo);
			return;
		}
}

static json_t *eve_alert_record(const OutputAlertConfig *ac, const Packet *p, const Flow *f,
				const AlertInfo *a)
{
	json_t *rec = eve_header(&p->ts, "alert", p, f), *al;
	const char *app;

	if (!rec)
		return NULL;
	set_str(rec, "pkt_src", output_pkt_src(p));
	if (a->has_tx)
		set_int(rec, "tx_id", alert_log_tx_id(f, a));
	al = alert_object(ac, a);
	if (al)
		json_object_set_new(rec, "alert", al);
	add_tunnel(rec, p);
	if (f) {
		if (ac->app_layer)
			add_extra(rec, f, a);
		if ((app = output_app_proto_name(f->app_proto)))
			set_str(rec, "app_proto", app);
		set_str(rec, "direction", (p->flags & PKT_TOCLIENT) ? "to_client" : "to_server");
		if (ac->flow)
			add_flow_object(rec, f);
	}
	add_payload(rec, ac, p, a);
	if (a->frame_id && f)
		add_frame(rec, p, f, a);
	if (ac->packet)
		output_packet_json(rec, p, 0);
	return rec;
}

json_t *output_alert_object(const Outputs *o, const AlertInfo *a)
{
	return o && a ? alert_object(&o->cfg.eve_alert, a) : NULL;
}

/* "11/29/2026-23:10:01.123456", local time, as Suricata's fast.log. */
static void fast_ts(const struct timeval *tv, char *buf, size_t len)
{
	struct tm tm;
	time_t t = tv->tv_sec;

	if (!localtime_r(&t, &tm)) {
		snprintf(buf, len, "01/01/1970-00:00:00.000000");
		return;
	}
	/* Fields are clamped to their widths so the line length is fixed. */
	snprintf(buf, len, "%02u/%02u/%04u-%02u:%02u:%02u.%06u", (unsigned)(tm.tm_mon + 1) % 100u,
		 (unsigned)tm.tm_mday % 100u, (unsigned)(tm.tm_year + 1900) % 10000u,
		 (unsigned)tm.tm_hour % 100u, (unsigned)tm.tm_min % 100u,
		 (unsigned)tm.tm_sec % 100u, (unsigned)tv->tv_usec % 1000000u);
}

/* Suricata: "[Drop] " for a drop/reject rule in IPS mode, "[wDrop] " ("would
 * drop") in IDS mode. */
static const char *fast_action(uint8_t action)
{
	if (!is_drop(action))
		return "";
	return ips_mode ? "[Drop] " : "[wDrop] ";
}

/* Formats one fast.log line (no newline). Suricata prints a missing
 * classification through printf's "%s" of NULL: "(null)". ICMP type and code
 * stand where the ports are; protocols without a keyword print as a number
 * and without ports. */
static int fast_format(char *line, size_t len, const Packet *p, const AlertInfo *a)
{
	char ts[40], src[48], dst[48];
	const char *proto = output_proto_keyword(p->proto);
	unsigned sp = p->sp, dp = p->dp;
	int n;

	fast_ts(&p->ts, ts, sizeof(ts));
	output_format_addr(&p->src, p->ip_version, src, sizeof(src));
	output_format_addr(&p->dst, p->ip_version, dst, sizeof(dst));
	if (p->proto == IPPROTO_ICMP || p->proto == IPPROTO_ICMPV6) {
		sp = p->icmp_type;
		dp = p->icmp_code;
	}
	n = snprintf(line, len, "%s  %s[**] [%u:%u:%u] %s [**] [Classification: %s] [Priority: %d] ",
		     ts, fast_action(a->action), a->gid, a->sid, a->rev, a->msg ? a->msg : "",
		     a->class_desc ? a->class_desc : "(null)", a->priority > 0 ? a->priority : 3);
	if (n < 0 || (size_t)n >= len)
		return n;
	if (proto)
		n += snprintf(line + n, len - n, "{%s} %s:%u -> %s:%u", proto, src, sp, dst, dp);
	else
		n += snprintf(line + n, len - n, "{%u} %s -> %s", p->proto, src, dst);
	return n;
}

void output_alert(Outputs *o, const Packet *p, const Flow *f, const AlertInfo *a)
{
	if (!o || !p || !a || a->action == ALERT_ACTION_PASS)
		return;
	if (outputs_eve_enabled(o, "alert")) {
		json_t *rec = eve_alert_record(&o->cfg.eve_alert, p, f, a);

		if (rec) {
			eve_add_ether(o, rec, p);
			eve_write(o, rec);
		}
	}
	if (outputs_fast_enabled(o)) {
		char line[FAST_LINE_MAX];

		if (fast_format(line, sizeof(line), p, a) > 0)
			fast_write_line(o, line);
	}
}

/* Suricata's alert logger writes tagged packets as "packet" records: the
 * common header, then the frame and its link type. */
void output_tagged_packet(Outputs *o, const Packet *p)
{
	json_t *rec;

	if (!o || !p || !o->cfg.eve_alert.tagged_packets || !outputs_eve_enabled(o, "alert"))
		return;
	rec = eve_header(&p->ts, "packet", p, p->flow);
	if (!rec)
		return;
	set_str(rec, "pkt_src", output_pkt_src(p));
	output_packet_json(rec, p, 0);
	eve_write(o, rec);
}
