/* libFuzzer harness: LDAP, Kerberos 5 and SNMP (their BER decoding,
 * framing, transactions, eve objects and keyword buffers), through the
 * generic app layer on one flow made from the input.
 *
 * Input: a first byte picking the flow (its value mod 5: LDAP over TCP to
 * 389, LDAP over UDP, Kerberos over TCP to 88, Kerberos over UDP, SNMP over
 * UDP to 161), then chunks, each a control byte then its bytes. Control
 * bit 7 is the direction (set: to client); bit 6 set makes the chunk a gap
 * of (bits 0-5 + 1) * 97 bytes on TCP; else bits 0-5 + 1 is the chunk
 * length (on UDP, one datagram). One input covers segmentation, both
 * directions, their interleaving and lost segments.
 *
 * Built by `make fuzz` with the engine (qa/fuzz/fuzz.mk); seeds:
 * qa/fuzz/ber-seeds.py writes suricata-verify's LDAP, Kerberos and SNMP
 * flows in this format. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app-layer/app-layer.h"
#include "app-layer/krb5.h"
#include "app-layer/ldap.h"
#include "app-layer/snmp.h"
#include "detect/buffers.h"
#include "output/krb5-json.h"
#include "output/ldap-json.h"
#include "output/snmp-json.h"
#include "fuzz-common.h"
#include "fuzz-engine.h"

static AppLayerConfig cfg;
static AppLayerThread *at;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	app_layer_config_load(&cfg);
	at = app_layer_thread_new(&cfg, NULL);
	return 0;
}

static const struct {
	uint8_t proto;
	uint16_t dp;
} flows[] = { { 6, 389 }, { 17, 389 }, { 6, 88 }, { 17, 88 }, { 17, 161 } };

static const int bufs[] = {
	BUF_LDAP_REQUEST_DN, BUF_LDAP_RESPONSES_DN, BUF_LDAP_RESPONSES_MESSAGE,
	BUF_LDAP_REQUEST_ATTRIBUTE_TYPE, BUF_LDAP_RESPONSES_ATTRIBUTE_TYPE,
	BUF_KRB5_CNAME, BUF_KRB5_SNAME,
	BUF_SNMP_COMMUNITY, BUF_SNMP_USM, BUF_SNMP_TRAP_OID, BUF_SNMP_TRAP_ADDRESS,
};

static unsigned check_tx(const Flow *f, void *tx)
{
	json_t *o = NULL;
	unsigned sink = 0;

	switch (f->app_proto) {
	case ALPROTO_LDAP:
		o = ldap_json_object(tx);
		break;
	case ALPROTO_KRB5:
		if (((Krb5Tx *)tx)->valid)
			o = krb5_json_object(&((Krb5Tx *)tx)->m);
		break;
	case ALPROTO_SNMP:
		if (((SnmpTx *)tx)->valid)
			o = snmp_json_object(&((SnmpTx *)tx)->m);
		break;
	}
	sink += fuzz_tx_eve_object(o);
	sink += fuzz_tx_buffers(bufs, sizeof(bufs) / sizeof(bufs[0]), f->app_proto, tx);
	return sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Flow f;
	size_t pos = 1;
	volatile unsigned sink = 0;
	unsigned all = APP_TX_LOGGED | APP_TX_DETECT_TS | APP_TX_DETECT_TC | APP_TX_FILE_LOGGED;

	if (!size || !at)
		return 0;
	memset(&f, 0, sizeof(f));
	f.proto = flows[data[0] % 5].proto;
	f.sp = 40000;
	f.dp = flows[data[0] % 5].dp;
	while (pos < size) {
		uint8_t ctl = data[pos++];
		int dir = ctl & 0x80 ? APP_DIR_TOCLIENT : APP_DIR_TOSERVER;
		size_t n = (size_t)(ctl & 0x3f) + 1;
		uint8_t *chunk;

		if (ctl & 0x40) {
			if (f.proto == 6)
				app_layer_handle_data(at, &f, dir, NULL, (uint32_t)(n * 97), APP_GAP);
			continue;
		}
		if (n > size - pos)
			n = size - pos;
		/* a private copy: ASan then flags any read past the chunk */
		chunk = malloc(n ? n : 1);
		if (!chunk)
			break;
		memcpy(chunk, data + pos, n);
		app_layer_handle_data(at, &f, dir, chunk, (uint32_t)n, 0);
		free(chunk);
		pos += n;
		/* detection and logging are done with what is complete */
		for (uint64_t id = 0; f.alstate && id < app_layer_tx_count(&f); id++) {
			void *tx = app_layer_tx_get(&f, id);

			if (tx && (f.app_proto == ALPROTO_LDAP || f.app_proto == ALPROTO_KRB5 ||
				   f.app_proto == ALPROTO_SNMP)) {
				sink += check_tx(&f, tx);
				app_layer_tx_set_flags(&f, tx, all);
			}
		}
		app_layer_tx_gc(&f, all);
	}
	app_layer_handle_data(at, &f, APP_DIR_TOSERVER, NULL, 0, APP_EOF);
	app_layer_handle_data(at, &f, APP_DIR_TOCLIENT, NULL, 0, APP_EOF);
	app_layer_flow_free(&f);
	(void)sink;
	return 0;
}
