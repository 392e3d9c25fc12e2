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

static bool utf8_valid(const uint8_t *p, uint32_t len)
{
	uint32_t i = 0;

	while (i < len) {
		uint8_t c = p[i];
		uint32_t n;
		uint32_t cp;

		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF) {
			n = 1;
			cp = c & 0x1F;
		} else if (c >= 0xE0 && c <= 0xEF) {
			n = 2;
			cp = c & 0x0F;
		} else if (c >= 0xF0 && c <= 0xF4) {
			n = 3;
			cp = c & 0x07;
		} else {
			return false;
		}
		if (len - i <= n)
			return false;
		for (uint32_t k = 1; k <= n; k++) {
			if ((p[i + k] & 0xC0) != 0x80)
				return false;
			cp = cp << 6 | (p[i + k] & 0x3F);
		}
		/* overlong forms, surrogates, past U+10FFFF */
		if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
		    (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
			return false;
		i += n + 1;
	}
	return true;
}

/* A wire string (name, TXT, raw rdata) as Suricata prints it. Most fit the
 * stack; a long raw rdata that is not UTF-8 takes the heap. */
static void write_bytes(JsonWriter *w, const char *key, const uint8_t *p, uint32_t len)
{
	char stack[1024], *buf = stack;
	size_t n;

	if (utf8_valid(p, len)) {
		jw_strn(w, key, len ? (const char *)p : "", len);
		return;
	}
	if ((size_t)len * 4 > sizeof(stack) && !(buf = malloc((size_t)len * 4))) {
		jw_strn(w, key, "", 0);
		return;
	}
	/* Suricata's fallback for bytes that are not UTF-8: ASCII as is,
	 * each other byte as the text \xnn */
	n = eve_x_escape(p, len, buf, 0);
	jw_strn(w, key, buf, n);
	if (buf != stack)
		free(buf);
}

json_t *dns_json_bytes(const uint8_t *p, uint32_t len)
{
	JsonWriter w;
	json_t *o, *v;

	jw_tree_begin(&w);
	write_bytes(&w, "v", p, len);
	if (!(o = jw_tree_end(&w)))
		return NULL;
	v = json_incref(json_object_get(o, "v"));
	json_decref(o);
	return v;
}

static void write_name(JsonWriter *w, const char *key, const struct dns_name *n)
{
	write_bytes(w, key, n->s.ptr, n->s.len);
}

static void write_rrtype(JsonWriter *w, const char *key, uint16_t t)
{
	char buf[DNS_NAME_BUF];

	jw_str(w, key, dns_rrtype_format(t, buf, sizeof(buf)));
}

static void write_addr(JsonWriter *w, const char *key, const struct dns_rr *rr)
{
	static const char hex[] = "0123456789abcdef";
	const uint8_t *a = rr->rd.addr;
	char buf[48];

	if (rr->kind == DNS_RD_A) {
		snprintf(buf, sizeof(buf), "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
		jw_str(w, key, buf);
		return;
	}
	/* Suricata prints every group in full, zeros kept */
	for (int i = 0, n = 0; i < 16; i += 2) {
		if (i)
			buf[n++] = ':';
		buf[n++] = hex[a[i] >> 4];
		buf[n++] = hex[a[i] & 15];
		buf[n++] = hex[a[i + 1] >> 4];
		buf[n++] = hex[a[i + 1] & 15];
	}
	jw_strn(w, key, buf, 39);
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
		char key[DNS_NAME_BUF];

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
		dns_rrtype_format(t, key, sizeof(key));
		jw_array(w, key);
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
	char buf[DNS_NAME_BUF];
	bool open = false;

	jw_int(w, "version", 3);
	jw_str(w, "type", req ? "request" : "response");
	if (req)
		jw_int(w, "tx_id", (int64_t)tx_id);
	jw_int(w, "id", m->id);
	snprintf(buf, sizeof(buf), "%x", m->flags);
	jw_str(w, "flags", buf);
	write_flag_bits(w, m);
	jw_str(w, "rcode", dns_rcode_format(m->rcode, buf, sizeof(buf)));

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
	jw_str(w, "type", "query");
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
	char buf[DNS_NAME_BUF];

	jw_int(w, "version", 2);
	jw_str(w, "type", "answer");
	jw_int(w, "id", m->id);
	snprintf(buf, sizeof(buf), "%x", m->flags);
	jw_str(w, "flags", buf);
	write_flag_bits(w, m);
	if (m->nqueries) {
		write_name(w, "rrname", &m->queries[0].name);
		if (m->queries[0].name.flags & DNS_NAME_TRUNCATED)
			jw_bool(w, "rrname_truncated", 1);
		write_rrtype(w, "rrtype", m->queries[0].rrtype);
	}
	jw_str(w, "rcode", dns_rcode_format(m->rcode, buf, sizeof(buf)));
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

json_t *dns_json_message(const struct dns_msg *m, enum dns_dir dir,
			 uint64_t tx_id, const struct dns_json_cfg *cfg)
{
	JsonWriter w;

	if (!dns_json_wanted(m, dir, cfg))
		return NULL;
	jw_tree_begin(&w);
	dns_json_write(&w, m, dir, tx_id, cfg);
	return jw_tree_end(&w);
}

json_t *dns_json_alert(const struct dns_tx *tx, enum dns_dir dir)
{
	const struct dns_msg *m = dns_tx_msg(tx, dir);

	if (!m) {
		dir = dir == DNS_DIR_TOSERVER ? DNS_DIR_TOCLIENT : DNS_DIR_TOSERVER;
		m = dns_tx_msg(tx, dir);
	}
	if (!m)
		return NULL;
	return dns_json_message(m, dir, tx->tx_id, NULL);
}
