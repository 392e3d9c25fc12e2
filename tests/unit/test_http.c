#define _GNU_SOURCE /* memmem */
#include "config.h"
#include "test.h"
#include "app-layer/app-layer.h"
#include "app-layer/http.h"
#include "app-layer/http-range.h"
#include "app-layer/http-mem.h"
#include "app-layer/files.h"
#include "output/file-log.h"
#include "output/http-log.h"
#include "conf/conf.h"
#include "app-test-util.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>

/* tests/data/http/gzip-response-body.gz: 4 x "<html><body>Hello gzip world:
 * SECRET-MARKER-1234</body></html>\n" (252 bytes), gzip, mtime 0 */
static const uint8_t gz_body[] = {
	0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xb3, 0xc9, 0x28, 0xc9,
	0xcd, 0xb1, 0xb3, 0x49, 0xca, 0x4f, 0xa9, 0xb4, 0xf3, 0x48, 0xcd, 0xc9, 0xc9, 0x57,
	0x48, 0xaf, 0xca, 0x2c, 0x50, 0x28, 0xcf, 0x2f, 0xca, 0x49, 0xb1, 0x52, 0x08, 0x76,
	0x75, 0x0e, 0x72, 0x0d, 0xd1, 0xf5, 0x75, 0x0c, 0xf2, 0x76, 0x0d, 0xd2, 0x35, 0x34,
	0x32, 0x36, 0xb1, 0xd1, 0x07, 0x2b, 0xb5, 0xd1, 0x07, 0xeb, 0xe3, 0xb2, 0x19, 0xca,
	0xda, 0x01, 0x21, 0x9f, 0x41, 0x07, 0xfc, 0x00, 0x00, 0x00,
};

/* zlib stream of "deflated body DEFLATE-MARKER" */
static const uint8_t deflate_body[] = {
	0x78, 0x9c, 0x4b, 0x49, 0x4d, 0xcb, 0x49, 0x2c, 0x49, 0x4d, 0x51, 0x48, 0xca, 0x4f,
	0xa9, 0x54, 0x70, 0x71, 0x75, 0xf3, 0x71, 0x0c, 0x71, 0xd5, 0xf5, 0x75, 0x0c, 0xf2,
	0x76, 0x0d, 0x02, 0x00, 0x8d, 0x67, 0x09, 0x0c,
};


/* The eve fileinfo object of the first file of a side (files.h). */
static json_t *fileinfo(HttpTx *tx, int dir, int final)
{
	FileContainer *fc = http_tx_files(tx, dir, final);

	return fc && fc->head ? file_json(fc->head) : NULL;
}


static uint64_t cval(const char *name)
{
	int id = counter_lookup(name);

	return id < 0 ? (uint64_t)-1 : counter_get(app_test_counters(), (counter_id)id);
}

typedef AppTestCtx Ctx;

static void ctx_init(Ctx *c, uint16_t dp)
{
	app_test_init(c, IPPROTO_TCP, "10.0.0.2", 40000, dp);
	c->f.start.tv_sec = c->f.last.tv_sec = 1700000000;
}

static void ctx_free(Ctx *c)
{
	app_test_free(c);
}

static int feed(Ctx *c, int dir, const char *s)
{
	return app_layer_handle_data(c->at, &c->f, dir, (const uint8_t *)s,
				     (uint32_t)strlen(s), 0);
}

static int feed_bytes(Ctx *c, int dir, const void *p, size_t n)
{
	return app_layer_handle_data(c->at, &c->f, dir, p, (uint32_t)n, 0);
}

/* Buffer as a C string (for CHECK_STREQ), or NULL when absent. */
static const char *buf(HttpTx *tx, int id, int dir)
{
	static char out[4][2048];
	static int slot;
	const uint8_t *d;
	uint32_t len;
	char *o = out[slot++ & 3];

	if (http_tx_buffer_dir(tx, id, dir, &d, &len) < 0)
		return NULL;
	if (len >= sizeof(out[0]))
		len = sizeof(out[0]) - 1;
	memcpy(o, d, len);
	o[len] = '\0';
	return o;
}

#define TS APP_DIR_TOSERVER
#define TC APP_DIR_TOCLIENT

TEST(http_simple_get_200)
{
	Ctx c;
	HttpTx *tx;

	ctx_init(&c, 80);
	CHECK_EQ(feed(&c, TS, "GET /index.html HTTP/1.1\r\nHost: www.example.com\r\n"
			      "User-Agent: Tester/1.0\r\n\r\n"), 0);
	CHECK_EQ(c.f.app_proto, ALPROTO_HTTP1);
	CHECK_STREQ(app_proto_name(c.f.app_proto), "http");
	CHECK_EQ(http_tx_count(&c.f), 1);
	tx = http_tx_get(&c.f, 0);
	CHECK(tx != NULL);
	CHECK_EQ(http_tx_progress(tx, TS), HTTP_PROGRESS_COMPLETE);
	CHECK_EQ(http_tx_progress(tx, TC), HTTP_PROGRESS_NONE);
	CHECK_STREQ(buf(tx, HTTP_BUF_METHOD, TS), "GET");
	CHECK_STREQ(buf(tx, HTTP_BUF_URI, TS), "/index.html");
	CHECK_STREQ(buf(tx, HTTP_BUF_PROTOCOL, TS), "HTTP/1.1");
	CHECK_STREQ(buf(tx, HTTP_BUF_REQUEST_LINE, TS), "GET /index.html HTTP/1.1");
	CHECK(buf(tx, HTTP_BUF_STAT_CODE, TC) == NULL);

	CHECK_EQ(feed(&c, TC, "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
			      "Content-Length: 5\r\nServer: nginx\r\n\r\nhello"), 0);
	CHECK_EQ(http_tx_progress(tx, TC), HTTP_PROGRESS_COMPLETE);
	CHECK_STREQ(buf(tx, HTTP_BUF_STAT_CODE, TC), "200");
	CHECK_STREQ(buf(tx, HTTP_BUF_STAT_MSG, TC), "OK");
	CHECK_STREQ(buf(tx, HTTP_BUF_RESPONSE_LINE, TC), "HTTP/1.1 200 OK");
	CHECK_STREQ(buf(tx, HTTP_BUF_SERVER_BODY, TC), "hello");
	CHECK_STREQ(buf(tx, HTTP_BUF_SERVER, TC), "nginx");
	CHECK_STREQ(buf(tx, HTTP_BUF_CONTENT_LEN, TC), "5");
	CHECK_STREQ(buf(tx, HTTP_BUF_PROTOCOL, TC), "HTTP/1.1");
	CHECK_EQ(http_tx_event_count(tx), 0);
	CHECK_EQ(cval("app_layer.flow.http") >= 1, 1);

	json_t *j = http_tx_json(tx, 1);
	CHECK(j != NULL);
	CHECK_STREQ(json_string_value(json_object_get(j, "hostname")), "www.example.com");
	CHECK_STREQ(json_string_value(json_object_get(j, "url")), "/index.html");
	CHECK_STREQ(json_string_value(json_object_get(j, "http_user_agent")), "Tester/1.0");
	CHECK_STREQ(json_string_value(json_object_get(j, "http_content_type")), "text/html");
	CHECK_STREQ(json_string_value(json_object_get(j, "http_method")), "GET");
	CHECK_STREQ(json_string_value(json_object_get(j, "protocol")), "HTTP/1.1");
	CHECK_EQ(json_integer_value(json_object_get(j, "status")), 200);
	CHECK_EQ(json_integer_value(json_object_get(j, "length")), 5);
	CHECK(json_object_get(j, "http_port") == NULL);
	json_decref(j);

	j = fileinfo(tx, TC, 0);
	CHECK(j != NULL);
	CHECK_STREQ(json_string_value(json_object_get(j, "filename")), "/index.html");
	CHECK_STREQ(json_string_value(json_object_get(j, "state")), "CLOSED");
	CHECK_EQ(json_integer_value(json_object_get(j, "size")), 5);
	CHECK_EQ(json_integer_value(json_object_get(j, "tx_id")), 0);
	CHECK(json_is_false(json_object_get(j, "stored")));
	CHECK(json_is_false(json_object_get(j, "gaps")));
	json_decref(j);
	ctx_free(&c);
	CHECK(c.f.alstate == NULL);
}

TEST(http_pipelined_three_requests_in_one_segment)
{
	Ctx c;

	ctx_init(&c, 80);
	feed(&c, TS, "GET /a HTTP/1.1\r\nHost: h\r\n\r\n"
		     "GET /b HTTP/1.1\r\nHost: h\r\n\r\n"
		     "HEAD /c HTTP/1.1\r\nHost: h\r\n\r\n");
	CHECK_EQ(http_tx_count(&c.f), 3);
	CHECK_STREQ(buf(http_tx_get(&c.f, 0), HTTP_BUF_URI, TS), "/a");
	CHECK_STREQ(buf(http_tx_get(&c.f, 1), HTTP_BUF_URI, TS), "/b");
	CHECK_STREQ(buf(http_tx_get(&c.f, 2), HTTP_BUF_METHOD, TS), "HEAD");
	feed(&c, TC, "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nA"
		     "HTTP/1.1 404 Not Found\r\nContent-Length: 1\r\n\r\nB"
		     "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n");
	CHECK_STREQ(buf(http_tx_get(&c.f, 0), HTTP_BUF_SERVER_BODY, TC), "A");
	CHECK_STREQ(buf(http_tx_get(&c.f, 1), HTTP_BUF_STAT_CODE, TC), "404");
	CHECK_STREQ(buf(http_tx_get(&c.f, 1), HTTP_BUF_SERVER_BODY, TC), "B");
	CHECK_EQ(http_tx_progress(http_tx_get(&c.f, 2), TC), HTTP_PROGRESS_COMPLETE);
	CHECK_EQ(http_tx_id(http_tx_get(&c.f, 2)), 2);
	ctx_free(&c);
}

TEST(http_chunked_response_is_dechunked)
{
	Ctx c;
	HttpTx *tx;

	ctx_init(&c, 80);
	feed(&c, TS, "GET /chunk HTTP/1.1\r\nHost: h\r\n\r\n");
	feed(&c, TC, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
		     "5\r\nhello\r\n");
	tx = http_tx_get(&c.f, 0);
	CHECK_EQ(http_tx_progress(tx, TC), HTTP_PROGRESS_BODY);
	CHECK_STREQ(buf(tx, HTTP_BUF_SERVER_BODY, TC), "hello");
	feed(&c, TC, "7\r\n, world\r\n0\r\n\r\n");
	CHECK_EQ(http_tx_progress(tx, TC), HTTP_PROGRESS_COMPLETE);
	CHECK_STREQ(buf(tx, HTTP_BUF_SERVER_BODY, TC), "hello, world");
	ctx_free(&c);
}

TEST(http_gzip_response_gives_decompressed_file_data)
{
	Ctx c;
	HttpTx *tx;
	char hdr[256];
	const uint8_t *d;
	uint32_t len;

	ctx_init(&c, 80);
	feed(&c, TS, "GET /z HTTP/1.1\r\nHost: h\r\nAccept-Encoding: gzip\r\n\r\n");
	snprintf(hdr, sizeof(hdr), "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n"
		 "Content-Length: %zu\r\n\r\n", sizeof(gz_body));
	feed(&c, TC, hdr);
	feed_bytes(&c, TC, gz_body, sizeof(gz_body));
	tx = http_tx_get(&c.f, 0);
	CHECK_EQ(http_tx_progress(tx, TC), HTTP_PROGRESS_COMPLETE);
	CHECK_EQ(http_tx_buffer_dir(tx, HTTP_BUF_SERVER_BODY, TC, &d, &len), 0);
	CHECK_EQ(len, 252);
	CHECK(memmem(d, len, "SECRET-MARKER-1234", 18) != NULL);
	CHECK_STREQ(buf(tx, HTTP_BUF_ACCEPT_ENC, TS), "gzip");
	json_t *j = http_tx_json(tx, 1);
	/* eve length is the body as sent */
	CHECK_EQ(json_integer_value(json_object_get(j, "length")), sizeof(gz_body));
	json_decref(j);
	ctx_free(&c);
}

TEST(http_gzip_request_body_is_decompressed_in_pieces)
{
	Ctx c;
	HttpTx *tx;
	char hdr[256];
	const uint8_t *d;
	uint32_t len;

	ctx_init(&c, 80);
	snprintf(hdr, sizeof(hdr), "POST /up HTTP/1.1\r\nHost: h\r\nContent-Encoding: gzip\r\n"
		 "Content-Length: %zu\r\n\r\n", sizeof(gz_body));
	feed(&c, TS, hdr);
	feed_bytes(&c, TS, gz_body, 7);
	feed_bytes(&c, TS, gz_body + 7, sizeof(gz_body) - 7);
	tx = http_tx_get(&c.f, 0);
	CHECK_EQ(http_tx_buffer_dir(tx, HTTP_BUF_CLIENT_BODY, TS, &d, &len), 0);
	CHECK_EQ(len, 252);
	CHECK(memmem(d, len, "SECRET-MARKER-1234", 18) != NULL);
	ctx_free(&c);
}

TEST(http_request_body_claiming_gzip_but_clear_stays_as_sent)
{
	Ctx c;
	HttpTx *tx;

	ctx_init(&c, 80);
	feed(&c, TS, "POST /api HTTP/1.1\r\nHost: h\r\nContent-Encoding: gzip\r\n"
		     "Content-Length: 17\r\n\r\n{\"sdk_version\":1}");
	tx = http_tx_get(&c.f, 0);
	CHECK_STREQ(buf(tx, HTTP_BUF_CLIENT_BODY, TS), "{\"sdk_version\":1}");
	CHECK(!http_tx_has_event(tx, http_event_lookup("gzip_decompression_failed")));
	ctx_free(&c);
}

TEST(http_deflate_response_is_decompressed)
{
	Ctx c;
	char hdr[256];

	ctx_init(&c, 80);
	feed(&c, TS, "GET /d HTTP/1.1\r\nHost: h\r\n\r\n");
	snprintf(hdr, sizeof(hdr), "HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\n"
		 "Content-Length: %zu\r\n\r\n", sizeof(deflate_body));
	feed(&c, TC, hdr);
	feed_bytes(&c, TC, deflate_body, sizeof(deflate_body));
	CHECK_STREQ(buf(http_tx_get(&c.f, 0), HTTP_BUF_SERVER_BODY, TC),
		    "deflated body DEFLATE-MARKER");
	ctx_free(&c);
}

TEST(http_request_split_byte_by_byte)
{
	static const char req[] = "POST /up?x=1 HTTP/1.1\r\nHost: Split.Example\r\n"
				  "Content-Length: 4\r\nCookie: a=b\r\n\r\nDATA";
	Ctx c;
	HttpTx *tx;

	ctx_init(&c, 8888);
	for (size_t i = 0; i < sizeof(req) - 1; i++) {
		feed_bytes(&c, TS, req + i, 1);
		if (i < 4)
			CHECK_EQ(c.f.app_proto, ALPROTO_UNKNOWN);
	}
	CHECK_EQ(c.f.app_proto, ALPROTO_HTTP1);
	tx = http_tx_get(&c.f, 0);
	CHECK(tx != NULL);
	CHECK_EQ(http_tx_progress(tx, TS), HTTP_PROGRESS_COMPLETE);
	CHECK_STREQ(buf(tx, HTTP_BUF_METHOD, TS), "POST");
	CHECK_STREQ(buf(tx, HTTP_BUF_URI, TS), "/up?x=1");
	CHECK_STREQ(buf(tx, HTTP_BUF_HOST, TS), "split.example");
	CHECK_STREQ(buf(tx, HTTP_BUF_COOKIE, TS), "a=b");
	CHECK_STREQ(buf(tx, HTTP_BUF_CLIENT_BODY, TS), "DATA");
	ctx_free(&c);
}

/* A gap inside a request line is no data to Suricata 8's parser: the two
 * sides join (an urgent byte dropped by stream.reassembly.urgent.policy
 * drop), where a gap between requests stops the side. */
TEST(http_gap_in_request_line_joins_its_sides)
{
	static const char a[] = "GET /malic", b[] = "ious HTTP/1.1\r\nHost: x\r\n\r\n";
	Ctx c;
	HttpTx *tx;

	ctx_init(&c, 8888);
	feed(&c, TS, a);
	CHECK_EQ(c.f.app_proto, ALPROTO_HTTP1);
	CHECK_EQ(app_layer_handle_data(c.at, &c.f, TS, NULL, 1, APP_GAP), 0);
	feed(&c, TS, b);
	tx = http_tx_get(&c.f, 0);
	CHECK(tx != NULL);
	CHECK_EQ(http_tx_progress(tx, TS), HTTP_PROGRESS_COMPLETE);
	CHECK_STREQ(buf(tx, HTTP_BUF_URI, TS), "/malicious");
	/* between requests: nothing more is parsed on that side */
	app_layer_handle_data(c.at, &c.f, TS, NULL, 5, APP_GAP);
	feed(&c, TS, "GET /next HTTP/1.1\r\nHost: x\r\n\r\n");
	CHECK(http_tx_get(&c.f, 1) == NULL);
	ctx_free(&c);
}

/* A side's progress names what is complete, as the detection's buffers
 * need it: the line only once its CRLF came, the headers only once the
 * empty line came (libhtp's own state names what is being parsed). */
TEST(http_progress_counts_only_complete_parts)
{
	Ctx c;
	HttpTx *tx;

	ctx_init(&c, 80);
	feed(&c, TS, "POST /a/b/c HT");
	tx = http_tx_get(&c.f, 0);
	CHECK(tx != NULL);
	CHECK_EQ(http_tx_progress(tx, TS), HTTP_PROGRESS_NONE);
	feed(&c, TS, "TP/1.1\r\nHost: x\r\nContent-Le");
	CHECK_EQ(http_tx_progress(tx, TS), HTTP_PROGRESS_LINE);
	CHECK_STREQ(buf(tx, HTTP_BUF_URI, TS), "/a/b/c");
	feed(&c, TS, "ngth: 4\r\n\r\nDA");
	CHECK(http_tx_progress(tx, TS) >= HTTP_PROGRESS_HEADERS);
	CHECK(http_tx_progress(tx, TS) < HTTP_PROGRESS_COMPLETE);
	feed(&c, TS, "TA");
	CHECK_EQ(http_tx_progress(tx, TS), HTTP_PROGRESS_COMPLETE);
	feed(&c, TC, "HTTP/1.1 200");
	CHECK_EQ(http_tx_progress(tx, TC), HTTP_PROGRESS_NONE);
	feed(&c, TC, " OK\r\nContent-Length: 0\r\n");
	CHECK_EQ(http_tx_progress(tx, TC), HTTP_PROGRESS_LINE);
	feed(&c, TC, "\r\n");
	CHECK_EQ(http_tx_progress(tx, TC), HTTP_PROGRESS_COMPLETE);
	ctx_free(&c);
}

TEST(http_post_body_respects_request_body_limit)
{
	Ctx c;
	HttpTx *tx;
	const uint8_t *d;
	uint32_t len;

	CHECK_EQ(conf_set("app-layer.protocols.http.libhtp.default-config.request-body-limit",
			  "10"), 0);
	ctx_init(&c, 80);
	conf_set("app-layer.protocols.http.libhtp.default-config.request-body-limit", "100kb");
	CHECK_EQ(c.cfg.request_body_limit, 10);
	feed(&c, TS, "POST /form HTTP/1.1\r\nHost: h\r\nContent-Length: 26\r\n\r\n"
		     "abcdefghijklmnopqrstuvwxyz");
	tx = http_tx_get(&c.f, 0);
	CHECK_EQ(http_tx_buffer_dir(tx, HTTP_BUF_CLIENT_BODY, TS, &d, &len), 0);
	CHECK_EQ(len, 10);
	CHECK(memcmp(d, "abcdefghij", 10) == 0);
	CHECK_EQ(http_tx_body_truncated(tx, TS), 1);
	/* the body limit cuts the file too (Suricata's libhtp limits): what
	 * was kept, TRUNCATED */
	json_t *j = fileinfo(tx, TS, 0);
	CHECK(j != NULL);
	CHECK_EQ(json_integer_value(json_object_get(j, "size")), 10);
	CHECK_STREQ(json_string_value(json_object_get(j, "state")), "TRUNCATED");
	json_decref(j);
	ctx_free(&c);
}

TEST(http_uri_normalized_vs_raw)
{
	Ctx c;
	HttpTx *tx;

	ctx_init(&c, 80);
	feed(&c, TS, "GET /a/./b/../c/%41%42?q=%41+b HTTP/1.1\r\nHost: h\r\n\r\n");
	tx = http_tx_get(&c.f, 0);
	CHECK_STREQ(buf(tx, HTTP_BUF_RAW_URI, TS), "/a/./b/../c/%41%42?q=%41+b");
	/* Suricata 8 decodes the query once too; '+' stays (from_base64-02) */
	CHECK_STREQ(buf(tx, HTTP_BUF_URI, TS), "/a/c/AB?q=A+b");
	ctx_free(&c);
}

TEST(http_header_buffers_formatting)
{
	Ctx c;
	HttpTx *tx;

	ctx_init(&c, 80);
	feed(&c, TS, "GET / HTTP/1.1\r\nHost: WWW.Example.COM:8080\r\n"
		     "User-Agent: Mozilla/5.0 (X)\r\nCookie: sess=1; b=2\r\n"
		     "Accept: */*\r\nAccept-Language: en-us\r\nReferer: http://r/\r\n"
		     "Connection: keep-alive\r\n\r\n");
	tx = http_tx_get(&c.f, 0);
	CHECK_STREQ(buf(tx, HTTP_BUF_USER_AGENT, TS), "Mozilla/5.0 (X)");
	CHECK_STREQ(buf(tx, HTTP_BUF_COOKIE, TS), "sess=1; b=2");
	CHECK_STREQ(buf(tx, HTTP_BUF_HOST, TS), "www.example.com");
	CHECK_STREQ(buf(tx, HTTP_BUF_RAW_HOST, TS), "WWW.Example.COM:8080");
	CHECK_STREQ(buf(tx, HTTP_BUF_ACCEPT, TS), "*/*");
	CHECK_STREQ(buf(tx, HTTP_BUF_ACCEPT_LANG, TS), "en-us");
	CHECK_STREQ(buf(tx, HTTP_BUF_REFERER, TS), "http://r/");
	CHECK_STREQ(buf(tx, HTTP_BUF_CONNECTION, TS), "keep-alive");
	/* normalized header block: no cookie, every line CRLF-terminated */
	CHECK_STREQ(buf(tx, HTTP_BUF_HEADER, TS),
		    "Host: WWW.Example.COM:8080\r\nUser-Agent: Mozilla/5.0 (X)\r\n"
		    "Accept: */*\r\nAccept-Language: en-us\r\nReferer: http://r/\r\n"
		    "Connection: keep-alive\r\n");
	CHECK_STREQ(buf(tx, HTTP_BUF_HEADER_NAMES, TS),
		    "\r\nHost\r\nUser-Agent\r\nCookie\r\nAccept\r\nAccept-Language\r\n"
		    "Referer\r\nConnection\r\n\r\n");
	CHECK_STREQ(buf(tx, HTTP_BUF_RAW_HEADER, TS),
		    "Host: WWW.Example.COM:8080\r\nUser-Agent: Mozilla/5.0 (X)\r\n"
		    "Cookie: sess=1; b=2\r\nAccept: */*\r\nAccept-Language: en-us\r\n"
		    "Referer: http://r/\r\nConnection: keep-alive\r\n\r\n");
	const char *start = buf(tx, HTTP_BUF_START, TS);
	CHECK(start != NULL);
	CHECK(strncmp(start, "GET / HTTP/1.1\r\nHost: WWW.Example.COM:8080\r\n", 44) == 0);
	CHECK(strstr(start, "Cookie: sess=1; b=2\r\n") != NULL);
	CHECK(strcmp(start + strlen(start) - 4, "\r\n\r\n") == 0);

	const uint8_t *d;
	uint32_t len;
	CHECK_EQ(http_tx_buffer_multi(tx, HTTP_BUF_REQUEST_HEADER, 1, &d, &len), 0);
	CHECK_EQ(len, strlen("User-Agent: Mozilla/5.0 (X)"));
	CHECK(memcmp(d, "User-Agent: Mozilla/5.0 (X)", len) == 0);
	CHECK_EQ(http_tx_buffer_multi(tx, HTTP_BUF_REQUEST_HEADER, 7, &d, &len), -1);

	json_t *j = http_tx_json(tx, 1);
	CHECK_EQ(json_integer_value(json_object_get(j, "http_port")), 8080);
	CHECK_STREQ(json_string_value(json_object_get(j, "http_refer")), "http://r/");
	json_decref(j);

	/* a response's Set-Cookie is its cookie buffer, out of its header buffer */
	feed(&c, TC, "HTTP/1.1 302 Found\r\nSet-Cookie: id=9\r\nLocation: /new\r\n"
		     "Content-Length: 0\r\n\r\n");
	CHECK_STREQ(buf(tx, HTTP_BUF_COOKIE, TC), "id=9");
	CHECK_STREQ(buf(tx, HTTP_BUF_LOCATION, TC), "/new");
	CHECK_STREQ(buf(tx, HTTP_BUF_HEADER, TC), "Location: /new\r\nContent-Length: 0\r\n");
	j = http_tx_json(tx, 1);
	CHECK_STREQ(json_string_value(json_object_get(j, "redirect")), "/new");
	json_decref(j);
	ctx_free(&c);
}

/* The header buffers read the first header of a name, caseless, a repeated
 * one folded into it; one absent at first appears once a trailer adds it
 * (the side's index is rebuilt when its table grows). */
TEST(http_header_buffers_by_name_follow_the_table)
{
	Ctx c;
	HttpTx *tx;

	ctx_init(&c, 80);
	feed(&c, TS, "POST /up HTTP/1.1\r\nhost: h\r\nUSER-AGENT: a\r\n"
		     "Transfer-Encoding: chunked\r\nuser-agent: b\r\n\r\n");
	tx = http_tx_get(&c.f, 0);
	CHECK(tx != NULL);
	CHECK_STREQ(buf(tx, HTTP_BUF_USER_AGENT, TS), "a, b");
	CHECK_STREQ(buf(tx, HTTP_BUF_RAW_HOST, TS), "h");
	CHECK(buf(tx, HTTP_BUF_REFERER, TS) == NULL);
	CHECK(buf(tx, HTTP_BUF_SERVER, TS) == NULL);
	feed(&c, TS, "3\r\nabc\r\n0\r\nReferer: http://t/\r\n\r\n");
	CHECK_STREQ(buf(tx, HTTP_BUF_REFERER, TS), "http://t/");
	CHECK_STREQ(buf(tx, HTTP_BUF_USER_AGENT, TS), "a, b");
	ctx_free(&c);
}

TEST(http_malformed_request_raises_event)
{
	Ctx c;
	HttpTx *tx;
	int ev = http_event_lookup("request_field_missing_colon");

	CHECK(ev >= 0);
	CHECK_EQ(http_event_lookup("http.request_field_missing_colon"), ev);
	CHECK_STREQ(http_event_name(ev), "request_field_missing_colon");
	CHECK_EQ(http_event_lookup("no_such_event"), -1);
	ctx_init(&c, 80);
	feed(&c, TS, "GET / HTTP/1.1\r\nHost: h\r\nThisHasNoColon\r\n\r\n");
	tx = http_tx_get(&c.f, 0);
	CHECK(tx != NULL);
	CHECK(http_tx_has_event(tx, ev));
	CHECK_EQ(http_tx_event_get(tx, 0) >= 0, 1);
	ctx_free(&c);
}

/* Suricata 8: a request line without a protocol followed by more than
 * an end of line is a request with headers (suricata-verify http-not09),
 * not HTTP/0.9. */
TEST(http_request_line_missing_protocol_parses_headers)
{
	Ctx c;
	HttpTx *tx;
	int ev = http_event_lookup("request_line_missing_protocol");

	CHECK(ev >= 0);
	ctx_init(&c, 80);
	feed(&c, TS, "GET /\r\nFakeHeader\r\nHost: localhost\r\nUser-Agent: myscript\r\n\r\n");
	tx = http_tx_get(&c.f, 0);
	CHECK(tx != NULL);
	CHECK_STREQ(buf(tx, HTTP_BUF_USER_AGENT, TS), "myscript");
	CHECK(http_tx_has_event(tx, ev));
	ctx_free(&c);
}

TEST(http_09_request_alone_stays_09)
{
	Ctx c;
	HttpTx *tx;

	ctx_init(&c, 80);
	feed(&c, TS, "GET /index.html\r\n");
	tx = http_tx_get(&c.f, 0);
	CHECK(tx != NULL);
	CHECK(!http_tx_has_event(tx, http_event_lookup("request_line_missing_protocol")));
	CHECK_EQ(http_tx_progress(tx, TS), HTTP_PROGRESS_COMPLETE);
	ctx_free(&c);
}

/* libhtp 0.5.42 skips chunk extensions silently; Suricata 8 raises
 * request_chunk_extension (suricata-verify http-event-chunk), wherever
 * the segments cut the body. */
TEST(http_request_chunk_extension_raises_event)
{
	Ctx c;
	HttpTx *tx;
	int ev = http_event_lookup("request_chunk_extension");

	CHECK(ev >= 0);
	ctx_init(&c, 80);
	feed(&c, TS, "POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n8 \r\nto;otata");
	tx = http_tx_get(&c.f, 0);
	CHECK(tx != NULL);
	CHECK(!http_tx_has_event(tx, ev));
	feed(&c, TS, "\r\n4\r\ntiti\r\n0 ; a=b\r\n\r\n");
	CHECK(http_tx_has_event(tx, ev));
	CHECK_STREQ(buf(tx, HTTP_BUF_CLIENT_BODY, TS), "to;otatatiti");
	feed(&c, TS, "POST /b HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
		     "3\r\n;;;\r\n0\r\n\r\n");
	tx = http_tx_get(&c.f, 1);
	CHECK(tx != NULL);
	CHECK(!http_tx_has_event(tx, ev));
	ctx_free(&c);
}

TEST(http_missing_host_raises_event)
{
	Ctx c;

	ctx_init(&c, 80);
	feed(&c, TS, "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n");
	CHECK(http_tx_has_event(http_tx_get(&c.f, 0), http_event_lookup("missing_host_header")));
	ctx_free(&c);
}

TEST(http_invalid_chunk_len_raises_event)
{
	Ctx c;

	ctx_init(&c, 80);
	feed(&c, TS, "GET / HTTP/1.1\r\nHost: h\r\n\r\n");
	feed(&c, TC, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nZZZZ\r\nxx\r\n");
	CHECK(http_tx_has_event(http_tx_get(&c.f, 0),
				http_event_lookup("invalid_response_chunk_len")));
	ctx_free(&c);
}

TEST(http_detected_by_content_on_port_8888)
{
	Ctx c;

	ctx_init(&c, 8888);
	feed(&c, TS, "OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n");
	CHECK_EQ(c.f.app_proto, ALPROTO_HTTP1);
	CHECK_EQ(http_tx_count(&c.f), 1);
	ctx_free(&c);
}

TEST(http_detected_from_response_side)
{
	Ctx c;

	ctx_init(&c, 9999);
	feed(&c, TC, "HTTP/1.0 200 OK\r\n\r\n");
	CHECK_EQ(c.f.app_proto, ALPROTO_HTTP1);
	ctx_free(&c);
}

TEST(non_http_flow_fails_detection)
{
	Ctx c;
	uint64_t before = cval("app_layer.flow.failed_tcp");

	/* (SSH banners were this test's bytes until SSH became a protocol) */
	ctx_init(&c, 22);
	CHECK_EQ(feed(&c, TS, "\x01\x02 binary hello\r\n"), 0);
	/* one side said no; the other may still say yes */
	CHECK_EQ(c.f.app_proto, ALPROTO_UNKNOWN);
	CHECK_EQ(feed(&c, TC, "\x01\x03 binary reply\r\n"), -1);
	CHECK_EQ(c.f.app_proto, ALPROTO_FAILED);
	CHECK_STREQ(app_proto_name(c.f.app_proto), "failed");
	CHECK_EQ(cval("app_layer.flow.failed_tcp"), before + 1);
	CHECK_EQ(http_tx_count(&c.f), 0);
	CHECK(http_tx_get(&c.f, 0) == NULL);
	ctx_free(&c);
}

TEST(non_http_fails_when_other_side_closes)
{
	Ctx c;

	ctx_init(&c, 5555);
	/* neither HTTP nor TLS (a TLS record start is TLS now) */
	feed(&c, TS, "\x17\x01\x01\x02\x05\x01\x07\x01\xfc\x03\x03");
	app_layer_handle_data(c.at, &c.f, TC, NULL, 0, APP_EOF);
	CHECK_EQ(c.f.app_proto, ALPROTO_FAILED);
	ctx_free(&c);
}

TEST(unknown_method_is_http_only_on_detection_ports)
{
	Ctx c;

	ctx_init(&c, 80);
	feed(&c, TS, "FROB /x HTTP/1.1\r\nHost: h\r\n\r\n");
	CHECK_EQ(c.f.app_proto, ALPROTO_HTTP1);
	CHECK_STREQ(buf(http_tx_get(&c.f, 0), HTTP_BUF_METHOD, TS), "FROB");
	ctx_free(&c);

	ctx_init(&c, 8888);
	feed(&c, TS, "FROB /x HTTP/1.1\r\nHost: h\r\n\r\n");
	feed(&c, TC, "FROBBED\r\n");
	CHECK_EQ(c.f.app_proto, ALPROTO_FAILED);
	ctx_free(&c);
}

TEST(http_tx_gc_frees_finished_transactions)
{
	Ctx c;
	HttpTx *tx;

	ctx_init(&c, 80);
	feed(&c, TS, "GET /1 HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\n");
	feed(&c, TC, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
	tx = http_tx_get(&c.f, 0);
	/* not logged yet: kept */
	app_layer_tx_gc(&c.f, APP_TX_LOGGED);
	CHECK(http_tx_get(&c.f, 0) == tx);
	http_tx_set_flags(tx, APP_TX_LOGGED);
	CHECK_EQ(http_tx_flags(tx), APP_TX_LOGGED);
	app_layer_tx_gc(&c.f, APP_TX_LOGGED);
	CHECK(http_tx_get(&c.f, 0) == NULL);
	/* the unfinished one stays, and ids do not move */
	CHECK(http_tx_get(&c.f, 1) != NULL);
	CHECK_EQ(http_tx_count(&c.f), 2);
	feed(&c, TC, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
	CHECK_EQ(http_tx_progress(http_tx_get(&c.f, 1), TC), HTTP_PROGRESS_COMPLETE);
	ctx_free(&c);
}

/* One keep-alive request and its response, then what the worker does
 * after the packet: the tx logged, the gc run. */
static void keepalive_round(Ctx *c, unsigned i, int log)
{
	char req[64];

	snprintf(req, sizeof(req), "GET /k/%u HTTP/1.1\r\nHost: h\r\n\r\n", i);
	feed(c, TS, req);
	feed(c, TC, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
	if (log)
		http_tx_set_flags(http_tx_get(&c->f, i), APP_TX_LOGGED);
	app_layer_tx_gc(&c->f, APP_TX_LOGGED);
}

/* issue 43: the gc kept no mark and scanned every slot the connection ever
 * used on each call. The mark follows the finished requests, so the live
 * part (count - mark) stays at none. */
TEST(http_tx_gc_mark_follows_finished_keepalive_requests)
{
	Ctx c;
	unsigned behind = 0;

	ctx_init(&c, 80);
	for (unsigned i = 0; i < 1000; i++) {
		keepalive_round(&c, i, 1);
		if (app_layer_tx_low(&c.f) != i + 1)
			behind++;
	}
	CHECK_EQ(behind, 0);
	CHECK_EQ(app_layer_tx_count(&c.f), 1000);
	CHECK_EQ(app_layer_tx_low(&c.f), 1000);
	CHECK(app_layer_tx_get(&c.f, 999) == NULL);
	ctx_free(&c);
}

/* A transaction that must stay holds the mark, not the ones after it: they
 * are freed; once it goes the mark passes them all. */
TEST(http_tx_gc_mark_waits_for_a_kept_tx)
{
	Ctx c;
	unsigned freed = 0;

	ctx_init(&c, 80);
	keepalive_round(&c, 0, 0);
	for (unsigned i = 1; i < 10; i++)
		keepalive_round(&c, i, 1);
	for (unsigned i = 1; i < 10; i++)
		freed += http_tx_get(&c.f, i) == NULL;
	CHECK_EQ(freed, 9);
	CHECK(http_tx_get(&c.f, 0) != NULL);
	CHECK_EQ(app_layer_tx_low(&c.f), 0);
	http_tx_set_flags(http_tx_get(&c.f, 0), APP_TX_LOGGED);
	app_layer_tx_gc(&c.f, APP_TX_LOGGED);
	CHECK(http_tx_get(&c.f, 0) == NULL);
	CHECK_EQ(app_layer_tx_low(&c.f), 10);
	/* the next one is live: the mark stops at it */
	feed(&c, TS, "GET /next HTTP/1.1\r\nHost: h\r\n\r\n");
	app_layer_tx_gc(&c.f, APP_TX_LOGGED);
	CHECK_EQ(app_layer_tx_low(&c.f), 10);
	CHECK_EQ(app_layer_tx_count(&c.f), 11);
	ctx_free(&c);
}

static void ctx_init_max_tx(Ctx *c, uint32_t max_tx)
{
	app_layer_config_load(&c->cfg);
	c->cfg.max_tx = max_tx;
	app_test_start(c, IPPROTO_TCP, "10.0.0.2", 40000, 80);
	c->f.start.tv_sec = c->f.last.tv_sec = 1700000000;
}

/* max-tx bounds the live transactions, not those of the connection's
 * life: finished and freed ones leave room (a keep-alive connection is
 * never cut at max-tx requests). */
TEST(http_max_tx_counts_live_transactions_only)
{
	Ctx c;

	ctx_init_max_tx(&c, 8);
	for (unsigned i = 0; i < 40; i++)
		keepalive_round(&c, i, 1);
	CHECK_EQ(app_layer_tx_count(&c.f), 40);
	CHECK_EQ(app_layer_tx_low(&c.f), 40);
	ctx_free(&c);
}

/* Requests pipelined to a server that never answers: past max-tx live
 * ones the request side is parsed no further (counted as a parser
 * error), so no walk over them grows without bound; the answers still
 * complete the ones held. */
TEST(http_max_tx_stops_unanswered_pipelined_requests)
{
	Ctx c;
	char req[64];
	uint64_t errs = cval("app_layer.error.http.parser");

	ctx_init_max_tx(&c, 8);
	for (unsigned i = 0; i < 20; i++) {
		snprintf(req, sizeof(req), "GET /p/%u HTTP/1.1\r\nHost: h\r\n\r\n", i);
		feed(&c, TS, req);
		app_layer_tx_gc(&c.f, APP_TX_LOGGED);
	}
	CHECK_EQ(app_layer_tx_count(&c.f), 8);
	CHECK_EQ(cval("app_layer.error.http.parser"), errs + 1);
	for (unsigned i = 0; i < 8; i++)
		feed(&c, TC, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
	CHECK_EQ(http_tx_progress(http_tx_get(&c.f, 7), TC), HTTP_PROGRESS_COMPLETE);
	feed(&c, TS, "GET /after HTTP/1.1\r\nHost: h\r\n\r\n");
	CHECK_EQ(app_layer_tx_count(&c.f), 8);
	ctx_free(&c);
}

static int freed_detect_states;
static void count_free(void *p)
{
	free(p);
	freed_detect_states++;
}

TEST(http_detect_slot_freed_with_flow)
{
	Ctx c;
	HttpTx *tx;

	http_set_detect_state_free(count_free);
	freed_detect_states = 0;
	ctx_init(&c, 80);
	feed(&c, TS, "GET / HTTP/1.1\r\nHost: h\r\n\r\n");
	tx = http_tx_get(&c.f, 0);
	*http_tx_detect_slot(tx) = malloc(16);
	ctx_free(&c);
	CHECK_EQ(freed_detect_states, 1);
	http_set_detect_state_free(NULL);
}

TEST(app_layer_config_reads_suricata_keys)
{
	AppLayerConfig cfg;
	char err[256];

	static const char *yaml =
		"app-layer:\n"
		"  protocols:\n"
		"    http:\n"
		"      enabled: detection-only\n"
		"      detection-ports:\n"
		"        dp: \"80, 81, 8000:8002\"\n"
		"      libhtp:\n"
		"        default-config:\n"
		"          personality: IIS_7_0\n"
		"          request-body-limit: 4kb\n"
		"          response-body-limit: 2mb\n"
		"          meta-field-limit: 18k\n"
		"          double-decode-path: yes\n";

	CHECK_EQ(conf_load_string(yaml, "t", err, sizeof(err)), 0);
	CHECK_EQ(app_layer_config_load(&cfg), 0);
	CHECK_EQ(cfg.http_enabled, 2);
	CHECK_EQ(cfg.http_nports, 5);
	CHECK_EQ(cfg.http_ports[4], 8002);
	CHECK_EQ(cfg.personality, HTTP_PERS_IIS_7_0);
	CHECK_EQ(cfg.request_body_limit, 4096);
	CHECK_EQ(cfg.response_body_limit, 2 * 1024 * 1024);
	CHECK_EQ(cfg.meta_field_limit, 18 * 1024);
	CHECK_EQ(cfg.double_decode_path, 1);

	conf_set("app-layer.protocols.http.libhtp.default-config.personality", "Nope");
	CHECK_EQ(app_layer_config_load(&cfg), -1);
	conf_deinit();
	CHECK_EQ(app_layer_config_load(&cfg), 0);
	CHECK_EQ(cfg.http_enabled, 1);
	CHECK_EQ(cfg.personality, HTTP_PERS_IDS);
	CHECK_EQ(cfg.request_body_limit, 100 * 1024);
}

TEST(detection_only_sets_proto_without_transactions)
{
	Ctx c;

	conf_set("app-layer.protocols.http.enabled", "detection-only");
	ctx_init(&c, 80);
	conf_deinit();
	feed(&c, TS, "GET / HTTP/1.1\r\nHost: h\r\n\r\n");
	CHECK_EQ(c.f.app_proto, ALPROTO_HTTP1);
	CHECK_EQ(http_tx_count(&c.f), 0);
	ctx_free(&c);
}

#ifndef SURICATA_TOP_SRCDIR
#define SURICATA_TOP_SRCDIR "."
#endif

/* Every rule in rules/http-events.rules names an event the parser can raise. */
TEST(http_events_rules_name_known_events)
{
	FILE *fp = fopen(SURICATA_TOP_SRCDIR "/rules/http-events.rules", "r");
	char line[1024];
	int rules = 0;

	CHECK(fp != NULL);
	while (fgets(line, sizeof(line), fp)) {
		char *p = strstr(line, "app-layer-event:http."), *e;

		if (line[0] == '#' || !p)
			continue;
		p += strlen("app-layer-event:http.");
		e = strchr(p, ';');
		if (!e)
			break;
		*e = '\0';
		if (http_event_lookup(p) < 0) {
			fclose(fp);
			CHECK_STREQ(p, "a known event");
		}
		rules++;
	}
	fclose(fp);
	CHECK(rules >= 40);
}

TEST(http_gap_in_body_is_skipped_and_parsing_goes_on)
{
	Ctx c;
	HttpTx *tx;
	const File *f;
	uint64_t before = cval("app_layer.error.http.gap");

	ctx_init(&c, 80);
	feed(&c, TS, "GET /1 HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\n");
	feed(&c, TC, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabc");
	CHECK_EQ(app_layer_handle_data(c.at, &c.f, TC, NULL, 50, APP_GAP), 0);
	CHECK_EQ(cval("app_layer.error.http.gap"), before + 1);
	/* the body's last 47 bytes, then the next response */
	CHECK_EQ(feed(&c, TC, "0123456789012345678901234567890123456789012345x"
			      "HTTP/1.1 404 No\r\nContent-Length: 2\r\n\r\nhi"), 0);
	tx = http_tx_get(&c.f, 0);
	CHECK_EQ(http_tx_progress(tx, TC), HTTP_PROGRESS_COMPLETE);
	f = files_first(http_tx_files(tx, TC, 0));
	CHECK(f != NULL);
	/* the hole counts in the size (Suricata 8: http-gap-simple) */
	CHECK_EQ(file_size(f), 100);
	CHECK(file_has_gaps(f));
	CHECK_EQ(file_state(f), FILE_STATE_TRUNCATED);
	tx = http_tx_get(&c.f, 1);
	CHECK_EQ(http_tx_progress(tx, TC), HTTP_PROGRESS_COMPLETE);
	f = files_first(http_tx_files(tx, TC, 0));
	CHECK(f != NULL && file_size(f) == 2 && !file_has_gaps(f));
	CHECK_EQ(file_state(f), FILE_STATE_CLOSED);
	ctx_free(&c);
}

TEST(http_gap_in_headers_stops_that_side)
{
	Ctx c;

	ctx_init(&c, 80);
	feed(&c, TS, "GET / HTTP/1.1\r\nHost: h\r\n\r\n");
	feed(&c, TC, "HTTP/1.1 200 OK\r\nContent-Le");
	/* a header lost: nothing after it can be trusted */
	CHECK_EQ(app_layer_handle_data(c.at, &c.f, TC, NULL, 50, APP_GAP), -1);
	CHECK_EQ(feed(&c, TC, "more\r\n\r\n"), -1);
	/* the request side goes on */
	CHECK_EQ(feed(&c, TS, "GET /next HTTP/1.1\r\nHost: h\r\n\r\n"), 0);
	CHECK_EQ(http_tx_count(&c.f), 2);
	ctx_free(&c);
}

TEST(http_second_100_continue_raises_event_and_parses_on)
{
	Ctx c;
	HttpTx *tx;

	ctx_init(&c, 80);
	feed(&c, TS, "POST /up HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n"
		     "Content-Length: 2\r\n\r\nab");
	feed(&c, TC, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n"
		     "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nxyz");
	tx = http_tx_get(&c.f, 0);
	CHECK(tx != NULL);
	CHECK_EQ(http_tx_progress(tx, TC), HTTP_PROGRESS_COMPLETE);
	CHECK(http_tx_has_event(tx, http_event_lookup("100_continue_already_seen")));
	CHECK_STREQ(buf(tx, HTTP_BUF_SERVER_BODY, TC), "xyz");
	ctx_free(&c);
}

TEST(http_content_range_parses_rfc_forms)
{
	HttpContentRange cr;

#define CR(s) http_content_range_parse((const uint8_t *)(s), strlen(s), &cr)
	CHECK_EQ(CR("bytes 0-9999/146515"), 0);
	CHECK(cr.start == 0 && cr.end == 9999 && cr.size == 146515);
	CHECK(http_content_range_usable(&cr));
	CHECK_EQ(CR("bytes 10-20/*"), 0);
	CHECK(cr.start == 10 && cr.end == 20 && cr.size == -1);
	CHECK(!http_content_range_usable(&cr));
	CHECK_EQ(CR("bytes */500"), 0);
	CHECK(cr.start == -1 && cr.end == -1 && cr.size == 500);
	CHECK_EQ(CR("  bytes   5-9/10"), 0);
	CHECK(cr.start == 5 && cr.size == 10);
	CHECK_EQ(CR("bytes 9-5/10"), 0);
	CHECK(!http_content_range_usable(&cr));   /* last before first */
	CHECK_EQ(CR("bytes 0-10/10"), 0);
	CHECK(!http_content_range_usable(&cr));   /* past the size */
	CHECK_EQ(CR("bytes x-5/10"), -1);
	CHECK_EQ(CR("bytes 0-5"), -1);
	CHECK_EQ(CR("bytes 99999999999999999999-1/2"), -1);
#undef CR
}

static void range_tx(Ctx *c, const char *range, const char *body)
{
	char rsp[256];

	feed(c, TS, "GET /pic.jpg HTTP/1.1\r\nHost: img.example\r\n\r\n");
	snprintf(rsp, sizeof(rsp), "HTTP/1.1 206 Partial\r\nContent-Range: %s\r\n"
		 "Content-Length: %zu\r\n\r\n%s", range, strlen(body), body);
	feed(c, TC, rsp);
}

static int whole_files(Ctx *c, uint64_t size)
{
	int n = 0;

	for (uint64_t id = 0; id < http_tx_count(&c->f); id++)
		for (const File *f = files_first(http_tx_files(http_tx_get(&c->f, id), TC, 0)); f;
		     f = file_next(f))
			n += file_size(f) == size;
	return n;
}

TEST(http_ranges_out_of_order_across_flows_make_one_whole_file)
{
	Ctx a, b;
	const File *f;
	uint32_t nl;

	ctx_init(&a, 80);
	ctx_init(&b, 80);
	range_tx(&a, "bytes 4-7/12", "EFGH");
	range_tx(&b, "bytes 8-11/12", "IJKL");
	CHECK_EQ(whole_files(&a, 12) + whole_files(&b, 12), 0);
	/* each range is its own file too */
	CHECK_EQ(whole_files(&a, 4), 1);
	range_tx(&a, "bytes 0-3/12", "ABCD");
	CHECK_EQ(whole_files(&a, 12), 1);
	CHECK_EQ(whole_files(&b, 12), 0);
	/* the whole file on the transaction that completed it */
	f = file_next(files_first(http_tx_files(http_tx_get(&a.f, 1), TC, 0)));
	CHECK(f != NULL && file_size(f) == 12 && file_state(f) == FILE_STATE_CLOSED);
	CHECK(memcmp(file_name(f, &nl), "/pic.jpg", 8) == 0 && nl == 8);
	/* once: a range seen again starts nothing whole */
	range_tx(&b, "bytes 0-3/12", "ABCD");
	CHECK_EQ(whole_files(&b, 12), 0);
	ctx_free(&a);
	ctx_free(&b);
	http_range_cleanup();
	CHECK_EQ(http_range_memuse(), 0);
}

TEST(http_range_bad_content_range_raises_range_invalid)
{
	Ctx c;

	ctx_init(&c, 80);
	range_tx(&c, "bytes 7-3/12", "ABCDE");
	CHECK(http_tx_has_event(http_tx_get(&c.f, 0), http_event_lookup("range_invalid")));
	CHECK_EQ(whole_files(&c, 5), 1);
	ctx_free(&c);
}

TEST(http_range_memcap_leaves_ranges_separate)
{
	Ctx c;

	ctx_init(&c, 80);
	http_range_configure(100, 60);   /* after the config load sets it */
	range_tx(&c, "bytes 0-3/8", "ABCD");
	range_tx(&c, "bytes 4-7/8", "EFGH");
	CHECK_EQ(whole_files(&c, 8), 0);
	ctx_free(&c);
	http_range_configure(100ull << 20, 60);
	http_range_cleanup();
}

TEST(http_uri_with_a_space_keeps_it_before_the_protocol)
{
	Ctx c;
	HttpTx *tx;

	ctx_init(&c, 80);
	feed(&c, TS, "GET /uri afterspace HTTP/1.1\r\nHost: h\r\nUser-Agent: \r\n\r\n");
	tx = http_tx_get(&c.f, 0);
	CHECK(tx != NULL);
	CHECK_STREQ(buf(tx, HTTP_BUF_RAW_URI, TS), "/uri afterspace");
	CHECK_STREQ(buf(tx, HTTP_BUF_PROTOCOL, TS), "HTTP/1.1");
	CHECK_STREQ(buf(tx, HTTP_BUF_METHOD, TS), "GET");
	/* an empty header is an empty buffer, not an absent one (bsize:0) */
	CHECK_STREQ(buf(tx, HTTP_BUF_USER_AGENT, TS), "");
	ctx_free(&c);
}

TEST(http_request_te_naming_chunked_among_others_is_chunked)
{
	Ctx c;
	HttpTx *tx;

	ctx_init(&c, 80);
	feed(&c, TS, "POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n"
		     "3\r\nabc\r\n0\r\n\r\nGET /b HTTP/1.1\r\nHost: h\r\nX-N: 2\r\n\r\n");
	tx = http_tx_get(&c.f, 0);
	CHECK(tx != NULL);
	CHECK_EQ(http_tx_progress(tx, TS), HTTP_PROGRESS_COMPLETE);
	CHECK_STREQ(buf(tx, HTTP_BUF_CLIENT_BODY, TS), "abc");
	CHECK(!http_tx_has_event(tx, http_event_lookup("invalid_transfer_encoding_value_in_request")));
	/* the next request is parsed */
	CHECK_EQ(http_tx_count(&c.f), 2);
	CHECK_STREQ(buf(http_tx_get(&c.f, 1), HTTP_BUF_RAW_URI, TS), "/b");
	ctx_free(&c);
}

TEST(http_gap_counts_in_the_file_size_not_against_the_body_limit)
{
	Ctx c;
	const File *f;

	app_layer_config_load(&c.cfg);
	c.cfg.response_body_limit = 10;
	app_test_start(&c, IPPROTO_TCP, "10.0.0.2", 40000, 80);
	c.f.start.tv_sec = c.f.last.tv_sec = 1700000000;
	feed(&c, TS, "GET /big HTTP/1.1\r\nHost: h\r\n\r\n");
	feed(&c, TC, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n01234567");
	app_layer_handle_data(c.at, &c.f, TC, NULL, 50, APP_GAP);
	feed(&c, TC, "abcdefghijklmnopqrstuvwxyz");
	f = files_first(http_tx_files(http_tx_get(&c.f, 0), TC, 1));
	CHECK(f != NULL);
	/* 8 seen, the 50 lost, then 2 more seen up to the 10-byte limit */
	CHECK_EQ(file_size(f), 60);
	CHECK(file_has_gaps(f));
	CHECK_EQ(file_state(f), FILE_STATE_TRUNCATED);
	ctx_free(&c);
}

#ifdef HAVE_BROTLI
/* brotli.compress(b"brotli decoded body: hello world hello world hello world") */
static const uint8_t br_body[] =
	"\x1b\x37\x00\xf8\x45\xdd\x96\xea\x4a\x7e\x8b\x77\x03\x85\xc1\xe0\x08\x62\x70\x15"
	"\x0b\x58\x3d\xb9\x3e\xa0\x56\x28\xa2\xc3\x5f\xd8\xb2\x83\x97\x31\x01";

TEST(http_response_brotli_body_is_decoded_for_file_data_and_files)
{
	Ctx c;
	HttpTx *tx;
	const File *f;
	char hdr[128];
	const char *want = "brotli decoded body: hello world hello world hello world";

	ctx_init(&c, 80);
	feed(&c, TS, "GET /b HTTP/1.1\r\nHost: h\r\n\r\n");
	snprintf(hdr, sizeof(hdr), "HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n"
		 "Content-Length: %zu\r\n\r\n", sizeof(br_body) - 1);
	feed(&c, TC, hdr);
	/* in two pieces: the decoder keeps its state between them */
	feed_bytes(&c, TC, br_body, 10);
	feed_bytes(&c, TC, br_body + 10, sizeof(br_body) - 1 - 10);
	tx = http_tx_get(&c.f, 0);
	CHECK(tx != NULL);
	CHECK_STREQ(buf(tx, HTTP_BUF_SERVER_BODY, TC), want);
	f = files_first(http_tx_files(tx, TC, 0));
	CHECK(f != NULL && file_size(f) == strlen(want));
	CHECK(!http_tx_has_event(tx, http_event_lookup("abnormal_ce_header")));
	ctx_free(&c);
}
#endif

TEST(http_gap_before_detection_means_not_http)
{
	Ctx c;

	ctx_init(&c, 80);
	app_layer_handle_data(c.at, &c.f, TS, NULL, 100, APP_GAP);
	feed(&c, TC, "\x01\x02garbage");
	CHECK_EQ(c.f.app_proto, ALPROTO_FAILED);
	ctx_free(&c);
}

TEST(http_expect_100_continue_body_waits_for_response)
{
	Ctx c;
	HttpTx *tx;

	ctx_init(&c, 80);
	feed(&c, TS, "POST /up HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n"
		     "Content-Length: 4\r\n\r\nDATA");
	feed(&c, TC, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\n"
		     "Content-Length: 0\r\n\r\n");
	tx = http_tx_get(&c.f, 0);
	CHECK_EQ(http_tx_count(&c.f), 1);
	CHECK_STREQ(buf(tx, HTTP_BUF_CLIENT_BODY, TS), "DATA");
	CHECK_STREQ(buf(tx, HTTP_BUF_STAT_CODE, TC), "201");
	CHECK_EQ(http_tx_progress(tx, TS), HTTP_PROGRESS_COMPLETE);
	ctx_free(&c);
}

TEST(http_connect_tunnel_bytes_are_not_http)
{
	Ctx c;

	ctx_init(&c, 3128);
	feed(&c, TS, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"
		     "\x16\x03\x01\x00\x05hello");
	feed(&c, TC, "HTTP/1.1 200 Connection established\r\n\r\n\x16\x03\x03\x00\x02hi");
	feed(&c, TS, "\x17\x03\x03\x00\x10more-tls-bytes..");
	/* the tunnel's TLS took the flow over: no HTTP parsing of it */
	CHECK_EQ(c.f.app_proto, ALPROTO_TLS);
	CHECK_EQ(c.f.app_proto_orig, ALPROTO_HTTP1);
	ctx_free(&c);
}

TEST(http_connect_is_complete_once_its_tunnel_opens)
{
	Ctx c;
	HttpTx *tx;

	ctx_init(&c, 3128);
	feed(&c, TS, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
	feed(&c, TC, "HTTP/1.1 200 Connection established\r\n\r\n");
	/* logged now, before whatever the tunnel carries replaces the parser */
	tx = http_tx_get(&c.f, 0);
	CHECK(tx != NULL);
	CHECK_EQ(http_tx_progress(tx, TS), HTTP_PROGRESS_COMPLETE);
	CHECK_EQ(http_tx_progress(tx, TC), HTTP_PROGRESS_COMPLETE);
	CHECK_EQ(c.f.app_proto_orig, ALPROTO_HTTP1);
	ctx_free(&c);
}

TEST(http_connect_tunnel_with_http_gets_new_tx_ids)
{
	Ctx c;
	HttpTx *tx;

	ctx_init(&c, 3128);
	feed(&c, TS, "CONNECT abc:443 HTTP/1.1\r\nUser-Agent: V/1.0\r\n\r\n\n");
	feed(&c, TC, "HTTP/1.1 200 OK\r\nServer: S\r\n\r\n\n");
	/* split inside the method: detection must wait for more */
	feed(&c, TS, "GE");
	feed(&c, TS, "T /inner HTTP/1.1\r\nHost: abc\r\n\r\n");
	feed(&c, TC, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
	CHECK_EQ(c.f.app_proto, ALPROTO_HTTP1);
	CHECK_EQ(http_tx_count(&c.f), 2);
	tx = http_tx_get(&c.f, 0);
	CHECK_STREQ(buf(tx, HTTP_BUF_METHOD, TS), "CONNECT");
	/* the CONNECT is over once its tunnel carries something else */
	CHECK_EQ(http_tx_progress(tx, TS), HTTP_PROGRESS_COMPLETE);
	CHECK_EQ(http_tx_log_id(tx), 0);
	tx = http_tx_get(&c.f, 1);
	CHECK(tx != NULL);
	CHECK_EQ(http_tx_id(tx), 1);
	CHECK_EQ(http_tx_log_id(tx), 0);
	CHECK_STREQ(buf(tx, HTTP_BUF_URI, TS), "/inner");
	CHECK_STREQ(buf(tx, HTTP_BUF_STAT_CODE, TC), "404");
	CHECK_EQ(http_tx_progress(tx, TC), HTTP_PROGRESS_COMPLETE);
	ctx_free(&c);
}

TEST(http_connect_tunnel_with_tls_changes_the_flow_to_tls)
{
	Ctx c;

	ctx_init(&c, 3128);
	feed(&c, TS, "CONNECT abc:443 HTTP/1.1\r\nUser-Agent: V/1.0\r\n\r\n\n");
	feed(&c, TC, "HTTP/1.1 200 OK\r\nServer: S\r\n\r\n\n");
	feed_bytes(&c, TS, "\x16\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", 14);
	/* Suricata 8 (suricata-verify http-connect-tls): the tunnel's
	 * protocol is the flow's, the CONNECT's its original one */
	CHECK_EQ(c.f.app_proto, ALPROTO_TLS);
	CHECK_EQ(c.f.app_proto_orig, ALPROTO_HTTP1);
	ctx_free(&c);
}

/* fuzz_pipeline found it: request bytes held while libhtp waits for the
 * response (DATA_OTHER), then moved into the tunnel the answer opens, left
 * their charge in http.memuse after they were freed (the harness aborts
 * when anything stays accounted after a run). Every byte HTTP kept must be
 * released with the flow, also when the tunnel's bytes are taken. */
TEST(http_pending_bytes_moved_to_a_tunnel_leave_memuse)
{
	Ctx c;
	uint64_t before = http_mem_use();

	ctx_init(&c, 80);
	/* the tunnel's first bytes come before the proxy's answer */
	feed(&c, TS, "CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n\x16\x03\x01\x00\x05hello");
	feed(&c, TC, "HTTP/1.1 200 Connection established\r\n\r\n");
	feed(&c, TS, "\x17\x03\x03\x00\x02hi");
	ctx_free(&c);
	CHECK_EQ(http_mem_use(), before);
}

TEST(http_failed_connect_keeps_parsing_same_parser)
{
	Ctx c;
	HttpTx *tx;

	ctx_init(&c, 3128);
	feed(&c, TS, "CONNECT abc:443 HTTP/1.1\r\n\r\n");
	feed(&c, TC, "HTTP/1.1 407 Auth\r\nContent-Length: 0\r\n\r\n");
	feed(&c, TS, "GET /x HTTP/1.1\r\nHost: abc\r\n\r\n");
	CHECK_EQ(http_tx_count(&c.f), 2);
	tx = http_tx_get(&c.f, 1);
	CHECK_STREQ(buf(tx, HTTP_BUF_URI, TS), "/x");
	CHECK_EQ(http_tx_log_id(tx), 1);
	ctx_free(&c);
}

TEST(http_headers_json_lists_every_header_in_order)
{
	Ctx c;
	HttpTx *tx;
	json_t *a;

	ctx_init(&c, 80);
	feed(&c, TS, "GET / HTTP/1.1\r\nHost: h.example\r\nX-One: 1\r\nAccept: */*\r\n\r\n");
	tx = http_tx_get(&c.f, 0);
	CHECK(http_tx_headers_json(tx, TC) == NULL);
	a = http_tx_headers_json(tx, TS);
	CHECK_EQ(json_array_size(a), 3);
	CHECK_STREQ(json_string_value(json_object_get(json_array_get(a, 0), "name")), "Host");
	CHECK_STREQ(json_string_value(json_object_get(json_array_get(a, 0), "value")), "h.example");
	CHECK_STREQ(json_string_value(json_object_get(json_array_get(a, 2), "name")), "Accept");
	json_decref(a);
	ctx_free(&c);
}

TEST(http_bytes_after_http09_request_are_not_a_parser_error)
{
	Ctx c;
	uint64_t before;

	ctx_init(&c, 80);
	before = cval("app_layer.error.http.parser");
	CHECK_EQ(feed(&c, TS, "POST abcd12345\n"), 0);
	feed(&c, TC, "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
	CHECK_EQ(feed(&c, TS, "USER abab1212 \"zz\" :f6e1\n"), 0);
	CHECK_EQ(cval("app_layer.error.http.parser"), before);
	CHECK_EQ(http_tx_count(&c.f), 1);
	ctx_free(&c);
}

TEST(http_eof_completes_body_until_close)
{
	Ctx c;
	HttpTx *tx;

	ctx_init(&c, 80);
	feed(&c, TS, "GET /old HTTP/1.0\r\n\r\n");
	feed(&c, TC, "HTTP/1.0 200 OK\r\n\r\nbody until close");
	tx = http_tx_get(&c.f, 0);
	CHECK_EQ(http_tx_progress(tx, TC), HTTP_PROGRESS_BODY);
	/* the file is open while the body comes */
	json_t *j = fileinfo(tx, TC, 0);
	CHECK_STREQ(json_string_value(json_object_get(j, "state")), "OPEN");
	CHECK_EQ(json_integer_value(json_object_get(j, "size")), 16);
	json_decref(j);
	app_layer_handle_data(c.at, &c.f, TS, NULL, 0, APP_EOF);
	app_layer_handle_data(c.at, &c.f, TC, NULL, 0, APP_EOF);
	CHECK_EQ(http_tx_progress(tx, TC), HTTP_PROGRESS_COMPLETE);
	CHECK_STREQ(buf(tx, HTTP_BUF_SERVER_BODY, TC), "body until close");
	j = fileinfo(tx, TC, 0);
	CHECK_STREQ(json_string_value(json_object_get(j, "state")), "CLOSED");
	json_decref(j);
	ctx_free(&c);
}

TEST(http_double_decode_path_when_configured)
{
	Ctx c;
	HttpTx *tx;
	int ev = http_event_lookup("double_encoded_uri");

	ctx_init(&c, 80);
	feed(&c, TS, "GET /a%2541 HTTP/1.1\r\nHost: h\r\n\r\n");
	tx = http_tx_get(&c.f, 0);
	CHECK_STREQ(buf(tx, HTTP_BUF_URI, TS), "/a%41");
	CHECK(!http_tx_has_event(tx, ev));
	ctx_free(&c);

	conf_set("app-layer.protocols.http.libhtp.default-config.double-decode-path", "yes");
	ctx_init(&c, 80);
	conf_deinit();
	feed(&c, TS, "GET /a%2541 HTTP/1.1\r\nHost: h\r\n\r\n");
	tx = http_tx_get(&c.f, 0);
	CHECK_STREQ(buf(tx, HTTP_BUF_URI, TS), "/aA");
	CHECK_STREQ(buf(tx, HTTP_BUF_RAW_URI, TS), "/a%2541");
	CHECK(http_tx_has_event(tx, ev));
	ctx_free(&c);
}

/* libhtp 0.5 flags every scheme but Basic/Digest; Suricata 8 knows Bearer */
TEST(http_auth_unrecognized_event_but_not_bearer)
{
	const char *schemes[] = { "Turbo customAuthData", "Bearer abc.def" };
	int ev = http_event_lookup("request_auth_unrecognized");

	CHECK(ev >= 0);
	for (int i = 0; i < 2; i++) {
		Ctx c;
		HttpTx *tx;
		char req[256];

		ctx_init(&c, 80);
		snprintf(req, sizeof(req), "GET / HTTP/1.1\r\nHost: h\r\nAuthorization: %s\r\n\r\n",
			 schemes[i]);
		feed(&c, TS, req);
		tx = http_tx_get(&c.f, 0);
		CHECK(tx != NULL);
		CHECK_EQ(http_tx_has_event(tx, ev), i == 0);
		ctx_free(&c);
	}
}

/* Issue #17: out-of-range HTTP settings made the engine exit 1 with no
 * message; each is refused with a line naming key and value, and a valid
 * value still loads. (The line itself is checked by the e2e case
 * badinput-conf-http-range.) */
TEST(http_config_out_of_range_values_are_refused)
{
	static const struct { const char *key, *bad, *good; } kv[] = {
		{ "app-layer.protocols.http.max-tx", "-1", "100" },
		{ "app-layer.protocols.http.max-tx", "4294967296", "4294967295" },
		{ "app-layer.protocols.http.libhtp.default-config."
		  "response-body-decompress-layer-limit", "-1", "3" },
		{ "app-layer.protocols.http.libhtp.default-config.decompression-time-limit",
		  "-5", "5000" },
		{ "app-layer.protocols.http.libhtp.default-config.meta-field-limit",
		  "99999999999", "32k" },
	};
	AppLayerConfig cfg;

	for (size_t i = 0; i < sizeof(kv) / sizeof(kv[0]); i++) {
		conf_deinit();
		CHECK_EQ(conf_set(kv[i].key, kv[i].bad), 0);
		CHECK_EQ(app_layer_config_load(&cfg), -1);
		CHECK_EQ(conf_set(kv[i].key, kv[i].good), 0);
		CHECK_EQ(app_layer_config_load(&cfg), 0);
	}
	CHECK_EQ(cfg.meta_field_limit, 32 * 1024);
	conf_deinit();
	CHECK_EQ(app_layer_config_load(&cfg), 0);
}

/* fuzz_http found it (qa/fuzz/RESULTS.md): "101" responses that keep
 * switching to a tunnel. Once HTTP_MAX_PARSERS parsers were used the restart
 * failed and the tunnel died, but the data was parsed again by the old
 * parser, still in tunnel mode, which began the tunnel again: unbounded
 * recursion (stack overflow). The input in fuzz_http's framing:
 * [ctl: bit0 to client, bit1 gap, bit2 EOF, bit3 tx gc][len16 BE][data]. */
static const uint8_t tunnel_loop_input[] = {
	0x00, 0x00, 0x3d, 0x50, 0x4f, 0x53, 0x54, 0x2f, 0x2f, 0x65, 0x20, 0x48, 0x54, 0x54,
	0x50, 0x2f, 0x31, 0x2e, 0x31, 0x0d, 0x0a, 0x45, 0x78, 0x70, 0x65, 0x63, 0x74, 0x3a,
	0x20, 0x31, 0x30, 0x30, 0x2d, 0x63, 0x6f, 0x6e, 0x74, 0x6e, 0x69, 0x75, 0x65, 0x0d,
	0x0a, 0x43, 0x6f, 0x6e, 0x74, 0x65, 0x6e, 0x74, 0x2d, 0x4c, 0x65, 0x6e, 0x67, 0x74,
	0x68, 0x3a, 0x20, 0x34, 0x0d, 0x0a, 0x0d, 0x0a, 0x01, 0x00, 0x19, 0x48, 0x54, 0x54,
	0x50, 0x2f, 0x31, 0x2e, 0xb1, 0x20, 0x31, 0x30, 0x31, 0x20, 0x43, 0x6f, 0x6e, 0x74,
	0x69, 0x6e, 0x75, 0x67, 0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x00, 0x04, 0x64, 0x61, 0x34,
	0x0d, 0x0a, 0x0d, 0x0a, 0x01, 0x00, 0x19, 0x48, 0x54, 0x54, 0x50, 0x2f, 0x31, 0x2e,
	0xb1, 0x20, 0x31, 0x30, 0x31, 0x20, 0x43, 0x6f, 0x6e, 0x74, 0x69, 0x6e, 0x75, 0x67,
	0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x00, 0x04, 0x64, 0x61, 0x74, 0x61, 0x01, 0x00, 0x32,
	0x48, 0x54, 0x54, 0x50, 0x2f, 0x31, 0x2e, 0x31, 0x20, 0x31, 0x30, 0x31, 0x20, 0x53,
	0x77, 0x78, 0x70, 0x65, 0x63, 0x74, 0x3a, 0x20, 0x31, 0x30, 0x30, 0x2d, 0x63, 0x6f,
	0x6e, 0x74, 0x6e, 0x69, 0x75, 0x65, 0x0d, 0x0a, 0x43, 0x6f, 0x65, 0x6e, 0x67, 0x74,
	0x68, 0x3a, 0x20, 0x34, 0x0d, 0x0a, 0x0d, 0x0a, 0x01, 0x00, 0x19, 0x48, 0x54, 0x54,
	0x50, 0x2f, 0x31, 0x2e, 0xb1, 0x20, 0x31, 0x30, 0x31, 0x20, 0x43, 0x6f, 0x6e, 0x74,
	0x69, 0x6e, 0x75, 0x67, 0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x00, 0x04, 0x64, 0x61, 0x34,
	0x0d, 0x0a, 0x0d, 0x0a, 0x01, 0x00, 0x19, 0x48, 0x54, 0x54, 0x50, 0x2f, 0x31, 0x2e,
	0xb1, 0x20, 0x31, 0x30, 0x31, 0x20, 0x43, 0x6f, 0x6e, 0x74, 0x69, 0x6e, 0x75, 0x69,
	0x74, 0x63, 0x68, 0x69, 0x63, 0x6f, 0x6c, 0x0a, 0x73, 0x70, 0x0d, 0x64, 0x65, 0x3a,
	0x20, 0x68, 0x33, 0x63, 0x0d, 0x3a, 0x20, 0x68, 0x33, 0x63, 0x0d, 0x0a, 0x0d, 0x0a,
};

TEST(http_tunnel_restarts_exhausted_do_not_recurse)
{
	const uint8_t *d = tunnel_loop_input;
	size_t size = sizeof(tunnel_loop_input), off = 0;
	Ctx c;

	ctx_init(&c, 80);
	while (off + 3 <= size) {
		uint8_t ctl = d[off];
		uint32_t len = (uint32_t)d[off + 1] << 8 | d[off + 2];
		int dir = ctl & 1 ? TC : TS;
		int flags = (ctl & 4) ? APP_EOF : 0;

		off += 3;
		if (ctl & 2) {
			app_layer_handle_data(c.at, &c.f, dir, NULL, len, flags | APP_GAP);
		} else {
			if (len > size - off)
				len = (uint32_t)(size - off);
			app_layer_handle_data(c.at, &c.f, dir, d + off, len, flags);
			off += len;
		}
		if (ctl & 8)
			app_layer_tx_gc(&c.f, 0);
	}
	app_layer_handle_data(c.at, &c.f, TS, NULL, 0, APP_EOF);
	app_layer_handle_data(c.at, &c.f, TC, NULL, 0, APP_EOF);
	CHECK(http_tx_count(&c.f) >= 1);
	ctx_free(&c);
}

/* ---- files (app-layer/files.h) ---- */

TEST(http_multipart_upload_gives_one_file_per_named_part)
{
	static const char body[] =
		"--b0\r\nContent-Disposition: form-data; name=\"t\"\r\n\r\ntext\r\n"
		"--b0\r\nContent-Disposition: form-data; name=\"f\"; filename=\"one.txt\"\r\n\r\n"
		"11111\r\n"
		"--b0\r\nContent-Disposition: form-data; name=\"g\"; filename=two.bin\r\n\r\n"
		"22\r\n--b0--\r\n";
	char req[512];
	FileContainer *fc;
	const File *f;
	uint32_t nl;
	Ctx c;
	HttpTx *tx;

	ctx_init(&c, 80);
	snprintf(req, sizeof(req),
		 "POST /up HTTP/1.1\r\nHost: h\r\nContent-Type: multipart/form-data; boundary=b0\r\n"
		 "Content-Length: %zu\r\n\r\n%s", sizeof(body) - 1, body);
	feed(&c, TS, req);
	feed(&c, TC, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
	tx = http_tx_get(&c.f, 0);
	fc = http_tx_files(tx, TS, 0);
	CHECK_EQ(fc->n, 2);
	f = files_first(fc);
	CHECK(memcmp(file_name(f, &nl), "one.txt", 7) == 0 && nl == 7);
	CHECK_EQ(file_size(f), 5);
	CHECK_EQ(file_state(f), FILE_STATE_CLOSED);
	f = file_next(f);
	CHECK(memcmp(file_name(f, &nl), "two.bin", 7) == 0);
	CHECK_EQ(file_size(f), 2);
	/* an empty response body is no file */
	CHECK_EQ(http_tx_files(tx, TC, 0)->n, 0);
	ctx_free(&c);
}

TEST(http_download_named_by_content_disposition_else_uri)
{
	uint32_t nl;
	Ctx c;
	HttpTx *tx;
	const File *f;

	ctx_init(&c, 80);
	feed(&c, TS, "GET /get?id=1 HTTP/1.1\r\nHost: h\r\n\r\nGET /plain/x.js HTTP/1.1\r\nHost: h\r\n\r\n");
	feed(&c, TC, "HTTP/1.1 200 OK\r\nContent-Disposition: attachment; filename=\"r.zip\"\r\n"
		     "Content-Length: 3\r\n\r\nPK!"
		     "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
	tx = http_tx_get(&c.f, 0);
	f = files_first(http_tx_files(tx, TC, 0));
	CHECK(f != NULL);
	CHECK(memcmp(file_name(f, &nl), "r.zip", 5) == 0 && nl == 5);
	/* a GET's request has no file */
	CHECK_EQ(http_tx_files(tx, TS, 0)->n, 0);
	f = files_first(http_tx_files(http_tx_get(&c.f, 1), TC, 0));
	CHECK(f != NULL);
	CHECK(memcmp(file_name(f, &nl), "/plain/x.js", 11) == 0 && nl == 11);
	CHECK_EQ(file_tx_id(f), 1);
	ctx_free(&c);
}

TEST(http_gap_past_the_body_end_truncates_its_file)
{
	Ctx c;
	HttpTx *tx;
	const File *f;

	ctx_init(&c, 80);
	feed(&c, TS, "GET /big HTTP/1.1\r\nHost: h\r\n\r\n");
	feed(&c, TC, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789");
	app_layer_handle_data(c.at, &c.f, TC, NULL, 150, APP_GAP);
	tx = http_tx_get(&c.f, 0);
	f = files_first(http_tx_files(tx, TC, 1));
	CHECK(f != NULL);
	CHECK_EQ(file_state(f), FILE_STATE_TRUNCATED);
	CHECK(file_has_gaps(f));
	/* what was seen and the body's share of the gap */
	CHECK_EQ(file_size(f), 100);
	ctx_free(&c);
}
