/* X.509 certificate fields as Suricata logs and matches them, decoded with
 * OpenSSL's libcrypto:
 *   subject / issuerdn  "C=US, O=Let's Encrypt, CN=R3" (RDNs in certificate
 *                       order, ", " between them, " + " inside one)
 *   serial              "04:C9:E4:..." the INTEGER's DER content bytes,
 *                       upper-case hex, a leading 00 kept
 *   fingerprint         SHA-1 of the DER, lower-case colon hex
 *   notbefore/notafter  "2023-05-29T13:13:28" (UTC)
 *   subjectaltname      the dNSName entries, in order */
#ifndef APP_LAYER_TLS_CERT_H
#define APP_LAYER_TLS_CERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TLS_CERT_SAN_MAX 64
#define TLS_FINGERPRINT_LEN 59 /* 20 bytes as "xx:" less the last colon */
#define TLS_TIME_STR_LEN 19    /* YYYY-MM-DDTHH:MM:SS */

struct TlsState;

typedef struct TlsCertInfo {
	/* NUL-terminated, but a value may hold a NUL of its own (Suricata
	 * 8.0.4 keeps it: tls.cert_subject; content:"...Corporat|00|on"), so
	 * the lengths are the truth */
	char *subject;    /* "" when the name is empty */
	char *issuer;
	uint32_t subject_len, issuer_len;
	char *serial;
	char fingerprint[TLS_FINGERPRINT_LEN + 1];
	int64_t notbefore, notafter; /* seconds since the epoch, UTC */
	uint32_t nsan;
	char *san[TLS_CERT_SAN_MAX];
} TlsCertInfo;

/* Decodes one DER certificate into out (zeroed first). 0, or -1 when
 * libcrypto rejects it (out is then empty and needs no free). */
int tls_cert_decode(const uint8_t *der, size_t len, TlsCertInfo *out);
void tls_cert_info_free(TlsCertInfo *ci);

/* The attribute types a name's decoding knows without libcrypto (their
 * OID's DER content and OpenSSL's short name): for the test that holds
 * the table to OBJ_nid2sn. */
size_t tls_dn_type_count(void);
const char *tls_dn_type(size_t i, const unsigned char **oid, size_t *len);

/* The leaf certificate of the chain sent toward dir (TLS_TOCLIENT: the
 * server's), decoded once per flow and kept in the state for detection and
 * the eve record alike; NULL while there is none or when it does not
 * decode. Valid while s lives. */
const TlsCertInfo *tls_leaf_info(const struct TlsState *s, int dir);

/* "YYYY-MM-DDTHH:MM:SS" of t (UTC) into buf (>= 20 bytes); returns buf. */
const char *tls_time_str(int64_t t, char *buf, size_t size);

/* Suricata's tls_cert_expired: notafter is before now. */
bool tls_cert_expired(const TlsCertInfo *ci, int64_t now);
/* Suricata's tls_cert_valid: now lies within [notbefore, notafter]. */
bool tls_cert_valid(const TlsCertInfo *ci, int64_t now);

/* Lower-case colon hex of the SHA-1 of data into out (60 bytes). */
void tls_sha1_colon_hex(const uint8_t *data, size_t len, char *out);

#endif
