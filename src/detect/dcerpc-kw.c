/* DCERPC keywords, as Suricata 8 documents them (rules/dcerpc-keywords):
 * dcerpc.iface (dce_iface): the interface a request's context is bound
 * to, accepted by the server, with an optional comparison on its major
 * version and any_frag; dcerpc.opnum (dce_opnum): the request's operation
 * number against a list of numbers, ranges and comparisons; and the
 * sticky buffer dcerpc.stub_data (dce_stub_data): the request's stub data
 * to the server, the response's to the client, fragments joined.
 *
 * The matchers read a struct dcerpc_tx (app-layer/dcerpc-parse.h) through
 * dce_view(): a dcerpc flow's transaction, or the DCE/RPC call an SMB
 * transaction carried on a named pipe (an smb rule with these keywords;
 * SMB keeps its own dcerpc.stub_data buffer entry, a buffer being one
 * protocol's). */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/buffers.h"
#include "detect/dcerpc-kw.h"
#include "app-layer/dcerpc.h"
#include "app-layer/smb.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The transaction as DCE/RPC, whatever protocol carries it; NULL: none. */
static const struct dcerpc_tx *dce_view(const Flow *f, void *tx)
{
	if (!f || !tx)
		return NULL;
	if (f->app_proto == ALPROTO_DCERPC)
		return dcerpc_flow_tx(tx);
	if (f->app_proto == ALPROTO_SMB)
		return smb_tx(tx)->dce;
	return NULL;
}

/* Rules with a dcerpc keyword are dcerpc rules (tcp, udp or ip), or smb
 * rules that look at the calls on named pipes. */
static int sig_set_alproto_dcerpc(SigParseState *st, const char *kwname)
{
	Signature *s = st->s;

	if (s->alproto == ALPROTO_SMB) {
		s->flags |= SIG_FLAG_APPLAYER;
		return 0;
	}
	return sig_set_alproto_for(st, kwname, ALPROTO_DCERPC, 1, "a dcerpc, tcp, udp or ip");
}

/* The rule becomes a dcerpc one matching on transactions, with d (freed on
 * error) as keyword kwid's match. */
static int dce_append(SigParseState *st, const Keyword *kw, int kwid, void *d)
{
	if (sig_set_alproto_dcerpc(st, kw->name)) {
		free(d);
		return -1;
	}
	st->s->flags |= SIG_FLAG_TX_MATCH;
	return sm_append(st, SM_LIST_MATCH, kwid, d) < 0 ? -1 : 0;
}

static int kw_dce_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	if (sig_set_alproto_dcerpc(st, kw->name))
		return -1;
	return sig_select_buffer(st, st->s->alproto == ALPROTO_SMB ? BUF_SMB_DCERPC_STUB_DATA
								   : kw->buf);
}

int dcerpc_tx_buffer_get(const struct dcerpc_tx *t, int side, uint32_t idx,
			 const uint8_t **data, uint32_t *len)
{
	const struct dcerpc_buf *b;

	if (!t || idx)
		return -1;
	b = &t->stub[side & 1];
	if (!b->len)
		return -1;
	*data = b->data;
	*len = b->len;
	return 0;
}

int dcerpc_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		      const uint8_t **data, uint32_t *len)
{
	(void)b;
	return dcerpc_tx_buffer_get(dcerpc_flow_tx(tx), side, idx, data, len);
}

int smb_dcerpc_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
			  const uint8_t **data, uint32_t *len)
{
	(void)b;
	return dcerpc_tx_buffer_get(smb_tx(tx)->dce, side, idx, data, len);
}

/* ---- dcerpc.iface ---- */

typedef struct DetectDceIface {
	uint8_t uuid[16];
	char op;                    /* 0 any version, '<', '>', '=', '!' */
	uint16_t ver;
	uint8_t any_frag;
} DetectDceIface;

static int parse_iface(const char *arg, DetectDceIface *d)
{
	char *v = str_trim_dup(arg ? arg : "", 1), *parts[4];
	int n, rc = -1;

	if (!v)
		return -1;
	n = split_commas(v, parts, 4);
	if (n < 1 || n > 3 || dcerpc_uuid_parse(str_trim(parts[0]), d->uuid) < 0)
		goto out;
	for (int i = 1; i < n; i++) {
		char *p = str_trim(parts[i]);
		uint64_t x;

		if (strcmp(p, "any_frag") == 0) {
			if (d->any_frag)
				goto out;
			d->any_frag = 1;
			continue;
		}
		/* the version comes before any_frag, once */
		if (i != 1 || !strchr("<>=!", *p) || !p[1] || strlen(p + 1) > 5 ||
		    parse_u64(p + 1, &x) < 0 || x > 65535)
			goto out;
		d->op = *p;
		d->ver = (uint16_t)x;
	}
	rc = 0;
out:
	free(v);
	return rc;
}

static int kw_dce_iface(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectDceIface *d = calloc(1, sizeof(*d));

	if (!d)
		return sig_error(st, "out of memory");
	if (parse_iface(arg, d) < 0) {
		free(d);
		return sig_error(st, "invalid %s \"%s\" (uuid[,<|>|=|!version][,any_frag])",
				 kw->name, arg ? arg : "");
	}
	return dce_append(st, kw, KW_DCERPC_IFACE, d);
}

/* Suricata's: the request's context must be bound to the uuid and
 * accepted (ack_result 0); without any_frag only a call that began with a
 * first fragment matches; the version compares the major version. */
int dcerpc_iface_match(const struct dcerpc_tx *t, const void *ctx)
{
	const DetectDceIface *d = ctx;
	const struct dcerpc_iface *f;

	if (!t || t->req_type != DCERPC_REQUEST || !t->has_iface)
		return 0;
	f = &t->iface;
	if (!f->acked || f->ack_result != 0)
		return 0;
	if (!d->any_frag && !t->first_frag)
		return 0;
	if (memcmp(f->uuid, d->uuid, 16) != 0)
		return 0;
	switch (d->op) {
	case '<':
		return f->ver < d->ver;
	case '>':
		return f->ver > d->ver;
	case '=':
		return f->ver == d->ver;
	case '!':
		return f->ver != d->ver;
	}
	return 1;
}

static int match_dce_iface(const DetectTx *tc, const SigMatch *m, Packet *p)
{
	return dcerpc_iface_match(dce_view(p->flow, tc->tx), m->ctx);
}

/* ---- dcerpc.opnum ---- */

#define DCE_OPNUM_MAX 64

typedef struct DetectDceOpnum {
	unsigned n;
	DetectUint r[DCE_OPNUM_MAX]; /* UM_EQ, a closed range as UM_RANGE
	                              * (exclusive bounds, a - 1 .. b + 1), or
	                              * a comparison */
} DetectDceOpnum;

static int parse_opnum_item(char *p, DetectUint *u)
{
	char *dash = strchr(p, '-');
	uint64_t a, b;

	p = str_trim(p);
	if (!*p)
		return -1;
	if (*p == '=')
		p = str_trim(p + 1);
	if (strchr("<>!", *p)) {
		if (parse_uint_cmp(p, 65535, u) < 0)
			return -1;
		return u->mode == UM_RANGE || u->mode == UM_NOT_RANGE ? -1 : 0;
	}
	if (dash) {
		*dash = 0;
		if (parse_u64(str_trim(p), &a) < 0 || parse_u64(str_trim(dash + 1), &b) < 0 ||
		    a > 65535 || b > 65535 || a > b)
			return -1;
		/* DetectUint ranges are exclusive (Suricata's a<>b); opnum
		 * ranges include their ends */
		u->mode = UM_RANGE;
		u->a = a;
		u->b = b;
		return 1;
	}
	if (parse_u64(p, &a) < 0 || a > 65535)
		return -1;
	u->mode = UM_EQ;
	u->a = a;
	return 0;
}

static int kw_dce_opnum(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectDceOpnum *d = calloc(1, sizeof(*d));
	char *v = str_trim_dup(arg ? arg : "", 1), *parts[DCE_OPNUM_MAX + 1];
	int n = -1;

	if (!d || !v) {
		free(d);
		free(v);
		return sig_error(st, "out of memory");
	}
	if (*v)
		n = split_commas(v, parts, DCE_OPNUM_MAX + 1);
	if (n < 1 || n > DCE_OPNUM_MAX)
		n = -1;
	for (int i = 0; i < n; i++) {
		if (parse_opnum_item(parts[i], &d->r[i]) < 0) {
			n = -1;
			break;
		}
	}
	free(v);
	if (n < 0) {
		free(d);
		return sig_error(st, "invalid %s \"%s\" (numbers, ranges a-b, comparisons, "
				 "comma separated, at most %d)", kw->name, arg ? arg : "",
				 DCE_OPNUM_MAX);
	}
	d->n = (unsigned)n;
	return dce_append(st, kw, KW_DCERPC_OPNUM, d);
}

/* The operation number of a request (a bind has none). */
int dcerpc_opnum_match(const struct dcerpc_tx *t, const void *ctx)
{
	const DetectDceOpnum *d = ctx;

	if (!t || t->req_type != DCERPC_REQUEST)
		return 0;
	for (unsigned i = 0; i < d->n; i++) {
		const DetectUint *u = &d->r[i];

		if (u->mode == UM_RANGE ? (t->opnum >= u->a && t->opnum <= u->b)
					: detect_uint_match(u, t->opnum))
			return 1;
	}
	return 0;
}

static int match_dce_opnum(const DetectTx *tc, const SigMatch *m, Packet *p)
{
	return dcerpc_opnum_match(dce_view(p->flow, tc->tx), m->ctx);
}

#define DCEB(n_) { .name = n_, .id = KW_DCERPC_STICKY, .setup = kw_dce_sticky, \
	.flags = STICKY, .buf = BUF_DCERPC_STUB_DATA, .desc = "sticky buffer: DCE/RPC stub data" }
#define DCEI(n_) { .name = n_, .id = KW_DCERPC_IFACE, .setup = kw_dce_iface, \
	.flags = NEED | KWF_TX, .buf = 0, .desc = "DCE/RPC interface uuid[,version][,any_frag]", \
	.tx_match = match_dce_iface }
#define DCEO(n_) { .name = n_, .id = KW_DCERPC_OPNUM, .setup = kw_dce_opnum, \
	.flags = NEED | KWF_TX, .buf = 0, .desc = "DCE/RPC operation numbers and ranges", \
	.tx_match = match_dce_opnum }

const Keyword dcerpc_keywords[] = {
	DCEB("dcerpc.stub_data"),
	DCEB("dce_stub_data"),
	DCEI("dcerpc.iface"),
	DCEI("dce_iface"),
	DCEO("dcerpc.opnum"),
	DCEO("dce_opnum"),
	{ .name = NULL }
};
