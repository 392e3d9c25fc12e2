/* pcap-log (src/output/pcap-log.c): its keys as Suricata reads them, the
 * files it writes (header, records), rotation by limit and the max-files
 * ring, and the conditional modes' choice of packets. */
#include "test.h"
#include "output-test-util.h"
#include "output/output.h"
#include "output/logger.h"
#include "conf/conf.h"

#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int load_cfg(const char *yaml, OutputConfig *cfg, char *err, size_t errlen)
{
	if (load_yaml(yaml) < 0)
		return -2;
	return output_config_load(cfg, "/tmp", err, errlen);
}

TEST(pcap_log_config_defaults_and_megabytes)
{
	OutputConfig cfg;
	char err[256] = "";

	CHECK_EQ(load_cfg("outputs:\n  - pcap-log:\n      enabled: yes\n", &cfg, err, sizeof(err)), 0);
	CHECK(cfg.pcap_log.enabled);
	CHECK_EQ(cfg.pcap_log.mode, PCAP_LOG_NORMAL);
	CHECK_EQ(cfg.pcap_log.conditional, PCAP_LOG_ALL);
	CHECK_EQ(cfg.pcap_log.limit, 32ull << 20);
	CHECK_EQ(cfg.pcap_log.max_files, 0);
	CHECK(strcmp(cfg.pcap_log.filename, "log.pcap") == 0);
	CHECK(strcmp(cfg.pcap_log.dir, "/tmp") == 0);
	/* a bare number under 4096 is megabytes, as Suricata reads it */
	CHECK_EQ(load_cfg("outputs:\n  - pcap-log:\n      enabled: yes\n      limit: 10\n"
			  "      mode: multi\n      conditional: tag\n      ts-format: usec\n"
			  "      dir: pcaps\n      max-files: 3\n",
			  &cfg, err, sizeof(err)), 0);
	CHECK_EQ(cfg.pcap_log.limit, 10ull << 20);
	CHECK_EQ(cfg.pcap_log.mode, PCAP_LOG_MULTI);
	CHECK_EQ(cfg.pcap_log.conditional, PCAP_LOG_TAG);
	CHECK(cfg.pcap_log.ts_usec);
	CHECK_EQ(cfg.pcap_log.max_files, 3);
	CHECK(strcmp(cfg.pcap_log.dir, "/tmp/pcaps") == 0);
	conf_deinit();
}

TEST(pcap_log_config_bad_values_name_the_key)
{
	OutputConfig cfg;
	char err[256] = "";

	CHECK_EQ(load_cfg("outputs:\n  - pcap-log:\n      enabled: yes\n      limit: 1mb\n",
			  &cfg, err, sizeof(err)), -1);
	CHECK(strstr(err, "outputs.0.pcap-log.limit") != NULL);
	CHECK_EQ(load_cfg("outputs:\n  - pcap-log:\n      enabled: yes\n      conditional: some\n",
			  &cfg, err, sizeof(err)), -1);
	CHECK(strstr(err, "outputs.0.pcap-log.conditional") != NULL);
	CHECK_EQ(load_cfg("outputs:\n  - pcap-log:\n      enabled: yes\n      mode: sguil\n",
			  &cfg, err, sizeof(err)), -1);
	CHECK(strstr(err, "sguil") != NULL);
	CHECK_EQ(load_cfg("outputs:\n  - pcap-log:\n      enabled: yes\n      lz4-level: 17\n",
			  &cfg, err, sizeof(err)), -1);
	CHECK(strstr(err, "lz4-level") != NULL);
	/* not enabled: not looked at */
	CHECK_EQ(load_cfg("outputs:\n  - pcap-log:\n      enabled: no\n      limit: 1\n",
			  &cfg, err, sizeof(err)), 0);
	conf_deinit();
}

static uint8_t frame[PACKET_DATA_MAX];

static void fake_packet(Packet *p, uint32_t len, long sec)
{
	memset(p, 0, sizeof(*p));
	p->data = frame;
	p->caplen = p->wirelen = len;
	p->datalink = 1;
	p->ts.tv_sec = sec;
	p->ts.tv_usec = 5;
}

static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static unsigned count_prefix(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned n = 0;

	while (d && (e = readdir(d)))
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0)
			n++;
	if (d)
		closedir(d);
	return n;
}

TEST(pcap_log_writes_header_and_records)
{
	char *dir = make_tmpdir("pcaplog");
	char yaml[512], path[512];
	OutputThread ot;
	Packet p;
	Outputs *o;
	FILE *fp;
	uint32_t hdr[6], rec[4];

	snprintf(yaml, sizeof(yaml), "outputs:\n  - pcap-log:\n      enabled: yes\n");
	CHECK((o = open_in(dir, yaml)) != NULL);
	CHECK_EQ(output_thread_init(&ot, o), 0);
	for (int i = 0; i < 3; i++) {
		OutputPacketCtx pc = { 0 };

		fake_packet(&p, 60 + (uint32_t)i, 1700000000 + i);
		pc.p = &p;
		output_packet(&ot, &pc);
	}
	/* an engine-made packet (reassembled datagram) is not written */
	{
		OutputPacketCtx pc = { 0 };

		fake_packet(&p, 99, 1700000009);
		p.flags = PKT_PSEUDO;
		pc.p = &p;
		output_packet(&ot, &pc);
	}
	output_thread_fini(&ot);
	outputs_close(o);
	snprintf(path, sizeof(path), "%s/log.pcap.1700000000", dir);
	CHECK((fp = fopen(path, "rb")) != NULL);
	CHECK_EQ(fread(hdr, 4, 6, fp), 6);
	CHECK_EQ(hdr[0], 0xa1b2c3d4u);
	CHECK_EQ(hdr[5], 1);             /* link type of the packets */
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(fread(rec, 4, 4, fp), 4);
		CHECK_EQ(rec[0], 1700000000u + (uint32_t)i);
		CHECK_EQ(rec[1], 5);
		CHECK_EQ(rec[2], 60u + (uint32_t)i);
		CHECK_EQ(fseek(fp, (long)rec[2], SEEK_CUR), 0);
	}
	CHECK_EQ(fread(rec, 4, 4, fp), 0);
	fclose(fp);
	conf_deinit();
	rm_tree(dir);
}

TEST(pcap_log_rotates_at_limit_and_keeps_a_ring)
{
	char *dir = make_tmpdir("pcaplog-ring");
	char yaml[512];
	OutputThread ot;
	Packet p;
	Outputs *o;

	snprintf(yaml, sizeof(yaml), "outputs:\n  - pcap-log:\n      enabled: yes\n"
		 "      limit: 4mb\n      max-files: 2\n      ts-format: usec\n");
	CHECK((o = open_in(dir, yaml)) != NULL);
	CHECK_EQ(output_thread_init(&ot, o), 0);
	/* 200 packets of 64000 bytes: 12.8 MB, four files of at most 4 MiB,
	 * all in the same second: the names differ by their .N */
	for (int i = 0; i < 200; i++) {
		OutputPacketCtx pc = { 0 };

		fake_packet(&p, 64000, 1700000000);
		pc.p = &p;
		output_packet(&ot, &pc);
	}
	output_thread_fini(&ot);
	outputs_close(o);
	CHECK_EQ(count_prefix(dir, "log.pcap."), 2);
	{
		char path[512];

		/* the first two went; the third and fourth stay */
		snprintf(path, sizeof(path), "%s/log.pcap.1700000000.5", dir);
		CHECK_EQ(file_size(path), -1);
		snprintf(path, sizeof(path), "%s/log.pcap.1700000000.5.2", dir);
		CHECK(file_size(path) > 0 && file_size(path) <= (4l << 20));
		snprintf(path, sizeof(path), "%s/log.pcap.1700000000.5.3", dir);
		CHECK(file_size(path) > 0);
	}
	conf_deinit();
	rm_tree(dir);
}
