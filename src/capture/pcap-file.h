/* pcap-file capture: one file, or every file of a folder in name order; pcap and
 * pcapng opened by libpcap, the records of a pcap 2.4 file read by block
 * (pcap-records.h), libpcap deciding any record that is not plain. A corrupt or
 * truncated file ends with a warning and what was read before the damage is
 * kept. */
#ifndef CAPTURE_PCAP_FILE_H
#define CAPTURE_PCAP_FILE_H

#include "decode/packet.h"

#include <stdint.h>
#include <stddef.h>

typedef struct PcapSource PcapSource;

typedef struct PcapSourceStats {
	uint64_t files;      /* files opened and read (fully or up to damage) */
	uint64_t packets;
	uint64_t bytes;      /* captured bytes */
	uint64_t errors;     /* files or folder entries skipped, files cut short,
			      * frames cut to fit (capture.errors) */
	uint64_t oversize;   /* frames over PACKET_DATA_MAX, inspected cut */
} PcapSourceStats;

/* Registers capture.errors (before counters_freeze()). Without it the source
 * counts only in its PcapSourceStats (unit tests). */
void pcap_source_register_counters(void);

/* path: a capture file or a folder. On error returns NULL with one line in err. */
PcapSource *pcap_source_open(const char *path, char *err, size_t errlen);

/* A folder's options (yaml pcap-file:, as Suricata's). */
typedef struct PcapFileOptions {
	int recursive;       /* sub-folders too (up to 255 deep), in path order */
	/* The folder is watched: once its files are read, it is scanned every
	 * poll_s seconds for files modified after the last one read (Suricata
	 * goes by modification time too: a file moved in with an older one is
	 * not seen) and unmodified for delay_s, read in modification-time
	 * order, until the run is stopped. */
	int continuous;
	uint32_t delay_s, poll_s;
	int delete_when_done;
} PcapFileOptions;

/* pcap_source_open with options; continuous wants a folder. */
PcapSource *pcap_source_open_opts(const char *path, const PcapFileOptions *o, char *err,
				  size_t errlen);
/* continuous: scans the folder for new files ready to read. Returns how
 * many were added (pcap_source_next reads them), 0 when none. */
int pcap_source_rescan(PcapSource *src);
int pcap_source_continuous(const PcapSource *src);

/* Filters every file with the BPF expression (compiled per file for its
 * link type). 0, or -1 with err when the expression does not compile. */
int pcap_source_set_bpf(PcapSource *src, const char *expr, char *err, size_t errlen);

/* Fills p->data, caplen, wirelen, ts, datalink and pcap_cnt. Returns 1 for a
 * packet, 0 at the end of the last file. */
int pcap_source_next(PcapSource *src, Packet *p);

/* Each file read to its end is removed (the unix socket's delete-when-done). */
void pcap_source_set_delete(PcapSource *src, int on);
/* Modification time (ms since the epoch) of the last file read to its end;
 * 0 before any (the unix socket's pcap-last-processed). */
int64_t pcap_source_last_mtime_ms(const PcapSource *src);

const PcapSourceStats *pcap_source_stats(const PcapSource *src);
/* Name of the file being read (for eve pcap_filename / messages). */
const char *pcap_source_current(const PcapSource *src);
void pcap_source_close(PcapSource *src);

#endif
