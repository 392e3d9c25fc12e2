#!/usr/bin/python3
"""Growth case: N files, each downloaded over HTTP in a session of its own.

    http-files.py --sizes | N OUTDIR

File tracking (names, hashes, magic, the files a flow holds): the cost of a
file must not grow with the number of files seen before.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import pcapw  # noqa: E402


def write(w, n):
	srv = pcapw.addr(192, 168, 201, 1)
	body = b"MZ" + bytes(range(256)) * 4
	for i in range(n):
		cli = pcapw.addr(10, 60 + (i >> 16 & 0x3F), i >> 8 & 0xFF, i & 0xFF)
		c = pcapw.Tcp(w, cli, srv, 1024 + i % 60000, 80).open()
		c.client(b"GET /f/%d.exe HTTP/1.1\r\nHost: growth.example\r\n\r\n" % i)
		c.server(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
			 b"Content-Length: %d\r\n\r\n" % len(body) + body)
		c.close()
	return 'alert http any any -> any any (msg:"growth file"; fileext:"exe"; sid:1;)\n', None


if __name__ == "__main__":
	pcapw.main(__doc__, (5000, 40000, 1500, 12000), write)
