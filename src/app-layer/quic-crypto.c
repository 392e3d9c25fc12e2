/* QUIC Initial packet protection (see quic-crypto.h). */
#include "app-layer/quic-crypto.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <string.h>

#define QUIC_V1 0x00000001u
#define QUIC_V2 0x6b3343cfu

/* RFC 9001 5.2 (v1 and drafts 33, 34), draft-29's (drafts 29..32),
 * draft-23's (drafts 23..28) and RFC 9369 3.3.1's (v2). */
static const uint8_t salt_v1[20] = {
	0x38, 0x76, 0x2c, 0xf7, 0xf5, 0x59, 0x34, 0xb3, 0x4d, 0x17,
	0x9a, 0xe6, 0xa4, 0xc8, 0x0c, 0xad, 0xcc, 0xbb, 0x7f, 0x0a,
};
static const uint8_t salt_d29[20] = {
	0xaf, 0xbf, 0xec, 0x28, 0x99, 0x93, 0xd2, 0x4c, 0x9e, 0x97,
	0x86, 0xf1, 0x9c, 0x61, 0x11, 0xe0, 0x43, 0x90, 0xa8, 0x99,
};
static const uint8_t salt_d23[20] = {
	0xc3, 0xee, 0xf7, 0x12, 0xc7, 0x2e, 0xbb, 0x5a, 0x11, 0xa7,
	0xd2, 0x43, 0x2b, 0xb4, 0x63, 0x65, 0xbe, 0xf9, 0xf5, 0x02,
};
static const uint8_t salt_v2[20] = {
	0x0d, 0xed, 0xe3, 0xde, 0xf7, 0x00, 0xa6, 0xdb, 0x81, 0x93,
	0x81, 0xbe, 0x6e, 0x26, 0x9d, 0xcb, 0xf9, 0xbd, 0x2e, 0xd9,
};

/* The salt of a version, and whether it uses v2's labels. */
static const uint8_t *version_salt(uint32_t v, int *v2)
{
	*v2 = 0;
	if (v == QUIC_V1)
		return salt_v1;
	if (v == QUIC_V2) {
		*v2 = 1;
		return salt_v2;
	}
	/* IETF drafts: 0xff0000NN; Facebook's mvfst versions take the
	 * drafts' salts: 0xfaceb002 draft-27's, 0xfaceb00e draft-29's
	 * (0xfaceb001's draft-22 salt is not known here) */
	if ((v & 0xffffff00u) == 0xff000000u) {
		unsigned d = v & 0xffu;
		if (d >= 33 && d <= 34)
			return salt_v1;
		if (d >= 29 && d <= 32)
			return salt_d29;
		if (d >= 23 && d <= 28)
			return salt_d23;
		return NULL;
	}
	if (v == 0xfaceb002u)
		return salt_d23;
	if (v == 0xfaceb00eu)
		return salt_d29;
	return NULL;
}

int quic_crypto_supported(uint32_t version)
{
	int v2;

	return version_salt(version, &v2) ? 0 : -1;
}

int quic_hkdf_expand_label(const uint8_t *secret, size_t secret_len, const char *label,
			   uint8_t *out, size_t out_len)
{
	uint8_t info[2 + 1 + 6 + 32 + 1 + 1];
	uint8_t t[EVP_MAX_MD_SIZE];
	unsigned tlen = 0;
	size_t llen = strlen(label), n = 0;

	if (out_len > 32 || llen > 32)
		return -1;
	info[n++] = (uint8_t)(out_len >> 8);
	info[n++] = (uint8_t)out_len;
	info[n++] = (uint8_t)(6 + llen);
	memcpy(info + n, "tls13 ", 6);
	n += 6;
	memcpy(info + n, label, llen);
	n += llen;
	info[n++] = 0;                  /* empty context */
	info[n++] = 1;                  /* HKDF-Expand's T(1) counter */
	/* out_len <= the hash length: T(1) = HMAC(PRK, info | 0x01) */
	if (!HMAC(EVP_sha256(), secret, (int)secret_len, info, n, t, &tlen) || tlen < out_len)
		return -1;
	memcpy(out, t, out_len);
	return 0;
}

static int derive(const uint8_t *secret, int v2, QuicKeys *k)
{
	if (quic_hkdf_expand_label(secret, 32, v2 ? "quicv2 key" : "quic key", k->key, 16) ||
	    quic_hkdf_expand_label(secret, 32, v2 ? "quicv2 iv" : "quic iv", k->iv, 12) ||
	    quic_hkdf_expand_label(secret, 32, v2 ? "quicv2 hp" : "quic hp", k->hp, 16))
		return -1;
	return 0;
}

int quic_initial_keys(uint32_t version, const uint8_t *dcid, size_t dcid_len,
		      QuicKeys keys[2])
{
	uint8_t initial[EVP_MAX_MD_SIZE], secret[32];
	unsigned ilen = 0;
	int v2;
	const uint8_t *salt = version_salt(version, &v2);

	if (!salt)
		return -1;
	/* HKDF-Extract(salt, dcid) is HMAC(salt, dcid) */
	if (!HMAC(EVP_sha256(), salt, 20, dcid, dcid_len, initial, &ilen) || ilen != 32)
		return -1;
	if (quic_hkdf_expand_label(initial, 32, "client in", secret, 32) ||
	    derive(secret, v2, &keys[0]) ||
	    quic_hkdf_expand_label(initial, 32, "server in", secret, 32) ||
	    derive(secret, v2, &keys[1]))
		return -1;
	return 0;
}

/* AES-128-ECB of one block: the header protection mask (RFC 9001 5.4.3). */
static int hp_mask(const uint8_t *hp, const uint8_t *sample, uint8_t mask[16])
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int n = 0, ok;

	if (!c)
		return -1;
	ok = EVP_EncryptInit_ex(c, EVP_aes_128_ecb(), NULL, hp, NULL) == 1 &&
	     EVP_CIPHER_CTX_set_padding(c, 0) == 1 &&
	     EVP_EncryptUpdate(c, mask, &n, sample, 16) == 1 && n == 16;
	EVP_CIPHER_CTX_free(c);
	return ok ? 0 : -1;
}

int quic_unprotect_header(const QuicKeys *k, uint8_t *pkt, size_t len, size_t pn_off)
{
	uint8_t mask[16];

	/* the sample starts 4 bytes past the packet number's start */
	if (pn_off + 4 + 16 > len || hp_mask(k->hp, pkt + pn_off + 4, mask) < 0)
		return -1;
	pkt[0] ^= mask[0] & 0x0f;       /* long header: 4 protected bits */
	int pnl = (pkt[0] & 0x03) + 1;
	for (int i = 0; i < pnl; i++)
		pkt[pn_off + (size_t)i] ^= mask[1 + i];
	return pnl;
}

int quic_decrypt_payload(const QuicKeys *k, uint64_t pn, const uint8_t *pkt, size_t hdr_len,
			 size_t len, uint8_t *out)
{
	uint8_t nonce[12];
	int n = 0, fin = 0, ok;

	if (len < hdr_len + 16)
		return -1;
	size_t clen = len - hdr_len - 16;
	memcpy(nonce, k->iv, 12);
	for (int i = 0; i < 8; i++)
		nonce[11 - i] ^= (uint8_t)(pn >> (8 * i));
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	if (!c)
		return -1;
	ok = EVP_DecryptInit_ex(c, EVP_aes_128_gcm(), NULL, k->key, nonce) == 1 &&
	     EVP_DecryptUpdate(c, NULL, &n, pkt, (int)hdr_len) == 1 &&
	     EVP_DecryptUpdate(c, out, &n, pkt + hdr_len, (int)clen) == 1 &&
	     EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, 16, (void *)(pkt + hdr_len + clen)) == 1 &&
	     EVP_DecryptFinal_ex(c, out + n, &fin) == 1;
	EVP_CIPHER_CTX_free(c);
	return ok ? n + fin : -1;
}
