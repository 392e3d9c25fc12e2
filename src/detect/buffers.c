/* The detection-buffer registry (buffers.h): one entry per buffer, its
 * fields named (buffers.h says what each means). Packet buffers (payload,
 * ipv4.hdr, ...) have no protocol and no getter. Then the protocols' own
 * line (detect_tx_protos) for what transaction inspection decides per
 * protocol rather than per buffer.
 *
 * Suricata ranks http_method and http_stat_code below plain payload
 * content (4): they are short and common. file.data reads the request body
 * on requests and the response body on responses. The xinst lists are the
 * further instances of a buffer under other transforms (detect/transform.h):
 * they take their base buffer's entry (sig_list_base). */
#include "detect/buffers.h"
#include "app-layer/http.h"
#include "app-layer/tls.h"
#include "detect/tls-kw-match.h"
#include "detect/dns-kw-match.h"
#include "detect/smtp-kw.h"
#include "app-layer/smtp.h"
#include "app-layer/ssh.h"
#include "app-layer/ftp.h"
#include "app-layer/dcerpc.h"
#include "app-layer/smb.h"
#include "app-layer/mqtt.h"

#include <stddef.h>

/* What every entry of a protocol shares: its protocol and the getter that
 * reads its buffers from a transaction. */
#define IN_HTTP1 .alproto = ALPROTO_HTTP1, .get = http_buffer_get
#define IN_TLS .alproto = ALPROTO_TLS, .get = tls_buffer_get
#define IN_DNS .alproto = ALPROTO_DNS, .get = dns_buffer_get
#define IN_SMTP .alproto = ALPROTO_SMTP, .get = smtp_buffer_get
#define IN_SSH .alproto = ALPROTO_SSH, .get = ssh_buffer_get
#define IN_FTP .alproto = ALPROTO_FTP, .get = ftp_buffer_get
#define IN_DCERPC .alproto = ALPROTO_DCERPC, .get = dcerpc_buffer_get
#define IN_SMB .alproto = ALPROTO_SMB, .get = smb_buffer_get
#define IN_MQTT .alproto = ALPROTO_MQTT, .get = mqtt_buffer_get
#define IN_SIP .alproto = ALPROTO_SIP, .get = sip_buffer_get
#define IN_MDNS .alproto = ALPROTO_MDNS, .get = mdns_buffer_get
#define IN_LDAP .alproto = ALPROTO_LDAP, .get = ldap_buffer_get
#define IN_KRB5 .alproto = ALPROTO_KRB5, .get = krb5_buffer_get
#define IN_SNMP .alproto = ALPROTO_SNMP, .get = snmp_buffer_get
#define IN_PGSQL .alproto = ALPROTO_PGSQL, .get = pgsql_buffer_get
#define IN_WEBSOCKET .alproto = ALPROTO_WEBSOCKET, .get = websocket_buffer_get
#define IN_NTP .alproto = ALPROTO_NTP, .get = ntp_buffer_get
#define IN_DNP3 .alproto = ALPROTO_DNP3, .get = dnp3_buffer_get
#define IN_RFB .alproto = ALPROTO_RFB, .get = rfb_buffer_get
#define IN_HTTP2 .alproto = ALPROTO_HTTP2, .get = http2_buffer_get
#define IN_ENIP .alproto = ALPROTO_ENIP, .get = enip_buffer_get
#define IN_IKE .alproto = ALPROTO_IKE, .get = ike_buffer_get
#define IN_QUIC .alproto = ALPROTO_QUIC, .get = quic_buffer_get

const DetectBuffer detect_buffers[BUF_MAX] = {
	[BUF_PAYLOAD] = { .name = "payload", .prio = 3, .dir = BDIR_BOTH },
	[BUF_HTTP_URI] = { .name = "http_uri", IN_HTTP1, .prio = 2, .dir = BDIR_TS, .side = DBUF_TS,
		.progress = HTTP_PROGRESS_LINE, .pbuf = { HTTP_BUF_URI, HTTP_BUF_URI } },
	[BUF_HTTP_RAW_URI] = { .name = "http_raw_uri", IN_HTTP1, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .progress = HTTP_PROGRESS_LINE,
		.pbuf = { HTTP_BUF_RAW_URI, HTTP_BUF_RAW_URI } },
	[BUF_HTTP_METHOD] = { .name = "http_method", IN_HTTP1, .prio = 4, .dir = BDIR_TS,
		.side = DBUF_TS, .progress = HTTP_PROGRESS_LINE,
		.pbuf = { HTTP_BUF_METHOD, HTTP_BUF_METHOD } },
	[BUF_HTTP_HEADER] = { .name = "http_header", IN_HTTP1, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .progress = HTTP_PROGRESS_HEADERS,
		.pbuf = { HTTP_BUF_HEADER, HTTP_BUF_HEADER } },
	[BUF_HTTP_RAW_HEADER] = { .name = "http_raw_header", IN_HTTP1, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .progress = HTTP_PROGRESS_HEADERS,
		.pbuf = { HTTP_BUF_RAW_HEADER, HTTP_BUF_RAW_HEADER } },
	[BUF_HTTP_COOKIE] = { .name = "http_cookie", IN_HTTP1, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .progress = HTTP_PROGRESS_HEADERS,
		.pbuf = { HTTP_BUF_COOKIE, HTTP_BUF_COOKIE } },
	[BUF_HTTP_USER_AGENT] = { .name = "http_user_agent", IN_HTTP1, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .progress = HTTP_PROGRESS_HEADERS,
		.pbuf = { HTTP_BUF_USER_AGENT, HTTP_BUF_USER_AGENT } },
	[BUF_HTTP_HOST] = { .name = "http_host", IN_HTTP1, .prio = 2, .dir = BDIR_TS, .side = DBUF_TS,
		.progress = HTTP_PROGRESS_HEADERS, .pbuf = { HTTP_BUF_HOST, HTTP_BUF_HOST } },
	[BUF_HTTP_RAW_HOST] = { .name = "http_raw_host", IN_HTTP1, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .progress = HTTP_PROGRESS_HEADERS,
		.pbuf = { HTTP_BUF_RAW_HOST, HTTP_BUF_RAW_HOST } },
	[BUF_HTTP_CLIENT_BODY] = { .name = "http_client_body", IN_HTTP1, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .progress = HTTP_PROGRESS_COMPLETE,
		.pbuf = { HTTP_BUF_CLIENT_BODY, HTTP_BUF_CLIENT_BODY } },
	[BUF_HTTP_SERVER_BODY] = { .name = "http_server_body", IN_HTTP1, .prio = 2, .dir = BDIR_TC,
		.side = DBUF_TC, .progress = HTTP_PROGRESS_COMPLETE,
		.pbuf = { HTTP_BUF_SERVER_BODY, HTTP_BUF_SERVER_BODY } },
	[BUF_FILE_DATA] = { .name = "file_data", IN_HTTP1, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .progress = HTTP_PROGRESS_COMPLETE,
		.pbuf = { HTTP_BUF_CLIENT_BODY, HTTP_BUF_SERVER_BODY }, .pref_dirs = BDIR_TC },
	[BUF_HTTP_STAT_CODE] = { .name = "http_stat_code", IN_HTTP1, .prio = 4, .dir = BDIR_TC,
		.side = DBUF_TC, .progress = HTTP_PROGRESS_LINE,
		.pbuf = { HTTP_BUF_STAT_CODE, HTTP_BUF_STAT_CODE } },
	[BUF_HTTP_STAT_MSG] = { .name = "http_stat_msg", IN_HTTP1, .prio = 3, .dir = BDIR_TC,
		.side = DBUF_TC, .progress = HTTP_PROGRESS_LINE,
		.pbuf = { HTTP_BUF_STAT_MSG, HTTP_BUF_STAT_MSG } },
	[BUF_HTTP_REQUEST_LINE] = { .name = "http_request_line", IN_HTTP1, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .progress = HTTP_PROGRESS_LINE,
		.pbuf = { HTTP_BUF_REQUEST_LINE, HTTP_BUF_REQUEST_LINE } },
	[BUF_HTTP_RESPONSE_LINE] = { .name = "http_response_line", IN_HTTP1, .prio = 2,
		.dir = BDIR_TC, .side = DBUF_TC, .progress = HTTP_PROGRESS_LINE,
		.pbuf = { HTTP_BUF_RESPONSE_LINE, HTTP_BUF_RESPONSE_LINE } },
	[BUF_HTTP_HEADER_NAMES] = { .name = "http_header_names", IN_HTTP1, .prio = 2,
		.dir = BDIR_BOTH, .side = DBUF_EVAL, .progress = HTTP_PROGRESS_HEADERS,
		.pbuf = { HTTP_BUF_HEADER_NAMES, HTTP_BUF_HEADER_NAMES } },
	[BUF_HTTP_CONTENT_TYPE] = { .name = "http_content_type", IN_HTTP1, .prio = 2,
		.dir = BDIR_BOTH, .side = DBUF_EVAL, .progress = HTTP_PROGRESS_HEADERS,
		.pbuf = { HTTP_BUF_CONTENT_TYPE, HTTP_BUF_CONTENT_TYPE } },
	[BUF_HTTP_CONTENT_LEN] = { .name = "http_content_len", IN_HTTP1, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .progress = HTTP_PROGRESS_HEADERS,
		.pbuf = { HTTP_BUF_CONTENT_LEN, HTTP_BUF_CONTENT_LEN } },
	[BUF_HTTP_ACCEPT] = { .name = "http_accept", IN_HTTP1, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .progress = HTTP_PROGRESS_HEADERS,
		.pbuf = { HTTP_BUF_ACCEPT, HTTP_BUF_ACCEPT } },
	[BUF_HTTP_ACCEPT_ENC] = { .name = "http_accept_enc", IN_HTTP1, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .progress = HTTP_PROGRESS_HEADERS,
		.pbuf = { HTTP_BUF_ACCEPT_ENC, HTTP_BUF_ACCEPT_ENC } },
	[BUF_HTTP_ACCEPT_LANG] = { .name = "http_accept_lang", IN_HTTP1, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .progress = HTTP_PROGRESS_HEADERS,
		.pbuf = { HTTP_BUF_ACCEPT_LANG, HTTP_BUF_ACCEPT_LANG } },
	[BUF_HTTP_CONNECTION] = { .name = "http_connection", IN_HTTP1, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .progress = HTTP_PROGRESS_HEADERS,
		.pbuf = { HTTP_BUF_CONNECTION, HTTP_BUF_CONNECTION } },
	[BUF_HTTP_REFERER] = { .name = "http_referer", IN_HTTP1, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .progress = HTTP_PROGRESS_HEADERS,
		.pbuf = { HTTP_BUF_REFERER, HTTP_BUF_REFERER } },
	[BUF_HTTP_PROTOCOL] = { .name = "http_protocol", IN_HTTP1, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .progress = HTTP_PROGRESS_LINE,
		.pbuf = { HTTP_BUF_PROTOCOL, HTTP_BUF_PROTOCOL } },
	[BUF_HTTP_START] = { .name = "http_start", IN_HTTP1, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .progress = HTTP_PROGRESS_HEADERS,
		.pbuf = { HTTP_BUF_START, HTTP_BUF_START } },
	[BUF_HTTP_LOCATION] = { .name = "http_location", IN_HTTP1, .prio = 2, .dir = BDIR_TC,
		.side = DBUF_TC, .progress = HTTP_PROGRESS_HEADERS,
		.pbuf = { HTTP_BUF_LOCATION, HTTP_BUF_LOCATION } },
	[BUF_HTTP_SERVER] = { .name = "http_server", IN_HTTP1, .prio = 2, .dir = BDIR_TC,
		.side = DBUF_TC, .progress = HTTP_PROGRESS_HEADERS,
		.pbuf = { HTTP_BUF_SERVER, HTTP_BUF_SERVER } },
	[BUF_HTTP_REQUEST_HEADER] = { .name = "http_request_header", IN_HTTP1, .prio = 2,
		.dir = BDIR_TS, .side = DBUF_TS, .progress = HTTP_PROGRESS_HEADERS, .multi = 1,
		.pbuf = { HTTP_BUF_REQUEST_HEADER, HTTP_BUF_REQUEST_HEADER } },
	[BUF_HTTP_RESPONSE_HEADER] = { .name = "http_response_header", IN_HTTP1, .prio = 2,
		.dir = BDIR_TC, .side = DBUF_TC, .progress = HTTP_PROGRESS_HEADERS, .multi = 1,
		.pbuf = { HTTP_BUF_RESPONSE_HEADER, HTTP_BUF_RESPONSE_HEADER } },
	[BUF_TLS_SNI] = { .name = "tls.sni", IN_TLS, .prio = 2, .dir = BDIR_TS, .side = DBUF_TS,
		.progress = TLS_PROGRESS_HELLO, .pbuf = { TLS_BUF_SNI, TLS_BUF_SNI } },
	[BUF_TLS_CERT_SUBJECT] = { .name = "tls.cert_subject", IN_TLS, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .progress = TLS_PROGRESS_CERT,
		.pbuf = { TLS_BUF_CERT_SUBJECT, TLS_BUF_CERT_SUBJECT } },
	[BUF_TLS_CERT_ISSUER] = { .name = "tls.cert_issuer", IN_TLS, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .progress = TLS_PROGRESS_CERT,
		.pbuf = { TLS_BUF_CERT_ISSUER, TLS_BUF_CERT_ISSUER } },
	[BUF_TLS_CERT_SERIAL] = { .name = "tls.cert_serial", IN_TLS, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .progress = TLS_PROGRESS_CERT,
		.pbuf = { TLS_BUF_CERT_SERIAL, TLS_BUF_CERT_SERIAL } },
	[BUF_TLS_CERT_FINGERPRINT] = { .name = "tls.cert_fingerprint", IN_TLS, .prio = 2,
		.dir = BDIR_BOTH, .side = DBUF_EVAL, .progress = TLS_PROGRESS_CERT,
		.pbuf = { TLS_BUF_CERT_FINGERPRINT, TLS_BUF_CERT_FINGERPRINT } },
	[BUF_TLS_CERTS] = { .name = "tls.certs", IN_TLS, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .progress = TLS_PROGRESS_CERT, .multi = 1,
		.pbuf = { TLS_KW_BUF_CERTS, TLS_KW_BUF_CERTS } },
	[BUF_JA3_HASH] = { .name = "ja3.hash", IN_TLS, .prio = 2, .dir = BDIR_TS, .side = DBUF_TS,
		.progress = TLS_PROGRESS_HELLO, .pbuf = { TLS_BUF_JA3_HASH, TLS_BUF_JA3_HASH } },
	[BUF_JA3_STRING] = { .name = "ja3.string", IN_TLS, .prio = 2, .dir = BDIR_TS, .side = DBUF_TS,
		.progress = TLS_PROGRESS_HELLO,
		.pbuf = { TLS_BUF_JA3_STRING, TLS_BUF_JA3_STRING } },
	[BUF_JA3S_HASH] = { .name = "ja3s.hash", IN_TLS, .prio = 2, .dir = BDIR_TC, .side = DBUF_TC,
		.progress = TLS_PROGRESS_HELLO, .pbuf = { TLS_BUF_JA3S_HASH, TLS_BUF_JA3S_HASH } },
	[BUF_JA3S_STRING] = { .name = "ja3s.string", IN_TLS, .prio = 2, .dir = BDIR_TC,
		.side = DBUF_TC, .progress = TLS_PROGRESS_HELLO,
		.pbuf = { TLS_BUF_JA3S_STRING, TLS_BUF_JA3S_STRING } },
	[BUF_JA4_HASH] = { .name = "ja4.hash", IN_TLS, .prio = 2, .dir = BDIR_TS, .side = DBUF_TS,
		.progress = TLS_PROGRESS_HELLO, .pbuf = { TLS_BUF_JA4_HASH, TLS_BUF_JA4_HASH } },
	[BUF_TLS_RANDOM] = { .name = "tls.random", IN_TLS, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .progress = TLS_PROGRESS_HELLO,
		.pbuf = { TLS_BUF_RANDOM, TLS_BUF_RANDOM } },
	[BUF_TLS_RANDOM_TIME] = { .name = "tls.random_time", IN_TLS, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .progress = TLS_PROGRESS_HELLO,
		.pbuf = { TLS_BUF_RANDOM_TIME, TLS_BUF_RANDOM_TIME } },
	[BUF_TLS_RANDOM_BYTES] = { .name = "tls.random_bytes", IN_TLS, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .progress = TLS_PROGRESS_HELLO,
		.pbuf = { TLS_BUF_RANDOM_BYTES, TLS_BUF_RANDOM_BYTES } },
	[BUF_TLS_ALPN] = { .name = "tls.alpn", IN_TLS, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = TLS_PROGRESS_HELLO, .multi = 1,
		.pbuf = { TLS_KW_BUF_ALPN, TLS_KW_BUF_ALPN } },
	[BUF_TLS_SAN] = { .name = "tls.subjectaltname", IN_TLS, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .progress = TLS_PROGRESS_CERT, .multi = 1,
		.pbuf = { TLS_KW_BUF_SAN, TLS_KW_BUF_SAN } },
	[BUF_DNS_QUERY] = { .name = "dns.query", IN_DNS, .prio = 2, .dir = BDIR_TS, .side = DBUF_TS,
		.progress = 1, .multi = 1, .pbuf = { DNS_KW_QUERY, DNS_KW_QUERY } },
	[BUF_DNS_QUERIES_RRNAME] = { .name = "dns.queries.rrname", IN_DNS, .prio = 2,
		.dir = BDIR_BOTH, .side = DBUF_EVAL, .progress = 1, .multi = 1,
		.pbuf = { DNS_KW_QUERIES_RRNAME, DNS_KW_QUERIES_RRNAME } },
	[BUF_DNS_ANSWERS_RRNAME] = { .name = "dns.answers.rrname", IN_DNS, .prio = 2,
		.dir = BDIR_BOTH, .side = DBUF_EVAL, .progress = 1, .multi = 1,
		.pbuf = { DNS_KW_ANSWERS_RRNAME, DNS_KW_ANSWERS_RRNAME } },
	[BUF_DNS_AUTHORITIES_RRNAME] = { .name = "dns.authorities.rrname", IN_DNS, .prio = 2,
		.dir = BDIR_BOTH, .side = DBUF_EVAL, .progress = 1, .multi = 1,
		.pbuf = { DNS_KW_AUTHORITIES_RRNAME, DNS_KW_AUTHORITIES_RRNAME } },
	[BUF_DNS_ADDITIONALS_RRNAME] = { .name = "dns.additionals.rrname", IN_DNS, .prio = 2,
		.dir = BDIR_BOTH, .side = DBUF_EVAL, .progress = 1, .multi = 1,
		.pbuf = { DNS_KW_ADDITIONALS_RRNAME, DNS_KW_ADDITIONALS_RRNAME } },
	[BUF_DNS_RESPONSE_RRNAME] = { .name = "dns.response.rrname", IN_DNS, .prio = 2,
		.dir = BDIR_TC, .side = DBUF_TC, .progress = 1, .multi = 1,
		.pbuf = { DNS_KW_RESPONSE_RRNAME, DNS_KW_RESPONSE_RRNAME } },
	/* the envelope and header buffers are whole at the headers' end (smtp.h);
	 * URLs and the body's md5 at the message's */
	[BUF_SMTP_HELO] = { .name = "smtp.helo", IN_SMTP, .prio = 2, .dir = BDIR_TS, .side = DBUF_TS,
		.pbuf = { SMTP_KW_HELO, SMTP_KW_HELO } },
	[BUF_SMTP_MAIL_FROM] = { .name = "smtp.mail_from", IN_SMTP, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .pbuf = { SMTP_KW_MAIL_FROM, SMTP_KW_MAIL_FROM } },
	[BUF_SMTP_RCPT_TO] = { .name = "smtp.rcpt_to", IN_SMTP, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .multi = 1, .pbuf = { SMTP_KW_RCPT_TO, SMTP_KW_RCPT_TO } },
	[BUF_EMAIL_FROM] = { .name = "email.from", IN_SMTP, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .pbuf = { SMTP_KW_EMAIL_FROM, SMTP_KW_EMAIL_FROM } },
	[BUF_EMAIL_SUBJECT] = { .name = "email.subject", IN_SMTP, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .pbuf = { SMTP_KW_EMAIL_SUBJECT, SMTP_KW_EMAIL_SUBJECT } },
	[BUF_EMAIL_TO] = { .name = "email.to", IN_SMTP, .prio = 2, .dir = BDIR_TS, .side = DBUF_TS,
		.pbuf = { SMTP_KW_EMAIL_TO, SMTP_KW_EMAIL_TO } },
	[BUF_EMAIL_CC] = { .name = "email.cc", IN_SMTP, .prio = 2, .dir = BDIR_TS, .side = DBUF_TS,
		.pbuf = { SMTP_KW_EMAIL_CC, SMTP_KW_EMAIL_CC } },
	[BUF_EMAIL_DATE] = { .name = "email.date", IN_SMTP, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .pbuf = { SMTP_KW_EMAIL_DATE, SMTP_KW_EMAIL_DATE } },
	[BUF_EMAIL_MESSAGE_ID] = { .name = "email.message_id", IN_SMTP, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .pbuf = { SMTP_KW_EMAIL_MESSAGE_ID, SMTP_KW_EMAIL_MESSAGE_ID } },
	[BUF_EMAIL_X_MAILER] = { .name = "email.x_mailer", IN_SMTP, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .pbuf = { SMTP_KW_EMAIL_X_MAILER, SMTP_KW_EMAIL_X_MAILER } },
	[BUF_EMAIL_RECEIVED] = { .name = "email.received", IN_SMTP, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .multi = 1,
		.pbuf = { SMTP_KW_EMAIL_RECEIVED, SMTP_KW_EMAIL_RECEIVED } },
	[BUF_EMAIL_URL] = { .name = "email.url", IN_SMTP, .prio = 2, .dir = BDIR_TS, .side = DBUF_TS,
		.progress = SMTP_PROGRESS_DONE, .multi = 1,
		.pbuf = { SMTP_KW_EMAIL_URL, SMTP_KW_EMAIL_URL } },
	[BUF_EMAIL_BODY_MD5] = { .name = "email.body_md5", IN_SMTP, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .progress = SMTP_PROGRESS_DONE,
		.pbuf = { SMTP_KW_EMAIL_BODY_MD5, SMTP_KW_EMAIL_BODY_MD5 } },
	[BUF_SSH_PROTO] = { .name = "ssh.proto", IN_SSH, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .progress = SSH_PROGRESS_BANNER,
		.pbuf = { SSH_KW_BUF_PROTO, SSH_KW_BUF_PROTO } },
	[BUF_SSH_SOFTWARE] = { .name = "ssh.software", IN_SSH, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .progress = SSH_PROGRESS_BANNER,
		.pbuf = { SSH_KW_BUF_SOFTWARE, SSH_KW_BUF_SOFTWARE } },
	[BUF_SSH_HASSH] = { .name = "ssh.hassh", IN_SSH, .prio = 2, .dir = BDIR_TS, .side = DBUF_TS,
		.progress = SSH_PROGRESS_KEX, .pbuf = { SSH_KW_BUF_HASSH, SSH_KW_BUF_HASSH } },
	[BUF_SSH_HASSH_STRING] = { .name = "ssh.hassh.string", IN_SSH, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .progress = SSH_PROGRESS_KEX,
		.pbuf = { SSH_KW_BUF_HASSH_STRING, SSH_KW_BUF_HASSH_STRING } },
	[BUF_SSH_HASSH_SERVER] = { .name = "ssh.hassh.server", IN_SSH, .prio = 2, .dir = BDIR_TC,
		.side = DBUF_TC, .progress = SSH_PROGRESS_KEX,
		.pbuf = { SSH_KW_BUF_HASSH, SSH_KW_BUF_HASSH } },
	[BUF_SSH_HASSH_SERVER_STRING] = { .name = "ssh.hassh.server.string", IN_SSH, .prio = 2,
		.dir = BDIR_TC, .side = DBUF_TC, .progress = SSH_PROGRESS_KEX,
		.pbuf = { SSH_KW_BUF_HASSH_STRING, SSH_KW_BUF_HASSH_STRING } },
	[BUF_FTP_COMMAND] = { .name = "ftp.command", IN_FTP, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .progress = FTP_PROGRESS_DONE,
		.pbuf = { FTP_KW_BUF_COMMAND, FTP_KW_BUF_COMMAND } },
	[BUF_FTP_COMMAND_DATA] = { .name = "ftp.command_data", IN_FTP, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .progress = FTP_PROGRESS_DONE,
		.pbuf = { FTP_KW_BUF_COMMAND_DATA, FTP_KW_BUF_COMMAND_DATA } },
	[BUF_FTP_REPLY] = { .name = "ftp.reply", IN_FTP, .prio = 2, .dir = BDIR_TC, .side = DBUF_TC,
		.progress = FTP_PROGRESS_DONE, .multi = 1,
		.pbuf = { FTP_KW_BUF_REPLY, FTP_KW_BUF_REPLY } },
	[BUF_FTP_COMPLETION_CODE] = { .name = "ftp.completion_code", IN_FTP, .prio = 2,
		.dir = BDIR_TC, .side = DBUF_TC, .progress = FTP_PROGRESS_DONE, .multi = 1,
		.pbuf = { FTP_KW_BUF_COMPLETION_CODE, FTP_KW_BUF_COMPLETION_CODE } },
	/* the request's stub data to the server, the response's to the
	 * client, once the side's last fragment came; a dcerpc rule on an SMB
	 * flow reads the SMB transaction's call (named pipes): via_* */
	[BUF_DCERPC_STUB_DATA] = { .name = "dcerpc.stub_data", IN_DCERPC, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .progress = 1, .pbuf = { APP_DIR_TOSERVER, APP_DIR_TOCLIENT },
		.via_proto = ALPROTO_SMB, .via_list = BUF_SMB_DCERPC_STUB_DATA },
	[BUF_SMB_DCERPC_STUB_DATA] = { .name = "dcerpc.stub_data", .alproto = ALPROTO_SMB,
		.get = smb_dcerpc_buffer_get, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .pbuf = { APP_DIR_TOSERVER, APP_DIR_TOCLIENT } },
	/* smb.share and smb.named_pipe: the tree connect's name, toserver
	 * only as Suricata registers them (one alert per tree connect); the
	 * NTLMSSP names are the request's */
	[BUF_SMB_SHARE] = { .name = "smb.share", IN_SMB, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_TS,
		.pbuf = { SMB_KW_BUF_SHARE, SMB_KW_BUF_SHARE } },
	[BUF_SMB_NAMED_PIPE] = { .name = "smb.named_pipe", IN_SMB, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_TS, .pbuf = { SMB_KW_BUF_NAMED_PIPE, SMB_KW_BUF_NAMED_PIPE } },
	[BUF_SMB_NTLMSSP_USER] = { .name = "smb.ntlmssp_user", IN_SMB, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_TS, .progress = SMB_PROGRESS_DONE,
		.pbuf = { SMB_KW_BUF_NTLMSSP_USER, SMB_KW_BUF_NTLMSSP_USER } },
	[BUF_SMB_NTLMSSP_DOMAIN] = { .name = "smb.ntlmssp_domain", IN_SMB, .prio = 2,
		.dir = BDIR_BOTH, .side = DBUF_TS, .progress = SMB_PROGRESS_DONE,
		.pbuf = { SMB_KW_BUF_NTLMSSP_DOMAIN, SMB_KW_BUF_NTLMSSP_DOMAIN } },
#define MQTTBUF(id_, n_, pb_, multi_) [id_] = { .name = n_, IN_MQTT, .prio = 2, .dir = BDIR_BOTH, \
		.side = DBUF_EVAL, .progress = MQTT_PROGRESS_DONE, .multi = multi_, .pbuf = { pb_, pb_ } }
	MQTTBUF(BUF_MQTT_CONNECT_CLIENTID, "mqtt.connect.clientid", MQTT_KW_BUF_CLIENTID, 0),
	MQTTBUF(BUF_MQTT_CONNECT_USERNAME, "mqtt.connect.username", MQTT_KW_BUF_USERNAME, 0),
	MQTTBUF(BUF_MQTT_CONNECT_PASSWORD, "mqtt.connect.password", MQTT_KW_BUF_PASSWORD, 0),
	MQTTBUF(BUF_MQTT_CONNECT_WILLTOPIC, "mqtt.connect.willtopic", MQTT_KW_BUF_WILLTOPIC, 0),
	MQTTBUF(BUF_MQTT_CONNECT_WILLMESSAGE, "mqtt.connect.willmessage", MQTT_KW_BUF_WILLMESSAGE, 0),
	MQTTBUF(BUF_MQTT_CONNECT_PROTOCOL_STRING, "mqtt.connect.protocol_string",
		MQTT_KW_BUF_PROTOCOL_STRING, 0),
	MQTTBUF(BUF_MQTT_PUBLISH_TOPIC, "mqtt.publish.topic", MQTT_KW_BUF_PUB_TOPIC, 0),
	MQTTBUF(BUF_MQTT_PUBLISH_MESSAGE, "mqtt.publish.message", MQTT_KW_BUF_PUB_MESSAGE, 0),
	MQTTBUF(BUF_MQTT_SUBSCRIBE_TOPIC, "mqtt.subscribe.topic", MQTT_KW_BUF_SUB_TOPIC, 1),
	MQTTBUF(BUF_MQTT_UNSUBSCRIBE_TOPIC, "mqtt.unsubscribe.topic", MQTT_KW_BUF_UNSUB_TOPIC, 1),
	/* file.name, file.magic and file_data of SMB's files: its file
	 * transactions are done when the file is (CLOSE, or the flow's end) */
	[BUF_SMB_FILE_NAME] = { .name = "file.name", .alproto = ALPROTO_SMB,
		.get = file_buffer_get, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = SMB_PROGRESS_DONE, .multi = 1,
		.pbuf = { FILE_BUF_NAME, FILE_BUF_NAME } },
	[BUF_SMB_FILE_MAGIC] = { .name = "file.magic", .alproto = ALPROTO_SMB,
		.get = file_buffer_get, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = SMB_PROGRESS_DONE, .multi = 1,
		.pbuf = { FILE_BUF_MAGIC, FILE_BUF_MAGIC } },
	[BUF_SMB_FILE_DATA] = { .name = "file_data", .alproto = ALPROTO_SMB,
		.get = file_buffer_get, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = SMB_PROGRESS_DONE, .multi = 1,
		.pbuf = { FILE_BUF_HEAD, FILE_BUF_HEAD } },
	[BUF_LDAP_REQUEST_DN] = { .name = "ldap.request.dn", IN_LDAP, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .pbuf = { LDAP_KW_BUF_REQUEST_DN, LDAP_KW_BUF_REQUEST_DN } },
	[BUF_LDAP_RESPONSES_DN] = { .name = "ldap.responses.dn", IN_LDAP, .prio = 2,
		.dir = BDIR_TC, .side = DBUF_TC, .progress = 1, .multi = 1,
		.pbuf = { LDAP_KW_BUF_RESPONSES_DN, LDAP_KW_BUF_RESPONSES_DN } },
	[BUF_LDAP_RESPONSES_MESSAGE] = { .name = "ldap.responses.message", IN_LDAP, .prio = 2,
		.dir = BDIR_TC, .side = DBUF_TC, .progress = 1, .multi = 1,
		.pbuf = { LDAP_KW_BUF_RESPONSES_MSG, LDAP_KW_BUF_RESPONSES_MSG } },
	[BUF_LDAP_REQUEST_ATTRIBUTE_TYPE] = { .name = "ldap.request.attribute_type", IN_LDAP,
		.prio = 2, .dir = BDIR_TS, .side = DBUF_TS, .multi = 1,
		.pbuf = { LDAP_KW_BUF_REQUEST_ATTR, LDAP_KW_BUF_REQUEST_ATTR } },
	[BUF_LDAP_RESPONSES_ATTRIBUTE_TYPE] = { .name = "ldap.responses.attribute_type", IN_LDAP,
		.prio = 2, .dir = BDIR_TC, .side = DBUF_TC, .progress = 1, .multi = 1,
		.pbuf = { LDAP_KW_BUF_RESPONSES_ATTR, LDAP_KW_BUF_RESPONSES_ATTR } },
	/* Suricata reads them on replies and errors (registered to the client) */
	[BUF_KRB5_CNAME] = { .name = "krb5_cname", IN_KRB5, .prio = 2, .dir = BDIR_TC,
		.side = DBUF_TC, .multi = 1, .pbuf = { KRB5_KW_BUF_CNAME, KRB5_KW_BUF_CNAME } },
	[BUF_KRB5_SNAME] = { .name = "krb5_sname", IN_KRB5, .prio = 2, .dir = BDIR_TC,
		.side = DBUF_TC, .multi = 1, .pbuf = { KRB5_KW_BUF_SNAME, KRB5_KW_BUF_SNAME } },
	[BUF_SNMP_COMMUNITY] = { .name = "snmp.community", IN_SNMP, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .pbuf = { SNMP_KW_BUF_COMMUNITY, SNMP_KW_BUF_COMMUNITY } },
	[BUF_SNMP_USM] = { .name = "snmp.usm", IN_SNMP, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .pbuf = { SNMP_KW_BUF_USM, SNMP_KW_BUF_USM } },
	[BUF_SNMP_TRAP_OID] = { .name = "snmp.trap_oid", IN_SNMP, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .pbuf = { SNMP_KW_BUF_TRAP_OID, SNMP_KW_BUF_TRAP_OID } },
	[BUF_SNMP_TRAP_ADDRESS] = { .name = "snmp.trap_address", IN_SNMP, .prio = 2,
		.dir = BDIR_BOTH, .side = DBUF_EVAL,
		.pbuf = { SNMP_KW_BUF_TRAP_ADDRESS, SNMP_KW_BUF_TRAP_ADDRESS } },
	[BUF_PGSQL_QUERY] = { .name = "pgsql.query", IN_PGSQL, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS },
	[BUF_WEBSOCKET_PAYLOAD] = { .name = "websocket.payload", IN_WEBSOCKET, .prio = 2,
		.dir = BDIR_BOTH, .side = DBUF_EVAL },
	[BUF_NTP_REFERENCE_ID] = { .name = "ntp.reference_id", IN_NTP, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .pbuf = { NTP_KW_BUF_REFERENCE_ID, NTP_KW_BUF_REFERENCE_ID } },
	[BUF_DNP3_DATA] = { .name = "dnp3.data", IN_DNP3, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .pbuf = { 0, 0 } },
	[BUF_RFB_NAME] = { .name = "rfb.name", IN_RFB, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_TC,
		.progress = 1, .pbuf = { RFB_KW_BUF_NAME, RFB_KW_BUF_NAME } },
	[BUF_ENIP_PRODUCT_NAME] = { .name = "enip.product_name", IN_ENIP, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_TC,
		.pbuf = { ENIP_KW_BUF_PRODUCT_NAME, ENIP_KW_BUF_PRODUCT_NAME } },
	[BUF_ENIP_SERVICE_NAME] = { .name = "enip.service_name", IN_ENIP, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_TC,
		.pbuf = { ENIP_KW_BUF_SERVICE_NAME, ENIP_KW_BUF_SERVICE_NAME } },
	/* IKE: the SPIs of their own side's messages, the initiator's vendor
	 * ids, a message's key exchange and nonce data */
	[BUF_IKE_INIT_SPI] = { .name = "ike.init_spi", IN_IKE, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .pbuf = { IKE_KW_BUF_INIT_SPI, IKE_KW_BUF_INIT_SPI } },
	[BUF_IKE_RESP_SPI] = { .name = "ike.resp_spi", IN_IKE, .prio = 2, .dir = BDIR_TC,
		.side = DBUF_TC, .pbuf = { IKE_KW_BUF_RESP_SPI, IKE_KW_BUF_RESP_SPI } },
	[BUF_IKE_VENDOR] = { .name = "ike.vendor", IN_IKE, .prio = 2, .dir = BDIR_TS,
		.side = DBUF_TS, .multi = 1, .pbuf = { IKE_KW_BUF_VENDOR, IKE_KW_BUF_VENDOR } },
	[BUF_IKE_KE] = { .name = "ike.key_exchange_payload", IN_IKE, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .pbuf = { IKE_KW_BUF_KE, IKE_KW_BUF_KE } },
	[BUF_IKE_NONCE] = { .name = "ike.nonce_payload", IN_IKE, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .pbuf = { IKE_KW_BUF_NONCE, IKE_KW_BUF_NONCE } },
	[BUF_QUIC_VERSION] = { .name = "quic.version", IN_QUIC, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .pbuf = { QUIC_KW_BUF_VERSION, QUIC_KW_BUF_VERSION } },
	[BUF_QUIC_SNI] = { .name = "quic.sni", IN_QUIC, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .pbuf = { QUIC_KW_BUF_SNI, QUIC_KW_BUF_SNI } },
	[BUF_QUIC_UA] = { .name = "quic.ua", IN_QUIC, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .pbuf = { QUIC_KW_BUF_UA, QUIC_KW_BUF_UA } },
	[BUF_QUIC_CYU_HASH] = { .name = "quic.cyu.hash", IN_QUIC, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .pbuf = { QUIC_KW_BUF_CYU_HASH, QUIC_KW_BUF_CYU_HASH } },
	[BUF_QUIC_CYU_STRING] = { .name = "quic.cyu.string", IN_QUIC, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .pbuf = { QUIC_KW_BUF_CYU_STRING, QUIC_KW_BUF_CYU_STRING } },
	[BUF_QUIC_JA3_HASH] = { .name = "ja3.hash", IN_QUIC, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .pbuf = { QUIC_KW_BUF_JA3_HASH, QUIC_KW_BUF_JA3_HASH } },
	[BUF_QUIC_JA3_STRING] = { .name = "ja3.string", IN_QUIC, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .pbuf = { QUIC_KW_BUF_JA3_STRING, QUIC_KW_BUF_JA3_STRING } },
	[BUF_QUIC_JA3S_HASH] = { .name = "ja3s.hash", IN_QUIC, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .pbuf = { QUIC_KW_BUF_JA3S_HASH, QUIC_KW_BUF_JA3S_HASH } },
	[BUF_QUIC_JA3S_STRING] = { .name = "ja3s.string", IN_QUIC, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .pbuf = { QUIC_KW_BUF_JA3S_STRING, QUIC_KW_BUF_JA3S_STRING } },
	[BUF_QUIC_JA4_HASH] = { .name = "ja4.hash", IN_QUIC, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .pbuf = { QUIC_KW_BUF_JA4_HASH, QUIC_KW_BUF_JA4_HASH } },
	/* HTTP's files from the body on (Suricata registers them at the
	 * body's progress): each is inspected once final (tx-inspect.c) */
	[BUF_FILE_NAME] = { .name = "file.name", .alproto = ALPROTO_HTTP1, .get = file_buffer_get,
		.prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL, .progress = HTTP_PROGRESS_BODY,
		.multi = 1, .pbuf = { FILE_BUF_NAME, FILE_BUF_NAME } },
	[BUF_FILE_MAGIC] = { .name = "file.magic", .alproto = ALPROTO_HTTP1,
		.get = file_buffer_get, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = HTTP_PROGRESS_BODY, .multi = 1,
		.pbuf = { FILE_BUF_MAGIC, FILE_BUF_MAGIC } },
	/* SMTP's files are the message's attachments (toserver), whole once
	 * the message is; ftp-data's the transfer, on the side that carried
	 * it, inspected once it closed (a file rule waits for its files to be
	 * final: tx-inspect.c), as Suricata's in-progress registration */
	[BUF_FILE_DATA_SMTP] = { .name = "file_data", .alproto = ALPROTO_SMTP,
		.get = file_buffer_get, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_TS,
		.progress = SMTP_PROGRESS_DONE, .multi = 1,
		.pbuf = { FILE_BUF_DATA, FILE_BUF_DATA } },
	[BUF_FILE_NAME_SMTP] = { .name = "file.name", .alproto = ALPROTO_SMTP,
		.get = file_buffer_get, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_TS,
		.progress = SMTP_PROGRESS_DONE, .multi = 1,
		.pbuf = { FILE_BUF_NAME, FILE_BUF_NAME } },
	[BUF_FILE_MAGIC_SMTP] = { .name = "file.magic", .alproto = ALPROTO_SMTP,
		.get = file_buffer_get, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_TS,
		.progress = SMTP_PROGRESS_DONE, .multi = 1,
		.pbuf = { FILE_BUF_MAGIC, FILE_BUF_MAGIC } },
	[BUF_FILE_DATA_FTPDATA] = { .name = "file_data", .alproto = ALPROTO_FTPDATA,
		.get = file_buffer_get, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 0, .multi = 1, .pbuf = { FILE_BUF_DATA, FILE_BUF_DATA } },
	[BUF_FILE_NAME_FTPDATA] = { .name = "file.name", .alproto = ALPROTO_FTPDATA,
		.get = file_buffer_get, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 0, .multi = 1, .pbuf = { FILE_BUF_NAME, FILE_BUF_NAME } },
	[BUF_FILE_MAGIC_FTPDATA] = { .name = "file.magic", .alproto = ALPROTO_FTPDATA,
		.get = file_buffer_get, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 0, .multi = 1, .pbuf = { FILE_BUF_MAGIC, FILE_BUF_MAGIC } },
	/* NFS's: WRITEs' files to the server, READ replies' to the client */
	[BUF_FILE_DATA_NFS] = { .name = "file_data", .alproto = ALPROTO_NFS,
		.get = file_buffer_get, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .multi = 1, .pbuf = { FILE_BUF_DATA, FILE_BUF_DATA } },
	[BUF_FILE_NAME_NFS] = { .name = "file.name", .alproto = ALPROTO_NFS,
		.get = file_buffer_get, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .multi = 1, .pbuf = { FILE_BUF_NAME, FILE_BUF_NAME } },
	[BUF_FILE_MAGIC_NFS] = { .name = "file.magic", .alproto = ALPROTO_NFS,
		.get = file_buffer_get, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .multi = 1, .pbuf = { FILE_BUF_MAGIC, FILE_BUF_MAGIC } },
	/* further instances under other transforms: sig_list_base's entry */
	[BUF_HTTP_XINST0] = { .name = "http_xinst0", .prio = 2, .dir = BDIR_BOTH },
	[BUF_HTTP_XINST1] = { .name = "http_xinst1", .prio = 2, .dir = BDIR_BOTH },
	[BUF_HTTP_XINST2] = { .name = "http_xinst2", .prio = 2, .dir = BDIR_BOTH },
	[BUF_HTTP_XINST3] = { .name = "http_xinst3", .prio = 2, .dir = BDIR_BOTH },
	/* packet header buffers */
	[BUF_IPV4_HDR] = { .name = "ipv4.hdr", .prio = 3, .dir = BDIR_BOTH },
	[BUF_IPV6_HDR] = { .name = "ipv6.hdr", .prio = 3, .dir = BDIR_BOTH },
	[BUF_TCP_HDR] = { .name = "tcp.hdr", .prio = 3, .dir = BDIR_BOTH },
	[BUF_UDP_HDR] = { .name = "udp.hdr", .prio = 3, .dir = BDIR_BOTH },
	[BUF_ICMPV4_HDR] = { .name = "icmpv4.hdr", .prio = 3, .dir = BDIR_BOTH },
	[BUF_ICMPV6_HDR] = { .name = "icmpv6.hdr", .prio = 3, .dir = BDIR_BOTH },
	[BUF_IP_SRC] = { .name = "ip.src", .prio = 3, .dir = BDIR_BOTH },
	[BUF_IP_DST] = { .name = "ip.dst", .prio = 3, .dir = BDIR_BOTH },
	[BUF_ETHER_HDR] = { .name = "ether.hdr", .prio = 3, .dir = BDIR_BOTH },
	/* inspected by detect/frame-kw.c on the flow's frames, not on a tx */
	[BUF_FRAME] = { .name = "frame", .prio = 3, .dir = BDIR_BOTH },
	/* mDNS: a message a transaction, of the side it went, a request or a
	 * response by its QR bit: every buffer is read on either side */
	[BUF_MDNS_QUERIES_RRNAME] = { .name = "mdns.queries.rrname", IN_MDNS, .prio = 2,
		.dir = BDIR_BOTH, .side = DBUF_EVAL, .progress = 1, .multi = 1,
		.pbuf = { MDNS_KW_QUERIES, MDNS_KW_QUERIES } },
	[BUF_MDNS_ANSWERS_RRNAME] = { .name = "mdns.answers.rrname", IN_MDNS, .prio = 2,
		.dir = BDIR_BOTH, .side = DBUF_EVAL, .progress = 1, .multi = 1,
		.pbuf = { MDNS_KW_ANSWERS, MDNS_KW_ANSWERS } },
	[BUF_MDNS_AUTHORITIES_RRNAME] = { .name = "mdns.authorities.rrname", IN_MDNS, .prio = 2,
		.dir = BDIR_BOTH, .side = DBUF_EVAL, .progress = 1, .multi = 1,
		.pbuf = { MDNS_KW_AUTHORITIES, MDNS_KW_AUTHORITIES } },
	[BUF_MDNS_ADDITIONALS_RRNAME] = { .name = "mdns.additionals.rrname", IN_MDNS, .prio = 2,
		.dir = BDIR_BOTH, .side = DBUF_EVAL, .progress = 1, .multi = 1,
		.pbuf = { MDNS_KW_ADDITIONALS, MDNS_KW_ADDITIONALS } },
	[BUF_MDNS_RESPONSE_RRNAME] = { .name = "mdns.response.rrname", IN_MDNS, .prio = 2,
		.dir = BDIR_BOTH, .side = DBUF_EVAL, .progress = 1, .multi = 1,
		.pbuf = { MDNS_KW_RESPONSE, MDNS_KW_RESPONSE } },
	/* SIP: each message its own one-way transaction, complete on arrival */
	[BUF_SIP_METHOD] = { .name = "sip.method", IN_SIP, .prio = 2, .dir = BDIR_TS, .side = DBUF_TS,
		.progress = 1, .pbuf = { SIP_KW_METHOD, SIP_KW_METHOD } },
	[BUF_SIP_URI] = { .name = "sip.uri", IN_SIP, .prio = 2, .dir = BDIR_TS, .side = DBUF_TS,
		.progress = 1, .pbuf = { SIP_KW_URI, SIP_KW_URI } },
	[BUF_SIP_REQUEST_LINE] = { .name = "sip.request_line", IN_SIP, .prio = 2, .dir = BDIR_TS, .side = DBUF_TS,
		.progress = 1, .pbuf = { SIP_KW_REQUEST_LINE, SIP_KW_REQUEST_LINE } },
	[BUF_SIP_STAT_CODE] = { .name = "sip.stat_code", IN_SIP, .prio = 2, .dir = BDIR_TC, .side = DBUF_TC,
		.progress = 1, .pbuf = { SIP_KW_STAT_CODE, SIP_KW_STAT_CODE } },
	[BUF_SIP_STAT_MSG] = { .name = "sip.stat_msg", IN_SIP, .prio = 2, .dir = BDIR_TC, .side = DBUF_TC,
		.progress = 1, .pbuf = { SIP_KW_STAT_MSG, SIP_KW_STAT_MSG } },
	[BUF_SIP_RESPONSE_LINE] = { .name = "sip.response_line", IN_SIP, .prio = 2, .dir = BDIR_TC, .side = DBUF_TC,
		.progress = 1, .pbuf = { SIP_KW_RESPONSE_LINE, SIP_KW_RESPONSE_LINE } },
	[BUF_SIP_PROTOCOL] = { .name = "sip.protocol", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .pbuf = { SIP_KW_PROTOCOL, SIP_KW_PROTOCOL } },
	[BUF_SIP_FROM] = { .name = "sip.from", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .multi = 1, .pbuf = { SIP_KW_FROM, SIP_KW_FROM } },
	[BUF_SIP_TO] = { .name = "sip.to", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .multi = 1, .pbuf = { SIP_KW_TO, SIP_KW_TO } },
	[BUF_SIP_VIA] = { .name = "sip.via", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .multi = 1, .pbuf = { SIP_KW_VIA, SIP_KW_VIA } },
	[BUF_SIP_USER_AGENT] = { .name = "sip.user_agent", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .multi = 1, .pbuf = { SIP_KW_USER_AGENT, SIP_KW_USER_AGENT } },
	[BUF_SIP_CONTENT_TYPE] = { .name = "sip.content_type", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .multi = 1, .pbuf = { SIP_KW_CONTENT_TYPE, SIP_KW_CONTENT_TYPE } },
	[BUF_SIP_CONTENT_LENGTH] = { .name = "sip.content_length", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .multi = 1, .pbuf = { SIP_KW_CONTENT_LENGTH, SIP_KW_CONTENT_LENGTH } },
	[BUF_SDP_ORIGIN] = { .name = "sdp.origin", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .pbuf = { SDP_KW_ORIGIN, SDP_KW_ORIGIN } },
	[BUF_SDP_SESSION_NAME] = { .name = "sdp.session_name", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .pbuf = { SDP_KW_SESSION_NAME, SDP_KW_SESSION_NAME } },
	[BUF_SDP_SESSION_INFO] = { .name = "sdp.session_info", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .pbuf = { SDP_KW_SESSION_INFO, SDP_KW_SESSION_INFO } },
	[BUF_SDP_URI] = { .name = "sdp.uri", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .pbuf = { SDP_KW_URI, SDP_KW_URI } },
	[BUF_SDP_EMAIL] = { .name = "sdp.email", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .pbuf = { SDP_KW_EMAIL, SDP_KW_EMAIL } },
	[BUF_SDP_PHONE_NUMBER] = { .name = "sdp.phone_number", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .pbuf = { SDP_KW_PHONE_NUMBER, SDP_KW_PHONE_NUMBER } },
	[BUF_SDP_CONNECTION_DATA] = { .name = "sdp.connection_data", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .pbuf = { SDP_KW_CONNECTION_DATA, SDP_KW_CONNECTION_DATA } },
	[BUF_SDP_BANDWIDTH] = { .name = "sdp.bandwidth", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .multi = 1, .pbuf = { SDP_KW_BANDWIDTH, SDP_KW_BANDWIDTH } },
	[BUF_SDP_TIME] = { .name = "sdp.time", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .multi = 1, .pbuf = { SDP_KW_TIME, SDP_KW_TIME } },
	[BUF_SDP_REPEAT_TIME] = { .name = "sdp.repeat_time", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .multi = 1, .pbuf = { SDP_KW_REPEAT_TIME, SDP_KW_REPEAT_TIME } },
	[BUF_SDP_TIMEZONE] = { .name = "sdp.timezone", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .pbuf = { SDP_KW_TIMEZONE, SDP_KW_TIMEZONE } },
	[BUF_SDP_ENCRYPTION_KEY] = { .name = "sdp.encryption_key", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .pbuf = { SDP_KW_ENCRYPTION_KEY, SDP_KW_ENCRYPTION_KEY } },
	[BUF_SDP_ATTRIBUTE] = { .name = "sdp.attribute", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .multi = 1, .pbuf = { SDP_KW_ATTRIBUTE, SDP_KW_ATTRIBUTE } },
	[BUF_SDP_MEDIA_MEDIA] = { .name = "sdp.media.media", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .multi = 1, .pbuf = { SDP_KW_MEDIA_MEDIA, SDP_KW_MEDIA_MEDIA } },
	[BUF_SDP_MEDIA_SESSION_INFO] = { .name = "sdp.media.session_info", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .multi = 1, .pbuf = { SDP_KW_MEDIA_SESSION_INFO, SDP_KW_MEDIA_SESSION_INFO } },
	[BUF_SDP_MEDIA_CONNECTION_DATA] = { .name = "sdp.media.connection_data", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .multi = 1, .pbuf = { SDP_KW_MEDIA_CONNECTION_DATA, SDP_KW_MEDIA_CONNECTION_DATA } },
	[BUF_SDP_MEDIA_ENCRYPTION_KEY] = { .name = "sdp.media.encryption_key", IN_SIP, .prio = 2, .dir = BDIR_BOTH, .side = DBUF_EVAL,
		.progress = 1, .multi = 1, .pbuf = { SDP_KW_MEDIA_ENCRYPTION_KEY, SDP_KW_MEDIA_ENCRYPTION_KEY } },
	[BUF_HTTP2_HEADER_NAME] = { .name = "http2.header_name", IN_HTTP2, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .progress = HTTP_PROGRESS_HEADERS, .multi = 1,
		.pbuf = { H2_KW_BUF_HEADER_NAME, H2_KW_BUF_HEADER_NAME } },
	[BUF_HTTP2_HEADER] = { .name = "http2.header", IN_HTTP2, .prio = 2, .dir = BDIR_BOTH,
		.side = DBUF_EVAL, .progress = HTTP_PROGRESS_HEADERS, .multi = 1,
		.pbuf = { H2_KW_BUF_HEADER, H2_KW_BUF_HEADER } },

};

/* Per protocol, what a transaction rule of it needs beyond its buffers'
 * entries; a protocol without a line takes the defaults (tx-inspect.c
 * tx_sig_setup): events on the request side, properties to the client,
 * both sides complete for a property. */
const DetectTxProto detect_tx_protos[TX_CLASS_COUNT] = {
	/* a DNS transaction is one-way (APP_TX_ONLY_*): its events are
	 * evaluated on the side it has */
	[ALPROTO_DNS] = { .event_dirs = BDIR_BOTH },
	/* Suricata registers the app-layer-events engine both ways: an HTTP
	 * event rule without a direction matches on each side of the tx
	 * (http.failed_protocol_change, flow:established only, alerts twice:
	 * suricata-verify protocol-change-failed-event); ET's others name
	 * their side */
	[ALPROTO_HTTP1] = { .event_dirs = BDIR_BOTH },
	/* so is a SIP one (a message) */
	[ALPROTO_SIP] = { .event_dirs = BDIR_BOTH },
	[ALPROTO_MDNS] = { .event_dirs = BDIR_BOTH },
	/* Suricata registers FTP's properties both ways (ftp.mode on a PORT
	 * alerts twice): the keyword says which side it matches on */
	[ALPROTO_FTP] = { .prop_dirs = BDIR_BOTH },
	/* a call's (interface, opnum) are the request's, known once it is
	 * done; a rule of both directions runs on each side on its own, as
	 * Suricata's per-direction inspection (a request's stub data matches
	 * when the request is done, answered or not: suricata-verify
	 * dcerpc-dce-stub-data-04) */
	[ALPROTO_DCERPC] = { .prop_dirs = BDIR_BOTH, .sides_apart = 1 },
	/* smb.version alerts once per side of each tx (suricata-verify
	 * smb-version-keyword); SMB carries DCE/RPC calls on named pipes, and
	 * dcerpc rules inspect them as in Suricata (dcerpc-kw.c's dce_view,
	 * BUF_DCERPC_STUB_DATA's via_list) */
	[ALPROTO_SMB] = { .prop_dirs = BDIR_BOTH, .rules_of = ALPROTO_DCERPC },
	/* an MQTT transaction is one-way (APP_TX_ONLY_*, Suricata 8's): its
	 * rules are evaluated on the side it has, once */
	[ALPROTO_MQTT] = { .event_dirs = BDIR_BOTH, .prop_dirs = BDIR_BOTH },
	/* a request's properties match on it, the responses' as they come
	 * (ldap.responses.operation:search_result_entry on the entry's
	 * packet, suricata-verify detect-ldap-operation) */
	[ALPROTO_LDAP] = { .event_dirs = BDIR_BOTH, .prop_dirs = BDIR_BOTH, .sides_apart = 1,
			   .props_early = 1 },
	/* a message is a one-way transaction: its properties and events are
	 * evaluated on the side it has */
	[ALPROTO_KRB5] = { .event_dirs = BDIR_BOTH, .prop_dirs = BDIR_BOTH },
	[ALPROTO_SNMP] = { .event_dirs = BDIR_BOTH, .prop_dirs = BDIR_BOTH },
	/* malformed_response is raised on the response side */
	[ALPROTO_PGSQL] = { .event_dirs = BDIR_BOTH },
	/* a frame is a one-way transaction: evaluated on the side it went */
	[ALPROTO_WEBSOCKET] = { .event_dirs = BDIR_BOTH, .prop_dirs = BDIR_BOTH },
	[ALPROTO_DHCP] = { .event_dirs = BDIR_BOTH, .prop_dirs = BDIR_BOTH },
	[ALPROTO_NTP] = { .event_dirs = BDIR_BOTH, .prop_dirs = BDIR_BOTH },
	[ALPROTO_DNP3] = { .event_dirs = BDIR_BOTH, .prop_dirs = BDIR_BOTH },
	/* "http" rules and their http.* buffers run on HTTP/2 transactions
	 * too, read through http2-kw.c; http2.* properties match either side */
	[ALPROTO_HTTP2] = { .event_dirs = BDIR_BOTH, .prop_dirs = BDIR_BOTH,
			    .rules_of = ALPROTO_HTTP1, .get_of = http2_buffer_get },
	/* a request's header matches on the request, its response's on the
	 * response, each side on its own (enip_command counts both) */
	[ALPROTO_ENIP] = { .event_dirs = BDIR_BOTH, .prop_dirs = BDIR_BOTH, .sides_apart = 1 },
	/* the modbus keyword reads the request, as Suricata registers it
	 * (to server); events come on either side (unsolicited responses) */
	[ALPROTO_MODBUS] = { .event_dirs = BDIR_BOTH, .prop_dirs = BDIR_TS, .sides_apart = 1 },
	[ALPROTO_IKE] = { .event_dirs = BDIR_BOTH, .prop_dirs = BDIR_BOTH },
	/* a call and its reply: properties are the call's, evaluated once, on
	 * the call */
	[ALPROTO_NFS] = { .event_dirs = BDIR_BOTH, .prop_dirs = BDIR_TS, .sides_apart = 1 },
	[ALPROTO_QUIC] = { .event_dirs = BDIR_BOTH, .prop_dirs = BDIR_BOTH },
};
