/* --engine-analysis: what the engine decided about each rule, one JSON
 * object a line in <log dir>/rules.json, with Suricata 8's field names
 * (raw, id, gid, rev, msg, app_proto, type, flags). The type is Suricata's
 * rule type; for TCP payload rules it says where the payload is inspected:
 * "pkt" (the packet's payload), "stream" (the reassembled stream) or
 * "pkt_stream" (the stream, and the packet when the stream did not match),
 * with the need_packet / need_stream flags behind it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "detect/engine.h"
#include "detect/engine-int.h"

static const char *const type_names[SIG_TYPE_MAX] = {
	[SIG_TYPE_PKT] = "pkt",
	[SIG_TYPE_IPONLY] = "ip_only",
	[SIG_TYPE_PKT_STREAM] = "pkt_stream",
	[SIG_TYPE_STREAM] = "stream",
	[SIG_TYPE_APPLAYER] = "app_layer",
	[SIG_TYPE_APP_TX] = "app_tx",
};

static void add_flag(json_t *a, int cond, const char *name)
{
	if (cond)
		json_array_append_new(a, json_string(name));
}

static json_t *rule_record(const DetectSig *ds)
{
	const Signature *s = ds->s;
	json_t *r = json_object(), *fl = json_array();

	json_object_set_new(r, "raw", json_string(s->raw ? s->raw : ""));
	json_object_set_new(r, "id", json_integer(s->sid));
	json_object_set_new(r, "gid", json_integer(s->gid));
	json_object_set_new(r, "rev", json_integer(s->rev));
	json_object_set_new(r, "msg", json_string(s->msg ? s->msg : ""));
	json_object_set_new(r, "app_proto",
			    json_string(ds->is_tx || ds->need_alproto ? "http" : "unknown"));
	json_object_set_new(r, "type", json_string(type_names[ds->sig_type]));
	add_flag(fl, s->src.any, "src_any");
	add_flag(fl, s->dst.any, "dst_any");
	add_flag(fl, s->sp.any, "sp_any");
	add_flag(fl, s->dp.any, "dp_any");
	add_flag(fl, s->flags & SIG_FLAG_NOALERT, "noalert");
	add_flag(fl, ds->is_tx || ds->need_alproto || (s->flags & SIG_FLAG_APPLAYER), "applayer");
	add_flag(fl, ds->need_packet, "need_packet");
	add_flag(fl, ds->need_stream, "need_stream");
	add_flag(fl, !(s->flags & SIG_FLAG_TOCLIENT) || (s->flags & SIG_FLAG_TOSERVER) ||
		 (s->flags & SIG_FLAG_BIDIR), "toserver");
	add_flag(fl, !(s->flags & SIG_FLAG_TOSERVER) || (s->flags & SIG_FLAG_TOCLIENT) ||
		 (s->flags & SIG_FLAG_BIDIR), "toclient");
	add_flag(fl, s->fp_list >= 0, "prefilter");
	json_object_set_new(r, "flags", fl);
	return r;
}

int detect_engine_analysis_write(const DetectEngine *de, const char *path, char *err,
				 size_t errlen)
{
	FILE *f = fopen(path, "w");
	int rc = 0;

	if (!f) {
		snprintf(err, errlen, "engine analysis: cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	for (uint32_t i = 0; i < de->nsigs && rc == 0; i++) {
		json_t *r = rule_record(&de->sigs[i]);

		if (!r || json_dumpf(r, f, JSON_COMPACT | JSON_PRESERVE_ORDER) != 0 ||
		    fputc('\n', f) == EOF)
			rc = -1;
		json_decref(r);
	}
	if (fclose(f) != 0)
		rc = -1;
	if (rc != 0)
		snprintf(err, errlen, "engine analysis: writing %s failed", path);
	return rc;
}
