/* Internals shared by the src/stream sources only. Nothing outside src/stream includes it. */
#ifndef STREAM_STREAM_INT_H
#define STREAM_STREAM_INT_H

#include "stream/stream.h"

#include <stdint.h>

/* Segment size classes: most out-of-order or unacked data is a full MSS (1460)
 * or a small request, so two fixed classes from per-thread free lists keep the
 * packet path free of malloc. Bigger payloads (TSO, jumbo) span several. */
#define SEG_SMALL_CAP 192
#define SEG_LARGE_CAP 2048
#define SEG_FREE_MAX 4096           /* per class, per thread; extra is freed */

/* The ready buffer comes from two pooled block sizes (most sessions keep only a
 * few hundred unreleased bytes; 100k of them must fit the memcap) and grows by
 * doubling beyond the large one. */
#define BUF_SMALL 256
#define BUF_BLOCK 4096
#define BUF_FREE_MAX 1024           /* per size, per thread */

/* A direction's ready buffer holds at most this many discontiguous runs
 * (runs are separated by skipped gaps); more refuses data (counted). */
#define STREAM_RUNS_MAX 4

typedef struct Segment {
	struct Segment *next;       /* sorted by off, never overlapping */
	uint64_t off;               /* stream offset of data[head] */
	uint64_t orig_start, orig_end; /* bounds of the packet that brought it */
	uint16_t head, len, cap;    /* data[head .. head+len) is live */
	uint8_t cls;                /* 0 small, 1 large */
	uint8_t data[];
} Segment;

typedef struct Run {
	uint32_t off;               /* stream offset of buf[idx], minus run_base */
	uint32_t idx;
} Run;

/* TcpStream.flags */
#define TS_HAVE_BASE   (1u << 0)    /* offset 0 known (SYN or pickup) */
#define TS_FIN_SEEN    (1u << 1)
#define TS_WSCALE      (1u << 2)    /* sent the window scale option in its SYN */
#define TS_HAS_TS      (1u << 3)    /* sent timestamps in its SYN */
#define TS_DEPTH_EVENT (1u << 4)    /* depth event raised once */

typedef struct TcpStream {
	uint32_t isn;               /* SYN's seq (offset -1) */
	uint32_t anchor_seq;        /* a seq whose offset is anchor_off: the 64-bit */
	uint64_t anchor_off;        /* offset of any seq within 2^31 of it */
	uint64_t max_off;           /* highest data end seen */
	uint64_t acked_off;         /* the other side ACKed everything before */
	uint64_t ready_off;         /* moved to the buffer (or skipped) before */
	uint64_t fin_off;           /* offset the FIN occupies (TS_FIN_SEEN) */
	uint32_t win;               /* window this side advertises, scaled */
	uint32_t last_ts;           /* PAWS */
	uint32_t syn_ts;            /* tsval of its first SYN: answers echo
	                             * one from syn_ts to the latest (last_ts) */
	uint16_t flags;             /* TS_* */
	uint8_t wscale;             /* this side's window scale (if TS_WSCALE) */
	uint8_t dir_flags;          /* STREAM_DIR_* */
	uint8_t nruns;
	uint8_t policy;             /* enum stream_policy of the receiving host */
	uint16_t urg_oob;           /* urgent bytes taken out of band (policy oob) */
	uint32_t min_inspect;       /* raw bytes kept behind the raw inspection
	                             * (stream_set_min_inspect_depth) */

	Segment *segs;              /* received, not ready */

	/* ready data: buf[runs[0].idx .. buf_len); runs are discontiguous pieces,
	 * their offsets relative to run_base (small: kept data spans ~depth) */
	uint8_t *buf;
	uint32_t buf_len, buf_cap;
	uint64_t run_base;
	Run runs[STREAM_RUNS_MAX];
	uint64_t released[STREAM_CONSUMER_MAX];
} TcpStream;

/* TcpSession.flags */
#define SSN_MIDSTREAM  (1u << 0)
#define SSN_ASYNC      (1u << 1)    /* one side only: data ready without ACKs */
#define SSN_TIMESTAMPS (1u << 2)    /* both SYNs had timestamps: PAWS applies */
#define SSN_WSCALE     (1u << 3)    /* both SYNs had window scale */
#define SSN_WINDOWS    (1u << 4)    /* windows known (3WHS seen): check them */
#define SSN_4WHS       (1u << 5)    /* the server answered the SYN with its own SYN */
#define SSN_SYNACK_PICKUP (1u << 6) /* picked up on a SYN/ACK (midstream or
                                     * async): as in Suricata, its sender's
                                     * ACK ends the handshake */

typedef struct TcpSession {
	TcpStream s[2];             /* by flow direction: 0 toserver, 1 toclient */
	union {
		StreamThread *st;           /* in use: pools and config for release */
		struct TcpSession *next_free; /* in the thread's cache */
	};
	uint8_t state;              /* enum tcp_state */
	uint8_t client;             /* flow direction of the SYN sender */
	uint16_t flags;             /* SSN_* */
	/* SYN_SENT: the client's SYNs of other ISNs the newest replaced, up
	 * to stream.max-syn-queued */
	uint8_t syn_queued;
	uint8_t rst_from;           /* closed by a RST: its sender's flow
	                             * direction + 1; 0 otherwise */
	uint8_t pstate;             /* the state the RST closed */
	uint8_t log_pstate;         /* the state before the last change (eve stream) */
	/* the app protocol's own reassembly depth (stream_set_depth): 0 the
	 * configured one, UINT64_MAX none */
	uint64_t depth;
} TcpSession;

/* Counter ids (stream.c registers them). */
struct stream_counters {
	counter_id sessions, active_sessions, ssn_memcap_drop, ssn_from_pool, ssn_from_cache;
	counter_id pseudo, invalid_checksum, midstream_pickups, pkt_on_wrong_thread;
	counter_id ack_unseen_data, syn, synack, rst, urg, no_flow;
	counter_id segment_memcap_drop, segment_from_cache, segment_from_pool;
	counter_id stream_depth_reached, reassembly_gap, overlap, overlap_diff_data;
	counter_id memuse, reassembly_memuse;
	counter_id insert_data_normal_fail, insert_data_overlap_fail, insert_list_fail;
	counter_id urgent_oob_data;
	counter_id end_state[TCP_CLOSED + 1];  /* flow.end.tcp_state.<state> */
	counter_id end_liberal;                /* flow.end.tcp_liberal */
	counter_id ev[SEV_MAX];
};
extern struct stream_counters stream_cnt;

struct StreamThread {
	const StreamConfig *cfg;
	ThreadCounters *tc;
	Segment *seg_free[2];
	uint32_t nseg_free[2];
	uint8_t **buf_free[2];      /* stacks of BUF_SMALL / BUF_BLOCK blocks */
	uint32_t nbuf_free[2];
	TcpSession *ssn_free;
	uint32_t nssn_free;
};

/* The reassembly depth of the session's streams; 0: unlimited. */
static inline uint64_t ssn_depth(const StreamThread *st, const TcpSession *ssn)
{
	if (ssn && ssn->depth)
		return ssn->depth == UINT64_MAX ? 0 : ssn->depth;
	return st->cfg->reassembly_depth;
}

/* Global memory accounting (atomics): the memcaps are engine-wide. */
int stream_mem_reserve(int reassembly, uint64_t size);   /* 1 ok, 0 over memcap */
void stream_mem_release(int reassembly, uint64_t size);
void stream_mem_set_caps(uint64_t memcap, uint64_t reassembly_memcap);

/* reassembly.c */
void stream_event(StreamThread *st, Packet *p, enum stream_event ev);
/* Inserts len bytes at stream offset off into direction s of the session.
 * Returns the number of bytes that were new (0: a retransmission). */
uint32_t reasm_insert(StreamThread *st, TcpSession *ssn, TcpStream *s, Packet *p,
		      uint64_t off, const uint8_t *data, uint32_t len);
/* Makes s's data ready up to limit (UINT64_MAX: everything, holes skipped).
 * Returns 1 if ready_off advanced. */
int reasm_advance(StreamThread *st, TcpSession *ssn, TcpStream *s, Packet *p, uint64_t limit);
/* End of the data stored in order from s's ready offset, or from its ACKed
 * offset when that is higher (no unACKed hole between). */
uint64_t reasm_contig_end(const TcpStream *s);
void reasm_stream_free(StreamThread *st, TcpStream *s);
void reasm_release(StreamThread *st, TcpStream *s);
void reasm_thread_free(StreamThread *st);

/* host-os.c */
int host_os_table_load(HostOsTable **out);     /* 0 (NULL: no section), -1 logged */
void host_os_table_free(HostOsTable *t);

#endif
