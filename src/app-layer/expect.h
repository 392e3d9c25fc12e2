/* Expectations: a flow that a protocol announced before it started (FTP's
 * PORT/PASV data connections). A protocol's parser adds one, keyed by the
 * two addresses of the announcing flow (either order) and the new flow's
 * destination port, with a lifetime; the app layer looks for one when a
 * new TCP flow brings its first bytes and, when it matches, labels the
 * flow with the expected protocol and hands the entry's data to that
 * protocol's parser state (AppProtoOps.expect_attach) instead of running
 * protocol detection.
 *
 * One table for the process (the announcing and the announced flow may be
 * on different workers), bounded (EXPECT_MAX entries; a full table drops
 * the oldest), under a lock taken only when entries exist. Counted:
 * app_layer.expectations (added); matched, expired and dropped ones in
 * expect_stats(). */
#ifndef APP_LAYER_EXPECT_H
#define APP_LAYER_EXPECT_H

#include "app-layer/app-layer.h"

#include <stdint.h>
#include <sys/time.h>

#define EXPECT_MAX 1024
/* seconds of packet time an entry waits for its flow */
#define EXPECT_LIFETIME 60

void expect_register_counters(void);

/* Adds an expectation for a flow between f's two addresses towards port
 * dport, of protocol alproto, carrying data (freed with data_free when the
 * entry expires, is dropped or the table goes; NULL: none). now: the
 * packet time. 0, or -1 when it could not be added (data freed). */
int expect_add(ThreadCounters *tc, const Flow *f, uint16_t dport, uint16_t alproto, void *data,
	       void (*data_free)(void *), const struct timeval *now);

/* The expectation new flow f matches, removed from the table: its
 * protocol into *alproto and its data (the caller owns it; may be NULL),
 * the announcing flow's flow_id into f->parent_id (eve's parent_id, as
 * Suricata 8 logs it on ftp-data flows). Returns 1 on a match, 0 when
 * none. Cheap while the table is empty. */
int expect_take(ThreadCounters *tc, Flow *f, uint16_t *alproto, void **data,
		void (**data_free)(void *));

/* Expectations matched, expired, dropped (table full) since start. */
void expect_stats(uint64_t *matched, uint64_t *expired, uint64_t *dropped);
/* Entries in the table now (tests). */
unsigned expect_count(void);
/* Frees every entry (end of run, tests). */
void expect_clear(void);

#endif
