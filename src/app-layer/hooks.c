/* Rule hooks of the app-layer protocols (app-layer.h, AppHook): the
 * generic table every protocol has, and the lookups. A protocol with
 * states of its own lists them in its AppProtoOps.hooks. */
#include "app-layer/app-layer.h"
#include "app-layer/app-layer-int.h"

#include <string.h>

/* Suricata 8: "Each protocol has at least the default states". */
static const AppHook generic_hooks[] = {
	{ "request_started", APP_DIR_TOSERVER, 0, NULL },
	{ "request_complete", APP_DIR_TOSERVER, APP_HOOK_COMPLETE, NULL },
	{ "response_started", APP_DIR_TOCLIENT, 0, NULL },
	{ "response_complete", APP_DIR_TOCLIENT, APP_HOOK_COMPLETE, NULL },
	{ NULL, 0, 0, NULL },
};

const AppHook *app_proto_hooks(uint16_t alproto, int *n)
{
	const AppProtoOps *ops = app_proto_ops(alproto);
	const AppHook *h;
	int k = 0;

	*n = 0;
	if (!ops)
		return NULL;
	h = ops->hooks ? ops->hooks : generic_hooks;
	while (h[k].name)
		k++;
	*n = k;
	return h;
}

int app_hook_find(uint16_t alproto, const char *name)
{
	int n;
	const AppHook *h = app_proto_hooks(alproto, &n);

	int dir, last = -1;

	for (int i = 0; i < n; i++)
		if (strcmp(h[i].name, name) == 0 || (h[i].alias && strcmp(h[i].alias, name) == 0))
			return i;
	/* A protocol with states of its own still answers to the generic
	 * names (Suricata 8 lists them for every protocol): *_started is its
	 * first state of that side, *_complete its last. */
	if (!strcmp(name, "request_started") || !strcmp(name, "request_complete"))
		dir = APP_DIR_TOSERVER;
	else if (!strcmp(name, "response_started") || !strcmp(name, "response_complete"))
		dir = APP_DIR_TOCLIENT;
	else
		return -1;
	for (int i = 0; i < n; i++) {
		if (h[i].dir != dir)
			continue;
		if (strstr(name, "_started"))
			return i;
		last = i;
	}
	return last;
}

int app_hook_progress(uint16_t alproto, const AppHook *h)
{
	return h->progress == APP_HOOK_COMPLETE ? app_proto_progress_complete(alproto)
						: h->progress;
}
