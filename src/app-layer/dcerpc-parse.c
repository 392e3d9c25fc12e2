/* DCE/RPC PDUs: connection-oriented (v5) framing and reassembly,
 * connectionless (v4) datagrams, and the transactions both make
 * (dcerpc-parse.h). Field layouts are those of DCE 1.1 RPC (C706),
 * chapter 12; the transaction model and the probe's checks follow
 * Suricata 8's dcerpc parser. */
#include "app-layer/dcerpc-parse.h"
#include "app-layer/app-mem.h"
#include "util/strnum.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const ev_names[DCERPC_EV_COUNT] = {
	[DCERPC_EV_MALFORMED_HEADER] = "malformed_header",
	[DCERPC_EV_MALFORMED_PDU] = "malformed_pdu",
	[DCERPC_EV_STUB_LIMIT] = "stub_limit",
	[DCERPC_EV_TOO_MANY_TXS] = "too_many_transactions",
	[DCERPC_EV_UNKNOWN_PTYPE] = "unknown_ptype",
};

const char *dcerpc_event_name(int ev)
{
	return ev >= 0 && ev < DCERPC_EV_COUNT ? ev_names[ev] : NULL;
}

int dcerpc_event_by_name(const char *name)
{
	for (int i = 0; name && i < DCERPC_EV_COUNT; i++)
		if (strcasecmp(name, ev_names[i]) == 0)
			return i;
	return -1;
}

static const char *const ptype_names[DCERPC_PTYPE_MAX] = {
	"REQUEST", "PING", "RESPONSE", "FAULT", "WORKING", "NOCALL", "REJECT", "ACK",
	"CL_CANCEL", "FACK", "CANCEL_ACK", "BIND", "BINDACK", "BINDNAK", "ALTER_CONTEXT",
	"ALTER_CONTEXT_RESP", "AUTH3", "SHUTDOWN", "CO_CANCEL", "ORPHANED", "RTS",
};

const char *dcerpc_ptype_name(unsigned ptype)
{
	return ptype < DCERPC_PTYPE_MAX ? ptype_names[ptype] : "UNKNOWN";
}

/* ---------------- bytes ---------------- */

static inline uint16_t rd16(const uint8_t *p, int le)
{
	return le ? (uint16_t)(p[0] | p[1] << 8) : (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t rd32(const uint8_t *p, int le)
{
	return le ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24
		  : (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* A uuid on the wire: its first three fields in the sender's byte order
 * (drep), the last eight bytes as they are. Out: text order. */
static void uuid_from_wire(const uint8_t *w, int le, uint8_t out[16])
{
	if (le) {
		out[0] = w[3], out[1] = w[2], out[2] = w[1], out[3] = w[0];
		out[4] = w[5], out[5] = w[4];
		out[6] = w[7], out[7] = w[6];
	} else {
		memcpy(out, w, 8);
	}
	memcpy(out + 8, w + 8, 8);
}

void dcerpc_uuid_str(const uint8_t u[16], char out[37])
{
	static const char hex[] = "0123456789abcdef";
	int o = 0;

	for (int i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[o++] = '-';
		out[o++] = hex[u[i] >> 4];
		out[o++] = hex[u[i] & 15];
	}
	out[o] = 0;
}

int dcerpc_uuid_parse(const char *s, uint8_t u[16])
{
	int n = 0;

	for (int i = 0; i < 36; i++) {
		int hi, lo;

		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-')
				return -1;
			continue;
		}
		hi = hex_digit(s[i]);
		lo = hi < 0 ? -1 : hex_digit(s[i + 1]);
		if (lo < 0)
			return -1;
		u[n++] = (uint8_t)(hi << 4 | lo);
		i++;
	}
	return s[36] == 0 ? 0 : -1;
}

/* ---------------- probes ---------------- */

static int co_ptype_from_client(unsigned t)
{
	return t == DCERPC_REQUEST || t == DCERPC_BIND || t == DCERPC_ALTER_CONTEXT ||
	       t == DCERPC_AUTH3 || t == DCERPC_CO_CANCEL || t == DCERPC_ORPHANED ||
	       t == DCERPC_RTS;
}

static int co_ptype_known(unsigned t)
{
	return t == DCERPC_REQUEST || t == DCERPC_RESPONSE || t == DCERPC_FAULT ||
	       (t >= DCERPC_BIND && t < DCERPC_PTYPE_MAX);
}

/* drep: byte 0 the integer (bit 4) and character (bit 0) formats, byte 1
 * the float format (0..3); the other bits are zero in every sender. */
static int drep_sane(const uint8_t *drep)
{
	return (drep[0] & 0xee) == 0 && drep[1] <= 3;
}

int dcerpc_probe_co(const uint8_t *b, size_t len, int *request)
{
	uint16_t fl, al;
	int le;

	/* the prefix decides as far as it goes: Suricata 8 wants 5.0 */
	if ((len >= 1 && b[0] != 5) || (len >= 2 && b[1] != 0) ||
	    (len >= 3 && !co_ptype_known(b[2])))
		return 0;
	if (len < DCERPC_CO_HDR_LEN)
		return -1;
	if (!drep_sane(b + 4))
		return 0;
	le = (b[4] & 0x10) != 0;
	fl = rd16(b + 8, le);
	al = rd16(b + 10, le);
	if (fl < DCERPC_CO_HDR_LEN || (al && (uint32_t)al + 8 + DCERPC_CO_HDR_LEN > fl))
		return 0;
	if (request)
		*request = co_ptype_from_client(b[2]);
	return 1;
}

int dcerpc_probe_cl(const uint8_t *b, size_t len, int *request)
{
	int le;

	if (len < DCERPC_CL_HDR_LEN || b[0] != 4 || b[1] > DCERPC_CANCEL_ACK)
		return 0;
	/* Suricata's: flags2 uses its two low bits only, a datagram opens
	 * with fragment 0, drep as in CO */
	if ((b[3] & 0xfc) || !drep_sane(b + 4))
		return 0;
	le = (b[4] & 0x10) != 0;
	if (rd16(b + 76, le) != 0)
		return 0;
	if (request)
		*request = b[1] == DCERPC_REQUEST || b[1] == DCERPC_PING ||
			   b[1] == DCERPC_ACK || b[1] == DCERPC_CL_CANCEL;
	return 1;
}

/* ---------------- state, transactions ---------------- */

void dcerpc_state_init(struct dcerpc_state *st, enum dcerpc_kind kind,
		       const struct dcerpc_limits *lim)
{
	memset(st, 0, sizeof(*st));
	st->kind = kind;
	st->lim.max_stub = lim && lim->max_stub ? lim->max_stub : DCERPC_DEFAULT_MAX_STUB;
	st->lim.max_txs = lim && lim->max_txs ? lim->max_txs : DCERPC_DEFAULT_MAX_TXS;
}

static void tx_free(struct dcerpc_state *st, struct dcerpc_tx *tx)
{
	for (int d = 0; d < 2; d++) {
		st->stub_bytes -= tx->stub[d].cap;
		app_mem_free(ALPROTO_DCERPC, tx->stub[d].data);
	}
	app_mem_free(ALPROTO_DCERPC, tx->ifaces);
	app_mem_free(ALPROTO_DCERPC, tx);
}

void dcerpc_state_free(struct dcerpc_state *st)
{
	struct dcerpc_tx *tx, *next;

	if (!st)
		return;
	for (tx = st->head; tx; tx = next) {
		next = tx->next;
		tx_free(st, tx);
	}
	for (int d = 0; d < 2; d++)
		app_mem_free(ALPROTO_DCERPC, st->side[d].pdu.data);
	app_mem_free(ALPROTO_DCERPC, st->ctx);
	memset(st, 0, sizeof(*st));
}

struct dcerpc_tx *dcerpc_tx_first(const struct dcerpc_state *st)
{
	return st->head;
}

struct dcerpc_tx *dcerpc_tx_by_id(struct dcerpc_state *st, uint64_t id)
{
	struct dcerpc_tx *tx = st->hint && st->hint->id <= id ? st->hint : st->head;

	for (; tx && tx->id <= id; tx = tx->next) {
		if (tx->id == id) {
			st->hint = tx;
			return tx;
		}
	}
	return NULL;
}

int dcerpc_tx_complete(const struct dcerpc_tx *tx)
{
	return tx->req_done && tx->resp_done;
}

void dcerpc_tx_gc(struct dcerpc_state *st, int (*keep)(const struct dcerpc_tx *, void *),
		  void *arg)
{
	st->hint = NULL;    /* it may go */
	while (st->head && !keep(st->head, arg)) {
		struct dcerpc_tx *tx = st->head;

		st->head = tx->next;
		if (!st->head)
			st->tail = NULL;
		st->ntx--;
		tx_free(st, tx);
	}
}

static struct dcerpc_tx *tx_new(struct dcerpc_state *st)
{
	struct dcerpc_tx *tx;

	if (st->ntx >= st->lim.max_txs) {
		/* Suricata closes the oldest ones past max-tx: they are
		 * logged and freed as they are */
		uint32_t closing = st->ntx - st->lim.max_txs + 1;

		for (tx = st->head; tx && closing; tx = tx->next) {
			if (dcerpc_tx_complete(tx))
				continue;
			tx->req_done = tx->resp_done = 1;
			closing--;
		}
		st->events |= 1u << DCERPC_EV_TOO_MANY_TXS;
	}
	tx = app_mem_calloc(ALPROTO_DCERPC, 1, sizeof(*tx));
	if (!tx)
		return NULL;
	tx->id = st->next_id++;
	tx->req_type = tx->resp_type = DCERPC_PTYPE_NONE;
	if (st->events & (1u << DCERPC_EV_TOO_MANY_TXS)) {
		tx->events |= 1u << DCERPC_EV_TOO_MANY_TXS;
		st->events &= ~(1u << DCERPC_EV_TOO_MANY_TXS);
	}
	if (st->tail)
		st->tail->next = tx;
	else
		st->head = tx;
	st->tail = tx;
	st->ntx++;
	return tx;
}

/* An event on the transaction the PDU belongs to, else on the newest one
 * (framing errors belong to no call), else on the state. */
static void event(struct dcerpc_state *st, struct dcerpc_tx *tx, int ev)
{
	if (!tx)
		tx = st->tail;
	if (tx)
		tx->events |= 1u << ev;
	else
		st->events |= 1u << ev;
}

static void stamp(struct dcerpc_tx *tx, uint8_t vers, uint8_t minor)
{
	tx->rpc_vers = vers;
	tx->rpc_vers_minor = minor;
}

/* Appends to a side's stub data, within max_stub. 0, -2 out of memory. */
static int stub_append(struct dcerpc_state *st, struct dcerpc_tx *tx, int d, const uint8_t *p,
		       uint32_t n)
{
	struct dcerpc_buf *b = &tx->stub[d];

	if (b->len + (uint64_t)n > st->lim.max_stub) {
		n = st->lim.max_stub - b->len;
		tx->events |= 1u << DCERPC_EV_STUB_LIMIT;
	}
	if (!n)
		return 0;
	if (b->len + n > b->cap) {
		uint32_t cap = b->cap ? b->cap : 256;
		uint8_t *nd;

		while (cap < b->len + n)
			cap = cap > st->lim.max_stub / 2 ? st->lim.max_stub : cap * 2;
		nd = app_mem_realloc(ALPROTO_DCERPC, b->data, cap);
		if (!nd)
			return -2;
		st->stub_bytes += cap - b->cap;
		b->data = nd;
		b->cap = cap;
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
	return 0;
}

/* ---------------- connection-oriented PDUs ---------------- */

struct co_hdr {
	uint8_t vers, minor, ptype, flags;
	int le;
	uint16_t frag_len, auth_len;
	uint32_t call_id;
};

static void co_hdr_read(const uint8_t *p, struct co_hdr *h)
{
	h->vers = p[0];
	h->minor = p[1];
	h->ptype = p[2];
	h->flags = p[3];
	h->le = (p[4] & 0x10) != 0;
	h->frag_len = rd16(p + 8, h->le);
	h->auth_len = rd16(p + 10, h->le);
	h->call_id = rd32(p + 12, h->le);
}

/* The header frames the stream: wrong here, nothing after it can be
 * found again. */
static int co_hdr_valid(const struct co_hdr *h)
{
	if (h->vers != 5 || h->minor > 1 || h->frag_len < DCERPC_CO_HDR_LEN)
		return 0;
	return !h->auth_len || (uint32_t)h->auth_len + 8 + DCERPC_CO_HDR_LEN <= h->frag_len;
}

/* Where a PDU's body ends: before its auth verifier and the 8-byte
 * sec_trailer in front of it. */
static uint32_t co_body_end(const struct co_hdr *h)
{
	return h->frag_len - (h->auth_len ? h->auth_len + 8u : 0u);
}

static struct dcerpc_tx *find_call(struct dcerpc_state *st, uint32_t call_id, int resp,
				   int bind)
{
	for (struct dcerpc_tx *tx = st->head; tx; tx = tx->next) {
		int is_bind = tx->req_type == DCERPC_BIND || tx->req_type == DCERPC_ALTER_CONTEXT;

		if (tx->call_id != call_id || (resp ? tx->resp_done : tx->req_done))
			continue;
		if (tx->req_type != DCERPC_PTYPE_NONE && is_bind != bind)
			continue;
		if (!resp && tx->req_type == DCERPC_PTYPE_NONE)
			continue;
		return tx;
	}
	return NULL;
}

static struct dcerpc_iface *ctx_slot(struct dcerpc_state *st, uint16_t ctxid)
{
	for (uint32_t i = 0; i < st->nctx; i++)
		if (st->ctx[i].ctxid == ctxid)
			return &st->ctx[i];
	if (st->nctx == st->ctx_cap) {
		uint32_t cap = st->ctx_cap ? st->ctx_cap * 2 : 8;
		struct dcerpc_iface *n;

		/* a ctxid is 16 bits: the table cannot grow past that */
		if (cap > 65536)
			return NULL;
		n = app_mem_realloc(ALPROTO_DCERPC, st->ctx, cap * sizeof(*n));
		if (!n)
			return NULL;
		st->ctx = n;
		st->ctx_cap = cap;
	}
	memset(&st->ctx[st->nctx], 0, sizeof(st->ctx[0]));
	st->ctx[st->nctx].ctxid = ctxid;
	return &st->ctx[st->nctx++];
}

const struct dcerpc_iface *dcerpc_ctx_find(const struct dcerpc_state *st, uint16_t ctxid)
{
	for (uint32_t i = 0; i < st->nctx; i++)
		if (st->ctx[i].ctxid == ctxid)
			return &st->ctx[i];
	return NULL;
}

/* bind / alter_context: p_context_elem at offset 24, each context 24
 * bytes plus 20 per transfer syntax. */
static int co_bind(struct dcerpc_state *st, const uint8_t *p, const struct co_hdr *h)
{
	uint32_t end = co_body_end(h), off = 28, n;
	struct dcerpc_tx *tx;

	tx = tx_new(st);
	if (!tx)
		return -2;
	stamp(tx, h->vers, h->minor);
	tx->call_id = h->call_id;
	tx->req_type = h->ptype;
	tx->req_done = 1;
	tx->frag_cnt[0] = 1;
	tx->little_endian[0] = (uint8_t)h->le;
	if (end < 28) {
		event(st, tx, DCERPC_EV_MALFORMED_PDU);
		return 0;
	}
	n = p[24];
	tx->ifaces = n ? app_mem_calloc(ALPROTO_DCERPC, n, sizeof(*tx->ifaces)) : NULL;
	if (n && !tx->ifaces)
		return -2;
	for (uint32_t i = 0; i < n; i++) {
		struct dcerpc_iface *f = &tx->ifaces[tx->nifaces], *c;

		if (off + 24 > end) {
			event(st, tx, DCERPC_EV_MALFORMED_PDU);
			break;
		}
		f->ctxid = rd16(p + off, h->le);
		uuid_from_wire(p + off + 4, h->le, f->uuid);
		f->ver = rd16(p + off + 20, h->le);
		f->ver_minor = rd16(p + off + 22, h->le);
		tx->nifaces++;
		off += 24 + 20u * p[off + 2];
		/* a new bind of a context replaces what it was bound to */
		c = ctx_slot(st, f->ctxid);
		if (!c)
			return -2;
		*c = *f;
	}
	return 0;
}

/* The transaction a response fragment h goes to: its call's (bind: a bind's),
 * or a new one when the request was not seen; NULL when none can be had. */
static struct dcerpc_tx *response_tx(struct dcerpc_state *st, const struct co_hdr *h, int bind)
{
	struct dcerpc_tx *tx = find_call(st, h->call_id, 1, bind);

	if (!tx) {
		tx = tx_new(st);
		if (!tx)
			return NULL;
		tx->call_id = h->call_id;
	}
	stamp(tx, h->vers, h->minor);
	tx->resp_type = h->ptype;
	tx->frag_cnt[1]++;
	tx->little_endian[1] = (uint8_t)h->le;
	return tx;
}

/* bind_ack / alter_context_resp: the secondary address, padding to 4,
 * then one 24-byte result per context of the bind, in its order. */
static int co_bind_ack(struct dcerpc_state *st, const uint8_t *p, const struct co_hdr *h)
{
	uint32_t end = co_body_end(h), off, n;
	struct dcerpc_tx *tx = response_tx(st, h, 1);

	if (!tx)
		return -2;
	tx->resp_done = 1;
	if (end < 26) {
		event(st, tx, DCERPC_EV_MALFORMED_PDU);
		return 0;
	}
	off = 26 + rd16(p + 24, h->le);
	off = (off + 3) & ~3u;
	if (off + 4 > end) {
		event(st, tx, DCERPC_EV_MALFORMED_PDU);
		return 0;
	}
	n = p[off];
	off += 4;
	for (uint32_t i = 0; i < n; i++, off += 24) {
		struct dcerpc_iface *c;
		uint16_t result;

		if (off + 24 > end) {
			event(st, tx, DCERPC_EV_MALFORMED_PDU);
			break;
		}
		if (i >= tx->nifaces)
			continue;
		result = rd16(p + off, h->le);
		tx->ifaces[i].ack_result = result;
		tx->ifaces[i].ack_reason = rd16(p + off + 2, h->le);
		tx->ifaces[i].acked = 1;
		c = ctx_slot(st, tx->ifaces[i].ctxid);
		if (!c)
			return -2;
		*c = tx->ifaces[i];
	}
	return 0;
}

/* Stub data as Suricata 8 takes it (its eve stub_data_size and
 * dcerpc.stub_data): a request's from the end of its fixed fields (offset
 * 24) and a response's from the end of the header (16), both to the end
 * of the PDU; an object uuid and the auth verifier are part of it
 * (suricata-verify dce-logging: 24 and 68 bytes of 48- and 84-byte PDUs,
 * the request with an object uuid). */
#define CO_REQ_STUB_OFF 24
#define CO_RESP_STUB_OFF 16

static int co_request(struct dcerpc_state *st, const uint8_t *p, const struct co_hdr *h)
{
	uint32_t end = h->frag_len, off = CO_REQ_STUB_OFF;
	struct dcerpc_tx *tx = find_call(st, h->call_id, 0, 0);
	int rc;
	if (!tx || !(tx->req_type == DCERPC_REQUEST)) {
		tx = tx_new(st);
		if (!tx)
			return -2;
		tx->call_id = h->call_id;
		tx->req_type = DCERPC_REQUEST;
		tx->first_frag = (h->flags & DCERPC_PFC_FIRST_FRAG) != 0;
		if (end >= 24) {
			const struct dcerpc_iface *c;

			tx->ctxid = rd16(p + 20, h->le);
			tx->opnum = rd16(p + 22, h->le);
			if ((c = dcerpc_ctx_find(st, tx->ctxid))) {
				tx->iface = *c;
				tx->has_iface = 1;
			}
		}
	}
	stamp(tx, h->vers, h->minor);
	tx->frag_cnt[0]++;
	tx->little_endian[0] = (uint8_t)h->le;
	if (h->flags & DCERPC_PFC_LAST_FRAG)
		tx->req_done = 1;
	if (end < off) {
		event(st, tx, DCERPC_EV_MALFORMED_PDU);
		return 0;
	}
	rc = stub_append(st, tx, 0, p + off, end - off);
	return rc;
}

/* response and fault: the call's transaction (or one of its own when the
 * request was not seen) */
static int co_response(struct dcerpc_state *st, const uint8_t *p, const struct co_hdr *h)
{
	uint32_t end = h->frag_len;
	struct dcerpc_tx *tx = response_tx(st, h, 0);

	if (!tx)
		return -2;
	if (h->ptype == DCERPC_FAULT || (h->flags & DCERPC_PFC_LAST_FRAG))
		tx->resp_done = 1;
	if (end < 24) {
		event(st, tx, DCERPC_EV_MALFORMED_PDU);
		return 0;
	}
	if (h->ptype == DCERPC_FAULT)
		return 0;
	return stub_append(st, tx, 1, p + CO_RESP_STUB_OFF, end - CO_RESP_STUB_OFF);
}

/* One whole PDU (frag_length bytes at p, header valid). */
static int co_pdu(struct dcerpc_state *st, const uint8_t *p, const struct co_hdr *h)
{
	st->rpc_vers = h->vers;
	st->rpc_vers_minor = h->minor;
	st->seen_hdr = 1;
	switch (h->ptype) {
	case DCERPC_BIND:
	case DCERPC_ALTER_CONTEXT:
		return co_bind(st, p, h);
	case DCERPC_BIND_ACK:
	case DCERPC_ALTER_CONTEXT_RESP:
		return co_bind_ack(st, p, h);
	case DCERPC_BIND_NAK: {
		struct dcerpc_tx *tx = find_call(st, h->call_id, 1, 1);

		if (tx) {
			tx->resp_type = h->ptype;
			tx->resp_done = 1;
			tx->frag_cnt[1]++;
		}
		return 0;
	}
	case DCERPC_REQUEST:
		return co_request(st, p, h);
	case DCERPC_RESPONSE:
	case DCERPC_FAULT:
		return co_response(st, p, h);
	default:
		/* auth3, shutdown, cancels, rts: no call of their own */
		if (!co_ptype_known(h->ptype))
			event(st, NULL, DCERPC_EV_UNKNOWN_PTYPE);
		return 0;
	}
}

static int buf_reserve(struct dcerpc_buf *b, uint32_t need)
{
	uint8_t *n;

	if (need <= b->cap)
		return 0;
	n = app_mem_realloc(ALPROTO_DCERPC, b->data, need);
	if (!n)
		return -2;
	b->data = n;
	b->cap = need;
	return 0;
}

static int side_dead(struct dcerpc_state *st, struct dcerpc_side *sd)
{
	event(st, NULL, DCERPC_EV_MALFORMED_HEADER);
	sd->dead = 1;
	sd->pdu.len = 0;
	return -1;
}

static int co_feed(struct dcerpc_state *st, struct dcerpc_side *sd, const uint8_t *data,
		   size_t len)
{
	const uint8_t *start = data;
	int to_server = sd == &st->side[0];
	struct co_hdr h;
	int rc;

	while (len) {
		if (sd->pdu.len) {
			/* a PDU begun in an earlier chunk */
			uint32_t want = DCERPC_CO_HDR_LEN, take;

			if (sd->pdu.len >= DCERPC_CO_HDR_LEN) {
				co_hdr_read(sd->pdu.data, &h);
				want = h.frag_len;
			}
			take = want - sd->pdu.len;
			if (take > len)
				take = (uint32_t)len;
			memcpy(sd->pdu.data + sd->pdu.len, data, take);
			sd->pdu.len += take;
			data += take;
			len -= take;
			if (sd->pdu.len == DCERPC_CO_HDR_LEN) {
				co_hdr_read(sd->pdu.data, &h);
				if (!co_hdr_valid(&h))
					return side_dead(st, sd);
				if (st->pdu_seen)
					st->pdu_seen(st->pdu_arg, to_server,
						     (int64_t)(data - start) - DCERPC_CO_HDR_LEN,
						     h.frag_len);
				if (buf_reserve(&sd->pdu, h.frag_len) < 0)
					return -2;
			}
			if (sd->pdu.len >= DCERPC_CO_HDR_LEN) {
				co_hdr_read(sd->pdu.data, &h);
				if (sd->pdu.len == h.frag_len) {
					sd->pdu.len = 0;
					if ((rc = co_pdu(st, sd->pdu.data, &h)) < 0)
						return rc;
				}
			}
			continue;
		}
		if (len >= DCERPC_CO_HDR_LEN) {
			co_hdr_read(data, &h);
			if (!co_hdr_valid(&h))
				return side_dead(st, sd);
			if (st->pdu_seen)
				st->pdu_seen(st->pdu_arg, to_server, data - start, h.frag_len);
			if (len >= h.frag_len) {
				/* whole in this chunk: parsed in place */
				if ((rc = co_pdu(st, data, &h)) < 0)
					return rc;
				data += h.frag_len;
				len -= h.frag_len;
				continue;
			}
		}
		if (buf_reserve(&sd->pdu, len >= DCERPC_CO_HDR_LEN ? h.frag_len : DCERPC_CO_HDR_LEN) < 0)
			return -2;
		memcpy(sd->pdu.data, data, len);
		sd->pdu.len = (uint32_t)len;
		break;
	}
	return 0;
}

/* ---------------- connectionless datagrams ---------------- */

static int cl_same_call(const struct dcerpc_tx *tx, const uint8_t act[16], uint32_t seq)
{
	return tx->seqnum == seq && memcmp(tx->activity, act, 16) == 0;
}

static int cl_feed(struct dcerpc_state *st, const uint8_t *p, size_t len)
{
	uint8_t act[16];
	uint32_t seq, blen;
	uint8_t ptype, flags;
	struct dcerpc_tx *tx = NULL;
	int le, resp;

	if (len < DCERPC_CL_HDR_LEN || p[0] != 4) {
		event(st, NULL, DCERPC_EV_MALFORMED_HEADER);
		return -1;
	}
	ptype = p[1];
	flags = p[2];
	le = (p[4] & 0x10) != 0;
	st->rpc_vers = 4;
	st->rpc_vers_minor = 0;
	st->seen_hdr = 1;
	if (ptype > DCERPC_CANCEL_ACK) {
		event(st, NULL, DCERPC_EV_UNKNOWN_PTYPE);
		return 0;
	}
	/* only calls make transactions: pings, acks, fack and cancels are
	 * the datagram protocol's own bookkeeping */
	if (ptype != DCERPC_REQUEST && ptype != DCERPC_RESPONSE && ptype != DCERPC_FAULT &&
	    ptype != DCERPC_REJECT)
		return 0;
	/* Suricata 8 reads the activity uuid's fields as little endian
	 * whatever the drep says (suricata-verify dcerpc-udp-scapy: a
	 * big-endian datagram's activity is printed byte-swapped); calls are
	 * matched on it, so only the printed form depends on this */
	uuid_from_wire(p + 40, 1, act);
	seq = rd32(p + 64, le);
	blen = rd16(p + 74, le);
	resp = ptype != DCERPC_REQUEST;
	for (struct dcerpc_tx *t = st->head; t; t = t->next)
		if (cl_same_call(t, act, seq) && !(resp ? t->resp_done : t->req_done) &&
		    (resp || t->req_type == DCERPC_REQUEST)) {
			tx = t;
			break;
		}
	if (!tx) {
		tx = tx_new(st);
		if (!tx)
			return -2;
		memcpy(tx->activity, act, 16);
		tx->seqnum = seq;
		uuid_from_wire(p + 24, le, tx->iface.uuid);
		tx->iface.ver = (uint16_t)rd32(p + 60, le);
		tx->iface.acked = 1;
		tx->has_iface = 1;
		tx->opnum = rd16(p + 68, le);
		tx->first_frag = rd16(p + 76, le) == 0;
	}
	stamp(tx, 4, 0);
	if (blen > len - DCERPC_CL_HDR_LEN) {
		event(st, tx, DCERPC_EV_MALFORMED_PDU);
		blen = (uint32_t)(len - DCERPC_CL_HDR_LEN);
	}
	if (resp) {
		tx->resp_type = ptype;
		tx->frag_cnt[1]++;
		tx->little_endian[1] = (uint8_t)le;
		if (!(flags & DCERPC_CL_FRAG) || (flags & DCERPC_CL_LASTFRAG) || ptype != DCERPC_RESPONSE)
			tx->resp_done = 1;
	} else {
		tx->req_type = ptype;
		tx->frag_cnt[0]++;
		tx->little_endian[0] = (uint8_t)le;
		if (!(flags & DCERPC_CL_FRAG) || (flags & DCERPC_CL_LASTFRAG))
			tx->req_done = 1;
	}
	if (ptype == DCERPC_REQUEST || ptype == DCERPC_RESPONSE)
		return stub_append(st, tx, resp, p + DCERPC_CL_HDR_LEN, blen);
	return 0;
}

/* ---------------- entry points ---------------- */

int dcerpc_feed(struct dcerpc_state *st, int to_server, const uint8_t *data, size_t len)
{
	struct dcerpc_side *sd = &st->side[to_server ? 0 : 1];

	if (!data || !len)
		return 0;
	if (st->kind == DCERPC_CL)
		return cl_feed(st, data, len);
	if (sd->dead)
		return -1;
	return co_feed(st, sd, data, len);
}

void dcerpc_gap(struct dcerpc_state *st, int to_server)
{
	struct dcerpc_side *sd = &st->side[to_server ? 0 : 1];

	if (st->kind == DCERPC_CL)
		return;
	sd->pdu.len = 0;
	sd->dead = 1;
}
