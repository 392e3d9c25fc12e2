/* Internals shared by the rule parser and its keyword files. Not for other
 * subsystems: they use detect-parse.h. */
#ifndef DETECT_DETECT_INT_H
#define DETECT_DETECT_INT_H

#include "detect/detect-parse.h"

#include <stdarg.h>

/* State of one rule while its options are parsed. */
typedef struct SigParseState {
	Signature *s;
	const DetectContext *ctx;
	int cur_buf;              /* sticky buffer in force, -1 if none */
	DetectContent *last_cd;   /* most recent content, in any list */
	int last_cd_list;
	int last_inspect_list;    /* list of the most recent content/pcre/byte/isdataat */
	char *err; size_t errlen;
	int code;                 /* SIG_ERR_PARSE / SIG_ERR_UNSUPPORTED */
	int seen_sid, seen_rev, seen_gid, seen_prio, seen_class, seen_msg;
	int seen_flow, seen_dsize, seen_threshold, seen_df;
} SigParseState;

/* Keyword flags */
#define KWF_NOARG        (1u << 0)   /* takes no value */
#define KWF_NEEDARG      (1u << 1)   /* must have a value */
#define KWF_CONTENT_MOD  (1u << 2)   /* modifies the previous content */
#define KWF_STICKY       (1u << 3)   /* sticky buffer */
#define KWF_STRIP_QUOTES (1u << 4)   /* value may be wrapped in quotes */

typedef struct Keyword {
	const char *name;
	int id;                   /* enum kw_id */
	int (*setup)(SigParseState *st, const char *arg, const struct Keyword *kw);
	uint32_t flags;
	int buf;                  /* http modifiers and sticky buffers */
	const char *desc;
} Keyword;

const Keyword *keyword_find(const char *name);
void keyword_ctx_free(int kw, void *ctx);

/* Error helpers: write the reason, return -1. */
int sig_error(SigParseState *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int sig_unsupported(SigParseState *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends a match; returns its index or -1 on allocation failure. */
int sm_append(SigParseState *st, int list, int kw, void *ctx);
/* The list new payload keywords go to: sticky buffer, else payload. */
int sig_cur_list(const SigParseState *st);
/* Last content in a list, or NULL. */
DetectContent *sig_last_content_in(Signature *s, int list, int *idx);

/* Number parsing: whole string, optional surrounding blanks. */
int parse_u64(const char *s, uint64_t *out);
int parse_i64(const char *s, int64_t *out);
/* Generic integer comparison "N", "<N", ">=N", "!N", "N-M", "N<>M". */
int parse_uint_cmp(const char *s, uint64_t max, DetectUint *out);
/* Index of a byte_extract/byte_math variable, or -1. */
int sig_var_find(const Signature *s, const char *name);
int sig_var_add(Signature *s, const char *name);
/* Copies arg into buf, trimming blanks and one pair of surrounding quotes. */
char *str_trim_dup(const char *s, int strip_quotes);
char *str_trim(char *s);
/* Splits a copy of s on commas (in place); returns count, fills up to max. */
int split_commas(char *s, char **out, int max);

/* Keyword setups, by family. */
/* meta.c */
int kw_msg(SigParseState *, const char *, const Keyword *);
int kw_sid(SigParseState *, const char *, const Keyword *);
int kw_rev(SigParseState *, const char *, const Keyword *);
int kw_gid(SigParseState *, const char *, const Keyword *);
int kw_classtype(SigParseState *, const char *, const Keyword *);
int kw_priority(SigParseState *, const char *, const Keyword *);
int kw_reference(SigParseState *, const char *, const Keyword *);
int kw_metadata(SigParseState *, const char *, const Keyword *);
int kw_target(SigParseState *, const char *, const Keyword *);
int kw_noalert(SigParseState *, const char *, const Keyword *);
/* content.c */
int kw_content(SigParseState *, const char *, const Keyword *);
int kw_uricontent(SigParseState *, const char *, const Keyword *);
int kw_nocase(SigParseState *, const char *, const Keyword *);
int kw_offset(SigParseState *, const char *, const Keyword *);
int kw_depth(SigParseState *, const char *, const Keyword *);
int kw_distance(SigParseState *, const char *, const Keyword *);
int kw_within(SigParseState *, const char *, const Keyword *);
int kw_startswith(SigParseState *, const char *, const Keyword *);
int kw_endswith(SigParseState *, const char *, const Keyword *);
int kw_isdataat(SigParseState *, const char *, const Keyword *);
int kw_fast_pattern(SigParseState *, const char *, const Keyword *);
int kw_rawbytes(SigParseState *, const char *, const Keyword *);
int kw_dsize(SigParseState *, const char *, const Keyword *);
int content_decode(const char *in, uint8_t **out, uint16_t *outlen, int *negated,
		   char *err, size_t errlen);
/* Moves the last payload content into buffer `buf` (old-style modifier). */
int content_move_to_buffer(SigParseState *st, int buf, const char *kwname);
/* pcre.c */
int kw_pcre(SigParseState *, const char *, const Keyword *);
/* byte.c */
int kw_byte_test(SigParseState *, const char *, const Keyword *);
int kw_byte_jump(SigParseState *, const char *, const Keyword *);
int kw_byte_extract(SigParseState *, const char *, const Keyword *);
int kw_byte_math(SigParseState *, const char *, const Keyword *);
/* flow-kw.c */
int kw_flow(SigParseState *, const char *, const Keyword *);
/* flowbits.c */
int kw_flowbits(SigParseState *, const char *, const Keyword *);
int kw_flowint(SigParseState *, const char *, const Keyword *);
int kw_hostbits(SigParseState *, const char *, const Keyword *);
/* threshold.c */
int kw_threshold(SigParseState *, const char *, const Keyword *);
int kw_detection_filter(SigParseState *, const char *, const Keyword *);
/* ip-kw.c */
int kw_ttl(SigParseState *, const char *, const Keyword *);
int kw_tos(SigParseState *, const char *, const Keyword *);
int kw_id(SigParseState *, const char *, const Keyword *);
int kw_ipopts(SigParseState *, const char *, const Keyword *);
int kw_fragbits(SigParseState *, const char *, const Keyword *);
int kw_fragoffset(SigParseState *, const char *, const Keyword *);
int kw_ip_proto(SigParseState *, const char *, const Keyword *);
int kw_sameip(SigParseState *, const char *, const Keyword *);
int kw_hdr_sticky(SigParseState *, const char *, const Keyword *);
int kw_prefilter(SigParseState *, const char *, const Keyword *);
int kw_decode_event(SigParseState *, const char *, const Keyword *);
/* pkt-kw.c */
int kw_vlan_id(SigParseState *, const char *, const Keyword *);
int kw_vlan_layers(SigParseState *, const char *, const Keyword *);
int kw_tcp_mss(SigParseState *, const char *, const Keyword *);
int kw_flow_count(SigParseState *, const char *, const Keyword *);
int kw_csum(SigParseState *, const char *, const Keyword *);
/* tag.c */
int kw_tag(SigParseState *, const char *, const Keyword *);
/* app-event.c */
int kw_app_layer_event(SigParseState *, const char *, const Keyword *);
/* stream-kw.c */
int kw_stream_size(SigParseState *, const char *, const Keyword *);
int kw_stream_event(SigParseState *, const char *, const Keyword *);
/* tcp-kw.c */
int kw_flags(SigParseState *, const char *, const Keyword *);
int kw_seq(SigParseState *, const char *, const Keyword *);
int kw_ack(SigParseState *, const char *, const Keyword *);
int kw_window(SigParseState *, const char *, const Keyword *);
/* icmp-kw.c */
int kw_itype(SigParseState *, const char *, const Keyword *);
int kw_icode(SigParseState *, const char *, const Keyword *);
int kw_icmp_id(SigParseState *, const char *, const Keyword *);
int kw_icmp_seq(SigParseState *, const char *, const Keyword *);
int kw_icmpv6_mtu(SigParseState *, const char *, const Keyword *);
/* http-kw.c */
int kw_http_modifier(SigParseState *, const char *, const Keyword *);
int kw_http_sticky(SigParseState *, const char *, const Keyword *);
int kw_pkt_data(SigParseState *, const char *, const Keyword *);
int kw_urilen(SigParseState *, const char *, const Keyword *);
int kw_bsize(SigParseState *, const char *, const Keyword *);
/* transform.c */
int kw_transform(SigParseState *, const char *, const Keyword *);
int kw_base64_decode(SigParseState *, const char *, const Keyword *);
int kw_base64_data(SigParseState *, const char *, const Keyword *);
/* Selects sticky buffer buf: the list of its instance without transforms. */
int sig_select_buffer(SigParseState *st, int buf);
void sig_xform_free(struct SigXform *xf);
/* Marks the rule as HTTP; error if the rule's protocol cannot carry it. */
int sig_set_alproto_http(SigParseState *st);

/* address.c / port.c: parse a header field, resolving $VARS from the config
 * tree. Return 0, or -1 with the reason in err. */
int addrset_parse(const char *str, AddrSet *out, char *err, size_t errlen);
int portset_parse(const char *str, PortSet *out, char *err, size_t errlen);

#endif
