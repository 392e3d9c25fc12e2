/* The pcap-log output (outputs: - pcap-log: ...): the packets the engine
 * saw, written back as pcap files, as Suricata 8's pcap-log.
 *
 *   mode: normal   one series of files for the whole engine, named
 *                  <dir>/<filename>.<time> (time: ts-format sec or usec,
 *                  "1700000000" or "1700000000.20000", of the packet that
 *                  opens the file); the writers share it under a lock.
 *   mode: multi    one series per packet thread, no lock on the packet
 *                  path; filename takes %n (thread number, from 1), %i
 *                  (thread id) and %t (the time as above); without %t the
 *                  time is appended as in normal mode, so that rotated
 *                  files do not overwrite each other.
 *   limit          a file's size (plain numbers under 4096 are megabytes,
 *                  as Suricata reads them; at least 4 MiB): the next packet
 *                  opens the next file. max-files > 0 keeps a ring of that
 *                  many (per thread in multi mode), the oldest deleted.
 *   conditional    all; alerts: every packet of the flows that alerted, as
 *                  Suricata 8 writes an alerting flow's earlier packets too
 *                  (a packet alerting on its own without a flow too); tag:
 *                  the alerting packets of rules with the tag keyword and
 *                  the packets their tags cover.
 *   held-per-flow, held-memcap (ours; 1mb, 64mb)  conditional alerts holds
 *                  a flow's packets until it alerts (written then, ahead of
 *                  the alerting one) or ends (dropped): at most this much a
 *                  flow and over all flows. A packet past either is not
 *                  held, and counted: the engine log says how many at exit.
 *   use-stream-depth  TCP data past the direction's reassembly depth is not
 *                  written; honor-pass-rules: nothing of a flow (or packet) a
 *                  pass rule passed.
 *   compression: lz4  each file one LZ4 frame (<name>.lz4: `lz4 -d`
 *                  restores the pcap); lz4-level, lz4-checksum.
 * As Suricata documents, packets the engine stops looking at are not
 * written either: a bypassed flow's (encrypted data after the handshake
 * with encryption-handling: bypass) never reach the loggers. Packets the
 * engine made (a reassembled datagram) are not written: their fragments are.
 *
 * Cost: a packet that is written is one fwrite (or one LZ4 update) into a
 * buffered stream; files open and close only on rotation. Held packets
 * cost one copy; a flow's buffer grows by doubling (a few allocations a
 * flow, none per packet once it has room). */
#include "config.h"

#include "output/logger-int.h"
#include "output/output-private.h"
#include "stream/stream.h"
#include "conf/conf.h"
#include "stats/counters.h"
#include "util/log.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef HAVE_LZ4
#include <lz4frame.h>
#endif

#define PCAP_LOG_MIN_LIMIT (4ull * 1024 * 1024)
#define PCAP_LOG_DEF_LIMIT (32ull * 1024 * 1024)  /* Suricata's documented default */
#define PCAP_LOG_SNAPLEN 262144u
#define PCAP_LOG_IOBUF (256u * 1024)
#define PCAP_LOG_HELD_FLOW_DEF (1ull << 20)
#define PCAP_LOG_HELD_MEMCAP_DEF (64ull << 20)
#define PCAP_LOG_HELD_FIRST (16u * 1024)   /* a flow's first buffer */

/* One packet record as the file has it, from a packet or a held copy. */
typedef struct PcapRec {
	struct timeval ts;
	int datalink;
	uint32_t caplen, wirelen;
	const uint8_t *data;
} PcapRec;

/* A flow's packets held by conditional alerts (Flow.pcap_held): records of
 * a HeldHdr and its bytes, in arrival order. */
typedef struct HeldHdr {
	int64_t sec;
	int32_t usec;
	int32_t datalink;
	uint32_t caplen, wirelen;
} HeldHdr;

typedef struct PcapHeld {
	size_t len, cap;
	uint8_t buf[];
} PcapHeld;

/* One series of files: the current one and, with max-files, the names of
 * those kept. */
typedef struct PcapLogWriter {
	FILE *fp;
	char *iobuf;                /* fp's buffer */
	uint64_t size;              /* bytes given to the current file */
	int datalink;               /* the current file's link type */
	unsigned thread_no;         /* multi: %n */
	long tid;                   /* multi: %i */
	char **ring;                /* max_files names, oldest at ring_head */
	uint32_t ring_n, ring_head;
	char last[PATH_MAX];        /* the name the last file was given */
	unsigned dup;               /* files named as the last one, so far */
	uint64_t other_link;        /* packets of another link type, not written */
	int warned_link;
#ifdef HAVE_LZ4
	LZ4F_cctx *lz;
	uint8_t *lzbuf;             /* compressed output of one update */
	size_t lzcap;
#endif
} PcapLogWriter;

struct PcapLog {
	const PcapLogConfig *cfg;
	pthread_mutex_t lock;       /* normal mode: the shared writer */
	PcapLogWriter shared;
	unsigned threads;           /* multi: thread numbers given (atomic) */
	uint64_t held_bytes;        /* conditional alerts: held now (atomic) */
	uint64_t held_refused;      /* packets not held: a cap (atomic) */
	int c_written;              /* pcap_log.written, or -1: not registered */
};

/* ---- files ---- */

static void writer_init(PcapLogWriter *w)
{
	memset(w, 0, sizeof(*w));
	w->datalink = -1;
}

static int raw_write(PcapLogWriter *w, const void *buf, size_t len)
{
	if (len && fwrite(buf, 1, len, w->fp) != len)
		return -1;
	w->size += len;
	return 0;
}

/* Bytes of the pcap stream, compressed on their way when lz4 is on. */
static int stream_write(const PcapLogConfig *c, PcapLogWriter *w, const void *buf, size_t len)
{
#ifdef HAVE_LZ4
	if (c->lz4) {
		size_t n = LZ4F_compressUpdate(w->lz, w->lzbuf, w->lzcap, buf, len, NULL);

		if (LZ4F_isError(n))
			return -1;
		return raw_write(w, w->lzbuf, n);
	}
#else
	(void)c;
#endif
	return raw_write(w, buf, len);
}

static void file_close(const PcapLogConfig *c, PcapLogWriter *w)
{
	if (!w->fp)
		return;
#ifdef HAVE_LZ4
	if (c->lz4) {
		size_t n = LZ4F_compressEnd(w->lz, w->lzbuf, w->lzcap, NULL);

		if (!LZ4F_isError(n))
			raw_write(w, w->lzbuf, n);
	}
#else
	(void)c;
#endif
	if (fclose(w->fp) != 0)
		log_warning("pcap-log: closing a file: %s", strerror(errno));
	w->fp = NULL;
}

/* The name of the next file, from the packet that opens it. */
static int file_name(const PcapLogConfig *c, const PcapLogWriter *w, const struct timeval *ts,
		     char *out, size_t cap)
{
	char t[48], name[PATH_MAX];
	size_t n = 0;
	int has_t = 0;

	if (c->ts_usec)
		snprintf(t, sizeof(t), "%ld.%ld", (long)ts->tv_sec, (long)ts->tv_usec);
	else
		snprintf(t, sizeof(t), "%ld", (long)ts->tv_sec);
	for (const char *s = c->filename; *s && n + 32 < sizeof(name); s++) {
		if (c->mode == PCAP_LOG_MULTI && s[0] == '%' && s[1]) {
			s++;
			if (*s == 'n')
				n += (size_t)snprintf(name + n, sizeof(name) - n, "%u", w->thread_no);
			else if (*s == 'i')
				n += (size_t)snprintf(name + n, sizeof(name) - n, "%ld", w->tid);
			else if (*s == 't') {
				n += (size_t)snprintf(name + n, sizeof(name) - n, "%s", t);
				has_t = 1;
			} else {
				name[n++] = '%';
				name[n++] = *s;
			}
			continue;
		}
		name[n++] = *s;
	}
	name[n] = 0;
	n = (size_t)snprintf(out, cap, "%s/%s%s%s", c->dir, name, has_t ? "" : ".",
			     has_t ? "" : t);
	return n < cap ? 0 : -1;
}

/* The file's path: its name, made unique when a rotation falls within the
 * same second (or microsecond) as the last one (".1", ".2", ...), which would
 * otherwise overwrite the file just closed; then the compression suffix. */
static int file_path(const PcapLogConfig *c, PcapLogWriter *w, const struct timeval *ts,
		     char *out, size_t cap)
{
	char base[PATH_MAX];
	int n;

	if (file_name(c, w, ts, base, sizeof(base)) < 0)
		return -1;
	if (strcmp(base, w->last) == 0)
		w->dup++;
	else
		w->dup = 0;
	snprintf(w->last, sizeof(w->last), "%s", base);
	if (w->dup)
		n = snprintf(out, cap, "%s.%u%s", base, w->dup, c->lz4 ? ".lz4" : "");
	else
		n = snprintf(out, cap, "%s%s", base, c->lz4 ? ".lz4" : "");
	return n >= 0 && (size_t)n < cap ? 0 : -1;
}

/* max-files: the new file takes the place of the oldest, which goes. */
static void ring_add(const PcapLogConfig *c, PcapLogWriter *w, const char *path)
{
	uint32_t slot;

	if (!c->max_files)
		return;
	if (!w->ring && !(w->ring = calloc(c->max_files, sizeof(char *))))
		return;
	if (w->ring_n == c->max_files) {
		slot = w->ring_head;
		if (w->ring[slot] && unlink(w->ring[slot]) != 0 && errno != ENOENT)
			log_warning("pcap-log: cannot delete %s: %s", w->ring[slot],
				    strerror(errno));
		free(w->ring[slot]);
		w->ring_head = (w->ring_head + 1) % c->max_files;
	} else {
		slot = (w->ring_head + w->ring_n++) % c->max_files;
	}
	w->ring[slot] = strdup(path);
}

static int file_open(const PcapLogConfig *c, PcapLogWriter *w, const PcapRec *p)
{
	char path[PATH_MAX];
	struct {
		uint32_t magic;
		uint16_t major, minor;
		int32_t zone;
		uint32_t sigfigs, snaplen, linktype;
	} hdr = { 0xa1b2c3d4u, 2, 4, 0, 0, PCAP_LOG_SNAPLEN, (uint32_t)p->datalink };

	if (file_path(c, w, &p->ts, path, sizeof(path)) < 0) {
		log_warning("pcap-log: file name too long in %s", c->dir);
		return -1;
	}
	if (!(w->fp = fopen(path, "wb"))) {
		log_warning("pcap-log: cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	if (w->iobuf)
		setvbuf(w->fp, w->iobuf, _IOFBF, PCAP_LOG_IOBUF);
	w->size = 0;
	w->datalink = p->datalink;
#ifdef HAVE_LZ4
	if (c->lz4) {
		LZ4F_preferences_t pref;
		size_t n;

		memset(&pref, 0, sizeof(pref));
		pref.compressionLevel = c->lz4_level;
		pref.frameInfo.contentChecksumFlag =
			c->lz4_checksum ? LZ4F_contentChecksumEnabled : LZ4F_noContentChecksum;
		n = LZ4F_compressBegin(w->lz, w->lzbuf, w->lzcap, &pref);
		if (LZ4F_isError(n) || raw_write(w, w->lzbuf, n) < 0) {
			fclose(w->fp);
			w->fp = NULL;
			return -1;
		}
	}
#endif
	ring_add(c, w, path);
	return stream_write(c, w, &hdr, sizeof(hdr));
}

/* The writer's buffers, made once (its first packet), not per packet. */
static int writer_setup(const PcapLogConfig *c, PcapLogWriter *w)
{
	if (!w->iobuf && !(w->iobuf = malloc(PCAP_LOG_IOBUF)))
		return -1;
#ifdef HAVE_LZ4
	if (c->lz4 && !w->lz) {
		if (LZ4F_isError(LZ4F_createCompressionContext(&w->lz, LZ4F_VERSION)))
			return -1;
		LZ4F_preferences_t pref;

		/* room for the largest packet's update (what the context holds
		 * back included), the frame header and its end */
		memset(&pref, 0, sizeof(pref));
		pref.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
		w->lzcap = LZ4F_compressBound(PACKET_DATA_MAX + 16, &pref) + LZ4F_HEADER_SIZE_MAX;
		if (!(w->lzbuf = malloc(w->lzcap)))
			return -1;
	}
#else
	(void)c;
#endif
	return 0;
}

static void writer_free(const PcapLogConfig *c, PcapLogWriter *w)
{
	file_close(c, w);
	if (w->other_link)
		log_warning("pcap-log: %" PRIu64 " packets of another link type than their "
			    "file's were not written", w->other_link);
	for (uint32_t i = 0; w->ring && i < c->max_files; i++)
		free(w->ring[i]);
	free(w->ring);
	free(w->iobuf);
#ifdef HAVE_LZ4
	if (w->lz)
		LZ4F_freeCompressionContext(w->lz);
	free(w->lzbuf);
#endif
	writer_init(w);
}

/* 1 when the record went into the file */
static int writer_packet(const PcapLogConfig *c, PcapLogWriter *w, const PcapRec *p)
{
	uint32_t rec[4];
	uint32_t len = p->caplen > PCAP_LOG_SNAPLEN ? PCAP_LOG_SNAPLEN : p->caplen;

	if (!w->iobuf && writer_setup(c, w) < 0)
		return 0;
	/* a file has one link type: a packet of another (a folder of mixed
	 * captures) is counted, not written into a file tshark misreads */
	if (w->fp && w->datalink != p->datalink) {
		w->other_link++;
		return 0;
	}
	if (w->fp && w->size + sizeof(rec) + len > c->limit)
		file_close(c, w);
	if (!w->fp && file_open(c, w, p) < 0)
		return 0;
	rec[0] = (uint32_t)p->ts.tv_sec;
	rec[1] = (uint32_t)p->ts.tv_usec;
	rec[2] = len;
	rec[3] = p->wirelen > len ? p->wirelen : len;
	if (stream_write(c, w, rec, sizeof(rec)) < 0 || stream_write(c, w, p->data, len) < 0) {
		log_warning("pcap-log: write failed: %s; the file is closed", strerror(errno));
		file_close(c, w);
		return 0;
	}
	return 1;
}

static void rec_of(const Packet *p, PcapRec *r)
{
	r->ts = p->ts;
	r->datalink = p->datalink;
	r->caplen = p->caplen;
	r->wirelen = p->wirelen;
	r->data = p->data;
}

/* ---- which packets ---- */

static int alert_has_tag(const OutputPacketCtx *pc)
{
	for (uint32_t i = 0; i < pc->nalerts; i++)
		if (detect_sig_has_tag(pc->alerts[i].s))
			return 1;
	return 0;
}

static int wanted(const PcapLogConfig *c, const OutputThread *ot, const OutputPacketCtx *pc)
{
	const Packet *p = pc->p;
	const Flow *f = pc->f;

	if (p->flags & PKT_PSEUDO)
		return 0;
	if (c->honor_pass_rules) {
		int pass = 0;
		uint8_t reject;

		if (f && f->rule_pass && f->rule_pass != FLOW_FW_ACCEPT)
			return 0;
		if (pc->detected && ot->dt)
			detect_packet_verdict(ot->dt, &pass, &reject);
		if (pass)
			return 0;
	}
	if (c->use_stream_depth && f && PKT_IS_TCP(p) && p->payload_len &&
	    !(p->stream_flags & STREAM_PKT_DEPTH_REACHED) &&
	    (stream_dir_flags(f, (p->flags & PKT_TOCLIENT) ? 1 : 0) & STREAM_DIR_DEPTH_REACHED))
		return 0;
	switch (c->conditional) {
	case PCAP_LOG_ALERTS:
		/* the alert logger ran first: f->alerted covers this packet's;
		 * a flow that has not alerted yet keeps its packets (2: held) */
		if (pc->nalerts || (f && f->alerted))
			return 1;
		return f ? 2 : 0;
	case PCAP_LOG_TAG:
		return pc->detected && ot->dt && (detect_packet_tagged(ot->dt) || alert_has_tag(pc));
	default:
		return 1;
	}
}

/* conditional alerts: a copy of p at the end of f's held packets, when
 * both caps allow. */
static void held_add(struct PcapLog *pl, Flow *f, const Packet *p)
{
	const PcapLogConfig *c = pl->cfg;
	uint32_t len = p->caplen > PCAP_LOG_SNAPLEN ? PCAP_LOG_SNAPLEN : p->caplen;
	size_t need = sizeof(HeldHdr) + len;
	PcapHeld *h = f->pcap_held;
	size_t used = h ? h->len : 0, cap = h ? h->cap : 0;
	HeldHdr hh;

	if (used + need > c->held_per_flow)
		goto refused;
	if (used + need > cap) {
		size_t ncap = cap ? cap * 2 : PCAP_LOG_HELD_FIRST;
		PcapHeld *g;

		while (ncap < used + need)
			ncap *= 2;
		if (ncap > c->held_per_flow)
			ncap = c->held_per_flow;
		if (__atomic_add_fetch(&pl->held_bytes, ncap - cap, __ATOMIC_RELAXED) >
		    c->held_memcap) {
			__atomic_sub_fetch(&pl->held_bytes, ncap - cap, __ATOMIC_RELAXED);
			goto refused;
		}
		if (!(g = realloc(h, sizeof(*g) + ncap))) {
			__atomic_sub_fetch(&pl->held_bytes, ncap - cap, __ATOMIC_RELAXED);
			goto refused;
		}
		g->len = used;
		g->cap = ncap;
		f->pcap_held = h = g;
	}
	hh.sec = p->ts.tv_sec;
	hh.usec = (int32_t)p->ts.tv_usec;
	hh.datalink = p->datalink;
	hh.caplen = len;
	hh.wirelen = p->wirelen;
	memcpy(h->buf + h->len, &hh, sizeof(hh));
	memcpy(h->buf + h->len + sizeof(hh), p->data, len);
	h->len += need;
	return;
refused:
	__atomic_add_fetch(&pl->held_refused, 1, __ATOMIC_RELAXED);
}

static void held_free(struct PcapLog *pl, Flow *f)
{
	PcapHeld *h = f->pcap_held;

	if (!h)
		return;
	__atomic_sub_fetch(&pl->held_bytes, h->cap, __ATOMIC_RELAXED);
	free(h);
	f->pcap_held = NULL;
}

/* The writer of ot's thread: multi mode's own series, made on its first
 * packet; NULL in normal mode (the shared one, under the lock). */
static PcapLogWriter *thread_writer(struct PcapLog *pl, OutputThread *ot, int *fail)
{
	PcapLogWriter *w = ot->pcap_log;

	*fail = 0;
	if (pl->cfg->mode != PCAP_LOG_MULTI || w)
		return w;
	if (!(w = malloc(sizeof(*w)))) {
		*fail = 1;
		return NULL;
	}
	writer_init(w);
	w->thread_no = __atomic_add_fetch(&pl->threads, 1, __ATOMIC_RELAXED);
	w->tid = (long)syscall(SYS_gettid);
	ot->pcap_log = w;
	return w;
}

/* f's held packets (none: NULL) then p (NULL: none) into the files. */
static void write_out(struct PcapLog *pl, OutputThread *ot, Flow *f, const Packet *p)
{
	PcapHeld *h = f ? f->pcap_held : NULL;
	PcapLogWriter *w;
	PcapRec r;
	uint64_t n = 0;
	int fail;

	if (!(w = thread_writer(pl, ot, &fail)) && fail)
		return;
	if (!w) {
		pthread_mutex_lock(&pl->lock);
		w = &pl->shared;
	}
	for (size_t off = 0; h && off < h->len; off += sizeof(HeldHdr) + r.caplen) {
		HeldHdr hh;

		memcpy(&hh, h->buf + off, sizeof(hh));
		r.ts.tv_sec = (time_t)hh.sec;
		r.ts.tv_usec = hh.usec;
		r.datalink = hh.datalink;
		r.caplen = hh.caplen;
		r.wirelen = hh.wirelen;
		r.data = h->buf + off + sizeof(hh);
		n += (uint64_t)writer_packet(pl->cfg, w, &r);
	}
	if (p) {
		rec_of(p, &r);
		n += (uint64_t)writer_packet(pl->cfg, w, &r);
	}
	if (w == &pl->shared)
		pthread_mutex_unlock(&pl->lock);
	/* Suricata 8's count of the packets the files took */
	if (n && ot->tc && pl->c_written >= 0)
		counter_add(ot->tc, (counter_id)pl->c_written, n);
	if (h)
		held_free(pl, f);
}

static void pcap_log_packet(OutputThread *ot, const OutputPacketCtx *pc)
{
	struct PcapLog *pl = ot->o ? ot->o->pcap_log : NULL;
	int want;

	if (!pl || !(want = wanted(pl->cfg, ot, pc)))
		return;
	if (want == 2)
		held_add(pl, pc->f, pc->p);
	else
		write_out(pl, ot, pc->f, pc->p);
}

/* A flow that alerted at its end (the last inspection of its stream)
 * has its held packets written; any other's go. */
static void pcap_log_flow_end(OutputThread *ot, Flow *f, Packet *last,
			      enum flow_end_reason why)
{
	struct PcapLog *pl = ot->o ? ot->o->pcap_log : NULL;

	(void)last;
	(void)why;
	if (!pl || !f->pcap_held)
		return;
	if (f->alerted && !(pl->cfg->honor_pass_rules && f->rule_pass &&
			    f->rule_pass != FLOW_FW_ACCEPT))
		write_out(pl, ot, f, NULL);
	else
		held_free(pl, f);
}

void pcap_log_thread_fini(OutputThread *ot)
{
	if (!ot->pcap_log)
		return;
	writer_free(ot->o ? &ot->o->cfg.pcap_log : NULL, ot->pcap_log);
	free(ot->pcap_log);
	ot->pcap_log = NULL;
}

const OutputLogger output_logger_pcap = { "pcap-log", pcap_log_packet, pcap_log_flow_end };

/* ---- configuration ---- */

/* pcap_log.written, as Suricata 8 has it when pcap-log is on: registered
 * with the engine's counters, before the outputs open (the unix-socket
 * runmode opens them per file, once the set is fixed), from the yaml. */
void pcap_log_register_counters(void)
{
	ConfNode *outputs = conf_get_node("outputs");

	for (ConfNode *item = outputs ? outputs->child : NULL; item; item = item->next) {
		char path[160];
		int on = 0;

		if (!item->child || strcmp(item->child->name, "pcap-log") != 0)
			continue;
		snprintf(path, sizeof(path), "outputs.%s.pcap-log.enabled", item->name);
		if (conf_get(path) && conf_get_bool(path, &on) >= 0 && on) {
			counter_register("pcap_log.written");
			return;
		}
	}
}

static int cfg_bool(const char *prefix, const char *key, int *out, char *err, size_t errlen)
{
	char path[320];

	snprintf(path, sizeof(path), "%s.%s", prefix, key);
	if (conf_get(path) && conf_get_bool(path, out) < 0) {
		snprintf(err, errlen, "%s: invalid boolean '%s'", path, conf_get(path));
		return -1;
	}
	return 0;
}

static int cfg_choice(const char *prefix, const char *key, const char *const *names, int *out,
		      char *err, size_t errlen)
{
	char path[320];
	const char *v;

	snprintf(path, sizeof(path), "%s.%s", prefix, key);
	if (!(v = conf_get(path)) || !*v)
		return 0;
	for (int i = 0; names[i]; i++)
		if (strcmp(v, names[i]) == 0) {
			*out = i;
			return 0;
		}
	snprintf(err, errlen, "%s: invalid value '%s'", path, v);
	return -1;
}

static int cfg_limits(PcapLogConfig *c, const char *prefix, char *err, size_t errlen)
{
	char path[320];
	const char *v;
	int64_t n;

	c->limit = PCAP_LOG_DEF_LIMIT;
	snprintf(path, sizeof(path), "%s.limit", prefix);
	if ((v = conf_get(path)) && *v) {
		if (parse_size(v, &c->limit) < 0) {
			snprintf(err, errlen, "%s: invalid size '%s'", path, v);
			return -1;
		}
		/* as Suricata: a bare small number is a size in megabytes */
		if (c->limit < 4096)
			c->limit *= 1024 * 1024;
		if (c->limit < PCAP_LOG_MIN_LIMIT) {
			snprintf(err, errlen, "%s: '%s' is less than the minimum of %llu bytes",
				 path, v, PCAP_LOG_MIN_LIMIT);
			return -1;
		}
	}
	snprintf(path, sizeof(path), "%s.max-files", prefix);
	if ((v = conf_get(path)) && *v) {
		if (conf_get_int(path, &n) < 0 || n < 0 || n > UINT32_MAX) {
			snprintf(err, errlen, "%s: invalid number '%s'", path, v);
			return -1;
		}
		c->max_files = (uint32_t)n;
	}
	c->held_per_flow = PCAP_LOG_HELD_FLOW_DEF;
	c->held_memcap = PCAP_LOG_HELD_MEMCAP_DEF;
	snprintf(path, sizeof(path), "%s.held-per-flow", prefix);
	if ((v = conf_get(path)) && *v && (parse_size(v, &c->held_per_flow) < 0 ||
					   c->held_per_flow > UINT32_MAX)) {
		snprintf(err, errlen, "%s: invalid size '%s'", path, v);
		return -1;
	}
	snprintf(path, sizeof(path), "%s.held-memcap", prefix);
	if ((v = conf_get(path)) && *v && parse_size(v, &c->held_memcap) < 0) {
		snprintf(err, errlen, "%s: invalid size '%s'", path, v);
		return -1;
	}
	snprintf(path, sizeof(path), "%s.lz4-level", prefix);
	if ((v = conf_get(path)) && *v) {
		if (conf_get_int(path, &n) < 0 || n < 0 || n > 16) {
			snprintf(err, errlen, "%s: expected 0 to 16, not '%s'", path, v);
			return -1;
		}
		c->lz4_level = (int)n;
	}
	return 0;
}

int pcap_log_config_load(OutputConfig *cfg, const char *prefix, const char *log_dir,
			 char *err, size_t errlen)
{
	static const char *const modes[] = { "normal", "multi", NULL };
	static const char *const conds[] = { "all", "alerts", "tag", NULL };
	static const char *const tsf[] = { "sec", "usec", NULL };
	static const char *const comps[] = { "none", "lz4", NULL };
	PcapLogConfig *c = &cfg->pcap_log;
	char path[320];
	const char *v;
	int n;

	memset(c, 0, sizeof(*c));
	if (cfg_bool(prefix, "enabled", &c->enabled, err, errlen) < 0)
		return -1;
	if (!c->enabled)
		return 0;
	snprintf(path, sizeof(path), "%s.mode", prefix);
	if ((v = conf_get(path)) && strcmp(v, "sguil") == 0) {
		snprintf(err, errlen, "%s: sguil mode was removed in Suricata 7; use normal or "
			 "multi", path);
		return -1;
	}
	if (cfg_choice(prefix, "mode", modes, &c->mode, err, errlen) < 0 ||
	    cfg_choice(prefix, "conditional", conds, &c->conditional, err, errlen) < 0 ||
	    cfg_choice(prefix, "ts-format", tsf, &c->ts_usec, err, errlen) < 0 ||
	    cfg_choice(prefix, "compression", comps, &c->lz4, err, errlen) < 0 ||
	    cfg_bool(prefix, "use-stream-depth", &c->use_stream_depth, err, errlen) < 0 ||
	    cfg_bool(prefix, "honor-pass-rules", &c->honor_pass_rules, err, errlen) < 0 ||
	    cfg_bool(prefix, "lz4-checksum", &c->lz4_checksum, err, errlen) < 0 ||
	    cfg_limits(c, prefix, err, errlen) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s.filename", prefix);
	v = conf_get(path);
	snprintf(c->filename, sizeof(c->filename), "%s", v && *v ? v : "log.pcap");
	snprintf(path, sizeof(path), "%s.dir", prefix);
	v = conf_get(path);
	if (!v || !*v)
		n = snprintf(c->dir, sizeof(c->dir), "%s", log_dir);
	else if (v[0] == '/')
		n = snprintf(c->dir, sizeof(c->dir), "%s", v);
	else
		n = snprintf(c->dir, sizeof(c->dir), "%s/%s", log_dir, v);
	if (n < 0 || (size_t)n >= sizeof(c->dir)) {
		snprintf(err, errlen, "%s: path too long", path);
		return -1;
	}
	return 0;
}

int pcap_log_open(Outputs *o, char *err, size_t errlen)
{
	const PcapLogConfig *c = &o->cfg.pcap_log;
	struct PcapLog *pl;

	if (!c->enabled)
		return 0;
#ifndef HAVE_LZ4
	if (c->lz4) {
		snprintf(err, errlen, "pcap-log: compression lz4 needs liblz4: this build has none "
			 "(install liblz4-dev and run configure again)");
		return -1;
	}
#endif
	if (access(c->dir, W_OK) != 0) {
		snprintf(err, errlen, "pcap-log: cannot write in %s: %s", c->dir, strerror(errno));
		return -1;
	}
	if (!(pl = calloc(1, sizeof(*pl)))) {
		snprintf(err, errlen, "pcap-log: out of memory");
		return -1;
	}
	pl->cfg = c;
	/* registered at start (pcap_log_register_counters); a test that opens
	 * outputs without the engine's counters has none */
	pl->c_written = counter_lookup("pcap_log.written");
	pthread_mutex_init(&pl->lock, NULL);
	writer_init(&pl->shared);
	o->pcap_log = pl;
	return 0;
}

void pcap_log_close(Outputs *o)
{
	struct PcapLog *pl = o->pcap_log;

	if (!pl)
		return;
	if (pl->held_refused)
		log_warning("pcap-log: %" PRIu64 " packets of flows that had not alerted were not "
			    "held (held-per-flow %" PRIu64 ", held-memcap %" PRIu64 "): an alerting "
			    "flow's file lacks them", pl->held_refused, pl->cfg->held_per_flow,
			    pl->cfg->held_memcap);
	writer_free(pl->cfg, &pl->shared);
	pthread_mutex_destroy(&pl->lock);
	free(pl);
	o->pcap_log = NULL;
}
