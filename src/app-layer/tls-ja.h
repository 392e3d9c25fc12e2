/* TLS client and server fingerprints from decoded hellos (tls-parse.h):
 *   ja3   "version,ciphers,extensions,groups,point_formats" (decimal, '-'
 *         joined) and its MD5 (github.com/salesforce/ja3)
 *   ja3s  "version,cipher,extensions" and its MD5
 *   ja4   "t13d1516h2_8daaf6152771_b186095e22b6" (github.com/FoxIO-LLC/ja4,
 *         technical_details/JA4.md; TCP only: the 't' prefix)
 * GREASE values (RFC 8701, 0x?a?a) are left out everywhere. */
#ifndef APP_LAYER_TLS_JA_H
#define APP_LAYER_TLS_JA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "app-layer/tls-parse.h"

#define TLS_JA_MD5_LEN 32
#define TLS_JA4_LEN 36

bool tls_is_grease(uint16_t v);

/* The ja3 string of a ClientHello into buf; returns its length, or -1 when
 * it does not fit (or the hello is absent or SSLv2: Suricata computes none
 * for those). */
int tls_ja3_string(const TlsHello *client, char *buf, size_t size);
/* The ja3s string of a ServerHello; like tls_ja3_string. */
int tls_ja3s_string(const TlsHello *server, char *buf, size_t size);
/* Lower-case hex MD5 of s into out (33 bytes). */
void tls_ja_md5_hex(const char *s, size_t len, char *out);
/* The ja4 fingerprint of a ClientHello into out (37 bytes); 0, or -1 when
 * there is none. */
int tls_ja4(const TlsHello *client, char *out);
/* The same with another transport letter: 'q' for QUIC. */
int tls_ja4_proto(const TlsHello *client, char proto, char *out);

#endif
