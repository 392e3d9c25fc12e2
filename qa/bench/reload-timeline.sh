#!/bin/bash
# qa/bench/reload-timeline.sh: what a rule reload costs a live sensor, second
# by second: packets taken, dropped and alerted, and the engine's resident
# memory, while SIGUSR2 reloads the rules under steady traffic.
#
#   qa/bench/reload-timeline.sh [RULES [PCAP]]     (root; from the build tree)
#
# RULES (default /work/base/et.rules: all of ET Open), PCAP (default
# /tmp/bench/bench-1x.pcap) looped by tcpreplay at PPS packets/s (default
# 5000) into a veth pair in a namespace of its own (tests/live/common.sh);
# the engine captures on the other end with the shipped suricata.yaml
# (af-packet workers, stats every second). LEAD_S seconds of traffic, then
# RELOADS reloads (default 3), each sent GAP_S seconds (default 20) after the
# previous one finished, then TAIL_S seconds.
#
# Prints a fixed-column block for qa/bench/RESULTS.md, which
# `qa/bench/plot.py reload-timeline` draws (make charts):
#   t_s pkts_s drops_s alerts_s rss_MB      one row a stats interval; t from
#                                           the first stats record
#   reload N: usr2 at T s, done at T s (D s), R rules   each reload, from the
#                                           USR2 to the "rule reload: R rules
#                                           loaded" line
# Exit 1 when a reload did not finish within 300 s or the engine did not start.
builddir=$(pwd)
srcdir=$(cd "$(dirname "$0")/../.." && pwd)
bin=$builddir/src/suricata
yaml=$builddir/suricata.yaml
rules=${1:-/work/base/et.rules}
pcap=${2:-/tmp/bench/bench-1x.pcap}
PPS=${PPS:-5000}
RELOADS=${RELOADS:-3}
LEAD_S=${LEAD_S:-10}
GAP_S=${GAP_S:-20}
TAIL_S=${TAIL_S:-10}
for f in "$bin" "$yaml" "$rules" "$pcap"; do
	[ -e "$f" ] || { echo "reload-timeline: no $f" >&2; exit 2; }
done

. "$srcdir/tests/live/common.sh"
live_setup "reload timeline" rt

common=(-c "$yaml" -S "$rules" --af-packet="$vb" --set "stats.interval=1"
	--set "unix-command.enabled=no" -k none)
# rule loading of all of ET Open takes a while on a loaded machine
START_WAIT=1800
if ! start run; then
	echo "reload-timeline: the engine did not start: $(tail -2 "$tmp/run/out")" >&2
	exit 1
fi
log=$tmp/run/suricata.log
[ -f "$log" ] || log=$tmp/run/out
nsx tcpreplay -i "$va" --pps="$PPS" --loop=0 --preload-pcap "$pcap" > "$tmp/replay.out" 2>&1 &
rpid=$!
pids+=("$rpid")

# the engine's RSS twice a second, with the wall clock
( while alive "$epid"; do
	echo "$(date +%s.%N) $(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$epid/status" 2> /dev/null)"
	sleep 0.5
done ) > "$tmp/rss.txt" &
pids+=($!)

done_lines() { grep -c 'rule reload: [0-9]* rules loaded' "$log" 2> /dev/null; }
: > "$tmp/reloads.txt"
sleep "$LEAD_S"
rc=0
for i in $(seq 1 "$RELOADS"); do
	before=$(done_lines)
	t0=$(date +%s.%N)
	kill -USR2 "$epid"
	t1=
	for _ in $(seq 1 3000); do
		[ "$(done_lines)" -gt "$before" ] && { t1=$(date +%s.%N); break; }
		sleep 0.1
	done
	if [ -z "$t1" ]; then
		echo "reload-timeline: reload $i did not finish in 300 s" >&2
		rc=1
		break
	fi
	n=$(grep -o 'rule reload: [0-9]* rules loaded' "$log" | tail -1 | grep -o '[0-9]*')
	echo "$i $t0 $t1 $n" >> "$tmp/reloads.txt"
	sleep "$GAP_S"
done
sleep "$TAIL_S"
kill "$rpid" 2> /dev/null
stop "$epid"

python3 - "$tmp/run/eve.json" "$tmp/rss.txt" "$tmp/reloads.txt" <<'PY'
import datetime
import json
import sys

eve, rss_file, rel_file = sys.argv[1:4]
stats = []
with open(eve) as f:
    for line in f:
        if '"event_type":"stats"' not in line:
            continue
        r = json.loads(line)
        t = datetime.datetime.strptime(r["timestamp"], "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()
        s = r["stats"]
        stats.append((t, s["decoder"]["pkts"], s.get("capture", {}).get("kernel_drops", 0),
                      s.get("detect", {}).get("alert", 0)))
rss = []
with open(rss_file) as f:
    for line in f:
        p = line.split()
        if len(p) == 2:
            rss.append((float(p[0]), int(p[1]) / 1024.0))
t_zero = stats[0][0]
print("%-6s %8s %8s %8s %7s" % ("t_s", "pkts_s", "drops_s", "alerts_s", "rss_MB"))
for (ta, pa, da, aa), (tb, pb, db, ab) in zip(stats, stats[1:]):
    dt = tb - ta
    if dt <= 0:
        continue
    # the largest RSS sampled in the interval: a reload's peak is brief
    m = [v for (t, v) in rss if ta < t <= tb]
    print("%-6.1f %8.0f %8.0f %8.1f %7.1f" % (tb - t_zero, (pb - pa) / dt, (db - da) / dt,
                                             (ab - aa) / dt, max(m) if m else float("nan")))
with open(rel_file) as f:
    for line in f:
        i, t0, t1, n = line.split()
        t0, t1 = float(t0), float(t1)
        print("reload %s: usr2 at %.1f s, done at %.1f s (%.1f s), %s rules"
              % (i, t0 - t_zero, t1 - t_zero, t1 - t0, n))
PY
[ "$rc" = 0 ] || exit 1
echo "engine: $(git -C "$srcdir" rev-parse --short HEAD), $(basename "$rules") $(grep -c '^alert\|^drop\|^pass\|^reject' "$rules") rules, $(basename "$pcap") looped at $PPS packets/s, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
