/* Kerberos 5 (RFC 4120) over UDP and TCP: the parser's view, for
 * detection (detect/krb5-kw.c) and eve (output/krb5-json.c).
 *
 * As in Suricata 8, every message is its own one-way transaction (a
 * request to the KDC, a reply or an error to the client). What is kept of
 * one: its type, the client and server principal names (their components)
 * and realm, the etypes of the reply's and its ticket's encrypted parts,
 * an error's code and the type of the request before it on the flow. */
#ifndef APP_LAYER_KRB5_H
#define APP_LAYER_KRB5_H

#include "app-layer/txlist.h"

#include <stdint.h>

enum krb5_msg {
	KRB5_AS_REQ = 10,
	KRB5_AS_REP = 11,
	KRB5_TGS_REQ = 12,
	KRB5_TGS_REP = 13,
	KRB5_AP_REQ = 14,
	KRB5_AP_REP = 15,
	KRB5_ERROR = 30,
};

/* "KRB_AS_REQ", ... ; NULL for a type without a name */
const char *krb5_msg_name(int64_t t);
/* a type by its number or name ("AS_REQ", "KRB_AS_REQ"): -1 when neither */
int64_t krb5_msg_by_name(const char *s);
/* "KDC_ERR_PREAUTH_REQUIRED", ...; NULL when unknown */
const char *krb5_error_name(int64_t code);
/* "aes256-cts-hmac-sha1-96", ...; NULL when unknown */
const char *krb5_etype_name(int64_t etype);
int64_t krb5_etype_by_name(const char *s);
/* DES, 3DES and RC4 etypes */
int krb5_etype_weak(int64_t etype);

#define KRB5_MAX_COMPONENTS 8
#define KRB5_MAX_NAME 256

/* A PrincipalName: its components, each a copy (cut at KRB5_MAX_NAME). */
typedef struct Krb5Name {
	uint8_t n;                  /* 0: absent */
	uint16_t len[KRB5_MAX_COMPONENTS];
	char *comp[KRB5_MAX_COMPONENTS];
} Krb5Name;

typedef struct Krb5Msg {
	int64_t msg_type;
	int64_t error_code;         /* KRB_ERROR */
	int64_t failed_request;     /* KRB_ERROR: the flow's last request type, -1 none */
	int64_t etype;              /* reply enc-part; -1 none */
	int64_t ticket_etype;       /* reply ticket enc-part; -1 none */
	Krb5Name cname, sname;
	char *realm;                /* NULL: absent */
	uint16_t realm_len;
} Krb5Msg;

/* Decodes one message (its whole [APPLICATION n] element) into m: 0, or
 * -1 when it is not one (m is then empty, nothing to free). */
int krb5_msg_decode(const uint8_t *buf, uint32_t len, Krb5Msg *m);
void krb5_msg_free(Krb5Msg *m);

enum krb5_event {
	KRB5_EV_MALFORMED_DATA = 0,
	KRB5_EV_WEAK_ENCRYPTION,
	KRB5_EV_COUNT
};
const char *krb5_event_name(int ev);
int krb5_event_by_name(const char *name);

typedef struct Krb5Tx {
	AppTx base;
	uint8_t valid;              /* m was decoded */
	Krb5Msg m;
} Krb5Tx;

#endif
