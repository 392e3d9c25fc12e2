/* eve "smb" records, the fileinfo records of SMB files, and the smb member
 * of alerts, as Suricata 8 writes them (schema: eve-schema.json "smb"):
 * id (from 1), dialect, command, status and status_code, session_id,
 * tree_id, then what the command carries (ntlmssp and native os/lm for a
 * session setup, share or named_pipe for a tree connect, the file's name,
 * disposition, times and fuid for a create, client_dialects and
 * server_guid for a negotiate, ...). */
#include "app-layer/app-layer.h"
#include "app-layer/smb.h"
#include "output/output-private.h"
#include "output/json-writer.h"
#include "output/smb-json.h"
#include "output/dcerpc-json.h"

#include <stdio.h>
#include <string.h>

static void str_write(JsonWriter *w, const char *key, const SmbStr *s)
{
	jw_bytes(w, key, s->s ? s->s : "", s->s ? s->len : 0);
}

static void write_status(JsonWriter *w, const SmbTx *t)
{
	char buf[32];

	if (t->status_set) {
		const char *n = smb_ntstatus_name(t->status);

		if (!n)
			snprintf(buf, sizeof(buf), "%u", t->status);
		jw_str_opt(w, "status", n ? n : buf);
		snprintf(buf, sizeof(buf), "0x%x", t->status);
		jw_str_opt(w, "status_code", buf);
	} else if (t->dos_set) {
		const char *n = smb_dos_error_name(t->dos_class, t->dos_code);

		if (!n)
			snprintf(buf, sizeof(buf), "UNKNOWN_%02x_%04x", t->dos_class, t->dos_code);
		jw_str_opt(w, "status", n ? n : buf);
		snprintf(buf, sizeof(buf), "0x%04x", t->dos_code);
		jw_str_opt(w, "status_code", buf);
	}
}

static const char *disposition_name(uint32_t d)
{
	static const char *const n[] = { "FILE_SUPERSEDE", "FILE_OPEN", "FILE_CREATE",
					 "FILE_OPEN_IF", "FILE_OVERWRITE", "FILE_OVERWRITE_IF" };

	return d < 6 ? n[d] : "UNKNOWN";
}

static void write_guid(JsonWriter *w, const char *key, const uint8_t *g, size_t len)
{
	char buf[48];

	smb_guid_str(g, len, buf, sizeof(buf));
	jw_str_opt(w, key, buf);
}

static void write_host(JsonWriter *w, const char *key, const SmbStr *os, const SmbStr *lm)
{
	jw_object(w, key);
	str_write(w, "native_os", os);
	str_write(w, "native_lm", lm);
	jw_close(w);
}

static void write_session_setup(JsonWriter *w, const SmbTx *t)
{
	if (t->have_ntlmssp) {
		jw_object(w, "ntlmssp");
		str_write(w, "domain", &t->ntlm_domain);
		str_write(w, "user", &t->ntlm_user);
		str_write(w, "host", &t->ntlm_host);
		if (t->have_ntlm_version) {
			char v[64];

			snprintf(v, sizeof(v), "%u.%u build %u rev %u", t->ntlm_version[0],
				 t->ntlm_version[1],
				 (unsigned)(t->ntlm_version[2] | t->ntlm_version[3] << 8),
				 t->ntlm_version[7]);
			jw_str_opt(w, "version", v);
		}
		jw_close(w);
	}
	if (t->have_krb) {
		jw_object(w, "kerberos");
		str_write(w, "realm", &t->krb_realm);
		jw_array(w, "snames");
		for (int i = 0; i < t->krb_nsnames; i++)
			str_write(w, NULL, &t->krb_snames[i]);
		jw_close(w);
		jw_close(w);
	}
	if (t->have_req_host)
		write_host(w, "request", &t->req_os, &t->req_lm);
	if (t->have_res_host)
		write_host(w, "response", &t->res_os, &t->res_lm);
}

static void write_create(JsonWriter *w, const SmbTx *t)
{
	if (t->filename.len)
		str_write(w, t->directory ? "directory" : "filename", &t->filename);
	else
		jw_ascii(w, "filename", "<share_root>", 12);
	jw_str(w, "disposition", disposition_name(t->disposition));
	jw_str(w, "access", t->delete_on_close ? "delete on close" : "normal");
	jw_int(w, "created", (int64_t)t->created);
	jw_int(w, "accessed", (int64_t)t->accessed);
	jw_int(w, "modified", (int64_t)t->modified);
	jw_int(w, "changed", (int64_t)t->changed);
	jw_int(w, "size", (int64_t)t->size);
	write_guid(w, "fuid", t->fuid, t->fuid_len);
}

static void write_negotiate(JsonWriter *w, const SmbTx *t)
{
	JwMark m = jw_mark(w);

	jw_array(w, "client_dialects");
	for (unsigned i = 0; i < t->ndialects; i++)
		str_write(w, NULL, &t->dialects[i]);
	jw_close_nonempty(w, m);
	if (t->have_client_guid)
		write_guid(w, "client_guid", t->client_guid, 16);
	if (t->have_server_guid)
		write_guid(w, "server_guid", t->server_guid, 16);
	else
		jw_ascii(w, "server_guid", "", 0);
	if (t->have_sizes) {
		jw_int(w, "max_read_size", t->max_read);
		jw_int(w, "max_write_size", t->max_write);
	}
}

static void write_tree_connect(JsonWriter *w, const SmbTx *t)
{
	static const char *const st[] = { "UNKNOWN", "FILE", "PIPE", "PRINT" };

	str_write(w, t->is_pipe ? "named_pipe" : "share", &t->share);
	if (t->version != 1) {
		jw_str(w, "share_type", t->share_type < 4 ? st[t->share_type] : "UNKNOWN");
		return;
	}
	jw_object(w, "service");
	if (t->req_service.s)
		str_write(w, "request", &t->req_service);
	if (t->res_service.s)
		str_write(w, "response", &t->res_service);
	jw_close(w);
}

/* A delete-on-close set: Suricata 8 names the TRANS2 subcommand and the
 * disposition level of SMB1 only (SMB2's class and level are numbers it
 * leaves out). */
static void write_set_info(JsonWriter *w, const SmbTx *t)
{
	if (t->filename.len)
		str_write(w, "filename", &t->filename);
	else
		jw_ascii(w, "filename", "<share_root>", 12);
	jw_str(w, "access", t->delete_on_close ? "delete on close" : "normal");
	if (t->version == 1 && t->subcmd == 8)
		jw_ascii(w, "subcmd", "SET_FILE_INFO", 13);
	else if (t->version == 1 && t->subcmd == 6)
		jw_ascii(w, "subcmd", "SET_PATH_INFO", 13);
	if (t->version == 1 && t->loi == 1013)
		jw_str(w, "level_of_interest", "Set Disposition Information");
	write_guid(w, "fuid", t->fuid, t->fuid_len);
}

/* What the command carries, by the transaction's type. */
static void write_type_members(JsonWriter *w, const SmbTx *t)
{
	char buf[32];
	const char *n;

	switch (t->type) {
	case SMB_TXT_SESSION_SETUP:
		write_session_setup(w, t);
		break;
	case SMB_TXT_CREATE:
		write_create(w, t);
		break;
	case SMB_TXT_NEGOTIATE:
		write_negotiate(w, t);
		break;
	case SMB_TXT_TREE_CONNECT:
		write_tree_connect(w, t);
		break;
	case SMB_TXT_FILE:
		str_write(w, "filename", &t->filename);
		str_write(w, "share", &t->share);
		write_guid(w, "fuid", t->fuid, t->fuid_len);
		break;
	case SMB_TXT_RENAME:
		/* SMB1's renames (RENAME, TRANS2) have no set_info object */
		if (t->version == 2) {
			jw_object(w, "set_info");
			jw_ascii(w, "class", "FILE_INFO", 9);
			jw_ascii(w, "info_level", "SMB2_FILE_RENAME_INFO", 21);
			jw_close(w);
		}
		jw_object(w, "rename");
		str_write(w, "from", &t->filename);
		str_write(w, "to", &t->newname);
		jw_close(w);
		write_guid(w, "fuid", t->fuid, t->fuid_len);
		break;
	case SMB_TXT_SET_INFO:
		write_set_info(w, t);
		break;
	case SMB_TXT_IOCTL:
		if (!(n = smb_fsctl_name(t->ioctl_func)))
			snprintf(buf, sizeof(buf), "%u", t->ioctl_func);
		jw_str_opt(w, "function", n ? n : buf);
		break;
	}
}

void smb_json_write(JsonWriter *w, const Flow *f, const SmbTx *t)
{
	char buf[32];

	jw_int(w, "id", (int64_t)t->log_id);
	jw_str_opt(w, "dialect", smb_flow_dialect(f, buf, sizeof(buf)));
	if (t->version == 1)
		jw_str_opt(w, "command", smb1_command_name(t->cmd));
	else if (t->version == 2)
		jw_str_opt(w, "command", smb2_command_name(t->cmd));
	write_status(w, t);
	jw_int(w, "session_id", (int64_t)t->session_id);
	jw_int(w, "tree_id", (int64_t)t->tree_id);
	write_type_members(w, t);
	if (t->dce) {
		jw_object(w, "dcerpc");
		dcerpc_smb_json_write(w, t->dce);
		jw_close(w);
	}
}

struct smb_obj {
	const Flow *f;
	const SmbTx *t;
};

static void build_smb_obj(JsonWriter *w, void *ctx)
{
	const struct smb_obj *c = ctx;

	smb_json_write(w, c->f, c->t);
}

json_t *smb_json_object(const Flow *f, const SmbTx *t)
{
	struct smb_obj c = { f, t };

	return jw_build_tree(build_smb_obj, &c);
}

static void header_write(JsonWriter *w, const char *type, const Packet *p, const Flow *f,
			 int to_client)
{
	eve_header_write_tx(w, type, p, f, to_client);
}

static void smb_member(JsonWriter *w, const Flow *f, const SmbTx *t)
{
	jw_object(w, "smb");
	smb_json_write(w, f, t);
	jw_close(w);
}

/* A fileinfo record of a file transaction (the file logger, file-log.c,
 * adds the fileinfo object): the smb object, app_proto. */
static int smb_file_record_write(JsonWriter *w, const Outputs *o, const Packet *p,
				 const Flow *f, void *tx, int dir)
{
	(void)o;
	header_write(w, "fileinfo", p, f, dir == APP_DIR_TOCLIENT);
	smb_member(w, f, tx);
	jw_ascii(w, "app_proto", "smb", 3);
	return 0;
}

struct smb_line {
	const Packet *p;
	const Flow *f;
	const SmbTx *t;
};

static void build_record(JsonWriter *w, void *ctx)
{
	const struct smb_line *l = ctx;

	header_write(w, "smb", l->p, l->f, 0);
	smb_member(w, l->f, l->t);
}

/* The transaction's events not written yet, as anomaly records of packet
 * p: on the packet that raised them (output_tx_log_events), the rest when
 * the transaction logs. */
static void log_smb_events(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	SmbTx *t = tx;
	uint32_t ev;

	if (!o || !t || t->silent || !p || !(ev = t->events & ~t->events_logged))
		return;
	t->events_logged |= ev;
	for (int e = 0; e < SMB_EV_COUNT; e++)
		if (ev & (1u << e))
			output_anomaly_applayer(o, p, f, "smb", smb_event_name(e), "proto_parser", 1,
						t->id);
}

static void log_smb_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	struct smb_line l = { p, f, tx };

	if (!o || !l.t || l.t->silent)
		return;
	log_smb_events(o, p, f, tx);
	if (l.t->version && outputs_eve_enabled(o, "smb"))
		eve_write_built(o, "smb", build_record, &l);
}

static int alert_smb_write(JsonWriter *w, const Flow *f, void *tx)
{
	const SmbTx *t = tx;

	if (!t || !t->version)
		return -1;
	smb_member(w, f, t);
	if (t->type == SMB_TXT_FILE) {
		/* an alert on a file transaction names its file (Suricata's
		 * "files" array) */
		FileContainer *fcs[2] = { (FileContainer *)&t->files[0], (FileContainer *)&t->files[1] };

		output_files_write(w, fcs, 2);
	}
	return 0;
}

const EveTxLogger eve_smb_logger = {
	.log_tx = log_smb_tx,
	.alert_write = alert_smb_write,
	.file_record_write = smb_file_record_write,
	.log_events = log_smb_events,
};
