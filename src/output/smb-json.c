/* eve "smb" records, the fileinfo records of SMB files, and the smb member
 * of alerts, as Suricata 8 writes them (schema: eve-schema.json "smb"):
 * id (from 1), dialect, command, status and status_code, session_id,
 * tree_id, then what the command carries (ntlmssp and native os/lm for a
 * session setup, share or named_pipe for a tree connect, the file's name,
 * disposition, times and fuid for a create, client_dialects and
 * server_guid for a negotiate, ...). */
#include "app-layer/smb.h"
#include "output/output-private.h"
#include "output/json-dump.h"
#include "output/smb-json.h"
#include "output/dcerpc-json.h"

#include <stdio.h>
#include <string.h>

static json_t *str_json(const SmbStr *s)
{
	return eve_json_bytes(s->s ? s->s : "", s->s ? s->len : 0);
}

static void add_status(json_t *o, const SmbTx *t)
{
	char buf[32];

	if (t->status_set) {
		const char *n = smb_ntstatus_name(t->status);

		if (n) {
			json_object_set_new(o, "status", json_string(n));
		} else {
			snprintf(buf, sizeof(buf), "%u", t->status);
			json_object_set_new(o, "status", json_string(buf));
		}
		snprintf(buf, sizeof(buf), "0x%x", t->status);
		json_object_set_new(o, "status_code", json_string(buf));
	} else if (t->dos_set) {
		const char *n = smb_dos_error_name(t->dos_class, t->dos_code);

		if (n) {
			json_object_set_new(o, "status", json_string(n));
		} else {
			snprintf(buf, sizeof(buf), "UNKNOWN_%02x_%04x", t->dos_class, t->dos_code);
			json_object_set_new(o, "status", json_string(buf));
		}
		snprintf(buf, sizeof(buf), "0x%04x", t->dos_code);
		json_object_set_new(o, "status_code", json_string(buf));
	}
}

static const char *disposition_name(uint32_t d)
{
	static const char *const n[] = { "FILE_SUPERSEDE", "FILE_OPEN", "FILE_CREATE",
					 "FILE_OPEN_IF", "FILE_OVERWRITE", "FILE_OVERWRITE_IF" };

	return d < 6 ? n[d] : "UNKNOWN";
}

static void add_guid(json_t *o, const char *key, const uint8_t *g, size_t len)
{
	char buf[48];

	smb_guid_str(g, len, buf, sizeof(buf));
	json_object_set_new(o, key, json_string(buf));
}

static void add_host(json_t *o, const char *key, const SmbStr *os, const SmbStr *lm)
{
	json_t *h = json_object();

	json_object_set_new(h, "native_os", str_json(os));
	json_object_set_new(h, "native_lm", str_json(lm));
	json_object_set_new(o, key, h);
}

json_t *smb_json_object(const Flow *f, const SmbTx *t)
{
	json_t *o = json_object();
	char buf[32];

	json_object_set_new(o, "id", json_integer((json_int_t)t->log_id));
	json_object_set_new(o, "dialect", json_string(smb_flow_dialect(f, buf, sizeof(buf))));
	if (t->version == 1)
		json_object_set_new(o, "command", json_string(smb1_command_name(t->cmd)));
	else if (t->version == 2)
		json_object_set_new(o, "command", json_string(smb2_command_name(t->cmd)));
	add_status(o, t);
	json_object_set_new(o, "session_id", json_integer((json_int_t)t->session_id));
	json_object_set_new(o, "tree_id", json_integer((json_int_t)t->tree_id));
	switch (t->type) {
	case SMB_TXT_SESSION_SETUP:
		if (t->have_ntlmssp) {
			json_t *n = json_object();

			json_object_set_new(n, "domain", str_json(&t->ntlm_domain));
			json_object_set_new(n, "user", str_json(&t->ntlm_user));
			json_object_set_new(n, "host", str_json(&t->ntlm_host));
			if (t->have_ntlm_version) {
				char v[64];

				snprintf(v, sizeof(v), "%u.%u build %u rev %u", t->ntlm_version[0],
					 t->ntlm_version[1],
					 (unsigned)(t->ntlm_version[2] | t->ntlm_version[3] << 8),
					 t->ntlm_version[7]);
				json_object_set_new(n, "version", json_string(v));
			}
			json_object_set_new(o, "ntlmssp", n);
		}
		if (t->have_req_host)
			add_host(o, "request", &t->req_os, &t->req_lm);
		if (t->have_res_host)
			add_host(o, "response", &t->res_os, &t->res_lm);
		break;
	case SMB_TXT_CREATE:
		if (t->filename.len)
			json_object_set_new(o, t->directory ? "directory" : "filename",
					    str_json(&t->filename));
		else
			json_object_set_new(o, "filename", json_string("<share_root>"));
		json_object_set_new(o, "disposition", json_string(disposition_name(t->disposition)));
		json_object_set_new(o, "access",
				    json_string(t->delete_on_close ? "delete on close" : "normal"));
		json_object_set_new(o, "created", json_integer((json_int_t)t->created));
		json_object_set_new(o, "accessed", json_integer((json_int_t)t->accessed));
		json_object_set_new(o, "modified", json_integer((json_int_t)t->modified));
		json_object_set_new(o, "changed", json_integer((json_int_t)t->changed));
		json_object_set_new(o, "size", json_integer((json_int_t)t->size));
		add_guid(o, "fuid", t->fuid, t->fuid_len);
		break;
	case SMB_TXT_NEGOTIATE: {
		json_t *a = json_array();

		for (unsigned i = 0; i < t->ndialects; i++)
			json_array_append_new(a, str_json(&t->dialects[i]));
		if (json_array_size(a))
			json_object_set_new(o, "client_dialects", a);
		else
			json_decref(a);
		if (t->have_client_guid)
			add_guid(o, "client_guid", t->client_guid, 16);
		if (t->have_server_guid)
			add_guid(o, "server_guid", t->server_guid, 16);
		else
			json_object_set_new(o, "server_guid", json_string(""));
		if (t->have_sizes) {
			json_object_set_new(o, "max_read_size", json_integer(t->max_read));
			json_object_set_new(o, "max_write_size", json_integer(t->max_write));
		}
		break;
	}
	case SMB_TXT_TREE_CONNECT:
		json_object_set_new(o, t->is_pipe ? "named_pipe" : "share", str_json(&t->share));
		if (t->version == 1) {
			json_t *sv = json_object();

			if (t->req_service.s)
				json_object_set_new(sv, "request", str_json(&t->req_service));
			if (t->res_service.s)
				json_object_set_new(sv, "response", str_json(&t->res_service));
			json_object_set_new(o, "service", sv);
		} else {
			static const char *const st[] = { "UNKNOWN", "FILE", "PIPE", "PRINT" };

			json_object_set_new(o, "share_type",
					    json_string(t->share_type < 4 ? st[t->share_type] : "UNKNOWN"));
		}
		break;
	case SMB_TXT_FILE:
		json_object_set_new(o, "filename", str_json(&t->filename));
		json_object_set_new(o, "share", str_json(&t->share));
		add_guid(o, "fuid", t->fuid, t->fuid_len);
		break;
	case SMB_TXT_RENAME: {
		json_t *si = json_object(), *r = json_object();

		json_object_set_new(si, "class", json_string("FILE_INFO"));
		json_object_set_new(si, "info_level", json_string("SMB2_FILE_RENAME_INFO"));
		json_object_set_new(o, "set_info", si);
		json_object_set_new(r, "from", str_json(&t->filename));
		json_object_set_new(r, "to", str_json(&t->newname));
		json_object_set_new(o, "rename", r);
		add_guid(o, "fuid", t->fuid, t->fuid_len);
		break;
	}
	case SMB_TXT_IOCTL: {
		const char *n = smb_fsctl_name(t->ioctl_func);

		if (n) {
			json_object_set_new(o, "function", json_string(n));
		} else {
			snprintf(buf, sizeof(buf), "%u", t->ioctl_func);
			json_object_set_new(o, "function", json_string(buf));
		}
		break;
	}
	}
	if (t->dce)
		json_object_set_new(o, "dcerpc", dcerpc_smb_json_object(t->dce));
	return o;
}

static json_t *header(const char *type, const Packet *p, const Flow *f)
{
	const struct timeval *ts = p ? &p->ts : &f->last;
	json_t *rec = eve_header(ts, type, NULL, f);

	if (rec && p && p->pcap_cnt)
		json_object_set_new(rec, "pcap_cnt", json_integer((json_int_t)p->pcap_cnt));
	return rec;
}

/* A fileinfo record of a file transaction (the file logger, file-log.c,
 * adds the fileinfo object): the smb object, app_proto. */
static json_t *smb_file_record(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	json_t *rec = header("fileinfo", p, f);

	(void)o;
	if (!rec)
		return NULL;
	json_object_set_new(rec, "smb", smb_json_object(f, tx));
	json_object_set_new(rec, "app_proto", json_string("smb"));
	return rec;
}

static void log_smb_tx(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	SmbTx *t = tx;
	json_t *rec;

	if (!o || !t || t->silent)
		return;
	for (int e = 0; e < SMB_EV_COUNT; e++)
		if (t->events & (1u << e))
			output_anomaly_applayer(o, p, f, "smb", smb_event_name(e), "proto_parser", 1,
						t->id);
	if (t->version && outputs_eve_enabled(o, "smb")) {
		rec = header("smb", p, f);
		if (rec) {
			json_object_set_new(rec, "smb", smb_json_object(f, t));
			eve_write(o, rec);
		}
	}
}

static json_t *alert_smb_json(const Flow *f, void *tx)
{
	const SmbTx *t = tx;
	json_t *rec;

	if (!t || !t->version)
		return NULL;
	rec = json_object();
	json_object_set_new(rec, "smb", smb_json_object(f, t));
	if (t->type == SMB_TXT_FILE) {
		/* an alert on a file transaction names its file (Suricata's
		 * "files" array) */
		FileContainer *fcs[2] = { (FileContainer *)&t->files[0], (FileContainer *)&t->files[1] };
		json_t *fj = files_json(fcs, 2);

		if (fj)
			json_object_set_new(rec, "files", fj);
	}
	return rec;
}

const EveTxLogger eve_smb_logger = {
	.log_tx = log_smb_tx,
	.alert_json = alert_smb_json,
	.file_record = smb_file_record,
};
