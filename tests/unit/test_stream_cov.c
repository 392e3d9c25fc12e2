/* GPU stream coverage (detect/stream-cov.h): the span a packet's stream
 * scan covers, the window sweep, invalidation, pruning and the memory caps;
 * and the property the ac-cuda stream prefilter rests on: for any stream,
 * split into packets of any size, with any context lengths, CPU-only
 * packets and rewritten bytes, a window's ids from the entries plus its CPU
 * ranges hold every pattern a CPU scan of the whole window finds, and with
 * scov_window_exact they are exactly those patterns. */
#include "config.h"
#include "test.h"

#include <stdlib.h>

#include "detect/stream-cov.h"
#include "mpm/ac.h"

TEST(scov_span_needs_full_context_or_stream_start)
{
	uint64_t lo, hi;

	/* full context (maxlen - 1): every end of the payload */
	CHECK(scov_span(100, 10, 7, 8, &lo, &hi));
	CHECK_EQ(lo, 101);
	CHECK_EQ(hi, 110);
	/* context back to the stream's first byte: all ends too */
	CHECK(scov_span(3, 10, 3, 8, &lo, &hi));
	CHECK_EQ(lo, 4);
	/* 2 bytes of context for 8-byte patterns: an 8-byte match ending at
	 * 105 starts at 97, before the scan; the first sure end is 98 + 8 */
	CHECK(scov_span(100, 10, 2, 8, &lo, &hi));
	CHECK_EQ(lo, 106);
	/* a short packet without context covers nothing */
	CHECK(!scov_span(100, 4, 0, 8, &lo, &hi));
}

struct rec {
	uint32_t ids[64], nids;
	uint64_t from[8], to[8];
	uint32_t nr;
};

static void rec_ids(void *arg, const uint32_t *ids, uint32_t n, int ctx_ok)
{
	struct rec *r = arg;

	for (uint32_t i = 0; i < n && r->nids < 64; i++)
		if (ctx_ok || !(ids[i] & SCOV_CTX))
			r->ids[r->nids++] = ids[i] & ~SCOV_CTX;
}

static void rec_cpu(void *arg, uint64_t from, uint64_t to)
{
	struct rec *r = arg;

	if (r->nr < 8) {
		r->from[r->nr] = from;
		r->to[r->nr] = to;
		r->nr++;
	}
}

TEST(scov_window_scans_only_the_uncovered_ends)
{
	StreamCov *c = NULL;
	struct rec r = { 0 };
	uint32_t a = 1, b = 2;
	uint64_t cpu;

	/* ends 1..100 and 151..200 covered; 101..150 not (maxlen 8) */
	CHECK_EQ(scov_add(&c, 0, 0, 1, 100, &a, 1), 0);
	CHECK_EQ(scov_add(&c, 143, 150, 151, 200, &b, 1), 0);
	cpu = scov_window(c, 0, 200, 8, rec_ids, rec_cpu, &r);
	CHECK_EQ(r.nids, 2);
	CHECK_EQ(r.nr, 1);
	/* matches ending at 101..150 lie in bytes [93, 150) */
	CHECK_EQ(r.from[0], 93);
	CHECK_EQ(r.to[0], 150);
	CHECK_EQ(cpu, 57);
	/* a window that starts inside the covered part: no CPU at all */
	memset(&r, 0, sizeof(r));
	CHECK_EQ(scov_window(c, 160, 40, 8, rec_ids, rec_cpu, &r), 0);
	CHECK_EQ(r.nids, 1);
	CHECK_EQ(r.ids[0], 2);
	/* rewriting byte 50 voids the first entry only */
	scov_invalidate(c, 50, 51);
	memset(&r, 0, sizeof(r));
	scov_window(c, 0, 200, 8, rec_ids, rec_cpu, &r);
	CHECK_EQ(r.nids, 1);
	CHECK_EQ(r.nr, 1);
	CHECK_EQ(r.from[0], 0);
	CHECK_EQ(r.to[0], 150);
	/* pruned below 200: nothing left, the whole window goes to the CPU */
	scov_prune(c, 200);
	CHECK_EQ(c->n, 0);
	memset(&r, 0, sizeof(r));
	CHECK_EQ(scov_window(c, 0, 200, 8, rec_ids, rec_cpu, &r), 200);
	scov_free(c);
}

TEST(scov_caps_drop_the_oldest_entries)
{
	StreamCov *c = NULL;
	static uint32_t ids[SCOV_IDS_MAX];

	for (uint32_t i = 0; i < SCOV_IDS_MAX; i++)
		ids[i] = i;
	for (uint64_t i = 0; i < 3 * SCOV_ENTRIES_MAX; i++)
		CHECK_EQ(scov_add(&c, i * 10, i * 10, i * 10 + 1, i * 10 + 10, ids, 3), 0);
	CHECK_EQ(c->n, SCOV_ENTRIES_MAX);
	CHECK_EQ(c->e[0].b_lo, 2 * SCOV_ENTRIES_MAX * 10);
	/* ids stay packed in entry order */
	for (uint32_t i = 0; i < c->n; i++)
		CHECK_EQ(c->e[i].id_off, 3 * i);
	CHECK_EQ(scov_add(&c, 99999, 99999, 100000, 100010, ids, SCOV_IDS_MAX - 1), 0);
	CHECK_EQ(c->n, 1);
	CHECK_EQ(c->nids, SCOV_IDS_MAX - 1);
	CHECK(scov_add(&c, 0, 0, 1, 2, ids, SCOV_IDS_MAX + 1) < 0);
	scov_free(c);
}

/* ---- the superset property, with a real automaton ---- */

#define P_STREAM 3000
#define P_NPAT 40

static uint32_t rng = 12345;

static uint32_t rnd(uint32_t n)
{
	return test_lcg(&rng) % n;
}

struct idset {
	uint8_t seen[P_NPAT];
};

static int set_cb(void *arg, uint32_t id, uint32_t end)
{
	(void)end;
	((struct idset *)arg)->seen[id] = 1;
	return 0;
}

struct prop {
	const AcAutomaton *a;
	const uint8_t *s;
	struct idset got;
};

static void prop_ids(void *arg, const uint32_t *ids, uint32_t n, int ctx_ok)
{
	struct prop *p = arg;

	for (uint32_t i = 0; i < n; i++)
		if (ctx_ok || !(ids[i] & SCOV_CTX))
			p->got.seen[ids[i] & ~SCOV_CTX] = 1;
}

/* A packet's ids as the device gives them: each id once per kind of
 * occurrence, flagged SCOV_CTX where one starts in the t context bytes. */
struct devset {
	const struct ac_pattern *pats;
	uint32_t t;
	uint8_t kind[P_NPAT];   /* bit 1: in the payload, bit 2: from the context */
};

static int dev_cb(void *arg, uint32_t id, uint32_t end)
{
	struct devset *d = arg;

	d->kind[id] |= end - d->pats[id].len < d->t ? 2 : 1;
	return 0;
}

static void prop_cpu(void *arg, uint64_t from, uint64_t to)
{
	struct prop *p = arg;

	ac_search(p->a, p->s + from, (uint32_t)(to - from), set_cb, &p->got);
}

TEST(scov_windows_hold_every_match_of_a_cpu_scan)
{
	static uint8_t s[P_STREAM];
	static const uint8_t alpha[] = "abcab";
	uint8_t pb[P_NPAT * 12];
	struct ac_pattern pats[P_NPAT];
	char err[256];
	uint64_t cpu_total = 0, win_total = 0, cpu_exact = 0;
	int bad = 0, inexact = 0;

	for (int round = 0; round < 30 && !bad; round++) {
		uint32_t off = 0, maxlen = 0;
		AcAutomaton *a;
		StreamCov *c = NULL;
		uint64_t so = 0, inspected = 0;

		for (int i = 0; i < P_NPAT; i++) {
			uint16_t len = (uint16_t)(1 + rnd(round % 3 ? 6 : 12));

			pats[i] = (struct ac_pattern){ .id = (uint32_t)i, .off = off, .len = len,
						       .nocase = (uint8_t)rnd(2) };
			for (int k = 0; k < len; k++)
				pb[off + k] = alpha[rnd(5)];
			off += len;
			if (len > maxlen)
				maxlen = len;
		}
		a = ac_build(pats, P_NPAT, pb, 4096, err, sizeof(err));
		CHECK(a != NULL);
		maxlen = a->blk->maxlen;
		for (int i = 0; i < P_STREAM; i++)
			s[i] = alpha[rnd(5)] ^ (rnd(8) == 0 ? 0x20 : 0);
		while (so < P_STREAM) {
			uint32_t len = 1 + rnd(rnd(4) ? 20 : 90), t;
			uint64_t lo, hi;

			if (so + len > P_STREAM)
				len = (uint32_t)(P_STREAM - so);
			/* the context RX had: usually all it may send, sometimes
			 * less (a cache miss), sometimes the packet is CPU-only */
			t = maxlen - 1 < so ? maxlen - 1 : (uint32_t)so;
			if (rnd(6) == 0)
				t = rnd(t + 1);
			if (rnd(8) == 0) {
				scov_invalidate(c, so, so + len);
			} else if (scov_span(so, len, t, maxlen, &lo, &hi)) {
				struct devset ds = { .pats = pats, .t = t };
				uint32_t ids[2 * P_NPAT], n = 0;

				ac_search(a, s + so - t, t + len, dev_cb, &ds);
				for (uint32_t i = 0; i < P_NPAT; i++) {
					if (ds.kind[i] & 1)
						ids[n++] = i;
					if (ds.kind[i] & 2)
						ids[n++] = i | SCOV_CTX;
				}
				CHECK_EQ(scov_add(&c, so - t, so, lo, hi, ids, n), 0);
			}
			/* now and then an older byte is rewritten */
			if (rnd(10) == 0 && so > 0) {
				uint64_t at = so - 1 - rnd((uint32_t)(so < 50 ? so : 50));

				s[at] ^= 1;
				scov_invalidate(c, at, at + 1);
			}
			so += len;
			/* inspect what is "ready", from maxlen - 1 before the last one */
			if (rnd(3) == 0 || so == P_STREAM) {
				/* from where the last one ended (a packet's start),
				 * or maxlen - 1 before it */
				uint64_t base = inspected > maxlen - 1 && rnd(2) ? inspected - (maxlen - 1)
										 : inspected;
				struct prop p = { .a = a, .s = s }, px = { .a = a, .s = s };
				struct idset want = { { 0 } };

				ac_search(a, s + base, (uint32_t)(so - base), set_cb, &want);
				cpu_total += scov_window(c, base, (uint32_t)(so - base), maxlen,
							 prop_ids, prop_cpu, &p);
				cpu_exact += scov_window_exact(c, base, (uint32_t)(so - base), maxlen,
							       prop_ids, prop_cpu, &px);
				win_total += so - base;
				for (int i = 0; i < P_NPAT; i++) {
					if (want.seen[i] && !p.got.seen[i])
						bad++;
					if (want.seen[i] != px.got.seen[i])
						inexact++;
				}
				inspected = so;
				scov_prune(c, inspected > maxlen - 1 ? inspected - (maxlen - 1) : 0);
			}
		}
		scov_free(c);
		ac_free(a);
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(inexact, 0);
	/* and it is worth it: most bytes need no CPU scan (half the exact
	 * windows here start inside a packet: their first packet goes to the
	 * CPU) */
	CHECK(cpu_total * 2 < win_total);
	CHECK(cpu_exact * 3 < win_total * 2);
}

TEST(scov_tail_keeps_the_newest_bytes_and_checks_ranges)
{
	StreamCov *c = NULL;
	uint8_t big[300];

	for (int i = 0; i < 300; i++)
		big[i] = (uint8_t)i;
	CHECK_EQ(scov_ensure(&c), 0);
	CHECK(!scov_tail_equal(c, 0, big, 1));
	scov_save_tail(c, 1300, big, 300);      /* keeps bytes 1045..1300 */
	CHECK_EQ(c->tail_len, SCOV_TAIL_MAX);
	CHECK(scov_tail_equal(c, 1290, big + 290, 10));
	CHECK(scov_tail_equal(c, 1045, big + 45, 5));
	CHECK(!scov_tail_equal(c, 1044, big + 44, 5));   /* before the tail */
	CHECK(!scov_tail_equal(c, 1296, big + 296, 5));  /* past its end */
	CHECK(!scov_tail_equal(c, 1290, big + 289, 10)); /* other bytes */
	CHECK(scov_tail_equal(c, 1290, big, 0));
	/* an older end (a retransmission) leaves the tail alone */
	scov_save_tail(c, 1200, big, 10);
	CHECK_EQ(c->tail_end, 1300);
	scov_free(c);
}
