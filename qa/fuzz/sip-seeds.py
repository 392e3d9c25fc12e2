#!/usr/bin/python3
"""Writes fuzz_sip seeds from captures: the SIP messages of each capture
(UDP datagrams and TCP payloads that start like a SIP request or status
line), in the harness's chunk format (qa/fuzz/fuzz_sip.c: control byte,
bit 7 to client, bit 6 the UDP flow with (bits 0-4 + 1) * 16 bytes, else
bits 0-4 + 1 bytes of the TCP flow). The pcap reader is ssh-ftp-seeds.py's
for TCP; UDP datagrams are read here (IPv4, Ethernet).
Usage: sip-seeds.py OUTDIR PCAP...
       sip-seeds.py --pop3 OUTDIR PCAP...   (fuzz_pop3: POP3 flows to port 110
       as chunks of 32 bytes, mDNS datagrams to 5353 with bit 6)"""
import hashlib, importlib.util, os, re, struct, sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("sfseeds", os.path.join(here, "ssh-ftp-seeds.py"))
sf = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sf)

START = re.compile(rb"^(SIP/2\.0 \d{3}|[A-Z]+ \S+ SIP/2\.0\r?\n)")


def udp_payloads(path):
    d = open(path, "rb").read()
    if len(d) < 24 or d[:4] not in (b"\xd4\xc3\xb2\xa1", b"\xa1\xb2\xc3\xd4"):
        return
    e = "<" if d[:4] == b"\xd4\xc3\xb2\xa1" else ">"
    if struct.unpack(e + "I", d[20:24])[0] != 1:
        return
    off = 24
    while off + 16 <= len(d):
        incl = struct.unpack(e + "I", d[off + 8:off + 12])[0]
        fr = d[off + 16:off + 16 + incl]
        off += 16 + incl
        if len(fr) < 42 or fr[12:14] != b"\x08\x00" or fr[23] != 17:
            continue
        ihl = (fr[14] & 15) * 4
        yield fr[14 + ihl + 8:]


def pop3_main(out, paths):
    os.makedirs(out, exist_ok=True)
    for path in paths:
        blob = bytearray()
        try:
            for p in udp_payloads(path):
                if len(p) < 12 or len(p) > 512:
                    continue
                p = p + b"\0" * ((16 - len(p) % 16) % 16)
                blob.append(0x40 | (len(p) // 16 - 1))
                blob += p
            for key, (client, segs) in sf.flows(path).items():
                if not segs or not any(a[1] == 110 for a in key):
                    continue
                for d, seg in segs:
                    for k in range(0, len(seg), 32):
                        piece = seg[k:k + 32]
                        blob.append((0x80 if d else 0) | (len(piece) - 1))
                        blob += piece
        except (OSError, struct.error):
            continue
        if blob:
            blob = bytes(blob[:16384])
            name = "seed-" + hashlib.sha1(blob).hexdigest()[:16]
            with open(os.path.join(out, name), "wb") as f:
                f.write(blob)


def main():
    if sys.argv[1] == "--pop3":
        pop3_main(sys.argv[2], sys.argv[3:])
        return
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for path in sys.argv[2:]:
        blob = bytearray()
        try:
            for p in udp_payloads(path):
                if not START.match(p) or len(p) > 512:
                    continue
                d = 0x80 if p.startswith(b"SIP/") else 0
                p = p + b"\0" * ((16 - len(p) % 16) % 16)
                blob.append(d | 0x40 | (len(p) // 16 - 1))
                blob += p
            for key, (client, segs) in sf.flows(path).items():
                if not segs or not START.match(segs[0][1]):
                    continue
                for d, seg in segs:
                    for k in range(0, len(seg), 32):
                        piece = seg[k:k + 32]
                        blob.append((0x80 if d else 0) | (len(piece) - 1))
                        blob += piece
        except (OSError, struct.error):
            continue
        if blob:
            blob = bytes(blob[:16384])
            name = "seed-" + hashlib.sha1(blob).hexdigest()[:16]
            with open(os.path.join(out, name), "wb") as f:
                f.write(blob)


if __name__ == "__main__":
    main()
