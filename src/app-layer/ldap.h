/* LDAP (RFC 4511) over TCP and UDP (CLDAP): the parser's view, for
 * detection (detect/ldap-kw.c) and eve (output/ldap-json.c).
 *
 * Transactions are Suricata 8's: a request and the responses that carry
 * its message id (a search's entries, references and its done); a
 * response no request is waiting for (an unsolicited notice of
 * disconnection) is a transaction of its own. Unbind and abandon requests
 * have no response and are complete at once. Each message keeps a copy of
 * its bytes; what eve and the keywords show are slices of it. */
#ifndef APP_LAYER_LDAP_H
#define APP_LAYER_LDAP_H

#include "app-layer/txlist.h"
#include "util/ber.h"

#include <stdint.h>

/* protocolOp: the tag of its [APPLICATION n] choice */
enum ldap_op {
	LDAP_OP_BIND_REQUEST = 0,
	LDAP_OP_BIND_RESPONSE = 1,
	LDAP_OP_UNBIND_REQUEST = 2,
	LDAP_OP_SEARCH_REQUEST = 3,
	LDAP_OP_SEARCH_RESULT_ENTRY = 4,
	LDAP_OP_SEARCH_RESULT_DONE = 5,
	LDAP_OP_MODIFY_REQUEST = 6,
	LDAP_OP_MODIFY_RESPONSE = 7,
	LDAP_OP_ADD_REQUEST = 8,
	LDAP_OP_ADD_RESPONSE = 9,
	LDAP_OP_DEL_REQUEST = 10,
	LDAP_OP_DEL_RESPONSE = 11,
	LDAP_OP_MOD_DN_REQUEST = 12,
	LDAP_OP_MOD_DN_RESPONSE = 13,
	LDAP_OP_COMPARE_REQUEST = 14,
	LDAP_OP_COMPARE_RESPONSE = 15,
	LDAP_OP_ABANDON_REQUEST = 16,
	LDAP_OP_SEARCH_RESULT_REFERENCE = 19,
	LDAP_OP_EXTENDED_REQUEST = 23,
	LDAP_OP_EXTENDED_RESPONSE = 24,
	LDAP_OP_INTERMEDIATE_RESPONSE = 25,
	LDAP_OP_MAX = 26,
};

/* Suricata 8's names (eve "operation", ldap.*.operation), NULL for a tag
 * that is no operation. */
const char *ldap_op_name(unsigned op);
/* The op by name or number ("search_request", "3"), or -1. */
int ldap_op_by_name(const char *s);
/* 1: an operation a client sends */
int ldap_op_is_request(unsigned op);
/* The result code's name ("success", "size_limit_exceeded"), or NULL. */
const char *ldap_result_name(int64_t code);
/* The result code by name or number, or -1. */
int64_t ldap_result_by_name(const char *s);

typedef struct LdapSlice {
	uint32_t off, len;
	uint8_t present;
} LdapSlice;

/* One message. Which members an operation sets:
 *  dn: the request's object (bind name, search base, add / del / modify /
 *      mod_dn / compare entry), a search_result_entry's object name, a
 *      result's matched DN;
 *  message: a result's diagnostic message; result_code: a result's code
 *      (has_result);
 *  name/value: bind sasl mechanism/credentials (flag: sasl), bind
 *      response server_sasl_creds (value), extended and intermediate
 *      name/value, mod_dn new_rdn/new_superior, compare description/value;
 *  num[]: bind version (0); search scope, deref, size and time limits
 *      (0-3); abandon's message id (0);
 *  flag: search types_only, mod_dn delete_old_rdn, bind sasl;
 *  list: the content of the search's attribute list, an entry's, an add's
 *      attributes, a modify's changes (ldap_attr_next, ldap_change_next). */
typedef struct LdapMsg {
	uint8_t *raw;
	uint32_t raw_len;
	int64_t id;
	uint8_t op;
	uint8_t has_result;
	uint8_t flag;
	int64_t result_code;
	int64_t num[4];
	LdapSlice dn, message, name, value, list;
} LdapMsg;

static inline const uint8_t *ldap_at(const LdapMsg *m, const LdapSlice *s)
{
	return m->raw + s->off;
}

/* Decodes one LDAPMessage (its whole element) into m, which owns a copy:
 * 0, or -1 when it is not one (m is then empty). */
int ldap_msg_decode(const uint8_t *buf, uint32_t len, LdapMsg *m);
void ldap_msg_free(LdapMsg *m);

/* Lists: a cursor over m->list. ldap_attr_next: the next attribute
 * (type, and a cursor over its values); ldap_val_next: the next value;
 * ldap_change_next: a modify change (operation number, then the same as an
 * attribute). -1 at the end. For search requests the list is of strings:
 * ldap_val_next. */
void ldap_list_cursor(const LdapMsg *m, BerCur *c);
int ldap_attr_next(BerCur *c, const uint8_t **type, uint32_t *tlen, BerCur *vals);
int ldap_val_next(BerCur *c, const uint8_t **v, uint32_t *vlen);
int ldap_change_next(BerCur *c, int64_t *op, const uint8_t **type, uint32_t *tlen,
		     BerCur *vals);

/* events (app-layer-event:ldap.<name>) */
enum ldap_event {
	LDAP_EV_TOO_MANY_TRANSACTIONS = 0,
	LDAP_EV_INVALID_DATA,
	LDAP_EV_REQUEST_NOT_FOUND,
	LDAP_EV_COUNT
};
const char *ldap_event_name(int ev);
int ldap_event_by_name(const char *name);

typedef struct LdapTx {
	AppTx base;
	uint8_t has_request;
	LdapMsg request;
	LdapMsg *responses;
	uint32_t nresponses, cap;
} LdapTx;

#endif
