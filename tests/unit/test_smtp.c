/* SMTP: the parser (app-layer/smtp-parse.h), the MIME decoder
 * (mime-decode.h), the eve objects (output/smtp-json.h), the keyword
 * buffers (detect/smtp-kw.h) and SMTP's registry entry through the generic
 * app layer: detection, transactions, the STARTTLS change to TLS. */
#include "config.h"
#include "test.h"

#include "app-layer/app-layer.h"
#include "app-layer/app-layer-int.h"
#include "app-layer/files.h"
#include "app-layer/mime-decode.h"
#include "app-layer/smtp-parse.h"
#include "app-layer/smtp.h"
#include "conf/conf.h"
#include "detect/buffers.h"
#include "detect/detect-parse.h"
#include "detect/smtp-kw.h"
#include "output/smtp-json.h"
#include "output/output-private.h"
#include "decode/packet.h"
#include "app-test-util.h"

#include <arpa/inet.h>
#include <jansson.h>
#include <netinet/in.h>
#include <stdlib.h>

static SmtpConfig cfg;

static SmtpState *state(void)
{
	smtp_config_defaults(&cfg);
	return smtp_state_new(&cfg);
}

static int feed_str(SmtpState *s, int dir, const char *t)
{
	return smtp_parse(s, dir, (const uint8_t *)t, (uint32_t)strlen(t));
}

/* A session whose server advertised PIPELINING: the lines after DATA are
 * the message at once, without waiting for the 354 (as Suricata). */
static SmtpState *advertise_pipelining(SmtpState *s)
{
	feed_str(s, 1, "220 mx ESMTP\r\n");
	feed_str(s, 0, "EHLO client.example\r\n");
	feed_str(s, 1, "250-mx\r\n250 PIPELINING\r\n");
	return s;
}

static SmtpState *pipelined_state(void)
{
	return advertise_pipelining(state());
}

static int str_is(const uint8_t *p, uint32_t len, const char *want)
{
	return p && len == strlen(want) && memcmp(p, want, len) == 0;
}

static const char session[] =
	"EHLO client.example\r\n"
	"MAIL FROM:<a@example.com> SIZE=100\r\n"
	"RCPT TO:<b@example.org>\r\n"
	"RCPT TO: <c@example.org> NOTIFY=NEVER\r\n"
	"DATA\r\n"
	"From: Alice <a@example.com>\r\n"
	"To: \"Bob, B\" <b@example.org>, c@example.org\r\n"
	"Subject: hello\r\n"
	" world\r\n"
	"MIME-Version: 1.0\r\n"
	"Content-Type: multipart/mixed; boundary=\"XX\"\r\n"
	"\r\n"
	"preamble\r\n"
	"--XX\r\n"
	"Content-Type: text/plain\r\n"
	"Content-Transfer-Encoding: quoted-printable\r\n"
	"\r\n"
	"see http://Example.COM/a=3Db and =\r\n"
	"http://two.example/x\r\n"
	"..dot\r\n"
	"--XX\r\n"
	"Content-Type: application/octet-stream; name=\"ignored.bin\"\r\n"
	"Content-Disposition: attachment; filename=\"report.pdf\"\r\n"
	"Content-Transfer-Encoding: base64\r\n"
	"\r\n"
	"aGVsbG8gd29y\r\n"
	"bGQ=\r\n"
	"--XX--\r\n"
	"\r\n"
	".\r\n"
	"QUIT\r\n";

TEST(smtp_envelope_and_message)
{
	SmtpState *s = pipelined_state();
	SmtpTx *tx;
	const MimeMsg *m;
	const uint8_t *p;
	uint32_t n;

	CHECK(s);
	CHECK_EQ(feed_str(s, 0, session), SMTP_OK);
	/* QUIT after the mail starts nothing (Suricata 8.0.7) */
	CHECK_EQ(smtp_tx_count(s), 1);
	tx = smtp_tx_get(s, 0);
	/* the message ended; the transaction waits for the server's word */
	CHECK(tx && !smtp_tx_done(tx));
	CHECK_EQ(feed_str(s, 1, "250 mx\r\n250 ok\r\n250 ok\r\n250 ok\r\n354 go\r\n"), SMTP_OK);
	CHECK(!smtp_tx_done(tx));
	CHECK_EQ(feed_str(s, 1, "250 queued\r\n221 bye\r\n"), SMTP_OK);
	CHECK(smtp_tx_done(tx));
	p = smtp_tx_helo(tx, &n);
	CHECK(str_is(p, n, "client.example"));
	p = smtp_tx_mail_from(tx, &n);
	CHECK(str_is(p, n, "<a@example.com>"));
	CHECK_EQ(smtp_tx_rcpt_count(tx), 2);
	p = smtp_tx_rcpt(tx, 1, &n);
	CHECK(str_is(p, n, "<c@example.org>"));
	m = smtp_tx_mime(tx);
	CHECK(m && mime_done(m));
	CHECK(str_is(mime_header(m, "subject")->value, mime_header(m, "subject")->len,
		     "helloworld"));
	CHECK_EQ(mime_attachment_count(m), 1);
	CHECK(str_is(mime_attachment_at(m, 0)->s, mime_attachment_at(m, 0)->len, "report.pdf"));
	/* the QP soft break joins the lines; URLs lower-cased, scheme left
	 * out by default, last found first */
	CHECK_EQ(mime_url_count(m), 2);
	CHECK(str_is(mime_url_at(m, 0)->s, mime_url_at(m, 0)->len, "two.example/x"));
	CHECK(str_is(mime_url_at(m, 1)->s, mime_url_at(m, 1)->len, "example.com/a=b"));
	/* the message went before DATA's 354 came: out of order (RFC 2920);
	 * the second EHLO's name is a duplicate */
	CHECK_EQ(smtp_tx_events(tx), 1ull << SMTP_EV_INVALID_PIPELINED_SEQUENCE |
					     1ull << SMTP_EV_DUPLICATE_FIELDS);
	CHECK(!smtp_tx_get(s, 1));
	smtp_state_free(s);
}

/* Frames (smtp-parse.h): each command and reply line with its CRLF, a
 * line split over calls included, at the stream offsets the caller's bases
 * give, and each command line a second time without its CRLF (Suricata
 * 8.0.1); the DATA message from the byte after "DATA\r\n", open (-1)
 * until its "." line gives its length. */
typedef struct FrameRec {
	int dir;
	uint64_t off;
	int64_t len;
	unsigned type;
	uint64_t tx;
} FrameRec;
static FrameRec frecs[16];
static int nfrecs;

static int64_t rec_frame(void *arg, int dir, uint64_t off, int64_t len, unsigned type, uint64_t tx)
{
	(void)arg;
	if (nfrecs == 16)
		return -1;
	frecs[nfrecs] = (FrameRec){ dir, off, len, type, tx };
	return ++nfrecs;
}

static void rec_set_len(void *arg, int dir, int64_t id, int64_t len)
{
	(void)arg;
	if (id >= 1 && id <= nfrecs && frecs[id - 1].dir == dir)
		frecs[id - 1].len = len;
}

static const SmtpFrameSink rec_sink = { rec_frame, rec_set_len };

static void feed_at(SmtpState *s, int dir, uint64_t base, const char *t)
{
	smtp_set_frames_base(s, dir, base);
	feed_str(s, dir, t);
}

TEST(smtp_frames_lines_and_message)
{
	SmtpState *s = state();
	static const FrameRec want[] = {
		{ 1, 0, 8, SMTP_FRAME_RESPONSE_LINE, UINT64_MAX },  /* 220 hi */
		{ 0, 0, 8, SMTP_FRAME_COMMAND_LINE, 0 },            /* EHLO x */
		{ 0, 0, 6, SMTP_FRAME_COMMAND_LINE, 0 },            /* ... without CRLF */
		{ 1, 8, 7, SMTP_FRAME_RESPONSE_LINE, 0 },           /* 250-a */
		{ 1, 15, 16, SMTP_FRAME_RESPONSE_LINE, 0 },         /* 250 PIPELINING */
		{ 0, 8, 17, SMTP_FRAME_COMMAND_LINE, 0 },           /* MAIL FROM, split */
		{ 0, 8, 15, SMTP_FRAME_COMMAND_LINE, 0 },
		{ 0, 31, 23, SMTP_FRAME_DATA, 0 },                  /* the message */
		{ 0, 25, 6, SMTP_FRAME_COMMAND_LINE, 0 },           /* DATA */
		{ 0, 25, 4, SMTP_FRAME_COMMAND_LINE, 0 },
		{ 0, 54, 5, SMTP_FRAME_COMMAND_LINE, 0 },           /* QUIT: no tx of its own */
		{ 0, 54, 4, SMTP_FRAME_COMMAND_LINE, 0 },           /* ... its bare LF off */
	};

	CHECK(s);
	nfrecs = 0;
	smtp_set_frame_sink(s, &rec_sink, NULL);
	feed_at(s, 1, 0, "220 hi\r\n");
	feed_at(s, 0, 0, "EHLO x\r\n");
	feed_at(s, 1, 8, "250-a\r\n250 PIPELINING\r\n");
	feed_at(s, 0, 8, "MAIL FR");
	feed_at(s, 0, 15, "OM:<a@b>\r\nDATA\r\nSubj");
	CHECK_EQ(nfrecs, 10);
	CHECK_EQ(frecs[7].type, SMTP_FRAME_DATA);
	CHECK_EQ(frecs[7].len, -1);
	feed_at(s, 0, 35, "ect: x\r\n\r\nbody\r\n.\r\nQUIT\n");
	CHECK_EQ(nfrecs, 12);
	for (int i = 0; i < 12; i++) {
		CHECK_EQ(frecs[i].dir, want[i].dir);
		CHECK_EQ(frecs[i].off, want[i].off);
		CHECK_EQ(frecs[i].len, want[i].len);
		CHECK_EQ(frecs[i].type, want[i].type);
		CHECK_EQ(frecs[i].tx, want[i].tx);
	}
	smtp_state_free(s);
}

/* A reply's frame belongs to the transaction its command was sent in: the
 * 250 to a message's "." stays tx 0's though a MAIL pipelined behind it
 * started tx 1 (Suricata 8.0.7). */
TEST(smtp_response_frames_follow_their_command)
{
	SmtpState *s = pipelined_state();

	nfrecs = 0;
	smtp_set_frame_sink(s, &rec_sink, NULL);
	feed_at(s, 0, 0, "MAIL FROM:<a@b>\r\nDATA\r\n");
	feed_at(s, 1, 0, "250 ok\r\n354 go\r\n");
	feed_at(s, 0, 23, "x\r\n.\r\nMAIL FROM:<c@d>\r\n");
	CHECK_EQ(smtp_tx_count(s), 2);
	nfrecs = 0;
	feed_at(s, 1, 16, "250 queued\r\n250 ok\r\n");
	CHECK_EQ(nfrecs, 2);
	CHECK_EQ(frecs[0].type, SMTP_FRAME_RESPONSE_LINE);
	CHECK_EQ(frecs[0].tx, 0);
	CHECK_EQ(frecs[1].tx, 1);
	smtp_state_free(s);
}

/* Byte by byte, the parser must end where it ends with one call. */
TEST(smtp_split_anywhere)
{
	SmtpState *s = pipelined_state();
	const MimeMsg *m;

	for (size_t i = 0; session[i]; i++)
		smtp_parse(s, 0, (const uint8_t *)session + i, 1);
	CHECK_EQ(smtp_tx_count(s), 1);
	m = smtp_tx_mime(smtp_tx_get(s, 0));
	CHECK_EQ(mime_url_count(m), 2);
	CHECK_EQ(mime_attachment_count(m), 1);
	smtp_state_free(s);
}

TEST(smtp_multiline_and_pipelined_replies)
{
	SmtpState *s = state();
	SmtpTx *tx;

	feed_str(s, 1, "220-mx first\r\n220 mx second\r\n");
	feed_str(s, 0, "EHLO c\r\nMAIL FROM:<a@b>\r\nRCPT TO:<c@d>\r\n");
	CHECK_EQ(feed_str(s, 1, "250-mx\r\n250-PIPELINING\r\n250 OK\r\n250 OK\r\n250 OK\r\n"),
		 SMTP_OK);
	tx = smtp_tx_get(s, 0);
	CHECK_EQ(smtp_tx_events(tx), 0);
	/* one reply too many goes by, as in Suricata: no event, no error */
	CHECK_EQ(feed_str(s, 1, "250 OK\r\n"), SMTP_OK);
	CHECK_EQ(smtp_tx_events(tx), 0);
	smtp_state_free(s);
}

TEST(smtp_invalid_reply_is_an_error)
{
	SmtpState *s = state();

	feed_str(s, 0, "HELO x\r\n");
	CHECK_EQ(feed_str(s, 1, "472 not a code Suricata knows\r\n"), SMTP_ERR);
	CHECK(smtp_tx_has_event(smtp_tx_get(s, 0), SMTP_EV_INVALID_REPLY));
	CHECK_EQ(smtp_parser_errors(s), 1);
	/* as Suricata's parser error: nothing more of the flow is parsed */
	CHECK_EQ(feed_str(s, 0, "MAIL FROM:<z@z>\r\n"), SMTP_ERR);
	CHECK_EQ(feed_str(s, 1, "999 bad again\r\n"), SMTP_ERR);
	CHECK_EQ(smtp_parser_errors(s), 1);
	{
		uint32_t n;

		CHECK(!smtp_tx_mail_from(smtp_tx_get(s, 0), &n));
	}
	CHECK_EQ(smtp_event_by_name("invalid_reply"), SMTP_EV_INVALID_REPLY);
	CHECK_EQ(smtp_event_by_name("mime_invalid_base64"),
		 SMTP_EV_MIME_FIRST + MIME_EV_INVALID_BASE64);
	CHECK_EQ(smtp_event_by_name("nope"), -1);
	smtp_state_free(s);
}

TEST(smtp_long_command_line_event)
{
	SmtpState *s = state();
	char line[700];

	memset(line, 'A', sizeof(line));
	memcpy(line, "HELO ", 5);
	line[sizeof(line) - 3] = '\r';
	line[sizeof(line) - 2] = '\n';
	line[sizeof(line) - 1] = '\0';
	feed_str(s, 0, line);
	CHECK(smtp_tx_has_event(smtp_tx_get(s, 0), SMTP_EV_MAX_COMMAND_LINE_LEN_EXCEEDED));
	smtp_state_free(s);
}

/* A reply line past the 4096-byte line buffer is cut there and is no
 * reply: an invalid reply, the parser's one error, and nothing more of the
 * flow is parsed (suricata-verify smtp-bug-5989: one smtp record, tx 0's
 * EHLO only). */
TEST(smtp_long_reply_line_is_invalid_and_stops)
{
	SmtpState *s = state();
	char *b = malloc(6000);
	size_t n;

	CHECK(b);
	strcpy(b, "220 smtp ESMTP\r\n");
	n = strlen(b);
	memset(b + n, 'A', 4964);
	CHECK_EQ(smtp_parse(s, 1, (const uint8_t *)b, (uint32_t)(n + 4964)), SMTP_OK);
	CHECK_EQ(feed_str(s, 0, "EHLO Percival\r\n"), SMTP_OK);
	CHECK_EQ(feed_str(s, 1, "250-mx.example\r\n250-AUTH LOGIN\r\n250 8BITMIME\r\n"), SMTP_ERR);
	CHECK_EQ(smtp_parser_errors(s), 1);
	CHECK(smtp_tx_has_event(smtp_tx_get(s, 0), SMTP_EV_INVALID_REPLY));
	CHECK(smtp_tx_has_event(smtp_tx_get(s, 0), SMTP_EV_TRUNCATED_LINE));
	CHECK_EQ(feed_str(s, 0, "MAIL FROM:<a@b>\r\nQUIT\r\n"), SMTP_ERR);
	CHECK_EQ(smtp_tx_count(s), 1);
	free(b);
	smtp_state_free(s);
}

/* Without PIPELINING from the server, the message starts at the 354: the
 * lines before it are commands (suricata-verify smtp-bug-5989, whose server
 * replies are never seen); with it, at once. */
TEST(smtp_data_waits_for_354_without_pipelining)
{
	SmtpState *s = state();
	SmtpTx *tx;

	feed_str(s, 1, "220 mx\r\n");
	feed_str(s, 0, "EHLO a\r\n");
	feed_str(s, 1, "250-mx\r\n250 8BITMIME\r\n");
	feed_str(s, 0, "MAIL FROM:<a@b>\r\nDATA\r\nSubject: early\r\n");
	tx = smtp_tx_get(s, 0);
	CHECK(!mime_header(smtp_tx_mime(tx), "subject"));
	feed_str(s, 1, "250 ok\r\n354 go\r\n");
	feed_str(s, 0, "Subject: late\r\n\r\nbody\r\n.\r\n");
	CHECK(!smtp_tx_done(tx));
	/* the early line was a command: its reply, then the message's */
	feed_str(s, 1, "500 what\r\n250 queued\r\n");
	CHECK(smtp_tx_done(tx));
	CHECK(str_is(mime_header(smtp_tx_mime(tx), "subject")->value,
		     mime_header(smtp_tx_mime(tx), "subject")->len, "late"));
	smtp_state_free(s);
	/* the server never answers: the message lines and "." are commands,
	 * the transaction stays open and QUIT belongs to it */
	s = state();
	feed_str(s, 1, "220 mx\r\n");
	feed_str(s, 0, "EHLO a\r\nMAIL FROM:<a@b>\r\nDATA\r\nSubject: x\r\n\r\n.\r\nQUIT\r\n");
	CHECK_EQ(smtp_tx_count(s), 1);
	CHECK(!smtp_tx_done(smtp_tx_get(s, 0)));
	smtp_state_free(s);
}

/* A command of 4096 bytes (its CR the last) and then the LF: the LF is past
 * the line buffer, so the line is truncated and keeps its CR
 * (suricata-verify smtp-long-command). */
TEST(smtp_lf_past_the_line_buffer_truncates)
{
	SmtpState *s = state();
	char *b = malloc(4098);
	const uint8_t *p;
	uint32_t n;

	CHECK(b);
	memcpy(b, "EHLO ", 5);
	memset(b + 5, 'O', 4090);
	b[4095] = '\r';
	b[4096] = '\n';
	b[4097] = '\0';
	feed_str(s, 0, b);
	CHECK(smtp_tx_has_event(smtp_tx_get(s, 0), SMTP_EV_TRUNCATED_LINE));
	p = smtp_tx_helo(smtp_tx_get(s, 0), &n);
	CHECK_EQ(n, 4091);
	CHECK(p && p[4090] == '\r');
	smtp_state_free(s);
	/* one byte shorter fits: no event, no CR */
	s = state();
	memcpy(b + 4094, "\r\n", 3);
	feed_str(s, 0, b);
	CHECK(!smtp_tx_has_event(smtp_tx_get(s, 0), SMTP_EV_TRUNCATED_LINE));
	smtp_tx_helo(smtp_tx_get(s, 0), &n);
	CHECK_EQ(n, 4089);
	free(b);
	smtp_state_free(s);
}

TEST(smtp_data_rejected_leaves_data_mode)
{
	SmtpState *s = state();
	SmtpTx *tx;

	feed_str(s, 0, "HELO x\r\nMAIL FROM:<a@b>\r\nDATA\r\n");
	feed_str(s, 1, "220 hi\r\n250 ok\r\n250 ok\r\n554 no\r\n");
	tx = smtp_tx_get(s, 0);
	CHECK(smtp_tx_has_event(tx, SMTP_EV_DATA_COMMAND_REJECTED));
	CHECK(!smtp_tx_mime(tx));
	/* commands again */
	feed_str(s, 0, "RCPT TO:<z@y>\r\n");
	CHECK_EQ(smtp_tx_rcpt_count(tx), 1);
	smtp_state_free(s);
}

/* A message line's piece held when DATA is refused becomes the start of a
 * command line: held bytes past the command limit must not make a
 * negative length (qa/fuzz, fuzz_smtp). */
TEST(smtp_refused_data_with_a_held_line)
{
	SmtpState *s = state();
	char big[3001];

	memset(big, 'A', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	feed_str(s, 0, "HELO x\r\nDATA\r\n");
	feed_str(s, 0, big);
	feed_str(s, 1, "220 hi\r\n250 ok\r\n554 no\r\n");
	feed_str(s, 0, big);
	feed_str(s, 0, "\r\nMAIL FROM:<a@b>\r\n");
	CHECK(smtp_tx_has_event(smtp_tx_get(s, 0), SMTP_EV_TRUNCATED_LINE));
	CHECK(smtp_tx_has_event(smtp_tx_get(s, 0), SMTP_EV_DATA_COMMAND_REJECTED));
	{
		uint32_t n;
		const uint8_t *p = smtp_tx_mail_from(smtp_tx_get(s, 0), &n);

		CHECK(str_is(p, n, "<a@b>"));
	}
	smtp_state_free(s);
}

/* BDAT (RFC 3030): each chunk is counted to its own size, whatever lines
 * it holds (a "." line included); its bytes are not MIME parsed, as in
 * Suricata; the last chunk's reply completes the transaction, and the next
 * MAIL starts the next one (suricata-verify smtp-bdat-multichunk-*). */
TEST(smtp_bdat_chunks_counted_each_to_its_size)
{
	SmtpState *s = state();
	const char *c1 = "Subject: chunked\r\n.\r\nbody li";
	const char *c2 = "ne\r\n";
	char cmd[64];
	SmtpTx *tx;

	feed_str(s, 1, "220 mx\r\n");
	feed_str(s, 0, "EHLO x\r\nMAIL FROM:<a@b>\r\nRCPT TO:<c@d>\r\n");
	snprintf(cmd, sizeof(cmd), "BDAT %zu\r\n", strlen(c1));
	feed_str(s, 0, cmd);
	feed_str(s, 0, c1);
	snprintf(cmd, sizeof(cmd), "BDAT %zu LAST\r\n", strlen(c2));
	feed_str(s, 0, cmd);
	/* the chunk split over two inputs */
	feed_str(s, 0, "n");
	feed_str(s, 0, c2 + 1);
	tx = smtp_tx_get(s, 0);
	CHECK(!smtp_tx_mime(tx));
	CHECK(!smtp_tx_done(tx));
	/* a command right behind the last chunk starts the next mail */
	feed_str(s, 0, "MAIL FROM:<next@b>\r\n");
	CHECK_EQ(smtp_tx_count(s), 2);
	CHECK_EQ(feed_str(s, 1, "250 mx\r\n250 ok\r\n250 ok\r\n250 chunk\r\n"), SMTP_OK);
	CHECK(!smtp_tx_done(tx));
	CHECK_EQ(feed_str(s, 1, "250 queued\r\n250 ok\r\n"), SMTP_OK);
	CHECK(smtp_tx_done(tx));
	CHECK(!smtp_tx_done(smtp_tx_get(s, 1)));
	CHECK_EQ(smtp_tx_events(tx), 0);
	CHECK_EQ(smtp_tx_events(smtp_tx_get(s, 1)), 0);
	smtp_state_free(s);
}

/* A BDAT line that is not "BDAT <size> [LAST]" is an event, not a parser
 * error, and holds its place among the commands waiting for replies: the
 * 354 then goes to DATA (suricata-verify smtp-bdat-bad-tail-reply-queue). */
TEST(smtp_bad_bdat_is_an_event_and_keeps_its_reply)
{
	SmtpState *s = state();
	SmtpTx *tx;

	feed_str(s, 1, "220 mx\r\n");
	feed_str(s, 0, "EHLO x\r\n");
	feed_str(s, 1, "250-mx\r\n250 CHUNKING\r\n");
	CHECK_EQ(feed_str(s, 0, "BDAT 5 X\r\nMAIL FROM:<a@b>\r\nRCPT TO:<c@d>\r\nDATA\r\n"),
		 SMTP_OK);
	tx = smtp_tx_get(s, 0);
	CHECK(smtp_tx_has_event(tx, SMTP_EV_INVALID_BDAT));
	CHECK_EQ(smtp_event_by_name("invalid_bdat"), SMTP_EV_INVALID_BDAT);
	CHECK_EQ(feed_str(s, 1, "501 syntax\r\n250 ok\r\n250 ok\r\n354 go\r\n"), SMTP_OK);
	feed_str(s, 0, "Subject: s\r\n\r\nbody\r\n.\r\n");
	CHECK(!smtp_tx_has_event(tx, SMTP_EV_DATA_COMMAND_REJECTED));
	CHECK(str_is(mime_header(smtp_tx_mime(tx), "subject")->value,
		     mime_header(smtp_tx_mime(tx), "subject")->len, "s"));
	CHECK_EQ(feed_str(s, 1, "250 queued\r\n"), SMTP_OK);
	CHECK(smtp_tx_done(tx));
	CHECK_EQ(smtp_parser_errors(s), 0);
	/* nor a size alone is more than a size */
	feed_str(s, 0, "BDAT\r\nBDAT 12x\r\n");
	CHECK_EQ(smtp_tx_count(s), 2);
	CHECK(smtp_tx_has_event(smtp_tx_get(s, 1), SMTP_EV_INVALID_BDAT));
	smtp_state_free(s);
}

/* RSET and QUIT start no transaction once one ended (Suricata 8.0.7), but
 * are one when nothing came before; RSET's 250 completes the transaction
 * it was sent in, not one a command pipelined behind it started
 * (suricata-verify smtp-pipelined-rset-after-complete,
 * smtp-no-helo-rset-helo-mail). */
TEST(smtp_rset_completes_its_own_transaction)
{
	SmtpState *s = state();

	feed_str(s, 1, "220 mx\r\n");
	feed_str(s, 0, "RSET\r\n");
	CHECK_EQ(smtp_tx_count(s), 1);
	feed_str(s, 1, "250 ok\r\n");
	CHECK(smtp_tx_done(smtp_tx_get(s, 0)));
	feed_str(s, 0, "HELO x\r\nMAIL FROM:<a@b>\r\nRCPT TO:<c@d>\r\nDATA\r\n");
	CHECK_EQ(smtp_tx_count(s), 2);
	feed_str(s, 1, "250 x\r\n250 ok\r\n250 ok\r\n354 go\r\n");
	feed_str(s, 0, "Subject: one\r\n\r\n.\r\n");
	feed_str(s, 1, "250 queued\r\n");
	CHECK(smtp_tx_done(smtp_tx_get(s, 1)));
	/* tx 1 logged and freed; RSET and the next MAIL pipelined */
	*smtp_tx_flags(smtp_tx_get(s, 0)) |= 1;
	*smtp_tx_flags(smtp_tx_get(s, 1)) |= 1;
	smtp_tx_gc(s, 1);
	feed_str(s, 0, "RSET\r\nMAIL FROM:<e@f>\r\n");
	CHECK_EQ(smtp_tx_count(s), 3);
	feed_str(s, 1, "250 reset\r\n250 ok\r\n");
	CHECK(!smtp_tx_done(smtp_tx_get(s, 2)));
	/* QUIT after a mail starts nothing */
	feed_str(s, 0, "RCPT TO:<g@h>\r\nDATA\r\n");
	feed_str(s, 1, "250 ok\r\n354 go\r\n");
	feed_str(s, 0, "\r\n.\r\nQUIT\r\n");
	CHECK_EQ(smtp_tx_count(s), 3);
	CHECK_EQ(smtp_tx_events(smtp_tx_get(s, 2)), 0);
	smtp_state_free(s);
	/* a QUIT alone is a transaction */
	s = state();
	feed_str(s, 1, "220 mx\r\n");
	feed_str(s, 0, "QUIT\r\n");
	CHECK_EQ(smtp_tx_count(s), 1);
	smtp_state_free(s);
}

/* A HELO/EHLO the server accepts once a mail began ends that mail as RSET
 * would (RFC 5321 4.1.4); a refused one leaves it; the second name is a
 * duplicate field and the first is kept (suricata-verify smtp-ehlo-reset,
 * smtp-rejected-ehlo-preserves-envelope). */
TEST(smtp_accepted_ehlo_resets_a_begun_mail)
{
	SmtpState *s = state();
	const uint8_t *p;
	uint32_t n;

	feed_str(s, 1, "220 mx\r\n");
	feed_str(s, 0, "HELO one\r\n");
	feed_str(s, 1, "250 mx\r\n");
	CHECK(!smtp_tx_done(smtp_tx_get(s, 0)));    /* no mail yet: nothing to reset */
	feed_str(s, 0, "MAIL FROM:<a@b>\r\nEHLO\r\n");
	feed_str(s, 1, "250 ok\r\n501 syntax\r\n");
	CHECK(!smtp_tx_done(smtp_tx_get(s, 0)));
	CHECK(smtp_tx_has_event(smtp_tx_get(s, 0), SMTP_EV_DUPLICATE_FIELDS));
	feed_str(s, 0, "EHLO two\r\n");
	feed_str(s, 1, "250-mx\r\n250 PIPELINING\r\n");
	CHECK(smtp_tx_done(smtp_tx_get(s, 0)));
	feed_str(s, 0, "MAIL FROM:<c@d>\r\n");
	CHECK_EQ(smtp_tx_count(s), 2);
	p = smtp_tx_helo(smtp_tx_get(s, 1), &n);
	CHECK(str_is(p, n, "one"));
	p = smtp_tx_mail_from(smtp_tx_get(s, 1), &n);
	CHECK(str_is(p, n, "<c@d>"));
	/* a second MAIL FROM in one mail is a duplicate, the first kept */
	feed_str(s, 0, "MAIL FROM:<x@y>\r\n");
	CHECK(smtp_tx_has_event(smtp_tx_get(s, 1), SMTP_EV_DUPLICATE_FIELDS));
	p = smtp_tx_mail_from(smtp_tx_get(s, 1), &n);
	CHECK(str_is(p, n, "<c@d>"));
	smtp_state_free(s);
}

TEST(smtp_starttls_holds_the_tls_bytes)
{
	SmtpState *s = state();
	uint8_t *h;
	uint32_t n;

	feed_str(s, 1, "220 mx\r\n");
	feed_str(s, 0, "EHLO x\r\n");
	feed_str(s, 1, "250 mx\r\n");
	/* the client hello right behind the command, before the reply */
	CHECK_EQ(feed_str(s, 0, "STARTTLS\r\n\x16\x03\x01"), SMTP_OK);
	CHECK_EQ(feed_str(s, 1, "220 go ahead\r\n\x16\x03\x03"), SMTP_TO_TLS);
	CHECK(smtp_tx_done(smtp_tx_get(s, 0)));
	h = smtp_take_held(s, 0, &n);
	CHECK(h && n == 3 && h[0] == 0x16);
	free(h);
	h = smtp_take_held(s, 1, &n);
	CHECK(h && n == 3);
	free(h);
	CHECK(!smtp_take_held(s, 1, &n));
	smtp_state_free(s);
}

TEST(smtp_starttls_refused_goes_on)
{
	SmtpState *s = state();

	feed_str(s, 1, "220 mx\r\n");
	feed_str(s, 0, "EHLO x\r\nSTARTTLS\r\nMAIL FROM:<a@b>\r\n");
	CHECK_EQ(feed_str(s, 1, "250 mx\r\n454 not now\r\n"), SMTP_OK);
	CHECK(smtp_tx_has_event(smtp_tx_get(s, 0), SMTP_EV_TLS_REJECTED));
	/* what the client sent meanwhile was parsed as SMTP after all */
	{
		uint32_t n;
		const uint8_t *p = smtp_tx_mail_from(smtp_tx_get(s, 0), &n);

		CHECK(str_is(p, n, "<a@b>"));
	}
	smtp_state_free(s);
}

TEST(smtp_tx_gc_frees_logged_done)
{
	SmtpState *s = pipelined_state();

	feed_str(s, 0, "MAIL FROM:<a@b>\r\nDATA\r\n\r\n.\r\nMAIL FROM:<c@d>\r\n");
	CHECK_EQ(smtp_tx_count(s), 2);
	feed_str(s, 1, "250 ok\r\n354 go\r\n250 queued\r\n");
	*smtp_tx_flags(smtp_tx_get(s, 0)) |= 1;
	*smtp_tx_flags(smtp_tx_get(s, 1)) |= 1;
	smtp_tx_gc(s, 1);
	CHECK(!smtp_tx_get(s, 0));
	CHECK(smtp_tx_get(s, 1));       /* not done */
	smtp_state_free(s);
}

/* ---- MIME ---- */

TEST(mime_base64_across_calls)
{
	uint8_t out[16], carry[4];
	unsigned nc = 0;
	int n1 = mime_b64_decode((const uint8_t *)"aGVs", 4, out, carry, &nc);
	int n2 = mime_b64_decode((const uint8_t *)"bG8", 3, out + n1, carry, &nc);
	int n3 = mime_b64_decode((const uint8_t *)"=", 1, out + n1 + n2, carry, &nc);

	CHECK_EQ(n1, 3);
	CHECK_EQ(n2, 0);
	CHECK_EQ(n3, 2);
	CHECK(memcmp(out, "hello", 5) == 0);
	nc = 0;
	/* a bad character: skipped, reported */
	CHECK_EQ(mime_b64_decode((const uint8_t *)"aG!Vs", 5, out, carry, &nc), -1 - 3);
}

TEST(mime_quoted_printable)
{
	uint8_t out[32];
	int soft;

	CHECK_EQ(mime_qp_decode((const uint8_t *)"a=3Db=\t ", 8, out, &soft), 3);
	CHECK(soft);
	CHECK(memcmp(out, "a=b", 3) == 0);
	CHECK_EQ(mime_qp_decode((const uint8_t *)"x=ZZ", 4, out, &soft), -1 - 4);
	CHECK(!soft);
}

static MimeMsg *msg_of(const MimeConfig *c, const char *text)
{
	MimeMsg *m = mime_msg_new(c);
	const char *p = text;

	while (*p) {
		const char *e = strstr(p, "\r\n");
		size_t n = e ? (size_t)(e - p) : strlen(p);

		mime_feed_line(m, (const uint8_t *)p, (uint32_t)n, 0);
		p += n + (e ? 2 : 0);
	}
	mime_finish(m);
	return m;
}

TEST(mime_rfc2231_filename_and_depth)
{
	MimeConfig c;
	MimeMsg *m;

	mime_config_defaults(&c);
	c.header_value_depth = 5;
	m = msg_of(&c, "Subject: 0123456789\r\n"
		       "Content-Type: application/pdf\r\n"
		       "Content-Disposition: attachment; filename*0*=utf-8''a%20b; filename*1=\"c.pdf\"\r\n"
		       "\r\nx\r\n");
	CHECK_EQ(mime_attachment_count(m), 1);
	CHECK(str_is(mime_attachment_at(m, 0)->s, mime_attachment_at(m, 0)->len, "a bc.pdf"));
	/* header-value-depth cuts what is kept of a value */
	CHECK(str_is(mime_header(m, "subject")->value, mime_header(m, "subject")->len, "01234"));
	mime_msg_free(m);
}

/* A NUL in an attachment's name is part of it: "invoice\0.pdf.exe" was
 * logged as "invoice" while fileext:"exe" saw the whole name. */
TEST(mime_filename_with_nul_is_kept_whole)
{
	MimeConfig c;
	MimeMsg *m;

	mime_config_defaults(&c);
	m = msg_of(&c, "Content-Type: application/octet-stream\r\n"
		       "Content-Disposition: attachment; filename*=utf-8''invoice%00.pdf.exe\r\n"
		       "\r\nx\r\n");
	CHECK_EQ(mime_attachment_count(m), 1);
	CHECK_EQ(mime_attachment_at(m, 0)->len, 16);
	CHECK(memcmp(mime_attachment_at(m, 0)->s, "invoice\0.pdf.exe", 16) == 0);
	mime_msg_free(m);
}

/* fuzz_http found it: a huge RFC 2231 section index overflowed an int
 * (UBSan). Such a section is never one of the 64 read; the rest stay. */
TEST(mime_rfc2231_huge_section_index_is_ignored)
{
	MimeConfig c;
	MimeMsg *m;

	mime_config_defaults(&c);
	m = msg_of(&c, "Content-Type: application/pdf\r\n"
		       "Content-Disposition: attachment; filename*0=\"a\"; "
		       "filename*99999999999999999999=\"zz\"; filename*1=\"b.pdf\"\r\n"
		       "\r\nx\r\n");
	CHECK_EQ(mime_attachment_count(m), 1);
	CHECK(str_is(mime_attachment_at(m, 0)->s, mime_attachment_at(m, 0)->len, "ab.pdf"));
	mime_msg_free(m);
}

TEST(mime_schemes_and_body_md5)
{
	MimeConfig c;
	MimeMsg *m;
	uint8_t md[16];
	/* md5("line\r\n") */
	static const uint8_t want[16] = { 0x95, 0x77, 0x74, 0xf5, 0x69, 0xd3, 0x33, 0x46,
					  0xe5, 0x76, 0x2e, 0xe8, 0x04, 0xb5, 0xc4, 0xbf };
	int ok;

	mime_config_defaults(&c);
	c.body_md5 = 1;
	c.log_url_scheme = 1;
	strcpy(c.schemes[1], "ftp://");
	c.nschemes = 2;
	m = msg_of(&c, "From: x\r\n\r\nline\r\n");
	ok = mime_body_md5(m, md);
	CHECK(ok);
	CHECK(memcmp(md, want, 16) == 0);
	CHECK_STREQ(mime_body_md5_hex(m), "957774f569d33346e5762ee804b5c4bf");
	mime_msg_free(m);
	m = msg_of(&c, "From: x\r\n\r\nget FTP://h/f and http://[::1]/x.exe\r\n");
	CHECK_EQ(mime_url_count(m), 2);
	CHECK(str_is(mime_url_at(m, 0)->s, mime_url_at(m, 0)->len, "ftp://h/f"));
	CHECK(str_is(mime_url_at(m, 1)->s, mime_url_at(m, 1)->len, "http://[::1]/x.exe"));
	CHECK_EQ(mime_url_flags(m), MIME_URL_IPV6 | MIME_URL_EXE);
	mime_msg_free(m);
}

TEST(mime_decode_off_keeps_headers_only)
{
	MimeConfig c;
	MimeMsg *m;

	mime_config_defaults(&c);
	c.decode_mime = 0;
	m = msg_of(&c, "From: x\r\nContent-Type: text/plain; name=\"a.txt\"\r\n\r\ntx_rules://u.example/\r\n");
	CHECK(mime_header(m, "from"));
	CHECK_EQ(mime_url_count(m), 0);
	CHECK_EQ(mime_attachment_count(m), 0);
	mime_msg_free(m);
}

/* A folded header loses the CRLF and the blank that starts the fold, as
 * Suricata 8 unfolds (suricata-verify smtp-data-rejected). */
TEST(mime_unfold_drops_the_fold_blank)
{
	MimeConfig c;
	MimeMsg *m;
	const MimeHeader *h;

	mime_config_defaults(&c);
	m = msg_of(&c, "Received: from a (helo=b)\r\n\tby c with esmtpa\r\n\t(envelope-from )\r\n"
		       "Subject: x\r\n\r\nbody\r\n");
	h = mime_header(m, "received");
	CHECK(h && str_is(h->value, h->len, "from a (helo=b)by c with esmtpa(envelope-from )"));
	mime_msg_free(m);
}

/* message/rfc822: the body is a message of its own, whose headers decide
 * its encoding; the outer part's base64 and name do not apply
 * (suricata-verify smtp-mime-encap-8649-combined). */
TEST(mime_rfc822_part_is_an_inner_message)
{
	MimeConfig c;
	MimeMsg *m;

	mime_config_defaults(&c);
	m = msg_of(&c, "Subject: outer\r\nContent-Type: message/rfc822\r\n"
		       "Content-Transfer-Encoding: base64\r\n"
		       "Content-Disposition: attachment; filename=\"innocent.txt\"\r\n\r\n"
		       "Subject: inner\r\nContent-Type: application/octet-stream\r\n"
		       "Content-Disposition: attachment; filename=\"malware.exe\"\r\n\r\n"
		       "PAYLOAD\r\n");
	CHECK_EQ(mime_attachment_count(m), 1);
	CHECK(str_is(mime_attachment_at(m, 0)->s, mime_attachment_at(m, 0)->len, "malware.exe"));
	CHECK(str_is(mime_header(m, "subject")->value, mime_header(m, "subject")->len, "outer"));
	CHECK_EQ(mime_events(m) & (1u << MIME_EV_INVALID_BASE64), 0);
	mime_msg_free(m);
}

/* ---- eve and keywords ---- */

TEST(smtp_eve_objects)
{
	SmtpState *s = pipelined_state();
	SmtpTx *tx;
	json_t *j, *e;

	feed_str(s, 0, session);
	tx = smtp_tx_get(s, 0);
	j = smtp_json_object(tx);
	CHECK_STREQ(json_string_value(json_object_get(j, "mail_from")), "<a@example.com>");
	CHECK_EQ(json_array_size(json_object_get(j, "rcpt_to")), 2);
	json_decref(j);
	e = smtp_email_object(tx, 0);
	CHECK_STREQ(json_string_value(json_object_get(e, "status")), "PARSE_DONE");
	CHECK_STREQ(json_string_value(json_object_get(e, "from")), "Alice <a@example.com>");
	/* the comma inside quotes does not split */
	CHECK_EQ(json_array_size(json_object_get(e, "to")), 2);
	CHECK_STREQ(json_string_value(json_array_get(json_object_get(e, "to"), 0)),
		    "\"Bob, B\" <b@example.org>");
	CHECK(!json_object_get(e, "subject"));  /* extended only */
	CHECK_STREQ(json_string_value(json_array_get(json_object_get(e, "attachment"), 0)),
		    "report.pdf");
	json_decref(e);
	e = smtp_email_object(tx, SMTP_LOG_EXTENDED | SMTP_LOG_MD5_SUBJECT);
	CHECK_STREQ(json_string_value(json_object_get(e, "subject")), "helloworld");
	CHECK(json_object_get(e, "subject_md5"));
	json_decref(e);
	smtp_state_free(s);
	/* no message: no email object */
	s = state();
	feed_str(s, 0, "HELO x\r\n");
	CHECK(!smtp_email_object(smtp_tx_get(s, 0), 0));
	smtp_state_free(s);
}

TEST(smtp_keyword_buffers)
{
	SmtpState *s = pipelined_state();
	SmtpTx *tx;
	const uint8_t *p;
	uint32_t n;

	feed_str(s, 0, session);
	tx = smtp_tx_get(s, 0);
	CHECK_EQ(smtp_buffer_get(&detect_buffers[BUF_SMTP_HELO], tx, 0, 0, &p, &n), 0);
	CHECK(str_is(p, n, "client.example"));
	CHECK_EQ(smtp_buffer_get(&detect_buffers[BUF_SMTP_RCPT_TO], tx, 0, 1, &p, &n), 0);
	CHECK(str_is(p, n, "<c@example.org>"));
	CHECK_EQ(smtp_buffer_get(&detect_buffers[BUF_SMTP_RCPT_TO], tx, 0, 2, &p, &n), -1);
	CHECK_EQ(smtp_buffer_get(&detect_buffers[BUF_EMAIL_SUBJECT], tx, 0, 0, &p, &n), 0);
	CHECK(str_is(p, n, "helloworld"));
	CHECK_EQ(smtp_buffer_get(&detect_buffers[BUF_EMAIL_URL], tx, 0, 1, &p, &n), 0);
	CHECK(str_is(p, n, "example.com/a=b"));
	/* body md5 is off by default */
	CHECK_EQ(smtp_buffer_get(&detect_buffers[BUF_EMAIL_BODY_MD5], tx, 0, 0, &p, &n), -1);
	CHECK_EQ(smtp_buffer_get(&detect_buffers[BUF_EMAIL_CC], tx, 0, 0, &p, &n), -1);
	smtp_state_free(s);
}

/* ---- attachments as files ---- */

TEST(smtp_attachment_is_a_closed_file_with_its_bytes)
{
	SmtpState *s = pipelined_state();
	SmtpTx *tx;
	FileContainer *fc;
	const File *f;
	const uint8_t *p;
	uint32_t n;

	feed_str(s, 0, session);
	tx = smtp_tx_get(s, 0);
	fc = smtp_tx_files(tx, 0);
	CHECK(fc);
	CHECK(!smtp_tx_files(tx, 1));
	CHECK_EQ(fc->n, 1);
	f = files_first(fc);
	p = file_name(f, &n);
	CHECK(str_is(p, n, "report.pdf"));
	CHECK_EQ(file_state(f), FILE_STATE_CLOSED);
	CHECK_EQ(file_size(f), 11);
	p = file_kept_data(f, &n);
	CHECK(str_is(p, n, "hello world"));
	/* through the file.data buffer of SMTP rules */
	CHECK_EQ(file_buffer_get(&detect_buffers[BUF_FILE_DATA_SMTP], tx, 0, 0, &p, &n), 0);
	CHECK(str_is(p, n, "hello world"));
	CHECK_EQ(file_buffer_get(&detect_buffers[BUF_FILE_NAME_SMTP], tx, 0, 0, &p, &n), 0);
	CHECK(str_is(p, n, "report.pdf"));
	CHECK_EQ(file_buffer_get(&detect_buffers[BUF_FILE_NAME_SMTP], tx, 0, 1, &p, &n), -1);
	/* the text part is no file */
	smtp_state_free(s);
}

/* A plain attachment's last line break belongs to the boundary after it
 * (RFC 2046 5.1.1); the ones inside stay. Two attachments, two files. */
TEST(smtp_plain_attachments_end_before_the_boundary_crlf)
{
	SmtpState *s = pipelined_state();
	FileContainer *fc;
	const File *f;
	const uint8_t *p;
	uint32_t n;

	feed_str(s, 0, "EHLO a\r\nMAIL FROM:<a@b>\r\nRCPT TO:<c@d>\r\nDATA\r\n"
		       "Content-Type: multipart/mixed; boundary=B\r\n\r\n"
		       "--B\r\nContent-Disposition: attachment; filename=one.txt\r\n\r\n"
		       "line1\r\nline2\r\n"
		       "--B\r\nContent-Disposition: attachment; filename=\"two.txt\"\r\n\r\n"
		       "\r\n"
		       "--B--\r\n.\r\n");
	fc = smtp_tx_files(smtp_tx_get(s, 0), 0);
	CHECK_EQ(fc->n, 2);
	f = files_first(fc);
	p = file_kept_data(f, &n);
	CHECK(str_is(p, n, "line1\r\nline2"));
	CHECK_EQ(file_size(f), 12);
	f = file_next(f);
	p = file_name(f, &n);
	CHECK(str_is(p, n, "two.txt"));
	/* its one line was the empty line before the boundary: empty, closed */
	CHECK_EQ(file_size(f), 0);
	CHECK_EQ(file_state(f), FILE_STATE_CLOSED);
	smtp_state_free(s);
}

/* The flow ends inside an attachment: that file is TRUNCATED, with what came. */
TEST(smtp_attachment_cut_by_the_flow_end_is_truncated)
{
	SmtpState *s = pipelined_state();
	FileContainer *fc;
	const File *f;

	feed_str(s, 0, "EHLO a\r\nMAIL FROM:<a@b>\r\nRCPT TO:<c@d>\r\nDATA\r\n"
		       "Content-Type: multipart/mixed; boundary=B\r\n\r\n"
		       "--B\r\nContent-Disposition: attachment; filename=x.bin\r\n"
		       "Content-Transfer-Encoding: base64\r\n\r\n"
		       "aGVsbG8gd29y\r\n");
	smtp_eof(s, 0);
	fc = smtp_tx_files(smtp_tx_get(s, 0), 0);
	CHECK_EQ(fc->n, 1);
	f = files_first(fc);
	CHECK_EQ(file_state(f), FILE_STATE_TRUNCATED);
	CHECK_EQ(file_size(f), 9);
	smtp_state_free(s);
}

/* The base64 line an input ends in goes on as a piece, as Suricata's
 * parser hands on the data it has (suricata-verify mime/mime-stream-depth):
 * the file has those bytes before the line ends; not when the input began
 * in headers, nor after a line of it began "--" (a boundary maybe), nor a
 * trailing CR. */
TEST(smtp_base64_line_piece_reaches_the_file)
{
	static const char head[] = "EHLO a\r\nMAIL FROM:<a@b>\r\nRCPT TO:<c@d>\r\nDATA\r\n"
				   "Content-Type: multipart/mixed; boundary=B\r\n\r\n"
				   "--B\r\nContent-Disposition: attachment; filename=x.bin\r\n"
				   "Content-Transfer-Encoding: base64\r\n\r\n";
	SmtpState *s = pipelined_state();
	const File *f;

	/* this input began in the headers: its last line waits whole */
	{
		char first[sizeof(head) + 4];

		snprintf(first, sizeof(first), "%saGVs", head);
		feed_str(s, 0, first);
	}
	f = files_first(smtp_tx_files(smtp_tx_get(s, 0), 0));
	CHECK(!f || file_size(f) == 0);
	/* this one begins in the body: "aGVsbG8g" so far, 6 bytes */
	feed_str(s, 0, "bG8g");
	f = files_first(smtp_tx_files(smtp_tx_get(s, 0), 0));
	CHECK(f);
	CHECK_EQ(file_size(f), 6);
	/* a trailing CR stays for its LF; the line's end adds nothing */
	feed_str(s, 0, "d29y\r");
	CHECK_EQ(file_size(f), 9);
	feed_str(s, 0, "\nbGQ=\r\n--B--\r\n.\r\n");
	CHECK_EQ(file_state(f), FILE_STATE_CLOSED);
	CHECK_EQ(file_size(f), 11);
	smtp_state_free(s);

	/* a line of the input began "--": the rest goes line by line */
	s = pipelined_state();
	feed_str(s, 0, head);
	feed_str(s, 0, "aGVsbG8g\r\n");
	f = files_first(smtp_tx_files(smtp_tx_get(s, 0), 0));
	CHECK_EQ(file_size(f), 6);
	feed_str(s, 0, "--\r\nd29y");
	CHECK_EQ(file_size(f), 6);
	feed_str(s, 0, "bGQ=\r\n");
	CHECK_EQ(file_size(f), 11);
	smtp_state_free(s);
}

/* An unpadded last base64 quantum still gives its whole bytes to the file
 * (suricata-verify bug-6207-1); junk characters are skipped. */
TEST(smtp_attachment_unpadded_base64_tail_is_kept)
{
	SmtpState *s = pipelined_state();
	const File *f;
	const uint8_t *p;
	uint32_t n;

	feed_str(s, 0, "EHLO a\r\nMAIL FROM:<a@b>\r\nRCPT TO:<c@d>\r\nDATA\r\n"
		       "Content-Type: multipart/mixed; boundary=B\r\n\r\n"
		       "--B\r\nContent-Disposition: attachment; filename=t.bin\r\n"
		       "Content-Transfer-Encoding: base64\r\n\r\n"
		       "aGVs\r\nbG8g;*\r\naGk\r\n--B--\r\n.\r\n");
	f = files_first(smtp_tx_files(smtp_tx_get(s, 0), 0));
	CHECK(f);
	p = file_kept_data(f, &n);
	CHECK(str_is(p, n, "hello hi"));
	CHECK_EQ(file_state(f), FILE_STATE_CLOSED);
	smtp_state_free(s);
}

/* raw-extraction (with decode-mime off): the message as it came, dot-stuffing
 * undone and each line with its CRLF, is one file "rawmsg" */
TEST(smtp_raw_extraction_is_one_file_of_the_message)
{
	SmtpState *s;
	const File *f;
	const uint8_t *p;
	uint32_t n;

	smtp_config_defaults(&cfg);
	cfg.raw_extraction = 1;
	cfg.mime.decode_mime = 0;
	s = advertise_pipelining(smtp_state_new(&cfg));
	feed_str(s, 0, "EHLO a\r\nMAIL FROM:<a@b>\r\nRCPT TO:<c@d>\r\nDATA\r\n"
		       "Subject: x\r\n\r\n..dot\r\nbody\r\n.\r\n");
	f = files_first(smtp_tx_files(smtp_tx_get(s, 0), 0));
	CHECK(f);
	p = file_name(f, &n);
	CHECK(str_is(p, n, "rawmsg"));
	p = file_kept_data(f, &n);
	CHECK(str_is(p, n, "Subject: x\r\n\r\n.dot\r\nbody\r\n"));
	CHECK_EQ(file_state(f), FILE_STATE_CLOSED);
	CHECK(!file_next(f));
	smtp_state_free(s);
}

/* inspected-tracker.content-limit bounds what file.data sees, not the file */
TEST(smtp_content_limit_bounds_the_kept_bytes)
{
	SmtpState *s;
	const File *f;
	const uint8_t *p;
	uint32_t n;

	smtp_config_defaults(&cfg);
	cfg.content_limit = 4;
	s = smtp_state_new(&cfg);
	advertise_pipelining(s);
	feed_str(s, 0, session);
	f = files_first(smtp_tx_files(smtp_tx_get(s, 0), 0));
	p = file_kept_data(f, &n);
	CHECK(str_is(p, n, "hell"));
	CHECK_EQ(file_size(f), 11);
	smtp_state_free(s);
}

/* ---- through the app layer ---- */



typedef AppTestCtx Ctx;

static void ctx_init(Ctx *c, uint16_t dp)
{
	app_test_init(c, IPPROTO_TCP, "10.0.0.25", 40000, dp);
}

static void ctx_free(Ctx *c)
{
	app_test_free(c);
}

/* one packet of the flow, one direction's bytes */
static int pkt(Ctx *c, int dir, const void *p, size_t n)
{
	if (dir)
		c->f.pkts_toclient++;
	else
		c->f.pkts_toserver++;
	return app_layer_handle_data(c->at, &c->f, dir, p, (uint32_t)n, 0);
}

TEST(smtp_detected_by_ehlo_on_any_port)
{
	Ctx c;

	ctx_init(&c, 2600);
	pkt(&c, 1, "220 mx ESMTP\r\n", 14);  /* a banner off the ports says nothing */
	CHECK_EQ(c.f.app_proto, ALPROTO_UNKNOWN);
	pkt(&c, 0, "EHLO x\r\n", 8);
	CHECK_EQ(c.f.app_proto, ALPROTO_SMTP);
	CHECK_EQ(app_layer_tx_count(&c.f), 1);
	ctx_free(&c);
}

TEST(smtp_detected_by_banner_on_port_25)
{
	Ctx c;

	ctx_init(&c, 25);
	pkt(&c, 1, "220-mx\r\n", 8);
	CHECK_EQ(c.f.app_proto, ALPROTO_SMTP);
	ctx_free(&c);
	ctx_init(&c, 21);
	pkt(&c, 1, "220 ftp ready\r\n", 15);
	CHECK(c.f.app_proto != ALPROTO_SMTP);
	ctx_free(&c);
}

/* A TLS 1.2 ClientHello record (minimal: no extensions). */
static const uint8_t client_hello[] = {
	0x16, 0x03, 0x01, 0x00, 0x2d, 0x01, 0x00, 0x00, 0x29, 0x03, 0x03,
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
	0x00, 0x00, 0x02, 0x00, 0x2f, 0x01, 0x00,
};

TEST(smtp_starttls_changes_the_flow_to_tls)
{
	Ctx c;

	ctx_init(&c, 25);
	pkt(&c, 1, "220 mx\r\n", 8);
	pkt(&c, 0, "EHLO x\r\n", 8);
	pkt(&c, 1, "250 mx\r\n", 8);
	pkt(&c, 0, "STARTTLS\r\n", 10);
	pkt(&c, 1, "220 go\r\n", 8);
	/* this packet's detection and logging still see SMTP */
	CHECK_EQ(c.f.app_proto, ALPROTO_SMTP);
	CHECK_EQ(app_layer_tx_count(&c.f), 1);
	pkt(&c, 0, client_hello, sizeof(client_hello));
	CHECK_EQ(c.f.app_proto, ALPROTO_TLS);
	CHECK_EQ(c.f.app_proto_orig, ALPROTO_SMTP);
	/* the TLS tx is new to whoever walked the SMTP ones */
	CHECK_EQ(app_layer_tx_count(&c.f), 2);
	CHECK(!app_layer_tx_get(&c.f, 0));
	CHECK(app_layer_tx_get(&c.f, 1));
	CHECK_EQ(app_layer_tx_id(&c.f, app_layer_tx_get(&c.f, 1)), 1);
	CHECK(app_layer_tx_progress(&c.f, app_layer_tx_get(&c.f, 1), APP_DIR_TOSERVER) > 0);
	ctx_free(&c);
}

/* A change is checked by detection on the new bytes (Suricata 8): TLS
 * raises no packet event; an HTTP response after STARTTLS makes the flow
 * HTTP, with applayer_unexpected_protocol and no_tls_after_starttls, and
 * HTTP's own upgrade (101 h2c) is then refused on its tx
 * (http.failed_protocol_change: suricata-verify protocol-change-failed-event) */
TEST(smtp_starttls_change_checked_by_detection)
{
	static const char rsp[] = "HTTP/1.1 101\nUpgrade:h2c\n\n";
	Ctx c;
	void *tx;

	ctx_init(&c, 25);
	pkt(&c, 1, "220 mx\r\n", 8);
	pkt(&c, 0, "EHLO x\r\n", 8);
	pkt(&c, 1, "250 mx\r\n", 8);
	pkt(&c, 0, "STARTTLS\r\n", 10);
	pkt(&c, 1, "220 go\r\n", 8);
	app_layer_take_packet_events(&c.f);
	pkt(&c, 0, client_hello, sizeof(client_hello));
	CHECK_EQ(c.f.app_proto, ALPROTO_TLS);
	CHECK_EQ(app_layer_take_packet_events(&c.f), 0);
	ctx_free(&c);

	ctx_init(&c, 25);
	pkt(&c, 1, "220 mx\r\n", 8);
	pkt(&c, 0, "EHLO x\r\n", 8);
	pkt(&c, 1, "250 mx\r\n", 8);
	pkt(&c, 0, "STARTTLS\r\n", 10);
	pkt(&c, 1, "220 go\r\n", 8);
	app_layer_take_packet_events(&c.f);
	pkt(&c, 1, rsp, strlen(rsp));
	CHECK_EQ(c.f.app_proto, ALPROTO_HTTP1);
	CHECK_EQ(c.f.app_proto_orig, ALPROTO_SMTP);
	CHECK_EQ(c.f.app_proto_expect, ALPROTO_TLS);
	CHECK_EQ(app_layer_take_packet_events(&c.f),
		 APP_PEV_UNEXPECTED_PROTOCOL | APP_PEV_NO_TLS_AFTER_STARTTLS);
	tx = app_layer_tx_get(&c.f, app_layer_tx_count(&c.f) - 1);
	CHECK(tx);
	CHECK(app_layer_tx_has_event(&c.f, tx, app_layer_event_lookup(ALPROTO_HTTP1,
								      "failed_protocol_change")));
	/* the change ended with that parse: a later one may be made */
	CHECK(app_layer_proto_change_allowed(&c.f));
	ctx_free(&c);
}

/* Progress: headers once the message's header block ended (email.* rules
 * match mid-message: suricata-verify detect-email-cc), done at its end on
 * the request side, at the server's reply on the response side. */
TEST(smtp_progress_headers_then_done)
{
	Ctx c;
	void *tx;

	ctx_init(&c, 25);
	pkt(&c, 1, "220 mx\r\n", strlen("220 mx\r\n"));
	pkt(&c, 0, "EHLO x\r\n", strlen("EHLO x\r\n"));
	pkt(&c, 1, "250 PIPELINING\r\n", strlen("250 PIPELINING\r\n"));
	pkt(&c, 0, "MAIL FROM:<a@b>\r\nDATA\r\nCc: c@d\r\n", strlen("MAIL FROM:<a@b>\r\nDATA\r\nCc: c@d\r\n"));
	tx = app_layer_tx_get(&c.f, 0);
	CHECK(tx);
	CHECK_EQ(app_layer_tx_progress(&c.f, tx, APP_DIR_TOSERVER), 0);
	pkt(&c, 0, "\r\nbody\r\n", strlen("\r\nbody\r\n"));
	CHECK_EQ(app_layer_tx_progress(&c.f, tx, APP_DIR_TOSERVER), SMTP_PROGRESS_HEADERS);
	CHECK_EQ(app_layer_tx_progress(&c.f, tx, APP_DIR_TOCLIENT), SMTP_PROGRESS_HEADERS);
	pkt(&c, 0, ".\r\n", strlen(".\r\n"));
	/* the request side is done with the "."; the response side with the
	 * server's reply to it (Suricata 8.0.7) */
	CHECK_EQ(app_layer_tx_progress(&c.f, tx, APP_DIR_TOSERVER), SMTP_PROGRESS_DONE);
	CHECK_EQ(app_layer_tx_progress(&c.f, tx, APP_DIR_TOCLIENT), SMTP_PROGRESS_HEADERS);
	pkt(&c, 1, "250 ok\r\n354 go\r\n250 queued\r\n", strlen("250 ok\r\n354 go\r\n250 queued\r\n"));
	CHECK_EQ(app_layer_tx_progress(&c.f, tx, APP_DIR_TOCLIENT), SMTP_PROGRESS_DONE);
	ctx_free(&c);
}

/* The file logger (output/file-log.c) logs an attachment once it is over,
 * on a packet of its direction (toserver) or at the flow's end, as
 * Suricata's file logging (suricata-verify mime-dec-parse-long-filename01:
 * fileinfo at pcap_cnt 15, the smtp record at 14); an open one waits, and
 * the flow's end logs it TRUNCATED. No eve output here: the marks and the
 * return say what was logged. */
TEST(smtp_files_log_when_over_on_a_client_packet)
{
	SmtpState *s = pipelined_state();
	Outputs o;
	Flow f;
	Packet p;
	SmtpTx *tx;
	const File *fl;

	memset(&o, 0, sizeof(o));
	memset(&f, 0, sizeof(f));
	memset(&p, 0, sizeof(p));
	f.app_proto = ALPROTO_SMTP;
	feed_str(s, 0, session);
	tx = smtp_tx_get(s, 0);
	fl = files_first(smtp_tx_files(tx, 0));
	CHECK(fl);
	CHECK_EQ(file_state(fl), FILE_STATE_CLOSED);
	p.flags = PKT_TOCLIENT;
	CHECK_EQ(eve_files_log(&o, &eve_smtp_logger, &p, &f, tx, 0), 0);
	CHECK(!file_logged(fl));
	p.flags = PKT_TOSERVER;
	CHECK_EQ(eve_files_log(&o, &eve_smtp_logger, &p, &f, tx, 0), 1);
	CHECK(file_logged(fl));
	smtp_state_free(s);

	/* an attachment still open waits, whatever the packet; the flow's
	 * end logs it cut short */
	s = pipelined_state();
	feed_str(s, 0, "EHLO a\r\nMAIL FROM:<a@b>\r\nRCPT TO:<c@d>\r\nDATA\r\n"
		       "Content-Type: multipart/mixed; boundary=B\r\n\r\n"
		       "--B\r\nContent-Disposition: attachment; filename=x.bin\r\n"
		       "Content-Transfer-Encoding: base64\r\n\r\n"
		       "aGVsbG8gd29y\r\n");
	tx = smtp_tx_get(s, 0);
	fl = files_first(smtp_tx_files(tx, 0));
	CHECK_EQ(file_state(fl), FILE_STATE_OPEN);
	CHECK_EQ(eve_files_log(&o, &eve_smtp_logger, &p, &f, tx, 0), 0);
	CHECK(!file_logged(fl));
	p.flags = PKT_TOCLIENT;
	CHECK_EQ(eve_files_log(&o, &eve_smtp_logger, &p, &f, tx, 1), 1);
	CHECK(file_logged(fl));
	CHECK_EQ(file_state(fl), FILE_STATE_TRUNCATED);
	CHECK_EQ(file_size(fl), 9);
	smtp_state_free(s);
}

TEST(smtp_config_mime_options)
{
	AppLayerConfig ac;

	conf_deinit();
	CHECK_EQ(conf_set("app-layer.protocols.smtp.mime.header-value-depth", "-1"), 0);
	CHECK_EQ(app_layer_config_load(&ac), -1);
	conf_deinit();
	CHECK_EQ(conf_set("app-layer.protocols.smtp.mime.body-md5", "maybe"), 0);
	CHECK_EQ(app_layer_config_load(&ac), -1);
	conf_deinit();
	CHECK_EQ(conf_set("app-layer.protocols.smtp.mime.body-md5", "auto"), 0);
	CHECK_EQ(conf_set("app-layer.protocols.smtp.mime.header-value-depth", "100"), 0);
	CHECK_EQ(app_layer_config_load(&ac), 0);
	CHECK_EQ(smtp_config()->mime.header_value_depth, 100);
	CHECK(smtp_config()->mime.body_md5);
	conf_deinit();
	CHECK_EQ(app_layer_config_load(&ac), 0);
	CHECK_EQ(smtp_config()->mime.header_value_depth, 2000);
	CHECK(!smtp_config()->mime.body_md5);
}

/* The eve `- smtp:` options never stop the start, as Suricata's: an md5
 * name it does not know is skipped, a non-boolean extended is no. */
TEST(smtp_eve_options_are_lenient)
{
	uint32_t f = 0;
	char err[128] = "";

	conf_deinit();
	CHECK_EQ(conf_set("o.smtp.extended", "maybe"), 0);
	CHECK_EQ(conf_set("o.smtp.md5", "[body, header, subject]"), 0);
	CHECK_EQ(conf_set("o.smtp.custom", "[received, reply-to]"), 0);
	CHECK_EQ(eve_smtp_config_load(&f, "o.smtp", err, sizeof(err)), 0);
	CHECK_EQ(f, SMTP_LOG_MD5_BODY | SMTP_LOG_MD5_SUBJECT | SMTP_LOG_RECEIVED);
	conf_deinit();
	CHECK_EQ(conf_set("o.smtp.extended", "yes"), 0);
	CHECK_EQ(eve_smtp_config_load(&f, "o.smtp", err, sizeof(err)), 0);
	CHECK_EQ(f, SMTP_LOG_EXTENDED);
	conf_deinit();
}
