#include "runmode/runmode.h"
#include "runmode/pool.h"
#include "runmode/ring.h"
#include "runmode/reload.h"
#include "runmode/verdict.h"
#include "output/output.h"
#include "output/alert.h"
#include "detect/engine.h"
#include "detect/prefilter-gpu.h"
#include "app-layer/app-layer.h"
#include "app-layer/files.h"
#include "app-layer/frames.h"
#include "stream/stream.h"
#include "stats/counters.h"
#include "util/log.h"

#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

/* Packets a worker collects before giving them back to the pool in one go. */
#define RETURN_BATCH 32

typedef struct Worker {
	Engine *e;
	unsigned id;
	ThreadCounters *tc;
	FlowTable *ft;
	DetectThread *dt;              /* NULL: detection disabled */
	ReloadSlot *rs;                /* rule reload: this worker's slot */
	uint64_t rgen;                 /* the engine generation dt is for */
	StreamThread *st;              /* TCP tracking and reassembly */
	AppLayerThread *at;            /* NULL: app layer disabled */
	Packet *flush_pkt;             /* the flow-end pseudo packet (no data) */
	PacketRing ring;               /* autofp: packets from RX */
	pthread_t thread;
	Packet *ret_head, *ret_tail;   /* batch going back to the pool */
	uint32_t ret_n;
} Worker;

typedef struct StatsThread {
	Engine *e;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int stop;
	struct timespec started;
} StatsThread;

int runmode_parse(const char *name, enum runmode *out)
{
	if (strcmp(name, "single") == 0)
		*out = RUNMODE_SINGLE;
	else if (strcmp(name, "autofp") == 0)
		*out = RUNMODE_AUTOFP;
	else if (strcmp(name, "workers") == 0)
		*out = RUNMODE_WORKERS;
	else
		return -1;
	return 0;
}

const char *runmode_name(enum runmode m)
{
	return m == RUNMODE_SINGLE ? "single" : m == RUNMODE_WORKERS ? "workers" : "autofp";
}

void runmode_list(void)
{
	printf("------------------------------------- Runmodes -------------------------------------------\n");
	printf("| RunMode Type      | Custom Mode       | Description\n");
	printf("|-----------------------------------------------------------------------------------------\n");
	printf("| PCAP_DEV          | single            | Single threaded pcap live mode\n");
	printf("|                   ---------------------------------------------------------------------\n");
	printf("|                   | autofp            | Multi-threaded pcap live mode. Packets from each flow are\n");
	printf("|                   |                   | assigned to a consistent detection thread\n");
	printf("|                   ---------------------------------------------------------------------\n");
	printf("|                   | workers           | Workers pcap live mode, each thread does all tasks from\n");
	printf("|                   |                   | acquisition to logging\n");
	printf("|-----------------------------------------------------------------------------------------\n");
	printf("| AF_PACKET_DEV     | single            | Single threaded af-packet mode\n");
	printf("|                   ---------------------------------------------------------------------\n");
	printf("|                   | workers           | Workers af-packet mode, each thread does all tasks from\n");
	printf("|                   |                   | acquisition to logging\n");
	printf("|                   ---------------------------------------------------------------------\n");
	printf("|                   | autofp            | Multi socket AF_PACKET mode. Packets from each flow are\n");
	printf("|                   |                   | assigned to a consistent detection thread\n");
	printf("|-----------------------------------------------------------------------------------------\n");
	printf("| PCAP_FILE         | single            | Single threaded pcap file mode\n");
	printf("|                   ---------------------------------------------------------------------\n");
	printf("|                   | autofp            | Multi-threaded pcap file mode. Packets from each flow are\n");
	printf("|                   |                   | assigned to a consistent detection thread\n");
	printf("|-----------------------------------------------------------------------------------------\n");
}

/* The app layer found a midstream flow's first bytes going the wrong way:
 * the flow, its session and detection's state trade directions, and so does
 * p, the packet being processed (NULL at flow end). */
static void reverse_flow(Flow *f, Packet *p)
{
	flow_swap(f, p);
	stream_flow_swap(f, p);
	detect_flow_swap(f);
}

static Packet *flush_packet_dir(Worker *w, Flow *f, int dir);

/* Stream bytes kept behind the app layer for frames not yet inspected or
 * logged, at most: a frame longer than this shows its first bytes as
 * missing rather than hold the stream without bound. */
#define FRAMES_HOLD_MAX (256u * 1024u)

/* What frames wait for: detection (a rule inspects frames) and logging. */
static unsigned frame_need(const Worker *w)
{
	unsigned need = 0;

	if (w->dt && detect_engine_uses_frames(detect_thread_engine(w->dt)))
		need |= APP_FRAME_INSPECTED;
	if (outputs_frames_enabled(w->e->outputs))
		need |= APP_FRAME_LOGGED;
	return need;
}

/* Frames of f after a packet: their eve records (at the flow's end every
 * one left, p then facing each direction in turn), then the ones everyone
 * is done with go. */
static void frames_done(Worker *w, Packet *p, Flow *f, int eof)
{
	unsigned need;

	if (!app_frames_on(f))
		return;
	need = frame_need(w);
	if (need & APP_FRAME_LOGGED) {
		if (!eof)
			output_frames(w->e->outputs, p, f, 0);
		else
			for (int d = 0; d < 2; d++)
				output_frames(w->e->outputs, flush_packet_dir(w, f, d), f, 1);
	}
	for (int d = 0; d < 2; d++)
		app_frames_gc(f, d, need);
}

/* Hands the newly ready bytes of dir to the app layer (gaps as gaps, EOF
 * once), then tells the stream engine what it may drop. Returns 1 when the
 * flow was reversed instead (nothing of dir consumed). */
static int app_feed_dir(Worker *w, Flow *f, Packet *p, int dir)
{
	uint64_t ready = stream_ready_offset(f, dir);
	uint64_t *pos = &f->app_progress[dir];
	int fl = stream_is_midstream(f) ? APP_MIDSTREAM : 0;
	const uint8_t *data;
	uint32_t len;
	uint64_t base;

	while (*pos < ready && stream_get_data(f, dir, *pos, &data, &len, &base)) {
		if (base > *pos) {
			uint64_t gap = base - *pos;

			app_layer_handle_data(w->at, f, dir, NULL,
					      gap > UINT32_MAX ? UINT32_MAX : (uint32_t)gap,
					      APP_GAP);
		}
		f->app_data_off1[dir] = base + 1;
		if (app_layer_handle_data(w->at, f, dir, data, len, fl) == APP_REVERSE) {
			f->app_data_off1[dir] = 0;
			*pos = base;
			reverse_flow(f, p);
			return 1;
		}
		f->app_data_off1[dir] = 0;
		*pos = base + len;
	}
	if (*pos < ready) {
		/* released or skipped bytes up to the ready edge: a gap */
		app_layer_handle_data(w->at, f, dir, NULL, (uint32_t)(ready - *pos), APP_GAP);
		*pos = ready;
	}
	if ((stream_dir_flags(f, dir) & STREAM_DIR_EOF) && !(f->app_eof & (1u << dir))) {
		f->app_eof |= (uint8_t)(1u << dir);
		app_layer_handle_data(w->at, f, dir, NULL, 0, APP_EOF);
	}
	if (app_frames_on(f)) {
		/* the frames' bytes stay until detection and logging had them */
		uint64_t keep = app_frames_keep_from(f, dir, frame_need(w));

		if (keep < *pos) {
			if (*pos - keep > FRAMES_HOLD_MAX)
				keep = *pos - FRAMES_HOLD_MAX;
			stream_release(f, dir, STREAM_CONSUMER_APP, keep);
			return 0;
		}
	}
	stream_release(f, dir, STREAM_CONSUMER_APP, *pos);
	return 0;
}

/* Both directions; after a reversal (at most once per flow) from the start,
 * as the bytes just refused now belong to the other direction. */
static void app_feed(Worker *w, Flow *f, Packet *p)
{
	for (int dir = 0; dir < 2; dir++)
		if (app_feed_dir(w, f, p, dir))
			dir = -1;
}

/* UDP: each datagram is one piece of its direction's data, as Suricata's
 * UDP app layer takes it: detection on the first ones, then the parser.
 * The flow keeps the direction of its first packet (suricata-verify
 * vxlan-decoder-01: a DNS response first stays the flow's source). */
static void app_feed_udp(Worker *w, Flow *f, Packet *p)
{
	int dir = (p->flags & PKT_TOCLIENT) ? APP_DIR_TOCLIENT : APP_DIR_TOSERVER;

	app_layer_handle_data(w->at, f, dir, p->payload, p->payload_len, 0);
}

static void emit_alerts(Worker *w, Packet *p, const DetectAlert *alerts, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		AlertInfo ai;

		detect_alert_info(detect_thread_engine(w->dt), p, &alerts[i], &ai);
		output_alert(w->e->outputs, p, p->flow, &ai);
	}
	if (n && p->flow)
		p->flow->alerted = 1;
}

/* The eve records of each transaction (http, smb, ...: the protocol's
 * logger) once: when complete both ways, or at flow end (final) whatever
 * its state; then frees what everyone is done with. Any protocol, through
 * the app layer's generic transactions. A transaction's files log apart,
 * each as it is over (output_tx_log_files), before the transaction's own
 * record, as Suricata's do. Without detection the detect flags are set
 * here so gc can work. */
static void tx_log(Worker *w, Packet *p, Flow *f, int final)
{
	uint64_t n = app_layer_tx_count(f);
	int complete = n > f->tx_log_next ? app_proto_progress_complete(f->app_proto) : 0;
	/* files do not wait for the transactions before theirs: with them on,
	 * the walk goes on past a transaction whose record waits */
	int files = n > f->tx_log_next && output_tx_files_on(w->e->outputs, f);
	int blocked = 0;
	unsigned need = APP_TX_LOGGED | APP_TX_FILE_LOGGED;

	if (w->dt)
		need |= APP_TX_DETECT_TS | APP_TX_DETECT_TC;
	/* events as they come, on the packet whose data raised them, for the
	 * transactions not logged yet (output_tx_events_on) */
	if (p && !final && n > f->tx_log_next && output_tx_events_on(w->e->outputs, f))
		for (uint64_t id = f->tx_log_next; id < n; id++) {
			void *tx = app_layer_tx_get(f, id);

			if (tx && !(app_layer_tx_flags(f, tx) & APP_TX_LOGGED))
				output_tx_log_events(w->e->outputs, p, f, tx);
		}
	for (uint64_t id = f->tx_log_next; id < n; id++) {
		void *tx = app_layer_tx_get(f, id);
		unsigned fl = tx ? app_layer_tx_flags(f, tx) : 0;
		int done, files_done;

		if (!tx || (fl & (APP_TX_LOGGED | APP_TX_FILE_LOGGED)) ==
				   (APP_TX_LOGGED | APP_TX_FILE_LOGGED)) {
			if (id == f->tx_log_next)
				f->tx_log_next++;
			continue;
		}
		files_done = (fl & APP_TX_FILE_LOGGED) ||
			     output_tx_log_files(w->e->outputs, p, f, tx, final);
		if (!(fl & APP_TX_LOGGED)) {
			if (blocked)
				continue;
			done = app_layer_tx_progress(f, tx, APP_DIR_TOSERVER) == complete &&
			       app_layer_tx_progress(f, tx, APP_DIR_TOCLIENT) == complete;
			if ((!done || (w->dt && !files_tx_log_ready(f, tx))) && !final) {
				/* transactions log in order, as Suricata's do */
				if (!files)
					break;
				blocked = 1;
				continue;
			}
			output_tx_log(w->e->outputs, p, f, tx);
			app_layer_tx_set_flags(f, tx, APP_TX_LOGGED);
		}
		/* a file still open, or waiting for a packet of its direction,
		 * keeps the transaction (the tx is over: it gets no new files) */
		if (!files_done)
			continue;
		app_layer_tx_set_flags(f, tx, APP_TX_FILE_LOGGED);
		if (id == f->tx_log_next)
			f->tx_log_next++;
	}
	app_layer_tx_gc(f, need);
}

/* The flow-end pseudo packet of direction dir: the flow's tuple, no payload. */
static Packet *flush_packet(Worker *w, Flow *f, int dir)
{
	Packet *p = w->flush_pkt;
	enum tcp_state ts = stream_tcp_state(f);

	memset(p, 0, sizeof(*p));
	p->ts = f->last;
	p->flags = PKT_PSEUDO | PKT_HAS_FLOW | (dir ? PKT_TOCLIENT : PKT_TOSERVER);
	p->pkt_src = PKT_SRC_FLOW_TIMEOUT;
	p->ip_version = f->ip_version;
	p->src = dir ? f->dst : f->src;
	p->dst = dir ? f->src : f->dst;
	p->sp = dir ? f->dp : f->sp;
	p->dp = dir ? f->sp : f->dp;
	p->proto = f->proto;
	p->vlan_count = f->vlan_count;
	memcpy(p->vlan_id, f->vlan_id, sizeof(p->vlan_id));
	p->flow = f;
	p->stream_flags = STREAM_PKT_HAS_SESSION | STREAM_PKT_CLOSED;
	if (ts >= TCP_ESTABLISHED)
		p->stream_flags |= STREAM_PKT_ESTABLISHED | STREAM_PKT_WAS_ESTABLISHED;
	return p;
}

static Packet *flush_packet_dir(Worker *w, Flow *f, int dir)
{
	return flush_packet(w, f, dir);
}

static void on_flow_end(void *arg, Flow *f, enum flow_end_reason why)
{
	Worker *w = arg;
	Packet *p = NULL;

	if (f->stream && !(f->ep_flags & (FLOW_EP_BYPASS | FLOW_LOCAL_BYPASS | FLOW_EP_DROP))) {
		/* everything still held becomes ready: the consumers see it last */
		stream_flow_end(w->st, f);
		if (w->at)
			app_feed(w, f, NULL);
	}
	/* an exception policy that passed, bypassed or dropped the flow ended
	 * its detection */
	for (int dir = 0; dir < 2 && w->dt && (f->stream || f->alstate) && !f->ep_flags; dir++) {
		const DetectAlert *alerts;
		uint32_t n;

		p = flush_packet(w, f, dir);
		n = detect_flow_flush(w->dt, p, &alerts);
		emit_alerts(w, p, alerts, n);
	}
	if (f->alstate)
		tx_log(w, p, f, 1);
	if (f->alstate && !f->ep_flags)
		frames_done(w, p, f, 1);
	output_flow_end(w->e->outputs, f, why);
	detect_flow_free(f);
	if (f->stream)
		stream_flow_free(w->st, f);
	app_layer_flow_free(f);
}

static int worker_init(Worker *w, Engine *e, unsigned id, unsigned share,
		       detect_order_fn order_fn, void *order_arg)
{
	memset(w, 0, sizeof(*w));
	w->e = e;
	w->id = id;
	w->tc = thread_counters_new();
	if (!w->tc)
		return -1;
	w->flush_pkt = calloc(1, sizeof(Packet));
	w->st = stream_thread_new(&e->cfg.stream, w->tc);
	if (!w->flush_pkt || !w->st) {
		log_error("runmode: cannot create the stream state of worker %u", id);
		return -1;
	}
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
	}
	w->ft = flow_table_new(&e->cfg.flow, share, w->tc, on_flow_end, w);
	if (!w->ft) {
		log_error("runmode: cannot create the flow table of worker %u", id);
		return -1;
	}
	return 0;
}

static void worker_fini(Worker *w)
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
	free(w->flush_pkt);
	w->flush_pkt = NULL;
	thread_counters_retire(w->tc);
}

/* A rule reload published a new engine: take it up between two packets
 * (one load per packet when none is pending). */
static inline void worker_sync(Worker *w)
{
	if (w->rs && reload_pending(w->e->reload, w->rgen))
		w->dt = reload_pickup(w->e->reload, w->rs, w->dt, &w->rgen);
}

/* The per-packet work of a worker: flow, TCP tracking and reassembly, the
 * app layer on newly ready data, detection (packet, raw stream, HTTP
 * transactions), then transaction logging and cleanup. */
static void worker_process(Worker *w, Packet *p)
{
	Flow *f = NULL;

	DetectThread *ran = NULL;

	if (!(p->flags & (PKT_INVALID | PKT_IS_FRAGMENT)) && p->ip_version)
		f = flow_handle_packet(w->ft, p);
	if (f)
		verdict_flow(p);
	/* a flow the app layer bypassed: counted, nothing more (Suricata's
	 * local bypass) */
	if (flow_bypassed_packet(w->ft, f, p)) {
		flow_table_timeout(w->ft, &p->ts);
		return;
	}
	/* exception policies (flow_exception): bypass and an IPS drop end all
	 * inspection of the flow, pass-flow its detection only */
	if (f && p->proto == IPPROTO_TCP && PKT_IS_TCP(p) &&
	    !(f->ep_flags & (FLOW_EP_BYPASS | FLOW_LOCAL_BYPASS | FLOW_EP_DROP))) {
		stream_handle_packet(w->st, f, p);
		if (w->at && f->stream && !(f->ep_flags & (FLOW_EP_BYPASS | FLOW_LOCAL_BYPASS | FLOW_EP_DROP)))
			app_feed(w, f, p);
	} else if (f && PKT_IS_UDP(p) && w->at && p->payload_len) {
		app_feed_udp(w, f, p);
	}
	if (f && f->alstate)
		p->app_events = (uint8_t)app_layer_take_packet_events(f);
	if (w->dt && !(p->flags & (PKT_EP_NO_DETECT | PKT_EP_DROP)) && !(f && f->ep_flags)) {
		const DetectAlert *alerts;
		uint32_t n = detect_packet(w->dt, p, &alerts);

		emit_alerts(w, p, alerts, n);
		if (detect_packet_tagged(w->dt))
			output_tagged_packet(w->e->outputs, p);
		ran = w->dt;
	}
	/* the worker's engine, not the start-up one: a reload may have freed it */
	verdict_finish(ran, detect_thread_engine(w->dt), w->e->outputs, w->tc, p);
	output_anomaly(w->e->outputs, p);
	if (f && f->alstate) {
		tx_log(w, p, f, 0);
		frames_done(w, p, f, 0);
	}
	/* encryption-handling bypass: the packets after this one skip
	 * everything (flow_bypassed_packet) */
	if (f && f->alstate && !(f->ep_flags & FLOW_LOCAL_BYPASS) && app_layer_flow_bypass(f))
		f->ep_flags |= FLOW_LOCAL_BYPASS;
	flow_table_timeout(w->ft, &p->ts);
}

/* ---- capture threads: single, workers ---- */

/* Main thread: what the signal handlers asked for. SIGUSR2 queues a rule
 * reload on the reload thread (never built here: this may be a capture
 * thread). */
static void control_poll(Engine *e)
{
	RunControl *c = e->ctl;

	if (!c)
		return;
	/* the unix socket's thread sets these too (log-reopen) */
	if (__atomic_load_n(&c->reopen, __ATOMIC_RELAXED)) {
		__atomic_store_n(&c->reopen, 0, __ATOMIC_RELAXED);
		if (c->on_reopen)
			c->on_reopen(c->arg);
	}
	if (c->reload) {
		char msg[256];

		c->reload = 0;
		if (!e->reload)
			log_notice("SIGUSR2: detection is disabled: no rules to reload");
		else if (reloader_request(e->reload, 0, msg, sizeof(msg)) > 0)
			log_notice("SIGUSR2: rule reload started");
		else
			log_notice("SIGUSR2: rule reload not started: %s", msg);
	}
	if (e->live && c->on_tick) {
		struct timespec now;

		clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
		if (now.tv_sec != c->last_tick.tv_sec) {
			c->last_tick = now;
			c->on_tick(c->arg);
		}
	}
}

/* The next packet of cap: one that is ready at once; when none is, dry(arg)
 * first (the thread publishes what it holds: autofp's queue batches), then
 * a wait of at most IDLE_TICK_MS. A file source is never dry. */
static int capture_get(Capture *cap, Packet *p, void (*dry)(void *), void *arg)
{
	int r = capture_next(cap, p, 0);

	if (r != CAPTURE_IDLE)
		return r;
	if (dry)
		dry(arg);
	return capture_next(cap, p, IDLE_TICK_MS);
}

/* Packets between two updates of the kernel counters, and between two looks
 * at the signal flags and the clock (a light link is seldom idle). */
#define HOUSEKEEPING_EVERY 4096
#define CONTROL_EVERY 64

/* A live source's idle tick on the thread that owns the flow table: flows
 * time out on wall-clock time (the time the kernel stamps packets with),
 * their streams are flushed, inspected and logged. */
static void worker_idle(Worker *w)
{
	struct timeval now;

	worker_sync(w);
	gettimeofday(&now, NULL);
	flow_table_timeout(w->ft, &now);
}

static Packet *single_get(void *arg)
{
	return packet_pool_get(arg, 0);
}

static void single_put(void *arg, Packet *p)
{
	packet_pool_put_local(arg, p);
}

/* One thread from capture to logging: single (the main thread), and each
 * thread of workers (share: how many split the flow memcap). */
static int capture_worker(Engine *e, Capture *cap, PacketPool *pool, ThreadCounters *rx_tc,
			  unsigned id, unsigned share, int main_thread)
{
	Worker w;
	DecodeThread *dt;
	Packet *p;
	uint64_t n = 0;

	if (worker_init(&w, e, id, share, NULL, NULL) != 0) {
		worker_fini(&w);
		return -1;
	}
	dt = decode_thread_new(&e->cfg.decode, rx_tc, single_get, single_put, pool);
	if (!dt) {
		worker_fini(&w);
		return -1;
	}
	while ((p = packet_pool_get(pool, 0)) != NULL) {
		int r = capture_get(cap, p, NULL, NULL);

		if (r != CAPTURE_PACKET) {
			packet_pool_put_local(pool, p);
			if (r == CAPTURE_END)
				break;
			worker_idle(&w);
			capture_update_counters(cap, rx_tc);
			if (main_thread)
				control_poll(e);
			continue;
		}
		if (++n % HOUSEKEEPING_EVERY == 0)
			capture_update_counters(cap, rx_tc);
		if (main_thread && n % CONTROL_EVERY == 0)
			control_poll(e);
		decode_packet(dt, p);
		worker_sync(&w);
		worker_process(&w, p);
		while (p) {
			Packet *q = p->pseudo;

			if (q) {
				p->pseudo = NULL;
				worker_process(&w, q);
			}
			packet_pool_put_local(pool, p);
			p = q;
		}
	}
	capture_update_counters(cap, rx_tc);
	worker_fini(&w);
	decode_thread_free(dt);
	return 0;
}

static int run_single(Engine *e, PacketPool *pool, ThreadCounters *rx_tc)
{
	return capture_worker(e, e->caps[0], pool, rx_tc, 0, 1, 1);
}

typedef struct CaptureThread {
	Engine *e;
	unsigned id;
	pthread_t thread;
	int rc;
	_Atomic int done;
} CaptureThread;

static void *capture_thread_main(void *arg)
{
	CaptureThread *ct = arg;
	Engine *e = ct->e;
	PacketPool pool;
	ThreadCounters *tc;

	ct->rc = -1;
	/* max-pending-packets is per thread, as in Suricata */
	if (packet_pool_init(&pool, e->cfg.max_pending_packets) != 0) {
		log_error("runmode workers: thread %u cannot allocate %u packets "
			  "(max-pending-packets)", ct->id, e->cfg.max_pending_packets);
		atomic_store(&ct->done, 1);
		return NULL;
	}
	tc = thread_counters_new();
	if (tc)
		ct->rc = capture_worker(e, e->caps[ct->id], &pool, tc, ct->id, e->ncaps, 0);
	thread_counters_retire(tc);
	packet_pool_destroy(&pool);
	atomic_store(&ct->done, 1);
	return NULL;
}

/* workers: a thread per capture handle; the main thread serves the signals. */
static int run_workers(Engine *e)
{
	CaptureThread *ct = calloc(e->ncaps, sizeof(*ct));
	unsigned started = 0, left;
	int rc = 0;

	if (!ct)
		return -1;
	for (unsigned i = 0; i < e->ncaps; i++) {
		ct[i].e = e;
		ct[i].id = i;
		if (pthread_create(&ct[i].thread, NULL, capture_thread_main, &ct[i]) != 0) {
			log_error("runmode workers: cannot start capture thread %u", i);
			if (e->ctl)
				e->ctl->stop = 1;
			rc = -1;
			break;
		}
		started++;
	}
	do {
		struct timespec ts = { 0, IDLE_TICK_MS * 1000000L };

		left = 0;
		for (unsigned i = 0; i < started; i++)
			left += !atomic_load(&ct[i].done);
		control_poll(e);
		if (left)
			nanosleep(&ts, NULL);
	} while (left);
	for (unsigned i = 0; i < started; i++) {
		pthread_join(ct[i].thread, NULL);
		if (ct[i].rc != 0)
			rc = -1;
	}
	free(ct);
	return rc;
}

/* ---- autofp ---- */

static void worker_give_back(Worker *w, PacketPool *pool)
{
	if (!w->ret_n)
		return;
	packet_pool_return(pool, w->ret_head, w->ret_tail, w->ret_n);
	w->ret_head = w->ret_tail = NULL;
	w->ret_n = 0;
}

static void worker_release(Worker *w, PacketPool *pool, Packet *p)
{
	p->pseudo = NULL;
	p->next = w->ret_head;
	w->ret_head = p;
	if (!w->ret_tail)
		w->ret_tail = p;
	if (++w->ret_n == RETURN_BATCH)
		worker_give_back(w, pool);
}

/* Dispatch-order watermark: the first order_seq not yet processed by any
 * worker. Thresholds count across flows (and so across workers); a worker
 * about to count one waits for the watermark to reach its packet so that
 * autofp counts in capture order, as single does. done[] holds the packets
 * finished ahead of the watermark; the reader keeps that span under `span`. */
typedef struct OrderTrack {
	_Atomic uint64_t watermark;
	_Atomic uint8_t *done;
	uint64_t mask;
	uint64_t next_seq;          /* RX thread only */
	uint64_t span;              /* most sequence numbers pending at once */
	_Atomic int valve_logged;
} OrderTrack;

typedef struct AutofpCtx {
	Engine *e;
	PacketPool *pool;
	Worker *workers;
	unsigned n;
	OrderTrack order;
	/* ac-cuda: the GPU prefilter and one ticket per pool packet */
	DetectGpu *gpu;
	DetectGpuTicket *gpu_tickets;
	uint64_t gpu_rx_n;
	/* rule reload: the RX thread follows the engine generations too, to
	 * queue each payload for the automata of the engine in use */
	ReloadSlot *gpu_rs;
	uint64_t gpu_gen;
	int gpu_on;                 /* set before the workers start: gpu changes */
} AutofpCtx;

static int order_init(OrderTrack *o, uint32_t inflight)
{
	uint64_t size = 64;

	while (size < 2ull * inflight + 64)
		size <<= 1;
	o->done = calloc(size, sizeof(*o->done));
	o->mask = size - 1;
	atomic_init(&o->watermark, 1);   /* order_seq is 1-based */
	o->next_seq = 1;
	o->span = size / 2;
	return o->done ? 0 : -1;
}

static void order_done(OrderTrack *o, uint64_t seq)
{
	uint64_t w;

	if (!seq)
		return;
	atomic_store_explicit(&o->done[seq & o->mask], 1, memory_order_release);
	w = atomic_load(&o->watermark);
	while (atomic_load_explicit(&o->done[w & o->mask], memory_order_acquire)) {
		if (atomic_compare_exchange_weak(&o->watermark, &w, w + 1)) {
			atomic_store_explicit(&o->done[w & o->mask], 0, memory_order_relaxed);
			w = w + 1;
		}
	}
}

/* Waits until every packet dispatched before p is done. The RX thread
 * publishes all queues before it blocks, so the wait always ends; the 2 s
 * bound (no progress of the watermark for 2 s) is a safety valve that keeps a
 * future bug from hanging a run: it says so in the log, once. */
static void order_wait(void *arg, const Packet *p)
{
	OrderTrack *o = arg;
	struct timespec t0, now;
	uint64_t last, cur;
	int spins = 0;

	if (!p->order_seq)
		return;
	last = atomic_load(&o->watermark);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((cur = atomic_load(&o->watermark)) < p->order_seq) {
		sched_yield();
		if (cur != last) {
			last = cur;
			clock_gettime(CLOCK_MONOTONIC, &t0);
			continue;
		}
		if (++spins % 1024)
			continue;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec >= 2) {
			if (!atomic_exchange(&o->valve_logged, 1))
				log_warning("autofp: threshold ordering gave up waiting for packet %llu "
					    "(watermark %llu); counts may differ from single",
					    (unsigned long long)p->order_seq,
					    (unsigned long long)cur);
			return;
		}
	}
}

typedef struct WorkerArg {
	AutofpCtx *ctx;
	Worker *w;
} WorkerArg;

/* ---- ac-cuda (mpm-algo: ac-cuda; detect/prefilter-gpu.h) ----
 * The RX thread copies each packet's payload into the GPU ring right after
 * decode, before dispatch; the ticket lives at the packet's pool index. The
 * worker waits for the packet's batch (one wake-up per batch) before
 * detection, which takes the payload matches from the ticket where `ac`
 * would scan, and releases the ticket after. Packets left to the CPU
 * (below min, above max, ring full) have no ticket: the worker scans. */
#define GPU_STATS_EVERY 4096

static DetectGpuTicket *gpu_ticket(AutofpCtx *ctx, const Packet *p)
{
	/* not ctx->gpu: the RX thread changes it on a reload, workers call this */
	if (!ctx->gpu_on || p < ctx->pool->packets || p >= ctx->pool->packets + ctx->pool->n)
		return NULL;
	return &ctx->gpu_tickets[p - ctx->pool->packets];
}

static int gpu_start(AutofpCtx *ctx)
{
	Engine *e = ctx->e;

	if (e->reload) {
		/* the engine in use now (a reload may have replaced the start-up
		 * one already): it lives while we hold the slot */
		const DetectEngine *de = NULL;

		ctx->gpu_rs = reload_join(e->reload, NULL, NULL, NULL, &de, &ctx->gpu_gen);
		if (!ctx->gpu_rs)
			return -1;
		ctx->gpu = detect_engine_gpu(de);
		if (!ctx->gpu) {
			reload_leave(e->reload, ctx->gpu_rs, NULL, &ctx->gpu_gen);
			ctx->gpu_rs = NULL;
		}
	} else {
		ctx->gpu = e->detect ? detect_engine_gpu(e->detect) : NULL;
	}
	if (!ctx->gpu)
		return 0;
	ctx->gpu_on = 1;
	ctx->gpu_tickets = calloc(ctx->pool->n, sizeof(*ctx->gpu_tickets));
	detect_gpu_set_pool(ctx->gpu, ctx->pool->n);
	return ctx->gpu_tickets ? 0 : -1;
}

/* RX thread, between two packets: a reload swapped engines. The open batch
 * of the old automata is cut (its packets must not wait for a deadline),
 * the next payloads go to the new engine's; the reloader frees the old
 * ones once their tickets are all released. */
static void gpu_rx_sync(AutofpCtx *ctx)
{
	DetectGpu *old = ctx->gpu;

	if (!ctx->gpu_rs || !reload_pending(ctx->e->reload, ctx->gpu_gen))
		return;
	detect_gpu_flush(old);
	ctx->gpu = reload_gpu(ctx->e->reload);
	detect_gpu_set_pool(ctx->gpu, ctx->pool->n);
	/* the acknowledgement last: the old automata are ours until then */
	reload_pickup(ctx->e->reload, ctx->gpu_rs, NULL, &ctx->gpu_gen);
}

/* RX thread, after decode, before dispatch. */
static void gpu_rx_submit(AutofpCtx *ctx, Packet *p)
{
	DetectGpuTicket *gt = gpu_ticket(ctx, p);

	if (!gt)
		return;
	gpu_rx_sync(ctx);
	detect_gpu_rx_resumed(ctx->gpu);
	detect_gpu_submit(ctx->gpu, p, gt);
	if (++ctx->gpu_rx_n % GPU_STATS_EVERY == 0)
		detect_gpu_update_counters(ctx->gpu);
}

/* RX thread, end of input: no packet may wait for batching-timeout. */
static void gpu_rx_end(AutofpCtx *ctx)
{
	if (ctx->gpu)
		detect_gpu_flush(ctx->gpu);
}

/* After the workers joined: every ticket was released. */
static void gpu_stop(AutofpCtx *ctx)
{
	if (ctx->gpu)
		detect_gpu_update_counters(ctx->gpu);
	if (ctx->gpu_rs) {
		reload_leave(ctx->e->reload, ctx->gpu_rs, NULL, &ctx->gpu_gen);
		ctx->gpu_rs = NULL;
	}
	free(ctx->gpu_tickets);
	ctx->gpu_tickets = NULL;
}

static void worker_process_gpu(AutofpCtx *ctx, Worker *w, Packet *p)
{
	DetectGpuTicket *gt = w->dt ? gpu_ticket(ctx, p) : NULL;

	worker_sync(w);
	if (gt)
		detect_gpu_begin(w->dt, gt);
	worker_process(w, p);
	if (gt)
		detect_gpu_end(w->dt, gt);
}
/* ---- end of ac-cuda ---- */

static void *worker_main(void *arg)
{
	WorkerArg *wa = arg;
	Worker *w = wa->w;
	PacketPool *pool = wa->ctx->pool;

	for (;;) {
		Packet *p = packet_ring_try_pop(&w->ring);

		if (!p) {
			/* Before sleeping, hand back what we hold: the reader may be
			 * waiting for exactly these packets. */
			worker_give_back(w, pool);
			if (wa->ctx->e->live) {
				int closed;

				p = packet_ring_pop_timed(&w->ring, IDLE_TICK_MS, &closed);
				if (!p && closed)
					break;
				if (!p) {
					worker_idle(w);
					continue;
				}
			} else {
				p = packet_ring_pop(&w->ring);
				if (!p)
					break;
			}
		}
		worker_process_gpu(wa->ctx, w, p);
		order_done(&wa->ctx->order, p->order_seq);
		worker_release(w, pool, p);
	}
	worker_give_back(w, pool);
	/* Flush here, on the owning thread: flow records of this worker's flows. */
	worker_fini(w);
	return NULL;
}

static Packet *autofp_get(void *arg)
{
	return packet_pool_get(arg, 1);
}

static void autofp_put(void *arg, Packet *p)
{
	packet_pool_put_local(arg, p);
}

static void autofp_flush_all(void *arg)
{
	AutofpCtx *ctx = arg;

	for (unsigned i = 0; i < ctx->n; i++)
		packet_ring_flush(&ctx->workers[i].ring);
	/* ac-cuda: the reader is about to wait; workers waiting for the open
	 * batch get it cut (now or when they start waiting) */
	if (ctx->gpu)
		detect_gpu_rx_blocking(ctx->gpu, 0);
}

/* A live source has nothing ready: the workers get what the reader holds.
 * The open GPU batch is left to the dispatcher's batching-timeout deadline,
 * which cuts it on a quiet link too; cutting here would cut a batch per
 * ring block handed over by the kernel, far too small for the GPU. */
static void autofp_publish(void *arg)
{
	AutofpCtx *ctx = arg;

	for (unsigned i = 0; i < ctx->n; i++)
		packet_ring_flush(&ctx->workers[i].ring);
}

/* The pool ran dry: the same, counted as its own cut reason so that a
 * pool too small for the GPU's batches shows (mpm.cuda.cut.pool_dry). */
static void autofp_pool_dry(void *arg)
{
	AutofpCtx *ctx = arg;

	for (unsigned i = 0; i < ctx->n; i++)
		packet_ring_flush(&ctx->workers[i].ring);
	if (ctx->gpu)
		detect_gpu_rx_blocking(ctx->gpu, 1);
}

static void autofp_dispatch(AutofpCtx *ctx, Packet *p)
{
	Worker *w = &ctx->workers[p->flow_hash % ctx->n];

	/* done[] holds one flag per sequence number modulo its size, so the packets
	 * between the watermark and the newest one must fit in it; a fast worker
	 * may otherwise run thousands of packets ahead of a slow one and alias
	 * flags. Hold the reader back instead (rare: one worker must lag by half
	 * the table); the oldest packet never waits for anything, so this ends. */
	if (ctx->order.next_seq - atomic_load(&ctx->order.watermark) >= ctx->order.span) {
		autofp_flush_all(ctx);
		while (ctx->order.next_seq - atomic_load(&ctx->order.watermark) >= ctx->order.span)
			sched_yield();
	}
	p->order_seq = ctx->order.next_seq++;
	/* About to block on a full queue: publish every queue first, or a worker
	 * waiting in capture order for a packet we still hold would never see it. */
	if (packet_ring_full(&w->ring))
		autofp_flush_all(ctx);
	packet_ring_push(&w->ring, p);
}

static int run_autofp(Engine *e, PacketPool *pool, ThreadCounters *rx_tc)
{
	AutofpCtx ctx = { .e = e, .pool = pool, .n = e->cfg.workers };
	WorkerArg *args;
	DecodeThread *dt;
	unsigned started = 0;
	int rc = -1;
	/* Each queue may hold the whole pool: the pool, not the queue, bounds memory. */
	uint32_t qsize = e->cfg.max_pending_packets;

	ctx.workers = calloc(ctx.n, sizeof(Worker));
	args = calloc(ctx.n, sizeof(WorkerArg));
	dt = decode_thread_new(&e->cfg.decode, rx_tc, autofp_get, autofp_put, pool);
	if (!ctx.workers || !args || !dt || order_init(&ctx.order, qsize) != 0 ||
	    gpu_start(&ctx) != 0)
		goto out;
	for (unsigned i = 0; i < ctx.n; i++) {
		if (worker_init(&ctx.workers[i], e, i, ctx.n, order_wait, &ctx.order) != 0 ||
		    packet_ring_init(&ctx.workers[i].ring, qsize) != 0)
			goto stop;
		args[i].ctx = &ctx;
		args[i].w = &ctx.workers[i];
		if (pthread_create(&ctx.workers[i].thread, NULL, worker_main, &args[i]) != 0) {
			log_error("runmode: cannot start worker thread %u", i);
			goto stop;
		}
		started++;
	}
	pool->before_wait = autofp_pool_dry;
	pool->before_wait_arg = &ctx;
	for (uint64_t n = 0;;) {
		Packet *p = packet_pool_get(pool, 1);
		int r = capture_get(e->caps[0], p, autofp_publish, &ctx);

		if (r != CAPTURE_PACKET) {
			packet_pool_put_local(pool, p);
			if (r == CAPTURE_END)
				break;
			/* idle: the workers tick their own flow tables */
			gpu_rx_sync(&ctx);
			capture_update_counters(e->caps[0], rx_tc);
			control_poll(e);
			continue;
		}
		if (++n % HOUSEKEEPING_EVERY == 0)
			capture_update_counters(e->caps[0], rx_tc);
		if (n % CONTROL_EVERY == 0)
			control_poll(e);
		decode_packet(dt, p);
		/* Pseudo packets (a reassembled datagram, a tunnel's inner packet)
		 * travel on their own: each belongs to the worker of its own flow. */
		while (p) {
			Packet *q = p->pseudo;

			p->pseudo = NULL;
			gpu_rx_submit(&ctx, p);
			autofp_dispatch(&ctx, p);
			p = q;
		}
	}
	capture_update_counters(e->caps[0], rx_tc);
	rc = 0;
stop:
	/* no reload from here on: the RX thread and the workers leave (the
	 * unix-socket runmode's reloader serves the next files too) */
	if (!e->repeat_runs)
		reloader_stop(e->reload);
	gpu_rx_end(&ctx);
	pool->before_wait = NULL;
	for (unsigned i = 0; i < ctx.n; i++)
		if (ctx.workers[i].ring.slots)
			packet_ring_close(&ctx.workers[i].ring);
	for (unsigned i = 0; i < started; i++)
		pthread_join(ctx.workers[i].thread, NULL);
	for (unsigned i = 0; i < ctx.n; i++) {
		worker_fini(&ctx.workers[i]);
		packet_ring_destroy(&ctx.workers[i].ring);
	}
out:
	if (dt)
		decode_thread_free(dt);
	gpu_stop(&ctx);
	free(args);
	free(ctx.workers);
	free(ctx.order.done);
	return rc;
}

void runmode_control_poll(Engine *e)
{
	control_poll(e);
}

/* ---- stats ---- */

static uint64_t uptime_s(const StatsThread *st)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)(now.tv_sec - st->started.tv_sec);
}

static void stats_write(StatsThread *st)
{
	size_t n = counters_count();
	uint64_t *snap = calloc(n ? n : 1, sizeof(uint64_t));
	struct timeval now;

	if (!snap)
		return;
	counters_snapshot(snap);
	gettimeofday(&now, NULL);
	output_stats(st->e->outputs, snap, &now, uptime_s(st));
	free(snap);
}

static void *stats_main(void *arg)
{
	StatsThread *st = arg;
	struct timespec deadline;

	pthread_mutex_lock(&st->lock);
	clock_gettime(CLOCK_REALTIME, &deadline);
	while (!st->stop) {
		deadline.tv_sec += st->e->cfg.stats_interval_s;
		while (!st->stop &&
		       pthread_cond_timedwait(&st->cond, &st->lock, &deadline) == 0)
			;
		if (st->stop)
			break;
		pthread_mutex_unlock(&st->lock);
		stats_write(st);
		pthread_mutex_lock(&st->lock);
	}
	pthread_mutex_unlock(&st->lock);
	return NULL;
}

int runmode_run(Engine *e)
{
	PacketPool pool;
	ThreadCounters *rx_tc;
	StatsThread st = { .e = e };
	int stats_thread = 0;
	int rc;

	/* workers: each capture thread has its own pool, this one stays empty */
	memset(&pool, 0, sizeof(pool));
	if (e->cfg.mode != RUNMODE_WORKERS &&
	    packet_pool_init(&pool, e->cfg.max_pending_packets) != 0) {
		log_error("runmode: cannot allocate %u packets (max-pending-packets)",
			  e->cfg.max_pending_packets);
		return -1;
	}
	rx_tc = thread_counters_new();
	if (!rx_tc) {
		packet_pool_destroy(&pool);
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &st.started);
	pthread_mutex_init(&st.lock, NULL);
	pthread_cond_init(&st.cond, NULL);
	if (e->cfg.stats_enabled && e->cfg.stats_interval_s > 0 &&
	    pthread_create(&st.thread, NULL, stats_main, &st) == 0)
		stats_thread = 1;

	outputs_run_start(e->outputs);
	if (e->cfg.mode == RUNMODE_SINGLE)
		rc = run_single(e, &pool, rx_tc);
	else if (e->cfg.mode == RUNMODE_WORKERS)
		rc = run_workers(e);
	else
		rc = run_autofp(e, &pool, rx_tc);
	/* the flow records of the run, before its final stats record */
	outputs_run_stop(e->outputs);

	if (stats_thread) {
		pthread_mutex_lock(&st.lock);
		st.stop = 1;
		pthread_cond_signal(&st.cond);
		pthread_mutex_unlock(&st.lock);
		pthread_join(st.thread, NULL);
	}
	/* The final record: every thread has stopped, the counters are complete. */
	if (e->cfg.stats_enabled)
		stats_write(&st);
	thread_counters_retire(rx_tc);
	pthread_mutex_destroy(&st.lock);
	pthread_cond_destroy(&st.cond);
	packet_pool_destroy(&pool);
	return rc;
}
