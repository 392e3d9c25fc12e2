#!/bin/bash
# Refactor check: do two builds write the same records? Runs BASE_BIN and
# NEW_BIN on a capture with every ET Open emerging-*.rules (runmode single,
# mpm-algo ac and hs) and compares the sorted eve.json (stats records left
# out: they carry run times) and the sorted fast.log byte for byte.
#
#   qa/bench/same-output.sh BASE_BIN NEW_BIN [PCAP]
#     default PCAP: /tmp/bench/bench-1x.pcap (../shared/tools/make-bench-pcap.sh)
# Prints "SAME algo: N alerts, N records" or "DIFF algo" with the first lines
# that differ; exit 1 on any DIFF. The capture's HTTP bodies meet libhtp's
# decompression time limit on a badly overloaded machine (an extra
# COMPRESSION_BOMB anomaly): run it on a quiet one.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${SURICATA_SHARED:-$root/../shared}
base=${1:?BASE_BIN}; new=${2:?NEW_BIN}; pcap=${3:-/tmp/bench/bench-1x.pcap}
et=$shared/data/rules/et-open-4.0
[ -f "$pcap" ] || { echo "FAIL: same-output: no $pcap"; exit 1; }
tmp=$(mktemp -d /tmp/same-output.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cat "$et"/emerging-*.rules > "$tmp/rules" || { echo "FAIL: same-output: no ET rules under $et"; exit 1; }
run() { # BIN ALGO OUT
	mkdir -p "$3"
	"$1" -c "$root/suricata.yaml" -r "$pcap" -S "$tmp/rules" --runmode single -k none -l "$3" \
		--set mpm-algo="$2" --set classification-file="$et/classification.config" \
		> "$3/console" 2>&1
	grep -v '"event_type":"stats"' "$3/eve.json" | LC_ALL=C sort > "$3/eve.sorted"
	LC_ALL=C sort "$3/fast.log" > "$3/fast.sorted"
}
rc=0
for algo in ac hs; do
	run "$base" $algo "$tmp/base-$algo"
	run "$new" $algo "$tmp/new-$algo"
	if cmp -s "$tmp/base-$algo/eve.sorted" "$tmp/new-$algo/eve.sorted" &&
	   cmp -s "$tmp/base-$algo/fast.sorted" "$tmp/new-$algo/fast.sorted"; then
		echo "SAME $algo: $(wc -l < "$tmp/new-$algo/fast.sorted") alerts, $(wc -l < "$tmp/new-$algo/eve.sorted") records"
	else
		echo "DIFF $algo"
		diff "$tmp/base-$algo/eve.sorted" "$tmp/new-$algo/eve.sorted" | head -5
		diff "$tmp/base-$algo/fast.sorted" "$tmp/new-$algo/fast.sorted" | head -5
		rc=1
	fi
done
exit $rc
