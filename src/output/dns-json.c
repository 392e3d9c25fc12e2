/* Eve "dns" objects, Suricata 8 version 3: see dns-json.h. */
#include "output/dns-json.h"

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

json_t *dns_json_bytes(const uint8_t *p, uint32_t len)
{
	if (utf8_valid(p, len))
		return json_stringn(len ? (const char *)p : "", len);

	/* Suricata's fallback for bytes that are not UTF-8: ASCII as is, each
	 * other byte as the text \xNN */
	size_t n = 0;

	for (uint32_t i = 0; i < len; i++)
		n += p[i] < 0x80 ? 1 : 4;
	char *s = malloc(n + 1);

	if (!s)
		return NULL;
	n = 0;
	for (uint32_t i = 0; i < len; i++) {
		if (p[i] < 0x80) {
			s[n++] = (char)p[i];
		} else {
			static const char hex[] = "0123456789abcdef";

			s[n++] = '\\';
			s[n++] = 'x';
			s[n++] = hex[p[i] >> 4];
			s[n++] = hex[p[i] & 15];
		}
	}
	json_t *j = json_stringn(s, n);

	free(s);
	return j;
}

static json_t *name_json(const struct dns_name *n)
{
	return dns_json_bytes(n->s.ptr, n->s.len);
}

static void set_new(json_t *o, const char *key, json_t *v)
{
	if (v)
		json_object_set_new(o, key, v);
}

static json_t *rrtype_json(uint16_t t)
{
	char buf[DNS_NAME_BUF];

	return json_string(dns_rrtype_format(t, buf, sizeof(buf)));
}

static json_t *addr_json(const struct dns_rr *rr)
{
	char buf[48];
	const uint8_t *a = rr->rd.addr;

	if (rr->kind == DNS_RD_A) {
		snprintf(buf, sizeof(buf), "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
	} else {
		/* Suricata prints every group in full, zeros kept */
		size_t n = 0;

		for (int i = 0; i < 16; i += 2)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%02x%02x",
					      i ? ":" : "", a[i], a[i + 1]);
	}
	return json_string(buf);
}

static json_t *hex_json(const struct dns_bytes *b, bool colons)
{
	static const char hex[] = "0123456789abcdef";
	char *s = malloc((size_t)b->len * 3 + 1);
	size_t n = 0;

	if (!s)
		return NULL;
	for (uint32_t i = 0; i < b->len; i++) {
		if (colons && i)
			s[n++] = ':';
		s[n++] = hex[b->ptr[i] >> 4];
		s[n++] = hex[b->ptr[i] & 15];
	}
	json_t *j = json_stringn(s, n);

	free(s);
	return j;
}

static json_t *soa_json(const struct dns_soa *soa)
{
	json_t *o = json_object();

	set_new(o, "mname", name_json(&soa->mname));
	if (soa->mname.flags & DNS_NAME_TRUNCATED)
		set_new(o, "mname_truncated", json_true());
	set_new(o, "rname", name_json(&soa->rname));
	set_new(o, "serial", json_integer(soa->serial));
	set_new(o, "refresh", json_integer(soa->refresh));
	set_new(o, "retry", json_integer(soa->retry));
	set_new(o, "expire", json_integer(soa->expire));
	set_new(o, "minimum", json_integer(soa->minimum));
	return o;
}

static json_t *srv_json(const struct dns_srv *srv)
{
	json_t *o = json_object();

	set_new(o, "priority", json_integer(srv->priority));
	set_new(o, "weight", json_integer(srv->weight));
	set_new(o, "port", json_integer(srv->port));
	set_new(o, "name", name_json(&srv->target));
	return o;
}

static json_t *sshfp_json(const struct dns_sshfp *s)
{
	json_t *o = json_object();

	set_new(o, "fingerprint", hex_json(&s->fingerprint, true));
	set_new(o, "algo", json_integer(s->algo));
	set_new(o, "type", json_integer(s->type));
	return o;
}

static json_t *opt_json(const struct dns_rr *rr)
{
	json_t *a = json_array();

	for (uint32_t i = 0; i < rr->rd.opt.n; i++) {
		json_t *o = json_object();

		set_new(o, "code", json_integer(rr->rd.opt.v[i].code));
		set_new(o, "data", hex_json(&rr->rd.opt.v[i].data, false));
		json_array_append_new(a, o);
	}
	return a;
}

/* The rdata of a record whose value is one string (A, AAAA, names, raw);
 * NULL for the kinds logged as objects. */
static json_t *rdata_string(const struct dns_rr *rr)
{
	switch (rr->kind) {
	case DNS_RD_A:
	case DNS_RD_AAAA:
		return addr_json(rr);
	case DNS_RD_NAME:
		return name_json(&rr->rd.name);
	case DNS_RD_RAW:
		return dns_json_bytes(rr->raw.ptr, rr->raw.len);
	default:
		return NULL;
	}
}

/* One detailed entry; txt_i picks the TXT string (a TXT rr is expanded into
 * one entry per string). */
static json_t *rr_entry(const struct dns_rr *rr, enum dns_section sec, uint32_t txt_i)
{
	json_t *o = json_object();

	set_new(o, "rrname", name_json(&rr->name));
	if (sec == DNS_SEC_AUTHORITY && (rr->name.flags & DNS_NAME_TRUNCATED))
		set_new(o, "rrname_truncated", json_true());
	set_new(o, "rrtype", rrtype_json(rr->rrtype));
	set_new(o, "ttl", json_integer(rr->ttl));
	switch (rr->kind) {
	case DNS_RD_TXT:
		set_new(o, "rdata", dns_json_bytes(rr->rd.txt.v[txt_i].ptr,
						   rr->rd.txt.v[txt_i].len));
		break;
	case DNS_RD_SOA:
		set_new(o, "soa", soa_json(&rr->rd.soa));
		break;
	case DNS_RD_SRV:
		set_new(o, "srv", srv_json(&rr->rd.srv));
		break;
	case DNS_RD_SSHFP:
		set_new(o, "sshfp", sshfp_json(&rr->rd.sshfp));
		break;
	case DNS_RD_OPT:
		/* the options of an OPT pseudo-record belong to the additional
		 * section (RFC 6891), where Suricata's schema has them; one in
		 * the answers logs as a bare record */
		if (rr->rd.opt.n && sec == DNS_SEC_ADDITIONAL)
			set_new(o, "opt", opt_json(rr));
		break;
	default:
		set_new(o, "rdata", rdata_string(rr));
		if (sec == DNS_SEC_AUTHORITY && rr->kind == DNS_RD_NAME &&
		    (rr->rd.name.flags & DNS_NAME_TRUNCATED))
			set_new(o, "rdata_truncated", json_true());
		break;
	}
	return o;
}

static json_t *section_json(const struct dns_msg *m, enum dns_section sec,
			    const struct dns_json_cfg *cfg, bool filter)
{
	json_t *a = json_array();

	for (uint32_t i = 0; i < m->nrrs[sec]; i++) {
		const struct dns_rr *rr = &m->rrs[sec][i];

		if (filter && !dns_json_cfg_type_on(cfg, rr->rrtype))
			continue;
		if (rr->kind == DNS_RD_TXT) {
			for (uint32_t k = 0; k < rr->rd.txt.n; k++)
				json_array_append_new(a, rr_entry(rr, sec, k));
		} else {
			json_array_append_new(a, rr_entry(rr, sec, 0));
		}
	}
	if (json_array_size(a) == 0) {
		json_decref(a);
		return NULL;
	}
	return a;
}

static void grouped_add(json_t *g, uint16_t rrtype, json_t *v)
{
	char key[DNS_NAME_BUF];
	json_t *a;

	if (!v)
		return;
	dns_rrtype_format(rrtype, key, sizeof(key));
	a = json_object_get(g, key);
	if (!a) {
		a = json_array();
		json_object_set_new(g, key, a);
	}
	json_array_append_new(a, v);
}

static json_t *grouped_json(const struct dns_msg *m, const struct dns_json_cfg *cfg)
{
	json_t *g = json_object();

	for (uint32_t i = 0; i < m->nrrs[DNS_SEC_ANSWER]; i++) {
		const struct dns_rr *rr = &m->rrs[DNS_SEC_ANSWER][i];

		if (!dns_json_cfg_type_on(cfg, rr->rrtype))
			continue;
		switch (rr->kind) {
		case DNS_RD_TXT:
			for (uint32_t k = 0; k < rr->rd.txt.n; k++)
				grouped_add(g, rr->rrtype,
					    dns_json_bytes(rr->rd.txt.v[k].ptr,
							   rr->rd.txt.v[k].len));
			break;
		case DNS_RD_SOA:
			grouped_add(g, rr->rrtype, soa_json(&rr->rd.soa));
			break;
		case DNS_RD_SRV:
			grouped_add(g, rr->rrtype, srv_json(&rr->rd.srv));
			break;
		case DNS_RD_SSHFP:
			grouped_add(g, rr->rrtype, sshfp_json(&rr->rd.sshfp));
			break;
		case DNS_RD_OPT:
			break;
		case DNS_RD_RAW:
			/* Suricata groups the rdata of the types it decodes and
			 * NULL; other types (DNSKEY, ...) appear in answers only */
			if (rr->rrtype == 10)
				grouped_add(g, rr->rrtype, rdata_string(rr));
			break;
		default:
			grouped_add(g, rr->rrtype, rdata_string(rr));
			break;
		}
	}
	if (json_object_size(g) == 0) {
		json_decref(g);
		return NULL;
	}
	return g;
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

json_t *dns_json_message(const struct dns_msg *m, enum dns_dir dir,
			 uint64_t tx_id, const struct dns_json_cfg *cfg)
{
	bool req = dir == DNS_DIR_TOSERVER;
	char buf[DNS_NAME_BUF];
	json_t *o, *v;

	unsigned formats = cfg ? cfg->formats : DNS_JSON_DETAILED | DNS_JSON_GROUPED;

	if (!m || (cfg && req && !cfg->requests) ||
	    (cfg && !req && !cfg->responses) || !types_match(m, cfg))
		return NULL;
	o = json_object();
	if (!o)
		return NULL;
	set_new(o, "version", json_integer(3));
	set_new(o, "type", json_string(req ? "request" : "response"));
	if (req)
		set_new(o, "tx_id", json_integer((json_int_t)tx_id));
	set_new(o, "id", json_integer(m->id));
	snprintf(buf, sizeof(buf), "%x", m->flags);
	set_new(o, "flags", json_string(buf));
	if (m->qr)
		set_new(o, "qr", json_true());
	if (m->aa)
		set_new(o, "aa", json_true());
	if (m->tc)
		set_new(o, "tc", json_true());
	if (m->rd)
		set_new(o, "rd", json_true());
	if (m->ra)
		set_new(o, "ra", json_true());
	if (m->z)
		set_new(o, "z", json_true());
	set_new(o, "opcode", json_integer(m->opcode));
	set_new(o, "rcode", json_string(dns_rcode_format(m->rcode, buf, sizeof(buf))));

	json_t *q = json_array();

	for (uint32_t i = 0; i < m->nqueries; i++) {
		const struct dns_query *qu = &m->queries[i];

		if (!dns_json_cfg_type_on(cfg, qu->rrtype))
			continue;
		json_t *e = json_object();

		set_new(e, "rrname", name_json(&qu->name));
		if (qu->name.flags & DNS_NAME_TRUNCATED)
			set_new(e, "rrname_truncated", json_true());
		set_new(e, "rrtype", rrtype_json(qu->rrtype));
		json_array_append_new(q, e);
	}
	if (json_array_size(q))
		json_object_set_new(o, "queries", q);
	else
		json_decref(q);

	if (formats & DNS_JSON_DETAILED) {
		v = section_json(m, DNS_SEC_ANSWER, cfg, true);
		set_new(o, "answers", v);
	}
	if (formats & DNS_JSON_GROUPED)
		set_new(o, "grouped", grouped_json(m, cfg));
	set_new(o, "authorities", section_json(m, DNS_SEC_AUTHORITY, cfg, false));
	set_new(o, "additionals", section_json(m, DNS_SEC_ADDITIONAL, cfg, false));
	return o;
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
