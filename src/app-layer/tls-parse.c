/* TLS/SSL stream parser (see tls-parse.h). Layers, each fed whatever bytes
 * the one below has, so any TCP segmentation gives the same result:
 *   records (5-byte TLS header, or SSLv2's 2-byte one at a stream's start)
 *   -> handshake messages (4-byte header, reassembled across records)
 *   -> hello / certificate decoders working on one whole message. */
#include "config.h"
#include "app-layer/app-mem.h"

#include "app-layer/tls-parse.h"
#include "app-layer/tls-cert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* RFC 8446 5.2: a ciphertext record holds at most 2^14 + 256 bytes; TLS 1.2
 * allows 2^14 + 2048. Anything longer is not a record we can trust. */
#define TLS_RECORD_MAX (16384u + 2048u)
#define SSLV2_RECORD_MAX 32767u

enum {
	REC_CCS = 20,
	REC_ALERT = 21,
	REC_HANDSHAKE = 22,
	REC_APPDATA = 23,
	REC_HEARTBEAT = 24,
};

enum {
	HS_HELLO_REQUEST = 0,
	HS_CLIENT_HELLO = 1,
	HS_SERVER_HELLO = 2,
	HS_HELLO_VERIFY = 3,
	HS_NEW_SESSION_TICKET = 4,
	HS_END_OF_EARLY_DATA = 5,
	HS_HELLO_RETRY_DRAFT = 6,
	HS_ENCRYPTED_EXTENSIONS = 8,
	HS_CERTIFICATE = 11,
	HS_SERVER_KEYX = 12,
	HS_CERT_REQUEST = 13,
	HS_SERVER_HELLO_DONE = 14,
	HS_CERT_VERIFY = 15,
	HS_CLIENT_KEYX = 16,
	HS_FINISHED = 20,
	HS_CERT_URL = 21,
	HS_CERT_STATUS = 22,
	HS_SUPPLEMENTAL = 23,
	HS_KEY_UPDATE = 24,
	HS_COMPRESSED_CERT = 25,
	HS_NEXT_PROTOCOL = 67,
	HS_MESSAGE_HASH = 254,
};

enum {
	EXT_SNI = 0,
	EXT_GROUPS = 10,
	EXT_POINT_FORMATS = 11,
	EXT_SIGALGS = 13,
	EXT_ALPN = 16,
	EXT_EARLY_DATA = 42,
	EXT_SUPPORTED_VERSIONS = 43,
};

static const char *const event_names[TLS_EV_COUNT] = {
	[TLS_EV_INVALID_SSLV2_HEADER] = "invalid_sslv2_header",
	[TLS_EV_INVALID_TLS_HEADER] = "invalid_tls_header",
	[TLS_EV_INVALID_RECORD_VERSION] = "invalid_record_version",
	[TLS_EV_INVALID_RECORD_TYPE] = "invalid_record_type",
	[TLS_EV_INVALID_RECORD_LENGTH] = "invalid_record_length",
	[TLS_EV_INVALID_HANDSHAKE_MESSAGE] = "invalid_handshake_message",
	[TLS_EV_HEARTBEAT_MESSAGE] = "heartbeat_message",
	[TLS_EV_INVALID_HEARTBEAT_MESSAGE] = "invalid_heartbeat_message",
	[TLS_EV_OVERFLOW_HEARTBEAT_MESSAGE] = "overflow_heartbeat_message",
	[TLS_EV_DATALEAK_HEARTBEAT_MISMATCH] = "dataleak_heartbeat_mismatch",
	[TLS_EV_HANDSHAKE_INVALID_LENGTH] = "handshake_invalid_length",
	[TLS_EV_MULTIPLE_SNI_EXTENSIONS] = "multiple_sni_extensions",
	[TLS_EV_INVALID_SNI_TYPE] = "invalid_sni_type",
	[TLS_EV_INVALID_SNI_LENGTH] = "invalid_sni_length",
	[TLS_EV_TOO_MANY_RECORDS_IN_PACKET] = "too_many_records_in_packet",
	[TLS_EV_INVALID_CERTIFICATE] = "invalid_certificate",
	[TLS_EV_CERTIFICATE_INVALID_LENGTH] = "certificate_invalid_length",
	[TLS_EV_CERTIFICATE_INVALID_DER] = "certificate_invalid_der",
	[TLS_EV_ERROR_MESSAGE_ENCOUNTERED] = "error_message_encountered",
	[TLS_EV_INVALID_SSL_RECORD] = "invalid_ssl_record",
};

const char *tls_event_name(int ev)
{
	if (ev < 0 || ev >= TLS_EV_COUNT)
		return NULL;
	return event_names[ev];
}

int tls_event_by_name(const char *name)
{
	if (!name)
		return -1;
	for (int i = 0; i < TLS_EV_COUNT; i++)
		if (strcmp(event_names[i], name) == 0)
			return i;
	return -1;
}

static void ev(TlsState *s, int e)
{
	s->events[e]++;
	s->nevents++;
	s->new_events++;
}

/* ---- bounded reader over one message ---- */

typedef struct Cur {
	const uint8_t *p;
	size_t len, off;
	bool bad;
} Cur;

static Cur cur_make(const uint8_t *p, size_t len)
{
	Cur c = { p, len, 0, false };
	return c;
}

static size_t cur_left(const Cur *c)
{
	return c->bad ? 0 : c->len - c->off;
}

static bool cur_need(Cur *c, size_t n)
{
	if (c->bad || c->len - c->off < n) {
		c->bad = true;
		return false;
	}
	return true;
}

static uint32_t cur_u8(Cur *c)
{
	if (!cur_need(c, 1))
		return 0;
	return c->p[c->off++];
}

static uint32_t cur_u16(Cur *c)
{
	if (!cur_need(c, 2))
		return 0;
	uint32_t v = (uint32_t)c->p[c->off] << 8 | c->p[c->off + 1];
	c->off += 2;
	return v;
}

static uint32_t cur_u24(Cur *c)
{
	if (!cur_need(c, 3))
		return 0;
	uint32_t v = (uint32_t)c->p[c->off] << 16 | (uint32_t)c->p[c->off + 1] << 8 |
		     c->p[c->off + 2];
	c->off += 3;
	return v;
}

/* A sub-reader over the next n bytes; the parent skips them. */
static Cur cur_sub(Cur *c, size_t n)
{
	Cur s = { NULL, 0, 0, true };

	if (!cur_need(c, n))
		return s;
	s = cur_make(c->p + c->off, n);
	c->off += n;
	return s;
}

/* ---- versions ---- */

static bool version_is_13(uint16_t v)
{
	return v == TLS_V_13 || (v >> 8) == 0x7f || (v >> 8) == 0xfb;
}

uint16_t tls_hello_max_version(const TlsHello *h)
{
	uint16_t best = 0;

	for (unsigned i = 0; i < h->nversions; i++) {
		uint16_t v = h->versions[i];
		/* GREASE (0x?a?a) never counts as an offer */
		if ((v & 0x0f0f) == 0x0a0a && (v >> 8) == (v & 0xff))
			continue;
		/* drafts rank with TLS 1.3 */
		uint16_t rank = version_is_13(v) ? TLS_V_13 : v;
		uint16_t brank = version_is_13(best) ? TLS_V_13 : best;
		if (rank > brank || (rank == brank && v == TLS_V_13))
			best = v;
	}
	return best ? best : h->version;
}

uint16_t tls_state_version(const TlsState *s)
{
	if (!s->server.present)
		return 0;
	if (s->server.nversions)
		return s->server.versions[0];
	/* 0x0304 in the legacy field: a draft before 16 (suricata-verify
	 * tls13-draft14 logs "TLS 1.3 draft-<16") */
	if (s->server.version == TLS_V_13)
		return 0x7f00;
	return s->server.version;
}

const char *tls_version_name(uint16_t v, char *buf, size_t size)
{
	static const struct {
		uint16_t v;
		const char *name;
	} names[] = {
		{ 0, "UNDETERMINED" }, { TLS_V_SSL2, "SSLv2" }, { TLS_V_SSL3, "SSLv3" },
		{ TLS_V_10, "TLSv1" }, { TLS_V_11, "TLS 1.1" }, { TLS_V_12, "TLS 1.2" },
		{ TLS_V_13, "TLS 1.3" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].v == v) {
			snprintf(buf, size, "%s", names[i].name);
			return buf;
		}
	if ((v >> 8) == 0x7f) {
		/* Suricata folds the drafts before 16 into one name */
		if ((v & 0xff) < 16)
			snprintf(buf, size, "TLS 1.3 draft-<16");
		else
			snprintf(buf, size, "TLS 1.3 draft-%u", v & 0xff);
		return buf;
	}
	if ((v >> 8) == 0xfb) {
		snprintf(buf, size, "TLS 1.3 draft-%u-fb", v & 0xff);
		return buf;
	}
	snprintf(buf, size, "0x%04x", v);
	return buf;
}

const uint8_t *tls_hello_alpn(const TlsHello *h, unsigned i, uint8_t *len)
{
	if (i >= h->nalpn)
		return NULL;
	*len = h->alpn_len[i];
	return h->alpn_buf + h->alpn_off[i];
}

const uint8_t *tls_chain_cert(const TlsCertChain *c, unsigned i, uint32_t *len)
{
	if (i >= c->n || !c->buf)
		return NULL;
	*len = c->len[i];
	return c->buf + c->off[i];
}

/* ---- state ---- */

/* The "" of a hello without a server_name: never written, never freed. */
static char no_sni[1];

static void hello_release(TlsHello *h)
{
	if (h->ciphers != h->ciphers_inline)
		app_mem_free(ALPROTO_TLS, h->ciphers);
	if (h->sni != no_sni)
		app_mem_free(ALPROTO_TLS, h->sni);
}

/* Empty, its lists pointing at nothing held: a new hello starts here. */
static void hello_reset(TlsHello *h)
{
	memset(h, 0, sizeof(*h));
	h->ciphers = h->ciphers_inline;
	h->sni = no_sni;
}

static void hello_clear(TlsHello *h)
{
	hello_release(h);
	hello_reset(h);
}

/* Room for n cipher suites (at most TLS_MAX_CIPHERS are kept); false when
 * out of memory: the hello then keeps what fits inline. */
static bool hello_ciphers_room(TlsHello *h, uint32_t n)
{
	uint16_t *c;

	if (n > TLS_MAX_CIPHERS)
		n = TLS_MAX_CIPHERS;
	if (n <= TLS_CIPHERS_INLINE)
		return true;
	c = app_mem_malloc(ALPROTO_TLS, n * sizeof(*c));
	if (!c)
		return false;
	h->ciphers = c;
	return true;
}

/* How many suites the hello keeps: the room made for them. */
static uint32_t hello_ciphers_cap(const TlsHello *h, uint32_t want)
{
	uint32_t cap = want > TLS_MAX_CIPHERS ? TLS_MAX_CIPHERS : want;

	return h->ciphers == h->ciphers_inline && cap > TLS_CIPHERS_INLINE ? TLS_CIPHERS_INLINE : cap;
}

TlsState *tls_state_new(void)
{
	TlsState *s = app_mem_calloc(ALPROTO_TLS, 1, sizeof(TlsState));

	if (s) {
		hello_reset(&s->client);
		hello_reset(&s->server);
	}
	return s;
}

void tls_state_free(TlsState *s)
{
	if (!s)
		return;
	hello_release(&s->client);
	hello_release(&s->server);
	for (int i = 0; i < 2; i++) {
		app_mem_free(ALPROTO_TLS, s->dir[i].hs);
		app_mem_free(ALPROTO_TLS, s->dir[i].v2);
		app_mem_free(ALPROTO_TLS, s->certs[i].buf);
		if (s->leaf[i]) {
			tls_cert_info_free(s->leaf[i]);
			app_mem_free(ALPROTO_TLS, s->leaf[i]);
		}
	}
	app_mem_free(ALPROTO_TLS, s);
}

/* ---- hello decoding ---- */

static void hello_add_ext(TlsHello *h, uint16_t type)
{
	if (h->nexts_total < UINT16_MAX)
		h->nexts_total++;
	if (h->nexts < TLS_MAX_EXTS)
		h->exts[h->nexts++] = type;
	if (type == EXT_EARLY_DATA)
		h->early_data = true;
}

static void u16_list(Cur *c, uint16_t *out, uint16_t *n, unsigned max)
{
	while (cur_left(c) >= 2) {
		uint16_t v = (uint16_t)cur_u16(c);
		if (*n < max)
			out[(*n)++] = v;
	}
}

static void ext_sni(TlsState *s, TlsHello *h, Cur *e)
{
	if (h->has_sni) {
		ev(s, TLS_EV_MULTIPLE_SNI_EXTENSIONS);
		return;
	}
	h->has_sni = true;
	/* a ServerHello's server_name is empty: it only acknowledges */
	if (cur_left(e) == 0)
		return;
	uint32_t list_len = cur_u16(e);
	if (list_len > cur_left(e)) {
		ev(s, TLS_EV_INVALID_SNI_LENGTH);
		return;
	}
	Cur l = cur_sub(e, list_len);
	if (cur_left(&l) < 3) {
		ev(s, TLS_EV_INVALID_SNI_LENGTH);
		return;
	}
	uint32_t type = cur_u8(&l);
	uint32_t nlen = cur_u16(&l);
	if (type != 0) {
		/* RFC 6066 defines host_name (0) only */
		ev(s, TLS_EV_INVALID_SNI_TYPE);
		return;
	}
	if (nlen > cur_left(&l)) {
		ev(s, TLS_EV_INVALID_SNI_LENGTH);
		return;
	}
	if (nlen > TLS_SNI_MAX) {
		/* a DNS name is at most 255 bytes: keep the first ones */
		ev(s, TLS_EV_INVALID_SNI_LENGTH);
	}
	uint32_t keep = nlen > TLS_SNI_MAX ? TLS_SNI_MAX : nlen;
	char *sni = app_mem_malloc(ALPROTO_TLS, keep + 1);
	if (!sni)
		return;
	memcpy(sni, l.p + l.off, keep);
	sni[keep] = '\0';
	if (h->sni != no_sni)
		app_mem_free(ALPROTO_TLS, h->sni);  /* a second server_name */
	h->sni = sni;
	h->sni_len = (uint16_t)keep;
}

static void ext_alpn(TlsState *s, TlsHello *h, Cur *e)
{
	uint32_t list_len = cur_u16(e);
	if (e->bad || list_len > cur_left(e)) {
		ev(s, TLS_EV_INVALID_HANDSHAKE_MESSAGE);
		return;
	}
	Cur l = cur_sub(e, list_len);
	uint32_t used = 0;
	while (cur_left(&l) > 0) {
		uint32_t n = cur_u8(&l);
		if (n > cur_left(&l)) {
			ev(s, TLS_EV_INVALID_HANDSHAKE_MESSAGE);
			return;
		}
		if (h->nalpn < TLS_ALPN_MAX && used + n <= TLS_ALPN_BYTES) {
			memcpy(h->alpn_buf + used, l.p + l.off, n);
			h->alpn_off[h->nalpn] = (uint16_t)used;
			h->alpn_len[h->nalpn] = (uint8_t)n;
			h->nalpn++;
			used += n;
		}
		l.off += n;
	}
}

static void hello_extensions(TlsState *s, TlsHello *h, Cur *c, bool client)
{
	if (cur_left(c) == 0)
		return; /* extensions are optional before TLS 1.3 */
	uint32_t total = cur_u16(c);
	if (c->bad || total > cur_left(c)) {
		ev(s, TLS_EV_HANDSHAKE_INVALID_LENGTH);
		return;
	}
	Cur all = cur_sub(c, total);
	while (cur_left(&all) > 0) {
		uint32_t type = cur_u16(&all);
		uint32_t len = cur_u16(&all);
		if (all.bad || len > cur_left(&all)) {
			ev(s, TLS_EV_HANDSHAKE_INVALID_LENGTH);
			return;
		}
		Cur e = cur_sub(&all, len);
		hello_add_ext(h, (uint16_t)type);
		switch (type) {
		case EXT_SNI:
			ext_sni(s, h, &e);
			break;
		case EXT_GROUPS: {
			uint32_t n = cur_u16(&e);
			Cur l = cur_sub(&e, n);
			u16_list(&l, h->groups, &h->ngroups, TLS_MAX_GROUPS);
			break;
		}
		case EXT_POINT_FORMATS: {
			uint32_t n = cur_u8(&e);
			Cur l = cur_sub(&e, n);
			while (cur_left(&l) > 0) {
				uint8_t v = (uint8_t)cur_u8(&l);
				if (h->npoint_formats < TLS_MAX_POINT_FORMATS)
					h->point_formats[h->npoint_formats++] = v;
			}
			break;
		}
		case EXT_SIGALGS: {
			uint32_t n = cur_u16(&e);
			Cur l = cur_sub(&e, n);
			u16_list(&l, h->sigalgs, &h->nsigalgs, TLS_MAX_SIGALGS);
			break;
		}
		case EXT_ALPN:
			ext_alpn(s, h, &e);
			break;
		case EXT_SUPPORTED_VERSIONS:
			if (client) {
				uint32_t n = cur_u8(&e);
				Cur l = cur_sub(&e, n);
				u16_list(&l, h->versions, &h->nversions, TLS_MAX_VERSIONS);
			} else if (cur_left(&e) >= 2) {
				/* the server names its one choice */
				h->versions[0] = (uint16_t)cur_u16(&e);
				h->nversions = 1;
			}
			break;
		}
	}
}

/* Version and random, which both hellos open with: 0, or -1 when short. */
static int hello_head(TlsHello *h, Cur *c)
{
	hello_clear(h);
	h->version = (uint16_t)cur_u16(c);
	if (!cur_need(c, 32))
		return -1;
	memcpy(h->random, c->p + c->off, 32);
	c->off += 32;
	return 0;
}

/* The session id: 0; -1 when longer than 32 (the event raised); -2 when
 * the message ends first. */
static int hello_session_id(TlsState *s, TlsHello *h, Cur *c)
{
	uint32_t sid = cur_u8(c);

	if (sid > 32) {
		ev(s, TLS_EV_INVALID_HANDSHAKE_MESSAGE);
		return -1;
	}
	if (!cur_need(c, sid))
		return -2;
	h->session_id_len = (uint8_t)sid;
	memcpy(h->session_id, c->p + c->off, sid);
	c->off += sid;
	return 0;
}

static int parse_client_hello(TlsState *s, const uint8_t *p, size_t len)
{
	TlsHello *h = &s->client;
	Cur c = cur_make(p, len);
	int rc;

	if (hello_head(h, &c) < 0)
		goto short_msg;
	rc = hello_session_id(s, h, &c);
	if (rc == -1)
		return -1;
	if (rc < 0)
		goto short_msg;
	uint32_t cs = cur_u16(&c);
	if (c.bad || cs > cur_left(&c))
		goto short_msg;
	if (cs & 1) {
		ev(s, TLS_EV_INVALID_HANDSHAKE_MESSAGE);
		return -1;
	}
	Cur cl = cur_sub(&c, cs);
	hello_ciphers_room(h, cs / 2);
	uint32_t keep = hello_ciphers_cap(h, cs / 2);
	while (cur_left(&cl) >= 2) {
		uint16_t v = (uint16_t)cur_u16(&cl);
		if (h->nciphers_total < UINT16_MAX)
			h->nciphers_total++;
		if (h->nciphers < keep)
			h->ciphers[h->nciphers++] = v;
	}
	uint32_t comp = cur_u8(&c);
	if (!cur_need(&c, comp))
		goto short_msg;
	for (uint32_t i = 0; i < comp; i++)
		if (h->ncompression < TLS_MAX_COMPRESSION)
			h->compression[h->ncompression++] = c.p[c.off + i];
	c.off += comp;
	hello_extensions(s, h, &c, true);
	h->present = true;
	return 0;
short_msg:
	ev(s, TLS_EV_HANDSHAKE_INVALID_LENGTH);
	return -1;
}

/* SHA-256("HelloRetryRequest"): RFC 8446 4.1.3's marker random. */
static const uint8_t hrr_random[32] = {
	0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c,
	0x02, 0x1e, 0x65, 0xb8, 0x91, 0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb,
	0x8c, 0x5e, 0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c,
};

static int parse_server_hello(TlsState *s, const uint8_t *p, size_t len)
{
	TlsHello *h = &s->server;
	Cur c = cur_make(p, len);

	if (hello_head(h, &c) < 0)
		goto short_msg;
	/* TLS 1.3 drafts before 22 (version 0x7fNN on the wire) dropped the
	 * session id and compression from the ServerHello; so did the drafts
	 * before 16, which put 0x0304 itself there (a final TLS 1.3 ServerHello
	 * says 0x0303 and names 1.3 in supported_versions) */
	bool draft = (h->version >> 8) == 0x7f || h->version == TLS_V_13;
	if (!draft) {
		int rc = hello_session_id(s, h, &c);

		if (rc == -1)
			return -1;
		if (rc < 0)
			goto short_msg;
	}
	h->ciphers[0] = (uint16_t)cur_u16(&c);
	h->nciphers = h->nciphers_total = 1;
	if (!draft) {
		uint32_t comp = cur_u8(&c);
		h->compression[0] = (uint8_t)comp;
		h->ncompression = 1;
	}
	if (c.bad)
		goto short_msg;
	hello_extensions(s, h, &c, false);
	h->present = true;
	return 0;
short_msg:
	ev(s, TLS_EV_HANDSHAKE_INVALID_LENGTH);
	return -1;
}

int tls_hello_message(TlsState *s, int dir, const uint8_t *msg, size_t len)
{
	if (!s || len < 4)
		return -1;
	uint32_t blen = (uint32_t)msg[1] << 16 | (uint32_t)msg[2] << 8 | msg[3];
	if (blen > len - 4) {
		ev(s, TLS_EV_HANDSHAKE_INVALID_LENGTH);
		return -1;
	}
	if (msg[0] == HS_CLIENT_HELLO && dir == TLS_TOSERVER) {
		s->client.present = false;
		return parse_client_hello(s, msg + 4, blen);
	}
	if (msg[0] == HS_SERVER_HELLO && dir == TLS_TOCLIENT) {
		s->server.present = false;
		return parse_server_hello(s, msg + 4, blen);
	}
	return -1;
}

/* ---- certificates ---- */

static void chain_add(TlsCertChain *ch, const uint8_t *der, uint32_t len)
{
	if (ch->n >= TLS_CERTS_MAX || len > TLS_CERTS_MAX_BYTES - ch->used)
		return;
	if (ch->used + len > ch->cap) {
		/* exactly: the chain stays as long as the flow, and a doubled
		 * buffer held a third more than the certificates */
		uint32_t cap = ch->used + len;
		uint8_t *nb = app_mem_realloc(ALPROTO_TLS, ch->buf, cap);
		if (!nb)
			return;
		ch->buf = nb;
		ch->cap = cap;
	}
	memcpy(ch->buf + ch->used, der, len);
	ch->off[ch->n] = ch->used;
	ch->len[ch->n] = len;
	ch->n++;
	ch->used += len;
}

/* A DER header at p (n bytes): 0 with its header and content lengths; -1
 * when the header is cut (its length octets run past n); -2 when it is
 * malformed (a multi-byte tag, an indefinite or over-long length). */
static int der_header(const uint8_t *p, size_t n, size_t *hl, uint64_t *cl)
{
	uint32_t k;

	if (n < 2)
		return -1;
	if ((p[0] & 0x1f) == 0x1f)
		return -2;
	if (p[1] < 0x80) {
		*hl = 2;
		*cl = p[1];
		return 0;
	}
	k = p[1] & 0x7f;
	if (k == 0 || k > 8)
		return -2;
	if (n < 2 + (size_t)k)
		return -1;
	*cl = 0;
	for (uint32_t i = 0; i < k; i++)
		*cl = *cl << 8 | p[2 + i];
	*hl = 2 + k;
	return 0;
}

/* The event a certificate's DER earns, or -1 when its frame is sound: a
 * Certificate SEQUENCE whose TBSCertificate SEQUENCE fits inside it.
 * Suricata's X.509 decoder tells a cut length (more bytes needed than
 * there are: certificate_invalid_length) from a certificate that is not
 * one (a part declared longer than what holds it: invalid_certificate;
 * suricata-verify bug-1450-03/05). */
static int cert_der_event(const uint8_t *der, uint32_t n)
{
	size_t hl, ihl;
	uint64_t cl, icl;
	int r;

	if (der[0] != 0x30)
		return TLS_EV_CERTIFICATE_INVALID_DER; /* every X.509 certificate is a SEQUENCE */
	r = der_header(der, n, &hl, &cl);
	if (r == -1 || (r == 0 && cl > n - hl))
		return TLS_EV_CERTIFICATE_INVALID_LENGTH;
	if (r < 0)
		return TLS_EV_CERTIFICATE_INVALID_DER;
	if (cl == 0 || der[hl] != 0x30)
		return TLS_EV_INVALID_CERTIFICATE;
	r = der_header(der + hl, (size_t)cl, &ihl, &icl);
	if (r == -1)
		return TLS_EV_CERTIFICATE_INVALID_LENGTH;
	if (r < 0 || icl > cl - ihl)
		return TLS_EV_INVALID_CERTIFICATE;
	return -1;
}

static void parse_certificate(TlsState *s, int dir, const uint8_t *p, size_t len)
{
	TlsCertChain *ch = &s->certs[dir];
	Cur c = cur_make(p, len);
	bool tls13 = version_is_13(tls_state_version(s));

	/* only the first Certificate message of a direction counts */
	if (ch->n)
		return;
	if (tls13) {
		uint32_t ctx = cur_u8(&c);
		if (!cur_need(&c, ctx)) {
			ev(s, TLS_EV_CERTIFICATE_INVALID_LENGTH);
			return;
		}
		c.off += ctx;
	}
	uint32_t total = cur_u24(&c);
	if (c.bad || total > cur_left(&c)) {
		ev(s, TLS_EV_CERTIFICATE_INVALID_LENGTH);
		return;
	}
	Cur l = cur_sub(&c, total);
	while (cur_left(&l) > 0) {
		uint32_t n = cur_u24(&l);
		if (l.bad || n > cur_left(&l)) {
			ev(s, TLS_EV_CERTIFICATE_INVALID_LENGTH);
			return;
		}
		const uint8_t *der = l.p + l.off;
		l.off += n;
		if (n == 0) {
			ev(s, TLS_EV_INVALID_CERTIFICATE);
		} else if (der[0] != 0x30) {
			ev(s, TLS_EV_CERTIFICATE_INVALID_DER);
		} else {
			int e = cert_der_event(der, n);

			if (e >= 0)
				ev(s, e);
			chain_add(ch, der, n);
		}
		if (tls13) {
			uint32_t elen = cur_u16(&l);
			if (l.bad || !cur_need(&l, elen)) {
				ev(s, TLS_EV_CERTIFICATE_INVALID_LENGTH);
				return;
			}
			l.off += elen;
		}
	}
	s->flags |= dir == TLS_TOCLIENT ? TLS_F_CERT_SERVER : TLS_F_CERT_CLIENT;
}

/* ---- handshake messages ---- */

static void set_state(TlsState *s, uint32_t st)
{
	s->state |= st;
	s->cur_state |= st;
}

static void server_hello_done(TlsState *s)
{
	const TlsHello *sh = &s->server, *ch = &s->client;

	if (memcmp(sh->random, hrr_random, 32) == 0) {
		/* a HelloRetryRequest: the client sends a second, clear
		 * ClientHello */
		s->flags |= TLS_F_HRR;
		return;
	}
	uint16_t v = tls_state_version(s);
	if (version_is_13(v)) {
		/* everything after the ServerHello is encrypted: nothing more
		 * for the log to wait for */
		s->dir[TLS_TOCLIENT].encrypted = true;
		s->dir[TLS_TOSERVER].encrypted = true;
		s->flags |= TLS_F_HANDSHAKE_DONE;
		return;
	}
	if (ch->present && ch->session_id_len && ch->session_id_len == sh->session_id_len &&
	    memcmp(ch->session_id, sh->session_id, sh->session_id_len) == 0)
		s->flags |= TLS_F_SESSION_RESUMED;
}

static void hs_message(TlsState *s, int dir, uint8_t type, const uint8_t *body,
		       uint32_t blen)
{
	switch (type) {
	case HS_CLIENT_HELLO:
		if (dir != TLS_TOSERVER) {
			ev(s, TLS_EV_INVALID_HANDSHAKE_MESSAGE);
			return;
		}
		set_state(s, TLS_STATE_CLIENT_HELLO);
		s->flags |= TLS_F_CLIENT_HELLO;
		/* keep the first hello (a second follows a HelloRetryRequest
		 * or renegotiation); ja3 fingerprints the first */
		if (!s->client.present && parse_client_hello(s, body, blen) == 0)
			s->dir[dir].version = s->client.version;
		return;
	case HS_SERVER_HELLO:
		if (dir != TLS_TOCLIENT) {
			ev(s, TLS_EV_INVALID_HANDSHAKE_MESSAGE);
			return;
		}
		set_state(s, TLS_STATE_SERVER_HELLO);
		s->flags |= TLS_F_SERVER_HELLO;
		if ((s->server.present && !(s->flags & TLS_F_HRR)))
			return;
		if (parse_server_hello(s, body, blen) == 0) {
			s->dir[dir].version = s->server.version;
			server_hello_done(s);
		}
		return;
	case HS_CERTIFICATE:
		parse_certificate(s, dir, body, blen);
		return;
	case HS_SERVER_KEYX:
		set_state(s, TLS_STATE_SERVER_KEYX);
		s->flags |= TLS_F_SERVER_KEYX;
		return;
	case HS_CLIENT_KEYX:
		set_state(s, TLS_STATE_CLIENT_KEYX);
		s->flags |= TLS_F_CLIENT_KEYX;
		return;
	case HS_CERT_REQUEST:
		s->flags |= TLS_F_CERT_REQUEST;
		return;
	case HS_HELLO_REQUEST:
	case HS_HELLO_VERIFY:
	case HS_NEW_SESSION_TICKET:
	case HS_END_OF_EARLY_DATA:
	case HS_HELLO_RETRY_DRAFT:
	case HS_ENCRYPTED_EXTENSIONS:
	case HS_SERVER_HELLO_DONE:
	case HS_CERT_VERIFY:
	case HS_FINISHED:
	case HS_CERT_URL:
	case HS_CERT_STATUS:
	case HS_SUPPLEMENTAL:
	case HS_KEY_UPDATE:
	case HS_COMPRESSED_CERT:
	case HS_NEXT_PROTOCOL:
	case HS_MESSAGE_HASH:
		return;
	default:
		set_state(s, TLS_STATE_UNKNOWN);
		ev(s, TLS_EV_INVALID_HANDSHAKE_MESSAGE);
		return;
	}
}

/* The handshake types Suricata's parser knows; any other is an
 * invalid_handshake_message, whatever length it claims. */
static bool hs_type_known(uint8_t type)
{
	switch (type) {
	case HS_HELLO_REQUEST: case HS_CLIENT_HELLO: case HS_SERVER_HELLO:
	case HS_HELLO_VERIFY: case HS_NEW_SESSION_TICKET: case HS_END_OF_EARLY_DATA:
	case HS_HELLO_RETRY_DRAFT: case HS_ENCRYPTED_EXTENSIONS: case HS_CERTIFICATE:
	case HS_SERVER_KEYX: case HS_CERT_REQUEST: case HS_SERVER_HELLO_DONE:
	case HS_CERT_VERIFY: case HS_CLIENT_KEYX: case HS_FINISHED: case HS_CERT_URL:
	case HS_CERT_STATUS: case HS_SUPPLEMENTAL: case HS_KEY_UPDATE:
	case HS_COMPRESSED_CERT: case HS_NEXT_PROTOCOL: case HS_MESSAGE_HASH:
		return true;
	}
	return false;
}

/* The message being reassembled, at its exact size (its header says it):
 * held only while a message spans records or segments. */
static bool hs_reserve(TlsDir *d, uint32_t need)
{
	if (need <= d->hs_cap)
		return true;
	uint8_t *nb = app_mem_realloc(ALPROTO_TLS, d->hs, need);
	if (!nb)
		return false;
	d->hs = nb;
	d->hs_cap = need;
	return true;
}

/* Between messages nothing is held: an idle handshake (a flood of them)
 * keeps no buffer. */
static void hs_release(TlsDir *d)
{
	app_mem_free(ALPROTO_TLS, d->hs);
	d->hs = NULL;
	d->hs_cap = 0;
}

/* A whole message at p (n bytes from its header on): its body length, or
 * -1 when it is not all there (or is too long: the buffered path says so). */
static int64_t hs_whole(const uint8_t *p, size_t n)
{
	uint32_t body;

	if (n < 4)
		return -1;
	body = (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	if (body > TLS_HS_MAX || n - 4 < body)
		return -1;
	return body;
}

/* Handshake record payload: messages may span records and a record may
 * hold several messages. */
static void hs_feed(TlsState *s, int dir, const uint8_t *p, size_t n)
{
	TlsDir *d = &s->dir[dir];

	while (n > 0) {
		if (d->hs_skip) {
			size_t k = n < d->hs_skip ? n : d->hs_skip;
			d->hs_skip -= (uint32_t)k;
			p += k;
			n -= k;
			continue;
		}
		if (d->hs_need == 0 && d->hs_len == 0 && hs_whole(p, n) >= 0) {
			/* the usual case: parsed where it lies, no copy */
			uint32_t body = (uint32_t)hs_whole(p, n);

			hs_message(s, dir, p[0], p + 4, body);
			p += 4 + body;
			n -= 4 + body;
			continue;
		}
		if (d->hs_need == 0) {
			if (!hs_reserve(d, 4)) {
				d->dead = true;
				return;
			}
			size_t k = 4 - d->hs_len;
			if (k > n)
				k = n;
			memcpy(d->hs + d->hs_len, p, k);
			d->hs_len += (uint32_t)k;
			p += k;
			n -= k;
			if (d->hs_len < 4)
				return;
			uint32_t body = (uint32_t)d->hs[1] << 16 | (uint32_t)d->hs[2] << 8 | d->hs[3];
			if (!hs_type_known(d->hs[0])) {
				/* the type is read before the length (Suricata): an
				 * unknown one ends the record's handshake data, so
				 * that its bogus length swallows nothing after it */
				set_state(s, TLS_STATE_UNKNOWN);
				ev(s, TLS_EV_INVALID_HANDSHAKE_MESSAGE);
				hs_release(d);
				d->hs_len = 0;
				return;
			}
			if (body > TLS_HS_MAX || !hs_reserve(d, 4 + body)) {
				ev(s, TLS_EV_HANDSHAKE_INVALID_LENGTH);
				d->hs_skip = body;
				hs_release(d);
				d->hs_len = 0;
				continue;
			}
			d->hs_need = 4 + body;
		}
		size_t k = d->hs_need - d->hs_len;
		if (k > n)
			k = n;
		memcpy(d->hs + d->hs_len, p, k);
		d->hs_len += (uint32_t)k;
		p += k;
		n -= k;
		if (d->hs_len == d->hs_need) {
			uint8_t type = d->hs[0];
			uint32_t blen = d->hs_need - 4;
			d->hs_len = 0;
			d->hs_need = 0;
			hs_message(s, dir, type, d->hs + 4, blen);
			hs_release(d);
			/* a TLS 1.3 ServerHello turns the rest of this record
			 * into ciphertext only in theory: servers put nothing
			 * after it in the clear record, so parsing on is safe */
		}
	}
}

/* ---- SSLv2 ---- */

static void sslv2_record(TlsState *s, int dir, const uint8_t *p, uint32_t len)
{
	Cur c = cur_make(p, len);
	uint32_t type = cur_u8(&c);

	s->flags |= TLS_F_SSLV2;
	if (type == 1 && dir == TLS_TOSERVER && !s->client.present) {
		/* CLIENT-HELLO: version, three lengths, cipher specs (3 bytes
		 * each; 0x00XXXX are TLS suites), session id, challenge */
		TlsHello *h = &s->client;
		hello_clear(h);
		h->sslv2 = true;
		h->version = (uint16_t)cur_u16(&c);
		uint32_t cs = cur_u16(&c), sid = cur_u16(&c), chal = cur_u16(&c);
		if (c.bad || cs % 3 || cs > cur_left(&c) || sid > 32 ||
		    sid > cur_left(&c) - cs || chal > 32) {
			ev(s, TLS_EV_INVALID_SSLV2_HEADER);
			return;
		}
		hello_ciphers_room(h, cs / 3);
		uint32_t keep = hello_ciphers_cap(h, cs / 3);
		for (uint32_t i = 0; i < cs; i += 3) {
			const uint8_t *sp = c.p + c.off + i;
			if (sp[0] != 0)
				continue; /* an SSLv2-only cipher kind */
			if (h->nciphers_total < UINT16_MAX)
				h->nciphers_total++;
			if (h->nciphers < keep)
				h->ciphers[h->nciphers++] =
					(uint16_t)((uint32_t)sp[1] << 8 | sp[2]);
		}
		c.off += cs;
		h->session_id_len = (uint8_t)sid;
		memcpy(h->session_id, c.p + c.off, sid);
		h->present = true;
		s->dir[dir].version = h->version;
		set_state(s, TLS_STATE_CLIENT_HELLO);
		s->flags |= TLS_F_CLIENT_HELLO;
	} else if (type == 4 && dir == TLS_TOCLIENT && !s->server.present) {
		/* SERVER-HELLO: session-id-hit, cert type, version */
		TlsHello *h = &s->server;
		cur_u8(&c);
		cur_u8(&c);
		uint16_t v = (uint16_t)cur_u16(&c);
		if (c.bad) {
			ev(s, TLS_EV_INVALID_SSLV2_HEADER);
			return;
		}
		hello_clear(h);
		h->sslv2 = true;
		h->version = v;
		h->present = true;
		s->dir[dir].version = v;
		set_state(s, TLS_STATE_SERVER_HELLO);
		s->flags |= TLS_F_SERVER_HELLO;
	}
}

/* ---- records ---- */

static void record_bytes(TlsState *s, int dir, const uint8_t *p, size_t n)
{
	TlsDir *d = &s->dir[dir];

	if (d->sslv2_rec) {
		/* only the first SSLv2 message of a direction is decoded */
		if (d->v2 && d->v2_len < d->v2_need) {
			size_t k = d->v2_need - d->v2_len;
			if (k > n)
				k = n;
			memcpy(d->v2 + d->v2_len, p, k);
			d->v2_len += (uint32_t)k;
		}
		return;
	}
	switch (d->rec_type) {
	case REC_HANDSHAKE:
		if (!d->encrypted)
			hs_feed(s, dir, p, n);
		break;
	case REC_ALERT:
	case REC_HEARTBEAT:
		for (size_t i = 0; i < n && d->small_len < sizeof(d->small); i++)
			d->small[d->small_len++] = p[i];
		break;
	case REC_APPDATA:
		/* 0-RTT data before the ServerHello does not end the
		 * handshake (RFC 8446, 2.3) */
		if (!(s->client.early_data && !(s->flags & TLS_F_SERVER_HELLO)))
			s->flags |= TLS_F_APPDATA_STARTED;
		break;
	default:
		break;
	}
}

static void record_end(TlsState *s, int dir, uint32_t rec_len)
{
	TlsDir *d = &s->dir[dir];

	if (d->sslv2_rec) {
		if (d->v2 && d->v2_len == d->v2_need)
			sslv2_record(s, dir, d->v2, d->v2_len);
		app_mem_free(ALPROTO_TLS, d->v2);
		d->v2 = NULL;
		d->v2_len = d->v2_need = 0;
		return;
	}
	switch (d->rec_type) {
	case REC_CCS:
		s->flags |= dir == TLS_TOSERVER ? TLS_F_CCS_TOSERVER : TLS_F_CCS_TOCLIENT;
		/* the sender encrypts from its next record */
		d->encrypted = true;
		d->hs_len = d->hs_need = d->hs_skip = 0;
		if ((s->flags & (TLS_F_CCS_TOSERVER | TLS_F_CCS_TOCLIENT)) ==
		    (TLS_F_CCS_TOSERVER | TLS_F_CCS_TOCLIENT))
			s->flags |= TLS_F_HANDSHAKE_DONE;
		break;
	case REC_APPDATA:
		s->flags |= dir == TLS_TOSERVER ? TLS_F_APPDATA_TOSERVER : TLS_F_APPDATA_TOCLIENT;
		break;
	case REC_ALERT:
		s->flags |= TLS_F_ALERT;
		if (!d->encrypted && rec_len == 2) {
			s->alert_level = d->small[0];
			s->alert_desc = d->small[1];
			if (d->small[0] == 2) /* fatal */
				ev(s, TLS_EV_ERROR_MESSAGE_ENCOUNTERED);
		}
		break;
	case REC_HEARTBEAT:
		ev(s, TLS_EV_HEARTBEAT_MESSAGE);
		if (!d->encrypted && d->small_len == 3) {
			/* RFC 6520: type, payload_length, payload, >= 16 padding */
			uint32_t plen = (uint32_t)d->small[1] << 8 | d->small[2];
			if (d->small[0] != 1 && d->small[0] != 2)
				ev(s, TLS_EV_INVALID_HEARTBEAT_MESSAGE);
			else if (plen + 3 + 16 > rec_len)
				ev(s, TLS_EV_OVERFLOW_HEARTBEAT_MESSAGE);
		}
		break;
	}
	d->small_len = 0;
}

/* A complete record header in d->hdr: 0 ok, -1 lost sync. */
static int record_start(TlsState *s, int dir)
{
	TlsDir *d = &s->dir[dir];

	if (d->sslv2_rec) {
		uint32_t len = ((uint32_t)d->hdr[0] & 0x7f) << 8 | d->hdr[1];
		if (len == 0 || len > SSLV2_RECORD_MAX) {
			ev(s, TLS_EV_INVALID_SSLV2_HEADER);
			return -1;
		}
		d->rec_left = len;
		d->rec_type = 0;
		d->version = d->version ? d->version : TLS_V_SSL2;
		/* decode only a direction's first record: the hello */
		if (d->records == 0) {
			d->v2 = app_mem_malloc(ALPROTO_TLS, len);
			d->v2_need = d->v2 ? len : 0;
			d->v2_len = 0;
		}
		return 0;
	}
	uint8_t type = d->hdr[0];
	uint16_t ver = (uint16_t)(d->hdr[1] << 8 | d->hdr[2]);
	uint32_t len = (uint32_t)d->hdr[3] << 8 | d->hdr[4];
	if (type < REC_CCS || type > REC_HEARTBEAT) {
		ev(s, TLS_EV_INVALID_RECORD_TYPE);
		return -1;
	}
	if ((ver >> 8) != 3 || (ver & 0xff) > 4) {
		ev(s, TLS_EV_INVALID_RECORD_VERSION);
		return -1;
	}
	if (len > TLS_RECORD_MAX) {
		/* skipped, not decoded: the length still keeps the sync */
		ev(s, TLS_EV_INVALID_RECORD_LENGTH);
		type = 0;
	}
	d->rec_type = type;
	d->rec_version = ver;
	d->rec_left = len;
	d->small_len = 0;
	if (!d->version)
		d->version = ver;
	return 0;
}

int tls_parse(TlsState *s, int dir, const uint8_t *data, size_t len)
{
	if (!s || (dir != TLS_TOSERVER && dir != TLS_TOCLIENT))
		return -1;
	TlsDir *d = &s->dir[dir];
	uint32_t nrec = 0;
	size_t pos = 0;

	s->cur_state = 0;
	s->new_events = 0;
	if (d->dead)
		return -1;
	if (!data)
		len = 0;
	d->bytes += len;
	while (pos < len) {
		if (!d->in_record) {
			if (d->hdr_len == 0) {
				/* SSLv2 only opens a stream, or goes on where it
				 * opened one */
				uint8_t b = data[pos];
				d->sslv2_rec = (b & 0x80) && (d->records == 0 || d->v2_stream);
				if (d->records == 0)
					d->v2_stream = d->sslv2_rec;
				if (d->records == 0 && !d->sslv2_rec &&
				    !(b >= REC_CCS && b <= REC_HEARTBEAT)) {
					ev(s, TLS_EV_INVALID_TLS_HEADER);
					d->dead = true;
					return -1;
				}
			}
			uint8_t want = d->sslv2_rec ? 2 : 5;
			while (d->hdr_len < want && pos < len)
				d->hdr[d->hdr_len++] = data[pos++];
			if (d->hdr_len < want)
				break;
			if (++nrec > TLS_MAX_RECORDS_PER_CALL) {
				/* Suricata bounds a packet's records the same way */
				ev(s, TLS_EV_TOO_MANY_RECORDS_IN_PACKET);
				d->dead = true;
				return -1;
			}
			if (record_start(s, dir) < 0) {
				d->dead = true;
				return -1;
			}
			d->in_record = true;
			d->started = true;
			uint32_t rec_len = d->rec_left;
			if (s->on_record)
				s->on_record(s->on_record_arg, dir, (int64_t)pos - want, want, rec_len,
					      d->sslv2_rec ? 0 : d->hdr[0]);
			if (rec_len == 0) {
				record_end(s, dir, 0);
				d->records++;
				d->in_record = false;
				d->hdr_len = 0;
			}
			continue;
		}
		size_t n = len - pos;
		if (n > d->rec_left)
			n = d->rec_left;
		record_bytes(s, dir, data + pos, n);
		pos += n;
		d->rec_left -= (uint32_t)n;
		if (d->rec_left == 0) {
			uint32_t rec_len;
			if (d->sslv2_rec)
				rec_len = ((uint32_t)d->hdr[0] & 0x7f) << 8 | d->hdr[1];
			else
				rec_len = (uint32_t)d->hdr[3] << 8 | d->hdr[4];
			record_end(s, dir, rec_len);
			d->records++;
			d->in_record = false;
			d->hdr_len = 0;
		}
		if (d->dead)
			return -1;
	}
	return d->dead ? -1 : 0;
}

int tls_probe(const uint8_t *data, size_t len)
{
	if (!data || len == 0)
		return -1;
	if (data[0] >= REC_CCS && data[0] <= REC_HEARTBEAT) {
		if (len < 3)
			return len >= 2 && data[1] != 3 ? 0 : -1;
		return data[1] == 3 && data[2] <= 4 ? 1 : 0;
	}
	if (data[0] & 0x80) {
		/* SSLv2 CLIENT-HELLO: 2-byte header, type 1, version 0.2 or 3.x */
		if (len < 5)
			return -1;
		if (data[2] != 1)
			return 0;
		if ((data[3] == 0 && data[4] == 2) || (data[3] == 3 && data[4] <= 3))
			return 1;
		return 0;
	}
	return 0;
}
