#!/usr/bin/env python3
"""N copies of an Ethernet pcap whose flows stay apart in any engine.

    qa/bench/vlan-copies.py IN.pcap OUT.pcap N

make-bench-pcap.sh's bench-Nx repeats the capture N times, each copy two
hours after the last, so that an engine that expires flows by packet time
sees N sets of new flows. An engine whose flow manager runs on wall-clock
ticks (the reference, Suricata 4.1, offline: the whole run lasts seconds)
instead finds copy 2's packets in copy 1's flows, as retransmissions: on
bench-10x it logged 30,531 flows of 76,460 and 2,683 alerts of 3,610, so
its packet rate there was a rate for less work. Here copy k (0-based) also
carries an outer 802.1Q tag with VLAN id k + 1: its flows are new flows in
every engine that tracks flows by VLAN (both do, by default), the rules see
the same packets, and each copy costs what the first did.
"""
import struct
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    data = open(src, 'rb').read()
    magic = data[:4]
    if magic == b'\xd4\xc3\xb2\xa1':
        e = '<'
    elif magic == b'\xa1\xb2\xc3\xd4':
        e = '>'
    else:
        sys.exit('vlan-copies: %s: not a microsecond pcap' % src)
    linktype = struct.unpack(e + 'I', data[20:24])[0]
    if linktype != 1:
        sys.exit('vlan-copies: %s: link type %d, need Ethernet (1)' % (src, linktype))
    recs, off = [], 24
    while off + 16 <= len(data):
        sec, usec, caplen, origlen = struct.unpack(e + 'IIII', data[off:off + 16])
        recs.append((sec, usec, origlen, data[off + 16:off + 16 + caplen]))
        off += 16 + caplen
    with open(dst, 'wb') as o:
        o.write(data[:24])
        for k in range(n):
            tag = struct.pack('>HH', 0x8100, k + 1)
            for sec, usec, origlen, frame in recs:
                if len(frame) >= 14:
                    frame = frame[:12] + tag + frame[12:]
                    origlen += 4
                o.write(struct.pack(e + 'IIII', sec + k * 7200, usec, len(frame), origlen))
                o.write(frame)
    print('%s: %d copies of %d packets' % (dst, n, len(recs)))


if __name__ == '__main__':
    main()
