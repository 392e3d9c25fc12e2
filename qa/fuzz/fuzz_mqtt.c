/* libFuzzer harness: the MQTT parser (fixed headers, every control packet,
 * v5 properties, transactions, truncation past max-msg-length), the eve
 * object and the keyword buffers on one flow made from the input.
 *
 * Input: chunks, each a control byte then its bytes (fuzz_ssh's format):
 * bit 7 the direction (set: to client), bits 0-6 + 1 the chunk length. The
 * first byte also picks max-msg-length (0: none, else a small limit, so
 * that truncation and skipping across chunks are reached) and the max-tx.
 *
 * Built by `make fuzz` (qa/fuzz/fuzz.mk); seeds: qa/fuzz/mqtt-seeds.py
 * writes suricata-verify's MQTT flows in this format. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app-layer/mqtt.h"
#include "detect/buffers.h"
#include "output/mqtt-json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile unsigned sink;

static void look(const MqttTx *tx)
{
	static const int bufs[] = { BUF_MQTT_CONNECT_CLIENTID, BUF_MQTT_CONNECT_USERNAME,
				    BUF_MQTT_CONNECT_PASSWORD, BUF_MQTT_CONNECT_WILLTOPIC,
				    BUF_MQTT_CONNECT_WILLMESSAGE, BUF_MQTT_CONNECT_PROTOCOL_STRING,
				    BUF_MQTT_PUBLISH_TOPIC, BUF_MQTT_PUBLISH_MESSAGE,
				    BUF_MQTT_SUBSCRIBE_TOPIC, BUF_MQTT_UNSUBSCRIBE_TOPIC };
	json_t *j;
	char *txt;

	for (size_t b = 0; b < sizeof(bufs) / sizeof(bufs[0]); b++) {
		for (uint32_t idx = 0; idx < 64; idx++) {
			const uint8_t *d;
			uint32_t len;

			if (mqtt_buffer_get(detect_buffer(bufs[b]), (void *)tx, 0, idx, &d, &len) < 0)
				break;
			if (len)
				sink += d[0] + d[len - 1];
		}
	}
	j = mqtt_json_object(tx, (uint64_t)(tx->id % 3) * 16);
	txt = json_dumps(j, JSON_COMPACT);
	/* every record must be valid JSON / UTF-8 */
	if (!txt)
		abort();
	free(txt);
	json_decref(j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	MqttState *s;
	size_t pos = 1;

	if (size < 1)
		return 0;
	s = mqtt_state_new(data[0] & 1 ? (uint32_t)(data[0] >> 1) : 0, (data[0] & 0x80) ? 4 : 0);
	if (!s)
		return 0;
	(void)mqtt_probe(data, size);
	while (pos < size) {
		uint8_t ctl = data[pos++];
		int dir = ctl & 0x80 ? MQTT_TOCLIENT : MQTT_TOSERVER;
		size_t n = (size_t)(ctl & 0x7f) + 1;
		uint8_t *chunk;

		if (n > size - pos)
			n = size - pos;
		/* a private copy: ASan then flags any read past the chunk */
		chunk = malloc(n ? n : 1);
		if (!chunk)
			break;
		memcpy(chunk, data + pos, n);
		(void)mqtt_parse(s, dir, chunk, n);
		free(chunk);
		pos += n;
	}
	for (uint32_t i = 0; i < s->ntx; i++)
		look(s->txs[i]);
	mqtt_state_free(s, NULL);
	return 0;
}
