/* SMTP's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.smtp.*, the mime options among them), how it is
 * recognised, and the ops that hand the parser (smtp-parse.c) to the
 * generic app layer.
 *
 * Recognition, as Suricata 8's: the client's EHLO or HELO on any port, its
 * QUIT on the detection ports;
 * the server's 220 banner on the detection ports (a 220 banner alone is
 * FTP's too, so the ports decide). Once the server accepts STARTTLS the
 * parser asks the app layer to go on with TLS (app_layer_request_proto_
 * change): the flow's tls record and tls keywords then work on it, and its
 * eve flow record says app_proto "tls", app_proto_orig "smtp", as
 * Suricata's does. */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/app-mem.h"
#include "app-layer/smtp-parse.h"
#include "app-layer/smtp.h"
#include "app-layer/files.h"
#include "app-layer/frames.h"
#include "conf/conf.h"
#include "util/log.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------- configuration ---------------- */

#define SMTP_KEY "app-layer.protocols.smtp."

/* Read once at start (config_load); read-only afterwards. */
static struct {
	int enabled;                /* 1 yes, 2 detection-only, 0 no */
	uint16_t ports[APP_MAX_DETECT_PORTS];
	unsigned nports;
	SmtpConfig cfg;
} smtp_conf;

static void smtp_ops_config_defaults(AppLayerConfig *cfg)
{
	(void)cfg;
	memset(&smtp_conf, 0, sizeof(smtp_conf));
	smtp_conf.enabled = 1;
	smtp_conf.ports[0] = 25;
	smtp_conf.ports[1] = 587;
	smtp_conf.ports[2] = 465;
	smtp_conf.nports = 3;
	smtp_config_defaults(&smtp_conf.cfg);
}

/* extract-urls-schemes: [http, https, ftp, mailto]: each "name" becomes
 * "name://" ("mailto:" for mailto), as Suricata matches them. */
static int load_schemes(MimeConfig *m)
{
	ConfNode *node = conf_get_node(SMTP_KEY "mime.extract-urls-schemes");
	unsigned n = 0;

	if (!node)
		return 0;
	for (ConfNode *c = node->child; c; c = c->next) {
		const char *v = c->val;

		if (!v || !*v)
			continue;
		if (n == MIME_MAX_SCHEMES || strlen(v) > 10) {
			log_error("app-layer: " SMTP_KEY "mime.extract-urls-schemes: "
				  "\"%s\": at most %d schemes of at most 10 characters", v,
				  MIME_MAX_SCHEMES);
			return -1;
		}
		snprintf(m->schemes[n++], sizeof(m->schemes[0]), "%s%s", v,
			 strcasecmp(v, "mailto") == 0 ? ":" : "://");
	}
	if (n)
		m->nschemes = n;
	return 0;
}

static int smtp_config_load(AppLayerConfig *cfg)
{
	MimeConfig *m = &smtp_conf.cfg.mime;
	const char *v;
	int64_t depth = m->header_value_depth;
	int rc = 0;

	(void)cfg;
	if (app_conf_enabled_ports(SMTP_KEY, &smtp_conf.enabled, smtp_conf.ports, &smtp_conf.nports) < 0)
		rc = -1;
	if (app_conf_bool(SMTP_KEY "raw-extraction", &smtp_conf.cfg.raw_extraction) < 0 ||
	    app_conf_bool(SMTP_KEY "mime.decode-mime", &m->decode_mime) < 0 ||
	    app_conf_bool(SMTP_KEY "mime.decode-base64", &m->decode_base64) < 0 ||
	    app_conf_bool(SMTP_KEY "mime.decode-quoted-printable", &m->decode_qp) < 0 ||
	    app_conf_bool(SMTP_KEY "mime.extract-urls", &m->extract_urls) < 0 ||
	    app_conf_bool(SMTP_KEY "mime.log-url-scheme", &m->log_url_scheme) < 0)
		rc = -1;
	if (app_conf_int_range(SMTP_KEY "mime.header-value-depth", &depth, 1 << 20) < 0)
		rc = -1;
	{
		int64_t cl = smtp_conf.cfg.content_limit;

		if (app_conf_int_range(SMTP_KEY "inspected-tracker.content-limit", &cl, 1 << 30) < 0)
			rc = -1;
		smtp_conf.cfg.content_limit = (uint32_t)cl;
	}
	m->header_value_depth = (uint32_t)depth;
	v = conf_get(SMTP_KEY "mime.body-md5");
	if (v) {
		/* auto: computed, logged when eve's smtp md5 list has body */
		if (strcasecmp(v, "auto") == 0)
			m->body_md5 = 1;
		else if (app_conf_bool(SMTP_KEY "mime.body-md5", &m->body_md5) < 0)
			rc = -1;
	}
	if (load_schemes(m) < 0)
		rc = -1;
	if (smtp_conf.cfg.raw_extraction && m->decode_mime) {
		/* Suricata's rule: one or the other */
		log_warning("app-layer: " SMTP_KEY "raw-extraction and " SMTP_KEY
			    "mime.decode-mime cannot both be on: raw-extraction is off");
		smtp_conf.cfg.raw_extraction = 0;
	}
	return rc;
}

const SmtpConfig *smtp_config(void)
{
	return &smtp_conf.cfg;
}

static AppTxCounters ctr;

static void smtp_register_counters(void)
{
	app_tx_counters_register(&ctr, "smtp");
}

static int smtp_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return smtp_conf.enabled;
}

/* ---------------- detection ---------------- */

static int on_port(const Flow *f)
{
	for (unsigned i = 0; i < smtp_conf.nports; i++)
		if (f->dp == smtp_conf.ports[i] || f->sp == smtp_conf.ports[i])
			return 1;
	return 0;
}

/* "EHLO"/"HELO" on any port, "QUIT" on the detection ports, each with a
 * blank or the line's end after it. QUIT is Suricata 8.0.7's: a client
 * that only says goodbye is SMTP where SMTP is served (suricata-verify
 * smtp-quit); elsewhere it might be FTP's QUIT. */
static int probe_client(const Flow *f, const uint8_t *b, uint32_t len)
{
	static const char *const verbs[] = { "EHLO", "HELO", "QUIT" };
	int nverbs = on_port(f) ? 3 : 2;
	int more = 0;

	for (int v = 0; v < nverbs; v++) {
		uint32_t n = len < 4 ? len : 4;

		if (strncasecmp((const char *)b, verbs[v], n) != 0)
			continue;
		if (len < 5) {
			more = 1;
			continue;
		}
		if (b[4] == ' ' || b[4] == '\r' || b[4] == '\n' || b[4] == '\t')
			return DET_YES;
	}
	return more ? DET_MORE : DET_NO;
}

/* "220" and a blank or '-' (a multi-line banner). */
static int probe_banner(const uint8_t *b, uint32_t len)
{
	static const char pre[] = "220";

	for (uint32_t i = 0; i < len && i < 3; i++)
		if (b[i] != (uint8_t)pre[i])
			return DET_NO;
	if (len < 4)
		return DET_MORE;
	return b[3] == ' ' || b[3] == '-' ? DET_YES : DET_NO;
}

static int smtp_probe(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
		      uint32_t len)
{
	(void)cfg;
	if (dir == APP_DIR_TOSERVER)
		return probe_client(f, buf, len);
	return on_port(f) ? probe_banner(buf, len) : DET_NO;
}

/* ---------------- state ---------------- */

typedef struct SmtpFlow {
	SmtpState *s;
	uint8_t closed[2];
	uint8_t to_tls;             /* the change to TLS was asked */
	uint32_t errors;            /* parser errors counted so far */
} SmtpFlow;

/* The parser's frames (smtp-parse.h) become the flow's (frames.h). */
static int64_t frame_new_op(void *arg, int dir, uint64_t off, int64_t len, unsigned type,
			    uint64_t tx_id)
{
	Flow *f = arg;
	int64_t id = app_frame_new(f, dir, off, len, type);

	if (id > 0 && tx_id != UINT64_MAX)
		app_frame_set_tx(f, dir, id, tx_id);
	return id;
}

static void frame_set_len_op(void *arg, int dir, int64_t id, int64_t len)
{
	app_frame_set_len(arg, dir, id, len);
}

static const SmtpFrameSink frame_sink = { frame_new_op, frame_set_len_op };

static void *smtp_state_new_op(AppLayerThread *at, Flow *f)
{
	SmtpFlow *sf = app_mem_calloc(ALPROTO_SMTP, 1, sizeof(*sf));

	if (sf)
		sf->s = smtp_state_new(&smtp_conf.cfg);
	if (!sf || !sf->s) {
		app_mem_free(ALPROTO_SMTP, sf);
		app_tx_count(at, &ctr, APP_CTR_ALLOC, 1);
		return NULL;
	}
	/* frames only when wanted: without them the parser computes no
	 * offsets at all */
	if (app_frames_on(f))
		smtp_set_frame_sink(sf->s, &frame_sink, f);
	return sf;
}

static void smtp_state_free_op(void *state)
{
	SmtpFlow *sf = state;

	if (!sf)
		return;
	smtp_state_free(sf->s);
	app_mem_free(ALPROTO_SMTP, sf);
}

static int smtp_parse_op(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
			 uint32_t len, int flags)
{
	SmtpFlow *sf = state;
	uint64_t before;
	int r = SMTP_OK;

	if (!sf || dir < 0 || dir > 1)
		return -1;
	if (flags & APP_GAP) {
		/* lines cannot be found again after a gap: the direction stops */
		if (!sf->closed[dir])
			app_tx_count(at, &ctr, APP_CTR_GAP, 1);
		sf->closed[dir] = 1;
		return 0;
	}
	before = smtp_tx_count(sf->s);
	if (!sf->closed[dir] && data && len) {
		if (app_frames_on(f))
			smtp_set_frames_base(sf->s, dir, app_frame_offset(f, dir));
		r = smtp_parse(sf->s, dir, data, len);
	}
	if (flags & APP_EOF) {
		smtp_eof(sf->s, dir);
		sf->closed[dir] = 1;
	}
	app_tx_count(at, &ctr, APP_CTR_TX, smtp_tx_count(sf->s) - before);
	if (smtp_parser_errors(sf->s) > sf->errors) {
		app_tx_count(at, &ctr, APP_CTR_PARSER, smtp_parser_errors(sf->s) - sf->errors);
		sf->errors = smtp_parser_errors(sf->s);
	}
	if (r == SMTP_ERR) {
		/* as Suricata's parser error: the flow is not parsed further
		 * (its transactions still log) */
		sf->closed[0] = sf->closed[1] = 1;
	}
	if (r == SMTP_TO_TLS && !sf->to_tls) {
		sf->to_tls = 1;
		app_layer_request_proto_change(f, ALPROTO_TLS);
	}
	return 0;
}

/* the bytes past the switch to TLS: the TLS parser's first */
static uint8_t *smtp_held_take(void *state, int dir, uint32_t *len)
{
	return smtp_take_held(((SmtpFlow *)state)->s, dir, len);
}

static uint64_t smtp_tx_count_op(const void *state)
{
	return smtp_tx_count(((const SmtpFlow *)state)->s);
}

static void *smtp_tx_get_op(const void *state, uint64_t id)
{
	return smtp_tx_get(((const SmtpFlow *)state)->s, id);
}

static uint64_t smtp_tx_id_op(const void *tx)
{
	return smtp_tx_id(tx);
}

/* Progress per side (smtp.h): Suricata 8.0.7 completes the request side
 * at the message's end and the response side with the server's reply to
 * it, so a toserver rule on the whole message matches on the "." packet
 * while the transaction logs at the reply. */
static int smtp_tx_progress(const void *tx, int dir)
{
	if (dir == APP_DIR_TOSERVER ? smtp_tx_request_done(tx) : smtp_tx_done(tx))
		return SMTP_PROGRESS_DONE;
	return smtp_tx_headers_done(tx) ? SMTP_PROGRESS_HEADERS : 0;
}

static unsigned smtp_tx_flags_op(const void *tx)
{
	return *smtp_tx_flags((SmtpTx *)tx);
}

static void smtp_tx_set_flags(void *tx, unsigned flags)
{
	*smtp_tx_flags(tx) |= flags;
}

static void **smtp_tx_detect_slot_op(void *tx)
{
	return smtp_tx_detect_slot(tx);
}

/* ---------------- files (files-proto.c's SMTP line) ---------------- */

FileContainer *smtp_files_of_tx(void *tx, int dir, int final)
{
	FileContainer *fc = smtp_tx_files(tx, dir);

	/* the flow ended inside the message: what is open was cut short */
	if (fc && final && !smtp_tx_done(tx))
		files_truncate_open(fc);
	return fc;
}

void smtp_files_store(const Flow *f, void *tx, unsigned dirs, int flow_scope, uint32_t sid)
{
	const AppFlowState *fs = f ? f->alstate : NULL;
	SmtpFlow *sf = fs && f->app_proto == ALPROTO_SMTP ? fs->proto : NULL;

	if (dirs & (1u << APP_DIR_TOSERVER))
		smtp_tx_files_store(sf ? sf->s : NULL, tx, flow_scope, sid);
}

static void smtp_tx_gc_op(void *state, unsigned need)
{
	smtp_tx_gc(((SmtpFlow *)state)->s, need);
}

static int smtp_event_lookup(const char *name)
{
	return smtp_event_by_name(name);
}

static int smtp_tx_has_event_op(const void *tx, int id)
{
	return smtp_tx_has_event(tx, id);
}

/* Suricata's SMTP frame types, by number (smtp-parse.h) */
static const char *const smtp_frame_names[] = { "command_line", "data", "response_line", NULL };

const AppProtoOps smtp_proto_ops = {
	.name = "smtp",
	.ipprotos = APP_IPPROTO_TCP,
	.config_defaults = smtp_ops_config_defaults,
	.config_load = smtp_config_load,
	.enabled = smtp_enabled,
	.register_counters = smtp_register_counters,
	.probe = smtp_probe,
	.state_new = smtp_state_new_op,
	.state_free = smtp_state_free_op,
	.parse = smtp_parse_op,
	.tunnel_take = smtp_held_take,
	.tx_count = smtp_tx_count_op,
	.tx_get = smtp_tx_get_op,
	.tx_id = smtp_tx_id_op,
	.tx_log_id = smtp_tx_id_op,
	.tx_progress = smtp_tx_progress,
	.progress_complete = SMTP_PROGRESS_DONE,
	.tx_flags = smtp_tx_flags_op,
	.tx_set_flags = smtp_tx_set_flags,
	.tx_detect_slot = smtp_tx_detect_slot_op,
	.tx_gc = smtp_tx_gc_op,
	.event_lookup = smtp_event_lookup,
	.tx_has_event = smtp_tx_has_event_op,
	.frame_names = smtp_frame_names,
};
