/* Hyperscan matcher: every distinct literal (bytes, nocase) is one Hyperscan
 * expression in block mode; Hyperscan reports the expression index and the
 * end offset, which are translated to the pattern ids sharing the literal. */
#include "config.h"

#ifdef HAVE_HYPERSCAN

#define _GNU_SOURCE   /* qsort_r */

#include "mpm/hs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hs.h>

struct MpmHs {
	hs_database_t *db;       /* NULL when there is no pattern */
	uint32_t nexpr;
	uint32_t *idoff;         /* [nexpr + 1] into ids */
	uint32_t *ids;           /* pattern ids, grouped by expression */
	size_t db_size;
};

struct hs_sort {
	const struct ac_pattern *pats;
	const uint8_t *bytes;
};

/* Same literal: same nocase flag, same length, and the same bytes (folded
 * for nocase). */
static int cmp_literal(const void *x, const void *y, void *ctx)
{
	const struct hs_sort *c = ctx;
	const struct ac_pattern *a = &c->pats[*(const uint32_t *)x];
	const struct ac_pattern *b = &c->pats[*(const uint32_t *)y];

	if (a->nocase != b->nocase)
		return (int)a->nocase - (int)b->nocase;
	if (a->len != b->len)
		return (int)a->len - (int)b->len;
	const uint8_t *pa = c->bytes + a->off, *pb = c->bytes + b->off;

	if (!a->nocase)
		return memcmp(pa, pb, a->len);
	for (uint32_t i = 0; i < a->len; i++) {
		int d = (int)mpm_fold(pa[i]) - (int)mpm_fold(pb[i]);

		if (d)
			return d;
	}
	return 0;
}

void mpm_hs_free(MpmHs *h)
{
	if (!h)
		return;
	hs_free_database(h->db);
	free(h->idoff);
	free(h->ids);
	free(h);
}

MpmHs *mpm_hs_build(const struct ac_pattern *pats, uint32_t n,
		    const uint8_t *bytes, int single, char *err, size_t errlen)
{
	MpmHs *h = calloc(1, sizeof(*h));
	uint32_t *order = malloc(sizeof(uint32_t) * (n ? n : 1));
	const char **expr = malloc(sizeof(char *) * (n ? n : 1));
	unsigned *flags = malloc(sizeof(unsigned) * (n ? n : 1));
	unsigned *hsid = malloc(sizeof(unsigned) * (n ? n : 1));
	size_t *lens = malloc(sizeof(size_t) * (n ? n : 1));
	struct hs_sort sc = { pats, bytes };

	if (!h || !order || !expr || !flags || !hsid || !lens)
		goto nomem;
	h->idoff = malloc(sizeof(uint32_t) * ((size_t)n + 1));
	h->ids = malloc(sizeof(uint32_t) * (n ? n : 1));
	if (!h->idoff || !h->ids)
		goto nomem;

	for (uint32_t i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(uint32_t), cmp_literal, &sc);
	for (uint32_t i = 0; i < n; i++) {
		const struct ac_pattern *p = &pats[order[i]];

		if (i == 0 || cmp_literal(&order[i - 1], &order[i], &sc) != 0) {
			uint32_t e = h->nexpr++;

			h->idoff[e] = i;
			expr[e] = (const char *)(bytes + p->off);
			lens[e] = p->len;
			flags[e] = (p->nocase ? HS_FLAG_CASELESS : 0) |
				   (single ? HS_FLAG_SINGLEMATCH : 0);
			hsid[e] = e;
		}
		h->ids[i] = p->id;
	}
	h->idoff[h->nexpr] = n;

	if (h->nexpr) {
		hs_compile_error_t *ce = NULL;

		if (hs_compile_lit_multi(expr, flags, hsid, lens, h->nexpr,
					 HS_MODE_BLOCK, NULL, &h->db, &ce) != HS_SUCCESS) {
			snprintf(err, errlen, "hs: compiling %u literals failed: %s",
				 h->nexpr, ce && ce->message ? ce->message : "unknown");
			hs_free_compile_error(ce);
			goto fail;
		}
		if (hs_database_size(h->db, &h->db_size) != HS_SUCCESS)
			h->db_size = 0;
	}
	free(order);
	free(expr);
	free(flags);
	free(hsid);
	free(lens);
	return h;

nomem:
	snprintf(err, errlen, "hs: out of memory");
fail:
	free(order);
	free(expr);
	free(flags);
	free(hsid);
	free(lens);
	mpm_hs_free(h);
	return NULL;
}

size_t mpm_hs_memory(const MpmHs *h)
{
	return h->db_size + sizeof(uint32_t) * ((size_t)h->nexpr + 1 +
						h->idoff[h->nexpr]);
}

int mpm_hs_scratch_new(const MpmHs *h, void **out)
{
	hs_scratch_t *s = NULL;

	*out = NULL;
	if (!h->db)
		return 0;
	if (hs_alloc_scratch(h->db, &s) != HS_SUCCESS)
		return -1;
	*out = s;
	return 0;
}

void mpm_hs_scratch_free(void *scratch)
{
	if (scratch)
		hs_free_scratch(scratch);
}

struct hs_cb_ctx {
	const MpmHs *h;
	mpm_match_fn cb;
	void *arg;
	uint32_t count;
};

static int hs_on_match(unsigned int id, unsigned long long from,
		       unsigned long long to, unsigned int flags, void *ctx)
{
	struct hs_cb_ctx *c = ctx;

	for (uint32_t k = c->h->idoff[id]; k < c->h->idoff[id + 1]; k++) {
		c->count++;
		if (c->cb(c->arg, c->h->ids[k], (uint32_t)to))
			return 1;   /* Hyperscan stops the scan */
	}
	return 0;
}

uint32_t mpm_hs_search(const MpmHs *h, void *scratch, const uint8_t *buf,
		       uint32_t len, mpm_match_fn cb, void *arg)
{
	struct hs_cb_ctx c = { h, cb, arg, 0 };

	if (!h->db || !scratch)
		return 0;
	/* HS_SCAN_TERMINATED when the callback stopped it: not an error */
	hs_scan(h->db, (const char *)buf, len, 0, scratch, hs_on_match, &c);
	return c.count;
}

#endif /* HAVE_HYPERSCAN */
