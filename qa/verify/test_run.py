#!/usr/bin/python3
"""Tests of the suricata-verify runner, independent of the real engine.

Run: python3 -m unittest discover -s qa/verify -p 'test_*.py'
  or python3 qa/verify/test_run.py

The matching and check functions are tested on synthetic eve records; the whole
runner is tested end to end with a fake engine (a shell script) over a fake
suricata-verify folder built in a temporary directory.
"""

import io
import json
import os
import shutil
import sys
import tempfile
import textwrap
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402
import miniyaml  # noqa: E402

ALERT = {
	"event_type": "alert", "src_ip": "10.0.0.1", "src_port": 80, "proto": "TCP",
	"alert": {"signature_id": 1, "signature": "test sig", "metadata": {"a": ["b"]}},
	"http": {"http_method": "GET", "url": "/index.html",
		 "request_headers": [{"name": "Host", "value": "x"}, {"name": "A", "value": "b"}]},
	"tcp": {"flags": ["S", "A"]},
	"flow": {"alerted": True, "pkts_toserver": 3},
	"pcap_filename": "/data/ip_secopt.pcap",
}
FLOW = {"event_type": "flow", "src_port": 1234, "dest_port": 80, "proto": "TCP",
	"flow": {"pkts_toserver": 3, "alerted": True}}
STATS1 = {"event_type": "stats", "stats": {"decoder": {"pkts": 5, "ipv4": 4}}}
STATS2 = {"event_type": "stats", "stats": {"decoder": {"pkts": 10, "ipv4": 9},
					   "app_layer": {"tx": {"smtp": 2}}}}


def write_eve(directory, records, name="eve.json"):
	with open(os.path.join(directory, name), "w") as f:
		for r in records:
			f.write(json.dumps(r) + "\n")


class TestPaths(unittest.TestCase):
	def test_dotted_path_finds_nested_value(self):
		self.assertEqual(run.find_value("alert.signature_id", ALERT), 1)

	def test_index_path_finds_list_element(self):
		self.assertEqual(run.find_value("tcp.flags[1]", ALERT), "A")
		self.assertEqual(run.find_value("http.request_headers[1].name", ALERT), "A")

	def test_index_out_of_range_is_absent(self):
		self.assertIsNone(run.find_value("tcp.flags[2]", ALERT))

	def test_missing_key_is_absent(self):
		self.assertIsNone(run.find_value("alert.nope", ALERT))
		self.assertIsNone(run.find_value("nope.deeper", ALERT))

	def test_len_modifier_counts_list_items(self):
		self.assertEqual(run.find_value("http.request_headers.__len", ALERT), 2)

	def test_len_of_number_is_minus_one(self):
		self.assertEqual(run.find_value("src_port.__len", ALERT), -1)


class TestMatch(unittest.TestCase):
	def m(self, match, rec=ALERT):
		return run.match_record(rec, match)

	def test_all_keys_must_match(self):
		self.assertTrue(self.m({"event_type": "alert", "alert.signature_id": 1}))
		self.assertFalse(self.m({"event_type": "alert", "alert.signature_id": 2}))

	def test_number_does_not_match_its_string(self):
		self.assertFalse(self.m({"src_port": "80"}))

	def test_bool_value_matches(self):
		self.assertTrue(self.m({"flow.alerted": True}))
		self.assertFalse(self.m({"flow.alerted": False}))

	def test_list_value_matches_whole_list(self):
		self.assertTrue(self.m({"tcp.flags": ["S", "A"]}))
		self.assertFalse(self.m({"tcp.flags": ["S"]}))

	def test_null_matches_absent_key(self):
		self.assertTrue(self.m({"alert.nope": None}))

	def test_contains_on_string_and_list(self):
		self.assertTrue(self.m({"http.url.__contains": "index"}))
		self.assertTrue(self.m({"tcp.flags.__contains": "A"}))
		self.assertFalse(self.m({"tcp.flags.__contains": "R"}))

	def test_contains_on_absent_key_fails(self):
		self.assertFalse(self.m({"http.nope.__contains": "x"}))

	def test_find_startswith_endswith(self):
		self.assertTrue(self.m({"http.url.__find": "dex"}))
		self.assertFalse(self.m({"http.url.__find": "zzz"}))
		self.assertTrue(self.m({"http.url.__startswith": "/ind"}))
		self.assertFalse(self.m({"http.url.__startswith": "ind"}))
		self.assertTrue(self.m({"pcap_filename.__endswith": "ip_secopt.pcap"}))

	def test_len_modifier_in_match(self):
		self.assertTrue(self.m({"http.request_headers.__len": 2}))
		self.assertFalse(self.m({"http.request_headers.__len": 3}))

	def test_numeric_comparisons(self):
		self.assertTrue(self.m({"flow.pkts_toserver.__gt": 2}))
		self.assertFalse(self.m({"flow.pkts_toserver.__gt": 3}))
		self.assertTrue(self.m({"flow.pkts_toserver.__gte": 3}))
		self.assertTrue(self.m({"flow.pkts_toserver.__lt": 4}))
		self.assertFalse(self.m({"flow.pkts_toserver.__lte": 2}))
		self.assertFalse(self.m({"http.url.__gt": 1}))

	def test_has_key_and_not_has_key(self):
		self.assertTrue(self.m({"has-key": "alert.metadata"}))
		self.assertFalse(self.m({"has-key": "alert.rev"}))
		self.assertTrue(self.m({"not-has-key": "alert.rev"}))
		self.assertFalse(self.m({"not-has-key": ["alert.rev", "http.url"]}))
		self.assertTrue(self.m({"not-has-key": ["alert.rev", "tcp.flags[5]"]}))


class TestChecks(unittest.TestCase):
	def setUp(self):
		self.dir = tempfile.mkdtemp(prefix="qa-verify-test-")
		self.ctx = {"env": dict(os.environ), "test_dir": self.dir, "timeout": 10}
		write_eve(self.dir, [FLOW, ALERT, dict(ALERT, src_port=81), STATS1, STATS2])
		self.out = run.Output(self.dir)

	def tearDown(self):
		shutil.rmtree(self.dir)

	def fails(self, fn, cfg):
		with self.assertRaises(run.CheckFailed) as cm:
			fn(cfg, self.out, self.ctx)
		return str(cm.exception)

	def test_filter_count_passes_on_exact_count(self):
		run.check_filter({"count": 2, "match": {"event_type": "alert"}}, self.out, self.ctx)
		run.check_filter({"count": 0, "match": {"event_type": "dns"}}, self.out, self.ctx)

	def test_filter_count_mismatch_says_expected_and_found(self):
		msg = self.fails(run.check_filter, {"count": 1, "match": {"event_type": "alert"}})
		self.assertIn("expected count == 1, found 2", msg)

	def test_filter_hint_names_the_missing_key(self):
		msg = self.fails(run.check_filter, {"count": 1, "match": {
			"event_type": "alert", "alert.signature_id": 7}})
		self.assertIn("alert.signature_id = 1, want 7", msg)

	def test_filter_bounds(self):
		run.check_filter({"gt": 1, "match": {"event_type": "alert"}}, self.out, self.ctx)
		run.check_filter({"lt": 3, "match": {"event_type": "alert"}}, self.out, self.ctx)
		self.fails(run.check_filter, {"lt": 2, "match": {"event_type": "alert"}})
		self.fails(run.check_filter, {"gte": 3, "match": {"event_type": "alert"}})

	def test_filter_without_count_fails(self):
		self.assertIn("no count", self.fails(run.check_filter, {"match": {}}))

	def test_filter_on_other_file(self):
		write_eve(self.dir, [FLOW], "other.json")
		run.check_filter({"count": 1, "filename": "other.json",
				  "match": {"event_type": "flow"}}, self.out, self.ctx)
		msg = self.fails(run.check_filter, {"count": 1, "filename": "missing.json",
						    "match": {}})
		self.assertIn("missing.json was not written", msg)

	def test_filter_missing_eve_fails(self):
		os.unlink(os.path.join(self.dir, "eve.json"))
		msg = self.fails(run.check_filter, {"count": 0, "match": {}})
		self.assertIn("eve.json was not written", msg)

	def test_filter_bad_json_line_fails(self):
		with open(os.path.join(self.dir, "eve.json"), "a") as f:
			f.write('{"event_type": "alert", \n')
		msg = self.fails(run.check_filter, {"count": 2, "match": {"event_type": "alert"}})
		self.assertIn("line 6 is not JSON", msg)

	def test_stats_uses_last_stats_record(self):
		run.check_stats({"decoder.pkts": 10, "app_layer.tx.smtp": 2}, self.out, self.ctx)
		msg = self.fails(run.check_stats, {"decoder.pkts": 5})
		self.assertIn("stats.decoder.pkts: expected 5, found 10", msg)

	def test_stats_absent_counter_fails(self):
		msg = self.fails(run.check_stats, {"decoder.vlan": 0})
		self.assertIn("(absent)", msg)

	def test_stats_without_stats_record_fails(self):
		write_eve(self.dir, [FLOW])
		self.out = run.Output(self.dir)
		self.assertIn("no stats record", self.fails(run.check_stats, {"decoder.pkts": 1}))

	def test_shell_expect_compares_trimmed_stdout(self):
		with open(os.path.join(self.dir, "fast.log"), "w") as f:
			f.write("a\nb\n")
		run.check_shell({"args": "cat fast.log | wc -l | xargs", "expect": 2},
				self.out, self.ctx)
		msg = self.fails(run.check_shell, {"args": "cat fast.log | wc -l", "expect": 1})
		self.assertIn("expected '1', found '2'", msg)

	def test_shell_runs_in_output_dir_and_checks_exit(self):
		run.check_shell({"args": "test -e eve.json"}, self.out, self.ctx)
		self.assertIn("exited 1", self.fails(run.check_shell, {"args": "test -e nope"}))

	def test_file_compare(self):
		for name in ("made.txt", "want.txt"):
			with open(os.path.join(self.dir, name), "w") as f:
				f.write("same\n")
		cfg = {"filename": "made.txt", "expected": "want.txt"}
		run.check_file_compare(cfg, self.out, self.ctx)
		with open(os.path.join(self.dir, "made.txt"), "w") as f:
			f.write("other\n")
		self.assertIn("differs", self.fails(run.check_file_compare, cfg))


class FakeEngine:
	features = set(["HAVE_PCAP", "HAVE_JA3"])
	version = "8.0.0"
	srcdir = "/"
	present = True

	def config(self):
		return {"app-layer.protocols.dcerpc.enabled": "no"}


class TestRequires(unittest.TestCase):
	def req(self, r):
		run.check_requires(r, FakeEngine(), "/", {"HOME": "/root"})

	def skips(self, r):
		with self.assertRaises(run.Skip) as cm:
			self.req(r)
		return str(cm.exception)

	def test_versions_compare_on_given_parts(self):
		self.req({"min-version": 8})
		self.req({"min-version": "8.0"})
		self.req({"min-version": 7.0})
		self.req({"lt-version": 9})
		self.req({"gt-version": "6.0.11"})
		self.req({"version": 8})
		self.assertIn(">= 9", self.skips({"min-version": 9}))
		self.skips({"min-version": "8.0.1"})
		self.skips({"lt-version": 8})
		self.skips({"lt-version": "8.0"})
		self.skips({"gt-version": "8.0"})
		self.skips({"version": "7"})

	def test_features_env_files_script(self):
		self.req({"features": ["HAVE_JA3"]})
		self.assertIn("MAGIC", self.skips({"features": ["HAVE_JA3", "MAGIC"]}))
		self.req({"env": "HOME"})
		self.assertIn("NOPE_VAR", self.skips({"env": ["NOPE_VAR"]}))
		self.req({"files": ["bin"]})
		self.skips({"files": ["no/such/file"]})
		self.req({"script": ["true"]})
		self.skips({"script": ["true", "false"]})

	def test_unknown_requirement_skips_with_its_name(self):
		self.assertIn("lambda", self.skips({"lambda": "x"}))

	def test_skip_rules(self):
		run.check_skips([{"feature": "MAGIC", "msg": "m"}], FakeEngine())
		with self.assertRaises(run.Skip):
			run.check_skips([{"feature": "HAVE_JA3", "msg": "m"}], FakeEngine())
		with self.assertRaises(run.Skip):
			run.check_skips([{"config": {"app-layer.protocols.dcerpc.enabled": False},
					  "msg": "dcerpc off"}], FakeEngine())
		run.check_skips([{"config": {"app-layer.protocols.dcerpc.enabled": True}}],
				FakeEngine())


FAKE_ENGINE = r"""#!/bin/sh
# Fake engine: answers -V/--build-info, records its argv and working dir in the
# log dir, and copies $TEST_DIR/fake-eve.json there as eve.json.
case "$1" in
-V) echo "This is Suricata version 8.0.0 (fake)"; exit 0 ;;
--build-info) echo "Features: HAVE_PCAP HAVE_JA3"; exit 0 ;;
esac
log=
prev=
for a in "$@"; do
	[ "$prev" = "-l" ] && log=$a
	prev=$a
done
echo "$@" > "$log/argv"
pwd > "$log/cwd"
echo "TZ=$TZ FOO=$FOO" > "$log/env"
echo "engine says hello"
[ -f fake-sleep ] && sleep 5
[ -f fake-eve.json ] && cp fake-eve.json "$log/eve.json"
[ -f fake-exit ] && exit "$(cat fake-exit)"
exit 0
"""


class TestRunnerEndToEnd(unittest.TestCase):
	"""The whole runner over a fake suricata-verify tree and a fake engine."""

	def setUp(self):
		self.root = tempfile.mkdtemp(prefix="qa-verify-e2e-")
		self.vdir = os.path.join(self.root, "sv")
		os.makedirs(os.path.join(self.vdir, "tests"))
		for f in ("classification.config", "reference.config"):
			open(os.path.join(self.vdir, f), "w").close()
		self.engine = os.path.join(self.root, "suricata")
		with open(self.engine, "w") as f:
			f.write(FAKE_ENGINE)
		os.chmod(self.engine, 0o755)
		self.yaml = os.path.join(self.root, "suricata.yaml")
		open(self.yaml, "w").close()
		with open(os.path.join(self.vdir, "INDEX.tsv"), "w") as f:
			f.write("test\tscope\tcategory\tfeatures\n")
			f.write("good\tscope1\thttp\tx\n")
			f.write("bad\tscope1\thttp\tx\n")
			f.write("sub/nested-ips\tscope2\tips/inline\tx\n")

	def tearDown(self):
		shutil.rmtree(self.root)

	def add(self, name, yaml_text, eve=None, files=None):
		d = os.path.join(self.vdir, "tests", name)
		os.makedirs(d)
		with open(os.path.join(d, "test.yaml"), "w") as f:
			f.write(textwrap.dedent(yaml_text))
		if eve is not None:
			write_eve(d, eve, "fake-eve.json")
		for fname, content in (files or {}).items():
			with open(os.path.join(d, fname), "w") as f:
				f.write(content)
		return d

	def main(self, *args):
		buf = io.StringIO()
		with redirect_stdout(buf):
			rc = run.main(["--suricata", self.engine, "--yaml", self.yaml,
				       "--verify-dir", self.vdir, "--srcdir", self.root,
				       "--outdir", os.path.join(self.root, "out"),
				       "--timeout", "2"] + list(args))
		return rc, buf.getvalue().splitlines()

	def out(self, name, what):
		with open(os.path.join(self.root, "out", name, what)) as f:
			return f.read().strip()

	def test_pass_fail_skip_and_summary_lines(self):
		self.add("good", """\
			checks:
			  - filter:
			      count: 1
			      match: {event_type: alert}
			""", [ALERT], {"input.pcap": "", "test.rules": ""})
		self.add("bad", """\
			checks:
			  - filter:
			      count: 1
			      match: {event_type: flow}
			  - filter:
			      count: 3
			      match: {event_type: alert}
			""", [ALERT], {"input.pcap": ""})
		self.add("later", """\
			requires:
			  min-version: 9
			checks: []
			""", [], {"input.pcap": ""})
		rc, lines = self.main("--summary-by-category")
		self.assertEqual(rc, 1)
		self.assertIn("PASS: good", lines)
		bad = [l for l in lines if l.startswith("FAIL: bad:")]
		self.assertEqual(len(bad), 1)
		self.assertIn("check #1 (filter): expected count == 1, found 0", bad[0])
		self.assertIn("(+1 more failing checks)", bad[0])
		self.assertIn("SKIP: later: needs version >= 9 (have 8.0.0)", lines)
		self.assertIn("1 passed, 1 failed, 1 skipped", lines)
		self.assertEqual(lines[-1], "1 passed, 1 failed")
		self.assertTrue(any(l.strip().startswith("http") and "1 passed" in l
				    for l in lines))

	def test_command_line_follows_format(self):
		self.add("good", """\
			args:
			  - --set stream.midstream=true
			  - -k none
			env:
			  FOO: bar
			checks: []
			""", [], {"input.pcap": "", "test.rules": ""})
		rc, lines = self.main("good")
		self.assertEqual(lines[-1], "1 passed, 0 failed")
		argv = self.out("good", "argv").split()
		self.assertEqual(argv[:4], ["--set", "stream.midstream=true", "-k", "none"])
		self.assertIn("classification-file=%s/classification.config" % self.vdir, argv)
		self.assertEqual(argv[argv.index("-c") + 1], self.yaml)
		self.assertEqual(argv[argv.index("-r") + 1], "input.pcap")
		self.assertEqual(argv[argv.index("-S") + 1], "test.rules")
		self.assertNotIn("--simulate-ips", argv)
		self.assertEqual(self.out("good", "cwd"),
				 os.path.realpath(os.path.join(self.vdir, "tests", "good")))
		self.assertEqual(self.out("good", "env"), "TZ=UTC FOO=bar")
		self.assertEqual(self.out("good", "stdout"), "engine says hello")

	def test_ips_name_own_yaml_pcap_key_and_no_rules(self):
		self.add("other", "checks: []\n", None, {"x.pcap": ""})
		self.add("sub/nested-ips", """\
			pcap: ../../other/x.pcap
			checks: []
			""", [], {"suricata.yaml": ""})
		rc, lines = self.main("--category", "ips", "--no-retry")
		self.assertEqual(lines[-1], "1 passed, 0 failed")
		argv = self.out("sub/nested-ips", "argv").split()
		self.assertIn("--simulate-ips", argv)
		self.assertIn("--disable-detection", argv)
		self.assertEqual(argv[argv.index("-r") + 1], "../../other/x.pcap")
		self.assertTrue(argv[argv.index("-c") + 1].endswith("nested-ips/suricata.yaml"))

	def test_exit_code_and_timeout_fail(self):
		self.add("good", "checks: []\n", [], {"input.pcap": "", "fake-exit": "3"})
		self.add("slow", "checks: []\n", [], {"input.pcap": "", "fake-sleep": ""})
		rc, lines = self.main()
		self.assertIn("FAIL: good: engine exit code 3, expected 0", lines)
		self.assertIn("FAIL: slow: engine timed out after 2s", lines)

	def test_expected_exit_code(self):
		self.add("good", "exit-code: 3\nchecks: []\n", [],
			 {"input.pcap": "", "fake-exit": "3"})
		self.assertEqual(self.main()[1][-1], "1 passed, 0 failed")

	def test_check_requires_skips_only_that_check(self):
		self.add("good", """\
			checks:
			  - filter:
			      requires:
			        min-version: 9
			      count: 5
			      match: {event_type: alert}
			  - filter:
			      requires:
			        lt-version: 9
			      count: 1
			      match: {event_type: alert}
			""", [ALERT], {"input.pcap": ""})
		self.assertEqual(self.main()[1][-1], "1 passed, 0 failed")

	def test_shell_sees_stdout_and_test_dir(self):
		self.add("good", """\
			checks:
			  - shell:
			      args: grep -c hello stdout
			      expect: 1
			  - shell:
			      args: test -f $TEST_DIR/input.pcap && echo exists
			      expect: exists
			""", [], {"input.pcap": ""})
		self.assertEqual(self.main()[1][-1], "1 passed, 0 failed")

	def test_list_runs_named_tests_and_flags_unknown_ones(self):
		self.add("good", "checks: []\n", [], {"input.pcap": ""})
		self.add("bad", "checks: []\n", [], {"input.pcap": ""})
		lst = os.path.join(self.root, "list.txt")
		with open(lst, "w") as f:
			f.write("# comment\ngood\n\nno-such-test\n")
		rc, lines = self.main("--list", lst)
		self.assertIn("PASS: good", lines)
		self.assertFalse(any(l.startswith("PASS: bad") for l in lines))
		self.assertTrue(any(l.startswith("FAIL: no-such-test") for l in lines))
		self.assertEqual(lines[-1], "1 passed, 1 failed")

	def test_empty_list_passes(self):
		lst = os.path.join(self.root, "list.txt")
		open(lst, "w").close()
		rc, lines = self.main("--list", lst)
		self.assertEqual((rc, lines[-1]), (0, "0 passed, 0 failed"))

	def test_missing_engine_fails_tests(self):
		self.add("good", "checks: []\n", [], {"input.pcap": ""})
		os.unlink(self.engine)
		rc, lines = self.main()
		self.assertTrue(lines[0].startswith("FAIL: good: engine not found"))

	def test_bad_yaml_is_a_failure_not_a_crash(self):
		self.add("good", "checks: [\n", [], {"input.pcap": ""})
		rc, lines = self.main()
		self.assertTrue(lines[0].startswith("FAIL: good: test.yaml"))

	def test_write_pass_list(self):
		self.add("good", "checks: []\n", [], {"input.pcap": ""})
		self.add("bad", "checks:\n  - filter: {count: 1, match: {}}\n", [],
			 {"input.pcap": ""})
		pl = os.path.join(self.root, "pass.txt")
		self.main("--write-pass-list", pl)
		with open(pl) as f:
			self.assertEqual(f.read(), "good\n")


class TestMiniYaml(unittest.TestCase):
	"""The fallback parser must read what PyYAML reads on the test.yaml subset."""

	def test_subset(self):
		text = textwrap.dedent("""\
			# comment
			requires:
			  min-version: 7.0
			  features:
			    - HAVE_JA3
			args:
			- --set stream.midstream=true
			- -k none
			pcap: ../x/input.pcap   # trailing comment
			env:
			  V: 2
			checks:

			  - filter:
			      count: 1
			      match:
			        event_type: alert
			        alert.signature: "a: b # not a comment"
			        dns.flags: '8180'
			        flow.alerted: true
			        x: null
			        y: ~
			        z: -3
			        f: 1.5
			        vlan: [1011, 2]
			        refs: ["https://x/y?a=1", 'b']
			        not-has-key: ["smtp.rcpt_to[0]", "email.from"]
			        empty: ''
			        it's: it's
			  - shell:
			      args: |
			        grep -q "x" stdout
			        echo ok
			      expect: 1
			  - filter: {count: 0, match: {event_type: dns}}
			""")
		want = {
			"requires": {"min-version": 7.0, "features": ["HAVE_JA3"]},
			"args": ["--set stream.midstream=true", "-k none"],
			"pcap": "../x/input.pcap",
			"env": {"V": 2},
			"checks": [
				{"filter": {"count": 1, "match": {
					"event_type": "alert",
					"alert.signature": "a: b # not a comment",
					"dns.flags": "8180", "flow.alerted": True,
					"x": None, "y": None, "z": -3, "f": 1.5,
					"vlan": [1011, 2], "refs": ["https://x/y?a=1", "b"],
					"not-has-key": ["smtp.rcpt_to[0]", "email.from"],
					"empty": "", "it's": "it's"}}},
				{"shell": {"args": 'grep -q "x" stdout\necho ok\n', "expect": 1}},
				{"filter": {"count": 0, "match": {"event_type": "dns"}}},
			],
		}
		self.assertEqual(miniyaml.load(text), want)

	def test_bad_yaml_raises(self):
		with self.assertRaises(miniyaml.YamlError):
			miniyaml.load("checks: [\n")


class TestYamlIncludes(unittest.TestCase):
	def setUp(self):
		self.dir = tempfile.mkdtemp()
		self.addCleanup(shutil.rmtree, self.dir)

	def write(self, text):
		with open(os.path.join(self.dir, "suricata.yaml"), "w") as f:
			f.write(text)

	def test_missing_include_skips(self):
		self.write("%YAML 1.1\n---\ninclude: ../../etc/suricata-4.0.3.yaml\n")
		with self.assertRaises(run.Skip) as cm:
			run.check_yaml_includes(self.dir)
		self.assertIn("../../etc/suricata-4.0.3.yaml", str(cm.exception))

	def test_present_include_runs(self):
		open(os.path.join(self.dir, "extra.yaml"), "w").close()
		self.write("include: extra.yaml\n")
		run.check_yaml_includes(self.dir)

	def test_no_own_yaml_runs(self):
		run.check_yaml_includes(self.dir)


if __name__ == "__main__":
	unittest.main()
