#!/usr/bin/env python3
"""ac-cuda (host emulation, tiny batches) vs ac on every tests/e2e case that
loads rules (-S/-s) and reads a pcap: the alert multisets must be equal, in
each runmode of RUNMODES, as the case is and again with stream.midstream on
(a flow picked up midstream may be reversed: what ac-cuda recorded of its
first direction must follow).

usage: accuda-e2e-equal.py SURICATA YAML SRCDIR
Prints PASS/FAIL per case and runmode, then "N passed, N failed".

A case's expect may hold a comment line that leaves it out:
  "# accuda-e2e: skip (why)"            in every runmode
  "# accuda-e2e: skip autofp (why)"     in that runmode only
Workers is not here: the engine takes it for live capture only (setup.c
refuses "--runmode workers" with -r, as Suricata does); tests/live/accuda.sh
covers ac-cuda in workers.

Environment (to try a runmode or the harness before the engine has it):
  ACCUDA_E2E_RUNMODES=autofp,single   runmodes instead of RUNMODES
  ACCUDA_E2E_ALGO=ac|hs               the second run with that matcher (ac: the harness alone)
  ACCUDA_E2E_JOBS=N                   pairs of runs at once (default 2)
  ACCUDA_E2E_TIMEOUT=S                seconds one engine run may take (default 120)"""
import collections, concurrent.futures, json, os, re, shlex, subprocess, sys, tempfile

# The runmodes every case runs in, ac and ac-cuda alike; the engine must take
# ac-cuda in each. ("single" joins once ac-cuda is accepted there.)
RUNMODES = ("autofp", "single")
TIMEOUT = int(os.environ.get("ACCUDA_E2E_TIMEOUT", "120"))   # seconds a run may take

TINY = ["--set", "mpm-algo=ac-cuda", "--set", "cuda.mpm.emulation=yes",
        "--set", "cuda.mpm.gpu-transfer-size=1kb", "--set", "cuda.mpm.cudabuffer-buffer-size=4kb",
        "--set", "cuda.mpm.test-opts=records=4,payloads=4,slots=4"]

MODES = (("", []), ("midstream", ["--set", "stream.midstream=true"]))

SKIP = re.compile(r"^# accuda-e2e: skip(?: (single|autofp|workers))?\b(.*)$", re.M)


def alerts(bin_, yaml, pcap, runmode, args, extra):
    with tempfile.TemporaryDirectory() as d:
        a = [x.replace("@LOGDIR@", d) for x in args]
        r = subprocess.run([bin_, "-c", yaml, "-l", d, "-r", pcap, "--runmode", runmode] + a + extra,
                           capture_output=True, text=True, timeout=TIMEOUT)
        got = collections.Counter()
        try:
            for line in open(os.path.join(d, "eve.json")):
                e = json.loads(line)
                if e.get("event_type") == "alert":
                    got[(e.get("pcap_cnt"), e["alert"]["signature_id"], e.get("src_ip"),
                         e.get("src_port"))] += 1
        except OSError:
            pass
        return r.returncode, got, r.stderr


def skips(cdir):
    """{runmode or None (all): why} from the case's expect comments."""
    try:
        text = open(os.path.join(cdir, "expect")).read()
    except OSError:
        return {}
    return {m.group(1): m.group(2).strip() for m in SKIP.finditer(text)}


def cases(srcdir):
    """(name, pcap, argument tokens, skips) of every e2e case that loads rules."""
    e2e = os.path.join(srcdir, "tests", "e2e")
    data = os.path.join(srcdir, "tests", "data", "pcaps")
    for case in sorted(os.listdir(e2e)):
        cdir = os.path.join(e2e, case)
        try:
            args = open(os.path.join(cdir, "args")).read().strip()
            pcap = open(os.path.join(cdir, "pcap")).read().strip()
        except OSError:
            continue
        if not any(t in ("-S", "-s") for t in shlex.split(args)) or "mpm-algo" in args:
            continue
        for k, v in {"@CASE@": cdir, "@SRCDIR@": srcdir, "@DATA@": data}.items():
            args = args.replace(k, v)
        toks = shlex.split(args)
        # the runmode is ours to set
        if "--runmode" in toks:
            i = toks.index("--runmode")
            del toks[i:i + 2]
        yield case, os.path.join(data, pcap), toks, skips(cdir)


def compare(bin_, yaml, job, algo, second):
    """One case in one runmode and mode: ac, then ALGO (SECOND: its arguments).
    The line to print, ok."""
    name, pcap, runmode, toks = job
    try:
        rc1, ref, _ = alerts(bin_, yaml, pcap, runmode, toks, ["--set", "mpm-algo=ac"])
        rc2, got, err = alerts(bin_, yaml, pcap, runmode, toks, second)
    except subprocess.TimeoutExpired as e:
        # a hung run fails its case; the others still run and print
        return "FAIL: accuda-e2e %s: %s ran over %d s" % (name, " ".join(e.cmd[-8:]), e.timeout), False
    if rc1 != rc2 or ref != got:
        return ("FAIL: accuda-e2e %s: exit %d/%d, %d/%d alerts (ac/%s) %s" %
                (name, rc1, rc2, sum(ref.values()), sum(got.values()), algo, err[-300:])), False
    return "PASS: accuda-e2e %s (%d alerts)" % (name, sum(ref.values())), True


def main(bin_, yaml, srcdir):
    env = os.environ.get("ACCUDA_E2E_RUNMODES")
    runmodes = tuple(env.split(",")) if env else RUNMODES
    second, algo = TINY, os.environ.get("ACCUDA_E2E_ALGO", "ac-cuda")
    if algo != "ac-cuda":
        print("note: accuda-e2e: the second run is %s (ACCUDA_E2E_ALGO), not ac-cuda" % algo)
        second = ["--set", "mpm-algo=" + algo]
    jobs = []
    for case, pcap, toks, skip in cases(srcdir):
        for runmode in runmodes:
            why = skip.get(runmode, skip.get(None))
            if why is not None:
                print("SKIP: accuda-e2e %s (%s) %s" % (case, runmode, why or "(its expect says so)"))
                continue
            for mode, more in MODES:
                if more and "stream.midstream=" in " ".join(toks):
                    continue
                name = "%s (%s)" % (case, ", ".join(x for x in (runmode, mode) if x))
                jobs.append((name, pcap, runmode, toks + more))
    # each pair is two short engine runs, one at a time: two pairs at once
    # keep both cores busy (the list doubles with each runmode)
    npass = nfail = 0
    with concurrent.futures.ThreadPoolExecutor(int(os.environ.get("ACCUDA_E2E_JOBS", "2"))) as pool:
        for line, ok in pool.map(lambda j: compare(bin_, yaml, j, algo, second), jobs):
            print(line, flush=True)
            npass += ok
            nfail += not ok
    print("%d passed, %d failed" % (npass, nfail))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
