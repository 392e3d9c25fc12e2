#include "capture/pcap-records.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define PCAP_FILE_HDR_LEN 24
#define PCAP_REC_HDR_LEN 16
/* One read per megabyte, as the stdio buffer libpcap reads through; a
 * record larger than this (a snapshot length over 1 MiB: D-Bus captures)
 * goes to libpcap. */
#define PCAP_RECORDS_BUF (1u << 20)
/* libpcap's largest record for the link types taken here (its
 * MAXIMUM_SNAPLEN), whatever the file's header says */
#define PCAP_LIBPCAP_MAX 262144u

struct PcapRecords {
	int fd;
	FILE *fp;               /* libpcap's stream, positioned for a hand-over */
	int swapped;            /* written in the other byte order */
	int nsec;               /* nanosecond time stamps, given in microseconds */
	uint32_t take;          /* the largest record taken: libpcap's snapshot
				 * length, at most its largest */
	const struct bpf_program *filter;
	uint8_t *buf;
	size_t len;             /* buf[0, len) holds the file from off */
	size_t pos;             /* the next record's start in buf */
	off_t off;
	struct pcap_pkthdr hdr;
};

/* The link types read here are those libpcap returns as the file holds
 * them. It rewrites others' headers when the file is in the other byte
 * order (USB, NFLOG, and the CAN frames of Linux cooked captures), so those
 * stay with it. */
static int link_taken(int dlt, int swapped)
{
	switch (dlt) {
	case DLT_EN10MB:
	case DLT_NULL:
	case DLT_LOOP:
	case DLT_PPP:
	case DLT_RAW:
	case DLT_IPV4:
	case DLT_IPV6:
		return 1;
	case DLT_LINUX_SLL:
	case DLT_LINUX_SLL2:
		return !swapped;
	default:
		return 0;
	}
}

PcapRecords *pcap_records_open(pcap_t *pc)
{
	FILE *fp = pcap_file(pc);
	uint8_t h[PCAP_FILE_HDR_LEN];
	uint32_t magic;
	struct stat st;
	PcapRecords *r;
	int fd, nsec;

	/* libpcap has read the header and nothing more, from offset 0 (not a
	 * stream handed over part-read) of a file that can be read by offset */
	if (!fp || ftello(fp) != PCAP_FILE_HDR_LEN || (fd = fileno(fp)) < 0 ||
	    fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return NULL;
	memcpy(&magic, h, 4);
	switch (magic) {
	case 0xa1b2c3d4: case 0xd4c3b2a1: nsec = 0; break;
	case 0xa1b23c4d: case 0x4d3cb2a1: nsec = 1; break;
	default: return NULL;   /* pcapng, or a modified pcap */
	}
	/* before 2.4 the two lengths may be in either order: libpcap decides */
	if (pcap_major_version(pc) != 2 || pcap_minor_version(pc) < 4 ||
	    pcap_snapshot(pc) <= 0 || !link_taken(pcap_datalink(pc), pcap_is_swapped(pc)))
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r || !(r->buf = malloc(PCAP_RECORDS_BUF))) {
		free(r);
		return NULL;
	}
	r->fd = fd;
	r->fp = fp;
	r->swapped = pcap_is_swapped(pc);
	r->nsec = nsec;
	r->take = (uint32_t)pcap_snapshot(pc);
	if (r->take > PCAP_LIBPCAP_MAX)
		r->take = PCAP_LIBPCAP_MAX;
	r->off = PCAP_FILE_HDR_LEN;
	return r;
}

void pcap_records_set_filter(PcapRecords *r, const struct bpf_program *filter)
{
	r->filter = filter;
}

void pcap_records_free(PcapRecords *r)
{
	if (!r)
		return;
	free(r->buf);
	free(r);
}

/* 1 when n bytes from pos are in the buffer (read as needed); 0 when the
 * file ends before them; -1 when a read fails or they cannot fit. */
static int have(PcapRecords *r, size_t n)
{
	while (r->len - r->pos < n) {
		ssize_t got;

		if (n > PCAP_RECORDS_BUF)
			return -1;
		if (r->pos) {
			/* what is left of the last block is part of one record */
			memmove(r->buf, r->buf + r->pos, r->len - r->pos);
			r->off += (off_t)r->pos;
			r->len -= r->pos;
			r->pos = 0;
		}
		do
			got = pread(r->fd, r->buf + r->len, PCAP_RECORDS_BUF - r->len,
				    r->off + (off_t)r->len);
		while (got < 0 && errno == EINTR);
		if (got <= 0)
			return got == 0 ? 0 : -1;
		r->len += (size_t)got;
	}
	return 1;
}

/* libpcap reads the record at pos, and what it filters out after it, with
 * its own checks and messages (a record cut short, a length over the
 * snapshot length: cut to it, or over its largest: an error); the block
 * reading goes on after what it read. */
static int hand_over(PcapRecords *r, pcap_t *pc, struct pcap_pkthdr **h, const u_char **data)
{
	off_t at = r->off + (off_t)r->pos;
	int rc;

	if (fseeko(r->fp, at, SEEK_SET) != 0) {
		snprintf(pcap_geterr(pc), PCAP_ERRBUF_SIZE, "error seeking to offset %lld: %s",
			 (long long)at, strerror(errno));
		return -1;
	}
	rc = pcap_next_ex(pc, h, data);
	at = ftello(r->fp);
	r->off = at < 0 ? r->off : at;
	r->pos = r->len = 0;
	return rc;
}

static uint32_t field(const PcapRecords *r, const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return r->swapped ? __builtin_bswap32(v) : v;
}

/* A time stamp field as libpcap gives it: a signed 32-bit value in a file
 * of this machine's byte order, an unsigned one once swapped (it swaps into
 * an unsigned expression). Only a damaged or odd file tells them apart. */
static long stamp(const PcapRecords *r, const uint8_t *p)
{
	uint32_t v = field(r, p);

	return r->swapped ? (long)v : (long)(int32_t)v;
}

int pcap_records_next(PcapRecords *r, pcap_t *pc, struct pcap_pkthdr **h, const u_char **data)
{
	for (;;) {
		const uint8_t *rec;
		uint32_t caplen;

		int got = have(r, PCAP_REC_HDR_LEN);

		if (got != 1) {
			/* the end between records; else a header cut short or a
			 * failed read, which libpcap says */
			if (got == 0 && r->pos == r->len)
				return -2;
			return hand_over(r, pc, h, data);
		}
		rec = r->buf + r->pos;
		caplen = field(r, rec + 8);
		if (caplen > r->take || have(r, PCAP_REC_HDR_LEN + (size_t)caplen) != 1)
			return hand_over(r, pc, h, data);
		rec = r->buf + r->pos;	/* have() may have moved it */
		r->hdr.ts.tv_sec = stamp(r, rec);
		r->hdr.ts.tv_usec = stamp(r, rec + 4);
		if (r->nsec)
			r->hdr.ts.tv_usec /= 1000;
		r->hdr.caplen = caplen;
		r->hdr.len = field(r, rec + 12);
		r->pos += PCAP_REC_HDR_LEN + caplen;
		if (r->filter && !pcap_offline_filter(r->filter, &r->hdr, rec + PCAP_REC_HDR_LEN))
			continue;
		*h = &r->hdr;
		*data = rec + PCAP_REC_HDR_LEN;
		return 1;
	}
}
