#!/usr/bin/env python3
"""Write the non-empty TCP/UDP payloads of a pcap into a compact file.

So the device run needs no pcap parsing.  Format (little endian):
  "ACPL" u32 magic, u32 count, u32 len[count], then the payload bytes
  back to back in the same order.
Ethernet (with 802.1Q/QinQ tags), raw IPv4/IPv6 (linktype 101) and Linux
SLL are decoded; IPv4 non-first fragments and packets cut by snaplen are
skipped (their L4 header is not there or the payload is incomplete).

usage: extract-payloads.py IN.pcap OUT.bin
"""
import struct
import sys

IPPROTO_TCP, IPPROTO_UDP = 6, 17
IPV6_EXT = (0, 43, 60)   # hop-by-hop, routing, dest options: skip over them


def l4_payload(proto, seg):
    if proto == IPPROTO_TCP and len(seg) >= 20:
        off = (seg[12] >> 4) * 4
        return seg[off:] if off >= 20 else b''
    if proto == IPPROTO_UDP and len(seg) >= 8:
        return seg[8:]
    return b''


def ip_payload(pkt):
    if not pkt:
        return b''
    ver = pkt[0] >> 4
    if ver == 4 and len(pkt) >= 20:
        ihl = (pkt[0] & 0xf) * 4
        tot = struct.unpack('!H', pkt[2:4])[0]
        frag = struct.unpack('!H', pkt[6:8])[0]
        if ihl < 20 or frag & 0x1fff or tot > len(pkt) or tot < ihl:
            return b''
        return l4_payload(pkt[9], pkt[ihl:tot])
    if ver == 6 and len(pkt) >= 40:
        plen = struct.unpack('!H', pkt[4:6])[0]
        if 40 + plen > len(pkt):
            return b''
        nh, seg = pkt[6], pkt[40:40 + plen]
        while nh in IPV6_EXT and len(seg) >= 8:
            nh, seg = seg[0], seg[(seg[1] + 1) * 8:]
        return l4_payload(nh, seg)
    return b''


def eth_payload(frame):
    off, etype = 14, struct.unpack('!H', frame[12:14])[0] if len(frame) >= 14 else 0
    while etype in (0x8100, 0x88a8) and len(frame) >= off + 4:
        etype = struct.unpack('!H', frame[off + 2:off + 4])[0]
        off += 4
    if etype in (0x0800, 0x86dd):
        return ip_payload(frame[off:])
    return b''


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = open(sys.argv[1], 'rb').read()
    magic = data[:4]
    if magic in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1'):
        end = '<'
    elif magic in (b'\xa1\xb2\xc3\xd4', b'\xa1\xb2\x3c\x4d'):
        end = '>'
    else:
        sys.exit('not a classic pcap file (pcapng is not handled)')
    linktype = struct.unpack(end + 'I', data[20:24])[0]
    pos, lens, chunks, pkts = 24, [], [], 0
    while pos + 16 <= len(data):
        _, _, incl, orig = struct.unpack(end + 'IIII', data[pos:pos + 16])
        frame = data[pos + 16:pos + 16 + incl]
        pos += 16 + incl
        pkts += 1
        if incl != orig:
            continue
        if linktype == 1:
            pl = eth_payload(frame)
        elif linktype in (101, 228, 229):
            pl = ip_payload(frame)
        elif linktype == 113 and len(frame) >= 16:
            pl = ip_payload(frame[16:])
        else:
            pl = b''
        if pl:
            lens.append(len(pl))
            chunks.append(pl)
    with open(sys.argv[2], 'wb') as out:
        out.write(b'ACPL' + struct.pack('<I', len(lens)))
        out.write(struct.pack('<%dI' % len(lens), *lens))
        for c in chunks:
            out.write(c)
    print('packets %d, payloads %d, payload bytes %d, longest %d' %
          (pkts, len(lens), sum(lens), max(lens) if lens else 0))


if __name__ == '__main__':
    main()
