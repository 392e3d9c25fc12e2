/* bencode reader (bencode.h). */
#include "app-layer/bencode.h"

#include <string.h>

static int read_depth(const uint8_t *b, uint32_t len, uint32_t *off, BencVal *v, int depth);

/* digits up to stop: a non-negative length or the integer's magnitude */
static int read_num(const uint8_t *b, uint32_t len, uint32_t *off, uint8_t stop, int neg_ok,
		    int64_t *out)
{
	uint32_t o = *off;
	int neg = 0, nd = 0;
	int64_t n = 0;

	if (neg_ok && o < len && b[o] == '-') {
		neg = 1;
		o++;
	}
	while (o < len && b[o] >= '0' && b[o] <= '9') {
		if (n > (INT64_MAX - 9) / 10)
			return -1;
		n = n * 10 + (b[o] - '0');
		o++;
		nd++;
	}
	if (!nd || o >= len || b[o] != stop)
		return -1;
	*out = neg ? -n : n;
	*off = o + 1;
	return 0;
}

static int read_depth(const uint8_t *b, uint32_t len, uint32_t *off, BencVal *v, int depth)
{
	uint32_t o = *off;
	int64_t n;

	if (o >= len)
		return -1;
	memset(v, 0, sizeof(*v));
	switch (b[o]) {
	case 'i':
		o++;
		if (read_num(b, len, &o, 'e', 1, &n) < 0)
			return -1;
		v->type = BENC_INT;
		v->i = n;
		break;
	case 'l':
	case 'd': {
		uint32_t start = o + 1;
		int dict = b[o] == 'd';

		if (depth >= BENC_MAX_DEPTH)
			return -1;
		o++;
		while (o < len && b[o] != 'e') {
			BencVal k, x;

			if (dict) {
				if (read_depth(b, len, &o, &k, depth + 1) < 0 || k.type != BENC_STR)
					return -1;
			}
			if (read_depth(b, len, &o, &x, depth + 1) < 0)
				return -1;
		}
		if (o >= len)
			return -1;
		v->type = dict ? BENC_DICT : BENC_LIST;
		v->p = b + start;
		v->len = o - start;
		o++;
		break;
	}
	default:
		if (read_num(b, len, &o, ':', 0, &n) < 0 || (uint64_t)n > len - o)
			return -1;
		v->type = BENC_STR;
		v->p = b + o;
		v->len = (uint32_t)n;
		o += (uint32_t)n;
		break;
	}
	*off = o;
	return 0;
}

int benc_read(const uint8_t *buf, uint32_t len, uint32_t *off, BencVal *v)
{
	return read_depth(buf, len, off, v, 0);
}

int benc_next(const BencVal *c, uint32_t *off, BencVal *key, BencVal *v)
{
	if (*off >= c->len)
		return 0;
	/* the container was checked whole when read: its items are values;
	 * nesting below it was bounded then too */
	if (c->type == BENC_DICT) {
		if (!key || benc_read(c->p, c->len, off, key) < 0 || key->type != BENC_STR)
			return -1;
	}
	return benc_read(c->p, c->len, off, v) < 0 ? -1 : 1;
}

int benc_dict_get(const BencVal *d, const char *k, BencVal *v)
{
	uint32_t off = 0;
	size_t kl = strlen(k);
	BencVal key;
	int r;

	if (d->type != BENC_DICT)
		return -1;
	while ((r = benc_next(d, &off, &key, v)) == 1)
		if (key.len == kl && memcmp(key.p, k, kl) == 0)
			return 1;
	return r;
}
