/* The rule keywords Suricata 8 has and this engine does not implement.
 *
 * A rule using one of them is skipped ("unsupported keyword", counted per
 * reason): the rule is valid, for a feature not built here. Any other name
 * this engine does not know is an error, as in Suricata ("unknown rule
 * keyword"), so that a misspelled keyword fails -T with its file:line.
 *
 * Names come from Suricata 8's keyword documentation and the rules of its
 * suricata-verify tests; a protocol prefix stands for that protocol's
 * keyword family (sticky buffers and their match keywords). */
#include "detect/detect-int.h"

#include <string.h>
#include <strings.h>

/* keyword families of protocols and features without an implementation */
static const char *const family_prefixes[] = {
	"bittorrent-dht.", "cip_", "dhcp.", "dnp3", "enip", "http2.", "ike.", "krb5",
	"ldap.", "llmnr.", "mdns.", "modbus", "nfs", "ntp.", "pgsql.", "pop3.",
	"imap.", "quic.", "rdp.", "rfb.", "sctp.", "sip.", "snmp.", "tftp.", "websocket.",
};

static const char *const names[] = {
	/* header and packet keywords */
	"tcp.mss", "tcp.hdr", "udp.hdr", "ipv4.hdr", "ipv6.hdr",
	"icmpv4.hdr", "icmpv6.hdr", "flow.pkts", "flow.bytes",
	/* transforms */
	"subslice", "luaxform", "xor", "header_lowercase", "strip_pseudo_headers",
	"to_uppercase",
	/* scripting, reputation, sets */
	"lua", "luajit",
	/* storage and the rest */
	"template", "template2",
};

int keyword_is_suricatas(const char *name)
{
	for (size_t i = 0; i < sizeof(family_prefixes) / sizeof(family_prefixes[0]); i++)
		if (strncasecmp(name, family_prefixes[i], strlen(family_prefixes[i])) == 0)
			return 1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcasecmp(name, names[i]) == 0)
			return 1;
	return 0;
}
