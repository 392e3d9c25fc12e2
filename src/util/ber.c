/* The bounded BER walker (ber.h). Iterative: one stack entry per open
 * constructed element holds where its content ends (for an indefinite
 * length: where its parent's does, until the end-of-contents octets). */
#include "util/ber.h"

#include <stddef.h>

/* The header at buf[*pos, lim): identifier, then length. 0, or -1 when it
 * is cut short or not BER. */
static int read_header(const uint8_t *buf, uint32_t *pos, uint32_t lim, BerElem *e)
{
	uint32_t p = *pos;
	uint8_t b, l;

	if (p >= lim)
		return -1;
	b = buf[p++];
	e->cls = b >> 6;
	e->constructed = (b & 0x20) != 0;
	e->tag = b & 0x1f;
	if (e->tag == 0x1f) {
		/* high-tag-number form: base-128 digits; more than 4 of them
		 * (28 bits) is no tag anyone sends */
		uint32_t t = 0;
		int n = 0;

		do {
			if (p >= lim || n == 4)
				return -1;
			b = buf[p++];
			t = t << 7 | (b & 0x7f);
			n++;
		} while (b & 0x80);
		e->tag = t;
	}
	if (p >= lim)
		return -1;
	l = buf[p++];
	e->indefinite = 0;
	if (l < 0x80) {
		e->len = l;
	} else if (l == 0x80) {
		/* X.690 8.1.3.2: only constructed elements may be indefinite */
		if (!e->constructed)
			return -1;
		e->indefinite = 1;
		e->len = 0;
	} else if (l == 0xff) {
		return -1;      /* reserved (X.690 8.1.3.5 c) */
	} else {
		uint32_t nb = l & 0x7f;
		uint64_t v = 0;

		if (nb > lim - p)
			return -1;
		for (uint32_t i = 0; i < nb; i++) {
			/* a length past 64 bits is kept as the largest one */
			v = v > (UINT64_MAX >> 8) ? UINT64_MAX : v << 8 | buf[p + i];
		}
		p += nb;
		e->len = v;
	}
	e->content = buf + p;
	if (e->indefinite)
		e->avail = lim - p;
	else
		e->avail = e->len < (uint64_t)(lim - p) ? (uint32_t)e->len : lim - p;
	*pos = p;
	return 0;
}

int ber_walk(const uint8_t *buf, uint32_t len, uint32_t max_elems,
	     int (*cb)(const BerElem *e, void *arg), void *arg)
{
	uint32_t end[BER_MAX_DEPTH + 1];
	uint8_t indef[BER_MAX_DEPTH + 1];
	uint32_t pos = 0, n = 0;
	unsigned depth = 0;

	if (!buf)
		return BER_END;
	end[0] = len;
	indef[0] = 0;
	for (;;) {
		BerElem e;

		while (depth > 0 && pos >= end[depth])
			depth--;
		if (pos >= end[depth])
			return BER_END;
		if (indef[depth] && end[depth] - pos >= 2 && buf[pos] == 0 && buf[pos + 1] == 0) {
			/* end-of-contents: the indefinite element is over */
			pos += 2;
			depth--;
			continue;
		}
		if (n >= max_elems)
			return BER_LIMIT;
		if (read_header(buf, &pos, end[depth], &e) < 0)
			return BER_MALFORMED;
		e.depth = (uint8_t)depth;
		n++;
		if (cb(&e, arg))
			return BER_STOPPED;
		if (!e.constructed) {
			pos += e.avail;
			continue;
		}
		if (depth == BER_MAX_DEPTH)
			return BER_LIMIT;
		/* the children are the content: walk into it */
		depth++;
		end[depth] = pos + e.avail;
		indef[depth] = e.indefinite;
	}
}
