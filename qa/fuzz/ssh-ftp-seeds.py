#!/usr/bin/python3
"""Writes fuzz_ssh and fuzz_ftp seeds from captures: the TCP payloads of
each SSH flow (one starting with "SSH-") and of each FTP control flow (port
21) with the capture's other TCP flows as the data flow, in the harnesses'
chunk formats (qa/fuzz/fuzz_ssh.c, fuzz_ftp.c).
Usage: ssh-ftp-seeds.py SSH_OUTDIR FTP_OUTDIR PCAP..."""
import hashlib, os, struct, sys


def packets(path):
    d = open(path, "rb").read()
    if len(d) < 24:
        return
    magic = d[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        e = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        e = ">"
    else:
        return                      # pcapng and others: not needed here
    link = struct.unpack(e + "I", d[20:24])[0]
    off = 24
    while off + 16 <= len(d):
        incl = struct.unpack(e + "I", d[off + 8:off + 12])[0]
        frame = d[off + 16:off + 16 + incl]
        off += 16 + incl
        if link == 1:
            if len(frame) < 14:
                continue
            et, p = struct.unpack(">H", frame[12:14])[0], frame[14:]
            while et == 0x8100 and len(p) >= 4:
                et, p = struct.unpack(">H", p[2:4])[0], p[4:]
        elif link == 113:
            if len(frame) < 16:
                continue
            et, p = struct.unpack(">H", frame[14:16])[0], frame[16:]
        elif link in (101, 12):
            p = frame
            et = 0x0800 if p[:1] and p[0] >> 4 == 4 else 0x86dd
        else:
            continue
        if et == 0x0800 and len(p) >= 20:
            ihl = (p[0] & 15) * 4
            if p[9] != 6:
                continue
            src, dst, t = p[12:16], p[16:20], p[ihl:]
        elif et == 0x86dd and len(p) >= 40:
            if p[6] != 6:
                continue
            src, dst, t = p[8:24], p[24:40], p[40:]
        else:
            continue
        if len(t) < 20:
            continue
        sp, dp = struct.unpack(">HH", t[:4])
        hl = (t[12] >> 4) * 4
        yield (src, sp), (dst, dp), t[13], t[hl:]


def flows(path):
    """{key: [client, [(dir, bytes)...]]} in capture order."""
    out = {}
    for a, b, flags, payload in packets(path):
        key = tuple(sorted([a, b]))
        if key not in out:
            # the SYN's sender is the client; else the first sender
            client = a if (flags & 0x12) != 0x12 else b
            out[key] = [client, []]
        if payload:
            out[key][1].append((0 if a == out[key][0] else 1, payload))
    return out


def chunks_ssh(segs):
    blob = bytearray()
    for d, seg in segs:
        for k in range(0, len(seg), 128):
            piece = seg[k:k + 128]
            blob.append((0x80 if d else 0) | (len(piece) - 1))
            blob += piece
    return bytes(blob)


def chunks_ftp(segs, data_flow, limit=8192):
    blob = bytearray()
    for flag, lst in ((0, segs), (0x40, data_flow)):
        for d, seg in lst:
            for k in range(0, len(seg), 32):
                piece = seg[k:k + 32]
                blob.append((0x80 if d else 0) | flag | (len(piece) - 1))
                blob += piece
                if len(blob) > limit:
                    return bytes(blob)
    blob.append(0xff)
    return bytes(blob)


def write(outdir, blob):
    if not blob:
        return
    name = "seed-" + hashlib.sha1(blob).hexdigest()[:16]
    with open(os.path.join(outdir, name), "wb") as f:
        f.write(blob)


def main():
    ssh_out, ftp_out = sys.argv[1], sys.argv[2]
    os.makedirs(ssh_out, exist_ok=True)
    os.makedirs(ftp_out, exist_ok=True)
    for path in sys.argv[3:]:
        try:
            fl = flows(path)
        except (OSError, struct.error):
            continue
        for key, (client, segs) in fl.items():
            if not segs:
                continue
            ports = {key[0][1], key[1][1]}
            if any(s[:4] == b"SSH-" for _, s in segs[:2]):
                write(ssh_out, chunks_ssh(segs))
            elif 21 in ports:
                other = []
                for k2, (c2, s2) in fl.items():
                    if k2 != key and s2:
                        other = s2[:16]
                        break
                write(ftp_out, chunks_ftp(segs, other))


if __name__ == "__main__":
    main()
