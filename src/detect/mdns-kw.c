/* mDNS keywords, as Suricata 8 documents them (rules/mdns-keywords):
 * sticky multi buffers on the names of an mDNS message, read from its
 * transaction through the buffer registry (buffers.c): mdns.queries.rrname
 * (each question's name), mdns.answers.rrname, mdns.authorities.rrname,
 * mdns.additionals.rrname (each record's owner name), and
 * mdns.response.rrname: the owner names of every section and the PTR
 * targets of the answers and additionals, in message order (the eve
 * schema's keyword list for the mdns fields). A response is multicast as
 * often "to the server" as a query: every buffer is read on the side the
 * message went. */
#include "detect/detect-int.h"
#include "detect/buffers.h"
#include "app-layer/mdns.h"

static int kw_mdns_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	return sig_app_sticky(st, kw, ALPROTO_MDNS, 1, "an mdns, udp or ip");
}

static int give(const struct dns_name *n, const uint8_t **data, uint32_t *len)
{
	*data = n->s.ptr;
	*len = n->s.len;
	return 0;
}

/* Entry idx of mdns.response.rrname. */
static int response_name(const struct dns_msg *m, uint32_t idx, const uint8_t **data,
			 uint32_t *len)
{
	for (int sec = 0; sec < DNS_SEC_MAX; sec++)
		for (uint32_t i = 0; i < m->nrrs[sec]; i++) {
			const struct dns_rr *rr = &m->rrs[sec][i];

			if (idx-- == 0)
				return give(&rr->name, data, len);
			if (sec != DNS_SEC_AUTHORITY && rr->kind == DNS_RD_NAME && rr->rrtype == 12 &&
			    idx-- == 0)
				return give(&rr->rd.name, data, len);
		}
	return -1;
}

int mdns_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		    const uint8_t **data, uint32_t *len)
{
	int dir = 0;
	const struct dns_msg *m = mdns_tx_msg(tx, &dir);
	int sec;

	if (!m || dir != (side & 1))
		return -1;
	switch (b->pbuf[side & 1]) {
	case MDNS_KW_QUERIES:
		return idx < m->nqueries ? give(&m->queries[idx].name, data, len) : -1;
	case MDNS_KW_RESPONSE:
		return response_name(m, idx, data, len);
	case MDNS_KW_ANSWERS:
		sec = DNS_SEC_ANSWER;
		break;
	case MDNS_KW_AUTHORITIES:
		sec = DNS_SEC_AUTHORITY;
		break;
	case MDNS_KW_ADDITIONALS:
		sec = DNS_SEC_ADDITIONAL;
		break;
	default:
		return -1;
	}
	return idx < m->nrrs[sec] ? give(&m->rrs[sec][idx].name, data, len) : -1;
}

#define MDNSB(n_, b_) { .name = n_, .id = KW_MDNS_STICKY, .setup = kw_mdns_sticky, \
	.flags = STICKY, .buf = b_, .desc = "sticky buffer" }

const Keyword mdns_keywords[] = {
	MDNSB("mdns.queries.rrname", BUF_MDNS_QUERIES_RRNAME),
	MDNSB("mdns.answers.rrname", BUF_MDNS_ANSWERS_RRNAME),
	MDNSB("mdns.authorities.rrname", BUF_MDNS_AUTHORITIES_RRNAME),
	MDNSB("mdns.additionals.rrname", BUF_MDNS_ADDITIONALS_RRNAME),
	MDNSB("mdns.response.rrname", BUF_MDNS_RESPONSE_RRNAME),
	{ .name = NULL }
};
