/* TLS keywords, as Suricata 8 documents them (rules/tls-keywords,
 * rules/ja-keywords): the sticky buffers (tls.sni, tls.cert_subject, ...,
 * ja3.hash, ...; Suricata 4's tls_sni, tls_cert_subject, ... names too) read
 * the flow's TLS transaction through the buffer registry; the matchers
 * (ssl_version, ssl_state, tls.version, tls_cert_*, tls.subject, ...) are
 * match-list keywords over the same transaction. The buffers and matchers
 * themselves are tls-kw-match.c's.
 *
 * Most matchers are transaction properties (SIG_FLAG_TX_MATCH): a rule of
 * them alone is evaluated once per transaction when the handshake is over
 * (or at flow end), as Suricata's TLS inspection engines are. ssl_state
 * looks at what the current packet's records did, so it stays a packet
 * keyword. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/buffers.h"
#include "detect/tls-kw-match.h"
#include "app-layer/tls.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

enum tls_match_kind {
	TM_SSL_VERSION, TM_SSL_STATE, TM_TLS_VERSION, TM_NOTBEFORE, TM_NOTAFTER,
	TM_EXPIRED, TM_VALID, TM_SUBJECT, TM_ISSUERDN, TM_FINGERPRINT, TM_CHAIN_LEN,
};

typedef struct DetectTls {
	int kind;                 /* enum tls_match_kind */
	union {
		TlsSslVersionKw sslv;
		TlsSslStateKw state;
		TlsVersionKw version;
		TlsDateKw date;
		TlsLegacyKw legacy;
		DetectUint u;
	} v;
} DetectTls;

/* ---- the flow's transaction ---- */

static void *kw_info_new(void)
{
	TlsKwInfo *ki = malloc(sizeof(*ki));

	if (ki)
		tls_kw_info_init(ki);
	return ki;
}

static void kw_info_free(void *p)
{
	if (p) {
		tls_kw_info_free(p);
		free(p);
	}
}

/* The decoded fields of tx, brought up to date with its parser state. */
static TlsKwInfo *tx_info(void *tx, const TlsState *s)
{
	TlsKwInfo *ki = tls_tx_kw_cache(tx, kw_info_new, kw_info_free);

	if (ki)
		tls_kw_info_update(ki, s);
	return ki;
}

int tls_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		   const uint8_t **data, uint32_t *len)
{
	const TlsState *s = tls_tx_state(tx);
	int pb = b->pbuf[side & 1], dir = side & 1;
	TlsKwInfo *ki;

	if (!s)
		return -1;
	switch (pb) {
	case TLS_KW_BUF_CERTS:
		return tls_kw_cert(s, dir, idx, data, len) ? 0 : -1;
	case TLS_KW_BUF_ALPN:
		return tls_kw_alpn(s, dir, idx, data, len) ? 0 : -1;
	}
	if (!(ki = tx_info(tx, s)))
		return -1;
	if (pb == TLS_KW_BUF_SAN)
		return tls_kw_san(ki, dir, idx, data, len) ? 0 : -1;
	if (idx)
		return -1;
	return tls_kw_buffer(ki, s, (enum tls_kw_buf)pb, dir, data, len) ? 0 : -1;
}

/* ---- setup ---- */

/* Marks the rule as TLS; an error if its protocol cannot carry TLS. */
static int sig_set_alproto_tls(SigParseState *st)
{
	Signature *s = st->s;

	if (s->proto != IPPROTO_TCP && s->proto != SIG_PROTO_IP)
		return sig_error(st, "tls keywords need a tcp, ip or tls rule");
	if (s->alproto != ALPROTO_UNKNOWN && s->alproto != ALPROTO_TLS)
		return sig_error(st, "tls keywords in a rule of another protocol");
	s->alproto = ALPROTO_TLS;
	s->flags |= SIG_FLAG_APPLAYER;
	return 0;
}

static int kw_tls_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	/* an "alert quic" rule reads the QUIC hello's fingerprints */
	if (st->s->alproto == ALPROTO_QUIC && quic_ja_buffer(kw->buf) >= 0) {
		if (kw->buf == BUF_JA4_HASH)
			tls_ja_request(0, 1);
		return sig_select_buffer(st, quic_ja_buffer(kw->buf));
	}
	if (sig_set_alproto_tls(st))
		return -1;
	/* ja3/ja4 "auto": computed once a rule needs them */
	if (kw->buf >= BUF_JA3_HASH && kw->buf <= BUF_JA3S_STRING)
		tls_ja_request(1, 0);
	else if (kw->buf == BUF_JA4_HASH)
		tls_ja_request(0, 1);
	return sig_select_buffer(st, kw->buf);
}

static int match_append(SigParseState *st, DetectTls *t, int tx)
{
	if (sig_set_alproto_tls(st)) {
		free(t);
		return -1;
	}
	if (tx)
		st->s->flags |= SIG_FLAG_TX_MATCH;
	return sm_append(st, SM_LIST_MATCH, KW_TLS_MATCH, t) < 0 ? -1 : 0;
}

static int kw_tls_match(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectTls *t = calloc(1, sizeof(*t));
	int rc = 0;

	if (!t)
		return sig_error(st, "out of memory");
	t->kind = kw->buf;
	switch (t->kind) {
	case TM_SSL_VERSION:
		rc = tls_kw_ssl_version_parse(arg, &t->v.sslv);
		break;
	case TM_SSL_STATE:
		rc = tls_kw_ssl_state_parse(arg, &t->v.state);
		break;
	case TM_TLS_VERSION:
		rc = tls_kw_version_parse(arg, &t->v.version);
		break;
	case TM_NOTBEFORE:
	case TM_NOTAFTER:
		rc = tls_kw_date_parse(arg, &t->v.date);
		break;
	case TM_EXPIRED:
	case TM_VALID:
		break;
	case TM_SUBJECT:
	case TM_ISSUERDN:
	case TM_FINGERPRINT:
		rc = tls_kw_legacy_parse(arg, &t->v.legacy);
		break;
	case TM_CHAIN_LEN:
		rc = parse_uint_cmp(arg, UINT32_MAX, &t->v.u);
		break;
	}
	if (rc != 0) {
		free(t);
		return sig_error(st, "invalid %s \"%s\"", kw->name, arg ? arg : "");
	}
	return match_append(st, t, t->kind != TM_SSL_STATE);
}

/* tls.store: after a match, the certificates of the direction it matched
 * in go to disk (a match on the server's certificate, on a packet toward
 * the client: the server's chain), as Suricata flags that side's chain;
 * the tls-store output writes it once it is there. */
static int kw_tls_store(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)kw;
	if (arg && *arg)
		return sig_error(st, "tls.store takes no argument");
	if (sig_set_alproto_tls(st))
		return -1;
	return sm_append(st, SM_LIST_POSTMATCH, KW_TLS_STORE, NULL) < 0 ? -1 : 0;
}

void tls_store_apply(Packet *p)
{
	const Flow *f = p->flow;
	void *tx;

	if (f && f->app_proto == ALPROTO_TLS && (tx = app_layer_tx_get(f, 0)))
		tls_tx_store_request(tx, (p->flags & PKT_TOCLIENT) ? TLS_TOCLIENT : TLS_TOSERVER);
}

/* ---- match ---- */

static const TlsState *pkt_tls(Packet *p, void **tx)
{
	const Flow *f = p->flow;

	if (!f || f->app_proto != ALPROTO_TLS || !(*tx = app_layer_tx_get(f, 0)))
		return NULL;
	return tls_tx_state(*tx);
}

static int match_tls(DetectThread *dt, const SigMatch *m, Packet *p)
{
	const DetectTls *t = m->ctx;
	int dir = (p->flags & PKT_TOCLIENT) ? TLS_TOCLIENT : TLS_TOSERVER;
	void *tx = NULL;
	const TlsState *s = pkt_tls(p, &tx);
	TlsKwInfo *ki;

	(void)dt;
	if (!s)
		return 0;
	switch (t->kind) {
	case TM_SSL_VERSION:
		return tls_kw_ssl_version_match(&t->v.sslv, s, dir);
	case TM_SSL_STATE:
		return tls_kw_ssl_state_match(&t->v.state, tls_tx_packet_state(tx, p->flow));
	case TM_TLS_VERSION:
		return tls_kw_version_match(&t->v.version, s, dir);
	case TM_CHAIN_LEN:
		/* Suricata: the server's chain */
		return detect_uint_match(&t->v.u, tls_kw_chain_len(s, TLS_TOCLIENT));
	}
	if (!(ki = tx_info(tx, s)))
		return 0;
	/* the certificate keywords read the server's certificate, as
	 * Suricata registers them to the client only */
	switch (t->kind) {
	case TM_NOTBEFORE:
		return tls_kw_notbefore_match(&t->v.date, ki, TLS_TOCLIENT);
	case TM_NOTAFTER:
		return tls_kw_notafter_match(&t->v.date, ki, TLS_TOCLIENT);
	case TM_EXPIRED:
		return tls_kw_cert_expired(ki, TLS_TOCLIENT, (int64_t)p->ts.tv_sec);
	case TM_VALID:
		return tls_kw_cert_valid(ki, TLS_TOCLIENT, (int64_t)p->ts.tv_sec);
	case TM_SUBJECT:
		return tls_kw_legacy_match(&t->v.legacy, ki, TLS_BUF_CERT_SUBJECT);
	case TM_ISSUERDN:
		return tls_kw_legacy_match(&t->v.legacy, ki, TLS_BUF_CERT_ISSUER);
	case TM_FINGERPRINT:
		return tls_kw_legacy_match(&t->v.legacy, ki, TLS_BUF_CERT_FINGERPRINT);
	}
	return 0;
}

static void free_tls(void *ctx)
{
	DetectTls *t = ctx;

	if (t->kind == TM_SUBJECT || t->kind == TM_ISSUERDN || t->kind == TM_FINGERPRINT)
		tls_kw_legacy_free(&t->v.legacy);
}

#define TS(n_, b_) { .name = n_, .id = KW_TLS_STICKY, .setup = kw_tls_sticky, \
	.flags = STICKY, .buf = b_, .desc = "sticky buffer" }
#define TM(n_, k_, f_, d_) { .name = n_, .id = KW_TLS_MATCH, .setup = kw_tls_match, \
	.flags = f_, .buf = k_, .desc = d_, .match = match_tls, .free = free_tls }

/* The keywords of this family: keywords.c gathers the tables (one line
 * per family). */
const Keyword tls_keywords[] = {
	{ .name = "tls.store", .id = KW_TLS_STORE, .setup = kw_tls_store, .flags = NA, .buf = -1,
	  .desc = "store the flow's certificates (tls-store output)" },
	TS("tls.sni", BUF_TLS_SNI),
	TS("tls_sni", BUF_TLS_SNI),
	TS("tls.cert_subject", BUF_TLS_CERT_SUBJECT),
	TS("tls_cert_subject", BUF_TLS_CERT_SUBJECT),
	TS("tls.cert_issuer", BUF_TLS_CERT_ISSUER),
	TS("tls_cert_issuer", BUF_TLS_CERT_ISSUER),
	TS("tls.cert_serial", BUF_TLS_CERT_SERIAL),
	TS("tls_cert_serial", BUF_TLS_CERT_SERIAL),
	TS("tls.cert_fingerprint", BUF_TLS_CERT_FINGERPRINT),
	TS("tls_cert_fingerprint", BUF_TLS_CERT_FINGERPRINT),
	TS("tls.certs", BUF_TLS_CERTS),
	TS("ja3.hash", BUF_JA3_HASH),
	TS("ja3_hash", BUF_JA3_HASH),
	TS("ja3.string", BUF_JA3_STRING),
	TS("ja3_string", BUF_JA3_STRING),
	TS("ja3s.hash", BUF_JA3S_HASH),
	TS("ja3s.string", BUF_JA3S_STRING),
	TS("ja4.hash", BUF_JA4_HASH),
	TS("tls.random", BUF_TLS_RANDOM),
	TS("tls.random_time", BUF_TLS_RANDOM_TIME),
	TS("tls.random_bytes", BUF_TLS_RANDOM_BYTES),
	TS("tls.alpn", BUF_TLS_ALPN),
	TS("tls.subjectaltname", BUF_TLS_SAN),
	TM("ssl_version", TM_SSL_VERSION, NEED, "ssl/tls version of the hello"),
	TM("ssl_state", TM_SSL_STATE, NEED, "tls handshake state of the packet"),
	TM("tls.version", TM_TLS_VERSION, NEED | SQ, "tls version"),
	TM("tls_cert_notbefore", TM_NOTBEFORE, NEED | SQ, "certificate not-before date"),
	TM("tls_cert_notafter", TM_NOTAFTER, NEED | SQ, "certificate not-after date"),
	TM("tls_cert_expired", TM_EXPIRED, NA, "certificate expired"),
	TM("tls_cert_valid", TM_VALID, NA, "certificate valid"),
	TM("tls.subject", TM_SUBJECT, NEED, "certificate subject contains"),
	TM("tls.issuerdn", TM_ISSUERDN, NEED, "certificate issuer contains"),
	TM("tls.fingerprint", TM_FINGERPRINT, NEED, "certificate fingerprint"),
	TM("tls.cert_chain_len", TM_CHAIN_LEN, NEED | SQ, "certificates in the server's chain"),
	{ .name = NULL }
};
