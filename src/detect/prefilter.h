/* The prefilter seam: where the match ids of a packet's buffers come from.
 *
 * Detection asks one source, chosen once per packet (prefilter_select),
 * for the pattern ids of the buffers it prefilters: the packet's payload
 * and the windows of its raw stream. Three sources exist:
 *
 *   cpu       the group's own matcher (mpm.h: ac or hs) scans the bytes;
 *   gpu       ac-cuda: the packet's payload ids come from its batch ticket
 *             (prefilter-gpu.h), in the class-wide group's ids; the stream
 *             windows from stream coverage (stream-cov.h);
 *   coverage  ac-cuda, a packet the GPU did not scan (left to the CPU,
 *             flow-end pseudo packet, engine swapped by a reload): the
 *             payload on the CPU, the stream windows from coverage.
 *
 * Contract, every source: the ids a source yields for a buffer are a
 * superset of what the CPU matcher of the same group finds there, and the
 * candidates drawn from them equal the cpu source's (the GPU's class-wide
 * ids are narrowed by the packet's ports and, on a streamed packet, to
 * the rules of g->ps). That is what keeps ac-cuda's alerts identical to
 * ac's: qa/gpu/accuda-e2e-equal.py checks it on every rule case.
 *
 * The hooks run on the packet thread, never allocate, and touch only the
 * thread's scratch and the flow's detect state. */
#ifndef DETECT_PREFILTER_H
#define DETECT_PREFILTER_H

#include "detect/packet.h"

typedef struct PrefilterOps {
	const char *name;
	/* The payload's ids are those of the class-wide group of the
	 * packet's class and direction (the GPU scanned with its union),
	 * not of its port group g (a streamed packet: g->ps where it has
	 * one). A field, not an op: it is read on every packet. */
	int class_wide;
	/* Marks in dt->cand the candidates of data (the payload, len > 0)
	 * whose ids mg yields, as narrowed by p's ports. */
	void (*packet_ids)(DetectThread *dt, const DetectPkt *pk, const SigGroup *mg,
			   const uint8_t *data, uint32_t len);
	/* The TCP group of direction d whose stream rules a window is
	 * inspected with: its ->ss (or itself) gives the patterns, itself
	 * the rules without a fast pattern. */
	const SigGroup *(*stream_group)(const DetectEngine *de, const Packet *p, int d);
	/* dt->ms := the ids of g's patterns in one raw stream window (data,
	 * len at stream offset base), direction d. */
	void (*stream_ids)(DetectThread *dt, const SigGroup *g, const uint8_t *data,
			   uint32_t len, int d, uint64_t base, const DetectFlowState *fs);
	/* IDS, a packet whose payload went into the stream: records what the
	 * source knows of those bytes (stream coverage). NULL: nothing. */
	void (*stream_added)(DetectThread *dt, const DetectPkt *pk);
	/* Before the stream entries are pruned: folds the response-body ids
	 * the source found into the flow's transactions. NULL: nothing. */
	void (*tx_harvest)(DetectThread *dt, const DetectPkt *pk);
} PrefilterOps;

extern const PrefilterOps prefilter_cpu, prefilter_gpu, prefilter_coverage;

/* The source of p's ids: cpu without ac-cuda; gpu when dt holds a ticket
 * with this very payload's matches (detect_gpu_begin); else coverage.
 * Inline: it runs on every packet, and nearly always without ac-cuda. */
const PrefilterOps *prefilter_select_gpu(const DetectThread *dt, const Packet *p);

static inline const PrefilterOps *prefilter_select(const DetectThread *dt, const Packet *p)
{
	return dt->de->gpu ? prefilter_select_gpu(dt, p) : &prefilter_cpu;
}

/* The group whose pattern ids the payload's ids are. */
static inline const SigGroup *prefilter_packet_group(const DetectEngine *de,
						     const DetectPkt *pk)
{
	if (pk->src->class_wide)
		return &de->groups[pk->pc][pk->dir];
	/* a streamed payload only with the patterns of the rules that
	 * still inspect it */
	return pk->streamed && pk->g->ps ? pk->g->ps : pk->g;
}

/* The cpu source's payload scan, for buffers only the CPU can see (the
 * inline window: stored stream bytes around the packet). */
void prefilter_cpu_payload(DetectThread *dt, const DetectPkt *pk, const SigGroup *mg,
			   const uint8_t *data, uint32_t len);

#endif
