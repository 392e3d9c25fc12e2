/* One thread from capture to logging (runmode-int.h): read, decode, the
 * worker; idle ticks on a live source. Single runs it on the main thread,
 * workers on one thread per capture handle. */
#include "runmode/runmode-int.h"

int capture_get(Capture *cap, Packet *p, void (*dry)(void *), void *arg)
{
	int r = capture_next(cap, p, 0);

	if (r != CAPTURE_IDLE)
		return r;
	if (dry)
		dry(arg);
	return capture_next(cap, p, IDLE_TICK_MS);
}

static Packet *single_get(void *arg)
{
	return packet_pool_get(arg, 0);
}

static void single_put(void *arg, Packet *p)
{
	packet_pool_put_local(arg, p);
}

static void capture_done(Worker *w, Packet *p, void *pool)
{
	Packet *root;

	if (capture_verdict(p, w->e->cfg.policy.ips, &root))
		packet_pool_put_local(pool, p);
	if (root)
		packet_pool_put_local(pool, root);
}

static void capture_dry(void *w)
{
	worker_drain(w);
}

/* Packets a capture thread keeps free beside its window, for what decode
 * makes of one packet (a reassembled datagram, tunnelled packets). */
#define POOL_RESERVE 32

int capture_worker(Engine *e, Capture *cap, PacketPool *pool, ThreadCounters *rx_tc,
		   unsigned id, unsigned share, int main_thread)
{
	Worker w;
	DecodeThread *dt;
	Packet *p;
	uint64_t n = 0;

	/* stats.threads: one thread, capture to logging, as Suricata names it
	 * (W#01 in single; W#01-eth0 per interface in workers) */
	thread_counters_set_name(rx_tc, cap->thread_name[0] ? cap->thread_name : "W#01");
	/* ac-cuda: two windows in the pool, a quarter each */
	if (worker_init(&w, e, id, share, NULL, NULL) != 0 ||
	    worker_window_init(&w, pool->n / 4, share, capture_done, pool) != 0) {
		worker_window_fini(&w);
		worker_fini(&w);
		return -1;
	}
	thread_counters_set_name(w.tc, cap->thread_name[0] ? cap->thread_name : "W#01");
	dt = decode_thread_new(&e->cfg.decode, rx_tc, single_get, single_put, pool);
	if (!dt) {
		worker_window_fini(&w);
		worker_fini(&w);
		return -1;
	}
	if (main_thread)
		runmode_started(e);
	for (;;) {
		int r;

		if (pool->n_free < POOL_RESERVE)
			worker_drain(&w);
		if (!(p = packet_pool_get(pool, 0)))
			break;
		r = capture_get(cap, p, capture_dry, &w);
		if (r != CAPTURE_PACKET) {
			packet_pool_put_local(pool, p);
			if (r == CAPTURE_END)
				break;
			worker_idle(&w);
			capture_update_counters(cap, rx_tc);
			if (main_thread)
				runmode_control_poll(e);
			continue;
		}
		if (++n % HOUSEKEEPING_EVERY == 0)
			capture_update_counters(cap, rx_tc);
		if (main_thread && n % CONTROL_EVERY == 0)
			runmode_control_poll(e);
		decode_packet(dt, p);
		capture_verdict_link(p);
		/* the packet, then what decode made of it, each on its own */
		while (p) {
			Packet *q = p->pseudo;

			p->pseudo = NULL;
			worker_accept(&w, p);
			p = q;
		}
	}
	worker_drain(&w);
	capture_update_counters(cap, rx_tc);
	worker_window_fini(&w);
	worker_fini(&w);
	decode_thread_free(dt);
	return 0;
}
