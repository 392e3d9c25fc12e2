/* WebSocket frames on a stream (websocket.h): the header (2 to 14 bytes),
 * then the payload, unmasked as it comes into a buffer of at most
 * max-payload-size bytes; the rest of a longer payload is skipped without
 * being kept. Each frame is a transaction once its last byte went by. */
#include "app-layer/websocket.h"
#include "app-layer/app-layer.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

static const char *const event_names[WS_EV_COUNT] = {
	"skip_end_of_payload",
	"reassembly_limit_reached",
};

const char *ws_event_name(int ev)
{
	return ev >= 0 && ev < WS_EV_COUNT ? event_names[ev] : NULL;
}

int ws_event_by_name(const char *name)
{
	for (int i = 0; i < WS_EV_COUNT; i++)
		if (strcasecmp(name, event_names[i]) == 0)
			return i;
	return -1;
}

static const struct {
	uint8_t op;
	const char *name;
} opcodes[] = {
	{ WS_OP_CONTINUATION, "continuation" },
	{ WS_OP_TEXT, "text" },
	{ WS_OP_BINARY, "binary" },
	{ WS_OP_CLOSE, "connection_close" },
	{ WS_OP_PING, "ping" },
	{ WS_OP_PONG, "pong" },
};

const char *ws_opcode_name(unsigned op)
{
	for (size_t i = 0; i < sizeof(opcodes) / sizeof(opcodes[0]); i++)
		if (opcodes[i].op == op)
			return opcodes[i].name;
	return NULL;
}

int ws_opcode_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof(opcodes) / sizeof(opcodes[0]); i++)
		if (strcasecmp(opcodes[i].name, name) == 0)
			return opcodes[i].op;
	/* RFC 6455's own word for it */
	if (strcasecmp(name, "close") == 0)
		return WS_OP_CLOSE;
	return -1;
}

static void tx_free(AppTx *t)
{
	WsTx *tx = (WsTx *)t;

	free(tx->payload);
	free(tx);
}

static void deflate_defaults(WsDeflateParams *p)
{
	memset(p, 0, sizeof(*p));
	p->wbits[0] = p->wbits[1] = 15;
}

void ws_conn_init(WsConn *c, uint32_t max_payload, uint64_t max_tx)
{
	memset(c, 0, sizeof(*c));
	txl_init(&c->txs, ALPROTO_WEBSOCKET, tx_free);
	c->max_payload = max_payload;
	c->max_tx = max_tx ? max_tx : 1;
	deflate_defaults(&c->deflate);
}

void ws_conn_free(WsConn *c)
{
	txl_free(&c->txs);
	for (int d = 0; d < 2; d++) {
		free(c->d[d].buf);
		free(c->d[d].msg);
		if (c->z[d].zs) {
			inflateEnd(c->z[d].zs);
			free(c->z[d].zs);
		}
	}
	memset(c, 0, sizeof(*c));
}

void ws_conn_set_deflate(WsConn *c, const WsDeflateParams *p)
{
	c->deflate = *p;
}

/* One "name[=value]" of an extension's parameters, blanks trimmed. */
static int param_is(const char *s, size_t n, const char *name)
{
	return strlen(name) == n && strncasecmp(s, name, n) == 0;
}

static uint8_t window_bits(const char *v, size_t n)
{
	unsigned b = 0;

	if (n && v[0] == '"' && n >= 2 && v[n - 1] == '"') {
		v++;
		n -= 2;
	}
	if (!n || n > 2)
		return 15;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)v[i]))
			return 15;
		b = b * 10 + (unsigned)(v[i] - '0');
	}
	/* RFC 7692 7.1.2: 8 to 15; anything else is not an agreement we can
	 * hold the peer to, so the widest window reads it all */
	return b >= 8 && b <= 15 ? (uint8_t)b : 15;
}

int ws_deflate_params_parse(const char *v, size_t len, WsDeflateParams *p)
{
	size_t i = 0;

	deflate_defaults(p);
	/* extensions are separated by ',', their parameters by ';' (RFC 6455
	 * 9.1); the server names the one it accepted */
	while (i < len) {
		size_t ext_end = i, j;
		int first = 1, is_pmd = 0;

		while (ext_end < len && v[ext_end] != ',')
			ext_end++;
		for (j = i; j < ext_end;) {
			size_t e = j, k, vs, ve;

			while (e < ext_end && v[e] != ';')
				e++;
			k = j;
			while (k < e && (v[k] == ' ' || v[k] == '\t'))
				k++;
			ve = e;
			while (ve > k && (v[ve - 1] == ' ' || v[ve - 1] == '\t'))
				ve--;
			/* name up to '=' */
			vs = k;
			while (vs < ve && v[vs] != '=')
				vs++;
			{
				size_t ne = vs;

				while (ne > k && (v[ne - 1] == ' ' || v[ne - 1] == '\t'))
					ne--;
				if (vs < ve)
					vs++;
				while (vs < ve && (v[vs] == ' ' || v[vs] == '\t'))
					vs++;
				if (first) {
					is_pmd = param_is(v + k, ne - k, "permessage-deflate");
					first = 0;
				} else if (is_pmd) {
					if (param_is(v + k, ne - k, "server_no_context_takeover"))
						p->no_takeover[APP_DIR_TOCLIENT] = 1;
					else if (param_is(v + k, ne - k, "client_no_context_takeover"))
						p->no_takeover[APP_DIR_TOSERVER] = 1;
					else if (param_is(v + k, ne - k, "server_max_window_bits"))
						p->wbits[APP_DIR_TOCLIENT] = window_bits(v + vs, ve - vs);
					else if (param_is(v + k, ne - k, "client_max_window_bits"))
						p->wbits[APP_DIR_TOSERVER] = window_bits(v + vs, ve - vs);
				}
			}
			j = e + 1;
		}
		if (is_pmd) {
			p->agreed = 1;
			return 1;
		}
		i = ext_end + 1;
	}
	deflate_defaults(p);
	return 0;
}

/* Inflates a compressed message's payload (RFC 7692 7.2.2: the sender cut
 * the 00 00 ff ff tail of its sync flush off; it is put back) into at most
 * max_payload bytes; the payload becomes the inflated data when there is
 * some, as Suricata 8 gives it. */
static void inflate_message(WsConn *c, int dir, WsTx *tx)
{
	static const uint8_t tail[4] = { 0, 0, 0xff, 0xff };
	WsInflate *w = &c->z[dir];
	z_stream *zs = w->zs;
	uint8_t *out = NULL;
	uint32_t cap = 0, olen = 0;
	int r = Z_OK, capped = 0;

	if (!c->max_payload)
		return;
	if (!zs) {
		zs = calloc(1, sizeof(*zs));
		if (!zs || inflateInit2(zs, -(int)c->deflate.wbits[dir]) != Z_OK) {
			free(zs);
			c->nalloc++;
			return;
		}
		w->zs = zs;
	} else if (w->restart || c->deflate.no_takeover[dir]) {
		inflateReset(zs);
	}
	w->restart = 0;
	for (int part = 0; part < 2 && !capped; part++) {
		zs->next_in = part ? (Bytef *)tail : tx->payload;
		zs->avail_in = part ? sizeof(tail) : tx->plen;
		for (;;) {
			if (olen == cap) {
				uint32_t ncap;
				uint8_t *b;

				if (cap == c->max_payload) {
					/* full: one more byte out means the message
					 * is longer than we keep */
					uint8_t probe;

					zs->next_out = &probe;
					zs->avail_out = 1;
					r = inflate(zs, Z_SYNC_FLUSH);
					if (zs->avail_out == 0)
						capped = 1;
					break;
				}
				ncap = cap ? cap * 2 : (tx->plen < 1024 ? 4096 : tx->plen * 4);
				if (ncap > c->max_payload || ncap < cap)
					ncap = c->max_payload;
				b = realloc(out, ncap);
				if (!b) {
					c->nalloc++;
					free(out);
					w->restart = 1;
					return;
				}
				out = b;
				cap = ncap;
			}
			zs->next_out = out + olen;
			zs->avail_out = cap - olen;
			r = inflate(zs, Z_SYNC_FLUSH);
			olen = cap - zs->avail_out;
			if (r != Z_OK || (zs->avail_in == 0 && zs->avail_out))
				break;
		}
		if (r != Z_OK && r != Z_BUF_ERROR)
			break;
	}
	/* a final block, bad data, or a message cut: the window we hold is
	 * not the sender's any more */
	if (r != Z_OK && r != Z_BUF_ERROR)
		w->restart = 1;
	if (capped) {
		/* Suricata's event for a message past max-payload-size; no
		 * counter of its own, which eve's stats would not know */
		w->restart = 1;
		c->ninflate_capped++;
		tx->base.events |= 1u << WS_EV_REASSEMBLY_LIMIT_REACHED;
	}
	if (!olen) {
		free(out);
		return;
	}
	free(tx->payload);
	tx->payload = out;
	tx->plen = olen;
}

/* The header's length once its first two bytes are known. */
static uint8_t header_len(const uint8_t *h)
{
	uint8_t n = 2;

	if ((h[1] & 0x7f) == 126)
		n += 2;
	else if ((h[1] & 0x7f) == 127)
		n += 8;
	if (h[1] & 0x80)
		n += 4;
	return n;
}

static uint64_t payload_len(const uint8_t *h)
{
	uint64_t n = h[1] & 0x7f;

	if (n == 126)
		return (uint64_t)h[2] << 8 | h[3];
	if (n == 127) {
		n = 0;
		for (int i = 0; i < 8; i++)
			n = n << 8 | h[2 + i];
	}
	return n;
}

static uint32_t mask_of(const uint8_t *h)
{
	uint8_t at = header_len(h) - 4;

	return (uint32_t)h[at] << 24 | (uint32_t)h[at + 1] << 16 | (uint32_t)h[at + 2] << 8 |
	       h[at + 3];
}

/* Appends n bytes to a bounded buffer: how many fitted. */
static uint32_t append(WsConn *c, uint8_t **buf, uint32_t *len, const uint8_t *p, uint32_t n)
{
	uint32_t room = c->max_payload > *len ? c->max_payload - *len : 0;
	uint8_t *b;

	if (n > room)
		n = room;
	if (!n)
		return 0;
	b = realloc(*buf, (size_t)*len + n);
	if (!b) {
		c->nalloc++;
		return 0;
	}
	memcpy(b + *len, p, n);
	*buf = b;
	*len += n;
	return n;
}

/* The frame is over: its transaction. */
static void frame_done(WsConn *c, int dir)
{
	WsDir *d = &c->d[dir];
	const uint8_t *h = d->hdr;
	uint8_t op = h[0] & 0x0f, fin = h[0] & 0x80;
	WsTx *tx = calloc(1, sizeof(*tx));
	int comp = 0;

	if (!tx) {
		c->nalloc++;
		free(d->buf);
		d->buf = NULL;
		d->blen = 0;
		return;
	}
	tx->dir = (uint8_t)dir;
	tx->flags = h[0] & 0xf0;
	tx->opcode = op;
	tx->masked = (h[1] & 0x80) != 0;
	if (tx->masked)
		tx->mask = mask_of(h);
	tx->base.events = d->events;
	/* a data message in fragments: its last frame carries it whole */
	if (op < 8) {
		if (op != WS_OP_CONTINUATION)
			comp = (h[0] & WS_FLAG_COMP) != 0;
		else if (d->in_msg)
			comp = c->msg_comp[dir];
		if (!fin && op != WS_OP_CONTINUATION)
			c->msg_comp[dir] = comp;
		if (!fin || (op == WS_OP_CONTINUATION && d->in_msg)) {
			if (d->mlen + d->blen > c->max_payload && !d->msg_over) {
				d->msg_over = 1;
				tx->base.events |= 1u << WS_EV_REASSEMBLY_LIMIT_REACHED;
			}
			append(c, &d->msg, &d->mlen, d->buf, d->blen);
		}
		if (!fin) {
			d->in_msg = 1;
		} else if (op == WS_OP_CONTINUATION && d->in_msg) {
			free(d->buf);
			d->buf = d->msg;
			d->blen = d->mlen;
			d->msg = NULL;
			d->mlen = 0;
			d->in_msg = d->msg_over = 0;
		}
	}
	tx->payload = d->buf;
	tx->plen = d->blen;
	d->buf = NULL;
	d->blen = 0;
	/* the message is whole at its FIN frame: inflated then */
	if (comp && fin)
		inflate_message(c, dir, tx);
	if (c->txs.live >= c->max_tx)
		txl_close_all(&c->txs);
	tx->base.done[0] = tx->base.done[1] = 1;
	tx->base.some[dir] = 1;
	tx->base.flags |= dir == APP_DIR_TOSERVER ? APP_TX_ONLY_TS : APP_TX_ONLY_TC;
	txl_add(&c->txs, &tx->base);
	txl_charge(&c->txs, &tx->base, tx->plen);
	c->ntx++;
}

void ws_conn_feed(WsConn *c, int dir, const uint8_t *data, uint32_t len)
{
	WsDir *d;

	if (dir < 0 || dir > 1 || c->stopped[dir])
		return;
	d = &c->d[dir];
	while (len) {
		if (!d->in_payload) {
			uint32_t take;

			if (d->hlen < 2) {
				d->hdr[d->hlen++] = *data++;
				len--;
				c->off[dir]++;
				if (d->hlen < 2)
					continue;
				d->need = header_len(d->hdr);
			}
			take = d->need - d->hlen < len ? d->need - d->hlen : len;
			memcpy(d->hdr + d->hlen, data, take);
			d->hlen += (uint8_t)take;
			data += take;
			len -= take;
			c->off[dir] += take;
			if (d->hlen < d->need)
				return;
			d->left = payload_len(d->hdr);
			d->seen = 0;
			d->events = 0;
			d->in_payload = 1;
			if (c->on_frame)
				c->on_frame(c->arg, dir, c->off[dir] - d->hlen, d->hlen, d->left);
		}
		if (d->left) {
			uint32_t take = d->left < len ? (uint32_t)d->left : len;
			uint32_t keep = 0;

			if (d->blen < c->max_payload) {
				uint32_t start = d->blen;

				keep = append(c, &d->buf, &d->blen, data, take);
				/* unmasked as it is kept: the key's phase is the
				 * payload offset */
				if (d->hdr[1] & 0x80) {
					const uint8_t *k = d->hdr + d->hlen - 4;

					for (uint32_t i = 0; i < keep; i++)
						d->buf[start + i] ^= k[(d->seen + i) & 3];
				}
			}
			if (keep < take)
				d->events |= 1u << WS_EV_SKIP_END_OF_PAYLOAD;
			d->seen += take;
			d->left -= take;
			data += take;
			len -= take;
			c->off[dir] += take;
			if (d->left)
				return;
		}
		frame_done(c, dir);
		d->in_payload = 0;
		d->hlen = 0;
	}
}

void ws_conn_gap(WsConn *c, int dir)
{
	if (dir < 0 || dir > 1)
		return;
	/* frame boundaries are lost with the bytes */
	c->stopped[dir] = 1;
	free(c->d[dir].buf);
	c->d[dir].buf = NULL;
	c->d[dir].blen = 0;
}
