/* eve "smtp" and "email" objects (smtp-json.c): the transaction records,
 * the members of alerts on SMTP transactions, and the `- smtp:` options. */
#ifndef OUTPUT_SMTP_JSON_H
#define OUTPUT_SMTP_JSON_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* email fields beyond the defaults (status, from, to, cc, url, attachment) */
#define SMTP_LOG_DATE        0x01u
#define SMTP_LOG_MESSAGE_ID  0x02u
#define SMTP_LOG_SUBJECT     0x04u
#define SMTP_LOG_X_MAILER    0x08u
#define SMTP_LOG_RECEIVED    0x10u
#define SMTP_LOG_URL_FLAGS   0x20u
#define SMTP_LOG_EXTENDED    0x3fu
#define SMTP_LOG_MD5_BODY    0x100u
#define SMTP_LOG_MD5_SUBJECT 0x200u

struct JsonWriter;
/* {helo, mail_from, rcpt_to} of an SMTP transaction (app_layer_tx_get()),
 * into w's open object */
void smtp_json_write(struct JsonWriter *w, const void *tx);
/* its "email" member with fields (SMTP_LOG_*), into w's open object; -1
 * (nothing written) without a message */
int smtp_email_write(struct JsonWriter *w, const void *tx, uint32_t fields);
/* The same as trees, for tests and fuzzers; the caller owns them (email:
 * NULL without a message). */
json_t *smtp_json_object(const void *tx);
json_t *smtp_email_object(const void *tx, uint32_t fields);
/* a custom: name ("subject", "x-mailer", ...) into bits (unknown: ignored) */
int smtp_log_custom_field(const char *name, uint32_t *bits);
/* the `- smtp:` options under prefix (NULL: the defaults); -1 with err */
int eve_smtp_config_load(uint32_t *fields, const char *prefix, char *err, size_t errlen);

#endif
