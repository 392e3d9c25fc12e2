#!/usr/bin/python3
"""Runner for the suricata-verify test format (../shared/suricata-verify/FORMAT.md).

For each selected test folder it applies the test's requirements and skips, runs
the engine the way FORMAT.md says, evaluates the filter, shell, stats and
file-compare checks on what the engine wrote, and prints one line per test:

    PASS: name
    FAIL: name: check #i (kind): what was expected, what was found
    SKIP: name: reason

then "N passed, N failed, N skipped" and, as the very last line, "N passed,
N failed" so tests/run-all.sh can count it.  Exit status 1 when any test failed.

Python 3 standard library only, plus a YAML parser: PyYAML when installed
(python3-yaml), else the small built-in one in miniyaml.py, which covers the
subset test.yaml files use.
"""

import argparse
import concurrent.futures
import fnmatch
import json
import os
import platform
import re
import shlex
import string
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))

try:
	import yaml as _yaml

	def load_yaml(text):
		return _yaml.safe_load(text)
except ImportError:
	sys.path.insert(0, HERE)
	import miniyaml

	def load_yaml(text):
		return miniyaml.load(text)

# The version we track when the engine cannot tell us its own.
DEFAULT_VERSION = "8.0.7"
DEFAULT_TIMEOUT = 60


class CheckFailed(Exception):
	"""A check did not hold; the message says what was expected and found."""


class Skip(Exception):
	"""A requirement or skip rule does not hold; the message is the reason."""


# ---------------------------------------------------------------------------
# Versions.  suricata-verify compares only as many parts as the requirement
# gives: "lt-version: 8" means major < 8, "min-version: 7.0" compares
# major.minor, "gt-version: 6.0.11" all three.

def parse_version(v):
	"""'8.0.0', 8, 7.0, '8.0.1-dev' -> list of ints."""
	s = str(v).strip()
	m = re.match(r"^(\d+)(?:\.(\d+))?(?:\.(\d+))?", s)
	if not m:
		raise ValueError("bad version %r" % (v,))
	return [int(x) for x in m.groups() if x is not None]


def version_cmp(engine, req):
	"""-1/0/1 comparing engine to req on req's number of parts."""
	want = parse_version(req)
	have = (parse_version(engine) + [0, 0, 0])[:len(want)]
	return (have > want) - (have < want)


# ---------------------------------------------------------------------------
# Eve paths and matching, as suricata-verify defines them.

_INDEX_RE = re.compile(r"^(.*?)((?:\[\d+\])+)$")
MODIFIERS = ("__len", "__contains", "__find", "__startswith", "__endswith",
	     "__gt", "__gte", "__lt", "__lte")


def split_path(path):
	"""'a.b[0].__len' -> (['a', 'b[0]'], '__len'); modifier may be None."""
	parts = str(path).split(".")
	if parts and parts[-1] in MODIFIERS:
		return parts[:-1], parts[-1]
	return parts, None


def lookup(obj, parts):
	"""Walk dotted parts with [i] indexes; (True, value) or (False, None)."""
	for part in parts:
		m = _INDEX_RE.match(part)
		name, idx = (m.group(1), m.group(2)) if m else (part, "")
		if name != "":
			if not isinstance(obj, dict) or name not in obj:
				return False, None
			obj = obj[name]
		for i in re.findall(r"\[(\d+)\]", idx):
			if not isinstance(obj, list) or int(i) >= len(obj):
				return False, None
			obj = obj[int(i)]
	return True, obj


def find_value(path, obj):
	"""The value at path, or None when absent (suricata-verify's find_value)."""
	parts, mod = split_path(path)
	found, val = lookup(obj, parts)
	if not found:
		return None
	if mod == "__len":
		try:
			return len(val)
		except TypeError:
			return -1
	return val


def _num(v):
	return isinstance(v, (int, float)) and not isinstance(v, bool)


def match_key(record, key, expected):
	"""True when record satisfies one `match:` entry."""
	if key in ("has-key", "not-has-key"):
		paths = expected if isinstance(expected, list) else [expected]
		for p in paths:
			found, _ = lookup(record, split_path(p)[0])
			if found != (key == "has-key"):
				return False
		return True
	parts, mod = split_path(key)
	found, val = lookup(record, parts)
	if mod is None:
		# An absent key reads as None (null), as in suricata-verify.
		return (val if found else None) == expected
	if not found:
		return False
	if mod == "__len":
		try:
			n = len(val)
		except TypeError:
			n = -1
		return n == expected
	if mod == "__contains":
		try:
			return expected in val
		except TypeError:
			return False
	if mod == "__find":
		return isinstance(val, str) and val.find(str(expected)) >= 0
	if mod == "__startswith":
		return isinstance(val, str) and val.startswith(str(expected))
	if mod == "__endswith":
		return isinstance(val, str) and val.endswith(str(expected))
	if not (_num(val) and _num(expected)):
		return False
	if mod == "__gt":
		return val > expected
	if mod == "__gte":
		return val >= expected
	if mod == "__lt":
		return val < expected
	return val <= expected	# __lte


def match_record(record, match):
	for key, expected in (match or {}).items():
		if not match_key(record, key, expected):
			return False
	return True


def short(v, n=70):
	s = json.dumps(v) if not isinstance(v, str) else repr(v)
	return s if len(s) <= n else s[:n - 3] + "..."


def closest_miss(records, match):
	"""For a filter that matched too few records: the record that matched the
	most keys and the first key it missed, which is what one needs to debug."""
	items = list((match or {}).items())
	best, best_n = None, -1
	for r in records:
		n = sum(1 for k, v in items if match_key(r, k, v))
		if n > best_n:
			best, best_n = r, n
	if best is None or best_n == len(items):
		return ""
	for k, v in items:
		if match_key(best, k, v):
			continue
		if k in ("has-key", "not-has-key"):
			return "; closest record (%d/%d keys) fails %s %s" % (
				best_n, len(items), k, short(v))
		found, val = lookup(best, split_path(k)[0])
		got = short(val) if found else "(absent)"
		return "; closest record (%d/%d keys) has %s = %s, want %s" % (
			best_n, len(items), k, got, short(v))
	return ""


# ---------------------------------------------------------------------------
# Checks.  Each returns None on success and raises CheckFailed otherwise.

COUNT_BOUNDS = (("count", "==", lambda n, x: n == x),
		("lt", "<", lambda n, x: n < x),
		("lte", "<=", lambda n, x: n <= x),
		("le", "<=", lambda n, x: n <= x),
		("gt", ">", lambda n, x: n > x),
		("gte", ">=", lambda n, x: n >= x),
		("ge", ">=", lambda n, x: n >= x))


class Output:
	"""What one run left in its output folder; parsed JSON files are cached."""

	def __init__(self, outdir):
		self.outdir = outdir
		self._json = {}

	def records(self, filename="eve.json"):
		if filename in self._json:
			return self._json[filename]
		path = os.path.join(self.outdir, filename)
		if not os.path.exists(path):
			raise CheckFailed("%s was not written" % filename)
		recs = []
		with open(path, "rb") as f:
			for lineno, line in enumerate(f, 1):
				line = line.strip()
				if not line:
					continue
				try:
					recs.append(json.loads(line.decode("utf-8", "replace")))
				except ValueError as e:
					raise CheckFailed("%s line %d is not JSON: %s" % (
						filename, lineno, e))
		self._json[filename] = recs
		return recs


def check_filter(cfg, out, ctx):
	match = cfg.get("match") or {}
	if not isinstance(match, dict):
		raise CheckFailed("match: is not a mapping")
	filename = cfg.get("filename", "eve.json")
	records = out.records(filename)
	n = sum(1 for r in records if isinstance(r, dict) and match_record(r, match))
	bounds = [(k, op, fn) for k, op, fn in COUNT_BOUNDS if k in cfg]
	if not bounds:
		raise CheckFailed("filter has no count")
	for key, op, fn in bounds:
		if not fn(n, cfg[key]):
			hint = ""
			if key in ("count", "gt", "gte", "ge") and n < cfg[key] + (key == "gt"):
				hint = closest_miss([r for r in records if isinstance(r, dict)], match)
			where = "" if filename == "eve.json" else " in " + filename
			raise CheckFailed("expected count %s %s, found %d%s (match %s)%s" % (
				op, cfg[key], n, where, short(match, 120), hint))


def check_stats(cfg, out, ctx):
	stats = None
	for r in out.records("eve.json"):
		if isinstance(r, dict) and r.get("event_type") == "stats":
			stats = r.get("stats")
	if stats is None:
		raise CheckFailed("no stats record in eve.json")
	for key, expected in (cfg or {}).items():
		val = find_value(key, stats)
		if val != expected:
			raise CheckFailed("stats.%s: expected %s, found %s" % (
				key, short(expected), "(absent)" if val is None else short(val)))


def check_shell(cfg, out, ctx):
	cmd = cfg.get("args") if isinstance(cfg, dict) else cfg
	if not cmd:
		raise CheckFailed("shell check without args")
	try:
		p = subprocess.run(cmd, shell=True, cwd=out.outdir, env=ctx["env"],
				   stdout=subprocess.PIPE, stderr=subprocess.PIPE,
				   timeout=ctx["timeout"])
	except subprocess.TimeoutExpired:
		raise CheckFailed("shell %s timed out" % short(cmd.strip()))
	got = p.stdout.decode("utf-8", "replace").strip()
	if isinstance(cfg, dict) and "expect" in cfg:
		want = str(cfg["expect"]).strip()
		if got != want:
			raise CheckFailed("shell %s: expected %s, found %s (exit %d)" % (
				short(cmd.strip()), short(want), short(got), p.returncode))
		return
	if p.returncode != 0:
		raise CheckFailed("shell %s exited %d%s" % (
			short(cmd.strip()), p.returncode,
			(": " + short(p.stderr.decode("utf-8", "replace").strip()))
			if p.stderr.strip() else ""))


def check_file_compare(cfg, out, ctx):
	produced = os.path.join(out.outdir, cfg.get("filename", ""))
	expected = os.path.join(ctx["test_dir"], cfg.get("expected", ""))
	for path in (produced, expected):
		if not os.path.isfile(path):
			raise CheckFailed("file-compare: %s does not exist" % path)
	with open(produced, "rb") as a, open(expected, "rb") as b:
		if a.read() != b.read():
			raise CheckFailed("file-compare: %s differs from %s" % (
				cfg.get("filename"), cfg.get("expected")))


CHECKS = {
	"filter": check_filter,
	"stats": check_stats,
	"shell": check_shell,
	"file-compare": check_file_compare,
}


# ---------------------------------------------------------------------------
# Engine facts, asked once per run.

class Engine:
	def __init__(self, binary, yaml_path, srcdir, version=None):
		self.binary = binary
		self.yaml = yaml_path
		self.srcdir = srcdir
		self.present = os.path.isfile(binary) and os.access(binary, os.X_OK)
		self.version = version or DEFAULT_VERSION
		self.features = set()
		self._config = None
		self._lock = threading.Lock()
		if not self.present:
			return
		if version is None:
			m = re.search(r"version (\d+\.\d+\.\d+)", self._ask(["-V"]))
			if m:
				self.version = m.group(1)
		for line in self._ask(["--build-info"]).splitlines():
			if line.strip().startswith("Features:"):
				self.features = set(f.upper() for f in line.split(":", 1)[1].split())

	def _ask(self, args):
		try:
			p = subprocess.run([self.binary] + args, stdout=subprocess.PIPE,
					   stderr=subprocess.STDOUT, timeout=30,
					   cwd=self.srcdir)
			return p.stdout.decode("utf-8", "replace")
		except (OSError, subprocess.TimeoutExpired):
			return ""

	def config(self):
		"""--dump-config of the default yaml, as a dict of 'key = value' lines."""
		with self._lock:
			if self._config is None:
				self._config = {}
				text = self._ask(["-c", self.yaml, "--dump-config"])
				for line in text.splitlines():
					if " = " in line:
						k, v = line.split(" = ", 1)
						self._config[k.strip()] = v.strip()
			return self._config


# ---------------------------------------------------------------------------
# Requirements and skips.

def _as_list(v):
	if v is None:
		return []
	return v if isinstance(v, list) else [v]


def _truthy(s):
	return str(s).strip().lower() in ("1", "true", "yes", "on")


def check_requires(req, engine, test_dir, env):
	"""Raise Skip with the reason when a requirement does not hold."""
	if not req:
		return
	if not isinstance(req, dict):
		raise Skip("requires: is not a mapping")
	v = engine.version
	for kind, val in req.items():
		if kind == "min-version":
			if version_cmp(v, val) < 0:
				raise Skip("needs version >= %s (have %s)" % (val, v))
		elif kind == "lt-version":
			if version_cmp(v, val) >= 0:
				raise Skip("needs version < %s (have %s)" % (val, v))
		elif kind == "gt-version":
			if version_cmp(v, val) <= 0:
				raise Skip("needs version > %s (have %s)" % (val, v))
		elif kind == "version":
			if version_cmp(v, val) != 0:
				raise Skip("needs version %s (have %s)" % (val, v))
		elif kind == "features":
			for f in _as_list(val):
				if str(f).upper() not in engine.features:
					raise Skip("needs feature %s" % f)
		elif kind == "files":
			for f in _as_list(val):
				path = os.path.join(engine.srcdir, str(f))
				if not os.path.exists(path):
					raise Skip("needs file %s" % f)
		elif kind == "env":
			for e in _as_list(val):
				if str(e) not in env:
					raise Skip("needs environment variable %s" % e)
		elif kind == "script":
			for s in _as_list(val):
				p = subprocess.run(s, shell=True, cwd=test_dir, env=env,
						   stdout=subprocess.DEVNULL,
						   stderr=subprocess.DEVNULL)
				if p.returncode != 0:
					raise Skip("script %s failed" % short(str(s)))
		elif kind == "os":
			want = [str(o).lower() for o in _as_list(val)]
			if platform.system().lower() not in want:
				raise Skip("needs os %s" % ",".join(want))
		elif kind == "arch":
			want = [str(a).lower() for a in _as_list(val)]
			if platform.machine().lower() not in want:
				raise Skip("needs arch %s" % ",".join(want))
		elif kind == "pcap":
			pass	# handled where the pcap is chosen
		else:
			raise Skip("unsupported requirement %s" % kind)


def check_skips(skips, engine):
	"""suricata-verify's `skip:` list: skip when a feature is present or a
	config key has a given value."""
	for entry in _as_list(skips):
		if not isinstance(entry, dict):
			continue
		msg = entry.get("msg", "skip rule matched")
		feat = entry.get("feature")
		if feat is not None and str(feat).upper() in engine.features:
			raise Skip("%s (feature %s)" % (msg, feat))
		uses = entry.get("uses-feature")
		if uses is not None and str(uses).upper() not in engine.features:
			raise Skip("%s (no feature %s)" % (msg, uses))
		conf = entry.get("config")
		if isinstance(conf, dict):
			have = engine.config()
			for k, want in conf.items():
				got = have.get(k)
				if got is None:
					continue
				if isinstance(want, bool):
					hit = _truthy(got) == want
				else:
					hit = got == str(want)
				if hit:
					raise Skip("%s (config %s = %s)" % (msg, k, got))


# ---------------------------------------------------------------------------
# One test.

class Test:
	def __init__(self, name, directory, scope="", category="unknown"):
		self.name = name
		self.dir = directory
		self.scope = scope
		self.category = category


def _single(directory, exts):
	found = sorted(f for f in os.listdir(directory)
		       if os.path.isfile(os.path.join(directory, f)) and f.endswith(exts))
	return found


def choose_rules(test_dir, cfg, version):
	"""The rules file, relative to the test dir, or None (then no detection)."""
	if cfg.get("rules"):
		return str(cfg["rules"])
	files = _single(test_dir, (".rules",))
	major = parse_version(version)[0]
	plain = [f for f in files if not re.match(r"^min\d+\.rules$", f)]
	# minN.rules replaces the plain file from version N on; highest N wins.
	versioned = sorted((int(re.match(r"^min(\d+)", f).group(1)), f)
			   for f in files if re.match(r"^min\d+\.rules$", f))
	versioned = [f for n, f in versioned if n <= major]
	if versioned:
		return versioned[-1]
	if len(plain) == 1:
		return plain[0]
	if "test.rules" in plain:
		return "test.rules"
	return None


def choose_firewall_rules(test_dir, cfg):
	"""(firewall.rules, td.rules or None) when the folder holds a
	firewall.rules (suricata-verify's firewall mode), else None."""
	if cfg.get("rules"):
		return None
	files = _single(test_dir, (".rules",))
	if "firewall.rules" not in files:
		return None
	return "firewall.rules", ("td.rules" if "td.rules" in files else None)


def choose_pcap(test_dir, cfg):
	"""(pcap or None, error or None)."""
	req = cfg.get("requires") or {}
	p = cfg.get("pcap", None)
	if p is False or (isinstance(req, dict) and req.get("pcap") is False):
		return None, None
	if p:
		if not os.path.exists(os.path.join(test_dir, str(p))):
			return None, "pcap %s not found" % p
		return str(p), None
	found = _single(test_dir, (".pcap", ".pcapng"))
	if len(found) == 1:
		return found[0], None
	if not found:
		return None, "no pcap in the test folder"
	return None, "several pcaps and no pcap: key"


def build_command(test, cfg, engine, opts, outdir, verify_dir):
	"""The engine's argv, as FORMAT.md lays it out."""
	argv = [engine.binary]
	# suricata-verify expands ${TEST_DIR} (and $TEST_DIR) in args to the test's folder.
	tdir = {"TEST_DIR": test.dir}
	for a in _as_list(cfg.get("args")):
		a = string.Template(str(a)).safe_substitute(tdir)
		try:
			argv += shlex.split(a)
		except ValueError:
			argv += a.split()
	# The test's own file, else the suite's top-level one; reference.config
	# comes from the engine's etc/ as suricata-verify's runner takes it from
	# Suricata's tree (reference-01 wants 8.0's https:// prefixes, which the
	# suite's own older copy lacks).
	for key, fname, engine_first in (("classification-file", "classification.config", False),
					 ("reference-config-file", "reference.config", True)):
		own = os.path.join(test.dir, fname)
		shipped = os.path.join(engine.srcdir, "etc", fname)
		if os.path.exists(own):
			path = own
		elif engine_first and os.path.exists(shipped):
			path = shipped
		else:
			path = os.path.join(verify_dir, fname)
		argv += ["--set", "%s=%s" % (key, path)]
	argv += ["-l", outdir]
	own_yaml = os.path.join(test.dir, "suricata.yaml")
	argv += ["-c", own_yaml if os.path.exists(own_yaml) else engine.yaml]
	if "ips" in os.path.basename(test.name):
		argv.append("--simulate-ips")
	pcap, err = choose_pcap(test.dir, cfg)
	if err:
		return None, err
	if pcap:
		argv += ["-r", pcap]
	fw = choose_firewall_rules(test.dir, cfg)
	if fw:
		# suricata-verify: firewall.rules loads in firewall mode, and a
		# td.rules beside it holds the threat-detection rules
		argv += ["--firewall-rules-exclusive", fw[0]]
		if fw[1]:
			argv += ["-S", fw[1]]
		return argv, None
	rules = choose_rules(test.dir, cfg, engine.version)
	if rules:
		argv += ["-S", rules]
	else:
		argv.append("--disable-detection")
	return argv, None


def make_env(test, cfg, engine, outdir):
	env = dict(os.environ)
	env["TZ"] = "UTC"
	env["TEST_DIR"] = test.dir
	env["SRCDIR"] = engine.srcdir
	env["OUTPUT_DIR"] = outdir
	env["SURICATA_BIN"] = engine.binary
	if isinstance(cfg.get("env"), dict):
		for k, v in cfg["env"].items():
			env[str(k)] = str(v)
	return env


def run_engine(test, cfg, engine, opts, outdir, env, verify_dir):
	"""Runs the engine (or the test's own `command:`); None, or why it failed."""
	if cfg.get("command"):
		argv, shell = str(cfg["command"]), True
	else:
		argv, err = build_command(test, cfg, engine, opts, outdir, verify_dir)
		if err:
			return err
		shell = False
	if opts.verbose:
		with PRINT_LOCK:
			print("# %s: %s" % (test.name, argv if shell else
					    " ".join(shlex.quote(a) for a in argv)), flush=True)
	start = time.monotonic()
	with open(os.path.join(outdir, "stdout"), "wb") as so, \
	     open(os.path.join(outdir, "stderr"), "wb") as se:
		try:
			p = subprocess.Popen(argv, shell=shell, cwd=test.dir, env=env,
					     stdout=so, stderr=se, start_new_session=True)
		except OSError as e:
			return "cannot run the engine: %s" % e
		try:
			rc = p.wait(timeout=opts.timeout)
		except subprocess.TimeoutExpired:
			# The engine got its own session: end it and whatever it forked.
			try:
				os.killpg(p.pid, 9)
			except OSError:
				pass
			p.wait()
			return "engine timed out after %ds" % opts.timeout
	test.runtime = time.monotonic() - start
	want = cfg.get("exit-code", 0)
	if rc != want:
		tail = ""
		try:
			with open(os.path.join(outdir, "stderr"), "rb") as f:
				lines = f.read().decode("utf-8", "replace").strip().splitlines()
			# The first error line says why; a usage dump ends with noise.
			errs = [l for l in lines if re.search(
				r"(?i)error|unrecognized|invalid|unknown|fatal", l)]
			if errs or lines:
				tail = ": " + short((errs or lines[-1:])[0].strip(), 160)
		except OSError:
			pass
		how = ("killed by signal %d" % -rc) if rc < 0 else ("exit code %d" % rc)
		return "engine %s, expected %d%s" % (how, want, tail)
	return None


def evaluate_checks(cfg, engine, out, ctx):
	"""Runs every check; returns the list of failure messages."""
	failures = []
	for i, check in enumerate(_as_list(cfg.get("checks")), 1):
		if not isinstance(check, dict) or not check:
			failures.append("check #%d: not a mapping" % i)
			continue
		for kind, body in check.items():
			fn = CHECKS.get(kind)
			if fn is None:
				failures.append("check #%d: unknown check kind %s" % (i, kind))
				continue
			if isinstance(body, dict) and body.get("requires"):
				try:
					check_requires(body["requires"], engine, ctx["test_dir"],
						       ctx["env"])
				except Skip:
					continue	# a check of another version
			try:
				fn(body if body is not None else {}, out, ctx)
			except CheckFailed as e:
				failures.append("check #%d (%s): %s" % (i, kind, e))
	return failures


def check_yaml_includes(test_dir):
	"""Skip a test whose own suricata.yaml includes a file this copy of
	suricata-verify does not have (the upstream repository's etc/ folder is not
	part of ours): the engine could only fail on the missing file."""
	own = os.path.join(test_dir, "suricata.yaml")
	if not os.path.exists(own):
		return
	with open(own, "r", errors="replace") as f:
		for line in f:
			m = re.match(r"\s*include:\s*['\"]?([^'\"#\s]+)", line)
			if m and not os.path.exists(os.path.join(test_dir, m.group(1))):
				raise Skip("its suricata.yaml includes %s, absent from this "
					   "copy of suricata-verify" % m.group(1))


def run_test(test, engine, opts, verify_dir):
	"""('PASS'|'FAIL'|'SKIP', detail)."""
	try:
		with open(os.path.join(test.dir, "test.yaml"), "r") as f:
			cfg = load_yaml(f.read()) or {}
	except Exception as e:	# any parse error is the test's failure, not ours
		return "FAIL", "test.yaml: %s" % str(e).replace("\n", " ")
	if not isinstance(cfg, dict):
		return "FAIL", "test.yaml is not a mapping"
	outdir = os.path.join(opts.outdir, test.name)
	env0 = dict(os.environ)
	try:
		check_requires(cfg.get("requires"), engine, test.dir, env0)
		# Some tests spell min-version at top level; honour it the same way.
		if "min-version" in cfg:
			check_requires({"min-version": cfg["min-version"]}, engine,
				       test.dir, env0)
		if engine.present:
			check_skips(cfg.get("skip"), engine)
		check_yaml_includes(test.dir)
	except Skip as e:
		return "SKIP", str(e)
	if not engine.present:
		return "FAIL", "engine not found: %s" % engine.binary
	attempts = 1 + (int(cfg.get("retry", 0) or 0) if opts.retry else 0)
	detail = ""
	for _ in range(attempts):
		shutil.rmtree(outdir, ignore_errors=True)
		os.makedirs(outdir)
		env = make_env(test, cfg, engine, outdir)
		ctx = {"env": env, "test_dir": test.dir, "timeout": opts.timeout}
		if cfg.get("pre-check"):
			p = subprocess.run(str(cfg["pre-check"]), shell=True, cwd=outdir,
					   env=env, stdout=subprocess.DEVNULL,
					   stderr=subprocess.DEVNULL)
			if p.returncode != 0:
				return "FAIL", "pre-check exited %d" % p.returncode
		err = run_engine(test, cfg, engine, opts, outdir, env, verify_dir)
		if err:
			detail = err
			continue
		failures = evaluate_checks(cfg, engine, Output(outdir), ctx)
		if not failures:
			return "PASS", ""
		detail = failures[0]
		if len(failures) > 1:
			detail += " (+%d more failing checks)" % (len(failures) - 1)
		if opts.verbose:
			detail += "".join("\n    " + f for f in failures)
	return "FAIL", detail


# ---------------------------------------------------------------------------
# Selection.

def read_index(verify_dir):
	index = {}
	path = os.path.join(verify_dir, "INDEX.tsv")
	if not os.path.exists(path):
		return index
	with open(path) as f:
		for line in f:
			cols = line.rstrip("\n").split("\t")
			if len(cols) >= 3 and cols[0] != "test":
				index[cols[0]] = (cols[1], cols[2])
	return index


def discover(verify_dir):
	"""All test folders (those holding a test.yaml), by name = path under tests/."""
	root = os.path.join(verify_dir, "tests")
	index = read_index(verify_dir)
	tests = {}
	for dirpath, dirnames, filenames in os.walk(root):
		dirnames.sort()
		if "test.yaml" in filenames:
			name = os.path.relpath(dirpath, root)
			scope, cat = index.get(name, ("", "unknown"))
			tests[name] = Test(name, dirpath, scope, cat)
	return tests


def read_list(path):
	names = []
	with open(path) as f:
		for line in f:
			line = line.split("#", 1)[0].strip()
			if line:
				names.append(line)
	return names


def pattern_hit(name, pat):
	if any(c in pat for c in "*?["):
		return fnmatch.fnmatchcase(name, pat)
	return pat in name


def select(tests, opts):
	"""(selected tests in order, names listed but missing)."""
	missing = []
	if opts.list:
		chosen = []
		for n in read_list(opts.list):
			if n in tests:
				chosen.append(tests[n])
			else:
				missing.append(n)
	else:
		chosen = [tests[n] for n in sorted(tests)]
	if opts.category:
		chosen = [t for t in chosen if any(
			t.category == c or t.category.startswith(c + ":")
			or t.category.startswith(c + "/")
			for c in opts.category)]
	if opts.scope:
		chosen = [t for t in chosen if t.scope in opts.scope]
	if opts.patterns:
		chosen = [t for t in chosen if any(pattern_hit(t.name, p)
						   for p in opts.patterns)]
	return chosen, missing


# ---------------------------------------------------------------------------
# Main.

PRINT_LOCK = threading.Lock()


def parse_args(argv):
	ap = argparse.ArgumentParser(
		description="Run suricata-verify format tests against our engine.")
	ap.add_argument("--suricata", default=None,
			help="engine binary (default: TOP/src/suricata)")
	ap.add_argument("--yaml", default=None,
			help="default config (default: TOP/suricata.yaml)")
	ap.add_argument("--srcdir", default=None,
			help="engine top folder, for requires: files (default: this tree)")
	ap.add_argument("--verify-dir", default=None,
			help="suricata-verify folder (default: TOP/../shared/suricata-verify)")
	ap.add_argument("--outdir", default=None,
			help="where each test's output folder goes "
			"(default: a new $TMPDIR/qa-verify-XXXX of this run)")
	ap.add_argument("--list", help="file of test names to run, one a line")
	ap.add_argument("--category", action="append",
			help="INDEX.tsv category, or its part before ':' or '/' "
			"(applayer, decoder); repeatable")
	ap.add_argument("--scope", action="append",
			help="INDEX.tsv scope (scope1, scope1plus, scope2); repeatable")
	ap.add_argument("-j", "--jobs", type=int, default=2)
	ap.add_argument("--timeout", type=int, default=DEFAULT_TIMEOUT,
			help="seconds per engine run (default %d)" % DEFAULT_TIMEOUT)
	ap.add_argument("--version", dest="engine_version", default=None,
			help="engine version to apply requirements against "
			"(default: from -V, else %s)" % DEFAULT_VERSION)
	ap.add_argument("--no-retry", dest="retry", action="store_false",
			help="ignore the tests' retry: counts")
	ap.add_argument("--summary-by-category", action="store_true")
	ap.add_argument("--write-pass-list", metavar="FILE",
			help="write the names of the tests that passed to FILE")
	ap.add_argument("-q", "--quiet", action="store_true",
			help="print only FAIL lines and the summary")
	ap.add_argument("-v", "--verbose", action="store_true",
			help="print each engine command and every failing check")
	ap.add_argument("patterns", nargs="*", metavar="PATTERN",
			help="substring or glob of test names")
	opts = ap.parse_args(argv)
	ab = os.path.abspath
	opts.suricata = ab(opts.suricata or os.path.join(TOP, "src", "suricata"))
	opts.yaml = ab(opts.yaml or os.path.join(TOP, "suricata.yaml"))
	opts.srcdir = ab(opts.srcdir or TOP)
	opts.verify_dir = ab(opts.verify_dir or
			     os.path.join(TOP, "..", "shared", "suricata-verify"))
	# a folder of this run's own: two runs at once (CI builds side by side,
	# two engineers on one machine) must not share the tests' folders
	opts.outdir_owned = not opts.outdir
	opts.outdir = ab(opts.outdir or tempfile.mkdtemp(prefix="qa-verify-"))
	opts.jobs = max(1, opts.jobs)
	return opts


def main(argv=None):
	opts = parse_args(sys.argv[1:] if argv is None else argv)
	if not os.path.isdir(os.path.join(opts.verify_dir, "tests")):
		print("FAIL: qa/verify: no tests folder in %s" % opts.verify_dir)
		print("0 passed, 1 failed")
		return 1
	tests = discover(opts.verify_dir)
	chosen, missing = select(tests, opts)
	engine = Engine(opts.suricata, opts.yaml, opts.srcdir, opts.engine_version)
	results = {}
	for n in missing:
		results[n] = ("FAIL", "listed but no such test in %s" % opts.verify_dir)
		print("FAIL: %s: %s" % (n, results[n][1]), flush=True)

	def one(t):
		try:
			status, detail = run_test(t, engine, opts, opts.verify_dir)
		except Exception as e:	# a runner bug must not hide the other tests
			status, detail = "FAIL", "runner error: %r" % (e,)
		with PRINT_LOCK:
			results[t.name] = (status, detail)
			if not (opts.quiet and status != "FAIL"):
				print("%s: %s%s" % (status, t.name,
						    ": " + detail if detail else ""), flush=True)

	with concurrent.futures.ThreadPoolExecutor(max_workers=opts.jobs) as pool:
		list(pool.map(one, chosen))

	counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
	for status, _ in results.values():
		counts[status] += 1
	if opts.summary_by_category:
		bycat = {}
		for t in chosen:
			c = bycat.setdefault(t.category, {"PASS": 0, "FAIL": 0, "SKIP": 0})
			c[results[t.name][0]] += 1
		print("== by category")
		for cat in sorted(bycat):
			c = bycat[cat]
			print("  %-32s %4d passed, %4d failed, %4d skipped" % (
				cat, c["PASS"], c["FAIL"], c["SKIP"]))
	if opts.write_pass_list:
		with open(opts.write_pass_list, "w") as f:
			for n in sorted(n for n, r in results.items() if r[0] == "PASS"):
				f.write(n + "\n")
	print("%d passed, %d failed, %d skipped" % (
		counts["PASS"], counts["FAIL"], counts["SKIP"]))
	print("%d passed, %d failed" % (counts["PASS"], counts["FAIL"]))
	# our own folder goes when all passed; failures keep it for a look
	if opts.outdir_owned and not counts["FAIL"]:
		shutil.rmtree(opts.outdir, ignore_errors=True)
	elif counts["FAIL"]:
		print("output folders kept in %s" % opts.outdir, file=sys.stderr)
	return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
	sys.exit(main())
