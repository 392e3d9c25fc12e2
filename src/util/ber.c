/* The bounded BER walker (ber.h). Iterative: one stack entry per open
 * constructed element holds where its content ends (for an indefinite
 * length: where its parent's does, until the end-of-contents octets). */
#include "util/ber.h"

#include <stddef.h>
#include <stdio.h>

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

/* ---- the cursor ---- */

int ber_peek(const uint8_t *buf, uint32_t len, BerElem *e, uint32_t *total)
{
	uint32_t pos = 0, hdr;
	uint64_t whole;

	if (!buf || len < 2)
		return -1;
	if (read_header(buf, &pos, len, e) < 0) {
		/* cut short or bad: a header is at most 1 + 5 + 1 + 8 bytes
		 * (the longest the walker takes), so with that many it is bad */
		uint8_t l;
		uint32_t p = 1;

		if ((buf[0] & 0x1f) == 0x1f) {
			while (p < len && p < 6 && (buf[p] & 0x80))
				p++;
			if (p >= 5)
				return -2;
			p++;
		}
		if (p >= len)
			return -1;
		l = buf[p];
		/* reserved, indefinite, or a length past 64 bits: never BER
		 * a decoder takes, however many bytes follow */
		if (l == 0x80 || l == 0xff || (l > 0x80 && (l & 0x7f) > 8))
			return -2;
		return -1;
	}
	if (e->indefinite)
		return -2;
	hdr = pos;
	whole = (uint64_t)hdr + e->len;
	*total = whole > UINT32_MAX ? UINT32_MAX : (uint32_t)whole;
	return whole <= len ? 0 : 1;
}

int ber_next(BerCur *c, BerElem *e)
{
	uint32_t total;

	if (!c->left || ber_peek(c->p, c->left, e, &total) != 0)
		return -1;
	c->p += total;
	c->left -= total;
	return 0;
}

int ber_next_tag(BerCur *c, uint8_t cls, uint32_t tag, BerElem *e)
{
	BerCur save = *c;

	if (ber_next(c, e) < 0)
		return -1;
	if (e->cls != cls || e->tag != tag) {
		*c = save;
		return -1;
	}
	return 0;
}

int ber_int(const BerElem *e, int64_t *v)
{
	uint64_t u;

	if (!e->avail || e->avail > 8 || e->avail != e->len)
		return -1;
	/* two's complement, sign from the first byte */
	u = (e->content[0] & 0x80) ? UINT64_MAX : 0;
	for (uint32_t i = 0; i < e->avail; i++)
		u = u << 8 | e->content[i];
	*v = (int64_t)u;
	return 0;
}

int ber_bool(const BerElem *e, int *v)
{
	if (e->avail != 1)
		return -1;
	*v = e->content[0] != 0;
	return 0;
}

int ber_oid_str(const uint8_t *p, uint32_t len, char *out, uint32_t size)
{
	uint32_t o = 0, i = 0;
	int first = 1;

	if (!len || !size)
		return -1;
	while (i < len) {
		uint64_t arc = 0;
		int n;

		do {
			/* an arc past 56 bits is no OID anyone sends */
			if (i >= len || arc >> 56)
				return -1;
			arc = arc << 7 | (p[i] & 0x7f);
		} while (p[i++] & 0x80);
		if (first) {
			/* the first subidentifier holds the first two arcs */
			uint64_t a = arc < 40 ? 0 : arc < 80 ? 1 : 2;

			n = snprintf(out + o, size - o, "%llu.%llu", (unsigned long long)a,
				     (unsigned long long)(arc - 40 * a));
			first = 0;
		} else {
			n = snprintf(out + o, size - o, ".%llu", (unsigned long long)arc);
		}
		if (n < 0 || (uint32_t)n >= size - o)
			return -1;
		o += (uint32_t)n;
	}
	return (int)o;
}
