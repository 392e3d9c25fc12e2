/* The logger list: what a packet thread calls once per packet and once per
 * flow end to write every record type that is not a stats record.
 *
 * The worker does not know which record types exist. After detection and
 * the verdict it hands the loggers one OutputPacketCtx (on its stack) and
 * at flow end the flow; each entry of the list (logger.c: alert and
 * tagged packets, drop, anomaly, arp, stream_tcp, transactions, frames,
 * flow) decides from
 * its own configuration whether it writes. A new record type is one entry
 * in that list plus its own file (doc/adding-a-protocol.md, "Record types
 * and sinks").
 *
 * Threading: an OutputThread belongs to one packet thread; the records go
 * through the thread-safe writers of output.h. */
#ifndef OUTPUT_LOGGER_H
#define OUTPUT_LOGGER_H

#include "output/output.h"
#include "detect/engine.h"

/* A packet thread's side of the outputs. */
typedef struct OutputThread {
	Outputs *o;
	DetectThread *dt;          /* NULL: detection disabled (output_thread_set_detect) */
	unsigned frame_need;       /* APP_FRAME_* that frames wait for (output_frame_need) */
	Packet *end_pkt;           /* the flow-end pseudo packet (stream_end_packet) */
	struct PcapLogWriter *pcap_log; /* pcap-log multi: this thread's files */
	ThreadCounters *tc;        /* the packet thread's counters (pcap_log.written); may be NULL */
} OutputThread;

/* What one packet leaves for the loggers. */
typedef struct OutputPacketCtx {
	Packet *p;
	Flow *f;                       /* p's flow, or NULL */
	const DetectAlert *alerts;     /* detection's alerts on p, in order */
	uint32_t nalerts;
	int detected;                  /* detection ran on p (tagged packets) */
	int dropped;                   /* the IPS verdict dropped p (verdict_decide) */
	const DetectAlert *drop_rule;  /* the rule that dropped it, or NULL */
} OutputPacketCtx;

/* 0, or -1 when out of memory. o may be NULL (no outputs: tests). */
int output_thread_init(OutputThread *ot, Outputs *o);
void output_thread_fini(OutputThread *ot);
/* The detection state the loggers consult (alert details, transaction and
 * frame progress); again after each rule reload. */
void output_thread_set_detect(OutputThread *ot, DetectThread *dt);

/* What f's frames wait for before they go: detection (a rule inspects
 * frames) and logging (eve `- frame`). The app layer keeps their stream
 * bytes until then (app_layer_feed). */
static inline unsigned output_frame_need(const OutputThread *ot)
{
	return ot->frame_need;
}

/* Every record of one packet, after detection and the verdict. */
void output_packet(OutputThread *ot, const OutputPacketCtx *pc);
/* The alerts of one packet only: detection's last inspection of a flow at
 * its end, on the pseudo packet p of each direction. */
void output_alerts(OutputThread *ot, Packet *p, const DetectAlert *alerts, uint32_t n);
/* Every record of f's end: its transactions and frames left, its flow
 * record. last: the last pseudo packet detection saw (NULL: none). */
void output_flow_done(OutputThread *ot, Flow *f, Packet *last, enum flow_end_reason why);

#endif
