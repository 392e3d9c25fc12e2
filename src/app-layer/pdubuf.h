/* Framing of length-delimited PDUs on a TCP stream (LDAP's BER messages,
 * Kerberos' record-marked ones): whole PDUs are handed out straight from
 * the bytes given when they are there, and only a PDU cut across calls is
 * copied, up to a maximum size. */
#ifndef APP_LAYER_PDUBUF_H
#define APP_LAYER_PDUBUF_H

#include <stdint.h>

typedef struct PduBuf {
	uint8_t *buf;
	uint32_t len, cap;
} PduBuf;

/* The length of the PDU that starts at p[0, len): > 0 its whole length
 * (it may be more than len), 0 more bytes are needed to tell, -1 the bytes
 * are not a PDU. */
typedef int64_t (*pdu_frame_fn)(const uint8_t *p, uint32_t len);
typedef void (*pdu_cb)(void *arg, const uint8_t *pdu, uint32_t len);

/* Feeds a direction's next bytes; cb gets each whole PDU in order. 0, or
 * -1 when the bytes are not PDUs or one is longer than max (what was
 * buffered is dropped; the caller decides whether to go on). */
int pdubuf_feed(PduBuf *b, const uint8_t *data, uint32_t len, uint32_t max, pdu_frame_fn frame,
		pdu_cb cb, void *arg);
/* After a gap: what is buffered no longer leads anywhere. */
void pdubuf_reset(PduBuf *b);
void pdubuf_free(PduBuf *b);

#endif
