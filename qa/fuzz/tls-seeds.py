#!/usr/bin/python3
"""Writes fuzz_tls seeds: each tests/data/tls capture as chunks (control
byte: bit 7 = to client, bits 0-6 = length - 1), client and server
segments alternating. Usage: tls-seeds.py OUTDIR"""
import glob, os, sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data", "tls")
for c2s in sorted(glob.glob(os.path.join(here, "*.c2s.hex"))):
    name = os.path.basename(c2s)[: -len(".c2s.hex")]
    segs = []
    for d, path in ((0, c2s), (0x80, c2s.replace(".c2s.", ".s2c."))):
        with open(path) as f:
            segs.append([(d, bytes.fromhex(l.strip())) for l in f if l.strip()])
    blob = bytearray()
    # the client's first segment, then the server's, and so on
    order = []
    for i in range(max(len(segs[0]), len(segs[1]))):
        for s in segs:
            if i < len(s):
                order.append(s[i])
    for d, seg in order:
        for k in range(0, len(seg), 128):
            piece = seg[k:k + 128]
            blob.append(d | (len(piece) - 1))
            blob += piece
    with open(os.path.join(out, name), "wb") as f:
        f.write(blob)
