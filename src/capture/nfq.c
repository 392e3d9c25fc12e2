/* NFQUEUE capture (-q N; the nfq: yaml section): the inline source of a
 * router or host whose iptables/nft rules send packets to a netfilter queue.
 *
 * One handle per queue (-q may be repeated, or give a range A:B). The kernel
 * holds each packet until it gets our verdict: next() copies the packet
 * (the whole of it: NFQNL_COPY_PACKET) into a pool packet with its queue id
 * in cap_id, and verdict() answers once the engine is done with it:
 *   mode accept  NF_ACCEPT, or NF_DROP
 *   mode repeat  NF_REPEAT with repeat-mark set under repeat-mask (the
 *                ruleset must skip marked packets), or NF_DROP
 *   mode route   NF_QUEUE to route-queue (another program), or NF_DROP
 * batchcount N > 1: accepts are sent N at a time (one batch verdict covers
 * every id up to the last), or when the queue goes quiet; a drop first sends
 * the accepts before it. That is only right when verdicts come in queue
 * order: one thread per queue (single, workers). In autofp workers finish
 * packets out of order, so each verdict goes alone, under a lock, because
 * libnetfilter_queue's handle is not made for concurrent senders.
 * fail-open: when the queue is full the kernel accepts instead of dropping
 * (NFQA_CFG_F_FAIL_OPEN). Without libnetfilter_queue (configure), -q stops
 * with a message naming the package. */
#include "config.h"

#include "capture/capture.h"
#include "util/log.h"

#include <stdio.h>
#include <string.h>

#ifdef HAVE_NFQUEUE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/netfilter.h>
#include <libnetfilter_queue/libnetfilter_queue.h>
#include <pcap/pcap.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

/* a queued packet's netlink message: the packet and its attributes */
#define NFQ_RECV_BUF (PACKET_DATA_MAX + 4096)
/* the kernel's queue length (packets waiting for a verdict) */
#define NFQ_QUEUE_MAXLEN 4096
#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

typedef struct Nfq {
	struct nfq_handle *h;
	struct nfq_q_handle *qh;
	int fd;
	char name[64];                 /* NFQ#<queue>, as in_iface */
	CaptureConfig cfg;             /* mode, marks, batchcount (bpf not kept) */
	uint8_t *buf;
	Packet *cur;                   /* the packet the callback fills */
	int got;
	/* batch of accepts not yet sent (one verdict thread only) */
	uint32_t pend_n, pend_id;
	int locked;                    /* several verdict threads: one at a time */
	pthread_mutex_t lock;
	uint64_t packets, bytes, accepted, dropped, enobufs, verdict_err, extra;
	int err_logged;
} Nfq;

/* netlink delivered a queued packet: into the pool packet next() holds */
static int nfq_cb(struct nfq_q_handle *qh, struct nfgenmsg *msg, struct nfq_data *nfa, void *arg)
{
	Nfq *q = arg;
	struct nfqnl_msg_packet_hdr *ph = nfq_get_msg_packet_hdr(nfa);
	unsigned char *data;
	int len = nfq_get_payload(nfa, &data);
	Packet *p = q->cur;
	uint32_t id;

	(void)msg;
	if (!ph)
		return 0;
	id = ntohl(ph->packet_id);
	/* a second packet in the same read (the kernel sends one per message,
	 * but the API allows more): it is let through rather than held */
	if (!p || q->got || len < 0) {
		nfq_set_verdict(qh, id, NF_ACCEPT, 0, NULL);
		q->extra++;
		return 0;
	}
	if ((uint32_t)len > PACKET_DATA_MAX)
		len = PACKET_DATA_MAX;
	memcpy(p->data, data, (size_t)len);
	p->caplen = (uint32_t)len;
	p->wirelen = (uint32_t)len;
	p->datalink = DLT_RAW;
	if (nfq_get_timestamp(nfa, &p->ts) != 0 || !p->ts.tv_sec)
		gettimeofday(&p->ts, NULL);
	p->in_iface = q->name;
	p->cap_id = id;
	p->cap_mark = nfq_get_nfmark(nfa);
	q->got = 1;
	q->packets++;
	q->bytes += (uint32_t)len;
	return 0;
}

static int nfq_fail(char *err, size_t errlen, const Nfq *q, const char *what)
{
	snprintf(err, errlen, "nfq: queue %s: %s: %s", q->name, what, strerror(errno));
	return -1;
}

static void nfq_free(Nfq *q)
{
	if (q->qh)
		nfq_destroy_queue(q->qh);
	if (q->h)
		nfq_close(q->h);
	if (q->locked)
		pthread_mutex_destroy(&q->lock);
	free(q->buf);
	free(q);
}

static int nfq_setup(Nfq *q, const CaptureConfig *cfg, char *err, size_t errlen)
{
	int one = 1, rcv = 8 << 20;

	if (!(q->buf = malloc(NFQ_RECV_BUF)))
		return nfq_fail(err, errlen, q, "out of memory");
	if (!(q->h = nfq_open()))
		return nfq_fail(err, errlen, q, "cannot open netfilter queue netlink (root, "
				"CAP_NET_ADMIN?)");
	q->qh = nfq_create_queue(q->h, cfg->queue, nfq_cb, q);
	if (!q->qh)
		return nfq_fail(err, errlen, q, "cannot bind to the queue (another program "
				"holds it?)");
	if (nfq_set_mode(q->qh, NFQNL_COPY_PACKET, PACKET_DATA_MAX) < 0)
		return nfq_fail(err, errlen, q, "cannot ask for whole packets");
	if (nfq_set_queue_maxlen(q->qh, NFQ_QUEUE_MAXLEN) < 0)
		log_warning("nfq: queue %s: cannot set the queue length to %u", q->name,
			    NFQ_QUEUE_MAXLEN);
	if (cfg->fail_open &&
	    nfq_set_queue_flags(q->qh, NFQA_CFG_F_FAIL_OPEN, NFQA_CFG_F_FAIL_OPEN) < 0)
		return nfq_fail(err, errlen, q, "fail-open: the kernel refused it");
	q->fd = nfq_fd(q->h);
	/* a burst waits in the socket buffer, not in an ENOBUFS */
	if (setsockopt(q->fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcv, sizeof(rcv)) != 0)
		setsockopt(q->fd, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
	setsockopt(q->fd, SOL_NETLINK, NETLINK_NO_ENOBUFS, &one, sizeof(one));
	return 0;
}

static int nfq_open_cb(Capture *c, const CaptureConfig *cfg, unsigned thread, char *err,
		       size_t errlen)
{
	Nfq *q = calloc(1, sizeof(*q));

	(void)thread;
	if (!q) {
		snprintf(err, errlen, "nfq: out of memory");
		return -1;
	}
	q->cfg = *cfg;
	q->cfg.bpf = NULL;
	snprintf(q->name, sizeof(q->name), "%s", cfg->iface);
	if (cfg->any_order) {
		if (cfg->batchcount > 1)
			log_info("nfq: queue %s: batchcount %u needs verdicts in queue order "
				 "(runmode workers or single): each verdict goes alone",
				 q->name, cfg->batchcount);
		q->cfg.batchcount = 1;
		q->locked = pthread_mutex_init(&q->lock, NULL) == 0;
	}
	if (cfg->bpf)
		log_warning("nfq: queue %s: a bpf filter does not apply to a queue (the "
			    "iptables/nft rule chooses the packets)", q->name);
	if (nfq_setup(q, cfg, err, errlen) != 0) {
		nfq_free(q);
		return -1;
	}
	c->priv = q;
	return 0;
}

/* The accepts held back by batchcount, in one batch verdict. */
static void flush_batch(Nfq *q)
{
	if (!q->pend_n)
		return;
	if (nfq_set_verdict_batch(q->qh, q->pend_id, NF_ACCEPT) < 0)
		q->verdict_err++;
	q->pend_n = 0;
}

static int nfq_next(Capture *c, Packet *p, int timeout_ms)
{
	Nfq *q = c->priv;
	int waited = 0;

	for (;;) {
		ssize_t n;

		if (c->stop && *c->stop)
			return CAPTURE_END;
		n = recv(q->fd, q->buf, NFQ_RECV_BUF, MSG_DONTWAIT);
		if (n > 0) {
			q->cur = p;
			q->got = 0;
			nfq_handle_packet(q->h, (char *)q->buf, (int)n);
			q->cur = NULL;
			if (q->got)
				return CAPTURE_PACKET;
			continue;
		}
		if (n < 0 && errno == ENOBUFS) {
			q->enobufs++;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
			if (!q->err_logged)
				log_warning("nfq: queue %s: %s", q->name, strerror(errno));
			q->err_logged = 1;
		}
		if (waited || timeout_ms == 0)
			return CAPTURE_IDLE;
		/* quiet: what is held back goes now, not after the next packet */
		flush_batch(q);
		{
			struct pollfd pfd = { .fd = q->fd, .events = POLLIN };

			poll(&pfd, 1, timeout_ms);
		}
		waited = 1;
	}
}

static void nfq_verdict_cb(Capture *c, Packet *p, int drop)
{
	Nfq *q = c->priv;
	const CaptureConfig *cfg = &q->cfg;
	uint32_t v = NF_ACCEPT, mark = 0;
	int rc, set_mark = 0;
	/* a packet the engine rewrote (replace) goes on with its new bytes:
	 * it takes a verdict of its own, as a batch verdict carries none */
	int mod = !drop && (p->flags & PKT_MODIFIED);
	uint32_t dlen = mod ? p->caplen : 0;
	const unsigned char *dat = mod ? p->data : NULL;

	if (drop) {
		v = NF_DROP;
	} else if (cfg->nfq_mode == NFQ_REPEAT) {
		v = NF_REPEAT;
		set_mark = 1;
	} else if (cfg->nfq_mode == NFQ_ROUTE) {
		v = NF_QUEUE | ((uint32_t)cfg->route_queue << 16);
	} else if (cfg->batchcount > 1 && !mod) {
		q->pend_id = p->cap_id;
		q->accepted++;
		if (++q->pend_n >= cfg->batchcount)
			flush_batch(q);
		return;
	}
	if (q->locked)
		pthread_mutex_lock(&q->lock);
	if (drop || mod)
		flush_batch(q);
	if (set_mark) {
		/* the packet's other mark bits are kept (Suricata's rule) */
		mark = (p->cap_mark & ~cfg->repeat_mask) | (cfg->repeat_mark & cfg->repeat_mask);
		rc = nfq_set_verdict2(q->qh, p->cap_id, v, mark, dlen, dat);
	} else {
		rc = nfq_set_verdict(q->qh, p->cap_id, v, dlen, dat);
	}
	if (rc < 0)
		q->verdict_err++;
	if (drop)
		q->dropped++;
	else
		q->accepted++;
	if (q->locked)
		pthread_mutex_unlock(&q->lock);
}

static void nfq_stats(Capture *c, CaptureStats *st)
{
	Nfq *q = c->priv;

	st->packets = q->packets;
	st->bytes = q->bytes;
	st->kernel_packets = q->packets + q->enobufs;
	st->kernel_drops = q->enobufs;
}

static void nfq_close_cb(Capture *c)
{
	Nfq *q = c->priv;

	if (!q)
		return;
	flush_batch(q);
	log_info("nfq: queue %s: %llu packets, %llu accepted, %llu dropped, %llu verdicts "
		 "failed", q->name, (unsigned long long)q->packets,
		 (unsigned long long)q->accepted, (unsigned long long)q->dropped,
		 (unsigned long long)q->verdict_err);
	nfq_free(q);
	c->priv = NULL;
}

const CaptureOps capture_nfq_ops = {
	.name = "nfq",
	.live = 1,
	.open = nfq_open_cb,
	.next = nfq_next,
	.stats = nfq_stats,
	.close = nfq_close_cb,
	.verdict = nfq_verdict_cb,
	.inject = NULL,
};

#else /* !HAVE_NFQUEUE */

static int nfq_open_cb(Capture *c, const CaptureConfig *cfg, unsigned thread, char *err,
		       size_t errlen)
{
	(void)c;
	(void)cfg;
	(void)thread;
	snprintf(err, errlen, "nfq: this build has no NFQUEUE support (install "
		 "libnetfilter-queue-dev and run configure again)");
	return -1;
}

static int nfq_next(Capture *c, Packet *p, int timeout_ms)
{
	(void)c;
	(void)p;
	(void)timeout_ms;
	return CAPTURE_END;
}

static void nfq_stats(Capture *c, CaptureStats *st)
{
	(void)c;
	(void)st;
}

static void nfq_close_cb(Capture *c)
{
	(void)c;
}

const CaptureOps capture_nfq_ops = {
	.name = "nfq",
	.live = 1,
	.open = nfq_open_cb,
	.next = nfq_next,
	.stats = nfq_stats,
	.close = nfq_close_cb,
};

#endif
