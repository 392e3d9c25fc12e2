#!/usr/bin/env python3
"""Seeds for fuzz_http2: each TCP flow of the given captures (HTTP/2 with
prior knowledge or an h2c upgrade) as fuzz_http2's chunks: a control byte
(bit 7: to client; bits 0-5 + 1: the chunk's length) then the bytes.
Usage: http2-seeds.py OUTDIR PCAP..."""
import hashlib, importlib.util, os, struct, sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("sfseeds", os.path.join(here, "ssh-ftp-seeds.py"))
sf = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sf)


def main():
    out, paths = sys.argv[1], sys.argv[2:]
    os.makedirs(out, exist_ok=True)
    for path in paths:
        try:
            fl = sf.flows(path)
        except (OSError, struct.error):
            continue
        for key, (client, segs) in fl.items():
            blob = bytearray()
            for d, seg in segs:
                for k in range(0, len(seg), 64):
                    piece = seg[k:k + 64]
                    blob.append((0x80 if d else 0) | (len(piece) - 1))
                    blob += piece
            if blob:
                blob = bytes(blob[:65536])
                name = "seed-" + hashlib.sha1(blob).hexdigest()[:16]
                with open(os.path.join(out, name), "wb") as f:
                    f.write(blob)


if __name__ == "__main__":
    main()
