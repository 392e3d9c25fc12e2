/* libFuzzer harness: the SMB parser (NBSS framing, SMB1, SMB2 compound
 * chains, the SMB3 transform header, NTLMSSP, files), the eve object and
 * the keyword buffers on one flow made from the input.
 *
 * Input: chunks, each a control byte then its bytes. Control bit 7 is the
 * direction (set: to client); bit 6 set makes the chunk a gap of (bits
 * 0-5 + 1) * 97 bytes with no bytes of its own; else bits 0-5 + 1 is the
 * chunk length. One input covers segmentation, both directions, their
 * interleaving and lost segments.
 *
 * Built by `make fuzz` with the engine (qa/fuzz/fuzz.mk); seeds:
 * qa/fuzz/smb-seeds.py writes suricata-verify's SMB flows in this format. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app-layer/smb-parse.h"
#include "detect/buffers.h"
#include "output/smb-json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	SmbState *s = smb_state_new();
	size_t pos = 0;
	volatile unsigned sink = 0;
	static const int bufs[] = { BUF_SMB_SHARE, BUF_SMB_NAMED_PIPE, BUF_SMB_NTLMSSP_USER,
				    BUF_SMB_NTLMSSP_DOMAIN };

	if (!s)
		return 0;
	(void)smb_probe(data, size, 1, NULL);
	while (pos < size) {
		uint8_t ctl = data[pos++];
		int dir = ctl & 0x80 ? SMB_TOCLIENT : SMB_TOSERVER;
		size_t n = (size_t)(ctl & 0x3f) + 1;
		uint8_t *chunk;

		if (ctl & 0x40) {
			smb_gap(s, dir, n * 97);
			continue;
		}
		if (n > size - pos)
			n = size - pos;
		/* a private copy: ASan then flags any read past the chunk */
		chunk = malloc(n ? n : 1);
		if (!chunk)
			break;
		memcpy(chunk, data + pos, n);
		(void)smb_parse(s, dir, chunk, n);
		free(chunk);
		pos += n;
	}
	smb_eof(s, SMB_TOSERVER);
	for (SmbTx *t = s->head; t; t = t->next) {
		json_t *o = smb_json_object(NULL, t);
		char *txt = json_dumps(o, JSON_COMPACT);

		if (txt)
			sink += (unsigned)strlen(txt);
		free(txt);
		json_decref(o);
		for (size_t i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++) {
			for (int side = 0; side < 2; side++) {
				const uint8_t *d;
				uint32_t len;
				const DetectBuffer *b = detect_buffer(bufs[i]);

				if (b->get(b, t, side, 0, &d, &len) == 0 && len)
					sink += d[0] + d[len - 1];
			}
		}
		for (int d = 0; d < 2; d++)
			for (const File *f = files_first(&t->files[d]); f; f = file_next(f))
				sink += (unsigned)file_size(f);
	}
	smb_state_free(s);
	(void)sink;
	return 0;
}
