/* A bencode reader (BEP 3: integers, byte strings, lists, dictionaries)
 * over a buffer, copying nothing: a value is a view into the bytes. Depth
 * is bounded (BENC_MAX_DEPTH), and so is every length by the buffer, so
 * hostile input costs at most one pass over it per value read. */
#ifndef APP_LAYER_BENCODE_H
#define APP_LAYER_BENCODE_H

#include <stdint.h>

#define BENC_MAX_DEPTH 16

enum benc_type { BENC_INT = 'i', BENC_STR = 's', BENC_LIST = 'l', BENC_DICT = 'd' };

typedef struct BencVal {
	int type;                   /* enum benc_type */
	const uint8_t *p;           /* STR: the bytes; LIST/DICT: the items (after 'l'/'d') */
	uint32_t len;               /* STR: its length; LIST/DICT: up to, not with, the 'e' */
	int64_t i;                  /* INT */
} BencVal;

/* Reads the value at buf[*off], advancing *off past it: 0, or -1 when the
 * bytes are not one whole bencoded value within len. */
int benc_read(const uint8_t *buf, uint32_t len, uint32_t *off, BencVal *v);

/* Walks a list's or dict's items: *off starts at 0; each call reads the
 * next item (a dict's next key into *key, its value into *v; key NULL for
 * a list). 1 with an item, 0 at the end, -1 malformed. */
int benc_next(const BencVal *c, uint32_t *off, BencVal *key, BencVal *v);

/* A dict's value for key k (a NUL-terminated name): 1 found, 0 not, -1
 * malformed. */
int benc_dict_get(const BencVal *d, const char *k, BencVal *v);

#endif
