/* app-layer.memcap (app-mem.h): TLS, SMTP and SMB state counted
 * from the first allocation to the last free, new flows
 * refused at the cap, and the buffers an idle session used to hold. */
#include "test.h"
#include "app-test-util.h"

#include "app-layer/app-mem.h"
#include "app-layer/smb-parse.h"
#include "app-layer/tls-parse.h"
#include "conf/conf.h"

#include <stdlib.h>

static uint64_t ctr(const char *name)
{
	return counter_get(app_test_counters(), (counter_id)counter_lookup(name));
}

static void start(AppTestCtx *c, uint16_t dp)
{
	app_test_init(c, IPPROTO_TCP, "10.0.0.2", 40000, dp);
}

static int pkt(AppTestCtx *c, int dir, const void *p, size_t n)
{
	if (dir)
		c->f.pkts_toclient++;
	else
		c->f.pkts_toserver++;
	return app_layer_handle_data(c->at, &c->f, dir, p, (uint32_t)n, 0);
}

/* ---- TLS: a ClientHello, then a ServerHello and a Certificate ---- */

static const uint8_t client_hello[] = {
	0x16, 0x03, 0x01, 0x00, 0x2d, 0x01, 0x00, 0x00, 0x29, 0x03, 0x03,
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
	0x00, 0x00, 0x02, 0x00, 0x2f, 0x01, 0x00,
};

/* One record: a ServerHello (TLS 1.2, no extensions), then a Certificate
 * message holding one 600-byte "certificate" (a DER SEQUENCE header, then
 * filler: enough to be kept in the chain, not to decode). */
static size_t server_flight(uint8_t *out)
{
	size_t o = 5, rec;
	uint32_t der = 600, list = 3 + der, body = 3 + list;

	out[0] = 0x16, out[1] = 0x03, out[2] = 0x03;
	memcpy(out + o, "\x02\x00\x00\x26\x03\x03", 6);
	o += 6;
	memset(out + o, 0x55, 32);
	o += 32;
	memcpy(out + o, "\x00\x00\x2f\x00", 4);
	o += 4;
	out[o++] = 0x0b;
	out[o++] = (uint8_t)(body >> 16), out[o++] = (uint8_t)(body >> 8), out[o++] = (uint8_t)body;
	out[o++] = (uint8_t)(list >> 16), out[o++] = (uint8_t)(list >> 8), out[o++] = (uint8_t)list;
	out[o++] = (uint8_t)(der >> 16), out[o++] = (uint8_t)(der >> 8), out[o++] = (uint8_t)der;
	out[o++] = 0x30, out[o++] = 0x82, out[o++] = (uint8_t)((der - 4) >> 8),
	out[o++] = (uint8_t)(der - 4);
	memset(out + o, 0xab, der - 4);
	o += der - 4;
	rec = o - 5;
	out[3] = (uint8_t)(rec >> 8), out[4] = (uint8_t)rec;
	return o;
}

/* ---- SMB2: a NEGOTIATE request and its response, NBSS-framed ---- */

static size_t smb2_msg(uint8_t *out, int response, const uint8_t *body, size_t blen)
{
	uint8_t *h = out + 4;
	size_t len = 64 + blen;

	memset(out, 0, 4 + 64);
	out[1] = (uint8_t)(len >> 16), out[2] = (uint8_t)(len >> 8), out[3] = (uint8_t)len;
	memcpy(h, "\xfeSMB", 4);
	h[4] = 64;
	h[14] = 1;                  /* credits */
	h[16] = response ? 1 : 0;   /* SMB2_FLAGS_SERVER_TO_REDIR */
	memcpy(h + 64, body, blen);
	return 4 + len;
}

static size_t smb_negotiate_req(uint8_t *out)
{
	uint8_t b[36 + 4];

	memset(b, 0, sizeof(b));
	b[0] = 36;
	b[2] = 2;                   /* two dialects */
	b[36] = 0x02, b[37] = 0x02; /* 2.02 */
	b[38] = 0x10, b[39] = 0x02; /* 2.10 */
	return smb2_msg(out, 0, b, sizeof(b));
}

static size_t smb_negotiate_resp(uint8_t *out)
{
	uint8_t b[64 + 1];

	memset(b, 0, sizeof(b));
	b[0] = 65;
	b[4] = 0x10, b[5] = 0x02;   /* dialect 2.10 */
	return smb2_msg(out, 1, b, sizeof(b));
}

/* ---- SMTP: a mail opened and left in its first part ---- */

static const char smtp_client[] =
	"EHLO client.example\r\nMAIL FROM:<a@example.com>\r\nRCPT TO:<b@example.com>\r\n"
	"DATA\r\n";
static const char smtp_mail[] =
	"From: a@example.com\r\nTo: b@example.com\r\nSubject: open\r\n"
	"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"zz\"\r\n\r\n"
	"--zz\r\nContent-Type: text/plain\r\n\r\nsee http://www.example.com/a and";

static void smtp_open_mail(AppTestCtx *c)
{
	pkt(c, 1, "220 mx ESMTP\r\n", 14);
	pkt(c, 0, smtp_client, strlen(smtp_client));
	pkt(c, 1, "250 mx\r\n250 OK\r\n250 OK\r\n354 go\r\n", 32);
	pkt(c, 0, smtp_mail, strlen(smtp_mail));
}

static void setup(uint64_t cap)
{
	app_test_counters();
	app_mem_set_cap(cap);
}

/* issue 43: the gauges are exact, so that they can be summed with the
 * others and compared with RSS: every byte a flow's parser held is given
 * back when the flow ends, whatever state it ended in (mid-message,
 * mid-record) */
TEST(memuse_returns_to_zero_when_the_flows_end)
{
	AppTestCtx tls, smtp, smb;
	uint8_t buf[2048];
	size_t n;

	setup(0);
	start(&tls, 443);
	pkt(&tls, 0, client_hello, sizeof(client_hello));
	n = server_flight(buf);
	pkt(&tls, 1, buf, n - 100);     /* the certificate message is left open */
	CHECK_EQ(tls.f.app_proto, ALPROTO_TLS);
	CHECK(app_mem_use(ALPROTO_TLS) > sizeof(TlsState));

	start(&smtp, 25);
	smtp_open_mail(&smtp);
	CHECK_EQ(smtp.f.app_proto, ALPROTO_SMTP);
	CHECK(app_mem_use(ALPROTO_SMTP) > 0);

	start(&smb, 445);
	n = smb_negotiate_req(buf);
	pkt(&smb, 0, buf, n);
	n = smb_negotiate_resp(buf);
	pkt(&smb, 1, buf, n - 10);      /* the response is left half-read */
	CHECK_EQ(smb.f.app_proto, ALPROTO_SMB);
	CHECK(app_mem_use(ALPROTO_SMB) > 0);

	app_test_free(&tls);
	app_test_free(&smtp);
	app_test_free(&smb);
	CHECK_EQ(app_mem_use(ALPROTO_TLS), 0);
	CHECK_EQ(app_mem_use(ALPROTO_SMTP), 0);
	CHECK_EQ(app_mem_use(ALPROTO_SMB), 0);
	CHECK_EQ(app_mem_use_total(), 0);
}

/* Past the cap a new flow gets no parser and a running one is parsed no
 * further: the protocol's app_layer.error.<proto>.alloc counts it (the app
 * layer then applies app-layer.error-policy). */
TEST(memcap_refuses_new_flows_and_counts_them)
{
	AppTestCtx a, b, c;
	uint64_t refused = app_mem_refused(ALPROTO_TLS), alloc = ctr("app_layer.error.tls.alloc");

	setup(0);
	CHECK_EQ(conf_set("app-layer.memcap", "1"), 0);
	start(&a, 443);
	pkt(&a, 0, client_hello, sizeof(client_hello));
	CHECK_EQ(app_layer_tx_count(&a.f), 1);  /* under the cap when it came */
	start(&b, 443);
	pkt(&b, 0, client_hello, sizeof(client_hello));
	CHECK_EQ(b.f.app_proto, ALPROTO_TLS);
	CHECK_EQ(app_layer_tx_count(&b.f), 0);
	CHECK_EQ(app_mem_refused(ALPROTO_TLS), refused + 1);
	CHECK_EQ(ctr("app_layer.error.tls.alloc"), alloc + 1);
	/* the flow parsed before the cap was passed is parsed no further: its
	 * memory does not grow past the cap either */
	{
		uint8_t buf[2048];
		size_t n = server_flight(buf);
		uint64_t before = app_mem_use(ALPROTO_TLS);

		alloc = ctr("app_layer.error.tls.alloc");
		CHECK_EQ(pkt(&a, 1, buf, n), -1);
		CHECK_EQ(ctr("app_layer.error.tls.alloc"), alloc + 1);
		CHECK_EQ(app_mem_use(ALPROTO_TLS), before);
		CHECK_EQ(pkt(&a, 1, buf, n), -1);       /* counted once a flow */
		CHECK_EQ(ctr("app_layer.error.tls.alloc"), alloc + 1);
	}
	/* the cap is shared: SMTP is refused too */
	start(&c, 25);
	alloc = ctr("app_layer.error.smtp.alloc");
	pkt(&c, 1, "220 mx ESMTP\r\n", 14);
	CHECK_EQ(app_layer_tx_count(&c.f), 0);
	CHECK_EQ(ctr("app_layer.error.smtp.alloc"), alloc + 1);
	app_test_free(&a);
	app_test_free(&b);
	app_test_free(&c);
	CHECK_EQ(app_mem_use_total(), 0);
	/* memory back under the cap: new flows are parsed again */
	start(&b, 443);
	pkt(&b, 0, client_hello, sizeof(client_hello));
	CHECK_EQ(app_layer_tx_count(&b.f), 1);
	app_test_free(&b);
	CHECK_EQ(conf_set("app-layer.memcap", "64mb"), 0);
}

TEST(app_memcap_has_a_default_and_reads_the_yaml)
{
	AppLayerConfig cfg;

	CHECK_EQ(app_layer_config_load(&cfg), 0);
	CHECK_EQ(cfg.memcap, APP_MEMCAP_DEFAULT);
	CHECK_EQ(app_mem_cap(), APP_MEMCAP_DEFAULT);
	CHECK_EQ(conf_set("app-layer.memcap", "2mb"), 0);
	CHECK_EQ(app_layer_config_load(&cfg), 0);
	CHECK_EQ(cfg.memcap, 2ull << 20);
	CHECK_EQ(conf_set("app-layer.memcap", "lots"), 0);
	CHECK_EQ(app_layer_config_load(&cfg), -1);
	CHECK_EQ(conf_set("app-layer.memcap", "0"), 0);
	CHECK_EQ(app_layer_config_load(&cfg), 0);
	CHECK_EQ(app_mem_cap(), 0);
}

TEST(realloc_strdup_and_disown_keep_the_count_exact)
{
	char *s, *d;
	void *p;

	setup(0);
	p = app_mem_malloc(ALPROTO_SSH, 10);
	CHECK(app_mem_use(ALPROTO_SSH) >= 10);
	p = app_mem_realloc(ALPROTO_SSH, p, 5000);
	CHECK(app_mem_use(ALPROTO_SSH) >= 5000);
	s = app_mem_strndup(ALPROTO_SSH, "abcdef", 3);
	CHECK(strcmp(s, "abc") == 0);
	d = app_mem_strdup(ALPROTO_SSH, "xyz");
	app_mem_free(ALPROTO_SSH, p);
	app_mem_free(ALPROTO_SSH, s);
	free(app_mem_disown(ALPROTO_SSH, d));
	app_mem_free(ALPROTO_SSH, NULL);
	CHECK_EQ(app_mem_use(ALPROTO_SSH), 0);
	CHECK_EQ(app_mem_use_total(), 0);
}

/* issue 43: what an idle SMB session holds. A record that comes whole in
 * a segment is parsed in place; a buffer (the record's size) is held only
 * while one spans segments, and given back at its end. It used to start at
 * 4 KB and stay for the flow's life: 8 KB an idle session. */
TEST(smb_holds_no_buffer_between_records)
{
	uint8_t buf[2048];
	SmbState *smb = smb_state_new();
	size_t n;

	setup(0);
	n = smb_negotiate_req(buf);
	smb_parse(smb, 0, buf, n);
	CHECK(!smb->fr[0].buf);
	CHECK_EQ(smb->st.records, 1);
	smb_parse(smb, 0, buf, 30);
	CHECK(smb->fr[0].buf);
	CHECK_EQ(smb->fr[0].cap, n - 4); /* the record's size, not rounded up */
	smb_parse(smb, 0, buf + 30, n - 30);
	CHECK(!smb->fr[0].buf);
	CHECK_EQ(smb->st.records, 2);
	CHECK_EQ(smb->st.bad_records, 0);
	/* no SMB magic in a whole record: resynchronised, as when buffered */
	buf[4] = 'X';
	smb_parse(smb, 0, buf, n);
	CHECK_EQ(smb->st.bad_records, 1);
	CHECK(!smb->fr[0].buf);
	smb_state_free(smb);
	CHECK_EQ(app_mem_use(ALPROTO_SMB), 0);
}

/* issue 43: what an idle TLS handshake holds. A handshake message whole
 * in its record is parsed in place; one split across records or segments
 * is reassembled at its exact size and the buffer freed at its end. The
 * certificate chain is kept at its size. Before: a 1 KB buffer doubling to
 * the largest message, and a chain buffer doubled from 4 KB, both kept for
 * the flow's life (massif: 7 KB of a 17 KB session). */
TEST(tls_holds_no_handshake_buffer_between_messages)
{
	uint8_t buf[2048];
	TlsState *tls = tls_state_new();
	size_t n = server_flight(buf);

	setup(0);
	tls_parse(tls, 1, buf, n);
	CHECK(tls->flags & TLS_F_CERT_SERVER);
	CHECK(!tls->dir[1].hs);
	CHECK_EQ(tls->certs[1].n, 1);
	CHECK_EQ(tls->certs[1].cap, 600);       /* the chain at its size */
	tls_state_free(tls);
	tls = tls_state_new();
	tls_parse(tls, 1, buf, 300);            /* the certificate message split */
	CHECK(tls->dir[1].hs);
	tls_parse(tls, 1, buf + 300, n - 300);
	CHECK(tls->flags & TLS_F_CERT_SERVER);
	CHECK_EQ(tls->certs[1].n, 1);
	CHECK(!tls->dir[1].hs);
	tls_state_free(tls);
	CHECK_EQ(app_mem_use(ALPROTO_TLS), 0);
}

/* issue 43: an open mail's MIME decoder held 9 KB (every header, URL,
 * attachment and boundary list and the text line buffer at their largest,
 * from the first byte); the lists now grow as the mail fills them */
TEST(smtp_open_mail_costs_what_it_holds)
{
	AppTestCtx c;

	setup(0);
	start(&c, 25);
	smtp_open_mail(&c);
	CHECK_EQ(app_layer_tx_count(&c.f), 1);
	CHECK(app_mem_use(ALPROTO_SMTP) > 0);
	CHECK(app_mem_use(ALPROTO_SMTP) < 4096);
	app_test_free(&c);
	CHECK_EQ(app_mem_use(ALPROTO_SMTP), 0);
}

/* Detection's per-transaction state (a bit pair per rule of the protocol)
 * is counted as the protocol's, as HTTP counts it in http.memuse, and
 * given back with the transaction. */
TEST(detect_state_counts_as_the_protocols)
{
	AppTestCtx c;
	uint64_t before;
	void *tx;

	setup(0);
	app_layer_set_detect_state_free(free);
	start(&c, 443);
	pkt(&c, 0, client_hello, sizeof(client_hello));
	tx = app_layer_tx_get(&c.f, 0);
	CHECK(tx);
	before = app_mem_use(ALPROTO_TLS);
	CHECK(app_layer_tx_detect_alloc(&c.f, tx, 3000));
	CHECK(app_mem_use(ALPROTO_TLS) >= before + 3000);
	app_test_free(&c);
	CHECK_EQ(app_mem_use(ALPROTO_TLS), 0);
	app_layer_set_detect_state_free(NULL);
}
