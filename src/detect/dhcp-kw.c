/* DHCP keywords, as Suricata 8 documents them (rules/dhcp-keywords):
 * dhcp.leasetime, dhcp.rebinding_time and dhcp.renewal_time, unsigned
 * 64-bit comparisons of the message's options 51, 59 and 58. A message
 * without the option does not match. Each message is a one-way
 * transaction, read on the side it went. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "app-layer/dhcp.h"

#include <stdlib.h>

#define NEEDS "a dhcp, udp or ip"

typedef struct DetectDhcpTime {
	int which;                  /* DHCP_TIME_* */
	DetectUint u;
} DetectDhcpTime;

static int kw_dhcp_time(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectDhcpTime *d = calloc(1, sizeof(*d));

	if (!d)
		return sig_error(st, "out of memory");
	d->which = kw->buf;
	if (parse_uint_cmp(arg ? arg : "", UINT64_MAX, &d->u) < 0) {
		free(d);
		return sig_error(st, "invalid %s \"%s\"", kw->name, arg ? arg : "");
	}
	if (sig_set_alproto_for(st, kw->name, ALPROTO_DHCP, 1, NEEDS)) {
		free(d);
		return -1;
	}
	st->s->flags |= SIG_FLAG_TX_MATCH;
	return sm_append(st, SM_LIST_MATCH, KW_DHCP_TIME, d) < 0 ? -1 : 0;
}

static int match_dhcp_time(const DetectTx *tc, const SigMatch *sm, Packet *p)
{
	const DetectDhcpTime *d = sm->ctx;
	const DhcpTx *tx = tc->tx;

	if (!tx || !p->flow || p->flow->app_proto != ALPROTO_DHCP || !tx->m.has_time[d->which])
		return 0;
	return detect_uint_match(&d->u, tx->m.time[d->which]);
}

#define DHCPT(n_, w_, d_) { .name = n_, .id = KW_DHCP_TIME, .setup = kw_dhcp_time, \
	.flags = NEED | SQ | KWF_TX, .buf = w_, .desc = d_, .tx_match = match_dhcp_time }

const Keyword dhcp_keywords[] = {
	DHCPT("dhcp.leasetime", DHCP_TIME_LEASE, "dhcp lease time (option 51)"),
	DHCPT("dhcp.rebinding_time", DHCP_TIME_REBINDING, "dhcp rebinding time (option 59)"),
	DHCPT("dhcp.renewal_time", DHCP_TIME_RENEWAL, "dhcp renewal time (option 58)"),
	{ .name = NULL }
};
