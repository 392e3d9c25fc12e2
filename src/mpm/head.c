/* Head patterns: see head.h. */
#include "config.h"

#define _GNU_SOURCE   /* qsort_r */

#include "mpm/head.h"

#include <stdlib.h>
#include <string.h>

/* One pattern. The key is its first two bytes, folded (a one-byte
 * pattern's: its byte), as the text's are where it is probed. */
struct head_ent {
	uint32_t id;
	uint32_t off;        /* its bytes, in MpmHead.bytes */
	uint16_t key;
	uint16_t len;
	uint8_t last;        /* the latest offset it may start at: bound - len */
	uint8_t nocase;
};

struct MpmHead {
	uint32_t n;               /* entries: n2 of 2+ bytes, then the 1-byte ones */
	uint32_t n2;
	uint32_t shift;           /* 32 - log2(buckets) */
	int32_t last2, last1;     /* the latest start of any 2+ / 1-byte entry; -1: none */
	uint32_t *first;          /* [buckets + 1]: 2+ byte entries by bucket */
	uint32_t one[257];        /* 1-byte entries of folded byte c: n2 + one[c] .. */
	struct head_ent *ent;
	uint8_t *bytes;
	size_t nbytes;
};

static inline uint32_t bucket(uint32_t key, uint32_t shift)
{
	return (key * 0x9E3779B1u) >> shift;
}

/* mpm_fold as a table: a probe is two folds, a hash and a load */
#define F1(c) (uint8_t)((c) >= 'A' && (c) <= 'Z' ? (c) + 32 : (c))
#define F4(c) F1(c), F1((c) + 1), F1((c) + 2), F1((c) + 3)
#define F16(c) F4(c), F4((c) + 4), F4((c) + 8), F4((c) + 12)
#define F64(c) F16(c), F16((c) + 16), F16((c) + 32), F16((c) + 48)
static const uint8_t fold[256] = { F64(0), F64(64), F64(128), F64(192) };
#undef F64
#undef F16
#undef F4
#undef F1

static inline uint16_t key_at(const uint8_t *p)
{
	return (uint16_t)(fold[p[0]] | (uint32_t)fold[p[1]] << 8);
}

/* A bucket's entries by their latest start, latest first: a probe at
 * start s stops at the first that cannot start there. */
static void sort_by_last(struct head_ent *e, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++) {
		struct head_ent x = e[i];
		uint32_t j = i;

		for (; j > 0 && e[j - 1].last < x.last; j--)
			e[j] = e[j - 1];
		e[j] = x;
	}
}

struct build_sort {
	const struct ac_pattern *pats;
	const uint32_t *bound;
	const uint8_t *bytes;
};

/* The same entry twice: same id, bound, case and bytes. */
static int cmp_dup(const void *x, const void *y, void *arg)
{
	const struct build_sort *c = arg;
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	const struct ac_pattern *a = &c->pats[i], *b = &c->pats[j];

	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	if (c->bound[i] != c->bound[j])
		return c->bound[i] < c->bound[j] ? -1 : 1;
	if (a->nocase != b->nocase)
		return (int)a->nocase - (int)b->nocase;
	if (a->len != b->len)
		return (int)a->len - (int)b->len;
	{
		int d = memcmp(c->bytes + a->off, c->bytes + b->off, a->len);

		if (d)
			return d;
	}
	return i < j ? -1 : i > j;   /* stable: the first added is kept */
}

static int same_entry(const struct build_sort *c, uint32_t i, uint32_t j)
{
	const struct ac_pattern *a = &c->pats[i], *b = &c->pats[j];

	return a->id == b->id && c->bound[i] == c->bound[j] && a->nocase == b->nocase &&
	       a->len == b->len && memcmp(c->bytes + a->off, c->bytes + b->off, a->len) == 0;
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

MpmHead *mpm_head_build(const struct ac_pattern *pats, const uint32_t *bound, uint32_t n,
			const uint8_t *bytes)
{
	struct build_sort bs = { pats, bound, bytes };
	MpmHead *h = calloc(1, sizeof(*h));
	uint32_t *keep = malloc(sizeof(uint32_t) * (n ? n : 1));
	uint32_t *at = NULL, nkeep = 0, nb, bits = 4;

	if (!h || !keep)
		goto fail;
	/* exact duplicates once, then in the order they were added */
	for (uint32_t i = 0; i < n; i++)
		keep[i] = i;
	qsort_r(keep, n, sizeof(uint32_t), cmp_dup, &bs);
	for (uint32_t i = 0; i < n; i++)
		if (i == 0 || !same_entry(&bs, keep[i - 1], keep[i]))
			keep[nkeep++] = keep[i];
	qsort(keep, nkeep, sizeof(uint32_t), cmp_u32);

	h->last2 = h->last1 = -1;
	for (uint32_t k = 0; k < nkeep; k++) {
		const struct ac_pattern *p = &pats[keep[k]];

		h->nbytes += p->len;
		if (p->len >= 2)
			h->n2++;
	}
	h->n = nkeep;
	/* mostly empty buckets: a probe of text no pattern starts with
	 * (most) ends at its bucket's bounds */
	while (bits < 15 && (1u << bits) < 4 * h->n2)
		bits++;
	h->shift = 32 - bits;
	nb = 1u << bits;
	h->first = calloc((size_t)nb + 1, sizeof(uint32_t));
	h->ent = calloc(nkeep ? nkeep : 1, sizeof(*h->ent));
	h->bytes = malloc(h->nbytes ? h->nbytes : 1);
	at = malloc(sizeof(uint32_t) * nb);
	if (!h->first || !h->ent || !h->bytes || !at)
		goto fail;
	/* counting sort: 2+ byte entries by bucket, 1-byte ones by byte */
	for (uint32_t k = 0; k < nkeep; k++) {
		const struct ac_pattern *p = &pats[keep[k]];
		const uint8_t *b = bytes + p->off;

		if (p->len >= 2)
			h->first[bucket(key_at(b), h->shift) + 1]++;
		else
			h->one[fold[b[0]] + 1]++;
	}
	for (uint32_t i = 0; i < nb; i++)
		h->first[i + 1] += h->first[i];
	for (uint32_t c = 0; c < 256; c++)
		h->one[c + 1] += h->one[c];
	memcpy(at, h->first, sizeof(uint32_t) * nb);
	{
		uint32_t one_at[256], off = 0;

		memcpy(one_at, h->one, sizeof(one_at));
		for (uint32_t k = 0; k < nkeep; k++) {
			const struct ac_pattern *p = &pats[keep[k]];
			const uint8_t *b = bytes + p->off;
			uint32_t last = bound[keep[k]] - p->len;
			struct head_ent *e;

			if (p->len >= 2) {
				uint16_t key = key_at(b);

				e = &h->ent[at[bucket(key, h->shift)]++];
				e->key = key;
				if ((int32_t)last > h->last2)
					h->last2 = (int32_t)last;
			} else {
				e = &h->ent[h->n2 + one_at[fold[b[0]]]++];
				e->key = fold[b[0]];
				if ((int32_t)last > h->last1)
					h->last1 = (int32_t)last;
			}
			e->id = p->id;
			e->off = off;
			e->len = p->len;
			e->last = (uint8_t)last;
			e->nocase = p->nocase;
			memcpy(h->bytes + off, b, p->len);
			off += p->len;
		}
	}
	for (uint32_t i = 0; i < nb; i++)
		sort_by_last(h->ent + h->first[i], h->first[i + 1] - h->first[i]);
	for (uint32_t c = 0; c < 256; c++)
		sort_by_last(h->ent + h->n2 + h->one[c], h->one[c + 1] - h->one[c]);
	free(at);
	free(keep);
	return h;
fail:
	free(at);
	free(keep);
	mpm_head_free(h);
	return NULL;
}

void mpm_head_free(MpmHead *h)
{
	if (!h)
		return;
	free(h->first);
	free(h->ent);
	free(h->bytes);
	free(h);
}

/* Whether entry e is at text t (e->len bytes there). */
static inline int ent_at(const MpmHead *h, const struct head_ent *e, const uint8_t *t)
{
	const uint8_t *p = h->bytes + e->off;

	if (!e->nocase)
		return memcmp(t, p, e->len) == 0;
	for (uint32_t i = 0; i < e->len; i++)
		if (fold[t[i]] != fold[p[i]])
			return 0;
	return 1;
}

uint32_t mpm_head_scan(const MpmHead *h, const uint8_t *buf, uint32_t len, mpm_match_fn cb,
		       void *arg)
{
	uint32_t count = 0;

	if (!h || !len)
		return 0;
	/* the starts some entry allows, each probed by the two bytes there:
	 * an empty bucket (most) costs the hash alone */
	if (h->last2 >= 0 && len >= 2) {
		uint32_t end = (uint32_t)h->last2 < len - 2 ? (uint32_t)h->last2 : len - 2;

		for (uint32_t s = 0; s <= end; s++) {
			uint32_t key = key_at(buf + s), b = bucket(key, h->shift);

			for (uint32_t i = h->first[b]; i < h->first[b + 1]; i++) {
				const struct head_ent *e = &h->ent[i];

				if (s > e->last)
					break;
				if (e->key != key || e->len > len - s || !ent_at(h, e, buf + s))
					continue;
				count++;
				if (cb(arg, e->id, s + e->len))
					return count;
			}
		}
	}
	if (h->last1 >= 0) {
		uint32_t end = (uint32_t)h->last1 < len - 1 ? (uint32_t)h->last1 : len - 1;

		for (uint32_t s = 0; s <= end; s++) {
			uint32_t c = fold[buf[s]];

			for (uint32_t i = h->n2 + h->one[c]; i < h->n2 + h->one[c + 1]; i++) {
				const struct head_ent *e = &h->ent[i];

				if (s > e->last)
					break;
				if (!ent_at(h, e, buf + s))
					continue;
				count++;
				if (cb(arg, e->id, s + 1))
					return count;
			}
		}
	}
	return count;
}

void mpm_head_mark(const MpmHead *h, uint8_t *mark, uint32_t n, uint8_t bit)
{
	for (uint32_t i = 0; h && i < h->n; i++)
		if (h->ent[i].id < n)
			mark[h->ent[i].id] |= bit;
}

uint32_t mpm_head_count(const MpmHead *h)
{
	return h ? h->n : 0;
}

size_t mpm_head_memory(const MpmHead *h)
{
	if (!h)
		return 0;
	return sizeof(*h) + sizeof(uint32_t) * (((size_t)1 << (32 - h->shift)) + 1) +
	       sizeof(struct head_ent) * h->n + h->nbytes;
}
