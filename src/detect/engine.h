/* The detection engine: signatures loaded by the parser (detect-parse.h) are
 * built once into an immutable DetectEngine shared by all workers; each worker
 * owns a DetectThread (MPM scratch, match set, candidate array, byte_extract
 * variables) allocated once, so detect_packet() never allocates or locks on
 * the common path (threshold/suppress state is the one shared, locked table,
 * touched only when a thresholded rule matched).
 *
 * Per packet: the signature group of (protocol class, flow direction) gives an
 * MPM over the fast patterns of its rules; the match set plus the group's
 * rules without a usable fast pattern form the candidates, sorted by internal
 * order (Suricata's: action, flowbits set-before-read, priority, load order);
 * each candidate is fully inspected; matches queue up to packet-alert-max
 * alerts, handed to the caller in that order. */
#ifndef DETECT_ENGINE_H
#define DETECT_ENGINE_H

#include "decode/packet.h"
#include "detect/detect-parse.h"
#include "detect/fw-policy.h"
#include "flow/flow.h"
#include "mpm/mpm.h"
#include "stats/counters.h"

#include <stdint.h>

#define DETECT_ALERT_MAX_DEFAULT 15
#define DETECT_PCRE_MATCH_LIMIT 3500     /* Suricata 8's pcre.match-limit */
#define DETECT_PCRE_DEPTH_LIMIT 1500     /* and pcre.match-limit-recursion */

/* The actions action-order ranks (DetectConfig.action_rank). */
enum { DETECT_ORDER_PASS, DETECT_ORDER_DROP, DETECT_ORDER_REJECT, DETECT_ORDER_ALERT,
       DETECT_ORDER_COUNT };

typedef struct DetectConfig {
	enum mpm_algo algo;            /* mpm-algo */
	uint32_t alert_max;            /* packet-alert-max */
	const char *threshold_file;    /* threshold-file; NULL: none */
	int midstream;                 /* stream.midstream: pick up TCP sessions */
	/* stream.inline as resolved by the caller (StreamConfig.inline_mode,
	 * auto = IPS mode); 0 after detect_config_load. Inline inspects each
	 * packet's stream data at once in a sliding window; IDS waits for the ACK. */
	int stream_inline;
	uint32_t chunk_size[2];        /* stream.reassembly.to{server,client}-chunk-size */
	int ips;                       /* IPS (--simulate-ips): drop and reject rules drop */
	/* firewall mode (detect/firewall.h): --firewall, a firewall rule file,
	 * or firewall.enabled; its verdicts act in IPS mode */
	int firewall;
	/* firewall.policies: each hook's default policy (fw-policy.h); all
	 * zero: the built-in ones */
	FwPolicies fw_pol;
	/* the cross-flow state's tables (detect/state-hash.h); 0: Suricata 8's
	 * defaults (16384 rows and 16mb; 4096 rows and 32mb) */
	uint32_t thr_hash_size;        /* detect.thresholds.hash-size */
	uint64_t thr_memcap;           /* detect.thresholds.memcap */
	uint32_t host_hash_size;       /* host.hash-size */
	uint64_t host_memcap;          /* host.memcap */
	/* pcre.match-limit and pcre.match-limit-recursion: PCRE2's match and
	 * depth limits for each pcre (Suricata 8's defaults 3500 and 1500, not
	 * PCRE2's 10,000,000: a hostile buffer cannot make one rule take
	 * seconds); a rule's /O lifts them; 0: those defaults */
	uint32_t pcre_match_limit;
	uint32_t pcre_depth_limit;
	/* action-order: the rank of pass, drop, reject and alert
	 * (DETECT_ORDER_*) in the rule order; Suricata's default is
	 * pass, drop, reject, alert, which action_order_set 0 (a config
	 * not loaded from yaml: tests, tools) stands for */
	uint8_t action_rank[DETECT_ORDER_COUNT];
	uint8_t action_order_set;
	/* detect.guess-applayer-tx: a packet or stream rule's alert on a TCP
	 * flow names the transaction when it is the only one live in the
	 * packet's direction; detect.stream-tx-log-limit: how many such
	 * alerts (and UDP ones on a rule of the flow's protocol) one
	 * transaction lends itself to */
	uint8_t guess_tx;
	uint8_t guess_tx_limit;
} DetectConfig;

/* Reads mpm-algo, packet-alert-max, threshold-file, action-order,
 * detect.thresholds.*, host.* (hash-size, memcap) and pcre.* from the conf tree.
 * Returns 0, or -1 with one line in err naming the key. */
int detect_config_load(DetectConfig *cfg, char *err, size_t errlen);

typedef struct DetectEngine DetectEngine;
typedef struct DetectThread DetectThread;

/* Builds the engine from a loaded table (the table must outlive the engine).
 * NULL with a reason in err. */
DetectEngine *detect_engine_build(SigTable *t, const DetectConfig *cfg, char *err,
				  size_t errlen);
void detect_engine_free(DetectEngine *de);

/* ---- rule reload (detect-engine.rule-reload; runmode/reload.c) ----
 * The next engine is built beside the running one (prev, still in use by
 * the workers): its flowbit/flowint/hostbit ids are prev's, new names after
 * them. Once it is complete (GPU included) and about to be swapped in,
 * detect_engine_adopt() hands it prev's cross-flow state (hostbits, host
 * tags, threshold counts); prev may be freed any time after, once no
 * thread uses it. Flow and transaction state made by prev is rebased on
 * its next use by the new engine (by generation: detect_engine_gen). */
DetectEngine *detect_engine_build_next(SigTable *t, const DetectConfig *cfg,
				       const DetectEngine *prev, char *err, size_t errlen);
void detect_engine_adopt(DetectEngine *de, DetectEngine *prev);
uint32_t detect_engine_gen(const DetectEngine *de);
/* Forgets the cross-flow state (hostbits, host tags, threshold counts):
 * the unix-socket runmode's next file starts as a fresh run, as Suricata
 * clears its host table between files. No thread may inspect meanwhile. */
void detect_engine_reset_state(DetectEngine *de);
/* The unix socket's hostbit commands on the engine's host table (state.c):
 * set (set 1, for expire seconds) or unset (0) the hostbit name of address
 * a, or call fn with each bit a has and the whole seconds it has left.
 * 0; -1: no hostbit of that name in the rules; -2: the host is not in the
 * table (unset, list) or not admitted (host.memcap). */
int detect_hostbit_set(DetectEngine *de, const Address *a, const char *name, int set,
		       uint32_t expire);
int detect_hostbit_list(DetectEngine *de, const Address *a,
			void (*fn)(void *arg, const char *name, uint32_t left), void *arg);
/* host.memcap at run time (memcap-set): from the next new entry on. get:
 * the one set, else the configured one. */
void host_memcap_set(uint64_t cap);
uint64_t host_memcap_get(void);
/* The rule table the engine was built from (its loaded/failed/skipped
 * counts and failed rules). */
SigTable *detect_engine_table(const DetectEngine *de);
const DetectConfig *detect_engine_config(const DetectEngine *de);
/* Rules the engine inspects (loaded minus those needing buffers we lack). */
uint32_t detect_engine_sig_count(const DetectEngine *de);
/* Suricata 8's start-up line "N signatures processed. ..." counts the
 * engine's rules by kind, each in the first that fits: ip-only, inspecting
 * packet payload (content/pcre on the payload or stream), decoder event
 * only, application layer (an app protocol or its buffers). */
typedef struct SigKinds {
	uint32_t total, iponly, payload, deonly, applayer;
} SigKinds;
void detect_engine_sig_kinds(const DetectEngine *de, SigKinds *k);
/* --engine-analysis (analysis.c): writes rules.json and patterns.json to
 * the folder dir, and the text reports the ANALYSIS_* bits of reports ask
 * for (engine-analysis.rules-fast-pattern, engine-analysis.rules). */
#define ANALYSIS_FAST_PATTERN 1u  /* rules_fast_pattern.txt */
#define ANALYSIS_RULES        2u  /* rules_analysis.txt */
int detect_engine_analysis_write(const DetectEngine *de, const char *dir, unsigned reports,
				 char *err, size_t errlen);

/* Registers detect.* counters; call before counters_freeze(). */
void detect_register_counters(void);
/* detect.inspect.*: the rules the CPU inspected (engine-int.h) */
void detect_inspect_counters_register(void);

DetectThread *detect_thread_new(const DetectEngine *de, ThreadCounters *tc);
void detect_thread_free(DetectThread *dt);
/* The engine dt was made for (after a rule reload: a worker's current one). */
const DetectEngine *detect_thread_engine(const DetectThread *dt);

/* Thresholds count matches across flows, so in autofp the order in which
 * workers reach them must be the capture order for results to equal single's.
 * When set, fn(arg, p) is called before a thresholded match is counted and
 * returns once every packet captured before p has been processed. */
typedef void (*detect_order_fn)(void *arg, const Packet *p);
void detect_thread_set_order(DetectThread *dt, detect_order_fn fn, void *arg);

/* One alert of the current packet. */
typedef struct DetectAlert {
	const Signature *s;
	uint32_t num;                  /* internal order */
	uint8_t action;                /* ALERT_ACTION_* (output/alert.h) */
	uint8_t by_rate_filter;        /* action is a rate_filter's new_action */
	uint8_t from_stream;
	uint8_t has_tx;                /* matched on an HTTP transaction */
	uint8_t tx_guessed;            /* has_tx by detect.guess-applayer-tx */
	uint64_t tx_id;
	const uint8_t *data;           /* what matched (stream chunk); NULL: packet payload */
	uint32_t data_len;
	uint64_t stream_end;           /* stream offset where that chunk ends; 0: unknown */
	int64_t frame_id;              /* matched on this frame of the flow (frames.h); 0: none */
	uint8_t frame_dir;             /* ... of that direction */
} DetectAlert;

/* Inspects p (flow state in p->flow). Returns the number of alerts to log;
 * *alerts points into dt and stays valid until the next call. */
uint32_t detect_packet(DetectThread *dt, Packet *p, const DetectAlert **alerts);
/* IPS: the drop or reject rule (the first, alerting or noalert) that matched
 * the last detect_packet()'s packet, or NULL. *flow: the drop applies to
 * the flow too, as Suricata decides it by the rule's type (ip-only and
 * app-layer rules drop the flow; packet rules only the packet; stream and
 * packet-and-stream rules the flow when they matched on the stream). */
const DetectAlert *detect_packet_drop(const DetectThread *dt, int *flow);
/* The last detect_packet()'s verdict as eve's "verdict" object gives it
 * (output/alert.h): pass when a pass rule acted on the packet, the reject
 * target of the first reject rule that matched (any mode). */
void detect_packet_verdict(const DetectThread *dt, int *pass, uint8_t *reject);
/* Firewall mode (Suricata 8; firewall.c): whether de runs the firewall
 * (firewall mode in IPS), whether the last detect_packet() ran it, and
 * whether it dropped that packet: 1 with *reason (enum pkt_drop_reason)
 * and *flow (the flow is dropped too). */
int detect_engine_firewall(const DetectEngine *de);
int detect_packet_fw_ran(const DetectThread *dt);
int detect_packet_fw_drop(const DetectThread *dt, uint8_t *reason, int *flow);
/* Whether the tag keyword tagged the packet of the last detect_packet():
 * it is then logged as an eve "packet" record. */
int detect_packet_tagged(const DetectThread *dt);
/* Whether s has the tag keyword: its alerting packet opens the tag
 * (pcap-log conditional: tag logs it with the tagged ones). */
int detect_sig_has_tag(const Signature *s);

/* Flow end, once per direction (p: the flow's pseudo packet going that way,
 * no payload): inspects that direction's stream data and HTTP transaction
 * side that became final at the flush, nothing else. */
uint32_t detect_flow_flush(DetectThread *dt, Packet *p, const DetectAlert **alerts);

/* Whether any rule inspects the reassembled stream (else the stream engine
 * need not keep raw data). */
int detect_engine_uses_stream(const DetectEngine *de);
/* Whether some rule inspects app-layer frames (frame:): the app layer then
 * makes them (AppLayerConfig.frames). */
int detect_engine_uses_frames(const DetectEngine *de);
/* Whether a frame rule inspects a "<proto>.stream" frame (frames.h). */
int detect_engine_uses_stream_frames(const DetectEngine *de);

/* Frees the per-flow detect state (flowbits, flowint, ip-only marks); call
 * from the flow end callback. */
void detect_flow_free(Flow *f);
/* 1 once a pass rule passed the whole flow: nothing of it is inspected
 * any more (its transactions need not wait for detection to be freed). */
int detect_flow_is_passed(const Flow *f);
/* f's direction was reversed (flow_swap): per-direction progress follows. */
void detect_flow_swap(Flow *f);

/* Fills an output_alert() record for one alert (payload = packet payload). */
struct AlertInfo;
void detect_alert_info(const DetectEngine *de, const Packet *p, const DetectAlert *a,
		       struct AlertInfo *ai);
/* The flowvars (pcre captures) of f, at most max: the flow record's
 * metadata (output_set_flowvar_source). */
struct AlertVar;
unsigned detect_flowvars_get(const Flow *f, struct AlertVar *out, unsigned max);
/* The names of the flowbits set on f (NULL: none), at most max, in the
 * thread's engine's order: eve's metadata.flowbits. */
unsigned detect_flowbits_get(const DetectThread *dt, const Flow *f, const char **out,
			     unsigned max);
/* Adds the pktvars of dt's last packet (pcre captures) to ai. */
void detect_alert_pktvars(const DetectThread *dt, struct AlertInfo *ai);

#endif
