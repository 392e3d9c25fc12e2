// SPDX-License-Identifier: GPL-2.0-only
/*
 * ac-dfa.c - host side of the AC prototype (see ac-dfa.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ac-dfa.h"

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);

	if (!p) {
		fprintf(stderr, "out of memory (%zu x %zu)\n", n, sz);
		exit(2);
	}
	return p;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int ac_patterns_load(struct ac_patterns *p, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	uint32_t cap = 1024;

	memset(p, 0, sizeof(*p));
	if (!f) {
		perror(path);
		return -1;
	}
	p->pat = xcalloc(cap, sizeof(*p->pat));
	p->len = xcalloc(cap, sizeof(*p->len));
	while (fgets(line, sizeof(line), f)) {
		size_t n = strcspn(line, "\r\n"), i;
		uint8_t *b;

		if (n == 0 || n % 2 || n / 2 > 255) {
			/* depth is kept in 8 bits: longer patterns are refused */
			if (n)
				fprintf(stderr, "%s: skipped a pattern line\n", path);
			continue;
		}
		if (p->n == cap) {
			cap *= 2;
			p->pat = realloc(p->pat, cap * sizeof(*p->pat));
			p->len = realloc(p->len, cap * sizeof(*p->len));
			if (!p->pat || !p->len)
				exit(2);
		}
		b = xcalloc(n / 2, 1);
		for (i = 0; i < n / 2; i++) {
			int hi = hexval(line[2 * i]), lo = hexval(line[2 * i + 1]);

			if (hi < 0 || lo < 0)
				break;
			b[i] = (uint8_t)tolower((hi << 4) | lo);
		}
		if (i != n / 2) {
			free(b);
			continue;
		}
		p->pat[p->n] = b;
		p->len[p->n] = (uint16_t)(n / 2);
		p->bytes += n / 2;
		if (n / 2 > p->maxlen)
			p->maxlen = n / 2;
		p->n++;
	}
	fclose(f);
	if (!p->n) {
		fprintf(stderr, "%s: no patterns\n", path);
		return -1;
	}
	return 0;
}

void ac_patterns_free(struct ac_patterns *p)
{
	uint32_t i;

	for (i = 0; i < p->n; i++)
		free(p->pat[i]);
	free(p->pat);
	free(p->len);
	memset(p, 0, sizeof(*p));
}

static const struct ac_patterns *sort_pats;

static int pat_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint32_t lx = sort_pats->len[x], ly = sort_pats->len[y];
	int r = memcmp(sort_pats->pat[x], sort_pats->pat[y], lx < ly ? lx : ly);

	if (r)
		return r;
	return lx < ly ? -1 : lx > ly;
}

/*
 * Build the trie one depth at a time over the sorted patterns, so states
 * get BFS numbers (shallow = low id) and each state's children are
 * contiguous and sorted by byte.  Then fill the DFA in id order.
 */
static void build_trie(struct ac_dfa *d, const struct ac_patterns *p)
{
	uint32_t *order = xcalloc(p->n, sizeof(*order));
	uint32_t *cur = xcalloc(p->n, sizeof(*cur));
	uint32_t i, dep;

	for (i = 0; i < p->n; i++)
		order[i] = i;
	sort_pats = p;
	qsort(order, p->n, sizeof(*order), pat_cmp);

	d->nstates = 1;
	for (dep = 1; dep <= p->maxlen; dep++) {
		uint32_t prev_parent = UINT32_MAX, prev_state = 0;
		int prev_byte = -1;

		for (i = 0; i < p->n; i++) {
			uint32_t pi = order[i], parent = cur[pi], ns;
			uint8_t c;

			if (p->len[pi] < dep)
				continue;
			c = p->pat[pi][dep - 1];
			if (parent == prev_parent && c == prev_byte) {
				ns = prev_state;
			} else {
				ns = d->nstates++;
				d->depth[ns] = (uint8_t)dep;
				d->delta[(size_t)parent * AC_ALPHA + c] = ns;
				if (c >= 'a' && c <= 'z')
					d->delta[(size_t)parent * AC_ALPHA +
						 (c - 'a' + 'A')] = ns;
				if (!d->nchild[parent])
					d->first_child[parent] = ns - 1;
				d->nchild[parent]++;
				d->child_state[ns - 1] = ns;
				d->child_byte[ns - 1] = c;
			}
			prev_parent = parent;
			prev_byte = c;
			prev_state = ns;
			cur[pi] = ns;
			if (p->len[pi] == dep && d->own[ns] < 0)
				d->own[ns] = (int32_t)pi;
		}
	}
	free(order);
	free(cur);
}

static void build_outputs(struct ac_dfa *d, const uint32_t *fail)
{
	uint32_t *cnt = xcalloc(d->nstates, sizeof(*cnt));
	uint32_t s, total = 0;

	for (s = 0; s < d->nstates; s++)	/* fail[s] < s: BFS order */
		cnt[s] = (d->own[s] >= 0) + (s ? cnt[fail[s]] : 0);
	d->out_start = xcalloc(d->nstates + 1, sizeof(uint32_t));
	for (s = 0; s < d->nstates; s++) {
		d->out_start[s] = total;
		total += cnt[s];
	}
	d->out_start[d->nstates] = total;
	d->nout = total;
	d->out_ids = xcalloc(total, sizeof(uint32_t));
	for (s = 1; s < d->nstates; s++) {
		uint32_t o = d->out_start[s];

		if (d->own[s] >= 0)
			d->out_ids[o++] = (uint32_t)d->own[s];
		memcpy(d->out_ids + o, d->out_ids + d->out_start[fail[s]],
		       cnt[fail[s]] * sizeof(uint32_t));
	}
	free(cnt);
}

int ac_dfa_build(struct ac_dfa *d, const struct ac_patterns *p)
{
	size_t max = p->bytes + 1, i;
	uint32_t *fail, s;

	memset(d, 0, sizeof(*d));
	d->delta = xcalloc(max * AC_ALPHA, sizeof(uint32_t));
	d->depth = xcalloc(max, 1);
	d->first_child = xcalloc(max, sizeof(uint32_t));
	d->child_state = xcalloc(max, sizeof(uint32_t));
	d->child_byte = xcalloc(max, 1);
	d->nchild = xcalloc(max, sizeof(uint16_t));
	d->own = xcalloc(max, sizeof(int32_t));
	for (i = 0; i < max; i++)
		d->own[i] = -1;
	build_trie(d, p);

	fail = xcalloc(d->nstates, sizeof(*fail));
	for (s = 0; s < d->nstates; s++) {
		uint32_t *row = d->delta + (size_t)s * AC_ALPHA;
		const uint32_t *frow = d->delta + (size_t)fail[s] * AC_ALPHA;
		int c;

		for (c = 0; c < AC_ALPHA; c++) {
			uint32_t t = row[c];

			if (t && d->depth[t] == d->depth[s] + 1)
				fail[t] = s ? frow[c] : 0;	/* trie edge */
			else
				row[c] = s ? frow[c] : 0;
		}
	}
	build_outputs(d, fail);
	free(fail);
	for (i = 0; i < (size_t)d->nstates * AC_ALPHA; i++) {
		uint32_t t = d->delta[i];

		if (d->out_start[t + 1] > d->out_start[t])
			d->delta[i] = t | AC_MATCH_BIT;
	}
	d->delta = realloc(d->delta,
			   (size_t)d->nstates * AC_ALPHA * sizeof(uint32_t));
	d->pat_len = xcalloc(p->n, sizeof(uint16_t));
	memcpy(d->pat_len, p->len, p->n * sizeof(uint16_t));
	d->npat = p->n;
	d->maxlen = p->maxlen;
	return d->delta ? 0 : -1;
}

void ac_dfa_free(struct ac_dfa *d)
{
	free(d->delta);
	free(d->out_start);
	free(d->out_ids);
	free(d->pat_len);
	free(d->depth);
	free(d->first_child);
	free(d->child_state);
	free(d->child_byte);
	free(d->nchild);
	free(d->own);
	memset(d, 0, sizeof(*d));
}

struct ac_tables ac_dfa_tables(const struct ac_dfa *d)
{
	struct ac_tables t = {
		.delta = d->delta, .out_start = d->out_start,
		.out_ids = d->out_ids, .pat_len = d->pat_len,
		.depth = d->depth, .hot = NULL, .nhot = 0,
		.nstates = d->nstates,
	};
	return t;
}

int ac_payloads_load(struct ac_payloads *pl, const char *path)
{
	FILE *f = fopen(path, "rb");
	char magic[4];
	uint32_t n, i, *len;

	memset(pl, 0, sizeof(*pl));
	if (!f) {
		perror(path);
		return -1;
	}
	if (fread(magic, 1, 4, f) != 4 || memcmp(magic, "ACPL", 4) ||
	    fread(&n, 4, 1, f) != 1) {
		fprintf(stderr, "%s: not a payload file\n", path);
		fclose(f);
		return -1;
	}
	len = xcalloc(n, sizeof(*len));
	pl->off = xcalloc(n + 1, sizeof(uint32_t));
	if (fread(len, 4, n, f) != n)
		goto bad;
	for (i = 0; i < n; i++)
		pl->off[i + 1] = pl->off[i] + len[i];
	pl->data = xcalloc(pl->off[n], 1);
	if (fread(pl->data, 1, pl->off[n], f) != pl->off[n])
		goto bad;
	pl->n = n;
	free(len);
	fclose(f);
	return 0;
bad:
	fprintf(stderr, "%s: truncated\n", path);
	free(len);
	fclose(f);
	ac_payloads_free(pl);
	return -1;
}

static uint32_t xorshift(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Text-like random payloads with planted patterns in random case, a few
 * long ones so chunking crosses many boundaries. */
void ac_payloads_synthetic(struct ac_payloads *pl, const struct ac_patterns *p,
			   size_t bytes, uint32_t seed)
{
	uint32_t cap = 1024, n = 0;
	size_t pos = 0;

	memset(pl, 0, sizeof(*pl));
	pl->data = xcalloc(bytes, 1);
	pl->off = xcalloc(cap + 1, sizeof(uint32_t));
	while (pos < bytes) {
		uint32_t r = xorshift(&seed), len = 1 + r % 1500, i;

		if (r % 17 == 0)
			len = 1 + r % 20000;
		if (len > bytes - pos)
			len = bytes - pos;
		for (i = 0; i < len; i++) {
			uint32_t q = xorshift(&seed);

			pl->data[pos + i] = q % 4 ? 32 + q % 95 : (uint8_t)(q >> 8);
		}
		for (i = 0; i < len / 40 + 1; i++) {
			uint32_t k = xorshift(&seed) % p->n, at, j;

			if (p->len[k] > len)
				continue;
			at = xorshift(&seed) % (len - p->len[k] + 1);
			for (j = 0; j < p->len[k]; j++) {
				uint8_t c = p->pat[k][j];

				if (xorshift(&seed) & 1)
					c = (uint8_t)toupper(c);
				pl->data[pos + at + j] = c;
			}
		}
		if (n == cap) {
			cap *= 2;
			pl->off = realloc(pl->off, (cap + 1) * sizeof(uint32_t));
			if (!pl->off)
				exit(2);
		}
		pos += len;
		pl->off[++n] = (uint32_t)pos;
	}
	pl->n = n;
}

void ac_payloads_free(struct ac_payloads *pl)
{
	free(pl->data);
	free(pl->off);
	memset(pl, 0, sizeof(*pl));
}

void ac_batch_set_chunk(struct ac_hbatch *b, uint32_t chunk)
{
	uint32_t i;

	b->chunk = chunk;
	b->chunk_base[0] = 0;
	for (i = 0; i < b->n; i++) {
		uint32_t len = b->off[i + 1] - b->off[i];

		b->chunk_base[i + 1] = b->chunk_base[i] + (len + chunk - 1) / chunk;
	}
	b->nchunks = b->chunk_base[b->n];
}

int ac_batch_pack(struct ac_hbatch *b, const struct ac_payloads *pl,
		  size_t bytes, uint32_t chunk)
{
	uint32_t cap = 1024, i = 0;
	size_t pos = 0;

	memset(b, 0, sizeof(*b));
	if (!pl->n)
		return -1;
	b->data = xcalloc(bytes, 1);
	b->off = xcalloc(cap + 1, sizeof(uint32_t));
	for (;;) {
		uint32_t len = pl->off[i + 1] - pl->off[i];

		if (pos + len > bytes)
			break;
		if (b->n == cap) {
			cap *= 2;
			b->off = realloc(b->off, (cap + 1) * sizeof(uint32_t));
			if (!b->off)
				exit(2);
		}
		memcpy(b->data + pos, pl->data + pl->off[i], len);
		pos += len;
		b->off[++b->n] = (uint32_t)pos;
		i = (i + 1) % pl->n;
	}
	b->bytes = pos;
	b->chunk_base = xcalloc(b->n + 1, sizeof(uint32_t));
	ac_batch_set_chunk(b, chunk);
	return b->n ? 0 : -1;
}

void ac_batch_free(struct ac_hbatch *b)
{
	free(b->data);
	free(b->off);
	free(b->chunk_base);
	memset(b, 0, sizeof(*b));
}

struct ac_batch ac_batch_view(const struct ac_hbatch *b, uint32_t overlap)
{
	struct ac_batch v = {
		.data = b->data, .off = b->off, .chunk_base = b->chunk_base,
		.npayloads = b->n, .nchunks = b->nchunks, .chunk = b->chunk,
		.overlap = overlap,
	};
	return v;
}

struct keyvec {
	uint64_t *k;
	size_t n, cap;
};

static void kv_push(struct keyvec *v, uint64_t key)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 1 << 16;
		v->k = realloc(v->k, v->cap * sizeof(uint64_t));
		if (!v->k)
			exit(2);
	}
	v->k[v->n++] = key;
}

static int find_child(const struct ac_dfa *d, uint32_t s, uint8_t c)
{
	uint32_t lo = d->first_child[s], hi = lo + d->nchild[s];

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (d->child_byte[mid] < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < d->first_child[s] + d->nchild[s] && d->child_byte[lo] == c)
		return (int)d->child_state[lo];
	return -1;
}

uint64_t *ac_ref_scan(const struct ac_dfa *d, const struct ac_hbatch *b,
		      size_t *nkeys)
{
	struct keyvec v = { 0 };
	int root[256];
	uint32_t p;
	int c;

	for (c = 0; c < 256; c++)
		root[c] = find_child(d, 0, (uint8_t)c);
	for (p = 0; p < b->n; p++) {
		const uint8_t *buf = b->data + b->off[p];
		uint32_t len = b->off[p + 1] - b->off[p], i, j;

		for (i = 0; i < len; i++) {
			int s = root[tolower(buf[i])];

			for (j = i; s >= 0; ) {
				if (d->own[s] >= 0)
					kv_push(&v, (((uint64_t)b->off[p] + j + 1) << 20) |
						(uint32_t)d->own[s]);
				if (++j >= len)
					break;
				s = find_child(d, (uint32_t)s, (uint8_t)tolower(buf[j]));
			}
		}
	}
	ac_keys_sort(v.k, v.n);
	*nkeys = v.n;
	return v.k;
}

uint64_t *ac_naive_scan(const struct ac_patterns *p, const struct ac_hbatch *b,
			size_t *nkeys)
{
	struct keyvec v = { 0 };
	size_t pos;
	uint32_t q, k;

	for (q = 0; q < b->n; q++) {
		for (pos = b->off[q]; pos < b->off[q + 1]; pos++) {
			for (k = 0; k < p->n; k++) {
				uint32_t j, L = p->len[k];

				if (pos + L > b->off[q + 1])
					continue;
				for (j = 0; j < L; j++)
					if (tolower(b->data[pos + j]) != p->pat[k][j])
						break;
				if (j == L)
					kv_push(&v, ((uint64_t)(pos + L) << 20) | k);
			}
		}
	}
	ac_keys_sort(v.k, v.n);
	*nkeys = v.n;
	return v.k;
}

void ac_keys_sort(uint64_t *k, size_t n)
{
	uint64_t *tmp, *src = k, *dst, all_or = 0;
	int shift;

	if (n < 2)
		return;
	tmp = xcalloc(n, sizeof(uint64_t));
	dst = tmp;
	for (size_t i = 0; i < n; i++)
		all_or |= k[i];
	for (shift = 0; shift < 64 && (all_or >> shift); shift += 8) {
		size_t cnt[257] = { 0 }, i;

		for (i = 0; i < n; i++)
			cnt[((src[i] >> shift) & 0xff) + 1]++;
		for (i = 1; i < 257; i++)
			cnt[i] += cnt[i - 1];
		for (i = 0; i < n; i++)
			dst[cnt[(src[i] >> shift) & 0xff]++] = src[i];
		uint64_t *t = src;
		src = dst;
		dst = t;
	}
	if (src != k)
		memcpy(k, src, n * sizeof(uint64_t));
	free(tmp);
}

uint64_t *ac_recs_to_keys(const struct ac_rec *r, size_t n,
			  const uint32_t *off)
{
	uint64_t *k = xcalloc(n, sizeof(uint64_t));
	size_t i;

	for (i = 0; i < n; i++)
		k[i] = AC_KEY(off, r[i]);
	ac_keys_sort(k, n);
	return k;
}

int ac_keys_compare(const char *what, const uint64_t *ref, size_t nref,
		    const uint64_t *got, size_t ngot)
{
	size_t i, n = nref < ngot ? nref : ngot;

	for (i = 0; i < n && ref[i] == got[i]; i++)
		;
	if (i == n && nref == ngot)
		return 0;
	fprintf(stderr, "%s: MISMATCH: ref %zu matches, got %zu; first "
		"difference at #%zu: ref pos %llu pat %llu, got pos %llu pat %llu\n",
		what, nref, ngot, i,
		i < nref ? (unsigned long long)(ref[i] >> 20) : 0ULL,
		i < nref ? (unsigned long long)(ref[i] & 0xfffff) : 0ULL,
		i < ngot ? (unsigned long long)(got[i] >> 20) : 0ULL,
		i < ngot ? (unsigned long long)(got[i] & 0xfffff) : 0ULL);
	return -1;
}
