/* DNP3's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.dnp3.*), how it is recognised, and the link and
 * transport layers that turn a direction's bytes into messages (one
 * transaction each, dnp3.h).
 *
 * Recognition, as Suricata's probe, on the detection ports only (20000,
 * either end; off unless the yaml enables it, as in Suricata 8): a link
 * header (0x05 0x64, a length of at least 5) whose CRC holds. Its DIR bit
 * says who sent it: a frame from the outstation seen first means the flow
 * started midstream the other way round.
 *
 * Link layer: a frame with a bad header CRC is skipped (bad_link_crc), one
 * with a bad data block CRC too (bad_transport_crc); frames that are not
 * user data (link status, resets) carry no message. Transport layer: a
 * segment with FIR opens a fragment, FIN closes it, and only then is it a
 * message and a transaction (one never finished is not logged, as in
 * Suricata); a fragment past DNP3_MAX_REASSEMBLY bytes is given up, its
 * transaction made then to carry too_long_reassembly. More than
 * 32 requests without a response is a flood: each request past it gets
 * flooded, as Suricata's (they are parsed and freed as any other, so a
 * flood costs no memory). Events go to the message they are
 * about, else to the flow's last transaction (Suricata's "current" one).
 * Memory: a frame (292 bytes) and a fragment (DNP3_MAX_REASSEMBLY) per
 * direction, and the live transactions. */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/dnp3.h"

#include <stdlib.h>
#include <string.h>

#define DNP3_KEY "app-layer.protocols.dnp3."
#define DNP3_FLOOD_COUNT 32

static struct {
	int enabled;                /* 1 yes, 2 detection-only, 0 no */
	uint16_t ports[APP_MAX_DETECT_PORTS];
	unsigned nports;
} dnp3_conf;

static void dnp3_config_defaults(AppLayerConfig *cfg)
{
	(void)cfg;
	memset(&dnp3_conf, 0, sizeof(dnp3_conf));
	dnp3_conf.enabled = 0;
	dnp3_conf.ports[0] = 20000;
	dnp3_conf.nports = 1;
}

static int dnp3_config_load(AppLayerConfig *cfg)
{
	(void)cfg;
	return app_conf_enabled_ports(DNP3_KEY, &dnp3_conf.enabled, dnp3_conf.ports,
				      &dnp3_conf.nports);
}

static int dnp3_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return dnp3_conf.enabled;
}

static AppTxCounters ctr;

static void dnp3_register_counters(void)
{
	app_tx_counters_register(&ctr, "dnp3");
}

static int port_listed(uint16_t port)
{
	for (unsigned i = 0; i < dnp3_conf.nports; i++)
		if (dnp3_conf.ports[i] == port)
			return 1;
	return 0;
}

static int dnp3_probe(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
		      uint32_t len)
{
	int from_master;

	(void)cfg;
	if (!port_listed(f->dp) && !port_listed(f->sp))
		return DET_NO;
	if (len >= 1 && buf[0] != 0x05)
		return DET_NO;
	if (len >= 2 && buf[1] != 0x64)
		return DET_NO;
	if (len >= 3 && buf[2] < 5)
		return DET_NO;
	if (len < DNP3_LINK_HDR_LEN)
		return DET_MORE;
	if (!dnp3_crc_ok(buf, 8))
		return DET_NO;
	from_master = (buf[3] & DNP3_LC_DIR) != 0;
	return from_master == (dir == APP_DIR_TOSERVER) ? DET_YES : DET_REVERSED;
}

/* ---------------- state ---------------- */

typedef struct Dnp3Dir {
	uint8_t held[DNP3_MAX_FRAME]; /* a frame cut across calls */
	uint32_t held_len;
	/* the fragment being reassembled, from its FIR segment on */
	uint8_t active;
	uint8_t hdr[DNP3_LINK_HDR_LEN]; /* its first frame's link header, CRC included */
	uint8_t th;                 /* the last transport header of it */
	uint8_t *buf;
	uint32_t len, cap;
} Dnp3Dir;

typedef struct Dnp3State {
	AppTxList txs;              /* first: txlist.h's ops read it */
	int detect_only;
	uint32_t unreplied;         /* requests since the last response */
	uint64_t last_id;           /* the last transaction made (+1; 0 none) */
	Dnp3Dir d[2];
} Dnp3State;

static void tx_free(AppTx *t)
{
	Dnp3Tx *tx = (Dnp3Tx *)t;

	dnp3_msg_free(&tx->m);
	free(tx);
}

static void *dnp3_state_new(AppLayerThread *at, Flow *f)
{
	Dnp3State *st = txl_state_alloc(at, &ctr, sizeof(*st), ALPROTO_DNP3, tx_free);

	(void)f;
	if (st)
		st->detect_only = dnp3_conf.enabled == 2;
	return st;
}

static void dnp3_state_free(void *state)
{
	Dnp3State *st = state;

	if (!st)
		return;
	txl_free(&st->txs);
	free(st->d[0].buf);
	free(st->d[1].buf);
	free(st);
}

/* An event outside a message: on the flow's last transaction, when it
 * is still there */
static void set_event(Dnp3State *st, int ev)
{
	Dnp3Tx *tx = st->last_id ? txl_op_get(st, st->last_id - 1) : NULL;

	if (tx)
		tx->base.events |= 1u << ev;
}

/* The transaction of a reassembled fragment of dir (NULL: none made) */
static Dnp3Tx *msg_new(AppLayerThread *at, Dnp3State *st, int dir)
{
	const uint8_t *hdr = st->d[dir].hdr;
	Dnp3Tx *tx;

	if (!(tx = calloc(1, sizeof(*tx)))) {
		app_tx_count(at, &ctr, APP_CTR_ALLOC, 1);
		return NULL;
	}
	tx->is_request = dir == APP_DIR_TOSERVER;
	tx->m.link_ctrl = hdr[3];
	tx->m.dst = (uint16_t)(hdr[4] | hdr[5] << 8);
	tx->m.src = (uint16_t)(hdr[6] | hdr[7] << 8);
	tx->m.link_len = hdr[2];
	tx->m.link_crc = (uint16_t)(hdr[8] | hdr[9] << 8);
	tx->m.th = st->d[dir].th;
	txl_add_message(&st->txs, &tx->base, dir);
	st->last_id = tx->base.id + 1;
	app_tx_count(at, &ctr, APP_CTR_TX, 1);
	if (tx->is_request && ++st->unreplied > DNP3_FLOOD_COUNT)
		tx->base.events |= 1u << DNP3_EV_FLOODED;
	return tx;
}

/* dir's fragment is whole: its transaction takes the bytes */
static void msg_done(AppLayerThread *at, Dnp3State *st, int dir)
{
	Dnp3Dir *d = &st->d[dir];
	Dnp3Tx *tx;
	uint32_t ev;

	d->active = 0;
	/* a master's confirm of an unsolicited response is no transaction,
	 * as in Suricata */
	if (dir == APP_DIR_TOSERVER && d->len >= 2 && d->buf[1] == 0) {
		d->len = 0;
		return;
	}
	if (!(tx = msg_new(at, st, dir))) {
		d->len = 0;
		return;
	}
	tx->m.buf = d->buf;
	tx->m.len = tx->m.cap = d->len;
	d->buf = NULL;
	d->len = d->cap = 0;
	ev = dnp3_decode_app(&tx->m, tx->is_request);
	tx->base.events |= ev;
	if (ev)
		app_tx_count(at, &ctr, APP_CTR_PARSER, 1);
	if (!tx->is_request && tx->m.func != DNP3_FC_UNSOLICITED && st->unreplied)
		st->unreplied--;
}

static int frag_append(Dnp3Dir *d, const uint8_t *p, uint32_t n)
{
	if (!n)                     /* a segment of its transport header only */
		return 0;
	if (d->len + n > d->cap) {
		uint32_t cap = d->cap ? d->cap : 256;
		uint8_t *b;

		while (cap < d->len + n)
			cap *= 2;
		if (!(b = realloc(d->buf, cap)))
			return -1;
		d->buf = b;
		d->cap = cap;
	}
	memcpy(d->buf + d->len, p, n);
	d->len += n;
	return 0;
}

/* One whole frame (its length checked by the caller) */
static void frame(AppLayerThread *at, Dnp3State *st, int dir, const uint8_t *fr, uint32_t flen)
{
	Dnp3Dir *d = &st->d[dir];
	uint8_t data[250];
	uint32_t n = 0, pos = DNP3_LINK_HDR_LEN;
	uint8_t ctrl = fr[3], th;

	if (!dnp3_crc_ok(fr, 8)) {
		set_event(st, DNP3_EV_BAD_LINK_CRC);
		return;
	}
	/* user data: from the primary station, confirmed or not */
	if (!(ctrl & DNP3_LC_PRI) || ((ctrl & 0xf) != 3 && (ctrl & 0xf) != 4))
		return;
	if (fr[2] < 6) {
		set_event(st, DNP3_EV_LEN_TOO_SMALL);
		return;
	}
	while (pos < flen) {
		uint32_t blk = flen - pos - 2 < DNP3_BLOCK ? flen - pos - 2 : DNP3_BLOCK;

		if (!dnp3_crc_ok(fr + pos, blk)) {
			set_event(st, DNP3_EV_BAD_TRANSPORT_CRC);
			return;
		}
		memcpy(data + n, fr + pos, blk);
		n += blk;
		pos += blk + 2;
	}
	th = data[0];
	if (th & 0x40) {            /* FIR: a new fragment, an unfinished one dropped */
		d->active = 1;
		d->len = 0;
		memcpy(d->hdr, fr, DNP3_LINK_HDR_LEN);
	}
	d->th = th;
	if (!d->active)
		return;
	if (d->len + n - 1 > DNP3_MAX_REASSEMBLY) {
		/* given up: a transaction of its first bytes carries the event */
		Dnp3Tx *tx;

		d->active = 0;
		if ((tx = msg_new(at, st, dir))) {
			uint32_t keep = d->len < 4 ? d->len : 4;

			tx->base.events |= 1u << DNP3_EV_TOO_LONG_REASSEMBLY;
			if (keep >= (tx->is_request ? 2u : 4u) && (tx->m.buf = malloc(keep))) {
				memcpy(tx->m.buf, d->buf, keep);
				tx->m.len = tx->m.cap = keep;
				dnp3_decode_app(&tx->m, tx->is_request);
				tx->m.complete = 0;
			}
		}
		d->len = 0;
		return;
	}
	if (frag_append(d, data + 1, n - 1) < 0) {
		app_tx_count(at, &ctr, APP_CTR_ALLOC, 1);
		d->active = 0;
		d->len = 0;
		return;
	}
	if (th & 0x80)              /* FIN */
		msg_done(at, st, dir);
}

/* Bytes that do not start a frame: skipped to the next 0x05 */
static uint32_t resync(const uint8_t *p, uint32_t len)
{
	const uint8_t *q = memchr(p + 1, 0x05, len - 1);

	return q ? (uint32_t)(q - p) : len;
}

static void feed(AppLayerThread *at, Dnp3State *st, int dir, const uint8_t *data, uint32_t len)
{
	Dnp3Dir *d = &st->d[dir];

	while (len) {
		uint32_t flen, take;

		if (d->held_len) {
			/* complete the held frame first */
			if (d->held_len < 3) {
				take = 3 - d->held_len < len ? 3 - d->held_len : len;
				memcpy(d->held + d->held_len, data, take);
				d->held_len += take;
				data += take;
				len -= take;
				/* a start cut short that turns out no frame: dropped */
				if (d->held_len == 3 && (d->held[1] != 0x64 || d->held[2] < 5)) {
					app_tx_count(at, &ctr, APP_CTR_PARSER, 1);
					d->held_len = 0;
				}
				continue;
			}
			flen = dnp3_frame_len(d->held[2]);
			take = flen - d->held_len < len ? flen - d->held_len : len;
			memcpy(d->held + d->held_len, data, take);
			d->held_len += take;
			data += take;
			len -= take;
			if (d->held_len == flen) {
				frame(at, st, dir, d->held, flen);
				d->held_len = 0;
			}
			continue;
		}
		if (data[0] != 0x05 || (len >= 2 && data[1] != 0x64) || (len >= 3 && data[2] < 5)) {
			uint32_t skip = resync(data, len);

			app_tx_count(at, &ctr, APP_CTR_PARSER, 1);
			data += skip;
			len -= skip;
			continue;
		}
		if (len < 3 || len < (flen = dnp3_frame_len(data[2]))) {
			memcpy(d->held, data, len);
			d->held_len = len;
			return;
		}
		frame(at, st, dir, data, flen);
		data += flen;
		len -= flen;
	}
}

static int dnp3_parse(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
		      uint32_t len, int flags)
{
	Dnp3State *st = state;

	(void)f;
	if (!st || st->detect_only || dir < 0 || dir > 1)
		return 0;
	if (flags & APP_GAP) {
		/* a message cut by the gap is over */
		app_tx_count(at, &ctr, APP_CTR_GAP, 1);
		st->d[dir].held_len = 0;
		st->d[dir].active = 0;
		st->d[dir].len = 0;
		return 0;
	}
	if (data && len)
		feed(at, st, dir, data, len);
	return 0;
}

const AppProtoOps dnp3_proto_ops = {
	.name = "dnp3",
	.ipprotos = APP_IPPROTO_TCP,
	.config_defaults = dnp3_config_defaults,
	.config_load = dnp3_config_load,
	.enabled = dnp3_enabled,
	.register_counters = dnp3_register_counters,
	.probe = dnp3_probe,
	.state_new = dnp3_state_new,
	.state_free = dnp3_state_free,
	.parse = dnp3_parse,
	TXL_TX_OPS,
	.event_lookup = dnp3_event_by_name,
	.tx_has_event = txl_op_has_event,
};
