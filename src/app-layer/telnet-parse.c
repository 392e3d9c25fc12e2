/* The telnet message scanner (telnet.h), from RFC 854's command
 * structure: IAC (255), then a command; WILL, WONT, DO and DONT
 * (251..254) take an option byte; SB (250) opens a subnegotiation that
 * IAC SE (255 240) closes, IAC IAC inside it being a data 255. */
#include "app-layer/telnet.h"

#define IAC 255
#define SB 250
#define SE 240

enum ctl_step { C_CMD = 0, C_OPTION, C_SUB, C_SUB_IAC };

void telnet_scan(TelnetSide *s, const uint8_t *p, uint32_t n, telnet_msg_fn cb, void *ctx)
{
	for (uint32_t i = 0; i < n; i++, s->pos++) {
		uint8_t c = p[i];

		if (s->msg == TELNET_MSG_DATA && c == IAC) {
			/* text ends where a command begins */
			cb(ctx, TELNET_MSG_DATA, 1, s->pos);
			s->msg = TELNET_MSG_NONE;
		}
		if (s->msg == TELNET_MSG_NONE) {
			s->msg = c == IAC ? TELNET_MSG_CTL : TELNET_MSG_DATA;
			s->ctl = C_CMD;
			s->prev_cr = 0;
			cb(ctx, s->msg, 0, s->pos);
			if (s->msg == TELNET_MSG_CTL)
				continue;
		}
		if (s->msg == TELNET_MSG_DATA) {
			if (s->prev_cr && c == '\n') {
				cb(ctx, TELNET_MSG_DATA, 1, s->pos + 1);
				s->msg = TELNET_MSG_NONE;
			}
			s->prev_cr = c == '\r';
			continue;
		}
		switch (s->ctl) {
		case C_CMD:
			if (c >= 251 && c <= 254) {
				s->ctl = C_OPTION;
				continue;
			}
			if (c == SB) {
				s->ctl = C_SUB;
				continue;
			}
			break;              /* a two-byte command (IAC IAC: a 255) */
		case C_OPTION:
			break;
		case C_SUB:
			if (c == IAC)
				s->ctl = C_SUB_IAC;
			continue;
		case C_SUB_IAC:
			if (c == SE)
				break;
			s->ctl = C_SUB;     /* IAC IAC, or a stray command */
			continue;
		}
		cb(ctx, TELNET_MSG_CTL, 1, s->pos + 1);
		s->msg = TELNET_MSG_NONE;
	}
}
