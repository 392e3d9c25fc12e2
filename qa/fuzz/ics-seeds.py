#!/usr/bin/python3
"""Writes fuzz_ics seeds from captures: the payloads of each EtherNet/IP
(TCP and UDP 44818) and Modbus (TCP 502) flow in the harness's format
(qa/fuzz/fuzz_ics.c), which is fuzz_ber's: a byte naming the flow kind,
then chunks of at most 64 bytes. The pcap reading is ber-seeds.py's.
Usage: ics-seeds.py OUTDIR PCAP..."""
import importlib.util, os, sys

spec = importlib.util.spec_from_file_location(
    "ber_seeds", os.path.join(os.path.dirname(os.path.abspath(__file__)), "ber-seeds.py"))
ber = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ber)
ber.KINDS = {(6, 44818): 0, (17, 44818): 1, (6, 502): 2}

if __name__ == "__main__":
    ber.main()
