#include "runmode/pool.h"

#include <stdlib.h>
#include <string.h>

#define POOL_PAGE 4096u
#define POOL_SLOT ((PACKET_DATA_MAX + POOL_PAGE - 1) / POOL_PAGE * POOL_PAGE)

int packet_pool_init(PacketPool *pool, uint32_t n)
{
	memset(pool, 0, sizeof(*pool));
	pool->packets = calloc(n, sizeof(Packet));
	/* Untouched pages of the data area cost no memory: most frames use the first
	 * 2 KB of their 64 KB slot. Slots start on a page, so that such a frame
	 * touches one page, not two (unaligned, 37% of 1514-byte frames straddle
	 * a page boundary: 1.5 MB more resident for 1024 packets in flight). */
	pool->data = aligned_alloc(POOL_PAGE, (size_t)n * POOL_SLOT);
	if (!pool->packets || !pool->data) {
		free(pool->packets);
		free(pool->data);
		return -1;
	}
	pool->n = n;
	for (uint32_t i = 0; i < n; i++) {
		Packet *p = &pool->packets[i];

		p->data = pool->data + (size_t)i * POOL_SLOT;
		p->pool = pool;
		p->next = pool->free_list;
		pool->free_list = p;
	}
	pool->n_free = n;
	pthread_mutex_init(&pool->lock, NULL);
	pthread_cond_init(&pool->cond, NULL);
	return 0;
}

void packet_pool_destroy(PacketPool *pool)
{
	if (!pool->packets)
		return;
	pthread_mutex_destroy(&pool->lock);
	pthread_cond_destroy(&pool->cond);
	free(pool->packets);
	free(pool->data);
	memset(pool, 0, sizeof(*pool));
}

static void take_returned(PacketPool *pool)
{
	Packet *head = pool->returned;

	/* Caller holds the lock. Splice the whole returned chain onto the free list. */
	if (!head)
		return;
	Packet *tail = head;
	while (tail->next)
		tail = tail->next;
	tail->next = pool->free_list;
	pool->free_list = head;
	pool->n_free += pool->n_returned;
	pool->returned = NULL;
	pool->n_returned = 0;
}

Packet *packet_pool_get(PacketPool *pool, int wait)
{
	Packet *p;

	if (!pool->free_list) {
		if (wait && pool->before_wait) {
			pthread_mutex_lock(&pool->lock);
			int empty = !pool->returned;
			pthread_mutex_unlock(&pool->lock);
			if (empty)
				pool->before_wait(pool->before_wait_arg);
		}
		pthread_mutex_lock(&pool->lock);
		while (!pool->returned && wait) {
			pool->rx_waiting = 1;
			pthread_cond_wait(&pool->cond, &pool->lock);
			pool->rx_waiting = 0;
		}
		take_returned(pool);
		pthread_mutex_unlock(&pool->lock);
		if (!pool->free_list)
			return NULL;
	}
	p = pool->free_list;
	pool->free_list = p->next;
	pool->n_free--;
	packet_reset(p);
	return p;
}

void packet_pool_put_local(PacketPool *pool, Packet *p)
{
	p->next = pool->free_list;
	pool->free_list = p;
	pool->n_free++;
}

void packet_pool_return(PacketPool *pool, Packet *head, Packet *tail, uint32_t n)
{
	pthread_mutex_lock(&pool->lock);
	tail->next = pool->returned;
	pool->returned = head;
	pool->n_returned += n;
	if (pool->rx_waiting)
		pthread_cond_signal(&pool->cond);
	pthread_mutex_unlock(&pool->lock);
}
