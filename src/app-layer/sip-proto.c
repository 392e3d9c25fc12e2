/* SIP's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.sip.*), how it is recognised, and the ops that hand
 * the message parser (sip-parse.c) to the generic app layer.
 *
 * Recognition is by content on any port, UDP and TCP, as Suricata 8's SIP
 * patterns do (suricata-verify sip-pattern-matching: UDP port 5062): a
 * request line ending in "SIP/2.0" toward the server, a status line
 * starting with it toward the client. The first byte refuses most other
 * flows at once, so probing costs every UDP flow one comparison.
 *
 * Transactions are Suricata 8's: each message is one, of its own side
 * only, complete on arrival (the eve record, detection). On UDP a datagram
 * is a message; on TCP messages are cut by their blank line and
 * Content-Length, a direction's partial message kept up to SIP_MAX_MSG.
 * Counters are per transport, Suricata's names: app_layer.flow.sip_tcp /
 * sip_udp (the app layer's), app_layer.tx.sip_tcp / sip_udp and their
 * error counters (here). */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/app-mem.h"
#include "app-layer/frames.h"
#include "app-layer/sip.h"
#include "conf/conf.h"

#include <stdlib.h>
#include <string.h>

/* Read once at start; read-only afterwards. */
static struct {
	int enabled;                /* 1 yes, 2 detection-only, 0 no */
	uint16_t ports[APP_MAX_DETECT_PORTS];
	unsigned nports;
} sip_conf;

#define SIP_KEY "app-layer.protocols.sip."

/* Live transactions per flow at most: past it a message is counted as a
 * parser error and dropped (the logger and detection free them as they
 * go, so only a flow nobody reads could reach it). */
#define SIP_MAX_LIVE_TX 512

static void sip_config_defaults(AppLayerConfig *cfg)
{
	(void)cfg;
	memset(&sip_conf, 0, sizeof(sip_conf));
	sip_conf.enabled = 1;
	sip_conf.ports[0] = 5060;
	sip_conf.nports = 1;
}

/* detection-ports is read for Suricata's yaml; the content probe already
 * covers every port */
static int sip_config_load(AppLayerConfig *cfg)
{
	(void)cfg;
	return app_conf_enabled_ports(SIP_KEY, &sip_conf.enabled, sip_conf.ports,
				      &sip_conf.nports);
}

static int sip_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return sip_conf.enabled;
}

enum { T_TCP, T_UDP };
static AppTxCounters ctr[2];

static void sip_register_counters(void)
{
	app_tx_counters_register(&ctr[T_TCP], "sip_tcp");
	app_tx_counters_register(&ctr[T_UDP], "sip_udp");
}

/* ---------------- detection ---------------- */

/* UDP: the datagram's whole first line; TCP: the few first bytes
 * detection holds (sip_probe_prefix), the parser checks the rest. */
static int sip_probe(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
		     uint32_t len)
{
	int request = 0, udp = f->proto == 17;
	int r = udp ? sip_probe_line(buf, len, &request) : sip_probe_prefix(buf, len, &request);

	(void)cfg;
	if (r < 0)
		return udp ? DET_NO : DET_MORE;
	if (r == 0 || request != (dir == APP_DIR_TOSERVER))
		return DET_NO;
	return DET_YES;
}

/* Midstream TCP: a status line toward the server, a request toward the
 * client, is SIP going the other way. */
static int sip_probe_reversed(int dir, const uint8_t *buf, uint32_t len)
{
	int request = 0;

	if (sip_probe_prefix(buf, len, &request) == 1 && request == (dir == APP_DIR_TOCLIENT))
		return DET_YES;
	return DET_NO;
}

/* ---------------- state and transactions ---------------- */

typedef struct SipTx {
	struct SipTx *next;
	uint64_t id;
	SipMsg *msg;
	int dir;
	unsigned flags;             /* APP_TX_* */
	uint32_t events;            /* bit per enum sip_event */
	uint32_t events_logged;
	void *detect;
} SipTx;

typedef struct SipState {
	SipTx *head, *tail;
	uint32_t ntx;
	uint64_t next_id;
	int t;                      /* T_TCP, T_UDP */
	int detect_only;
	/* TCP: a direction's bytes of a message not complete yet */
	uint8_t *buf[2];
	uint32_t blen[2];
} SipState;

/* Suricata's SIP frame types (frames.h). */
enum { F_PDU, F_REQ_LINE, F_REQ_HEADERS, F_REQ_BODY, F_RESP_LINE, F_RESP_HEADERS,
       F_RESP_BODY };
static const char *const sip_frame_names[] = { "pdu", "request.line", "request.headers",
	"request.body", "response.line", "response.headers", "response.body", NULL };

static void *sip_state_new(AppLayerThread *at, Flow *f)
{
	SipState *st = app_mem_calloc(ALPROTO_SIP, 1, sizeof(*st));

	if (!st)
		return NULL;
	st->t = f && f->proto == 17 ? T_UDP : T_TCP;
	st->detect_only = at && sip_conf.enabled == 2;
	return st;
}

static void tx_free(SipTx *t)
{
	if (t->detect)
		app_layer_detect_state_free_proto(ALPROTO_SIP, t->detect);
	sip_msg_free(t->msg);
	app_mem_free(ALPROTO_SIP, t);
}

static void sip_state_free(void *state)
{
	SipState *st = state;

	if (!st)
		return;
	for (SipTx *t = st->head, *n; t; t = n) {
		n = t->next;
		tx_free(t);
	}
	app_mem_free(ALPROTO_SIP, st->buf[0]);
	app_mem_free(ALPROTO_SIP, st->buf[1]);
	app_mem_free(ALPROTO_SIP, st);
}

/* An event where the parser met it: on the direction's last transaction,
 * as Suricata sets it on its newest one; lost when there is none. */
static void raise_event(SipState *st, int ev)
{
	if (st->tail)
		st->tail->events |= 1u << ev;
}

/* The frames of message m, which starts at off (TCP: stream offset; UDP:
 * in the datagram): the whole message, its start line with its CRLF, its
 * header lines (without the blank line), its body. */
static void message_frames(Flow *f, int dir, uint64_t off, const SipMsg *m, uint64_t tx_id)
{
	int req = m->is_request;
	int64_t id;

	id = app_frame_new(f, dir, off, m->raw_len, F_PDU);
	app_frame_set_tx(f, dir, id, tx_id);
	id = app_frame_new(f, dir, off, m->line_end, req ? F_REQ_LINE : F_RESP_LINE);
	app_frame_set_tx(f, dir, id, tx_id);
	id = app_frame_new(f, dir, off + m->line_end, m->headers_end - m->line_end,
			   req ? F_REQ_HEADERS : F_RESP_HEADERS);
	app_frame_set_tx(f, dir, id, tx_id);
	if (m->body.len) {
		id = app_frame_new(f, dir, off + m->body.off, m->body.len,
				   req ? F_REQ_BODY : F_RESP_BODY);
		app_frame_set_tx(f, dir, id, tx_id);
	}
}

/* A parsed message becomes the flow's newest transaction; 0, or -1 when
 * the flow has too many live ones (m is freed then). */
static int add_tx(SipState *st, AppLayerThread *at, int dir, SipMsg *m)
{
	SipTx *t;

	if (st->ntx >= SIP_MAX_LIVE_TX || !(t = app_mem_calloc(ALPROTO_SIP, 1, sizeof(*t)))) {
		sip_msg_free(m);
		app_tx_count(at, &ctr[st->t], st->ntx >= SIP_MAX_LIVE_TX ? APP_CTR_PARSER :
					  APP_CTR_ALLOC, 1);
		return -1;
	}
	t->msg = m;
	t->dir = dir;
	t->id = st->next_id++;
	/* one message, one side: detection has nothing to do on the other */
	t->flags = dir == APP_DIR_TOSERVER ? APP_TX_ONLY_TS | APP_TX_DETECT_TC :
					     APP_TX_ONLY_TC | APP_TX_DETECT_TS;
	if (st->tail)
		st->tail->next = t;
	else
		st->head = t;
	st->tail = t;
	st->ntx++;
	app_tx_count(at, &ctr[st->t], APP_CTR_TX, 1);
	return 0;
}

/* A message the way it went: requests to the server, responses to the
 * client. Suricata 8 parses each direction as such, so that a request
 * the server sends is invalid data there (suricata-verify bug-5802: the
 * REGISTER of its capture's server is a parser error). SIP_OK, or
 * SIP_INVALID with m freed. */
static int check_dir(SipMsg *m, int dir)
{
	if (m->is_request == (dir == APP_DIR_TOSERVER))
		return SIP_OK;
	sip_msg_free(m);
	return SIP_INVALID;
}

/* A parse result other than a message: its event and error count. */
static void parse_failed(SipState *st, AppLayerThread *at, int rc)
{
	if (rc == SIP_NOMEM) {
		app_tx_count(at, &ctr[st->t], APP_CTR_ALLOC, 1);
		return;
	}
	raise_event(st, rc == SIP_MORE ? SIP_EV_INCOMPLETE_DATA : SIP_EV_INVALID_DATA);
	app_tx_count(at, &ctr[st->t], APP_CTR_PARSER, 1);
}

static int parse_datagram(SipState *st, AppLayerThread *at, Flow *f, int dir,
			  const uint8_t *data, uint32_t len)
{
	SipMsg *m;
	uint32_t used;
	int rc = sip_msg_parse(data, len, 0, &m, &used);

	if (rc == SIP_OK)
		rc = check_dir(m, dir);
	if (rc != SIP_OK) {
		parse_failed(st, at, rc);
		return -1;
	}
	if (add_tx(st, at, dir, m) < 0)
		return -1;
	if (app_frames_on(f))
		message_frames(f, dir, 0, m, st->tail->id);
	return 0;
}

/* TCP: the messages complete in p[0, n), whose first byte is at stream
 * offset base; returns the bytes used, or -1 after a parse error (the
 * rest cannot be cut into messages: dropped). */
static int64_t parse_stream(SipState *st, AppLayerThread *at, Flow *f, int dir,
			    const uint8_t *p, uint32_t n, uint64_t base)
{
	uint32_t off = 0, used;
	SipMsg *m;

	while (off < n) {
		int rc = sip_msg_parse(p + off, n - off, 1, &m, &used);

		if (rc == SIP_MORE)
			break;
		if (rc == SIP_OK)
			rc = check_dir(m, dir);
		if (rc != SIP_OK) {
			parse_failed(st, at, rc);
			return -1;
		}
		if (add_tx(st, at, dir, m) == 0 && app_frames_on(f))
			message_frames(f, dir, base + off, st->tail->msg, st->tail->id);
		off += used;
	}
	return off;
}

/* Keeps p[0, n) as dir's partial message. */
static int keep(SipState *st, int dir, const uint8_t *p, uint32_t n)
{
	uint8_t *b;

	if (!n) {
		st->blen[dir] = 0;
		return 0;
	}
	b = app_mem_malloc(ALPROTO_SIP, n);
	if (!b)
		return -1;
	memcpy(b, p, n);
	app_mem_free(ALPROTO_SIP, st->buf[dir]);
	st->buf[dir] = b;
	st->blen[dir] = n;
	return 0;
}

static int parse_tcp(SipState *st, AppLayerThread *at, Flow *f, int dir, const uint8_t *data,
		     uint32_t len)
{
	uint32_t held = st->blen[dir];
	uint64_t base = app_frames_on(f) ? app_frame_offset(f, dir) - held : 0;
	const uint8_t *p = data;
	uint32_t n = len;
	uint8_t *joined = NULL;
	int64_t used;
	int rc = 0;

	/* the held part of a message, then the new bytes: one buffer (the
	 * parser sees a message whole); without one, straight from data */
	if (held) {
		joined = app_mem_malloc(ALPROTO_SIP, (size_t)held + len);
		if (!joined) {
			app_tx_count(at, &ctr[T_TCP], APP_CTR_ALLOC, 1);
			st->blen[dir] = 0;
			return -1;
		}
		memcpy(joined, st->buf[dir], held);
		memcpy(joined + held, data, len);
		p = joined;
		n = held + len;
	}
	used = parse_stream(st, at, f, dir, p, n, base);
	if (used < 0) {
		st->blen[dir] = 0;
		rc = -1;
	} else if (keep(st, dir, p + used, n - (uint32_t)used) < 0) {
		app_tx_count(at, &ctr[T_TCP], APP_CTR_ALLOC, 1);
		st->blen[dir] = 0;
		rc = -1;
	}
	app_mem_free(ALPROTO_SIP, joined);
	return rc;
}

static int sip_parse(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
		     uint32_t len, int flags)
{
	SipState *st = state;

	if (!st || st->detect_only || dir < 0 || dir > 1)
		return 0;
	if (st->t == T_UDP)
		return data && len ? parse_datagram(st, at, f, dir, data, len) : 0;
	if (flags & APP_GAP) {
		/* the partial message no longer leads to the next bytes */
		if (st->blen[dir])
			app_tx_count(at, &ctr[T_TCP], APP_CTR_GAP, 1);
		st->blen[dir] = 0;
		return 0;
	}
	if (data && len && parse_tcp(st, at, f, dir, data, len) < 0)
		return -1;
	if ((flags & APP_EOF) && st->blen[dir]) {
		/* the direction ended inside a message */
		raise_event(st, SIP_EV_INCOMPLETE_DATA);
		st->blen[dir] = 0;
	}
	return 0;
}

const SipMsg *sip_tx_msg(const void *tx)
{
	return tx ? ((const SipTx *)tx)->msg : NULL;
}

int sip_tx_dir(const void *tx)
{
	return ((const SipTx *)tx)->dir;
}

uint32_t sip_tx_events(const void *tx)
{
	return ((const SipTx *)tx)->events;
}

uint32_t *sip_tx_events_logged(void *tx)
{
	return &((SipTx *)tx)->events_logged;
}

static uint64_t sip_tx_count(const void *state)
{
	return ((const SipState *)state)->next_id;
}

static uint64_t sip_tx_low(const void *state)
{
	const SipState *st = state;

	return st->head ? st->head->id : st->next_id;
}

/* The live ones are few (freed once logged and inspected): a short walk. */
static void *sip_tx_get(const void *state, uint64_t id)
{
	for (SipTx *t = ((const SipState *)state)->head; t && t->id <= id; t = t->next)
		if (t->id == id)
			return t;
	return NULL;
}

static uint64_t sip_tx_id_op(const void *tx)
{
	return ((const SipTx *)tx)->id;
}

/* complete on arrival, both sides (the other side has nothing to wait for) */
static int sip_tx_progress(const void *tx, int dir)
{
	(void)tx;
	(void)dir;
	return 1;
}

static unsigned sip_tx_flags(const void *tx)
{
	return ((const SipTx *)tx)->flags;
}

static void sip_tx_set_flags(void *tx, unsigned flags)
{
	((SipTx *)tx)->flags |= flags;
}

static void **sip_tx_detect_slot(void *tx)
{
	return &((SipTx *)tx)->detect;
}

/* Frees the oldest transactions everyone is done with, in order. */
static void sip_tx_gc(void *state, unsigned need)
{
	SipState *st = state;

	while (st->head && (st->head->flags & need) == need) {
		SipTx *t = st->head;

		st->head = t->next;
		if (!st->head)
			st->tail = NULL;
		st->ntx--;
		tx_free(t);
	}
}

static int sip_event_lookup(const char *name)
{
	return sip_event_by_name(name);
}

static int sip_tx_has_event(const void *tx, int id)
{
	return id >= 0 && id < SIP_EV_COUNT && (((const SipTx *)tx)->events >> id & 1u);
}

const AppProtoOps sip_proto_ops = {
	.name = "sip",
	.ipprotos = APP_IPPROTO_TCP | APP_IPPROTO_UDP,
	.config_defaults = sip_config_defaults,
	.config_load = sip_config_load,
	.enabled = sip_enabled,
	.register_counters = sip_register_counters,
	.probe = sip_probe,
	.probe_reversed = sip_probe_reversed,
	.state_new = sip_state_new,
	.state_free = sip_state_free,
	.parse = sip_parse,
	.tx_count = sip_tx_count,
	.tx_get = sip_tx_get,
	.tx_low = sip_tx_low,
	.tx_id = sip_tx_id_op,
	.tx_log_id = sip_tx_id_op,
	.tx_progress = sip_tx_progress,
	.progress_complete = 1,
	.tx_flags = sip_tx_flags,
	.tx_set_flags = sip_tx_set_flags,
	.tx_detect_slot = sip_tx_detect_slot,
	.tx_gc = sip_tx_gc,
	.event_lookup = sip_event_lookup,
	.tx_has_event = sip_tx_has_event,
	.frame_names = sip_frame_names,
};
