/* Eve "dns" objects in Suricata 8's version-3 format.
 *
 * The object is the value of "dns" in an event_type "dns" record and in an
 * alert on a DNS transaction (Suricata 8 logs only v3 in alerts; see
 * suricata-verify task-7018-dns-ips-stream-rule). Fields, in order:
 *   version 3, type "request"|"response", tx_id (requests only, as in
 *   suricata-verify dns-udp-eve-dig), id, flags (the 16-bit word in hex
 *   without leading zeros: "8180", "81a0"), qr aa tc rd ra z (each only when
 *   set), opcode, rcode ("NOERROR", ..., or the number), queries
 *   [{rrname, rrtype}], answers (the "detailed" format), grouped (the
 *   "grouped" format: answers' rdata by type), authorities, additionals.
 * Empty arrays are left out (the eve schema wants minItems 1).
 *
 * Record rdata: A dotted quad; AAAA eight groups of four hex digits, zeros
 * kept ("2a00:1450:4001:0818:0000:0000:0000:200e"); CNAME PTR NS MX the
 * name (MX without its preference); TXT one record per character-string (a
 * TXT rr of several strings logs as several records, as Suricata does); SOA
 * {"soa": {mname, rname, serial, refresh, retry, expire, minimum}}; SRV
 * {"srv": {priority, weight, port, name}}; SSHFP {"sshfp": {algo, type,
 * fingerprint "19:8c:..."}}; OPT {"opt": [{code, data (hex)}]}; NULL and the
 * rest the raw bytes as a string.
 *
 * Strings from the wire (names, TXT, raw rdata) print as Suricata prints
 * them: valid UTF-8 as is (control bytes then come out as JSON \u00XX);
 * otherwise every byte over 0x7f as the four characters \xNN (suricata-verify
 * dns-udp-null: "VACKD\u0003\\xc5\\xe9\u0001"). */
#ifndef OUTPUT_DNS_JSON_H
#define OUTPUT_DNS_JSON_H

#include "app-layer/dns-parse.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

enum {
	DNS_JSON_DETAILED = 1 << 0,
	DNS_JSON_GROUPED = 1 << 1,
};

/* The eve-log "dns" output options, read once at start. */
struct dns_json_cfg {
	bool requests;  /* log to_server messages (default yes) */
	bool responses; /* log to_client messages (default yes) */
	unsigned formats; /* DNS_JSON_*; default both */
	bool formats_listed; /* dns_json_cfg_add_format() was called */
	bool all_types;   /* no "types" list: every rrtype */
	unsigned version; /* eve dns format: 3 (default) or 2 (Suricata 7's, deprecated) */
	uint8_t types[65536 / 8]; /* with a "types" list: the rrtypes logged */
};

/* Everything on: what alerts use. */
void dns_json_cfg_init(struct dns_json_cfg *c);
/* formats: [detailed, grouped]: name is one entry; the first call clears the
 * default. 0, or -1 for an unknown name. */
int dns_json_cfg_add_format(struct dns_json_cfg *c, const char *name);
/* types: [a, aaaa, mx, ...]: name is one entry (case-insensitive, as
 * dns_rrtype_by_name() knows them); the first call narrows from all types.
 * A message is logged when one of its queries or answers has a listed type,
 * and its queries and answers of other types are left out. 0 or -1. */
int dns_json_cfg_add_type(struct dns_json_cfg *c, const char *name);
bool dns_json_cfg_type_on(const struct dns_json_cfg *c, uint16_t rrtype);

struct JsonWriter;

/* Whether cfg logs message m seen in direction dir (requests/responses,
 * types); m NULL: no. */
bool dns_json_wanted(const struct dns_msg *m, enum dns_dir dir, const struct dns_json_cfg *cfg);
/* The members of the "dns" object of m into the writer's open object (the
 * eve record's "dns"; cfg NULL: everything). Call when dns_json_wanted(). */
void dns_json_write(struct JsonWriter *w, const struct dns_msg *m, enum dns_dir dir,
		    uint64_t tx_id, const struct dns_json_cfg *cfg);

/* Version 2 (`version: 2`, or SURICATA_EVE_DNS_VERSION=2 without one, as
 * Suricata 8 reads it): a request logs one "query" record per query whose
 * type cfg logs ({version 2, type "query", id, rrname, rrname_truncated,
 * rrtype, tx_id, z, opcode}); a response one "answer" record ({version 2,
 * type "answer", id, flags, qr aa tc rd ra z, opcode, rrname and rrtype of
 * its first query, rcode, answers (detailed), grouped, authorities,
 * additionals}); both with the flow's client as source. Members into the
 * writer's open object; dns_json_v2_query() returns false (writing
 * nothing) when query qi is not logged. */
bool dns_json_v2_query(struct JsonWriter *w, const struct dns_msg *m, uint32_t qi,
		       uint64_t tx_id, const struct dns_json_cfg *cfg);
void dns_json_v2_answer(struct JsonWriter *w, const struct dns_msg *m,
			const struct dns_json_cfg *cfg);

/* The "dns" object for message m seen in direction dir (to_server is a
 * "request") of transaction tx_id; NULL when cfg leaves it out (or out of
 * memory). cfg NULL: everything, as dns_json_cfg_init() sets it, without
 * its 8 KiB. The caller owns the reference. */
json_t *dns_json_message(const struct dns_msg *m, enum dns_dir dir,
			 uint64_t tx_id, const struct dns_json_cfg *cfg);
/* The "dns" object of an alert on tx in direction dir: the message of that
 * direction, or the other one if that direction has none; every type and
 * both formats. NULL if tx holds no message. */
json_t *dns_json_alert(const struct dns_tx *tx, enum dns_dir dir);
/* The same written into an alert record w as its "dns" member; -1 (nothing
 * written) where dns_json_alert() gives NULL. */
int dns_json_alert_write(struct JsonWriter *w, const struct dns_tx *tx, enum dns_dir dir);

/* A wire string as Suricata prints it (see above). */
json_t *dns_json_bytes(const uint8_t *p, uint32_t len);

#endif
