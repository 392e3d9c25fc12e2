/* Aho-Corasick build and CPU scan. Layout: see ac.h.
 *
 * Build, in steps:
 *   1. literals: the patterns sorted by folded bytes, equal (bytes, nocase)
 *      grouped, their ids listed once;
 *   2. alphabet classes from the folded bytes the literals use;
 *   3. the trie, from the sorted literals (siblings come out sorted by class);
 *   4. BFS numbering, so that a node's children are contiguous and every
 *      fail target has a smaller number than the state itself;
 *   5. fail links and the dense rows of the first states, in BFS order;
 *   6. output nodes, the final numbering of the dense states (by filter use
 *      and by matches), the bigram filter, and the block.
 */
#define _GNU_SOURCE   /* qsort_r */

#include "mpm/ac.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- build-time scratch (everything in BFS numbering once step 4 ran) ---- */

struct ac_build {
	const struct ac_pattern *pats;
	uint32_t npats;
	const uint8_t *bytes;
	uint8_t *folded;        /* folded copy of bytes */
	uint32_t *order;        /* pattern indexes, sorted (cmp_lit) */
	uint8_t cls[256];
	uint32_t nclass;

	/* literals: lit_first[l] = first index into order[] of literal l */
	uint32_t nlit;
	uint32_t *lit_first;    /* [nlit + 1] */
	uint32_t *lit_node;     /* [nlit] terminal node, DFS then BFS id */

	/* trie in DFS numbering */
	uint32_t nnodes;
	uint32_t *first;        /* first child (0 = none; the root is never a child) */
	uint32_t *sibling;      /* next sibling (0 = none) */
	uint8_t *ncls;          /* class of the edge into the node */

	/* BFS numbering */
	uint32_t *child;        /* [nnodes + 1] */
	uint8_t *scls;          /* [nnodes] */
	uint32_t *fail;         /* [nnodes] */
	uint32_t *rows;         /* [ndense << shift] dense rows, BFS ids */
	uint32_t ndense, shift;

	/* the patterns' extent (check_patterns) */
	size_t nbytes, maxnodes;
	uint32_t maxlen;
	/* row geometry (build_rows): stride = 1 << shift entries of width bytes */
	size_t stride;
	uint32_t width;

	/* step 6, over BFS ids */
	uint32_t *onode_of;     /* first literal ending at the state, AC_NONE */
	uint32_t *mlb;          /* nearest owner of a node down the suffix chain;
	                         * tagged 0x80000000 | node number: its own */
	uint32_t *perm, *inv;   /* BFS id -> final state number, and back */
	uint32_t nfilter, matchlo, nonode;
	uint64_t nout;          /* GPU list entries */
};

static void ac_build_release(struct ac_build *b)
{
	free(b->folded);
	free(b->order);
	free(b->lit_first);
	free(b->lit_node);
	free(b->first);
	free(b->sibling);
	free(b->ncls);
	free(b->child);
	free(b->scls);
	free(b->fail);
	free(b->rows);
	free(b->onode_of);
	free(b->mlb);
	free(b->perm);
	free(b->inv);
}

/* Folded bytes (shorter first on a common prefix), then nocase, then the
 * exact bytes of exact-case patterns: equal under this order = one literal,
 * and literals with the same folded bytes are neighbours (one trie node). */
static int cmp_lit(const void *x, const void *y, void *ctx)
{
	const struct ac_build *sb = ctx;
	const struct ac_pattern *a = &sb->pats[*(const uint32_t *)x];
	const struct ac_pattern *b = &sb->pats[*(const uint32_t *)y];
	uint32_t m = a->len < b->len ? a->len : b->len;
	int r = memcmp(sb->folded + a->off, sb->folded + b->off, m);

	if (r)
		return r;
	if (a->len != b->len)
		return (int)a->len - (int)b->len;
	if (a->nocase != b->nocase)
		return (int)b->nocase - (int)a->nocase;
	if (a->nocase)
		return 0;
	return memcmp(sb->bytes + a->off, sb->bytes + b->off, a->len);
}

static void build_classes(struct ac_build *b)
{
	uint8_t used[256] = { 0 };
	uint8_t fcls[256] = { 0 };
	uint32_t k = 1;

	for (uint32_t l = 0; l < b->nlit; l++) {
		const struct ac_pattern *p = &b->pats[b->order[b->lit_first[l]]];
		const uint8_t *f = b->folded + p->off;

		for (uint32_t j = 0; j < p->len; j++)
			used[f[j]] = 1;
	}
	/* classes in byte order, so sorting by folded bytes = sorting by class */
	for (int f = 0; f < 256; f++)
		if (used[f])
			fcls[f] = (uint8_t)k++;
	for (int c = 0; c < 256; c++)
		b->cls[c] = fcls[mpm_fold((uint8_t)c)];
	b->nclass = k;
}

/* Trie from the sorted literals: a literal shares the path of the previous
 * one up to their common prefix. */
static int build_trie(struct ac_build *b, size_t maxnodes, uint32_t maxlen)
{
	uint32_t prev_len = 0;
	const uint8_t *prev = NULL;
	/* path[d]: node at depth d of the previous literal; last_child[d]: the
	 * youngest child of path[d], to append its next sibling */
	uint32_t *path = malloc(sizeof(uint32_t) * 2 * ((size_t)maxlen + 1));
	uint32_t *last_child = path ? path + maxlen + 1 : NULL;

	b->first = calloc(maxnodes, sizeof(uint32_t));
	b->sibling = calloc(maxnodes, sizeof(uint32_t));
	b->ncls = calloc(maxnodes, 1);
	if (!path || !b->first || !b->sibling || !b->ncls) {
		free(path);
		return -1;
	}
	b->nnodes = 1;
	path[0] = 0;
	last_child[0] = 0;

	for (uint32_t l = 0; l < b->nlit; l++) {
		const struct ac_pattern *p = &b->pats[b->order[b->lit_first[l]]];
		const uint8_t *f = b->folded + p->off;
		uint32_t lcp = 0;

		if (prev) {
			uint32_t m = prev_len < p->len ? prev_len : p->len;

			while (lcp < m && prev[lcp] == f[lcp])
				lcp++;
		}
		for (uint32_t d = lcp + 1; d <= p->len; d++) {
			uint32_t parent = path[d - 1], node = b->nnodes++;

			b->ncls[node] = b->cls[f[d - 1]];
			if (b->first[parent] == 0)
				b->first[parent] = node;
			else
				b->sibling[last_child[d - 1]] = node;
			last_child[d - 1] = node;
			path[d] = node;
			last_child[d] = 0;
		}
		b->lit_node[l] = path[p->len];
		prev = f;
		prev_len = p->len;
	}
	free(path);
	return 0;
}

/* BFS renumbering: children contiguous, in class order. */
static int build_bfs(struct ac_build *b)
{
	uint32_t ns = b->nnodes;
	uint32_t *bfs = malloc(sizeof(uint32_t) * ns);
	uint32_t *newid = malloc(sizeof(uint32_t) * ns);
	uint32_t head = 0, tail = 1;

	b->child = malloc(sizeof(uint32_t) * ((size_t)ns + 1));
	b->scls = calloc(ns, 1);
	b->fail = calloc(ns, sizeof(uint32_t));
	if (!bfs || !newid || !b->child || !b->scls || !b->fail) {
		free(bfs);
		free(newid);
		return -1;
	}
	bfs[0] = 0;
	newid[0] = 0;
	while (head < tail) {
		uint32_t old = bfs[head];

		b->child[head] = tail;
		for (uint32_t k = b->first[old]; k; k = b->sibling[k]) {
			newid[k] = tail;
			b->scls[tail] = b->ncls[k];
			bfs[tail++] = k;
		}
		head++;
	}
	b->child[ns] = ns;
	for (uint32_t l = 0; l < b->nlit; l++)
		b->lit_node[l] = newid[b->lit_node[l]];
	free(bfs);
	free(newid);
	free(b->first);
	free(b->sibling);
	free(b->ncls);
	b->first = b->sibling = NULL;
	b->ncls = NULL;
	return 0;
}

/* Transition used while fail links are built: needs only the rows and fail
 * links of states with smaller numbers than the one being built. */
static uint32_t build_delta(const struct ac_build *b, uint32_t s, uint32_t c)
{
	for (;;) {
		if (s < b->ndense)
			return b->rows[((size_t)s << b->shift) + c];
		uint32_t lo = b->child[s], hi = b->child[s + 1];

		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (b->scls[mid] == c)
				return mid;
			if (b->scls[mid] < c)
				lo = mid + 1;
			else
				hi = mid;
		}
		s = b->fail[s];
	}
}

/* Fail links and dense rows in BFS order. Everything state s needs (the
 * fail link of its parent, rows and fail links it walks) has a smaller
 * number, so it is complete by the time s is reached. */
static void build_fail(struct ac_build *b)
{
	size_t stride = (size_t)1 << b->shift;
	uint32_t p = 0;   /* parent of s: child[p] <= s < child[p + 1] */

	for (uint32_t k = b->child[0]; k < b->child[1]; k++)
		b->rows[b->scls[k]] = k;
	b->fail[0] = 0;
	for (uint32_t s = 1; s < b->nnodes; s++) {
		while (b->child[p + 1] <= s)
			p++;
		b->fail[s] = p ? build_delta(b, b->fail[p], b->scls[s]) : 0;
		if (s >= b->ndense)
			continue;
		uint32_t *row = b->rows + (size_t)s * stride;

		memcpy(row, b->rows + (size_t)b->fail[s] * stride, stride * 4);
		for (uint32_t k = b->child[s]; k < b->child[s + 1]; k++)
			row[b->scls[k]] = k;
	}
}

/* Is the filter worth it? It pays when most bytes of ordinary traffic are
 * skipped; many one-byte literals or common pairs make it stop at nearly
 * every byte, and then it only adds a branch. The estimate weighs the
 * bigram map with a crude model of traffic: printable text plus some
 * binary. (qa/bench/MPM.md has the numbers behind the threshold.) */
static int filter_pays(const uint8_t *pref2, const uint8_t *one1,
		       const uint8_t *cls)
{
	double hit = 0, tot = 0;

	for (int x = 0; x < 256; x++) {
		double wx = (x >= 32 && x < 127) || x == '\r' || x == '\n' ? 8 : 1;

		for (int y = 0; y < 256; y++) {
			double wy = (y >= 32 && y < 127) || y == '\r' || y == '\n' ? 8 : 1;
			uint8_t fx = mpm_fold((uint8_t)x), fy = mpm_fold((uint8_t)y);

			tot += wx * wy;
			if (one1[fy] || (cls[fx] && pref2[fx | fy << 8]))
				hit += wx * wy;
		}
	}
	return hit < 0.25 * tot;
}

/* The prefix hashes of the filter: w holds three (four) bytes, first in the
 * low bits. Multiplicative hashing keeps the top bits, which mix them all. */
static inline uint32_t tri_hash(uint32_t w, uint32_t shift)
{
	return ((w | 0x202020u) & 0xffffffu) * 0x9e3779b1u >> shift;
}

static inline uint32_t quad_hash(uint32_t w, uint32_t shift)
{
	return (w | 0x20202020u) * 0x9e3779b1u >> shift;
}

/* A prefix map of 2^bits bits, bits from the number of prefixes: about 64
 * bits per prefix keeps false candidates near 1 in 64 of the positions
 * that reach it; 2^18 bits (32 KiB) at most so the map stays in L1/L2.
 * len3: the literals of exactly 3 bytes, else those of 4 or more. */
static uint8_t *prefix_map(const struct ac_view *v, uint32_t nlit, int len3, uint32_t *bitsp)
{
	uint32_t bits = 10, n = 0;
	uint8_t *map;

	for (uint32_t l = 0; l < nlit; l++)
		n += len3 ? v->lit[l].len == 3 : v->lit[l].len >= 4;
	*bitsp = 0;
	if (!n)
		return NULL;
	while (bits < 18 && (1u << bits) < 64 * n)
		bits++;
	*bitsp = bits;   /* set with a NULL map: out of memory */
	map = calloc((size_t)1 << (bits - 3), 1);
	if (!map)
		return NULL;
	for (uint32_t l = 0; l < nlit; l++) {
		const struct ac_lit *lt = &v->lit[l];
		const uint8_t *f = v->bytes + lt->off;
		uint32_t w, h;

		if (len3 ? lt->len != 3 : lt->len < 4)
			continue;
		w = (uint32_t)f[0] | (uint32_t)f[1] << 8 | (uint32_t)f[2] << 16;
		h = len3 ? tri_hash(w, 32 - bits) : quad_hash(w | (uint32_t)f[3] << 24, 32 - bits);
		map[h >> 3] |= (uint8_t)(1u << (h & 7));
	}
	return map;
}

/* Host-only skip filter (see AcAutomaton): quad[] and tri[] from the
 * literals' 4- and 3-byte prefixes, short2[] from the 1- and 2-byte
 * literals. */
static int build_tri(AcAutomaton *a)
{
	const struct ac_view *v = &a->v;
	uint32_t nlit = a->blk->nlit, nlong = 0;

	for (uint32_t l = 0; l < nlit; l++)
		nlong += v->lit[l].len >= 3;
	/* a byte per pair: the scan's hottest test is then one load */
	a->pair8 = calloc(65536, 1);
	if (!a->pair8)
		return -1;
	/* the map is sparse: visit its set bits only (this runs per automaton,
	 * and the engine builds many) */
	for (uint32_t w = 0; w < 8192; w++)
		for (uint32_t m = v->bigram[w]; m; m &= m - 1)
			a->pair8[w << 3 | (uint32_t)__builtin_ctz(m)] = 1;
	a->quad = prefix_map(v, nlit, 0, &a->quadbits);
	a->tri = prefix_map(v, nlit, 1, &a->tribits);
	if ((a->quadbits && !a->quad) || (a->tribits && !a->tri))
		return -1;
	if (nlong == nlit)
		return 0;

	uint8_t one1[256] = { 0 };
	uint8_t *two = calloc(65536, 1);

	a->short2 = calloc(8192, 1);
	if (!two || !a->short2) {
		free(two);
		return -1;
	}
	for (uint32_t l = 0; l < nlit; l++) {
		const struct ac_lit *lt = &v->lit[l];
		const uint8_t *f = v->bytes + lt->off;

		if (lt->len == 1)
			one1[mpm_fold(f[0])] = 1;
		else if (lt->len == 2)
			two[mpm_fold(f[0]) | mpm_fold(f[1]) << 8] = 1;
	}
	for (uint32_t x = 0; x < 256; x++)
		for (uint32_t y = 0; y < 256; y++)
			if (one1[mpm_fold((uint8_t)y)] ||
			    two[mpm_fold((uint8_t)x) | mpm_fold((uint8_t)y) << 8])
				a->short2[(x | y << 8) >> 3] |= (uint8_t)(1u << (x & 7));
	free(two);
	return 0;
}

/* ---- GPU filter (ac.h): only with the GPU lists; the CPU scan never
 * reads it ---- */

/* gquad size: about 64 bits per literal of 4+ bytes keeps a position that
 * passed gpair from passing gquad by chance near 1 in 64; 2^18 bits
 * (32 KiB) at most, so that gpair + gquad fit a block's shared memory. */
static uint32_t gquad_bits(const struct ac_build *b)
{
	uint32_t n = 0, bits = 10;

	for (uint32_t l = 0; l < b->nlit; l++)
		n += b->pats[b->order[b->lit_first[l]]].len >= 4;
	if (!n)
		return 0;
	while (bits < 18 && (1u << bits) < 64 * n)
		bits++;
	return bits;
}

static size_t gquad_bytes(uint32_t bits)
{
	return bits >= 5 ? (size_t)1 << (bits - 3) : 4;
}

static int build_gpu_filter(const struct ac_build *b, const struct ac_layout *h,
			    uint8_t *blk, const uint32_t *perm)
{
	uint8_t *depth = blk + h->off_gdepth;
	uint32_t *gpair = (uint32_t *)(blk + h->off_gpair);
	uint8_t *gsid = blk + h->off_gsid;
	uint32_t *gquad = (uint32_t *)(blk + h->off_gquad);
	uint8_t *d = malloc(b->nnodes ? b->nnodes : 1);
	uint8_t raw1[256] = { 0 }, exact1[256] = { 0 };
	uint32_t nsid = 0, keybit[512] = { 0 };

	if (!d)
		return -1;
	/* BFS order: a parent's depth is known before its children's */
	d[0] = 0;
	for (uint32_t s = 0; s < b->nnodes; s++)
		for (uint32_t k = b->child[s]; k < b->child[s + 1]; k++)
			d[k] = d[s] == 255 ? 255 : (uint8_t)(d[s] + 1);
	for (uint32_t s = 0; s < b->nnodes; s++)
		depth[perm[s]] = d[s];
	free(d);

	for (uint32_t l = 0; l < b->nlit; l++) {
		const struct ac_pattern *p = &b->pats[b->order[b->lit_first[l]]];
		const uint8_t *f = b->folded + p->off;

		if (p->len == 1) {
			/* the raw bytes the literal matches: both cases if caseless */
			uint8_t r = b->bytes[p->off];

			if (p->nocase) {
				raw1[f[0]] = 1;
				if (f[0] >= 'a' && f[0] <= 'z')
					raw1[f[0] - 32] = 1;
			} else {
				raw1[r] = 1;
				exact1[r] = 1;
			}
			continue;
		}
		uint32_t i = (uint32_t)f[0] | (uint32_t)f[1] << 8;

		gpair[i >> 4] |= (p->len >= 4 ? AC_GP_LONG : AC_GP_SHORT) << ((i & 15) * 2);
		if (p->len >= 4) {
			uint32_t w = (uint32_t)f[0] | (uint32_t)f[1] << 8 |
				     (uint32_t)f[2] << 16 | (uint32_t)f[3] << 24;
			uint32_t q = ac_gquad_hash(w, h->gquadbits);

			gquad[q >> 5] |= 1u << (q & 31);
		}
	}
	/* one bit per folded byte: both cases of a caseless literal's letter
	 * find the same literals. A raw byte that an exact-case literal
	 * matches finds other literals than its other case: a bit of its own
	 * (keys 256 + byte). */
	for (uint32_t r = 0; r < 256; r++) {
		if (!raw1[r])
			continue;
		uint32_t key = exact1[r] ? 256 + r : mpm_fold((uint8_t)r);

		if (!keybit[key])
			keybit[key] = nsid < 32 ? ++nsid : AC_GSID_ALWAYS;
		gsid[r] = (uint8_t)keybit[key];
	}
	return 0;
}

/* ---- the block (ac.h): each step below fills one part of it ---- */

static size_t align8(size_t x)
{
	return (x + 7) & ~(size_t)7;
}

/* The patterns' extent, before anything is allocated: the bytes they use,
 * a bound on the trie's nodes and the longest one. */
static int check_patterns(struct ac_build *b, char *err, size_t errlen)
{
	b->maxnodes = 1;
	for (uint32_t i = 0; i < b->npats; i++) {
		const struct ac_pattern *p = &b->pats[i];

		if (p->len == 0) {
			snprintf(err, errlen, "ac: pattern id %u is empty", p->id);
			return -1;
		}
		if ((size_t)p->off + p->len > b->nbytes)
			b->nbytes = (size_t)p->off + p->len;
		b->maxnodes += p->len;
		if (p->len > b->maxlen)
			b->maxlen = p->len;
	}
	if (b->maxnodes >= AC_NONE / 2) {
		snprintf(err, errlen, "ac: %zu pattern bytes: too many states", b->maxnodes);
		return -1;
	}
	return 0;
}

/* Step 1: the patterns sorted (cmp_lit), equal neighbours one literal. */
static int build_literals(struct ac_build *b)
{
	uint32_t n = b->npats;

	b->folded = malloc(b->nbytes ? b->nbytes : 1);
	b->order = malloc(sizeof(uint32_t) * (n ? n : 1));
	b->lit_first = malloc(sizeof(uint32_t) * ((size_t)n + 1));
	b->lit_node = malloc(sizeof(uint32_t) * (n ? n : 1));
	if (!b->folded || !b->order || !b->lit_first || !b->lit_node)
		return -1;
	for (size_t i = 0; i < b->nbytes; i++)
		b->folded[i] = mpm_fold(b->bytes[i]);
	for (uint32_t i = 0; i < n; i++)
		b->order[i] = i;
	qsort_r(b->order, n, sizeof(uint32_t), cmp_lit, b);
	for (uint32_t i = 0; i < n; i++)
		if (i == 0 || cmp_lit(&b->order[i - 1], &b->order[i], b) != 0)
			b->lit_first[b->nlit++] = i;
	b->lit_first[b->nlit] = n;
	return 0;
}

/* Step 5: the row geometry, how many dense rows the budget holds, then the
 * fail links and the rows themselves. */
static int build_rows(struct ac_build *b, const struct ac_opts *opts)
{
	uint32_t ns = b->nnodes;
	size_t ndense;

	while ((1u << b->shift) < b->nclass)
		b->shift++;
	b->width = (opts->width == 4 || ns > 65536) ? 4 : 2;
	b->stride = (size_t)1 << b->shift;
	ndense = opts->dense_budget / (b->stride * b->width);
	if (ndense < 1)
		ndense = 1;
	if (ndense > ns)
		ndense = ns;
	b->ndense = (uint32_t)ndense;
	/* every row but the root's starts as a copy of its fail state's
	 * (build_fail): zeroing them all first was a memset of megabytes per
	 * automaton, with many automata per engine */
	b->rows = malloc(ndense * b->stride * sizeof(uint32_t));
	if (!b->rows)
		return -1;
	memset(b->rows, 0, b->stride * sizeof(uint32_t));
	build_fail(b);
	return 0;
}

/* Step 6a: output nodes in BFS order. onode_of[s]: the first literal
 * ending at s; mlb[s]: the nearest state of s's suffix chain (s itself
 * included) that owns a node. */
static int build_outputs(struct ac_build *b)
{
	uint32_t ns = b->nnodes;

	b->mlb = malloc(sizeof(uint32_t) * ns);
	b->onode_of = malloc(sizeof(uint32_t) * ns);
	if (!b->mlb || !b->onode_of)
		return -1;
	for (uint32_t s = 0; s < ns; s++)
		b->onode_of[s] = AC_NONE;
	for (uint32_t l = 0; l < b->nlit; l++)
		if (b->onode_of[b->lit_node[l]] == AC_NONE)
			b->onode_of[b->lit_node[l]] = l;
	b->mlb[0] = AC_NONE;
	for (uint32_t s = 1; s < ns; s++)
		b->mlb[s] = b->onode_of[s] != AC_NONE ? s : b->mlb[b->fail[s]];
	return 0;
}

/* Step 6b: the final numbering of the dense states (root, depth-1 without
 * matches, other states without matches, states with matches: the bounds
 * the scan compares with), then the output nodes numbered in that order,
 * which tags their owners' mlb entries. */
static int build_numbering(struct ac_build *b)
{
	uint32_t ns = b->nnodes, nd = b->ndense, w = 1;
	uint32_t *perm, *inv;

	perm = b->perm = malloc(sizeof(uint32_t) * ns);
	inv = b->inv = malloc(sizeof(uint32_t) * ns);
	if (!perm || !inv)
		return -1;
	perm[0] = 0;
	for (uint32_t s = 1; s < nd; s++)
		if (s < b->child[1] && b->mlb[s] == AC_NONE)
			perm[s] = w++;
	b->nfilter = w;
	for (uint32_t s = 1; s < nd; s++)
		if (s >= b->child[1] && b->mlb[s] == AC_NONE)
			perm[s] = w++;
	b->matchlo = w;
	for (uint32_t s = 1; s < nd; s++)
		if (b->mlb[s] != AC_NONE)
			perm[s] = w++;
	for (uint32_t s = nd; s < ns; s++)
		perm[s] = s;
	for (uint32_t s = 0; s < ns; s++)
		inv[perm[s]] = s;
	for (uint32_t f = 0; f < ns; f++) {
		uint32_t s = inv[f];

		if (b->onode_of[s] != AC_NONE)
			b->mlb[s] = b->nonode++ | 0x80000000u;   /* own node, numbered */
	}
	return 0;
}

/* GPU lists: how many (literal, id) entries the states' suffix chains
 * hold, which out[] must index with 32 bits. */
static int count_gpu_out(struct ac_build *b, char *err, size_t errlen)
{
	uint64_t *cnt = calloc(b->nnodes, sizeof(uint64_t));

	if (!cnt) {
		snprintf(err, errlen, "ac: out of memory");
		return -1;
	}
	for (uint32_t l = 0; l < b->nlit; l++)
		cnt[b->lit_node[l]] += b->lit_first[l + 1] - b->lit_first[l];
	for (uint32_t s = 1; s < b->nnodes; s++) {
		cnt[s] += cnt[b->fail[s]];
		b->nout += cnt[s];
	}
	free(cnt);
	if (b->nout > UINT32_MAX) {
		snprintf(err, errlen, "ac: GPU match lists too large (%llu entries)",
			 (unsigned long long)b->nout);
		return -1;
	}
	return 0;
}

/* Step 6c: the header, every array's offset and the block's size. */
static void plan_layout(const struct ac_build *b, int gpu_lists, struct ac_layout *h)
{
	uint32_t ns = b->nnodes, n = b->npats, nlit = b->nlit;
	size_t off = align8(sizeof(struct ac_layout)), nsparse = ns - b->ndense, litbytes = 0;

	for (uint32_t l = 0; l < nlit; l++)
		litbytes += b->pats[b->order[b->lit_first[l]]].len;
	h->magic = AC_MAGIC;
	h->nstates = ns;
	h->ndense = b->ndense;
	h->nclass = b->nclass;
	h->shift = b->shift;
	h->width = b->width;
	h->nfilter = b->nfilter;
	h->matchlo = b->matchlo;
	h->nlit = nlit;
	h->nids = n;
	h->nonode = b->nonode;
	h->npatterns = n;
	h->maxlen = b->maxlen;
	h->off_cls = off;    off = align8(off + 256);
	h->off_bigram = off; off = align8(off + 8192);
	h->off_dense = off;  off = align8(off + (size_t)b->ndense * b->stride * b->width);
	h->off_fail = off;   off = align8(off + nsparse * 4);
	h->off_child = off;  off = align8(off + (nsparse + 1) * 4);
	h->off_scls = off;   off = align8(off + nsparse);
	h->off_mlink = off;  off = align8(off + (size_t)(ns - b->matchlo) * 4);
	h->off_onode = off;  off = align8(off + (size_t)b->nonode * sizeof(struct ac_onode));
	h->off_lit = off;    off = align8(off + ((size_t)nlit + 1) * sizeof(struct ac_lit));
	h->off_ids = off;    off = align8(off + (size_t)n * 4);
	h->off_bytes = off;  off = align8(off + litbytes);
	if (gpu_lists) {
		h->nout = (uint32_t)b->nout;
		h->off_outoff = off; off = align8(off + ((size_t)ns + 1) * 4);
		h->off_out = off;    off = align8(off + (size_t)b->nout * 4);
		h->off_pat = off;    off = align8(off + (size_t)n * sizeof(struct ac_pattern));
		h->gquadbits = gquad_bits(b);
		h->off_gdepth = off; off = align8(off + ns);
		h->off_gpair = off;  off = align8(off + 4096 * 4);
		h->off_gsid = off;   off = align8(off + 256);
		h->off_gquad = off;  off = align8(off + gquad_bytes(h->gquadbits));
	}
	h->size = off;
}

/* The dense rows, renumbered, in the block's entry width. */
static void write_dense(const struct ac_build *b, const struct ac_layout *h, uint8_t *blk)
{
	for (uint32_t s = 0; s < b->ndense; s++) {
		const uint32_t *src = b->rows + (size_t)s * b->stride;
		size_t dst = (size_t)b->perm[s] * b->stride;

		if (b->width == 2) {
			uint16_t *d = (uint16_t *)(blk + h->off_dense) + dst;

			for (uint32_t c = 0; c < b->nclass; c++)
				d[c] = (uint16_t)b->perm[src[c]];
		} else {
			uint32_t *d = (uint32_t *)(blk + h->off_dense) + dst;

			for (uint32_t c = 0; c < b->nclass; c++)
				d[c] = b->perm[src[c]];
		}
	}
}

/* Sparse states keep their BFS numbers; their fail targets may be dense. */
static void write_sparse(const struct ac_build *b, const struct ac_layout *h, uint8_t *blk)
{
	uint32_t *fail = (uint32_t *)(blk + h->off_fail);
	uint32_t *child = (uint32_t *)(blk + h->off_child);
	uint8_t *scls = blk + h->off_scls;
	uint32_t ns = b->nnodes, nd = b->ndense;

	for (size_t s = nd; s < ns; s++) {
		fail[s - nd] = b->perm[b->fail[s]];
		child[s - nd] = b->child[s];
		scls[s - nd] = b->scls[s];
	}
	child[ns - nd] = ns;
}

/* A tagged mlb entry is its own node's number; an untagged one names the
 * state that owns the node. */
static uint32_t onode_ref(const struct ac_build *b, uint32_t t)
{
	if (t != AC_NONE && !(t & 0x80000000u))
		t = b->mlb[t];
	return t == AC_NONE ? AC_NONE : t & 0x7fffffffu;
}

/* mlink per state from matchlo, and the output nodes: each lists the
 * literals ending at its state and links to the next node down the chain. */
static void write_onodes(const struct ac_build *b, const struct ac_layout *h, uint8_t *blk)
{
	uint32_t *mlink = (uint32_t *)(blk + h->off_mlink);
	struct ac_onode *on = (struct ac_onode *)(blk + h->off_onode);
	uint32_t ns = b->nnodes;

	for (uint32_t f = b->matchlo; f < ns; f++)
		mlink[f - b->matchlo] = onode_ref(b, b->mlb[b->inv[f]]);
	for (uint32_t s = 1; s < ns; s++) {
		uint32_t t = b->mlb[s], l0, l1;
		struct ac_onode *o;

		if (t == AC_NONE || !(t & 0x80000000u))
			continue;
		o = &on[t & 0x7fffffffu];
		l0 = l1 = b->onode_of[s];
		while (l1 < b->nlit && b->lit_node[l1] == s)
			l1++;
		o->lit = l0;
		o->nlit = l1 - l0;
		o->next = onode_ref(b, b->mlb[b->fail[s]]);
	}
}

/* The literals (original bytes, one copy each) and their ids. */
static void write_literals(const struct ac_build *b, const struct ac_layout *h, uint8_t *blk)
{
	struct ac_lit *lit = (struct ac_lit *)(blk + h->off_lit);
	uint32_t *ids = (uint32_t *)(blk + h->off_ids);
	uint8_t *lb = blk + h->off_bytes;
	uint32_t boff = 0;

	for (uint32_t l = 0; l < b->nlit; l++) {
		const struct ac_pattern *p = &b->pats[b->order[b->lit_first[l]]];

		lit[l].off = boff;
		lit[l].len = p->len;
		lit[l].nocase = p->nocase;
		lit[l].ids = b->lit_first[l];
		memcpy(lb + boff, b->bytes + p->off, p->len);
		boff += p->len;
		for (uint32_t k = b->lit_first[l]; k < b->lit_first[l + 1]; k++)
			ids[k] = b->pats[b->order[k]].id;
	}
	lit[b->nlit].ids = b->npats;
}

/* GPU lists, in the order ac_report walks the chain: read back from the
 * nodes and literals already in the block. */
static void write_gpu_lists(const struct ac_build *b, const struct ac_layout *h, uint8_t *blk)
{
	const uint32_t *mlink = (const uint32_t *)(blk + h->off_mlink);
	const struct ac_onode *on = (const struct ac_onode *)(blk + h->off_onode);
	const struct ac_lit *lit = (const struct ac_lit *)(blk + h->off_lit);
	const uint32_t *ids = (const uint32_t *)(blk + h->off_ids);
	uint32_t *outoff = (uint32_t *)(blk + h->off_outoff);
	uint32_t *out = (uint32_t *)(blk + h->off_out);
	struct ac_pattern *gp = (struct ac_pattern *)(blk + h->off_pat);
	uint32_t ns = b->nnodes, wr = 0;

	for (uint32_t f = 0; f < ns; f++) {
		outoff[f] = wr;
		if (f < b->matchlo)
			continue;
		for (uint32_t o = mlink[f - b->matchlo]; o != AC_NONE; o = on[o].next)
			for (uint32_t li = on[o].lit; li < on[o].lit + on[o].nlit; li++)
				for (uint32_t k = lit[li].ids; k < lit[li + 1].ids; k++)
					out[wr++] = k;
	}
	outoff[ns] = wr;
	for (uint32_t l = 0; l < b->nlit; l++)
		for (uint32_t k = lit[l].ids; k < lit[l + 1].ids; k++)
			gp[k] = (struct ac_pattern){ .id = ids[k], .off = lit[l].off,
						     .len = lit[l].len, .nocase = lit[l].nocase };
}

/* The bigram filter, and whether the scan should use it (AC_F_FILTER). */
static int build_bigram(const struct ac_build *b, const struct ac_opts *opts,
			struct ac_layout *h, uint8_t *blk)
{
	uint8_t one1[256] = { 0 };
	uint8_t *bg = blk + h->off_bigram;
	uint8_t *pref2 = calloc(65536, 1);

	if (!pref2)
		return -1;
	for (uint32_t l = 0; l < b->nlit; l++) {
		const struct ac_pattern *p = &b->pats[b->order[b->lit_first[l]]];
		const uint8_t *f = b->folded + p->off;

		if (p->len == 1)
			one1[f[0]] = 1;
		else
			pref2[f[0] | f[1] << 8] = 1;
	}
	for (uint32_t x = 0; x < 256; x++)
		for (uint32_t y = 0; y < 256; y++)
			if (one1[mpm_fold((uint8_t)y)] ||
			    pref2[mpm_fold((uint8_t)x) | mpm_fold((uint8_t)y) << 8])
				bg[(x | y << 8) >> 3] |= (uint8_t)(1u << (x & 7));
	if (opts->filter > 0 || (opts->filter < 0 && filter_pays(pref2, one1, b->cls)))
		h->flags |= AC_F_FILTER;
	free(pref2);
	return 0;
}

/* Steps 1-5: literals, classes, trie, BFS numbering, rows; then the
 * output nodes and the final numbering. */
static int build_states(struct ac_build *b, const struct ac_opts *opts)
{
	if (build_literals(b) < 0)
		return -1;
	build_classes(b);
	if (build_trie(b, b->maxnodes, b->maxlen) < 0 || build_bfs(b) < 0 ||
	    build_rows(b, opts) < 0 || build_outputs(b) < 0 || build_numbering(b) < 0)
		return -1;
	return 0;
}

/* Every part of the block from the build's tables; h is written last. */
static int write_block(const struct ac_build *b, const struct ac_opts *opts,
		       struct ac_layout *h, uint8_t *blk)
{
	memcpy(blk + h->off_cls, b->cls, 256);
	write_dense(b, h, blk);
	write_sparse(b, h, blk);
	write_onodes(b, h, blk);
	write_literals(b, h, blk);
	if (opts->gpu_lists) {
		write_gpu_lists(b, h, blk);
		if (build_gpu_filter(b, h, blk, b->perm) < 0)
			return -1;
	}
	if (build_bigram(b, opts, h, blk) < 0)
		return -1;
	memcpy(blk, h, sizeof(*h));
	return 0;
}

AcAutomaton *ac_build_opts(const struct ac_pattern *pats, uint32_t n,
			   const uint8_t *bytes, const struct ac_opts *opts,
			   char *err, size_t errlen)
{
	static const struct ac_opts defopts = AC_OPTS_DEFAULT;
	struct ac_build b = { .pats = pats, .npats = n, .bytes = bytes };
	struct ac_layout h = { 0 };
	AcAutomaton *a = NULL;
	uint8_t *blk = NULL;
	char dummy[8];

	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof(dummy);
	}
	err[0] = '\0';
	if (!opts)
		opts = &defopts;
	if (check_patterns(&b, err, errlen) != 0)
		return NULL;
	if (build_states(&b, opts) < 0)
		goto nomem;
	if (opts->gpu_lists && count_gpu_out(&b, err, errlen) != 0)
		goto out;
	plan_layout(&b, opts->gpu_lists, &h);
	blk = calloc(1, h.size);
	if (!blk) {
		snprintf(err, errlen, "ac: out of memory for %zu bytes of tables", (size_t)h.size);
		goto out;
	}
	if (write_block(&b, opts, &h, blk) < 0)
		goto nomem;
	a = calloc(1, sizeof(*a));
	if (!a)
		goto nomem;
	a->blk = (struct ac_layout *)blk;
	ac_view_init(&a->v, blk, a->blk);
	blk = NULL;
	if ((h.flags & AC_F_FILTER) && build_tri(a) < 0) {
		ac_free(a);
		a = NULL;
		goto nomem;
	}
	goto out;

nomem:
	snprintf(err, errlen, "ac: out of memory");
out:
	free(blk);
	ac_build_release(&b);
	return a;
}

AcAutomaton *ac_build(const struct ac_pattern *pats, uint32_t n,
		      const uint8_t *bytes, size_t dense_budget,
		      char *err, size_t errlen)
{
	struct ac_opts o = AC_OPTS_DEFAULT;

	o.dense_budget = dense_budget;
	o.gpu_lists = 1;
	return ac_build_opts(pats, n, bytes, &o, err, errlen);
}

void ac_free(AcAutomaton *a)
{
	if (!a)
		return;
	free(a->blk);
	free(a->quad);
	free(a->tri);
	free(a->pair8);
	free(a->short2);
	free(a);
}

/* ---- scan ---- */

/* Report the matches of state s (s >= matchlo) at end offset `end`.
 * Returns 1 when the callback asked to stop. *missed is set when an
 * exact-case literal of s did not verify here. */
static __attribute__((noinline)) int
ac_report(const struct ac_view *v, uint32_t s, const uint8_t *buf,
	  uint32_t end, ac_match_fn cb, void *arg, uint32_t *count, int *missed)
{
	for (uint32_t o = v->mlink[s - v->matchlo]; o != AC_NONE; o = v->onode[o].next) {
		const struct ac_onode *on = &v->onode[o];

		for (uint32_t li = on->lit; li < on->lit + on->nlit; li++) {
			const struct ac_lit *l = &v->lit[li];

			if (!l->nocase &&
			    memcmp(buf + end - l->len, v->bytes + l->off, l->len) != 0) {
				*missed = 1;
				continue;
			}
			for (uint32_t k = l->ids; k < l[1].ids; k++) {
				(*count)++;
				if (cb(arg, v->ids[k], end))
					return 1;
			}
		}
	}
	return 0;
}

/* Bit h of a bit map (bigram, short2, tri, quad). */
static inline uint32_t map_hit(const uint8_t *map, uint32_t h)
{
	return (map[h >> 3] >> (h & 7)) & 1;
}

static inline uint32_t bg_hit(const uint8_t *bg, const uint8_t *p)
{
	return map_hit(bg, (uint32_t)p[0] | (uint32_t)p[1] << 8);
}

/* First j >= i (i >= 1) whose pair (buf[j - 1], buf[j]) is in the filter,
 * or len. Four pairs per round: the tests are independent, so they overlap
 * instead of waiting on each other like DFA steps do. */
static inline uint32_t ac_skip(const uint8_t *bg, const uint8_t *buf,
			       uint32_t i, uint32_t len)
{
	while (i + 4 <= len) {
		const uint8_t *p = buf + i - 1;

		if (bg_hit(bg, p) | bg_hit(bg, p + 1) | bg_hit(bg, p + 2) |
		    bg_hit(bg, p + 3))
			break;
		i += 4;
	}
	while (i < len && !bg_hit(bg, buf + i - 1))
		i++;
	return i;
}

/* (p[0], p[1]) as the pair index of the bigram maps, p[0] in the low bits */
static inline uint32_t ld16(const uint8_t *p)
{
	uint16_t x;

	memcpy(&x, p, 2);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap16(x);
#endif
	return x;
}

static inline uint32_t ld24(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
}

/* Is a literal of 3 bytes or more possibly starting at q? `room` bytes
 * from q are in the buffer (at least 3). */
static inline int long_hit(const AcAutomaton *a, const uint8_t *q, uint32_t room)
{
	uint32_t w = ld24(q);

	if (a->tri && map_hit(a->tri, tri_hash(w, 32 - a->tribits)))
		return 1;
	return a->quad && room >= 4 &&
	       map_hit(a->quad, quad_hash(w | (uint32_t)q[3] << 24, 32 - a->quadbits));
}

/* The same contract as ac_skip with the prefix filter: first j >= i
 * (i >= 1) that is a candidate, or len. Eight positions per round from two
 * loads, all tests independent; near the end a position can only start the
 * literals that still fit. */
static inline __attribute__((always_inline)) uint32_t
ac_skip3(const AcAutomaton *a, const uint8_t *buf, uint32_t i, uint32_t len)
{
	const uint8_t *sh2 = a->short2, *bg = a->v.bigram;
	const uint8_t *p8 = a->pair8;
#define P8(k) ((uint32_t)p8[ld16(p + (k))])

	/* the exact pair map (every literal's first two bytes, a superset of
	 * the candidates) first, eight positions per round; the hashes only
	 * where a pair hits, which is rare. A round reads up to buf[i + 9]. */
	while (i + 9 < len) {
		const uint8_t *p = buf + i - 1;
		uint32_t pair = P8(0) | P8(1) << 1 | P8(2) << 2 | P8(3) << 3 |
				P8(4) << 4 | P8(5) << 5 | P8(6) << 6 | P8(7) << 7;

		while (pair) {
			uint32_t k = (uint32_t)__builtin_ctz(pair);
			const uint8_t *q = p + k;

			if ((sh2 && bg_hit(sh2, q)) || long_hit(a, q, 4))
				return i + k;
			pair &= pair - 1;
		}
		i += 8;
	}
#undef P8
	for (; i < len; i++) {
		const uint8_t *p = buf + i - 1;

		if (!bg_hit(bg, p))
			continue;
		if (sh2 && bg_hit(sh2, p))
			break;
		if (i + 1 < len && long_hit(a, p, len - i + 1))
			break;
	}
	return i;
}

/* One scan loop per row width and mode. The hot path is one load and one
 * compare per byte; matches and sparse states leave it.
 *
 * ONCE: the caller wants each id, not each occurrence. A state whose
 * literals all verified at its last report gives the same ids again, so its
 * repeats are skipped: a run of zeros matching |00 00 00 00 00| at every
 * byte is then reported once instead of once per byte. */
#define AC_REPORT(ONCE)								\
	do {									\
		int missed_ = 0;						\
										\
		if (ONCE && s == last)						\
			break;							\
		if (ac_report(v, s, buf, i, cb, arg, &count, &missed_))		\
			return count;						\
		last = missed_ ? UINT32_MAX : s;				\
	} while (0)

#define AC_SCAN_FN(name, T, rows, ONCE)						\
static uint32_t name(const AcAutomaton *a, const uint8_t *buf,		\
		     uint32_t len, ac_match_fn cb, void *arg)			\
{										\
	const struct ac_view *v = &a->v;					\
	const T *d = v->rows;							\
	const uint8_t *cls = v->cls, *bg = v->bigram;				\
	const uint32_t shift = v->shift, matchlo = v->matchlo;			\
	const uint32_t ndense = v->ndense;					\
	const uint32_t nfilter = (v->flags & AC_F_FILTER) ? v->nfilter : 0;	\
	uint32_t s = 0, i = 0, count = 0, last = UINT32_MAX;			\
										\
	while (i < len) {							\
		if (s < nfilter && i > 0) {					\
			uint32_t j = a->pair8 ? ac_skip3(a, buf, i, len) :	\
					     ac_skip(bg, buf, i, len);		\
										\
			if (j != i) {						\
				if (j >= len)					\
					break;					\
				/* depth <= 1: the state is the last byte's */	\
				s = d[cls[buf[j - 1]]];				\
				i = j;						\
				if (s >= ndense) {				\
					s = ac_step_class(v, s, cls[buf[i++]]);	\
					goto check;				\
				}						\
			}							\
		}								\
		s = d[((size_t)s << shift) + cls[buf[i++]]];			\
check:										\
		if (__builtin_expect(s < matchlo, 1))				\
			continue;						\
		while (s >= ndense) {						\
			if (v->mlink[s - matchlo] != AC_NONE)			\
				AC_REPORT(ONCE);				\
			if (i >= len)						\
				return count;					\
			s = ac_step_class(v, s, cls[buf[i++]]);			\
		}								\
		if (s >= matchlo)						\
			AC_REPORT(ONCE);					\
	}									\
	return count;								\
}

AC_SCAN_FN(ac_scan16, uint16_t, d16, 0)
AC_SCAN_FN(ac_scan32, uint32_t, d32, 0)
AC_SCAN_FN(ac_scan16_once, uint16_t, d16, 1)
AC_SCAN_FN(ac_scan32_once, uint32_t, d32, 1)

uint32_t ac_search(const AcAutomaton *a, const uint8_t *buf, uint32_t len,
		   ac_match_fn cb, void *arg)
{
	if (a->v.width == 2)
		return ac_scan16(a, buf, len, cb, arg);
	return ac_scan32(a, buf, len, cb, arg);
}

uint32_t ac_search_once(const AcAutomaton *a, const uint8_t *buf, uint32_t len,
			ac_match_fn cb, void *arg)
{
	if (a->v.width == 2)
		return ac_scan16_once(a, buf, len, cb, arg);
	return ac_scan32_once(a, buf, len, cb, arg);
}
