/* Eve "dns" objects, Suricata 8 version 3: see dns-json.h. */
#include "output/dns-json.h"
#include "output/json-dump.h"
#include "output/json-writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void dns_json_cfg_init(struct dns_json_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->requests = true;
	c->responses = true;
	c->formats = DNS_JSON_DETAILED | DNS_JSON_GROUPED;
	c->all_types = true;
	c->version = 3;
}

int dns_json_cfg_add_format(struct dns_json_cfg *c, const char *name)
{
	static const struct {
		const char *name;
		unsigned bit;
	} fmts[] = { { "detailed", DNS_JSON_DETAILED }, { "grouped", DNS_JSON_GROUPED } };

	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		if (strcasecmp(name, fmts[i].name) == 0) {
			/* the default holds both; a list replaces it */
			if (!c->formats_listed)
				c->formats = 0;
			c->formats_listed = true;
			c->formats |= fmts[i].bit;
			return 0;
		}
	}
	return -1;
}

int dns_json_cfg_add_type(struct dns_json_cfg *c, const char *name)
{
	int t = dns_rrtype_by_name(name);

	if (t < 0)
		return -1;
	if (c->all_types) {
		c->all_types = false;
		memset(c->types, 0, sizeof(c->types));
	}
	c->types[t >> 3] |= (uint8_t)(1u << (t & 7));
	return 0;
}

bool dns_json_cfg_type_on(const struct dns_json_cfg *c, uint16_t rrtype)
{
	return !c || c->all_types || (c->types[rrtype >> 3] >> (rrtype & 7)) & 1u;
}

/* ---------------------------------------------------------------------
 * Strings */

/* Suricata's form of bytes that are not UTF-8 (ASCII as is, each other
 * byte as the text \xnn) as the body of a JSON string, escaped as jansson
 * escapes (json-dump.c): the text's backslash as \\, '"' and control
 * characters as \" \b \f \n \r \t or \u00XX. Done in one pass: the
 * writer's escaper, given the \xnn text, would take it apart again, a run
 * and an escape for every backslash. At most 6 bytes out per byte in. */
#define X_JSON_MAX 6
static size_t x_escape_json(const uint8_t *p, uint32_t len, char *out)
{
	static const char lower[] = "0123456789abcdef", upper[] = "0123456789ABCDEF";
	static const char short_esc[0x20] = {
		['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't',
	};
	char *o = out;

	for (uint32_t i = 0; i < len; i++) {
		uint8_t c = p[i];

		if (c >= 0x80) {
			memcpy(o, "\\\\x", 3);
			o[3] = lower[c >> 4];
			o[4] = lower[c & 15];
			o += 5;
		} else if (c == '"' || c == '\\') {
			*o++ = '\\';
			*o++ = (char)c;
		} else if (c < 0x20 && short_esc[c]) {
			*o++ = '\\';
			*o++ = short_esc[c];
		} else if (c < 0x20) {
			memcpy(o, "\\u00", 4);
			o[4] = upper[c >> 4];
			o[5] = upper[c & 15];
			o += 6;
		} else {
			*o++ = (char)c;
		}
	}
	return (size_t)(o - out);
}

/* A wire string (name, TXT, raw rdata) as Suricata prints it. The writer
 * checks UTF-8 as it escapes (one pass, not a check and then the copy) and
 * hands back what fails, which takes the \xnn form. That form's JSON text
 * goes to jw_ascii(), which copies its text as it is. Most fit the stack;
 * a long raw rdata that is not UTF-8 takes the heap. */
static void write_bytes(JsonWriter *w, const char *key, const uint8_t *p, uint32_t len)
{
	char stack[4096], *buf = stack;

	if (jw_strn_try(w, key, len ? (const char *)p : "", len) == 0)
		return;
	if ((size_t)len * X_JSON_MAX > sizeof(stack) &&
	    !(buf = malloc((size_t)len * X_JSON_MAX))) {
		jw_strn(w, key, "", 0);
		return;
	}
	jw_ascii(w, key, buf, x_escape_json(p, len, buf));
	if (buf != stack)
		free(buf);
}

struct bytes_obj {
	const uint8_t *p;
	uint32_t len;
};

static void build_bytes_obj(JsonWriter *w, void *ctx)
{
	const struct bytes_obj *c = ctx;

	write_bytes(w, "v", c->p, c->len);
}

json_t *dns_json_bytes(const uint8_t *p, uint32_t len)
{
	struct bytes_obj c = { p, len };
	json_t *o = jw_build_tree(build_bytes_obj, &c), *v;

	v = o ? json_incref(json_object_get(o, "v")) : NULL;
	json_decref(o);
	return v;
}

static void write_name(JsonWriter *w, const char *key, const struct dns_name *n)
{
	write_bytes(w, key, n->s.ptr, n->s.len);
}

/* The names and numbers below are our own ASCII: written as they are,
 * without the escaping pass that bytes off the wire need. */
#define write_literal(w, key, lit) jw_ascii(w, key, lit, sizeof(lit) - 1)

static void write_rrtype(JsonWriter *w, const char *key, uint16_t t)
{
	char buf[DNS_NAME_BUF];
	size_t n;
	const char *s = dns_rrtype_text(t, buf, &n);

	jw_ascii(w, key, s, n);
}

static void write_rcode(JsonWriter *w, uint8_t rcode)
{
	char buf[DNS_NAME_BUF];
	size_t n;
	const char *s = dns_rcode_text(rcode, buf, &n);

	jw_ascii(w, "rcode", s, n);
}

/* The header's flags as "%x" prints them: lower case, no leading zeros. */
static void write_flags(JsonWriter *w, uint16_t flags)
{
	static const char hex[] = "0123456789abcdef";
	char buf[4];
	size_t n = 0;
	int shift = 12;

	while (shift > 0 && !(flags >> shift))
		shift -= 4;
	for (; shift >= 0; shift -= 4)
		buf[n++] = hex[(flags >> shift) & 15];
	jw_ascii(w, "flags", buf, n);
}

/* One byte of a dotted quad, as "%u" prints it; returns the end. */
static char *put_octet(char *p, unsigned v)
{
	if (v >= 100) {
		*p++ = (char)('0' + v / 100);
		v %= 100;
		*p++ = (char)('0' + v / 10);
	} else if (v >= 10) {
		*p++ = (char)('0' + v / 10);
	}
	*p++ = (char)('0' + v % 10);
	return p;
}

static void write_addr(JsonWriter *w, const char *key, const struct dns_rr *rr)
{
	static const char hex[] = "0123456789abcdef";
	const uint8_t *a = rr->rd.addr;
	char buf[48], *p = buf;

	if (rr->kind == DNS_RD_A) {
		for (int i = 0; i < 4; i++) {
			if (i)
				*p++ = '.';
			p = put_octet(p, a[i]);
		}
		jw_ascii(w, key, buf, (size_t)(p - buf));
		return;
	}
	/* Suricata prints every group in full, zeros kept */
	for (int i = 0; i < 16; i += 2) {
		if (i)
			*p++ = ':';
		*p++ = hex[a[i] >> 4];
		*p++ = hex[a[i] & 15];
		*p++ = hex[a[i + 1] >> 4];
		*p++ = hex[a[i + 1] & 15];
	}
	jw_ascii(w, key, buf, (size_t)(p - buf));
}

static void write_hex(JsonWriter *w, const char *key, const struct dns_bytes *b, bool colons)
{
	static const char hex[] = "0123456789abcdef";
	char stack[768], *s = stack;
	size_t n = 0;

	if (!b->len) {
		jw_strn(w, key, "", 0);
		return;
	}
	if ((size_t)b->len * 3 > sizeof(stack) && !(s = malloc((size_t)b->len * 3))) {
		jw_strn(w, key, "", 0);
		return;
	}
	for (uint32_t i = 0; i < b->len; i++) {
		if (colons && i)
			s[n++] = ':';
		s[n++] = hex[b->ptr[i] >> 4];
		s[n++] = hex[b->ptr[i] & 15];
	}
	jw_strn(w, key, s, n);
	if (s != stack)
		free(s);
}

static void write_soa(JsonWriter *w, const char *key, const struct dns_soa *soa)
{
	jw_object(w, key);
	write_name(w, "mname", &soa->mname);
	if (soa->mname.flags & DNS_NAME_TRUNCATED)
		jw_bool(w, "mname_truncated", 1);
	write_name(w, "rname", &soa->rname);
	jw_int(w, "serial", soa->serial);
	jw_int(w, "refresh", soa->refresh);
	jw_int(w, "retry", soa->retry);
	jw_int(w, "expire", soa->expire);
	jw_int(w, "minimum", soa->minimum);
	jw_close(w);
}

static void write_srv(JsonWriter *w, const char *key, const struct dns_srv *srv)
{
	jw_object(w, key);
	jw_int(w, "priority", srv->priority);
	jw_int(w, "weight", srv->weight);
	jw_int(w, "port", srv->port);
	write_name(w, "name", &srv->target);
	jw_close(w);
}

static void write_sshfp(JsonWriter *w, const char *key, const struct dns_sshfp *s)
{
	jw_object(w, key);
	write_hex(w, "fingerprint", &s->fingerprint, true);
	jw_int(w, "algo", s->algo);
	jw_int(w, "type", s->type);
	jw_close(w);
}

static void write_opt(JsonWriter *w, const char *key, const struct dns_rr *rr)
{
	jw_array(w, key);
	for (uint32_t i = 0; i < rr->rd.opt.n; i++) {
		jw_object(w, NULL);
		jw_int(w, "code", rr->rd.opt.v[i].code);
		write_hex(w, "data", &rr->rd.opt.v[i].data, false);
		jw_close(w);
	}
	jw_close(w);
}

/* The rdata of a record whose value is one string (A, AAAA, names, raw);
 * false, writing nothing, for the kinds logged as objects. */
static bool write_rdata_string(JsonWriter *w, const char *key, const struct dns_rr *rr)
{
	switch (rr->kind) {
	case DNS_RD_A:
	case DNS_RD_AAAA:
		write_addr(w, key, rr);
		return true;
	case DNS_RD_NAME:
		write_name(w, key, &rr->rd.name);
		return true;
	case DNS_RD_RAW:
		write_bytes(w, key, rr->raw.ptr, rr->raw.len);
		return true;
	default:
		return false;
	}
}

/* One detailed entry; txt_i picks the TXT string (a TXT rr is expanded into
 * one entry per string). */
static void write_rr_entry(JsonWriter *w, const struct dns_rr *rr, enum dns_section sec,
			   uint32_t txt_i)
{
	jw_object(w, NULL);
	write_name(w, "rrname", &rr->name);
	if (sec == DNS_SEC_AUTHORITY && (rr->name.flags & DNS_NAME_TRUNCATED))
		jw_bool(w, "rrname_truncated", 1);
	write_rrtype(w, "rrtype", rr->rrtype);
	jw_int(w, "ttl", rr->ttl);
	switch (rr->kind) {
	case DNS_RD_TXT:
		write_bytes(w, "rdata", rr->rd.txt.v[txt_i].ptr, rr->rd.txt.v[txt_i].len);
		break;
	case DNS_RD_SOA:
		write_soa(w, "soa", &rr->rd.soa);
		break;
	case DNS_RD_SRV:
		write_srv(w, "srv", &rr->rd.srv);
		break;
	case DNS_RD_SSHFP:
		write_sshfp(w, "sshfp", &rr->rd.sshfp);
		break;
	case DNS_RD_OPT:
		/* the options of an OPT pseudo-record belong to the additional
		 * section (RFC 6891), where Suricata's schema has them; one in
		 * the answers logs as a bare record */
		if (rr->rd.opt.n && sec == DNS_SEC_ADDITIONAL)
			write_opt(w, "opt", rr);
		break;
	default:
		write_rdata_string(w, "rdata", rr);
		if (sec == DNS_SEC_AUTHORITY && rr->kind == DNS_RD_NAME &&
		    (rr->rd.name.flags & DNS_NAME_TRUNCATED))
			jw_bool(w, "rdata_truncated", 1);
		break;
	}
	jw_close(w);
}

/* Entries an rr gives in a detailed section: a TXT rr one per string. */
static uint32_t entries_of(const struct dns_rr *rr)
{
	return rr->kind == DNS_RD_TXT ? rr->rd.txt.n : 1;
}

/* Empty sections are left out (the schema wants minItems 1), so whether one
 * has an entry is known before it opens. */
static void write_section(JsonWriter *w, const char *key, const struct dns_msg *m,
			  enum dns_section sec, const struct dns_json_cfg *cfg, bool filter)
{
	bool open = false;

	for (uint32_t i = 0; i < m->nrrs[sec]; i++) {
		const struct dns_rr *rr = &m->rrs[sec][i];

		if ((filter && !dns_json_cfg_type_on(cfg, rr->rrtype)) || !entries_of(rr))
			continue;
		if (!open) {
			jw_array(w, key);
			open = true;
		}
		for (uint32_t k = 0; k < entries_of(rr); k++)
			write_rr_entry(w, rr, sec, rr->kind == DNS_RD_TXT ? k : 0);
	}
	if (open)
		jw_close(w);
}

/* Values an answer gives in the grouped format. Suricata groups the rdata
 * of the types it decodes and NULL (type 10); other raw types (DNSKEY, ...)
 * appear in answers only, as do OPT records. */
static uint32_t grouped_values(const struct dns_rr *rr, const struct dns_json_cfg *cfg)
{
	if (!dns_json_cfg_type_on(cfg, rr->rrtype))
		return 0;
	switch (rr->kind) {
	case DNS_RD_TXT:
		return rr->rd.txt.n;
	case DNS_RD_SOA:
	case DNS_RD_SRV:
	case DNS_RD_SSHFP:
	case DNS_RD_A:
	case DNS_RD_AAAA:
	case DNS_RD_NAME:
		return 1;
	case DNS_RD_RAW:
		return rr->rrtype == 10;
	default:
		return 0;
	}
}

static void write_grouped_values(JsonWriter *w, const struct dns_rr *rr)
{
	switch (rr->kind) {
	case DNS_RD_TXT:
		for (uint32_t k = 0; k < rr->rd.txt.n; k++)
			write_bytes(w, NULL, rr->rd.txt.v[k].ptr, rr->rd.txt.v[k].len);
		break;
	case DNS_RD_SOA:
		write_soa(w, NULL, &rr->rd.soa);
		break;
	case DNS_RD_SRV:
		write_srv(w, NULL, &rr->rd.srv);
		break;
	case DNS_RD_SSHFP:
		write_sshfp(w, NULL, &rr->rd.sshfp);
		break;
	default:
		write_rdata_string(w, NULL, rr);
		break;
	}
}

/* "grouped": {TYPE: [rdata, ...]}, the types in the order of their first
 * answer. Each type's array is written whole when its first answer comes
 * up; `seen` marks the types done (a bitmap over all 65536: a hostile
 * message with thousands of answers stays linear). */
static void write_grouped(JsonWriter *w, const struct dns_msg *m, const struct dns_json_cfg *cfg)
{
	const struct dns_rr *rrs = m->rrs[DNS_SEC_ANSWER];
	uint32_t n = m->nrrs[DNS_SEC_ANSWER];
	uint8_t seen[65536 / 8];
	bool open = false;

	for (uint32_t i = 0; i < n; i++) {
		uint16_t t = rrs[i].rrtype;
		char buf[DNS_NAME_BUF];
		size_t kl;

		if (!grouped_values(&rrs[i], cfg))
			continue;
		if (!open) {
			memset(seen, 0, sizeof(seen));
			jw_object(w, "grouped");
			open = true;
		}
		if (seen[t >> 3] & (1u << (t & 7)))
			continue;
		seen[t >> 3] |= (uint8_t)(1u << (t & 7));
		/* NUL-terminated: a key */
		jw_array(w, dns_rrtype_text(t, buf, &kl));
		for (uint32_t k = i; k < n; k++)
			if (rrs[k].rrtype == t && grouped_values(&rrs[k], cfg))
				write_grouped_values(w, &rrs[k]);
		jw_close(w);
	}
	if (open)
		jw_close(w);
}

/* With a types list, a message is logged only if a query or an answer has a
 * listed type (suricata-verify dns-udp-eve-log-aaaa-only). */
static bool types_match(const struct dns_msg *m, const struct dns_json_cfg *cfg)
{
	if (!cfg || cfg->all_types)
		return true;
	for (uint32_t i = 0; i < m->nqueries; i++)
		if (dns_json_cfg_type_on(cfg, m->queries[i].rrtype))
			return true;
	for (uint32_t i = 0; i < m->nrrs[DNS_SEC_ANSWER]; i++)
		if (dns_json_cfg_type_on(cfg, m->rrs[DNS_SEC_ANSWER][i].rrtype))
			return true;
	return false;
}

/* The header flags both versions write: qr aa tc rd ra z when set, opcode. */
static void write_flag_bits(JsonWriter *w, const struct dns_msg *m)
{
	if (m->qr)
		jw_bool(w, "qr", 1);
	if (m->aa)
		jw_bool(w, "aa", 1);
	if (m->tc)
		jw_bool(w, "tc", 1);
	if (m->rd)
		jw_bool(w, "rd", 1);
	if (m->ra)
		jw_bool(w, "ra", 1);
	if (m->z)
		jw_bool(w, "z", 1);
	jw_int(w, "opcode", m->opcode);
}

bool dns_json_wanted(const struct dns_msg *m, enum dns_dir dir, const struct dns_json_cfg *cfg)
{
	bool req = dir == DNS_DIR_TOSERVER;

	return m && !(cfg && req && !cfg->requests) && !(cfg && !req && !cfg->responses) &&
	       types_match(m, cfg);
}

void dns_json_write(JsonWriter *w, const struct dns_msg *m, enum dns_dir dir, uint64_t tx_id,
		    const struct dns_json_cfg *cfg)
{
	bool req = dir == DNS_DIR_TOSERVER;
	unsigned formats = cfg ? cfg->formats : DNS_JSON_DETAILED | DNS_JSON_GROUPED;
	bool open = false;

	jw_int(w, "version", 3);
	if (req)
		write_literal(w, "type", "request");
	else
		write_literal(w, "type", "response");
	/* the engine's transaction id, on responses too (Suricata 8) */
	jw_int(w, "tx_id", (int64_t)tx_id);
	jw_int(w, "id", m->id);
	write_flags(w, m->flags);
	write_flag_bits(w, m);
	write_rcode(w, m->rcode);

	for (uint32_t i = 0; i < m->nqueries; i++) {
		const struct dns_query *qu = &m->queries[i];

		if (!dns_json_cfg_type_on(cfg, qu->rrtype))
			continue;
		if (!open) {
			jw_array(w, "queries");
			open = true;
		}
		jw_object(w, NULL);
		write_name(w, "rrname", &qu->name);
		if (qu->name.flags & DNS_NAME_TRUNCATED)
			jw_bool(w, "rrname_truncated", 1);
		write_rrtype(w, "rrtype", qu->rrtype);
		jw_close(w);
	}
	if (open)
		jw_close(w);

	if (formats & DNS_JSON_DETAILED)
		write_section(w, "answers", m, DNS_SEC_ANSWER, cfg, true);
	if (formats & DNS_JSON_GROUPED)
		write_grouped(w, m, cfg);
	write_section(w, "authorities", m, DNS_SEC_AUTHORITY, cfg, false);
	write_section(w, "additionals", m, DNS_SEC_ADDITIONAL, cfg, false);
}

bool dns_json_v2_query(JsonWriter *w, const struct dns_msg *m, uint32_t qi, uint64_t tx_id,
		       const struct dns_json_cfg *cfg)
{
	const struct dns_query *qu;

	if (!m || qi >= m->nqueries || !dns_json_cfg_type_on(cfg, m->queries[qi].rrtype))
		return false;
	qu = &m->queries[qi];
	jw_int(w, "version", 2);
	write_literal(w, "type", "query");
	jw_int(w, "id", m->id);
	write_name(w, "rrname", &qu->name);
	if (qu->name.flags & DNS_NAME_TRUNCATED)
		jw_bool(w, "rrname_truncated", 1);
	write_rrtype(w, "rrtype", qu->rrtype);
	jw_int(w, "tx_id", (int64_t)tx_id);
	if (m->z)
		jw_bool(w, "z", 1);
	jw_int(w, "opcode", m->opcode);
	return true;
}

void dns_json_v2_answer(JsonWriter *w, const struct dns_msg *m, const struct dns_json_cfg *cfg)
{
	unsigned formats = cfg ? cfg->formats : DNS_JSON_DETAILED | DNS_JSON_GROUPED;

	jw_int(w, "version", 2);
	write_literal(w, "type", "answer");
	jw_int(w, "id", m->id);
	write_flags(w, m->flags);
	write_flag_bits(w, m);
	if (m->nqueries) {
		write_name(w, "rrname", &m->queries[0].name);
		if (m->queries[0].name.flags & DNS_NAME_TRUNCATED)
			jw_bool(w, "rrname_truncated", 1);
		write_rrtype(w, "rrtype", m->queries[0].rrtype);
	}
	write_rcode(w, m->rcode);
	/* version 2 logs every answer of a logged response, and "grouped"
	 * whenever there are answers, {} when none groups */
	if (m->nrrs[DNS_SEC_ANSWER]) {
		if (formats & DNS_JSON_DETAILED)
			write_section(w, "answers", m, DNS_SEC_ANSWER, NULL, false);
		if (formats & DNS_JSON_GROUPED) {
			bool any = false;

			for (uint32_t i = 0; i < m->nrrs[DNS_SEC_ANSWER] && !any; i++)
				any = grouped_values(&m->rrs[DNS_SEC_ANSWER][i], NULL) > 0;
			if (any) {
				write_grouped(w, m, NULL);
			} else {
				jw_object(w, "grouped");
				jw_close(w);
			}
		}
	}
	write_section(w, "authorities", m, DNS_SEC_AUTHORITY, cfg, false);
	write_section(w, "additionals", m, DNS_SEC_ADDITIONAL, cfg, false);
}

struct message_obj {
	const struct dns_msg *m;
	enum dns_dir dir;
	uint64_t tx_id;
	const struct dns_json_cfg *cfg;
};

static void build_message_obj(JsonWriter *w, void *ctx)
{
	const struct message_obj *c = ctx;

	dns_json_write(w, c->m, c->dir, c->tx_id, c->cfg);
}

json_t *dns_json_message(const struct dns_msg *m, enum dns_dir dir,
			 uint64_t tx_id, const struct dns_json_cfg *cfg)
{
	struct message_obj c = { m, dir, tx_id, cfg };

	if (!dns_json_wanted(m, dir, cfg))
		return NULL;
	return jw_build_tree(build_message_obj, &c);
}

/* The message an alert on tx shows: dir's, else the other one's. */
static const struct dns_msg *alert_msg(const struct dns_tx *tx, enum dns_dir *dir)
{
	const struct dns_msg *m = dns_tx_msg(tx, *dir);

	if (!m) {
		*dir = *dir == DNS_DIR_TOSERVER ? DNS_DIR_TOCLIENT : DNS_DIR_TOSERVER;
		m = dns_tx_msg(tx, *dir);
	}
	return m;
}

json_t *dns_json_alert(const struct dns_tx *tx, enum dns_dir dir)
{
	const struct dns_msg *m = alert_msg(tx, &dir);

	return m ? dns_json_message(m, dir, tx->tx_id, NULL) : NULL;
}

int dns_json_alert_write(JsonWriter *w, const struct dns_tx *tx, enum dns_dir dir)
{
	const struct dns_msg *m = alert_msg(tx, &dir);

	if (!m || !dns_json_wanted(m, dir, NULL))
		return -1;
	jw_object(w, "dns");
	dns_json_write(w, m, dir, tx->tx_id, NULL);
	jw_close(w);
	return 0;
}
