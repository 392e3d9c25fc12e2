#!/usr/bin/env python3
"""Engine-like ac-cuda batch contents from a capture and a rule set.

What the engine sends the device for each payload (src/detect/prefilter-gpu.c,
detect_gpu_submit), in capture order:
  - TCP: two views. The packet view (the payload, scanned with the TCP
    class union automaton) and the stream view (up to `ctx` bytes of the same
    flow direction before it, then the payload; the stream automaton).
    ctx = min(longest stream pattern - 1, 255); a SYN starts with none; a
    view over 65535 bytes goes without context.
  - UDP: one view, the UDP class union automaton.
The automata (one pattern file each, hex lines as extract-patterns.py
writes them) are the rules' fast patterns, split as the engine's groups
are: a raw payload content of a TCP rule (tcp, or an application protocol
over TCP) goes to the TCP union and the stream automaton, of a UDP rule to
the UDP union, of an ip/any rule to both; a file_data or response-body
content to the stream automaton (the body groups). Contents of other
buffers (http.uri, dns.query, ...) are scanned on the CPU, not here. It
is a sketch of the engine's grouping (one fast pattern per rule, the
explicit fast_pattern or the longest content), not the engine's code.

--gro: TCP segments are first coalesced as GRO on a live interface would:
consecutive in-sequence segments of a flow direction, until a PSH or FIN,
a gap, 64 KiB, or 64 other packets in between.

usage: engine-batch.py [--gro] RULES OUTDIR PCAP...
RULES: a rule file, or a folder of emerging-*.rules. Several captures are
taken one after another (their flows apart). Writes OUTDIR/engine.acpg ("ACPG", u32 n, n x (u32 len, u16 group, u16 view),
then the bytes), OUTDIR/group-{0,1,2}.hex, and prints the sizes.
"""
import importlib.util
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    'xp', os.path.join(HERE, '..', 'ac-proto', 'extract-patterns.py'))
xp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(xp)

G_TCP, G_STREAM, G_UDP = 0, 1, 2
TAIL_MAX = 255
VIEW_MAX = 65535

TCP_APPS = {'tcp', 'http', 'http1', 'http2', 'tls', 'ssl', 'ssh', 'ftp', 'ftp-data', 'smtp',
            'imap', 'pop3', 'smb', 'dcerpc', 'nfs', 'rdp', 'mqtt', 'modbus', 'dnp3', 'enip',
            'rfb', 'irc', 'telnet', 'ldap', 'pgsql', 'bittorrent-dht', 'websocket', 'tcp-pkt',
            'tcp-stream', 'krb5', 'dns'}
UDP_APPS = {'udp', 'dns', 'ntp', 'dhcp', 'tftp', 'snmp', 'sip', 'ike', 'ikev2', 'quic',
            'krb5', 'nfs', 'dcerpc', 'enip', 'bittorrent-dht'}
ANY = {'ip', 'any', 'pkthdr'}
BODY = {'file_data', 'file.data', 'http.response_body', 'http_server_body'}


def rule_groups(line):
    """(fast pattern bytes, set of groups) of one rule, or None."""
    head, _, _ = line.partition('(')
    parts = head.split()
    if len(parts) < 2:
        return None
    proto = parts[1].lower()
    lp, rp = line.find('('), line.rfind(')')
    if lp < 0 or rp < lp:
        return None
    cont, buf = [], None       # [bytes, negated, fast_pattern, buffer]
    for opt in xp.split_options(line[lp + 1:rp]):
        key, _, val = opt.partition(':')
        key = key.strip()
        if key == 'content':
            data, neg = xp.parse_content(val)
            if data is None:
                return None
            cont.append([data, neg, None, buf])
        elif key == 'fast_pattern' and cont:
            cont[-1][2] = val.strip() or 'plain'
        elif not val and key in ('pkt_data',):
            buf = None
        elif not val and (key in BODY or ('.' in key and not key.startswith(('flow', 'tcp.', 'ip')))):
            buf = key                      # a sticky buffer
        elif not val and key.startswith('http_') and cont:
            cont[-1][3] = key              # a content modifier (old form)
        elif not val and key in ('dns_query', 'tls_sni', 'tls_cert_subject') and cont:
            cont[-1][3] = key
    cand = [c for c in cont if c[0] and not c[1]]
    if not cand:
        return None
    fp = next((c for c in cand if c[2] is not None), None) or max(cand, key=lambda c: len(c[0]))
    data = fp[0]
    if fp[2] and ',' in fp[2]:
        off, ln = (int(x) for x in fp[2].split(','))
        data = data[off:off + ln]
    if not data:
        return None
    if fp[3] is None:
        g = set()
        if proto in TCP_APPS or proto in ANY:
            g |= {G_TCP, G_STREAM}
        if proto in UDP_APPS or proto in ANY:
            g.add(G_UDP)
        return data, g
    if fp[3] in BODY:
        return data, {G_STREAM}
    return data, set()


def groups_of(rules_path):
    pats = [dict(), dict(), dict()]
    cpu = 0
    if os.path.isdir(rules_path):
        files = sorted(os.path.join(rules_path, f) for f in os.listdir(rules_path)
                       if f.startswith('emerging-') and f.endswith('.rules'))
    else:
        files = [rules_path]
    for path in files:
        with open(path, encoding='utf-8', errors='replace') as f:
            for line in f:
                line = line.strip()
                if not line or line.startswith('#'):
                    continue
                r = rule_groups(line)
                if r is None:
                    continue
                if not r[1]:
                    cpu += 1
                for g in r[1]:
                    pats[g].setdefault(r[0].lower(), None)
    return [list(p) for p in pats], cpu


# ---- capture ----

def packets(path):
    """(key, flags, seq, payload) of TCP/UDP packets with a payload:
    key = (proto, src, dst, sport, dport); flags 0 for UDP."""
    d = open(path, 'rb').read()
    magic = d[:4]
    if magic in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1'):
        en = '<'
    elif magic in (b'\xa1\xb2\xc3\xd4', b'\xa1\xb2\x3c\x4d'):
        en = '>'
    else:
        print('engine-batch.py: %s: not a classic pcap, left out' % path, file=sys.stderr)
        return
    link = struct.unpack(en + 'I', d[20:24])[0]
    off = 24
    while off + 16 <= len(d):
        _, _, incl, orig = struct.unpack(en + 'IIII', d[off:off + 16])
        pkt = d[off + 16:off + 16 + incl]
        off += 16 + incl
        if incl < orig:
            continue
        r = decode(link, pkt)
        if r:
            yield r


def decode(link, p):
    if link == 1:
        et, o = struct.unpack('!H', p[12:14])[0] if len(p) >= 14 else 0, 14
        while et in (0x8100, 0x88a8) and len(p) >= o + 4:
            et, o = struct.unpack('!H', p[o + 2:o + 4])[0], o + 4
        if et not in (0x0800, 0x86dd):
            return None
        p = p[o:]
    elif link == 113:
        p = p[16:]
    elif link not in (101, 12, 14):
        return None
    if not p:
        return None
    ver = p[0] >> 4
    if ver == 4 and len(p) >= 20:
        ihl = (p[0] & 15) * 4
        tot = struct.unpack('!H', p[2:4])[0]
        if struct.unpack('!H', p[6:8])[0] & 0x1fff or tot > len(p) or ihl < 20:
            return None
        proto, src, dst, seg = p[9], p[12:16], p[16:20], p[ihl:tot]
    elif ver == 6 and len(p) >= 40:
        plen = struct.unpack('!H', p[4:6])[0]
        proto, src, dst, seg = p[6], p[8:24], p[24:40], p[40:40 + plen]
        o = 0
        while proto in (0, 43, 60) and len(seg) >= o + 8:
            proto, o = seg[o], o + (seg[o + 1] + 1) * 8
        seg = seg[o:]
    else:
        return None
    if proto == 6 and len(seg) >= 20:
        doff = (seg[12] >> 4) * 4
        sp, dp, seq = struct.unpack('!HHI', seg[:8])
        pl = seg[doff:] if doff >= 20 else b''
        return (6, src, dst, sp, dp), seg[13], seq, pl
    if proto == 17 and len(seg) >= 8:
        sp, dp = struct.unpack('!HH', seg[:4])
        return (17, src, dst, sp, dp), 0, 0, seg[8:]
    return None


def gro(pkts):
    """Coalesce in-sequence TCP segments of a flow direction (see above)."""
    open_, order, n = {}, [], 0
    out = []

    def flush(k):
        f = open_.pop(k)
        out.append((f['i'], (k, f['flags'], f['seq'], bytes(f['pl']))))

    for k, fl, seq, pl in pkts:
        n += 1
        if k[1] != 6 or not pl:
            out.append((n, (k, fl, seq, pl)))
            continue
        f = open_.get(k)
        if f and (seq != f['next'] or len(f['pl']) + len(pl) > VIEW_MAX or n - f['last'] > 64
                  or fl & 0x02):
            flush(k)
            f = None
        if f is None:
            f = open_[k] = {'i': n, 'flags': fl, 'seq': seq, 'pl': bytearray(), 'next': seq}
        f['pl'] += pl
        f['flags'] |= fl
        f['next'] = (seq + len(pl)) & 0xffffffff
        f['last'] = n
        if fl & 0x09:          # PSH or FIN ends a GRO packet
            flush(k)
        for old in [x for x, g in open_.items() if n - g['last'] > 64]:
            flush(old)
    for k in list(open_):
        flush(k)
    out.sort(key=lambda t: t[0])
    return [t[1] for t in out]


def views(pkts, ctx_max):
    tails = {}
    for k, fl, seq, pl in pkts:
        if not pl:
            continue
        if k[1] == 17:
            yield G_UDP, 0, pl
            continue
        t = tails.get(k, b'')
        if fl & 0x02:
            t = b''
        ctx = t if len(t) + len(pl) <= VIEW_MAX else b''
        yield G_TCP, 0, pl[:VIEW_MAX]
        yield G_STREAM, 1, (ctx + pl)[:VIEW_MAX]
        tails[k] = (t + pl)[-ctx_max:] if ctx_max else b''


def main(argv):
    args = [a for a in argv[1:] if not a.startswith('--')]
    if len(args) < 3:
        sys.exit(__doc__)
    rules, out, pcaps = args[0], args[1], args[2:]
    os.makedirs(out, exist_ok=True)
    pats, cpu = groups_of(rules)
    for g, ps in enumerate(pats):
        with open(os.path.join(out, 'group-%d.hex' % g), 'w') as f:
            for p in ps:
                f.write(p.hex() + '\n')
    smax = max((len(p) for p in pats[G_STREAM]), default=1)
    ctx_max = min(smax - 1, TAIL_MAX)
    pk = []
    for i, pcap in enumerate(pcaps):
        one = [((i,) + k, fl, seq, pl) for k, fl, seq, pl in packets(pcap)]
        pk += gro(one) if '--gro' in argv else one
    desc, body = [], []
    for g, v, b in views(pk, ctx_max):
        desc.append((len(b), g, v))
        body.append(b)
    with open(os.path.join(out, 'engine.acpg'), 'wb') as f:
        f.write(b'ACPG' + struct.pack('<I', len(desc)))
        for ln, g, v in desc:
            f.write(struct.pack('<IHH', ln, g, v))
        for b in body:
            f.write(b)
    lens = sorted(x[0] for x in desc)
    tot = sum(lens)
    print('groups: tcp %d, stream %d, udp %d patterns (%d fast patterns in other buffers: CPU); '
          'stream context %d bytes' % (len(pats[0]), len(pats[1]), len(pats[2]), cpu, ctx_max))
    print('views: %d (%d packet, %d stream), %d bytes; length p50 %d, p99 %d, max %d; '
          '%d over 1500' % (len(desc), sum(1 for x in desc if x[2] == 0),
                            sum(1 for x in desc if x[2] == 1), tot, lens[len(lens) // 2],
                            lens[len(lens) * 99 // 100], lens[-1], sum(1 for x in lens if x > 1500)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
