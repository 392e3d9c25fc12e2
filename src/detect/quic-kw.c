/* QUIC keywords, as Suricata 8 documents them (rules/quic-keywords): the
 * sticky buffers quic.version (the long header's 4 version bytes),
 * quic.sni, quic.ua (gQUIC's UAID), quic.cyu.hash and quic.cyu.string;
 * and, for "alert quic" rules, the TLS fingerprint keywords ja3.hash,
 * ja3.string, ja3s.hash, ja3s.string and ja4.hash on the QUIC hello
 * (tls-kw.c selects these entries). Each packet is a one-way transaction,
 * read on the side it went. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/buffers.h"
#include "app-layer/quic-parse.h"

#include <string.h>

#define NEEDS "a quic, udp or ip"

static int kw_quic_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	return sig_app_sticky(st, kw, ALPROTO_QUIC, 1, NEEDS);
}

int quic_ja_buffer(int tls_buf)
{
	switch (tls_buf) {
	case BUF_JA3_HASH: return BUF_QUIC_JA3_HASH;
	case BUF_JA3_STRING: return BUF_QUIC_JA3_STRING;
	case BUF_JA3S_HASH: return BUF_QUIC_JA3S_HASH;
	case BUF_JA3S_STRING: return BUF_QUIC_JA3S_STRING;
	case BUF_JA4_HASH: return BUF_QUIC_JA4_HASH;
	}
	return -1;
}

static int give(const char *s, size_t n, const uint8_t **data, uint32_t *len)
{
	if (!s)
		return -1;
	*data = (const uint8_t *)s;
	*len = (uint32_t)n;
	return 0;
}

int quic_buffer_get(const DetectBuffer *b, void *txp, int side, uint32_t idx,
		    const uint8_t **data, uint32_t *len)
{
	QuicTx *tx = txp;

	if (idx)
		return -1;
	switch (b->pbuf[side & 1]) {
	case QUIC_KW_BUF_VERSION:
		if (!tx->version)
			return -1;
		/* the header's 4 bytes, as sent */
		*data = tx->version_wire;
		*len = 4;
		return 0;
	case QUIC_KW_BUF_SNI:
		return give(tx->sni, tx->sni_len, data, len);
	case QUIC_KW_BUF_UA:
		return give(tx->ua, tx->ua_len, data, len);
	case QUIC_KW_BUF_CYU_HASH:
		return tx->cyu ? give(tx->cyu_hash, 32, data, len) : -1;
	case QUIC_KW_BUF_CYU_STRING:
		return give(tx->cyu, tx->cyu_len, data, len);
	case QUIC_KW_BUF_JA3_HASH:
		return tx->client && tx->ja3 ? give(tx->ja3_hash, 32, data, len) : -1;
	case QUIC_KW_BUF_JA3_STRING:
		return tx->client ? give(tx->ja3, tx->ja3_len, data, len) : -1;
	case QUIC_KW_BUF_JA3S_HASH:
		return !tx->client && tx->ja3 ? give(tx->ja3_hash, 32, data, len) : -1;
	case QUIC_KW_BUF_JA3S_STRING:
		return !tx->client ? give(tx->ja3, tx->ja3_len, data, len) : -1;
	case QUIC_KW_BUF_JA4_HASH:
		return tx->client && tx->ja4[0] ? give(tx->ja4, strlen(tx->ja4), data, len) : -1;
	}
	return -1;
}

#define QB(n_, b_) { .name = n_, .id = KW_QUIC_STICKY, .setup = kw_quic_sticky, \
	.flags = STICKY, .buf = b_, .desc = "sticky buffer" }

const Keyword quic_keywords[] = {
	QB("quic.version", BUF_QUIC_VERSION),
	QB("quic.sni", BUF_QUIC_SNI),
	QB("quic.ua", BUF_QUIC_UA),
	QB("quic.cyu.hash", BUF_QUIC_CYU_HASH),
	QB("quic.cyu.string", BUF_QUIC_CYU_STRING),
	{ .name = NULL }
};
