/* Detection's configuration: the yaml keys detection reads, once at start,
 * into a DetectConfig (the matcher, the alert queue, the cross-flow state
 * tables, the inline stream windows). The engine build and the packet path
 * read the struct, never the yaml. */
#include "detect/engine.h"

#include "conf/conf.h"
#include "detect/detect-int.h"
#include "detect/state-hash.h"
#include "util/log.h"

#include <stdio.h>
#include <string.h>

/* The inline window sizes, from the stream section (the mode is the caller's). */
static int stream_detect_config(DetectConfig *cfg, char *err, size_t errlen)
{
	static const char *const keys[2] = { "stream.reassembly.toserver-chunk-size",
					     "stream.reassembly.toclient-chunk-size" };
	for (int d = 0; d < 2; d++) {
		uint64_t v = 2560;

		if (conf_get_size(keys[d], &v) < 0 || v < 1 || v > UINT16_MAX) {
			snprintf(err, errlen, "%s: must be a size 1..65535", keys[d]);
			return -1;
		}
		cfg->chunk_size[d] = (uint32_t)v;
	}
	return 0;
}

/* One cross-flow table's rows and memcap (prefix "detect.thresholds" or
 * "host"): a bad value stops the start with one line naming the key. */
static int state_table_config(const char *prefix, uint32_t *rows, uint64_t *memcap,
			      char *err, size_t errlen)
{
	char key[64];
	const char *v;
	uint64_t n;

	snprintf(key, sizeof(key), "%s.hash-size", prefix);
	v = conf_get(key);
	if (v) {
		if (parse_u64(v, &n) != 0 || n < 1 || n > (1 << 24)) {
			snprintf(err, errlen, "%s: must be a number 1..16777216", key);
			return -1;
		}
		*rows = (uint32_t)n;
	}
	snprintf(key, sizeof(key), "%s.memcap", prefix);
	v = conf_get(key);
	if (v && parse_size(v, memcap) < 0) {
		snprintf(err, errlen, "%s: invalid size '%s'", key, v);
		return -1;
	}
	if (*memcap < state_hash_array_cost(*rows)) {
		snprintf(err, errlen, "%s: %llu bytes is below the %llu its hash table of %u rows "
			 "needs: raise it or lower %s.hash-size", key,
			 (unsigned long long)*memcap,
			 (unsigned long long)state_hash_array_cost(*rows), *rows, prefix);
		return -1;
	}
	return 0;
}

/* One of pcre.*: as packet-alert-max, a value Suricata 8 cannot use is a
 * warning and the default. */
static void pcre_limit(const char *key, uint32_t def, uint32_t *out)
{
	int64_t v = def;

	if (conf_get(key) && (conf_get_int(key, &v) < 0 || v < 1 || v > UINT32_MAX)) {
		log_warning("%s: invalid value '%s' (1..%u), using the default %u", key,
			    conf_get(key), UINT32_MAX, def);
		v = def;
	}
	*out = (uint32_t)v;
}

/* action-order: a list of pass, drop, reject and alert, each once, in the
 * order the engine takes them (Suricata 8 refuses an unknown name or a
 * repeated one, and ranks an action the list leaves out after the ones it
 * names, in the default order). */
static int action_order_config(DetectConfig *cfg, char *err, size_t errlen)
{
	static const char *const names[DETECT_ORDER_COUNT] = { "pass", "drop", "reject", "alert" };
	const ConfNode *seq = conf_get_node("action-order");
	int seen[DETECT_ORDER_COUNT] = { 0 }, rank = 0;

	for (int a = 0; a < DETECT_ORDER_COUNT; a++)
		cfg->action_rank[a] = (uint8_t)a;
	cfg->action_order_set = 1;
	if (!seq)
		return 0;
	for (const ConfNode *n = seq->child; n; n = n->next) {
		int a = 0;

		while (a < DETECT_ORDER_COUNT && (!n->val || strcmp(n->val, names[a])))
			a++;
		if (a == DETECT_ORDER_COUNT || seen[a]) {
			snprintf(err, errlen, "action-order: %s action \"%s\"",
				 a == DETECT_ORDER_COUNT ? "unknown" : "repeated",
				 n->val ? n->val : "");
			return -1;
		}
		seen[a] = 1;
		cfg->action_rank[a] = (uint8_t)rank++;
	}
	for (int a = 0; a < DETECT_ORDER_COUNT; a++)
		if (!seen[a])
			cfg->action_rank[a] = (uint8_t)rank++;
	return 0;
}

/* Suricata 8 reads both as given, warning about a limit out of 0..255 */
static void guess_tx_config(DetectConfig *cfg)
{
	int b = 0;
	int64_t lim = 4;

	if (conf_get("detect.guess-applayer-tx") &&
	    conf_get_bool("detect.guess-applayer-tx", &b) > 0)
		cfg->guess_tx = (uint8_t)(b != 0);
	if (conf_get("detect.stream-tx-log-limit") &&
	    (conf_get_int("detect.stream-tx-log-limit", &lim) < 0 || lim < 0 || lim > 255)) {
		log_warning("detect.stream-tx-log-limit: invalid value '%s' (0..255), using the default 4",
			    conf_get("detect.stream-tx-log-limit"));
		lim = 4;
	}
	cfg->guess_tx_limit = (uint8_t)lim;
}

/* One of the names a key takes; absent is fine. -1 with err naming the
 * key, the value and the names, as Suricata 8 stops at a value it does not
 * know. */
static int one_of(const char *key, const char *const *names, const char *what, char *err,
		  size_t errlen)
{
	const char *v = conf_get(key);

	if (!v)
		return 0;
	for (const char *const *n = names; *n; n++)
		if (strcmp(v, *n) == 0)
			return 0;
	snprintf(err, errlen, "%s: invalid value \"%s\" (%s)", key, v, what);
	return -1;
}

/* Suricata's rule-grouping and single-pattern settings: our grouping and
 * matcher are our own (conf/unused.c), but a value Suricata 8 refuses
 * stops the start here too, and a custom group count it cannot read is
 * its warning. */
static int grouping_config(char *err, size_t errlen)
{
	static const char *const profiles[] = { "low", "medium", "high", "custom", NULL };
	static const char *const contexts[] = { "auto", "single", "full", NULL };
	static const char *const spms[] = { "auto", "bm", "hs", NULL };
	static const char *const groups[] = { "detect.custom-values.toclient-groups",
					      "detect.custom-values.toserver-groups", NULL };

	if (one_of("detect.profile", profiles, "use low, medium, high or custom", err, errlen) ||
	    one_of("detect.sgh-mpm-context", contexts, "use auto, single or full", err, errlen) ||
	    one_of("spm-algo", spms, "use auto, bm or hs", err, errlen))
		return -1;
	if (conf_get("spm-algo") && !strcmp(conf_get("spm-algo"), "hs") && !mpm_have_hs()) {
		snprintf(err, errlen, "spm-algo: Hyperscan (hs) support for spm-algo is not "
			 "compiled into this build");
		return -1;
	}
	for (const char *const *k = groups; *k; k++) {
		uint64_t n;

		/* read, as Suricata, only for the custom profile */
		if (!conf_get(*k) || !conf_get("detect.profile") ||
		    strcmp(conf_get("detect.profile"), "custom"))
			continue;
		if (parse_u64(conf_get(*k), &n) != 0 || n < 1 || n > 65535)
			log_warning("%s: parsing '%s' failed (1..65535), using %d", *k,
				    conf_get(*k), strstr(*k, "toclient") ? 20 : 40);
	}
	return 0;
}

int detect_config_load(DetectConfig *cfg, char *err, size_t errlen)
{
	const char *algo = conf_get("mpm-algo");
	int64_t max = DETECT_ALERT_MAX_DEFAULT;

	memset(cfg, 0, sizeof(*cfg));
	cfg->alert_max = DETECT_ALERT_MAX_DEFAULT;
	if (!algo)
		algo = "auto";
	/* ac-cuda: the groups are ac automata (the CPU fallback); main/setup-detect.c
	 * checks the runmode and the device and starts prefilter-gpu.c */
	/* Suricata spells its own ac variants ac-bs / ac-ks: all map to ours */
	if (!strcmp(algo, "ac-bs") || !strcmp(algo, "ac-ks"))
		algo = "ac";
	if (mpm_algo_parse(algo, &cfg->algo) != 0) {
		snprintf(err, errlen, "mpm-algo: \"%s\": %s", algo, mpm_algo_error(algo));
		return -1;
	}
	if (grouping_config(err, errlen) != 0)
		return -1;
	/* Suricata 8 starts with any value here: one it cannot use (0, a
	 * negative, too large, not a number) is a warning and the default */
	if (conf_get("packet-alert-max") &&
	    (conf_get_int("packet-alert-max", &max) < 0 || max < 1 || max > 65535)) {
		log_warning("packet-alert-max: invalid value '%s' (1..65535), using the default %d",
			    conf_get("packet-alert-max"), DETECT_ALERT_MAX_DEFAULT);
		max = DETECT_ALERT_MAX_DEFAULT;
	}
	cfg->alert_max = (uint32_t)max;
	cfg->threshold_file = conf_get("threshold-file");
	guess_tx_config(cfg);
	pcre_limit("pcre.match-limit", DETECT_PCRE_MATCH_LIMIT, &cfg->pcre_match_limit);
	pcre_limit("pcre.match-limit-recursion", DETECT_PCRE_DEPTH_LIMIT, &cfg->pcre_depth_limit);
	/* until the stream engine exists, its midstream switch is read here */
	if (conf_get("stream.midstream"))
		conf_get_bool("stream.midstream", &cfg->midstream);
	cfg->thr_hash_size = 16384;
	cfg->thr_memcap = 16ull << 20;
	cfg->host_hash_size = 4096;
	cfg->host_memcap = 32ull << 20;
	if (state_table_config("detect.thresholds", &cfg->thr_hash_size, &cfg->thr_memcap, err,
			       errlen) != 0 ||
	    state_table_config("host", &cfg->host_hash_size, &cfg->host_memcap, err, errlen) != 0 ||
	    action_order_config(cfg, err, errlen) != 0)
		return -1;
	return stream_detect_config(cfg, err, errlen);
}
