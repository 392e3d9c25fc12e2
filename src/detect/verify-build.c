/* Rule programs for the device: see verify-build.h and
 * cuda/verify-kernel.h for what they mean. */
#include "detect/verify-build.h"
#include "detect/engine-int.h"
#include "detect/transform.h"

#include <stdlib.h>
#include <string.h>

_Static_assert(ACV_RECURSION_LIMIT == DETECT_RECURSION_LIMIT,
	       "the device's recursion limit must be the CPU's");
_Static_assert(ACV_MEMO_MAX == INSPECT_MEMO_MAX, "the device's memo must be the CPU's");

struct gtab {
	uint32_t npat;
	uint32_t *off;      /* npat + 1 */
	uint32_t *progs;
};

struct VerifyBuild {
	struct acv_prog *prog;
	uint32_t nprog, cprog;
	struct acv_step *step;
	uint32_t nstep, cstep;
	uint8_t *bytes;
	uint32_t nbytes, cbytes;
	struct gtab *g;
	uint32_t ng;
};

static int grow(void **p, uint32_t *cap, uint32_t need, size_t elem)
{
	uint32_t c = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	q = realloc(*p, (size_t)c * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

VerifyBuild *verify_build_new(void)
{
	return calloc(1, sizeof(VerifyBuild));
}

void verify_build_free(VerifyBuild *vb)
{
	if (!vb)
		return;
	for (uint32_t i = 0; i < vb->ng; i++) {
		free(vb->g[i].off);
		free(vb->g[i].progs);
	}
	free(vb->g);
	free(vb->prog);
	free(vb->step);
	free(vb->bytes);
	free(vb);
}

/* One list element as a step; 0 when the device does not evaluate it
 * (the step is then ACV_REST). */
static int step_of(VerifyBuild *vb, const SigMatch *m, struct acv_step *st, int *oom)
{
	memset(st, 0, sizeof(*st));
	if (m->relative_next)
		st->flags |= ACV_REL_NEXT;
	if (m->kw == KW_CONTENT) {
		const DetectContent *cd = m->cd;
		uint32_t f = cd->flags;

		if (f & (CONTENT_OFFSET_VAR | CONTENT_DEPTH_VAR | CONTENT_DISTANCE_VAR |
			 CONTENT_WITHIN_VAR))
			return 0;
		st->op = ACV_CONTENT;
		st->flags |= (f & CONTENT_NOCASE ? ACV_NOCASE : 0) |
			     (f & CONTENT_NEGATED ? ACV_NEGATED : 0) |
			     (f & CONTENT_OFFSET ? ACV_OFFSET : 0) |
			     (f & CONTENT_DEPTH ? ACV_DEPTH : 0) |
			     (f & CONTENT_DISTANCE ? ACV_DISTANCE : 0) |
			     (f & CONTENT_WITHIN ? ACV_WITHIN : 0) |
			     (f & CONTENT_ENDSWITH ? ACV_ENDSWITH : 0);
		if (f & (CONTENT_DISTANCE | CONTENT_WITHIN)) {
			st->a = cd->distance;
			st->b = cd->within;
		} else {
			st->a = cd->offset;
			st->b = cd->depth;
		}
		st->len = cd->len;
		st->pat = vb->nbytes;
		if (grow((void **)&vb->bytes, &vb->cbytes, vb->nbytes + cd->len + 1, 1) != 0) {
			*oom = 1;
			return 0;
		}
		memcpy(vb->bytes + vb->nbytes, cd->pat, cd->len);
		vb->nbytes += cd->len;
		return 1;
	}
	if (m->kw == KW_ISDATAAT) {
		const DetectIsdataat *id = m->ctx;

		if (id->flags & ISDATAAT_VAR)
			return 0;
		st->op = ACV_ISDATAAT;
		st->flags |= (id->flags & ISDATAAT_RELATIVE ? ACV_RELATIVE : 0) |
			     (id->flags & ISDATAAT_NEGATED ? ACV_NEGATED : 0);
		st->a = id->dataat;
		return 1;
	}
	return 0;
}

/* A length condition (dsize, bsize: detect_uint_match on the length) as
 * the program's length range; none: any length. */
static void len_range(const DetectUint *u, struct acv_prog *pg)
{
	int64_t lo = 0, hi = 65535;

	pg->dlo = 0;
	pg->dhi = 65535;
	pg->dnot = 0;
	if (!u)
		return;
	switch (u->mode) {
	case UM_EQ: case UM_NE: lo = hi = (int64_t)u->a; break;
	case UM_LT: hi = (int64_t)u->a - 1; break;
	case UM_LTE: hi = (int64_t)u->a; break;
	case UM_GT: lo = (int64_t)u->a + 1; break;
	case UM_GTE: lo = (int64_t)u->a; break;
	case UM_RANGE: case UM_NOT_RANGE: lo = (int64_t)u->a + 1; hi = (int64_t)u->b - 1; break;
	case UM_BAND_EQ: case UM_BAND_NE: return;   /* any length may match */
	}
	pg->dnot = u->mode == UM_NE || u->mode == UM_NOT_RANGE;
	if (lo > hi) {
		/* no length lies in it: never (or, negated, always) */
		lo = 1;
		hi = 0;
	}
	pg->dlo = (uint16_t)(lo < 0 ? 0 : lo > 65535 ? 65535 : lo);
	pg->dhi = (uint16_t)(hi < 0 ? 0 : hi > 65535 ? 65535 : hi);
	if (lo > 65535 || hi < 0) {
		pg->dlo = 1;
		pg->dhi = 0;
	}
}

/* The rule's dsize (match_dsize in content.c): a packet keyword the
 * payload program takes as its length range. */
static const DetectUint *dsize_of(const Signature *s)
{
	const SigMatchList *ml = &s->lists[SM_LIST_MATCH];
	const DetectUint *u = NULL;

	for (int i = 0; i < ml->n; i++)
		if (ml->m[i].kw == KW_DSIZE)
			u = ml->m[i].ctx;
	return u;
}

int verify_build_prog(VerifyBuild *vb, const Signature *s, int list, uint32_t rule,
		      int *exact, int *oom)
{
	const SigMatchList *ml = &s->lists[list];
	uint32_t first = vb->nstep, nbytes0 = vb->nbytes;
	int n = 0, rest = 0;
	const DetectUint *blen = NULL;
	struct acv_prog *pg;

	*exact = 0;
	*oom = 0;
	if (ml->n == 0)
		return -1;
	/* a transformed list is inspected on the transform's output, which
	 * the device does not make */
	if (list != BUF_PAYLOAD && sig_list_chain(s, list))
		return -1;
	for (int i = 0; i < ml->n && !rest; i++) {
		struct acv_step st;

		/* bsize checks the buffer's length wherever it stands and
		 * passes the position on (bsize_step): the program's length
		 * range, as dsize is a payload's; a second one is the CPU's */
		if (list != BUF_PAYLOAD && ml->m[i].kw == KW_BSIZE && !blen) {
			blen = ml->m[i].ctx;
			continue;
		}

		if (grow((void **)&vb->step, &vb->cstep, vb->nstep + 1, sizeof(st)) != 0) {
			*oom = 1;
			break;
		}
		if (n == ACV_STEPS_MAX - 1 || !step_of(vb, &ml->m[i], &st, oom)) {
			if (*oom)
				break;
			memset(&st, 0, sizeof(st));
			st.op = ACV_REST;
			rest = 1;
		}
		vb->step[vb->nstep++] = st;
		n++;
	}
	/* nothing the device decides, or out of memory: no program */
	if (*oom || n == 0 || vb->step[first].op == ACV_REST ||
	    grow((void **)&vb->prog, &vb->cprog, vb->nprog + 1, sizeof(*pg)) != 0) {
		if (!*oom && n && vb->step[first].op != ACV_REST)
			*oom = 1;
		vb->nstep = first;
		vb->nbytes = nbytes0;
		return -1;
	}
	pg = &vb->prog[vb->nprog];
	memset(pg, 0, sizeof(*pg));
	len_range(list == BUF_PAYLOAD ? dsize_of(s) : blen, pg);
	pg->step = first;
	pg->nsteps = (uint16_t)n;
	pg->memo = s->nvars == 0;
	pg->exact = !rest;
	pg->rule = rule;
	*exact = pg->exact;
	return (int)vb->nprog++;
}

int verify_build_group(VerifyBuild *vb, uint32_t g, uint32_t npat, const uint32_t *off,
		       const uint32_t *progs)
{
	struct gtab *t;

	if (g >= vb->ng) {
		struct gtab *n = realloc(vb->g, (size_t)(g + 1) * sizeof(*n));

		if (!n)
			return -1;
		memset(n + vb->ng, 0, (size_t)(g + 1 - vb->ng) * sizeof(*n));
		vb->g = n;
		vb->ng = g + 1;
	}
	t = &vb->g[g];
	free(t->off);
	free(t->progs);
	t->npat = npat;
	t->off = malloc(((size_t)npat + 1) * sizeof(*t->off));
	t->progs = malloc(((size_t)off[npat] + 1) * sizeof(*t->progs));
	if (!t->off || !t->progs)
		return -1;
	memcpy(t->off, off, ((size_t)npat + 1) * sizeof(*off));
	memcpy(t->progs, progs, (size_t)off[npat] * sizeof(*progs));
	return 0;
}

static size_t align8(size_t v)
{
	return (v + 7) & ~(size_t)7;
}

int verify_build_finish(VerifyBuild *vb, uint32_t ngroups, void **blk, size_t *size,
			struct acv_layout *lay)
{
	size_t off = 0, sz;
	uint8_t *b;
	struct acv_gtab *gt;

	memset(lay, 0, sizeof(*lay));
	lay->nprog = vb->nprog;
	lay->ngroups = ngroups;
	lay->off_prog = off;
	off = align8(off + (size_t)vb->nprog * sizeof(struct acv_prog));
	lay->off_step = off;
	off = align8(off + (size_t)vb->nstep * sizeof(struct acv_step));
	lay->off_bytes = off;
	off = align8(off + vb->nbytes);
	lay->off_gtab = off;
	off = align8(off + (size_t)ngroups * sizeof(struct acv_gtab));
	sz = off;
	for (uint32_t g = 0; g < ngroups && g < vb->ng; g++)
		if (vb->g[g].off)
			sz += align8(((size_t)vb->g[g].npat + 1) * 4) +
			      align8((size_t)vb->g[g].off[vb->g[g].npat] * 4 + 4);
	b = calloc(1, sz ? sz : 1);
	if (!b)
		return -1;
	if (vb->nprog)
		memcpy(b + lay->off_prog, vb->prog, (size_t)vb->nprog * sizeof(struct acv_prog));
	if (vb->nstep)
		memcpy(b + lay->off_step, vb->step, (size_t)vb->nstep * sizeof(struct acv_step));
	if (vb->nbytes)
		memcpy(b + lay->off_bytes, vb->bytes, vb->nbytes);
	gt = (struct acv_gtab *)(b + lay->off_gtab);
	for (uint32_t g = 0; g < ngroups && g < vb->ng; g++) {
		const struct gtab *t = &vb->g[g];
		size_t n;

		if (!t->off)
			continue;
		n = ((size_t)t->npat + 1) * 4;
		gt[g].npat = t->npat;
		gt[g].pat_off = off;
		memcpy(b + off, t->off, n);
		off += align8(n);
		gt[g].prog_ids = off;
		memcpy(b + off, t->progs, (size_t)t->off[t->npat] * 4);
		off += align8((size_t)t->off[t->npat] * 4 + 4);
	}
	*blk = b;
	*size = sz;
	return 0;
}
