/* DNP3 application layer: CRCs, names, and the decoding of a complete
 * message's header and object headers (see dnp3.h). The link and
 * transport layers, which build the messages, are in dnp3-proto.c. */
#include "app-layer/dnp3.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

uint16_t dnp3_crc(const uint8_t *p, size_t n)
{
	uint16_t crc = 0;

	/* 0x3D65, bit-reflected (0xA6BC): a few dozen bytes a frame */
	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (int b = 0; b < 8; b++)
			crc = (crc & 1) ? (uint16_t)((crc >> 1) ^ 0xA6BC) : (uint16_t)(crc >> 1);
	}
	return (uint16_t)~crc;
}

int dnp3_crc_ok(const uint8_t *p, size_t n)
{
	uint16_t c = dnp3_crc(p, n);

	return p[n] == (c & 0xff) && p[n + 1] == (c >> 8);
}

static const char *const event_names[DNP3_EV_COUNT] = {
	[DNP3_EV_FLOODED] = "flooded",
	[DNP3_EV_LEN_TOO_SMALL] = "len_too_small",
	[DNP3_EV_BAD_LINK_CRC] = "bad_link_crc",
	[DNP3_EV_BAD_TRANSPORT_CRC] = "bad_transport_crc",
	[DNP3_EV_UNKNOWN_OBJECT] = "unknown_object",
	[DNP3_EV_TOO_MANY_POINTS] = "too_many_points",
	[DNP3_EV_TOO_MANY_OBJECTS] = "too_many_objects",
	[DNP3_EV_TOO_LONG_REASSEMBLY] = "too_long_reassembly",
};

const char *dnp3_event_name(int ev)
{
	return ev >= 0 && ev < DNP3_EV_COUNT ? event_names[ev] : NULL;
}

int dnp3_event_by_name(const char *name)
{
	for (int i = 0; i < DNP3_EV_COUNT; i++)
		if (strcasecmp(name, event_names[i]) == 0)
			return i;
	return -1;
}

static const char *const func_names[] = {
	"confirm", "read", "write", "select", "operate", "direct_operate",
	"direct_operate_nr", "immed_freeze", "immed_freeze_nr", "freeze_clear",
	"freeze_clear_nr", "freeze_at_time", "freeze_at_time_nr", "cold_restart",
	"warm_restart", "initialize_data", "initialize_appl", "start_appl", "stop_appl",
	"save_config", "enable_unsolicited", "disable_unsolicited", "assign_class",
	"delay_measure", "record_current_time", "open_file", "close_file", "delete_file",
	"get_file_info", "authenticate_file", "abort_file", "activate_config",
	"authenticate_req", "authenticate_err",
};
#define NFUNC (sizeof(func_names) / sizeof(func_names[0]))

const char *dnp3_func_name(unsigned fc)
{
	if (fc < NFUNC)
		return func_names[fc];
	switch (fc) {
	case 129: return "response";
	case 130: return "unsolicited_response";
	case 131: return "authenticate_resp";
	}
	return NULL;
}

int dnp3_func_by_name(const char *name)
{
	for (unsigned fc = 0; fc < 256; fc++) {
		const char *n = dnp3_func_name(fc);

		if (n && strcasecmp(n, name) == 0)
			return (int)fc;
	}
	return -1;
}

/* The 16-bit IIN: IIN1 (first octet) in the high byte */
static const char *const iin_names[16] = {
	"function_code_not_implemented", "object_unknown", "parameter_error",
	"event_buffer_overflow", "already_executing", "config_corrupt", "reserved_2",
	"reserved_1", "all_stations", "class_1_events", "class_2_events", "class_3_events",
	"need_time", "local_control", "device_trouble", "device_restart",
};

const char *dnp3_iin_name(unsigned bit)
{
	return bit < 16 ? iin_names[bit] : NULL;
}

int dnp3_iin_by_name(const char *name)
{
	for (int i = 0; i < 16; i++)
		if (strcasecmp(name, iin_names[i]) == 0)
			return i;
	return -1;
}

void dnp3_msg_free(Dnp3Msg *m)
{
	free(m->buf);
	free(m->objs);
	free(m->points);
	memset(m, 0, sizeof(*m));
}

/* Requests whose objects carry values (writes, controls, freeze-at-time,
 * files, authentication); the others (read, freeze, assign class, ...)
 * only name points. Responses always carry values. */
static int request_has_data(uint8_t fc)
{
	return (fc >= 2 && fc <= 6) || fc == 11 || fc == 12 || (fc >= 25 && fc <= 33);
}

static uint32_t rd(const uint8_t *p, unsigned n)
{
	uint32_t v = 0;

	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

static int grow(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
	uint32_t n;
	void *a;

	if (need <= *cap)
		return 0;
	n = *cap ? *cap : 8;
	while (n < need)
		n *= 2;
	if (!(a = realloc(*arr, n * elem)))
		return -1;
	*arr = a;
	*cap = n;
	return 0;
}

static const unsigned prefix_len[8] = { 0, 1, 2, 4, 1, 2, 4, 0 };

uint32_t dnp3_decode_app(Dnp3Msg *m, int is_request)
{
	uint32_t hdr = is_request ? 2 : 4, pos, ocap = 0, pcap = 0;
	int with_data;

	if (m->len < hdr)
		return 1u << DNP3_EV_LEN_TOO_SMALL;
	m->has_app = 1;
	m->app_ctrl = m->buf[0];
	m->func = m->buf[1];
	if (!is_request)
		m->iin = (uint16_t)(m->buf[2] << 8 | m->buf[3]);
	with_data = !is_request || request_has_data(m->func);
	pos = hdr;
	while (pos + 3 <= m->len) {
		const uint8_t *p = m->buf + pos;
		Dnp3Object o = { .group = p[0], .variation = p[1], .qualifier = p[2] };
		const Dnp3ObjDef *d;
		unsigned rlen, plen;

		o.prefix_code = (o.qualifier >> 4) & 7;
		o.range_code = o.qualifier & 0xf;
		pos += 3;
		switch (o.range_code) {
		case 0: case 1: case 2: case 3: case 4: case 5:
			rlen = 1u << (o.range_code % 3);
			if (pos + 2 * rlen > m->len)
				return 0;
			o.start = rd(m->buf + pos, rlen);
			o.stop = rd(m->buf + pos + rlen, rlen);
			pos += 2 * rlen;
			if (o.stop < o.start)
				return 0;
			o.count = o.stop - o.start + 1;
			break;
		case 6:
			break;
		case 7: case 8: case 9: case 11:
			rlen = o.range_code == 11 ? 1 : 1u << (o.range_code - 7);
			if (pos + rlen > m->len)
				return 0;
			o.count = rd(m->buf + pos, rlen);
			pos += rlen;
			break;
		default:
			return 0;
		}
		if (m->nobjs >= DNP3_MAX_OBJECTS)
			return 1u << DNP3_EV_TOO_MANY_OBJECTS;
		if (grow((void **)&m->objs, &ocap, m->nobjs + 1, sizeof(*m->objs)) < 0)
			return 0;
		o.first_point = m->npoints;
		m->objs[m->nobjs++] = o;
		plen = prefix_len[o.prefix_code];
		if (!o.count)
			continue;
		/* a size prefix says the values are there whatever the function
		 * (a read of a file block, g70v5, names its block so) */
		if ((!with_data && o.prefix_code < 4) || o.variation == 0) {
			/* only the points' indexes, when prefixed */
			uint64_t skip = o.prefix_code <= 3 ? (uint64_t)o.count * plen : 0;

			if (skip > m->len - pos)
				return 0;
			pos += (uint32_t)skip;
			continue;
		}
		d = dnp3_obj_def(o.group, o.variation);
		if (!d || (d->kind == DNP3_OBJ_PACKED && o.prefix_code) ||
		    (d->kind == DNP3_OBJ_FREE && o.prefix_code < 4))
			return 1u << DNP3_EV_UNKNOWN_OBJECT;
		if (o.count > DNP3_MAX_POINTS - m->npoints)
			return 1u << DNP3_EV_TOO_MANY_POINTS;
		if (d->kind == DNP3_OBJ_PACKED) {
			uint64_t bits = (uint64_t)o.count * d->size;

			if ((bits + 7) / 8 > m->len - pos)
				return 0;
			if (grow((void **)&m->points, &pcap, m->npoints + o.count,
				 sizeof(*m->points)) < 0)
				return 0;
			for (uint32_t i = 0; i < o.count; i++) {
				uint64_t b = (uint64_t)i * d->size;
				Dnp3Point *pt = &m->points[m->npoints++];

				memset(pt, 0, sizeof(*pt));
				pt->index = o.start + i;
				pt->off = pos + (uint32_t)(b / 8);
				pt->bit = (uint8_t)(b % 8);
				m->objs[m->nobjs - 1].npoints++;
			}
			pos += (uint32_t)((bits + 7) / 8);
			continue;
		}
		for (uint32_t i = 0; i < o.count; i++) {
			Dnp3Point pt = { 0 };
			uint32_t size = d->size;

			if (plen > m->len - pos)
				return 0;
			if (plen)
				pt.prefix = rd(m->buf + pos, plen);
			pos += plen;
			if (o.prefix_code >= 4) {
				size = pt.prefix;
				pt.index = i;
			} else if (o.prefix_code >= 1) {
				pt.index = pt.prefix;
			} else {
				pt.index = o.range_code <= 5 ? o.start + i : i;
			}
			if (size > m->len - pos || size > UINT16_MAX)
				return 0;
			pt.off = pos;
			pt.size = (uint16_t)size;
			pos += size;
			if (grow((void **)&m->points, &pcap, m->npoints + 1, sizeof(*m->points)) < 0)
				return 0;
			m->points[m->npoints++] = pt;
			m->objs[m->nobjs - 1].npoints++;
		}
	}
	/* every object header read to the end */
	m->complete = 1;
	return 0;
}
