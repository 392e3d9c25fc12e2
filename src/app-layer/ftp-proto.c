/* FTP's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.ftp.*), how it is recognised, and the ops that hand
 * the control-connection parser (ftp-parse.c) to the generic app layer.
 *
 * Detection is by content on any port, Suricata's patterns: "USER ",
 * "PASS ", "PORT ", "FEAT" to the server, "220 (" to the client (case-
 * insensitive). detection-ports is read for Suricata's yaml.
 *
 * Data connections: PORT/EPRT (active) and 227/229 replies to PASV/EPSV
 * (passive) give the data port; a RETR or STOR then adds an expectation
 * (expect.h) for a flow between the two hosts to that port, carrying the
 * command and the file name, which labels that flow ftp-data
 * (ftp-data-proto.c). The file names it carries count in
 * app-layer.protocols.ftp.memcap (ftp.memcap counts what it refused).
 *
 * AUTH TLS (or AUTH SSL) answered 234: the control connection goes on as
 * TLS (app_layer_request_proto_change(), as SMTP's STARTTLS), its flow
 * record app_proto "tls", app_proto_orig "ftp". */
#include "app-layer/app-layer-int.h"
#include "app-layer/app-counters.h"
#include "app-layer/expect.h"
#include "app-layer/ftp.h"
#include "conf/conf.h"
#include "util/log.h"

#include <netinet/in.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define FTP_KEY "app-layer.protocols.ftp."

/* Read once at start (config_load); read-only afterwards. */
static struct {
	int enabled;
	uint16_t ports[APP_MAX_DETECT_PORTS];
	unsigned nports;
	uint64_t memcap;            /* 0: unlimited */
	uint64_t max_line;
	int64_t max_tx;
} ftp_conf;

/* what the expectations' data holds now, all flows (ftp.memcap) */
static atomic_uint_fast64_t ftp_memuse;

/* app-layer.protocols.ftp.memcap, and the unix socket's memcap-set of it:
 * read where an expectation is to be kept (relaxed: the new value holds
 * from the next one on). */
void ftp_memcap_set(uint64_t cap)
{
	__atomic_store_n(&ftp_conf.memcap, cap, __ATOMIC_RELAXED);
}

uint64_t ftp_memcap_get(void)
{
	return __atomic_load_n(&ftp_conf.memcap, __ATOMIC_RELAXED);
}

static void ftp_config_defaults(AppLayerConfig *cfg)
{
	(void)cfg;
	memset(&ftp_conf, 0, sizeof(ftp_conf));
	ftp_conf.enabled = 1;
	ftp_conf.ports[0] = 21;
	ftp_conf.nports = 1;
	ftp_conf.memcap = 64ull << 20;
	ftp_conf.max_line = FTP_MAX_LINE_DEFAULT;
	ftp_conf.max_tx = 1024;
}

static int ftp_config_load(AppLayerConfig *cfg)
{
	int rc = 0;

	(void)cfg;
	if (app_conf_enabled_ports(FTP_KEY, &ftp_conf.enabled, ftp_conf.ports, &ftp_conf.nports) < 0)
		rc = -1;
	if (app_conf_size(FTP_KEY "memcap", &ftp_conf.memcap) < 0)
		rc = -1;
	if (app_conf_size_range(FTP_KEY "max-line-length", &ftp_conf.max_line, 1u << 30) < 0)
		rc = -1;
	if (ftp_conf.max_line == 0)
		ftp_conf.max_line = FTP_MAX_LINE_DEFAULT;
	if (app_conf_int_range(FTP_KEY "max-tx", &ftp_conf.max_tx, 1 << 20) < 0)
		rc = -1;
	return rc;
}

static AppTxCounters ctr;
static counter_id c_memcap, c_memuse;
static int memuse_registered;
/* The worker whose ftp.memuse holds the expectation data this thread
 * charged: a release (the expectation's free knows no thread) lands on
 * it; the gauge is summed over workers, so the total stays exact. */
static _Thread_local ThreadCounters *memuse_tc;

static void ftp_register_counters(void)
{
	app_tx_counters_register(&ctr, "ftp");
	c_memcap = counter_register("ftp.memcap");
	/* Suricata 8's gauge of what the FTP parser holds globally: here the
	 * expectations' data, which ftp.memcap bounds */
	c_memuse = counter_register("ftp.memuse");
	memuse_registered = 1;
	/* the expectations serve FTP only so far */
	expect_register_counters();
}

/* ftp.memcap is registered with the others, so counted under their flag. */
static void ftp_count_memcap(AppLayerThread *at)
{
	if (at && at->tc && ctr.kinds)
		counter_inc(at->tc, c_memcap);
}

static int ftp_enabled(const AppLayerConfig *cfg)
{
	(void)cfg;
	return ftp_conf.enabled;
}

static int ftp_probe_dir(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
			 uint32_t len)
{
	int r = ftp_probe(dir, buf, len);

	(void)cfg;
	(void)f;
	return r > 0 ? DET_YES : r == 0 ? DET_NO : DET_MORE;
}

/* ---------------- state ---------------- */

typedef struct FtpProto {
	FtpState *s;
	uint8_t closed[2];
	uint8_t active;             /* the last data port came from PORT/EPRT */
	uint16_t dyn_port;          /* the last data port announced */
	uint8_t port_bounce;        /* the last PORT/EPRT bounces */
	uint8_t to_tls;             /* 234 to AUTH TLS: the flow goes on as TLS */
	/* for the parser's callback */
	AppLayerThread *at;
	Flow *f;
	const struct timeval *now;
} FtpProto;

static void *ftp_state_new_op(AppLayerThread *at, Flow *f)
{
	FtpProto *p = calloc(1, sizeof(*p));

	(void)f;
	if (p)
		p->s = ftp_state_new((uint32_t)ftp_conf.max_line, (uint32_t)ftp_conf.max_tx);
	if (!p || !p->s) {
		free(p);
		app_tx_count(at, &ctr, APP_CTR_ALLOC, 1);
		return NULL;
	}
	return p;
}

static void ftp_state_free_op(void *state)
{
	FtpProto *p = state;

	if (!p)
		return;
	for (FtpTx *t = p->s->head; t; t = t->next)
		if (t->detect)
			app_layer_detect_state_free(t->detect);
	ftp_state_free(p->s);
	free(p);
}

static void data_info_free(void *d)
{
	FtpDataInfo *di = d;

	if (!di)
		return;
	atomic_fetch_sub(&ftp_memuse, sizeof(*di) + di->filename_len + 1);
	if (memuse_tc && memuse_registered)
		counter_sub(memuse_tc, c_memuse, sizeof(*di) + di->filename_len + 1);
	free(di->filename);
	free(di);
}

/* RETR / STOR after a data port: the data flow is expected. One that
 * names no file, or comes before any PORT/PASV, is an event on its
 * transaction (Suricata 8.0.6), not an error: the session goes on. */
static void expect_transfer(FtpProto *p, FtpTx *t)
{
	FtpDataInfo *di;
	uint64_t need = sizeof(*di) + t->cmd_data_len + 1;

	if (!t->cmd_data_len)
		t->events |= 1u << FTP_EV_FILE_WITHOUT_NAME;
	if (!p->dyn_port) {
		t->events |= 1u << FTP_EV_FILE_BEFORE_PORT;
		return;
	}
	uint64_t cap = ftp_memcap_get();

	if (cap && atomic_load(&ftp_memuse) + need > cap) {
		ftp_count_memcap(p->at);
		return;
	}
	di = calloc(1, sizeof(*di));
	if (di)
		di->filename = malloc(t->cmd_data_len + 1);
	if (!di || !di->filename) {
		free(di);
		app_tx_count(p->at, &ctr, APP_CTR_ALLOC, 1);
		return;
	}
	memcpy(di->filename, t->cmd_data ? t->cmd_data : "", t->cmd_data_len);
	di->filename[t->cmd_data_len] = '\0';
	di->filename_len = t->cmd_data_len;
	di->cmd = t->cmd;
	atomic_fetch_add(&ftp_memuse, need);
	if (p->at && p->at->tc && memuse_registered) {
		memuse_tc = p->at->tc;
		counter_add(memuse_tc, c_memuse, need);
	}
	expect_add(p->at ? p->at->tc : NULL, p->f, p->dyn_port, ALPROTO_FTPDATA, di, data_info_free,
		   p->now);
}

/* A PORT whose address is not the client's: Suricata's ftpbounce. */
static int port_bounces(const Flow *f, const FtpTx *t)
{
	if (t->port_addr_family != 4 || f->src.family != AF_INET)
		return 0;
	return memcmp(t->port_addr, f->src.a.u8, 4) != 0;
}

/* AUTH TLS (or SSL, RFC 4217 / RFC 2228) answered 234: what follows on
 * the connection is TLS, as Suricata 8 hands it over. */
static int auth_tls_accepted(const FtpTx *t)
{
	const FtpReplyLine *last;

	if (!t->has_request || !t->cmd_name || strcmp(t->cmd_name, "AUTH") != 0 || !t->cmd_data ||
	    !t->done || !t->nreplies)
		return 0;
	if (strncasecmp(t->cmd_data, "TLS", 3) != 0 && strncasecmp(t->cmd_data, "SSL", 3) != 0)
		return 0;
	last = &t->replies[t->nreplies - 1];
	return strcmp(last->code, "234") == 0;
}

static void on_tx(void *arg, FtpState *s, FtpTx *t, int dir)
{
	FtpProto *p = arg;

	(void)s;
	if (dir == FTP_TOSERVER) {
		app_tx_count(p->at, &ctr, APP_CTR_TX, 1);
		if (t->cmd == FTP_CMD_PORT || t->cmd == FTP_CMD_EPRT) {
			if (t->dyn_port) {
				p->dyn_port = t->dyn_port;
				p->active = 1;
			}
			t->bounce = port_bounces(p->f, t);
			p->port_bounce = t->bounce;
		} else if (t->cmd == FTP_CMD_RETR || t->cmd == FTP_CMD_STOR) {
			expect_transfer(p, t);
		}
	} else if (!t->has_request) {
		app_tx_count(p->at, &ctr, APP_CTR_TX, 1);
	} else if (auth_tls_accepted(t)) {
		p->to_tls = 1;
	} else if (t->mode == FTP_MODE_PASSIVE && t->dyn_port) {
		p->dyn_port = t->dyn_port;
		p->active = 0;
	}
}

static int ftp_parse_op(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
			uint32_t len, int flags)
{
	FtpProto *p = state;
	struct timeval now = f->last;

	if (!p || dir < 0 || dir > 1)
		return -1;
	p->at = at;
	p->f = f;
	p->now = &now;
	if (flags & APP_GAP) {
		/* the lines resume at the next line end: Suricata's FTP parser
		 * accepts gaps too; the partial line is dropped */
		app_tx_count(at, &ctr, APP_CTR_GAP, 1);
		p->s->line[dir].len = 0;
		p->s->line[dir].truncated = false;
	} else if (!p->closed[dir] && len && data) {
		ftp_parse(p->s, dir, data, len, on_tx, p);
	}
	if (flags & APP_EOF) {
		if (!p->closed[dir])
			ftp_eof(p->s, dir, on_tx, p);
		p->closed[dir] = 1;
	}
	if (p->to_tls == 1) {
		/* once; the FTP parser reads nothing after the 234 (the
		 * client's TLS hello comes on a later packet) */
		p->to_tls = 2;
		p->closed[0] = p->closed[1] = 1;
		app_layer_request_proto_change(f, ALPROTO_TLS);
	}
	p->at = NULL;
	p->f = NULL;
	p->now = NULL;
	return 0;
}

int ftp_flow_port_bounce(const Flow *f)
{
	const AppFlowState *fs;
	const FtpProto *p;

	if (!f || f->app_proto != ALPROTO_FTP || !(fs = f->alstate) || !(p = fs->proto))
		return 0;
	return p->port_bounce;
}

/* ---------------- transactions ---------------- */

static uint64_t ftp_tx_count(const void *state)
{
	return ((const FtpProto *)state)->s->next_id;
}

static void *ftp_tx_get(const void *state, uint64_t id)
{
	const FtpProto *p = state;

	return ftp_tx_by_id(p->s, id);
}

static uint64_t ftp_tx_id(const void *tx)
{
	return ((const FtpTx *)tx)->id;
}

static int ftp_tx_progress(const void *tx, int dir)
{
	const FtpTx *t = tx;

	if (dir == APP_DIR_TOSERVER)
		return 1;           /* a tx starts with its command (or is reply-only) */
	return t->done ? 1 : 0;
}

static unsigned ftp_tx_flags(const void *tx)
{
	return ((const FtpTx *)tx)->app_flags;
}

static void ftp_tx_set_flags(void *tx, unsigned flags)
{
	((FtpTx *)tx)->app_flags |= flags;
}

static void **ftp_tx_detect_slot(void *tx)
{
	return &((FtpTx *)tx)->detect;
}

static int gc_ok(const FtpTx *t, unsigned need)
{
	if (!t->done || (t->app_flags & need) != need)
		return 0;
	if (t->detect)
		app_layer_detect_state_free(t->detect);
	return 1;
}

static void ftp_tx_gc(void *state, unsigned need)
{
	FtpProto *p = state;

	ftp_gc(p->s, gc_ok, need);
}

static int ftp_event_lookup(const char *name)
{
	return ftp_event_by_name(name);
}

static int ftp_tx_has_event(const void *tx, int id)
{
	const FtpTx *t = tx;

	return id >= 0 && id < FTP_EV_COUNT && (t->events & (1u << id));
}

const AppProtoOps ftp_proto_ops = {
	.name = "ftp",
	.ipprotos = APP_IPPROTO_TCP,
	.config_defaults = ftp_config_defaults,
	.config_load = ftp_config_load,
	.enabled = ftp_enabled,
	.register_counters = ftp_register_counters,
	.probe = ftp_probe_dir,
	.state_new = ftp_state_new_op,
	.state_free = ftp_state_free_op,
	.parse = ftp_parse_op,
	.tx_count = ftp_tx_count,
	.tx_get = ftp_tx_get,
	.tx_id = ftp_tx_id,
	.tx_log_id = ftp_tx_id,
	.tx_progress = ftp_tx_progress,
	.progress_complete = FTP_PROGRESS_DONE,
	.tx_flags = ftp_tx_flags,
	.tx_set_flags = ftp_tx_set_flags,
	.tx_detect_slot = ftp_tx_detect_slot,
	.tx_gc = ftp_tx_gc,
	.event_lookup = ftp_event_lookup,
	.tx_has_event = ftp_tx_has_event,
};

/* ftp-data is on whenever FTP is (Suricata has no switch of its own). */
int ftp_data_enabled_cfg(void)
{
	return ftp_conf.enabled;
}
