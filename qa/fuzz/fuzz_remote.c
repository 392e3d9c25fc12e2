/* libFuzzer harness: the remote-access protocols' parsers, RFB (the VNC
 * handshake), RDP (X.224, MCS Connect-Initial's client data, the TLS
 * certificates) and the telnet message scanner, with their eve objects
 * and RFB's keyword buffer, on flows made from the input.
 *
 * Input: a first byte whose low two bits pick the protocol (0 RFB, 1 RDP,
 * 2 telnet, 3 all three on the same bytes), then chunks in fuzz_ssh's
 * format: a control byte, bit 7 the direction (set: to client), bits 0-6
 * + 1 the chunk length; a control byte of 0x7f ends the direction it names
 * (a gap or the end of the side). Seeds: qa/fuzz/remote-seeds.py. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app-layer/rdp.h"
#include "app-layer/rfb.h"
#include "app-layer/telnet.h"
#include "output/rdp-json.h"
#include "output/rfb-json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile unsigned sink;

static void dump_ok(json_t *j)
{
	char *txt = json_dumps(j, JSON_COMPACT);

	/* every object must be valid JSON / UTF-8 */
	if (!txt)
		abort();
	free(txt);
	json_decref(j);
}

static void telnet_cb(void *ctx, int kind, int end, uint64_t off)
{
	(void)ctx;
	sink += (unsigned)kind + (unsigned)end + (unsigned)off;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	RfbState *rfb;
	RdpState *rdp;
	TelnetSide tel[2];
	unsigned pick;
	size_t pos = 1;

	if (size < 1)
		return 0;
	pick = data[0] & 3;
	rfb = rfb_state_new();
	rdp = rdp_state_new();
	memset(tel, 0, sizeof(tel));
	if (!rfb || !rdp)
		goto out;
	(void)rfb_probe(data, (uint32_t)size);
	(void)rdp_probe(0, data, (uint32_t)size);
	(void)rdp_probe(1, data, (uint32_t)size);
	while (pos < size) {
		uint8_t ctl = data[pos++];
		int dir = ctl & 0x80 ? 1 : 0;
		size_t n = (size_t)(ctl & 0x7f) + 1;
		uint8_t *chunk;

		if ((ctl & 0x7f) == 0x7f && (data[0] & 4)) {
			rfb_side_end(rfb, dir);
			rdp_side_end(rdp, dir);
			continue;
		}
		if (n > size - pos)
			n = size - pos;
		/* a private copy: ASan then flags any read past the chunk */
		chunk = malloc(n ? n : 1);
		if (!chunk)
			break;
		memcpy(chunk, data + pos, n);
		if (pick == 0 || pick == 3)
			(void)rfb_parse(rfb, dir, chunk, (uint32_t)n);
		if (pick == 1 || pick == 3)
			(void)rdp_parse(rdp, dir, chunk, (uint32_t)n);
		if (pick == 2 || pick == 3)
			telnet_scan(&tel[dir], chunk, (uint32_t)n, telnet_cb, NULL);
		free(chunk);
		pos += n;
	}
	dump_ok(rfb_json_object(&rfb->info));
	{
		const uint8_t *d;
		uint32_t len;

		/* the RFB transaction is the ops' wrapper; read the name as the
		 * buffer getter would, from the parser's info */
		if (rfb->info.has_server_init && rfb->info.name_len) {
			d = rfb->info.name;
			len = rfb->info.name_len;
			sink += d[0] + d[len - 1];
		}
	}
	for (uint64_t id = 0; id < rdp->txs.next_id; id++) {
		const RdpTx *tx = txl_op_get(rdp, id);

		if (tx)
			dump_ok(rdp_json_object(tx));
	}
out:
	rfb_state_free(rfb);
	rdp_state_free(rdp);
	return 0;
}
