/* QUIC datagram parser (see quic-parse.h). */
#include "app-layer/quic-parse.h"

#include "app-layer/app-layer.h"
#include "app-layer/app-mem.h"
#include "app-layer/tls-ja.h"
#include "app-layer/tls-parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ev_names[QUIC_EV_COUNT] = {
	"failed_decrypt", "error_on_data", "error_on_header", "crypto_frag_too_long",
};

const char *quic_event_name(int ev)
{
	return ev >= 0 && ev < QUIC_EV_COUNT ? ev_names[ev] : NULL;
}

int quic_event_by_name(const char *name)
{
	for (int i = 0; i < QUIC_EV_COUNT; i++)
		if (strcmp(name, ev_names[i]) == 0)
			return i;
	return -1;
}

size_t quic_varint(const uint8_t *p, size_t len, uint64_t *v)
{
	if (!len)
		return 0;
	size_t n = (size_t)1 << (p[0] >> 6);
	if (n > len)
		return 0;
	uint64_t x = p[0] & 0x3f;
	for (size_t i = 1; i < n; i++)
		x = x << 8 | p[i];
	*v = x;
	return n;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* gQUIC's versions: "Q0NN" and "T0NN" in ASCII. */
static bool is_gquic(uint32_t v)
{
	return ((v >> 24) == 'Q' || (v >> 24) == 'T') && ((v >> 16) & 0xff) == '0' &&
	       ((v >> 8) & 0xff) >= '0' && ((v >> 8) & 0xff) <= '9' && (v & 0xff) >= '0' &&
	       (v & 0xff) <= '9';
}

/* Q046 and before keep the gQUIC packet layout (clear CHLO); Q050 and
 * T05x moved to IETF framing with protected Initials. */
static bool gquic_legacy(uint32_t v)
{
	return is_gquic(v) && (v >> 24) == 'Q' && (((v >> 8) & 0xff) - '0') * 10 + ((v & 0xff) - '0') <= 46;
}

const char *quic_version_string(uint32_t v, char *buf)
{
	/* Suricata names the gQUIC versions it parses (Q039, Q043..Q046)
	 * and writes every other one in hex: Q050 is "51303530" */
	if (v == 0x51303339u || (v >= 0x51303433u && v <= 0x51303436u)) {
		buf[0] = (char)(v >> 24);
		buf[1] = (char)(v >> 16);
		buf[2] = (char)(v >> 8);
		buf[3] = (char)v;
		buf[4] = '\0';
	} else {
		snprintf(buf, 12, "%x", v);
	}
	return buf;
}

static bool ietf_known(uint32_t v)
{
	return v == QUIC_V1 || v == QUIC_V2 || (v & 0xffffff00u) == 0xff000000u ||
	       (v & 0xfffffff0u) == 0xfaceb000u;
}

int quic_probe(const uint8_t *buf, size_t len)
{
	if (len < 7)
		return 0;
	if (buf[0] & 0x80) {
		uint32_t v = be32(buf + 1);
		if (gquic_legacy(v))
			return 1;
		/* a known version, or a client forcing version negotiation
		 * with a reserved one (0x?a?a?a?a, RFC 9000 15) */
		if (!ietf_known(v) && !is_gquic(v) && (v & 0x0f0f0f0fu) != 0x0a0a0a0au)
			return 0;
		/* the invariants: DCID and SCID lengths of at most 20 */
		size_t dl = buf[5];
		if (dl > 20 || len < 6 + dl + 1 || buf[6 + dl] > 20)
			return 0;
		return 1;
	}
	/* gQUIC's public header: flags with the version bit, an 8-byte
	 * connection id, then the version */
	if ((buf[0] & 0x09) == 0x09 && !(buf[0] & 0x40) && len >= 13 &&
	    gquic_legacy(be32(buf + 9)))
		return 1;
	return 0;
}

static const struct {
	uint16_t type;
	const char *name;
} ext_names[] = {
	{ 0, "server_name" }, { 1, "max_fragment_length" }, { 2, "client_certificate_url" },
	{ 3, "trusted_ca_keys" }, { 4, "truncated_hmac" }, { 5, "status_request" },
	{ 6, "user_mapping" }, { 7, "client_authz" }, { 8, "server_authz" },
	{ 9, "cert_type" }, { 10, "supported_groups" }, { 11, "ec_point_formats" },
	{ 12, "srp" }, { 13, "signature_algorithms" }, { 14, "use_srtp" },
	{ 15, "heartbeat" }, { 16, "alpn" }, { 18, "signed_certificate_timestamp" },
	{ 19, "client_certificate_type" }, { 20, "server_certificate_type" },
	{ 21, "padding" }, { 22, "encrypt_then_mac" }, { 23, "extended_master_secret" },
	{ 24, "token_binding" }, { 25, "cached_info" }, { 27, "compress_certificate" },
	{ 28, "record_size_limit" }, { 35, "session_ticket" }, { 41, "pre_shared_key" },
	{ 42, "early_data" }, { 43, "supported_versions" }, { 44, "cookie" },
	{ 45, "psk_key_exchange_modes" }, { 47, "certificate_authorities" },
	{ 48, "oid_filters" }, { 49, "post_handshake_auth" },
	{ 50, "signature_algorithms_cert" }, { 51, "key_share" },
	{ 57, "quic_transport_parameters" }, { 13172, "next_protocol_negotiation" },
	{ 65281, "renegotiation_info" },
};

const char *quic_tls_ext_name(uint16_t type)
{
	for (size_t i = 0; i < sizeof(ext_names) / sizeof(ext_names[0]); i++)
		if (ext_names[i].type == type)
			return ext_names[i].name;
	return NULL;
}

/* ---- state and transactions ---- */

static void tx_free(AppTx *t)
{
	QuicTx *tx = (QuicTx *)t;

	app_mem_free(ALPROTO_QUIC, tx->sni);
	app_mem_free(ALPROTO_QUIC, tx->ua);
	app_mem_free(ALPROTO_QUIC, tx->cyu);
	app_mem_free(ALPROTO_QUIC, tx->ja3);
	app_mem_free(ALPROTO_QUIC, tx->exts);
	app_mem_free(ALPROTO_QUIC, tx->vals);
	app_mem_free(ALPROTO_QUIC, tx->vbuf);
	app_mem_free(ALPROTO_QUIC, tx);
}

QuicState *quic_state_new(void)
{
	QuicState *s = app_mem_calloc(ALPROTO_QUIC, 1, sizeof(*s));

	if (!s)
		return NULL;
	txl_init(&s->txs, ALPROTO_QUIC, tx_free);
	return s;
}

static void crypto_release(QuicCrypto *c)
{
	app_mem_free(ALPROTO_QUIC, c->buf);
	c->buf = c->have = NULL;
}

void quic_state_free(QuicState *s)
{
	if (!s)
		return;
	txl_free(&s->txs);
	crypto_release(&s->crypto[0]);
	crypto_release(&s->crypto[1]);
	app_mem_free(ALPROTO_QUIC, s->scratch);
	app_mem_free(ALPROTO_QUIC, s);
}

static char *dupn(const void *p, size_t n)
{
	char *d = app_mem_malloc(ALPROTO_QUIC, n + 1);

	if (d) {
		memcpy(d, p, n);
		d[n] = '\0';
	}
	return d;
}

static QuicTx *tx_new(QuicState *s, int dir, uint32_t version)
{
	QuicTx *tx = app_mem_calloc(ALPROTO_QUIC, 1, sizeof(*tx));

	if (!tx)
		return NULL;
	tx->version = version;
	for (int i = 0; i < 4; i++)
		tx->version_wire[i] = (uint8_t)(version >> (24 - 8 * i));
	tx->client = dir == 0;
	tx->base.done[0] = tx->base.done[1] = 1;
	tx->base.some[dir & 1] = 1;
	tx->base.flags |= dir == 0 ? APP_TX_ONLY_TS | APP_TX_DETECT_TC
				   : APP_TX_ONLY_TC | APP_TX_DETECT_TS;
	tx->base.events = s->events;
	txl_add(&s->txs, &tx->base);
	return tx;
}

/* ---- TLS hellos out of the CRYPTO stream ---- */

/* Adds the value v[0..n) to extension e of tx (bounded). */
static void ext_value(QuicTx *tx, QuicExt *e, const void *v, size_t n, uint16_t *vused)
{
	if (tx->nvals >= QUIC_MAX_VALS || *vused + n > QUIC_VBUF_MAX)
		return;
	if (!e->nvals)
		e->first_val = tx->nvals;
	tx->vals[tx->nvals].off = *vused;
	tx->vals[tx->nvals].len = (uint16_t)n;
	memcpy(tx->vbuf + *vused, v, n);
	*vused = (uint16_t)(*vused + n);
	tx->nvals++;
	e->nvals++;
}

/* tls-parser's names of the versions, as Suricata 8 logs them */
static const char *tls_ver_label(uint16_t v, char *buf)
{
	switch (v) {
	case 0x0300: return "Ssl30";
	case 0x0301: return "Tls10";
	case 0x0302: return "Tls11";
	case 0x0303: return "Tls12";
	case 0x0304: return "Tls13";
	}
	if ((v >> 8) == 0x7f) {
		snprintf(buf, 24, "Tls13Draft%u", v & 0xff);
		return buf;
	}
	snprintf(buf, 24, "TlsVersion(0x%04x)", v);
	return buf;
}

/* What the hello of direction dir shows, into tx. */
static void hello_to_tx(QuicTx *tx, const TlsHello *h, int dir)
{
	char sbuf[2048];
	uint16_t vused = 0;

	tx->exts = app_mem_calloc(ALPROTO_QUIC, h->nexts ? h->nexts : 1, sizeof(*tx->exts));
	tx->vals = app_mem_calloc(ALPROTO_QUIC, QUIC_MAX_VALS, sizeof(*tx->vals));
	tx->vbuf = app_mem_malloc(ALPROTO_QUIC, QUIC_VBUF_MAX);
	if (!tx->exts || !tx->vals || !tx->vbuf)
		return;
	for (unsigned i = 0; i < h->nexts; i++) {
		QuicExt *e = &tx->exts[tx->nexts++];
		e->type = h->exts[i];
		if (e->type == 0 && h->sni_len) {
			ext_value(tx, e, h->sni, h->sni_len, &vused);
		} else if (e->type == 16) {
			for (unsigned a = 0; a < h->nalpn; a++) {
				uint8_t al;
				const uint8_t *ap = tls_hello_alpn(h, a, &al);
				if (ap)
					ext_value(tx, e, ap, al, &vused);
			}
		} else if (e->type == 43) {
			for (unsigned a = 0; a < h->nversions; a++) {
				char vb[24];
				const char *l = tls_ver_label(h->versions[a], vb);
				ext_value(tx, e, l, strlen(l), &vused);
			}
		}
	}
	if (h->sni_len) {
		tx->sni = dupn(h->sni, h->sni_len);
		tx->sni_len = tx->sni ? h->sni_len : 0;
	}
	int n = dir == 0 ? tls_ja3_string(h, sbuf, sizeof(sbuf))
			 : tls_ja3s_string(h, sbuf, sizeof(sbuf));
	if (n > 0 && (tx->ja3 = dupn(sbuf, (size_t)n))) {
		tx->ja3_len = (uint16_t)n;
		tls_ja_md5_hex(sbuf, (size_t)n, tx->ja3_hash);
	}
	if (dir == 0 && tls_ja4_proto(h, 'q', tx->ja4) < 0)
		tx->ja4[0] = '\0';
}

static int crypto_add(QuicState *s, int dir, uint64_t off, const uint8_t *p, size_t n)
{
	QuicCrypto *c = &s->crypto[dir];

	if (c->done || c->failed)
		return 0;
	if (off + n > QUIC_CRYPTO_MAX) {
		c->failed = true;
		s->events |= 1u << QUIC_EV_CRYPTO_FRAG_TOO_LONG;
		crypto_release(c);
		return -1;
	}
	if (!c->buf) {
		c->buf = app_mem_calloc(ALPROTO_QUIC, 1, QUIC_CRYPTO_MAX + QUIC_CRYPTO_MAX / 8);
		if (!c->buf)
			return -1;
		c->have = c->buf + QUIC_CRYPTO_MAX;
	}
	memcpy(c->buf + off, p, n);
	for (size_t i = (size_t)off; i < off + n; i++)
		c->have[i >> 3] |= (uint8_t)(1u << (i & 7));
	return 0;
}

static bool crypto_range_have(const QuicCrypto *c, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (!(c->have[i >> 3] >> (i & 7) & 1))
			return false;
	return true;
}

/* The hello of dir, once its bytes are all in: decoded into tx. */
static void crypto_try_hello(QuicState *s, int dir, QuicTx *tx)
{
	QuicCrypto *c = &s->crypto[dir];

	if (c->done || !c->buf || !crypto_range_have(c, 0, 4))
		return;
	size_t need = 4 + ((size_t)c->buf[1] << 16 | (size_t)c->buf[2] << 8 | c->buf[3]);
	if (need > QUIC_CRYPTO_MAX) {
		c->failed = true;
		tx->base.events |= 1u << QUIC_EV_CRYPTO_FRAG_TOO_LONG;
		crypto_release(c);
		return;
	}
	if (!crypto_range_have(c, 4, need))
		return;
	/* a TLS state for the one hello: what the tx needs is copied out */
	TlsState *tls = tls_state_new();
	if (tls && tls_hello_message(tls, dir, c->buf, need) == 0)
		hello_to_tx(tx, dir == 0 ? &tls->client : &tls->server, dir);
	tls_state_free(tls);
	c->done = true;
	crypto_release(c);
	/* both hellos read: the rest of the flow is ciphertext */
	if (s->crypto[0].done && s->crypto[1].done) {
		app_mem_free(ALPROTO_QUIC, s->scratch);
		s->scratch = NULL;
		s->scratch_cap = 0;
	}
}

/* ---- IETF frames of an Initial packet ---- */

/* Walks the frames: CRYPTO data to the direction's reassembly. 0, or -1
 * on a frame an Initial cannot carry or a short one. */
static int ietf_frames(QuicState *s, int dir, const uint8_t *p, size_t len)
{
	size_t o = 0;

	while (o < len) {
		uint64_t t, a, b, cnt;
		size_t k;

		if (!(k = quic_varint(p + o, len - o, &t)))
			return -1;
		o += k;
		switch (t) {
		case 0x00:              /* PADDING */
		case 0x01:              /* PING */
			continue;
		case 0x02:
		case 0x03:              /* ACK: largest, delay, count, first range */
			for (int i = 0; i < 3; i++) {
				if (!(k = quic_varint(p + o, len - o, i == 2 ? &cnt : &a)))
					return -1;
				o += k;
			}
			if (!(k = quic_varint(p + o, len - o, &a)))
				return -1;
			o += k;
			for (uint64_t i = 0; i < cnt * 2 + (t == 3 ? 3 : 0); i++) {
				if (!(k = quic_varint(p + o, len - o, &a)))
					return -1;
				o += k;
			}
			continue;
		case 0x06:              /* CRYPTO: offset, length, data */
			if (!(k = quic_varint(p + o, len - o, &a)))
				return -1;
			o += k;
			if (!(k = quic_varint(p + o, len - o, &b)) || b > len - o - k)
				return -1;
			o += k;
			crypto_add(s, dir, a, p + o, (size_t)b);
			o += (size_t)b;
			continue;
		case 0x1c:
		case 0x1d:              /* CONNECTION_CLOSE */
			if (!(k = quic_varint(p + o, len - o, &a)))
				return -1;
			o += k;
			if (t == 0x1c) {
				if (!(k = quic_varint(p + o, len - o, &a)))
					return -1;
				o += k;
			}
			if (!(k = quic_varint(p + o, len - o, &b)) || b > len - o - k)
				return -1;
			o += k + (size_t)b;
			continue;
		default:
			return -1;
		}
	}
	return 0;
}

static int scratch_room(QuicState *s, size_t n)
{
	if (n <= s->scratch_cap)
		return 0;
	if (n > 2 * 65536)
		return -1;
	uint8_t *b = app_mem_realloc(ALPROTO_QUIC, s->scratch, n);
	if (!b)
		return -1;
	s->scratch = b;
	s->scratch_cap = (uint32_t)n;
	return 0;
}

/* The full packet number nearest the next expected (RFC 9000 A.3). */
static uint64_t pn_decode(uint64_t largest, uint64_t trunc, int nbits)
{
	uint64_t expected = largest + 1, win = (uint64_t)1 << nbits, hwin = win / 2;
	uint64_t cand = (expected & ~(win - 1)) | trunc;

	if (cand + hwin <= expected && cand < ((uint64_t)1 << 62) - win)
		return cand + win;
	if (cand > expected + hwin && cand >= win)
		return cand - win;
	return cand;
}

/* One IETF Initial packet pkt[0..len) with its packet number at pn_off. */
static int ietf_initial(QuicState *s, int dir, uint32_t version, const uint8_t *pkt,
			size_t len, size_t pn_off)
{
	if (scratch_room(s, 2 * len) < 0)
		return -1;
	uint8_t *hdr = s->scratch, *out = s->scratch + len;
	memcpy(hdr, pkt, len);
	int pnl = quic_unprotect_header(&s->keys[dir], hdr, len, pn_off);
	if (pnl < 0)
		return -1;
	uint64_t trunc = 0;
	for (int i = 0; i < pnl; i++)
		trunc = trunc << 8 | hdr[pn_off + (size_t)i];
	uint64_t pn = s->largest_pn[dir] ? pn_decode(s->largest_pn[dir] - 1, trunc, pnl * 8)
					 : trunc;
	int n = quic_decrypt_payload(&s->keys[dir], pn, hdr, pn_off + (size_t)pnl, len, out);
	if (n < 0) {
		s->events |= 1u << QUIC_EV_FAILED_DECRYPT;
		tx_new(s, dir, version);
		return -1;
	}
	if (pn + 1 > s->largest_pn[dir])
		s->largest_pn[dir] = pn + 1;
	if (ietf_frames(s, dir, out, (size_t)n) < 0)
		s->events |= 1u << QUIC_EV_ERROR_ON_DATA;
	QuicTx *tx = tx_new(s, dir, version);
	if (tx)
		crypto_try_hello(s, dir, tx);
	return 0;
}

/* The client's Initial keys from dcid; after a Retry, its first Initial
 * on the new connection id starts the handshake over. 0, or -1. */
static int ietf_keys(QuicState *s, uint32_t version, const uint8_t *dcid, uint8_t dcil)
{
	if (s->keys_ok && !(s->retry && (dcil != s->dcid_len || memcmp(dcid, s->dcid, dcil))))
		return 0;
	if (quic_initial_keys(version, dcid, dcil, s->keys) < 0)
		return -1;
	memcpy(s->dcid, dcid, dcil);
	s->dcid_len = dcil;
	if (s->keys_ok) {
		s->largest_pn[0] = s->largest_pn[1] = 0;
		for (int i = 0; i < 2; i++) {
			crypto_release(&s->crypto[i]);
			memset(&s->crypto[i], 0, sizeof(s->crypto[i]));
		}
	}
	s->keys_ok = true;
	s->retry = false;
	return 0;
}

/* One IETF long-header packet at data[0..len): its length, or 0 when the
 * header does not parse. */
static size_t ietf_long(QuicState *s, int dir, uint32_t version, const uint8_t *d, size_t len)
{
	size_t o = 5, k;
	uint64_t tlen = 0, plen = 0;

	uint8_t dcil = d[o++];
	if (dcil > 20 || o + dcil + 1 > len)
		return 0;
	const uint8_t *dcid = d + o;
	o += dcil;
	uint8_t scil = d[o++];
	if (scil > 20 || o + scil > len)
		return 0;
	o += scil;
	unsigned type = (d[0] >> 4) & 3;
	if (version == QUIC_V2)
		type = (type + 3) & 3;  /* v2: Initial 1, 0-RTT 2, Handshake 3, Retry 0 */
	if (type == 3) {                /* Retry: the rest of the datagram */
		if (dir == 1)
			s->retry = true;
		return len;
	}
	if (type == 0) {                /* Initial: a token first */
		if (!(k = quic_varint(d + o, len - o, &tlen)) || tlen > len - o - k)
			return 0;
		o += k + (size_t)tlen;
	}
	if (!(k = quic_varint(d + o, len - o, &plen)) || plen > len - o - k)
		return 0;
	o += k;
	size_t end = o + (size_t)plen;
	if (type != 0)
		return end;             /* 0-RTT, Handshake: not ours to open */
	if (quic_crypto_supported(version) < 0) {
		tx_new(s, dir, version); /* Q050, T05x: the version only */
		return end;
	}
	if (dir == 0 && ietf_keys(s, version, dcid, dcil) < 0)
		return end;
	if (!s->keys_ok || s->crypto[dir].done)
		return end;             /* no keys yet; or the rest is encrypted */
	ietf_initial(s, dir, version, d, end, o);
	return end;
}

/* ---- gQUIC ---- */

/* The CHLO of a gQUIC stream frame's data: sni, ua and the cyu. */
static void gquic_chlo(QuicTx *tx, const uint8_t *p, size_t len)
{
	if (len < 8 || memcmp(p, "CHLO", 4) != 0)
		return;
	unsigned n = p[4] | (unsigned)p[5] << 8;
	size_t vbase = 8 + (size_t)n * 8;
	if (vbase > len)
		return;
	char cyu[2048];
	size_t cl = 0;
	char vb[12];
	const char *ver = quic_version_string(tx->version, vb);
	/* the number of "Q046": 46 */
	cl = (size_t)snprintf(cyu, sizeof(cyu), "%d,", atoi(ver + 1));
	uint32_t prev = 0;
	for (unsigned i = 0; i < n; i++) {
		const uint8_t *e = p + 8 + (size_t)i * 8;
		uint32_t endo = le32(e + 4);
		if (endo < prev || vbase + endo > len)
			break;
		const uint8_t *v = p + vbase + prev;
		size_t vl = endo - prev;
		prev = endo;
		size_t tl = 4;
		while (tl && e[tl - 1] == 0)
			tl--;
		if (cl + tl + 1 < sizeof(cyu)) {
			if (i)
				cyu[cl++] = '-';
			memcpy(cyu + cl, e, tl);
			cl += tl;
		}
		if (tl == 3 && memcmp(e, "SNI", 3) == 0 && !tx->sni && vl < 256) {
			tx->sni = dupn(v, vl);
			tx->sni_len = tx->sni ? (uint16_t)vl : 0;
		} else if (tl == 4 && memcmp(e, "UAID", 4) == 0 && !tx->ua && vl < 1024) {
			tx->ua = dupn(v, vl);
			tx->ua_len = tx->ua ? (uint16_t)vl : 0;
		}
	}
	if ((tx->cyu = dupn(cyu, cl))) {
		tx->cyu_len = (uint16_t)cl;
		tls_ja_md5_hex(cyu, cl, tx->cyu_hash);
	}
}

/* gQUIC frames after the clear packet's 12-byte hash: the first stream
 * frame's data, when it is the handshake stream's CHLO. */
static void gquic_frames(QuicTx *tx, const uint8_t *p, size_t len)
{
	size_t o = 0;

	while (o < len) {
		uint8_t t = p[o++];
		if (t == 0x00)          /* PADDING: the rest */
			return;
		if (!(t & 0x80))
			return;         /* anything else ends what we read */
		size_t sl = (size_t)(t & 3) + 1, ol = (t >> 2) & 7;
		ol = ol ? ol + 1 : 0;
		if (o + sl + ol > len)
			return;
		o += sl + ol;
		size_t dl = len - o;
		if (t & 0x20) {
			if (o + 2 > len)
				return;
			dl = (size_t)p[o] << 8 | p[o + 1];
			o += 2;
			if (dl > len - o)
				return;
		}
		gquic_chlo(tx, p + o, dl);
		return;
	}
}

/* A Q046 long header: flags, version, connection id lengths, the ids, the
 * packet number; or (Q043 and before) the public header. */
static int gquic_packet(QuicState *s, int dir, const uint8_t *d, size_t len)
{
	size_t o;
	uint32_t version;

	if (d[0] & 0x80) {
		version = be32(d + 1);
		uint8_t cl = d[5];
		size_t dl = cl >> 4, sl = cl & 15;
		dl = dl ? dl + 3 : 0;
		sl = sl ? sl + 3 : 0;
		o = 6 + dl + sl + (size_t)(d[0] & 3) + 1;
	} else {
		version = be32(d + 9);
		static const size_t pnl[4] = { 1, 2, 4, 6 };
		/* 0x04: a server's diversification nonce (a client's 0x0c
		 * is the old 8-byte connection id flag) */
		o = 13 + (dir == 1 && (d[0] & 0x04) ? 32 : 0) + pnl[(d[0] >> 4) & 3];
	}
	QuicTx *tx = tx_new(s, dir, version);
	if (!tx)
		return -1;
	/* a clear packet: its 12-byte message hash, then the frames */
	if (o + 12 < len)
		gquic_frames(tx, d + o + 12, len - o - 12);
	return 0;
}

int quic_parse_datagram(QuicState *s, int dir, const uint8_t *data, size_t len)
{
	uint64_t before = s->txs.next_id;
	size_t off = 0;

	dir &= 1;
	s->events = 0;
	if (len >= 13 && !(data[0] & 0x80) && (data[0] & 0x09) == 0x09 && !(data[0] & 0x40) &&
	    gquic_legacy(be32(data + 9)))
		return gquic_packet(s, dir, data, len) < 0 ? -1 : 1;
	while (off < len) {
		const uint8_t *d = data + off;
		size_t left = len - off;

		if (!(d[0] & 0x80))
			break;          /* a short header: the rest, ciphertext */
		if (left < 7) {
			s->events |= 1u << QUIC_EV_ERROR_ON_HEADER;
			tx_new(s, dir, 0);
			return -1;
		}
		uint32_t version = be32(d + 1);
		/* version negotiation, a GREASE version (RFC 9000 15), or
		 * bytes of another protocol on the flow's ports (RTP over a
		 * QUIC flow's 5-tuple): nothing we read, and no event */
		if (!ietf_known(version) && !is_gquic(version))
			break;
		if (gquic_legacy(version)) {
			gquic_packet(s, dir, d, left);
			break;
		}
		size_t n = ietf_long(s, dir, version, d, left);
		if (!n) {
			s->events |= 1u << QUIC_EV_ERROR_ON_HEADER;
			tx_new(s, dir, version);
			return -1;
		}
		off += n;
	}
	/* a packet that did not open or parse is a parser error */
	if (s->events)
		return -1;
	return (int)(s->txs.next_id - before);
}
