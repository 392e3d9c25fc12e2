#!/usr/bin/python3
"""Writes fuzz_ber seeds from captures: the payloads of each LDAP (port
389), Kerberos (88) and SNMP (161, 162) flow, TCP or UDP, in the harness's
format (qa/fuzz/fuzz_ber.c): a byte naming the flow kind, then chunks of at
most 64 bytes (a datagram is one chunk when it fits).
Usage: ber-seeds.py OUTDIR PCAP..."""
import hashlib, os, struct, sys

KINDS = {(6, 389): 0, (17, 389): 1, (6, 88): 2, (17, 88): 3, (17, 161): 4, (17, 162): 4}


def packets(path):
    d = open(path, "rb").read()
    if len(d) < 24:
        return
    magic = d[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        e = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        e = ">"
    else:
        return                      # pcapng: not needed here
    link = struct.unpack(e + "I", d[20:24])[0]
    off = 24
    while off + 16 <= len(d):
        incl = struct.unpack(e + "I", d[off + 8:off + 12])[0]
        frame = d[off + 16:off + 16 + incl]
        off += 16 + incl
        if link == 1 and len(frame) >= 14:
            et, p = struct.unpack(">H", frame[12:14])[0], frame[14:]
            while et == 0x8100 and len(p) >= 4:
                et, p = struct.unpack(">H", p[2:4])[0], p[4:]
        elif link in (101, 12) and frame:
            p = frame
            et = 0x0800 if p[0] >> 4 == 4 else 0x86dd
        else:
            continue
        if et == 0x0800 and len(p) >= 20:
            proto, src, dst, t = p[9], p[12:16], p[16:20], p[(p[0] & 15) * 4:]
        elif et == 0x86dd and len(p) >= 40:
            proto, src, dst, t = p[6], p[8:24], p[24:40], p[40:]
        else:
            continue
        if proto == 17 and len(t) >= 8:
            sp, dp = struct.unpack(">HH", t[:4])
            yield proto, (src, sp), (dst, dp), t[8:]
        elif proto == 6 and len(t) >= 20:
            sp, dp = struct.unpack(">HH", t[:4])
            yield proto, (src, sp), (dst, dp), t[(t[12] >> 4) * 4:]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for path in sys.argv[2:]:
        flows = {}
        try:
            for proto, a, b, payload in packets(path):
                kind = KINDS.get((proto, b[1]), KINDS.get((proto, a[1])))
                if kind is None or not payload:
                    continue
                key = (proto,) + tuple(sorted([a, b]))
                f = flows.setdefault(key, [kind, a, bytearray([kind])])
                d = 0 if a == f[1] else 0x80
                for k in range(0, len(payload), 64):
                    piece = payload[k:k + 64]
                    f[2].append(d | (len(piece) - 1))
                    f[2] += piece
        except (OSError, struct.error):
            continue
        for kind, _, blob in flows.values():
            blob = bytes(blob[:16384])
            name = "seed-" + hashlib.sha1(blob).hexdigest()[:16]
            with open(os.path.join(out, name), "wb") as fh:
                fh.write(blob)


if __name__ == "__main__":
    main()
