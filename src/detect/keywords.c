/* The keyword registry: the families' tables (one line per family below),
 * looked up by name for the parser, by id for inspection (match, step) and
 * cleanup (free), and listed for --list-keywords. Adding a keyword is one
 * line in its family's table (with its setup, match or step, and free in
 * that file) plus its id in enum kw_id (doc/adding-a-keyword.md). */
#include "detect/detect-int.h"
#include "detect/engine-int.h"
#include "detect/keyword-docs.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <pthread.h>

/* The families' tables, one line each; every keyword, its setup, match
 * and free live in its family's file. */
static const Keyword *const families[] = {
	meta_keywords,		/* meta.c */
	content_keywords,	/* content.c */
	pcre_keywords,		/* pcre.c */
	byte_keywords,		/* byte.c */
	flow_keywords,		/* flow-kw.c */
	flowbits_keywords,	/* flowbits.c */
	threshold_keywords,	/* threshold.c */
	tag_keywords,		/* tag.c */
	app_event_keywords,	/* app-event.c */
	stream_keywords,	/* stream-kw.c */
	ip_keywords,		/* ip-kw.c */
	tcp_keywords,		/* tcp-kw.c */
	icmp_keywords,		/* icmp-kw.c */
	http_keywords,		/* http-kw.c */
	tls_keywords,		/* tls-kw.c */
	dns_keywords,		/* dns-kw.c */
	smtp_keywords,		/* smtp-kw.c */
	ssh_keywords,		/* ssh-kw.c */
	mqtt_keywords,		/* mqtt-kw.c */
	ftp_keywords,		/* ftp-kw.c */
	dcerpc_keywords,	/* dcerpc-kw.c */
	smb_keywords,		/* smb-kw.c */
	app_proto_keywords,	/* app-proto-kw.c */
	file_keywords,		/* file-kw.c */
	asn1_keywords,		/* asn1-kw.c */
	pkt_keywords,		/* pkt-kw.c */
	transform_keywords,	/* transform.c */
	frame_keywords,		/* frame-kw.c */
	sip_keywords,		/* sip-kw.c */
	mdns_keywords,		/* mdns-kw.c */
	ldap_keywords,		/* ldap-kw.c */
	krb5_keywords,		/* krb5-kw.c */
	snmp_keywords,		/* snmp-kw.c */
	pgsql_keywords,		/* pgsql-kw.c */
	websocket_keywords,	/* websocket-kw.c */
	dhcp_keywords,		/* dhcp-kw.c */
	ntp_keywords,		/* ntp-kw.c */
	dnp3_keywords,		/* dnp3-kw.c */
	rfb_keywords,		/* rfb-kw.c */
	http2_keywords,		/* http2-kw.c */
	enip_keywords,		/* enip-kw.c */
	modbus_keywords,	/* modbus-kw.c */
	ike_keywords,		/* ike-kw.c */
	nfs_keywords,		/* nfs-kw.c */
	quic_keywords,		/* quic-kw.c */
	lua_keywords,		/* lua-kw.c */
	var_keywords,		/* var-kw.c */
	entropy_keywords,	/* entropy-kw.c */
	requires_keywords,	/* requires-kw.c */
	dataset_keywords,	/* dataset-kw.c */
	iprep_keywords,		/* iprep-kw.c */
	geoip_keywords,		/* geoip-kw.c */
};

/* Every keyword, sorted by name (case-insensitive, as in Suricata), and
 * one entry per id (keywords sharing an id share match and free), built
 * once. */
#define NKW_MAX 512

static const Keyword *sorted[NKW_MAX];
static int nkw;
const Keyword *keyword_ids[KW_MAX];
static pthread_once_t sorted_once = PTHREAD_ONCE_INIT;

static int kw_cmp(const void *a, const void *b)
{
	return strcasecmp((*(const Keyword *const *)a)->name, (*(const Keyword *const *)b)->name);
}

static void sort_table(void)
{
	for (size_t f = 0; f < sizeof(families) / sizeof(families[0]); f++) {
		for (const Keyword *k = families[f]; k->name; k++) {
			if (nkw == NKW_MAX)
				abort();   /* a programming error: raise NKW_MAX */
			if (!(k->flags & KWF_ID_ONLY))
				sorted[nkw++] = k;
			if (k->id >= 0 && k->id < KW_MAX && !keyword_ids[k->id])
				keyword_ids[k->id] = k;
		}
	}
	qsort(sorted, (size_t)nkw, sizeof(sorted[0]), kw_cmp);
}

const Keyword *keyword_find(const char *name)
{
	int lo = 0, hi;

	pthread_once(&sorted_once, sort_table);
	hi = nkw - 1;
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

int sig_has_tx_match(const Signature *s)
{
	const SigMatchList *ml = &s->lists[SM_LIST_MATCH];

	for (int i = 0; i < ml->n; i++) {
		const Keyword *k = keyword_by_id(ml->m[i].kw);

		if (k && (k->flags & KWF_TX))
			return 1;
	}
	return 0;
}

const Keyword *keyword_by_id(int id)
{
	pthread_once(&sorted_once, sort_table);
	return id >= 0 && id < KW_MAX ? keyword_ids[id] : NULL;
}

void keyword_ctx_free(int kw, void *ctx)
{
	const Keyword *k;

	if (!ctx)
		return;
	k = keyword_by_id(kw);
	if (k && k->free)
		k->free(ctx);
	free(ctx);
}

static const char *kw_features(const Keyword *k)
{
	if (k->flags & KWF_STICKY)
		return "sticky buffer";
	if (k->flags & KWF_CONTENT_MOD)
		return "content modifier";
	return "";
}

/* Suricata 8 prints the user guide's section of each keyword it has one
 * for (keyword-docs.c); "" when none. */
static const char *kw_doc(const Keyword *k, char *buf, size_t cap)
{
	return keyword_doc_url(k->name, buf, cap) == 0 ? buf : "";
}

static void kw_print(FILE *out, const Keyword *k)
{
	char url[256];

	fprintf(out, "%s:\n", k->name);
	if (k->flags & (KWF_STICKY | KWF_CONTENT_MOD))
		fprintf(out, "  Description: %s (%s)\n  Features: %s\n", k->desc,
			sig_buffer_name(k->buf), kw_features(k));
	else
		fprintf(out, "  Description: %s\n", k->desc);
	if (*kw_doc(k, url, sizeof(url)))
		fprintf(out, "  Documentation: %s\n", url);
}

void keywords_list(FILE *out)
{
	keywords_list_as(out, NULL);
}

int keywords_list_as(FILE *out, const char *which)
{
	pthread_once(&sorted_once, sort_table);
	if (which && strcmp(which, "csv") == 0) {
		/* Suricata's csv columns */
		fprintf(out, "name;description;app layer;features;documentation\n");
		for (int i = 0; i < nkw; i++) {
			char url[256];

			fprintf(out, "%s;%s;%s;%s;%s;\n", sorted[i]->name, sorted[i]->desc,
				(sorted[i]->flags & (KWF_STICKY | KWF_CONTENT_MOD)) ? "yes" : "Unset",
				kw_features(sorted[i]), kw_doc(sorted[i], url, sizeof(url)));
		}
		return 0;
	}
	if (which && *which && strcmp(which, "all") != 0) {
		for (int i = 0; i < nkw; i++)
			if (strcmp(sorted[i]->name, which) == 0) {
				kw_print(out, sorted[i]);
				return 0;
			}
		fprintf(stderr, "Error: Non-existent keyword name \"%s\"\n", which);
		return 1;
	}
	for (int i = 0; i < nkw; i++)
		kw_print(out, sorted[i]);
	return 0;
}
