/* The small device interface the ac-cuda host pipeline talks to.
 *
 * Two implementations:
 *   accuda_cuda_ops()  cuda/accuda-cuda.cu: CUDA runtime, one CUDA stream per
 *                      AcDevStream, pinned host memory, events for timings.
 *   accuda_emu_ops()   src/mpm/ac-cuda-emu.c: a HOST EMULATION that runs the
 *                      same scan functions (cuda/ac-kernel.h) on CPU threads.
 *                      For tests only: nothing selects it unless asked by name.
 *
 * A stream runs submit() = copy-in, kernel, and (inside wait()) copy-out, in
 * order; several streams overlap. One thread submits, one thread waits.
 *
 * The watchdog: wait() gives up on a batch that is not done ACC_WATCHDOG_MS
 * after wait() began (a hung device or kernel) and returns
 * ACC_DEV_WATCHDOG; the caller rescans its payloads on the CPU. The
 * stream's later submits fail (CPU) until the abandoned work has ended.
 * Suricata has no such setting, so it is a constant (doc/gpu.md); a batch
 * takes milliseconds, so 10 s means the device is not coming back soon.
 */
#ifndef CUDA_ACCUDA_DEVICE_H
#define CUDA_ACCUDA_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "ac-kernel.h"
#include "group-kernel.h"
#include "verify-kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACC_WATCHDOG_MS 10000
/* wait(): the batch was abandoned by the watchdog (err says so) */
#define ACC_DEV_WATCHDOG (-2)

typedef struct AcDev AcDev;
typedef struct AcDevStream AcDevStream;

/* Sizes of one stream's buffers. */
typedef struct AcDevStreamSize {
	uint64_t data_bytes;   /* batch payload bytes (gpu-transfer-size) */
	uint32_t max_payloads; /* descriptors per batch */
	uint32_t max_records;  /* match records per batch before overflow */
} AcDevStreamSize;

/* What one batch cost on the device, in nanoseconds. */
typedef struct AcDevTimes {
	uint64_t h2d_ns;
	uint64_t kernel_ns;
	uint64_t d2h_ns;
} AcDevTimes;

typedef struct AcDeviceOps {
	const char *name;  /* "cuda" or "emulation" */
	int emulation;     /* 1 for the host emulation */

	/* Devices visible (> 0), or -1 with cause and fix in err. */
	int (*device_count)(char *err, size_t errlen);
	/* One-line description of device id (for the device list in errors). */
	void (*device_describe)(int id, char *buf, size_t len);
	/* Opens device id. NULL with err. */
	AcDev *(*open)(int id, char *err, size_t errlen);
	/* Free device memory in bytes, for sizing checks. */
	uint64_t (*mem_free)(AcDev *d);
	/* Page-locked host memory (cudaHostAlloc) for the ring and descriptors:
	 * the copy-in reads it directly. NULL when out of memory. */
	void *(*host_alloc)(AcDev *d, size_t bytes);
	void (*host_free)(AcDev *d, void *p);
	/* Copies the automata block (all groups back to back, group g's
	 * struct ac_layout at offs[g]) to the device once. maxlen[g] is the
	 * group's longest pattern. 0, or -1 with err. */
	int (*load)(AcDev *d, const void *blk, size_t size, const uint64_t *offs,
		    const uint32_t *maxlen, uint32_t ngroups, char *err, size_t errlen);
	/* Optional (NULL: no rule verification): copies the verify block
	 * (cuda/verify-kernel.h; its layout read on the host) once, after
	 * load(). From then on every batch's match records are verified on
	 * the device after the scan, and the pass records follow them in
	 * wait()'s records. 0, or -1 with err. */
	int (*load_verify)(AcDev *d, const void *blk, size_t size,
			   const struct acv_layout *lay, char *err, size_t errlen);
	/* Per-stream device buffers. NULL with err (device memory short). */
	AcDevStream *(*stream_new)(AcDev *d, const AcDevStreamSize *sz, int kernel,
				   uint32_t chunk, char *err, size_t errlen);
	/* Asynchronous: copies data[0, nbytes) and desc[0, npay) (both in
	 * host_alloc memory, left untouched until wait() returns), runs the
	 * kernel. 0, or -1 with err. */
	int (*submit)(AcDevStream *s, const uint8_t *data, uint32_t nbytes,
		      const struct acc_desc *desc, uint32_t npay, char *err, size_t errlen);
	/* Optional (NULL: the host groups the records): as submit, and the
	 * device then groups the batch's records by payload
	 * (cuda/group-kernel.h: each (payload, pattern) once, as the
	 * caller's ids, the passed programs apart) into out's buffers, which
	 * the caller leaves alone until wait() returns; wait() has filled
	 * them when it returns 0 with *count <= out->cap. Its *rec is then
	 * NULL: the records stay on the device. */
	int (*submit_grouped)(AcDevStream *s, const uint8_t *data, uint32_t nbytes,
			      const struct acc_desc *desc, uint32_t npay,
			      const struct acg_out *out, char *err, size_t errlen);
	/* Blocks until the batch is done and its records are copied back.
	 * *count is the number of matches the kernel found; when > the
	 * stream's max_records, only max_records were kept (overflow).
	 * *rec points at the stream's host copy, valid until the next submit.
	 * 0, -1 with err, or ACC_DEV_WATCHDOG with err (see above). */
	int (*wait)(AcDevStream *s, const struct acc_rec **rec, uint32_t *count,
		    AcDevTimes *t, char *err, size_t errlen);
	void (*stream_free)(AcDevStream *s);
	void (*close)(AcDev *d);
} AcDeviceOps;

/* The CUDA implementation, or NULL with err when the build has no CUDA
 * (the message names the fix: configure --enable-cuda). */
const AcDeviceOps *accuda_cuda_ops(char *err, size_t errlen);

/* The host emulation. Tests only. `fake_mem`: the device memory it claims
 * (0: 64 GiB), so tests can drive the "device memory short" path. */
const AcDeviceOps *accuda_emu_ops(void);
void accuda_emu_set_mem(uint64_t fake_mem);
/* Kernel threads per emulated stream (default 2). */
void accuda_emu_set_threads(int n);
/* Tests of the CPU fallback: every Nth batch (counted over all streams)
 * fails, alternately in submit and in wait; 1: every batch; 0: none. */
void accuda_emu_set_fail(uint32_t every);
/* Tests of the watchdog: every Nth batch (counted over all streams) never
 * completes; wait() gives it up after watchdog_ms (0: ACC_WATCHDOG_MS) and
 * returns ACC_DEV_WATCHDOG. every 0: none. */
void accuda_emu_set_hang(uint32_t every, uint32_t watchdog_ms);
/* The verification cost model's input (qa/gpu/model/vmodel.c): the rule
 * programs, then every batch's payloads, descriptors and scan records as
 * the verify kernel sees them, appended to `path` (NULL: none). 0 or -1
 * (cannot open it). */
int accuda_emu_set_vdump(const char *path);

#ifdef __cplusplus
}
#endif

#endif
