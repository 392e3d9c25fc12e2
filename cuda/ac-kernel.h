/* The ac-cuda scan functions: one header compiled by nvcc (the CUDA kernels
 * in accuda-cuda.cu) and by cc (the host emulation, src/mpm/ac-cuda-emu.c),
 * so CI runs the exact kernel logic on CPU threads without a GPU.
 *
 * The automaton is walked ONLY through the inline step functions of
 * src/mpm/ac.h (ac_next, ac_verify, the ac_view pointers): the ac layout
 * may change without touching this file.
 *
 * A batch is a contiguous run of payload bytes plus one descriptor per
 * payload. Each payload names its automaton (signature group); all automata
 * live in one device block and groups[] holds a view of each, built with the
 * block's device address.
 *
 * Matches are compact records (payload index, pattern index, end offset)
 * claimed through an atomic counter. A count above cap means records were
 * lost: the host rescans that batch on the CPU. The pattern index is the
 * automaton's (pat[]), the host maps it to the caller's id. Exact-case
 * patterns are verified here (ac_verify), so a record is a real match.
 * Records arrive in any order.
 *
 * Output contract: every (payload, pattern index) pair that occurs at least
 * once is reported, with end = one of its end offsets; duplicates are
 * allowed. `payload` and `chunk` report every occurrence (which meets it);
 * `filter` reports each pair about once (1.2 records per pair on ET Open
 * over bench-1x), which is what detection needs. The kernels:
 *   payload  reference: thread = payload, ac_next from the root;
 *   chunk    thread = `chunk` bytes, ac_next, owns matches starting inside;
 *   filter   thread = `chunk` bytes: start-position filter, failureless
 *            walks from the candidates, run skip, per-block pair table and
 *            record staging (see "the filter kernel" below).
 * qa/gpu/model replays them warp by warp on the CPU (the ACC_T_* hooks).
 */
#ifndef CUDA_AC_KERNEL_H
#define CUDA_AC_KERNEL_H

#include <stdint.h>
#include <string.h>

#include "mpm/ac.h"

#ifdef __CUDACC__
#include <cooperative_groups.h>
#define ACK_HD __host__ __device__ __forceinline__
#else
#define ACK_HD static inline
#endif

/* Cost-model hooks: qa/gpu/model defines ACC_TRACE and these to record
 * each lane's steps and loads, and simulates warps from them. Everywhere
 * else (the engine, the CUDA kernels) they compile to nothing. */
enum acc_tkind {
	ACC_TS_AC,      /* one automaton step with fail links (payload, chunk) */
	ACC_TS_LOCATE,  /* one binary-search step over the descriptors */
	ACC_TS_PIECE,   /* start of a payload piece: its descriptor */
	ACC_TS_FVEC,    /* filter: one 16-byte input load, folded */
	ACC_TS_FPOS,    /* filter: one start position tested */
	ACC_TS_WALK,    /* failureless walk: one step */
	ACC_TS_EMIT,    /* one out[] entry examined, maybe a record */
	ACC_TS_RUN,     /* run skip: one byte of a run read */
	ACC_TS_N
};

enum acc_tcat {
	ACC_TC_AUTO,    /* automaton block (global memory) */
	ACC_TC_INPUT,   /* batch bytes (global memory) */
	ACC_TC_FILT,    /* filter tables (shared memory in the CUDA kernel) */
	ACC_TC_DESC,    /* descriptors (global memory) */
	ACC_TC_N
};

#ifndef ACC_TRACE
#define ACC_T_STEP(kind) do { } while (0)
#define ACC_T_LD(cat, ptr, n) do { } while (0)
#define ACC_T_NEXT(v, st, byte) do { } while (0)
#define ACC_T_OUT(aggregated) do { } while (0)
#define ACC_T_NOTE(what) do { } while (0)  /* 0: a walk, 1: a start skipped */
#endif

/* One payload of a batch: data[off, off + len). */
struct acc_desc {
	uint32_t off;
	uint16_t len;     /* cuda.mpm limits payloads to 65535 bytes */
	uint16_t group;   /* automaton to scan it with */
};

/* One match. */
struct acc_rec {
	uint32_t payload; /* index in the batch */
	uint32_t pat;     /* index into the automaton's pat[] */
	uint32_t end;     /* one past the last byte, relative to the payload */
};

/* In a record's pat: the match lies in a stream view (context, then the
 * payload: ac-cuda.c rx_fill) and starts in its context, before the
 * payload's own descriptor. The grouped ids keep such matches apart
 * (group-kernel.h: ACG_CTX_START), so that a stream window which starts at
 * the payload can leave out what began before it. */
#define ACC_CTX 0x40000000u

/* An automaton as the kernel sees it. */
struct acc_group {
	struct ac_view v;
	uint32_t maxlen;  /* longest pattern */
	uint32_t npat;    /* pat[0, npat) */
};

struct acc_sink {
	struct acc_rec *rec;
	uint32_t *count;  /* may end above cap: overflow */
	uint32_t cap;
};

struct acc_batch {
	const uint8_t *data;
	const struct acc_desc *desc;
	const struct acc_group *groups;
	uint32_t npay;
	uint32_t nbytes;
	uint32_t chunk;   /* window size of the chunk kernel */
};

enum acc_kernel {
	ACC_KERNEL_PAYLOAD = 0, /* reference: one thread per payload */
	ACC_KERNEL_CHUNK = 1,   /* one thread per `chunk` bytes of the batch */
	ACC_KERNEL_FILTER = 2,  /* as chunk, but filter start positions, then a
				 * failureless walk from the candidates only */
	ACC_KERNEL_COUNT
};

/* A block's table of the (payload, pattern index) pairs it has reported
 * (the CUDA kernel's shared memory, cleared per tile of windows): a pair
 * found again by another thread of the block is not reported again. */
struct acc_dedup {
	unsigned long long *slot;
	uint32_t mask;    /* slots - 1, a power of two minus one */
};

#define ACC_DEDUP_EMPTY 0xffffffffffffffffull

/* The filter kernel's block: a tile of ACC_FILTER_TILE windows shares one
 * pair table and one record stage (the CUDA kernel's shared memory; the
 * emulation gives each of its threads the same per tile). On ET Open over
 * bench-1x a tile of 64-byte windows reports ~1700 pairs in ~2100
 * records. */
#define ACC_FILTER_TILE 512
#define ACC_DEDUP_SLOTS 2048
#define ACC_STAGE_RECS 3072

/* A block's staging area for its records (the CUDA kernel's shared
 * memory): records are claimed there with a shared-memory atomic, and the
 * block copies them out at the end of its tile with ONE global atomicAdd
 * (acc_stage_copy). When it is full, records go to the sink directly. */
struct acc_stage {
	struct acc_rec *rec;
	uint32_t *n;      /* may end above cap */
	uint32_t cap;
};
#define ACC_DEDUP_PROBES 8

/* Copies of a group's GPU filter tables in faster memory (the CUDA
 * kernel's shared memory), for payloads of `group`; the others read the
 * block's own. */
struct acc_ftab {
	const uint8_t *cls;
	const uint32_t *gpair;
	const uint8_t *gsid;
	const uint32_t *gquad;
	uint32_t group;   /* UINT32_MAX: no copies */
	struct acc_dedup dedup;  /* slot NULL: none */
	struct acc_stage stage;  /* rec NULL: none */
};

ACK_HD uint32_t acc_atomic_inc(uint32_t *p)
{
#ifdef __CUDA_ARCH__
	return atomicAdd(p, 1u);
#else
	return __atomic_fetch_add(p, 1u, __ATOMIC_RELAXED);
#endif
}

/* Where payload p's context ends: a stream view is followed by its
 * payload's own descriptor, which lies inside it and ends where it ends;
 * 0 for any other descriptor (no context). */
ACK_HD uint32_t acc_ctx_end(const struct acc_batch *b, uint32_t p, struct acc_desc d)
{
	if (p + 1 >= b->npay)
		return 0;
	struct acc_desc n = b->desc[p + 1];

	ACC_T_LD(ACC_TC_DESC, &b->desc[p + 1], sizeof(n));
	if (n.off > d.off && n.off < d.off + d.len && n.off + n.len == d.off + d.len)
		return n.off - d.off;
	return 0;
}

/* Record the verified matches of tagged state st ending at `end` of
 * payload p whose first byte is at payload offset < start_lim (the chunk
 * kernel's ownership rule; UINT32_MAX keeps all); one that starts before
 * cb (acc_ctx_end) is flagged ACC_CTX. */
ACK_HD void acc_emit(const struct ac_view *v, const struct acc_sink *k,
		     uint32_t st, const uint8_t *buf, uint32_t p, uint32_t end,
		     uint32_t start_lim, uint32_t cb)
{
	uint32_t s = st & AC_STATE_MASK;
	uint32_t a = v->outoff[s], b = v->outoff[s + 1];

	for (; a < b; a++) {
		uint32_t pi = v->out[a];

		ACC_T_STEP(ACC_TS_EMIT);
		ACC_T_LD(ACC_TC_AUTO, &v->out[a], 4);
		ACC_T_LD(ACC_TC_AUTO, &v->pat[pi], sizeof(v->pat[pi]));
		if (end - v->pat[pi].len >= start_lim)
			continue;
		if (!ac_verify(v, pi, buf, end))
			continue;
		uint32_t idx = acc_atomic_inc(k->count);

		ACC_T_OUT(0);

		if (idx < k->cap) {
			k->rec[idx].payload = p;
			k->rec[idx].pat = pi | (end - v->pat[pi].len < cb ? ACC_CTX : 0);
			k->rec[idx].end = end;
		}
	}
}

/* Reference kernel body: thread = payload, scanned whole from the root,
 * as ac_search does. */
ACK_HD void acc_scan_payload(const struct acc_batch *b, const struct acc_sink *k,
			     uint32_t p)
{
	struct acc_desc d = b->desc[p];
	const struct ac_view *v = &b->groups[d.group].v;
	const uint8_t *buf = b->data + d.off;
	uint32_t st = 0, cb = acc_ctx_end(b, p, d);

	ACC_T_STEP(ACC_TS_PIECE);
	ACC_T_LD(ACC_TC_DESC, &b->desc[p], sizeof(d));
	for (uint32_t i = 0; i < d.len; i++) {
		ACC_T_STEP(ACC_TS_AC);
		ACC_T_LD(ACC_TC_INPUT, &buf[i], 1);
		ACC_T_NEXT(v, st, buf[i]);
		st = ac_next(v, st, buf[i]);
		if (st & AC_MATCH_FLAG)
			acc_emit(v, k, st, buf, p, i + 1, UINT32_MAX, cb);
	}
}

/* Last payload whose first byte is at batch offset <= pos. */
ACK_HD uint32_t acc_locate(const struct acc_batch *b, uint32_t pos)
{
	uint32_t lo = 0, hi = b->npay;

	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		ACC_T_STEP(ACC_TS_LOCATE);
		ACC_T_LD(ACC_TC_DESC, &b->desc[mid], 4);
		if (b->desc[mid].off <= pos)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The piece [cs, ce) of payload p (payload offsets): scan from the root at
 * cs with no overlap before it, and own the matches that START in
 * [cs, ce). Past ce keep walking only while a match could still start
 * inside: at most maxlen - 1 bytes, and never once the walk is back at the
 * root (no partial match is pending then). cb: acc_ctx_end. */
ACK_HD void acc_scan_piece(const struct acc_group *g, const struct acc_sink *k,
			   const uint8_t *buf, uint32_t p, uint32_t len,
			   uint32_t cs, uint32_t ce, uint32_t cb)
{
	const struct ac_view *v = &g->v;
	uint32_t st = 0, i = cs;
	uint32_t lim = ce + g->maxlen - 1;

	if (lim > len)
		lim = len;
	for (; i < ce; i++) {
		ACC_T_STEP(ACC_TS_AC);
		ACC_T_LD(ACC_TC_INPUT, &buf[i], 1);
		ACC_T_NEXT(v, st, buf[i]);
		st = ac_next(v, st, buf[i]);
		if (st & AC_MATCH_FLAG)
			acc_emit(v, k, st, buf, p, i + 1, ce, cb);
	}
	for (; i < lim && (st & AC_STATE_MASK) != 0; i++) {
		ACC_T_STEP(ACC_TS_AC);
		ACC_T_LD(ACC_TC_INPUT, &buf[i], 1);
		ACC_T_NEXT(v, st, buf[i]);
		st = ac_next(v, st, buf[i]);
		if (st & AC_MATCH_FLAG)
			acc_emit(v, k, st, buf, p, i + 1, ce, cb);
	}
}

/* The pieces of window w (`chunk` batch bytes): a window may cover the
 * tail of one payload and the heads of the next ones. A descriptor may
 * also lie inside the one before it, ending where it ends (ac-cuda.c: a
 * TCP payload's packet view is the tail of its stream view, one copy of
 * the bytes): the window then starts at the outer one, and each of the
 * two scans its piece with its own automaton. Start with
 * acc_window_first, then while acc_window_next(...) is 1, payload *p's
 * bytes [*cs, *ce) (payload offsets) are in the window. The chunk and
 * filter kernels share it. */
ACK_HD int acc_window_first(const struct acc_batch *b, uint32_t w, uint32_t *ws, uint32_t *we,
			    uint32_t *p)
{
	*ws = w * b->chunk;
	*we = *ws + b->chunk;
	if (*ws >= b->nbytes)
		return 0;
	if (*we > b->nbytes)
		*we = b->nbytes;
	*p = acc_locate(b, *ws);
	if (*p > 0 && b->desc[*p - 1].off + b->desc[*p - 1].len > *ws)
		(*p)--;
	return 1;
}

ACK_HD int acc_window_next(const struct acc_batch *b, uint32_t ws, uint32_t we, uint32_t p,
			   struct acc_desc *d, uint32_t *cs, uint32_t *ce)
{
	if (p >= b->npay)
		return 0;
	*d = b->desc[p];
	ACC_T_STEP(ACC_TS_PIECE);
	ACC_T_LD(ACC_TC_DESC, &b->desc[p], sizeof(*d));
	if (d->off >= we)
		return 0;
	*cs = ws > d->off ? ws - d->off : 0;
	*ce = we - d->off < d->len ? we - d->off : d->len;
	return 1;
}

/* Fast kernel body: thread = window w. Every thread does about the same
 * work whatever the payload sizes, and one long payload no longer
 * serialises a whole batch on one thread. */
ACK_HD void acc_scan_window(const struct acc_batch *b, const struct acc_sink *k,
			    uint32_t w)
{
	uint32_t ws, we, p, cs, ce;
	struct acc_desc d;

	if (!acc_window_first(b, w, &ws, &we, &p))
		return;
	for (; acc_window_next(b, ws, we, p, &d, &cs, &ce); p++)
		if (cs < ce)
			acc_scan_piece(&b->groups[d.group], k, b->data + d.off, p,
				       d.len, cs, ce, acc_ctx_end(b, p, d));
}

/* ---- the filter kernel ----
 *
 * Thread = window of `chunk` batch bytes, as chunk, but it owns the matches
 * that START in its window and finds them without walking every byte:
 *   1. filter: for each start position q of a 64-position run, a few loads
 *      from the block's GPU filter tables (ac.h: gpair, gquad, gsid; the
 *      CUDA kernel copies them to shared memory) decide whether some
 *      literal may start at q. Input is read 16 bytes at a time and folded
 *      4 bytes per operation. The candidates go into a 64-bit mask: the
 *      lanes of a warp then walk their own candidates back to back instead
 *      of waiting for each other at every byte.
 *   2. verify: from each candidate q, a walk from the root WITHOUT fail
 *      links (PFAC): it follows trie edges only (a dense row's entry counts
 *      as an edge when its depth is one more, gdepth) and stops at the first
 *      byte that leaves the trie. A match it passes started at q exactly.
 * Output: the contract is the SET of (payload, pattern index) pairs. A
 * one-byte literal is walked only at its first occurrence in a payload
 * piece (gsid bits), and a literal already reported from the piece is not
 * reported again (a small per-thread cache), so a run of zeros or a text
 * full of 'a' costs one record, not one per byte. Records are claimed with
 * warp-aggregated atomics (one atomicAdd per warp and emit). */

#define ACC_SEEN 6   /* literals remembered per payload piece */

struct acc_seen {
	uint32_t key[ACC_SEEN];  /* literal: its offset in bytes[], unique */
};

ACK_HD void acc_seen_reset(struct acc_seen *c)
{
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
	for (int i = 0; i < ACC_SEEN; i++)
		c->key[i] = AC_NONE;
}

ACK_HD int acc_seen_has(const struct acc_seen *c, uint32_t key)
{
	int hit = 0;

	/* unrolled compares: the keys stay in registers */
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
	for (int i = 0; i < ACC_SEEN; i++)
		hit |= c->key[i] == key;
	return hit;
}

ACK_HD void acc_seen_add(struct acc_seen *c, uint32_t key)
{
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
	for (int i = ACC_SEEN - 1; i > 0; i--)
		c->key[i] = c->key[i - 1];
	c->key[0] = key;
}

/* Claim one record slot. On the GPU the lanes that emit together share
 * one atomicAdd: the output atomics drop by up to 32x. */
ACK_HD uint32_t acc_claim(uint32_t *count)
{
#ifdef __CUDA_ARCH__
	cooperative_groups::coalesced_group g = cooperative_groups::coalesced_threads();
	uint32_t base = 0;

	if (g.thread_rank() == 0)
		base = atomicAdd(count, (uint32_t)g.size());
	return g.shfl(base, 0) + g.thread_rank();
#else
	return __atomic_fetch_add(count, 1u, __ATOMIC_RELAXED);
#endif
}

/* 1 when (p, pi) is not in the block's table yet (and is now), or when
 * there is no table or no room: a duplicate is allowed, a loss is not. */
ACK_HD int acc_dedup_first(struct acc_dedup t, uint32_t p, uint32_t pi)
{
	if (!t.slot)
		return 1;
	unsigned long long key = (unsigned long long)p << 32 | pi;
	uint32_t h = (p * 0x9e3779b1u) ^ (pi * 0x85ebca6bu);

	h ^= h >> 15;
	for (uint32_t i = 0; i < ACC_DEDUP_PROBES; i++) {
		uint32_t at = (h + i) & t.mask;
#ifdef __CUDA_ARCH__
		unsigned long long old = atomicCAS(&t.slot[at], ACC_DEDUP_EMPTY, key);
#else
		/* the host runs a block's items one after another */
		unsigned long long old = t.slot[at];

		if (old == ACC_DEDUP_EMPTY)
			t.slot[at] = key;
#endif
		ACC_T_LD(ACC_TC_FILT, &t.slot[at], 8);
		if (old == ACC_DEDUP_EMPTY)
			return 1;
		if (old == key)
			return 0;
	}
	return 1;
}

/* The literals of state s that are exactly buf[end - dd, end): they come
 * first in s's out[] list (its own literals, then shorter suffixes). ctx:
 * ACC_CTX when the start lies in a stream view's context, else 0. */
ACK_HD void acc_emit_start(const struct ac_view *v, const struct acc_sink *k,
			   uint32_t s, const uint8_t *buf, uint32_t p, uint32_t end,
			   uint32_t dd, struct acc_seen *seen, const struct acc_ftab *sh,
			   uint32_t ctx)
{
	/* by value: the fields stay in registers */
	struct acc_dedup dt = { 0, 0 };
	struct acc_stage sg = { 0, 0, 0 };

	if (sh) {
		dt = sh->dedup;
		sg = sh->stage;
	}

	uint32_t a = v->outoff[s], e = v->outoff[s + 1], cur = AC_NONE;

	for (; a < e; a++) {
		uint32_t pi = v->out[a];
		const struct ac_pattern *pt = &v->pat[pi];

		ACC_T_STEP(ACC_TS_EMIT);
		ACC_T_LD(ACC_TC_AUTO, &v->out[a], 4);
		ACC_T_LD(ACC_TC_AUTO, pt, sizeof(*pt));
		if (pt->len != dd)
			break;
		/* a literal's pattern indexes are adjacent; test it once */
		if (pt->off != cur) {
			if (acc_seen_has(seen, pt->off) || !ac_verify(v, pi, buf, end))
				continue;
			cur = pt->off;
			acc_seen_add(seen, cur);
		}
		if (!acc_dedup_first(dt, p, pi | ctx))
			continue;
		struct acc_rec *r = NULL;

		if (sg.rec) {
			uint32_t i = acc_claim(sg.n);

			if (i < sg.cap)
				r = &sg.rec[i];
		}
		if (r) {
			ACC_T_OUT(2);
		} else {
			uint32_t idx = acc_claim(k->count);

			ACC_T_OUT(1);
			if (idx < k->cap)
				r = &k->rec[idx];
		}
		if (r) {
			r->payload = p;
			r->pat = pi | ctx;
			r->end = end;
		}
	}
}

/* Trie child of s on class c, or AC_NONE: the failureless step. dd is the
 * child's depth. */
ACK_HD uint32_t acc_goto(const struct ac_view *v, uint32_t s, uint32_t c, uint32_t dd)
{
	if (s < v->ndense) {
		uint32_t t = ac_dense(v, s, c);

		ACC_T_LD(ACC_TC_AUTO, v->width == 2 ? (const void *)&v->d16[((size_t)s << v->shift) + c]
						   : (const void *)&v->d32[((size_t)s << v->shift) + c],
			 v->width);
		ACC_T_LD(ACC_TC_AUTO, &v->gdepth[t], 1);

		/* a row entry one level deeper is an edge, anything else a fail
		 * target; past depth 255 (saturated) it may be either, and the
		 * walk goes on: every match it reports is still checked to
		 * start at q (acc_emit_start compares lengths) */
		return v->gdepth[t] == (dd < 255 ? dd : 255) ? t : AC_NONE;
	}
	uint32_t kk = s - v->ndense, lo = v->child[kk], hi = v->child[kk + 1];

	ACC_T_LD(ACC_TC_AUTO, &v->child[kk], 8);
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		uint32_t mc = v->scls[mid - v->ndense];

		ACC_T_LD(ACC_TC_AUTO, &v->scls[mid - v->ndense], 1);

		if (mc == c)
			return mid;
		if (mc < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return AC_NONE;
}

/* Every literal that starts at payload offset q.
 *
 * Returns the end of a run skip, 0 for none. When the walk dies inside a
 * run of one byte value z (every byte it read was z, the one it died on
 * too, at depth dd), a start q' > q followed by dd bytes z walks the very
 * same trie path, dies the same way, and finds the same literals: the
 * starts q' < returned offset are such starts, and the caller skips them.
 * A run of 1000 zeros then costs one walk and a read of the run, not 1000
 * walks of ~15 steps. The run is read only as far as a skipped start can
 * be before `scan_to` (the piece's end). */
ACK_HD uint32_t acc_walk(const struct ac_view *v, const uint8_t *cls, const struct acc_sink *k,
			 const uint8_t *buf, uint32_t p, uint32_t len, uint32_t q,
			 uint32_t scan_to, struct acc_seen *seen, const struct acc_ftab *sh,
			 uint32_t ctx)
{
	uint32_t s = 0, lim = len - q, z = buf[q], same = 1, dd;

	ACC_T_NOTE(0);
	if (lim > v->maxlen)
		lim = v->maxlen;
	for (dd = 1; dd <= lim; dd++) {
		uint32_t x = buf[q + dd - 1], c = cls[x];

		ACC_T_STEP(ACC_TS_WALK);
		ACC_T_LD(ACC_TC_INPUT, &buf[q + dd - 1], 1);
		ACC_T_LD(ACC_TC_FILT, &cls[x], 1);
		same &= x == z;
		if (c == 0)
			break;
		s = acc_goto(v, s, c, dd);
		if (s == AC_NONE)
			break;
		if (s >= v->matchlo)
			ACC_T_LD(ACC_TC_AUTO, &v->outoff[s], 8);
		if (s >= v->matchlo && v->outoff[s] != v->outoff[s + 1])
			acc_emit_start(v, k, s, buf, p, q + dd, dd, seen, sh, ctx);
	}
	if (dd > lim || !same)
		return 0;
	/* buf[q, q + dd) are all z: find where the run ends (e) */
	uint32_t e = q + dd, stop = scan_to + dd;

	if (stop > len)
		stop = len;
	while (e < stop && buf[e] == z) {
		ACC_T_STEP(ACC_TS_RUN);
		ACC_T_LD(ACC_TC_INPUT, &buf[e], 1);
		e++;
	}
	return e - dd + 1;
}

/* 16 batch bytes from x (16-aligned), as 4 little-endian words; bytes at
 * or past nbytes read as 0. */
ACK_HD void acc_load16(const struct acc_batch *b, uint32_t x, uint32_t w[4])
{
	if (x + 16 <= b->nbytes) {
#ifdef __CUDA_ARCH__
		uint4 u = __ldg((const uint4 *)(b->data + x));

		w[0] = u.x;
		w[1] = u.y;
		w[2] = u.z;
		w[3] = u.w;
#else
		memcpy(w, b->data + x, 16);
#endif
		return;
	}
	for (int i = 0; i < 4; i++) {
		uint32_t v = 0;

		for (int j = 0; j < 4; j++) {
			uint32_t y = x + (uint32_t)(i * 4 + j);

			if (y < b->nbytes)
				v |= (uint32_t)b->data[y] << (8 * j);
		}
		w[i] = v;
	}
}

/* ASCII A-Z -> a-z in each byte of x (ac's fold), four at a time. */
ACK_HD uint32_t acc_fold4(uint32_t x)
{
	uint32_t t = x & 0x7f7f7f7fu;
	uint32_t up = (t + 0x3f3f3f3fu) & ~(t + 0x25252525u) & ~x & 0x80808080u;

	return x | up >> 2;
}

/* Bytes j .. j + 3 of the 8 words f[] (j < 29; constant once unrolled). */
ACK_HD uint32_t acc_word_at(const uint32_t f[8], uint32_t j)
{
	uint32_t i = j >> 2, sh = (j & 3) * 8;

	return sh ? (f[i] >> sh) | (f[i + 1] << (32 - sh)) : f[i];
}

ACK_HD uint32_t acc_ctz64(uint64_t m)
{
#ifdef __CUDA_ARCH__
	return (uint32_t)__ffsll((long long)m) - 1;
#else
	return (uint32_t)__builtin_ctzll(m);
#endif
}

/* Candidates among payload positions [a, e) (e - a <= 64): bit q - a set
 * when a literal of 2 bytes or more may start at q; in *one, when a
 * one-byte literal's bit is seen first at q. *sidm: one-byte literal bits
 * already seen in this payload piece. */
ACK_HD uint64_t acc_filter_run(const struct acc_batch *b, const struct ac_view *v,
			       const uint32_t *gpair, const uint8_t *gsid,
			       const uint32_t *gquad, uint32_t off, uint32_t a,
			       uint32_t e, uint32_t *sidm, uint64_t *one)
{
	uint32_t g0 = off + a, g1 = off + e, qb = v->gquadbits;
	uint32_t cur[4], nxt[4];
	uint64_t mask = 0, m1 = 0;

	ACC_T_STEP(ACC_TS_FVEC);
	ACC_T_LD(ACC_TC_INPUT, b->data + (g0 & ~15u), 16);
	acc_load16(b, g0 & ~15u, cur);
	for (uint32_t x = g0 & ~15u; x < g1; x += 16) {
		uint32_t f[8];

		ACC_T_STEP(ACC_TS_FVEC);
		ACC_T_LD(ACC_TC_INPUT, b->data + x + 16, 16);
		acc_load16(b, x + 16, nxt);
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
		for (int i = 0; i < 4; i++) {
			f[i] = acc_fold4(cur[i]);
			f[i + 4] = acc_fold4(nxt[i]);
		}
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
		for (uint32_t j = 0; j < 16; j++) {
			uint32_t gpos = x + j;

			if (gpos < g0 || gpos >= g1)
				continue;
			uint32_t w4 = acc_word_at(f, j);
			uint32_t raw = (cur[j >> 2] >> ((j & 3) * 8)) & 0xff;
			uint32_t code = ac_gpair_code(gpair, w4 & 0xff, (w4 >> 8) & 0xff);
			uint32_t hit = code >> 1;   /* AC_GP_SHORT */
			uint32_t sid = gsid[raw];

			ACC_T_STEP(ACC_TS_FPOS);
			ACC_T_LD(ACC_TC_FILT, &gpair[(w4 & 0xffff) >> 4], 4);
			ACC_T_LD(ACC_TC_FILT, &gsid[raw], 1);
			if (!hit && (code & AC_GP_LONG)) {
				uint32_t h = ac_gquad_hash(w4, qb);

				ACC_T_LD(ACC_TC_FILT, &gquad[h >> 5], 4);

				hit = (gquad[h >> 5] >> (h & 31)) & 1;
			}
			if (sid) {
				uint32_t bit = sid == AC_GSID_ALWAYS ? 0 : 1u << (sid - 1);

				if (!bit || !(*sidm & bit)) {
					*sidm |= bit;
					m1 |= 1ull << (gpos - g0);
				}
			}
			mask |= (uint64_t)hit << (gpos - g0);
		}
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
		for (int i = 0; i < 4; i++)
			cur[i] = nxt[i];
	}
	*one = m1;
	return mask;
}

/* The starts [cs, ce) of payload p, all in its context (ctx ACC_CTX) or
 * none (0): the one-byte literal bits, the seen cache and the run skip
 * then never hide a start of the other kind behind one of this kind. */
ACK_HD void acc_filter_piece(const struct acc_batch *b, const struct acc_sink *k,
			     const struct acc_ftab *sh, uint32_t p, struct acc_desc d,
			     uint32_t cs, uint32_t ce, uint32_t ctx)
{
	const struct acc_group *g = &b->groups[d.group];
	const struct ac_view *v = &g->v;
	const uint8_t *buf = b->data + d.off;

	if (!v->gpair) {
		/* a block without the GPU filter: the chunk kernel's walk */
		acc_scan_piece(g, k, buf, p, d.len, cs, ce, acc_ctx_end(b, p, d));
		return;
	}
	int mine = sh && sh->group == d.group;
	const uint8_t *cls = mine ? sh->cls : v->cls;
	const uint32_t *gpair = mine ? sh->gpair : v->gpair;
	const uint8_t *gsid = mine ? sh->gsid : v->gsid;
	const uint32_t *gquad = mine ? sh->gquad : v->gquad;
	struct acc_seen seen;
	uint32_t sidm = 0, skip_end = 0;

	acc_seen_reset(&seen);
	for (uint32_t a = cs; a < ce; a += 64) {
		uint32_t e = ce - a < 64 ? ce : a + 64;
		uint64_t m1, m = acc_filter_run(b, v, gpair, gsid, gquad, d.off, a, e, &sidm, &m1);

		/* one-byte literals: no walk, their state is the root row's */
		while (m1) {
			uint32_t q = a + acc_ctz64(m1), c = cls[buf[q]], s1;

			m1 &= m1 - 1;
			ACC_T_STEP(ACC_TS_WALK);
			ACC_T_LD(ACC_TC_FILT, &cls[buf[q]], 1);
			s1 = ac_dense(v, 0, c);
			ACC_T_LD(ACC_TC_AUTO, v->width == 2 ? (const void *)&v->d16[c]
							   : (const void *)&v->d32[c], v->width);
			ACC_T_LD(ACC_TC_AUTO, &v->outoff[s1], 8);
			if (s1 >= v->matchlo && v->outoff[s1] != v->outoff[s1 + 1])
				acc_emit_start(v, k, s1, buf, p, q + 1, 1, &seen, sh, ctx);
		}
		while (m) {
			uint32_t q = a + acc_ctz64(m), r;

			m &= m - 1;
			if (q < skip_end) {
				ACC_T_NOTE(1);
				continue;
			}
			r = acc_walk(v, cls, k, buf, p, d.len, q, ce, &seen, sh, ctx);
			if (r > skip_end)
				skip_end = r;
		}
	}
}

/* Payload p's piece [cs, ce): split where its context ends (acc_ctx_end),
 * so that each (payload, pattern) pair is reported once per kind of start. */
ACK_HD void acc_filter_desc(const struct acc_batch *b, const struct acc_sink *k,
			    const struct acc_ftab *sh, uint32_t p, struct acc_desc d,
			    uint32_t cs, uint32_t ce)
{
	uint32_t cb = acc_ctx_end(b, p, d);

	/* at most two pieces, one call site: the piece's code is inlined
	 * once */
	for (uint32_t a = cs, e; a < ce; a = e) {
		e = a < cb && cb < ce ? cb : ce;
		acc_filter_piece(b, k, sh, p, d, a, e, a < cb ? ACC_CTX : 0);
	}
}

/* Filter kernel body: window w, as acc_scan_window. */
ACK_HD void acc_scan_filter(const struct acc_batch *b, const struct acc_sink *k,
			    uint32_t w, const struct acc_ftab *sh)
{
	uint32_t ws, we, p, cs, ce;
	struct acc_desc d;

	if (!acc_window_first(b, w, &ws, &we, &p))
		return;
	for (; acc_window_next(b, ws, we, p, &d, &cs, &ce); p++)
		if (cs < ce)
			acc_filter_desc(b, k, sh, p, d, cs, ce);
}

/* The end of a tile: the staged records go to the sink, their slots
 * claimed with one atomic (by the caller: base). `first`, `stride`: this
 * thread's share of the copy (the CUDA block's threads, or 0 and 1 on the
 * host). The caller clears *stage->n afterwards. */
ACK_HD void acc_stage_copy(const struct acc_stage *sg, const struct acc_sink *k,
			   uint32_t base, uint32_t first, uint32_t stride)
{
	uint32_t n = *sg->n < sg->cap ? *sg->n : sg->cap;

	for (uint32_t i = first; i < n; i += stride)
		if (base + i < k->cap)
			k->rec[base + i] = sg->rec[i];
}

/* Work items of a batch for a kernel: payloads or windows. */
ACK_HD uint32_t acc_items(const struct acc_batch *b, int kernel)
{
	if (kernel == ACC_KERNEL_CHUNK || kernel == ACC_KERNEL_FILTER)
		return (b->nbytes + b->chunk - 1) / b->chunk;
	return b->npay;
}

ACK_HD void acc_run_item(const struct acc_batch *b, const struct acc_sink *k,
			 int kernel, uint32_t item)
{
	if (kernel == ACC_KERNEL_CHUNK)
		acc_scan_window(b, k, item);
	else if (kernel == ACC_KERNEL_FILTER)
		acc_scan_filter(b, k, item, NULL);
	else
		acc_scan_payload(b, k, item);
}

#endif
