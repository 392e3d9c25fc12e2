/* TCP session tracking and stream reassembly, in Suricata's IDS-mode semantics.
 *
 * One TcpSession per TCP flow (hung off Flow.stream), created by the first SYN
 * (or, with stream.midstream / stream.async-oneside, by a mid-session packet).
 * Each direction keeps:
 *   - received-but-not-ready data as a sorted list of non-overlapping segments
 *     (pool allocated, stream.reassembly.memcap); overlaps are resolved at insert
 *     time by the target-based policy (stream.reassembly.policy, default "bsd");
 *   - "ready" data: bytes the other side has ACKed (or everything, on RST, session
 *     close, flow end, or for an async one-sided session), moved in order into a
 *     contiguous buffer that consumers read. Ready bytes are final: a later
 *     retransmission never changes them (it is only compared and counted).
 * Holes that get ACKed (or that remain at a flush) are skipped: the stream offset
 * jumps past them (counted as tcp.reassembly_gap, event stream.reassembly_seq_gap).
 *
 * Stream offsets: 64-bit, per direction, 0 = the first data byte (ISN + 1, or the
 * first seq seen on a midstream pickup). They do not wrap when TCP seq does.
 *
 * Consumers (app-layer, detect's raw stream inspection) keep their own progress
 * offsets, read with stream_get_data() and call stream_release() with what they no
 * longer need; the buffer slides to the minimum over the enabled consumers.
 *
 * Threading: a flow's packets all arrive on one worker, so sessions take no lock.
 * Memory use is global (atomics) so that stream.memcap and
 * stream.reassembly.memcap bound the whole engine, as in Suricata. */
#ifndef STREAM_STREAM_H
#define STREAM_STREAM_H

#include "decode/packet.h"
#include "flow/flow.h"
#include "stats/counters.h"

#include <stdint.h>

/* Overlap resolution, Suricata's target-based policies: the policy of a direction
 * is that of its receiving host (host-os-policy, by destination address; hosts not
 * listed use stream.reassembly.policy, default bsd). When a new segment N overlaps
 * original (received, not yet ready) data O with different bytes, O's bounds being
 * those of the packet that brought it, N wins:
 *   last:                              always;
 *   bsd, windows, windows2k3, hpux10,
 *   irix, macos:                       when N starts before O;
 *   linux:                             as bsd, and when N starts with O and ends
 *                                      after it;
 *   old-linux:                         as bsd, and when N starts with O and ends
 *                                      with or after it;
 *   solaris, hpux11:                   when N ends after O, or ends with it and
 *                                      starts with or before it;
 *   first, vista:                      never.
 * (host-os-policy's bsd-right and old-solaris act as bsd and solaris on streams.)
 * Ready data is never rewritten, whatever the policy. */
enum stream_policy {
	STREAM_POLICY_BSD = 0,      /* Suricata's default */
	STREAM_POLICY_FIRST,
	STREAM_POLICY_LAST,
	STREAM_POLICY_LINUX,
	STREAM_POLICY_WINDOWS,
	STREAM_POLICY_SOLARIS,
	STREAM_POLICY_OLD_LINUX,
	STREAM_POLICY_HPUX10,
	STREAM_POLICY_HPUX11,
	STREAM_POLICY_IRIX,
	STREAM_POLICY_MACOS,
	STREAM_POLICY_VISTA,
	STREAM_POLICY_WINDOWS2K3,
};

/* stream.reassembly.urgent.policy (Suricata 8): what the byte a TCP urgent
 * pointer marks (the last urgent byte, RFC 6093 3.1) does to the stream.
 *   inline: nothing, it stays in the stream (the default);
 *   drop:   a packet with URG set is dropped (IPS, ips.drop_reason
 *           stream_urgent); its data never enters the stream;
 *   oob:    the byte is out of band: taken out, the data after it moves up
 *           (tcp.urgent_oob_data counts it). Past STREAM_URG_OOB_MAX such
 *           bytes in a direction, urgent.oob-limit-policy (drop, inline or
 *           gap; default inline) applies instead, with the event
 *           stream.reassembly_urgent_oob_limit_reached;
 *   gap:    the byte is left out, a one-byte hole (a reassembly gap). */
enum stream_urgent {
	STREAM_URGENT_INLINE = 0,
	STREAM_URGENT_DROP,
	STREAM_URGENT_OOB,
	STREAM_URGENT_GAP,
};
#define STREAM_URG_OOB_MAX 65535u

/* host-os-policy as a prefix table (host-os.c); NULL when the section is absent. */
typedef struct HostOsTable HostOsTable;

/* Consumers of reassembled data. */
enum stream_consumer {
	STREAM_CONSUMER_APP = 0,    /* app-layer parsers */
	STREAM_CONSUMER_RAW,        /* detect: stream MPM / content on tcp-stream */
	STREAM_CONSUMER_MAX,
};
#define STREAM_CONSUMERS_ALL ((1u << STREAM_CONSUMER_MAX) - 1)

typedef struct StreamConfig {
	uint64_t memcap;            /* stream.memcap (sessions), default 64mb */
	uint64_t reassembly_memcap; /* stream.reassembly.memcap (segments+buffers), 256mb */
	uint64_t reassembly_depth;  /* stream.reassembly.depth, 1mb; 0 = unlimited */
	uint32_t toserver_chunk_size, toclient_chunk_size; /* parsed, informational */
	uint32_t max_synack_queued; /* stream.max-synack-queued, default 5 (parsed) */
	uint32_t max_syn_queued;    /* stream.max-syn-queued, default 10 */
	int midstream;              /* stream.midstream, default no */
	int async_oneside;          /* stream.async-oneside, default no */
	int bypass;                 /* stream.bypass: a flow whose both directions
	                             * reached the reassembly depth is bypassed */
	/* stream.inline: 1 yes, 0 no, -1 auto (absent too): the caller resolves
	 * auto (inline in IPS mode) and hands the result to detection as well.
	 * Inline, data is ready as received in order, without waiting for ACKs. */
	int inline_mode;
	int checksum_validation;    /* stream.checksum-validation, default yes */
	enum stream_policy policy;  /* stream.reassembly.policy, default bsd */
	enum stream_urgent urgent;  /* stream.reassembly.urgent.policy */
	enum stream_urgent urgent_oob_limit; /* ...urgent.oob-limit-policy */
	HostOsTable *hosts;         /* host-os-policy (stream_config_free frees it) */
	/* Which consumers release data (bit per enum stream_consumer). The runmode
	 * clears a bit when that consumer will never read (no app-layer, no stream
	 * rules) so that data is not kept for it. Default: all. */
	unsigned consumers;
} StreamConfig;

/* TCP states, Suricata's names (eve flow "tcp.state"), from the client's view. */
enum tcp_state {
	TCP_NONE = 0,
	TCP_SYN_SENT,
	TCP_SYN_RECV,
	TCP_ESTABLISHED,
	TCP_FIN_WAIT1,
	TCP_FIN_WAIT2,
	TCP_TIME_WAIT,
	TCP_LAST_ACK,
	TCP_CLOSE_WAIT,
	TCP_CLOSING,
	TCP_CLOSED,
};

/* Stream events: Suricata 8's names ("stream.<name>" in the eve stats schema). Each
 * has a counter "stream.<name>" and matches `stream-event:<name>;`. */
enum stream_event {
	SEV_NONE = 0,               /* never raised */
	SEV_3WHS_ACK_DATA_INJECT,
	SEV_3WHS_ACK_IN_WRONG_DIR,
	SEV_3WHS_ASYNC_WRONG_SEQ,
	SEV_3WHS_RIGHT_SEQ_WRONG_ACK_EVASION,
	SEV_3WHS_SYN_FLOOD,
	SEV_3WHS_SYN_RESEND_DIFF_SEQ_ON_SYN_RECV,
	SEV_3WHS_SYN_TOCLIENT_ON_SYN_RECV,
	SEV_3WHS_SYNACK_FLOOD,
	SEV_3WHS_SYNACK_IN_WRONG_DIRECTION,
	SEV_3WHS_SYNACK_RESEND_WITH_DIFF_ACK,
	SEV_3WHS_SYNACK_RESEND_WITH_DIFF_SEQ,
	SEV_3WHS_SYNACK_TFO_DATA_IGNORED,
	SEV_3WHS_SYNACK_TOSERVER_ON_SYN_RECV,
	SEV_3WHS_SYNACK_WITH_WRONG_ACK,
	SEV_3WHS_WRONG_SEQ_WRONG_ACK,
	SEV_4WHS_INVALID_ACK,
	SEV_4WHS_SYNACK_WITH_WRONG_ACK,
	SEV_4WHS_SYNACK_WITH_WRONG_SYN,
	SEV_4WHS_WRONG_SEQ,
	SEV_CLOSEWAIT_ACK_OUT_OF_WINDOW,
	SEV_CLOSEWAIT_FIN_OUT_OF_WINDOW,
	SEV_CLOSEWAIT_INVALID_ACK,
	SEV_CLOSEWAIT_PKT_BEFORE_LAST_ACK,
	SEV_CLOSING_ACK_WRONG_SEQ,
	SEV_CLOSING_INVALID_ACK,
	SEV_EST_ACK_ZWP_DATA,
	SEV_EST_INVALID_ACK,
	SEV_EST_PACKET_OUT_OF_WINDOW,
	SEV_EST_PKT_BEFORE_LAST_ACK,
	SEV_EST_SYN_RESEND,
	SEV_EST_SYN_RESEND_DIFF_SEQ,
	SEV_EST_SYN_TOCLIENT,
	SEV_EST_SYNACK_RESEND,
	SEV_EST_SYNACK_RESEND_WITH_DIFF_ACK,
	SEV_EST_SYNACK_RESEND_WITH_DIFF_SEQ,
	SEV_EST_SYNACK_TOSERVER,
	SEV_FIN1_ACK_WRONG_SEQ,
	SEV_FIN1_FIN_WRONG_SEQ,
	SEV_FIN1_INVALID_ACK,
	SEV_FIN2_ACK_WRONG_SEQ,
	SEV_FIN2_FIN_WRONG_SEQ,
	SEV_FIN2_INVALID_ACK,
	SEV_FIN_BUT_NO_SESSION,
	SEV_FIN_INVALID_ACK,
	SEV_FIN_OUT_OF_WINDOW,
	SEV_FIN_SYN,
	SEV_LASTACK_ACK_WRONG_SEQ,
	SEV_LASTACK_INVALID_ACK,
	SEV_PKT_BAD_WINDOW_UPDATE,
	SEV_PKT_BROKEN_ACK,
	SEV_PKT_INVALID_ACK,
	SEV_PKT_INVALID_TIMESTAMP,
	SEV_PKT_RETRANSMISSION,
	SEV_PKT_SPURIOUS_RETRANSMISSION,
	SEV_REASSEMBLY_DEPTH_REACHED,
	SEV_REASSEMBLY_INSERT_INVALID,
	SEV_REASSEMBLY_INSERT_LIMIT,
	SEV_REASSEMBLY_INSERT_MEMCAP,
	SEV_REASSEMBLY_NO_SEGMENT,
	SEV_REASSEMBLY_OVERLAP_DIFFERENT_DATA,
	SEV_REASSEMBLY_SEGMENT_BEFORE_BASE_SEQ,
	SEV_REASSEMBLY_SEQ_GAP,
	SEV_REASSEMBLY_URGENT_OOB_LIMIT_REACHED,
	SEV_RST_BUT_NO_SESSION,
	SEV_RST_INVALID_ACK,
	SEV_RST_WITH_DATA,
	SEV_SHUTDOWN_SYN_RESEND,
	SEV_SUSPECTED_RST_INJECT,
	SEV_TIMEWAIT_ACK_WRONG_SEQ,
	SEV_TIMEWAIT_INVALID_ACK,
	SEV_WRONG_THREAD,
	SEV_MAX,
};

/* Name without the "stream." prefix ("pkt_retransmission"), NULL if out of range. */
const char *stream_event_name(int ev);
/* Event id for a `stream-event:` argument (with or without "stream."), or -1. */
int stream_event_lookup(const char *name);

/* Per-packet results, in Packet.stream_flags (set by stream_handle_packet). */
#define STREAM_PKT_HAS_SESSION    (1u << 0) /* tracked by a TCP session */
#define STREAM_PKT_ESTABLISHED    (1u << 1) /* session established (flow:established) */
#define STREAM_PKT_RETRANSMISSION (1u << 2) /* payload entirely seen before */
#define STREAM_PKT_INVALID        (1u << 3) /* rejected by tracking (bad csum, out of
                                             * window, bad ts, bad handshake...): its
                                             * payload did not go into the stream */
#define STREAM_PKT_MIDSTREAM      (1u << 4) /* the session was picked up midstream */
#define STREAM_PKT_TS_READY       (1u << 5) /* toserver ready offset advanced */
#define STREAM_PKT_TC_READY       (1u << 6) /* toclient ready offset advanced */
#define STREAM_PKT_CLOSED         (1u << 7) /* session closed (RST / FINs): all ready */
#define STREAM_PKT_DEPTH_REACHED  (1u << 8) /* this packet's data hit reassembly depth */
#define STREAM_PKT_ADDED          (1u << 9) /* its payload went into the stream (new or
                                             * compared as a retransmission): detection
                                             * inspects it there, not as a packet */
#define STREAM_PKT_STORED_AS_IS   (1u << 10) /* ADDED, all of it new, none cut, dropped
                                             * or overlapping: the stream holds its
                                             * payload at stream_off byte for byte */
#define STREAM_PKT_OVERLAP_DIFF   (1u << 11) /* it overlapped stored bytes that differ
                                             * (whichever won): stored bytes may have
                                             * changed */
#define STREAM_PKT_WAS_ESTABLISHED (1u << 12) /* the session was established before
                                             * this packet: Suricata's flow:established,
                                             * which the packet that establishes the
                                             * session does not meet yet */
#define STREAM_PKT_STATE_UPDATE   (1u << 13) /* it changed the session's TCP state
                                             * (eve stream's state_update) */

/* Per-direction state, for consumers and eve (tcp.ts_gap / tcp.tc_gap). */
#define STREAM_DIR_GAP            (1u << 0) /* a gap was skipped in this direction */
#define STREAM_DIR_DEPTH_REACHED  (1u << 1) /* no more data stored (depth or memcap) */
#define STREAM_DIR_EOF            (1u << 2) /* FIN/RST/close: no more data will be ready */

/* Defaults, then "stream.*" from the conf tree. 0, or -1 on an invalid value
 * (logged, naming the key). */
int stream_config_load(StreamConfig *cfg);
/* Frees what stream_config_load allocated (the host-os-policy table). */
void stream_config_free(StreamConfig *cfg);
/* Overlap policy of the host at address a: the most specific host-os-policy
 * prefix holding it, else cfg->policy. */
enum stream_policy stream_host_policy(const StreamConfig *cfg, const Address *a);
/* A host-os-policy OS name ("old-linux") to its stream policy: 0, or -1. */
int stream_os_policy_name(const char *name, enum stream_policy *out);
/* tcp.* (the names present in the eve stats schema) and stream.<event> counters. */
void stream_register_counters(void);

typedef struct StreamThread StreamThread;

/* Per worker. cfg must outlive the thread; tc is the worker's counter block. */
StreamThread *stream_thread_new(const StreamConfig *cfg, ThreadCounters *tc);
/* Frees the thread's pools. Every session must have been freed before. */
void stream_thread_free(StreamThread *st);

/* Tracks p (a TCP packet with p->flow == f; others are ignored) in f's session,
 * creating it if the rules above allow. Sets p->stream_flags and appends raised
 * events to p->stream_events. Data ACKed by p (the other direction) becomes
 * ready before this call returns. Returns p->stream_flags. */
int stream_handle_packet(StreamThread *st, Flow *f, Packet *p);

/* Reassembled data of direction dir (0 = toserver, 1 = toclient) from stream
 * offset `from`: (*data, *len) is the longest contiguous run of kept bytes that starts
 * at or after `from` (at *base; *base > from means a gap or released data lies
 * between), ending at the next gap or at the ready offset. Only ready bytes are
 * returned: in IDS mode Suricata inspects what the other side acknowledged.
 * The pointer stays valid until the next stream call on f. Returns 1 if *len > 0. */
int stream_get_data(const Flow *f, int dir, uint64_t from, const uint8_t **data,
		    uint32_t *len, uint64_t *base);
/* Inline (IPS) raw inspection, Suricata's sliding window: copies into buf the
 * stored bytes of dir (ACKed or not) around the data packet p just added, the
 * contiguous run that holds all of p's bytes trimmed to about chunk bytes
 * (stream.reassembly.to*-chunk-size; a bigger packet widens it by a tenth).
 * Returns the length (*base: its stream offset), 0 when p's bytes are not all
 * stored (the caller then inspects p's payload as the window). */
uint32_t stream_inline_window(const Flow *f, int dir, const Packet *p, uint32_t chunk,
			      uint8_t *buf, uint32_t cap, uint64_t *base);
/* An alert's stream payload as Suricata logs it: dir's bytes still kept
 * (ACKed or not) from the oldest kept offset up to `upto`, each hole written
 * as "[N bytes missing]"; cut at cap bytes. Returns the length written. */
uint32_t stream_log_data(const Flow *f, int dir, uint64_t upto, uint8_t *buf, uint32_t cap);
/* 1 when every byte of dir's stream offsets [off, off + len) is stored
 * (ready or not yet) and equals buf, except the leading bytes every
 * consumer released ([off, *released_end): no one reads them again, they
 * are not compared); 0 when any other byte differs or is not stored.
 * ac-cuda uses it to trust a GPU scan of a packet's bytes for the stream. */
int stream_stored_equal(const Flow *f, int dir, uint64_t off, const uint8_t *buf,
			uint32_t len, uint64_t *released_end);
/* Stream offset up to which dir's data is ready (0 without a session). */
uint64_t stream_ready_offset(const Flow *f, int dir);
/* STREAM_DIR_* flags of dir (0 without a session). */
unsigned stream_dir_flags(const Flow *f, int dir);
/* stream.bypass (Suricata's): 1 when f's session stores nothing more in
 * either direction (both reached the reassembly depth), so the flow is
 * bypassed: its later packets skip stream, app layer and detection and
 * are counted in flow_bypassed.local_*. */
int stream_bypass_due(const StreamThread *st, const Flow *f);

/* Consumer c no longer needs dir's bytes before `upto` (UINT64_MAX: nothing more,
 * ever, for this flow). The buffer slides once every enabled consumer released. */
void stream_release(Flow *f, int dir, enum stream_consumer c, uint64_t upto);

/* 1 if f's session was picked up midstream (its handshake not seen). */
int stream_is_midstream(const Flow *f);
/* The session is asynchronous (stream.async-oneside): one side only. */
int stream_is_async(const Flow *f);
/* The app protocol's reassembly depth for the flow's session (Suricata's
 * app-layer.protocols.<p>.stream-depth): 0 unlimited; from the next
 * bytes stored on. Nothing without a session. */
void stream_set_depth(Flow *f, uint64_t depth);
/* Suricata's min_inspect_depth: the app protocol asks that dir's raw
 * stream keep `depth` bytes behind what raw inspection has covered while
 * the session is open (HTTP: the body minimal inspect sizes), so that the
 * stream data an alert logs still holds its transaction's earlier bytes.
 * stream_min_inspect_depth(): that depth, 0 once the session closed or
 * without a session. */
void stream_set_min_inspect_depth(Flow *f, int dir, uint32_t depth);
uint32_t stream_min_inspect_depth(const Flow *f, int dir);
/* With flow_swap(): the session's directions trade places (the client's
 * stream becomes the server's), and p's per-direction stream flags follow. */
void stream_flow_swap(Flow *f, Packet *p);

/* Makes all remaining data of both directions ready (holes skipped): flow end. */
void stream_flow_end(StreamThread *st, Flow *f);
/* Frees f's session (at flow recycle); f->stream becomes NULL. */
void stream_flow_free(StreamThread *st, Flow *f);

/* stream_size's measure of one side (server: 1 = the server's, 0 = the
 * client's): its next expected seq minus its ISN, so the SYN and a FIN count
 * one each, as Suricata. 0 before that side's first packet. Returns 0 without
 * a session, else 1 with *out set. */
int stream_side_size(const Flow *f, int server, uint32_t *out);
enum tcp_state stream_tcp_state(const Flow *f);  /* TCP_NONE without a session */
const char *tcp_state_name(enum tcp_state s);    /* "established", "closed", ... */

/* Fills p (the caller's buffer) as the flow-end pseudo packet of f's
 * direction dir (0: to server): the flow's tuple and VLANs, the time of its
 * last packet, no payload, the session closed (established if it was).
 * Returns p. (stream/pseudo.c) */
Packet *stream_end_packet(Packet *p, Flow *f, int dir);

/* A session as eve's `stream` logger shows it (Suricata 8's stream_tcp
 * record): per direction (0: the client's, toserver) the sequence space
 * as Suricata names it, and the session's state and flags. */
typedef struct StreamDirView {
	uint32_t isn, next_seq, last_ack, next_win, base_seq, segs_right_edge;
	uint32_t window;            /* advertised by this side, scaled */
	uint8_t wscale;
	uint8_t has_gap, depth_reached, eof, timestamp;
	uint32_t seg_cnt;           /* segments held, not yet ready */
} StreamDirView;

typedef struct StreamSessionView {
	enum tcp_state state, pstate;   /* pstate: the state before the last change */
	uint8_t midstream, async, timestamps, wscale, fourwhs, closed_by_rst;
	StreamDirView dir[2];
} StreamSessionView;

/* Fills v from f's session. Returns 0, or -1 without a session. */
int stream_session_view(const Flow *f, StreamSessionView *v);

/* Global memory accounting (bytes), as tcp.memuse / tcp.reassembly_memuse show. */
uint64_t stream_memuse(void);
uint64_t stream_reassembly_memuse(void);
/* stream.memcap (reassembly 0) or stream.reassembly.memcap (1) at run time
 * (the unix socket's memcap-set): from the next allocation on. */
void stream_memcap_set(int reassembly, uint64_t cap);
uint64_t stream_memcap_get(int reassembly);

#endif
