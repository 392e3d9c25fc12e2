/* The engine's capture handles (captures.h). */
#include "runmode/captures.h"
#include "capture/pcap-file.h"
#include "util/log.h"
#include "app-layer/app-layer.h"
#include "decode/decode.h"
#include "detect/engine.h"
#include "flow/flow.h"
#include "runmode/verdict.h"
#include "stats/counters.h"
#include "stream/stream.h"
#include "util/exception-policy.h"

#include <stdlib.h>

void captures_close(Engine *e)
{
	for (unsigned i = 0; i < e->ncaps; i++)
		capture_close(e->caps[i]);
	free(e->caps);
	e->caps = NULL;
	e->ncaps = 0;
}

/* One source's threads handles, appended to e->caps. */
static int open_source(Engine *e, const CaptureConfig *cc)
{
	const CaptureOps *ops = capture_ops(cc->kind);
	char err[1024];

	if (cc->paired)
		return 0;
	for (unsigned i = 0; i < cc->threads; i++) {
		Capture *c = capture_open(ops, cc, i, err, sizeof(err));

		if (!c) {
			log_error("%s", err);
			return -1;
		}
		if (e->ctl)
			c->stop = &e->ctl->stop;
		if (ops->live)
			snprintf(c->thread_name, sizeof(c->thread_name), "W#%02u-%.20s", i + 1,
				 cc->iface);
		e->caps[e->ncaps++] = c;
	}
	if (ops->live)
		log_notice("%s: capturing on %s with %u thread%s%s%s", ops->name, cc->iface,
			   cc->threads, cc->threads == 1 ? "" : "s", cc->bpf ? ", bpf filter: " : "",
			   cc->bpf ? cc->bpf : "");
	if (cc->peer)
		log_notice("%s: capturing on %s with the threads of %s (copy-mode %s: %s <-> %s)",
			   ops->name, cc->peer->iface, cc->iface,
			   cc->copy_mode == COPY_IPS ? "ips" : "tap", cc->iface, cc->peer->iface);
	return 0;
}

int captures_open(Engine *e, const CaptureConfig *cc, unsigned n)
{
	unsigned total = 0;

	for (unsigned i = 0; i < n; i++)
		total += cc[i].threads;
	e->caps = calloc(total ? total : 1, sizeof(*e->caps));
	if (!e->caps)
		return -1;
	e->live = capture_ops(cc[0].kind)->live;
	for (unsigned i = 0; i < n; i++)
		if (open_source(e, &cc[i]) != 0)
			return -1;
	return 0;
}

const char *captures_pcap_filename(void *arg)
{
	struct PcapSource *ps = capture_pcap_source((const Capture *)arg);

	return ps ? pcap_source_current(ps) : NULL;
}

void engine_register_counters(const CaptureOps *ops, int ips, int firewall)
{
	capture_register_counters(ops);
	decode_register_counters();
	flow_register_counters();
	stream_register_counters();
	app_layer_register_counters();
	detect_register_counters();
	ep_register_counters();
	verdict_register_counters(ips, firewall);
	pcap_log_register_counters();
	counters_freeze();
}
