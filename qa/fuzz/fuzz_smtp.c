/* libFuzzer harness: the SMTP parser, the MIME decoder, the eve smtp and
 * email objects and the keyword buffers' accessors on one flow made from
 * the input.
 *
 * Input: chunks, each a control byte then its bytes. Control bit 7 is the
 * direction (set: to client), bits 0-6 + 1 the chunk length, so one input
 * covers segmentation, both directions and their interleaving (as
 * fuzz_tls.c). The configuration turns every MIME option on, with several
 * URL schemes and a small header-value-depth. Seeds: qa/fuzz/smtp-seeds.py
 * writes suricata-verify's SMTP captures in this format.
 *
 * Runs so far: see qa/fuzz/RESULTS.md. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app-layer/smtp-parse.h"
#include "output/smtp-json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void touch(const uint8_t *p, uint32_t len)
{
	if (p && len)
		(void)*(volatile const uint8_t *)&p[len - 1];
}

static void walk(SmtpState *s)
{
	for (uint64_t id = 0; id < smtp_tx_count(s); id++) {
		SmtpTx *tx = smtp_tx_get(s, id);
		const MimeMsg *m;
		const uint8_t *p;
		uint32_t len;
		uint8_t md[16];

		if (!tx)
			continue;
		p = smtp_tx_helo(tx, &len);
		touch(p, len);
		p = smtp_tx_mail_from(tx, &len);
		touch(p, len);
		for (unsigned i = 0; i < smtp_tx_rcpt_count(tx); i++) {
			p = smtp_tx_rcpt(tx, i, &len);
			touch(p, len);
		}
		m = smtp_tx_mime(tx);
		for (unsigned i = 0; i < mime_header_count(m); i++) {
			const MimeHeader *h = mime_header_at(m, i);

			touch(h->value, h->len);
		}
		for (unsigned i = 0; i < mime_url_count(m); i++)
			touch(mime_url_at(m, i)->s, mime_url_at(m, i)->len);
		for (unsigned i = 0; i < mime_attachment_count(m); i++)
			touch(mime_attachment_at(m, i)->s, mime_attachment_at(m, i)->len);
		(void)mime_body_md5(m, md);
		(void)smtp_tx_events(tx);

		json_t *j = json_object();
		json_object_set_new(j, "smtp", smtp_json_object(tx));
		json_t *e = smtp_email_object(tx, 0xffffffffu);
		if (e)
			json_object_set_new(j, "email", e);
		char *txt = json_dumps(j, JSON_COMPACT);
		free(txt);
		json_decref(j);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static SmtpConfig cfg;
	static int init;
	SmtpState *s;
	size_t pos = 0;

	if (!init) {
		smtp_config_defaults(&cfg);
		cfg.mime.body_md5 = 1;
		cfg.mime.header_value_depth = 64;
		cfg.mime.log_url_scheme = 1;
		strcpy(cfg.mime.schemes[1], "https://");
		strcpy(cfg.mime.schemes[2], "mailto:");
		cfg.mime.nschemes = 3;
		cfg.max_tx = 16;
		init = 1;
	}
	s = smtp_state_new(&cfg);
	if (!s)
		return 0;
	while (pos < size) {
		uint8_t ctl = data[pos++];
		int dir = ctl & 0x80 ? 1 : 0;
		size_t n = (size_t)(ctl & 0x7f) + 1;
		uint8_t *chunk;
		uint32_t hl;
		uint8_t *h;

		if (n > size - pos)
			n = size - pos;
		/* a private copy: ASan then flags any read past the chunk */
		chunk = malloc(n ? n : 1);
		if (!chunk)
			break;
		memcpy(chunk, data + pos, n);
		(void)smtp_parse(s, dir, chunk, (uint32_t)n);
		free(chunk);
		pos += n;
		/* the app layer takes the bytes held for TLS now and then */
		if ((ctl & 0x7f) == 0x7f && (h = smtp_take_held(s, dir, &hl))) {
			touch(h, hl);
			free(h);
		}
		/* as the worker frees logged transactions */
		if (ctl == 0x42) {
			for (uint64_t id = 0; id < smtp_tx_count(s); id++) {
				SmtpTx *tx = smtp_tx_get(s, id);

				if (tx)
					*smtp_tx_flags(tx) |= 1;
			}
			smtp_tx_gc(s, 1);
		}
	}
	smtp_eof(s, 0);
	smtp_eof(s, 1);
	walk(s);
	smtp_state_free(s);

	/* the decoders on the raw input */
	{
		uint8_t *out = malloc(size + 8);
		uint8_t carry[4];
		unsigned nc = 0;
		int soft;

		if (out) {
			(void)mime_b64_decode(data, (uint32_t)size, out, carry, &nc);
			(void)mime_qp_decode(data, (uint32_t)size, out, &soft);
			free(out);
		}
	}
	return 0;
}
