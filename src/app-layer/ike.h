/* IKE (ISAKMP, RFC 2408/2409 for v1, RFC 7296 for v2) over UDP 500 and
 * 4500: the parser's view, for detection (detect/ike-kw.c) and eve
 * (output/ike-json.c).
 *
 * As in Suricata 8, every message is its own transaction, one-way. What a
 * message keeps: its header, the types of its payloads, and what detection
 * and eve read of its payloads (v1: the transforms' attributes, the vendor
 * ids, the key exchange and nonce data; v2: the notify types and the
 * proposals' algorithms). What eve logs of the exchange as a whole (v1's
 * client and server key exchange, nonce and chosen transform; v2's chosen
 * algorithms) lives in the flow's IkeExchange, updated message by
 * message. */
#ifndef APP_LAYER_IKE_H
#define APP_LAYER_IKE_H

#include "app-layer/txlist.h"

#include <stdint.h>

#define IKE_HDR_LEN 28
#define IKE_MAX_PAYLOADS 64         /* payload types kept per message */
#define IKE_MAX_TRANSFORMS 32       /* v1 transforms kept per message */
#define IKE_MAX_ATTRS 16            /* attributes kept per v1 transform */
#define IKE_MAX_VENDORS 16
#define IKE_MAX_NOTIFY 32
#define IKE_MAX_DATA 2048           /* key exchange / nonce bytes kept */
#define IKE_ATTR_RAW 16             /* a long attribute's bytes kept */

/* a v1 SA attribute (RFC 2409 appendix A) */
typedef struct IkeAttr {
	uint16_t type;
	uint8_t numeric;            /* 1: value; 0: raw[0..len) (a long TLV) */
	uint8_t len;
	uint32_t value;
	uint8_t raw[IKE_ATTR_RAW];
} IkeAttr;

typedef struct IkeTransform {
	uint8_t nattr;
	IkeAttr attr[IKE_MAX_ATTRS];
} IkeTransform;

/* "alg_enc", "sa_life_duration", ...; "unknown" for others */
const char *ike_attr_name(uint16_t type);
/* "EncAesCbc", "HashSha", ...; "Unknown" where the type has no names */
const char *ike_attr_value_name(uint16_t type, uint32_t value);
/* attribute type by its eve name; -1 unknown */
int ike_attr_by_name(const char *name);
/* v1 payload names ("SecurityAssociation", ...) and v2's */
const char *ike_v1_payload_name(uint8_t t);
const char *ike_v2_payload_name(uint8_t t);
const char *ike_v2_notify_name(uint16_t t);

/* v2 transform types and their names for eve (Suricata's spelling) */
enum { IKE2_TT_ENCR = 1, IKE2_TT_PRF = 2, IKE2_TT_INTEG = 3, IKE2_TT_DH = 4, IKE2_TT_ESN = 5 };
const char *ike_v2_transform_name(int type, uint16_t id);

typedef struct IkeMsg {
	uint8_t init_spi[8], resp_spi[8];
	char init_hex[17], resp_hex[17]; /* the same as lowercase hex (ike.init_spi) */
	uint8_t next_payload;
	uint8_t version_major, version_minor;
	uint8_t exchange_type;
	uint8_t flags;
	uint32_t message_id;
	uint32_t length;
	uint8_t npayloads;
	uint8_t payloads[IKE_MAX_PAYLOADS]; /* v1: each type once; v2: every next type */
	/* v1 */
	uint8_t encrypted;          /* the payloads are ciphertext */
	uint8_t has_doi;
	uint32_t doi;
	uint16_t ntransforms;
	IkeTransform *transforms;
	uint8_t nvendors;
	char *vendors[IKE_MAX_VENDORS]; /* lowercase hex */
	/* v1 and v2 */
	uint8_t *ke, *nonce;
	uint32_t ke_len, nonce_len;
	uint8_t has_ke, has_nonce;
	/* v2 */
	uint8_t nnotify;
	uint16_t notify[IKE_MAX_NOTIFY];
	uint32_t errors;            /* notify types below 16384 */
	uint8_t has_sa;
	uint16_t alg[6];            /* v2: first proposal's ENCR, PRF, INTEG, DH, ESN by type */
	uint8_t has_alg[6];
	uint32_t events;            /* bit e: enum ike_event */
} IkeMsg;

/* 0, or -1 when the bytes are not an IKE header (nothing to free); a
 * message with malformed payloads decodes (its events say so). */
int ike_msg_decode(const uint8_t *buf, uint32_t len, IkeMsg *m);
void ike_msg_free(IkeMsg *m);
/* The header alone: 1 when buf starts with one a probe accepts. */
int ike_header_ok(const uint8_t *buf, uint32_t len);

enum ike_event {
	IKE_EV_MALFORMED_DATA = 0,
	IKE_EV_NO_ENCRYPTION,
	IKE_EV_WEAK_CRYPTO_ENC,
	IKE_EV_WEAK_CRYPTO_PRF,
	IKE_EV_WEAK_CRYPTO_DH,
	IKE_EV_WEAK_CRYPTO_AUTH,
	IKE_EV_WEAK_CRYPTO_NO_DH,
	IKE_EV_WEAK_CRYPTO_NO_AUTH,
	IKE_EV_INVALID_PROPOSAL,
	IKE_EV_UNKNOWN_PROPOSAL,
	IKE_EV_PAYLOAD_EXTRA_DATA,
	IKE_EV_MULTIPLE_SERVER_PROPOSAL,
	IKE_EV_COUNT
};
const char *ike_event_name(int ev);
int ike_event_by_name(const char *name);

/* What eve logs of the exchange so far (the flow's). */
typedef struct IkeSide {
	uint8_t *ke, *nonce;
	uint32_t ke_len, nonce_len;
} IkeSide;

typedef struct IkeExchange {
	uint8_t has_doi;
	uint32_t doi;
	IkeSide client, server;
	uint8_t has_chosen;         /* v1: the server's first transform */
	IkeTransform chosen;
	uint16_t alg[6];            /* v2: the responder's choice */
	uint8_t has_alg[6];
} IkeExchange;

typedef struct IkeTx {
	AppTx base;
	uint8_t dir;                /* APP_DIR_TOSERVER / _TOCLIENT */
	uint8_t valid;
	IkeMsg m;
	const IkeExchange *x;       /* the flow's, for eve (lives with the state) */
} IkeTx;

/* Folds a message into the exchange (dir: the message's). */
void ike_exchange_update(IkeExchange *x, const IkeMsg *m, int dir);
void ike_exchange_free(IkeExchange *x);

#endif
