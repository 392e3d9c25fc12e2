#!/usr/bin/env python3
"""End-to-end runner: runs src/suricata on each case folder and checks its `expect`.

Usage: runner.py BUILDDIR SRCDIR [CASE...]     (normally through tests/e2e/run.sh)

A case is a folder tests/e2e/<case>/ with:
  pcap     one line: the capture (file or folder) to read, relative to
           tests/data/pcaps/ (placeholders allowed). Absent: no -r is added.
  args     one line of extra arguments (shell quoting). Placeholders:
           @CASE@ (the case folder), @SRCDIR@, @BUILDDIR@, @LOGDIR@, @DATA@ (tests/data/pcaps),
           @SHARED@ (../shared, or $SURICATA_SHARED).
  setup    (optional, executable) run as `setup LOGDIR` before the engine, with
           E2E_DATA (tests/data/pcaps), E2E_CASE and E2E_SHARED (../shared) set:
           stages inputs the run
           changes (files --pcap-file-delete removes) in the log folder.
  expect   one expectation per line ('#' comments). Directives:
             single-only            run once, in --runmode single only
             no-runmode             run once, with no --runmode argument
             needs-shared           SKIP the case when SRCDIR/../shared is absent
           Expectations:
             exit N
             counter NAME OP VALUE          last eve stats record, dotted name
             eve TYPE count OP N            number of eve records of event_type TYPE
             eve TYPE[SEL]... count OP N    SEL: an index, or field=value (dotted field)
             eve TYPE[SEL]...PATH OP VALUE  PATH: .a.b[0].c into the selected record
             stdout|stderr|output contains "TEXT"
             stdout|stderr|output not-contains "TEXT"
             stdout|stderr|output matches "REGEX"      (Python re.search)
             stdout|stderr|output lines OP N
             file NAME exists|absent|nonempty           in the log folder
             file NAME contains|not-contains "TEXT"     (TEXT without quotes in it)
             json NAME[SEL]...PATH OP VALUE  records of NAME.json (JSON lines) in the
             json NAME[SEL]... count OP N      log folder, selected as eve records
             eve valid                      eve.json against the eve schema
             script NAME [ARG...]           runs the case's NAME with the log folder
                                            and ARGs (placeholders allowed); passes on
                                            exit 0. Its environment: E2E_PCAP (the
                                            -r capture), E2E_BINARY, E2E_YAML.
             when COND[,COND] EXPECTATION   COND: cuda=yes|no, gpu=yes|no, lua=yes|no,
                                            lz4=yes|no, geoip=yes|no
           OP is one of == != < <= > >=. VALUE: integer, "string" or bare word.
The runner adds -c BUILDDIR/suricata.yaml unless args has -c, -l <tmp log folder>
unless args has -l, -r <pcap> when a pcap is named, and --runmode single|autofp.
Prints "PASS: case (mode)", "FAIL: case (mode): <expectation>, got X",
"SKIP: case: why", and ends with "N passed, N failed".
"""
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

OPS = {
    '==': lambda a, b: a == b, '!=': lambda a, b: a != b,
    '<': lambda a, b: a < b, '<=': lambda a, b: a <= b,
    '>': lambda a, b: a > b, '>=': lambda a, b: a >= b,
}
RUN_TIMEOUT = 120


class CaseError(Exception):
    pass


def parse_value(tok):
    if len(tok) >= 2 and tok[0] == '"' and tok[-1] == '"':
        try:
            return json.loads(tok)
        except ValueError:      # a regex such as "x\.yaml": take it verbatim
            return tok[1:-1]
    try:
        return int(tok)
    except ValueError:
        pass
    if tok in ('true', 'false', 'null'):
        return json.loads(tok)
    return tok


def compare(got, op, want):
    if op not in OPS:
        raise CaseError('unknown operator %s' % op)
    if got is MISSING:          # an absent field fails the comparison, not the runner
        return False
    if isinstance(want, str) and not isinstance(got, str) and got is not None:
        got = json.dumps(got) if not isinstance(got, (int, float)) else str(got)
    try:
        return OPS[op](got, want)
    except TypeError:
        return False


def split_path(path):
    """'.a.b[0].c' or 'a.b' -> ['a', 'b', 0, 'c']"""
    parts = []
    for name, idx in re.findall(r'([^.\[\]]+)|\[(\d+)\]', path):
        parts.append(int(idx) if idx else name)
    return parts


MISSING = object()


def dig(obj, parts):
    for p in parts:
        if isinstance(p, int):
            if not isinstance(obj, list) or p >= len(obj):
                return MISSING
            obj = obj[p]
        else:
            if not isinstance(obj, dict) or p not in obj:
                return MISSING
            obj = obj[p]
    return obj


class Result:
    """What one run produced."""
    def __init__(self, rc, stdout, stderr, logdir):
        self.rc, self.stdout, self.stderr, self.logdir = rc, stdout, stderr, logdir
        self._eve = None

    def eve(self):
        if self._eve is None:
            self._eve = []
            path = os.path.join(self.logdir, 'eve.json')
            if os.path.exists(path):
                with open(path, errors='replace') as f:
                    for n, line in enumerate(f, 1):
                        line = line.strip()
                        if not line:
                            continue
                        try:
                            self._eve.append(json.loads(line))
                        except ValueError:
                            raise CaseError('eve.json line %d is not JSON: %.80s' % (n, line))
        return self._eve

    def stats(self):
        recs = [r for r in self.eve() if r.get('event_type') == 'stats']
        if not recs:
            raise CaseError('no stats record in eve.json')
        return recs[-1].get('stats', {})


class Env:
    def __init__(self, builddir, srcdir):
        self.builddir, self.srcdir = builddir, srcdir
        self.binary = os.path.join(builddir, 'src', 'suricata')
        self.yaml = os.path.join(builddir, 'suricata.yaml')
        self.data = os.path.join(srcdir, 'tests', 'data', 'pcaps')
        self.shared = os.environ.get('SURICATA_SHARED') or os.path.normpath(os.path.join(srcdir, '..', 'shared'))
        self.schema = os.path.join(self.shared, 'data', 'eve-schema.json')
        self.validator = os.path.join(srcdir, 'tests', 'e2e', 'eve-validate.py')
        self._conds = None

    def conds(self):
        """Build and machine facts for `when` lines."""
        if self._conds is None:
            cuda = lua = lz4 = geoip = 'no'
            try:
                out = subprocess.run([self.binary, '--build-info'], capture_output=True,
                                     text=True, timeout=30)
                if re.search(r'CUDA support:\s*yes', out.stdout + out.stderr):
                    cuda = 'yes'
                if re.search(r'Lua support:\s*yes', out.stdout + out.stderr):
                    lua = 'yes'
                if re.search(r'liblz4 support:\s*yes', out.stdout + out.stderr):
                    lz4 = 'yes'
                if re.search(r'GeoIP2 support:\s*yes', out.stdout + out.stderr):
                    geoip = 'yes'
            except (OSError, subprocess.TimeoutExpired):
                pass
            gpu = 'no'
            if shutil.which('nvidia-smi'):
                r = subprocess.run(['nvidia-smi', '-L'], capture_output=True, text=True)
                if r.returncode == 0 and 'GPU' in r.stdout:
                    gpu = 'yes'
            self._conds = {'cuda': cuda, 'gpu': gpu, 'lua': lua, 'lz4': lz4, 'geoip': geoip}
        return self._conds


def subst(s, env, case_dir, logdir):
    return (s.replace('@CASE@', case_dir).replace('@SRCDIR@', env.srcdir)
            .replace('@BUILDDIR@', env.builddir).replace('@LOGDIR@', logdir)
            .replace('@DATA@', env.data).replace('@SHARED@', env.shared))


def read_lines(path):
    if not os.path.exists(path):
        return []
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('#'):
                out.append(line)
    return out


def json_lines(res, name):
    path = os.path.join(res.logdir, name + '.json')
    if not os.path.exists(path):
        raise CaseError('no %s.json in the log folder' % name)
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


def check_eve(res, expr, rest, env, records=None):
    m = re.match(r'([A-Za-z0-9_-]+)((?:\[[^\]]*\])*)(.*)$', expr)
    if not m:
        raise CaseError('bad eve expression %s' % expr)
    etype, sels, path = m.group(1), re.findall(r'\[([^\]]*)\]', m.group(2)), m.group(3)
    if records is None:
        recs = [r for r in res.eve() if r.get('event_type') == etype]
    else:
        recs = records(etype)
    indexed = False
    for sel in sels:
        if re.fullmatch(r'\d+', sel):
            i = int(sel)
            recs = [recs[i]] if i < len(recs) else []
            indexed = True
        elif '=' in sel:
            k, v = sel.split('=', 1)
            want = parse_value(v)
            recs = [r for r in recs if compare(dig(r, split_path(k)), '==', want)]
        else:
            raise CaseError('bad selector [%s]' % sel)
    if path == '' and rest and rest[0] == 'count':
        if len(rest) != 3:
            raise CaseError('eve ... count OP N')
        got = len(recs)
        return compare(got, rest[1], parse_value(rest[2])), got
    if len(rest) != 2:
        raise CaseError('eve EXPR OP VALUE')
    if not recs:
        return False, 'no matching %s record' % etype
    if len(recs) > 1 and not indexed:
        return False, '%d matching %s records (select one)' % (len(recs), etype)
    got = dig(recs[0], split_path(path))
    if got is MISSING:
        return False, 'field %s missing' % path
    return compare(got, rest[0], parse_value(rest[1])), json.dumps(got)


def check_text(res, where, verb, arg):
    text = {'stdout': res.stdout, 'stderr': res.stderr,
            'output': res.stdout + '\n' + res.stderr}[where]
    short = lambda: repr(text.strip()[-300:]) if text.strip() else '(empty)'
    if verb == 'contains':
        return parse_value(arg[0]) in text, short()
    if verb == 'not-contains':
        return parse_value(arg[0]) not in text, short()
    if verb == 'matches':
        return re.search(parse_value(arg[0]), text, re.M) is not None, short()
    if verb == 'lines':
        n = len([l for l in text.splitlines() if l.strip()])
        return compare(n, arg[0], parse_value(arg[1])), '%d lines: %s' % (n, short())
    raise CaseError('unknown text check %s' % verb)


def check_schema(res, env):
    """(ok, detail) or None for SKIP."""
    if not os.path.isdir(env.shared) or not os.path.exists(env.schema):
        return None, 'eve schema (../shared not found)'
    if not os.path.exists(env.validator):
        return None, 'eve schema (tests/e2e/eve-validate.py not written yet)'
    try:
        import jsonschema  # noqa: F401
    except ImportError:
        return None, 'eve schema (python3 jsonschema not installed)'
    eve = os.path.join(res.logdir, 'eve.json')
    r = subprocess.run([sys.executable, env.validator, env.schema, eve],
                       capture_output=True, text=True, timeout=120)
    return r.returncode == 0, (r.stdout + r.stderr).strip()[-400:]


def check_script(res, toks, env):
    """A case's own check: CASE/NAME LOGDIR ARGS..., passing on exit 0."""
    if not toks:
        raise CaseError('script NAME [ARG...]')
    cmd = [os.path.join(res.case_dir, subst(toks[0], env, res.case_dir, res.logdir)), res.logdir]
    cmd += [subst(str(parse_value(t)), env, res.case_dir, res.logdir) for t in toks[1:]]
    pcap = ''
    if '-r' in res.cmd:
        pcap = res.cmd[res.cmd.index('-r') + 1]
    envv = dict(os.environ, E2E_PCAP=pcap, E2E_BINARY=env.binary, E2E_YAML=env.yaml)
    r = subprocess.run(cmd, capture_output=True, text=True, errors='replace', env=envv,
                       timeout=RUN_TIMEOUT)
    return r.returncode == 0, (r.stdout + r.stderr).strip()[-400:] or 'exit %d' % r.returncode


def check(res, line, env, skips):
    """Returns (ok, got) for one expectation line; ok None means skipped."""
    toks = shlex.split(line, posix=False)
    if toks[0] == 'when':
        conds = env.conds()
        for c in toks[1].split(','):
            k, v = c.split('=', 1)
            if conds.get(k) != v:
                return True, 'not applicable'
        return check(res, line.split(None, 2)[2], env, skips)
    kind = toks[0]
    if kind == 'exit':
        return res.rc == int(toks[1]), res.rc
    if kind == 'counter':
        if len(toks) != 4:
            raise CaseError('counter NAME OP VALUE')
        got = dig(res.stats(), split_path(toks[1]))
        want = parse_value(toks[3])
        if got is MISSING:
            # a counter nobody registered reads as 0, but say so when it matters
            ok = compare(0, toks[2], want)
            return ok, 'missing (read as 0)'
        return compare(got, toks[2], want), got
    if kind == 'eve':
        if toks[1] == 'valid':
            ok, detail = check_schema(res, env)
            if ok is None:
                skips.append(detail)
                return True, 'skipped'
            return ok, detail
        return check_eve(res, toks[1], toks[2:], env)
    if kind == 'json':
        return check_eve(res, toks[1], toks[2:], env, lambda name: json_lines(res, name))
    if kind in ('stdout', 'stderr', 'output'):
        return check_text(res, kind, toks[1], toks[2:])
    if kind == 'script':
        return check_script(res, toks[1:], env)
    if kind == 'file':
        path = os.path.join(res.logdir, toks[1])
        if toks[2] == 'exists':
            return os.path.exists(path), 'exists' if os.path.exists(path) else 'absent'
        if toks[2] == 'absent':
            return not os.path.exists(path), 'exists' if os.path.exists(path) else 'absent'
        if toks[2] == 'nonempty':
            ok = os.path.exists(path) and os.path.getsize(path) > 0
            return ok, 'size %d' % os.path.getsize(path) if os.path.exists(path) else 'absent'
        if toks[2] in ('contains', 'not-contains') and len(toks) == 4:
            if not os.path.exists(path):
                return False, 'absent'
            with open(path, errors='replace') as fh:
                found = parse_value(toks[3]) in fh.read()
            return found == (toks[2] == 'contains'), 'found' if found else 'not found'
    raise CaseError('unknown expectation: %s' % line)


DIRECTIVES = ('single-only', 'no-runmode', 'needs-shared')


def run_case(env, name, case_dir, keep):
    """Runs one case in each of its modes: (passed, failed, lines, skips),
    its report lines and the SKIP reasons of its checks, for main to print
    in case order (cases run in parallel)."""
    expect = read_lines(os.path.join(case_dir, 'expect'))
    directives = {l for l in expect if l in DIRECTIVES}
    expect = [l for l in expect if l not in DIRECTIVES]
    if 'needs-shared' in directives and not os.path.isdir(env.shared):
        return 0, 0, ['SKIP: %s (../shared not found)' % name], []
    if 'no-runmode' in directives:
        modes = [None]
    elif 'single-only' in directives:
        modes = ['single']
    else:
        modes = ['single', 'autofp']
    passed = failed = 0
    lines, skips = [], []
    for mode in modes:
        label = '%s (%s)' % (name, mode or 'default')
        logdir = tempfile.mkdtemp(prefix='e2e-%s-' % name)
        try:
            ok, why = run_one(env, case_dir, mode, logdir, expect, skips)
        except CaseError as e:
            ok, why = False, str(e)
        if ok:
            lines.append('PASS: %s' % label)
            passed += 1
        else:
            lines.append('FAIL: %s: %s' % (label, why))
            failed += 1
        if ok or not keep:
            shutil.rmtree(logdir, ignore_errors=True)
        else:
            lines.append('  log folder kept: %s' % logdir)
    return passed, failed, lines, skips


def run_one(env, case_dir, mode, logdir, expect, skips):
    args_lines = read_lines(os.path.join(case_dir, 'args'))
    args = []
    for l in args_lines:
        args += [subst(a, env, case_dir, logdir) for a in shlex.split(l)]
    cmd = [env.binary]
    if '-c' not in args:
        cmd += ['-c', env.yaml]
    if '-l' not in args:
        cmd += ['-l', logdir]
    setup = os.path.join(case_dir, 'setup')
    if os.access(setup, os.X_OK):
        r = subprocess.run([setup, logdir], capture_output=True, text=True, timeout=RUN_TIMEOUT,
                           env=dict(os.environ, E2E_DATA=env.data, E2E_CASE=case_dir,
                                    E2E_SHARED=env.shared))
        if r.returncode != 0:
            return False, 'setup failed: %s' % (r.stdout + r.stderr).strip()[-400:]
    pcap = read_lines(os.path.join(case_dir, 'pcap'))
    if pcap:
        cmd += ['-r', os.path.join(env.data, subst(pcap[0], env, case_dir, logdir))]
    if mode:
        cmd += ['--runmode', mode]
    cmd += args
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, errors='replace',
                           timeout=RUN_TIMEOUT, cwd=logdir)
    except subprocess.TimeoutExpired:
        return False, 'timed out after %ds: %s' % (RUN_TIMEOUT, ' '.join(cmd))
    res = Result(r.returncode, r.stdout, r.stderr, logdir)
    res.case_dir, res.cmd = case_dir, cmd
    for pat in ('ERROR: AddressSanitizer', 'runtime error:', 'ERROR: LeakSanitizer'):
        if pat in r.stderr:
            return False, 'sanitizer report: %s' % r.stderr[r.stderr.find(pat):][:400]
    fails = []
    for line in expect:
        try:
            ok, got = check(res, line, env, skips)
        except CaseError as e:
            ok, got = False, str(e)
        if not ok:
            fails.append('%s, got %s' % (line, got))
    if fails:
        return False, '; '.join(fails) + ('  [cmd: %s]' % ' '.join(cmd))
    return True, ''


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    builddir, srcdir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    env = Env(builddir, srcdir)
    root = os.path.join(srcdir, 'tests', 'e2e')
    names = sys.argv[3:] or sorted(d for d in os.listdir(root)
                                   if os.path.exists(os.path.join(root, d, 'expect')))
    keep = os.environ.get('E2E_KEEP') == '1'
    if not os.access(env.binary, os.X_OK):
        for n in names:
            print('FAIL: %s: %s not built' % (n, env.binary))
        print('0 passed, %d failed' % len(names))
        return 1
    # Each run is one engine process reading a capture, in a log folder of
    # its own: cases run E2E_JOBS at a time (default 2, the CI machine's
    # cores), their lines printed in case order as each finishes.
    try:
        jobs = max(1, int(os.environ.get('E2E_JOBS', '2')))
    except ValueError:
        print('FAIL: e2e: E2E_JOBS must be a number')
        return 1
    env.conds()                     # once, before the threads share env
    passed = failed = 0
    shown = set()
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        runs = [pool.submit(run_case, env, n, os.path.join(root, n), keep) for n in names]
        for run in runs:
            p, f, lines, skips = run.result()
            for line in lines:
                print(line, flush=True)
            for why in skips:
                if why not in shown:    # one SKIP line per reason, not per run
                    shown.add(why)
                    print('SKIP: %s' % why, flush=True)
            passed += p
            failed += f
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
