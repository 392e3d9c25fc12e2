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

Each address moves on its own, the same way in every packet of the copy,
so a host stays one host (rules that track by_src or by_dst see as many
hosts as in bench-1x), and only in its last 16 bits, so it stays inside
its /16 (IPv4) or /96 (IPv6): HOME_NET and EXTERNAL_NET classify it as
before. Addresses that rules name as such stay: multicast, broadcast,
unspecified (ET has "[!224.0.0.1,$EXTERNAL_NET]").
  - IPv4: the last 16 bits + k; the IPv4 header checksum and, in a first
    or only fragment, the TCP or UDP checksum are updated incrementally
    (RFC 1624) for the change, so a checksum that was valid stays valid
    and one that was wrong stays wrong by as much (a UDP checksum of 0,
    none, stays 0). The engine's checksum validation judges each copy as
    it judges bench-1x.
  - IPv6: word 6 + k and word 7 - k, in one's complement: the address's
    word sum, all the TCP/UDP/ICMPv6 pseudo-header takes from it, stays,
    so no checksum changes, through extension headers too.
What can differ from bench-1x x N: rules on single unicast hosts (IP
reputation lists). Non-IP frames and the inner headers of tunnels are
copied unchanged: the 2 h gap keeps their flows apart.

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


def fixed(addr):
    """Multicast, broadcast, unspecified: rules name these, they stay."""
    if len(addr) == 4:
        return 224 <= addr[0] <= 239 or addr in (b'\xff\xff\xff\xff', b'\0\0\0\0')
    return addr[0] == 0xFF or addr == bytes(16)


def fix_sum(b, pos, changes):
    """RFC 1624 eqn. 3: the checksum at pos after 16-bit words old -> new."""
    s = ~struct.unpack_from('>H', b, pos)[0] & 0xFFFF
    for old, new in changes:
        s = ones_add(ones_add(s, ~old & 0xFFFF), new)
    return ~s & 0xFFFF


def move_v4(b, ip, k):
    if b[ip] >> 4 != 4:
        return
    ihl = (b[ip] & 15) * 4
    changes = []
    for a in (ip + 12, ip + 16):
        if fixed(bytes(b[a:a + 4])):
            continue
        old = struct.unpack_from('>H', b, a + 2)[0]
        new = (old + k) & 0xFFFF
        struct.pack_into('>H', b, a + 2, new)
        changes.append((old, new))
    if not changes:
        return
    struct.pack_into('>H', b, ip + 10, fix_sum(b, ip + 10, changes))
    proto, frag = b[ip + 9], struct.unpack_from('>H', b, ip + 6)[0] & 0x1FFF
    pos = ip + ihl + {6: 16, 17: 6}.get(proto, -1)
    if frag or pos < ip + ihl or len(b) < pos + 2:
        return   # a later fragment, no TCP/UDP, or not captured
    cs = struct.unpack_from('>H', b, pos)[0]
    if proto == 17 and cs == 0:
        return   # UDP without a checksum
    cs = fix_sum(b, pos, changes)
    struct.pack_into('>H', b, pos, 0xFFFF if proto == 17 and cs == 0 else cs)


def move_v6(b, ip, k):
    for a in (ip + 8, ip + 24):
        if fixed(bytes(b[a:a + 16])):
            continue
        w6, w7 = struct.unpack_from('>HH', b, a + 12)
        struct.pack_into('>HH', b, a + 12, ones_add(w6, k), ones_add(w7, ~k & 0xFFFF))


def moved(frame, k):
    """frame with its IP addresses moved for copy k (1..65534), or frame."""
    off, et = 12, None
    while off + 2 <= len(frame):
        et = struct.unpack_from('>H', frame, off)[0]
        if et in (0x8100, 0x88A8, 0x9100):   # VLAN tags: skip
            off += 4
            continue
        off += 2
        break
    if et == 0x0800 and len(frame) >= off + 20:
        b = bytearray(frame)
        move_v4(b, off, k)
    elif et == 0x86DD and len(frame) >= off + 40:
        b = bytearray(frame)
        move_v6(b, off, k)
    else:
        return frame
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
