/* Reassembly: per direction, received data waits as sorted, non-overlapping
 * segments until it becomes ready (ACKed by the other side, or flushed); ready
 * data moves in order into a contiguous buffer that consumers read by stream
 * offset and release.
 *
 * Overlaps are resolved when a segment is inserted, by the target-based policy
 * (stream.h documents which bytes win). Ready bytes are final: consumers may
 * already have inspected them, so a retransmission can only be compared. */
#include "stream/stream-int.h"
#include "decode/decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void stream_event(StreamThread *st, Packet *p, enum stream_event ev)
{
	uint8_t i;

	counter_inc(st->tc, stream_cnt.ev[ev]);
	if (!p)
		return;
	for (i = 0; i < p->stream_nevents; i++)
		if (p->stream_events[i] == ev)
			return;
	if (p->stream_nevents < PKT_STREAM_EVENTS_MAX)
		p->stream_events[p->stream_nevents++] = (uint8_t)ev;
}

/* ---- segment pool ---- */

static size_t seg_size(int cls)
{
	return sizeof(Segment) + (cls ? SEG_LARGE_CAP : SEG_SMALL_CAP);
}

static Segment *seg_alloc(StreamThread *st, uint32_t want)
{
	int cls = want > SEG_SMALL_CAP;
	size_t size = seg_size(cls);
	Segment *seg = st->seg_free[cls];

	if (seg) {
		st->seg_free[cls] = seg->next;
		st->nseg_free[cls]--;
		counter_inc(st->tc, stream_cnt.segment_from_cache);
	} else {
		if (!stream_mem_reserve(1, size))
			return NULL;
		seg = malloc(size);
		if (!seg) {
			stream_mem_release(1, size);
			return NULL;
		}
		counter_add(st->tc, stream_cnt.reassembly_memuse, size);
		counter_inc(st->tc, stream_cnt.segment_from_pool);
	}
	seg->next = NULL;
	seg->head = 0;
	seg->len = 0;
	seg->cap = cls ? SEG_LARGE_CAP : SEG_SMALL_CAP;
	seg->cls = (uint8_t)cls;
	return seg;
}

static void seg_free(StreamThread *st, Segment *seg)
{
	int cls = seg->cls;

	if (st->nseg_free[cls] < SEG_FREE_MAX) {
		seg->next = st->seg_free[cls];
		st->seg_free[cls] = seg;
		st->nseg_free[cls]++;
		return;
	}
	stream_mem_release(1, seg_size(cls));
	counter_sub(st->tc, stream_cnt.reassembly_memuse, seg_size(cls));
	free(seg);
}

/* ---- ready buffer ---- */

/* Pool class of a buffer size, or -1 for sizes that come from malloc. */
static int buf_class(uint32_t cap)
{
	return cap == BUF_SMALL ? 0 : cap == BUF_BLOCK ? 1 : -1;
}

static uint8_t *buf_alloc(StreamThread *st, uint32_t cap)
{
	int cls = buf_class(cap);
	uint8_t *b;

	if (cls >= 0 && st->nbuf_free[cls])
		return st->buf_free[cls][--st->nbuf_free[cls]];
	if (!stream_mem_reserve(1, cap))
		return NULL;
	b = malloc(cap);
	if (!b) {
		stream_mem_release(1, cap);
		return NULL;
	}
	counter_add(st->tc, stream_cnt.reassembly_memuse, cap);
	return b;
}

static void buf_put(StreamThread *st, uint8_t *b, uint32_t cap)
{
	int cls = buf_class(cap);

	if (!b)
		return;
	if (cls >= 0 && st->nbuf_free[cls] < BUF_FREE_MAX) {
		st->buf_free[cls][st->nbuf_free[cls]++] = b;
		return;
	}
	stream_mem_release(1, cap);
	counter_sub(st->tc, stream_cnt.reassembly_memuse, cap);
	free(b);
}

static uint64_t run_off(const TcpStream *s, unsigned i)
{
	return s->run_base + s->runs[i].off;
}

static uint64_t run_end(const TcpStream *s, unsigned i)
{
	uint32_t next = i + 1 < s->nruns ? s->runs[i + 1].idx : s->buf_len;

	return run_off(s, i) + (next - s->runs[i].idx);
}

static uint32_t buf_head(const TcpStream *s)
{
	return s->nruns ? s->runs[0].idx : s->buf_len;
}

static void buf_compact(TcpStream *s)
{
	uint32_t head = buf_head(s);
	unsigned i;

	if (head == 0)
		return;
	memmove(s->buf, s->buf + head, s->buf_len - head);
	s->buf_len -= head;
	for (i = 0; i < s->nruns; i++)
		s->runs[i].idx -= head;
}

/* Room for n more bytes at the end: compact first, grow (doubling) if that is
 * not enough. 0 when the reassembly memcap refuses. */
static int buf_ensure(StreamThread *st, TcpStream *s, uint32_t n)
{
	uint32_t live, cap;
	uint8_t *nb;

	if (s->buf && s->buf_len + n <= s->buf_cap)
		return 1;
	live = s->buf_len - buf_head(s);
	if (s->buf && live + n <= s->buf_cap) {
		buf_compact(s);
		return 1;
	}
	if (live + n <= BUF_SMALL)
		cap = BUF_SMALL;
	else
		for (cap = BUF_BLOCK; cap < live + n; cap *= 2)
			;
	nb = buf_alloc(st, cap);
	if (!nb)
		return 0;
	if (s->buf) {
		buf_compact(s);
		memcpy(nb, s->buf, s->buf_len);
		buf_put(st, s->buf, s->buf_cap);
	}
	s->buf = nb;
	s->buf_cap = cap;
	return 1;
}

static uint64_t min_released(const StreamThread *st, const TcpStream *s)
{
	uint64_t m = UINT64_MAX;
	unsigned c;

	for (c = 0; c < STREAM_CONSUMER_MAX; c++)
		if ((st->cfg->consumers & (1u << c)) && s->released[c] < m)
			m = s->released[c];
	return m;
}

/* Drops what every enabled consumer released; gives the buffer back when empty
 * so that idle sessions hold no reassembly memory. */
void reasm_release(StreamThread *st, TcpStream *s)
{
	uint64_t m = min_released(st, s);

	while (s->nruns) {
		uint64_t end = run_end(s, 0);

		if (end <= m) {
			memmove(&s->runs[0], &s->runs[1], (s->nruns - 1) * sizeof(Run));
			s->nruns--;
			continue;
		}
		if (run_off(s, 0) < m) {
			uint32_t d = (uint32_t)(m - run_off(s, 0));

			s->runs[0].off += d;
			s->runs[0].idx += d;
		}
		break;
	}
	if (s->nruns == 0) {
		buf_put(st, s->buf, s->buf_cap);
		s->buf = NULL;
		s->buf_cap = 0;
		s->buf_len = 0;
	}
}

/* Reassembly memcap hit while p (NULL at a flush) was handled. */
static void reasm_refused(StreamThread *st, Packet *p)
{
	flow_exception(p ? p->flow : NULL, p, st->tc, EP_STREAM_REASSEMBLY_MEMCAP);
}

static void append_ready(StreamThread *st, TcpStream *s, Packet *p, uint64_t off,
			 const uint8_t *data, uint32_t n)
{
	uint64_t m = min_released(st, s);
	int new_run;

	/* nobody will read bytes below every consumer's release point */
	if (m >= off + n)
		return;
	if (m > off) {
		data += m - off;
		n -= (uint32_t)(m - off);
		off = m;
	}
	new_run = s->nruns == 0 || run_end(s, s->nruns - 1) != off;
	if (new_run && s->nruns == 0)
		s->run_base = off;
	/* a run offset must fit its 32-bit slot (only a multi-GB gap would not) */
	if (new_run && (s->nruns == STREAM_RUNS_MAX || off - s->run_base > UINT32_MAX - n)) {
		counter_inc(st->tc, stream_cnt.insert_list_fail);
		s->dir_flags |= STREAM_DIR_GAP;
		return;
	}
	if (!buf_ensure(st, s, n)) {
		counter_inc(st->tc, stream_cnt.segment_memcap_drop);
		s->dir_flags |= STREAM_DIR_GAP;
		reasm_refused(st, p);
		return;
	}
	if (new_run) {
		s->runs[s->nruns].off = (uint32_t)(off - s->run_base);
		s->runs[s->nruns].idx = s->buf_len;
		s->nruns++;
	}
	memcpy(s->buf + s->buf_len, data, n);
	s->buf_len += n;
}

/* ---- insertion ---- */

/* Does the new data (packet bounds ns..ne) win over different original data
 * that came with a packet spanning os..oe? Suricata's per-OS rules (stream.h). */
static int new_wins(enum stream_policy pol, uint64_t ns, uint64_t ne, uint64_t os, uint64_t oe)
{
	int solaris = pol == STREAM_POLICY_SOLARIS || pol == STREAM_POLICY_HPUX11;

	if (pol == STREAM_POLICY_LAST)
		return 1;
	if (ns == os) {
		if (ne < oe)
			return 0;
		if (ne > oe && pol == STREAM_POLICY_LINUX)
			return 1;
		return solaris || pol == STREAM_POLICY_OLD_LINUX;
	}
	if (ns < os) {
		if (solaris)
			return ne >= oe;
		return pol != STREAM_POLICY_FIRST && pol != STREAM_POLICY_VISTA;
	}
	return solaris && ne > oe;
}

struct ins {
	StreamThread *st;
	TcpStream *s;
	Packet *p;
	uint64_t ns, ne;            /* the packet's data bounds (policy) */
	uint32_t fresh;             /* bytes not seen before */
	int overlap, diff, fail;
	/* inline: the packet's own bytes (src0 read-only, w0 the same bytes
	 * writable), normalised to the data already kept; w0 NULL otherwise */
	const uint8_t *src0;
	uint8_t *w0;
	int rewrote;
};

/* Inline, what was kept stands and the packet is made to carry it: a
 * retransmission with other bytes leaves as the original did, so that what
 * the receiver gets is what was inspected (Suricata's inline overlap
 * handling; suricata-verify eve-payload-03-tcp-exact-overlap-ips: the
 * overlapping packet alerts, and is logged, with the original payload). */
static void normalise(struct ins *in, const uint8_t *src, const uint8_t *kept, uint64_t n)
{
	memcpy(in->w0 + (src - in->src0), kept, n);
	in->rewrote = 1;
}

/* Compares bytes below ready_off with what the buffer still keeps. */
static void compare_ready(struct ins *in, uint64_t off, const uint8_t *data, uint64_t end)
{
	const TcpStream *s = in->s;
	unsigned i;

	for (i = 0; i < s->nruns && off < end; i++) {
		uint64_t rs = run_off(s, i), re = run_end(s, i);
		uint64_t a = off > rs ? off : rs, b = end < re ? end : re;

		if (a >= b)
			continue;
		in->overlap = 1;
		if (memcmp(s->buf + s->runs[i].idx + (a - rs), data + (a - off), b - a)) {
			in->diff = 1;
			if (in->w0)
				normalise(in, data + (a - off), s->buf + s->runs[i].idx + (a - rs),
					  b - a);
		}
	}
}

static Segment **fill(struct ins *in, Segment **pp, uint64_t from, uint64_t to,
		      const uint8_t *src)
{
	while (from < to && !in->fail) {
		uint32_t n = to - from > SEG_LARGE_CAP ? SEG_LARGE_CAP : (uint32_t)(to - from);
		Segment *seg = seg_alloc(in->st, n);

		if (!seg) {
			counter_inc(in->st->tc, stream_cnt.segment_memcap_drop);
			stream_event(in->st, in->p, SEV_REASSEMBLY_INSERT_MEMCAP);
			reasm_refused(in->st, in->p);
			in->fail = 1;
			break;
		}
		seg->off = from;
		seg->len = (uint16_t)n;
		seg->orig_start = in->ns;
		seg->orig_end = in->ne;
		memcpy(seg->data, src, n);
		seg->next = *pp;
		*pp = seg;
		pp = &seg->next;
		in->fresh += n;
		from += n;
		src += n;
	}
	return pp;
}

static void resolve(struct ins *in, Segment *seg, uint64_t from, uint64_t to,
		    const uint8_t *src)
{
	uint8_t *dst = seg->data + seg->head + (from - seg->off);

	in->overlap = 1;
	if (memcmp(dst, src, to - from) == 0)
		return;
	in->diff = 1;
	if (in->w0)
		normalise(in, src, dst, to - from);
	else if (new_wins(in->s->policy, in->ns, in->ne, seg->orig_start, seg->orig_end))
		memcpy(dst, src, to - from);
}

static void depth_reached(StreamThread *st, TcpStream *s, Packet *p)
{
	if (p)
		p->stream_flags |= STREAM_PKT_DEPTH_REACHED;
	s->dir_flags |= STREAM_DIR_DEPTH_REACHED;
	if (s->flags & TS_DEPTH_EVENT)
		return;
	s->flags |= TS_DEPTH_EVENT;
	counter_inc(st->tc, stream_cnt.stream_depth_reached);
	stream_event(st, p, SEV_REASSEMBLY_DEPTH_REACHED);
}

uint32_t reasm_insert(StreamThread *st, TcpSession *ssn, TcpStream *s, Packet *p,
		      uint64_t off, const uint8_t *data, uint32_t len)
{
	struct ins in = { .st = st, .s = s, .p = p, .ns = off, .ne = off + len };
	uint64_t end = off + len, depth = ssn_depth(st, ssn);

	/* inline, and the bytes are the packet's own (not a copy) */
	if (st->cfg->inline_mode > 0 && p && p->data && data >= p->data &&
	    data + len <= p->data + p->caplen) {
		in.src0 = data;
		in.w0 = p->data + (data - p->data);
	}
	Segment **pp = &s->segs;
	uint64_t cur;

	if (len == 0)
		return 0;
	if (off < s->ready_off) {
		uint64_t cut = end < s->ready_off ? end : s->ready_off;

		compare_ready(&in, off, data, cut);
		data += cut - off;
		off = cut;
	}
	if (depth && end > depth) {
		/* bytes past depth are not stored; still "fresh" if never seen */
		uint64_t from = off > depth ? off : depth;

		if (end > s->max_off)
			in.fresh += (uint32_t)(end - (from > s->max_off ? from : s->max_off));
		depth_reached(st, s, p);
		end = depth;
	}

	cur = off;
	while (cur < end && !in.fail) {
		Segment *seg = *pp;

		if (seg && seg->off + seg->len <= cur) {
			pp = &seg->next;
			continue;
		}
		if (!seg || seg->off >= end) {
			pp = fill(&in, pp, cur, end, data + (cur - off));
			break;
		}
		if (seg->off > cur) {
			pp = fill(&in, pp, cur, seg->off, data + (cur - off));
			cur = seg->off;
			continue;
		}
		{
			uint64_t to = end < seg->off + seg->len ? end : seg->off + seg->len;

			resolve(&in, seg, cur, to, data + (cur - off));
			cur = to;
			pp = &seg->next;
		}
	}

	if (in.overlap)
		counter_inc(st->tc, stream_cnt.overlap);
	if (in.rewrote)
		(void)decode_l4_csum_rewrite(p);  /* a cut or tunnelled one keeps its sum */
	if (in.diff) {
		if (p)
			p->stream_flags |= STREAM_PKT_OVERLAP_DIFF;
		counter_inc(st->tc, stream_cnt.overlap_diff_data);
		stream_event(st, p, SEV_REASSEMBLY_OVERLAP_DIFFERENT_DATA);
	}
	if (in.ne > s->max_off)
		s->max_off = in.ne;
	if (p && !in.overlap && !in.fail && end == in.ne && in.ns == off &&
	    in.fresh == in.ne - in.ns)
		p->stream_flags |= STREAM_PKT_STORED_AS_IS;
	return in.fresh;
}

static void gap(StreamThread *st, TcpStream *s, Packet *p)
{
	counter_inc(st->tc, stream_cnt.reassembly_gap);
	stream_event(st, p, SEV_REASSEMBLY_SEQ_GAP);
	s->dir_flags |= STREAM_DIR_GAP;
}

int reasm_advance(StreamThread *st, TcpSession *ssn, TcpStream *s, Packet *p, uint64_t limit)
{
	uint64_t start = s->ready_off, depth = ssn_depth(st, ssn);
	Segment *seg;

	if (depth && limit > depth)
		limit = depth;
	while ((seg = s->segs) != NULL && seg->off < limit) {
		uint64_t segend = seg->off + seg->len;
		uint32_t n = (uint32_t)((segend < limit ? segend : limit) - seg->off);

		/* ACKed (or flushed) bytes we never saw: skip them. Only
		 * an ACKed hole is a gap event, as Suricata: one flushed by
		 * an RST or the flow's end was never acknowledged */
		if (seg->off > s->ready_off && seg->off <= s->acked_off)
			gap(st, s, p);
		else if (seg->off > s->ready_off)
			s->dir_flags |= STREAM_DIR_GAP;
		append_ready(st, s, p, seg->off, seg->data + seg->head, n);
		s->ready_off = seg->off + n;
		if (n == seg->len) {
			s->segs = seg->next;
			seg_free(st, seg);
		} else {
			seg->head += n;
			seg->len -= n;
			seg->off += n;
		}
	}
	return s->ready_off != start;
}

uint64_t reasm_contig_end(const TcpStream *s)
{
	/* an ACKed hole is no hole: the receiver has its bytes, and
	 * reasm_advance skips it (a packet dropped inline, such as an urgent
	 * byte under urgent.policy drop, leaves one that the peer's ACK then
	 * covers: Suricata's app layer goes on past it at once) */
	uint64_t end = s->acked_off > s->ready_off ? s->acked_off : s->ready_off;
	const Segment *seg;

	for (seg = s->segs; seg && seg->off <= end; seg = seg->next)
		if (seg->off + seg->len > end)
			end = seg->off + seg->len;
	return end;
}

void reasm_stream_free(StreamThread *st, TcpStream *s)
{
	Segment *seg, *next;

	for (seg = s->segs; seg; seg = next) {
		next = seg->next;
		seg_free(st, seg);
	}
	s->segs = NULL;
	buf_put(st, s->buf, s->buf_cap);
	s->buf = NULL;
	s->buf_cap = s->buf_len = 0;
	s->nruns = 0;
}

void reasm_thread_free(StreamThread *st)
{
	int cls;

	for (cls = 0; cls < 2; cls++) {
		while (st->seg_free[cls]) {
			Segment *seg = st->seg_free[cls];

			st->seg_free[cls] = seg->next;
			stream_mem_release(1, seg_size(cls));
			counter_sub(st->tc, stream_cnt.reassembly_memuse, seg_size(cls));
			free(seg);
		}
		st->nseg_free[cls] = 0;
	}
	for (cls = 0; cls < 2; cls++) {
		uint32_t cap = cls ? BUF_BLOCK : BUF_SMALL;

		while (st->nbuf_free[cls]) {
			free(st->buf_free[cls][--st->nbuf_free[cls]]);
			stream_mem_release(1, cap);
			counter_sub(st->tc, stream_cnt.reassembly_memuse, cap);
		}
	}
}

/* ---- consumers ---- */

static const TcpStream *dir_stream(const Flow *f, int dir)
{
	const TcpSession *ssn = f ? f->stream : NULL;

	if (!ssn || dir < 0 || dir > 1)
		return NULL;
	return &ssn->s[dir];
}

int stream_get_data(const Flow *f, int dir, uint64_t from, const uint8_t **data,
		    uint32_t *len, uint64_t *base)
{
	const TcpStream *s = dir_stream(f, dir);
	unsigned i;

	*data = NULL;
	*len = 0;
	*base = from;
	if (!s)
		return 0;
	for (i = 0; i < s->nruns; i++) {
		uint64_t rs = run_off(s, i), re = run_end(s, i);
		uint64_t a = from > rs ? from : rs;

		if (re <= from)
			continue;
		*data = s->buf + s->runs[i].idx + (a - rs);
		*len = (uint32_t)(re - a);
		*base = a;
		return 1;
	}
	return 0;
}

uint64_t stream_ready_offset(const Flow *f, int dir)
{
	const TcpStream *s = dir_stream(f, dir);

	return s ? s->ready_off : 0;
}

unsigned stream_dir_flags(const Flow *f, int dir)
{
	const TcpStream *s = dir_stream(f, dir);

	return s ? s->dir_flags : 0;
}

void stream_release(Flow *f, int dir, enum stream_consumer c, uint64_t upto)
{
	TcpSession *ssn = f ? f->stream : NULL;
	TcpStream *s;

	if (!ssn || dir < 0 || dir > 1 || (unsigned)c >= STREAM_CONSUMER_MAX)
		return;
	s = &ssn->s[dir];
	if (upto <= s->released[c])
		return;
	s->released[c] = upto;
	reasm_release(ssn->st, s);
}

/* ---- inline (IPS) raw inspection ---- */

/* Walks dir's stored data in offset order: the ready runs, then the
 * segments not yet ready (they only lie past the ready offset). */
struct piece_iter {
	const TcpStream *s;
	unsigned run;
	const Segment *seg;
};

static int piece_next(struct piece_iter *it, uint64_t *off, const uint8_t **data,
		      uint32_t *len)
{
	const TcpStream *s = it->s;

	if (it->run < s->nruns) {
		unsigned i = it->run++;

		*off = run_off(s, i);
		*data = s->buf + s->runs[i].idx;
		*len = (uint32_t)(run_end(s, i) - *off);
		return 1;
	}
	if (it->seg) {
		const Segment *g = it->seg;

		it->seg = g->next;
		*off = g->off;
		*data = g->data + g->head;
		*len = g->len;
		return 1;
	}
	return 0;
}

int stream_stored_equal(const Flow *f, int dir, uint64_t off, const uint8_t *buf,
			uint32_t len, uint64_t *released_end)
{
	const TcpStream *s = dir_stream(f, dir);
	const TcpSession *ssn = f ? f->stream : NULL;
	struct piece_iter it;
	uint64_t want = off, end = off + len, po, m;
	const uint8_t *pd;
	uint32_t pl;

	*released_end = off;
	if (!s)
		return 0;
	/* every consumer is past the bytes below m: they are gone for good */
	m = min_released(ssn->st, s);
	if (m != UINT64_MAX && m > want) {
		want = m < end ? m : end;
		*released_end = want;
	}
	it = (struct piece_iter){ .s = s, .seg = s->segs };
	/* pieces come in offset order and never overlap: the wanted range must
	 * be covered piece after piece with no hole */
	while (want < end && piece_next(&it, &po, &pd, &pl)) {
		uint64_t pe = po + pl, n;

		if (pe <= want)
			continue;
		if (po > want)
			return 0;
		n = (pe < end ? pe : end) - want;
		if (memcmp(pd + (want - po), buf + (want - off), n))
			return 0;
		want += n;
	}
	return want >= end;
}

/* Suricata's inline window: at most chunk bytes of the run around the
 * packet [l, r) of run [a, b), ending with the packet when it is the newest
 * data, starting with it when it fills the front of a hole, else shared
 * out before and after it. */
static void inline_trim(uint64_t a, uint64_t b, uint64_t l, uint64_t r, uint32_t chunk,
			uint64_t *ws, uint64_t *we)
{
	uint64_t plen = r - l, room, before = l - a, after = b - r;

	if (chunk <= plen)
		chunk = (uint32_t)(plen + chunk / 10);
	*ws = a;
	*we = b;
	if (b - a <= chunk)
		return;
	if (b == r) {
		*ws = b - chunk;
		return;
	}
	if (a == l) {
		*we = a + chunk;
		return;
	}
	room = chunk - plen;
	if (after >= room / 2) {
		if (before >= room / 2)
			before = after = room / 2;
		else
			after = room - before;
	} else if (before >= room / 2) {
		before = room - after;
	}
	*ws = l - before;
	*we = r + after;
}

uint32_t stream_inline_window(const Flow *f, int dir, const Packet *p, uint32_t chunk,
			      uint8_t *buf, uint32_t cap, uint64_t *base)
{
	const TcpStream *s = dir_stream(f, dir);
	struct piece_iter it;
	uint64_t l, r, a = 0, b = 0, ws, we, off;
	const uint8_t *d;
	uint32_t len, plen = p->payload_len;
	int64_t so;
	int have = 0;

	if (!s || !plen || !(s->flags & TS_HAVE_BASE))
		return 0;
	so = (int64_t)s->anchor_off + (int32_t)(p->tcp_seq - s->anchor_seq);
	if (so + (int64_t)plen <= 0)
		return 0;
	if (so < 0) {
		plen -= (uint32_t)-so;
		so = 0;
	}
	l = (uint64_t)so;
	r = l + plen;
	/* the contiguous run of stored bytes that holds all of the packet's */
	it = (struct piece_iter){ s, 0, s->segs };
	while (piece_next(&it, &off, &d, &len)) {
		if (!len)
			continue;
		if (have && off > b) {
			if (a <= l && r <= b)
				break;
			have = 0;
		}
		if (!have) {
			a = b = off;
			have = 1;
		}
		if (off + len > b)
			b = off + len;
	}
	if (!have || l < a || r > b)
		return 0;
	inline_trim(a, b, l, r, chunk, &ws, &we);
	if (we - ws > cap)
		ws = we - cap;
	it = (struct piece_iter){ s, 0, s->segs };
	while (piece_next(&it, &off, &d, &len)) {
		uint64_t lo = off > ws ? off : ws, hi = off + len < we ? off + len : we;

		if (lo < hi)
			memcpy(buf + (lo - ws), d + (lo - off), hi - lo);
	}
	*base = ws;
	return (uint32_t)(we - ws);
}

/* ---- alert payloads ---- */

static uint32_t put(uint8_t *buf, uint32_t cap, uint32_t n, const void *src, uint32_t len)
{
	if (n >= cap)
		return 0;
	if (len > cap - n)
		len = cap - n;
	memcpy(buf + n, src, len);
	return len;
}

uint32_t stream_log_data(const Flow *f, int dir, uint64_t upto, uint8_t *buf, uint32_t cap)
{
	const TcpSession *ssn = f ? f->stream : NULL;
	const TcpStream *s;
	struct piece_iter it;
	uint64_t last, off;
	const uint8_t *d;
	uint32_t len, n = 0;

	if (!ssn || dir < 0 || dir > 1)
		return 0;
	s = &ssn->s[dir];
	/* what every consumer released is gone, and not a hole */
	last = min_released(ssn->st, s);
	if (last == UINT64_MAX)
		return 0;
	it = (struct piece_iter){ s, 0, s->segs };
	while (n < cap && piece_next(&it, &off, &d, &len)) {
		if (off >= upto)
			break;
		if (off + len <= last)
			continue;
		if (off < last) {
			d += last - off;
			len -= (uint32_t)(last - off);
			off = last;
		}
		if (len > upto - off)
			len = (uint32_t)(upto - off);
		if (off > last) {
			char m[48];
			int k = snprintf(m, sizeof(m), "[%llu bytes missing]",
					 (unsigned long long)(off - last));

			n += put(buf, cap, n, m, (uint32_t)k);
		}
		n += put(buf, cap, n, d, len);
		last = off + len;
	}
	return n;
}
