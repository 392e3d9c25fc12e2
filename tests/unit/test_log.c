/* The console streams of src/util/log.c: as in Suricata, Error lines go to
 * stderr and every other level to stdout (scripts, suricata-verify's among
 * them, grep notices and warnings from stdout). */
#include "test.h"
#include "util/log.h"

#include <stdlib.h>
#include <string.h>
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

/* logging.outputs.console.type: json: one JSON object a line, the message
 * escaped, the level by Suricata's name. */
TEST(log_console_json_is_one_escaped_object)
{
	struct captured c;

	log_set_level(LOG_LVL_NOTICE);
	log_set_console_format(LOG_FMT_JSON);
	CHECK_EQ(log_captured(LOG_LVL_NOTICE, "a \"quoted\"\tpath\\x", &c), 0);
	log_set_console_format(LOG_FMT_PLAIN);
	CHECK(strncmp(c.out, "{\"timestamp\":\"", 14) == 0);
	CHECK(strstr(c.out, "\"log_level\":\"Notice\",\"event_type\":\"engine\"") != NULL);
	CHECK(strstr(c.out, "\"message\":\"a \\\"quoted\\\"\\tpath\\\\x\"}}\n") != NULL);
	CHECK_STREQ(c.err, "");
}

/* logging.outputs.file: its own level and format; a message longer than a
 * line is cut inside the JSON string, so the line still parses. */
TEST(log_file_json_keeps_its_level_and_stays_json_when_cut)
{
	char path[] = "/tmp/test_log_XXXXXX", buf[32768], big[6000];
	int fd = mkstemp(path);
	FILE *f;
	size_t got;
	struct captured c;

	CHECK(fd >= 0);
	close(fd);
	memset(big, 0x01, sizeof(big) - 1); /* 6 bytes escaped: over a line */
	big[sizeof(big) - 1] = '\0';
	log_set_level(LOG_LVL_ERROR);
	log_set_file_style(LOG_LVL_NOTICE, LOG_FMT_JSON);
	CHECK_EQ(log_open_file(path), 0);
	CHECK_EQ(log_captured(LOG_LVL_NOTICE, "kept", &c), 0);
	CHECK_EQ(log_captured(LOG_LVL_INFO, "above the file's level", &c), 0);
	CHECK_EQ(log_captured(LOG_LVL_WARNING, big, &c), 0);
	log_close_file();
	log_set_file_style(LOG_LVL_INFO, LOG_FMT_PLAIN);
	log_set_level(LOG_LVL_NOTICE);
	f = fopen(path, "r");
	CHECK(f != NULL);
	got = fread(buf, 1, sizeof(buf) - 1, f);
	buf[got] = '\0';
	fclose(f);
	unlink(path);
	CHECK(strstr(buf, "\"message\":\"kept\"}}\n{") != NULL);
	CHECK(strstr(buf, "above the file") == NULL);
	/* the cut line ends the string and both objects */
	CHECK_EQ(buf[got - 1], '\n');
	CHECK(strncmp(buf + got - 10, "\\u0001\"}}\n", 10) == 0);
}
