/* IKE keywords, as Suricata 8 documents them (rules/ike-keywords): the
 * sticky buffers ike.init_spi (the initiator's messages) and ike.resp_spi
 * (the responder's), as lowercase hex; ike.vendor (the initiator's vendor
 * ids, hex, one entry each); ike.key_exchange_payload and
 * ike.nonce_payload (the message's data, raw); the number comparisons
 * ike.exchtype, ike.key_exchange_payload_length and
 * ike.nonce_payload_length; and ike.chosen_sa_attribute:<name>=<value>,
 * an attribute of the transform a v1 responder chose. Each message is a
 * one-way transaction, read on the side it went. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/buffers.h"
#include "app-layer/ike.h"

#include <stdlib.h>
#include <string.h>

#define NEEDS "an ike, udp or ip"

static int kw_ike_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	return sig_app_sticky(st, kw, ALPROTO_IKE, 1, NEEDS);
}

int ike_buffer_get(const DetectBuffer *b, void *txp, int side, uint32_t idx,
		   const uint8_t **data, uint32_t *len)
{
	const IkeTx *tx = txp;
	const IkeMsg *m = &tx->m;

	if (!tx->valid)
		return -1;
	switch (b->pbuf[side & 1]) {
	case IKE_KW_BUF_INIT_SPI:
	case IKE_KW_BUF_RESP_SPI: {
		int resp = b->pbuf[side & 1] == IKE_KW_BUF_RESP_SPI;

		if (idx || tx->dir != resp)
			return -1;
		*data = (const uint8_t *)(resp ? m->resp_hex : m->init_hex);
		*len = 16;
		return 0;
	}
	case IKE_KW_BUF_VENDOR:
		if (tx->dir != 0 || idx >= m->nvendors)
			return -1;
		*data = (const uint8_t *)m->vendors[idx];
		*len = (uint32_t)strlen(m->vendors[idx]);
		return 0;
	case IKE_KW_BUF_KE:
		if (idx || !m->has_ke)
			return -1;
		*data = m->ke;
		*len = m->ke_len;
		return 0;
	case IKE_KW_BUF_NONCE:
		if (idx || !m->has_nonce)
			return -1;
		*data = m->nonce;
		*len = m->nonce_len;
		return 0;
	}
	return -1;
}

enum { IK_EXCHTYPE, IK_KE_LEN, IK_NONCE_LEN, IK_CHOSEN };

typedef struct DetectIke {
	int kind;
	int attr;                   /* IK_CHOSEN: the attribute type */
	DetectUint u;
} DetectIke;

static int kw_ike_match(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectIke *d = calloc(1, sizeof(*d));
	const char *v = arg ? arg : "";

	if (!d)
		return sig_error(st, "out of memory");
	d->kind = kw->buf;
	if (d->kind == IK_CHOSEN) {
		/* name=value, the value a number */
		const char *eq = strchr(v, '=');
		char name[40];
		size_t n;
		uint64_t val;

		while (*v == ' ')
			v++;
		n = eq ? (size_t)(eq - v) : 0;
		while (n && v[n - 1] == ' ')
			n--;
		if (!eq || !n || n >= sizeof(name))
			goto bad;
		memcpy(name, v, n);
		name[n] = '\0';
		if ((d->attr = ike_attr_by_name(name)) < 0 || parse_u64(eq + 1, &val) < 0 ||
		    val > UINT32_MAX)
			goto bad;
		d->u.mode = UM_EQ;
		d->u.a = val;
	} else if (parse_uint_cmp(v, d->kind == IK_EXCHTYPE ? UINT8_MAX : UINT32_MAX, &d->u) < 0) {
		goto bad;
	}
	if (sig_set_alproto_for(st, kw->name, ALPROTO_IKE, 1, NEEDS)) {
		free(d);
		return -1;
	}
	st->s->flags |= SIG_FLAG_TX_MATCH;
	return sm_append(st, SM_LIST_MATCH, KW_IKE_MATCH, d) < 0 ? -1 : 0;
bad:
	free(d);
	return sig_error(st, "invalid %s \"%s\"", kw->name, arg ? arg : "");
}

/* the responder's transform: its attribute of d's type, numeric */
static int chosen_match(const DetectIke *d, const IkeTx *tx)
{
	const IkeTransform *t;

	if (tx->m.version_major != 1 || tx->dir != 1 || !tx->m.ntransforms)
		return 0;
	t = &tx->m.transforms[0];
	for (unsigned i = 0; i < t->nattr; i++)
		if (t->attr[i].type == d->attr && t->attr[i].numeric)
			return detect_uint_match(&d->u, t->attr[i].value);
	return 0;
}

static int match_ike(const DetectTx *tc, const SigMatch *sm, Packet *p)
{
	const DetectIke *d = sm->ctx;
	const IkeTx *tx = tc->tx;

	if (!tx || !tx->valid || !p->flow || p->flow->app_proto != ALPROTO_IKE)
		return 0;
	switch (d->kind) {
	case IK_EXCHTYPE:
		return detect_uint_match(&d->u, tx->m.exchange_type);
	case IK_KE_LEN:
		return tx->m.has_ke && detect_uint_match(&d->u, tx->m.ke_len);
	case IK_NONCE_LEN:
		return tx->m.has_nonce && detect_uint_match(&d->u, tx->m.nonce_len);
	case IK_CHOSEN:
		return chosen_match(d, tx);
	}
	return 0;
}

#define IKEB(n_, b_) { .name = n_, .id = KW_IKE_STICKY, .setup = kw_ike_sticky, \
	.flags = STICKY, .buf = b_, .desc = "sticky buffer" }
#define IKEM(n_, k_, d_) { .name = n_, .id = KW_IKE_MATCH, .setup = kw_ike_match, \
	.flags = NEED | SQ | KWF_TX, .buf = k_, .desc = d_, .tx_match = match_ike }

const Keyword ike_keywords[] = {
	IKEB("ike.init_spi", BUF_IKE_INIT_SPI),
	IKEB("ike.resp_spi", BUF_IKE_RESP_SPI),
	IKEB("ike.vendor", BUF_IKE_VENDOR),
	IKEB("ike.key_exchange_payload", BUF_IKE_KE),
	IKEB("ike.nonce_payload", BUF_IKE_NONCE),
	IKEM("ike.exchtype", IK_EXCHTYPE, "ike exchange type"),
	IKEM("ike.key_exchange_payload_length", IK_KE_LEN, "ike key exchange data length"),
	IKEM("ike.nonce_payload_length", IK_NONCE_LEN, "ike nonce data length"),
	IKEM("ike.chosen_sa_attribute", IK_CHOSEN, "ike v1 chosen SA attribute"),
	{ .name = NULL }
};
