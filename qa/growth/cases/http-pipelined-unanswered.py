#!/usr/bin/python3
"""Growth case: N HTTP requests pipelined on one connection, never answered.

    http-pipelined-unanswered.py --sizes
    http-pipelined-unanswered.py N OUTDIR

One connection: the handshake, then N GETs /item/<i>, each in its own
segment that the server ACKs without a byte of response, then FIN both
ways. Every request stays live (no response completes it).

What it catches: work per packet that grows with the live transactions
when nothing bounds them. app-layer.protocols.http.max-tx (512) does:
past it the request side is parsed no further, and the cost per request
stays flat (issue 43, item 2: 5,000 took 1.9 s and 20,000 53 s while the
key was read but not applied).
Written with qa/growth/pcapw.py.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import pcapw  # noqa: E402


def request(i):
	return (b"GET /item/%d HTTP/1.1\r\nHost: growth.example\r\n"
		b"User-Agent: growth/1\r\n\r\n" % i)


def write(w, n):
	c = pcapw.Tcp(w, pcapw.addr(10, 43, 5, 1), pcapw.addr(10, 43, 5, 2), 40435, 80).open()
	c.talk((request(i), None) for i in range(n))   # ACKed, never answered
	c.close()
	return ('alert http any any -> any any (msg:"growth pipelined every request"; '
		'flow:established,to_server; http.uri; content:"/item/"; startswith; '
		'sid:4300231; rev:1;)\n'), "--set stream.reassembly.depth=0"


if __name__ == "__main__":
	pcapw.main(__doc__, (5000, 20000, 2000, 16000), write)
