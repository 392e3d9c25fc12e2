#!/bin/bash
# End-to-end tests: runs src/suricata on every case folder under tests/e2e/ in
# --runmode single and autofp and checks the case's `expect` lines.
#   tests/e2e/run.sh [BUILDDIR [SRCDIR [CASE...]]]
# BUILDDIR holds src/suricata and suricata.yaml (default: the source tree).
# E2E_KEEP=1 keeps the log folder of failing runs; E2E_JOBS=N runs N cases at
# once (default 2). Format: tests/e2e/README.md.
# Last line: "N passed, N failed"; exit 1 when anything failed.
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
builddir=${1:-$srcdir}
[ $# -ge 2 ] && srcdir=$2
shift 2 2>/dev/null || shift $#
command -v python3 >/dev/null || { echo "FAIL: e2e: python3 not found"; echo "0 passed, 1 failed"; exit 1; }
exec python3 "$here/runner.py" "$builddir" "$srcdir" "$@"
