/* MQTT: the stream parser (app-layer/mqtt-parse.h) with its transactions,
 * events and limits, its registry entry through the generic app layer
 * (mqtt-proto.c), the eve object (output/mqtt-json.h) and the keywords'
 * buffers (detect/mqtt-kw.c). Messages are built here byte by byte from
 * the MQTT 3.1.1 and 5.0 layouts. */
#include "config.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/mqtt.h"
#include "detect/buffers.h"
#include "detect/detect-parse.h"
#include "output/mqtt-json.h"
#include "app-test-util.h"

/* v3.1.1 CONNECT, client "P1", clean session */
static const uint8_t connect4[] = { 0x10, 0x0e, 0x00, 0x04, 'M', 'Q', 'T', 'T', 0x04, 0x02,
				    0x00, 0x3c, 0x00, 0x02, 'P', '1' };
static const uint8_t connack[] = { 0x20, 0x02, 0x00, 0x00 };
/* v5 CONNECT: user/pass, receive_maximum 20, client "c" */
static const uint8_t connect5[] = { 0x10, 0x1d, 0x00, 0x04, 'M', 'Q', 'T', 'T', 0x05, 0xc2, 0x00,
				    0x3c, 0x03, 0x21, 0x00, 0x14, 0x00, 0x01, 'c', 0x00, 0x04,
				    'u', 's', 'e', 'r', 0x00, 0x04, 'p', 'a', 's', 's' };
/* PUBLISH QoS 1 topic "t1", id 7, payload "hi" (v3.1.1) */
static const uint8_t publish1[] = { 0x32, 0x08, 0x00, 0x02, 't', '1', 0x00, 0x07, 'h', 'i' };
static const uint8_t puback7[] = { 0x40, 0x02, 0x00, 0x07 };
/* SUBSCRIBE id 1: "ab" qos 1, "cd" qos 0 */
static const uint8_t subscribe[] = { 0x82, 0x0c, 0x00, 0x01, 0x00, 0x02, 'a', 'b', 0x01,
				     0x00, 0x02, 'c', 'd', 0x00 };
static const uint8_t suback[] = { 0x90, 0x04, 0x00, 0x01, 0x01, 0x00 };

static MqttState *fed(uint32_t max_msg, const uint8_t *a, size_t na, int da)
{
	MqttState *s = mqtt_state_new(max_msg, 0);

	mqtt_parse(s, da, a, na);
	return s;
}

TEST(mqtt_connect_connack_one_tx)
{
	MqttState *s = fed(0, connect4, sizeof(connect4), MQTT_TOSERVER);
	MqttTx *tx;

	CHECK_EQ(s->next_id, 1);
	tx = mqtt_tx_by_id(s, 0);
	CHECK(tx && !tx->complete);
	CHECK_EQ(tx->msgs[0].version, 4);
	CHECK_EQ(mqtt_parse(s, MQTT_TOCLIENT, connack, sizeof(connack)), 0);
	CHECK_EQ(s->next_id, 1);
	CHECK(tx->complete && s->connected);
	CHECK_EQ(tx->nmsgs, 2);
	CHECK_EQ(tx->msgs[1].type, MQTT_CONNACK);
	CHECK_EQ(tx->events, 0);
	mqtt_state_free(s, NULL);
}

TEST(mqtt_publish_qos1_pairs_with_puback_any_segmentation)
{
	uint8_t all[64];
	size_t n = 0;

	memcpy(all, connect4, sizeof(connect4));
	n = sizeof(connect4);
	memcpy(all + n, publish1, sizeof(publish1));
	n += sizeof(publish1);
	for (size_t step = 1; step <= n; step++) {
		MqttState *s = mqtt_state_new(0, 0);
		MqttTx *tx;

		mqtt_parse(s, MQTT_TOCLIENT, NULL, 0);
		for (size_t o = 0; o < n; o += step)
			mqtt_parse(s, MQTT_TOSERVER, all + o, n - o < step ? n - o : step);
		mqtt_parse(s, MQTT_TOCLIENT, connack, sizeof(connack));
		mqtt_parse(s, MQTT_TOCLIENT, puback7, sizeof(puback7));
		CHECK_EQ(s->next_id, 2);
		tx = mqtt_tx_by_id(s, 1);
		CHECK(tx && tx->complete);
		CHECK_EQ(tx->nmsgs, 2);
		CHECK_EQ(tx->msgs[0].msg_id, 7);
		CHECK_EQ(tx->msgs[0].payload.len, 2);
		CHECK(memcmp(tx->msgs[0].raw + tx->msgs[0].payload.off, "hi", 2) == 0);
		/* published before CONNACK came: unintroduced */
		CHECK(tx->events & (1u << MQTT_EV_UNINTRODUCED_MESSAGE));
		mqtt_state_free(s, NULL);
	}
}

TEST(mqtt_reply_without_request_raises_missing_events)
{
	MqttState *s = fed(0, connack, sizeof(connack), MQTT_TOCLIENT);

	CHECK(mqtt_tx_by_id(s, 0)->events & (1u << MQTT_EV_MISSING_CONNECT));
	mqtt_parse(s, MQTT_TOCLIENT, puback7, sizeof(puback7));
	CHECK(mqtt_tx_by_id(s, 1)->events & (1u << MQTT_EV_MISSING_PUBLISH));
	mqtt_parse(s, MQTT_TOCLIENT, suback, sizeof(suback));
	CHECK(mqtt_tx_by_id(s, 2)->events & (1u << MQTT_EV_MISSING_SUBSCRIBE));
	mqtt_state_free(s, NULL);
}

TEST(mqtt_invalid_qos_unassigned_type_double_connect)
{
	static const uint8_t pub_q3[] = { 0x36, 0x05, 0x00, 0x01, 't', 0x00, 0x05 };
	static const uint8_t type0[] = { 0x00, 0x00 };
	MqttState *s = fed(0, connect4, sizeof(connect4), MQTT_TOSERVER);

	mqtt_parse(s, MQTT_TOCLIENT, connack, sizeof(connack));
	mqtt_parse(s, MQTT_TOSERVER, connect4, sizeof(connect4));
	CHECK(mqtt_tx_by_id(s, 1)->events & (1u << MQTT_EV_DOUBLE_CONNECT));
	mqtt_parse(s, MQTT_TOSERVER, pub_q3, sizeof(pub_q3));
	CHECK(mqtt_tx_by_id(s, 2)->events & (1u << MQTT_EV_INVALID_QOS_LEVEL));
	mqtt_parse(s, MQTT_TOSERVER, type0, sizeof(type0));
	CHECK(mqtt_tx_by_id(s, 3)->events & (1u << MQTT_EV_UNASSIGNED_MSG_TYPE));
	/* type 0 has no member of its own in the record (eve schema) */
	{
		json_t *j = mqtt_json_object(mqtt_tx_by_id(s, 3), 0);

		CHECK(j && json_object_size(j) == 0);
		json_decref(j);
	}
	mqtt_state_free(s, NULL);
}

TEST(mqtt_v5_properties_and_excessive_length_is_malformed)
{
	/* v5 CONNECT whose property length runs past the message */
	uint8_t bad[sizeof(connect5)];
	MqttState *s = fed(0, connect5, sizeof(connect5), MQTT_TOSERVER);
	MqttMsg *m = &mqtt_tx_by_id(s, 0)->msgs[0];

	CHECK_EQ(m->version, 5);
	CHECK(m->props.set && m->props.len == 3);
	CHECK_EQ(m->username.len, 4);
	CHECK_EQ(m->password.len, 4);
	mqtt_state_free(s, NULL);

	memcpy(bad, connect5, sizeof(bad));
	bad[12] = 0x7f;
	s = mqtt_state_new(0, 0);
	CHECK_EQ(mqtt_parse(s, MQTT_TOSERVER, bad, sizeof(bad)), -1);
	CHECK(mqtt_tx_by_id(s, 0)->events & (1u << MQTT_EV_MALFORMED_TRAFFIC));
	CHECK(s->side[MQTT_TOSERVER].dead);
	/* the rest of that side is ignored */
	CHECK_EQ(mqtt_parse(s, MQTT_TOSERVER, connect4, sizeof(connect4)), -1);
	CHECK_EQ(s->next_id, 1);
	mqtt_state_free(s, NULL);
}

TEST(mqtt_over_max_msg_length_is_truncated_and_skipped)
{
	/* PUBLISH of 200 bytes of body, then a PINGREQ, limit 50 */
	uint8_t buf[300];
	size_t n = 0;
	MqttState *s = mqtt_state_new(50, 0);
	MqttTx *tx;

	buf[n++] = 0x30;
	buf[n++] = 0xc8;
	buf[n++] = 0x01;            /* 200 */
	memset(buf + n, 'x', 200);
	n += 200;
	buf[n++] = 0xc0;
	buf[n++] = 0x00;
	/* in three pieces: the skip crosses calls */
	mqtt_parse(s, MQTT_TOSERVER, buf, 10);
	mqtt_parse(s, MQTT_TOSERVER, buf + 10, 150);
	mqtt_parse(s, MQTT_TOSERVER, buf + 160, n - 160);
	CHECK_EQ(s->next_id, 2);
	tx = mqtt_tx_by_id(s, 0);
	CHECK(tx->msgs[0].truncated);
	CHECK_EQ(tx->msgs[0].skipped_length, 203);
	CHECK(tx->complete);
	CHECK_EQ(mqtt_tx_by_id(s, 1)->msgs[0].type, MQTT_PINGREQ);
	/* nothing of the big one was buffered */
	CHECK(s->side[0].cap <= 256);
	mqtt_state_free(s, NULL);
}

TEST(mqtt_max_tx_closes_older_ones)
{
	MqttState *s = mqtt_state_new(0, 2);

	/* three open ones are over the limit of 2: the fourth gives up the
	 * oldest open one */
	for (int i = 0; i < 3; i++)
		mqtt_parse(s, MQTT_TOSERVER, publish1, sizeof(publish1));
	CHECK(!mqtt_tx_by_id(s, 0)->complete);
	mqtt_parse(s, MQTT_TOSERVER, publish1, sizeof(publish1));
	CHECK(mqtt_tx_by_id(s, 0)->complete);
	CHECK(mqtt_tx_by_id(s, 0)->events & (1u << MQTT_EV_TOO_MANY_TRANSACTIONS));
	CHECK(!mqtt_tx_by_id(s, 1)->complete);
	CHECK(!(mqtt_tx_by_id(s, 3)->events & (1u << MQTT_EV_TOO_MANY_TRANSACTIONS)));
	mqtt_state_free(s, NULL);
}

TEST(mqtt_probe_header)
{
	CHECK_EQ(mqtt_probe(connect4, sizeof(connect4)), 1);
	CHECK_EQ(mqtt_probe(connect4, 1), -1);
	CHECK_EQ(mqtt_probe((const uint8_t *)"\x00\x00", 2), 0);   /* unassigned */
	CHECK_EQ(mqtt_probe((const uint8_t *)"\x36\x00", 2), 0);   /* QoS 3 */
	CHECK_EQ(mqtt_probe((const uint8_t *)"\x30\xff\xff\xff\xff", 5), 0);
}

TEST(mqtt_json_object_fields_and_string_limit)
{
	MqttState *s = fed(0, subscribe, sizeof(subscribe), MQTT_TOSERVER);
	MqttTx *tx;
	json_t *j, *sub, *t;

	mqtt_parse(s, MQTT_TOCLIENT, suback, sizeof(suback));
	tx = mqtt_tx_by_id(s, 0);
	j = mqtt_json_object(tx, 0);
	sub = json_object_get(j, "subscribe");
	CHECK_EQ(json_integer_value(json_object_get(sub, "qos")), 1);
	CHECK_EQ(json_integer_value(json_object_get(sub, "message_id")), 1);
	t = json_object_get(sub, "topics");
	CHECK_EQ(json_array_size(t), 2);
	CHECK_STREQ(json_string_value(json_object_get(json_array_get(t, 0), "topic")), "ab");
	CHECK_EQ(json_integer_value(json_object_get(json_array_get(t, 0), "qos")), 1);
	t = json_object_get(json_object_get(j, "suback"), "qos_granted");
	CHECK_EQ(json_array_size(t), 2);
	CHECK_EQ(json_integer_value(json_array_get(t, 0)), 1);
	json_decref(j);
	/* the topics share the budget: the second one is cut */
	j = mqtt_json_object(tx, 3);
	t = json_object_get(json_object_get(j, "subscribe"), "topics");
	CHECK_STREQ(json_string_value(json_object_get(json_array_get(t, 1), "topic")),
		    "c[truncated 1 additional bytes]");
	json_decref(j);
	mqtt_state_free(s, NULL);

	/* a PUBLISH message has the whole limit, whatever its topic took */
	s = fed(0, publish1, sizeof(publish1), MQTT_TOSERVER);
	j = mqtt_json_object(mqtt_tx_by_id(s, 0), 1);
	sub = json_object_get(j, "publish");
	CHECK_STREQ(json_string_value(json_object_get(sub, "topic")), "t1");
	CHECK_STREQ(json_string_value(json_object_get(sub, "message")),
		    "h[truncated 1 additional bytes]");
	json_decref(j);
	mqtt_state_free(s, NULL);

	s = fed(0, connect5, sizeof(connect5), MQTT_TOSERVER);
	j = mqtt_json_object(mqtt_tx_by_id(s, 0), 0);
	sub = json_object_get(j, "connect");
	CHECK_STREQ(json_string_value(json_object_get(sub, "protocol_string")), "MQTT");
	CHECK_EQ(json_integer_value(json_object_get(sub, "protocol_version")), 5);
	CHECK(json_is_true(json_object_get(json_object_get(sub, "flags"), "username")));
	CHECK_STREQ(json_string_value(json_object_get(sub, "client_id")), "c");
	CHECK_EQ(json_integer_value(json_object_get(json_object_get(sub, "properties"),
						    "receive_maximum")), 20);
	json_decref(j);
	mqtt_state_free(s, NULL);
}

TEST(mqtt_keyword_buffers)
{
	MqttState *s = fed(0, subscribe, sizeof(subscribe), MQTT_TOSERVER);
	const DetectBuffer *b = detect_buffer(BUF_MQTT_SUBSCRIBE_TOPIC);
	const uint8_t *d;
	uint32_t len;
	MqttTx *tx = mqtt_tx_by_id(s, 0);

	CHECK_EQ(b->get(b, tx, 0, 0, &d, &len), 0);
	CHECK(len == 2 && memcmp(d, "ab", 2) == 0);
	CHECK_EQ(b->get(b, tx, 0, 1, &d, &len), 0);
	CHECK(len == 2 && memcmp(d, "cd", 2) == 0);
	CHECK_EQ(b->get(b, tx, 0, 2, &d, &len), -1);
	b = detect_buffer(BUF_MQTT_PUBLISH_TOPIC);
	CHECK_EQ(b->get(b, tx, 0, 0, &d, &len), -1);
	mqtt_state_free(s, NULL);
}

TEST(mqtt_detected_on_its_port_only)
{
	AppTestCtx c;

	app_layer_config_load(&c.cfg);
	app_test_start(&c, 6, "10.0.0.2", 40000, 1883);
	CHECK_EQ(app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, connect4, sizeof(connect4), 0), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_MQTT);
	CHECK_EQ(app_layer_tx_count(&c.f), 1);
	CHECK_EQ(app_layer_event_lookup(ALPROTO_MQTT, "malformed_traffic"), MQTT_EV_MALFORMED_TRAFFIC);
	app_layer_flow_free(&c.f);
	app_layer_thread_free(c.at);

	app_layer_config_load(&c.cfg);
	app_test_start(&c, 6, "10.0.0.2", 40000, 8080);
	app_layer_handle_data(c.at, &c.f, APP_DIR_TOSERVER, connect4, sizeof(connect4), 0);
	CHECK(c.f.app_proto != ALPROTO_MQTT);
	app_layer_flow_free(&c.f);
	app_layer_thread_free(c.at);
}
