#include "test.h"
#include "output-test-util.h"
#include "output/output.h"
#include "output/output-private.h"
#include "output/json-dump.h"
#include "output/json-writer.h"
#include "conf/conf.h"
#include "stats/counters.h"

#include <arpa/inet.h>
#include <jansson.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


static const char base_yaml[] =
	"stats:\n"
	"  enabled: yes\n"
	"  interval: 4\n"
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
	"        - http:\n"
	"            extended: yes\n"
	"        - template\n"
	"        - flow\n"
	"        - stats:\n"
	"            totals: yes\n"
	"            threads: no\n"
	"            deltas: yes\n"
	"  - stats:\n"
	"      enabled: yes\n"
	"      filename: stats.log\n"
	"      append: no\n"
	"      totals: yes\n";


TEST(output_config_reads_outputs_and_stats)
{
	OutputConfig cfg;
	char err[256] = "";

	CHECK_EQ(load_yaml(base_yaml), 0);
	CHECK_EQ(output_config_load(&cfg, "/var/log/x", err, sizeof(err)), 0);
	CHECK(cfg.fast.enabled);
	CHECK(!cfg.fast.append);
	CHECK(strcmp(cfg.fast.path, "/var/log/x/fast.log") == 0);
	CHECK_EQ(cfg.neve, 1);
	CHECK(cfg.eve[0].file.enabled);
	CHECK(cfg.eve[0].file.append); /* Suricata's default */
	CHECK(strcmp(cfg.eve[0].file.path, "/var/log/x/eve.json") == 0);
	CHECK(cfg.eve[0].sink.transport == NULL);
	CHECK_EQ(cfg.eve[0].ntypes, 4); /* template is not ours: ignored */
	CHECK_STREQ(cfg.eve[0].types[0], "alert");
	CHECK_STREQ(cfg.eve[0].types[1], "http");
	CHECK_STREQ(cfg.eve[0].types[2], "flow");
	CHECK_STREQ(cfg.eve[0].types[3], "stats");
	CHECK(cfg.eve_stats_totals);
	CHECK(!cfg.eve_stats_threads);
	CHECK(cfg.eve_stats_deltas);
	CHECK(cfg.stats.enabled);
	CHECK(cfg.stats_totals);
	CHECK(strcmp(cfg.stats.path, "/var/log/x/stats.log") == 0);
	CHECK(cfg.stats_enabled);
	CHECK_EQ(cfg.stats_interval, 4);
	conf_deinit();
}

/* Each eve-log output keeps the options of its own dns, tls and smtp
 * entries (Suricata 8; suricata-verify dns-eve-type-filtering), and the
 * outputs with equal options are one group: their record is built once. */
static const char per_output_yaml[] =
	"outputs:\n"
	"  - eve-log:\n"
	"      enabled: yes\n"
	"      filename: all.json\n"
	"      types:\n"
	"        - dns\n"
	"        - tls\n"
	"  - eve-log:\n"
	"      enabled: yes\n"
	"      filename: only-a.json\n"
	"      types:\n"
	"        - dns:\n"
	"            requests: no\n"
	"            types: [a]\n"
	"        - tls:\n"
	"            extended: yes\n"
	"            session-resumption: yes\n"
	"        - smtp:\n"
	"            extended: yes\n"
	"  - eve-log:\n"
	"      enabled: yes\n"
	"      filename: dns-too.json\n"
	"      types:\n"
	"        - dns\n";

struct groups_seen {
	uint32_t outs[8];
	unsigned n;
};

static void note_group(Outputs *o, uint32_t outs, const EveTypeOptions *opts, void *ctx)
{
	struct groups_seen *g = ctx;

	(void)o;
	(void)opts;
	if (g->n < 8)
		g->outs[g->n++] = outs;
}

static int same_dns(const EveTypeOptions *a, const EveTypeOptions *b)
{
	return memcmp(&a->dns, &b->dns, sizeof(a->dns)) == 0;
}

TEST(output_eve_type_options_are_each_outputs_own)
{
	OutputConfig cfg;
	char err[256] = "", *dir = make_tmpdir("test_output");
	struct groups_seen g = { { 0 }, 0 };
	Outputs *o;

	CHECK_EQ(load_yaml(per_output_yaml), 0);
	CHECK_EQ(output_config_load(&cfg, dir, err, sizeof(err)), 0);
	CHECK_EQ(cfg.neve, 3);
	CHECK(cfg.eve[0].opts.dns.requests && cfg.eve[0].opts.dns.all_types);
	CHECK(!cfg.eve[1].opts.dns.requests && !cfg.eve[1].opts.dns.all_types);
	CHECK(dns_json_cfg_type_on(&cfg.eve[1].opts.dns, 1));    /* A */
	CHECK(!dns_json_cfg_type_on(&cfg.eve[1].opts.dns, 15));  /* MX */
	CHECK(!cfg.eve[0].opts.tls_resumption && cfg.eve[1].opts.tls_resumption);
	CHECK(cfg.eve[0].opts.tls_fields != cfg.eve[1].opts.tls_fields);
	CHECK_EQ(cfg.eve[0].opts.smtp_fields, 0);
	CHECK(cfg.eve[1].opts.smtp_fields != 0);
	conf_deinit();

	o = open_in(dir, per_output_yaml);
	CHECK(o != NULL);
	/* outputs 0 and 2 share the defaults, output 1 has its own */
	eve_each_option_group(o, "dns", same_dns, note_group, &g);
	CHECK_EQ(g.n, 2);
	CHECK_EQ(g.outs[0], 0x5);
	CHECK_EQ(g.outs[1], 0x2);
	/* smtp: only output 1 lists it */
	g.n = 0;
	eve_each_option_group(o, "smtp", same_dns, note_group, &g);
	CHECK_EQ(g.n, 1);
	CHECK_EQ(g.outs[0], 0x2);
	CHECK(outputs_type_options(o, "smtp") == &o->cfg.eve[1].opts);
	outputs_close(o);
	conf_deinit();
	rm_tree(dir);
}

TEST(output_config_defaults_without_outputs)
{
	OutputConfig cfg;
	char err[256] = "";

	conf_deinit();
	CHECK_EQ(output_config_load(&cfg, ".", err, sizeof(err)), 0);
	CHECK_EQ(cfg.neve, 0);
	CHECK(!cfg.fast.enabled);
	CHECK(!cfg.stats.enabled);
	CHECK(cfg.stats_enabled);
	CHECK_EQ(cfg.stats_interval, 8);
}

TEST(output_config_bad_values_name_the_key)
{
	OutputConfig cfg;
	char err[256] = "";

	CHECK_EQ(load_yaml("outputs:\n  - eve-log:\n      enabled: yes\n      filetype: kafka\n"), 0);
	CHECK_EQ(output_config_load(&cfg, ".", err, sizeof(err)), -1);
	CHECK(strstr(err, "outputs.0.eve-log.filetype") != NULL);
	CHECK_EQ(load_yaml("outputs:\n  - fast:\n      enabled: maybe\n"), 0);
	CHECK_EQ(output_config_load(&cfg, ".", err, sizeof(err)), -1);
	CHECK(strstr(err, "outputs.0.fast.enabled") != NULL);
	CHECK_EQ(load_yaml("stats:\n  interval: 0\n"), 0);
	CHECK_EQ(output_config_load(&cfg, ".", err, sizeof(err)), -1);
	CHECK(strstr(err, "stats.interval") != NULL);
	conf_deinit();
}

TEST(output_eve_format_ts_suricata_form)
{
	struct timeval tv = { 1796000000, 123456 };
	char buf[64];

	utc();
	eve_format_ts(&tv, buf, sizeof(buf));
	CHECK_STREQ(buf, "2026-11-30T00:53:20.123456+0000");
	tv.tv_usec = 7;
	eve_format_ts(&tv, buf, sizeof(buf));
	CHECK_STREQ(buf, "2026-11-30T00:53:20.000007+0000");
}

/* eve_format_ts() keeps recent seconds formatted: many seconds in turn (more
 * than it keeps), odd usec values and a short buffer all print as snprintf
 * would, and a tzset() to another zone is not hidden by the cache. */
TEST(output_eve_format_ts_cache_matches_uncached_form)
{
	struct timeval tv;
	char buf[64], want[64];
	struct tm tm;

	utc();
	for (int i = 0; i < 40; i++) {
		time_t t = 1796000000 + (i % 7) * 3601;

		gmtime_r(&t, &tm);
		strftime(want, sizeof(want), "%Y-%m-%dT%H:%M:%S", &tm);
		snprintf(want + strlen(want), sizeof(want) - strlen(want), ".%06d+0000",
			 i * 24999);
		tv.tv_sec = t;
		tv.tv_usec = i * 24999;
		eve_format_ts(&tv, buf, sizeof(buf));
		CHECK_STREQ(buf, want);
	}
	tv.tv_sec = 1796000000;
	tv.tv_usec = 1234567;     /* out of range: printed as is, like Suricata's %06ld */
	eve_format_ts(&tv, buf, sizeof(buf));
	CHECK_STREQ(buf, "2026-11-30T00:53:20.1234567+0000");
	tv.tv_usec = 5;
	eve_format_ts(&tv, buf, 12);
	CHECK_STREQ(buf, "2026-11-30T");
	setenv("TZ", "EST5", 1);
	tzset();
	eve_format_ts(&tv, buf, sizeof(buf));
	CHECK_STREQ(buf, "2026-11-29T19:53:20.000005-0500");
	utc();
	eve_format_ts(&tv, buf, sizeof(buf));
	CHECK_STREQ(buf, "2026-11-30T00:53:20.000005+0000");
}

static void tcp_flow(Flow *f)
{
	memset(f, 0, sizeof(*f));
	f->ip_version = 4;
	f->proto = IPPROTO_TCP;
	f->src.family = f->dst.family = AF_INET;
	inet_pton(AF_INET, "10.0.0.1", &f->src.a.u32[0]);
	inet_pton(AF_INET, "192.168.1.2", &f->dst.a.u32[0]);
	f->sp = 40000;
	f->dp = 80;
	f->flow_id = 1234567890123ull;
	f->start.tv_sec = 1796000000;
	f->start.tv_usec = 1;
	f->last.tv_sec = 1796000003;
	f->last.tv_usec = 500000;
	f->pkts_toserver = 5;
	f->pkts_toclient = 4;
	f->bytes_toserver = 500;
	f->bytes_toclient = 4000;
	f->state = FLOW_STATE_CLOSED;
	f->tcp_flags_ts = 0x1b; /* syn fin psh ack */
	f->tcp_flags_tc = 0x16; /* syn rst ack */
	f->alerted = 1;
}



TEST(output_flow_record_fields)
{
	char *dir = make_tmpdir("test_output");
	char eve[256];
	Outputs *o;
	Flow f;
	json_t *r;

	utc();
	CHECK(dir != NULL);
	o = open_in(dir, base_yaml);
	CHECK(o != NULL);
	CHECK(outputs_eve_enabled(o, "flow"));
	CHECK(outputs_eve_enabled(o, "alert"));
	CHECK(!outputs_eve_enabled(o, "dns"));
	tcp_flow(&f);
	output_flow_end(o, &f, FLOW_END_SHUTDOWN);
	outputs_close(o);

	path_in(eve, sizeof(eve), dir, "eve.json");
	CHECK_EQ(count_lines(eve), 1);
	r = eve_line(eve, 0);
	CHECK(r != NULL);
	CHECK_STREQ(jstr(r, "timestamp"), "2026-11-30T00:53:23.500000+0000");
	CHECK_EQ(jint(r, "flow_id"), 1234567890123ll);
	CHECK_STREQ(jstr(r, "event_type"), "flow");
	CHECK_STREQ(jstr(r, "src_ip"), "10.0.0.1");
	CHECK_EQ(jint(r, "src_port"), 40000);
	CHECK_STREQ(jstr(r, "dest_ip"), "192.168.1.2");
	CHECK_EQ(jint(r, "dest_port"), 80);
	CHECK_STREQ(jstr(r, "proto"), "TCP");
	CHECK(jget(r, "pcap_cnt") == NULL);
	CHECK_EQ(jint(r, "flow.pkts_toserver"), 5);
	CHECK_EQ(jint(r, "flow.pkts_toclient"), 4);
	CHECK_EQ(jint(r, "flow.bytes_toserver"), 500);
	CHECK_EQ(jint(r, "flow.bytes_toclient"), 4000);
	CHECK_STREQ(jstr(r, "flow.start"), "2026-11-30T00:53:20.000001+0000");
	CHECK_STREQ(jstr(r, "flow.end"), "2026-11-30T00:53:23.500000+0000");
	CHECK_EQ(jint(r, "flow.age"), 3);
	CHECK_STREQ(jstr(r, "flow.state"), "closed");
	CHECK_STREQ(jstr(r, "flow.reason"), "shutdown");
	CHECK(json_is_true(jget(r, "flow.alerted")));
	CHECK_STREQ(jstr(r, "tcp.tcp_flags"), "1f");
	CHECK_STREQ(jstr(r, "tcp.tcp_flags_ts"), "1b");
	CHECK_STREQ(jstr(r, "tcp.tcp_flags_tc"), "16");
	CHECK(json_is_true(jget(r, "tcp.syn")));
	CHECK(json_is_true(jget(r, "tcp.fin")));
	CHECK(json_is_true(jget(r, "tcp.rst")));
	CHECK(json_is_true(jget(r, "tcp.psh")));
	CHECK(json_is_true(jget(r, "tcp.ack")));
	CHECK(jget(r, "tcp.urg") == NULL);
	json_decref(r);
	CHECK(schema_valid(eve) != 0);
	rm_tree(dir);
}

/* Flow records through the writer thread (outputs_run_start): two
 * threads end 3,000 flows each, more than the ring holds, so that both
 * wait for room; every record is written, each thread's in its order, and
 * a record is the one the flow's end would have written itself. */
typedef struct FlowEnder {
	Outputs *o;
	uint64_t first_id;
} FlowEnder;

#define ENDS_PER_THREAD 3000

static void *end_flows(void *arg)
{
	const FlowEnder *fe = arg;
	Flow f;

	tcp_flow(&f);
	for (uint64_t i = 0; i < ENDS_PER_THREAD; i++) {
		f.flow_id = fe->first_id + i;
		f.pkts_toserver = i;
		output_flow_end(fe->o, &f, FLOW_END_TIMEOUT);
	}
	return NULL;
}

TEST(output_flow_records_through_the_writer_thread)
{
	char dir[64], sync_dir[64];
	char eve[256], sync_eve[256];
	FlowEnder fe[2];
	pthread_t th[2];
	Outputs *o;
	Flow f;
	FILE *in;
	char line[8192], *want;
	uint64_t next[2] = { 0, 0 };
	int n = 0, ordered = 1;

	utc();
	/* make_tmpdir's name is one static buffer */
	snprintf(dir, sizeof(dir), "%s", make_tmpdir("test_output"));
	snprintf(sync_dir, sizeof(sync_dir), "%s", make_tmpdir("test_output"));
	CHECK(strcmp(dir, sync_dir) != 0);
	/* the synchronous record of flow 1000 of thread 0, for comparison */
	o = open_in(sync_dir, base_yaml);
	CHECK(o != NULL);
	tcp_flow(&f);
	f.flow_id = 1000;
	f.pkts_toserver = 1000;
	output_flow_end(o, &f, FLOW_END_TIMEOUT);
	outputs_close(o);
	path_in(sync_eve, sizeof(sync_eve), sync_dir, "eve.json");
	want = slurp(sync_eve);
	CHECK(want != NULL);

	o = open_in(dir, base_yaml);
	CHECK(o != NULL);
	outputs_run_start(o);
	CHECK(o->flow_writer != NULL);
	for (int t = 0; t < 2; t++) {
		fe[t] = (FlowEnder){ o, t ? 1000000 : 0 };
		CHECK_EQ(pthread_create(&th[t], NULL, end_flows, &fe[t]), 0);
	}
	for (int t = 0; t < 2; t++)
		pthread_join(th[t], NULL);
	outputs_run_stop(o);
	CHECK(o->flow_writer == NULL);
	outputs_close(o);

	path_in(eve, sizeof(eve), dir, "eve.json");
	CHECK_EQ(count_lines(eve), 2 * ENDS_PER_THREAD);
	in = fopen(eve, "r");
	CHECK(in != NULL);
	while (in && fgets(line, sizeof(line), in)) {
		json_t *r = json_loads(line, 0, NULL);
		uint64_t id = r ? (uint64_t)jint(r, "flow_id") : 0;
		int t = id >= 1000000;

		if (id - (t ? 1000000 : 0) != next[t])
			ordered = 0;
		next[t]++;
		if (id == 1000 && want)
			CHECK_STREQ(line, want);
		json_decref(r);
		n++;
	}
	if (in)
		fclose(in);
	CHECK_EQ(n, 2 * ENDS_PER_THREAD);
	CHECK(ordered);
	free(want);
	rm_tree(dir);
	rm_tree(sync_dir);
}

TEST(output_header_key_order_and_ipv6_vlan)
{
	char *dir = make_tmpdir("test_output");
	char eve[256], *text;
	Outputs *o;
	Flow f;
	Packet p;
	json_t *r, *v;

	utc();
	o = open_in(dir, base_yaml);
	CHECK(o != NULL);
	memset(&f, 0, sizeof(f));
	f.ip_version = 6;
	f.proto = IPPROTO_UDP;
	inet_pton(AF_INET6, "2001:db8:85a3::8a2e:370:7334", f.src.a.u8);
	inet_pton(AF_INET6, "2001:db8:85a3::8a2e:370:7335", f.dst.a.u8);
	f.sp = 5353;
	f.dp = 53;
	f.flow_id = 42;
	f.vlan_count = 2;
	f.vlan_id[0] = 100;
	f.vlan_id[1] = 200;
	f.start.tv_sec = f.last.tv_sec = 1796000000;
	f.pkts_toserver = 1;
	output_flow_end(o, &f, FLOW_END_TIMEOUT);

	/* a packet header: pcap_cnt, packet addresses, ICMP type/code */
	memset(&p, 0, sizeof(p));
	p.ip_version = 4;
	p.proto = IPPROTO_ICMP;
	inet_pton(AF_INET, "10.1.1.1", &p.src.a.u32[0]);
	inet_pton(AF_INET, "10.1.1.2", &p.dst.a.u32[0]);
	p.icmp_type = 8;
	p.pcap_cnt = 17;
	p.ts.tv_sec = 1796000000;
	eve_write(o, eve_header(&p.ts, "alert", &p, NULL));
	outputs_close(o);

	path_in(eve, sizeof(eve), dir, "eve.json");
	text = slurp(eve);
	CHECK(text != NULL);
	/* Suricata's order of the common fields */
	CHECK(strncmp(text, "{\"timestamp\":\"2026-11-30T00:53:20.000000+0000\",\"flow_id\":42,"
			    "\"event_type\":\"flow\",\"vlan\":[100,200],"
			    "\"src_ip\":\"2001:0db8:85a3:0000:0000:8a2e:0370:7334\",\"src_port\":5353,"
			    "\"dest_ip\":\"2001:0db8:85a3:0000:0000:8a2e:0370:7335\",\"dest_port\":53,"
			    "\"ip_v\":6,\"proto\":\"UDP\",\"flow\":{",
			    strlen("{\"timestamp\":\"2026-11-30T00:53:20.000000+0000\",\"flow_id\":42,"
				   "\"event_type\":\"flow\",\"vlan\":[100,200],"
				   "\"src_ip\":\"2001:0db8:85a3:0000:0000:8a2e:0370:7334\",\"src_port\":5353,"
				   "\"dest_ip\":\"2001:0db8:85a3:0000:0000:8a2e:0370:7335\",\"dest_port\":53,"
				   "\"ip_v\":6,\"proto\":\"UDP\",\"flow\":{")) == 0);
	free(text);
	r = eve_line(eve, 0);
	CHECK(jget(r, "tcp") == NULL);
	CHECK_STREQ(jstr(r, "flow.state"), "new");
	CHECK_STREQ(jstr(r, "flow.reason"), "timeout");
	CHECK(json_is_false(jget(r, "flow.alerted")));
	json_decref(r);
	r = eve_line(eve, 1);
	CHECK(r != NULL);
	CHECK_EQ(jint(r, "pcap_cnt"), 17);
	CHECK(jget(r, "flow_id") == NULL);
	CHECK_STREQ(jstr(r, "proto"), "ICMP");
	CHECK(jget(r, "src_port") == NULL);
	CHECK_EQ(jint(r, "icmp_type"), 8);
	v = jget(r, "icmp_code");
	CHECK(json_is_integer(v) && json_integer_value(v) == 0);
	json_decref(r);
	CHECK(schema_valid(eve) != 0);
	rm_tree(dir);
}

TEST(output_stats_eve_nested_and_stats_log_table)
{
	static const char *names[] = { "decoder.pkts", "decoder.event.ipv4.trunc_pkt",
				       "flow.total", "flow.end.state.new" };
	char *dir = make_tmpdir("test_output");
	char eve[256], slog[256], *text;
	uint64_t *snap;
	struct timeval ts = { 1796000000, 0 };
	Outputs *o;
	json_t *r;
	int ids[4];

	utc();
	for (int i = 0; i < 4; i++)
		ids[i] = counter_register(names[i]);
	snap = calloc(counters_count(), sizeof(uint64_t));
	snap[ids[0]] = 12;
	snap[ids[1]] = 0;
	snap[ids[2]] = 3;
	snap[ids[3]] = 1;
	o = open_in(dir, base_yaml);
	CHECK(o != NULL);
	output_stats(o, snap, &ts, 3661);
	snap[ids[0]] = 20;
	ts.tv_sec += 8;
	output_stats(o, snap, &ts, 3669);
	outputs_close(o);

	path_in(eve, sizeof(eve), dir, "eve.json");
	CHECK_EQ(count_lines(eve), 2);
	r = eve_line(eve, 0);
	CHECK_STREQ(jstr(r, "event_type"), "stats");
	CHECK(jget(r, "src_ip") == NULL);
	CHECK_EQ(jint(r, "stats.uptime"), 3661);
	CHECK_EQ(jint(r, "stats.decoder.pkts"), 12);
	CHECK_EQ(jint(r, "stats.decoder.event.ipv4.trunc_pkt"), 0); /* zeros stay in eve */
	CHECK_EQ(jint(r, "stats.flow.total"), 3);
	CHECK_EQ(jint(r, "stats.flow.end.state.new"), 1);
	CHECK(jget(r, "stats.decoder.pkts_delta") == NULL); /* no previous snapshot */
	json_decref(r);
	r = eve_line(eve, 1);
	CHECK_EQ(jint(r, "stats.decoder.pkts"), 20);
	CHECK_EQ(jint(r, "stats.decoder.pkts_delta"), 8);
	json_decref(r);

	path_in(slog, sizeof(slog), dir, "stats.log");
	text = slurp(slog);
	CHECK(text != NULL);
	CHECK(strstr(text,
		     "------------------------------------------------------------------------------------\n"
		     "Date: 11/30/2026 -- 00:53:20 (uptime: 0d, 01h 01m 01s)\n"
		     "------------------------------------------------------------------------------------\n"
		     "Counter                                       | TM Name                   | Value\n"
		     "------------------------------------------------------------------------------------\n"
		     "decoder.pkts                                  | Total                     | 12\n"
		     "flow.total                                    | Total                     | 3\n"
		     "flow.end.state.new                            | Total                     | 1\n") == text);
	CHECK(strstr(text, "trunc_pkt") == NULL); /* zeros left out of stats.log */
	CHECK(strstr(text, "decoder.pkts                                  | Total                     | 20\n") != NULL);
	free(text);
	free(snap);
	rm_tree(dir);
}

TEST(output_stats_record_validates_against_schema)
{
	static const char *names[] = { "decoder.pkts", "decoder.bytes", "flow.tcp",
				       "flow.memuse", "tcp.syn" };
	char *dir = make_tmpdir("test_output");
	char eve[256], *yaml, *d;
	uint64_t *snap;
	struct timeval ts = { 1796000000, 0 };
	Outputs *o;

	utc();
	for (int i = 0; i < 5; i++)
		counter_register(names[i]);
	snap = calloc(counters_count(), sizeof(uint64_t));
	for (size_t i = 0; i < counters_count(); i++)
		snap[i] = i * 3;
	/* Suricata's schema has no *_delta keys: validate without deltas */
	yaml = strdup(base_yaml);
	d = strstr(yaml, "deltas: yes");
	memcpy(d, "deltas: no ", 11);
	o = open_in(dir, yaml);
	free(yaml);
	CHECK(o != NULL);
	output_stats(o, snap, &ts, 1);
	output_stats(o, snap, &ts, 2);
	outputs_close(o);
	free(snap);
	path_in(eve, sizeof(eve), dir, "eve.json");
	CHECK_EQ(count_lines(eve), 2);
	CHECK(schema_valid(eve) != 0);
	rm_tree(dir);
}

TEST(output_append_and_truncate)
{
	char *dir = make_tmpdir("test_output");
	char fast[256], eve[256];
	Outputs *o;

	for (int run = 0; run < 2; run++) {
		o = open_in(dir, base_yaml);
		CHECK(o != NULL);
		CHECK(outputs_fast_enabled(o));
		fast_write_line(o, "one");
		fast_write_line(o, "two\n");
		eve_write(o, json_pack("{s:s}", "event_type", "x"));
		outputs_close(o);
	}
	path_in(fast, sizeof(fast), dir, "fast.log");
	path_in(eve, sizeof(eve), dir, "eve.json");
	CHECK_EQ(count_lines(fast), 2); /* append: no */
	CHECK_EQ(count_lines(eve), 2);  /* eve appends by default */
	rm_tree(dir);
}

TEST(output_open_fails_with_a_clear_reason)
{
	OutputConfig cfg;
	char err[256] = "";

	CHECK_EQ(load_yaml(base_yaml), 0);
	CHECK_EQ(output_config_load(&cfg, "/nonexistent/dir", err, sizeof(err)), 0);
	CHECK(outputs_open(&cfg, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "/nonexistent/dir/") != NULL);
	conf_deinit();
}

struct writer_arg {
	Outputs *o;
	int id;
};

static void *writer(void *argp)
{
	struct writer_arg *a = argp;

	for (int i = 0; i < 2000; i++)
		eve_write(a->o, json_pack("{s:s,s:i,s:i,s:s}", "event_type", "t", "thread", a->id,
					  "i", i, "pad", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"));
	return NULL;
}

TEST(output_eve_write_lines_stay_whole_across_threads)
{
	char *dir = make_tmpdir("test_output");
	char eve[256], line[512];
	pthread_t th[4];
	struct writer_arg args[4];
	Outputs *o;
	FILE *f;
	int n = 0, bad = 0;

	o = open_in(dir, base_yaml);
	CHECK(o != NULL);
	for (int i = 0; i < 4; i++) {
		args[i].o = o;
		args[i].id = i;
		pthread_create(&th[i], NULL, writer, &args[i]);
	}
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	outputs_close(o);
	path_in(eve, sizeof(eve), dir, "eve.json");
	f = fopen(eve, "r");
	CHECK(f != NULL);
	while (fgets(line, sizeof(line), f)) {
		json_t *r = json_loads(line, 0, NULL);

		if (!r)
			bad++;
		json_decref(r);
		n++;
	}
	fclose(f);
	CHECK_EQ(n, 8000);
	CHECK_EQ(bad, 0);
	rm_tree(dir);
}

/* eve_write() formats small records in a stack buffer and larger ones on the
 * heap: records on either side of that size, and exactly at it, come out
 * whole, one per line, in order. */
TEST(output_eve_write_small_and_large_records_whole)
{
	static const size_t sizes[] = { 10, 8160, 8164, 8165, 8166, 8192, 20000 };
	size_t n = sizeof(sizes) / sizeof(sizes[0]);
	char *dir = make_tmpdir("test_output");
	char eve[256];
	char *pad = malloc(20001), *line = malloc(32768);
	Outputs *o;
	FILE *f;
	size_t i = 0;

	CHECK(pad && line);
	o = open_in(dir, base_yaml);
	CHECK(o != NULL);
	for (size_t k = 0; k < n; k++) {
		memset(pad, 'x', sizes[k]);
		pad[sizes[k]] = 0;
		eve_write(o, json_pack("{s:s,s:s}", "event_type", "t", "pad", pad));
	}
	outputs_close(o);
	path_in(eve, sizeof(eve), dir, "eve.json");
	f = fopen(eve, "r");
	CHECK(f != NULL);
	while (fgets(line, 32768, f)) {
		json_t *r = json_loads(line, 0, NULL);
		const char *s = r ? json_string_value(json_object_get(r, "pad")) : NULL;

		CHECK(i < n);
		CHECK(s != NULL);
		if (s && i < n)
			CHECK_EQ(strlen(s), sizes[i]);
		CHECK(line[strlen(line) - 1] == '\n');
		json_decref(r);
		i++;
	}
	fclose(f);
	CHECK_EQ(i, n);
	free(pad);
	free(line);
	rm_tree(dir);
}

/* The header is written (eve_header_write, the flow record) or built as a
 * tree by the same calls (eve_header, the other records): the same bytes
 * for packets and flows of every shape, community_id on and off. */
static void check_headers_equal(const Packet *p, const Flow *f)
{
	char a[1024], b[1024];
	json_t *t = eve_header(&(struct timeval){ 1796000000, 42 }, "flow", p, f);
	size_t na = eve_json_dump(t, a, sizeof(a)), nb;
	JsonWriter w;

	json_decref(t);
	jw_begin(&w, b, sizeof(b));
	eve_header_write(&w, &(struct timeval){ 1796000000, 42 }, "flow", p, f);
	nb = jw_end(&w);
	CHECK(na > 0 && na != EVE_JSON_NOFIT);
	CHECK_EQ(na, nb);
	if (na != nb || memcmp(a, b, na)) {
		fprintf(stderr, "  tree:   %.*s\n  writer: %.*s\n", (int)na, a, (int)nb, b);
		CHECK(0);
	}
}

TEST(output_header_written_equals_tree)
{
	Flow f;
	Packet p;

	utc();
	for (int community = 0; community < 2; community++) {
		eve_set_community_id(community, 7);
		tcp_flow(&f);
		check_headers_equal(NULL, &f);
		f.vlan_count = 3;
		f.vlan_id[0] = 1;
		f.vlan_id[1] = 4094;
		f.vlan_id[2] = 7;
		check_headers_equal(NULL, &f);
		memset(&f, 0, sizeof(f));
		f.ip_version = 6;
		f.proto = IPPROTO_ICMPV6;
		inet_pton(AF_INET6, "2001:db8::1", f.src.a.u8);
		inet_pton(AF_INET6, "fe80::2", f.dst.a.u8);
		f.icmp_seen = 3;
		f.icmp_ts_type = 128;
		f.icmp_tc_type = 129;
		f.flow_id = 99;
		check_headers_equal(NULL, &f);
		f.proto = 47;   /* GRE: no ports */
		f.icmp_seen = 0;
		check_headers_equal(NULL, &f);

		memset(&p, 0, sizeof(p));
		p.ip_version = 4;
		p.proto = IPPROTO_ICMP;
		inet_pton(AF_INET, "10.1.1.1", &p.src.a.u32[0]);
		inet_pton(AF_INET, "10.1.1.2", &p.dst.a.u32[0]);
		p.icmp_type = 8;
		p.icmp_code = 1;
		p.pcap_cnt = 17;
		check_headers_equal(&p, NULL);
		tcp_flow(&f);
		p.proto = IPPROTO_TCP;
		p.sp = 1;
		p.dp = 65535;
		p.vlan_count = 1;
		p.vlan_id[0] = 10;
		check_headers_equal(&p, &f);
		p.ip_version = 0;   /* not IP: the flow's addresses */
		check_headers_equal(&p, &f);
	}
	eve_set_community_id(0, 0);
}

/* What printf would print for an address: Suricata's forms. */
static void printf_addr(const uint8_t *b, int v6, char *out, size_t len)
{
	if (v6)
		snprintf(out, len, "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x",
			 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
			 b[12], b[13], b[14], b[15]);
	else
		snprintf(out, len, "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
}

static void check_addr(const uint8_t *b, int v6)
{
	Address a;
	char got[64], want[64];

	memset(&a, 0, sizeof(a));
	memcpy(a.a.u8, b, v6 ? 16 : 4);
	printf_addr(b, v6, want, sizeof(want));
	output_format_addr(&a, v6 ? 6 : 4, got, sizeof(got));
	CHECK_STREQ(got, want);
	/* cut to fit as snprintf cuts, down to a buffer of one byte */
	for (size_t len = 1; len <= 41; len++) {
		memset(got, 'x', sizeof(got));
		printf_addr(b, v6, want, len);
		output_format_addr(&a, v6 ? 6 : 4, got, len);
		CHECK_STREQ(got, want);
		CHECK_EQ(got[len], 'x');
	}
}

/* The header's address text, written by hand: exactly "%u.%u.%u.%u" and
 * the uncompressed "%02x%02x:..." for every byte value in every place,
 * the edges (0.0.0.0, 255.255.255.255, 10.0.0.1, ::, all ones), and
 * random addresses, both in output_format_addr() and in the records (the
 * written header and the tree the same bytes). */
TEST(output_address_text_as_printf)
{
	static const uint8_t edges[][16] = {
		{ 0, 0, 0, 0 }, { 255, 255, 255, 255 }, { 10, 0, 0, 1 }, { 1, 9, 10, 99 },
		{ 100, 199, 200, 250 }, { 0 },
		{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		  0xff, 0xff },
		{ 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 },
	};
	uint32_t seed = 77;
	Packet p;
	char want[64];

	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		check_addr(edges[i], 0);
		check_addr(edges[i], 1);
	}
	for (unsigned v = 0; v < 256; v++) {
		uint8_t b[16] = { (uint8_t)v, (uint8_t)(255 - v), (uint8_t)(v * 7), (uint8_t)(v ^ 0x5a) };

		for (int k = 4; k < 16; k++)
			b[k] = (uint8_t)(v + k * 17);
		check_addr(b, 0);
		b[3] = (uint8_t)v;   /* v last, too */
		check_addr(b, 0);
		check_addr(b, 1);
	}
	utc();
	memset(&p, 0, sizeof(p));
	p.proto = IPPROTO_UDP;
	p.sp = 53;
	p.dp = 40000;
	for (int iter = 0; iter < 200; iter++) {
		json_t *t;

		p.ip_version = iter & 1 ? 6 : 4;
		for (int k = 0; k < 16; k++) {
			seed = seed * 1103515245u + 12345u;
			p.src.a.u8[k] = (uint8_t)(seed >> 16);
			p.dst.a.u8[k] = (uint8_t)(seed >> 24);
		}
		check_headers_equal(&p, NULL);
		t = eve_header(&p.ts, "dns", &p, NULL);
		printf_addr(p.src.a.u8, iter & 1, want, sizeof(want));
		CHECK_STREQ(jstr(t, "src_ip"), want);
		printf_addr(p.dst.a.u8, iter & 1, want, sizeof(want));
		CHECK_STREQ(jstr(t, "dest_ip"), want);
		json_decref(t);
	}
}

/* ---- failing writes (file-out.c): RLIMIT_FSIZE makes write(2) fail with
 * EFBIG, or write short, exactly as a full disk does; raising the limit
 * again is the space that returns. No root, no timing. ---- */

#include <signal.h>
#include <sys/resource.h>

/* Every line of path parses as JSON and holds "i": its count in *n and the
 * last i in *last; 0 when a line is cut or the file does not end a line. */
static int lines_whole(const char *path, int *n, int *last)
{
	char *s = slurp(path), *line, *save = NULL;
	size_t len;
	int ok = 1;

	*n = 0;
	*last = -1;
	if (!s)
		return 0;
	len = strlen(s);
	if (len && s[len - 1] != '\n')
		ok = 0;
	for (line = strtok_r(s, "\n", &save); line && ok; line = strtok_r(NULL, "\n", &save)) {
		json_t *j = json_loads(line, 0, NULL);

		if (!j) {
			ok = 0;
			break;
		}
		*last = (int)json_integer_value(json_object_get(j, "i"));
		json_decref(j);
		(*n)++;
	}
	free(s);
	return ok;
}

static void write_records(Outputs *o, int from, int to)
{
	for (int i = from; i < to; i++)
		eve_write(o, json_pack("{s:s,s:i,s:s}", "event_type", "t", "i", i, "pad",
				       "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"));
}

TEST(output_full_file_loses_whole_records_counts_them_and_resumes)
{
	char *dir = make_tmpdir("test_output");
	char eve[256];
	struct rlimit saved, small;
	uint64_t errors, lost, lost_total0 = output_lost_total();
	Outputs *o;
	int n, last;

	CHECK_EQ(getrlimit(RLIMIT_FSIZE, &saved), 0);
	o = open_in(dir, base_yaml);
	CHECK(o != NULL);
	path_in(eve, sizeof(eve), dir, "eve.json");
	/* ~100-byte records against a 20,000-byte limit that is no multiple
	 * of them: the write that reaches it is short, inside a record */
	small = saved;
	small.rlim_cur = 20000;
	CHECK_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
	write_records(o, 0, 3000);
	outputs_flush(o);
	output_file_counters(&o->eve[0].file, &errors, &lost);
	CHECK(errors > 0);
	CHECK(lost > 0);
	CHECK(output_lost_total() - lost_total0 == lost);
	CHECK(lines_whole(eve, &n, &last));
	CHECK(n > 100);
	CHECK(n < 3000);
	/* the space returns: what was held and what comes next is written */
	CHECK_EQ(setrlimit(RLIMIT_FSIZE, &saved), 0);
	write_records(o, 3000, 3010);
	outputs_close(o);
	CHECK(lines_whole(eve, &n, &last));
	CHECK_EQ(last, 3009);
	CHECK_EQ((uint64_t)n + lost, 3010);
	rm_tree(dir);
}

TEST(output_append_ends_a_cut_last_line_first)
{
	char *dir = make_tmpdir("test_output");
	char eve[256];
	FILE *f;
	char *s;
	Outputs *o;

	path_in(eve, sizeof(eve), dir, "eve.json");
	/* a run killed in the middle of a record */
	f = fopen(eve, "w");
	CHECK(f != NULL);
	fputs("{\"event_type\":\"t\",\"i\":1}\n{\"event_type\":\"t\",\"i", f);
	fclose(f);
	o = open_in(dir, base_yaml);
	CHECK(o != NULL);
	write_records(o, 7, 8);
	outputs_close(o);
	s = slurp(eve);
	CHECK(s != NULL);
	CHECK(strstr(s, "{\"event_type\":\"t\",\"i\n{\"event_type\":\"t\",\"i\":7,") != NULL);
	free(s);
	rm_tree(dir);
}
