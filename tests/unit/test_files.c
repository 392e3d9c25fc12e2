/* The files module (app-layer/files.h) and HTTP's multipart parts
 * (app-layer/http-multipart.h): states, sizes, gaps, digests against
 * known values, libmagic, file-store v2 layout, the eve object. */
#define _GNU_SOURCE
#include "config.h"

#include "test.h"
#include "app-layer/files.h"
#include "output/file-log.h"
#include "output/json-writer.h"
#include "app-layer/http-multipart.h"
#include "conf/conf.h"
#include "detect/detect-parse.h"
#include "app-layer/app-layer.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static void hexs(const uint8_t *d, uint32_t n, char *out)
{
	for (uint32_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

static int digest_is(const File *f, int which, const char *want)
{
	uint32_t n;
	const uint8_t *d = file_hash(f, which, &n);
	char buf[65];

	if (!d)
		return 0;
	hexs(d, n, buf);
	return strcmp(buf, want) == 0;
}

TEST(files_hashes_match_known_digests_across_appends)
{
	FileContainer fc = { 0 };
	File *f;

	files_config_reset();
	files_request(FILE_NEED_MD5 | FILE_NEED_SHA1 | FILE_NEED_SHA256);
	f = files_open(&fc, (const uint8_t *)"abc.txt", 7, 3, 0);
	CHECK(f != NULL);
	CHECK_EQ(file_state(f), FILE_STATE_OPEN);
	/* "abc" in two pieces: the digests of FIPS 180 / RFC 1321's examples */
	file_append(f, (const uint8_t *)"a", 1);
	file_append(f, (const uint8_t *)"bc", 2);
	CHECK(file_hash(f, FILE_HASH_MD5, &(uint32_t){ 0 }) == NULL);   /* not final yet */
	file_close(f, FILE_CLOSE_OK);
	CHECK_EQ(file_state(f), FILE_STATE_CLOSED);
	CHECK_EQ(file_size(f), 3);
	CHECK_EQ(file_tx_id(f), 3);
	CHECK(digest_is(f, FILE_HASH_MD5, "900150983cd24fb0d6963f7d28e17f72"));
	CHECK(digest_is(f, FILE_HASH_SHA1, "a9993e364706816aba3e25717850c26c9cd0d89d"));
	CHECK(digest_is(f, FILE_HASH_SHA256,
			"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
	files_container_free(&fc);
	files_config_reset();
}

TEST(files_hash_only_what_is_asked)
{
	FileContainer fc = { 0 };
	File *f;

	files_config_reset();
	files_request(FILE_NEED_SHA256);
	f = files_open(&fc, (const uint8_t *)"x", 1, 0, 0);
	file_append(f, (const uint8_t *)"", 0);
	file_close(f, FILE_CLOSE_OK);
	CHECK(file_hash(f, FILE_HASH_MD5, &(uint32_t){ 0 }) == NULL);
	CHECK(file_hash(f, FILE_HASH_SHA1, &(uint32_t){ 0 }) == NULL);
	/* the empty file's sha256 */
	CHECK(digest_is(f, FILE_HASH_SHA256,
			"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
	files_container_free(&fc);
	files_config_reset();
}

TEST(files_states_truncated_error_and_gaps)
{
	FileContainer fc = { 0 };
	File *a, *b, *c;

	files_config_reset();
	files_request(FILE_NEED_SHA256);
	a = files_open(&fc, (const uint8_t *)"a", 1, 0, 0);
	b = files_open(&fc, (const uint8_t *)"b", 1, 0, 0);
	c = files_open(&fc, (const uint8_t *)"c", 1, 1, 0);
	CHECK_EQ(fc.n, 3);
	file_append(a, (const uint8_t *)"12345", 5);
	file_gap(a, 10);
	file_append(a, (const uint8_t *)"67", 2);
	file_close(b, FILE_CLOSE_ERROR);
	files_truncate_open(&fc);
	CHECK_EQ(file_state(a), FILE_STATE_TRUNCATED);
	CHECK_EQ(file_state(b), FILE_STATE_ERROR);
	CHECK_EQ(file_state(c), FILE_STATE_TRUNCATED);
	/* a gap counts in the size; the digest goes on over the bytes that
	 * came, the hole left out (suricata-verify tcp-rst-unacked-stream-10) */
	CHECK_EQ(file_size(a), 17);
	CHECK(file_has_gaps(a));
	CHECK(!file_has_gaps(c));
	CHECK(digest_is(a, FILE_HASH_SHA256,
			"8bb0cf6eb9b17d0f7d22b456f121257dc1254e1f01665370476383ea776df414"));
	/* appends after the end are ignored */
	file_append(c, (const uint8_t *)"zz", 2);
	CHECK_EQ(file_size(c), 0);
	CHECK(files_first(&fc) == a && file_next(a) == b && file_next(b) == c);
	files_container_free(&fc);
	CHECK_EQ(fc.n, 0);
	files_config_reset();
}

TEST(files_json_is_suricata_8s_fileinfo)
{
	FileContainer fc = { 0 };
	File *f;
	json_t *o;
	char *s;

	files_config_reset();
	files_request(FILE_NEED_MD5 | FILE_NEED_SHA256);
	f = files_open(&fc, (const uint8_t *)"/a b.pdf", 8, 2, 0);
	file_append(f, (const uint8_t *)"abc", 3);
	file_close(f, FILE_CLOSE_OK);
	file_mark_store(f, 7);
	file_mark_store(f, 7);
	o = file_json(f);
	s = json_dumps(o, JSON_PRESERVE_ORDER | JSON_COMPACT);
	CHECK_STREQ(s, "{\"filename\":\"/a b.pdf\",\"sid\":[7],\"gaps\":false,\"state\":\"CLOSED\","
		       "\"md5\":\"900150983cd24fb0d6963f7d28e17f72\",\"sha256\":"
		       "\"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\","
		       "\"stored\":false,\"size\":3,\"tx_id\":2}");
	free(s);
	json_decref(o);
	/* md5 of a TRUNCATED file is left out; sha256 stays (Suricata 8) */
	f = files_open(&fc, (const uint8_t *)"t", 1, 0, 0);
	file_append(f, (const uint8_t *)"abc", 3);
	file_close(f, FILE_CLOSE_TRUNCATED);
	o = file_json(f);
	CHECK(json_object_get(o, "md5") == NULL);
	CHECK(json_object_get(o, "sha256") != NULL);
	CHECK_STREQ(json_string_value(json_object_get(o, "state")), "TRUNCATED");
	json_decref(o);
	files_container_free(&fc);
	files_config_reset();
}

/* The writer form of the fileinfo object gives the tree's bytes, a name
 * that is not UTF-8 included (bytes outside printable ASCII as \xhh). */
TEST(files_json_write_matches_the_tree)
{
	static const uint8_t names[][6] = { "/ok.js", "a\xff\x01" "b\"c" };
	FileContainer fc = { 0 };

	files_config_reset();
	files_request(FILE_NEED_MD5 | FILE_NEED_SHA1 | FILE_NEED_SHA256);
	for (size_t i = 0; i < 2; i++) {
		File *f = files_open(&fc, names[i], 6, (uint64_t)i, 0);
		char line[1024];
		JsonWriter w;
		json_t *o;
		char *s;
		size_t n;

		file_append(f, (const uint8_t *)"abc", 3);
		file_close(f, FILE_CLOSE_OK);
		file_mark_store(f, 9);
		o = file_json(f);
		s = json_dumps(o, JSON_PRESERVE_ORDER | JSON_COMPACT);
		jw_begin(&w, line, sizeof(line));
		file_json_write(&w, f);
		n = jw_end(&w);
		CHECK(s && n == strlen(s) && memcmp(line, s, n) == 0);
		if (i == 1)
			CHECK(s && strstr(s, "\"filename\":\"a\\\\xff\\\\x01b\\\"c\"") != NULL);
		free(s);
		json_decref(o);
	}
	files_container_free(&fc);
	files_config_reset();
}

/* SMB's file.data reads a file's head: FILE_NEED_HEAD keeps it for the
 * files opened with FILE_OPEN_HEAD only, and asks no libmagic of any file
 * (FILE_NEED_MAGIC ran it on every logged file of every protocol). */
TEST(files_head_kept_only_for_head_files)
{
	static const char pdf[] = "%PDF-1.5\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n";
	FileContainer fc = { 0 };
	File *smb, *other;
	FileView v;
	uint32_t len = 0;
	const uint8_t *h;

	files_config_reset();
	files_request(FILE_NEED_HEAD);
	smb = files_open(&fc, (const uint8_t *)"a.pdf", 5, 0, FILE_OPEN_HEAD);
	other = files_open(&fc, (const uint8_t *)"b.pdf", 5, 1, 0);
	file_append(smb, (const uint8_t *)pdf, sizeof(pdf) - 1);
	file_append(other, (const uint8_t *)pdf, sizeof(pdf) - 1);
	file_close(smb, FILE_CLOSE_OK);
	file_close(other, FILE_CLOSE_OK);
	h = file_head(smb, &len);
	CHECK(h != NULL);
	CHECK_EQ(len, sizeof(pdf) - 1);
	CHECK(h && memcmp(h, pdf, len) == 0);
	CHECK(file_head(other, &len) == NULL);
	file_view(smb, &v);
	CHECK(v.magic == NULL);
	files_container_free(&fc);
	files_config_reset();
}

TEST(files_magic_names_a_pdf)
{
	static const char pdf[] = "%PDF-1.5\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n";
	FileContainer fc = { 0 };
	File *f;
	const char *m;

	if (!files_have_magic())
		return;
	files_config_reset();
	files_request(FILE_NEED_MAGIC);
	f = files_open(&fc, (const uint8_t *)"r.pdf", 5, 0, 0);
	file_append(f, (const uint8_t *)pdf, sizeof(pdf) - 1);
	file_close(f, FILE_CLOSE_OK);
	m = file_magic(f);
	CHECK(m != NULL);
	CHECK(strncmp(m, "PDF document, version 1.5", 25) == 0);
	files_container_free(&fc);
	files_config_reset();
}

TEST(files_store_v2_by_sha256_with_fileinfo_json)
{
	char dir[] = "/tmp/test-files-XXXXXX", path[512], err[256];
	FileContainer fc = { 0 };
	struct timeval ts = { 1000, 0 };
	struct stat st;
	File *f, *g;

	CHECK(mkdtemp(dir) != NULL);
	files_config_reset();
	conf_deinit();
	CHECK(conf_load_string("outputs:\n  - file-store:\n      version: 2\n      enabled: yes\n"
			       "      dir: fs\n      write-fileinfo: yes\n", "t", err,
			       sizeof(err)) == 0);
	files_request(FILE_NEED_STORE);
	CHECK(files_config_load(dir, err, sizeof(err)) == 0);
	CHECK(files_config()->store_enabled);
	f = files_open(&fc, (const uint8_t *)"abc", 3, 0, 0);
	g = files_open(&fc, (const uint8_t *)"other", 5, 0, 0);
	file_append(f, (const uint8_t *)"abc", 3);
	file_append(g, (const uint8_t *)"zzz", 3);
	file_close(f, FILE_CLOSE_OK);
	file_close(g, FILE_CLOSE_OK);
	/* not final: nothing decided */
	file_mark_store(f, 1);
	CHECK_EQ(file_store_finish(f, &ts), 1);
	CHECK_EQ(file_store_finish(g, &ts), 0);   /* no rule asked for it */
	CHECK(file_is_stored(f));
	CHECK(!file_is_stored(g));
	snprintf(path, sizeof(path),
		 "%s/fs/ba/ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", dir);
	CHECK(stat(path, &st) == 0 && st.st_size == 3);
	{
		json_t *o = file_json(f), *rec = json_object();
		unsigned long long id = (unsigned long long)json_integer_value(
			json_object_get(o, "file_id"));

		/* the logger hands over the eve record it built */
		json_object_set_new(rec, "event_type", json_string("fileinfo"));
		json_object_set_new(rec, "fileinfo", o);
		{
			char *line = json_dumps(rec, JSON_COMPACT | JSON_PRESERVE_ORDER);

			CHECK(line != NULL);
			CHECK_EQ(file_store_write_meta(f, line, strlen(line)), 0);
			/* not stored: nothing */
			CHECK_EQ(file_store_write_meta(g, line, strlen(line)), 0);
			free(line);
		}
		json_decref(rec);
		CHECK(id >= 1);
		snprintf(path, sizeof(path),
			 "%s/fs/ba/ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
			 ".1000.%llu.json", dir, id);
	}
	CHECK(stat(path, &st) == 0);
	files_container_free(&fc);
	conf_deinit();
	files_config_reset();
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	CHECK(system(path) == 0);
}

/* Suricata 8 makes file-store v2's folders at start, so that run-as can
 * give them to its user before privileges go */
TEST(files_store_v2_tree_made_at_start)
{
	char dir[] = "/tmp/test-files-XXXXXX", path[512], err[256];
	struct stat st;

	CHECK(mkdtemp(dir) != NULL);
	files_config_reset();
	conf_deinit();
	CHECK(conf_load_string("outputs:\n  - file-store:\n      version: 2\n      enabled: yes\n",
			       "t", err, sizeof(err)) == 0);
	CHECK(files_config_load(dir, err, sizeof(err)) == 0);
	for (unsigned i = 0; i < 256; i++) {
		snprintf(path, sizeof(path), "%s/filestore/%02x", dir, i);
		CHECK(stat(path, &st) == 0 && S_ISDIR(st.st_mode));
	}
	snprintf(path, sizeof(path), "%s/filestore/tmp", dir);
	CHECK(stat(path, &st) == 0 && S_ISDIR(st.st_mode));
	/* and given to another user and group (root only: else chown fails,
	 * which is said) */
	if (geteuid() == 0) {
		CHECK_EQ(files_store_chown(65534, 65534, err, sizeof(err)), 0);
		snprintf(path, sizeof(path), "%s/filestore/ff", dir);
		CHECK(stat(path, &st) == 0 && st.st_uid == 65534 && st.st_gid == 65534);
	} else {
		CHECK_EQ(files_store_chown(65534, 65534, err, sizeof(err)), -1);
		CHECK(strstr(err, "file-store: cannot give") != NULL);
	}
	conf_deinit();
	files_config_reset();
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	CHECK(system(path) == 0);
}

static int exists_in(const char *dir, const char *name)
{
	char path[600];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0;
}

static void touch_in(const char *dir, const char *name)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "w")))
		fclose(f);
}

/* A killed run leaves its spools in <dir>/tmp; the next start removes
 * those of pids that no longer run, and nothing else */
TEST(files_store_start_removes_stale_spools_only)
{
	char dir[] = "/tmp/test-files-XXXXXX", tmp[512], name[64], dead[64], mine[64], err[256];
	pid_t child;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(tmp, sizeof(tmp), "%s/filestore", dir);
	CHECK(mkdir(tmp, 0750) == 0);
	snprintf(tmp, sizeof(tmp), "%s/filestore/tmp", dir);
	CHECK(mkdir(tmp, 0750) == 0);
	/* a pid that ran and is gone */
	child = fork();
	if (child == 0)
		_exit(0);
	CHECK(child > 0 && waitpid(child, NULL, 0) == child);
	snprintf(dead, sizeof(dead), "file.%ld.17", (long)child);
	snprintf(mine, sizeof(mine), "file.%ld.3", (long)getpid());
	touch_in(tmp, dead);
	touch_in(tmp, mine);
	touch_in(tmp, "file.1.5");            /* pid 1 runs: another instance's */
	touch_in(tmp, "file.x.5");            /* not our pattern */
	touch_in(tmp, "file.123");
	touch_in(tmp, "file.123.4b");
	touch_in(tmp, "notes.txt");
	files_config_reset();
	conf_deinit();
	CHECK(conf_load_string("outputs:\n  - file-store:\n      version: 2\n      enabled: yes\n",
			       "t", err, sizeof(err)) == 0);
	CHECK(files_config_load(dir, err, sizeof(err)) == 0);
	CHECK(!exists_in(tmp, dead));
	CHECK(!exists_in(tmp, mine));
	CHECK(exists_in(tmp, "file.1.5"));
	CHECK(exists_in(tmp, "file.x.5"));
	CHECK(exists_in(tmp, "file.123"));
	CHECK(exists_in(tmp, "file.123.4b"));
	CHECK(exists_in(tmp, "notes.txt"));
	conf_deinit();
	files_config_reset();
	snprintf(name, sizeof(name), "rm -rf '%s'", dir);
	CHECK(system(name) == 0);
}

TEST(files_store_stream_depth_cuts_the_stored_copy)
{
	char dir[] = "/tmp/test-files-XXXXXX", path[512], err[256];
	FileContainer fc = { 0 };
	struct timeval ts = { 1, 0 };
	struct stat st;
	File *f;

	CHECK(mkdtemp(dir) != NULL);
	files_config_reset();
	conf_deinit();
	CHECK(conf_load_string("outputs:\n  - file-store:\n      version: 2\n      enabled: yes\n"
			       "      force-filestore: yes\n      stream-depth: 2\n"
			       "stream:\n  reassembly:\n    depth: 1\n", "t", err,
			       sizeof(err)) == 0);
	CHECK(files_config_load(dir, err, sizeof(err)) == 0);
	f = files_open(&fc, (const uint8_t *)"abc", 3, 0, 0);
	file_append(f, (const uint8_t *)"abc", 3);
	file_close(f, FILE_CLOSE_OK);
	CHECK_EQ(file_store_finish(f, &ts), 1);
	/* named by the whole file's sha256, holding stream-depth bytes */
	snprintf(path, sizeof(path),
		 "%s/filestore/ba/ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		 dir);
	CHECK(stat(path, &st) == 0 && st.st_size == 2);
	files_container_free(&fc);
	conf_deinit();
	files_config_reset();
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	CHECK(system(path) == 0);
}

TEST(files_store_stream_depth_below_reassembly_depth_is_ignored)
{
	char err[256];

	files_config_reset();
	conf_deinit();
	CHECK(conf_load_string("outputs:\n  - file-store:\n      version: 2\n      enabled: yes\n"
			       "      stream-depth: 10000\n", "t", err, sizeof(err)) == 0);
	CHECK(system("mkdir -p /tmp/files-unit-ignored") == 0);
	CHECK(files_config_load("/tmp/files-unit-ignored", err, sizeof(err)) == 0);
	CHECK_EQ(files_config()->stream_depth, 0);
	conf_deinit();
	files_config_reset();
	CHECK(system("rm -rf /tmp/files-unit-ignored") == 0);
}

TEST(files_store_max_open_files_is_counted)
{
	char dir[] = "/tmp/test-files-XXXXXX", cmd[300], err[256];
	FileContainer fc = { 0 };
	struct timeval ts = { 1, 0 };
	FilesStats before, after;
	File *a, *b;

	CHECK(mkdtemp(dir) != NULL);
	files_config_reset();
	conf_deinit();
	CHECK(conf_load_string("outputs:\n  - file-store:\n      version: 2\n      enabled: yes\n"
			       "      force-filestore: yes\n      max-open-files: 1\n", "t", err,
			       sizeof(err)) == 0);
	CHECK(files_config_load(dir, err, sizeof(err)) == 0);
	files_stats(&before);
	a = files_open(&fc, (const uint8_t *)"a", 1, 0, 0);
	b = files_open(&fc, (const uint8_t *)"b", 1, 0, 0);   /* past the limit: not spooled */
	files_stats(&after);
	CHECK_EQ(after.open_files_max_hit - before.open_files_max_hit, 1);
	file_append(a, (const uint8_t *)"aa", 2);
	file_append(b, (const uint8_t *)"bb", 2);
	file_close(a, FILE_CLOSE_OK);
	file_close(b, FILE_CLOSE_OK);
	CHECK_EQ(file_store_finish(a, &ts), 1);
	CHECK_EQ(file_store_finish(b, &ts), 0);
	files_stats(&after);
	CHECK_EQ(after.stored - before.stored, 1);
	CHECK_EQ(after.fs_errors, before.fs_errors);
	files_container_free(&fc);
	conf_deinit();
	files_config_reset();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

TEST(files_config_rejects_unknown_hash)
{
	char err[256];

	files_config_reset();
	conf_deinit();
	CHECK(conf_load_string("outputs:\n  - eve-log:\n      types:\n        - files:\n"
			       "            force-hash: [md5, crc32]\n", "t", err, sizeof(err)) == 0);
	CHECK(files_config_load("/tmp", err, sizeof(err)) == -1);
	CHECK(strstr(err, "crc32") != NULL);
	conf_deinit();
	CHECK(conf_load_string("outputs:\n  - eve-log:\n      types:\n        - files:\n"
			       "            force-hash: [md5, sha1]\n            force-magic: yes\n",
			       "t", err, sizeof(err)) == 0);
	CHECK(files_config_load("/tmp", err, sizeof(err)) == 0);
	CHECK_EQ(files_config()->need & (FILE_NEED_MD5 | FILE_NEED_SHA1 | FILE_NEED_SHA256),
		 FILE_NEED_MD5 | FILE_NEED_SHA1);
	CHECK(files_config()->log_magic);
	conf_deinit();
	files_config_reset();
}

/* ---- multipart ---- */

static const char mp_body[] =
	"preamble\r\n"
	"--XyZ\r\n"
	"Content-Disposition: form-data; name=\"field\"\r\n\r\n"
	"value\r\n"
	"--XyZ  \r\n"
	"Content-Disposition: form-data; name=\"up\"; filename=\"a.jpg\"\r\n"
	"Content-Type: image/jpeg\r\n\r\n"
	"JPEG\r\nDATA\r\r\n--Xy\n--notit\r\n"
	"--XyZ\r\n"
	"Content-Disposition: form-data; name=\"up2\"; filename=b.txt\r\n\r\n"
	"\r\n"
	"--XyZ--\r\n"
	"epilogue\r\n--XyZ\r\nContent-Disposition: form-data; filename=\"no\"\r\n\r\nx";

typedef struct MpLog {
	char out[400];           /* "name{data}" per part, "!" when incomplete */
	size_t n;
	int parts;
} MpLog;

static int log_part(void *arg, const uint8_t *hdr, size_t hlen)
{
	MpLog *l = arg;
	const uint8_t *n;
	size_t nl;

	l->parts++;
	if (multipart_headers_filename(hdr, hlen, &n, &nl) != 0)
		return 0;
	l->n += (size_t)snprintf(l->out + l->n, sizeof(l->out) - l->n, "%.*s{", (int)nl, n);
	return 1;
}

static void log_data(void *arg, const uint8_t *d, size_t len)
{
	MpLog *l = arg;

	if (l->n + len < sizeof(l->out)) {
		memcpy(l->out + l->n, d, len);
		l->n += len;
		l->out[l->n] = 0;
	}
}

static void log_end(void *arg, int complete)
{
	MpLog *l = arg;

	l->n += (size_t)snprintf(l->out + l->n, sizeof(l->out) - l->n, "}%s", complete ? "" : "!");
}

static const MultipartOps log_ops = { log_part, log_data, log_end };

static void mp_run(const char *body, size_t len, size_t step, MpLog *l, int finish)
{
	MultipartStream *m = malloc(sizeof(*m));

	memset(l, 0, sizeof(*l));
	if (multipart_init(m, (const uint8_t *)"XyZ", 3) != 0) {
		free(m);
		return;
	}
	for (size_t i = 0; i < len; i += step)
		multipart_feed(m, (const uint8_t *)body + i, len - i < step ? len - i : step,
			       &log_ops, l);
	if (finish)
		multipart_finish(m, &log_ops, l);
	free(m);
}

TEST(multipart_stream_parts_whatever_the_pieces)
{
	static const char want[] = "a.jpg{JPEG\r\nDATA\r\r\n--Xy\n--notit}b.txt{}";
	const uint8_t *b;
	size_t bl;
	MpLog l;
	static const char ct[] = "multipart/form-data; boundary=XyZ";

	CHECK(multipart_boundary((const uint8_t *)ct, sizeof(ct) - 1, &b, &bl) == 0);
	CHECK(bl == 3 && memcmp(b, "XyZ", 3) == 0);
	CHECK(multipart_boundary((const uint8_t *)"text/plain", 10, &b, &bl) == -1);
	/* a field is not a file; a "--" line of another boundary and a lone
	 * CR are content; the epilogue after the close delimiter is nothing */
	mp_run(mp_body, sizeof(mp_body) - 1, sizeof(mp_body), &l, 1);
	CHECK_STREQ(l.out, want);
	CHECK_EQ(l.parts, 3);
	/* every split of the body gives the same parts */
	for (size_t step = 1; step < 40; step++) {
		mp_run(mp_body, sizeof(mp_body) - 1, step, &l, 1);
		CHECK_STREQ(l.out, want);
	}
}

TEST(multipart_stream_part_cut_short_is_incomplete)
{
	static const char body[] = "--XyZ\r\nContent-Disposition: form-data; filename=\"x\"\r\n\r\n"
				   "ABC\r\n--Xy";
	MpLog l;

	/* held back: "\r\n--Xy" may be the delimiter, until the body ends */
	mp_run(body, sizeof(body) - 1, 5, &l, 0);
	CHECK_STREQ(l.out, "x{ABC");
	mp_run(body, sizeof(body) - 1, 5, &l, 1);
	CHECK_STREQ(l.out, "x{ABC\r\n--Xy}!");
	/* a boundary past RFC 2046's limit is refused */
	{
		MultipartStream m;
		uint8_t big[71];

		memset(big, 'a', sizeof(big));
		CHECK(multipart_init(&m, big, sizeof(big)) == -1);
		CHECK(multipart_init(&m, big, 0) == -1);
	}
}

TEST(disposition_filename_forms)
{
	const uint8_t *n;
	size_t nl;
	static const char a[] = " attachment; filename=\"r.pdf\"";
	static const char b[] = "attachment;filename=plain.bin; size=3";
	static const char c[] = "attachment; xfilename=\"no\"";

	CHECK(disposition_filename((const uint8_t *)a, sizeof(a) - 1, &n, &nl) == 0 && nl == 5 &&
	      !memcmp(n, "r.pdf", 5));
	CHECK(disposition_filename((const uint8_t *)b, sizeof(b) - 1, &n, &nl) == 0 && nl == 9 &&
	      !memcmp(n, "plain.bin", 9));
	CHECK(disposition_filename((const uint8_t *)c, sizeof(c) - 1, &n, &nl) == -1);
}

/* ---- keywords (detect/file-kw.c) ---- */

static Signature *parse(const char *rule, char *err, size_t errlen, int *code)
{
	conf_deinit();
	return sig_parse(rule, NULL, err, errlen, code);
}

TEST(file_keywords_legacy_forms_are_contents_on_file_buffers)
{
	char err[256];
	int code = 0;
	Signature *s;
	const DetectContent *cd;

	s = parse("alert tcp any any -> any any (fileext:\"PDF\"; sid:1;)", err, sizeof(err), &code);
	CHECK(s != NULL);
	/* a rule of a protocol that carries files, the content on file.name */
	CHECK_EQ(s->alproto, ALPROTO_HTTP1);
	CHECK_EQ(s->lists[BUF_FILE_NAME].n, 1);
	cd = s->lists[BUF_FILE_NAME].m[0].cd;
	CHECK(cd->len == 4 && memcmp(cd->pat, ".PDF", 4) == 0);
	CHECK(cd->flags & CONTENT_NOCASE);
	CHECK(cd->flags & CONTENT_ENDSWITH);
	sig_free(s);
#ifdef HAVE_LIBMAGIC
	s = parse("alert http any any -> any any (filename:!\"S.PDF\"; filemagic:\"pdf\"; "
		  "http.uri; content:\"/x\"; sid:2;)", err, sizeof(err), &code);
	CHECK(s != NULL);
	cd = s->lists[BUF_FILE_NAME].m[0].cd;
	CHECK(cd->flags & CONTENT_NEGATED);
	CHECK(!(cd->flags & CONTENT_ENDSWITH));
	CHECK_EQ(s->lists[BUF_FILE_MAGIC].n, 1);
	/* the legacy keywords leave the sticky buffer alone: http.uri's content */
	CHECK_EQ(s->lists[BUF_HTTP_URI].n, 1);
	sig_free(s);
	CHECK(files_config()->need & FILE_NEED_MAGIC);
#endif
	files_config_reset();
}

/* filemagic and file.magic need libmagic: a build without it (configure
 * --disable-libmagic, or none found) refuses the rule with the reason
 * instead of loading a rule that never matches. */
TEST(file_magic_keywords_need_libmagic)
{
	static const char *const rules[] = {
		"alert http any any -> any any (filemagic:\"pdf\"; sid:1;)",
		"alert http any any -> any any (file.magic; content:\"pdf\"; sid:2;)",
	};
	char err[256];
	int code = 0;

	for (unsigned i = 0; i < 2; i++) {
		Signature *s = parse(rules[i], err, sizeof(err), &code);

#ifdef HAVE_LIBMAGIC
		CHECK(s != NULL);
#else
		CHECK(s == NULL);
		CHECK(strstr(err, "no libmagic support") != NULL);
#endif
		sig_free(s);
	}
	files_config_reset();
}

TEST(filesize_takes_a_direction_first)
{
	char err[256];
	int code = 0;
	Signature *s = parse("alert http any any -> any any (filesize: to_client, <100; sid:1;)",
			     err, sizeof(err), &code);

	CHECK(s != NULL);
	CHECK_EQ(s->lists[SM_LIST_MATCH].n, 1);
	sig_free(s);
	files_config_reset();
}

/* The file keywords' page gives filesize units: KB, MB and GB (any case,
 * powers of 1024), as every integer keyword of Suricata 8 takes. */
TEST(filesize_takes_units)
{
	static const char *const ok[] = { ">100KB", "1mb<>2MB", "to_server, <1GiB", "!3kib" };
	char rule[128], err[256];
	int code = 0;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		snprintf(rule, sizeof(rule), "alert http any any -> any any (filesize:%s; sid:1;)",
			 ok[i]);
		Signature *s = parse(rule, err, sizeof(err), &code);

		CHECK(s != NULL);
		if (s)
			sig_free(s);
	}
	CHECK(parse("alert http any any -> any any (filesize:>10TB; sid:1;)", err, sizeof(err),
		    &code) == NULL);
	CHECK(strstr(err, "invalid filesize") != NULL);
	files_config_reset();
}

TEST(file_keywords_rejections)
{
	char err[256];
	int code = 0;

	CHECK(parse("alert udp any any -> any any (filename:\"x\"; sid:1;)", err, sizeof(err),
		    &code) == NULL);
	CHECK(strstr(err, "file keywords need a tcp") != NULL);
	CHECK(parse("alert http any any -> any any (filestore:sideways; sid:1;)", err,
		    sizeof(err), &code) == NULL);
	CHECK(strstr(err, "unknown direction \"sideways\"") != NULL);
	CHECK(parse("alert http any any -> any any (filestore:both,forever; sid:1;)", err,
		    sizeof(err), &code) == NULL);
	CHECK(strstr(err, "unknown scope \"forever\"") != NULL);
	CHECK(parse("alert http any any -> any any (filemd5:/nonexistent/list; sid:1;)", err,
		    sizeof(err), &code) == NULL);
	CHECK(strstr(err, "cannot open hash list") != NULL);
	CHECK(parse("alert http any any -> any any (filesize:abc; sid:1;)", err, sizeof(err),
		    &code) == NULL);
	CHECK(strstr(err, "invalid filesize") != NULL);
	files_config_reset();
}

TEST(file_hash_list_lines_are_checked)
{
	char path[] = "/tmp/test-files-md5-XXXXXX", rule[256], err[256];
	int code = 0, fd = mkstemp(path);
	Signature *s;
	FILE *fp;

	CHECK(fd >= 0);
	fp = fdopen(fd, "w");
	fprintf(fp, "# md5 list\n\n900150983cd24fb0d6963f7d28e17f72 abc\n");
	fclose(fp);
	snprintf(rule, sizeof(rule), "alert http any any -> any any (filemd5:%s; sid:1;)", path);
	s = parse(rule, err, sizeof(err), &code);
	CHECK(s != NULL);
	CHECK(s->flags & SIG_FLAG_TX_MATCH);
	CHECK(files_config()->need & FILE_NEED_MD5);
	sig_free(s);
	fp = fopen(path, "a");
	fprintf(fp, "not-a-hash\n");
	fclose(fp);
	CHECK(parse(rule, err, sizeof(err), &code) == NULL);
	CHECK(strstr(err, ":4: not a 32-hex-digit hash") != NULL);
	snprintf(rule, sizeof(rule), "alert http any any -> any any (filesha1:%s; sid:1;)", path);
	CHECK(parse(rule, err, sizeof(err), &code) == NULL);
	CHECK(strstr(err, "not a 40-hex-digit hash") != NULL);
	unlink(path);
	files_config_reset();
}
