/* fuzz_pcap: the capture reader, the decoders (link layer to L4, tunnels,
 * decoder events) and IP defragmentation.
 *
 * One input is either a capture file image (pcap or pcapng magic: read by
 * libpcap through fmemopen, as pcap-file reads a file), or, for any other
 * first bytes, a list of raw frames the fuzzer can reach directly:
 *     byte 0: link type (index into link_types[])
 *     then:   [2 bytes big-endian length][frame] ...
 * Each input gets a fresh decode thread (its defrag trackers), so inputs never
 * see each other's fragments; the counters and the packet pool live for the
 * whole process. */
#define _GNU_SOURCE /* fmemopen */
#include "fuzz-common.h"
#include "conf/conf.h"
#include "decode/decode.h"
#include "runmode/pool.h"
#include "stats/counters.h"

#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POOL_PACKETS 16

static DecodeConfig cfg;
static ThreadCounters *tc;
static PacketPool pool;

static const int link_types[] = {
	DLT_EN10MB, DLT_LINUX_SLL, DLT_LINUX_SLL2, DLT_NULL, DLT_LOOP, 12, 14,
	101 /* LINKTYPE_RAW */, 228 /* IPV4 */, 229 /* IPV6 */, DLT_PPP,
};

static Packet *pool_get(void *arg)
{
	return packet_pool_get(arg, 0);
}

static void pool_put(void *arg, Packet *p)
{
	packet_pool_put_local(arg, p);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	/* the defaults of an empty yaml: what decode_config_load gives without keys */
	if (decode_config_load(&cfg) != 0)
		abort();
	decode_register_counters();
	counters_freeze();
	tc = thread_counters_new();
	if (!tc || packet_pool_init(&pool, POOL_PACKETS) != 0)
		abort();
	return 0;
}

/* Decodes p and the datagrams defrag rebuilt behind it, then gives them back. */
static void decode_one(DecodeThread *dt, Packet *p)
{
	decode_packet(dt, p);
	while (p) {
		Packet *q = p->pseudo;

		p->pseudo = NULL;
		packet_pool_put_local(&pool, p);
		p = q;
	}
}

static Packet *frame_packet(const uint8_t *data, uint32_t len, int datalink, uint64_t n)
{
	Packet *p = packet_pool_get(&pool, 0);

	if (!p)
		abort(); /* every packet goes back after decode_one: the pool never runs dry */
	if (len > PACKET_DATA_MAX)
		len = PACKET_DATA_MAX;
	memcpy(p->data, data, len);
	p->caplen = len;
	p->wirelen = len;
	p->ts.tv_sec = 1700000000 + (time_t)n;
	p->ts.tv_usec = 0;
	p->datalink = datalink;
	p->pcap_cnt = n;
	return p;
}

static int is_capture(const uint8_t *d, size_t n)
{
	static const uint8_t magics[][4] = {
		{ 0xd4, 0xc3, 0xb2, 0xa1 }, { 0xa1, 0xb2, 0xc3, 0xd4 },
		{ 0x4d, 0x3c, 0xb2, 0xa1 }, { 0xa1, 0xb2, 0x3c, 0x4d },
		{ 0x0a, 0x0d, 0x0d, 0x0a },
	};

	if (n < 4)
		return 0;
	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if (!memcmp(d, magics[i], 4))
			return 1;
	return 0;
}

static void run_capture(DecodeThread *dt, const uint8_t *data, size_t size)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *pkt;
	FILE *f = fmemopen((void *)data, size, "rb");
	pcap_t *pc;
	int dl;
	uint64_t n = 0;

	if (!f)
		return;
	pc = pcap_fopen_offline(f, errbuf); /* owns f from here */
	if (!pc) {
		fclose(f);
		return;
	}
	dl = pcap_datalink(pc);
	/* as pcap-file: an unsupported link type is still read, and counted invalid */
	while (pcap_next_ex(pc, &h, &pkt) == 1) {
		Packet *p = frame_packet(pkt, h->caplen, dl, ++n);

		p->wirelen = h->len;
		p->ts = h->ts;
		decode_one(dt, p);
	}
	pcap_close(pc);
}

static void run_frames(DecodeThread *dt, const uint8_t *data, size_t size)
{
	int dl = link_types[data[0] % (sizeof(link_types) / sizeof(link_types[0]))];
	size_t off = 1;
	uint64_t n = 0;

	while (off + 2 <= size) {
		uint32_t len = (uint32_t)data[off] << 8 | data[off + 1];

		off += 2;
		if (len > size - off)
			len = (uint32_t)(size - off);
		decode_one(dt, frame_packet(data + off, len, dl, ++n));
		off += len;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	DecodeThread *dt;

	if (size == 0)
		return 0;
	dt = decode_thread_new(&cfg, tc, pool_get, pool_put, &pool);
	if (!dt)
		abort();
	if (is_capture(data, size))
		run_capture(dt, data, size);
	else
		run_frames(dt, data, size);
	decode_thread_free(dt);
	if (pool.n_free != pool.n) {
		fprintf(stderr, "fuzz_pcap: %u of %u packets not back in the pool\n",
			pool.n - pool.n_free, pool.n);
		abort();
	}
	return 0;
}
