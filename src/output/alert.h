/* Alert outputs: one eve "alert" record and one fast.log line per alert, in
 * Suricata 8's shapes.
 *
 * Called by the detection engine from worker threads: formatting happens
 * outside any lock, each file write takes that file's lock once. Nothing here
 * keeps pointers into AlertInfo after the call returns. */
#ifndef OUTPUT_ALERT_H
#define OUTPUT_ALERT_H

#include "output/output.h"

#include <jansson.h>
#include <stdint.h>

/* Rule actions as the detection engine resolves them. */
#define ALERT_ACTION_ALERT  0
#define ALERT_ACTION_PASS   1   /* never logged */
#define ALERT_ACTION_DROP   2
#define ALERT_ACTION_REJECT 3

/* A flow or packet variable (pcre captures) for eve's "metadata" */
typedef struct AlertVar {
	const char *name;
	const uint8_t *val;
	uint32_t len;
} AlertVar;

/* The packet's final verdict (eve "verdict", Suricata 8): what happens to
 * the packet after every rule that matched it, not this alert's own
 * action. Unset: the record says "drop" for a packet the IPS dropped and
 * "alert" otherwise. */
enum alert_verdict { ALERT_VERDICT_UNSET = 0, ALERT_VERDICT_ALERT, ALERT_VERDICT_PASS,
		     ALERT_VERDICT_DROP };
/* A reject rule's target (verdict.reject-target): reject and rejectsrc
 * answer the packet's sender (to_client), rejectdst its receiver. */
enum alert_reject { ALERT_REJECT_NONE = 0, ALERT_REJECT_TO_CLIENT, ALERT_REJECT_TO_SERVER,
		    ALERT_REJECT_BOTH };

typedef struct AlertVerdict {
	uint8_t action;             /* enum alert_verdict */
	uint8_t reject;             /* enum alert_reject */
} AlertVerdict;

typedef struct AlertInfo {
	uint8_t action;             /* ALERT_ACTION_* */
	AlertVerdict verdict;       /* the packet's verdict (logger.c sets it) */
	uint32_t gid, sid, rev;
	const char *msg;            /* rule "msg"; NULL logs as "" */
	const char *class_name;     /* classtype short name, or NULL */
	const char *class_desc;     /* "Attempted Information Leak", or NULL */
	int priority;               /* severity; <= 0 means "not set" -> 3 */
	const char *const *metadata; /* "key value" strings as written in the rule */
	unsigned n_metadata;
	/* the rule's references as URLs (reference.config's prefix and the
	 * value), for metadata.rule.reference */
	const char *const *references;
	unsigned n_references;
	const char *rule_text;      /* the rule as written, for metadata.rule.raw */
	/* the target keyword: which side of the packet is the target, logged as
	 * "source" and "target" objects */
#define ALERT_TARGET_SRC 1
#define ALERT_TARGET_DST 2
	uint8_t target;
	/* the flowbits set on the flow when the alert is logged (the names
	 * are the engine's), for the record's "metadata" object */
#define ALERT_FLOWBITS_MAX 32
	const char *flowbits[ALERT_FLOWBITS_MAX];
	unsigned n_flowbits;
	/* the flow's flowvars and the packet's pktvars, same place */
#define ALERT_VARS_MAX 16
	AlertVar flowvars[ALERT_VARS_MAX];
	unsigned n_flowvars;
	AlertVar pktvars[ALERT_VARS_MAX];
	unsigned n_pktvars;
	uint64_t tx_id;
	int has_tx;
	int tx_guessed;             /* has_tx by detect.guess-applayer-tx: eve "tx_guessed" */
	int from_stream;            /* matched on reassembled stream data */
	const uint8_t *payload;     /* what matched: packet payload or stream chunk */
	uint32_t payload_len;
	/* from_stream: the stream offset where the inspected data ends; the
	 * payload logged is then the flow's kept stream data up to there, with
	 * its holes marked. 0: log payload as is. */
	uint64_t stream_end;
	/* matched on a frame (app-layer/frames.h): its id in direction
	 * frame_dir of the flow, logged as the "frame" object; 0: none */
	int64_t frame_id;
	int frame_dir;
	/* a transaction's match on a TCP flow: the stream direction whose
	 * kept data is logged as the payload (Suricata dumps the stream for
	 * such a match too), plus 1; 0: none */
	int tx_stream;
} AlertInfo;

/* What eve's metadata (yes) adds to a record that is not an alert (anomaly):
 * the flowbits set on the flow and its flowvars, as Suricata 8's common
 * record options do. The logger fills it from detection's state. */
typedef struct EveFlowMeta {
	const char *flowbits[ALERT_FLOWBITS_MAX];
	unsigned n_flowbits;
	AlertVar flowvars[ALERT_VARS_MAX];
	unsigned n_flowvars;
} EveFlowMeta;


/* Logs one alert to eve.json (when its types list "alert") and fast.log (when
 * enabled). p is required; f may be NULL. PASS is ignored. Thread-safe. */
void output_alert(Outputs *o, const Packet *p, const Flow *f, const AlertInfo *a);

/* Logs a packet the tag keyword tagged as an eve "packet" record, when the
 * eve alert type has tagged-packets enabled. Thread-safe. */
void output_tagged_packet(Outputs *o, const Packet *p);

/* An alert on a transaction (has_tx) gets the members its flow's protocol
 * logs for it ({"http": {...}}), from the protocol's eve logger (tx-log.c),
 * when the eve alert type asks for app-layer data (http: yes, or
 * metadata/app-layer). No hook to install. */

#endif
