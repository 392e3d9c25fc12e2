/* Kerberos 5 keywords, as Suricata 8 documents them (rules/kerberos-
 * keywords): krb5_msg_type (a number, or in 9.0's form a name such as
 * AS_REQ, with ! and comparisons), krb5_err_code (an error's code),
 * krb5.weak_encryption (a reply whose enc-part etype is weak) and
 * krb5.ticket_encryption (a reply's ticket etype: "weak", or a list of
 * etypes, each name or number, "!" for one that must not be), and the
 * sticky buffers krb5_cname / krb5.cname and krb5_sname / krb5.sname (one
 * entry per name component, read on replies and errors, as Suricata
 * registers them to the client). */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/buffers.h"
#include "app-layer/krb5.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NEEDS "a krb5, tcp, udp or ip"

static int kw_krb5_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	return sig_app_sticky(st, kw, ALPROTO_KRB5, 1, NEEDS);
}

int krb5_buffer_get(const DetectBuffer *b, void *txp, int side, uint32_t idx,
		    const uint8_t **data, uint32_t *len)
{
	const Krb5Tx *tx = txp;
	const Krb5Name *n;

	if (!tx->valid)
		return -1;
	n = b->pbuf[side & 1] == KRB5_KW_BUF_CNAME ? &tx->m.cname : &tx->m.sname;
	if (idx >= n->n)
		return -1;
	*data = (const uint8_t *)n->comp[idx];
	*len = n->len[idx];
	return 0;
}

/* ---- the properties ---- */

enum krb5_kind { KK_MSG_TYPE, KK_ERR_CODE, KK_WEAK, KK_TICKET_ENC };

#define KRB5_MAX_ETYPES 16

typedef struct DetectKrb5 {
	int kind;
	DetectUint u;
	int weak;                   /* KK_TICKET_ENC: 1 weak, -1 not weak, 0 the list */
	unsigned n;
	int64_t etype[KRB5_MAX_ETYPES];
	uint8_t neg[KRB5_MAX_ETYPES];
} DetectKrb5;

/* krb5_msg_type: a name, with ! in front, as the number it stands for */
static int parse_msg_type(const char *arg, DetectUint *u)
{
	const char *s = arg;
	int neg = 0;
	int64_t v;

	while (*s == ' ')
		s++;
	if (*s == '!') {
		neg = 1;
		s++;
	}
	if ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')) {
		char name[32];
		size_t n = strlen(s);

		while (n && s[n - 1] == ' ')
			n--;
		if (n >= sizeof(name))
			return -1;
		memcpy(name, s, n);
		name[n] = '\0';
		if ((v = krb5_msg_by_name(name)) < 0)
			return -1;
		u->mode = neg ? UM_NE : UM_EQ;
		u->a = (uint64_t)v;
		return 0;
	}
	return parse_uint_cmp(arg, UINT32_MAX, u);
}

static int parse_ticket_enc(const char *arg, DetectKrb5 *d)
{
	char buf[512], *parts[KRB5_MAX_ETYPES];
	int n;

	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	n = split_commas(buf, parts, KRB5_MAX_ETYPES);
	if (n < 1 || n > KRB5_MAX_ETYPES)
		return -1;
	for (int i = 0; i < n; i++) {
		char *p = str_trim(parts[i]);
		int neg = *p == '!';
		int64_t e;

		if (neg)
			p = str_trim(p + 1);
		if (strcasecmp(p, "weak") == 0) {
			if (n != 1)
				return -1;
			d->weak = neg ? -1 : 1;
			return 0;
		}
		if ((e = krb5_etype_by_name(p)) == INT64_MIN)
			return -1;
		d->etype[d->n] = e;
		d->neg[d->n++] = (uint8_t)neg;
	}
	return 0;
}

static int kw_krb5_match(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectKrb5 *d = calloc(1, sizeof(*d));
	int r = 0;

	if (!d)
		return sig_error(st, "out of memory");
	d->kind = kw->buf;
	switch (d->kind) {
	case KK_MSG_TYPE:
		r = parse_msg_type(arg ? arg : "", &d->u);
		break;
	case KK_ERR_CODE:
		r = parse_uint_cmp(arg ? arg : "", INT32_MAX, &d->u);
		break;
	case KK_TICKET_ENC:
		r = parse_ticket_enc(arg ? arg : "", d);
		break;
	}
	if (r < 0) {
		free(d);
		return sig_error(st, "invalid %s \"%s\"", kw->name, arg ? arg : "");
	}
	if (sig_set_alproto_for(st, kw->name, ALPROTO_KRB5, 1, NEEDS)) {
		free(d);
		return -1;
	}
	st->s->flags |= SIG_FLAG_TX_MATCH;
	return sm_append(st, SM_LIST_MATCH, KW_KRB5_MATCH, d) < 0 ? -1 : 0;
}

static int ticket_enc_match(const DetectKrb5 *d, int64_t e)
{
	int pos = 0;

	if (e == -1)
		return 0;
	if (d->weak)
		return krb5_etype_weak(e) == (d->weak > 0);
	for (unsigned i = 0; i < d->n; i++) {
		if (!d->neg[i]) {
			pos = 1;
			if (d->etype[i] == e)
				return 1;
		} else if (d->etype[i] == e) {
			return 0;
		}
	}
	/* only exclusions: any other etype */
	return !pos;
}

static int match_krb5(const DetectTx *tc, const SigMatch *sm, Packet *p)
{
	const DetectKrb5 *d = sm->ctx;
	const Krb5Tx *tx = tc->tx;

	if (!tx || !tx->valid || !p->flow || p->flow->app_proto != ALPROTO_KRB5)
		return 0;
	switch (d->kind) {
	case KK_MSG_TYPE:
		return detect_uint_match(&d->u, (uint64_t)tx->m.msg_type);
	case KK_ERR_CODE:
		return tx->m.msg_type == KRB5_ERROR &&
		       detect_uint_match(&d->u, (uint64_t)tx->m.error_code);
	case KK_WEAK:
		return krb5_etype_weak(tx->m.etype);
	case KK_TICKET_ENC:
		return ticket_enc_match(d, tx->m.ticket_etype);
	}
	return 0;
}

#define KRB5B(n_, b_) { .name = n_, .id = KW_KRB5_STICKY, .setup = kw_krb5_sticky, \
	.flags = STICKY, .buf = b_, .desc = "sticky buffer" }

const Keyword krb5_keywords[] = {
	KRB5B("krb5_cname", BUF_KRB5_CNAME),
	KRB5B("krb5.cname", BUF_KRB5_CNAME),
	KRB5B("krb5_sname", BUF_KRB5_SNAME),
	KRB5B("krb5.sname", BUF_KRB5_SNAME),
	{ .name = "krb5_msg_type", .id = KW_KRB5_MATCH, .setup = kw_krb5_match,
	  .flags = NEED | SQ | KWF_TX, .buf = KK_MSG_TYPE, .desc = "kerberos message type",
	  .tx_match = match_krb5 },
	{ .name = "krb5_err_code", .id = KW_KRB5_MATCH, .setup = kw_krb5_match,
	  .flags = NEED | SQ | KWF_TX, .buf = KK_ERR_CODE, .desc = "kerberos error code",
	  .tx_match = match_krb5 },
	{ .name = "krb5.weak_encryption", .id = KW_KRB5_MATCH, .setup = kw_krb5_match,
	  .flags = NA | KWF_TX, .buf = KK_WEAK, .desc = "kerberos reply with a weak etype",
	  .tx_match = match_krb5 },
	{ .name = "krb5.ticket_encryption", .id = KW_KRB5_MATCH, .setup = kw_krb5_match,
	  .flags = NEED | SQ | KWF_TX, .buf = KK_TICKET_ENC,
	  .desc = "kerberos ticket etype (weak, or a list)", .tx_match = match_krb5 },
	{ .name = NULL }
};
