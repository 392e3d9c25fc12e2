/* The seam between SMB and DCERPC over named pipes (smb.h).
 *
 * Each named pipe (by file id) of a flow has its own DCE/RPC conversation:
 * its binds, contexts and calls are its own, so the bytes of two pipes
 * never mix. SMB hands every byte it carries on a pipe, in order per
 * direction, with the transaction of the command that carried it; that
 * transaction gets the DCE/RPC call the bytes belong to (tx->dce), as
 * Suricata's SMB transactions carry their dcerpc exchange.
 *
 * Ownership: the calls stay in the pipe's dcerpc_state; app_flags of a
 * call counts the SmbTx pointing at it, and a call is freed only when it
 * is complete and no SmbTx points at it (or with the flow). Memory is
 * bounded by SMB_MAX_PIPES states, each with the library's limits. */
#include "app-layer/smb.h"
#include "app-layer/app-mem.h"

#include <stdlib.h>
#include <string.h>

/* Calls kept open per pipe (a pipe carries one call at a time in
 * practice; SMB keeps at most SMB_MAX_TX transactions anyway). */
#define SMB_PIPE_MAX_TXS 256u

static SmbPipe *pipe_get(SmbState *s, const uint8_t *key, uint8_t key_len)
{
	struct dcerpc_limits lim = { .max_stub = DCERPC_DEFAULT_MAX_STUB,
				     .max_txs = SMB_PIPE_MAX_TXS };
	SmbPipe *p;

	for (p = s->pipes; p; p = p->next)
		if (p->key_len == key_len && memcmp(p->key, key, key_len) == 0)
			return p;
	if (s->npipes >= SMB_MAX_PIPES)
		return NULL;
	p = app_mem_calloc(ALPROTO_SMB, 1, sizeof(*p));
	if (!p)
		return NULL;
	memcpy(p->key, key, key_len);
	p->key_len = key_len;
	dcerpc_state_init(&p->dce, DCERPC_CO, &lim);
	p->next = s->pipes;
	s->pipes = p;
	s->npipes++;
	return p;
}

static int keep_call(const struct dcerpc_tx *c, void *arg)
{
	(void)arg;
	return c->app_flags != 0 || !dcerpc_tx_complete(c);
}

static void attach(SmbTx *tx, struct dcerpc_tx *c)
{
	if (!c || tx->dce == c)
		return;
	smb_pipe_tx_release(tx);
	tx->dce = c;
	c->app_flags++;
}

void smb_pipe_data(SmbState *s, SmbTx *tx, int to_server, const uint8_t *data, size_t len)
{
	SmbPipe *p;
	struct dcerpc_tx *tail, *c;
	uint32_t tail_frags;

	if (!tx || !len)
		return;
	p = pipe_get(s, tx->fuid, tx->fuid_len);
	if (!p) {
		tx->events |= 1u << SMB_EV_INTERNAL_ERROR;
		return;
	}
	/* The call these bytes belong to: a request side's PDUs start a
	 * call (the newest) or continue the newest one; a response side's
	 * answer a call of this pipe, which is the one the request's SMB
	 * transaction already holds when SMB paired them, else the newest
	 * answered call no transaction holds yet. */
	tail = p->dce.tail;
	tail_frags = tail ? tail->frag_cnt[to_server ? 0 : 1] : 0;
	if (dcerpc_feed(&p->dce, to_server, data, len) == -2)
		tx->events |= 1u << SMB_EV_INTERNAL_ERROR;
	if (to_server) {
		c = p->dce.tail;
		if (c && (c != tail || c->frag_cnt[0] != tail_frags))
			attach(tx, c);
	} else if (!tx->dce || tx->dce->resp_type == DCERPC_PTYPE_NONE) {
		struct dcerpc_tx *pick = NULL;

		for (c = dcerpc_tx_first(&p->dce); c; c = c->next)
			if (c->resp_type != DCERPC_PTYPE_NONE && !c->app_flags)
				pick = c;
		attach(tx, pick);
	}
	if (tx->pipe_wait && tx->dce && tx->dce->resp_done) {
		tx->pipe_wait = 0;
		tx->response_done = 1;
	}
	dcerpc_tx_gc(&p->dce, keep_call, NULL);
}

void smb_pipe_tx_release(SmbTx *tx)
{
	if (tx->dce && tx->dce->app_flags)
		tx->dce->app_flags--;
	tx->dce = NULL;
}

void smb_pipes_free(SmbState *s)
{
	for (SmbPipe *p = s->pipes; p;) {
		SmbPipe *next = p->next;

		dcerpc_state_free(&p->dce);
		app_mem_free(ALPROTO_SMB, p);
		p = next;
	}
	s->pipes = NULL;
	s->npipes = 0;
}
