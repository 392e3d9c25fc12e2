/* ac-cuda device EMULATION on host threads: tests only.
 *
 * Runs the very scan functions the CUDA kernels run (cuda/ac-kernel.h),
 * over copies of the batch in ordinary memory, with a few threads per
 * stream taking work items through an atomic index like CUDA threads. It
 * exists so that CI exercises the ring, batching, stream overlap, the
 * result records and the overflow path without a GPU. It is never chosen
 * silently: the caller asks for accuda_emu_ops() by name, and it calls
 * itself "emulation" in logs and stats.
 *
 * Fault switches for the fallback tests (cuda.mpm.test-opts): fail=N
 * makes every Nth batch fail, hang=N makes every Nth batch never complete,
 * so that wait() must give it up at the watchdog's limit (watchdog-ms=M
 * shortens it from ACC_WATCHDOG_MS for tests). Only those batches meet
 * the watchdog here: an emulated scan always ends. vdump=PATH writes the
 * verify kernel's inputs for the cost model (qa/gpu/model/vmodel.c).
 */
#include "cuda/accuda-device.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/log.h"
#include "util/thread-name.h"

static uint64_t emu_fake_mem;
static int emu_threads = 2;
static uint32_t emu_fail_every;
static uint64_t emu_nbatches;   /* atomic: batches submitted, all streams */
static uint32_t emu_hang_every;
static uint32_t emu_watchdog_ms = ACC_WATCHDOG_MS;
static uint64_t emu_nhang;      /* atomic: batches counted for hang=N */

void accuda_emu_set_hang(uint32_t every, uint32_t watchdog_ms)
{
	emu_hang_every = every;
	emu_watchdog_ms = watchdog_ms ? watchdog_ms : ACC_WATCHDOG_MS;
	__atomic_store_n(&emu_nhang, 0, __ATOMIC_RELAXED);
}

void accuda_emu_set_fail(uint32_t every)
{
	emu_fail_every = every;
	__atomic_store_n(&emu_nbatches, 0, __ATOMIC_RELAXED);
}

/* vdump: one file for every stream, records appended under its lock. */
static FILE *emu_vdump;
static pthread_mutex_t emu_vdump_mu = PTHREAD_MUTEX_INITIALIZER;
static uint64_t emu_vdump_seq;  /* under emu_vdump_mu: batches written */

int accuda_emu_set_vdump(const char *path)
{
	pthread_mutex_lock(&emu_vdump_mu);
	if (emu_vdump)
		fclose(emu_vdump);
	emu_vdump = path ? fopen(path, "wb") : NULL;
	if (emu_vdump)
		fwrite("ACVD1\n", 1, 6, emu_vdump);
	pthread_mutex_unlock(&emu_vdump_mu);
	return path && !emu_vdump ? -1 : 0;
}

/* A record: its tag, then (size, bytes) parts. */
static void vdump_write(char tag, const void *const *part, const uint64_t *size, int nparts)
{
	pthread_mutex_lock(&emu_vdump_mu);
	if (emu_vdump) {
		fputc(tag, emu_vdump);
		for (int i = 0; i < nparts; i++) {
			fwrite(&size[i], sizeof(size[i]), 1, emu_vdump);
			fwrite(part[i], 1, size[i], emu_vdump);
		}
		fflush(emu_vdump);
	}
	pthread_mutex_unlock(&emu_vdump_mu);
}

void accuda_emu_set_mem(uint64_t fake_mem)
{
	emu_fake_mem = fake_mem;
}

void accuda_emu_set_threads(int n)
{
	emu_threads = n < 1 ? 1 : n;
}

struct AcDev {
	uint8_t *blk;
	struct acc_group *groups;
	uint32_t ngroups;
	/* rule verification (load_verify), vblk NULL: none */
	uint8_t *vblk;
	struct acv_table *vtabs;
	struct acv_block vb;
};

struct AcDevStream {
	AcDev *dev;
	AcDevStreamSize sz;
	int kernel;
	uint32_t chunk;
	/* "device" buffers: the records (the batch is read in place) */
	struct acc_rec *rec;
	uint32_t count;
	/* grouping (submit_grouped): its scratch, and this batch's output
	 * (grouped 0: a plain submit) */
	struct acg_work gw;
	struct acg_out out;
	int grouped;
	struct acc_batch batch;
	struct acc_sink sink;
	/* the kernel's threads */
	pthread_t *thr;
	int nthr;
	pthread_mutex_t mu;
	pthread_cond_t cv;        /* work posted / stop */
	pthread_cond_t done_cv;   /* all items done */
	uint64_t gen;             /* bumped per launch */
	uint32_t items, next, finished_thr;
	/* the verify "kernel": after every thread's scan (scanned_thr), all
	 * take records [0, vitems) through vnext */
	uint32_t scanned_thr, vitems, vnext;
	uint64_t vdump_id;        /* vdump: this batch's number in the file */
	int running, stop;
	uint64_t t_start, t_h2d, t_kernel;
	int fail_wait;            /* the fault switch: the next wait fails */
	int hung;                 /* under mu: hang=N: this batch never ends */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int emu_device_count(char *err, size_t errlen)
{
	return 1;
}

static void emu_describe(int id, char *buf, size_t len)
{
	snprintf(buf, len, "%d: ac-cuda host emulation (tests only)", id);
}

static AcDev *emu_open(int id, char *err, size_t errlen)
{
	AcDev *d = calloc(1, sizeof(*d));

	if (!d)
		snprintf(err, errlen, "emulation: out of memory");
	else
		log_warning("ac-cuda: using the host EMULATION of the device (tests only, no GPU)");
	return d;
}

static uint64_t emu_mem_free(AcDev *d)
{
	return emu_fake_mem ? emu_fake_mem : (64ull << 30);
}

static void *emu_host_alloc(AcDev *d, size_t bytes)
{
	return malloc(bytes ? bytes : 1);
}

static void emu_host_free(AcDev *d, void *p)
{
	free(p);
}

static int emu_load(AcDev *d, const void *blk, size_t size, const uint64_t *offs,
		    const uint32_t *maxlen, uint32_t ngroups, char *err, size_t errlen)
{
	d->blk = malloc(size ? size : 1);
	d->groups = calloc(ngroups ? ngroups : 1, sizeof(*d->groups));
	if (!d->blk || !d->groups) {
		snprintf(err, errlen, "emulation: out of memory for %zu bytes of automata", size);
		return -1;
	}
	memcpy(d->blk, blk, size);
	for (uint32_t g = 0; g < ngroups; g++) {
		const struct ac_layout *hdr = (const struct ac_layout *)(d->blk + offs[g]);

		ac_view_init(&d->groups[g].v, d->blk + offs[g], hdr);
		d->groups[g].maxlen = maxlen[g];
		d->groups[g].npat = hdr->npatterns;
	}
	d->ngroups = ngroups;
	return 0;
}

static int emu_load_verify(AcDev *d, const void *blk, size_t size,
			   const struct acv_layout *lay, char *err, size_t errlen)
{
	d->vblk = malloc(size ? size : 1);
	d->vtabs = calloc(lay->ngroups ? lay->ngroups : 1, sizeof(*d->vtabs));
	if (!d->vblk || !d->vtabs) {
		snprintf(err, errlen, "emulation: out of memory for %zu bytes of rule programs", size);
		return -1;
	}
	memcpy(d->vblk, blk, size);
	acv_block_init(&d->vb, d->vblk, lay, (const struct acv_gtab *)(d->vblk + lay->off_gtab),
		       d->vtabs);
	d->vb.tab = d->vtabs;
	{
		const void *part[2] = { lay, blk };
		uint64_t sz[2] = { sizeof(*lay), size };

		vdump_write('B', part, sz, 2);
	}
	return 0;
}

/* The verify kernel over the scan's records, as the CUDA one runs after
 * the scan, on every kernel thread: the last to finish its scan posts the
 * record count (none for an overflowed batch, which the host rescans
 * anyway) and wakes the others. Called and returns with s->mu held. */
#define EMU_VERIFY_STEP 64

static void emu_verify(AcDevStream *s)
{
	if (++s->scanned_thr == (uint32_t)s->nthr) {
		uint32_t n = __atomic_load_n(&s->count, __ATOMIC_ACQUIRE);

		s->vitems = n > s->sz.max_records ? 0 : n;
		s->vnext = 0;
		if (emu_vdump) {
			/* 'T': the batch as the verify kernel finds it; 'P' (after
			 * it, see below): the pass records it added, which vmodel's
			 * replay must give again */
			const void *part[4] = { s->batch.data, s->batch.desc, s->rec, &s->vdump_id };
			uint64_t sz[4] = { s->batch.nbytes,
					   (uint64_t)s->batch.npay * sizeof(*s->batch.desc),
					   (uint64_t)s->vitems * sizeof(*s->rec),
					   sizeof(s->vdump_id) };

			pthread_mutex_lock(&emu_vdump_mu);
			s->vdump_id = ++emu_vdump_seq;
			pthread_mutex_unlock(&emu_vdump_mu);
			vdump_write('T', part, sz, 4);
		}
		pthread_cond_broadcast(&s->cv);
	} else {
		while (s->scanned_thr < (uint32_t)s->nthr && !s->stop)
			pthread_cond_wait(&s->cv, &s->mu);
	}
	pthread_mutex_unlock(&s->mu);
	for (;;) {
		uint32_t i = __atomic_fetch_add(&s->vnext, EMU_VERIFY_STEP, __ATOMIC_RELAXED);
		uint32_t end = i + EMU_VERIFY_STEP < s->vitems ? i + EMU_VERIFY_STEP : s->vitems;

		if (i >= s->vitems)
			break;
		for (; i < end; i++)
			acv_verify_rec(&s->batch, &s->dev->vb, &s->rec[i], &s->sink);
	}
	pthread_mutex_lock(&s->mu);
}

/* The filter kernel's tile, as a CUDA block runs it: the windows share a
 * pair table and a record stage, flushed with one atomic at the end. */
struct emu_tile {
	unsigned long long slot[ACC_DEDUP_SLOTS];
	struct acc_rec rec[ACC_STAGE_RECS];
	uint32_t n;
};

static void emu_filter_tile(AcDevStream *s, struct emu_tile *t, uint32_t first)
{
	struct acc_ftab sh = { .group = UINT32_MAX,
			       .dedup = { t->slot, ACC_DEDUP_SLOTS - 1 },
			       .stage = { t->rec, &t->n, ACC_STAGE_RECS } };
	uint32_t end = first + ACC_FILTER_TILE < s->items ? first + ACC_FILTER_TILE : s->items;

	memset(t->slot, 0xff, sizeof(t->slot));
	t->n = 0;
	for (uint32_t i = first; i < end; i++)
		acc_scan_filter(&s->batch, &s->sink, i, &sh);
	uint32_t n = t->n < ACC_STAGE_RECS ? t->n : ACC_STAGE_RECS;
	uint32_t base = __atomic_fetch_add(s->sink.count, n, __ATOMIC_RELAXED);

	acc_stage_copy(&sh.stage, &s->sink, base, 0, 1);
}

/* One "CUDA thread block" worth of the kernel: take items until none left
 * (the filter kernel: tiles of items). */
static void *emu_kernel_thread(void *arg)
{
	/* a number per thread, for `top -H` and thread-cpu.py only: the
	 * emulated device's CPU is not the host pipeline's */
	static unsigned named;
	AcDevStream *s = arg;
	uint64_t seen = 0;
	struct emu_tile *tile = malloc(sizeof(*tile));

	thread_name_set("ACC-EMU", (__atomic_fetch_add(&named, 1, __ATOMIC_RELAXED) % 99) + 1);

	pthread_mutex_lock(&s->mu);
	for (;;) {
		while (!s->stop && s->gen == seen)
			pthread_cond_wait(&s->cv, &s->mu);
		if (s->stop)
			break;
		seen = s->gen;
		pthread_mutex_unlock(&s->mu);
		for (;;) {
			/* without scratch a tile runs as plain items: same set */
			int tiled = s->kernel == ACC_KERNEL_FILTER && tile;
			uint32_t i = __atomic_fetch_add(&s->next, tiled ? ACC_FILTER_TILE : 1,
							__ATOMIC_RELAXED);

			if (i >= s->items)
				break;
			if (tiled)
				emu_filter_tile(s, tile, i);
			else
				acc_run_item(&s->batch, &s->sink, s->kernel, i);
		}
		pthread_mutex_lock(&s->mu);
		if (s->dev->vblk)
			emu_verify(s);
		if (++s->finished_thr == (uint32_t)s->nthr && emu_vdump && s->dev->vblk) {
			uint32_t n = __atomic_load_n(&s->count, __ATOMIC_ACQUIRE);
			uint64_t passed = n > s->vitems && n <= s->sz.max_records ? n - s->vitems : 0;
			const void *part[2] = { &s->vdump_id, &passed };
			uint64_t sz[2] = { sizeof(s->vdump_id), sizeof(passed) };

			vdump_write('P', part, sz, 2);
		}
		if (s->finished_thr == (uint32_t)s->nthr) {
			/* the grouping kernels, after the scan and the verify
			 * kernel, on this "device" thread: the host's completer
			 * then finds the table made */
			uint32_t n = __atomic_load_n(&s->count, __ATOMIC_ACQUIRE);

			if (s->grouped && n <= s->sz.max_records)
				acg_group_serial(&s->batch, s->rec, n, s->dev->vblk ? s->dev->vb.nprog : 0,
						 &s->gw, &s->out);
			s->running = 0;
			s->t_kernel = now_ns();
			pthread_cond_broadcast(&s->done_cv);
		}
	}
	pthread_mutex_unlock(&s->mu);
	free(tile);
	return NULL;
}

static void emu_stream_free(AcDevStream *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->mu);
	s->stop = 1;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	for (int i = 0; i < s->nthr; i++)
		pthread_join(s->thr[i], NULL);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	pthread_cond_destroy(&s->done_cv);
	free(s->thr);
	free(s->rec);
	free(s->gw.table);
	free(s->gw.cnt);
	free(s);
}

static AcDevStream *emu_stream_new(AcDev *d, const AcDevStreamSize *sz, int kernel,
				   uint32_t chunk, char *err, size_t errlen)
{
	AcDevStream *s = calloc(1, sizeof(*s));

	if (!s)
		goto oom;
	s->dev = d;
	s->sz = *sz;
	s->kernel = kernel;
	s->chunk = chunk ? chunk : 64;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	{
		/* wait()'s watchdog deadline is on the monotonic clock */
		pthread_condattr_t ca;

		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&s->done_cv, &ca);
		pthread_condattr_destroy(&ca);
	}
	s->rec = malloc((size_t)sz->max_records * sizeof(*s->rec) + 1);
	s->thr = calloc(emu_threads, sizeof(*s->thr));
	s->gw.tslots = acg_table_alloc(sz->max_records);
	s->gw.table = malloc((size_t)s->gw.tslots * sizeof(*s->gw.table));
	s->gw.cnt = malloc((2 * (size_t)sz->max_payloads + 1) * sizeof(*s->gw.cnt));
	if (!s->rec || !s->thr || !s->gw.table || !s->gw.cnt)
		goto oom;
	for (int i = 0; i < emu_threads; i++) {
		if (pthread_create(&s->thr[i], NULL, emu_kernel_thread, s) != 0)
			break;
		s->nthr++;
	}
	if (s->nthr == 0)
		goto oom;
	return s;
oom:
	snprintf(err, errlen, "emulation: out of memory for a stream");
	emu_stream_free(s);
	return NULL;
}

static int emu_submit_out(AcDevStream *s, const uint8_t *data, uint32_t nbytes,
			  const struct acc_desc *desc, uint32_t npay, const struct acg_out *out,
			  char *err, size_t errlen)
{
	if (nbytes > s->sz.data_bytes || npay > s->sz.max_payloads) {
		snprintf(err, errlen, "emulation: batch larger than the stream buffers");
		return -1;
	}
	if (emu_fail_every) {
		uint64_t k = __atomic_add_fetch(&emu_nbatches, 1, __ATOMIC_RELAXED);

		if (k % emu_fail_every == 0) {
			/* odd failures in submit, even ones in wait: both paths */
			if ((k / emu_fail_every) & 1) {
				snprintf(err, errlen, "emulated device fault in submit "
					 "(cuda.mpm.test-opts fail=%u)", emu_fail_every);
				return -1;
			}
			s->fail_wait = 1;
			return 0;
		}
	}
	pthread_mutex_lock(&s->mu);
	if (emu_hang_every &&
	    __atomic_add_fetch(&emu_nhang, 1, __ATOMIC_RELAXED) % emu_hang_every == 0) {
		/* the kernel threads never see it: only the watchdog ends it */
		s->hung = 1;
		s->running = 1;
		s->t_start = now_ns();
		pthread_mutex_unlock(&s->mu);
		return 0;
	}
	s->t_start = now_ns();
	/* No copy-in: the "kernel" reads the batch where it lies. The host
	 * leaves a submitted batch's bytes and descriptors alone until its
	 * results are taken (ac-cuda.h), as a DMA copy from page-locked
	 * memory requires, so this sees what a device would. A copy here
	 * would put the device's work on the dispatcher's thread, and the
	 * host's CPU figures (qa/bench/thread-cpu.py) would count it. */
	s->t_h2d = s->t_start;
	s->count = 0;
	s->batch = (struct acc_batch){ .data = data, .desc = desc,
				       .groups = s->dev->groups, .npay = npay,
				       .nbytes = nbytes, .chunk = s->chunk };
	s->sink = (struct acc_sink){ .rec = s->rec, .count = &s->count,
				     .cap = s->sz.max_records };
	s->items = acc_items(&s->batch, s->kernel);
	s->grouped = out != NULL;
	if (out)
		s->out = *out;
	s->next = 0;
	s->finished_thr = 0;
	s->scanned_thr = 0;
	s->running = 1;
	s->gen++;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	return 0;
}

static int emu_submit(AcDevStream *s, const uint8_t *data, uint32_t nbytes,
		      const struct acc_desc *desc, uint32_t npay, char *err, size_t errlen)
{
	return emu_submit_out(s, data, nbytes, desc, npay, NULL, err, errlen);
}

static int emu_submit_grouped(AcDevStream *s, const uint8_t *data, uint32_t nbytes,
			      const struct acc_desc *desc, uint32_t npay,
			      const struct acg_out *out, char *err, size_t errlen)
{
	return emu_submit_out(s, data, nbytes, desc, npay, out, err, errlen);
}

static int emu_wait(AcDevStream *s, const struct acc_rec **rec, uint32_t *count,
		    AcDevTimes *t, char *err, size_t errlen)
{
	uint32_t n;
	uint64_t t0;
	struct timespec dl;
	int timed_out = 0;

	if (s->fail_wait) {
		s->fail_wait = 0;
		snprintf(err, errlen, "emulated device fault in wait (cuda.mpm.test-opts fail=%u)",
			 emu_fail_every);
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &dl);
	dl.tv_sec += emu_watchdog_ms / 1000;
	dl.tv_nsec += (long)(emu_watchdog_ms % 1000) * 1000000L;
	if (dl.tv_nsec >= 1000000000L) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&s->mu);
	if (s->hung) {
		/* hang=N: nothing ends this batch but the watchdog, after which
		 * the emulated device "recovers". A real emulated scan is never
		 * abandoned: it always ends, and under valgrind or on a loaded
		 * machine it may take longer than any limit a test would set. */
		while (!timed_out)
			timed_out = pthread_cond_timedwait(&s->done_cv, &s->mu, &dl) == ETIMEDOUT;
		s->hung = 0;
		s->running = 0;
		pthread_mutex_unlock(&s->mu);
		snprintf(err, errlen, "watchdog: the batch was not done after %u ms: abandoned "
			 "(cuda.mpm.test-opts hang)", emu_watchdog_ms);
		return ACC_DEV_WATCHDOG;
	}
	while (s->running)
		pthread_cond_wait(&s->done_cv, &s->mu);
	pthread_mutex_unlock(&s->mu);
	t0 = now_ns();
	n = __atomic_load_n(&s->count, __ATOMIC_ACQUIRE);
	/* no copy-out either: the records stay valid until the stream's next
	 * submit, which comes after the completer has grouped them */
	*rec = s->grouped ? NULL : s->rec;
	*count = n;
	if (t) {
		t->h2d_ns = s->t_h2d - s->t_start;
		t->kernel_ns = s->t_kernel - s->t_h2d;
		t->d2h_ns = now_ns() - t0;
	}
	return 0;
}

static void emu_close(AcDev *d)
{
	if (!d)
		return;
	free(d->blk);
	free(d->groups);
	free(d->vblk);
	free(d->vtabs);
	free(d);
}

static const AcDeviceOps emu_ops = {
	.name = "emulation",
	.emulation = 1,
	.device_count = emu_device_count,
	.device_describe = emu_describe,
	.open = emu_open,
	.mem_free = emu_mem_free,
	.host_alloc = emu_host_alloc,
	.host_free = emu_host_free,
	.load = emu_load,
	.load_verify = emu_load_verify,
	.stream_new = emu_stream_new,
	.submit = emu_submit,
	.submit_grouped = emu_submit_grouped,
	.wait = emu_wait,
	.stream_free = emu_stream_free,
	.close = emu_close,
};

const AcDeviceOps *accuda_emu_ops(void)
{
	return &emu_ops;
}
