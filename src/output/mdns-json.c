/* eve "mdns" records and the mdns member of alerts (see mdns-json.h). */
#include "output/mdns-json.h"

#include "app-layer/app-layer.h"
#include "app-layer/mdns.h"
#include "output/output-private.h"
#include "output/json-writer.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static void name_write(JsonWriter *w, const char *key, const struct dns_name *n)
{
	jw_bytes(w, key, n->s.ptr, n->s.len);
	if (n->flags & DNS_NAME_TRUNCATED)
		jw_bool(w, "rrname_truncated", 1);
}

/* "ptr", "a", "txt", ...: the type's mnemonic in lower case, or its
 * number. */
static const char *type_key(uint16_t t, char *buf, size_t size)
{
	const char *s = dns_rrtype_name(t);
	size_t i;

	if (!s) {
		snprintf(buf, size, "%u", t);
		return buf;
	}
	for (i = 0; s[i] && i + 1 < size; i++)
		buf[i] = (char)tolower((unsigned char)s[i]);
	buf[i] = 0;
	return buf;
}

/* One record: its name, and for a PTR its target ("ptr"), for a TXT its
 * strings ("txt"): the members the eve schema's mdns records have
 * (additionalProperties false); the other types' data is not logged. */
static void rr_write(JsonWriter *w, const struct dns_rr *rr)
{
	jw_object(w, NULL);
	name_write(w, "rrname", &rr->name);
	if (rr->kind == DNS_RD_NAME && rr->rrtype == 12) {
		jw_bytes(w, "ptr", rr->rd.name.s.ptr, rr->rd.name.s.len);
	} else if (rr->kind == DNS_RD_TXT && rr->rd.txt.n) {
		jw_array(w, "txt");
		for (uint32_t i = 0; i < rr->rd.txt.n; i++)
			jw_bytes(w, NULL, rr->rd.txt.v[i].ptr, rr->rd.txt.v[i].len);
		jw_close(w);
	}
	jw_close(w);
}

static void section_write(JsonWriter *w, const char *key, const struct dns_msg *m,
			  enum dns_section sec)
{
	if (!m->nrrs[sec])
		return;
	jw_array(w, key);
	for (uint32_t i = 0; i < m->nrrs[sec]; i++)
		rr_write(w, &m->rrs[sec][i]);
	jw_close(w);
}

void mdns_json_write(JsonWriter *w, const struct dns_msg *m)
{
	static const struct {
		const char *name;
		uint16_t bit;
	} flags[] = {
		{ "aa", DNS_FLAG_AA }, { "tc", DNS_FLAG_TC }, { "rd", DNS_FLAG_RD },
		{ "ra", DNS_FLAG_RA }, { "z", DNS_FLAG_Z }, { "ad", DNS_FLAG_AD },
		{ "cd", DNS_FLAG_CD },
	};
	JwMark mk;

	jw_str(w, "type", m->qr ? "response" : "request");
	jw_int(w, "id", m->id);
	mk = jw_mark(w);
	jw_array(w, "flags");
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (m->flags & flags[i].bit)
			jw_str(w, NULL, flags[i].name);
	jw_close_nonempty(w, mk);
	jw_int(w, "opcode", m->opcode);
	if (m->qr)
		jw_int(w, "rcode", m->rcode);
	if (m->nqueries) {
		jw_array(w, "queries");
		for (uint32_t i = 0; i < m->nqueries; i++) {
			char k[16];

			jw_object(w, NULL);
			name_write(w, "rrname", &m->queries[i].name);
			jw_str(w, "rrtype", type_key(m->queries[i].rrtype, k, sizeof(k)));
			jw_close(w);
		}
		jw_close(w);
	}
	section_write(w, "answers", m, DNS_SEC_ANSWER);
	section_write(w, "authorities", m, DNS_SEC_AUTHORITY);
	section_write(w, "additionals", m, DNS_SEC_ADDITIONAL);
}

static void build_obj(JsonWriter *w, void *ctx)
{
	mdns_json_write(w, ctx);
}

json_t *mdns_json_object(const struct dns_msg *m)
{
	return jw_build_tree(build_obj, (void *)m);
}

struct mdns_line {
	const Packet *p;
	const Flow *f;
	const struct dns_msg *m;
	int to_client;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct mdns_line *l = ctx;

	eve_header_write_tx(w, "mdns", l->p, l->f, l->to_client);
	jw_object(w, "mdns");
	mdns_json_write(w, l->m);
	jw_close(w);
}

/* One record per message, its header the way the datagram went. */
static void log_mdns_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	int dir = 0;
	struct mdns_line l = { p, f, mdns_tx_msg(tx, &dir), 0 };

	if (!o || !l.m || !outputs_eve_enabled(o, "mdns"))
		return;
	l.to_client = dir == APP_DIR_TOCLIENT;
	eve_write_built(o, "mdns", build_record, &l);
}

static int alert_mdns_write(JsonWriter *w, const Flow *f, void *tx)
{
	const struct dns_msg *m = mdns_tx_msg(tx, NULL);

	(void)f;
	if (!m)
		return -1;
	jw_object(w, "mdns");
	mdns_json_write(w, m);
	jw_close(w);
	return 0;
}

const EveTxLogger eve_mdns_logger = {
	.log_tx = log_mdns_tx,
	.alert_write = alert_mdns_write,
};
