/* The rule language: Suricata 8 rules parsed into Signature structs, and rule
 * files loaded into a SigTable with per-rule errors and a summary.
 *
 * A Signature keeps, per inspection list, the keywords that apply to it in rule
 * order ("sig matches"). Content-like keywords go to the list of the buffer
 * they inspect (payload, or one of the HTTP buffers); packet keywords (ttl,
 * flags, dsize, flow, flowbits isset, ...) to SM_LIST_MATCH; keywords acting
 * after a match (flowbits set, flowint =) to SM_LIST_POSTMATCH; threshold and
 * detection_filter to SM_LIST_THRESHOLD. The grouping / prefilter engine reads
 * these lists and the chosen fast pattern; this parser never inspects packets. */
#ifndef DETECT_DETECT_PARSE_H
#define DETECT_DETECT_PARSE_H

#include "app-layer/app-layer.h"

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

/* ---- inspection buffers and lists ---- */

/* Buffers a content can inspect. BUF_PAYLOAD is the packet payload and, later,
 * the reassembled stream (Suricata's pmatch list). Sticky-buffer keywords
 * (http.uri; file.data; ...) switch the current buffer; old-style modifiers
 * (content:"x"; http_uri;) move the previous content. */
enum sig_buffer {
	BUF_PAYLOAD = 0,
	BUF_HTTP_URI,
	BUF_HTTP_RAW_URI,
	BUF_HTTP_METHOD,
	BUF_HTTP_HEADER,
	BUF_HTTP_RAW_HEADER,
	BUF_HTTP_COOKIE,
	BUF_HTTP_USER_AGENT,
	BUF_HTTP_HOST,
	BUF_HTTP_RAW_HOST,
	BUF_HTTP_CLIENT_BODY,
	BUF_HTTP_SERVER_BODY,
	BUF_FILE_DATA,
	BUF_HTTP_STAT_CODE,
	BUF_HTTP_STAT_MSG,
	BUF_HTTP_REQUEST_LINE,
	BUF_HTTP_RESPONSE_LINE,
	BUF_HTTP_HEADER_NAMES,
	BUF_HTTP_CONTENT_TYPE,
	BUF_HTTP_CONTENT_LEN,
	BUF_HTTP_ACCEPT,
	BUF_HTTP_ACCEPT_ENC,
	BUF_HTTP_ACCEPT_LANG,
	BUF_HTTP_CONNECTION,
	BUF_HTTP_REFERER,
	BUF_HTTP_PROTOCOL,
	BUF_HTTP_START,
	BUF_HTTP_LOCATION,
	BUF_HTTP_SERVER,
	BUF_HTTP_REQUEST_HEADER,
	BUF_HTTP_RESPONSE_HEADER,
	BUF_TLS_SNI, BUF_TLS_CERT_SUBJECT, BUF_TLS_CERT_ISSUER, BUF_TLS_CERT_SERIAL, BUF_TLS_CERT_FINGERPRINT, BUF_TLS_CERTS, BUF_JA3_HASH, BUF_JA3_STRING, BUF_JA3S_HASH, BUF_JA3S_STRING, BUF_JA4_HASH, BUF_TLS_RANDOM, BUF_TLS_RANDOM_TIME, BUF_TLS_RANDOM_BYTES, BUF_TLS_ALPN, BUF_TLS_SAN,
	BUF_DNS_QUERY, BUF_DNS_QUERIES_RRNAME, BUF_DNS_ANSWERS_RRNAME, BUF_DNS_AUTHORITIES_RRNAME,
	BUF_DNS_ADDITIONALS_RRNAME, BUF_DNS_RESPONSE_RRNAME,
	BUF_SMTP_HELO, BUF_SMTP_MAIL_FROM, BUF_SMTP_RCPT_TO, BUF_EMAIL_FROM, BUF_EMAIL_SUBJECT, BUF_EMAIL_TO, BUF_EMAIL_CC, BUF_EMAIL_DATE, BUF_EMAIL_MESSAGE_ID, BUF_EMAIL_X_MAILER, BUF_EMAIL_RECEIVED, BUF_EMAIL_URL, BUF_EMAIL_BODY_MD5,
	BUF_SSH_PROTO, BUF_SSH_SOFTWARE, BUF_SSH_HASSH, BUF_SSH_HASSH_STRING, BUF_SSH_HASSH_SERVER, BUF_SSH_HASSH_SERVER_STRING,
	BUF_FTP_COMMAND, BUF_FTP_COMMAND_DATA, BUF_FTP_REPLY, BUF_FTP_COMPLETION_CODE,
	BUF_DCERPC_STUB_DATA,
	BUF_SMB_DCERPC_STUB_DATA,      /* dcerpc.stub_data of an smb rule (dcerpc-kw.c) */
	BUF_SMB_SHARE, BUF_SMB_NAMED_PIPE, BUF_SMB_NTLMSSP_USER, BUF_SMB_NTLMSSP_DOMAIN,
	BUF_MQTT_CONNECT_CLIENTID, BUF_MQTT_CONNECT_USERNAME, BUF_MQTT_CONNECT_PASSWORD, BUF_MQTT_CONNECT_WILLTOPIC, BUF_MQTT_CONNECT_WILLMESSAGE, BUF_MQTT_CONNECT_PROTOCOL_STRING, BUF_MQTT_PUBLISH_TOPIC, BUF_MQTT_PUBLISH_MESSAGE, BUF_MQTT_SUBSCRIBE_TOPIC, BUF_MQTT_UNSUBSCRIBE_TOPIC,
	BUF_SMB_FILE_NAME, BUF_SMB_FILE_MAGIC, BUF_SMB_FILE_DATA, /* file.* on SMB (file-kw.c) */
	/* detect/sip-kw.c: SIP messages and their SDP bodies */
	BUF_SIP_METHOD, BUF_SIP_URI, BUF_SIP_REQUEST_LINE, BUF_SIP_STAT_CODE, BUF_SIP_STAT_MSG,
	BUF_SIP_RESPONSE_LINE, BUF_SIP_PROTOCOL, BUF_SIP_FROM, BUF_SIP_TO, BUF_SIP_VIA,
	BUF_SIP_USER_AGENT, BUF_SIP_CONTENT_TYPE, BUF_SIP_CONTENT_LENGTH,
	BUF_SDP_ORIGIN, BUF_SDP_SESSION_NAME, BUF_SDP_SESSION_INFO, BUF_SDP_URI, BUF_SDP_EMAIL,
	BUF_SDP_PHONE_NUMBER, BUF_SDP_CONNECTION_DATA, BUF_SDP_BANDWIDTH, BUF_SDP_TIME,
	BUF_SDP_REPEAT_TIME, BUF_SDP_TIMEZONE, BUF_SDP_ENCRYPTION_KEY, BUF_SDP_ATTRIBUTE,
	BUF_SDP_MEDIA_MEDIA, BUF_SDP_MEDIA_SESSION_INFO, BUF_SDP_MEDIA_CONNECTION_DATA,
	BUF_SDP_MEDIA_ENCRYPTION_KEY,
	/* detect/mdns-kw.c */
	BUF_MDNS_QUERIES_RRNAME, BUF_MDNS_ANSWERS_RRNAME, BUF_MDNS_AUTHORITIES_RRNAME,
	BUF_MDNS_ADDITIONALS_RRNAME, BUF_MDNS_RESPONSE_RRNAME,
	BUF_LDAP_REQUEST_DN, BUF_LDAP_RESPONSES_DN, BUF_LDAP_RESPONSES_MESSAGE, /* ldap-kw.c */
	BUF_LDAP_REQUEST_ATTRIBUTE_TYPE, BUF_LDAP_RESPONSES_ATTRIBUTE_TYPE,
	BUF_KRB5_CNAME, BUF_KRB5_SNAME, /* krb5-kw.c */
	BUF_SNMP_COMMUNITY, BUF_SNMP_USM, BUF_SNMP_TRAP_OID, BUF_SNMP_TRAP_ADDRESS, /* snmp-kw.c */
	BUF_PGSQL_QUERY, /* pgsql-kw.c */
	BUF_WEBSOCKET_PAYLOAD, /* websocket-kw.c */
	BUF_NTP_REFERENCE_ID, /* ntp-kw.c */
	BUF_DNP3_DATA,      /* dnp3-kw.c */
	BUF_RFB_NAME,       /* rfb-kw.c */
	BUF_HTTP2_HEADER_NAME, BUF_HTTP2_HEADER, /* http2-kw.c */
	BUF_ENIP_PRODUCT_NAME, BUF_ENIP_SERVICE_NAME, /* enip-kw.c */
	BUF_IKE_INIT_SPI, BUF_IKE_RESP_SPI, BUF_IKE_VENDOR, BUF_IKE_KE, BUF_IKE_NONCE, /* ike-kw.c */
	BUF_QUIC_VERSION, BUF_QUIC_SNI, BUF_QUIC_UA, BUF_QUIC_CYU_HASH, BUF_QUIC_CYU_STRING, /* quic-kw.c */
	BUF_QUIC_JA3_HASH, BUF_QUIC_JA3_STRING, BUF_QUIC_JA3S_HASH, BUF_QUIC_JA3S_STRING, BUF_QUIC_JA4_HASH,
	BUF_FILE_NAME, BUF_FILE_MAGIC,   /* detect/file-kw.c: one entry per file */
	/* the file buffers of the other protocols that carry files: a buffer
	 * is one protocol's, so file_data / file.name / file.magic select the
	 * rule's protocol's own (file-kw.c) */
	BUF_FILE_DATA_SMTP, BUF_FILE_NAME_SMTP, BUF_FILE_MAGIC_SMTP,
	BUF_FILE_DATA_FTPDATA, BUF_FILE_NAME_FTPDATA, BUF_FILE_MAGIC_FTPDATA,
	BUF_FILE_DATA_NFS, BUF_FILE_NAME_NFS, BUF_FILE_MAGIC_NFS,
	/* further instances of an http buffer under other transforms than the
	 * first (Signature.xf says which buffer each one is: detect/transform.h) */
	BUF_HTTP_XINST0, BUF_HTTP_XINST1, BUF_HTTP_XINST2, BUF_HTTP_XINST3,
	/* packet header sticky buffers (ipv4.hdr, tcp.hdr, ...) */
	BUF_IPV4_HDR,
	BUF_IPV6_HDR,
	BUF_TCP_HDR,
	BUF_UDP_HDR,
	BUF_ICMPV4_HDR,
	BUF_ICMPV6_HDR,
	BUF_IP_SRC, BUF_IP_DST,     /* ip.src, ip.dst: the address, 4 or 16 bytes */
	BUF_ETHER_HDR,              /* ether.hdr: the capture's Ethernet header, 14 bytes */
	/* frame:<proto>.<type>: the bytes of an app-layer frame
	 * (app-layer/frames.h; Signature.frame_* say which) */
	BUF_FRAME,
	BUF_MAX
};
/* the packet header buffers are BUF_IPV4_HDR .. BUF_HDR_LAST */
#define BUF_HDR_LAST BUF_ETHER_HDR

/* Lists of a signature: one per buffer, then the non-buffer lists. */
enum {
	SM_LIST_MATCH = BUF_MAX,    /* packet / flow keywords */
	SM_LIST_POSTMATCH,          /* run after the signature matched */
	SM_LIST_THRESHOLD,          /* threshold, detection_filter */
	SM_LIST_BASE64_DATA,        /* base64_data: inspected by base64_decode */
	SM_LIST_MAX
};

const char *sig_buffer_name(int buf);   /* "payload", "http_uri", ... */
/* Fast-pattern priority of a buffer: lower is preferred (Suricata: http_*
 * buffers 2, payload 3, http_method / http_stat_code 4). */
int sig_buffer_fp_priority(int buf);
/* Direction the buffer belongs to: 1 to server, 2 to client, 3 both. */
int sig_buffer_direction(int buf);

/* Keyword ids: index into the keyword table (keywords.c). */
enum kw_id {
	KW_MSG, KW_SID, KW_REV, KW_GID, KW_CLASSTYPE, KW_PRIORITY, KW_REFERENCE,
	KW_METADATA, KW_TARGET, KW_NOALERT,
	KW_CONTENT, KW_URICONTENT, KW_NOCASE, KW_OFFSET, KW_DEPTH, KW_DISTANCE,
	KW_WITHIN, KW_STARTSWITH, KW_ENDSWITH, KW_ISDATAAT, KW_FAST_PATTERN,
	KW_RAWBYTES, KW_DSIZE,
	KW_PCRE,
	KW_BYTE_TEST, KW_BYTE_JUMP, KW_BYTE_EXTRACT, KW_BYTE_MATH,
	KW_FLOW, KW_FLOWBITS, KW_FLOWINT,
	KW_THRESHOLD, KW_DETECTION_FILTER,
	KW_TTL, KW_TOS, KW_ID, KW_IPOPTS, KW_FRAGBITS, KW_FRAGOFFSET, KW_IP_PROTO,
	KW_SAMEIP,
	KW_FLAGS, KW_SEQ, KW_ACK, KW_WINDOW,
	KW_ITYPE, KW_ICODE, KW_ICMP_ID, KW_ICMP_SEQ,
	KW_ICMPV6_MTU,
	KW_HTTP_MODIFIER,   /* old-style http_* content modifiers (one id, buffer in the table) */
	KW_HTTP_STICKY,     /* sticky buffers: http.uri, file.data, ... */
	KW_PKT_DATA,
	KW_URILEN,
	KW_HDR_STICKY,      /* ipv4.hdr, tcp.hdr, ...: packet header buffers */
	KW_PREFILTER,       /* prefilter: accepted, our prefilter choice stays */
	KW_DECODE_EVENT,    /* decode-event:ipv4.trunc_pkt (DetectUint, a = event id) */
	KW_VLAN_ID,         /* DetectVlanId */
	KW_VLAN_LAYERS,     /* DetectUint on the vlan count */
	KW_TCP_MSS,         /* DetectUint on the MSS option */
	KW_FLOW_COUNT,      /* flow.pkts / flow.bytes: DetectFlowCount */
	KW_CSUM,            /* ipv4-csum, tcpv4-csum, ...: DetectCsum */
	KW_HOSTBITS,        /* DetectFlowbits with host_dir set */
	KW_TAG,             /* tag:session|host,...: DetectTag (detect/tag.c) */
	KW_APP_LAYER_EVENT, /* app-layer-event:http.<event> (detect/app-event.c) */
	KW_BSIZE,           /* bsize: DetectUint on the sticky buffer's length */
	KW_TRANSFORM,       /* to_lowercase, url_decode, ...: detect/transform.c */
	KW_BASE64_DECODE,   /* base64_decode: DetectBase64 */
	KW_BASE64_DATA,     /* base64_data: sticky SM_LIST_BASE64_DATA */
	KW_STREAM_SIZE,     /* stream_size: DetectStreamSize (detect/stream-kw.c) */
	KW_STREAM_EVENT,    /* stream-event:<name>: DetectUint, a = enum stream_event */
	KW_TLS_STICKY, KW_TLS_MATCH, /* detect/tls-kw.c: sticky buffers; matchers (DetectTls) */
	KW_TLS_STORE,                /* detect/tls-kw.c: tls.store (postmatch) */
	KW_DNS_STICKY,      /* dns.query, dns.answers.rrname, ...: detect/dns-kw.c */
	KW_DNS_UINT,        /* dns.opcode, dns.rcode, dns.rrtype: DetectDnsUint (dns-kw.c) */
	KW_SMTP_STICKY,     /* smtp.helo, email.subject, ...: detect/smtp-kw.c */
	KW_SSH_STICKY, KW_SSH_VERSION, KW_SSH_STATE, /* detect/ssh-kw.c */
	KW_FTP_STICKY, KW_FTP_MATCH, KW_FTPBOUNCE, /* detect/ftp-kw.c */
	KW_SMB_STICKY, KW_SMB_VERSION, /* detect/smb-kw.c */
	KW_MQTT_STICKY, KW_MQTT_PROP, /* detect/mqtt-kw.c */
	KW_APP_LAYER_PROTOCOL, /* app-layer-protocol: DetectAppProto (detect/app-proto-kw.c) */
	KW_FILE_STICKY, KW_FILE_MATCH, KW_FILESTORE, /* detect/file-kw.c */
	KW_ASN1,            /* asn1: DetectAsn1 (detect/asn1-kw.c) */
	KW_DCERPC_STICKY, KW_DCERPC_IFACE, KW_DCERPC_OPNUM, /* detect/dcerpc-kw.c */
	KW_FRAME,           /* frame:<proto>.<type>: sticky BUF_FRAME (detect/frame-kw.c) */
	KW_SIP_STICKY,      /* sip.method, sdp.origin, ...: detect/sip-kw.c */
	KW_MDNS_STICKY,     /* mdns.queries.rrname, ...: detect/mdns-kw.c */
	KW_LDAP_STICKY, KW_LDAP_MATCH, /* detect/ldap-kw.c */
	KW_KRB5_STICKY, KW_KRB5_MATCH, /* detect/krb5-kw.c */
	KW_SNMP_STICKY, KW_SNMP_MATCH, /* detect/snmp-kw.c */
	KW_PGSQL_STICKY, /* detect/pgsql-kw.c */
	KW_WEBSOCKET_STICKY, KW_WEBSOCKET_PROP, /* detect/websocket-kw.c */
	KW_DHCP_TIME,       /* dhcp.leasetime, ...: detect/dhcp-kw.c */
	KW_NTP_STICKY, KW_NTP_MATCH, /* detect/ntp-kw.c */
	KW_DNP3_STICKY, KW_DNP3_MATCH, /* detect/dnp3-kw.c */
	KW_RFB_STICKY, KW_RFB_MATCH, /* detect/rfb-kw.c */
	KW_HTTP2_STICKY, KW_HTTP2_MATCH, /* detect/http2-kw.c */
	KW_ENIP_STICKY, KW_ENIP_MATCH, KW_ENIP_CIP_SERVICE, /* detect/enip-kw.c */
	KW_MODBUS,          /* modbus: DetectModbus (detect/modbus-kw.c) */
	KW_IKE_STICKY, KW_IKE_MATCH, /* detect/ike-kw.c */
	KW_NFS_MATCH,       /* nfs_procedure, nfs.version: detect/nfs-kw.c */
	KW_QUIC_STICKY,     /* quic.sni, ...: detect/quic-kw.c */
	KW_LUA,             /* lua, luajit (detect/lua-kw.c) */
	KW_REPLACE,         /* replace: parse only, Signature.repl (detect/content.c) */
	KW_BYPASS,          /* bypass: postmatch, the flow is bypassed (detect/flow-kw.c) */
	KW_CONFIG,          /* config: int CONFIG_* (detect/meta.c), postmatch */
	KW_FLOWVAR, KW_PKTVAR, /* flowvar/pktvar checks: DetectVarCheck (detect/var-kw.c) */
	KW_ABSENT,          /* absent[: or_else]: heads a sticky buffer's list (content.c) */
	KW_ENTROPY,         /* entropy: DetectEntropy (detect/entropy-kw.c) */
	KW_FLOW_AGE,        /* flow.age: DetectUint on the flow's age in seconds (flow-kw.c) */
	KW_APP_LAYER_PEVENT, /* app-layer-event:applayer_*: a packet's event (app-event.c) */
	KW_REQUIRES,        /* requires: checked first by sig_requires (requires-kw.c) */
	KW_DATASET, KW_DATAREP, /* dataset, datarep: DetectDataset (detect/dataset-kw.c) */
	KW_IPREP,           /* iprep: DetectIprep (detect/iprep-kw.c) */
	KW_GEOIP,           /* geoip: DetectGeoip (detect/geoip-kw.c) */
	KW_TCP_WSCALE,      /* tcp.wscale: DetectUint on the window scale option (pkt-kw.c) */
	KW_LUA_TX,          /* lua on a transaction: a KWF_TX match (detect/lua-kw.c) */
	KW_RPC,             /* rpc: program[, version|*[, procedure|*]] of a SunRPC call (pkt-kw.c) */
	KW_ALERT,           /* alert: SIG_FLAG_ALERT, a pass rule alerts too (meta.c) */
	KW_MAX
};

/* ---- keyword data ---- */

/* Generic integer comparison (ttl, dsize, itype, urilen, ...). */
enum uint_mode { UM_EQ, UM_NE, UM_LT, UM_LTE, UM_GT, UM_GTE, UM_RANGE, UM_NOT_RANGE,
		 UM_BAND_EQ, UM_BAND_NE };
typedef struct DetectUint {
	enum uint_mode mode;
	uint64_t a, b;      /* UM_RANGE: a < x < b (exclusive, as Suricata);
	                     * UM_BAND_*: (x & a) == b, != b */
} DetectUint;

/* An enumerated integer (websocket.opcode, mqtt.type, ldap operations...):
 * the integer syntax, or "[!]name" as equality (inequality) with the value
 * by_name gives (negative: no such name). 0 or -1. */
typedef int64_t (*uint_name_fn)(const char *name);
int parse_uint_enum(const char *s, uint64_t max, uint_name_fn by_name, DetectUint *out);

#define CONTENT_NOCASE         (1u << 0)
#define CONTENT_NEGATED        (1u << 1)
#define CONTENT_OFFSET         (1u << 2)
#define CONTENT_DEPTH          (1u << 3)
#define CONTENT_DISTANCE       (1u << 4)
#define CONTENT_WITHIN         (1u << 5)
#define CONTENT_FAST_PATTERN   (1u << 6)   /* explicit fast_pattern */
#define CONTENT_FP_ONLY        (1u << 7)
#define CONTENT_FP_CHOP        (1u << 8)
#define CONTENT_RAWBYTES       (1u << 9)
#define CONTENT_STARTSWITH     (1u << 10)
#define CONTENT_ENDSWITH       (1u << 11)
#define CONTENT_OFFSET_VAR     (1u << 12)  /* value is a byte_extract variable */
#define CONTENT_DEPTH_VAR      (1u << 13)
#define CONTENT_DISTANCE_VAR   (1u << 14)
#define CONTENT_WITHIN_VAR     (1u << 15)
#define CONTENT_MPM            (1u << 16)  /* chosen as the signature's fast pattern */

typedef struct DetectContent {
	uint8_t *pat;
	uint16_t len;
	uint32_t flags;
	/* offset/distance/within as written (distance may be negative).
	 * depth is stored as Suricata uses it: the absolute end from the buffer
	 * start, i.e. offset + depth as written. *_VAR flags: the field holds
	 * the index of a byte_extract variable instead. */
	int32_t offset, depth, distance, within;
	uint16_t fp_chop_offset, fp_chop_len;
} DetectContent;

#define PCRE_RELATIVE   (1u << 0)
#define PCRE_NEGATED    (1u << 1)
#define PCRE_RAWBYTES   (1u << 2)
#define PCRE_CASELESS   (1u << 3)
#define PCRE_NO_LIMIT   (1u << 4)   /* /O: not held to pcre.match-limit(-recursion) */
/* A pcre capture kept as a variable (detect/var-kw.c) */
#define PCRE_CAPS_MAX 8
#define PCRE_CAP_GROUP_MAX 16     /* groups beyond the thread's match data */
typedef struct DetectPcreCap {
	uint8_t group;       /* capture group number */
	uint8_t flow;        /* 1 flowvar, 0 pktvar */
	char *name;
} DetectPcreCap;
typedef struct DetectPcre {
	void *code;          /* pcre2_code *, JIT compiled */
	char *pattern;       /* as written, for dumps */
	uint32_t flags;
	uint32_t pcre2_opts;
	DetectPcreCap *caps; /* captures kept as variables; NULL: none */
	int ncaps;
} DetectPcre;

/* flowvar:<name>,<content> / pktvar: the variable holds pat */
typedef struct DetectVarCheck {
	char *name;
	uint8_t *pat;
	uint16_t len;
} DetectVarCheck;

#define ISDATAAT_RELATIVE  (1u << 0)
#define ISDATAAT_NEGATED   (1u << 1)
#define ISDATAAT_RAWBYTES  (1u << 2)
#define ISDATAAT_VAR       (1u << 3)
typedef struct DetectIsdataat {
	uint32_t flags;
	uint16_t dataat;
} DetectIsdataat;

/* byte_* shared option bits */
#define BYTE_RELATIVE      (1u << 0)
#define BYTE_LITTLE        (1u << 1)
#define BYTE_BIG           (1u << 2)
#define BYTE_DCE           (1u << 3)
#define BYTE_STRING        (1u << 4)
#define BYTE_ALIGN         (1u << 5)
#define BYTE_FROM_BEGIN    (1u << 6)
#define BYTE_FROM_END      (1u << 7)
#define BYTE_NEGATED       (1u << 8)
#define BYTE_BITMASK       (1u << 9)
#define BYTE_VALUE_VAR     (1u << 10)  /* value / rvalue is a variable index */
#define BYTE_OFFSET_VAR    (1u << 11)
#define BYTE_NBYTES_VAR    (1u << 12)

enum byte_base { BASE_DEC = 10, BASE_HEX = 16, BASE_OCT = 8 };
typedef struct DetectByte {
	int kind;            /* KW_BYTE_TEST / _JUMP / _EXTRACT / _MATH */
	uint32_t flags;
	uint8_t nbytes;
	int32_t offset;
	enum byte_base base;
	char op[3];          /* byte_test: < > = <= >= & ^ ; byte_math: + - * / << >> */
	uint64_t value;      /* byte_test value, byte_math rvalue */
	uint32_t multiplier; /* jump, extract */
	int32_t post_offset; /* jump */
	uint32_t bitmask;
	uint8_t align;       /* extract: align 2|4; jump: 4 when BYTE_ALIGN */
	int16_t var_idx;     /* extract/math: index of the variable written */
} DetectByte;

#define FLOW_TOSERVER        (1u << 0)
#define FLOW_TOCLIENT        (1u << 1)
#define FLOW_ESTABLISHED     (1u << 2)
#define FLOW_NOT_ESTABLISHED (1u << 3)
#define FLOW_STATELESS       (1u << 4)
#define FLOW_ONLY_STREAM     (1u << 5)
#define FLOW_NO_STREAM       (1u << 6)
#define FLOW_ONLY_FRAG       (1u << 7)
#define FLOW_NO_FRAG         (1u << 8)
typedef struct DetectFlow {
	uint32_t flags;
} DetectFlow;

/* KW_CONFIG's setting: the matched transaction gets no eve record */
#define CONFIG_TX_NO_LOG 1
/* DetectFlowbits.host_dir: whose bits (SRC | DST: both addresses) */
#define HOSTBITS_SRC  1
#define HOSTBITS_DST  2
#define HOSTBITS_PAIR 4      /* xbits track ip_pair: the two addresses together */
/* hostbits and xbits without expire: Suricata 8's default */
#define HOSTBITS_EXPIRE_DEFAULT 30
enum flowbits_cmd { FB_SET, FB_ISSET, FB_ISNOTSET, FB_UNSET, FB_TOGGLE };
typedef struct DetectFlowbits {
	enum flowbits_cmd cmd;
	int or_group;        /* names joined by '|': any of them (isset/isnotset) */
	int n;
	char **names;        /* the engine maps names to ids at build time */
	int *ids;            /* engine-owned: names[i] -> flowbit id (detect/build-order.c) */
	int host_dir;        /* KW_HOSTBITS: HOSTBITS_* (0 for flowbits) */
	uint32_t expire;     /* KW_HOSTBITS: seconds a set lasts (packet time) */
} DetectFlowbits;

enum flowint_op { FI_ADD, FI_SUB, FI_SET, FI_EQ, FI_NE, FI_LT, FI_LE, FI_GT,
		  FI_GE, FI_ISSET, FI_NOTSET };
typedef struct DetectFlowint {
	char *name;
	enum flowint_op op;
	char *value_var;     /* value is another flowint, or NULL */
	uint32_t value;
	int id, var_id;      /* engine-owned: flowint ids of name / value_var */
} DetectFlowint;

enum thr_type { THR_LIMIT, THR_THRESHOLD, THR_BOTH, THR_DETECTION_FILTER, THR_BACKOFF,
		THR_RATE };
enum thr_track { TRACK_SRC, TRACK_DST, TRACK_RULE, TRACK_BOTH, TRACK_FLOW };
typedef struct DetectThreshold {
	enum thr_type type;
	enum thr_track track;
	uint32_t count, seconds;
	uint32_t multiplier;  /* backoff: alert at count, count*m, count*m*m, ... */
	/* rate_filter (threshold.config): past count matches within seconds
	 * the rule's action is new_action (ALERT_ACTION_*) for timeout seconds */
	uint8_t new_action;
	uint32_t timeout;
} DetectThreshold;

#define FLAGS_MOD_PLUS   1   /* + : these and any others */
#define FLAGS_MOD_ANY    2   /* * : any of these */
#define FLAGS_MOD_NOT    3   /* ! : none of these */
typedef struct DetectTcpFlags {
	uint8_t flags;       /* TH_FIN.. as on the wire: F=1 S=2 R=4 P=8 A=16 U=32 C(2)=128 E(1)=64 */
	uint8_t mask;        /* bits to ignore */
	int modifier;        /* 0 = exactly these */
} DetectTcpFlags;

typedef struct DetectFragbits {
	uint16_t bits;       /* IP flags bits: R 0x8000, D 0x4000, M 0x2000 */
	int modifier;
} DetectFragbits;

typedef struct DetectIpProto {
	int mode;            /* 0 eq, '!' ne, '<', '>' */
	uint8_t proto;
} DetectIpProto;

typedef struct DetectUrilen {
	DetectUint u;
	int raw;             /* urilen:..,raw */
} DetectUrilen;

#define VLAN_LAYER_ANY  (-100)   /* any layer matches */
#define VLAN_LAYER_ALL  (-101)   /* every layer must match */
typedef struct DetectVlanId {
	DetectUint u;
	int layer;           /* 0.., -1 last, -2 second to last, or VLAN_LAYER_* */
} DetectVlanId;

typedef struct DetectFlowCount {
	DetectUint u;
	int dir;             /* 1 toserver, 2 toclient, 3 either */
	int bytes;           /* flow.bytes (else flow.pkts) */
} DetectFlowCount;

typedef struct DetectStreamSize {
	DetectUint u;        /* UM_LT, UM_LTE, UM_GT, UM_GTE, UM_EQ, UM_NE */
	int side;            /* server, client, both, either (stream-kw.c) */
} DetectStreamSize;

typedef struct DetectCsum {
	int proto;           /* 0 IPv4 header, else IPPROTO_TCP/UDP/ICMP/ICMPV6 */
	int ip_version;      /* 4 or 6 (0: either) */
	int invalid;         /* match a bad checksum (else a good one) */
} DetectCsum;

typedef struct SigMatch {
	int kw;              /* enum kw_id */
	int relative_next;   /* the next match in this list is relative to this one */
	union {
		void *ctx;
		DetectContent *cd;
		DetectPcre *pd;
	};
} SigMatch;

typedef struct SigMatchList {
	SigMatch *m;
	int n, cap;
} SigMatchList;

/* ---- header ---- */

enum sig_action { ACT_ALERT, ACT_PASS, ACT_DROP, ACT_REJECT, ACT_REJECTSRC,
		  ACT_REJECTDST, ACT_REJECTBOTH,
		  ACT_CONFIG };  /* applies its config keyword, never alerts */

/* Address sets: sorted, disjoint, inclusive ranges per family. IPv4
 * ranges are host-order 32-bit values (a rule header check per candidate
 * rule: no 128-bit compares for the common family); IPv6 ones 128-bit. */
typedef unsigned __int128 u128;
typedef struct AddrRange { u128 lo, hi; } AddrRange;
typedef struct AddrRange4 { uint32_t lo, hi; } AddrRange4;
typedef struct AddrSet {
	AddrRange4 *v4; int n4;
	AddrRange *v6; int n6;
	int any;             /* written as "any" (fast path) */
} AddrSet;

typedef struct PortRange { uint16_t lo, hi; } PortRange;
typedef struct PortSet {
	PortRange *r; int n;
	int any;
} PortSet;

int addrset_match_v4(const AddrSet *s, uint32_t ip_host_order);
int addrset_match_v6(const AddrSet *s, const uint8_t ip[16]);
int portset_match(const PortSet *s, uint16_t port);
/* [lo, hi]: the smallest range holding every port of s (0-65535 for any). */
void portset_hull(const PortSet *s, uint16_t *lo, uint16_t *hi);
void addrset_free(AddrSet *s);
void portset_free(PortSet *s);

typedef struct SigReference { char *type; char *value; } SigReference;
typedef struct SigMetadata { char *key; char *value; } SigMetadata;

#define SIG_FLAG_BIDIR        (1u << 0)   /* <> */
#define SIG_FLAG_NOALERT      (1u << 1)
#define SIG_FLAG_SAMEIP       (1u << 2)
#define SIG_FLAG_TOSERVER     (1u << 3)   /* direction implied by flow or buffers */
#define SIG_FLAG_TOCLIENT     (1u << 4)
#define SIG_FLAG_TCP_PKT      (1u << 5)   /* protocol tcp-pkt: packets only */
#define SIG_FLAG_TCP_STREAM   (1u << 6)   /* protocol tcp-stream */
#define SIG_FLAG_TARGET_SRC   (1u << 7)
#define SIG_FLAG_TARGET_DST   (1u << 8)
#define SIG_FLAG_APPLAYER     (1u << 9)
#define SIG_FLAG_PKTHDR       (1u << 10)  /* protocol pkthdr: every packet */
#define SIG_FLAG_TX_MATCH     (1u << 11)  /* a transaction property (ssl_version, ...): a
                                           * rule without payload content is a tx rule */
#define SIG_FLAG_TXBOTH       (1u << 12)  /* => (Suricata 8): one transaction, its
                                           * request and response sides both match */
#define SIG_FLAG_ALPROTO_OWN  (1u << 13)  /* the protocol was named by a name only it
                                           * has ("http1"): not the flows that carry
                                           * its transactions too (HTTP/2's) */
#define SIG_FLAG_FILES_ANY    (1u << 14)  /* file keywords, no protocol named: the rule
                                           * is loaded once per protocol with files
                                           * (rule-load.c) */
#define SIG_FLAG_FILES_COPY   (1u << 15)  /* such a rule's copy for another protocol */
#define SIG_FLAG_ALERT        (1u << 16)  /* alert keyword: a pass rule alerts too */
#define SIG_FLAG_FIREWALL     (1u << 17)  /* a firewall rule (Signature.fw): loaded from
                                           * the firewall files, never a TD rule */

#define SIG_PROTO_IP     0   /* any IP protocol */

/* Firewall rules (Signature.fw). Suricata 8: accept:{packet,flow,hook,tx},
 * drop:{packet,flow}. */
enum { FW_ACT_NONE = 0, FW_ACT_ACCEPT, FW_ACT_DROP };
enum { FW_SCOPE_NONE = 0, FW_SCOPE_PACKET, FW_SCOPE_FLOW, FW_SCOPE_HOOK, FW_SCOPE_TX };
/* the packet hooks, in the order a packet meets them */
enum { FW_HOOK_PRE_FLOW = 0, FW_HOOK_PRE_STREAM, FW_HOOK_FLOW_START, FW_HOOK_ALL };

typedef struct Signature {
	uint32_t sid, gid, rev;
	int priority;                 /* from priority:, else classtype, else 3 */
	enum sig_action action;
	uint8_t proto;                /* 0 = ip (any), else IPPROTO_TCP/UDP/ICMP */
	int icmp_any;                 /* "icmp": ICMPv4 and ICMPv6 */
	uint16_t alproto;             /* enum app_proto; ALPROTO_UNKNOWN: none */
	uint32_t flags;
	AddrSet src, dst;
	PortSet sp, dp;

	char *msg;
	char *classtype;              /* short name, NULL if none */
	SigReference *refs; int nrefs;
	SigMetadata *meta; int nmeta;

	SigMatchList lists[SM_LIST_MAX];
	/* The fast pattern: list and index into it, or -1 when the rule has no
	 * content (prefilter then uses the rule's other properties). */
	int fp_list, fp_idx;

	/* frame:<proto>.<type> (has_frame): the frame type of protocol
	 * frame_alproto (app-layer/frames.h) whose bytes BUF_FRAME holds */
	uint8_t has_frame;
	uint8_t frame_type;
	uint16_t frame_alproto;

	char **vars; int nvars;        /* byte_extract / byte_math variable names */
	struct SigXform *xf;          /* transforms per buffer; NULL: none */
	/* replace:"..." (IPS): the payload content it follows (its index in
	 * the payload list) and the bytes, as long as the content, that take
	 * its place on the wire; in IDS mode they are kept and not applied,
	 * as Suricata 8 does */
	struct SigReplace { int idx; uint8_t *bytes; uint16_t len; } *repl; int nrepl;

	/* A firewall rule (SIG_FLAG_FIREWALL; detect/firewall.h): its primary
	 * action and scope, and the hook it is evaluated at, which Suricata 8
	 * makes explicit in the protocol field ("tls:client_hello_done").
	 * A threat-detection rule may name a hook too (hook_set): its
	 * transaction is then inspected from that state on. */
	struct SigFirewall {
		uint8_t action;       /* FW_ACT_*: 0 for a threat-detection rule */
		uint8_t scope;        /* FW_SCOPE_* */
		uint8_t hook_set;     /* the protocol field named a hook */
		uint8_t app;          /* 1: an app-layer hook, 0: a packet hook */
		uint8_t hook;         /* FW_HOOK_* (packet), or the index in the
		                       * protocol's hook table (app-layer/hooks.h) */
		uint8_t lte;          /* "tls:<client_hello_done": the hooks of that
		                       * side before it are accepted with it */
		uint8_t td_pass;      /* secondary pass:flow / pass:packet (FW_SCOPE_*) */
	} fw;
	char *raw;                    /* the rule text as loaded */
	const char *file;             /* not owned: the SigTable's file name */
	int line;
} Signature;

/* 1 when list starts with absent: a transaction without that buffer
 * matches it (detect/content.c) */
int sig_list_absent(const Signature *s, int list);

/* ---- parse context: classification/reference tables, duplicate tracking ---- */

typedef struct ClassType {
	char *name, *desc;
	int priority;
} ClassType;

typedef struct DetectContext {
	ClassType *classes; int nclasses;     /* NULL: classtype names are not checked */
	char **ref_types; char **ref_urls; int nrefs;
	const char *rule_file;                /* the file being loaded (dataset load paths) */
	/* a file rule naming no protocol is parsed as this protocol's; 0:
	 * the first with files (HTTP/1) */
	uint16_t files_alproto;
	/* the file being loaded is a firewall rule file: accept is an action,
	 * and every rule names its hook (Suricata 8's firewall mode) */
	uint8_t firewall;
} DetectContext;

/* Reads a classification.config ("config classification: name,desc,prio").
 * Returns 0, or -1 with "FILE:LINE: reason" (or "FILE: reason") in err. */
int detect_load_classifications(DetectContext *ctx, const char *path, char *err, size_t errlen);
/* Reads a reference.config ("config reference: type url"). */
int detect_load_references(DetectContext *ctx, const char *path, char *err, size_t errlen);
const ClassType *detect_find_class(const DetectContext *ctx, const char *name);
void detect_context_free(DetectContext *ctx);

/* Result codes of sig_parse (negative). UNSUPPORTED rules are skipped and
 * counted by reason; PARSE errors count as failed. */
#define SIG_ERR_PARSE        (-1)
#define SIG_ERR_UNSUPPORTED  (-2)

/* Parses one rule. Returns the Signature, or NULL with a one-line reason in
 * err (no file, line or sid: the loader adds them); *code (may be NULL) gets
 * SIG_ERR_PARSE or SIG_ERR_UNSUPPORTED. Address/port variables come from the
 * config tree (vars.address-groups / vars.port-groups). */
Signature *sig_parse(const char *rule, const DetectContext *ctx, char *err,
		     size_t errlen, int *code);
void sig_free(Signature *s);

/* The Lua release the lua keyword runs ("Lua 5.4.4"), NULL without Lua. */
const char *lua_kw_version(void);

/* ---- loading ---- */

/* Every variable of vars.address-groups and vars.port-groups parsed, as
 * Suricata 8 does before it loads a rule: a typo in one (HOME_NET with a
 * bracket missing, HTTP_PORTS "8O") stops start-up with one line naming
 * the variable, its value and conf_file, instead of failing each of the
 * thousands of rules that use it. 0, or -1 with that line in err. */
int rule_vars_check(const char *conf_file, char *err, size_t errlen);

typedef struct RuleLoadConfig {
	const char *exclusive;        /* -S FILE: load only this */
	const char *extra;            /* -s FILE: in addition to rule-files */
	int init_errors_fatal;        /* --init-errors-fatal */
	int quiet;                    /* do not print per-rule lines (tests) */
	/* NULL: from the config tree (default-rule-path, rule-files,
	 * classification-file, reference-config-file). */
	const char *const *files; int nfiles;
	const char *rule_path;
	const char *classification_file;
	const char *reference_file;
	/* bit ALPROTO_X: protocol X is switched off in the yaml; its rules
	 * are skipped, counted under one reason (app_layer_protos_off) */
	uint64_t alproto_off;
	/* firewall mode (detect/firewall.h): the firewall rule files are
	 * loaded first, from fw_exclusive (--firewall-rules-exclusive) or
	 * else firewall.rule-path / firewall.rule-files */
	int firewall;
	const char *fw_exclusive;
} RuleLoadConfig;

typedef struct SkipReason { char *reason; int count; } SkipReason;

/* A rule that failed to load (unix socket ruleset-failed-rules). */
typedef struct FailedRule {
	char *rule;                   /* owned */
	const char *file;             /* SigTable.files */
	int line;
} FailedRule;

typedef struct SigTable {
	Signature **sigs; int nsigs, cap;
	FailedRule *failed_rules; int nfailed_rules, failed_cap;
	int loaded, failed, skipped;  /* rules seen = loaded + failed + skipped */
	int files_loaded, files_failed;
	SkipReason *reasons; int nreasons;
	DetectContext ctx;
	char **files; int nfiles;     /* owned file names (Signature.file points here) */
	double load_seconds;
	/* sid lookup for duplicates: open addressing on (gid << 32 | sid) */
	uint64_t *dup_keys; int dup_cap, dup_n;
} SigTable;

/* Loads all rule files. Returns NULL only when loading must stop: a fatal
 * error (--init-errors-fatal, or an -S file that cannot be read), with the
 * reason in err. Per-rule errors are printed as "FILE:LINE: reason (sid N)". */
SigTable *sig_load(const RuleLoadConfig *cfg, char *err, size_t errlen);
/* Loads rules from a string as if from file `name` (tests). Same rules. */
int sig_load_string(SigTable *t, const char *text, const char *name, const RuleLoadConfig *cfg,
		    char *err, size_t errlen);
SigTable *sig_table_new(void);
void sig_table_free(SigTable *t);
/* "N rules loaded, N failed, N skipped" + one "skipped: REASON ×N" line per
 * reason, most frequent first. */
void sig_load_summary_print(const SigTable *t, FILE *out);
/* Formats the per-rule error line: "FILE:LINE: reason (sid N)". */
void sig_format_error(char *buf, size_t len, const char *file, int line,
		      const char *reason, long sid);

/* --list-keywords */
void keywords_list(FILE *out);
/* --list-keywords[=all|csv|<name>]: all (NULL), Suricata's csv columns, or
 * one keyword (1 and an error line when there is none by that name). */
int keywords_list_as(FILE *out, const char *which);

#endif
