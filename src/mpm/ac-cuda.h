/* ac-cuda: the GPU multi-pattern matcher, host side.
 *
 * Threads and who calls what:
 *   packet threads:   each thread that feeds the GPU (an autofp worker, a
 *                     workers-runmode capture thread, the single runmode's
 *                     thread) owns a LANE (ac_cuda_lane_new): its own
 *                     page-locked ring and batch slots. ac_cuda_submit()
 *                     per eligible payload copies it into the lane's ring
 *                     and gives a ticket; a nonzero return means "use the
 *                     CPU matcher (ac) for this payload" and says why
 *                     (counted). Never blocks, never drops. ac_cuda_flush()
 *                     cuts the lane's open batch (the thread's window is
 *                     complete). Then, on the same thread, ac_cuda_wait()
 *                     (a wait for the lane's open batch cuts it),
 *                     ac_cuda_ids() / ac_cuda_matches() where ac_search()
 *                     would be called, and ac_cuda_release() once the bytes
 *                     and ids are no longer read. Every queued ticket must
 *                     be released exactly once, and all of a lane's before
 *                     ac_cuda_lane_free().
 *   ACC-DISP:         the dispatcher submits the lanes' closed batches to
 *                     the cuda-streams device streams (closing a batch
 *                     batching-timeout µs after its oldest payload if its
 *                     owner has not);
 *   ACC-DONE:         the completer waits for each batch in order, groups
 *                     its match records by payload, and wakes the batch's
 *                     waiter once.
 *
 * Matches equal `ac`'s exactly: a batch whose result buffer overflowed, or
 * that the device failed, is rescanned on the CPU by ac_cuda_matches()
 * (with ac_search on the same automaton), counted per reason.
 */
#ifndef MPM_AC_CUDA_H
#define MPM_AC_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "conf/cuda-mpm-conf.h"
#include "cuda/accuda-device.h"
#include "mpm/ac.h"

typedef struct AcCuda AcCuda;
typedef struct AcCudaLane AcCudaLane;

/* Lanes alive at once: one per packet thread. */
#define AC_CUDA_LANES_MAX 256

/* Names a payload inside a batch. Valid from submit until release. */
typedef struct AcCudaTicket {
	uint64_t batch;
	uint32_t index;          /* its first descriptor */
	uint16_t views;          /* 1, or 2 for ac_cuda_submit_ctx */
	uint16_t lane;           /* the lane that queued it */
} AcCudaTicket;

/* Why ac_cuda_submit() left a payload to the CPU matcher. */
enum ac_cuda_submit_rc {
	AC_CUDA_QUEUED = 0,
	AC_CUDA_CPU_BELOW_MIN,  /* len < data-buffer-size-min-limit (or 0) */
	AC_CUDA_CPU_ABOVE_MAX,  /* len > data-buffer-size-max-limit */
	AC_CUDA_CPU_RING_FULL,  /* no room in the ring or no free batch slot */
	AC_CUDA_CPU_BAD_GROUP,  /* group id has no automaton (caller bug) */
};

/* Tuning that is not in suricata.yaml; ac_cuda_opts_defaults() derives it
 * from the config. */
typedef struct AcCudaOpts {
	int kernel;              /* ACC_KERNEL_PAYLOAD (reference) or _CHUNK */
	uint32_t chunk;          /* bytes per thread for the chunk kernel */
	uint32_t batch_payloads; /* descriptors per batch: a cut when full */
	uint32_t batch_records;  /* match records per batch before overflow */
	uint32_t batch_slots;    /* batches alive at once (queued..released) */
	uint32_t tx_buffers;     /* 1: transaction buffers on the device too
				  * (detect_gpu_tx_queue); off by default:
				  * a batch per burst costs the host more
				  * than it saves (doc/gpu.md) */
	uint32_t no_verify;      /* 1: ac_cuda_load_verify loads nothing (the
				  * device check's measure of the verify kernel) */
} AcCudaOpts;

void ac_cuda_opts_defaults(AcCudaOpts *o, const CudaMpmConfig *cfg);

/* The ranges this matcher accepts (cuda-streams, gpu-transfer-size 1kb..511mb,
 * the ring holding a batch, the payload size limits), beyond what
 * cuda_mpm_config_load checks of the keys alone: start-up calls it while
 * loading the config, so that -T finds a bad value too. 0, or -1 with one
 * line in err naming the key. */
int ac_cuda_config_check(const CudaMpmConfig *c, char *err, size_t errlen);

/* Opens device cfg->device_id through `ops` (accuda_cuda_ops(), or
 * accuda_emu_ops() in tests), uploads the automata (autos[g] scans payloads
 * of group g; they must stay alive and unchanged until ac_cuda_free),
 * allocates the ring and the stream buffers and starts the threads.
 * opts NULL: defaults. NULL with one line in err naming cause and fix
 * (device id out of range with the device list, device memory short with
 * the largest gpu-transfer-size that fits, ...). */
AcCuda *ac_cuda_new(const CudaMpmConfig *cfg, const AcCudaOpts *opts,
		    const AcDeviceOps *ops, const AcAutomaton *const *autos,
		    uint32_t nautos, char *err, size_t errlen);
/* Rule verification (cuda/verify-kernel.h): loads the programs, right
 * after ac_cuda_new and before any lane. From then on the device runs,
 * for every match record, the programs of its pattern over its payload,
 * and ac_cuda_passed() lists those that held. 1: loaded; 0: the device
 * ops cannot verify (nothing loaded); -1 with err. */
int ac_cuda_load_verify(AcCuda *ac, const void *blk, size_t size, const struct acv_layout *lay,
			char *err, size_t errlen);
/* Cuts what is queued, waits for the device, stops the threads, frees.
 * Tickets must all be released (or abandoned) before. */
void ac_cuda_free(AcCuda *ac);

/* A packet thread's lane, with a ring of ring_bytes (its share of
 * cuda.mpm.cudabuffer-buffer-size); its batches hold at most a quarter of
 * it (and at most gpu-transfer-size), at least one 64 KiB payload in both
 * views. NULL with err. Owned by the calling thread. */
AcCudaLane *ac_cuda_lane_new(AcCuda *ac, uint64_t ring_bytes, char *err, size_t errlen);
/* Cuts the open batch and waits for the lane's batches to leave the
 * pipeline; every ticket of the lane was released before. */
void ac_cuda_lane_free(AcCudaLane *l);

int ac_cuda_submit(AcCudaLane *l, const uint8_t *buf, uint32_t len, uint16_t group,
		   void *pkt, AcCudaTicket *out);
/* The same payload scanned twice in one copy: with `group` alone (as
 * ac_cuda_submit), and with ctx_group over ctx[0, ctxlen) followed by the
 * payload (ac_cuda_matches_ctx). The context lets a stream's automaton see
 * matches that begin in the bytes before this packet. */
int ac_cuda_submit_ctx(AcCudaLane *l, const uint8_t *ctx, uint32_t ctxlen, const uint8_t *buf,
		       uint32_t len, uint16_t group, uint16_t ctx_group, void *pkt,
		       AcCudaTicket *out);
/* Cuts the lane's open batch: its owner will wait for it next. */
void ac_cuda_flush(AcCudaLane *l);

/* The lane's owner. wait: blocks until the ticket's batch is done (one
 * wake-up per batch); returns 0 when device results are used, 1 when the
 * payload will be rescanned on the CPU (overflow or device failure).
 * ready: 1 when wait would not block. */
int ac_cuda_wait(AcCuda *ac, const AcCudaTicket *t);
int ac_cuda_ready(const AcCuda *ac, const AcCudaTicket *t);
/* After ac_cuda_wait: cb(arg, pattern id, end offset) for every pattern id
 * that occurs in the payload, as a prefilter wants them: from the device,
 * each (pattern, id) once, end offset 0, in no set order; when the payload
 * was rescanned on the CPU (overflow, device failure), every occurrence
 * with its end, as ac_search gives them. Stops when cb returns nonzero.
 * Returns the number of matches reported. */
uint32_t ac_cuda_matches(AcCuda *ac, const AcCudaTicket *t, ac_match_fn cb, void *arg);
/* The device's ids of view 0 (the payload) or 1 (the context view) as a
 * plain array, *n of them: the workers' fast path. NULL when the payload
 * is rescanned on the CPU: then use ac_cuda_matches / _ctx. */
const uint32_t *ac_cuda_ids(const AcCuda *ac, const AcCudaTicket *t, int view, uint32_t *n);
/* After ac_cuda_wait: the programs (ac_cuda_load_verify) that held on
 * the view's payload, each once, in no set order. NULL when there are
 * none to say (no programs loaded, or the payload is rescanned on the
 * CPU): then nothing was verified. */
const uint32_t *ac_cuda_passed(const AcCuda *ac, const AcCudaTicket *t, int view, uint32_t *n);
/* The same for the context view of ac_cuda_submit_ctx (end offsets count
 * from the first context byte); 0 matches for a single-view ticket. */
uint32_t ac_cuda_matches_ctx(AcCuda *ac, const AcCudaTicket *t, ac_match_fn cb, void *arg);
/* The pkt pointer given at submit, and the payload copy in the ring. */
void *ac_cuda_packet(const AcCuda *ac, const AcCudaTicket *t);
const uint8_t *ac_cuda_payload(const AcCuda *ac, const AcCudaTicket *t, uint32_t *len);
/* The context view's bytes (context, then payload); NULL for one view. */
const uint8_t *ac_cuda_payload_ctx(const AcCuda *ac, const AcCudaTicket *t, uint32_t *len);
void ac_cuda_release(AcCuda *ac, const AcCudaTicket *t);

/* Batch size histograms: buckets 0..7 hold the values 0..7 exactly, then
 * 8 buckets per power of two (each within 12.5% of its lower bound). */
#define AC_CUDA_HIST_BUCKETS 240
/* The q-quantile (0..1) of a histogram, as its bucket's lower bound; 0
 * when it is empty. */
uint64_t ac_cuda_hist_quantile(const uint64_t *hist, double q);

typedef struct AcCudaStats {
	int emulation;              /* 1: host emulation, not a GPU */
	uint64_t batches;           /* to the device */
	uint64_t bytes;
	uint64_t payloads;
	uint64_t records;           /* match records the device returned */
	uint64_t cut_size;          /* batches cut by their lane's size limit or ring space */
	uint64_t cut_timeout;       /* ... by batching-timeout */
	uint64_t cut_flush;         /* ... by their owner (window complete) or shutdown */
	uint64_t cpu_below_min;     /* payloads on the CPU, by reason */
	uint64_t cpu_above_max;
	uint64_t cpu_ring_full;
	uint64_t cpu_overflow;      /* payloads of overflowed batches */
	uint64_t cpu_device_error;
	uint64_t overflow_batches;
	uint64_t error_batches;
	uint64_t watchdog;          /* ... of them abandoned by the device watchdog */
	uint64_t wait_ns;           /* sum over batches: submit - oldest arrival */
	uint64_t h2d_ns, kernel_ns, d2h_ns;
	uint64_t ring_wraps;        /* batches that started back at ring offset 0 */
	uint64_t disp_wakeups;      /* dispatcher returns from its condition waits */
	uint64_t gpu_batches;       /* batches whose device results were used */
	uint64_t cut_payloads;      /* ... cut by a full descriptor table */
	uint64_t ring_peak_bytes;   /* most ring bytes in use at once */
	uint64_t batch_bytes_max, batch_payloads_max;
	uint64_t hist_bytes[AC_CUDA_HIST_BUCKETS];    /* batches by bytes */
	uint64_t hist_payloads[AC_CUDA_HIST_BUCKETS]; /* batches by payloads */
} AcCudaStats;

void ac_cuda_stats(const AcCuda *ac, AcCudaStats *out);

/* Logs "ac-cuda: using ..." lines: which device ops and kernel. */
const char *ac_cuda_kernel_name(int kernel);

#endif
