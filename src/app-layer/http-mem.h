/* HTTP memory accounting against app-layer.protocols.http.memcap.
 *
 * As in Suricata, the cap is global (all workers together) and 0, the
 * default, means unlimited. What is counted: each connection's state and
 * parser, and each transaction with its parser-side structures, at a fixed
 * cost that stands for libhtp's own allocations (libhtp 0.5 takes no
 * allocator, so they are estimated, from valgrind massif measurements, not
 * traced). Body buffers are bounded per transaction by request-body-limit and
 * response-body-limit instead.
 *
 * At the cap, a new HTTP flow gets no parser (app_layer.error.http.alloc), and
 * a connection whose new transaction passes the cap is parsed no further
 * (libhtp has made that transaction already; refusing it from a callback
 * would only make libhtp retry). Both count http.memcap. Memory then stays
 * within the cap plus what one parse call creates, per worker. */
#ifndef APP_LAYER_HTTP_MEM_H
#define APP_LAYER_HTTP_MEM_H

#include <stdint.h>

#include "stats/counters.h"

/* libhtp's share, measured: a connection parser with its connection object
 * about 1 KB, a transaction with its header tables, URI and lines about 2.5 KB. */
#define HTTP_MEM_LIBHTP_CONN 1024u
#define HTTP_MEM_LIBHTP_TX   2560u

void http_mem_set_cap(uint64_t cap);
uint64_t http_mem_cap(void);

/* http.memuse (gauge) and http.memcap (refusals). Before counters_freeze(). */
void http_mem_register_counters(void);

/* 1 when size fits under the cap (and is now counted), 0 when refused (counted
 * in http.memcap). tc: the calling worker's counters, or NULL. */
int http_mem_reserve(ThreadCounters *tc, uint64_t size);
/* For what is already allocated (libhtp made the transaction before telling
 * us): always counted; 0 when that passed the cap (counted in http.memcap),
 * so that the caller stops parsing the connection. */
int http_mem_charge(ThreadCounters *tc, uint64_t size);
void http_mem_release(ThreadCounters *tc, uint64_t size);

/* Buffers that grow with the traffic (headers and URIs built for
 * detection, stored bodies, detection's per-tx state): counted, never
 * refused (the cap refuses new flows and transactions instead), on the
 * calling thread's worker. */
void http_mem_grow(uint64_t size);
void http_mem_shrink(uint64_t size);

/* Everything reserved and not released, all workers. */
uint64_t http_mem_use(void);
/* The counters of the worker this thread runs (the last one passed to the
 * calls above), or NULL: for the HTTP tables shared by the workers
 * (http-range.c), whose changes count on the thread that made them. */
ThreadCounters *http_mem_thread_counters(void);

#endif
