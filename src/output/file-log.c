/* The file logger: when a file of a transaction logs (file-store writes
 * or drops it, then its eve "fileinfo" record), for every protocol that
 * carries files (files_of_tx) and names a file_record_write in its eve
 * logger.
 *
 * Suricata 8 logs a file apart from its transaction's own record, on the
 * first packet that finds it over:
 *   - a packet of the file's direction, once the file is no longer OPEN
 *     (closed by its protocol, whatever the tx's progress: an SMB file
 *     closed while earlier transactions wait logs then, suricata-verify
 *     filestore-filecontainer-smb1-data-offset);
 *   - such a packet after its direction's stream reached the reassembly
 *     depth cuts the OPEN files of that direction there, TRUNCATED with
 *     the bytes parsed so far (what the receiver had acknowledged:
 *     suricata-verify mime/mime-stream-depth, 63,891 of the attachment's
 *     bytes, not the 110,016 below the depth);
 *   - the flow's end, or both directions' end of data, logs every file
 *     left, the open ones TRUNCATED.
 * A file closed while the other direction's data is parsed waits for the
 * next packet its way (an SMTP attachment ends as the server's reply is
 * parsed; suricata-verify mime-dec-parse-long-filename01: pcap_cnt 15,
 * the smtp record's 14). */
#include "output/file-log.h"
#include "output/lua-out.h"
#include "output/output-private.h"
#include "output/json-writer.h"
#include "output/json-dump.h"
#include "app-layer/app-layer.h"
#include "app-layer/files.h"
#include "stream/stream.h"

#include <stdlib.h>
#include <string.h>

/* ---- the fileinfo object ---- */

/* The file's name: UTF-8 as it is; otherwise each byte outside printable
 * ASCII as \xhh, as our other binary-safe strings are. */
static void write_name(JsonWriter *w, const uint8_t *p, uint32_t n)
{
	char stack[1024], *esc;

	if (jw_strn_try(w, "filename", (const char *)p, n) == 0)
		return;
	esc = (size_t)n * 4 <= sizeof(stack) ? stack : malloc((size_t)n * 4);
	if (!esc) {
		jw_str(w, "filename", "");
		return;
	}
	jw_strn(w, "filename", esc, eve_x_escape(p, n, esc, EVE_X_PRINTABLE));
	if (esc != stack)
		free(esc);
}

/* md5 and sha1 of a CLOSED file only; sha256 whenever computed (Suricata 8) */
static void write_hashes(JsonWriter *w, const File *f, int state)
{
	static const char *const hname[FILE_HASHES] = { "md5", "sha1", "sha256" };
	static const char x[] = "0123456789abcdef";
	char hexs[64];

	for (int i = 0; i < FILE_HASHES; i++) {
		uint32_t n = 0;
		const uint8_t *d = file_hash(f, i, &n);

		if (!d || n > sizeof(hexs) / 2 || (i != FILE_HASH_SHA256 && state != FILE_STATE_CLOSED))
			continue;
		for (uint32_t k = 0; k < n; k++) {
			hexs[2 * k] = x[d[k] >> 4];
			hexs[2 * k + 1] = x[d[k] & 15];
		}
		jw_ascii(w, hname[i], hexs, 2 * n);
	}
}

void file_json_write(JsonWriter *w, File *f)
{
	FileView v;

	file_view(f, &v);
	write_name(w, v.name, v.name_len);
	if (v.nsids) {
		jw_array(w, "sid");
		for (uint16_t i = 0; i < v.nsids; i++)
			jw_int(w, NULL, v.sids[i]);
		jw_close(w);
	}
	/* libmagic's text, where it is UTF-8 (else left out, as before) */
	if (v.magic)
		(void)jw_strn_try(w, "magic", v.magic, strlen(v.magic));
	jw_bool(w, "gaps", v.gaps);
	jw_str(w, "state", file_state_name(v.state));
	write_hashes(w, f, v.state);
	jw_bool(w, "stored", v.stored);
	if (v.storing)
		jw_bool(w, "storing", 1);
	if (v.stored)
		jw_int(w, "file_id", (int64_t)v.file_id);
	jw_int(w, "size", (int64_t)v.size);
	jw_int(w, "tx_id", (int64_t)v.tx_id);
}

static void build_file_obj(JsonWriter *w, void *ctx)
{
	file_json_write(w, ctx);
}

json_t *file_json(File *f)
{
	return jw_build_tree(build_file_obj, f);
}

struct files_obj {
	FileContainer *const *fcs;
	int n;
};

static void build_files_obj(JsonWriter *w, void *ctx)
{
	const struct files_obj *c = ctx;

	output_files_write(w, (FileContainer **)c->fcs, c->n);
}

json_t *files_json(FileContainer *const fcs[], int n)
{
	struct files_obj c = { fcs, n };
	json_t *root = jw_build_tree(build_files_obj, &c), *a;

	a = root ? json_incref(json_object_get(root, "files")) : NULL;
	json_decref(root);
	return a;
}

/* ---- when files log ---- */

struct file_line {
	const Outputs *o;
	const EveTxLogger *l;
	const Packet *p;
	const Flow *f;
	void *tx;
	File *fl;
	int dir;            /* the file's direction */
	int none;           /* the protocol gave no record */
};

static void build_file_record(JsonWriter *w, void *ctx)
{
	struct file_line *c = ctx;

	if (c->l->file_record_write(w, c->o, c->p, c->f, c->tx, c->dir) != 0) {
		c->none = 1;
		return;
	}
	jw_object(w, "fileinfo");
	file_json_write(w, c->fl);
	jw_close(w);
}

static void log_file(Outputs *o, const EveTxLogger *l, const Packet *p, const Flow *f,
		     void *tx, File *fl, int dir)
{
	const struct timeval *ts = p ? &p->ts : &f->last;
	/* file-store first: the record says whether the file was stored, and
	 * write-fileinfo names its copy with this record's time */
	int meta = file_store_finish(fl, ts) == 1 && files_config()->write_fileinfo;
	struct file_line c = { o, l, p, f, tx, fl, dir, 0 };
	char stack[16384], *line;
	size_t n;

	/* a Lua file script sees the file as its fileinfo record does,
	 * file-store's decision made */
	lua_output_file(p, f, tx, fl);
	if (!o->eve_files && !meta)
		return;
	n = eve_build(stack, sizeof(stack), EVE_LINE_MAX, &line, build_file_record, &c);
	if (!c.none) {
		/* the metadata file holds the same bytes as the eve record */
		if (meta && n)
			file_store_write_meta(fl, line, n);
		if (o->eve_files)
			eve_write_line(o, "fileinfo", line, n);
	}
	if (line != stack)
		free(line);
}

/* An alert's files: those of its transaction still in the container.
 * Suricata prunes a file once logged (and stored or not), at the end of
 * a packet of its direction that logged it, so an alert on a later
 * packet no longer names it (suricata-verify detect-engine-state-05: the
 * second upload's alert names that upload first); alerts are written
 * before the files of their own packet are. */
void output_files_write(JsonWriter *w, FileContainer *const fcs[], int n)
{
	JwMark m = jw_mark(w);

	jw_array(w, "files");
	for (int i = 0; i < n; i++)
		for (File *f = fcs[i] ? fcs[i]->head : NULL; f; f = (File *)file_next(f)) {
			if (file_pruned(f))
				continue;
			jw_object(w, NULL);
			file_json_write(w, f);
			jw_close(w);
		}
	jw_close_nonempty(w, m);
}

int eve_files_log(Outputs *o, const EveTxLogger *l, const Packet *p, const Flow *f, void *tx,
		  int final)
{
	int pdir = p && (p->flags & PKT_TOCLIENT) ? APP_DIR_TOCLIENT : APP_DIR_TOSERVER;
	int eof = final || !p || (f->app_eof & 3) == 3;
	int waiting = 0;

	for (int d = APP_DIR_TOSERVER; d <= APP_DIR_TOCLIENT; d++) {
		FileContainer *fc = files_of_tx(f->app_proto, tx, d, final);
		int now = eof || d == pdir;
		int cut = eof || (now && (stream_dir_flags(f, d) & STREAM_DIR_DEPTH_REACHED));

		for (File *fl = fc ? fc->head : NULL; fl; fl = (File *)file_next(fl)) {
			if (file_logged(fl))
				continue;
			if (!now) {
				waiting = 1;
				continue;
			}
			if (cut)
				file_close(fl, FILE_CLOSE_TRUNCATED);
			if (file_state(fl) == FILE_STATE_OPEN) {
				waiting = 1;
				continue;
			}
			log_file(o, l, p, f, tx, fl, d);
			file_set_logged(fl);
			if (p && d == pdir)
				file_set_pruned(fl);
		}
	}
	return !waiting;
}
