/* Flows: a table keyed by (proto, addresses, ports, vlan ids, tunnel depth),
 * ICMP by type (see packet_ports()), symmetric, so both
 * directions find the same flow. The packet that creates a flow is its client side
 * ("toserver"), as in Suricata (TCP SYN/ACK first seen reverses it).
 *
 * One FlowTable per worker thread: autofp sends a flow's packets to one worker
 * (by p->flow_hash), so tables are never shared and the packet path takes no lock.
 * The memcap is split evenly among the tables. Timeouts run on packet time. */
#ifndef FLOW_FLOW_H
#define FLOW_FLOW_H

#include "decode/packet.h"
#include "stats/counters.h"
#include "util/exception-policy.h"

#include <stdint.h>
#include <sys/time.h>

/* MAC addresses a flow keeps per side (Flow.macs). */
#define FLOW_MACS_MAX 4

enum flow_state {
	FLOW_STATE_NEW = 0,
	FLOW_STATE_ESTABLISHED,
	FLOW_STATE_CLOSED,
};

enum flow_end_reason {
	FLOW_END_TIMEOUT = 0,
	FLOW_END_FORCED,            /* evicted under memcap pressure */
	FLOW_END_SHUTDOWN,          /* end of run flush */
};

typedef struct FlowTimeouts {
	uint32_t new_s, established_s, closed_s, bypassed_s;
	uint32_t emerg_new_s, emerg_established_s, emerg_closed_s, emerg_bypassed_s;
} FlowTimeouts;

enum { FLOW_PROTO_TCP = 0, FLOW_PROTO_UDP, FLOW_PROTO_ICMP, FLOW_PROTO_DEFAULT, FLOW_PROTO_MAX };

typedef struct FlowConfig {
	uint64_t memcap;            /* flow.memcap, default 128mb */
	uint32_t hash_size;         /* flow.hash-size, default 65536 */
	uint32_t prealloc;          /* flow.prealloc, default 10000 */
	uint32_t emergency_recovery;/* flow.emergency-recovery, percent, default 30 */
	FlowTimeouts timeouts[FLOW_PROTO_MAX]; /* flow-timeouts.{tcp,udp,icmp,default} */
} FlowConfig;

typedef struct Flow {
	/* key: src/sp is the side that created the flow (client) */
	Address src, dst;
	uint16_t sp, dp;
	uint8_t proto;
	uint8_t ip_version;
	uint8_t level;              /* tunnel depth as the key sees it (Packet.flow_level) */
	uint16_t vlan_id[3];
	uint8_t vlan_count;
	uint8_t key_vlans;          /* of vlan_id, those the flow is keyed on */

	uint32_t hash;
	uint64_t flow_id;           /* eve flow_id: non-zero, < 2^53 */
	uint64_t parent_id;         /* eve parent_id: the flow that announced this one
	                             * (an FTP control flow's data flow); 0: none */
	struct timeval start, last;
	uint64_t pkts_toserver, pkts_toclient;
	uint64_t bytes_toserver, bytes_toclient;
	enum flow_state state;
	uint8_t tcp_flags_ts, tcp_flags_tc; /* union of TCP flags each way */
	/* IPv4 TTL / IPv6 hop limit range each way ([0] to server, [1] to
	 * client; valid once that side sent a packet): eve netflow min_ttl,
	 * max_ttl, as Suricata's per-direction TTL tracking */
	uint8_t min_ttl[2], max_ttl[2];
	uint8_t alerted;
	uint8_t emergency;          /* ended while the table was in
	                             * emergency mode: eve flow.emergency, as
	                             * Suricata's FLOW_END_FLAG_EMERGENCY */
	uint16_t app_proto;         /* 0 = unknown; set by the app layer (later issue) */
	uint16_t app_proto_orig;    /* the protocol before a change (SMTP's STARTTLS), or 0 */
	/* protocol detection's result per direction (eve app_proto_ts /
	 * app_proto_tc where it differs from app_proto; "failed" when that side
	 * named none), and the protocol a change asked for (eve
	 * app_proto_expected when the change did not end there); 0: unknown */
	uint16_t app_proto_ts, app_proto_tc;
	uint16_t app_proto_expect;
	/* the protocol the flow shows (eve app_proto, app-layer-protocol, a
	 * rule's protocol) where it differs from its parser's: doh2 on
	 * HTTP/2's (app-layer/doh2.h); 0: app_proto */
	uint16_t app_proto_shown;
	/* ICMP: type/code of the first packet each way (eve icmp_type, response_icmp_type) */
	uint8_t icmp_seen;          /* bit 0: toserver seen, bit 1: toclient seen */
	uint8_t icmp_ts_type, icmp_ts_code, icmp_tc_type, icmp_tc_code;
	/* live: the interface of the flow's first packet (eve in_iface of the
	 * records a packet does not name, flow records' included) */
	const char *in_iface;
	/* The MAC addresses the flow's Ethernet packets carried, per side
	 * ([0] the client's, [1] the server's), each once, in first-seen order:
	 * eve flow records list them all (ether src_macs, dest_macs), as
	 * Suricata 8's MAC set does; at most FLOW_MACS_MAX a side (more is a
	 * misconfigured network: the rest are not listed) */
	uint8_t n_macs[2];
	uint8_t macs[2][FLOW_MACS_MAX][6];
	/* exception policies applied (flow_exception): FLOW_EP_*, and per
	 * target 1 + the policy applied, 0 when none (eve flow.exception_policy) */
	uint8_t ep_flags;
	uint8_t ep_applied[EP_TARGET_COUNT];
	/* eve drop records written, bit 0 to server, bit 1 to client (the drop
	 * logger's "flows: start" logs one a direction) */
	uint8_t drop_logged;
	/* a pass rule passed the flow (eve flow.action "pass"); the
	 * firewall's accept:flow accepted it (FLOW_FW_ACCEPT: "accept") */
	uint8_t rule_pass;
	/* the ac-cuda window holds a packet of the flow between its two
	 * halves (runmode/window.c): no timeout or eviction ends it then */
	uint8_t pinned;

	/* per-flow state of later stages (stream, app-layer, detect); freed through
	 * the table's end callback before the flow is recycled */
	void *stream;
	void *alstate;
	void *detect;
	/* pcap-log conditional: alerts: the flow's packets held until it
	 * alerts (output/pcap-log.c), freed by its flow-end logger */
	void *pcap_held;
	/* worker pipeline progress: stream bytes handed to the app layer per
	 * direction, directions whose EOF it was told (app-layer/stream-feed.c),
	 * next tx to log (output/tx-policy.c) */
	uint64_t app_progress[2];
	/* during app_layer_handle_data(): 1 + the stream offset of the bytes
	 * handed over, 0 when they are not stream bytes at known offsets */
	uint64_t app_data_off1[2];
	uint8_t app_eof;
	/* bit d: direction d reached the reassembly depth and the app layer
	 * has all it will get of it (stream-feed.c): its side of every
	 * transaction counts as complete, as Suricata's truncated parsers */
	uint8_t app_trunc;
	/* bit d: the app layer asked for direction d's raw stream to be
	 * inspected now (a TLS record completed: Suricata's trigger-raw),
	 * cleared by that inspection */
	uint8_t raw_trigger;
	uint64_t tx_log_next;

	struct Flow *hnext;         /* hash chain */
	struct Flow *lnext, *lprev; /* table-wide LRU-by-last-packet list */
} Flow;

#define FLOW_EP_BY_RULE 0x20u /* with FLOW_EP_DROP: a TD rule dropped it, not an
                               * exception policy (the later packets' reason) */
#define FLOW_FW_ACCEPT 2u     /* Flow.rule_pass: accepted by the firewall, not passed */
#define FLOW_EP_PASS   0x01u  /* pass-flow: no more detection, still parsed and logged */
#define FLOW_EP_BYPASS 0x02u  /* bypass: no more stream, app-layer or detection */
#define FLOW_LOCAL_BYPASS 0x08u  /* bypassed by the app layer (encryption-handling
                               * bypass): as FLOW_EP_BYPASS, its later packets
                               * counted in flow_bypassed.local_* */
#define FLOW_EP_FW_DROP 0x10u /* with FLOW_EP_DROP: the firewall dropped it (its
                               * packets count as firewall.blocked) */
#define FLOW_EP_DROP   0x04u  /* IPS: dropped (a drop-flow policy, or a drop rule that
                               * acts on the flow); nothing more inspected */

/* Exception t happened on p, whose flow is f (NULL when it has none): counts
 * t's policy in tc and applies it to the packet (PKT_EP_*) and the flow. */
void flow_exception(Flow *f, Packet *p, ThreadCounters *tc, enum ep_target t);
/* Per-flow state of a later stage (detection's flow state) is counted in
 * flow.memuse of the table the calling thread works on. */
void flow_mem_add(uint64_t n);
void flow_mem_sub(uint64_t n);
/* eve flow.action: "pass" or "drop" once a policy decided it, else NULL. */
const char *flow_ep_action(const Flow *f);

/* Called for each flow that ends (timeout, eviction, shutdown) before it is
 * recycled: eve "flow" records and per-flow cleanup hang off this. */
typedef void (*flow_end_fn)(void *arg, Flow *f, enum flow_end_reason why);

typedef struct FlowTable FlowTable;

/* Defaults, then "flow.*" and "flow-timeouts.*" from the conf tree. 0 or -1 (logged). */
int flow_config_load(FlowConfig *cfg);
void flow_register_counters(void);

/* share: how many tables split cfg->memcap, hash_size and prealloc (worker count). */
FlowTable *flow_table_new(const FlowConfig *cfg, unsigned share, ThreadCounters *tc,
			  flow_end_fn on_end, void *arg);
void flow_table_free(FlowTable *ft);   /* flushes first */
/* flow.memcap at run time (memcap-set): every table's share of total from
 * its next new flow on. get: the one set, else the configured one. */
void flow_memcap_set(uint64_t total);
uint64_t flow_memcap_get(void);

/* get-flow-stats-by-id: the flow of eve flow_id id in any worker's table.
 * Each worker looks at its next flow_table_timeout (a packet, or a live
 * capture's idle tick); waits until one found it, all looked, or wait_ms
 * passed. 1 (out filled) or 0. Not for the packet path. */
typedef struct FlowQueryStats {
	uint64_t pkts_toserver, pkts_toclient, bytes_toserver, bytes_toclient;
	int64_t age;                /* seconds from the first packet to the last */
} FlowQueryStats;
int flow_query_by_id(uint64_t id, unsigned wait_ms, FlowQueryStats *out);

/* Finds or creates p's flow; sets p->flow, PKT_HAS_FLOW and PKT_TOSERVER/TOCLIENT,
 * updates the flow's counters, state and last time. Packets that cannot have a
 * flow (no IP layer, PKT_INVALID, fragments) are left alone. Under memcap
 * pressure the table enters emergency mode and evicts; if no flow can be had the
 * packet proceeds without one (counted as flow.memcap). GRE carriers
 * (PKT_NO_FLOW) get none, as in Suricata. Returns p->flow. */
Flow *flow_handle_packet(FlowTable *ft, Packet *p);
/* 1 when f is bypassed locally (FLOW_LOCAL_BYPASS): p, one of its packets, is
 * counted in flow_bypassed.local_pkts / local_bytes and is not inspected. */
int flow_bypassed_packet(FlowTable *ft, Flow *f, const Packet *p);

/* Reverses f's direction: its client becomes the server (tuple, per-direction
 * counters, flags, MACs, app-layer progress swap sides), and p, the packet
 * being processed (or NULL), changes direction with it. For a midstream TCP
 * flow whose first packet came from the server, when the app layer finds out
 * (Suricata's FlowSwap). The key is symmetric: the flow stays in its bucket. */
void flow_swap(Flow *f, Packet *p);
/* The app layer found a midstream flow's first bytes going the wrong way:
 * the flow, its session and detection's state trade directions, and so does
 * p, the packet being processed (NULL at flow end). Once per flow
 * (flow/reverse.c). */
void flow_reverse(Flow *f, Packet *p);

/* Ends flows idle past their timeout at time now (packet time). Cheap when
 * nothing is due: call it once per packet or batch. */
void flow_table_timeout(FlowTable *ft, const struct timeval *now);

/* Ends every flow (reason SHUTDOWN). */
void flow_table_flush(FlowTable *ft);

/* ICMPv4 errors (icmp-error.c). A destination unreachable quoting a TCP
 * or UDP packet (IP header + a whole TCP header, or + the UDP header) belongs
 * to the flow of the quoted tuple, as in Suricata 8: flow_hash_packet() hashes
 * the quote, flow_handle_packet() finds that flow (the packet's direction is
 * its outer source's side) and never creates one for any ICMPv4 error. */
typedef struct FlowIcmpQuote {
	Address src, dst;           /* of the quoted packet */
	uint16_t sp, dp;            /* host order */
	uint8_t proto;              /* IPPROTO_TCP or IPPROTO_UDP */
} FlowIcmpQuote;

/* 1 when the ICMPv4 type is an error message (3, 4, 5, 11, 12). */
int flow_icmpv4_is_error(uint8_t type);
/* b, len: the quote (the ICMP payload). 1 and q filled when it names a flow;
 * 0 when truncated, not IPv4 or neither TCP nor UDP. */
int flow_icmp_quote_parse(const uint8_t *b, uint32_t len, FlowIcmpQuote *q);
/* The quote of decoded packet p when p is a valid ICMPv4 unreachable (known
 * code, not invalid) and the quote names a flow; else 0. */
int flow_icmp_quote(const Packet *p, FlowIcmpQuote *q);

/* Symmetric hash of p's tuple + vlan ids: equal for both directions. Used by
 * decode (p->flow_hash) and by autofp to choose the worker. */
uint32_t flow_hash_packet(const Packet *p);

/* Timeout in seconds that applies to f now. */
uint32_t flow_timeout_of(const FlowTable *ft, const Flow *f);

const char *flow_state_name(enum flow_state s);         /* "new", "established", "closed" */
const char *flow_end_reason_name(enum flow_end_reason r); /* "timeout", "forced", "shutdown" */

/* The protocol f shows to rules and eve (Flow.app_proto_shown). */
static inline uint16_t flow_app_proto_shown(const Flow *f)
{
	return f->app_proto_shown ? f->app_proto_shown : f->app_proto;
}

#endif
