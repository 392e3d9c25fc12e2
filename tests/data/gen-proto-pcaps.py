#!/usr/bin/python3
"""Writes the hand-built captures of protocol features no shared capture has:

  websocket/deflate.pcap   WebSocket with permessage-deflate (RFC 7692)

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


def main():
    gen_websocket_deflate()
    print('\n'.join(g.manifest))


if __name__ == '__main__':
    main()
