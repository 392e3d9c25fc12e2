#!/bin/bash
# The alerts of the Emerging Threats Open rules must not depend on the runmode
# or the matcher: single/autofp x ac/hs give the same alert set.
#
#   qa/bench/et-alerts.sh [PCAP]        (default /work/bench/bench-1x.pcap)
#   env: SUR_BIN (./src/suricata), YAML (./suricata.yaml), ET_DIR
#
# Compares the sorted (timestamp, src, sport, dst, dport, sid, pcap_cnt) tuples
# of every run with the first, prints PASS/FAIL per run, then the alert count
# by sid and how many alerts carry app_proto http.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
SUR_BIN=${SUR_BIN:-$root/src/suricata}
YAML=${YAML:-$root/suricata.yaml}
ET_DIR=${ET_DIR:-${SURICATA_SHARED:-$root/../shared}/data/rules/et-open-4.0}
pcap=${1:-/work/bench/bench-1x.pcap}
[ -f "$pcap" ] || { echo "no $pcap: make it with ../shared/tools/make-bench-pcap.sh DIR 1" >&2; exit 1; }
[ -d "$ET_DIR" ] || { echo "no ET rules at $ET_DIR" >&2; exit 1; }
tmp=$(mktemp -d /tmp/et-alerts.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cat "$ET_DIR"/emerging-*.rules > "$tmp/et.rules"
algos="ac"
"$SUR_BIN" --build-info 2>/dev/null | grep -qi "hyperscan support: *yes" && algos="ac hs"

tuples() {
	python3 - "$1" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
	r = json.loads(line)
	if r.get("event_type") != "alert":
		continue
	print(r["timestamp"], r.get("src_ip"), r.get("src_port"), r.get("dest_ip"),
	      r.get("dest_port"), r["alert"]["signature_id"], r.get("pcap_cnt"),
	      r.get("app_proto", "-"))
EOF
}

fail=0 first=
for algo in $algos; do
	for mode in single autofp; do
		name=$algo-$mode
		mkdir -p "$tmp/$name"
		"$SUR_BIN" -c "$YAML" -r "$pcap" -l "$tmp/$name" --runmode $mode \
			--set mpm-algo=$algo --set "classification-file=$ET_DIR/classification.config" \
			-S "$tmp/et.rules" > "$tmp/$name/out" 2>&1 ||
			{ echo "FAIL: $name: exit $?"; fail=1; continue; }
		tuples "$tmp/$name/eve.json" | sort > "$tmp/$name.tuples"
		n=$(wc -l < "$tmp/$name.tuples")
		if [ -z "$first" ]; then
			first=$name
			echo "PASS: $name: $n alerts (the reference)"
		elif cmp -s "$tmp/$first.tuples" "$tmp/$name.tuples"; then
			echo "PASS: $name: $n alerts, identical to $first"
		else
			echo "FAIL: $name: $n alerts, differs from $first:"
			diff "$tmp/$first.tuples" "$tmp/$name.tuples" | head -10
			fail=1
		fi
	done
done
[ -n "$first" ] || exit 1
echo "alerts by sid ($first):"
awk '{print $6}' "$tmp/$first.tuples" | sort | uniq -c | sort -k1,1nr -k2,2n |
	awk '{printf "  %s x%s\n", $2, $1}'
echo "with app_proto http: $(awk '$8 == "http"' "$tmp/$first.tuples" | wc -l)"
exit $fail
