/* The packet: one captured frame and what the decoders learned about it.
 * Packets live in a fixed pool (max-pending-packets); nothing on the packet path
 * allocates. A packet's data buffer is owned by the pool. */
#ifndef DECODE_PACKET_H
#define DECODE_PACKET_H

#include <stdint.h>
#include <sys/time.h>

/* Largest frame we keep: pcap snaplen ceiling, and the largest reassembled
 * IP datagram (65535) plus room for a synthetic link header. */
#define PACKET_DATA_MAX (65535 + 256)

typedef struct Address {
	uint8_t family;             /* 0 (none), AF_INET or AF_INET6 */
	union {
		uint32_t u32[4];        /* IPv4 in u32[0], network order */
		uint8_t u8[16];
	} a;
} Address;

/* TCP header flags as in Packet.tcp_flags (the wire's byte 13), defined
 * here once for every reader of that byte. */
#define TH_FIN 0x01
#define TH_SYN 0x02
#define TH_RST 0x04
#define TH_PSH 0x08
#define TH_ACK 0x10
#define TH_URG 0x20
#define TH_ECE 0x40
#define TH_CWR 0x80

/* Packet flags. */
#define PKT_PSEUDO           (1u << 0)  /* made by the engine (defrag reassembly) */
#define PKT_IS_FRAGMENT      (1u << 1)  /* an IP fragment: no L4 decoded */
#define PKT_IPV4_CSUM_BAD    (1u << 2)
#define PKT_L4_CSUM_BAD      (1u << 3)
#define PKT_INVALID          (1u << 4)  /* a decoder rejected it: no flow, no detect */
#define PKT_TUNNEL           (1u << 5)  /* carried inside GRE, IP-in-IP, 6in4, ... */
#define PKT_HAS_FLOW         (1u << 6)
#define PKT_TOSERVER         (1u << 7)  /* set by the flow engine */
#define PKT_TOCLIENT         (1u << 8)
#define PKT_REASSEMBLED      (1u << 9)  /* the datagram rebuilt from fragments */
#define PKT_ARP              (1u << 10)
#define PKT_NO_FLOW          (1u << 11) /* GRE/ERSPAN carrier: Suricata gives it no flow */
#define PKT_HAS_ETH          (1u << 12) /* eth_src/eth_dst hold the outer Ethernet header */
/* An exception policy (util/exception-policy.h) applied to this packet: no
 * detection; PKT_EP_DROP: in IPS mode the packet is dropped. */
#define PKT_EP_NO_DETECT     (1u << 13)
#define PKT_EP_DROP          (1u << 14)
/* The engine rewrote its payload (replace, IPS): the verdict sends these
 * bytes on, checksum made anew */
#define PKT_MODIFIED         (1u << 15)
/* The app layer finished detecting the protocol of this packet's direction
 * on it, or on the other side's packet before it (Suricata's
 * PKT_PROTO_DETECT_TS/TC_DONE): app-layer-protocol's prefilter form. */
#define PKT_APP_DETECT_DONE  (1u << 16)

/* Why an IPS drops a packet, as Suricata names it in eve drop.reason and
 * the ips.drop_reason.* counters (packet.c). 0: the packet is not dropped.
 * Only some are produced here; the counters exist for all of Suricata 8's
 * (its eve schema's ips.drop_reason), as an operator's dashboards expect. */
enum pkt_drop_reason {
	PKT_DROP_NONE = 0,
	PKT_DROP_DECODE_ERROR,
	PKT_DROP_DEFRAG_ERROR,
	PKT_DROP_DEFRAG_MEMCAP,
	PKT_DROP_FLOW_MEMCAP,
	PKT_DROP_FLOW_DROP,
	PKT_DROP_STREAM_ERROR,
	PKT_DROP_STREAM_MEMCAP,
	PKT_DROP_STREAM_MIDSTREAM,
	PKT_DROP_STREAM_REASSEMBLY,
	PKT_DROP_STREAM_URGENT,
	PKT_DROP_APPLAYER_ERROR,
	PKT_DROP_APPLAYER_MEMCAP,
	PKT_DROP_RULES,
	PKT_DROP_RULES_THRESHOLD,
	PKT_DROP_INNER_PACKET,
	PKT_DROP_NFQ_ERROR,
	PKT_DROP_EXCEPTION_POLICY_FLOW_DROP,
	/* Suricata 8's firewall mode (detect/firewall.c): firewall.drop_reason.*,
	 * never ips.drop_reason.*; keep them last */
	PKT_DROP_DEFAULT_PACKET_POLICY,
	PKT_DROP_DEFAULT_APP_POLICY,
	PKT_DROP_PRE_FLOW_HOOK,
	PKT_DROP_PRE_STREAM_HOOK,
	PKT_DROP_REASON_COUNT
};

/* "stream midstream" (eve), "stream_midstream" (the counter's last part). */
const char *pkt_drop_reason_name(enum pkt_drop_reason r);
const char *pkt_drop_reason_counter(enum pkt_drop_reason r);

/* Where a packet came from, as Suricata's eve "pkt_src". */
enum packet_src {
	PKT_SRC_WIRE = 0,
	PKT_SRC_DEFRAG,
	PKT_SRC_IPV4_TUNNEL,
	PKT_SRC_IPV6_TUNNEL,
	PKT_SRC_GRE_TUNNEL,
	PKT_SRC_VXLAN,
	PKT_SRC_GENEVE,
	PKT_SRC_TEREDO,
	PKT_SRC_FLOW_TIMEOUT,       /* the flow-end packets that flush its stream */
};

/* The outermost packet of a tunnel as eve's "tunnel" object shows it. Copied
 * into the inner packet: in autofp the outer packet may be recycled first. */
typedef struct PacketRoot {
	Address src, dst;
	uint16_t sp, dp;
	uint8_t proto;
	uint8_t ip_version;
	uint64_t pcap_cnt;
} PacketRoot;

#define PKT_EVENTS_MAX 8
#define PKT_STREAM_EVENTS_MAX 4

struct Flow;

typedef struct Packet {
	/* capture */
	struct timeval ts;
	uint64_t pcap_cnt;          /* pcap-file: 1-based position in the run; 0 for
	                             * pseudo packets and live captures (Suricata 8
	                             * writes pcap_cnt only when reading files) */
	const char *in_iface;       /* live: the capturing interface (eve in_iface),
	                             * owned by the capture handle; NULL for files */
	int datalink;               /* DLT_* of the capture */
	uint32_t caplen;            /* bytes in data[] */
	uint32_t wirelen;           /* length on the wire (pcap orig_len) */
	uint8_t *data;              /* pool-owned buffer of PACKET_DATA_MAX bytes */

	uint32_t flags;             /* PKT_* */

	/* layer 2 */
	uint16_t vlan_id[3];
	uint8_t vlan_count;
	uint8_t key_vlans;          /* of those, the ones flows and defrag key on:
	                             * vlan_count, 0 with vlan.use-for-tracking: false */
	uint8_t eth_src[6], eth_dst[6]; /* first Ethernet header, when PKT_HAS_ETH */
	uint16_t eth_type;          /* its EtherType, host order (eve ether_type) */

	/* tunnels: depth 0 for captured packets, +1 per tunnel layer; flow_level
	 * is the depth as the flow key sees it (0 when
	 * decoder.recursion-level.use-for-tracking is off) */
	uint8_t recursion_level;
	uint8_t flow_level;
	uint8_t pkt_src;            /* enum packet_src */
	PacketRoot root;            /* valid when recursion_level > 0 */

	/* layer 3: the innermost IP header (tunnels decode through to it) */
	uint8_t ip_version;         /* 4, 6 or 0 */
	const uint8_t *l3;          /* start of that IP header within data[] */
	uint16_t l3_hlen;           /* IPv4 IHL*4, IPv6 40 + extension headers */
	uint16_t l3_len;            /* IP total length as decoded (<= bytes present) */
	Address src, dst;
	uint8_t proto;              /* L4 protocol: IPPROTO_TCP/UDP/ICMP/ICMPV6/... */
	uint8_t ttl;                /* IPv4 TTL or IPv6 hop limit */
	uint8_t tos;                /* IPv4 TOS or IPv6 traffic class */
	uint16_t ip_id;             /* IPv4 id (IPv6: fragment id low 16 bits) */
	uint16_t frag_off;          /* IPv4 flags+offset field as on the wire (host order) */
	uint16_t ipopts;            /* bitmask of IPv4 options seen (IPV4_OPT_* in ipv4.h) */

	/* layer 4 */
	const uint8_t *l4;          /* start of the L4 header within data[] */
	uint16_t l4_hlen;
	uint16_t sp, dp;            /* ports, host order (ICMP: 0) */
	uint8_t tcp_flags;
	uint32_t tcp_seq, tcp_ack;  /* host order */
	uint16_t tcp_win;           /* unscaled */
	uint16_t tcp_urp;           /* urgent pointer (meaningful with TH_URG) */
	uint8_t tcp_wscale;         /* 0xff when the option is absent */
	uint16_t tcp_mss;           /* 0 when absent */
	uint8_t tcp_sack_permitted;
	uint8_t tcp_has_ts;
	uint32_t tcp_tsval, tcp_tsecr;
	uint8_t icmp_type, icmp_code;
	uint16_t icmp_id, icmp_seq;

	const uint8_t *payload;     /* L4 payload (or IP payload when no L4 decoded) */
	uint16_t payload_len;

	/* decoder events (decode/events.h ids), first PKT_EVENTS_MAX kept */
	uint16_t events[PKT_EVENTS_MAX];
	uint8_t nevents;

	/* stream (stream/stream.h): STREAM_PKT_* results and the stream events this
	 * packet raised (enum stream_event), first PKT_STREAM_EVENTS_MAX kept */
	uint16_t stream_flags;
	uint8_t stream_events[PKT_STREAM_EVENTS_MAX];
	uint8_t stream_nevents;
	uint8_t app_events;         /* packet-level app-layer events this packet's
	                             * data raised (APP_PEV_*, app-layer.h) */
	int64_t stream_off;         /* STREAM_PKT_ADDED: stream offset of payload[0]
	                             * (negative when it starts before the first
	                             * data byte) */

	uint8_t drop_reason;        /* enum pkt_drop_reason: the IPS verdict is drop */

	/* flow */
	uint32_t flow_hash;         /* symmetric 5-tuple + vlan hash, set by decode */
	struct Flow *flow;

	/* plumbing */
	uint64_t order_seq;         /* autofp: 1-based dispatch position, unique per packet */
	struct Packet *pseudo;      /* a reassembled datagram to process right after this one */
	struct Packet *next;        /* pool / queue link */
	void *pool;                 /* the pool the packet returns to */
	struct Capture *cap;        /* live: the handle that read it (its verdict,
	                             * reject replies); NULL for files and pseudo
	                             * packets */
	uint32_t cap_id;            /* the source's id of it (NFQUEUE packet id) */
	uint32_t cap_mark;          /* NFQUEUE: its netfilter mark */
	/* inline: a wire packet's verdict waits for the pseudo packets its
	 * decode made (capture_verdict_link): vroot is their wire packet,
	 * vpending (atomic) the packets of the group not yet done, vdrop
	 * (atomic) whether one of them was dropped */
	struct Packet *vroot;
	uint32_t vpending;
	uint8_t vdrop;
} Packet;

#define PKT_IS_IPV4(p) ((p)->ip_version == 4)
#define PKT_IS_IPV6(p) ((p)->ip_version == 6)
#define PKT_IS_TCP(p)  ((p)->proto == 6 && (p)->l4 != NULL)
#define PKT_IS_UDP(p)  ((p)->proto == 17 && (p)->l4 != NULL)

/* Clears everything the decoders and later stages set, keeping data/pool. */
void packet_reset(Packet *p);

#endif
