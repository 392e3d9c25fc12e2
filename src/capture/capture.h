/* Capture sources behind one interface (an ops table, one file per source):
 *   pcap-file  (-r)               capture/pcap-file.c: a file or a folder
 *   pcap       (--pcap[=dev])     capture/pcap-live.c: libpcap live
 *   af-packet  (--af-packet[=dev], -i dev)  capture/af-packet.c: AF_PACKET,
 *              TPACKET_V3 ring, fanout groups
 * A Capture is one thread's handle (a file reader, a socket that is one member
 * of a fanout group). next() waits at most timeout_ms for a packet and says
 * PACKET, IDLE (nothing arrived: the caller runs its idle tick) or END (no
 * more input: the file source's last file is read, or stop was asked).
 * Live sources stamp packets with wall-clock time, so the idle tick uses
 * gettimeofday(); pcap-file keeps packet time and never returns IDLE.
 *
 * Inline sources (nfq, af-packet with copy-mode ips or tap) hold each packet
 * until the engine is done with it: verdict() then sends it on or drops it.
 * Every packet next() gave gets exactly one verdict, from the thread that
 * processed it (a worker in autofp), in any order across threads. */
#ifndef CAPTURE_CAPTURE_H
#define CAPTURE_CAPTURE_H

#include "decode/packet.h"
#include "stats/counters.h"

#include <stddef.h>
#include <stdint.h>

enum capture_next { CAPTURE_END = 0, CAPTURE_PACKET = 1, CAPTURE_IDLE = 2 };

enum capture_kind { CAPTURE_PCAP_FILE = 0, CAPTURE_PCAP_LIVE, CAPTURE_AF_PACKET, CAPTURE_NFQ };

/* af-packet copy-mode: none (IDS), ips (forward unless dropped), tap
 * (forward everything; the engine stays IDS). */
enum capture_copy { COPY_NONE = 0, COPY_IPS, COPY_TAP };

/* nfq.mode: accept (the verdict ends the packet's trip through the
 * table), repeat (re-injected at the start with repeat-mark set), route
 * (handed to route-queue). */
enum nfq_mode { NFQ_ACCEPT = 0, NFQ_REPEAT, NFQ_ROUTE };

typedef struct CaptureStats {
	uint64_t packets;          /* delivered to the engine */
	uint64_t bytes;
	uint64_t kernel_packets;   /* the kernel's count (capture.kernel_packets) */
	uint64_t kernel_drops;     /* capture.kernel_drops */
	uint64_t kernel_ifdrops;   /* capture.kernel_ifdrops (libpcap) */
} CaptureStats;

/* One source's settings, from the command line and its yaml section
 * (pcap: / af-packet: lists of interfaces, with the "default" entry). */
typedef struct CaptureConfig {
	enum capture_kind kind;
	const char *path;          /* pcap-file: file or folder */
	char iface[64];            /* live: the interface */
	char *bpf;                 /* owned; NULL: no filter */
	unsigned threads;          /* capture threads (af-packet, pcap) */
	int promisc;
	uint32_t snaplen;          /* 0: from the interface MTU */
	uint64_t buffer_size;      /* pcap buffer-size; af-packet buffer-size */
	uint16_t cluster_id;       /* af-packet fanout group */
	int cluster_type;          /* PACKET_FANOUT_* */
	int defrag;                /* PACKET_FANOUT_FLAG_DEFRAG */
	int use_mmap;              /* TPACKET_V3 ring, else recvmsg() */
	uint32_t block_size;       /* ring block bytes */
	uint32_t ring_size;        /* ring frames per thread */
	uint32_t block_timeout_ms; /* a block is handed over after this long */
	int checksum;              /* -1: not set; else enum checksum_mode */
	/* af-packet inline */
	enum capture_copy copy_mode;
	char copy_iface[64];       /* where this interface's packets go on */
	const struct CaptureConfig *peer; /* copy-mode: copy-iface's settings; its
	                            * socket is read by this interface's handles */
	int paired;                /* read by its peer's handles: not opened */
	/* nfq (the nfq: section; iface: the queue number from -q, then
	 * "NFQ#<queue>", the name Suricata gives it) */
	uint16_t queue;
	enum nfq_mode nfq_mode;
	uint32_t repeat_mark, repeat_mask;
	uint16_t route_queue;
	uint32_t batchcount;       /* accept verdicts sent together (1: each) */
	int fail_open;             /* the kernel accepts what a full queue cannot take */
	int any_order;             /* verdicts come from several threads (autofp):
	                            * no batching, one sender at a time */
	/* pcap-file: the yaml's pcap-file section (--pcap-file-delete,
	 * --pcap-file-recursive and --pcap-file-continuous set it) */
	int pcap_delete;           /* delete-when-done: each file read to its end */
	int pcap_recursive;        /* a folder's sub-folders too */
	int pcap_continuous;       /* a folder watched for new files until stopped */
	uint32_t pcap_delay_s;     /* continuous: a file this long unmodified first */
	uint32_t pcap_poll_s;      /* continuous: the folder scanned this often */
} CaptureConfig;

typedef struct Capture Capture;

typedef struct CaptureOps {
	const char *name;          /* as in logs and --list-runmodes */
	int live;                  /* wall-clock time, idle ticks, drops possible */
	/* thread: 0..threads-1 (a fanout member each). 0, or -1 with err. */
	int (*open)(Capture *c, const CaptureConfig *cfg, unsigned thread, char *err,
		    size_t errlen);
	/* Fills p->data, caplen, wirelen, ts, datalink, pcap_cnt. */
	int (*next)(Capture *c, Packet *p, int timeout_ms);
	void (*stats)(Capture *c, CaptureStats *st);
	void (*close)(Capture *c);
	/* Inline sources, else NULL: the verdict on p (which next() gave):
	 * drop 0 sends it on, 1 drops it. Thread-safe. */
	void (*verdict)(Capture *c, Packet *p, int drop);
	/* Puts a reply the engine made (an IP packet: a reject's RST or ICMP
	 * unreachable) on the wire towards p's source (to_src) or destination.
	 * NULL: the sender of capture/reject.c (a raw IP socket). 0 or -1. */
	int (*inject)(Capture *c, const Packet *p, const uint8_t *ip, uint32_t len, int to_src);
} CaptureOps;

struct Capture {
	const CaptureOps *ops;
	void *priv;
	unsigned thread;
	const volatile int *stop;  /* set: next() returns END (signals) */
	const volatile int *interrupt; /* pcap-file: the unix socket's pcap-interrupt; NULL: none */
	char thread_name[40];      /* live: its workers thread, as Suricata names it
	                            * ("W#01-eth0": per interface from 1); "" */
};

extern const CaptureOps capture_pcap_file_ops;
extern const CaptureOps capture_pcap_live_ops;
extern const CaptureOps capture_af_packet_ops;
extern const CaptureOps capture_nfq_ops;

const CaptureOps *capture_ops(enum capture_kind kind);

/* Defaults, then the source's yaml section for cfg->iface (the entry whose
 * interface matches, over the "default" entry). An empty iface takes the
 * first interface of the section. -1 logged (the key named). */
int capture_config_load(CaptureConfig *cfg, unsigned ncpu);
/* The interfaces the kind's yaml section lists ("default" left out), in
 * order, at most max: what --af-packet or --pcap without a device captures
 * on, as in Suricata. The count (0: none). */
unsigned capture_section_ifaces(enum capture_kind kind, char (*names)[64], unsigned max);
void capture_config_free(CaptureConfig *cfg);

/* The trailing command-line words joined by spaces, or -F FILE's content
 * (lines from '#' on are comments). NULL with err on a read error. */
char *capture_bpf_from_args(int argc, char **argv, char *err, size_t errlen);
char *capture_bpf_from_file(const char *path, char *err, size_t errlen);

/* NULL with one line in err. */
Capture *capture_open(const CaptureOps *ops, const CaptureConfig *cfg, unsigned thread,
		      char *err, size_t errlen);
static inline int capture_next(Capture *c, Packet *p, int timeout_ms)
{
	int r = c->ops->next(c, p, timeout_ms);

	if (r == CAPTURE_PACKET && c->ops->live)
		p->cap = c;
	return r;
}
/* Inline sources: after decode, before the packets go their ways: the
 * wire packet p's verdict will wait for the pseudo packets on p->pseudo (a
 * tunnel's inner packets, a reassembled datagram), which may be processed
 * by other threads, and is drop when one of them is dropped (Suricata
 * drops the tunnel packet that carries a dropped inner packet). */
void capture_verdict_link(Packet *p);

int capture_verdict_slow(Packet *p, int ips, Packet **root);
/* The verdict on a packet the engine is done with (ips: the run is inline
 * and p->drop_reason drops it); nothing for packets of other sources.
 * Returns whether p may go back to its pool now (a linked wire packet
 * waits for its pseudo packets); *root: a wire packet whose verdict this
 * pseudo packet completed, to go back too (else NULL). */
static inline int capture_verdict(Packet *p, int ips, Packet **root)
{
	*root = NULL;
	if (!p->vroot && !p->vpending) {
		if (p->cap && p->cap->ops->verdict)
			p->cap->ops->verdict(p->cap, p, ips && p->drop_reason);
		return 1;
	}
	return capture_verdict_slow(p, ips, root);
}
/* Whether the configured sources make the run inline (IPS): nfq, and
 * af-packet with copy-mode ips on an interface. */
int capture_config_ips(const CaptureConfig *cc, unsigned n);
/* The same from the yaml alone, before the sources are set up (the run
 * policy is resolved first): nfq, or af-packet with copy-mode ips on one of
 * ifaces (n 0: the section's interfaces). */
int capture_ips_wanted(enum capture_kind kind, const char *const *ifaces, unsigned n);
void capture_stats(Capture *c, CaptureStats *st);
void capture_close(Capture *c);

/* capture.errors, and for a live source capture.kernel_packets /
 * kernel_drops / kernel_ifdrops (before counters_freeze()); then set from
 * the handle's stats into tc. pcap-file runs keep their counter set. */
void capture_register_counters(const CaptureOps *ops);
void capture_update_counters(Capture *c, ThreadCounters *tc);

/* Live sources: the interface's MTU plus Ethernet and two VLAN headers,
 * the frame size Suricata's default snaplen covers; at most PACKET_DATA_MAX.
 * 0 when the interface is unknown. */
uint32_t capture_default_snaplen(const char *iface);

/* pcap-file: the PcapSource behind c, NULL for other sources. */
struct PcapSource;
struct PcapSource *capture_pcap_source(const Capture *c);

#endif
