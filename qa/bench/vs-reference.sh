#!/bin/bash
# Our engine and the reference engine (Suricata 4.1.10, ../shared/tools/
# reference-suricata) side by side in one run, interleaved round by round so
# that the load of this shared machine falls on both alike: one worker thread
# each (--runmode single), every ET Open rule that each loads, mpm-algo ac and
# hs on each side.
#
# The packet rate is issue #18's: each engine's own measure of its packet
# phase (4.1's "time elapsed", our "packets processed in") on a capture of
# N copies minus the same on one copy, so that what is fixed per run (4.1's
# measure holds its threads' start) cancels: packets/s = the N-1 copies'
# packets over (the fastest N-copy run - the fastest one-copy run), noise
# on this machine only adding time to each run. The rounds column shows
# each round's own difference (4.1's fixed part varies by ~1 s from run to
# run: a round's difference alone is noisy). The copies are bench-1x's, each two hours after the last and on its
# own VLAN (vlan-copies.py): time-shifted alone, 4.1 (whose flow manager
# evidently expires flows on wall-clock ticks, offline too) took copy 2's
# packets for copy 1's flows and skipped most of their work. The script checks that each engine's
# N-copy run alerts N times what its one-copy run does (the same work per
# copy), prints load time, Mbit/s and peak RSS, the ratios issue #18 asks
# for, and that our builds (the commits compared) and both our matchers give
# the same alerts.
#
#   qa/bench/vs-reference.sh OUR_BIN [OUR_BIN ...]
#   env: BASE (one copy, default /tmp/bench/bench-1x.pcap), COPIES (10),
#        ROUNDS (3), REF (an installed reference, default /tmp/refsuri:
#        installed there when missing), RULES (default: all of ET Open 4.0),
#        ALGOS ("ac hs")
# Exit status 1 when a run fails, a work check fails or our alerts differ;
# the ratios are reported, not judged (they depend on the machine).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${SURICATA_SHARED:-$root/../shared}
base=${BASE:-/tmp/bench/bench-1x.pcap}
copies=${COPIES:-10}
rounds=${ROUNDS:-3}
ref=${REF:-/tmp/refsuri}
algos=${ALGOS:-ac hs}
[ $# -ge 1 ] || { echo "usage: $0 OUR_BIN [OUR_BIN ...]" >&2; exit 2; }
ours=("$@")
for b in "${ours[@]}"; do
	[ -x "$b" ] || { echo "FAIL: vs-reference: $b is not executable"; exit 1; }
done
[ -f "$base" ] || { echo "FAIL: vs-reference: no $base ($shared/tools/make-bench-pcap.sh DIR 1)"; exit 1; }
if [ ! -x "$ref/bin/suricata" ]; then
	"$shared/tools/reference-suricata/install.sh" "$ref" > /dev/null ||
		{ echo "FAIL: vs-reference: cannot install the reference engine in $ref"; exit 1; }
fi
tmp=$(mktemp -d /tmp/vs-reference.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
rules=${RULES:-$tmp/et.rules}
[ -n "${RULES:-}" ] || cat "$shared"/data/rules/et-open-4.0/emerging-*.rules > "$rules" ||
	{ echo "FAIL: vs-reference: no ET Open rules under $shared"; exit 1; }
class=$shared/data/rules/et-open-4.0/classification.config
for n in 1 "$copies"; do
	python3 "$root/qa/bench/vlan-copies.py" "$base" "$tmp/x$n.pcap" "$n" > /dev/null ||
		{ echo "FAIL: vs-reference: cannot write $n copies of $base"; exit 1; }
done

# run ENGINE_INDEX ALGO ROUND COPIES: one run; its log and alerts under
# $tmp/ENGINE-ALGO-ROUND-COPIES
run() {
	local e=$1 algo=$2 r=$3 n=$4 d="$tmp/$1-$2-$3-$4" pcap="$tmp/x$4.pcap"
	mkdir -p "$d"
	if [ "$e" = ref ]; then
		/usr/bin/time -f '%M' -o "$d/rss" "$ref/bin/suricata" -c "$ref/etc/suricata.yaml" \
			-r "$pcap" -S "$rules" --runmode single -k none -l "$d" -v \
			--set mpm-algo="$algo" > "$d/out" 2>&1
	else
		/usr/bin/time -f '%M' -o "$d/rss" "${ours[$e]}" -c "$root/suricata.yaml" \
			-r "$pcap" -S "$rules" --runmode single -k none -l "$d" -v \
			--set classification-file="$class" --set mpm-algo="$algo" > "$d/out" 2>&1
	fi || { echo "FAIL: vs-reference: $e $algo round $r ($n copies) exited $? (see below)"; tail -5 "$d/out"; return 1; }
	# keep the alerts (for the comparison) and drop the rest of eve
	grep '"event_type":"alert"' "$d/eve.json" > "$d/alerts" 2>/dev/null
	rm -f "$d/eve.json" "$d"/*.log
}

engines=(ref)
for i in "${!ours[@]}"; do engines+=("$i"); done
fail=0
for r in $(seq 1 "$rounds"); do
	for algo in $algos; do
		for e in "${engines[@]}"; do
			run "$e" "$algo" "$r" 1 || fail=1
			run "$e" "$algo" "$r" "$copies" || fail=1
		done
	done
done

python3 - "$tmp" "$rounds" "$algos" "$copies" "${ours[@]}" <<'PY' || fail=1
import collections, json, os, re, statistics, sys
tmp, rounds, algos, copies, ours = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), int(sys.argv[4]), sys.argv[5:]
engines = ['ref'] + [str(i) for i in range(len(ours))]

def parse1(e, algo, r, n):
    d = os.path.join(tmp, '%s-%s-%d-%d' % (e, algo, r, n))
    try:
        out = open(os.path.join(d, 'out'), errors='replace').read()
        rss = int(open(os.path.join(d, 'rss')).read().split()[-1]) / 1024.0
        nalerts = sum(1 for _ in open(os.path.join(d, 'alerts')))
    except (OSError, ValueError, IndexError):
        return None
    m = re.search(r'read 1 files, (\d+) packets, (\d+) bytes', out)
    if not m:
        return None
    pkts, nbytes = int(m.group(1)), int(m.group(2))
    if e == 'ref':
        t = re.search(r'time elapsed ([\d.]+)s', out)
        # 4.1's log has a timestamp per line: load is the first line to
        # "engine started"
        stamps = re.findall(r'^\d+/\d+/\d+ -- (\d+):(\d+):(\d+) - .*', out, re.M)
        started = re.search(r'^\d+/\d+/\d+ -- (\d+):(\d+):(\d+) - .*engine started', out, re.M)
        load = None
        if stamps and started:
            sec = lambda h, m_, s: int(h) * 3600 + int(m_) * 60 + int(s)
            load = sec(*started.groups()) - sec(*stamps[0])
    else:
        t = re.search(r'packets processed in ([\d.]+) s', out)
        lm = re.search(r'engine ready in ([\d.]+) s', out)
        load = float(lm.group(1)) if lm else None
    if not t:
        return None
    return dict(secs=float(t.group(1)), pkts=pkts, nbytes=nbytes, load=load, rss=rss,
                alerts=nalerts)

def parse(e, algo, r):
    """One round: the N copies minus the one copy."""
    a, b = parse1(e, algo, r, 1), parse1(e, algo, r, copies)
    if not a or not b or b['secs'] <= a['secs']:
        return None
    dt = b['secs'] - a['secs']
    return dict(pps=(b['pkts'] - a['pkts']) / dt, t1=a['secs'], tn=b['secs'],
                dpkts=b['pkts'] - a['pkts'], dbytes=b['nbytes'] - a['nbytes'],
                load=b['load'], rss=max(a['rss'], b['rss']), work=(a['alerts'], b['alerts']))

def alerts(e, algo):
    """(sid, flow tuple) -> count, over round 1 (alerts do not vary by round)."""
    c = collections.Counter()
    p = os.path.join(tmp, '%s-%s-1-%d' % (e, algo, copies), 'alerts')
    for line in open(p) if os.path.exists(p) else []:
        a = json.loads(line)
        ends = sorted([(a.get('src_ip'), a.get('src_port')), (a.get('dest_ip'), a.get('dest_port'))], key=str)
        c[(a['alert']['signature_id'], a.get('proto')) + tuple(ends)] += 1
    return c

rows, best = {}, {}
work_ok = True
print('%d copies minus one, per round:' % copies)
print('%-10s %-4s %8s %12s %9s %9s  %s' % ('engine', 'mpm', 'load s', 'best pkt/s', 'Mbit/s', 'RSS MB', 'rounds (packets/s)'))
for e in engines:
    for algo in algos:
        runs = [x for x in (parse(e, algo, r) for r in range(1, rounds + 1)) if x]
        if not runs:
            print('%-10s %-4s  no result' % (e, algo))
            continue
        # noise only adds time, to each run apart: the fastest N-copy run
        # minus the fastest one-copy run (the fastest round's difference
        # would favour a round whose one-copy run was slowed)
        dt = min(x['tn'] for x in runs) - min(x['t1'] for x in runs)
        if dt <= 0:
            print('%-10s %-4s  no result (N copies not slower than one)' % (e, algo))
            continue
        fast = runs[0]['dpkts'] / dt
        mbps = runs[0]['dbytes'] * 8 / dt / 1e6
        loads = [x['load'] for x in runs if x['load'] is not None]
        load = statistics.median(loads) if loads else float('nan')
        rss = max(x['rss'] for x in runs)
        rows[(e, algo)] = dict(pps=fast, load=load, rss=rss,
                               round_pps=max(x['pps'] for x in runs))
        name = 'reference' if e == 'ref' else 'ours[%s]' % e
        # the same work per copy: N copies alert N times one copy's alerts
        bad = [x['work'] for x in runs if x['work'][1] != copies * x['work'][0]]
        print('%-10s %-4s %8.2f %12.0f %9.1f %9.0f  %s; alerts %d x %d = %d' % (
              name, algo, load, fast, mbps, rss, ' '.join('%.0f' % x['pps'] for x in runs),
              runs[0]['work'][0], copies, runs[0]['work'][1]))
        if bad:
            print('  FAIL: work check: %s %s: %d copies alerted %s, not %d x one copy' % (
                  name, algo, copies, bad[0][1], copies))
            work_ok = False

def best_of(e):
    cand = [(rows[(e, a)]['pps'], a) for a in algos if (e, a) in rows]
    return max(cand) if cand else (None, None)

rp, ra = best_of('ref')
ok = True
for i, b in enumerate(ours):
    e = str(i)
    op, oa = best_of(e)
    if rp is None or op is None:
        continue
    print('ours[%s] = %s' % (e, b))
    print('  best matcher: ours %s %.0f pkt/s vs reference %s %.0f pkt/s: %.2fx' % (oa, op, ra, rp, op / rp))
    # the same matchers by their fastest single round: a check on the
    # figure above, which an outlying one-copy run can move either way
    orp, rrp = rows[(e, oa)]['round_pps'], rows[('ref', ra)]['round_pps']
    print('  fastest round, same matchers: ours %.0f vs reference %.0f: %.2fx' % (orp, rrp, orp / rrp))
    if (e, 'hs') in rows and (e, 'ac') in rows:
        print('  our hs / our ac: %.2f' % (rows[(e, 'hs')]['pps'] / rows[(e, 'ac')]['pps']))
    rl = min(rows[('ref', a)]['load'] for a in algos if ('ref', a) in rows)
    ol = min(rows[(e, a)]['load'] for a in algos if (e, a) in rows)
    print('  load: ours %.2f s vs reference %.2f s: %.2f of its time' % (ol, rl, ol / rl if rl else float('nan')))
    rr = max(rows[('ref', a)]['rss'] for a in algos if ('ref', a) in rows)
    orr = max(rows[(e, a)]['rss'] for a in algos if (e, a) in rows)
    print('  peak RSS: ours %.0f MB vs reference %.0f MB: %.2f' % (orr, rr, orr / rr))

# our alerts: the same for every build and both matchers
sets = {(e, a): alerts(e, a) for e in engines[1:] for a in algos}
first = next(iter(sets.values()), None)
same = all(v == first for v in sets.values())
n = sum(first.values()) if first else 0
print('our alerts (sid, flow) across %d build(s) x %s: %s (%d alerts, %d pairs)' % (
    len(ours), '/'.join(algos), 'identical' if same else 'DIFFER', n, len(first or {})))
if not same:
    for k, v in sets.items():
        print('  ours[%s] %s: %d alerts, %d pairs' % (k[0], k[1], sum(v.values()), len(v)))
    ok = False
sys.exit(0 if ok and work_ok else 1)
PY
exit $fail
