/* Tests of the configuration tree (src/conf/conf.c), size strings and the
 * cuda.mpm section. Fixtures are in tests/data/conf/. */
#include "test.h"
#include "conf/conf.h"
#include "conf/cuda-mpm-conf.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static char err[1024];

/* Each test starts from an empty tree. */
static void reset(void)
{
	conf_deinit();
	err[0] = '\0';
}

static int load(const char *rel)
{
	return conf_load_file(test_data_path(rel), err, sizeof(err));
}

static int str_has(const char *hay, const char *needle)
{
	return hay && needle && strstr(hay, needle) != NULL;
}

/* Captures conf_dump's output in a string (caller frees). */
static char *dump_to_string(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	conf_dump(f);
	fclose(f);
	return buf;
}

/* --- loading --- */

TEST(load_file_reads_scalars_maps_and_sequences)
{
	reset();
	CHECK_EQ(load("data/conf/base.yaml"), 0);
	CHECK_STREQ(conf_get("max-pending-packets"), "1024");
	CHECK_STREQ(conf_get("flow.memcap"), "128mb");
	CHECK_STREQ(conf_get("rule-files.0"), "a.rules");
	CHECK_STREQ(conf_get("rule-files.1"), "b.rules");
	CHECK(conf_get("rule-files.2") == NULL);
	CHECK(conf_get_node("rule-files")->is_seq);
	CHECK_STREQ(conf_get("outputs.1.eve-log.types.0"), "alert");
	CHECK_STREQ(conf_get("outputs.1.eve-log.types.1.http.extended"), "yes");
	CHECK_STREQ(conf_get("vars.address-groups.EXTERNAL_NET"), "!$HOME_NET");
	/* A map is not a scalar. */
	CHECK(conf_get("flow") == NULL);
	CHECK(conf_get("no.such.key") == NULL);
	reset();
}

TEST(sequence_items_are_named_by_index_in_file_order)
{
	ConfNode *n, *c;

	reset();
	CHECK_EQ(load("data/conf/base.yaml"), 0);
	n = conf_get_node("outputs");
	CHECK(n && n->is_seq);
	c = n->child;
	CHECK(c);
	CHECK_STREQ(c->name, "0");
	CHECK_STREQ(c->child->name, "fast");
	CHECK(c->next);
	CHECK_STREQ(c->next->name, "1");
	CHECK_STREQ(c->next->child->name, "eve-log");
	CHECK(c->next->parent == n);
	reset();
}

TEST(empty_value_is_absent_not_empty_string)
{
	int64_t v = 42;

	reset();
	CHECK_EQ(load("data/conf/base.yaml"), 0);
	CHECK(conf_get_node("empty") != NULL);
	CHECK(conf_get("empty") == NULL);
	CHECK_EQ(conf_get_int("empty", &v), 0);
	CHECK_EQ(v, 42);
	reset();
}

TEST(anchor_alias_and_merge_key)
{
	reset();
	CHECK_EQ(load("data/conf/base.yaml"), 0);
	CHECK_STREQ(conf_get("copy.timeout"), "60");
	CHECK_STREQ(conf_get("copy.memcap"), "32mb");
	/* The map's own key wins over the merged one. */
	CHECK_STREQ(conf_get("defrag.timeout"), "30");
	CHECK_STREQ(conf_get("defrag.memcap"), "32mb");
	CHECK(conf_get_node("defrag.<<") == NULL);
	reset();
}

TEST(second_file_overrides_scalars_and_replaces_sequences)
{
	reset();
	CHECK_EQ(load("data/conf/base.yaml"), 0);
	CHECK_EQ(load("data/conf/override.yaml"), 0);
	CHECK_STREQ(conf_get("flow.memcap"), "256mb");
	/* Keys the later file does not name survive: maps merge. */
	CHECK_STREQ(conf_get("flow.hash-size"), "65536");
	CHECK_STREQ(conf_get("max-pending-packets"), "2048");
	CHECK_STREQ(conf_get("rule-files.0"), "c.rules");
	CHECK(conf_get("rule-files.1") == NULL);
	reset();
}

TEST(later_duplicate_key_in_one_string_wins)
{
	reset();
	CHECK_EQ(conf_load_string("a:\n  x: 1\n  y: 2\nb: 3\na:\n  x: 9\n", "s",
				  err, sizeof(err)), 0);
	CHECK_STREQ(conf_get("a.x"), "9");
	CHECK_STREQ(conf_get("a.y"), "2");
	CHECK_STREQ(conf_get("b"), "3");
	reset();
}

TEST(suricata_style_header_and_quoted_values_load)
{
	reset();
	CHECK_EQ(conf_load_string("%YAML 1.1\n---\nk: \"quoted: yes\"\nl: 'single'\n",
				  "hdr", err, sizeof(err)), 0);
	CHECK_STREQ(conf_get("k"), "quoted: yes");
	CHECK_STREQ(conf_get("l"), "single");
	reset();
}

/* --- include --- */

TEST(include_at_top_level_is_relative_and_ordered)
{
	reset();
	CHECK_EQ(load("data/conf/include-top.yaml"), 0);
	/* The include overrides what came before it ... */
	CHECK_STREQ(conf_get("a"), "from-include");
	/* ... and what comes after it overrides the include. */
	CHECK_STREQ(conf_get("b"), "after");
	CHECK_STREQ(conf_get("c"), "from-include");
	CHECK(conf_get_node("include") == NULL);
	reset();
}

TEST(include_inside_a_map_loads_into_that_map)
{
	reset();
	CHECK_EQ(load("data/conf/include-top.yaml"), 0);
	CHECK_STREQ(conf_get("nested.x"), "1");
	CHECK_STREQ(conf_get("nested.y"), "mine");
	CHECK(conf_get("x") == NULL);
	reset();
}

TEST(include_list_loads_every_file)
{
	reset();
	CHECK_EQ(load("data/conf/include-list.yaml"), 0);
	CHECK_STREQ(conf_get("c"), "from-include");
	CHECK_STREQ(conf_get("x"), "1");
	reset();
}

TEST(missing_include_names_the_included_file)
{
	reset();
	CHECK_EQ(load("data/conf/bad-include.yaml"), -1);
	CHECK(str_has(err, "missing.yaml: No such file or directory"));
	/* A failed load leaves the tree as it was. */
	CHECK(conf_get("a") == NULL);
	reset();
}

TEST(include_loop_is_an_error_not_a_crash)
{
	reset();
	CHECK_EQ(load("data/conf/include-loop.yaml"), -1);
	CHECK(str_has(err, "nested too deep"));
	reset();
}

TEST(include_of_nothing_or_a_directory_is_an_error)
{
	char yaml[1200];

	reset();
	CHECK_EQ(conf_load_string("include:\n", "s", err, sizeof(err)), -1);
	CHECK(str_has(err, "empty file name"));
	snprintf(yaml, sizeof(yaml), "include: %s\n", test_data_path("data/conf/sub"));
	CHECK_EQ(conf_load_string(yaml, "s", err, sizeof(err)), -1);
	CHECK(str_has(err, "Is a directory"));
	reset();
}

/* --- errors --- */

TEST(yaml_error_gives_file_line_col)
{
	char want[1200];

	reset();
	CHECK_EQ(load("data/conf/bad-line3.yaml"), -1);
	snprintf(want, sizeof(want), "%s:3:5: mapping values are not allowed",
		 test_data_path("data/conf/bad-line3.yaml"));
	CHECK(str_has(err, want));
	CHECK(strchr(err, '\n') == NULL);
	reset();
}

TEST(yaml_error_in_string_names_the_string)
{
	reset();
	CHECK_EQ(conf_load_string("a: 1\n\tb: 2\n", "cmdline", err, sizeof(err)), -1);
	CHECK(strncmp(err, "cmdline:2:", 10) == 0);
	reset();
}

TEST(failed_load_keeps_previous_tree)
{
	reset();
	CHECK_EQ(conf_load_string("keep: me\n", "s", err, sizeof(err)), 0);
	CHECK_EQ(conf_load_string("keep: other\nbad: [1, 2\n", "s", err, sizeof(err)), -1);
	CHECK_STREQ(conf_get("keep"), "me");
	reset();
}

TEST(missing_file_error_text)
{
	char want[1200];
	const char *path = test_data_path("data/conf/does-not-exist.yaml");

	reset();
	snprintf(want, sizeof(want), "%s: No such file or directory", path);
	CHECK_EQ(conf_load_file(path, err, sizeof(err)), -1);
	CHECK(strcmp(err, want) == 0);
	reset();
}

TEST(top_level_scalar_is_rejected)
{
	reset();
	CHECK_EQ(conf_load_string("just a string\n", "s", err, sizeof(err)), -1);
	CHECK(str_has(err, "s:1:1:"));
	CHECK_EQ(conf_load_string("", "empty", err, sizeof(err)), 0);
	reset();
}

TEST(unknown_alias_is_an_error)
{
	reset();
	CHECK_EQ(conf_load_string("a: *nope\n", "s", err, sizeof(err)), -1);
	CHECK(str_has(err, "nope"));
	reset();
}

/* --- --set --- */

TEST(set_kv_creates_new_keys_and_intermediate_maps)
{
	reset();
	CHECK_EQ(conf_set_kv("a.b.c=value"), 0);
	CHECK_STREQ(conf_get("a.b.c"), "value");
	CHECK(conf_get_node("a.b") != NULL);
	CHECK_EQ(conf_set_kv(" x.y = spaced "), 0);
	CHECK_STREQ(conf_get("x.y"), "spaced");
	/* Only the first '=' splits. */
	CHECK_EQ(conf_set_kv("vars.address-groups.HOME_NET=a=b"), 0);
	CHECK_STREQ(conf_get("vars.address-groups.HOME_NET"), "a=b");
	reset();
}

TEST(set_kv_overrides_loaded_values_and_index_paths)
{
	reset();
	CHECK_EQ(load("data/conf/base.yaml"), 0);
	CHECK_EQ(conf_set_kv("flow.memcap=1gb"), 0);
	CHECK_STREQ(conf_get("flow.memcap"), "1gb");
	CHECK_EQ(conf_set_kv("rule-files.0=x.rules"), 0);
	CHECK_STREQ(conf_get("rule-files.0"), "x.rules");
	CHECK_STREQ(conf_get("rule-files.1"), "b.rules");
	CHECK_EQ(conf_set_kv("outputs.1.eve-log.enabled=no"), 0);
	CHECK_STREQ(conf_get("outputs.1.eve-log.enabled"), "no");
	CHECK_EQ(conf_set_kv("outputs.1.eve-log.types.0=flow"), 0);
	CHECK_STREQ(conf_get("outputs.1.eve-log.types.0"), "flow");
	/* Setting a map replaces it with a scalar. */
	CHECK_EQ(conf_set("defrag", "off"), 0);
	CHECK_STREQ(conf_get("defrag"), "off");
	CHECK(conf_get("defrag.memcap") == NULL);
	/* A scalar becomes a map when a key is set under it. */
	CHECK_EQ(conf_set("max-pending-packets.sub", "1"), 0);
	CHECK_STREQ(conf_get("max-pending-packets.sub"), "1");
	reset();
}

TEST(set_kv_rejects_malformed_arguments)
{
	reset();
	CHECK_EQ(conf_set_kv("novalue"), -1);
	CHECK_EQ(conf_set_kv("=x"), -1);
	CHECK_EQ(conf_set_kv("a..b=x"), -1);
	CHECK_EQ(conf_set_kv(".a=x"), -1);
	CHECK_EQ(conf_set_kv("a.=x"), -1);
	CHECK_EQ(conf_set(NULL, "x"), -1);
	CHECK_EQ(conf_set("a", NULL), -1);
	CHECK(conf_root()->child == NULL);
	/* An empty value is allowed: --set key= clears a setting. */
	CHECK_EQ(conf_set_kv("a="), 0);
	CHECK_STREQ(conf_get("a"), "");
	reset();
}

TEST(node_lookup_is_relative_to_base)
{
	ConfNode *eve;

	reset();
	CHECK_EQ(load("data/conf/base.yaml"), 0);
	eve = conf_get_node("outputs.1.eve-log");
	CHECK(eve != NULL);
	CHECK_STREQ(conf_node_get(eve, "enabled"), "yes");
	CHECK_STREQ(conf_node_get(eve, "types.1.http.extended"), "yes");
	CHECK(conf_node_lookup(eve, "") == eve);
	CHECK(conf_node_get(eve, "filename") == NULL);
	reset();
}

/* --- typed getters --- */

TEST(get_bool_accepts_suricata_spellings)
{
	int b = -7;

	reset();
	conf_set("t1", "yes");
	conf_set("t2", "TRUE");
	conf_set("t3", "on");
	conf_set("t4", "1");
	conf_set("f1", "no");
	conf_set("f2", "False");
	conf_set("f3", "off");
	conf_set("f4", "0");
	conf_set("bad", "maybe");
	CHECK_EQ(conf_get_bool("t1", &b), 1);
	CHECK_EQ(b, 1);
	CHECK_EQ(conf_get_bool("t2", &b), 1);
	CHECK_EQ(b, 1);
	CHECK_EQ(conf_get_bool("t3", &b), 1);
	CHECK_EQ(conf_get_bool("t4", &b), 1);
	CHECK_EQ(b, 1);
	CHECK_EQ(conf_get_bool("f1", &b), 1);
	CHECK_EQ(b, 0);
	CHECK_EQ(conf_get_bool("f2", &b), 1);
	CHECK_EQ(conf_get_bool("f3", &b), 1);
	CHECK_EQ(conf_get_bool("f4", &b), 1);
	CHECK_EQ(b, 0);
	b = 5;
	CHECK_EQ(conf_get_bool("bad", &b), -1);
	CHECK_EQ(b, 5);
	CHECK_EQ(conf_get_bool("absent", &b), 0);
	CHECK_EQ(b, 5);
	reset();
}

TEST(get_int_rejects_garbage_and_overflow)
{
	int64_t v = 7;

	reset();
	conf_set("ok", "-42");
	conf_set("junk", "12abc");
	conf_set("big", "99999999999999999999");
	conf_set("empty", "");
	CHECK_EQ(conf_get_int("ok", &v), 1);
	CHECK_EQ(v, -42);
	v = 7;
	CHECK_EQ(conf_get_int("junk", &v), -1);
	CHECK_EQ(conf_get_int("big", &v), -1);
	CHECK_EQ(conf_get_int("empty", &v), -1);
	CHECK_EQ(v, 7);
	CHECK_EQ(conf_get_int("absent", &v), 0);
	CHECK_EQ(v, 7);
	reset();
}

TEST(get_size_and_time)
{
	uint64_t v = 3;

	reset();
	CHECK_EQ(load("data/conf/base.yaml"), 0);
	CHECK_EQ(conf_get_size("flow.memcap", &v), 1);
	CHECK_EQ(v, 128ULL << 20);
	conf_set("flow.memcap", "lots");
	v = 3;
	CHECK_EQ(conf_get_size("flow.memcap", &v), -1);
	CHECK_EQ(v, 3);
	CHECK_EQ(conf_get_size("flow.nothing", &v), 0);
	conf_set("t", "2000");
	CHECK_EQ(conf_get_time_us("t", &v), 1);
	CHECK_EQ(v, 2000);
	conf_set("t", "-1");
	CHECK_EQ(conf_get_time_us("t", &v), -1);
	conf_set("t", "2ms");
	CHECK_EQ(conf_get_time_us("t", &v), -1);
	CHECK_EQ(v, 2000);
	reset();
}

TEST(invalid_size_logs_one_line_naming_the_key)
{
	char line[256] = "";
	uint64_t v;
	FILE *tmp = tmpfile();
	int saved;

	reset();
	CHECK(tmp != NULL);
	conf_set("flow.memcap", "lots");
	fflush(stderr);
	saved = dup(2);
	dup2(fileno(tmp), 2);
	conf_get_size("flow.memcap", &v);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	if (!fgets(line, sizeof(line), tmp))
		line[0] = '\0';
	fclose(tmp);
	CHECK_STREQ(line, "Error: conf: flow.memcap: invalid size 'lots'\n");
	reset();
}

/* --- parse_size --- */

TEST(parse_size_table)
{
	static const struct {
		const char *s;
		int rc;
		uint64_t v;
	} cases[] = {
		{ "0", 0, 0 },
		{ "1500", 0, 1500 },
		{ "10b", 0, 10 },
		{ "1kb", 0, 1024 },
		{ "32KB", 0, 32768 },
		{ "64mb", 0, 64ULL << 20 },
		{ "64 mb", 0, 64ULL << 20 },
		{ " 2Gb ", 0, 2ULL << 30 },
		{ "1.5kb", 0, 1536 },
		/* Suricata 8's yaml: IEC units, 1024-based as the others */
		{ "32 MiB", 0, 32ULL << 20 },
		{ "16KiB", 0, 16ULL << 10 },
		{ "1 GiB", 0, 1ULL << 30 },
		{ "2 mib", 0, 2ULL << 20 },
		{ "10 TiB", -1, 0 },
		{ "0.5gb", 0, 512ULL << 20 },
		{ "17179869183gb", 0, 17179869183ULL << 30 },
		{ "18446744073709551615", 0, UINT64_MAX },
		{ "18446744073709551616", -1, 0 },
		{ "17179869184gb", -1, 0 },
		{ "", -1, 0 },
		{ "mb", -1, 0 },
		{ "lots", -1, 0 },
		{ "-1", -1, 0 },
		{ "-1mb", -1, 0 },
		{ "+5", -1, 0 },
		{ "10 tb", -1, 0 },
		{ "10m", -1, 0 },
		{ "10mbx", -1, 0 },
		{ "10mb 5", -1, 0 },
		{ "1.kb", -1, 0 },
		{ "1,5mb", -1, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 12345;
		int rc = parse_size(cases[i].s, &v);

		if (rc != cases[i].rc)
			printf("  parse_size(\"%s\") returned %d\n", cases[i].s, rc);
		CHECK_EQ(rc, cases[i].rc);
		if (rc == 0)
			CHECK(v == cases[i].v);
		else
			CHECK_EQ(v, 12345);
	}
	CHECK_EQ(parse_size(NULL, NULL), -1);
}

/* --- dump --- */

TEST(dump_prints_paths_in_order_with_seq_map_names)
{
	char *d;

	reset();
	CHECK_EQ(conf_load_string("a:\n  b: 1\nseq: [x, y]\n"
				  "outputs:\n  - eve-log:\n      types:\n        - alert\n",
				  "s", err, sizeof(err)), 0);
	d = dump_to_string();
	CHECK(d != NULL);
	CHECK_STREQ(d, "a.b = 1\n"
		       "seq.0 = x\n"
		       "seq.1 = y\n"
		       "outputs.0 = eve-log\n"
		       "outputs.0.eve-log.types.0 = alert\n");
	free(d);
	reset();
}

/* --- cuda.mpm --- */

static int cuda_load_with(const char *yaml, CudaMpmConfig *c)
{
	reset();
	if (yaml && conf_load_string(yaml, "cuda", err, sizeof(err)) < 0)
		return -2;
	return cuda_mpm_config_load(c, err, sizeof(err));
}

TEST(cuda_mpm_defaults_without_section)
{
	CudaMpmConfig c;

	memset(&c, 0xff, sizeof(c));
	CHECK_EQ(cuda_load_with(NULL, &c), 0);
	CHECK_EQ(c.data_buffer_size_min_limit, 0);
	CHECK_EQ(c.data_buffer_size_max_limit, 65535);
	CHECK(c.cudabuffer_buffer_size == 500ULL * 1024 * 1024);
	CHECK(c.gpu_transfer_size == 50ULL * 1024 * 1024);
	CHECK_EQ(c.batching_timeout_us, 1000000);
	CHECK_EQ(c.device_id, 0);
	CHECK_EQ(c.cuda_streams, 2);
	reset();
}

TEST(cuda_mpm_reads_every_key)
{
	CudaMpmConfig c;
	int rc;

	rc = cuda_load_with("cuda:\n  mpm:\n"
				"    data-buffer-size-min-limit: 10\n"
				"    data-buffer-size-max-limit: 2kb\n"
				"    cudabuffer-buffer-size: 1gb\n"
				"    gpu-transfer-size: 8mb\n"
				"    batching-timeout: 10000\n"
				"    device-id: 1\n"
				"    cuda-streams: 4\n", &c);
	CHECK_EQ(rc, 0);
	CHECK_EQ(c.data_buffer_size_min_limit, 10);
	CHECK_EQ(c.data_buffer_size_max_limit, 2048);
	CHECK(c.cudabuffer_buffer_size == 1ULL << 30);
	CHECK(c.gpu_transfer_size == 8ULL << 20);
	CHECK_EQ(c.batching_timeout_us, 10000);
	CHECK_EQ(c.device_id, 1);
	CHECK_EQ(c.cuda_streams, 4);
	reset();
}

TEST(cuda_mpm_each_validation_error_names_its_key)
{
	static const struct {
		const char *yaml;
		const char *want;
	} cases[] = {
		{ "cuda: {mpm: {gpu-transfer-size: abc}}",
		  "cuda.mpm.gpu-transfer-size: invalid size 'abc'" },
		{ "cuda: {mpm: {data-buffer-size-min-limit: -1}}",
		  "cuda.mpm.data-buffer-size-min-limit: invalid size '-1'" },
		{ "cuda: {mpm: {data-buffer-size-max-limit: x}}",
		  "cuda.mpm.data-buffer-size-max-limit: invalid size 'x'" },
		{ "cuda: {mpm: {cudabuffer-buffer-size: 1tb}}",
		  "cuda.mpm.cudabuffer-buffer-size: invalid size '1tb'" },
		{ "cuda: {mpm: {data-buffer-size-min-limit: 2000, data-buffer-size-max-limit: 1500}}",
		  "cuda.mpm.data-buffer-size-min-limit: 2000 is greater than data-buffer-size-max-limit 1500" },
		{ "cuda: {mpm: {data-buffer-size-max-limit: 65536}}",
		  "cuda.mpm.data-buffer-size-max-limit: 65536 exceeds" },
		{ "cuda: {mpm: {gpu-transfer-size: 0}}",
		  "cuda.mpm.gpu-transfer-size: must be greater than 0" },
		{ "cuda: {mpm: {gpu-transfer-size: 600mb}}",
		  "cuda.mpm.gpu-transfer-size: 629145600 is greater than cudabuffer-buffer-size 524288000" },
		{ "cuda: {mpm: {cudabuffer-buffer-size: 0}}",
		  "cuda.mpm.cudabuffer-buffer-size: must be greater than 0" },
		{ "cuda: {mpm: {cuda-streams: 0}}",
		  "cuda.mpm.cuda-streams: must be between 1 and 16 (got 0)" },
		{ "cuda: {mpm: {cuda-streams: 17}}",
		  "cuda.mpm.cuda-streams: must be between 1 and 16 (got 17)" },
		{ "cuda: {mpm: {cuda-streams: two}}",
		  "cuda.mpm.cuda-streams: invalid integer 'two'" },
		{ "cuda: {mpm: {device-id: -1}}",
		  "cuda.mpm.device-id: must be >= 0 (got -1)" },
		{ "cuda: {mpm: {device-id: gpu0}}",
		  "cuda.mpm.device-id: invalid integer 'gpu0'" },
		{ "cuda: {mpm: {batching-timeout: -5}}",
		  "cuda.mpm.batching-timeout: must be >= 0 (got -5)" },
		{ "cuda: {mpm: {batching-timeout: soon}}",
		  "cuda.mpm.batching-timeout: invalid time 'soon'" },
		{ "cuda: {mpm: {device-id: [1, 2]}}",
		  "cuda.mpm.device-id: expected a value, not a list" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CudaMpmConfig c;

		cuda_mpm_config_defaults(&c);
		c.cuda_streams = 99;
		if (cuda_load_with(cases[i].yaml, &c) != -1 ||
		    strncmp(err, cases[i].want, strlen(cases[i].want)) != 0)
			printf("  case %zu: got '%s'\n", i, err);
		CHECK_EQ(cuda_load_with(cases[i].yaml, &c), -1);
		CHECK(strncmp(err, cases[i].want, strlen(cases[i].want)) == 0);
		/* The caller's struct is untouched on error. */
		CHECK_EQ(c.cuda_streams, 99);
	}
	reset();
}

TEST(cuda_mpm_limits_at_their_bounds_are_accepted)
{
	CudaMpmConfig c;
	int rc;

	rc = cuda_load_with("cuda: {mpm: {data-buffer-size-min-limit: 65535,"
			    " data-buffer-size-max-limit: 65535,"
			    " gpu-transfer-size: 500mb, cuda-streams: 16,"
			    " batching-timeout: 0}}", &c);
	CHECK_EQ(rc, 0);
	CHECK_EQ(c.data_buffer_size_max_limit, 65535);
	CHECK_EQ(c.cuda_streams, 16);
	CHECK_EQ(c.batching_timeout_us, 0);
	CHECK_EQ(cuda_load_with("cuda: {mpm: {cuda-streams: 1, device-id: }}", &c), 0);
	CHECK_EQ(c.cuda_streams, 1);
	CHECK_EQ(c.device_id, 0);
	reset();
}

/* --- the shipped suricata.yaml.in --- */

/* Loads ../suricata.yaml.in with its @placeholders@ filled in, as the build's
 * sed does. */
static int load_default_yaml(void)
{
	static const struct {
		const char *from, *to;
	} subst[] = {
		{ "@e_logdir@", "./" },
		{ "@e_rulesdir@", "/rules" },
		{ "@e_sysconfdir@", "/etc/suricata/" },
	};
	FILE *f = fopen(test_data_path("../suricata.yaml.in"), "rb");
	char *in, *out, *o;
	long len;
	int rc;

	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	in = calloc(1, (size_t)len + 1);
	/* Substitutions only shorten or add a little per placeholder. */
	out = calloc(1, (size_t)len * 2 + 256);
	if (!in || !out || fread(in, 1, (size_t)len, f) != (size_t)len) {
		fclose(f);
		free(in);
		free(out);
		return -1;
	}
	fclose(f);
	o = out;
	for (const char *p = in; *p;) {
		size_t i;

		for (i = 0; i < sizeof(subst) / sizeof(subst[0]); i++) {
			size_t fl = strlen(subst[i].from);

			if (strncmp(p, subst[i].from, fl) == 0) {
				o += sprintf(o, "%s", subst[i].to);
				p += fl;
				break;
			}
		}
		if (i == sizeof(subst) / sizeof(subst[0]))
			*o++ = *p++;
	}
	*o = '\0';
	rc = conf_load_string(out, "suricata.yaml.in", err, sizeof(err));
	free(in);
	free(out);
	return rc;
}

TEST(default_suricata_yaml_in_parses_with_suricata_defaults)
{
	uint64_t sz = 0;
	int64_t mpp = 0;
	CudaMpmConfig c;

	reset();
	CHECK_EQ(load_default_yaml(), 0);
	/* commented out, as in Suricata 8's yaml: the engine picks the default */
	CHECK_EQ(conf_get_int("max-pending-packets", &mpp), 0);
	CHECK_EQ(conf_get_size("flow.memcap", &sz), 1);
	CHECK(sz == 128ULL << 20);
	CHECK_EQ(conf_get_size("cuda.mpm.gpu-transfer-size", &sz), 1);
	CHECK(sz == 50ULL << 20);
	CHECK_STREQ(conf_get("vars.address-groups.HOME_NET"),
		    "[192.168.0.0/16,10.0.0.0/8,172.16.0.0/12]");
	CHECK_STREQ(conf_get("vars.port-groups.ORACLE_PORTS"), "1521");
	CHECK_STREQ(conf_get("default-log-dir"), "./");
	CHECK_STREQ(conf_get("classification-file"),
		    "/etc/suricata/classification.config");
	CHECK_STREQ(conf_get("rule-files.0"), "suricata.rules");
	CHECK_STREQ(conf_get("outputs.0.fast.filename"), "fast.log");
	CHECK_STREQ(conf_get("outputs.1.eve-log.types.0.alert.tagged-packets"), "yes");
	CHECK_STREQ(conf_get("flow-timeouts.tcp.established"), "600");
	CHECK_STREQ(conf_get("flow-timeouts.icmp.emergency-bypassed"), "50");
	CHECK_STREQ(conf_get("stream.reassembly.depth"), "1mb");
	CHECK_STREQ(conf_get("app-layer.protocols.http.libhtp.default-config."
			     "request-body-limit"), "100kb");
	CHECK(conf_get("runmode") == NULL);
	CHECK_EQ(cuda_mpm_config_load(&c, err, sizeof(err)), 0);
	CHECK_EQ(c.cuda_streams, 2);
	CHECK_EQ(c.data_buffer_size_max_limit, 65535);
	reset();
}

/* --- issue #17: bad input --- */

#include <signal.h>

/* The quadratic loader took ~1,000 s on 200k keys; linear takes well under
 * a second (about a minute under valgrind on a busy machine). The alarm
 * turns "hangs" into a failure. */
static void too_slow(int sig)
{
	static const char msg[] = "FAIL: conf: 200k keys did not load within 300 s "
				  "(loading is not linear)\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

static char *big_yaml(int nkeys, int nested)
{
	size_t cap = (size_t)nkeys * 32 + 64, used = 0;
	char *y = malloc(cap);

	if (!y)
		return NULL;
	used += (size_t)snprintf(y + used, cap - used, "%%YAML 1.1\n---\n%s",
				 nested ? "big:\n" : "");
	for (int i = 0; i < nkeys; i++)
		used += (size_t)snprintf(y + used, cap - used, "%sk%06d: %d\n",
					 nested ? "  " : "", i, i);
	return y;
}

TEST(conf_200k_keys_load_in_linear_time_and_read_back)
{
	char *y;
	ConfNode *n;
	size_t k = 0;

	reset();
	signal(SIGALRM, too_slow);
	alarm(300);
	y = big_yaml(200000, 1);
	CHECK(y);
	CHECK_EQ(conf_load_string(y, "big.yaml", err, sizeof(err)), 0);
	free(y);
	/* top level too: merged key by key into the (empty) global tree */
	y = big_yaml(200000, 0);
	CHECK(y);
	CHECK_EQ(conf_load_string(y, "flat.yaml", err, sizeof(err)), 0);
	free(y);
	/* and once more over itself: every key replaced in place */
	y = big_yaml(200000, 1);
	CHECK(y);
	CHECK_EQ(conf_load_string(y, "big.yaml", err, sizeof(err)), 0);
	free(y);
	alarm(0);
	signal(SIGALRM, SIG_DFL);
	CHECK_STREQ(conf_get("big.k199998"), "199998");
	CHECK_STREQ(conf_get("big.k000000"), "0");
	CHECK_STREQ(conf_get("k199999"), "199999");
	CHECK(conf_get("big.k200000") == NULL);
	n = conf_get_node("big");
	CHECK(n);
	for (ConfNode *c = n->child; c; c = c->next)
		k++;
	CHECK_EQ(k, 200000);                   /* file order kept, no duplicates */
	CHECK_STREQ(n->child->name, "k000000");
	CHECK_STREQ(n->last_child->name, "k199999");
	/* --set over a large map finds the existing key */
	CHECK_EQ(conf_set("big.k100000", "x"), 0);
	CHECK_STREQ(conf_get("big.k100000"), "x");
	reset();
}

/* "billion laughs": each level holds ten aliases of the one before; six
 * levels would build a million nodes from a 500-byte file. */
TEST(conf_alias_bomb_is_refused)
{
	char y[2048];
	size_t used = 0;

	reset();
	used += (size_t)snprintf(y + used, sizeof(y) - used,
				 "%%YAML 1.1\n---\nl0: &l0 [x, x, x, x, x, x, x, x, x, x]\n");
	for (int i = 1; i <= 6; i++) {
		used += (size_t)snprintf(y + used, sizeof(y) - used, "l%d: &l%d [", i, i);
		for (int j = 0; j < 10; j++)
			used += (size_t)snprintf(y + used, sizeof(y) - used, "%s*l%d",
						 j ? ", " : "", i - 1);
		used += (size_t)snprintf(y + used, sizeof(y) - used, "]\n");
	}
	CHECK_EQ(conf_load_string(y, "bomb.yaml", err, sizeof(err)), -1);
	CHECK(str_has(err, "too many nodes from aliases"));
	CHECK(str_has(err, "bomb.yaml:"));
	CHECK(conf_get_node("l0") == NULL);    /* nothing of the file was kept */
	/* a few levels are fine: 10^3 nodes */
	reset();
	CHECK_EQ(conf_load_string("a: &a [x, x, x, x, x, x, x, x, x, x]\n"
				  "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
				  "c: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n",
				  "ok.yaml", err, sizeof(err)), 0);
	CHECK_STREQ(conf_get("c.9.9.9"), "x");
	reset();
}

TEST(conf_map_or_list_where_a_value_belongs_is_an_error)
{
	int64_t i = 7;
	uint64_t u = 7;
	int b = 0, e = -1;
	const char *v = NULL;
	static const char *const policies[] = { "auto", "ignore", NULL };

	reset();
	CHECK_EQ(conf_load_string("max-pending-packets:\n  a: 1\n"
				  "flow:\n  memcap: [1, 2]\n"
				  "stats:\n  enabled: []\n"
				  "empty:\n"
				  "exception-policy: bogus\n"
				  "good-policy: ignore\n",
				  "types.yaml", err, sizeof(err)), 0);
	CHECK_EQ(conf_get_int("max-pending-packets", &i), -1);
	CHECK_EQ(i, 7);
	CHECK_EQ(conf_get_size("flow.memcap", &u), -1);
	CHECK_EQ(conf_get_bool("stats.enabled", &b), -1);
	CHECK_EQ(conf_get_scalar("flow", &v), -1);
	CHECK_EQ(conf_get_scalar("empty", &v), 0);    /* null: absent, default stands */
	CHECK_EQ(conf_get_int("empty", &i), 0);
	CHECK_EQ(conf_get_enum("exception-policy", policies, &e), -1);
	CHECK_EQ(conf_get_enum("good-policy", policies, &e), 1);
	CHECK_EQ(e, 1);
	CHECK_EQ(conf_get_enum("no-such-policy", policies, &e), 0);
	reset();
}

TEST(conf_empty_file_is_refused)
{
	char path[] = "/tmp/conf-empty-XXXXXX";
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	CHECK(write(fd, "# nothing but a comment\n", 24) == 24);
	close(fd);
	reset();
	CHECK_EQ(conf_load_file(path, err, sizeof(err)), -1);
	CHECK(str_has(err, path));
	CHECK(str_has(err, "holds no settings"));
	fd = open(path, O_WRONLY | O_TRUNC);
	CHECK(fd >= 0);
	close(fd);
	CHECK_EQ(conf_load_file(path, err, sizeof(err)), -1);
	CHECK(str_has(err, "holds no settings"));
	unlink(path);
	reset();
}

/* --- settings nobody read (conf/unused.c) --- */

/* Runs conf_report_unused(test_mode) with stdout (where its notices go)
 * captured into out. */
static unsigned report_to(char *out, size_t outlen, int test_mode)
{
	FILE *tmp = tmpfile();
	int saved;
	unsigned n;
	size_t got;

	out[0] = '\0';
	if (!tmp)
		return 9999;
	fflush(stdout);
	saved = dup(1);
	dup2(fileno(tmp), 1);
	n = conf_report_unused(test_mode);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(tmp);
	got = fread(out, 1, outlen - 1, tmp);
	out[got] = '\0';
	fclose(tmp);
	return n;
}

static const char unused_yaml[] =
	"%YAML 1.1\n---\n"
	"flow:\n  memcap: 64mb\n  hash-size: 65536\n"
	"app-layer:\n  protocols:\n"
	"    template:\n      enabled: yes\n      detection-ports:\n        dp: 5900, 5901\n"
	"    pgsql:\n      enabled: no\n      stream-depth: 0\n"
	"outputs:\n  - pcap-log:\n      enabled: no\n      limit: 1000 MiB\n"
	"  - tcp-data:\n      enabled: yes\n      filename: tcp-data.log\n"
	"af-packet:\n  - interface: eth0\n    cluster-id: 99\n"
	"heartbeat:\n"
	"autofp-scheduler: hash\n"
	"threading:\n  set-cpu-affinity: yes\n"
	"rule-files:\n  - a.rules\n  - b.rules\n";

TEST(unused_settings_are_named_one_line_a_section_then_counted)
{
	char out[4096];
	int64_t v;

	reset();
	CHECK_EQ(conf_load_string(unused_yaml, "unused.yaml", err, sizeof(err)), 0);
	CHECK_EQ(conf_get_int("flow.hash-size", &v), 1);   /* read: not named */
	CHECK(conf_get_node("rule-files") != NULL);         /* a list: its items too */
	/* flow.memcap, template's two, tcp-data's two, set-cpu-affinity: 6 */
	CHECK_EQ(report_to(out, sizeof(out), 1), 6);
	CHECK(str_has(out, "Notice: conf: flow: memcap: not used by this engine, ignored\n"));
	CHECK(str_has(out, "Notice: conf: app-layer.protocols.template: enabled, detection-ports.dp: "
			   "not used by this engine, ignored\n"));
	/* a list item that is a one-key map is named by its key */
	CHECK(str_has(out, "Notice: conf: outputs.tcp-data: enabled, filename:"));
	CHECK(str_has(out, "threading: set-cpu-affinity:"));
	CHECK(str_has(out, "Notice: conf: 6 settings Suricata would act on are not used by this "
			   "engine (named above)\n"));
	/* switched off, another capture method, an empty value, a value this
	 * engine always behaves as, the rules list read: none named */
	CHECK(!str_has(out, "pgsql"));
	CHECK(!str_has(out, "pcap-log"));
	CHECK(!str_has(out, "af-packet"));
	CHECK(!str_has(out, "heartbeat"));
	CHECK(!str_has(out, "autofp-scheduler"));
	CHECK(!str_has(out, "rule-files"));
	reset();
}

TEST(unused_settings_in_a_run_are_info_lines_and_a_counted_notice)
{
	char out[300];

	reset();
	CHECK_EQ(conf_load_string("flow:\n  memcap: 64mb\n", "run.yaml", err, sizeof(err)), 0);
	CHECK_EQ(report_to(out, sizeof(out), 0), 1);
	/* the default level is notice: the section line is not shown */
	CHECK(!str_has(out, "flow: memcap"));
	CHECK(strcmp(out, "Notice: conf: 1 settings Suricata would act on are not used by this "
			  "engine (-T or -v names them)\n") == 0);
	/* read, or marked as overridden: nothing left to name */
	conf_mark_used("flow.memcap");
	CHECK_EQ(report_to(out, sizeof(out), 0), 0);
	CHECK(out[0] == '\0');
	reset();
}

TEST(unused_value_other_than_the_one_behaved_as_is_named)
{
	char out[4096];

	reset();
	CHECK_EQ(conf_load_string("autofp-scheduler: ippair\nhost-mode: auto\n"
				  "livedev:\n  use-for-tracking: no\n",
				  "sched.yaml", err, sizeof(err)), 0);
	/* ippair differs from the hash spread used; auto is what is done
	 * (vlan.use-for-tracking is read since the decoder honours it) */
	CHECK_EQ(report_to(out, sizeof(out), 1), 2);
	CHECK(str_has(out, "conf: autofp-scheduler: (set): not used"));
	CHECK(str_has(out, "conf: livedev: use-for-tracking: not used"));
	CHECK(!str_has(out, "host-mode"));
	reset();
}

/* detection's recursion limit is fixed at Suricata's default: the shipped
 * 3000 is what the engine does, another value is named */
TEST(inspection_recursion_limit_named_only_when_not_3000)
{
	char out[4096];

	reset();
	CHECK_EQ(conf_load_string("detect:\n  inspection-recursion-limit: 3000\n", "r.yaml", err,
				  sizeof(err)), 0);
	CHECK_EQ(report_to(out, sizeof(out), 1), 0);
	CHECK(!str_has(out, "inspection-recursion-limit"));
	reset();
	CHECK_EQ(conf_load_string("detect:\n  inspection-recursion-limit: 100\n", "r.yaml", err,
				  sizeof(err)), 0);
	CHECK_EQ(report_to(out, sizeof(out), 1), 1);
	CHECK(str_has(out, "conf: detect: inspection-recursion-limit: not used"));
	reset();
}

/* A rule reload re-reads the detection keys only: the file's new
 * rule-files and vars win, a key it no longer has is emptied, other keys
 * (even changed in the file) stay; a file that does not parse changes
 * nothing. */
static void write_yaml(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

TEST(reload_keys_replace_the_detection_keys_only)
{
	static const char *const keys[] = { "rule-files", "vars", "threshold-file", NULL };
	char path[] = "/tmp/test-conf-reload-XXXXXX";
	int fd = mkstemp(path);
	const char *kept;

	CHECK(fd >= 0);
	close(fd);
	reset();
	write_yaml(path, "%YAML 1.1\n---\nrule-files:\n  - a.rules\n  - b.rules\n"
		   "vars:\n  address-groups:\n    HOME_NET: \"[10.0.0.0/8]\"\n"
		   "threshold-file: /t.conf\nmax-pending-packets: 100\n");
	CHECK_EQ(conf_load_file(path, err, sizeof(err)), 0);
	kept = conf_get("vars.address-groups.HOME_NET");
	write_yaml(path, "%YAML 1.1\n---\nrule-files:\n  - c.rules\n"
		   "vars:\n  address-groups:\n    HOME_NET: \"[192.168.0.0/16]\"\n"
		   "max-pending-packets: 200\n");
	conf_lock();
	CHECK_EQ(conf_reload_keys(path, keys, err, sizeof(err)), 0);
	conf_unlock();
	CHECK_STREQ(conf_get("rule-files.0"), "c.rules");
	CHECK(conf_get("rule-files.1") == NULL);
	CHECK_STREQ(conf_get("vars.address-groups.HOME_NET"), "[192.168.0.0/16]");
	CHECK(conf_get("threshold-file") == NULL);
	CHECK_STREQ(conf_get("max-pending-packets"), "100");
	/* what a start-up reader got stays valid */
	CHECK_STREQ(kept, "[10.0.0.0/8]");
	write_yaml(path, "%YAML 1.1\n---\nrule-files: [\n");
	CHECK_EQ(conf_reload_keys(path, keys, err, sizeof(err)), -1);
	CHECK(err[0] != '\0');
	CHECK_STREQ(conf_get("rule-files.0"), "c.rules");
	unlink(path);
	reset();
}
