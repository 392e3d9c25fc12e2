/* The detection-buffer registry (buffers.h): one line per buffer.
 * Fields: name, fast-pattern priority, rule direction; then for
 * application-layer buffers: protocol, side, progress needed, multi, the
 * protocol's own buffer id per side, getter. Packet buffers (payload,
 * ipv4.hdr, ...) have ALPROTO_UNKNOWN and no getter.
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

#include <stddef.h>

const DetectBuffer detect_buffers[BUF_MAX] = {
	[BUF_PAYLOAD] = { "payload", 3, 3, 0, 0, 0, 0, { 0, 0 }, NULL },
	[BUF_HTTP_URI] = { "http_uri", 2, 1, ALPROTO_HTTP1, DBUF_TS, HTTP_PROGRESS_LINE, 0,
		{ HTTP_BUF_URI, HTTP_BUF_URI }, http_buffer_get },
	[BUF_HTTP_RAW_URI] = { "http_raw_uri", 2, 1, ALPROTO_HTTP1, DBUF_TS, HTTP_PROGRESS_LINE, 0,
		{ HTTP_BUF_RAW_URI, HTTP_BUF_RAW_URI }, http_buffer_get },
	[BUF_HTTP_METHOD] = { "http_method", 4, 1, ALPROTO_HTTP1, DBUF_TS, HTTP_PROGRESS_LINE, 0,
		{ HTTP_BUF_METHOD, HTTP_BUF_METHOD }, http_buffer_get },
	[BUF_HTTP_HEADER] = { "http_header", 2, 3, ALPROTO_HTTP1, DBUF_EVAL, HTTP_PROGRESS_HEADERS, 0,
		{ HTTP_BUF_HEADER, HTTP_BUF_HEADER }, http_buffer_get },
	[BUF_HTTP_RAW_HEADER] = { "http_raw_header", 2, 3, ALPROTO_HTTP1, DBUF_EVAL, HTTP_PROGRESS_HEADERS, 0,
		{ HTTP_BUF_RAW_HEADER, HTTP_BUF_RAW_HEADER }, http_buffer_get },
	[BUF_HTTP_COOKIE] = { "http_cookie", 2, 3, ALPROTO_HTTP1, DBUF_EVAL, HTTP_PROGRESS_HEADERS, 0,
		{ HTTP_BUF_COOKIE, HTTP_BUF_COOKIE }, http_buffer_get },
	[BUF_HTTP_USER_AGENT] = { "http_user_agent", 2, 1, ALPROTO_HTTP1, DBUF_TS, HTTP_PROGRESS_HEADERS, 0,
		{ HTTP_BUF_USER_AGENT, HTTP_BUF_USER_AGENT }, http_buffer_get },
	[BUF_HTTP_HOST] = { "http_host", 2, 1, ALPROTO_HTTP1, DBUF_TS, HTTP_PROGRESS_HEADERS, 0,
		{ HTTP_BUF_HOST, HTTP_BUF_HOST }, http_buffer_get },
	[BUF_HTTP_RAW_HOST] = { "http_raw_host", 2, 1, ALPROTO_HTTP1, DBUF_TS, HTTP_PROGRESS_HEADERS, 0,
		{ HTTP_BUF_RAW_HOST, HTTP_BUF_RAW_HOST }, http_buffer_get },
	[BUF_HTTP_CLIENT_BODY] = { "http_client_body", 2, 1, ALPROTO_HTTP1, DBUF_TS, HTTP_PROGRESS_COMPLETE, 0,
		{ HTTP_BUF_CLIENT_BODY, HTTP_BUF_CLIENT_BODY }, http_buffer_get },
	[BUF_HTTP_SERVER_BODY] = { "http_server_body", 2, 2, ALPROTO_HTTP1, DBUF_TC, HTTP_PROGRESS_COMPLETE, 0,
		{ HTTP_BUF_SERVER_BODY, HTTP_BUF_SERVER_BODY }, http_buffer_get },
	[BUF_FILE_DATA] = { "file_data", 2, 3, ALPROTO_HTTP1, DBUF_EVAL, HTTP_PROGRESS_COMPLETE, 0,
		{ HTTP_BUF_CLIENT_BODY, HTTP_BUF_SERVER_BODY }, http_buffer_get },
	[BUF_HTTP_STAT_CODE] = { "http_stat_code", 4, 2, ALPROTO_HTTP1, DBUF_TC, HTTP_PROGRESS_LINE, 0,
		{ HTTP_BUF_STAT_CODE, HTTP_BUF_STAT_CODE }, http_buffer_get },
	[BUF_HTTP_STAT_MSG] = { "http_stat_msg", 3, 2, ALPROTO_HTTP1, DBUF_TC, HTTP_PROGRESS_LINE, 0,
		{ HTTP_BUF_STAT_MSG, HTTP_BUF_STAT_MSG }, http_buffer_get },
	[BUF_HTTP_REQUEST_LINE] = { "http_request_line", 2, 1, ALPROTO_HTTP1, DBUF_TS, HTTP_PROGRESS_LINE, 0,
		{ HTTP_BUF_REQUEST_LINE, HTTP_BUF_REQUEST_LINE }, http_buffer_get },
	[BUF_HTTP_RESPONSE_LINE] = { "http_response_line", 2, 2, ALPROTO_HTTP1, DBUF_TC, HTTP_PROGRESS_LINE, 0,
		{ HTTP_BUF_RESPONSE_LINE, HTTP_BUF_RESPONSE_LINE }, http_buffer_get },
	[BUF_HTTP_HEADER_NAMES] = { "http_header_names", 2, 3, ALPROTO_HTTP1, DBUF_EVAL, HTTP_PROGRESS_HEADERS, 0,
		{ HTTP_BUF_HEADER_NAMES, HTTP_BUF_HEADER_NAMES }, http_buffer_get },
	[BUF_HTTP_CONTENT_TYPE] = { "http_content_type", 2, 3, ALPROTO_HTTP1, DBUF_EVAL, HTTP_PROGRESS_HEADERS, 0,
		{ HTTP_BUF_CONTENT_TYPE, HTTP_BUF_CONTENT_TYPE }, http_buffer_get },
	[BUF_HTTP_CONTENT_LEN] = { "http_content_len", 2, 3, ALPROTO_HTTP1, DBUF_EVAL, HTTP_PROGRESS_HEADERS, 0,
		{ HTTP_BUF_CONTENT_LEN, HTTP_BUF_CONTENT_LEN }, http_buffer_get },
	[BUF_HTTP_ACCEPT] = { "http_accept", 2, 1, ALPROTO_HTTP1, DBUF_TS, HTTP_PROGRESS_HEADERS, 0,
		{ HTTP_BUF_ACCEPT, HTTP_BUF_ACCEPT }, http_buffer_get },
	[BUF_HTTP_ACCEPT_ENC] = { "http_accept_enc", 2, 1, ALPROTO_HTTP1, DBUF_TS, HTTP_PROGRESS_HEADERS, 0,
		{ HTTP_BUF_ACCEPT_ENC, HTTP_BUF_ACCEPT_ENC }, http_buffer_get },
	[BUF_HTTP_ACCEPT_LANG] = { "http_accept_lang", 2, 1, ALPROTO_HTTP1, DBUF_TS, HTTP_PROGRESS_HEADERS, 0,
		{ HTTP_BUF_ACCEPT_LANG, HTTP_BUF_ACCEPT_LANG }, http_buffer_get },
	[BUF_HTTP_CONNECTION] = { "http_connection", 2, 3, ALPROTO_HTTP1, DBUF_TS, HTTP_PROGRESS_HEADERS, 0,
		{ HTTP_BUF_CONNECTION, HTTP_BUF_CONNECTION }, http_buffer_get },
	[BUF_HTTP_REFERER] = { "http_referer", 2, 1, ALPROTO_HTTP1, DBUF_TS, HTTP_PROGRESS_HEADERS, 0,
		{ HTTP_BUF_REFERER, HTTP_BUF_REFERER }, http_buffer_get },
	[BUF_HTTP_PROTOCOL] = { "http_protocol", 2, 3, ALPROTO_HTTP1, DBUF_EVAL, HTTP_PROGRESS_LINE, 0,
		{ HTTP_BUF_PROTOCOL, HTTP_BUF_PROTOCOL }, http_buffer_get },
	[BUF_HTTP_START] = { "http_start", 2, 3, ALPROTO_HTTP1, DBUF_EVAL, HTTP_PROGRESS_HEADERS, 0,
		{ HTTP_BUF_START, HTTP_BUF_START }, http_buffer_get },
	[BUF_HTTP_LOCATION] = { "http_location", 2, 2, ALPROTO_HTTP1, DBUF_TC, HTTP_PROGRESS_HEADERS, 0,
		{ HTTP_BUF_LOCATION, HTTP_BUF_LOCATION }, http_buffer_get },
	[BUF_HTTP_SERVER] = { "http_server", 2, 2, ALPROTO_HTTP1, DBUF_TC, HTTP_PROGRESS_HEADERS, 0,
		{ HTTP_BUF_SERVER, HTTP_BUF_SERVER }, http_buffer_get },
	[BUF_HTTP_REQUEST_HEADER] = { "http_request_header", 2, 1, ALPROTO_HTTP1, DBUF_TS, HTTP_PROGRESS_HEADERS, 1,
		{ HTTP_BUF_REQUEST_HEADER, HTTP_BUF_REQUEST_HEADER }, http_buffer_get },
	[BUF_HTTP_RESPONSE_HEADER] = { "http_response_header", 2, 2, ALPROTO_HTTP1, DBUF_TC, HTTP_PROGRESS_HEADERS, 1,
		{ HTTP_BUF_RESPONSE_HEADER, HTTP_BUF_RESPONSE_HEADER }, http_buffer_get },
#define TLS_B(n, d, side, prog, multi, pb) { n, 2, d, ALPROTO_TLS, side, prog, multi, { pb, pb }, tls_buffer_get }
	[BUF_TLS_SNI] = TLS_B("tls.sni", 1, DBUF_TS, TLS_PROGRESS_HELLO, 0, TLS_BUF_SNI),
	[BUF_TLS_CERT_SUBJECT] = TLS_B("tls.cert_subject", 3, DBUF_EVAL, TLS_PROGRESS_CERT, 0, TLS_BUF_CERT_SUBJECT),
	[BUF_TLS_CERT_ISSUER] = TLS_B("tls.cert_issuer", 3, DBUF_EVAL, TLS_PROGRESS_CERT, 0, TLS_BUF_CERT_ISSUER),
	[BUF_TLS_CERT_SERIAL] = TLS_B("tls.cert_serial", 3, DBUF_EVAL, TLS_PROGRESS_CERT, 0, TLS_BUF_CERT_SERIAL),
	[BUF_TLS_CERT_FINGERPRINT] = TLS_B("tls.cert_fingerprint", 3, DBUF_EVAL, TLS_PROGRESS_CERT, 0, TLS_BUF_CERT_FINGERPRINT),
	[BUF_TLS_CERTS] = TLS_B("tls.certs", 3, DBUF_EVAL, TLS_PROGRESS_CERT, 1, TLS_KW_BUF_CERTS),
	[BUF_JA3_HASH] = TLS_B("ja3.hash", 1, DBUF_TS, TLS_PROGRESS_HELLO, 0, TLS_BUF_JA3_HASH),
	[BUF_JA3_STRING] = TLS_B("ja3.string", 1, DBUF_TS, TLS_PROGRESS_HELLO, 0, TLS_BUF_JA3_STRING),
	[BUF_JA3S_HASH] = TLS_B("ja3s.hash", 2, DBUF_TC, TLS_PROGRESS_HELLO, 0, TLS_BUF_JA3S_HASH),
	[BUF_JA3S_STRING] = TLS_B("ja3s.string", 2, DBUF_TC, TLS_PROGRESS_HELLO, 0, TLS_BUF_JA3S_STRING),
	[BUF_JA4_HASH] = TLS_B("ja4.hash", 1, DBUF_TS, TLS_PROGRESS_HELLO, 0, TLS_BUF_JA4_HASH),
	[BUF_TLS_RANDOM] = TLS_B("tls.random", 3, DBUF_EVAL, TLS_PROGRESS_HELLO, 0, TLS_BUF_RANDOM),
	[BUF_TLS_RANDOM_TIME] = TLS_B("tls.random_time", 3, DBUF_EVAL, TLS_PROGRESS_HELLO, 0, TLS_BUF_RANDOM_TIME),
	[BUF_TLS_RANDOM_BYTES] = TLS_B("tls.random_bytes", 3, DBUF_EVAL, TLS_PROGRESS_HELLO, 0, TLS_BUF_RANDOM_BYTES),
	[BUF_TLS_ALPN] = TLS_B("tls.alpn", 3, DBUF_EVAL, TLS_PROGRESS_HELLO, 1, TLS_KW_BUF_ALPN),
	[BUF_TLS_SAN] = TLS_B("tls.subjectaltname", 3, DBUF_EVAL, TLS_PROGRESS_CERT, 1, TLS_KW_BUF_SAN),
	[BUF_DNS_QUERY] = { "dns.query", 2, 1, ALPROTO_DNS, DBUF_TS, 1, 1, { DNS_KW_QUERY, DNS_KW_QUERY }, dns_buffer_get },
	[BUF_DNS_QUERIES_RRNAME] = { "dns.queries.rrname", 2, 3, ALPROTO_DNS, DBUF_EVAL, 1, 1, { DNS_KW_QUERIES_RRNAME, DNS_KW_QUERIES_RRNAME }, dns_buffer_get },
	[BUF_DNS_ANSWERS_RRNAME] = { "dns.answers.rrname", 2, 3, ALPROTO_DNS, DBUF_EVAL, 1, 1, { DNS_KW_ANSWERS_RRNAME, DNS_KW_ANSWERS_RRNAME }, dns_buffer_get },
	[BUF_DNS_AUTHORITIES_RRNAME] = { "dns.authorities.rrname", 2, 3, ALPROTO_DNS, DBUF_EVAL, 1, 1, { DNS_KW_AUTHORITIES_RRNAME, DNS_KW_AUTHORITIES_RRNAME }, dns_buffer_get },
	[BUF_DNS_ADDITIONALS_RRNAME] = { "dns.additionals.rrname", 2, 3, ALPROTO_DNS, DBUF_EVAL, 1, 1, { DNS_KW_ADDITIONALS_RRNAME, DNS_KW_ADDITIONALS_RRNAME }, dns_buffer_get },
	[BUF_DNS_RESPONSE_RRNAME] = { "dns.response.rrname", 2, 2, ALPROTO_DNS, DBUF_TC, 1, 1, { DNS_KW_RESPONSE_RRNAME, DNS_KW_RESPONSE_RRNAME }, dns_buffer_get },
/* the envelope and header buffers are whole at the headers' end (smtp.h);
 * URLs and the body's md5 at the message's */
#define SMTP_B(n, d, multi, pb) { n, 2, d, ALPROTO_SMTP, DBUF_TS, 0, multi, { pb, pb }, smtp_buffer_get }
#define SMTP_BD(n, d, multi, pb) { n, 2, d, ALPROTO_SMTP, DBUF_TS, SMTP_PROGRESS_DONE, multi, { pb, pb }, smtp_buffer_get }
	[BUF_SMTP_HELO] = SMTP_B("smtp.helo", 1, 0, SMTP_KW_HELO),
	[BUF_SMTP_MAIL_FROM] = SMTP_B("smtp.mail_from", 1, 0, SMTP_KW_MAIL_FROM),
	[BUF_SMTP_RCPT_TO] = SMTP_B("smtp.rcpt_to", 1, 1, SMTP_KW_RCPT_TO),
	[BUF_EMAIL_FROM] = SMTP_B("email.from", 1, 0, SMTP_KW_EMAIL_FROM),
	[BUF_EMAIL_SUBJECT] = SMTP_B("email.subject", 1, 0, SMTP_KW_EMAIL_SUBJECT),
	[BUF_EMAIL_TO] = SMTP_B("email.to", 1, 0, SMTP_KW_EMAIL_TO),
	[BUF_EMAIL_CC] = SMTP_B("email.cc", 1, 0, SMTP_KW_EMAIL_CC),
	[BUF_EMAIL_DATE] = SMTP_B("email.date", 1, 0, SMTP_KW_EMAIL_DATE),
	[BUF_EMAIL_MESSAGE_ID] = SMTP_B("email.message_id", 1, 0, SMTP_KW_EMAIL_MESSAGE_ID),
	[BUF_EMAIL_X_MAILER] = SMTP_B("email.x_mailer", 1, 0, SMTP_KW_EMAIL_X_MAILER),
	[BUF_EMAIL_RECEIVED] = SMTP_B("email.received", 1, 1, SMTP_KW_EMAIL_RECEIVED),
	[BUF_EMAIL_URL] = SMTP_BD("email.url", 1, 1, SMTP_KW_EMAIL_URL),
	[BUF_EMAIL_BODY_MD5] = SMTP_BD("email.body_md5", 1, 0, SMTP_KW_EMAIL_BODY_MD5),
#define SSH_B(n, d, side, prog, pb) { n, 2, d, ALPROTO_SSH, side, prog, 0, { pb, pb }, ssh_buffer_get }
	[BUF_SSH_PROTO] = SSH_B("ssh.proto", 3, DBUF_EVAL, SSH_PROGRESS_BANNER, SSH_KW_BUF_PROTO),
	[BUF_SSH_SOFTWARE] = SSH_B("ssh.software", 3, DBUF_EVAL, SSH_PROGRESS_BANNER, SSH_KW_BUF_SOFTWARE),
	[BUF_SSH_HASSH] = SSH_B("ssh.hassh", 1, DBUF_TS, SSH_PROGRESS_KEX, SSH_KW_BUF_HASSH),
	[BUF_SSH_HASSH_STRING] = SSH_B("ssh.hassh.string", 1, DBUF_TS, SSH_PROGRESS_KEX, SSH_KW_BUF_HASSH_STRING),
	[BUF_SSH_HASSH_SERVER] = SSH_B("ssh.hassh.server", 2, DBUF_TC, SSH_PROGRESS_KEX, SSH_KW_BUF_HASSH),
	[BUF_SSH_HASSH_SERVER_STRING] = SSH_B("ssh.hassh.server.string", 2, DBUF_TC, SSH_PROGRESS_KEX, SSH_KW_BUF_HASSH_STRING),
#define FTP_B(n, d, side, multi, pb) { n, 2, d, ALPROTO_FTP, side, FTP_PROGRESS_DONE, multi, { pb, pb }, ftp_buffer_get }
	[BUF_FTP_COMMAND] = FTP_B("ftp.command", 1, DBUF_TS, 0, FTP_KW_BUF_COMMAND),
	[BUF_FTP_COMMAND_DATA] = FTP_B("ftp.command_data", 1, DBUF_TS, 0, FTP_KW_BUF_COMMAND_DATA),
	[BUF_FTP_REPLY] = FTP_B("ftp.reply", 2, DBUF_TC, 1, FTP_KW_BUF_REPLY),
	[BUF_FTP_COMPLETION_CODE] = FTP_B("ftp.completion_code", 2, DBUF_TC, 1, FTP_KW_BUF_COMPLETION_CODE),
	/* the request's stub data to the server, the response's to the
	 * client, once the side's last fragment came */
	[BUF_DCERPC_STUB_DATA] = { "dcerpc.stub_data", 2, 3, ALPROTO_DCERPC, DBUF_EVAL, 1, 0,
		{ APP_DIR_TOSERVER, APP_DIR_TOCLIENT }, dcerpc_buffer_get },
	[BUF_SMB_DCERPC_STUB_DATA] = { "dcerpc.stub_data", 2, 3, ALPROTO_SMB, DBUF_EVAL, 1, 0,
		{ APP_DIR_TOSERVER, APP_DIR_TOCLIENT }, smb_dcerpc_buffer_get },
	/* smb.share and smb.named_pipe: the tree connect's name, toserver
	 * only as Suricata registers them (one alert per tree connect); the
	 * NTLMSSP names are the request's */
#define SMB_B(n, side, prog, pb) { n, 2, 3, ALPROTO_SMB, side, prog, 0, { pb, pb }, smb_buffer_get }
	[BUF_SMB_SHARE] = SMB_B("smb.share", DBUF_TS, 0, SMB_KW_BUF_SHARE),
	[BUF_SMB_NAMED_PIPE] = SMB_B("smb.named_pipe", DBUF_TS, 0, SMB_KW_BUF_NAMED_PIPE),
	[BUF_SMB_NTLMSSP_USER] = SMB_B("smb.ntlmssp_user", DBUF_TS, SMB_PROGRESS_DONE, SMB_KW_BUF_NTLMSSP_USER),
	[BUF_SMB_NTLMSSP_DOMAIN] = SMB_B("smb.ntlmssp_domain", DBUF_TS, SMB_PROGRESS_DONE, SMB_KW_BUF_NTLMSSP_DOMAIN),
	/* file.name, file.magic and file_data of SMB's files: its file
	 * transactions are done when the file is (CLOSE, or the flow's end) */
	[BUF_SMB_FILE_NAME] = { "file.name", 2, 3, ALPROTO_SMB, DBUF_EVAL, SMB_PROGRESS_DONE, 1, { FILE_BUF_NAME, FILE_BUF_NAME }, file_buffer_get },
	[BUF_SMB_FILE_MAGIC] = { "file.magic", 2, 3, ALPROTO_SMB, DBUF_EVAL, SMB_PROGRESS_DONE, 1, { FILE_BUF_MAGIC, FILE_BUF_MAGIC }, file_buffer_get },
	[BUF_SMB_FILE_DATA] = { "file_data", 2, 3, ALPROTO_SMB, DBUF_EVAL, SMB_PROGRESS_DONE, 1, { FILE_BUF_HEAD, FILE_BUF_HEAD }, file_buffer_get },
	[BUF_FILE_NAME] = { "file.name", 2, 3, ALPROTO_HTTP1, DBUF_EVAL, HTTP_PROGRESS_COMPLETE, 1, { FILE_BUF_NAME, FILE_BUF_NAME }, file_buffer_get },
	[BUF_FILE_MAGIC] = { "file.magic", 2, 3, ALPROTO_HTTP1, DBUF_EVAL, HTTP_PROGRESS_COMPLETE, 1, { FILE_BUF_MAGIC, FILE_BUF_MAGIC }, file_buffer_get },
	/* SMTP's files are the message's attachments (toserver), whole once
	 * the message is; ftp-data's the transfer, on the side that carried
	 * it, whole once the data connection closed */
#define FILE_B(n, alp, side, prog, pb) { n, 2, 3, alp, side, prog, 1, { pb, pb }, file_buffer_get }
	[BUF_FILE_DATA_SMTP] = FILE_B("file_data", ALPROTO_SMTP, DBUF_TS, SMTP_PROGRESS_DONE, FILE_BUF_DATA),
	[BUF_FILE_NAME_SMTP] = FILE_B("file.name", ALPROTO_SMTP, DBUF_TS, SMTP_PROGRESS_DONE, FILE_BUF_NAME),
	[BUF_FILE_MAGIC_SMTP] = FILE_B("file.magic", ALPROTO_SMTP, DBUF_TS, SMTP_PROGRESS_DONE, FILE_BUF_MAGIC),
	[BUF_FILE_DATA_FTPDATA] = FILE_B("file_data", ALPROTO_FTPDATA, DBUF_EVAL, 1, FILE_BUF_DATA),
	[BUF_FILE_NAME_FTPDATA] = FILE_B("file.name", ALPROTO_FTPDATA, DBUF_EVAL, 1, FILE_BUF_NAME),
	[BUF_FILE_MAGIC_FTPDATA] = FILE_B("file.magic", ALPROTO_FTPDATA, DBUF_EVAL, 1, FILE_BUF_MAGIC),
	[BUF_HTTP_XINST0] = { "http_xinst0", 2, 3, 0, 0, 0, 0, { 0, 0 }, NULL },
	[BUF_HTTP_XINST1] = { "http_xinst1", 2, 3, 0, 0, 0, 0, { 0, 0 }, NULL },
	[BUF_HTTP_XINST2] = { "http_xinst2", 2, 3, 0, 0, 0, 0, { 0, 0 }, NULL },
	[BUF_HTTP_XINST3] = { "http_xinst3", 2, 3, 0, 0, 0, 0, { 0, 0 }, NULL },
	[BUF_IPV4_HDR] = { "ipv4.hdr", 3, 3, 0, 0, 0, 0, { 0, 0 }, NULL },
	[BUF_IPV6_HDR] = { "ipv6.hdr", 3, 3, 0, 0, 0, 0, { 0, 0 }, NULL },
	[BUF_TCP_HDR] = { "tcp.hdr", 3, 3, 0, 0, 0, 0, { 0, 0 }, NULL },
	[BUF_UDP_HDR] = { "udp.hdr", 3, 3, 0, 0, 0, 0, { 0, 0 }, NULL },
	[BUF_ICMPV4_HDR] = { "icmpv4.hdr", 3, 3, 0, 0, 0, 0, { 0, 0 }, NULL },
	[BUF_ICMPV6_HDR] = { "icmpv6.hdr", 3, 3, 0, 0, 0, 0, { 0, 0 }, NULL },
	/* inspected by detect/frame-kw.c on the flow's frames, not on a tx */
	[BUF_FRAME] = { "frame", 3, 3, 0, 0, 0, 0, { 0, 0 }, NULL },
};
