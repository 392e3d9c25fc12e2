#!/bin/bash
# A soak of the live sensor: bench-1x looped by tcpreplay at a moderate rate
# (SOAK_PPS, default 5000) for SOAK_S seconds (default 600) through a veth
# pair (MTU 9000) in a namespace of the script's own (tests/live/common.sh),
# into our engine with all ET Open rules (--af-packet, workers, 1 thread).
# The engine's VmRSS is sampled every 5 s (a time series: qa/bench/rss-poll.py
# gives peaks, not a curve); after the warm-up (WARMUP_S, default 120: the
# first loops fill the flow table, every later loop replays the same flows)
# it must stay flat: (max - min) / min <= 5%. Also: kernel drops 0, decoder
# packets == delivered.
#   qa/live/soak.sh [BUILDDIR [SRCDIR]]
# RECORD=1 appends the result to qa/bench/RESULTS.md. Root only; needs
# ../shared (ET Open, bench-1x).
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
here=$srcdir/tests/live
shared=${SURICATA_SHARED:-$srcdir/../shared}
et=$shared/data/rules/et-open-4.0
pcap=${LIVE_BENCH_DIR:-/tmp/bench}/bench-1x.pcap
PPS=${SOAK_PPS:-5000}
DUR=${SOAK_S:-600}
WARM=${WARMUP_S:-120}
frames=77774

[ -d "$et" ] || { echo "soak: no ET Open under $shared" >&2; exit 2; }
[ -s "$pcap" ] || "$shared/tools/make-bench-pcap.sh" "$(dirname "$pcap")" 1 || exit 2
. "$here/common.sh"
live_setup "soak" sk
cat "$et"/emerging-*.rules > "$tmp/et.rules"
bin=$builddir/src/suricata
common=(-c "$builddir/suricata.yaml" -S "$tmp/et.rules" --set "classification-file=$et/classification.config"
	-k none --set unix-command.enabled=no --set "af-packet.0.interface=$vb" --set af-packet.0.threads=1)
START_WAIT=1800 start soak --af-packet="$vb" --runmode workers || { ko "soak: the engine did not start"; exit 1; }
rss() { awk '/^VmRSS:/ {print $2}' "/proc/$epid/status" 2> /dev/null; }

t0=$(date +%s)
loops=$(( (PPS * DUR + frames - 1) / frames ))
nsx tcpreplay -i "$va" --pps="$PPS" -K --loop="$loops" --duration="$DUR" "$pcap" > "$tmp/soak/tcpreplay.out" 2>&1 &
rp=$!
: > "$tmp/rss.txt"
while alive "$rp"; do
	echo "$(($(date +%s) - t0)) $(rss) $(cut -d' ' -f1 /proc/loadavg)" >> "$tmp/rss.txt"
	sleep 5
done
wait "$rp"
sent=$(sent_of "$tmp/soak/tcpreplay.out")
sleep 3
echo "$(($(date +%s) - t0)) $(rss) $(cut -d' ' -f1 /proc/loadavg)" >> "$tmp/rss.txt"
stop "$epid" || ko "soak: no clean exit on SIGTERM"
clean soak
r=$(python3 "$here/check.py" traffic "$tmp/soak/eve.json" "$tmp/soak/eve.json" "$tmp/soak/out" "${sent:-0}" soak |
	grep -v "alert (sid, flow) pairs")
echo "$r"
pass=$((pass + $(grep -c '^PASS' <<< "$r")))
fail=$((fail + $(grep -c '^FAIL' <<< "$r")))
res=$(python3 - "$tmp/rss.txt" "$WARM" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if len(l.split()) == 3]
warm = [(int(t), int(r)) for t, r, _ in rows if int(t) >= int(sys.argv[2])]
allr = [int(r) for _, r, _ in rows]
loads = [float(x) for _, _, x in rows]
lo, hi = min(r for _, r in warm), max(r for _, r in warm)
print("%s %d %d %d %d %.1f %d %.2f %.2f" % ("ok" if (hi - lo) * 100 <= 5 * lo else "over",
      lo, hi, warm[0][1], warm[-1][1], (hi - lo) * 100.0 / lo, max(allr),
      min(loads), max(loads)))
PY
)
read -r v lo hi first last spread peak lmin lmax <<< "$res"
what="RSS after ${WARM} s: min $lo kB, max $hi kB (spread $spread%), first $first kB, last $last kB; peak over the run $peak kB"
if [ "$v" = ok ]; then ok "soak: $what: flat within 5%"; else ko "soak: $what: not flat within 5%"; fi
echo "soak: $DUR s at $PPS pps, sent ${sent:-0}; load average (1 min) $lmin-$lmax during the run"
if [ "$RECORD" = 1 ]; then
	{
		echo
		echo "## Live: 10-minute soak ($(date -u +%Y-%m-%d), $(git -C "$srcdir" rev-parse --short HEAD))"
		echo
		echo "qa/live/soak.sh: bench-1x looped at $PPS pps for $DUR s through a veth (MTU 9000) in a netns,"
		echo "AF_PACKET workers, 1 thread, all ET Open rules; VmRSS every 5 s. Load average (1 min) $lmin-$lmax"
		echo "on $(nproc) shared cores."
		echo
		echo '```'
		grep -E '^(PASS|FAIL)' <<< "$r"
		echo "$([ "$v" = ok ] && echo PASS || echo FAIL): soak: $what"
		echo "sent ${sent:-0}"
		echo "RSS samples (s kB), one a minute:"
		awk 'NR % 12 == 1 {printf "%s %s\n", $1, $2}' "$tmp/rss.txt" | tr '\n' ';' | sed 's/;/; /g'
		echo
		echo '```'
	} >> "$srcdir/qa/bench/RESULTS.md"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
