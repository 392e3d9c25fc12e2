/* ICMP keywords: itype, icode (integer comparisons), icmp_id, icmp_seq,
 * icmpv6.mtu (integer comparison). */
#include "detect/detect-int.h"

#include <stdlib.h>

static int icmp_uint(SigParseState *st, const char *arg, const char *name, uint64_t max,
		     int cmp, int kwid)
{
	DetectUint *u = calloc(1, sizeof(*u));
	uint64_t v;

	if (!u)
		return sig_error(st, "out of memory");
	if (cmp) {
		if (parse_uint_cmp(arg, max, u)) {
			free(u);
			return sig_error(st, "invalid %s \"%s\"", name, arg);
		}
	} else {
		if (parse_u64(arg, &v) || v > max) {
			free(u);
			return sig_error(st, "invalid %s \"%s\"", name, arg);
		}
		u->mode = UM_EQ;
		u->a = v;
	}
	return sm_append(st, SM_LIST_MATCH, kwid, u) < 0 ? -1 : 0;
}

int kw_itype(SigParseState *st, const char *arg, const Keyword *kw)
{
	return icmp_uint(st, arg, "itype", 255, 1, KW_ITYPE);
}

int kw_icode(SigParseState *st, const char *arg, const Keyword *kw)
{
	return icmp_uint(st, arg, "icode", 255, 1, KW_ICODE);
}

int kw_icmp_id(SigParseState *st, const char *arg, const Keyword *kw)
{
	return icmp_uint(st, arg, "icmp_id", 65535, 0, KW_ICMP_ID);
}

int kw_icmp_seq(SigParseState *st, const char *arg, const Keyword *kw)
{
	return icmp_uint(st, arg, "icmp_seq", 65535, 0, KW_ICMP_SEQ);
}

int kw_icmpv6_mtu(SigParseState *st, const char *arg, const Keyword *kw)
{
	return icmp_uint(st, arg, "icmpv6.mtu", UINT32_MAX, 1, KW_ICMPV6_MTU);
}
