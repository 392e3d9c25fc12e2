/* A bounded single-producer single-consumer packet queue (RX -> one worker).
 * Lock-free while neither side has to wait; a side that must wait sleeps on a
 * condition variable, and the other side wakes it only when it said it sleeps. */
#ifndef RUNMODE_RING_H
#define RUNMODE_RING_H

#include "decode/packet.h"

#include <pthread.h>
#include <stdint.h>

typedef struct PacketRing {
	Packet **slots;
	uint32_t mask;
	_Alignas(64) uint32_t head;    /* consumer position */
	_Alignas(64) uint32_t tail;    /* producer position */
	_Alignas(64) int closed;       /* producer is done */
	int consumer_waiting;
	int producer_waiting;
	pthread_mutex_t lock;
	pthread_cond_t cond;
} PacketRing;

/* size: rounded up to a power of two. */
int packet_ring_init(PacketRing *r, uint32_t size);
void packet_ring_destroy(PacketRing *r);

/* Producer: blocks while full (pcap files never drop). */
void packet_ring_push(PacketRing *r, Packet *p);
/* Producer: no more packets; the consumer drains and then gets NULL. */
void packet_ring_close(PacketRing *r);
/* Consumer: non-blocking; NULL when empty. */
Packet *packet_ring_try_pop(PacketRing *r);
/* Consumer: blocks while empty; NULL once closed and drained. */
Packet *packet_ring_pop(PacketRing *r);

#endif
