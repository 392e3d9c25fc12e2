/* Aho-Corasick build and CPU scan. Layout: see ac.h.
 *
 * Build, in steps:
 *   1. alphabet classes from the folded bytes the patterns use;
 *   2. the trie, from the patterns sorted by folded bytes (nodes are made in
 *      DFS order; siblings come out sorted by class);
 *   3. BFS renumbering, so that a node's children are contiguous and every
 *      fail target has a smaller index than the state itself;
 *   4. fail links and the dense rows, in BFS order;
 *   5. match lists (own patterns, then the fail state's list);
 *   6. the tags (AC_MATCH_FLAG) on the dense rows.
 */
#define _GNU_SOURCE   /* qsort_r */

#include "mpm/ac.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline uint8_t ac_fold(uint8_t b)
{
	return (b >= 'A' && b <= 'Z') ? (uint8_t)(b + 32) : b;
}

/* ---- build-time scratch ---- */

struct ac_build {
	const struct ac_pattern *pats;
	uint32_t npats;
	const uint8_t *bytes;
	uint8_t *folded;        /* folded copy of bytes */
	uint8_t cls[256];
	uint32_t nclass;

	/* trie in DFS numbering */
	uint32_t nnodes;
	uint32_t *first;        /* first child (0 = none; the root is never a child) */
	uint32_t *sibling;      /* next sibling (0 = none) */
	uint8_t *ncls;          /* class of the edge into the node */
	uint32_t *term;         /* [npats] terminal node of each pattern (DFS id) */
};

static void ac_build_release(struct ac_build *b)
{
	free(b->folded);
	free(b->first);
	free(b->sibling);
	free(b->ncls);
	free(b->term);
}

/* Lexicographic order on folded bytes, shorter first on a common prefix. */
static int cmp_folded(const void *x, const void *y, void *ctx)
{
	const struct ac_build *sb = ctx;
	const struct ac_pattern *a = &sb->pats[*(const uint32_t *)x];
	const struct ac_pattern *b = &sb->pats[*(const uint32_t *)y];
	uint32_t m = a->len < b->len ? a->len : b->len;
	int r = memcmp(sb->folded + a->off, sb->folded + b->off, m);

	if (r)
		return r;
	return (int)a->len - (int)b->len;
}

static void build_classes(struct ac_build *b)
{
	uint8_t used[256] = { 0 };
	uint8_t fcls[256] = { 0 };
	uint32_t k = 1;

	for (uint32_t i = 0; i < b->npats; i++) {
		const uint8_t *p = b->folded + b->pats[i].off;

		for (uint32_t j = 0; j < b->pats[i].len; j++)
			used[p[j]] = 1;
	}
	/* classes in byte order, so sorting by folded bytes = sorting by class */
	for (int f = 0; f < 256; f++)
		if (used[f])
			fcls[f] = (uint8_t)k++;
	for (int c = 0; c < 256; c++)
		b->cls[c] = fcls[ac_fold((uint8_t)c)];
	b->nclass = k;
}

/* Trie from the sorted patterns: a new pattern shares the path of the
 * previous one up to their common prefix. */
static int build_trie(struct ac_build *b, const uint32_t *order, size_t maxnodes,
		      uint32_t maxlen, char *err, size_t errlen)
{
	uint32_t prev_len = 0;
	const uint8_t *prev = NULL;
	/* path[d]: node at depth d of the previous pattern; last_child[d]: the
	 * youngest child of path[d], to append its next sibling */
	uint32_t *path = malloc(sizeof(uint32_t) * 2 * ((size_t)maxlen + 1));
	uint32_t *last_child = path + maxlen + 1;

	if (!path) {
		snprintf(err, errlen, "ac: out of memory");
		return -1;
	}
	b->first = calloc(maxnodes, sizeof(uint32_t));
	b->sibling = calloc(maxnodes, sizeof(uint32_t));
	b->ncls = calloc(maxnodes, 1);
	b->term = calloc(b->npats ? b->npats : 1, sizeof(uint32_t));
	if (!b->first || !b->sibling || !b->ncls || !b->term) {
		snprintf(err, errlen, "ac: out of memory for %zu trie nodes", maxnodes);
		free(path);
		return -1;
	}
	b->nnodes = 1;
	path[0] = 0;
	last_child[0] = 0;

	for (uint32_t i = 0; i < b->npats; i++) {
		const struct ac_pattern *p = &b->pats[order[i]];
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
		b->term[order[i]] = path[p->len];
		prev = f;
		prev_len = p->len;
	}
	free(path);
	return 0;
}

/* Walk used while fail links are built: untagged, needs only the rows and
 * fail links of states with smaller indexes than the one being built. */
static uint32_t build_delta(const struct ac_view *v, uint32_t s, uint32_t c)
{
	for (;;) {
		if (s < v->ndense)
			return v->dense[(size_t)s * v->nclass + c] & AC_STATE_MASK;
		uint32_t lo = v->child[s], hi = v->child[s + 1];

		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (v->scls[mid] == c)
				return mid;
			if (v->scls[mid] < c)
				lo = mid + 1;
			else
				hi = mid;
		}
		s = v->fail[s];
	}
}

static size_t align8(size_t x)
{
	return (x + 7) & ~(size_t)7;
}

AcAutomaton *ac_build(const struct ac_pattern *pats, uint32_t n,
		      const uint8_t *bytes, size_t dense_budget,
		      char *err, size_t errlen)
{
	struct ac_build b = { .pats = pats, .npats = n, .bytes = bytes };
	AcAutomaton *a = NULL;
	uint32_t *order = NULL, *bfs = NULL, *newid = NULL, *ownoff = NULL;
	uint32_t *ownpat = NULL, *outsize = NULL;
	size_t nbytes = 0, maxnodes = 1;
	uint32_t maxlen = 0;

	if (err && errlen)
		err[0] = '\0';
	for (uint32_t i = 0; i < n; i++) {
		if (pats[i].len == 0) {
			snprintf(err, errlen, "ac: pattern id %u is empty", pats[i].id);
			return NULL;
		}
		if ((size_t)pats[i].off + pats[i].len > nbytes)
			nbytes = (size_t)pats[i].off + pats[i].len;
		maxnodes += pats[i].len;
		if (pats[i].len > maxlen)
			maxlen = pats[i].len;
	}
	if (maxnodes > AC_STATE_MASK) {
		snprintf(err, errlen, "ac: %zu pattern bytes: too many states", maxnodes);
		return NULL;
	}

	b.folded = malloc(nbytes ? nbytes : 1);
	order = malloc(sizeof(uint32_t) * (n ? n : 1));
	if (!b.folded || !order) {
		snprintf(err, errlen, "ac: out of memory");
		goto fail;
	}
	for (size_t i = 0; i < nbytes; i++)
		b.folded[i] = ac_fold(bytes[i]);
	build_classes(&b);
	for (uint32_t i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(uint32_t), cmp_folded, &b);
	if (build_trie(&b, order, maxnodes, maxlen, err, errlen) < 0)
		goto fail;

	uint32_t ns = b.nnodes, nc = b.nclass;

	/* BFS renumbering: bfs[new] = old, newid[old] = new */
	bfs = malloc(sizeof(uint32_t) * ns);
	newid = malloc(sizeof(uint32_t) * ns);
	if (!bfs || !newid) {
		snprintf(err, errlen, "ac: out of memory");
		goto fail;
	}

	/* Dense rows: as many BFS-first states as the budget holds. */
	size_t rowbytes = (size_t)nc * sizeof(uint32_t);
	size_t ndense = dense_budget / rowbytes;

	if (ndense < 1)
		ndense = 1;
	if (ndense > ns)
		ndense = ns;

	/* Block layout; out[], pat[] and bytes are placed once nout is known. */
	struct ac_layout h = { 0 };
	size_t off = align8(sizeof(struct ac_layout));

	h.magic = AC_MAGIC;
	h.nstates = ns;
	h.ndense = (uint32_t)ndense;
	h.nclass = nc;
	h.npatterns = n;
	h.maxlen = maxlen;
	h.off_cls = off;    off = align8(off + 256);
	h.off_dense = off;  off = align8(off + ndense * rowbytes);
	h.off_fail = off;   off = align8(off + (size_t)ns * 4);
	h.off_child = off;  off = align8(off + ((size_t)ns + 1) * 4);
	h.off_scls = off;   off = align8(off + ns);
	h.off_outoff = off; off = align8(off + ((size_t)ns + 1) * 4);
	size_t fixed_end = off;
	uint8_t *blk = calloc(1, fixed_end);

	if (!blk) {
		snprintf(err, errlen, "ac: out of memory for %zu bytes of tables", fixed_end);
		goto fail;
	}
	struct ac_view v;
	uint32_t *fail = (uint32_t *)(blk + h.off_fail);
	uint32_t *child = (uint32_t *)(blk + h.off_child);
	uint8_t *scls = blk + h.off_scls;
	uint32_t *outoff = (uint32_t *)(blk + h.off_outoff);
	uint32_t *dense = (uint32_t *)(blk + h.off_dense);

	memcpy(blk + h.off_cls, b.cls, 256);
	{
		uint32_t head = 0, tail = 1;

		bfs[0] = 0;
		newid[0] = 0;
		while (head < tail) {
			uint32_t old = bfs[head];

			child[head] = tail;
			for (uint32_t k = b.first[old]; k; k = b.sibling[k]) {
				newid[k] = tail;
				scls[tail] = b.ncls[k];
				bfs[tail++] = k;
			}
			head++;
		}
		child[ns] = ns;
	}
	/* Fail links and untagged dense rows in BFS order. Everything state s
	 * needs (the fail link of its parent, rows and fail links it walks)
	 * has a smaller index, so it is complete by the time s is reached. */
	ac_view_init(&v, blk, &h);
	fail[0] = 0;
	for (uint32_t k = child[0]; k < child[1]; k++)
		dense[scls[k]] = k;
	{
		uint32_t p = 0;   /* parent of s: child[p] <= s < child[p + 1] */

		for (uint32_t s = 1; s < ns; s++) {
			while (child[p + 1] <= s)
				p++;
			fail[s] = p ? build_delta(&v, fail[p], scls[s]) : 0;
			if (s >= ndense)
				continue;
			uint32_t *row = dense + (size_t)s * nc;

			memcpy(row, dense + (size_t)fail[s] * nc, rowbytes);
			for (uint32_t k = child[s]; k < child[s + 1]; k++)
				row[scls[k]] = k;
		}
	}

	/* own patterns per state, as a counting sort by terminal state */
	ownoff = calloc((size_t)ns + 1, sizeof(uint32_t));
	ownpat = malloc(sizeof(uint32_t) * (n ? n : 1));
	outsize = calloc(ns, sizeof(uint32_t));
	if (!ownoff || !ownpat || !outsize) {
		free(blk);
		snprintf(err, errlen, "ac: out of memory");
		goto fail;
	}
	for (uint32_t i = 0; i < n; i++)
		ownoff[newid[b.term[i]] + 1]++;
	for (uint32_t s = 0; s < ns; s++)
		ownoff[s + 1] += ownoff[s];
	{
		uint32_t *fill = malloc(sizeof(uint32_t) * ns);

		if (!fill) {
			free(blk);
			snprintf(err, errlen, "ac: out of memory");
			goto fail;
		}
		memcpy(fill, ownoff, sizeof(uint32_t) * ns);
		/* in sorted order, so ties keep the patterns' sorted order */
		for (uint32_t i = 0; i < n; i++) {
			uint32_t pi = order[i], st = newid[b.term[pi]];

			ownpat[fill[st]++] = pi;
		}
		free(fill);
	}
	uint64_t nout = 0;

	for (uint32_t s = 0; s < ns; s++) {
		uint64_t sz = (ownoff[s + 1] - ownoff[s]) +
			      (s ? (uint64_t)outsize[fail[s]] : 0);

		if (sz > UINT32_MAX) {
			free(blk);
			snprintf(err, errlen, "ac: match lists too large");
			goto fail;
		}
		outsize[s] = (uint32_t)sz;
		outoff[s] = (uint32_t)nout;
		nout += sz;
	}
	if (nout > UINT32_MAX) {
		free(blk);
		snprintf(err, errlen, "ac: match lists too large (%llu entries)",
			 (unsigned long long)nout);
		goto fail;
	}
	outoff[ns] = (uint32_t)nout;
	h.nout = (uint32_t)nout;
	off = fixed_end;
	h.off_out = off;    off = align8(off + nout * 4);
	h.off_pat = off;    off = align8(off + (size_t)n * sizeof(struct ac_pattern));
	h.off_bytes = off;  off = align8(off + nbytes);
	h.size = off;

	uint8_t *nblk = realloc(blk, off);

	if (!nblk) {
		free(blk);
		snprintf(err, errlen, "ac: out of memory for %zu bytes of tables", off);
		goto fail;
	}
	blk = nblk;
	memset(blk + fixed_end, 0, off - fixed_end);
	fail = (uint32_t *)(blk + h.off_fail);
	outoff = (uint32_t *)(blk + h.off_outoff);
	dense = (uint32_t *)(blk + h.off_dense);
	{
		uint32_t *out = (uint32_t *)(blk + h.off_out);

		for (uint32_t s = 0; s < ns; s++) {
			uint32_t w = outoff[s];

			for (uint32_t k = ownoff[s]; k < ownoff[s + 1]; k++)
				out[w++] = ownpat[k];
			if (s) {
				uint32_t f = fail[s];

				memcpy(out + w, out + outoff[f],
				       sizeof(uint32_t) * (outoff[f + 1] - outoff[f]));
			}
		}
	}
	if (n)
		memcpy(blk + h.off_pat, pats, (size_t)n * sizeof(struct ac_pattern));
	if (nbytes)
		memcpy(blk + h.off_bytes, bytes, nbytes);
	/* tag the dense rows: the scan loop tests one bit per byte */
	for (size_t i = 0; i < ndense * nc; i++) {
		uint32_t t = dense[i];

		if (outoff[t + 1] != outoff[t])
			dense[i] = t | AC_MATCH_FLAG;
	}
	memcpy(blk, &h, sizeof(h));

	a = calloc(1, sizeof(*a));
	if (!a) {
		free(blk);
		snprintf(err, errlen, "ac: out of memory");
		goto fail;
	}
	a->blk = (struct ac_layout *)blk;
	ac_view_init(&a->v, blk, a->blk);

fail:
	free(order);
	free(bfs);
	free(newid);
	free(ownoff);
	free(ownpat);
	free(outsize);
	ac_build_release(&b);
	return a;
}

void ac_free(AcAutomaton *a)
{
	if (!a)
		return;
	free(a->blk);
	free(a);
}

/* Report the matches of tagged state st at end offset `end`. Returns 1
 * when the callback asked to stop. */
static int ac_report(const struct ac_view *v, uint32_t st, const uint8_t *buf,
		     uint32_t end, ac_match_fn cb, void *arg, uint32_t *count)
{
	uint32_t s = st & AC_STATE_MASK;

	for (uint32_t k = v->outoff[s]; k < v->outoff[s + 1]; k++) {
		const struct ac_pattern *p = &v->pat[v->out[k]];

		if (!p->nocase &&
		    memcmp(buf + end - p->len, v->bytes + p->off, p->len) != 0)
			continue;
		(*count)++;
		if (cb(arg, p->id, end))
			return 1;
	}
	return 0;
}

uint32_t ac_search(const AcAutomaton *a, const uint8_t *buf, uint32_t len,
		   ac_match_fn cb, void *arg)
{
	const struct ac_view v = a->v;
	uint32_t st = 0, count = 0;

	for (uint32_t i = 0; i < len; i++) {
		uint32_t s = st & AC_STATE_MASK;
		uint32_t c = v.cls[buf[i]];

		if (__builtin_expect(s < v.ndense, 1))
			st = v.dense[(size_t)s * v.nclass + c];
		else
			st = c ? ac_next_sparse(&v, s, c) : 0;
		if (__builtin_expect(st & AC_MATCH_FLAG, 0) &&
		    ac_report(&v, st, buf, i + 1, cb, arg, &count))
			break;
	}
	return count;
}
