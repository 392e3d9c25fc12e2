/* Private to src/decode/: the per-thread decoder state, counter ids and the
 * layer decoders' entry points. Nothing outside src/decode/ includes this. */
#ifndef DECODE_DECODE_INT_H
#define DECODE_DECODE_INT_H

#include "decode/decode.h"
#include "decode/events.h"

#include <stdint.h>
#include <string.h>

/* Suricata's decoder.max-layers default: deeper nesting marks the packet invalid. */
#define DECODE_MAX_LAYERS 16

struct Defrag;

struct DecodeThread {
	DecodeConfig cfg;
	ThreadCounters *tc;
	packet_get_fn get_packet;
	packet_put_fn put_packet;
	void *pool_arg;
	struct Defrag *defrag;
	int layers;                 /* layers decoded in the current packet */
	int in_pseudo;              /* decoding a reassembled datagram: no nested defrag */
};

/* Counter ids, fixed by decode_register_counters() at start, read-only after. */
struct decode_counters {
	counter_id pkts, bytes, invalid, ipv4, ipv6, ethernet, arp, unknown_ethertype;
	counter_id chdlc, raw, null, sll, sll2, tcp, udp, sctp, esp, icmpv4, icmpv6;
	counter_id ppp, pppoe, geneve, gre, vlan, vlan_qinq, vlan_qinqinq, vxlan, vntag;
	counter_id ieee8021ah, teredo, ipv4_in_ipv4, ipv6_in_ipv4, ipv4_in_ipv6, ipv6_in_ipv6;
	counter_id mpls, avg_pkt_size, max_pkt_size, max_mac_addrs_src, max_mac_addrs_dst;
	counter_id erspan, nsh, too_many_layers;
	counter_id event[DEV_MAX];
	/* defrag */
	counter_id df_v4_fragments, df_v4_reassembled, df_v4_timeouts;
	counter_id df_v6_fragments, df_v6_reassembled, df_v6_timeouts;
	counter_id df_max_frags_reached, df_max_trackers_reached, df_memuse;
	counter_id df_mgr_tracker_timeout, df_wrk_tracker_timeout;
	counter_id df_tracker_hard_reuse, df_tracker_soft_reuse;
};

extern struct decode_counters dcnt;

static inline void dc_inc(DecodeThread *dt, counter_id id)
{
	counter_inc(dt->tc, id);
}

/* Records an event on the packet (first PKT_EVENTS_MAX kept, each once) and
 * counts it every time it is raised, as Suricata does. */
void decode_set_event(DecodeThread *dt, Packet *p, enum decode_event ev);

/* An event that stops decoding at this layer: the packet is invalid. Returns -1
 * so decoders can write `return decode_invalid(...)`. */
int decode_invalid(DecodeThread *dt, Packet *p, enum decode_event ev);

/* Enters one more layer; -1 (counted, packet invalid) past DECODE_MAX_LAYERS. */
int decode_layer_enter(DecodeThread *dt, Packet *p);

/* Unaligned big-endian reads. */
static inline uint16_t rd16(const uint8_t *b)
{
	return (uint16_t)((b[0] << 8) | b[1]);
}

static inline uint32_t rd32(const uint8_t *b)
{
	return ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3];
}

static inline int decode_csum_enabled(const DecodeThread *dt)
{
	return dt->cfg.checksum != CHECKSUM_NONE;
}

/* Layer decoders: pkt points into p->data, len is the bytes of this layer and
 * everything after it that are present. Return 0, or -1 when decoding stopped
 * on a bad header (the event is already set). */
int decode_ethernet(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len);
int decode_ethertype(DecodeThread *dt, Packet *p, uint16_t type, const uint8_t *pkt,
		     uint32_t len);
int decode_sll(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len);
int decode_chdlc(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len);
int decode_sll2(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len);
int decode_null(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len);
int decode_raw(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len);
int decode_ppp(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len);
int decode_ppp_proto(DecodeThread *dt, Packet *p, uint16_t proto, const uint8_t *pkt,
		     uint32_t len);
int decode_gre(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len);
int decode_ipv4(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len);
int decode_ipv6(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len);
int decode_tcp(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len);
int decode_udp(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len);
int decode_sctp(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len);
int decode_icmpv4(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len);
int decode_icmpv6(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len);

/* Dispatch on an IP protocol number / IPv6 next header once the IP layer is done. */
int decode_ip_payload(DecodeThread *dt, Packet *p, uint8_t proto, const uint8_t *pkt,
		      uint32_t len);

/* Internet checksum helpers (host-order 32-bit accumulators). */
uint32_t csum_add(uint32_t sum, const uint8_t *b, uint32_t len);
uint16_t csum_fold(uint32_t sum);
/* Pseudo-header sum for p's current addresses and the given L4 proto/len. */
uint32_t csum_pseudo(const Packet *p, uint8_t proto, uint32_t l4len);

/* Decodes a reassembled datagram (in q->data from ip_off on, behind the link
 * header it came with) without counting decoder.pkts/bytes. */
/* pcap LINKTYPE_RAW as stored in files (DLT_RAW is 12 or 14 by platform) */
#define LINKTYPE_RAW_FILE 101

void decode_pseudo(DecodeThread *dt, Packet *q, uint32_t ip_off);

/* Decodes one layer of a tunnel's payload (pkt/len point into p->data). */
typedef int (*decode_layer_fn)(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len);

/* Suricata's tunnel model: the inner packet of GRE, ERSPAN, IP-in-IP, VXLAN,
 * Geneve travels as a pseudo packet of its own (data: the tunnel payload,
 * datalink DLT_RAW, recursion_level one more than p's, the outermost packet's
 * tuple in root), decoded with fn and linked at p->pseudo, right behind p.
 * Without a spare packet the payload is decoded into p itself, so detection
 * still sees the inner layers. Returns 1 when an inner packet was made, 0 when
 * decoded in place, -1 when in-place decoding failed. */
int decode_tunnel(DecodeThread *dt, Packet *p, decode_layer_fn fn, uint8_t pkt_src,
		  const uint8_t *pkt, uint32_t len);

/* UDP payload carried to a configured VXLAN / Geneve port: 1 when it was
 * taken as a tunnel (the outer packet keeps its flow, not its app layer). */
int decode_udp_tunnel(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len);
int decode_vlan_tunnel(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len);
int decode_nsh(DecodeThread *dt, Packet *p, const uint8_t *pkt, uint32_t len);

#endif
