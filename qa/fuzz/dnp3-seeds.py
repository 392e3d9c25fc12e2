#!/usr/bin/python3
"""Writes fuzz_dnp3 seeds from captures: the payloads of each DNP3 flow
(TCP port 20000) in the harness's two formats (qa/fuzz/fuzz_dnp3.c): the
stream's own bytes in chunks of at most 64 (first byte 0), and each link
frame's user data, its CRCs removed, for the harness to wrap again (first
byte 1).
Usage: dnp3-seeds.py OUTDIR PCAP..."""
import hashlib, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib import import_module

packets = import_module("ber-seeds").packets


def user_data(stream):
    """The user data of each whole frame of a direction's bytes."""
    pos = 0
    while pos + 10 <= len(stream) and stream[pos:pos + 2] == b"\x05\x64":
        n = max(stream[pos + 2] - 5, 0)
        flen = 10 + n + 2 * ((n + 15) // 16)
        body = stream[pos + 10:pos + flen]
        ud = b"".join(body[i:i + 16] for i in range(0, len(body), 18))
        yield ud[:250]
        pos += flen


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for path in sys.argv[2:]:
        flows = {}
        for proto, a, b, payload in packets(path):
            if proto != 6 or not payload or 20000 not in (a[1], b[1]):
                continue
            key = (a, b) if b[1] == 20000 else (b, a)
            flows.setdefault(key, []).append((1 if a[1] == 20000 else 0, payload))
        for msgs in flows.values():
            raw = bytearray(b"\x00")
            framed = bytearray(b"\x01")
            for d, p in msgs:
                for i in range(0, len(p), 64):
                    c = p[i:i + 64]
                    raw += bytes([(d << 7) | (len(c) - 1)]) + c
                for ud in user_data(p):
                    framed += bytes([d << 7, len(ud)]) + ud
            for seed in (raw, framed):
                name = hashlib.sha1(seed).hexdigest()
                with open(os.path.join(out, name), "wb") as fh:
                    fh.write(seed)


if __name__ == "__main__":
    main()
