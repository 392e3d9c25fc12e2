/* SMB: the stream parser (app-layer/smb-parse.h): NBSS framing across
 * segments, transactions per request/response, the commands' fields, file
 * transactions, gaps and resync; the eve object (output/smb-json.h); the
 * keywords (detect/smb-kw.c). Records are built here from MS-SMB2's
 * layouts, independently of the parser's code. */
#include "config.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app-layer/files.h"
#include "app-layer/smb-parse.h"
#include "detect/buffers.h"
#include "detect/detect-parse.h"
#include "output/smb-json.h"
#include "app-test-util.h"

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* An NBSS-framed SMB2 message: header (64) + body; returns the total. */
static size_t smb2_msg(uint8_t *out, uint16_t cmd, int resp, uint32_t status, uint64_t msg_id,
		       uint32_t tree_id, uint64_t session, const uint8_t *body, size_t blen)
{
	uint8_t *h = out + 4;
	size_t n = 64 + blen;

	memset(out, 0, 4 + 64);
	out[1] = (uint8_t)(n >> 16);
	out[2] = (uint8_t)(n >> 8);
	out[3] = (uint8_t)n;
	memcpy(h, "\xfeSMB", 4);
	put16(h + 4, 64);
	put32(h + 8, status);
	put16(h + 12, cmd);
	put32(h + 16, resp ? 1 : 0);
	put64(h + 24, msg_id);
	put32(h + 36, tree_id);
	put64(h + 40, session);
	memcpy(h + 64, body, blen);
	return 4 + n;
}

/* UTF-16LE of an ascii string into out; returns bytes */
static size_t utf16(uint8_t *out, const char *s)
{
	size_t n = strlen(s);

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = (uint8_t)s[i];
		out[2 * i + 1] = 0;
	}
	return 2 * n;
}

static size_t tree_connect_req(uint8_t *out, uint64_t mid, const char *path)
{
	uint8_t b[256] = { 0 };
	size_t pl = utf16(b + 8, path);

	put16(b, 9);
	put16(b + 4, 64 + 8);
	put16(b + 6, (uint16_t)pl);
	return smb2_msg(out, 3, 0, 0, mid, 0, 77, b, 8 + pl);
}

static size_t tree_connect_resp(uint8_t *out, uint64_t mid, uint32_t tree, uint8_t type)
{
	uint8_t b[16] = { 0 };

	put16(b, 16);
	b[2] = type;
	return smb2_msg(out, 3, 1, 0, mid, tree, 77, b, 16);
}

static size_t create_req(uint8_t *out, uint64_t mid, uint32_t tree, const char *name)
{
	uint8_t b[256] = { 0 };
	size_t nl = utf16(b + 56, name);

	put16(b, 57);
	put32(b + 36, 2);           /* FILE_CREATE */
	put16(b + 44, 64 + 56);
	put16(b + 46, (uint16_t)nl);
	return smb2_msg(out, 5, 0, 0, mid, tree, 77, b, 56 + nl);
}

static const uint8_t FID[16] = { 0x4d, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0xff, 0xff, 0xff, 0xff };

static size_t create_resp(uint8_t *out, uint64_t mid, uint32_t tree)
{
	uint8_t b[88] = { 0 };

	put16(b, 89);
	/* 2011-12-06 20:18:15 UTC as FILETIME */
	put64(b + 8, (1323202695ull + 11644473600ull) * 10000000ull);
	put64(b + 48, 1234);
	memcpy(b + 64, FID, 16);
	return smb2_msg(out, 5, 1, 0, mid, tree, 77, b, 88);
}

static size_t write_req(uint8_t *out, uint64_t mid, uint32_t tree, uint64_t off,
			const uint8_t *data, size_t len)
{
	uint8_t b[4096] = { 0 };

	put16(b, 49);
	put16(b + 2, 64 + 48);
	put32(b + 4, (uint32_t)len);
	put64(b + 8, off);
	memcpy(b + 16, FID, 16);
	memcpy(b + 48, data, len);
	return smb2_msg(out, 9, 0, 0, mid, tree, 77, b, 48 + len);
}

static size_t close_req(uint8_t *out, uint64_t mid, uint32_t tree)
{
	uint8_t b[24] = { 0 };

	put16(b, 24);
	memcpy(b + 8, FID, 16);
	return smb2_msg(out, 6, 0, 0, mid, tree, 77, b, 24);
}

static SmbTx *nth_tx(SmbState *s, int n)
{
	SmbTx *t = s->head;

	while (t && n--)
		t = t->next;
	return t;
}

static int ntx(const SmbState *s)
{
	int n = 0;

	for (SmbTx *t = s->head; t; t = t->next)
		n++;
	return n;
}

TEST(smb_probe_nbss_and_magic)
{
	const uint8_t smb2[8] = { 0, 0, 0, 0x40, 0xfe, 'S', 'M', 'B' };
	const uint8_t smb1[8] = { 0, 0, 0, 0x40, 0xff, 'S', 'M', 'B' };
	const uint8_t http[8] = { 'G', 'E', 'T', ' ', '/', ' ', 'H', 'T' };
	const uint8_t other[8] = { 0, 0, 0, 0x40, 'x', 'S', 'M', 'B' };
	const uint8_t sessreq[4] = { 0x81, 0, 0, 0x44 };

	CHECK_EQ(smb_probe(smb2, 8, 0, NULL), 1);
	CHECK_EQ(smb_probe(smb1, 8, 0, NULL), 1);
	CHECK_EQ(smb_probe(smb2, 5, 0, NULL), -1);
	CHECK_EQ(smb_probe(http, 8, 1, NULL), 0);
	CHECK_EQ(smb_probe(other, 8, 1, NULL), 0);
	/* an NBSS session request counts only on an SMB port */
	CHECK_EQ(smb_probe(sessreq, 4, 1, NULL), 1);
	CHECK_EQ(smb_probe(sessreq, 4, 0, NULL), 0);
}

TEST(smb_probe_reports_response_flag)
{
	uint8_t m[128];
	int reply = -1;
	size_t n = tree_connect_resp(m, 1, 1, 1);

	CHECK_EQ(smb_probe(m, n, 0, &reply), 1);
	CHECK_EQ(reply, 1);
	n = tree_connect_req(m, 1, "\\\\h\\s");
	CHECK_EQ(smb_probe(m, n, 0, &reply), 1);
	CHECK_EQ(reply, 0);
}

/* smb.share is a tree connect's name to the server (Suricata registers it
 * toserver only), and a disk share's until the response says pipe: a
 * request to IPC$ whose response has not come yet still gives its name
 * (suricata-verify smb-filename counts those), the answered one gives it
 * to smb.named_pipe instead. */
TEST(smb_share_is_toserver_and_pipe_only_once_answered)
{
	const DetectBuffer *share = &detect_buffers[BUF_SMB_SHARE];
	const DetectBuffer *pipe = &detect_buffers[BUF_SMB_NAMED_PIPE];
	uint8_t m[256];
	SmbState *s = smb_state_new();
	const uint8_t *d;
	uint32_t len;
	SmbTx *t;

	CHECK(s);
	CHECK_EQ(share->side, DBUF_TS);
	smb_parse(s, SMB_TOSERVER, m, tree_connect_req(m, 3, "\\\\h\\IPC$"));
	t = nth_tx(s, 0);
	CHECK(t && !t->is_pipe);
	CHECK_EQ(share->get(share, t, APP_DIR_TOSERVER, 0, &d, &len), 0);
	CHECK_EQ(len, 8);
	CHECK(memcmp(d, "\\\\h\\IPC$", 8) == 0);
	CHECK_EQ(pipe->get(pipe, t, APP_DIR_TOSERVER, 0, &d, &len), -1);
	smb_parse(s, SMB_TOCLIENT, m, tree_connect_resp(m, 3, 7, 2));
	CHECK(t->is_pipe);
	CHECK_EQ(share->get(share, t, APP_DIR_TOSERVER, 0, &d, &len), -1);
	CHECK_EQ(pipe->get(pipe, t, APP_DIR_TOSERVER, 0, &d, &len), 0);
	CHECK_EQ(len, 8);
	smb_state_free(s);
}

/* A record fed one byte at a time is the same as in one piece; two records
 * in one segment are both parsed. */
TEST(smb_records_split_and_several_per_segment)
{
	uint8_t req[256], resp[128], both[512];
	size_t nq = tree_connect_req(req, 5, "\\\\10.0.0.12\\IPC$");
	size_t nr = tree_connect_resp(resp, 5, 9, 2);
	SmbState *s = smb_state_new();
	SmbTx *t;

	CHECK(s);
	for (size_t i = 0; i < nq; i++)
		smb_parse(s, SMB_TOSERVER, req + i, 1);
	CHECK_EQ(ntx(s), 1);
	t = nth_tx(s, 0);
	CHECK(t->request_done && !t->response_done);
	smb_parse(s, SMB_TOCLIENT, resp, nr);
	CHECK(t->response_done);
	CHECK_EQ(t->type, SMB_TXT_TREE_CONNECT);
	CHECK_STREQ(t->share.s, "\\\\10.0.0.12\\IPC$");
	CHECK_EQ(t->share_type, 2);
	CHECK(t->is_pipe);
	CHECK_EQ(t->tree_id, 9);
	CHECK_EQ(t->log_id, 1);
	CHECK_EQ(s->st.records, 2);

	/* two requests in one segment, the second split across the next */
	memcpy(both, req, nq);
	memcpy(both + nq, req, nq);
	put64(both + nq + 4 + 24, 6);       /* message id 6 */
	smb_parse(s, SMB_TOSERVER, both, nq + 10);
	CHECK_EQ(ntx(s), 2);
	smb_parse(s, SMB_TOSERVER, both + nq + 10, nq - 10);
	CHECK_EQ(ntx(s), 3);
	CHECK_EQ(nth_tx(s, 2)->msg_id, 6);
	smb_state_free(s);
}

TEST(smb_negotiate_dialects_and_guid)
{
	uint8_t b[64] = { 0 }, m[256];
	SmbState *s = smb_state_new();
	SmbTx *t;
	size_t n;

	put16(b, 36);
	put16(b + 2, 3);
	b[12] = 0x11;
	put16(b + 36, 0x0202);
	put16(b + 38, 0x0311);
	put16(b + 40, 0x0999);
	n = smb2_msg(m, 0, 0, 0, 0, 0, 0, b, 42);
	smb_parse(s, SMB_TOSERVER, m, n);
	memset(b, 0, sizeof(b));
	put16(b, 65);
	put16(b + 4, 0x0311);
	for (int i = 0; i < 16; i++)
		b[8 + i] = (uint8_t)i;
	put32(b + 32, 8388608);
	put32(b + 36, 65536);
	n = smb2_msg(m, 0, 1, 0, 0, 0, 0, b, 64);
	smb_parse(s, SMB_TOCLIENT, m, n);
	t = nth_tx(s, 0);
	CHECK(t && t->response_done);
	CHECK_EQ(t->ndialects, 3);
	CHECK_STREQ(t->dialects[0].s, "2.02");
	CHECK_STREQ(t->dialects[1].s, "3.11");
	CHECK_STREQ(t->dialects[2].s, "2457");
	CHECK_EQ(s->dialect2, 0x0311);
	CHECK_EQ(t->max_read, 8388608);
	{
		json_t *o = smb_json_object(NULL, t);
		char *txt = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);

		CHECK(strstr(txt, "\"command\":\"SMB2_COMMAND_NEGOTIATE_PROTOCOL\""));
		CHECK(strstr(txt, "\"status\":\"STATUS_SUCCESS\",\"status_code\":\"0x0\""));
		CHECK(strstr(txt, "\"server_guid\":\"03020100-0504-0706-0908-0b0a0f0e0d0c\""));
		CHECK(strstr(txt, "\"client_dialects\":[\"2.02\",\"3.11\",\"2457\"]"));
		free(txt);
		json_decref(o);
	}
	smb_state_free(s);
}

/* create, two writes (the second leaving a hole), close: one file
 * transaction with the create's name and the write response's status; the
 * write requests are no transactions of their own. */
TEST(smb_write_to_file_is_one_file_transaction)
{
	uint8_t m[8192];
	SmbState *s = smb_state_new();
	SmbTx *t, *ft = NULL;
	size_t n;
	int nfile = 0;
	const File *fl;

	smb_parse(s, SMB_TOSERVER, m, tree_connect_req(m, 1, "\\\\srv\\share"));
	smb_parse(s, SMB_TOCLIENT, m, tree_connect_resp(m, 1, 4, 1));
	smb_parse(s, SMB_TOSERVER, m, create_req(m, 2, 4, "dir\\a.pdf"));
	smb_parse(s, SMB_TOCLIENT, m, create_resp(m, 2, 4));
	t = nth_tx(s, 1);
	CHECK_EQ(t->type, SMB_TXT_CREATE);
	CHECK_STREQ(t->filename.s, "dir\\a.pdf");
	CHECK_EQ(t->created, 1323202695);
	CHECK_EQ(t->size, 1234);
	n = write_req(m, 3, 4, 0, (const uint8_t *)"%PDF-1.5 hello", 14);
	smb_parse(s, SMB_TOSERVER, m, n);
	smb_parse(s, SMB_TOCLIENT, m, smb2_msg(m, 9, 1, 0, 3, 4, 77, (const uint8_t *)"\x11\0\0\0", 4));
	n = write_req(m, 4, 4, 20, (const uint8_t *)"tail", 4);
	smb_parse(s, SMB_TOSERVER, m, n);
	smb_parse(s, SMB_TOSERVER, m, close_req(m, 5, 4));
	for (t = s->head; t; t = t->next) {
		if (t->type == SMB_TXT_FILE) {
			ft = t;
			nfile++;
		}
	}
	CHECK_EQ(nfile, 1);
	CHECK(ft->request_done && ft->response_done);
	CHECK_STREQ(ft->filename.s, "dir\\a.pdf");
	CHECK_STREQ(ft->share.s, "\\\\srv\\share");
	CHECK(ft->status_set && ft->status == 0);
	fl = files_first(&ft->files[SMB_TOSERVER]);
	CHECK(fl);
	CHECK_EQ(file_size(fl), 24);
	CHECK(file_has_gaps(fl));
	CHECK_EQ(file_state(fl), FILE_STATE_CLOSED);
	/* ids: tree connect 1, create 2, the file 3, close 4 (no write) */
	CHECK_EQ(ft->log_id, 3);
	CHECK_EQ(nth_tx(s, ntx(s) - 1)->log_id, 4);
	smb_state_free(s);
}

TEST(smb_pending_then_final_response)
{
	uint8_t m[512];
	SmbState *s = smb_state_new();
	SmbTx *t;
	size_t n;

	smb_parse(s, SMB_TOSERVER, m, smb2_msg(m, 15, 0, 0, 7, 1, 77, (const uint8_t *)"\x20\0", 2));
	n = smb2_msg(m, 15, 1, 0x103, 7, 0, 77, (const uint8_t *)"\x09\0", 2);
	put32(m + 4 + 16, 3);           /* response, async */
	smb_parse(s, SMB_TOCLIENT, m, n);
	t = nth_tx(s, 0);
	CHECK_EQ(ntx(s), 1);
	CHECK(t->pending && !t->response_done);
	n = smb2_msg(m, 15, 1, 0x10c, 7, 0, 77, (const uint8_t *)"\x09\0", 2);
	put32(m + 4 + 16, 3);
	smb_parse(s, SMB_TOCLIENT, m, n);
	CHECK_EQ(ntx(s), 1);
	CHECK(t->response_done);
	CHECK_EQ(t->status, 0x10c);
	CHECK_STREQ(smb_ntstatus_name(t->status), "STATUS_NOTIFY_ENUM_DIR");
	smb_state_free(s);
}

/* After a gap the framer skips to the next record start. */
TEST(smb_gap_resyncs_on_next_record)
{
	uint8_t m[512], junk[37];
	SmbState *s = smb_state_new();
	size_t n = tree_connect_req(m, 1, "\\\\h\\x");

	smb_parse(s, SMB_TOSERVER, m, 20);          /* a record cut short */
	smb_gap(s, SMB_TOSERVER, 500);
	memset(junk, 0x41, sizeof(junk));
	smb_parse(s, SMB_TOSERVER, junk, sizeof(junk));
	smb_parse(s, SMB_TOSERVER, m, n);
	CHECK_EQ(s->st.gaps, 1);
	CHECK_EQ(s->st.resyncs, 1);
	CHECK_EQ(ntx(s), 1);
	CHECK_STREQ(nth_tx(s, 0)->share.s, "\\\\h\\x");
	smb_state_free(s);
}

TEST(smb3_transform_is_counted_not_parsed)
{
	uint8_t m[128] = { 0 };

	SmbState *s = smb_state_new();
	m[3] = 60;
	memcpy(m + 4, "\xfdSMB", 4);
	smb_parse(s, SMB_TOSERVER, m, 64);
	CHECK_EQ(s->st.encrypted, 1);
	CHECK_EQ(ntx(s), 0);
	smb_state_free(s);
}

/* NTLMSSP AUTHENTICATE in a session setup's security blob, unicode */
TEST(smb_session_setup_ntlmssp_names)
{
	uint8_t b[512] = { 0 }, m[1024], *a;
	SmbState *s = smb_state_new();
	SmbTx *t;
	size_t off = 88, dl, ul, hl;

	put16(b, 25);
	put16(b + 12, 64 + 24);
	a = b + 24;
	memcpy(a, "NTLMSSP\0", 8);
	put32(a + 8, 3);
	dl = utf16(a + off, "CONTOSO");
	ul = utf16(a + off + dl, "Administrator");
	hl = utf16(a + off + dl + ul, "SERVER01");
	put16(a + 28, (uint16_t)dl);
	put32(a + 32, (uint32_t)off);
	put16(a + 36, (uint16_t)ul);
	put32(a + 40, (uint32_t)(off + dl));
	put16(a + 44, (uint16_t)hl);
	put32(a + 48, (uint32_t)(off + dl + ul));
	put32(a + 60, 0x02000001);      /* unicode, version */
	a[64] = 6;
	a[65] = 1;
	put16(a + 66, 7601);
	a[71] = 15;
	put16(b + 14, (uint16_t)(off + dl + ul + hl));
	smb_parse(s, SMB_TOSERVER, m, smb2_msg(m, 1, 0, 0, 2, 0, 0, b, 24 + off + dl + ul + hl));
	t = nth_tx(s, 0);
	CHECK(t && t->have_ntlmssp);
	CHECK_STREQ(t->ntlm_domain.s, "CONTOSO");
	CHECK_STREQ(t->ntlm_user.s, "Administrator");
	CHECK_STREQ(t->ntlm_host.s, "SERVER01");
	{
		json_t *o = smb_json_object(NULL, t);
		char *txt = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);

		CHECK(strstr(txt, "\"ntlmssp\":{\"domain\":\"CONTOSO\",\"user\":\"Administrator\","
			      "\"host\":\"SERVER01\",\"version\":\"6.1 build 7601 rev 15\"}"));
		free(txt);
		json_decref(o);
	}
	/* a blob whose offsets run past it is an event, not a crash */
	put32(a + 32, 100000);
	smb_parse(s, SMB_TOSERVER, m, smb2_msg(m, 1, 0, 0, 3, 0, 0, b, 24 + off + dl + ul + hl));
	CHECK(nth_tx(s, 1)->events & (1u << SMB_EV_MALFORMED_NTLMSSP_REQUEST));
	smb_state_free(s);
}

TEST(smb_names_and_formats)
{
	char buf[64];
	const uint8_t g[16] = { 0x65, 0, 0, 0, 0x30, 0, 0, 0, 0x25, 0, 0x20, 0, 0xff, 0xff, 0xff, 0xff };

	smb_guid_str(g, 16, buf, sizeof(buf));
	CHECK_STREQ(buf, "00000065-0030-0000-0025-0020ffffffff");
	smb_guid_str((const uint8_t *)"\x01\x40", 2, buf, sizeof(buf));
	CHECK_STREQ(buf, "4001");
	CHECK_STREQ(smb2_command_name(14), "SMB2_COMMAND_FIND");
	CHECK_STREQ(smb1_command_name(0x2f), "SMB1_COMMAND_WRITE_ANDX");
	CHECK_STREQ(smb_ntstatus_name(0xc0000022), "STATUS_ACCESS_DENIED");
	CHECK(smb_ntstatus_name(0x12345678) == NULL);
	CHECK_STREQ(smb_dos_error_name(2, 91), "SRV_BADUID");
	CHECK_EQ(smb_event_by_name("record_overflow"), SMB_EV_RECORD_OVERFLOW);
	CHECK_EQ(smb_event_by_name("nope"), -1);
	CHECK_EQ(smb_utf16_to_utf8((const uint8_t *)"\x3d\xd8\x00\xde", 4, buf, sizeof(buf)), 4);
	CHECK_STREQ(buf, "\xf0\x9f\x98\x80");
}

TEST(smb_rule_keywords_load_and_reject)
{
	int l, f, r;

	r = test_load_rules(
		"alert smb any any -> any any (smb.share; content:\"C$\"; sid:1;)\n"
		"alert smb any any -> any any (smb_named_pipe; content:\"IPC$\"; sid:2;)\n"
		"alert tcp any any -> any any (smb.ntlmssp_user; content:\"admin\"; sid:3;)\n"
		"alert smb any any -> any any (smb.ntlmssp_domain; content:\"X\"; sid:4;)\n"
		"alert smb any any -> any any (smb.version:1; sid:5;)\n"
		"alert smb any any -> any any (smb.version:!2; sid:6;)\n"
		"alert smb any any -> any any (content:\"|ff|SMB\"; offset:4; sid:7;)\n",
		&l, &f, NULL);
	CHECK_EQ(r, 0);
	CHECK_EQ(l, 7);
	CHECK_EQ(f, 0);
	test_load_rules("alert smb any any -> any any (smb.version:4; sid:1;)\n"
			"alert http any any -> any any (smb.share; content:\"x\"; sid:2;)\n"
			"alert udp any any -> any any (smb.share; content:\"x\"; sid:3;)\n"
			"alert smb any any -> any any (smb.version; sid:4;)\n",
			&l, &f, NULL);
	CHECK_EQ(l, 0);
	CHECK_EQ(f, 4);
}

/* A WRITE whose record the stream cuts (depth, gap, end): the bytes that
 * came still reach the file, which ends truncated with the rest missing. */
TEST(smb_cut_record_still_gives_its_file)
{
	uint8_t m[8192], data[1000];
	SmbState *s = smb_state_new();
	SmbTx *ft = NULL;
	size_t n;
	const File *fl;

	memset(data, 'A', sizeof(data));
	smb_parse(s, SMB_TOSERVER, m, tree_connect_req(m, 1, "\\\\srv\\share"));
	smb_parse(s, SMB_TOCLIENT, m, tree_connect_resp(m, 1, 4, 1));
	smb_parse(s, SMB_TOSERVER, m, create_req(m, 2, 4, "big.bin"));
	smb_parse(s, SMB_TOCLIENT, m, create_resp(m, 2, 4));
	n = write_req(m, 3, 4, 0, data, sizeof(data));
	smb_parse(s, SMB_TOSERVER, m, n - 400);     /* 600 of the 1000 bytes */
	smb_eof(s, SMB_TOSERVER);
	for (SmbTx *t = s->head; t; t = t->next)
		if (t->type == SMB_TXT_FILE)
			ft = t;
	CHECK(ft);
	CHECK(ft->request_done && ft->response_done);
	fl = files_first(&ft->files[SMB_TOSERVER]);
	CHECK(fl);
	CHECK_EQ(file_size(fl), 1000);
	CHECK(file_has_gaps(fl));
	CHECK_EQ(file_state(fl), FILE_STATE_TRUNCATED);
	smb_state_free(s);
}

/* SMB1 AndX: a chained command is a transaction of its own. */
TEST(smb1_andx_chain_gives_each_command)
{
	uint8_t m[512] = { 0 }, *h = m + 4;
	SmbState *s = smb_state_new();
	size_t at, n;
	SmbTx *t;

	memcpy(h, "\xffSMB", 4);
	h[4] = 0x73;                        /* SESSION_SETUP_ANDX */
	put16(h + 10, 0x4000);              /* NT status, ascii */
	put16(h + 30, 9);                   /* mid */
	h[32] = 12;                         /* wc: extended security */
	h[33] = 0x75;                       /* andx: TREE_CONNECT_ANDX */
	at = 32 + 1 + 24 + 2;               /* no security blob, no bytes */
	put16(h + 35, (uint16_t)at);
	h[at] = 4;                          /* tree connect wc */
	h[at + 1] = 0xff;
	put16(h + at + 7, 1);               /* password length */
	{
		const char bytes[] = "\0\\\\srv\\C$\0?????";

		put16(h + at + 9, sizeof(bytes));
		memcpy(h + at + 11, bytes, sizeof(bytes));
		n = at + 11 + sizeof(bytes);
	}
	m[2] = (uint8_t)(n >> 8);
	m[3] = (uint8_t)n;
	smb_parse(s, SMB_TOSERVER, m, 4 + n);
	CHECK_EQ(ntx(s), 2);
	t = nth_tx(s, 1);
	CHECK_EQ(t->cmd, 0x75);
	CHECK_STREQ(t->share.s, "\\\\srv\\C$");
	CHECK_STREQ(t->req_service.s, "?????");
	CHECK(!t->is_pipe);
	smb_state_free(s);
}

/* ---- DCE/RPC over a named pipe (smb-pipe.c) ---- */

/* A DCE/RPC CO PDU (little-endian drep, first and last fragment): the
 * 16-byte header then body; returns the length. */
static size_t dce_pdu(uint8_t *out, uint8_t ptype, uint32_t call_id, const uint8_t *body,
		      size_t blen)
{
	memset(out, 0, 16);
	out[0] = 5;
	out[2] = ptype;
	out[3] = 0x03;
	out[4] = 0x10;
	put16(out + 8, (uint16_t)(16 + blen));
	put32(out + 12, call_id);
	memcpy(out + 16, body, blen);
	return 16 + blen;
}

/* interface 12345778-1234-abcd-ef00-0123456789ab (lsarpc) v0.0 as it is
 * on the wire (the first three fields little-endian) */
static const uint8_t LSA_WIRE[16] = { 0x78, 0x57, 0x34, 0x12, 0x34, 0x12, 0xcd, 0xab,
				      0xef, 0x00, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab };

/* An SMB2 IOCTL FSCTL_PIPE_TRANSCEIVE on FID carrying data: the request's
 * input, or the response's output. */
static size_t transceive(uint8_t *out, int resp, uint64_t mid, uint32_t tree,
			 const uint8_t *data, size_t len)
{
	uint8_t b[1024] = { 0 };

	put16(b, resp ? 49 : 57);
	put32(b + 4, 0x0011c017);  /* FSCTL_PIPE_TRANSCEIVE */
	memcpy(b + 8, FID, 16);
	if (resp) {
		put32(b + 32, 64 + 48);
		put32(b + 36, (uint32_t)len);
		memcpy(b + 48, data, len);
		return smb2_msg(out, 11, 1, 0, mid, tree, 77, b, 48 + len);
	}
	put32(b + 24, 64 + 56);
	put32(b + 28, (uint32_t)len);
	memcpy(b + 56, data, len);
	return smb2_msg(out, 11, 0, 0, mid, tree, 77, b, 56 + len);
}

static SmbTx *tx_by_msg(SmbState *s, uint64_t mid)
{
	for (SmbTx *t = s->head; t; t = t->next)
		if (t->msg_id == mid && !t->silent)
			return t;
	return NULL;
}

TEST(smb_pipe_carries_dcerpc_bind_and_request)
{
	uint8_t m[4096], pdu[512], body[256];
	uint8_t want[16];
	SmbState *s = smb_state_new();
	SmbTx *t;
	size_t n;
	json_t *o, *d;

	smb_parse(s, SMB_TOSERVER, m, tree_connect_req(m, 1, "\\\\srv\\IPC$"));
	smb_parse(s, SMB_TOCLIENT, m, tree_connect_resp(m, 1, 4, 2));
	smb_parse(s, SMB_TOSERVER, m, create_req(m, 2, 4, "lsarpc"));
	smb_parse(s, SMB_TOCLIENT, m, create_resp(m, 2, 4));

	/* bind: one context (id 0) for the interface, NDR transfer syntax */
	memset(body, 0, sizeof(body));
	put16(body, 4280);
	put16(body + 2, 4280);
	body[8] = 1;                /* n_context_elem */
	put16(body + 12, 0);        /* p_cont_id */
	body[14] = 1;               /* n_transfer_syn */
	memcpy(body + 16, LSA_WIRE, 16);
	memset(body + 36, 0x8a, 16);
	put32(body + 52, 2);
	n = dce_pdu(pdu, 11, 1, body, 56);
	smb_parse(s, SMB_TOSERVER, m, transceive(m, 0, 3, 4, pdu, n));
	/* bind_ack: no secondary address, one result: acceptance */
	memset(body, 0, sizeof(body));
	put16(body, 4280);
	put16(body + 2, 4280);
	body[12] = 1;               /* n_results, at PDU offset 28 */
	memset(body + 20, 0x8a, 16);
	put32(body + 36, 2);
	n = dce_pdu(pdu, 12, 1, body, 40);
	smb_parse(s, SMB_TOCLIENT, m, transceive(m, 1, 3, 4, pdu, n));

	t = tx_by_msg(s, 3);
	CHECK(t && t->dce);
	CHECK_EQ(t->dce->req_type, 11);
	CHECK_EQ(t->dce->resp_type, 12);
	CHECK_EQ(t->dce->nifaces, 1);
	CHECK(dcerpc_uuid_parse("12345778-1234-abcd-ef00-0123456789ab", want) == 0);
	CHECK(memcmp(t->dce->ifaces[0].uuid, want, 16) == 0);
	CHECK(t->dce->ifaces[0].acked);
	CHECK_EQ(t->dce->ifaces[0].ack_result, 0);

	/* a request on context 0, opnum 15, written to the pipe */
	memset(body, 0, sizeof(body));
	put32(body, 4);
	put16(body + 4, 0);
	put16(body + 6, 15);
	memcpy(body + 8, "STUB", 4);
	n = dce_pdu(pdu, 0, 2, body, 12);
	smb_parse(s, SMB_TOSERVER, m, write_req(m, 4, 4, 0, pdu, n));
	t = tx_by_msg(s, 4);
	CHECK(t && t->is_pipe && t->dce);
	CHECK_EQ(t->dce->req_type, 0);
	CHECK_EQ(t->dce->opnum, 15);
	CHECK_EQ(t->dce->call_id, 2);
	CHECK(t->dce->has_iface && t->dce->iface.acked);
	CHECK(memcmp(t->dce->iface.uuid, want, 16) == 0);
	CHECK_EQ(t->dce->stub[0].len, 4);
	CHECK(memcmp(t->dce->stub[0].data, "STUB", 4) == 0);
	CHECK_EQ(t->dce->resp_type, DCERPC_PTYPE_NONE);

	/* eve: smb.dcerpc of the request */
	o = smb_json_object(NULL, t);
	d = json_object_get(o, "dcerpc");
	CHECK(d);
	CHECK_STREQ(json_string_value(json_object_get(d, "request")), "REQUEST");
	CHECK_STREQ(json_string_value(json_object_get(d, "response")), "UNREPLIED");
	CHECK_EQ(json_integer_value(json_object_get(d, "opnum")), 15);
	CHECK_EQ(json_integer_value(json_object_get(d, "call_id")), 2);
	CHECK_EQ(json_integer_value(json_object_get(json_object_get(d, "req"), "stub_data_size")), 4);
	json_decref(o);

	/* the WRITE's SMB answer leaves its transaction open for the call's
	 * answer, which a READ brings */
	smb_parse(s, SMB_TOCLIENT, m, smb2_msg(m, 9, 1, 0, 4, 4, 77, (const uint8_t *)"\x11\0\0\0", 4));
	CHECK(!t->response_done && t->pipe_wait);
	memset(body, 0, sizeof(body));
	put16(body, 49);
	put32(body + 4, 1024);
	memcpy(body + 16, FID, 16);
	smb_parse(s, SMB_TOSERVER, m, smb2_msg(m, 8, 0, 0, 5, 4, 77, body, 49));
	{
		uint8_t rb[256] = { 0 }, rp[64];
		size_t rn;

		memset(body, 0, sizeof(body));
		put32(body, 4);
		memcpy(body + 8, "RESP", 4);
		rn = dce_pdu(rp, 2, 2, body, 12);
		put16(rb, 17);
		rb[2] = 64 + 16;
		put32(rb + 4, (uint32_t)rn);
		memcpy(rb + 16, rp, rn);
		smb_parse(s, SMB_TOCLIENT, m, smb2_msg(m, 8, 1, 0, 5, 4, 77, rb, 16 + rn));
	}
	CHECK_EQ(t->dce->resp_type, 2);
	/* a response's stub data is Suricata's: from the end of the header */
	CHECK_EQ(t->dce->stub[1].len, 12);
	CHECK(t->response_done && !t->pipe_wait);
	smb_state_free(s);
}

/* One echo (request, or its response) of message id mid on c's flow. */
static void echo(AppTestCtx *c, int resp, uint64_t mid)
{
	uint8_t m[128], b[4] = { 4, 0, 0, 0 };
	size_t n = smb2_msg(m, 0x0d, resp, 0, mid, 0, 0, b, sizeof(b));

	app_layer_handle_data(c->at, &c->f, resp ? APP_DIR_TOCLIENT : APP_DIR_TOSERVER, m,
			      (uint32_t)n, 0);
}

/* The app layer's tx lookup resumes from its last find (detection and
 * logging ask for rising ids on every packet): ids in any order, and after
 * a gc freed the last find, still give the live tx or NULL (under ASan
 * and valgrind: never the freed one). */
TEST(smb_tx_get_in_any_order_and_after_gc)
{
	AppTestCtx c;
	unsigned wrong = 0;
	const unsigned all = APP_TX_LOGGED | APP_TX_FILE_LOGGED | APP_TX_DETECT_TS | APP_TX_DETECT_TC;

	app_test_init(&c, IPPROTO_TCP, "10.0.0.2", 40000, 445);
	for (uint64_t mid = 1; mid <= 6; mid++)
		echo(&c, 0, mid);
	CHECK_EQ(c.f.app_proto, ALPROTO_SMB);
	CHECK_EQ(app_layer_tx_count(&c.f), 6);
	for (uint64_t id = 0; id < 6; id++) {
		void *tx = app_layer_tx_get(&c.f, id);

		wrong += !tx || app_layer_tx_id(&c.f, tx) != id;
	}
	for (uint64_t id = 6; id-- > 0;) {
		void *tx = app_layer_tx_get(&c.f, id);

		wrong += !tx || app_layer_tx_id(&c.f, tx) != id;
	}
	CHECK_EQ(wrong, 0);
	CHECK(app_layer_tx_get(&c.f, 6) == NULL);
	/* the first three answered and everyone done with them */
	for (uint64_t mid = 1; mid <= 3; mid++)
		echo(&c, 1, mid);
	for (uint64_t id = 0; id < 3; id++)
		app_layer_tx_set_flags(&c.f, app_layer_tx_get(&c.f, id), all);
	app_layer_tx_gc(&c.f, all);
	for (uint64_t id = 0; id < 3; id++)
		wrong += app_layer_tx_get(&c.f, id) != NULL;
	for (uint64_t id = 3; id < 6; id++) {
		void *tx = app_layer_tx_get(&c.f, id);

		wrong += !tx || app_layer_tx_id(&c.f, tx) != id;
	}
	CHECK_EQ(wrong, 0);
	app_test_free(&c);
}

/* An NBSS-framed SMB1 message: header (32), word count, words, an empty
 * byte count; returns the total. */
static size_t smb1_msg(uint8_t *out, uint8_t cmd, int resp, uint16_t mid, const uint8_t *words,
		       uint8_t wc)
{
	uint8_t *h = out + 4;
	size_t n = 32 + 1 + 2u * wc + 2;

	memset(out, 0, 4 + n);
	out[2] = (uint8_t)(n >> 8);
	out[3] = (uint8_t)n;
	memcpy(h, "\xffSMB", 4);
	h[4] = cmd;
	h[9] = resp ? 0x80 : 0;
	put16(h + 30, mid);
	h[32] = wc;
	if (wc)
		memcpy(h + 33, words, 2u * wc);
	return 4 + n;
}

/* Suricata 8's SMB1 transactions (suricata-verify flow-tx-cnt): each
 * TRANS2 secondary request is one, a TRANS2 or a TRANS that is no
 * TransactNmPipe is none, and neither is a response whose request was not
 * seen. next_log_id is what eve's flow tx_cnt shows. */
TEST(smb1_trans_secondaries_and_unpaired_responses)
{
	uint8_t m[256], w[40] = { 0 };
	SmbState *s = smb_state_new();
	size_t n;

	n = smb1_msg(m, 0x25, 0, 1, w, 16);           /* TRANS, setup 0: a peek */
	smb_parse(s, SMB_TOSERVER, m, n);
	n = smb1_msg(m, 0x25, 1, 1, w, 10);           /* its answer */
	smb_parse(s, SMB_TOCLIENT, m, n);
	n = smb1_msg(m, 0x32, 0, 2, w, 15);           /* TRANS2 */
	smb_parse(s, SMB_TOSERVER, m, n);
	for (int i = 0; i < 3; i++) {
		n = smb1_msg(m, 0x33, 0, 3, w, 9);    /* TRANS2 secondary */
		smb_parse(s, SMB_TOSERVER, m, n);
	}
	n = smb1_msg(m, 0x32, 1, 3, w, 10);           /* answer, no request of mid 3 */
	smb_parse(s, SMB_TOCLIENT, m, n);
	n = smb1_msg(m, 0xa0, 1, 7, w, 18);           /* NT_TRANS answer, no request */
	smb_parse(s, SMB_TOCLIENT, m, n);
	CHECK_EQ(s->next_log_id, 3);
	for (SmbTx *t = s->head; t; t = t->next)
		if (!t->silent)
			CHECK_EQ(t->cmd, 0x33);
	smb_state_free(s);
}

static int done_both(const SmbTx *t, unsigned need)
{
	(void)need;
	return t->request_done && t->response_done;
}

/* stream.async-oneside: the answers never come, so requests wait for none
 * and smb.max-tx is not passed by requests piling up
 * (bug-8629-async-oneside). */
TEST(smb_one_sided_requests_wait_for_no_answer)
{
	uint8_t m[512];
	SmbState *s = smb_state_new();
	size_t n;

	s->max_tx = 3;
	s->one_sided = 1;
	for (uint64_t mid = 1; mid <= 6; mid++) {
		n = tree_connect_req(m, mid, "\\\\srv\\IPC$");
		smb_parse(s, SMB_TOSERVER, m, n);
		CHECK(s->tail && s->tail->request_done && s->tail->response_done);
		/* logged and inspected after each packet: freed */
		smb_gc(s, done_both, 0);
	}
	CHECK_EQ(s->next_log_id, 6);
	CHECK(!s->too_many);
	smb_state_free(s);
}

/* An NBSS-framed SMB1 TRANS2 request (MS-CIFS 2.2.4.46.1), unicode:
 * parameters at 68 from the header, data right after them. */
static size_t trans2_req(uint8_t *out, uint16_t mid, uint16_t sub, const uint8_t *par,
			 uint16_t pl, const uint8_t *data, uint16_t dl)
{
	uint8_t *h = out + 4, *w = h + 33;
	size_t n = 68 + pl + dl;

	memset(out, 0, 4 + n);
	out[2] = (uint8_t)(n >> 8);
	out[3] = (uint8_t)n;
	memcpy(h, "\xffSMB", 4);
	h[4] = 0x32;
	put16(h + 10, 0xc807);
	put16(h + 28, 100);                 /* uid */
	put16(h + 30, mid);
	h[32] = 15;
	put16(w + 18, pl);
	put16(w + 20, 68);
	put16(w + 22, dl);
	put16(w + 24, (uint16_t)(68 + pl));
	w[26] = 1;
	put16(w + 28, sub);
	put16(w + 30, (uint16_t)(3 + pl + dl));
	memcpy(h + 68, par, pl);
	if (dl)
		memcpy(h + 68 + pl, data, dl);     /* data may be NULL when dl is 0 */
	return 4 + n;
}

/* Suricata 8 makes a transaction of a TRANS2 only for SET_FILE_INFO /
 * SET_PATH_INFO at the rename (1010) and disposition (1013) levels; an
 * SMB1 rename has no set_info object and names a FID never created
 * "<unknown>". */
TEST(smb1_trans2_only_renames_and_deletes)
{
	uint8_t m[512], par[64] = { 0 }, data[64] = { 0 };
	SmbState *s = smb_state_new();
	size_t n, nl;
	SmbTx *t;
	json_t *o;

	par[0] = 0x07;                      /* FID 0x4007 */
	par[1] = 0x40;
	put16(par + 2, 1010);
	nl = utf16(data + 12, "x\\new.doc");
	put32(data + 8, (uint32_t)nl);
	n = trans2_req(m, 1, 8, par, 6, data, (uint16_t)(12 + nl));
	smb_parse(s, SMB_TOSERVER, m, n);
	put16(par, 1004);                   /* SET_PATH_INFO, basic info: none */
	n = trans2_req(m, 2, 6, par, 6 + (uint16_t)utf16(par + 6, "a"), data, 40);
	smb_parse(s, SMB_TOSERVER, m, n);
	n = trans2_req(m, 3, 5, par, 8, NULL, 0);   /* QUERY_PATH_INFO: none */
	smb_parse(s, SMB_TOSERVER, m, n);
	CHECK_EQ(s->next_log_id, 1);
	t = tx_by_msg(s, 1);
	CHECK(t != NULL);
	CHECK_EQ(t->type, SMB_TXT_RENAME);
	CHECK_STREQ(t->filename.s, "<unknown>");
	CHECK_STREQ(t->newname.s, "x\\new.doc");
	o = smb_json_object(NULL, t);
	CHECK(json_object_get(o, "set_info") == NULL);
	CHECK_STREQ(json_string_value(json_object_get(json_object_get(o, "rename"), "to")),
		    "x\\new.doc");
	CHECK_STREQ(json_string_value(json_object_get(o, "fuid")), "4007");
	json_decref(o);
	smb_state_free(s);
}

/* A compound CREATE + SET_INFO FileDispositionInformation: the FileId is
 * not known yet, so the file is the one the message before creates; SMB2
 * disposition records name no subcommand or level (Suricata 8). */
TEST(smb2_compound_create_then_delete_on_close)
{
	uint8_t m[512], b[64] = { 0 };
	SmbState *s = smb_state_new();
	size_t n;
	SmbTx *t;
	json_t *o;

	n = create_req(m, 10, 1, "tmp\\scratch.txt");
	smb_parse(s, SMB_TOSERVER, m, n);
	put16(b, 33);
	b[2] = 1;                           /* FILE_INFO */
	b[3] = 13;                          /* FileDispositionInformation */
	put32(b + 4, 1);
	put16(b + 8, 64 + 32);
	memset(b + 16, 0xff, 16);           /* the compound's "last FileId" */
	b[32] = 1;                          /* DeletePending */
	n = smb2_msg(m, 0x11, 0, 0, 11, 1, 77, b, 33);
	smb_parse(s, SMB_TOSERVER, m, n);
	t = tx_by_msg(s, 11);
	CHECK(t != NULL);
	CHECK_EQ(t->type, SMB_TXT_SET_INFO);
	o = smb_json_object(NULL, t);
	CHECK_STREQ(json_string_value(json_object_get(o, "filename")), "tmp\\scratch.txt");
	CHECK_STREQ(json_string_value(json_object_get(o, "access")), "delete on close");
	CHECK(json_object_get(o, "subcmd") == NULL);
	CHECK(json_object_get(o, "level_of_interest") == NULL);
	json_decref(o);
	smb_state_free(s);
}

/* An SPNEGO NegTokenInit offering Microsoft's and the standard Kerberos 5
 * mechanisms, its mechToken a GSS-API AP-REQ for cifs/fs1.example.org in
 * EXAMPLE.ORG (DER built from RFC 4178, RFC 1964 and RFC 4120). */
static const uint8_t SPNEGO_KRB[] = {
	0x60, 0x81, 0xb5, 0x06, 0x06, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x02, 0xa0, 0x81, 0xaa, 0x30,
	0x81, 0xa7, 0xa0, 0x18, 0x30, 0x16, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x82, 0xf7, 0x12, 0x01,
	0x02, 0x02, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x12, 0x01, 0x02, 0x02, 0xa2, 0x81,
	0x8a, 0x04, 0x81, 0x87, 0x60, 0x81, 0x84, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x12,
	0x01, 0x02, 0x02, 0x01, 0x00, 0x6e, 0x75, 0x30, 0x73, 0xa0, 0x03, 0x02, 0x01, 0x05, 0xa1,
	0x03, 0x02, 0x01, 0x0e, 0xa2, 0x07, 0x03, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0xa3, 0x4d,
	0x61, 0x4b, 0x30, 0x49, 0xa0, 0x03, 0x02, 0x01, 0x05, 0xa1, 0x0d, 0x1b, 0x0b, 0x45, 0x58,
	0x41, 0x4d, 0x50, 0x4c, 0x45, 0x2e, 0x4f, 0x52, 0x47, 0xa2, 0x22, 0x30, 0x20, 0xa0, 0x03,
	0x02, 0x01, 0x02, 0xa1, 0x19, 0x30, 0x17, 0x1b, 0x04, 0x63, 0x69, 0x66, 0x73, 0x1b, 0x0f,
	0x66, 0x73, 0x31, 0x2e, 0x65, 0x78, 0x61, 0x6d, 0x70, 0x6c, 0x65, 0x2e, 0x6f, 0x72, 0x67,
	0xa3, 0x0f, 0x30, 0x0d, 0xa0, 0x03, 0x02, 0x01, 0x12, 0xa2, 0x06, 0x04, 0x04, 0x11, 0x11,
	0x11, 0x11, 0xa4, 0x0f, 0x30, 0x0d, 0xa0, 0x03, 0x02, 0x01, 0x12, 0xa2, 0x06, 0x04, 0x04,
	0x11, 0x11, 0x11, 0x11
};

static size_t session_setup_req(uint8_t *out, uint64_t mid, const uint8_t *blob, size_t len)
{
	uint8_t b[512] = { 0 };

	put16(b, 25);
	put16(b + 12, 64 + 24);
	put16(b + 14, (uint16_t)len);
	memcpy(b + 24, blob, len);
	return smb2_msg(out, 1, 0, 0, mid, 0, 0, b, 24 + len);
}

/* smb.kerberos: the AP-REQ ticket's realm and sname, when the mechTypes
 * offer the standard Kerberos 5 OID (Microsoft's alone is not read, as in
 * Suricata 8). */
TEST(smb2_session_setup_kerberos_ticket)
{
	uint8_t m[512], blob[sizeof(SPNEGO_KRB)];
	SmbState *s = smb_state_new();
	size_t n;
	SmbTx *t;
	json_t *o, *k;

	n = session_setup_req(m, 1, SPNEGO_KRB, sizeof(SPNEGO_KRB));
	smb_parse(s, SMB_TOSERVER, m, n);
	t = tx_by_msg(s, 1);
	CHECK(t != NULL && t->have_krb);
	o = smb_json_object(NULL, t);
	k = json_object_get(o, "kerberos");
	CHECK_STREQ(json_string_value(json_object_get(k, "realm")), "EXAMPLE.ORG");
	CHECK_EQ(json_array_size(json_object_get(k, "snames")), 2);
	CHECK_STREQ(json_string_value(json_array_get(json_object_get(k, "snames"), 1)),
		    "fs1.example.org");
	CHECK(json_object_get(o, "ntlmssp") == NULL);
	json_decref(o);
	memcpy(blob, SPNEGO_KRB, sizeof(blob));
	blob[37] = 0x82;                    /* the second OID Microsoft's too */
	n = session_setup_req(m, 2, blob, sizeof(blob));
	smb_parse(s, SMB_TOSERVER, m, n);
	t = tx_by_msg(s, 2);
	CHECK(t != NULL && !t->have_krb);
	smb_state_free(s);
}
