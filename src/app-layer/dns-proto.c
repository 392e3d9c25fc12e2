/* DNS's entry in the application-protocol registry: its configuration
 * (app-layer.protocols.dns.{tcp,udp}.*), how it is recognised, and the ops
 * that hand the DNS parser (dns-parse.c) to the generic app layer.
 *
 * Recognition follows what Suricata's DNS probing parser checks: a header
 * whose counts fit the message, QR saying request
 * to the server and response to the client (the other way round, a
 * midstream TCP flow is reversed, as Suricata's probe tells its caller),
 * and on TCP the 2-byte length in front. Like Suricata's, the probe runs on
 * the detection-ports only (either end of the flow: dp, then sp); DNS on
 * another port is found by listing that port there.
 *
 * Transactions are Suricata 8's: every message is its own transaction
 * (DNS_TXS_PER_MESSAGE, doc/dns.md), complete in both directions at once. */
#include "app-layer/app-layer-int.h"
#include "app-layer/frames.h"
#include "app-layer/dns-parse.h"
#include "app-layer/dns-txops.h"
#include "conf/conf.h"
#include "util/log.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------- configuration ---------------- */

#define DNS_KEY "app-layer.protocols.dns."

static const char *const ipp_names[2] = { [APP_DNS_TCP] = "tcp", [APP_DNS_UDP] = "udp" };

static void dns_config_defaults(AppLayerConfig *cfg)
{
	for (int i = 0; i < 2; i++) {
		cfg->dns_enabled[i] = 1;
		cfg->dns_ports[i][0] = 53;
		cfg->dns_nports[i] = 1;
	}
}

/* Suricata's yaml writes dns.tcp.* and dns.udp.*; a dns.enabled or a
 * dns.detection-ports above them sets both (suricata-verify dns-incomplete
 * sets app-layer.protocols.dns.detection-ports.dp). */
static int dns_config_load(AppLayerConfig *cfg)
{
	char key[128];
	int all = -1, rc = 0, top;

	if (conf_get(DNS_KEY "enabled")) {
		all = 1;
		if (app_conf_enabled(DNS_KEY "enabled", &all) < 0)
			rc = -1;
		cfg->dns_enabled[0] = cfg->dns_enabled[1] = all;
	}
	/* Suricata takes dns.detection-ports when it is there, and the
	 * transport's own only when it is not */
	top = conf_get_node(DNS_KEY "detection-ports") != NULL;
	for (int i = 0; i < 2; i++)
		if (top && app_conf_ports(DNS_KEY "detection-ports.dp", cfg->dns_ports[i],
					  APP_MAX_DETECT_PORTS, &cfg->dns_nports[i]) < 0)
			rc = -1;
	for (int i = 0; i < 2; i++) {
		snprintf(key, sizeof(key), DNS_KEY "%s.enabled", ipp_names[i]);
		if (app_conf_enabled(key, &cfg->dns_enabled[i]) < 0)
			rc = -1;
		if (top)
			continue;
		snprintf(key, sizeof(key), DNS_KEY "%s.detection-ports.dp", ipp_names[i]);
		if (app_conf_ports(key, cfg->dns_ports[i], APP_MAX_DETECT_PORTS,
				   &cfg->dns_nports[i]) < 0)
			rc = -1;
	}
	return rc;
}

static int dns_enabled(const AppLayerConfig *cfg)
{
	/* the app layer asks per protocol; the probe (off: not DNS) and the
	 * parser state (detection-only: nothing parsed) per transport */
	if (cfg->dns_enabled[0] == 1 || cfg->dns_enabled[1] == 1)
		return 1;
	return cfg->dns_enabled[0] || cfg->dns_enabled[1] ? 2 : 0;
}

static int ipp_index(const Flow *f)
{
	return f->proto == 17 ? APP_DNS_UDP : APP_DNS_TCP;
}

static counter_id c_tx[2], c_err[2];

/* app_layer.tx.dns_{tcp,udp} and app_layer.error.dns_{tcp,udp}.parser, as
 * Suricata names its DNS counters per transport. */
static void dns_register_counters(void)
{
	c_tx[APP_DNS_TCP] = counter_register("app_layer.tx.dns_tcp");
	c_tx[APP_DNS_UDP] = counter_register("app_layer.tx.dns_udp");
	c_err[APP_DNS_TCP] = counter_register("app_layer.error.dns_tcp.parser");
	c_err[APP_DNS_UDP] = counter_register("app_layer.error.dns_udp.parser");
}

static void count(AppLayerThread *at, counter_id id)
{
	if (at && at->tc && app_layer_counters_registered)
		counter_inc(at->tc, id);
}

/* ---------------- detection ---------------- */

static inline uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static int port_listed(const AppLayerConfig *cfg, int ipp, uint16_t port)
{
	for (unsigned i = 0; i < cfg->dns_nports[ipp]; i++)
		if (cfg->dns_ports[ipp][i] == port)
			return 1;
	return 0;
}

/* Header of a message of msglen bytes (buf holds at least its 12): the
 * check Suricata's probe makes: room for the counts at two bytes per entry
 * (a bound any real message meets, compressed names included; random bytes
 * seldom do). An unassigned opcode is still DNS, with its invalid_opcode
 * event (suricata-verify dns-invalid-opcode). 1 sane, 0 not. *qr gets the
 * QR bit. */
static int header_sane(const uint8_t *h, uint32_t msglen, int *qr)
{
	uint32_t n;

	/* the length first: a short datagram has no header to read */
	if (msglen < 12)
		return 0;
	n = (uint32_t)rd16(h + 4) + rd16(h + 6) + rd16(h + 8) + rd16(h + 10);
	if (12 + 2 * n > msglen)
		return 0;
	*qr = !!(rd16(h + 2) & DNS_FLAG_QR);
	return 1;
}

/* What a resolver's message looks like in its first bytes (one question,
 * a first label of 1..63 bytes). */
static int header_typical(const uint8_t *h, uint32_t avail)
{
	if (rd16(h + 4) != 1)
		return 0;
	return avail <= 12 || (h[12] >= 1 && h[12] <= 63);
}

/* UDP: buf is the whole datagram (the app layer holds nothing back for
 * UDP). A message going the other way (a response toward the flow's
 * server: its query was not seen first) is DNS all the same, and the flow
 * is turned so that its client is the querier, as Suricata's probe tells
 * its caller. */
static int probe_udp(int dir, const uint8_t *buf, uint32_t len)
{
	int qr;

	if (!header_sane(buf, len, &qr))
		return DET_NO;
	return qr == (dir == APP_DIR_TOCLIENT) ? DET_YES : DET_REVERSED;
}

/* TCP: the first bytes of the stream, a 2-byte length then the header. */
static int probe_tcp(int dir, const uint8_t *buf, uint32_t len)
{
	uint32_t mlen;
	int qr;

	if (len < 14)
		return DET_MORE;
	mlen = rd16(buf);
	if (!header_sane(buf + 2, mlen, &qr) || qr != (dir == APP_DIR_TOCLIENT))
		return DET_NO;
	return DET_YES;
}

static int dns_probe(const AppLayerConfig *cfg, const Flow *f, int dir, const uint8_t *buf,
		     uint32_t len)
{
	int ipp = ipp_index(f);

	/* Suricata runs its DNS probe on the detection-ports only (the
	 * flow's destination port, else its source port) */
	if (!cfg->dns_enabled[ipp] ||
	    !(port_listed(cfg, ipp, f->dp) || port_listed(cfg, ipp, f->sp)))
		return DET_NO;
	if (ipp == APP_DNS_UDP)
		return probe_udp(dir, buf, len);
	return probe_tcp(dir, buf, len);
}

/* Midstream TCP: the stream's first bytes go the other way (a response
 * toward the server, a query toward the client). Only what a resolver
 * exchange looks like counts; the probe decides for real, ports included,
 * once the flow is reversed. */
static int dns_probe_reversed(int dir, const uint8_t *buf, uint32_t len)
{
	int want = dir == APP_DIR_TOSERVER, qr;

	if (len >= 14 && header_sane(buf + 2, rd16(buf), &qr) && qr == want &&
	    header_typical(buf + 2, len - 2))
		return DET_YES;
	return DET_NO;
}

/* ---------------- parser state ---------------- */

typedef struct DnsState {
	struct dns_txs txs;
	struct dns_tcp tcp[2];      /* per direction (TCP flows) */
	int ipp;                    /* APP_DNS_TCP / APP_DNS_UDP */
	int detect_only;            /* the transport is detection-only: no parsing */
	AppLayerThread *at;         /* for the TCP callback's counters */
	int dir;                    /* the direction being parsed */
	Flow *f;                    /* for the TCP callback's frames */
} DnsState;
_Static_assert(offsetof(DnsState, txs) == 0, "dns-txops.c reads the state as its txs");

/* Suricata's DNS frame types (frames.h): the message, without the TCP
 * length prefix. */
enum { DNS_FRAME_PDU };
static const char *const dns_frame_names[] = { "pdu", NULL };

static void *dns_state_new(AppLayerThread *at, Flow *f)
{
	DnsState *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	dns_txs_init(&st->txs, DNS_TXS_PER_MESSAGE, 0);
	dns_tcp_init(&st->tcp[0]);
	dns_tcp_init(&st->tcp[1]);
	st->ipp = ipp_index(f);
	/* the app layer asks dns_enabled() for both transports at once */
	st->detect_only = at && at->cfg->dns_enabled[st->ipp] == 2;
	return st;
}

static void dns_state_free(void *state)
{
	DnsState *st = state;

	if (!st)
		return;
	dns_txop_free_all(&st->txs);
	dns_tcp_free(&st->tcp[0]);
	dns_tcp_free(&st->tcp[1]);
	free(st);
}

/* One message (a datagram, or a TCP frame without its length): a new
 * transaction. A message too short for a header is a parser error. */
static int add_message(DnsState *st, AppLayerThread *at, int dir, const uint8_t *msg,
		       uint32_t len)
{
	struct dns_msg *m = NULL;
	struct dns_tx *tx;
	int rc = dns_msg_parse(msg, len, (enum dns_dir)dir, &m);

	if (rc == DNS_E_NOMEM || rc == DNS_E_SHORT) {
		dns_msg_free(m);
		count(at, c_err[st->ipp]);
		return -1;
	}
	if (rc != DNS_OK)
		count(at, c_err[st->ipp]);
	if (dns_txs_add(&st->txs, m, (enum dns_dir)dir, &tx) != 0)
		return -1;
	/* one message, one direction: detection has nothing to do on the
	 * other side (Suricata 8's unidirectional DNS transactions) */
	tx->app_flags |= dir == APP_DIR_TOSERVER ? APP_TX_ONLY_TS | APP_TX_DETECT_TC :
						   APP_TX_ONLY_TC | APP_TX_DETECT_TS;
	count(at, c_tx[st->ipp]);
	return rc == DNS_OK ? 0 : -1;
}

static void tcp_message(void *arg, const uint8_t *msg, uint32_t len)
{
	DnsState *st = arg;

	if (app_frames_on(st->f)) {
		uint64_t end = app_frame_offset(st->f, st->dir) + st->tcp[st->dir].consumed;

		app_frame_set_tx(st->f, st->dir,
				 app_frame_new(st->f, st->dir, end - len, len, DNS_FRAME_PDU),
				 st->txs.next_id);
	}

	add_message(st, st->at, st->dir, msg, len);
}

static int dns_parse(AppLayerThread *at, Flow *f, void *state, int dir, const uint8_t *data,
		     uint32_t len, int flags)
{
	DnsState *st = state;

	if (st->detect_only)
		return 0;
	if (st->ipp == APP_DNS_UDP) {
		if (!data || !len)
			return 0;
		if (app_frames_on(f))
			app_frame_set_tx(f, dir, app_frame_new(f, dir, 0, len, DNS_FRAME_PDU),
					 st->txs.next_id);
		return add_message(st, at, dir, data, len);
	}
	if (flags & APP_GAP) {
		/* the buffered bytes no longer lead to the next ones */
		dns_tcp_reset(&st->tcp[dir]);
		return 0;
	}
	if (!data || !len)
		return 0;
	st->at = at;
	st->dir = dir;
	st->f = f;
	if (dns_tcp_feed(&st->tcp[dir], data, len, tcp_message, st) != 0) {
		count(at, c_err[st->ipp]);
		return -1;
	}
	return 0;
}

/* the transaction calls are dns-txops.c's, shared with mDNS */
const AppProtoOps dns_proto_ops = {
	.name = "dns",
	.ipprotos = APP_IPPROTO_TCP | APP_IPPROTO_UDP,
	.config_defaults = dns_config_defaults,
	.config_load = dns_config_load,
	.enabled = dns_enabled,
	.register_counters = dns_register_counters,
	.probe = dns_probe,
	.probe_reversed = dns_probe_reversed,
	.state_new = dns_state_new,
	.state_free = dns_state_free,
	.parse = dns_parse,
	.tx_count = dns_txop_count,
	.tx_get = dns_txop_get,
	.tx_id = dns_txop_id,
	.tx_log_id = dns_txop_id,
	.tx_progress = dns_txop_progress,
	.progress_complete = 1,
	.tx_flags = dns_txop_flags,
	.tx_set_flags = dns_txop_set_flags,
	.tx_detect_slot = dns_txop_detect_slot,
	.tx_gc = dns_txop_gc,
	.event_lookup = dns_txop_event_lookup,
	.tx_has_event = dns_txop_has_event,
	.frame_names = dns_frame_names,
};
