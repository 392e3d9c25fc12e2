/* Run literals: see runs.h. */
#include "config.h"

#include "mpm/runs.h"

#include <stdlib.h>
#include <string.h>

/* One literal: a run of at least len bytes equal to byte (folded when
 * nocase), reported as id. */
struct run_lit {
	uint32_t id;
	uint16_t len;
	uint8_t byte;     /* folded when nocase */
	uint8_t nocase;   /* only for a letter: elsewhere folding is identity */
};

struct MpmRuns {
	uint32_t n;
	uint16_t min_len;             /* the sampling step */
	/* the literals a sampled byte c may start, as indexes into lit:
	 * by[first[c]] .. by[first[c + 1] - 1]; a nocase letter's literal is
	 * listed under both cases */
	uint16_t first[257];
	uint8_t listed[256];          /* 1: first[c] < first[c + 1] */
	uint8_t *by;
	struct run_lit *lit;
};

static inline int is_letter(uint8_t b)
{
	b = mpm_fold(b);
	return b >= 'a' && b <= 'z';
}

int mpm_run_literal(const struct ac_pattern *p, const uint8_t *bytes)
{
	const uint8_t *b = bytes + p->off;

	if (p->len < MPM_RUN_MIN_LEN)
		return 0;
	for (uint32_t i = 1; i < p->len; i++)
		if (p->nocase ? mpm_fold(b[i]) != mpm_fold(b[0]) : b[i] != b[0])
			return 0;
	return 1;
}

static int lit_has_byte(const struct run_lit *l, unsigned c)
{
	return l->nocase ? mpm_fold((uint8_t)c) == l->byte : c == l->byte;
}

MpmRuns *mpm_runs_build(const struct ac_pattern *pats, uint32_t n, const uint8_t *bytes)
{
	MpmRuns *r;
	uint32_t nby = 0;

	if (n > MPM_RUNS_MAX || !(r = calloc(1, sizeof(*r))))
		return NULL;
	r->lit = calloc(n ? n : 1, sizeof(*r->lit));
	r->by = malloc(2 * (n ? n : 1));
	if (!r->lit || !r->by) {
		mpm_runs_free(r);
		return NULL;
	}
	r->n = n;
	r->min_len = UINT16_MAX;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t b = bytes[pats[i].off];
		int nc = pats[i].nocase && is_letter(b);

		r->lit[i] = (struct run_lit){ .id = pats[i].id, .len = pats[i].len,
					      .byte = nc ? mpm_fold(b) : b, .nocase = (uint8_t)nc };
		if (pats[i].len < r->min_len)
			r->min_len = pats[i].len;
	}
	for (unsigned c = 0; c < 256; c++) {
		r->first[c] = (uint16_t)nby;
		for (uint32_t i = 0; i < n; i++)
			if (lit_has_byte(&r->lit[i], c))
				r->by[nby++] = (uint8_t)i;
		r->listed[c] = nby > r->first[c];
	}
	r->first[256] = (uint16_t)nby;
	return r;
}

void mpm_runs_free(MpmRuns *r)
{
	if (!r)
		return;
	free(r->lit);
	free(r->by);
	free(r);
}

size_t mpm_runs_memory(const MpmRuns *r)
{
	return r ? sizeof(*r) + r->n * (sizeof(*r->lit) + 2) : 0;
}

uint32_t mpm_runs_count(const MpmRuns *r)
{
	return r ? r->n : 0;
}

/* The run of bytes equal to l's byte, folded, that holds offset i:
 * [*start, end). */
static uint32_t folded_extent(const struct run_lit *l, const uint8_t *buf, uint32_t len,
			      uint32_t i, uint32_t *start)
{
	uint32_t s = i, e = i + 1;

	while (s > 0 && mpm_fold(buf[s - 1]) == l->byte)
		s--;
	while (e < len && mpm_fold(buf[e]) == l->byte)
		e++;
	*start = s;
	return e;
}

uint32_t mpm_runs_scan(const MpmRuns *r, const uint8_t *buf, uint32_t len, mpm_match_fn cb,
		       void *arg)
{
	const uint64_t all = r->n == 64 ? ~0ULL : (1ULL << r->n) - 1;
	const size_t step = r->min_len, n = len;
	uint64_t seen = 0;
	uint32_t nrep = 0;

	if (!r->n || len < r->min_len)
		return 0;
	/* any `step` consecutive offsets hold a sampled one; most sampled
	 * bytes are no literal's, and the loop that passes them is the
	 * finder's cost */
	for (size_t i = step - 1;;) {
		/* four samples a test while none is listed: the loads are
		 * independent, the branch is taken once per 4 * step bytes */
		while (i + 3 * step < n &&
		       !(r->listed[buf[i]] | r->listed[buf[i + step]] |
			 r->listed[buf[i + 2 * step]] | r->listed[buf[i + 3 * step]]))
			i += 4 * step;
		while (i < n && !r->listed[buf[i]])
			i += step;
		if (i >= n)
			break;

		const uint8_t c = buf[i];
		size_t s0 = i, e0 = i + 1;

		/* the run of c itself: a literal whose run holds any of its
		 * offsets takes c, so is one of those listed under c, and
		 * sampling may resume past it */
		while (s0 > 0 && buf[s0 - 1] == c)
			s0--;
		while (e0 < n && buf[e0] == c)
			e0++;
		for (unsigned k = r->first[c]; k < r->first[c + 1]; k++) {
			const unsigned li = r->by[k];
			const struct run_lit *l = &r->lit[li];
			uint32_t s = (uint32_t)s0, e = (uint32_t)e0;

			if (seen & (1ULL << li))
				continue;
			if (l->nocase)
				e = folded_extent(l, buf, len, (uint32_t)i, &s);
			if (e - s < l->len)
				continue;
			seen |= 1ULL << li;
			nrep++;
			if (cb(arg, l->id, s + l->len) || seen == all)
				return nrep;
		}
		i = e0 + step - 1 > i + step ? e0 + step - 1 : i + step;
	}
	return nrep;
}
