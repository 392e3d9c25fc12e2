/* The eve "krb5" object of a Kerberos 5 message, as Suricata 8 writes it
 * (schema: eve-schema.json "krb5"): msg_type (for an error: KRB_ERROR,
 * failed_request, error_code), cname, realm, sname ("<empty>" when
 * absent), encryption ("<none>" outside replies), weak_encryption, and a
 * reply's ticket_encryption and ticket_weak_encryption. */
#ifndef OUTPUT_KRB5_JSON_H
#define OUTPUT_KRB5_JSON_H

#include "app-layer/krb5.h"

#include <jansson.h>

struct JsonWriter;
void krb5_json_write(struct JsonWriter *w, const Krb5Msg *m);
/* The same as a tree, for tests; the caller owns it. */
json_t *krb5_json_object(const Krb5Msg *m);

#endif
