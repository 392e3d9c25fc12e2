/* IP defragmentation, per decode thread (no locks: fragments of one datagram
 * reach the same RX thread).
 *
 * Trackers are keyed by (family, src, dst, id, IPv4 protocol, vlan ids). Each
 * keeps its fragments sorted by offset; when the first and last fragments are in
 * and the offsets leave no hole, the datagram is rebuilt into a pseudo packet
 * (PKT_PSEUDO|PKT_REASSEMBLED, behind the first fragment's link header and in its
 * datalink, as Suricata logs it; pcap_cnt 0, same ts and vlan
 * ids), decoded, and linked at p->pseudo.
 *
 * Overlaps follow the "bsd" policy, Suricata's default: where two fragments
 * overlap, the earlier-arrived data is kept unless the newer fragment begins at
 * a lower offset than the older one, in which case the newer data wins. Each
 * overlap raises ipv4.frag_overlap / ipv6.frag_overlap on the fragment.
 *
 * Limits: defrag.memcap (bytes held: the tracker hash table, trackers, saved
 * headers and fragment data, each block at the size the allocator holds; when reached the
 * least recently used trackers are dropped, counted as tracker_hard_reuse),
 * defrag.trackers (max_trackers_reached: the fragment is not kept),
 * defrag.max-frags (fragments held at once: max_frags_reached), defrag.timeout
 * (packet time since a tracker's last fragment). A fragment dropped by a
 * limit raises frag_ignored. A rebuilt datagram's tracker is freed at once. */
#ifndef DECODE_DEFRAG_H
#define DECODE_DEFRAG_H

#include "decode/decode.h"

#include <stdint.h>

struct Defrag;

struct Defrag *defrag_new(const DefragConfig *cfg, DecodeThread *dt);
void defrag_free(struct Defrag *df);
/* defrag.memcap at run time (memcap-set): from each thread's next fragment
 * on. get: the one set, else the configured one. */
void defrag_memcap_set(uint64_t cap);
uint64_t defrag_memcap_get(void);
void defrag_memcap_configured(uint64_t cap);   /* the yaml's, as loaded */

/* ip: the IPv4 header of fragment p, hlen its length, iplen its total length. */
void defrag_ipv4(DecodeThread *dt, Packet *p, const uint8_t *ip, uint32_t hlen,
		 uint32_t iplen);

/* ip6: the IPv6 header; fh_off: offset of the fragment header (= length of the
 * unfragmentable part); nh_off: offset of the next-header byte naming the
 * fragment header; total: 40 + payload length. */
void defrag_ipv6(DecodeThread *dt, Packet *p, const uint8_t *ip6, uint32_t fh_off,
		 uint32_t nh_off, uint32_t total);

/* Bytes of the tracker hash table cfg asks for: counted in defrag.memuse from
 * the start, so defrag.memcap must exceed it (decode_config_load checks). */
uint64_t defrag_table_bytes(const DefragConfig *cfg);

/* For tests and stats. */
uint32_t defrag_tracker_count(const struct Defrag *df);
uint64_t defrag_memuse(const struct Defrag *df);

#endif
