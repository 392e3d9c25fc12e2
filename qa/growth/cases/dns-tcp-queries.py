#!/usr/bin/python3
"""Growth case: N DNS queries on one TCP connection (port 53).

    dns-tcp-queries.py --sizes
    dns-tcp-queries.py N OUTDIR

One connection: the handshake, then N times a query for q<i>.growth.example
(two-byte length prefix, RFC 1035 4.2.2), its answer (one A record) that
ACKs it, and the client's ACK of the answer, then FIN both ways. Suricata 8
makes each message its own transaction: 2N transactions on one flow. The
rule on one name fires once, the one on the common suffix N times.

What it catches, beside http-keepalive.py's HTTP: per-message work in the
DNS parser, its transaction list or the generic walks (detection, logging,
gc) that grows with the transactions the flow ever had (issue 43, item 2).
Written with qa/growth/pcapw.py.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import pcapw  # noqa: E402
import struct  # noqa: E402


def name(i):
	out = b""
	for label in (b"q%d" % i, b"growth", b"example"):
		out += bytes([len(label)]) + label
	return out + b"\0"


def query(i):
	msg = struct.pack("!HHHHHH", i & 0xFFFF, 0x0100, 1, 0, 0, 0) + name(i) + \
		struct.pack("!HH", 1, 1)
	return struct.pack("!H", len(msg)) + msg


def answer(i):
	msg = struct.pack("!HHHHHH", i & 0xFFFF, 0x8180, 1, 1, 0, 0) + name(i) + \
		struct.pack("!HH", 1, 1) + \
		struct.pack("!HHHIH4s", 0xC00C, 1, 1, 300, 4, bytes([192, 0, 2, i % 250 + 1]))
	return struct.pack("!H", len(msg)) + msg


def write(w, n):
	c = pcapw.Tcp(w, pcapw.addr(10, 43, 3, 1), pcapw.addr(10, 43, 3, 2), 40433, 53).open()
	c.talk((query(i), answer(i)) for i in range(n))
	c.close()
	return ('alert dns any any -> any any (msg:"growth dns every query"; '
		'dns.query; content:".growth.example"; endswith; sid:4300211; rev:1;)\n'
		'alert dns any any -> any any (msg:"growth dns one query"; '
		'dns.query; content:"q%d.growth.example"; startswith; endswith; '
		'sid:4300212; rev:1;)\n' % (n // 2)), "--set stream.reassembly.depth=0"


if __name__ == "__main__":
	pcapw.main(__doc__, (20000, 80000, 8000, 64000), write)
