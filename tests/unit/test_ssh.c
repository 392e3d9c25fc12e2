/* SSH: the stream parser (app-layer/ssh-parse.h), its registry entry
 * through the generic app layer (ssh-proto.c), the eve object
 * (output/ssh-json.h) and the keywords' buffers and rule options
 * (detect/ssh-kw.c). Expected hassh values are computed here from the
 * string hassh defines (MD5 of "kex;enc;mac;comp"), independently of the
 * parser's own code. */
#include "config.h"
#include "test.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>

#include <jansson.h>
#include <openssl/evp.h>

#include "app-layer/app-layer.h"
#include "app-layer/ssh.h"
#include "detect/buffers.h"
#include "detect/detect-parse.h"
#include "output/ssh-json.h"
#include "app-test-util.h"

static size_t put_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
	return 4;
}

static size_t put_list(uint8_t *p, const char *s)
{
	size_t n = strlen(s);

	put_u32(p, (uint32_t)n);
	memcpy(p + 4, s, n);
	return 4 + n;
}

/* A binary packet: length, padding length, payload (code first), padding. */
static size_t packet(uint8_t *out, const uint8_t *payload, size_t plen)
{
	uint8_t pad = 4;
	size_t o = 0;

	o += put_u32(out, (uint32_t)(1 + plen + pad));
	out[o++] = pad;
	memcpy(out + o, payload, plen);
	o += plen;
	memset(out + o, 0, pad);
	return o + pad;
}

static const char *lists[10] = {
	"curve25519-sha256,diffie-hellman-group14-sha1", "ssh-ed25519,rsa-sha2-512",
	"aes128-ctr,aes256-ctr", "aes256-gcm@openssh.com", "hmac-sha2-256", "umac-64@openssh.com",
	"none,zlib@openssh.com", "none", "", "",
};

static size_t kexinit(uint8_t *out)
{
	uint8_t pl[1024];
	size_t o = 0;

	pl[o++] = SSH_MSG_KEXINIT;
	memset(pl + o, 0xab, 16);
	o += 16;
	for (int i = 0; i < 10; i++)
		o += put_list(pl + o, lists[i]);
	pl[o++] = 0;                /* first_kex_packet_follows */
	o += put_u32(pl + o, 0);    /* reserved */
	return packet(out, pl, o);
}

static size_t newkeys(uint8_t *out)
{
	uint8_t pl[1] = { SSH_MSG_NEWKEYS };

	return packet(out, pl, 1);
}

static void md5_hex(const char *s, char out[33])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	EVP_Digest(s, strlen(s), md, &n, EVP_md5(), NULL);
	for (unsigned i = 0; i < 16; i++)
		sprintf(out + 2 * i, "%02x", md[i]);
}

#define CLIENT_HASSH "curve25519-sha256,diffie-hellman-group14-sha1;aes128-ctr,aes256-ctr;hmac-sha2-256;none,zlib@openssh.com"
#define SERVER_HASSH "curve25519-sha256,diffie-hellman-group14-sha1;aes256-gcm@openssh.com;umac-64@openssh.com;none"

static int feed(SshState *s, int dir, const uint8_t *p, size_t n, size_t step)
{
	for (size_t o = 0; o < n; o += step)
		if (ssh_parse(s, dir, p + o, n - o < step ? n - o : step) < 0)
			return -1;
	return 0;
}

TEST(ssh_banner_versions_and_comments)
{
	SshState *s = ssh_state_new(0);
	static const char c[] = "SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.1\r\n";
	static const char v[] = "SSH-1.99-Cisco-1.25\n";

	CHECK(s);
	CHECK_EQ(ssh_parse(s, SSH_TOSERVER, (const uint8_t *)c, strlen(c)), 0);
	CHECK_EQ(s->side[0].state, SSH_STATE_BANNER_DONE);
	CHECK_STREQ(s->side[0].proto, "2.0");
	CHECK_STREQ(s->side[0].software, "OpenSSH_8.9p1");
	/* the software version may hold '-' itself */
	CHECK_EQ(ssh_parse(s, SSH_TOCLIENT, (const uint8_t *)v, strlen(v)), 0);
	CHECK_STREQ(s->side[1].proto, "1.99");
	CHECK_STREQ(s->side[1].software, "Cisco-1.25");
	CHECK_EQ(s->side[1].v1, 0);           /* 1.99 speaks SSH-2 */
	CHECK_EQ(s->nevents, 0);
	ssh_state_free(s);
}

TEST(ssh_banner_split_one_byte_at_a_time_and_pre_banner_lines)
{
	SshState *s = ssh_state_new(0);
	static const char srv[] = "Welcome to the box\r\nSSH-2.0-dropbear_2019.78\r\n";

	CHECK_EQ(feed(s, SSH_TOCLIENT, (const uint8_t *)srv, strlen(srv), 1), 0);
	CHECK_EQ(s->side[1].state, SSH_STATE_BANNER_DONE);
	CHECK_STREQ(s->side[1].software, "dropbear_2019.78");
	CHECK_EQ(s->nevents, 0);
	ssh_state_free(s);
}

TEST(ssh_long_and_invalid_banners_raise_events)
{
	SshState *s = ssh_state_new(0);
	char big[600];

	memcpy(big, "SSH-2.0-", 8);
	memset(big + 8, 'x', sizeof(big) - 10);
	big[sizeof(big) - 2] = '\r';
	big[sizeof(big) - 1] = '\n';
	CHECK_EQ(ssh_parse(s, SSH_TOSERVER, (const uint8_t *)big, sizeof(big)), 0);
	CHECK_EQ(s->events[SSH_EV_LONG_BANNER], 1);
	CHECK_EQ(s->side[0].state, SSH_STATE_BANNER_DONE);
	CHECK_EQ(s->side[0].software_len, SSH_MAX_BANNER - 8);
	CHECK_EQ(ssh_parse(s, SSH_TOCLIENT, (const uint8_t *)"SSH-2.0\r\n", 9), 0);
	CHECK_EQ(s->events[SSH_EV_INVALID_BANNER], 1);
	CHECK_STREQ(s->side[1].proto, "2.0");
	CHECK_EQ(s->side[1].software_len, 0);
	CHECK_EQ(ssh_event_by_name("long_kex_record"), SSH_EV_LONG_KEX_RECORD);
	CHECK_STREQ(ssh_event_name(SSH_EV_INVALID_RECORD), "invalid_record");
	CHECK_EQ(ssh_event_by_name("nope"), -1);
	ssh_state_free(s);
}

/* The banner, KEXINIT and NEWKEYS in one buffer and byte by byte give the
 * same hassh; what follows NEWKEYS is not parsed. */
TEST(ssh_kexinit_hassh_both_sides_any_segmentation)
{
	uint8_t buf[4096];
	size_t n = 0;
	char want_c[33], want_s[33];

	md5_hex(CLIENT_HASSH, want_c);
	md5_hex(SERVER_HASSH, want_s);
	memcpy(buf, "SSH-2.0-x\r\n", 11);
	n = 11;
	n += kexinit(buf + n);
	n += newkeys(buf + n);
	memset(buf + n, 0xee, 64);       /* ciphertext */
	n += 64;
	for (size_t step = 1; step <= n; step = step * 3 + 1) {
		SshState *s = ssh_state_new(1);

		CHECK_EQ(feed(s, SSH_TOSERVER, buf, n, step), 0);
		CHECK_EQ(feed(s, SSH_TOCLIENT, buf, n, step), 0);
		CHECK_EQ(s->side[0].kexinit, 1);
		CHECK_STREQ(s->side[0].hassh_str, CLIENT_HASSH);
		CHECK_STREQ(s->side[0].hassh, want_c);
		CHECK_STREQ(s->side[1].hassh_str, SERVER_HASSH);
		CHECK_STREQ(s->side[1].hassh, want_s);
		CHECK_EQ(s->side[0].state, SSH_STATE_FINISHED);
		CHECK(ssh_encrypted(s));
		CHECK_EQ(s->side[0].records, 2);  /* the ciphertext is no record */
		CHECK_EQ(s->nevents, 0);
		ssh_state_free(s);
	}
}

TEST(ssh_hassh_off_keeps_kexinit_state_only)
{
	uint8_t buf[2048];
	size_t n = 0;
	SshState *s = ssh_state_new(0);

	memcpy(buf, "SSH-2.0-x\r\n", 11);
	n = 11;
	n += kexinit(buf + n);
	CHECK_EQ(ssh_parse(s, SSH_TOSERVER, buf, n), 0);
	CHECK_EQ(s->side[0].kexinit, 1);
	CHECK(!s->side[0].hassh_str);
	ssh_state_free(s);
}

TEST(ssh_bad_record_length_and_malformed_kexinit)
{
	SshState *s = ssh_state_new(1);
	uint8_t buf[128];
	size_t n;
	char out[64];

	memcpy(buf, "SSH-2.0-x\n", 10);
	put_u32(buf + 10, 1);        /* shorter than padding length + code */
	buf[14] = 0;
	buf[15] = 20;
	CHECK_EQ(ssh_parse(s, SSH_TOSERVER, buf, 16), -1);
	CHECK_EQ(s->events[SSH_EV_INVALID_RECORD], 1);
	CHECK_EQ(s->side[0].dead, 1);
	CHECK_EQ(ssh_parse(s, SSH_TOSERVER, buf, 16), -1);
	/* a KEXINIT whose name-list runs past its end */
	n = 0;
	memset(buf, 0, 16);
	n = 16;
	n += put_u32(buf + n, 1000);
	CHECK_EQ(ssh_kexinit_hassh(buf, n, 0, out, sizeof(out)), -1);
	CHECK_EQ(ssh_kexinit_hassh(buf, 10, 0, out, sizeof(out)), -1);
	ssh_state_free(s);
}

TEST(ssh_v1_banner_has_no_records)
{
	SshState *s = ssh_state_new(1);
	static const uint8_t d[] = "SSH-1.5-1.2.26\n\x00\x00\x01\x04\x00\x00\x00\x00\x02";

	CHECK_EQ(ssh_parse(s, SSH_TOCLIENT, d, sizeof(d) - 1), 0);
	CHECK_EQ(s->side[1].v1, 1);
	CHECK_STREQ(s->side[1].proto, "1.5");
	CHECK_STREQ(s->side[1].software, "1.2.26");
	CHECK_EQ(s->side[1].records, 0);
	CHECK_EQ(s->nevents, 0);
	ssh_state_free(s);
}

TEST(ssh_probe_prefix)
{
	CHECK_EQ(ssh_probe((const uint8_t *)"SSH-2.0", 7), 1);
	CHECK_EQ(ssh_probe((const uint8_t *)"SS", 2), -1);
	CHECK_EQ(ssh_probe((const uint8_t *)"GET /", 5), 0);
	CHECK_EQ(ssh_probe((const uint8_t *)"ssh-", 4), 0);   /* case matters */
}

TEST(ssh_json_object_fields)
{
	SshState *s = ssh_state_new(1);
	uint8_t buf[2048];
	size_t n;
	json_t *j;

	memcpy(buf, "SSH-2.0-OpenSSH_9.0 c\r\n", 23);
	n = 23 + kexinit(buf + 23);
	ssh_parse(s, SSH_TOSERVER, buf, n);
	j = ssh_json_object(s, 1);
	json_t *c = json_object_get(j, "client"), *h = json_object_get(c, "hassh");
	const char *sw = json_string_value(json_object_get(c, "software_version"));
	const char *pv = json_string_value(json_object_get(c, "proto_version"));
	const char *hs = json_string_value(json_object_get(h, "string"));

	CHECK_STREQ(sw, "OpenSSH_9.0");
	CHECK_STREQ(pv, "2.0");
	CHECK_STREQ(hs, CLIENT_HASSH);
	CHECK(!json_object_get(j, "server"));
	json_decref(j);
	j = ssh_json_object(s, 0);
	CHECK(!json_object_get(json_object_get(j, "client"), "hassh"));
	json_decref(j);
	ssh_state_free(s);
}

/* ---- through the app layer ---- */


TEST(ssh_detected_on_any_port_one_tx_progress)
{
	AppLayerConfig cfg;
	AppLayerThread *at;
	Flow f;
	uint8_t buf[2048];
	size_t n;
	void *tx;

	app_layer_config_load(&cfg);
	at = app_layer_thread_new(&cfg, app_test_counters());
	memset(&f, 0, sizeof(f));
	f.proto = 6;
	f.sp = 40000;
	f.dp = 2222;
	/* the server speaks first */
	CHECK_EQ(app_layer_handle_data(at, &f, APP_DIR_TOCLIENT, (const uint8_t *)"SSH-2.0-srv\r\n", 13, 0), 0);
	CHECK_EQ(f.app_proto, ALPROTO_SSH);
	CHECK_EQ(app_layer_tx_count(&f), 1);
	tx = app_layer_tx_get(&f, 0);
	CHECK(tx);
	CHECK_EQ(app_layer_tx_progress(&f, tx, APP_DIR_TOCLIENT), SSH_PROGRESS_BANNER);
	CHECK_EQ(app_layer_tx_progress(&f, tx, APP_DIR_TOSERVER), 0);
	memcpy(buf, "SSH-2.0-cli\r\n", 13);
	n = 13 + kexinit(buf + 13);
	CHECK_EQ(app_layer_handle_data(at, &f, APP_DIR_TOSERVER, buf, (uint32_t)n, 0), 0);
	CHECK_EQ(app_layer_tx_progress(&f, tx, APP_DIR_TOSERVER), SSH_PROGRESS_KEX);
	n = newkeys(buf);
	app_layer_handle_data(at, &f, APP_DIR_TOSERVER, buf, (uint32_t)n, 0);
	CHECK_EQ(app_layer_tx_progress(&f, tx, APP_DIR_TOSERVER), SSH_PROGRESS_DONE);
	CHECK_EQ(app_layer_tx_progress(&f, tx, APP_DIR_TOCLIENT), SSH_PROGRESS_BANNER);
	/* the side that closes is done */
	app_layer_handle_data(at, &f, APP_DIR_TOCLIENT, NULL, 0, APP_EOF);
	CHECK_EQ(app_layer_tx_progress(&f, tx, APP_DIR_TOCLIENT), SSH_PROGRESS_DONE);
	CHECK_EQ(app_layer_event_lookup(ALPROTO_SSH, "invalid_banner"), SSH_EV_INVALID_BANNER);
	CHECK_STREQ(app_proto_name(ALPROTO_SSH), "ssh");
	CHECK_EQ(app_proto_by_name("SSH"), ALPROTO_SSH);
	app_layer_flow_free(&f);
	app_layer_thread_free(at);
}

TEST(ssh_keyword_buffers_and_rule_options)
{
	SshState *s = ssh_state_new(1);
	uint8_t buf[2048];
	size_t n;
	const uint8_t *d;
	uint32_t len;
	/* the getter takes the tx; the tx's first member is the state */
	struct { SshState *s; } fake = { s };
	char want[33];

	memcpy(buf, "SSH-2.0-cli_1\r\n", 15);
	n = 15 + kexinit(buf + 15);
	ssh_parse(s, SSH_TOSERVER, buf, n);
	CHECK_EQ(ssh_buffer_get(detect_buffer(BUF_SSH_SOFTWARE), &fake, APP_DIR_TOSERVER, 0, &d, &len), 0);
	CHECK_EQ(len, 5);
	CHECK_EQ(memcmp(d, "cli_1", 5), 0);
	CHECK_EQ(ssh_buffer_get(detect_buffer(BUF_SSH_SOFTWARE), &fake, APP_DIR_TOCLIENT, 0, &d, &len), -1);
	CHECK_EQ(ssh_buffer_get(detect_buffer(BUF_SSH_PROTO), &fake, APP_DIR_TOSERVER, 1, &d, &len), -1);
	CHECK_EQ(ssh_buffer_get(detect_buffer(BUF_SSH_HASSH), &fake, APP_DIR_TOSERVER, 0, &d, &len), 0);
	md5_hex(CLIENT_HASSH, want);
	CHECK_EQ(len, 32);
	CHECK_EQ(memcmp(d, want, 32), 0);
	CHECK_EQ(ssh_buffer_get(detect_buffer(BUF_SSH_HASSH_STRING), &fake, APP_DIR_TOSERVER, 0, &d, &len), 0);
	CHECK_EQ(len, strlen(CLIENT_HASSH));
	CHECK_EQ(ssh_buffer_get(detect_buffer(BUF_SSH_HASSH_SERVER), &fake, APP_DIR_TOCLIENT, 0, &d, &len), -1);
	CHECK_STREQ(detect_buffer(BUF_SSH_HASSH_SERVER_STRING)->name, "ssh.hassh.server.string");
	CHECK_EQ(detect_buffer(BUF_SSH_HASSH_SERVER)->side, DBUF_TC);
	ssh_state_free(s);
}

TEST(ssh_rule_keywords_load_and_reject)
{
	int l, f, s, r;

	r = test_load_rules(
		"alert ssh any any -> any any (ssh.proto; content:\"2.0\"; sid:1;)\n"
		"alert ssh any any -> any any (flow:to_server; ssh_proto; content:\"PUTTY\"; sid:2;)\n"
		"alert tcp any any -> any any (ssh.software; content:\"libssh\"; sid:3;)\n"
		"alert ssh any any -> any any (ssh_software; content:\"x\"; sid:4;)\n"
		"alert ssh any any -> any any (ssh.protoversion:2_compat; sid:5;)\n"
		"alert ssh any any -> any any (ssh.softwareversion:\"OpenSSH\"; sid:6;)\n"
		"alert ssh any any -> any any (ssh_state:banner_done; sid:7;)\n"
		"alert ssh any any -> any any (ssh_state:!finished; sid:8;)\n"
		"alert ssh any any -> any any (ssh.hassh.server.string; content:\"none\"; sid:9;)\n",
		&l, &f, &s);
	CHECK_EQ(r, 0);
	CHECK_EQ(l, 9);
	CHECK_EQ(f, 0);
	CHECK(ssh_hassh_enabled());       /* a hassh rule turns it on */
	test_load_rules("alert ssh any any -> any any (ssh_state:bogus; sid:1;)\n"
			"alert http any any -> any any (ssh.proto; content:\"x\"; sid:2;)\n"
			"alert udp any any -> any any (ssh.software; content:\"x\"; sid:3;)\n"
			"alert ssh any any -> any any (ssh.protoversion; sid:4;)\n",
			&l, &f, &s);
	CHECK_EQ(l, 0);
	CHECK_EQ(f, 4);
}
