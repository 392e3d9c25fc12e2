/* The detection-buffer registry: every list a content can inspect, by its
 * enum sig_buffer id, with what the parser needs (name, fast-pattern
 * priority, rule direction) and, for application-layer buffers, Suricata's
 * key (protocol, buffer, direction, progress) and the call that fetches it
 * from a transaction. The inspection engine (tx-inspect.c) keeps one MPM
 * group per (evaluation side, buffer) of this table (DetectEngine.hgroups,
 * the GPU prefilter's body group included), so every transaction buffer of
 * every protocol is prefiltered and inspected through one mechanism.
 *
 * Everything transaction inspection knows of a buffer is in its entry
 * (sides, progress, protocol, getter), and of a protocol in its
 * detect_tx_protos line: tx-inspect.c names no protocol.
 *
 * Adding a buffer (doc/adding-a-protocol.md, "Sticky buffers"): its id in
 * enum sig_buffer (detect-parse.h), its entry in buffers.c, and its
 * keyword line in its protocol's keyword file, whose getter (one per
 * protocol: http-kw.c's http_buffer_get) reads it. */
#ifndef DETECT_BUFFERS_H
#define DETECT_BUFFERS_H

#include "detect/detect-parse.h"

#include <stdint.h>

/* Which side of a transaction a buffer is read on. */
#define DBUF_TS   APP_DIR_TOSERVER
#define DBUF_TC   APP_DIR_TOCLIENT
#define DBUF_EVAL 2               /* the side the rule is evaluated on */

/* Rule directions, as bits: a buffer's (dir), the sides a rule is
 * evaluated on (DetectSig.tx_dirs). */
#define BDIR_TS   1
#define BDIR_TC   2
#define BDIR_BOTH 3

/* Transaction classes: one per app-layer protocol (engine-int.h tx_class). */
#define TX_CLASS_COUNT ALPROTO_MAX

typedef struct DetectBuffer DetectBuffer;

/* Entry idx (from 0) of the buffer on side (APP_DIR_*) of tx: 0 with data
 * and len set (len may be 0: present and empty), -1 when absent, not there
 * yet, or past the last entry (single buffers have entry 0 only). */
typedef int (*detect_buffer_get_fn)(const DetectBuffer *b, void *tx, int side, uint32_t idx,
				    const uint8_t **data, uint32_t *len);

struct DetectBuffer {
	const char *name;         /* "http_uri": messages and --list-keywords */
	uint8_t prio;             /* fast-pattern priority, lower preferred (Suricata:
	                           * http_* 2, payload 3, http_method 4) */
	uint8_t dir;              /* rule directions it fits: BDIR_* */
	/* application-layer buffers; alproto ALPROTO_UNKNOWN: a packet buffer */
	uint16_t alproto;
	int8_t side;              /* DBUF_TS, DBUF_TC or DBUF_EVAL */
	uint8_t progress;         /* of its side (protocol-defined): before it, a
	                           * rule whose buffer this is is not evaluated */
	uint8_t multi;            /* one entry per header line, ... */
	/* BDIR_*: the sides a rule reading it is evaluated on when nothing
	 * else (a one-sided buffer, flow:to_*) says; 0: no preference */
	uint8_t pref_dirs;
	int16_t pbuf[2];          /* the protocol's own id of the buffer per side */
	/* on a flow of via_proto (another protocol carrying this one's
	 * transactions), the list is read through entry via_list; 0: none */
	uint16_t via_proto;
	uint8_t via_list;
	detect_buffer_get_fn get;
};

extern const DetectBuffer detect_buffers[BUF_MAX];

/* What transaction inspection decides per protocol rather than per
 * buffer, one line per protocol that differs from the defaults (buffers.c). */
typedef struct DetectTxProto {
	uint8_t event_dirs;       /* BDIR_*: sides an app-layer-event rule is
	                           * evaluated on; 0: the request's */
	uint8_t prop_dirs;        /* the same for a transaction property
	                           * (KWF_TX) rule; 0: the response's */
	/* 1: a rule waits only for the sides it is evaluated on, and each
	 * side's readiness is its own */
	uint8_t sides_apart;
	/* the rules of this protocol also inspect this protocol's flows
	 * (SMB carries DCE/RPC); 0: none */
	uint16_t rules_of;
	/* 1: a property (KWF_TX) rule is evaluated from the side's first
	 * message on, and again on each later pass until it matches or the
	 * side is complete (LDAP's responses come one by one, and
	 * ldap.responses.* match as they do, as in Suricata) */
	uint8_t props_early;
	/* rules_of's buffers on this protocol's transactions are read through
	 * this getter (HTTP/2 answers HTTP/1's http.* buffers, as Suricata 8
	 * maps them); NULL: through each buffer's own */
	detect_buffer_get_fn get_of;
} DetectTxProto;

extern const DetectTxProto detect_tx_protos[TX_CLASS_COUNT];

static inline const DetectBuffer *detect_buffer(int id)
{
	return &detect_buffers[id];
}

/* http-kw.c: the HTTP buffers (enum http_buffer in app-layer/http.h). */
int http_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		    const uint8_t **data, uint32_t *len);

/* tls-kw.c: the TLS buffers (enum tls_kw_buf of detect/tls-kw-match.h, and
 * these for its multi-buffers). */
#define TLS_KW_BUF_CERTS 100
#define TLS_KW_BUF_ALPN 101
#define TLS_KW_BUF_SAN 102
int tls_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		   const uint8_t **data, uint32_t *len);
/* dns-kw.c: the DNS buffers (enum dns_kw_buf in detect/dns-kw-match.h). */
int dns_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		   const uint8_t **data, uint32_t *len);

/* ssh-kw.c: the SSH buffers (pbuf: these; the side picks client or server). */
enum { SSH_KW_BUF_PROTO, SSH_KW_BUF_SOFTWARE, SSH_KW_BUF_HASSH, SSH_KW_BUF_HASSH_STRING };
int ssh_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		   const uint8_t **data, uint32_t *len);
/* mqtt-kw.c: the MQTT buffers (pbuf: these, the same on both sides). */
enum { MQTT_KW_BUF_CLIENTID, MQTT_KW_BUF_USERNAME, MQTT_KW_BUF_PASSWORD, MQTT_KW_BUF_WILLTOPIC,
       MQTT_KW_BUF_WILLMESSAGE, MQTT_KW_BUF_PROTOCOL_STRING, MQTT_KW_BUF_PUB_TOPIC,
       MQTT_KW_BUF_PUB_MESSAGE, MQTT_KW_BUF_SUB_TOPIC, MQTT_KW_BUF_UNSUB_TOPIC };
int mqtt_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		    const uint8_t **data, uint32_t *len);
/* ftp-kw.c: the FTP buffers. */
enum { FTP_KW_BUF_COMMAND, FTP_KW_BUF_COMMAND_DATA, FTP_KW_BUF_REPLY, FTP_KW_BUF_COMPLETION_CODE };
int ftp_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		   const uint8_t **data, uint32_t *len);
/* dcerpc-kw.c: dcerpc.stub_data (pbuf: the side). */
int dcerpc_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		      const uint8_t **data, uint32_t *len);
/* the same on an SMB transaction's DCE/RPC call (named pipes) */
int smb_dcerpc_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
			  const uint8_t **data, uint32_t *len);
/* file-kw.c: file.name, file.magic and, for protocols whose files keep
 * their content, file.data (one entry per file of the side). */
#define FILE_BUF_NAME 0
#define FILE_BUF_MAGIC 1
#define FILE_BUF_DATA 2           /* what the protocol kept of the content (file_keep_data) */
#define FILE_BUF_HEAD 3           /* the file's first bytes (SMB's file_data) */
/* smb-kw.c: the SMB buffers. */
enum { SMB_KW_BUF_SHARE, SMB_KW_BUF_NAMED_PIPE, SMB_KW_BUF_NTLMSSP_USER, SMB_KW_BUF_NTLMSSP_DOMAIN };
/* sip-kw.c: the SIP and SDP buffers (pbuf: enum sip_kw_buf). */
enum sip_kw_buf {
	SIP_KW_METHOD, SIP_KW_URI, SIP_KW_REQUEST_LINE, SIP_KW_STAT_CODE, SIP_KW_STAT_MSG,
	SIP_KW_RESPONSE_LINE, SIP_KW_PROTOCOL, SIP_KW_FROM, SIP_KW_TO, SIP_KW_VIA,
	SIP_KW_USER_AGENT, SIP_KW_CONTENT_TYPE, SIP_KW_CONTENT_LENGTH,
	SDP_KW_ORIGIN, SDP_KW_SESSION_NAME, SDP_KW_SESSION_INFO, SDP_KW_URI, SDP_KW_EMAIL,
	SDP_KW_PHONE_NUMBER, SDP_KW_CONNECTION_DATA, SDP_KW_BANDWIDTH, SDP_KW_TIME,
	SDP_KW_REPEAT_TIME, SDP_KW_TIMEZONE, SDP_KW_ENCRYPTION_KEY, SDP_KW_ATTRIBUTE,
	SDP_KW_MEDIA_MEDIA, SDP_KW_MEDIA_SESSION_INFO, SDP_KW_MEDIA_CONNECTION_DATA,
	SDP_KW_MEDIA_ENCRYPTION_KEY,
};
int sip_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		   const uint8_t **data, uint32_t *len);
/* mdns-kw.c: the mDNS buffers (pbuf: enum mdns_kw_buf). */
enum mdns_kw_buf { MDNS_KW_QUERIES, MDNS_KW_ANSWERS, MDNS_KW_AUTHORITIES, MDNS_KW_ADDITIONALS,
		   MDNS_KW_RESPONSE };
int mdns_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		    const uint8_t **data, uint32_t *len);
int smb_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		   const uint8_t **data, uint32_t *len);
/* ldap-kw.c: the LDAP buffers. */
enum { LDAP_KW_BUF_REQUEST_DN, LDAP_KW_BUF_RESPONSES_DN, LDAP_KW_BUF_RESPONSES_MSG,
       LDAP_KW_BUF_REQUEST_ATTR, LDAP_KW_BUF_RESPONSES_ATTR };
int ldap_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		    const uint8_t **data, uint32_t *len);
/* krb5-kw.c: the Kerberos 5 buffers. */
enum { KRB5_KW_BUF_CNAME, KRB5_KW_BUF_SNAME };
int krb5_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		    const uint8_t **data, uint32_t *len);
/* pgsql-kw.c: the PostgreSQL buffer (pgsql.query). */
int pgsql_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		     const uint8_t **data, uint32_t *len);
/* websocket-kw.c: websocket.payload. */
int websocket_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
			 const uint8_t **data, uint32_t *len);
/* snmp-kw.c: the SNMP buffers. */
enum { SNMP_KW_BUF_COMMUNITY, SNMP_KW_BUF_USM, SNMP_KW_BUF_TRAP_OID, SNMP_KW_BUF_TRAP_ADDRESS };
int snmp_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		    const uint8_t **data, uint32_t *len);
/* ntp-kw.c: the NTP buffer. */
enum { NTP_KW_BUF_REFERENCE_ID };
int ntp_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		   const uint8_t **data, uint32_t *len);
/* dnp3-kw.c: the DNP3 buffer (dnp3.data, a message's application bytes). */
int dnp3_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		    const uint8_t **data, uint32_t *len);
/* rfb-kw.c: the RFB buffer. */
enum { RFB_KW_BUF_NAME };
int rfb_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		   const uint8_t **data, uint32_t *len);
/* enip-kw.c: the EtherNet/IP buffers. */
enum { ENIP_KW_BUF_PRODUCT_NAME, ENIP_KW_BUF_SERVICE_NAME };
int enip_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		    const uint8_t **data, uint32_t *len);
/* ike-kw.c: the IKE buffers. */
enum { IKE_KW_BUF_INIT_SPI, IKE_KW_BUF_RESP_SPI, IKE_KW_BUF_VENDOR, IKE_KW_BUF_KE,
       IKE_KW_BUF_NONCE };
int ike_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		   const uint8_t **data, uint32_t *len);
/* quic-kw.c: the QUIC buffers. */
enum { QUIC_KW_BUF_VERSION, QUIC_KW_BUF_SNI, QUIC_KW_BUF_UA, QUIC_KW_BUF_CYU_HASH,
       QUIC_KW_BUF_CYU_STRING, QUIC_KW_BUF_JA3_HASH, QUIC_KW_BUF_JA3_STRING,
       QUIC_KW_BUF_JA3S_HASH, QUIC_KW_BUF_JA3S_STRING, QUIC_KW_BUF_JA4_HASH };
int quic_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		    const uint8_t **data, uint32_t *len);
/* The QUIC entry of a TLS fingerprint buffer (ja3.hash, ...) for an
 * "alert quic" rule, or -1. */
int quic_ja_buffer(int tls_buf);
int file_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		    const uint8_t **data, uint32_t *len);
/* http2-kw.c: HTTP/2's own buffers (these), and HTTP/1's (pbuf: enum
 * http_buffer) on an HTTP/2 transaction. */
enum { H2_KW_BUF_HEADER_NAME = 100, H2_KW_BUF_HEADER };
int http2_buffer_get(const DetectBuffer *b, void *tx, int side, uint32_t idx,
		     const uint8_t **data, uint32_t *len);

#endif
