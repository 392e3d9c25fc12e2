#!/usr/bin/python3
"""Writes fuzz_udp seeds from captures: the datagrams of each DHCP (ports 67,
68), TFTP (69) and NTP (123) flow in the harness's format
(qa/fuzz/fuzz_udp.c): a byte naming the flow kind, then per datagram a
control byte (0x80: to client), a 16-bit big-endian length and its bytes.
Reads pcap and pcapng (enhanced packet blocks, Ethernet or raw IP).
Usage: udp-seeds.py OUTDIR PCAP..."""
import hashlib, os, struct, sys

# (source port, destination port) of the first datagram -> kind
def kind_of(sp, dp):
    if dp == 67:
        return 0
    if dp == 68 or sp == 67:
        return 1
    if dp == 69:
        return 2
    if dp == 123 or sp == 123:
        return 3
    return None


def frames(d):
    if d[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\xc3\xd4",
                 b"\xa1\xb2\x3c\x4d"):
        e = "<" if d[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
        link = struct.unpack(e + "I", d[20:24])[0]
        off = 24
        while off + 16 <= len(d):
            incl = struct.unpack(e + "I", d[off + 8:off + 12])[0]
            yield link, d[off + 16:off + 16 + incl]
            off += 16 + incl
    elif d[:4] == b"\x0a\x0d\x0d\x0a":
        e = "<" if d[8:12] == b"\x4d\x3c\x2b\x1a" else ">"
        links, off = [], 0
        while off + 12 <= len(d):
            btype, blen = struct.unpack(e + "II", d[off:off + 8])
            if blen < 12:
                return
            body = d[off + 8:off + blen - 4]
            if btype == 1:
                links.append(struct.unpack(e + "H", body[:2])[0])
            elif btype == 6 and len(body) >= 20:
                iface, _, _, cap = struct.unpack(e + "IIII", body[:16])
                yield (links[iface] if iface < len(links) else 1), body[20:20 + cap]
            off += blen


def packets(path):
    for link, frame in frames(open(path, "rb").read()):
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
            yield (src, sp), (dst, dp), t[8:]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for path in sys.argv[2:]:
        flows = {}
        try:
            for a, b, payload in packets(path):
                key = tuple(sorted([a, b]))
                if key not in flows:
                    kind = kind_of(a[1], b[1])
                    if kind is None:
                        continue
                    flows[key] = [a, bytearray([kind]), 0]
                f = flows[key]
                if f[2] >= 64:
                    continue
                f[2] += 1
                f[1].append(0 if a == f[0] else 0x80)
                f[1] += struct.pack(">H", len(payload)) + payload
        except (OSError, struct.error, IndexError):
            continue
        for _, blob, _ in flows.values():
            blob = bytes(blob[:16384])
            name = "seed-" + hashlib.sha1(blob).hexdigest()[:16]
            with open(os.path.join(out, name), "wb") as fh:
                fh.write(blob)


if __name__ == "__main__":
    main()
