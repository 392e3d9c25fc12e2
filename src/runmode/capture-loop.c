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

int capture_worker(Engine *e, Capture *cap, PacketPool *pool, ThreadCounters *rx_tc,
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
				runmode_control_poll(e);
			continue;
		}
		if (++n % HOUSEKEEPING_EVERY == 0)
			capture_update_counters(cap, rx_tc);
		if (main_thread && n % CONTROL_EVERY == 0)
			runmode_control_poll(e);
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
