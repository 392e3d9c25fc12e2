/* Runmodes of the pcap-file source.
 *   single: one thread reads, decodes, tracks flows and inspects (the reference).
 *   autofp: one RX thread reads and decodes; N workers, each owning a flow table,
 *           take packets from bounded queues chosen by flow hash, so a flow's packets
 *           stay on one worker and in order. Full queues block the reader. */
#ifndef RUNMODE_RUNMODE_H
#define RUNMODE_RUNMODE_H

#include "capture/pcap-file.h"
#include "decode/decode.h"
#include "flow/flow.h"
#include "stream/stream.h"
#include "app-layer/app-layer.h"

#include <stdint.h>

struct Outputs;
struct DetectEngine;

enum runmode {
	RUNMODE_SINGLE = 0,
	RUNMODE_AUTOFP,
};

typedef struct EngineConfig {
	enum runmode mode;
	unsigned workers;               /* autofp worker threads */
	uint32_t max_pending_packets;   /* packet pool size */
	DecodeConfig decode;
	FlowConfig flow;
	StreamConfig stream;            /* stream.*: TCP tracking and reassembly */
	AppLayerConfig app;             /* app-layer.*: HTTP */
	int stats_enabled;
	uint32_t stats_interval_s;
} EngineConfig;

typedef struct Engine {
	EngineConfig cfg;
	struct Outputs *outputs;
	PcapSource *src;
	struct DetectEngine *detect;    /* NULL: detection disabled */
} Engine;

/* "single" / "autofp" -> mode; -1 if unknown. */
int runmode_parse(const char *name, enum runmode *out);
const char *runmode_name(enum runmode m);
void runmode_list(void);           /* --list-runmodes */

/* Reads the whole source. 0, or -1 on a setup failure (logged). */
int runmode_run(Engine *e);

#endif
