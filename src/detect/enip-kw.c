/* EtherNet/IP and CIP keywords, as Suricata 8 documents them
 * (rules/enip-keyword): enip_command (enip.command), cip_service (service
 * [, class [, attribute]]), enip.status, the identity and list-services
 * integers, the CIP path integers (any of a PDU's, Multiple Service
 * Packet's embedded services included), and the sticky buffers
 * enip.product_name and enip.service_name. A rule is evaluated on each
 * side of a transaction and reads that side's PDU: a response's header
 * matches enip_command as its request's does. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/buffers.h"
#include "app-layer/enip.h"

#include <stdlib.h>
#include <string.h>

#define NEEDS "an enip, tcp, udp or ip"

static int kw_enip_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	return sig_app_sticky(st, kw, ALPROTO_ENIP, 1, NEEDS);
}

/* the PDU of the side being evaluated, or NULL */
static const EnipPdu *side_pdu(const EnipTx *tx, int side)
{
	side &= 1;
	return tx->has[side] ? &tx->pdu[side] : NULL;
}

int enip_buffer_get(const DetectBuffer *b, void *txp, int side, uint32_t idx,
		    const uint8_t **data, uint32_t *len)
{
	const EnipPdu *p = side_pdu(txp, APP_DIR_TOCLIENT);

	(void)side;
	if (!p || idx)
		return -1;
	switch (b->pbuf[side & 1]) {
	case ENIP_KW_BUF_PRODUCT_NAME:
		if (!p->has_identity)
			return -1;
		*data = (const uint8_t *)p->id.name;
		*len = p->id.name_len;
		return 0;
	case ENIP_KW_BUF_SERVICE_NAME:
		if (!p->has_service)
			return -1;
		*data = (const uint8_t *)p->service_name;
		*len = p->service_name_len;
		return 0;
	}
	return -1;
}

enum ek {
	EK_COMMAND, EK_STATUS, EK_PROTOCOL_VERSION, EK_CIP_ATTRIBUTE, EK_CIP_CLASS,
	EK_CIP_INSTANCE, EK_CIP_STATUS, EK_CIP_EXTSTATUS, EK_REVISION, EK_IDENTITY_STATUS,
	EK_STATE, EK_SERIAL, EK_PRODUCT_CODE, EK_DEVICE_TYPE, EK_VENDOR_ID, EK_CAPABILITIES,
};

static const uint64_t ek_max[] = {
	[EK_COMMAND] = UINT16_MAX, [EK_STATUS] = UINT32_MAX,
	[EK_PROTOCOL_VERSION] = UINT16_MAX, [EK_CIP_ATTRIBUTE] = UINT32_MAX,
	[EK_CIP_CLASS] = UINT32_MAX, [EK_CIP_INSTANCE] = UINT32_MAX,
	[EK_CIP_STATUS] = UINT8_MAX, [EK_CIP_EXTSTATUS] = UINT16_MAX,
	[EK_REVISION] = UINT16_MAX, [EK_IDENTITY_STATUS] = UINT16_MAX,
	[EK_STATE] = UINT8_MAX, [EK_SERIAL] = UINT32_MAX, [EK_PRODUCT_CODE] = UINT16_MAX,
	[EK_DEVICE_TYPE] = UINT16_MAX, [EK_VENDOR_ID] = UINT16_MAX,
	[EK_CAPABILITIES] = UINT16_MAX,
};

typedef struct DetectEnip {
	int kind;
	DetectUint u;
} DetectEnip;

static int kw_enip_match(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectEnip *d = calloc(1, sizeof(*d));
	char *v;

	if (!d)
		return sig_error(st, "out of memory");
	d->kind = kw->buf;
	v = str_trim_dup(arg ? arg : "", 1);
	if (!v || parse_uint_cmp(v, ek_max[d->kind], &d->u) < 0) {
		/* enip_command and enip.status also take their names */
		int64_t n = -1;

		if (v && d->kind == EK_COMMAND)
			n = enip_cmd_by_name(v);
		else if (v && d->kind == EK_STATUS)
			n = enip_status_by_name(v);
		if (n < 0) {
			free(v);
			free(d);
			return sig_error(st, "invalid %s \"%s\"", kw->name, arg ? arg : "");
		}
		d->u.mode = UM_EQ;
		d->u.a = (uint64_t)n;
	}
	free(v);
	if (sig_set_alproto_for(st, kw->name, ALPROTO_ENIP, 1, NEEDS)) {
		free(d);
		return -1;
	}
	st->s->flags |= SIG_FLAG_TX_MATCH;
	return sm_append(st, SM_LIST_MATCH, KW_ENIP_MATCH, d) < 0 ? -1 : 0;
}

/* any segment of type t of any service of p */
static int seg_match(const EnipPdu *p, unsigned t, const DetectUint *u)
{
	for (unsigned i = 0; i < p->ncip; i++) {
		const EnipCip *c = &p->cip[i];

		for (unsigned k = 0; k < c->nseg; k++)
			if (c->seg[k].type == t && detect_uint_match(u, c->seg[k].value))
				return 1;
		if (t == ENIP_SEG_ATTRIBUTE)
			for (unsigned k = 0; k < c->nattr; k++)
				if (detect_uint_match(u, c->attr[k]))
					return 1;
	}
	return 0;
}

static int cip_status_match(const EnipPdu *p, int ext, const DetectUint *u)
{
	for (unsigned i = 0; i < p->ncip; i++) {
		const EnipCip *c = &p->cip[i];

		if (!(c->service & 0x80))
			continue;
		if (ext ? c->has_ext && detect_uint_match(u, c->ext_status)
			: detect_uint_match(u, c->status))
			return 1;
	}
	return 0;
}

static int match_enip(const DetectTx *tc, const SigMatch *sm, Packet *p)
{
	const DetectEnip *d = sm->ctx;
	const EnipPdu *e;
	const EnipIdentity *id;

	if (!tc->tx || !p->flow || p->flow->app_proto != ALPROTO_ENIP)
		return 0;
	e = side_pdu(tc->tx, tc->side);
	if (!e)
		return 0;
	id = e->has_identity ? &e->id : NULL;
	switch (d->kind) {
	case EK_COMMAND:
		return detect_uint_match(&d->u, e->command);
	case EK_STATUS:
		return detect_uint_match(&d->u, e->status);
	case EK_PROTOCOL_VERSION:
		return (id && detect_uint_match(&d->u, id->protocol_version)) ||
		       (e->has_service && detect_uint_match(&d->u, e->svc_version)) ||
		       (e->has_register && detect_uint_match(&d->u, e->reg_version));
	case EK_CIP_ATTRIBUTE:
		return seg_match(e, ENIP_SEG_ATTRIBUTE, &d->u);
	case EK_CIP_CLASS:
		return seg_match(e, ENIP_SEG_CLASS, &d->u);
	case EK_CIP_INSTANCE:
		return seg_match(e, ENIP_SEG_INSTANCE, &d->u);
	case EK_CIP_STATUS:
		return cip_status_match(e, 0, &d->u);
	case EK_CIP_EXTSTATUS:
		return cip_status_match(e, 1, &d->u);
	case EK_CAPABILITIES:
		return e->has_service && detect_uint_match(&d->u, e->capabilities);
	}
	if (!id)
		return 0;
	switch (d->kind) {
	case EK_REVISION:
		return detect_uint_match(&d->u, (uint64_t)id->rev_major << 8 | id->rev_minor);
	case EK_IDENTITY_STATUS:
		return detect_uint_match(&d->u, id->status);
	case EK_STATE:
		return detect_uint_match(&d->u, id->state);
	case EK_SERIAL:
		return detect_uint_match(&d->u, id->serial);
	case EK_PRODUCT_CODE:
		return detect_uint_match(&d->u, id->product_code);
	case EK_DEVICE_TYPE:
		return detect_uint_match(&d->u, id->device_type);
	case EK_VENDOR_ID:
		return detect_uint_match(&d->u, id->vendor_id);
	}
	return 0;
}

/* cip_service: service[,class[,attribute]], each a plain number; a
 * response's service matches without its response bit. */
typedef struct DetectCipService {
	uint8_t service;
	uint8_t n;                  /* values given: 1..3 */
	uint32_t cls, attr;
} DetectCipService;

static int kw_cip_service(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectCipService *d = calloc(1, sizeof(*d));
	char *v = str_trim_dup(arg ? arg : "", 1);
	char *save = NULL, *tok;
	uint64_t vals[3];
	unsigned n = 0;

	if (!d || !v) {
		free(d);
		free(v);
		return sig_error(st, "out of memory");
	}
	for (tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == 3 || parse_u64(tok, &vals[n]) < 0 || vals[n] > UINT32_MAX ||
		    (n == 0 && vals[0] > UINT8_MAX)) {
			free(v);
			free(d);
			return sig_error(st, "invalid %s \"%s\"", kw->name, arg ? arg : "");
		}
		n++;
	}
	free(v);
	if (!n) {
		free(d);
		return sig_error(st, "invalid %s \"%s\"", kw->name, arg ? arg : "");
	}
	d->n = (uint8_t)n;
	d->service = (uint8_t)vals[0];
	d->cls = n > 1 ? (uint32_t)vals[1] : 0;
	d->attr = n > 2 ? (uint32_t)vals[2] : 0;
	if (sig_set_alproto_for(st, kw->name, ALPROTO_ENIP, 1, NEEDS)) {
		free(d);
		return -1;
	}
	st->s->flags |= SIG_FLAG_TX_MATCH;
	return sm_append(st, SM_LIST_MATCH, KW_ENIP_CIP_SERVICE, d) < 0 ? -1 : 0;
}

static int cip_one(const EnipCip *c, const DetectCipService *d)
{
	int cls_ok = 0, attr_ok = 0;

	if ((c->service & 0x7f) != d->service)
		return 0;
	if (d->n == 1)
		return 1;
	for (unsigned k = 0; k < c->nseg; k++) {
		if (c->seg[k].type == ENIP_SEG_CLASS && c->seg[k].value == d->cls)
			cls_ok = 1;
		if (c->seg[k].type == ENIP_SEG_ATTRIBUTE && c->seg[k].value == d->attr)
			attr_ok = 1;
	}
	for (unsigned k = 0; k < c->nattr; k++)
		if (c->attr[k] == d->attr)
			attr_ok = 1;
	return cls_ok && (d->n == 2 || attr_ok);
}

static int match_cip_service(const DetectTx *tc, const SigMatch *sm, Packet *p)
{
	const DetectCipService *d = sm->ctx;
	const EnipPdu *e;

	if (!tc->tx || !p->flow || p->flow->app_proto != ALPROTO_ENIP)
		return 0;
	e = side_pdu(tc->tx, tc->side);
	if (!e)
		return 0;
	for (unsigned i = 0; i < e->ncip; i++)
		if (cip_one(&e->cip[i], d))
			return 1;
	return 0;
}

#define EB(n_, b_) { .name = n_, .id = KW_ENIP_STICKY, .setup = kw_enip_sticky, \
	.flags = STICKY, .buf = b_, .desc = "sticky buffer" }
#define EM(n_, k_, d_) { .name = n_, .id = KW_ENIP_MATCH, .setup = kw_enip_match, \
	.flags = NEED | SQ | KWF_TX, .buf = k_, .desc = d_, .tx_match = match_enip }

const Keyword enip_keywords[] = {
	EB("enip.product_name", BUF_ENIP_PRODUCT_NAME),
	EB("enip.service_name", BUF_ENIP_SERVICE_NAME),
	EM("enip_command", EK_COMMAND, "enip encapsulation command"),
	EM("enip.command", EK_COMMAND, "enip encapsulation command"),
	EM("enip.status", EK_STATUS, "enip encapsulation status"),
	EM("enip.protocol_version", EK_PROTOCOL_VERSION, "enip protocol version"),
	EM("enip.cip_attribute", EK_CIP_ATTRIBUTE, "a cip attribute of the request"),
	EM("enip.cip_class", EK_CIP_CLASS, "a cip class of the request path"),
	EM("enip.cip_instance", EK_CIP_INSTANCE, "a cip instance of the request path"),
	EM("enip.cip_status", EK_CIP_STATUS, "a cip general status"),
	EM("enip.cip_extendedstatus", EK_CIP_EXTSTATUS, "a cip extended status"),
	EM("enip.revision", EK_REVISION, "identity revision (major << 8 | minor)"),
	EM("enip.identity_status", EK_IDENTITY_STATUS, "identity status"),
	EM("enip.state", EK_STATE, "identity state"),
	EM("enip.serial", EK_SERIAL, "identity serial number"),
	EM("enip.product_code", EK_PRODUCT_CODE, "identity product code"),
	EM("enip.device_type", EK_DEVICE_TYPE, "identity device type"),
	EM("enip.vendor_id", EK_VENDOR_ID, "identity vendor id"),
	EM("enip.capabilities", EK_CAPABILITIES, "list services capabilities"),
	{ .name = "cip_service", .id = KW_ENIP_CIP_SERVICE, .setup = kw_cip_service,
	  .flags = NEED | SQ | KWF_TX, .buf = -1, .desc = "cip service[,class[,attribute]]",
	  .tx_match = match_cip_service },
	{ .name = NULL }
};
