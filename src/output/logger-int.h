/* One entry of the logger list (logger.h): a record type's calls on a
 * packet and at a flow's end, either NULL when it has nothing there. The
 * entries of record types with a policy of their own live in their own
 * files (tx-policy.c, frame-log.c); the list is in logger.c. */
#ifndef OUTPUT_LOGGER_INT_H
#define OUTPUT_LOGGER_INT_H

#include "output/logger.h"

typedef struct OutputLogger {
	const char *name;
	void (*packet)(OutputThread *ot, const OutputPacketCtx *pc);
	void (*flow_end)(OutputThread *ot, Flow *f, Packet *last, enum flow_end_reason why);
} OutputLogger;

extern const OutputLogger output_logger_tx;      /* tx-policy.c */
extern const OutputLogger output_logger_frame;   /* frame-log.c */
extern const OutputLogger output_logger_tls_store; /* tls-store.c */
extern const OutputLogger output_logger_arp;     /* arp-json.c */
extern const OutputLogger output_logger_stream;  /* stream-json.c */
extern const OutputLogger output_logger_pcap;    /* pcap-log.c */
extern const OutputLogger output_logger_lua;     /* lua-out.c */
/* pcap-log.c: multi mode's files of ot's thread, closed as it ends */
void pcap_log_thread_fini(OutputThread *ot);

#endif
