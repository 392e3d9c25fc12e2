#!/bin/bash
# Pcap sweep: every capture under ../shared/data/pcaps through the engine, twice.
#
#   qa/pcap-sweep.sh [SUR_BIN] [YAML]
#       SUR_BIN  default ./src/suricata      YAML  default ./suricata.yaml
#   env: SWEEP_DIR     captures folder (default <repo>/../shared/data/pcaps)
#        SWEEP_SAMPLE  N: only every k-th capture in name order, N of them (0 = all)
#        SWEEP_JOBS    parallel captures (default 2, the CI machine's cores)
#        SWEEP_TIMEOUT seconds per engine run (default 300)
#        SWEEP_KEEP=1  keep the log folders of failing captures
#
# Per capture, with --disable-detection, in --runmode single and autofp:
#   - exit status 0, and no sanitizer report on stderr (ASan/UBSan/LSan builds);
#   - final decoder.pkts equals the capture's packet count (capinfos -c -M, or
#     when capinfos refuses a cut-short file, the records tshark reads);
#   - single and autofp agree on every decoder.*, flow.* and defrag.* counter and
#     on the number of eve flow records, except the gauges and thread-layout
#     dependent ones listed in IGNORE below.
# Captures whose link type the engine does not decode (802.11, radiotap, PPI) may
# stop with exit 1 and a message (ok), or run and count every packet as usual.
# Output: "PASS: sweep FILE" or "FAIL: sweep FILE: failed|mismatch: why" per capture,
# then "N captures: N ok, N mismatch, N failed". Exit 1 unless all are ok.

# Counters that are gauges or depend on how many threads/tables there are.
IGNORE='flow\.active|flow\.memuse|flow\.spare|flow\.emerg_mode_entered|flow\.emerg_mode_over|flow\.mgr\.[a-z_.]*|flow\.wrk\.[a-z_.]*|flow\.recycler\.[a-z_.]*|flow\.get_used[a-z_]*|defrag\.memuse|defrag\.mgr\.[a-z_.]*|defrag\.wrk\.[a-z_.]*'
UNSUPPORTED_LINKTYPES=' ieee-802-11 ieee-802-11-radiotap ppi '

root=$(cd "$(dirname "$0")/.." && pwd)

# Prints the counters of the last eve stats record, one "name value" a line.
counters() {
	python3 - "$1" <<'PY'
import json, sys
last = None
with open(sys.argv[1], errors='replace') as f:
    for line in f:
        if '"stats"' not in line:
            continue
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if r.get('event_type') == 'stats':
            last = r.get('stats', {})
if last is None:
    sys.exit(3)
def walk(o, pre):
    for k, v in sorted(o.items()):
        if isinstance(v, dict):
            walk(v, pre + k + '.')
        elif pre.split('.')[0] in ('decoder', 'flow', 'defrag'):
            print(pre + k, v)
walk(last, '')
PY
}

expected_count() {
	local f=$1 n
	n=$(capinfos -c -M "$f" 2>/dev/null | sed -n 's/^Number of packets: *//p')
	if [ -z "$n" ]; then
		n=$(tshark -r "$f" -T fields -e frame.number 2>/dev/null | wc -l)
	fi
	echo "${n:-?}"
}

# Runs one mode; leaves eve.json, stderr and rc in $2.
run_mode() {
	local f=$1 dir=$2 mode=$3
	mkdir -p "$dir"
	timeout "$SWEEP_TIMEOUT" "$SUR_BIN" -c "$YAML" -r "$f" -l "$dir" --runmode "$mode" \
		--disable-detection >"$dir/stdout" 2>"$dir/stderr"
	echo $? >"$dir/rc"
}

sanitizer_report() {
	grep -m1 -E 'ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:' "$1"
}

one() {
	local f=$1 rel=${1#"$SWEEP_DIR"/} tmp why="" kind="" n lt
	tmp=$(mktemp -d /tmp/sweep.XXXXXX)
	lt=$(capinfos -T -E "$f" 2>/dev/null | awk -F'\t' 'NR==2 {print $2}')
	n=$(expected_count "$f")
	for mode in single autofp; do
		run_mode "$f" "$tmp/$mode" "$mode"
	done
	for mode in single autofp; do
		local d=$tmp/$mode rc
		rc=$(cat "$d/rc")
		if s=$(sanitizer_report "$d/stderr"); then
			kind=failed why="$mode: $s"; break
		fi
		if [ "$rc" = 124 ]; then
			kind=failed why="$mode: timed out after ${SWEEP_TIMEOUT}s"; break
		fi
		# a link type the engine does not decode may stop the run with a message;
		# if it runs instead, every packet must still be counted (checks below)
		if [ -n "$lt" ] && [[ "$UNSUPPORTED_LINKTYPES" == *" $lt "* ]] &&
		   [ "$rc" = 1 ] && [ -s "$d/stderr" ]; then
			continue
		fi
		if [ "$rc" != 0 ]; then
			kind=failed why="$mode: exit $rc: $(grep -v '^$' "$d/stderr" | tail -n 1 | cut -c1-200)"
			break
		fi
		if ! counters "$d/eve.json" >"$d/counters" 2>/dev/null; then
			kind=failed why="$mode: no stats record in eve.json"; break
		fi
		local pk
		pk=$(awk '$1 == "decoder.pkts" {print $2}' "$d/counters")
		if [ "$pk" != "$n" ]; then
			kind=mismatch why="$mode: decoder.pkts $pk, capture has $n packets"; break
		fi
		grep -Ev "^($IGNORE) " "$d/counters" | LC_ALL=C sort >"$d/compared"
		grep -c '"event_type":"flow"' "$d/eve.json" >"$d/flows"
	done
	if [ -z "$kind" ] && [ -f "$tmp/single/compared" ] && [ -f "$tmp/autofp/compared" ]; then
		local diffs
		diffs=$(LC_ALL=C join -a1 -a2 -e missing -o 0,1.2,2.2 "$tmp/single/compared" "$tmp/autofp/compared" |
			awk '$2 != $3 {printf "%s single=%s autofp=%s; ", $1, $2, $3}')
		if ! cmp -s "$tmp/single/flows" "$tmp/autofp/flows"; then
			diffs="${diffs}eve flow records single=$(cat "$tmp/single/flows") autofp=$(cat "$tmp/autofp/flows"); "
		fi
		[ -n "$diffs" ] && kind=mismatch why="single vs autofp: ${diffs%; }"
	fi
	if [ -z "$kind" ]; then
		echo "PASS: sweep $rel"
		rm -rf "$tmp"
	else
		echo "FAIL: sweep $rel: $kind: $why"
		if [ "${SWEEP_KEEP:-0}" = 1 ]; then
			echo "  logs kept: $tmp"
		else
			rm -rf "$tmp"
		fi
	fi
}

if [ "$1" = "--one" ]; then
	one "$2"
	exit 0
fi

export SUR_BIN=${1:-$root/src/suricata}
export YAML=${2:-$root/suricata.yaml}
export SWEEP_DIR=${SWEEP_DIR:-$root/../shared/data/pcaps}
export SWEEP_TIMEOUT=${SWEEP_TIMEOUT:-300}
export SWEEP_KEEP
[ -d "$SWEEP_DIR" ] || { echo "SKIP: pcap sweep ($SWEEP_DIR not found)"; exit 0; }
SWEEP_DIR=$(cd "$SWEEP_DIR" && pwd)
for tool in capinfos tshark python3 timeout; do
	command -v $tool >/dev/null || { echo "FAIL: sweep: $tool not installed"; exit 1; }
done
[ -x "$SUR_BIN" ] || { echo "FAIL: sweep: $SUR_BIN not built"; exit 1; }
[ -f "$YAML" ] || { echo "FAIL: sweep: $YAML not found"; exit 1; }

list=$(mktemp /tmp/sweep-list.XXXXXX)
out=$(mktemp /tmp/sweep-out.XXXXXX)
trap 'rm -f "$list" "$out"' EXIT
find "$SWEEP_DIR" -type f | LC_ALL=C sort >"$list"
total=$(wc -l <"$list")
sample=${SWEEP_SAMPLE:-0}
if [ "$sample" -gt 0 ] && [ "$sample" -lt "$total" ]; then
	# every k-th capture: a fixed, spread-out sample, the same on every run
	awk -v t="$total" -v n="$sample" 'NR - 1 == int(c * t / n) {print; c++}' "$list" >"$list.s"
	mv "$list.s" "$list"
fi

tr '\n' '\0' <"$list" | xargs -0 -n1 -P "${SWEEP_JOBS:-2}" "$0" --one | tee "$out"

n=$(wc -l <"$list")
ok=$(grep -c '^PASS:' "$out")
mism=$(grep -c '^FAIL: .*: mismatch:' "$out")
fail=$(grep -c '^FAIL: .*: failed:' "$out")
echo "$n captures: $ok ok, $mism mismatch, $fail failed"
if [ $((mism + fail)) -gt 0 ]; then
	echo "failures:"
	sed -n 's/^FAIL: sweep /  /p' "$out" | sort
	exit 1
fi
exit 0
