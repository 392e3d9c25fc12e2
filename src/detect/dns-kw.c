/* DNS keywords (Suricata 8's "DNS Keywords"): the sticky buffers dns.query
 * (and the legacy dns_query), dns.queries.rrname, dns.answers.rrname,
 * dns.authorities.rrname, dns.additionals.rrname and dns.response.rrname,
 * each a multi-buffer (buffers.c), and the integer keywords dns.opcode,
 * dns.rcode and dns.rrtype, matched on the transaction being inspected.
 * What each one looks at is dns-kw-match.c's; this file parses the rule
 * options and reaches the transactions through the buffer registry.
 *
 * Every keyword makes the rule a DNS rule (its alproto), so tx-inspect.c
 * evaluates it on DNS transactions only; Suricata 8 gives each message its
 * own transaction, so a rule meets one query or one response at a time. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/buffers.h"
#include "detect/dns-kw-match.h"
#include "app-layer/dns-parse.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

/* The rule is a DNS rule: its protocol must carry DNS (dns, udp, tcp, ip)
 * and it cannot be another protocol's rule too. */
static int sig_set_alproto_dns(SigParseState *st, const char *kwname)
{
	return sig_set_alproto_for(st, kwname, ALPROTO_DNS, 1, "a dns, udp, tcp or ip");
}

static int kw_dns_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	return sig_app_sticky(st, kw, ALPROTO_DNS, 1, "a dns, udp, tcp or ip");
}

/* dns.opcode, dns.rcode, dns.rrtype: which one, and its comparison */
typedef struct DetectDnsUint {
	int which;                  /* enum dns_uint_kw */
	struct dns_uint_match m;
} DetectDnsUint;

enum dns_uint_kw { DNS_UINT_OPCODE = 0, DNS_UINT_RCODE, DNS_UINT_RRTYPE };

static int kw_dns_uint(SigParseState *st, const char *arg, const Keyword *kw)
{
	static int (*const parse[])(const char *, struct dns_uint_match *) = {
		[DNS_UINT_OPCODE] = dns_kw_opcode_parse,
		[DNS_UINT_RCODE] = dns_kw_rcode_parse,
		[DNS_UINT_RRTYPE] = dns_kw_rrtype_parse,
	};
	DetectDnsUint *d;

	if (sig_set_alproto_dns(st, kw->name))
		return -1;
	d = calloc(1, sizeof(*d));
	if (!d)
		return sig_error(st, "out of memory");
	d->which = kw->buf;
	if (parse[d->which](arg, &d->m) != 0) {
		free(d);
		return sig_error(st, "invalid %s \"%s\"", kw->name, arg);
	}
	return sm_append(st, SM_LIST_MATCH, KW_DNS_UINT, d) < 0 ? -1 : 0;
}

/* A transaction property: matched on the transaction tx-inspect.c is
 * evaluating (tc->tx, on side tc->side); outside one it never matches. */
static int match_dns_uint(const DetectTx *tc, const SigMatch *sm, Packet *p)
{
	const DetectDnsUint *d = sm->ctx;
	const struct dns_tx *tx = tc->tx;
	enum dns_dir dir = (enum dns_dir)tc->side;

	(void)p;
	if (!tx || !p->flow || p->flow->app_proto != ALPROTO_DNS)
		return 0;
	switch (d->which) {
	case DNS_UINT_OPCODE:
		return dns_kw_opcode_match(tx, dir, &d->m);
	case DNS_UINT_RCODE:
		return dns_kw_rcode_match(tx, dir, &d->m);
	default:
		return dns_kw_rrtype_match(tx, dir, &d->m);
	}
}

/* The DNS entries of the buffer registry (buffers.c): pbuf is the
 * dns_kw_buf of the side. */
int dns_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		   const uint8_t **data, uint32_t *len)
{
	enum dns_kw_buf kb = (enum dns_kw_buf)b->pbuf[side & 1];

	return dns_kw_buf_get(tx, (enum dns_dir)(side & 1), kb, idx, data, len) ? 0 : -1;
}

/* The keywords of this family: keywords.c gathers the tables (one line
 * per family). */
const Keyword dns_keywords[] = {
	{ .name = "dns.query", .id = KW_DNS_STICKY, .setup = kw_dns_sticky, .flags = STICKY,
	  .buf = BUF_DNS_QUERY, .desc = "sticky buffer" },
	{ .name = "dns_query", .id = KW_DNS_STICKY, .setup = kw_dns_sticky, .flags = STICKY,
	  .buf = BUF_DNS_QUERY, .desc = "sticky buffer (legacy name of dns.query)" },
	{ .name = "dns.queries.rrname", .id = KW_DNS_STICKY, .setup = kw_dns_sticky,
	  .flags = STICKY, .buf = BUF_DNS_QUERIES_RRNAME, .desc = "sticky buffer" },
	{ .name = "dns.answers.rrname", .id = KW_DNS_STICKY, .setup = kw_dns_sticky,
	  .flags = STICKY, .buf = BUF_DNS_ANSWERS_RRNAME, .desc = "sticky buffer" },
	{ .name = "dns.authorities.rrname", .id = KW_DNS_STICKY, .setup = kw_dns_sticky,
	  .flags = STICKY, .buf = BUF_DNS_AUTHORITIES_RRNAME, .desc = "sticky buffer" },
	{ .name = "dns.additionals.rrname", .id = KW_DNS_STICKY, .setup = kw_dns_sticky,
	  .flags = STICKY, .buf = BUF_DNS_ADDITIONALS_RRNAME, .desc = "sticky buffer" },
	{ .name = "dns.response.rrname", .id = KW_DNS_STICKY, .setup = kw_dns_sticky,
	  .flags = STICKY, .buf = BUF_DNS_RESPONSE_RRNAME, .desc = "sticky buffer" },
	{ .name = "dns.opcode", .id = KW_DNS_UINT, .setup = kw_dns_uint,
	  .flags = NEED | SQ | KWF_TX, .buf = DNS_UINT_OPCODE, .desc = "dns header opcode",
	  .tx_match = match_dns_uint },
	{ .name = "dns.rcode", .id = KW_DNS_UINT, .setup = kw_dns_uint,
	  .flags = NEED | SQ | KWF_TX, .buf = DNS_UINT_RCODE, .desc = "dns header rcode",
	  .tx_match = match_dns_uint },
	{ .name = "dns.rrtype", .id = KW_DNS_UINT, .setup = kw_dns_uint,
	  .flags = NEED | SQ | KWF_TX, .buf = DNS_UINT_RRTYPE, .desc = "dns query rrtype",
	  .tx_match = match_dns_uint },
	{ .name = NULL }
};
