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

static const struct {
	const char *name, *counter;
} drop_reasons[PKT_DROP_REASON_COUNT] = {
	[PKT_DROP_NONE] = { "", "" },
	[PKT_DROP_DECODE_ERROR] = { "decode error", "decode_error" },
	[PKT_DROP_DEFRAG_ERROR] = { "defrag error", "defrag_error" },
	[PKT_DROP_DEFRAG_MEMCAP] = { "defrag memcap", "defrag_memcap" },
	[PKT_DROP_FLOW_MEMCAP] = { "flow memcap", "flow_memcap" },
	[PKT_DROP_FLOW_DROP] = { "flow drop", "flow_drop" },
	[PKT_DROP_STREAM_ERROR] = { "stream error", "stream_error" },
	[PKT_DROP_STREAM_MEMCAP] = { "stream memcap", "stream_memcap" },
	[PKT_DROP_STREAM_MIDSTREAM] = { "stream midstream", "stream_midstream" },
	[PKT_DROP_STREAM_REASSEMBLY] = { "stream reassembly", "stream_reassembly" },
	[PKT_DROP_STREAM_URGENT] = { "stream urgent", "stream_urgent" },
	[PKT_DROP_APPLAYER_ERROR] = { "applayer error", "applayer_error" },
	[PKT_DROP_APPLAYER_MEMCAP] = { "applayer memcap", "applayer_memcap" },
	[PKT_DROP_RULES] = { "rules", "rules" },
	[PKT_DROP_RULES_THRESHOLD] = { "threshold detection_filter", "threshold_detection_filter" },
	[PKT_DROP_INNER_PACKET] = { "tunnel packet drop", "tunnel_packet_drop" },
	[PKT_DROP_NFQ_ERROR] = { "nfq error", "nfq_error" },
	[PKT_DROP_EXCEPTION_POLICY_FLOW_DROP] = { "exception policy flow drop",
						  "exception_policy_flow_drop" },
	[PKT_DROP_DEFAULT_PACKET_POLICY] = { "default packet policy", "default_packet_policy" },
	[PKT_DROP_DEFAULT_APP_POLICY] = { "default app policy", "default_app_policy" },
	[PKT_DROP_PRE_FLOW_HOOK] = { "pre flow hook", "pre_flow_hook" },
	[PKT_DROP_PRE_STREAM_HOOK] = { "pre stream hook", "pre_stream_hook" },
};

const char *pkt_drop_reason_name(enum pkt_drop_reason r)
{
	return (unsigned)r < PKT_DROP_REASON_COUNT ? drop_reasons[r].name : "";
}

const char *pkt_drop_reason_counter(enum pkt_drop_reason r)
{
	return (unsigned)r < PKT_DROP_REASON_COUNT ? drop_reasons[r].counter : "";
}
