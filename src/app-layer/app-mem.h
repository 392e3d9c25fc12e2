/* Memory of the app-layer parsers that Suricata 8 gives no memcap of their
 * own (TLS, SMTP with its MIME decoder, SMB, DCERPC, SSH, SIP): counted per
 * protocol, capped together by app-layer.memcap.
 *
 * HTTP (http-mem.h, app-layer.protocols.http.memcap) and FTP keep their
 * own accounting. Everything these parsers allocate for a flow goes
 * through app_mem_*() below, so that what is counted is what the allocator
 * holds for them (glibc's chunk sizes, as mem-peak.h counts), not an
 * estimate: a flood of idle sessions shows up here as it does in RSS. The
 * bytes count in the engine's memuse total (mem-peak.h: the "memuse: peak"
 * that qa/bench/floods.sh compares with RSS).
 *
 * The cap is global (all workers, all these protocols). The app layer
 * checks it (app_mem_admit) where a flow's parser state is made, and before
 * each parse of a flow that has one: past the cap a new flow gets no
 * parser and a running one is parsed no further, as HTTP's connections at
 * http.memcap; app_layer.error.<proto>.alloc counts it and
 * app-layer.error-policy applies. Allocations inside a parse are counted,
 * never refused: each parser bounds its per-flow buffers itself, and
 * failing halfway through a message would lose more than it saves. Memory
 * stays within the cap plus what one parse call adds, per worker.
 * 0: unlimited.
 *
 * No <proto>.memuse counter: Suricata 8's eve schema has none for these
 * protocols (a stats record with one would not validate). The gauges are
 * app_mem_use(); the engine logs their peaks and the refusals at the end
 * (app_mem_log_summary). Relaxed atomics, one per allocation; no lock. */
#ifndef APP_LAYER_APP_MEM_H
#define APP_LAYER_APP_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "app-layer/app-layer.h" /* ALPROTO_* */

/* app-layer.memcap's default: 100,000 concurrent TLS, SMTP or SMB sessions
 * with all of ET Open stay under 600 MB RSS with it (qa/bench/RESULTS.md). */
#define APP_MEMCAP_DEFAULT (64ull << 20)

/* app-layer.memcap (0: unlimited); app_layer_config_load sets it. */
void app_mem_set_cap(uint64_t cap);
uint64_t app_mem_cap(void);

/* Whether the protocol is accounted here (ALPROTO_* of app-layer.h). */
int app_mem_accounted(unsigned alproto);

/* 1 when a flow of alproto may be parsed (the bytes of all accounted
 * protocols under the cap), else 0: the caller counts its
 * app_layer.error.<proto>.alloc. */
int app_mem_admit(unsigned alproto);

/* malloc, calloc, realloc, strdup, strndup and free, counted for alproto.
 * A block is freed (or reallocated) with the alproto it was allocated
 * with; NULL is fine for free and realloc. */
void *app_mem_malloc(unsigned alproto, size_t n);
void *app_mem_calloc(unsigned alproto, size_t nmemb, size_t n);
void *app_mem_realloc(unsigned alproto, void *p, size_t n);
char *app_mem_strdup(unsigned alproto, const char *s);
char *app_mem_strndup(unsigned alproto, const char *s, size_t n);
void app_mem_free(unsigned alproto, void *p);

/* Hands p over to a caller that frees it with free(): no longer counted. */
void *app_mem_disown(unsigned alproto, void *p);

/* Memory that is not a heap block of ours (a library's context: OpenSSL's
 * digest states), counted at its estimated size. */
void app_mem_charge(unsigned alproto, uint64_t n);
void app_mem_uncharge(unsigned alproto, uint64_t n);

/* Bytes counted now: alproto's, and all accounted protocols' together;
 * the highest total so far; the flows app_mem_admit() refused. */
uint64_t app_mem_use(unsigned alproto);
uint64_t app_mem_use_total(void);
uint64_t app_mem_peak_total(void);
uint64_t app_mem_refused(unsigned alproto);

/* One info line (suricata.log): each protocol's peak and refusals, when
 * any was counted. The app layer calls it when its last worker ends. */
void app_mem_log_summary(void);

#endif
