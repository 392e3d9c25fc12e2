/* Eve flow records on a thread of their own (flow-writer.h). */
#include "output/flow-writer.h"
#include "output/output-private.h"
#include "util/deadline.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

struct FlowWriter {
	struct Outputs *o;
	FlowRecordView *slot;       /* FLOW_WRITER_SLOTS views */
	uint32_t head;              /* the next view to write */
	uint32_t used;              /* views queued, the one being written included */
	int stopping;
	int writer_idle;            /* the writer waits for views */
	int full_waiters;           /* workers wait for a free slot */
	pthread_mutex_t lock;
	pthread_cond_t work;        /* a batch, or stopping */
	pthread_cond_t room;        /* a slot came free */
	pthread_t thread;
};

/* Writes the views queued when it looks, outside the lock: a worker only
 * fills slots past them, and frees none the writer has not passed. */
static void *writer_main(void *arg)
{
	FlowWriter *fw = arg;

	pthread_mutex_lock(&fw->lock);
	for (;;) {
		uint32_t n = fw->used;

		if (!n) {
			struct timespec until;

			if (fw->stopping)
				break;
			deadline_in(&until, FLOW_WRITER_TICK_MS);
			fw->writer_idle = 1;
			pthread_cond_timedwait(&fw->work, &fw->lock, &until);
			fw->writer_idle = 0;
			continue;
		}
		pthread_mutex_unlock(&fw->lock);
		for (uint32_t i = 0; i < n; i++) {
			FlowRecordView *v = &fw->slot[(fw->head + i) % FLOW_WRITER_SLOTS];

			flow_record_write(fw->o, v);
			flow_record_view_release(v);
		}
		pthread_mutex_lock(&fw->lock);
		fw->head = (fw->head + n) % FLOW_WRITER_SLOTS;
		fw->used -= n;
		if (fw->full_waiters)
			pthread_cond_broadcast(&fw->room);
	}
	pthread_mutex_unlock(&fw->lock);
	return NULL;
}

FlowWriter *flow_writer_start(struct Outputs *o)
{
	FlowWriter *fw = calloc(1, sizeof(*fw));

	if (!fw)
		return NULL;
	fw->o = o;
	fw->slot = malloc(FLOW_WRITER_SLOTS * sizeof(*fw->slot));
	if (!fw->slot) {
		free(fw);
		return NULL;
	}
	pthread_condattr_t ca;

	pthread_condattr_init(&ca);
	/* the writer's tick: a clock a wall-clock step does not move */
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_mutex_init(&fw->lock, NULL);
	pthread_cond_init(&fw->work, &ca);
	pthread_cond_init(&fw->room, NULL);
	pthread_condattr_destroy(&ca);
	if (pthread_create(&fw->thread, NULL, writer_main, fw) != 0) {
		pthread_cond_destroy(&fw->room);
		pthread_cond_destroy(&fw->work);
		pthread_mutex_destroy(&fw->lock);
		free(fw->slot);
		free(fw);
		return NULL;
	}
	return fw;
}

void flow_writer_submit(FlowWriter *fw, const Flow *f, enum flow_end_reason why)
{
	pthread_mutex_lock(&fw->lock);
	while (fw->used == FLOW_WRITER_SLOTS) {
		/* the writer has a full ring to write: it is awake or about to be */
		pthread_cond_signal(&fw->work);
		fw->full_waiters++;
		pthread_cond_wait(&fw->room, &fw->lock);
		fw->full_waiters--;
	}
	flow_record_view(f, why, &fw->slot[(fw->head + fw->used) % FLOW_WRITER_SLOTS]);
	fw->used++;
	if (fw->writer_idle && fw->used >= FLOW_WRITER_BATCH)
		pthread_cond_signal(&fw->work);
	pthread_mutex_unlock(&fw->lock);
}

void flow_writer_stop(FlowWriter *fw)
{
	if (!fw)
		return;
	pthread_mutex_lock(&fw->lock);
	fw->stopping = 1;
	pthread_cond_signal(&fw->work);
	pthread_mutex_unlock(&fw->lock);
	pthread_join(fw->thread, NULL);
	pthread_cond_destroy(&fw->room);
	pthread_cond_destroy(&fw->work);
	pthread_mutex_destroy(&fw->lock);
	free(fw->slot);
	free(fw);
}
