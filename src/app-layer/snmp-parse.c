/* SNMP message decoding (snmp.h), on the BER cursor of util/ber.h. */
#include "app-layer/snmp.h"
#include "util/ber.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const pdu_names[] = {
	"get_request", "get_next_request", "response", "set_request", "trap_v1",
	"get_bulk_request", "inform_request", "trap_v2", "report",
};

const char *snmp_pdu_name(int64_t t)
{
	return t >= 0 && t < (int64_t)(sizeof(pdu_names) / sizeof(pdu_names[0])) ? pdu_names[t]
										   : NULL;
}

static const char *const trap_names[] = {
	"ColdStart", "WarmStart", "LinkDown", "LinkUp", "AuthenticationFailure",
	"EgpNeighborLoss", "EnterpriseSpecific",
};

const char *snmp_trap_name(int64_t t)
{
	return t >= 0 && t < 7 ? trap_names[t] : NULL;
}

static const char *const ev_names[SNMP_EV_COUNT] = {
	[SNMP_EV_MALFORMED_DATA] = "malformed_data",
	[SNMP_EV_UNKNOWN_SECURITY_MODEL] = "unknown_security_model",
	[SNMP_EV_VERSION_MISMATCH] = "version_mismatch",
};

const char *snmp_event_name(int ev)
{
	return ev >= 0 && ev < SNMP_EV_COUNT ? ev_names[ev] : NULL;
}

int snmp_event_by_name(const char *name)
{
	for (int i = 0; i < SNMP_EV_COUNT; i++)
		if (strcasecmp(ev_names[i], name) == 0)
			return i;
	return -1;
}

/* ---------------- decoding ---------------- */

#define UNIV BER_CLASS_UNIVERSAL
#define T_INT 2
#define T_OCTETS 4
#define T_OID 6
#define T_SEQ 16

static char *copy(const BerElem *e, uint16_t *len)
{
	uint32_t n = e->avail > SNMP_MAX_STR ? SNMP_MAX_STR : e->avail;
	char *s = malloc(n + 1);

	if (!s)
		return NULL;
	memcpy(s, e->content, n);
	s[n] = '\0';
	*len = (uint16_t)n;
	return s;
}

static int int_next(BerCur *c, int64_t *v)
{
	BerElem e;

	if (ber_next_tag(c, UNIV, T_INT, &e) < 0)
		return -1;
	return ber_int(&e, v);
}

/* VarBindList ::= SEQUENCE OF SEQUENCE { name OID, value ANY } */
static int varbinds(BerCur *c, SnmpMsg *m)
{
	BerElem list, vb, oid;
	BerCur l, v;

	if (ber_next_tag(c, UNIV, T_SEQ, &list) < 0)
		return -1;
	/* counted first: the OIDs take only the room they need */
	uint32_t n = 0;

	ber_cur_into(&l, &list);
	while (n < SNMP_MAX_VARS && ber_next(&l, &vb) == 0)
		n++;
	if (!n)
		return 0;
	if (!(m->vars = calloc(n, sizeof(*m->vars))))
		return -1;
	ber_cur_into(&l, &list);
	while (l.left && m->nvars < n) {
		if (ber_next_tag(&l, UNIV, T_SEQ, &vb) < 0)
			return -1;
		ber_cur_into(&v, &vb);
		if (ber_next_tag(&v, UNIV, T_OID, &oid) < 0)
			return -1;
		if (ber_oid_str(oid.content, oid.avail, m->vars[m->nvars], SNMP_MAX_OID) < 0)
			return -1;
		m->nvars++;
	}
	return 0;
}

/* The PDU ([n] IMPLICIT SEQUENCE): its type, and what it holds. */
static int pdu(const BerElem *e, SnmpMsg *m)
{
	BerCur c;
	int64_t v;

	if (e->cls != BER_CLASS_CONTEXT || !e->constructed || !snmp_pdu_name(e->tag))
		return -1;
	m->pdu_type = (int32_t)e->tag;
	ber_cur_into(&c, e);
	if (e->tag == SNMP_PDU_TRAP_V1) {
		BerElem ent, addr;

		/* enterprise OID, agent-addr [APPLICATION 0] 4 bytes,
		 * generic-trap, specific-trap, time-stamp, varbinds */
		if (ber_next_tag(&c, UNIV, T_OID, &ent) < 0 ||
		    ber_oid_str(ent.content, ent.avail, m->trap_oid, SNMP_MAX_OID) < 0 ||
		    ber_next_tag(&c, BER_CLASS_APPLICATION, 0, &addr) < 0 || addr.avail != 4 ||
		    int_next(&c, &m->trap_type) < 0 || int_next(&c, &v) < 0 ||
		    ber_next(&c, &ent) < 0)
			return -1;
		snprintf(m->trap_address, sizeof(m->trap_address), "%u.%u.%u.%u",
			 addr.content[0], addr.content[1], addr.content[2], addr.content[3]);
		m->has_trap = 1;
		return varbinds(&c, m);
	}
	/* request-id, error-status (non-repeaters), error-index */
	if (int_next(&c, &v) < 0 || int_next(&c, &v) < 0 || int_next(&c, &v) < 0)
		return -1;
	return varbinds(&c, m);
}

/* SNMPv3Message: msgGlobalData, msgSecurityParameters, msgData */
static int v3(BerCur *c, SnmpMsg *m)
{
	BerElem hdr, flags, sec, data, e;
	BerCur h, s;
	int64_t model, v;

	if (ber_next_tag(c, UNIV, T_SEQ, &hdr) < 0)
		return -1;
	ber_cur_into(&h, &hdr);
	if (int_next(&h, &v) < 0 || int_next(&h, &v) < 0 ||
	    ber_next_tag(&h, UNIV, T_OCTETS, &flags) < 0 || flags.avail != 1 ||
	    int_next(&h, &model) < 0)
		return -1;
	if (ber_next_tag(c, UNIV, T_OCTETS, &sec) < 0)
		return -1;
	if (model == 3) {
		/* UsmSecurityParameters: engine id, boots, time, user name, ... */
		BerElem usm;

		ber_cur_init(&s, sec.content, sec.avail);
		if (ber_next_tag(&s, UNIV, T_SEQ, &usm) < 0)
			return -1;
		ber_cur_into(&s, &usm);
		if (ber_next_tag(&s, UNIV, T_OCTETS, &e) < 0 || int_next(&s, &v) < 0 ||
		    int_next(&s, &v) < 0 || ber_next_tag(&s, UNIV, T_OCTETS, &e) < 0)
			return -1;
		if (!(m->usm = copy(&e, &m->usm_len)))
			return -1;
	} else {
		m->unknown_sec = 1;
	}
	if (ber_next(c, &data) < 0)
		return -1;
	/* privacy: the scoped PDU is an encrypted OCTET STRING */
	if ((flags.content[0] & 2) || data.cls != UNIV || data.tag != T_SEQ)
		return 0;
	/* ScopedPDU: contextEngineID, contextName, data */
	ber_cur_into(&s, &data);
	if (ber_next_tag(&s, UNIV, T_OCTETS, &e) < 0 || ber_next_tag(&s, UNIV, T_OCTETS, &e) < 0 ||
	    ber_next(&s, &e) < 0)
		return -1;
	return pdu(&e, m);
}

int snmp_msg_decode(const uint8_t *buf, uint32_t len, SnmpMsg *m)
{
	BerCur c;
	BerElem seq, e;
	int64_t ver;

	memset(m, 0, sizeof(*m));
	m->pdu_type = -1;
	ber_cur_init(&c, buf, len);
	if (ber_next_tag(&c, UNIV, T_SEQ, &seq) < 0 || !seq.constructed)
		return -1;
	ber_cur_into(&c, &seq);
	if (int_next(&c, &ver) < 0 || (ver != 0 && ver != 1 && ver != 3))
		return -1;
	m->version = ver == 3 ? 3 : (uint32_t)ver + 1;
	if (ver == 3) {
		if (v3(&c, m) < 0)
			goto bad;
		return 0;
	}
	if (ber_next_tag(&c, UNIV, T_OCTETS, &e) < 0 || !(m->community = copy(&e, &m->community_len)) ||
	    ber_next(&c, &e) < 0 || pdu(&e, m) < 0)
		goto bad;
	return 0;
bad:
	snmp_msg_free(m);
	return -1;
}

void snmp_msg_free(SnmpMsg *m)
{
	free(m->community);
	free(m->usm);
	free(m->vars);
	m->community = m->usm = NULL;
	m->vars = NULL;
	m->nvars = 0;
}
