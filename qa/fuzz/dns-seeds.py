#!/usr/bin/python3
"""Seeds for fuzz_dns from DNS payloads in pcaps (suricata-verify's, say).

usage: dns-seeds.py OUTDIR PCAP...
Writes one file per UDP or TCP payload and selector byte (fuzz_dns.c reads
byte 0 as direction, transaction model, eve options and TCP segment size).
Classic pcap only (Ethernet, raw IP, Linux cooked, BSD loopback)."""
import hashlib
import os
import struct
import sys


def packets(path):
    with open(path, 'rb') as f:
        d = f.read()
    magic = struct.unpack('<I', d[:4])[0]
    if magic in (0xa1b2c3d4, 0xa1b23c4d):
        e = '<'
    elif magic in (0xd4c3b2a1, 0x4d3cb2a1):
        e = '>'
    else:
        return
    linktype = struct.unpack(e + 'I', d[20:24])[0]
    off = 24
    while off + 16 <= len(d):
        incl = struct.unpack(e + 'I', d[off + 8:off + 12])[0]
        yield linktype, d[off + 16:off + 16 + incl]
        off += 16 + incl


def payload(linktype, pkt):
    """(source port, payload) of a UDP or TCP packet, or None."""
    if linktype == 1:
        et, p = struct.unpack('>H', pkt[12:14])[0], pkt[14:]
        while et == 0x8100:
            et, p = struct.unpack('>H', p[2:4])[0], p[4:]
    elif linktype == 113:
        et, p = struct.unpack('>H', pkt[14:16])[0], pkt[16:]
    elif linktype in (0, 101):
        p = pkt[4:] if linktype == 0 else pkt
        et = 0x800 if p and p[0] >> 4 == 4 else 0x86dd
    else:
        return None
    try:
        if et == 0x800:
            ihl, proto = (p[0] & 15) * 4, p[9]
            q = p[ihl:struct.unpack('>H', p[2:4])[0]]
        elif et == 0x86dd:
            proto, q = p[6], p[40:40 + struct.unpack('>H', p[4:6])[0]]
        else:
            return None
        if proto == 17:
            return struct.unpack('>H', q[:2])[0], q[8:]
        if proto == 6:
            return struct.unpack('>H', q[:2])[0], q[(q[12] >> 4) * 4:]
    except (IndexError, struct.error):
        return None
    return None


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    os.makedirs(argv[1], exist_ok=True)
    n = 0
    for path in argv[2:]:
        for linktype, pkt in packets(path):
            r = payload(linktype, pkt)
            if not r or not r[1]:
                continue
            toclient = 1 if r[0] in (53, 5353) else 0
            for sel in (toclient, toclient | 2, toclient | 0x14, toclient | 0x3c):
                b = bytes([sel]) + r[1]
                name = hashlib.sha1(b).hexdigest()
                with open(os.path.join(argv[1], name), 'wb') as f:
                    f.write(b)
                n += 1
    print(n, 'seeds')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
