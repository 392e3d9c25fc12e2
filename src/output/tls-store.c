/* The tls-store output (outputs: - tls-store: {enabled, certs-log-dir}):
 * the certificate chains a tls.store rule matched on, written as Suricata
 * writes them: a chain as one PEM file (its certificates one after the
 * other) and a .meta file beside it (the flow, the leaf's names), in
 * certs-log-dir (default "certs", in the log folder), named by the time of
 * the packet it is written on and a number counting the chains written by
 * this process:
 *   1523912382.235074-1.pem, client-1523912382.237160-2.pem (the client's)
 * A chain is written once, on the first packet after the match that has
 * it (suricata-verify tls-store-01, -02). An entry of the logger list
 * (logger.c); file I/O only on such rare packets. */
#include "output/logger-int.h"
#include "output/output-private.h"
#include "output/json-writer.h"
#include "app-layer/app-layer.h"
#include "app-layer/tls.h"
#include "app-layer/tls-cert.h"
#include "conf/conf.h"
#include "util/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static unsigned chain_seq;  /* the files' number, over the run (atomic) */

/* PEM: base64 in lines of 64, between the BEGIN and END lines. */
static int write_pem(FILE *fp, const uint8_t *der, uint32_t len)
{
	char *b64 = malloc(JW_BASE64_LEN(len) + 1);
	size_t n;

	if (!b64)
		return -1;
	n = jw_base64_encode(der, len, b64);
	fputs("-----BEGIN CERTIFICATE-----\n", fp);
	for (size_t off = 0; off < n; off += 64)
		fprintf(fp, "%.*s\n", (int)(n - off < 64 ? n - off : 64), b64 + off);
	fputs("-----END CERTIFICATE-----\n", fp);
	free(b64);
	return 0;
}

static void write_meta(FILE *fp, const Packet *p, const Flow *f, const TlsCertInfo *ci)
{
	char ts[48], src[64], dst[64];

	eve_format_ts(&p->ts, ts, sizeof(ts));
	output_format_addr(&f->src, f->ip_version, src, sizeof(src));
	output_format_addr(&f->dst, f->ip_version, dst, sizeof(dst));
	fprintf(fp, "TIME:              %s\n", ts);
	fprintf(fp, "SRC IP:            %s\n", src);
	fprintf(fp, "DST IP:            %s\n", dst);
	fprintf(fp, "PROTO:             %u\n", f->proto);
	fprintf(fp, "SRC PORT:          %u\n", f->sp);
	fprintf(fp, "DST PORT:          %u\n", f->dp);
	if (ci) {
		fprintf(fp, "TLS SUBJECT:       %s\n", ci->subject);
		fprintf(fp, "TLS ISSUERDN:      %s\n", ci->issuer);
		fprintf(fp, "TLS FINGERPRINT:   %s\n", ci->fingerprint);
	}
}

static int open_write(const char *path, FILE **fp)
{
	if (!(*fp = fopen(path, "w"))) {
		log_warning("tls-store: cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Chain dir as one .pem and its .meta. */
static void store_chain(const Outputs *o, const Packet *p, const Flow *f, const TlsState *s,
			int dir)
{
	const TlsCertChain *ch = &s->certs[dir];
	const char *who = dir == TLS_TOSERVER ? "client-" : "";
	unsigned id = __atomic_add_fetch(&chain_seq, 1, __ATOMIC_RELAXED);
	char path[PATH_MAX + 96];
	FILE *fp;
	int n;

	n = snprintf(path, sizeof(path), "%s/%s%ld.%ld-%u.pem", o->cfg.tls_store_dir, who,
		     (long)p->ts.tv_sec, (long)p->ts.tv_usec, id);
	if (n < 0 || (size_t)n >= sizeof(path) || open_write(path, &fp) != 0)
		return;
	for (unsigned i = 0; i < ch->n; i++) {
		uint32_t len = 0;
		const uint8_t *der = tls_chain_cert(ch, i, &len);

		if (der)
			write_pem(fp, der, len);
	}
	fclose(fp);
	memcpy(path + n - 3, "meta", 5);   /* .pem -> .meta */
	if (open_write(path, &fp) != 0)
		return;
	write_meta(fp, p, f, tls_leaf_info(s, dir));
	fclose(fp);
}

static void tls_store_packet(OutputThread *ot, const OutputPacketCtx *pc)
{
	Flow *f = pc->f;
	const TlsState *s;
	unsigned pending;
	void *tx;

	if (!ot->o || !ot->o->cfg.tls_store_enabled || !f || f->app_proto != ALPROTO_TLS ||
	    !(tx = app_layer_tx_get(f, 0)) || !(pending = tls_tx_store_pending(tx)) ||
	    !(s = tls_tx_state(tx)))
		return;
	for (int dir = 0; dir < 2; dir++) {
		if (!(pending & (1u << dir)) || !s->certs[dir].n)
			continue;
		store_chain(ot->o, pc->p, f, s, dir);
		tls_tx_store_done(tx, dir);
	}
}

const OutputLogger output_logger_tls_store = { "tls-store", tls_store_packet, NULL };

int tls_store_config_load(OutputConfig *cfg, const char *prefix, const char *log_dir,
			  char *err, size_t errlen)
{
	char key[320];
	const char *dir;
	int en = 0, n;

	snprintf(key, sizeof(key), "%s.enabled", prefix);
	if (conf_get(key) && conf_get_bool(key, &en) < 0) {
		snprintf(err, errlen, "%s: invalid boolean '%s'", key, conf_get(key));
		return -1;
	}
	cfg->tls_store_enabled = en;
	if (!en)
		return 0;
	snprintf(key, sizeof(key), "%s.certs-log-dir", prefix);
	dir = conf_get(key);
	if (!dir || !*dir)
		dir = "certs";
	n = dir[0] == '/' ? snprintf(cfg->tls_store_dir, sizeof(cfg->tls_store_dir), "%s", dir)
			  : snprintf(cfg->tls_store_dir, sizeof(cfg->tls_store_dir), "%s/%s",
				     log_dir, dir);
	if (n < 0 || (size_t)n >= sizeof(cfg->tls_store_dir)) {
		snprintf(err, errlen, "%s: path too long", key);
		return -1;
	}
	return 0;
}

int tls_store_open(const OutputConfig *cfg, char *err, size_t errlen)
{
	if (!cfg->tls_store_enabled)
		return 0;
	if (mkdir(cfg->tls_store_dir, 0755) != 0 && errno != EEXIST) {
		snprintf(err, errlen, "tls-store: cannot create %s: %s", cfg->tls_store_dir,
			 strerror(errno));
		return -1;
	}
	return 0;
}
