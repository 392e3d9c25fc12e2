/* SMB's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.smb.*), how it is recognised, and the ops that hand
 * the stream parser (smb-parse.c) to the generic app layer.
 *
 * Detection, as Suricata's: on any port by content, an NBSS session
 * message whose payload starts with \xffSMB, \xfeSMB or \xfdSMB; on the
 * detection ports (139, 445) any NBSS session-service message too
 * (session request, keepalive, ...). Midstream, a first message that is a
 * response reverses the flow. */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/app-mem.h"
#include "app-layer/files.h"
#include "app-layer/smb.h"
#include "conf/conf.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SMB_KEY "app-layer.protocols.smb."

/* Read once at start (config_load); read-only afterwards. */
static struct {
	int enabled;
	uint16_t ports[APP_MAX_DETECT_PORTS];
	unsigned nports;
	int64_t max_tx;             /* max-tx: open transactions a flow may hold */
} smb_conf;

static void smb_config_defaults(AppLayerConfig *cfg)
{
	(void)cfg;
	memset(&smb_conf, 0, sizeof(smb_conf));
	smb_conf.enabled = 1;
	smb_conf.ports[0] = 139;
	smb_conf.ports[1] = 445;
	smb_conf.nports = 2;
	smb_conf.max_tx = SMB_MAX_TX;
}

static int smb_config_load(AppLayerConfig *cfg)
{
	int rc = 0;

	(void)cfg;
	if (app_conf_enabled_ports(SMB_KEY, &smb_conf.enabled, smb_conf.ports, &smb_conf.nports) < 0)
		rc = -1;
	if (app_conf_int_range(SMB_KEY "max-tx", &smb_conf.max_tx, 1 << 20) < 0)
		rc = -1;
	if (smb_conf.max_tx <= 0)
		smb_conf.max_tx = SMB_MAX_TX;
	return rc;
}

/* Suricata's names only (the eve stats schema has no others): the SMB3
 * encrypted records the parser skips stay in its own tallies (SmbStats) */
static AppTxCounters ctr;

static void smb_register_counters(void)
{
	app_tx_counters_register(&ctr, "smb");
	files_register_counters();
}

static int smb_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return smb_conf.enabled;
}

static int is_port(uint16_t port)
{
	for (unsigned i = 0; i < smb_conf.nports; i++)
		if (port == smb_conf.ports[i])
			return 1;
	return 0;
}

static int on_port(const Flow *f)
{
	return is_port(f->dp) || is_port(f->sp);
}

/* An SMB3 transform (or compression) header says no direction: the port
 * does (smb3-03-midstream: the first packet comes from 445). */
static int transform(const uint8_t *buf, uint32_t len)
{
	return len >= 5 && buf[0] == 0 && (buf[4] == 0xfd || buf[4] == 0xfc);
}

static int smb_probe_dir(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
			 uint32_t len)
{
	int reply = 0;
	int r = smb_probe(buf, len, on_port(f), &reply);

	(void)cfg;
	if (r < 0)
		return DET_MORE;
	if (r == 0)
		return DET_NO;
	/* a response going to the server (or a request to the client) is the
	 * other side's: midstream, the flow is reversed (probe_reversed);
	 * otherwise the other direction decides */
	if (transform(buf, len)) {
		if (dir == APP_DIR_TOSERVER && is_port(f->sp) && !is_port(f->dp))
			return DET_NO;
		return DET_YES;
	}
	if (buf[0] == 0x00 && (dir == APP_DIR_TOSERVER) == (reply != 0))
		return DET_NO;
	return DET_YES;
}

static int smb_probe_rev(int dir, const uint8_t *buf, uint32_t len)
{
	int reply = 0;
	int r = smb_probe(buf, len, 0, &reply);

	if (r < 0)
		return DET_MORE;
	/* only asked after the forward probe said no: a response, or a
	 * transform header coming from the SMB port */
	return r == 1 && dir == APP_DIR_TOSERVER && (reply || transform(buf, len)) ? DET_YES : DET_NO;
}

/* ---------------- state ---------------- */

typedef struct SmbProto {
	SmbState *s;
	uint8_t closed[2];
	uint64_t counted_tx;        /* tx ids counted in app_layer.tx.smb */
	SmbStats counted;           /* parser stats already counted */
	SmbTx *hint;                /* smb_tx_get's last find (NULL after a gc) */
} SmbProto;

static void *smb_state_new_op(AppLayerThread *at, Flow *f)
{
	SmbProto *p = app_mem_calloc(ALPROTO_SMB, 1, sizeof(*p));

	if (p)
		p->s = smb_state_new();
	if (!p || !p->s) {
		app_mem_free(ALPROTO_SMB, p);
		app_tx_count(at, &ctr, APP_CTR_ALLOC, 1);
		return NULL;
	}
	p->s->tc = at ? at->tc : NULL;
	p->s->flow = f;
	p->s->max_tx = (uint32_t)smb_conf.max_tx;
	return p;
}

/* by enum SMB_FRAME_* (smb-parse.h) */
static const char *const smb_frame_names[] = {
	"nbss.pdu", "nbss.hdr", "nbss.data", "smb1.pdu", "smb1.hdr", "smb1.data",
	"smb2.pdu", "smb2.hdr", "smb2.data", "smb3.pdu", "smb3.hdr", "smb3.data", NULL,
};

static void smb_state_free_op(void *state)
{
	SmbProto *p = state;

	if (!p)
		return;
	for (SmbTx *t = p->s->head; t; t = t->next)
		if (t->detect)
			app_layer_detect_state_free_proto(ALPROTO_SMB, t->detect);
	smb_state_free(p->s);
	app_mem_free(ALPROTO_SMB, p);
}

/* the parser's tallies since the last call, into the thread's counters */
static void count_progress(AppLayerThread *at, SmbProto *p)
{
	const SmbStats *st = &p->s->st;

	/* Suricata's transactions: the silent requests are none */
	app_tx_count(at, &ctr, APP_CTR_TX, p->s->next_log_id - p->counted_tx);
	p->counted_tx = p->s->next_log_id;
	app_tx_count(at, &ctr, APP_CTR_GAP, st->gaps - p->counted.gaps);
	app_tx_count(at, &ctr, APP_CTR_PARSER, st->bad_records - p->counted.bad_records);
	p->counted = *st;
}

static int smb_parse_op(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
			uint32_t len, int flags)
{
	SmbProto *p = state;

	(void)f;
	if (!p || dir < 0 || dir > 1)
		return -1;
	p->s->tc = at ? at->tc : NULL;
	if (flags & APP_ONESIDED)
		p->s->one_sided = 1;
	if (flags & APP_GAP)
		smb_gap(p->s, dir, len);
	else if (!p->closed[dir] && len && data)
		smb_parse(p->s, dir, data, len);
	if (flags & APP_EOF) {
		p->closed[dir] = 1;
		if (p->closed[0] && p->closed[1])
			smb_eof(p->s, dir);
	}
	count_progress(at, p);
	return 0;
}

const char *smb_flow_dialect(const void *flow, char *buf, size_t cap)
{
	const Flow *f = flow;
	const AppFlowState *fs;
	const SmbProto *p;

	if (!f || f->app_proto != ALPROTO_SMB || !(fs = f->alstate) || !(p = fs->proto))
		return "unknown";
	if (p->s->dialect2)
		return smb2_dialect_name(p->s->dialect2, buf, cap);
	if (p->s->dialect1.s)
		return p->s->dialect1.s;
	return "unknown";
}

/* ---------------- transactions ---------------- */

static uint64_t smb_tx_count(const void *state)
{
	return ((const SmbProto *)state)->s->next_id;
}

/* Suricata's count: the silent requests and event holders are none of its
 * transactions (flow-tx-cnt) */
static uint64_t smb_tx_cnt(const void *state)
{
	return ((const SmbProto *)state)->s->next_log_id;
}

/* Detection and logging ask for ids in rising order on every packet: the
 * search resumes from the last find, so such a walk costs the live list
 * once, not once per id (with SMB_MAX_TX requests nobody answers, each
 * packet walked ~500k nodes: 2,000 echo requests took 16 s). The hint is
 * a cache, not state anyone sees: hence the cast. */
static void *smb_tx_get(const void *state, uint64_t id)
{
	SmbProto *p = (SmbProto *)state;
	SmbTx *t = p->hint && p->hint->id <= id ? p->hint : p->s->head;

	for (; t && t->id <= id; t = t->next) {
		if (t->id == id) {
			p->hint = t;
			return t;
		}
	}
	return NULL;
}

static uint64_t smb_tx_id(const void *tx)
{
	return ((const SmbTx *)tx)->id;
}

static int smb_tx_progress(const void *tx, int dir)
{
	const SmbTx *t = tx;

	return dir == APP_DIR_TOSERVER ? t->request_done : t->response_done;
}

/* A request whose data went to its file's transaction is there only to
 * pair its response: everyone is done with it from the start. */
#define SMB_SILENT_FLAGS (APP_TX_LOGGED | APP_TX_DETECT_TS | APP_TX_DETECT_TC | APP_TX_FILE_LOGGED)

static unsigned smb_tx_flags(const void *tx)
{
	const SmbTx *t = tx;

	return t->app_flags | (t->silent ? SMB_SILENT_FLAGS : 0);
}

static void smb_tx_set_flags(void *tx, unsigned flags)
{
	((SmbTx *)tx)->app_flags |= flags;
}

static void **smb_tx_detect_slot(void *tx)
{
	return &((SmbTx *)tx)->detect;
}

static int gc_ok(const SmbTx *t, unsigned need)
{
	unsigned fl = t->app_flags | (t->silent ? SMB_SILENT_FLAGS : 0);

	if (!t->request_done || !t->response_done || (fl & need) != need)
		return 0;
	if (t->detect)
		app_layer_detect_state_free_proto(ALPROTO_SMB, t->detect);
	return 1;
}

static void smb_tx_gc(void *state, unsigned need)
{
	SmbProto *p = state;

	p->hint = NULL;     /* it may go */
	smb_gc(p->s, gc_ok, need);
}

static int smb_event_lookup(const char *name)
{
	return smb_event_by_name(name);
}

static int smb_tx_has_event(const void *tx, int id)
{
	const SmbTx *t = tx;

	return id >= 0 && id < SMB_EV_COUNT && (t->events & (1u << id));
}

const AppProtoOps smb_proto_ops = {
	.name = "smb",
	.ipprotos = APP_IPPROTO_TCP,
	.config_defaults = smb_config_defaults,
	.config_load = smb_config_load,
	.enabled = smb_enabled,
	.register_counters = smb_register_counters,
	.probe = smb_probe_dir,
	.probe_reversed = smb_probe_rev,
	.state_new = smb_state_new_op,
	.state_free = smb_state_free_op,
	.parse = smb_parse_op,
	.tx_count = smb_tx_count,
	.tx_cnt = smb_tx_cnt,
	.tx_get = smb_tx_get,
	.tx_id = smb_tx_id,
	.tx_log_id = smb_tx_id,
	.tx_progress = smb_tx_progress,
	.progress_complete = SMB_PROGRESS_DONE,
	.tx_flags = smb_tx_flags,
	.tx_set_flags = smb_tx_set_flags,
	.tx_detect_slot = smb_tx_detect_slot,
	.tx_gc = smb_tx_gc,
	.event_lookup = smb_event_lookup,
	.tx_has_event = smb_tx_has_event,
	.frame_names = smb_frame_names,
};
