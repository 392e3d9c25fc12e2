/* Output configuration and files: `outputs:` (fast, eve-log, stats) and the
 * top-level `stats:` section, read once at start; files opened once; lines
 * written whole under one mutex per file. */
#include "output/output-private.h"
#include "output/json-dump.h"
#include "output/tls-json.h"
#include "output/smtp-json.h"
#include "conf/conf.h"
#include "util/log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* eve-log types the engine writes now or will write (alerts, app layer). The
 * rest of Suricata's long list is accepted and ignored with an info line. */
static const char *const eve_known_types[] = {
	"alert", "anomaly", "http", "dns", "tls", "files", "fileinfo", "drop",
	"flow", "netflow", "stats", "smtp", "ssh", "ftp", "frame",
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

static int eve_type_known(const char *t)
{
	for (size_t i = 0; i < sizeof(eve_known_types) / sizeof(eve_known_types[0]); i++)
		if (strcmp(eve_known_types[i], t) == 0)
			return 1;
	return 0;
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
	    get_bool(path, "rule.metadata", &ac->rule_metadata, err, errlen) < 0)
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
	    load_alert_metadata(ac, prefix, err, errlen) < 0)
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
 * else logs none). */
static int load_http_options(OutputConfig *cfg, const char *prefix, char *err,
			     size_t errlen)
{
	char path[400];
	const char *v;

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
static int load_tls_options(OutputConfig *cfg, const char *prefix, char *err, size_t errlen)
{
	char path[400];
	int ext = 0;
	ConfNode *custom;

	cfg->eve_tls_fields = TLS_LOG_BASIC;
	cfg->eve_tls_resumption = 0;
	if (!prefix)
		return 0;
	if (get_bool(prefix, "extended", &ext, err, errlen) < 0 ||
	    get_bool(prefix, "session-resumption", &cfg->eve_tls_resumption, err, errlen) < 0)
		return -1;
	if (ext)
		cfg->eve_tls_fields = TLS_LOG_EXTENDED;
	snprintf(path, sizeof(path), "%s.custom", prefix);
	custom = conf_get_node(path);
	if (custom && custom->child) {
		const char *names[64], *bad = NULL;
		unsigned n = 0;

		for (ConfNode *c = custom->child; c && n < 64; c = c->next)
			if (c->val)
				names[n++] = c->val;
		if (tls_log_custom_fields(names, n, &cfg->eve_tls_fields, &bad) < 0) {
			set_err(err, errlen, "%s: unknown tls field '%s'", path, bad ? bad : "");
			return -1;
		}
	}
	return 0;
}

static int load_eve_types(OutputConfig *cfg, const char *prefix, char *err, size_t errlen)
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
			log_info("eve-log: type '%s' is not supported, ignored", t);
			continue;
		}
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
		if (strcmp(t, "tls") == 0) {
			char tp[320];

			snprintf(tp, sizeof(tp), "%s.%s.tls", path, item->name);
			if (load_tls_options(cfg, item->val ? NULL : tp, err, errlen) < 0)
				return -1;
		}
		if (strcmp(t, "smtp") == 0 && !item->val) {
			char sp2[320];

			snprintf(sp2, sizeof(sp2), "%s.%s.smtp", path, item->name);
			if (eve_smtp_config_load(&cfg->eve_smtp_fields, sp2, err, errlen) < 0)
				return -1;
		}
		/* a bare "- dns" too: its defaults may come from the environment */
		if (strcmp(t, "dns") == 0) {
			char dp[320];

			snprintf(dp, sizeof(dp), "%s.%s.dns", path, item->name);
			if (eve_dns_config_load(&cfg->eve_dns, dp, err, errlen) < 0)
				return -1;
		}
		if (cfg->eve_ntypes == OUTPUT_EVE_TYPES_MAX)
			continue;
		snprintf(cfg->eve_types[cfg->eve_ntypes++], OUTPUT_TYPE_NAME_MAX, "%s", t);
	}
	return 0;
}

static int load_eve(OutputConfig *cfg, const char *prefix, const char *log_dir, char *err,
		    size_t errlen)
{
	char key[256];
	const char *ft;
	OutputFileConfig fc;

	if (load_file(&fc, prefix, log_dir, "eve.json", err, errlen) < 0)
		return -1;
	if (!fc.enabled)
		return 0;
	if (cfg->eve.enabled) {
		log_warning("%s: only one eve-log output is supported, this one is ignored",
			    prefix);
		return 0;
	}
	snprintf(key, sizeof(key), "%s.filetype", prefix);
	ft = conf_get(key);
	if (ft && strcmp(ft, "regular") != 0 && strcmp(ft, "file") != 0) {
		set_err(err, errlen, "%s: filetype '%s' is not supported (use regular)", key, ft);
		return -1;
	}
	cfg->eve = fc;
	if (get_bool(prefix, "ethernet", &cfg->eve_ethernet, err, errlen) < 0 ||
	    get_bool(prefix, "community-id", &cfg->eve_community_id, err, errlen) < 0)
		return -1;
	{
		char key2[512];
		int64_t seed = 0;

		snprintf(key2, sizeof(key2), "%s.community-id-seed", prefix);
		if (conf_get(key2) && (conf_get_int(key2, &seed) < 0 || seed < 0 || seed > 65535)) {
			set_err(err, errlen, "%s: invalid seed '%s' (0..65535)", key2, conf_get(key2));
			return -1;
		}
		cfg->eve_community_seed = (uint16_t)seed;
	}
	return load_eve_types(cfg, prefix, err, errlen);
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
	dns_json_cfg_init(&cfg->eve_dns);
	if (load_stats_section(cfg, err, errlen) < 0 || load_memcaps(cfg, err, errlen) < 0)
		return -1;

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
		if (strcmp(type, "fast") == 0)
			rc = load_file(&cfg->fast, prefix, log_dir, "fast.log", err, errlen);
		else if (strcmp(type, "eve-log") == 0)
			rc = load_eve(cfg, prefix, log_dir, err, errlen);
		else if (strcmp(type, "stats") == 0)
			rc = load_stats_output(cfg, prefix, log_dir, err, errlen);
		else
			log_info("outputs: '%s' is not supported, ignored", type);
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

/* ---- files ---- */

static int file_open(OutputFile *of, const OutputFileConfig *fc, char *err, size_t errlen)
{
	if (!fc->enabled)
		return 0;
	of->fp = fopen(fc->path, fc->append ? "a" : "w");
	if (!of->fp) {
		set_err(err, errlen, "cannot open %s: %s", fc->path, strerror(errno));
		return -1;
	}
	/* glibc ignores the size unless it is given the buffer; without
	 * one the default stays */
	of->buf = malloc(OUTPUT_FILE_BUF);
	if (of->buf)
		setvbuf(of->fp, of->buf, _IOFBF, OUTPUT_FILE_BUF);
	return 0;
}

static void file_close(OutputFile *of)
{
	if (of->fp)
		fclose(of->fp);
	of->fp = NULL;
	free(of->buf);
	of->buf = NULL;
	pthread_mutex_destroy(&of->lock);
}

static int file_reopen(OutputFile *of, const OutputFileConfig *fc)
{
	int rc = 0;

	if (!fc->enabled || !of->fp)
		return 0;
	pthread_mutex_lock(&of->lock);
	fclose(of->fp);
	of->fp = fopen(fc->path, "a");
	if (of->fp && of->buf)
		setvbuf(of->fp, of->buf, _IOFBF, OUTPUT_FILE_BUF);
	if (!of->fp) {
		log_error("output: cannot reopen %s: %s", fc->path, strerror(errno));
		rc = -1;
	}
	pthread_mutex_unlock(&of->lock);
	return rc;
}

int outputs_reopen(Outputs *o)
{
	int rc = 0;

	rc |= file_reopen(&o->eve, &o->cfg.eve);
	rc |= file_reopen(&o->fast, &o->cfg.fast);
	rc |= file_reopen(&o->stats, &o->cfg.stats);
	return rc ? -1 : 0;
}

static void file_flush(OutputFile *of)
{
	if (!of->fp)
		return;
	pthread_mutex_lock(&of->lock);
	if (of->fp)
		fflush(of->fp);
	pthread_mutex_unlock(&of->lock);
}

void outputs_flush(Outputs *o)
{
	file_flush(&o->eve);
	file_flush(&o->fast);
	file_flush(&o->stats);
}

void output_file_write_line(OutputFile *of, const char *line, size_t len)
{
	if (!of->fp)
		return;
	pthread_mutex_lock(&of->lock);
	fwrite(line, 1, len, of->fp);
	fputc('\n', of->fp);
	pthread_mutex_unlock(&of->lock);
}

static int type_listed(const OutputConfig *cfg, const char *type)
{
	for (unsigned i = 0; i < cfg->eve_ntypes; i++)
		if (strcmp(cfg->eve_types[i], type) == 0)
			return 1;
	return 0;
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
	pthread_mutex_init(&o->eve.lock, NULL);
	pthread_mutex_init(&o->fast.lock, NULL);
	pthread_mutex_init(&o->stats.lock, NULL);
	if (file_open(&o->eve, &cfg->eve, err, errlen) < 0 ||
	    file_open(&o->fast, &cfg->fast, err, errlen) < 0 ||
	    file_open(&o->stats, &cfg->stats, err, errlen) < 0) {
		outputs_close(o);
		return NULL;
	}
	eve_set_community_id(cfg->eve_community_id, cfg->eve_community_seed);
	o->eve_flow = o->eve.fp && type_listed(cfg, "flow");
	o->eve_stats = o->eve.fp && type_listed(cfg, "stats") && cfg->stats_enabled;
	return o;
}

void outputs_close(Outputs *o)
{
	if (!o)
		return;
	if (o->eve_unfit)
		log_warning("eve-log: %llu records were larger than their line buffer and "
			    "were not written", (unsigned long long)o->eve_unfit);
	file_close(&o->eve);
	file_close(&o->fast);
	file_close(&o->stats);
	free(o->prev);
	free(o);
}

int outputs_eve_enabled(const Outputs *o, const char *type)
{
	if (!o || !o->eve.fp)
		return 0;
	if (strcmp(type, "stats") == 0)
		return o->eve_stats;
	return type_listed(&o->cfg, type);
}

int outputs_fast_enabled(const Outputs *o)
{
	return o && o->fast.fp;
}

void eve_write_line(Outputs *o, const char *line, size_t len)
{
	if (!o || !o->eve.fp)
		return;
	if (!len) {
		__atomic_fetch_add(&o->eve_unfit, 1, __ATOMIC_RELAXED);
		return;
	}
	output_file_write_line(&o->eve, line, len);
}

void eve_write(Outputs *o, json_t *obj)
{
	char *s;

	if (!obj)
		return;
	if (!o || !o->eve.fp) {
		json_decref(obj);
		return;
	}
	/* Formatted outside the lock: only the write is serialised. Most records
	 * fit a stack buffer, formatted by eve_json_dump() (jansson's bytes,
	 * faster); larger ones are formatted by jansson on the heap as before. */
	{
		char line[8192];
		size_t n = eve_json_dump(obj, line, sizeof(line));

		if (n == 0) {
			/* json_dumps() refuses it too (invalid UTF-8) */
			json_decref(obj);
			return;
		}
		if (n != EVE_JSON_NOFIT) {
			json_decref(obj);
			output_file_write_line(&o->eve, line, n);
			return;
		}
	}
	s = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(obj);
	if (!s)
		return;
	output_file_write_line(&o->eve, s, strlen(s));
	free(s);
}

void fast_write_line(Outputs *o, const char *line)
{
	size_t len;

	if (!o || !o->fast.fp || !line)
		return;
	len = strlen(line);
	if (len && line[len - 1] == '\n')
		len--;
	output_file_write_line(&o->fast, line, len);
}
