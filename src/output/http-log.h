/* eve "http" records for HTTP transactions (their files' fileinfo records
 * go through the file logger, file-log.c), and the "http" object of alerts
 * on a transaction: HTTP's eve logger, reached through output_tx_log() and
 * the alert writer (tx-log.c). A no-op when eve does not list the type.
 * Thread-safe. */
#ifndef OUTPUT_HTTP_LOG_H
#define OUTPUT_HTTP_LOG_H

#include "output/output.h"
#include "app-layer/http.h"

/* An eve "http" record for tx; p (may be NULL) gives the time and pcap_cnt,
 * addresses follow the flow (client as source), as Suricata logs them. */
void output_http_tx(Outputs *o, const Packet *p, const Flow *f, HttpTx *tx);

#endif
