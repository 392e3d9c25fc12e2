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
#include "output/json-dump.h"
#include "app-layer/smtp.h"
#include "app-layer/app-layer.h"
#include "app-layer/files.h"
#include "conf/conf.h"
#include "util/digest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

static void set_bytes(json_t *o, const char *k, const uint8_t *p, uint32_t n)
{
	if (p && n)
		json_object_set_new(o, k, eve_json_bytes(p, n));
}

json_t *smtp_json_object(const void *tx)
{
	json_t *s = json_object(), *a;
	const uint8_t *p;
	uint32_t n;

	if (!s)
		return NULL;
	p = smtp_tx_helo(tx, &n);
	set_bytes(s, "helo", p, n);
	p = smtp_tx_mail_from(tx, &n);
	set_bytes(s, "mail_from", p, n);
	if (smtp_tx_rcpt_count(tx)) {
		a = json_array();
		for (unsigned i = 0; i < smtp_tx_rcpt_count(tx); i++) {
			p = smtp_tx_rcpt(tx, i, &n);
			json_array_append_new(a, eve_json_bytes(p, n));
		}
		json_object_set_new(s, "rcpt_to", a);
	}
	return s;
}

/* To: and Cc: hold address lists: split at the commas outside quotes and
 * angle brackets, each trimmed. */
static json_t *address_list(const uint8_t *v, uint32_t len)
{
	json_t *a = json_array();
	uint32_t start = 0;
	int quote = 0, angle = 0;

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
				json_array_append_new(a, eve_json_bytes(v + s, e - s));
		}
		start = i + 1;
	}
	if (json_array_size(a) == 0) {
		json_decref(a);
		return NULL;
	}
	return a;
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

json_t *smtp_email_object(const void *tx, uint32_t fields)
{
	const MimeMsg *m = smtp_tx_mime(tx);
	const MimeHeader *h;
	json_t *e, *a;

	if (!m)
		return NULL;
	e = json_object();
	if (!e)
		return NULL;
	json_object_set_new(e, "status", json_string("PARSE_DONE"));
	if ((h = mime_header(m, "from")) && h->len)
		json_object_set_new(e, "from", eve_json_bytes(h->value, h->len));
	if ((h = mime_header(m, "to")) && (a = address_list(h->value, h->len)))
		json_object_set_new(e, "to", a);
	if ((h = mime_header(m, "cc")) && (a = address_list(h->value, h->len)))
		json_object_set_new(e, "cc", a);
	for (size_t i = 0; i < sizeof(ext_fields) / sizeof(ext_fields[0]); i++) {
		if (!(fields & ext_fields[i].bit))
			continue;
		if (ext_fields[i].list) {
			a = json_array();
			for (unsigned k = 0; k < mime_header_count(m); k++) {
				h = mime_header_at(m, k);
				if (strcmp(h->name, ext_fields[i].hdr) == 0 && h->len)
					json_array_append_new(a, eve_json_bytes(h->value, h->len));
			}
			if (json_array_size(a))
				json_object_set_new(e, ext_fields[i].key, a);
			else
				json_decref(a);
		} else if ((h = mime_header(m, ext_fields[i].hdr)) && h->len) {
			json_object_set_new(e, ext_fields[i].key, eve_json_bytes(h->value, h->len));
		}
	}
	if ((fields & SMTP_LOG_MD5_SUBJECT) && (h = mime_header(m, "subject")) && h->len) {
		char hex[33];

		md5_hex(h->value, h->len, hex);
		json_object_set_new(e, "subject_md5", json_string(hex));
	}
	if ((fields & SMTP_LOG_MD5_BODY) && mime_body_md5_hex(m))
		json_object_set_new(e, "body_md5", json_string(mime_body_md5_hex(m)));
	if (mime_url_count(m)) {
		a = json_array();
		for (unsigned i = 0; i < mime_url_count(m); i++) {
			const MimeStr *u = mime_url_at(m, i);

			json_array_append_new(a, eve_json_bytes(u->s, u->len));
		}
		json_object_set_new(e, "url", a);
		if (fields & SMTP_LOG_URL_FLAGS) {
			unsigned uf = mime_url_flags(m);

			json_object_set_new(e, "has_ipv6_url", json_boolean(uf & MIME_URL_IPV6));
			json_object_set_new(e, "has_ipv4_url", json_boolean(uf & MIME_URL_IPV4));
			json_object_set_new(e, "has_exe_url", json_boolean(uf & MIME_URL_EXE));
		}
	}
	if (mime_attachment_count(m)) {
		a = json_array();
		for (unsigned i = 0; i < mime_attachment_count(m); i++) {
			const MimeStr *s = mime_attachment_at(m, i);

			json_array_append_new(a, eve_json_bytes(s->s, s->len));
		}
		json_object_set_new(e, "attachment", a);
	}
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

static json_t *smtp_header(const char *type, const Packet *p, const Flow *f, const void *tx)
{
	const struct timeval *ts = p ? &p->ts : &f->last;
	json_t *rec = eve_header(ts, type, NULL, f);

	if (!rec)
		return NULL;
	if (p && p->pcap_cnt)
		json_object_set_new(rec, "pcap_cnt", json_integer((json_int_t)p->pcap_cnt));
	/* Suricata 8's header has the packet's source (suricata-verify
	 * smtp-long-command: "wire/pcap") */
	if (p)
		json_object_set_new(rec, "pkt_src", json_string(output_pkt_src(p)));
	json_object_set_new(rec, "tx_id", json_integer((json_int_t)app_layer_tx_log_id(f, tx)));
	return rec;
}

/* A fileinfo record of an attachment (the file logger, file-log.c, adds
 * the fileinfo object and its timing): the smtp and email objects,
 * app_proto. */
static json_t *smtp_file_record(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	json_t *rec = smtp_header("fileinfo", p, f, tx), *e;

	if (!rec)
		return NULL;
	json_object_set_new(rec, "smtp", smtp_json_object(tx));
	if ((e = smtp_email_object(tx, o->cfg.eve_smtp_fields)))
		json_object_set_new(rec, "email", e);
	json_object_set_new(rec, "app_proto", json_string("smtp"));
	return rec;
}

static void log_smtp_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	json_t *rec, *e;

	if (!o)
		return;
	anomalies(o, p, f, tx);
	if (outputs_eve_enabled(o, "smtp") && (rec = smtp_header("smtp", p, f, tx))) {
		json_object_set_new(rec, "smtp", smtp_json_object(tx));
		if ((e = smtp_email_object(tx, o->cfg.eve_smtp_fields)))
			json_object_set_new(rec, "email", e);
		eve_write(o, rec);
	}
}

/* Alerts on an SMTP transaction carry its smtp and email objects. */
static json_t *alert_smtp_json(const Flow *f, void *tx)
{
	json_t *rec = json_object(), *e;

	(void)f;
	if (!rec)
		return NULL;
	json_object_set_new(rec, "smtp", smtp_json_object(tx));
	if ((e = smtp_email_object(tx, 0)))
		json_object_set_new(rec, "email", e);
	/* Suricata 8's alerts list the transaction's files */
	{
		FileContainer *fcs[1] = { files_of_tx(ALPROTO_SMTP, tx, APP_DIR_TOSERVER, 0) };
		json_t *files = files_json(fcs, 1);

		if (files)
			json_object_set_new(rec, "files", files);
	}
	return rec;
}

static void log_smtp_events(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	if (smtp_tx_events(tx) & ~*smtp_tx_events_logged(tx))
		anomalies(o, p, f, tx);
}

const EveTxLogger eve_smtp_logger = {
	.log_tx = log_smtp_tx,
	.alert_json = alert_smtp_json,
	.file_record = smtp_file_record,
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
 * of header names), md5 ([body, subject]). */
int eve_smtp_config_load(uint32_t *fields, const char *prefix, char *err, size_t errlen)
{
	char key[512];
	char items[32][64];
	unsigned k;
	int b = 0;

	*fields = 0;
	if (!prefix)
		return 0;
	snprintf(key, sizeof(key), "%s.extended", prefix);
	if (conf_get_bool(key, &b) < 0) {
		snprintf(err, errlen, "%s: not a boolean", key);
		return -1;
	}
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
			snprintf(err, errlen, "%s: unknown md5 field '%s' (body, subject)", key,
				 items[i]);
			return -1;
		}
	}
	return 0;
}
