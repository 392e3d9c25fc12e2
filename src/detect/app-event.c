/* app-layer-event:<proto>.<event>
 *
 * Matches a transaction on which the protocol's parser raised the event
 * (http: libhtp warnings and our checks, app-layer/http.c event_names). The
 * rule becomes an HTTP transaction rule: http-inspect.c evaluates it once per
 * transaction, when the transaction is complete (or at flow end), so events
 * raised late in the response are seen. Packet-level app-layer events
 * (applayer_mismatch_protocol_both_directions, ...) and other protocols are
 * not supported yet: such rules are skipped with that reason. */
#include "detect/engine-int.h"
#include "detect/detect-int.h"
#include "app-layer/http.h"

#include <stdlib.h>
#include <string.h>

typedef struct DetectAppEvent {
	int event;                /* http_event_lookup() id */
} DetectAppEvent;

int kw_app_layer_event(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectAppEvent *ev;
	const char *dot = strchr(arg, '.');
	int id;

	(void)kw;
	if (!dot)
		return sig_unsupported(st, "app-layer-event:%s: packet app-layer events are not supported",
				       arg);
	if ((size_t)(dot - arg) != 4 || strncmp(arg, "http", 4) != 0)
		return sig_unsupported(st, "app-layer-event:%s: only http events are supported", arg);
	id = http_event_lookup(dot + 1);
	if (id < 0)
		return sig_error(st, "app-layer-event: unknown http event \"%s\"", dot + 1);
	if (sig_set_alproto_http(st) != 0)
		return -1;
	ev = malloc(sizeof(*ev));
	if (!ev)
		return sig_error(st, "out of memory");
	ev->event = id;
	return sm_append(st, SM_LIST_MATCH, KW_APP_LAYER_EVENT, ev) < 0 ? -1 : 0;
}

int app_event_sig_has(const Signature *s)
{
	const SigMatchList *ml = &s->lists[SM_LIST_MATCH];

	for (int i = 0; i < ml->n; i++)
		if (ml->m[i].kw == KW_APP_LAYER_EVENT)
			return 1;
	return 0;
}

int app_event_tx_match(const Signature *s, const HttpTx *tx)
{
	const SigMatchList *ml = &s->lists[SM_LIST_MATCH];

	for (int i = 0; i < ml->n; i++) {
		const DetectAppEvent *ev = ml->m[i].ctx;

		if (ml->m[i].kw == KW_APP_LAYER_EVENT && !http_tx_has_event(tx, ev->event))
			return 0;
	}
	return 1;
}
