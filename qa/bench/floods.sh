#!/bin/bash
# Memory under floods (issue #17; not run in CI): a 300k-source SYN flood,
# 200k IPv4 first fragments never completed, 100k concurrent HTTP sessions,
# and (issue #43) 100k concurrent TLS, SMTP and SMB sessions, each with all
# of ET Open and the default settings.
#
#   qa/bench/floods.sh [BUILDDIR [WORKDIR]]
#
# BUILDDIR holds src/suricata and suricata.yaml (default: this tree); WORKDIR
# (default /tmp/floods-$UID) keeps the captures (made once, flood-gen.py) and
# each run's log folder. Environment:
#   FLOODS="syn frag http"   which floods to run (also: tls smtp smb)
#   POLICY=pass-flow         also set every per-target exception policy
#                            (flow/defrag/stream/reassembly memcap, app-layer
#                            error) to this value, to see its counters
#   EXTRA="--set k=v ..."    more engine arguments
#
# For each flood: peak RSS (/usr/bin/time -v: the whole run, rule loading
# included) and the packet phase's peak RSS (rss-poll.py), decoder.pkts against the
# packets written, the engine's peak of the sum of the memuse counters (flow,
# tcp, tcp.reassembly, http, defrag, and the TLS, SMTP, SMB, DCERPC and SSH
# parsers under app-layer.memcap: "memuse: peak" in suricata.log; the 1 s
# stats records, stats.interval being the only setting changed, miss a short
# flood's peak) against the RSS growth over a run of the same engine and
# rules on a 1-packet capture, and the exception-policy and memcap counters
# of the last stats record. RSS growth: the packet phase's peak over the RSS
# at its start (the engine logs it, after giving rule loading's freed heap
# back with malloc_trim).
# Targets: peak RSS <= 600 MB, memuse sum within 20% of the RSS growth.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$src}" && pwd)
work=${2:-/tmp/floods-$(id -u)}
floods=${FLOODS:-syn frag http}
rules_dir=$src/../shared/data/rules/et-open-4.0
[ -d "$rules_dir" ] || rules_dir=/work/shared/data/rules/et-open-4.0
mkdir -p "$work"
cat "$rules_dir"/emerging-*.rules > "$work/et-open.rules" || exit 1

pol_args=()
if [ -n "${POLICY:-}" ]; then
	for k in flow.memcap-policy defrag.memcap-policy stream.memcap-policy \
		stream.reassembly.memcap-policy app-layer.error-policy; do
		pol_args+=(--set "$k=$POLICY")
	done
fi

run() {         # name pcap -> $work/out-name/{eve.json,time.txt}
	local out=$work/out-$1
	rm -rf "$out"
	mkdir -p "$out"
	# shellcheck disable=SC2086
	# -v: the info lines reach stdout (flushed per line) as they happen,
	# where rss-poll.py sees the packet phase begin; suricata.log is buffered
	/usr/bin/python3 "$here/rss-poll.py" "$out/rss.txt" "$out/stdout" \
		"at the start of packet processing" -- \
		/usr/bin/time -v "$build/src/suricata" -v -c "$build/suricata.yaml" -r "$2" \
		-S "$work/et-open.rules" -l "$out" --set stats.interval=1 \
		"${pol_args[@]}" ${EXTRA:-} > "$out/stdout" 2> "$out/time.txt"
	echo $? > "$out/rc"
}

for f in $floods; do
	if [ ! -s "$work/$f.pcap" ] || [ ! -s "$work/$f.count" ]; then
		/usr/bin/python3 "$here/flood-gen.py" "$f" "$work/$f.pcap" > "$work/$f.count" || exit 1
	fi
done
[ -s "$work/one.pcap" ] || /usr/bin/python3 "$here/flood-gen.py" syn "$work/one.pcap" 1 > /dev/null

echo "floods: $(date -u '+%Y-%m-%d %H:%M') UTC, commit $(git -C "$src" rev-parse --short HEAD)," \
	"policy ${POLICY:-default}"
run baseline "$work/one.pcap"
for f in $floods; do
	run "$f" "$work/$f.pcap"
done

/usr/bin/python3 - "$work" $floods <<'EOF'
import json, re, sys

work, floods = sys.argv[1], sys.argv[2:]
MEMUSE = ("flow.memuse", "tcp.memuse", "tcp.reassembly_memuse", "http.memuse",
          "defrag.memuse", "dns.memuse", "ftp.memuse", "tls.memuse", "smtp.memuse",
          "smb.memuse", "dcerpc.memuse", "ssh.memuse")
REFUSALS = ("flow.memcap", "flow.emerg_mode_entered", "tcp.ssn_memcap_drop",
            "tcp.segment_memcap_drop", "http.memcap", "app_layer.error.http.alloc",
            "tls.memcap", "smtp.memcap", "smb.memcap", "app_layer.error.tls.alloc",
            "app_layer.error.smtp.alloc", "app_layer.error.smb.alloc",
            "defrag.max_trackers_reached", "defrag.tracker_hard_reuse",
            "defrag.max_frags_reached")


def get(stats, name):
    v = stats
    for part in name.split("."):
        if not isinstance(v, dict) or part not in v:
            return None
        v = v[part]
    return v


def flat(prefix, v, out):
    if isinstance(v, dict):
        for k, x in v.items():
            flat(prefix + "." + k if prefix else k, x, out)
    else:
        out[prefix] = v


def load(name):
    out = "%s/out-%s" % (work, name)
    rss = 0
    for line in open(out + "/time.txt", errors="replace"):
        m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", line)
        if m:
            rss = int(m.group(1)) * 1024
    recs = []
    try:
        for line in open(out + "/eve.json", errors="replace"):
            if '"event_type":"stats"' in line:
                recs.append(json.loads(line)["stats"])
    except OSError:
        pass
    rc = open(out + "/rc").read().strip()
    return rss, recs, rc


mb = lambda b: b / 1048576.0
base_rss, _, _ = load("baseline")
print("baseline (1 packet, ET Open loaded): peak RSS %.1f MB" % mb(base_rss))
print("%-5s %4s %9s %9s %10s %9s %9s %10s %10s %8s %6s" % (
    "flood", "exit", "packets", "counted", "peakRSS_MB", "startRSS", "phasePeak",
    "growth_MB",
    "memuse_MB", "mem/grw", "target"))
details = []
for f in floods:
    rss, recs, rc = load(f)
    written = int(open("%s/%s.count" % (work, f)).read().split()[0])
    last = recs[-1] if recs else {}
    pkts = get(last, "decoder.pkts") or 0
    # per-counter peaks over the 1 s stats records (they may miss the peak)
    peak_parts = {k: max([get(s, k) or 0 for s in recs] or [0]) for k in MEMUSE}
    # the engine's own peak of the sum (suricata.log "memuse: peak N bytes")
    peak_sum = 0
    try:
        for line in open("%s/out-%s/suricata.log" % (work, f), errors="replace"):
            m = re.search(r"memuse: peak (\d+) bytes", line)
            if m:
                peak_sum = int(m.group(1))
    except OSError:
        pass
    # growth over the loaded engine of this very run ("memuse: RSS N bytes at
    # the start of packet processing"); peak RSS minus the 1-packet run's peak
    # hides what fits in the heap that rule loading freed
    start, phase_peak = 0, 0
    for line in open("%s/out-%s/suricata.log" % (work, f), errors="replace"):
        m = re.search(r"memuse: RSS (\d+) bytes at the start", line)
        if m:
            start = int(m.group(1))

    # the lifetime peak (time -v) may be rule loading's: the packet phase's
    # own peak (rss-poll.py, 5 ms samples) is what the flood added to
    try:
        for line in open("%s/out-%s/rss.txt" % (work, f)):
            k, v = line.split()
            if k == "phase_peak_kb":
                phase_peak = int(v) * 1024
    except OSError:
        pass
    growth = (phase_peak or rss) - start
    base_growth = rss - base_rss
    ratio = peak_sum / growth if growth > 0 else 0
    ok = rss <= 600 * 1048576 and abs(1 - ratio) <= 0.20 and pkts == written
    print("%-5s %4s %9d %9d %10.1f %9.1f %9.1f %10.1f %10.1f %8.2f %6s" % (
        f, rc, written, pkts, mb(rss), mb(start), mb(phase_peak), mb(growth), mb(peak_sum),
        ratio,
        "met" if ok else "MISSED"))
    details.append("  %s: peak RSS over the 1-packet run's peak: %.1f MB" % (f, mb(base_growth)))
    eps = {}
    flat("exception_policy", last.get("exception_policy", {}), eps)
    details.append("  %s: memuse peaks in the 1 s stats: %s" % (f, " ".join(
        "%s=%.1fMB" % (k, mb(v)) for k, v in peak_parts.items() if v)))
    details.append("  %s: refusals: %s" % (f, " ".join(
        "%s=%s" % (k, get(last, k)) for k in REFUSALS if get(last, k))))
    applied = " ".join("%s=%s" % kv for kv in sorted(eps.items()) if kv[1])
    details.append("  %s: exception policies: %s" % (f, applied or (
        "%d counters registered, all 0" % len(eps) if eps else
        "(none registered: every policy is ignore, the IDS default)")))
    details.append("  %s: http.memuse at the end %s (all freed: 0)" % (
        f, get(last, "http.memuse")))
print("\n".join(details))
EOF
