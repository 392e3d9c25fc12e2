#!/bin/bash
# Streams and HTTP: what they cost, and what bounds their memory.
#   qa/bench/bench-stream.sh [BENCH_PCAP]
#   env: SUR_BIN (./src/suricata), BEFORE_BIN (a binary without stream/HTTP; default:
#        built here from BEFORE_REV, 75b0bfa, the last commit before they were wired in),
#        YAML (./suricata.yaml), ET_DIR, RUNS (best of, default 3), FLOWS (half-open and
#        open sessions each, default 100000)
# Part 1: ET Open on bench-10x, one thread, ac: packets/s, peak RSS and alerts of the
#   engine before and after streams and HTTP, run alternately, and their ratio.
# Part 2: a generated capture of FLOWS half-open and FLOWS open HTTP sessions, all
#   alive at the last packet (qa/bench/gen-flows-pcap.py): peak RSS and the peak of
#   the memory counters (stats every second; a short run may catch few), with the
#   default memcaps (HTTP unlimited, as Suricata), with a 16 MB HTTP memcap, and with
#   every cap small; the caps must hold and the refusals be counted.
#   PARTS=2 runs only this part.
# Needs GNU time, capinfos and python3.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
SUR_BIN=${SUR_BIN:-$root/src/suricata}
YAML=${YAML:-$root/suricata.yaml}
ET_DIR=${ET_DIR:-${SURICATA_SHARED:-$root/../shared}/data/rules/et-open-4.0}
RUNS=${RUNS:-3}
FLOWS=${FLOWS:-100000}
BEFORE_REV=${BEFORE_REV:-75b0bfa}
pcap=${1:-/work/bench/bench-10x.pcap}
[ -f "$pcap" ] || { echo "no $pcap: make it with ../shared/tools/make-bench-pcap.sh DIR 10" >&2; exit 1; }
[ -d "$ET_DIR" ] || { echo "no ET rules at $ET_DIR" >&2; exit 1; }
tmp=$(mktemp -d /tmp/bench-stream.XXXXXX)
cleanup() {
	[ -d "$tmp/before-src" ] && git -C "$root" worktree remove --force "$tmp/before-src" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

PARTS=${PARTS:-12}
if [[ $PARTS == *1* ]] && [ -z "${BEFORE_BIN:-}" ]; then
	echo "building the engine at $BEFORE_REV (before streams and HTTP) ..." >&2
	git -C "$root" worktree add -q --detach "$tmp/before-src" "$BEFORE_REV" || exit 1
	(cd "$tmp/before-src" && ./autogen.sh && ./configure -q && make -j2 src/suricata) \
		> "$tmp/before-build.log" 2>&1 || { tail -20 "$tmp/before-build.log"; exit 1; }
	BEFORE_BIN=$tmp/before-src/src/suricata
fi

cat "$ET_DIR"/emerging-*.rules > "$tmp/et.rules"
[[ $PARTS == *1* ]] && cat "$pcap" > /dev/null
et=(--set "classification-file=$ET_DIR/classification.config" -S "$tmp/et.rules" --set mpm-algo=ac)

run() { # NAME BIN ARGS...: one timed run -> appends "secs rss_kb alerts" to $tmp/NAME
	local name=$1 bin=$2
	shift 2
	rm -rf "$tmp/log" && mkdir -p "$tmp/log"
	/usr/bin/time -f '%e %M' -o "$tmp/time" "$bin" -c "$YAML" -l "$tmp/log" "$@" > "$tmp/$name.out" 2>&1
	local al
	al=$(grep -c '"event_type":"alert"' "$tmp/log/eve.json" 2>/dev/null)
	echo "$(tail -n 1 "$tmp/time") ${al:-0}" >> "$tmp/$name"
}
best() { sort -n "$tmp/$1" | head -n 1; }

part1() {
	# Start-up alone (rule load, engine build, exit), to count packets/s over the
	# packet phase only: a run on the capture's first packet. Not -T: the engine
	# before 5b8051e stopped -T before building when a rule had failed.
	editcap -r "$pcap" "$tmp/one.pcap" 1 > /dev/null || exit 1
	for who in before after; do
		bin=$SUR_BIN; [ $who = before ] && bin=$BEFORE_BIN
		for ((i = 0; i < RUNS; i++)); do
			run "load-$who" "$bin" "${et[@]}" -r "$tmp/one.pcap" --runmode single
		done
	done
	for ((i = 0; i < RUNS; i++)); do
		run before "$BEFORE_BIN" "${et[@]}" -r "$pcap" --runmode single
		run after "$SUR_BIN" "${et[@]}" -r "$pcap" --runmode single
	done
	pkts=$(capinfos -c -M "$pcap" | awk '/Number of packets/ {print $NF}')
	bytes=$(capinfos -d -M "$pcap" | awk '/Data size/ {print $(NF-1)}')

	echo "bench: $pcap ($pkts packets), ET Open, ac, --runmode single, best of $RUNS, $(nproc) cores, $(date +%F)"
	printf '%-28s %7s %7s %12s %9s %11s %7s\n' engine wall_s load_s "pps excl." Mbit/s peak_RSS_MB alerts
	for who in before after; do
		read -r t rss al < <(best $who)
		read -r lt _ _ < <(best load-$who)
		label="before ($BEFORE_REV)"; [ $who = after ] && label="after ($(git -C "$root" rev-parse --short HEAD))"
		awk -v n="$label" -v t="$t" -v lt="$lt" -v rss="$rss" -v p="$pkts" -v b="$bytes" -v al="$al" 'BEGIN {
			x = (t - lt > 0.01) ? t - lt : 0.01
			printf "%-28s %7.2f %7.2f %12.0f %9.1f %11.1f %7s\n", n, t, lt, p / x, b * 8 / x / 1e6, rss / 1024, al
		}'
	done
	read -r tb _ _ < <(best before); read -r lb _ _ < <(best load-before)
	read -r ta _ _ < <(best after); read -r la _ _ < <(best load-after)
	awk -v tb="$tb" -v lb="$lb" -v ta="$ta" -v la="$la" 'BEGIN {
		printf "after/before packets/s: %.2f\n", (tb - lb) / (ta - la)
	}'
}
[[ $PARTS == *1* ]] && part1

part2() {
	# Part 2: concurrent sessions.
	flows=$tmp/flows.pcap
	python3 "$root/qa/bench/gen-flows-pcap.py" "$flows" "$FLOWS" "$FLOWS" || exit 1
	peak() { python3 "$root/qa/bench/stats-peak.py" "$1"; }
	echo
	echo "concurrent sessions: $FLOWS half-open + $FLOWS open HTTP, $(capinfos -c -M "$flows" | awk '/Number of packets/ {print $NF}') packets, all alive at the end"
	http_small=(--set app-layer.protocols.http.memcap=16mb)
	all_small=(--set stream.memcap=16mb --set stream.reassembly.memcap=16mb
		--set app-layer.protocols.http.memcap=16mb --set flow.memcap=32mb)
	for cfg in default http-16mb all-small; do
		extra=()
		[ $cfg = http-16mb ] && extra=("${http_small[@]}")
		[ $cfg = all-small ] && extra=("${all_small[@]}")
		rm -f "$tmp/flows-$cfg"
		run "flows-$cfg" "$SUR_BIN" -r "$flows" --runmode single --set stats.interval=1 "${extra[@]}"
		read -r t rss _ < "$tmp/flows-$cfg"
		printf '%-9s memcaps: wall %.2f s, peak RSS %.1f MB; peaks: %s\n' "$cfg" "$t" \
			"$(awk -v r="$rss" 'BEGIN {print r / 1024}')" "$(peak "$tmp/log/eve.json")"
	done
}
[[ $PARTS == *2* ]] && part2
exit 0
