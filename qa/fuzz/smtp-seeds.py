#!/usr/bin/python3
"""Seeds for fuzz_smtp from the SMTP sessions in pcaps (suricata-verify's).

usage: smtp-seeds.py OUTDIR PCAP...
Writes one file per capture: its TCP payloads in order as fuzz_smtp.c's
chunks (a control byte, bit 7 set for the server's side, bits 0-6 the
length - 1; longer payloads become several chunks). The server side is
the one whose port is 25, 465, 587 or 2525. Classic pcap only; the packet
reading is dns-seeds.py's."""
import hashlib
import importlib.util
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location('dns_seeds', os.path.join(here, 'dns-seeds.py'))
dns_seeds = importlib.util.module_from_spec(spec)
spec.loader.exec_module(dns_seeds)

SERVER_PORTS = (25, 465, 587, 2525)
MAX_SEED = 65536


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    os.makedirs(argv[1], exist_ok=True)
    n = 0
    for path in argv[2:]:
        out = bytearray()
        for linktype, pkt in dns_seeds.packets(path):
            r = dns_seeds.payload(linktype, pkt)
            if not r or not r[1]:
                continue
            toclient = 0x80 if r[0] in SERVER_PORTS else 0
            data = r[1]
            for i in range(0, len(data), 128):
                piece = data[i:i + 128]
                out += bytes([toclient | (len(piece) - 1)]) + piece
            if len(out) >= MAX_SEED:
                break
        if not out:
            continue
        b = bytes(out[:MAX_SEED])
        with open(os.path.join(argv[1], hashlib.sha1(b).hexdigest()), 'wb') as f:
            f.write(b)
        n += 1
    print(n, 'seeds')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
