#!/usr/bin/python3
"""Runs the engine and reports the CPU time of each of its threads, by name.

    thread-cpu.py [--json OUT] [--packets N] -- COMMAND...

Every 10 ms it reads /proc/PID/task/TID/schedstat (time on a CPU, in ns), status
(context switches, voluntary and not)
and comm (the name the thread gave itself: W#01, RX#01, ACC-DISP, ACC-EMU#03,
...) of every thread of COMMAND's process, and VmHWM (peak RSS). A thread's
figure is its last sample: a thread that ends less than 10 ms after a sample
loses at most that much, which on a run of seconds is under 1%.

The threads are grouped by role, the name without its number: RX, W, ACC-DISP,
ACC-DONE, ACC-EMU (the emulated device: not host work, reported apart), and
the main thread (start-up: rule loading, reported apart too). With --packets
N (the packets the run decoded), each role's µs per packet is printed too,
and "host" sums every role but the main thread's and the emulated device's:
what the engine's packet path costs the host's CPUs.

With --pin-emu CPU the emulated device's threads (ACC-EMU) run on that CPU
alone and every other thread on the others (set as threads appear): on a
small machine the emulation otherwise shares the host threads' cores and
caches, and their CPU time grows with it. Give the baseline run (hs, ac)
the same flag, so that both have the same CPUs for the host.

Exit status: COMMAND's. Output: one line per role, then host and peak RSS;
--json writes the same as an object.
"""
import json
import os
import re
import subprocess
import sys
import time

POLL_S = 0.01


def pin(tid, comm, pin_emu, pinned):
    """Moves a new thread to its CPUs (--pin-emu), once."""
    if pin_emu is None or tid in pinned:
        return
    cpus = set(range(os.cpu_count()))
    want = {pin_emu} if comm.startswith("ACC-EMU") else (cpus - {pin_emu} or cpus)
    try:
        os.sched_setaffinity(tid, want)
        pinned.add(tid)
    except OSError:
        pass


def sample(pid, seen, pin_emu=None, pinned=None):
    """Updates seen[tid] = (comm, ns) for every live thread of pid."""
    try:
        tids = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return
    for tid in tids:
        base = "/proc/%d/task/%s/" % (pid, tid)
        try:
            with open(base + "schedstat") as f:
                ns = int(f.read().split()[0])
            with open(base + "comm") as f:
                comm = f.read().strip()
            with open(base + "status") as f:
                cs = sum(int(l.split()[1]) for l in f if "ctxt_switches:" in l)
        except (OSError, ValueError, IndexError):
            continue
        seen[int(tid)] = (comm, ns, cs)
        # threads inherit the process's CPUs (set at start); the
        # emulation's move once they have their name
        if comm.startswith("ACC-EMU"):
            pin(int(tid), comm, pin_emu, pinned)


def hwm_kb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def role(comm, tid, pid):
    if tid == pid:
        return "main"
    return re.sub(r"#\d+$", "", comm)


def main(argv):
    out_json, packets, pin_emu = None, 0, None
    while argv and argv[0] != "--":
        opt = argv.pop(0)
        if opt == "--json":
            out_json = argv.pop(0)
        elif opt == "--packets":
            packets = int(argv.pop(0))
        elif opt == "--pin-emu":
            pin_emu = int(argv.pop(0))
        else:
            sys.exit("thread-cpu.py: unknown option %s" % opt)
    if not argv or len(argv) < 2:
        sys.exit(__doc__)
    cmd = argv[1:]
    proc = subprocess.Popen(cmd)
    seen, hwm, pinned = {}, 0, set()
    if pin_emu is not None:
        # the process (and the threads it starts before we look) off the
        # emulation's CPU
        try:
            os.sched_setaffinity(proc.pid, set(range(os.cpu_count())) - {pin_emu})
        except OSError:
            pass
    while proc.poll() is None:
        sample(proc.pid, seen, pin_emu, pinned)
        hwm = max(hwm, hwm_kb(proc.pid))
        time.sleep(POLL_S)
    rc = proc.wait()
    roles = {}
    switches = {}
    for tid, (comm, ns, cs) in seen.items():
        r = role(comm, tid, proc.pid)
        roles[r] = roles.get(r, 0) + ns
        switches[r] = switches.get(r, 0) + cs
    host = sum(ns for r, ns in roles.items() if r not in ("main", "ACC-EMU"))
    res = {"roles_ms": {r: ns / 1e6 for r, ns in sorted(roles.items())},
           "host_ms": host / 1e6, "peak_rss_kb": hwm, "packets": packets,
           "ctxt_switches": dict(sorted(switches.items()))}
    if packets:
        res["roles_us_per_pkt"] = {r: ns / 1e3 / packets for r, ns in sorted(roles.items())}
        res["host_us_per_pkt"] = host / 1e3 / packets
    for r, ms in res["roles_ms"].items():
        per = " %.3f us/pkt" % res["roles_us_per_pkt"][r] if packets else ""
        print("thread-cpu: %-9s %10.1f ms%s, %d context switches" % (r, ms, per, switches[r]))
    per = " %.3f us/pkt" % res["host_us_per_pkt"] if packets else ""
    print("thread-cpu: %-9s %10.1f ms%s (all but main and ACC-EMU)" % ("host", host / 1e6, per))
    print("thread-cpu: peak_rss %d kB" % hwm)
    if out_json:
        with open(out_json, "w") as f:
            json.dump(res, f, indent=1)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
