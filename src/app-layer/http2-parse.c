/* HTTP/2's names (frame types, error codes, settings, events) as Suricata 8
 * writes and reads them, and the http.* buffers a transaction's side
 * shows once its headers are complete. */
#include "app-layer/http2.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const event_names[H2_EV_COUNT] = {
	[H2_EV_INVALID_FRAME_HEADER] = "invalid_frame_header",
	[H2_EV_INVALID_CLIENT_MAGIC] = "invalid_client_magic",
	[H2_EV_INVALID_FRAME_DATA] = "invalid_frame_data",
	[H2_EV_INVALID_HEADER] = "invalid_header",
	[H2_EV_INVALID_FRAME_LENGTH] = "invalid_frame_length",
	[H2_EV_EXTRA_HEADER_DATA] = "extra_header_data",
	[H2_EV_LONG_FRAME_DATA] = "long_frame_data",
	[H2_EV_STREAM_ID_REUSE] = "stream_id_reuse",
	[H2_EV_INVALID_HTTP1_SETTINGS] = "invalid_http1_settings",
	[H2_EV_FAILED_DECOMPRESSION] = "failed_decompression",
	[H2_EV_INVALID_RANGE] = "invalid_range",
	[H2_EV_HEADER_INTEGER_OVERFLOW] = "header_integer_overflow",
	[H2_EV_TOO_MANY_STREAMS] = "too_many_streams",
	[H2_EV_AUTHORITY_HOST_MISMATCH] = "authority_host_mismatch",
	[H2_EV_USERINFO_IN_URI] = "userinfo_in_uri",
	[H2_EV_REASSEMBLY_LIMIT_REACHED] = "reassembly_limit_reached",
};

const char *http2_event_name(int e)
{
	return e >= 0 && e < H2_EV_COUNT ? event_names[e] : NULL;
}

int http2_event_by_name(const char *name)
{
	for (int e = 0; e < H2_EV_COUNT; e++)
		if (!strcasecmp(name, event_names[e]))
			return e;
	return -1;
}

/* eve and the keywords write Suricata's enum names, underscores dropped */
static const char *const frame_names[H2_FRAME_TYPES] = {
	"DATA", "HEADERS", "PRIORITY", "RSTSTREAM", "SETTINGS", "PUSHPROMISE", "PING",
	"GOAWAY", "WINDOWUPDATE", "CONTINUATION",
};

static const char *const error_names[] = {
	"NOERROR", "PROTOCOLERROR", "INTERNALERROR", "FLOWCONTROLERROR", "SETTINGSTIMEOUT",
	"STREAMCLOSED", "FRAMESIZEERROR", "REFUSEDSTREAM", "CANCEL", "COMPRESSIONERROR",
	"CONNECTERROR", "ENHANCEYOURCALM", "INADEQUATESECURITY", "HTTP11REQUIRED",
};

static const char *const settings_names[] = {
	NULL, "SETTINGSHEADERTABLESIZE", "SETTINGSENABLEPUSH", "SETTINGSMAXCONCURRENTSTREAMS",
	"SETTINGSINITIALWINDOWSIZE", "SETTINGSMAXFRAMESIZE", "SETTINGSMAXHEADERLISTSIZE",
};

/* s equals name once underscores are left out of s, any case */
static int name_eq(const char *s, const char *name)
{
	for (; *s; s++) {
		if (*s == '_' || *s == '-')
			continue;
		if (toupper((unsigned char)*s) != *name)
			return 0;
		name++;
	}
	return *name == '\0';
}

static int by_name(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (names[i] && name_eq(s, names[i]))
			return i;
	return -1;
}

const char *http2_frame_type_name(unsigned t)
{
	return t < H2_FRAME_TYPES ? frame_names[t] : NULL;
}

int http2_frame_type_by_name(const char *s)
{
	return by_name(s, frame_names, H2_FRAME_TYPES);
}

const char *http2_error_name(uint32_t code)
{
	return code < sizeof(error_names) / sizeof(error_names[0]) ? error_names[code] : NULL;
}

int64_t http2_error_by_name(const char *s)
{
	return by_name(s, error_names, (int)(sizeof(error_names) / sizeof(error_names[0])));
}

const char *http2_settings_name(uint16_t id)
{
	return id < sizeof(settings_names) / sizeof(settings_names[0]) ? settings_names[id] : NULL;
}

int http2_settings_by_name(const char *s)
{
	return by_name(s, settings_names, (int)(sizeof(settings_names) / sizeof(settings_names[0])));
}

const uint8_t *http2_header(const Http2Side *s, const char *name, uint32_t *len)
{
	size_t n = strlen(name);

	for (uint32_t i = 0; i < s->nhdrs; i++) {
		const Http2Header *h = &s->hdrs[i];

		/* HTTP/2 names are lower case: a name sent otherwise is not the
		 * header (Suricata compares them as they are) */
		if (h->size_update < 0 && h->nlen == n && !memcmp(h->name, name, n)) {
			*len = h->vlen;
			return h->value;
		}
	}
	return NULL;
}
