/* The "tls" object of eve records, as Suricata 8 writes it (schema:
 * eve-schema.json "tls"), built from a parsed flow (app-layer/tls-parse.h).
 * Pure: the caller wraps it into the record (event_type "tls", or an
 * alert's "tls") and decides which fields through a TLS_LOG_* mask, made
 * once at start from the tls logger's config:
 *   extended: no   -> TLS_LOG_BASIC
 *   extended: yes  -> TLS_LOG_EXTENDED
 *   custom: [...]  -> tls_log_custom_fields()
 * and ja3/ja4 bits cleared when app-layer.protocols.tls.ja3-fingerprints /
 * ja4-fingerprints are off. */
#ifndef OUTPUT_TLS_JSON_H
#define OUTPUT_TLS_JSON_H

#include <stdint.h>

#include <jansson.h>

#include "app-layer/tls-parse.h"

#define TLS_LOG_SUBJECT (1u << 0)
#define TLS_LOG_ISSUER (1u << 1)
#define TLS_LOG_SESSION_RESUMED (1u << 2)
#define TLS_LOG_SERIAL (1u << 3)
#define TLS_LOG_FINGERPRINT (1u << 4)
#define TLS_LOG_SNI (1u << 5)
#define TLS_LOG_VERSION (1u << 6)
#define TLS_LOG_NOTBEFORE (1u << 7)
#define TLS_LOG_NOTAFTER (1u << 8)
#define TLS_LOG_CERTIFICATE (1u << 9)
#define TLS_LOG_CHAIN (1u << 10)
#define TLS_LOG_JA3 (1u << 11)
#define TLS_LOG_JA3S (1u << 12)
#define TLS_LOG_JA4 (1u << 13)
#define TLS_LOG_SUBJECTALTNAME (1u << 14)
#define TLS_LOG_CLIENT (1u << 15)            /* the client certificate's fields */
#define TLS_LOG_CLIENT_CERTIFICATE (1u << 16)
#define TLS_LOG_CLIENT_CHAIN (1u << 17)
#define TLS_LOG_CLIENT_ALPNS (1u << 18)
#define TLS_LOG_SERVER_ALPNS (1u << 19)
#define TLS_LOG_CLIENT_HANDSHAKE (1u << 20)
#define TLS_LOG_SERVER_HANDSHAKE (1u << 21)

#define TLS_LOG_BASIC (TLS_LOG_SUBJECT | TLS_LOG_ISSUER | TLS_LOG_SESSION_RESUMED)
#define TLS_LOG_EXTENDED                                                          \
	(TLS_LOG_BASIC | TLS_LOG_SERIAL | TLS_LOG_FINGERPRINT | TLS_LOG_SNI |        \
	 TLS_LOG_VERSION | TLS_LOG_NOTBEFORE | TLS_LOG_NOTAFTER | TLS_LOG_JA3 |      \
	 TLS_LOG_JA3S | TLS_LOG_JA4 | TLS_LOG_SUBJECTALTNAME | TLS_LOG_CLIENT_ALPNS | \
	 TLS_LOG_SERVER_ALPNS)

/* The bit of one custom field name ("subject", "issuer", "not_before",
 * "ja3s", "client_handshake", ... as suricata.yaml lists them), or 0. */
uint32_t tls_log_field(const char *name);
/* Fields of a custom list; the first unknown name, if any, goes to *bad
 * (and the call returns -1 so the caller can name it with file:line). */
int tls_log_custom_fields(const char *const *names, unsigned n, uint32_t *fields,
			  const char **bad);

/* The "tls" object's members for s with the given fields, into w's open
 * object (none when nothing applies). */
struct JsonWriter;
void tls_json_write(struct JsonWriter *w, const TlsState *s, uint32_t fields);
/* The same as a tree, for tests and fuzzers; the caller owns it. */
json_t *tls_json_object(const TlsState *s, uint32_t fields);

#endif
