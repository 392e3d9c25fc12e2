/* LDAP message decoding (ldap.h), on the BER cursor of util/ber.h. Only
 * what eve and the keywords show is read; the rest of an operation (a
 * search filter, controls) is skipped whole. */
#include "app-layer/ldap.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const op_names[LDAP_OP_MAX] = {
	[LDAP_OP_BIND_REQUEST] = "bind_request",
	[LDAP_OP_BIND_RESPONSE] = "bind_response",
	[LDAP_OP_UNBIND_REQUEST] = "unbind_request",
	[LDAP_OP_SEARCH_REQUEST] = "search_request",
	[LDAP_OP_SEARCH_RESULT_ENTRY] = "search_result_entry",
	[LDAP_OP_SEARCH_RESULT_DONE] = "search_result_done",
	[LDAP_OP_MODIFY_REQUEST] = "modify_request",
	[LDAP_OP_MODIFY_RESPONSE] = "modify_response",
	[LDAP_OP_ADD_REQUEST] = "add_request",
	[LDAP_OP_ADD_RESPONSE] = "add_response",
	[LDAP_OP_DEL_REQUEST] = "del_request",
	[LDAP_OP_DEL_RESPONSE] = "del_response",
	[LDAP_OP_MOD_DN_REQUEST] = "mod_dn_request",
	[LDAP_OP_MOD_DN_RESPONSE] = "mod_dn_response",
	[LDAP_OP_COMPARE_REQUEST] = "compare_request",
	[LDAP_OP_COMPARE_RESPONSE] = "compare_response",
	[LDAP_OP_ABANDON_REQUEST] = "abandon_request",
	[LDAP_OP_SEARCH_RESULT_REFERENCE] = "search_result_reference",
	[LDAP_OP_EXTENDED_REQUEST] = "extended_request",
	[LDAP_OP_EXTENDED_RESPONSE] = "extended_response",
	[LDAP_OP_INTERMEDIATE_RESPONSE] = "intermediate_response",
};

const char *ldap_op_name(unsigned op)
{
	return op < LDAP_OP_MAX ? op_names[op] : NULL;
}

int ldap_op_by_name(const char *s)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	for (int i = 0; i < LDAP_OP_MAX; i++)
		if (op_names[i] && strcasecmp(op_names[i], s) == 0)
			return i;
	v = strtol(s, &end, 10);
	if (*end || v < 0 || v >= LDAP_OP_MAX || !op_names[v])
		return -1;
	return (int)v;
}

int ldap_op_is_request(unsigned op)
{
	switch (op) {
	case LDAP_OP_BIND_REQUEST:
	case LDAP_OP_UNBIND_REQUEST:
	case LDAP_OP_SEARCH_REQUEST:
	case LDAP_OP_MODIFY_REQUEST:
	case LDAP_OP_ADD_REQUEST:
	case LDAP_OP_DEL_REQUEST:
	case LDAP_OP_MOD_DN_REQUEST:
	case LDAP_OP_COMPARE_REQUEST:
	case LDAP_OP_ABANDON_REQUEST:
	case LDAP_OP_EXTENDED_REQUEST:
		return 1;
	}
	return 0;
}

/* RFC 4511 section 4.1.9 and the IANA registry, snake case */
static const struct {
	int code;
	const char *name;
} results[] = {
	{ 0, "success" },
	{ 1, "operations_error" },
	{ 2, "protocol_error" },
	{ 3, "time_limit_exceeded" },
	{ 4, "size_limit_exceeded" },
	{ 5, "compare_false" },
	{ 6, "compare_true" },
	{ 7, "auth_method_not_supported" },
	{ 8, "stronger_auth_required" },
	{ 10, "referral" },
	{ 11, "admin_limit_exceeded" },
	{ 12, "unavailable_critical_extension" },
	{ 13, "confidentiality_required" },
	{ 14, "sasl_bind_in_progress" },
	{ 16, "no_such_attribute" },
	{ 17, "undefined_attribute_type" },
	{ 18, "inappropriate_matching" },
	{ 19, "constraint_violation" },
	{ 20, "attribute_or_value_exists" },
	{ 21, "invalid_attribute_syntax" },
	{ 32, "no_such_object" },
	{ 33, "alias_problem" },
	{ 34, "invalid_dns_syntax" },
	{ 35, "is_leaf" },
	{ 36, "alias_dereferencing_problem" },
	{ 48, "inappropriate_authentication" },
	{ 49, "invalid_credentials" },
	{ 50, "insufficient_access_rights" },
	{ 51, "busy" },
	{ 52, "unavailable" },
	{ 53, "unwilling_to_perform" },
	{ 54, "loop_detect" },
	{ 64, "naming_violation" },
	{ 65, "object_class_violation" },
	{ 66, "not_allowed_on_non_leaf" },
	{ 67, "not_allowed_on_rdn" },
	{ 68, "entry_already_exists" },
	{ 69, "object_class_mods_prohibited" },
	{ 71, "affects_multiple_dsas" },
	{ 80, "other" },
};

const char *ldap_result_name(int64_t code)
{
	for (size_t i = 0; i < sizeof(results) / sizeof(results[0]); i++)
		if (results[i].code == code)
			return results[i].name;
	return NULL;
}

int64_t ldap_result_by_name(const char *s)
{
	char *end;
	long long v;

	if (!s || !*s)
		return -1;
	for (size_t i = 0; i < sizeof(results) / sizeof(results[0]); i++)
		if (strcasecmp(results[i].name, s) == 0)
			return results[i].code;
	v = strtoll(s, &end, 10);
	if (*end || v < 0 || v > UINT32_MAX)
		return -1;
	return v;
}

static const char *const ev_names[LDAP_EV_COUNT] = {
	[LDAP_EV_TOO_MANY_TRANSACTIONS] = "too_many_transactions",
	[LDAP_EV_INVALID_DATA] = "invalid_data",
	[LDAP_EV_REQUEST_NOT_FOUND] = "request_not_found",
};

const char *ldap_event_name(int ev)
{
	return ev >= 0 && ev < LDAP_EV_COUNT ? ev_names[ev] : NULL;
}

int ldap_event_by_name(const char *name)
{
	for (int i = 0; i < LDAP_EV_COUNT; i++)
		if (strcasecmp(ev_names[i], name) == 0)
			return i;
	return -1;
}

/* ---------------- decoding ---------------- */

#define UNIV BER_CLASS_UNIVERSAL
#define CTX BER_CLASS_CONTEXT
#define T_BOOL 1
#define T_INT 2
#define T_OCTETS 4
#define T_ENUM 10
#define T_SEQ 16

static void slice(const LdapMsg *m, const BerElem *e, LdapSlice *s)
{
	s->off = (uint32_t)(e->content - m->raw);
	s->len = e->avail;
	s->present = 1;
}

/* The next element as a (cls, tag) string into s: 0 or -1. */
static int str(const LdapMsg *m, BerCur *c, uint8_t cls, uint32_t tag, LdapSlice *s)
{
	BerElem e;

	if (ber_next_tag(c, cls, tag, &e) < 0)
		return -1;
	slice(m, &e, s);
	return 0;
}

static int num(BerCur *c, uint32_t tag, int64_t *v)
{
	BerElem e;

	if (ber_next_tag(c, UNIV, tag, &e) < 0)
		return -1;
	return ber_int(&e, v);
}

/* LDAPResult: resultCode, matchedDN, diagnosticMessage (referral and the
 * rest left) */
static int result(LdapMsg *m, BerCur *c)
{
	if (num(c, T_ENUM, &m->result_code) < 0 || str(m, c, UNIV, T_OCTETS, &m->dn) < 0 ||
	    str(m, c, UNIV, T_OCTETS, &m->message) < 0)
		return -1;
	m->has_result = 1;
	return 0;
}

static int op_decode(LdapMsg *m, const BerElem *op)
{
	BerCur c;
	BerElem e;
	int b;

	ber_cur_into(&c, op);
	switch (op->tag) {
	case LDAP_OP_BIND_REQUEST:
		if (num(&c, T_INT, &m->num[0]) < 0 || str(m, &c, UNIV, T_OCTETS, &m->dn) < 0)
			return -1;
		if (ber_next_tag(&c, CTX, 3, &e) == 0) {
			BerCur s;

			ber_cur_into(&s, &e);
			m->flag = 1;
			if (str(m, &s, UNIV, T_OCTETS, &m->name) < 0)
				return -1;
			str(m, &s, UNIV, T_OCTETS, &m->value);
		}
		return 0;
	case LDAP_OP_SEARCH_REQUEST:
		if (str(m, &c, UNIV, T_OCTETS, &m->dn) < 0 || num(&c, T_ENUM, &m->num[0]) < 0 ||
		    num(&c, T_ENUM, &m->num[1]) < 0 || num(&c, T_INT, &m->num[2]) < 0 ||
		    num(&c, T_INT, &m->num[3]) < 0 || ber_next_tag(&c, UNIV, T_BOOL, &e) < 0 ||
		    ber_bool(&e, &b) < 0)
			return -1;
		m->flag = (uint8_t)b;
		/* the filter, whatever its form */
		if (ber_next(&c, &e) < 0)
			return -1;
		return str(m, &c, UNIV, T_SEQ, &m->list);
	case LDAP_OP_SEARCH_RESULT_ENTRY:
	case LDAP_OP_ADD_REQUEST:
	case LDAP_OP_MODIFY_REQUEST:
		if (str(m, &c, UNIV, T_OCTETS, &m->dn) < 0)
			return -1;
		return str(m, &c, UNIV, T_SEQ, &m->list);
	case LDAP_OP_DEL_REQUEST:
		/* [APPLICATION 10] LDAPDN, primitive */
		if (op->constructed)
			return -1;
		slice(m, op, &m->dn);
		return 0;
	case LDAP_OP_MOD_DN_REQUEST:
		if (str(m, &c, UNIV, T_OCTETS, &m->dn) < 0 ||
		    str(m, &c, UNIV, T_OCTETS, &m->name) < 0 ||
		    ber_next_tag(&c, UNIV, T_BOOL, &e) < 0 || ber_bool(&e, &b) < 0)
			return -1;
		m->flag = (uint8_t)b;
		str(m, &c, CTX, 0, &m->value);
		return 0;
	case LDAP_OP_COMPARE_REQUEST:
		if (str(m, &c, UNIV, T_OCTETS, &m->dn) < 0 || ber_next_tag(&c, UNIV, T_SEQ, &e) < 0)
			return -1;
		ber_cur_into(&c, &e);
		if (str(m, &c, UNIV, T_OCTETS, &m->name) < 0 ||
		    str(m, &c, UNIV, T_OCTETS, &m->value) < 0)
			return -1;
		return 0;
	case LDAP_OP_ABANDON_REQUEST:
		if (op->constructed)
			return -1;
		return ber_int(op, &m->num[0]);
	case LDAP_OP_UNBIND_REQUEST:
		return 0;
	case LDAP_OP_EXTENDED_REQUEST:
		if (str(m, &c, CTX, 0, &m->name) < 0)
			return -1;
		str(m, &c, CTX, 1, &m->value);
		return 0;
	case LDAP_OP_INTERMEDIATE_RESPONSE:
		str(m, &c, CTX, 0, &m->name);
		str(m, &c, CTX, 1, &m->value);
		return 0;
	case LDAP_OP_SEARCH_RESULT_REFERENCE:
		return 0;
	case LDAP_OP_BIND_RESPONSE:
		if (result(m, &c) < 0)
			return -1;
		ber_next_tag(&c, CTX, 3, &e); /* a referral */
		str(m, &c, CTX, 7, &m->value);
		return 0;
	case LDAP_OP_EXTENDED_RESPONSE:
		if (result(m, &c) < 0)
			return -1;
		ber_next_tag(&c, CTX, 3, &e);
		str(m, &c, CTX, 10, &m->name);
		str(m, &c, CTX, 11, &m->value);
		return 0;
	case LDAP_OP_SEARCH_RESULT_DONE:
	case LDAP_OP_MODIFY_RESPONSE:
	case LDAP_OP_ADD_RESPONSE:
	case LDAP_OP_DEL_RESPONSE:
	case LDAP_OP_MOD_DN_RESPONSE:
	case LDAP_OP_COMPARE_RESPONSE:
		return result(m, &c);
	}
	return -1;
}

int ldap_msg_decode(const uint8_t *buf, uint32_t len, LdapMsg *m)
{
	BerCur c;
	BerElem e, op;

	memset(m, 0, sizeof(*m));
	ber_cur_init(&c, buf, len);
	if (ber_next_tag(&c, UNIV, T_SEQ, &e) < 0 || !e.constructed)
		return -1;
	m->raw = malloc(len ? len : 1);
	if (!m->raw)
		return -1;
	memcpy(m->raw, buf, len);
	m->raw_len = len;
	/* the same element in the copy */
	ber_cur_init(&c, m->raw, len);
	ber_next(&c, &e);
	ber_cur_into(&c, &e);
	if (num(&c, T_INT, &m->id) < 0 || ber_next(&c, &op) < 0 ||
	    op.cls != BER_CLASS_APPLICATION || !ldap_op_name(op.tag))
		goto bad;
	m->op = (uint8_t)op.tag;
	if (op_decode(m, &op) < 0)
		goto bad;
	return 0;
bad:
	ldap_msg_free(m);
	return -1;
}

void ldap_msg_free(LdapMsg *m)
{
	free(m->raw);
	memset(m, 0, sizeof(*m));
}

void ldap_list_cursor(const LdapMsg *m, BerCur *c)
{
	if (m->list.present)
		ber_cur_init(c, m->raw + m->list.off, m->list.len);
	else
		ber_cur_init(c, NULL, 0);
}

int ldap_val_next(BerCur *c, const uint8_t **v, uint32_t *vlen)
{
	BerElem e;

	if (ber_next(c, &e) < 0)
		return -1;
	*v = e.content;
	*vlen = e.avail;
	return 0;
}

int ldap_attr_next(BerCur *c, const uint8_t **type, uint32_t *tlen, BerCur *vals)
{
	BerElem e, t, s;
	BerCur in;

	if (ber_next_tag(c, UNIV, T_SEQ, &e) < 0)
		return -1;
	ber_cur_into(&in, &e);
	if (ber_next_tag(&in, UNIV, T_OCTETS, &t) < 0)
		return -1;
	*type = t.content;
	*tlen = t.avail;
	/* vals: a SET OF values (17) */
	if (ber_next(&in, &s) < 0)
		ber_cur_init(vals, NULL, 0);
	else
		ber_cur_into(vals, &s);
	return 0;
}

int ldap_change_next(BerCur *c, int64_t *op, const uint8_t **type, uint32_t *tlen,
		     BerCur *vals)
{
	BerElem e;
	BerCur in;

	if (ber_next_tag(c, UNIV, T_SEQ, &e) < 0)
		return -1;
	ber_cur_into(&in, &e);
	if (num(&in, T_ENUM, op) < 0)
		return -1;
	return ldap_attr_next(&in, type, tlen, vals);
}
