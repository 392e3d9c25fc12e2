/* Weak stand-in for flow_hash_packet() so decode tests link before (or
 * without) src/flow/flow.c; the real one overrides it when linked. */
#include "flow/flow.h"

__attribute__((weak)) uint32_t flow_hash_packet(const Packet *p)
{
	uint32_t a = p->src.a.u32[0] ^ p->src.a.u32[3];
	uint32_t b = p->dst.a.u32[0] ^ p->dst.a.u32[3];

	return (a ^ b) + (uint32_t)(p->sp ^ p->dp) + p->proto + 1;
}
