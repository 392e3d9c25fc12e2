#!/usr/bin/python3
"""Writes fuzz_quic seeds from captures: the UDP datagrams to and from port
443 of each capture, in the harness's format (qa/fuzz/fuzz_quic.c): per
datagram a control byte (bit 7: to the client), a 2-byte big-endian length
and the bytes; and one seed of a ClientHello in a CRYPTO frame, cut in two
out of order, for the harness to protect (control bit 6).
Usage: quic-seeds.py OUTDIR PCAP..."""
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
        return                      # pcapng: left out
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
        elif link == 113 and len(frame) >= 16:
            et, p = struct.unpack(">H", frame[14:16])[0], frame[16:]
        elif link == 0 and len(frame) >= 4:
            p = frame[4:]
            et = 0x0800 if p and p[0] >> 4 == 4 else 0x86dd
        elif link in (101, 12) and frame:
            p = frame
            et = 0x0800 if p[0] >> 4 == 4 else 0x86dd
        else:
            continue
        if et == 0x0800 and len(p) >= 20:
            proto, t = p[9], p[(p[0] & 15) * 4:]
        elif et == 0x86dd and len(p) >= 40:
            proto, t = p[6], p[40:]
        else:
            continue
        if proto != 17 or len(t) < 8:
            continue
        sp, dp = struct.unpack(">HH", t[:4])
        if 443 not in (sp, dp):
            continue
        yield (1 if sp == 443 else 0), t[8:]


def chunk(ctl, b):
    b = b[:0xffff]
    return bytes([ctl]) + struct.pack(">H", len(b)) + b


def client_hello():
    sni = b"example.org"
    ext = struct.pack(">HHHBH", 0, len(sni) + 5, len(sni) + 3, 0, len(sni)) + sni
    ext += struct.pack(">HHHB", 16, 5, 3, 2) + b"h3"
    ext += struct.pack(">HHBH", 43, 3, 2, 0x0304)
    ext += struct.pack(">HHH", 10, 4, 2) + b"\x00\x1d"
    body = b"\x03\x03" + b"\x11" * 32 + b"\x00" + struct.pack(">HHH", 4, 0x0a0a, 0x1301)
    body += b"\x01\x00" + struct.pack(">H", len(ext)) + ext
    return b"\x01" + struct.pack(">I", len(body))[1:] + body


def crypto(off, data):
    return b"\x06" + struct.pack(">HH", 0x4000 | off, 0x4000 | len(data)) + data + b"\x00" * 24


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    seeds = []
    ch = client_hello()
    seeds.append(chunk(0x41, crypto(20, ch[20:])) + chunk(0x42, crypto(0, ch[:20])))
    for path in sys.argv[2:]:
        s = b"".join(chunk(0x80 if d else 0, b) for d, b in packets(path))
        if s:
            seeds.append(s[:16384])
    for s in seeds:
        with open(os.path.join(out, hashlib.sha1(s).hexdigest()), "wb") as f:
            f.write(s)
    print(len(seeds), "seeds")


main()
