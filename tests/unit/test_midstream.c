/* Midstream reversal: a session picked up on a packet from the server. The
 * app layer recognises the server's bytes going "to server", and the flow, its
 * TCP session and the packet trade directions (Suricata's FlowSwap). */
#include "test.h"
#include "app-layer/app-layer.h"
#include "app-layer/http.h"
#include "flow/flow.h"
#include "stream/stream.h"
#include "conf/conf.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>

#define TS 0
#define TC 1

static ThreadCounters *counters(void)
{
	static ThreadCounters *tc;

	if (!tc) {
		stream_register_counters();
		app_layer_register_counters();
		counters_freeze();
		tc = thread_counters_new();
	}
	return tc;
}

static const char resp[] = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi";

/* The app layer alone: midstream, a response as the first toserver bytes asks
 * for a reversal without consuming them; fed again as toclient they parse. */
TEST(response_toward_server_midstream_asks_reversal)
{
	AppLayerConfig cfg;
	AppLayerThread *at;
	Flow f;
	const uint8_t *d;
	uint32_t n;
	HttpTx *tx;

	app_layer_config_load(&cfg);
	at = app_layer_thread_new(&cfg, counters());
	memset(&f, 0, sizeof(f));
	f.proto = IPPROTO_TCP;
	f.sp = 80;
	f.dp = 40000;
	CHECK_EQ(app_layer_handle_data(at, &f, TS, (const uint8_t *)resp, sizeof(resp) - 1,
				       APP_MIDSTREAM), APP_REVERSE);
	CHECK_EQ(f.app_proto, ALPROTO_UNKNOWN);
	CHECK_EQ(http_tx_count(&f), 0);
	CHECK_EQ(app_layer_handle_data(at, &f, TC, (const uint8_t *)resp, sizeof(resp) - 1,
				       APP_MIDSTREAM), 0);
	CHECK_EQ(f.app_proto, ALPROTO_HTTP1);
	CHECK_EQ(http_tx_count(&f), 1);
	tx = http_tx_get(&f, 0);
	CHECK(tx != NULL);
	CHECK_EQ(http_tx_buffer(tx, HTTP_BUF_STAT_CODE, &d, &n), 0);
	CHECK(n == 3 && memcmp(d, "200", 3) == 0);
	app_layer_flow_free(&f);
	app_layer_thread_free(at);
}

/* Not midstream (handshake seen): the same bytes fail detection, no reversal;
 * and a midstream flow asks at most once. */
TEST(reversal_needs_midstream_and_happens_once)
{
	AppLayerConfig cfg;
	AppLayerThread *at;
	Flow f;

	app_layer_config_load(&cfg);
	at = app_layer_thread_new(&cfg, counters());
	memset(&f, 0, sizeof(f));
	f.proto = IPPROTO_TCP;
	f.dp = 40000;
	CHECK_EQ(app_layer_handle_data(at, &f, TS, (const uint8_t *)resp, sizeof(resp) - 1, 0),
		 0);
	CHECK(f.app_proto != ALPROTO_HTTP1);
	app_layer_flow_free(&f);
	memset(&f, 0, sizeof(f));
	f.proto = IPPROTO_TCP;
	f.dp = 40000;
	CHECK_EQ(app_layer_handle_data(at, &f, TS, (const uint8_t *)resp, sizeof(resp) - 1,
				       APP_MIDSTREAM), APP_REVERSE);
	/* the caller did not reverse: the bytes come again the same way */
	CHECK(app_layer_handle_data(at, &f, TS, (const uint8_t *)resp, sizeof(resp) - 1,
				    APP_MIDSTREAM) != APP_REVERSE);
	app_layer_flow_free(&f);
	app_layer_thread_free(at);
}

/* A request toward the client midstream is reversed too; a request toward
 * the server is simply HTTP. */
TEST(request_toward_client_midstream_asks_reversal)
{
	static const char req[] = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
	AppLayerConfig cfg;
	AppLayerThread *at;
	Flow f;

	app_layer_config_load(&cfg);
	at = app_layer_thread_new(&cfg, counters());
	memset(&f, 0, sizeof(f));
	f.proto = IPPROTO_TCP;
	CHECK_EQ(app_layer_handle_data(at, &f, TC, (const uint8_t *)req, sizeof(req) - 1,
				       APP_MIDSTREAM), APP_REVERSE);
	app_layer_flow_free(&f);
	memset(&f, 0, sizeof(f));
	f.proto = IPPROTO_TCP;
	CHECK_EQ(app_layer_handle_data(at, &f, TS, (const uint8_t *)req, sizeof(req) - 1,
				       APP_MIDSTREAM), 0);
	CHECK_EQ(f.app_proto, ALPROTO_HTTP1);
	app_layer_flow_free(&f);
	app_layer_thread_free(at);
}

/* flow_swap + stream_flow_swap: tuple, counters, progress and the session's
 * streams change sides, and the packet being processed with them. */
TEST(flow_and_session_swap_sides)
{
	StreamConfig cfg;
	StreamThread *st;
	Flow f;
	Packet p;
	const uint8_t *d;
	uint32_t n;
	uint64_t base;

	memset(&cfg, 0, sizeof(cfg));
	CHECK_EQ(stream_config_load(&cfg), 0);
	cfg.midstream = 1;
	st = stream_thread_new(&cfg, counters());
	memset(&f, 0, sizeof(f));
	f.proto = IPPROTO_TCP;
	f.ip_version = 4;
	f.src.family = f.dst.family = AF_INET;
	inet_pton(AF_INET, "10.0.0.2", &f.src.a.u32[0]);
	inet_pton(AF_INET, "10.0.0.1", &f.dst.a.u32[0]);
	f.sp = 80;
	f.dp = 40000;
	f.pkts_toserver = 1;
	f.bytes_toserver = 100;
	f.app_progress[0] = 7;
	f.app_eof = 1;

	/* the server's data first: picked up midstream, taken as the client */
	memset(&p, 0, sizeof(p));
	p.ip_version = 4;
	p.proto = IPPROTO_TCP;
	p.l4 = (const uint8_t *)"x";
	p.flags = PKT_HAS_FLOW | PKT_TOSERVER;
	p.flow = &f;
	p.tcp_flags = TH_ACK;
	p.tcp_seq = 5001;
	p.tcp_ack = 1001;
	p.tcp_win = 65535;
	p.tcp_wscale = 0xff;
	p.payload = (const uint8_t *)"resp";
	p.payload_len = 4;
	stream_handle_packet(st, &f, &p);
	CHECK(stream_is_midstream(&f));
	/* the client ACKs it (toclient before the swap): ready toserver */
	p.flags = PKT_HAS_FLOW | PKT_TOCLIENT;
	p.tcp_seq = 1001;
	p.tcp_ack = 5005;
	p.payload_len = 0;
	stream_handle_packet(st, &f, &p);
	CHECK(p.stream_flags & STREAM_PKT_TS_READY);
	CHECK(stream_get_data(&f, TS, 0, &d, &n, &base));

	flow_swap(&f, &p);
	stream_flow_swap(&f, &p);
	CHECK_EQ(f.sp, 40000);
	CHECK_EQ(f.dp, 80);
	CHECK_EQ(f.pkts_toclient, 1);
	CHECK_EQ(f.bytes_toclient, 100);
	CHECK_EQ(f.pkts_toserver, 0);
	CHECK_EQ(f.app_progress[1], 7);
	CHECK_EQ(f.app_eof, 2);
	CHECK_EQ(ntohl(f.src.a.u32[0]), 0x0a000001);
	CHECK(p.flags & PKT_TOSERVER);
	CHECK(!(p.flags & PKT_TOCLIENT));
	CHECK(p.stream_flags & STREAM_PKT_TC_READY);
	CHECK(!(p.stream_flags & STREAM_PKT_TS_READY));
	/* the server's bytes are now the toclient stream */
	CHECK(!stream_get_data(&f, TS, 0, &d, &n, &base));
	CHECK(stream_get_data(&f, TC, 0, &d, &n, &base));
	CHECK(n == 4 && memcmp(d, "resp", 4) == 0);
	CHECK_EQ(stream_ready_offset(&f, TC), 4);
	CHECK_EQ(stream_ready_offset(&f, TS), 0);

	/* the next server packet goes toclient and is tracked there */
	p.flags = PKT_HAS_FLOW | PKT_TOCLIENT;
	p.tcp_seq = 5005;
	p.tcp_ack = 1001;
	p.payload = (const uint8_t *)"more";
	p.payload_len = 4;
	stream_handle_packet(st, &f, &p);
	CHECK(!(p.stream_flags & STREAM_PKT_INVALID));
	p.flags = PKT_HAS_FLOW | PKT_TOSERVER;
	p.tcp_seq = 1001;
	p.tcp_ack = 5009;
	p.payload_len = 0;
	stream_handle_packet(st, &f, &p);
	CHECK_EQ(stream_ready_offset(&f, TC), 8);
	stream_flow_free(st, &f);
	stream_thread_free(st);
	stream_config_free(&cfg);
}
