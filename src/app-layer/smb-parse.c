/* SMB 1/2/3 stream parser (see smb-parse.h). Field offsets are MS-CIFS /
 * MS-SMB / MS-SMB2's; what becomes a transaction and what it logs follows
 * Suricata 8's SMB parser. */
#include "app-layer/smb-parse.h"
#include "app-layer/app-mem.h"
#include "app-layer/frames.h"
#include "app-layer/krb5.h"
#include "app-layer/smb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/ber.h"

#define SMB1_HDR 32
#define SMB2_HDR 64
#define SMB2_TRANSFORM_HDR 52

#define SMB1_FLAGS_REPLY 0x80
#define SMB1_FLAGS2_UNICODE 0x8000
#define SMB1_FLAGS2_NT_STATUS 0x4000

#define SMB2_FLAGS_RESPONSE 0x01
#define SMB2_FLAGS_ASYNC 0x02

#define STATUS_PENDING 0x00000103u

/* SMB2 commands */
enum {
	SMB2_NEGOTIATE = 0, SMB2_SESSION_SETUP, SMB2_LOGOFF, SMB2_TREE_CONNECT,
	SMB2_TREE_DISCONNECT, SMB2_CREATE, SMB2_CLOSE, SMB2_FLUSH, SMB2_READ, SMB2_WRITE,
	SMB2_LOCK, SMB2_IOCTL, SMB2_CANCEL, SMB2_ECHO, SMB2_QUERY_DIRECTORY,
	SMB2_CHANGE_NOTIFY, SMB2_QUERY_INFO, SMB2_SET_INFO, SMB2_OPLOCK_BREAK,
};

/* SMB1 commands this parser looks into */
#define SMB1_CLOSE 0x04
#define SMB1_RENAME 0x07
#define SMB1_TRANS 0x25
#define SMB1_WRITE_ANDX 0x2f
#define SMB1_READ_ANDX 0x2e
#define SMB1_TRANS2 0x32
#define SMB1_TREE_DISCONNECT 0x71
#define SMB1_NEGOTIATE 0x72
#define SMB1_SESSION_SETUP_ANDX 0x73
#define SMB1_LOGOFF_ANDX 0x74
#define SMB1_TREE_CONNECT_ANDX 0x75
#define SMB1_NT_CREATE_ANDX 0xa2

#define FSCTL_PIPE_TRANSCEIVE 0x0011c017u

static const char *const event_names[SMB_EV_COUNT] = {
	[SMB_EV_INTERNAL_ERROR] = "internal_error",
	[SMB_EV_MALFORMED_DATA] = "malformed_data",
	[SMB_EV_RECORD_OVERFLOW] = "record_overflow",
	[SMB_EV_MALFORMED_NTLMSSP_REQUEST] = "malformed_ntlmssp_request",
	[SMB_EV_MALFORMED_NTLMSSP_RESPONSE] = "malformed_ntlmssp_response",
	[SMB_EV_DUPLICATE_NEGOTIATE] = "duplicate_negotiate",
	[SMB_EV_NEGOTIATE_MALFORMED_DIALECTS] = "negotiate_malformed_dialects",
	[SMB_EV_FILE_OVERLAP] = "file_overlap",
	[SMB_EV_REQUEST_TO_CLIENT] = "request_to_client",
	[SMB_EV_RESPONSE_TO_SERVER] = "response_to_server",
	[SMB_EV_READ_RESPONSE_TOO_LARGE] = "read_response_too_large",
	[SMB_EV_READ_REQUEST_TOO_LARGE] = "read_request_too_large",
	[SMB_EV_WRITE_REQUEST_TOO_LARGE] = "write_request_too_large",
	[SMB_EV_UNUSUAL_NBSS_TYPE] = "unusual_nbss_type",
	[SMB_EV_TOO_MANY_TXS] = "too_many_transactions",
};

const char *smb_event_name(int ev)
{
	return ev >= 0 && ev < SMB_EV_COUNT ? event_names[ev] : NULL;
}

int smb_event_by_name(const char *name)
{
	for (int i = 0; i < SMB_EV_COUNT; i++)
		if (strcasecmp(name, event_names[i]) == 0)
			return i;
	return -1;
}

/* ---------------- little helpers ---------------- */

static inline uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

size_t smb_utf16_to_utf8(const uint8_t *p, size_t n, char *out, size_t cap)
{
	size_t o = 0;

	if (!cap)
		return 0;
	for (size_t i = 0; i + 1 < n;) {
		uint32_t c = le16(p + i);
		char tmp[4];
		size_t k;

		i += 2;
		if (c >= 0xd800 && c < 0xdc00 && i + 1 < n && le16(p + i) >= 0xdc00 &&
		    le16(p + i) < 0xe000) {
			c = 0x10000 + ((c - 0xd800) << 10) + (le16(p + i) - 0xdc00);
			i += 2;
		} else if (c >= 0xd800 && c < 0xe000) {
			c = 0xfffd;
		}
		if (c < 0x80) {
			tmp[0] = (char)c;
			k = 1;
		} else if (c < 0x800) {
			tmp[0] = (char)(0xc0 | c >> 6);
			tmp[1] = (char)(0x80 | (c & 0x3f));
			k = 2;
		} else if (c < 0x10000) {
			tmp[0] = (char)(0xe0 | c >> 12);
			tmp[1] = (char)(0x80 | ((c >> 6) & 0x3f));
			tmp[2] = (char)(0x80 | (c & 0x3f));
			k = 3;
		} else {
			tmp[0] = (char)(0xf0 | c >> 18);
			tmp[1] = (char)(0x80 | ((c >> 12) & 0x3f));
			tmp[2] = (char)(0x80 | ((c >> 6) & 0x3f));
			tmp[3] = (char)(0x80 | (c & 0x3f));
			k = 4;
		}
		if (o + k >= cap)
			break;
		memcpy(out + o, tmp, k);
		o += k;
	}
	out[o] = '\0';
	return o;
}

static void str_free(SmbStr *s)
{
	app_mem_free(ALPROTO_SMB, s->s);
	s->s = NULL;
	s->len = 0;
}

/* Sets s to the bytes (ascii: up to a NUL) or UTF-16LE (converted; up to a
 * NUL unit). Trailing NULs are dropped, as Suricata's names have none. */
static void str_set(SmbStr *s, const uint8_t *p, size_t n, int unicode)
{
	char tmp[SMB_MAX_STR * 3 + 4];
	size_t len = 0;

	str_free(s);
	if (unicode) {
		size_t m = 0;

		while (m + 1 < n && (p[m] || p[m + 1]))
			m += 2;
		if (m > SMB_MAX_STR * 2)
			m = SMB_MAX_STR * 2;
		len = smb_utf16_to_utf8(p, m, tmp, sizeof(tmp));
	} else {
		while (len < n && len < SMB_MAX_STR && p[len])
			len++;
		memcpy(tmp, p, len);
	}
	s->s = app_mem_malloc(ALPROTO_SMB, len + 1);
	if (!s->s)
		return;
	memcpy(s->s, tmp, len);
	s->s[len] = '\0';
	s->len = (uint32_t)len;
}

static void str_copy(SmbStr *dst, const SmbStr *src)
{
	str_free(dst);
	if (!src->s)
		return;
	dst->s = app_mem_malloc(ALPROTO_SMB, src->len + 1);
	if (!dst->s)
		return;
	memcpy(dst->s, src->s, src->len + 1);
	dst->len = src->len;
}

/* ---------------- names ---------------- */

static const char *const smb2_cmds[] = {
	"SMB2_COMMAND_NEGOTIATE_PROTOCOL", "SMB2_COMMAND_SESSION_SETUP",
	"SMB2_COMMAND_SESSION_LOGOFF", "SMB2_COMMAND_TREE_CONNECT",
	"SMB2_COMMAND_TREE_DISCONNECT", "SMB2_COMMAND_CREATE", "SMB2_COMMAND_CLOSE",
	"SMB2_COMMAND_FLUSH", "SMB2_COMMAND_READ", "SMB2_COMMAND_WRITE", "SMB2_COMMAND_LOCK",
	"SMB2_COMMAND_IOCTL", "SMB2_COMMAND_CANCEL", "SMB2_COMMAND_KEEPALIVE",
	"SMB2_COMMAND_FIND", "SMB2_COMMAND_CHANGE_NOTIFY", "SMB2_COMMAND_GET_INFO",
	"SMB2_COMMAND_SET_INFO", "SMB2_COMMAND_OPLOCK_BREAK",
};

const char *smb2_command_name(unsigned cmd)
{
	return cmd < sizeof(smb2_cmds) / sizeof(smb2_cmds[0]) ? smb2_cmds[cmd] :
	       "SMB2_COMMAND_UNKNOWN";
}

static const struct { uint8_t c; const char *n; } smb1_cmds[] = {
	{ 0x00, "SMB1_COMMAND_CREATE_DIRECTORY" }, { 0x01, "SMB1_COMMAND_DELETE_DIRECTORY" },
	{ 0x02, "SMB1_COMMAND_OPEN" }, { 0x03, "SMB1_COMMAND_CREATE" },
	{ 0x04, "SMB1_COMMAND_CLOSE" }, { 0x05, "SMB1_COMMAND_FLUSH" },
	{ 0x06, "SMB1_COMMAND_DELETE" }, { 0x07, "SMB1_COMMAND_RENAME" },
	{ 0x08, "SMB1_COMMAND_QUERY_INFORMATION" }, { 0x09, "SMB1_COMMAND_SET_INFORMATION" },
	{ 0x0a, "SMB1_COMMAND_READ" }, { 0x0b, "SMB1_COMMAND_WRITE" },
	{ 0x0c, "SMB1_COMMAND_LOCK_BYTE_RANGE" }, { 0x0d, "SMB1_COMMAND_UNLOCK_BYTE_RANGE" },
	{ 0x0e, "SMB1_COMMAND_CREATE_TEMPORARY" }, { 0x0f, "SMB1_COMMAND_CREATE_NEW" },
	{ 0x10, "SMB1_COMMAND_CHECK_DIRECTORY" }, { 0x11, "SMB1_COMMAND_PROCESS_EXIT" },
	{ 0x12, "SMB1_COMMAND_SEEK" }, { 0x13, "SMB1_COMMAND_LOCK_AND_READ" },
	{ 0x14, "SMB1_COMMAND_WRITE_AND_UNLOCK" }, { 0x1a, "SMB1_COMMAND_READ_RAW" },
	{ 0x1b, "SMB1_COMMAND_READ_MPX" }, { 0x1c, "SMB1_COMMAND_READ_MPX_SECONDARY" },
	{ 0x1d, "SMB1_COMMAND_WRITE_RAW" }, { 0x1e, "SMB1_COMMAND_WRITE_MPX" },
	{ 0x1f, "SMB1_COMMAND_WRITE_MPX_SECONDARY" }, { 0x20, "SMB1_COMMAND_WRITE_COMPLETE" },
	{ 0x21, "SMB1_COMMAND_QUERY_SERVER" }, { 0x22, "SMB1_COMMAND_SET_INFORMATION2" },
	{ 0x23, "SMB1_COMMAND_QUERY_INFORMATION2" }, { 0x24, "SMB1_COMMAND_LOCKING_ANDX" },
	{ 0x25, "SMB1_COMMAND_TRANS" }, { 0x26, "SMB1_COMMAND_TRANS_SECONDARY" },
	{ 0x27, "SMB1_COMMAND_IOCTL" }, { 0x28, "SMB1_COMMAND_IOCTL_SECONDARY" },
	{ 0x29, "SMB1_COMMAND_COPY" }, { 0x2a, "SMB1_COMMAND_MOVE" },
	{ 0x2b, "SMB1_COMMAND_ECHO" }, { 0x2c, "SMB1_COMMAND_WRITE_AND_CLOSE" },
	{ 0x2d, "SMB1_COMMAND_OPEN_ANDX" }, { 0x2e, "SMB1_COMMAND_READ_ANDX" },
	{ 0x2f, "SMB1_COMMAND_WRITE_ANDX" }, { 0x30, "SMB1_COMMAND_NEW_FILE_SIZE" },
	{ 0x31, "SMB1_COMMAND_CLOSE_AND_TREE_DISC" }, { 0x32, "SMB1_COMMAND_TRANS2" },
	{ 0x33, "SMB1_COMMAND_TRANS2_SECONDARY" }, { 0x34, "SMB1_COMMAND_FIND_CLOSE2" },
	{ 0x35, "SMB1_COMMAND_FIND_NOTIFY_CLOSE" }, { 0x70, "SMB1_COMMAND_TREE_CONNECT" },
	{ 0x71, "SMB1_COMMAND_TREE_DISCONNECT" }, { 0x72, "SMB1_COMMAND_NEGOTIATE_PROTOCOL" },
	{ 0x73, "SMB1_COMMAND_SESSION_SETUP_ANDX" }, { 0x74, "SMB1_COMMAND_LOGOFF_ANDX" },
	{ 0x75, "SMB1_COMMAND_TREE_CONNECT_ANDX" }, { 0x7e, "SMB1_COMMAND_SECURITY_PACKAGE_ANDX" },
	{ 0x80, "SMB1_COMMAND_QUERY_INFO_DISK" }, { 0x81, "SMB1_COMMAND_SEARCH" },
	{ 0x82, "SMB1_COMMAND_FIND" }, { 0x83, "SMB1_COMMAND_FIND_UNIQUE" },
	{ 0x84, "SMB1_COMMAND_FIND_CLOSE" }, { 0xa0, "SMB1_COMMAND_NT_TRANS" },
	{ 0xa1, "SMB1_COMMAND_NT_TRANS_SECONDARY" }, { 0xa2, "SMB1_COMMAND_NT_CREATE_ANDX" },
	{ 0xa4, "SMB1_COMMAND_NT_CANCEL" }, { 0xa5, "SMB1_COMMAND_NT_RENAME" },
	{ 0xc0, "SMB1_COMMAND_OPEN_PRINT_FILE" }, { 0xc1, "SMB1_COMMAND_WRITE_PRINT_FILE" },
	{ 0xc2, "SMB1_COMMAND_CLOSE_PRINT_FILE" }, { 0xc3, "SMB1_COMMAND_GET_PRINT_QUEUE" },
	{ 0xd8, "SMB1_COMMAND_READ_BULK" }, { 0xd9, "SMB1_COMMAND_WRITE_BULK" },
	{ 0xda, "SMB1_COMMAND_WRITE_BULK_DATA" }, { 0xfe, "SMB1_COMMAND_INVALID" },
	{ 0xff, "SMB1_COMMAND_NONE" },
};

const char *smb1_command_name(unsigned cmd)
{
	for (size_t i = 0; i < sizeof(smb1_cmds) / sizeof(smb1_cmds[0]); i++)
		if (smb1_cmds[i].c == cmd)
			return smb1_cmds[i].n;
	return "SMB1_COMMAND_UNKNOWN";
}

static const struct { uint32_t v; const char *n; } ntstatus[] = {
	{ 0x00000000, "STATUS_SUCCESS" }, { 0x00000103, "STATUS_PENDING" },
	{ 0x0000010b, "STATUS_NOTIFY_CLEANUP" }, { 0x0000010c, "STATUS_NOTIFY_ENUM_DIR" },
	{ 0x80000005, "STATUS_BUFFER_OVERFLOW" }, { 0x80000006, "STATUS_NO_MORE_FILES" },
	{ 0x8000001a, "STATUS_NO_MORE_ENTRIES" }, { 0x8000002d, "STATUS_STOPPED_ON_SYMLINK" },
	{ 0xc0000001, "STATUS_UNSUCCESSFUL" }, { 0xc0000002, "STATUS_NOT_IMPLEMENTED" },
	{ 0xc0000003, "STATUS_INVALID_INFO_CLASS" }, { 0xc0000004, "STATUS_INFO_LENGTH_MISMATCH" },
	{ 0xc0000008, "STATUS_INVALID_HANDLE" }, { 0xc000000d, "STATUS_INVALID_PARAMETER" },
	{ 0xc000000f, "STATUS_NO_SUCH_FILE" }, { 0xc0000010, "STATUS_INVALID_DEVICE_REQUEST" },
	{ 0xc0000011, "STATUS_END_OF_FILE" }, { 0xc0000016, "STATUS_MORE_PROCESSING_REQUIRED" },
	{ 0xc0000022, "STATUS_ACCESS_DENIED" }, { 0xc0000023, "STATUS_BUFFER_TOO_SMALL" },
	{ 0xc0000033, "STATUS_OBJECT_NAME_INVALID" }, { 0xc0000034, "STATUS_OBJECT_NAME_NOT_FOUND" },
	{ 0xc0000035, "STATUS_OBJECT_NAME_COLLISION" }, { 0xc000003a, "STATUS_OBJECT_PATH_NOT_FOUND" },
	{ 0xc0000043, "STATUS_SHARING_VIOLATION" }, { 0xc0000054, "STATUS_FILE_LOCK_CONFLICT" },
	{ 0xc0000055, "STATUS_LOCK_NOT_GRANTED" }, { 0xc0000056, "STATUS_DELETE_PENDING" },
	{ 0xc0000064, "STATUS_NO_SUCH_USER" }, { 0xc000006a, "STATUS_WRONG_PASSWORD" },
	{ 0xc000006d, "STATUS_LOGON_FAILURE" }, { 0xc0000071, "STATUS_PASSWORD_EXPIRED" },
	{ 0xc0000072, "STATUS_ACCOUNT_DISABLED" }, { 0xc000007e, "STATUS_RANGE_NOT_LOCKED" },
	{ 0xc000007f, "STATUS_DISK_FULL" }, { 0xc000009a, "STATUS_INSUFFICIENT_RESOURCES" },
	{ 0xc00000b0, "STATUS_PIPE_DISCONNECTED" }, { 0xc00000b5, "STATUS_IO_TIMEOUT" },
	{ 0xc00000ba, "STATUS_FILE_IS_A_DIRECTORY" }, { 0xc00000bb, "STATUS_NOT_SUPPORTED" },
	{ 0xc00000c3, "STATUS_INVALID_NETWORK_RESPONSE" },
	{ 0xc00000c9, "STATUS_NETWORK_NAME_DELETED" }, { 0xc00000ca, "STATUS_NETWORK_ACCESS_DENIED" },
	{ 0xc00000cb, "STATUS_BAD_DEVICE_TYPE" }, { 0xc00000cc, "STATUS_BAD_NETWORK_NAME" },
	{ 0xc00000d0, "STATUS_REQUEST_NOT_ACCEPTED" }, { 0xc00000d9, "STATUS_PIPE_EMPTY" },
	{ 0xc0000101, "STATUS_DIRECTORY_NOT_EMPTY" }, { 0xc0000103, "STATUS_NOT_A_DIRECTORY" },
	{ 0xc0000120, "STATUS_CANCELLED" }, { 0xc0000128, "STATUS_FILE_CLOSED" },
	{ 0xc000014b, "STATUS_PIPE_BROKEN" }, { 0xc000019c, "STATUS_FS_DRIVER_REQUIRED" },
	{ 0xc0000203, "STATUS_USER_SESSION_DELETED" }, { 0xc0000225, "STATUS_NOT_FOUND" },
	{ 0xc0000234, "STATUS_ACCOUNT_LOCKED_OUT" }, { 0xc00002f0, "STATUS_OBJECTID_NOT_FOUND" },
	{ 0xc000035c, "STATUS_NETWORK_SESSION_EXPIRED" },
};

const char *smb_ntstatus_name(uint32_t status)
{
	for (size_t i = 0; i < sizeof(ntstatus) / sizeof(ntstatus[0]); i++)
		if (ntstatus[i].v == status)
			return ntstatus[i].n;
	return NULL;
}

const char *smb_dos_error_name(uint8_t cls, uint16_t code)
{
	static const struct { uint16_t c; const char *n; } dos[] = {
		{ 1, "DOS_BADFUNC" }, { 2, "DOS_BADFILE" }, { 3, "DOS_BADPATH" },
		{ 4, "DOS_NOFIDS" }, { 5, "DOS_NOACCESS" }, { 6, "DOS_BADFID" },
		{ 8, "DOS_NOMEM" }, { 18, "DOS_NOFILES" }, { 32, "DOS_BADSHARE" },
		{ 80, "DOS_FILEXISTS" }, { 87, "DOS_INVALIDPARAM" }, { 230, "DOS_BADPIPE" },
		{ 232, "DOS_NODATA" },
	}, srv[] = {
		{ 1, "SRV_ERROR" }, { 2, "SRV_BADPW" }, { 4, "SRV_ACCESS" }, { 5, "SRV_INVTID" },
		{ 6, "SRV_INVNETNAME" }, { 22, "SRV_BADCMD" }, { 91, "SRV_BADUID" },
	};

	if (cls == 1) {
		for (size_t i = 0; i < sizeof(dos) / sizeof(dos[0]); i++)
			if (dos[i].c == code)
				return dos[i].n;
	} else if (cls == 2) {
		for (size_t i = 0; i < sizeof(srv) / sizeof(srv[0]); i++)
			if (srv[i].c == code)
				return srv[i].n;
	}
	return NULL;
}

const char *smb2_dialect_name(uint16_t d, char *buf, size_t cap)
{
	switch (d) {
	case 0x0202: return "2.02";
	case 0x0210: return "2.10";
	case 0x0222: return "2.22";
	case 0x0224: return "2.24";
	case 0x02ff: return "2.??";
	case 0x0300: return "3.00";
	case 0x0302: return "3.02";
	case 0x0310: return "3.10";
	case 0x0311: return "3.11";
	}
	snprintf(buf, cap, "%u", d);
	return buf;
}

void smb_guid_str(const uint8_t *g, size_t len, char *out, size_t cap)
{
	if (len == 16)
		snprintf(out, cap,
			 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
			 g[3], g[2], g[1], g[0], g[5], g[4], g[7], g[6], g[9], g[8], g[11], g[10],
			 g[15], g[14], g[13], g[12]);
	else if (len >= 2)
		snprintf(out, cap, "%02x%02x", g[1], g[0]);
	else if (cap)
		out[0] = '\0';
}

const char *smb_fsctl_name(uint32_t func)
{
	switch (func) {
	case 0x00060194: return "FSCTL_DFS_GET_REFERRALS";
	case 0x000601b0: return "FSCTL_DFS_GET_REFERRALS_EX";
	case 0x0011400c: return "FSCTL_PIPE_PEEK";
	case 0x00110018: return "FSCTL_PIPE_WAIT";
	case 0x0011c017: return "FSCTL_PIPE_TRANSCEIVE";
	case 0x00140078: return "FSCTL_SRV_REQUEST_RESUME_KEY";
	case 0x001401fc: return "FSCTL_QUERY_NETWORK_INTERFACE_INFO";
	case 0x00140204: return "FSCTL_VALIDATE_NEGOTIATE_INFO";
	case 0x00144064: return "FSCTL_SRV_ENUMERATE_SNAPSHOTS";
	case 0x001440f2: return "FSCTL_SRV_COPYCHUNK";
	case 0x001480f2: return "FSCTL_SRV_COPYCHUNK_WRITE";
	case 0x000900a8: return "FSCTL_GET_REPARSE_POINT";
	}
	return NULL;
}

/* ---------------- state, transactions, names ---------------- */

SmbState *smb_state_new(void)
{
	return app_mem_calloc(ALPROTO_SMB, 1, sizeof(SmbState));
}

void smb_tx_free(SmbTx *t)
{
	if (!t)
		return;
	for (int i = 0; i < SMB_MAX_DIALECTS; i++)
		str_free(&t->dialects[i]);
	str_free(&t->ntlm_user);
	str_free(&t->ntlm_domain);
	str_free(&t->ntlm_host);
	str_free(&t->req_os);
	str_free(&t->req_lm);
	str_free(&t->res_os);
	str_free(&t->res_lm);
	str_free(&t->krb_realm);
	for (int i = 0; i < SMB_MAX_KRB_SNAMES; i++)
		str_free(&t->krb_snames[i]);
	str_free(&t->share);
	str_free(&t->req_service);
	str_free(&t->res_service);
	str_free(&t->filename);
	str_free(&t->newname);
	files_container_free(&t->files[0]);
	files_container_free(&t->files[1]);
	smb_pipe_tx_release(t);
	app_mem_free(ALPROTO_SMB, t);
}

static void names_free(SmbName *n)
{
	while (n) {
		SmbName *next = n->next;

		str_free(&n->name);
		app_mem_free(ALPROTO_SMB, n);
		n = next;
	}
}

void smb_state_free(SmbState *s)
{
	if (!s)
		return;
	for (SmbTx *t = s->head; t;) {
		SmbTx *next = t->next;

		smb_tx_free(t);
		t = next;
	}
	for (int d = 0; d < 2; d++)
		app_mem_free(ALPROTO_SMB, s->fr[d].buf);
	str_free(&s->dialect1);
	for (int i = 0; i < SMB_MAX_DIALECTS; i++)
		str_free(&s->offered1[i]);
	names_free(s->trees);
	names_free(s->fids);
	smb_pipes_free(s);
	app_mem_free(ALPROTO_SMB, s);
}

static void tx_event(SmbTx *t, int ev)
{
	if (t)
		t->events |= 1u << ev;
}

/* Events with no transaction of their own go to the newest one, or to a
 * fresh generic one (so that app-layer-event rules see them). */
static SmbTx *tx_new(SmbState *s, uint8_t version, uint16_t cmd, uint64_t msg_id);
static SmbTx *tx_new_silent(SmbState *s, uint8_t version, uint16_t cmd, uint64_t msg_id,
			    int silent);

static void state_event(SmbState *s, int ev)
{
	SmbTx *t = s->tail;

	/* the newest transaction, unless it may be logged already (its
	 * events would be lost) */
	if (!t || (t->request_done && t->response_done && t->app_flags))
		t = tx_new(s, 0, 0, UINT64_MAX);
	if (t) {
		tx_event(t, ev);
		t->request_done = t->response_done = 1;
	}
}

/* The command's response came. A WRITE on a pipe whose DCE/RPC call is
 * still unanswered stays open for the answer a READ brings (smb-pipe.c
 * closes it then, smb_eof at the latest): Suricata's DCE/RPC transaction
 * is logged with its response. */
static void smb_tx_response_done(SmbTx *t, int ok)
{
	if (ok && t->is_pipe && t->dce && t->dce->resp_type == DCERPC_PTYPE_NONE &&
	    t->dce->req_type != DCERPC_AUTH3 &&
	    ((t->version == 2 && t->cmd == SMB2_WRITE) ||
	     (t->version == 1 && t->cmd == SMB1_WRITE_ANDX))) {
		t->pipe_wait = 1;
		return;
	}
	t->response_done = 1;
}

/* A one-sided flow (stream.async-oneside): the answer never comes, so a
 * request's transaction waits for none (suricata-verify
 * bug-8629-async-oneside: requests piling up would pass smb.max-tx). */
static void request_unanswered(SmbState *s, SmbTx *t)
{
	if (s->one_sided)
		t->response_done = 1;
}

static void file_tx_finish(SmbTx *t, int how)
{
	if (t->file) {
		file_close(t->file, how);
		t->file = NULL;
	}
	t->request_done = t->response_done = 1;
}

static SmbTx *tx_new(SmbState *s, uint8_t version, uint16_t cmd, uint64_t msg_id)
{
	SmbTx *t;

	t = tx_new_silent(s, version, cmd, msg_id, 0);
	return t;
}

static SmbTx *tx_new_silent(SmbState *s, uint8_t version, uint16_t cmd, uint64_t msg_id,
			    int silent)
{
	SmbTx *t;

	if (s->ntx >= (s->max_tx ? s->max_tx : SMB_MAX_TX)) {
		/* Suricata 8 (issue 8629): passing smb.max-tx (requests piling
		 * up unanswered, a one-sided capture) puts the parser into an
		 * error state: too_many_transactions once, on the newest
		 * transaction that is logged, a parser error counted, and
		 * nothing parsed after */
		if (!s->too_many) {
			SmbTx *last = NULL;

			for (SmbTx *o = s->head; o; o = o->next)
				if (!o->silent)
					last = o;
			s->too_many = 1;
			s->st.bad_records++;
			tx_event(last, SMB_EV_TOO_MANY_TXS);
		}
		return NULL;
	}
	t = app_mem_calloc(ALPROTO_SMB, 1, sizeof(*t));
	if (!t)
		return NULL;
	t->id = s->next_id++;
	t->silent = (uint8_t)silent;
	/* an event holder (version 0) is no SMB transaction: no eve id */
	if (!silent && version)
		t->log_id = ++s->next_log_id;
	t->version = version;
	t->cmd = cmd;
	t->msg_id = msg_id;
	t->files[0].tc = s->tc;
	t->files[1].tc = s->tc;
	if (s->tail)
		s->tail->next = t;
	else
		s->head = t;
	s->tail = t;
	s->ntx++;
	return t;
}

/* The open transaction of (version, command, message id), oldest first. */
static SmbTx *tx_find(SmbState *s, uint8_t version, uint16_t cmd, uint64_t msg_id)
{
	for (SmbTx *t = s->head; t; t = t->next)
		if (t->version == version && t->cmd == cmd && t->msg_id == msg_id &&
		    t->type != SMB_TXT_FILE && !t->response_done)
			return t;
	return NULL;
}

static SmbTx *file_tx_find(SmbState *s, const uint8_t *fuid, uint8_t fuid_len, int dir)
{
	for (SmbTx *t = s->head; t; t = t->next)
		if (t->type == SMB_TXT_FILE && t->dir == dir && t->fuid_len == fuid_len &&
		    !t->response_done && memcmp(t->fuid, fuid, fuid_len) == 0)
			return t;
	return NULL;
}

void smb_gc(SmbState *s, int (*ok)(const SmbTx *t, unsigned need), unsigned need)
{
	SmbTx *prev = NULL;

	for (SmbTx *t = s->head; t;) {
		SmbTx *next = t->next;

		if (ok(t, need)) {
			if (prev)
				prev->next = next;
			else
				s->head = next;
			if (s->tail == t)
				s->tail = prev;
			s->ntx--;
			smb_tx_free(t);
		} else {
			prev = t;
		}
		t = next;
	}
}

static SmbName *name_find(SmbName *list, const uint8_t *key, uint8_t key_len)
{
	for (SmbName *n = list; n; n = n->next)
		if (n->key_len == key_len && memcmp(n->key, key, key_len) == 0)
			return n;
	return NULL;
}

static SmbName *name_put(SmbState *s, SmbName **list, const uint8_t *key, uint8_t key_len)
{
	SmbName *n = name_find(*list, key, key_len);

	if (n)
		return n;
	if (s->nnames >= SMB_MAX_NAMES) {
		/* forget the oldest of this list (its last entry) */
		SmbName **pp = list;

		if (!*pp)
			return NULL;
		while ((*pp)->next)
			pp = &(*pp)->next;
		str_free(&(*pp)->name);
		app_mem_free(ALPROTO_SMB, *pp);
		*pp = NULL;
		s->nnames--;
	}
	n = app_mem_calloc(ALPROTO_SMB, 1, sizeof(*n));
	if (!n)
		return NULL;
	memcpy(n->key, key, key_len);
	n->key_len = key_len;
	n->next = *list;
	*list = n;
	s->nnames++;
	return n;
}

static void tree_key(uint32_t tree_id, uint8_t key[4])
{
	key[0] = (uint8_t)tree_id;
	key[1] = (uint8_t)(tree_id >> 8);
	key[2] = (uint8_t)(tree_id >> 16);
	key[3] = (uint8_t)(tree_id >> 24);
}

static SmbName *tree_find(SmbState *s, uint32_t tree_id)
{
	uint8_t k[4];

	tree_key(tree_id, k);
	return name_find(s->trees, k, 4);
}

/* ---------------- NTLMSSP ---------------- */

/* The NTLMSSP AUTHENTICATE message inside a security blob (SPNEGO or
 * bare: found by its signature, as the GSS-API wrapping varies). */
static void parse_ntlmssp(SmbTx *t, const uint8_t *blob, size_t n, int request)
{
	static const uint8_t sig[8] = { 'N', 'T', 'L', 'M', 'S', 'S', 'P', 0 };
	const uint8_t *p = NULL;
	size_t m;
	uint32_t flags;
	int uni;

	for (size_t i = 0; i + 12 <= n; i++) {
		if (memcmp(blob + i, sig, 8) == 0) {
			p = blob + i;
			break;
		}
	}
	if (!p || !request)
		return;
	m = n - (size_t)(p - blob);
	if (le32(p + 8) != 3)
		return;             /* NEGOTIATE / CHALLENGE: nothing logged */
	if (m < 64) {
		tx_event(t, SMB_EV_MALFORMED_NTLMSSP_REQUEST);
		return;
	}
	flags = le32(p + 60);
	uni = flags & 0x1;
	{
		/* domain 28, user 36, workstation 44: len(2) max(2) offset(4) */
		static const int at[3] = { 28, 36, 44 };
		SmbStr *dst[3] = { &t->ntlm_domain, &t->ntlm_user, &t->ntlm_host };

		for (int i = 0; i < 3; i++) {
			uint16_t l = le16(p + at[i]);
			uint32_t o = le32(p + at[i] + 4);

			if (o > m || l > m - o) {
				tx_event(t, SMB_EV_MALFORMED_NTLMSSP_REQUEST);
				return;
			}
			if (uni) {
				char tmp[SMB_MAX_STR * 3 + 4];
				size_t k = smb_utf16_to_utf8(p + o, l, tmp, sizeof(tmp));

				str_free(dst[i]);
				dst[i]->s = app_mem_malloc(ALPROTO_SMB, k + 1);
				if (dst[i]->s) {
					memcpy(dst[i]->s, tmp, k + 1);
					dst[i]->len = (uint32_t)k;
				}
			} else {
				str_free(dst[i]);
				dst[i]->s = app_mem_malloc(ALPROTO_SMB, (size_t)l + 1);
				if (dst[i]->s) {
					memcpy(dst[i]->s, p + o, l);
					dst[i]->s[l] = '\0';
					dst[i]->len = l;
				}
			}
		}
	}
	if ((flags & 0x02000000) && m >= 72) {
		memcpy(t->ntlm_version, p + 64, 8);
		t->have_ntlm_version = 1;
	}
	t->have_ntlmssp = 1;
}

/* DER of the OIDs SPNEGO's NegTokenInit is read for: SPNEGO itself
 * (1.3.6.1.5.5.2) and Kerberos 5 (1.2.840.113554.1.2.2; Microsoft's
 * 1.2.840.48018.1.2.2 alone does not count, as in Suricata). */
static const uint8_t OID_SPNEGO[] = { 0x2b, 0x06, 0x01, 0x05, 0x05, 0x02 };
static const uint8_t OID_KRB5[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x12, 0x01, 0x02, 0x02 };

static int oid_is(const BerElem *e, const uint8_t *oid, uint32_t len)
{
	return e->cls == BER_CLASS_UNIVERSAL && e->tag == 6 && e->avail == len &&
	       memcmp(e->content, oid, len) == 0;
}

/* A GSS-API Kerberos token (RFC 1964 1.1: [APPLICATION 0] { mech OID,
 * 2-byte token id, AP-REQ }): the ticket's realm and sname into t. */
static int krb5_token(SmbTx *t, const uint8_t *p, uint32_t n)
{
	BerCur c;
	BerElem app, oid;
	Krb5Msg m;
	int nc;

	ber_cur_init(&c, p, n);
	if (ber_next(&c, &app) < 0 || app.cls != BER_CLASS_APPLICATION || app.tag != 0)
		return 0;
	ber_cur_into(&c, &app);
	if (ber_next(&c, &oid) < 0 || oid.tag != 6 || c.left < 2)
		return 0;
	if (krb5_msg_decode(c.p + 2, c.left - 2, &m) < 0)
		return 0;
	if (m.msg_type != KRB5_AP_REQ || !m.realm) {
		krb5_msg_free(&m);
		return 0;
	}
	str_set(&t->krb_realm, (const uint8_t *)m.realm, m.realm_len, 0);
	nc = m.sname.n < SMB_MAX_KRB_SNAMES ? m.sname.n : SMB_MAX_KRB_SNAMES;
	for (int i = 0; i < nc; i++)
		str_set(&t->krb_snames[i], (const uint8_t *)m.sname.comp[i], m.sname.len[i], 0);
	t->krb_nsnames = (uint8_t)nc;
	t->have_krb = 1;
	krb5_msg_free(&m);
	return 1;
}

/* A session setup request's security blob: SPNEGO (RFC 4178:
 * [APPLICATION 0] { OID, [0] NegTokenInit SEQUENCE { [0] mechTypes,
 * [2] mechToken, ... } }) whose mechTypes offer Kerberos 5 and whose
 * mechToken holds an AP-REQ gives smb.kerberos, and then no NTLMSSP is
 * looked for (Suricata 8); else the NTLMSSP message. */
static void parse_secblob(SmbTx *t, const uint8_t *blob, size_t n)
{
	BerCur c;
	BerElem e;
	int krb = 0;

	if (n > UINT32_MAX)
		n = UINT32_MAX;
	ber_cur_init(&c, blob, (uint32_t)n);
	if (ber_next(&c, &e) == 0 && e.cls == BER_CLASS_APPLICATION && e.tag == 0) {
		ber_cur_into(&c, &e);
		if (ber_next(&c, &e) == 0 && oid_is(&e, OID_SPNEGO, sizeof(OID_SPNEGO)) &&
		    ber_next(&c, &e) == 0 && e.cls == BER_CLASS_CONTEXT && e.tag == 0) {
			ber_cur_into(&c, &e);
			if (ber_next(&c, &e) == 0 && e.tag == 16) {
				BerCur items;
				BerElem item, in;

				ber_cur_into(&items, &e);
				while (ber_next(&items, &item) == 0) {
					BerCur ic;

					if (item.cls != BER_CLASS_CONTEXT)
						continue;
					ber_cur_into(&ic, &item);
					if (ber_next(&ic, &in) < 0)
						continue;
					if (in.tag == 16 && in.constructed) {
						BerCur oc;
						BerElem o;

						ber_cur_into(&oc, &in);
						while (ber_next(&oc, &o) == 0)
							if (oid_is(&o, OID_KRB5, sizeof(OID_KRB5)))
								krb = 1;
					} else if (in.tag == 4 && krb &&
						   krb5_token(t, in.content, in.avail)) {
						return;
					}
				}
			}
		}
	}
	parse_ntlmssp(t, blob, n, 1);
}

/* ---------------- files and pipes ---------------- */

/* Data of a read or write on a file (not a pipe): the file transaction of
 * (fuid, dir), opened with the name CREATE gave. */
static void file_data(SmbState *s, uint8_t version, uint16_t cmd, uint64_t session_id,
		      uint32_t tree_id, const uint8_t *fuid, uint8_t fuid_len, int dir,
		      uint64_t offset, const uint8_t *data, size_t len, uint64_t missing)
{
	SmbTx *t = file_tx_find(s, fuid, fuid_len, dir);

	if (!t) {
		SmbName *fn = name_find(s->fids, fuid, fuid_len);
		SmbName *tn;

		t = tx_new(s, version, cmd, UINT64_MAX);
		if (!t)
			return;
		t->type = SMB_TXT_FILE;
		t->dir = (uint8_t)dir;
		/* done, both sides, with the file (file_tx_finish): detection
		 * reads its file buffers then */
		t->session_id = session_id;
		t->tree_id = fn ? fn->tree_id : tree_id;
		memcpy(t->fuid, fuid, fuid_len);
		t->fuid_len = fuid_len;
		if (fn)
			str_copy(&t->filename, &fn->name);
		tn = tree_find(s, t->tree_id);
		if (tn)
			str_copy(&t->share, &tn->name);
		t->file_next = offset;
		t->file = files_open(&t->files[dir], (const uint8_t *)(t->filename.s ? t->filename.s : ""),
				     t->filename.len, t->id, FILE_OPEN_HEAD);
		if (!t->file)
			tx_event(t, SMB_EV_INTERNAL_ERROR);
	}
	if (!t->file)
		return;
	if (offset < t->file_next) {
		/* data we already have again (a retried read or write) */
		tx_event(t, SMB_EV_FILE_OVERLAP);
		if (offset + len <= t->file_next)
			return;
		data += t->file_next - offset;
		len -= (size_t)(t->file_next - offset);
		offset = t->file_next;
	} else if (offset > t->file_next) {
		file_gap(t->file, offset - t->file_next);
	}
	if (len)
		file_append(t->file, data, len);
	if (missing)
		file_gap(t->file, missing);
	t->file_next = offset + len + missing;
}

/* CLOSE on a file id: its file transactions are done. */
static void file_closed(SmbState *s, const uint8_t *fuid, uint8_t fuid_len)
{
	for (int d = 0; d < 2; d++) {
		SmbTx *t = file_tx_find(s, fuid, fuid_len, d);

		if (t)
			file_tx_finish(t, FILE_CLOSE_OK);
	}
}

/* 1 a named pipe, 0 a file, -1 unknown (its tree connect was not seen:
 * midstream). */
static int fid_pipe_state(SmbState *s, const uint8_t *fuid, uint8_t fuid_len, uint32_t tree_id)
{
	SmbName *n = name_find(s->fids, fuid, fuid_len);
	SmbName *tn;

	if (n && n->is_pipe != SMB_PIPE_UNKNOWN)
		return n->is_pipe;
	tn = tree_find(s, tree_id);
	return tn ? tn->is_pipe : -1;
}

static int fid_is_pipe(SmbState *s, const uint8_t *fuid, uint8_t fuid_len, uint32_t tree_id)
{
	return fid_pipe_state(s, fuid, fuid_len, tree_id) == 1;
}

/* Whether data read or written on the file goes to a pipe: as its tree
 * says, or, when the tree is unknown, when the data begins like a DCE/RPC
 * PDU (Suricata decides the same way midstream). Such a tree is then a
 * pipe tree (IPC$) for what follows on it, as Suricata's: a later write on
 * another pipe of it that is no DCE/RPC (PsExec's) is no file
 * (bug-8629-async-oneside: one-sided, no tree connect answer seen). */
static int fid_pipe_by_data(SmbState *s, const uint8_t *fuid, uint8_t fuid_len, uint32_t tree_id,
			    const uint8_t *data, size_t len)
{
	int st = fid_pipe_state(s, fuid, fuid_len, tree_id), req;
	uint8_t k[4];
	SmbName *tn;

	if (st >= 0)
		return st;
	if (dcerpc_probe_co(data, len, &req) != 1)
		return 0;
	tree_key(tree_id, k);
	tn = name_put(s, &s->trees, k, 4);
	if (tn)
		tn->is_pipe = 1;
	return 1;
}

/* An SMB2 WRITE request (body b) goes to a pipe. */
static int smb2_write_on_pipe(SmbState *s, const uint8_t *rec, size_t n, const uint8_t *b,
			      uint32_t tree_id)
{
	uint16_t off = le16(b + 2);
	uint32_t len = le32(b + 4);

	if (off < SMB2_HDR || off > n)
		return fid_is_pipe(s, b + 16, 16, tree_id);
	return fid_pipe_by_data(s, b + 16, 16, tree_id, rec + off, n - off < len ? n - off : len);
}

/* The transaction a pipe READ's data belongs with: the latest WRITE on
 * the same pipe (Suricata pairs them into one DCERPC exchange), else the
 * READ's own. */
static SmbTx *pipe_tx(SmbState *s, SmbTx *rd)
{
	SmbTx *w = NULL;

	for (SmbTx *t = s->head; t; t = t->next)
		if (t != rd && t->is_pipe && !t->silent && t->fuid_len == rd->fuid_len &&
		    memcmp(t->fuid, rd->fuid, rd->fuid_len) == 0 &&
		    t->version == rd->version && t->cmd == rd->cmd + 1)
			w = t;
	return w ? w : rd;
}

/* ---------------- status ---------------- */

static void set_status2(SmbTx *t, uint32_t status)
{
	t->status = status;
	t->status_set = 1;
}

static void set_status1(SmbTx *t, const uint8_t *h)
{
	uint16_t flags2 = le16(h + 10);

	if (flags2 & SMB1_FLAGS2_NT_STATUS) {
		t->status = le32(h + 5);
		t->status_set = 1;
	} else {
		t->dos_class = h[5];
		t->dos_code = le16(h + 7);
		t->dos_set = 1;
		t->status_set = 0;
	}
}


/* ---------------- SMB2 ---------------- */

/* body: the command's structure (after the 64-byte header); rec: the
 * message from its header (offsets in it are from the header); n its
 * length (the compound element's). */
static void smb2_negotiate(SmbState *s, SmbTx *t, int resp, const uint8_t *b, size_t bl)
{
	t->type = SMB_TXT_NEGOTIATE;
	if (!resp) {
		uint16_t cnt;

		if (bl < 36) {
			tx_event(t, SMB_EV_NEGOTIATE_MALFORMED_DIALECTS);
			return;
		}
		cnt = le16(b + 2);
		memcpy(t->client_guid, b + 12, 16);
		t->have_client_guid = 1;
		if (36 + (size_t)cnt * 2 > bl)
			tx_event(t, SMB_EV_NEGOTIATE_MALFORMED_DIALECTS);
		for (unsigned i = 0; i < cnt && 36 + i * 2 + 2 <= bl; i++) {
			char tmp[16];
			const char *nm = smb2_dialect_name(le16(b + 36 + i * 2), tmp, sizeof(tmp));

			if (t->ndialects < SMB_MAX_DIALECTS)
				str_set(&t->dialects[t->ndialects++], (const uint8_t *)nm, strlen(nm), 0);
		}
		return;
	}
	if (bl < 40)
		return;
	if (s->negotiated && s->dialect2)
		tx_event(t, SMB_EV_DUPLICATE_NEGOTIATE);
	s->dialect2 = le16(b + 4);
	s->negotiated = 1;
	memcpy(t->server_guid, b + 8, 16);
	t->have_server_guid = 1;
	t->max_read = le32(b + 32);
	t->max_write = le32(b + 36);
	t->have_sizes = 1;
}

static void smb2_session_setup(SmbTx *t, int resp, const uint8_t *rec, size_t n,
			       const uint8_t *b, size_t bl)
{
	t->type = SMB_TXT_SESSION_SETUP;
	if (resp) {
		return;             /* the CHALLENGE / final token: nothing logged */
	}
	if (bl >= 16) {
		uint16_t off = le16(b + 12), len = le16(b + 14);

		if (off >= SMB2_HDR && off <= n && len <= n - off)
			parse_secblob(t, rec + off, len);
		else
			tx_event(t, SMB_EV_MALFORMED_DATA);
	}
}

static void smb2_tree_connect(SmbState *s, SmbTx *t, int resp, const uint8_t *rec, size_t n,
			      const uint8_t *b, size_t bl, uint32_t tree_id)
{
	t->type = SMB_TXT_TREE_CONNECT;
	if (!resp) {
		if (bl >= 8) {
			uint16_t off = le16(b + 4), len = le16(b + 6);

			if (off >= SMB2_HDR && off <= n && len <= n - off)
				str_set(&t->share, rec + off, len, 1);
		}
		return;
	}
	if (bl >= 3 && t->status_set && t->status == 0) {
		uint8_t k[4];
		SmbName *nm;

		t->share_type = b[2];
		t->is_pipe = b[2] == 2;
		t->tree_id = tree_id;
		tree_key(tree_id, k);
		nm = name_put(s, &s->trees, k, 4);
		if (nm) {
			str_copy(&nm->name, &t->share);
			nm->is_pipe = t->is_pipe;
		}
	} else if (bl >= 3) {
		t->share_type = b[2];
	}
}

static uint64_t filetime_to_unix(uint64_t ft)
{
	/* FILETIME: 100 ns units since 1601 */
	uint64_t secs = ft / 10000000ull;

	return secs > 11644473600ull ? secs - 11644473600ull : 0;
}

/* A create answered: its file id now names the file (and says whether it
 * is a pipe, from its tree), for the reads and writes that follow. */
static void create_done(SmbState *s, SmbTx *t)
{
	SmbName *nm = name_put(s, &s->fids, t->fuid, t->fuid_len);
	SmbName *tn = tree_find(s, t->tree_id);

	t->have_create_resp = 1;
	if (nm) {
		str_copy(&nm->name, &t->filename);
		nm->tree_id = t->tree_id;
		nm->is_pipe = tn ? tn->is_pipe : SMB_PIPE_UNKNOWN;
	}
}

static void smb2_create(SmbState *s, SmbTx *t, int resp, const uint8_t *rec, size_t n,
			const uint8_t *b, size_t bl)
{
	t->type = SMB_TXT_CREATE;
	if (!resp) {
		if (bl < 56) {
			tx_event(t, SMB_EV_MALFORMED_DATA);
			return;
		}
		t->disposition = le32(b + 36);
		t->delete_on_close = (le32(b + 40) & 0x1000) != 0;
		t->directory = (le32(b + 40) & 0x1) != 0;
		{
			uint16_t off = le16(b + 44), len = le16(b + 46);

			if (off >= SMB2_HDR && off <= n && len <= n - off)
				str_set(&t->filename, rec + off, len, 1);
		}
		return;
	}
	if (bl < 80 || !t->status_set || t->status != 0)
		return;
	t->created = filetime_to_unix(le64(b + 8));
	t->accessed = filetime_to_unix(le64(b + 16));
	t->modified = filetime_to_unix(le64(b + 24));
	t->changed = filetime_to_unix(le64(b + 32));
	t->size = le64(b + 48);
	if (le32(b + 56) & 0x10)
		t->directory = 1;
	memcpy(t->fuid, b + 64, 16);
	t->fuid_len = 16;
	create_done(s, t);
}

/* READ requests waiting for their response: what they read. Kept on the
 * generic READ tx (cmd READ, the request's message id). */
static void smb2_read(SmbState *s, SmbTx *t, int resp, const uint8_t *rec, size_t n,
		      const uint8_t *b, size_t bl, uint64_t missing)
{
	if (!resp) {
		if (bl < 32)
			return tx_event(t, SMB_EV_MALFORMED_DATA);
		memcpy(t->fuid, b + 16, 16);
		t->fuid_len = 16;
		t->file_next = le64(b + 8);  /* the offset asked */
		t->is_pipe = (uint8_t)fid_is_pipe(s, t->fuid, 16, t->tree_id);
		return;
	}
	if (bl < 8 || !t->fuid_len || !t->status_set || (t->status != 0 && t->status != 0x80000005))
		return;
	{
		uint8_t off = b[2];
		uint32_t len = le32(b + 4);
		size_t have;

		if (off < SMB2_HDR || off > n)
			return tx_event(t, SMB_EV_MALFORMED_DATA);
		have = n - off < len ? n - off : len;
		if (!t->is_pipe && fid_pipe_by_data(s, t->fuid, 16, t->tree_id, rec + off, have))
			t->is_pipe = 1;
		if (t->is_pipe) {
			smb_pipe_data(s, pipe_tx(s, t), 0, rec + off, have);
		} else {
			uint64_t lost = len > have ? len - have : 0;

			if (missing && lost > missing)
				lost = missing;
			file_data(s, 2, SMB2_READ, t->session_id, t->tree_id, t->fuid, 16,
				  SMB_TOCLIENT, t->file_next, rec + off, have, lost);
		}
	}
}

/* A WRITE request: on a pipe the command's transaction carries it to
 * DCERPC; on a file it goes to the file's transaction (and the request
 * itself is not one, as in Suricata). Returns 1 when t was used. */
static int smb2_write(SmbState *s, SmbTx *t, const uint8_t *rec, size_t n, const uint8_t *b,
		      size_t bl, uint64_t session_id, uint32_t tree_id, uint64_t missing)
{
	uint16_t off;
	uint32_t len;
	size_t have;

	if (bl < 32) {
		tx_event(t, SMB_EV_MALFORMED_DATA);
		return 1;
	}
	off = le16(b + 2);
	len = le32(b + 4);
	memcpy(t->fuid, b + 16, 16);
	t->fuid_len = 16;
	if (off < SMB2_HDR || off > n) {
		tx_event(t, SMB_EV_MALFORMED_DATA);
		return 1;
	}
	have = n - off < len ? n - off : len;
	if (fid_pipe_by_data(s, t->fuid, 16, tree_id, rec + off, have)) {
		t->is_pipe = 1;
		smb_pipe_data(s, t, 1, rec + off, have);
		return 1;
	}
	file_data(s, 2, SMB2_WRITE, session_id, tree_id, b + 16, 16, SMB_TOSERVER, le64(b + 8),
		  rec + off, have, len > have ? (missing < len - have ? missing : len - have) : 0);
	return 0;
}

static void smb2_ioctl(SmbState *s, SmbTx *t, int resp, const uint8_t *rec, size_t n,
		       const uint8_t *b, size_t bl)
{
	uint32_t off, len;

	t->type = SMB_TXT_IOCTL;
	if (bl < 32)
		return;
	t->ioctl_func = le32(b + 4);
	memcpy(t->fuid, b + 8, 16);
	t->fuid_len = 16;
	if (t->ioctl_func != FSCTL_PIPE_TRANSCEIVE)
		return;
	t->is_pipe = 1;
	if (!resp) {
		off = le32(b + 24);
		len = le32(b + 28);
	} else {
		if (!t->status_set || (t->status != 0 && t->status != 0x80000005))
			return;
		off = le32(b + 32);
		len = le32(b + 36);
	}
	(void)s;
	if (len && off >= SMB2_HDR && off <= n && len <= n - off)
		smb_pipe_data(s, t, !resp, rec + off, len);
}

static void smb2_close(SmbState *s, SmbTx *t, int resp, const uint8_t *b, size_t bl)
{
	if (resp || bl < 24)
		return;
	memcpy(t->fuid, b + 8, 16);
	t->fuid_len = 16;
	/* Suricata ends the file on the CLOSE request */
	file_closed(s, b + 8, 16);
}

/* The name of a file id (SMB2 FileId, SMB1 FID) seen created, or Suricata's "<unknown>". */
static void fid_name(SmbState *s, SmbStr *dst, const uint8_t *fid, uint8_t len)
{
	SmbName *fn = name_find(s->fids, fid, len);

	if (fn && fn->name.s)
		str_copy(dst, &fn->name);
	else
		str_set(dst, (const uint8_t *)"<unknown>", 9, 0);
}

/* SET_INFO (MS-SMB2 2.2.39) of class FILE_INFO: FileRenameInformation
 * (10) is a rename, FileDispositionInformation (13) a delete-on-close;
 * Suricata 8 makes no transaction of any other. */
static void smb2_set_info(SmbState *s, SmbTx *t, int resp, const uint8_t *rec, size_t n,
			  const uint8_t *b, size_t bl)
{
	uint32_t len;
	uint16_t off;

	if (resp || bl < 32 || b[2] != 1 || (b[3] != 10 && b[3] != 13))
		return;
	len = le32(b + 4);
	off = le16(b + 8);
	if (off < SMB2_HDR || off > n || len > n - off || len < (b[3] == 10 ? 20u : 1u))
		return;
	memcpy(t->fuid, b + 16, 16);
	t->fuid_len = 16;
	if (b[3] == 13) {
		t->type = SMB_TXT_SET_INFO;
		t->subcmd = b[2];
		t->loi = b[3];
		t->delete_on_close = rec[off] & 1;
		if (!name_find(s->fids, t->fuid, 16)) {
			/* a compound CREATE + SET_INFO: the file is the one the
			 * message before creates, its response not yet seen */
			for (SmbTx *c = s->head; c; c = c->next)
				if (c->version == 2 && c->cmd == 5 && c->msg_id + 1 == t->msg_id &&
				    c->session_id == t->session_id && c->filename.s) {
					str_copy(&t->filename, &c->filename);
					return;
				}
		}
		fid_name(s, &t->filename, t->fuid, 16);
		return;
	}
	t->type = SMB_TXT_RENAME;
	fid_name(s, &t->filename, t->fuid, 16);
	/* FILE_RENAME_INFORMATION_TYPE_2: replace(1) reserved(7) root(8)
	 * name_len(4) name */
	{
		uint32_t nl = le32(rec + off + 16);

		if (nl <= len - 20)
			str_set(&t->newname, rec + off + 20, nl, 1);
	}
}

/* One SMB2 message (of a compound chain): n bytes from its header. missing:
 * bytes of the record that were not kept (too large). */
static void smb2_message(SmbState *s, int dir, const uint8_t *rec, size_t n, uint64_t missing)
{
	uint16_t cmd = le16(rec + 12);
	uint32_t status = le32(rec + 8);
	uint32_t flags = le32(rec + 16);
	uint64_t msg_id = le64(rec + 24);
	uint64_t session_id = le64(rec + 40);
	uint32_t tree_id = (flags & SMB2_FLAGS_ASYNC) ? 0 : le32(rec + 36);
	int resp = (flags & SMB2_FLAGS_RESPONSE) != 0;
	const uint8_t *b = rec + SMB2_HDR;
	size_t bl = n - SMB2_HDR;
	SmbTx *t;

	s->any_v2 = 1;
	if (resp && dir == SMB_TOSERVER)
		state_event(s, SMB_EV_RESPONSE_TO_SERVER);
	else if (!resp && dir == SMB_TOCLIENT)
		state_event(s, SMB_EV_REQUEST_TO_CLIENT);
	if (cmd == SMB2_CANCEL)
		return;             /* Suricata keeps no transaction for CANCEL */
	if (!resp) {
		/* no transaction of their own, as in Suricata: a READ or WRITE of
		 * a file (its data goes to the file's transaction), a READ on a
		 * pipe (the answer of the pipe's WRITE), QUERY_INFO, and a
		 * SET_INFO that is no rename or disposition (smb2_set_info) */
		int silent = (cmd == SMB2_READ || cmd == SMB2_WRITE) && bl >= 32 &&
			     !(cmd == SMB2_WRITE ? smb2_write_on_pipe(s, rec, n, b, tree_id)
						 : fid_is_pipe(s, b + 16, 16, tree_id));

		if (cmd == SMB2_READ && bl >= 32 && !silent)
			silent = 1;
		if (cmd == SMB2_QUERY_INFO || (cmd == SMB2_SET_INFO && !(bl >= 4 && b[2] == 1 && (b[3] == 10 || b[3] == 13))))
			silent = 1;

		t = tx_new_silent(s, 2, cmd, msg_id, silent);
		if (!t)
			return;
		t->session_id = session_id;
		t->tree_id = tree_id;
		t->request_done = 1;
		switch (cmd) {
		case SMB2_NEGOTIATE: smb2_negotiate(s, t, 0, b, bl); break;
		case SMB2_SESSION_SETUP: smb2_session_setup(t, 0, rec, n, b, bl); break;
		case SMB2_TREE_CONNECT: smb2_tree_connect(s, t, 0, rec, n, b, bl, tree_id); break;
		case SMB2_CREATE: smb2_create(s, t, 0, rec, n, b, bl); break;
		case SMB2_READ: smb2_read(s, t, 0, rec, n, b, bl, missing); break;
		case SMB2_WRITE:
			smb2_write(s, t, rec, n, b, bl, session_id, tree_id, missing);
			break;
		case SMB2_IOCTL: smb2_ioctl(s, t, 0, rec, n, b, bl); break;
		case SMB2_CLOSE: smb2_close(s, t, 0, b, bl); break;
		case SMB2_SET_INFO: smb2_set_info(s, t, 0, rec, n, b, bl); break;
		}
		request_unanswered(s, t);
		return;
	}
	t = tx_find(s, 2, cmd, msg_id);
	if (!t && cmd == SMB2_NEGOTIATE) {
		/* the answer to an SMB1 negotiate offering "SMB 2.???" */
		t = tx_find(s, 1, SMB1_NEGOTIATE, 0);
		if (!t) {
			for (SmbTx *o = s->head; o; o = o->next)
				if (o->version == 1 && o->cmd == SMB1_NEGOTIATE && !o->response_done)
					t = o;
		}
	}
	if (!t) {
		/* a response without its request (midstream, or lost) */
		t = tx_new(s, 2, cmd, msg_id);
		if (!t)
			return;
		t->session_id = session_id;
		t->tree_id = tree_id;
		t->request_done = 1;
	}
	if (!t->session_id)
		t->session_id = session_id;
	if (!t->tree_id && tree_id)
		t->tree_id = tree_id;
	set_status2(t, status);
	if (status == STATUS_PENDING && (flags & SMB2_FLAGS_ASYNC)) {
		/* interim: the final response comes later with the same
		 * message id */
		t->pending = 1;
		return;
	}
	switch (cmd) {
	case SMB2_NEGOTIATE: smb2_negotiate(s, t, 1, b, bl); break;
	case SMB2_SESSION_SETUP: smb2_session_setup(t, 1, rec, n, b, bl); break;
	case SMB2_TREE_CONNECT: smb2_tree_connect(s, t, 1, rec, n, b, bl, tree_id); break;
	case SMB2_CREATE: smb2_create(s, t, 1, rec, n, b, bl); break;
	case SMB2_READ: smb2_read(s, t, 1, rec, n, b, bl, missing); break;
	case SMB2_IOCTL: smb2_ioctl(s, t, 1, rec, n, b, bl); break;
	case SMB2_WRITE:
		break;
	case SMB2_TREE_DISCONNECT: {
		uint8_t k[4];
		SmbName *tn;

		tree_key(t->tree_id, k);
		if ((tn = name_find(s->trees, k, 4)) != NULL)
			tn->key_len = 0;    /* forgotten; freed with the state */
		break;
	}
	}
	if (t->silent && t->fuid_len && (cmd == SMB2_READ || cmd == SMB2_WRITE) && status == 0) {
		/* the file's transaction takes the status of its reads/writes
		 * that succeeded (a read past the end, STATUS_END_OF_FILE, is not
		 * the file's: suricata-verify smb2-01) */
		SmbTx *ft = file_tx_find(s, t->fuid, t->fuid_len,
					 cmd == SMB2_WRITE ? SMB_TOSERVER : SMB_TOCLIENT);

		if (ft)
			set_status2(ft, status);
	}
	smb_tx_response_done(t, status == 0);
}

static void smb2_record(SmbState *s, int dir, const uint8_t *rec, size_t n, uint64_t missing)
{
	/* compound: NextCommand is the offset of the next message, 8-aligned */
	for (int guard = 0; guard < 512; guard++) {
		uint32_t next;
		size_t len;

		if (n < SMB2_HDR || memcmp(rec, "\xfeSMB", 4) != 0 || le16(rec + 4) != 64) {
			state_event(s, SMB_EV_MALFORMED_DATA);
			s->st.bad_records++;
			return;
		}
		next = le32(rec + 20);
		len = next && next >= SMB2_HDR && next <= n ? next : n;
		smb2_message(s, dir, rec, len, len == n ? missing : 0);
		if (!next || next < SMB2_HDR || next > n)
			return;
		rec += next;
		n -= next;
	}
}

/* ---------------- SMB1 ---------------- */

/* Unicode strings in SMB1 data are 2-aligned from the SMB header. */
static size_t align_uni(size_t off, int unicode)
{
	return unicode && (off & 1) ? off + 1 : off;
}

static void smb1_negotiate(SmbState *s, SmbTx *t, int resp, const uint8_t *w, unsigned wc,
			   const uint8_t *d, size_t dl)
{
	t->type = SMB_TXT_NEGOTIATE;
	if (!resp) {
		size_t i = 0;

		for (int k = 0; k < SMB_MAX_DIALECTS; k++)
			str_free(&s->offered1[k]);
		s->noffered1 = 0;
		while (i < dl) {
			size_t j;

			if (d[i] != 0x02) {
				tx_event(t, SMB_EV_NEGOTIATE_MALFORMED_DIALECTS);
				break;
			}
			j = ++i;
			while (j < dl && d[j])
				j++;
			if (t->ndialects < SMB_MAX_DIALECTS)
				str_set(&t->dialects[t->ndialects++], d + i, j - i, 0);
			if (s->noffered1 < SMB_MAX_DIALECTS)
				str_set(&s->offered1[s->noffered1++], d + i, j - i, 0);
			i = j + 1;
		}
		return;
	}
	if (wc >= 1) {
		uint16_t idx = le16(w);

		if (s->negotiated)
			tx_event(t, SMB_EV_DUPLICATE_NEGOTIATE);
		if (idx < s->noffered1)
			str_copy(&s->dialect1, &s->offered1[idx]);
		s->negotiated = 1;
	}
	/* NT LM 0.12 with extended security: the server GUID opens the data */
	if (wc == 17 && (le32(w + 19) & 0x80000000u) && dl >= 16) {
		memcpy(t->server_guid, d, 16);
		t->have_server_guid = 1;
	}
}


/* The NativeOS and NativeLM strings after a session setup's security blob,
 * from offset o of d: 0 when there is nothing there. */
static int native_os_lm(const uint8_t *d, size_t dl, size_t o, int unicode, SmbStr *os,
			SmbStr *lm)
{
	size_t e = o;

	if (o >= dl)
		return 0;
	if (unicode) {
		while (e + 1 < dl && (d[e] || d[e + 1]))
			e += 2;
	} else {
		while (e < dl && d[e])
			e++;
	}
	str_set(os, d + o, e - o, unicode);
	o = e + (unicode ? 2 : 1);
	if (o < dl)
		str_set(lm, d + o, dl - o, unicode);
	return 1;
}

static void smb1_session_setup(SmbTx *t, int resp, const uint8_t *h, size_t n, const uint8_t *w,
			       unsigned wc, const uint8_t *d, size_t dl, int unicode)
{
	size_t pos = (size_t)(d - h);

	t->type = SMB_TXT_SESSION_SETUP;
	if (!resp) {
		size_t blob = 0;

		if (wc == 12) {
			blob = le16(w + 14);
			if (blob > dl)
				return tx_event(t, SMB_EV_MALFORMED_DATA);
			parse_secblob(t, d, blob);
		} else if (wc == 13) {
			/* NT LM 0.12 without extended security: passwords, account,
			 * domain, then the OS strings; Suricata logs none of it */
			return;
		} else {
			return;
		}
		if (native_os_lm(d, dl, align_uni(pos + blob, unicode) - pos, unicode,
				 &t->req_os, &t->req_lm))
			t->have_req_host = 1;
		return;
	}
	if (wc == 4 || wc == 3) {
		size_t blob = wc == 4 ? le16(w + 6) : 0;

		if (blob <= dl &&
		    native_os_lm(d, dl, align_uni(pos + blob, unicode) - pos, unicode,
				 &t->res_os, &t->res_lm))
			t->have_res_host = 1;
	}
	(void)n;
}

static void smb1_tree_connect(SmbState *s, SmbTx *t, int resp, const uint8_t *h, const uint8_t *w,
			      unsigned wc, const uint8_t *d, size_t dl, int unicode, uint16_t tid)
{
	size_t pos = (size_t)(d - h);

	t->type = SMB_TXT_TREE_CONNECT;
	if (!resp) {
		size_t pw, o, e;

		if (wc < 4)
			return;
		pw = le16(w + 6);
		if (pw > dl)
			return tx_event(t, SMB_EV_MALFORMED_DATA);
		o = align_uni(pos + pw, unicode) - pos;
		if (o >= dl)
			return;
		e = o;
		if (unicode) {
			while (e + 1 < dl && (d[e] || d[e + 1]))
				e += 2;
		} else {
			while (e < dl && d[e])
				e++;
		}
		str_set(&t->share, d + o, e - o, unicode);
		o = e + (unicode ? 2 : 1);
		if (o < dl)
			str_set(&t->req_service, d + o, dl - o, 0);
		return;
	}
	if (dl)
		str_set(&t->res_service, d, dl, 0);
	if (t->status_set && t->status != 0)
		return;
	if (t->dos_set && (t->dos_class || t->dos_code))
		return;
	t->is_pipe = t->res_service.s && strcmp(t->res_service.s, "IPC") == 0;
	t->tree_id = tid;
	{
		uint8_t k[4];
		SmbName *nm;

		tree_key(tid, k);
		nm = name_put(s, &s->trees, k, 4);
		if (nm) {
			str_copy(&nm->name, &t->share);
			nm->is_pipe = t->is_pipe;
		}
	}
}

static void smb1_create(SmbState *s, SmbTx *t, int resp, const uint8_t *h, const uint8_t *w,
			unsigned wc, const uint8_t *d, size_t dl, int unicode)
{
	size_t pos = (size_t)(d - h);

	t->type = SMB_TXT_CREATE;
	if (!resp) {
		size_t o;

		if (wc < 24)
			return tx_event(t, SMB_EV_MALFORMED_DATA);
		t->disposition = le32(w + 35);
		t->delete_on_close = (le32(w + 39) & 0x1000) != 0;
		t->directory = (le32(w + 39) & 0x1) != 0;
		o = align_uni(pos, unicode) - pos;
		if (o < dl)
			str_set(&t->filename, d + o, dl - o, unicode);
		return;
	}
	if (wc < 34 || (t->status_set && t->status != 0))
		return;
	memcpy(t->fuid, w + 5, 2);
	t->fuid_len = 2;
	t->created = filetime_to_unix(le64(w + 11));
	t->accessed = filetime_to_unix(le64(w + 19));
	t->modified = filetime_to_unix(le64(w + 27));
	t->changed = filetime_to_unix(le64(w + 35));
	t->size = le64(w + 55);
	if (w[67])
		t->directory = 1;
	create_done(s, t);
}

/* TRANS on a named pipe (TransactNmPipe): parameters and data go to the
 * pipe. */
static void smb1_trans(SmbState *s, SmbTx *t, int resp, const uint8_t *h, size_t n,
		       const uint8_t *w, unsigned wc)
{
	uint16_t cnt, off;

	if (!resp) {
		if (wc < 16)
			return;
		cnt = le16(w + 22);
		off = le16(w + 24);
		if (le16(w + 28) != 0x26)   /* TransactNmPipe */
			return;
		memcpy(t->fuid, w + 30, 2);
		t->fuid_len = 2;
		t->is_pipe = 1;
	} else {
		if (wc < 10 || !t->is_pipe)
			return;
		cnt = le16(w + 12);
		off = le16(w + 14);
	}
	if (cnt && off <= n && cnt <= n - off)
		smb_pipe_data(s, t, !resp, h + off, cnt);
}

/* WRITE_ANDX: a pipe's data to DCERPC, a file's to its file transaction.
 * Returns 0 when the request went to a file transaction. */
static int smb1_write(SmbState *s, SmbTx *t, const uint8_t *h, size_t n, const uint8_t *w,
		      unsigned wc, uint64_t session_id, uint16_t tid, uint64_t missing)
{
	uint32_t len;
	uint16_t off;
	uint64_t offset;
	size_t have;

	if (wc < 12) {
		tx_event(t, SMB_EV_MALFORMED_DATA);
		return 1;
	}
	memcpy(t->fuid, w + 4, 2);
	t->fuid_len = 2;
	len = le16(w + 20) | (uint32_t)le16(w + 18) << 16;
	off = le16(w + 22);
	offset = le32(w + 6);
	if (wc >= 14)
		offset |= (uint64_t)le32(w + 24) << 32;
	if (off > n) {
		tx_event(t, SMB_EV_MALFORMED_DATA);
		return 1;
	}
	have = n - off < len ? n - off : len;
	if (fid_is_pipe(s, t->fuid, 2, tid)) {
		t->is_pipe = 1;
		smb_pipe_data(s, t, 1, h + off, have);
		return 1;
	}
	file_data(s, 1, SMB1_WRITE_ANDX, session_id, tid, t->fuid, 2, SMB_TOSERVER, offset, h + off,
		  have, len > have ? (missing < len - have ? missing : len - have) : 0);
	return 0;
}

static void smb1_read(SmbState *s, SmbTx *t, int resp, const uint8_t *h, size_t n,
		      const uint8_t *w, unsigned wc, uint64_t missing)
{
	if (!resp) {
		if (wc < 10)
			return tx_event(t, SMB_EV_MALFORMED_DATA);
		memcpy(t->fuid, w + 4, 2);
		t->fuid_len = 2;
		t->file_next = le32(w + 6);
		if (wc >= 12)
			t->file_next |= (uint64_t)le32(w + 20) << 32;
		t->is_pipe = (uint8_t)fid_is_pipe(s, t->fuid, 2, t->tree_id);
		return;
	}
	if (wc < 12 || !t->fuid_len)
		return;
	{
		uint32_t len = le16(w + 10) | (uint32_t)le16(w + 14) << 16;
		uint16_t off = le16(w + 12);
		size_t have;

		if (off > n)
			return tx_event(t, SMB_EV_MALFORMED_DATA);
		have = n - off < len ? n - off : len;
		if (t->is_pipe)
			smb_pipe_data(s, pipe_tx(s, t), 0, h + off, have);
		else
			file_data(s, 1, SMB1_READ_ANDX, t->session_id, (uint16_t)t->tree_id, t->fuid, 2,
				  SMB_TOCLIENT, t->file_next, h + off, have,
				  len > have ? (missing < len - have ? missing : len - have) : 0);
	}
}

/* Where an SMB1 command's parameter block starts (wc at p): its words,
 * byte count and bytes, bounded by the record. */
static void smb1_block(const uint8_t *h, size_t n, size_t at, unsigned *wc, const uint8_t **w,
		       const uint8_t **d, size_t *dl)
{
	size_t need;

	*wc = h[at];
	*w = h + at + 1;
	need = at + 1 + *wc * 2u + 2;
	if (need > n) {
		/* a short error response has no byte count; keep what there is */
		*dl = 0;
		*d = h + n;
		if (at + 1 + *wc * 2u > n)
			*wc = (unsigned)((n - at - 1) / 2);
	} else {
		*dl = le16(h + at + 1 + *wc * 2);
		*d = h + need;
		if (*dl > n - need)
			*dl = n - need;
	}
}

/* TRANS2 subcommands and the pass-through information levels (1000 plus
 * the FILE_INFORMATION_CLASS, MS-SMB 2.2.2.3.5) that Suricata 8 makes a
 * transaction of: a rename or a delete-on-close of a path or a FID. */
#define TRANS2_SET_PATH_INFO 6
#define TRANS2_SET_FILE_INFO 8
#define LOI_RENAME 1010
#define LOI_DISPOSITION 1013

typedef struct Trans2SetInfo {
	uint16_t sub, loi;
	const uint8_t *fid;         /* SET_FILE_INFO: the FID (2 bytes) */
	const uint8_t *path;        /* SET_PATH_INFO: the path */
	size_t path_len;
	const uint8_t *data;        /* the information: disposition or rename */
	size_t data_len;
} Trans2SetInfo;

/* A TRANS2 request's setup, parameters and data (offsets from the SMB
 * header, MS-CIFS 2.2.4.46.1); 1 when it is a rename or a disposition. */
static int smb1_trans2_parse(const uint8_t *h, size_t n, const uint8_t *w, unsigned wc,
			     Trans2SetInfo *ti)
{
	uint16_t pcnt, poff, dcnt, doff;
	const uint8_t *p;

	if (wc < 15)
		return 0;
	pcnt = le16(w + 18);
	poff = le16(w + 20);
	dcnt = le16(w + 22);
	doff = le16(w + 24);
	ti->sub = le16(w + 28);
	if (ti->sub != TRANS2_SET_PATH_INFO && ti->sub != TRANS2_SET_FILE_INFO)
		return 0;
	if (poff > n || pcnt > n - poff || doff > n || dcnt > n - doff)
		return 0;
	p = h + poff;
	ti->fid = ti->path = NULL;
	ti->path_len = 0;
	if (ti->sub == TRANS2_SET_FILE_INFO) {
		if (pcnt < 4)
			return 0;
		ti->fid = p;
		ti->loi = le16(p + 2);
	} else {
		/* level, 4 reserved bytes, the path */
		if (pcnt < 6)
			return 0;
		ti->loi = le16(p);
		ti->path = p + 6;
		ti->path_len = pcnt - 6u;
	}
	ti->data = h + doff;
	ti->data_len = dcnt;
	if (ti->loi == LOI_DISPOSITION)
		return dcnt >= 1;
	/* replace (1), reserved (3), root FID (4), name length (4), name */
	if (ti->loi == LOI_RENAME)
		return dcnt >= 12 && le32(ti->data + 8) <= dcnt - 12u;
	return 0;
}

static void smb1_trans2(SmbState *s, SmbTx *t, const Trans2SetInfo *ti, int unicode)
{
	if (ti->fid) {
		memcpy(t->fuid, ti->fid, 2);
		t->fuid_len = 2;
		fid_name(s, &t->filename, ti->fid, 2);
	} else {
		str_set(&t->filename, ti->path, ti->path_len, unicode);
	}
	if (ti->loi == LOI_RENAME) {
		t->type = SMB_TXT_RENAME;
		str_set(&t->newname, ti->data + 12, le32(ti->data + 8), unicode);
		return;
	}
	t->type = SMB_TXT_SET_INFO;
	t->subcmd = ti->sub;
	t->loi = ti->loi;
	t->delete_on_close = ti->data[0] & 1;
}

/* RENAME (MS-CIFS 2.2.4.8.1): buffer format, old name, buffer format,
 * new name, each name 2-aligned from the header when unicode. */
static void smb1_rename(SmbTx *t, const uint8_t *h, const uint8_t *d, size_t dl, int unicode)
{
	size_t pos = (size_t)(d - h), o, e;

	/* a malformed one stays a generic transaction, as in Suricata */
	if (dl < 2 || d[0] != 0x04)
		return tx_event(t, SMB_EV_MALFORMED_DATA);
	o = align_uni(pos + 1, unicode) - pos;
	/* the old name's end: its NUL (unit) */
	for (e = o; e < dl; e += unicode ? 2 : 1)
		if (!d[e] && (!unicode || (e + 1 < dl && !d[e + 1])))
			break;
	if (e >= dl)
		return tx_event(t, SMB_EV_MALFORMED_DATA);
	str_set(&t->filename, d + o, e - o, unicode);
	e += unicode ? 2 : 1;
	if (e >= dl || d[e] != 0x04)
		return tx_event(t, SMB_EV_MALFORMED_DATA);
	o = align_uni(pos + e + 1, unicode) - pos;
	if (o < dl)
		str_set(&t->newname, d + o, dl - o, unicode);
	t->type = SMB_TXT_RENAME;
}

/* AndX commands: their first words name the next command of the chain
 * and its offset from the header. */
static int smb1_is_andx(uint8_t cmd)
{
	return cmd == 0x24 || cmd == 0x2d || cmd == SMB1_READ_ANDX || cmd == SMB1_WRITE_ANDX ||
	       cmd == SMB1_SESSION_SETUP_ANDX || cmd == SMB1_LOGOFF_ANDX ||
	       cmd == SMB1_TREE_CONNECT_ANDX || cmd == SMB1_NT_CREATE_ANDX;
}

/* Whether an SMB1 request is no transaction of Suricata 8's (kept only
 * to pair its response): READ_ANDX and WRITE_ANDX on a file (their data
 * goes to the file's transaction), TRANS but a TransactNmPipe (its
 * DCE/RPC call is one), and TRANS2 but a rename or delete
 * (smb1_trans2_parse). */
static int smb1_request_silent(SmbState *s, uint8_t cmd, uint16_t tid, const uint8_t *w,
			       unsigned wc)
{
	switch (cmd) {
	case SMB1_READ_ANDX:
		return wc >= 10;
	case SMB1_WRITE_ANDX:
		return wc >= 10 && !fid_is_pipe(s, w + 4, 2, tid);
	case SMB1_TRANS:
		return wc < 16 || le16(w + 28) != 0x26;
	}
	return 0;
}

static void smb1_command(SmbState *s, int dir, const uint8_t *h, size_t n, uint64_t missing,
			 uint8_t cmd, int resp, int unicode, uint16_t tid, uint16_t uid,
			 uint64_t key, const uint8_t *w, unsigned wc, const uint8_t *d, size_t dl)
{
	SmbTx *t;

	if (!resp) {
		Trans2SetInfo ti;
		int silent = cmd == SMB1_TRANS2 ? !smb1_trans2_parse(h, n, w, wc, &ti)
					       : smb1_request_silent(s, cmd, tid, w, wc);

		t = tx_new_silent(s, 1, cmd, key, silent);
		if (!t)
			return;
		t->session_id = uid;
		t->tree_id = tid;
		t->request_done = 1;
		switch (cmd) {
		case SMB1_NEGOTIATE: smb1_negotiate(s, t, 0, w, wc, d, dl); break;
		case SMB1_SESSION_SETUP_ANDX: smb1_session_setup(t, 0, h, n, w, wc, d, dl, unicode); break;
		case SMB1_TREE_CONNECT_ANDX: smb1_tree_connect(s, t, 0, h, w, wc, d, dl, unicode, tid); break;
		case SMB1_NT_CREATE_ANDX: smb1_create(s, t, 0, h, w, wc, d, dl, unicode); break;
		case SMB1_TRANS: smb1_trans(s, t, 0, h, n, w, wc); break;
		case SMB1_TRANS2:
			if (!silent)
				smb1_trans2(s, t, &ti, unicode);
			break;
		case SMB1_RENAME: smb1_rename(t, h, d, dl, unicode); break;
		case SMB1_READ_ANDX: smb1_read(s, t, 0, h, n, w, wc, missing); break;
		case SMB1_WRITE_ANDX:
			smb1_write(s, t, h, n, w, wc, uid, tid, missing);
			break;
		case SMB1_CLOSE:
			if (wc >= 1) {
				memcpy(t->fuid, w, 2);
				t->fuid_len = 2;
				file_closed(s, w, 2);
			}
			break;
		}
		request_unanswered(s, t);
		return;
	}
	/* Suricata 8 makes no SMB1 transaction of a response whose request
	 * it did not see: it only looks the request's up (flow-tx-cnt: the
	 * answer to TRANS2 secondaries, a second NT_TRANS answer) */
	t = tx_find(s, 1, cmd, key);
	if (!t)
		return;
	if (!t->session_id)
		t->session_id = uid;
	set_status1(t, h);
	switch (cmd) {
	case SMB1_NEGOTIATE: smb1_negotiate(s, t, 1, w, wc, d, dl); break;
	case SMB1_SESSION_SETUP_ANDX: smb1_session_setup(t, 1, h, n, w, wc, d, dl, unicode); break;
	case SMB1_TREE_CONNECT_ANDX: smb1_tree_connect(s, t, 1, h, w, wc, d, dl, unicode, tid); break;
	case SMB1_NT_CREATE_ANDX: smb1_create(s, t, 1, h, w, wc, d, dl, unicode); break;
	case SMB1_TRANS: smb1_trans(s, t, 1, h, n, w, wc); break;
	case SMB1_READ_ANDX: smb1_read(s, t, 1, h, n, w, wc, missing); break;
	}
	if (t->silent && t->fuid_len && (cmd == SMB1_READ_ANDX || cmd == SMB1_WRITE_ANDX)) {
		SmbTx *ft = file_tx_find(s, t->fuid, t->fuid_len,
					 cmd == SMB1_WRITE_ANDX ? SMB_TOSERVER : SMB_TOCLIENT);

		if (ft)
			set_status1(ft, h);
	}
	smb_tx_response_done(t, !t->dos_set && t->status == 0);
}

static void smb1_record(SmbState *s, int dir, const uint8_t *h, size_t n, uint64_t missing)
{
	uint8_t cmd;
	int resp, unicode;
	uint16_t tid, pid, uid, mid;
	unsigned wc;
	const uint8_t *w, *d;
	size_t dl, at = SMB1_HDR;
	uint64_t key;

	if (n < SMB1_HDR + 3 || memcmp(h, "\xffSMB", 4) != 0) {
		state_event(s, SMB_EV_MALFORMED_DATA);
		s->st.bad_records++;
		return;
	}
	s->any_v1 = 1;
	cmd = h[4];
	resp = (h[9] & SMB1_FLAGS_REPLY) != 0;
	unicode = (le16(h + 10) & SMB1_FLAGS2_UNICODE) != 0;
	tid = le16(h + 24);
	pid = le16(h + 26);
	uid = le16(h + 28);
	mid = le16(h + 30);
	key = (uint64_t)pid << 16 | mid;
	if (resp && dir == SMB_TOSERVER)
		state_event(s, SMB_EV_RESPONSE_TO_SERVER);
	else if (!resp && dir == SMB_TOCLIENT)
		state_event(s, SMB_EV_REQUEST_TO_CLIENT);
	/* the chain: each link a command of its own; offsets only go forward */
	for (int link = 0; link < 8; link++) {
		size_t next;

		smb1_block(h, n, at, &wc, &w, &d, &dl);
		smb1_command(s, dir, h, n, missing, cmd, resp, unicode, tid, uid, key, w, wc, d, dl);
		if (!smb1_is_andx(cmd) || wc < 2 || w[0] == 0xff)
			break;
		next = le16(w + 2);
		if (next <= at || next + 3 > n)
			break;
		cmd = w[0];
		at = next;
	}
}

/* ---------------- framing ---------------- */

static int smb_magic(const uint8_t *p)
{
	return (p[0] == 0xff || p[0] == 0xfe || p[0] == 0xfd || p[0] == 0xfc) && p[1] == 'S' &&
	       p[2] == 'M' && p[3] == 'B';
}

int smb_probe(const uint8_t *data, size_t len, int nbss_ok, int *reply)
{
	if (reply)
		*reply = 0;
	if (len == 0)
		return -1;
	if (data[0] == 0x00) {
		if (len < 8)
			return -1;
		if (!smb_magic(data + 4))
			return 0;
		if (reply && len >= 14 && data[4] == 0xff)
			*reply = (data[13] & SMB1_FLAGS_REPLY) != 0;
		else if (reply && len >= 24 && data[4] == 0xfe)
			*reply = (data[20] & SMB2_FLAGS_RESPONSE) != 0;
		return 1;
	}
	/* session request / response / retarget / keepalive: an SMB port's */
	if (nbss_ok && (data[0] == 0x81 || data[0] == 0x82 || data[0] == 0x83 || data[0] == 0x84 ||
			data[0] == 0x85)) {
		if (len < 4)
			return -1;
		return (data[1] & 0xfe) == 0 ? 1 : 0;
	}
	return 0;
}

/* One frame triple (whole, header, rest) of type t at off; a header
 * longer than the message is cut to it. */
static void frame3(SmbState *s, int dir, unsigned t, uint64_t off, uint64_t len, uint64_t hlen)
{
	if (hlen > len)
		hlen = len;
	app_frame_new(s->flow, dir, off, (int64_t)len, t);
	app_frame_new(s->flow, dir, off, (int64_t)hlen, t + 1);
	app_frame_new(s->flow, dir, off + hlen, (int64_t)(len - hlen), t + 2);
}

/* The SMB frames of a record of total bytes (n of them in rec) that
 * starts at stream offset off. */
static void record_frames(SmbState *s, int dir, const uint8_t *rec, size_t n, uint64_t total,
			  uint64_t off)
{
	if (rec[0] == 0xff) {
		frame3(s, dir, SMB_FRAME_SMB1_PDU, off, total, 32);
	} else if (rec[0] == 0xfd) {
		frame3(s, dir, SMB_FRAME_SMB3_PDU, off, total, 52);
	} else if (rec[0] == 0xfe) {
		/* a compound: one triple per message, NextCommand apart */
		uint64_t o = 0;

		for (int k = 0; k < 64 && o < total; k++) {
			uint32_t next = o + 24 <= n ? le32(rec + o + 20) : 0;
			uint64_t len = next && o + next < total ? next : total - o;

			frame3(s, dir, SMB_FRAME_SMB2_PDU, off + o, len, SMB2_HDR);
			if (!next)
				break;
			o += next;
		}
	}
}

static void record(SmbState *s, int dir, const uint8_t *rec, size_t n, uint64_t missing)
{
	if (n >= 4 && app_frames_on(s->flow))
		record_frames(s, dir, rec, n, n + missing, s->fr[dir & 1].rec_off + 4);
	s->st.records++;
	if (n < 4)
		return;
	if (rec[0] == 0xfe)
		smb2_record(s, dir, rec, n, missing);
	else if (rec[0] == 0xff)
		smb1_record(s, dir, rec, n, missing);
	else if (rec[0] == 0xfd || rec[0] == 0xfc)
		s->st.encrypted++;  /* SMB3 transform / compression: not parsed */
}

/* Bytes are waited for in fr->buf: room for the whole record (up to the
 * cap), exactly: the record's length is known, and a buffer rounded up
 * (it used to start at 4 KB) is what 100,000 idle sessions hold. */
static int fr_reserve(SmbFramer *fr, uint32_t need)
{
	uint8_t *nb;

	if (need <= fr->cap)
		return 0;
	nb = app_mem_realloc(ALPROTO_SMB, fr->buf, need);
	if (!nb)
		return -1;
	fr->buf = nb;
	fr->cap = need;
	return 0;
}

/* Between records the buffer holds nothing: an idle session keeps none. */
static void fr_release(SmbFramer *fr)
{
	app_mem_free(ALPROTO_SMB, fr->buf);
	fr->buf = NULL;
	fr->cap = 0;
}

/* Whether the record that starts at data (keep bytes of it here) can be
 * parsed in place: all of it in this chunk, none buffered yet. Most
 * records (every request and answer but the large READ and WRITE ones)
 * come whole in a segment; they then cost no copy and no allocation. */
static int fr_in_place(const SmbFramer *fr, size_t len, uint32_t keep)
{
	return fr->rec_have == 0 && keep >= 4 && len >= keep;
}

/* The NBSS frames of a message whose header starts at off. */
static void nbss_frames(SmbState *s, int dir, uint64_t off, uint32_t len)
{
	if (app_frames_on(s->flow))
		frame3(s, dir, SMB_FRAME_NBSS_PDU, off, 4u + (uint64_t)len, 4);
}

int smb_parse(SmbState *s, int dir, const uint8_t *data, size_t len)
{
	SmbFramer *fr = &s->fr[dir & 1];
	/* stream offsets, for frames: where data starts */
	const uint8_t *start = data;
	uint64_t base = app_frames_on(s->flow) ? app_frame_offset(s->flow, dir & 1) : 0;

	dir &= 1;
	if (s->too_many)
		return 0;
	while (len) {
		if (fr->skip) {
			size_t k = len < fr->skip ? len : fr->skip;

			fr->skip -= (uint32_t)k;
			data += k;
			len -= k;
			continue;
		}
		if (fr->lost) {
			/* slide an 8-byte window to the next "00 len (ff|fe|fd)SMB" */
			fr->hdr[fr->hdr_len++] = *data++;
			len--;
			if (fr->hdr_len < 8)
				continue;
			if (fr->hdr[0] == 0 && smb_magic(fr->hdr + 4)) {
				fr->lost = 0;
				s->st.resyncs++;
				fr->rec_len = (uint32_t)fr->hdr[1] << 16 | (uint32_t)fr->hdr[2] << 8 |
					      fr->hdr[3];
				fr->rec_off = base + (uint64_t)(data - start) - 8;
				nbss_frames(s, dir, fr->rec_off, fr->rec_len);
				fr->hdr_len = 4;
				fr->rec_have = 0;
				if (fr->rec_len < 4) {
					fr->hdr_len = 0;
					continue;
				}
				if (fr_reserve(fr, fr->rec_len < SMB_MAX_RECORD ? fr->rec_len :
						   SMB_MAX_RECORD) < 0) {
					fr->lost = 1;
					fr->hdr_len = 0;
					continue;
				}
				memcpy(fr->buf, fr->hdr + 4, 4);
				fr->rec_have = 4;
			} else {
				memmove(fr->hdr, fr->hdr + 1, 7);
				fr->hdr_len = 7;
			}
			continue;
		}
		if (fr->hdr_len < 4) {
			fr->hdr[fr->hdr_len++] = *data++;
			len--;
			if (fr->hdr_len < 4)
				continue;
			if (fr->hdr[0] != 0x00) {
				/* session request/response/keepalive: skip its body */
				uint32_t l = (uint32_t)(fr->hdr[1] & 1) << 16 |
					     (uint32_t)fr->hdr[2] << 8 | fr->hdr[3];

				s->st.nbss_other++;
				nbss_frames(s, dir, base + (uint64_t)(data - start) - 4, l);
				if (fr->hdr[0] != 0x81 && fr->hdr[0] != 0x82 && fr->hdr[0] != 0x83 &&
				    fr->hdr[0] != 0x84 && fr->hdr[0] != 0x85) {
					state_event(s, SMB_EV_UNUSUAL_NBSS_TYPE);
					fr->lost = 1;
					memmove(fr->hdr, fr->hdr + 1, 3);
					fr->hdr_len = 3;
					continue;
				}
				fr->skip = l;
				fr->hdr_len = 0;
				continue;
			}
			fr->rec_len = (uint32_t)fr->hdr[1] << 16 | (uint32_t)fr->hdr[2] << 8 |
				      fr->hdr[3];
			fr->rec_have = 0;
			fr->rec_off = base + (uint64_t)(data - start) - 4;
			nbss_frames(s, dir, fr->rec_off, fr->rec_len);
			if (fr->rec_len == 0) {
				fr->hdr_len = 0;
				continue;
			}
			continue;
		}
		{
			uint32_t keep = fr->rec_len < SMB_MAX_RECORD ? fr->rec_len : SMB_MAX_RECORD;
			size_t k = keep - fr->rec_have;

			if (fr_in_place(fr, len, keep)) {
				if (!smb_magic(data)) {
					/* no SMB in this session message: lost sync */
					s->st.bad_records++;
					state_event(s, SMB_EV_MALFORMED_DATA);
					fr->lost = 1;
					memmove(fr->hdr, fr->hdr + 1, 3);
					memcpy(fr->hdr + 3, data, 4);
					fr->hdr_len = 7;
					data += 4;
					len -= 4;
					continue;
				}
				if (keep < fr->rec_len)
					state_event(s, SMB_EV_RECORD_OVERFLOW);
				record(s, dir, data, keep, fr->rec_len - keep);
				data += keep;
				len -= keep;
				fr->skip = fr->rec_len - keep;
				fr->hdr_len = 0;
				continue;
			}
			if (fr_reserve(fr, keep) < 0) {
				state_event(s, SMB_EV_INTERNAL_ERROR);
				fr->skip = fr->rec_len - fr->rec_have;
				fr->hdr_len = 0;
				fr->rec_have = 0;
				continue;
			}
			if (k > len)
				k = len;
			memcpy(fr->buf + fr->rec_have, data, k);
			fr->rec_have += (uint32_t)k;
			data += k;
			len -= k;
			if (fr->rec_have == 4 && !smb_magic(fr->buf)) {
				/* no SMB in this session message: lost sync */
				s->st.bad_records++;
				state_event(s, SMB_EV_MALFORMED_DATA);
				fr->lost = 1;
				memmove(fr->hdr, fr->hdr + 1, 3);
				memcpy(fr->hdr + 3, fr->buf, 4);
				fr->hdr_len = 7;
				continue;
			}
			if (fr->rec_have < keep)
				continue;
			if (keep < fr->rec_len)
				state_event(s, SMB_EV_RECORD_OVERFLOW);
			record(s, dir, fr->buf, keep, fr->rec_len - keep);
			fr->skip = fr->rec_len - keep;
			fr->hdr_len = 0;
			fr->rec_have = 0;
			fr_release(fr);
		}
	}
	return 0;
}

/* A record that will not complete (a gap, the stream's depth, the end):
 * what came of it is parsed, the rest counted missing, so that a large
 * READ or WRITE still gives its file (truncated: suricata-verify
 * smb2-async-read). Headers alone are not enough: nothing below 64 bytes. */
static void flush_partial(SmbState *s, int dir)
{
	SmbFramer *fr = &s->fr[dir & 1];

	if (!fr->lost && fr->hdr_len == 4 && fr->rec_have >= SMB2_HDR && fr->rec_have < fr->rec_len)
		record(s, dir, fr->buf, fr->rec_have, fr->rec_len - fr->rec_have);
	fr->rec_have = 0;
	fr->hdr_len = 0;
}

void smb_gap(SmbState *s, int dir, uint64_t len)
{
	SmbFramer *fr = &s->fr[dir & 1];

	s->st.gaps++;
	if (fr->skip >= len) {
		/* the gap falls inside bytes we skip anyway */
		fr->skip -= (uint32_t)len;
		return;
	}
	/* files being written or read this way lose bytes we cannot place:
	 * they end truncated at the next record or at the flow's end */
	flush_partial(s, dir);
	fr->skip = 0;
	fr->lost = 1;
	fr_release(fr);
}

void smb_eof(SmbState *s, int dir)
{
	flush_partial(s, 0);
	flush_partial(s, 1);
	(void)dir;
	for (SmbTx *t = s->head; t; t = t->next) {
		if (t->type == SMB_TXT_FILE && t->file)
			file_tx_finish(t, FILE_CLOSE_TRUNCATED);
		if (t->pipe_wait) {
			t->pipe_wait = 0;
			t->response_done = 1;
		}
	}
}
