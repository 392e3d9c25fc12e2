/* The capture interface: sources by kind, their yaml sections, BPF text,
 * kernel counters. */
#include "capture/capture.h"
#include "capture/pcap-file.h"
#include "conf/conf.h"
#include "decode/decode.h"
#include "util/log.h"

#include <errno.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/if_packet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const CaptureOps *capture_ops(enum capture_kind kind)
{
	switch (kind) {
	case CAPTURE_PCAP_LIVE: return &capture_pcap_live_ops;
	case CAPTURE_AF_PACKET: return &capture_af_packet_ops;
	case CAPTURE_NFQ: return &capture_nfq_ops;
	default: return &capture_pcap_file_ops;
	}
}

/* ---- inline verdicts of packet groups ---- */

void capture_verdict_link(Packet *p)
{
	uint32_t n = 1;

	if (!p->pseudo || !p->cap || !p->cap->ops->verdict)
		return;
	for (Packet *q = p->pseudo; q; q = q->pseudo) {
		q->vroot = p;
		n++;
	}
	p->vdrop = 0;
	__atomic_store_n(&p->vpending, n, __ATOMIC_RELEASE);
}

/* One packet of a group is done: its drop joins the group's; the last
 * one gives the wire packet its verdict. */
int capture_verdict_slow(Packet *p, int ips, Packet **root)
{
	Packet *r = p->vroot ? p->vroot : p;

	if (ips && p->drop_reason)
		__atomic_store_n(&r->vdrop, 1, __ATOMIC_RELEASE);
	if (__atomic_sub_fetch(&r->vpending, 1, __ATOMIC_ACQ_REL) != 0)
		return r != p;
	r->cap->ops->verdict(r->cap, r, __atomic_load_n(&r->vdrop, __ATOMIC_ACQUIRE));
	r->vpending = 0;
	if (r == p)
		return 1;
	*root = r;
	return 1;
}

/* ---- yaml: pcap: / af-packet: ---- */

typedef struct Section {
	const char *name;          /* "pcap", "af-packet" */
	const ConfNode *entry;     /* the interface's entry, or NULL */
	const ConfNode *dflt;      /* the "interface: default" entry, or NULL */
} Section;

/* A key of the interface's entry, else of the default entry (Suricata's
 * "default" entry supplies what an interface leaves out). */
static const char *sec_get(const Section *s, const char *key)
{
	const char *v = s->entry ? conf_node_get(s->entry, key) : NULL;

	if (!v && s->dflt)
		v = conf_node_get(s->dflt, key);
	return v;
}

static int parse_bool(const char *v, int *out)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };

	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(v, yes[i])) {
			*out = 1;
			return 0;
		}
		if (!strcasecmp(v, no[i])) {
			*out = 0;
			return 0;
		}
	}
	return -1;
}

static int sec_bool(const Section *s, const char *key, int *out)
{
	const char *v = sec_get(s, key);

	if (v && parse_bool(v, out) != 0) {
		log_error("%s.%s: '%s' is not yes or no", s->name, key, v);
		return -1;
	}
	return 0;
}

static int sec_u32(const Section *s, const char *key, uint32_t *out, uint64_t min, uint64_t max)
{
	const char *v = sec_get(s, key);
	uint64_t n;

	if (!v)
		return 0;
	if (parse_size(v, &n) != 0 || n < min || n > max) {
		log_error("%s.%s: '%s' is not a number in %llu..%llu", s->name, key, v,
			  (unsigned long long)min, (unsigned long long)max);
		return -1;
	}
	*out = (uint32_t)n;
	return 0;
}

static void sec_find(Section *s, const char *iface)
{
	const ConfNode *list = conf_get_node(s->name);

	s->entry = s->dflt = NULL;
	for (const ConfNode *n = list ? list->child : NULL; n; n = n->next) {
		const char *i = conf_node_get(n, "interface");

		if (!i)
			continue;
		if (!strcmp(i, "default"))
			s->dflt = n;
		else if (!s->entry && (!*iface || !strcmp(i, iface)))
			s->entry = n;
	}
}

unsigned capture_section_ifaces(enum capture_kind kind, char (*names)[64], unsigned max)
{
	const ConfNode *list = conf_get_node(kind == CAPTURE_AF_PACKET ? "af-packet" : "pcap");
	unsigned n = 0;

	if (kind == CAPTURE_PCAP_FILE || kind == CAPTURE_NFQ)
		return 0;
	for (const ConfNode *e = list ? list->child : NULL; e && n < max; e = e->next) {
		const char *i = conf_node_get(e, "interface");

		if (i && *i && strcmp(i, "default"))
			snprintf(names[n++], 64, "%s", i);
	}
	return n;
}

static int load_threads(const Section *s, unsigned ncpu, unsigned *out)
{
	const char *v = sec_get(s, "threads");
	uint32_t n;

	if (!v || !strcasecmp(v, "auto")) {
		/* Suricata: auto is one thread per CPU for af-packet; libpcap
		 * live gets one (its handles do not fan out by themselves) */
		*out = s->name[0] == 'a' ? ncpu : 1;
		return 0;
	}
	if (sec_u32(s, "threads", &n, 1, 1024) != 0)
		return -1;
	*out = n;
	return 0;
}

static int load_checksum(const Section *s, int *out)
{
	const char *v = sec_get(s, "checksum-checks");
	int b;

	if (!v)
		return 0;
	if (!strcasecmp(v, "auto") || !strcasecmp(v, "kernel")) {
		/* kernel: the kernel's verdict on offloaded checksums would be
		 * trusted; our decoder's auto mode tolerates offloading the same way */
		*out = CHECKSUM_AUTO;
		return 0;
	}
	if (parse_bool(v, &b) != 0) {
		log_error("%s.checksum-checks: '%s' is not yes, no, auto or kernel", s->name, v);
		return -1;
	}
	*out = b ? CHECKSUM_ALL : CHECKSUM_NONE;
	return 0;
}

static int load_cluster_type(const Section *s, int *out)
{
	static const struct { const char *name; int type; } types[] = {
		{ "cluster_flow", PACKET_FANOUT_HASH },
		{ "cluster_qm", PACKET_FANOUT_QM },
		{ "cluster_cpu", PACKET_FANOUT_CPU },
		{ "cluster_round_robin", PACKET_FANOUT_LB },
		{ "cluster_rollover", PACKET_FANOUT_ROLLOVER },
		{ "cluster_random", PACKET_FANOUT_RND },
	};
	const char *v = sec_get(s, "cluster-type");

	if (!v)
		return 0;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		if (!strcmp(v, types[i].name)) {
			*out = types[i].type;
			return 0;
		}
	}
	log_error("%s.cluster-type: '%s' is not supported (use cluster_flow, cluster_qm, "
		  "cluster_cpu, cluster_round_robin, cluster_rollover or cluster_random)",
		  s->name, v);
	return -1;
}

/* af-packet copy-mode and copy-iface (Suricata's names: ips, tap; the
 * interface pair lists each other). */
static int load_copy_mode(const Section *s, CaptureConfig *cfg)
{
	const char *v = sec_get(s, "copy-mode");
	const char *ci = sec_get(s, "copy-iface");

	if (!v || !*v || !strcasecmp(v, "none"))
		return 0;
	if (!strcasecmp(v, "ips"))
		cfg->copy_mode = COPY_IPS;
	else if (!strcasecmp(v, "tap"))
		cfg->copy_mode = COPY_TAP;
	else {
		log_error("af-packet.copy-mode: '%s' is not ips, tap or none", v);
		return -1;
	}
	if (!ci || !*ci || strlen(ci) >= sizeof(cfg->copy_iface)) {
		log_error("af-packet: %s: copy-mode %s needs copy-iface (the interface its "
			  "packets go out on)", cfg->iface, v);
		return -1;
	}
	if (!strcmp(ci, cfg->iface)) {
		log_error("af-packet: %s: copy-iface is the interface itself", cfg->iface);
		return -1;
	}
	snprintf(cfg->copy_iface, sizeof(cfg->copy_iface), "%s", ci);
	return 0;
}

static int nfq_u32(const char *key, uint32_t *out, uint64_t max)
{
	char path[64], *end;
	const char *v;
	unsigned long long n;

	snprintf(path, sizeof(path), "nfq.%s", key);
	if (!(v = conf_get(path)))
		return 0;
	/* marks read well in hex: 0x10 as 16 */
	errno = 0;
	n = strtoull(v, &end, 0);
	if (end == v || *end || errno || *v == '-' || n > max) {
		log_error("%s: '%s' is not a number in 0..%llu", path, v, (unsigned long long)max);
		return -1;
	}
	*out = (uint32_t)n;
	return 0;
}

/* The nfq: section (one for every queue, as in Suricata). The queue
 * number is cfg->iface, from -q. */
static int nfq_config_load(CaptureConfig *cfg)
{
	const char *v = conf_get("nfq.mode");
	uint32_t rq = 0, q;
	char *end;

	q = (uint32_t)strtoul(cfg->iface, &end, 10);
	if (!cfg->iface[0] || *end || q > 65535) {
		log_error("-q: '%s' is not a queue number (0..65535)", cfg->iface);
		return -1;
	}
	cfg->queue = (uint16_t)q;
	/* the name in logs, thread names and eve in_iface, as Suricata's */
	snprintf(cfg->iface, sizeof(cfg->iface), "NFQ#%u", q);
	cfg->nfq_mode = NFQ_ACCEPT;
	cfg->repeat_mark = cfg->repeat_mask = 0;
	cfg->route_queue = 0;
	cfg->fail_open = 0;
	cfg->batchcount = 1;
	if (v && !strcasecmp(v, "repeat"))
		cfg->nfq_mode = NFQ_REPEAT;
	else if (v && !strcasecmp(v, "route"))
		cfg->nfq_mode = NFQ_ROUTE;
	else if (v && strcasecmp(v, "accept")) {
		log_error("nfq.mode: '%s' is not accept, repeat or route", v);
		return -1;
	}
	if (nfq_u32("repeat-mark", &cfg->repeat_mark, UINT32_MAX) != 0 ||
	    nfq_u32("repeat-mask", &cfg->repeat_mask, UINT32_MAX) != 0 ||
	    nfq_u32("route-queue", &rq, 65535) != 0 ||
	    nfq_u32("batchcount", &cfg->batchcount, 65535) != 0)
		return -1;
	cfg->route_queue = (uint16_t)rq;
	if (!cfg->batchcount)
		cfg->batchcount = 1;
	if (cfg->nfq_mode == NFQ_ROUTE && !conf_get("nfq.route-queue")) {
		log_error("nfq.mode route needs nfq.route-queue");
		return -1;
	}
	if (cfg->nfq_mode == NFQ_REPEAT && !cfg->repeat_mask) {
		log_error("nfq.mode repeat needs nfq.repeat-mark and a non-zero nfq.repeat-mask "
			  "(else the re-injected packet comes back to the queue)");
		return -1;
	}
	if ((v = conf_get("nfq.fail-open")) && parse_bool(v, &cfg->fail_open) != 0) {
		log_error("nfq.fail-open: '%s' is not yes or no", v);
		return -1;
	}
	/* bypass-mark/mask: the engine has no bypass verdict yet; read so
	 * that they are not reported unused */
	(void)conf_get("nfq.bypass-mark");
	(void)conf_get("nfq.bypass-mask");
	return 0;
}

int capture_ips_wanted(enum capture_kind kind, const char *const *ifaces, unsigned n)
{
	char names[16][64];
	Section s = { .name = "af-packet" };

	if (kind == CAPTURE_NFQ)
		return 1;
	if (kind != CAPTURE_AF_PACKET)
		return 0;
	if (!n) {
		n = capture_section_ifaces(kind, names, 16);
		for (unsigned i = 0; i < n; i++) {
			const char *v;

			sec_find(&s, names[i]);
			if ((v = sec_get(&s, "copy-mode")) && !strcasecmp(v, "ips"))
				return 1;
		}
		return 0;
	}
	for (unsigned i = 0; i < n; i++) {
		const char *v;

		/* an interface the section does not list takes the default entry */
		sec_find(&s, ifaces[i]);
		if ((v = sec_get(&s, "copy-mode")) && !strcasecmp(v, "ips"))
			return 1;
	}
	return 0;
}

int capture_config_ips(const CaptureConfig *cc, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (cc[i].kind == CAPTURE_NFQ || cc[i].copy_mode == COPY_IPS)
			return 1;
	return 0;
}

/* The pcap-file section's folder options, Suricata's defaults: delay 30 s,
 * poll-interval 5 s. recursive and continuous exclude each other, as in
 * Suricata (a tree cannot be watched by polling one folder). */
static int load_pcap_file(CaptureConfig *cfg)
{
	Section s = { .name = "pcap-file" };

	s.entry = conf_get_node("pcap-file");
	cfg->pcap_delay_s = 30;
	cfg->pcap_poll_s = 5;
	if (sec_bool(&s, "delete-when-done", &cfg->pcap_delete) != 0 ||
	    sec_bool(&s, "recursive", &cfg->pcap_recursive) != 0 ||
	    sec_bool(&s, "continuous", &cfg->pcap_continuous) != 0 ||
	    sec_u32(&s, "delay", &cfg->pcap_delay_s, 0, 86400) != 0 ||
	    sec_u32(&s, "poll-interval", &cfg->pcap_poll_s, 1, 86400) != 0)
		return -1;
	if (cfg->pcap_recursive && cfg->pcap_continuous) {
		log_error("pcap-file: recursive and continuous cannot be used together "
			  "(--pcap-file-recursive, --pcap-file-continuous)");
		return -1;
	}
	return 0;
}

int capture_config_load(CaptureConfig *cfg, unsigned ncpu)
{
	Section s = { .name = cfg->kind == CAPTURE_AF_PACKET ? "af-packet" : "pcap" };
	const char *v;
	uint32_t cid = 99;
	int disable_promisc = 0;

	/* Suricata's defaults for af-packet: cluster 99, cluster_flow, defrag,
	 * mmap with TPACKET_V3, 32 KiB blocks, promiscuous */
	cfg->threads = 1;
	cfg->promisc = 1;
	cfg->cluster_id = 99;
	cfg->cluster_type = PACKET_FANOUT_HASH;
	cfg->defrag = 1;
	cfg->use_mmap = 1;
	cfg->block_size = 32768;
	cfg->ring_size = 2048;
	cfg->block_timeout_ms = 10;
	cfg->checksum = -1;
	if (cfg->kind == CAPTURE_PCAP_FILE)
		return load_pcap_file(cfg);
	if (cfg->kind == CAPTURE_NFQ)
		return nfq_config_load(cfg);
	sec_find(&s, cfg->iface);
	if (!cfg->iface[0]) {
		v = s.entry ? conf_node_get(s.entry, "interface") : NULL;
		if (!v) {
			log_error("--%s: no interface given and none in the %s section",
				  s.name, s.name);
			return -1;
		}
		snprintf(cfg->iface, sizeof(cfg->iface), "%s", v);
	}
	if (load_threads(&s, ncpu, &cfg->threads) != 0 || load_checksum(&s, &cfg->checksum) != 0 ||
	    sec_u32(&s, "snaplen", &cfg->snaplen, 0, PACKET_DATA_MAX) != 0)
		return -1;
	if (!cfg->bpf && (v = sec_get(&s, "bpf-filter")) != NULL && *v &&
	    !(cfg->bpf = strdup(v)))
		return -1;
	if (cfg->kind == CAPTURE_PCAP_LIVE) {
		uint32_t bs = 0;

		if (sec_bool(&s, "promisc", &cfg->promisc) != 0 ||
		    sec_u32(&s, "buffer-size", &bs, 0, UINT32_MAX) != 0)
			return -1;
		cfg->buffer_size = bs;
		return 0;
	}
	if (sec_u32(&s, "cluster-id", &cid, 0, 65535) != 0 ||
	    load_cluster_type(&s, &cfg->cluster_type) != 0 ||
	    sec_bool(&s, "defrag", &cfg->defrag) != 0 ||
	    sec_bool(&s, "use-mmap", &cfg->use_mmap) != 0 ||
	    sec_bool(&s, "disable-promisc", &disable_promisc) != 0 ||
	    sec_u32(&s, "block-size", &cfg->block_size, 4096, 1u << 30) != 0 ||
	    sec_u32(&s, "ring-size", &cfg->ring_size, 1, 1u << 24) != 0 ||
	    sec_u32(&s, "block-timeout", &cfg->block_timeout_ms, 1, 60000) != 0)
		return -1;
	{
		uint32_t bs = 0;

		if (sec_u32(&s, "buffer-size", &bs, 0, INT32_MAX) != 0)
			return -1;
		cfg->buffer_size = bs;
	}
	cfg->cluster_id = (uint16_t)cid;
	cfg->promisc = !disable_promisc;
	if (load_copy_mode(&s, cfg) != 0)
		return -1;
	if ((v = sec_get(&s, "tpacket-v3")) != NULL) {
		int b;

		if (parse_bool(v, &b) != 0) {
			log_error("af-packet.tpacket-v3: '%s' is not yes or no", v);
			return -1;
		}
		if (!b && cfg->use_mmap)
			log_warning("af-packet.tpacket-v3: no: the mmap ring is always TPACKET_V3 "
				    "here (use-mmap: no reads with recvmsg())");
	}
	return 0;
}

void capture_config_free(CaptureConfig *cfg)
{
	free(cfg->bpf);
	cfg->bpf = NULL;
}

/* ---- BPF text ---- */

char *capture_bpf_from_args(int argc, char **argv, char *err, size_t errlen)
{
	size_t len = 1;
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	if (!s) {
		snprintf(err, errlen, "bpf: out of memory");
		return NULL;
	}
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

char *capture_bpf_from_file(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	char *s = NULL;
	size_t len = 0;

	if (!f) {
		snprintf(err, errlen, "-F %s: %s", path, strerror(errno));
		return NULL;
	}
	while (fgets(line, sizeof(line), f)) {
		char *hash = strchr(line, '#');
		size_t n;
		char *ns;

		if (hash)
			*hash = 0;
		n = strcspn(line, "\r\n");
		line[n] = 0;
		ns = realloc(s, len + n + 2);
		if (!ns) {
			free(s);
			fclose(f);
			snprintf(err, errlen, "-F %s: out of memory", path);
			return NULL;
		}
		s = ns;
		if (len)
			s[len++] = ' ';
		memcpy(s + len, line, n + 1);
		len += n;
	}
	fclose(f);
	if (!s && !(s = strdup(""))) {
		snprintf(err, errlen, "-F %s: out of memory", path);
		return NULL;
	}
	return s;
}

/* ---- handles ---- */

Capture *capture_open(const CaptureOps *ops, const CaptureConfig *cfg, unsigned thread,
		      char *err, size_t errlen)
{
	Capture *c = calloc(1, sizeof(*c));

	if (!c) {
		snprintf(err, errlen, "%s: out of memory", ops->name);
		return NULL;
	}
	c->ops = ops;
	c->thread = thread;
	if (ops->open(c, cfg, thread, err, errlen) != 0) {
		free(c);
		return NULL;
	}
	return c;
}

void capture_stats(Capture *c, CaptureStats *st)
{
	memset(st, 0, sizeof(*st));
	if (c)
		c->ops->stats(c, st);
}

void capture_close(Capture *c)
{
	if (!c)
		return;
	c->ops->close(c);
	free(c);
}

struct PcapSource *capture_pcap_source(const Capture *c)
{
	return c && c->ops == &capture_pcap_file_ops ? c->priv : NULL;
}

static counter_id cnt_kpkts, cnt_kdrops, cnt_kifdrops;
static int counters_on;

void capture_register_counters(const CaptureOps *ops)
{
	pcap_source_register_counters();
	if (!ops->live)
		return;
	cnt_kpkts = counter_register("capture.kernel_packets");
	cnt_kdrops = counter_register("capture.kernel_drops");
	cnt_kifdrops = counter_register("capture.kernel_ifdrops");
	counters_on = 1;
}

void capture_update_counters(Capture *c, ThreadCounters *tc)
{
	CaptureStats st;

	if (!counters_on || !c || !c->ops->live || !tc)
		return;
	capture_stats(c, &st);
	counter_set(tc, cnt_kpkts, st.kernel_packets);
	counter_set(tc, cnt_kdrops, st.kernel_drops);
	counter_set(tc, cnt_kifdrops, st.kernel_ifdrops);
}

uint32_t capture_default_snaplen(const char *iface)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	uint32_t len;

	if (fd < 0)
		return 0;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%.15s", iface);
	if (ioctl(fd, SIOCGIFMTU, &ifr) != 0) {
		close(fd);
		return 0;
	}
	close(fd);
	len = (uint32_t)ifr.ifr_mtu + 14 + 8;
	if (len < 1522)
		len = 1522;
	return len > PACKET_DATA_MAX ? PACKET_DATA_MAX : len;
}
