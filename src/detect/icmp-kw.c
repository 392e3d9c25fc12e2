/* ICMP keywords: itype, icode (integer comparisons), icmp_id, icmp_seq,
 * icmpv6.mtu (integer comparison). */
#include "detect/detect-int.h"
#include "detect/engine-int.h"

#include <netinet/in.h>
#include <stdlib.h>

static int icmp_uint(SigParseState *st, const char *arg, const char *name, uint64_t max,
		     int cmp, int kwid)
{
	uint64_t v;

	if (cmp)
		return sm_append_uint(st, SM_LIST_MATCH, kwid, name, arg, max);
	if (parse_u64(arg, &v) || v > max)
		return sig_error(st, "invalid %s \"%s\"", name, arg);
	return sm_append_uint_eq(st, kwid, v, 0);
}

static int kw_itype(SigParseState *st, const char *arg, const Keyword *kw)
{
	return icmp_uint(st, arg, "itype", 255, 1, KW_ITYPE);
}

static int kw_icode(SigParseState *st, const char *arg, const Keyword *kw)
{
	return icmp_uint(st, arg, "icode", 255, 1, KW_ICODE);
}

static int kw_icmp_id(SigParseState *st, const char *arg, const Keyword *kw)
{
	return icmp_uint(st, arg, "icmp_id", 65535, 0, KW_ICMP_ID);
}

static int kw_icmp_seq(SigParseState *st, const char *arg, const Keyword *kw)
{
	return icmp_uint(st, arg, "icmp_seq", 65535, 0, KW_ICMP_SEQ);
}

static int kw_icmpv6_mtu(SigParseState *st, const char *arg, const Keyword *kw)
{
	return icmp_uint(st, arg, "icmpv6.mtu", UINT32_MAX, 1, KW_ICMPV6_MTU);
}

static int is_icmp(const Packet *p)
{
	return (p->proto == IPPROTO_ICMP || p->proto == IPPROTO_ICMPV6) && p->l4;
}

/* icmp_id / icmp_seq exist only in echo-like messages (Suricata checks the type). */
static int icmp_has_id(const Packet *p)
{
	if (p->proto == IPPROTO_ICMP)
		return p->icmp_type == 0 || p->icmp_type == 8 ||
		       (p->icmp_type >= 13 && p->icmp_type <= 18);
	return p->icmp_type == 128 || p->icmp_type == 129;
}

static int match_itype(DetectThread *dt, const SigMatch *m, Packet *p)
{
	(void)dt;
	return is_icmp(p) && detect_uint_match(m->ctx, p->icmp_type);
}

static int match_icode(DetectThread *dt, const SigMatch *m, Packet *p)
{
	(void)dt;
	return is_icmp(p) && detect_uint_match(m->ctx, p->icmp_code);
}

static int match_icmp_id(DetectThread *dt, const SigMatch *m, Packet *p)
{
	(void)dt;
	return is_icmp(p) && icmp_has_id(p) && detect_uint_match(m->ctx, p->icmp_id);
}

static int match_icmp_seq(DetectThread *dt, const SigMatch *m, Packet *p)
{
	(void)dt;
	return is_icmp(p) && icmp_has_id(p) && detect_uint_match(m->ctx, p->icmp_seq);
}

/* icmpv6.mtu: Suricata reads the MTU only from a Packet Too Big message
 * (type 2, code 0); any other packet has no MTU and never matches. */
static int match_icmpv6_mtu(DetectThread *dt, const SigMatch *m, Packet *p)
{
	const uint8_t *h = p->l4;
	uint32_t mtu;

	(void)dt;
	if (p->proto != IPPROTO_ICMPV6 || !h || p->icmp_type != 2 || p->icmp_code != 0)
		return 0;
	mtu = (uint32_t)h[4] << 24 | (uint32_t)h[5] << 16 | (uint32_t)h[6] << 8 | h[7];
	return detect_uint_match(m->ctx, mtu);
}

/* The keywords of this family: keywords.c gathers the tables (one line
 * per family). */
const Keyword icmp_keywords[] = {
	{ .name = "itype", .id = KW_ITYPE, .setup = kw_itype, .flags = NEED | SQ, .buf = -1,
	  .desc = "icmp type", .match = match_itype },
	{ .name = "icode", .id = KW_ICODE, .setup = kw_icode, .flags = NEED | SQ, .buf = -1,
	  .desc = "icmp code", .match = match_icode },
	{ .name = "icmp_id", .id = KW_ICMP_ID, .setup = kw_icmp_id, .flags = NEED | SQ, .buf = -1,
	  .desc = "icmp id", .match = match_icmp_id },
	{ .name = "icmp_seq", .id = KW_ICMP_SEQ, .setup = kw_icmp_seq, .flags = NEED | SQ,
	  .buf = -1, .desc = "icmp sequence", .match = match_icmp_seq },
	{ .name = "icmpv6.mtu", .id = KW_ICMPV6_MTU, .setup = kw_icmpv6_mtu, .flags = NEED | SQ,
	  .buf = -1, .desc = "icmpv6 packet too big mtu", .match = match_icmpv6_mtu },
	{ .name = NULL }
};
