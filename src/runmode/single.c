/* single: one thread, the main one, reads, decodes, tracks flows and
 * inspects (the reference the other runmodes must equal). */
#include "runmode/runmode-int.h"

int run_single(Engine *e, PacketPool *pool, ThreadCounters *rx_tc)
{
	return capture_worker(e, e->caps[0], pool, rx_tc, 0, 1, 1);
}
