#!/bin/bash
# Foundation benchmark: pcap-file throughput of decode + flow, against the ceiling.
#
#   qa/bench/bench-foundation.sh [BENCH_PCAP]
#       BENCH_PCAP  default /work/bench/bench-10x.pcap; when missing it is built with
#                   ../shared/tools/make-bench-pcap.sh into /tmp/bench (10 copies).
#   env: SUR_BIN (default ./src/suricata), YAML (default ./suricata.yaml),
#        CEILING (default ./qa/bench/pcap-ceiling), RUNS (default 1: best of N)
# Requirements: GNU time as /usr/bin/time (apt-get install -y time), libpcap-dev, gcc.
#
# One run measures, on the same file, after one warm-up read (page cache):
#   1. ceiling: qa/bench/pcap-ceiling, a bare pcap_next_ex loop;
#   2. suricata --disable-detection --runmode single;
#   3. suricata --disable-detection --runmode autofp (default workers: 2 on 2 cores);
# wall time, packets/s, Mbit/s (captured bytes) and peak RSS, and prints a table
# with each run's ratio to the ceiling. Target: single >= 40% of the ceiling.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
pcap=${1:-/work/bench/bench-10x.pcap}
SUR_BIN=${SUR_BIN:-$root/src/suricata}
YAML=${YAML:-$root/suricata.yaml}
CEILING=${CEILING:-$root/qa/bench/pcap-ceiling}
RUNS=${RUNS:-1}

[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install -y time" >&2; exit 1; }
if [ ! -f "$pcap" ]; then
	echo "$pcap missing: building it with make-bench-pcap.sh into /tmp/bench" >&2
	"$root/../shared/tools/make-bench-pcap.sh" /tmp/bench 10 >&2 || exit 1
	pcap=/tmp/bench/bench-10x.pcap
fi
if [ ! -x "$CEILING" ]; then
	CEILING=/tmp/pcap-ceiling
	gcc -O2 -std=gnu11 "$root/qa/bench/pcap-ceiling.c" -o "$CEILING" \
		$(pkg-config --cflags --libs libpcap) || exit 1
fi
for f in "$SUR_BIN" "$YAML"; do
	[ -e "$f" ] || { echo "$f not found (build the tree first)" >&2; exit 1; }
done

tmp=$(mktemp -d /tmp/bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cat "$pcap" >/dev/null     # warm the page cache: every run reads from memory

# measure NAME CMD...: best wall time of RUNS runs -> "$tmp/NAME" = "secs rss_kb rc"
measure() {
	local name=$1 best="" i
	shift
	for ((i = 0; i < RUNS; i++)); do
		rm -rf "$tmp/log" && mkdir -p "$tmp/log"
		/usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >"$tmp/$name.out" 2>&1
		local rc=$? t rss
		read -r t rss <"$tmp/time" 2>/dev/null || { t=0; rss=0; }
		if [ $rc -ne 0 ]; then
			echo "$name: exit $rc:" >&2
			tail -n 5 "$tmp/$name.out" >&2
		fi
		if [ -z "$best" ] || awk -v a="$t" -v b="${best%% *}" 'BEGIN {exit !(a < b)}'; then
			best="$t $rss $rc"
		fi
	done
	echo "$best" >"$tmp/$name"
}

measure ceiling "$CEILING" "$pcap"
# packets and captured bytes as libpcap reads them: the rates' numerators
read -r _ pkts _ bytes _ < <(grep '^packets ' "$tmp/ceiling.out")
measure single "$SUR_BIN" -c "$YAML" -r "$pcap" -l "$tmp/log" --runmode single --disable-detection
# the engine's own packet count, to catch a run that silently read less
grep -o 'read [0-9]* files, [0-9]* packets' "$tmp/single.out" | head -n1 >"$tmp/single.read"
measure autofp "$SUR_BIN" -c "$YAML" -r "$pcap" -l "$tmp/log" --runmode autofp --disable-detection
# decode+flow alone: the same single run without eve.json (75k flow records are
# most of the difference). outputs.1 is eve-log in our suricata.yaml.
measure bare "$SUR_BIN" -c "$YAML" -r "$pcap" -l "$tmp/log" --runmode single --disable-detection \
	--set outputs.1.eve-log.enabled=no

read -r ct _ _ <"$tmp/ceiling"
printf '%s\n' "bench: $pcap ($pkts packets, $bytes bytes), $(nproc) cores, $(date +%F)"
printf '%-28s %8s %12s %10s %10s %9s %5s\n' run wall_s packets/s Mbit/s peak_RSS_MB vs_ceiling exit
for name in ceiling single autofp bare; do
	read -r t rss rc <"$tmp/$name"
	awk -v n="$name" -v t="$t" -v rss="$rss" -v rc="$rc" -v p="$pkts" -v b="$bytes" -v ct="$ct" 'BEGIN {
		label = (n == "ceiling") ? "pcap-ceiling (libpcap loop)" : \
			(n == "bare") ? "single, no eve (decode+flow)" : "suricata " n " (no detect)"
		if (t <= 0) t = 0.001
		printf "%-28s %8.2f %12.0f %10.1f %10.1f %8.1f%% %5s\n", label, t, p / t, b * 8 / t / 1e6, rss / 1024, 100 * ct / t, rc
	}'
done
[ -s "$tmp/single.read" ] && echo "engine: $(cat "$tmp/single.read")"
read -r st _ src <"$tmp/bare"
read -r et _ _ <"$tmp/single"
awk -v ct="$ct" -v st="$st" -v et="$et" -v rc="$src" 'BEGIN {
	r = (st > 0) ? 100 * ct / st : 0
	e = (et > 0) ? 100 * ct / et : 0
	printf "target: decode+flow single >= 40%% of the ceiling: %.1f%% %s (with eve flow records: %.1f%%)\n", r, (rc == 0 && r >= 40) ? "MET" : "NOT MET", e
}'
