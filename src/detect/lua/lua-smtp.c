/* suricata.smtp: the SMTP transaction of the call (Suricata 8's "SMTP"
 * library): get_tx(), then get_mail_from(), get_rcpt_list(),
 * get_mime_field(name) and get_mime_list(). The values are the
 * detection buffers' (smtp.mail_from, smtp.rcpt_to, email.*): the MIME
 * fields are those the email.* keywords know. */
#include "config.h"

#ifdef HAVE_LUA

#include "detect/lua/lua-int.h"
#include "detect/buffers.h"
#include "app-layer/app-layer.h"

#include <strings.h>

static const struct {
	const char *name;
	int buf;
} mime_fields[] = {
	{ "from", BUF_EMAIL_FROM },
	{ "to", BUF_EMAIL_TO },
	{ "cc", BUF_EMAIL_CC },
	{ "subject", BUF_EMAIL_SUBJECT },
	{ "date", BUF_EMAIL_DATE },
	{ "message-id", BUF_EMAIL_MESSAGE_ID },
	{ "x-mailer", BUF_EMAIL_X_MAILER },
};

#define NFIELDS (sizeof(mime_fields) / sizeof(mime_fields[0]))

static void *cur_tx(lua_State *L)
{
	void *tx = lua_ctx_tx(L, ALPROTO_SMTP);

	if (!tx)
		luaL_error(L, "no SMTP transaction");
	return tx;
}

static int tx_mail_from(lua_State *L)
{
	return lua_push_detect_buffer(L, BUF_SMTP_MAIL_FROM, cur_tx(L), APP_DIR_TOSERVER);
}

static int tx_rcpt_list(lua_State *L)
{
	const DetectBuffer *b = detect_buffer(BUF_SMTP_RCPT_TO);
	void *tx = cur_tx(L);
	const uint8_t *d;
	uint32_t len, i;

	lua_newtable(L);
	for (i = 0; b->get && b->get(b, tx, APP_DIR_TOSERVER, i, &d, &len) == 0; i++) {
		lua_pushlstring(L, (const char *)d, len);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	return 1;
}

static int tx_mime_field(lua_State *L)
{
	const char *name = luaL_checkstring(L, 2);
	void *tx = cur_tx(L);

	for (size_t i = 0; i < NFIELDS; i++)
		if (strcasecmp(mime_fields[i].name, name) == 0)
			return lua_push_detect_buffer(L, mime_fields[i].buf, tx, APP_DIR_TOSERVER);
	lua_pushnil(L);
	return 1;
}

/* the names of the known fields the message has */
static int tx_mime_list(lua_State *L)
{
	const uint8_t *d;
	uint32_t len;
	void *tx = cur_tx(L);
	lua_Integer n = 0;

	lua_newtable(L);
	for (size_t i = 0; i < NFIELDS; i++) {
		const DetectBuffer *b = detect_buffer(mime_fields[i].buf);

		if (!b->get || b->get(b, tx, APP_DIR_TOSERVER, 0, &d, &len) != 0)
			continue;
		lua_pushstring(L, mime_fields[i].name);
		lua_rawseti(L, -2, ++n);
	}
	return 1;
}

static int smtp_get_tx(lua_State *L)
{
	static const luaL_Reg methods[] = {
		{ "get_mail_from", tx_mail_from },
		{ "get_rcpt_list", tx_rcpt_list },
		{ "get_mime_field", tx_mime_field },
		{ "get_mime_list", tx_mime_list },
		{ NULL, NULL },
	};

	if (!lua_ctx_tx(L, ALPROTO_SMTP))
		return 2;
	luaL_newlib(L, methods);
	return 1;
}

int luaopen_suricata_smtp(lua_State *L)
{
	static const luaL_Reg lib[] = { { "get_tx", smtp_get_tx }, { NULL, NULL } };

	luaL_newlib(L, lib);
	return 1;
}

#endif /* HAVE_LUA */
