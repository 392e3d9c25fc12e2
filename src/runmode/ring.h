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
	_Alignas(64) uint32_t tail;    /* producer position, as published */
	uint32_t tail_local;           /* producer only: filled up to here */
	_Alignas(64) int closed;       /* producer is done */
	int consumer_waiting;
	int producer_waiting;
	pthread_mutex_t lock;
	pthread_cond_t cond;
} PacketRing;

/* size: rounded up to a power of two. */
int packet_ring_init(PacketRing *r, uint32_t size);
void packet_ring_destroy(PacketRing *r);

/* Producer: blocks while full (pcap files never drop). Packets are published to
 * the consumer in batches of PACKET_RING_BATCH, so that a sleeping consumer is
 * woken once per batch, not once per packet; packet_ring_flush() publishes the
 * rest (before the producer waits on anything else, and at the end). */
#define PACKET_RING_BATCH 32
void packet_ring_push(PacketRing *r, Packet *p);
void packet_ring_flush(PacketRing *r);
/* Producer: no room for another packet right now. */
int packet_ring_full(PacketRing *r);
/* Producer: no more packets; the consumer drains and then gets NULL. */
void packet_ring_close(PacketRing *r);
/* Consumer: non-blocking; NULL when empty. */
Packet *packet_ring_try_pop(PacketRing *r);
/* Consumer: blocks while empty; NULL once closed and drained. */
Packet *packet_ring_pop(PacketRing *r);
/* Consumer: as pop, but waits at most about timeout_ms: NULL with *closed 0
 * when nothing came (a live source's idle tick), *closed 1 at the end. */
Packet *packet_ring_pop_timed(PacketRing *r, int timeout_ms, int *closed);

#endif
