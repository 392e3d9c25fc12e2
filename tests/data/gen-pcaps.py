#!/usr/bin/python3
"""Writes the small, deterministic test captures in tests/data/pcaps/.

Run with the system python (it has scapy):  /usr/bin/python3 tests/data/gen-pcaps.py
Every capture has fixed timestamps, addresses and ids, so running it again
rewrites byte-identical files (the e2e expectations in tests/e2e/ depend on it).
With --manifest it also prints, per capture, the packet count, the byte count
and the per-direction flow numbers the e2e expect files were derived from.

Packets are built with scapy but written by our own pcap/pcapng writer, so the
link type, byte order and record layout are exactly what each case needs.
"""
import base64
import os
import struct
import sys

from scapy.all import (DNS, DNSQR, DNSRR, ARP, GRE, ICMP, IP, IPv6, IPv6ExtHdrFragment, TCP, UDP,
                       Dot1Q, Ether, Raw, SCTP, SCTPChunkData, SCTPChunkInit, SCTPChunkInitAck,
                       conf)

conf.verb = 0

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, 'pcaps')

T0 = 1700000000            # 2023-11-14 22:13:20 UTC: every capture starts here
CMAC = '00:00:5e:00:53:01'  # RFC 7042 documentation MACs
SMAC = '00:00:5e:00:53:02'
C4, S4 = '10.0.0.1', '10.0.0.2'
C6, S6 = '2001:db8::1', '2001:db8::2'

DLT_NULL, DLT_EN10MB, DLT_RAW, DLT_LINUX_SLL, DLT_LINUX_SLL2 = 0, 1, 101, 113, 276

manifest = []


class Pkt:
    """One record: frame bytes, timestamp (float seconds), direction tag."""
    def __init__(self, data, ts, to_server=None, orig_len=None):
        self.data = bytes(data)
        self.ts = ts
        self.to_server = to_server
        self.orig_len = orig_len if orig_len is not None else len(self.data)


def ts_split(ts):
    sec = int(ts)
    usec = int(round((ts - sec) * 1e6))
    return sec, usec


def pcap_bytes(pkts, linktype, snaplen=65535):
    out = [struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, snaplen, linktype)]
    for p in pkts:
        sec, usec = ts_split(p.ts)
        out.append(struct.pack('<IIII', sec, usec, len(p.data), p.orig_len))
        out.append(p.data)
    return b''.join(out)


def pcapng_block(btype, body):
    pad = (-len(body)) % 4
    total = 12 + len(body) + pad
    return struct.pack('<II', btype, total) + body + b'\0' * pad + struct.pack('<I', total)


def pcapng_bytes(pkts, linktype):
    # SHB: byte-order magic, version 1.0, section length unknown (-1)
    shb = pcapng_block(0x0A0D0D0A, struct.pack('<IHHq', 0x1A2B3C4D, 1, 0, -1))
    # IDB: default timestamp resolution is microseconds (no if_tsresol option)
    idb = pcapng_block(0x00000001, struct.pack('<HHI', linktype, 0, 65535))
    blocks = [shb, idb]
    for p in pkts:
        sec, usec = ts_split(p.ts)
        t = sec * 1000000 + usec
        body = struct.pack('<IIIII', 0, t >> 32, t & 0xffffffff, len(p.data), p.orig_len)
        body += p.data + b'\0' * ((-len(p.data)) % 4)
        blocks.append(pcapng_block(0x00000006, body))
    return b''.join(blocks)


def write(name, pkts, linktype=DLT_EN10MB, fmt='pcap', note='', snaplen=65535):
    path = os.path.join(OUT, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = pcap_bytes(pkts, linktype, snaplen) if fmt == 'pcap' else pcapng_bytes(pkts, linktype)
    with open(path, 'wb') as f:
        f.write(data)
    ts_pkts = [p for p in pkts if p.to_server is True]
    tc_pkts = [p for p in pkts if p.to_server is False]
    manifest.append('%-28s pkts=%-4d bytes=%-6d ts=%d/%dB tc=%d/%dB %s' % (
        name, len(pkts), sum(len(p.data) for p in pkts),
        len(ts_pkts), sum(len(p.data) for p in ts_pkts),
        len(tc_pkts), sum(len(p.data) for p in tc_pkts), note))
    return data


def eth(l3, src=CMAC, dst=SMAC):
    return Ether(src=src, dst=dst) / l3


def seq_ts(base, frames, step=0.001):
    """frames: list of (frame, to_server) -> Pkts spaced step seconds apart."""
    return [Pkt(f, base + i * step, d) for i, (f, d) in enumerate(frames)]


# --- sessions -------------------------------------------------------------------

def tcp_session(ipc, ips, sport=40000, dport=5555, l2=eth):
    """3WHS, data both ways, FIN/ACK close: 9 packets, 6 toserver, 3 toclient."""
    cs, ss = 1000, 5000
    q = b'hello server\n'
    r = b'hello client, nice to meet you\n'
    A = lambda fl, seq, ack, data=b'': ipc / TCP(sport=sport, dport=dport, flags=fl, seq=seq, ack=ack, window=8192) / (Raw(data) if data else b'')
    B = lambda fl, seq, ack, data=b'': ips / TCP(sport=dport, dport=sport, flags=fl, seq=seq, ack=ack, window=8192) / (Raw(data) if data else b'')
    frames = [
        (A('S', cs, 0), True),
        (B('SA', ss, cs + 1), False),
        (A('A', cs + 1, ss + 1), True),
        (A('PA', cs + 1, ss + 1, q), True),
        (B('PA', ss + 1, cs + 1 + len(q), r), False),
        (A('A', cs + 1 + len(q), ss + 1 + len(r)), True),
        (A('FA', cs + 1 + len(q), ss + 1 + len(r)), True),
        (B('FA', ss + 1 + len(r), cs + 2 + len(q)), False),
        (A('A', cs + 2 + len(q), ss + 2 + len(r)), True),
    ]
    return [(l2(f), d) for f, d in frames]


def udp_pair(ipc, ips, sport=40000, dport=7777, l2=eth):
    """request/response: 2 packets, one each way."""
    return [(l2(ipc / UDP(sport=sport, dport=dport) / Raw(b'ping')), True),
            (l2(ips / UDP(sport=dport, dport=sport) / Raw(b'pong pong')), False)]


def v4c():
    return IP(src=C4, dst=S4, id=1, ttl=64)


def v4s():
    return IP(src=S4, dst=C4, id=2, ttl=64)


def v6c():
    return IPv6(src=C6, dst=S6, hlim=64)


def v6s():
    return IPv6(src=S6, dst=C6, hlim=64)


def l2_none(f):
    return f


# --- cases ----------------------------------------------------------------------

def gen_basic():
    write('ipv4-tcp.pcap', seq_ts(T0, tcp_session(v4c(), v4s())),
          note='3WHS, data both ways, FIN/ACK close')
    write('ipv4-udp.pcap', seq_ts(T0, udp_pair(v4c(), v4s())))
    icmp = [(eth(v4c() / ICMP(type=8, id=0x1234, seq=1) / Raw(b'abcdefgh')), True),
            (eth(v4s() / ICMP(type=0, id=0x1234, seq=1) / Raw(b'abcdefgh')), False)]
    write('ipv4-icmp.pcap', seq_ts(T0, icmp), note='echo request/reply')
    write('ipv6-tcp.pcap', seq_ts(T0, tcp_session(v6c(), v6s())))
    write('ipv6-udp.pcap', seq_ts(T0, udp_pair(v6c(), v6s())))


def gen_l2():
    vl = lambda f: Ether(src=CMAC, dst=SMAC) / Dot1Q(vlan=100) / f
    write('vlan.pcap', seq_ts(T0, udp_pair(v4c(), v4s(), l2=vl)), note='802.1Q vlan 100')

    def qinq(f):
        return Ether(src=CMAC, dst=SMAC, type=0x88a8) / Dot1Q(vlan=10, type=0x8100) / Dot1Q(vlan=20) / f
    write('qinq.pcap', seq_ts(T0, udp_pair(v4c(), v4s(), l2=qinq)), note='802.1ad 10 + 802.1Q 20')

    # Linux cooked v1: packet type, ARPHRD_ETHER, addr len 6, addr(8), protocol
    def sll(f, to_server):
        ptype = 4 if to_server else 0  # outgoing from the client host / to us
        mac = bytes.fromhex((CMAC if to_server else SMAC).replace(':', '')) + b'\0\0'
        return struct.pack('>HHH', ptype, 1, 6) + mac + struct.pack('>H', 0x0800) + bytes(f)
    fr = udp_pair(v4c(), v4s(), l2=l2_none)
    write('sll.pcap', seq_ts(T0, [(sll(f, d), d) for f, d in fr]), DLT_LINUX_SLL)

    # Linux cooked v2: protocol, reserved, ifindex, ARPHRD, ptype, addr len, addr(8)
    def sll2(f, to_server):
        mac = bytes.fromhex((CMAC if to_server else SMAC).replace(':', '')) + b'\0\0'
        return struct.pack('>HHIHBB', 0x0800, 0, 2, 1, 4 if to_server else 0, 6) + mac + bytes(f)
    write('sll2.pcap', seq_ts(T0, [(sll2(f, d), d) for f, d in fr]), DLT_LINUX_SLL2)

    # BSD loopback: the AF is a 32-bit word in the capturing host's byte order
    # (little-endian here); IPv6 uses 30, the value macOS writes.
    null4 = [(struct.pack('<I', 2) + bytes(f), d) for f, d in fr]
    fr6 = udp_pair(v6c(), v6s(), sport=40001, l2=l2_none)
    null6 = [(struct.pack('<I', 30) + bytes(f), d) for f, d in fr6]
    write('null.pcap', seq_ts(T0, null4 + null6), DLT_NULL, note='2 ipv4 AF 2 + 2 ipv6 AF 30, LE')

    raw = [(bytes(f), d) for f, d in fr] + [(bytes(f), d) for f, d in fr6]
    write('raw.pcap', seq_ts(T0, raw), DLT_RAW, note='2 ipv4 + 2 ipv6, linktype 101')

    # PPPoE session (0x8864), PPP protocol 0x0021 = IPv4
    def pppoe(f):
        ip = bytes(f)
        hdr = struct.pack('>BBHH', 0x11, 0x00, 0x0042, len(ip) + 2) + struct.pack('>H', 0x0021)
        return bytes(Ether(src=CMAC, dst=SMAC, type=0x8864)) + hdr + ip
    write('pppoe.pcap', seq_ts(T0, [(pppoe(f), d) for f, d in fr]), note='session 0x42')

    # MPLS (0x8847): one label 1000, bottom of stack, then IPv4
    def mpls(f):
        lbl = (1000 << 12) | (1 << 8) | 64
        return bytes(Ether(src=CMAC, dst=SMAC, type=0x8847)) + struct.pack('>I', lbl) + bytes(f)
    write('mpls.pcap', seq_ts(T0, [(mpls(f), d) for f, d in fr]), note='label 1000')

    arp = [(Ether(src=CMAC, dst='ff:ff:ff:ff:ff:ff') / ARP(op=1, hwsrc=CMAC, psrc=C4, pdst=S4), True),
           (Ether(src=SMAC, dst=CMAC) / ARP(op=2, hwsrc=SMAC, psrc=S4, hwdst=CMAC, pdst=C4), False)]
    write('arp.pcap', seq_ts(T0, arp), note='request + reply')

    # Cisco HDLC (linktype 104): address 0x0f (unicast), control 0, EtherType
    write('chdlc.pcap', seq_ts(T0, [(b'\x0f\x00\x08\x00' + bytes(f), d) for f, d in fr]), 104,
          note='udp pair, EtherType 0x0800')

    # the udp pair's request on vlan 100, its answer on vlan 200 (a router
    # on a stick): one flow only with vlan.use-for-tracking: false
    def vl_asym(f, to_server):
        return Ether(src=CMAC, dst=SMAC) / Dot1Q(vlan=100 if to_server else 200) / f
    write('vlan-asym.pcap', seq_ts(T0, [(vl_asym(f, d), d) for f, d in fr]),
          note='request on vlan 100, answer on vlan 200')

    # one UDP flow whose client side used two MACs and server side two
    # (eve flow ether src_macs/dest_macs list every one); request, answer,
    # then a request through another router
    M3, M4 = '00:00:5e:00:53:03', '00:00:5e:00:53:04'
    mm = [(Ether(src=CMAC, dst=SMAC) / v4c() / UDP(sport=40000, dport=7777) / Raw(b'ping'), True),
          (Ether(src=SMAC, dst=CMAC) / v4s() / UDP(sport=7777, dport=40000) / Raw(b'pong'), False),
          (Ether(src=M3, dst=M4) / v4c() / UDP(sport=40000, dport=7777) / Raw(b'ping'), True)]
    write('multi-mac.pcap', seq_ts(T0, mm), note='client MACs :01 :03, server :02 :04')

    # SCTP (IP protocol 132): INIT, INIT ACK, then a DATA chunk "hello sctp"
    sc = [(eth(v4c() / SCTP(sport=40000, dport=2905) / SCTPChunkInit(init_tag=1)), True),
          (eth(v4s() / SCTP(sport=2905, dport=40000) / SCTPChunkInitAck(init_tag=2), src=SMAC, dst=CMAC), False),
          (eth(v4c() / SCTP(sport=40000, dport=2905) / SCTPChunkData(data=b'hello sctp')), True)]
    write('sctp.pcap', seq_ts(T0, sc), note='INIT, INIT ACK, DATA')


def gen_tunnels():
    # GRE v0 (no options) carrying IPv4/TCP: a 3-way handshake
    oc = IP(src='192.0.2.1', dst='192.0.2.2', id=7, proto=47)
    os_ = IP(src='192.0.2.2', dst='192.0.2.1', id=8, proto=47)
    hs = tcp_session(v4c(), v4s(), l2=l2_none)[:3]
    gre = [(eth((oc if d else os_) / GRE(proto=0x0800) / f), d) for f, d in hs]
    write('gre.pcap', seq_ts(T0, gre), note='GRE v0 with inner ipv4 tcp 3WHS')

    fr = udp_pair(v4c(), v4s(), l2=l2_none)
    ipip = [(eth(IP(src='192.0.2.1' if d else '192.0.2.2', dst='192.0.2.2' if d else '192.0.2.1',
                    id=9, proto=4) / f), d) for f, d in fr]
    write('ipip.pcap', seq_ts(T0, ipip), note='ipv4 in ipv4, inner udp')

    fr6 = udp_pair(v6c(), v6s(), l2=l2_none)
    six = [(eth(IP(src='192.0.2.1' if d else '192.0.2.2', dst='192.0.2.2' if d else '192.0.2.1',
                   id=10, proto=41) / f), d) for f, d in fr6]
    write('6in4.pcap', seq_ts(T0, six), note='ipv6 in ipv4, inner udp')


def gen_frags():
    # UDP datagram of 8 + 1000 bytes cut into 3 fragments of 336 bytes, sent 3,1,2
    payload = bytes((i * 7) & 0xff for i in range(1000))
    dg = bytes(IP(src=C4, dst=S4, id=0x4242, ttl=64, proto=17) / UDP(sport=40000, dport=7777) / Raw(payload))
    ihl = 20
    body = dg[ihl:]
    frs = []
    for off in range(0, len(body), 336):
        chunk = body[off:off + 336]
        mf = off + 336 < len(body)
        frs.append(IP(src=C4, dst=S4, id=0x4242, ttl=64, proto=17,
                      flags='MF' if mf else 0, frag=off // 8) / Raw(chunk))
    order = [frs[2], frs[0], frs[1]]
    write('ipv4-frags.pcap', seq_ts(T0, [(eth(f), True) for f in order]),
          note='3 frags out of order -> udp 8+1000')

    # IPv6: UDP 8 + 600 bytes, 3 fragments of 208 bytes in order, id 0x1234
    payload6 = bytes((i * 11) & 0xff for i in range(600))
    dg6 = IPv6(src=C6, dst=S6, hlim=64) / UDP(sport=40000, dport=7777) / Raw(payload6)
    body6 = bytes(dg6)[40:]
    frs6 = []
    for off in range(0, len(body6), 208):
        chunk = body6[off:off + 208]
        m = 1 if off + 208 < len(body6) else 0
        frs6.append(IPv6(src=C6, dst=S6, hlim=64) /
                    IPv6ExtHdrFragment(nh=17, offset=off // 8, m=m, id=0x1234) / Raw(chunk))
    write('ipv6-frags.pcap', seq_ts(T0, [(eth(f), True) for f in frs6]),
          note='3 frags in order -> udp 8+600')


def gen_bad():
    # 1: IPv4 header checksum wrong, 2: TCP checksum wrong, 3: UDP checksum wrong.
    # Three different flows: udp 40001, tcp 40002, udp 40003.
    p1 = eth(IP(src=C4, dst=S4, id=11, chksum=0xdead) / UDP(sport=40001, dport=7777) / Raw(b'badip'))
    p2 = eth(IP(src=C4, dst=S4, id=12) / TCP(sport=40002, dport=5555, flags='S', seq=1, chksum=0xbeef))
    p3 = eth(IP(src=C4, dst=S4, id=13) / UDP(sport=40003, dport=7777, chksum=0x1111) / Raw(b'badudp'))
    write('bad-checksums.pcap', seq_ts(T0, [(p1, True), (p2, True), (p3, True)]),
          note='bad ip csum (udp), bad tcp csum, bad udp csum')

    def ip_raw(ihl_words, total, proto, payload, ident):
        hdr = struct.pack('>BBHHHBBH4s4s', 0x40 | ihl_words, 0, total, ident, 0, 64, proto, 0,
                          bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2]))
        return hdr + payload
    mac = bytes(Ether(src=CMAC, dst=SMAC, type=0x0800))
    # a) IHL 4 (16 bytes): below the 20-byte minimum -> ipv4.hlen_too_small
    a = mac + ip_raw(4, 28, 17, struct.pack('>HHHH', 40000, 7777, 8, 0), 21)
    # b) TCP header cut to 10 bytes (IP total length agrees) -> tcp.pkt_too_small
    b = mac + ip_raw(5, 30, 6, struct.pack('>HHIH', 40000, 5555, 1, 0x5002), 22)
    # c) UDP length field 4 (< 8) -> udp.hlen_invalid
    c = mac + ip_raw(5, 38, 17, struct.pack('>HHHH', 40000, 7777, 4, 0) + b'0123456789', 23)
    # d) UDP length field 200, only 18 bytes present -> udp.pkt_too_small
    d = mac + ip_raw(5, 38, 17, struct.pack('>HHHH', 40000, 7777, 200, 0) + b'0123456789', 24)
    write('malformed.pcap', seq_ts(T0, [(a, True), (b, True), (c, True), (d, True)]),
          note='ihl 4, tcp 10 bytes, udp len 4, udp len 200')


def gen_files():
    fr = udp_pair(v4c(), v4s())
    write('pcapng-udp.pcapng', seq_ts(T0, fr), fmt='pcapng', note='same packets as ipv4-udp.pcap')

    # ipv4-tcp.pcap cut in the middle of the 6th record's data
    full = tcp_session(v4c(), v4s())
    pkts = seq_ts(T0, full)
    data = pcap_bytes(pkts, DLT_EN10MB)
    off = 24 + sum(16 + len(p.data) for p in pkts[:5]) + 16 + len(pkts[5].data) // 2
    with open(os.path.join(OUT, 'truncated.pcap'), 'wb') as f:
        f.write(data[:off])
    manifest.append('%-28s pkts=5 complete records (cut at byte %d inside record 6 of 9), bytes=%d'
                    % ('truncated.pcap', off, sum(len(p.data) for p in pkts[:5])))

    with open(os.path.join(OUT, 'not-a-pcap.pcap'), 'wb') as f:
        f.write(b'This is a text file, not a capture.\nNothing to see here.\n')
    manifest.append('%-28s text, not a capture' % 'not-a-pcap.pcap')


def gen_flows():
    frames = []
    for i in range(50):
        frames += udp_pair(v4c(), v4s(), sport=20000 + i, dport=53000)
    for i in range(20):
        frames += tcp_session(v4c(), v4s(), sport=30000 + i, dport=8000)[:3]
    write('multi-flow.pcap', seq_ts(T0, frames), note='50 udp flows (2 pkts) + 20 tcp 3WHS (3 pkts)')

    # the same UDP tuple twice, two hours apart: the first flow times out
    fr = udp_pair(v4c(), v4s(), sport=40000, dport=7777)
    pkts = seq_ts(T0, fr) + seq_ts(T0 + 7200, fr)
    write('flow-timeout.pcap', pkts, note='udp pair at T0 and T0+2h: two flows')

    # -r DIR: three files read in name order; one UDP flow spread over them.
    # Read in name order the client speaks first: 2 toserver, 1 toclient.
    c = eth(v4c() / UDP(sport=41000, dport=7777) / Raw(b'one'))
    s = eth(v4s() / UDP(sport=7777, dport=41000) / Raw(b'two'))
    write('dir3/a-first.pcap', [Pkt(c, T0, True)])
    write('dir3/b-second.pcap', [Pkt(s, T0 + 1, False)])
    write('dir3/c-third.pcap', [Pkt(c, T0 + 2, True)])


def http_session(ipc, ips, sport, req, resp, dport=80):
    """3WHS, one request and one response, FIN close: request/response as given."""
    cs, ss = 2000, 9000
    A = lambda fl, seq, ack, data=b'': ipc / TCP(sport=sport, dport=dport, flags=fl, seq=seq, ack=ack, window=8192) / (Raw(data) if data else b'')
    B = lambda fl, seq, ack, data=b'': ips / TCP(sport=dport, dport=sport, flags=fl, seq=seq, ack=ack, window=8192) / (Raw(data) if data else b'')
    c2, s2 = cs + 1 + len(req), ss + 1 + len(resp)
    frames = [
        (A('S', cs, 0), True), (B('SA', ss, cs + 1), False), (A('A', cs + 1, ss + 1), True),
        (A('PA', cs + 1, ss + 1, req), True), (B('A', ss + 1, c2), False),
        (B('PA', ss + 1, c2, resp), False), (A('A', c2, s2), True),
        (A('FA', c2, s2), True), (B('FA', s2, c2 + 1), False), (A('A', c2 + 1, s2 + 1), True),
    ]
    return [(eth(f), d) for f, d in frames]


def gen_sample():
    """The README's sample: a little of everything a newcomer would look at."""
    web = IP(src='192.168.1.10', dst='203.0.113.80', ttl=64)
    webr = IP(src='203.0.113.80', dst='192.168.1.10', ttl=55)
    body = b'<html><body>hello</body></html>\n'
    get = (b'GET /index.html HTTP/1.1\r\nHost: www.example.com\r\n'
           b'User-Agent: sample/1.0\r\nAccept: */*\r\n\r\n')
    ok = (b'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n'
          % len(body)) + body
    # The classic IDS test: a response that looks like `id` run as root.
    get2 = (b'GET /testmyids HTTP/1.1\r\nHost: testmyids.example\r\n'
            b'User-Agent: curl/8.0\r\n\r\n')
    ids = b'uid=0(root) gid=0(root) groups=0(root)\n'
    ok2 = (b'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n'
           % len(ids)) + ids
    dnsq = IP(src='192.168.1.10', dst='192.168.1.1') / UDP(sport=53000, dport=53) / \
        DNS(id=0x1a2b, rd=1, qd=DNSQR(qname='www.example.com'))
    dnsr = IP(src='192.168.1.1', dst='192.168.1.10') / UDP(sport=53, dport=53000) / \
        DNS(id=0x1a2b, qr=1, rd=1, ra=1, qd=DNSQR(qname='www.example.com'),
            an=DNSRR(rrname='www.example.com', ttl=300, rdata='203.0.113.80'))
    ping = IP(src='192.168.1.10', dst='203.0.113.80') / ICMP(type=8, id=7, seq=1) / Raw(b'ping')
    pong = IP(src='203.0.113.80', dst='192.168.1.10') / ICMP(type=0, id=7, seq=1) / Raw(b'ping')
    frames = [(eth(dnsq), True), (eth(dnsr), False), (eth(ping), True), (eth(pong), False)]
    frames += http_session(web, webr, 51000, get, ok)
    frames += http_session(web, webr, 51001, get2, ok2)
    write('sample.pcap', seq_ts(T0, frames, step=0.01),
          note='README sample: dns, icmp echo, two http sessions (one returns uid=0(root))')


def gen_split():
    """A pattern split across two segments, sent out of order, the second one then
    retransmitted with different bytes: the stream engine keeps the original bytes
    (bsd policy), so SPLITPATTERNXYZ is in the stream once and ...ABC never."""
    a, b, b2 = b'head:SPLITPAT', b'TERNXYZ:tail\n', b'TERNABC:tail\n'
    cs, ss = 1000, 5000
    c, sv = v4c(), v4s()
    A = lambda fl, seq, ack, data=b'': c / TCP(sport=40001, dport=5555, flags=fl, seq=seq, ack=ack, window=8192) / (Raw(data) if data else b'')
    B = lambda fl, seq, ack: sv / TCP(sport=5555, dport=40001, flags=fl, seq=seq, ack=ack, window=8192)
    end = cs + 1 + len(a) + len(b)
    frames = [
        (A('S', cs, 0), True), (B('SA', ss, cs + 1), False), (A('A', cs + 1, ss + 1), True),
        (A('PA', cs + 1 + len(a), ss + 1, b), True),      # second half first
        (A('PA', cs + 1, ss + 1, a), True),               # then the first half
        (A('PA', cs + 1 + len(a), ss + 1, b2), True),     # retransmission, other bytes
        (B('A', ss + 1, end), False),
        (A('FA', end, ss + 1), True), (B('FA', ss + 1, end + 1), False),
        (A('A', end + 1, ss + 2), True),
    ]
    write('split-content.pcap', seq_ts(T0, [(eth(f), d) for f, d in frames]),
          note='pattern split over 2 segments, out of order, retransmitted with other bytes')


def gen_stream_rewrite():
    """A segment, then a longer retransmission from the same seq whose bytes
    differ and win (linux policy: a longer overlap starting at the same seq
    takes over). The pattern EVIL lies in the rewritten part only, before the
    first segment's end. For ac-cuda: with data-buffer-size-max-limit between
    the two lengths the first goes to the GPU and the second to the CPU, so
    what the GPU found in the first must be forgotten, or the stream window
    would take the GPU's "no EVIL there" for the rewritten bytes."""
    a, a2 = b'xxxxxxxxxxxxxx', b'xxEVILxxxxxxxxyyyyyyyy'
    cs, ss = 3000, 7000
    c, sv = v4c(), v4s()
    A = lambda fl, seq, ack, data=b'': c / TCP(sport=40002, dport=5555, flags=fl, seq=seq, ack=ack, window=8192) / (Raw(data) if data else b'')
    B = lambda fl, seq, ack: sv / TCP(sport=5555, dport=40002, flags=fl, seq=seq, ack=ack, window=8192)
    end = cs + 1 + len(a2)
    frames = [
        (A('S', cs, 0), True), (B('SA', ss, cs + 1), False), (A('A', cs + 1, ss + 1), True),
        (A('PA', cs + 1, ss + 1, a), True),
        (A('PA', cs + 1, ss + 1, a2), True),              # longer, other bytes
        (B('A', ss + 1, end), False),
        (A('FA', end, ss + 1), True), (B('FA', ss + 1, end + 1), False),
        (A('A', end + 1, ss + 2), True),
    ]
    write('stream-rewrite.pcap', seq_ts(T0, [(eth(f), d) for f, d in frames]),
          note='a segment rewritten by a longer retransmission with other bytes')


def gen_stream_rewrite_ctx():
    """A rewrite that the GPU can vouch for only in part: segment 2 is
    retransmitted longer with other bytes (linux policy: they win), and the
    pattern xEVIL begins in segment 1 and ends in the new bytes. RX's context
    for the retransmission is segment 2's end, which the stream no longer
    holds before it, so the worker keeps no context and covers only ends at
    least a pattern's length into it; the ends before must not be covered by
    what the GPU found in the replaced bytes."""
    s1, s2, s2b = b'aaaaaaaaxE', b'zzzzzzzzzzzzzz', b'VILzzzzzzzzzzzyyyyyyyy'
    cs, ss = 4000, 8000
    c, sv = v4c(), v4s()
    A = lambda fl, seq, ack, data=b'': c / TCP(sport=40003, dport=5555, flags=fl, seq=seq, ack=ack, window=8192) / (Raw(data) if data else b'')
    B = lambda fl, seq, ack: sv / TCP(sport=5555, dport=40003, flags=fl, seq=seq, ack=ack, window=8192)
    end = cs + 1 + len(s1) + len(s2b)
    frames = [
        (A('S', cs, 0), True), (B('SA', ss, cs + 1), False), (A('A', cs + 1, ss + 1), True),
        (A('PA', cs + 1, ss + 1, s1), True),
        (A('PA', cs + 1 + len(s1), ss + 1, s2), True),
        (A('PA', cs + 1 + len(s1), ss + 1, s2b), True),   # longer, other bytes
        (B('A', ss + 1, end), False),
        (A('FA', end, ss + 1), True), (B('FA', ss + 1, end + 1), False),
        (A('A', end + 1, ss + 2), True),
    ]
    write('stream-rewrite-ctx.pcap', seq_ts(T0, [(eth(f), d) for f, d in frames]),
          note='a rewrite after a segment, a pattern across the two')


def gen_http_gzip():
    """An HTTP response whose body is gzip: 3 KB of text once inflated, with
    GZIPMARK near its end. The body detection reads is the inflated one,
    which is not stream bytes: ac-cuda scans it on the worker's own device
    stream."""
    import gzip
    web = IP(src='192.168.1.11', dst='203.0.113.81', ttl=64)
    webr = IP(src='203.0.113.81', dst='192.168.1.11', ttl=55)
    text = b''.join(b'line %04d of a page that compresses well\n' % i for i in range(72))
    text += b'GZIPMARK at the end\n'
    body = gzip.compress(text, mtime=0)
    req = b'GET /gzip-page HTTP/1.1\r\nHost: gzip.example\r\nAccept-Encoding: gzip\r\n\r\n'
    resp = (b'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Encoding: gzip\r\n'
            b'Content-Length: %d\r\n\r\n' % len(body)) + body
    write('http-gzip.pcap', seq_ts(T0, http_session(web, webr, 51020, req, resp)),
          note='http GET /gzip-page; gzip response body, GZIPMARK once inflated')


def gen_http_split():
    """An HTTP response in three segments: line and headers, then the body in
    two halves that split BODYMARK. Rules reading the body, and rules whose
    fast pattern is in the request but that need the response body, can only
    be decided on the last segment."""
    web = IP(src='192.168.1.10', dst='203.0.113.80', ttl=64)
    webr = IP(src='203.0.113.80', dst='192.168.1.10', ttl=55)
    req = (b'GET /split-response HTTP/1.1\r\nHost: split.example\r\n'
           b'User-Agent: split/1.0\r\n\r\n')
    body1, body2 = b'first half ... BODY', b'MARK ... second half\n'
    head = (b'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n'
            % (len(body1) + len(body2)))
    cs, ss, sport = 2000, 9000, 51010
    A = lambda fl, seq, ack, data=b'': web / TCP(sport=sport, dport=80, flags=fl, seq=seq, ack=ack, window=8192) / (Raw(data) if data else b'')
    B = lambda fl, seq, ack, data=b'': webr / TCP(sport=80, dport=sport, flags=fl, seq=seq, ack=ack, window=8192) / (Raw(data) if data else b'')
    c2 = cs + 1 + len(req)
    s1 = ss + 1
    s2 = s1 + len(head)
    s3 = s2 + len(body1)
    s4 = s3 + len(body2)
    frames = [
        (A('S', cs, 0), True), (B('SA', ss, cs + 1), False), (A('A', cs + 1, s1), True),
        (A('PA', cs + 1, s1, req), True), (B('PA', s1, c2, head), False),
        (A('A', c2, s2), True), (B('PA', s2, c2, body1), False),
        (A('A', c2, s3), True), (B('PA', s3, c2, body2), False),
        (A('A', c2, s4), True),
        (A('FA', c2, s4), True), (B('FA', s4, c2 + 1), False), (A('A', c2 + 1, s4 + 1), True),
    ]
    write('http-split-response.pcap', seq_ts(T0, [(eth(f), d) for f, d in frames]),
          note='http GET /split-response; response in 3 segments, BODYMARK split over the last two')


def gen_http_keepalive():
    """600 HTTP requests on one keep-alive connection (tests/e2e/http-keepalive-600),
    in 200 rounds: three pipelined GETs /k/<i> in one segment, then their three
    responses in one segment, each ACKing the other side. More requests than
    app-layer.protocols.http.max-tx and than libhtp's first list sizes: the
    transaction gc's mark must not lose one."""
    web = IP(src='192.168.1.14', dst='203.0.113.84', ttl=64)
    webr = IP(src='203.0.113.84', dst='192.168.1.14', ttl=55)
    cs, ss, sport = 2000, 9000, 51050
    A = lambda fl, seq, ack, data=b'': web / TCP(sport=sport, dport=80, flags=fl, seq=seq, ack=ack, window=8192) / (Raw(data) if data else b'')
    B = lambda fl, seq, ack, data=b'': webr / TCP(sport=80, dport=sport, flags=fl, seq=seq, ack=ack, window=8192) / (Raw(data) if data else b'')
    resp = b'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'
    c, s = cs + 1, ss + 1
    frames = [(A('S', cs, 0), True), (B('SA', ss, c), False), (A('A', c, s), True)]
    for r in range(200):
        reqs = b''.join(b'GET /k/%d HTTP/1.1\r\nHost: ka.example\r\n\r\n' % (3 * r + i)
                        for i in range(3))
        frames.append((A('PA', c, s, reqs), True))
        c += len(reqs)
        frames.append((B('PA', s, c, resp * 3), False))
        s += 3 * len(resp)
    frames += [(A('FA', c, s), True), (B('FA', s, c + 1), False), (A('A', c + 1, s + 1), True)]
    write('http-keepalive-600.pcap', seq_ts(T0, [(eth(f), d) for f, d in frames]),
          note='http keep-alive: 600 GETs /k/0../k/599 on one connection, 3 pipelined a segment')


def gen_http_files():
    """HTTP files (tests/e2e/files-*): a multipart POST with a field and two
    files (report.pdf: a PDF header; notes.txt: "abc"), a download named by
    Content-Disposition (setup.exe, an MZ header), a PUT body (uri name), a
    GET answered 304 (no body: no file), and a response cut by the flow's
    end (Content-Length says more than is sent)."""
    web = IP(src='192.168.1.12', dst='203.0.113.82', ttl=64)
    webr = IP(src='203.0.113.82', dst='192.168.1.12', ttl=55)
    pdf = b'%PDF-1.5\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'
    mp = (b'--XyZzY\r\nContent-Disposition: form-data; name="comment"\r\n\r\nhello\r\n'
          b'--XyZzY\r\nContent-Disposition: form-data; name="f1"; filename="report.pdf"\r\n'
          b'Content-Type: application/pdf\r\n\r\n' + pdf + b'\r\n'
          b'--XyZzY\r\nContent-Disposition: form-data; name="f2"; filename="notes.txt"\r\n'
          b'\r\nabc\r\n--XyZzY--\r\n')
    post = (b'POST /upload HTTP/1.1\r\nHost: files.example\r\n'
            b'Content-Type: multipart/form-data; boundary=XyZzY\r\n'
            b'Content-Length: %d\r\n\r\n' % len(mp)) + mp
    ok = b'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok'
    exe = b'MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00' + b'\x00' * 48
    get = b'GET /dl?id=7 HTTP/1.1\r\nHost: files.example\r\n\r\n'
    dl = (b'HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n'
          b'Content-Disposition: attachment; filename="setup.exe"\r\n'
          b'Content-Length: %d\r\n\r\n' % len(exe)) + exe
    put = (b'PUT /put/data.bin HTTP/1.1\r\nHost: files.example\r\nContent-Length: 9\r\n\r\n'
           b'hello put')
    created = b'HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n'
    cond = b'GET /cached.css HTTP/1.1\r\nHost: files.example\r\nIf-None-Match: "x"\r\n\r\n'
    notmod = b'HTTP/1.1 304 Not Modified\r\nETag: "x"\r\n\r\n'
    cut = b'GET /big.iso HTTP/1.1\r\nHost: files.example\r\n\r\n'
    part = (b'HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n'
            b'Content-Length: 1000\r\n\r\n') + b'ISO' * 100
    frames = http_session(web, webr, 51030, post, ok)
    frames += http_session(web, webr, 51031, get, dl)
    frames += http_session(web, webr, 51032, put, created)
    frames += http_session(web, webr, 51033, cond, notmod)
    frames += http_session(web, webr, 51034, cut, part)
    write('http-files.pcap', seq_ts(T0, frames),
          note='http files: multipart POST (report.pdf, notes.txt), download setup.exe '
               '(Content-Disposition), PUT /put/data.bin, a 304, a response cut short')


def gen_hostile_names():
    """Names that break naive output (tests/e2e/eve-name-*): a capture whose
    file name holds byte 0xE9 (Latin-1 "cafe" with an accent: not UTF-8),
    in a folder of its own (the e2e case names the folder, in ASCII); and
    an HTTP download whose Content-Disposition name holds a NUL before
    its real extension ("invoice<NUL>.pdf.exe")."""
    write(os.fsdecode(b'latin1-name/caf\xe9.pcap'), seq_ts(T0, udp_pair(v4c(), v4s())),
          note='a capture named with byte 0xE9')
    web = IP(src='192.168.1.12', dst='203.0.113.82', ttl=64)
    webr = IP(src='203.0.113.82', dst='192.168.1.12', ttl=55)
    exe = b'MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00' + b'\x00' * 48
    get = b'GET /dl?id=9 HTTP/1.1\r\nHost: files.example\r\n\r\n'
    dl = (b'HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n'
          b'Content-Disposition: attachment; filename="invoice\x00.pdf.exe"\r\n'
          b'Content-Length: %d\r\n\r\n' % len(exe)) + exe
    write('http-nul-filename.pcap', seq_ts(T0, http_session(web, webr, 51040, get, dl)),
          note='http download named "invoice\\0.pdf.exe" (a NUL in the name)')


def gen_parser_events():
    """One flow per protocol whose parser raises an event (tests/e2e/
    anomaly-parser-events): TLS, a ClientHello then a record of type 0x99
    (invalid_record_type); SSH, a client banner of 300 characters
    (long_banner); HTTP, a request header line without a colon
    (request_field_missing_colon)."""
    hello = tls_hex('selks', 'c2s')[0]
    tls = exchange_session([(True, hello), (True, b'\x99\x03\x03\x00\x02ab')], 443, sport=43001)
    ssh = exchange_session([(True, b'SSH-2.0-' + b'A' * 292 + b'\r\n'),
                            (False, b'SSH-2.0-OpenSSH_9.6\r\n')], 22, sport=43002)
    http = exchange_session([(True, b'GET /e HTTP/1.1\r\nHost: events.example\r\nNoColonHere\r\n\r\n'),
                             (False, b'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok')],
                            80, sport=43003)
    write('parser-events.pcap', seq_ts(T0, tls + ssh + http),
          note='tls invalid record type, ssh long banner, http header without a colon')


def gen_files_at_close():
    """Files log when they close (tests/e2e/files-log-at-close,
    files-smtp-depth). http-files-pipelined.pcap: GET /slow and PUT
    /put/late.bin (body "late body") pipelined in one segment, then GET
    /third; the server answers all three only after that (200 "slow", 201,
    200 "third"). smtp-depth.pcap: one mail whose base64 attachment
    (4,000 bytes of 0x41..0x7a, 76-character lines) runs past a 2,000-byte
    reassembly depth, each client segment (536 bytes) acknowledged."""
    web = IP(src='192.168.1.13', dst='203.0.113.83', ttl=64)
    webr = IP(src='203.0.113.83', dst='192.168.1.13', ttl=55)
    c = Conv(web, webr, 51040, 80)
    f = c.open()
    f += c.send(True, b'GET /slow HTTP/1.1\r\nHost: files.example\r\n\r\n'
                b'PUT /put/late.bin HTTP/1.1\r\nHost: files.example\r\n'
                b'Content-Length: 9\r\n\r\nlate body')
    f += c.send(True, b'GET /third HTTP/1.1\r\nHost: files.example\r\n\r\n')
    f += c.send(False, b'HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nslow')
    f += c.send(False, b'HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n')
    f += c.send(False, b'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nthird')
    f += c.close()
    write('http-files-pipelined.pcap', seq_ts(T0, f),
          note='GET /slow, PUT /put/late.bin, GET /third pipelined, answered after the third')
    body = bytes(0x41 + i % 58 for i in range(4000))
    b64 = base64.b64encode(body)
    att = b''.join(b64[i:i + 76] + b'\r\n' for i in range(0, len(b64), 76))
    msg = (b'From: a@example.com\r\nTo: b@example.org\r\nSubject: depth\r\n'
           b'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="d1"\r\n\r\n'
           b'--d1\r\nContent-Type: application/octet-stream; name="big.bin"\r\n'
           b'Content-Disposition: attachment; filename="big.bin"\r\n'
           b'Content-Transfer-Encoding: base64\r\n\r\n' + att + b'--d1--\r\n.\r\n')
    m = Conv(v4c(), v4s(), 42100, 25)
    f = m.open()
    for client, data in [(False, b'220 mx.example.org ESMTP\r\n'), (True, b'EHLO c.example.com\r\n'),
                         (False, b'250 mx.example.org\r\n'), (True, b'MAIL FROM:<a@example.com>\r\n'),
                         (False, b'250 OK\r\n'), (True, b'RCPT TO:<b@example.org>\r\n'),
                         (False, b'250 OK\r\n'), (True, b'DATA\r\n'), (False, b'354 go ahead\r\n'),
                         (True, msg), (False, b'250 OK queued\r\n'), (True, b'QUIT\r\n'),
                         (False, b'221 bye\r\n')]:
        f += m.send(client, data, mss=536)
    f += m.close()
    write('smtp/smtp-depth.pcap', seq_ts(T0, f),
          note='one mail, a 4,000-byte base64 attachment in 536-byte segments')


def gen_pkt_stream():
    """A chat-like session whose second message starts a packet in mid-stream
    (stream offset 7), each message ACKed on its own: too little for a chunk of
    raw stream, so the stream is inspected at the client's FIN, from offset 0.
    Packets: 3WHS (1-3), HELLO (4), ACK (5), USERHOST (6), ACK (7), FIN (8),
    FIN (9), ACK (10)."""
    m1, m2 = b'HELLO\r\n', b'USERHOST bob\r\n'
    cs, ss = 1000, 5000
    c, sv = v4c(), v4s()
    A = lambda fl, seq, ack, data=b'': c / TCP(sport=40002, dport=6667, flags=fl, seq=seq, ack=ack, window=8192) / (Raw(data) if data else b'')
    B = lambda fl, seq, ack: sv / TCP(sport=6667, dport=40002, flags=fl, seq=seq, ack=ack, window=8192)
    o1, o2 = cs + 1, cs + 1 + len(m1)
    end = o2 + len(m2)
    frames = [
        (A('S', cs, 0), True), (B('SA', ss, cs + 1), False), (A('A', cs + 1, ss + 1), True),
        (A('PA', o1, ss + 1, m1), True), (B('A', ss + 1, o2), False),
        (A('PA', o2, ss + 1, m2), True), (B('A', ss + 1, end), False),
        (A('FA', end, ss + 1), True), (B('FA', ss + 1, end + 1), False),
        (A('A', end + 1, ss + 2), True),
    ]
    write('pkt-stream.pcap', seq_ts(T0, [(eth(f), d) for f, d in frames]),
          note='a message starting a packet in mid-stream; stream inspected at FIN')


def gen_badinput():
    # issue #17: a 70,000-byte frame (snaplen 262144, libpcap's maximum): an
    # IPv4/UDP datagram of 65,028 bytes and a trailer; then the reply
    big = eth(v4c() / UDP(sport=40000, dport=7777) / Raw(b'A' * 65000))
    big = bytes(big) + b'T' * (70000 - len(bytes(big)))
    s = eth(v4s() / UDP(sport=7777, dport=40000) / Raw(b'pong pong'))
    write('oversize.pcap', seq_ts(T0, [(big, True), (s, False)]), snaplen=262144,
          note='70000-byte frame (udp 65000 B + trailer), udp reply')

    # pcapng whose time jumps from 1,000 s to 1e13 s: the same UDP tuple
    # before and after; the first flow times out
    fr = udp_pair(v4c(), v4s(), sport=40000, dport=7777)
    pkts = seq_ts(1000, fr) + seq_ts(10 ** 13 + 1000, fr)
    write('time-jump.pcapng', pkts, fmt='pcapng', note='udp pair at 1000 s and 1e13+1000 s')


def gen_tcp_nosession():
    """TCP data without a handshake (stream.midstream off: no session is
    tracked): PING, PONG, PING. Without a session the flow is never
    established (Suricata 8), though both sides were seen."""
    c, sv = v4c(), v4s()
    A = lambda seq, ack, data: c / TCP(sport=40003, dport=7000, flags='PA', seq=seq, ack=ack, window=8192) / Raw(data)
    B = lambda seq, ack, data: sv / TCP(sport=7000, dport=40003, flags='PA', seq=seq, ack=ack, window=8192) / Raw(data)
    frames = [(A(1000, 5000, b'PING 1\r\n'), True), (B(5000, 1008, b'PONG\r\n'), False),
              (A(1008, 5006, b'PING 2\r\n'), True)]
    write('tcp-nosession.pcap', seq_ts(T0, [(eth(f), d) for f, d in frames]),
          note='TCP data both ways without a handshake')


def gen_tcp_psh_rst():
    """An ACK+PSH request answered only by the server's RST: no handshake,
    so no session with stream.midstream off (never established, as in
    Suricata 8); with it on, the request starts a session and the RST
    meets it established."""
    c, sv = v4c(), v4s()
    req = b'GET /psh-rst HTTP/1.1\r\nHost: psh-rst.example\r\n\r\n'
    frames = [(c / TCP(sport=40004, dport=80, flags='PA', seq=1000, ack=5000, window=8192) / Raw(req), True),
              (sv / TCP(sport=80, dport=40004, flags='RA', seq=5000, ack=1000 + len(req), window=0), False)]
    write('tcp-psh-rst.pcap', seq_ts(T0, [(eth(f), d) for f, d in frames]),
          note='ACK+PSH request answered by RST, no handshake')


def gen_tcp_fastopen_syn():
    """TCP Fast Open: the client's SYN (with a TFO cookie option) carries
    an HTTP request; the SYN/ACK acknowledges it, the response follows,
    FINs both ways."""
    c, sv = v4c(), v4s()
    req = b'GET /tfo HTTP/1.1\r\nHost: tfo.example\r\n\r\n'
    resp = b'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'
    cs, ss = 1000, 5000
    A = lambda fl, seq, ack, data=b'', opt=[]: c / TCP(sport=40005, dport=80, flags=fl, seq=seq, ack=ack, window=8192, options=opt) / (Raw(data) if data else b'')
    B = lambda fl, seq, ack, data=b'': sv / TCP(sport=80, dport=40005, flags=fl, seq=seq, ack=ack, window=8192) / (Raw(data) if data else b'')
    cd = cs + 1 + len(req)
    frames = [(A('S', cs, 0, req, [('TFO', b'\x01\x02\x03\x04\x05\x06\x07\x08')]), True),
              (B('SA', ss, cd), False),
              (A('A', cd, ss + 1), True),
              (B('PA', ss + 1, cd, resp), False),
              (A('FA', cd, ss + 1 + len(resp)), True),
              (B('FA', ss + 1 + len(resp), cd + 1), False),
              (A('A', cd + 1, ss + 2 + len(resp)), True)]
    write('tcp-fastopen-syn.pcap', seq_ts(T0, [(eth(f), d) for f, d in frames]),
          note='TCP Fast Open SYN with an HTTP request')


def gen_midstream_reversal():
    """A flow picked up midstream from the server's side (stream.midstream
    on): the HTTP response first, in two segments, then the client's ACK, a
    request, the server's ACK and FINs both ways. The engine takes the first
    packet's sender as the client and reverses the flow once it sees who the
    server is: whatever it recorded of the first direction must follow."""
    c, sv = v4c(), v4s()
    A = lambda fl, seq, ack, data=b'': c / TCP(sport=40500, dport=80, flags=fl, seq=seq, ack=ack, window=8192) / (Raw(data) if data else b'')
    B = lambda fl, seq, ack, data=b'': sv / TCP(sport=80, dport=40500, flags=fl, seq=seq, ack=ack, window=8192) / (Raw(data) if data else b'')
    hdr = b'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 32\r\n\r\n'
    body = b'body with REVMARK in its middle\n'
    req = b'GET /after HTTP/1.1\r\nHost: reversal.example\r\n\r\n'
    cs, ss = 1000, 5000
    frames = [(B('PA', ss, cs, hdr), False),
              (B('PA', ss + len(hdr), cs, body), False),
              (A('A', cs, ss + len(hdr) + len(body)), True),
              (A('PA', cs, ss + len(hdr) + len(body), req), True),
              (B('A', ss + len(hdr) + len(body), cs + len(req)), False),
              (A('FA', cs + len(req), ss + len(hdr) + len(body)), True),
              (B('FA', ss + len(hdr) + len(body), cs + len(req) + 1), False),
              (A('A', cs + len(req) + 1, ss + len(hdr) + len(body) + 1), True)]
    write('midstream-reversal.pcap', seq_ts(T0, [(eth(f), d) for f, d in frames]),
          note='midstream HTTP picked up at the response, then reversed')


def gen_community_id():
    """Flows whose Community ID suricata-verify knows (seed 7): the TCP one of
    community-id-ipv4 and of community-id-ipv6 (a SYN each way is enough),
    and an ICMP echo request/reply."""
    frames = [
        (IP(src='172.26.0.39', dst='172.217.14.206') / TCP(sport=35958, dport=443, flags='S', seq=1), True),
        (IP(src='172.217.14.206', dst='172.26.0.39') / TCP(sport=443, dport=35958, flags='SA', seq=9, ack=2), False),
        (IPv6(src='2600:1f13:f8:d400:3a6:303c:e011:18eb', dst='2001:4860:4860::8888') /
         TCP(sport=33892, dport=443, flags='S', seq=1), True),
        (IP(src='10.0.0.1', dst='10.0.0.2') / ICMP(type=8, id=7, seq=1) / Raw(b'ping'), True),
        (IP(src='10.0.0.2', dst='10.0.0.1') / ICMP(type=0, id=7, seq=1) / Raw(b'ping'), False),
    ]
    write('community-id.pcap', seq_ts(T0, [(eth(f), d) for f, d in frames]),
          note='tuples with known Community IDs (seed 7)')


def tls_hex(name, side):
    with open(os.path.join(HERE, 'tls', '%s.%s.hex' % (name, side))) as f:
        return [bytes.fromhex(line.strip()) for line in f if line.strip()]


def tls_session(name, dport, sport=41000, ipc=None, ips=None):
    """3WHS, the fixture's segments (tests/data/tls/NAME.*.hex) alternating
    client, server (each cut to 1400 bytes, every one acknowledged), then a
    FIN close."""
    ipc = ipc or v4c()
    ips = ips or v4s()
    cs, ss = 3000, 7000
    A = lambda fl, seq, ack, data=b'': ipc / TCP(sport=sport, dport=dport, flags=fl, seq=seq, ack=ack, window=8192) / (Raw(data) if data else b'')
    B = lambda fl, seq, ack, data=b'': ips / TCP(sport=dport, dport=sport, flags=fl, seq=seq, ack=ack, window=8192) / (Raw(data) if data else b'')
    c, s = tls_hex(name, 'c2s'), tls_hex(name, 's2c')
    frames = [(A('S', cs, 0), True), (B('SA', ss, cs + 1), False), (A('A', cs + 1, ss + 1), True)]
    cn, sn = cs + 1, ss + 1
    for i in range(max(len(c), len(s))):
        for seg, client in ((c[i] if i < len(c) else None, True), (s[i] if i < len(s) else None, False)):
            if seg is None:
                continue
            for off in range(0, len(seg), 1400):
                chunk = seg[off:off + 1400]
                if client:
                    frames.append((A('PA', cn, sn, chunk), True))
                    cn += len(chunk)
                    frames.append((B('A', sn, cn), False))
                else:
                    frames.append((B('PA', sn, cn, chunk), False))
                    sn += len(chunk)
                    frames.append((A('A', cn, sn), True))
    frames += [(A('FA', cn, sn), True), (B('FA', sn, cn + 1), False), (A('A', cn + 1, sn + 1), True)]
    return [(eth(f), d) for f, d in frames]


def gen_tls():
    """TLS handshakes from the tests/data/tls fixtures: TLS 1.2 with an SNI
    and a chain of three on 443 and on 8443 (detection by content), and the
    SELKS self-signed handshake on 443."""
    write('tls-chain-443.pcap', seq_ts(T0, tls_session('chain', 443)),
          note='TLS 1.2, sni example.com, three certificates, port 443')
    write('tls-chain-8443.pcap', seq_ts(T0, tls_session('chain', 8443)),
          note='the same handshake on port 8443')
    write('tls-selks.pcap', seq_ts(T0, tls_session('selks', 443)),
          note='TLS 1.2, SELKS self-signed certificate, port 443')


def gen_tls_many():
    """Four TLS handshakes (the 'chain' fixture) on 443 at once: every
    session's first packet, then every session's second, ... (issue 43:
    app-layer.memcap refuses the flows that start while the first one holds
    the memory). Each session closes with a FIN at the end."""
    sessions = [tls_session('chain', 443, sport=41100 + i) for i in range(4)]
    frames = [s[j] for j in range(len(sessions[0])) for s in sessions]
    write('tls-many.pcap', seq_ts(T0, frames),
          note='four TLS 1.2 handshakes on 443, interleaved packet by packet')


def gen_dns():
    """DNS (issue #13): over UDP on port 53 (an A query, its answer; an
    AAAA query answered NXDOMAIN), over UDP on port 5300 (found through
    detection-ports), and over TCP on port 53 with the query split across
    segments (its 2-byte length alone in the first one)."""
    ipc = IP(src='10.0.0.1', dst='10.0.0.53', id=1, ttl=64)
    ips = IP(src='10.0.0.53', dst='10.0.0.1', id=2, ttl=64)
    q1 = DNS(id=0x1111, rd=1, qd=DNSQR(qname='www.example.com', qtype='A'))
    r1 = DNS(id=0x1111, qr=1, rd=1, ra=1, qd=DNSQR(qname='www.example.com', qtype='A'),
             an=DNSRR(rrname='www.example.com', type='A', ttl=300, rdata='93.184.216.34'))
    q2 = DNS(id=0x2222, rd=1, qd=DNSQR(qname='nothere.example.org', qtype='AAAA'))
    r2 = DNS(id=0x2222, qr=1, rd=1, ra=1, rcode=3, qd=DNSQR(qname='nothere.example.org', qtype='AAAA'))
    frames = [
        (ipc / UDP(sport=33333, dport=53) / q1, True),
        (ips / UDP(sport=53, dport=33333) / r1, False),
        (ipc / UDP(sport=33334, dport=53) / q2, True),
        (ips / UDP(sport=53, dport=33334) / r2, False),
    ]
    write('dns/dns-udp.pcap', seq_ts(T0, [(eth(f), d) for f, d in frames]),
          note='two UDP DNS exchanges on port 53: A answered, AAAA NXDOMAIN')
    q3 = DNS(id=0x3333, rd=1, qd=DNSQR(qname='odd.example.net', qtype='TXT'))
    r3 = DNS(id=0x3333, qr=1, rd=1, ra=1, qd=DNSQR(qname='odd.example.net', qtype='TXT'),
             an=DNSRR(rrname='odd.example.net', type='TXT', ttl=60, rdata='hello'))
    frames = [
        (ipc / UDP(sport=40000, dport=5300) / q3, True),
        (ips / UDP(sport=5300, dport=40000) / r3, False),
    ]
    write('dns/dns-udp-5300.pcap', seq_ts(T0, [(eth(f), d) for f, d in frames]),
          note='one UDP DNS exchange on port 5300')
    q4 = bytes(DNS(id=0x4444, rd=1, qd=DNSQR(qname='tcp.example.com', qtype='MX')))
    r4 = bytes(DNS(id=0x4444, qr=1, rd=1, ra=1, qd=DNSQR(qname='tcp.example.com', qtype='MX'),
                   an=DNSRR(rrname='tcp.example.com', type='MX', ttl=600,
                            rdata=b'\x00\x0a\x04mail\x07example\x03com\x00')))
    req = struct.pack('>H', len(q4)) + q4
    resp = struct.pack('>H', len(r4)) + r4
    cs, ss, sp = 7000, 8000, 45000
    A = lambda fl, seq, ack, data=b'': ipc / TCP(sport=sp, dport=53, flags=fl, seq=seq, ack=ack, window=8192) / (Raw(data) if data else b'')
    B = lambda fl, seq, ack, data=b'': ips / TCP(sport=53, dport=sp, flags=fl, seq=seq, ack=ack, window=8192) / (Raw(data) if data else b'')
    c1, c2, c3 = cs + 1, cs + 1 + 2, cs + 1 + 2 + 10
    ce, se = cs + 1 + len(req), ss + 1 + len(resp)
    frames = [
        (A('S', cs, 0), True), (B('SA', ss, cs + 1), False), (A('A', c1, ss + 1), True),
        (A('PA', c1, ss + 1, req[:2]), True), (A('PA', c2, ss + 1, req[2:12]), True),
        (A('PA', c3, ss + 1, req[12:]), True), (B('A', ss + 1, ce), False),
        (B('PA', ss + 1, ce, resp[:20]), False), (B('PA', ss + 21, ce, resp[20:]), False),
        (A('A', ce, se), True),
        (A('FA', ce, se), True), (B('FA', se, ce + 1), False), (A('A', ce + 1, se + 1), True),
    ]
    write('dns/dns-tcp-split.pcap', seq_ts(T0, [(eth(f), d) for f, d in frames]),
          note='DNS over TCP port 53, query in three segments, answer in two')


def exchange_session(turns, dport, sport=42000, ipc=None, ips=None, cs=11000, ss=15000):
    """3WHS, then turns: (client?, bytes) each in its own segment,
    acknowledged by the other side, then a FIN close."""
    ipc = ipc or v4c()
    ips = ips or v4s()
    A = lambda fl, seq, ack, data=b'': ipc / TCP(sport=sport, dport=dport, flags=fl, seq=seq, ack=ack, window=8192) / (Raw(data) if data else b'')
    B = lambda fl, seq, ack, data=b'': ips / TCP(sport=dport, dport=sport, flags=fl, seq=seq, ack=ack, window=8192) / (Raw(data) if data else b'')
    frames = [(A('S', cs, 0), True), (B('SA', ss, cs + 1), False), (A('A', cs + 1, ss + 1), True)]
    cn, sn = cs + 1, ss + 1
    for client, data in turns:
        for off in range(0, len(data), 1400):
            chunk = data[off:off + 1400]
            if client:
                frames.append((A('PA', cn, sn, chunk), True))
                cn += len(chunk)
                frames.append((B('A', sn, cn), False))
            else:
                frames.append((B('PA', sn, cn, chunk), False))
                sn += len(chunk)
                frames.append((A('A', cn, sn), True))
    frames += [(A('FA', cn, sn), True), (B('FA', sn, cn + 1), False), (A('A', cn + 1, sn + 1), True)]
    return [(eth(f), d) for f, d in frames]


SMTP_MAIL = (b'From: Alice Example <alice@example.com>\r\n'
             b'To: "Bob, B." <bob@example.org>, carol@example.org\r\n'
             b'Cc: dave@example.net\r\n'
             b'Subject: quarterly report\r\n'
             b'Date: Tue, 1 Dec 2026 10:00:00 +0000\r\n'
             b'Message-ID: <r1@example.com>\r\n'
             b'X-Mailer: gen-pcaps\r\n'
             b'MIME-Version: 1.0\r\n'
             b'Content-Type: multipart/mixed; boundary="b1"\r\n'
             b'\r\n'
             b'This is a multi-part message in MIME format.\r\n'
             b'--b1\r\n'
             b'Content-Type: text/plain; charset=utf-8\r\n'
             b'Content-Transfer-Encoding: quoted-printable\r\n'
             b'\r\n'
             b'The report is at http://files.example.com/q=3D4 and a mirror at =\r\n'
             b'http://mirror.example.net/r.exe\r\n'
             b'..a line that began with a dot\r\n'
             b'--b1\r\n'
             b'Content-Type: application/pdf; name="report.pdf"\r\n'
             b'Content-Disposition: attachment; filename="report.pdf"\r\n'
             b'Content-Transfer-Encoding: base64\r\n'
             b'\r\n'
             b'JVBERi0xLjQKJcfsj6IKMSAwIG9iago8PC9UeXBlL0NhdGFsb2c+PgplbmRvYmoK\r\n'
             b'--b1--\r\n'
             b'\r\n'
             b'.\r\n')


def gen_smtp():
    """SMTP (issue #14): a mail on port 25 (multi-line banner and EHLO
    reply, ESMTP parameters, two recipients, a multipart message with a
    quoted-printable text part holding two URLs and a base64 attachment);
    the same mail on port 2600 (found by the client's EHLO); and a STARTTLS
    session on port 25 that goes on with the 'chain' TLS handshake."""
    mail = [
        (False, b'220-mx.example.org ESMTP\r\n220 ready\r\n'),
        (True, b'EHLO client.example.com\r\n'),
        (False, b'250-mx.example.org\r\n250-PIPELINING\r\n250 SIZE 10000000\r\n'),
        (True, b'MAIL FROM:<alice@example.com> SIZE=1200\r\n'),
        (False, b'250 OK\r\n'),
        (True, b'RCPT TO:<bob@example.org>\r\n'),
        (False, b'250 OK\r\n'),
        (True, b'RCPT TO:<carol@example.org> NOTIFY=NEVER\r\n'),
        (False, b'250 OK\r\n'),
        (True, b'DATA\r\n'),
        (False, b'354 go ahead\r\n'),
        (True, SMTP_MAIL),
        (False, b'250 OK queued\r\n'),
        (True, b'QUIT\r\n'),
        (False, b'221 bye\r\n'),
    ]
    write('smtp/smtp-mail.pcap', seq_ts(T0, exchange_session(mail, 25)),
          note='one SMTP mail on port 25: multipart, QP text with URLs, base64 attachment')
    write('smtp/smtp-mail-2600.pcap', seq_ts(T0, exchange_session(mail[1:], 2600)),
          note='the same mail on port 2600 without the banner')
    c, s = tls_hex('chain', 'c2s'), tls_hex('chain', 's2c')
    # the SMTP turns up to the server's yes to STARTTLS
    starttls = [
        (False, b'220 mx.example.org ESMTP\r\n'),
        (True, b'EHLO tls.example.com\r\n'),
        (False, b'250-mx.example.org\r\n250 STARTTLS\r\n'),
        (True, b'STARTTLS\r\n'),
        (False, b'220 2.0.0 Ready to start TLS\r\n'),
    ]
    turns = list(starttls)
    for i in range(max(len(c), len(s))):
        if i < len(c):
            turns.append((True, c[i]))
        if i < len(s):
            turns.append((False, s[i]))
    write('smtp/smtp-starttls.pcap', seq_ts(T0, exchange_session(turns, 25)),
          note='EHLO, STARTTLS on port 25, then the chain TLS handshake (sni example.com)')
    # a STARTTLS the server accepts, then answers in HTTP: a 101 to h2c
    turns = starttls + [
        (False, b'HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n'),
    ]
    write('smtp/smtp-starttls-http.pcap', seq_ts(T0, exchange_session(turns, 25)),
          note='EHLO, STARTTLS accepted on port 25, then an HTTP 101 to h2c instead of TLS')


class Conv:
    """A TCP connection built step by step, so that several can interleave:
    open(), send(to_server, data) (each segment acknowledged by the other
    side), close(); frames collects (frame, to_server)."""

    def __init__(self, ipc, ips, sport, dport, cs=1000, ss=5000):
        self.ipc, self.ips, self.sport, self.dport = ipc, ips, sport, dport
        self.cn, self.sn = cs, ss

    def A(self, fl, data=b''):
        return eth(self.ipc / TCP(sport=self.sport, dport=self.dport, flags=fl, seq=self.cn, ack=self.sn, window=8192) / (Raw(data) if data else b''))

    def B(self, fl, data=b''):
        return eth(self.ips / TCP(sport=self.dport, dport=self.sport, flags=fl, seq=self.sn, ack=self.cn, window=8192) / (Raw(data) if data else b''), SMAC, CMAC)

    def open(self):
        f = [(eth(self.ipc / TCP(sport=self.sport, dport=self.dport, flags='S', seq=self.cn, window=8192)), True)]
        self.cn += 1
        f.append((eth(self.ips / TCP(sport=self.dport, dport=self.sport, flags='SA', seq=self.sn, ack=self.cn, window=8192), SMAC, CMAC), False))
        self.sn += 1
        f.append((self.A('A'), True))
        return f

    def send(self, to_server, data, mss=1400):
        f = []
        for off in range(0, len(data), mss):
            chunk = data[off:off + mss]
            if to_server:
                f.append((self.A('PA', chunk), True))
                self.cn += len(chunk)
                f.append((self.B('A'), False))
            else:
                f.append((self.B('PA', chunk), False))
                self.sn += len(chunk)
                f.append((self.A('A'), True))
        return f

    def close(self):
        f = [(self.A('FA'), True)]
        self.cn += 1
        f.append((self.B('FA'), False))
        self.sn += 1
        f.append((self.A('A'), True))
        return f


def ssh_packet(payload, pad=4):
    return struct.pack('>IB', 1 + len(payload) + pad, pad) + payload + b'\x00' * pad


def ssh_kexinit(lists):
    body = b'\x14' + b'\xab' * 16
    for l in lists:
        body += struct.pack('>I', len(l)) + l.encode()
    return ssh_packet(body + b'\x00' + b'\x00' * 4)


SSH_LISTS_C = ['curve25519-sha256,diffie-hellman-group14-sha1', 'ssh-ed25519', 'aes128-ctr,aes256-ctr',
               'aes128-ctr,aes256-ctr', 'hmac-sha2-256', 'hmac-sha2-256', 'none,zlib@openssh.com',
               'none,zlib@openssh.com', '', '']
SSH_LISTS_S = ['curve25519-sha256', 'ssh-ed25519', 'chacha20-poly1305@openssh.com',
               'aes256-gcm@openssh.com', 'umac-64@openssh.com', 'hmac-sha2-512', 'none', 'none', '', '']


def gen_ssh_ftp():
    """SSH and FTP (issue #14). ssh-2222.pcap: an SSH-2 session on port 2222
    (detection by content): banners (the client's with a comment), the
    client's KEXINIT split over two segments, the server's, NEWKEYS both
    ways, then ciphertext that holds "SSH-" and "USER " (never parsed).
    ftp-passive.pcap: a control connection on 21 (greeting "220 (vsFTPd
    3.0.3)", USER/PASS, a multi-line FEAT reply, PASV 227 port 40005, RETR
    notes.txt 150 ... 226, a PORT to a third host (a bounce), QUIT) and the
    data connection 10.0.0.1:40001 -> 10.0.0.2:40005 that carries the file.
    ftp-active.pcap: PORT 10,0,0,1,156,68 (40004), STOR up.bin, and the
    server's connection back from port 20 to 40004."""
    ipc, ips = v4c(), v4s()
    c = Conv(ipc, ips, 40000, 2222)
    kex_c = ssh_kexinit(SSH_LISTS_C)
    kex_s = ssh_kexinit(SSH_LISTS_S)
    nk = ssh_packet(b'\x15')
    frames = c.open()
    frames += c.send(False, b'SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n')
    frames += c.send(True, b'SSH-2.0-PuTTY_Release_0.78 test client\r\n')
    frames += c.send(True, kex_c[:37])
    frames += c.send(True, kex_c[37:])
    frames += c.send(False, kex_s)
    frames += c.send(True, nk)
    frames += c.send(False, nk + b'\x00\x00\x00\x20SSH-2.0-fake USER root\r\n' + b'\x5a' * 16)
    frames += c.send(True, b'\x00\x00\x00\x10' + b'\xa5' * 32)
    frames += c.close()
    write('ssh-2222.pcap', seq_ts(T0, frames),
          note='SSH-2 on port 2222: banners, KEXINITs, NEWKEYS, ciphertext')

    ctl = Conv(ipc, ips, 40000, 21)
    data = Conv(ipc, ips, 40001, 40005, 9000, 12000)
    body = b''.join(b'line %03d of notes.txt\n' % i for i in range(120))
    frames = ctl.open()
    frames += ctl.send(False, b'220 (vsFTPd 3.0.3)\r\n')
    frames += ctl.send(True, b'USER anonymous\r\n')
    frames += ctl.send(False, b'331 Please specify the password.\r\n')
    frames += ctl.send(True, b'PASS guest@\r\n')
    frames += ctl.send(False, b'230 Login successful.\r\n')
    frames += ctl.send(True, b'FEAT\r\n')
    frames += ctl.send(False, b'211-Features:\r\n EPSV\r\n PASV\r\n211 End\r\n')
    frames += ctl.send(True, b'PASV\r\n')
    frames += ctl.send(False, b'227 Entering Passive Mode (10,0,0,2,156,69).\r\n')
    frames += data.open()
    frames += ctl.send(True, b'RETR notes.txt\r\n')
    frames += ctl.send(False, b'150 Opening BINARY mode data connection for notes.txt (%d bytes).\r\n' % len(body))
    frames += data.send(False, body)
    frames += data.close()
    frames += ctl.send(False, b'226 Transfer complete.\r\n')
    frames += ctl.send(True, b'PORT 192,0,2,9,0,80\r\n')
    frames += ctl.send(False, b'200 PORT command successful. Consider using PASV.\r\n')
    frames += ctl.send(True, b'QUIT\r\n')
    frames += ctl.send(False, b'221 Goodbye.\r\n')
    frames += ctl.close()
    write('ftp-passive.pcap', seq_ts(T0, frames),
          note='FTP on 21: PASV, RETR notes.txt over 40001->40005, a bounce PORT')

    ctl = Conv(ipc, ips, 40002, 21, 3000, 6000)
    back = Conv(ips, ipc, 20, 40004, 15000, 18000)
    frames = ctl.open()
    frames += ctl.send(False, b'220 ftp.example.org ready\r\n')
    frames += ctl.send(True, b'USER bob\r\n')
    frames += ctl.send(False, b'331 Password required\r\n')
    frames += ctl.send(True, b'PASS hunter2\r\n')
    frames += ctl.send(False, b'230 Logged in\r\n')
    frames += ctl.send(True, b'PORT 10,0,0,1,156,68\r\n')
    frames += ctl.send(False, b'200 PORT ok\r\n')
    frames += ctl.send(True, b'STOR up.bin\r\n')
    frames += ctl.send(False, b'150 Ok to send data.\r\n')
    # the server's connection back: the file travels to the server, which
    # is this flow's client
    bf = back.open() + back.send(False, b'\x7fELF' + b'\x00' * 60) + back.close()
    frames += [(f, not d) for f, d in bf]
    frames += ctl.send(False, b'226 Transfer complete.\r\n')
    frames += ctl.send(True, b'QUIT\r\n')
    frames += ctl.send(False, b'221 Goodbye.\r\n')
    frames += ctl.close()
    write('ftp-active.pcap', seq_ts(T0, frames),
          note='FTP on 21: PORT, STOR up.bin over 20->40004 (server to client)')

    # AUTH TLS accepted: the control connection goes on with the 'chain'
    # TLS handshake
    c, s = tls_hex('chain', 'c2s'), tls_hex('chain', 's2c')
    turns = [
        (False, b'220 (vsFTPd 3.0.3)\r\n'),
        (True, b'AUTH TLS\r\n'),
        (False, b'234 Proceed with negotiation.\r\n'),
    ]
    for i in range(max(len(c), len(s))):
        if i < len(c):
            turns.append((True, c[i]))
        if i < len(s):
            turns.append((False, s[i]))
    write('ftp-authtls.pcap', seq_ts(T0, exchange_session(turns, 21, sport=40010)),
          note='FTP on 21: AUTH TLS, 234, then the chain TLS handshake (sni example.com)')


def gen_icmp_errors():
    """ICMPv4 errors and the flows they quote (Suricata 8: an unreachable
    quoting a TCP/UDP packet belongs to that flow; no ICMPv4 error makes a flow)."""
    r4 = '10.0.0.254'
    answer = IP(src=S4, dst=C4, id=2, ttl=64) / UDP(sport=7777, dport=40000) / Raw(b'pong pong')
    syn = IP(src=C4, dst=S4, id=3, ttl=64) / TCP(sport=40001, dport=5555, flags='S', seq=1000)
    query = IP(src=C4, dst=S4, id=1, ttl=1) / UDP(sport=40000, dport=7777) / Raw(b'ping')
    frames = udp_pair(v4c(), v4s()) + [
        # the client's port unreachable for the answer: to_server in the UDP flow
        (eth(v4c() / ICMP(type=3, code=3) / answer), True),
        (eth(syn), True),
        # a router's host unreachable for the SYN (whole TCP header quoted)
        (eth(IP(src=r4, dst=C4, id=9, ttl=64) / ICMP(type=3, code=1) / syn, src=SMAC, dst=CMAC), False),
        # the same quoting only RFC 792's 8 bytes of TCP: no flow
        (eth(IP(src=r4, dst=C4, id=10, ttl=64) / ICMP(type=3, code=1) / Raw(bytes(syn)[:28]),
             src=SMAC, dst=CMAC), False),
        # a time exceeded for the query: never a flow of its own
        (eth(IP(src=r4, dst=C4, id=11, ttl=64) / ICMP(type=11, code=0) / query, src=SMAC, dst=CMAC),
         False),
    ]
    write('ipv4-icmp-errors.pcap', seq_ts(T0, frames),
          note='UDP pair, port unreachable for the answer, SYN, host unreachable (full and '
               '8-byte quote), time exceeded')


def dce_uuid(text, le=True):
    """A uuid on the wire: its first three fields in the drep's order."""
    b = bytes.fromhex(text.replace('-', ''))
    if not le:
        return b
    return b[3::-1] + b[5:3:-1] + b[7:5:-1] + b[8:]


def dce_co(ptype, flags, call_id, body):
    """A DCE/RPC v5.0 PDU, little endian (drep 10 00 00 00)."""
    return struct.pack('<BBBB4sHHI', 5, 0, ptype, flags, b'\x10\x00\x00\x00',
                       16 + len(body), 0, call_id) + body


DCE_SVCCTL = '367abb81-9844-35f1-ad32-98f038001003'
DCE_SPOOLSS = '12345678-1234-abcd-ef00-0123456789ab'
DCE_NDR = '8a885d04-1ceb-11c9-9fe8-08002b104860'


def dce_cl(ptype, flags, act, seq, opnum, body, le=False):
    """A DCE/RPC v4 datagram (big endian unless le)."""
    e = '<' if le else '>'
    return (struct.pack('BBBB3sB', 4, ptype, flags, 0, b'\x10\x00\x00' if le else b'\x00\x00\x00', 0)
            + b'\x00' * 16 + dce_uuid(DCE_SPOOLSS, le) + act
            + struct.pack(e + 'IIIHHHHHBB', 0, 1, seq, opnum, 0xffff, 0xffff, len(body), 0, 0, 0)
            + body)


def gen_dcerpc():
    """DCERPC (issue #14). dcerpc-tcp.pcap: on port 49700 (detection by
    content): a bind offering svcctl v2.0 (ctx 0, accepted) and spoolss
    v1.0 (ctx 1, provider rejection), the bind_ack; a request (call 2,
    ctx 0, opnum 15) in two fragments, the first split over two segments,
    stub "OpenSCManager" + "W-stub"; two requests (calls 3 and 4: ctx 1
    opnum 89, ctx 0 opnum 16) in one segment; the responses to 2 and 3 in
    one segment (4 is never answered); then a PDU header with frag_length
    8 (malformed_header). dcerpc-udp.pcap: a connectionless request
    (opnum 0, seqnum 7, big endian) to port 34964 and its response."""
    ipc, ips = v4c(), v4s()
    c = Conv(ipc, ips, 40100, 49700)
    ctx = b''
    for i, (u, v) in enumerate(((DCE_SVCCTL, 2), (DCE_SPOOLSS, 1))):
        ctx += struct.pack('<HBB', i, 1, 0) + dce_uuid(u) + struct.pack('<HH', v, 0)
        ctx += dce_uuid(DCE_NDR) + struct.pack('<I', 2)
    bind = dce_co(11, 3, 1, struct.pack('<HHI', 4280, 4280, 0) + bytes([2, 0, 0, 0]) + ctx)
    res = b''.join(struct.pack('<HH', r, 0) + dce_uuid(DCE_NDR) + struct.pack('<I', 2) for r in (0, 2))
    ack = dce_co(12, 3, 1, struct.pack('<HHIH', 4280, 4280, 0x1234, 6) + b'49700\x00'
                 + bytes([2, 0, 0, 0]) + res)

    def req(flags, call, ctxid, opnum, stub):
        return dce_co(0, flags, call, struct.pack('<IHH', len(stub), ctxid, opnum) + stub)

    def resp(call, stub):
        return dce_co(2, 3, call, struct.pack('<IHBB', len(stub), 0, 0, 0) + stub)

    r1 = req(1, 2, 0, 15, b'OpenSCManager')
    r2 = req(2, 2, 0, 15, b'W-stub')
    frames = c.open()
    frames += c.send(True, bind)
    frames += c.send(False, ack)
    frames += c.send(True, r1[:20])
    frames += c.send(True, r1[20:] + r2)
    frames += c.send(True, req(3, 3, 1, 89, b'spool') + req(3, 4, 0, 16, b'never answered'))
    frames += c.send(False, resp(2, b'handle-0001') + resp(3, b'denied'))
    frames += c.send(True, struct.pack('<BBBB4sHHI', 5, 0, 0, 3, b'\x10\x00\x00\x00', 8, 0, 5))
    frames += c.close()
    write('dcerpc-tcp.pcap', seq_ts(T0, frames),
          note='DCERPC/TCP on 49700: bind/bind_ack, fragmented request, two PDUs a segment, a bad header')

    act = bytes.fromhex('4e32dcdd d8034eaf86ee7650df599e40'.replace(' ', ''))
    frames = [(eth(ipc / UDP(sport=1566, dport=34964) / Raw(dce_cl(0, 0x20, act, 7, 0, b'ping-stub'))), True),
              (eth(ips / UDP(sport=34964, dport=1566) / Raw(dce_cl(2, 0, act, 7, 0, b'pong')), SMAC, CMAC), False)]
    write('dcerpc-udp.pcap', seq_ts(T0, frames),
          note='DCERPC/UDP to 34964: a connectionless request and its response')


def gen_app_proto_dirs():
    """Each side detected on its own (eve app_proto_ts / app_proto_tc)."""
    ipc, ips = v4c(), v4s()
    # a DCERPC request answered by an HTTP response (suricata-verify
    # dcerpc-request-http-response)
    dce = bytes.fromhex('0500000310000000180000000100000000000b0009004500')
    http_resp = b'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'
    http_req = b'GET / HTTP/1.1\r\nHost: a\r\n\r\n'
    # a whole TLS 1.2 client hello (one suite, no extensions) answered by
    # an SMTP banner on 465 (suricata-verify smtp-tls-protodetect)
    body = b'\x03\x03' + bytes(range(32)) + b'\x00' + b'\x00\x02\xc0\x2f' + b'\x01\x00' + b'\x00\x00'
    hs = b'\x01' + len(body).to_bytes(3, 'big') + body
    hello = b'\x16\x03\x01' + len(hs).to_bytes(2, 'big') + hs
    frames = (http_session(ipc, ips, 41001, dce, http_resp, dport=8080) +
              http_session(ipc, ips, 41002, hello, b'220 mail.example.org ESMTP\r\n', dport=465) +
              http_session(ipc, ips, 41003, http_req, b'xyzzy plugh this is not any protocol\r\n') +
              http_session(ipc, ips, 41004, http_req, http_resp))
    write('app-proto-dirs.pcap', seq_ts(T0, frames),
          note='4 tcp flows: dcerpc req/http resp on 8080, tls hello/smtp banner on 465, '
               'http req/junk on 80, http both ways on 80')


def gen_http_parsing():
    """Request lines and headers libhtp 0.5 reads otherwise than Suricata 8."""
    ipc, ips = v4c(), v4s()
    # a uri with a space, an empty User-Agent, Connection both ways
    req1 = (b'GET /uri afterspace HTTP/1.1\r\nHost: a.example\r\nUser-Agent: \r\n'
            b'Connection: keep-alive\r\n\r\n')
    resp1 = b'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok'
    # a chunked request whose Transfer-Encoding names another coding too,
    # then a second request on the connection
    req2 = (b'POST /first HTTP/1.1\r\nHost: a.example\r\nTransfer-Encoding: gzip, chunked\r\n'
            b'\r\n3\r\nabc\r\n0\r\n\r\nGET /second HTTP/1.1\r\nHost: a.example\r\n\r\n')
    resp2 = (b'HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n1'
             b'HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n2')
    # base64 in the uri, for base64_decode after an http_uri content
    req3 = b'GET /x?q=aGVsbG8gd29ybGQ= HTTP/1.1\r\nHost: a.example\r\n\r\n'
    frames = (http_session(ipc, ips, 42001, req1, resp1) + http_session(ipc, ips, 42002, req2, resp2) +
              http_session(ipc, ips, 42003, req3, b'HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n3'))
    write('http-parsing.pcap', seq_ts(T0, frames),
          note='3 http flows: uri with a space, empty User-Agent, Connection both ways; '
               'T-E "gzip, chunked" request then a second one; base64 in a uri')


def main():
    os.makedirs(OUT, exist_ok=True)
    gen_sample()
    gen_http_split()
    gen_http_gzip()
    gen_http_files()
    gen_split()
    gen_pkt_stream()
    gen_tcp_nosession()
    gen_tcp_psh_rst()
    gen_tcp_fastopen_syn()
    gen_midstream_reversal()
    gen_community_id()
    gen_stream_rewrite()
    gen_stream_rewrite_ctx()
    gen_basic()
    gen_l2()
    gen_tunnels()
    gen_frags()
    gen_bad()
    gen_files()
    gen_flows()
    gen_badinput()
    gen_tls()
    gen_tls_many()


    gen_dns()
    gen_smtp()
    gen_ssh_ftp()
    gen_icmp_errors()
    gen_dcerpc()
    gen_app_proto_dirs()
    gen_http_parsing()
    gen_files_at_close()
    gen_http_keepalive()
    gen_hostile_names()
    gen_parser_events()
    if '--manifest' in sys.argv:
        print('\n'.join(manifest))


if __name__ == '__main__':
    main()
