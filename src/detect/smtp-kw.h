/* The SMTP and email buffers' ids as buffers.c hands them to
 * smtp_buffer_get() (smtp-kw.c). */
#ifndef DETECT_SMTP_KW_H
#define DETECT_SMTP_KW_H

#include "detect/buffers.h"

enum smtp_kw_buf {
	SMTP_KW_HELO = 0, SMTP_KW_MAIL_FROM, SMTP_KW_RCPT_TO,
	SMTP_KW_EMAIL_FROM, SMTP_KW_EMAIL_SUBJECT, SMTP_KW_EMAIL_TO, SMTP_KW_EMAIL_CC,
	SMTP_KW_EMAIL_DATE, SMTP_KW_EMAIL_MESSAGE_ID, SMTP_KW_EMAIL_X_MAILER,
	SMTP_KW_EMAIL_RECEIVED, SMTP_KW_EMAIL_URL, SMTP_KW_EMAIL_BODY_MD5,
};

int smtp_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		    const uint8_t **data, uint32_t *len);

#endif
