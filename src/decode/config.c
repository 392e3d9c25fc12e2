/* decode_config_load: defrag.* and pcap-file.checksum-checks from the conf tree. */
#include "conf/conf.h"
#include "decode/decode.h"
#include "util/log.h"

#include <string.h>
#include <strings.h>

static int load_u32(const char *key, uint32_t *out)
{
	int64_t v = *out;
	int r = conf_get_int(key, &v);

	if (r < 0)
		return -1;
	if (r == 1) {
		if (v <= 0 || v > UINT32_MAX) {
			log_error("decode: %s: %lld is out of range", key, (long long)v);
			return -1;
		}
		*out = (uint32_t)v;
	}
	return 0;
}

int decode_config_load(DecodeConfig *cfg)
{
	const char *cs;

	memset(cfg, 0, sizeof(*cfg));
	cfg->checksum = CHECKSUM_AUTO;
	cfg->defrag.memcap = 32ull * 1024 * 1024;
	cfg->defrag.timeout_s = 60;
	cfg->defrag.max_frags = 65535;
	cfg->defrag.trackers = 65535;
	cfg->defrag_enabled = 1;

	if (conf_get_size("defrag.memcap", &cfg->defrag.memcap) < 0)
		return -1;
	if (load_u32("defrag.timeout", &cfg->defrag.timeout_s) < 0 ||
	    load_u32("defrag.max-frags", &cfg->defrag.max_frags) < 0 ||
	    load_u32("defrag.trackers", &cfg->defrag.trackers) < 0)
		return -1;

	/* Suricata's pcap-file.checksum-checks: auto, yes or no. */
	cs = conf_get("pcap-file.checksum-checks");
	if (!cs || strcasecmp(cs, "auto") == 0)
		cfg->checksum = CHECKSUM_AUTO;
	else if (strcasecmp(cs, "yes") == 0 || strcasecmp(cs, "true") == 0 ||
		 strcasecmp(cs, "on") == 0)
		cfg->checksum = CHECKSUM_ALL;
	else if (strcasecmp(cs, "no") == 0 || strcasecmp(cs, "false") == 0 ||
		 strcasecmp(cs, "off") == 0)
		cfg->checksum = CHECKSUM_NONE;
	else {
		log_error("decode: pcap-file.checksum-checks: '%s' is not auto, yes or no", cs);
		return -1;
	}
	return 0;
}
