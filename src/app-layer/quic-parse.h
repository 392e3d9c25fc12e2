/* QUIC over UDP as Suricata 8 reads it: IETF QUIC (v1, v2, drafts 23..34)
 * with its Initial packets opened (quic-crypto.h) to reach the TLS hellos
 * in their CRYPTO frames, reassembled by offset across packets; and
 * Google QUIC (Q039..Q046), whose handshake is a clear CHLO message with
 * the SNI, the user agent and the tags the CYU fingerprint lists.
 *
 * As in Suricata, a transaction is one packet seen in one direction: a
 * long-header gQUIC packet, or an IETF Initial that opened; it carries the
 * version, and where the packet completed a hello, what the hello shows
 * (sni, ua, cyu, ja3/ja3s, ja4, extensions). Handshake, 0-RTT and short
 * header packets are ciphertext for us and make none. Once a direction's
 * hello is read, its later Initials make none either, as in Suricata (the
 * rest of the handshake is encrypted); after a Retry the client's next
 * Initial, on the Retry's connection id, rekeys and starts its hello over.
 *
 * Pure: no logging, no config. Memory per flow: the state, a 16 KiB hello
 * reassembly buffer per direction while a hello is incomplete, one packet's
 * scratch until both hellos are read, and the transactions until they are
 * logged. */
#ifndef APP_LAYER_QUIC_PARSE_H
#define APP_LAYER_QUIC_PARSE_H

#include "app-layer/quic-crypto.h"
#include "app-layer/txlist.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QUIC_V1 0x00000001u
#define QUIC_V2 0x6b3343cfu
/* A hello is reassembled up to this size (crypto_frag_too_long past it). */
#define QUIC_CRYPTO_MAX 16384u
/* Extensions and values kept per hello. */
#define QUIC_MAX_EXTS 64
#define QUIC_MAX_VALS 64
#define QUIC_VBUF_MAX 2048

/* Events: Suricata's names (rules/quic-events.rules). */
enum quic_event {
	QUIC_EV_FAILED_DECRYPT,
	QUIC_EV_ERROR_ON_DATA,
	QUIC_EV_ERROR_ON_HEADER,
	QUIC_EV_CRYPTO_FRAG_TOO_LONG,
	QUIC_EV_COUNT
};
const char *quic_event_name(int ev);
int quic_event_by_name(const char *name);

typedef struct QuicExt {
	uint16_t type;
	uint16_t first_val, nvals;  /* into QuicTx.vals */
} QuicExt;

typedef struct QuicVal {
	uint16_t off, len;          /* into QuicTx.vbuf */
} QuicVal;

typedef struct QuicTx {
	AppTx base;                 /* first: txlist.h */
	uint32_t version;
	uint8_t version_wire[4];    /* the same, as the header has it */
	uint8_t client;             /* sent to the server */
	char *sni, *ua, *cyu, *ja3; /* NUL-terminated copies, or NULL */
	uint16_t sni_len, ua_len, cyu_len, ja3_len;
	char cyu_hash[33];
	char ja3_hash[33];
	char ja4[37];               /* "" none */
	uint16_t nexts, nvals;
	QuicExt *exts;
	QuicVal *vals;
	char *vbuf;
} QuicTx;

/* One direction's hello reassembly. */
typedef struct QuicCrypto {
	uint8_t *buf;               /* QUIC_CRYPTO_MAX bytes, with its bitmap */
	uint8_t *have;              /* bit per byte received */
	bool done;                  /* the hello was read */
	bool failed;                /* too long: given up */
} QuicCrypto;

typedef struct QuicState {
	AppTxList txs;              /* first: txlist.h's ops read it */
	QuicKeys keys[2];
	bool keys_ok;
	bool retry;                 /* a Retry came: the client's next DCID rekeys */
	uint8_t dcid[20];           /* the DCID the keys come from */
	uint8_t dcid_len;
	QuicCrypto crypto[2];
	uint64_t largest_pn[2];     /* Initial packet numbers, +1; 0 none */
	uint8_t *scratch;           /* one packet, unprotected, and its plaintext */
	uint32_t scratch_cap;
	uint32_t events;            /* bits raised by the last call */
} QuicState;

QuicState *quic_state_new(void);
void quic_state_free(QuicState *s);

/* Parses one UDP datagram of direction dir (0 to server, 1 to client); new
 * transactions go on s->txs. Returns the number of transactions made, or
 * -1 when a packet of it did not parse or open (an event on its tx says
 * why). Never reads outside data[0..len). */
int quic_parse_datagram(QuicState *s, int dir, const uint8_t *data, size_t len);

/* Detection: 1 when buf starts with a QUIC long header of a known version
 * (or gQUIC's public header with a version), 0 not. */
int quic_probe(const uint8_t *buf, size_t len);

/* QUIC variable-length integer (RFC 9000 16): bytes read, or 0. */
size_t quic_varint(const uint8_t *p, size_t len, uint64_t *v);

/* The name Suricata logs for a TLS extension type, or NULL. */
const char *quic_tls_ext_name(uint16_t type);
/* The eve "version" string: "Q039", "Q043".."Q046", else the number in
 * hex ("1", "6b3343cf", "ff00001d", "51303530" for Q050); buf of 12
 * bytes. */
const char *quic_version_string(uint32_t v, char *buf);

#endif
