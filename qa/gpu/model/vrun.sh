#!/bin/bash
# The verify kernel's cost model (a MODEL of the H200, not a measurement):
#   qa/gpu/model/vrun.sh [--ci] [PCAP]
# Runs this tree's engine with ac-cuda on the host emulation and ET Open
# 4.0, which writes what the verify kernel sees (cuda.mpm.test-opts
# vdump=...), then qa/gpu/model/vmodel over it with the PTX instruction
# counts of acv_kernel (vptx.py; without nvcc, vmodel's own table). Prints
# the prediction per batch (README.md, "The verify kernel"). Exit 1 when
# vmodel's replay of a batch does not give the pass records the emulation
# wrote, 2 when the engine or the inputs fail.
#
# PCAP: default bench-1x.pcap ($BENCH_PCAP, /tmp/bench, $MODEL_CACHE);
# --ci: shared/data/pcaps/ndpi/1kxun.pcap, a few seconds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
shared=${SURICATA_SHARED:-$top/../shared}
cache=${MODEL_CACHE:-/tmp/ac-model}
ci=0 pcap=
for a in "$@"; do
	case "$a" in
	--ci) ci=1 ;;
	*) pcap=$a ;;
	esac
done
rules=$shared/data/rules/et-open-4.0
if [ ! -d "$rules" ]; then
	echo "SKIP: vrun: $rules not found (the model needs ET Open)"
	exit 0
fi
if [ -z "$pcap" ]; then
	if [ $ci = 1 ]; then
		pcap=$shared/data/pcaps/ndpi/1kxun.pcap
	else
		for p in "${BENCH_PCAP:-}" /tmp/bench/bench-1x.pcap "$cache/bench-1x.pcap"; do
			[ -n "$p" ] && [ -s "$p" ] && { pcap=$p; break; }
		done
	fi
fi
[ -s "$pcap" ] || { echo "vrun: no capture (give one, or set BENCH_PCAP)" >&2; exit 2; }
mkdir -p "$cache"
make -s -C "$here" B="$cache/bin" >&2 || exit 2
work=$(mktemp -d /tmp/vrun.XXXXXX)
trap 'rm -rf "$work"' EXIT
cat "$rules"/*.rules > "$work/et.rules"
if ! "$top/src/suricata" -c "$top/suricata.yaml" -r "$pcap" -S "$work/et.rules" -l "$work" \
	--runmode autofp --set classification-file="$rules/classification.config" \
	--set mpm-algo=ac-cuda --set cuda.mpm.emulation=yes \
	--set cuda.mpm.test-opts="vdump=$work/vd.bin" > "$work/engine.log" 2>&1; then
	tail -5 "$work/engine.log" >&2
	echo "vrun: the engine failed" >&2
	exit 2
fi
echo "capture: $pcap ($(grep -c '"event_type":"alert"' "$work/eve.json" || true) alerts)"
w=$(python3 "$here/vptx.py" 2>/dev/null || true)
if [ -n "$w" ]; then
	"$cache/bin/vmodel" --weights "$w" "$work/vd.bin"
else
	"$cache/bin/vmodel" "$work/vd.bin"
fi
