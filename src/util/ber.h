/* A small, bounded BER (X.690) walker: it reads the identifier and length
 * of each element of a buffer, in order, descending into constructed
 * elements, and hands each header to a callback. It decodes no values and
 * allocates nothing; it never reads past the buffer, follows at most
 * BER_MAX_DEPTH nested levels and at most max_elems elements, and stops at
 * the first malformed header. The asn1 rule keyword (detect/asn1-kw.c) is
 * its user.
 *
 * The cursor below (BerCur) is the decoders' side of the same reader: the
 * LDAP, Kerberos and SNMP parsers take one whole element at a time from a
 * constructed element's content and read INTEGER, BOOLEAN and OID values. */
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

/* ---- the cursor: whole, definite-length elements one after another ---- */

typedef struct BerCur {
	const uint8_t *p;
	uint32_t left;
} BerCur;

static inline void ber_cur_init(BerCur *c, const uint8_t *p, uint32_t len)
{
	c->p = p;
	c->left = p ? len : 0;
}

/* The header of the element at buf[0, len). 0: it is all there (e->len
 * content bytes follow), *total set to header plus content; 1: the header
 * is, the content is cut short (*total what the whole would be, when it
 * fits 32 bits, else UINT32_MAX); -1: the header is cut short (need more);
 * -2: not definite BER (an indefinite or reserved length, a tag past 28
 * bits). The stream parsers use it to frame PDUs. */
int ber_peek(const uint8_t *buf, uint32_t len, BerElem *e, uint32_t *total);

/* The next element of c, whole: 0 and the cursor past it, or -1 at the end
 * or on an element cut short or malformed (the cursor then stays). */
int ber_next(BerCur *c, BerElem *e);
/* The same when the next element is (cls, tag), else -1, cursor unchanged:
 * for OPTIONAL and DEFAULT members. */
int ber_next_tag(BerCur *c, uint8_t cls, uint32_t tag, BerElem *e);
/* The cursor over a constructed element's content. */
static inline void ber_cur_into(BerCur *c, const BerElem *e)
{
	ber_cur_init(c, e->content, e->avail);
}

/* INTEGER (or ENUMERATED) content as a signed value: 0, or -1 when empty
 * or wider than 64 bits. */
int ber_int(const BerElem *e, int64_t *v);
/* BOOLEAN: 0 and *v 0/1, or -1 when not one byte. */
int ber_bool(const BerElem *e, int *v);
/* OBJECT IDENTIFIER content as dotted text ("1.3.6.1.2.1.1.3.0") into
 * out[size], NUL-terminated: its length, or -1 when malformed or too long. */
int ber_oid_str(const uint8_t *p, uint32_t len, char *out, uint32_t size);

#endif
