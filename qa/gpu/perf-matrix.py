#!/usr/bin/env python3
"""The device check's speed comparison: hs, ac and ac-cuda on one capture.

    perf-matrix.py --bin SURICATA --yaml Y --rules R --pcap P --out DIR
                   --budget SECS --rows SPEC [--dry] [--reps N]
                   [--cuda-set KEY=VALUE ...] [--thread-cpu PATH]

Each run is the engine in runmode autofp on the capture (-k none, as
qa/bench/accuda-bench.sh), under qa/bench/thread-cpu.py, which samples
every thread's CPU time by name. Per run it keeps:
  - pkt/s from the engine's own line "packets processed in X s ...", the
    packet phase only (rule loading excluded);
  - CPU time per packet by thread role (RX, W, ACC-DISP, ACC-DONE, ACC-EMU,
    main; the name without its number) and "host" = every role but main
    (start-up) and ACC-EMU (the emulated device, not host work);
  - peak RSS (VmHWM), alerts, and the eve stats' mpm.cuda counters.

Rows are (algo, workers, pool); algo "ac-cuda-nv" is ac-cuda without the
rule programs on the device (cuda.mpm.test-opts verify=0): its kern_us
against ac-cuda's is what the verify kernel costs. --rows: comma-separated "algo:workers[:pool]"
with pool "d" (default: the key left out, each algo at its own default) or
a number (max-pending-packets for every algo: the "equal pools" axis); a
trailing "*" marks a KEY row, repeated --reps times (the others run once).
Runs go in passes (every key row once, then again, --reps times, then the
other rows once), and a run starts only while the budget leaves room for
one more of the longest so far: when the machine is slower than estimated,
the rows that are not key go first (the table says how many repetitions
each row got, and "not run: budget").

--cuda-set adds "--set KEY=VALUE" to the ac-cuda runs only: check-test.sh
makes every batch hang (cuda.mpm.test-opts=hang=1,...) to see this script
FAIL on the watchdog while the alerts stay equal.

FAIL (exit 1): a run exits non-zero or prints no rate; ac-cuda with an
error, overflow or watchdog batch; ac-cuda on the device (not --dry) with
mpm.cuda.emulation 1, or in --dry with 0; alerts that differ between algos
at the same (workers, pool) (the median run of each). Writes DIR/perf.json
(every run) and prints the table.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

ROLE_ORDER = ["RX", "W", "ACC-DISP", "ACC-DONE", "ACC-EMU", "main"]
RATE = re.compile(r"runmode (\S+): packets processed in ([0-9.]+) s \(cpu ([0-9.]+) s\): "
                  r"([0-9.]+) packets/s")
READ = re.compile(r"read \d+ files, (\d+) packets")
POOL = re.compile(r"runmode \S+, (\d+) workers?, max-pending-packets (\d+)")


def parse_rows(spec, reps):
    rows = []
    for item in spec.split(","):
        item = item.strip()
        if not item:
            continue
        key = item.endswith("*")
        parts = item.rstrip("*").split(":")
        algo, workers = parts[0], int(parts[1])
        pool = parts[2] if len(parts) > 2 else "d"
        rows.append({"algo": algo, "workers": workers, "pool": pool,
                     "reps": reps if key else 1, "key": key, "runs": []})
    return rows


def read_text(*paths):
    text = ""
    for p in paths:
        try:
            with open(p, errors="replace") as f:
                text += f.read()
        except OSError:
            pass
    return text


def one_run(a, row, rep, thread_cpu):
    d = os.path.join(a.out, "%s-w%d-p%s-r%d" % (row["algo"], row["workers"], row["pool"], rep))
    os.makedirs(d, exist_ok=True)
    ratio = "%.4f" % (row["workers"] / os.cpu_count())
    cmd = [a.bin, "-c", a.yaml, "-r", a.pcap, "-S", a.rules, "-l", d, "--runmode", "autofp",
           "-k", "none", "--set", "threading.detect-thread-ratio=" + ratio,
           "--set", "mpm-algo=" + row["algo"]]
    if row["pool"] != "d":
        cmd += ["--set", "max-pending-packets=" + row["pool"]]
    if row["algo"].startswith("ac-cuda"):
        cmd[cmd.index("mpm-algo=" + row["algo"])] = "mpm-algo=ac-cuda"
        if a.dry:
            cmd += ["--set", "cuda.mpm.emulation=yes"]
        if row["algo"] == "ac-cuda-nv":
            # the scan alone: what the verify kernel costs the device
            cmd += ["--set", "cuda.mpm.test-opts=verify=0"]
        for kv in a.cuda_set:
            cmd += ["--set", kv]
    t0 = time.monotonic()
    with open(os.path.join(d, "out"), "w") as out:
        rc = subprocess.call([sys.executable, thread_cpu, "--json", os.path.join(d, "cpu.json"),
                              "--"] + cmd, stdout=out, stderr=subprocess.STDOUT)
    r = {"rc": rc, "wall": time.monotonic() - t0, "dir": d}
    text = read_text(os.path.join(d, "out"), os.path.join(d, "suricata.log"))
    m, n, p = RATE.search(text), READ.search(text), POOL.search(text)
    r["pps"] = float(m.group(4)) if m else 0.0
    r["packets"] = int(n.group(1)) if n else 0
    r["workers_seen"] = int(p.group(1)) if p else 0
    r["pool_seen"] = int(p.group(2)) if p else 0
    try:
        with open(os.path.join(d, "cpu.json")) as f:
            cpu = json.load(f)
    except (OSError, ValueError):
        cpu = {}
    pk = r["packets"] or 1
    r["roles_us"] = {k: v * 1e3 / pk for k, v in cpu.get("roles_ms", {}).items()}
    r["host_us"] = cpu.get("host_ms", 0) * 1e3 / pk
    r["rss_mb"] = cpu.get("peak_rss_kb", 0) / 1024.0
    alerts, cuda = 0, None
    eve = os.path.join(d, "eve.json")
    kept, tuples = [], []
    try:
        with open(eve, errors="replace") as f:
            for line in f:
                if '"event_type":"alert"' in line:
                    alerts += 1
                    try:
                        e = json.loads(line)
                        tuples.append("%s\t%s\t%s\t%s\t%s" % (
                            e["alert"]["signature_id"], e.get("src_ip"), e.get("src_port"),
                            e.get("dest_ip"), e.get("dest_port")))
                    except (ValueError, KeyError):
                        pass
                elif '"event_type":"stats"' in line:
                    kept = [line]
    except OSError:
        pass
    # what a reader needs to find an unequal alert, in a few hundred KB
    with open(os.path.join(d, "alerts.tsv"), "w") as f:
        f.writelines(t + "\n" for t in sorted(tuples))
    if kept:
        try:
            cuda = json.loads(kept[0])["stats"].get("mpm", {}).get("cuda")
        except (ValueError, KeyError):
            pass
    # the logs travel back in one tarball (16 MiB at most): not eve itself
    for f in ("eve.json", "fast.log"):
        try:
            os.remove(os.path.join(d, f))
        except OSError:
            pass
    with open(os.path.join(d, "eve-stats.json"), "w") as f:
        f.writelines(kept)
    r["alerts"], r["cuda"] = alerts, cuda
    return r


def med(vals):
    vals = [v for v in vals if v is not None]
    return statistics.median(vals) if vals else 0.0


def main():
    ap = argparse.ArgumentParser()
    for k in ("bin", "yaml", "rules", "pcap", "out"):
        ap.add_argument("--" + k, required=True)
    ap.add_argument("--budget", type=float, required=True)
    ap.add_argument("--dry", action="store_true")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--rows", required=True)
    ap.add_argument("--cuda-set", action="append", default=[])
    ap.add_argument("--thread-cpu", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "bench", "thread-cpu.py"))
    a = ap.parse_args()
    t_end = time.monotonic() + a.budget
    os.makedirs(a.out, exist_ok=True)
    if not os.path.exists(a.thread_cpu):
        print("FAIL: %s is missing (per-thread CPU by name)" % a.thread_cpu)
        return 1
    rows = parse_rows(a.rows, a.reps)
    # passes: every key row once, again, ..., then the other rows once; a
    # pass takes the algos in turn, so drift on the machine hits them alike
    order = []
    for rep in range(a.reps):
        order += [(r, rep) for r in rows if r["key"] and r["reps"] > rep]
    order += [(r, 0) for r in rows if not r["key"]]
    walls, skipped = [], 0
    for row, rep in order:
        # room for one more of the longest run so far (20 s before any)
        if t_end - time.monotonic() < (max(walls) if walls else 20.0) * 1.3 + 5:
            skipped += 1
            continue
        r = one_run(a, row, rep, a.thread_cpu)
        walls.append(r["wall"])
        row["runs"].append(r)
        print("run %-8s w=%-2d pool=%-5s rep %d: exit %d, %.1f s, %.0f pkt/s, host %.3f us/pkt, "
              "%d alerts" % (row["algo"], row["workers"], row["pool"], rep + 1, r["rc"], r["wall"],
                             r["pps"], r["host_us"], r["alerts"]), flush=True)

    fails = []
    roles = [x for x in ROLE_ORDER]
    for row in rows:
        for r in row["runs"]:
            for k in r["roles_us"]:
                if k not in roles:
                    roles.insert(len(roles) - 1, k)
    cols = [k for k in roles if any(k in r["roles_us"] for row in rows for r in row["runs"])]
    print("== packet phase: autofp, %s; medians of the repetitions; CPU in us per packet "
          "(thread-cpu.py); host = all but main and ACC-EMU" % os.path.basename(a.pcap))
    print("%-8s %3s %6s %4s %10s %8s %s %7s %7s" % (
        "algo", "wk", "pool", "reps", "pkt/s", "host_us", " ".join("%8s" % c for c in cols),
        "RSS_MB", "alerts"))
    by_cell = {}
    for row in rows:
        runs = [r for r in row["runs"]]
        for r in runs:
            if r["rc"] != 0 or not r["pps"]:
                fails.append("%s/%d/%s: exit %d%s" % (row["algo"], row["workers"], row["pool"],
                                                      r["rc"], "" if r["pps"] else ", no rate line"))
        ok = [r for r in runs if r["rc"] == 0 and r["pps"]]
        if not runs:
            print("%-8s %3d %6s %4s  (not run: budget)" % (row["algo"], row["workers"], row["pool"], 0))
            continue
        pool = row["pool"] if row["pool"] != "d" else "d%s" % (ok[0]["pool_seen"] if ok else "?")
        m = {"pps": med([r["pps"] for r in ok]), "host": med([r["host_us"] for r in ok]),
             "rss": med([r["rss_mb"] for r in ok])}
        alerts = sorted(r["alerts"] for r in ok)
        print("%-8s %3d %6s %4d %10.0f %8.3f %s %7.0f %7s" % (
            row["algo"], ok[0]["workers_seen"] if ok else row["workers"], pool, len(ok), m["pps"],
            m["host"], " ".join("%8.3f" % med([r["roles_us"].get(c) for r in ok]) for c in cols),
            m["rss"], alerts[len(alerts) // 2] if alerts else "-"))
        if alerts and len(set(alerts)) > 1:
            fails.append("%s/%d/%s: alerts differ between repetitions: %s" % (
                row["algo"], row["workers"], row["pool"], alerts))
        row["median"] = m
        if alerts:
            by_cell.setdefault((row["workers"], row["pool"]), {})[row["algo"]] = alerts[len(alerts) // 2]
        for r in ok:
            if not row["algo"].startswith("ac-cuda"):
                continue
            c = r["cuda"] or {}
            tag = "%s/%d/%s" % (row["algo"], row["workers"], row["pool"])
            if not c:
                fails.append(tag + ": no mpm.cuda stats in eve.json")
                continue
            for k in ("error_batches", "overflow_batches", "watchdog"):
                if c.get(k, 0):
                    fails.append("%s: %s %s" % (tag, k, c.get(k)))
            if c.get("emulation") != (1 if a.dry else 0):
                fails.append("%s: mpm.cuda.emulation=%s" % (tag, c.get("emulation")))
            if not c.get("batches"):
                fails.append(tag + ": no batch went to the device")
    for cell, algos in sorted(by_cell.items()):
        if len(set(algos.values())) > 1:
            fails.append("workers %d pool %s: alerts differ: %s" % (cell[0], cell[1], algos))

    print("== mpm.cuda of the ac-cuda runs (last repetition)")
    print("%-10s %3s %6s %7s %9s %8s %5s %5s %4s %3s %8s %8s %8s" % (
        "algo", "wk", "pool", "batches", "gpu_pay", "cpu_pay", "err_b", "ovf_b", "wdog", "emu",
        "h2d_us", "kern_us", "d2h_us"))
    for row in rows:
        if not row["algo"].startswith("ac-cuda") or not row["runs"]:
            continue
        c = row["runs"][-1]["cuda"] or {}
        cpu = c.get("cpu", {})
        cpu_pay = sum(cpu.get(k, 0) for k in ("below_min", "above_max", "ring_full",
                                               "overflow", "device_error"))
        print("%-10s %3d %6s %7s %9s %8d %5s %5s %4s %3s %8s %8s %8s" % (
            row["algo"], row["workers"], row["pool"], c.get("batches", "-"), c.get("payloads_gpu", "-"),
            cpu_pay, c.get("error_batches", "-"), c.get("overflow_batches", "-"),
            c.get("watchdog", "-"), c.get("emulation", "-"), c.get("h2d_us", "-"),
            c.get("kernel_us", "-"), c.get("d2h_us", "-")))

    # the bars: ac-cuda against hs, same runmode and workers
    print("== ac-cuda / hs (same workers, pool): host CPU per packet (bar <= 0.85), peak RSS (<= 1.5)")
    med_of = {(r["algo"], r["workers"], r["pool"]): r.get("median") for r in rows}
    for row in rows:
        if not row["algo"].startswith("ac-cuda") or not row.get("median"):
            continue
        hs = med_of.get(("hs", row["workers"], row["pool"]))
        if not hs or not hs["host"] or not hs["rss"]:
            continue
        g = row["median"]
        print("%-10s w=%-2d pool=%-5s host %.2f  RSS %.2f  pkt/s %.2f" % (
            row["algo"], row["workers"], row["pool"], g["host"] / hs["host"], g["rss"] / hs["rss"],
            g["pps"] / hs["pps"] if hs["pps"] else 0))
    if skipped:
        print("budget: %d run(s) left out (rows that are not key first)" % skipped)
    with open(os.path.join(a.out, "perf.json"), "w") as f:
        json.dump([{k: v for k, v in row.items()} for row in rows], f, indent=1)
    for f in fails:
        print("FAIL: " + f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
