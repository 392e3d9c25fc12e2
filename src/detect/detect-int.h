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
#define KWF_TX           (1u << 5)   /* SM_LIST_MATCH keyword on a transaction
                                      * (DetectThread.tx): a transaction rule */
#define KWF_ID_ONLY      (1u << 6)   /* a second id of a keyword listed under its
                                      * name already: found by id only */

/* Shorthands for the families' tables. */
#define NA KWF_NOARG
#define NEED KWF_NEEDARG
#define SQ KWF_STRIP_QUOTES
#define MOD (KWF_CONTENT_MOD | KWF_NOARG)
#define STICKY (KWF_STICKY | KWF_NOARG)

struct DetectThread;
struct Packet;
struct InspectBuffer;

/* The transaction a rule is evaluated on, for the transaction property
 * keywords (Keyword.tx_match): made on tx-inspect.c's stack per rule;
 * tx NULL outside a transaction (a packet or stream rule). */
typedef struct DetectTx {
	void *tx;
	int side;                 /* APP_DIR_*: the side the rule is evaluated on */
	/* a file rule evaluated on one file (tx-inspect.c): file_idx of side
	 * file_side's files; the file keywords read that file only */
	int per_file;
	int file_side;
	uint32_t file_idx;
} DetectTx;

/* A buffer keyword's step in its list's chain (detect/inspect.h). */
typedef int (*InspectStepFn)(struct DetectThread *dt, const Signature *s,
			     const SigMatchList *ml, int idx, const struct InspectBuffer *b,
			     uint32_t prev);

/* One rule keyword: an entry of its family's table (the registry is
 * keywords.c's list of tables). */
typedef struct Keyword {
	const char *name;
	int id;                   /* enum kw_id */
	int (*setup)(SigParseState *st, const char *arg, const struct Keyword *kw);
	uint32_t flags;
	int buf;                  /* http modifiers and sticky buffers */
	const char *desc;
	/* a packet / flow keyword (SM_LIST_MATCH): 1 when p matches m (the
	 * buffer keywords have .step instead). NULL: never matches in that
	 * list. */
	int (*match)(struct DetectThread *dt, const SigMatch *m, struct Packet *p);
	/* the same for a transaction property (KWF_TX): tx is the one being
	 * evaluated (tx->tx NULL outside one) */
	int (*tx_match)(const DetectTx *tx, const SigMatch *m, struct Packet *p);
	/* frees what the keyword's ctx owns (not ctx itself); NULL: nothing */
	void (*free)(void *ctx);
	/* a buffer keyword (content, pcre, byte_*, isdataat, bsize, ...): its
	 * step in a buffer list (detect/inspect.h); NULL: not one */
	InspectStepFn step;
	/* a buffer keyword that takes part in relative chains: 1 when m
	 * starts where the previous one of its list matched; NULL: neither
	 * starts nor ends one (bsize, urilen) */
	int (*relative)(const SigMatch *m);
} Keyword;

/* The families' keyword tables (each ends with { .name = NULL }), one per
 * family file; keywords.c lists them, one line per family. */
extern const Keyword
	meta_keywords[],
	content_keywords[],
	pcre_keywords[],
	byte_keywords[],
	flow_keywords[],
	flowbits_keywords[],
	threshold_keywords[],
	tag_keywords[],
	app_event_keywords[],
	stream_keywords[],
	ip_keywords[],
	tcp_keywords[],
	icmp_keywords[],
	http_keywords[],
	tls_keywords[],
	dns_keywords[],
	smtp_keywords[],
	ssh_keywords[],
	mqtt_keywords[],
	ftp_keywords[],
	dcerpc_keywords[],
	smb_keywords[],
	app_proto_keywords[],
	file_keywords[],
	asn1_keywords[],
	pkt_keywords[],
	transform_keywords[],
	frame_keywords[],
	sip_keywords[],
	mdns_keywords[],
	ldap_keywords[],
	krb5_keywords[],
	snmp_keywords[],
	pgsql_keywords[],
	websocket_keywords[],
	dhcp_keywords[],
	ntp_keywords[],
	dnp3_keywords[],
	rfb_keywords[],
	http2_keywords[],
	enip_keywords[],
	modbus_keywords[],
	ike_keywords[],
	nfs_keywords[],
	quic_keywords[],
	lua_keywords[],
	var_keywords[],
	entropy_keywords[],
	requires_keywords[],
	dataset_keywords[],
	iprep_keywords[],
	geoip_keywords[];

const Keyword *keyword_find(const char *name);
/* 1: a keyword of Suricata 8 this engine does not implement
 * (keywords-suricata.c): its rule is skipped, not an error. */
int keyword_is_suricatas(const char *name);
/* requires: the value of a rule's `requires` option checked against this
 * engine (requires-kw.c): 0 when it holds, else the rule is skipped
 * (sig_unsupported) or, malformed, an error (sig_error). */
int sig_requires(SigParseState *st, const char *val);

/* The entry of a keyword id (match, free), or NULL. */
const Keyword *keyword_by_id(int id);
/* The same once any keyword was looked up (every rule's were): for the
 * packet path, without the once-only check. */
extern const Keyword *keyword_ids[KW_MAX];
static inline const Keyword *keyword_by_id_built(int id)
{
	return keyword_ids[id];
}
/* Frees a SigMatch ctx of keyword id kw (its free, then ctx). */
void keyword_ctx_free(int kw, void *ctx);

/* Error helpers: write the reason, return -1. */
int sig_error(SigParseState *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int sig_unsupported(SigParseState *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends a match; returns its index or -1 on allocation failure. */
int sm_append(SigParseState *st, int list, int kw, void *ctx);
/* app-proto-kw.c: an app-layer-protocol match (its SigMatch ctx) followed by
 * the prefilter keyword. */
void app_layer_protocol_prefilter(void *ctx);
/* Parses arg as parse_uint_cmp() with max and appends it to list as keyword
 * kw; name is the keyword's in the error. Returns 0 or -1. */
int sm_append_uint(SigParseState *st, int list, int kw, const char *name, const char *arg,
		   uint64_t max);
/* A "[!]value" argument with blanks around: *negated, and the value as
 * [returned pointer, *end). */
const char *sig_arg_negation(const char *arg, int *negated, const char **end);
/* Appends a DetectUint "== v" (or "!= v", negated) to the match list as kw. */
int sm_append_uint_eq(SigParseState *st, int kw, uint64_t v, int negated);
/* Makes the rule an alproto rule for keyword kwname: it may not be another
 * protocol's rule already, and its protocol must be ip, tcp or, with udp_ok,
 * udp. needs ends the error, e.g. "an smb, tcp or ip" rule. 0 or -1. */
int sig_set_alproto_for(SigParseState *st, const char *kwname, uint16_t alproto, int udp_ok,
			const char *needs);
/* The same, then kw's buffer becomes the sticky buffer. */
int sig_app_sticky(SigParseState *st, const Keyword *kw, uint16_t alproto, int udp_ok,
		   const char *needs);
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
/* arg copied into buf[size] and split there as split_commas() does; -1 with
 * "invalid <name> "<arg>"" when it does not fit. */
int sig_split_arg(SigParseState *st, const char *name, const char *arg, char *buf, size_t size,
		  char **parts, int max);

/* Helpers the families share (each keyword's setup is static in its
 * family's file, reached through the family's table). */
/* content.c */
int content_decode(const char *in, uint8_t **out, uint16_t *outlen, int *negated,
		   char *err, size_t errlen);
/* Moves the last payload content into buffer `buf` (old-style modifier). */
int content_move_to_buffer(SigParseState *st, int buf, const char *kwname);
/* frame-kw.c: "<proto>.<frame>;" as frame:<proto>.<frame>; 1 when name is
 * not one */
int frame_keyword_shorthand(SigParseState *st, const char *name);
/* entropy-kw.c: Shannon entropy of d[0, len) in bits per byte */
double entropy_of(const uint8_t *d, uint32_t len);
/* var-kw.c: pcre captures into flow/packet variables, from named groups
 * (flow_x, pkt_x) and the list after the flags (spec, may be NULL) */
int pcre_captures_parse(SigParseState *st, DetectPcre *pd, const char *spec);
void pcre_captures_free(DetectPcre *pd);
/* transform.c */
/* Selects sticky buffer buf: the list of its instance without transforms. */
int sig_select_buffer(SigParseState *st, int buf);
/* => rules: the side (DBUF_TS/DBUF_TC) the sticky buffer in force reads. */
int sig_buffer_side(SigParseState *st, int side);
void sig_xform_free(struct SigXform *xf);
/* http-kw.c */
/* Marks the rule as HTTP; error if the rule's protocol cannot carry it. */
int sig_set_alproto_http(SigParseState *st);

/* address.c / port.c: parse a header field, resolving $VARS from the config
 * tree. Return 0, or -1 with the reason in err. */
int addrset_parse(const char *str, AddrSet *out, char *err, size_t errlen);
int portset_parse(const char *str, PortSet *out, char *err, size_t errlen);

#endif
