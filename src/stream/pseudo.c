/* The flow-end pseudo packet (stream_end_packet, stream.h). It is built
 * here because it is made of the flow's tuple and the session's state:
 * detection's last inspection and the loggers at flow end see a packet
 * like the flow's last one of that direction, with no payload. */
#include "stream/stream.h"

#include <string.h>

Packet *stream_end_packet(Packet *p, Flow *f, int dir)
{
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
	p->in_iface = f->in_iface;
	p->stream_flags = STREAM_PKT_HAS_SESSION | STREAM_PKT_CLOSED;
	if (ts >= TCP_ESTABLISHED)
		p->stream_flags |= STREAM_PKT_ESTABLISHED | STREAM_PKT_WAS_ESTABLISHED;
	return p;
}
