/* What Suricata 8's DNS keywords look at, as pure functions over a
 * transaction (app-layer/dns-parse.h); the keyword table wiring is elsewhere.
 *
 * Sticky buffers ("DNS Keywords" in Suricata 8's rule docs, and the eve
 * schema's keyword notes). Each is a multi-buffer: the rule matches if any
 * one buffer matches. A name buffer is the name as dns-parse keeps it
 * (labels joined with '.', no length octets, no trailing NUL):
 *   dns.query, dns_query (legacy)  to_server: each query's rrname
 *   dns.queries.rrname             both: each query's rrname
 *   dns.answers.rrname             both: each answer's rrname
 *   dns.authorities.rrname         both: each authority's rrname
 *   dns.additionals.rrname         both: each additional's rrname
 *   dns.response.rrname            to_client: the queries' rrnames, then per
 *       section (answers, authorities, additionals) each record's rrname
 *       followed by the names in its rdata: CNAME PTR NS MX targets, SOA
 *       mname and rname, SRV target (suricata-verify dns-ptr, dns-response-mx,
 *       dns-response-rrname-sticky-buffer, dns-additionals-rdata)
 *
 * Integer keywords (unsigned, Suricata's integer syntax):
 *   dns.opcode  the header opcode (8-bit)
 *   dns.rcode   the header rcode (8-bit; also a name: NOERROR, NXDOMAIN, ...)
 *   dns.rrtype  each query's rrtype (16-bit; also a name: A, AAAA, ...);
 *               matches if any query's type matches */
#ifndef DETECT_DNS_KW_MATCH_H
#define DETECT_DNS_KW_MATCH_H

#include "app-layer/dns-parse.h"

#include <stdbool.h>
#include <stdint.h>

enum dns_kw_buf {
	DNS_KW_QUERY = 0,         /* dns.query, dns_query */
	DNS_KW_QUERIES_RRNAME,    /* dns.queries.rrname */
	DNS_KW_ANSWERS_RRNAME,    /* dns.answers.rrname */
	DNS_KW_AUTHORITIES_RRNAME,
	DNS_KW_ADDITIONALS_RRNAME,
	DNS_KW_RESPONSE_RRNAME,   /* dns.response.rrname */
	DNS_KW_BUF_MAX
};

/* The buffer a keyword names ("dns.query", "dns_query", ...), or -1. */
int dns_kw_buf_by_name(const char *keyword);
/* Whether the buffer exists in direction dir at all (dns.query only
 * to_server, dns.response.rrname only to_client). */
bool dns_kw_buf_dir_ok(enum dns_kw_buf b, enum dns_dir dir);

/* The i-th buffer of kind b in tx's message of direction dir: true and
 * data and len set, or false when there is no i-th (i counts from 0; iterate
 * until false). Pointers live as long as the transaction. No allocation. */
bool dns_kw_buf_get(const struct dns_tx *tx, enum dns_dir dir, enum dns_kw_buf b,
		    uint32_t i, const uint8_t **data, uint32_t *len);

/* Suricata's unsigned integer syntax:
 *   N  !N  >N  <N  >=N  <=N  N-M (N < v < M)  !N-M  N<>M (as N-M)
 * Spaces around the value are allowed. */
enum dns_uint_op {
	DNS_UINT_EQ = 0,
	DNS_UINT_NE,
	DNS_UINT_LT,
	DNS_UINT_LE,
	DNS_UINT_GT,
	DNS_UINT_GE,
	DNS_UINT_RANGE,    /* a < v < b */
	DNS_UINT_NOTRANGE, /* not (a < v < b) */
};

struct dns_uint_match {
	enum dns_uint_op op;
	uint32_t a, b;
};

/* Parses s for a value of at most max; names (rcode, rrtype) go through
 * names (NULL: numbers only). 0, or -1 for bad syntax or out of range. */
typedef int (*dns_uint_name_fn)(const char *name);
int dns_uint_parse(const char *s, uint32_t max, dns_uint_name_fn names,
		   struct dns_uint_match *out);
bool dns_uint_match(const struct dns_uint_match *m, uint32_t v);

/* The three integer keywords. parse: 0 or -1. */
int dns_kw_opcode_parse(const char *s, struct dns_uint_match *out);
int dns_kw_rcode_parse(const char *s, struct dns_uint_match *out);
int dns_kw_rrtype_parse(const char *s, struct dns_uint_match *out);
/* Match on tx's message of direction dir; false if it has none. */
bool dns_kw_opcode_match(const struct dns_tx *tx, enum dns_dir dir,
			 const struct dns_uint_match *m);
bool dns_kw_rcode_match(const struct dns_tx *tx, enum dns_dir dir,
			const struct dns_uint_match *m);
bool dns_kw_rrtype_match(const struct dns_tx *tx, enum dns_dir dir,
			 const struct dns_uint_match *m);

#endif
