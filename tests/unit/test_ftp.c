/* FTP and ftp-data: the control-connection parser (app-layer/ftp-parse.h),
 * the registry entries through the generic app layer (ftp-proto.c,
 * ftp-data-proto.c) with the expectations that label data flows
 * (expect.h), and the keywords' buffers and rule options
 * (detect/ftp-kw.c). */
#include "config.h"
#include "test.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>

#include "app-layer/app-layer.h"
#include "app-layer/expect.h"
#include "app-layer/ftp.h"
#include "detect/buffers.h"
#include "detect/detect-parse.h"
#include "app-test-util.h"

static int nseen;

static void count_tx(void *arg, FtpState *s, FtpTx *tx, int dir)
{
	(void)arg;
	(void)s;
	(void)tx;
	(void)dir;
	nseen++;
}

static void put(FtpState *s, int dir, const char *text, size_t step)
{
	size_t n = strlen(text);

	for (size_t o = 0; o < n; o += step)
		ftp_parse(s, dir, (const uint8_t *)text + o, n - o < step ? n - o : step, count_tx, NULL);
}

static FtpTx *tx_at(FtpState *s, unsigned i)
{
	FtpTx *t = s->head;

	while (t && i--)
		t = t->next;
	return t;
}

TEST(ftp_greeting_commands_and_replies_pair_up)
{
	for (size_t step = 1; step < 64; step += 7) {
		FtpState *s = ftp_state_new(0, 0);
		FtpTx *t;

		put(s, FTP_TOCLIENT, "220-Welcome\r\n220-to the box\r\n220 ready\r\n", step);
		put(s, FTP_TOSERVER, "USER anonymous\r\nPASS x@y\r\n", step);
		put(s, FTP_TOCLIENT, "331 Please specify the password.\r\n230 Login successful.\r\n", step);
		CHECK_EQ(s->ntx, 3);
		t = tx_at(s, 0);
		CHECK(!t->has_request);
		CHECK_EQ(t->nreplies, 3);
		CHECK_STREQ(t->replies[1].text, "to the box");
		CHECK_STREQ(t->replies[2].code, "220");
		CHECK(t->done);
		t = tx_at(s, 1);
		CHECK_STREQ(t->cmd_name, "USER");
		CHECK_STREQ(t->cmd_data, "anonymous");
		CHECK_EQ(t->nreplies, 1);
		CHECK_STREQ(t->replies[0].text, "Please specify the password.");
		CHECK(t->done);
		CHECK_STREQ(tx_at(s, 2)->replies[0].code, "230");
		ftp_state_free(s);
	}
}

TEST(ftp_preliminary_reply_keeps_the_tx_open)
{
	FtpState *s = ftp_state_new(0, 0);
	FtpTx *t;

	put(s, FTP_TOSERVER, "RETR temp.txt\r\n", 100);
	put(s, FTP_TOCLIENT, "150 Opening BINARY mode data connection\r\n", 100);
	t = s->head;
	CHECK(!t->done);
	put(s, FTP_TOCLIENT, "226 Transfer complete.\r\n", 100);
	CHECK(t->done);
	CHECK_EQ(t->nreplies, 2);
	CHECK_STREQ(t->replies[1].text, "Transfer complete.");
	ftp_state_free(s);
}

TEST(ftp_pipelined_commands_get_replies_in_order)
{
	FtpState *s = ftp_state_new(0, 0);

	put(s, FTP_TOSERVER, "TYPE I\r\nSIZE a.bin\nMDTM a.bin\r\n", 100);
	put(s, FTP_TOCLIENT, "200 ok\r\n213 1024\r\n213 20200101000000\r\n", 100);
	CHECK_EQ(s->ntx, 3);
	CHECK_STREQ(tx_at(s, 1)->cmd_data, "a.bin");    /* a bare LF ends a line too */
	CHECK_STREQ(tx_at(s, 1)->replies[0].text, "1024");
	CHECK_STREQ(tx_at(s, 2)->replies[0].code, "213");
	/* a lower-case command has its canonical name; an unknown one none */
	put(s, FTP_TOSERVER, "quit\r\nXYZZY 1\r\n", 100);
	CHECK_STREQ(tx_at(s, 3)->cmd_name, "QUIT");
	CHECK(!tx_at(s, 4)->cmd_name);
	CHECK(tx_at(s, 4)->has_request);
	ftp_state_free(s);
}

TEST(ftp_data_ports_and_modes)
{
	FtpState *s = ftp_state_new(0, 0);
	uint8_t a[16], fam = 0;

	put(s, FTP_TOSERVER, "PORT 192,168,0,13,234,10\r\n", 100);
	CHECK_EQ(s->head->dyn_port, 234 * 256 + 10);
	CHECK_EQ(s->head->mode, FTP_MODE_ACTIVE);
	CHECK_EQ(s->head->port_addr[3], 13);
	put(s, FTP_TOCLIENT, "200 PORT command successful.\r\n", 100);
	put(s, FTP_TOSERVER, "PASV\r\n", 100);
	put(s, FTP_TOCLIENT, "227 Entering Passive Mode (10,0,0,1,195,80).\r\n", 100);
	CHECK_EQ(tx_at(s, 1)->dyn_port, 195 * 256 + 80);
	CHECK_EQ(tx_at(s, 1)->mode, FTP_MODE_PASSIVE);
	put(s, FTP_TOSERVER, "EPSV\r\n", 100);
	put(s, FTP_TOCLIENT, "229 Entering Extended Passive Mode (|||58612|)\r\n", 100);
	CHECK_EQ(tx_at(s, 2)->dyn_port, 58612);
	put(s, FTP_TOSERVER, "EPRT |1|132.235.1.2|6275|\r\n", 100);
	CHECK_EQ(tx_at(s, 3)->dyn_port, 6275);
	CHECK_EQ(tx_at(s, 3)->port_addr_family, 4);
	CHECK_EQ(tx_at(s, 3)->port_addr[0], 132);
	CHECK_EQ(ftp_parse_eprt("|2|::1|5282|", 12, a, &fam), 5282);
	CHECK_EQ(fam, 6);
	CHECK_EQ(ftp_parse_eprt("|1|1.2.3|5|", 11, a, &fam), 0);
	CHECK_EQ(ftp_parse_port6("1,2,3,4,5", 9, a), 0);
	CHECK_EQ(ftp_parse_port6("1,2,3,4,256,1", 13, a), 0);
	CHECK_EQ(ftp_parse_epsv("(|||x|)", 7), 0);
	ftp_state_free(s);
}

TEST(ftp_long_lines_are_truncated_with_an_event)
{
	FtpState *s = ftp_state_new(64, 0);
	char line[200];

	memcpy(line, "RETR ", 5);
	memset(line + 5, 'a', 150);
	memcpy(line + 155, "\r\n", 3);
	put(s, FTP_TOSERVER, line, 7);
	put(s, FTP_TOSERVER, "RETR index.html\r\n", 7);
	CHECK_EQ(s->ntx, 2);
	CHECK(s->head->cmd_truncated);
	CHECK_EQ(s->head->cmd_data_len, 64 - 5);
	CHECK(s->head->events & (1u << FTP_EV_REQUEST_TOO_LONG));
	CHECK(!tx_at(s, 1)->cmd_truncated);
	CHECK_STREQ(tx_at(s, 1)->cmd_data, "index.html");
	CHECK_EQ(ftp_event_by_name("response_command_too_long"), FTP_EV_RESPONSE_TOO_LONG);
	/* the transfer events of ftp-proto.c (8.0.6's names) */
	CHECK_EQ(ftp_event_by_name("file_before_port"), FTP_EV_FILE_BEFORE_PORT);
	CHECK_EQ(ftp_event_by_name("file_without_name"), FTP_EV_FILE_WITHOUT_NAME);
	CHECK_STREQ(ftp_event_name(FTP_EV_FILE_BEFORE_PORT), "file_before_port");
	ftp_state_free(s);
}

TEST(ftp_max_tx_bounds_unanswered_commands)
{
	FtpState *s = ftp_state_new(0, 3);

	put(s, FTP_TOSERVER, "NOOP\r\nNOOP\r\nNOOP\r\nNOOP\r\nNOOP\r\n", 100);
	CHECK_EQ(s->ntx, 3);
	/* Suricata 8.0.6: the oldest waiting command gets the event, and the
	 * parser stops (redmine 8489) */
	CHECK(s->head->events & (1u << FTP_EV_TOO_MANY_TX));
	CHECK(!(s->tail->events & (1u << FTP_EV_TOO_MANY_TX)));
	CHECK(s->stopped);
	put(s, FTP_TOCLIENT, "200 ok\r\n", 100);
	CHECK(!s->head->done);
	put(s, FTP_TOSERVER, "CWD /\r\n", 100);
	CHECK_EQ(s->ntx, 3);
	ftp_state_free(s);
	/* answered commands do not count: max_tx bounds the ones waiting */
	s = ftp_state_new(0, 1);
	put(s, FTP_TOCLIENT, "220 hi\r\n", 100);
	put(s, FTP_TOSERVER, "USER a\r\n", 100);
	put(s, FTP_TOCLIENT, "331 pw\r\n", 100);
	put(s, FTP_TOSERVER, "PASS b\r\n", 100);
	put(s, FTP_TOCLIENT, "230 in\r\n", 100);
	CHECK_EQ(s->ntx, 3);
	CHECK_EQ(s->nwaiting, 0);
	CHECK(!s->stopped);
	put(s, FTP_TOSERVER, "PWD\r\nPWD\r\n", 100);
	CHECK_EQ(s->ntx, 4);
	CHECK(s->tail->events & (1u << FTP_EV_TOO_MANY_TX));
	CHECK(s->stopped);
	ftp_state_free(s);
	/* an unsolicited reply joins the newest transaction */
	s = ftp_state_new(0, 0);
	put(s, FTP_TOCLIENT, "220 hi\r\n421 Timeout.\r\n", 100);
	CHECK_EQ(s->ntx, 1);
	CHECK_EQ(s->head->nreplies, 2);
	CHECK_STREQ(s->head->replies[1].code, "421");
	ftp_state_free(s);
}

static int ftp_done(const FtpTx *t, unsigned need)
{
	(void)need;
	return t->done;
}

/* ftp_tx_by_id resumes from its last find: ids asked in any order, and
 * after a gc freed the one it found last, still give the live tx or NULL
 * (under ASan: never the freed one). */
TEST(ftp_tx_by_id_in_any_order_and_after_gc)
{
	FtpState *s = ftp_state_new(0, 0);
	unsigned wrong = 0;

	put(s, FTP_TOSERVER, "NOOP\r\nNOOP\r\nNOOP\r\nNOOP\r\nNOOP\r\nNOOP\r\n", 100);
	CHECK_EQ(s->ntx, 6);
	for (unsigned i = 0; i < 6; i++)
		wrong += ftp_tx_by_id(s, tx_at(s, i)->id) != tx_at(s, i);
	for (unsigned i = 6; i-- > 0;)
		wrong += ftp_tx_by_id(s, tx_at(s, i)->id) != tx_at(s, i);
	CHECK_EQ(wrong, 0);
	CHECK(ftp_tx_by_id(s, s->next_id) == NULL);
	/* the first three answered (the last of them stays: ftp_gc keeps
	 * the one the last reply completed); the last find is freed */
	put(s, FTP_TOCLIENT, "200 a\r\n200 b\r\n200 c\r\n", 100);
	CHECK(ftp_tx_by_id(s, 1) == tx_at(s, 1));
	put(s, FTP_TOSERVER, "NOOP\r\n", 100);
	CHECK_EQ(ftp_gc(s, ftp_done, 0), 2);
	CHECK(ftp_tx_by_id(s, 1) == NULL);
	CHECK(ftp_tx_by_id(s, 2) == s->head);
	CHECK(ftp_tx_by_id(s, 6) == s->tail);
	CHECK(ftp_tx_by_id(s, 0) == NULL);
	ftp_state_free(s);
}

TEST(ftp_probe_patterns)
{
	CHECK_EQ(ftp_probe(FTP_TOSERVER, (const uint8_t *)"user bob\r\n", 10), 1);
	CHECK_EQ(ftp_probe(FTP_TOSERVER, (const uint8_t *)"FEAT\r\n", 6), 1);
	CHECK_EQ(ftp_probe(FTP_TOSERVER, (const uint8_t *)"US", 2), -1);
	CHECK_EQ(ftp_probe(FTP_TOSERVER, (const uint8_t *)"GET / HTTP/1.1", 14), 0);
	CHECK_EQ(ftp_probe(FTP_TOCLIENT, (const uint8_t *)"220 (vsFTPd 3.0.3)\r\n", 20), 1);
	/* a plain greeting does not say FTP: the client's command will */
	CHECK_EQ(ftp_probe(FTP_TOCLIENT, (const uint8_t *)"220 Welcome\r\n", 13), 0);
}

/* ---- through the app layer: expectations ---- */


static void mkflow(Flow *f, const char *src, uint16_t sp, const char *dst, uint16_t dp, time_t t)
{
	memset(f, 0, sizeof(*f));
	f->proto = 6;
	f->ip_version = 4;
	f->src.family = f->dst.family = AF_INET;
	inet_pton(AF_INET, src, &f->src.a.u32[0]);
	inet_pton(AF_INET, dst, &f->dst.a.u32[0]);
	f->sp = sp;
	f->dp = dp;
	f->start.tv_sec = f->last.tv_sec = t;
}

static int send_str(AppLayerThread *at, Flow *f, int dir, const char *s)
{
	return app_layer_handle_data(at, f, dir, (const uint8_t *)s, (uint32_t)strlen(s), 0);
}

TEST(ftp_passive_retr_labels_the_data_flow)
{
	AppLayerConfig cfg;
	AppLayerThread *at;
	Flow ctl, data, other;
	void *tx;
	const FtpDataInfo *di;

	expect_clear();
	app_layer_config_load(&cfg);
	at = app_layer_thread_new(&cfg, app_test_counters());
	mkflow(&ctl, "10.0.0.1", 40000, "10.0.0.2", 21, 1000);
	send_str(at, &ctl, APP_DIR_TOSERVER, "USER bob\r\n");
	CHECK_EQ(ctl.app_proto, ALPROTO_FTP);
	send_str(at, &ctl, APP_DIR_TOCLIENT, "331 pw\r\n");
	send_str(at, &ctl, APP_DIR_TOSERVER, "PASV\r\n");
	send_str(at, &ctl, APP_DIR_TOCLIENT, "227 Entering Passive Mode (10,0,0,2,19,137).\r\n");
	CHECK_EQ(expect_count(), 0);      /* a port alone announces nothing */
	send_str(at, &ctl, APP_DIR_TOSERVER, "RETR secret.tar.gz\r\n");
	CHECK_EQ(expect_count(), 1);
	/* ftp.memuse holds the expectation's data while it waits */
	CHECK(counter_lookup("ftp.memuse") >= 0);
	CHECK(counter_get(app_test_counters(), (counter_id)counter_lookup("ftp.memuse")) >=
	      sizeof("secret.tar.gz"));
	/* another port between the same hosts: detection as usual */
	mkflow(&other, "10.0.0.1", 40002, "10.0.0.2", 5002, 1001);
	send_str(at, &other, APP_DIR_TOCLIENT, "hello");
	CHECK(other.app_proto != ALPROTO_FTPDATA);
	CHECK_EQ(expect_count(), 1);
	mkflow(&data, "10.0.0.1", 40001, "10.0.0.2", 19 * 256 + 137, 1001);
	CHECK_EQ(app_layer_handle_data(at, &data, APP_DIR_TOCLIENT, (const uint8_t *)"\x1f\x8b\x08", 3, 0), 0);
	CHECK_EQ(data.app_proto, ALPROTO_FTPDATA);
	CHECK_EQ(expect_count(), 0);      /* used once */
	tx = app_layer_tx_get(&data, 0);
	di = ftpdata_tx_info(tx);
	CHECK(di);
	CHECK_STREQ(di->filename, "secret.tar.gz");
	CHECK_EQ(di->cmd, FTP_CMD_RETR);
	CHECK_EQ(di->size, 3);
	CHECK_STREQ(ftpdata_cmd_name(di->cmd), "RETR");
	CHECK_EQ(app_layer_tx_progress(&data, tx, APP_DIR_TOCLIENT), 0);
	app_layer_handle_data(at, &data, APP_DIR_TOCLIENT, NULL, 0, APP_EOF);
	app_layer_handle_data(at, &data, APP_DIR_TOSERVER, NULL, 0, APP_EOF);
	CHECK_EQ(app_layer_tx_progress(&data, tx, APP_DIR_TOCLIENT), 1);
	CHECK_STREQ(app_proto_name(ALPROTO_FTPDATA), "ftp-data");
	CHECK_EQ(app_proto_by_name("ftp-data"), ALPROTO_FTPDATA);
	app_layer_flow_free(&ctl);
	app_layer_flow_free(&data);
	app_layer_flow_free(&other);
	/* ... and gives it back with the data flow's transaction */
	CHECK_EQ(counter_get(app_test_counters(), (counter_id)counter_lookup("ftp.memuse")), 0);
	app_layer_thread_free(at);
}

TEST(ftp_active_stor_from_the_server_side_and_bounce)
{
	AppLayerConfig cfg;
	AppLayerThread *at;
	Flow ctl, data;
	FtpTx *t;

	expect_clear();
	app_layer_config_load(&cfg);
	at = app_layer_thread_new(&cfg, app_test_counters());
	mkflow(&ctl, "10.0.0.1", 40000, "10.0.0.2", 21, 2000);
	send_str(at, &ctl, APP_DIR_TOSERVER, "PORT 10,0,0,1,200,1\r\n");
	CHECK_EQ(ctl.app_proto, ALPROTO_FTP);
	t = app_layer_tx_get(&ctl, 0);
	CHECK(t);
	CHECK(!t->bounce);
	send_str(at, &ctl, APP_DIR_TOCLIENT, "200 ok\r\n");
	send_str(at, &ctl, APP_DIR_TOSERVER, "STOR up.txt\r\n");
	CHECK_EQ(expect_count(), 1);
	/* the server connects back from port 20 */
	mkflow(&data, "10.0.0.2", 20, "10.0.0.1", 200 * 256 + 1, 2001);
	send_str(at, &data, APP_DIR_TOCLIENT, "file body");
	CHECK_EQ(data.app_proto, ALPROTO_FTPDATA);
	CHECK_EQ(ftpdata_tx_info(app_layer_tx_get(&data, 0))->cmd, FTP_CMD_STOR);
	/* a PORT naming a third host: ftpbounce */
	send_str(at, &ctl, APP_DIR_TOSERVER, "PORT 192,0,2,7,0,80\r\n");
	t = app_layer_tx_get(&ctl, 2);
	CHECK(t && t->cmd == FTP_CMD_PORT);
	CHECK(t->bounce);
	CHECK_EQ(t->dyn_port, 80);
	app_layer_flow_free(&ctl);
	app_layer_flow_free(&data);
	app_layer_thread_free(at);
}

TEST(expectations_expire_and_stay_bounded)
{
	Flow f, late;
	struct timeval now = { .tv_sec = 5000 };
	uint16_t alproto;
	void *data;
	void (*dfree)(void *);
	uint64_t m0, e0, d0, m, e, d;

	expect_clear();
	expect_stats(&m0, &e0, &d0);
	mkflow(&f, "10.1.0.1", 1, "10.1.0.2", 21, 5000);
	CHECK_EQ(expect_add(NULL, &f, 3000, ALPROTO_FTPDATA, NULL, NULL, &now), 0);
	mkflow(&late, "10.1.0.2", 20, "10.1.0.1", 3000, 5000 + EXPECT_LIFETIME + 1);
	CHECK_EQ(expect_take(NULL, &late, &alproto, &data, &dfree), 0);
	expect_stats(&m, &e, &d);
	CHECK_EQ(e - e0, 1);
	CHECK_EQ(expect_count(), 0);
	/* one more than the table holds: the oldest goes */
	for (unsigned i = 0; i <= EXPECT_MAX; i++)
		CHECK_EQ(expect_add(NULL, &f, (uint16_t)(1000 + i), ALPROTO_FTPDATA, NULL, NULL, &now), 0);
	CHECK_EQ(expect_count(), EXPECT_MAX);
	expect_stats(&m, &e, &d);
	CHECK_EQ(d - d0, 1);
	mkflow(&late, "10.1.0.1", 9, "10.1.0.2", 1000, 5001);
	CHECK_EQ(expect_take(NULL, &late, &alproto, &data, &dfree), 0);   /* dropped */
	late.dp = 1001;
	CHECK_EQ(expect_take(NULL, &late, &alproto, &data, &dfree), 1);
	CHECK_EQ(alproto, ALPROTO_FTPDATA);
	/* UDP flows never match */
	late.dp = 1002;
	late.proto = 17;
	CHECK_EQ(expect_take(NULL, &late, &alproto, &data, &dfree), 0);
	expect_clear();
	CHECK_EQ(expect_count(), 0);
}

/* ---- keywords ---- */

TEST(ftp_rule_keywords_load_and_reject)
{
	int l, f, r;

	r = test_load_rules(
		"alert ftp any any -> any any (ftp.command; content:\"USER\"; ftp.command_data; content:\"anon\"; sid:1;)\n"
		"alert ftp any any -> any any (flow:to_client; ftp.reply; content:\"Goodbye\"; sid:2;)\n"
		"alert ftp any any -> any any (ftp.completion_code; content:\"226\"; sid:3;)\n"
		"alert ftp any any -> any any (ftp.dynamic_port:>1024; sid:4;)\n"
		"alert ftp any any -> any any (ftp.mode:passive; sid:5;)\n"
		"alert ftp any any -> any any (ftp.reply_received:no; sid:6;)\n"
		"alert tcp any any -> any 21 (content:\"PORT\"; ftpbounce; sid:7;)\n"
		"alert ftp-data any any -> any any (ftpdata_command:stor; sid:8;)\n"
		"alert tcp any any -> any any (app-layer-protocol:ftp-data; sid:9;)\n",
		&l, &f, NULL);
	CHECK_EQ(r, 0);
	CHECK_EQ(l, 9);
	test_load_rules("alert ftp any any -> any any (ftp.mode:sideways; sid:1;)\n"
			"alert ftp any any -> any any (ftp.reply_received:maybe; sid:2;)\n"
			"alert http any any -> any any (ftp.command; content:\"x\"; sid:3;)\n"
			"alert ftp any any -> any any (ftpdata_command:list; sid:4;)\n"
			"alert ftp any any -> any any (ftp.dynamic_port:70000; sid:5;)\n",
			&l, &f, NULL);
	CHECK_EQ(l, 0);
	CHECK_EQ(f, 5);
}

TEST(ftp_keyword_buffers)
{
	FtpState *s = ftp_state_new(0, 0);
	const uint8_t *d;
	uint32_t len;
	FtpTx *t;

	put(s, FTP_TOSERVER, "retr a.txt\r\n", 100);
	put(s, FTP_TOCLIENT, "150 opening\r\n226-done\r\nmore\r\n226 bye\r\n", 100);
	t = s->head;
	CHECK_EQ(ftp_buffer_get(detect_buffer(BUF_FTP_COMMAND), t, APP_DIR_TOSERVER, 0, &d, &len), 0);
	CHECK_EQ(len, 4);
	CHECK_EQ(memcmp(d, "RETR", 4), 0);
	CHECK_EQ(ftp_buffer_get(detect_buffer(BUF_FTP_COMMAND_DATA), t, APP_DIR_TOSERVER, 0, &d, &len), 0);
	CHECK_EQ(len, 5);
	CHECK_EQ(ftp_buffer_get(detect_buffer(BUF_FTP_REPLY), t, APP_DIR_TOCLIENT, 2, &d, &len), 0);
	CHECK_EQ(len, 4);
	CHECK_EQ(memcmp(d, "more", 4), 0);
	CHECK_EQ(ftp_buffer_get(detect_buffer(BUF_FTP_REPLY), t, APP_DIR_TOCLIENT, 4, &d, &len), -1);
	/* the line without a code has no completion code */
	CHECK_EQ(ftp_buffer_get(detect_buffer(BUF_FTP_COMPLETION_CODE), t, APP_DIR_TOCLIENT, 2, &d, &len), 0);
	CHECK_EQ(memcmp(d, "226", 3), 0);
	CHECK_EQ(ftp_buffer_get(detect_buffer(BUF_FTP_COMPLETION_CODE), t, APP_DIR_TOCLIENT, 3, &d, &len), -1);
	CHECK(detect_buffer(BUF_FTP_REPLY)->multi);
	ftp_state_free(s);
}

/* ---- ftp-data transfers as files (ftp-data-proto.c) ---- */

#include "app-layer/app-layer-int.h"
#include "app-layer/files.h"

static void *data_flow(const char *name, uint8_t cmd)
{
	FtpDataInfo *di = calloc(1, sizeof(*di));
	void *st = ftpdata_proto_ops.state_new(NULL, NULL);

	di->cmd = cmd;
	di->filename = strdup(name);
	di->filename_len = (uint32_t)strlen(name);
	ftpdata_proto_ops.expect_attach(st, di, NULL);
	return st;
}

static void data_flow_free(void *st)
{
	const FtpDataInfo *di = ftpdata_tx_info(st);

	free(di->filename);
	free((void *)di);
	ftpdata_proto_ops.state_free(st);
}

TEST(ftpdata_transfer_is_a_file_on_its_side)
{
	void *st = data_flow("a.txt", FTP_CMD_RETR);
	FileContainer *fc;
	const File *f;
	const uint8_t *p;
	uint32_t n;

	CHECK_EQ(ftpdata_proto_ops.parse(NULL, NULL, st, 1, (const uint8_t *)"hello ", 6, 0), 0);
	CHECK_EQ(ftpdata_proto_ops.parse(NULL, NULL, st, 1, (const uint8_t *)"world", 5, APP_EOF), 0);
	CHECK_EQ(files_of_tx(ALPROTO_FTPDATA, st, 0, 0)->n, 0);
	fc = files_of_tx(ALPROTO_FTPDATA, st, 1, 0);
	CHECK_EQ(fc->n, 1);
	f = files_first(fc);
	p = file_name(f, &n);
	CHECK(n == 5 && !memcmp(p, "a.txt", 5));
	CHECK_EQ(file_state(f), FILE_STATE_CLOSED);
	CHECK_EQ(file_size(f), 11);
	CHECK_EQ(file_buffer_get(&detect_buffers[BUF_FILE_DATA_FTPDATA], st, 1, 0, &p, &n), 0);
	CHECK(n == 11 && !memcmp(p, "hello world", 11));
	CHECK_EQ(file_buffer_get(&detect_buffers[BUF_FILE_DATA_FTPDATA], st, 0, 0, &p, &n), -1);
	CHECK_EQ(ftpdata_tx_info(st)->size, 11);
	data_flow_free(st);
}

TEST(ftpdata_transfer_cut_short_is_truncated)
{
	void *st = data_flow("b.bin", FTP_CMD_STOR);
	const File *f;

	/* a gap: truncated at the close, the missing bytes counted */
	ftpdata_proto_ops.parse(NULL, NULL, st, 0, (const uint8_t *)"abc", 3, 0);
	ftpdata_proto_ops.parse(NULL, NULL, st, 0, NULL, 100, APP_GAP);
	ftpdata_proto_ops.parse(NULL, NULL, st, 0, (const uint8_t *)"z", 1, APP_EOF);
	f = files_first(files_of_tx(ALPROTO_FTPDATA, st, 0, 0));
	CHECK_EQ(file_state(f), FILE_STATE_TRUNCATED);
	CHECK(file_has_gaps(f));
	CHECK_EQ(file_size(f), 104);
	data_flow_free(st);
	/* the flow ended before the side closed */
	st = data_flow("c.bin", FTP_CMD_STOR);
	ftpdata_proto_ops.parse(NULL, NULL, st, 0, (const uint8_t *)"abc", 3, 0);
	f = files_first(files_of_tx(ALPROTO_FTPDATA, st, 0, 0));
	CHECK_EQ(file_state(f), FILE_STATE_OPEN);
	f = files_first(files_of_tx(ALPROTO_FTPDATA, st, 0, 1));
	CHECK_EQ(file_state(f), FILE_STATE_TRUNCATED);
	data_flow_free(st);
}
