/* BitTorrent DHT message decoding (bittorrent-dht.h), on the bencode
 * reader of bencode.h. */
#include "app-layer/bittorrent-dht.h"
#include "app-layer/bencode.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const ev_names[DHT_EV_COUNT] = {
	[DHT_EV_MALFORMED_PACKET] = "malformed_packet",
};

const char *dht_event_name(int ev)
{
	return ev >= 0 && ev < DHT_EV_COUNT ? ev_names[ev] : NULL;
}

int dht_event_by_name(const char *name)
{
	for (int i = 0; i < DHT_EV_COUNT; i++)
		if (strcasecmp(ev_names[i], name) == 0)
			return i;
	return -1;
}

static int is(const BencVal *s, const char *k)
{
	size_t n = strlen(k);

	return s->type == BENC_STR && s->len == n && memcmp(s->p, k, n) == 0;
}

static void keep(DhtBytes *d, const BencVal *v)
{
	if (v->type != BENC_STR)
		return;
	d->set = 1;
	d->len = v->len > DHT_MAX_BYTES ? DHT_MAX_BYTES : (uint8_t)v->len;
	memcpy(d->b, v->p, d->len);
}

/* compact node info: 20-byte id, then the address and port (BEP 5, 32) */
static DhtNode *nodes(const BencVal *v, int v6, uint16_t *n)
{
	uint32_t each = v6 ? 38 : 26, cnt;
	DhtNode *out;

	*n = 0;
	if (v->type != BENC_STR)
		return NULL;
	cnt = v->len / each;
	if (cnt > DHT_MAX_NODES)
		cnt = DHT_MAX_NODES;
	if (!cnt || !(out = calloc(cnt, sizeof(*out))))
		return NULL;
	for (uint32_t i = 0; i < cnt; i++) {
		const uint8_t *p = v->p + i * each;
		uint32_t al = v6 ? 16 : 4;

		memcpy(out[i].id, p, 20);
		memcpy(out[i].ip, p + 20, al);
		out[i].v6 = (uint8_t)v6;
		out[i].port = (uint16_t)(p[20 + al] << 8 | p[21 + al]);
	}
	*n = (uint16_t)cnt;
	return out;
}

/* values: a list of compact peers, 6 bytes (IPv4) or 18 (IPv6) each */
static DhtNode *values(const BencVal *l, uint16_t *n)
{
	DhtNode *out = NULL;
	uint32_t off = 0;
	BencVal x;

	*n = 0;
	if (l->type != BENC_LIST)
		return NULL;
	while (*n < DHT_MAX_NODES && benc_next(l, &off, NULL, &x) == 1) {
		DhtNode *d;

		if (x.type != BENC_STR || (x.len != 6 && x.len != 18))
			continue;
		if (!out && !(out = calloc(DHT_MAX_NODES, sizeof(*out))))
			return NULL;
		d = &out[(*n)++];
		d->v6 = x.len == 18;
		memcpy(d->ip, x.p, x.len - 2u);
		d->port = (uint16_t)(x.p[x.len - 2] << 8 | x.p[x.len - 1]);
	}
	return out;
}

static void args(DhtMsg *m, const BencVal *a)
{
	uint32_t off = 0;
	BencVal k, v;

	m->has_request = 1;
	while (benc_next(a, &off, &k, &v) == 1) {
		if (is(&k, "id"))
			keep(&m->a_id, &v);
		else if (is(&k, "target"))
			keep(&m->a_target, &v);
		else if (is(&k, "info_hash"))
			keep(&m->a_info_hash, &v);
		else if (is(&k, "token"))
			keep(&m->a_token, &v);
		else if (is(&k, "implied_port") && v.type == BENC_INT) {
			m->has_implied_port = 1;
			m->implied_port = v.i;
		} else if (is(&k, "port") && v.type == BENC_INT) {
			m->has_port = 1;
			m->port = v.i;
		}
	}
}

static void resp(DhtMsg *m, const BencVal *r)
{
	uint32_t off = 0;
	BencVal k, v;

	m->has_response = 1;
	while (benc_next(r, &off, &k, &v) == 1) {
		if (is(&k, "id")) {
			keep(&m->r_id, &v);
		} else if (is(&k, "token")) {
			keep(&m->r_token, &v);
		} else if (is(&k, "nodes") && !m->has_nodes) {
			m->has_nodes = 1;
			m->nodes = nodes(&v, 0, &m->nnodes);
		} else if (is(&k, "nodes6") && !m->has_nodes6) {
			m->has_nodes6 = 1;
			m->nodes6 = nodes(&v, 1, &m->nnodes6);
		} else if (is(&k, "values") && !m->has_values) {
			m->has_values = 1;
			m->values = values(&v, &m->nvalues);
		}
	}
}

static int error(DhtMsg *m, const BencVal *e)
{
	uint32_t off = 0;
	BencVal num, msg;

	if (e->type != BENC_LIST || benc_next(e, &off, NULL, &num) != 1 || num.type != BENC_INT ||
	    benc_next(e, &off, NULL, &msg) != 1 || msg.type != BENC_STR)
		return -1;
	m->has_error = 1;
	m->err_num = num.i;
	m->err_len = msg.len >= DHT_MAX_MSG ? DHT_MAX_MSG - 1 : (uint16_t)msg.len;
	memcpy(m->err_msg, msg.p, m->err_len);
	m->err_msg[m->err_len] = '\0';
	return 0;
}

/* the top dictionary, read whole: its "y" */
static int top(const uint8_t *buf, uint32_t len, BencVal *d, BencVal *y)
{
	uint32_t off = 0;

	if (!len || buf[0] != 'd' || benc_read(buf, len, &off, d) < 0 || d->type != BENC_DICT)
		return -1;
	if (benc_dict_get(d, "y", y) != 1 || y->type != BENC_STR || y->len != 1 ||
	    (y->p[0] != 'q' && y->p[0] != 'r' && y->p[0] != 'e'))
		return -1;
	return 0;
}

int dht_looks(const uint8_t *buf, uint32_t len)
{
	BencVal d, y;

	return top(buf, len, &d, &y) == 0;
}

int dht_msg_decode(const uint8_t *buf, uint32_t len, DhtMsg *m)
{
	BencVal d, y, k, v;
	uint32_t off = 0;
	int bad = 0;

	memset(m, 0, sizeof(*m));
	if (top(buf, len, &d, &y) < 0)
		return -1;
	while (benc_next(&d, &off, &k, &v) == 1) {
		if (is(&k, "t")) {
			keep(&m->tid, &v);
		} else if (is(&k, "v")) {
			keep(&m->version, &v);
		} else if (is(&k, "q") && v.type == BENC_STR) {
			size_t n = v.len < sizeof(m->request_type) ? v.len : sizeof(m->request_type) - 1;

			memcpy(m->request_type, v.p, n);
			m->request_type[n] = '\0';
		} else if (is(&k, "a") && v.type == BENC_DICT) {
			args(m, &v);
		} else if (is(&k, "r") && v.type == BENC_DICT) {
			resp(m, &v);
		} else if (is(&k, "e")) {
			bad |= error(m, &v) < 0;
		}
	}
	/* what the message's type promises is there */
	if (!m->tid.set || (y.p[0] == 'q' && (!m->request_type[0] || !m->has_request)) ||
	    (y.p[0] == 'r' && !m->has_response) || (y.p[0] == 'e' && !m->has_error))
		bad = 1;
	return bad ? 1 : 0;
}

void dht_msg_free(DhtMsg *m)
{
	free(m->nodes);
	free(m->nodes6);
	free(m->values);
	memset(m, 0, sizeof(*m));
}
