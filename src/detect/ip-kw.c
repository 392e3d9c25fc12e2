/* IP header keywords: ttl, tos, id, ipopts, fragbits, fragoffset, ip_proto,
 * sameip. All go to the packet match list. */
#include "detect/detect-int.h"
#include "decode/ipv4.h"
#include "detect/engine-int.h"
#include "decode/events.h"
#include "stream/stream.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <netdb.h>

static int kw_ttl(SigParseState *st, const char *arg, const Keyword *kw)
{
	return sm_append_uint(st, SM_LIST_MATCH, KW_TTL, "ttl", arg, 255);
}

static int kw_id(SigParseState *st, const char *arg, const Keyword *kw)
{
	return sm_append_uint(st, SM_LIST_MATCH, KW_ID, "id", arg, 65535);
}

/* tos:[!]N, N decimal, or hex as 0xNN / xNN */
static int kw_tos(SigParseState *st, const char *arg, const Keyword *kw)
{
	const char *p = arg;
	uint64_t v;
	char *end;
	int neg = 0;

	if (*p == '!') {
		neg = 1;
		p++;
	}
	if (*p == 'x' || *p == 'X')
		v = strtoull(p + 1, &end, 16);
	else
		v = strtoull(p, &end, 0);
	if (end == p || *end || v > 255 || !isxdigit((unsigned char)p[strlen(p) - 1]))
		return sig_error(st, "invalid tos \"%s\"", arg);
	return sm_append_uint_eq(st, KW_TOS, v, neg);
}

/* ipopts:<one option name> */
static int kw_ipopts(SigParseState *st, const char *arg, const Keyword *kw)
{
	static const struct { const char *n; int code; } opts[] = {
		{ "rr", 7 }, { "eol", 0 }, { "nop", 1 }, { "ts", 68 }, { "sec", 130 },
		{ "esec", 133 }, { "lsrr", 131 }, { "ssrr", 137 }, { "satid", 136 },
		{ "any", -1 },
	};
	DetectUint *u;

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		if (strcmp(arg, opts[i].n) == 0) {
			u = calloc(1, sizeof(*u));
			if (!u)
				return sig_error(st, "out of memory");
			/* any: mode NE with an impossible code */
			u->mode = opts[i].code < 0 ? UM_NE : UM_EQ;
			u->a = opts[i].code < 0 ? 256 : (uint64_t)opts[i].code;
			return sm_append(st, SM_LIST_MATCH, KW_IPOPTS, u) < 0 ? -1 : 0;
		}
	}
	return sig_error(st, "invalid ipopts \"%s\"", arg);
}

/* fragbits:[+*!]<M|D|R...>  (modifier before or after the bits) */
static int kw_fragbits(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectFragbits fb = { 0 }, *d;

	for (const char *p = arg; *p; p++) {
		int mod = 0;

		switch (*p) {
		case 'M': case 'm': fb.bits |= 0x2000; continue;
		case 'D': case 'd': fb.bits |= 0x4000; continue;
		case 'R': case 'r': fb.bits |= 0x8000; continue;
		case '+': mod = FLAGS_MOD_PLUS; break;
		case '*': mod = FLAGS_MOD_ANY; break;
		case '!': mod = FLAGS_MOD_NOT; break;
		case ' ': continue;
		default:
			return sig_error(st, "invalid fragbits \"%s\"", arg);
		}
		if (fb.modifier)
			return sig_error(st, "fragbits: only one modifier allowed");
		fb.modifier = mod;
	}
	if (!fb.bits)
		return sig_error(st, "fragbits needs at least one of M, D, R");
	d = malloc(sizeof(*d));
	if (!d)
		return sig_error(st, "out of memory");
	*d = fb;
	return sm_append(st, SM_LIST_MATCH, KW_FRAGBITS, d) < 0 ? -1 : 0;
}

/* fragoffset:[!<>]N, N in 8-byte units up to 8191 */
static int kw_fragoffset(SigParseState *st, const char *arg, const Keyword *kw)
{
	const char *p = arg;
	DetectUint *u;
	uint64_t v;
	enum uint_mode m = UM_EQ;

	if (*p == '!')
		m = UM_NE;
	else if (*p == '<')
		m = UM_LT;
	else if (*p == '>')
		m = UM_GT;
	if (m != UM_EQ)
		p++;
	if (parse_u64(p, &v) || v > 8191)
		return sig_error(st, "invalid fragoffset \"%s\"", arg);
	u = calloc(1, sizeof(*u));
	if (!u)
		return sig_error(st, "out of memory");
	u->mode = m;
	u->a = v;
	return sm_append(st, SM_LIST_MATCH, KW_FRAGOFFSET, u) < 0 ? -1 : 0;
}

/* ip_proto:[!<>]<number|name> */
static int kw_ip_proto(SigParseState *st, const char *arg, const Keyword *kw)
{
	const char *p = arg;
	DetectIpProto *d;
	uint64_t v;
	int mode = 0;

	if (*p == '!' || *p == '<' || *p == '>')
		mode = *p++;
	while (isspace((unsigned char)*p))
		p++;
	if (parse_u64(p, &v) == 0) {
		if (v > 255)
			return sig_error(st, "invalid ip_proto \"%s\"", arg);
	} else {
		struct protoent *pe = getprotobyname(p);

		if (!pe)
			return sig_error(st, "unknown ip_proto name \"%s\"", p);
		v = (uint64_t)pe->p_proto;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return sig_error(st, "out of memory");
	d->mode = mode;
	d->proto = (uint8_t)v;
	return sm_append(st, SM_LIST_MATCH, KW_IP_PROTO, d) < 0 ? -1 : 0;
}

static int kw_sameip(SigParseState *st, const char *arg, const Keyword *kw)
{
	st->s->flags |= SIG_FLAG_SAMEIP;
	return 0;
}

/* ipv4.hdr; tcp.hdr; ...: later content inspects that header's bytes */
static int kw_hdr_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	st->cur_buf = kw->buf;
	return 0;
}

/* prefilter: chooses the rule's prefilter keyword in Suricata; the result
 * of a rule does not depend on it, so it is accepted and ignored. */
/* prefilter: the keyword before it is the rule's prefilter. Our
 * prefilter choice stays, except where Suricata's changes what matches:
 * app-layer-protocol's engine runs only on the packets where protocol
 * detection finished (suricata-verify detect-app-layer-protocol-04). */
static int kw_prefilter(SigParseState *st, const char *arg, const Keyword *kw)
{
	SigMatchList *l = &st->s->lists[SM_LIST_MATCH];

	(void)arg;
	(void)kw;
	if (l->n && l->m[l->n - 1].kw == KW_APP_LAYER_PROTOCOL)
		app_layer_protocol_prefilter(l->m[l->n - 1].ctx);
	return 0;
}

/* decode-event:<layer>.<event>, the names of decode/events.h. Suricata also
 * accepts the "decoder." prefix of the eve anomaly names. */
static int kw_decode_event(SigParseState *st, const char *arg, const Keyword *kw)
{
	const char *name = arg;
	int id;

	if (!strncmp(name, "decoder.", 8))
		name += 8;
	id = decode_event_lookup(name);
	if (id < 0)
		return sig_unsupported(st, "decode-event %s", arg);
	return sm_append_uint_eq(st, KW_DECODE_EVENT, (uint64_t)id, 0);
}

/* engine-event:<name> (Suricata's third event keyword): an event by its
 * full name, "decoder.<layer>.<event>" as decode-event takes it after
 * its prefix, or "stream.<event>" as stream-event; the match is theirs. */
static int kw_engine_event(SigParseState *st, const char *arg, const Keyword *kw)
{
	int id;

	(void)kw;
	if (!strncmp(arg, "decoder.", 8)) {
		id = decode_event_lookup(arg + 8);
		if (id >= 0)
			return sm_append_uint_eq(st, KW_DECODE_EVENT, (uint64_t)id, 0);
	} else if (!strncmp(arg, "stream.", 7)) {
		id = stream_event_lookup(arg + 7);
		if (id >= 0)
			return sm_append_uint_eq(st, KW_STREAM_EVENT, (uint64_t)id, 0);
	}
	return sig_unsupported(st, "unknown engine-event %s", arg);
}

static int match_ttl(DetectThread *dt, const SigMatch *m, Packet *p)
{
	(void)dt;
	return detect_uint_match(m->ctx, p->ttl);
}

static int match_tos(DetectThread *dt, const SigMatch *m, Packet *p)
{
	(void)dt;
	return PKT_IS_IPV4(p) && detect_uint_match(m->ctx, p->tos);
}

static int match_id(DetectThread *dt, const SigMatch *m, Packet *p)
{
	(void)dt;
	return PKT_IS_IPV4(p) && detect_uint_match(m->ctx, p->ip_id);
}

static int ipopt_bit(uint64_t code)
{
	switch (code) {
	case 7: return IPV4_OPT_RR;
	case 68: return IPV4_OPT_TS;
	case 130: return IPV4_OPT_SEC;
	case 131: return IPV4_OPT_LSRR;
	case 133: return IPV4_OPT_ESEC;
	case 136: return IPV4_OPT_SID;
	case 137: return IPV4_OPT_SSRR;
	case 0: return IPV4_OPT_EOL;
	case 1: return IPV4_OPT_NOP;
	}
	return 0;
}

static int match_ipopts(DetectThread *dt, const SigMatch *m, Packet *p)
{
	const DetectUint *u = m->ctx;

	(void)dt;
	if (!PKT_IS_IPV4(p))
		return 0;
	if (u->mode == UM_NE)
		return p->ipopts != 0;
	return (p->ipopts & ipopt_bit(u->a)) != 0;
}

static int match_fragbits(DetectThread *dt, const SigMatch *m, Packet *p)
{
	const DetectFragbits *fb = m->ctx;

	(void)dt;
	return PKT_IS_IPV4(p) && detect_bits_match(p->frag_off & 0xe000, fb->bits, fb->modifier);
}

static int match_fragoffset(DetectThread *dt, const SigMatch *m, Packet *p)
{
	(void)dt;
	return PKT_IS_IPV4(p) && detect_uint_match(m->ctx, p->frag_off & 0x1fff);
}

static int match_ip_proto(DetectThread *dt, const SigMatch *m, Packet *p)
{
	const DetectIpProto *d = m->ctx;

	(void)dt;
	if (!p->ip_version)
		return 0;
	switch (d->mode) {
	case '!': return p->proto != d->proto;
	case '<': return p->proto < d->proto;
	case '>': return p->proto > d->proto;
	}
	return p->proto == d->proto;
}

static int match_sameip(DetectThread *dt, const SigMatch *m, Packet *p)
{
	(void)dt;
	(void)m;
	return p->ip_version && detect_same_addr(&p->src, &p->dst);
}

static int match_decode_event(DetectThread *dt, const SigMatch *m, Packet *p)
{
	(void)dt;
	for (int i = 0; i < p->nevents; i++)
		if (p->events[i] == ((const DetectUint *)m->ctx)->a)
			return 1;
	return 0;
}

/* The keywords of this family: keywords.c gathers the tables (one line
 * per family). */
const Keyword ip_keywords[] = {
	{ .name = "ttl", .id = KW_TTL, .setup = kw_ttl, .flags = NEED | SQ, .buf = -1,
	  .desc = "ip ttl", .match = match_ttl },
	{ .name = "tos", .id = KW_TOS, .setup = kw_tos, .flags = NEED | SQ, .buf = -1,
	  .desc = "ip tos", .match = match_tos },
	{ .name = "id", .id = KW_ID, .setup = kw_id, .flags = NEED | SQ, .buf = -1,
	  .desc = "ip id", .match = match_id },
	{ .name = "ipopts", .id = KW_IPOPTS, .setup = kw_ipopts, .flags = NEED | SQ, .buf = -1,
	  .desc = "ip options", .match = match_ipopts },
	{ .name = "fragbits", .id = KW_FRAGBITS, .setup = kw_fragbits, .flags = NEED | SQ,
	  .buf = -1, .desc = "ip fragment bits", .match = match_fragbits },
	{ .name = "fragoffset", .id = KW_FRAGOFFSET, .setup = kw_fragoffset, .flags = NEED | SQ,
	  .buf = -1, .desc = "ip fragment offset", .match = match_fragoffset },
	{ .name = "ip_proto", .id = KW_IP_PROTO, .setup = kw_ip_proto, .flags = NEED | SQ,
	  .buf = -1, .desc = "ip protocol", .match = match_ip_proto },
	{ .name = "sameip", .id = KW_SAMEIP, .setup = kw_sameip, .flags = NA, .buf = -1,
	  .desc = "source equals destination", .match = match_sameip },
	{ .name = "ip.src", .id = KW_HDR_STICKY, .setup = kw_hdr_sticky, .flags = STICKY,
	  .buf = BUF_IP_SRC, .desc = "sticky buffer: the source address" },
	{ .name = "ip.dst", .id = KW_HDR_STICKY, .setup = kw_hdr_sticky, .flags = STICKY,
	  .buf = BUF_IP_DST, .desc = "sticky buffer: the destination address" },
	{ .name = "ether.hdr", .id = KW_HDR_STICKY, .setup = kw_hdr_sticky, .flags = STICKY,
	  .buf = BUF_ETHER_HDR, .desc = "sticky buffer: the Ethernet header" },
	{ .name = "ipv4.hdr", .id = KW_HDR_STICKY, .setup = kw_hdr_sticky, .flags = STICKY,
	  .buf = BUF_IPV4_HDR, .desc = "sticky buffer" },
	{ .name = "ipv6.hdr", .id = KW_HDR_STICKY, .setup = kw_hdr_sticky, .flags = STICKY,
	  .buf = BUF_IPV6_HDR, .desc = "sticky buffer" },
	{ .name = "tcp.hdr", .id = KW_HDR_STICKY, .setup = kw_hdr_sticky, .flags = STICKY,
	  .buf = BUF_TCP_HDR, .desc = "sticky buffer" },
	{ .name = "udp.hdr", .id = KW_HDR_STICKY, .setup = kw_hdr_sticky, .flags = STICKY,
	  .buf = BUF_UDP_HDR, .desc = "sticky buffer" },
	{ .name = "icmpv4.hdr", .id = KW_HDR_STICKY, .setup = kw_hdr_sticky, .flags = STICKY,
	  .buf = BUF_ICMPV4_HDR, .desc = "sticky buffer" },
	{ .name = "icmpv6.hdr", .id = KW_HDR_STICKY, .setup = kw_hdr_sticky, .flags = STICKY,
	  .buf = BUF_ICMPV6_HDR, .desc = "sticky buffer" },
	{ .name = "decode-event", .id = KW_DECODE_EVENT, .setup = kw_decode_event,
	  .flags = NEED | SQ, .buf = -1, .desc = "match on a decoder event",
	  .match = match_decode_event },
	{ .name = "engine-event", .id = KW_DECODE_EVENT, .setup = kw_engine_event,
	  .flags = NEED | SQ, .buf = -1,
	  .desc = "match on a decoder or stream event by its full name" },
	{ .name = "prefilter", .id = KW_PREFILTER, .setup = kw_prefilter, .flags = NA, .buf = -1,
	  .desc = "use this rule's keyword as prefilter (accepted, not used)" },
	{ .name = NULL }
};
