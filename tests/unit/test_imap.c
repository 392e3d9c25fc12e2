/* IMAP: recognised, never parsed (imap-proto.c), as Suricata 8. */
#include "config.h"
#include "test.h"

#include "app-layer/app-layer.h"
#include "app-test-util.h"

TEST(imap_greeting_names_the_flow_on_any_port)
{
	AppTestCtx c;
	static const char g[] = "* OK [CAPABILITY IMAP4rev1] ready\r\n";

	app_test_init(&c, 6, "10.0.0.2", 40000, 1143);
	CHECK_EQ(app_layer_handle_data(c.at, &c.f, APP_DIR_TOCLIENT, (const uint8_t *)g,
				       sizeof(g) - 1, 0), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_IMAP);
	CHECK_STREQ(app_proto_name(ALPROTO_IMAP), "imap");
	/* detection only: no parser, no transactions */
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, (const uint8_t *)"a1 LOGIN x y\r\n", 14, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 0);
	CHECK_EQ(c.f.app_proto_ts, ALPROTO_IMAP);
	app_layer_flow_free(&c.f);
	app_layer_thread_free(c.at);
}

TEST(imap_tagged_command_and_what_is_not_imap)
{
	AppTestCtx c;

	app_test_init(&c, 6, "10.0.0.2", 40000, 143);
	CHECK_EQ(app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER,
				       (const uint8_t *)". CAPABILITY\r\n", 14, 0), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_IMAP);
	app_layer_flow_free(&c.f);
	app_layer_thread_free(c.at);
	/* a POP3 or SMTP line is not a tagged IMAP command */
	app_test_init(&c, 6, "10.0.0.2", 40000, 143);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, (const uint8_t *)"HELO me x\r\n", 11, 0);
	CHECK(c.f.app_proto != ALPROTO_IMAP);
	app_layer_flow_free(&c.f);
	app_layer_thread_free(c.at);
}
