/* DNS's eve logger (its line is in tx-log.c): one "dns" record per
 * transaction (Suricata 8 gives every message its own transaction), and
 * the "dns" object of alerts on a DNS transaction. The objects are
 * dns-json.c's (Suricata 8's version 3); here the record header, the
 * eve-log `- dns:` options and the write.
 *
 * The logger lives apart from dns-json.c so that the object builder stays a
 * pure module (the fuzz harness links it alone). */
#include "output/output-private.h"
#include "output/dns-json.h"
#include "output/json-writer.h"
#include "conf/conf.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A list option: a YAML sequence, or a scalar "[a, aaaa]" / "a, aaaa". */
static int each_item(const char *path, int (*add)(struct dns_json_cfg *, const char *),
		     struct dns_json_cfg *c, char *err, size_t errlen)
{
	ConfNode *n = conf_get_node(path);

	if (!n)
		return 0;
	if (!n->val) {
		for (ConfNode *i = n->child; i; i = i->next) {
			if (!i->val)
				continue;
			if (add(c, i->val) < 0) {
				snprintf(err, errlen, "%s: unknown value '%s'", path, i->val);
				return -1;
			}
		}
		return 0;
	}
	{
		char buf[512], *tok, *save = NULL;

		snprintf(buf, sizeof(buf), "%s", n->val);
		for (tok = strtok_r(buf, "[], \t", &save); tok; tok = strtok_r(NULL, "[], \t", &save)) {
			if (add(c, tok) < 0) {
				snprintf(err, errlen, "%s: unknown value '%s'", path, tok);
				return -1;
			}
		}
	}
	return 0;
}

static int get_bool(const char *prefix, const char *key, bool *out, char *err, size_t errlen)
{
	char path[400];
	int v = *out;

	snprintf(path, sizeof(path), "%s.%s", prefix, key);
	if (conf_get_bool(path, &v) < 0) {
		snprintf(err, errlen, "%s: invalid boolean '%s'", path, conf_get(path));
		return -1;
	}
	*out = v != 0;
	return 0;
}

int eve_dns_config_load(struct dns_json_cfg *c, const char *prefix, char *err, size_t errlen)
{
	char path[400];
	int64_t version = 3;
	const char *env;

	dns_json_cfg_init(c);
	if (!prefix)
		return 0;
	/* Suricata 8: the version key, else SURICATA_EVE_DNS_VERSION, else 3 */
	snprintf(path, sizeof(path), "%s.version", prefix);
	if (conf_get(path) && conf_get_int(path, &version) < 0) {
		snprintf(err, errlen, "%s: invalid version '%s'", path, conf_get(path));
		return -1;
	}
	if (!conf_get(path) && (env = getenv("SURICATA_EVE_DNS_VERSION"))) {
		char *end;
		long v = strtol(env, &end, 10);

		if (*env && !*end)
			version = v;
		else
			log_warning("SURICATA_EVE_DNS_VERSION: cannot parse '%s', using version 3", env);
	}
	if (version == 2) {
		c->version = 2;
		log_notice("eve-log dns: version 2 is deprecated (Suricata 8 removes it in 9.0)");
	} else if (version != 3) {
		log_warning("%s: eve dns version %lld is not supported, using version 3", path,
			    (long long)version);
	}
	if (get_bool(prefix, "requests", &c->requests, err, errlen) < 0 ||
	    get_bool(prefix, "responses", &c->responses, err, errlen) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s.formats", prefix);
	if (each_item(path, dns_json_cfg_add_format, c, err, errlen) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s.types", prefix);
	return each_item(path, dns_json_cfg_add_type, c, err, errlen);
}

static enum dns_dir tx_dir(const struct dns_tx *tx)
{
	return tx->request ? DNS_DIR_TOSERVER : DNS_DIR_TOCLIENT;
}

/* Alerts on a transaction carry its "dns" object: every type, both
 * formats, whatever the dns logger's options (Suricata 8). */
static int alert_dns_write(JsonWriter *w, const Flow *f, void *tx)
{
	(void)f;
	return dns_json_alert_write(w, tx, tx_dir(tx));
}

/* The parser's events on the transaction as eve anomaly records
 * (type applayer, layer proto_parser), as Suricata writes them
 * (suricata-verify dns-invalid-opcode). */
static void anomalies(Outputs *o, const Packet *p, const Flow *f, const struct dns_tx *tx)
{
	uint32_t ev = dns_tx_events(tx, DNS_DIR_TOSERVER) | dns_tx_events(tx, DNS_DIR_TOCLIENT);

	for (int e = 0; e < DNS_EV_MAX && ev; e++)
		if (ev & (1u << e))
			output_anomaly_applayer(o, p, f, "dns", dns_event_name((enum dns_event)e),
						"proto_parser", 1, tx->tx_id);
}

/* What goes into one record's "dns" object. */
struct dns_record {
	const struct dns_msg *m;
	enum dns_dir dir;
	uint64_t tx_id;
	uint32_t query;        /* version 2 requests: the query logged */
	const struct dns_json_cfg *cfg;
};

static void fill_dns(JsonWriter *w, const struct dns_record *r)
{
	if (r->cfg->version == 2 && r->dir == DNS_DIR_TOSERVER)
		dns_json_v2_query(w, r->m, r->query, r->tx_id, r->cfg);
	else if (r->cfg->version == 2)
		dns_json_v2_answer(w, r->m, r->cfg);
	else
		dns_json_write(w, r->m, r->dir, r->tx_id, r->cfg);
}

struct dns_line {
	const Packet *p;
	const Flow *f;
	const struct dns_record *r;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct dns_line *l = ctx;
	int server_src = l->r->cfg->version == 3 && l->r->dir == DNS_DIR_TOCLIENT;

	eve_header_write_tx(w, "dns", l->p, l->f, server_src);
	if (l->p) {
		const char *src = output_pkt_src(l->p);

		/* one of our names: no escaping pass */
		jw_ascii(w, "pkt_src", src, strlen(src));
	}
	jw_object(w, "dns");
	fill_dns(w, l->r);
}

/* One eve record, written straight into its line, to the outputs outs.
 * Version 3 names a response's server as source, as Suricata 8 writes it
 * (suricata-verify dns-udp-eve-dig, dns-tcp-www-google-com); version 2
 * keeps the flow's client as source (suricata-verify
 * dns/v2/dns-tcp-www-google-com). */
static void write_record(Outputs *o, uint32_t outs, const Packet *p, const Flow *f,
			 const struct dns_record *r)
{
	struct dns_line l = { p, f, r };

	/* a message holds at most 64 KiB; its record, escaped, more: the
	 * heap's 1 MiB holds it */
	eve_write_built_to(o, outs, build_record, &l);
}

struct dns_tx_ctx {
	const Packet *p;
	const Flow *f;
	const struct dns_tx *tx;
};

/* The records of a transaction for the outputs outs, which share the dns
 * options cfg: one per message in version 3 (one with Suricata 8's
 * per-message transactions); in version 2 one per logged query of a
 * request, one per response. */
static void log_dns_group(Outputs *o, uint32_t outs, const EveTypeOptions *opts, void *ctx)
{
	const struct dns_tx_ctx *c = ctx;
	const struct dns_json_cfg *cfg = &opts->dns;

	for (int dir = DNS_DIR_TOSERVER; dir <= DNS_DIR_TOCLIENT; dir++) {
		struct dns_record r = { dns_tx_msg(c->tx, (enum dns_dir)dir), (enum dns_dir)dir,
					c->tx->tx_id, 0, cfg };

		if (!dns_json_wanted(r.m, r.dir, cfg))
			continue;
		if (cfg->version == 2 && dir == DNS_DIR_TOSERVER) {
			for (r.query = 0; r.query < r.m->nqueries; r.query++)
				if (dns_json_cfg_type_on(cfg, r.m->queries[r.query].rrtype))
					write_record(o, outs, c->p, c->f, &r);
			continue;
		}
		write_record(o, outs, c->p, c->f, &r);
	}
}

static int same_dns_options(const EveTypeOptions *a, const EveTypeOptions *b)
{
	/* both made by dns_json_cfg_init (memset): no stray padding bytes */
	return memcmp(&a->dns, &b->dns, sizeof(a->dns)) == 0;
}

/* Each eve-log output takes the records its own dns options ask for
 * (Suricata 8: one output may log only A records, another only MX
 * responses; suricata-verify dns-eve-type-filtering). */
static void log_dns_tx(Outputs *o, const Packet *p, const Flow *f, void *txp)
{
	struct dns_tx_ctx c = { p, f, txp };

	if (!o)
		return;
	anomalies(o, p, f, c.tx);
	eve_each_option_group(o, "dns", same_dns_options, log_dns_group, &c);
}

const EveTxLogger eve_dns_logger = {
	.log_tx = log_dns_tx,
	.alert_write = alert_dns_write,
};
