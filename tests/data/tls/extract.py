#!/usr/bin/python3
"""Writes the two directions of one TCP stream of a pcap as hex (one line per
segment, so tests can replay the capture's own segmentation).
Usage: extract.py PCAP STREAM NAME [MAXBYTES]  -> NAME.c2s.hex NAME.s2c.hex"""
import subprocess, sys

pcap, stream, name = sys.argv[1], sys.argv[2], sys.argv[3]
maxb = int(sys.argv[4]) if len(sys.argv) > 4 else 16384
out = subprocess.run(["tshark", "-r", pcap, "-q", "-z", "follow,tcp,raw," + stream],
                     capture_output=True, text=True, check=True).stdout
c2s, s2c = [], []
body = False
for line in out.splitlines():
    if line.startswith("Node 1:"):
        body = True
        continue
    if not body or line.startswith("====") or not line.strip():
        continue
    (s2c if line.startswith("\t") else c2s).append(line.strip())
for suffix, segs in (("c2s", c2s), ("s2c", s2c)):
    n = 0
    with open(name + "." + suffix + ".hex", "w") as f:
        for s in segs:
            if n >= maxb:
                break
            s = s[: 2 * (maxb - n)]
            n += len(s) // 2
            f.write(s + "\n")
