/* Port groups: one protocol class and direction split by the packet's
 * port on one side, so that a packet meets only the fast patterns of the
 * rules that can match its port (see PortGroups in engine-int.h). Ports
 * whose rule sets are equal share a group; past PG_MAX_GROUPS the smallest
 * sets are merged into one. Each group is then built by build-groups.c. */
#include "detect/build.h"

#include "util/log.h"

#include <stdlib.h>
#include <string.h>

/* Server ports that keep a group of their own however few rules they add:
 * the busiest services should not share the merged group. (Suricata's
 * whitelists are longer; each group here is an automaton to build.) */
static const uint16_t pg_keep_tcp[] = { 53, 80, 443 };
static const uint16_t pg_keep_udp[] = { 53 };

/* The rule's port sets on the key side (0 dp, 1 sp; both for <>, whose
 * sides may swap). 1: any port. */
static int sig_key_ports(const Signature *s, int side, const PortSet *ps[2])
{
	ps[0] = side ? &s->sp : &s->dp;
	ps[1] = NULL;
	if (s->flags & SIG_FLAG_BIDIR) {
		ps[0] = &s->sp;
		ps[1] = &s->dp;
	}
	for (int k = 0; k < 2; k++)
		if (ps[k] && (ps[k]->any || ps[k]->n == 0))
			return 1;
	return 0;
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Index of the interval starting at port v (v is a boundary). */
static uint32_t pg_interval(const uint32_t *bnd, uint32_t nb, uint32_t v)
{
	uint32_t lo = 0, hi = nb;

	while (hi - lo > 1) {
		uint32_t mid = (lo + hi) / 2;

		if (bnd[mid] <= v)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

typedef struct PgSet {
	uint64_t *bits;           /* over the port-specific rules */
	uint64_t hash;
	uint32_t nrules;
	int keep;
	uint32_t final;           /* index of its group */
} PgSet;

static uint32_t pg_popcount(const uint64_t *w, uint32_t nw)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < nw; i++)
		n += (uint32_t)__builtin_popcountll(w[i]);
	return n;
}

static int pg_nrules_desc(const void *a, const void *b)
{
	const PgSet *x = *(PgSet *const *)a, *y = *(PgSet *const *)b;

	return x->nrules != y->nrules ? (x->nrules < y->nrules ? 1 : -1) : 0;
}

/* A packet rule of this protocol class and direction: what port groups split. */
static int pg_sig_in(const DetectEngine *de, uint32_t i, int pc, int dir)
{
	const Signature *s = de->sigs[i].s;

	return !de->sigs[i].is_tx && !de->sigs[i].has_frame && (sig_pc_mask(s) & (1u << pc)) &&
	       (sig_dir_mask(s) & (1u << dir));
}

/* Which port a class and direction is split on: the side where more of
 * its rules name ports. Usually the server's (dp toserver, sp toclient),
 * but e.g. `udp any any -> any 53` rules without a direction are in the
 * toclient groups too, and only a packet to port 53 can match them. */
static int pg_key_side(const DetectEngine *de, int pc, int dir)
{
	uint32_t n[2] = { 0, 0 };

	for (uint32_t i = 0; i < de->nsigs; i++) {
		const Signature *s = de->sigs[i].s;
		const PortSet *ps[2];

		if (!pg_sig_in(de, i, pc, dir))
			continue;
		for (int side = 0; side < 2; side++)
			n[side] += !sig_key_ports(s, side, ps);
	}
	if (n[0] == n[1])
		return dir;
	return n[1] > n[0];
}

/* The scratch of one split, freed at its end (build_port_groups). */
typedef struct PgBuild {
	DetectEngine *de;
	int pc, dir, side;
	uint32_t *spec, nspec;    /* the port-specific rules, by num */
	uint32_t nany;            /* the class's rules with `any` on the key side */
	uint32_t nbmax;           /* a bound on the interval starts */
	uint32_t *bnd, nb;        /* interval starts, sorted, distinct */
	uint32_t nw;              /* words of a set over spec[] */
	uint64_t *bits;           /* [nb][nw]: the rules of each interval */
	uint32_t *iv_set;         /* interval -> index into sets */
	PgSet *sets, **order;     /* distinct sets; order: by size, for merging */
	uint32_t nset, nkept;
	uint64_t *rest;           /* the union of the sets merged into one */
	uint8_t *in;              /* [nsigs]: the rules of the group being built */
} PgBuild;

static void pg_scratch_free(PgBuild *b)
{
	free(b->spec);
	free(b->in);
	free(b->bnd);
	free(b->bits);
	free(b->iv_set);
	free(b->sets);
	free(b->order);
	free(b->rest);
}

/* The class's rules by key side: port-specific ones into spec[], the
 * others counted. */
static int pg_collect(PgBuild *b)
{
	const DetectEngine *de = b->de;

	b->spec = calloc(de->nsigs ? de->nsigs : 1, sizeof(uint32_t));
	b->in = calloc(de->nsigs ? de->nsigs : 1, 1);
	if (!b->spec || !b->in)
		return -1;
	b->nbmax = 1;
	for (uint32_t i = 0; i < de->nsigs; i++) {
		const PortSet *ps[2];

		if (!pg_sig_in(de, i, b->pc, b->dir))
			continue;
		if (sig_key_ports(de->sigs[i].s, b->side, ps)) {
			b->nany++;
			continue;
		}
		b->spec[b->nspec++] = i;
		for (int k = 0; k < 2; k++)
			if (ps[k])
				b->nbmax += 2 * (uint32_t)ps[k]->n;
	}
	return 0;
}

/* Intervals of ports over which the set of port-specific rules is
 * constant: start at 0 and at every range's lo and hi + 1. */
static int pg_bounds(PgBuild *b)
{
	uint32_t *bnd = b->bnd = calloc(b->nbmax, sizeof(uint32_t));
	uint32_t nb = 0, u = 1;

	if (!bnd)
		return -1;
	bnd[nb++] = 0;
	for (uint32_t j = 0; j < b->nspec; j++) {
		const PortSet *ps[2];

		sig_key_ports(b->de->sigs[b->spec[j]].s, b->side, ps);
		for (int k = 0; k < 2; k++)
			for (int r = 0; ps[k] && r < ps[k]->n; r++) {
				bnd[nb++] = ps[k]->r[r].lo;
				if (ps[k]->r[r].hi < 65535)
					bnd[nb++] = (uint32_t)ps[k]->r[r].hi + 1;
			}
	}
	qsort(bnd, nb, sizeof(uint32_t), u32_cmp);
	for (uint32_t i = 1; i < nb; i++)
		if (bnd[i] != bnd[u - 1])
			bnd[u++] = bnd[i];
	b->nb = u;
	return 0;
}

/* Each interval's set of port-specific rules, as bits over spec[]. */
static int pg_mark(PgBuild *b)
{
	uint32_t nb = b->nb, nw = b->nw = (b->nspec + 63) / 64;

	b->bits = calloc((size_t)nb * nw, sizeof(uint64_t));
	b->iv_set = calloc(nb, sizeof(uint32_t));
	b->sets = calloc(nb, sizeof(PgSet));
	b->order = calloc(nb, sizeof(PgSet *));
	b->rest = calloc(nw, sizeof(uint64_t));
	if (!b->bits || !b->iv_set || !b->sets || !b->order || !b->rest)
		return -1;
	for (uint32_t j = 0; j < b->nspec; j++) {
		const PortSet *ps[2];

		sig_key_ports(b->de->sigs[b->spec[j]].s, b->side, ps);
		for (int k = 0; k < 2; k++)
			for (int r = 0; ps[k] && r < ps[k]->n; r++)
				for (uint32_t iv = pg_interval(b->bnd, nb, ps[k]->r[r].lo);
				     iv < nb && b->bnd[iv] <= ps[k]->r[r].hi; iv++)
					b->bits[(size_t)iv * nw + j / 64] |= 1ull << (j % 64);
	}
	return 0;
}

/* Equal sets share a group: the distinct ones, found by hash. */
static void pg_dedup(PgBuild *b)
{
	uint32_t nw = b->nw;

	for (uint32_t iv = 0; iv < b->nb; iv++) {
		uint64_t *w = &b->bits[(size_t)iv * nw], h = 14695981039346656037ull;
		uint32_t k;

		for (uint32_t i = 0; i < nw; i++)
			h = (h ^ w[i]) * 1099511628211ull;
		for (k = 0; k < b->nset; k++)
			if (b->sets[k].hash == h && !memcmp(b->sets[k].bits, w, nw * sizeof(uint64_t)))
				break;
		if (k == b->nset) {
			b->sets[k].bits = w;
			b->sets[k].hash = h;
			b->sets[k].nrules = pg_popcount(w, nw);
			b->nset++;
		}
		b->iv_set[iv] = k;
	}
}

/* The ports with only `any` rules and the busy services keep their sets,
 * then the biggest sets up to PG_MAX_GROUPS; the rest are merged into one
 * (rest). */
static void pg_choose(PgBuild *b)
{
	const uint16_t *keep = b->pc == PC_TCP ? pg_keep_tcp : pg_keep_udp;
	size_t nkeep = b->pc == PC_TCP ? sizeof(pg_keep_tcp) / sizeof(pg_keep_tcp[0]) :
		       sizeof(pg_keep_udp) / sizeof(pg_keep_udp[0]);
	PgSet *sets = b->sets;

	for (uint32_t k = 0; k < b->nset; k++) {
		if (!sets[k].nrules)
			sets[k].keep = 1;
		b->order[k] = &sets[k];
	}
	for (size_t i = 0; i < nkeep; i++)
		sets[b->iv_set[pg_interval(b->bnd, b->nb, keep[i])]].keep = 1;
	for (uint32_t k = 0; k < b->nset; k++)
		b->nkept += (uint32_t)sets[k].keep;
	qsort(b->order, b->nset, sizeof(*b->order), pg_nrules_desc);
	for (uint32_t k = 0; k < b->nset; k++) {
		PgSet *st = b->order[k];

		if (st->keep)
			continue;
		if (b->nkept + 1 < PG_MAX_GROUPS || b->nkept + 1 == b->nset) {
			st->keep = 1;
			b->nkept++;
			continue;
		}
		for (uint32_t w = 0; w < b->nw; w++)
			b->rest[w] |= st->bits[w];
	}
}

/* One group per kept set, one for the merged rest (if any), and the
 * port -> group map. */
static int pg_groups(PgBuild *b, PortGroups *pg, char *err, size_t errlen)
{
	DetectEngine *de = b->de;
	uint32_t nset = b->nset, nfinal = 0;

	pg->g = calloc(b->nkept + 1, sizeof(SigGroup));
	pg->map = malloc(65536);
	if (!pg->g || !pg->map)
		return -1;
	pg->owned = 1;
	for (uint32_t k = 0; k <= nset; k++) {
		const uint64_t *w = k < nset ? b->sets[k].bits : b->rest;

		if (k < nset && !b->sets[k].keep)
			continue;
		if (k == nset && b->nkept == nset)
			break;
		/* every rule of the class, minus the port-specific ones not in w */
		memset(b->in, 1, de->nsigs);
		for (uint32_t j = 0; j < b->nspec; j++)
			b->in[b->spec[j]] = (uint8_t)((w[j / 64] >> (j % 64)) & 1);
		if (build_group(de, &pg->g[nfinal], b->pc, b->dir, b->in, err, errlen) != 0)
			return -1;
		if (k < nset)
			b->sets[k].final = nfinal;
		nfinal++;
	}
	pg->ng = nfinal;
	for (uint32_t k = 0; k < nset; k++)
		if (!b->sets[k].keep)
			b->sets[k].final = nfinal - 1;
	for (uint32_t iv = 0; iv < b->nb; iv++) {
		uint32_t end = iv + 1 < b->nb ? b->bnd[iv + 1] : 65536;

		memset(pg->map + b->bnd[iv], (int)b->sets[b->iv_set[iv]].final, end - b->bnd[iv]);
	}
	return 0;
}

/* (Next to) nothing port-specific: every group would be about the same
 * automaton, built again and again. One group for every port. */
static int pg_single(PgBuild *b, PortGroups *pg, char *err, size_t errlen)
{
	pg->g = calloc(1, sizeof(SigGroup));
	if (!pg->g)
		return -1;
	pg->ng = 1;
	pg->owned = 1;
	return build_group(b->de, &pg->g[0], b->pc, b->dir, NULL, err, errlen);
}

static int pg_split(PgBuild *b, PortGroups *pg, char *err, size_t errlen)
{
	if (pg_bounds(b) != 0 || pg_mark(b) != 0)
		return -1;
	pg_dedup(b);
	pg_choose(b);
	if (pg_groups(b, pg, err, errlen) != 0)
		return -1;
	log_debug("detect: %s/%s: split on %s, %u port-specific rules, %u port intervals, "
		  "%u distinct sets, %u groups", b->pc == PC_TCP ? "tcp" : "udp",
		  b->dir ? "toclient" : "toserver", b->side ? "sp" : "dp", b->nspec, b->nb,
		  b->nset, pg->ng);
	return 0;
}

int build_port_groups(DetectEngine *de, int pc, int dir, char *err, size_t errlen)
{
	PortGroups *pg = &de->pg[pc][dir];
	PgBuild b = { .de = de, .pc = pc, .dir = dir, .side = pg_key_side(de, pc, dir) };
	int rc = -1;

	if (pg_collect(&b) != 0)
		goto out;
	pg->side = b.side;
	if (b.nspec * PG_MIN_SPLIT < b.nany)
		rc = pg_single(&b, pg, err, errlen);
	else
		rc = pg_split(&b, pg, err, errlen);
out:
	pg_scratch_free(&b);
	return rc;
}
