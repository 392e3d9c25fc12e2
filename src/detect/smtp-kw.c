/* SMTP and email keywords (Suricata 8's "SMTP Keywords" and "Email
 * Keywords"): the sticky buffers smtp.helo, smtp.mail_from, smtp.rcpt_to
 * (one per recipient), and the message's email.from, email.subject,
 * email.to, email.cc, email.date, email.message_id, email.x_mailer (each a
 * top-level header's value), email.received and email.url (one per
 * Received header / URL found) and email.body_md5 (hex, with
 * app-layer.protocols.smtp.mime.body-md5 on).
 *
 * Every keyword makes the rule an SMTP rule; the envelope and header
 * buffers are read once the message's header block ended (they are whole
 * then: a rule matches mid-message, as Suricata's does), email.url and
 * email.body_md5 once the message ended (buffers.c), or at the flow's end. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/buffers.h"
#include "detect/smtp-kw.h"
#include "app-layer/smtp.h"

#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

static int kw_smtp_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	return sig_app_sticky(st, kw, ALPROTO_SMTP, 0, "an smtp, tcp or ip");
}

static int header_value(const void *tx, const char *name, const uint8_t **data, uint32_t *len)
{
	const MimeHeader *h = mime_header(smtp_tx_mime(tx), name);

	if (!h || !h->len)
		return -1;
	*data = h->value;
	*len = h->len;
	return 0;
}

/* The idx-th Received header. */
static int received(const void *tx, uint32_t idx, const uint8_t **data, uint32_t *len)
{
	const MimeMsg *m = smtp_tx_mime(tx);

	for (unsigned i = 0, n = 0; i < mime_header_count(m); i++) {
		const MimeHeader *h = mime_header_at(m, i);

		if (strcmp(h->name, "received") != 0)
			continue;
		if (n++ == idx) {
			*data = h->value;
			*len = h->len;
			return 0;
		}
	}
	return -1;
}

/* The header whose value each of SMTP_KW_EMAIL_FROM .. SMTP_KW_EMAIL_X_MAILER
 * is, in the enum's order. */
static const char *const header_of[] = {
	"from", "subject", "to", "cc", "date", "message-id", "x-mailer",
};

/* The SMTP entries of the buffer registry (buffers.c): pbuf is an
 * enum smtp_kw_buf. */
int smtp_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		    const uint8_t **data, uint32_t *len)
{
	enum smtp_kw_buf k = (enum smtp_kw_buf)b->pbuf[side & 1];

	switch (k) {
	case SMTP_KW_HELO:
		*data = smtp_tx_helo(tx, len);
		return *data && *len ? 0 : -1;
	case SMTP_KW_MAIL_FROM:
		*data = smtp_tx_mail_from(tx, len);
		return *data && *len ? 0 : -1;
	case SMTP_KW_RCPT_TO:
		*data = smtp_tx_rcpt(tx, idx, len);
		return *data ? 0 : -1;
	case SMTP_KW_EMAIL_FROM:
	case SMTP_KW_EMAIL_SUBJECT:
	case SMTP_KW_EMAIL_TO:
	case SMTP_KW_EMAIL_CC:
	case SMTP_KW_EMAIL_DATE:
	case SMTP_KW_EMAIL_MESSAGE_ID:
	case SMTP_KW_EMAIL_X_MAILER:
		return idx ? -1 : header_value(tx, header_of[k - SMTP_KW_EMAIL_FROM], data, len);
	case SMTP_KW_EMAIL_RECEIVED:
		return received(tx, idx, data, len);
	case SMTP_KW_EMAIL_URL: {
		const MimeStr *u = mime_url_at(smtp_tx_mime(tx), idx);

		if (!u)
			return -1;
		*data = u->s;
		*len = u->len;
		return 0;
	}
	case SMTP_KW_EMAIL_BODY_MD5: {
		const char *hex = mime_body_md5_hex(smtp_tx_mime(tx));

		if (idx || !hex)
			return -1;
		*data = (const uint8_t *)hex;
		*len = 32;
		return 0;
	}
	}
	return -1;
}

#define SS(n_, b_) { .name = n_, .id = KW_SMTP_STICKY, .setup = kw_smtp_sticky, \
	.flags = STICKY, .buf = b_, .desc = "sticky buffer" }

/* The keywords of this family: keywords.c gathers the tables (one line
 * per family). */
const Keyword smtp_keywords[] = {
	SS("smtp.helo", BUF_SMTP_HELO),
	SS("smtp.mail_from", BUF_SMTP_MAIL_FROM),
	SS("smtp.rcpt_to", BUF_SMTP_RCPT_TO),
	SS("email.from", BUF_EMAIL_FROM),
	SS("email.subject", BUF_EMAIL_SUBJECT),
	SS("email.to", BUF_EMAIL_TO),
	SS("email.cc", BUF_EMAIL_CC),
	SS("email.date", BUF_EMAIL_DATE),
	SS("email.message_id", BUF_EMAIL_MESSAGE_ID),
	SS("email.x_mailer", BUF_EMAIL_X_MAILER),
	SS("email.received", BUF_EMAIL_RECEIVED),
	SS("email.url", BUF_EMAIL_URL),
	SS("email.body_md5", BUF_EMAIL_BODY_MD5),
	{ .name = NULL }
};
