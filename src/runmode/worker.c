/* The worker (runmode-int.h): everything after decode for the flows one
 * thread owns: flow, TCP tracking and reassembly, the app layer, detection,
 * the verdict and the logger list; and the end of each flow. */
#include "runmode/runmode-int.h"
#include "runmode/verdict.h"
#include "app-layer/stream-feed.h"
#include "capture/reject.h"
#include "output/alert.h"
#include "util/log.h"

#include <netinet/in.h>
#include <string.h>
#include <sys/time.h>

static void on_flow_end(void *arg, Flow *f, enum flow_end_reason why)
{
	Worker *w = arg;
	Packet *p = NULL;

	if (f->stream && !(f->ep_flags & (FLOW_EP_BYPASS | FLOW_LOCAL_BYPASS | FLOW_EP_DROP))) {
		/* everything still held becomes ready: the consumers see it last */
		stream_flow_end(w->st, f);
		if (w->at)
			app_layer_feed(w->at, f, NULL, output_frame_need(&w->ot));
	}
	/* an exception policy that passed, bypassed or dropped the flow ended
	 * its detection */
	for (int dir = 0; dir < 2 && w->dt && (f->stream || f->alstate) && !f->ep_flags; dir++) {
		const DetectAlert *alerts;
		uint32_t n;

		p = stream_end_packet(w->ot.end_pkt, f, dir);
		n = detect_flow_flush(w->dt, p, &alerts);
		output_alerts(&w->ot, p, alerts, n);
	}
	output_flow_done(&w->ot, f, p, why);
	detect_flow_free(f);
	if (f->stream)
		stream_flow_free(w->st, f);
	app_layer_flow_free(f);
}

int worker_init(Worker *w, Engine *e, unsigned id, unsigned share,
		detect_order_fn order_fn, void *order_arg)
{
	memset(w, 0, sizeof(*w));
	w->e = e;
	w->id = id;
	w->tc = thread_counters_new();
	if (!w->tc)
		return -1;
	w->st = stream_thread_new(&e->cfg.stream, w->tc);
	if (!w->st) {
		log_error("runmode: cannot create the stream state of worker %u", id);
		return -1;
	}
	if (output_thread_init(&w->ot, e->outputs) != 0) {
		log_error("runmode: cannot create the output state of worker %u", id);
		return -1;
	}
	w->ot.tc = w->tc;
	if (app_layer_enabled(&e->cfg.app)) {
		w->at = app_layer_thread_new(&e->cfg.app, w->tc);
		if (!w->at) {
			log_error("runmode: cannot create the app-layer state of worker %u", id);
			return -1;
		}
	}
	if (e->detect) {
		const DetectEngine *de = e->detect;

		/* a reload may have replaced the start-up engine already */
		if (e->reload &&
		    !(w->rs = reload_join(e->reload, w->tc, order_fn, order_arg, &de, &w->rgen))) {
			log_error("runmode: no rule reload slot for worker %u", id);
			return -1;
		}
		w->dt = detect_thread_new(de, w->tc);
		if (!w->dt) {
			log_error("runmode: cannot create the detect state of worker %u", id);
			return -1;
		}
		if (order_fn)
			detect_thread_set_order(w->dt, order_fn, order_arg);
		output_thread_set_detect(&w->ot, w->dt);
	}
	w->ft = flow_table_new(&e->cfg.flow, share, w->tc, on_flow_end, w);
	if (!w->ft) {
		log_error("runmode: cannot create the flow table of worker %u", id);
		return -1;
	}
	return 0;
}

void worker_fini(Worker *w)
{
	if (w->ft) {
		/* flushes: every flow gets its last inspection and its record,
		 * which needs the stream, app-layer and detect state below */
		flow_table_free(w->ft);
		w->ft = NULL;
	}
	/* after the flush, which inspects: a reload meanwhile waits for us;
	 * leaving frees the DetectThread */
	if (w->rs) {
		reload_leave(w->e->reload, w->rs, &w->dt, &w->rgen);
		w->rs = NULL;
	}
	if (w->dt) {
		detect_thread_free(w->dt);
		w->dt = NULL;
	}
	if (w->at) {
		app_layer_thread_free(w->at);
		w->at = NULL;
	}
	if (w->st) {
		stream_thread_free(w->st);
		w->st = NULL;
	}
	output_thread_fini(&w->ot);
	thread_counters_retire(w->tc);
}

/* A reject rule's replies (reject.h), for a packet of a live source: in
 * IPS the rule that dropped the packet, in IDS (Suricata 8 rejects there
 * too) the first alerting reject rule. */
static void worker_reject(const OutputPacketCtx *pc)
{
	const DetectAlert *da = pc->drop_rule;
	enum reject_dir dir;

	if (!da)
		for (uint32_t i = 0; i < pc->nalerts && !da; i++)
			if (pc->alerts[i].action == ALERT_ACTION_REJECT)
				da = &pc->alerts[i];
	if (!da || da->action != ALERT_ACTION_REJECT)
		return;
	switch (da->s->action) {
	case ACT_REJECTDST: dir = REJECT_TO_DST; break;
	case ACT_REJECTBOTH: dir = REJECT_BOTH; break;
	default: dir = REJECT_TO_SRC; break;
	}
	reject_send(pc->p, dir);
}

/* The first half of a worker's per-packet work: flow, TCP tracking and
 * reassembly, the app layer on newly ready data, the packet's app-layer
 * events. Returns the packet's flow (NULL: none); fr->skip when nothing
 * but the timeouts follows (a flow the app layer bypassed: counted,
 * nothing more, as Suricata's local bypass). */
void worker_front(Worker *w, Packet *p, WorkerFront *fr)
{
	Flow *f = NULL;

	fr->f = NULL;
	fr->skip = 0;
	if (!(p->flags & (PKT_INVALID | PKT_IS_FRAGMENT)) && p->ip_version)
		f = flow_handle_packet(w->ft, p);
	fr->f = f;
	if (f)
		verdict_flow(p);
	if (flow_bypassed_packet(w->ft, f, p)) {
		fr->skip = 1;
		return;
	}
	/* exception policies (flow_exception): bypass and an IPS drop end all
	 * inspection of the flow, pass-flow its detection only */
	if (f && p->proto == IPPROTO_TCP && PKT_IS_TCP(p) &&
	    !(f->ep_flags & (FLOW_EP_BYPASS | FLOW_LOCAL_BYPASS | FLOW_EP_DROP))) {
		stream_handle_packet(w->st, f, p);
		if (w->at && f->stream && !(f->ep_flags & (FLOW_EP_BYPASS | FLOW_LOCAL_BYPASS | FLOW_EP_DROP)))
			app_layer_feed(w->at, f, p, output_frame_need(&w->ot));
	} else if (f && PKT_IS_UDP(p) && w->at && p->payload_len && !(p->flags & PKT_EP_DROP) &&
		   !(f->ep_flags & (FLOW_EP_BYPASS | FLOW_EP_DROP))) {
		/* as Suricata: a dropped datagram (its flow dropped) is not
		 * parsed, so its transactions are neither made nor logged
		 * (suricata-verify bug-5802) */
		app_layer_feed_udp(w->at, f, p);
	}
	if (f && f->alstate)
		p->app_events = (uint8_t)app_layer_take_packet_events(f);
	if (f && f->alstate &&
	    app_layer_take_detect_done(f, p->flags & PKT_TOCLIENT ? APP_DIR_TOCLIENT : APP_DIR_TOSERVER))
		p->flags |= PKT_APP_DETECT_DONE;
}

/* The second half: detection (packet, raw stream, transactions), the
 * verdict, the logger list (transaction logging and cleanup), the flow's
 * bypass flags and the table's timeouts. */
void worker_back(Worker *w, Packet *p, const WorkerFront *fr)
{
	OutputPacketCtx pc = { .p = p };
	DetectThread *ran = NULL;
	Flow *f = fr->f;

	if (fr->skip) {
		flow_table_timeout(w->ft, &p->ts);
		return;
	}
	if (w->dt && !(p->flags & (PKT_EP_NO_DETECT | PKT_EP_DROP)) && !(f && f->ep_flags)) {
		pc.nalerts = detect_packet(w->dt, p, &pc.alerts);
		pc.detected = 1;
		ran = w->dt;
	}
	pc.f = f;
	pc.dropped = verdict_decide(ran, w->tc, p, &pc.drop_rule);
	if (p->cap && ran)
		worker_reject(&pc);
	output_packet(&w->ot, &pc);
	/* encryption-handling bypass: the packets after this one skip
	 * everything (flow_bypassed_packet) */
	if (f && f->alstate && !(f->ep_flags & FLOW_LOCAL_BYPASS) && app_layer_flow_bypass(f))
		f->ep_flags |= FLOW_LOCAL_BYPASS;
	/* stream.bypass: nothing more is stored either way (depth) */
	if (f && !(f->ep_flags & FLOW_LOCAL_BYPASS) && stream_bypass_due(w->st, f))
		f->ep_flags |= FLOW_LOCAL_BYPASS;
	flow_table_timeout(w->ft, &p->ts);
}

/* The per-packet work of a worker, both halves at once. */
void worker_process(Worker *w, Packet *p)
{
	WorkerFront fr;

	worker_front(w, p, &fr);
	worker_back(w, p, &fr);
}

/* A live source's idle tick on the thread that owns the flow table: flows
 * time out on wall-clock time (the time the kernel stamps packets with),
 * their streams are flushed, inspected and logged. */
void worker_idle(Worker *w)
{
	struct timeval now;

	worker_sync(w);
	gettimeofday(&now, NULL);
	flow_table_timeout(w->ft, &now);
}

void worker_give_back(Worker *w, PacketPool *pool)
{
	if (!w->ret_n)
		return;
	packet_pool_return(pool, w->ret_head, w->ret_tail, w->ret_n);
	w->ret_head = w->ret_tail = NULL;
	w->ret_n = 0;
}

void worker_release(Worker *w, PacketPool *pool, Packet *p)
{
	p->pseudo = NULL;
	p->next = w->ret_head;
	w->ret_head = p;
	if (!w->ret_tail)
		w->ret_tail = p;
	if (++w->ret_n == RETURN_BATCH)
		worker_give_back(w, pool);
}
