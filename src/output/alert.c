/* Alert outputs: eve "alert" records and fast.log lines, in Suricata 8's
 * shapes (field names, order, and the quirks users' tools depend on).
 *
 * Both are formatted straight into a line buffer (the eve record with the
 * JSON writer, json-writer.h), outside any lock; the single write of each
 * line takes the file's lock (output_file_write_line). The parts other
 * records share (the packet, the alert object of the drop records, the
 * printable form of a frame's payload) are writer calls too. */
#include "output/alert.h"
#include "output/output-private.h"
#include "output/json-writer.h"
#include "util/strnum.h"
#include "stream/stream.h"
#include "app-layer/app-layer.h"
#include "app-layer/frames.h"

#include <netinet/in.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FAST_LINE_MAX 4096

static int is_drop(uint8_t action)
{
	/* a reject rule drops too, as in Suricata (reject implies drop) */
	return action == ALERT_ACTION_DROP || action == ALERT_ACTION_REJECT;
}

/* Suricata: reject always says "blocked" (the reset goes out in IDS mode as
 * well); drop only blocks in IPS mode. */
static const char *eve_action(uint8_t action, int ips)
{
	if (action == ALERT_ACTION_REJECT)
		return "blocked";
	if (action == ALERT_ACTION_DROP && ips)
		return "blocked";
	return "allowed";
}

static char printable_byte(uint8_t c)
{
	return (c >= 0x20 && c < 0x7f) || c == '\n' || c == '\r' ? (char)c : '.';
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

/* Suricata's name of a link type: libpcap's, but for the two its own
 * table spells otherwise (libpcap says "IPV4"/"IPV6"). */
static const char *linktype_name(int datalink)
{
	const char *dl;

	if (datalink == DLT_IPV4)
		return "IPv4";
	if (datalink == DLT_IPV6)
		return "IPv6";
	dl = pcap_datalink_val_to_name(datalink);
	return dl ? dl : "n/a";
}


/* ---- eve "alert" records, written with the JSON writer ----
 *
 * An alert record was a jansson tree, serialised and freed: some 50,000
 * instructions an alert, most of them the tree. Written straight into the
 * line, only the members other loggers still give as trees (the app
 * layer's objects, a frame) are built, and dumped into it. */

/* Text from a rule or a table (msg, classification, metadata values):
 * jansson wants UTF-8, so bytes that break it become '?', so that the
 * field is never silently missing. */
static void write_text(JsonWriter *w, const char *key, const char *s)
{
	char stack[256], *copy;
	size_t n;

	if (!s)
		s = "";
	n = strlen(s);
	if (jw_strn_try(w, key, s, n) == 0)
		return;
	copy = n < sizeof(stack) ? stack : malloc(n);
	if (!copy) {
		jw_ascii(w, key, "", 0);
		return;
	}
	for (size_t i = 0; i < n; i++)
		copy[i] = (unsigned char)s[i] >= 0x80 ? '?' : s[i];
	jw_strn(w, key, copy, n);
	if (copy != stack)
		free(copy);
}

static void write_addr(JsonWriter *w, const char *key, const Address *a, uint8_t ip_version)
{
	char buf[48];

	output_format_addr(a, ip_version, buf, sizeof(buf));
	jw_ascii(w, key, buf, strlen(buf));
}

/* {"ip": ..., "port": ...} of the packet's source (dst 0) or destination,
 * for the target keyword's "source" and "target" (ports: TCP, UDP, SCTP). */
static void write_endpoint(JsonWriter *w, const char *key, const Packet *p, int dst)
{
	jw_object(w, key);
	write_addr(w, "ip", dst ? &p->dst : &p->src, p->ip_version);
	if (p->proto == IPPROTO_TCP || p->proto == IPPROTO_UDP || p->proto == 132)
		jw_int(w, "port", dst ? p->dp : p->sp);
	jw_close(w);
}

/* Suricata's "tunnel" object on an alert for a tunnel's inner packet: the
 * outermost packet's tuple and how deep this one sits. */
static void write_tunnel(JsonWriter *w, const Packet *p)
{
	const PacketRoot *r = &p->root;
	const char *proto;
	char num[10];

	if (!p->recursion_level)
		return;
	proto = output_proto_keyword(r->proto);
	jw_object(w, "tunnel");
	write_addr(w, "src_ip", &r->src, r->ip_version);
	jw_int(w, "src_port", r->sp);
	write_addr(w, "dest_ip", &r->dst, r->ip_version);
	jw_int(w, "dest_port", r->dp);
	if (proto)
		jw_ascii(w, "proto", proto, strlen(proto));
	else
		jw_ascii(w, "proto", num, u32_digits(r->proto, num));
	jw_int(w, "depth", p->recursion_level);
	if (r->pcap_cnt)
		jw_int(w, "pcap_cnt", (int64_t)r->pcap_cnt);
	jw_ascii(w, "pkt_src", "wire/pcap", 9);
	jw_close(w);
}

/* ---- the rule's metadata: "key value" strings -> {"key": ["value", ...]},
 * keys in first-seen order, values in rule order; a repeated key gathers
 * its values. ---- */

#define META_KEY_MAX 128     /* longer keys are not logged */
#define META_STACK 64        /* entries parsed on the stack; more take the heap */

typedef struct MetaEntry {
	const char *key;     /* klen bytes, not terminated */
	const char *val;
	size_t klen;
} MetaEntry;

/* jansson refuses a key that is not UTF-8 (ASCII is, and almost every key
 * is ASCII: only the others ask jansson). */
static int key_is_utf8(const char *k, size_t n)
{
	json_t *t;

	for (size_t i = 0; i < n; i++)
		if ((unsigned char)k[i] >= 0x80) {
			t = json_stringn(k, n);
			json_decref(t);
			return t != NULL;
		}
	return 1;
}

/* The writer writes our keys as they are: right for a key of printable
 * ASCII without '"' and '\\'; the others are escaped (jw_array_esc). */
static int key_is_plain(const char *k, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)k[i];

		if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
			return 0;
	}
	return 1;
}

/* Splits one entry; -1 when it has no key that is logged. */
static int meta_entry(const char *kv, MetaEntry *e)
{
	const char *sp;

	if (!kv)
		return -1;
	while (*kv == ' ')
		kv++;
	sp = strchr(kv, ' ');
	e->key = kv;
	e->klen = sp ? (size_t)(sp - kv) : strlen(kv);
	if (!e->klen || e->klen >= META_KEY_MAX || !key_is_utf8(kv, e->klen))
		return -1;
	e->val = sp ? sp + 1 : "";
	while (*e->val == ' ')
		e->val++;
	return 0;
}

static int same_key(const MetaEntry *a, const MetaEntry *b)
{
	return a->klen == b->klen && memcmp(a->key, b->key, a->klen) == 0;
}

/* The members of the metadata object, from the n entries meta_entry()
 * kept; plain: no key needs escaping (nearly every rule). */
static void write_meta_members(JsonWriter *w, const MetaEntry *e, unsigned n, int plain)
{
	char key[META_KEY_MAX];

	for (unsigned i = 0; i < n; i++) {
		unsigned j;

		for (j = 0; j < i && !same_key(&e[j], &e[i]); j++)
			;
		if (j < i)
			continue;     /* written with the first of its key */
		if (plain) {
			memcpy(key, e[i].key, e[i].klen);
			key[e[i].klen] = '\0';
			jw_array(w, key);
		} else {
			jw_array_esc(w, e[i].key, e[i].klen);
		}
		for (j = i; j < n; j++)
			if (same_key(&e[j], &e[i]))
				write_text(w, NULL, e[j].val);
		jw_close(w);
	}
}

static void write_rule_metadata(JsonWriter *w, const AlertInfo *a)
{
	MetaEntry stack[META_STACK], *e = stack;
	unsigned n = 0;
	int plain = 1;

	if (a->n_metadata > META_STACK && !(e = malloc(a->n_metadata * sizeof(*e))))
		return;
	for (unsigned i = 0; i < a->n_metadata; i++)
		if (meta_entry(a->metadata[i], &e[n]) == 0) {
			plain &= key_is_plain(e[n].key, e[n].klen);
			n++;
		}
	/* Suricata writes no empty metadata object */
	if (n) {
		jw_object(w, "metadata");
		write_meta_members(w, e, n, plain);
		jw_close(w);
	}
	if (e != stack)
		free(e);
}

/* The "alert" object's members, as alert records and the drop records
 * (output_alert_write) carry them. */
static void write_alert_members(JsonWriter *w, const OutputAlertConfig *ac, const AlertInfo *a,
				const Packet *p)
{
	const char *action = eve_action(a->action, ac->ips);

	jw_ascii(w, "action", action, strlen(action));
	jw_int(w, "gid", a->gid);
	jw_int(w, "signature_id", a->sid);
	jw_int(w, "rev", a->rev);
	write_text(w, "signature", a->msg);
	/* Suricata logs category even without a classtype, as "" */
	write_text(w, "category", a->class_desc);
	jw_int(w, "severity", a->priority > 0 ? a->priority : 3);
	/* target:src_ip|dest_ip (Suricata's "target" keyword): which end of
	 * the packet the rule calls the target, the other is the source */
	if (a->target && p) {
		int target_is_dst = a->target == ALERT_TARGET_DST;

		write_endpoint(w, "source", p, !target_is_dst);
		write_endpoint(w, "target", p, target_is_dst);
	}
	if (ac->rule_reference && a->n_references) {
		jw_array(w, "references");
		for (unsigned i = 0; i < a->n_references; i++)
			write_text(w, NULL, a->references[i]);
		jw_close(w);
	}
	if (ac->rule_metadata && a->n_metadata)
		write_rule_metadata(w, a);
	if (ac->rule_raw && a->rule_text)
		write_text(w, "rule", a->rule_text);
}

void output_alert_write(JsonWriter *w, const Outputs *o, const AlertInfo *a)
{
	jw_object(w, "alert");
	write_alert_members(w, &o->cfg.eve_alert, a, NULL);
	jw_close(w);
}

void output_verdict_write(JsonWriter *w, const Packet *p, const AlertVerdict *v, int ips)
{
	static const char *const actions[] = { "alert", "alert", "pass", "drop" };
	static const char *const targets[] = { NULL, "to_client", "to_server", "both" };
	uint8_t action = v ? v->action : ALERT_VERDICT_UNSET;
	uint8_t reject = v ? v->reject : ALERT_REJECT_NONE;

	if (action == ALERT_VERDICT_UNSET)
		action = ips && p->drop_reason ? ALERT_VERDICT_DROP : ALERT_VERDICT_ALERT;
	/* a reject drops in IPS mode; in IDS mode the packet still goes */
	if (reject && action != ALERT_VERDICT_DROP)
		action = ips ? ALERT_VERDICT_DROP : ALERT_VERDICT_ALERT;
	jw_object(w, "verdict");
	jw_str(w, "action", actions[action < 4 ? action : 1]);
	if (reject && reject < 4) {
		jw_str(w, "reject-target", targets[reject]);
		jw_array(w, "reject");
		jw_str(w, NULL, p->proto == IPPROTO_TCP ? "tcp-reset" : "icmp-prohib");
		jw_close(w);
	}
	jw_close(w);
}

struct alert_obj {
	const Outputs *o;
	const AlertInfo *a;
};

static void build_alert_obj(JsonWriter *w, void *ctx)
{
	const struct alert_obj *c = ctx;

	write_alert_members(w, &c->o->cfg.eve_alert, c->a, NULL);
}

json_t *output_alert_object(const Outputs *o, const AlertInfo *a)
{
	struct alert_obj c = { o, a };

	return o && a ? jw_build_tree(build_alert_obj, &c) : NULL;
}

static void write_flow_object(JsonWriter *w, const Flow *f)
{
	char buf[48];

	jw_object(w, "flow");
	jw_int(w, "pkts_toserver", (int64_t)f->pkts_toserver);
	jw_int(w, "pkts_toclient", (int64_t)f->pkts_toclient);
	jw_int(w, "bytes_toserver", (int64_t)f->bytes_toserver);
	jw_int(w, "bytes_toclient", (int64_t)f->bytes_toclient);
	eve_format_ts(&f->start, buf, sizeof(buf));
	jw_ascii(w, "start", buf, strlen(buf));
	/* the flow's own direction (client first), whichever way the packet went */
	write_addr(w, "src_ip", &f->src, f->ip_version);
	write_addr(w, "dest_ip", &f->dst, f->ip_version);
	if (f->proto == IPPROTO_TCP || f->proto == IPPROTO_UDP || f->proto == 132) {
		jw_int(w, "src_port", f->sp);
		jw_int(w, "dest_port", f->dp);
	}
	jw_close(w);
}

/* Suricata's printable form (printable ASCII, CR and LF as they are, every
 * other byte as '.'), escaped for JSON and written in place: CR, LF, '"'
 * and '\\' are the bytes it keeps that JSON escapes, with two bytes each. */
void output_write_printable(JsonWriter *w, const char *key, const uint8_t *data, size_t len)
{
	size_t n = len;
	char *s;

	for (size_t i = 0; i < len; i++)
		n += data[i] == '\n' || data[i] == '\r' || data[i] == '"' || data[i] == '\\';
	if (!(s = jw_ascii_room(w, key, n)))
		return;
	for (size_t i = 0; i < len; i++) {
		char c = printable_byte(data[i]);

		if (c == '\n' || c == '\r' || c == '"' || c == '\\') {
			*s++ = '\\';
			c = c == '\n' ? 'n' : c == '\r' ? 'r' : c;
		}
		*s++ = c;
	}
}

void output_packet_write(JsonWriter *w, const Packet *p, uint32_t max)
{
	if (!p->data || !p->caplen)
		return;
	jw_base64(w, "packet", p->data, max && max < p->caplen ? max : p->caplen);
	jw_object(w, "packet_info");
	jw_int(w, "linktype", (int64_t)(uint64_t)p->datalink);
	write_text(w, "linktype_name", linktype_name(p->datalink));
	jw_close(w);
}

/* The tx_id eve shows: HTTP numbers a CONNECT tunnel's transactions in
 * their own parser (app_layer_tx_log_id), not in detection's order. */
static uint64_t alert_log_tx_id(const Flow *f, const AlertInfo *a)
{
	const void *tx = f ? app_layer_tx_get(f, a->tx_id) : NULL;

	return tx ? app_layer_tx_log_id(f, tx) : a->tx_id;
}

/* An alert on a frame carries it, payload included (Suricata 8 logs the
 * frame's payload whatever the alert's payload options). */
static void write_frame(JsonWriter *w, const Packet *p, const Flow *f, const AlertInfo *a)
{
	uint32_t n;
	const AppFrame *v = app_frames_get(f, a->frame_dir, &n);

	for (uint32_t i = 0; i < n; i++)
		if (v[i].id == a->frame_id) {
			jw_object(w, "frame");
			output_frame_write(w, p, f, a->frame_dir, &v[i]);
			jw_close(w);
			return;
		}
}

/* One record's parts that are not written from the packet as it is: found
 * or built once, before the record is written (a retry into a larger
 * buffer writes it again). Owns what it points to that was allocated. */
typedef struct AlertLine {
	const Outputs *o;
	const OutputAlertConfig *ac;
	const Packet *p;
	const Flow *f;
	const AlertInfo *a;
	/* payload options: what to log, and whether it is stream data */
	const uint8_t *data;
	uint32_t len;
	int stream;
	uint8_t *stream_buf;    /* the flow's stream data, when that is logged */
} AlertLine;

/* payload, payload_length, payload_printable, stream: as Suricata, "stream"
 * is written whenever a payload option is on, even with no payload. Stream
 * data is cut to payload-buffer-size; a packet's payload is logged whole. */
static void prepare_payload(AlertLine *l)
{
	const OutputAlertConfig *ac = l->ac;
	const Packet *p = l->p;
	const AlertInfo *a = l->a;

	int tx = a->tx_stream && p->flow;

	/* Suricata's "stream" is a stream or a transaction match on TCP */
	l->stream = p->proto == IPPROTO_TCP && (a->from_stream || tx);
	l->data = a->payload ? a->payload : p->payload;
	l->len = a->payload ? a->payload_len : p->payload_len;
	if (l->stream && (a->stream_end || tx) && p->flow && ac->payload_buffer_size &&
	    (l->stream_buf = malloc(ac->payload_buffer_size)) != NULL) {
		/* Suricata logs the flow's stream data up to what was
		 * inspected, holes marked, not just the chunk that matched;
		 * for a transaction, all that is kept of its side */
		int d = tx && !a->from_stream ? a->tx_stream - 1 : (p->flags & PKT_TOCLIENT) ? 1 : 0;
		/* past a gap Suricata logs every segment it holds, ACKed
		 * or not (suricata-verify eve-payload-07-http-gap) */
		uint64_t upto = !a->from_stream || (stream_dir_flags(p->flow, d) & STREAM_DIR_GAP) ?
					UINT64_MAX : a->stream_end;
		uint32_t n = stream_log_data(p->flow, d, upto, l->stream_buf,
					     ac->payload_buffer_size);

		if (n) {
			l->data = l->stream_buf;
			l->len = n;
		}
	}
	if (l->stream && l->len > ac->payload_buffer_size)
		l->len = ac->payload_buffer_size;
}

static int payload_on(const OutputAlertConfig *ac)
{
	return ac->payload || ac->payload_printable || ac->payload_length;
}

static void write_payload(JsonWriter *w, const AlertLine *l)
{
	if (l->data && l->len) {
		if (l->ac->payload)
			jw_base64(w, "payload", l->data, l->len);
		if (l->ac->payload_length)
			jw_int(w, "payload_length", l->len);
		if (l->ac->payload_printable)
			output_write_printable(w, "payload_printable", l->data, l->len);
	}
	jw_int(w, "stream", l->stream);
}

static void alert_line_prepare(AlertLine *l)
{
	if (payload_on(l->ac))
		prepare_payload(l);
}

static void alert_line_free(AlertLine *l)
{
	free(l->stream_buf);
}

/* The app layer's members, written by the protocol's logger. They ("http",
 * "files", "tls", "dns", "smtp", "email" ...) never share a name with the
 * record's own, so that they are appended here. */
static void write_app_members(JsonWriter *w, const AlertLine *l)
{
	if (!l->ac->app_layer)
		return;
	if (l->a->has_tx)
		output_tx_alert_write(w, l->f, l->a->tx_id, l->ac);
}

/* Suricata 8's order: header (.. proto, icmp_type/code), pkt_src, tx_id,
 * alert, tunnel, app-layer objects, app_proto, direction, flow, payload..,
 * frame, packet, ether. */
static void build_alert(JsonWriter *w, AlertLine *l)
{
	const Packet *p = l->p;
	const Flow *f = l->f;
	const char *src = output_pkt_src(p), *app;
	char xff[XFF_ADDR_MAX];
	int has_xff = l->ac->xff.enabled &&
		      xff_lookup(&l->ac->xff, f, l->a->has_tx, l->a->tx_id, xff, sizeof(xff));
	EveAddrOverride ov = { NULL, NULL };

	/* overwrite: the client's address is the one the header names (on a
	 * response the client is the destination) */
	if (has_xff && l->ac->xff.overwrite) {
		if (p->flags & PKT_TOCLIENT)
			ov.dst = xff;
		else
			ov.src = xff;
	}
	eve_header_write_ov(w, &p->ts, "alert", p, f, &ov);
	jw_ascii(w, "pkt_src", src, strlen(src));
	/* eve-log metadata (yes): the flow's flowbits, as Suricata 8's header
	 * adds them (eve-json-format: "metadata": {"flowbits": [...]}) */
	if (l->o->cfg.eve_metadata &&
	    (l->a->n_flowbits || l->a->n_flowvars || l->a->n_pktvars)) {
		jw_object(w, "metadata");
		if (l->a->n_flowbits) {
			jw_array(w, "flowbits");
			for (unsigned i = 0; i < l->a->n_flowbits; i++)
				write_text(w, NULL, l->a->flowbits[i]);
			jw_close(w);
		}
		/* pcre captures, as Suricata logs them: [{"name": "value"}, ...] */
		output_vars_write(w, "flowvars", l->a->flowvars, l->a->n_flowvars);
		output_vars_write(w, "pktvars", l->a->pktvars, l->a->n_pktvars);
		jw_close(w);
	}
	if (l->a->has_tx)
		jw_int(w, "tx_id", (int64_t)alert_log_tx_id(f, l->a));
	if (l->a->tx_guessed)
		jw_bool(w, "tx_guessed", 1);
	jw_object(w, "alert");
	write_alert_members(w, l->ac, l->a, l->p);
	if (has_xff && !l->ac->xff.overwrite)
		jw_ascii(w, "xff", xff, strlen(xff));
	jw_close(w);
	write_tunnel(w, p);
	if (f) {
		write_app_members(w, l);
		if ((app = output_app_proto_name(flow_app_proto_shown(f))))
			write_text(w, "app_proto", app);
		if (p->flags & PKT_TOCLIENT)
			jw_ascii(w, "direction", "to_client", 9);
		else
			jw_ascii(w, "direction", "to_server", 9);
		if (l->ac->flow)
			write_flow_object(w, f);
	}
	if (payload_on(l->ac))
		write_payload(w, l);
	if (l->a->frame_id && f)
		write_frame(w, p, f, l->a);
	if (l->ac->packet)
		output_packet_write(w, p, 0);
	if (l->ac->verdict)
		output_verdict_write(w, p, &l->a->verdict, l->ac->ips);
}

/* Suricata's logger for tagged packets: the common header, then the frame
 * and its link type. */
static void build_tagged_packet(JsonWriter *w, AlertLine *l)
{
	const char *src = output_pkt_src(l->p);

	eve_header_write(w, &l->p->ts, "packet", l->p, l->p->flow);
	jw_ascii(w, "pkt_src", src, strlen(src));
	output_packet_write(w, l->p, 0);
}

/* The largest record tried: stream payloads of a large payload-buffer-size
 * are the largest, base64 and printable both. */
#define ALERT_LINE_MAX ((size_t)1 << 30)

struct alert_build {
	void (*build)(JsonWriter *w, AlertLine *l);
	AlertLine *l;
};

static void build_line(JsonWriter *w, void *ctx)
{
	const struct alert_build *b = ctx;

	b->build(w, b->l);
}

/* Writes the record build() makes: on the stack when it fits (nearly every
 * alert), else on the heap, as every record (eve_build), up to
 * ALERT_LINE_MAX. */
static void alert_line_write(Outputs *o, const char *event_type,
			     void (*build)(JsonWriter *w, AlertLine *l), AlertLine *l)
{
	struct alert_build b = { build, l };
	char stack[16384], *line;
	size_t n = eve_build(stack, sizeof(stack), ALERT_LINE_MAX, &line, build_line, &b);

	eve_write_line(o, event_type, line, n);
	if (line != stack)
		free(line);
}

/* ---- fast.log ---- */

/* A fast.log line being formatted: cut at its end as snprintf cuts it. */
typedef struct FastLine {
	char *p, *end;     /* end: the last byte, kept for the terminator */
} FastLine;

static void fl_put(FastLine *l, const char *s, size_t n)
{
	size_t room = (size_t)(l->end - l->p);

	if (n > room)
		n = room;
	memcpy(l->p, s, n);
	l->p += n;
}

#define FL_LIT(l, s) fl_put((l), (s), sizeof(s) - 1)

static void fl_str(FastLine *l, const char *s)
{
	fl_put(l, s, strlen(s));
}

static void fl_uint(FastLine *l, uint32_t v)
{
	char buf[10];

	fl_put(l, buf, u32_digits(v, buf));
}

/* "11/29/2026-23:10:01.123456", local time, as Suricata's fast.log. */
static void fast_ts_slow(const struct timeval *tv, char *buf, size_t len)
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

/* The same fields as eve's timestamp, in another order: rearranged from
 * eve_format_ts(), whose thread keeps the second's date formatted, rather
 * than a localtime_r() and a format a line. Anything not in its usual
 * shape (a year of other than four digits, a usec out of range) is
 * formatted by fast_ts_slow(). Returns the length (26). */
static size_t fast_ts(const struct timeval *tv, char *buf, size_t len)
{
	/* "2026-11-29T23:10:01.123456+0100": separators at these offsets */
	static const char shape[] = "dddd-dd-ddTdd:dd:dd.dddddd";
	char eve[48];

	/* eve prints a usec out of range whole, fast.log its last six digits */
	if (tv->tv_usec < 0 || tv->tv_usec > 999999)
		goto slow;
	eve_format_ts(tv, eve, sizeof(eve));
	for (size_t i = 0; i < sizeof(shape) - 1; i++)
		if (shape[i] == 'd' ? eve[i] < '0' || eve[i] > '9' : eve[i] != shape[i])
			goto slow;
	memcpy(buf, eve + 5, 2);           /* month */
	buf[2] = '/';
	memcpy(buf + 3, eve + 8, 2);       /* day */
	buf[5] = '/';
	memcpy(buf + 6, eve, 4);           /* year */
	buf[10] = '-';
	memcpy(buf + 11, eve + 11, 15);    /* hh:mm:ss.uuuuuu */
	buf[26] = '\0';
	return 26;
slow:
	fast_ts_slow(tv, buf, len);
	return strlen(buf);
}

/* Suricata: "[Drop] " for a drop/reject rule in IPS mode, "[wDrop] " ("would
 * drop") in IDS mode. */
static const char *fast_action(uint8_t action, int ips)
{
	if (!is_drop(action))
		return "";
	return ips ? "[Drop] " : "[wDrop] ";
}

/* Formats one fast.log line (no newline), cut to len - 1 bytes as
 * snprintf would: "TS  [**] [gid:sid:rev] msg [**] [Classification: c]
 * [Priority: n] {PROTO} src:sp -> dst:dp". Suricata prints a missing
 * classification through printf's "%s" of NULL: "(null)". ICMP type and
 * code stand where the ports are; protocols without a keyword print as a
 * number and without ports. */
static void fast_format(char *line, size_t len, const Packet *p, const AlertInfo *a, int ips)
{
	FastLine l = { line, line + len - 1 };
	char ts[40], src[48], dst[48];
	const char *proto = output_proto_keyword(p->proto);
	unsigned sp = p->sp, dp = p->dp;

	if (p->proto == IPPROTO_ICMP || p->proto == IPPROTO_ICMPV6) {
		sp = p->icmp_type;
		dp = p->icmp_code;
	}
	fl_put(&l, ts, fast_ts(&p->ts, ts, sizeof(ts)));
	FL_LIT(&l, "  ");
	fl_str(&l, fast_action(a->action, ips));
	FL_LIT(&l, "[**] [");
	fl_uint(&l, a->gid);
	FL_LIT(&l, ":");
	fl_uint(&l, a->sid);
	FL_LIT(&l, ":");
	fl_uint(&l, a->rev);
	FL_LIT(&l, "] ");
	fl_str(&l, a->msg ? a->msg : "");
	FL_LIT(&l, " [**] [Classification: ");
	fl_str(&l, a->class_desc ? a->class_desc : "(null)");
	FL_LIT(&l, "] [Priority: ");
	fl_uint(&l, (uint32_t)(a->priority > 0 ? a->priority : 3));
	FL_LIT(&l, "] {");
	output_format_addr(&p->src, p->ip_version, src, sizeof(src));
	output_format_addr(&p->dst, p->ip_version, dst, sizeof(dst));
	if (proto) {
		fl_str(&l, proto);
		FL_LIT(&l, "} ");
		fl_str(&l, src);
		FL_LIT(&l, ":");
		fl_uint(&l, sp);
		FL_LIT(&l, " -> ");
		fl_str(&l, dst);
		FL_LIT(&l, ":");
		fl_uint(&l, dp);
	} else {
		fl_uint(&l, p->proto);
		FL_LIT(&l, "} ");
		fl_str(&l, src);
		FL_LIT(&l, " -> ");
		fl_str(&l, dst);
	}
	*l.p = '\0';
}

void output_alert(Outputs *o, const Packet *p, const Flow *f, const AlertInfo *a)
{
	if (!o || !p || !a || a->action == ALERT_ACTION_PASS)
		return;
	if (outputs_eve_enabled(o, "alert")) {
		AlertLine l = { .o = o, .ac = &o->cfg.eve_alert, .p = p, .f = f, .a = a };

		alert_line_prepare(&l);
		alert_line_write(o, "alert", build_alert, &l);
		alert_line_free(&l);
	}
	if (outputs_fast_enabled(o)) {
		char line[FAST_LINE_MAX];

		fast_format(line, sizeof(line), p, a, o->cfg.eve_alert.ips);
		fast_write_line(o, line);
	}
}

/* Suricata's alert logger writes tagged packets as "packet" records. */
void output_tagged_packet(Outputs *o, const Packet *p)
{
	AlertLine l = { .o = o, .p = p };

	if (!o || !p || !o->cfg.eve_alert.tagged_packets || !outputs_eve_enabled(o, "alert"))
		return;
	l.ac = &o->cfg.eve_alert;
	alert_line_write(o, "packet", build_tagged_packet, &l);
}
