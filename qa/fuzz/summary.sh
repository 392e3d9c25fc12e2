#!/bin/bash
# Sums qa/fuzz/work/runs.log (or the files named) per harness: runs, seconds,
# executions, and the corpus and coverage of the latest run. For RESULTS.md.
here=$(cd "$(dirname "$0")" && pwd)
[ $# = 0 ] && set -- "$here/work/runs.log"
awk '{
	h = $4; s = $5; sub(/s$/, "", s)
	split($6, e, "="); split($7, c, "="); split($8, v, "="); split($9, f, "=")
	runs[h]++; secs[h] += s; execs[h] += e[2]
	if (c[2] != "0") { corp[h] = c[2]; cov[h] = v[2]; ft[h] = f[2] }
	if ($10 != "PASS") fails[h]++
	# cpu=Ns from 2026-12-01 on; older lines count their wall seconds
	if ($11 ~ /^cpu=/) { c2 = $11; sub(/^cpu=/, "", c2); sub(/s$/, "", c2); cpu[h] += c2 }
	else cpu[h] += s
} END {
	for (h in runs)
		printf "%-14s %5d %8d %8d %12d %14s %6s %7s %5d\n", h, runs[h], secs[h], cpu[h], execs[h], corp[h], cov[h], ft[h], fails[h]
}' "$@" | sort | sed '1i harness         runs  seconds  cpu-sec        execs         corpus    cov      ft  fail'

