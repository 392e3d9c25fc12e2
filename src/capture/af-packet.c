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
 * into the frame so that the decoder sees the wire's bytes.
 *
 * copy-mode ips / tap (IPS between an interface pair, each listing the other
 * as copy-iface): one handle reads both interfaces of the pair (cfg->peer:
 * the other's settings), so that both directions of a flow reach one
 * thread and its flow table: thread i is the i-th member of each
 * interface's fanout group, and the kernel's symmetric flow hash picks the
 * same member on both. A packet read on one side is sent out of the other
 * (through that side's own socket) once the engine is done with it, unless
 * (ips) its verdict is drop. Both sockets ignore outgoing frames
 * (PACKET_IGNORE_OUTGOING, and the fanout flag of the same name, else next()
 * skips them), else what one thread sends would be read again: a loop.
 * A frame is sent as it was read: a truncated one (snaplen) or one larger
 * than the MTU (offloads: GRO, TSO) cannot be, and is counted (the exit
 * line); turn the offloads off on both interfaces, as for Suricata. */
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

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING 23
#endif
#ifndef PACKET_FANOUT_FLAG_IGNORE_OUTGOING
#define PACKET_FANOUT_FLAG_IGNORE_OUTGOING 0x4000
#endif

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
	/* copy-mode */
	enum capture_copy copy_mode;
	struct AfPacket *peer;           /* the other side of the pair; NULL: none */
	int turn;                        /* which side next() reads first */
	uint64_t fwd, fwd_trunc, fwd_err; /* sent out of peer; atomics: verdicts
	                                  * come from workers in autofp */
	int fwd_err_logged;
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
	a->copy_mode = cfg->copy_mode;
	if (cfg->copy_mode != COPY_NONE &&
	    setsockopt(a->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one)) != 0)
		return afp_err(err, errlen, a, "copy-mode needs PACKET_IGNORE_OUTGOING (Linux 4.20)");
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
		/* copy-mode sends frames as read: a datagram the kernel
		 * reassembled for the fanout hash would be larger than the MTU
		 * and could not go out, so fragments come one by one (the
		 * engine reassembles them itself; the last one carries the
		 * datagram's verdict) */
		int type = cfg->cluster_type |
			   (cfg->defrag && cfg->copy_mode == COPY_NONE ? PACKET_FANOUT_FLAG_DEFRAG : 0);
		uint32_t arg = cfg->cluster_id | ((uint32_t)type << 16);
		int rc;

		/* a fanout group delivers through its own hook, which ignores
		 * outgoing frames only with this flag (Linux 6.7); older kernels
		 * refuse it, and next() skips them instead */
		if (a->copy_mode != COPY_NONE) {
			uint32_t io = arg | ((uint32_t)PACKET_FANOUT_FLAG_IGNORE_OUTGOING << 16);

			rc = setsockopt(a->fd, SOL_PACKET, PACKET_FANOUT, &io, sizeof(io));
			if (rc != 0 && errno == EINVAL)
				rc = setsockopt(a->fd, SOL_PACKET, PACKET_FANOUT, &arg, sizeof(arg));
		} else {
			rc = setsockopt(a->fd, SOL_PACKET, PACKET_FANOUT, &arg, sizeof(arg));
		}
		if (rc != 0) {
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
	if (a->peer)
		afp_free(a->peer);
	if (a->ring)
		munmap(a->ring, a->ring_len);
	if (a->fd >= 0)
		close(a->fd);
	free(a);
}

static AfPacket *afp_new(const CaptureConfig *cfg, char *err, size_t errlen)
{
	AfPacket *a = calloc(1, sizeof(*a));

	if (!a) {
		snprintf(err, errlen, "af-packet: out of memory");
		return NULL;
	}
	a->fd = -1;
	snprintf(a->iface, sizeof(a->iface), "%s", cfg->iface);
	if (afp_setup(a, cfg, err, errlen) != 0) {
		afp_free(a);
		return NULL;
	}
	return a;
}

static int afp_open(Capture *c, const CaptureConfig *cfg, unsigned thread, char *err,
		    size_t errlen)
{
	AfPacket *a = afp_new(cfg, err, errlen);

	(void)thread;
	if (!a)
		return -1;
	/* the pair's other side joins its own fanout group as this thread's
	 * member of it (setup.c gives both the same thread count) */
	if (cfg->copy_mode != COPY_NONE && cfg->peer) {
		CaptureConfig pc = *cfg->peer;

		pc.copy_mode = cfg->copy_mode;
		if (!(a->peer = afp_new(&pc, err, errlen))) {
			afp_free(a);
			return -1;
		}
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
		/* copy-mode: what was sent out of this interface is not input */
		if (a->copy_mode != COPY_NONE &&
		    ((struct sockaddr_ll *)((uint8_t *)h + TPACKET_ALIGN(sizeof(*h))))->sll_pkttype ==
		    PACKET_OUTGOING) {
			a->frame += h->tp_next_offset;
			if (--a->left == 0)
				release_block(a);
			continue;
		}
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
		struct sockaddr_ll from;
		struct msghdr msg = { .msg_name = &from, .msg_namelen = sizeof(from),
				      .msg_iov = &iov, .msg_iovlen = 1,
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
		if (a->copy_mode != COPY_NONE && from.sll_pkttype == PACKET_OUTGOING)
			continue;
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

static int side_next(Capture *c, AfPacket *a, Packet *p, int timeout_ms)
{
	return a->ring ? next_mmap(c, a, p, timeout_ms) : next_recv(c, a, p, timeout_ms);
}

/* A pair: the sides take turns going first, so that a busy one does not
 * starve the other; with nothing ready, one wait on both. */
static int afp_next(Capture *c, Packet *p, int timeout_ms)
{
	AfPacket *a = c->priv, *s[2];
	int r;

	if (!a->peer)
		return side_next(c, a, p, timeout_ms);
	s[0] = a->turn ? a->peer : a;
	s[1] = a->turn ? a : a->peer;
	a->turn ^= 1;
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < 2; i++)
			if ((r = side_next(c, s[i], p, 0)) != CAPTURE_IDLE)
				return r;
		if (pass || timeout_ms == 0)
			break;
		{
			struct pollfd pfd[2] = { { .fd = a->fd, .events = POLLIN },
						 { .fd = a->peer->fd, .events = POLLIN } };

			poll(pfd, 2, timeout_ms);
		}
	}
	return CAPTURE_IDLE;
}

/* One socket's counts, added to st. */
static void side_stats(AfPacket *a, CaptureStats *st)
{
	struct tpacket_stats_v3 ks;
	socklen_t len = sizeof(ks);

	memset(&ks, 0, sizeof(ks));
	/* tp_packets counts what reached the socket, dropped frames included */
	if (getsockopt(a->fd, SOL_PACKET, PACKET_STATISTICS, &ks, &len) == 0) {
		a->kpkts += ks.tp_packets;
		a->kdrops += ks.tp_drops;
	}
	st->packets += a->packets;
	st->bytes += a->bytes;
	st->kernel_packets += a->kpkts;
	st->kernel_drops += a->kdrops;
}

/* A pair counts as one handle: both sides' figures. */
static void afp_stats(Capture *c, CaptureStats *st)
{
	AfPacket *a = c->priv;

	st->packets = st->bytes = st->kernel_packets = st->kernel_drops = 0;
	side_stats(a, st);
	if (a->peer)
		side_stats(a->peer, st);
}

/* The side of the pair p was read on (its in_iface is that side's name). */
static AfPacket *side_of(AfPacket *a, const Packet *p)
{
	return a->peer && p->in_iface == a->peer->iface ? a->peer : a;
}

/* copy-mode: the packet goes out of the pair's other side unless an IPS
 * drops it. */
static void afp_verdict(Capture *c, Packet *p, int drop)
{
	AfPacket *a = c->priv, *in, *out;

	if (!a->peer || (drop && a->copy_mode == COPY_IPS))
		return;
	in = side_of(a, p);
	out = in == a ? a->peer : a;
	if (p->caplen < p->wirelen) {
		__atomic_fetch_add(&in->fwd_trunc, 1, __ATOMIC_RELAXED);
		return;
	}
	if (send(out->fd, p->data, p->caplen, 0) < 0) {
		/* said once: a burst of oversized frames would flood the log */
		if (!__atomic_exchange_n(&in->fwd_err_logged, 1, __ATOMIC_RELAXED))
			log_warning("af-packet: %s: cannot send a %u-byte frame out of %s: %s "
				    "(offloads such as GRO make frames larger than the MTU: "
				    "turn them off)", in->iface, p->caplen, out->iface,
				    strerror(errno));
		__atomic_fetch_add(&in->fwd_err, 1, __ATOMIC_RELAXED);
		return;
	}
	__atomic_fetch_add(&in->fwd, 1, __ATOMIC_RELAXED);
}

/* A reply towards p's source goes back out of the interface p came in on,
 * to the MAC it came from; towards its destination, out of the pair's other
 * side (or the same interface without copy-mode) to the MAC it was going
 * to. */
static int afp_inject(Capture *c, const Packet *p, const uint8_t *ip, uint32_t len, int to_src)
{
	AfPacket *a = c->priv, *in = side_of(a, p);
	AfPacket *out = to_src || !a->peer ? in : in == a ? a->peer : a;
	uint8_t frame[18 + 256];
	uint32_t hl = 0;

	if (len > 256)
		return -1;
	if (in->datalink == DLT_EN10MB) {
		uint16_t et = htons((ip[0] >> 4) == 6 ? ETH_P_IPV6 : ETH_P_IP);

		if (!(p->flags & PKT_HAS_ETH))
			return -1;
		memcpy(frame, to_src ? p->eth_src : p->eth_dst, 6);
		memcpy(frame + 6, to_src ? p->eth_dst : p->eth_src, 6);
		hl = 12;
		/* on a trunk the reply carries the packet's (outer) VLAN */
		if (p->vlan_count) {
			uint16_t t = htons(ETH_P_8021Q), v = htons(p->vlan_id[0]);

			memcpy(frame + 12, &t, 2);
			memcpy(frame + 14, &v, 2);
			hl = 16;
		}
		memcpy(frame + hl, &et, 2);
		hl += 2;
	}
	memcpy(frame + hl, ip, len);
	return send(out->fd, frame, hl + len, 0) < 0 ? -1 : 0;
}

static void afp_close(Capture *c)
{
	AfPacket *a = c->priv;

	for (AfPacket *s = a; s && a->peer; s = s == a ? a->peer : NULL)
		log_info("af-packet: %s: copy-mode: %llu packets sent on to %s, %llu truncated, "
			 "%llu failed", s->iface, (unsigned long long)s->fwd,
			 s == a ? a->peer->iface : a->iface, (unsigned long long)s->fwd_trunc,
			 (unsigned long long)s->fwd_err);
	if (a)
		afp_free(a);
	c->priv = NULL;
}

const CaptureOps capture_af_packet_ops = {
	.name = "af-packet",
	.live = 1,
	.open = afp_open,
	.next = afp_next,
	.stats = afp_stats,
	.close = afp_close,
	.verdict = afp_verdict,
	.inject = afp_inject,
};
