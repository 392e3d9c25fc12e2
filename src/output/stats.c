/* Stats: the eve "stats" record (counters nested on their dots) and the
 * stats.log table, both from one counters_snapshot(). */
#include "output/output-private.h"
#include "output/lua-out.h"
#include "output/sink.h"
#include "output/json-writer.h"
#include "stats/counters.h"
#include "util/log.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STATS_SEPARATOR \
	"------------------------------------------------------------------------------------"

/* Finds or makes the object for the dotted prefix of name and returns it with
 * *leaf pointing at the last part. NULL when a prefix is already a number
 * (two counters "a.b" and "a.b.c": the first one wins). */
static json_t *nest(json_t *root, const char *name, char *scratch, size_t len,
		    const char **leaf)
{
	json_t *cur = root;
	char *part, *dot;

	snprintf(scratch, len, "%s", name);
	part = scratch;
	while ((dot = strchr(part, '.')) != NULL) {
		json_t *next;

		*dot = '\0';
		next = json_object_get(cur, part);
		if (!next) {
			next = json_object();
			json_object_set_new(cur, part, next);
		} else if (!json_is_object(next)) {
			return NULL;
		}
		cur = next;
		part = dot + 1;
	}
	*leaf = part;
	return cur;
}

/* Suricata 8's memcap.pressure: the highest share (percent) of a memcap in
 * use, over the memcaps whose use the engine counts; pressure_max the
 * highest seen in the run. Counters not registered in this build are
 * skipped. */
static const char *const memuse_counters[3] = {
	"flow.memuse", "tcp.memuse", "tcp.reassembly_memuse",
};

static uint64_t memcap_pressure(const Outputs *o, const uint64_t *snap, size_t n)
{
	uint64_t pressure = 0;

	for (int i = 0; i < 3; i++) {
		int id = counter_lookup(memuse_counters[i]);
		uint64_t cap = o->cfg.memcaps[i], pct;

		if (id < 0 || (size_t)id >= n || !cap)
			continue;
		pct = snap[id] >= cap ? 100 : snap[id] * 100 / cap;
		if (pct > pressure)
			pressure = pct;
	}
	return pressure;
}

static void add_counter(json_t *root, const char *name, uint64_t v, const uint64_t *prev,
			int null_values)
{
	char scratch[256], dname[300];
	const char *leaf;
	json_t *parent;

	if (!v && !null_values)
		return;
	parent = nest(root, name, scratch, sizeof(scratch), &leaf);
	if (!parent || json_object_get(parent, leaf)) {
		log_debug("stats: counter '%s' clashes with another, not in eve", name);
		return;
	}
	json_object_set_new(parent, leaf, json_integer((json_int_t)v));
	if (prev) {
		snprintf(dname, sizeof(dname), "%s_delta", leaf);
		json_object_set_new(parent, dname, json_integer((json_int_t)(v - *prev)));
	}
}

/* stats.detect.engines, as Suricata 8: one entry per detection engine
 * (tenant), with its rule counts and when the rules were loaded. */
/* The rule counts change on a rule reload (another thread) */
static pthread_mutex_t rules_lock = PTHREAD_MUTEX_INITIALIZER;

void outputs_set_rules(Outputs *o, const struct timeval *at, int loaded, int failed,
		       int skipped)
{
	pthread_mutex_lock(&rules_lock);
	o->cfg.rules_at = *at;
	o->cfg.rules_loaded = loaded;
	o->cfg.rules_failed = failed;
	o->cfg.rules_skipped = skipped;
	pthread_mutex_unlock(&rules_lock);
}

static void add_detect_engines(json_t *root, const OutputConfig *c)
{
	json_t *detect = json_object_get(root, "detect"), *arr = json_array(), *e = json_object();
	char ts[64];
	struct tm tm;
	time_t t = c->rules_at.tv_sec;

	if (!detect) {
		detect = json_object();
		json_object_set_new(root, "detect", detect);
	}
	localtime_r(&t, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(ts + strlen(ts), sizeof(ts) - strlen(ts), ".%06ld", (long)c->rules_at.tv_usec);
	strftime(ts + strlen(ts), sizeof(ts) - strlen(ts), "%z", &tm);
	json_object_set_new(e, "id", json_integer(0));
	json_object_set_new(e, "last_reload", json_string(ts));
	json_object_set_new(e, "rules_loaded", json_integer(c->rules_loaded));
	json_object_set_new(e, "rules_failed", json_integer(c->rules_failed));
	json_object_set_new(e, "rules_skipped", json_integer(c->rules_skipped));
	json_array_append_new(arr, e);
	json_object_set_new(detect, "engines", arr);
}

/* The counters of the eve-log network sinks, under "eve_output.<name>":
 * written, dropped (queue full), failed (not delivered), reconnects, and
 * queued (records waiting now, a gauge without a delta). */
static const char *const sink_counter_names[4] = { "written", "dropped", "failed", "reconnects" };

static void sink_values(EveSink *s, uint64_t v[5])
{
	EveSinkCounters c;

	sink_counters(s, &c);
	v[0] = c.written;
	v[1] = c.dropped;
	v[2] = c.failed;
	v[3] = c.reconnects;
	v[4] = c.queued;
}

static void add_sink_counters(Outputs *o, json_t *root, int deltas, int nulls)
{
	for (unsigned i = 0; i < o->neve; i++) {
		EveOutput *e = &o->eve[i];
		char name[64], key[128];
		uint64_t v[5];

		if (!e->sink)
			continue;
		output_sink_stats_name(o, i, name, sizeof(name));
		sink_values(e->sink, v);
		for (int k = 0; k < 4; k++) {
			snprintf(key, sizeof(key), "eve_output.%s.%s", name, sink_counter_names[k]);
			add_counter(root, key, v[k], deltas ? &e->prev[k] : NULL, nulls);
			e->prev[k] = v[k];
		}
		snprintf(key, sizeof(key), "eve_output.%s.queued", name);
		add_counter(root, key, v[4], NULL, nulls);
	}
}

/* The counters of the output files: "eve_output.<name>.write_errors"
 * and ".lost" for each eve-log file (its name as a sink's: "regular",
 * "regular_2"), "fast.write_errors", "stats_log.write_errors" and their
 * ".lost". Output i (0..neve+1: the eve outputs, fast.log, stats.log) and
 * kind k (0 write_errors, 1 lost): its counter's name in key and value in
 * v[0]; 0 when that output has no file. */
#define NFILE_KINDS 2
static const char *const file_counter_names[NFILE_KINDS] = { "write_errors", "lost" };

static int file_values(Outputs *o, unsigned i, unsigned k, char *key, size_t keylen,
		       uint64_t v[2])
{
	OutputFile *of;
	uint64_t c[2];
	char name[64];

	if (i < o->neve) {
		of = &o->eve[i].file;
		output_sink_stats_name(o, i, name, sizeof(name));
		snprintf(key, keylen, "eve_output.%s.%s", name, file_counter_names[k]);
	} else {
		of = i == o->neve ? &o->fast : &o->stats;
		snprintf(key, keylen, "%s.%s", i == o->neve ? "fast" : "stats_log",
			 file_counter_names[k]);
	}
	if (of->fd < 0)
		return 0;
	output_file_counters(of, &c[0], &c[1]);
	v[0] = c[k];
	return 1;
}

static void add_file_counters(Outputs *o, json_t *root, int deltas)
{
	for (unsigned i = 0; i < o->neve + 2; i++) {
		for (unsigned k = 0; k < NFILE_KINDS; k++) {
			uint64_t v[2], *prev = i < o->neve ? &o->eve[i].file_prev[k] :
				&o->file_prev[i - o->neve][k];
			char key[128];

			/* only once they count something: Suricata 8's stats
			 * schema has no place for them, and a run that writes
			 * well stays valid against it */
			if (!file_values(o, i, k, key, sizeof(key), v) || !v[0])
				continue;
			add_counter(root, key, v[0], deltas ? prev : NULL, 1);
			*prev = v[0];
		}
	}
}

static json_t *stats_tree(Outputs *o, const uint64_t *snap, size_t n, uint64_t uptime_s)
{
	json_t *root = json_object();
	int deltas = o->cfg.eve_stats_deltas && o->prev && o->nprev == n;
	int nulls = o->cfg.eve_stats_null_values;
	uint64_t prev_p = o->pressure_max;

	json_object_set_new(root, "uptime", json_integer((json_int_t)uptime_s));
	for (size_t i = 0; i < n; i++) {
		const char *name = counter_name((counter_id)i);

		if (name)
			add_counter(root, name, snap[i], deltas ? &o->prev[i] : NULL, nulls);
	}
	pthread_mutex_lock(&rules_lock);
	if (o->cfg.rules_at.tv_sec)
		add_detect_engines(root, &o->cfg);
	pthread_mutex_unlock(&rules_lock);
	add_counter(root, "memcap.pressure", o->pressure, deltas ? &o->prev_pressure : NULL,
		    nulls);
	add_counter(root, "memcap.pressure_max", o->pressure_max, deltas ? &prev_p : NULL,
		    nulls);
	add_sink_counters(o, root, deltas, nulls);
	add_file_counters(o, root, deltas);
	return root;
}

static void remember(Outputs *o, const uint64_t *snap, size_t n)
{
	if (o->nprev != n) {
		uint64_t *p = realloc(o->prev, (n ? n : 1) * sizeof(uint64_t));

		if (!p)
			return;
		o->prev = p;
		o->nprev = n;
	}
	memcpy(o->prev, snap, n * sizeof(uint64_t));
}

/* stats.threads: yes (stats.log) and eve "- stats: {threads: yes}": each
 * named thread's counters (stats/counters.h names them as Suricata does:
 * W#01-eth0, RX#01, W#01), as a "threads" object of the eve stats record,
 * keyed by thread, and as stats.log lines with the thread in "TM Name". */
struct thread_stats {
	json_t *threads;            /* eve: NULL when not asked */
	FILE *log;                  /* stats.log: NULL when not asked */
	size_t n;
	int nulls;
};

static void thread_stats_one(const char *name, const uint64_t *v, void *arg)
{
	struct thread_stats *c = arg;
	json_t *t = c->threads ? json_object() : NULL;

	for (size_t i = 0; i < c->n; i++) {
		const char *cn = counter_name((counter_id)i);

		if (!cn)
			continue;
		if (t)
			add_counter(t, cn, v[i], NULL, c->nulls);
		if (c->log && v[i])
			fprintf(c->log, "%-45s | %-25s | %" PRIu64 "\n", cn, name, v[i]);
	}
	if (t)
		json_object_set_new(c->threads, name, t);
}

static void thread_stats(json_t *threads, FILE *log, size_t n, int nulls)
{
	struct thread_stats c = { threads, log, n, nulls };
	uint64_t *v = malloc((n ? n : 1) * sizeof(uint64_t));

	if (!v)
		return;
	counters_snapshot_threads(v, thread_stats_one, &c);
	free(v);
}

struct stats_line {
	const struct timeval *ts;
	const json_t *stats;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct stats_line *l = ctx;

	eve_header_write(w, l->ts, "stats", NULL, NULL);
	jw_json(w, "stats", l->stats);
}

/* The counters are nested on their dots as a jansson tree: they come in
 * registration order, not grouped by prefix, and a name's parents are
 * found again by later names ("flow.memuse" after "decoder.pkts" and
 * "flow.tcp"), which a streaming writer cannot go back to. The record
 * around it is written as every other record. */
static void write_eve_stats(Outputs *o, const uint64_t *snap, size_t n,
			    const struct timeval *ts, uint64_t uptime_s)
{
	json_t *tree = NULL;
	struct stats_line l = { ts, NULL };

	if (o->cfg.eve_stats_totals) {
		tree = stats_tree(o, snap, n, uptime_s);
	} else if ((tree = json_object()) != NULL) {
		json_object_set_new(tree, "uptime", json_integer((json_int_t)uptime_s));
	}
	if (tree && o->cfg.eve_stats_threads) {
		json_t *threads = json_object();

		thread_stats(threads, NULL, n, o->cfg.eve_stats_null_values);
		json_object_set_new(tree, "threads", threads);
	}
	l.stats = tree;
	if (!l.stats)
		return;
	eve_write_built(o, "stats", build_record, &l);
	json_decref((json_t *)l.stats);
}

/* Suricata's stats.log block; zero counters are left out. Formatted in
 * memory (the stats thread, once an interval) and written as one record,
 * so that a failing disk cuts no table in half. */
static void write_stats_log(Outputs *o, const uint64_t *snap, size_t n,
			    const struct timeval *ts, uint64_t uptime_s)
{
	time_t t = ts->tv_sec;
	struct tm tm;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	if (!localtime_r(&t, &tm))
		memset(&tm, 0, sizeof(tm));
	fprintf(f, "%s\n", STATS_SEPARATOR);
	fprintf(f, "Date: %d/%d/%04d -- %02d:%02d:%02d (uptime: %" PRIu64 "d, %02uh %02um %02us)\n",
		tm.tm_mon + 1, tm.tm_mday, tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec,
		uptime_s / 86400, (unsigned)(uptime_s % 86400 / 3600),
		(unsigned)(uptime_s % 3600 / 60), (unsigned)(uptime_s % 60));
	fprintf(f, "%s\n", STATS_SEPARATOR);
	fprintf(f, "%-45s | %-25s | %s\n", "Counter", "TM Name", "Value");
	fprintf(f, "%s\n", STATS_SEPARATOR);
	for (size_t i = 0; i < n && o->cfg.stats_totals; i++) {
		const char *name = counter_name((counter_id)i);

		if (!name || !snap[i])
			continue;
		fprintf(f, "%-45s | %-25s | %" PRIu64 "\n", name, "Total", snap[i]);
	}
	if (o->cfg.stats_threads)
		thread_stats(NULL, f, n, 0);
	if (o->pressure)
		fprintf(f, "%-45s | %-25s | %" PRIu64 "\n", "memcap.pressure", "Global",
			o->pressure);
	if (o->pressure_max)
		fprintf(f, "%-45s | %-25s | %" PRIu64 "\n", "memcap.pressure_max", "Global",
			o->pressure_max);
	for (unsigned i = 0; i < o->neve; i++) {
		char name[64], key[128];
		uint64_t v[5];

		if (!o->eve[i].sink)
			continue;
		output_sink_stats_name(o, i, name, sizeof(name));
		sink_values(o->eve[i].sink, v);
		for (int k = 0; k < 5; k++) {
			if (!v[k])
				continue;
			snprintf(key, sizeof(key), "eve_output.%s.%s", name,
				 k < 4 ? sink_counter_names[k] : "queued");
			fprintf(f, "%-45s | %-25s | %" PRIu64 "\n", key, "Global", v[k]);
		}
	}
	for (unsigned i = 0; i < o->neve + 2; i++) {
		for (unsigned k = 0; k < NFILE_KINDS; k++) {
			uint64_t v[2];
			char key[128];

			if (file_values(o, i, k, key, sizeof(key), v) && v[0])
				fprintf(f, "%-45s | %-25s | %" PRIu64 "\n", key, "Global", v[0]);
		}
	}
	if (fclose(f) == 0 && text)
		output_file_write_now(&o->stats, text, len);
	free(text);
}

void output_stats(Outputs *o, const uint64_t *snapshot, const struct timeval *ts,
		  uint64_t uptime_s)
{
	size_t n = counters_count();

	if (!o || !snapshot || !o->cfg.stats_enabled)
		return;
	o->prev_pressure = o->pressure;
	o->pressure = memcap_pressure(o, snapshot, n);
	if (o->pressure > o->pressure_max)
		o->pressure_max = o->pressure;
	if (o->eve_stats && (o->cfg.eve_stats_totals || o->cfg.eve_stats_threads))
		write_eve_stats(o, snapshot, n, ts, uptime_s);
	if (o->stats.fd >= 0)
		write_stats_log(o, snapshot, n, ts, uptime_s);
	lua_output_stats(snapshot, n, o->prev, o->nprev);
	remember(o, snapshot, n);
}
