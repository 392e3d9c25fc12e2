/* IMAP's entry in the application-protocol registry. Suricata 8 only
 * recognises IMAP: the flow's app_proto is "imap" (rules "alert imap",
 * app-layer-protocol:imap), with no parser, transactions or eve record;
 * its yaml says enabled: detection-only, and "yes" means no more here.
 *
 * Recognition by content on any port, both ways: a server's untagged
 * greeting ("* OK ", "* PREAUTH ", "* BYE "), or a client's tagged
 * command ("a001 LOGIN ...", ". CAPABILITY"): a tag of atom characters,
 * a space, then an IMAP4rev1 command (RFC 3501 6) or STARTTLS,
 * within the bytes detection holds. */
#include "app-layer/app-layer-int.h"
#include "conf/conf.h"

#include <string.h>
#include <strings.h>

static struct {
	int enabled;
	uint16_t ports[APP_MAX_DETECT_PORTS];
	unsigned nports;
} imap_conf;

#define IMAP_KEY "app-layer.protocols.imap."

static void imap_config_defaults(AppLayerConfig *cfg)
{
	(void)cfg;
	memset(&imap_conf, 0, sizeof(imap_conf));
	imap_conf.enabled = 2;
	imap_conf.ports[0] = 143;
	imap_conf.nports = 1;
}

static int imap_config_load(AppLayerConfig *cfg)
{
	(void)cfg;
	return app_conf_enabled_ports(IMAP_KEY, &imap_conf.enabled, imap_conf.ports,
				      &imap_conf.nports);
}

/* no parser: detection only, whatever the yaml asks */
static int imap_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return imap_conf.enabled ? 2 : 0;
}

/* 1: buf starts with want (any case) and holds it all; 0: it differs;
 * -1: buf is a shorter prefix of it. */
static int starts(const uint8_t *buf, uint32_t len, const char *want)
{
	uint32_t n = (uint32_t)strlen(want);

	if (strncasecmp((const char *)buf, want, len < n ? len : n) != 0)
		return 0;
	return len >= n ? 1 : -1;
}

static int probe_tc(const uint8_t *buf, uint32_t len)
{
	static const char *const greet[] = { "* OK ", "* PREAUTH ", "* BYE " };
	int more = 0;

	for (size_t i = 0; i < sizeof(greet) / sizeof(greet[0]); i++) {
		int r = starts(buf, len, greet[i]);

		if (r > 0)
			return DET_YES;
		if (r < 0)
			more = 1;
	}
	return more ? DET_MORE : DET_NO;
}

/* RFC 3501 9 tag: ATOM-CHAR but "+" */
static int tag_char(uint8_t c)
{
	return c > 0x20 && c < 0x7f && !strchr("(){%*\"\\]+", c);
}

static int probe_ts(const uint8_t *buf, uint32_t len)
{
	static const char *const cmds[] = {
		"CAPABILITY", "LOGIN ", "AUTHENTICATE ", "STARTTLS", "NOOP", "LOGOUT",
		"SELECT ", "EXAMINE ", "ID ", "ENABLE ",
	};
	uint32_t i = 0;
	int more = 0;

	/* the tag: 1..12 atom characters (RFC 3501 9: "a001", "1", "."),
	 * then one space */
	while (i < len && i < 13 && tag_char(buf[i]))
		i++;
	if (i == len)
		return len < 13 ? DET_MORE : DET_NO;
	if (i == 0 || i > 12 || buf[i] != ' ')
		return DET_NO;
	i++;
	for (size_t k = 0; k < sizeof(cmds) / sizeof(cmds[0]); k++) {
		int r = starts(buf + i, len - i, cmds[k]);

		if (r > 0)
			return DET_YES;
		if (r < 0)
			more = 1;
	}
	return more ? DET_MORE : DET_NO;
}

static int imap_probe(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
		      uint32_t len)
{
	(void)cfg;
	(void)f;
	if (!len)
		return DET_MORE;
	return dir == APP_DIR_TOCLIENT ? probe_tc(buf, len) : probe_ts(buf, len);
}

/* Never called (detection only): an entry needs them all the same. */
static void *imap_state_new(AppLayerThread *at, Flow *f)
{
	(void)at;
	(void)f;
	return NULL;
}

static void imap_state_free(void *state)
{
	(void)state;
}

static int imap_parse(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
		      uint32_t len, int flags)
{
	(void)at;
	(void)f;
	(void)state;
	(void)dir;
	(void)data;
	(void)len;
	(void)flags;
	return 0;
}

static uint64_t imap_tx_count(const void *state)
{
	(void)state;
	return 0;
}

static void *imap_tx_get(const void *state, uint64_t id)
{
	(void)state;
	(void)id;
	return NULL;
}

static uint64_t imap_tx_id(const void *tx)
{
	(void)tx;
	return 0;
}

static int imap_tx_progress(const void *tx, int dir)
{
	(void)tx;
	(void)dir;
	return 1;
}

static unsigned imap_tx_flags(const void *tx)
{
	(void)tx;
	return 0;
}

static void imap_tx_set_flags(void *tx, unsigned flags)
{
	(void)tx;
	(void)flags;
}

static void **imap_tx_detect_slot(void *tx)
{
	(void)tx;
	return NULL;
}

static void imap_tx_gc(void *state, unsigned need)
{
	(void)state;
	(void)need;
}

const AppProtoOps imap_proto_ops = {
	.name = "imap",
	.ipprotos = APP_IPPROTO_TCP,
	.config_defaults = imap_config_defaults,
	.config_load = imap_config_load,
	.enabled = imap_enabled,
	.probe = imap_probe,
	.state_new = imap_state_new,
	.state_free = imap_state_free,
	.parse = imap_parse,
	.tx_count = imap_tx_count,
	.tx_get = imap_tx_get,
	.tx_id = imap_tx_id,
	.tx_log_id = imap_tx_id,
	.tx_progress = imap_tx_progress,
	.progress_complete = 1,
	.tx_flags = imap_tx_flags,
	.tx_set_flags = imap_tx_set_flags,
	.tx_detect_slot = imap_tx_detect_slot,
	.tx_gc = imap_tx_gc,
};
