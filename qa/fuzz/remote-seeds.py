#!/usr/bin/python3
"""Writes fuzz_remote seeds from captures: the TCP payloads of each flow on
an RFB (5900-5910), RDP (3389) or telnet (23) port, in the harness's chunk
format (qa/fuzz/fuzz_remote.c: a first byte picking the protocol, then
fuzz_ssh's chunks: a control byte, bit 7 the direction, bits 0-6 the
length - 1). Usage: remote-seeds.py OUTDIR PCAP..."""
import importlib.util, os, struct, sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("sfseeds", os.path.join(here, "ssh-ftp-seeds.py"))
sf = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sf)


def pick(ports):
    if ports & set(range(5900, 5911)):
        return 0
    if 3389 in ports:
        return 1
    if 23 in ports:
        return 2
    return None


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for path in sys.argv[2:]:
        try:
            fl = sf.flows(path)
        except (OSError, struct.error):
            continue
        for key, (client, segs) in fl.items():
            p = pick({key[0][1], key[1][1]})
            if segs and p is not None:
                # the framebuffer traffic after the handshake adds nothing
                sf.write(out, bytes([p]) + sf.chunks_ssh(segs)[:16384])


if __name__ == "__main__":
    main()
