/* SNMP keywords, as Suricata 8 documents them (rules/snmp-keywords):
 * snmp.version and snmp.pdu_type (number comparisons) and the sticky
 * buffers snmp.community (v1, v2c) and snmp.usm (v3's user name); and
 * 9.0's snmp.trap_oid and snmp.trap_address (a v1 trap's enterprise OID
 * and agent address, dotted). Each message is a one-way transaction, read
 * on the side it went. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/buffers.h"
#include "app-layer/snmp.h"

#include <stdlib.h>
#include <string.h>

#define NEEDS "an snmp, udp or ip"

static int kw_snmp_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	return sig_app_sticky(st, kw, ALPROTO_SNMP, 1, NEEDS);
}

static int give(const char *s, size_t n, const uint8_t **data, uint32_t *len)
{
	if (!s)
		return -1;
	*data = (const uint8_t *)s;
	*len = (uint32_t)n;
	return 0;
}

int snmp_buffer_get(const DetectBuffer *b, void *txp, int side, uint32_t idx,
		    const uint8_t **data, uint32_t *len)
{
	const SnmpTx *tx = txp;
	const SnmpMsg *m = &tx->m;

	if (!tx->valid || idx)
		return -1;
	switch (b->pbuf[side & 1]) {
	case SNMP_KW_BUF_COMMUNITY:
		return give(m->community, m->community_len, data, len);
	case SNMP_KW_BUF_USM:
		return give(m->usm, m->usm_len, data, len);
	case SNMP_KW_BUF_TRAP_OID:
		return m->has_trap ? give(m->trap_oid, strlen(m->trap_oid), data, len) : -1;
	case SNMP_KW_BUF_TRAP_ADDRESS:
		return m->has_trap ? give(m->trap_address, strlen(m->trap_address), data, len)
				   : -1;
	}
	return -1;
}

enum { SK_VERSION, SK_PDU_TYPE };

typedef struct DetectSnmp {
	int kind;
	DetectUint u;
} DetectSnmp;

static int kw_snmp_match(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectSnmp *d = calloc(1, sizeof(*d));

	if (!d)
		return sig_error(st, "out of memory");
	d->kind = kw->buf;
	if (parse_uint_cmp(arg ? arg : "", UINT32_MAX, &d->u) < 0) {
		free(d);
		return sig_error(st, "invalid %s \"%s\"", kw->name, arg ? arg : "");
	}
	if (sig_set_alproto_for(st, kw->name, ALPROTO_SNMP, 1, NEEDS)) {
		free(d);
		return -1;
	}
	st->s->flags |= SIG_FLAG_TX_MATCH;
	return sm_append(st, SM_LIST_MATCH, KW_SNMP_MATCH, d) < 0 ? -1 : 0;
}

static int match_snmp(const DetectTx *tc, const SigMatch *sm, Packet *p)
{
	const DetectSnmp *d = sm->ctx;
	const SnmpTx *tx = tc->tx;

	if (!tx || !tx->valid || !p->flow || p->flow->app_proto != ALPROTO_SNMP)
		return 0;
	if (d->kind == SK_VERSION)
		return detect_uint_match(&d->u, tx->m.version);
	/* an encrypted v3 PDU has no type to match */
	return tx->m.pdu_type >= 0 && detect_uint_match(&d->u, (uint64_t)tx->m.pdu_type);
}

#define SNMPB(n_, b_) { .name = n_, .id = KW_SNMP_STICKY, .setup = kw_snmp_sticky, \
	.flags = STICKY, .buf = b_, .desc = "sticky buffer" }

const Keyword snmp_keywords[] = {
	SNMPB("snmp.community", BUF_SNMP_COMMUNITY),
	SNMPB("snmp.usm", BUF_SNMP_USM),
	SNMPB("snmp.trap_oid", BUF_SNMP_TRAP_OID),
	SNMPB("snmp.trap_address", BUF_SNMP_TRAP_ADDRESS),
	{ .name = "snmp.version", .id = KW_SNMP_MATCH, .setup = kw_snmp_match,
	  .flags = NEED | SQ | KWF_TX, .buf = SK_VERSION, .desc = "snmp version (1, 2, 3)",
	  .tx_match = match_snmp },
	{ .name = "snmp.pdu_type", .id = KW_SNMP_MATCH, .setup = kw_snmp_match,
	  .flags = NEED | SQ | KWF_TX, .buf = SK_PDU_TYPE, .desc = "snmp pdu type",
	  .tx_match = match_snmp },
	{ .name = NULL }
};
