#!/usr/bin/python3
"""Which alerts of a -r run may differ on a live replay only because of time.

    timing-sids.py window RULES REF_EVE SPAN_S
        The pcap's own time decides -r's thresholds; a live replay stretches
        (or squeezes) it to SPAN_S seconds of wall clock. A rule that alerted
        in REF_EVE and counts within a window (threshold: or
        detection_filter: ... seconds N) shorter than SPAN_S can alert a
        different number of times live.
    timing-sids.py order RULES REF_EVE
        A rule that alerted in REF_EVE with a threshold shared by several
        flows (track by_src, by_dst, by_both, by_rule): which flow gets the
        alerts depends on which packet reaches the threshold first, and
        several capture threads do not keep -r's order between flows. Their
        count stays, their flows may not.
Prints the sids, comma-separated (empty line: none). Standard library only.
"""
import json
import re
import sys


def main(mode, rules, ref, span=0):
	span = float(span)
	sids = set()
	with open(ref) as f:
		for line in f:
			if '"event_type":"alert"' in line:
				sids.add(json.loads(line)["alert"]["signature_id"])
	out = []
	with open(rules, errors="replace") as f:
		for line in f:
			m = re.search(r"\bsid\s*:\s*(\d+)", line)
			if not m or int(m.group(1)) not in sids or line.lstrip().startswith("#"):
				continue
			for kw in re.findall(r"(?:threshold|detection_filter)\s*:([^;]*)", line):
				s = re.search(r"seconds\s+(\d+)", kw)
				t = re.search(r"track\s+by_(src|dst|both|rule)", kw)
				if mode == "window" and s and int(s.group(1)) < span or \
				   mode == "order" and t:
					out.append(int(m.group(1)))
					break
	print(",".join(str(s) for s in sorted(set(out))))
	return 0


if __name__ == "__main__":
	sys.exit(main(*sys.argv[1:5]))
