#!/usr/bin/python3
"""Growth case: N HTTP/1.1 requests on one keep-alive TCP connection.

    http-keepalive.py --sizes
    http-keepalive.py N OUTDIR

One connection: the handshake, then N times a GET (client), a small 200
response that ACKs it (server) and the client's ACK of the response, then
FIN both ways. Every request has its own URI (/item/<i>) so the rule on one
of them fires once and the one on the common prefix fires N times.

What it catches: per-request work that walks every transaction the
connection ever had (the transaction gc, tx lookups by id, detection's and
logging's walks): the cost per request then grows with N (issue 43, item 2:
80,000 requests took 16x the time of 20,000 before the gc kept a mark).
Written with qa/growth/pcapw.py.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import pcapw  # noqa: E402

BODY = b"ok\n"
RESPONSE = (b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n"
	    b"Connection: keep-alive\r\n\r\n" % len(BODY)) + BODY


def request(i):
	return (b"GET /item/%d HTTP/1.1\r\nHost: growth.example\r\n"
		b"User-Agent: growth/1\r\n\r\n" % i)


def write(w, n):
	c = pcapw.Tcp(w, pcapw.addr(10, 43, 2, 1), pcapw.addr(10, 43, 2, 2), 40432, 80).open()
	c.talk((request(i), RESPONSE) for i in range(n))
	c.close()
	# the whole connection is parsed: past the default 1mb stream depth
	# the app layer would see no more requests, and the cost stop growing
	return ('alert http any any -> any any (msg:"growth keep-alive every request"; '
		'flow:established,to_server; http.uri; content:"/item/"; startswith; '
		'sid:4300201; rev:1;)\n'
		'alert http any any -> any any (msg:"growth keep-alive one request"; '
		'flow:established,to_server; http.uri; content:"/item/%d"; endswith; '
		'sid:4300202; rev:1;)\n' % (n // 2)), "--set stream.reassembly.depth=0"


if __name__ == "__main__":
	pcapw.main(__doc__, (20000, 80000, 4000, 32000), write)
