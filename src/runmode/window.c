/* The window of a packet thread (runmode-int.h): with mpm-algo ac-cuda, a
 * thread that hands packets to its worker first collects a window of them,
 * decoded, and queues their payloads on its own ac-cuda lane; when the
 * window is complete it is cut (one device batch), and the window before
 * it, whose batch has had a window's time on the device, goes through
 * flow, stream, app layer and detection in arrival order. The packet pool
 * stays at the size ac and hs use: a thread holds at most two windows.
 *
 * Within that window, packets go through the worker's first half (flow,
 * stream, app layer) in bursts, each queueing the transaction buffers its
 * app layer made for its detection; the burst's buffers go to the device
 * in one batch, then each packet's second half (detection on) runs, in
 * arrival order. A burst never holds two packets of one flow, so each
 * detection sees its flow as its own first half left it.
 *
 * Which packet of a flow carries an alert, and the alerts themselves, are
 * unchanged: every packet is still processed whole, in order, and only
 * its payload's ids come from the device (doc/gpu.md, "The window").
 *
 * Without ac-cuda there is no window: worker_accept() processes the packet
 * at once. The runmode sees two hooks: worker_accept() after decode, and
 * worker_drain() when its input runs dry or ends. */
#include "runmode/runmode-int.h"
#include "detect/prefilter-gpu.h"
#include "util/log.h"

#include <stdlib.h>
#include <string.h>

/* Packets between two updates of the mpm.cuda.* counters. */
#define GPU_STATS_EVERY 4096

/* A feed on the engine's GPU, when detection runs with ac-cuda. */
static int window_open(Worker *w)
{
	PacketWindow *win = &w->win;
	DetectGpu *g = w->dt ? detect_engine_gpu(detect_thread_engine(w->dt)) : NULL;
	char err[256] = "";

	if (!g)
		return 0;
	if (!win->pkt) {
		win->cap = 2 * win->size + 1;
		win->pkt = calloc(win->cap, sizeof(*win->pkt));
		win->gt = calloc(win->cap, sizeof(*win->gt));
		win->fr = calloc(win->cap, sizeof(*win->fr));
		if (!win->pkt || !win->gt || !win->fr) {
			log_error("runmode: worker %u: out of memory for its ac-cuda window", w->id);
			return -1;
		}
	}
	win->feed = detect_gpu_feed_new(g, win->share, err, sizeof(err));
	if (!win->feed) {
		log_error("runmode: worker %u: %s", w->id, err);
		return -1;
	}
	return 0;
}

/* The burst: the packets that went through the first half of the worker
 * (flow, stream, app layer) and wait for their second (detection on). Their
 * transaction buffers were queued on the lane as each came through
 * (detect_gpu_tx_queue): cut them to the device, then run the second
 * halves in arrival order, each waiting for its batches. */
static void burst_finish(Worker *w)
{
	PacketWindow *win = &w->win;

	if (!win->nburst)
		return;
	detect_gpu_flush(win->feed);
	for (; win->nburst; win->nburst--) {
		Packet *p = win->pkt[win->head];
		DetectGpuTicket *gt = &win->gt[win->head];
		WorkerFront *fr = &win->fr[win->head];

		win->head = (win->head + 1) % win->cap;
		win->n--;
		win->cut--;
		if (fr->f)
			fr->f->pinned = 0;
		detect_gpu_begin(w->dt, gt);
		worker_back(w, p, fr);
		detect_gpu_end(w->dt, gt);
		if (++win->processed % GPU_STATS_EVERY == 0)
			detect_gpu_update_counters(detect_gpu_feed_gpu(win->feed));
		win->done(w, p, win->done_arg);
	}
	memset(win->burst_bits, 0, sizeof(win->burst_bits));
}

/* Whether a packet of p's flow waits in the burst. The flow is not looked
 * up yet (that is the first half's work, and it changes the flow), so the
 * test is on the flow hash decode stored: equal hashes of two flows only
 * end a burst early. */
static int burst_has_flow(const PacketWindow *win, const Packet *p)
{
	uint32_t h = p->flow_hash, b = h & 255;

	if (!(win->burst_bits[b >> 6] & (1ull << (b & 63))))
		return 0;
	for (uint32_t i = 0; i < win->nburst; i++)
		if (win->burst_hash[i] == h)
			return 1;
	return 0;
}

/* The k oldest packets, in order: their batches were cut. A packet of a
 * flow already in the burst ends it first: the second half of the earlier
 * packet must see the flow, its stream and its transactions as its own
 * first half left them (doc/gpu.md, "The burst"). Its flow is pinned
 * meanwhile: neither a timeout nor an eviction under memcap, made by
 * another packet's halves, may end it. */
static void window_run(Worker *w, uint32_t k)
{
	PacketWindow *win = &w->win;

	for (; k; k--) {
		uint32_t at;
		Packet *p;
		WorkerFront *fr;

		if (win->nburst == WINDOW_BURST_MAX ||
		    burst_has_flow(win, win->pkt[(win->head + win->nburst) % win->cap]))
			burst_finish(w);
		at = (win->head + win->nburst) % win->cap;
		p = win->pkt[at];
		fr = &win->fr[at];
		worker_front(w, p, fr);
		if (fr->f)
			fr->f->pinned = 1;
		detect_gpu_tx_queue(w->dt, win->feed, p, &win->gt[at]);
		win->burst_hash[win->nburst++] = p->flow_hash;
		win->burst_bits[(p->flow_hash & 255) >> 6] |= 1ull << (p->flow_hash & 63);
	}
	burst_finish(w);
}

int worker_window_init(Worker *w, uint32_t size, unsigned share, worker_done_fn done,
		       void *done_arg)
{
	PacketWindow *win = &w->win;

	win->done = done;
	win->done_arg = done_arg;
	win->share = share;
	win->size = size ? size : 1;
	return window_open(w);
}

void worker_accept(Worker *w, Packet *p)
{
	PacketWindow *win = &w->win;
	uint32_t at, older;

	worker_sync(w);
	if (!win->feed) {
		worker_process(w, p);
		win->done(w, p, win->done_arg);
		return;
	}
	at = (win->head + win->n) % win->cap;
	win->pkt[at] = p;
	detect_gpu_submit(win->feed, p, &win->gt[at]);
	win->n++;
	if (win->n - win->cut < win->size)
		return;
	/* the open window is complete: to the device with it, and on with
	 * the one before, which has been there for a window's time */
	older = win->cut;
	detect_gpu_flush(win->feed);
	win->cut = win->n;
	window_run(w, older);
}

void worker_drain(Worker *w)
{
	PacketWindow *win = &w->win;

	if (!win->feed || !win->n)
		return;
	detect_gpu_flush(win->feed);
	win->cut = win->n;
	window_run(w, win->n);
}

static void window_close(Worker *w)
{
	PacketWindow *win = &w->win;

	worker_drain(w);
	if (win->feed)
		detect_gpu_update_counters(detect_gpu_feed_gpu(win->feed));
	detect_gpu_feed_free(win->feed);
	win->feed = NULL;
}

void worker_window_fini(Worker *w)
{
	window_close(w);
	free(w->win.pkt);
	free(w->win.gt);
	free(w->win.fr);
	w->win.pkt = NULL;
	w->win.gt = NULL;
	w->win.fr = NULL;
}

/* A rule reload published a new engine: the window goes through with the
 * engine its payloads were queued for, then the thread takes up the new
 * one and opens a feed on its GPU. */
void worker_reload(Worker *w)
{
	window_close(w);
	w->dt = reload_pickup(w->e->reload, w->rs, w->dt, &w->rgen);
	output_thread_set_detect(&w->ot, w->dt);
	if (w->win.done && window_open(w) != 0)
		log_error("runmode: worker %u: ac-cuda off for this thread after the reload: "
			  "its payloads are scanned on the CPU", w->id);
}
