/* Keyword -> user-guide section (keyword-docs.h). Suricata 8 documents its
 * keywords by family, one page each under rules/, a section per keyword
 * whose anchor Sphinx derives from the title: lower case, '.' and '_' as
 * '-' (http.uri: #http-uri). The legacy names (http_uri, dns_query,
 * tls_cert_subject) fall on their dotted successor's section that way.
 * The page is chosen by the keyword's prefix, else by its name in the
 * tables below; a keyword in neither has no URL. */
#include "detect/keyword-docs.h"
#include "main/cli.h"   /* SURICATA_VERSION: the guide of the version we track */

#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef struct DocPage {
	const char *match;   /* a prefix ("http."), or a name when exact */
	int exact;
	const char *page;
} DocPage;

/* First match wins: exact names before the prefixes that would take them. */
static const DocPage pages[] = {
	/* files are their own page, though their names look like http's */
	{ "file.data", 1, "http-keywords.html" },
	{ "file_data", 1, "http-keywords.html" },
	{ "file.", 0, "file-keywords.html" },
	{ "filename", 1, "file-keywords.html" },
	{ "fileext", 1, "file-keywords.html" },
	{ "filemagic", 1, "file-keywords.html" },
	{ "filemd5", 1, "file-keywords.html" },
	{ "filesha1", 1, "file-keywords.html" },
	{ "filesha256", 1, "file-keywords.html" },
	{ "filesize", 1, "file-keywords.html" },
	{ "filestore", 1, "file-keywords.html" },
	{ "http2.", 0, "http2-keywords.html" },
	{ "http.", 0, "http-keywords.html" },
	{ "http_", 0, "http-keywords.html" },
	{ "uricontent", 1, "http-keywords.html" },
	{ "urilen", 1, "http-keywords.html" },
	{ "dns", 0, "dns-keywords.html" },
	{ "mdns.", 0, "mdns-keywords.html" },
	{ "ja3", 0, "ja-keywords.html" },
	{ "ja4", 0, "ja-keywords.html" },
	{ "tls", 0, "tls-keywords.html" },
	{ "ssl_", 0, "tls-keywords.html" },
	{ "ssh", 0, "ssh-keywords.html" },
	{ "dcerpc.", 0, "dcerpc-keywords.html" },
	{ "dce_", 0, "dcerpc-keywords.html" },
	{ "dhcp.", 0, "dhcp-keywords.html" },
	{ "dnp3", 0, "dnp3-keywords.html" },
	{ "enip", 0, "enip-keywords.html" },
	{ "cip_service", 1, "enip-keywords.html" },
	{ "ftp", 0, "ftp-keywords.html" },
	{ "ike.", 0, "ike-keywords.html" },
	{ "krb5", 0, "kerberos-keywords.html" },
	{ "ldap.", 0, "ldap-keywords.html" },
	{ "modbus", 1, "modbus-keyword.html" },
	{ "mqtt.", 0, "mqtt-keywords.html" },
	{ "nfs", 0, "nfs-keywords.html" },
	{ "ntp.", 0, "ntp-keywords.html" },
	{ "pgsql.", 0, "pgsql-keywords.html" },
	{ "quic.", 0, "quic-keywords.html" },
	{ "rfb.", 0, "rfb-keywords.html" },
	{ "sdp.", 0, "sdp-keywords.html" },
	{ "sip.", 0, "sip-keywords.html" },
	{ "smb", 0, "smb-keywords.html" },
	{ "smtp.", 0, "smtp-keywords.html" },
	{ "email.", 0, "email-keywords.html" },
	{ "snmp.", 0, "snmp-keywords.html" },
	{ "websocket.", 0, "websocket-keywords.html" },
	{ "vlan.", 0, "vlan-keywords.html" },
	{ "flow", 0, "flow-keywords.html" },     /* flow, flow.*, flowbits, flowint, flowvar */
	{ "stream_size", 1, "flow-keywords.html" },
	{ "pktvar", 1, "flow-keywords.html" },
	{ "hostbits", 1, "xbits.html" },
	{ "xbits", 1, "xbits.html" },
	{ "threshold", 1, "thresholding.html" },
	{ "detection_filter", 1, "thresholding.html" },
	{ "iprep", 1, "ip-reputation-rules.html" },
	{ "dataset", 1, "datasets.html" },
	{ "datarep", 1, "datasets.html" },
	{ "lua", 1, "lua-detection.html" },
	{ "luajit", 1, "lua-detection.html" },
	{ "base64_", 0, "base64-keywords.html" },
	{ "fast_pattern", 1, "fast-pattern.html" },
	{ "prefilter", 1, "prefilter-keywords.html" },
	{ "app-layer-", 0, "app-layer.html" },
	{ "tag", 1, "tag.html" },
	{ "config", 1, "config.html" },
	{ "bypass", 1, "bypass-keyword.html" },
	{ "tcp.", 0, "header-keywords.html" },
	{ "icmp", 0, "header-keywords.html" },
	{ "ip", 0, "header-keywords.html" },     /* ip_proto, ipopts, ipv4.hdr, ... */
	{ NULL, 0, NULL }
};

/* Whole names of the pages without a prefix of their own. */
static const struct { const char *page; const char *const names[24]; } named[] = {
	{ "meta.html", { "msg", "sid", "rev", "gid", "classtype", "reference", "priority",
			 "metadata", "target", "requires", NULL } },
	{ "payload-keywords.html", { "content", "nocase", "depth", "startswith", "endswith",
			 "offset", "distance", "within", "rawbytes", "isdataat", "absent",
			 "bsize", "dsize", "byte_test", "byte_math", "byte_jump",
			 "byte_extract", "entropy", "replace", "pcre", "pkt_data", NULL } },
	{ "transforms.html", { "dotprefix", "domain", "tld", "strip_whitespace",
			 "compress_whitespace", "to_lowercase", "to_md5", "to_uppercase",
			 "to_sha1", "to_sha256", "pcrexform", "url_decode", "xor",
			 "header_lowercase", "strip_pseudo_headers", "from_base64",
			 "gunzip", "zlib_deflate", NULL } },
	{ "header-keywords.html", { "ttl", "sameip", "id", "fragbits", "fragoffset", "tos",
			 "geoip", "flags", "seq", "ack", "window", "itype", "icode",
			 "udp.hdr", "ether.hdr", "tcpv4-csum", "tcpv6-csum", "udpv4-csum",
			 "udpv6-csum", NULL } },
};

/* Sections whose title is not the keyword's name. */
static const struct { const char *name, *anchor; } anchors[] = {
	{ "pcre", "pcre-perl-compatible-regular-expressions" },
	{ NULL, NULL }
};

static const char *page_of(const char *name)
{
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		for (int j = 0; named[i].names[j]; j++)
			if (!strcmp(name, named[i].names[j]))
				return named[i].page;
	for (int i = 0; pages[i].match; i++) {
		size_t n = strlen(pages[i].match);

		if (pages[i].exact ? !strcmp(name, pages[i].match) : !strncmp(name, pages[i].match, n))
			return pages[i].page;
	}
	return NULL;
}

int keyword_doc_url(const char *name, char *out, size_t cap)
{
	const char *page = page_of(name), *anchor = NULL;
	char a[128];
	size_t n = 0;
	int w;

	if (!page)
		return -1;
	for (int i = 0; anchors[i].name; i++)
		if (!strcmp(name, anchors[i].name))
			anchor = anchors[i].anchor;
	if (!anchor) {
		for (const char *s = name; *s && n + 1 < sizeof(a); s++)
			a[n++] = (*s == '.' || *s == '_') ? '-' : (char)tolower((unsigned char)*s);
		a[n] = '\0';
		anchor = a;
	}
	w = snprintf(out, cap, "https://docs.suricata.io/en/suricata-%s/rules/%s#%s",
		     SURICATA_VERSION, page, anchor);
	return w > 0 && (size_t)w < cap ? 0 : -1;
}
