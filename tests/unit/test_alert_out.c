/* Alert outputs: eve "alert" records and fast.log lines. */
#include "test.h"
#include "output-test-util.h"
#include "output/alert.h"
#include "output/http-log.h"
#include "output/json-dump.h"
#include "output/output-private.h"
#include "app-layer/app-layer.h"
#include "conf/conf.h"

#include <arpa/inet.h>
#include <jansson.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


/* Top-level keys of a raw eve line, in order, joined by ','. */
static void top_keys(const char *line, char *out, size_t len)
{
	json_t *o = json_loads(line, JSON_PRESERVE_ORDER, NULL);
	const char *k;
	json_t *v;
	size_t n = 0;

	out[0] = '\0';
	if (!o)
		return;
	json_object_foreach(o, k, v)
		n += (size_t)snprintf(out + n, n < len ? len - n : 0, "%s%s", n ? "," : "", k);
	json_decref(o);
}

/* strcmp that shows what it got: the key lists are too long for CHECK_STREQ. */
static int same_keys(const char *got, const char *want)
{
	if (strcmp(got, want) == 0)
		return 1;
	printf("  keys: %s\n  want: %s\n", got, want);
	return 0;
}


static const char yaml_default[] =
	"outputs:\n"
	"  - fast:\n"
	"      enabled: yes\n"
	"      filename: fast.log\n"
	"      append: no\n"
	"  - eve-log:\n"
	"      enabled: yes\n"
	"      filetype: regular\n"
	"      filename: eve.json\n"
	"      types:\n"
	"        - alert:\n"
	"            tagged-packets: yes\n"
	"        - flow\n";

static const char yaml_payload[] =
	"outputs:\n"
	"  - fast:\n"
	"      enabled: no\n"
	"  - eve-log:\n"
	"      enabled: yes\n"
	"      filename: eve.json\n"
	"      types:\n"
	"        - alert:\n"
	"            payload: yes\n"
	"            payload-printable: yes\n"
	"            payload-length: yes\n"
	"            payload-buffer-size: 8\n"
	"            packet: yes\n"
	"            metadata: no\n";



/* ---- packets and flows by hand ---- */

static uint8_t frame[128];
static const uint8_t http_payload[] = "GET /x HTTP/1.1\r\n\x01\x7f\t";

static void v4(Address *a, const char *s)
{
	a->family = AF_INET;
	inet_pton(AF_INET, s, &a->a.u32[0]);
}

static void v6(Address *a, const char *s)
{
	a->family = AF_INET6;
	inet_pton(AF_INET6, s, a->a.u8);
}

/* Server -> client packet of a TCP flow opened by 10.0.0.1:40000. */
static void tcp_pair(Packet *p, Flow *f)
{
	memset(p, 0, sizeof(*p));
	memset(f, 0, sizeof(*f));
	f->ip_version = 4;
	f->proto = IPPROTO_TCP;
	v4(&f->src, "10.0.0.1");
	v4(&f->dst, "10.0.0.2");
	f->sp = 40000;
	f->dp = 80;
	f->flow_id = 1234567890123ull;
	f->start.tv_sec = 1796000000;
	f->start.tv_usec = 1;
	f->pkts_toserver = 3;
	f->pkts_toclient = 2;
	f->bytes_toserver = 300;
	f->bytes_toclient = 200;

	p->ts.tv_sec = 1796000001;
	p->ts.tv_usec = 123456;
	p->pcap_cnt = 7;
	p->datalink = 1;
	for (size_t i = 0; i < sizeof(frame); i++)
		frame[i] = (uint8_t)i;
	p->data = frame;
	p->caplen = 5;
	p->ip_version = 4;
	p->proto = IPPROTO_TCP;
	p->src = f->dst;
	p->dst = f->src;
	p->sp = 80;
	p->dp = 40000;
	p->flags = PKT_HAS_FLOW | PKT_TOCLIENT;
	p->payload = http_payload;
	p->payload_len = sizeof(http_payload) - 1;
	p->flow = f;
}

static void base_alert(AlertInfo *a)
{
	memset(a, 0, sizeof(*a));
	a->action = ALERT_ACTION_ALERT;
	a->gid = 1;
	a->sid = 2000001;
	a->rev = 3;
	a->msg = "ET POLICY something";
	a->class_name = "policy-violation";
	a->class_desc = "Potential Corporate Privacy Violation";
	a->priority = 1;
}

static const char *app_name(uint16_t id)
{
	return id == 1 ? "http" : NULL;
}

/* ---- config ---- */

TEST(alert_config_defaults_metadata_on_payload_off)
{
	OutputConfig cfg;
	char err[256] = "";

	CHECK_EQ(load_yaml(yaml_default), 0);
	CHECK_EQ(output_config_load(&cfg, "/tmp", err, sizeof(err)), 0);
	CHECK_EQ(cfg.eve_alert.payload, 0);
	CHECK_EQ(cfg.eve_alert.payload_printable, 0);
	CHECK_EQ(cfg.eve_alert.packet, 0);
	CHECK_EQ(cfg.eve_alert.flow, 1);
	CHECK_EQ(cfg.eve_alert.app_layer, 1);
	CHECK_EQ(cfg.eve_alert.rule_metadata, 1);
	CHECK_EQ(cfg.eve_alert.tagged_packets, 1);
	CHECK_EQ(cfg.eve_alert.payload_buffer_size, 4096);
	CHECK_EQ(cfg.eve_alert.http_body, 0);
	CHECK_EQ(cfg.eve_alert.http_body_printable, 0);
	CHECK_EQ(cfg.eve_alert.rule_raw, 0);
	conf_deinit();
}

TEST(alert_config_reads_payload_options)
{
	OutputConfig cfg;
	char err[256] = "";

	CHECK_EQ(load_yaml(yaml_payload), 0);
	CHECK_EQ(output_config_load(&cfg, "/tmp", err, sizeof(err)), 0);
	CHECK_EQ(cfg.eve_alert.payload, 1);
	CHECK_EQ(cfg.eve_alert.payload_printable, 1);
	CHECK_EQ(cfg.eve_alert.payload_length, 1);
	CHECK_EQ(cfg.eve_alert.packet, 1);
	CHECK_EQ(cfg.eve_alert.payload_buffer_size, 8);
	CHECK_EQ(cfg.eve_alert.flow, 0);
	CHECK_EQ(cfg.eve_alert.app_layer, 0);
	CHECK_EQ(cfg.eve_alert.rule_metadata, 0);
	conf_deinit();
}

/* http custom: [...]: each name, by header or member name in any case,
 * sets its field's bit; unknown names are ignored, as Suricata does. */
TEST(http_custom_fields_by_either_name)
{
	static const char yaml_custom[] =
		"outputs:\n"
		"  - eve-log:\n"
		"      enabled: yes\n"
		"      types:\n"
		"        - http:\n"
		"            custom: [Accept-Encoding, set_cookie, X-Nope]\n";
	OutputConfig cfg;
	char err[256] = "";

	CHECK(http_custom_field("accept-encoding") >= 0);
	CHECK_EQ(http_custom_field("ACCEPT_ENCODING"), http_custom_field("Accept-Encoding"));
	CHECK_EQ(http_custom_field("x-nope"), -1);
	CHECK_EQ(load_yaml(yaml_custom), 0);
	CHECK_EQ(output_config_load(&cfg, "/tmp", err, sizeof(err)), 0);
	CHECK_EQ(cfg.eve_http_custom, (1ull << http_custom_field("accept-encoding")) |
					      (1ull << http_custom_field("Set-Cookie")));
	conf_deinit();
	CHECK_EQ(load_yaml(yaml_default), 0);
	CHECK_EQ(output_config_load(&cfg, "/tmp", err, sizeof(err)), 0);
	CHECK_EQ(cfg.eve_http_custom, 0);
	conf_deinit();
}

TEST(alert_config_metadata_map_and_bad_values)
{
	OutputConfig cfg;
	char err[256] = "";

	CHECK_EQ(load_yaml("outputs:\n  - eve-log:\n      enabled: yes\n      types:\n"
			   "        - alert:\n            metadata:\n              flow: yes\n"
			   "              rule:\n                metadata: no\n"), 0);
	CHECK_EQ(output_config_load(&cfg, "/tmp", err, sizeof(err)), 0);
	CHECK_EQ(cfg.eve_alert.flow, 1);
	CHECK_EQ(cfg.eve_alert.app_layer, 0);
	CHECK_EQ(cfg.eve_alert.rule_metadata, 0);

	CHECK_EQ(load_yaml("outputs:\n  - eve-log:\n      enabled: yes\n      types:\n"
			   "        - alert:\n            payload: maybe\n"), 0);
	CHECK_EQ(output_config_load(&cfg, "/tmp", err, sizeof(err)), -1);
	CHECK(strstr(err, "outputs.0.eve-log.types.0.alert.payload") != NULL);

	CHECK_EQ(load_yaml("outputs:\n  - eve-log:\n      enabled: yes\n      types:\n"
			   "        - alert:\n            payload-buffer-size: lots\n"), 0);
	CHECK_EQ(output_config_load(&cfg, "/tmp", err, sizeof(err)), -1);
	CHECK(strstr(err, "payload-buffer-size") != NULL);
	conf_deinit();
}

/* ---- eve ---- */

TEST(alert_eve_fields_and_order_match_suricata)
{
	char *dir = make_tmpdir("test_alert_out");
	char eve[256], keys[300];
	static const char *const md[] = {
		"created_at 2010_07_30", "former_category POLICY", "created_at 2011_01_01",
	};
	char *line;
	Outputs *o;
	Packet p;
	Flow f;
	AlertInfo a;
	json_t *r;

	utc();
	CHECK(dir);
	o = open_in(dir, yaml_default);
	CHECK(o);
	output_set_app_proto_namer(app_name);
	tcp_pair(&p, &f);
	f.app_proto = 1;
	base_alert(&a);
	a.metadata = md;
	a.n_metadata = 3;
	a.has_tx = 1;
	a.tx_id = 4;
	output_alert(o, &p, &f, &a);
	outputs_close(o);
	output_set_app_proto_namer(NULL);

	path_in(eve, sizeof(eve), dir, "eve.json");
	CHECK_EQ(count_lines(eve), 1);
	line = file_line(eve, 0);
	CHECK(line);
	top_keys(line, keys, sizeof(keys));
	CHECK(same_keys(keys, "timestamp,flow_id,pcap_cnt,event_type,src_ip,src_port,dest_ip,"
			      "dest_port,ip_v,proto,pkt_src,tx_id,alert,app_proto,direction,flow"));
	/* the alert object's own order */
	CHECK(strstr(line, "\"alert\":{\"action\":\"allowed\",\"gid\":1,\"signature_id\":2000001,"
			   "\"rev\":3,\"signature\":\"ET POLICY something\",\"category\":"
			   "\"Potential Corporate Privacy Violation\",\"severity\":1,\"metadata\":"
			   "{\"created_at\":[\"2010_07_30\",\"2011_01_01\"],"
			   "\"former_category\":[\"POLICY\"]}}") != NULL);
	CHECK(strstr(line, "\"flow\":{\"pkts_toserver\":3,\"pkts_toclient\":2,\"bytes_toserver\":300,"
			   "\"bytes_toclient\":200,\"start\":\"2026-11-30T00:53:20.000001+0000\","
			   "\"src_ip\":\"10.0.0.1\",\"dest_ip\":\"10.0.0.2\",\"src_port\":40000,"
			   "\"dest_port\":80}") != NULL);
	free(line);

	r = eve_line(eve, 0);
	CHECK(r);
	CHECK_STREQ(jstr(r, "timestamp"), "2026-11-30T00:53:21.123456+0000");
	CHECK_EQ(jint(r, "flow_id"), 1234567890123ll);
	CHECK_EQ(jint(r, "pcap_cnt"), 7);
	CHECK_STREQ(jstr(r, "event_type"), "alert");
	/* the packet's direction, not the flow's */
	CHECK_STREQ(jstr(r, "src_ip"), "10.0.0.2");
	CHECK_EQ(jint(r, "src_port"), 80);
	CHECK_STREQ(jstr(r, "dest_ip"), "10.0.0.1");
	CHECK_EQ(jint(r, "dest_port"), 40000);
	CHECK_STREQ(jstr(r, "proto"), "TCP");
	CHECK_STREQ(jstr(r, "pkt_src"), "wire/pcap");
	CHECK_EQ(jint(r, "tx_id"), 4);
	CHECK_STREQ(jstr(r, "direction"), "to_client");
	CHECK_STREQ(jstr(r, "app_proto"), "http");
	CHECK(jget(r, "payload") == NULL);
	CHECK(jget(r, "stream") == NULL);
	json_decref(r);
	CHECK(schema_valid(eve) != 0);
	rm_tree(dir);
}

TEST(alert_eve_no_classtype_empty_category_severity_3)
{
	char *dir = make_tmpdir("test_alert_out");
	char eve[256];
	Outputs *o;
	Packet p;
	Flow f;
	AlertInfo a;
	json_t *r;

	CHECK(dir);
	o = open_in(dir, yaml_default);
	CHECK(o);
	tcp_pair(&p, &f);
	p.flags = PKT_HAS_FLOW | PKT_TOSERVER;
	base_alert(&a);
	a.class_name = a.class_desc = NULL;
	a.priority = 0;
	output_alert(o, &p, &f, &a);
	outputs_close(o);

	path_in(eve, sizeof(eve), dir, "eve.json");
	r = eve_line(eve, 0);
	CHECK(r);
	CHECK_STREQ(jstr(r, "alert.category"), "");
	CHECK_EQ(jint(r, "alert.severity"), 3);
	CHECK(jget(r, "alert.metadata") == NULL);
	CHECK(jget(r, "tx_id") == NULL);
	CHECK(jget(r, "app_proto") == NULL);
	CHECK_STREQ(jstr(r, "direction"), "to_server");
	json_decref(r);
	rm_tree(dir);
}

/* open_in with the run policy's IPS mode on the alert writer, appending to
 * what an IDS run wrote there. */
static Outputs *open_ips_in(const char *dir, const char *yaml)
{
	OutputConfig cfg;
	char err[256] = "";

	if (load_yaml(yaml) < 0 || output_config_load(&cfg, dir, err, sizeof(err)) < 0)
		return NULL;
	cfg.eve_alert.ips = 1;
	cfg.fast.append = 1;
	return outputs_open(&cfg, err, sizeof(err));
}

TEST(alert_actions_ids_ips_and_pass)
{
	char *dir = make_tmpdir("test_alert_out");
	char eve[256], fast[256];
	char *l;
	Outputs *o;
	Packet p;
	Flow f;
	AlertInfo a;
	json_t *r;

	utc();
	CHECK(dir);
	o = open_in(dir, yaml_default);
	CHECK(o);
	tcp_pair(&p, &f);
	base_alert(&a);
	a.action = ALERT_ACTION_PASS;
	output_alert(o, &p, &f, &a);          /* never logged */
	a.action = ALERT_ACTION_DROP;
	output_alert(o, &p, &f, &a);          /* IDS: allowed, [wDrop] */
	a.action = ALERT_ACTION_REJECT;
	output_alert(o, &p, &f, &a);          /* reject: blocked, [wDrop] */
	outputs_close(o);
	o = open_ips_in(dir, yaml_default);   /* appends */
	CHECK(o);
	a.action = ALERT_ACTION_DROP;
	output_alert(o, &p, &f, &a);          /* IPS: blocked, [Drop] */
	a.action = ALERT_ACTION_ALERT;
	output_alert(o, &p, &f, &a);          /* plain alert: allowed, no prefix */
	outputs_close(o);

	path_in(eve, sizeof(eve), dir, "eve.json");
	path_in(fast, sizeof(fast), dir, "fast.log");
	CHECK_EQ(count_lines(eve), 4);
	CHECK_EQ(count_lines(fast), 4);
	{
		static const char *const want[] = { "allowed", "blocked", "blocked", "allowed" };

		for (int i = 0; i < 4; i++) {
			r = eve_line(eve, i);
			CHECK(r);
			CHECK_STREQ(jstr(r, "alert.action"), want[i]);
			json_decref(r);
		}
	}
	l = file_line(fast, 0);
	CHECK(l && strstr(l, "11/30/2026-00:53:21.123456  [wDrop] [**] [1:2000001:3]") == l);
	free(l);
	l = file_line(fast, 1);
	CHECK(l && strstr(l, "  [wDrop] [**]") != NULL);
	free(l);
	l = file_line(fast, 2);
	CHECK(l && strstr(l, "  [Drop] [**]") != NULL);
	free(l);
	l = file_line(fast, 3);
	CHECK(l && strstr(l, ".123456  [**]") != NULL);
	free(l);
	rm_tree(dir);
}

/* An HTTP transaction on f, through the app layer as the worker makes one. */
static AppLayerThread *http_flow(AppLayerConfig *cfg, Flow *f)
{
	static const char req[] = "GET /x HTTP/1.1\r\nHost: example.com\r\n\r\n";
	AppLayerThread *at;

	if (app_layer_config_load(cfg) != 0 || !(at = app_layer_thread_new(cfg, NULL)))
		return NULL;
	if (app_layer_handle_data(at, f, APP_DIR_TOSERVER, (const uint8_t *)req,
				  (uint32_t)sizeof(req) - 1, 0) != 0) {
		app_layer_thread_free(at);
		return NULL;
	}
	return at;
}

/* No hook to install: the flow's protocol's eve logger gives alerts on one
 * of its transactions the "http" object, before app_proto. */
TEST(alert_on_tx_adds_http_before_app_proto)
{
	char *dir = make_tmpdir("test_alert_out");
	char eve[256], keys[300];
	AppLayerConfig cfg;
	AppLayerThread *at;
	char *line;
	Outputs *o;
	Packet p;
	Flow f;
	AlertInfo a;
	json_t *r;

	CHECK(dir);
	o = open_in(dir, yaml_default);
	CHECK(o);
	output_set_app_proto_namer(app_name);
	tcp_pair(&p, &f);
	at = http_flow(&cfg, &f);
	CHECK(at);
	CHECK_EQ(f.app_proto, ALPROTO_HTTP1);
	base_alert(&a);
	output_alert(o, &p, &f, &a);  /* no tx: no http object */
	a.has_tx = 1;
	a.tx_id = 9;                  /* no such tx: none either */
	output_alert(o, &p, &f, &a);
	a.tx_id = 0;
	output_alert(o, &p, &f, &a);
	output_set_app_proto_namer(NULL);
	outputs_close(o);
	app_layer_flow_free(&f);
	app_layer_thread_free(at);

	path_in(eve, sizeof(eve), dir, "eve.json");
	for (int i = 0; i < 2; i++) {
		r = eve_line(eve, i);
		CHECK(r);
		CHECK(jget(r, "http") == NULL);
		json_decref(r);
	}
	line = file_line(eve, 2);
	CHECK(line);
	top_keys(line, keys, sizeof(keys));
	CHECK(strstr(keys, "tx_id,alert,http,app_proto,direction,flow") != NULL);
	free(line);
	r = eve_line(eve, 2);
	CHECK_STREQ(jstr(r, "http.hostname"), "example.com");
	CHECK_STREQ(jstr(r, "http.url"), "/x");
	json_decref(r);
	CHECK(schema_valid(eve) != 0);
	rm_tree(dir);
}

TEST(alert_payload_printable_packet_and_stream_cut)
{
	char *dir = make_tmpdir("test_alert_out");
	char eve[256], keys[300];
	static const uint8_t chunk[] = "0123456789abcdef";
	char *line;
	Outputs *o;
	Packet p;
	Flow f;
	AlertInfo a;
	json_t *r;

	CHECK(dir);
	o = open_in(dir, yaml_payload);
	CHECK(o);
	tcp_pair(&p, &f);
	base_alert(&a);
	output_alert(o, &p, &f, &a);          /* packet payload, logged whole */
	a.from_stream = 1;
	a.payload = chunk;
	a.payload_len = sizeof(chunk) - 1;
	output_alert(o, &p, &f, &a);          /* stream: cut to payload-buffer-size 8 */
	a.from_stream = 0;
	a.payload = NULL;
	p.payload = NULL;
	p.payload_len = 0;
	output_alert(o, &p, &f, &a);          /* nothing to log but "stream" */
	outputs_close(o);

	path_in(eve, sizeof(eve), dir, "eve.json");
	line = file_line(eve, 0);
	CHECK(line);
	top_keys(line, keys, sizeof(keys));
	/* metadata: no -> no flow object */
	CHECK(same_keys(keys, "timestamp,flow_id,pcap_cnt,event_type,src_ip,src_port,dest_ip,"
			      "dest_port,ip_v,proto,pkt_src,alert,direction,payload,payload_length,"
			      "payload_printable,stream,packet,packet_info"));
	free(line);
	r = eve_line(eve, 0);
	CHECK(r);
	CHECK_STREQ(jstr(r, "payload"), "R0VUIC94IEhUVFAvMS4xDQoBfwk=");
	CHECK_EQ(jint(r, "payload_length"), 20);
	CHECK_STREQ(jstr(r, "payload_printable"), "GET /x HTTP/1.1\r\n...");
	CHECK_EQ(jint(r, "stream"), 0);
	CHECK_STREQ(jstr(r, "packet"), "AAECAwQ=");
	CHECK_EQ(jint(r, "packet_info.linktype"), 1);
	CHECK_STREQ(jstr(r, "packet_info.linktype_name"), "EN10MB");
	json_decref(r);

	r = eve_line(eve, 1);
	CHECK(r);
	CHECK_STREQ(jstr(r, "payload"), "MDEyMzQ1Njc=");
	CHECK_STREQ(jstr(r, "payload_printable"), "01234567");
	CHECK_EQ(jint(r, "stream"), 1);
	json_decref(r);

	r = eve_line(eve, 2);
	CHECK(r);
	CHECK(jget(r, "payload") == NULL);
	CHECK(jget(r, "payload_printable") == NULL);
	CHECK_EQ(jint(r, "stream"), 0);
	json_decref(r);
	CHECK(schema_valid(eve) != 0);
	rm_tree(dir);
}

TEST(alert_icmp_and_ipv6_eve_header)
{
	char *dir = make_tmpdir("test_alert_out");
	char eve[256];
	Outputs *o;
	Packet p;
	AlertInfo a;
	json_t *r;

	CHECK(dir);
	o = open_in(dir, yaml_default);
	CHECK(o);
	memset(&p, 0, sizeof(p));
	p.ip_version = 6;
	p.proto = IPPROTO_ICMPV6;
	v6(&p.src, "2001:db8::1");
	v6(&p.dst, "2001:db8::2");
	p.icmp_type = 128;
	p.flags = PKT_REASSEMBLED;
	p.pkt_src = PKT_SRC_DEFRAG;    /* as defrag.c builds it */
	base_alert(&a);
	output_alert(o, &p, NULL, &a);        /* no flow: no direction, no flow object */
	outputs_close(o);

	path_in(eve, sizeof(eve), dir, "eve.json");
	r = eve_line(eve, 0);
	CHECK(r);
	CHECK_STREQ(jstr(r, "src_ip"), "2001:0db8:0000:0000:0000:0000:0000:0001");
	CHECK_STREQ(jstr(r, "proto"), "IPv6-ICMP");
	CHECK_EQ(jint(r, "icmp_type"), 128);
	CHECK(jget(r, "src_port") == NULL);
	CHECK(jget(r, "flow_id") == NULL);
	CHECK(jget(r, "pcap_cnt") == NULL);
	CHECK(jget(r, "direction") == NULL);
	CHECK(jget(r, "flow") == NULL);
	CHECK_STREQ(jstr(r, "pkt_src"), "defrag");
	json_decref(r);
	CHECK(schema_valid(eve) != 0);
	rm_tree(dir);
}

/* The alert object is written into the line; keys that need escaping go
 * through a tree, keys jansson refuses are left out, bytes that are not
 * UTF-8 in a value become '?'. The drop records' tree of it is the same. */
TEST(alert_metadata_grouped_escaped_and_bad_keys_skipped)
{
	char *dir = make_tmpdir("test_alert_out");
	char eve[256], key200[220], buf[2048];
	static const char *md[9];
	char *line;
	Outputs *o;
	Packet p;
	Flow f;
	AlertInfo a;
	json_t *al;
	size_t n;

	memset(key200, 'k', 200);
	strcpy(key200 + 200, " long");
	md[0] = "tag one";
	md[1] = "wei\"rd k";
	md[2] = "caf\xc3\xa9 v";
	md[3] = "tag two";
	md[4] = "bad\xff x";       /* not UTF-8: jansson refuses the key */
	md[5] = "  lead  spaced";
	md[6] = key200;            /* longer than Suricata logs */
	md[7] = "solo";
	md[8] = "tag thr\xfe";
	CHECK(dir);
	o = open_in(dir, yaml_default);
	CHECK(o);
	tcp_pair(&p, &f);
	base_alert(&a);
	a.msg = "msg \xff\xfe end";
	a.metadata = md;
	a.n_metadata = 9;
	output_alert(o, &p, &f, &a);
	al = output_alert_object(o, &a);
	outputs_close(o);
	CHECK(al);
	n = eve_json_dump(al, buf, sizeof(buf) - 1);
	json_decref(al);
	CHECK(n > 0 && n < sizeof(buf));
	buf[n] = '\0';

	path_in(eve, sizeof(eve), dir, "eve.json");
	line = file_line(eve, 0);
	CHECK(line);
	CHECK(strstr(line, "\"signature\":\"msg ?? end\"") != NULL);
	CHECK(strstr(line, "\"metadata\":{\"tag\":[\"one\",\"two\",\"thr?\"],"
			   "\"wei\\\"rd\":[\"k\"],\"caf\xc3\xa9\":[\"v\"],\"lead\":[\"spaced\"],"
			   "\"solo\":[\"\"]}}") != NULL);
	CHECK(strstr(line, buf) != NULL);
	free(line);
	rm_tree(dir);
}

/* metadata.rule.reference: yes adds the rule's references, as URLs, before
 * the metadata (reference-01); off by default. */
TEST(alert_references_only_when_asked)
{
	static const char yaml_refs[] =
		"outputs:\n"
		"  - eve-log:\n"
		"      enabled: yes\n"
		"      filename: eve.json\n"
		"      types:\n"
		"        - alert:\n"
		"            metadata:\n"
		"              rule:\n"
		"                reference: yes\n"
		"                metadata: yes\n";
	static const char *const refs[] = { "https://github.com/x", "foobar://y" };
	static const char *const md[] = { "tag one" };
	char *dir = make_tmpdir("test_alert_out");
	char eve[256], *line;
	Outputs *o;
	Packet p;
	Flow f;
	AlertInfo a;

	CHECK(dir);
	tcp_pair(&p, &f);
	base_alert(&a);
	a.references = refs;
	a.n_references = 2;
	a.metadata = md;
	a.n_metadata = 1;
	o = open_in(dir, yaml_default);
	CHECK(o);
	output_alert(o, &p, &f, &a);
	outputs_close(o);
	path_in(eve, sizeof(eve), dir, "eve.json");
	line = file_line(eve, 0);
	CHECK(line && strstr(line, "references") == NULL);
	free(line);
	unlink(eve);

	o = open_in(dir, yaml_refs);
	CHECK(o);
	output_alert(o, &p, &f, &a);
	outputs_close(o);
	line = file_line(eve, 0);
	CHECK(line);
	CHECK(strstr(line, "\"severity\":1,\"references\":[\"https://github.com/x\","
			   "\"foobar://y\"],\"metadata\":{\"tag\":[\"one\"]}") != NULL);
	free(line);
	CHECK(schema_valid(eve) != 0);
	rm_tree(dir);
}

/* target:src_ip|dest_ip adds "source" and "target" (ip, port), the named
 * side of the packet as target; metadata.rule.raw adds the rule's text as
 * "rule", after the metadata; neither without its switch. */
TEST(alert_target_source_and_rule_text)
{
	static const char yaml_raw[] =
		"outputs:\n"
		"  - eve-log:\n"
		"      enabled: yes\n"
		"      filename: eve.json\n"
		"      types:\n"
		"        - alert:\n"
		"            metadata:\n"
		"              rule:\n"
		"                raw: yes\n";
	char *dir = make_tmpdir("test_alert_out");
	char eve[256], *line;
	Outputs *o;
	Packet p;
	Flow f;
	AlertInfo a;

	CHECK(dir);
	tcp_pair(&p, &f);       /* the packet: 10.0.0.2:80 -> 10.0.0.1:40000 */
	base_alert(&a);
	a.target = ALERT_TARGET_SRC;
	a.rule_text = "alert tcp any any -> any any (msg:\"x\"; target:src_ip; sid:1;)";
	o = open_in(dir, yaml_default);
	CHECK(o);
	output_alert(o, &p, &f, &a);
	outputs_close(o);
	path_in(eve, sizeof(eve), dir, "eve.json");
	line = file_line(eve, 0);
	CHECK(line);
	CHECK(strstr(line, "\"severity\":1,\"source\":{\"ip\":\"10.0.0.1\",\"port\":40000},"
			   "\"target\":{\"ip\":\"10.0.0.2\",\"port\":80}}") != NULL);
	CHECK(strstr(line, "\"rule\"") == NULL);
	free(line);
	unlink(eve);

	a.target = ALERT_TARGET_DST;
	o = open_in(dir, yaml_raw);
	CHECK(o);
	output_alert(o, &p, &f, &a);
	a.target = 0;
	output_alert(o, &p, &f, &a);
	outputs_close(o);
	line = file_line(eve, 0);
	CHECK(line);
	CHECK(strstr(line, "\"source\":{\"ip\":\"10.0.0.2\",\"port\":80},"
			   "\"target\":{\"ip\":\"10.0.0.1\",\"port\":40000},"
			   "\"rule\":\"alert tcp any any -> any any (msg:\\\"x\\\"; "
			   "target:src_ip; sid:1;)\"}") != NULL);
	free(line);
	line = file_line(eve, 1);
	CHECK(line && strstr(line, "\"source\"") == NULL && strstr(line, "\"rule\"") != NULL);
	free(line);
	CHECK(schema_valid(eve) != 0);
	rm_tree(dir);
}

/* The flow's flowbits as the record's "metadata" object (Suricata 8's
 * header, eve-log metadata: yes by default); metadata: no leaves it out. */
TEST(alert_flowbits_metadata_unless_eve_metadata_no)
{
	static const char yaml_no[] =
		"outputs:\n"
		"  - eve-log:\n"
		"      enabled: yes\n"
		"      filename: eve.json\n"
		"      metadata: no\n"
		"      types:\n"
		"        - alert\n";
	char *dir = make_tmpdir("test_alert_out");
	char eve[256], *line;
	Outputs *o;
	Packet p;
	Flow f;
	AlertInfo a;

	CHECK(dir);
	tcp_pair(&p, &f);
	base_alert(&a);
	a.flowbits[0] = "ET.Evil";
	a.flowbits[1] = "ET.BotccIP";
	a.n_flowbits = 2;
	o = open_in(dir, yaml_default);
	CHECK(o);
	output_alert(o, &p, &f, &a);
	outputs_close(o);
	path_in(eve, sizeof(eve), dir, "eve.json");
	line = file_line(eve, 0);
	CHECK(line && strstr(line, "\"pkt_src\":\"wire/pcap\",\"metadata\":{\"flowbits\":"
				   "[\"ET.Evil\",\"ET.BotccIP\"]},") != NULL);
	free(line);
	CHECK(schema_valid(eve) != 0);
	unlink(eve);

	o = open_in(dir, yaml_no);
	CHECK(o);
	output_alert(o, &p, &f, &a);
	outputs_close(o);
	line = file_line(eve, 0);
	CHECK(line && strstr(line, "flowbits") == NULL);
	free(line);
	rm_tree(dir);
}

static const char yaml_big_payload[] =
	"outputs:\n"
	"  - eve-log:\n"
	"      enabled: yes\n"
	"      filename: eve.json\n"
	"      types:\n"
	"        - alert:\n"
	"            payload: yes\n"
	"            payload-printable: yes\n";

/* A record larger than the 1 MiB a retry first tries (payload and
 * printable of a 900 KB match) is written whole, as jansson wrote it. */
TEST(alert_record_over_a_mebibyte_written_whole)
{
	enum { N = 900000 };
	char *dir = make_tmpdir("test_alert_out");
	char eve[256];
	uint8_t *data = malloc(N);
	char *want = malloc(N + 1);
	Outputs *o;
	Packet p;
	Flow f;
	AlertInfo a;
	json_t *r;
	const char *s;

	CHECK(dir && data && want);
	for (size_t i = 0; i < N; i++) {
		data[i] = (uint8_t)(i * 7 + i / 251);
		want[i] = (data[i] >= 0x20 && data[i] < 0x7f) || data[i] == '\n' || data[i] == '\r'
			  ? (char)data[i] : '.';
	}
	want[N] = '\0';
	o = open_in(dir, yaml_big_payload);
	CHECK(o);
	tcp_pair(&p, &f);
	base_alert(&a);
	a.payload = data;             /* not stream data: logged whole */
	a.payload_len = N;
	output_alert(o, &p, &f, &a);
	outputs_close(o);

	path_in(eve, sizeof(eve), dir, "eve.json");
	CHECK_EQ(count_lines(eve), 1);
	r = eve_line(eve, 0);
	CHECK(r);
	s = jstr(r, "payload_printable");
	CHECK(s && strcmp(s, want) == 0);
	s = jstr(r, "payload");
	CHECK(s && strlen(s) == 4 * ((N + 2) / 3));
	json_decref(r);
	free(data);
	free(want);
	rm_tree(dir);
}

/* ---- fast.log ---- */

static char *fast_for(const Packet *p, const AlertInfo *a)
{
	char *dir = make_tmpdir("test_alert_out");
	char fast[256];
	char *l;
	Outputs *o;

	if (!dir)
		return NULL;
	o = open_in(dir, yaml_default);
	if (!o)
		return NULL;
	output_alert(o, p, p->flow, a);
	outputs_close(o);
	path_in(fast, sizeof(fast), dir, "fast.log");
	l = count_lines(fast) == 1 ? file_line(fast, 0) : NULL;
	rm_tree(dir);
	return l;
}

TEST(fast_line_tcp_exact)
{
	Packet p;
	Flow f;
	AlertInfo a;
	char *l;

	utc();
	tcp_pair(&p, &f);
	base_alert(&a);
	l = fast_for(&p, &a);
	CHECK_STREQ(l, "11/30/2026-00:53:21.123456  [**] [1:2000001:3] ET POLICY something [**] "
		       "[Classification: Potential Corporate Privacy Violation] [Priority: 1] "
		       "{TCP} 10.0.0.2:80 -> 10.0.0.1:40000");
	free(l);
}

TEST(fast_line_udp_without_classtype_prints_null)
{
	Packet p;
	Flow f;
	AlertInfo a;
	char *l;

	utc();
	tcp_pair(&p, &f);
	p.proto = IPPROTO_UDP;
	p.sp = 5353;
	p.dp = 53;
	base_alert(&a);
	a.class_name = a.class_desc = NULL;
	a.priority = 0;
	a.msg = "udp thing";
	l = fast_for(&p, &a);
	CHECK_STREQ(l, "11/30/2026-00:53:21.123456  [**] [1:2000001:3] udp thing [**] "
		       "[Classification: (null)] [Priority: 3] {UDP} 10.0.0.2:5353 -> 10.0.0.1:53");
	free(l);
}

TEST(fast_line_icmp_type_code_as_ports)
{
	Packet p;
	AlertInfo a;
	char *l;

	utc();
	memset(&p, 0, sizeof(p));
	p.ts.tv_sec = 1796000001;
	p.ip_version = 4;
	p.proto = IPPROTO_ICMP;
	v4(&p.src, "1.2.3.4");
	v4(&p.dst, "5.6.7.8");
	p.icmp_type = 8;
	p.icmp_code = 0;
	base_alert(&a);
	a.gid = 1;
	a.sid = 10;
	a.rev = 1;
	a.msg = "ping";
	a.class_desc = "Misc activity";
	a.priority = 3;
	l = fast_for(&p, &a);
	CHECK_STREQ(l, "11/30/2026-00:53:21.000000  [**] [1:10:1] ping [**] "
		       "[Classification: Misc activity] [Priority: 3] {ICMP} 1.2.3.4:8 -> 5.6.7.8:0");
	free(l);
}

TEST(fast_line_ipv6_uncompressed_addresses)
{
	Packet p;
	AlertInfo a;
	char *l;

	utc();
	memset(&p, 0, sizeof(p));
	p.ts.tv_sec = 1796000001;
	p.ip_version = 6;
	p.proto = IPPROTO_TCP;
	v6(&p.src, "2001:db8::1");
	v6(&p.dst, "fe80::2");
	p.sp = 1234;
	p.dp = 443;
	base_alert(&a);
	l = fast_for(&p, &a);
	CHECK_STREQ(l, "11/30/2026-00:53:21.000000  [**] [1:2000001:3] ET POLICY something [**] "
		       "[Classification: Potential Corporate Privacy Violation] [Priority: 1] "
		       "{TCP} 2001:0db8:0000:0000:0000:0000:0000:0001:1234 -> "
		       "fe80:0000:0000:0000:0000:0000:0000:0002:443");
	free(l);
}

TEST(fast_line_unnamed_protocol_has_no_ports)
{
	Packet p;
	AlertInfo a;
	char *l;

	utc();
	memset(&p, 0, sizeof(p));
	p.ts.tv_sec = 1796000001;
	p.ip_version = 4;
	p.proto = 253;
	v4(&p.src, "1.2.3.4");
	v4(&p.dst, "5.6.7.8");
	base_alert(&a);
	l = fast_for(&p, &a);
	CHECK(l && strstr(l, "[Priority: 1] {253} 1.2.3.4 -> 5.6.7.8") != NULL);
	free(l);
}

/* snprintf's cut: the line is its first FAST_LINE_MAX - 1 bytes. */
TEST(fast_line_long_msg_cut_at_4095_bytes)
{
	static char msg[5000];
	Packet p;
	Flow f;
	AlertInfo a;
	char *l;

	utc();
	memset(msg, 'm', sizeof(msg) - 1);
	tcp_pair(&p, &f);
	base_alert(&a);
	a.msg = msg;
	l = fast_for(&p, &a);
	CHECK(l);
	CHECK_EQ(strlen(l), 4095);
	CHECK(strncmp(l, "11/30/2026-00:53:21.123456  [**] [1:2000001:3] mmm", 50) == 0);
	free(l);
}

/* fast.log clamps what eve prints whole: a usec out of range, a year of
 * five digits. */
TEST(fast_line_time_out_of_range_clamped)
{
	Packet p;
	Flow f;
	AlertInfo a;
	char *l;

	utc();
	tcp_pair(&p, &f);
	base_alert(&a);
	p.ts.tv_usec = 1234567;
	l = fast_for(&p, &a);
	CHECK(l && strncmp(l, "11/30/2026-00:53:21.234567  [**]", 32) == 0);
	free(l);
	p.ts.tv_sec = 253402300800;   /* 10000-01-01 */
	p.ts.tv_usec = 5;
	l = fast_for(&p, &a);
	CHECK(l && strncmp(l, "01/01/0000-00:00:00.000005  [**]", 32) == 0);
	free(l);
}

/* ---- threads ---- */

#define THREADS 4
#define PER_THREAD 500

static Outputs *shared_o;

static void *alert_thread(void *arg)
{
	Packet p;
	Flow f;
	AlertInfo a;

	tcp_pair(&p, &f);
	base_alert(&a);
	a.sid = (uint32_t)(uintptr_t)arg;
	for (int i = 0; i < PER_THREAD; i++)
		output_alert(shared_o, &p, &f, &a);
	return NULL;
}

TEST(alert_writers_keep_lines_whole_across_threads)
{
	char *dir = make_tmpdir("test_alert_out");
	char eve[256], fast[256];
	pthread_t t[THREADS];
	int bad = 0;

	CHECK(dir);
	shared_o = open_in(dir, yaml_default);
	CHECK(shared_o);
	for (uintptr_t i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, alert_thread, (void *)(i + 1));
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	outputs_close(shared_o);
	shared_o = NULL;

	path_in(eve, sizeof(eve), dir, "eve.json");
	path_in(fast, sizeof(fast), dir, "fast.log");
	CHECK_EQ(count_lines(eve), THREADS * PER_THREAD);
	CHECK_EQ(count_lines(fast), THREADS * PER_THREAD);
	for (int i = 0; i < THREADS * PER_THREAD; i += 97) {
		json_t *r = eve_line(eve, i);

		bad += !r || jint(r, "alert.signature_id") < 1 ||
		       jint(r, "alert.signature_id") > THREADS;
		json_decref(r);
	}
	CHECK_EQ(bad, 0);
	rm_tree(dir);
}
