#!/bin/bash
# Does qa/gpu/accuda-equal.sh notice a dead GPU? With the emulation's fault
# switch (ACCUDA_FAIL=1: every batch fails on the "device"), the payloads
# are rescanned on the CPU, so the alerts stay equal to ac's, but the
# script must FAIL the device check and exit non-zero.
#   qa/gpu/accuda-equal-selftest.sh SURICATA YAML SRCDIR
# Small inputs from tests/ (a second or two). Prints PASS/FAIL lines.
set -u
bin=$1; yaml=$2; src=$3
out=$(ACCUDA_FAIL=1 "$src/qa/gpu/accuda-equal.sh" "$bin" "$yaml" \
	"$src/tests/data/pcaps/multi-flow.pcap" "$src/tests/e2e/accuda-emulation-tiny/test.rules" 2>&1)
rc=$?
name="accuda-equal self-test (fail=1)"
# the alerts are still those of ac (CPU rescan) ...
if ! grep -q '^PASS: accuda-equal (default): .* same as ac' <<<"$out"; then
	echo "FAIL: $name: the default run's alerts differ from ac's"; echo "$out" | tail -20; exit 1
fi
# ... but every batch failed, and the script says so with the numbers
if ! grep -Eq '^FAIL: accuda-equal \(default device\): ([0-9]+) of \1 batches failed on the device \(\1 errors, 0 overflows\)' <<<"$out"; then
	echo "FAIL: $name: no device FAIL line with error_batches == batches"; echo "$out" | tail -20; exit 1
fi
if [ "$rc" -eq 0 ]; then
	echo "FAIL: $name: accuda-equal.sh exited 0"; exit 1
fi
echo "PASS: $name: alerts equal, device check FAILs (exit $rc)"
