/* PDU framing on a stream (pdubuf.h). */
#include "app-layer/pdubuf.h"

#include <stdlib.h>
#include <string.h>

static int append(PduBuf *b, const uint8_t *p, uint32_t n, uint32_t max)
{
	if (b->len + (uint64_t)n > max)
		return -1;
	if (b->len + n > b->cap) {
		uint32_t cap = b->cap ? b->cap : 256;
		uint8_t *nb;

		while (cap < b->len + n)
			cap = cap > max / 2 ? max : cap * 2;
		nb = realloc(b->buf, cap);
		if (!nb)
			return -1;
		b->buf = nb;
		b->cap = cap;
	}
	memcpy(b->buf + b->len, p, n);
	b->len += n;
	return 0;
}

int pdubuf_feed(PduBuf *b, const uint8_t *data, uint32_t len, uint32_t max, pdu_frame_fn frame,
		pdu_cb cb, void *arg)
{
	/* first complete what is buffered, a few bytes at a time while the
	 * length is unknown, then the whole rest of the PDU */
	while (b->len && len) {
		int64_t need = frame(b->buf, b->len);
		uint32_t take;

		if (need < 0 || need > max)
			goto bad;
		if (need == 0)
			take = len < 16 ? len : 16;
		else
			take = (uint64_t)need - b->len < len ? (uint32_t)(need - b->len) : len;
		if (append(b, data, take, max) < 0)
			goto bad;
		data += take;
		len -= take;
		if (need > 0 && b->len == need) {
			b->len = 0;
			cb(arg, b->buf, (uint32_t)need);
		}
	}
	if (b->len && !len) {
		/* the length may be readable now */
		int64_t need = frame(b->buf, b->len);

		if (need < 0 || need > max)
			goto bad;
		if (need > 0 && b->len == need) {
			b->len = 0;
			cb(arg, b->buf, (uint32_t)need);
		}
		return 0;
	}
	/* whole PDUs straight from data */
	while (len) {
		int64_t need = frame(data, len);

		if (need < 0 || need > max)
			goto bad;
		if (need == 0 || need > len)
			return append(b, data, len, max) < 0 ? (pdubuf_reset(b), -1) : 0;
		cb(arg, data, (uint32_t)need);
		data += need;
		len -= (uint32_t)need;
	}
	return 0;
bad:
	pdubuf_reset(b);
	return -1;
}

void pdubuf_reset(PduBuf *b)
{
	b->len = 0;
	/* a large PDU's buffer is not kept for the rest of the flow */
	if (b->cap > 4096) {
		free(b->buf);
		b->buf = NULL;
		b->cap = 0;
	}
}

void pdubuf_free(PduBuf *b)
{
	free(b->buf);
	b->buf = NULL;
	b->len = b->cap = 0;
}
