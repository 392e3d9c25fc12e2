#!/usr/bin/env python3
"""Writes fuzz_http seeds (qa/fuzz/corpus/http/) in the harness's framing:
chunks of [ctl][len16 BE][data], ctl bit 0 = to client, bit 1 = gap, bit 2 =
EOF, bit 3 = tx gc. Re-run after changing the framing in fuzz_http.c."""
import gzip, os, sys, zlib

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus", "http")
os.makedirs(out, exist_ok=True)

def chunk(ctl, data=b"", gap=0):
    n = gap if ctl & 2 else len(data)
    return bytes([ctl, n >> 8 & 0xff, n & 0xff]) + (b"" if ctl & 2 else data)

TS, TC, GAP, EOF, GC = 0, 1, 2, 4, 8
body = b"<html><body>hello</body></html>\n"
gz = gzip.compress(body * 4, mtime=0)
seeds = {
    "get-200": chunk(TS, b"GET /index.html?a=1 HTTP/1.1\r\nHost: www.example.com\r\nUser-Agent: curl/8.0\r\nAccept: */*\r\nCookie: s=1\r\n\r\n")
        + chunk(TC, b"HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n" % len(body) + body, ),
    "post-chunked": chunk(TS, b"POST /upload HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
        + chunk(TC | GC, b"HTTP/1.1 204 No Content\r\n\r\n"),
    "gzip-response": chunk(TS, b"GET /z HTTP/1.1\r\nHost: h\r\nAccept-Encoding: gzip\r\n\r\n")
        + chunk(TC, b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n" % len(gz)) + chunk(TC, gz),
    "deflate-split": chunk(TS, b"GET /d HTTP/1.0\r\n\r\n")
        + chunk(TC, b"HTTP/1.0 200 OK\r\nContent-Encoding: deflate\r\n\r\n") + chunk(TC | EOF, zlib.compress(body)),
    "pipelined-gap": chunk(TS, b"GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\n")
        + chunk(TC, b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc") + chunk(TC | GAP, gap=40)
        + chunk(TC, b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"),
    "multipart": chunk(TS, b"POST /f HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary=XX\r\nContent-Length: 80\r\n\r\n--XX\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.txt\"\r\n\r\nfile\r\n--XX--\r\n"),
    "connect": chunk(TS, b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
        + chunk(TC, b"HTTP/1.1 200 Connection established\r\n\r\n") + chunk(TS, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"),
    "response-first": chunk(TC, b"HTTP/1.1 301 Moved\r\nLocation: http://x/\r\nSet-Cookie: a=b\r\n\r\n") + chunk(TS | EOF, b"GET /late HTTP/1.1\r\n\r\n"),
    "bad-lines": chunk(TS, b"GET  /%2e%2e/%u002f HTTP/1.1\r\nHost: a:99999\r\nHost: b\r\nX: \x00\r\n folded\r\nContent-Length: -1\r\n\r\n")
        + chunk(TC, b"HTTP/1.1 abc\r\nTransfer-Encoding: chunked\r\n\r\nffffffffff\r\n"),
    "upgrade-100": chunk(TS, b"POST /e HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        + chunk(TC, b"HTTP/1.1 100 Continue\r\n\r\n") + chunk(TS, b"data")
        + chunk(TC, b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n"),
}
for name, data in seeds.items():
    with open(os.path.join(out, name + ".bin"), "wb") as f:
        f.write(data)
print("wrote %d seeds to %s" % (len(seeds), out))
