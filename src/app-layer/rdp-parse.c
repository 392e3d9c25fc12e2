/* The RDP connection-sequence parser (rdp.h), written from [MS-RDPBCGR]
 * 2.2.1, RFC 1006 (TPKT), X.224 and T.125's Connect-Initial, and the
 * names Suricata 8's eve rdp record gives the fields. */
#include "app-layer/rdp.h"
#include "util/ber.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TPKT_HDR 4
#define TLS_HDR 5

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t be24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

/* ---------------- names ---------------- */

const char *rdp_version_name(uint32_t v, char *buf, unsigned size)
{
	/* 0x00080001 RDP 4.0; 0x00080004 RDP 5.0 to 8.1; 0x00080005 and up
	 * RDP 10.0, 10.1, ... */
	if (v == 0x00080001)
		return "v4";
	if (v == 0x00080004)
		return "v5";
	if (v >= 0x00080005 && v <= 0x000800ff) {
		snprintf(buf, size, "v10.%u", v - 0x00080005);
		return buf;
	}
	return "unknown";
}

/* Windows releases by build number (clientBuild) */
static const struct { uint32_t build; const char *name; } builds[] = {
	{ 528, "Windows NT 3.1" }, { 807, "Windows NT 3.5" }, { 1057, "Windows NT 3.51" },
	{ 1381, "Windows NT 4.0" }, { 2195, "Windows 2000" }, { 2600, "Windows XP" },
	{ 3790, "Windows Server 2003" }, { 6000, "Windows Vista" },
	{ 6001, "Windows Vista SP1" }, { 6002, "Windows Vista SP2" }, { 7600, "Windows 7" },
	{ 7601, "Windows 7 SP1" }, { 9200, "Windows 8" }, { 9600, "Windows 8.1" },
	{ 10240, "Windows 10" }, { 10586, "Windows 10 v1511" }, { 14393, "Windows 10 v1607" },
	{ 15063, "Windows 10 v1703" }, { 16299, "Windows 10 v1709" },
	{ 17134, "Windows 10 v1803" }, { 17763, "Windows 10 v1809" },
};

const char *rdp_build_name(uint32_t build)
{
	for (size_t i = 0; i < sizeof(builds) / sizeof(builds[0]); i++)
		if (builds[i].build == build)
			return builds[i].name;
	return "unknown";
}

/* keyboard layouts ([MS-LCID]): the common ones */
static const struct { uint16_t lcid; const char *name; } lcids[] = {
	{ 0x0401, "ar-SA" }, { 0x0402, "bg-BG" }, { 0x0403, "ca-ES" }, { 0x0404, "zh-TW" },
	{ 0x0405, "cs-CZ" }, { 0x0406, "da-DK" }, { 0x0407, "de-DE" }, { 0x0408, "el-GR" },
	{ 0x0409, "en-US" }, { 0x040a, "es-ES_tradnl" }, { 0x040b, "fi-FI" },
	{ 0x040c, "fr-FR" }, { 0x040d, "he-IL" }, { 0x040e, "hu-HU" }, { 0x040f, "is-IS" },
	{ 0x0410, "it-IT" }, { 0x0411, "ja-JP" }, { 0x0412, "ko-KR" }, { 0x0413, "nl-NL" },
	{ 0x0414, "nb-NO" }, { 0x0415, "pl-PL" }, { 0x0416, "pt-BR" }, { 0x0417, "rm-CH" },
	{ 0x0418, "ro-RO" }, { 0x0419, "ru-RU" }, { 0x041a, "hr-HR" }, { 0x041b, "sk-SK" },
	{ 0x041c, "sq-AL" }, { 0x041d, "sv-SE" }, { 0x041e, "th-TH" }, { 0x041f, "tr-TR" },
	{ 0x0420, "ur-PK" }, { 0x0421, "id-ID" }, { 0x0422, "uk-UA" }, { 0x0423, "be-BY" },
	{ 0x0424, "sl-SI" }, { 0x0425, "et-EE" }, { 0x0426, "lv-LV" }, { 0x0427, "lt-LT" },
	{ 0x0429, "fa-IR" }, { 0x042a, "vi-VN" }, { 0x042b, "hy-AM" }, { 0x042d, "eu-ES" },
	{ 0x042f, "mk-MK" }, { 0x0436, "af-ZA" }, { 0x0437, "ka-GE" }, { 0x0438, "fo-FO" },
	{ 0x0439, "hi-IN" }, { 0x043e, "ms-MY" }, { 0x043f, "kk-KZ" }, { 0x0441, "sw-KE" },
	{ 0x0443, "uz-Latn-UZ" }, { 0x0445, "bn-IN" }, { 0x0449, "ta-IN" },
	{ 0x0804, "zh-CN" }, { 0x0807, "de-CH" }, { 0x0809, "en-GB" }, { 0x080a, "es-MX" },
	{ 0x080c, "fr-BE" }, { 0x0810, "it-CH" }, { 0x0813, "nl-BE" }, { 0x0814, "nn-NO" },
	{ 0x0816, "pt-PT" }, { 0x081a, "sr-Latn-CS" }, { 0x081d, "sv-FI" },
	{ 0x0c07, "de-AT" }, { 0x0c09, "en-AU" }, { 0x0c0a, "es-ES" }, { 0x0c0c, "fr-CA" },
	{ 0x0c1a, "sr-Cyrl-CS" }, { 0x1009, "en-CA" }, { 0x100c, "fr-CH" },
	{ 0x1409, "en-NZ" }, { 0x1809, "en-IE" }, { 0x2009, "en-JM" }, { 0x4009, "en-IN" },
};

const char *rdp_lcid_name(uint32_t lcid)
{
	for (size_t i = 0; i < sizeof(lcids) / sizeof(lcids[0]); i++)
		if (lcids[i].lcid == lcid)
			return lcids[i].name;
	return "default";
}

const char *rdp_keyboard_name(uint32_t type)
{
	static const char *const names[] = { NULL, "xt", "ico", "at", "enhanced", "1050",
					     "9140", "jp" };

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : NULL;
}

const char *rdp_protocol_name(uint32_t proto)
{
	switch (proto) {
	case RDP_PROTO_RDP:
		return "rdp";
	case RDP_PROTO_SSL:
		return "ssl";
	case RDP_PROTO_HYBRID:
		return "hybrid";
	case RDP_PROTO_RDSTLS:
		return "rds_tls";
	case RDP_PROTO_HYBRID_EX:
		return "hybrid_ex";
	}
	return NULL;
}

const char *rdp_failure_name(uint32_t code)
{
	static const char *const names[] = { NULL, "ssl required by server",
		"ssl not allowed by server", "ssl cert not on server", "inconsistent flags",
		"hybrid required by server", "ssl with user auth required by server" };

	return code < sizeof(names) / sizeof(names[0]) ? names[code] : NULL;
}

unsigned rdp_color_depth(const RdpClientCore *c)
{
	/* highColorDepth first, then postBeta2ColorDepth, then colorDepth */
	if (c->has_high_color) {
		switch (c->high_color) {
		case 4: case 8: case 15: case 16: case 24:
			return c->high_color;
		}
	}
	if (c->has_post_beta2) {
		static const unsigned pb2[] = { 4, 8, 15, 16, 24 };

		if (c->post_beta2 >= 0xca00 && c->post_beta2 <= 0xca04)
			return pb2[c->post_beta2 - 0xca00];
	}
	if (c->color_depth == 0xca00)
		return 4;
	if (c->color_depth == 0xca01)
		return 8;
	return 0;
}

/* ---------------- state ---------------- */

static void rdp_tx_free(AppTx *t)
{
	RdpTx *tx = (RdpTx *)t;

	free(tx->cookie);
	for (uint32_t i = 0; i < tx->nserials; i++)
		free(tx->serials[i]);
	free(tx);
}

RdpState *rdp_state_new(void)
{
	RdpState *s = calloc(1, sizeof(*s));

	if (s)
		txl_init(&s->txs, 0, rdp_tx_free);
	return s;
}

void rdp_state_free(RdpState *s)
{
	if (!s)
		return;
	txl_free(&s->txs);
	free(s->side[0].buf);
	free(s->side[1].buf);
	free(s);
}

/* A new transaction, complete both ways: each is one message. NULL past
 * the limit of live ones (the flow is then not parsed further). */
static RdpTx *new_tx(RdpState *s, uint8_t item)
{
	RdpTx *tx;

	if (s->txs.live >= RDP_MAX_TX)
		return NULL;
	tx = calloc(1, sizeof(*tx));
	if (!tx)
		return NULL;
	tx->item = item;
	tx->base.done[0] = tx->base.done[1] = 1;
	tx->base.some[0] = tx->base.some[1] = 1;
	txl_add(&s->txs, &tx->base);
	return tx;
}

/* UTF-16LE up to its NUL into out as UTF-8 (a lone surrogate as U+FFFD) */
static void utf16_to_utf8(const uint8_t *p, uint32_t n, char *out, size_t size)
{
	size_t k = 0;

	for (uint32_t i = 0; i + 1 < n; i += 2) {
		uint32_t c = le16(p + i);

		if (c == 0)
			break;
		if (c >= 0xd800 && c <= 0xdbff && i + 3 < n && le16(p + i + 2) >= 0xdc00 &&
		    le16(p + i + 2) <= 0xdfff) {
			c = 0x10000 + ((c - 0xd800) << 10) + (le16(p + i + 2) - 0xdc00);
			i += 2;
		} else if (c >= 0xd800 && c <= 0xdfff) {
			c = 0xfffd;
		}
		if (k + 5 > size)
			break;
		if (c < 0x80) {
			out[k++] = (char)c;
		} else if (c < 0x800) {
			out[k++] = (char)(0xc0 | c >> 6);
			out[k++] = (char)(0x80 | (c & 0x3f));
		} else if (c < 0x10000) {
			out[k++] = (char)(0xe0 | c >> 12);
			out[k++] = (char)(0x80 | (c >> 6 & 0x3f));
			out[k++] = (char)(0x80 | (c & 0x3f));
		} else {
			out[k++] = (char)(0xf0 | c >> 18);
			out[k++] = (char)(0x80 | (c >> 12 & 0x3f));
			out[k++] = (char)(0x80 | (c >> 6 & 0x3f));
			out[k++] = (char)(0x80 | (c & 0x3f));
		}
	}
	out[k] = 0;
}

/* ---------------- X.224 ---------------- */

static const char COOKIE[] = "Cookie: mstshash=";

/* Connection Request: the variable part holds an optional cookie line
 * (or another routing token line) and an optional RDP_NEG_REQ. */
static int x224_request(RdpState *s, const uint8_t *p, uint32_t n)
{
	RdpTx *tx = new_tx(s, RDP_INITIAL_REQUEST);
	const uint8_t *eol;

	if (!tx)
		return -1;
	if (n >= 2 && memcmp(p, "Co", 2) == 0) {
		eol = NULL;
		for (uint32_t i = 0; i + 1 < n; i++)
			if (p[i] == '\r' && p[i + 1] == '\n') {
				eol = p + i;
				break;
			}
		if (eol) {
			uint32_t line = (uint32_t)(eol - p);
			uint32_t cl = sizeof(COOKIE) - 1;

			if (line >= cl && memcmp(p, COOKIE, cl) == 0) {
				tx->cookie = malloc(line - cl + 1);
				if (tx->cookie) {
					memcpy(tx->cookie, p + cl, line - cl);
					tx->cookie[line - cl] = 0;
					tx->cookie_len = line - cl;
				}
			}
			p = eol + 2;
			n -= line + 2;
		}
	}
	if (n >= 8 && p[0] == 0x01) {
		tx->has_neg_req = 1;
		tx->req_flags = p[1];
		tx->req_protocols = le32(p + 4);
	}
	return 0;
}

static int x224_confirm(RdpState *s, const uint8_t *p, uint32_t n)
{
	RdpTx *tx = new_tx(s, RDP_INITIAL_RESPONSE);

	if (!tx)
		return -1;
	if (n >= 8 && (p[0] == 0x02 || p[0] == 0x03)) {
		tx->neg_kind = p[0] == 0x02 ? 1 : 2;
		tx->rsp_flags = p[1];
		tx->rsp_value = le32(p + 4);
	}
	return 0;
}

/* ---------------- MCS Connect Initial ---------------- */

static void client_core(RdpTx *tx, const uint8_t *p, uint32_t n)
{
	RdpClientCore *c = &tx->core;

	if (n < 128)
		return;
	tx->has_core = 1;
	c->version = le32(p);
	c->width = le16(p + 4);
	c->height = le16(p + 6);
	c->color_depth = le16(p + 8);
	c->keyboard_layout = le32(p + 12);
	c->build = le32(p + 16);
	utf16_to_utf8(p + 20, 32, c->name, sizeof(c->name));
	c->keyboard_type = le32(p + 52);
	c->keyboard_subtype = le32(p + 56);
	c->function_keys = le32(p + 60);
	/* the optional fields, each present only when all before it are */
	if (n < 130)
		return;
	c->has_post_beta2 = 1;
	c->post_beta2 = le16(p + 128);
	if (n < 132)
		return;
	c->has_product_id = 1;
	c->product_id = le16(p + 130);
	if (n < 138)
		return;
	c->has_high_color = 1;
	c->high_color = le16(p + 136);
	if (n < 142)
		return;
	c->has_early_caps = 1;
	c->early_caps = le16(p + 140);
	if (n < 206)
		return;
	c->has_dig_id = 1;
	utf16_to_utf8(p + 142, 64, c->dig_id, sizeof(c->dig_id));
}

static void client_net(RdpTx *tx, const uint8_t *p, uint32_t n)
{
	uint32_t count;

	if (n < 4)
		return;
	count = le32(p);
	p += 4;
	n -= 4;
	for (uint32_t i = 0; i < count && n >= 12 && tx->nchannels < RDP_MAX_CHANNELS; i++) {
		char *name = tx->channels[tx->nchannels++];

		memcpy(name, p, 8);
		name[8] = 0;
		p += 12;
		n -= 12;
	}
}

/* The GCC Conference Create Request in userData: its client data blocks
 * follow the H.221 key "Duca" and a PER length. */
static void gcc_blocks(RdpTx *tx, const uint8_t *p, uint32_t n)
{
	uint32_t i = 0;

	for (; i + 4 <= n && i < 64; i++)
		if (memcmp(p + i, "Duca", 4) == 0)
			break;
	if (i + 4 > n || i >= 64)
		return;
	i += 4;
	if (i < n && (p[i] & 0x80))
		i += 2;
	else
		i += 1;
	while (i + 4 <= n) {
		uint16_t type = le16(p + i), len = le16(p + i + 2);

		if (len < 4 || len > n - i)
			break;
		if (type == 0xc001)
			client_core(tx, p + i + 4, len - 4u);
		else if (type == 0xc003)
			client_net(tx, p + i + 4, len - 4u);
		i += len;
	}
}

static int mcs_connect_initial(RdpState *s, const uint8_t *p, uint32_t n)
{
	BerCur c, in;
	BerElem e;
	RdpTx *tx;

	ber_cur_init(&c, p, n);
	if (ber_next(&c, &e) < 0)
		return 0;
	tx = new_tx(s, RDP_CONNECT_REQUEST);
	if (!tx)
		return -1;
	ber_cur_into(&in, &e);
	/* calling/called domain selectors, upward flag, three domain
	 * parameters, then userData */
	for (int k = 0; k < 6; k++)
		if (ber_next(&in, &e) < 0)
			return 0;
	if (ber_next(&in, &e) == 0 && e.tag == 4)
		gcc_blocks(tx, e.content, e.avail);
	return 0;
}

/* One whole TPKT: 0, or -1 when its content is not RDP's. */
static int tpkt(RdpState *s, int dir, const uint8_t *p, uint32_t n)
{
	uint8_t li, code;
	uint32_t end;

	if (n < TPKT_HDR + 2)
		return -1;
	li = p[4];
	code = p[5] & 0xf0;
	end = n;
	if (code == 0xe0 || code == 0xd0) {
		/* fixed part: LI, code, dst-ref, src-ref, class */
		if (n < TPKT_HDR + 7 || li < 6)
			return -1;
		if (code == 0xe0 && dir == RDP_TOSERVER)
			return x224_request(s, p + 11, end - 11);
		if (code == 0xd0 && dir == RDP_TOCLIENT)
			return x224_confirm(s, p + 11, end - 11);
		return 0;
	}
	if (code == 0xf0 && n >= 7 + 2 && p[7] == 0x7f) {
		/* X.224 data: T.125 MCS; Connect-Initial [APPLICATION 101],
		 * Connect-Response [APPLICATION 102] */
		if (dir == RDP_TOSERVER && p[8] == 0x65)
			return mcs_connect_initial(s, p + 7, n - 7);
		if (dir == RDP_TOCLIENT && p[8] == 0x66) {
			if (!new_tx(s, RDP_CONNECT_RESPONSE))
				return -1;
			/* what follows is RDP's own encryption: not parsed */
			s->bypass = 1;
		}
	}
	return 0;
}

/* ---------------- TLS ---------------- */

static int tls_start(const uint8_t *p, uint32_t n)
{
	return n >= 3 && p[0] == 0x16 && p[1] == 0x03 && p[2] <= 0x04;
}

/* INTEGER content as Suricata writes a serial: hex without leading zeros */
static char *serial_hex(const uint8_t *p, uint32_t n)
{
	char *out;
	size_t k = 0;

	while (n > 1 && p[0] == 0) {
		p++;
		n--;
	}
	out = malloc(2 * (size_t)n + 1);
	if (!out)
		return NULL;
	for (uint32_t i = 0; i < n; i++) {
		static const char hex[] = "0123456789abcdef";

		if (k || p[i] >> 4)
			out[k++] = hex[p[i] >> 4];
		out[k++] = hex[p[i] & 15];
	}
	out[k] = 0;
	return out;
}

static void cert_serial(RdpTx *tx, const uint8_t *der, uint32_t n)
{
	BerCur c, tbs;
	BerElem e;

	ber_cur_init(&c, der, n);
	if (ber_next(&c, &e) < 0)
		return;
	ber_cur_into(&c, &e);
	if (ber_next(&c, &e) < 0)
		return;
	ber_cur_into(&tbs, &e);
	/* [0] EXPLICIT version, when present, then the serial */
	ber_next_tag(&tbs, BER_CLASS_CONTEXT, 0, &e);
	if (ber_next_tag(&tbs, BER_CLASS_UNIVERSAL, 2, &e) < 0 || !e.avail)
		return;
	if (tx->nserials < RDP_MAX_SERIALS) {
		char *h = serial_hex(e.content, e.avail);

		if (h)
			tx->serials[tx->nserials++] = h;
	}
}

/* A server handshake record: a Certificate message's chain is a
 * transaction, and the end of the parse. */
static int tls_record(RdpState *s, int dir, const uint8_t *p, uint32_t n)
{
	uint32_t i = TLS_HDR;

	if (p[0] < 20 || p[0] > 24)
		return -1;
	if (dir != RDP_TOCLIENT || p[0] != 22)
		return 0;
	while (i + 4 <= n) {
		uint8_t type = p[i];
		uint32_t len = be24(p + i + 1), j, end;
		RdpTx *tx;

		if (len > n - i - 4)
			break;              /* cut across records: not followed */
		if (type != 11) {
			i += 4 + len;
			continue;
		}
		tx = new_tx(s, RDP_TLS_HANDSHAKE);
		if (!tx)
			return -1;
		end = i + 4 + len;
		j = i + 4 + 3;          /* past the chain's length */
		while (j + 3 <= end) {
			uint32_t cl = be24(p + j);

			if (cl > end - j - 3)
				break;
			cert_serial(tx, p + j + 3, cl);
			j += 3 + cl;
		}
		s->bypass = 1;
		return 0;
	}
	return 0;
}

/* ---------------- framing ---------------- */

/* The length of the unit at p: TPKT or TLS record (once TLS began); 0
 * more bytes needed, -1 neither. */
static int64_t unit_len(RdpState *s, const uint8_t *p, uint32_t n)
{
	if (n < 1 || (!s->tls && n < 3 && p[0] == 0x16))
		return 0;
	if (!s->tls && p[0] != 0x03 && tls_start(p, n))
		s->tls = 1;         /* the server chose TLS or CredSSP */
	if (s->tls) {
		if (n < TLS_HDR)
			return 0;
		if (p[1] != 0x03)
			return -1;
		return TLS_HDR + (int64_t)(p[3] << 8 | p[4]);
	}
	if (p[0] != 0x03)
		return -1;
	if (n < TPKT_HDR)
		return 0;
	if (p[1] != 0 || (p[2] << 8 | p[3]) < TPKT_HDR + 3)
		return -1;
	return p[2] << 8 | p[3];
}

static int unit(RdpState *s, int dir, const uint8_t *p, uint32_t n)
{
	return s->tls ? tls_record(s, dir, p, n) : tpkt(s, dir, p, n);
}

static void side_drop(RdpSide *sd)
{
	free(sd->buf);
	sd->buf = NULL;
	sd->len = sd->cap = 0;
}

static int side_fail(RdpSide *sd)
{
	sd->dead = 1;
	side_drop(sd);
	return -1;
}

int rdp_parse(RdpState *s, int dir, const uint8_t *data, uint32_t len)
{
	RdpSide *sd;

	if (!s || dir < 0 || dir > 1)
		return 0;
	sd = &s->side[dir];
	if (s->bypass || sd->dead || !len)
		return 0;
	while (len && !s->bypass) {
		int64_t u;

		if (sd->len) {
			/* complete the unit cut across calls: its header first */
			uint32_t want, take;

			u = unit_len(s, sd->buf, sd->len);
			want = u > 0 ? (uint32_t)u : TLS_HDR;
			if (u < 0)
				return side_fail(sd);
			take = want - sd->len < len ? want - sd->len : len;
			if (sd->len + take > sd->cap) {
				uint8_t *nb = realloc(sd->buf, want);

				if (!nb)
					return side_fail(sd);
				sd->buf = nb;
				sd->cap = want;
			}
			memcpy(sd->buf + sd->len, data, take);
			sd->len += take;
			data += take;
			len -= take;
			u = unit_len(s, sd->buf, sd->len);
			if (u < 0)
				return side_fail(sd);
			if (u == 0 || sd->len < (uint64_t)u)
				continue;
			if (unit(s, dir, sd->buf, sd->len) < 0)
				return side_fail(sd);
			side_drop(sd);
			continue;
		}
		u = unit_len(s, data, len);
		if (u < 0)
			return side_fail(sd);
		if (u == 0 || (uint64_t)u > len) {
			/* keep the start: at most one unit (its length field
			 * bounds it below 64 KiB + 5) */
			sd->buf = malloc(u > 0 ? (size_t)u : TLS_HDR);
			if (!sd->buf)
				return side_fail(sd);
			sd->cap = u > 0 ? (uint32_t)u : TLS_HDR;
			memcpy(sd->buf, data, len);
			sd->len = len;
			return 0;
		}
		if (unit(s, dir, data, (uint32_t)u) < 0)
			return side_fail(sd);
		data += u;
		len -= (uint32_t)u;
	}
	if (s->bypass) {
		side_drop(&s->side[0]);
		side_drop(&s->side[1]);
	}
	return 0;
}

void rdp_side_end(RdpState *s, int dir)
{
	if (!s || dir < 0 || dir > 1)
		return;
	s->side[dir].dead = 1;
	side_drop(&s->side[dir]);
}

int rdp_probe(int dir, const uint8_t *buf, uint32_t len)
{
	/* TPKT version 3, reserved 0, then X.224 LI and its code */
	static const uint8_t want[2] = { 0xe0, 0xd0 };

	if (len >= 1 && buf[0] != 0x03)
		return 0;
	if (len >= 2 && buf[1] != 0x00)
		return 0;
	if (len < 6)
		return -1;
	if ((buf[2] << 8 | buf[3]) < TPKT_HDR + 7)
		return 0;
	return (buf[5] & 0xf0) == want[dir & 1] ? 1 : 0;
}
