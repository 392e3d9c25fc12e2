/* PostgreSQL keywords, as Suricata 8 documents them (rules/pgsql-keywords):
 * the sticky buffer pgsql.query, a simple Query message's string (eve
 * pgsql.request.simple_query). */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/buffers.h"
#include "app-layer/pgsql.h"

#define NEEDS "a pgsql, tcp or ip"

static int kw_pgsql_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	return sig_app_sticky(st, kw, ALPROTO_PGSQL, 1, NEEDS);
}

int pgsql_buffer_get(const DetectBuffer *b, void *txp, int side, uint32_t idx,
		     const uint8_t **data, uint32_t *len)
{
	const PgsqlTx *tx = txp;

	(void)b;
	(void)side;
	if (idx || tx->req != PG_REQ_QUERY || !tx->rq)
		return -1;
	*data = tx->rq;
	*len = tx->rq_len;
	return 0;
}

const Keyword pgsql_keywords[] = {
	{ .name = "pgsql.query", .id = KW_PGSQL_STICKY, .setup = kw_pgsql_sticky, .flags = STICKY,
	  .buf = BUF_PGSQL_QUERY, .desc = "sticky buffer: a simple query's string" },
	{ .name = NULL }
};
