/* eve "smtp" records and the smtp/email members of alerts on SMTP
 * transactions, as Suricata 8 writes them:
 *   "smtp":  {helo, mail_from, rcpt_to[]}
 *   "email": {status, from, to[], cc[], attachment[], url[]}, plus with
 *            `extended: yes` (or `custom:`) date, message_id, subject,
 *            x_mailer, received[] and has_{ipv4,ipv6,exe}_url, and with
 *            `md5: [body, subject]` body_md5 / subject_md5.
 * The email object appears once the transaction has a message (DATA or
 * BDAT); Suricata 8 calls it PARSE_DONE whatever the decoder saw. Empty
 * fields are left out (suricata-verify smtp-to-comma).
 * Each attachment is a "fileinfo" record too, after the transaction's smtp
 * record: the smtp and email objects, app_proto "smtp", its fileinfo. */
#include "output/smtp-json.h"
#include "output/output-private.h"
#include "output/json-writer.h"
#include "app-layer/smtp.h"
#include "app-layer/app-layer.h"
#include "app-layer/files.h"
#include "conf/conf.h"
#include "util/digest.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

static void put_bytes(JsonWriter *w, const char *k, const uint8_t *p, uint32_t n)
{
	if (p && n)
		jw_bytes(w, k, p, n);
}

void smtp_json_write(JsonWriter *w, const void *tx)
{
	const uint8_t *p;
	uint32_t n;

	p = smtp_tx_helo(tx, &n);
	put_bytes(w, "helo", p, n);
	p = smtp_tx_mail_from(tx, &n);
	put_bytes(w, "mail_from", p, n);
	if (smtp_tx_rcpt_count(tx)) {
		jw_array(w, "rcpt_to");
		for (unsigned i = 0; i < smtp_tx_rcpt_count(tx); i++) {
			p = smtp_tx_rcpt(tx, i, &n);
			jw_bytes(w, NULL, p, n);
		}
		jw_close(w);
	}
}

static void build_smtp_obj(JsonWriter *w, void *ctx)
{
	smtp_json_write(w, ctx);
}

json_t *smtp_json_object(const void *tx)
{
	return jw_build_tree(build_smtp_obj, (void *)tx);
}

/* To: and Cc: hold address lists: split at the commas outside quotes and
 * angle brackets, each trimmed; no member when none is left. */
static void address_list(JsonWriter *w, const char *key, const uint8_t *v, uint32_t len)
{
	uint32_t start = 0;
	int quote = 0, angle = 0;
	JwMark m = jw_mark(w);

	jw_array(w, key);
	for (uint32_t i = 0; i <= len; i++) {
		if (i < len) {
			if (v[i] == '"' && (i == 0 || v[i - 1] != '\\'))
				quote = !quote;
			else if (!quote && v[i] == '<')
				angle = 1;
			else if (!quote && v[i] == '>')
				angle = 0;
			if (v[i] != ',' || quote || angle)
				continue;
		}
		{
			uint32_t s = start, e = i;

			while (s < e && (v[s] == ' ' || v[s] == '\t' || v[s] == '\r' || v[s] == '\n'))
				s++;
			while (e > s && (v[e - 1] == ' ' || v[e - 1] == '\t' || v[e - 1] == '\r' ||
					 v[e - 1] == '\n'))
				e--;
			if (e > s)
				jw_bytes(w, NULL, v + s, e - s);
		}
		start = i + 1;
	}
	jw_close_nonempty(w, m);
}

static void md5_hex(const uint8_t *p, size_t n, char out[33])
{
	uint8_t md[EVP_MAX_MD_SIZE];
	unsigned int ml = 0;

	out[0] = '\0';
	if (EVP_Digest(p, n, md, &ml, digest_md5(), NULL) != 1 || ml != 16)
		return;
	for (int i = 0; i < 16; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
}

/* header name -> eve key, for the extended fields the schema knows */
static const struct {
	const char *hdr, *key;
	uint32_t bit;
	int list;
} ext_fields[] = {
	{ "date", "date", SMTP_LOG_DATE, 0 },
	{ "message-id", "message_id", SMTP_LOG_MESSAGE_ID, 0 },
	{ "subject", "subject", SMTP_LOG_SUBJECT, 0 },
	{ "x-mailer", "x_mailer", SMTP_LOG_X_MAILER, 0 },
	{ "received", "received", SMTP_LOG_RECEIVED, 1 },
};

int smtp_log_custom_field(const char *name, uint32_t *bits)
{
	for (size_t i = 0; i < sizeof(ext_fields) / sizeof(ext_fields[0]); i++)
		if (strcmp(name, ext_fields[i].hdr) == 0 || strcmp(name, ext_fields[i].key) == 0) {
			*bits |= ext_fields[i].bit;
			return 0;
		}
	/* Suricata's other custom names (reply-to, bcc, x-originating-ip,
	 * relays, ...) have no key in Suricata 8's eve schema: accepted,
	 * not logged */
	return 0;
}

/* The extended fields picked in fields, from the message's headers. */
static void write_ext_fields(JsonWriter *w, const MimeMsg *m, uint32_t fields)
{
	const MimeHeader *h;

	for (size_t i = 0; i < sizeof(ext_fields) / sizeof(ext_fields[0]); i++) {
		if (!(fields & ext_fields[i].bit))
			continue;
		if (ext_fields[i].list) {
			JwMark mk = jw_mark(w);

			jw_array(w, ext_fields[i].key);
			for (unsigned k = 0; k < mime_header_count(m); k++) {
				h = mime_header_at(m, k);
				if (strcmp(h->name, ext_fields[i].hdr) == 0 && h->len)
					jw_bytes(w, NULL, h->value, h->len);
			}
			jw_close_nonempty(w, mk);
		} else if ((h = mime_header(m, ext_fields[i].hdr)) && h->len) {
			jw_bytes(w, ext_fields[i].key, h->value, h->len);
		}
	}
}

static void write_urls(JsonWriter *w, const MimeMsg *m, uint32_t fields)
{
	if (mime_url_count(m)) {
		jw_array(w, "url");
		for (unsigned i = 0; i < mime_url_count(m); i++) {
			const MimeStr *u = mime_url_at(m, i);

			jw_bytes(w, NULL, u->s, u->len);
		}
		jw_close(w);
		if (fields & SMTP_LOG_URL_FLAGS) {
			unsigned uf = mime_url_flags(m);

			jw_bool(w, "has_ipv6_url", uf & MIME_URL_IPV6);
			jw_bool(w, "has_ipv4_url", uf & MIME_URL_IPV4);
			jw_bool(w, "has_exe_url", uf & MIME_URL_EXE);
		}
	}
	if (mime_attachment_count(m)) {
		jw_array(w, "attachment");
		for (unsigned i = 0; i < mime_attachment_count(m); i++) {
			const MimeStr *a = mime_attachment_at(m, i);

			jw_bytes(w, NULL, a->s, a->len);
		}
		jw_close(w);
	}
}

int smtp_email_write(JsonWriter *w, const void *tx, uint32_t fields)
{
	const MimeMsg *m = smtp_tx_mime(tx);
	const MimeHeader *h;

	if (!m)
		return -1;
	jw_object(w, "email");
	jw_ascii(w, "status", "PARSE_DONE", 10);
	if ((h = mime_header(m, "from")) && h->len)
		jw_bytes(w, "from", h->value, h->len);
	if ((h = mime_header(m, "to")))
		address_list(w, "to", h->value, h->len);
	if ((h = mime_header(m, "cc")))
		address_list(w, "cc", h->value, h->len);
	write_ext_fields(w, m, fields);
	if ((fields & SMTP_LOG_MD5_SUBJECT) && (h = mime_header(m, "subject")) && h->len) {
		char hex[33];

		md5_hex(h->value, h->len, hex);
		jw_str_opt(w, "subject_md5", hex);
	}
	if ((fields & SMTP_LOG_MD5_BODY) && mime_body_md5_hex(m))
		jw_str_opt(w, "body_md5", mime_body_md5_hex(m));
	write_urls(w, m, fields);
	jw_close(w);
	return 0;
}

struct email_obj {
	const void *tx;
	uint32_t fields;
	int none;
};

static void build_email_obj(JsonWriter *w, void *ctx)
{
	struct email_obj *c = ctx;

	c->none = smtp_email_write(w, c->tx, c->fields) != 0;
}

json_t *smtp_email_object(const void *tx, uint32_t fields)
{
	struct email_obj c = { tx, fields, 0 };
	json_t *root = jw_build_tree(build_email_obj, &c), *e;

	/* the tree of {"email": {...}}: its one member */
	e = root && !c.none ? json_incref(json_object_get(root, "email")) : NULL;
	json_decref(root);
	return e;
}

/* The parser's events on the transaction not written yet as eve anomaly
 * records, with Suricata's upper-case names (suricata-verify smtp-errors):
 * on the packet that raised them (output_tx_log_events), the rest when the
 * transaction logs. */
static void anomalies(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	uint64_t *done = smtp_tx_events_logged(tx);
	uint64_t ev = smtp_tx_events(tx) & ~*done;

	*done |= ev;

	for (int e = 0; e < SMTP_EV_COUNT && ev; e++) {
		char name[64];
		const char *n;
		size_t i;

		if (!(ev >> e & 1) || !(n = smtp_event_name(e)))
			continue;
		for (i = 0; n[i] && i + 1 < sizeof(name); i++)
			name[i] = (char)(n[i] >= 'a' && n[i] <= 'z' ? n[i] - 32 : n[i]);
		name[i] = '\0';
		output_anomaly_applayer(o, p, f, "smtp", name, "proto_parser", 1,
					app_layer_tx_log_id(f, tx));
	}
}

static void header_write(JsonWriter *w, const char *type, const Packet *p, const Flow *f,
			 const void *tx)
{
	eve_header_write_tx(w, type, p, f, 0);
	/* Suricata 8's header has the packet's source (suricata-verify
	 * smtp-long-command: "wire/pcap") */
	if (p)
		jw_str(w, "pkt_src", output_pkt_src(p));
	jw_int(w, "tx_id", (int64_t)app_layer_tx_log_id(f, tx));
}

static void smtp_members(JsonWriter *w, const void *tx, uint32_t fields)
{
	jw_object(w, "smtp");
	smtp_json_write(w, tx);
	jw_close(w);
	(void)smtp_email_write(w, tx, fields);
}

/* A fileinfo record of an attachment (the file logger, file-log.c, adds
 * the fileinfo object and its timing): the smtp and email objects,
 * app_proto. */
static int smtp_file_record_write(JsonWriter *w, const Outputs *o, const Packet *p,
				  const Flow *f, void *tx, int dir)
{
	(void)dir;   /* attachments go to the server */
	header_write(w, "fileinfo", p, f, tx);
	/* the smtp options of the first output that takes smtp records */
	smtp_members(w, tx, outputs_type_options(o, "smtp")->smtp_fields);
	jw_ascii(w, "app_proto", "smtp", 4);
	return 0;
}

struct smtp_line {
	const Packet *p;
	const Flow *f;
	const void *tx;
	uint32_t fields;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct smtp_line *l = ctx;

	header_write(w, "smtp", l->p, l->f, l->tx);
	smtp_members(w, l->tx, l->fields);
}

/* The record for the outputs outs, which share the smtp options opts. */
static void log_smtp_group(Outputs *o, uint32_t outs, const EveTypeOptions *opts, void *ctx)
{
	struct smtp_line l = *(const struct smtp_line *)ctx;

	l.fields = opts->smtp_fields;
	eve_write_built_to(o, outs, build_record, &l);
}

static int same_smtp_options(const EveTypeOptions *a, const EveTypeOptions *b)
{
	return a->smtp_fields == b->smtp_fields;
}

static void log_smtp_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct smtp_line l = { p, f, tx, 0 };

	if (!o)
		return;
	anomalies(o, p, f, tx);
	/* each eve-log output with its own extended/custom/md5 fields */
	eve_each_option_group(o, "smtp", same_smtp_options, log_smtp_group, &l);
}

/* Alerts on an SMTP transaction carry its smtp and email objects and, as
 * Suricata 8's do, the transaction's files. */
static int alert_smtp_write(JsonWriter *w, const Flow *f, void *tx)
{
	FileContainer *fcs[1] = { files_of_tx(ALPROTO_SMTP, tx, APP_DIR_TOSERVER, 0) };

	(void)f;
	smtp_members(w, tx, 0);
	output_files_write(w, fcs, 1);
	return 0;
}

static void log_smtp_events(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	if (smtp_tx_events(tx) & ~*smtp_tx_events_logged(tx))
		anomalies(o, p, f, tx);
}

const EveTxLogger eve_smtp_logger = {
	.log_tx = log_smtp_tx,
	.alert_write = alert_smtp_write,
	.file_record_write = smtp_file_record_write,
	.log_events = log_smtp_events,
};

/* The items of a list option: a YAML sequence, or one scalar "[a, b]"
 * (as --set writes it). Returns the count, at most max; each item is
 * copied into items[i] (64 bytes). */
static unsigned list_items(const ConfNode *n, char items[][64], unsigned max)
{
	unsigned k = 0;

	if (!n)
		return 0;
	if (n->val) {
		const char *s = n->val;

		while (*s && k < max) {
			size_t l = 0;

			while (*s == ' ' || *s == '[' || *s == ']' || *s == ',' || *s == '"')
				s++;
			while (s[l] && s[l] != ',' && s[l] != ']' && s[l] != ' ' && s[l] != '"')
				l++;
			if (!l)
				break;
			snprintf(items[k++], 64, "%.*s", (int)(l < 63 ? l : 63), s);
			s += l;
		}
		return k;
	}
	for (const ConfNode *c = n->child; c && k < max; c = c->next)
		if (c->val)
			snprintf(items[k++], 64, "%s", c->val);
	return k;
}

/* `- smtp:` options: extended (yes: every field above), custom (a list
 * of header names), md5 ([body, subject]). As Suricata's, they never stop
 * the start: extended that is not a true value is no, an md5 name other
 * than body or subject is skipped with a warning (err stays unused). */
int eve_smtp_config_load(uint32_t *fields, const char *prefix, char *err, size_t errlen)
{
	char key[512];
	char items[32][64];
	unsigned k;
	int b = 0;

	(void)err;
	(void)errlen;

	*fields = 0;
	if (!prefix)
		return 0;
	snprintf(key, sizeof(key), "%s.extended", prefix);
	/* Suricata takes anything but a true value as no */
	if (conf_get_bool(key, &b) < 0)
		b = 0;
	if (b)
		*fields |= SMTP_LOG_EXTENDED;
	snprintf(key, sizeof(key), "%s.custom", prefix);
	k = list_items(conf_get_node(key), items, 32);
	if (k && !b)
		*fields &= ~SMTP_LOG_EXTENDED;   /* custom replaces the extended set */
	for (unsigned i = 0; i < k; i++)
		smtp_log_custom_field(items[i], fields);
	snprintf(key, sizeof(key), "%s.md5", prefix);
	k = list_items(conf_get_node(key), items, 32);
	for (unsigned i = 0; i < k; i++) {
		if (strcmp(items[i], "body") == 0) {
			*fields |= SMTP_LOG_MD5_BODY;
		} else if (strcmp(items[i], "subject") == 0) {
			*fields |= SMTP_LOG_MD5_SUBJECT;
		} else {
			/* Suricata skips a name it does not know and starts */
			log_warning("%s: unknown md5 field '%s' ignored (body, subject)", key,
				    items[i]);
		}
	}
	return 0;
}
