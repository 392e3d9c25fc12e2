/* libpcap live capture (--pcap[=dev]; the pcap: yaml section). The handle is
 * non-blocking: next() polls its descriptor for at most timeout_ms, so the
 * capture thread gets its idle ticks on a quiet link. With threads > 1 every
 * handle joins one PACKET_FANOUT hash group (libpcap's Linux handle is an
 * AF_PACKET socket), so that a flow stays on one thread. */
#include "capture/capture.h"
#include "util/log.h"

#include <errno.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <pcap/pcap.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct PcapLive {
	pcap_t *pc;
	int fd;
	int datalink;
	uint64_t packets, bytes;
	char iface[64];
} PcapLive;

static int live_fail(PcapLive *l, char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "pcap: %s: %s: %s", l->iface, what, pcap_geterr(l->pc));
	return -1;
}

static int live_setup(PcapLive *l, const CaptureConfig *cfg, char *err, size_t errlen)
{
	char perr[PCAP_ERRBUF_SIZE] = "";
	uint32_t snaplen = cfg->snaplen ? cfg->snaplen : capture_default_snaplen(cfg->iface);
	int rc;

	l->pc = pcap_create(cfg->iface, perr);
	if (!l->pc) {
		snprintf(err, errlen, "pcap: %s: %s", cfg->iface, perr);
		return -1;
	}
	if (!snaplen)
		snaplen = PACKET_DATA_MAX;
	pcap_set_snaplen(l->pc, (int)snaplen);
	pcap_set_promisc(l->pc, cfg->promisc);
	/* packets are handed over within 10 ms, or when a buffer block fills */
	pcap_set_timeout(l->pc, 10);
	if (cfg->buffer_size)
		pcap_set_buffer_size(l->pc, (int)cfg->buffer_size);
	rc = pcap_activate(l->pc);
	if (rc < 0)
		return live_fail(l, err, errlen, "cannot activate");
	if (rc > 0)
		log_warning("pcap: %s: %s", cfg->iface, pcap_geterr(l->pc));
	if (cfg->bpf) {
		struct bpf_program prog;

		if (pcap_compile(l->pc, &prog, cfg->bpf, 1, PCAP_NETMASK_UNKNOWN) != 0) {
			snprintf(err, errlen, "bpf filter '%s': %s", cfg->bpf, pcap_geterr(l->pc));
			return -1;
		}
		rc = pcap_setfilter(l->pc, &prog);
		pcap_freecode(&prog);
		if (rc != 0)
			return live_fail(l, err, errlen, "cannot set the bpf filter");
	}
	if (pcap_setnonblock(l->pc, 1, perr) != 0) {
		snprintf(err, errlen, "pcap: %s: %s", cfg->iface, perr);
		return -1;
	}
	l->fd = pcap_get_selectable_fd(l->pc);
	l->datalink = pcap_datalink(l->pc);
	if (cfg->threads > 1) {
		/* one group per engine and interface: the pid keeps two engines
		 * on one interface apart */
		int grp = (int)((getpid() ^ if_nametoindex(cfg->iface)) & 0xffff);
		uint32_t arg = (uint32_t)grp |
			       (uint32_t)(PACKET_FANOUT_HASH | PACKET_FANOUT_FLAG_DEFRAG) << 16;

		if (setsockopt(l->fd, SOL_PACKET, PACKET_FANOUT, &arg, sizeof(arg)) != 0) {
			snprintf(err, errlen, "pcap: %s: threads %u: cannot join a fanout group: %s",
				 cfg->iface, cfg->threads, strerror(errno));
			return -1;
		}
	}
	return 0;
}

static int live_open(Capture *c, const CaptureConfig *cfg, unsigned thread, char *err,
		     size_t errlen)
{
	PcapLive *l = calloc(1, sizeof(*l));

	(void)thread;
	if (!l) {
		snprintf(err, errlen, "pcap: out of memory");
		return -1;
	}
	snprintf(l->iface, sizeof(l->iface), "%s", cfg->iface);
	l->fd = -1;
	if (live_setup(l, cfg, err, errlen) != 0) {
		if (l->pc)
			pcap_close(l->pc);
		free(l);
		return -1;
	}
	c->priv = l;
	return 0;
}

static int live_next(Capture *c, Packet *p, int timeout_ms)
{
	PcapLive *l = c->priv;
	int waited = 0;

	for (;;) {
		struct pcap_pkthdr *h;
		const u_char *data;
		int rc;

		if (c->stop && *c->stop)
			return CAPTURE_END;
		rc = pcap_next_ex(l->pc, &h, &data);
		if (rc == 1) {
			uint32_t len = h->caplen > PACKET_DATA_MAX ? PACKET_DATA_MAX : h->caplen;

			memcpy(p->data, data, len);
			p->caplen = len;
			p->wirelen = h->len;
			p->ts = h->ts;
			p->datalink = l->datalink;
			l->packets++;
			l->bytes += len;
			p->in_iface = l->iface;
			return CAPTURE_PACKET;
		}
		if (rc < 0) {
			log_error("pcap: %s: %s", l->iface, pcap_geterr(l->pc));
			return CAPTURE_END;
		}
		if (waited || timeout_ms == 0)
			return CAPTURE_IDLE;
		if (l->fd >= 0) {
			struct pollfd pfd = { .fd = l->fd, .events = POLLIN };

			poll(&pfd, 1, timeout_ms);
		} else {
			usleep((useconds_t)timeout_ms * 1000);
		}
		waited = 1;
	}
}

static void live_stats(Capture *c, CaptureStats *st)
{
	PcapLive *l = c->priv;
	struct pcap_stat ps;

	st->packets = l->packets;
	st->bytes = l->bytes;
	if (pcap_stats(l->pc, &ps) == 0) {
		st->kernel_packets = ps.ps_recv;
		st->kernel_drops = ps.ps_drop;
		st->kernel_ifdrops = ps.ps_ifdrop;
	}
}

static void live_close(Capture *c)
{
	PcapLive *l = c->priv;

	if (!l)
		return;
	pcap_close(l->pc);
	free(l);
	c->priv = NULL;
}

const CaptureOps capture_pcap_live_ops = {
	.name = "pcap",
	.live = 1,
	.open = live_open,
	.next = live_next,
	.stats = live_stats,
	.close = live_close,
};
