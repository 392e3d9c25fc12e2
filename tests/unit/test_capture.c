/* Capture: the sources' yaml sections, BPF text, the pcap-file source behind
 * the interface (filters included). Live sockets need root and a link: they
 * are tested by tests/live/run.sh. */
#include "test.h"
#include "capture/capture.h"
#include "capture/pcap-file.h"
#include "conf/conf.h"
#include "decode/decode.h"

#include <linux/if_packet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *AFP_YAML =
	"af-packet:\n"
	"  - interface: eth1\n"
	"    threads: 3\n"
	"    cluster-id: 42\n"
	"    cluster-type: cluster_qm\n"
	"    bpf-filter: udp\n"
	"  - interface: eth2\n"
	"    threads: auto\n"
	"  - interface: default\n"
	"    defrag: no\n"
	"    use-mmap: no\n"
	"    checksum-checks: no\n"
	"pcap:\n"
	"  - interface: eth3\n"
	"    promisc: no\n"
	"    buffer-size: 1mb\n";

static int load_yaml(const char *y)
{
	char err[256];

	conf_deinit();
	return conf_load_string(y, "test.yaml", err, sizeof(err));
}

TEST(afpacket_entry_over_default_entry)
{
	CaptureConfig c = { .kind = CAPTURE_AF_PACKET };

	CHECK_EQ(load_yaml(AFP_YAML), 0);
	snprintf(c.iface, sizeof(c.iface), "eth1");
	CHECK_EQ(capture_config_load(&c, 8), 0);
	CHECK_EQ(c.threads, 3);
	CHECK_EQ(c.cluster_id, 42);
	CHECK_EQ(c.cluster_type, PACKET_FANOUT_QM);
	CHECK_EQ(c.defrag, 0);           /* from the default entry */
	CHECK_EQ(c.use_mmap, 0);
	CHECK_EQ(c.checksum, CHECKSUM_NONE);
	CHECK_STREQ(c.bpf, "udp");
	capture_config_free(&c);
	conf_deinit();
}

TEST(afpacket_defaults_are_suricatas)
{
	CaptureConfig c = { .kind = CAPTURE_AF_PACKET };

	CHECK_EQ(load_yaml("x: 1\n"), 0);
	snprintf(c.iface, sizeof(c.iface), "eth9");
	CHECK_EQ(capture_config_load(&c, 6), 0);
	CHECK_EQ(c.threads, 6);          /* auto: one per CPU */
	CHECK_EQ(c.cluster_id, 99);
	CHECK_EQ(c.cluster_type, PACKET_FANOUT_HASH);
	CHECK_EQ(c.defrag, 1);
	CHECK_EQ(c.use_mmap, 1);
	CHECK_EQ(c.promisc, 1);
	CHECK(c.bpf == NULL);
	conf_deinit();
}

TEST(afpacket_no_interface_takes_the_first_entry)
{
	CaptureConfig c = { .kind = CAPTURE_AF_PACKET };

	CHECK_EQ(load_yaml(AFP_YAML), 0);
	CHECK_EQ(capture_config_load(&c, 2), 0);
	CHECK_STREQ(c.iface, "eth1");
	capture_config_free(&c);
	conf_deinit();
}

TEST(afpacket_unknown_cluster_type_is_an_error)
{
	CaptureConfig c = { .kind = CAPTURE_AF_PACKET };

	CHECK_EQ(load_yaml("af-packet:\n  - interface: eth0\n    cluster-type: cluster_magic\n"), 0);
	snprintf(c.iface, sizeof(c.iface), "eth0");
	CHECK_EQ(capture_config_load(&c, 2), -1);
	capture_config_free(&c);
	conf_deinit();
}

TEST(pcap_live_section)
{
	CaptureConfig c = { .kind = CAPTURE_PCAP_LIVE };

	CHECK_EQ(load_yaml(AFP_YAML), 0);
	snprintf(c.iface, sizeof(c.iface), "eth3");
	CHECK_EQ(capture_config_load(&c, 8), 0);
	CHECK_EQ(c.promisc, 0);
	CHECK_EQ(c.buffer_size, 1024 * 1024);
	CHECK_EQ(c.threads, 1);          /* auto for pcap: one */
	conf_deinit();
}

TEST(bpf_file_comments_and_lines)
{
	char path[] = "/tmp/test-bpf-XXXXXX", err[256];
	int fd = mkstemp(path);
	const char *txt = "# a filter\nudp port 53 # dns\n  or tcp\n";
	char *s;

	CHECK(fd >= 0);
	CHECK(write(fd, txt, strlen(txt)) == (ssize_t)strlen(txt));
	close(fd);
	s = capture_bpf_from_file(path, err, sizeof(err));
	unlink(path);
	CHECK(s != NULL);
	CHECK(strstr(s, "udp port 53") != NULL);
	CHECK(strstr(s, "or tcp") != NULL);
	CHECK(strchr(s, '#') == NULL);
	free(s);
	CHECK(capture_bpf_from_file("/nonexistent/bpf", err, sizeof(err)) == NULL);
	CHECK(strstr(err, "/nonexistent/bpf") != NULL);
}

TEST(bpf_args_joined)
{
	char *argv[] = { "udp", "and", "port", "53" }, err[64];
	char *s = capture_bpf_from_args(4, argv, err, sizeof(err));

	CHECK_STREQ(s, "udp and port 53");
	free(s);
}

static int count_packets(const char *pcap, const char *bpf, char *err, size_t errlen)
{
	CaptureConfig c = { .kind = CAPTURE_PCAP_FILE, .path = pcap, .bpf = (char *)bpf };
	Capture *cap = capture_open(capture_ops(CAPTURE_PCAP_FILE), &c, 0, err, errlen);
	static uint8_t buf[PACKET_DATA_MAX];
	Packet p;
	int n = 0, r;

	if (!cap)
		return -1;
	memset(&p, 0, sizeof(p));
	p.data = buf;
	while ((r = capture_next(cap, &p, 100)) == CAPTURE_PACKET)
		n++;
	if (r != CAPTURE_END)
		n = -2;             /* a file is never idle */
	capture_close(cap);
	return n;
}

TEST(pcap_file_through_the_interface_with_bpf)
{
	const char *udp = test_data_path("data/pcaps/ipv4-udp.pcap");
	char err[256] = "";
	int all = count_packets(udp, NULL, err, sizeof(err));

	CHECK(all > 0);
	CHECK_EQ(count_packets(udp, "udp", err, sizeof(err)), all);
	CHECK_EQ(count_packets(udp, "tcp", err, sizeof(err)), 0);
	CHECK_EQ(count_packets(udp, "not a filter (", err, sizeof(err)), -1);
	CHECK(strstr(err, "bpf filter") != NULL);
}

TEST(afpacket_missing_interface_says_so)
{
	CaptureConfig c = { .kind = CAPTURE_AF_PACKET, .threads = 1, .use_mmap = 1 };
	char err[256] = "";

	snprintf(c.iface, sizeof(c.iface), "nosuchif0");
	CHECK(capture_open(capture_ops(CAPTURE_AF_PACKET), &c, 0, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "no such interface") != NULL);
}

static const char *IPS_YAML =
	"af-packet:\n"
	"  - interface: b0\n"
	"    copy-mode: ips\n"
	"    copy-iface: b1\n"
	"  - interface: b1\n"
	"    copy-mode: tap\n"
	"    copy-iface: b0\n"
	"  - interface: b2\n"
	"    copy-mode: ips\n"
	"  - interface: b3\n"
	"    copy-mode: mirror\n"
	"    copy-iface: b0\n"
	"  - interface: default\n"
	"nfq:\n"
	"  mode: repeat\n"
	"  repeat-mark: 0x10\n"
	"  repeat-mask: 0xf0\n"
	"  batchcount: 20\n"
	"  fail-open: yes\n";

TEST(afpacket_copy_mode_and_iface)
{
	CaptureConfig c = { .kind = CAPTURE_AF_PACKET };
	const char *b1 = "b1", *b0 = "b0";

	CHECK_EQ(load_yaml(IPS_YAML), 0);
	snprintf(c.iface, sizeof(c.iface), "b0");
	CHECK_EQ(capture_config_load(&c, 2), 0);
	CHECK_EQ(c.copy_mode, COPY_IPS);
	CHECK_STREQ(c.copy_iface, "b1");
	CHECK_EQ(capture_config_ips(&c, 1), 1);
	capture_config_free(&c);
	memset(&c, 0, sizeof(c));
	c.kind = CAPTURE_AF_PACKET;
	snprintf(c.iface, sizeof(c.iface), "b1");
	CHECK_EQ(capture_config_load(&c, 2), 0);
	CHECK_EQ(c.copy_mode, COPY_TAP);
	/* tap forwards everything: the run stays IDS */
	CHECK_EQ(capture_config_ips(&c, 1), 0);
	CHECK_EQ(capture_ips_wanted(CAPTURE_AF_PACKET, &b1, 1), 0);
	CHECK_EQ(capture_ips_wanted(CAPTURE_AF_PACKET, &b0, 1), 1);
	capture_config_free(&c);
	conf_deinit();
}

TEST(afpacket_copy_mode_errors)
{
	CaptureConfig c = { .kind = CAPTURE_AF_PACKET };

	CHECK_EQ(load_yaml(IPS_YAML), 0);
	snprintf(c.iface, sizeof(c.iface), "b2");   /* no copy-iface */
	CHECK_EQ(capture_config_load(&c, 2), -1);
	capture_config_free(&c);
	memset(&c, 0, sizeof(c));
	c.kind = CAPTURE_AF_PACKET;
	snprintf(c.iface, sizeof(c.iface), "b3");   /* unknown mode */
	CHECK_EQ(capture_config_load(&c, 2), -1);
	capture_config_free(&c);
	conf_deinit();
}

TEST(nfq_section)
{
	CaptureConfig c = { .kind = CAPTURE_NFQ };

	CHECK_EQ(load_yaml(IPS_YAML), 0);
	snprintf(c.iface, sizeof(c.iface), "7");
	CHECK_EQ(capture_config_load(&c, 2), 0);
	CHECK_EQ(c.queue, 7);
	CHECK_STREQ(c.iface, "NFQ#7");
	CHECK_EQ(c.nfq_mode, NFQ_REPEAT);
	CHECK_EQ(c.repeat_mark, 0x10);
	CHECK_EQ(c.repeat_mask, 0xf0);
	CHECK_EQ(c.batchcount, 20);
	CHECK_EQ(c.fail_open, 1);
	CHECK_EQ(capture_ips_wanted(CAPTURE_NFQ, NULL, 0), 1);
	snprintf(c.iface, sizeof(c.iface), "x1");
	CHECK_EQ(capture_config_load(&c, 2), -1);
	capture_config_free(&c);
	CHECK_EQ(load_yaml("nfq:\n  mode: repeat\n"), 0);
	snprintf(c.iface, sizeof(c.iface), "0");
	/* repeat without a mask would queue the packet again forever */
	CHECK_EQ(capture_config_load(&c, 2), -1);
	CHECK_EQ(load_yaml("nfq:\n  mode: route\n"), 0);
	snprintf(c.iface, sizeof(c.iface), "0");
	CHECK_EQ(capture_config_load(&c, 2), -1);
	CHECK_EQ(load_yaml("nfq:\n  mode: route\n  route-queue: 3\n"), 0);
	snprintf(c.iface, sizeof(c.iface), "0");
	CHECK_EQ(capture_config_load(&c, 2), 0);
	CHECK_EQ(c.nfq_mode, NFQ_ROUTE);
	CHECK_EQ(c.route_queue, 3);
	CHECK_EQ(load_yaml("nfq:\n  mode: bridge\n"), 0);
	snprintf(c.iface, sizeof(c.iface), "0");
	CHECK_EQ(capture_config_load(&c, 2), -1);
	capture_config_free(&c);
	conf_deinit();
}

/* A fake inline source that records its verdicts. */
static int verdicts, last_drop;
static Packet *last_verdict;

static void fake_verdict(Capture *c, Packet *p, int drop)
{
	(void)c;
	verdicts++;
	last_drop = drop;
	last_verdict = p;
}

static const CaptureOps fake_inline_ops = { .name = "fake", .live = 1, .verdict = fake_verdict };

TEST(plain_packet_gets_its_verdict_at_once)
{
	Capture c = { .ops = &fake_inline_ops };
	Packet p, *root;

	memset(&p, 0, sizeof(p));
	p.cap = &c;
	p.drop_reason = PKT_DROP_RULES;
	verdicts = 0;
	CHECK_EQ(capture_verdict(&p, 1, &root), 1);
	CHECK_EQ(verdicts, 1);
	CHECK_EQ(last_drop, 1);
	CHECK(root == NULL);
	/* IDS: nothing drops */
	CHECK_EQ(capture_verdict(&p, 0, &root), 1);
	CHECK_EQ(last_drop, 0);
}

TEST(tunnel_packet_waits_for_its_inner_packet_and_takes_its_drop)
{
	Capture c = { .ops = &fake_inline_ops };
	Packet outer, inner, *root;

	memset(&outer, 0, sizeof(outer));
	memset(&inner, 0, sizeof(inner));
	outer.cap = &c;
	outer.pseudo = &inner;
	capture_verdict_link(&outer);
	CHECK(inner.vroot == &outer);
	verdicts = 0;
	/* the wire packet is done first, accepted: it waits */
	CHECK_EQ(capture_verdict(&outer, 1, &root), 0);
	CHECK_EQ(verdicts, 0);
	/* its inner packet is dropped: the wire packet is, and goes back */
	inner.drop_reason = PKT_DROP_RULES;
	CHECK_EQ(capture_verdict(&inner, 1, &root), 1);
	CHECK_EQ(verdicts, 1);
	CHECK(last_verdict == &outer);
	CHECK_EQ(last_drop, 1);
	CHECK(root == &outer);
}

TEST(inner_packet_done_first_then_the_wire_packet)
{
	Capture c = { .ops = &fake_inline_ops };
	Packet outer, inner, *root;

	memset(&outer, 0, sizeof(outer));
	memset(&inner, 0, sizeof(inner));
	outer.cap = &c;
	outer.pseudo = &inner;
	capture_verdict_link(&outer);
	verdicts = 0;
	CHECK_EQ(capture_verdict(&inner, 1, &root), 1);
	CHECK(root == NULL);
	CHECK_EQ(verdicts, 0);
	CHECK_EQ(capture_verdict(&outer, 1, &root), 1);
	CHECK_EQ(verdicts, 1);
	CHECK_EQ(last_drop, 0);
	CHECK(root == NULL);
}
