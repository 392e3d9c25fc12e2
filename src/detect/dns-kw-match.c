/* DNS keyword buffers and integer matchers: see dns-kw-match.h. */
#include "detect/dns-kw-match.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	enum dns_kw_buf buf;
} kw_names[] = {
	{ "dns.query", DNS_KW_QUERY },
	{ "dns_query", DNS_KW_QUERY },
	{ "dns.queries.rrname", DNS_KW_QUERIES_RRNAME },
	{ "dns.answers.rrname", DNS_KW_ANSWERS_RRNAME },
	{ "dns.authorities.rrname", DNS_KW_AUTHORITIES_RRNAME },
	{ "dns.additionals.rrname", DNS_KW_ADDITIONALS_RRNAME },
	{ "dns.response.rrname", DNS_KW_RESPONSE_RRNAME },
};

int dns_kw_buf_by_name(const char *keyword)
{
	for (size_t i = 0; i < sizeof(kw_names) / sizeof(kw_names[0]); i++)
		if (strcmp(kw_names[i].name, keyword) == 0)
			return kw_names[i].buf;
	return -1;
}

bool dns_kw_buf_dir_ok(enum dns_kw_buf b, enum dns_dir dir)
{
	if (b == DNS_KW_QUERY)
		return dir == DNS_DIR_TOSERVER;
	if (b == DNS_KW_RESPONSE_RRNAME)
		return dir == DNS_DIR_TOCLIENT;
	return (unsigned)b < DNS_KW_BUF_MAX;
}

static bool put_name(const struct dns_name *n, const uint8_t **data, uint32_t *len)
{
	/* an empty name still is a buffer: the root */
	*data = n->s.ptr;
	*len = n->s.len;
	return true;
}

/* Names in a record's rdata, in wire order. */
static uint32_t rdata_names(const struct dns_rr *rr, const struct dns_name **v)
{
	switch (rr->kind) {
	case DNS_RD_NAME:
		v[0] = &rr->rd.name;
		return 1;
	case DNS_RD_SOA:
		v[0] = &rr->rd.soa.mname;
		v[1] = &rr->rd.soa.rname;
		return 2;
	case DNS_RD_SRV:
		v[0] = &rr->rd.srv.target;
		return 1;
	default:
		return 0;
	}
}

static bool response_rrname(const struct dns_msg *m, uint32_t i,
			    const uint8_t **data, uint32_t *len)
{
	if (i < m->nqueries)
		return put_name(&m->queries[i].name, data, len);
	i -= m->nqueries;
	for (int sec = 0; sec < DNS_SEC_MAX; sec++) {
		for (uint32_t k = 0; k < m->nrrs[sec]; k++) {
			const struct dns_rr *rr = &m->rrs[sec][k];
			const struct dns_name *names[2];
			uint32_t n = rdata_names(rr, names);

			if (i == 0)
				return put_name(&rr->name, data, len);
			i--;
			if (i < n)
				return put_name(names[i], data, len);
			i -= n;
		}
	}
	return false;
}

bool dns_kw_buf_get(const struct dns_tx *tx, enum dns_dir dir, enum dns_kw_buf b,
		    uint32_t i, const uint8_t **data, uint32_t *len)
{
	const struct dns_msg *m = dns_tx_msg(tx, dir);
	enum dns_section sec;

	if (!m || !dns_kw_buf_dir_ok(b, dir))
		return false;
	switch (b) {
	case DNS_KW_QUERY:
	case DNS_KW_QUERIES_RRNAME:
		if (i >= m->nqueries)
			return false;
		return put_name(&m->queries[i].name, data, len);
	case DNS_KW_ANSWERS_RRNAME:
		sec = DNS_SEC_ANSWER;
		break;
	case DNS_KW_AUTHORITIES_RRNAME:
		sec = DNS_SEC_AUTHORITY;
		break;
	case DNS_KW_ADDITIONALS_RRNAME:
		sec = DNS_SEC_ADDITIONAL;
		break;
	case DNS_KW_RESPONSE_RRNAME:
		return response_rrname(m, i, data, len);
	default:
		return false;
	}
	if (i >= m->nrrs[sec])
		return false;
	return put_name(&m->rrs[sec][i].name, data, len);
}

/* ---------------------------------------------------------------------
 * Integers */

static const char *skip_ws(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* A number or (with names) a name, up to the first char of stop; *s moves
 * past it. */
static int parse_value(const char **s, uint32_t max, dns_uint_name_fn names,
		       uint32_t *out)
{
	const char *p = skip_ws(*s);

	if (isdigit((unsigned char)*p)) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(p, &end, 10);
		if (errno || v > max)
			return -1;
		*out = (uint32_t)v;
		*s = end;
		return 0;
	}
	if (!names)
		return -1;
	char word[32];
	size_t n = 0;

	while ((isalnum((unsigned char)p[n]) || p[n] == '_') && n < sizeof(word) - 1) {
		word[n] = p[n];
		n++;
	}
	if (n == 0 || isalnum((unsigned char)p[n]))
		return -1;
	word[n] = 0;
	int v = names(word);

	if (v < 0 || (uint32_t)v > max)
		return -1;
	*out = (uint32_t)v;
	*s = p + n;
	return 0;
}

int dns_uint_parse(const char *s, uint32_t max, dns_uint_name_fn names,
		   struct dns_uint_match *out)
{
	bool neg = false;

	memset(out, 0, sizeof(*out));
	s = skip_ws(s);
	if (*s == '!') {
		neg = true;
		s++;
	} else if (*s == '<' || *s == '>') {
		bool lt = *s == '<';
		bool eq = s[1] == '=';

		s += eq ? 2 : 1;
		if (parse_value(&s, max, names, &out->a) < 0)
			return -1;
		out->op = lt ? (eq ? DNS_UINT_LE : DNS_UINT_LT)
			     : (eq ? DNS_UINT_GE : DNS_UINT_GT);
		return *skip_ws(s) ? -1 : 0;
	}
	if (parse_value(&s, max, names, &out->a) < 0)
		return -1;
	s = skip_ws(s);
	if (*s == '-' || (s[0] == '<' && s[1] == '>')) {
		s += *s == '-' ? 1 : 2;
		if (parse_value(&s, max, names, &out->b) < 0 || out->a >= out->b)
			return -1;
		out->op = neg ? DNS_UINT_NOTRANGE : DNS_UINT_RANGE;
	} else {
		out->op = neg ? DNS_UINT_NE : DNS_UINT_EQ;
	}
	return *skip_ws(s) ? -1 : 0;
}

bool dns_uint_match(const struct dns_uint_match *m, uint32_t v)
{
	switch (m->op) {
	case DNS_UINT_EQ:
		return v == m->a;
	case DNS_UINT_NE:
		return v != m->a;
	case DNS_UINT_LT:
		return v < m->a;
	case DNS_UINT_LE:
		return v <= m->a;
	case DNS_UINT_GT:
		return v > m->a;
	case DNS_UINT_GE:
		return v >= m->a;
	case DNS_UINT_RANGE:
		return v > m->a && v < m->b;
	case DNS_UINT_NOTRANGE:
		return !(v > m->a && v < m->b);
	}
	return false;
}

int dns_kw_opcode_parse(const char *s, struct dns_uint_match *out)
{
	return dns_uint_parse(s, 255, NULL, out);
}

int dns_kw_rcode_parse(const char *s, struct dns_uint_match *out)
{
	return dns_uint_parse(s, 255, dns_rcode_by_name, out);
}

int dns_kw_rrtype_parse(const char *s, struct dns_uint_match *out)
{
	return dns_uint_parse(s, 65535, dns_rrtype_by_name, out);
}

bool dns_kw_opcode_match(const struct dns_tx *tx, enum dns_dir dir,
			 const struct dns_uint_match *m)
{
	const struct dns_msg *msg = dns_tx_msg(tx, dir);

	return msg && dns_uint_match(m, msg->opcode);
}

bool dns_kw_rcode_match(const struct dns_tx *tx, enum dns_dir dir,
			const struct dns_uint_match *m)
{
	const struct dns_msg *msg = dns_tx_msg(tx, dir);

	return msg && dns_uint_match(m, msg->rcode);
}

bool dns_kw_rrtype_match(const struct dns_tx *tx, enum dns_dir dir,
			 const struct dns_uint_match *m)
{
	const struct dns_msg *msg = dns_tx_msg(tx, dir);

	if (!msg)
		return false;
	for (uint32_t i = 0; i < msg->nqueries; i++)
		if (dns_uint_match(m, msg->queries[i].rrtype))
			return true;
	return false;
}
