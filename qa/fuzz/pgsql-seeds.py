#!/usr/bin/python3
"""Writes fuzz_pgsql seeds from captures: each capture's flows to port 5432,
in the harness's chunk format (qa/fuzz/fuzz_pgsql.c: control byte, bit 7
to client, bits 0-5 + 1 bytes), 64 bytes a chunk, at most 16 KiB a seed.
The pcap reader is ssh-ftp-seeds.py's.
Usage: pgsql-seeds.py OUTDIR PCAP..."""
import hashlib, importlib.util, os, struct, sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("sfseeds", os.path.join(here, "ssh-ftp-seeds.py"))
sf = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sf)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for path in sys.argv[2:]:
        try:
            fl = sf.flows(path)
        except (OSError, struct.error):
            continue
        for key, (client, segs) in fl.items():
            if not segs or not any(a[1] == 5432 for a in key):
                continue
            blob = bytearray()
            for d, seg in segs:
                for k in range(0, len(seg), 64):
                    piece = seg[k:k + 64]
                    blob.append((0x80 if d else 0) | (len(piece) - 1))
                    blob += piece
            blob = bytes(blob[:16384])
            name = "seed-" + hashlib.sha1(blob).hexdigest()[:16]
            with open(os.path.join(out, name), "wb") as f:
                f.write(blob)


if __name__ == "__main__":
    main()
