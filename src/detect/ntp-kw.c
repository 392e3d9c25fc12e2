/* NTP keywords, as Suricata 8.0.5 and later have them (suricata-verify
 * ntp-keywords): ntp.version, ntp.stratum and ntp.mode (integer
 * comparisons; ntp.mode also takes a mode's name, "client", "!server"),
 * and the sticky buffer ntp.reference_id (the four raw bytes). Each
 * message is a one-way transaction, read on the side it went. */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/buffers.h"
#include "app-layer/ntp.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEEDS "an ntp, udp or ip"

static int kw_ntp_sticky(SigParseState *st, const char *arg, const Keyword *kw)
{
	(void)arg;
	return sig_app_sticky(st, kw, ALPROTO_NTP, 1, NEEDS);
}

int ntp_buffer_get(const DetectBuffer *b, void *txp, int side, uint32_t idx,
		   const uint8_t **data, uint32_t *len)
{
	const NtpTx *tx = txp;

	if (!tx->valid || idx || b->pbuf[side & 1] != NTP_KW_BUF_REFERENCE_ID)
		return -1;
	*data = tx->m.ref_id;
	*len = sizeof(tx->m.ref_id);
	return 0;
}

enum { NK_VERSION, NK_STRATUM, NK_MODE };

typedef struct DetectNtp {
	int kind;
	DetectUint u;
} DetectNtp;

/* "client" -> "3", "!server" -> "!4": a mode's name in the integer syntax */
static const char *mode_arg(const char *arg, char *buf, size_t n)
{
	const char *s = arg;
	const char *pre = "";
	int m;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '!') {
		pre = "!";
		s++;
	}
	if (!isalpha((unsigned char)*s))
		return arg;
	snprintf(buf, n, "%s", s);
	for (char *e = buf + strlen(buf); e > buf && isspace((unsigned char)e[-1]); )
		*--e = 0;
	if ((m = ntp_mode_by_name(buf)) < 0)
		return arg;
	snprintf(buf, n, "%s%d", pre, m);
	return buf;
}

static int kw_ntp_match(SigParseState *st, const char *arg, const Keyword *kw)
{
	DetectNtp *d = calloc(1, sizeof(*d));
	char mb[64];
	const char *a = arg ? arg : "";

	if (!d)
		return sig_error(st, "out of memory");
	d->kind = kw->buf;
	if (d->kind == NK_MODE)
		a = mode_arg(a, mb, sizeof(mb));
	if (parse_uint_cmp(a, d->kind == NK_MODE ? 7 : UINT8_MAX, &d->u) < 0) {
		free(d);
		return sig_error(st, "invalid %s \"%s\"", kw->name, arg ? arg : "");
	}
	if (sig_set_alproto_for(st, kw->name, ALPROTO_NTP, 1, NEEDS)) {
		free(d);
		return -1;
	}
	st->s->flags |= SIG_FLAG_TX_MATCH;
	return sm_append(st, SM_LIST_MATCH, KW_NTP_MATCH, d) < 0 ? -1 : 0;
}

static int match_ntp(const DetectTx *tc, const SigMatch *sm, Packet *p)
{
	const DetectNtp *d = sm->ctx;
	const NtpTx *tx = tc->tx;

	if (!tx || !tx->valid || !p->flow || p->flow->app_proto != ALPROTO_NTP)
		return 0;
	switch (d->kind) {
	case NK_VERSION:
		return detect_uint_match(&d->u, tx->m.version);
	case NK_STRATUM:
		return detect_uint_match(&d->u, tx->m.stratum);
	}
	return detect_uint_match(&d->u, tx->m.mode);
}

#define NTPM(n_, k_, d_) { .name = n_, .id = KW_NTP_MATCH, .setup = kw_ntp_match, \
	.flags = NEED | SQ | KWF_TX, .buf = k_, .desc = d_, .tx_match = match_ntp }

const Keyword ntp_keywords[] = {
	{ .name = "ntp.reference_id", .id = KW_NTP_STICKY, .setup = kw_ntp_sticky,
	  .flags = STICKY, .buf = BUF_NTP_REFERENCE_ID, .desc = "sticky buffer" },
	NTPM("ntp.version", NK_VERSION, "ntp version (3, 4)"),
	NTPM("ntp.stratum", NK_STRATUM, "ntp stratum"),
	NTPM("ntp.mode", NK_MODE, "ntp mode (number or name)"),
	{ .name = NULL }
};
