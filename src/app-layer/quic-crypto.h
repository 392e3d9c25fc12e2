/* QUIC Initial packet protection (RFC 9001 section 5, RFC 9369 for v2):
 * the keys both ends derive from the client's first Destination
 * Connection ID, header protection removal and AES-128-GCM, all through
 * libcrypto. What the parser needs to read the CRYPTO frames of the
 * Initial packets; nothing past them is decryptable without the
 * handshake's secrets.
 *
 * Pure: no globals; every call works on the caller's buffers. */
#ifndef APP_LAYER_QUIC_CRYPTO_H
#define APP_LAYER_QUIC_CRYPTO_H

#include <stddef.h>
#include <stdint.h>

/* One direction's Initial keys. */
typedef struct QuicKeys {
	uint8_t key[16];
	uint8_t iv[12];
	uint8_t hp[16];
} QuicKeys;

/* The salt and labels of a version; 0, or -1 for a version whose Initial
 * packets this module cannot open. */
int quic_crypto_supported(uint32_t version);

/* Derives the client's (keys[0]) and server's (keys[1]) Initial keys
 * from the client's Destination Connection ID: 0, or -1. */
int quic_initial_keys(uint32_t version, const uint8_t *dcid, size_t dcid_len,
		      QuicKeys keys[2]);

/* HKDF-Expand-Label (RFC 8446 7.1) with SHA-256 and an empty context,
 * out_len <= 32: 0, or -1. Exposed for the RFC 9001 test vectors. */
int quic_hkdf_expand_label(const uint8_t *secret, size_t secret_len, const char *label,
			   uint8_t *out, size_t out_len);

/* Removes the header protection of the long-header packet pkt[0..len),
 * whose packet number starts at pn_off, in place: the first byte and the
 * packet number are clear afterwards. Returns the packet number length
 * (1..4), or -1 when the packet is too short to sample. */
int quic_unprotect_header(const QuicKeys *k, uint8_t *pkt, size_t len, size_t pn_off);

/* Opens the AEAD payload: header pkt[0..hdr_len) as the associated data,
 * ciphertext and tag pkt[hdr_len..len), into out (len - hdr_len - 16
 * bytes). Returns the plaintext length, or -1 when the tag does not
 * verify. */
int quic_decrypt_payload(const QuicKeys *k, uint64_t pn, const uint8_t *pkt, size_t hdr_len,
			 size_t len, uint8_t *out);

#endif
