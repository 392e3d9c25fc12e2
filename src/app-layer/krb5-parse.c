/* Kerberos 5 message decoding (krb5.h), on the BER cursor of util/ber.h.
 * The messages are DER: each member is an explicit [n] tag around its
 * value; only the members eve and the keywords show are read. */
#include "app-layer/krb5.h"
#include "util/ber.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
	int v;
	const char *name;
} msg_names[] = {
	{ KRB5_AS_REQ, "KRB_AS_REQ" },	 { KRB5_AS_REP, "KRB_AS_REP" },
	{ KRB5_TGS_REQ, "KRB_TGS_REQ" }, { KRB5_TGS_REP, "KRB_TGS_REP" },
	{ KRB5_AP_REQ, "KRB_AP_REQ" },	 { KRB5_AP_REP, "KRB_AP_REP" },
	{ 16, "KRB_RESERVED16" },	 { 17, "KRB_RESERVED17" },
	{ 20, "KRB_SAFE" },		 { 21, "KRB_PRIV" },
	{ 22, "KRB_CRED" },		 { KRB5_ERROR, "KRB_ERROR" },
};

const char *krb5_msg_name(int64_t t)
{
	for (size_t i = 0; i < sizeof(msg_names) / sizeof(msg_names[0]); i++)
		if (msg_names[i].v == t)
			return msg_names[i].name;
	return NULL;
}

int64_t krb5_msg_by_name(const char *s)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	for (size_t i = 0; i < sizeof(msg_names) / sizeof(msg_names[0]); i++)
		if (strcasecmp(msg_names[i].name, s) == 0 ||
		    strcasecmp(msg_names[i].name + 4, s) == 0)
			return msg_names[i].v;
	v = strtol(s, &end, 10);
	if (*end || v < 0 || v > 255)
		return -1;
	return v;
}

/* RFC 4120 section 7.5.9 */
static const struct {
	int v;
	const char *name;
} err_names[] = {
	{ 0, "KDC_ERR_NONE" },
	{ 1, "KDC_ERR_NAME_EXP" },
	{ 2, "KDC_ERR_SERVICE_EXP" },
	{ 3, "KDC_ERR_BAD_PVNO" },
	{ 4, "KDC_ERR_C_OLD_MAST_KVNO" },
	{ 5, "KDC_ERR_S_OLD_MAST_KVNO" },
	{ 6, "KDC_ERR_C_PRINCIPAL_UNKNOWN" },
	{ 7, "KDC_ERR_S_PRINCIPAL_UNKNOWN" },
	{ 8, "KDC_ERR_PRINCIPAL_NOT_UNIQUE" },
	{ 9, "KDC_ERR_NULL_KEY" },
	{ 10, "KDC_ERR_CANNOT_POSTDATE" },
	{ 11, "KDC_ERR_NEVER_VALID" },
	{ 12, "KDC_ERR_POLICY" },
	{ 13, "KDC_ERR_BADOPTION" },
	{ 14, "KDC_ERR_ETYPE_NOSUPP" },
	{ 15, "KDC_ERR_SUMTYPE_NOSUPP" },
	{ 16, "KDC_ERR_PADATA_TYPE_NOSUPP" },
	{ 17, "KDC_ERR_TRTYPE_NOSUPP" },
	{ 18, "KDC_ERR_CLIENT_REVOKED" },
	{ 19, "KDC_ERR_SERVICE_REVOKED" },
	{ 20, "KDC_ERR_TGT_REVOKED" },
	{ 21, "KDC_ERR_CLIENT_NOTYET" },
	{ 22, "KDC_ERR_SERVICE_NOTYET" },
	{ 23, "KDC_ERR_KEY_EXPIRED" },
	{ 24, "KDC_ERR_PREAUTH_FAILED" },
	{ 25, "KDC_ERR_PREAUTH_REQUIRED" },
	{ 26, "KDC_ERR_SERVER_NOMATCH" },
	{ 27, "KDC_ERR_MUST_USE_USER2USER" },
	{ 28, "KDC_ERR_PATH_NOT_ACCEPTED" },
	{ 29, "KDC_ERR_SVC_UNAVAILABLE" },
	{ 31, "KRB_AP_ERR_BAD_INTEGRITY" },
	{ 32, "KRB_AP_ERR_TKT_EXPIRED" },
	{ 33, "KRB_AP_ERR_TKT_NYV" },
	{ 34, "KRB_AP_ERR_REPEAT" },
	{ 35, "KRB_AP_ERR_NOT_US" },
	{ 36, "KRB_AP_ERR_BADMATCH" },
	{ 37, "KRB_AP_ERR_SKEW" },
	{ 38, "KRB_AP_ERR_BADADDR" },
	{ 39, "KRB_AP_ERR_BADVERSION" },
	{ 40, "KRB_AP_ERR_MSG_TYPE" },
	{ 41, "KRB_AP_ERR_MODIFIED" },
	{ 42, "KRB_AP_ERR_BADORDER" },
	{ 44, "KRB_AP_ERR_BADKEYVER" },
	{ 45, "KRB_AP_ERR_NOKEY" },
	{ 46, "KRB_AP_ERR_MUT_FAIL" },
	{ 47, "KRB_AP_ERR_BADDIRECTION" },
	{ 48, "KRB_AP_ERR_METHOD" },
	{ 49, "KRB_AP_ERR_BADSEQ" },
	{ 50, "KRB_AP_ERR_INAPP_CKSUM" },
	{ 51, "KRB_AP_PATH_NOT_ACCEPTED" },
	{ 52, "KRB_ERR_RESPONSE_TOO_BIG" },
	{ 60, "KRB_ERR_GENERIC" },
	{ 61, "KRB_ERR_FIELD_TOOLONG" },
	{ 62, "KDC_ERROR_CLIENT_NOT_TRUSTED" },
	{ 63, "KDC_ERROR_KDC_NOT_TRUSTED" },
	{ 64, "KDC_ERROR_INVALID_SIG" },
	{ 65, "KDC_ERR_KEY_TOO_WEAK" },
	{ 66, "KDC_ERR_CERTIFICATE_MISMATCH" },
	{ 67, "KRB_AP_ERR_NO_TGT" },
	{ 68, "KDC_ERR_WRONG_REALM" },
	{ 69, "KRB_AP_ERR_USER_TO_USER_REQUIRED" },
	{ 70, "KDC_ERR_CANT_VERIFY_CERTIFICATE" },
	{ 71, "KDC_ERR_INVALID_CERTIFICATE" },
	{ 72, "KDC_ERR_REVOKED_CERTIFICATE" },
	{ 73, "KDC_ERR_REVOCATION_STATUS_UNKNOWN" },
	{ 74, "KDC_ERR_REVOCATION_STATUS_UNAVAILABLE" },
	{ 75, "KDC_ERR_CLIENT_NAME_MISMATCH" },
	{ 76, "KDC_ERR_KDC_NAME_MISMATCH" },
};

const char *krb5_error_name(int64_t code)
{
	for (size_t i = 0; i < sizeof(err_names) / sizeof(err_names[0]); i++)
		if (err_names[i].v == code)
			return err_names[i].name;
	return NULL;
}

/* RFC 3961 section 8 and its successors, MIT's names */
static const struct {
	int v;
	const char *name;
} etypes[] = {
	{ 1, "des-cbc-crc" },
	{ 2, "des-cbc-md4" },
	{ 3, "des-cbc-md5" },
	{ 4, "des-cbc-raw" },
	{ 5, "des3-cbc-md5" },
	{ 6, "des3-cbc-raw" },
	{ 7, "des3-cbc-sha1" },
	{ 8, "des-hmac-sha1" },
	{ 9, "dsaWithSHA1-CmsOID" },
	{ 10, "md5WithRSAEncryption-CmsOID" },
	{ 11, "sha1WithRSAEncryption-CmsOID" },
	{ 12, "rc2CBC-EnvOID" },
	{ 13, "rsaEncryption-EnvOID" },
	{ 14, "rsaES-OAEP-ENV-OID" },
	{ 15, "des-ede3-cbc-Env-OID" },
	{ 16, "des3-cbc-sha1-kd" },
	{ 17, "aes128-cts-hmac-sha1-96" },
	{ 18, "aes256-cts-hmac-sha1-96" },
	{ 19, "aes128-cts-hmac-sha256-128" },
	{ 20, "aes256-cts-hmac-sha384-192" },
	{ 23, "rc4-hmac" },
	{ 24, "rc4-hmac-exp" },
	{ 25, "camellia128-cts-cmac" },
	{ 26, "camellia256-cts-cmac" },
	{ 65, "subkey-keymaterial" },
};

const char *krb5_etype_name(int64_t etype)
{
	for (size_t i = 0; i < sizeof(etypes) / sizeof(etypes[0]); i++)
		if (etypes[i].v == etype)
			return etypes[i].name;
	return NULL;
}

int64_t krb5_etype_by_name(const char *s)
{
	char *end;
	long v;

	for (size_t i = 0; i < sizeof(etypes) / sizeof(etypes[0]); i++)
		if (strcasecmp(etypes[i].name, s) == 0)
			return etypes[i].v;
	v = strtol(s, &end, 10);
	if (end == s || *end || v < -1000 || v > 1000)
		return INT64_MIN;
	return v;
}

int krb5_etype_weak(int64_t e)
{
	/* the DES and 3DES families and RC4 (RFC 6649, RFC 8429) */
	return (e >= 1 && e <= 8) || e == 15 || e == 16 || e == 23 || e == 24;
}

static const char *const ev_names[KRB5_EV_COUNT] = {
	[KRB5_EV_MALFORMED_DATA] = "malformed_data",
	[KRB5_EV_WEAK_ENCRYPTION] = "weak_encryption",
};

const char *krb5_event_name(int ev)
{
	return ev >= 0 && ev < KRB5_EV_COUNT ? ev_names[ev] : NULL;
}

int krb5_event_by_name(const char *name)
{
	for (int i = 0; i < KRB5_EV_COUNT; i++)
		if (strcasecmp(ev_names[i], name) == 0)
			return i;
	return -1;
}

/* ---------------- decoding ---------------- */

#define CTX BER_CLASS_CONTEXT

/* The content of explicit member [tag] of c, if it is next. */
static int member(BerCur *c, uint32_t tag, BerElem *inner)
{
	BerElem e;
	BerCur in;

	if (ber_next_tag(c, CTX, tag, &e) < 0 || !e.constructed)
		return -1;
	ber_cur_into(&in, &e);
	return ber_next(&in, inner);
}

/* Skips ahead to member [tag] (members come in tag order): 0 found */
static int seek(BerCur *c, uint32_t tag, BerElem *inner)
{
	BerCur save = *c;
	BerElem e;

	while (c->left) {
		BerCur at = *c;

		if (ber_next(c, &e) < 0)
			break;
		if (e.cls != CTX || e.tag > tag)
			break;
		if (e.tag == tag) {
			*c = at;
			return member(c, tag, inner);
		}
	}
	*c = save;
	return -1;
}

static int int_of(const BerElem *e, int64_t *v)
{
	return e->cls == BER_CLASS_UNIVERSAL && e->tag == 2 ? ber_int(e, v) : -1;
}

static char *copy(const uint8_t *p, uint32_t n, uint16_t *len)
{
	char *s;

	if (n > KRB5_MAX_NAME)
		n = KRB5_MAX_NAME;
	s = malloc(n + 1);
	if (!s)
		return NULL;
	memcpy(s, p, n);
	s[n] = '\0';
	*len = (uint16_t)n;
	return s;
}

/* PrincipalName ::= SEQUENCE { name-type [0], name-string [1] SEQUENCE
 * OF KerberosString } */
static void principal(const BerElem *seq, Krb5Name *nm)
{
	BerCur c, s;
	BerElem e, str;

	ber_cur_into(&c, seq);
	if (seek(&c, 1, &e) < 0 || !e.constructed)
		return;
	ber_cur_into(&s, &e);
	while (nm->n < KRB5_MAX_COMPONENTS && ber_next(&s, &str) == 0) {
		nm->comp[nm->n] = copy(str.content, str.avail, &nm->len[nm->n]);
		if (!nm->comp[nm->n])
			return;
		nm->n++;
	}
}

static void realm(Krb5Msg *m, const BerElem *e)
{
	if (!m->realm)
		m->realm = copy(e->content, e->avail, &m->realm_len);
}

/* EncryptedData ::= SEQUENCE { etype [0] Int32, ... } */
static int64_t etype_of(const BerElem *seq)
{
	BerCur c;
	BerElem e;
	int64_t v;

	ber_cur_into(&c, seq);
	if (member(&c, 0, &e) < 0 || int_of(&e, &v) < 0)
		return -1;
	return v;
}

/* KDC-REQ: pvno [1], msg-type [2], padata [3], req-body [4] { kdc-options
 * [0], cname [1], realm [2], sname [3], ... } */
static int kdc_req(const BerElem *seq, Krb5Msg *m)
{
	BerCur c, b;
	BerElem e;

	ber_cur_into(&c, seq);
	if (seek(&c, 4, &e) < 0 || !e.constructed)
		return -1;
	ber_cur_into(&b, &e);
	if (seek(&b, 1, &e) == 0)
		principal(&e, &m->cname);
	if (seek(&b, 2, &e) == 0)
		realm(m, &e);
	if (seek(&b, 3, &e) == 0)
		principal(&e, &m->sname);
	return 0;
}

/* KDC-REP: pvno [0], msg-type [1], padata [2], crealm [3], cname [4],
 * ticket [5] Ticket ([APPLICATION 1] { tkt-vno [0], realm [1], sname [2],
 * enc-part [3] }), enc-part [6] */
static int kdc_rep(const BerElem *seq, Krb5Msg *m)
{
	BerCur c, t;
	BerElem e, tk;

	ber_cur_into(&c, seq);
	if (seek(&c, 3, &e) == 0)
		realm(m, &e);
	if (seek(&c, 4, &e) == 0)
		principal(&e, &m->cname);
	if (seek(&c, 5, &e) == 0 && e.cls == BER_CLASS_APPLICATION && e.tag == 1) {
		ber_cur_into(&t, &e);
		if (ber_next(&t, &tk) == 0) {
			ber_cur_into(&t, &tk);
			if (seek(&t, 2, &e) == 0)
				principal(&e, &m->sname);
			if (seek(&t, 3, &e) == 0)
				m->ticket_etype = etype_of(&e);
		}
	}
	if (seek(&c, 6, &e) == 0)
		m->etype = etype_of(&e);
	return 0;
}

/* KRB-ERROR: ... error-code [6], crealm [7], cname [8], realm [9], sname
 * [10] ... (eve's realm is the client's, as Suricata's) */
static int krb_error(const BerElem *seq, Krb5Msg *m)
{
	BerCur c;
	BerElem e;

	ber_cur_into(&c, seq);
	if (seek(&c, 6, &e) < 0 || int_of(&e, &m->error_code) < 0)
		return -1;
	if (seek(&c, 7, &e) == 0)
		realm(m, &e);
	if (seek(&c, 8, &e) == 0)
		principal(&e, &m->cname);
	if (seek(&c, 10, &e) == 0)
		principal(&e, &m->sname);
	return 0;
}

/* AP-REQ: pvno [0], msg-type [1], ap-options [2], ticket [3] */
static int ap_req(const BerElem *seq, Krb5Msg *m)
{
	BerCur c, t;
	BerElem e, tk;

	ber_cur_into(&c, seq);
	if (seek(&c, 3, &e) == 0 && e.cls == BER_CLASS_APPLICATION && e.tag == 1) {
		ber_cur_into(&t, &e);
		if (ber_next(&t, &tk) == 0) {
			ber_cur_into(&t, &tk);
			if (seek(&t, 1, &e) == 0)
				realm(m, &e);
			if (seek(&t, 2, &e) == 0)
				principal(&e, &m->sname);
			if (seek(&t, 3, &e) == 0)
				m->ticket_etype = etype_of(&e);
		}
	}
	return 0;
}

int krb5_msg_decode(const uint8_t *buf, uint32_t len, Krb5Msg *m)
{
	BerCur c;
	BerElem app, seq;
	int r;

	memset(m, 0, sizeof(*m));
	m->etype = m->ticket_etype = m->failed_request = -1;
	ber_cur_init(&c, buf, len);
	if (ber_next(&c, &app) < 0 || app.cls != BER_CLASS_APPLICATION || !app.constructed)
		return -1;
	ber_cur_into(&c, &app);
	if (ber_next(&c, &seq) < 0 || seq.cls != BER_CLASS_UNIVERSAL || seq.tag != 16)
		return -1;
	m->msg_type = app.tag;
	switch (app.tag) {
	case KRB5_AS_REQ:
	case KRB5_TGS_REQ:
		r = kdc_req(&seq, m);
		break;
	case KRB5_AS_REP:
	case KRB5_TGS_REP:
		r = kdc_rep(&seq, m);
		break;
	case KRB5_ERROR:
		r = krb_error(&seq, m);
		break;
	case KRB5_AP_REQ:
		r = ap_req(&seq, m);
		break;
	case KRB5_AP_REP:
	case 20:
	case 21:
	case 22:
		r = 0;
		break;
	default:
		r = -1;
	}
	if (r < 0)
		krb5_msg_free(m);
	return r;
}

static void name_free(Krb5Name *n)
{
	for (int i = 0; i < n->n; i++)
		free(n->comp[i]);
	n->n = 0;
}

void krb5_msg_free(Krb5Msg *m)
{
	name_free(&m->cname);
	name_free(&m->sname);
	free(m->realm);
	m->realm = NULL;
}
