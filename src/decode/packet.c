#include "decode/packet.h"

#include <string.h>

void packet_reset(Packet *p)
{
	uint8_t *data = p->data;
	void *pool = p->pool;

	/* Everything else is per-packet state: start from zero. The data buffer
	 * and the owning pool belong to the packet's slot, not to the packet. */
	memset(p, 0, sizeof(*p));
	p->data = data;
	p->pool = pool;
	p->tcp_wscale = 0xff;
}
