/* POP3's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.pop3.*), how it is recognised, and the ops that hand
 * the stream parser (pop3-parse.c) to the generic app layer.
 *
 * Recognition: on a detection port (110, either end), a server's "+OK" or
 * a client's POP3 command. "+OK" alone is too common a reply (Redis has
 * it) to name a flow on any port.
 *
 * After the server's +OK to STLS the flow is TLS (app_layer_request_
 * proto_change, as SMTP's STARTTLS). Counters: app_layer.flow.pop3,
 * app_layer.tx.pop3, app_layer.error.pop3.{gap,alloc}. */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/app-mem.h"
#include "app-layer/pop3.h"
#include "conf/conf.h"

#include <stdlib.h>
#include <string.h>

static struct {
	int enabled;
	uint16_t ports[APP_MAX_DETECT_PORTS];
	unsigned nports;
} pop3_conf;

#define POP3_KEY "app-layer.protocols.pop3."

static void pop3_config_defaults(AppLayerConfig *cfg)
{
	(void)cfg;
	memset(&pop3_conf, 0, sizeof(pop3_conf));
	pop3_conf.enabled = 1;
	pop3_conf.ports[0] = 110;
	pop3_conf.nports = 1;
}

static int pop3_config_load(AppLayerConfig *cfg)
{
	(void)cfg;
	return app_conf_enabled_ports(POP3_KEY, &pop3_conf.enabled, pop3_conf.ports,
				      &pop3_conf.nports);
}

static int pop3_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return pop3_conf.enabled;
}

static AppTxCounters ctr;

static void pop3_register_counters(void)
{
	app_tx_counters_register(&ctr, "pop3");
}

static int port_listed(uint16_t port)
{
	for (unsigned i = 0; i < pop3_conf.nports; i++)
		if (pop3_conf.ports[i] == port)
			return 1;
	return 0;
}

static int pop3_probe_op(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
			 uint32_t len)
{
	int r;

	(void)cfg;
	if (!(port_listed(f->dp) || port_listed(f->sp)))
		return DET_NO;
	r = pop3_probe(dir, buf, len);
	return r > 0 ? DET_YES : r == 0 ? DET_NO : DET_MORE;
}

typedef struct Pop3Flow {
	Pop3State *s;
	int detect_only;
	uint64_t ntx_counted;
	/* after STLS: the bytes past the server's +OK line, TLS's first */
	uint8_t *rest[2];
	uint32_t rest_len[2];
} Pop3Flow;

static void *pop3_state_new_op(AppLayerThread *at, Flow *f)
{
	Pop3Flow *pf = app_mem_calloc(ALPROTO_POP3, 1, sizeof(*pf));

	(void)f;
	if (!pf)
		return NULL;
	pf->s = pop3_state_new();
	if (!pf->s) {
		app_mem_free(ALPROTO_POP3, pf);
		return NULL;
	}
	pf->detect_only = at && pop3_conf.enabled == 2;
	return pf;
}

static void free_detect(void *d)
{
	app_layer_detect_state_free_proto(ALPROTO_POP3, d);
}

static void pop3_state_free_op(void *state)
{
	Pop3Flow *pf = state;

	if (!pf)
		return;
	pop3_state_free(pf->s, free_detect);
	free(pf->rest[0]);
	free(pf->rest[1]);
	app_mem_free(ALPROTO_POP3, pf);
}

static int pop3_parse_op(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
			 uint32_t len, int flags)
{
	Pop3Flow *pf = state;
	uint32_t used = 0;
	int was_stls;

	if (!pf || pf->detect_only || dir < 0 || dir > 1)
		return 0;
	if (flags & APP_GAP) {
		pop3_gap(pf->s, dir);
		app_tx_count(at, &ctr, APP_CTR_GAP, 1);
		return 0;
	}
	if (!data || !len)
		return 0;
	was_stls = pf->s->stls;
	if (!was_stls && pop3_parse(pf->s, dir, data, len, &used) < 0)
		app_tx_count(at, &ctr, APP_CTR_ALLOC, 1);
	if (pf->s->next_id > pf->ntx_counted) {
		app_tx_count(at, &ctr, APP_CTR_TX, pf->s->next_id - pf->ntx_counted);
		pf->ntx_counted = pf->s->next_id;
	}
	if (pf->s->stls) {
		/* keep what came past the change for TLS (tunnel_take) */
		const uint8_t *r = data + used;
		uint32_t n = len - used;

		if (n) {
			uint8_t *b = realloc(pf->rest[dir], (size_t)pf->rest_len[dir] + n);

			if (b) {
				memcpy(b + pf->rest_len[dir], r, n);
				pf->rest[dir] = b;
				pf->rest_len[dir] += n;
			}
		}
		if (!was_stls)
			app_layer_request_proto_change(f, ALPROTO_TLS);
	}
	return 0;
}

static uint8_t *pop3_tunnel_take(void *state, int dir, uint32_t *len)
{
	Pop3Flow *pf = state;
	uint8_t *b = pf->rest[dir & 1];

	*len = pf->rest_len[dir & 1];
	pf->rest[dir & 1] = NULL;
	pf->rest_len[dir & 1] = 0;
	return b;
}

static uint64_t pop3_tx_count(const void *state)
{
	return ((const Pop3Flow *)state)->s->next_id;
}

static uint64_t pop3_tx_low(const void *state)
{
	const Pop3State *s = ((const Pop3Flow *)state)->s;

	return s->head ? s->head->id : s->next_id;
}

static void *pop3_tx_get(const void *state, uint64_t id)
{
	for (Pop3Tx *t = ((const Pop3Flow *)state)->s->head; t && t->id <= id; t = t->next)
		if (t->id == id)
			return t;
	return NULL;
}

static uint64_t pop3_tx_id(const void *tx)
{
	return ((const Pop3Tx *)tx)->id;
}

static int pop3_tx_progress(const void *tx, int dir)
{
	return pop3_tx_done(tx, dir);
}

static unsigned pop3_tx_flags(const void *tx)
{
	return ((const Pop3Tx *)tx)->app_flags;
}

static void pop3_tx_set_flags(void *tx, unsigned flags)
{
	((Pop3Tx *)tx)->app_flags |= flags;
}

static void **pop3_tx_detect_slot(void *tx)
{
	return &((Pop3Tx *)tx)->detect;
}

static void pop3_tx_gc_op(void *state, unsigned need)
{
	pop3_tx_gc(((Pop3Flow *)state)->s, need, free_detect);
}

static int pop3_event_lookup(const char *name)
{
	return pop3_event_by_name(name);
}

static int pop3_tx_has_event(const void *tx, int id)
{
	return id >= 0 && id < POP3_EV_COUNT && (((const Pop3Tx *)tx)->events >> id & 1u);
}

const AppProtoOps pop3_proto_ops = {
	.name = "pop3",
	.ipprotos = APP_IPPROTO_TCP,
	.config_defaults = pop3_config_defaults,
	.config_load = pop3_config_load,
	.enabled = pop3_enabled,
	.register_counters = pop3_register_counters,
	.probe = pop3_probe_op,
	.state_new = pop3_state_new_op,
	.state_free = pop3_state_free_op,
	.parse = pop3_parse_op,
	.tunnel_take = pop3_tunnel_take,
	.tx_count = pop3_tx_count,
	.tx_get = pop3_tx_get,
	.tx_low = pop3_tx_low,
	.tx_id = pop3_tx_id,
	.tx_log_id = pop3_tx_id,
	.tx_progress = pop3_tx_progress,
	.progress_complete = 1,
	.tx_flags = pop3_tx_flags,
	.tx_set_flags = pop3_tx_set_flags,
	.tx_detect_slot = pop3_tx_detect_slot,
	.tx_gc = pop3_tx_gc_op,
	.event_lookup = pop3_event_lookup,
	.tx_has_event = pop3_tx_has_event,
};
