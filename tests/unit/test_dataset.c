/* Datasets (src/datasets/dataset.c), IP reputation (iprep.c), the
 * dataset/datarep/iprep keywords' parsing and the dataset socket commands. */
#include "test.h"
#include "datasets/dataset.h"
#include "datasets/iprep.h"
#include "datasets/geoip.h"
#include "detect/detect-parse.h"
#include "conf/conf.h"
#include "runmode/unix-socket.h"

#include <arpa/inet.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char err[512];

/* Hides an array's size from -Wformat-truncation in CHECK_STREQ's message. */
static __attribute__((noinline)) const char *opaque(const char *s)
{
	return s;
}

static Dataset *mk(const char *name, int type, const char *load, const char *save, int rep)
{
	DatasetSpec spec = { .name = name, .type = type, .load = load, .save = save, .rep = rep };
	Dataset *s = NULL;

	if (dataset_get_or_create(&spec, &s, err, sizeof(err)) != 0)
		printf("  %s\n", err);
	return s;
}

static void reset(void)
{
	datasets_free();
	conf_deinit();
	err[0] = 0;
}

TEST(dataset_type_names)
{
	CHECK_EQ(dataset_type_parse("string"), DATASET_STRING);
	CHECK_EQ(dataset_type_parse("MD5"), DATASET_MD5);
	CHECK_EQ(dataset_type_parse("sha256"), DATASET_SHA256);
	CHECK_EQ(dataset_type_parse("ipv4"), DATASET_IPV4);
	CHECK_EQ(dataset_type_parse("ip"), DATASET_IP);
	CHECK_EQ(dataset_type_parse("ipv6"), DATASET_IP);
	CHECK_EQ(dataset_type_parse("sha1"), -1);
}

TEST(dataset_add_lookup_remove_clear)
{
	reset();
	Dataset *s = mk("t1", DATASET_STRING, NULL, NULL, 0);

	CHECK(s);
	CHECK_EQ(dataset_lookup(s, (const uint8_t *)"abc", 3, NULL), 0);
	CHECK_EQ(dataset_add(s, (const uint8_t *)"abc", 3, 0), 1);
	CHECK_EQ(dataset_add(s, (const uint8_t *)"abc", 3, 0), 0);
	CHECK_EQ(dataset_lookup(s, (const uint8_t *)"abc", 3, NULL), 1);
	CHECK_EQ(dataset_lookup(s, (const uint8_t *)"ab", 2, NULL), 0);
	CHECK_EQ(dataset_count(s), 1);
	CHECK_EQ(dataset_remove(s, (const uint8_t *)"abc", 3), 1);
	CHECK_EQ(dataset_remove(s, (const uint8_t *)"abc", 3), 0);
	CHECK_EQ(dataset_lookup(s, (const uint8_t *)"abc", 3, NULL), 0);
	/* re-adding a removed value revives it */
	CHECK_EQ(dataset_add(s, (const uint8_t *)"abc", 3, 0), 1);
	CHECK_EQ(dataset_add(s, (const uint8_t *)"xyz", 3, 0), 1);
	CHECK_EQ(dataset_count(s), 2);
	dataset_clear(s);
	CHECK_EQ(dataset_count(s), 0);
	CHECK_EQ(dataset_lookup(s, (const uint8_t *)"xyz", 3, NULL), 0);
	reset();
}

TEST(dataset_fixed_sizes_and_ip_forms)
{
	reset();
	Dataset *m = mk("m", DATASET_MD5, NULL, NULL, 0);
	Dataset *ip = mk("ip", DATASET_IP, NULL, NULL, 0);
	uint8_t v[64];
	uint32_t len;

	CHECK(m && ip);
	/* an md5 set takes 16-byte values only */
	CHECK_EQ(dataset_add(m, (const uint8_t *)"short", 5, 0), -1);
	CHECK_EQ(dataset_value_parse(DATASET_MD5, "0123456789abcdef0123456789ABCDEF", v, &len), 0);
	CHECK_EQ(len, 16);
	CHECK_EQ(dataset_add(m, v, len, 0), 1);
	CHECK_EQ(dataset_value_parse(DATASET_MD5, "0123", v, &len), -1);
	CHECK_EQ(dataset_value_parse(DATASET_SHA256, "zz", v, &len), -1);
	/* an IPv4 address in an ip set is found from its 4 bytes */
	CHECK_EQ(dataset_value_parse(DATASET_IP, "10.1.2.3", v, &len), 0);
	CHECK_EQ(len, 16);
	CHECK_EQ(dataset_add(ip, v, len, 0), 1);
	CHECK_EQ(dataset_lookup(ip, (const uint8_t *)"\x0a\x01\x02\x03", 4, NULL), 1);
	CHECK_EQ(dataset_value_parse(DATASET_IP, "2001:db8::1", v, &len), 0);
	CHECK_EQ(dataset_add(ip, v, len, 0), 1);
	CHECK_EQ(dataset_value_parse(DATASET_IPV4, "2001:db8::1", v, &len), -1);
	CHECK_EQ(dataset_value_parse(DATASET_STRING, "Z29vZ2xlLmNvbQ==", v, &len), 0);
	CHECK_EQ(len, 10);
	CHECK(memcmp(v, "google.com", 10) == 0);
	CHECK_EQ(dataset_value_parse(DATASET_STRING, "Z2*v", v, &len), -1);
	reset();
}

TEST(dataset_memcap_refuses_more)
{
	reset();
	DatasetSpec spec = { .name = "small", .type = DATASET_STRING, .memcap = 200 };
	Dataset *s = NULL;
	int added = 0, refused = 0;

	CHECK_EQ(dataset_get_or_create(&spec, &s, err, sizeof(err)), 0);
	for (int i = 0; i < 100; i++) {
		char b[16];
		int r;

		snprintf(b, sizeof(b), "v%d", i);
		r = dataset_add(s, (const uint8_t *)b, (uint32_t)strlen(b), 0);
		added += r == 1;
		refused += r == -1;
	}
	CHECK(added > 0);
	CHECK(refused > 0);
	CHECK_EQ(dataset_count(s), added);
	reset();
}

TEST(dataset_same_name_other_type_refused)
{
	reset();
	Dataset *a = mk("dup", DATASET_STRING, NULL, NULL, 0), *b = NULL;
	DatasetSpec spec = { .name = "dup", .type = DATASET_MD5 };

	CHECK(a);
	CHECK_EQ(dataset_get_or_create(&spec, &b, err, sizeof(err)), -1);
	CHECK(strstr(err, "already exists and is of type string") != NULL);
	spec.type = DATASET_STRING;
	CHECK_EQ(dataset_get_or_create(&spec, &b, err, sizeof(err)), 0);
	CHECK(a == b);
	reset();
}

TEST(dataset_save_then_load_round_trip)
{
	char dir[] = "/tmp/test-dataset-XXXXXX", path[256], line[256];
	uint16_t rep = 0;
	FILE *f;

	reset();
	CHECK(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/rep.lst", dir);
	Dataset *s = mk("rep", DATASET_STRING, NULL, path, 1);
	CHECK(s);
	CHECK_EQ(dataset_add(s, (const uint8_t *)"google.com", 10, 42), 1);
	CHECK_EQ(datasets_save(), 0);
	f = fopen(path, "r");
	CHECK(f);
	CHECK(fgets(line, sizeof(line), f));
	fclose(f);
	CHECK_STREQ(opaque(line), "Z29vZ2xlLmNvbQ==,42\n");
	datasets_free();
	s = mk("rep", DATASET_STRING, path, NULL, 1);
	CHECK(s);
	CHECK_EQ(dataset_lookup(s, (const uint8_t *)"google.com", 10, &rep), 1);
	CHECK_EQ(rep, 42);
	/* a dataset (no rep) refuses a line with a value, naming the line */
	datasets_free();
	DatasetSpec spec = { .name = "plain", .type = DATASET_STRING, .load = path };
	CHECK_EQ(dataset_get_or_create(&spec, &s, err, sizeof(err)), -1);
	CHECK(strstr(err, "rep.lst:1: bad line") != NULL);
	/* a device is refused, not read for ever */
	spec.load = "/dev/zero";
	CHECK_EQ(dataset_get_or_create(&spec, &s, err, sizeof(err)), -1);
	CHECK(strstr(err, "/dev/zero is not a regular file") != NULL);
	/* so is a line longer than any value */
	f = fopen(path, "w");
	CHECK(f);
	for (int i = 0; i < 100000; i++)
		fputc('A', f);
	fclose(f);
	spec.load = path;
	CHECK_EQ(dataset_get_or_create(&spec, &s, err, sizeof(err)), -1);
	CHECK(strstr(err, "rep.lst:1: line too long") != NULL);
	unlink(path);
	rmdir(dir);
	reset();
}

/* The lock-free contract: readers never see a value that was never added,
 * and see every value added before they started, while a writer adds. */
static Dataset *race_set;
static atomic_int race_bad, race_stop;

static void *race_reader(void *arg)
{
	(void)arg;
	while (!atomic_load(&race_stop)) {
		for (uint32_t i = 0; i < 64; i++)
			if (!dataset_lookup(race_set, (const uint8_t *)&i, 4, NULL))
				atomic_fetch_add(&race_bad, 1);
		uint32_t never = 0xffffffffu;

		if (dataset_lookup(race_set, (const uint8_t *)&never, 4, NULL))
			atomic_fetch_add(&race_bad, 1);
	}
	return NULL;
}

TEST(dataset_lookups_race_with_adds)
{
	pthread_t th[2];

	reset();
	race_set = mk("race", DATASET_IPV4, NULL, NULL, 0);
	CHECK(race_set);
	for (uint32_t i = 0; i < 64; i++)
		dataset_add(race_set, (const uint8_t *)&i, 4, 0);
	atomic_store(&race_bad, 0);
	atomic_store(&race_stop, 0);
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, race_reader, NULL);
	for (uint32_t i = 64; i < 20000; i++)
		dataset_add(race_set, (const uint8_t *)&i, 4, 0);
	atomic_store(&race_stop, 1);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	CHECK_EQ(atomic_load(&race_bad), 0);
	CHECK_EQ(dataset_count(race_set), 20000);
	reset();
}

TEST(dataset_rule_paths_and_security)
{
	char out[512];

	reset();
	CHECK_EQ(datasets_init("/data", err, sizeof(err)), 0);
	CHECK_EQ(dataset_rule_save_path("x.lst", out, sizeof(out), err, sizeof(err)), 0);
	CHECK_STREQ(opaque(out), "/data/x.lst");
	CHECK_EQ(dataset_rule_save_path("/etc/x", out, sizeof(out), err, sizeof(err)), -1);
	CHECK_EQ(dataset_rule_save_path("a/../../x", out, sizeof(out), err, sizeof(err)), -1);
	dataset_rule_load_path("l.lst", "/r/s/t.rules", out, sizeof(out));
	CHECK_STREQ(opaque(out), "/r/s/l.lst");
	dataset_rule_load_path("/abs.lst", "/r/s/t.rules", out, sizeof(out));
	CHECK_STREQ(opaque(out), "/abs.lst");
	conf_set("datasets.rules.allow-absolute-filenames", "yes");
	CHECK_EQ(datasets_init("/data", err, sizeof(err)), 0);
	CHECK_EQ(dataset_rule_save_path("/var/x", out, sizeof(out), err, sizeof(err)), 0);
	CHECK_STREQ(opaque(out), "/var/x");
	conf_set("datasets.rules.allow-write", "no");
	CHECK_EQ(datasets_init("/data", err, sizeof(err)), 0);
	CHECK_EQ(dataset_rule_save_path("x.lst", out, sizeof(out), err, sizeof(err)), -1);
	CHECK(strstr(err, "allow-write") != NULL);
	conf_set("datasets.rules.allow-write", "yes");
	conf_set("datasets.rules.allow-absolute-filenames", "no");
	CHECK_EQ(datasets_init("/data", err, sizeof(err)), 0);
	reset();
}

TEST(dataset_yaml_sets_and_defaults)
{
	reset();
	conf_set("datasets.defaults.hashsize", "1024");
	conf_set("datasets.ua-seen.type", "string");
	conf_set("datasets.dns-sha.type", "sha256");
	CHECK_EQ(datasets_init(NULL, err, sizeof(err)), 0);
	CHECK(dataset_find("ua-seen", DATASET_STRING) != NULL);
	CHECK(dataset_find("dns-sha", DATASET_SHA256) != NULL);
	CHECK(dataset_find("dns-sha", DATASET_MD5) == NULL);
	reset();
	conf_set("datasets.bad.type", "sha1");
	CHECK_EQ(datasets_init(NULL, err, sizeof(err)), -1);
	CHECK(strstr(err, "datasets.bad: type invalid") != NULL);
	reset();
	conf_set("datasets.mixed.type", "string");
	conf_set("datasets.mixed.state", "a.lst");
	conf_set("datasets.mixed.save", "b.lst");
	CHECK_EQ(datasets_init(NULL, err, sizeof(err)), -1);
	reset();
}

/* ---- the keywords ---- */

static int parse(const char *rule)
{
	DetectContext ctx = { 0 };
	int code = 0;
	Signature *s = sig_parse(rule, &ctx, err, sizeof(err), &code);

	if (s) {
		sig_free(s);
		return 0;
	}
	return code;
}

TEST(dataset_keyword_parse)
{
	reset();
	CHECK_EQ(parse("alert http any any -> any any (http.user_agent; "
		       "dataset:set,ua,type string; sid:1;)"), 0);
	CHECK_EQ(parse("alert http any any -> any any (http.uri; to_md5; "
		       "dataset:isset,u5, type md5, memcap 10mb, hashsize 1024; sid:2;)"), 0);
	CHECK_EQ(parse("alert http any any -> any any (http.user_agent; "
		       "dataset:isnotset,ua; sid:3;)"), 0);
	CHECK_EQ(parse("alert http any any -> any any (http.host; "
		       "datarep:hr, >=, 100, type string; sid:4;)"), 0);
	CHECK_EQ(parse("alert http any any -> any any (http.host; datarep:hr,==,7; sid:5;)"), 0);
	/* errors */
	CHECK_EQ(parse("alert http any any -> any any (http.host; dataset:check,ua; sid:6;)"),
		 SIG_ERR_PARSE);
	CHECK(strstr(err, "bad command check") != NULL);
	CHECK_EQ(parse("alert http any any -> any any (http.host; dataset:isset,new1; sid:7;)"),
		 SIG_ERR_PARSE);
	CHECK_EQ(parse("alert http any any -> any any (http.host; "
		       "dataset:isset,ua,type sha1; sid:8;)"), SIG_ERR_PARSE);
	CHECK_EQ(parse("alert http any any -> any any (http.host; "
		       "dataset:isset,ua,hashsize 0; sid:9;)"), SIG_ERR_PARSE);
	CHECK_EQ(parse("alert http any any -> any any (http.host; datarep:hr,=>,1; sid:10;)"),
		 SIG_ERR_PARSE);
	CHECK_EQ(parse("alert http any any -> any any (http.host; datarep:hr,>,70000; sid:11;)"),
		 SIG_ERR_PARSE);
	CHECK_EQ(parse("alert http any any -> any any (http.host; "
		       "dataset:isset,ua,bogus 1; sid:12;)"), SIG_ERR_PARSE);
	/* json enrichment is a feature not built here: the rule is skipped */
	CHECK_EQ(parse("alert http any any -> any any (http.host; dataset:isset,j,type string,"
		       "load j.json,format json,enrichment_key x,value_key host; sid:13;)"),
		 SIG_ERR_UNSUPPORTED);
	reset();
}

/* ---- the socket's dataset-* commands (runmode/unix-socket-dataset.c) ---- */

static json_t *sock_run(UnixSocket *u, const char *m)
{
	return unix_socket_execute(u, m, strlen(m));
}

static int sock_ok(UnixSocket *u, const char *m, const char *want_msg)
{
	json_t *a = sock_run(u, m);
	const char *r = json_string_value(json_object_get(a, "return"));
	const char *t = json_string_value(json_object_get(a, "message"));
	int ok = r && !strcmp(r, "OK");

	if (want_msg && (!t || strcmp(t, want_msg) != 0)) {
		printf("  %s: message \"%s\", want \"%s\"\n", m, t ? t : "(none)", want_msg);
		ok = -1;
	}
	json_decref(a);
	return ok;
}

#define DS_CMD(c, args) "{\"command\": \"" c "\", \"arguments\": {" args "}}"

TEST(dataset_socket_commands)
{
	UnixSocketConfig c = { .runmode = "single", .capture_mode = "PCAP_FILE" };
	UnixSocket *u;
	char dir[] = "/tmp/test-dataset-XXXXXX", path[256], line[64];
	FILE *f;

	reset();
	CHECK(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/myset.lst", dir);
	CHECK(mk("myset", DATASET_STRING, NULL, path, 0));
	u = unix_socket_new(&c);
	CHECK(u);
	CHECK_EQ(sock_ok(u, DS_CMD("dataset-add", "\"setname\": \"myset\", \"settype\": \"string\","
				    "\"datavalue\": \"Z29vZ2xlLmNvbQ==\""), "data added"), 1);
	CHECK_EQ(sock_ok(u, DS_CMD("dataset-add", "\"setname\": \"myset\", \"settype\": \"string\","
				    "\"datavalue\": \"Z29vZ2xlLmNvbQ==\""), "data already in set"), 1);
	CHECK_EQ(sock_ok(u, DS_CMD("dataset-lookup", "\"setname\": \"myset\", \"settype\": "
				    "\"string\", \"datavalue\": \"Z29vZ2xlLmNvbQ==\""),
			 "item found in set"), 1);
	/* the set is the rules' set: a lookup from the packet path sees it */
	CHECK_EQ(dataset_lookup(dataset_find("myset", DATASET_STRING),
				(const uint8_t *)"google.com", 10, NULL), 1);
	CHECK_EQ(sock_ok(u, DS_CMD("dataset-dump", ""), "datasets dump done"), 1);
	f = fopen(path, "r");
	CHECK(f);
	CHECK(fgets(line, sizeof(line), f));
	fclose(f);
	CHECK_STREQ(opaque(line), "Z29vZ2xlLmNvbQ==\n");
	CHECK_EQ(sock_ok(u, DS_CMD("dataset-remove", "\"setname\": \"myset\", \"settype\": "
				    "\"string\", \"datavalue\": \"Z29vZ2xlLmNvbQ==\""), "data removed"),
		 1);
	CHECK_EQ(sock_ok(u, DS_CMD("dataset-lookup", "\"setname\": \"myset\", \"settype\": "
				    "\"string\", \"datavalue\": \"Z29vZ2xlLmNvbQ==\""),
			 "item not found in set"), 0);
	CHECK_EQ(sock_ok(u, DS_CMD("dataset-add-json", "\"setname\": \"myset\", \"settype\": "
				    "\"string\", \"datavalue\": \"YQ==\", \"datajson\": "
				    "\"{\\\"city\\\": \\\"x\\\"}\""), "data added"), 1);
	CHECK_EQ(sock_ok(u, DS_CMD("dataset-clear", "\"setname\": \"myset\", \"settype\": "
				    "\"string\""), "dataset cleared"), 1);
	CHECK_EQ(dataset_count(dataset_find("myset", DATASET_STRING)), 0);
	/* errors: NOK with Suricata's reasons */
	CHECK_EQ(sock_ok(u, DS_CMD("dataset-add", "\"setname\": \"myset\", \"settype\": \"md5\","
				    "\"datavalue\": \"00\""), "set not found or wrong type"), 0);
	CHECK_EQ(sock_ok(u, DS_CMD("dataset-add", "\"setname\": \"myset\", \"settype\": \"sha1\","
				    "\"datavalue\": \"00\""), "unknown settype"), 0);
	CHECK_EQ(sock_ok(u, DS_CMD("dataset-add", "\"settype\": \"string\", \"datavalue\": \"YQ==\""),
			 "setname is not a string"), 0);
	CHECK_EQ(sock_ok(u, DS_CMD("dataset-add", "\"setname\": \"myset\", \"settype\": "
				    "\"string\", \"datavalue\": \"**\""), "failed to parse data"), 0);
	unix_socket_free(u);
	unlink(path);
	rmdir(dir);
	reset();
}

/* ---- iprep (datasets/iprep.c, detect/iprep-kw.c) ---- */

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

TEST(iprep_tables_hosts_nets_and_keyword_parse)
{
	char dir[] = "/tmp/test-iprep-XXXXXX", cats[256], list[256];
	uint8_t a[16];

	reset();
	iprep_free();
	CHECK(mkdtemp(dir));
	snprintf(cats, sizeof(cats), "%s/categories.txt", dir);
	snprintf(list, sizeof(list), "%s/rep.list", dir);
	write_file(cats, "1,BadHosts,Known bad hosts\n2,Google,Google\n");
	write_file(list, "192.0.2.1,1,40\n192.0.2.0/24,1,5\n2001:db8::1,2,127\n"
			 "192.0.2.1,2,7\nbad,1,1\n198.51.100.1,1,128\n");
	/* no categories: no reputation, and iprep rules fail */
	CHECK_EQ(iprep_init(err, sizeof(err)), 0);
	CHECK_EQ(iprep_loaded(), 0);
	CHECK_EQ(parse("alert ip any any -> any any (iprep:src,BadHosts,>,1; sid:1;)"),
		 SIG_ERR_PARSE);
	conf_set("reputation-categories-file", cats);
	conf_set("default-reputation-path", dir);
	conf_set("reputation-files.0", "rep.list");
	CHECK_EQ(iprep_init(err, sizeof(err)), 0);
	CHECK_EQ(iprep_category("Google"), 2);
	CHECK_EQ(iprep_category("google"), -1);
	inet_pton(AF_INET, "192.0.2.1", a);
	CHECK_EQ(iprep_score(AF_INET, a, 1), 40);
	CHECK_EQ(iprep_score(AF_INET, a, 2), 7);
	inet_pton(AF_INET, "192.0.2.77", a);
	CHECK_EQ(iprep_score(AF_INET, a, 1), 5);
	CHECK_EQ(iprep_score(AF_INET, a, 2), -1);
	inet_pton(AF_INET, "198.51.100.1", a);
	CHECK_EQ(iprep_score(AF_INET, a, 1), -1);
	inet_pton(AF_INET6, "2001:db8::1", a);
	CHECK_EQ(iprep_score(AF_INET6, a, 2), 127);
	CHECK_EQ(parse("alert ip any any -> any any (iprep:src,BadHosts,>,1; sid:1;)"), 0);
	CHECK_EQ(parse("alert ip any any -> any any (iprep:both,Google,isnotset; sid:1;)"), 0);
	CHECK_EQ(parse("alert ip any any -> any any (iprep:any,Google,<=,127; sid:1;)"), 0);
	CHECK_EQ(parse("alert ip any any -> any any (iprep:up,Google,>,1; sid:1;)"),
		 SIG_ERR_PARSE);
	CHECK_EQ(parse("alert ip any any -> any any (iprep:src,Google,~,1; sid:1;)"),
		 SIG_ERR_PARSE);
	CHECK_EQ(parse("alert ip any any -> any any (iprep:src,Google,>,128; sid:1;)"),
		 SIG_ERR_PARSE);
	CHECK_EQ(parse("alert ip any any -> any any (iprep:src,Google; sid:1;)"), SIG_ERR_PARSE);
	iprep_free();
	unlink(cats);
	unlink(list);
	rmdir(dir);
	reset();
}

/* ---- geoip (datasets/geoip.c, detect/geoip-kw.c) ---- */

TEST(geoip_lookups_and_keyword_parse)
{
	uint8_t a[16];
	char cc[3] = "";

	reset();
	geoip_free();
	if (!geoip_built()) {
		/* a build without libmaxminddb fails the rule, in Suricata's words */
		CHECK_EQ(parse("alert ip any any -> any any (geoip:src,US; sid:1;)"), SIG_ERR_PARSE);
		CHECK_STREQ(opaque(err), "no GeoIP support built in, needed for geoip keyword");
		printf("  (no libmaxminddb in this build: lookups not tested)\n");
		return;
	}
	/* no database configured: the rule fails, naming the setting */
	CHECK_EQ(parse("alert ip any any -> any any (geoip:src,US; sid:1;)"), SIG_ERR_PARSE);
	CHECK(strstr(err, "geoip-database") != NULL);
	conf_set("geoip-database", test_data_path("data/geoip/test-country.mmdb"));
	CHECK_EQ(parse("alert ip any any -> any any (geoip:src,US; sid:1;)"), 0);
	CHECK_EQ(parse("alert ip any any -> any any (geoip:any,!us,de; sid:1;)"), 0);
	CHECK_EQ(parse("alert ip any any -> any any (geoip:both,US,!DE; sid:1;)"), SIG_ERR_PARSE);
	CHECK_EQ(parse("alert ip any any -> any any (geoip:src,U1; sid:1;)"), SIG_ERR_PARSE);
	CHECK_EQ(parse("alert ip any any -> any any (geoip:nowhere,US; sid:1;)"), SIG_ERR_PARSE);
	CHECK_EQ(parse("alert ip any any -> any any (geoip:src; sid:1;)"), SIG_ERR_PARSE);
	inet_pton(AF_INET, "10.0.0.2", a);
	CHECK_EQ(geoip_country(AF_INET, a, cc), 1);
	CHECK_STREQ(opaque(cc), "DE");
	inet_pton(AF_INET, "192.0.2.200", a);
	CHECK_EQ(geoip_country(AF_INET, a, cc), 1);
	CHECK_STREQ(opaque(cc), "JP");
	inet_pton(AF_INET, "10.0.0.3", a);
	CHECK_EQ(geoip_country(AF_INET, a, cc), 0);
	geoip_free();
	reset();
}
