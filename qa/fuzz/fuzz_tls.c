/* libFuzzer harness: the TLS parser, certificate decoding, ja3/ja4, the eve
 * object and the keyword buffers on one flow made from the input.
 *
 * Input: chunks, each a control byte then its bytes. Control bit 7 is the
 * direction (set: to client), bits 0-6 + 1 the chunk length, so one input
 * covers segmentation, both directions and their interleaving.
 *
 * Standalone build, from a configured tree (config.h at the top):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -Isrc \
 *     qa/fuzz/fuzz_tls.c src/app-layer/tls-parse.c src/app-layer/tls-cert.c \
 *     src/app-layer/tls-ja.c src/output/tls-json.c src/detect/tls-kw-match.c \
 *     -lcrypto -ljansson -o fuzz_tls
 *   mkdir -p corpus && ./fuzz_tls -max_len=65536 corpus
 * Seeds: qa/fuzz/tls-seeds.py writes the tests/data/tls captures in this
 * chunk format.
 *
 * Runs so far (clang 14, -fsanitize=fuzzer,address,undefined, one core):
 * 2026-12-01, 601 s, 1.32M execs, no crash; then with the keyword parsers
 * and multi-buffers added, 601 s, 2.33M execs, no crash. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app-layer/tls-parse.h"
#include "detect/tls-kw-match.h"
#include "output/tls-json.h"

/* The frame hook (tls-parse.h): a record's header always ends inside the
 * chunk being parsed, wherever it began. */
static size_t cur_len;

static void on_record(void *arg, int dir, int64_t at, uint32_t hlen, uint32_t len, uint8_t type)
{
	(void)arg;
	(void)dir;
	(void)len;
	(void)type;
	if ((hlen != 5 && hlen != 2) || at + (int64_t)hlen < 1 || at + (int64_t)hlen > (int64_t)cur_len)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	TlsState *s = tls_state_new();
	TlsKwInfo ki;
	size_t pos = 0;

	if (!s)
		return 0;
	tls_kw_info_init(&ki);
	s->on_record = on_record;
	(void)tls_probe(data, size);
	while (pos < size) {
		uint8_t ctl = data[pos++];
		int dir = ctl & 0x80 ? TLS_TOCLIENT : TLS_TOSERVER;
		size_t n = (size_t)(ctl & 0x7f) + 1;
		if (n > size - pos)
			n = size - pos;
		/* a private copy: ASan then flags any read past the chunk */
		uint8_t *chunk = malloc(n ? n : 1);
		if (!chunk)
			break;
		memcpy(chunk, data + pos, n);
		cur_len = n;
		(void)tls_parse(s, dir, chunk, n);
		free(chunk);
		pos += n;
		tls_kw_info_update(&ki, s);
	}
	for (int dir = 0; dir < 2; dir++) {
		const uint8_t *b;
		uint32_t len;
		for (int w = TLS_BUF_SNI; w <= TLS_BUF_RANDOM_BYTES; w++)
			if (tls_kw_buffer(&ki, s, (enum tls_kw_buf)w, dir, &b, &len) && len)
				(void)b[len - 1];
		for (unsigned i = 0; tls_kw_cert(s, dir, i, &b, &len); i++)
			(void)b[len - 1];
		for (unsigned i = 0; tls_kw_alpn(s, dir, i, &b, &len); i++)
			if (len)
				(void)b[len - 1];
		for (unsigned i = 0; tls_kw_san(&ki, dir, i, &b, &len); i++)
			if (len)
				(void)b[len - 1];
	}
	/* the rule-time parsers, on the input's first bytes as text */
	char arg[96];
	size_t an = size < sizeof(arg) - 1 ? size : sizeof(arg) - 1;
	memcpy(arg, data, an);
	arg[an] = '\0';
	TlsVersionKw vk;
	TlsSslVersionKw sv;
	TlsSslStateKw st;
	TlsDateKw dk;
	TlsLegacyKw lk;
	if (tls_kw_version_parse(arg, &vk) == 0)
		(void)tls_kw_version_match(&vk, s, TLS_TOCLIENT);
	if (tls_kw_ssl_version_parse(arg, &sv) == 0)
		(void)tls_kw_ssl_version_match(&sv, s, TLS_TOSERVER);
	if (tls_kw_ssl_state_parse(arg, &st) == 0)
		(void)tls_kw_ssl_state_match(&st, s->state);
	if (tls_kw_date_parse(arg, &dk) == 0)
		(void)tls_kw_notafter_match(&dk, &ki, TLS_TOCLIENT);
	if (tls_kw_legacy_parse(arg, &lk) == 0) {
		(void)tls_kw_legacy_match(&lk, &ki, TLS_BUF_CERT_SUBJECT);
		(void)tls_kw_legacy_match(&lk, &ki, TLS_BUF_CERT_FINGERPRINT);
		tls_kw_legacy_free(&lk);
	}
	json_t *j = tls_json_object(s, 0xffffffffu);
	char *txt = json_dumps(j, JSON_COMPACT);
	free(txt);
	json_decref(j);
	tls_kw_info_free(&ki);
	tls_state_free(s);
	return 0;
}
