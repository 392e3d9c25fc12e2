/* IKE message decoding (ike.h): the header, then the payload chain of
 * IKEv1 (RFC 2408) or IKEv2 (RFC 7296), each payload bounded by its own
 * length and the message by the datagram. Nothing here allocates more
 * than the caps of ike.h per message. */
#include "app-layer/ike.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static inline uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* ---------------- names ---------------- */

static const char *const attr_names[] = {
	[1] = "alg_enc", [2] = "alg_hash", [3] = "alg_auth", [4] = "alg_dh",
	[5] = "sa_group_type", [6] = "sa_group_prime", [7] = "sa_group_generator_one",
	[8] = "sa_group_generator_two", [9] = "sa_group_curve_a", [10] = "sa_group_curve_b",
	[11] = "sa_life_type", [12] = "sa_life_duration", [13] = "alg_prf",
	[14] = "sa_key_length", [15] = "sa_field_size", [16] = "sa_group_order",
};
#define NATTR_NAMES (sizeof(attr_names) / sizeof(attr_names[0]))

const char *ike_attr_name(uint16_t type)
{
	return type < NATTR_NAMES && attr_names[type] ? attr_names[type] : "unknown";
}

int ike_attr_by_name(const char *name)
{
	for (unsigned i = 1; i < NATTR_NAMES; i++)
		if (attr_names[i] && strcmp(attr_names[i], name) == 0)
			return (int)i;
	return -1;
}

static const char *const enc_names[] = {
	NULL, "EncDesCbc", "EncIdeaCbc", "EncBlowfishCbc", "EncRc5R16B64Cbc",
	"Enc3DesCbc", "EncCastCbc", "EncAesCbc", "EncCamelliaCbc",
};
static const char *const hash_names[] = {
	NULL, "HashMd5", "HashSha", "HashTiger", "HashSha2_256", "HashSha2_384", "HashSha2_512",
};
static const char *const auth_names[] = {
	NULL, "AuthPreSharedKey", "AuthDssSignatures", "AuthRsaSignatures",
	"AuthEncryptionWithRsa", "AuthRevisedEncryptionWithRsa", "AuthReserved",
	"AuthReserved", "AuthReserved", "AuthEcdsaSha256", "AuthEcdsaSha384", "AuthEcdsaSha512",
};
static const char *const group_names[] = {
	NULL, "GroupDefault768BitModp", "GroupAlternate1024BitModpGroup",
	"GroupEc2nOnGp2p155", "GroupEc2nOnGp2p185", "GroupModp1536Bit",
	"GroupEc2nOverGf2p163", "GroupEc2nOverGf2p163", "GroupEc2nOverGf2p283",
	"GroupEc2nOverGf2p283", "GroupEc2nOverGf2p409", "GroupEc2nOverGf2p409",
	"GroupEc2nOverGf2p571", "GroupEc2nOverGf2p571", "GroupModp2048Bit",
	"GroupModp3072Bit", "GroupModp4096Bit", "GroupModp6144Bit", "GroupModp8192Bit",
	"GroupRandomEcp256", "GroupRandomEcp384", "GroupRandomEcp521",
	"GroupModp1024With160BitPrime", "GroupModp2048With224BitPrime",
	"GroupModp2048With256BitPrime", "GroupRandomEcp192", "GroupRandomEcp224",
	"GroupBrainpoolEcp224", "GroupBrainpoolEcp256", "GroupBrainpoolEcp384",
	"GroupBrainpoolEcp512",
};
static const char *const gtype_names[] = { NULL, "GroupTypeModp", "GroupTypeEcp", "GroupTypeEc2n" };
static const char *const life_names[] = { NULL, "LifeTypeSeconds", "LifeTypeKilobytes" };

#define PICK(tab, v) ((v) < sizeof(tab) / sizeof(tab[0]) && tab[v] ? tab[v] : "Unknown")

const char *ike_attr_value_name(uint16_t type, uint32_t v)
{
	switch (type) {
	case 1: return PICK(enc_names, v);
	case 2: return PICK(hash_names, v);
	case 3: return PICK(auth_names, v);
	case 4: return PICK(group_names, v);
	case 5: return PICK(gtype_names, v);
	case 11: return PICK(life_names, v);
	}
	return "Unknown";
}

static const char *const v1_pnames[] = {
	"None", "SecurityAssociation", "Proposal", "Transform", "KeyExchange",
	"Identification", "Certificate", "CertificateRequest", "Hash", "Signature",
	"Nonce", "Notification", "Delete", "VendorID", NULL, "SaKekPayload",
	"SaTekPayload", "KeyDownload", "SequenceNumber", "ProofOfPossession",
	"NatDiscovery", "NatOriginalAddress", "GroupAssociatedPolicy",
};

const char *ike_v1_payload_name(uint8_t t)
{
	return t < sizeof(v1_pnames) / sizeof(v1_pnames[0]) ? v1_pnames[t] : NULL;
}

static const char *const v2_pnames[] = {
	"SecurityAssociation", "KeyExchange", "IdentInitiator", "IdentResponder",
	"Certificate", "CertificateRequest", "Authentication", "Nonce", "Notify",
	"Delete", "VendorID", "TrafficSelectorInitiator", "TrafficSelectorResponder",
	"EncryptedAndAuthenticated", "Configuration", "ExtensibleAuthentication",
};

const char *ike_v2_payload_name(uint8_t t)
{
	if (t == 0)
		return "NoNextPayload";
	if (t >= 33 && t < 33 + sizeof(v2_pnames) / sizeof(v2_pnames[0]))
		return v2_pnames[t - 33];
	return NULL;
}

static const struct { uint16_t t; const char *n; } notify_names[] = {
	{ 1, "UNSUPPORTED_CRITICAL_PAYLOAD" }, { 4, "INVALID_IKE_SPI" },
	{ 5, "INVALID_MAJOR_VERSION" }, { 7, "INVALID_SYNTAX" }, { 9, "INVALID_MESSAGE_ID" },
	{ 11, "INVALID_SPI" }, { 14, "NO_PROPOSAL_CHOSEN" }, { 17, "INVALID_KE_PAYLOAD" },
	{ 24, "AUTHENTICATION_FAILED" }, { 34, "SINGLE_PAIR_REQUIRED" },
	{ 35, "NO_ADDITIONAL_SAS" }, { 36, "INTERNAL_ADDRESS_FAILURE" },
	{ 37, "FAILED_CP_REQUIRED" }, { 38, "TS_UNACCEPTABLE" }, { 39, "INVALID_SELECTORS" },
	{ 43, "TEMPORARY_FAILURE" }, { 44, "CHILD_SA_NOT_FOUND" },
	{ 16384, "INITIAL_CONTACT" }, { 16385, "SET_WINDOW_SIZE" },
	{ 16386, "ADDITIONAL_TS_POSSIBLE" }, { 16387, "IPCOMP_SUPPORTED" },
	{ 16388, "NAT_DETECTION_SOURCE_IP" }, { 16389, "NAT_DETECTION_DESTINATION_IP" },
	{ 16390, "COOKIE" }, { 16391, "USE_TRANSPORT_MODE" },
	{ 16392, "HTTP_CERT_LOOKUP_SUPPORTED" }, { 16393, "REKEY_SA" },
	{ 16394, "ESP_TFC_PADDING_NOT_SUPPORTED" }, { 16395, "NON_FIRST_FRAGMENTS_ALSO" },
	{ 16396, "MOBIKE_SUPPORTED" }, { 16404, "MULTIPLE_AUTH_SUPPORTED" },
	{ 16405, "ANOTHER_AUTH_FOLLOWS" }, { 16406, "REDIRECT_SUPPORTED" },
	{ 16408, "IKEV2_MESSAGE_ID_SYNC_SUPPORTED" }, { 16417, "EAP_ONLY_AUTHENTICATION" },
	{ 16430, "IKEV2_FRAGMENTATION_SUPPORTED" }, { 16431, "SIGNATURE_HASH_ALGORITHMS" },
};

const char *ike_v2_notify_name(uint16_t t)
{
	for (size_t i = 0; i < sizeof(notify_names) / sizeof(notify_names[0]); i++)
		if (notify_names[i].t == t)
			return notify_names[i].n;
	return NULL;
}

static const char *const v2_enc[] = {
	[0] = NULL, "ENCR_DES_IV64", "ENCR_DES", "ENCR_3DES", "ENCR_RC5", "ENCR_IDEA",
	"ENCR_CAST", "ENCR_BLOWFISH", "ENCR_3IDEA", "ENCR_DES_IV32", NULL, "ENCR_NULL",
	"ENCR_AES_CBC", "ENCR_AES_CTR", "ENCR_AES_CCM_8", "ENCR_AES_CCM_12",
	"ENCR_AES_CCM_16", NULL, "ENCR_AES_GCM_8", "ENCR_AES_GCM_12", "ENCR_AES_GCM_16",
	"ENCR_NULL_AUTH_AES_GMAC", NULL, "ENCR_CAMELLIA_CBC", "ENCR_CAMELLIA_CTR",
	"ENCR_CAMELLIA_CCM_8", "ENCR_CAMELLIA_CCM_12", "ENCR_CAMELLIA_CCM_16",
	"ENCR_CHACHA20_POLY1305",
};
static const char *const v2_prf[] = {
	"PRF_NULL", "PRF_HMAC_MD5", "PRF_HMAC_SHA1", "PRF_HMAC_TIGER", "PRF_AES128_XCBC",
	"PRF_HMAC_SHA2_256", "PRF_HMAC_SHA2_384", "PRF_HMAC_SHA2_512", "PRF_AES128_CMAC",
};
static const char *const v2_auth[] = {
	"AUTH_NONE", "AUTH_HMAC_MD5_96", "AUTH_HMAC_SHA1_96", "AUTH_DES_MAC",
	"AUTH_KPDK_MD5", "AUTH_AES_XCBC_96", "AUTH_HMAC_MD5_128", "AUTH_HMAC_SHA1_160",
	"AUTH_AES_CMAC_96", "AUTH_AES_128_GMAC", "AUTH_AES_192_GMAC", "AUTH_AES_256_GMAC",
	"AUTH_HMAC_SHA2_256_128", "AUTH_HMAC_SHA2_384_192", "AUTH_HMAC_SHA2_512_256",
};
static const char *const v2_dh[] = {
	"G_NONE", "G_MODP_768", "G_MODP_1024", NULL, NULL, "G_MODP_1536", NULL, NULL, NULL,
	NULL, NULL, NULL, NULL, NULL, "G_MODP_2048", "G_MODP_3072", "G_MODP_4096",
	"G_MODP_6144", "G_MODP_8192", "G_ECP_256", "G_ECP_384", "G_ECP_521",
	"G_MODP_1024_160", "G_MODP_2048_224", "G_MODP_2048_256", "G_ECP_192", "G_ECP_224",
	"G_BRAINPOOL_224", "G_BRAINPOOL_256", "G_BRAINPOOL_384", "G_BRAINPOOL_512",
	"G_CURVE25519", "G_CURVE448",
};
static const char *const v2_esn[] = { "NoESN", "ESN" };

const char *ike_v2_transform_name(int type, uint16_t id)
{
#define T2(tab) (id < sizeof(tab) / sizeof(tab[0]) && tab[id] ? tab[id] : NULL)
	switch (type) {
	case IKE2_TT_ENCR: return T2(v2_enc);
	case IKE2_TT_PRF: return T2(v2_prf);
	case IKE2_TT_INTEG: return T2(v2_auth);
	case IKE2_TT_DH: return T2(v2_dh);
	case IKE2_TT_ESN: return T2(v2_esn);
	}
	return NULL;
#undef T2
}

static const char *const ev_names[IKE_EV_COUNT] = {
	[IKE_EV_MALFORMED_DATA] = "malformed_data",
	[IKE_EV_NO_ENCRYPTION] = "no_encryption",
	[IKE_EV_WEAK_CRYPTO_ENC] = "weak_crypto_enc",
	[IKE_EV_WEAK_CRYPTO_PRF] = "weak_crypto_prf",
	[IKE_EV_WEAK_CRYPTO_DH] = "weak_crypto_dh",
	[IKE_EV_WEAK_CRYPTO_AUTH] = "weak_crypto_auth",
	[IKE_EV_WEAK_CRYPTO_NO_DH] = "weak_crypto_nodh",
	[IKE_EV_WEAK_CRYPTO_NO_AUTH] = "weak_crypto_noauth",
	[IKE_EV_INVALID_PROPOSAL] = "invalid_proposal",
	[IKE_EV_UNKNOWN_PROPOSAL] = "unknown_proposal",
	[IKE_EV_PAYLOAD_EXTRA_DATA] = "payload_extra_data",
	[IKE_EV_MULTIPLE_SERVER_PROPOSAL] = "multiple_server_proposal",
};

const char *ike_event_name(int ev)
{
	return ev >= 0 && ev < IKE_EV_COUNT ? ev_names[ev] : NULL;
}

int ike_event_by_name(const char *name)
{
	for (int i = 0; i < IKE_EV_COUNT; i++)
		if (strcasecmp(ev_names[i], name) == 0)
			return i;
	return -1;
}

/* ---------------- decoding ---------------- */

#define EV(m, e) ((m)->events |= 1u << (e))

int ike_header_ok(const uint8_t *b, uint32_t len)
{
	uint8_t maj;

	if (len < IKE_HDR_LEN)
		return 0;
	maj = b[17] >> 4;
	if ((maj != 1 && maj != 2) || (b[17] & 0x0f) != 0)
		return 0;
	/* the length covers the header at least, and no more than the datagram */
	if (rd32(b + 24) < IKE_HDR_LEN || rd32(b + 24) > len)
		return 0;
	if (maj == 2)
		/* exchange types 34..37 (and private ones) */
		return b[18] >= 34 && (b[16] == 0 || b[16] >= 33);
	/* v1: an initiator SPI, exchange types 0..5, 32..33, private 240+ */
	return b[18] <= 5 || b[18] == 32 || b[18] == 33 || b[18] >= 240;
}

static uint8_t *copy_data(const uint8_t *p, uint32_t n, uint32_t *out_len)
{
	uint8_t *d;

	if (n > IKE_MAX_DATA)
		n = IKE_MAX_DATA;
	d = malloc(n ? n : 1);
	if (!d)
		return NULL;
	memcpy(d, p, n);
	*out_len = n;
	return d;
}

static void add_ptype(IkeMsg *m, uint8_t t, int dedup)
{
	if (dedup)
		for (unsigned i = 0; i < m->npayloads; i++)
			if (m->payloads[i] == t)
				return;
	if (m->npayloads < IKE_MAX_PAYLOADS)
		m->payloads[m->npayloads++] = t;
}

/* v1 attributes of one transform (RFC 2408 3.3) */
static int v1_attrs(const uint8_t *p, uint32_t n, IkeTransform *t)
{
	while (n >= 4) {
		uint16_t af_type = rd16(p);
		IkeAttr a = { .type = af_type & 0x7fff };
		uint32_t used;

		if (af_type & 0x8000) {
			a.numeric = 1;
			a.len = 2;
			a.value = rd16(p + 2);
			used = 4;
		} else {
			uint16_t l = rd16(p + 2);

			if (4u + l > n)
				return -1;
			if (l <= 4) {
				a.numeric = 1;
				for (unsigned i = 0; i < l; i++)
					a.value = a.value << 8 | p[4 + i];
			} else {
				a.len = l > IKE_ATTR_RAW ? IKE_ATTR_RAW : (uint8_t)l;
				memcpy(a.raw, p + 4, a.len);
			}
			used = 4u + l;
		}
		if (t && t->nattr < IKE_MAX_ATTRS)
			t->attr[t->nattr++] = a;
		p += used;
		n -= used;
	}
	return n ? -1 : 0;
}

/* v1 SA payload body: DOI, situation, proposals, each with its transforms */
static int v1_sa(IkeMsg *m, const uint8_t *p, uint32_t n)
{
	if (n < 8)
		return -1;
	m->has_doi = 1;
	m->doi = rd32(p);
	p += 8;
	n -= 8;
	while (n >= 8) {
		uint16_t plen = rd16(p + 2);
		uint8_t spi_size = p[6], ntr = p[7];
		int last;
		const uint8_t *q;
		uint32_t qn;

		if (plen < 8u + spi_size || plen > n)
			return -1;
		q = p + 8 + spi_size;
		qn = plen - 8u - spi_size;
		for (unsigned i = 0; i < ntr && qn >= 8; i++) {
			uint16_t tlen = rd16(q + 2);
			IkeTransform *t = NULL;

			if (tlen < 8 || tlen > qn)
				return -1;
			if (m->ntransforms < IKE_MAX_TRANSFORMS) {
				if (!m->transforms &&
				    !(m->transforms = calloc(IKE_MAX_TRANSFORMS, sizeof(IkeTransform))))
					return -1;
				t = &m->transforms[m->ntransforms++];
			}
			if (v1_attrs(q + 8, tlen - 8u, t) < 0)
				return -1;
			q += tlen;
			qn -= tlen;
		}
		last = p[0] == 0;       /* no next proposal */
		p += plen;
		n -= plen;
		if (last)
			break;
	}
	return 0;
}

static void hexify(char *out, const uint8_t *p, uint32_t n)
{
	static const char hx[] = "0123456789abcdef";

	for (uint32_t i = 0; i < n; i++) {
		out[2 * i] = hx[p[i] >> 4];
		out[2 * i + 1] = hx[p[i] & 15];
	}
	out[2 * n] = '\0';
}

static void v1_payloads(IkeMsg *m, const uint8_t *p, uint32_t n)
{
	uint8_t type = m->next_payload;

	if (m->encrypted) {
		/* the chain is ciphertext: its first type is all there is */
		add_ptype(m, type, 1);
		return;
	}
	while (type != 0) {
		uint16_t plen;
		const uint8_t *body;
		uint32_t blen;

		if (n < 4) {
			EV(m, IKE_EV_MALFORMED_DATA);
			return;
		}
		plen = rd16(p + 2);
		if (plen < 4 || plen > n) {
			EV(m, IKE_EV_MALFORMED_DATA);
			return;
		}
		add_ptype(m, type, 1);
		body = p + 4;
		blen = plen - 4u;
		switch (type) {
		case 1: /* SA */
			if (v1_sa(m, body, blen) < 0)
				EV(m, IKE_EV_INVALID_PROPOSAL);
			break;
		case 4: /* KE */
			if (!m->has_ke && (m->ke = copy_data(body, blen, &m->ke_len)))
				m->has_ke = 1;
			break;
		case 10: /* Nonce */
			if (!m->has_nonce && (m->nonce = copy_data(body, blen, &m->nonce_len)))
				m->has_nonce = 1;
			break;
		case 13: /* VID */
			if (m->nvendors < IKE_MAX_VENDORS && blen <= 256) {
				char *h = malloc(2 * blen + 1);

				if (h) {
					hexify(h, body, blen);
					m->vendors[m->nvendors++] = h;
				}
			}
			break;
		}
		type = p[0];
		p += plen;
		n -= plen;
	}
	if (n)
		EV(m, IKE_EV_PAYLOAD_EXTRA_DATA);
}

static int v2_enc_weak(uint16_t id)
{
	return id >= 1 && id <= 9;
}

static int v2_enc_aead(uint16_t id)
{
	return (id >= 14 && id <= 16) || (id >= 18 && id <= 21) || (id >= 25 && id <= 28);
}

/* v2 SA payload: each proposal's transforms; checked for weak choices as
 * Suricata's events name them; the first proposal's algorithms kept */
static void v2_sa(IkeMsg *m, const uint8_t *p, uint32_t n)
{
	unsigned nprop = 0;

	m->has_sa = 1;
	while (n >= 8) {
		uint16_t plen = rd16(p + 2);
		uint8_t proto = p[5], spi_size = p[6], ntr = p[7];
		const uint8_t *q;
		uint32_t qn;
		int has[6] = { 0 }, aead = 0, last;

		if (plen < 8u + spi_size || plen > n) {
			EV(m, IKE_EV_INVALID_PROPOSAL);
			return;
		}
		q = p + 8 + spi_size;
		qn = plen - 8u - spi_size;
		for (unsigned i = 0; i < ntr; i++) {
			uint16_t tlen, id;
			uint8_t tt;

			if (qn < 8 || (tlen = rd16(q + 2)) < 8 || tlen > qn) {
				EV(m, IKE_EV_INVALID_PROPOSAL);
				return;
			}
			tt = q[4];
			id = rd16(q + 6);
			if (tt < IKE2_TT_ENCR || tt > IKE2_TT_ESN) {
				EV(m, IKE_EV_UNKNOWN_PROPOSAL);
			} else {
				has[tt] = 1;
				if (nprop == 0 && !m->has_alg[tt]) {
					m->has_alg[tt] = 1;
					m->alg[tt] = id;
				}
			}
			switch (tt) {
			case IKE2_TT_ENCR:
				if (id == 11)
					EV(m, IKE_EV_NO_ENCRYPTION);
				else if (v2_enc_weak(id))
					EV(m, IKE_EV_WEAK_CRYPTO_ENC);
				aead |= v2_enc_aead(id);
				break;
			case IKE2_TT_PRF:
				if (id == 1 || id == 2)
					EV(m, IKE_EV_WEAK_CRYPTO_PRF);
				break;
			case IKE2_TT_INTEG:
				if (id >= 1 && id <= 5)
					EV(m, IKE_EV_WEAK_CRYPTO_AUTH);
				break;
			case IKE2_TT_DH:
				if (id == 1 || id == 2 || id == 5 || id == 22)
					EV(m, IKE_EV_WEAK_CRYPTO_DH);
				break;
			}
			q += tlen;
			qn -= tlen;
		}
		/* an IKE SA proposal needs a group, and integrity unless its
		 * cipher is an AEAD one */
		if (proto == 1 && !has[IKE2_TT_DH])
			EV(m, IKE_EV_WEAK_CRYPTO_NO_DH);
		if (proto == 1 && !has[IKE2_TT_INTEG] && !aead)
			EV(m, IKE_EV_WEAK_CRYPTO_NO_AUTH);
		nprop++;
		last = p[0] == 0;
		p += plen;
		n -= plen;
		if (last)
			break;
	}
	/* a responder chooses one proposal */
	if (nprop > 1 && (m->flags & 0x20))
		EV(m, IKE_EV_MULTIPLE_SERVER_PROPOSAL);
}

static void v2_payloads(IkeMsg *m, const uint8_t *p, uint32_t n)
{
	uint8_t type = m->next_payload;

	add_ptype(m, type, 0);
	while (type != 0) {
		uint16_t plen;
		const uint8_t *body;
		uint32_t blen;
		uint8_t cur = type;

		if (n < 4) {
			EV(m, IKE_EV_MALFORMED_DATA);
			return;
		}
		plen = rd16(p + 2);
		if (plen < 4 || plen > n) {
			EV(m, IKE_EV_MALFORMED_DATA);
			return;
		}
		body = p + 4;
		blen = plen - 4u;
		switch (cur) {
		case 33:
			v2_sa(m, body, blen);
			break;
		case 34: /* KE: group, reserved, data */
			if (blen >= 4 && !m->has_ke &&
			    (m->ke = copy_data(body + 4, blen - 4, &m->ke_len)))
				m->has_ke = 1;
			break;
		case 40:
			if (!m->has_nonce && (m->nonce = copy_data(body, blen, &m->nonce_len)))
				m->has_nonce = 1;
			break;
		case 41: /* Notify: protocol, SPI size, type */
			if (blen >= 4) {
				uint16_t nt = rd16(body + 2);

				if (m->nnotify < IKE_MAX_NOTIFY)
					m->notify[m->nnotify++] = nt;
				if (nt < 16384)
					m->errors++;
			}
			break;
		}
		type = p[0];
		add_ptype(m, type, 0);
		p += plen;
		n -= plen;
		/* an encrypted payload (SK) is the last one that can be read:
		 * its next type names the first payload inside it */
		if (cur == 46)
			return;
	}
	if (n)
		EV(m, IKE_EV_PAYLOAD_EXTRA_DATA);
}

int ike_msg_decode(const uint8_t *buf, uint32_t len, IkeMsg *m)
{
	uint32_t mlen;

	memset(m, 0, sizeof(*m));
	if (!ike_header_ok(buf, len))
		return -1;
	memcpy(m->init_spi, buf, 8);
	memcpy(m->resp_spi, buf + 8, 8);
	hexify(m->init_hex, m->init_spi, 8);
	hexify(m->resp_hex, m->resp_spi, 8);
	m->next_payload = buf[16];
	m->version_major = buf[17] >> 4;
	m->version_minor = buf[17] & 0x0f;
	m->exchange_type = buf[18];
	m->flags = buf[19];
	m->message_id = rd32(buf + 20);
	mlen = rd32(buf + 24);
	m->length = mlen;
	if (m->version_major == 1) {
		m->encrypted = m->flags & 1;
		v1_payloads(m, buf + IKE_HDR_LEN, mlen - IKE_HDR_LEN);
	} else {
		v2_payloads(m, buf + IKE_HDR_LEN, mlen - IKE_HDR_LEN);
	}
	if (mlen < len)
		EV(m, IKE_EV_PAYLOAD_EXTRA_DATA);
	return 0;
}

void ike_msg_free(IkeMsg *m)
{
	free(m->transforms);
	for (unsigned i = 0; i < m->nvendors; i++)
		free(m->vendors[i]);
	free(m->ke);
	free(m->nonce);
	memset(m, 0, sizeof(*m));
}

/* ---------------- the exchange ---------------- */

static void keep(uint8_t **dst, uint32_t *dlen, const uint8_t *src, uint32_t n)
{
	uint8_t *d = malloc(n ? n : 1);

	if (!d)
		return;
	memcpy(d, src, n);
	free(*dst);
	*dst = d;
	*dlen = n;
}

void ike_exchange_update(IkeExchange *x, const IkeMsg *m, int dir)
{
	IkeSide *s = dir == 0 ? &x->client : &x->server;

	if (m->has_doi && !x->has_doi) {
		x->has_doi = 1;
		x->doi = m->doi;
	}
	if (m->has_ke)
		keep(&s->ke, &s->ke_len, m->ke, m->ke_len);
	if (m->has_nonce)
		keep(&s->nonce, &s->nonce_len, m->nonce, m->nonce_len);
	if (m->version_major == 1 && dir == 1 && m->ntransforms && !x->has_chosen) {
		x->has_chosen = 1;
		x->chosen = m->transforms[0];
	}
	if (m->version_major == 2 && (m->flags & 0x20) && m->has_sa) {
		for (int t = IKE2_TT_ENCR; t <= IKE2_TT_ESN; t++) {
			x->has_alg[t] = m->has_alg[t];
			x->alg[t] = m->alg[t];
		}
	}
}

void ike_exchange_free(IkeExchange *x)
{
	free(x->client.ke);
	free(x->client.nonce);
	free(x->server.ke);
	free(x->server.nonce);
	memset(x, 0, sizeof(*x));
}
