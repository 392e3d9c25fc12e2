/* PostgreSQL's messages on a stream, and the transactions they make
 * (pgsql.h). Framing: a typed message is a type byte and a 4-byte length
 * that counts itself; the client's first messages (startup, SSL, GSSENC,
 * cancel) have no type byte; the server answers an SSL or GSSENC request
 * with one byte. A message is handed whole from the caller's bytes when it
 * is there; one cut across calls is copied, at most PG_KEEP_MAX bytes of it
 * (a longer data row or copy chunk is counted from its length, the rest
 * of it skipped). */
#include "app-layer/pgsql.h"
#include "app-layer/app-layer.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PG_SSL_CODE 80877103u
#define PG_GSSENC_CODE 80877104u
#define PG_CANCEL_CODE 80877102u
/* the server's own limit on a startup packet */
#define PG_STARTUP_MAX 10000u
/* message bytes a flow keeps in its live transactions: past it they are
 * closed (logged, inspected, freed) before more is kept */
#define PG_FLOW_MEM_MAX (16u << 20)

static const char *const event_names[PG_EV_COUNT] = {
	"too_many_transactions", "malformed_request", "malformed_response", "invalid_length",
};

const char *pgsql_event_name(int ev)
{
	return ev >= 0 && ev < PG_EV_COUNT ? event_names[ev] : NULL;
}

int pgsql_event_by_name(const char *name)
{
	for (int i = 0; i < PG_EV_COUNT; i++)
		if (strcasecmp(name, event_names[i]) == 0)
			return i;
	return -1;
}

/* Suricata's names of the parameters it knows; matched without case, since
 * clients write "datestyle" as well as "DateStyle" */
static const struct {
	const char *wire, *eve;
} params[] = {
	{ "user", "user" },
	{ "database", "database" },
	{ "options", "options" },
	{ "replication", "replication" },
	{ "application_name", "application_name" },
	{ "client_encoding", "client_encoding" },
	{ "datestyle", "date_style" },
	{ "timezone", "time_zone" },
	{ "intervalstyle", "interval_style" },
	{ "integer_datetimes", "integer_datetimes" },
	{ "is_superuser", "is_superuser" },
	{ "server_encoding", "server_encoding" },
	{ "server_version", "server_version" },
	{ "session_authorization", "session_authorization" },
	{ "standard_conforming_strings", "standard_conforming_strings" },
	{ "default_transaction_read_only", "default_transaction_read_only" },
	{ "in_hot_standby", "in_hot_standby" },
};

const char *pgsql_param_name(const uint8_t *name, uint32_t len)
{
	for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++)
		if (strlen(params[i].wire) == len &&
		    strncasecmp(params[i].wire, (const char *)name, len) == 0)
			return params[i].eve;
	return NULL;
}

const char *pgsql_error_field_name(uint8_t type)
{
	switch (type) {
	case 'S':
		return "severity_localizable";
	case 'V':
		return "severity_non_localizable";
	case 'C':
		return "code";
	case 'M':
		return "message";
	case 'D':
		return "detail";
	case 'H':
		return "hint";
	case 'P':
		return "position";
	case 'p':
		return "internal_position";
	case 'q':
		return "internal_query";
	case 'W':
		return "where";
	case 's':
		return "schema_name";
	case 't':
		return "table_name";
	case 'c':
		return "column_name";
	case 'd':
		return "data_type_name";
	case 'n':
		return "constraint_name";
	case 'F':
		return "file";
	case 'L':
		return "line";
	case 'R':
		return "routine";
	}
	return NULL;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* ---------------- detection ---------------- */

int pgsql_probe_ts(const uint8_t *buf, uint32_t len)
{
	uint32_t mlen, code;

	/* an untyped message: its length's high byte is 0 */
	if (len && buf[0] != 0)
		return -1;
	if (len < 8)
		return 0;
	mlen = be32(buf);
	code = be32(buf + 4);
	if (code == PG_SSL_CODE || code == PG_GSSENC_CODE)
		return mlen == 8 ? 1 : -1;
	if (code == PG_CANCEL_CODE)
		return mlen == 16 ? 1 : -1;
	/* a StartupMessage 3.x: parameters, then its NUL */
	if ((code >> 16) == 3 && mlen > 8 && mlen <= PG_STARTUP_MAX)
		return 1;
	return -1;
}

int pgsql_probe_tc(const uint8_t *buf, uint32_t len)
{
	uint32_t mlen;

	if (!len)
		return 0;
	/* the one-byte answer to an SSL request is told by the request side;
	 * alone, only a whole message is taken: an authentication request or
	 * an ErrorResponse */
	if (buf[0] != 'R' && buf[0] != 'E')
		return -1;
	if (len < 5)
		return 0;
	mlen = be32(buf + 1);
	if (buf[0] == 'R') {
		if (mlen < 8 || mlen > 2048)
			return -1;
		if (len < 9)
			return 0;
		return be32(buf + 5) <= 12 ? 1 : -1;
	}
	if (mlen < 5 || mlen > 8192)
		return -1;
	/* an error's fields start with a known field type */
	return len < 6 ? 0 : (buf[5] == 'S' || buf[5] == 'V') ? 1 : -1;
}

/* ---------------- transactions ---------------- */

static void tx_free(AppTx *t)
{
	PgsqlTx *tx = (PgsqlTx *)t;

	free(tx->rq);
	for (uint32_t i = 0; i < tx->nitems; i++)
		free(tx->items[i].data);
	free(tx->items);
	free(tx);
}

void pgsql_conn_init(PgsqlConn *c, uint64_t max_tx)
{
	memset(c, 0, sizeof(*c));
	txl_init(&c->txs, ALPROTO_PGSQL, tx_free);
	c->max_tx = max_tx ? max_tx : 1;
}

void pgsql_conn_free(PgsqlConn *c)
{
	txl_free(&c->txs);
	for (int d = 0; d < 2; d++) {
		free(c->fr[d].buf);
		free(c->held[d]);
	}
	memset(c, 0, sizeof(*c));
}

/* A new transaction; past max-tx the live ones are closed first. */
static PgsqlTx *tx_new(PgsqlConn *c, uint8_t req)
{
	PgsqlTx *tx = calloc(1, sizeof(*tx));

	if (!tx) {
		c->nalloc++;
		return NULL;
	}
	if (c->txs.live >= c->max_tx) {
		txl_close_all(&c->txs);
		tx->base.events |= 1u << PG_EV_TOO_MANY_TRANSACTIONS;
	}
	if (c->txs.mem > PG_FLOW_MEM_MAX)
		txl_close_all(&c->txs);
	tx->req = req;
	txl_add(&c->txs, &tx->base);
	c->ntx++;
	return tx;
}

/* A request's transaction: it is the whole request side. */
static PgsqlTx *req_tx(PgsqlConn *c, uint8_t req, const uint8_t *p, uint32_t n)
{
	PgsqlTx *tx = tx_new(c, req);

	if (!tx)
		return NULL;
	tx->base.done[0] = 1;
	tx->base.some[0] = 1;
	if (n) {
		tx->rq = malloc(n);
		if (!tx->rq) {
			c->nalloc++;
			return tx;
		}
		memcpy(tx->rq, p, n);
		tx->rq_len = n;
		txl_charge(&c->txs, &tx->base, n);
	}
	return tx;
}

/* The transaction the server's next message answers: the oldest one not
 * answered. With none, a flow's first message (midstream) opens one; a
 * later one answers nothing Suricata 8 makes a transaction of (an extended
 * query, an asynchronous notification) and is dropped, as there: NULL. */
static PgsqlTx *resp_tx(PgsqlConn *c)
{
	PgsqlTx *tx;

	for (AppTx *t = c->txs.head; t; t = t->next)
		if (!t->done[1])
			return (PgsqlTx *)t;
	if (c->txs.next_id)
		return NULL;
	tx = tx_new(c, PG_REQ_NONE);
	if (tx)
		tx->base.done[0] = 1;
	return tx;
}

static void event(PgsqlConn *c, PgsqlTx *tx, int ev)
{
	c->nerr++;
	if (!tx)
		tx = (PgsqlTx *)c->txs.tail;
	if (!tx) {
		tx = tx_new(c, PG_REQ_NONE);
		if (!tx)
			return;
		tx->base.done[0] = tx->base.done[1] = 1;
	}
	tx->base.events |= 1u << ev;
}

static PgsqlItem *item_add(PgsqlConn *c, PgsqlTx *tx, uint8_t type, const uint8_t *p, uint32_t n)
{
	PgsqlItem *it;

	if (tx->nitems == tx->cap) {
		uint32_t cap = tx->cap ? tx->cap * 2 : 8;
		PgsqlItem *a;

		/* a flood of notices: what is kept is bounded, the rest dropped */
		if (tx->nitems >= PG_MAX_ITEMS)
			return NULL;
		a = realloc(tx->items, cap * sizeof(*a));
		if (!a) {
			c->nalloc++;
			return NULL;
		}
		tx->items = a;
		tx->cap = cap;
	}
	it = &tx->items[tx->nitems];
	memset(it, 0, sizeof(*it));
	it->type = type;
	if (n) {
		it->data = malloc(n);
		if (!it->data) {
			c->nalloc++;
			return NULL;
		}
		memcpy(it->data, p, n);
		it->len = n;
		txl_charge(&c->txs, &tx->base, n);
	}
	tx->nitems++;
	tx->base.some[1] = 1;
	return it;
}

/* ---------------- frontend messages ---------------- */

/* A message's string body without its NUL (a missing NUL is tolerated). */
static uint32_t cstr_len(const uint8_t *p, uint32_t n)
{
	const uint8_t *z = memchr(p, 0, n);

	return z ? (uint32_t)(z - p) : n;
}

static void fe_untyped(PgsqlConn *c, const uint8_t *p, uint32_t n, uint32_t full)
{
	uint32_t code;
	PgsqlTx *tx;

	if (n < 4 || n != full) {
		event(c, NULL, PG_EV_MALFORMED_REQUEST);
		return;
	}
	code = be32(p);
	if (code == PG_SSL_CODE || code == PG_GSSENC_CODE) {
		req_tx(c, code == PG_SSL_CODE ? PG_REQ_SSL : PG_REQ_GSSENC, NULL, 0);
		c->ssl_wait = 1;
		return;
	}
	if (code == PG_CANCEL_CODE) {
		if (n != 12) {
			event(c, NULL, PG_EV_MALFORMED_REQUEST);
			return;
		}
		tx = req_tx(c, PG_REQ_CANCEL, NULL, 0);
		if (tx) {
			tx->pid = be32(p + 4);
			tx->key = be32(p + 8);
			/* no answer comes to a cancel request */
			tx->base.done[1] = 1;
		}
		return;
	}
	if ((code >> 16) != 3) {
		event(c, NULL, PG_EV_MALFORMED_REQUEST);
		return;
	}
	tx = req_tx(c, PG_REQ_STARTUP, p + 4, n - 4);
	if (tx) {
		tx->proto_major = (uint16_t)(code >> 16);
		tx->proto_minor = (uint16_t)code;
	}
	c->startup_seen = 1;
}

static void fe_typed(PgsqlConn *c, uint8_t type, const uint8_t *p, uint32_t n, uint32_t full)
{
	PgsqlTx *tx;

	switch (type) {
	case 'p':
		if (c->sasl == 1) {
			/* SASLInitialResponse: mechanism NUL, int32 length, data */
			uint32_t ml = cstr_len(p, n);

			if (ml + 5 > n) {
				event(c, NULL, PG_EV_MALFORMED_REQUEST);
				return;
			}
			tx = req_tx(c, PG_REQ_SASL_INITIAL, NULL, 0);
			if (!tx)
				return;
			/* kept as: mechanism NUL data */
			tx->rq = malloc(n - 4);
			if (!tx->rq) {
				c->nalloc++;
				return;
			}
			memcpy(tx->rq, p, ml + 1);
			memcpy(tx->rq + ml + 1, p + ml + 5, n - ml - 5);
			tx->rq_len = n - 4;
			tx->rq_mech_len = ml;
			txl_charge(&c->txs, &tx->base, n);
			return;
		}
		req_tx(c, c->sasl == 2 ? PG_REQ_SASL_RESPONSE : PG_REQ_PASSWORD, p,
		       c->sasl == 2 ? n : cstr_len(p, n));
		return;
	case 'Q':
		req_tx(c, PG_REQ_QUERY, p, cstr_len(p, n));
		return;
	case 'X':
		tx = req_tx(c, PG_REQ_TERMINATE, NULL, 0);
		if (tx)
			tx->base.done[1] = 1;
		return;
	case 'd':
	case 'c':
	case 'f':
		/* CopyIn: the data goes with the query that asked for it */
		tx = (PgsqlTx *)c->txs.tail;
		if (!tx)
			return;
		if (type == 'd') {
			tx->copy_in_msgs++;
			tx->copy_in_size += full;
		}
		return;
	case 'P':
	case 'B':
	case 'D':
	case 'E':
	case 'C':
	case 'H':
	case 'S':
	case 'F':
		/* an extended query (or a function call): framed and passed
		 * over, no transaction, as Suricata 8 (suricata-verify
		 * pgsql-5524: the Terminate after four of them is tx 2) */
		return;
	}
	event(c, NULL, PG_EV_MALFORMED_REQUEST);
}

/* ---------------- backend messages ---------------- */

/* The severity of an error's fields is FATAL or PANIC: the server closes. */
static int error_fatal(const uint8_t *p, uint32_t n)
{
	uint32_t i = 0;

	while (i < n && p[i]) {
		uint8_t t = p[i++];
		uint32_t l = cstr_len(p + i, n - i);

		if ((t == 'S' || t == 'V') && ((l == 5 && memcmp(p + i, "FATAL", 5) == 0) ||
					       (l == 5 && memcmp(p + i, "PANIC", 5) == 0)))
			return 1;
		i += l + 1;
	}
	return 0;
}

static int known_be(uint8_t t)
{
	return t && strchr("RSCAKZTDENGHWdcI123nstvV", t) != NULL;
}

static void be_typed(PgsqlConn *c, uint8_t type, const uint8_t *p, uint32_t n, uint32_t full)
{
	PgsqlTx *tx;
	PgsqlItem *it;

	if (!known_be(type)) {
		event(c, NULL, PG_EV_MALFORMED_RESPONSE);
		return;
	}
	tx = resp_tx(c);
	if (!tx)
		return;
	switch (type) {
	case 'R': {
		uint32_t code;

		if (n < 4) {
			event(c, tx, PG_EV_MALFORMED_RESPONSE);
			return;
		}
		code = be32(p);
		it = item_add(c, tx, PG_IT_AUTH, p + 4, n - 4);
		if (it)
			it->num[0] = code;
		if (code == 10)
			c->sasl = 1;
		else if (code == 11)
			c->sasl = 2;
		else if (code != 12)
			c->sasl = 0;
		/* the server waits for the client after these */
		if (code != 0 && code != 12)
			tx->base.done[1] = 1;
		return;
	}
	case 'S':
	case 'C':
	case 'A':
		item_add(c, tx, type == 'S' ? PG_IT_PARAM : type == 'C' ? PG_IT_COMMAND : PG_IT_NOTIFY,
			 p, n);
		if (type == 'A' && n >= 4 && tx->nitems)
			tx->items[tx->nitems - 1].num[0] = be32(p);
		return;
	case 'K':
		if (n < 8) {
			event(c, tx, PG_EV_MALFORMED_RESPONSE);
			return;
		}
		it = item_add(c, tx, PG_IT_KEYDATA, NULL, 0);
		if (it) {
			it->num[0] = be32(p);
			it->num[1] = be32(p + 4);
		}
		return;
	case 'Z':
		tx->base.some[1] = 1;
		tx->base.done[1] = 1;
		return;
	case 'T':
		if (n < 2) {
			event(c, tx, PG_EV_MALFORMED_RESPONSE);
			return;
		}
		it = item_add(c, tx, PG_IT_ROWDESC, NULL, 0);
		if (it)
			it->num[0] = be16(p);
		return;
	case 'D': {
		/* a row's value bytes: the body less the column count and each
		 * column's length word (the values of a cut row are not kept) */
		uint32_t cols;

		if (n < 2) {
			event(c, tx, PG_EV_MALFORMED_RESPONSE);
			return;
		}
		cols = be16(p);
		if ((uint64_t)cols * 4 + 2 > full) {
			event(c, tx, PG_EV_MALFORMED_RESPONSE);
			return;
		}
		tx->rows++;
		tx->data_size += full - 2 - cols * 4;
		tx->base.some[1] = 1;
		return;
	}
	case 'E':
	case 'N':
		item_add(c, tx, type == 'E' ? PG_IT_ERROR : PG_IT_NOTICE, p, n);
		if (type == 'E' && error_fatal(p, n))
			tx->base.done[1] = 1;
		return;
	case 'G':
	case 'H':
	case 'W':
		if (n < 3) {
			event(c, tx, PG_EV_MALFORMED_RESPONSE);
			return;
		}
		it = item_add(c, tx, type == 'G' ? PG_IT_COPY_IN : PG_IT_COPY_OUT, NULL, 0);
		if (it)
			it->num[0] = be16(p + 1);
		return;
	case 'd':
		tx->copy_out_rows++;
		tx->copy_out_size += full;
		tx->base.some[1] = 1;
		return;
	case 'c':
	case 'I':
	case '1':
	case '2':
	case '3':
	case 'n':
	case 's':
	case 't':
	case 'V':
	case 'v':
		/* nothing eve shows */
		tx->base.some[1] = 1;
		return;
	}
	event(c, tx, PG_EV_MALFORMED_RESPONSE);
}

/* The server's one-byte answer to an SSL or GSSENC request. */
static void be_ssl_answer(PgsqlConn *c, uint8_t b)
{
	PgsqlTx *tx = resp_tx(c);
	PgsqlItem *it;

	c->ssl_wait = 0;
	if (b == 'G')
		c->stopped[0] = c->stopped[1] = 1;
	if (!tx)
		return;
	it = item_add(c, tx, PG_IT_SSL, NULL, 0);
	if (it)
		it->num[0] = b != 'N';
	tx->base.done[1] = 1;
	if (b == 'S') {
		c->to_tls = 1;
	} else if (b == 'G') {
		/* GSSAPI encryption: nothing readable follows */
		c->stopped[0] = c->stopped[1] = 1;
	}
}

/* ---------------- framing ---------------- */

static void deliver(PgsqlConn *c, int dir, PgsqlFramer *fr, const uint8_t *p, uint32_t n)
{
	if (dir == 0) {
		if (fr->typed)
			fe_typed(c, fr->type, p, n, fr->body);
		else
			fe_untyped(c, p, n, fr->body);
	} else {
		be_typed(c, fr->type, p, n, fr->body);
	}
}

static void hold(PgsqlConn *c, int dir, const uint8_t *data, uint32_t len)
{
	uint8_t *n;

	/* bounded: the TLS parser needs its first records, not more */
	if (!len || c->held_len[dir] + len > PG_KEEP_MAX)
		return;
	n = realloc(c->held[dir], c->held_len[dir] + len);
	if (!n) {
		c->nalloc++;
		return;
	}
	memcpy(n + c->held_len[dir], data, len);
	c->held[dir] = n;
	c->held_len[dir] += len;
}

static int give_up(PgsqlConn *c, int dir, int ev)
{
	event(c, NULL, ev);
	c->stopped[dir] = 1;
	c->fr[dir].hlen = c->fr[dir].in_body = 0;
	c->fr[dir].blen = 0;
	return -1;
}

int pgsql_conn_feed(PgsqlConn *c, int dir, const uint8_t *data, uint32_t len)
{
	PgsqlFramer *fr;

	if (dir < 0 || dir > 1)
		return 0;
	fr = &c->fr[dir];
	if (c->to_tls) {
		hold(c, dir, data, len);
		return 0;
	}
	while (len && !c->stopped[dir]) {
		if (!fr->in_body) {
			uint32_t need, mlen, take;

			if (fr->hlen == 0) {
				if (dir == 1 && c->ssl_wait &&
				    (data[0] == 'S' || data[0] == 'N' || data[0] == 'G')) {
					be_ssl_answer(c, data[0]);
					data++;
					len--;
					if (c->to_tls) {
						hold(c, dir, data, len);
						return 0;
					}
					continue;
				}
				/* a client's untyped message: only before its
				 * startup, and its length's high byte is 0 */
				fr->typed = !(dir == 0 && !c->startup_seen && data[0] == 0);
				if (dir == 1)
					c->ssl_wait = 0;
			}
			need = fr->typed ? 5 : 4;
			take = need - fr->hlen < len ? need - fr->hlen : len;
			memcpy(fr->hdr + fr->hlen, data, take);
			fr->hlen += (uint8_t)take;
			data += take;
			len -= take;
			if (fr->hlen < need)
				return 0;
			mlen = be32(fr->hdr + (fr->typed ? 1 : 0));
			fr->type = fr->typed ? fr->hdr[0] : 0;
			fr->hlen = 0;
			if (mlen < 4 || (!fr->typed && mlen > PG_STARTUP_MAX))
				return give_up(c, dir, PG_EV_INVALID_LENGTH);
			fr->body = mlen - 4;
			fr->got = 0;
			fr->blen = 0;
			fr->in_body = 1;
		}
		/* the body: straight from the caller's bytes when whole here */
		if (fr->got == 0 && len >= fr->body) {
			uint32_t n = fr->body;

			fr->in_body = 0;
			deliver(c, dir, fr, data, n);
			data += n;
			len -= n;
			continue;
		}
		{
			uint32_t want = fr->body - fr->got;
			uint32_t take = want < len ? want : len;
			uint32_t keep_max = fr->body < PG_KEEP_MAX ? fr->body : PG_KEEP_MAX;

			if (fr->blen < keep_max) {
				uint32_t k = keep_max - fr->blen < take ? keep_max - fr->blen : take;

				if (fr->cap < keep_max) {
					uint8_t *b = realloc(fr->buf, keep_max);

					if (!b) {
						c->nalloc++;
						return give_up(c, dir, dir ? PG_EV_MALFORMED_RESPONSE
									   : PG_EV_MALFORMED_REQUEST);
					}
					fr->buf = b;
					fr->cap = keep_max;
				}
				memcpy(fr->buf + fr->blen, data, k);
				fr->blen += k;
			}
			fr->got += take;
			data += take;
			len -= take;
			if (fr->got < fr->body)
				return 0;
			fr->in_body = 0;
			deliver(c, dir, fr, fr->buf, fr->blen);
			/* a big buffer is not kept for the flow's life */
			if (fr->cap > 65536) {
				free(fr->buf);
				fr->buf = NULL;
				fr->cap = 0;
			}
			fr->blen = 0;
		}
		if (c->to_tls)
			break;
	}
	if (c->to_tls && len)
		hold(c, dir, data, len);
	return c->stopped[dir] ? -1 : 0;
}

void pgsql_conn_gap(PgsqlConn *c, int dir)
{
	if (dir < 0 || dir > 1)
		return;
	/* messages cannot be found again after a gap */
	c->stopped[dir] = 1;
	c->fr[dir].hlen = c->fr[dir].in_body = 0;
	c->fr[dir].blen = 0;
}

void pgsql_conn_eof(PgsqlConn *c, int dir)
{
	if (dir < 0 || dir > 1)
		return;
	for (AppTx *t = c->txs.head; t; t = t->next)
		t->done[dir] = 1;
}
