#!/usr/bin/python3
"""Writes fuzz_mqtt seeds from captures: the TCP payloads of each flow on
port 1883, in the harness's chunk format (qa/fuzz/fuzz_mqtt.c, the one of
fuzz_ssh: a control byte, bit 7 the direction, bits 0-6 the length - 1).
Usage: mqtt-seeds.py OUTDIR PCAP..."""
import importlib.util, os, struct, sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("sfseeds", os.path.join(here, "ssh-ftp-seeds.py"))
sf = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sf)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for path in sys.argv[2:]:
        try:
            fl = sf.flows(path)
        except (OSError, struct.error):
            continue
        for key, (client, segs) in fl.items():
            if segs and 1883 in {key[0][1], key[1][1]}:
                sf.write(out, sf.chunks_ssh(segs)[:65536])


if __name__ == "__main__":
    main()
