/* The block reader of classic pcap records (capture/pcap-records.c) against
 * libpcap reading the same file: the same packets, time stamps, lengths,
 * bytes, filtering, end and error messages, on random files in both byte
 * orders and both time stamp precisions, with records over the snapshot
 * length, over libpcap's largest, cut short, and across the reader's
 * blocks; and the files it leaves to libpcap. */
#include "test.h"
#include "capture/pcap-records.h"

#include <pcap/pcap.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t rng_state;

/* fixed seeds: the same files everywhere */
static uint32_t rnd(void)
{
	return test_rand32(&rng_state);
}

static void put32(FILE *f, uint32_t v, int swapped)
{
	if (swapped)
		v = __builtin_bswap32(v);
	fwrite(&v, 4, 1, f);
}

static void put16(FILE *f, uint16_t v, int swapped)
{
	if (swapped)
		v = __builtin_bswap16(v);
	fwrite(&v, 2, 1, f);
}

struct shape {
	int swapped, nsec;
	uint32_t snaplen, linktype;
	uint16_t minor;
	int nrec;
	uint32_t maxlen;     /* typical record length bound */
};

/* Writes a random file of that shape; its last record is sometimes cut. */
static void write_file(const char *path, const struct shape *s)
{
	FILE *f = fopen(path, "wb");
	static uint8_t data[300000];

	put32(f, s->nsec ? 0xa1b23c4d : 0xa1b2c3d4, s->swapped);
	put16(f, 2, s->swapped);
	put16(f, s->minor, s->swapped);
	put32(f, 0, s->swapped);
	put32(f, 0, s->swapped);
	put32(f, s->snaplen, s->swapped);
	put32(f, s->linktype, s->swapped);
	for (int i = 0; i < s->nrec; i++) {
		uint32_t caplen = rnd() % (s->maxlen + 1), len = caplen + rnd() % 3;
		uint32_t pick = rnd() % 100;

		if (pick < 5)
			caplen = s->snaplen + 1 + rnd() % 4000;	/* over the snapshot */
		else if (pick < 6)
			caplen = 262145 + rnd() % 30000;	/* over libpcap's largest */
		if (caplen > sizeof(data))
			caplen = sizeof(data);
		if (rnd() % 10 == 0)
			len = rnd() % (caplen + 1);		/* wire length under caplen */
		/* time stamps: ordinary ones, and any 32-bit value */
		put32(f, rnd() % 4 ? 1700000000u + i : rnd(), s->swapped);
		put32(f, rnd() % 4 ? rnd() % (s->nsec ? 1000000000u : 1000000u) : rnd(), s->swapped);
		put32(f, caplen, s->swapped);
		put32(f, len, s->swapped);
		for (uint32_t b = 0; b < caplen; b++)
			data[b] = (uint8_t)rnd();
		fwrite(data, 1, caplen, f);
	}
	fclose(f);
	if (rnd() % 3 == 0) {
		/* cut in the last record: its header or its data */
		FILE *g = fopen(path, "rb");
		long end;

		fseek(g, 0, SEEK_END);
		end = ftell(g);
		fclose(g);
		if (end > 24 + 1)
			(void)!truncate(path, end - 1 - (long)(rnd() % (end - 24 < 40 ? end - 24 : 40)));
	}
}

/* Reads path through libpcap (ref) and through the block reader (recs) in
 * step; 0 when they agree to the end, else the record number that
 * differed (1-based). *used: the block reader took the file. */
static int compare_file(const char *path, const char *filter, int *used, int *records)
{
	char e1[PCAP_ERRBUF_SIZE], e2[PCAP_ERRBUF_SIZE];
	pcap_t *a = pcap_open_offline(path, e1), *b = pcap_open_offline(path, e2);
	struct bpf_program pa, pb;
	PcapRecords *r;
	int n = 0, bad = 0;

	if (!a || !b)
		return -1;
	if (filter) {
		if (pcap_compile(a, &pa, filter, 1, PCAP_NETMASK_UNKNOWN) != 0 ||
		    pcap_compile(b, &pb, filter, 1, PCAP_NETMASK_UNKNOWN) != 0 ||
		    pcap_setfilter(a, &pa) != 0 || pcap_setfilter(b, &pb) != 0)
			return -1;
	}
	r = pcap_records_open(b);
	*used = r != NULL;
	if (r && filter)
		pcap_records_set_filter(r, &pb);
	for (;;) {
		struct pcap_pkthdr *ha, *hb;
		const u_char *da, *db;
		int ra = pcap_next_ex(a, &ha, &da);
		int rb = r ? pcap_records_next(r, b, &hb, &db) : pcap_next_ex(b, &hb, &db);

		n++;
		if (ra != rb) {
			bad = n;
			break;
		}
		if (ra == 1 && (ha->caplen != hb->caplen || ha->len != hb->len ||
				ha->ts.tv_sec != hb->ts.tv_sec || ha->ts.tv_usec != hb->ts.tv_usec ||
				memcmp(da, db, ha->caplen) != 0)) {
			bad = n;
			break;
		}
		if (ra == -1 && strcmp(pcap_geterr(a), pcap_geterr(b)) != 0) {
			fprintf(stderr, "  libpcap: %s\n  records: %s\n", pcap_geterr(a), pcap_geterr(b));
			bad = n;
			break;
		}
		if (ra != 1)
			break;
	}
	*records = n;
	pcap_records_free(r);
	if (filter) {
		pcap_freecode(&pa);
		pcap_freecode(&pb);
	}
	pcap_close(a);
	pcap_close(b);
	return bad;
}

static const char *tmp_path(char *buf, size_t len, const char *tag)
{
	snprintf(buf, len, "/tmp/test_pcap_records.%s.%d.pcap", tag, (int)getpid());
	return buf;
}

TEST(pcap_records_agree_with_libpcap_on_random_files)
{
	static const uint32_t snaps[] = { 0, 64, 100, 1500, 65535, 262144, 400000 };
	static const uint32_t links[] = { 1, 101, 0, 113, 276 };
	char path[128];
	int used = 0, total = 0;

	tmp_path(path, sizeof(path), "random");
	rng_state = 0x9e3779b97f4a7c15ull;
	for (int round = 0; round < 400; round++) {
		struct shape s = {
			.swapped = (int)(rnd() & 1), .nsec = (int)(rnd() & 1),
			.snaplen = snaps[rnd() % 7], .linktype = links[rnd() % 5],
			.minor = 4, .nrec = (int)(rnd() % 40),
			.maxlen = rnd() % 4 ? 1600 : 70000,
		};
		/* a few files over two of the reader's 1 MiB blocks */
		if (round % 25 == 0) {
			s.nrec = 60;
			s.maxlen = 65535;
		}
		int u, nrec, bad;

		write_file(path, &s);
		bad = compare_file(path, rnd() % 3 ? NULL : "greater 200", &u, &nrec);
		if (bad) {
			fprintf(stderr, "  round %d (swapped %d nsec %d snaplen %u link %u): "
				"record %d differs\n", round, s.swapped, s.nsec, s.snaplen,
				s.linktype, bad);
		}
		CHECK_EQ(bad, 0);
		/* the block reader takes every file but the swapped Linux
		 * cooked ones */
		CHECK_EQ(u, !(s.swapped && (s.linktype == 113 || s.linktype == 276)));
		used += u;
		total += nrec;
	}
	unlink(path);
	CHECK(used > 250);
	CHECK(total > 5000);
}

/* Writes a file of that shape: 1 when the block reader takes it, 0 when
 * it leaves it to libpcap, -1 when libpcap cannot open it. */
static int taken(const char *path, const struct shape *s)
{
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *pc;
	PcapRecords *r;

	write_file(path, s);
	if (!(pc = pcap_open_offline(path, err)))
		return -1;
	r = pcap_records_open(pc);
	pcap_records_free(r);
	pcap_close(pc);
	return r != NULL;
}

TEST(pcap_records_leave_other_formats_to_libpcap)
{
	char err[PCAP_ERRBUF_SIZE], path[128];
	pcap_t *pc = pcap_open_offline(test_data_path("data/pcaps/pcapng-udp.pcapng"), err);
	struct shape s = { .snaplen = 65535, .linktype = 1, .minor = 3, .nrec = 2, .maxlen = 100 };

	CHECK(pc != NULL);
	CHECK(pcap_records_open(pc) == NULL);	/* pcapng */
	pcap_close(pc);

	tmp_path(path, sizeof(path), "formats");
	rng_state = 7;
	/* pcap 2.3: libpcap decides the order of the two lengths */
	CHECK_EQ(taken(path, &s), 0);
	/* a Linux cooked capture in the other byte order: libpcap rewrites
	 * the CAN frames' headers */
	s.minor = 4;
	s.swapped = 1;
	s.linktype = 113;
	CHECK_EQ(taken(path, &s), 0);
	s.swapped = 0;
	CHECK_EQ(taken(path, &s), 1);
	s.linktype = 1;
	s.swapped = 1;
	CHECK_EQ(taken(path, &s), 1);
	unlink(path);
}
