/* Classic pcap records read by block, beside libpcap. libpcap reads a
 * savefile with two fread() calls per packet (its record header, then the
 * data, through stdio's buffer into its own): ~500 instructions and a copy
 * per packet, 3% of the packet phase's instructions with all of ET Open. For a
 * regular file in pcap 2.4 format this reader takes the records from a
 * large buffer filled by pread(), and hands any record it does not take
 * as is (larger than the snapshot length, cut short, beyond its buffer) to
 * libpcap, positioned at that record, so that libpcap's own rules and
 * messages decide it. libpcap still opens the file, checks its header and
 * says its link type. */
#ifndef CAPTURE_PCAP_RECORDS_H
#define CAPTURE_PCAP_RECORDS_H

#include <pcap/pcap.h>

typedef struct PcapRecords PcapRecords;

/* Block reading of the file pc was opened on (pcap_fopen_offline() or
 * pcap_open_offline(), its header read and nothing more). NULL where it
 * does not apply (pcapng, a pipe, pcap before 2.4 or a modified pcap, a
 * link type libpcap rewrites) or memory is short: then libpcap reads the
 * whole file, as before. */
PcapRecords *pcap_records_open(pcap_t *pc);

/* Filters as pcap_setfilter() does: packets filter rejects are skipped.
 * filter is not copied; it must stay valid while r is read (NULL: none). */
void pcap_records_set_filter(PcapRecords *r, const struct bpf_program *filter);

/* pcap_next_ex()'s contract: 1 with a packet (*h and *data valid until the
 * next call), -2 at the end of the file, -1 on an error (pcap_geterr(pc)
 * says it). */
int pcap_records_next(PcapRecords *r, pcap_t *pc, struct pcap_pkthdr **h,
		      const u_char **data);

void pcap_records_free(PcapRecords *r);

#endif
