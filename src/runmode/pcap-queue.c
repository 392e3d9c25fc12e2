/* The unix-socket runmode's pcap queue (pcap-queue.h). */
#include "runmode/pcap-queue.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct PcapQueue {
	pthread_mutex_t lock;
	pthread_cond_t cond;           /* a task was added */
	PcapTask *head, *tail;
	unsigned n;
	PcapTask *current;
	int64_t last_processed_ms;
	volatile int interrupted;      /* written under lock, read by the capture */
};

static void task_free(PcapTask *t)
{
	if (!t)
		return;
	free(t->filename);
	free(t->output_dir);
	free(t);
}

PcapQueue *pcap_queue_new(void)
{
	PcapQueue *q = calloc(1, sizeof(*q));
	pthread_condattr_t ca;

	if (!q)
		return NULL;
	pthread_mutex_init(&q->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&q->cond, &ca);
	pthread_condattr_destroy(&ca);
	return q;
}

void pcap_queue_free(PcapQueue *q)
{
	if (!q)
		return;
	while (q->head) {
		PcapTask *n = q->head->next;

		task_free(q->head);
		q->head = n;
	}
	task_free(q->current);
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->cond);
	free(q);
}

int pcap_queue_add(PcapQueue *q, const char *filename, const char *output_dir, int tenant,
		   int continuous, int delete_when_done)
{
	PcapTask *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	t->filename = strdup(filename);
	t->output_dir = strdup(output_dir);
	if (!t->filename || !t->output_dir) {
		task_free(t);
		return -1;
	}
	t->tenant = tenant;
	t->continuous = continuous;
	t->delete_when_done = delete_when_done;
	pthread_mutex_lock(&q->lock);
	if (q->tail)
		q->tail->next = t;
	else
		q->head = t;
	q->tail = t;
	q->n++;
	pthread_cond_signal(&q->cond);
	pthread_mutex_unlock(&q->lock);
	return 0;
}

PcapTask *pcap_queue_take(PcapQueue *q, const volatile sig_atomic_t *stop, int timeout_ms)
{
	struct timespec dl;
	PcapTask *t = NULL;

	clock_gettime(CLOCK_MONOTONIC, &dl);
	dl.tv_sec += timeout_ms / 1000;
	dl.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (dl.tv_nsec >= 1000000000L) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&q->lock);
	while (!q->head && !(stop && *stop))
		if (pthread_cond_timedwait(&q->cond, &q->lock, &dl) == ETIMEDOUT)
			break;
	if (q->head && !(stop && *stop)) {
		t = q->head;
		q->head = t->next;
		if (!q->head)
			q->tail = NULL;
		q->n--;
		t->next = NULL;
		q->current = t;
		/* an interrupt with nothing running stops nothing later */
		q->interrupted = 0;
	}
	pthread_mutex_unlock(&q->lock);
	return t;
}

void pcap_queue_done(PcapQueue *q, int64_t last_mtime_ms)
{
	pthread_mutex_lock(&q->lock);
	task_free(q->current);
	q->current = NULL;
	if (last_mtime_ms)
		q->last_processed_ms = last_mtime_ms;
	pthread_mutex_unlock(&q->lock);
}

void pcap_queue_status(PcapQueue *q, PcapQueueStatus *out)
{
	pthread_mutex_lock(&q->lock);
	out->queued = q->n;
	out->last_processed_ms = q->last_processed_ms;
	snprintf(out->current, sizeof(out->current), "%s",
		 q->current ? q->current->filename : "None");
	pthread_mutex_unlock(&q->lock);
}

void pcap_queue_each(PcapQueue *q, void (*fn)(void *arg, const char *filename), void *arg)
{
	pthread_mutex_lock(&q->lock);
	for (PcapTask *t = q->head; t; t = t->next)
		fn(arg, t->filename);
	pthread_mutex_unlock(&q->lock);
}

void pcap_queue_interrupt(PcapQueue *q)
{
	pthread_mutex_lock(&q->lock);
	if (q->current)
		q->interrupted = 1;
	pthread_mutex_unlock(&q->lock);
}

const volatile int *pcap_queue_interrupt_flag(PcapQueue *q)
{
	return &q->interrupted;
}
