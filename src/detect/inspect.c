/* Full inspection of one signature against one packet: header (protocol,
 * addresses, ports), packet keywords (SM_LIST_MATCH) and buffer keywords
 * (content, pcre, byte_*, isdataat) with Suricata's semantics. */
#include "detect/inspect.h"
#include "detect/transform.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <string.h>


/* ---- header ---- */

static int addr_match(const AddrSet *set, const Address *a)
{
	if (set->any)
		return 1;
	if (a->family == AF_INET)
		return addrset_match_v4(set, ntohl(a->a.u32[0]));
	if (a->family == AF_INET6)
		return addrset_match_v6(set, a->a.u8);
	return 0;
}

/* A flow-end pseudo packet has no header but carries its flow's ports, as
 * Suricata's pseudo packets (built with a TCP header) do: port rules
 * inspect the stream data left at the flow's end too. */
static int has_ports(const Packet *p)
{
	return (p->proto == IPPROTO_TCP || p->proto == IPPROTO_UDP || p->proto == 132) &&
	       (p->l4 != NULL || (p->flags & PKT_PSEUDO));
}

static int side_match(const Signature *s, const Address *src, uint16_t sp,
		      const Address *dst, uint16_t dp, int ports)
{
	/* ports first: cheaper than address sets, and more often decisive */
	if (ports && !(portset_match(&s->dp, dp) && portset_match(&s->sp, sp)))
		return 0;
	return addr_match(&s->src, src) && addr_match(&s->dst, dst);
}

int inspect_header(const DetectSig *ds, const Packet *p)
{
	const Signature *s = ds->s;
	int ports;

	if ((s->flags & SIG_FLAG_PKTHDR) && !p->ip_version)
		return s->src.any && s->dst.any;
	if (s->proto != SIG_PROTO_IP && s->proto != p->proto) {
		/* "icmp" covers ICMPv4 and ICMPv6 */
		if (!(ds->is_icmp_any && (p->proto == IPPROTO_ICMP || p->proto == IPPROTO_ICMPV6)))
			return 0;
	}
	if (!p->ip_version)
		return 0;
	ports = ds->port_check;
	if (ports && !has_ports(p))
		return 0;
	if (side_match(s, &p->src, p->sp, &p->dst, p->dp, ports))
		return 1;
	if (s->flags & SIG_FLAG_BIDIR)
		return side_match(s, &p->dst, p->dp, &p->src, p->sp, ports);
	return 0;
}

/* ---- packet keywords ---- */

/* The packet / flow keywords' match functions are in their families' files
 * (Keyword.match); the buffer keywords are steps (Keyword.step, inspect.h),
 * the big ones (content, pcre, byte_*, base64_decode) here, beside the
 * search and memo they share. */

void inspect_precheck_build(const Signature *s, SigPrecheck *c)
{
	memset(c, 0, sizeof(*c));
	c->sp_lo = c->dp_lo = 0;
	c->sp_hi = c->dp_hi = 65535;
	portset_hull(&s->sp, &c->sp_lo, &c->sp_hi);
	portset_hull(&s->dp, &c->dp_lo, &c->dp_hi);
	c->bidir = !!(s->flags & SIG_FLAG_BIDIR);
	/* what the hulls cannot say of inspect_header's test: the addresses,
	 * and the gaps of a port list (!80 is two ranges, hull 0:65535) */
	c->hdr = !s->src.any || !s->dst.any || (!s->sp.any && s->sp.n > 1) ||
		 (!s->dp.any && s->dp.n > 1);
	for (int i = 0; i < s->lists[SM_LIST_MATCH].n; i++) {
		const SigMatch *m = &s->lists[SM_LIST_MATCH].m[i];

		switch (m->kw) {
		case KW_DSIZE: {
			const DetectUint *u = m->ctx;

			/* as match_one: what dsize says of an empty payload */
			if (u->mode == UM_NE || !detect_uint_match(u, 0))
				c->need |= PRE_PAYLOAD;
			break;
		}
		case KW_FLOW: {
			uint32_t fl = ((const DetectFlow *)m->ctx)->flags;

			if (fl & FLOW_TOSERVER)
				c->need |= PRE_TOSERVER;
			if (fl & FLOW_TOCLIENT)
				c->need |= PRE_TOCLIENT;
			break;
		}
		case KW_FLAGS: {
			const DetectTcpFlags *tf = m->ctx;
			uint8_t want = tf->flags & (uint8_t)~tf->mask;

			c->need |= PRE_TCP;
			if (tf->modifier == 0) {
				c->flags_set |= want;
				c->flags_clear |= (uint8_t)~(want | tf->mask);
			} else if (tf->modifier == FLAGS_MOD_PLUS) {
				c->flags_set |= want;
			} else if (tf->modifier == FLAGS_MOD_NOT) {
				c->flags_clear |= want;
			} else if (tf->modifier == FLAGS_MOD_ANY && want) {
				c->flags_any = want;
			}
			break;
		}
		case KW_IP_PROTO: {
			const DetectIpProto *d = m->ctx;

			if (d->mode == 0) {
				c->has_proto = 1;
				c->proto = d->proto;
			}
			break;
		}
		default:
			break;
		}
	}
	/* contradictory keywords: the rule never matches; keep it inspected
	 * (the precheck only ever skips what inspection would reject) */
	if (c->flags_set & c->flags_clear)
		c->flags_set = c->flags_clear = 0;
}

/* A keyword we cannot evaluate never matches. */
static inline int match_one(DetectThread *dt, const DetectTx *tx, const SigMatch *m, Packet *p)
{
	const Keyword *k = keyword_by_id_built(m->kw);

	if (!k)
		return 0;
	if (k->match)
		return k->match(dt, m, p);
	return k->tx_match ? k->tx_match(tx, m, p) : 0;
}

int inspect_match_list(DetectThread *dt, const Signature *s, Packet *p)
{
	static const DetectTx no_tx;

	return inspect_match_list_tx(dt, s, p, &no_tx);
}

int inspect_match_list_tx(DetectThread *dt, const Signature *s, Packet *p, const DetectTx *tx)
{
	const SigMatchList *ml = &s->lists[SM_LIST_MATCH];

	if ((s->flags & SIG_FLAG_SAMEIP) && !(p->ip_version && detect_same_addr(&p->src, &p->dst)))
		return 0;
	for (int i = 0; i < ml->n; i++)
		if (!match_one(dt, tx, &ml->m[i], p))
			return 0;
	return 1;
}

/* ---- buffer keywords ---- */

static inline uint8_t lc(uint8_t c)
{
	return (c >= 'A' && c <= 'Z') ? c + 32 : c;
}

/* First occurrence of pat in buf[from, to) (the whole pattern inside), or -1. */
static int64_t find(const uint8_t *buf, uint32_t from, uint32_t to, const uint8_t *pat,
		    uint32_t plen, int nocase)
{
	if (to < from + plen || plen == 0)
		return plen == 0 ? (int64_t)from : -1;
	uint32_t last = to - plen;

	if (!nocase) {
		for (uint32_t i = from; i <= last;) {
			const uint8_t *q = memchr(buf + i, pat[0], last - i + 1);

			if (!q)
				return -1;
			i = (uint32_t)(q - buf);
			if (memcmp(q + 1, pat + 1, plen - 1) == 0)
				return i;
			i++;
		}
		return -1;
	}
	/* caseless: memchr for each case of the first byte (the next
	 * occurrence of each is kept), then compare the rest */
	uint8_t f = lc(pat[0]), F = (f >= 'a' && f <= 'z') ? (uint8_t)(f - 32) : f;
	const uint8_t *end = buf + last + 1, *qa, *qb;

	qa = memchr(buf + from, f, (size_t)(end - (buf + from)));
	if (!qa)
		qa = end;
	qb = end;
	if (F != f && !(qb = memchr(buf + from, F, (size_t)(end - (buf + from)))))
		qb = end;
	for (;;) {
		const uint8_t *q = qa < qb ? qa : qb;
		uint32_t k;

		if (q == end)
			return -1;
		for (k = 1; k < plen; k++)
			if (lc(q[k]) != lc(pat[k]))
				break;
		if (k == plen)
			return (int64_t)(q - buf);
		/* q failed: advance whichever pointer sat on it */
		if (q == qa && !(qa = memchr(q + 1, f, (size_t)(end - (q + 1)))))
			qa = end;
		if (q == qb && !(qb = memchr(q + 1, F, (size_t)(end - (q + 1)))))
			qb = end;
	}
}

static void replace_note(DetectThread *dt, const Signature *s, int idx, uint32_t off)
{
	for (int i = 0; i < s->nrepl; i++) {
		if (s->repl[i].idx != idx)
			continue;
		if (dt->nrepl < DETECT_REPL_MAX)
			dt->repl[dt->nrepl++] = (struct DetectReplaceAt){ off, &s->repl[i] };
		return;
	}
}

int inspect_content_step(DetectThread *dt, const Signature *s, const SigMatchList *ml, int idx,
			 const InspectBuffer *b, uint32_t prev)
{
	const SigMatch *m = &ml->m[idx];
	const DetectContent *cd = m->cd;
	uint32_t len = b->len;
	int64_t start = 0, end = len;
	int nocase = !!(cd->flags & CONTENT_NOCASE);

	if (cd->flags & (CONTENT_DISTANCE | CONTENT_WITHIN)) {
		int64_t dist = (cd->flags & CONTENT_DISTANCE) ?
			inspect_var(dt, cd->flags & CONTENT_DISTANCE_VAR, cd->distance) : 0;

		start = (int64_t)prev + dist;
		if (start < 0)
			start = 0;
		/* within counts from the previous match end plus distance */
		if (cd->flags & CONTENT_WITHIN) {
			int64_t w = inspect_var(dt, cd->flags & CONTENT_WITHIN_VAR, cd->within);

			if ((int64_t)prev + dist + w < end)
				end = (int64_t)prev + dist + w;
		}
	} else {
		if (cd->flags & CONTENT_OFFSET)
			start = inspect_var(dt, cd->flags & CONTENT_OFFSET_VAR, cd->offset);
		if (cd->flags & CONTENT_DEPTH) {
			int64_t d = inspect_var(dt, cd->flags & CONTENT_DEPTH_VAR, cd->depth);

			/* the parser folds offset into depth only when both are
			 * numbers; with a variable either way depth counts from
			 * the offset */
			if (cd->flags & (CONTENT_DEPTH_VAR | CONTENT_OFFSET_VAR))
				d += start;
			if (d < end)
				end = d;
		}
	}
	if (cd->flags & CONTENT_ENDSWITH) {
		int64_t e = (int64_t)len - cd->len;

		if (e > start)
			start = e;
	}
	if (start > end || end <= 0) {
		/* nothing to search: a negated content is satisfied */
		return (cd->flags & CONTENT_NEGATED) ? inspect_next(dt, s, ml, idx + 1, b, prev) : 0;
	}
	/* Backtracking tries each occurrence of this content with the rest of
	 * the chain, which sees only the match's end. Without within (the one
	 * bound that moves with prev) a later start searches a part of what
	 * an earlier one did, so once every occurrence from some start failed,
	 * any start past it fails too: a chain like `content:"<"; distance:0;
	 * content:".length"; distance:0; pcre:R` over a script no longer tries
	 * each .length again for each '<' before it (until the recursion limit).
	 * byte_extract variables could make the rest differ: no memo then. */
	int memo = idx < INSPECT_MEMO_MAX && dt->memo_ml == ml && !s->nvars &&
		   !(cd->flags & (CONTENT_WITHIN | CONTENT_NEGATED));
	uint32_t start0 = (uint32_t)start;

	if (memo && start0 >= dt->fail_from[idx])
		return 0;
	for (;;) {
		int64_t pos;

		if (++dt->recursion > DETECT_RECURSION_LIMIT)
			return 0;
		pos = find(b->data, (uint32_t)start, (uint32_t)end, cd->pat, cd->len, nocase);
		if (pos >= 0 && (cd->flags & CONTENT_ENDSWITH) && pos + cd->len != len)
			pos = -1;
		if (cd->flags & CONTENT_NEGATED) {
			if (pos >= 0)
				return 0;
			return inspect_next(dt, s, ml, idx + 1, b, prev);
		}
		if (pos >= 0 && inspect_next(dt, s, ml, idx + 1, b, (uint32_t)(pos + cd->len))) {
			/* the chain held from here on: this occurrence is the one a
			 * replace rewrites (only on the packet's own payload: a
			 * stream window's bytes are no single packet's, as in
			 * Suricata, which replaces packet matches only) */
			if (s->nrepl && b->type == IBUF_PACKET && ml == &s->lists[BUF_PAYLOAD])
				replace_note(dt, s, idx, (uint32_t)pos);
			return 1;
		}
		/* Only a chain relative to this match can succeed elsewhere:
		 * retry at the next occurrence (Suricata's backtracking). */
		if (pos < 0 || !m->relative_next) {
			if (memo && start0 < dt->fail_from[idx])
				dt->fail_from[idx] = start0;
			return 0;
		}
		start = pos + 1;
	}
}

int inspect_pcre_step(DetectThread *dt, const Signature *s, const SigMatchList *ml, int idx,
		      const InspectBuffer *b, uint32_t prev)
{
	const SigMatch *m = &ml->m[idx];
	const DetectPcre *pd = m->pd;
	uint32_t base = (pd->flags & PCRE_RELATIVE) ? prev : 0;
	PCRE2_SIZE from = 0;

	if (base > b->len)
		return (pd->flags & PCRE_NEGATED) ? inspect_next(dt, s, ml, idx + 1, b, prev) : 0;
	for (;;) {
		int rc;
		PCRE2_SIZE *ov;

		if (++dt->recursion > DETECT_RECURSION_LIMIT)
			return 0;
		rc = pcre2_match(pd->code, b->data + base, b->len - base, from, 0, dt->md,
				 (pd->flags & PCRE_NO_LIMIT) ? NULL : dt->mctx);
		if (pd->flags & PCRE_NEGATED) {
			/* a match given up at a limit is no proof of absence */
			if (rc != PCRE2_ERROR_NOMATCH)
				return 0;
			return inspect_next(dt, s, ml, idx + 1, b, prev);
		}
		if (rc < 0)
			return 0;
		ov = pcre2_get_ovector_pointer(dt->md);
		if (pd->ncaps) {
			/* the captures count once the whole rule matched */
			int mark = detect_var_stage(dt, s, pd, b->data + base, ov, rc);
			uint32_t end = base + (uint32_t)ov[1];

			if (inspect_next(dt, s, ml, idx + 1, b, end))
				return 1;
			detect_var_unstage(dt, mark);
			/* the ovector was the next keywords' meanwhile */
			rc = pcre2_match(pd->code, b->data + base, b->len - base, from, 0, dt->md, NULL);
			if (rc < 0)
				return 0;
			ov = pcre2_get_ovector_pointer(dt->md);
		} else if (inspect_next(dt, s, ml, idx + 1, b, base + (uint32_t)ov[1])) {
			return 1;
		}
		if (!m->relative_next || ov[0] + 1 > b->len - base)
			return 0;
		from = ov[0] + 1;
	}
}

/* Reads nbytes at pos as the byte keyword says. 0, or -1 when out of data or
 * not a number. */
static int byte_read(const DetectByte *bd, const uint8_t *d, uint32_t len, int64_t pos,
		     uint8_t nbytes, uint64_t *out)
{
	uint64_t v = 0;

	if (pos < 0 || pos + nbytes > (int64_t)len || nbytes == 0)
		return -1;
	d += pos;
	if (bd->flags & BYTE_STRING) {
		int base = bd->base ? bd->base : 10, any = 0;

		for (int i = 0; i < nbytes; i++) {
			int c = d[i], dv;

			if (c >= '0' && c <= '9')
				dv = c - '0';
			else if (base == 16 && isxdigit(c))
				dv = tolower(c) - 'a' + 10;
			else
				break;
			if (dv >= base)
				break;
			v = v * base + dv;
			any = 1;
		}
		if (!any)
			return -1;
	} else if (bd->flags & (BYTE_LITTLE | BYTE_DCE)) {
		for (int i = nbytes - 1; i >= 0; i--)
			v = v << 8 | d[i];
	} else {
		for (int i = 0; i < nbytes; i++)
			v = v << 8 | d[i];
	}
	if (bd->flags & BYTE_BITMASK) {
		v &= bd->bitmask;
		if (bd->bitmask)
			v >>= __builtin_ctz(bd->bitmask);
	}
	*out = v;
	return 0;
}

static int byte_test_cmp(const char *op, uint64_t v, uint64_t t)
{
	if (!strcmp(op, "<")) return v < t;
	if (!strcmp(op, ">")) return v > t;
	if (!strcmp(op, "=")) return v == t;
	if (!strcmp(op, "<=")) return v <= t;
	if (!strcmp(op, ">=")) return v >= t;
	if (!strcmp(op, "&")) return (v & t) != 0;
	if (!strcmp(op, "^")) return (v ^ t) != 0;
	return 0;
}

int inspect_byte_step(DetectThread *dt, const Signature *s, const SigMatchList *ml, int idx,
		      const InspectBuffer *b, uint32_t prev)
{
	const DetectByte *bd = ml->m[idx].ctx;
	int64_t off = inspect_var(dt, bd->flags & BYTE_OFFSET_VAR, bd->offset);
	int64_t pos = (bd->flags & BYTE_RELATIVE) ? (int64_t)prev + off : off;
	uint64_t v, r;
	int64_t np;

	if (bd->kind == KW_BYTE_JUMP && (bd->flags & BYTE_FROM_END) && !(bd->flags & BYTE_RELATIVE))
		pos = off;
	uint8_t nbytes = bd->nbytes;

	if (bd->flags & BYTE_NBYTES_VAR) {
		uint64_t n = (uint64_t)inspect_var(dt, 1, bd->nbytes);

		/* byte_math allows 1..10 bytes; the others 1..8, or 23 as a
		 * string, as their parsers do for a number */
		uint64_t max = bd->kind == KW_BYTE_MATH ? 10 : (bd->flags & BYTE_STRING) ? 23 : 8;

		if (n < 1 || n > max)
			return 0;
		nbytes = (uint8_t)n;
	}
	if (bd->kind == KW_BYTE_JUMP && nbytes == 0) {
		if (pos < 0 || pos > (int64_t)b->len)
			return 0;
		v = 0;
	} else if (byte_read(bd, b->data, b->len, pos, nbytes, &v) != 0) {
		return 0;
	}
	switch (bd->kind) {
	case KW_BYTE_TEST: {
		uint64_t t = (uint64_t)inspect_var(dt, bd->flags & BYTE_VALUE_VAR, (int64_t)bd->value);
		int ok = byte_test_cmp(bd->op, v, t);

		if (bd->flags & BYTE_NEGATED)
			ok = !ok;
		return ok ? inspect_next(dt, s, ml, idx + 1, b, prev) : 0;
	}
	case KW_BYTE_JUMP:
		v *= bd->multiplier ? bd->multiplier : 1;
		if (bd->flags & BYTE_ALIGN)
			v = (v + 3) & ~(uint64_t)3;
		if (bd->flags & BYTE_FROM_BEGIN)
			np = (int64_t)v;
		else if (bd->flags & BYTE_FROM_END)
			np = (int64_t)b->len + (int64_t)v;
		else
			np = pos + nbytes + (int64_t)v;
		np += bd->post_offset;
		/* Suricata clamps a jump before the buffer start to the start;
		 * past the end fails */
		if (np < 0)
			np = 0;
		if (np > (int64_t)b->len)
			return 0;
		return inspect_next(dt, s, ml, idx + 1, b, (uint32_t)np);
	case KW_BYTE_EXTRACT:
		v *= bd->multiplier ? bd->multiplier : 1;
		if (bd->align)
			v = (v + bd->align - 1) & ~(uint64_t)(bd->align - 1);
		if (bd->var_idx >= 0 && bd->var_idx < DETECT_VARS_MAX)
			dt->vars[bd->var_idx] = v;
		return inspect_next(dt, s, ml, idx + 1, b, (uint32_t)(pos + nbytes));
	case KW_BYTE_MATH:
		r = (uint64_t)inspect_var(dt, bd->flags & BYTE_VALUE_VAR, (int64_t)bd->value);
		if (!strcmp(bd->op, "+")) v += r;
		else if (!strcmp(bd->op, "-")) v -= r;
		else if (!strcmp(bd->op, "*")) v *= r;
		else if (!strcmp(bd->op, "/")) { if (!r) return 0; v /= r; }
		else if (!strcmp(bd->op, "<<")) v = r >= 64 ? 0 : v << r;
		else if (!strcmp(bd->op, ">>")) v = r >= 64 ? 0 : v >> r;
		if (bd->var_idx >= 0 && bd->var_idx < DETECT_VARS_MAX)
			dt->vars[bd->var_idx] = v;
		return inspect_next(dt, s, ml, idx + 1, b, prev);
	}
	return 0;
}

/* base64_data is a terminal list in Suricata: once the decoded data
 * matches, the rest of the buffer's keywords are not consulted. */
int inspect_base64_step(DetectThread *dt, const Signature *s, const SigMatchList *ml, int idx,
			const InspectBuffer *b, uint32_t prev)
{
	const SigMatchList *bl = &s->lists[SM_LIST_BASE64_DATA];
	XformScratch *xs = dt->xs;
	InspectBuffer db;
	int ok;

	if (!xs || xs->in_b64 || !base64_decode_step(xs, ml->m[idx].ctx, b->data, b->len, prev))
		return 0;
	if (!bl->n)
		return inspect_next(dt, s, ml, idx + 1, b, prev);
	db = (InspectBuffer){ xs->b64, xs->b64_len, b->type };
	xs->in_b64 = 1;
	ok = inspect_next(dt, s, bl, 0, &db, 0);
	xs->in_b64 = 0;
	return ok;
}

/* The next step of the list: the keyword's own (Keyword.step; sm_append
 * lets into a buffer list only keywords that have one). */
int inspect_next(DetectThread *dt, const Signature *s, const SigMatchList *ml, int idx,
		 const InspectBuffer *b, uint32_t prev)
{
	if (idx >= ml->n)
		return 1;
	return keyword_by_id_built(ml->m[idx].kw)->step(dt, s, ml, idx, b, prev);
}

int inspect_buffer(DetectThread *dt, const Signature *s, int list, const InspectBuffer *b)
{
	const SigMatchList *ml = &s->lists[list];

	if (!ml->n)
		return 1;
	if (!b->data)
		return 0;
	if (b->len == 0) {
		/* a buffer that is there but empty (an empty header value,
		 * HTTP/2's status message): nothing to find in it, but its
		 * size is 0, as Suricata 8's bsize:0 sees it, and a negated
		 * content is not in it, which Suricata's content inspection
		 * takes as a match (suricata-verify http2-keywords2) */
		for (int i = 0; i < ml->n; i++) {
			const SigMatch *m = &ml->m[i];

			if (m->kw == KW_BSIZE && detect_uint_match(m->ctx, 0))
				continue;
			if (m->kw == KW_CONTENT && (m->cd->flags & CONTENT_NEGATED))
				continue;
			return 0;
		}
		return 1;
	}
	dt->recursion = 0;
	dt->memo_ml = ml;
	for (int i = 0; i < ml->n && i < INSPECT_MEMO_MAX; i++)
		dt->fail_from[i] = UINT32_MAX;
	return inspect_next(dt, s, ml, 0, b, 0);
}
