/* LDAP keywords, as Suricata 8 documents them (rules/ldap-keywords): the
 * sticky buffers ldap.request.dn, ldap.responses.dn,
 * ldap.responses.message, ldap.request.attribute_type and
 * ldap.responses.attribute_type (the responses' are multi-buffers, one
 * entry per response or attribute), and the transaction properties
 * ldap.request.operation, ldap.responses.operation and
 * ldap.responses.result_code (an enumerated integer: "[!]name" or the
 * integer syntax, and for the responses an index: a number, negative from
 * the last, "any" (the default) or "all")
 * and ldap.responses.count (a number comparison). */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/buffers.h"
#include "app-layer/ldap.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NEEDS "an ldap, tcp, udp or ip"

static int kw_ldap_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	return sig_app_sticky(st, kw, ALPROTO_LDAP, 1, NEEDS);
}

/* ---- buffers ---- */

static int give(const LdapMsg *m, const LdapSlice *s, const uint8_t **data, uint32_t *len)
{
	if (!s->present)
		return -1;
	*data = ldap_at(m, s);
	*len = s->len;
	return 0;
}

/* The attribute types a message names, entry idx of them: 0 or -1. */
static int attr_type(const LdapMsg *m, uint32_t idx, const uint8_t **data, uint32_t *len)
{
	BerCur c, vals;
	int64_t op;
	uint32_t i = 0;

	if (m->op == LDAP_OP_COMPARE_REQUEST)
		return idx == 0 ? give(m, &m->name, data, len) : -1;
	ldap_list_cursor(m, &c);
	for (;;) {
		int r;

		switch (m->op) {
		case LDAP_OP_SEARCH_REQUEST:
			r = ldap_val_next(&c, data, len);
			break;
		case LDAP_OP_ADD_REQUEST:
		case LDAP_OP_SEARCH_RESULT_ENTRY:
			r = ldap_attr_next(&c, data, len, &vals);
			break;
		case LDAP_OP_MODIFY_REQUEST:
			r = ldap_change_next(&c, &op, data, len, &vals);
			break;
		default:
			return -1;
		}
		if (r < 0)
			return -1;
		if (i++ == idx)
			return 0;
	}
}

int ldap_buffer_get(const DetectBuffer *b, void *txp, int side, uint32_t idx,
		    const uint8_t **data, uint32_t *len)
{
	const LdapTx *tx = txp;
	uint32_t n = 0;

	switch (b->pbuf[side & 1]) {
	case LDAP_KW_BUF_REQUEST_DN:
		return tx->has_request && idx == 0 ? give(&tx->request, &tx->request.dn, data, len)
						   : -1;
	case LDAP_KW_BUF_REQUEST_ATTR:
		return tx->has_request ? attr_type(&tx->request, idx, data, len) : -1;
	case LDAP_KW_BUF_RESPONSES_DN:
	case LDAP_KW_BUF_RESPONSES_MSG:
		/* entry idx among the responses that have one */
		for (uint32_t i = 0; i < tx->nresponses; i++) {
			const LdapMsg *m = &tx->responses[i];
			const LdapSlice *s = b->pbuf[side & 1] == LDAP_KW_BUF_RESPONSES_DN ? &m->dn
											: &m->message;

			if (s->present && n++ == idx)
				return give(m, s, data, len);
		}
		return -1;
	case LDAP_KW_BUF_RESPONSES_ATTR:
		for (uint32_t i = 0; i < tx->nresponses; i++) {
			const uint8_t *d;
			uint32_t l;

			for (uint32_t k = 0; attr_type(&tx->responses[i], k, &d, &l) == 0; k++)
				if (n++ == idx) {
					*data = d;
					*len = l;
					return 0;
				}
		}
		return -1;
	}
	return -1;
}

/* ---- operation, result_code, count ---- */

enum ldap_kind { LK_REQ_OP, LK_RESP_OP, LK_RESP_COUNT, LK_RESP_RESULT };
enum { IDX_ANY, IDX_ALL, IDX_AT };

typedef struct DetectLdap {
	int kind;
	DetectUint u;               /* the operation or result code */
	int idx_mode;
	int32_t idx;                /* IDX_AT: negative counts from the last */
	DetectUint count;
} DetectLdap;

static int parse_index(char *s, DetectLdap *d)
{
	char *end;
	long v;

	s = str_trim(s);
	if (strcmp(s, "any") == 0) {
		d->idx_mode = IDX_ANY;
		return 0;
	}
	if (strcmp(s, "all") == 0) {
		d->idx_mode = IDX_ALL;
		return 0;
	}
	v = strtol(s, &end, 10);
	if (end == s || *end || v < -65536 || v > 65535)
		return -1;
	d->idx_mode = IDX_AT;
	d->idx = (int32_t)v;
	return 0;
}

/* The operation and result names of Suricata's LDAP page (ldap.h); a
 * number is the integer syntax's. */
static int64_t op_by_name(const char *name)
{
	return ldap_op_by_name(name);
}

static int64_t result_by_name(const char *name)
{
	return ldap_result_by_name(name);
}

static int kw_ldap_match(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectLdap *d = calloc(1, sizeof(*d));
	char buf[128], *parts[3];
	int n;

	if (!d)
		return sig_error(st, "out of memory");
	d->kind = kw->buf;
	if (d->kind == LK_RESP_COUNT) {
		if (parse_uint_cmp(arg ? arg : "", UINT32_MAX, &d->count) < 0)
			goto bad;
	} else {
		n = sig_split_arg(st, kw->name, arg ? arg : "", buf, sizeof(buf), parts, 3);
		if (n < 0) {
			free(d);
			return -1;
		}
		if (n < 1 || (d->kind == LK_REQ_OP && n != 1) || n > 2)
			goto bad;
		if (parse_uint_enum(parts[0], d->kind == LK_RESP_RESULT ? UINT32_MAX : 255,
				    d->kind == LK_RESP_RESULT ? result_by_name : op_by_name, &d->u) < 0 ||
		    (n == 2 && parse_index(parts[1], d) < 0))
			goto bad;
	}
	if (sig_set_alproto_for(st, kw->name, ALPROTO_LDAP, 1, NEEDS)) {
		free(d);
		return -1;
	}
	st->s->flags |= SIG_FLAG_TX_MATCH;
	return sm_append(st, SM_LIST_MATCH, KW_LDAP_MATCH, d) < 0 ? -1 : 0;
bad:
	free(d);
	return sig_error(st, "invalid %s \"%s\"", kw->name, arg ? arg : "");
}

static int resp_value(const DetectLdap *d, const LdapMsg *m)
{
	if (d->kind == LK_RESP_OP)
		return detect_uint_match(&d->u, m->op);
	return m->has_result && detect_uint_match(&d->u, m->result_code);
}

static int match_ldap(const DetectTx *tc, const SigMatch *sm, Packet *p)
{
	const DetectLdap *d = sm->ctx;
	const LdapTx *tx = tc->tx;
	uint32_t n;

	if (!tx || !p->flow || p->flow->app_proto != ALPROTO_LDAP)
		return 0;
	n = tx->nresponses;
	if (d->kind == LK_REQ_OP)
		return tc->side == APP_DIR_TOSERVER && tx->has_request &&
		       detect_uint_match(&d->u, tx->request.op);
	if (tc->side != APP_DIR_TOCLIENT)
		return 0;
	if (d->kind == LK_RESP_COUNT)
		return detect_uint_match(&d->count, n);
	if (!n)
		return 0;
	switch (d->idx_mode) {
	case IDX_AT: {
		int64_t i = d->idx < 0 ? (int64_t)n + d->idx : d->idx;

		return i >= 0 && i < n && resp_value(d, &tx->responses[i]);
	}
	case IDX_ALL:
		for (uint32_t i = 0; i < n; i++)
			if (!resp_value(d, &tx->responses[i]))
				return 0;
		return 1;
	}
	for (uint32_t i = 0; i < n; i++)
		if (resp_value(d, &tx->responses[i]))
			return 1;
	return 0;
}

#define LDAPB(n_, b_) { .name = n_, .id = KW_LDAP_STICKY, .setup = kw_ldap_sticky, \
	.flags = STICKY, .buf = b_, .desc = "sticky buffer" }
#define LDAPM(n_, k_, d_) { .name = n_, .id = KW_LDAP_MATCH, .setup = kw_ldap_match, \
	.flags = NEED | SQ | KWF_TX, .buf = k_, .desc = d_, .tx_match = match_ldap }

const Keyword ldap_keywords[] = {
	LDAPB("ldap.request.dn", BUF_LDAP_REQUEST_DN),
	LDAPB("ldap.responses.dn", BUF_LDAP_RESPONSES_DN),
	LDAPB("ldap.responses.message", BUF_LDAP_RESPONSES_MESSAGE),
	LDAPB("ldap.request.attribute_type", BUF_LDAP_REQUEST_ATTRIBUTE_TYPE),
	LDAPB("ldap.responses.attribute_type", BUF_LDAP_RESPONSES_ATTRIBUTE_TYPE),
	LDAPM("ldap.request.operation", LK_REQ_OP, "ldap request operation"),
	LDAPM("ldap.responses.operation", LK_RESP_OP, "ldap response operation[,index]"),
	LDAPM("ldap.responses.count", LK_RESP_COUNT, "number of ldap responses"),
	LDAPM("ldap.responses.result_code", LK_RESP_RESULT, "ldap result code[,index]"),
	{ .name = NULL }
};
