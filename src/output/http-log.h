/* eve "http" and "fileinfo" records for HTTP transactions, and the "http"
 * object of alerts on a transaction.
 *
 * The worker calls output_http_tx() once per transaction (when it completed,
 * or at flow end) and output_http_files() once per transaction for its
 * bodies; both are no-ops when eve does not list the type. Thread-safe. */
#ifndef OUTPUT_HTTP_LOG_H
#define OUTPUT_HTTP_LOG_H

#include "output/output.h"
#include "app-layer/http.h"

/* Installs the alert hook (alerts on a tx get its "http" object). Call once
 * at start, before the workers run. */
void output_http_register(void);

/* An eve "http" record for tx; p (may be NULL) gives the time and pcap_cnt,
 * addresses follow the flow (client as source), as Suricata logs them. */
void output_http_tx(Outputs *o, const Packet *p, const Flow *f, HttpTx *tx);

/* eve "fileinfo" records for tx's request and response bodies, when eve
 * lists "files" or "fileinfo". Returns the number written. */
int output_http_files(Outputs *o, const Packet *p, const Flow *f, HttpTx *tx);

/* Whether eve wants any per-transaction record (http or files). */
int output_http_wanted(const Outputs *o);

#endif
