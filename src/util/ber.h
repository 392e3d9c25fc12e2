/* A small, bounded BER (X.690) walker: it reads the identifier and length
 * of each element of a buffer, in order, descending into constructed
 * elements, and hands each header to a callback. It decodes no values and
 * allocates nothing; it never reads past the buffer, follows at most
 * BER_MAX_DEPTH nested levels and at most max_elems elements, and stops at
 * the first malformed header. The asn1 rule keyword (detect/asn1-kw.c) is
 * its user. */
#ifndef UTIL_BER_H
#define UTIL_BER_H

#include <stdint.h>

#define BER_MAX_DEPTH 16

#define BER_CLASS_UNIVERSAL 0
#define BER_CLASS_APPLICATION 1
#define BER_CLASS_CONTEXT 2
#define BER_CLASS_PRIVATE 3

#define BER_TAG_BIT_STRING 3
#define BER_TAG_REAL 9

typedef struct BerElem {
	uint8_t cls;                /* BER_CLASS_* */
	uint8_t constructed;
	uint8_t indefinite;         /* length form 0x80: no length value */
	uint8_t depth;              /* 0: a top-level element */
	uint32_t tag;
	uint64_t len;               /* the length as encoded (UINT64_MAX: beyond 64 bits) */
	const uint8_t *content;     /* its first content byte, within the buffer */
	uint32_t avail;             /* content bytes present: min(len, what the buffer holds) */
} BerElem;

/* How a walk ended. */
#define BER_END 0                 /* the buffer was walked to its end */
#define BER_STOPPED 1             /* the callback returned non-zero */
#define BER_MALFORMED 2           /* a header was cut short, or reserved (length 0xff) */
#define BER_LIMIT 3               /* max_elems or BER_MAX_DEPTH reached */

/* Walks buf[0, len) as a sequence of top-level elements. cb sees each
 * element once, in encoding order (a parent before its children); a
 * non-zero return stops the walk. A truncated element is reported with the
 * bytes it has, its children walked as far as the buffer goes, and the
 * walk ends there. Returns BER_*. */
int ber_walk(const uint8_t *buf, uint32_t len, uint32_t max_elems,
	     int (*cb)(const BerElem *e, void *arg), void *arg);

#endif
