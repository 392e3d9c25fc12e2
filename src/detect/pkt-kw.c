/* Packet and flow property keywords: vlan.id, vlan.layers, tcp.mss,
 * flow.pkts / flow.bytes (and the *_toserver / *_toclient forms), the
 * checksum keywords (ipv4-csum, tcpv4-csum, ...) and rpc. The engine matches them in
 * detect/inspect.c. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

/* vlan.id:<uint>[,layer] -- layer: N (0 outermost), -N from the innermost,
 * "all", or "any" (Suricata 8's multi-integer index; no layer is "any"). */
static int kw_vlan_id(SigParseState *st, const char *arg, const Keyword *kw)
{
	char buf[128], *parts[3];
	DetectVlanId *v;
	int64_t layer;
	int n;

	n = sig_split_arg(st, "vlan.id", arg, buf, sizeof(buf), parts, 3);
	if (n < 0)
		return -1;
	if (n < 1 || n > 2)
		return sig_error(st, "invalid vlan.id \"%s\"", arg);
	v = calloc(1, sizeof(*v));
	if (!v)
		return sig_error(st, "out of memory");
	v->layer = VLAN_LAYER_ANY;
	if (parse_uint_cmp(parts[0], 4095, &v->u))
		goto bad;
	if (n == 2) {
		char *l = str_trim(parts[1]);

		if (!strcmp(l, "all"))
			v->layer = VLAN_LAYER_ALL;
		else if (!strcmp(l, "any"))
			v->layer = VLAN_LAYER_ANY;
		else if (parse_i64(l, &layer) == 0 && layer >= -3 && layer <= 2)
			v->layer = (int)layer;
		else
			goto bad;
	}
	return sm_append(st, SM_LIST_MATCH, KW_VLAN_ID, v) < 0 ? -1 : 0;
bad:
	free(v);
	return sig_error(st, "invalid vlan.id \"%s\"", arg);
}

static int kw_vlan_layers(SigParseState *st, const char *arg, const Keyword *kw)
{
	return sm_append_uint(st, SM_LIST_MATCH, KW_VLAN_LAYERS, "vlan.layers", arg, 3);
}

static int kw_tcp_mss(SigParseState *st, const char *arg, const Keyword *kw)
{
	return sm_append_uint(st, SM_LIST_MATCH, KW_TCP_MSS, "tcp.mss", arg, 65535);
}

/* flow.pkts:<toserver|toclient|either>,<uint>; flow.pkts_toserver:<uint>, ...
 * kw->buf selects the form (keywords.c). A leading '=' is accepted. */
static int kw_flow_count(SigParseState *st, const char *arg, const Keyword *kw)
{
	static const struct { int bytes, dir; } forms[] = {
		{ 0, 0 }, { 1, 0 }, { 0, 1 }, { 0, 2 }, { 1, 1 }, { 1, 2 },
	};
	char buf[128], *parts[3], *val;
	DetectFlowCount *fc;
	int dir, n;

	if (kw->buf < 0 || kw->buf > 5 || strlen(arg) >= sizeof(buf))
		return sig_error(st, "invalid %s \"%s\"", kw->name, arg);
	strcpy(buf, arg);
	dir = forms[kw->buf].dir;
	if (dir == 0) {
		n = split_commas(buf, parts, 3);
		if (n != 2)
			return sig_error(st, "invalid %s \"%s\": expected direction,value", kw->name, arg);
		if (!strcmp(parts[0], "toserver"))
			dir = 1;
		else if (!strcmp(parts[0], "toclient"))
			dir = 2;
		else if (!strcmp(parts[0], "either"))
			dir = 3;
		else
			return sig_error(st, "invalid %s direction \"%s\"", kw->name, parts[0]);
		val = parts[1];
	} else {
		val = buf;
	}
	val = str_trim(val);
	if (*val == '=')
		val++;
	fc = calloc(1, sizeof(*fc));
	if (!fc)
		return sig_error(st, "out of memory");
	fc->dir = dir;
	fc->bytes = forms[kw->buf].bytes;
	if (parse_uint_cmp(val, UINT64_MAX - 1, &fc->u)) {
		free(fc);
		return sig_error(st, "invalid %s \"%s\"", kw->name, arg);
	}
	return sm_append(st, SM_LIST_MATCH, KW_FLOW_COUNT, fc) < 0 ? -1 : 0;
}

/* <proto>-csum:valid|invalid; kw->buf selects the protocol (keywords.c). */
static int kw_csum(SigParseState *st, const char *arg, const Keyword *kw)
{
	static const struct { int proto, ipv; } forms[] = {
		{ 0, 4 }, { IPPROTO_TCP, 4 }, { IPPROTO_TCP, 6 }, { IPPROTO_UDP, 4 },
		{ IPPROTO_UDP, 6 }, { IPPROTO_ICMP, 4 }, { IPPROTO_ICMPV6, 6 },
	};
	DetectCsum *c;
	int invalid;

	if (!strcmp(arg, "invalid"))
		invalid = 1;
	else if (!strcmp(arg, "valid"))
		invalid = 0;
	else
		return sig_error(st, "%s: expected valid or invalid, got \"%s\"", kw->name, arg);
	if (kw->buf < 0 || kw->buf > 6)
		return sig_error(st, "invalid %s", kw->name);
	c = calloc(1, sizeof(*c));
	if (!c)
		return sig_error(st, "out of memory");
	c->proto = forms[kw->buf].proto;
	c->ip_version = forms[kw->buf].ipv;
	c->invalid = invalid;
	return sm_append(st, SM_LIST_MATCH, KW_CSUM, c) < 0 ? -1 : 0;
}

static int match_vlan_id(DetectThread *dt, const SigMatch *m, Packet *p)
{
	const DetectVlanId *v = m->ctx;
	int n = p->vlan_count, idx;

	(void)dt;
	if (!n)
		return 0;
	if (v->layer == VLAN_LAYER_ANY || v->layer == VLAN_LAYER_ALL) {
		for (int i = 0; i < n; i++) {
			int ok = detect_uint_match(&v->u, p->vlan_id[i]);

			if (ok && v->layer == VLAN_LAYER_ANY)
				return 1;
			if (!ok && v->layer == VLAN_LAYER_ALL)
				return 0;
		}
		return v->layer == VLAN_LAYER_ALL;
	}
	idx = v->layer >= 0 ? v->layer : n + v->layer;
	if (idx < 0 || idx >= n)
		return 0;
	return detect_uint_match(&v->u, p->vlan_id[idx]);
}

static int match_vlan_layers(DetectThread *dt, const SigMatch *m, Packet *p)
{
	(void)dt;
	return detect_uint_match(m->ctx, p->vlan_count);
}

/* tcp.wscale (Suricata 8): the window scale option's shift count, on a
 * packet that carries the option (a SYN or SYN/ACK) */
static int kw_tcp_wscale(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)kw;
	return sm_append_uint(st, SM_LIST_MATCH, KW_TCP_WSCALE, "tcp.wscale", arg, 255);
}

static int match_tcp_wscale(DetectThread *dt, const SigMatch *m, Packet *p)
{
	(void)dt;
	return PKT_IS_TCP(p) && p->tcp_wscale != 0xff && detect_uint_match(m->ctx, p->tcp_wscale);
}

static int match_tcp_mss(DetectThread *dt, const SigMatch *m, Packet *p)
{
	(void)dt;
	return PKT_IS_TCP(p) && p->tcp_mss && detect_uint_match(m->ctx, p->tcp_mss);
}

static int match_flow_count(DetectThread *dt, const SigMatch *m, Packet *p)
{
	const DetectFlowCount *fc = m->ctx;
	const Flow *f = p->flow;
	uint64_t ts, tc;

	(void)dt;
	if (!f)
		return 0;
	ts = fc->bytes ? f->bytes_toserver : f->pkts_toserver;
	tc = fc->bytes ? f->bytes_toclient : f->pkts_toclient;
	if (fc->dir == 1)
		return detect_uint_match(&fc->u, ts);
	if (fc->dir == 2)
		return detect_uint_match(&fc->u, tc);
	return detect_uint_match(&fc->u, ts) || detect_uint_match(&fc->u, tc);
}

/* The decoder flags bad checksums only when it validates them (-k / auto). */
static int match_csum(DetectThread *dt, const SigMatch *m, Packet *p)
{
	const DetectCsum *c = m->ctx;
	int bad;

	(void)dt;
	if (c->ip_version && p->ip_version != c->ip_version)
		return 0;
	if (c->proto == 0) {
		bad = !!(p->flags & PKT_IPV4_CSUM_BAD);
	} else {
		if (p->proto != c->proto || !p->l4)
			return 0;
		bad = !!(p->flags & PKT_L4_CSUM_BAD);
	}
	return bad == c->invalid;
}

/* rpc:<program>[, <version>|*[, <procedure>|*]] (Suricata's payload
 * keyword): the packet's payload is an ONC/Sun RPC call (RFC 5531) of
 * that program, and of that version and procedure unless '*' or left
 * out. The call is read where the payload starts, after TCP's 4-byte
 * record mark: xid, message type (0, a call), RPC version, program,
 * version, procedure, each 32 bits big-endian. */
typedef struct DetectRpc {
	uint32_t prog, vers, proc;
	uint8_t check_vers, check_proc;
} DetectRpc;

static int rpc_field(const char *s, uint32_t *v, uint8_t *check)
{
	char *end;
	unsigned long long n;

	while (*s == ' ')
		s++;
	if (strcmp(s, "*") == 0) {
		*check = 0;
		return 0;
	}
	if (*s < '0' || *s > '9')
		return -1;
	n = strtoull(s, &end, 10);
	while (*end == ' ')
		end++;
	if (*end || n > UINT32_MAX)
		return -1;
	*v = (uint32_t)n;
	*check = 1;
	return 0;
}

static int kw_rpc(SigParseState *st, const char *arg, const Keyword *kw)
{
	char buf[128], *parts[4];
	DetectRpc *r;
	uint8_t check_prog = 0;
	int n;

	(void)kw;
	n = sig_split_arg(st, "rpc", arg, buf, sizeof(buf), parts, 4);
	if (n < 0)
		return -1;
	r = calloc(1, sizeof(*r));
	if (!r)
		return sig_error(st, "out of memory");
	/* the program is a number; version and procedure a number or '*' */
	if (n < 1 || n > 3 || rpc_field(parts[0], &r->prog, &check_prog) < 0 || !check_prog ||
	    (n > 1 && rpc_field(parts[1], &r->vers, &r->check_vers) < 0) ||
	    (n > 2 && rpc_field(parts[2], &r->proc, &r->check_proc) < 0)) {
		free(r);
		return sig_error(st, "invalid rpc \"%s\"", arg);
	}
	return sm_append(st, SM_LIST_MATCH, KW_RPC, r) < 0 ? -1 : 0;
}

static uint32_t be32_at(const uint8_t *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static int match_rpc(DetectThread *dt, const SigMatch *m, Packet *p)
{
	const DetectRpc *r = m->ctx;
	const uint8_t *b = p->payload;
	uint32_t len = p->payload_len;

	(void)dt;
	if (PKT_IS_TCP(p)) {
		if (len < 28)
			return 0;
		b += 4;         /* the record mark */
	} else if (!PKT_IS_UDP(p) || len < 24) {
		return 0;
	}
	if (be32_at(b + 4) != 0 || be32_at(b + 12) != r->prog)
		return 0;
	if (r->check_vers && be32_at(b + 16) != r->vers)
		return 0;
	return !r->check_proc || be32_at(b + 20) == r->proc;
}

/* The keywords of this family: keywords.c gathers the tables (one line
 * per family). */
const Keyword pkt_keywords[] = {
	{ .name = "vlan.id", .id = KW_VLAN_ID, .setup = kw_vlan_id, .flags = NEED | SQ, .buf = -1,
	  .desc = "vlan id at a layer", .match = match_vlan_id },
	{ .name = "vlan.layers", .id = KW_VLAN_LAYERS, .setup = kw_vlan_layers, .flags = NEED | SQ,
	  .buf = -1, .desc = "number of vlan layers", .match = match_vlan_layers },
	{ .name = "tcp.mss", .id = KW_TCP_MSS, .setup = kw_tcp_mss, .flags = NEED | SQ, .buf = -1,
	  .desc = "tcp mss option value", .match = match_tcp_mss },
	{ .name = "tcp.wscale", .id = KW_TCP_WSCALE, .setup = kw_tcp_wscale, .flags = NEED | SQ,
	  .buf = -1, .desc = "tcp window scale option value", .match = match_tcp_wscale },
	{ .name = "flow.pkts", .id = KW_FLOW_COUNT, .setup = kw_flow_count, .flags = NEED | SQ,
	  .buf = 0, .desc = "flow packet count", .match = match_flow_count },
	{ .name = "flow.bytes", .id = KW_FLOW_COUNT, .setup = kw_flow_count, .flags = NEED | SQ,
	  .buf = 1, .desc = "flow byte count", .match = match_flow_count },
	{ .name = "flow.pkts_toserver", .id = KW_FLOW_COUNT, .setup = kw_flow_count,
	  .flags = NEED | SQ, .buf = 2, .desc = "flow packets to server",
	  .match = match_flow_count },
	{ .name = "flow.pkts_toclient", .id = KW_FLOW_COUNT, .setup = kw_flow_count,
	  .flags = NEED | SQ, .buf = 3, .desc = "flow packets to client",
	  .match = match_flow_count },
	{ .name = "flow.bytes_toserver", .id = KW_FLOW_COUNT, .setup = kw_flow_count,
	  .flags = NEED | SQ, .buf = 4, .desc = "flow bytes to server", .match = match_flow_count },
	{ .name = "flow.bytes_toclient", .id = KW_FLOW_COUNT, .setup = kw_flow_count,
	  .flags = NEED | SQ, .buf = 5, .desc = "flow bytes to client", .match = match_flow_count },
	{ .name = "ipv4-csum", .id = KW_CSUM, .setup = kw_csum, .flags = NEED | SQ, .buf = 0,
	  .desc = "ipv4 header checksum valid/invalid", .match = match_csum },
	{ .name = "tcpv4-csum", .id = KW_CSUM, .setup = kw_csum, .flags = NEED | SQ, .buf = 1,
	  .desc = "tcp/ipv4 checksum valid/invalid", .match = match_csum },
	{ .name = "tcpv6-csum", .id = KW_CSUM, .setup = kw_csum, .flags = NEED | SQ, .buf = 2,
	  .desc = "tcp/ipv6 checksum valid/invalid", .match = match_csum },
	{ .name = "udpv4-csum", .id = KW_CSUM, .setup = kw_csum, .flags = NEED | SQ, .buf = 3,
	  .desc = "udp/ipv4 checksum valid/invalid", .match = match_csum },
	{ .name = "udpv6-csum", .id = KW_CSUM, .setup = kw_csum, .flags = NEED | SQ, .buf = 4,
	  .desc = "udp/ipv6 checksum valid/invalid", .match = match_csum },
	{ .name = "icmpv4-csum", .id = KW_CSUM, .setup = kw_csum, .flags = NEED | SQ, .buf = 5,
	  .desc = "icmpv4 checksum valid/invalid", .match = match_csum },
	{ .name = "icmpv6-csum", .id = KW_CSUM, .setup = kw_csum, .flags = NEED | SQ, .buf = 6,
	  .desc = "icmpv6 checksum valid/invalid", .match = match_csum },
	{ .name = "rpc", .id = KW_RPC, .setup = kw_rpc, .flags = NEED | SQ, .buf = -1,
	  .desc = "SunRPC call's program, version and procedure", .match = match_rpc },
	{ .name = NULL }
};
