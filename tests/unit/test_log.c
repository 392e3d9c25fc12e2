/* The console streams of src/util/log.c: as in Suricata, Error lines go to
 * stderr and every other level to stdout (scripts, suricata-verify's among
 * them, grep notices and warnings from stdout). */
#include "test.h"
#include "util/log.h"

#include <stdlib.h>
#include <unistd.h>

struct captured {
	char out[512];
	char err[512];
};

static void read_stream(FILE *f, char *buf, size_t len)
{
	size_t got;

	rewind(f);
	got = fread(buf, 1, len - 1, f);
	buf[got] = '\0';
	fclose(f);
}

/* Logs one line at lvl with fd 1 and fd 2 redirected into c. */
static int log_captured(enum log_level lvl, const char *text, struct captured *c)
{
	FILE *o = tmpfile(), *e = tmpfile();
	int so, se;

	if (!o || !e)
		return -1;
	fflush(stdout);
	fflush(stderr);
	so = dup(1);
	se = dup(2);
	dup2(fileno(o), 1);
	dup2(fileno(e), 2);
	log_msg(lvl, "%s", text);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	read_stream(o, c->out, sizeof(c->out));
	read_stream(e, c->err, sizeof(c->err));
	return 0;
}

TEST(log_error_goes_to_stderr_only)
{
	struct captured c;

	log_set_level(LOG_LVL_NOTICE);
	CHECK_EQ(log_captured(LOG_LVL_ERROR, "x: broken", &c), 0);
	CHECK_STREQ(c.err, "Error: x: broken\n");
	CHECK_STREQ(c.out, "");
}

TEST(log_warning_notice_info_go_to_stdout)
{
	static const struct {
		enum log_level lvl;
		const char *want;
	} cases[] = {
		{ LOG_LVL_WARNING, "Warning: m\n" },
		{ LOG_LVL_NOTICE, "Notice: m\n" },
		{ LOG_LVL_INFO, "Info: m\n" },
		{ LOG_LVL_PERF, "Perf: m\n" },
		{ LOG_LVL_CONFIG, "Config: m\n" },
	};
	struct captured c;

	log_set_level(LOG_LVL_CONFIG);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_EQ(log_captured(cases[i].lvl, "m", &c), 0);
		CHECK_STREQ(c.out, cases[i].want);
		CHECK_STREQ(c.err, "");
	}
	log_set_level(LOG_LVL_NOTICE);
}

TEST(log_level_above_console_level_prints_nothing)
{
	struct captured c;

	log_set_level(LOG_LVL_WARNING);
	CHECK_EQ(log_captured(LOG_LVL_NOTICE, "quiet", &c), 0);
	CHECK_STREQ(c.out, "");
	CHECK_STREQ(c.err, "");
	log_set_level(LOG_LVL_NOTICE);
}
