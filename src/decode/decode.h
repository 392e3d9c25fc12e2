/* Decoders: link layer to L4, tunnels, defragmentation, decoder events.
 *
 * Each RX thread owns one DecodeThread. decode_packet() fills the Packet from its
 * data according to p->datalink and counts decoder.* counters. A fragment that
 * completes an IP datagram makes a pseudo packet (taken with get_packet) holding
 * the whole datagram, decoded as well and linked at p->pseudo; the caller processes
 * it right after p. */
#ifndef DECODE_DECODE_H
#define DECODE_DECODE_H

#include "decode/packet.h"
#include "stats/counters.h"

#include <stdint.h>

/* checksum validation, as Suricata's -k / checksum-checks */
enum checksum_mode {
	CHECKSUM_AUTO = 0,   /* validate (pcap files rarely carry offloaded sums) */
	CHECKSUM_ALL,
	CHECKSUM_NONE,
};

typedef struct DefragConfig {
	uint64_t memcap;            /* defrag.memcap, default 32mb */
	uint32_t timeout_s;         /* defrag.timeout, default 60 */
	uint32_t max_frags;         /* defrag.max-frags, default 65535 */
	uint32_t trackers;          /* defrag.trackers, default 65535 */
} DefragConfig;

/* UDP encapsulations Suricata looks for on up to 4 destination ports. */
#define DECODE_TUNNEL_PORTS_MAX 4

typedef struct UdpTunnelConfig {
	int enabled;
	uint8_t nports;
	uint16_t ports[DECODE_TUNNEL_PORTS_MAX];
} UdpTunnelConfig;

typedef struct DecodeConfig {
	enum checksum_mode checksum;
	DefragConfig defrag;
	int defrag_enabled;         /* defrag.enabled? no such key in suricata: always 1 */
	UdpTunnelConfig vxlan;      /* decoder.vxlan: enabled, ports 4789 */
	UdpTunnelConfig geneve;     /* decoder.geneve: enabled, ports 6081 */
	int recursion_for_tracking; /* decoder.recursion-level.use-for-tracking, yes */
	int vlan_for_tracking;      /* vlan.use-for-tracking, yes: vlan ids key flows */
} DecodeConfig;

/* Reads "defrag.*", "decoder.*" from the conf tree into cfg (defaults first). 0 or -1 (logged). */
int decode_config_load(DecodeConfig *cfg);

/* Registers every decoder.* and defrag.* counter. Call once before counters_freeze(). */
void decode_register_counters(void);

typedef struct DecodeThread DecodeThread;

typedef Packet *(*packet_get_fn)(void *arg);
typedef void (*packet_put_fn)(void *arg, Packet *p);

DecodeThread *decode_thread_new(const DecodeConfig *cfg, ThreadCounters *tc,
				packet_get_fn get_packet, packet_put_fn put_packet, void *pool_arg);
void decode_thread_free(DecodeThread *dt);

/* Decodes p (p->data, p->caplen, p->datalink, p->ts set by capture). Counts
 * decoder.pkts, decoder.bytes and the per-layer counters. Never fails: a bad
 * header records an event and stops decoding at that layer. */
void decode_packet(DecodeThread *dt, Packet *p);

/* True when capture's link type is one we decode. */
int decode_datalink_supported(int datalink);

/* After the engine rewrote bytes of p's TCP or UDP payload in place
 * (replace): the L4 checksum made anew over the segment, so that the
 * packet leaves valid. 0, or -1 when p is not a plain TCP/UDP packet
 * held whole (a fragment, a tunnel's inner packet, a cut capture). */
int decode_l4_csum_rewrite(Packet *p);

#endif
