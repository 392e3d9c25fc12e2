/* libFuzzer harness: the QUIC datagram parser (app-layer/quic-parse.h)
 * with its Initial decryption, CRYPTO reassembly, TLS hello decoding and
 * gQUIC CHLO reading, the eve object of every transaction and its keyword
 * buffers.
 *
 * Input: chunks, each a control byte, a 2-byte big-endian length, then
 * that many bytes (cut at the input's end). Control bit 7 is the
 * direction (set: to client). Bit 6 set: the bytes are the plaintext of
 * an IETF v1 Initial that the harness protects itself (the RFC 9001
 * connection id, packet number bits 0-5), so that the fuzzer reaches the
 * frames past the AEAD; clear: the bytes are the datagram as sent. Each
 * input starts on a new flow state; finished transactions go as the app
 * layer's gc would take them.
 *
 * Built by `make fuzz` with the engine (qa/fuzz/fuzz.mk); seeds: the
 * QUIC captures of suricata-verify and ndpi (qa/fuzz/quic-seeds.py). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <openssl/evp.h>

#include "app-layer/quic-crypto.h"
#include "app-layer/quic-parse.h"
#include "detect/buffers.h"
#include "detect/detect-parse.h"
#include "fuzz-common.h"
#include "output/quic-json.h"

static const uint8_t dcid[8] = { 0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08 };

/* The Initial carrying plain[0..len) under k, into out (len + 64 bytes). */
static size_t protect(uint8_t *out, const QuicKeys *k, unsigned pn, const uint8_t *plain,
		      size_t len)
{
	size_t n = 0;
	int outl = 0;
	uint8_t nonce[12], mask[16];

	/* the header protection sample needs 20 bytes past the pn */
	if (len < 4)
		return 0;
	out[n++] = 0xc0;                /* Initial, 1-byte packet number */
	out[n++] = 0, out[n++] = 0, out[n++] = 0, out[n++] = 1;
	out[n++] = 8;
	memcpy(out + n, dcid, 8);
	n += 8;
	out[n++] = 0;
	out[n++] = 0;
	size_t plen = 1 + len + 16;
	out[n++] = (uint8_t)(0x40 | plen >> 8), out[n++] = (uint8_t)plen;
	size_t pn_off = n;
	out[n++] = (uint8_t)pn;
	memcpy(nonce, k->iv, 12);
	nonce[11] ^= (uint8_t)pn;
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	if (!c)
		return 0;
	EVP_EncryptInit_ex(c, EVP_aes_128_gcm(), NULL, k->key, nonce);
	EVP_EncryptUpdate(c, NULL, &outl, out, (int)n);
	EVP_EncryptUpdate(c, out + n, &outl, plain, (int)len);
	EVP_EncryptFinal_ex(c, out + n + len, &outl);
	EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, out + n + len);
	EVP_CIPHER_CTX_free(c);
	c = EVP_CIPHER_CTX_new();
	if (!c)
		return 0;
	EVP_EncryptInit_ex(c, EVP_aes_128_ecb(), NULL, k->hp, NULL);
	EVP_CIPHER_CTX_set_padding(c, 0);
	EVP_EncryptUpdate(c, mask, &outl, out + pn_off + 4, 16);
	EVP_CIPHER_CTX_free(c);
	out[0] ^= mask[0] & 0x0f;
	out[pn_off] ^= mask[1];
	return n + len + 16;
}

static void walk(QuicState *s)
{
	for (AppTx *t = s->txs.head; t; t = t->next) {
		json_t *o = quic_json_object((const QuicTx *)t);
		json_decref(o);
		/* every keyword buffer, both sides: read to the last byte */
		for (int b = BUF_QUIC_VERSION; b <= BUF_QUIC_JA4_HASH; b++) {
			for (int side = 0; side < 2; side++) {
				const uint8_t *p;
				uint32_t n;
				volatile uint8_t sum = 0;

				if (quic_buffer_get(&detect_buffers[b], t, side, 0, &p, &n) == 0)
					for (uint32_t i = 0; i < n; i++)
						sum ^= p[i];
			}
		}
	}
	/* every one is complete: the gc takes them all */
	txl_op_gc(s, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static QuicKeys keys[2];
	static int keyed;
	static uint8_t pkt[65536 + 64];

	if (!keyed) {
		fuzz_quiet();
		if (quic_initial_keys(QUIC_V1, dcid, sizeof(dcid), keys) < 0)
			abort();
		keyed = 1;
	}
	QuicState *s = quic_state_new();
	if (!s)
		return 0;
	size_t o = 0;
	while (o + 3 <= size) {
		uint8_t ctl = data[o];
		size_t n = (size_t)data[o + 1] << 8 | data[o + 2];
		o += 3;
		if (n > size - o)
			n = size - o;
		int dir = ctl >> 7;
		if (ctl & 0x40) {
			size_t pl = protect(pkt, &keys[dir], ctl & 0x3f, data + o, n);
			if (pl)
				quic_parse_datagram(s, dir, pkt, pl);
		} else {
			quic_probe(data + o, n);
			quic_parse_datagram(s, dir, data + o, n);
		}
		o += n;
		walk(s);
	}
	quic_state_free(s);
	return 0;
}
