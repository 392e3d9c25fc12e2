#!/usr/bin/python3
"""Growth case: one threshold rule, N sources inside one /16 (qa/growth).

    threshold-sources.py --sizes
    threshold-sources.py N OUTDIR [--spread]

One SYN from each of N sources, all in 10.7.0.0/16, to one server; the
rule counts them with `threshold: type limit, track by_src, count 1,
seconds 60`, so every SYN is a threshold lookup of a new source and the
table ends up holding N entries. The capture spans 10 s of packet time,
inside the window: no entry expires, the cost is the table's alone.
--spread draws them from all of the unicast IPv4 space instead, the first
octet changing fastest (the same N: the /16's reference, sources the old
address hash spread well).

An address hash that keeps a few of the address's bits puts a /16 in one
chain and makes this quadratic (issue 43: 8.2 s against 0.25 s spread at
50,000). Written with qa/growth/pcapw.py.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import pcapw  # noqa: E402

SERVER = pcapw.addr(192, 168, 200, 1)
RULE = ('alert tcp any any -> any any (msg:"growth: SYN by source"; flags:S; '
	'threshold: type limit, track by_src, count 1, seconds 60; sid:4300001; rev:1;)\n')


def write(w, n, given):
	pcapw.source_syns(w, n, SERVER, "--spread" in given)
	return RULE, None


if __name__ == "__main__":
	# a /16 holds 65,534 hosts: N stays inside it
	pcapw.main(__doc__, (5000, 50000, 2000, 16000), write, flags=("--spread",), max_n=65534)
