#!/usr/bin/python3
"""Writes fuzz_misc seeds from captures: the datagrams of each IKE (UDP
500, 4500), NFS (UDP or TCP 2049) and BitTorrent DHT flow (any other UDP
port, a datagram that starts with 'd'), in the harness's format (qa/fuzz/fuzz_misc.c): a byte
naming the flow kind, then per datagram a direction byte, a 16-bit length
and its bytes. Reads classic pcap (ber-seeds.py's reader).
Usage: misc-seeds.py OUTDIR PCAP..."""
import hashlib, importlib.util, os, struct, sys

spec = importlib.util.spec_from_file_location(
    "ber_seeds", os.path.join(os.path.dirname(os.path.abspath(__file__)), "ber-seeds.py"))
ber = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ber)


def kind_of(proto, sp, dp, payload):
    if 2049 in (sp, dp):
        return 3 if proto == 17 else 4
    if proto != 17:
        return None
    if 500 in (sp, dp):
        return 0
    if 4500 in (sp, dp):
        return 1
    return 2 if payload[:1] == b"d" else None


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for path in sys.argv[2:]:
        flows = {}
        try:
            for proto, a, b, payload in ber.packets(path):
                if not payload:
                    continue
                key = (proto,) + tuple(sorted([a, b]))
                if key not in flows:
                    kind = kind_of(proto, a[1], b[1], payload)
                    if kind is None:
                        continue
                    flows[key] = [a, bytearray([kind])]
                f = flows[key]
                d = 0 if a == f[0] else 0x80
                p = payload[:4095]
                f[1] += bytes([d]) + struct.pack(">H", len(p)) + p
        except (OSError, struct.error):
            continue
        for _, blob in flows.values():
            blob = bytes(blob[:16384])
            name = "seed-" + hashlib.sha1(blob).hexdigest()[:16]
            with open(os.path.join(out, name), "wb") as fh:
                fh.write(blob)


if __name__ == "__main__":
    main()
