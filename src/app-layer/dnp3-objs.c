/* DNP3 object definitions: the size of each group/variation's points
 * (what walking a message needs) and the fields eve writes for a point,
 * with Suricata 8's field names. Only the groups in common use are
 * listed (binary and double-bit inputs, binary outputs and commands,
 * counters, analog inputs and outputs, time, class data, files,
 * internal indications); a message with another object in it stops
 * decoding there (unknown_object), as its size is not known. */
#include "app-layer/dnp3.h"

#include <string.h>

#define F(n, t) { n, DNP3_F_##t, 0 }
#define B(n, w) { n, DNP3_F_BITS, w }
#define END { NULL, DNP3_F_END, 0 }

/* flag octets, low bit first */
#define FL_BIN B("online", 1), B("restart", 1), B("comm_lost", 1), B("remote_forced", 1), \
	B("local_forced", 1), B("chatter_filter", 1), B("reserved", 1), B("state", 1)
#define FL_DBL B("online", 1), B("restart", 1), B("comm_lost", 1), B("remote_forced", 1), \
	B("local_forced", 1), B("chatter_filter", 1), B("state", 2)
#define FL_BO B("online", 1), B("restart", 1), B("comm_lost", 1), B("remote_forced", 1), \
	B("local_forced", 1), B("reserved0", 1), B("reserved1", 1), B("state", 1)
#define FL_CTR B("online", 1), B("restart", 1), B("comm_lost", 1), B("remote_forced", 1), \
	B("local_forced", 1), B("rollover", 1), B("discontinuity", 1), B("reserved0", 1)
#define FL_AN B("online", 1), B("restart", 1), B("comm_lost", 1), B("remote_forced", 1), \
	B("local_forced", 1), B("over_range", 1), B("reference_err", 1), B("reserved0", 1)

static const Dnp3Field f_state[] = { F("state", U8), END };
static const Dnp3Field f_packed_state[] = { B("state", 1), END };
static const Dnp3Field f_packed_state2[] = { B("state", 2), END };
static const Dnp3Field f_packed_point[] = { B("point", 1), END };
static const Dnp3Field f_bin[] = { FL_BIN, END };
static const Dnp3Field f_bin_ts[] = { FL_BIN, F("timestamp", U48), END };
static const Dnp3Field f_bin_rel[] = { FL_BIN, F("timestamp", U16), END };
static const Dnp3Field f_dbl[] = { FL_DBL, END };
static const Dnp3Field f_dbl_ts[] = { FL_DBL, F("timestamp", U48), END };
static const Dnp3Field f_dbl_rel[] = { FL_DBL, F("relative_time_ms", U16), END };
static const Dnp3Field f_bo[] = { FL_BO, END };
static const Dnp3Field f_bo_ts[] = { FL_BO, F("timestamp", U48), END };
static const Dnp3Field f_crob[] = { B("op_type", 4), B("qu", 1), B("cr", 1), B("tcc", 2),
				    F("count", U8), F("ontime", U32), F("offtime", U32),
				    B("status_code", 7), B("reserved", 1), END };
static const Dnp3Field f_bocmd[] = { B("status_code", 7), B("commanded_state", 1), END };
static const Dnp3Field f_bocmd_ts[] = { B("status_code", 7), B("commanded_state", 1),
					F("timestamp", U48), END };
static const Dnp3Field f_ctr32[] = { FL_CTR, F("count", U32), END };
static const Dnp3Field f_ctr16[] = { FL_CTR, F("count", U16), END };
static const Dnp3Field f_ctr32_ts[] = { FL_CTR, F("count", U32), F("timestamp", U48), END };
static const Dnp3Field f_ctr16_ts[] = { FL_CTR, F("count", U16), F("timestamp", U48), END };
static const Dnp3Field f_cnt32[] = { F("count", U32), END };
static const Dnp3Field f_cnt16[] = { F("count", U16), END };
static const Dnp3Field f_an32[] = { FL_AN, F("value", I32), END };
static const Dnp3Field f_an16[] = { FL_AN, F("value", I16), END };
static const Dnp3Field f_anf[] = { FL_AN, F("value", FLT32), END };
static const Dnp3Field f_and[] = { FL_AN, F("value", FLT64), END };
static const Dnp3Field f_an32_ts[] = { FL_AN, F("value", I32), F("timestamp", U48), END };
static const Dnp3Field f_an16_ts[] = { FL_AN, F("value", I16), F("timestamp", U48), END };
static const Dnp3Field f_anf_ts[] = { FL_AN, F("value", FLT32), F("timestamp", U48), END };
static const Dnp3Field f_and_ts[] = { FL_AN, F("value", FLT64), F("timestamp", U48), END };
static const Dnp3Field f_val32[] = { F("value", I32), END };
static const Dnp3Field f_val16[] = { F("value", I16), END };
static const Dnp3Field f_db16[] = { F("deadband_value", U16), END };
static const Dnp3Field f_db32[] = { F("deadband_value", U32), END };
static const Dnp3Field f_dbf[] = { F("deadband_value", FLT32), END };
static const Dnp3Field f_ao32[] = { F("value", I32), F("control_status", U8), END };
static const Dnp3Field f_ao16[] = { F("value", I16), F("control_status", U8), END };
static const Dnp3Field f_aof[] = { F("value", FLT32), F("control_status", U8), END };
static const Dnp3Field f_aod[] = { F("value", FLT64), F("control_status", U8), END };
static const Dnp3Field f_time[] = { F("timestamp", U48), END };
static const Dnp3Field f_time_int[] = { F("timestamp", U48), F("interval", U32), END };
static const Dnp3Field f_time_ind[] = { F("timestamp", U48), F("interval_count", U32),
					F("interval_units", U8), END };
static const Dnp3Field f_delay_s[] = { F("delay_secs", U16), END };
static const Dnp3Field f_delay_ms[] = { F("delay_ms", U16), END };
/* files (group 70): free-format objects under a size prefix */
static const Dnp3Field f_file_cmd[] = {
	F("filename_offset", U16), F("filename_size", U16), F("created", U48),
	F("permissions", U16), F("authentication_key", U32), F("file_size", U32),
	F("operational_mode", U16), F("maximum_block_size", U16), F("request_id", U16),
	{ "filename", DNP3_F_STR_LEN, 1 }, END
};
static const Dnp3Field f_file_status[] = {
	F("file_handle", U32), F("file_size", U32), F("maximum_block_size", U16),
	F("request_id", U16), F("status_code", U8), F("optional_text", REST), END
};
static const Dnp3Field f_file_transport[] = {
	F("file_handle", U32), F("block_number", U32), F("file_data", REST), END
};
static const Dnp3Field f_file_tstatus[] = {
	F("file_handle", U32), F("block_number", U32), F("status_code", U8),
	F("optional_text", REST), END
};
static const Dnp3Field f_file_desc[] = {
	F("name_offset", U16), F("name_size", U16), F("file_type", U16), F("file_size", U32),
	F("created_timestamp", U48), F("permissions", U16), F("request_id", U16),
	{ "name", DNP3_F_STR_LEN, 1 }, END
};

#define FX(g, v, n, f) { g, v, DNP3_OBJ_FIXED, n, f }
#define PK(g, v, n, f) { g, v, DNP3_OBJ_PACKED, n, f }
#define FR(g, v, f) { g, v, DNP3_OBJ_FREE, 0, f }

static const Dnp3ObjDef defs[] = {
	PK(1, 1, 1, f_packed_state), FX(1, 2, 1, f_bin),
	FX(2, 1, 1, f_state), FX(2, 2, 7, f_bin_ts), FX(2, 3, 3, f_bin_rel),
	PK(3, 1, 2, f_packed_state2), FX(3, 2, 1, f_dbl),
	FX(4, 1, 1, f_dbl), FX(4, 2, 7, f_dbl_ts), FX(4, 3, 3, f_dbl_rel),
	PK(10, 1, 1, f_packed_state), FX(10, 2, 1, f_bo),
	FX(11, 1, 1, f_bo), FX(11, 2, 7, f_bo_ts),
	FX(12, 1, 11, f_crob), FX(12, 2, 11, f_crob), PK(12, 3, 1, f_packed_point),
	FX(13, 1, 1, f_bocmd), FX(13, 2, 7, f_bocmd_ts),
	FX(20, 1, 5, f_ctr32), FX(20, 2, 3, f_ctr16), FX(20, 5, 4, f_cnt32), FX(20, 6, 2, f_cnt16),
	FX(21, 1, 5, f_ctr32), FX(21, 2, 3, f_ctr16), FX(21, 5, 11, f_ctr32_ts),
	FX(21, 6, 9, f_ctr16_ts), FX(21, 9, 4, f_cnt32), FX(21, 10, 2, f_cnt16),
	FX(22, 1, 5, f_ctr32), FX(22, 2, 3, f_ctr16), FX(22, 5, 11, f_ctr32_ts),
	FX(22, 6, 9, f_ctr16_ts),
	FX(23, 1, 5, f_ctr32), FX(23, 2, 3, f_ctr16), FX(23, 5, 11, f_ctr32_ts),
	FX(23, 6, 9, f_ctr16_ts),
	FX(30, 1, 5, f_an32), FX(30, 2, 3, f_an16), FX(30, 3, 4, f_val32), FX(30, 4, 2, f_val16),
	FX(30, 5, 5, f_anf), FX(30, 6, 9, f_and),
	FX(31, 1, 5, f_an32), FX(31, 2, 3, f_an16), FX(31, 3, 11, f_an32_ts),
	FX(31, 4, 9, f_an16_ts), FX(31, 5, 4, f_val32), FX(31, 6, 2, f_val16),
	FX(31, 7, 5, f_anf), FX(31, 8, 9, f_and),
	FX(32, 1, 5, f_an32), FX(32, 2, 3, f_an16), FX(32, 3, 11, f_an32_ts),
	FX(32, 4, 9, f_an16_ts), FX(32, 5, 5, f_anf), FX(32, 6, 9, f_and),
	FX(32, 7, 11, f_anf_ts), FX(32, 8, 15, f_and_ts),
	FX(33, 1, 5, f_an32), FX(33, 2, 3, f_an16), FX(33, 3, 11, f_an32_ts),
	FX(33, 4, 9, f_an16_ts), FX(33, 5, 5, f_anf), FX(33, 6, 9, f_and),
	FX(33, 7, 11, f_anf_ts), FX(33, 8, 15, f_and_ts),
	FX(34, 1, 2, f_db16), FX(34, 2, 4, f_db32), FX(34, 3, 4, f_dbf),
	FX(40, 1, 5, f_an32), FX(40, 2, 3, f_an16), FX(40, 3, 5, f_anf), FX(40, 4, 9, f_and),
	FX(41, 1, 5, f_ao32), FX(41, 2, 3, f_ao16), FX(41, 3, 5, f_aof), FX(41, 4, 9, f_aod),
	FX(42, 1, 5, f_an32), FX(42, 2, 3, f_an16), FX(42, 3, 11, f_an32_ts),
	FX(42, 4, 9, f_an16_ts), FX(42, 5, 5, f_anf), FX(42, 6, 9, f_and),
	FX(42, 7, 11, f_anf_ts), FX(42, 8, 15, f_and_ts),
	FX(50, 1, 6, f_time), FX(50, 2, 10, f_time_int), FX(50, 3, 6, f_time),
	FX(50, 4, 11, f_time_ind),
	FX(51, 1, 6, f_time), FX(51, 2, 6, f_time),
	FX(52, 1, 2, f_delay_s), FX(52, 2, 2, f_delay_ms),
	FR(70, 3, f_file_cmd), FR(70, 4, f_file_status), FR(70, 5, f_file_transport),
	FR(70, 6, f_file_tstatus), FR(70, 7, f_file_desc),
	PK(80, 1, 1, f_packed_state),
};

const Dnp3ObjDef *dnp3_obj_def(uint8_t group, uint8_t variation)
{
	/* a short table, read once per object header */
	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++)
		if (defs[i].group == group && defs[i].variation == variation)
			return &defs[i];
	return NULL;
}

static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

static unsigned field_bytes(uint8_t type)
{
	switch (type) {
	case DNP3_F_U8: return 1;
	case DNP3_F_U16: case DNP3_F_I16: return 2;
	case DNP3_F_U32: case DNP3_F_I32: case DNP3_F_FLT32: return 4;
	case DNP3_F_U48: return 6;
	case DNP3_F_FLT64: return 8;
	}
	return 0;
}

void dnp3_point_fields(const Dnp3Msg *m, const Dnp3Object *o, const Dnp3Point *pt,
		       void (*cb)(void *arg, const char *name, const Dnp3Value *v), void *arg)
{
	const Dnp3ObjDef *d = dnp3_obj_def(o->group, o->variation);
	const uint8_t *p;
	uint32_t avail, pos = 0;
	unsigned bit;
	uint64_t seen[16] = { 0 };  /* values so far, for a string's length */

	if (!d || pt->off > m->len)
		return;
	p = m->buf + pt->off;
	avail = m->len - pt->off;
	if (d->kind == DNP3_OBJ_FREE && pt->size < avail)
		avail = pt->size;
	bit = d->kind == DNP3_OBJ_PACKED ? pt->bit : 0;
	for (unsigned i = 0; d->fields[i].type != DNP3_F_END; i++) {
		const Dnp3Field *fd = &d->fields[i];
		Dnp3Value v = { 0 };

		if (fd->type == DNP3_F_BITS) {
			if (pos >= avail)
				return;
			v.u = (p[pos] >> bit) & ((1u << fd->arg) - 1);
			bit += fd->arg;
			if (bit >= 8) {
				bit = 0;
				pos++;
			}
		} else if (fd->type == DNP3_F_STR_LEN || fd->type == DNP3_F_REST) {
			uint64_t n = avail - pos;

			if (fd->type == DNP3_F_STR_LEN && fd->arg < 16 && seen[fd->arg] < n)
				n = seen[fd->arg];
			v.kind = 3;
			v.p = p + pos;
			v.n = (uint32_t)n;
			pos += (uint32_t)n;
		} else {
			unsigned n = field_bytes(fd->type);

			if (pos + n > avail)
				return;
			v.u = le(p + pos, n);
			pos += n;
			if (fd->type == DNP3_F_I16) {
				v.kind = 1;
				v.i = (int16_t)v.u;
			} else if (fd->type == DNP3_F_I32) {
				v.kind = 1;
				v.i = (int32_t)v.u;
			} else if (fd->type == DNP3_F_FLT32) {
				uint32_t u32 = (uint32_t)v.u;
				float fl;

				memcpy(&fl, &u32, 4);
				v.kind = 2;
				v.d = fl;
			} else if (fd->type == DNP3_F_FLT64) {
				memcpy(&v.d, &v.u, 8);
				v.kind = 2;
			}
		}
		if (i < 16)
			seen[i] = v.u;
		cb(arg, fd->name, &v);
	}
}
