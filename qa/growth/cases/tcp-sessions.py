#!/usr/bin/python3
"""Growth case: N TCP sessions, each one HTTP request and answer, then closed.

    tcp-sessions.py --sizes | N OUTDIR

The flow table, TCP session and HTTP state set-up and teardown: the cost of a
session must not grow with the number the table holds (all of them are alive
until the flow timeouts, which the capture's microsecond steps never reach).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import pcapw  # noqa: E402


def write(w, n):
	srv = pcapw.addr(192, 168, 200, 1)
	for i in range(n):
		cli = pcapw.addr(10, 20 + (i >> 16 & 0x3F), i >> 8 & 0xFF, i & 0xFF)
		c = pcapw.Tcp(w, cli, srv, 1024 + i % 60000, 80).open()
		c.client(b"GET /s/%d HTTP/1.1\r\nHost: growth.example\r\n\r\n" % i)
		c.server(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")
		c.close()
	return ('alert http any any -> any any (msg:"growth uri"; http.uri; content:"/s/7"; '
		'endswith; sid:1;)\n'), None


if __name__ == "__main__":
	pcapw.main(__doc__, (20000, 160000, 4000, 32000), write)
