/* The RFB handshake parser (rfb.h). Written from RFC 6143 and the fields
 * Suricata 8 logs; each direction is a small state machine whose next
 * message may depend on what the other direction said (the version in use,
 * the chosen security type), so both are advanced together, as far as the
 * buffered bytes allow, after each call. */
#include "app-layer/rfb.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum server_step {
	SV_VERSION = 0,
	SV_SECTYPES,                /* 3.3: the u32 type; 3.7+: the list */
	SV_WAIT_CHOICE,             /* the client's chosen type decides */
	SV_CHALLENGE,
	SV_RESULT,
	SV_REASON,                  /* a failure's reason string, then the end */
	SV_SERVER_INIT,
	SV_END,
};

enum client_step {
	CL_VERSION = 0,
	CL_CHOICE,                  /* 3.7+: one byte; 3.3: the server's type */
	CL_RESPONSE,
	CL_CLIENT_INIT,
	CL_END,
};

static const char *const ev_names[RFB_EV_COUNT] = {
	[RFB_EV_UNIMPLEMENTED_SECURITY_TYPE] = "unimplemented_security_type",
	[RFB_EV_UNKNOWN_SECURITY_RESULT] = "unknown_security_result",
	[RFB_EV_MALFORMED_MESSAGE] = "malformed_message",
	[RFB_EV_CONFUSED_STATE] = "confused_state",
};

const char *rfb_event_name(int ev)
{
	return ev >= 0 && ev < RFB_EV_COUNT ? ev_names[ev] : NULL;
}

int rfb_event_by_name(const char *name)
{
	for (int i = 0; name && i < RFB_EV_COUNT; i++)
		if (strcasecmp(name, ev_names[i]) == 0)
			return i;
	return -1;
}

const char *rfb_result_name(uint32_t result)
{
	switch (result) {
	case RFB_RESULT_OK:
		return "OK";
	case RFB_RESULT_FAIL:
		return "FAIL";
	case RFB_RESULT_TOOMANY:
		return "TOOMANY";
	}
	return NULL;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static int is_digit(uint8_t c)
{
	return c >= '0' && c <= '9';
}

/* "RFB xxx.yyy\n" */
static int version_ok(const uint8_t *p)
{
	if (memcmp(p, "RFB ", 4) != 0 || p[7] != '.' || p[11] != '\n')
		return 0;
	for (int i = 4; i < 11; i++)
		if (i != 7 && !is_digit(p[i]))
			return 0;
	return 1;
}

int rfb_probe(const uint8_t *buf, uint32_t len)
{
	uint32_t n = len < 4 ? len : 4;

	if (memcmp(buf, "RFB ", n) != 0)
		return 0;
	if (len < 4)
		return -1;
	/* as Suricata's pattern: "RFB " opens the flow; a longer start must
	 * still look like a version */
	for (uint32_t i = 4; i < len && i < 11; i++)
		if (i != 7 && !is_digit(buf[i]))
			return 0;
	return 1;
}

RfbState *rfb_state_new(void)
{
	return calloc(1, sizeof(RfbState));
}

void rfb_state_free(RfbState *s)
{
	if (!s)
		return;
	free(s->side[0].buf);
	free(s->side[1].buf);
	free(s->info.name);
	free(s);
}

static void raise_ev(RfbState *s, int ev)
{
	s->events |= 1u << ev;
}

/* The handshake is over: nothing more is parsed either way, and the
 * buffers go (the framebuffer traffic that follows is not kept). */
static void finish(RfbState *s)
{
	s->done = 1;
	for (int d = 0; d < 2; d++) {
		free(s->side[d].buf);
		s->side[d].buf = NULL;
		s->side[d].len = s->side[d].cap = 0;
	}
}

static int malformed(RfbState *s)
{
	raise_ev(s, RFB_EV_MALFORMED_MESSAGE);
	finish(s);
	return -1;
}

/* The minor version the flow runs: the client's answer decides (RFC
 * 6143 7.1.1); 3.3 for anything below 3.7 (3.4 and 3.6 are 3.3 in the
 * wild), 3.8 for anything above. 0: not known yet. */
static int flow_minor(const RfbState *s)
{
	const RfbVersion *v = &s->info.client_version;
	int minor;

	if (!v->set) {
		if (!s->side[RFB_TOSERVER].dead)
			return 0;
		v = &s->info.server_version;
		if (!v->set)
			return 0;
	}
	minor = atoi(v->minor);
	return minor < 7 ? 3 : minor == 7 ? 7 : 8;
}

/* Takes n bytes off the front of the side's buffer as one message. */
static void take(RfbState *s, int dir, uint32_t n)
{
	RfbSide *sd = &s->side[dir];

	if (s->cb)
		s->cb(s->cb_ctx, dir, sd->consumed, n);
	sd->consumed += n;
	sd->len -= n;
	if (sd->len)
		memmove(sd->buf, sd->buf + n, sd->len);
}

static void read_version(RfbVersion *v, const uint8_t *p)
{
	memcpy(v->major, p + 4, 3);
	v->major[3] = 0;
	memcpy(v->minor, p + 8, 3);
	v->minor[3] = 0;
	v->set = 1;
}

/* After the security type is known: what the server sends next. */
static void server_after_type(RfbState *s)
{
	RfbSide *sv = &s->side[RFB_TOCLIENT];

	switch (s->info.sectype) {
	case 1:                     /* None: a result from 3.8 on only */
		sv->step = flow_minor(s) >= 8 ? SV_RESULT : SV_SERVER_INIT;
		break;
	case 2:
		sv->step = SV_CHALLENGE;
		break;
	default:
		/* as Suricata: the types it does not implement end the parse */
		raise_ev(s, RFB_EV_UNIMPLEMENTED_SECURITY_TYPE);
		finish(s);
	}
}

/* One server message when it is whole: 1 parsed, 0 waiting, -1 malformed. */
static int server_step(RfbState *s)
{
	RfbSide *sv = &s->side[RFB_TOCLIENT];
	const uint8_t *p = sv->buf;
	uint32_t len = sv->len;
	int minor;

	switch (sv->step) {
	case SV_VERSION:
		if (len < 12)
			return 0;
		if (!version_ok(p))
			return malformed(s);
		read_version(&s->info.server_version, p);
		take(s, RFB_TOCLIENT, 12);
		sv->step = SV_SECTYPES;
		return 1;
	case SV_SECTYPES:
		minor = flow_minor(s);
		if (!minor || len < 1)
			return 0;
		if (minor == 3) {
			if (len < 4)
				return 0;
			s->info.sectype = be32(p);
			take(s, RFB_TOCLIENT, 4);
			if (s->info.sectype == 0) {
				sv->step = SV_REASON;
				return 1;
			}
			s->info.has_sectype = 1;
			server_after_type(s);
			return 1;
		}
		if (p[0] == 0) {
			take(s, RFB_TOCLIENT, 1);
			sv->step = SV_REASON;
			return 1;
		}
		if (len < 1u + p[0])
			return 0;
		take(s, RFB_TOCLIENT, 1u + p[0]);
		sv->step = SV_WAIT_CHOICE;
		return 1;
	case SV_WAIT_CHOICE:
		if (!s->info.has_sectype)
			return 0;
		server_after_type(s);
		return 1;
	case SV_CHALLENGE:
		if (len < 16)
			return 0;
		memcpy(s->info.challenge, p, 16);
		s->info.has_challenge = 1;
		take(s, RFB_TOCLIENT, 16);
		sv->step = SV_RESULT;
		return 1;
	case SV_RESULT:
		if (len < 4)
			return 0;
		s->info.result = be32(p);
		s->info.has_result = 1;
		take(s, RFB_TOCLIENT, 4);
		if (s->info.result == RFB_RESULT_OK) {
			sv->step = SV_SERVER_INIT;
		} else if (s->info.result == RFB_RESULT_FAIL && flow_minor(s) >= 8) {
			sv->step = SV_REASON;
		} else {
			if (!rfb_result_name(s->info.result))
				raise_ev(s, RFB_EV_UNKNOWN_SECURITY_RESULT);
			finish(s);
		}
		return 1;
	case SV_REASON: {
		uint32_t n;

		if (len < 4)
			return 0;
		n = be32(p);
		if (n > RFB_BUF_MAX - 4)
			return malformed(s);
		if (len < 4 + n)
			return 0;
		take(s, RFB_TOCLIENT, 4 + n);
		finish(s);
		return 1;
	}
	case SV_SERVER_INIT: {
		RfbPixelFormat *pf = &s->info.pf;
		uint32_t n;

		/* ServerInit answers ClientInit: bytes before it are confused */
		if (len < 24)
			return 0;
		n = be32(p + 20);
		if (n > RFB_BUF_MAX - 24)
			return malformed(s);
		if (len < 24 + n)
			return 0;
		s->info.width = be16(p);
		s->info.height = be16(p + 2);
		pf->bits_per_pixel = p[4];
		pf->depth = p[5];
		pf->big_endian = p[6];
		pf->true_color = p[7];
		pf->red_max = be16(p + 8);
		pf->green_max = be16(p + 10);
		pf->blue_max = be16(p + 12);
		pf->red_shift = p[14];
		pf->green_shift = p[15];
		pf->blue_shift = p[16];
		if (n) {
			s->info.name = malloc(n);
			if (!s->info.name)
				return malformed(s);
			memcpy(s->info.name, p + 24, n);
		}
		s->info.name_len = n;
		s->info.has_server_init = 1;
		take(s, RFB_TOCLIENT, 24 + n);
		sv->step = SV_END;
		finish(s);
		return 1;
	}
	}
	return 0;
}

static int client_step(RfbState *s)
{
	RfbSide *cl = &s->side[RFB_TOSERVER];
	const uint8_t *p = cl->buf;
	uint32_t len = cl->len;

	switch (cl->step) {
	case CL_VERSION:
		if (len < 12)
			return 0;
		if (!version_ok(p))
			return malformed(s);
		read_version(&s->info.client_version, p);
		take(s, RFB_TOSERVER, 12);
		cl->step = CL_CHOICE;
		return 1;
	case CL_CHOICE:
		if (flow_minor(s) == 3) {
			/* the server chose; nothing of the client's in between */
			if (!s->info.has_sectype)
				return 0;
		} else {
			if (len < 1)
				return 0;
			s->info.sectype = p[0];
			s->info.has_sectype = 1;
			take(s, RFB_TOSERVER, 1);
		}
		cl->step = s->info.sectype == 2 ? CL_RESPONSE : CL_CLIENT_INIT;
		return 1;
	case CL_RESPONSE:
		if (len < 16)
			return 0;
		memcpy(s->info.response, p, 16);
		s->info.has_response = 1;
		take(s, RFB_TOSERVER, 16);
		cl->step = CL_CLIENT_INIT;
		return 1;
	case CL_CLIENT_INIT:
		if (len < 1)
			return 0;
		s->info.shared = p[0];
		s->info.has_client_init = 1;
		take(s, RFB_TOSERVER, 1);
		cl->step = CL_END;
		return 1;
	}
	return 0;
}

static int append(RfbSide *sd, const uint8_t *data, uint32_t len)
{
	if (len > RFB_BUF_MAX - sd->len)
		return -1;
	if (sd->len + len > sd->cap) {
		uint32_t cap = sd->cap ? sd->cap : 256;
		uint8_t *nb;

		while (cap < sd->len + len)
			cap *= 2;
		nb = realloc(sd->buf, cap);
		if (!nb)
			return -1;
		sd->buf = nb;
		sd->cap = cap;
	}
	memcpy(sd->buf + sd->len, data, len);
	sd->len += len;
	return 0;
}

int rfb_parse(RfbState *s, int dir, const uint8_t *data, uint32_t len)
{
	RfbSide *sd;
	int moved;

	if (!s || dir < 0 || dir > 1 || s->done)
		return 0;
	sd = &s->side[dir];
	if (sd->dead || !len)
		return 0;
	if (dir == RFB_TOSERVER && sd->step == CL_END) {
		/* client messages after ClientInit: not parsed, as Suricata */
		return 0;
	}
	if (append(sd, data, len) < 0)
		return malformed(s);
	do {
		int a = server_step(s), b;

		if (a < 0 || s->done)
			return a < 0 ? -1 : 0;
		b = client_step(s);
		if (b < 0)
			return -1;
		moved = a | b;
	} while (moved && !s->done);
	return 0;
}

void rfb_side_end(RfbState *s, int dir)
{
	if (!s || dir < 0 || dir > 1)
		return;
	s->side[dir].dead = 1;
	free(s->side[dir].buf);
	s->side[dir].buf = NULL;
	s->side[dir].len = s->side[dir].cap = 0;
	/* a 3.3 server may still wait on the client's version: try again */
	if (!s->done && !s->side[!dir].dead)
		while (server_step(s) > 0 && !s->done)
			;
}

int rfb_side_done(const RfbState *s, int dir)
{
	return s->done || s->side[dir & 1].dead;
}
