/* POP3: the parser (app-layer/pop3-parse.h) at every segmentation, its
 * registry entry through the generic app layer (pop3-proto.c: detection
 * on its port, the switch to TLS after STLS) and the eve object
 * (output/pop3-json.h). */
#include "config.h"
#include "test.h"

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/pop3.h"
#include "output/pop3-json.h"
#include "app-test-util.h"

static const char CLI[] = "USER bob\r\nPASS x y\r\nLIST\r\nRETR 1\r\nnoop\r\nXYZZY\r\n";
static const char SRV[] = "+OK ready\r\n+OK\r\n-ERR bad password\r\n+OK 2 messages\r\n1 10\r\n"
			  "2 20\r\n.\r\n+OK 5 octets\r\nHi\r\n..dot\r\n.\r\n+OK\r\n-ERR what\r\n";

static void feed(Pop3State *s, int dir, const char *p, size_t n, size_t step)
{
	for (size_t off = 0; off < n; off += step) {
		uint32_t used;
		size_t k = n - off < step ? n - off : step;

		pop3_parse(s, dir, (const uint8_t *)p + off, (uint32_t)k, &used);
	}
}

TEST(pop3_commands_responses_any_segmentation)
{
	for (size_t step = 1; step <= sizeof(SRV); step += step < 8 ? 1 : 13) {
		Pop3State *s = pop3_state_new();
		Pop3Tx *t;

		/* pipelined: every command before any response */
		feed(s, 1, SRV, 11, step);              /* the greeting */
		feed(s, 0, CLI, sizeof(CLI) - 1, step);
		feed(s, 1, SRV + 11, sizeof(SRV) - 12, step);
		CHECK_EQ(s->next_id, 7);
		t = s->head;                            /* the greeting */
		CHECK(!t->has_request && t->has_response && t->success);
		CHECK(t->header.len == 5 && memcmp(t->header.p, "ready", 5) == 0);
		t = t->next->next;                      /* PASS */
		CHECK_STREQ(t->command, "PASS");
		CHECK_EQ(t->nargs, 2);
		CHECK(!t->success && t->response_done);
		t = t->next;                            /* LIST: a body */
		CHECK(t->multi && t->response_done);
		CHECK_EQ(t->ndata, 2);
		CHECK(t->data[1].len == 4 && memcmp(t->data[1].p, "2 20", 4) == 0);
		t = t->next;                            /* RETR: dot-unstuffed */
		CHECK_EQ(t->ndata, 2);
		CHECK(t->data[1].len == 4 && memcmp(t->data[1].p, ".dot", 4) == 0);
		t = t->next;                            /* noop: upper-cased */
		CHECK_STREQ(t->command, "NOOP");
		CHECK(!(t->events & (1u << POP3_EV_UNKNOWN_COMMAND)));
		t = t->next;
		CHECK(t->events & (1u << POP3_EV_UNKNOWN_COMMAND));
		CHECK(t->response_done && !t->success);
		pop3_state_free(s, NULL);
	}
}

TEST(pop3_long_lines_and_bad_responses_are_events)
{
	Pop3State *s = pop3_state_new();
	static char big[POP3_MAX_LINE * 2 + 3];
	uint32_t used;

	memset(big, 'A', sizeof(big) - 3);
	memcpy(big, "USER ", 5);
	memcpy(big + sizeof(big) - 3, "\r\n", 2);
	pop3_parse(s, 0, (const uint8_t *)big, sizeof(big) - 1, &used);
	CHECK_EQ(s->next_id, 1);
	CHECK(s->head->events & (1u << POP3_EV_REQUEST_TOO_LONG));
	CHECK(s->head->args[0].len < POP3_MAX_LINE);
	pop3_parse(s, 1, (const uint8_t *)"HELLO\r\n", 7, &used);
	CHECK(s->head->events & (1u << POP3_EV_INVALID_RESPONSE));
	CHECK_EQ(pop3_event_by_name("invalid_response"), POP3_EV_INVALID_RESPONSE);
	pop3_state_free(s, NULL);
}

TEST(pop3_probe_both_sides)
{
	CHECK_EQ(pop3_probe(1, (const uint8_t *)"+OK POP3", 8), 1);
	CHECK_EQ(pop3_probe(1, (const uint8_t *)"+O", 2), -1);
	CHECK_EQ(pop3_probe(1, (const uint8_t *)"220 smtp", 8), 0);
	CHECK_EQ(pop3_probe(0, (const uint8_t *)"capa\r\n", 6), 1);
	CHECK_EQ(pop3_probe(0, (const uint8_t *)"GET / HTTP/1.1", 14), 0);
}

TEST(pop3_flow_json_and_stls_to_tls)
{
	AppTestCtx c;
	void *tx;
	json_t *o, *r;

	app_test_init(&c, 6, "10.0.0.2", 40000, 110);
	CHECK_EQ(app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, (const uint8_t *)"+OK hi\r\n", 8, 0), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_POP3);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, (const uint8_t *)"UIDL\r\n", 6, 0);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, (const uint8_t *)"+OK\r\n1 a\r\n.\r\n", 13, 0);
	tx = app_layer_tx_get(&c.f, 1);
	CHECK(tx);
	o = pop3_json_object(tx);
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(o, "request"), "command")), "UIDL");
	CHECK_EQ(json_array_size(json_object_get(json_object_get(o, "request"), "args")), 0);
	r = json_object_get(o, "response");
	CHECK(json_is_true(json_object_get(r, "success")));
	CHECK_STREQ(json_string_value(json_object_get(r, "status")), "OK");
	CHECK_STREQ(json_string_value(json_object_get(r, "header")), "");
	CHECK_STREQ(json_string_value(json_array_get(json_object_get(r, "data"), 0)), "1 a");
	json_decref(o);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, (const uint8_t *)"STLS\r\n", 6, 0);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, (const uint8_t *)"+OK go\r\n", 8, 0);
	/* the change happens on a later packet: the next bytes are TLS's */
	c.f.pkts_toserver++;
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, (const uint8_t *)"\x16\x03\x01\x00\x05", 5, 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_TLS);
	CHECK_EQ(c.f.app_proto_orig, ALPROTO_POP3);
	app_layer_flow_free(&c.f);
	app_layer_thread_free(c.at);
}
