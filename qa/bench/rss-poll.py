#!/usr/bin/python3
"""Runs a command and samples the resident memory of its process tree.

    rss-poll.py OUT.txt LOG MARK -- COMMAND...

Every 5 ms (plus a /proc scan): the summed VmRSS of COMMAND and its descendants (COMMAND may be
/usr/bin/time -v around the engine). Writes to OUT.txt the peak over the whole
run and the peak after the line MARK first appears in the file LOG (the
engine's "at the start of packet processing"): the packet phase's own peak,
which the lifetime peak (rule loading's, often) hides. Exit status: COMMAND's.
"""
import os
import subprocess
import sys
import time


def tree(pid):
    """pid and its descendants, from each /proc/N/stat's parent field."""
    parent = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                st = f.read()
            parent[int(d)] = int(st[st.rindex(")") + 2:].split()[1])
        except (OSError, ValueError):
            pass
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(c for c, pp in parent.items() if pp == p)
    return out


def rss_kb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def main():
    out, log, mark = sys.argv[1:4]
    cmd = sys.argv[5:] if sys.argv[4] == "--" else sys.argv[4:]
    proc = subprocess.Popen(cmd)
    peak = phase = 0
    in_phase = False
    while proc.poll() is None:
        kb = sum(rss_kb(p) for p in tree(proc.pid))
        peak = max(peak, kb)
        if not in_phase:
            try:
                with open(log, errors="replace") as f:
                    in_phase = mark in f.read()
            except OSError:
                pass
        if in_phase:
            phase = max(phase, kb)
        time.sleep(0.005)
    with open(out, "w") as f:
        f.write("peak_kb %d\nphase_peak_kb %d\n" % (peak, phase))
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
