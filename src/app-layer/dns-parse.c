/* DNS message parsing, TCP framing and transactions: see dns-parse.h. */
#include "app-layer/dns-parse.h"
#include "util/strnum.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------------------
 * Events and names of types and rcodes */

static const char *const event_names[DNS_EV_MAX] = {
	[DNS_EV_MALFORMED_DATA] = "malformed_data",
	[DNS_EV_NOT_A_REQUEST] = "not_a_request",
	[DNS_EV_NOT_A_RESPONSE] = "not_a_response",
	[DNS_EV_Z_FLAG_SET] = "z_flag_set",
	[DNS_EV_INVALID_OPCODE] = "invalid_opcode",
	[DNS_EV_NAME_TOO_LONG] = "name_too_long",
	[DNS_EV_INFINITE_LOOP] = "infinite_loop",
	[DNS_EV_TOO_MANY_LABELS] = "too_many_labels",
	[DNS_EV_INVALID_ADDITIONALS] = "invalid_additionals",
	[DNS_EV_INVALID_AUTHORITIES] = "invalid_authorities",
	[DNS_EV_TOO_MANY_TXS] = "too_many_transactions",
	[DNS_EV_TOO_MUCH_DATA] = "too_much_data",
};

const char *dns_event_name(enum dns_event ev)
{
	if ((unsigned)ev >= DNS_EV_MAX)
		return NULL;
	return event_names[ev];
}

int dns_event_by_name(const char *name)
{
	for (int i = 0; i < DNS_EV_MAX; i++)
		if (strcmp(event_names[i], name) == 0)
			return i;
	return -1;
}

/* The mnemonics Suricata prints, indexed by type: the eve writer names a
 * type for every query and record, so a lookup, not a search, and the
 * length kept, not measured. */
struct mnemonic {
	const char *s;
	uint8_t len;
};
#define M(s) { s, sizeof(s) - 1 }

#define RRTYPE_NAMES_N 258
static const struct mnemonic rrtype_names[RRTYPE_NAMES_N] = {
	[1] = M("A"),         [2] = M("NS"),       [3] = M("MD"),       [4] = M("MF"),
	[5] = M("CNAME"),     [6] = M("SOA"),      [7] = M("MB"),       [8] = M("MG"),
	[9] = M("MR"),        [10] = M("NULL"),    [11] = M("WKS"),     [12] = M("PTR"),
	[13] = M("HINFO"),    [14] = M("MINFO"),   [15] = M("MX"),      [16] = M("TXT"),
	[17] = M("RP"),       [18] = M("AFSDB"),   [19] = M("X25"),     [20] = M("ISDN"),
	[21] = M("RT"),       [22] = M("NSAP"),    [23] = M("NSAPPTR"), [24] = M("SIG"),
	[25] = M("KEY"),      [26] = M("PX"),      [27] = M("GPOS"),    [28] = M("AAAA"),
	[29] = M("LOC"),      [30] = M("NXT"),     [33] = M("SRV"),     [34] = M("ATMA"),
	[35] = M("NAPTR"),    [36] = M("KX"),      [37] = M("CERT"),    [38] = M("A6"),
	[39] = M("DNAME"),    [41] = M("OPT"),     [42] = M("APL"),     [43] = M("DS"),
	[44] = M("SSHFP"),    [45] = M("IPSECKEY"), [46] = M("RRSIG"),  [47] = M("NSEC"),
	[48] = M("DNSKEY"),   [49] = M("DHCID"),   [50] = M("NSEC3"),   [51] = M("NSEC3PARAM"),
	[52] = M("TLSA"),     [55] = M("HIP"),     [59] = M("CDS"),     [60] = M("CDNSKEY"),
	[64] = M("SVCB"),     [65] = M("HTTPS"),   [99] = M("SPF"),     [249] = M("TKEY"),
	[250] = M("TSIG"),    [253] = M("MAILA"),  [255] = M("ANY"),    [256] = M("URI"),
	[257] = M("CAA"),
};

const char *dns_rrtype_name(uint16_t rrtype)
{
	return rrtype < RRTYPE_NAMES_N ? rrtype_names[rrtype].s : NULL;
}

int dns_rrtype_by_name(const char *name)
{
	for (int t = 0; t < RRTYPE_NAMES_N; t++)
		if (rrtype_names[t].s && strcasecmp(rrtype_names[t].s, name) == 0)
			return t;
	return -1;
}

/* v in decimal at buf, NUL-terminated; its length. The unnamed types and
 * rcodes, which Suricata prints as the number. */
static size_t format_decimal(unsigned v, char *buf)
{
	size_t n = u32_digits(v, buf);

	buf[n] = 0;
	return n;
}

/* The text at a caller's buffer, cut to fit as snprintf() would. */
static const char *copy_text(const char *s, size_t n, char *buf, size_t size)
{
	if (!size)
		return buf;
	if (n >= size)
		n = size - 1;
	memcpy(buf, s, n);
	buf[n] = 0;
	return buf;
}

const char *dns_rrtype_text(uint16_t rrtype, char *buf, size_t *len)
{
	if (rrtype < RRTYPE_NAMES_N && rrtype_names[rrtype].s) {
		*len = rrtype_names[rrtype].len;
		return rrtype_names[rrtype].s;
	}
	*len = format_decimal(rrtype, buf);
	return buf;
}

const char *dns_rrtype_format(uint16_t rrtype, char *buf, size_t size)
{
	char tmp[DNS_NAME_BUF];
	size_t n;
	const char *s = dns_rrtype_text(rrtype, tmp, &n);

	return copy_text(s, n, buf, size);
}

static const struct mnemonic rcodes[] = {
	M("NOERROR"),  M("FORMERR"), M("SERVFAIL"), M("NXDOMAIN"),
	M("NOTIMP"),   M("REFUSED"), M("YXDOMAIN"), M("YXRRSET"),
	M("NXRRSET"),  M("NOTAUTH"), M("NOTZONE"),
};
#define RCODES_N (sizeof(rcodes) / sizeof(rcodes[0]))

const char *dns_rcode_name(uint8_t rcode)
{
	return rcode < RCODES_N ? rcodes[rcode].s : NULL;
}

int dns_rcode_by_name(const char *name)
{
	for (size_t i = 0; i < RCODES_N; i++)
		if (strcasecmp(rcodes[i].s, name) == 0)
			return (int)i;
	return -1;
}

const char *dns_rcode_text(uint8_t rcode, char *buf, size_t *len)
{
	if (rcode < RCODES_N) {
		*len = rcodes[rcode].len;
		return rcodes[rcode].s;
	}
	*len = format_decimal(rcode, buf);
	return buf;
}

const char *dns_rcode_format(uint8_t rcode, char *buf, size_t size)
{
	char tmp[DNS_NAME_BUF];
	size_t n;
	const char *s = dns_rcode_text(rcode, tmp, &n);

	return copy_text(s, n, buf, size);
}

/* ---------------------------------------------------------------------
 * Per-message arena: chunks that never move, so pointers handed out stay
 * valid until dns_msg_free(). */

struct chunk {
	struct chunk *next;
	size_t used, cap;
	_Alignas(max_align_t) uint8_t data[];
};

struct arena {
	struct chunk *head;
	size_t total; /* bytes of all chunks */
};

#define CHUNK_MIN 4096

static void *arena_alloc(struct arena *a, size_t n, bool *too_much)
{
	struct chunk *c = a->head;

	n = (n + 15) & ~(size_t)15;
	if (!c || c->cap - c->used < n) {
		size_t cap = n > CHUNK_MIN ? n : CHUNK_MIN;

		if (c && c->cap * 2 > cap && c->cap * 2 <= 65536)
			cap = c->cap * 2;
		if (a->total + cap > DNS_MSG_MEM_MAX) {
			*too_much = true;
			return NULL;
		}
		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->next = a->head;
		c->used = 0;
		c->cap = cap;
		a->head = c;
		a->total += cap;
	}
	void *p = c->data + c->used;
	c->used += n;
	return p;
}

static void arena_free(struct arena *a)
{
	struct chunk *c = a->head;

	while (c) {
		struct chunk *next = c->next;
		free(c);
		c = next;
	}
	a->head = NULL;
	a->total = 0;
}

/* ---------------------------------------------------------------------
 * Parser state */

struct parser {
	const uint8_t *buf;
	size_t len;
	struct dns_msg *m;
	struct arena *arena;
	bool nomem;
	bool too_much; /* arena cap hit */
	/* scratch for one name; copied to the arena when done */
	uint8_t name[DNS_NAME_MAX];
};

static void set_event(struct parser *p, enum dns_event ev)
{
	p->m->events |= 1u << ev;
}

static void *palloc(struct parser *p, size_t n)
{
	bool too_much = false;
	void *r;

	if (n == 0)
		n = 1;
	r = arena_alloc(p->arena, n, &too_much);
	if (!r) {
		if (too_much)
			p->too_much = true;
		else
			p->nomem = true;
	}
	return r;
}

static inline uint16_t rd16(const uint8_t *b)
{
	return (uint16_t)(b[0] << 8 | b[1]);
}

static inline uint32_t rd32(const uint8_t *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	       (uint32_t)b[2] << 8 | b[3];
}

/* Reads the name at *pos (and past pointers); *pos moves past its wire form.
 * Returns false when the wire form itself is bad (runs past the end, a
 * reserved label type): the caller's section is then malformed. A loop or
 * too many labels is not a wire fault: the name is cut there, flagged, and
 * parsing goes on past the pointer that led into it, as Suricata keeps
 * going with an infinite_loop event. */
static bool parse_name(struct parser *p, size_t *pos, struct dns_name *out)
{
	size_t at = *pos;
	size_t resume = 0; /* where the wire form ends, once a pointer is taken */
	bool jumped = false;
	unsigned hops = 0, labels = 0;
	size_t wire = 0; /* octets of the wire form, pointers excluded */
	uint32_t outlen = 0;
	uint8_t flags = 0;
	bool copying = true;

	for (;;) {
		if (at >= p->len)
			return false;
		uint8_t b = p->buf[at];

		if (b == 0) {
			wire++;
			at++;
			break;
		}
		if ((b & 0xC0) == 0xC0) {
			if (at + 1 >= p->len)
				return false;
			size_t off = (size_t)(b & 0x3F) << 8 | p->buf[at + 1];

			if (!jumped) {
				resume = at + 2;
				jumped = true;
			}
			if (++hops > DNS_MAX_PTR_HOPS) {
				flags |= DNS_NAME_LOOP;
				set_event(p, DNS_EV_INFINITE_LOOP);
				break;
			}
			/* a pointer to itself or past the end can never end a name */
			if (off >= p->len)
				return false;
			at = off;
			continue;
		}
		if (b & 0xC0) /* 0x40, 0x80: extended / reserved label types */
			return false;
		if (at + 1 + b > p->len)
			return false;
		if (++labels > DNS_MAX_LABELS) {
			flags |= DNS_NAME_MANY_LABELS;
			set_event(p, DNS_EV_TOO_MANY_LABELS);
			if (jumped)
				break;
			/* no pointer yet: the wire form must still be walked to
			 * find where it ends; stop copying and keep counting */
			copying = false;
		}
		wire += 1u + b;
		if (copying) {
			uint32_t need = outlen ? 1u + b : b;

			if (outlen + need > DNS_NAME_MAX) {
				/* keep what fits, as Suricata's truncated names do */
				uint32_t room = DNS_NAME_MAX - outlen;

				if (outlen && room) {
					p->name[outlen++] = '.';
					room--;
				}
				memcpy(p->name + outlen, p->buf + at + 1,
				       room < b ? room : b);
				outlen += room < b ? room : b;
				flags |= DNS_NAME_TRUNCATED;
				set_event(p, DNS_EV_NAME_TOO_LONG);
				copying = false;
			} else {
				if (outlen)
					p->name[outlen++] = '.';
				memcpy(p->name + outlen, p->buf + at + 1, b);
				outlen += b;
			}
		}
		at += 1u + b;
	}
	if (wire > DNS_NAME_WIRE_MAX)
		flags |= DNS_NAME_OVER_255;
	*pos = jumped ? resume : at;

	uint8_t *s = palloc(p, outlen);

	if (!s)
		return false;
	memcpy(s, p->name, outlen);
	out->s.ptr = s;
	out->s.len = outlen;
	out->flags = flags;
	return true;
}

/* A name inside rdata must end inside it. */
static bool parse_rdata_name(struct parser *p, size_t *pos, size_t end,
			     struct dns_name *out)
{
	return parse_name(p, pos, out) && *pos <= end;
}

static bool parse_txt(struct parser *p, struct dns_rr *rr, size_t at, size_t end)
{
	uint32_t n = 0;

	for (size_t i = at; i < end; i += 1u + p->buf[i]) {
		if (i + 1u + p->buf[i] > end)
			return false;
		n++;
	}
	struct dns_bytes *v = palloc(p, (size_t)n * sizeof(*v));

	if (!v)
		return false;
	n = 0;
	for (size_t i = at; i < end; i += 1u + p->buf[i]) {
		v[n].ptr = p->buf + i + 1;
		v[n].len = p->buf[i];
		n++;
	}
	rr->kind = DNS_RD_TXT;
	rr->rd.txt.v = v;
	rr->rd.txt.n = n;
	return true;
}

static bool parse_opt(struct parser *p, struct dns_rr *rr, size_t at, size_t end)
{
	uint32_t n = 0;
	size_t i;

	for (i = at; i + 4 <= end; i += 4u + rd16(p->buf + i + 2)) {
		if (i + 4u + rd16(p->buf + i + 2) > end)
			return false;
		n++;
	}
	if (i != end)
		return false;
	struct dns_opt *v = palloc(p, (size_t)n * sizeof(*v));

	if (!v)
		return false;
	n = 0;
	for (i = at; i + 4 <= end; i += 4u + rd16(p->buf + i + 2)) {
		v[n].code = rd16(p->buf + i);
		v[n].data.ptr = p->buf + i + 4;
		v[n].data.len = rd16(p->buf + i + 2);
		n++;
	}
	rr->kind = DNS_RD_OPT;
	rr->rd.opt.v = v;
	rr->rd.opt.n = n;
	return true;
}

/* rdata of rr at buf[at..end); false means the record is malformed. */
static bool parse_rdata(struct parser *p, struct dns_rr *rr, size_t at, size_t end)
{
	size_t len = end - at, pos = at;
	const uint8_t *b = p->buf + at;

	rr->kind = DNS_RD_RAW;
	switch (rr->rrtype) {
	case 1: /* A */
		if (len == 4) {
			memcpy(rr->rd.addr, b, 4);
			rr->kind = DNS_RD_A;
		}
		return true;
	case 28: /* AAAA */
		if (len == 16) {
			memcpy(rr->rd.addr, b, 16);
			rr->kind = DNS_RD_AAAA;
		}
		return true;
	case 2:  /* NS */
	case 5:  /* CNAME */
	case 12: /* PTR */
		if (!parse_rdata_name(p, &pos, end, &rr->rd.name))
			return false;
		rr->kind = DNS_RD_NAME;
		return true;
	case 15: /* MX */
		if (len < 3)
			return false;
		rr->mx_pref = rd16(b);
		pos += 2;
		if (!parse_rdata_name(p, &pos, end, &rr->rd.name))
			return false;
		rr->kind = DNS_RD_NAME;
		return true;
	case 6: /* SOA */
		if (!parse_rdata_name(p, &pos, end, &rr->rd.soa.mname) ||
		    !parse_rdata_name(p, &pos, end, &rr->rd.soa.rname) ||
		    end - pos < 20)
			return false;
		rr->rd.soa.serial = rd32(p->buf + pos);
		rr->rd.soa.refresh = rd32(p->buf + pos + 4);
		rr->rd.soa.retry = rd32(p->buf + pos + 8);
		rr->rd.soa.expire = rd32(p->buf + pos + 12);
		rr->rd.soa.minimum = rd32(p->buf + pos + 16);
		rr->kind = DNS_RD_SOA;
		return true;
	case 33: /* SRV */
		if (len < 7)
			return false;
		rr->rd.srv.priority = rd16(b);
		rr->rd.srv.weight = rd16(b + 2);
		rr->rd.srv.port = rd16(b + 4);
		pos += 6;
		if (!parse_rdata_name(p, &pos, end, &rr->rd.srv.target))
			return false;
		rr->kind = DNS_RD_SRV;
		return true;
	case 44: /* SSHFP */
		if (len < 2)
			return false;
		rr->rd.sshfp.algo = b[0];
		rr->rd.sshfp.type = b[1];
		rr->rd.sshfp.fingerprint.ptr = b + 2;
		rr->rd.sshfp.fingerprint.len = (uint32_t)(len - 2);
		rr->kind = DNS_RD_SSHFP;
		return true;
	case 16: /* TXT */
		return parse_txt(p, rr, at, end);
	case 41: /* OPT */
		return parse_opt(p, rr, at, end);
	default: /* NULL and the rest: raw */
		return true;
	}
}

static bool parse_rr(struct parser *p, size_t *pos, struct dns_rr *rr)
{
	memset(rr, 0, sizeof(*rr));
	if (!parse_name(p, pos, &rr->name))
		return false;
	if (p->len - *pos < 10)
		return false;
	const uint8_t *b = p->buf + *pos;

	rr->rrtype = rd16(b);
	rr->rrclass = rd16(b + 2);
	rr->ttl = rd32(b + 4);
	uint16_t rdlen = rd16(b + 8);

	*pos += 10;
	if (p->len - *pos < rdlen)
		return false;
	rr->raw.ptr = p->buf + *pos;
	rr->raw.len = rdlen;
	if (!parse_rdata(p, rr, *pos, *pos + rdlen))
		return false;
	*pos += rdlen;
	return true;
}

/* Smallest wire forms: a query is a root name + type + class. */
#define MIN_QUERY 5
#define MIN_RR 11

static bool parse_section(struct parser *p, size_t *pos, enum dns_section sec,
			  uint16_t count)
{
	size_t room = (p->len - *pos) / MIN_RR;
	uint32_t n = count < room ? count : (uint32_t)room;
	struct dns_rr *v;

	if (count == 0)
		return true;
	v = palloc(p, (size_t)(n ? n : 1) * sizeof(*v));
	if (!v)
		return false;
	p->m->rrs[sec] = v;
	for (uint32_t i = 0; i < count; i++) {
		if (i >= n || !parse_rr(p, pos, &v[i]))
			return false;
		p->m->nrrs[sec] = i + 1;
	}
	return true;
}

static bool parse_queries(struct parser *p, size_t *pos)
{
	uint16_t count = p->m->qdcount;
	size_t room = (p->len - *pos) / MIN_QUERY;
	uint32_t n = count < room ? count : (uint32_t)room;
	struct dns_query *v = palloc(p, (size_t)(n ? n : 1) * sizeof(*v));

	if (!v)
		return false;
	p->m->queries = v;
	for (uint32_t i = 0; i < count; i++) {
		if (i >= n)
			return false;
		memset(&v[i], 0, sizeof(v[i]));
		if (!parse_name(p, pos, &v[i].name) || p->len - *pos < 4)
			return false;
		v[i].rrtype = rd16(p->buf + *pos);
		v[i].rrclass = rd16(p->buf + *pos + 2);
		*pos += 4;
		p->m->nqueries = i + 1;
	}
	return true;
}

static void decode_header(struct dns_msg *m, const uint8_t *b)
{
	m->id = rd16(b);
	m->flags = rd16(b + 2);
	m->qr = m->flags & DNS_FLAG_QR;
	m->opcode = (m->flags >> 11) & 0x0F;
	m->aa = m->flags & DNS_FLAG_AA;
	m->tc = m->flags & DNS_FLAG_TC;
	m->rd = m->flags & DNS_FLAG_RD;
	m->ra = m->flags & DNS_FLAG_RA;
	m->z = m->flags & DNS_FLAG_Z;
	m->ad = m->flags & DNS_FLAG_AD;
	m->cd = m->flags & DNS_FLAG_CD;
	m->rcode = m->flags & 0x0F;
	m->qdcount = rd16(b + 4);
	m->ancount = rd16(b + 6);
	m->nscount = rd16(b + 8);
	m->arcount = rd16(b + 10);
}

int dns_msg_parse(const uint8_t *buf, size_t len, enum dns_dir dir,
		  struct dns_msg **out)
{
	struct arena arena = { 0 };
	struct parser ps, *p;
	struct dns_msg *m;
	bool too_much = false;
	int rc = DNS_OK;
	size_t pos = 12;

	*out = NULL;
	m = arena_alloc(&arena, sizeof(*m), &too_much);
	if (!m)
		return DNS_E_NOMEM;
	memset(m, 0, sizeof(*m));
	if (len < 12) {
		m->events = 1u << DNS_EV_MALFORMED_DATA;
		m->mem = arena.head;
		*out = m;
		return DNS_E_SHORT;
	}
	p = &ps;
	p->len = len;
	p->m = m;
	p->arena = &arena;
	p->nomem = false;
	p->too_much = false;
	if (len > DNS_MSG_WIRE_MAX) {
		m->events = 1u << DNS_EV_MALFORMED_DATA;
		m->mem = arena.head;
		*out = m;
		return DNS_E_MALFORMED;
	}
	/* the message outlives the packet or TCP frame it came in: rdata, TXT
	 * strings and options point into the message's own copy, an exact-size
	 * block of its own (not the arena) so a read past the end is a read
	 * past a heap block, which ASan reports */
	uint8_t *own = malloc(len ? len : 1);

	if (!own) {
		arena_free(&arena);
		return DNS_E_NOMEM;
	}
	memcpy(own, buf, len);
	m->wire = own;
	buf = own;
	p->buf = own;

	decode_header(m, buf);
	if (dir == DNS_DIR_TOSERVER && m->qr)
		set_event(p, DNS_EV_NOT_A_REQUEST);
	if (dir == DNS_DIR_TOCLIENT && !m->qr)
		set_event(p, DNS_EV_NOT_A_RESPONSE);
	if (m->z)
		set_event(p, DNS_EV_Z_FLAG_SET);
	if (m->opcode == 3 || m->opcode >= 7)
		set_event(p, DNS_EV_INVALID_OPCODE);

	if (!parse_queries(p, &pos) ||
	    !parse_section(p, &pos, DNS_SEC_ANSWER, m->ancount)) {
		rc = DNS_E_MALFORMED;
	} else if (!parse_section(p, &pos, DNS_SEC_AUTHORITY, m->nscount)) {
		if (!p->nomem && !p->too_much)
			set_event(p, DNS_EV_INVALID_AUTHORITIES);
	} else if (!parse_section(p, &pos, DNS_SEC_ADDITIONAL, m->arcount)) {
		if (!p->nomem && !p->too_much)
			set_event(p, DNS_EV_INVALID_ADDITIONALS);
	} else {
		m->complete = true;
	}
	if (p->nomem) {
		free(own);
		arena_free(&arena);
		return DNS_E_NOMEM;
	}
	if (p->too_much) {
		set_event(p, DNS_EV_TOO_MUCH_DATA);
		rc = DNS_OK; /* what parsed is sound; the rest is not decoded */
	} else if (rc == DNS_E_MALFORMED) {
		set_event(p, DNS_EV_MALFORMED_DATA);
	}
	m->mem = arena.head;
	*out = m;
	return rc;
}

void dns_msg_free(struct dns_msg *m)
{
	if (!m)
		return;
	/* m lives in its own arena's first chunk: free the list from m->mem */
	struct arena a = { .head = m->mem };

	free(m->wire);
	arena_free(&a);
}

/* ---------------------------------------------------------------------
 * TCP framing */

#define TCP_FRAME_MAX (2u + 65535u)

void dns_tcp_init(struct dns_tcp *t)
{
	memset(t, 0, sizeof(*t));
}

void dns_tcp_reset(struct dns_tcp *t)
{
	if (t->len)
		t->resets++;
	t->len = 0;
}

void dns_tcp_free(struct dns_tcp *t)
{
	free(t->buf);
	memset(t, 0, sizeof(*t));
}

/* Grows the buffer to hold a whole frame of need bytes. */
static int tcp_reserve(struct dns_tcp *t, uint32_t need)
{
	if (t->cap >= need)
		return 0;
	uint32_t cap = t->cap ? t->cap : 512;

	while (cap < need)
		cap *= 2;
	if (cap > TCP_FRAME_MAX)
		cap = TCP_FRAME_MAX;
	uint8_t *b = realloc(t->buf, cap);

	if (!b)
		return DNS_E_NOMEM;
	t->buf = b;
	t->cap = cap;
	return 0;
}

int dns_tcp_feed(struct dns_tcp *t, const uint8_t *data, size_t len,
		 dns_tcp_msg_cb cb, void *arg)
{
	const uint8_t *start = data;

	/* first finish the message already buffered */
	while (t->len && len) {
		uint32_t need = t->len < 2 ? 2 : 2u + rd16(t->buf);
		uint32_t take;

		if (tcp_reserve(t, need) < 0) {
			dns_tcp_reset(t);
			return DNS_E_NOMEM;
		}
		take = need - t->len;
		if (take > len)
			take = (uint32_t)len;
		memcpy(t->buf + t->len, data, take);
		t->len += take;
		data += take;
		len -= take;
		if (t->len >= 2 && t->len == 2u + rd16(t->buf)) {
			t->msgs++;
			t->buffered++;
			t->consumed = (uint32_t)(data - start);
			cb(arg, t->buf + 2, t->len - 2u);
			t->len = 0;
		}
	}
	/* whole messages straight from the segment */
	while (len >= 2 && len >= 2u + rd16(data)) {
		uint32_t mlen = rd16(data);

		t->msgs++;
		t->consumed = (uint32_t)(data - start) + 2u + mlen;
		cb(arg, data + 2, mlen);
		data += 2u + mlen;
		len -= 2u + mlen;
	}
	if (len) {
		uint32_t need = len < 2 ? 2 : 2u + rd16(data);

		if (tcp_reserve(t, need) < 0) {
			dns_tcp_reset(t);
			return DNS_E_NOMEM;
		}
		memcpy(t->buf, data, len);
		t->len = (uint32_t)len;
	}
	return 0;
}

/* ---------------------------------------------------------------------
 * Transactions */

void dns_txs_init(struct dns_txs *s, enum dns_txs_mode mode, uint32_t max_open)
{
	memset(s, 0, sizeof(*s));
	s->mode = mode;
	s->max_open = max_open ? max_open : DNS_TXS_DEFAULT_MAX_OPEN;
}

static bool tx_open(const struct dns_tx *tx)
{
	return !tx->done[DNS_DIR_TOCLIENT];
}

static void tx_free(struct dns_tx *tx)
{
	dns_msg_free(tx->request);
	dns_msg_free(tx->response);
	free(tx);
}

static struct dns_tx *tx_new(struct dns_txs *s)
{
	struct dns_tx *tx;

	if (s->n == s->cap) {
		uint32_t cap = s->cap ? s->cap * 2 : 8;
		struct dns_tx **v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		s->v = v;
		s->cap = cap;
	}
	tx = calloc(1, sizeof(*tx));
	if (!tx)
		return NULL;
	tx->tx_id = s->next_id++;
	s->v[s->n++] = tx;
	return tx;
}

/* Makes room for one more open transaction; true if one was evicted. */
static bool evict_if_full(struct dns_txs *s)
{
	if (s->open < s->max_open)
		return false;
	for (uint32_t i = 0; i < s->n; i++) {
		struct dns_tx *tx = s->v[i];

		if (tx_open(tx)) {
			tx->done[DNS_DIR_TOCLIENT] = true;
			tx->evicted = true;
			s->open--;
			s->evicted++;
			return true;
		}
	}
	return false;
}

int dns_txs_add(struct dns_txs *s, struct dns_msg *m, enum dns_dir dir,
		struct dns_tx **out)
{
	struct dns_tx *tx;

	if (out)
		*out = NULL;
	if (s->mode == DNS_TXS_PAIRED && dir == DNS_DIR_TOCLIENT) {
		for (uint32_t i = 0; i < s->n; i++) {
			tx = s->v[i];
			if (tx_open(tx) && tx->request && tx->request->id == m->id) {
				tx->response = m;
				tx->done[DNS_DIR_TOCLIENT] = true;
				s->open--;
				if (out)
					*out = tx;
				return 0;
			}
		}
	}
	bool waits = s->mode == DNS_TXS_PAIRED && dir == DNS_DIR_TOSERVER;
	bool evicted = waits && evict_if_full(s);

	tx = tx_new(s);
	if (!tx) {
		dns_msg_free(m);
		return DNS_E_NOMEM;
	}
	if (dir == DNS_DIR_TOSERVER)
		tx->request = m;
	else
		tx->response = m;
	tx->done[DNS_DIR_TOSERVER] = true;
	tx->done[DNS_DIR_TOCLIENT] = !waits;
	if (waits)
		s->open++;
	if (evicted)
		tx->events |= 1u << DNS_EV_TOO_MANY_TXS;
	if (out)
		*out = tx;
	return 0;
}

struct dns_tx *dns_txs_by_id(const struct dns_txs *s, uint64_t tx_id)
{
	/* ids rise with the index: binary search */
	uint32_t lo = 0, hi = s->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (s->v[mid]->tx_id < tx_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n && s->v[lo]->tx_id == tx_id ? s->v[lo] : NULL;
}

void dns_txs_close(struct dns_txs *s)
{
	for (uint32_t i = 0; i < s->n; i++)
		s->v[i]->done[DNS_DIR_TOCLIENT] = true;
	s->open = 0;
}

void dns_txs_gc(struct dns_txs *s, uint64_t upto)
{
	uint32_t j = 0;

	for (uint32_t i = 0; i < s->n; i++) {
		struct dns_tx *tx = s->v[i];

		if (tx->tx_id <= upto && dns_tx_complete(tx))
			tx_free(tx);
		else
			s->v[j++] = tx;
	}
	s->n = j;
}

void dns_txs_free(struct dns_txs *s)
{
	for (uint32_t i = 0; i < s->n; i++)
		tx_free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}
