/* The three sources of match ids behind prefilter.h: the CPU matcher, an
 * ac-cuda batch ticket, and stream coverage. Everything GPU-specific on
 * the packet path is here, so that packet.c and stream-inspect.c read the
 * same whichever source serves the packet. */
#include "detect/prefilter.h"
#include "detect/prefilter-gpu.h"
#include "stream/stream.h"

#include <string.h>

/* ---- ac-cuda scan counters (mpm.cuda.scan.*) ---- */

static counter_id c_scan[SCAN_MAX][2];
static counter_id c_verify[6];    /* mpm.cuda.verify.packet_*, tx_* */
/* counters_generation() of the registration: a process that runs the
 * engine again after counters_destroy() (the fuzz harnesses) must
 * register again, or the ids are stale */
static unsigned scan_counters_done;

void detect_scan_counters_register(void)
{
	static const char *const names[SCAN_MAX][2] = {
		{ "mpm.cuda.scan.packet_cpu", "mpm.cuda.scan.packet_gpu" },
		{ "mpm.cuda.scan.stream_cpu", "mpm.cuda.scan.stream_gpu" },
		{ "mpm.cuda.scan.http_cpu", "mpm.cuda.scan.http_gpu" },
	};

	if (scan_counters_done == counters_generation())
		return;
	for (int c = 0; c < SCAN_MAX; c++)
		for (int g = 0; g < 2; g++)
			c_scan[c][g] = counter_register(names[c][g]);
	/* the packet view's candidates: verified on the device (of which
	 * passed), and left to the CPU unverified */
	c_verify[0] = counter_register("mpm.cuda.verify.packet_device");
	c_verify[1] = counter_register("mpm.cuda.verify.packet_passed");
	c_verify[2] = counter_register("mpm.cuda.verify.packet_cpu");
	/* the same for the transaction buffers' candidates */
	c_verify[3] = counter_register("mpm.cuda.verify.tx_device");
	c_verify[4] = counter_register("mpm.cuda.verify.tx_passed");
	c_verify[5] = counter_register("mpm.cuda.verify.tx_cpu");
	scan_counters_done = counters_generation();
}

void detect_scan_count_add(DetectThread *dt, int cls, int gpu, uint64_t bytes)
{
	if (scan_counters_done == counters_generation() && bytes)
		counter_add(dt->tc, c_scan[cls][gpu ? 1 : 0], bytes);
}

/* ---- the rules the CPU inspects (detect.inspect.*) ---- */

static counter_id c_inspect[INSPECT_MAX];
static unsigned inspect_counters_done;

void detect_inspect_counters_register(void)
{
	static const char *const names[INSPECT_MAX] = {
		"detect.inspect.packet", "detect.inspect.stream", "detect.inspect.tx",
	};

	if (inspect_counters_done == counters_generation())
		return;
	for (int c = 0; c < INSPECT_MAX; c++)
		c_inspect[c] = counter_register(names[c]);
	inspect_counters_done = counters_generation();
}

void detect_inspect_counters_flush(DetectThread *dt)
{
	if (inspect_counters_done == counters_generation() && dt->tc) {
		for (int c = 0; c < INSPECT_MAX; c++)
			if (dt->ninspect[c])
				counter_add(dt->tc, c_inspect[c], dt->ninspect[c]);
		if (scan_counters_done == counters_generation() &&
		    (dt->nverify_rej | dt->nverify_pass | dt->nverify_cpu)) {
			counter_add(dt->tc, c_verify[0], dt->nverify_rej + dt->nverify_pass);
			counter_add(dt->tc, c_verify[1], dt->nverify_pass);
			counter_add(dt->tc, c_verify[2], dt->nverify_cpu);
		}
		if (scan_counters_done == counters_generation() &&
		    (dt->ntxv_rej | dt->ntxv_pass | dt->ntxv_cpu)) {
			counter_add(dt->tc, c_verify[3], dt->ntxv_rej + dt->ntxv_pass);
			counter_add(dt->tc, c_verify[4], dt->ntxv_pass);
			counter_add(dt->tc, c_verify[5], dt->ntxv_cpu);
		}
	}
	memset(dt->ninspect, 0, sizeof(dt->ninspect));
	dt->nverify_rej = dt->nverify_pass = dt->nverify_cpu = 0;
	dt->ntxv_rej = dt->ntxv_pass = dt->ntxv_cpu = 0;
}

/* ---- candidates from pattern ids ---- */

/* The candidates of pattern pid of group mg that p's ports allow. The
 * GPU's ids are the class-wide group's: on a streamed packet
 * (streamed_whole) only the rules of g->ps are kept, as ac scans g->ps. */
static inline int pid_rule_ok(const DetectEngine *de, const SigGroup *mg, uint32_t k,
			      const Packet *p, int streamed_whole)
{
	const uint16_t *h = mg->pid_ports[k];

	if (p->sp < h[0] || p->sp > h[1] || p->dp < h[2] || p->dp > h[3])
		return 0;
	return !streamed_whole || de->sigs[mg->pid_sigs[k]].pkt_streamed_ok;
}

static inline void mark_pid(const DetectEngine *de, CandSet *cs, const SigGroup *mg,
			    uint32_t pid, const Packet *p, int streamed_whole)
{
	for (uint32_t k = mg->pid_off[pid]; k < mg->pid_off[pid + 1]; k++)
		if (pid_rule_ok(de, mg, k, p, streamed_whole))
			cand_mark(cs, mg->pid_sigs[k]);
}

static void mark_matchset(DetectThread *dt, const DetectPkt *pk, const SigGroup *mg,
			  int streamed_whole)
{
	uint32_t n = mpm_matchset_count(dt->ms);
	const uint32_t *ids = mpm_matchset_ids(dt->ms);

	for (uint32_t i = 0; i < n; i++)
		mark_pid(dt->de, &dt->cand, mg, ids[i], pk->p, streamed_whole);
}

/* ---- cpu: the group's own matcher ---- */

void prefilter_cpu_payload(DetectThread *dt, const DetectPkt *pk, const SigGroup *mg,
			   const uint8_t *data, uint32_t len)
{
	const uint32_t *ids;
	uint32_t n;

	detect_scan_count(dt, SCAN_PACKET, 0, len);
	mpm_matchset_clear(dt->ms);
	mpm_prefilter(mg->mpm, dt->scratch_g[mg->sidx], data, len, dt->ms);
	/* the loop of mark_matchset, here: every packet with a payload
	 * comes this way */
	n = mpm_matchset_count(dt->ms);
	ids = mpm_matchset_ids(dt->ms);
	for (uint32_t i = 0; i < n; i++)
		mark_pid(dt->de, &dt->cand, mg, ids[i], pk->p, 0);
}

static const SigGroup *cpu_stream_group(const DetectEngine *de, const Packet *p, int d)
{
	return pkt_group(de, PC_TCP, d, p);
}

static void cpu_stream_ids(DetectThread *dt, const SigGroup *g, const uint8_t *data,
			   uint32_t len, int d, uint64_t base, const DetectFlowState *fs)
{
	mpm_prefilter(g->mpm, dt->scratch_g[g->sidx], data, len, dt->ms);
}

const PrefilterOps prefilter_cpu = {
	.name = "cpu",
	.packet_ids = prefilter_cpu_payload,
	.stream_group = cpu_stream_group,
	.stream_ids = cpu_stream_ids,
};

/* ---- coverage: ac-cuda's stream view, a payload on the CPU ---- */

/* ac-cuda: a window's match set from the GPU scans of its packets
 * (stream-cov.h), the ends no packet covers scanned here. */
void detect_cov_ids(void *arg, const uint32_t *ids, uint32_t n, int ctx_ok)
{
	CovArg *a = arg;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t id = ids[i];

		if (id & SCOV_CTX) {
			if (!ctx_ok)
				continue;
			id &= ~SCOV_CTX;
		}
		if (id >= a->lo && id < a->hi)
			mpm_matchset_add(a->dt->ms, id - a->lo);
	}
}

void detect_cov_cpu(void *arg, uint64_t from, uint64_t to)
{
	CovArg *a = arg;
	const uint8_t *b = a->data + (from - a->base);

	/* a range inside the window is no buffer's head: the bounded
	 * patterns found at its start would be ones a scan of the window
	 * does not find */
	if (a->exact && from != a->base) {
		mpm_prefilter_unbounded(a->mpm, a->sc, b, (uint32_t)(to - from), a->dt->ms);
		return;
	}
	mpm_prefilter(a->mpm, a->sc, b, (uint32_t)(to - from), a->dt->ms);
	a->head_scanned = 1;
}

/* The class-wide group, whose ids the stream view holds. */
static const SigGroup *cov_stream_group(const DetectEngine *de, const Packet *p, int d)
{
	return &de->groups[PC_TCP][d];
}

static void cov_stream_ids(DetectThread *dt, const SigGroup *g, const uint8_t *data,
			   uint32_t len, int d, uint64_t base, const DetectFlowState *fs)
{
	CovArg a = { .dt = dt, .mpm = g->mpm, .sc = dt->scratch_g[g->sidx], .data = data,
		     .base = base, .exact = 1 };
	uint64_t cpu;

	detect_gpu_sv_range(dt->de->gpu, GPU_SV_STREAM_TS + d, &a.lo, &a.hi);
	cpu = scov_window_exact(fs ? fs->scov[d] : NULL, base, len,
				detect_gpu_stream_maxlen(dt->de->gpu), detect_cov_ids,
				detect_cov_cpu, &a);
	/* the entries hold no bounded pattern (prefilter-gpu.c: stream_id_cb):
	 * a window finds them at its head, as the CPU matcher does; the probes
	 * cost a few starts (mpm/head.h) */
	if (!a.head_scanned)
		mpm_prefilter_bounded(g->mpm, data, len, dt->ms);
	detect_scan_count(dt, SCAN_STREAM, 0, cpu);
	detect_scan_count(dt, SCAN_STREAM, 1, len - cpu);
}

/* A packet whose bytes went into the stream may have rewritten stored
 * bytes: what earlier packets recorded there is void. Only an overlap
 * with other bytes can change stored bytes: new bytes fill what no entry
 * scanned, and equal ones change nothing. */
static void cov_stream_added(DetectThread *dt, const DetectPkt *pk)
{
	const Packet *p = pk->p;
	DetectFlowState *fs = pk->fs;
	int64_t so = p->stream_off;

	if (fs->scov[pk->dir] && (p->stream_flags & STREAM_PKT_OVERLAP_DIFF))
		scov_invalidate(fs->scov[pk->dir], so > 0 ? (uint64_t)so : 0,
				so + p->payload_len > 0 ? (uint64_t)(so + p->payload_len) : 0);
}

static void cov_tx_harvest(DetectThread *dt, const DetectPkt *pk)
{
	if (app_layer_has_txs(pk->p->flow))
		tx_gpu_harvest(dt, pk->p->flow, pk->fs);
}

const PrefilterOps prefilter_coverage = {
	.name = "coverage",
	.packet_ids = prefilter_cpu_payload,
	.stream_group = cov_stream_group,
	.stream_ids = cov_stream_ids,
	.stream_added = cov_stream_added,
	.tx_harvest = cov_tx_harvest,
};

/* ---- gpu: the packet's batch ticket ---- */

/* mark_pid with the device's verdicts: a rule whose payload program the
 * device ran and that did not hold is no candidate (the CPU would reject
 * it: verify-kernel.h); one that held is, and vpass tells
 * detect_inspect_sig whether its list is decided already. */
static inline void mark_pid_verified(DetectThread *dt, const SigGroup *mg, uint32_t pid,
				     const Packet *p, int streamed_whole)
{
	const DetectEngine *de = dt->de;

	for (uint32_t k = mg->pid_off[pid]; k < mg->pid_off[pid + 1]; k++) {
		uint32_t num = mg->pid_sigs[k];

		if (!pid_rule_ok(de, mg, k, p, streamed_whole))
			continue;
		if (!de->sigs[num].gpu_verify) {
			dt->nverify_cpu++;
		} else if (dt->vpass[num] != dt->pkt_seq) {
			dt->nverify_rej++;
			continue;
		} else {
			dt->nverify_pass++;
		}
		cand_mark(&dt->cand, num);
	}
}

static void gpu_packet_ids(DetectThread *dt, const DetectPkt *pk, const SigGroup *mg,
			   const uint8_t *data, uint32_t len)
{
	uint32_t n, lo = 0, hi = 0;
	int streamed_whole = pk->streamed && mg->ps;
	/* the device gives each id once: no match set */
	const uint32_t *ids = detect_gpu_packet_ids(pk->gpu, pk->pc, pk->dir, &n, &lo, &hi);

	detect_scan_count(dt, SCAN_PACKET, 1, len);
	if (!ids) {
		/* the device's rescan on the CPU: group pids already */
		mpm_matchset_clear(dt->ms);
		detect_gpu_prefilter(pk->gpu, pk->pc, pk->dir, dt->ms);
		mark_matchset(dt, pk, mg, streamed_whole);
		return;
	}
	/* the device's array holds both directions' ids */
	if (!detect_gpu_packet_passed(pk->gpu, dt->vpass, dt->pkt_seq)) {
		for (uint32_t i = 0; i < n; i++)
			if (ids[i] >= lo && ids[i] < hi)
				mark_pid(dt->de, &dt->cand, mg, ids[i] - lo, pk->p, streamed_whole);
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		if (ids[i] >= lo && ids[i] < hi)
			mark_pid_verified(dt, mg, ids[i] - lo, pk->p, streamed_whole);
}

/* Then, when the stream holds its bytes as the GPU scanned them, it
 * records what the GPU found in them. */
static void gpu_stream_added(DetectThread *dt, const DetectPkt *pk)
{
	cov_stream_added(dt, pk);
	detect_gpu_stream_cover(pk->gpu, pk->p->flow, pk->dir, dt->scov_ids, SCOV_IDS_MAX,
				&pk->fs->scov[pk->dir]);
}

const PrefilterOps prefilter_gpu = {
	.name = "gpu",
	/* the port group g still gives the always list */
	.class_wide = 1,
	.packet_ids = gpu_packet_ids,
	.stream_group = cov_stream_group,
	.stream_ids = cov_stream_ids,
	.stream_added = gpu_stream_added,
	.tx_harvest = cov_tx_harvest,
};

/* ac-cuda: the ticket holds this very payload's matches (the flow-end
 * pseudo packet, or a payload changed since RX copied it, is scanned on
 * the CPU). */
static int gpu_payload_ready(const DetectGpuTicket *gt, const Packet *p)
{
	return gt && gt->g && gt->p == p && gt->payload == p->payload &&
	       gt->len == p->payload_len;
}

const PrefilterOps *prefilter_select_gpu(const DetectThread *dt, const Packet *p)
{
	return gpu_payload_ready(dt->gpu_src, p) ? &prefilter_gpu : &prefilter_coverage;
}
