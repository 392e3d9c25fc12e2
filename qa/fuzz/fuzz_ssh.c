/* libFuzzer harness: the SSH parser (banners, binary packets, KEXINIT and
 * hassh), the eve object and the keyword buffers on one flow made from
 * the input.
 *
 * Input: chunks, each a control byte then its bytes. Control bit 7 is the
 * direction (set: to client), bits 0-6 + 1 the chunk length, so one input
 * covers segmentation, both directions and their interleaving (the format
 * of fuzz_tls). The input as a whole is also given to the KEXINIT decoder
 * for both sides.
 *
 * Built by `make fuzz` with the engine (qa/fuzz/fuzz.mk); seeds:
 * qa/fuzz/ssh-ftp-seeds.py writes the tree's SSH captures and
 * suricata-verify's in this chunk format. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app-layer/ssh.h"
#include "detect/buffers.h"
#include "output/ssh-json.h"

/* The frame hook (ssh-parse.h): a packet's 6-byte header always ends
 * inside the chunk being parsed, wherever it began. */
static size_t cur_len;

static void on_record(void *arg, int dir, int64_t at, uint32_t plen)
{
	(void)arg;
	(void)dir;
	if (plen < 2 || at + 6 < 1 || at + 6 > (int64_t)cur_len)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	SshState *s = ssh_state_new(1);
	size_t pos = 0;
	volatile unsigned sink = 0;
	char *hs;

	if (!s)
		return 0;
	(void)ssh_probe(data, size);
	s->on_record = on_record;
	while (pos < size) {
		uint8_t ctl = data[pos++];
		int dir = ctl & 0x80 ? SSH_TOCLIENT : SSH_TOSERVER;
		size_t n = (size_t)(ctl & 0x7f) + 1;
		uint8_t *chunk;

		if (n > size - pos)
			n = size - pos;
		/* a private copy: ASan then flags any read past the chunk */
		chunk = malloc(n ? n : 1);
		if (!chunk)
			break;
		memcpy(chunk, data + pos, n);
		cur_len = n;
		(void)ssh_parse(s, dir, chunk, n);
		free(chunk);
		pos += n;
	}
	/* the buffers, through the getter detection uses (a tx's first member
	 * is its state) */
	struct { SshState *s; } tx = { s };
	static const int bufs[] = { BUF_SSH_PROTO, BUF_SSH_SOFTWARE, BUF_SSH_HASSH,
				    BUF_SSH_HASSH_STRING, BUF_SSH_HASSH_SERVER,
				    BUF_SSH_HASSH_SERVER_STRING };
	for (size_t b = 0; b < sizeof(bufs) / sizeof(bufs[0]); b++) {
		for (int side = 0; side < 2; side++) {
			const uint8_t *d;
			uint32_t len;

			if (ssh_buffer_get(detect_buffer(bufs[b]), &tx, side, 0, &d, &len) == 0 && len)
				sink += d[0] + d[len - 1];
		}
	}
	json_t *j = ssh_json_object(s, 1);
	char *txt = json_dumps(j, JSON_COMPACT);

	/* every string we build must be valid UTF-8 for eve */
	if (!txt)
		abort();
	free(txt);
	json_decref(j);
	hs = malloc(size + 8);
	if (hs) {
		(void)ssh_kexinit_hassh(data, size, 0, hs, size + 8);
		(void)ssh_kexinit_hassh(data, size, 1, hs, size + 8);
		free(hs);
	}
	sink += (unsigned)ssh_encrypted(s);
	(void)sink;
	ssh_state_free(s);
	return 0;
}
