#!/usr/bin/env python3
"""N copies of an Ethernet pcap, each copy's flows new to the engine.

    qa/gpu/replicate-pcap.py IN.pcap OUT.pcap N [GAP_S]

The device has no mergecap, so the check makes bench-10x there from the
carried bench-1x. Copy k (0-based) is bench-1x with
  - every timestamp k * 7200 s later: make-bench-pcap.sh's bench-Nx does
    the same (flows of copy k time out before copy k+1 starts), so packet
    count, bytes, sizes and timing equal that file's;
  - copy 0 left as it is; in copies 1..N-1 the IPv4 and IPv6 addresses of
    every packet moved, so that no flow of one copy shares its 5-tuple
    with a flow of another, even in an engine that has not expired it.

The move keeps every checksum as it was, valid or not, without parsing
TCP, UDP or ICMP and through fragments and extension headers: of the two
addresses of a packet, the lower (as bytes) gets k added to its last 16
bits and the higher gets k subtracted, in one's complement. The sum of
the address words, the only part of the IPv4 header and of the TCP/UDP/
ICMPv6 pseudo-header that changes, stays the same, so the engine's
checksum validation (stream.checksum-validation: yes) judges each copy as
it judges bench-1x. Both directions of a flow move alike (the lower
address is the lower either way). Only the last 16 bits change, so an
address stays inside its /16 (IPv4) or /112 (IPv6): HOME_NET and
EXTERNAL_NET classify it as before. What can differ from bench-1x x N:
rules on single hosts (IP reputation lists), and one host seen in two
flows may get two addresses. Packets with equal addresses, non-IP frames
and the inner headers of tunnels are copied unchanged.

A GAP_S shorter than a flow timeout keeps copy k's flows alive when copy
k+1 starts: the self-test (check-test.sh) uses that to show the moved
addresses, not the gap, keep the copies apart.

Python 3 standard library only. Prints packets and bytes written.
"""
import struct
import sys

SHIFT = 7200  # default seconds between copies, as make-bench-pcap.sh


def ones_add(a, b):
    s = a + b
    return (s & 0xFFFF) + (s >> 16)


def moved(frame, k):
    """frame with its IP addresses moved for copy k (k >= 1), or frame."""
    off, et = 12, None
    while off + 2 <= len(frame):
        et = struct.unpack_from('>H', frame, off)[0]
        if et in (0x8100, 0x88A8, 0x9100):   # VLAN tags: skip
            off += 4
            continue
        off += 2
        break
    if et == 0x0800 and len(frame) >= off + 20:
        a, n = off + 12, 4
    elif et == 0x86DD and len(frame) >= off + 40:
        a, n = off + 8, 16
    else:
        return frame
    src, dst = frame[a:a + n], frame[a + n:a + 2 * n]
    if src == dst:
        return frame
    lo_first = src < dst
    b = bytearray(frame)
    d = k & 0xFFFF
    for pos, up in ((a, lo_first), (a + n, not lo_first)):
        w = pos + n - 2
        v = struct.unpack_from('>H', b, w)[0]
        # one's complement: + d, or + ~d (which is - d)
        struct.pack_into('>H', b, w, ones_add(v, d if up else (~d & 0xFFFF)))
    return bytes(b)


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__.strip().splitlines()[2].strip())
    src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    gap = int(sys.argv[4]) if len(sys.argv) == 5 else SHIFT
    if not 1 <= n <= 4096:
        sys.exit("replicate-pcap: N must be 1..4096")
    data = open(src, 'rb').read()
    magic = struct.unpack('<I', data[:4])[0] if len(data) >= 24 else 0
    if magic in (0xA1B2C3D4, 0xA1B23C4D):
        e = '<'
    elif magic in (0xD4C3B2A1, 0x4D3CB2A1):
        e = '>'
    else:
        sys.exit("replicate-pcap: %s: not a classic pcap" % src)
    if struct.unpack(e + 'I', data[20:24])[0] & 0xFFFF != 1:
        sys.exit("replicate-pcap: %s: not Ethernet (link type 1)" % src)
    recs, off = [], 24
    while off + 16 <= len(data):
        ts, frac, cl, ol = struct.unpack_from(e + 'IIII', data, off)
        recs.append((ts, frac, cl, ol, data[off + 16:off + 16 + cl]))
        off += 16 + cl
    hdr = struct.Struct(e + 'IIII')
    total = 0
    with open(dst, 'wb') as o:
        o.write(data[:24])
        for k in range(n):
            for ts, frac, cl, ol, frame in recs:
                o.write(hdr.pack(ts + k * gap, frac, cl, ol))
                o.write(moved(frame, k) if k else frame)
                total += 16 + cl
    print("replicate-pcap: %d copies of %d packets: %d packets, %d bytes" %
          (n, len(recs), n * len(recs), 24 + total))


if __name__ == '__main__':
    main()
