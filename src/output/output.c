/* Output configuration and files: `outputs:` (fast, eve-log, stats) and the
 * top-level `stats:` section, read once at start; files opened once; lines
 * written whole under one mutex per file. */
#include "output/output-private.h"
#include "output/lua-out.h"
#include "output/json-writer.h"
#include "output/json-dump.h"
#include "output/tls-json.h"
#include "output/http-log.h"
#include "app-layer/tls.h"
#include "output/sink.h"
#include "output/smtp-json.h"
#include "conf/conf.h"
#include "util/log.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* eve-log types the engine writes now or will write (alerts, app layer). The
 * rest of Suricata's long list is accepted and ignored with an info line. */
static const char *const eve_known_types[] = {
	"alert", "anomaly", "http", "dns", "tls", "files", "fileinfo", "drop",
	"flow", "netflow", "stats", "smtp", "ssh", "ftp", "dcerpc", "frame", "smb",
	"arp", "mqtt", "sip", "mdns", "pop3", "ldap", "krb5", "snmp",
	"pgsql", "websocket",
	"dhcp", "tftp", "ntp",
	"dnp3",
	"rfb", "rdp",
	"http2",
	"enip", "modbus",
	"ike", "bittorrent-dht", "nfs",
	"quic",
	"doh2",
	"stream",
};

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static int get_bool(const char *prefix, const char *key, int *out, char *err, size_t errlen)
{
	char path[512];

	snprintf(path, sizeof(path), "%s.%s", prefix, key);
	if (conf_get_bool(path, out) < 0) {
		set_err(err, errlen, "%s: invalid boolean '%s'", path, conf_get(path));
		return -1;
	}
	return 0;
}

static int set_path(char *dst, const char *log_dir, const char *name, const char *key,
		    char *err, size_t errlen)
{
	int n;

	if (name[0] == '/' || !log_dir || !log_dir[0])
		n = snprintf(dst, PATH_MAX, "%s", name);
	else
		n = snprintf(dst, PATH_MAX, "%s/%s", log_dir, name);
	if (n < 0 || n >= PATH_MAX) {
		set_err(err, errlen, "%s: path too long", key);
		return -1;
	}
	return 0;
}

/* enabled, filename and append: what every file output has. */
static int load_file(OutputFileConfig *fc, const char *prefix, const char *log_dir,
		     const char *def_name, char *err, size_t errlen)
{
	char key[256];
	const char *name;

	fc->enabled = 0;
	fc->append = 1;
	if (get_bool(prefix, "enabled", &fc->enabled, err, errlen) < 0 ||
	    get_bool(prefix, "append", &fc->append, err, errlen) < 0)
		return -1;
	snprintf(key, sizeof(key), "%s.filename", prefix);
	name = conf_get(key);
	if (!name || !name[0])
		name = def_name;
	return set_path(fc->path, log_dir, name, key, err, errlen);
}

/* The names Suricata 8 has an output module for: `outputs:` entries and
 * eve-log types. One it has but we do not write is accepted (its settings
 * are named as unused); a name it has not is a typo, and Suricata 8 stops
 * on it ("No output module named eve-logg"): a sensor that silently logs
 * nothing is worse than one that does not start. Names of Suricata 9's
 * suite are here too, so that its configurations load. */
static const char *const suricata_outputs[] = {
	"fast", "eve-log", "http-log", "tls-log", "tls-store", "pcap-log", "alert-debug",
	"stats", "syslog", "drop", "file-store", "tcp-data", "http-body-data", "lua",
	"alert-prelude", "file-log", "dns-log", "unified2-alert", "alert-syslog", NULL,
};

static const char *const suricata_eve_types[] = {
	"alert", "anomaly", "http", "dns", "tls", "files", "fileinfo", "drop", "flow",
	"netflow", "stats", "metadata", "frame", "smtp", "pop3", "imap", "ssh", "ftp",
	"ftp-data", "websocket", "rdp", "nfs", "smb", "tftp", "ike", "ikev2", "dcerpc",
	"krb5", "bittorrent-dht", "snmp", "rfb", "sip", "quic", "dhcp", "mqtt", "http2",
	"doh2", "pgsql", "ldap", "mdns", "llmnr", "dnp3", "modbus", "enip", "cip", "ntp",
	"arp", "template", "template-rust", "mms", "pop", "lua", "verdict", NULL,
};

static int name_in(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(*list, name) == 0)
			return 1;
	return 0;
}

#define EVE_NTYPES (sizeof(eve_known_types) / sizeof(eve_known_types[0]))
_Static_assert(EVE_NTYPES <= 64, "eve types are bits of a uint64_t");

/* The type's index in eve_known_types, or -1. */
static int eve_type_index(const char *t)
{
	for (size_t i = 0; i < EVE_NTYPES; i++)
		if (strcmp(eve_known_types[i], t) == 0)
			return (int)i;
	return -1;
}

static int eve_type_known(const char *t)
{
	return eve_type_index(t) >= 0;
}

/* Suricata's METADATA_DEFAULTS: "metadata: yes" (the default) turns on the
 * flow object, app-layer objects and the rule's metadata; a map picks them. */
static int load_alert_metadata(OutputAlertConfig *ac, const char *prefix, char *err,
			       size_t errlen)
{
	char path[400];
	int all = 1;

	snprintf(path, sizeof(path), "%s.metadata", prefix);
	if (conf_get(path)) {
		if (get_bool(prefix, "metadata", &all, err, errlen) < 0)
			return -1;
		ac->flow = ac->app_layer = ac->rule_metadata = all;
		return 0;
	}
	if (!conf_get_node(path))
		return 0;
	ac->flow = ac->app_layer = ac->rule_metadata = 0;
	if (get_bool(path, "flow", &ac->flow, err, errlen) < 0 ||
	    get_bool(path, "app-layer", &ac->app_layer, err, errlen) < 0 ||
	    get_bool(path, "rule.metadata", &ac->rule_metadata, err, errlen) < 0 ||
	    get_bool(path, "rule.reference", &ac->rule_reference, err, errlen) < 0 ||
	    get_bool(path, "rule.raw", &ac->rule_raw, err, errlen) < 0)
		return -1;
	return 0;
}

static int load_alert_options(OutputAlertConfig *ac, const char *prefix, char *err,
			      size_t errlen)
{
	char path[400];
	uint64_t sz;
	int r;

	if (get_bool(prefix, "payload", &ac->payload, err, errlen) < 0 ||
	    get_bool(prefix, "payload-printable", &ac->payload_printable, err, errlen) < 0 ||
	    get_bool(prefix, "payload-length", &ac->payload_length, err, errlen) < 0 ||
	    get_bool(prefix, "packet", &ac->packet, err, errlen) < 0 ||
	    get_bool(prefix, "tagged-packets", &ac->tagged_packets, err, errlen) < 0 ||
	    get_bool(prefix, "verdict", &ac->verdict, err, errlen) < 0 ||
	    get_bool(prefix, "http-body", &ac->http_body, err, errlen) < 0 ||
	    get_bool(prefix, "http-body-printable", &ac->http_body_printable, err, errlen) < 0 ||
	    load_alert_metadata(ac, prefix, err, errlen) < 0 ||
	    xff_config_load(prefix, &ac->xff, err, errlen) < 0)
		return -1;
	/* "http: yes" predates metadata; it still switches app-layer data */
	if (get_bool(prefix, "http", &ac->app_layer, err, errlen) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s.payload-buffer-size", prefix);
	r = conf_get_size(path, &sz);
	if (r < 0 || (r > 0 && (sz == 0 || sz > UINT32_MAX))) {
		set_err(err, errlen, "%s: invalid size '%s'", path, conf_get(path));
		return -1;
	}
	if (r > 0)
		ac->payload_buffer_size = (uint32_t)sz;
	return 0;
}

static int load_anomaly_options(OutputAnomalyConfig *nc, const char *prefix, char *err,
				size_t errlen)
{
	char tp[400];

	snprintf(tp, sizeof(tp), "%s.types", prefix);
	if (get_bool(tp, "decode", &nc->decode, err, errlen) < 0 ||
	    get_bool(tp, "stream", &nc->stream, err, errlen) < 0 ||
	    get_bool(tp, "applayer", &nc->applayer, err, errlen) < 0 ||
	    get_bool(prefix, "packethdr", &nc->packethdr, err, errlen) < 0)
		return -1;
	return 0;
}

/* Suricata's dump-all-headers: "both", "request", "response" (anything
 * else logs none), and extended: the http record's method, protocol,
 * status, referer, redirect and length only when set (Suricata 8's
 * default is no; its shipped yaml sets it, as ours does). */
static int load_http_options(OutputConfig *cfg, const char *prefix, char *err,
			     size_t errlen)
{
	char path[400];
	const char *v;

	ConfNode *custom;

	if (get_bool(prefix, "extended", &cfg->eve_http_extended, err, errlen) < 0 ||
	    xff_config_load(prefix, &cfg->eve_http_xff, err, errlen) < 0)
		return -1;
	/* custom: header fields by name, added to the http record; a name
	 * outside Suricata's table is ignored, as Suricata does */
	snprintf(path, sizeof(path), "%s.custom", prefix);
	custom = conf_get_node(path);
	for (ConfNode *c = custom ? custom->child : NULL; c; c = c->next) {
		int i = c->val ? http_custom_field(c->val) : -1;

		if (i >= 0)
			cfg->eve_http_custom |= 1ull << i;
	}
	snprintf(path, sizeof(path), "%s.dump-all-headers", prefix);
	v = conf_get(path);
	if (!v)
		return 0;
	if (strcmp(v, "both") == 0)
		cfg->eve_http_headers = OUTPUT_HTTP_HDR_REQUEST | OUTPUT_HTTP_HDR_RESPONSE;
	else if (strcmp(v, "request") == 0)
		cfg->eve_http_headers = OUTPUT_HTTP_HDR_REQUEST;
	else if (strcmp(v, "response") == 0)
		cfg->eve_http_headers = OUTPUT_HTTP_HDR_RESPONSE;
	else if (strcmp(v, "none") != 0 && strcmp(v, "no") != 0) {
		set_err(err, errlen, "%s: invalid value '%s' (both, request, response)", path, v);
		return -1;
	}
	return 0;
}

/* Suricata's tls logger options: extended (no: subject, issuer and
 * session_resumed), custom: [fields] (replaces extended), and
 * session-resumption (log resumed sessions, which have no certificate). */
static int load_tls_options(EveTypeOptions *opts, const char *prefix, char *err, size_t errlen)
{
	char path[400];
	int ext = 0;
	ConfNode *custom;

	opts->tls_fields = TLS_LOG_BASIC;
	opts->tls_resumption = 0;
	if (!prefix)
		return 0;
	if (get_bool(prefix, "extended", &ext, err, errlen) < 0 ||
	    get_bool(prefix, "session-resumption", &opts->tls_resumption, err, errlen) < 0)
		return -1;
	if (ext)
		opts->tls_fields = TLS_LOG_EXTENDED;
	snprintf(path, sizeof(path), "%s.custom", prefix);
	custom = conf_get_node(path);
	if (custom && custom->child) {
		const char *names[64], *bad = NULL;
		unsigned n = 0;

		for (ConfNode *c = custom->child; c && n < 64; c = c->next)
			if (c->val)
				names[n++] = c->val;
		if (tls_log_custom_fields(names, n, &opts->tls_fields, &bad) < 0) {
			set_err(err, errlen, "%s: unknown tls field '%s'", path, bad ? bad : "");
			return -1;
		}
	}
	/* A logger that writes ja4 (extended, or custom with ja4) asks for it
	 * as a rule does: with ja4-fingerprints unset (auto) Suricata 8.0.3+
	 * logs a client hello's ja4 under the default config (suricata-verify
	 * bug-5713-02-ja4); an explicit "no" still turns it off. */
	if (opts->tls_fields & TLS_LOG_JA4)
		tls_ja_request(0, 1);
	return 0;
}

static int load_eve_types(OutputConfig *cfg, EveOutputConfig *ec, const char *prefix,
			  char *err, size_t errlen)
{
	char path[256];
	ConfNode *types;

	snprintf(path, sizeof(path), "%s.types", prefix);
	types = conf_get_node(path);
	if (!types)
		return 0;
	for (ConfNode *item = types->child; item; item = item->next) {
		/* "- flow" is a scalar item; "- stats: {totals: yes}" a one-key map */
		const char *t = item->val ? item->val : item->child ? item->child->name : NULL;

		if (!t)
			continue;
		if (!eve_type_known(t)) {
			char ep[320];
			int on = 1;

			snprintf(ep, sizeof(ep), "%s.%s.%s", path, item->name, t);
			if (!item->val && get_bool(ep, "enabled", &on, err, errlen) < 0)
				return -1;
			if (on && !name_in(t, suricata_eve_types)) {
				set_err(err, errlen, "No output module named eve-log.%s (%s.%s: "
					"not an eve-log type)", t, path, item->name);
				return -1;
			}
			/* unread, for good: conf_report_unused() names it */
			item->used = -1;
			continue;
		}
		if (item->child)
			item->child->used = 1;     /* `- dns:` with no options */
		if (!item->val) {
			/* "- frame: {enabled: no}": listed but off */
			int on = 1;
			char ep[320];

			snprintf(ep, sizeof(ep), "%s.%s.%s", path, item->name, t);
			if (get_bool(ep, "enabled", &on, err, errlen) < 0)
				return -1;
			if (!on)
				continue;
		}
		/* dns, tls and smtp: each output's own options (EveTypeOptions) */
		if (strcmp(t, "tls") == 0) {
			char tp[320];

			snprintf(tp, sizeof(tp), "%s.%s.tls", path, item->name);
			if (load_tls_options(&ec->opts, item->val ? NULL : tp, err, errlen) < 0)
				return -1;
			goto listed;
		}
		if (strcmp(t, "smtp") == 0) {
			char sp2[320];

			snprintf(sp2, sizeof(sp2), "%s.%s.smtp", path, item->name);
			if (eve_smtp_config_load(&ec->opts.smtp_fields, item->val ? NULL : sp2, err,
						 errlen) < 0)
				return -1;
			goto listed;
		}
		/* stream: each output's own triggers */
		if (strcmp(t, "stream") == 0) {
			static const struct { const char *key; unsigned bit; } opts[] = {
				{ "all", EVE_STREAM_ALL },
				{ "event-set", EVE_STREAM_EVENT_SET },
				{ "state-update", EVE_STREAM_STATE_UPDATE },
				{ "spurious-retransmission", EVE_STREAM_SPURIOUS_RETRANSMISSION },
			};
			char sp[320];

			snprintf(sp, sizeof(sp), "%s.%s.stream", path, item->name);
			/* a bare "- stream" sets nothing: no record */
			for (size_t k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
				int on = 0;

				if (get_bool(sp, opts[k].key, &on, err, errlen) < 0)
					return -1;
				if (on)
					ec->opts.stream |= opts[k].bit;
			}
			goto listed;
		}
		/* a bare "- dns" too: its defaults may come from the environment */
		if (strcmp(t, "dns") == 0) {
			char dp[320];

			snprintf(dp, sizeof(dp), "%s.%s.dns", path, item->name);
			if (eve_dns_config_load(&ec->opts.dns, dp, err, errlen) < 0)
				return -1;
			goto listed;
		}
		/* the options of the other types are one set for every eve-log
		 * output: the first output that lists the type gives them */
		if (eve_type_index(t) >= 0) {
			uint64_t bit = 1ull << eve_type_index(t);

			if (cfg->eve_type_opts & bit) {
				if (!item->val)
					log_info("%s: the options of type '%s' are those of the "
						 "first eve-log that lists it", path, t);
				goto listed;
			}
			cfg->eve_type_opts |= bit;
		}
		if (strcmp(t, "stats") == 0 && !item->val) {
			char sp[320];

			snprintf(sp, sizeof(sp), "%s.%s.stats", path, item->name);
			if (get_bool(sp, "totals", &cfg->eve_stats_totals, err, errlen) < 0 ||
			    get_bool(sp, "threads", &cfg->eve_stats_threads, err, errlen) < 0 ||
			    get_bool(sp, "deltas", &cfg->eve_stats_deltas, err, errlen) < 0 ||
			    get_bool(sp, "null-values", &cfg->eve_stats_null_values, err, errlen) < 0)
				return -1;
		}
		if (strcmp(t, "anomaly") == 0 && !item->val) {
			char np[320];

			snprintf(np, sizeof(np), "%s.%s.anomaly", path, item->name);
			if (load_anomaly_options(&cfg->eve_anomaly, np, err, errlen) < 0)
				return -1;
		}
		if (strcmp(t, "alert") == 0 && !item->val) {
			char ap[320];

			snprintf(ap, sizeof(ap), "%s.%s.alert", path, item->name);
			if (load_alert_options(&cfg->eve_alert, ap, err, errlen) < 0)
				return -1;
		}
		if (strcmp(t, "http") == 0 && !item->val) {
			char hp[320];

			snprintf(hp, sizeof(hp), "%s.%s.http", path, item->name);
			if (load_http_options(cfg, hp, err, errlen) < 0)
				return -1;
		}
		if (strcmp(t, "mqtt") == 0 && !item->val) {
			char mp[320];

			snprintf(mp, sizeof(mp), "%s.%s.mqtt.string-log-limit", path, item->name);
			if (conf_get_size(mp, &cfg->eve_mqtt_string_limit) < 0) {
				set_err(err, errlen, "%s: invalid size '%s'", mp, conf_get(mp));
				return -1;
			}
		}
		if (strcmp(t, "pgsql") == 0 && !item->val) {
			char pp[320];

			snprintf(pp, sizeof(pp), "%s.%s.pgsql", path, item->name);
			if (get_bool(pp, "passwords", &cfg->eve_pgsql_passwords, err, errlen) < 0)
				return -1;
		}
		if (strcmp(t, "websocket") == 0 && !item->val) {
			char wp[320];
			int b64 = 0, pr = 0;

			snprintf(wp, sizeof(wp), "%s.%s.websocket", path, item->name);
			if (get_bool(wp, "payload-base64", &b64, err, errlen) < 0 ||
			    get_bool(wp, "payload-printable", &pr, err, errlen) < 0)
				return -1;
			/* WS_LOG_BASE64, WS_LOG_PRINTABLE (output/websocket-json.h) */
			cfg->eve_websocket_payload = (b64 ? 1u : 0u) | (pr ? 2u : 0u);
		}
		if (strcmp(t, "dhcp") == 0 && !item->val) {
			char hp[320];

			snprintf(hp, sizeof(hp), "%s.%s.dhcp", path, item->name);
			if (get_bool(hp, "extended", &cfg->eve_dhcp_extended, err, errlen) < 0)
				return -1;
		}
		if (strcmp(t, "ike") == 0 && !item->val) {
			char ip[320];

			snprintf(ip, sizeof(ip), "%s.%s.ike", path, item->name);
			if (get_bool(ip, "extended", &cfg->eve_ike_extended, err, errlen) < 0)
				return -1;
		}
		if (strcmp(t, "drop") == 0 && !item->val) {
			char dp[320];
			const char *flows;

			snprintf(dp, sizeof(dp), "%s.%s.drop", path, item->name);
			if (get_bool(dp, "alerts", &cfg->eve_drop_alerts, err, errlen) < 0 ||
			    get_bool(dp, "verdict", &cfg->eve_drop_verdict, err, errlen) < 0)
				return -1;
			snprintf(dp, sizeof(dp), "%s.%s.drop.flows", path, item->name);
			flows = conf_get(dp);
			if (flows && strcasecmp(flows, "all") == 0)
				cfg->eve_drop_flows_all = 1;
			else if (flows && strcasecmp(flows, "start") != 0)
				log_warning("%s: valid options are 'start' and 'all', using start", dp);
		}
listed:
		if (ec->ntypes == OUTPUT_EVE_TYPES_MAX)
			continue;
		snprintf(ec->types[ec->ntypes++], OUTPUT_TYPE_NAME_MAX, "%s", t);
	}
	return 0;
}

/* filetype: regular (or file, or none) is a file, *tp NULL; the others
 * are the sink registry's (sink.h). */
static int load_filetype(const char *prefix, const SinkTransport **tp, char *err,
			 size_t errlen)
{
	char key[256], names[160];
	const char *v;

	snprintf(key, sizeof(key), "%s.filetype", prefix);
	v = conf_get(key);
	*tp = NULL;
	if (!v || !v[0] || strcmp(v, "file") == 0 || strcmp(v, "regular") == 0)
		return 0;
	if ((*tp = sink_transport_find(v)))
		return 0;
	sink_transport_names(names, sizeof(names));
	set_err(err, errlen, "%s: unknown filetype '%s' (regular, %s)", key, v, names);
	return -1;
}

/* Suricata allows any number of eve-log outputs, each with its own
 * destination and types (alerts to one file, dns to another, all to redis). */
static int load_eve(OutputConfig *cfg, const char *prefix, const char *log_dir, char *err,
		    size_t errlen)
{
	char key[256];
	const char *pre;
	OutputFileConfig fc;
	EveOutputConfig *ec;
	const SinkTransport *ft;

	if (load_file(&fc, prefix, log_dir, "eve.json", err, errlen) < 0)
		return -1;
	if (!fc.enabled)
		return 0;
	if (cfg->neve == OUTPUT_EVE_MAX) {
		log_warning("%s: at most %d eve-log outputs are supported, this one is ignored",
			    prefix, OUTPUT_EVE_MAX);
		return 0;
	}
	if (load_filetype(prefix, &ft, err, errlen) < 0)
		return -1;
	/* two outputs on one file would interleave their stdio buffers */
	for (unsigned i = 0; !ft && i < cfg->neve; i++)
		if (!cfg->eve[i].sink.transport &&
		    strcmp(cfg->eve[i].file.path, fc.path) == 0) {
			set_err(err, errlen, "%s.filename: %s is the file of an earlier eve-log "
				"output already", prefix, fc.path);
			return -1;
		}
	ec = &cfg->eve[cfg->neve];
	memset(ec, 0, sizeof(*ec));
	ec->file = fc;
	/* its types' defaults, for a type it does not list too */
	dns_json_cfg_init(&ec->opts.dns);
	ec->opts.tls_fields = TLS_LOG_BASIC;
	if (eve_sink_config_load(&ec->sink, ft, prefix, fc.path, err, errlen) < 0)
		return -1;
	snprintf(key, sizeof(key), "%s.prefix", prefix);
	pre = conf_get(key);
	if (pre && strlen(pre) >= sizeof(ec->prefix)) {
		set_err(err, errlen, "%s: longer than %zu characters", key, sizeof(ec->prefix) - 1);
		return -1;
	}
	snprintf(ec->prefix, sizeof(ec->prefix), "%s", pre ? pre : "");
	if (get_bool(prefix, "pcap-file", &ec->pcap_file, err, errlen) < 0)
		return -1;
	/* one set for all outputs, as the type options: the first eve-log's */
	if (cfg->neve == 0) {
		char key2[512];
		int64_t seed = 0;

		if (get_bool(prefix, "ethernet", &cfg->eve_ethernet, err, errlen) < 0 ||
		    get_bool(prefix, "metadata", &cfg->eve_metadata, err, errlen) < 0 ||
		    get_bool(prefix, "community-id", &cfg->eve_community_id, err, errlen) < 0)
			return -1;
		snprintf(key2, sizeof(key2), "%s.community-id-seed", prefix);
		if (conf_get(key2) && (conf_get_int(key2, &seed) < 0 || seed < 0 || seed > 65535)) {
			set_err(err, errlen, "%s: invalid seed '%s' (0..65535)", key2, conf_get(key2));
			return -1;
		}
		cfg->eve_community_seed = (uint16_t)seed;
	}
	if (load_eve_types(cfg, ec, prefix, err, errlen) < 0)
		return -1;
	cfg->neve++;
	return 0;
}

static int load_stats_output(OutputConfig *cfg, const char *prefix, const char *log_dir,
			     char *err, size_t errlen)
{
	if (load_file(&cfg->stats, prefix, log_dir, "stats.log", err, errlen) < 0 ||
	    get_bool(prefix, "totals", &cfg->stats_totals, err, errlen) < 0 ||
	    get_bool(prefix, "threads", &cfg->stats_threads, err, errlen) < 0)
		return -1;
	if (cfg->stats.enabled && !cfg->stats_totals && !cfg->stats_threads) {
		set_err(err, errlen, "%s: totals and threads cannot both be disabled", prefix);
		return -1;
	}
	return 0;
}

static int load_stats_section(OutputConfig *cfg, char *err, size_t errlen)
{
	int64_t iv;
	int r;

	if (get_bool("stats", "enabled", &cfg->stats_enabled, err, errlen) < 0)
		return -1;
	r = conf_get_int("stats.interval", &iv);
	if (r < 0 || (r > 0 && (iv <= 0 || iv > 86400))) {
		set_err(err, errlen, "stats.interval: invalid value '%s'", conf_get("stats.interval"));
		return -1;
	}
	if (r > 0)
		cfg->stats_interval = (uint32_t)iv;
	return 0;
}

/* Suricata's defaults for the memcaps whose use makes up memcap.pressure. */
static int load_memcaps(OutputConfig *cfg, char *err, size_t errlen)
{
	static const struct { const char *key; uint64_t def; } mc[3] = {
		{ "flow.memcap", 128ull << 20 },
		{ "stream.memcap", 64ull << 20 },
		{ "stream.reassembly.memcap", 256ull << 20 },
	};

	for (int i = 0; i < 3; i++) {
		cfg->memcaps[i] = mc[i].def;
		if (conf_get_size(mc[i].key, &cfg->memcaps[i]) < 0) {
			set_err(err, errlen, "%s: invalid size '%s'", mc[i].key, conf_get(mc[i].key));
			return -1;
		}
	}
	return 0;
}

int output_config_load(OutputConfig *cfg, const char *log_dir, char *err, size_t errlen)
{
	ConfNode *outputs;

	memset(cfg, 0, sizeof(*cfg));
	cfg->stats_enabled = 1;
	cfg->stats_interval = 8;
	cfg->stats_totals = 1;
	cfg->eve_stats_totals = 1;
	cfg->eve_alert.payload_buffer_size = 4096;
	cfg->eve_alert.flow = 1;
	cfg->eve_alert.app_layer = 1;
	cfg->eve_alert.rule_metadata = 1;
	cfg->eve_anomaly.applayer = 1;
	cfg->eve_stats_null_values = 1;
	cfg->eve_mqtt_string_limit = 1024; /* Suricata 8's string-log-limit */
	cfg->eve_metadata = 1;      /* Suricata: on unless the eve-log says no */
	if (load_stats_section(cfg, err, errlen) < 0 || load_memcaps(cfg, err, errlen) < 0)
		return -1;

	{
		const char *sn = NULL;

		if (conf_get_scalar("sensor-name", &sn) < 0) {
			set_err(err, errlen, "sensor-name: expected a name");
			return -1;
		}
		if (sn && strlen(sn) >= sizeof(cfg->sensor_name)) {
			set_err(err, errlen, "sensor-name: longer than %zu characters",
				sizeof(cfg->sensor_name) - 1);
			return -1;
		}
		snprintf(cfg->sensor_name, sizeof(cfg->sensor_name), "%s", sn ? sn : "");
	}
	outputs = conf_get_node("outputs");
	/* `outputs:` is a list of one-key maps (- eve-log: ...). A map or a scalar
	 * there would configure nothing at all: stop rather than run blind. */
	if (outputs && !outputs->is_seq && (outputs->child || outputs->val)) {
		set_err(err, errlen, "outputs: expected a list of outputs (- eve-log: ...), "
			"not a %s", outputs->val ? "value" : "map");
		return -1;
	}
	for (ConfNode *item = outputs ? outputs->child : NULL; item; item = item->next) {
		char prefix[128];
		const char *type;
		int rc = 0;

		if (!item->child)
			continue;
		type = item->child->name;
		snprintf(prefix, sizeof(prefix), "outputs.%s.%s", item->name, type);
		if (!name_in(type, suricata_outputs)) {
			int on = 0;

			/* as Suricata: an output that is not enabled is not looked up */
			if (get_bool(prefix, "enabled", &on, err, errlen) < 0)
				return -1;
			if (on) {
				set_err(err, errlen, "No output module named %s (outputs.%s)", type,
					item->name);
				return -1;
			}
			continue;
		}
		if (strcmp(type, "fast") == 0)
			rc = load_file(&cfg->fast, prefix, log_dir, "fast.log", err, errlen);
		else if (strcmp(type, "eve-log") == 0)
			rc = load_eve(cfg, prefix, log_dir, err, errlen);
		else if (strcmp(type, "stats") == 0)
			rc = load_stats_output(cfg, prefix, log_dir, err, errlen);
		else if (strcmp(type, "tls-store") == 0)
			rc = tls_store_config_load(cfg, prefix, log_dir, err, errlen);
		else if (strcmp(type, "pcap-log") == 0)
			rc = pcap_log_config_load(cfg, prefix, log_dir, err, errlen);
		else if (strcmp(type, "lua") == 0)
			lua_output_config_mark(prefix);
		/* others (file-store is the files module's) are not read here:
		 * conf_report_unused() names the settings of any enabled one
		 * nobody reads */
		if (rc < 0)
			return -1;
	}
	/* Suricata: without the stats subsystem the stats outputs have nothing
	 * to write. */
	if (!cfg->stats_enabled && cfg->stats.enabled) {
		log_warning("stats.log is enabled but stats.enabled is no: stats.log disabled");
		cfg->stats.enabled = 0;
	}
	return 0;
}

/* ---- files (file-out.c) ---- */

int outputs_reopen(Outputs *o)
{
	int rc = 0;

	for (unsigned i = 0; i < o->neve; i++)
		if (!o->eve[i].sink)
			rc |= output_file_reopen(&o->eve[i].file);
	rc |= output_file_reopen(&o->fast);
	rc |= output_file_reopen(&o->stats);
	return rc ? -1 : 0;
}

int outputs_chown(Outputs *o, unsigned uid, unsigned gid, char *err, size_t errlen)
{
	OutputFile *f[OUTPUT_EVE_MAX + 2];
	unsigned n = 0;

	for (unsigned i = 0; i < o->neve; i++)
		if (!o->eve[i].sink)
			f[n++] = &o->eve[i].file;
	f[n++] = &o->fast;
	f[n++] = &o->stats;
	for (unsigned i = 0; i < n; i++) {
		if (output_file_chown(f[i], uid, gid) != 0) {
			set_err(err, errlen, "cannot give %s to uid %u gid %u: %s", f[i]->path,
				uid, gid, strerror(errno));
			return -1;
		}
	}
	return 0;
}

void outputs_flush(Outputs *o)
{
	for (unsigned i = 0; i < o->neve; i++)
		output_file_flush(&o->eve[i].file);
	output_file_flush(&o->fast);
	output_file_flush(&o->stats);
}

/* ,"key":"s" at out, s escaped as every eve string is (json-dump.h: a
 * file name that is not UTF-8, byte 0xE9 of a Latin-1 name, becomes the
 * text \\xE9; the line stays UTF-8). Its length, or 0 when it does not fit. */
static size_t json_member(char *out, size_t cap, const char *key, const char *s)
{
	char *p = out, *end = out + cap;
	size_t kl = strlen(key);

	if (cap < kl + 4)
		return 0;
	*p++ = ',';
	*p++ = '"';
	memcpy(p, key, kl);
	p += kl;
	*p++ = '"';
	*p++ = ':';
	if (eve_json_put_string(&p, end, s, strlen(s)) != 0)
		return 0;
	return (size_t)(p - out);
}

/* The fields Suricata appends last to a record of output e: "host" and
 * "pcap_filename". Returns their length in suf (0: none). */
static size_t eve_suffix(const Outputs *o, const EveOutput *e, char *suf, size_t cap)
{
	size_t n = 0;
	const char *name;

	if (e->host_len && e->host_len < cap) {
		memcpy(suf, e->host_json, e->host_len);
		n = e->host_len;
	}
	if (e->pcap_file && o->pcap_name && (name = o->pcap_name(o->pcap_name_arg)))
		n += json_member(suf + n, cap - n, "pcap_filename", name);
	return n;
}

static uint64_t type_mask_of(const EveOutputConfig *ec)
{
	uint64_t m = 0;

	for (unsigned i = 0; i < ec->ntypes; i++) {
		int t = eve_type_index(ec->types[i]);

		if (t >= 0)
			m |= 1ull << t;
	}
	return m;
}

/* "redis", "unix_stream_2": the filetype, numbered from the second output
 * of the same filetype on. */
void output_sink_stats_name(const Outputs *o, unsigned i, char *buf, size_t len)
{
	const SinkTransport *ft = o->cfg.eve[i].sink.transport;
	const char *name = ft ? ft->name : "regular";
	unsigned nth = 1;

	for (unsigned j = 0; j < i; j++)
		if (o->eve[j].sink && o->cfg.eve[j].sink.transport == ft)
			nth++;
	if (nth == 1)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%s_%u", name, nth);
}

Outputs *outputs_open(const OutputConfig *cfg, char *err, size_t errlen)
{
	Outputs *o = calloc(1, sizeof(*o));

	if (!o) {
		set_err(err, errlen, "out of memory");
		return NULL;
	}
	o->cfg = *cfg;
	/* all locks first, so that close is safe whatever fails */
	for (unsigned i = 0; i < OUTPUT_EVE_MAX; i++) {
		pthread_mutex_init(&o->eve[i].file.lock, NULL);
		o->eve[i].file.fd = -1;
	}
	pthread_mutex_init(&o->fast.lock, NULL);
	pthread_mutex_init(&o->stats.lock, NULL);
	o->fast.fd = o->stats.fd = -1;
	/* a file size limit (ulimit -f) must fail a write (EFBIG, counted
	 * and said), not kill the engine with its records */
	signal(SIGXFSZ, SIG_IGN);
	pthread_mutex_init(&o->order_lock, NULL);
	for (unsigned i = 0; i < cfg->neve; i++) {
		const EveOutputConfig *ec = &cfg->eve[i];
		EveOutput *e = &o->eve[i];

		o->neve = i + 1;
		e->prefix = o->cfg.eve[i].prefix;
		e->prefix_len = strlen(e->prefix);
		e->type_mask = type_mask_of(ec);
		e->pcap_file = ec->pcap_file;
		if (cfg->sensor_name[0])
			e->host_len = json_member(e->host_json, sizeof(e->host_json), "host",
						  cfg->sensor_name);
		o->eve_types |= e->type_mask;
		if (!ec->sink.transport) {
			if (output_file_open(&e->file, &ec->file, err, errlen) < 0)
				goto fail;
		} else {
			char name[160];

			ec->sink.transport->describe(&ec->sink, name, sizeof(name));
			e->sink = sink_open(&ec->sink, name, err, errlen);
			if (!e->sink)
				goto fail;
		}
	}
	if (output_file_open(&o->fast, &cfg->fast, err, errlen) < 0 ||
	    output_file_open(&o->stats, &cfg->stats, err, errlen) < 0 ||
	    tls_store_open(cfg, err, errlen) < 0 || pcap_log_open(o, err, errlen) < 0)
		goto fail;
	eve_set_community_id(cfg->eve_community_id, cfg->eve_community_seed);
	eve_set_ethernet(cfg->eve_ethernet);
	o->eve_flow = outputs_eve_enabled(o, "flow");
	o->eve_netflow = outputs_eve_enabled(o, "netflow");
	o->eve_frame = outputs_eve_enabled(o, "frame");
	o->eve_anomaly = outputs_eve_enabled(o, "anomaly");
	o->eve_arp = outputs_eve_enabled(o, "arp");
	for (unsigned i = 0; i < cfg->neve; i++)
		o->eve_stream |= cfg->eve[i].opts.stream;
	o->eve_files = outputs_eve_enabled(o, "files") || outputs_eve_enabled(o, "fileinfo");
	o->eve_stats = (o->eve_types & (1ull << eve_type_index("stats"))) && cfg->stats_enabled;
	return o;
fail:
	outputs_close(o);
	return NULL;
}

void outputs_close(Outputs *o)
{
	if (!o)
		return;
	outputs_run_stop(o);
	if (o->eve_unfit)
		log_warning("eve-log: %llu records were larger than their line buffer and "
			    "were not written", (unsigned long long)o->eve_unfit);
	/* every sink drains at once: the exit waits for the slowest, not the sum */
	for (unsigned i = 0; i < OUTPUT_EVE_MAX; i++)
		sink_stop(o->eve[i].sink, (int)o->cfg.eve[i].sink.close_timeout_ms);
	for (unsigned i = 0; i < OUTPUT_EVE_MAX; i++) {
		if (o->eve[i].sink)
			sink_close(o->eve[i].sink, (int)o->cfg.eve[i].sink.close_timeout_ms);
		output_file_close(&o->eve[i].file);
	}
	output_file_close(&o->fast);
	output_file_close(&o->stats);
	pcap_log_close(o);
	pthread_mutex_destroy(&o->order_lock);
	free(o->prev);
	free(o);
}

void outputs_run_start(Outputs *o)
{
	if (!o || !(o->eve_flow || o->eve_netflow) || o->flow_writer)
		return;
	for (unsigned i = 0; i < o->neve; i++)
		if (o->eve[i].pcap_file)
			return;
	o->flow_writer = flow_writer_start(o);
}

void outputs_run_stop(Outputs *o)
{
	if (!o)
		return;
	flow_writer_stop(o->flow_writer);
	o->flow_writer = NULL;
}

int outputs_eve_enabled(const Outputs *o, const char *type)
{
	int t;

	if (!o || !o->neve)
		return 0;
	if (strcmp(type, "stats") == 0)
		return o->eve_stats;
	t = eve_type_index(type);
	return t >= 0 && (o->eve_types & (1ull << t));
}

int outputs_fast_enabled(const Outputs *o)
{
	return o && o->fast.fd >= 0;
}

/* Records whose event_type is not the name of the type that enables them.
 * A logger that adds such a record adds its line here; an event_type known
 * nowhere goes to every output rather than to none. */
static const struct { const char *event_type, *type; } eve_event_type_of[] = {
	{ "fileinfo", "files" },    /* "files" or "fileinfo" */
	{ "packet", "alert" },      /* tagged packets: alert's tagged-packets */
};

/* The outputs (bits) that take a record of event_type et: with one output,
 * the caller's outputs_eve_enabled() check already decided. */
static uint32_t eve_route_type(const Outputs *o, const char *et)
{
	uint64_t tbits = 0;
	uint32_t want = 0;
	int t;

	if (o->neve == 1)
		return 1;
	if (!et)
		return (1u << o->neve) - 1;
	t = eve_type_index(et);
	if (t >= 0)
		tbits = 1ull << t;
	for (size_t i = 0; i < sizeof(eve_event_type_of) / sizeof(eve_event_type_of[0]); i++)
		if (strcmp(et, eve_event_type_of[i].event_type) == 0)
			tbits |= 1ull << eve_type_index(eve_event_type_of[i].type);
	if (!tbits)
		return (1u << o->neve) - 1;
	for (unsigned i = 0; i < o->neve; i++)
		if (o->eve[i].type_mask & tbits)
			want |= 1u << i;
	return want;
}

/* line without its closing brace, then suf, then the brace: one record.
 * Most fit the stack; a larger one is joined on the heap (rare: a record
 * of more than 16 KB on an output with host or pcap_filename). */
static void eve_put_suffixed(EveOutput *e, const char *line, size_t len, const char *suf,
			     size_t slen)
{
	char stack[16384], *buf = stack;
	size_t total = len + slen;

	if (total > sizeof(stack) && !(buf = malloc(total)))
		return;
	memcpy(buf, line, len - 1);
	memcpy(buf + len - 1, suf, slen);
	buf[total - 1] = '}';
	if (e->sink)
		sink_push(e->sink, e->prefix, e->prefix_len, buf, total);
	else if (e->prefix_len)
		output_file_write_prefixed(&e->file, e->prefix, e->prefix_len, buf, total);
	else
		output_file_write_line(&e->file, buf, total);
	if (buf != stack)
		free(buf);
}

static void eve_put(Outputs *o, uint32_t want, const char *line, size_t len)
{
	int several = want & (want - 1);

	if (several)
		pthread_mutex_lock(&o->order_lock);
	for (unsigned i = 0; i < o->neve; i++) {
		EveOutput *e = &o->eve[i];
		/* host and a capture's path, each byte 5 at most (\\xNN) */
		char suf[1024 + 5 * PATH_MAX];
		size_t slen;

		if (!(want & (1u << i)))
			continue;
		slen = (e->host_len || e->pcap_file) ? eve_suffix(o, e, suf, sizeof(suf)) : 0;
		if (slen && len && line[len - 1] == '}') {
			eve_put_suffixed(e, line, len, suf, slen);
			continue;
		}
		if (e->sink)
			sink_push(e->sink, e->prefix, e->prefix_len, line, len);
		else if (e->prefix_len)
			output_file_write_prefixed(&e->file, e->prefix, e->prefix_len, line, len);
		else
			output_file_write_line(&e->file, line, len);
	}
	if (several)
		pthread_mutex_unlock(&o->order_lock);
}

void eve_write_line(Outputs *o, const char *event_type, const char *line, size_t len)
{
	uint32_t want;

	if (!o || !o->neve || !(want = eve_route_type(o, event_type)))
		return;
	if (!len) {
		__atomic_fetch_add(&o->eve_unfit, 1, __ATOMIC_RELAXED);
		return;
	}
	eve_put(o, want, line, len);
}

size_t eve_build(char *stack, size_t cap, size_t max, char **line,
		 void (*build)(JsonWriter *w, void *ctx), void *ctx)
{
	JsonWriter w;
	char *bigger;
	size_t n;

	*line = stack;
	for (;;) {
		jw_begin(&w, *line, cap);
		build(&w, ctx);
		n = jw_end(&w);
		if (n || cap >= max)
			break;
		cap = *line == stack ? (size_t)1 << 20 : cap * 4;
		if (!(bigger = malloc(cap)))
			break;
		if (*line != stack)
			free(*line);
		*line = bigger;
	}
	return n;
}

void eve_write_built(Outputs *o, const char *event_type, void (*build)(JsonWriter *w, void *ctx),
		     void *ctx)
{
	char stack[16384], *line;
	size_t n = eve_build(stack, sizeof(stack), EVE_LINE_MAX, &line, build, ctx);

	eve_write_line(o, event_type, line, n);
	if (line != stack)
		free(line);
}

void eve_write_built_to(Outputs *o, uint32_t outs, void (*build)(JsonWriter *w, void *ctx),
			void *ctx)
{
	char stack[16384], *line;
	size_t n;

	if (!o || !outs)
		return;
	n = eve_build(stack, sizeof(stack), EVE_LINE_MAX, &line, build, ctx);
	if (!n)
		__atomic_fetch_add(&o->eve_unfit, 1, __ATOMIC_RELAXED);
	else
		eve_put(o, outs, line, n);
	if (line != stack)
		free(line);
}

void eve_each_option_group(Outputs *o, const char *type,
			   int (*same)(const EveTypeOptions *a, const EveTypeOptions *b),
			   void (*fn)(Outputs *o, uint32_t outs, const EveTypeOptions *opts,
				      void *ctx),
			   void *ctx)
{
	uint32_t want, done = 0;

	if (!outputs_eve_enabled(o, type) || !(want = eve_route_type(o, type)))
		return;
	for (unsigned i = 0; i < o->neve; i++) {
		const EveTypeOptions *oi = &o->cfg.eve[i].opts;
		uint32_t group = 0;

		if (!(want & (1u << i)) || (done & (1u << i)))
			continue;
		/* the outputs with the same options take the same bytes: built
		 * once (the usual case, one output, costs one build) */
		for (unsigned j = i; j < o->neve; j++)
			if ((want & (1u << j)) && !(done & (1u << j)) &&
			    (j == i || same(oi, &o->cfg.eve[j].opts)))
				group |= 1u << j;
		done |= group;
		fn(o, group, oi, ctx);
	}
}

const EveTypeOptions *outputs_type_options(const Outputs *o, const char *type)
{
	static const EveTypeOptions none;
	uint32_t want;

	if (!outputs_eve_enabled(o, type) || !(want = eve_route_type(o, type)))
		return o && o->neve ? &o->cfg.eve[0].opts : &none;
	for (unsigned i = 0; i < o->neve; i++)
		if (want & (1u << i))
			return &o->cfg.eve[i].opts;
	return &o->cfg.eve[0].opts;
}

/* A record held as a jansson tree: the tests' (every record in src/ is
 * written with the JSON writer). Formatted by eve_json_dump() (jansson's
 * bytes; a string that is not UTF-8 in Suricata's \\xNN form), jansson
 * itself only for a tree nested deeper than the dumper goes; then the path
 * every record takes. */
void eve_write(Outputs *o, json_t *obj)
{
	const char *et;
	char line[8192], *heap = NULL, *s = NULL;
	size_t n, cap = sizeof(line);

	if (!obj)
		return;
	if (!o || !o->neve) {
		json_decref(obj);
		return;
	}
	et = json_string_value(json_object_get(obj, "event_type"));
	n = eve_json_dump(obj, line, sizeof(line));
	while (n == EVE_JSON_NOFIT && cap < (64u << 20)) {
		char *p = realloc(heap, cap *= 8);

		if (!p)
			break;
		heap = p;
		n = eve_json_dump(obj, heap, cap);
	}
	if (n == EVE_JSON_NOFIT && (s = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER)))
		n = strlen(s);
	if (n && n != EVE_JSON_NOFIT)
		eve_write_line(o, et, s ? s : heap ? heap : line, n);
	free(s);
	free(heap);
	json_decref(obj);
}

void outputs_set_pcap_filename(Outputs *o, const char *(*fn)(void *), void *arg)
{
	if (!o)
		return;
	o->pcap_name_arg = arg;
	o->pcap_name = fn;
}

void fast_write_line(Outputs *o, const char *line)
{
	size_t len;

	if (!o || o->fast.fd < 0 || !line)
		return;
	len = strlen(line);
	if (len && line[len - 1] == '\n')
		len--;
	output_file_write_line(&o->fast, line, len);
}
