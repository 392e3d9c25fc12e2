/* The TLS keywords' buffers and matchers, as Suricata 8 documents them
 * (rules/tls-keywords, rules/ja-keywords). Pure functions over a parsed
 * flow (app-layer/tls-parse.h): the keyword table registers them.
 *
 * Sticky buffers: tls_kw_buffer() for tls.sni, tls.cert_subject,
 * tls.cert_issuer, tls.cert_serial, tls.cert_fingerprint, ja3.hash,
 * ja3.string, ja3s.hash, ja3s.string, ja4.hash; tls_kw_cert() for the
 * multi-buffer tls.certs. They read a TlsKwInfo, the per-flow cache of the
 * decoded leaf certificates and fingerprints: tls_kw_info_update() after a
 * tls_parse() call fills what became available.
 *
 * The certificate buffers follow the direction: to client, the server's
 * certificate; to server, the client's (mutual TLS). */
#ifndef DETECT_TLS_KW_MATCH_H
#define DETECT_TLS_KW_MATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "app-layer/tls-cert.h"
#include "app-layer/tls-parse.h"

typedef struct TlsKwInfo {
	/* [dir], as TLS_TOSERVER/TLS_TOCLIENT: the leaf certificate sent
	 * toward dir, the state's (tls_leaf_info); NULL: none (yet) */
	const TlsCertInfo *cert[2];
	bool ja3_tried, ja3s_tried;
	char *ja3, *ja3s;         /* NULL when none */
	char ja3_hash[33], ja3s_hash[33];
	char ja4[40];             /* "" when none */
} TlsKwInfo;

void tls_kw_info_init(TlsKwInfo *ki);
void tls_kw_info_free(TlsKwInfo *ki);
/* Decodes what s holds that ki does not yet: certificates, ja3/ja3s/ja4.
 * Cheap when nothing changed. */
void tls_kw_info_update(TlsKwInfo *ki, const TlsState *s);

enum tls_kw_buf {
	TLS_BUF_SNI,
	TLS_BUF_CERT_SUBJECT,
	TLS_BUF_CERT_ISSUER,
	TLS_BUF_CERT_SERIAL,
	TLS_BUF_CERT_FINGERPRINT,
	TLS_BUF_JA3_HASH,
	TLS_BUF_JA3_STRING,
	TLS_BUF_JA3S_HASH,
	TLS_BUF_JA3S_STRING,
	TLS_BUF_JA4_HASH,
	TLS_BUF_RANDOM,       /* tls.random: the hello's 32 random bytes */
	TLS_BUF_RANDOM_TIME,  /* tls.random_time: its first 4 */
	TLS_BUF_RANDOM_BYTES, /* tls.random_bytes: the other 28 */
};

/* The buffer for direction dir; false when the flow has none (yet). */
bool tls_kw_buffer(const TlsKwInfo *ki, const TlsState *s, enum tls_kw_buf which, int dir,
		   const uint8_t **buf, uint32_t *len);
/* tls.certs: the i-th DER certificate sent toward dir (the leaf is 0). */
bool tls_kw_cert(const TlsState *s, int dir, unsigned i, const uint8_t **buf, uint32_t *len);
/* tls.cert_chain_len's value: certificates sent toward dir. */
uint32_t tls_kw_chain_len(const TlsState *s, int dir);
/* tls.alpn (multi-buffer): the i-th protocol of the hello sent toward dir
 * (to server: the client's offers; to client: the server's choice). */
bool tls_kw_alpn(const TlsState *s, int dir, unsigned i, const uint8_t **buf, uint32_t *len);
/* tls.subjectaltname (multi-buffer): the i-th dNSName of the leaf. */
bool tls_kw_san(const TlsKwInfo *ki, int dir, unsigned i, const uint8_t **buf, uint32_t *len);

/* tls.version: "1.0" "1.1" "1.2" "1.3" (1.3 takes its drafts too) or a raw
 * hex version "0x7f12" (exact). */
typedef struct TlsVersionKw {
	uint16_t version;
	bool raw;
} TlsVersionKw;
int tls_kw_version_parse(const char *arg, TlsVersionKw *out);
bool tls_kw_version_match(const TlsVersionKw *kw, const TlsState *s, int dir);

/* ssl_version: a ',' list of sslv2 sslv3 tls1.0 tls1.1 tls1.2 tls1.3, each
 * may be negated with '!'. Matches the direction's hello version when it
 * is one of the plain entries (any, if there are none) and none of the
 * negated ones. */
#define TLS_SSLV_SSL2 0x01u
#define TLS_SSLV_SSL3 0x02u
#define TLS_SSLV_TLS10 0x04u
#define TLS_SSLV_TLS11 0x08u
#define TLS_SSLV_TLS12 0x10u
#define TLS_SSLV_TLS13 0x20u
typedef struct TlsSslVersionKw {
	uint8_t want, reject;
} TlsSslVersionKw;
int tls_kw_ssl_version_parse(const char *arg, TlsSslVersionKw *out);
bool tls_kw_ssl_version_match(const TlsSslVersionKw *kw, const TlsState *s, int dir);

/* ssl_state: '|' list of client_hello server_hello client_keyx server_keyx
 * unknown, each may be negated with '!'; true when any term holds (a
 * plain term: the state was reached; a negated one: it was not). Suricata
 * matches the states the current packet's records reached: pass
 * s->cur_state (or s->state for the whole flow). */
typedef struct TlsSslStateKw {
	uint32_t flags, neg;
} TlsSslStateKw;
int tls_kw_ssl_state_parse(const char *arg, TlsSslStateKw *out);
bool tls_kw_ssl_state_match(const TlsSslStateKw *kw, uint32_t state);

/* tls_cert_notbefore / tls_cert_notafter: "DATE", ">DATE", "<DATE",
 * "DATE<>DATE", DATE one of YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DDTHH,
 * YYYY-MM-DDTHH:MM, YYYY-MM-DDTHH:MM:SS (UTC; missing parts are the
 * earliest) or epoch seconds. A plain DATE matches that instant exactly,
 * the range includes both ends. */
enum { TLS_DATE_EQ, TLS_DATE_LT, TLS_DATE_GT, TLS_DATE_RANGE };
typedef struct TlsDateKw {
	int mode;
	int64_t t1, t2;
} TlsDateKw;
int tls_kw_date_parse(const char *arg, TlsDateKw *out);
bool tls_kw_date_match(const TlsDateKw *kw, int64_t t);
/* With the certificate sent toward dir: */
bool tls_kw_notbefore_match(const TlsDateKw *kw, const TlsKwInfo *ki, int dir);
bool tls_kw_notafter_match(const TlsDateKw *kw, const TlsKwInfo *ki, int dir);
bool tls_kw_cert_expired(const TlsKwInfo *ki, int dir, int64_t now);
bool tls_kw_cert_valid(const TlsKwInfo *ki, int dir, int64_t now);

/* Legacy tls.subject, tls.issuerdn, tls.fingerprint: "text" or !"text",
 * containment in the server certificate's field, case-sensitive but for
 * the fingerprint (suricata-verify tls-fingerprint-alert: mixed-case
 * fingerprints match); no certificate, no match, negated or not. */
typedef struct TlsLegacyKw {
	char *text;
	bool neg;
} TlsLegacyKw;
int tls_kw_legacy_parse(const char *arg, TlsLegacyKw *out);
void tls_kw_legacy_free(TlsLegacyKw *kw);
/* which: TLS_BUF_CERT_SUBJECT, TLS_BUF_CERT_ISSUER or TLS_BUF_CERT_FINGERPRINT */
bool tls_kw_legacy_match(const TlsLegacyKw *kw, const TlsKwInfo *ki, enum tls_kw_buf which);

#endif
