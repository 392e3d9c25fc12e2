/* The payload prefilter on the GPU (mpm-algo: ac-cuda).
 *
 * A packet is submitted right after decode, before its flow is looked up,
 * so its flow direction (and signature group) is not known yet. We build
 * one UNION automaton per protocol class (tcp, udp, icmp, other) holding
 * the payload fast patterns of both direction groups of that class, with
 * union id = pid for the toserver group and n_toserver + pid for the
 * toclient one. Detection, which knows the direction, keeps the ids of its
 * own group and feeds them to the match set exactly where `ac` would have;
 * the pattern bytes and nocase flags are copied from the groups' own ac
 * automata, so the match set (and the alerts) equal ac's by construction.
 *
 *   feed:    every packet thread (an autofp worker, a capture thread of
 *            workers or single) has its own DetectGpuFeed: an ac-cuda lane
 *            and the stream view's context cache for the flows it owns.
 *            The runmode's window (runmode/window.c) calls
 *            detect_gpu_submit() after decode, detect_gpu_flush() when its
 *            window is complete, then for each packet in order
 *            detect_gpu_begin() before detect_packet() (waits for the
 *            batch: one wake-up per batch) and detect_gpu_end() after
 *            (the ticket is released; every queued ticket exactly once).
 *            A payload left to the CPU (below min, above max, ring full)
 *            is scanned by the worker's group MPM, as with `ac`.
 *
 * Transaction buffers: an automaton per (pass side, transaction list)
 * with a prefilter group (ids = the group's pids), and the programs of its
 * rules' fast pattern lists. In a burst, after p's app layer ran,
 * detect_gpu_tx_queue() queues the buffers detection will prefilter on p
 * (tx_plan_buffers: the same walk and skip tests as tx_eval) and notes
 * them in p's ticket; tx-inspect.c takes a buffer's ids and verdicts from
 * it when the entry is this very buffer (detect_gpu_tx_find), else scans
 * it on the CPU. The response body stays on the stream view, the
 * transformed groups on the CPU.
 *
 * A rule reload builds a new DetectGpu (its automata) for the new engine
 * before the swap; a thread drains its window and frees its feed before it
 * takes up the new engine, and opens a feed on the new DetectGpu after. A
 * ticket is tagged with the DetectGpu that queued it all the same, and a
 * thread whose engine is not that ticket's takes no matches from it (the
 * packet is scanned on the CPU: detect_gpu_drained); the old DetectGpu is
 * freed once its tickets are all released (detect_gpu_outstanding). */
#ifndef DETECT_PREFILTER_GPU_H
#define DETECT_PREFILTER_GPU_H

#include "detect/engine.h"
#include "detect/stream-cov.h"
#include "flow/flow.h"
#include "mpm/ac-cuda.h"
#include "stats/counters.h"

typedef struct DetectGpu DetectGpu;
struct MpmMatchSet;

/* The groups of the TCP stream view (one automaton, a range of ids each). */
enum {
	GPU_SV_STREAM_TS = 0, GPU_SV_STREAM_TC,   /* stream groups, by flow direction */
	GPU_SV_BODY_TS, GPU_SV_BODY_TC,           /* response-body groups, by eval side */
	GPU_SV_MAX
};

/* A transaction buffer queued for a packet (detect_gpu_tx_queue): entry
 * idx of list l's buffer of transaction tx on pass side d, as the getter
 * gave it then. Detection takes its ids only for the same (tx, d, l, idx)
 * whose bytes still equal the ring's copy (a getter may build its buffer
 * in scratch that another transaction reuses). */
typedef struct DetectGpuTxBuf {
	const void *tx;
	const uint8_t *data;
	uint32_t len;
	uint32_t idx;
	uint8_t d, l;
	AcCudaTicket t;
} DetectGpuTxBuf;

/* Transaction buffers one packet queues at most; beyond, the CPU scans. */
#define DETECT_GPU_TX_MAX 16

/* A packet's place in the ring. `g` NULL: not queued (CPU matcher).
 * txg NULL: no transaction buffer queued (ntx 0). */
typedef struct DetectGpuTicket {
	DetectGpu *g;
	const Packet *p;
	const uint8_t *payload;    /* what was copied: p->payload, payload_len */
	uint32_t len;
	uint32_t ctxlen;           /* TCP: context bytes before it in the stream view */
	int has_pkt;               /* view 0 holds the packet group's matches */
	AcCudaTicket t;
	DetectGpu *txg;
	uint32_t ntx;
	DetectGpuTxBuf tx[DETECT_GPU_TX_MAX];
} DetectGpuTicket;

/* Test-only switches read from the config (never defaults):
 *   cuda.mpm.emulation: yes      the host EMULATION instead of a GPU
 *   cuda.mpm.test-opts: "records=N,payloads=N,slots=N,kernel=payload|chunk,
 *                        chunk=N,threads=N,fail=N,verify=0|1,tx=0|1"   AcCudaOpts
 *                        overrides (tiny result buffers force the overflow
 *                        path); fail=N: every Nth emulated batch fails on
 *                        the "device" (in submit or in wait, alternately),
 *                        1: all; verify=0: no rule programs on the device;
 *                        tx=1: transaction buffers on the device too
 * Fills *emulation and *opts (defaults derived from cfg when no override);
 * returns 1 when opts were overridden, 0 when not, -1 with err. */
int detect_gpu_test_switches(const CudaMpmConfig *cfg, int *emulation, AcCudaOpts *opts,
			     char *err, size_t errlen);

/* Adds every (literal, id) of a group's ac automaton to a union under
 * id + base: the same bytes and nocase flag the group was built with
 * (qa/gpu/kbench builds its unions with it too). 0 or -1. */
int detect_gpu_union_add(MpmCtx *uni, const MpmCtx *grp, uint32_t base);

/* The rule programs (cuda/verify-kernel.h) of union automaton a of
 * protocol class pc, uploaded as group `group`: pattern index k gets the
 * payload programs of its rules, each rule's made once (prog_of[num], -2
 * before: not tried; -1: none) and its DetectSig.gpu_verify set
 * (qa/gpu/kbench builds its block with it too). 0, or -1 out of memory. */
struct VerifyBuild;
int detect_gpu_verify_union(DetectEngine *de, int pc, const AcAutomaton *a, uint32_t group,
			    struct VerifyBuild *vb, int32_t *prog_of);

/* Builds the union automata from de's groups and starts ac-cuda on `ops`
 * (accuda_cuda_ops(), or accuda_emu_ops() under the test switch). opts NULL:
 * defaults. Attaches itself to de (detect_engine_gpu). NULL with one line in
 * err (cause and fix). */
DetectGpu *detect_gpu_new(DetectEngine *de, const CudaMpmConfig *cfg, const AcCudaOpts *opts,
			  const AcDeviceOps *ops, char *err, size_t errlen);
/* Stops ac-cuda (every ticket released before) and detaches from the engine. */
void detect_gpu_free(DetectGpu *g);
/* The DetectGpu attached to de, or NULL (mpm-algo is not ac-cuda). */
DetectGpu *detect_engine_gpu(const DetectEngine *de);

/* A packet thread's feed: its lane of the ring, ring share 1/share of
 * cudabuffer-buffer-size. NULL with err. Freed by its thread, every ticket
 * released before. */
typedef struct DetectGpuFeed DetectGpuFeed;
DetectGpuFeed *detect_gpu_feed_new(DetectGpu *g, unsigned share, char *err, size_t errlen);
void detect_gpu_feed_free(DetectGpuFeed *f);
DetectGpu *detect_gpu_feed_gpu(const DetectGpuFeed *f);

/* After decode: queues p's payload. 1: queued (gt filled, release it with
 * detect_gpu_end); 0: left to the CPU matcher (counted by reason) or no
 * payload prefilter for its protocol. */
int detect_gpu_submit(DetectGpuFeed *f, Packet *p, DetectGpuTicket *gt);
/* The window is complete: its open batch goes to the device now. */
void detect_gpu_flush(DetectGpuFeed *f);
/* 1 when detect_gpu_begin(gt) would not wait. */
int detect_gpu_ready(const DetectGpuTicket *gt);

/* The feed's thread, ac-cuda window (runmode/window.c): p has been through
 * flow, stream and the app layer and waits in its burst for detection (no
 * other packet of its flow is in the burst, so nothing changes its
 * transactions before its detection). Queues on the feed's lane the
 * transaction buffers detection will prefilter on p, and notes them in gt;
 * the burst's end cuts them to the device (detect_gpu_flush) and
 * detect_gpu_begin waits for them. Called for every packet of a window,
 * after detect_gpu_submit, queued or not. */
void detect_gpu_tx_queue(DetectThread *dt, DetectGpuFeed *f, Packet *p, DetectGpuTicket *gt);

/* The feed's thread: waits for gt's batch (and its transaction buffers')
 * and makes the next detect_packet(dt, gt->p) take the payload matches
 * and the transaction buffers' from it. */
void detect_gpu_begin(DetectThread *dt, const DetectGpuTicket *gt);
/* The feed's thread: detaches and releases the ticket and each of its
 * transaction buffers. */
void detect_gpu_end(DetectThread *dt, DetectGpuTicket *gt);

/* tx-inspect.c, on a transaction pass: the queued entry of gt for this
 * very buffer (tx, side d, list l, entry idx, bytes data[len]), or NULL
 * (not queued, refused, or changed since: the CPU scans it). */
const DetectGpuTxBuf *detect_gpu_tx_find(const DetectGpuTicket *gt, const void *tx, int d,
					 int l, uint32_t idx, const uint8_t *data, uint32_t len);
/* The entry's pattern ids (pids of hgroups[d][l]), each once; NULL when
 * the device's results are not used (a CPU rescan): then
 * detect_gpu_tx_matches adds them to ms. */
const uint32_t *detect_gpu_tx_ids(const DetectGpuTicket *gt, const DetectGpuTxBuf *e,
				  uint32_t *n);
void detect_gpu_tx_matches(const DetectGpuTicket *gt, const DetectGpuTxBuf *e,
			   MpmMatchSet *ms);
/* The device's verdicts on the entry: 1, vpass[num] = seq for every rule
 * whose program on the list held (those with DetectSig.gpu_txv bit d
 * whose did not would fail the list on the CPU); 0: no verdicts. */
int detect_gpu_tx_passed(const DetectGpuTicket *gt, const DetectGpuTxBuf *e, uint32_t *vpass,
			 uint32_t seq);
/* The automaton of (d, l) on the device, -1: none (the CPU scans). */
int detect_gpu_tx_auto(const DetectGpu *g, int d, int l);
/* Rule reload: tickets of g not yet released; packets whose ticket a
 * worker of another engine drained. */
uint64_t detect_gpu_outstanding(const DetectGpu *g);
uint64_t detect_gpu_drained(const DetectGpu *g);

/* Worker: the device's ids of gt's payload as an array, each once; pids of
 * the class-wide group of (pc, dir) are the ids in [lo, hi), minus lo.
 * NULL when they must come from detect_gpu_prefilter (a CPU rescan, or no
 * packet view). */
const uint32_t *detect_gpu_packet_ids(const DetectGpuTicket *gt, int pc, int dir, uint32_t *n,
				      uint32_t *lo, uint32_t *hi);

/* Worker: the device's verdicts on gt's payload. 1: vpass[num] = seq for
 * every rule whose payload program held (the others the device ran did
 * not: DetectSig.gpu_verify); 0: no verdicts (a CPU rescan, no packet
 * view, a device that does not verify): every candidate is the CPU's. */
int detect_gpu_packet_passed(const DetectGpuTicket *gt, uint32_t *vpass, uint32_t seq);

/* Worker, TCP, after reassembly: when the stream holds gt's context and
 * payload exactly as the GPU scanned them, records in *cov the stream
 * view's ids (of direction dir's consumers) that matched there; ids[cap]
 * is scratch.
 * 1: recorded; 0: not (the caller invalidates the packet's bytes). */
int detect_gpu_stream_cover(const DetectGpuTicket *gt, Flow *f, int dir, uint32_t *ids,
			    uint32_t cap, StreamCov **cov);
/* Longest pattern of the stream view (0: none). */
uint32_t detect_gpu_stream_maxlen(const DetectGpu *g);
/* The stream view ids of group k (GPU_SV_*): [lo, hi), pid = id - lo. */
void detect_gpu_sv_range(const DetectGpu *g, int k, uint32_t *lo, uint32_t *hi);

/* mpm.cuda.* counters; register before counters_freeze(). */
void detect_gpu_register_counters(void);
/* Copies the engine's stats into the counters. Any thread, now and then:
 * a call while another one runs does nothing. */
void detect_gpu_update_counters(DetectGpu *g);
/* Rule reload, before g (the old engine's) is freed: its last figures
 * stay in the sums of mpm.cuda.*; averages, quantiles and peaks are the
 * running engine's. */
void detect_gpu_retire_counters(DetectGpu *g);
void detect_gpu_stats(const DetectGpu *g, AcCudaStats *st);

/* prefilter.c (the gpu source): adds p's matches of group (pc, dir) to ms from the ticket. */
struct MpmMatchSet;
void detect_gpu_prefilter(const DetectGpuTicket *gt, int pc, int dir, MpmMatchSet *ms);

#endif
