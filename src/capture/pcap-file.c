#include "capture/pcap-file.h"
#include "capture/capture.h"
#include "capture/pcap-records.h"
#include "decode/decode.h"
#include "stats/counters.h"
#include "util/log.h"

#include <dirent.h>
#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct PcapSource {
	char **files;        /* absolute or as given; owned */
	size_t n_files;
	size_t next_file;    /* index of the next file to open */
	int is_dir;
	pcap_t *pcap;        /* current file */
	char *iobuf;         /* stdio buffer of the current file (open_offline) */
	PcapRecords *recs;   /* its records read by block; NULL: libpcap reads */
	struct bpf_program prog; /* its filter, compiled for its link type */
	int has_prog;
	int datalink;
	const char *current;
	uint64_t file_packets;
	PcapSourceStats stats;
	ThreadCounters *tc;  /* the reader's block, made on the first packet */
	uint64_t errors_counted;
	char *bpf;           /* filter applied to every file; NULL: none */
	int delete_when_done;/* unlink each file read to its end */
	int64_t last_mtime_ms; /* modification time of the last file read to its end */
	PcapFileOptions opt;
	char *dir;           /* continuous: the folder watched; owned */
	int64_t seen_ns;     /* continuous: modification time of the newest file taken */
	char *seen_name;     /* ... and its path (ties), owned; NULL: none yet */
};

/* capture.errors (Suricata's "errors reported while reading capture module"):
 * every file or frame the source could not deliver whole. */
static counter_id cnt_errors;
static int counters_registered;

void pcap_source_register_counters(void)
{
	cnt_errors = counter_register("capture.errors");
	counters_registered = 1;
}

/* The source runs in one thread (the reader), so it owns one counter block;
 * what happened before it existed (folder listing) is added on creation. */
static void count_errors(PcapSource *src)
{
	if (!counters_registered)
		return;
	if (!src->tc && !(src->tc = thread_counters_new()))
		return;
	counter_add(src->tc, cnt_errors, src->stats.errors - src->errors_counted);
	src->errors_counted = src->stats.errors;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_file(PcapSource *src, size_t *cap, const char *path)
{
	if (src->n_files == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		char **nf = realloc(src->files, ncap * sizeof(*nf));

		if (!nf)
			return -1;
		src->files = nf;
		*cap = ncap;
	}
	if (!(src->files[src->n_files] = strdup(path)))
		return -1;
	src->n_files++;
	return 0;
}

/* Suricata's bound on pcap-file.recursive */
#define PCAP_DIR_DEPTH_MAX 255

/* Regular files of a folder (and, recursive, of its sub-folders), appended
 * to src->files; the caller sorts them by path: Suricata's pcap-file folder
 * mode reads them one after the other, oldest name first. Hidden files are
 * skipped. */
static int list_folder(PcapSource *src, const char *dir, unsigned depth, size_t *cap,
		       char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d) {
		snprintf(err, errlen, "pcap-file: %s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		char path[4096];
		struct stat st;

		if (de->d_name[0] == '.')
			continue;	/* hidden files: by convention, not read and not reported */
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		/* Anything else not read is said, once per entry: a folder is not
		 * descended into (Suricata reads sub-folders only with
		 * pcap-file.recursive), a dangling link or a device is skipped. */
		if (stat(path, &st) != 0) {
			int e = errno;

			log_warning("pcap-file: %s: skipped: %s", path,
				    lstat(path, &st) == 0 && S_ISLNK(st.st_mode) ?
				    "a dangling symbolic link" : strerror(e));
			src->stats.errors++;
			continue;
		}
		if (S_ISDIR(st.st_mode) && src->opt.recursive && depth < PCAP_DIR_DEPTH_MAX) {
			if (list_folder(src, path, depth + 1, cap, err, errlen) != 0) {
				closedir(d);
				return -1;
			}
			continue;
		}
		if (!S_ISREG(st.st_mode)) {
			log_warning("pcap-file: %s: skipped: %s", path, !S_ISDIR(st.st_mode) ?
				    "not a regular file" : src->opt.recursive ?
				    "a folder deeper than 255 levels" :
				    "a folder (sub-folders are read with --pcap-file-recursive)");
			src->stats.errors++;
			continue;
		}
		if (add_file(src, cap, path) != 0)
			goto oom;
	}
	closedir(d);
	return 0;
oom:
	closedir(d);
	snprintf(err, errlen, "pcap-file: %s: out of memory", dir);
	return -1;
}

typedef struct NewFile {
	char *path;
	int64_t mtime_ns;
} NewFile;

static int newfile_cmp(const void *a, const void *b)
{
	const NewFile *x = a, *y = b;

	if (x->mtime_ns != y->mtime_ns)
		return x->mtime_ns < y->mtime_ns ? -1 : 1;
	return strcmp(x->path, y->path);
}

static int64_t mtime_ns(const struct stat *st)
{
	return (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
}

/* The files read are forgotten but the last (pcap_source_current names
 * it): a folder watched for days holds only what is still to read. */
static void forget_read(PcapSource *src)
{
	size_t done = src->next_file ? src->next_file - 1 : 0;

	if (!done)
		return;
	for (size_t i = 0; i < done; i++)
		free(src->files[i]);
	memmove(src->files, src->files + done, (src->n_files - done) * sizeof(*src->files));
	src->n_files -= done;
	src->next_file -= done;
}

int pcap_source_rescan(PcapSource *src)
{
	DIR *d;
	struct dirent *de;
	NewFile *nf = NULL;
	size_t n = 0, cap = 0, fcap;
	struct timespec now;
	int added = 0;

	if (!src->opt.continuous || !(d = opendir(src->dir)))
		return 0;
	clock_gettime(CLOCK_REALTIME, &now);
	while ((de = readdir(d)) != NULL) {
		char path[4096];
		struct stat st;
		int64_t m;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", src->dir, de->d_name);
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		m = mtime_ns(&st);
		/* taken already (by modification time, then path), or maybe
		 * still being written */
		if (src->seen_name && (m < src->seen_ns ||
				       (m == src->seen_ns && strcmp(path, src->seen_name) <= 0)))
			continue;
		if ((int64_t)now.tv_sec - st.st_mtim.tv_sec < (int64_t)src->opt.delay_s)
			continue;
		if (n == cap) {
			NewFile *g = realloc(nf, (cap = cap ? cap * 2 : 16) * sizeof(*nf));

			if (!g)
				break;
			nf = g;
		}
		if (!(nf[n].path = strdup(path)))
			break;
		nf[n++].mtime_ns = m;
	}
	closedir(d);
	if (n) {
		qsort(nf, n, sizeof(*nf), newfile_cmp);
		forget_read(src);
		fcap = src->n_files;
		for (size_t i = 0; i < n; i++) {
			if (add_file(src, &fcap, nf[i].path) != 0) {
				log_warning("pcap-file: %s: out of memory: new files left for the "
					    "next scan", src->dir);
				break;
			}
			free(src->seen_name);
			src->seen_name = strdup(nf[i].path);
			src->seen_ns = nf[i].mtime_ns;
			if (!src->seen_name)
				break;
			added++;
		}
	}
	for (size_t i = 0; i < n; i++)
		free(nf[i].path);
	free(nf);
	return added;
}

int pcap_source_continuous(const PcapSource *src)
{
	return src->opt.continuous;
}

PcapSource *pcap_source_open(const char *path, char *err, size_t errlen)
{
	return pcap_source_open_opts(path, NULL, err, errlen);
}

PcapSource *pcap_source_open_opts(const char *path, const PcapFileOptions *o, char *err,
				  size_t errlen)
{
	PcapSource *src = calloc(1, sizeof(*src));
	struct stat st;
	size_t cap = 0;

	if (!src) {
		snprintf(err, errlen, "pcap-file: out of memory");
		return NULL;
	}
	if (o)
		src->opt = *o;
	src->delete_when_done = src->opt.delete_when_done;
	if (stat(path, &st) != 0) {
		snprintf(err, errlen, "pcap-file: %s: %s", path, strerror(errno));
		goto fail;
	}
	if (src->opt.continuous && !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "pcap-file: %s: continuous mode (--pcap-file-continuous) "
			 "watches a folder; this is not one", path);
		goto fail;
	}
	if (S_ISDIR(st.st_mode) && src->opt.continuous) {
		src->is_dir = 1;
		if (!(src->dir = strdup(path))) {
			snprintf(err, errlen, "pcap-file: out of memory");
			goto fail;
		}
		pcap_source_rescan(src);
		log_info("pcap-file: watching %s for new files (every %u s, each unmodified "
			 "for %u s first)", path, (unsigned)src->opt.poll_s,
			 (unsigned)src->opt.delay_s);
		return src;
	}
	if (S_ISDIR(st.st_mode)) {
		src->is_dir = 1;
		if (list_folder(src, path, 0, &cap, err, errlen) != 0)
			goto fail;
		if (src->n_files)	/* qsort's base must not be NULL, even for 0 items */
			qsort(src->files, src->n_files, sizeof(*src->files), name_cmp);
		if (src->n_files == 0)
			log_warning("pcap-file: %s: the folder holds no capture files: "
				    "nothing to read", path);
		return src;
	}
	src->files = calloc(1, sizeof(*src->files));
	if (!src->files || !(src->files[0] = strdup(path))) {
		snprintf(err, errlen, "pcap-file: out of memory");
		goto fail;
	}
	src->n_files = 1;
	/* A single file that libpcap cannot open at all is an error for the run,
	 * not a warning: there is nothing good to keep. Check it now, but only a
	 * regular file: a FIFO (`-r <(zcat x.pcap.gz)`, a unix-socket pcap-file
	 * fed by a pipe) would lose its header to the check, and its writer
	 * would see the pipe close. */
	if (S_ISREG(st.st_mode)) {
		char perr[PCAP_ERRBUF_SIZE];
		pcap_t *pc = pcap_open_offline(path, perr);

		if (!pc) {
			snprintf(err, errlen, "pcap-file: %s: %s", path, perr);
			goto fail;
		}
		pcap_close(pc);
	}
	return src;
fail:
	pcap_source_close(src);
	return NULL;
}

/* stdio's default buffer is one file-system block (4 KiB), so libpcap's
 * fread() cost a read() system call every few packets; a large buffer turns
 * that into one call per megabyte. glibc ignores setvbuf()'s size unless it is
 * given the buffer, so the source owns one, shared by its files (one is open
 * at a time) and freed after the last pcap_close(). Anything unusual ("-" for
 * stdin, no buffer, a file we cannot fopen or that libpcap rejects) goes
 * through pcap_open_offline() so that its error messages stay libpcap's. */
#define PCAP_READ_BUF (1u << 20)

static pcap_t *open_offline(PcapSource *src, const char *path, char *perr)
{
	if (!src->iobuf)
		src->iobuf = malloc(PCAP_READ_BUF);
	if (src->iobuf && strcmp(path, "-") != 0) {
		FILE *fp = fopen(path, "rb");

		if (fp) {
			pcap_t *pc;

			if (setvbuf(fp, src->iobuf, _IOFBF, PCAP_READ_BUF) == 0 &&
			    (pc = pcap_fopen_offline(fp, perr)) != NULL)
				return pc;     /* pcap_close() fcloses fp */
			fclose(fp);
		}
	}
	return pcap_open_offline(path, perr);
}

static void free_filter(PcapSource *src)
{
	if (src->has_prog)
		pcap_freecode(&src->prog);
	src->has_prog = 0;
}

static void close_current(PcapSource *src)
{
	if (!src->pcap)
		return;
	pcap_records_free(src->recs);
	src->recs = NULL;
	pcap_close(src->pcap);
	src->pcap = NULL;
	free_filter(src);
}

/* Compiles the filter for this file's link type (pcap_compile needs the
 * handle) and installs it; the source keeps the program for the block
 * reader. 0, or -1 with the reason in perr. */
static int set_filter(PcapSource *src, pcap_t *pc, const char *expr, char *perr)
{
	if (pcap_compile(pc, &src->prog, expr, 1, PCAP_NETMASK_UNKNOWN) != 0) {
		snprintf(perr, PCAP_ERRBUF_SIZE, "%s", pcap_geterr(pc));
		return -1;
	}
	src->has_prog = 1;
	if (pcap_setfilter(pc, &src->prog) != 0) {
		snprintf(perr, PCAP_ERRBUF_SIZE, "%s", pcap_geterr(pc));
		free_filter(src);
		return -1;
	}
	return 0;
}

int pcap_source_set_bpf(PcapSource *src, const char *expr, char *err, size_t errlen)
{
	pcap_t *pc = pcap_open_dead(DLT_EN10MB, PACKET_DATA_MAX);
	struct bpf_program prog;

	/* a bad expression is an error for the run, found before any file */
	if (!pc) {
		snprintf(err, errlen, "pcap-file: bpf filter: out of memory");
		return -1;
	}
	if (pcap_compile(pc, &prog, expr, 1, PCAP_NETMASK_UNKNOWN) != 0) {
		snprintf(err, errlen, "bpf filter '%s': %s", expr, pcap_geterr(pc));
		pcap_close(pc);
		return -1;
	}
	pcap_freecode(&prog);
	pcap_close(pc);
	free(src->bpf);
	src->bpf = strdup(expr);
	if (!src->bpf) {
		snprintf(err, errlen, "pcap-file: out of memory");
		return -1;
	}
	return 0;
}

/* Opens the next readable file; 0 when none is left. */
static int open_next(PcapSource *src)
{
	char perr[PCAP_ERRBUF_SIZE];

	while (src->next_file < src->n_files) {
		const char *f = src->files[src->next_file++];
		pcap_t *pc = open_offline(src, f, perr);

		if (!pc) {
			log_warning("pcap-file: %s: skipped: %s", f, perr);
			src->stats.errors++;
			continue;
		}
		/* A link type we cannot decode is still read: its packets are counted
		 * (decoder.pkts, decoder.invalid) so that nothing vanishes silently. */
		if (!decode_datalink_supported(pcap_datalink(pc)))
			log_warning("pcap-file: %s: link type %d (%s) is not decoded; its packets "
				    "are counted as invalid", f, pcap_datalink(pc),
				    pcap_datalink_val_to_name(pcap_datalink(pc)) ?: "unknown");
		if (src->bpf && set_filter(src, pc, src->bpf, perr) != 0) {
			log_warning("pcap-file: %s: skipped: bpf filter: %s", f, perr);
			pcap_close(pc);
			src->stats.errors++;
			continue;
		}
		src->pcap = pc;
		src->recs = pcap_records_open(pc);
		if (src->recs && src->has_prog)
			pcap_records_set_filter(src->recs, &src->prog);
		src->datalink = pcap_datalink(pc);
		src->current = f;
		src->file_packets = 0;
		src->stats.files++;
		log_info("pcap-file: reading %s", f);
		return 1;
	}
	return 0;
}

/* The current file was read to its end (the unix socket's
 * pcap-last-processed: its modification time; delete-when-done). */
static void file_done(PcapSource *src)
{
	struct stat st;

	if (!src->current)
		return;
	if (stat(src->current, &st) == 0)
		src->last_mtime_ms = (int64_t)st.st_mtim.tv_sec * 1000 +
				     st.st_mtim.tv_nsec / 1000000;
	if (src->delete_when_done && unlink(src->current) != 0)
		log_warning("pcap-file: %s: delete-when-done: %s", src->current, strerror(errno));
}

void pcap_source_set_delete(PcapSource *src, int on)
{
	src->delete_when_done = on;
}

int64_t pcap_source_last_mtime_ms(const PcapSource *src)
{
	return src->last_mtime_ms;
}

int pcap_source_next(PcapSource *src, Packet *p)
{
	for (;;) {
		struct pcap_pkthdr *h;
		const u_char *data;
		int rc;

		if (!src->pcap && !open_next(src)) {
			count_errors(src);
			return 0;
		}
		rc = src->recs ? pcap_records_next(src->recs, src->pcap, &h, &data) :
				 pcap_next_ex(src->pcap, &h, &data);
		if (rc == 1) {
			uint32_t len = h->caplen;

			if (len > PACKET_DATA_MAX) {
				/* A packet buffer holds PACKET_DATA_MAX bytes (a 64 KiB IP
				 * packet and its link headers); a larger frame (a snaplen of
				 * 256 KiB allows them: jumbo or offloaded GSO frames) is
				 * inspected as far as it fits, and counted. */
				if (!src->stats.oversize)
					log_warning("pcap-file: %s: packet %llu: frame of %u bytes is "
						    "over the %u bytes a packet holds: inspected up "
						    "to %u bytes, counted in capture.errors (warned "
						    "once)", src->current,
						    (unsigned long long)src->file_packets + 1, len,
						    (unsigned)PACKET_DATA_MAX, (unsigned)PACKET_DATA_MAX);
				src->stats.oversize++;
				src->stats.errors++;
				len = PACKET_DATA_MAX;
			}
			memcpy(p->data, data, len);
			p->caplen = len;
			p->wirelen = h->len;
			p->ts = h->ts;
			p->datalink = src->datalink;
			src->file_packets++;
			src->stats.packets++;
			src->stats.bytes += len;
			p->pcap_cnt = src->stats.packets;
			if (src->stats.errors != src->errors_counted || (!src->tc && counters_registered))
				count_errors(src);
			return 1;
		}
		if (rc == -1) {
			/* Truncated or corrupt: keep what was read, say where it stopped. */
			log_warning("pcap-file: %s: %s (after %llu packets)", src->current,
				    pcap_geterr(src->pcap), (unsigned long long)src->file_packets);
			src->stats.errors++;
		}
		close_current(src);
		file_done(src);
	}
}

const PcapSourceStats *pcap_source_stats(const PcapSource *src)
{
	return &src->stats;
}

const char *pcap_source_current(const PcapSource *src)
{
	return src->current;
}

void pcap_source_close(PcapSource *src)
{
	if (!src)
		return;
	close_current(src);
	free(src->iobuf);    /* after pcap_close(): the FILE used it until then */
	for (size_t i = 0; i < src->n_files; i++)
		free(src->files[i]);
	free(src->files);
	free(src->bpf);
	free(src->dir);
	free(src->seen_name);
	free(src);
}

/* ---- the capture interface ---- */

static int file_open(Capture *c, const CaptureConfig *cfg, unsigned thread, char *err,
		     size_t errlen)
{
	PcapSource *src;

	PcapFileOptions o = {
		.recursive = cfg->pcap_recursive,
		.continuous = cfg->pcap_continuous,
		.delay_s = cfg->pcap_delay_s,
		.poll_s = cfg->pcap_poll_s,
		.delete_when_done = cfg->pcap_delete,
	};

	(void)thread;
	src = pcap_source_open_opts(cfg->path, &o, err, errlen);
	if (!src)
		return -1;
	if (cfg->bpf && pcap_source_set_bpf(src, cfg->bpf, err, errlen) != 0) {
		pcap_source_close(src);
		return -1;
	}
	c->priv = src;
	return 0;
}

static int file_stopped(const Capture *c)
{
	return (c->stop && *c->stop) || (c->interrupt && *c->interrupt);
}

/* Files never wait: no IDLE. A stop request (SIGINT) ends the run early,
 * as Suricata's does; what was read is flushed and logged. A watched
 * folder (continuous) waits here for its next file, a scan every
 * poll-interval, until the stop request: packet time stands still
 * meanwhile, as in Suricata. */
static int file_next(Capture *c, Packet *p, int timeout_ms)
{
	PcapSource *src = c->priv;

	(void)timeout_ms;
	for (;;) {
		if (file_stopped(c))
			return CAPTURE_END;
		if (pcap_source_next(src, p))
			return CAPTURE_PACKET;
		if (!pcap_source_continuous(src))
			return CAPTURE_END;
		/* 100 ms steps: a stop request is seen within one */
		for (uint32_t t = 0; t < src->opt.poll_s * 10u && !file_stopped(c); t++) {
			if (t == 0 && pcap_source_rescan(src))
				break;
			usleep(100000);
		}
	}
}

static void file_stats(Capture *c, CaptureStats *st)
{
	const PcapSourceStats *s = pcap_source_stats(c->priv);

	st->packets = s->packets;
	st->bytes = s->bytes;
}

static void file_close(Capture *c)
{
	pcap_source_close(c->priv);
	c->priv = NULL;
}

const CaptureOps capture_pcap_file_ops = {
	.name = "pcap-file",
	.live = 0,
	.open = file_open,
	.next = file_next,
	.stats = file_stats,
	.close = file_close,
};
