/* AF_PACKET capture (--af-packet[=dev], -i dev; the af-packet: yaml section).
 *
 * One socket per capture thread, all members of one fanout group
 * (cluster-id; cluster-type picks the kernel's spread: cluster_flow hashes
 * the flow symmetrically, so both directions of a flow reach one thread;
 * defrag asks the kernel to reassemble fragments before hashing). With
 * use-mmap the socket has a TPACKET_V3 ring of blocks: the kernel fills a
 * block with many frames and hands it over when full or after block-timeout
 * ms; we copy each frame into the pool packet (the pool owns packet memory)
 * and give the block back as soon as its last frame is copied.
 *
 * The socket is made with protocol 0 (it receives nothing), given its ring,
 * filter and promiscuous membership, and only then bound to the interface
 * with ETH_P_ALL: no frame of another interface slips in before the bind.
 * The kernel strips VLAN tags into the frame's metadata; they are put back
 * into the frame so that the decoder sees the wire's bytes. */
#include "capture/capture.h"
#include "util/log.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <pcap/pcap.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

/* use-mmap: no, buffer-size left out: the socket receive buffer */
#define RECV_BUF_DEFAULT (8 << 20)

typedef struct AfPacket {
	int fd;
	int ifindex;
	int datalink;
	char iface[64];
	/* mmap ring */
	uint8_t *ring;
	size_t ring_len;
	uint32_t block_size, nblocks, cur;
	struct tpacket_block_desc *bd;   /* the block being read, NULL: none */
	uint8_t *frame;                  /* next frame in bd */
	uint32_t left;                   /* frames of bd not yet read */
	/* counts */
	uint64_t packets, bytes;
	uint64_t kpkts, kdrops;          /* PACKET_STATISTICS resets on read: sums */
	int err_logged;                  /* a socket error was said; reset by data */
} AfPacket;

static int afp_err(char *err, size_t errlen, const AfPacket *a, const char *what)
{
	snprintf(err, errlen, "af-packet: %s: %s: %s", a->iface, what, strerror(errno));
	return -1;
}

/* Link type of the interface: Ethernet (and loopback, whose frames carry an
 * all-zero Ethernet header), else raw IP (tun and the like). */
static int iface_datalink(int fd, const char *iface)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%.15s", iface);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) != 0)
		return DLT_EN10MB;
	switch (ifr.ifr_hwaddr.sa_family) {
	case ARPHRD_ETHER:
	case ARPHRD_LOOPBACK:
		return DLT_EN10MB;
	default:
		return DLT_RAW;
	}
}

static int attach_bpf(AfPacket *a, const char *expr, uint32_t snaplen, char *err, size_t errlen)
{
	pcap_t *pc = pcap_open_dead(a->datalink, (int)snaplen);
	struct bpf_program prog;
	struct sock_fprog fp;
	int rc;

	if (!pc) {
		snprintf(err, errlen, "af-packet: bpf filter: out of memory");
		return -1;
	}
	if (pcap_compile(pc, &prog, expr, 1, PCAP_NETMASK_UNKNOWN) != 0) {
		snprintf(err, errlen, "bpf filter '%s': %s", expr, pcap_geterr(pc));
		pcap_close(pc);
		return -1;
	}
	fp.len = (unsigned short)prog.bf_len;
	fp.filter = (struct sock_filter *)prog.bf_insns;
	rc = setsockopt(a->fd, SOL_SOCKET, SO_ATTACH_FILTER, &fp, sizeof(fp));
	pcap_freecode(&prog);
	pcap_close(pc);
	if (rc != 0)
		return afp_err(err, errlen, a, "cannot attach the bpf filter");
	return 0;
}

static int setup_ring(AfPacket *a, const CaptureConfig *cfg, uint32_t snaplen, char *err,
		      size_t errlen)
{
	int ver = TPACKET_V3;
	long page = sysconf(_SC_PAGESIZE);
	uint32_t frame = TPACKET_ALIGN(TPACKET3_HDRLEN + snaplen + 4);
	uint64_t bytes;
	struct tpacket_req3 req;

	if (page <= 0)
		page = 4096;
	if (setsockopt(a->fd, SOL_PACKET, PACKET_VERSION, &ver, sizeof(ver)) != 0)
		return afp_err(err, errlen, a, "TPACKET_V3 is not available");
	/* a block holds at least one full frame and is a whole number of pages */
	a->block_size = cfg->block_size;
	while (a->block_size < frame)
		a->block_size *= 2;
	a->block_size = (uint32_t)((a->block_size + page - 1) / page * page);
	/* ring-size frames of the full size; small frames pack tighter */
	bytes = (uint64_t)cfg->ring_size * frame;
	a->nblocks = (uint32_t)((bytes + a->block_size - 1) / a->block_size);
	if (a->nblocks < 4)
		a->nblocks = 4;
	memset(&req, 0, sizeof(req));
	req.tp_block_size = a->block_size;
	req.tp_block_nr = a->nblocks;
	req.tp_frame_size = frame;
	req.tp_frame_nr = (a->block_size / frame) * a->nblocks;
	req.tp_retire_blk_tov = cfg->block_timeout_ms;
	if (setsockopt(a->fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req)) != 0)
		return afp_err(err, errlen, a, "cannot set up the ring (block-size, ring-size)");
	a->ring_len = (size_t)a->block_size * a->nblocks;
	a->ring = mmap(NULL, a->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, a->fd, 0);
	if (a->ring == MAP_FAILED) {
		a->ring = NULL;
		return afp_err(err, errlen, a, "cannot map the ring");
	}
	return 0;
}

static int afp_setup(AfPacket *a, const CaptureConfig *cfg, char *err, size_t errlen)
{
	uint32_t snaplen = cfg->snaplen ? cfg->snaplen : capture_default_snaplen(cfg->iface);
	struct sockaddr_ll sll;
	int one = 1;

	a->ifindex = (int)if_nametoindex(cfg->iface);
	if (!a->ifindex) {
		snprintf(err, errlen, "af-packet: %s: no such interface", cfg->iface);
		return -1;
	}
	if (!snaplen)
		snaplen = PACKET_DATA_MAX;
	if (snaplen > PACKET_DATA_MAX - 4)
		snaplen = PACKET_DATA_MAX - 4;
	a->fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (a->fd < 0)
		return afp_err(err, errlen, a, "cannot open a packet socket");
	a->datalink = iface_datalink(a->fd, cfg->iface);
	if (cfg->buffer_size || !cfg->use_mmap) {
		/* without the ring the socket buffer is all that absorbs a burst
		 * or a stall of the thread: the system's default (~200 KB, a few
		 * ms of a busy link) is raised to RECV_BUF_DEFAULT; root may pass
		 * net.core.rmem_max (SO_RCVBUFFORCE) */
		int sz = cfg->buffer_size ? (int)cfg->buffer_size : RECV_BUF_DEFAULT;

		if (setsockopt(a->fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)) != 0)
			setsockopt(a->fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	}
	if (cfg->use_mmap) {
		if (setup_ring(a, cfg, snaplen, err, errlen) != 0)
			return -1;
	} else {
		setsockopt(a->fd, SOL_PACKET, PACKET_AUXDATA, &one, sizeof(one));
		setsockopt(a->fd, SOL_SOCKET, SO_TIMESTAMP, &one, sizeof(one));
	}
	if (cfg->bpf && attach_bpf(a, cfg->bpf, snaplen, err, errlen) != 0)
		return -1;
	if (cfg->promisc) {
		struct packet_mreq mr = { .mr_ifindex = a->ifindex, .mr_type = PACKET_MR_PROMISC };

		if (setsockopt(a->fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof(mr)) != 0)
			return afp_err(err, errlen, a, "cannot set promiscuous mode");
	}
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = a->ifindex;
	if (bind(a->fd, (struct sockaddr *)&sll, sizeof(sll)) != 0)
		return afp_err(err, errlen, a, "cannot bind");
	{
		int type = cfg->cluster_type | (cfg->defrag ? PACKET_FANOUT_FLAG_DEFRAG : 0);
		uint32_t arg = cfg->cluster_id | ((uint32_t)type << 16);

		if (setsockopt(a->fd, SOL_PACKET, PACKET_FANOUT, &arg, sizeof(arg)) != 0) {
			snprintf(err, errlen, "af-packet: %s: cannot join fanout group %u (cluster-id; "
				 "another process may hold it with other settings): %s",
				 cfg->iface, cfg->cluster_id, strerror(errno));
			return -1;
		}
	}
	return 0;
}

static void afp_free(AfPacket *a)
{
	if (a->ring)
		munmap(a->ring, a->ring_len);
	if (a->fd >= 0)
		close(a->fd);
	free(a);
}

static int afp_open(Capture *c, const CaptureConfig *cfg, unsigned thread, char *err,
		    size_t errlen)
{
	AfPacket *a = calloc(1, sizeof(*a));

	(void)thread;
	if (!a) {
		snprintf(err, errlen, "af-packet: out of memory");
		return -1;
	}
	a->fd = -1;
	snprintf(a->iface, sizeof(a->iface), "%s", cfg->iface);
	if (afp_setup(a, cfg, err, errlen) != 0) {
		afp_free(a);
		return -1;
	}
	c->priv = a;
	return 0;
}

/* Copies a frame, the stripped VLAN tag put back after the MAC addresses. */
static void fill_packet(AfPacket *a, Packet *p, const uint8_t *data, uint32_t caplen,
			uint32_t wirelen, int vlan, uint16_t tpid, uint16_t tci)
{
	uint32_t room = PACKET_DATA_MAX;

	if (vlan && a->datalink == DLT_EN10MB && caplen >= 12) {
		uint16_t t = htons(tpid ? tpid : ETH_P_8021Q), v = htons(tci);

		if (caplen + 4 > room)
			caplen = room - 4;
		/* data may lie inside p->data (recvmsg reads 4 bytes in): the
		 * tail moves first, then the addresses */
		memmove(p->data + 16, data + 12, caplen - 12);
		memmove(p->data, data, 12);
		memcpy(p->data + 12, &t, 2);
		memcpy(p->data + 14, &v, 2);
		caplen += 4;
		wirelen += 4;
	} else {
		if (caplen > room)
			caplen = room;
		memmove(p->data, data, caplen);
	}
	p->caplen = caplen;
	p->wirelen = wirelen;
	p->datalink = a->datalink;
	a->packets++;
	a->bytes += caplen;
	p->in_iface = a->iface;
}

/* Waits for data. A socket error (the interface went down) is said once and
 * the capture goes on: the link may come back; the wait keeps its length so
 * that an error that stays raised does not spin. */
static void wait_data(AfPacket *a, int timeout_ms)
{
	struct pollfd pfd = { .fd = a->fd, .events = POLLIN };

	if (poll(&pfd, 1, timeout_ms) <= 0)
		return;
	if (pfd.revents & (POLLERR | POLLNVAL)) {
		int e = 0;
		socklen_t l = sizeof(e);

		getsockopt(a->fd, SOL_SOCKET, SO_ERROR, &e, &l);
		if (!a->err_logged)
			log_warning("af-packet: %s: %s; still capturing (the link may come back)",
				    a->iface, e ? strerror(e) : "socket error");
		a->err_logged = 1;
		if (!(pfd.revents & POLLIN))
			usleep((useconds_t)timeout_ms * 1000);
	} else {
		a->err_logged = 0;
	}
}

static void release_block(AfPacket *a)
{
	__atomic_store_n(&a->bd->hdr.bh1.block_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
	a->bd = NULL;
	a->cur = (a->cur + 1) % a->nblocks;
}

static int next_mmap(Capture *c, AfPacket *a, Packet *p, int timeout_ms)
{
	int waited = 0;

	for (;;) {
		struct tpacket3_hdr *h;

		if (c->stop && *c->stop)
			return CAPTURE_END;
		if (!a->bd) {
			struct tpacket_block_desc *bd =
				(void *)(a->ring + (size_t)a->cur * a->block_size);

			if (!(__atomic_load_n(&bd->hdr.bh1.block_status, __ATOMIC_ACQUIRE) &
			      TP_STATUS_USER)) {
				if (waited || timeout_ms == 0)
					return CAPTURE_IDLE;
				wait_data(a, timeout_ms);
				waited = 1;
				continue;
			}
			a->bd = bd;
			a->left = bd->hdr.bh1.num_pkts;
			a->frame = (uint8_t *)bd + bd->hdr.bh1.offset_to_first_pkt;
			if (!a->left) {
				release_block(a);
				continue;
			}
		}
		h = (struct tpacket3_hdr *)a->frame;
		fill_packet(a, p, (uint8_t *)h + h->tp_mac, h->tp_snaplen, h->tp_len,
			    (h->tp_status & TP_STATUS_VLAN_VALID) != 0,
			    (h->tp_status & TP_STATUS_VLAN_TPID_VALID) ? h->hv1.tp_vlan_tpid : 0,
			    h->hv1.tp_vlan_tci);
		p->ts.tv_sec = h->tp_sec;
		p->ts.tv_usec = h->tp_nsec / 1000;
		a->frame += h->tp_next_offset;
		if (--a->left == 0)
			release_block(a);
		return CAPTURE_PACKET;
	}
}

static int next_recv(Capture *c, AfPacket *a, Packet *p, int timeout_ms)
{
	int waited = 0;

	for (;;) {
		union {
			struct cmsghdr h;
			uint8_t buf[CMSG_SPACE(sizeof(struct tpacket_auxdata)) +
				    CMSG_SPACE(sizeof(struct timeval))];
		} ctl;
		struct iovec iov = { .iov_base = p->data + 4, .iov_len = PACKET_DATA_MAX - 4 };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
				      .msg_control = &ctl, .msg_controllen = sizeof(ctl) };
		struct tpacket_auxdata *aux = NULL;
		ssize_t n;

		if (c->stop && *c->stop)
			return CAPTURE_END;
		n = recvmsg(a->fd, &msg, MSG_DONTWAIT | MSG_TRUNC);
		if (n < 0) {
			if (errno == ENETDOWN || errno == ENXIO) {
				if (!a->err_logged)
					log_warning("af-packet: %s: %s; still capturing (the link may "
						    "come back)", a->iface, strerror(errno));
				a->err_logged = 1;
			} else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
				log_error("af-packet: %s: %s", a->iface, strerror(errno));
				return CAPTURE_END;
			}
			if (waited || timeout_ms == 0)
				return CAPTURE_IDLE;
			wait_data(a, timeout_ms);
			waited = 1;
			continue;
		}
		gettimeofday(&p->ts, NULL);
		for (struct cmsghdr *cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
			if (cm->cmsg_level == SOL_PACKET && cm->cmsg_type == PACKET_AUXDATA)
				aux = (struct tpacket_auxdata *)CMSG_DATA(cm);
			else if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SO_TIMESTAMP)
				memcpy(&p->ts, CMSG_DATA(cm), sizeof(p->ts));
		}
		{
			uint32_t cap = (uint32_t)n > PACKET_DATA_MAX - 4 ? PACKET_DATA_MAX - 4 :
				       (uint32_t)n;
			int vlan = aux && (aux->tp_status & TP_STATUS_VLAN_VALID);

			/* the frame was read 4 bytes in: room for the tag in place */
			fill_packet(a, p, p->data + 4, cap, aux ? aux->tp_len : (uint32_t)n, vlan,
				    vlan && (aux->tp_status & TP_STATUS_VLAN_TPID_VALID) ?
				    aux->tp_vlan_tpid : 0, vlan ? aux->tp_vlan_tci : 0);
		}
		return CAPTURE_PACKET;
	}
}

static int afp_next(Capture *c, Packet *p, int timeout_ms)
{
	AfPacket *a = c->priv;

	return a->ring ? next_mmap(c, a, p, timeout_ms) : next_recv(c, a, p, timeout_ms);
}

static void afp_stats(Capture *c, CaptureStats *st)
{
	AfPacket *a = c->priv;
	struct tpacket_stats_v3 ks;
	socklen_t len = sizeof(ks);

	memset(&ks, 0, sizeof(ks));
	/* tp_packets counts what reached the socket, dropped frames included */
	if (getsockopt(a->fd, SOL_PACKET, PACKET_STATISTICS, &ks, &len) == 0) {
		a->kpkts += ks.tp_packets;
		a->kdrops += ks.tp_drops;
	}
	st->packets = a->packets;
	st->bytes = a->bytes;
	st->kernel_packets = a->kpkts;
	st->kernel_drops = a->kdrops;
}

static void afp_close(Capture *c)
{
	if (c->priv)
		afp_free(c->priv);
	c->priv = NULL;
}

const CaptureOps capture_af_packet_ops = {
	.name = "af-packet",
	.live = 1,
	.open = afp_open,
	.next = afp_next,
	.stats = afp_stats,
	.close = afp_close,
};
