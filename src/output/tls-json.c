/* eve "tls" object (see tls-json.h). */
#include "config.h"

#include "output/tls-json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "app-layer/tls-cert.h"
#include "app-layer/tls-ja.h"
#include "app-layer/app-layer.h"
#include "app-layer/tls.h"
#include "output/output-private.h"
#include "output/json-dump.h"
#include "output/json-writer.h"

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

/* The certificate's DER as base64 (EVP_EncodeBlock's alphabet: ASCII
 * that JSON keeps). */
static void write_base64(JsonWriter *w, const char *key, const uint8_t *p, uint32_t n)
{
	size_t cap = 4 * (((size_t)n + 2) / 3) + 1;
	unsigned char stack[4096], *b = cap <= sizeof(stack) ? stack : malloc(cap);
	int len;

	if (!b) {
		jw_ascii(w, key, "", 0);
		return;
	}
	len = EVP_EncodeBlock(b, p, (int)n);
	jw_ascii(w, key, (const char *)b, len > 0 ? (size_t)len : 0);
	if (b != stack)
		free(b);
}

static void write_dates(JsonWriter *w, const TlsCertInfo *ci, uint32_t fields)
{
	char buf[32];

	if (fields & TLS_LOG_NOTBEFORE)
		jw_str(w, "notbefore", tls_time_str(ci->notbefore, buf, sizeof(buf)));
	if (fields & TLS_LOG_NOTAFTER)
		jw_str(w, "notafter", tls_time_str(ci->notafter, buf, sizeof(buf)));
}

static void write_sans(JsonWriter *w, const TlsCertInfo *ci)
{
	jw_array(w, "subjectaltname");
	for (uint32_t i = 0; i < ci->nsan; i++)
		jw_bytes(w, NULL, ci->san[i], strlen(ci->san[i]));
	jw_close(w);
}

static void write_chain(JsonWriter *w, const TlsCertChain *ch)
{
	jw_array(w, "chain");
	for (unsigned i = 0; i < ch->n; i++) {
		uint32_t len = 0;
		const uint8_t *der = tls_chain_cert(ch, i, &len);

		write_base64(w, NULL, der, len);
	}
	jw_close(w);
}

static void write_alpns(JsonWriter *w, const char *key, const TlsHello *h)
{
	jw_array(w, key);
	for (unsigned i = 0; i < h->nalpn; i++) {
		uint8_t len;
		const uint8_t *p = tls_hello_alpn(h, i, &len);

		jw_bytes(w, NULL, p, len);
	}
	jw_close(w);
}

static void write_u16s(JsonWriter *w, const char *key, const uint16_t *v, unsigned n)
{
	jw_array(w, key);
	for (unsigned i = 0; i < n; i++)
		jw_int(w, NULL, v[i]);
	jw_close(w);
}

static void write_ja(JsonWriter *w, const char *key, const char *str, size_t n)
{
	char md5[TLS_JA_MD5_LEN + 1];

	tls_ja_md5_hex(str, n, md5);
	jw_object(w, key);
	jw_str(w, "hash", md5);
	jw_str(w, "string", str);
	jw_close(w);
}

static void write_client_cert(JsonWriter *w, const TlsState *s, uint32_t fields)
{
	const TlsCertChain *ch = &s->certs[TLS_TOSERVER];
	const TlsCertInfo *ci = tls_leaf_info(s, TLS_TOSERVER);
	uint32_t len;
	const uint8_t *der = tls_chain_cert(ch, 0, &len);

	if (!der || !ci)
		return;
	jw_object(w, "client");
	jw_bytes(w, "subject", ci->subject, ci->subject_len);
	jw_bytes(w, "issuerdn", ci->issuer, ci->issuer_len);
	jw_str(w, "serial", ci->serial);
	jw_str(w, "fingerprint", ci->fingerprint);
	write_dates(w, ci, TLS_LOG_NOTBEFORE | TLS_LOG_NOTAFTER);
	if (ci->nsan)
		write_sans(w, ci);
	if (fields & TLS_LOG_CLIENT_CERTIFICATE)
		write_base64(w, "certificate", der, len);
	if (fields & TLS_LOG_CLIENT_CHAIN)
		write_chain(w, ch);
	jw_close(w);
}

/* The version a record names: the server's choice; before a ServerHello,
 * the client's hello version (Suricata 8.0.3 logs a flow that only sent a
 * ClientHello with it, not as undetermined). */
static uint16_t logged_version(const TlsState *s)
{
	if (s->server.present)
		return tls_state_version(s);
	return s->client.present ? s->client.version : 0;
}

void tls_json_write(JsonWriter *w, const TlsState *s, uint32_t fields)
{
	const TlsCertChain *srv = &s->certs[TLS_TOCLIENT];
	const TlsCertInfo *ci = tls_leaf_info(s, TLS_TOCLIENT);   /* the state owns it */
	uint32_t len = 0;
	const uint8_t *der = tls_chain_cert(srv, 0, &len);
	char buf[8192];

	/* Suricata 8's order: certificate names, resumption, the leaf's
	 * identity, then the handshake */
	if (ci && (fields & TLS_LOG_SUBJECT))
		jw_bytes(w, "subject", ci->subject, ci->subject_len);
	if (ci && (fields & TLS_LOG_ISSUER))
		jw_bytes(w, "issuerdn", ci->issuer, ci->issuer_len);
	if ((fields & TLS_LOG_SESSION_RESUMED) && (s->flags & TLS_F_SESSION_RESUMED))
		jw_bool(w, "session_resumed", 1);
	if (ci && (fields & TLS_LOG_SERIAL))
		jw_str(w, "serial", ci->serial);
	if (ci && (fields & TLS_LOG_FINGERPRINT))
		jw_str(w, "fingerprint", ci->fingerprint);
	if ((fields & TLS_LOG_SNI) && s->client.present && s->client.sni_len)
		jw_bytes(w, "sni", s->client.sni, s->client.sni_len);
	if (fields & TLS_LOG_VERSION)
		jw_str(w, "version", tls_version_name(logged_version(s), buf, sizeof(buf)));
	if (ci)
		write_dates(w, ci, fields);
	if (ci && (fields & TLS_LOG_SUBJECTALTNAME) && ci->nsan)
		write_sans(w, ci);
	if (fields & TLS_LOG_JA3) {
		int n = tls_ja3_string(&s->client, buf, sizeof(buf));

		if (n >= 0)
			write_ja(w, "ja3", buf, (size_t)n);
	}
	if (fields & TLS_LOG_JA3S) {
		int n = tls_ja3s_string(&s->server, buf, sizeof(buf));

		if (n >= 0)
			write_ja(w, "ja3s", buf, (size_t)n);
	}
	if (fields & TLS_LOG_JA4) {
		char ja4[TLS_JA4_LEN + 1];

		if (tls_ja4(&s->client, ja4) == 0)
			jw_str(w, "ja4", ja4);
	}
	if ((fields & TLS_LOG_CLIENT_ALPNS) && s->client.nalpn)
		write_alpns(w, "client_alpns", &s->client);
	if ((fields & TLS_LOG_SERVER_ALPNS) && s->server.nalpn)
		write_alpns(w, "server_alpns", &s->server);
	if ((fields & TLS_LOG_CERTIFICATE) && der)
		write_base64(w, "certificate", der, len);
	if ((fields & TLS_LOG_CHAIN) && srv->n)
		write_chain(w, srv);
	if ((fields & TLS_LOG_CLIENT_HANDSHAKE) && s->client.present) {
		const TlsHello *h = &s->client;

		jw_object(w, "client_handshake");
		jw_str(w, "version", tls_version_name(h->version, buf, sizeof(buf)));
		if (h->nciphers)
			write_u16s(w, "ciphers", h->ciphers, h->nciphers);
		if (h->nexts)
			write_u16s(w, "exts", h->exts, h->nexts);
		if (h->nsigalgs)
			write_u16s(w, "sig_algs", h->sigalgs, h->nsigalgs);
		jw_close(w);
	}
	if ((fields & TLS_LOG_SERVER_HANDSHAKE) && s->server.present) {
		const TlsHello *h = &s->server;

		jw_object(w, "server_handshake");
		jw_str(w, "version", tls_version_name(tls_state_version(s), buf, sizeof(buf)));
		jw_int(w, "cipher", h->ciphers[0]);
		if (h->nexts)
			write_u16s(w, "exts", h->exts, h->nexts);
		jw_close(w);
	}
	if (fields & (TLS_LOG_CLIENT | TLS_LOG_CLIENT_CERTIFICATE | TLS_LOG_CLIENT_CHAIN))
		write_client_cert(w, s, fields);
}

struct tls_obj {
	const TlsState *s;
	uint32_t fields;
};

static void build_tls_obj(JsonWriter *w, void *ctx)
{
	const struct tls_obj *c = ctx;

	tls_json_write(w, c->s, c->fields);
}

json_t *tls_json_object(const TlsState *s, uint32_t fields)
{
	struct tls_obj c = { s, fields };

	return jw_build_tree(build_tls_obj, &c);
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
 * a TLS 1.3 handshake (encrypted certificate), for a flow whose client
 * hello was never answered (8.0.3: what the client offered is all there
 * is), and for a resumed session when session-resumption is on. */
static bool worth_logging(const EveTypeOptions *opts, const TlsState *s)
{
	if (s->flags & TLS_F_CERT_SERVER && s->certs[TLS_TOCLIENT].n)
		return true;
	if (s->server.present && is_tls13(tls_state_version(s)))
		return true;
	if (s->client.present && !s->server.present)
		return true;
	return (s->flags & TLS_F_SESSION_RESUMED) && opts->tls_resumption;
}

struct tls_line {
	const Packet *p;
	const Flow *f;
	const TlsState *s;
	uint32_t fields;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct tls_line *l = ctx;

	eve_header_write_tx(w, "tls", l->p, l->f, 0);
	/* Suricata 8's header names the packet's source on tls records too */
	if (l->p)
		jw_str(w, "pkt_src", output_pkt_src(l->p));
	jw_object(w, "tls");
	/* a flow that turned TLS (pgsql's SSLRequest, SMTP's STARTTLS) names
	 * the protocol it came from, as Suricata 8 does */
	if (l->f && l->f->app_proto_orig && l->f->app_proto_orig != ALPROTO_TLS)
		jw_str(w, "from_proto", app_proto_name(l->f->app_proto_orig));
	tls_json_write(w, l->s, l->fields);
}

/* The parser's events not written yet, each kind once per flow (a
 * hostile flow raising one event per record must not flood eve): on the
 * packet that raised them (output_tx_log_events), the rest when the
 * transaction logs. */
static void log_tls_events(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	const TlsState *s = tls_tx_state(tx);
	uint32_t *done = tls_tx_events_logged(tx);

	if (!s || !p)
		return;
	for (int e = 0; e < TLS_EV_COUNT && e < 32; e++) {
		if (!s->events[e] || (*done >> e & 1))
			continue;
		*done |= 1u << e;
		output_anomaly_parser_event(o, p, f, "tls", tls_event_name(e), 1,
					    app_layer_tx_log_id(f, tx));
	}
}

/* The record for the outputs outs, which share the tls options opts. */
static void log_tls_group(Outputs *o, uint32_t outs, const EveTypeOptions *opts, void *ctx)
{
	struct tls_line l = *(const struct tls_line *)ctx;

	if (!worth_logging(opts, l.s))
		return;
	l.fields = usable_fields(opts->tls_fields);
	/* a long chain (certificate, chain fields) takes the heap */
	eve_write_built_to(o, outs, build_record, &l);
}

static int same_tls_options(const EveTypeOptions *a, const EveTypeOptions *b)
{
	return a->tls_fields == b->tls_fields && a->tls_resumption == b->tls_resumption;
}

static void log_tls_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	const TlsState *s = tls_tx_state(tx);
	struct tls_line l = { p, f, s, 0 };

	if (o && s && o->cfg.eve_anomaly.applayer && o->eve_anomaly)
		log_tls_events(o, p, f, tx);
	if (!o || !s)
		return;
	/* each eve-log output with its own extended/custom/session-resumption */
	eve_each_option_group(o, "tls", same_tls_options, log_tls_group, &l);
}

/* Alerts on a TLS flow carry its "tls" object, as Suricata's alert
 * metadata does: the extended fields. */
static int alert_tls_write(JsonWriter *w, const Flow *f, void *tx)
{
	const TlsState *s = tls_tx_state(tx);

	(void)f;
	if (!s)
		return -1;
	jw_object(w, "tls");
	tls_json_write(w, s, usable_fields(TLS_LOG_EXTENDED));
	jw_close(w);
	return 0;
}

const EveTxLogger eve_tls_logger = {
	.log_tx = log_tls_tx,
	.alert_write = alert_tls_write,
	.log_events = log_tls_events,
};
