/* The eve "ldap" object of an LDAP transaction, as Suricata 8 writes it
 * (schema: eve-schema.json "ldap"): request {message_id, operation, and
 * the operation's object}, responses [{message_id, operation, ...}]. */
#ifndef OUTPUT_LDAP_JSON_H
#define OUTPUT_LDAP_JSON_H

#include "app-layer/ldap.h"

#include <jansson.h>

struct JsonWriter;
void ldap_json_write(struct JsonWriter *w, const LdapTx *tx);
/* The same as a tree, for tests; the caller owns it. */
json_t *ldap_json_object(const LdapTx *tx);

#endif
