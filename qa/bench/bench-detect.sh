#!/bin/bash
# Detection benchmark: Emerging Threats Open (all emerging-*.rules) on bench-10x.pcap.
#   qa/bench/bench-detect.sh [BENCH_PCAP]
#   env: SUR_BIN (./src/suricata), YAML (./suricata.yaml), ET_DIR
#        (../shared/data/rules/et-open-4.0), RUNS (best of, default 2)
# Prints, in one run: rule-load time (-T, ac and hs), then wall time, packets/s,
# Mbit/s and peak RSS of single and autofp (2 workers on this machine) with ac and
# hs. "pps excl. load" divides by the wall time minus the load time; "pps packet
# phase" by the time the engine itself logs for the packet phase (runmode
# start to end: "packets processed in X s"), which does not depend on a
# separate load measurement. Each figure is the best of RUNS runs.
# Needs GNU time (apt-get install time).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
SUR_BIN=${SUR_BIN:-$root/src/suricata}
YAML=${YAML:-$root/suricata.yaml}
ET_DIR=${ET_DIR:-${SURICATA_SHARED:-$root/../shared}/data/rules/et-open-4.0}
RUNS=${RUNS:-2}
pcap=${1:-/work/bench/bench-10x.pcap}
[ -f "$pcap" ] || { echo "no $pcap: make it with ../shared/tools/make-bench-pcap.sh DIR 10" >&2; exit 1; }
[ -d "$ET_DIR" ] || { echo "no ET rules at $ET_DIR" >&2; exit 1; }
tmp=$(mktemp -d /tmp/bench-detect.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cat "$ET_DIR"/emerging-*.rules > "$tmp/et.rules"
cat "$pcap" > /dev/null
common=(-c "$YAML" --set "classification-file=$ET_DIR/classification.config" -S "$tmp/et.rules")

best() { # NAME CMD...: best of RUNS -> "$tmp/NAME" = "secs rss_kb rc", "$tmp/NAME.phase" = secs
	local name=$1 b="" ph="" i t rss rc p
	shift
	for ((i = 0; i < RUNS; i++)); do
		rm -rf "$tmp/log" && mkdir -p "$tmp/log"
		/usr/bin/time -f '%e %M' -o "$tmp/time" "$@" > "$tmp/$name.out" 2>&1
		rc=$?
		read -r t rss < <(tail -n 1 "$tmp/time")
		if [ -z "$b" ] || awk -v a="$t" -v c="${b%% *}" 'BEGIN {exit !(a < c)}'; then b="$t $rss $rc"; fi
		p=$(grep -o 'packets processed in [0-9.]*' "$tmp/log/suricata.log" 2>/dev/null | awk '{print $4}')
		if [ -n "$p" ] && { [ -z "$ph" ] || awk -v a="$p" -v c="$ph" 'BEGIN {exit !(a < c)}'; }; then ph=$p; fi
	done
	echo "$b" > "$tmp/$name"
	echo "${ph:--}" > "$tmp/$name.phase"
	[ -f "$tmp/log/eve.json" ] && grep -c '"event_type":"alert"' "$tmp/log/eve.json" > "$tmp/$name.alerts"
}

for algo in ac hs; do
	best "load-$algo" "$SUR_BIN" "${common[@]}" --set mpm-algo=$algo -T
done
pkts=$(capinfos -c -M "$pcap" | awk '/Number of packets/ {print $NF}')
bytes=$(capinfos -d -M "$pcap" | awk '/Data size/ {print $(NF-1)}')
for algo in ac hs; do
	for mode in single autofp; do
		best "$algo-$mode" "$SUR_BIN" "${common[@]}" --set mpm-algo=$algo -r "$pcap" -l "$tmp/log" --runmode $mode
	done
done

echo "bench: $pcap ($pkts packets, $bytes bytes), ET Open $(grep -c '^alert\|^drop' "$tmp/et.rules") rules, $(nproc) cores, $(date +%F)"
grep -E "rules loaded|loaded," "$tmp/load-ac.out" | head -3
for algo in ac hs; do
	read -r t rss rc < "$tmp/load-$algo"
	awk -v a=$algo -v t="$t" -v rss="$rss" -v rc="$rc" 'BEGIN {
		printf "load %-3s: %.2f s (peak RSS %.0f MB, -T exit %s: 1 = some rules failed)\n", a, t, rss / 1024, rc
	}'
done
printf '%-12s %7s %10s %16s %17s %11s %9s %11s %7s %5s\n' run wall_s packets/s "pps excl. load" "pps packet phase" phase_s Mbit/s peak_RSS_MB alerts exit
for algo in ac hs; do
	read -r lt _ _ < "$tmp/load-$algo"
	for mode in single autofp; do
		read -r t rss rc < "$tmp/$algo-$mode"
		ph=$(cat "$tmp/$algo-$mode.phase")
		al=$(cat "$tmp/$algo-$mode.alerts" 2>/dev/null || echo -)
		awk -v n="$algo-$mode" -v t="$t" -v lt="$lt" -v ph="$ph" -v rss="$rss" -v rc="$rc" -v p="$pkts" -v b="$bytes" -v al="$al" 'BEGIN {
			x = (t - lt > 0.01) ? t - lt : 0.01
			pp = (ph == "-") ? "-" : sprintf("%.0f", p / ph)
			printf "%-12s %7.2f %10.0f %16.0f %17s %11s %9.1f %11.1f %7s %5s\n", n, t, p / t, p / x, pp, ph, b * 8 / t / 1e6, rss / 1024, al, rc
		}'
	done
done
