/* eve stats options: null-values, and Suricata 8's memcap.pressure. */
#include "test.h"
#include "output-test-util.h"

#include "stats/counters.h"

/* Record i (0-based) of the eve.json in dir. */
static json_t *eve_in(const char *dir, int i)
{
	char path[256];

	path_in(path, sizeof(path), dir, "eve.json");
	return eve_line(path, i);
}

#define YAML(nulls) \
	"flow:\n  memcap: 1000\n" \
	"outputs:\n" \
	"  - eve-log:\n" \
	"      enabled: yes\n" \
	"      filename: eve.json\n" \
	"      types:\n" \
	"        - stats:\n" \
	"            totals: yes\n" \
	"            deltas: no\n" nulls

static int ids[3];
static uint64_t *snap;

static void counters(void)
{
	ids[0] = counter_register("decoder.ipv4");
	ids[1] = counter_register("decoder.ipv6");
	ids[2] = counter_register("flow.memuse");
	snap = calloc(counters_count(), sizeof(uint64_t));
	snap[ids[0]] = 5;
	snap[ids[1]] = 0;
}

TEST(stats_null_values_no_leaves_out_zero_counters)
{
	struct timeval ts = { 1796000000, 0 };
	char *dir = make_tmpdir("test_stats_out");
	Outputs *o;
	json_t *r;

	counters();
	o = open_in(dir, YAML("            null-values: false\n"));
	CHECK(o != NULL);
	output_stats(o, snap, &ts, 1);
	outputs_close(o);
	r = eve_in(dir, 0);
	CHECK(r != NULL);
	CHECK_EQ(jint(r, "stats.decoder.ipv4"), 5);
	CHECK(jget(r, "stats.decoder.ipv6") == NULL);
	CHECK(jget(r, "stats.memcap") == NULL);   /* no pressure: all zero */
	json_decref(r);
	free(snap);
	rm_tree(dir);
}

TEST(stats_null_values_default_keeps_zeros)
{
	struct timeval ts = { 1796000000, 0 };
	char *dir = make_tmpdir("test_stats_out");
	Outputs *o;
	json_t *r;

	counters();
	o = open_in(dir, YAML(""));
	CHECK(o != NULL);
	output_stats(o, snap, &ts, 1);
	outputs_close(o);
	r = eve_in(dir, 0);
	CHECK_EQ(jint(r, "stats.decoder.ipv6"), 0);
	CHECK_EQ(jint(r, "stats.memcap.pressure"), 0);
	CHECK_EQ(jint(r, "stats.memcap.pressure_max"), 0);
	json_decref(r);
	free(snap);
	rm_tree(dir);
}

TEST(stats_memcap_pressure_is_percent_of_flow_memcap_and_max_sticks)
{
	struct timeval ts = { 1796000000, 0 };
	char *dir = make_tmpdir("test_stats_out");
	Outputs *o;
	json_t *r;

	counters();
	o = open_in(dir, YAML(""));
	CHECK(o != NULL);
	snap[ids[2]] = 420;                      /* of flow.memcap 1000 */
	output_stats(o, snap, &ts, 1);
	snap[ids[2]] = 100;
	output_stats(o, snap, &ts, 2);
	outputs_close(o);
	r = eve_in(dir, 0);
	CHECK_EQ(jint(r, "stats.memcap.pressure"), 42);
	CHECK_EQ(jint(r, "stats.memcap.pressure_max"), 42);
	json_decref(r);
	r = eve_in(dir, 1);
	CHECK_EQ(jint(r, "stats.memcap.pressure"), 10);
	CHECK_EQ(jint(r, "stats.memcap.pressure_max"), 42);
	json_decref(r);
	free(snap);
	rm_tree(dir);
}
