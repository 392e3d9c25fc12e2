/* eve "tls" object (see tls-json.h). */
#include "config.h"

#include "output/tls-json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "app-layer/tls-cert.h"
#include "app-layer/tls-ja.h"
#include "app-layer/tls.h"
#include "output/output-private.h"
#include "output/json-dump.h"

static const struct {
	const char *name;
	uint32_t bit;
} fields_by_name[] = {
	{ "subject", TLS_LOG_SUBJECT },
	{ "issuer", TLS_LOG_ISSUER },
	{ "session_resumed", TLS_LOG_SESSION_RESUMED },
	{ "serial", TLS_LOG_SERIAL },
	{ "fingerprint", TLS_LOG_FINGERPRINT },
	{ "sni", TLS_LOG_SNI },
	{ "version", TLS_LOG_VERSION },
	{ "not_before", TLS_LOG_NOTBEFORE },
	{ "not_after", TLS_LOG_NOTAFTER },
	{ "certificate", TLS_LOG_CERTIFICATE },
	{ "chain", TLS_LOG_CHAIN },
	{ "ja3", TLS_LOG_JA3 },
	{ "ja3s", TLS_LOG_JA3S },
	{ "ja4", TLS_LOG_JA4 },
	{ "subjectaltname", TLS_LOG_SUBJECTALTNAME },
	{ "client", TLS_LOG_CLIENT },
	{ "client_certificate", TLS_LOG_CLIENT_CERTIFICATE },
	{ "client_chain", TLS_LOG_CLIENT_CHAIN },
	{ "client_alpns", TLS_LOG_CLIENT_ALPNS },
	{ "server_alpns", TLS_LOG_SERVER_ALPNS },
	{ "client_handshake", TLS_LOG_CLIENT_HANDSHAKE },
	{ "server_handshake", TLS_LOG_SERVER_HANDSHAKE },
};

uint32_t tls_log_field(const char *name)
{
	if (!name)
		return 0;
	for (size_t i = 0; i < sizeof(fields_by_name) / sizeof(fields_by_name[0]); i++)
		if (strcmp(fields_by_name[i].name, name) == 0)
			return fields_by_name[i].bit;
	return 0;
}

int tls_log_custom_fields(const char *const *names, unsigned n, uint32_t *fields,
			  const char **bad)
{
	uint32_t f = 0;

	if (bad)
		*bad = NULL;
	for (unsigned i = 0; i < n; i++) {
		uint32_t b = tls_log_field(names[i]);
		if (!b) {
			if (bad)
				*bad = names[i];
			return -1;
		}
		f |= b;
	}
	*fields = f;
	return 0;
}

static json_t *json_base64(const uint8_t *p, uint32_t n)
{
	size_t cap = 4 * (((size_t)n + 2) / 3) + 1;
	unsigned char *b = malloc(cap);
	json_t *j;

	if (!b)
		return json_string("");
	int len = EVP_EncodeBlock(b, p, (int)n);
	j = json_stringn((const char *)b, len > 0 ? (size_t)len : 0);
	free(b);
	return j;
}

static void add_dates(json_t *o, const TlsCertInfo *ci, uint32_t fields)
{
	char buf[32];

	if (fields & TLS_LOG_NOTBEFORE)
		json_object_set_new(o, "notbefore",
				    json_string(tls_time_str(ci->notbefore, buf, sizeof(buf))));
	if (fields & TLS_LOG_NOTAFTER)
		json_object_set_new(o, "notafter",
				    json_string(tls_time_str(ci->notafter, buf, sizeof(buf))));
}

static json_t *san_array(const TlsCertInfo *ci)
{
	json_t *a = json_array();

	for (uint32_t i = 0; i < ci->nsan; i++)
		json_array_append_new(a, eve_json_bytes((const uint8_t *)ci->san[i], strlen(ci->san[i])));
	return a;
}

static json_t *chain_array(const TlsCertChain *ch)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < ch->n; i++) {
		uint32_t len;
		const uint8_t *der = tls_chain_cert(ch, i, &len);
		json_array_append_new(a, json_base64(der, len));
	}
	return a;
}

static json_t *alpn_array(const TlsHello *h)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < h->nalpn; i++) {
		uint8_t len;
		const uint8_t *p = tls_hello_alpn(h, i, &len);
		json_array_append_new(a, eve_json_bytes(p, len));
	}
	return a;
}

static json_t *u16_array(const uint16_t *v, unsigned n)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < n; i++)
		json_array_append_new(a, json_integer(v[i]));
	return a;
}

static void add_client_cert(json_t *tls, const TlsState *s, uint32_t fields)
{
	const TlsCertChain *ch = &s->certs[TLS_TOSERVER];
	const TlsCertInfo *cp = tls_leaf_info(s, TLS_TOSERVER);
	uint32_t len;
	const uint8_t *der = tls_chain_cert(ch, 0, &len);

	if (!der || !cp)
		return;
	const TlsCertInfo ci = *cp;
	json_t *c = json_object();
	json_object_set_new(c, "subject", eve_json_bytes((const uint8_t *)ci.subject, ci.subject_len));
	json_object_set_new(c, "issuerdn", eve_json_bytes((const uint8_t *)ci.issuer, ci.issuer_len));
	json_object_set_new(c, "serial", json_string(ci.serial));
	json_object_set_new(c, "fingerprint", json_string(ci.fingerprint));
	add_dates(c, &ci, TLS_LOG_NOTBEFORE | TLS_LOG_NOTAFTER);
	if (ci.nsan)
		json_object_set_new(c, "subjectaltname", san_array(&ci));
	if (fields & TLS_LOG_CLIENT_CERTIFICATE)
		json_object_set_new(c, "certificate", json_base64(der, len));
	if (fields & TLS_LOG_CLIENT_CHAIN)
		json_object_set_new(c, "chain", chain_array(ch));
	json_object_set_new(tls, "client", c);
}

json_t *tls_json_object(const TlsState *s, uint32_t fields)
{
	json_t *tls = json_object();
	const TlsCertChain *srv = &s->certs[TLS_TOCLIENT];
	const TlsCertInfo *leaf = tls_leaf_info(s, TLS_TOCLIENT);
	TlsCertInfo ci;
	bool have_cert = leaf != NULL;
	uint32_t len = 0;
	const uint8_t *der = tls_chain_cert(srv, 0, &len);
	char buf[8192];

	if (have_cert)
		ci = *leaf;          /* a view: the state owns it */

	/* Suricata 8's order: certificate names, resumption, the leaf's
	 * identity, then the handshake */
	if (have_cert && (fields & TLS_LOG_SUBJECT))
		json_object_set_new(tls, "subject",
				    eve_json_bytes((const uint8_t *)ci.subject, ci.subject_len));
	if (have_cert && (fields & TLS_LOG_ISSUER))
		json_object_set_new(tls, "issuerdn",
				    eve_json_bytes((const uint8_t *)ci.issuer, ci.issuer_len));
	if ((fields & TLS_LOG_SESSION_RESUMED) && (s->flags & TLS_F_SESSION_RESUMED))
		json_object_set_new(tls, "session_resumed", json_true());
	if (have_cert && (fields & TLS_LOG_SERIAL))
		json_object_set_new(tls, "serial", json_string(ci.serial));
	if (have_cert && (fields & TLS_LOG_FINGERPRINT))
		json_object_set_new(tls, "fingerprint", json_string(ci.fingerprint));
	if ((fields & TLS_LOG_SNI) && s->client.present && s->client.sni_len)
		json_object_set_new(tls, "sni", eve_json_bytes((const uint8_t *)s->client.sni,
							   s->client.sni_len));
	if (fields & TLS_LOG_VERSION)
		json_object_set_new(tls, "version", json_string(tls_version_name(
							    tls_state_version(s), buf, sizeof(buf))));
	if (have_cert)
		add_dates(tls, &ci, fields);
	if (have_cert && (fields & TLS_LOG_SUBJECTALTNAME) && ci.nsan)
		json_object_set_new(tls, "subjectaltname", san_array(&ci));
	if (fields & TLS_LOG_JA3) {
		int n = tls_ja3_string(&s->client, buf, sizeof(buf));
		if (n >= 0) {
			char md5[TLS_JA_MD5_LEN + 1];
			tls_ja_md5_hex(buf, (size_t)n, md5);
			json_t *j = json_object();
			json_object_set_new(j, "hash", json_string(md5));
			json_object_set_new(j, "string", json_string(buf));
			json_object_set_new(tls, "ja3", j);
		}
	}
	if (fields & TLS_LOG_JA3S) {
		int n = tls_ja3s_string(&s->server, buf, sizeof(buf));
		if (n >= 0) {
			char md5[TLS_JA_MD5_LEN + 1];
			tls_ja_md5_hex(buf, (size_t)n, md5);
			json_t *j = json_object();
			json_object_set_new(j, "hash", json_string(md5));
			json_object_set_new(j, "string", json_string(buf));
			json_object_set_new(tls, "ja3s", j);
		}
	}
	if (fields & TLS_LOG_JA4) {
		char ja4[TLS_JA4_LEN + 1];
		if (tls_ja4(&s->client, ja4) == 0)
			json_object_set_new(tls, "ja4", json_string(ja4));
	}
	if ((fields & TLS_LOG_CLIENT_ALPNS) && s->client.nalpn)
		json_object_set_new(tls, "client_alpns", alpn_array(&s->client));
	if ((fields & TLS_LOG_SERVER_ALPNS) && s->server.nalpn)
		json_object_set_new(tls, "server_alpns", alpn_array(&s->server));
	if ((fields & TLS_LOG_CERTIFICATE) && der)
		json_object_set_new(tls, "certificate", json_base64(der, len));
	if ((fields & TLS_LOG_CHAIN) && srv->n)
		json_object_set_new(tls, "chain", chain_array(srv));
	if ((fields & TLS_LOG_CLIENT_HANDSHAKE) && s->client.present) {
		const TlsHello *h = &s->client;
		json_t *o = json_object();
		json_object_set_new(o, "version",
				    json_string(tls_version_name(h->version, buf, sizeof(buf))));
		if (h->nciphers)
			json_object_set_new(o, "ciphers", u16_array(h->ciphers, h->nciphers));
		if (h->nexts)
			json_object_set_new(o, "exts", u16_array(h->exts, h->nexts));
		if (h->nsigalgs)
			json_object_set_new(o, "sig_algs", u16_array(h->sigalgs, h->nsigalgs));
		json_object_set_new(tls, "client_handshake", o);
	}
	if ((fields & TLS_LOG_SERVER_HANDSHAKE) && s->server.present) {
		const TlsHello *h = &s->server;
		json_t *o = json_object();
		json_object_set_new(o, "version",
				    json_string(tls_version_name(tls_state_version(s), buf,
								 sizeof(buf))));
		json_object_set_new(o, "cipher", json_integer(h->ciphers[0]));
		if (h->nexts)
			json_object_set_new(o, "exts", u16_array(h->exts, h->nexts));
		json_object_set_new(tls, "server_handshake", o);
	}
	if (fields & (TLS_LOG_CLIENT | TLS_LOG_CLIENT_CERTIFICATE | TLS_LOG_CLIENT_CHAIN))
		add_client_cert(tls, s, fields);
	return tls;
}

/* ---- the eve logger (its line is in tx-log.c) ---- */

/* The fields the logger may write: ja3/ja3s and ja4 only when the app
 * layer computes them (app-layer.protocols.tls.ja3-fingerprints,
 * ja4-fingerprints). */
static uint32_t usable_fields(uint32_t fields)
{
	if (!tls_ja3_enabled())
		fields &= ~(TLS_LOG_JA3 | TLS_LOG_JA3S);
	if (!tls_ja4_enabled())
		fields &= ~TLS_LOG_JA4;
	return fields;
}

static bool is_tls13(uint16_t v)
{
	return v == TLS_V_13 || (v >> 8) == 0x7f || (v >> 8) == 0xfb;
}

/* Suricata writes a tls record when the server's certificate was seen, for
 * a TLS 1.3 handshake (encrypted certificate), and for a resumed session
 * when session-resumption is on. */
static bool worth_logging(const Outputs *o, const TlsState *s)
{
	if (s->flags & TLS_F_CERT_SERVER && s->certs[TLS_TOCLIENT].n)
		return true;
	if (s->server.present && is_tls13(tls_state_version(s)))
		return true;
	return (s->flags & TLS_F_SESSION_RESUMED) && o->cfg.eve_tls_resumption;
}

static void log_tls_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	const TlsState *s = tls_tx_state(tx);
	const struct timeval *ts = p ? &p->ts : &f->last;
	json_t *rec;

	if (!o || !s || !outputs_eve_enabled(o, "tls") || !worth_logging(o, s))
		return;
	rec = eve_header(ts, "tls", NULL, f);
	if (!rec)
		return;
	if (p && p->pcap_cnt)
		json_object_set_new(rec, "pcap_cnt", json_integer((json_int_t)p->pcap_cnt));
	json_object_set_new(rec, "tls", tls_json_object(s, usable_fields(o->cfg.eve_tls_fields)));
	eve_write(o, rec);
}

/* Alerts on a TLS flow carry its "tls" object, as Suricata's alert
 * metadata does: the extended fields. */
static json_t *alert_tls_json(const Flow *f, void *tx)
{
	const TlsState *s = tls_tx_state(tx);
	json_t *rec;

	(void)f;
	if (!s)
		return NULL;
	rec = json_object();
	json_object_set_new(rec, "tls", tls_json_object(s, usable_fields(TLS_LOG_EXTENDED)));
	return rec;
}

const EveTxLogger eve_tls_logger = {
	.log_tx = log_tls_tx,
	.alert_json = alert_tls_json,
	.flow_scope = 1,
};
