/* BitTorrent DHT (BEP 5 KRPC, with BEP 32's nodes6) over UDP: the parser's
 * view, for eve (output/bittorrent-dht-json.c).
 *
 * As in Suricata 8, every message (a bencoded dictionary: a query, a
 * response or an error) is its own one-way transaction. What is kept of
 * one: the transaction id, the client version, the query's name and
 * arguments (id, target, info_hash, token, implied_port, port), the
 * response's id, token, compact nodes (IPv4 and IPv6) and peer values, and
 * an error's code and message. The byte fields are copied, bounded. */
#ifndef APP_LAYER_BITTORRENT_DHT_H
#define APP_LAYER_BITTORRENT_DHT_H

#include "app-layer/txlist.h"

#include <stdint.h>

#define DHT_MAX_BYTES 64            /* ids, tokens, transaction ids kept */
#define DHT_MAX_NODES 64            /* nodes and values kept per message */
#define DHT_MAX_MSG 256             /* an error message kept */

typedef struct DhtBytes {
	uint8_t len;
	uint8_t set;
	uint8_t b[DHT_MAX_BYTES];
} DhtBytes;

typedef struct DhtNode {
	uint8_t id[20];
	uint8_t ip[16];
	uint8_t v6;
	uint16_t port;
} DhtNode;

typedef struct DhtMsg {
	DhtBytes tid, version;
	char request_type[32];      /* "" none */
	uint8_t has_request, has_response, has_error;
	/* request ("a") */
	DhtBytes a_id, a_target, a_info_hash, a_token;
	uint8_t has_implied_port, has_port;
	int64_t implied_port, port;
	/* response ("r") */
	DhtBytes r_id, r_token;
	uint8_t has_nodes, has_nodes6, has_values;
	uint16_t nnodes, nnodes6, nvalues;
	DhtNode *nodes, *nodes6, *values; /* values: no id */
	/* error ("e") */
	int64_t err_num;
	uint16_t err_len;
	char err_msg[DHT_MAX_MSG];
} DhtMsg;

/* 0; 1 when it decoded but lacks what its type needs (a query without its
 * name or arguments, ...: the malformed_packet event); -1 when the bytes
 * are not a KRPC message (nothing to free). */
int dht_msg_decode(const uint8_t *buf, uint32_t len, DhtMsg *m);
void dht_msg_free(DhtMsg *m);
/* What the probe accepts: a bencoded dictionary with a "y" of q, r or e. */
int dht_looks(const uint8_t *buf, uint32_t len);

enum dht_event {
	DHT_EV_MALFORMED_PACKET = 0,
	DHT_EV_COUNT
};
const char *dht_event_name(int ev);
int dht_event_by_name(const char *name);

typedef struct DhtTx {
	AppTx base;
	uint8_t dir;
	uint8_t valid;
	DhtMsg m;
} DhtTx;

#endif
