/* TLS as the app layer runs it (tls-proto.c): one transaction per flow,
 * holding the stream parser's state (tls-parse.h). What detection and the
 * eve logger may ask of a TLS transaction; everything else goes through the
 * generic app_layer_tx_*() calls.
 *
 * Progress per side: the client side is done (3) with its hello; the
 * server side has its hello (1), and is done with its certificate (or key
 * exchange, ChangeCipherSpec, a TLS 1.3 ServerHello). Either is done when
 * the handshake finished, the side closed or its stream could no longer be
 * read. The tls record goes out then, as Suricata's does. (2, the
 * certificate, is what the certificate buffers ask for.) */
#ifndef APP_LAYER_TLS_H
#define APP_LAYER_TLS_H

#include "app-layer/tls-parse.h"
#include "flow/flow.h"

#define TLS_PROGRESS_HELLO 1
#define TLS_PROGRESS_CERT 2
#define TLS_PROGRESS_DONE 3

/* The parser state of a TLS transaction (tx from app_layer_tx_get()). */
const TlsState *tls_tx_state(const void *tx);
/* The eve anomaly logger's memory of the events it wrote (bit = event). */
uint32_t *tls_tx_events_logged(void *tx);

/* tls.store: the certificate chain of direction dir (TLS_TOCLIENT: the
 * server's) is to be written to disk by the tls-store output, once it is
 * there. pending: the chains (bit 1 << dir) asked for and not written
 * yet; done marks one written. */
void tls_tx_store_request(void *tx, int dir);
unsigned tls_tx_store_pending(const void *tx);
void tls_tx_store_done(void *tx, int dir);

/* ssl_state's view: the TLS_STATE_* the records parsed while the flow's
 * current packet was processed reached (0 when that packet parsed none). */
uint32_t tls_tx_packet_state(const void *tx, const Flow *f);

/* Detection's per-flow cache (decoded certificates, fingerprints): made
 * with make() on first use, freed with free_fn() when the flow's TLS state
 * goes. */
void *tls_tx_kw_cache(void *tx, void *(*make)(void), void (*free_fn)(void *));

/* app-layer.protocols.tls.ja3-fingerprints / ja4-fingerprints: "auto" (the
 * default) turns them on when a loaded rule needs them, as Suricata does.
 * The rule loader calls tls_ja_request() at start; eve and the keywords
 * ask tls_ja3_enabled() / tls_ja4_enabled() afterwards. */
void tls_ja_request(int ja3, int ja4);
int tls_ja3_enabled(void);
int tls_ja4_enabled(void);

#endif
