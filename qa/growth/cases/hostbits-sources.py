#!/usr/bin/python3
"""Growth case: one hostbits rule, N sources inside one /16 (qa/growth).

    hostbits-sources.py --sizes
    hostbits-sources.py N OUTDIR [--spread]

One SYN from each of N sources, all in 10.7.0.0/16, to one server; a
noalert rule sets a hostbit on every source (`hostbits:set,seen,src`) and a
second one asks for it on the same packet (`hostbits:isset,seen,src`), so
every SYN creates a host entry and looks it up again, and the host table
ends up holding N entries. --spread draws the sources from all of the
unicast IPv4 space instead (the first octet changing fastest), for the
/16's reference.

An address hash that keeps a few of the address's bits puts a /16 in one
chain and makes this quadratic (issue 43). Written with qa/growth/pcapw.py.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import pcapw  # noqa: E402

SERVER = pcapw.addr(192, 168, 200, 1)
RULES = ('alert tcp any any -> any any (msg:"growth: mark the source"; flags:S; '
	 'hostbits:set,seen,src; noalert; sid:4300011; rev:1;)\n'
	 'alert tcp any any -> any any (msg:"growth: source marked"; flags:S; '
	 'hostbits:isset,seen,src; sid:4300012; rev:1;)\n')


def write(w, n, given):
	pcapw.source_syns(w, n, SERVER, "--spread" in given)
	return RULES, None


if __name__ == "__main__":
	# a /16 holds 65,534 hosts: N stays inside it
	pcapw.main(__doc__, (5000, 50000, 4000, 32000), write, flags=("--spread",), max_n=65534)
