/* The per-packet context of detection: what detect_packet() and
 * detect_flow_flush() learn about one packet, on their stack, and passed
 * to the steps of the packet path (packet.c, stream-inspect.c,
 * prefilter.c, sig-match.c) as an argument.
 *
 * Why a context and not DetectThread fields: the thread lives as long as
 * the worker and holds what it owns (scratch, match sets, counters); a
 * packet's facts (its flow state, whether it went into the stream, which
 * source gives its match ids, what the match being queued came from) die
 * with the call. Keeping them apart says which is which, and a step's
 * inputs are in its signature.
 *
 * One bridge remains: keyword match functions and the transaction and
 * frame inspectors are called as (DetectThread *, ..., Packet *) through
 * tables shared by every keyword; they reach the context through
 * DetectThread.pkt, set for the length of one detect_packet() or
 * detect_flow_flush() call and NULL outside. */
#ifndef DETECT_PACKET_H
#define DETECT_PACKET_H

#include "detect/engine-int.h"

struct PrefilterOps;
struct DetectGpuTicket;

typedef struct DetectPkt {
	Packet *p;
	DetectFlowState *fs;      /* NULL: no flow, or the flow needs none */
	const SigGroup *g;        /* p's port group */
	/* which source gives the match ids of p's buffers (prefilter.h),
	 * chosen once for the packet, and the GPU ticket it reads from */
	const struct PrefilterOps *src;
	const struct DetectGpuTicket *gpu;
	int pc, dir;              /* protocol class, 0 toserver / 1 toclient */
	int iponly_ok;            /* ip-only rules not yet run on this direction */
	int established;          /* flow:established for this packet */
	int streamed;             /* its payload went into the stream */
	int no_payload;           /* the flow's payload is not inspected any more
	                           * (app_layer_flow_no_inspection) */
	int raw_flush;            /* the packet ended the cleartext: inspect the
	                           * rest of its direction's raw stream now */
	int ids_stream;           /* IDS: raw stream inspected on this packet */
	int in_stream;            /* inspecting reassembled stream data now */
	/* inline mode: the packet's stream window, when it has one */
	InspectBuffer win;
	int has_win;
	uint64_t win_end;         /* the window's end as a stream offset (0: payload) */
	/* the match being queued: the stream data it came from (NULL: the
	 * packet's payload), where that data ends, and the frame */
	const uint8_t *data;
	uint32_t data_len;
	uint64_t data_end;
	/* the scan of the bytes a transaction rule's payload contents read
	 * on this packet's passes of side txfp_dir, for the rules whose fast
	 * pattern is there (DetectSig.tx_pfp): DetectThread.txfp_hit's stamp,
	 * 0 until a pass needs it (tx-inspect.c) */
	uint32_t txfp_seq;
	int txfp_dir;
	int64_t frame;            /* frame id being inspected, 0: none */
	int frame_dir;
} DetectPkt;

/* packet.c */
/* Returns 1 when ds matched p (whether or not it alerts); sb: the stream
 * data inspected instead of the payload (NULL: the payload). */
int detect_inspect_sig(DetectThread *dt, const DetectPkt *pk, const DetectSig *ds,
		       const InspectBuffer *sb);
/* A new packet for dt->stream_hit: no rule has matched its stream yet. */
void detect_stream_hit_next(DetectThread *dt);

/* firewall.c: the firewall's verdict on p before TD: 1 accepted, 0
 * dropped (DetectThread.fw_*). */
int fw_packet(DetectThread *dt, DetectPkt *pk);
/* packet.c: a firewall packet-hook rule on p (header, keywords, payload;
 * every packet, not once per flow as an ip-only TD rule) */
int detect_inspect_sig_fw(DetectThread *dt, const DetectPkt *pk, const DetectSig *ds);
/* sig-match.c: firewall rule ds matched: its post-match actions, and its
 * alert when it has the alert action (drop: logged as blocked) */
void detect_fw_matched(DetectThread *dt, const DetectPkt *pk, const DetectSig *ds, Packet *p,
		       int drop);

/* sig-match.c: ds matched on p, with what pk says the match came from:
 * post-match actions, pass, drop, thresholds, tags, then the alert queue. */
void detect_sig_matched_pkt(DetectThread *dt, const DetectPkt *pk, const DetectSig *ds,
			    Packet *p);
int detect_flow_passed(const Packet *p);
/* The packet's alerts in Suricata's order, counted. Returns their number. */
uint32_t detect_alerts_done(DetectThread *dt);

/* stream-inspect.c */
/* IDS: inspects the raw stream of p's direction that became ready since
 * the last time, when it is due (eof: the flow's end). */
void detect_stream_inspect(DetectThread *dt, DetectPkt *pk, int eof);
/* Inline (IPS): fills pk->win with the packet's stream window. */
void detect_inline_window(DetectThread *dt, DetectPkt *pk);
/* Inline: releases the stream bytes no later window can reach. */
void detect_inline_release(DetectThread *dt, const Packet *p);

#endif
