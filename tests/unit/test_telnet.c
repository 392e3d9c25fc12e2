/* Telnet: the message scanner (app-layer/telnet.h) at every
 * segmentation: control commands (two bytes, with an option, a
 * subnegotiation with an escaped IAC) and text lines, as frame bounds. */
#include "config.h"
#include "test.h"

#include "app-layer/telnet.h"

/* DO ECHO; SB TTYPE IS "x" IAC IAC SE; "login: " ...; NOP; "bob\r\n" */
static const uint8_t MSG[] = {
	255, 253, 1,
	255, 250, 24, 0, 'x', 255, 255, 255, 240,
	'l', 'o', 'g', 'i', 'n', ':', ' ',
	255, 241,
	'b', 'o', 'b', '\r', '\n',
	'\r', 'x', '\n',
};

struct rec {
	int n;
	int kind[16], end[16];
	uint64_t off[16];
};

static void cb(void *ctx, int kind, int end, uint64_t off)
{
	struct rec *r = ctx;

	if (r->n < 16) {
		r->kind[r->n] = kind;
		r->end[r->n] = end;
		r->off[r->n] = off;
	}
	r->n++;
}

TEST(telnet_messages_any_segmentation)
{
	static const int kind[] = { 2, 2, 2, 2, 1, 1, 2, 2, 1, 1, 1 };
	static const int end[] = { 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0 };
	static const uint64_t off[] = { 0, 3, 3, 12, 12, 19, 19, 21, 21, 26, 26 };

	for (uint32_t step = 1; step <= sizeof(MSG); step++) {
		TelnetSide s = { 0 };
		struct rec r = { 0 };

		for (uint32_t o = 0; o < sizeof(MSG); o += step)
			telnet_scan(&s, MSG + o, sizeof(MSG) - o < step ? sizeof(MSG) - o : step,
				    cb, &r);
		/* the last line ("\r x \n") is open: CR then x is no line end */
		CHECK_EQ(r.n, 11);
		for (int i = 0; i < 11; i++) {
			CHECK_EQ(r.kind[i], kind[i]);
			CHECK_EQ(r.end[i], end[i]);
			CHECK_EQ(r.off[i], off[i]);
		}
		CHECK_EQ(s.pos, sizeof(MSG));
	}
}
