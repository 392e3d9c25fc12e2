#!/usr/bin/python3
"""Writes fuzz_smb seeds from captures: the TCP payloads of each flow whose
first payload is an NBSS message carrying SMB, in the harness's chunk
format (qa/fuzz/fuzz_smb.c: control byte, bit 7 to client, bits 0-5 + 1
the length). The pcap reader is ssh-ftp-seeds.py's.
Usage: smb-seeds.py OUTDIR PCAP..."""
import hashlib, importlib.util, os, struct, sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("sfseeds", os.path.join(here, "ssh-ftp-seeds.py"))
sf = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sf)


def is_smb(seg):
    return len(seg) >= 8 and seg[0] == 0 and seg[5:8] == b"SMB" and seg[4] in (0xff, 0xfe, 0xfd)


def chunks(segs, limit=65536):
    blob = bytearray()
    for d, seg in segs:
        for k in range(0, len(seg), 64):
            piece = seg[k:k + 64]
            blob.append((0x80 if d else 0) | (len(piece) - 1))
            blob += piece
            if len(blob) > limit:
                return bytes(blob)
    return bytes(blob)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for path in sys.argv[2:]:
        try:
            fl = sf.flows(path)
        except (OSError, struct.error):
            continue
        for key, (client, segs) in fl.items():
            if not segs or not any(is_smb(s) for _, s in segs[:3]):
                continue
            blob = chunks(segs)
            name = "seed-" + hashlib.sha1(blob).hexdigest()[:16]
            with open(os.path.join(out, name), "wb") as f:
                f.write(blob)


if __name__ == "__main__":
    main()
