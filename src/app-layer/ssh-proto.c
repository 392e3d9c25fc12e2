/* SSH's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.ssh.*), how it is recognised, and the ops that hand
 * the stream parser (ssh-parse.c) to the generic app layer.
 *
 * Detection is by content on any port, as Suricata's: a direction that
 * starts with "SSH-" (either side may speak first). detection-ports is
 * read for Suricata's yaml; the content probe already covers every port.
 *
 * As in Suricata, the flow is one transaction, from its first SSH bytes to
 * the flow's end. Once both sides sent NEWKEYS the rest is encrypted: the
 * parser stops there, and with encryption-handling track-only (the
 * default) and bypass detection leaves the flow's payload alone
 * (app_layer_flow_no_inspection); full keeps inspecting it. */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/frames.h"
#include "app-layer/app-mem.h"
#include "app-layer/ssh.h"
#include "conf/conf.h"
#include "util/log.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum ssh_enc { SSH_ENC_TRACK_ONLY = 0, SSH_ENC_BYPASS, SSH_ENC_FULL };

/* Read once at start (config_load, rule loading); read-only afterwards. */
static struct {
	int enabled;                /* 1 yes, 2 detection-only, 0 no */
	uint16_t ports[APP_MAX_DETECT_PORTS];
	unsigned nports;
	int hassh;                  /* the yaml's hassh */
	int hassh_wanted;           /* a rule reads a hassh buffer */
	int encryption;             /* enum ssh_enc */
} ssh_conf;

#define SSH_KEY "app-layer.protocols.ssh."

static void ssh_config_defaults(AppLayerConfig *cfg)
{
	(void)cfg;
	memset(&ssh_conf, 0, sizeof(ssh_conf));
	ssh_conf.enabled = 1;
	ssh_conf.ports[0] = 22;
	ssh_conf.nports = 1;
}

static int ssh_config_load(AppLayerConfig *cfg)
{
	const char *v;
	int rc = 0;

	(void)cfg;
	if (app_conf_enabled_ports(SSH_KEY, &ssh_conf.enabled, ssh_conf.ports, &ssh_conf.nports) < 0)
		rc = -1;
	if (app_conf_bool(SSH_KEY "hassh", &ssh_conf.hassh) < 0)
		rc = -1;
	v = conf_get(SSH_KEY "encryption-handling");
	if (v) {
		if (strcasecmp(v, "track-only") == 0 || strcasecmp(v, "default") == 0) {
			ssh_conf.encryption = SSH_ENC_TRACK_ONLY;
		} else if (strcasecmp(v, "bypass") == 0) {
			ssh_conf.encryption = SSH_ENC_BYPASS;
		} else if (strcasecmp(v, "full") == 0) {
			ssh_conf.encryption = SSH_ENC_FULL;
		} else {
			log_error("app-layer: " SSH_KEY "encryption-handling: unknown value \"%s\" "
				  "(track-only, bypass, full)", v);
			rc = -1;
		}
	}
	return rc;
}

void ssh_hassh_request(void)
{
	ssh_conf.hassh_wanted = 1;
}

int ssh_hassh_enabled(void)
{
	return ssh_conf.hassh || ssh_conf.hassh_wanted;
}

static AppTxCounters ctr;

static void ssh_register_counters(void)
{
	app_tx_counters_register(&ctr, "ssh");
}

static int ssh_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return ssh_conf.enabled;
}

static int verdict(int r)
{
	return r > 0 ? DET_YES : r == 0 ? DET_NO : DET_MORE;
}

static int ssh_probe_dir(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
			 uint32_t len)
{
	(void)cfg;
	(void)f;
	(void)dir;
	return verdict(ssh_probe(buf, len));
}

/* ---------------- state and transaction ---------------- */

typedef struct SshTx {
	SshState *s;
	unsigned flags;             /* APP_TX_* */
	void *detect;
	uint8_t closed[2];          /* eof, gap or a stream we cannot read */
	uint32_t events_logged;     /* eve anomaly: bit e, event e was written */
} SshTx;

/* Suricata 8's SSH frame types (ssh.record.pdu, ...): a binary packet
 * before the encryption starts, its 6-byte header (length, padding length,
 * message code), the rest of it. */
enum { SSH_FR_HDR, SSH_FR_DATA, SSH_FR_PDU };
static const char *const ssh_frame_names[] = { "record.hdr", "record.data", "record.pdu", NULL };

struct ssh_frame_ctx {
	Flow *f;
	uint64_t base;              /* stream offset of the data handed */
};

static void on_record(void *arg, int dir, int64_t at, uint32_t plen)
{
	const struct ssh_frame_ctx *c = arg;
	uint64_t off = c->base + (uint64_t)at;

	app_frame_new(c->f, dir, off, 4 + (int64_t)plen, SSH_FR_PDU);
	app_frame_new(c->f, dir, off, 6, SSH_FR_HDR);
	app_frame_new(c->f, dir, off + 6, (int64_t)plen - 2, SSH_FR_DATA);
}

static void *ssh_state_new_op(AppLayerThread *at, Flow *f)
{
	SshTx *t = app_mem_calloc(ALPROTO_SSH, 1, sizeof(*t));

	(void)f;
	if (t)
		t->s = ssh_state_new(ssh_hassh_enabled());
	if (!t || !t->s) {
		app_mem_free(ALPROTO_SSH, t);
		app_tx_count(at, &ctr, APP_CTR_ALLOC, 1);
		return NULL;
	}
	app_tx_count(at, &ctr, APP_CTR_TX, 1);
	return t;
}

static void ssh_state_free_op(void *state)
{
	SshTx *t = state;

	if (!t)
		return;
	if (t->detect)
		app_layer_detect_state_free_proto(ALPROTO_SSH, t->detect);
	ssh_state_free(t->s);
	app_mem_free(ALPROTO_SSH, t);
}

static int ssh_parse_op(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
			uint32_t len, int flags)
{
	SshTx *t = state;

	if (!t || dir < 0 || dir > 1)
		return -1;
	if (flags & APP_GAP) {
		/* records cannot be found again after a gap */
		if (!t->closed[dir] && t->s->side[dir].state != SSH_STATE_FINISHED)
			app_tx_count(at, &ctr, APP_CTR_GAP, 1);
		t->closed[dir] = 1;
		return 0;
	}
	/* encrypted from NEWKEYS on: nothing more to read in any mode */
	if (!t->closed[dir] && len && data && t->s->side[dir].state != SSH_STATE_FINISHED) {
		struct ssh_frame_ctx fc;

		if (app_frames_on(f)) {
			fc.f = f;
			fc.base = app_frame_offset(f, dir);
			t->s->on_record = on_record;
			t->s->on_record_arg = &fc;
		}
		if (ssh_parse(t->s, dir, data, len) < 0) {
			t->closed[dir] = 1;
			app_tx_count(at, &ctr, APP_CTR_PARSER, 1);
		}
		t->s->on_record = NULL;
	}
	if (flags & APP_EOF)
		t->closed[dir] = 1;
	return 0;
}

/* track-only and bypass: the ciphertext is not inspected (Suricata sets
 * no-inspection on the flow); full keeps inspecting it */
static int ssh_no_inspection(const void *state)
{
	const SshTx *t = state;

	return ssh_conf.encryption != SSH_ENC_FULL && ssh_encrypted(t->s);
}

/* bypass: once encrypted, Suricata bypasses the flow (locally without a
 * capture bypass: flow_bypassed.local_*) */
static int ssh_bypass(const void *state)
{
	const SshTx *t = state;

	return ssh_conf.encryption == SSH_ENC_BYPASS && ssh_encrypted(t->s);
}

const SshState *ssh_tx_state(const void *tx)
{
	return tx ? ((const SshTx *)tx)->s : NULL;
}

uint32_t *ssh_tx_events_logged(void *tx)
{
	return &((SshTx *)tx)->events_logged;
}

static uint64_t ssh_tx_count(const void *state)
{
	return state ? 1 : 0;
}

static void *ssh_tx_get(const void *state, uint64_t id)
{
	return id == 0 ? (void *)state : NULL;
}

static uint64_t ssh_tx_id(const void *tx)
{
	(void)tx;
	return 0;
}

/* The side's progress (ssh.h); the transaction is complete when both
 * sides are encrypted (or closed). */
static int ssh_tx_progress(const void *tx, int dir)
{
	const SshTx *t = tx;
	const SshSide *sd = &t->s->side[dir & 1];

	if (t->closed[dir & 1] || sd->state == SSH_STATE_FINISHED || ssh_encrypted(t->s))
		return SSH_PROGRESS_DONE;
	if (sd->kexinit)
		return SSH_PROGRESS_KEX;
	if (sd->state >= SSH_STATE_BANNER_DONE)
		return sd->v1 ? SSH_PROGRESS_KEX : SSH_PROGRESS_BANNER;
	return sd->line_len || sd->state ? 1 : 0;
}

static unsigned ssh_tx_flags(const void *tx)
{
	return ((const SshTx *)tx)->flags;
}

static void ssh_tx_set_flags(void *tx, unsigned flags)
{
	((SshTx *)tx)->flags |= flags;
}

static void **ssh_tx_detect_slot(void *tx)
{
	return &((SshTx *)tx)->detect;
}

/* The one transaction goes with the state (app_layer_flow_free). */
static void ssh_tx_gc(void *state, unsigned need)
{
	(void)state;
	(void)need;
}

static int ssh_event_lookup(const char *name)
{
	return ssh_event_by_name(name);
}

static int ssh_tx_has_event(const void *tx, int id)
{
	const SshTx *t = tx;

	return id >= 0 && id < SSH_EV_COUNT && t->s->events[id] > 0;
}

/* Suricata 8's SSH hooks (ssh:request_banner_done, ...) on ssh.h's
 * progress. */
static const AppHook ssh_hooks[] = {
	{ "request_in_progress", APP_DIR_TOSERVER, 0, NULL },
	{ "request_banner_wait_eol", APP_DIR_TOSERVER, 1, NULL },
	{ "request_banner_done", APP_DIR_TOSERVER, SSH_PROGRESS_BANNER, NULL },
	{ "request_finished", APP_DIR_TOSERVER, SSH_PROGRESS_DONE, NULL },
	{ "response_in_progress", APP_DIR_TOCLIENT, 0, NULL },
	{ "response_banner_wait_eol", APP_DIR_TOCLIENT, 1, NULL },
	{ "response_banner_done", APP_DIR_TOCLIENT, SSH_PROGRESS_BANNER, NULL },
	{ "response_finished", APP_DIR_TOCLIENT, SSH_PROGRESS_DONE, NULL },
	{ NULL, 0, 0, NULL },
};

const AppProtoOps ssh_proto_ops = {
	.name = "ssh",
	.frame_names = ssh_frame_names,
	.ipprotos = APP_IPPROTO_TCP,
	.config_defaults = ssh_config_defaults,
	.config_load = ssh_config_load,
	.enabled = ssh_enabled,
	.register_counters = ssh_register_counters,
	.probe = ssh_probe_dir,
	.probe_reversed = NULL,
	.state_new = ssh_state_new_op,
	.state_free = ssh_state_free_op,
	.parse = ssh_parse_op,
	.no_inspection = ssh_no_inspection,
	.bypass = ssh_bypass,
	.tx_count = ssh_tx_count,
	.tx_get = ssh_tx_get,
	.tx_id = ssh_tx_id,
	.tx_log_id = ssh_tx_id,
	.tx_progress = ssh_tx_progress,
	.progress_complete = SSH_PROGRESS_DONE,
	.hooks = ssh_hooks,
	.tx_flags = ssh_tx_flags,
	.tx_set_flags = ssh_tx_set_flags,
	.tx_detect_slot = ssh_tx_detect_slot,
	.tx_gc = ssh_tx_gc,
	.event_lookup = ssh_event_lookup,
	.tx_has_event = ssh_tx_has_event,
};
