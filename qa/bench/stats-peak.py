#!/usr/bin/python3
"""The peak of some counters over every eve stats record of a run.

    stats-peak.py EVE.json [COUNTER ...]

Counters are dotted stats names (tcp.memuse); the default set is the memory
gauges and the refusals of the stream, flow and HTTP memcaps. Prints
name=value for each counter present, on one line."""

import json
import sys

DEFAULT = ("flow.memuse", "tcp.memuse", "tcp.reassembly_memuse", "http.memuse",
	   "tcp.ssn_memcap_drop", "tcp.segment_memcap_drop", "http.memcap", "flow.memcap",
	   "flow.emerg_mode_entered", "flow.active", "tcp.active_sessions")


def main():
	if len(sys.argv) < 2:
		sys.exit(__doc__)
	keys = sys.argv[2:] or DEFAULT
	peak = {}
	with open(sys.argv[1]) as f:
		for line in f:
			if '"event_type":"stats"' not in line:
				continue
			stats = json.loads(line)["stats"]
			for k in keys:
				v = stats
				for part in k.split("."):
					v = v.get(part) if isinstance(v, dict) else None
				if isinstance(v, int):
					peak[k] = max(peak.get(k, 0), v)
	print(" ".join("%s=%d" % (k, peak[k]) for k in keys if k in peak))


if __name__ == "__main__":
	main()
