/* A flow's directions trade places (flow_reverse, flow.h). The flow table
 * knows its own fields; the stream engine and detection each keep
 * per-direction state of their own and swap it through their own calls,
 * so a new per-direction user adds one line here. */
#include "flow/flow.h"
#include "stream/stream.h"
#include "detect/engine.h"

void flow_reverse(Flow *f, Packet *p)
{
	flow_swap(f, p);
	stream_flow_swap(f, p);
	detect_flow_swap(f);
}
