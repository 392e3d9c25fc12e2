/* ICMPv4 errors and the flow they quote (flow_icmp_quote(), flow.h).
 *
 * Suricata 8 handles an ICMPv4 destination unreachable with the TCP or UDP
 * flow whose packet it quotes: the flow hash, and so the autofp worker, is the
 * quoted tuple's, the packet counts in that flow and shares its verdict (a
 * dropped flow drops it). No ICMPv4 error message (unreachable, source
 * quench, redirect, time exceeded, parameter problem) ever creates a flow of
 * its own. ICMPv6 errors are flowed as any ICMPv6 packet: Suricata 8 looks at
 * the quote of ICMPv4 unreachables only.
 *
 * The quote is the original IP header plus at least 8 bytes of its payload
 * (RFC 792). Suricata takes it for a flow only when it holds a whole TCP
 * header (20 bytes) or a UDP header (8); we read the ports after the quoted
 * header's own length (IHL), where Suricata assumes 20 bytes. */
#include "flow/flow.h"

#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

#define ICMP_DEST_UNREACH 3
#define ICMP_UNREACH_CODE_MAX 15 /* Suricata decodes no quote past code 15 */

int flow_icmpv4_is_error(uint8_t type)
{
	return type == 3 || type == 4 || type == 5 || type == 11 || type == 12;
}

int flow_icmp_quote_parse(const uint8_t *b, uint32_t len, FlowIcmpQuote *q)
{
	uint32_t ihl, need;

	if (len < 20 || (b[0] >> 4) != 4)
		return 0;
	ihl = (uint32_t)(b[0] & 0x0f) * 4;
	if (ihl < 20 || ihl > len)
		return 0;
	switch (b[9]) {
	case IPPROTO_TCP:
		need = 20;
		break;
	case IPPROTO_UDP:
		need = 8;
		break;
	default:
		return 0;
	}
	if (len - ihl < need)
		return 0;
	memset(q, 0, sizeof(*q));
	q->proto = b[9];
	q->src.family = q->dst.family = AF_INET;
	memcpy(&q->src.a.u32[0], b + 12, 4);
	memcpy(&q->dst.a.u32[0], b + 16, 4);
	q->sp = (uint16_t)(b[ihl] << 8 | b[ihl + 1]);
	q->dp = (uint16_t)(b[ihl + 2] << 8 | b[ihl + 3]);
	return 1;
}

int flow_icmp_quote(const Packet *p, FlowIcmpQuote *q)
{
	if (p->proto != IPPROTO_ICMP || p->ip_version != 4 || !p->l4 ||
	    (p->flags & PKT_INVALID) || p->icmp_type != ICMP_DEST_UNREACH ||
	    p->icmp_code > ICMP_UNREACH_CODE_MAX || !p->payload)
		return 0;
	return flow_icmp_quote_parse(p->payload, p->payload_len, q);
}
