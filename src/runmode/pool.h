/* The packet pool: max-pending-packets packets with their data buffers, allocated
 * once. The RX thread alone takes packets (no lock); workers give them back in
 * batches through a locked return list, so the lock is taken once per batch. */
#ifndef RUNMODE_POOL_H
#define RUNMODE_POOL_H

#include "decode/packet.h"

#include <pthread.h>
#include <stdint.h>

typedef struct PacketPool {
	Packet *packets;
	uint8_t *data;              /* n * PACKET_DATA_MAX bytes */
	uint32_t n;

	Packet *free_list;          /* RX thread only */
	uint32_t n_free;

	pthread_mutex_t lock;       /* guards returned */
	pthread_cond_t cond;
	Packet *returned;
	uint32_t n_returned;
	int rx_waiting;

	/* Called by the RX thread before it sleeps for returned packets: autofp
	 * publishes its half-filled queue batches here, or the workers holding the
	 * packets it waits for might never see them. */
	void (*before_wait)(void *arg);
	void *before_wait_arg;
} PacketPool;

int packet_pool_init(PacketPool *pool, uint32_t n);
void packet_pool_destroy(PacketPool *pool);

/* RX thread: a reset packet; blocks until workers give one back when all are out.
 * Never returns NULL while wait is set; with wait unset returns NULL when empty. */
Packet *packet_pool_get(PacketPool *pool, int wait);

/* RX thread (single runmode): straight back to the free list. */
void packet_pool_put_local(PacketPool *pool, Packet *p);

/* Workers: gives back a chain of n packets linked by ->next. */
void packet_pool_return(PacketPool *pool, Packet *head, Packet *tail, uint32_t n);

#endif
