#!/usr/bin/python3
"""Writes the hand-built captures of protocol features no shared capture has:

  websocket/deflate.pcap   WebSocket with permessage-deflate (RFC 7692)
  smb/setinfo.pcap         SMB1 TRANS2 SET_PATH/FILE_INFO deletes and renames,
                           SMB1 RENAME, SMB2 SET_INFO disposition

Run with the system python (scapy):  /usr/bin/python3 tests/data/gen-proto-pcaps.py
It reuses gen-pcaps.py's writer, so the files are byte-identical on every run.
"""
import importlib.util
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location('genpcaps', os.path.join(HERE, 'gen-pcaps.py'))
g = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(g)
from scapy.all import IP, TCP, Raw  # noqa: E402


def tcp_exchange(segments, sport=40100, dport=80, base=g.T0 + 500):
    """3WHS, then each (to_server, bytes) as one segment acked by the other
    side, FIN close. Segments over 1400 bytes are cut."""
    ipc, ips = IP(src=g.C4, dst=g.S4), IP(src=g.S4, dst=g.C4)
    cs, ss = 3000, 7000
    A = lambda fl, seq, ack, data=b'': ipc / TCP(sport=sport, dport=dport, flags=fl, seq=seq, ack=ack, window=65535) / (Raw(data) if data else b'')
    B = lambda fl, seq, ack, data=b'': ips / TCP(sport=dport, dport=sport, flags=fl, seq=seq, ack=ack, window=65535) / (Raw(data) if data else b'')
    c, s = cs + 1, ss + 1
    frames = [(A('S', cs, 0), True), (B('SA', ss, c), False), (A('A', c, s), True)]
    for to_server, data in segments:
        for i in range(0, len(data), 1400):
            part = data[i:i + 1400]
            if to_server:
                frames.append((A('PA', c, s, part), True))
                c += len(part)
                frames.append((B('A', s, c), False))
            else:
                frames.append((B('PA', s, c, part), False))
                s += len(part)
                frames.append((A('A', c, s), True))
    frames += [(A('FA', c, s), True), (B('FA', s, c + 1), False), (A('A', c + 1, s + 1), True)]
    return g.seq_ts(base, [(g.eth(f), d) for f, d in frames])


def ws_frame(b0, payload, mask=None):
    n = len(payload)
    if n < 126:
        hdr = bytes([b0, (0x80 if mask else 0) | n])
    elif n < 65536:
        hdr = bytes([b0, (0x80 if mask else 0) | 126]) + struct.pack('>H', n)
    else:
        hdr = bytes([b0, (0x80 if mask else 0) | 127]) + struct.pack('>Q', n)
    if mask:
        payload = bytes(b ^ mask[i & 3] for i, b in enumerate(payload))
        hdr += mask
    return hdr + payload


def pmd(comp, data):
    """one message through a sender's compressor: sync flush, tail cut
    (RFC 7692 7.2.1)"""
    out = comp.compress(data) + comp.flush(zlib.Z_SYNC_FLUSH)
    assert out.endswith(b'\x00\x00\xff\xff')
    return out[:-4]


def gen_websocket_deflate():
    """The client offers permessage-deflate, the 101 agrees with
    server_no_context_takeover and server_max_window_bits=10. Client
    messages (context kept): "open the pod bay doors, HAL" twice, the second
    a back-reference, then in two fragments "secret-command: launch".
    Server messages (each compressor fresh, 10-bit window): "I'm sorry Dave"
    twice, then a 1 MiB run of 'A' (a bomb: 1 KiB on the wire) and "done"."""
    req = (b'GET /chat HTTP/1.1\r\nHost: ws.example\r\nUpgrade: websocket\r\n'
           b'Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n'
           b'Sec-WebSocket-Version: 13\r\n'
           b'Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n')
    resp = (b'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n'
            b'Connection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n'
            b'Sec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover; '
            b'server_max_window_bits=10\r\n\r\n')
    key = b'\x11\x22\x33\x44'
    cc = zlib.compressobj(9, zlib.DEFLATED, -15)
    m1 = pmd(cc, b'open the pod bay doors, HAL')
    m2 = pmd(cc, b'open the pod bay doors, HAL')
    m3 = pmd(cc, b'secret-command: launch')

    def srv(data):
        return pmd(zlib.compressobj(9, zlib.DEFLATED, -10), data)
    s1, s2 = srv(b"I'm sorry Dave"), srv(b"I'm sorry Dave")
    bomb, done = srv(b'A' * (1 << 20)), srv(b'done')
    segs = [
        (True, req), (False, resp),
        (True, ws_frame(0xc1, m1, key)), (True, ws_frame(0xc1, m2, key)),
        (True, ws_frame(0x41, m3[:5], key) + ws_frame(0x80, m3[5:], key)),
        (False, ws_frame(0xc1, s1)), (False, ws_frame(0xc1, s2)),
        (False, ws_frame(0xc2, bomb)), (False, ws_frame(0xc1, done)),
    ]
    g.write('websocket/deflate.pcap', tcp_exchange(segs),
            note='websocket permessage-deflate')

def u16le(s):
    return s.encode('utf-16-le')


def nbss(msg):
    return struct.pack('>I', len(msg)) + msg


def smb1(cmd, resp, mid, words, data=b'', uid=100, tid=2048):
    """An NBSS-framed SMB1 message: unicode and NT status flags2."""
    hdr = (b'\xffSMB' + bytes([cmd]) + b'\0\0\0\0' + bytes([0x98 if resp else 0x18]) +
           struct.pack('<HH8sHHHHH', 0xc807, 0, b'', 0, tid, 0xfeff, uid, mid))
    return nbss(hdr + bytes([len(words) // 2]) + words + struct.pack('<H', len(data)) + data)


def trans2(mid, subcmd, params, data):
    """TRANS2 request (MS-CIFS 2.2.4.46.1): parameters at 68 from the
    header (after 3 pad bytes), data 4-aligned after them."""
    poff = 68
    doff = (poff + len(params) + 3) & ~3
    body = b'\0' * 3 + params + b'\0' * (doff - poff - len(params)) + data
    words = struct.pack('<HHHHBBHIHHHHHBBH', len(params), len(data), 2, 0, 0, 0, 0, 0, 0,
                        len(params), poff, len(data), doff, 1, 0, subcmd)
    return smb1(0x32, False, mid, words, body)


def trans2_resp(mid):
    return smb1(0x32, True, mid, struct.pack('<10H', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))


def rename_info(name):
    """FileRenameInformation: replace, 3 reserved, root FID, length, name."""
    n = u16le(name)
    return struct.pack('<B3sII', 0, b'', 0, len(n)) + n


def smb2(cmd, resp, mid, body, session=0x10000000001, tree=5):
    hdr = (b'\xfeSMB' + struct.pack('<HHIHHIIQIIQ16s', 64, 0, 0, cmd, 1, 1 if resp else 0, 0,
                                    mid, 0xfeff, tree, session, b''))
    return nbss(hdr + body)


def gen_smb_setinfo():
    """SMB1 on 445 (no negotiate): TRANS2 SET_PATH_INFO with the
    disposition level (delete "dir\\a.txt") and with the rename level
    ("dir\\a.txt" to "dir\\b.txt"), SET_FILE_INFO disposition of FID
    0x4001 (never seen created), QUERY_PATH_INFO (no transaction), RENAME
    "old.txt" to "new.txt"; each answered STATUS_SUCCESS. Then SMB2 on 445
    from port 40111: SET_INFO FileDispositionInformation (delete) of a
    FileId never seen created, answered."""
    path = u16le('dir\\a.txt') + b'\0\0'
    segs = [
        (True, trans2(1, 6, struct.pack('<HI', 1013, 0) + path, b'\x01')),
        (False, trans2_resp(1)),
        (True, trans2(2, 6, struct.pack('<HI', 1010, 0) + path, rename_info('dir\\b.txt'))),
        (False, trans2_resp(2)),
        (True, trans2(3, 8, struct.pack('<2sHH', b'\x01\x40', 1013, 0), b'\x01')),
        (False, trans2_resp(3)),
        (True, trans2(4, 5, struct.pack('<HI', 0x107, 0) + path, b'')),
        (False, trans2_resp(4)),
        # RENAME: format 4, old name (2-aligned: data starts at 37), format
        # 4, a pad byte, new name
        (True, smb1(0x07, False, 5, struct.pack('<H', 0x16),
                    b'\x04' + u16le('old.txt') + b'\0\0' + b'\x04\0' + u16le('new.txt') + b'\0\0')),
        (False, smb1(0x07, True, 5, b'')),
    ]
    fileid = bytes(range(1, 17))
    setinfo = struct.pack('<HBBIHHI16s', 33, 1, 13, 1, 96, 0, 0, fileid) + b'\x01'
    segs2 = [(True, smb2(0x11, False, 7, setinfo)), (False, smb2(0x11, True, 7, struct.pack('<H', 2)))]
    pkts = tcp_exchange(segs, sport=40110, dport=445) + tcp_exchange(segs2, sport=40111, dport=445,
                                                                      base=g.T0 + 600)
    g.write('smb/setinfo.pcap', pkts, note='smb1 trans2 set info, rename; smb2 disposition')


def main():
    gen_websocket_deflate()
    gen_smb_setinfo()
    print('\n'.join(g.manifest))


if __name__ == '__main__':
    main()
