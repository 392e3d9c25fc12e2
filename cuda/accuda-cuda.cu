/* ac-cuda device implementation on the CUDA runtime (see accuda-device.h).
 * The kernels run the scan functions of ac-kernel.h, the same code the host
 * emulation runs in CI. One AcDevStream = one cudaStream_t with its own
 * device buffers; events time copy-in, kernel and copy-out. */
#include "accuda-device.h"
#include "cuda-device.h"

#include <cuda_runtime.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The filter kernel's shared-memory copy of one group's tables: sizes in
 * 32-bit words, gpair first, then gquad, cls and gsid. */
struct AcDevFtab {
	uint32_t quad_words;  /* 0: the group has no GPU filter */
	uint32_t bytes;       /* dynamic shared memory to ask for */
};

struct AcDev {
	int id;
	uint8_t *d_blk;
	struct acc_group *d_groups;
	struct AcDevFtab *ftab;   /* per group */
	uint32_t ngroups;
	/* rule verification (cu_load_verify); d_vblk NULL: none */
	uint8_t *d_vblk;
	struct acv_table *d_vtabs;
	struct acv_block vb;      /* device addresses, passed by value */
	int sms;                  /* multiprocessors */
	int filter_blocks_per_sm; /* resident blocks of the filter kernel */
	int hung;                 /* atomic: a stream was abandoned by the
				   * watchdog and never drained: freeing device
				   * or pinned memory would block on it */
};

/* 512 threads: at 64 registers two blocks fill an SM's registers (32
 * warps), and each block's shared memory (filter tables ~48.5 KB with the
 * ET set + the pair table) leaves room for both */
#define ACC_FILTER_THREADS ACC_FILTER_TILE
#define ACC_GPAIR_WORDS 4096

struct AcDevStream {
	AcDev *dev;
	AcDevStreamSize sz;
	int kernel;
	uint32_t chunk;
	cudaStream_t st;
	/* h2d: 0..1, kernel: 1..2, d2h: the count (and a grouped batch's
	 * offsets) 2..3 + the records (or its ids) 4..5 */
	cudaEvent_t ev[6];
	/* The watchdog's fences: a host function queued behind the work
	 * counts fence_done up; wait() sleeps on fcv until its own fence
	 * (fence_sent when queued) has run or the limit passes. Counting,
	 * not a flag, so the late fence of an abandoned batch cannot pass
	 * for the next batch's. */
	pthread_mutex_t fmu;
	pthread_cond_t fcv;
	uint64_t fence_sent, fence_done;
	int fence_init;
	int abandoned;            /* atomic: the watchdog gave up on a batch */
	uint8_t *d_data;
	struct acc_desc *d_desc;
	struct acc_rec *d_rec;
	uint32_t *d_count;
	uint32_t *d_nscan;        /* the scan's record count, for the verify kernel */
	uint32_t *h_count;        /* pinned */
	struct acc_rec *h_rec;    /* pinned */
	uint32_t npay, nbytes;
	/* grouping on the device (submit_grouped, group-kernel.h): scratch,
	 * the table on the device, its pinned staging, and the caller's
	 * buffers of the batch in flight (grouped 0: a plain submit) */
	struct acg_work w;
	uint32_t *d_pidx, *d_ids;
	uint32_t *h_pidx, *h_ids;
	struct acg_out out;
	uint32_t gcap;            /* records grouped at most: min(both caps) */
	int grouped;
};

#define CU_FAIL(what, rc, err, errlen)                                          \
	snprintf(err, errlen, "CUDA %s: %s (error %d)", what, cudaGetErrorString(rc), \
		 (int)(rc))

__global__ void acc_kernel_payload(struct acc_batch b, struct acc_sink k)
{
	uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < b.npay)
		acc_scan_payload(&b, &k, i);
}

__global__ void acc_kernel_chunk(struct acc_batch b, struct acc_sink k, uint32_t items)
{
	uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < items)
		acc_scan_window(&b, &k, i);
}

/* Thread = window, as the chunk kernel; a persistent grid (a few blocks
 * per multiprocessor) so that each block copies the filter tables of
 * group `sg` to shared memory once for many windows. The block takes
 * tiles of blockDim windows; its (payload, pattern) table is cleared per
 * tile (its windows are contiguous, so their payloads too). */
__global__ void __launch_bounds__(ACC_FILTER_THREADS, 2)
acc_kernel_filter(struct acc_batch b, struct acc_sink k, uint32_t items, uint32_t sg,
		  uint32_t quad_words)
{
	extern __shared__ unsigned long long sm64[];
	__shared__ uint32_t stage_base;
	struct acc_rec *srec = (struct acc_rec *)(sm64 + ACC_DEDUP_SLOTS);
	uint32_t *sm = (uint32_t *)(srec + ACC_STAGE_RECS);
	uint32_t &stage_n = sm[sg != UINT32_MAX ? ACC_GPAIR_WORDS + quad_words + 128 : 0];
	struct acc_ftab t;

	t.group = UINT32_MAX;
	t.dedup.slot = sm64;
	t.dedup.mask = ACC_DEDUP_SLOTS - 1;
	t.stage.rec = srec;
	t.stage.n = &stage_n;
	t.stage.cap = ACC_STAGE_RECS;
	if (sg != UINT32_MAX) {
		const struct ac_view *v = &b.groups[sg].v;
		uint32_t *gp = sm, *gq = sm + ACC_GPAIR_WORDS;
		uint32_t *cl = gq + quad_words, *sd = cl + 64;

		for (uint32_t i = threadIdx.x; i < ACC_GPAIR_WORDS; i += blockDim.x)
			gp[i] = __ldg(&v->gpair[i]);
		for (uint32_t i = threadIdx.x; i < quad_words; i += blockDim.x)
			gq[i] = __ldg(&v->gquad[i]);
		for (uint32_t i = threadIdx.x; i < 64; i += blockDim.x) {
			cl[i] = __ldg((const uint32_t *)v->cls + i);
			sd[i] = __ldg((const uint32_t *)v->gsid + i);
		}
		t.gpair = gp;
		t.gquad = gq;
		t.cls = (const uint8_t *)cl;
		t.gsid = (const uint8_t *)sd;
		t.group = sg;
	}
	for (uint32_t base = blockIdx.x * blockDim.x; base < items;
	     base += gridDim.x * blockDim.x) {
		for (uint32_t i = threadIdx.x; i < ACC_DEDUP_SLOTS; i += blockDim.x)
			sm64[i] = ACC_DEDUP_EMPTY;
		if (threadIdx.x == 0)
			stage_n = 0;
		__syncthreads();
		if (base + threadIdx.x < items)
			acc_scan_filter(&b, &k, base + threadIdx.x, &t);
		__syncthreads();
		/* one global atomic for the tile's staged records */
		if (threadIdx.x == 0)
			stage_base = atomicAdd(k.count, stage_n < ACC_STAGE_RECS ? stage_n
										 : ACC_STAGE_RECS);
		__syncthreads();
		acc_stage_copy(&t.stage, &k, stage_base, threadIdx.x, blockDim.x);
		__syncthreads();
	}
}

/* Rule verification after the scan: a warp-stride loop over the scan's
 * records (their count copied before this kernel appends pass records to
 * the same sink). A whole warp takes each record: its lanes search the
 * payload together (verify-kernel.h, acv_find_warp), so the record index
 * must be the same on every lane of a warp. */
__global__ void acv_kernel(struct acc_batch b, struct acv_block vb, struct acc_sink k,
			   const uint32_t *nscan)
{
	uint32_t n = *nscan;
	uint32_t w = (blockIdx.x * blockDim.x + threadIdx.x) / 32u;
	uint32_t nw = gridDim.x * blockDim.x / 32u;

	if (n > k.cap)
		return;   /* overflowed: the host rescans the batch */
	for (uint32_t i = w; i < n; i += nw)
		acv_verify_rec(&b, &vb, &k.rec[i], &k);
}

/* Grouping (group-kernel.h), after the scan and the verify kernel, in the
 * same stream: four grid-wide steps, each reading the record count on the
 * device. A batch with more records than gcap is left alone: the host
 * rescans it. */
__global__ void acg_kernel_clear(struct acg_work w, const uint32_t *count, uint32_t gcap,
				 uint32_t nk)
{
	uint32_t n = *count, tsize, lim;

	if (n > gcap)
		return;
	tsize = acg_table_size(n, w.tslots);
	lim = tsize > nk + 1 ? tsize : nk + 1;
	for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < lim;
	     i += gridDim.x * blockDim.x)
		acg_clear(&w, tsize, nk + 1, i);
}

__global__ void acg_kernel_insert(struct acc_batch b, struct acc_rec *rec, const uint32_t *count,
				  uint32_t gcap, uint32_t nprog, struct acg_work w)
{
	uint32_t n = *count, tsize;

	if (n > gcap)
		return;
	tsize = acg_table_size(n, w.tslots);
	for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		acg_insert(&b, rec, nprog, &w, tsize, i);
}

/* One block: each thread sums a run of buckets, the block scans the
 * sums in shared memory, then each thread writes its run's prefixes. */
#define ACG_SCAN_THREADS 1024
__global__ void __launch_bounds__(ACG_SCAN_THREADS)
acg_kernel_scan(struct acg_work w, struct acg_out o, const uint32_t *count, uint32_t gcap,
		uint32_t nk)
{
	__shared__ uint32_t part[ACG_SCAN_THREADS];
	uint32_t t = threadIdx.x, per = (nk + ACG_SCAN_THREADS - 1) / ACG_SCAN_THREADS;
	uint32_t lo = t * per, hi = lo + per < nk ? lo + per : nk, sum = 0;

	if (*count > gcap)
		return;
	for (uint32_t k = lo; k < hi; k++)
		sum += w.cnt[k];
	part[t] = sum;
	__syncthreads();
	for (uint32_t d = 1; d < ACG_SCAN_THREADS; d *= 2) {
		uint32_t x = t >= d ? part[t - d] : 0;

		__syncthreads();
		part[t] += x;
		__syncthreads();
	}
	sum = part[t] - sum;   /* exclusive: the runs before this one */
	for (uint32_t k = lo; k < hi; k++) {
		uint32_t c = w.cnt[k];

		o.pidx[k] = sum;
		w.cnt[k] = sum;
		sum += c;
	}
	if (t == ACG_SCAN_THREADS - 1)
		o.pidx[nk] = part[t];
}

__global__ void acg_kernel_scatter(struct acc_batch b, const struct acc_rec *rec,
				   const uint32_t *count, uint32_t gcap, struct acg_work w,
				   uint32_t *ids)
{
	uint32_t n = *count;

	if (n > gcap)
		return;
	for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		acg_scatter(&b, rec, &w, ids, i);
}

static int cu_device_count(char *err, size_t errlen)
{
	return cuda_device_count(err, errlen);
}

static void cu_describe(int id, char *buf, size_t len)
{
	CudaCardInfo ci;
	char e[256];

	if (cuda_card_info(id, &ci, e, sizeof(e)) != 0)
		snprintf(buf, len, "%d: %s", id, e);
	else
		snprintf(buf, len, "%d: %s (%zu MB, compute %d.%d)", id, ci.name,
			 ci.total_mem >> 20, ci.cc_major, ci.cc_minor);
}

static AcDev *cu_open(int id, char *err, size_t errlen)
{
	cudaError_t rc = cudaSetDevice(id);
	AcDev *d;

	if (rc != cudaSuccess) {
		CU_FAIL("cudaSetDevice", rc, err, errlen);
		return NULL;
	}
	/* Before the context exists (cudaFree(0) creates it): the default
	 * schedule (cudaDeviceScheduleAuto) spin-waits when there are fewer
	 * active contexts than cores, so the completion thread's
	 * cudaStreamSynchronize would burn a CPU core for the whole life of
	 * every batch, a core the workers need. Blocking sync sleeps on an OS
	 * primitive until the stream is done; it costs a few µs of wake-up per
	 * batch, nothing against megabyte batches. A failure here is not fatal
	 * (the flags only change how we wait), so it is ignored. */
	rc = cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync);
	if (rc != cudaSuccess)
		(void)cudaGetLastError();
	/* a failing device shows here, before any allocation */
	rc = cudaFree(0);
	if (rc != cudaSuccess) {
		CU_FAIL("context creation", rc, err, errlen);
		return NULL;
	}
	d = (AcDev *)calloc(1, sizeof(*d));
	if (!d) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	d->id = id;
	return d;
}

static uint64_t cu_mem_free(AcDev *d)
{
	size_t fr = 0, total = 0;

	cudaSetDevice(d->id);
	if (cudaMemGetInfo(&fr, &total) != cudaSuccess)
		return 0;
	return fr;
}

static void *cu_host_alloc(AcDev *d, size_t bytes)
{
	void *p = NULL;

	cudaSetDevice(d->id);
	if (cudaHostAlloc(&p, bytes ? bytes : 1, cudaHostAllocDefault) != cudaSuccess)
		return NULL;
	return p;
}

static void cu_host_free(AcDev *d, void *p)
{
	/* a hung batch may still read it, and cudaFreeHost would wait for it */
	if (d && __atomic_load_n(&d->hung, __ATOMIC_ACQUIRE))
		return;
	cudaFreeHost(p);
}

/* Shared-memory sizes of the filter kernel per group, the dynamic limit
 * it needs (above 48 KB only when asked), and its resident blocks. */
static cudaError_t filter_setup(AcDev *d, const void *blk, const uint64_t *offs,
				uint32_t ngroups)
{
	uint32_t most = ACC_DEDUP_SLOTS * 8 + ACC_STAGE_RECS * sizeof(struct acc_rec) + 4;
	cudaError_t rc;

	d->ftab = (struct AcDevFtab *)calloc(ngroups ? ngroups : 1, sizeof(*d->ftab));
	if (!d->ftab)
		return cudaErrorMemoryAllocation;
	d->ngroups = ngroups;
	for (uint32_t i = 0; i < ngroups; i++) {
		const struct ac_layout *hdr =
			(const struct ac_layout *)((const uint8_t *)blk + offs[i]);

		if (!hdr->off_gdepth)
			continue;
		d->ftab[i].quad_words = hdr->gquadbits >= 5 ? 1u << (hdr->gquadbits - 5) : 1;
		d->ftab[i].bytes = ACC_DEDUP_SLOTS * 8 + ACC_STAGE_RECS * sizeof(struct acc_rec) +
				   (ACC_GPAIR_WORDS + d->ftab[i].quad_words + 128 + 1) * 4;
		if (d->ftab[i].bytes > most)
			most = d->ftab[i].bytes;
	}
	rc = cudaDeviceGetAttribute(&d->sms, cudaDevAttrMultiProcessorCount, d->id);
	if (rc == cudaSuccess && most > 48 * 1024)
		rc = cudaFuncSetAttribute(acc_kernel_filter,
					  cudaFuncAttributeMaxDynamicSharedMemorySize, (int)most);
	if (rc == cudaSuccess)
		rc = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&d->filter_blocks_per_sm,
								   acc_kernel_filter,
								   ACC_FILTER_THREADS, most);
	if (rc == cudaSuccess && d->filter_blocks_per_sm < 1)
		d->filter_blocks_per_sm = 1;
	return rc;
}

static int cu_load(AcDev *d, const void *blk, size_t size, const uint64_t *offs,
		   const uint32_t *maxlen, uint32_t ngroups, char *err, size_t errlen)
{
	struct acc_group *g = (struct acc_group *)calloc(ngroups, sizeof(*g));
	cudaError_t rc;

	if (!g) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	cudaSetDevice(d->id);
	rc = cudaMalloc((void **)&d->d_blk, size);
	if (rc == cudaSuccess)
		rc = cudaMalloc((void **)&d->d_groups, ngroups * sizeof(*g));
	if (rc == cudaSuccess)
		rc = cudaMemcpy(d->d_blk, blk, size, cudaMemcpyHostToDevice);
	if (rc == cudaSuccess) {
		/* views hold device addresses; headers are read on the host */
		for (uint32_t i = 0; i < ngroups; i++) {
			const struct ac_layout *hdr =
				(const struct ac_layout *)((const uint8_t *)blk + offs[i]);

			ac_view_init(&g[i].v, d->d_blk + offs[i], hdr);
			g[i].maxlen = maxlen[i];
			g[i].npat = hdr->npatterns;
		}
		rc = cudaMemcpy(d->d_groups, g, ngroups * sizeof(*g), cudaMemcpyHostToDevice);
	}
	free(g);
	if (rc == cudaSuccess)
		rc = filter_setup(d, blk, offs, ngroups);
	if (rc != cudaSuccess) {
		CU_FAIL("automata upload", rc, err, errlen);
		return -1;
	}
	return 0;
}

static int cu_load_verify(AcDev *d, const void *blk, size_t size,
			  const struct acv_layout *lay, char *err, size_t errlen)
{
	struct acv_table *t = (struct acv_table *)calloc(lay->ngroups ? lay->ngroups : 1,
							 sizeof(*t));
	cudaError_t rc;

	if (!t) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	cudaSetDevice(d->id);
	rc = cudaMalloc((void **)&d->d_vblk, size ? size : 1);
	if (rc == cudaSuccess)
		rc = cudaMalloc((void **)&d->d_vtabs, (lay->ngroups ? lay->ngroups : 1) * sizeof(*t));
	if (rc == cudaSuccess)
		rc = cudaMemcpy(d->d_vblk, blk, size, cudaMemcpyHostToDevice);
	if (rc == cudaSuccess) {
		/* device addresses; the group tables are read on the host */
		acv_block_init(&d->vb, d->d_vblk, lay,
			       (const struct acv_gtab *)((const uint8_t *)blk + lay->off_gtab), t);
		d->vb.tab = d->d_vtabs;
		rc = cudaMemcpy(d->d_vtabs, t, lay->ngroups * sizeof(*t), cudaMemcpyHostToDevice);
	}
	free(t);
	if (rc != cudaSuccess) {
		CU_FAIL("rule program upload", rc, err, errlen);
		return -1;
	}
	return 0;
}

static void cu_stream_free(AcDevStream *s)
{
	if (!s)
		return;
	cudaSetDevice(s->dev->id);
	if (__atomic_load_n(&s->abandoned, __ATOMIC_ACQUIRE) && cudaStreamQuery(s->st) != cudaSuccess) {
		/* still hung: waiting or freeing would block the shutdown for
		 * good. The process is ending: leave the buffers to it. */
		cudaStreamDestroy(s->st);
		return;
	}
	if (s->st)
		cudaStreamSynchronize(s->st);
	for (int i = 0; i < 6; i++)
		if (s->ev[i])
			cudaEventDestroy(s->ev[i]);
	if (s->st)
		cudaStreamDestroy(s->st);
	if (s->fence_init) {
		pthread_mutex_destroy(&s->fmu);
		pthread_cond_destroy(&s->fcv);
	}
	cudaFree(s->d_data);
	cudaFree(s->d_desc);
	cudaFree(s->d_rec);
	cudaFree(s->d_count);
	cudaFree(s->d_nscan);
	cudaFree(s->w.table);
	cudaFree(s->w.cnt);
	cudaFree(s->d_pidx);
	cudaFree(s->d_ids);
	cudaFreeHost(s->h_count);
	cudaFreeHost(s->h_rec);
	cudaFreeHost(s->h_pidx);
	cudaFreeHost(s->h_ids);
	free(s);
}

static AcDevStream *cu_stream_new(AcDev *d, const AcDevStreamSize *sz, int kernel,
				  uint32_t chunk, char *err, size_t errlen)
{
	AcDevStream *s = (AcDevStream *)calloc(1, sizeof(*s));
	cudaError_t rc;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->dev = d;
	s->sz = *sz;
	s->kernel = kernel;
	s->chunk = chunk ? chunk : 64;
	cudaSetDevice(d->id);
	{
		pthread_condattr_t ca;

		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_mutex_init(&s->fmu, NULL);
		pthread_cond_init(&s->fcv, &ca);
		pthread_condattr_destroy(&ca);
		s->fence_init = 1;
	}
	rc = cudaStreamCreateWithFlags(&s->st, cudaStreamNonBlocking);
	for (int i = 0; i < 6 && rc == cudaSuccess; i++)
		rc = cudaEventCreate(&s->ev[i]);
	if (rc == cudaSuccess)
		rc = cudaMalloc((void **)&s->d_data, sz->data_bytes);
	if (rc == cudaSuccess)
		rc = cudaMalloc((void **)&s->d_desc, (size_t)sz->max_payloads * sizeof(struct acc_desc));
	if (rc == cudaSuccess)
		rc = cudaMalloc((void **)&s->d_rec, (size_t)sz->max_records * sizeof(struct acc_rec));
	if (rc == cudaSuccess)
		rc = cudaMalloc((void **)&s->d_count, sizeof(uint32_t));
	if (rc == cudaSuccess)
		rc = cudaMalloc((void **)&s->d_nscan, sizeof(uint32_t));
	if (rc == cudaSuccess)
		rc = cudaHostAlloc((void **)&s->h_count, sizeof(uint32_t), cudaHostAllocDefault);
	if (rc == cudaSuccess)
		rc = cudaHostAlloc((void **)&s->h_rec, (size_t)sz->max_records * sizeof(struct acc_rec),
				   cudaHostAllocDefault);
	s->w.tslots = acg_table_alloc(sz->max_records);
	if (rc == cudaSuccess)
		rc = cudaMalloc((void **)&s->w.table, (size_t)s->w.tslots * sizeof(uint32_t));
	if (rc == cudaSuccess)
		rc = cudaMalloc((void **)&s->w.cnt, (2 * (size_t)sz->max_payloads + 1) * sizeof(uint32_t));
	if (rc == cudaSuccess)
		rc = cudaMalloc((void **)&s->d_pidx, (2 * (size_t)sz->max_payloads + 1) * sizeof(uint32_t));
	if (rc == cudaSuccess)
		rc = cudaMalloc((void **)&s->d_ids, (size_t)sz->max_records * sizeof(uint32_t) + 4);
	if (rc == cudaSuccess)
		rc = cudaHostAlloc((void **)&s->h_pidx, (2 * (size_t)sz->max_payloads + 1) * sizeof(uint32_t),
				   cudaHostAllocDefault);
	if (rc == cudaSuccess)
		rc = cudaHostAlloc((void **)&s->h_ids, (size_t)sz->max_records * sizeof(uint32_t) + 4,
				   cudaHostAllocDefault);
	if (rc != cudaSuccess) {
		CU_FAIL("stream buffers", rc, err, errlen);
		cu_stream_free(s);
		return NULL;
	}
	return s;
}

static int cu_submit_out(AcDevStream *s, const uint8_t *data, uint32_t nbytes,
			 const struct acc_desc *desc, uint32_t npay, const struct acg_out *out,
			 char *err, size_t errlen)
{
	struct acc_batch b;
	struct acc_sink k;
	uint32_t items;
	cudaError_t rc;

	if (nbytes > s->sz.data_bytes || npay > s->sz.max_payloads) {
		snprintf(err, errlen, "batch larger than the stream buffers");
		return -1;
	}
	cudaSetDevice(s->dev->id);
	/* the abandoned batch still owns the stream's device buffers until it
	 * ends: until then every batch of this stream goes to the CPU */
	if (__atomic_load_n(&s->abandoned, __ATOMIC_ACQUIRE)) {
		if (cudaStreamQuery(s->st) != cudaSuccess) {
			snprintf(err, errlen, "stream still busy with a batch the watchdog abandoned");
			return -1;
		}
		__atomic_store_n(&s->abandoned, 0, __ATOMIC_RELEASE);
	}
	b.data = s->d_data;
	b.desc = s->d_desc;
	b.groups = s->dev->d_groups;
	b.npay = npay;
	b.nbytes = nbytes;
	b.chunk = s->chunk;
	k.rec = s->d_rec;
	k.count = s->d_count;
	k.cap = s->sz.max_records;
	items = acc_items(&b, s->kernel);
	s->npay = npay;
	s->nbytes = nbytes;

	cudaEventRecord(s->ev[0], s->st);
	rc = cudaMemcpyAsync(s->d_data, data, nbytes, cudaMemcpyHostToDevice, s->st);
	if (rc == cudaSuccess)
		rc = cudaMemcpyAsync(s->d_desc, desc, (size_t)npay * sizeof(*desc),
				     cudaMemcpyHostToDevice, s->st);
	if (rc == cudaSuccess)
		rc = cudaMemsetAsync(s->d_count, 0, sizeof(uint32_t), s->st);
	if (rc != cudaSuccess) {
		CU_FAIL("copy-in", rc, err, errlen);
		return -1;
	}
	cudaEventRecord(s->ev[1], s->st);
	if (items) {
		uint32_t threads = 256, blocks = (items + threads - 1) / threads;

		if (s->kernel == ACC_KERNEL_CHUNK) {
			acc_kernel_chunk<<<blocks, threads, 0, s->st>>>(b, k, items);
		} else if (s->kernel == ACC_KERNEL_FILTER) {
			/* the first payload's group gets the shared-memory copies */
			uint32_t sg = desc[0].group;
			struct AcDevFtab f = { 0, 0 };
			uint32_t grid = (uint32_t)(s->dev->sms * s->dev->filter_blocks_per_sm);

			if (sg < s->dev->ngroups)
				f = s->dev->ftab[sg];
			if (!f.quad_words) {
				/* no tables to copy: the pair table only */
				sg = UINT32_MAX;
				f.bytes = ACC_DEDUP_SLOTS * 8 +
					  ACC_STAGE_RECS * sizeof(struct acc_rec) + 4;
			}
			threads = ACC_FILTER_THREADS;
			blocks = (items + threads - 1) / threads;
			if (grid && blocks > grid)
				blocks = grid;
			acc_kernel_filter<<<blocks, threads, f.bytes, s->st>>>(b, k, items, sg,
									       f.quad_words);
		} else {
			acc_kernel_payload<<<blocks, threads, 0, s->st>>>(b, k);
		}
		rc = cudaGetLastError();
		if (rc == cudaSuccess && s->dev->d_vblk) {
			/* verification: one thread per scan record */
			rc = cudaMemcpyAsync(s->d_nscan, s->d_count, sizeof(uint32_t),
					     cudaMemcpyDeviceToDevice, s->st);
			if (rc == cudaSuccess)
				acv_kernel<<<(uint32_t)s->dev->sms * 8, 256, 0, s->st>>>(
					b, s->dev->vb, k, s->d_nscan);
			if (rc == cudaSuccess)
				rc = cudaGetLastError();
		}
		if (rc != cudaSuccess) {
			CU_FAIL("kernel launch", rc, err, errlen);
			return -1;
		}
	}
	s->grouped = out != NULL;
	if (out) {
		/* the table on the device; its offsets come back with the
		 * count, the ids (as many as the offsets say) in wait() */
		uint32_t nk = 2 * npay, grid = (uint32_t)s->dev->sms * 4;
		struct acg_out dout = { s->d_pidx, s->d_ids, 0 };

		s->out = *out;
		s->gcap = out->cap < s->sz.max_records ? out->cap : s->sz.max_records;
		acg_kernel_clear<<<grid, 256, 0, s->st>>>(s->w, s->d_count, s->gcap, nk);
		acg_kernel_insert<<<grid, 256, 0, s->st>>>(b, s->d_rec, s->d_count, s->gcap,
							   s->dev->d_vblk ? s->dev->vb.nprog : 0,
							   s->w);
		acg_kernel_scan<<<1, ACG_SCAN_THREADS, 0, s->st>>>(s->w, dout, s->d_count, s->gcap,
								   nk);
		acg_kernel_scatter<<<grid, 256, 0, s->st>>>(b, s->d_rec, s->d_count, s->gcap, s->w,
							    s->d_ids);
		rc = cudaGetLastError();
		if (rc != cudaSuccess) {
			CU_FAIL("grouping", rc, err, errlen);
			return -1;
		}
	}
	cudaEventRecord(s->ev[2], s->st);
	rc = cudaMemcpyAsync(s->h_count, s->d_count, sizeof(uint32_t), cudaMemcpyDeviceToHost,
			     s->st);
	if (rc == cudaSuccess && out)
		rc = cudaMemcpyAsync(s->h_pidx, s->d_pidx, (size_t)(2 * npay + 1) * sizeof(uint32_t),
				     cudaMemcpyDeviceToHost, s->st);
	cudaEventRecord(s->ev[3], s->st);
	if (rc != cudaSuccess) {
		CU_FAIL("copy-out", rc, err, errlen);
		return -1;
	}
	return 0;
}

static int cu_submit(AcDevStream *s, const uint8_t *data, uint32_t nbytes,
		     const struct acc_desc *desc, uint32_t npay, char *err, size_t errlen)
{
	return cu_submit_out(s, data, nbytes, desc, npay, NULL, err, errlen);
}

static int cu_submit_grouped(AcDevStream *s, const uint8_t *data, uint32_t nbytes,
			     const struct acc_desc *desc, uint32_t npay, const struct acg_out *out,
			     char *err, size_t errlen)
{
	return cu_submit_out(s, data, nbytes, desc, npay, out, err, errlen);
}

/* Runs on a CUDA runtime thread once the stream's earlier work is done:
 * no CUDA call allowed here, only the wake-up. */
static void CUDART_CB cu_fence_done(void *arg)
{
	AcDevStream *s = (AcDevStream *)arg;

	pthread_mutex_lock(&s->fmu);
	s->fence_done++;
	pthread_cond_broadcast(&s->fcv);
	pthread_mutex_unlock(&s->fmu);
}

/* What cudaStreamSynchronize does, with a limit: 0 when the work queued
 * so far is done, -1 with err on a device error, ACC_DEV_WATCHDOG when it
 * is still running at *dl (CLOCK_MONOTONIC). A faulting kernel may never
 * let the fence run: the stream is asked for an error every
 * ACC_WATCHDOG_POLL_MS, so a fault is reported as one, soon. */
#define ACC_WATCHDOG_POLL_MS 100
static int cu_sync(AcDevStream *s, const struct timespec *dl, char *err, size_t errlen)
{
	cudaError_t rc;
	uint64_t want;
	int done;

	pthread_mutex_lock(&s->fmu);
	want = s->fence_sent + 1;
	rc = cudaLaunchHostFunc(s->st, cu_fence_done, s);
	if (rc == cudaSuccess)
		s->fence_sent = want;
	pthread_mutex_unlock(&s->fmu);
	if (rc != cudaSuccess) {
		CU_FAIL("batch", rc, err, errlen);
		return -1;
	}
	for (;;) {
		struct timespec now, until;

		clock_gettime(CLOCK_MONOTONIC, &now);
		until = now;
		until.tv_nsec += ACC_WATCHDOG_POLL_MS * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		if (until.tv_sec > dl->tv_sec ||
		    (until.tv_sec == dl->tv_sec && until.tv_nsec > dl->tv_nsec))
			until = *dl;
		pthread_mutex_lock(&s->fmu);
		while (s->fence_done < want &&
		       pthread_cond_timedwait(&s->fcv, &s->fmu, &until) != ETIMEDOUT)
			;
		done = s->fence_done >= want;
		pthread_mutex_unlock(&s->fmu);
		if (done)
			break;
		rc = cudaStreamQuery(s->st);
		if (rc == cudaSuccess)
			continue;   /* done as the wait timed out: the fence says so */
		if (rc != cudaErrorNotReady) {
			CU_FAIL("batch", rc, err, errlen);
			return -1;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > dl->tv_sec || (now.tv_sec == dl->tv_sec && now.tv_nsec >= dl->tv_nsec)) {
			__atomic_store_n(&s->abandoned, 1, __ATOMIC_RELEASE);
			__atomic_store_n(&s->dev->hung, 1, __ATOMIC_RELEASE);
			snprintf(err, errlen, "watchdog: the batch was not done after %d ms: abandoned",
				 ACC_WATCHDOG_MS);
			return ACC_DEV_WATCHDOG;
		}
	}
	/* the fence has run: this returns at once, with the stream's error */
	rc = cudaStreamSynchronize(s->st);
	if (rc != cudaSuccess) {
		CU_FAIL("batch", rc, err, errlen);
		return -1;
	}
	return 0;
}

/* The second copy-out of a batch (the records, or the grouped table's
 * ids), sized by the count the first one brought: events 4..5 bracket it
 * alone, as the host's turn-around between the two copies is not d2h
 * time. */
static int cu_copy_out(AcDevStream *s, void *host, const void *dev, size_t bytes,
		       const struct timespec *dl, char *err, size_t errlen)
{
	cudaError_t rc;

	cudaEventRecord(s->ev[4], s->st);
	rc = cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, s->st);
	cudaEventRecord(s->ev[5], s->st);
	if (rc != cudaSuccess) {
		CU_FAIL("copy-out", rc, err, errlen);
		return -1;
	}
	return cu_sync(s, dl, err, errlen);
}

static uint64_t ev_ns(cudaEvent_t a, cudaEvent_t b)
{
	float ms = 0;

	if (cudaEventElapsedTime(&ms, a, b) != cudaSuccess)
		return 0;
	return (uint64_t)(ms * 1e6);
}

static int cu_wait(AcDevStream *s, const struct acc_rec **rec, uint32_t *count,
		   AcDevTimes *t, char *err, size_t errlen)
{
	uint32_t n, keep;
	struct timespec dl;
	int r;

	cudaSetDevice(s->dev->id);
	/* one limit for the whole batch, copy-out included */
	clock_gettime(CLOCK_MONOTONIC, &dl);
	dl.tv_sec += ACC_WATCHDOG_MS / 1000;
	dl.tv_nsec += (ACC_WATCHDOG_MS % 1000) * 1000000L;
	if (dl.tv_nsec >= 1000000000L) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000L;
	}
	if ((r = cu_sync(s, &dl, err, errlen)) != 0)
		return r;
	n = *s->h_count;
	if (s->grouped) {
		/* the table: its offsets came with the count, the ids follow
		 * (none when the batch overflowed: the host rescans it) */
		uint32_t nk = 2 * s->npay, m = n <= s->gcap ? s->h_pidx[nk] : 0;

		if (m) {
			if ((r = cu_copy_out(s, s->h_ids, s->d_ids, (size_t)m * sizeof(uint32_t), &dl,
					     err, errlen)) != 0)
				return r;
			memcpy(s->out.ids, s->h_ids, (size_t)m * sizeof(uint32_t));
		}
		if (n <= s->gcap)
			memcpy(s->out.pidx, s->h_pidx, (size_t)(nk + 1) * sizeof(uint32_t));
		*rec = NULL;
		*count = n;
		if (t) {
			t->h2d_ns = ev_ns(s->ev[0], s->ev[1]);
			t->kernel_ns = ev_ns(s->ev[1], s->ev[2]);
			t->d2h_ns = ev_ns(s->ev[2], s->ev[3]) + (m ? ev_ns(s->ev[4], s->ev[5]) : 0);
		}
		return 0;
	}
	keep = n < s->sz.max_records ? n : s->sz.max_records;
	/* only the records that exist: the count decides the copy's size */
	if (keep && (r = cu_copy_out(s, s->h_rec, s->d_rec, (size_t)keep * sizeof(struct acc_rec),
				     &dl, err, errlen)) != 0)
		return r;
	*rec = s->h_rec;
	*count = n;
	if (t) {
		t->h2d_ns = ev_ns(s->ev[0], s->ev[1]);
		t->kernel_ns = ev_ns(s->ev[1], s->ev[2]);
		t->d2h_ns = ev_ns(s->ev[2], s->ev[3]) + (keep ? ev_ns(s->ev[4], s->ev[5]) : 0);
	}
	return 0;
}

static void cu_close(AcDev *d)
{
	if (!d)
		return;
	cudaSetDevice(d->id);
	/* after the watchdog fired, cudaFree could wait for the hung kernel */
	if (!__atomic_load_n(&d->hung, __ATOMIC_ACQUIRE)) {
		cudaFree(d->d_blk);
		cudaFree(d->d_groups);
		cudaFree(d->d_vblk);
		cudaFree(d->d_vtabs);
	}
	free(d->ftab);
	free(d);
}

static const AcDeviceOps cu_ops = {
	"cuda", 0,
	cu_device_count, cu_describe, cu_open, cu_mem_free, cu_host_alloc, cu_host_free,
	cu_load, cu_load_verify, cu_stream_new, cu_submit, cu_submit_grouped, cu_wait,
	cu_stream_free, cu_close,
};

extern "C" const AcDeviceOps *accuda_cuda_ops(char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	return &cu_ops;
}
