#!/usr/bin/python3
"""Writes fuzz_dcerpc seeds from captures: the payloads of each TCP or UDP
flow whose first payload is a DCE/RPC header (version 5 on TCP, 4 on UDP),
in the harness's chunk format (qa/fuzz/fuzz_dcerpc.c), once through the app
layer and once to the PDU library directly.
Usage: dcerpc-seeds.py OUTDIR PCAP..."""
import hashlib, os, struct, sys


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
        return
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
        elif link in (101, 12):
            p, et = frame, 0x0800
        else:
            continue
        if et != 0x0800 or len(p) < 20 or p[0] >> 4 != 4:
            continue
        ihl, proto = (p[0] & 15) * 4, p[9]
        src, dst, t = p[12:16], p[16:20], p[ihl:]
        if proto == 6 and len(t) >= 20:
            sp, dp = struct.unpack(">HH", t[:4])
            yield 6, (src, sp), (dst, dp), t[13], t[(t[12] >> 4) * 4:]
        elif proto == 17 and len(t) >= 8:
            sp, dp = struct.unpack(">HH", t[:4])
            yield 17, (src, sp), (dst, dp), 0, t[8:]


def chunks(udp, segs, mode, limit=16384):
    blob = bytearray([udp | mode])
    for d, seg in segs:
        step = len(seg) if udp else 48
        for k in range(0, len(seg), max(step, 1)):
            piece = seg[k:k + step]
            if len(piece) <= 0x3e:
                blob.append((0x80 if d else 0) | (len(piece) - 1))
            else:
                blob.append((0x80 if d else 0) | 0x3f)
                blob += struct.pack(">H", len(piece) - 1)
            blob += piece
            if len(blob) > limit:
                return bytes(blob)
    blob.append(0xff)
    return bytes(blob)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for path in sys.argv[2:]:
        flows = {}
        try:
            for proto, a, b, flags, payload in packets(path):
                key = (proto,) + tuple(sorted([a, b]))
                if key not in flows:
                    client = a if proto == 17 or (flags & 0x12) != 0x12 else b
                    flows[key] = [client, []]
                if payload:
                    flows[key][1].append((0 if a == flows[key][0] else 1, payload))
        except (OSError, struct.error):
            continue
        for key, (client, segs) in flows.items():
            if not segs:
                continue
            first = segs[0][1]
            udp = 1 if key[0] == 17 else 0
            if first[:1] != (b"\x04" if udp else b"\x05"):
                continue
            for mode in (0, 2):
                blob = chunks(udp, segs, mode)
                name = "seed-" + hashlib.sha1(blob).hexdigest()[:16]
                with open(os.path.join(out, name), "wb") as f:
                    f.write(blob)


if __name__ == "__main__":
    main()
