/* pcap-ceiling: the fastest a pcap file can be read here. A bare libpcap
 * pcap_next_ex() loop that only counts packets and bytes: no decode, no copy.
 * The engine's pcap-file throughput is measured against it (bench-foundation.sh).
 *
 *   pcap-ceiling FILE...
 * Prints "packets N bytes N seconds S pps P mbps M" (bytes = captured bytes). */
#include <pcap/pcap.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Adds one file's packets and bytes to the totals; 0 or -1 (message printed). */
static int read_file(const char *path, uint64_t *pkts, uint64_t *bytes)
{
	char err[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *data;
	pcap_t *pc;
	int rc;

	pc = pcap_open_offline(path, err);
	if (!pc) {
		fprintf(stderr, "pcap-ceiling: %s: %s\n", path, err);
		return -1;
	}
	while ((rc = pcap_next_ex(pc, &h, &data)) == 1) {
		(*pkts)++;
		*bytes += h->caplen;
	}
	/* a cut-short file ends with an error after its last whole record: report,
	 * but count what was read, as the engine does */
	if (rc == PCAP_ERROR)
		fprintf(stderr, "pcap-ceiling: %s: %s\n", path, pcap_geterr(pc));
	pcap_close(pc);
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t pkts = 0, bytes = 0;
	double t0, secs;

	if (argc < 2) {
		fprintf(stderr, "usage: pcap-ceiling FILE...\n");
		return 1;
	}
	t0 = now_s();
	for (int i = 1; i < argc; i++) {
		if (read_file(argv[i], &pkts, &bytes) < 0)
			return 1;
	}
	secs = now_s() - t0;
	if (secs <= 0)
		secs = 1e-9;
	printf("packets %llu bytes %llu seconds %.3f pps %.0f mbps %.1f\n",
	       (unsigned long long)pkts, (unsigned long long)bytes, secs,
	       pkts / secs, bytes * 8 / secs / 1e6);
	return 0;
}
