/* SSH stream parser (see ssh-parse.h). */
#include "app-layer/ssh-parse.h"
#include "app-layer/app-mem.h"
#include "util/digest.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/evp.h>

static const char *const ev_names[SSH_EV_COUNT] = {
	[SSH_EV_INVALID_BANNER] = "invalid_banner",
	[SSH_EV_LONG_BANNER] = "long_banner",
	[SSH_EV_INVALID_RECORD] = "invalid_record",
	[SSH_EV_LONG_KEX_RECORD] = "long_kex_record",
};

const char *ssh_event_name(int ev)
{
	return ev >= 0 && ev < SSH_EV_COUNT ? ev_names[ev] : NULL;
}

int ssh_event_by_name(const char *name)
{
	for (int i = 0; name && i < SSH_EV_COUNT; i++)
		if (strcasecmp(name, ev_names[i]) == 0)
			return i;
	return -1;
}

static void raise(SshState *s, int ev)
{
	s->events[ev]++;
	s->nevents++;
}

SshState *ssh_state_new(int want_hassh)
{
	SshState *s = app_mem_calloc(ALPROTO_SSH, 1, sizeof(*s));

	if (s)
		s->want_hassh = want_hassh;
	return s;
}

void ssh_state_free(SshState *s)
{
	if (!s)
		return;
	for (int d = 0; d < 2; d++) {
		app_mem_free(ALPROTO_SSH, s->side[d].rec);
		app_mem_free(ALPROTO_SSH, s->side[d].hassh_str);
	}
	app_mem_free(ALPROTO_SSH, s);
}

int ssh_probe(const uint8_t *data, size_t len)
{
	static const char pfx[] = "SSH-";
	size_t n = len < 4 ? len : 4;

	if (memcmp(data, pfx, n) != 0)
		return 0;
	return len < 4 ? -1 : 1;
}

int ssh_encrypted(const SshState *s)
{
	return s->side[0].state == SSH_STATE_FINISHED && s->side[1].state == SSH_STATE_FINISHED;
}

/* "SSH-proto-software[ SP comments]" (CR stripped): proto up to the next
 * '-', software up to a blank. */
static void banner_decode(SshState *s, SshSide *sd)
{
	const uint8_t *l = sd->line;
	size_t n = sd->line_len, i, p0, s0;

	while (n && (l[n - 1] == '\r' || l[n - 1] == '\n'))
		n--;
	if (n < 4 || memcmp(l, "SSH-", 4) != 0) {
		raise(s, SSH_EV_INVALID_BANNER);
		return;
	}
	p0 = 4;
	for (i = p0; i < n && l[i] != '-' && l[i] != ' '; i++)
		;
	memcpy(sd->proto, l + p0, i - p0);
	sd->proto_len = (uint16_t)(i - p0);
	sd->proto[sd->proto_len] = '\0';
	if (i >= n || l[i] != '-' || sd->proto_len == 0) {
		raise(s, SSH_EV_INVALID_BANNER);
		return;
	}
	s0 = i + 1;
	for (i = s0; i < n && l[i] != ' '; i++)
		;
	memcpy(sd->software, l + s0, i - s0);
	sd->software_len = (uint16_t)(i - s0);
	sd->software[sd->software_len] = '\0';
	if (sd->software_len == 0)
		raise(s, SSH_EV_INVALID_BANNER);
	/* SSH-1 talks in another packet format; 1.99 is SSH-2 with fallback */
	if (sd->proto_len >= 2 && sd->proto[0] == '1' && sd->proto[1] == '.' &&
	    strcmp(sd->proto, "1.99") != 0)
		sd->v1 = 1;
}

/* Banner bytes; returns how many of data were used (the rest are records). */
static size_t banner_feed(SshState *s, SshSide *sd, const uint8_t *data, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		uint8_t c = data[i];

		if (sd->state == SSH_STATE_BANNER_WAIT_EOL) {
			if (c == '\n') {
				sd->state = SSH_STATE_BANNER_DONE;
				return i + 1;
			}
			continue;
		}
		if (sd->line_len < SSH_MAX_BANNER)
			sd->line[sd->line_len++] = c;
		if (c == '\n') {
			/* lines before the banner (RFC 4253 4.2 lets a server
			 * send them) are skipped */
			if (sd->line_len < 4 || memcmp(sd->line, "SSH-", 4) != 0) {
				sd->line_len = 0;
				continue;
			}
			banner_decode(s, sd);
			sd->state = SSH_STATE_BANNER_DONE;
			return i + 1;
		}
		if (sd->line_len == SSH_MAX_BANNER) {
			raise(s, SSH_EV_LONG_BANNER);
			banner_decode(s, sd);
			sd->state = SSH_STATE_BANNER_WAIT_EOL;
		}
	}
	return len;
}

/* name-list: uint32 length, bytes */
static int name_list(const uint8_t **p, size_t *left, const uint8_t **s, uint32_t *n)
{
	uint32_t l;

	if (*left < 4)
		return -1;
	l = (uint32_t)(*p)[0] << 24 | (uint32_t)(*p)[1] << 16 | (uint32_t)(*p)[2] << 8 | (*p)[3];
	if (l > *left - 4)
		return -1;
	*s = *p + 4;
	*n = l;
	*p += 4 + (size_t)l;
	*left -= 4 + (size_t)l;
	return 0;
}

int ssh_kexinit_hassh(const uint8_t *p, size_t len, int server, char *out, size_t cap)
{
	const uint8_t *lists[10];
	uint32_t lens[10];
	/* which of the ten name-lists go in: kex, then enc, mac and comp of
	 * this side's direction (c2s at 2/4/6, s2c at 3/5/7) */
	const int pick[4] = { 0, server ? 3 : 2, server ? 5 : 4, server ? 7 : 6 };
	size_t o = 0;

	if (len < 16)
		return -1;
	p += 16;                    /* cookie */
	len -= 16;
	for (int i = 0; i < 10; i++)
		if (name_list(&p, &len, &lists[i], &lens[i]) < 0)
			return -1;
	for (int k = 0; k < 4; k++) {
		uint32_t l = lens[pick[k]];

		if (o + l + 2 > cap)
			return -1;
		if (k)
			out[o++] = ';';
		memcpy(out + o, lists[pick[k]], l);
		o += l;
	}
	out[o] = '\0';
	return (int)o;
}

static void kexinit_done(SshState *s, SshSide *sd, int server)
{
	/* payload: after the 1-byte message code, without the padding */
	uint32_t plen = (uint32_t)sd->hdr[0] << 24 | (uint32_t)sd->hdr[1] << 16 |
			(uint32_t)sd->hdr[2] << 8 | sd->hdr[3];
	uint32_t pad = sd->hdr[4];
	size_t body;
	char *str;
	int n;

	if (plen < (uint64_t)pad + 2 || sd->kexinit)
		return;
	body = plen - pad - 2;
	if (body > sd->rec_len)
		body = sd->rec_len;
	sd->kexinit = 1;
	str = app_mem_malloc(ALPROTO_SSH, body + 4);
	if (!str)
		return;
	n = ssh_kexinit_hassh(sd->rec, body, server, str, body + 4);
	if (n < 0) {
		app_mem_free(ALPROTO_SSH, str);
		raise(s, SSH_EV_INVALID_RECORD);
		return;
	}
	{
		unsigned char md[EVP_MAX_MD_SIZE];
		unsigned int mdlen = 0;

		if (EVP_Digest(str, (size_t)n, md, &mdlen, digest_md5(), NULL) == 1 && mdlen == 16) {
			for (int i = 0; i < 16; i++) {
				static const char hx[] = "0123456789abcdef";

				sd->hassh[2 * i] = hx[md[i] >> 4];
				sd->hassh[2 * i + 1] = hx[md[i] & 15];
			}
			sd->hassh[32] = '\0';
		}
	}
	sd->hassh_str = str;
	sd->hassh_len = (uint32_t)n;
}

/* Cleartext binary packets (RFC 4253 6): reassembled, KEXINIT kept and
 * decoded, NEWKEYS finishes the side. */
static int records_feed(SshState *s, SshSide *sd, int server, const uint8_t *data, size_t len)
{
	while (len && sd->state != SSH_STATE_FINISHED && !sd->dead) {
		if (sd->hdr_len < 6) {
			size_t take = 6u - sd->hdr_len;
			uint32_t plen;

			if (take > len)
				take = len;
			memcpy(sd->hdr + sd->hdr_len, data, take);
			sd->hdr_len = (uint8_t)(sd->hdr_len + take);
			data += take;
			len -= take;
			if (sd->hdr_len < 6)
				return 0;
			plen = (uint32_t)sd->hdr[0] << 24 | (uint32_t)sd->hdr[1] << 16 |
			       (uint32_t)sd->hdr[2] << 8 | sd->hdr[3];
			/* the packet holds at least padding_length and the code */
			if (plen < 2 || plen > 4u * SSH_MAX_RECORD) {
				raise(s, SSH_EV_INVALID_RECORD);
				sd->dead = 1;
				return -1;
			}
			sd->msg = sd->hdr[5];
			if (s->on_record)
				s->on_record(s->on_record_arg, server ? 1 : 0,
					     (int64_t)(data - s->feed_start) - 6, plen);
			sd->rec_left = plen - 2;
			sd->rec_len = 0;
			sd->records++;
			/* the payload is kept only when hassh is wanted */
			if (sd->msg == SSH_MSG_KEXINIT && !sd->kexinit && s->want_hassh) {
				if (sd->rec_left > SSH_MAX_RECORD) {
					raise(s, SSH_EV_LONG_KEX_RECORD);
				} else if (sd->rec_cap < sd->rec_left) {
					uint8_t *nb = app_mem_realloc(ALPROTO_SSH, sd->rec, sd->rec_left ? sd->rec_left : 1);

					if (nb) {
						sd->rec = nb;
						sd->rec_cap = sd->rec_left;
					}
				}
			}
		}
		{
			size_t take = sd->rec_left < len ? sd->rec_left : len;

			if (sd->msg == SSH_MSG_KEXINIT && !sd->kexinit && sd->rec &&
			    sd->rec_len + take <= sd->rec_cap && sd->rec_cap >= sd->rec_left) {
				memcpy(sd->rec + sd->rec_len, data, take);
				sd->rec_len += (uint32_t)take;
			}
			sd->rec_left -= (uint32_t)take;
			data += take;
			len -= take;
		}
		if (sd->rec_left == 0) {
			if (sd->msg == SSH_MSG_KEXINIT && !sd->kexinit) {
				if (s->want_hassh && sd->rec && sd->rec_cap >= sd->rec_len)
					kexinit_done(s, sd, server);
				else if (!s->want_hassh)
					sd->kexinit = 1;
				/* one KEXINIT is decoded: its buffer goes */
				if (sd->kexinit) {
					app_mem_free(ALPROTO_SSH, sd->rec);
					sd->rec = NULL;
					sd->rec_cap = sd->rec_len = 0;
				}
			}
			if (sd->msg == SSH_MSG_NEWKEYS)
				sd->state = SSH_STATE_FINISHED;
			sd->hdr_len = 0;
		}
	}
	return 0;
}

int ssh_parse(SshState *s, int dir, const uint8_t *data, size_t len)
{
	SshSide *sd;

	if (!s || dir < 0 || dir > 1)
		return -1;
	sd = &s->side[dir];
	if (sd->dead)
		return -1;
	s->feed_start = data;
	if (sd->state < SSH_STATE_BANNER_DONE) {
		size_t used = banner_feed(s, sd, data, len);

		data += used;
		len -= used;
	}
	if (!len || sd->state < SSH_STATE_BANNER_DONE || sd->state == SSH_STATE_FINISHED)
		return 0;
	if (sd->v1)
		return 0;           /* SSH-1 packets are not decoded */
	return records_feed(s, sd, dir == SSH_TOCLIENT, data, len);
}
