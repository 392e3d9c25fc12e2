/* libFuzzer harness: the DNS parser, TCP framing, transactions, the eve v3
 * objects and the keyword buffers, on one input.
 *
 * Standalone build (from the repository root; needs clang and libjansson-dev):
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc -I. \
 *       src/app-layer/dns-parse.c src/output/dns-json.c src/detect/dns-kw-match.c \
 *       qa/fuzz/fuzz_dns.c -ljansson -o fuzz_dns
 *   qa/fuzz/dns-seeds.py corpus/ $(find ../shared/suricata-verify/tests/dns -name "*.pcap")
 *   ./fuzz_dns -max_total_time=600 corpus/
 *
 * Input: byte 0 picks the direction (bit 0), the transaction model (bit 1),
 * the eve options (bits 2-3) and the TCP segment size (bits 4-7); the rest
 * is parsed once as a UDP payload, then fed as a TCP stream in segments of
 * that size; every message that comes out goes through the transactions,
 * the json and the keyword buffers. */
#include "app-layer/dns-parse.h"
#include "detect/dns-kw-match.h"
#include "output/dns-json.h"

#include <stdlib.h>
#include <string.h>

struct ctx {
	struct dns_txs txs;
	enum dns_dir dir;
	const struct dns_json_cfg *cfg;
};

static void exercise_tx(const struct dns_tx *tx, enum dns_dir dir,
			const struct dns_json_cfg *cfg)
{
	const struct dns_msg *m = dns_tx_msg(tx, dir);
	const uint8_t *d;
	uint32_t l;
	volatile uint32_t sink = 0;

	if (m) {
		json_t *j = dns_json_message(m, dir, tx->tx_id, cfg);

		if (j) {
			char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);

			/* every string we build must be valid UTF-8 for eve */
			if (!s)
				abort();
			free(s);
			json_decref(j);
		}
	}
	json_t *a = dns_json_alert(tx, dir);

	json_decref(a);
	for (int b = 0; b < DNS_KW_BUF_MAX; b++)
		for (uint32_t i = 0; dns_kw_buf_get(tx, dir, b, i, &d, &l); i++)
			sink += l ? d[0] + d[l - 1] : 1;

	struct dns_uint_match um = { DNS_UINT_GT, 0, 0 };

	sink += dns_kw_opcode_match(tx, dir, &um) + dns_kw_rcode_match(tx, dir, &um) +
		dns_kw_rrtype_match(tx, dir, &um);
	(void)sink;
}

static void on_msg(void *arg, const uint8_t *msg, uint32_t len)
{
	struct ctx *c = arg;
	struct dns_msg *m = NULL;
	struct dns_tx *tx = NULL;

	if (dns_msg_parse(msg, len, c->dir, &m) == DNS_E_NOMEM)
		return;
	/* the message keeps its own copy of the bytes: the transactions may
	 * outlive the frame (and the paired model's open limit gets a workout) */
	if (dns_txs_add(&c->txs, m, c->dir, &tx) == 0 && tx) {
		exercise_tx(tx, DNS_DIR_TOSERVER, c->cfg);
		exercise_tx(tx, DNS_DIR_TOCLIENT, c->cfg);
	}
	if (dns_txs_count(&c->txs) > 16)
		dns_txs_gc(&c->txs, tx ? tx->tx_id : 0);
	/* alternate directions so pairing happens */
	c->dir = c->dir == DNS_DIR_TOSERVER ? DNS_DIR_TOCLIENT : DNS_DIR_TOSERVER;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dns_json_cfg cfgs[4];
	static int init;

	if (!init) {
		dns_json_cfg_init(&cfgs[0]);
		dns_json_cfg_init(&cfgs[1]);
		dns_json_cfg_add_format(&cfgs[1], "grouped");
		dns_json_cfg_add_type(&cfgs[1], "a");
		dns_json_cfg_add_type(&cfgs[1], "txt");
		dns_json_cfg_init(&cfgs[2]);
		dns_json_cfg_add_format(&cfgs[2], "detailed");
		dns_json_cfg_add_type(&cfgs[2], "soa");
		dns_json_cfg_init(&cfgs[3]);
		cfgs[3].requests = false;
		init = 1;
	}
	if (size < 1)
		return 0;
	/* any bytes print: a NULL here would silently drop an eve key */
	json_t *str = dns_json_bytes(data, (uint32_t)(size > 65535 ? 65535 : size));

	if (!str)
		abort();
	json_decref(str);

	struct ctx c;
	uint8_t sel = data[0];
	size_t seg = (size_t)(sel >> 4) * 7 + 1;

	c.dir = sel & 1 ? DNS_DIR_TOCLIENT : DNS_DIR_TOSERVER;
	c.cfg = &cfgs[(sel >> 2) & 3];
	dns_txs_init(&c.txs, sel & 2 ? DNS_TXS_PAIRED : DNS_TXS_PER_MESSAGE, 4);
	data++;
	size--;

	/* UDP: the whole input is one message */
	on_msg(&c, data, (uint32_t)(size > 0xffffffffu ? 0xffffffffu : size));

	/* TCP: the same bytes as a stream */
	struct dns_tcp t;

	dns_tcp_init(&t);
	for (size_t off = 0; off < size; off += seg) {
		size_t n = size - off < seg ? size - off : seg;

		if (dns_tcp_feed(&t, data + off, n, on_msg, &c) < 0)
			break;
		if (off == seg * 3 && (sel & 0x0c) == 0x0c)
			dns_tcp_reset(&t); /* a gap now and then */
	}
	dns_tcp_free(&t);
	dns_txs_free(&c.txs);
	return 0;
}
