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
		{ LOG_LVL_WARNING, "Warning: suricata: m\n" },
		{ LOG_LVL_NOTICE, "Notice: suricata: m\n" },
		{ LOG_LVL_INFO, "Info: suricata: m\n" },
		{ LOG_LVL_PERF, "Perf: suricata: m\n" },
	};
	struct captured c;

	log_set_level(LOG_LVL_PERF);
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
	CHECK(strstr(c.out, "\"module\":\"suricata\",\"message\":\"a \\\"quoted\\\"\\tpath\\\\x\"}}\n") != NULL);
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

static LogRecord record(void)
{
	LogRecord r = {
		.level = LOG_LVL_WARNING, .subsystem = "detect", .message = "bad rule",
		.file = "src/detect/x.c", .line = 12, .func = "parse", .thread = "W#01",
		.tid = 4242, .sec = 0, .usec = 0,
	};
	return r;
}

/* Suricata 8's file default: "[%i - %m] %z %d: %S: %M" */
TEST(log_render_file_default_is_suricata_8s)
{
	char out[256];
	LogRecord r = record();

	setenv("TZ", "UTC", 1);
	tzset();
	r.sec = 1796643493; /* 2026-12-07 11:38:13 UTC */
	CHECK_EQ(log_render(out, sizeof(out), log_line_format(LOG_OUT_FILE), &r), strlen(out));
	CHECK_STREQ(out, "[4242 - W#01] 2026-12-07 11:38:13 Warning: detect: bad rule");
	CHECK_EQ(log_render(out, sizeof(out), "%t|%D|%T|%f:%l %n|%%|%q", &r), strlen(out));
	CHECK_STREQ(out, "7/12/2026 -- 11:38:13|W|W#01|src/detect/x.c:12 parse|%|%qbad rule");
}

/* A format without %M gets the message at its end; a long one is cut. */
TEST(log_render_adds_the_message_and_cuts_to_the_buffer)
{
	char out[16];
	LogRecord r = record();

	CHECK_EQ(log_render(out, sizeof(out), "<%d> -- ", &r), 15);
	CHECK_STREQ(out, "<Warning> -- ba");
}

/* The console's default follows the level as Suricata's does; a set format
 * wins (default-log-format, console.format, SC_LOG_FORMAT). */
TEST(log_console_format_by_level_and_set_format)
{
	struct captured c;

	log_set_level(LOG_LVL_NOTICE);
	CHECK_STREQ(log_line_format(LOG_OUT_CONSOLE), "%d: %S: %M");
	log_set_level(LOG_LVL_CONFIG);
	CHECK_STREQ(log_line_format(LOG_OUT_CONSOLE), "[%i] %d: %S: %M");
	log_set_level(LOG_LVL_DEBUG);
	CHECK_STREQ(log_line_format(LOG_OUT_CONSOLE), "%d: %S: %M [%n:%f:%l]");
	log_set_level(LOG_LVL_NOTICE);
	CHECK_EQ(log_set_line_format(LOG_OUT_CONSOLE, "<%d> [%S] %M!"), 0);
	CHECK_EQ(log_captured(LOG_LVL_NOTICE, "flow: table full", &c), 0);
	CHECK_EQ(log_set_line_format(LOG_OUT_CONSOLE, NULL), 0);
	CHECK_STREQ(c.out, "<Notice> [flow] table full!\n");
}

/* "name: " names the subsystem; a key path or a sentence does not. */
TEST(log_subsystem_is_the_leading_name_only)
{
	struct captured c;

	log_set_level(LOG_LVL_NOTICE);
	CHECK_EQ(log_set_line_format(LOG_OUT_CONSOLE, "%S|%M"), 0);
	CHECK_EQ(log_captured(LOG_LVL_NOTICE, "app-layer: x", &c), 0);
	CHECK_STREQ(c.out, "app-layer|x\n");
	CHECK_EQ(log_captured(LOG_LVL_NOTICE, "flow.memcap: bad", &c), 0);
	CHECK_STREQ(c.out, "suricata|flow.memcap: bad\n");
	CHECK_EQ(log_captured(LOG_LVL_NOTICE, "Runmode autofp: x", &c), 0);
	CHECK_STREQ(c.out, "suricata|Runmode autofp: x\n");
	CHECK_EQ(log_set_line_format(LOG_OUT_CONSOLE, NULL), 0);
}

/* default-output-filter: only lines matching it are written. */
TEST(log_output_filter_drops_lines_that_do_not_match)
{
	struct captured c;
	char err[128];

	log_set_level(LOG_LVL_NOTICE);
	CHECK_EQ(log_set_output_filter("keep", err, sizeof(err)), 0);
	CHECK_EQ(log_captured(LOG_LVL_NOTICE, "x: keep me", &c), 0);
	CHECK_STREQ(c.out, "Notice: x: keep me\n");
	CHECK_EQ(log_captured(LOG_LVL_ERROR, "x: drop me", &c), 0);
	CHECK_STREQ(c.err, "");
	CHECK_EQ(log_set_output_filter(NULL, err, sizeof(err)), 0);
	CHECK_EQ(log_set_output_filter("(", err, sizeof(err)), -1);
	CHECK(strstr(err, "offset 1") != NULL);
}
