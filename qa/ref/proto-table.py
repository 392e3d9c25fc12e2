#!/usr/bin/env python3
"""Which captures hold which application protocol, as our engine names them.

    qa/ref/proto-table.py [--suricata BIN] [--yaml YAML] [--schema SCHEMA]
                          [--set KEY=VAL ...] PROTO=CAPTURE ...

Runs each capture with detection off (--runmode single, -k none, every
protocol of the yaml enabled as it is) and prints one markdown row per
PROTO=CAPTURE pair (--set: as the engine's, e.g. stream.midstream=true for
captures cut after the handshake, app-layer.protocols.dnp3.enabled=yes for
the protocols 8.0's yaml leaves off): the capture, its flows, how many of them our app_proto
names PROTO, the eve records of PROTO's type, and whether the whole eve
output validates against SCHEMA (tests/e2e/eve-validate.py). PROTO is the
app_proto name; its eve event_type is the same with '-' as '_' (doh2's
records are doh2, http2's are http). Exit 1 when a capture names no flow
PROTO.
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
EVENT_OF = {"http2": "http", "ftp-data": "ftp_data"}


def run(binary, yaml, pcap, outdir, sets):
	argv = [binary, "-c", yaml, "-r", pcap, "-k", "none", "--runmode", "single",
		"--disable-detection", "-l", outdir]
	for kv in sets:
		argv += ["--set", kv]
	return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
			      timeout=600).returncode


def main():
	ap = argparse.ArgumentParser()
	ap.add_argument("--suricata", default=os.path.join(TOP, "src", "suricata"))
	ap.add_argument("--yaml", default=os.path.join(TOP, "suricata.yaml"))
	ap.add_argument("--schema", default=os.path.join(TOP, "..", "shared", "data",
							 "eve-schema.json"))
	ap.add_argument("--set", action="append", default=[], dest="sets")
	ap.add_argument("pairs", nargs="+", metavar="PROTO=CAPTURE")
	a = ap.parse_args()
	bad = 0
	print("| protocol | capture | flows | app_proto = protocol | records | eve schema |")
	print("|---|---|---:|---:|---:|---|")
	for pair in a.pairs:
		proto, pcap = pair.split("=", 1)
		et = EVENT_OF.get(proto, proto.replace("-", "_"))
		with tempfile.TemporaryDirectory() as d:
			rc = run(a.suricata, a.yaml, pcap, d, a.sets)
			flows = named = records = 0
			path = os.path.join(d, "eve.json")
			lines = open(path).read().splitlines() if os.path.exists(path) else []
			for line in lines:
				r = json.loads(line)
				t = r.get("event_type")
				if t == "flow":
					flows += 1
					if r.get("app_proto") == proto:
						named += 1
				elif t == et and (et != "http" or "http2" in r.get("http", {})):
					records += 1
			v = subprocess.run([sys.executable, os.path.join(TOP, "tests", "e2e",
							     "eve-validate.py"), a.schema, path],
					   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
			valid = "valid" if v.returncode == 0 else \
				"INVALID: " + v.stdout.strip().splitlines()[0][:80]
		if rc != 0:
			valid += " (exit %d)" % rc
		if not named:
			bad = 1
		print("| %s | %s | %d | %d | %d | %s |" % (proto, os.path.basename(pcap), flows,
							   named, records, valid))
	return bad


if __name__ == "__main__":
	sys.exit(main())
