/* The one keyword table: every rule keyword we support, with its parser and
 * flags. Adding a keyword is one line here plus its setup function in the
 * file of its family. */
#include "detect/detect-int.h"
#include "detect/transform.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <pthread.h>
#include "pcre2-config.h"

#define NA KWF_NOARG
#define NEED KWF_NEEDARG
#define SQ KWF_STRIP_QUOTES
#define MOD (KWF_CONTENT_MOD | KWF_NOARG)
#define STICKY (KWF_STICKY | KWF_NOARG)

static Keyword table[] = {
	/* meta.c */
	{ "msg", KW_MSG, kw_msg, NEED, -1, "rule message" },
	{ "sid", KW_SID, kw_sid, NEED | SQ, -1, "signature id" },
	{ "rev", KW_REV, kw_rev, NEED | SQ, -1, "revision" },
	{ "gid", KW_GID, kw_gid, NEED | SQ, -1, "group id" },
	{ "classtype", KW_CLASSTYPE, kw_classtype, NEED | SQ, -1, "classification" },
	{ "priority", KW_PRIORITY, kw_priority, NEED | SQ, -1, "alert priority" },
	{ "reference", KW_REFERENCE, kw_reference, NEED | SQ, -1, "external reference" },
	{ "metadata", KW_METADATA, kw_metadata, NEED, -1, "key value metadata" },
	{ "target", KW_TARGET, kw_target, NEED | SQ, -1, "which side is the target" },
	{ "noalert", KW_NOALERT, kw_noalert, NA, -1, "match without alerting" },
	/* content.c */
	{ "content", KW_CONTENT, kw_content, NEED, -1, "match a pattern" },
	{ "uricontent", KW_URICONTENT, kw_uricontent, NEED, -1, "content in the http uri (legacy)" },
	{ "nocase", KW_NOCASE, kw_nocase, NA, -1, "content: case-insensitive" },
	{ "offset", KW_OFFSET, kw_offset, NEED | SQ, -1, "content: start at" },
	{ "depth", KW_DEPTH, kw_depth, NEED | SQ, -1, "content: end within the first N bytes" },
	{ "distance", KW_DISTANCE, kw_distance, NEED | SQ, -1, "content: relative start" },
	{ "within", KW_WITHIN, kw_within, NEED | SQ, -1, "content: relative end" },
	{ "startswith", KW_STARTSWITH, kw_startswith, NA, -1, "content: at the buffer start" },
	{ "endswith", KW_ENDSWITH, kw_endswith, NA, -1, "content: at the buffer end" },
	{ "isdataat", KW_ISDATAAT, kw_isdataat, NEED | SQ, -1, "data present at offset" },
	{ "fast_pattern", KW_FAST_PATTERN, kw_fast_pattern, SQ, -1, "use this content for prefiltering" },
	{ "rawbytes", KW_RAWBYTES, kw_rawbytes, NA, -1, "content: raw packet bytes" },
	{ "dsize", KW_DSIZE, kw_dsize, NEED | SQ, -1, "payload size" },
	/* pcre.c */
	{ "pcre", KW_PCRE, kw_pcre, NEED, -1, "perl compatible regular expression" },
	/* byte.c */
	{ "byte_test", KW_BYTE_TEST, kw_byte_test, NEED | SQ, -1, "compare bytes to a value" },
	{ "byte_jump", KW_BYTE_JUMP, kw_byte_jump, NEED | SQ, -1, "move by a value read from the payload" },
	{ "byte_extract", KW_BYTE_EXTRACT, kw_byte_extract, NEED | SQ, -1, "read a value into a variable" },
	{ "byte_math", KW_BYTE_MATH, kw_byte_math, NEED | SQ, -1, "arithmetic on payload bytes" },
	/* flow-kw.c */
	{ "flow", KW_FLOW, kw_flow, NEED | SQ, -1, "flow direction and state" },
	/* flowbits.c */
	{ "flowbits", KW_FLOWBITS, kw_flowbits, NEED | SQ, -1, "flow bit set/check" },
	{ "hostbits", KW_HOSTBITS, kw_hostbits, NEED | SQ, -1, "host bit set/check" },
	{ "flowint", KW_FLOWINT, kw_flowint, NEED | SQ, -1, "flow integer variables" },
	/* threshold.c */
	{ "threshold", KW_THRESHOLD, kw_threshold, NEED | SQ, -1, "alert thresholding" },
	{ "detection_filter", KW_DETECTION_FILTER, kw_detection_filter, NEED | SQ, -1, "alert after N matches" },
	/* tag.c */
	{ "tag", KW_TAG, kw_tag, NEED | SQ, -1, "log the packets after an alert (session or host)" },
	/* app-event.c */
	{ "app-layer-event", KW_APP_LAYER_EVENT, kw_app_layer_event, NEED | SQ, -1, "match an app-layer parser event" },
	/* stream-kw.c */
	{ "stream_size", KW_STREAM_SIZE, kw_stream_size, NEED | SQ, -1, "tcp stream size (next seq - isn)" },
	{ "stream-event", KW_STREAM_EVENT, kw_stream_event, NEED | SQ, -1, "match a stream engine event" },
	/* ip-kw.c */
	{ "ttl", KW_TTL, kw_ttl, NEED | SQ, -1, "ip ttl" },
	{ "tos", KW_TOS, kw_tos, NEED | SQ, -1, "ip tos" },
	{ "id", KW_ID, kw_id, NEED | SQ, -1, "ip id" },
	{ "ipopts", KW_IPOPTS, kw_ipopts, NEED | SQ, -1, "ip options" },
	{ "fragbits", KW_FRAGBITS, kw_fragbits, NEED | SQ, -1, "ip fragment bits" },
	{ "fragoffset", KW_FRAGOFFSET, kw_fragoffset, NEED | SQ, -1, "ip fragment offset" },
	{ "ip_proto", KW_IP_PROTO, kw_ip_proto, NEED | SQ, -1, "ip protocol" },
	{ "sameip", KW_SAMEIP, kw_sameip, NA, -1, "source equals destination" },
	/* tcp-kw.c */
	{ "flags", KW_FLAGS, kw_flags, NEED | SQ, -1, "tcp flags" },
	{ "tcp.flags", KW_FLAGS, kw_flags, NEED | SQ, -1, "tcp flags" },
	{ "seq", KW_SEQ, kw_seq, NEED | SQ, -1, "tcp sequence number" },
	{ "tcp.seq", KW_SEQ, kw_seq, NEED | SQ, -1, "tcp sequence number" },
	{ "ack", KW_ACK, kw_ack, NEED | SQ, -1, "tcp acknowledgement number" },
	{ "tcp.ack", KW_ACK, kw_ack, NEED | SQ, -1, "tcp acknowledgement number" },
	{ "window", KW_WINDOW, kw_window, NEED | SQ, -1, "tcp window" },
	{ "tcp.window", KW_WINDOW, kw_window, NEED | SQ, -1, "tcp window" },
	/* icmp-kw.c */
	{ "itype", KW_ITYPE, kw_itype, NEED | SQ, -1, "icmp type" },
	{ "icode", KW_ICODE, kw_icode, NEED | SQ, -1, "icmp code" },
	{ "icmp_id", KW_ICMP_ID, kw_icmp_id, NEED | SQ, -1, "icmp id" },
	{ "icmp_seq", KW_ICMP_SEQ, kw_icmp_seq, NEED | SQ, -1, "icmp sequence" },
	{ "icmpv6.mtu", KW_ICMPV6_MTU, kw_icmpv6_mtu, NEED | SQ, -1, "icmpv6 packet too big mtu" },
	/* http-kw.c: old-style content modifiers. Suricata's newer underscore
	 * names (http_header_names, http_accept, ...) are sticky buffers. */
	{ "http_uri", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_URI, "content modifier" },
	{ "http_raw_uri", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_RAW_URI, "content modifier" },
	{ "http_method", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_METHOD, "content modifier" },
	{ "http_header", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_HEADER, "content modifier" },
	{ "http_raw_header", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_RAW_HEADER, "content modifier" },
	{ "http_cookie", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_COOKIE, "content modifier" },
	{ "http_user_agent", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_USER_AGENT, "content modifier" },
	{ "http_host", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_HOST, "content modifier" },
	{ "http_raw_host", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_RAW_HOST, "content modifier" },
	{ "http_client_body", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_CLIENT_BODY, "content modifier" },
	{ "http_server_body", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_SERVER_BODY, "content modifier" },
	{ "http_stat_code", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_STAT_CODE, "content modifier" },
	{ "http_stat_msg", KW_HTTP_MODIFIER, kw_http_modifier, MOD, BUF_HTTP_STAT_MSG, "content modifier" },
	/* legacy names of sticky buffers */
	{ "http_request_line", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_REQUEST_LINE, "sticky buffer" },
	{ "http_response_line", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_RESPONSE_LINE, "sticky buffer" },
	{ "http_header_names", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_HEADER_NAMES, "sticky buffer" },
	{ "http_content_type", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_CONTENT_TYPE, "sticky buffer" },
	{ "http_content_len", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_CONTENT_LEN, "sticky buffer" },
	{ "http_accept", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_ACCEPT, "sticky buffer" },
	{ "http_accept_enc", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_ACCEPT_ENC, "sticky buffer" },
	{ "http_accept_lang", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_ACCEPT_LANG, "sticky buffer" },
	{ "http_connection", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_CONNECTION, "sticky buffer" },
	{ "http_referer", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_REFERER, "sticky buffer" },
	{ "http_protocol", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_PROTOCOL, "sticky buffer" },
	{ "http_start", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_START, "sticky buffer" },
	/* http-kw.c: sticky buffers */
	{ "http.uri", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_URI, "sticky buffer" },
	{ "http.uri.raw", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_RAW_URI, "sticky buffer" },
	{ "http.method", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_METHOD, "sticky buffer" },
	{ "http.header", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_HEADER, "sticky buffer" },
	{ "http.header.raw", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_RAW_HEADER, "sticky buffer" },
	{ "http.cookie", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_COOKIE, "sticky buffer" },
	{ "http.user_agent", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_USER_AGENT, "sticky buffer" },
	{ "http.host", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_HOST, "sticky buffer" },
	{ "http.host.raw", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_RAW_HOST, "sticky buffer" },
	{ "http.request_body", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_CLIENT_BODY, "sticky buffer" },
	{ "http.response_body", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_SERVER_BODY, "sticky buffer" },
	{ "file_data", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_FILE_DATA, "sticky buffer" },
	{ "file.data", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_FILE_DATA, "sticky buffer" },
	{ "http.stat_code", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_STAT_CODE, "sticky buffer" },
	{ "http.stat_msg", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_STAT_MSG, "sticky buffer" },
	{ "http.request_line", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_REQUEST_LINE, "sticky buffer" },
	{ "http.response_line", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_RESPONSE_LINE, "sticky buffer" },
	{ "http.header_names", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_HEADER_NAMES, "sticky buffer" },
	{ "http.content_type", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_CONTENT_TYPE, "sticky buffer" },
	{ "http.content_len", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_CONTENT_LEN, "sticky buffer" },
	{ "http.accept", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_ACCEPT, "sticky buffer" },
	{ "http.accept_enc", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_ACCEPT_ENC, "sticky buffer" },
	{ "http.accept_lang", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_ACCEPT_LANG, "sticky buffer" },
	{ "http.connection", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_CONNECTION, "sticky buffer" },
	{ "http.referer", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_REFERER, "sticky buffer" },
	{ "http.protocol", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_PROTOCOL, "sticky buffer" },
	{ "http.start", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_START, "sticky buffer" },
	{ "http.location", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_LOCATION, "sticky buffer" },
	{ "http.server", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_SERVER, "sticky buffer" },
	{ "http.request_header", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_REQUEST_HEADER, "sticky buffer" },
	{ "http.response_header", KW_HTTP_STICKY, kw_http_sticky, STICKY, BUF_HTTP_RESPONSE_HEADER, "sticky buffer" },
	{ "ipv4.hdr", KW_HDR_STICKY, kw_hdr_sticky, STICKY, BUF_IPV4_HDR, "sticky buffer" },
	{ "ipv6.hdr", KW_HDR_STICKY, kw_hdr_sticky, STICKY, BUF_IPV6_HDR, "sticky buffer" },
	{ "tcp.hdr", KW_HDR_STICKY, kw_hdr_sticky, STICKY, BUF_TCP_HDR, "sticky buffer" },
	{ "udp.hdr", KW_HDR_STICKY, kw_hdr_sticky, STICKY, BUF_UDP_HDR, "sticky buffer" },
	{ "icmpv4.hdr", KW_HDR_STICKY, kw_hdr_sticky, STICKY, BUF_ICMPV4_HDR, "sticky buffer" },
	{ "icmpv6.hdr", KW_HDR_STICKY, kw_hdr_sticky, STICKY, BUF_ICMPV6_HDR, "sticky buffer" },
	{ "vlan.id", KW_VLAN_ID, kw_vlan_id, NEED | SQ, -1, "vlan id at a layer" },
	{ "vlan.layers", KW_VLAN_LAYERS, kw_vlan_layers, NEED | SQ, -1, "number of vlan layers" },
	{ "tcp.mss", KW_TCP_MSS, kw_tcp_mss, NEED | SQ, -1, "tcp mss option value" },
	{ "flow.pkts", KW_FLOW_COUNT, kw_flow_count, NEED | SQ, 0, "flow packet count" },
	{ "flow.bytes", KW_FLOW_COUNT, kw_flow_count, NEED | SQ, 1, "flow byte count" },
	{ "flow.pkts_toserver", KW_FLOW_COUNT, kw_flow_count, NEED | SQ, 2, "flow packets to server" },
	{ "flow.pkts_toclient", KW_FLOW_COUNT, kw_flow_count, NEED | SQ, 3, "flow packets to client" },
	{ "flow.bytes_toserver", KW_FLOW_COUNT, kw_flow_count, NEED | SQ, 4, "flow bytes to server" },
	{ "flow.bytes_toclient", KW_FLOW_COUNT, kw_flow_count, NEED | SQ, 5, "flow bytes to client" },
	{ "ipv4-csum", KW_CSUM, kw_csum, NEED | SQ, 0, "ipv4 header checksum valid/invalid" },
	{ "tcpv4-csum", KW_CSUM, kw_csum, NEED | SQ, 1, "tcp/ipv4 checksum valid/invalid" },
	{ "tcpv6-csum", KW_CSUM, kw_csum, NEED | SQ, 2, "tcp/ipv6 checksum valid/invalid" },
	{ "udpv4-csum", KW_CSUM, kw_csum, NEED | SQ, 3, "udp/ipv4 checksum valid/invalid" },
	{ "udpv6-csum", KW_CSUM, kw_csum, NEED | SQ, 4, "udp/ipv6 checksum valid/invalid" },
	{ "icmpv4-csum", KW_CSUM, kw_csum, NEED | SQ, 5, "icmpv4 checksum valid/invalid" },
	{ "icmpv6-csum", KW_CSUM, kw_csum, NEED | SQ, 6, "icmpv6 checksum valid/invalid" },
	{ "decode-event", KW_DECODE_EVENT, kw_decode_event, NEED | SQ, -1, "match on a decoder event" },
	{ "prefilter", KW_PREFILTER, kw_prefilter, NA, -1, "use this rule's keyword as prefilter (accepted, not used)" },
	{ "pkt_data", KW_PKT_DATA, kw_pkt_data, NA, BUF_PAYLOAD, "back to the packet payload" },
	{ "urilen", KW_URILEN, kw_urilen, NEED | SQ, -1, "http uri length" },
	{ "http.uri.len", KW_URILEN, kw_urilen, NEED | SQ, -1, "http uri length" },
	{ "bsize", KW_BSIZE, kw_bsize, NEED | SQ, -1, "size of the sticky buffer" },
	/* transform.c: kw->buf is the transform kind */
	{ "dotprefix", KW_TRANSFORM, kw_transform, NA, TR_DOTPREFIX, "transform: prepend a dot" },
	{ "strip_whitespace", KW_TRANSFORM, kw_transform, NA, TR_STRIP_WHITESPACE, "transform: remove whitespace" },
	{ "compress_whitespace", KW_TRANSFORM, kw_transform, NA, TR_COMPRESS_WHITESPACE, "transform: one whitespace per run" },
	{ "to_lowercase", KW_TRANSFORM, kw_transform, NA, TR_TO_LOWERCASE, "transform: lowercase" },
	{ "to_uppercase", KW_TRANSFORM, kw_transform, NA, TR_TO_UPPERCASE, "transform: uppercase" },
	{ "url_decode", KW_TRANSFORM, kw_transform, NA, TR_URL_DECODE, "transform: decode %XX and +" },
	{ "xor", KW_TRANSFORM, kw_transform, NEED | SQ, TR_XOR, "transform: xor with a hex key" },
	{ "header_lowercase", KW_TRANSFORM, kw_transform, NA, TR_HEADER_LOWERCASE, "transform: lowercase header names" },
	{ "strip_pseudo_headers", KW_TRANSFORM, kw_transform, NA, TR_STRIP_PSEUDO_HEADERS, "transform: drop :pseudo headers" },
	{ "pcrexform", KW_TRANSFORM, kw_transform, NEED | SQ, TR_PCREXFORM, "transform: the regex's first capture" },
	{ "from_base64", KW_TRANSFORM, kw_transform, SQ, TR_FROM_BASE64, "transform: base64 decode" },
	{ "base64_decode", KW_BASE64_DECODE, kw_base64_decode, SQ, -1, "decode base64 data for base64_data" },
	{ "base64_data", KW_BASE64_DATA, kw_base64_data, NA, -1, "the data base64_decode decoded" },
};

#define NKW ((int)(sizeof(table) / sizeof(table[0])))

static const Keyword *sorted[NKW];
static pthread_once_t sorted_once = PTHREAD_ONCE_INIT;

static int kw_cmp(const void *a, const void *b)
{
	return strcasecmp((*(const Keyword *const *)a)->name, (*(const Keyword *const *)b)->name);
}

static void sort_table(void)
{
	for (int i = 0; i < NKW; i++)
		sorted[i] = &table[i];
	qsort(sorted, NKW, sizeof(sorted[0]), kw_cmp);
}

/* Keyword names are case-insensitive, as in Suricata. */
const Keyword *keyword_find(const char *name)
{
	int lo = 0, hi = NKW - 1;

	pthread_once(&sorted_once, sort_table);
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		int c = strcasecmp(name, sorted[mid]->name);

		if (c == 0)
			return sorted[mid];
		if (c < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return NULL;
}

void keyword_ctx_free(int kw, void *ctx)
{
	if (!ctx)
		return;
	switch (kw) {
	case KW_CONTENT: {
		DetectContent *cd = ctx;

		free(cd->pat);
		break;
	}
	case KW_PCRE: {
		DetectPcre *pd = ctx;

		pcre2_code_free(pd->code);
		free(pd->pattern);
		break;
	}
	case KW_HOSTBITS:
	case KW_FLOWBITS: {
		DetectFlowbits *fb = ctx;

		for (int i = 0; i < fb->n; i++)
			free(fb->names[i]);
		free(fb->names);
		break;
	}
	case KW_FLOWINT: {
		DetectFlowint *fi = ctx;

		free(fi->name);
		free(fi->value_var);
		break;
	}
	}
	free(ctx);
}

void keywords_list(FILE *out)
{
	pthread_once(&sorted_once, sort_table);
	for (int i = 0; i < NKW; i++) {
		const Keyword *k = sorted[i];

		fprintf(out, "%s:\n", k->name);
		if (k->flags & KWF_STICKY)
			fprintf(out, "  Description: %s (%s)\n  Features: sticky buffer\n",
				k->desc, sig_buffer_name(k->buf));
		else if (k->flags & KWF_CONTENT_MOD)
			fprintf(out, "  Description: %s (%s)\n  Features: content modifier\n",
				k->desc, sig_buffer_name(k->buf));
		else
			fprintf(out, "  Description: %s\n", k->desc);
	}
}
