#!/bin/bash
# Runs every harness (or those named) for SECONDS each, one process at a time
# (one in-process fuzzer, no -jobs or -fork: the machine is shared), with its
# corpus (qa/fuzz/work/corpus/: seeds.sh adds the seeds before each run, and
# the runs grow it) and its dictionary.
#   qa/fuzz/run.sh SECONDS [pcap|pipeline|rule|yaml|http ...]
# Per harness one line:
#   PASS: fuzz_NAME: S s, E execs, corpus U units (SIZE), cov C ft F
# or FAIL with the crash input saved under qa/fuzz/crashes/ and the command
# that replays it. Exits 1 when any harness failed. Build first: make fuzz.
# Each run is appended to qa/fuzz/work/runs.log (for RESULTS.md).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
secs=${1:-}
case $secs in ''|*[!0-9]*) echo "usage: $0 SECONDS [harness ...]" >&2; exit 2 ;; esac
shift
names=("$@")
[ ${#names[@]} = 0 ] && names=(pcap pipeline rule yaml http dns tls smtp ssh ftp dcerpc smb mqtt sip ber pop3 pgsql udp dnp3 remote http2 ics misc quic)
work=$here/work
crashes=$here/crashes
mkdir -p "$work/logs" "$crashes"
# (re)builds the corpora: adds what is new in the tree's seeds, keeps the rest
"$here/seeds.sh" > "$work/logs/seeds.log" || { cat "$work/logs/seeds.log"; exit 1; }
commit=$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)

fail=0
for h in "${names[@]}"; do
	bin=$here/fuzz_$h
	dict=
	case $h in
	pcap) maxlen=16384 ;;
	pipeline) maxlen=16384; dict=$here/http.dict ;;
	rule) maxlen=4096; dict=$here/rules.dict ;;
	yaml) maxlen=32768; dict=$here/yaml.dict ;;
	http) maxlen=8192; dict=$here/http.dict ;;
	dns) maxlen=4096 ;;
	tls) maxlen=65536 ;;
	smtp) maxlen=65536 ;;
	ssh) maxlen=16384 ;;
	ftp) maxlen=16384 ;;
	dcerpc) maxlen=16384 ;;
	smb) maxlen=65536 ;;
	mqtt) maxlen=16384 ;;
	sip) maxlen=16384 ;;
	ber) maxlen=16384 ;;
	pop3) maxlen=16384 ;;
	pgsql) maxlen=16384 ;;
	udp) maxlen=16384 ;;
	dnp3) maxlen=16384 ;;
	remote) maxlen=16384 ;;
	http2) maxlen=65536 ;;
	ics) maxlen=16384 ;;
	misc) maxlen=16384 ;;
	quic) maxlen=16384 ;;
	*) echo "FAIL: fuzz_$h: no such harness"; fail=1; continue ;;
	esac
	if [ ! -x "$bin" ]; then
		echo "FAIL: fuzz_$h: $bin is not built (make fuzz)"; fail=1; continue
	fi
	corpus=$work/corpus/$h
	mkdir -p "$corpus"
	log=$work/logs/$h.log
	# A crash stops the run at once; its input lands in crashes/NAME-crash-<sha1>.
	rm -f "$crashes/.new-$h"-*
	args=(-max_total_time="$secs" -max_len="$maxlen" -timeout=20 -rss_limit_mb=2048
	      -print_final_stats=1 -close_fd_mask=3
	      -artifact_prefix="$crashes/.new-$h-")
	[ -n "$dict" ] && args+=(-dict="$dict")
	t0=$(date +%s)
	# CPU seconds (user + system) as well as wall seconds: on a shared machine,
	# and at nice 19, a run's wall time overstates the fuzzing it did.
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
		/usr/bin/time -f '%U %S' -o "$work/logs/$h.time" \
		timeout $((secs + 120)) "$bin" "${args[@]}" "$corpus" < /dev/null > "$log" 2>&1
	rc=$?
	ran=$(($(date +%s) - t0))
	cpu=$(awk 'END { printf "%d", $1 + $2 }' "$work/logs/$h.time" 2>/dev/null)
	# libFuzzer's last status line ("#N DONE cov: C ft: F corp: U/SIZE ...")
	last=$(grep -E '^#[0-9]+[[:space:]]' "$log" | tail -1)
	execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{print $2}' | tail -1)
	[ -n "$execs" ] || execs=$(echo "$last" | sed -n 's/^#\([0-9]*\).*/\1/p')
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p')
	units=${corp%%/*} size=${corp#*/}
	art=$(ls "$crashes/.new-$h"-* 2>/dev/null | head -1)
	if [ $rc = 0 ] && [ -z "$art" ] && [ "${execs:-0}" -gt 0 ]; then
		echo "PASS: fuzz_$h: $ran s (cpu ${cpu:-0} s), ${execs:-0} execs, corpus ${units:-0} units (${size:-0}), cov ${cov:-0} ft ${ft:-0}"
		status=PASS
	else
		status=FAIL
		if [ -n "$art" ]; then
			kind=$(basename "$art" | sed "s/^\.new-$h-//; s/-.*//")
			dest=$crashes/$h-$(basename "$art" | sed "s/^\.new-$h-//")
			mv "$art" "$dest"
			echo "FAIL: fuzz_$h: $kind after $ran s, ${execs:-?} execs; input saved as ${dest#"$top/"}; replay: qa/fuzz/fuzz_$h ${dest#"$top/"}"
			grep -m1 -E 'ERROR: (AddressSanitizer|libFuzzer|LeakSanitizer)|runtime error:' "$log" | sed 's/^/    /'
		else
			echo "FAIL: fuzz_$h: exit $rc, ${execs:-0} execs, no crash input (see $log)"
			tail -5 "$log" | sed 's/^/    /'
		fi
		fail=1
	fi
	printf '%s %s %s fuzz_%s %ss execs=%s corpus=%s cov=%s ft=%s %s cpu=%ss\n' "$(date -u +%FT%TZ)" \
		"$commit" "$(hostname)" "$h" "$ran" "${execs:-0}" "${corp:-0}" "${cov:-0}" "${ft:-0}" \
		"$status" "${cpu:-0}" >> "$work/runs.log"
done
exit $fail
