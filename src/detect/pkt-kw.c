/* Packet and flow property keywords: vlan.id, vlan.layers, tcp.mss,
 * flow.pkts / flow.bytes (and the *_toserver / *_toclient forms), and the
 * checksum keywords (ipv4-csum, tcpv4-csum, ...). The engine matches them in
 * detect/inspect.c. */
#include "detect/detect-int.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

static int append_uint(SigParseState *st, int kwid, const char *name, const char *arg,
		       uint64_t max)
{
	DetectUint *u = calloc(1, sizeof(*u));

	if (!u)
		return sig_error(st, "out of memory");
	if (parse_uint_cmp(arg, max, u)) {
		free(u);
		return sig_error(st, "invalid %s \"%s\"", name, arg);
	}
	return sm_append(st, SM_LIST_MATCH, kwid, u) < 0 ? -1 : 0;
}

/* vlan.id:<uint>[,layer] -- layer: N (0 outermost), -N from the innermost,
 * "all"; no layer: any layer. */
int kw_vlan_id(SigParseState *st, const char *arg, const Keyword *kw)
{
	char buf[128], *parts[3];
	DetectVlanId *v;
	int64_t layer;
	int n;

	if (strlen(arg) >= sizeof(buf))
		return sig_error(st, "invalid vlan.id \"%s\"", arg);
	strcpy(buf, arg);
	n = split_commas(buf, parts, 3);
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

int kw_vlan_layers(SigParseState *st, const char *arg, const Keyword *kw)
{
	return append_uint(st, KW_VLAN_LAYERS, "vlan.layers", arg, 3);
}

int kw_tcp_mss(SigParseState *st, const char *arg, const Keyword *kw)
{
	return append_uint(st, KW_TCP_MSS, "tcp.mss", arg, 65535);
}

/* flow.pkts:<toserver|toclient|either>,<uint>; flow.pkts_toserver:<uint>, ...
 * kw->buf selects the form (keywords.c). A leading '=' is accepted. */
int kw_flow_count(SigParseState *st, const char *arg, const Keyword *kw)
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
int kw_csum(SigParseState *st, const char *arg, const Keyword *kw)
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
